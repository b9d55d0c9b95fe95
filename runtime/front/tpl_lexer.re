/* The template lexer: Twig 3.5's tokens (text, tag delimiters with their
 * whitespace control, names, numbers, strings with #{} interpolation,
 * operators); re2c recognises expression tokens, C runs the states. */
#include <stdlib.h>
#include <string.h>

#include "tpl_front.h"

enum { ST_DATA, ST_BLOCK, ST_VAR, ST_STR, ST_INTERP };

typedef struct lx_bracket {
  char c; /* ( [ { " and # for #{ */
  uint32_t line, col;
} lx_bracket;

typedef struct lx {
  tpl_pctx *P;
  const unsigned char *s;
  size_t len, cur;
  /* line/column cache: offsets only move forward, so this is linear */
  size_t lc_off, lc_ls;
  uint32_t lc_line;
  uint8_t st[64];
  size_t nst;
  lx_bracket *br;
  size_t nbr, brcap;
  uint32_t open_line, open_col; /* the {{ or {% being lexed */
  bool open_is_var;
  bool failed;
} lx;

static void lx_pos(lx *L, size_t off, uint32_t *line, uint32_t *col) {
  if (off < L->lc_off) {
    L->lc_off = 0;
    L->lc_ls = 0;
    L->lc_line = 1;
  }
  const unsigned char *p = L->s + L->lc_off, *e = L->s + off;
  while (p < e) {
    const unsigned char *nl = memchr(p, '\n', (size_t)(e - p));
    if (!nl)
      break;
    L->lc_line++;
    L->lc_ls = (size_t)(nl - L->s) + 1;
    p = nl + 1;
  }
  L->lc_off = off;
  *line = L->lc_line;
  *col = (uint32_t)(off - L->lc_ls + 1);
}

static tpl_tok *lx_push(lx *L, int type, size_t off, size_t len) {
  tpl_pctx *P = L->P;
  OC_GROW(P->toks, P->tcap, P->ntoks + 1);
  tpl_tok *t = &P->toks[P->ntoks++];
  memset(t, 0, sizeof *t);
  t->type = (uint8_t)type;
  t->off = (uint32_t)off;
  t->len = (uint32_t)len;
  lx_pos(L, off, &t->line, &t->col);
  return t;
}

static void lx_err_at(lx *L, size_t off, const char *msg, const char *arg) {
  uint32_t line, col;
  lx_pos(L, off, &line, &col);
  if (arg)
    tpl_perr(L->P, line, col, msg, arg);
  else
    tpl_perr(L->P, line, col, "%s", msg);
  L->failed = true;
}

static void lx_push_state(lx *L, int st) {
  if (L->nst < sizeof L->st) {
    L->st[L->nst++] = (uint8_t)st;
    return;
  }
  lx_err_at(L, L->cur, "strings nested too deeply", NULL);
}

static int lx_state(const lx *L) { return L->nst ? L->st[L->nst - 1] : ST_DATA; }

static void lx_push_bracket(lx *L, char c, size_t off) {
  OC_GROW(L->br, L->brcap, L->nbr + 1);
  lx_bracket *b = &L->br[L->nbr++];
  b->c = c;
  lx_pos(L, off, &b->line, &b->col);
}

/* PCRE's \s, and PHP's two trim sets. */
static inline bool lx_ws(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
         c == '\r';
}
static inline bool lx_line_ws(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\0' || c == '\v';
}
static inline bool lx_trim_ws(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\0' ||
         c == '\v';
}

static size_t lx_skip_ws(const lx *L, size_t p) {
  while (p < L->len && lx_ws(L->s[p]))
    p++;
  return p;
}
static size_t lx_skip_line_ws(const lx *L, size_t p) {
  while (p < L->len && lx_line_ws(L->s[p]))
    p++;
  return p;
}

static bool lx_at(const lx *L, size_t p, const char *lit) {
  size_t n = strlen(lit);
  return p <= L->len && L->len - p >= n && memcmp(L->s + p, lit, n) == 0;
}

