/* AST plumbing for the front end: node constructors and arena arrays,
 * diagnostics with the source line, the tpl_parse entry point that runs
 * lexer, parser and checker, and an S-expression dumper for tests. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "oc_sb.h"
#include "tpl_front.h"

tpl_node *tpl_node_new(tpl_pctx *P, int kind, uint32_t line, uint32_t col) {
  tpl_node *n = oc_arena_calloc(P->arena, 1, sizeof *n);
  n->kind = (uint8_t)kind;
  n->line = line;
  n->col = col;
  n->loc.file = P->name;
  n->loc.line = line;
  n->loc.col = col;
  return n;
}

tpl_name tpl_mkname(oc_arena *a, const char *s, size_t len) {
  tpl_name n;
  n.s = oc_arena_strndup(a, s, len);
  n.len = (uint32_t)len;
  n.hash = tpl_hash_bytes(s, len);
  return n;
}

bool tpl_name_is(const tpl_name *n, const char *s) {
  size_t l = strlen(s);
  return n->s && n->len == l && memcmp(n->s, s, l) == 0;
}

void tpl_nlist_push(oc_arena *a, tpl_nlist *l, tpl_node *n) {
  l->v = oc_arena_grow_array(a, l->v, l->n, &l->cap, l->n + 1, sizeof *l->v);
  l->v[l->n++] = n;
}

void tpl_node_set_kids(tpl_node *n, const tpl_nlist *l) {
  n->kids = l->v;
  n->nkids = l->n;
}

void tpl_arglist_push(oc_arena *a, tpl_arglist *l, tpl_node *v,
                      const char *name, size_t len) {
  l->names = oc_arena_grow_array(a, l->names, l->vals.n, &l->ncap,
                                 l->vals.n + 1, sizeof *l->names);
  tpl_name nm = {NULL, 0, 0};
  if (name) {
    nm = tpl_mkname(a, name, len);
    l->any_named = true;
  }
  l->names[l->vals.n] = nm;
  tpl_nlist_push(a, &l->vals, v);
}

void tpl_perr(tpl_pctx *P, uint32_t line, uint32_t col, const char *fmt, ...) {
  size_t i = P->ndiags++;
  if (i >= P->max_diags || !P->diags)
    return;
  tpl_diag *d = &P->diags[i];
  memset(d, 0, sizeof *d);
  snprintf(d->file, sizeof d->file, "%s", P->name ? P->name : "");
  d->line = line;
  d->col = col;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(d->message, sizeof d->message, fmt, ap);
  va_end(ap);
  /* the offending line, for the caret */
  const char *s = P->src, *e = P->src + P->len;
  for (uint32_t l = 1; l < line && s < e; l++) {
    const char *nl = memchr(s, '\n', (size_t)(e - s));
    s = nl ? nl + 1 : e;
  }
  const char *le = memchr(s, '\n', (size_t)(e - s));
  size_t n = (size_t)((le ? le : e) - s);
  if (n >= sizeof d->source_line)
    n = sizeof d->source_line - 1;
  memcpy(d->source_line, s, n);
  d->source_line[n] = 0;
}

static void set_source(tpl_ast_template *t, const char *s, size_t len) {
  t->source = s;
  t->source_len = len;
  for (size_t i = 0; i < t->nembeds; i++)
    set_source(t->embeds[i], s, len);
}

tpl_ast_template *tpl_parse(oc_arena *arena, const char *name,
                            const char *source, size_t len,
                            const tpl_parse_opts *opts, tpl_diag *diags,
                            size_t max_diags, size_t *ndiags) {
  static const tpl_parse_opts no_opts = {NULL, NULL, TPL_ESC_HTML};
  tpl_pctx P;
  memset(&P, 0, sizeof P);
  P.arena = arena;
  P.name = oc_arena_strndup(arena, name ? name : "", name ? strlen(name) : 0);
  P.opts = opts ? opts : &no_opts;
  P.diags = diags;
  P.max_diags = max_diags;
  if (len > UINT32_MAX - 1) {
    P.src = "";
    tpl_perr(&P, 1, 1, "template too large");
    if (ndiags)
      *ndiags = P.ndiags;
    return NULL;
  }
  /* Twig normalises line endings before lexing; text output follows. */
  char *orig = oc_arena_alloc(arena, len + 1);
  if (len)
    memcpy(orig, source, len);
  orig[len] = 0;
  const char *src = orig;
  size_t slen = len;
  if (len && memchr(source, '\r', len)) {
    char *norm = oc_arena_alloc(arena, len + 1);
    size_t j = 0;
    for (size_t i = 0; i < len; i++) {
      if (source[i] == '\r') {
        norm[j++] = '\n';
        if (i + 1 < len && source[i + 1] == '\n')
          i++;
      } else {
        norm[j++] = source[i];
      }
    }
    norm[j] = 0;
    src = norm;
    slen = j;
  }
  P.src = src;
  P.len = slen;

  tpl_ast_template *t = NULL;
  if (tpl_lex(&P) && tpl_parse_tokens(&P) == 0 && P.ndiags == 0 && P.root) {
    t = tpl_check(&P);
    if (P.ndiags)
      t = NULL;
  }
  if (t)
    set_source(t, orig, len);
  free(P.toks);
  free(P.brackets);
  free(P.open);
  if (ndiags)
    *ndiags = P.ndiags;
  return t;
}

