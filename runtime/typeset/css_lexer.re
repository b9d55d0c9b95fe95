/* The CSS tokenizer: CSS Syntax Level 3's tokens over UTF-8, with the line
 * and column of each. re2c recognises a token at the cursor; C resolves
 * escapes and numbers and reports unclosed comments, strings and urls. */
#include <stdlib.h>
#include <string.h>

#include "css.h"
#include "css_lex.h"
#include "oc_alloc.h"

/* Advances the line count over s[from, to): "\r\n", "\r", "\n" and "\f"
 * each end a line, as CSS's preprocessing says. */
static void lx_lines(css_lx *L, size_t from, size_t to) {
  for (size_t i = from; i < to; i++) {
    unsigned char c = L->s[i];
    if (c == '\n' || c == '\f' || (c == '\r' && L->s[i + 1] != '\n')) {
      L->line++;
      L->line_start = i + 1;
    }
  }
}

static css_token *lx_push(css_lx *L, css_tok_type type, size_t off) {
  if (!L->keep)
    L->n = 0; /* reporting only: one slot, reused */
  if (L->n == L->cap) {
    /* the heap, not the arena: the array doubles often and moving it in
     * place is cheaper; the arena frees it (see css_tokenize). */
    OC_GROW(L->toks, L->cap, L->n + 1);
  }
  css_token *t = &L->toks[L->n++];
  memset(t, 0, sizeof *t);
  t->type = type;
  t->text = "";
  t->line = L->line;
  t->col = (uint32_t)(off - L->line_start + 1);
  return t;
}