/* PHP's stripcslashes, which Twig applies to every string literal. */
static char *lx_unescape(oc_arena *a, const unsigned char *s, size_t n,
                         size_t *out_len) {
  char *o = oc_arena_alloc(a, n + 1);
  size_t j = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] != '\\' || i + 1 >= n) {
      o[j++] = (char)s[i];
      continue;
    }
    unsigned char c = s[++i];
    switch (c) {
    case 'n': o[j++] = '\n'; break;
    case 't': o[j++] = '\t'; break;
    case 'r': o[j++] = '\r'; break;
    case 'a': o[j++] = '\a'; break;
    case 'v': o[j++] = '\v'; break;
    case 'b': o[j++] = '\b'; break;
    case 'f': o[j++] = '\f'; break;
    case 'x':
      if (i + 1 < n && strchr("0123456789abcdefABCDEF", s[i + 1]) &&
          s[i + 1]) {
        unsigned v = 0;
        for (int k = 0; k < 2 && i + 1 < n && s[i + 1] &&
                        strchr("0123456789abcdefABCDEF", s[i + 1]);
             k++) {
          unsigned char h = s[++i];
          v = v * 16 + (unsigned)(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
        }
        o[j++] = (char)v;
        break;
      }
      /* "\x" without digits is a plain "x" */
      __attribute__((fallthrough));
    default:
      if (c >= '0' && c <= '7') {
        unsigned v = 0;
        int k = 0;
        i--;
        while (k < 3 && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '7') {
          v = v * 8 + (unsigned)(s[++i] - '0');
          k++;
        }
        o[j++] = (char)v;
      } else {
        o[j++] = (char)c;
      }
    }
  }
  o[j] = 0;
  *out_len = j;
  return o;
}

/* Twig: an integer when all digits and not above PHP_INT_MAX (PHP's cast
 * saturates at the limit itself), a float otherwise. */
static tpl_value lx_number(const unsigned char *s, size_t n) {
  char buf[128];
  size_t j = 0;
  bool digits = true;
  for (size_t i = 0; i < n && j + 1 < sizeof buf; i++) {
    if (s[i] == '_')
      continue;
    if (s[i] < '0' || s[i] > '9')
      digits = false;
    buf[j++] = (char)s[i];
  }
  buf[j] = 0;
  double d = strtod(buf, NULL);
  if (!digits)
    return tpl_float(d);
  uint64_t u = 0;
  bool over = false;
  for (size_t i = 0; i < j; i++) {
    unsigned dg = (unsigned)(buf[i] - '0');
    if (u > (UINT64_MAX - dg) / 10) {
      over = true;
      break;
    }
    u = u * 10 + dg;
  }
  if (!over && u <= (uint64_t)INT64_MAX)
    return tpl_int((int64_t)u);
  if (d <= 9223372036854775807.0)
    return tpl_int(INT64_MAX);
  return tpl_float(d);
}

enum { SC_OP, SC_WORD_OP, SC_NAME, SC_NUMBER, SC_PUNCT, SC_QUOTE, SC_BAD };