/* ---- S-expression dump -------------------------------------------- */

/* printf into the dump, cut at 511 bytes as the dump always was. */
static void sb_fmt(oc_sb *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void sb_fmt(oc_sb *b, const char *fmt, ...) {
  char tmp[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n > 0)
    oc_sb_add(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void sb_quoted(oc_sb *b, const char *s, size_t n) {
  oc_sb_adds(b, "\"");
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\')
      sb_fmt(b, "\\%c", c);
    else if (c == '\n')
      oc_sb_adds(b, "\\n");
    else if (c < 0x20)
      sb_fmt(b, "\\x%02x", c);
    else
      oc_sb_add(b, (const char *)&c, 1);
  }
  oc_sb_adds(b, "\"");
}

static const char *const binop_names[] = {
    "or",     "and", "b-or",     "b-xor",       "b-and",     "==",
    "!=",     "<=>", "<",        ">",           "<=",        ">=",
    "not-in", "in",  "matches",  "starts-with", "ends-with", "..",
    "+",      "-",   "~",        "*",           "/",         "//",
    "%",      "**",  "has-some", "has-every"};
static const char *const esc_names[] = {"none", "html", "js",       "css",
                                        "url",  "html_attr", "sh"};

static void dump(oc_sb *b, const tpl_node *n);

static void dump_kids(oc_sb *b, const tpl_node *n) {
  for (size_t i = 0; i < n->nkids; i++) {
    oc_sb_adds(b, " ");
    dump(b, n->kids[i]);
  }
}

static void dump_opt(oc_sb *b, const tpl_node *n) {
  oc_sb_adds(b, " ");
  dump(b, n);
}

static void dump_name(oc_sb *b, const tpl_name *nm) {
  if (nm->s)
    oc_sb_add(b, nm->s, nm->len);
  else
    oc_sb_adds(b, "_");
}

static void dump(oc_sb *b, const tpl_node *n) {
  if (!n) {
    oc_sb_adds(b, "_");
    return;
  }
  switch (n->kind) {
  case TPL_N_BODY:
    oc_sb_adds(b, "(body");
    dump_kids(b, n);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_TEXT:
    oc_sb_adds(b, "(text ");
    sb_quoted(b, n->value.u.s, n->value.len);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_PRINT:
    oc_sb_adds(b, "(print");
    dump_opt(b, n->a);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_IF:
    oc_sb_adds(b, "(if");
    dump_kids(b, n);
    if (n->c) {
      oc_sb_adds(b, " else");
      dump_opt(b, n->c);
    }
    oc_sb_adds(b, ")");
    break;
  case TPL_N_FOR:
    oc_sb_adds(b, "(for ");
    dump_name(b, &n->name2);
    oc_sb_adds(b, " ");
    dump_name(b, &n->name);
    dump_opt(b, n->a);
    if (n->b) {
      oc_sb_adds(b, " if");
      dump_opt(b, n->b);
    }
    dump_opt(b, n->c);
    if (n->d) {
      oc_sb_adds(b, " else");
      dump_opt(b, n->d);
    }
    if (n->n)
      oc_sb_adds(b, " loop");
    oc_sb_adds(b, ")");
    break;
  case TPL_N_SET:
    oc_sb_adds(b, "(set");
    for (size_t i = 0; i < n->n; i++) {
      oc_sb_adds(b, " ");
      dump_name(b, &n->kids[i]->name);
    }
    oc_sb_adds(b, " =");
    for (size_t i = n->n; i < n->nkids; i++)
      dump_opt(b, n->kids[i]);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_SET_CAPTURE:
    oc_sb_adds(b, "(capture ");
    dump_name(b, &n->name);
    dump_opt(b, n->a);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_BLOCK_REF:
    oc_sb_adds(b, "(blockref ");
    dump_name(b, &n->name);
    if (n->a)
      dump_opt(b, n->a);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_INCLUDE:
  case TPL_N_EMBED:
    oc_sb_adds(b, n->kind == TPL_N_INCLUDE ? "(include" : "(embed");
    if (n->kind == TPL_N_EMBED)
      sb_fmt(b, " #%d", (int)n->index);
    dump_opt(b, n->a);
    dump_opt(b, n->b);
    if (n->flags & TPL_F_IGNORE_MISSING)
      oc_sb_adds(b, " ignore-missing");
    if (n->flags & TPL_F_ONLY)
      oc_sb_adds(b, " only");
    oc_sb_adds(b, ")");
    break;
  case TPL_N_IMPORT:
    sb_fmt(b, "(import #%d", (int)n->index);
    dump_opt(b, n->a);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_APPLY:
    oc_sb_adds(b, "(apply");
    dump_opt(b, n->a);
    dump_opt(b, n->b);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_AUTOESCAPE:
    sb_fmt(b, "(autoescape %s",
           n->index >= 0 && n->index <= 6 ? esc_names[n->index] : "?");
    dump_opt(b, n->a);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_WITH:
    oc_sb_adds(b, "(with");
    dump_opt(b, n->a);
    dump_opt(b, n->b);
    if (n->flags & TPL_F_ONLY)
      oc_sb_adds(b, " only");
    oc_sb_adds(b, ")");
    break;
  case TPL_N_DO:
    oc_sb_adds(b, "(do");
    dump_opt(b, n->a);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_EXTENDS:
    oc_sb_adds(b, "(extends");
    dump_opt(b, n->a);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_CONST: {
    const tpl_value *v = &n->value;
    switch (v->type) {
    case TPL_NULL:
      oc_sb_adds(b, "null");
      break;
    case TPL_BOOL:
      oc_sb_adds(b, v->u.b ? "true" : "false");
      break;
    case TPL_INT:
      sb_fmt(b, "%lld", (long long)v->u.i);
      break;
    case TPL_FLOAT:
      sb_fmt(b, "%.17gf", v->u.f);
      break;
    case TPL_STR:
      sb_quoted(b, v->u.s, v->len);
      break;
    default:
      oc_sb_adds(b, "?const");
      break;
    }
    break;
  }
  case TPL_N_NAME:
    dump_name(b, &n->name);
    break;
  case TPL_N_ARRAY:
    oc_sb_adds(b, "[");
    for (size_t i = 0; i < n->nkids; i++) {
      if (i)
        oc_sb_adds(b, " ");
      dump(b, n->kids[i]);
    }
    oc_sb_adds(b, "]");
    break;
  case TPL_N_HASH:
    oc_sb_adds(b, "{");
    for (size_t i = 0; i < n->nkids; i++) {
      if (i)
        oc_sb_adds(b, i % 2 ? ": " : ", ");
      dump(b, n->kids[i]);
    }
    oc_sb_adds(b, "}");
    break;
  case TPL_N_GETATTR:
    oc_sb_adds(b, n->index == TPL_ATTR_ARRAY    ? "([]"
                  : n->index == TPL_ATTR_METHOD ? "(.()"
                                                : "(.");
    dump_opt(b, n->a);
    dump_opt(b, n->b);
    dump_kids(b, n);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_BINARY:
    sb_fmt(b, "(%s",
           n->index >= 0 &&
                   (size_t)n->index < sizeof binop_names / sizeof *binop_names
               ? binop_names[n->index]
               : "?");
    dump_opt(b, n->a);
    dump_opt(b, n->b);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_UNARY:
    oc_sb_adds(b, n->index == TPL_OP_NOT   ? "(not"
                  : n->index == TPL_OP_NEG ? "(neg"
                                           : "(pos");
    dump_opt(b, n->a);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_COND:
    oc_sb_adds(b, "(?");
    dump_opt(b, n->a);
    dump_opt(b, n->b);
    dump_opt(b, n->c);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_NULLCOALESCE:
    oc_sb_adds(b, "(??");
    dump_opt(b, n->a);
    dump_opt(b, n->b);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_FILTER:
    oc_sb_adds(b, "(|");
    dump_name(b, &n->name);
    dump_opt(b, n->a);
    dump_kids(b, n);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_FUNCTION:
    oc_sb_adds(b, "(");
    dump_name(b, &n->name);
    oc_sb_adds(b, "()");
    dump_kids(b, n);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_TEST:
    oc_sb_adds(b, n->flags & TPL_F_NEGATE ? "(is-not " : "(is ");
    dump_name(b, &n->name);
    dump_opt(b, n->a);
    dump_kids(b, n);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_DEFINED:
    oc_sb_adds(b, n->flags & TPL_F_NEGATE ? "(not-defined" : "(defined");
    dump_opt(b, n->a);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_DEFAULT:
    oc_sb_adds(b, "(default");
    dump_opt(b, n->a);
    dump_opt(b, n->b);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_SLICE:
    oc_sb_adds(b, "(slice");
    dump_opt(b, n->a);
    dump_opt(b, n->b);
    dump_opt(b, n->c);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_MACRO_CALL:
    sb_fmt(b, "(macro #%d ", (int)n->index);
    dump_name(b, &n->name);
    for (size_t i = 0; i < n->nkids; i++) {
      oc_sb_adds(b, " ");
      if (i >= n->n && i - n->n < n->nnames) {
        dump_name(b, &n->names[i - n->n]);
        oc_sb_adds(b, "=");
      }
      dump(b, n->kids[i]);
    }
    oc_sb_adds(b, ")");
    break;
  case TPL_N_ARROW:
    oc_sb_adds(b, "(=> (");
    for (size_t i = 0; i < n->nnames; i++) {
      if (i)
        oc_sb_adds(b, " ");
      dump_name(b, &n->names[i]);
    }
    oc_sb_adds(b, ")");
    dump_opt(b, n->a);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_PARENT:
    oc_sb_adds(b, "(parent)");
    break;
  case TPL_N_BLOCK_FUNC:
    oc_sb_adds(b, "(block");
    dump_opt(b, n->a);
    if (n->b)
      dump_opt(b, n->b);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_ESCAPE:
    sb_fmt(b, "(%s %s", n->flags & TPL_F_AUTO ? "autoesc" : "esc",
           n->index >= 0 && n->index <= 6 ? esc_names[n->index] : "?");
    dump_opt(b, n->a);
    oc_sb_adds(b, ")");
    break;
  case TPL_N_CAPTURED:
    oc_sb_adds(b, "@captured");
    break;
  default:
    sb_fmt(b, "(?kind%d)", n->kind);
    break;
  }
}

char *tpl_ast_sexpr(const tpl_node *n) {
  oc_sb b;
  oc_sb_init(&b, NULL, 256);
  dump(&b, n);
  return oc_sb_take(&b);
}

static void dump_template(oc_sb *b, const tpl_ast_template *t, int depth) {
  char ind[40];
  int d = depth * 2 < 38 ? depth * 2 : 38;
  memset(ind, ' ', (size_t)d);
  ind[d] = 0;
  sb_fmt(b, "%stemplate %s (autoescape %s) imports=%zu\n", ind,
         t->name ? t->name : "?", esc_names[t->autoescape % 7], t->nimports);
  if (t->parent) {
    sb_fmt(b, "%s parent ", ind);
    dump(b, t->parent);
    oc_sb_adds(b, "\n");
  }
  sb_fmt(b, "%s body ", ind);
  dump(b, t->body);
  oc_sb_adds(b, "\n");
  for (size_t i = 0; i < t->nblocks; i++) {
    sb_fmt(b, "%s block %s ", ind, t->blocks[i].name.s);
    dump(b, t->blocks[i].body);
    oc_sb_adds(b, "\n");
  }
  for (size_t i = 0; i < t->nmacros; i++) {
    const tpl_ast_macro *m = &t->macros[i];
    sb_fmt(b, "%s macro %s(", ind, m->name.s);
    for (size_t j = 0; j < m->nparams; j++) {
      sb_fmt(b, "%s%s", j ? " " : "", m->params[j].s);
      if (m->defaults[j]) {
        oc_sb_adds(b, "=");
        dump(b, m->defaults[j]);
      }
    }
    oc_sb_adds(b, ") ");
    dump(b, m->body);
    oc_sb_adds(b, "\n");
  }
  for (size_t i = 0; i < t->nuses; i++) {
    sb_fmt(b, "%s use %s", ind, t->uses[i].name);
    for (size_t j = 0; j < t->uses[i].nrenames; j++)
      sb_fmt(b, " %s=%s", t->uses[i].renames[j].from.s,
             t->uses[i].renames[j].to.s);
    oc_sb_adds(b, "\n");
  }
  for (size_t i = 0; i < t->nembeds; i++) {
    sb_fmt(b, "%s embed #%zu\n", ind, i);
    dump_template(b, t->embeds[i], depth + 1);
  }
}

void tpl_ast_dump(FILE *f, const tpl_ast_template *t) {
  oc_sb b;
  oc_sb_init(&b, NULL, 256);
  dump_template(&b, t, 0);
  fputs(oc_sb_cstr(&b), f);
  oc_sb_free(&b);
}