static int hexval(unsigned char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  c |= 0x20;
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static size_t put_utf8(char *o, uint32_t cp) {
  if (cp < 0x80) {
    o[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    o[0] = (char)(0xc0 | cp >> 6);
    o[1] = (char)(0x80 | (cp & 0x3f));
    return 2;
  }
  if (cp < 0x10000) {
    o[0] = (char)(0xe0 | cp >> 12);
    o[1] = (char)(0x80 | (cp >> 6 & 0x3f));
    o[2] = (char)(0x80 | (cp & 0x3f));
    return 3;
  }
  o[0] = (char)(0xf0 | cp >> 18);
  o[1] = (char)(0x80 | (cp >> 12 & 0x3f));
  o[2] = (char)(0x80 | (cp >> 6 & 0x3f));
  o[3] = (char)(0x80 | (cp & 0x3f));
  return 4;
}

/* Copies s[0, n) into the arena with CSS escapes resolved; an escaped
 * newline (only possible in strings) is dropped, a NUL becomes U+FFFD. */
static const char *lx_unescape(css_lx *L, const unsigned char *s, size_t n,
                               size_t *out_len) {
  /* A hex escape never grows (\10FFFF is 7 bytes for 4) but a NUL does,
   * from 1 byte to 3: hence the factor. */
  if (!memchr(s, '\\', n) && !memchr(s, 0, n)) {
    *out_len = n;
    return oc_arena_strndup(L->a, (const char *)s, n);
  }
  char *o = oc_arena_alloc(L->a, n * 3 + 1);
  size_t j = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = s[i];
    if (c == 0) {
      j += put_utf8(o + j, 0xfffd);
      continue;
    }
    if (c != '\\' || i + 1 >= n) {
      o[j++] = (char)c;
      continue;
    }
    c = s[++i];
    if (c == '\n' || c == '\f')
      continue;
    if (c == '\r') {
      if (i + 1 < n && s[i + 1] == '\n')
        i++;
      continue;
    }
    if (hexval(c) < 0) {
      o[j++] = (char)c;
      continue;
    }
    uint32_t cp = 0;
    int k = 0;
    while (k < 6 && i < n && hexval(s[i]) >= 0) {
      cp = cp * 16 + (uint32_t)hexval(s[i++]);
      k++;
    }
    if (i < n && s[i] == '\r' && i + 1 < n && s[i + 1] == '\n')
      i++;
    else if (!(i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' ||
                         s[i] == '\r' || s[i] == '\f')))
      i--;
    if (cp == 0 || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
      cp = 0xfffd;
    j += put_utf8(o + j, cp);
  }
  o[j] = 0;
  *out_len = j;
  return o;
}

static void lx_text(css_lx *L, css_token *t, size_t from, size_t to) {
  if (!L->keep)
    return;
  t->text = lx_unescape(L, L->s + from, to - from, &t->len);
}

/* The numeric part at s[from, ...): its value and whether it is an
 * integer; returns where the number ends. */
static size_t lx_number(css_lx *L, css_token *t, size_t p) {
  size_t start = p;
  const unsigned char *s = L->s;
  t->is_integer = true;
  if (s[p] == '+' || s[p] == '-')
    p++;
  while (s[p] >= '0' && s[p] <= '9')
    p++;
  if (s[p] == '.' && s[p + 1] >= '0' && s[p + 1] <= '9') {
    t->is_integer = false;
    p++;
    while (s[p] >= '0' && s[p] <= '9')
      p++;
  }
  if ((s[p] | 0x20) == 'e') {
    size_t q = p + 1;
    if (s[q] == '+' || s[q] == '-')
      q++;
    if (s[q] >= '0' && s[q] <= '9') {
      t->is_integer = false;
      p = q;
      while (s[p] >= '0' && s[p] <= '9')
        p++;
    }
  }
  /* strtod stops at the same place; the copy keeps it from reading on into
   * a unit such as "e" in "1em". */
  char buf[64];
  size_t n = p - start < sizeof buf - 1 ? p - start : sizeof buf - 1;
  memcpy(buf, s + start, n);
  buf[n] = 0;
  t->num = strtod(buf, NULL);
  return p;
}

static void lx_error(css_lx *L, size_t off, const char *msg) {
  if (!L->rep)
    return;
  oc_report(L->rep, OC_ERROR, L->file, L->line,
            (unsigned)(off - L->line_start + 1), "%s", msg);
}

void css_lx_init(css_lx *L, oc_arena *a, const char *src, size_t len,
                 const char *file, const oc_reporter *rep) {
  memset(L, 0, sizeof *L);
  L->a = a;
  unsigned char *copy = oc_arena_alloc(a, len + 1);
  if (len)
    memcpy(copy, src, len);
  copy[len] = 0;
  L->s = copy;
  L->len = len;
  L->file = file;
  L->rep = rep;
  L->keep = true;
  css_lx_rewind(L);
}

void css_lx_rewind(css_lx *L) {
  L->n = 0;
  L->done = false;
  L->line = 1;
  L->line_start = 0;
  L->cur = 0;
  /* A UTF-8 byte order mark is not part of the sheet. */
  if (L->len >= 3 && memcmp(L->s, "\xef\xbb\xbf", 3) == 0) {
    L->cur = 3;
    L->line_start = 3;
  }
}

void css_lx_free(css_lx *L) {
  free(L->toks);
  L->toks = NULL;
  L->n = L->cap = 0;
}

static void lx_run(css_lx *L, size_t want);

bool css_lx_more(css_lx *L, size_t want) {
  if (!L->done && L->n < want)
    lx_run(L, want);
  return (L->done ? L->n - 1 : L->n) >= want;
}

/* Lexes on until the buffer holds want tokens, or to the end of the sheet
 * (then the EOF token is pushed and done set). */
static void lx_run(css_lx *L, size_t want) {
  size_t cur = L->cur;
  for (;;) {
    if (L->n >= want && L->keep)
      break;
    const unsigned char *YYCURSOR = L->s + cur, *YYMARKER = YYCURSOR;
    const unsigned char *YYCTXMARKER = YYCURSOR;
    size_t start = cur;
    css_token *t;
    (void)YYMARKER;
    (void)YYCTXMARKER;
    /*!re2c
      re2c:define:YYCTYPE = "unsigned char";
      re2c:yyfill:enable = 0;

      nl = "\r\n" | [\n\r\f];
      ws = [ \t\n\r\f];
      hex = [0-9a-fA-F];
      esc = "\\" (hex{1,6} ("\r\n" | ws)? | [^\n\r\f0-9a-fA-F\x00]);
      nstart = [a-zA-Z_\x80-\xff] | esc;
      nchar = nstart | [0-9-];
      ident = "--" nchar* | "-"? nstart nchar*;
      num = [+-]? ([0-9]+ ("." [0-9]+)? | "." [0-9]+) ([eE] [+-]? [0-9]+)?;
      dqch = [^"\\\n\r\f\x00] | "\\" nl | esc;
      sqch = [^'\\\n\r\f\x00] | "\\" nl | esc;
      urlch = [^"'()\\ \t\n\r\f\x00-\x08\x0b\x0e-\x1f\x7f] | esc;

      "\x00" {
        if (start >= L->len)
          goto done;
        t = lx_push(L, CSS_T_DELIM, start);
        t->delim = 0xfffd;
        cur = start + 1;
        continue;
      }
      "/*" ([^*\x00] | "*"+ [^*/\x00])* "*"+ "/" {
        cur = (size_t)(YYCURSOR - L->s);
        lx_lines(L, start, cur);
        continue;
      }
      "/*" {
        /* Unclosed: CSS ends it at the end of the sheet. */
        lx_error(L, start, "unterminated comment");
        cur = L->len;
        continue;
      }
      ws+ {
        t = lx_push(L, CSS_T_WHITESPACE, start);
        cur = (size_t)(YYCURSOR - L->s);
        lx_lines(L, start, cur);
        continue;
      }
      ["] dqch* ["] | ['] sqch* ['] {
        t = lx_push(L, CSS_T_STRING, start);
        cur = (size_t)(YYCURSOR - L->s);
        lx_text(L, t, start + 1, cur - 1);
        lx_lines(L, start, cur);
        continue;
      }
      ["] dqch* | ['] sqch* {
        cur = (size_t)(YYCURSOR - L->s);
        if (cur >= L->len) {
          /* Unclosed at the end of the sheet: still a string. */
          t = lx_push(L, CSS_T_STRING, start);
          lx_error(L, start, "unterminated string");
          lx_text(L, t, start + 1, cur);
        } else {
          t = lx_push(L, CSS_T_BAD_STRING, start);
          lx_error(L, start, "unterminated string");
        }
        lx_lines(L, start, cur);
        continue;
      }
      'url(' ws* / ["'] {
        t = lx_push(L, CSS_T_FUNCTION, start);
        t->text = "url";
        t->len = 3;
        cur = start + 4;
        continue;
      }
      'url(' ws* urlch* ws* ")" {
        t = lx_push(L, CSS_T_URL, start);
        cur = (size_t)(YYCURSOR - L->s);
        size_t b = start + 4, e = cur - 1;
        while (b < e && strchr(" \t\n\r\f", L->s[b]))
          b++;
        while (e > b && strchr(" \t\n\r\f", L->s[e - 1]) && L->s[e - 2] != '\\')
          e--;
        lx_text(L, t, b, e);
        lx_lines(L, start, cur);
        continue;
      }
      'url(' {
        /* A bad url runs to the next ")" (or the end), escapes skipped. */
        t = lx_push(L, CSS_T_BAD_URL, start);
        size_t p = start + 4;
        while (p < L->len && L->s[p] != ')')
          p += L->s[p] == '\\' && p + 1 < L->len ? 2 : 1;
        lx_error(L, start, "bad url()");
        cur = p < L->len ? p + 1 : L->len;
        lx_lines(L, start, cur);
        continue;
      }
      ident "(" {
        t = lx_push(L, CSS_T_FUNCTION, start);
        cur = (size_t)(YYCURSOR - L->s);
        lx_text(L, t, start, cur - 1);
        continue;
      }
      ident {
        t = lx_push(L, CSS_T_IDENT, start);
        cur = (size_t)(YYCURSOR - L->s);
        lx_text(L, t, start, cur);
        continue;
      }
      "@" ident {
        t = lx_push(L, CSS_T_AT_KEYWORD, start);
        cur = (size_t)(YYCURSOR - L->s);
        lx_text(L, t, start + 1, cur);
        continue;
      }
      "#" nchar+ {
        t = lx_push(L, CSS_T_HASH, start);
        cur = (size_t)(YYCURSOR - L->s);
        lx_text(L, t, start + 1, cur);
        unsigned char c0 = L->s[start + 1], c1 = L->s[start + 2];
        t->is_id = !(c0 >= '0' && c0 <= '9') &&
                   !(c0 == '-' && ((c1 >= '0' && c1 <= '9') ||
                                   cur == start + 2));
        continue;
      }
      num ident {
        t = lx_push(L, CSS_T_DIMENSION, start);
        cur = (size_t)(YYCURSOR - L->s);
        size_t e = lx_number(L, t, start);
        lx_text(L, t, e, cur);
        continue;
      }
      num "%" {
        t = lx_push(L, CSS_T_PERCENTAGE, start);
        cur = (size_t)(YYCURSOR - L->s);
        lx_number(L, t, start);
        continue;
      }
      num {
        t = lx_push(L, CSS_T_NUMBER, start);
        cur = (size_t)(YYCURSOR - L->s);
        lx_number(L, t, start);
        continue;
      }
      "<!--" { lx_push(L, CSS_T_CDO, start); cur = start + 4; continue; }
      "-->"  { lx_push(L, CSS_T_CDC, start); cur = start + 3; continue; }
      ":" { lx_push(L, CSS_T_COLON, start); cur = start + 1; continue; }
      ";" { lx_push(L, CSS_T_SEMICOLON, start); cur = start + 1; continue; }
      "," { lx_push(L, CSS_T_COMMA, start); cur = start + 1; continue; }
      "[" { lx_push(L, CSS_T_LBRACKET, start); cur = start + 1; continue; }
      "]" { lx_push(L, CSS_T_RBRACKET, start); cur = start + 1; continue; }
      "(" { lx_push(L, CSS_T_LPAREN, start); cur = start + 1; continue; }
      ")" { lx_push(L, CSS_T_RPAREN, start); cur = start + 1; continue; }
      "{" { lx_push(L, CSS_T_LBRACE, start); cur = start + 1; continue; }
      "}" { lx_push(L, CSS_T_RBRACE, start); cur = start + 1; continue; }
      * {
        t = lx_push(L, CSS_T_DELIM, start);
        t->delim = L->s[start];
        cur = start + 1;
        continue;
      }
    */
  }
  L->cur = cur;
  return;
done:
  lx_push(L, CSS_T_EOF, L->len);
  L->done = true;
  L->cur = cur;
}

size_t css_tokenize(oc_arena *a, const char *src, size_t len,
                    const char *file, const oc_reporter *rep,
                    css_token **out) {
  css_lx L;
  css_lx_init(&L, a, src, len, file, rep);
  css_lx_more(&L, SIZE_MAX);
  /* the heap, not the arena: the array doubles often and moving it in
   * place is cheaper; the arena frees it. */
  oc_arena_defer(a, free, L.toks);
  *out = L.toks;
  return L.n - 1;
}