/* Recognises one expression token at L->cur. */
static int lx_scan(const lx *L, size_t *end, int *op) {
  const unsigned char *YYCURSOR = L->s + L->cur;
  const unsigned char *YYMARKER = YYCURSOR, *YYCTXMARKER = YYCURSOR;
  int k;
  /*!re2c
    re2c:define:YYCTYPE = "unsigned char";
    re2c:yyfill:enable = 0;

    ws = [ \t\n\v\f\r];
    ctx = [ \t\n\v\f\r()[{];
    name = [a-zA-Z_\x7f-\xff][a-zA-Z0-9_\x7f-\xff]*;
    dig = [0-9]+ ("_" [0-9]+)*;
    num = dig ("." dig)? ([eE] [+-] [0-9]+)?;

    "not" ws+ "in" / ctx    { *op = TPL_R_NOT_IN; k = SC_WORD_OP; goto done; }
    "is" ws+ "not" / ctx    { *op = TPL_R_IS_NOT; k = SC_WORD_OP; goto done; }
    "starts" ws+ "with" / ctx { *op = TPL_R_STARTS_WITH; k = SC_WORD_OP; goto done; }
    "ends" ws+ "with" / ctx { *op = TPL_R_ENDS_WITH; k = SC_WORD_OP; goto done; }
    "has" ws+ "some" / ctx  { *op = TPL_R_HAS_SOME; k = SC_WORD_OP; goto done; }
    "has" ws+ "every" / ctx { *op = TPL_R_HAS_EVERY; k = SC_WORD_OP; goto done; }
    "b-and" / ctx           { *op = TPL_R_BAND; k = SC_WORD_OP; goto done; }
    "b-xor" / ctx           { *op = TPL_R_BXOR; k = SC_WORD_OP; goto done; }
    "b-or" / ctx            { *op = TPL_R_BOR; k = SC_WORD_OP; goto done; }
    "matches" / ctx         { *op = TPL_R_MATCHES; k = SC_WORD_OP; goto done; }
    "and" / ctx             { *op = TPL_R_AND; k = SC_WORD_OP; goto done; }
    "not" / ctx             { *op = TPL_R_NOT; k = SC_WORD_OP; goto done; }
    "or" / ctx              { *op = TPL_R_OR; k = SC_WORD_OP; goto done; }
    "in" / ctx              { *op = TPL_R_IN; k = SC_WORD_OP; goto done; }
    "is" / ctx              { *op = TPL_R_IS; k = SC_WORD_OP; goto done; }
    "<=>"                   { *op = TPL_R_CMP; k = SC_OP; goto done; }
    "=="                    { *op = TPL_R_EQ; k = SC_OP; goto done; }
    "!="                    { *op = TPL_R_NE; k = SC_OP; goto done; }
    "<="                    { *op = TPL_R_LE; k = SC_OP; goto done; }
    ">="                    { *op = TPL_R_GE; k = SC_OP; goto done; }
    "<"                     { *op = TPL_R_LT; k = SC_OP; goto done; }
    ">"                     { *op = TPL_R_GT; k = SC_OP; goto done; }
    ".."                    { *op = TPL_R_RANGE; k = SC_OP; goto done; }
    "//"                    { *op = TPL_R_FLOORDIV; k = SC_OP; goto done; }
    "**"                    { *op = TPL_R_POW; k = SC_OP; goto done; }
    "??"                    { *op = TPL_R_NULLCOAL; k = SC_OP; goto done; }
    "+"                     { *op = TPL_R_PLUS; k = SC_OP; goto done; }
    "-"                     { *op = TPL_R_MINUS; k = SC_OP; goto done; }
    "~"                     { *op = TPL_R_TILDE; k = SC_OP; goto done; }
    "*"                     { *op = TPL_R_MUL; k = SC_OP; goto done; }
    "/"                     { *op = TPL_R_DIV; k = SC_OP; goto done; }
    "%"                     { *op = TPL_R_MOD; k = SC_OP; goto done; }
    "="                     { *op = TPL_R_ASSIGN; k = SC_OP; goto done; }
    name                    { k = SC_NAME; goto done; }
    num                     { k = SC_NUMBER; goto done; }
    [()[\]{}?:.,|]          { k = SC_PUNCT; goto done; }
    ['"]                    { k = SC_QUOTE; goto done; }
    *                       { k = SC_BAD; goto done; }
  */
done:
  (void)YYMARKER;
  (void)YYCTXMARKER;
  *end = (size_t)(YYCURSOR - L->s);
  return k;
}

static const char *lx_bracket_text(char c) {
  switch (c) {
  case '(': return "(";
  case '[': return "[";
  case '{': return "{";
  case '"': return "\"";
  default: return "#{";
  }
}

/* A quoted string at L->cur. */
static void lx_string(lx *L) {
  tpl_pctx *P = L->P;
  size_t start = L->cur, p = start + 1;
  unsigned char q = L->s[start];
  for (;;) {
    if (p >= L->len) {
      lx_err_at(L, start, "unterminated string", NULL);
      return;
    }
    unsigned char c = L->s[p];
    if (c == '\\') {
      p += 2;
      continue;
    }
    if (c == q)
      break;
    if (q == '"' && c == '#' && p + 1 < L->len && L->s[p + 1] == '{') {
      /* interpolated: lex it in the string state */
      lx_push(L, TPL_T_DQ_OPEN, start, 1);
      lx_push_bracket(L, '"', start);
      lx_push_state(L, ST_STR);
      L->cur = start + 1;
      return;
    }
    p++;
  }
  tpl_tok *t = lx_push(L, TPL_T_STRING, start, p + 1 - start);
  t->s = lx_unescape(P->arena, L->s + start + 1, p - start - 1, &t->slen);
  L->cur = p + 1;
}

static void lx_expression(lx *L) {
  tpl_pctx *P = L->P;
  L->cur = lx_skip_ws(L, L->cur);
  if (L->cur >= L->len)
    return; /* the caller reports the unclosed tag */
  size_t start = L->cur;
  if (L->s[start] == '=' && L->s[start + 1] == '>') {
    lx_push(L, TPL_T_ARROW, start, 2);
    L->cur = start + 2;
    return;
  }
  size_t end;
  int op = 0;
  int k = lx_scan(L, &end, &op);
  if (k == SC_WORD_OP && start > 0 &&
      (L->s[start - 1] == '.' || L->s[start - 1] == '|')) {
    /* Twig: a word operator right after "." or "|" is a name */
    end = start;
    while (end < L->len &&
           ((L->s[end] >= 'a' && L->s[end] <= 'z') ||
            (L->s[end] >= 'A' && L->s[end] <= 'Z') ||
            (L->s[end] >= '0' && L->s[end] <= '9') || L->s[end] == '_' ||
            L->s[end] >= 0x7f))
      end++;
    k = SC_NAME;
  }
  switch (k) {
  case SC_OP:
  case SC_WORD_OP: {
    tpl_tok *t = lx_push(L, TPL_T_OP, start, end - start);
    t->op = (uint8_t)op;
    break;
  }
  case SC_NAME: {
    tpl_tok *t = lx_push(L, TPL_T_NAME, start, end - start);
    t->s = oc_arena_strndup(P->arena, (const char *)L->s + start,
                             end - start);
    t->slen = end - start;
    break;
  }
  case SC_NUMBER: {
    tpl_tok *t = lx_push(L, TPL_T_NUMBER, start, end - start);
    t->num = lx_number(L->s + start, end - start);
    break;
  }
  case SC_PUNCT: {
    char c = (char)L->s[start];
    if (c == '(' || c == '[' || c == '{') {
      lx_push_bracket(L, c, start);
    } else if (c == ')' || c == ']' || c == '}') {
      char txt[2] = {c, 0};
      if (!L->nbr) {
        lx_err_at(L, start, "unexpected \"%s\"", txt);
        return;
      }
      lx_bracket b = L->br[--L->nbr];
      char want = b.c == '(' ? ')' : b.c == '[' ? ']' : '}';
      if (c != want || b.c == '"' || b.c == '#') {
        tpl_perr(P, b.line, b.col, "unclosed \"%s\"", lx_bracket_text(b.c));
        L->failed = true;
        return;
      }
    }
    tpl_tok *t = lx_push(L, TPL_T_PUNCT, start, 1);
    t->op = (uint8_t)c;
    break;
  }
  case SC_QUOTE:
    lx_string(L);
    return;
  default: {
    char txt[8];
    unsigned char c = L->s[start];
    if (c >= 0x20 && c < 0x7f) {
      txt[0] = (char)c;
      txt[1] = 0;
    } else {
      snprintf(txt, sizeof txt, "\\x%02X", c);
    }
    lx_err_at(L, start, "unexpected character \"%s\"", txt);
    return;
  }
  }
  L->cur = end;
}

/* Searches for {% endverbatim %} and returns the text before it. */
static void lx_verbatim(lx *L, size_t word_off) {
  size_t from = L->cur;
  for (size_t q = from; q + 1 < L->len; q++) {
    if (L->s[q] != '{' || L->s[q + 1] != '%')
      continue;
    size_t p = q + 2;
    unsigned char trim = 0;
    if (p < L->len && (L->s[p] == '-' || L->s[p] == '~'))
      trim = L->s[p++];
    p = lx_skip_ws(L, p);
    if (!lx_at(L, p, "endverbatim"))
      continue;
    p = lx_skip_ws(L, p + 11);
    if (lx_at(L, p, "-%}"))
      p = lx_skip_ws(L, p + 3);
    else if (lx_at(L, p, "~%}"))
      p = lx_skip_line_ws(L, p + 3);
    else if (lx_at(L, p, "%}"))
      p += 2;
    else
      continue;
    size_t te = q;
    if (trim == '-')
      while (te > from && lx_trim_ws(L->s[te - 1]))
        te--;
    else if (trim == '~')
      while (te > from && lx_line_ws(L->s[te - 1]))
        te--;
    if (te > from) {
      tpl_tok *t = lx_push(L, TPL_T_TEXT, from, te - from);
      t->s = (const char *)L->s + from;
      t->slen = te - from;
    }
    L->cur = p;
    return;
  }
  lx_err_at(L, word_off, "unclosed \"%s\" tag", "verbatim");
}

static void lx_data(lx *L) {
  size_t q = L->cur;
  for (;;) {
    const unsigned char *b = memchr(L->s + q, '{', L->len - q);
    if (!b) {
      q = L->len;
      break;
    }
    q = (size_t)(b - L->s);
    unsigned char n = L->s[q + 1];
    if (n == '{' || n == '%' || n == '#')
      break;
    q++;
  }
  size_t te = q;
  unsigned char trim = 0;
  if (q < L->len) {
    trim = L->s[q + 2];
    if (trim == '-')
      while (te > L->cur && lx_trim_ws(L->s[te - 1]))
        te--;
    else if (trim == '~')
      while (te > L->cur && lx_line_ws(L->s[te - 1]))
        te--;
    else
      trim = 0;
  }
  if (te > L->cur) {
    tpl_tok *t = lx_push(L, TPL_T_TEXT, L->cur, te - L->cur);
    t->s = (const char *)L->s + L->cur;
    t->slen = te - L->cur;
  }
  if (q >= L->len) {
    L->cur = L->len;
    return;
  }
  unsigned char kind = L->s[q + 1];
  size_t p = q + 2 + (trim ? 1 : 0);
  if (kind == '#') {
    for (size_t e = p; e + 1 < L->len; e++) {
      if (L->s[e] != '#' || L->s[e + 1] != '}')
        continue;
      size_t after = e + 2;
      if (e > p && L->s[e - 1] == '-')
        after = lx_skip_ws(L, after);
      else if (e > p && L->s[e - 1] == '~')
        after = lx_skip_line_ws(L, after);
      else if (after < L->len && L->s[after] == '\n')
        after++;
      L->cur = after;
      return;
    }
    lx_err_at(L, q, "unclosed comment", NULL);
    return;
  }
  if (kind == '%') {
    /* {% verbatim %} */
    size_t w = lx_skip_ws(L, p);
    if (lx_at(L, w, "verbatim")) {
      size_t r = lx_skip_ws(L, w + 8);
      bool ok = true;
      if (lx_at(L, r, "-%}"))
        r = lx_skip_ws(L, r + 3);
      else if (lx_at(L, r, "~%}"))
        r = lx_skip_line_ws(L, r + 3);
      else if (lx_at(L, r, "%}"))
        r += 2;
      else
        ok = false;
      if (ok) {
        L->cur = r;
        lx_verbatim(L, w);
        return;
      }
    }
    lx_push(L, TPL_T_BLOCK_START, q, p - q);
    lx_push_state(L, ST_BLOCK);
    L->open_is_var = false;
  } else {
    lx_push(L, TPL_T_VAR_START, q, p - q);
    lx_push_state(L, ST_VAR);
    L->open_is_var = true;
  }
  lx_pos(L, q, &L->open_line, &L->open_col);
  L->cur = p;
}

/* The end of a {% %} or {{ }} tag, with its whitespace control. */
static bool lx_tag_end(lx *L, bool block) {
  size_t p = lx_skip_ws(L, L->cur);
  const char *close = block ? "%}" : "}}";
  size_t m = p, after;
  if (L->s[p] == '-' && lx_at(L, p + 1, close)) {
    after = lx_skip_ws(L, p + 3);
  } else if (L->s[p] == '~' && lx_at(L, p + 1, close)) {
    after = lx_skip_line_ws(L, p + 3);
  } else if (lx_at(L, p, close)) {
    after = p + 2;
    if (block && after < L->len && L->s[after] == '\n')
      after++;
  } else {
    return false;
  }
  lx_push(L, block ? TPL_T_BLOCK_END : TPL_T_VAR_END, m, after - m);
  L->cur = after;
  L->nst--;
  return true;
}

static void lx_dq_string(lx *L) {
  tpl_pctx *P = L->P;
  size_t p = L->cur;
  if (p >= L->len)
    return;
  if (L->s[p] == '#' && p + 1 < L->len && L->s[p + 1] == '{') {
    lx_push_bracket(L, '#', p);
    lx_push(L, TPL_T_INTERP_START, p, 2);
    L->cur = lx_skip_ws(L, p + 2);
    lx_push_state(L, ST_INTERP);
    return;
  }
  if (L->s[p] == '"') {
    L->nbr--;
    lx_push(L, TPL_T_DQ_CLOSE, p, 1);
    L->nst--;
    L->cur = p + 1;
    return;
  }
  size_t e = p;
  while (e < L->len && L->s[e] != '"' &&
         !(L->s[e] == '#' && e + 1 < L->len && L->s[e + 1] == '{')) {
    if (L->s[e] == '\\' && e + 1 < L->len)
      e++;
    e++;
  }
  if (e > L->len)
    e = L->len;
  tpl_tok *t = lx_push(L, TPL_T_STRING, p, e - p);
  t->s = lx_unescape(P->arena, L->s + p, e - p, &t->slen);
  L->cur = e;
}

bool tpl_lex(tpl_pctx *P) {
  lx L;
  memset(&L, 0, sizeof L);
  L.P = P;
  L.s = (const unsigned char *)P->src;
  L.len = P->len;
  L.lc_line = 1;
  while (L.cur < L.len && !L.failed) {
    switch (lx_state(&L)) {
    case ST_DATA:
      lx_data(&L);
      break;
    case ST_BLOCK:
    case ST_VAR:
      if (L.nbr == 0 && lx_tag_end(&L, lx_state(&L) == ST_BLOCK))
        break;
      lx_expression(&L);
      break;
    case ST_STR:
      lx_dq_string(&L);
      break;
    case ST_INTERP:
      if (L.nbr && L.br[L.nbr - 1].c == '#') {
        size_t p = lx_skip_ws(&L, L.cur);
        if (p < L.len && L.s[p] == '}') {
          L.nbr--;
          lx_push(&L, TPL_T_INTERP_END, p, 1);
          L.cur = p + 1;
          L.nst--;
          break;
        }
      }
      lx_expression(&L);
      break;
    }
  }
  if (!L.failed && lx_state(&L) != ST_DATA) {
    lx_bracket *q = NULL;
    for (size_t i = L.nbr; i-- > 0;)
      if (L.br[i].c == '"') {
        q = &L.br[i];
        break;
      }
    if (lx_state(&L) == ST_STR && q)
      tpl_perr(P, q->line, q->col, "unterminated string");
    else
      tpl_perr(P, L.open_line, L.open_col, "unclosed \"%s\"",
               L.open_is_var ? "{{" : "{%");
    L.failed = true;
  }
  if (!L.failed)
    lx_push(&L, TPL_T_EOF, L.len, 0);
  free(L.br);
  return !L.failed;
}
