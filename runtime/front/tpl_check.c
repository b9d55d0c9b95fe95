/* The checker: turns the parser's raw tree into the AST the back ends walk
 * (blocks, macros, embeds, resolved calls and imports, Twig's autoescaping
 * and loop analysis) and reports every compile-time error it finds. */
#include <stdlib.h>
#include <string.h>

#include "tpl_front.h"

/* Twig resolves imports while parsing, so the walk goes in source order and
 * visits each block's body where the block is defined. */

/* ---- small arena vectors ------------------------------------------ */

#define VEC(T)                                                                 \
  struct {                                                                     \
    T *v;                                                                      \
    size_t n, cap;                                                             \
  }

#define VPUSH(A, vec, x)                                                       \
  do {                                                                         \
    (vec).v = oc_arena_grow_array((A), (vec).v, (vec).n, &(vec).cap,           \
                                  (vec).n + 1, sizeof *(vec).v);               \
    (vec).v[(vec).n++] = (x);                                                  \
  } while (0)

/* ---- state --------------------------------------------------------- */

typedef struct chk_sym {
  tpl_name alias;
  int slot;
  bool is_template; /* `import ... as alias`; else a `from` macro */
  tpl_name macro;
} chk_sym;

typedef VEC(chk_sym) chk_scope;

typedef struct chk_tpl {
  tpl_ast_template *t;
  VEC(tpl_ast_block) blocks;
  VEC(tpl_ast_macro) macros;
  VEC(tpl_use) uses;
  VEC(tpl_ast_template *) embeds;
  VEC(tpl_node *) self_from; /* `from _self import x`: checked at the end */
  chk_scope main;
  bool output; /* output seen in the body, before any extends */
} chk_tpl;

typedef VEC(tpl_node *) chk_loops;

typedef struct chk {
  tpl_pctx *P;
  chk_tpl *tpl;
  chk_scope *local;      /* block or macro scope, NULL at the top */
  const tpl_name *block; /* the block being defined */
  bool in_macro;
  int depth; /* control structures around the current statement */
  int esc;   /* the autoescape strategy in effect */
  chk_loops loops;
  bool saw_raw; /* a |raw to drop at the end */
  int edepth;   /* expression nesting, bounded so deep trees cannot overflow
                   the C stack of the checker or of the back ends */
  bool too_deep;
} chk;

static tpl_node *expr(chk *C, tpl_node *n);
static tpl_node *stmt(chk *C, tpl_node *n);

/* Errors point where the node's own errors do (the name, the operator);
 * ERR_START where the expression starts. */
#define ERR(C, n, ...)                                                         \
  tpl_perr((C)->P, (n)->loc.line, (n)->loc.col, __VA_ARGS__)
#define ERR_START(C, n, ...) tpl_perr((C)->P, (n)->line, (n)->col, __VA_ARGS__)

/* Run-time errors about a template name (not found, nesting depth) point
 * at the name expression's start. */
static void loc_at_start(tpl_node *n, const tpl_node *e) {
  if (!e)
    return;
  n->loc.line = e->line;
  n->loc.col = e->col;
}

static tpl_node *mk(chk *C, int kind, const tpl_node *at) {
  return tpl_node_new(C->P, kind, at->line, at->col);
}

static bool name_eq(const tpl_name *a, const tpl_name *b) {
  return a->len == b->len && a->hash == b->hash &&
         memcmp(a->s, b->s, a->len) == 0;
}

static bool is_str_const(const tpl_node *n) {
  return n && n->kind == TPL_N_CONST && n->value.type == TPL_STR;
}

/* ---- loops (Twig's OptimizerNodeVisitor: whether `loop` is needed) -- */

static void loop_current(chk *C) {
  if (C->loops.n)
    C->loops.v[C->loops.n - 1]->n = 1;
}

static void loop_all(chk *C) {
  for (size_t i = 0; i < C->loops.n; i++)
    C->loops.v[i]->n = 1;
}

/* ---- imports -------------------------------------------------------- */

static const chk_sym *find_sym(const chk *C, const tpl_name *name,
                               bool is_template) {
  const chk_scope *scopes[2] = {C->local, &C->tpl->main};
  for (int s = 0; s < 2; s++) {
    const chk_scope *sc = scopes[s];
    if (!sc)
      continue;
    /* the last import of a name wins */
    for (size_t i = sc->n; i-- > 0;)
      if (sc->v[i].is_template == is_template && name_eq(&sc->v[i].alias, name))
        return &sc->v[i];
  }
  return NULL;
}

static const tpl_ast_template *load(chk *C, const tpl_node *lit) {
  const tpl_parse_opts *o = C->P->opts;
  if (!o->load || !is_str_const(lit))
    return NULL;
  return o->load(o->load_data, lit->value.u.s, lit->value.len);
}

/* Literal template names must exist (a list: one of them). */
static void check_exists(chk *C, const tpl_node *e) {
  const tpl_parse_opts *o = C->P->opts;
  if (!o->load || !e)
    return;
  if (is_str_const(e)) {
    if (!o->load(o->load_data, e->value.u.s, e->value.len))
      ERR(C, e, "template \"%s\" not found", e->value.u.s);
    return;
  }
  if (e->kind == TPL_N_ARRAY && e->nkids) {
    for (size_t i = 0; i < e->nkids; i++)
      if (!is_str_const(e->kids[i]))
        return;
    for (size_t i = 0; i < e->nkids; i++)
      if (o->load(o->load_data, e->kids[i]->value.u.s, e->kids[i]->value.len))
        return;
    ERR(C, e->kids[0], "template \"%s\" not found", e->kids[0]->value.u.s);
  }
}

static bool has_macro(const tpl_ast_template *t, const tpl_name *name) {
  for (size_t i = 0; i < t->nmacros; i++)
    if (name_eq(&t->macros[i].name, name))
      return true;
  return false;
}

/* Whether the parents of a template (parent: its extends expression) may
 * define a macro: Twig looks a macro its template lacks up the parents when
 * it is called. Yes when the chain cannot be followed (a computed or missing
 * parent, no loader, a cycle): only the run time knows then. */
static bool parents_have_macro(chk *C, const tpl_node *parent,
                               const tpl_name *name) {
  for (int up = 0; parent && up <= TPL_MAX_DEPTH; up++) {
    const tpl_ast_template *t = load(C, parent);
    if (!t)
      return true;
    if (has_macro(t, name))
      return true;
    parent = t->parent;
  }
  return parent != NULL;
}

/* ---- arguments ------------------------------------------------------ */

/* The n-th parameter name of a callable's comma-separated list. */
static bool param_at(const char *params, size_t idx, const char **s,
                     size_t *len) {
  if (!params)
    return false;
  const char *p = params;
  for (size_t i = 0;; i++) {
    const char *e = strchr(p, ',');
    size_t l = e ? (size_t)(e - p) : strlen(p);
    if (i == idx) {
      while (l && *p == ' ') {
        p++;
        l--;
      }
      while (l && p[l - 1] == ' ')
        l--;
      *s = p;
      *len = l;
      return l > 0;
    }
    if (!e)
      return false;
    p = e + 1;
  }
}

static size_t param_count(const char *params) {
  const char *s;
  size_t l, n = 0;
  while (param_at(params, n, &s, &l))
    n++;
  return n;
}

/* Twig's normalizeName: an argument name in camelCase is the parameter in
 * snake_case (preserveKeys is preserve_keys), and any name is lowered. */
static tpl_name snake_name(chk *C, const tpl_name *nm) {
  char *o = oc_arena_alloc(C->P->arena, nm->len * 2 + 1);
  size_t k = 0;
  const char *s = nm->s;
  for (size_t i = 0; i < nm->len; i++) {
    char c = s[i];
    bool up = c >= 'A' && c <= 'Z';
    /* ([A-Z]+)([A-Z][a-z]) and ([a-z\d])([A-Z]) both put `_` here */
    if (up && i &&
        ((s[i - 1] >= 'a' && s[i - 1] <= 'z') ||
         (s[i - 1] >= '0' && s[i - 1] <= '9') ||
         (s[i - 1] >= 'A' && s[i - 1] <= 'Z' && i + 1 < nm->len &&
          s[i + 1] >= 'a' && s[i + 1] <= 'z')))
      o[k++] = '_';
    o[k++] = up ? (char)(c - 'A' + 'a') : c;
  }
  return tpl_mkname(C->P->arena, o, k);
}

/* Rewrites n's argument names as Twig's parser and getArguments see them:
 * normalised, and a name given again replaces the earlier argument, whose
 * expression is checked but never evaluated (Twig's $args[$name] = ...). */
static void merge_named(chk *C, tpl_node *n) {
  size_t k = 0;
  for (size_t i = 0; i < n->nkids; i++) {
    if (n->names[i].len) {
      n->names[i] = snake_name(C, &n->names[i]);
      size_t j = 0;
      while (j < k && !(n->names[j].len == n->names[i].len &&
                        !memcmp(n->names[j].s, n->names[i].s, n->names[i].len)))
        j++;
      if (j < k) {
        expr(C, n->kids[j]);
        n->kids[j] = n->kids[i];
        continue;
      }
    }
    n->names[k] = n->names[i];
    n->kids[k++] = n->kids[i];
  }
  n->nkids = k;
  n->nnames = k;
}

/* Where Twig 3.5 takes positional arguments only (block(), attribute(),
 * the tests, and default on a variable, whose definedness probe reads its
 * first argument by position), a named one is an error, at its value. */
static bool reject_named(chk *C, const tpl_node *n, const char *what,
                         const char *tail) {
  for (size_t i = 0; i < n->nnames; i++)
    if (n->names[i].len) {
      ERR_START(C, n->kids[i],
                "named arguments are not supported for %s \"%s\"%s", what,
                n->name.s, tail);
      return true;
    }
  return false;
}

/* Maps named arguments to positions by the callable's parameter names:
 * kids become positional with NULL for optional ones not given. */
static void norm_args(chk *C, tpl_node *n, const tpl_callable *cb,
                      const char *what) {
  const char *fname = n->name.s;
  if (!cb) {
    n->names = NULL;
    n->nnames = 0;
    return;
  }
  size_t np = param_count(cb->params);
  bool variadic = (cb->flags & TPL_CALL_VARIADIC) != 0;
  /* a variadic's own name (the last one) gives one more argument, at np */
  size_t nnamed = np;
  if (variadic && np)
    np--;
  if (!n->nnames) {
    if (cb->params && n->nkids > np && !variadic)
      ERR(C, n, "too many arguments for %s \"%s\"", what, fname);
  } else {
    size_t cap = np + 1 > n->nkids ? np + 1 : n->nkids;
    tpl_node **slots =
        oc_arena_calloc(C->P->arena, cap ? cap : 1, sizeof *slots);
    size_t count = 0;
    bool named = false;
    for (size_t i = 0; i < n->nkids; i++) {
      const tpl_name *nm = &n->names[i];
      if (!nm->len) {
        if (named) {
          ERR_START(C, n->kids[i],
                    "positional arguments cannot be used after named arguments "
                    "for %s \"%s\"",
                    what, fname);
          continue;
        }
        if (i >= np && !variadic && cb->params) {
          ERR(C, n, "too many arguments for %s \"%s\"", what, fname);
          continue;
        }
        slots[i] = n->kids[i];
        if (i + 1 > count)
          count = i + 1;
        continue;
      }
      named = true;
      size_t idx = nnamed;
      for (size_t j = 0; j < nnamed; j++) {
        const char *s;
        size_t l;
        if (param_at(cb->params, j, &s, &l) && l == nm->len &&
            !memcmp(s, nm->s, l)) {
          idx = j;
          break;
        }
      }
      if (idx == nnamed) {
        ERR_START(C, n->kids[i], "unknown argument \"%s\" for %s \"%s\"", nm->s,
                  what, fname);
        continue;
      }
      if (slots[idx]) {
        ERR_START(C, n->kids[i],
                  "argument \"%s\" is defined twice for %s \"%s\"", nm->s, what,
                  fname);
        continue;
      }
      slots[idx] = n->kids[i];
      if (idx + 1 > count)
        count = idx + 1;
    }
    n->kids = slots;
    n->nkids = count;
    n->names = NULL;
    n->nnames = 0;
  }
  for (size_t j = 0; j < cb->min_args; j++) {
    if (j < n->nkids && n->kids[j])
      continue;
    const char *s;
    size_t l;
    if (param_at(cb->params, j, &s, &l))
      ERR(C, n, "missing argument \"%.*s\" for %s \"%s\"", (int)l, s, what,
          fname);
    else
      ERR(C, n, "missing argument for %s \"%s\"", what, fname);
    break;
  }
}

static void expr_kids(chk *C, tpl_node *n) {
  for (size_t i = 0; i < n->nkids; i++)
    if (n->kids[i])
      n->kids[i] = expr(C, n->kids[i]);
}

/* Positional arguments first, then named ones, for tpl_call_macro. */
static tpl_node *mk_macro_call(chk *C, const tpl_node *at, const tpl_name *name,
                               int slot, tpl_node *args_from) {
  tpl_node *m = mk(C, TPL_N_MACRO_CALL, at);
  m->name = *name;
  m->index = slot;
  if (!args_from)
    return m;
  size_t n = args_from->nkids;
  m->kids = oc_arena_calloc(C->P->arena, n ? n : 1, sizeof *m->kids);
  m->nkids = n;
  size_t npos = 0, nnamed = 0;
  if (args_from->nnames) {
    m->names = oc_arena_calloc(C->P->arena, n ? n : 1, sizeof *m->names);
    for (size_t i = 0; i < n; i++) {
      if (args_from->names[i].len) {
        m->names[nnamed++] = args_from->names[i];
      } else if (nnamed) {
        ERR_START(
            C, args_from->kids[i],
            "positional arguments cannot be used after named arguments for "
            "macro \"%s\"",
            name->s);
      } else {
        npos++;
      }
    }
    size_t p = 0, q = npos;
    for (size_t i = 0; i < n; i++) {
      if (args_from->names[i].len)
        m->kids[q++] = args_from->kids[i];
      else if (p < npos)
        m->kids[p++] = args_from->kids[i];
    }
    m->nkids = npos + nnamed;
    m->nnames = nnamed;
  } else {
    if (n)
      memcpy(m->kids, args_from->kids, n * sizeof *m->kids);
    npos = n;
  }
  m->n = npos;
  expr_kids(C, m);
  return m;
}

/* ---- safety (SafeAnalysisNodeVisitor) ------------------------------- */

#define BIT(s) (1u << (s))

static unsigned norm_safe(unsigned m) {
  if (m & BIT(TPL_ESC_HTML_ATTR))
    m |= BIT(TPL_ESC_HTML);
  return m;
}

static unsigned safe_mask(const tpl_node *n) {
  if (!n)
    return TPL_SAFE_ALL; /* the '' of `a ? b` */
  switch (n->kind) {
  case TPL_N_CONST:
  case TPL_N_BLOCK_FUNC:
  case TPL_N_PARENT:
  case TPL_N_MACRO_CALL:
    return TPL_SAFE_ALL;
  case TPL_N_COND:
    return safe_mask(n->b ? n->b : n->a) & safe_mask(n->c);
  case TPL_N_NULLCOALESCE:
    return safe_mask(n->a) & safe_mask(n->b);
  case TPL_N_ESCAPE:
    return norm_safe(BIT(n->index));
  case TPL_N_FILTER:
    if (tpl_name_is(&n->name, "raw"))
      return TPL_SAFE_ALL;
    if (tpl_name_is(&n->name, "escape") || tpl_name_is(&n->name, "e"))
      return 0;
    if (!n->callable)
      return 0;
    if (n->callable->safe)
      return norm_safe(n->callable->safe);
    if (n->callable->flags & TPL_CALL_PRESERVES_SAFETY)
      return safe_mask(n->a);
    return 0;
  case TPL_N_FUNCTION:
    return n->callable ? norm_safe(n->callable->safe) : 0;
  default:
    return 0;
  }
}

static bool safe_for(const tpl_node *n, int strategy) {
  return (safe_mask(n) & BIT(strategy)) != 0;
}

static tpl_node *mk_escape(chk *C, tpl_node *e, int strategy, int flags) {
  tpl_node *x = mk(C, TPL_N_ESCAPE, e);
  x->a = e;
  x->index = strategy;
  x->flags = (uint8_t)flags;
  return x;
}

/* `x is defined` as the back ends want it; constants are always defined. */
static tpl_node *mk_defined(chk *C, tpl_node *a, const tpl_node *at,
                            bool negate) {
  if (a->kind == TPL_N_CONST || a->kind == TPL_N_ARRAY ||
      a->kind == TPL_N_HASH) {
    tpl_node *c = mk(C, TPL_N_CONST, at);
    c->value = tpl_bool(!negate);
    return c;
  }
  tpl_node *d = mk(C, TPL_N_DEFINED, at);
  d->a = a;
  d->flags = negate ? TPL_F_NEGATE : 0;
  return d;
}

static bool definable(const tpl_node *a) {
  switch (a->kind) {
  case TPL_N_NAME:
  case TPL_N_GETATTR:
  case TPL_N_BLOCK_FUNC:
  case TPL_N_MACRO_CALL:
  case TPL_N_CONST:
  case TPL_N_ARRAY:
  case TPL_N_HASH:
    return true;
  case TPL_N_FUNCTION:
    return tpl_name_is(&a->name, "constant");
  default:
    return false;
  }
}

static bool is_conditional(const tpl_node *n) {
  return n && (n->kind == TPL_N_COND || n->kind == TPL_N_NULLCOALESCE);
}

static const tpl_node *cond_then(const tpl_node *n) {
  return n->kind == TPL_N_NULLCOALESCE ? n->a : n->b ? n->b : n->a;
}
static const tpl_node *cond_else(const tpl_node *n) {
  return n->kind == TPL_N_NULLCOALESCE ? n->b : n->c;
}

static bool should_unwrap(const tpl_node *n, int strategy) {
  return safe_for(cond_then(n), strategy) != safe_for(cond_else(n), strategy);
}

static tpl_node *unwrap_cond(chk *C, tpl_node *n, int strategy);

static tpl_node *esc_branch(chk *C, tpl_node *b, int strategy) {
  if (!b)
    return NULL; /* '' is safe */
  if (is_conditional(b) && should_unwrap(b, strategy)) {
    tpl_node *u = unwrap_cond(C, b, strategy);
    if (u)
      return u;
  }
  return safe_for(b, strategy) ? b : mk_escape(C, b, strategy, TPL_F_AUTO);
}

/* "print a ? b : c" → "a ? print b : print c" with only the unsafe side
 * escaped (Twig's unwrapConditional). `??` becomes the conditional Twig
 * builds for it: (a is defined and a is not null) ? a : b. NULL when the
 * test for null is not available. */
static tpl_node *unwrap_cond(chk *C, tpl_node *n, int strategy) {
  tpl_node *r = mk(C, TPL_N_COND, n);
  if (n->kind == TPL_N_COND) {
    r->a = n->a;
    r->b = esc_branch(C, n->b ? n->b : n->a, strategy);
    r->c = esc_branch(C, n->c, strategy);
    return r;
  }
  tpl_node *test = mk_defined(C, n->a, n, false);
  if (n->a->kind != TPL_N_BLOCK_FUNC) {
    const tpl_callable *isnull = tpl_find_test("null", 4);
    if (!isnull)
      return NULL;
    tpl_node *t = mk(C, TPL_N_TEST, n);
    t->name = tpl_mkname(C->P->arena, "null", 4);
    t->callable = isnull;
    t->a = n->a;
    t->flags = TPL_F_NEGATE;
    tpl_node *and = mk(C, TPL_N_BINARY, n);
    and->index = TPL_OP_AND;
    and->a = test;
    and->b = t;
    test = and;
  }
  r->a = test;
  r->b = esc_branch(C, n->a, strategy);
  r->c = esc_branch(C, n->b, strategy);
  return r;
}

/* What autoescaping does to a printed expression. */
static tpl_node *autoescape(chk *C, tpl_node *e) {
  int s = C->esc;
  if (s == TPL_ESC_NONE)
    return e;
  if (is_conditional(e) && should_unwrap(e, s)) {
    tpl_node *u = unwrap_cond(C, e, s);
    if (u)
      return u;
  }
  if (safe_for(e, s))
    return e;
  return mk_escape(C, e, s, TPL_F_AUTO);
}

/* ---- expressions ---------------------------------------------------- */

static bool strategy_of(const tpl_node *e, int *out) {
  if (!e) {
    *out = TPL_ESC_HTML;
    return true;
  }
  tpl_escape st;
  if (!is_str_const(e) || !tpl_escape_by_name(e->value.u.s, e->value.len, &st))
    return false;
  *out = (int)st;
  return true;
}

static tpl_node *filter(chk *C, tpl_node *n) {
  const tpl_name *nm = &n->name;
  n->a = expr(C, n->a);
  if (tpl_name_is(nm, "raw")) {
    /* identity; dropped after the escaping analysis */
    C->saw_raw = true;
    n->callable = tpl_find_filter("raw", 3);
    expr_kids(C, n);
    n->names = NULL;
    n->nnames = 0;
    return n;
  }
  n->callable = tpl_find_filter(nm->s, nm->len);
  bool is_default = tpl_name_is(nm, "default");
  if (n->nnames &&
      !(is_default &&
        (n->a->kind == TPL_N_NAME || n->a->kind == TPL_N_GETATTR) &&
        reject_named(C, n, "filter", " on a variable or attribute")))
    merge_named(C, n);
  bool is_escape = tpl_name_is(nm, "escape") || tpl_name_is(nm, "e");
  if (!n->callable && !is_default && !is_escape)
    ERR(C, n, "unknown filter \"%s\"", nm->s);
  norm_args(C, n, n->callable, "filter");
  expr_kids(C, n);
  if (is_default) {
    n->kind = TPL_N_DEFAULT;
    n->b = n->nkids ? n->kids[0] : NULL;
    n->kids = NULL;
    n->nkids = 0;
    n->callable = NULL;
    return n;
  }
  if (is_escape) {
    int st;
    if (n->nkids <= 2 && strategy_of(n->nkids ? n->kids[0] : NULL, &st)) {
      n->kind = TPL_N_ESCAPE;
      n->index = st;
      n->flags = 0;
      n->kids = NULL;
      n->nkids = 0;
      n->callable = NULL;
      return n;
    }
    if (!n->callable)
      ERR(C, n, "unknown filter \"%s\"", nm->s);
    return n;
  }
  const tpl_callable *cb = n->callable;
  if (cb && cb->pre_escape != TPL_ESC_NONE && !safe_for(n->a, cb->pre_escape))
    n->a = mk_escape(C, n->a, cb->pre_escape, TPL_F_AUTO);
  return n;
}

static tpl_node *function(chk *C, tpl_node *n) {
  const tpl_name *nm = &n->name;
  if (tpl_name_is(nm, "parent")) {
    if (!C->block || (!C->tpl->t->parent && !C->tpl->uses.n))
      ERR(C, n,
          "\"parent()\" can only be used in a block of a template that "
          "extends or uses another");
    n->kind = TPL_N_PARENT;
    if (C->block)
      n->name = *C->block;
    n->kids = NULL;
    n->nkids = 0;
    n->names = NULL;
    n->nnames = 0;
    return n;
  }
  if (tpl_name_is(nm, "block")) {
    loop_current(C);
    if (reject_named(C, n, "function", ""))
      return n;
    if (n->nkids < 1) {
      ERR(C, n, "the \"block\" function takes one argument (the block name)");
      return n;
    }
    n->kind = TPL_N_BLOCK_FUNC;
    n->a = expr(C, n->kids[0]);
    n->b = n->nkids > 1 ? expr(C, n->kids[1]) : NULL;
    n->kids = NULL;
    n->nkids = 0;
    n->names = NULL;
    n->nnames = 0;
    return n;
  }
  if (tpl_name_is(nm, "attribute")) {
    if (reject_named(C, n, "function", ""))
      return n;
    if (n->nkids < 2) {
      ERR(C, n,
          "the \"attribute\" function takes at least two arguments (the "
          "variable and the attributes)");
      return n;
    }
    tpl_node *g = mk(C, TPL_N_GETATTR, n);
    g->index = TPL_ATTR_ANY;
    g->a = n->kids[0];
    g->b = n->kids[1];
    if (is_str_const(g->b))
      g->name = tpl_mkname(C->P->arena, g->b->value.u.s, g->b->value.len);
    if (n->nkids > 2) {
      tpl_node *args = n->kids[2];
      if (args->kind == TPL_N_ARRAY) {
        g->kids = args->kids;
        g->nkids = args->nkids;
      } else {
        g->kids = &n->kids[2];
        g->nkids = 1;
      }
    }
    return expr(C, g);
  }
  const chk_sym *sym = find_sym(C, nm, false);
  if (sym)
    return mk_macro_call(C, n, &sym->macro, sym->slot, n);
  n->callable = tpl_find_function(nm->s, nm->len);
  if (!n->callable)
    ERR(C, n, "unknown function \"%s\"", nm->s);
  if (n->nnames)
    merge_named(C, n);
  if ((tpl_name_is(nm, "include") || tpl_name_is(nm, "source")) && n->nkids)
    loc_at_start(n, n->kids[0]);
  if (tpl_name_is(nm, "include")) {
    /* Twig looks at a named with_context only */
    bool no_ctx = false;
    for (size_t i = 0; i < n->nnames; i++)
      if (tpl_name_is(&n->names[i], "with_context") &&
          n->kids[i]->kind == TPL_N_CONST &&
          n->kids[i]->value.type == TPL_BOOL && !n->kids[i]->value.u.b)
        no_ctx = true;
    if (!no_ctx)
      loop_all(C);
  }
  norm_args(C, n, n->callable, "function");
  expr_kids(C, n);
  return n;
}

static tpl_node *test(chk *C, tpl_node *n) {
  const tpl_name *nm = &n->name;
  if (tpl_name_is(nm, "defined")) {
    tpl_node *a = n->a;
    if (a->kind == TPL_N_NAME) {
      const chk_sym *sym = find_sym(C, &a->name, false);
      if (sym)
        a = mk_macro_call(C, a, &sym->macro, sym->slot, NULL);
    }
    a = expr(C, a);
    if (!definable(a)) {
      ERR(C, n, "the \"defined\" test only works with simple variables");
      return n;
    }
    return mk_defined(C, a, n, (n->flags & TPL_F_NEGATE) != 0);
  }
  n->callable = tpl_find_test(nm->s, nm->len);
  if (!n->callable)
    ERR(C, n, "unknown test \"%s\"", nm->s);
  reject_named(C, n, "test", "");
  n->a = expr(C, n->a);
  norm_args(C, n, n->callable, "test");
  expr_kids(C, n);
  return n;
}

static tpl_node *getattr(chk *C, tpl_node *n) {
  /* loop.parent or a dynamic attribute may reach any loop */
  bool dyn = !(n->b->kind == TPL_N_CONST) ||
             (is_str_const(n->b) && n->b->value.len == 6 &&
              !memcmp(n->b->value.u.s, "parent", 6));
  if (dyn && ((C->loops.n && C->loops.v[C->loops.n - 1]->n) ||
              (n->a->kind == TPL_N_NAME && tpl_name_is(&n->a->name, "loop"))))
    loop_all(C);
  if (n->a->kind == TPL_N_NAME && n->b->kind == TPL_N_CONST) {
    tpl_name mname;
    if (is_str_const(n->b)) {
      mname = tpl_mkname(C->P->arena, n->b->value.u.s, n->b->value.len);
    } else {
      char buf[64];
      size_t l = 0;
      if (n->b->value.type == TPL_INT)
        l = (size_t)snprintf(buf, sizeof buf, "%lld",
                             (long long)n->b->value.u.i);
      mname = tpl_mkname(C->P->arena, buf, l < sizeof buf ? l : 0);
    }
    const chk_sym *sym =
        n->index != TPL_ATTR_ARRAY ? find_sym(C, &n->a->name, true) : NULL;
    if (sym)
      return mk_macro_call(C, n, &mname, sym->slot, n);
    if (tpl_name_is(&n->a->name, "_self"))
      return mk_macro_call(C, n, &mname, -1, n);
  }
  n->a = expr(C, n->a);
  n->b = expr(C, n->b);
  if (n->nnames)
    ERR(C, n, "named arguments are not supported in method calls");
  n->names = NULL;
  n->nnames = 0;
  expr_kids(C, n);
  return n;
}

static tpl_node *expr_in(chk *C, tpl_node *n);

#define TPL_MAX_EXPR_DEPTH 400

static tpl_node *expr(chk *C, tpl_node *n) {
  if (!n)
    return n;
  if (C->edepth >= TPL_MAX_EXPR_DEPTH) {
    if (!C->too_deep)
      ERR(C, n, "expression too deeply nested");
    C->too_deep = true;
    return n;
  }
  C->edepth++;
  n = expr_in(C, n);
  C->edepth--;
  return n;
}

static tpl_node *expr_in(chk *C, tpl_node *n) {
  switch (n->kind) {
  case TPL_N_NAME:
    if (C->loops.n && tpl_name_is(&n->name, "loop"))
      loop_current(C);
    return n;
  case TPL_N_ARRAY:
  case TPL_N_HASH:
    expr_kids(C, n);
    return n;
  case TPL_N_GETATTR:
    return getattr(C, n);
  case TPL_N_BINARY:
    n->a = expr(C, n->a);
    n->b = expr(C, n->b);
    return n;
  case TPL_N_UNARY:
    n->a = expr(C, n->a);
    return n;
  case TPL_N_COND:
    n->a = expr(C, n->a);
    n->b = expr(C, n->b);
    n->c = expr(C, n->c);
    return n;
  case TPL_N_NULLCOALESCE: {
    /* A test is never simple, even `false is defined`, which folds to a
     * constant below. */
    bool test = n->a->kind == TPL_N_TEST;
    n->a = expr(C, n->a);
    n->b = expr(C, n->b);
    if (test || !definable(n->a))
      ERR(C, n, "the \"defined\" test only works with simple variables");
    return n;
  }
  case TPL_N_FILTER:
    return filter(C, n);
  case TPL_N_FUNCTION:
    return function(C, n);
  case TPL_N_TEST:
    return test(C, n);
  case TPL_N_SLICE:
    n->a = expr(C, n->a);
    n->b = expr(C, n->b);
    n->c = expr(C, n->c);
    return n;
  case TPL_N_ARROW:
    n->a = expr(C, n->a);
    return n;
  default:
    return n;
  }
}

/* ---- statements ----------------------------------------------------- */

static tpl_node *body(chk *C, tpl_node *b) {
  if (!b)
    return b;
  size_t j = 0;
  for (size_t i = 0; i < b->nkids; i++) {
    tpl_node *k = stmt(C, b->kids[i]);
    if (k)
      b->kids[j++] = k;
  }
  b->nkids = j;
  return b;
}

static tpl_node *nested_body(chk *C, tpl_node *b) {
  C->depth++;
  b = body(C, b);
  C->depth--;
  return b;
}

/* The state a block, a macro or an embed starts from. */
typedef struct chk_saved {
  chk_tpl *tpl;
  chk_scope *local;
  const tpl_name *block;
  bool in_macro;
  int depth, esc;
  chk_loops loops;
} chk_saved;

static chk_saved enter(chk *C) {
  chk_saved s = {C->tpl,   C->local, C->block, C->in_macro,
                 C->depth, C->esc,   C->loops};
  memset(&C->loops, 0, sizeof C->loops);
  C->depth = 0;
  return s;
}

static void leave(chk *C, chk_saved s) {
  C->tpl = s.tpl;
  C->local = s.local;
  C->block = s.block;
  C->in_macro = s.in_macro;
  C->depth = s.depth;
  C->esc = s.esc;
  C->loops = s.loops;
}

static tpl_node *block_def(chk *C, tpl_node *n) {
  loop_current(C);
  chk_tpl *T = C->tpl;
  tpl_node *def_body = n->a;
  n->a = NULL;
  n->flags &= (uint8_t) ~(TPL_F__DEF | TPL_F__SHORT);
  bool dup = false;
  for (size_t i = 0; i < T->blocks.n; i++)
    if (name_eq(&T->blocks.v[i].name, &n->name))
      dup = true;
  size_t idx = T->blocks.n;
  if (dup) {
    ERR(C, n, "block \"%s\" is already defined", n->name.s);
  } else {
    tpl_ast_block b = {n->name, NULL, n->loc};
    VPUSH(C->P->arena, T->blocks, b);
  }
  /* a block keeps the strategy in effect where it is defined */
  chk_saved s = enter(C);
  chk_scope *scope = oc_arena_calloc(C->P->arena, 1, sizeof *scope);
  C->local = scope;
  C->block = &n->name;
  C->in_macro = false;
  def_body = body(C, def_body);
  leave(C, s);
  if (!dup)
    T->blocks.v[idx].body = def_body;
  return n;
}

static tpl_node *macro_def(chk *C, tpl_node *n) {
  chk_tpl *T = C->tpl;
  chk_saved s = enter(C);
  chk_scope *scope = oc_arena_calloc(C->P->arena, 1, sizeof *scope);
  C->local = scope;
  C->block = NULL;
  C->in_macro = true;
  /* Twig escapes macros with the template's default strategy, whatever
   * autoescape tag surrounds them */
  C->esc = C->P->opts->autoescape;
  for (size_t i = 0; i < n->nkids; i++)
    if (n->kids[i])
      n->kids[i] = expr(C, n->kids[i]);
  tpl_node *b = body(C, n->a);
  leave(C, s);
  tpl_ast_macro m;
  m.name = n->name;
  m.nparams = n->nnames;
  m.params = n->names;
  m.defaults = n->kids;
  if (!m.defaults)
    m.defaults = oc_arena_calloc(C->P->arena, 1, sizeof *m.defaults);
  m.body = b;
  m.loc = n->loc;
  for (size_t i = 0; i < T->macros.n; i++)
    if (name_eq(&T->macros.v[i].name, &n->name)) {
      T->macros.v[i] = m; /* the last definition wins, as in Twig */
      return NULL;
    }
  VPUSH(C->P->arena, T->macros, m);
  return NULL;
}

static tpl_node *use_stmt(chk *C, tpl_node *n) {
  if (!is_str_const(n->a)) {
    ERR(C, n->a,
        "the template references in a \"use\" statement must be a string");
    return NULL;
  }
  check_exists(C, n->a);
  tpl_use u;
  u.name = n->a->value.u.s;
  u.nrenames = n->nnames / 2;
  tpl_use_rename *r =
      oc_arena_calloc(C->P->arena, u.nrenames ? u.nrenames : 1, sizeof *r);
  for (size_t i = 0; i < u.nrenames; i++) {
    r[i].from = n->names[2 * i];
    r[i].to = n->names[2 * i + 1];
  }
  u.renames = r;
  u.loc = n->a->loc;
  VPUSH(C->P->arena, C->tpl->uses, u);
  return NULL;
}

static tpl_node *import_stmt(chk *C, tpl_node *n) {
  chk_tpl *T = C->tpl;
  bool self = false;
  if (n->a->kind == TPL_N_NAME && tpl_name_is(&n->a->name, "_self")) {
    n->a = NULL;
    self = true;
  } else {
    loc_at_start(n, n->a);
    n->a = expr(C, n->a);
    check_exists(C, n->a);
  }
  int slot = (int)T->t->nimports++;
  n->index = slot;
  chk_scope *sc = C->local ? C->local : &T->main;
  if (!(n->flags & TPL_F__FROM)) {
    chk_sym s = {n->name, slot, true, {NULL, 0, 0}};
    VPUSH(C->P->arena, *sc, s);
  } else {
    const tpl_ast_template *target = self ? NULL : load(C, n->a);
    for (size_t i = 0; i < n->nkids; i++) {
      tpl_node *k = n->kids[i];
      chk_sym s = {k->name2, slot, false, k->name};
      VPUSH(C->P->arena, *sc, s);
      if (self)
        VPUSH(C->P->arena, T->self_from, k);
      else if (target && !has_macro(target, &k->name) &&
               !parents_have_macro(C, target->parent, &k->name))
        ERR(C, k, "unknown macro \"%s\"", k->name.s);
    }
  }
  n->flags &= (uint8_t)~TPL_F__FROM;
  n->kids = NULL;
  n->nkids = 0;
  n->names = NULL;
  n->nnames = 0;
  return n;
}

static void finish_template(chk *C, chk_tpl *T);

static tpl_node *embed_stmt(chk *C, tpl_node *n) {
  loc_at_start(n, n->a);
  n->a = expr(C, n->a);
  n->b = expr(C, n->b);
  if (!(n->flags & TPL_F_IGNORE_MISSING))
    check_exists(C, n->a);
  if (!(n->flags & TPL_F_ONLY))
    loop_all(C);
  chk_tpl *outer = C->tpl;
  chk_tpl *T = oc_arena_calloc(C->P->arena, 1, sizeof *T);
  T->t = oc_arena_calloc(C->P->arena, 1, sizeof *T->t);
  T->t->name = C->P->name;
  T->t->autoescape = C->P->opts->autoescape;
  T->t->parent = n->a;
  tpl_node *b = n->c;
  n->c = NULL;
  /* an embed is a template of its own: no imports, no autoescape tags
   * and no blocks of the enclosing one reach it */
  chk_saved s = enter(C);
  C->tpl = T;
  C->local = NULL;
  C->block = NULL;
  C->in_macro = false;
  C->esc = C->P->opts->autoescape;
  T->t->body = body(C, b);
  finish_template(C, T);
  leave(C, s);
  n->index = (int32_t)outer->embeds.n;
  VPUSH(C->P->arena, outer->embeds, T->t);
  return n;
}

static bool text_content_at(const tpl_node *t, uint32_t *line, uint32_t *col);

/* Output in the template's own body (not in a block or macro). */
static void note_output(chk *C, const tpl_node *n) {
  uint32_t l, c;
  if (C->block || C->in_macro)
    return;
  if (n->kind != TPL_N_TEXT || text_content_at(n, &l, &c))
    C->tpl->output = true;
}

static tpl_node *stmt(chk *C, tpl_node *n) {
  switch (n->kind) {
  case TPL_N_TEXT:
    note_output(C, n);
    return n;
  case TPL_N_PRINT:
    note_output(C, n);
    n->a = expr(C, n->a);
    n->a = autoescape(C, n->a);
    return n;
  case TPL_N_IF:
    for (size_t i = 0; i < n->nkids; i++)
      n->kids[i] = i % 2 ? nested_body(C, n->kids[i]) : expr(C, n->kids[i]);
    n->c = nested_body(C, n->c);
    return n;
  case TPL_N_FOR:
    VPUSH(C->P->arena, C->loops, n);
    n->n = 0;
    n->a = expr(C, n->a);
    n->b = expr(C, n->b);
    n->c = nested_body(C, n->c);
    n->d = nested_body(C, n->d);
    C->loops.n--;
    return n;
  case TPL_N_SET:
    for (size_t i = n->n; i < n->nkids; i++)
      n->kids[i] = expr(C, n->kids[i]);
    return n;
  case TPL_N_SET_CAPTURE:
    n->a = nested_body(C, n->a);
    return n;
  case TPL_N_BLOCK_REF:
    if (n->flags & TPL_F__DEF)
      return block_def(C, n);
    return n;
  case TPL_N__MACRO:
    return macro_def(C, n);
  case TPL_N__USE:
    return use_stmt(C, n);
  case TPL_N_IMPORT:
    return import_stmt(C, n);
  case TPL_N_EXTENDS:
    if (C->block || C->in_macro || C->depth > 0 || C->tpl->t->parent ||
        C->tpl->output) {
      ERR(C, n, "\"extends\" must be the first tag in a template");
      return NULL;
    }
    C->tpl->t->parent = expr(C, n->a);
    check_exists(C, C->tpl->t->parent);
    return NULL;
  case TPL_N_INCLUDE:
    note_output(C, n);
    if (!(n->flags & TPL_F_ONLY))
      loop_all(C);
    loc_at_start(n, n->a);
    n->a = expr(C, n->a);
    n->b = expr(C, n->b);
    if (!(n->flags & TPL_F_IGNORE_MISSING))
      check_exists(C, n->a);
    return n;
  case TPL_N_EMBED:
    note_output(C, n);
    return embed_stmt(C, n);
  case TPL_N_APPLY:
    note_output(C, n);
    n->b = nested_body(C, n->b);
    n->a = expr(C, n->a);
    n->a = autoescape(C, n->a);
    return n;
  case TPL_N_AUTOESCAPE: {
    int saved = C->esc;
    C->esc = n->index;
    n->a = nested_body(C, n->a);
    C->esc = saved;
    return n;
  }
  case TPL_N_WITH:
    n->a = expr(C, n->a);
    n->b = nested_body(C, n->b);
    return n;
  case TPL_N_DO:
    n->a = expr(C, n->a);
    return n;
  case TPL_N_BODY:
    return body(C, n);
  default:
    return n;
  }
}

/* ---- child templates (Twig's Parser::filterBodyNodes) --------------- */

static bool is_space(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
         c == '\f';
}

/* Position of the first non-space byte of a text node, or false. */
static bool text_content_at(const tpl_node *t, uint32_t *line, uint32_t *col) {
  const unsigned char *s = (const unsigned char *)t->value.u.s;
  size_t n = t->value.len, i = 0;
  /* a BOM followed by nothing but spaces does not count */
  if (n >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) {
    size_t k = 3;
    while (k < n && is_space(s[k]))
      k++;
    if (k == n)
      return false;
  }
  uint32_t l = t->line, c = t->col;
  for (; i < n; i++) {
    if (!is_space(s[i])) {
      *line = l;
      *col = c;
      return true;
    }
    if (s[i] == '\n') {
      l++;
      c = 1;
    } else {
      c++;
    }
  }
  return false;
}

static const char out_outside[] =
    "a template that extends another one cannot have output outside blocks";

static bool filter_child(chk *C, tpl_node *n, bool nested);

static void filter_child_body(chk *C, tpl_node *b, bool nested) {
  if (!b)
    return;
  size_t j = 0;
  for (size_t i = 0; i < b->nkids; i++)
    if (filter_child(C, b->kids[i], nested))
      b->kids[j++] = b->kids[i];
  b->nkids = j;
}

/* Whether to keep a statement of a child's body outside blocks. */
static bool filter_child(chk *C, tpl_node *n, bool nested) {
  uint32_t l, c;
  switch (n->kind) {
  case TPL_N_TEXT:
    if (text_content_at(n, &l, &c))
      tpl_perr(C->P, l, c, "%s", out_outside);
    return false;
  case TPL_N_PRINT:
  case TPL_N_INCLUDE:
  case TPL_N_EMBED:
  case TPL_N_APPLY:
    ERR_START(C, n, "%s", out_outside);
    return false;
  case TPL_N_BLOCK_REF:
    if (nested)
      ERR(C, n,
          "a block definition cannot be nested under non-capturing nodes");
    return false;
  case TPL_N_SET:
  case TPL_N_SET_CAPTURE:
    return true; /* captures keep their output, blocks display there */
  case TPL_N_IF:
    for (size_t i = 1; i < n->nkids; i += 2)
      filter_child_body(C, n->kids[i], true);
    filter_child_body(C, n->c, true);
    return true;
  case TPL_N_FOR:
    filter_child_body(C, n->c, true);
    filter_child_body(C, n->d, true);
    return true;
  case TPL_N_AUTOESCAPE:
    filter_child_body(C, n->a, true);
    return true;
  case TPL_N_WITH:
    filter_child_body(C, n->b, true);
    return true;
  case TPL_N_BODY:
    filter_child_body(C, n, true);
    return true;
  default:
    return true;
  }
}

/* ---- final passes ---------------------------------------------------- */

/* Drops `|raw` (identity) once escaping no longer needs to see it, as
 * Twig's optimizer does. */
static tpl_node *strip_raw(tpl_node *n) {
  if (!n)
    return n;
  n->a = strip_raw(n->a);
  n->b = strip_raw(n->b);
  n->c = strip_raw(n->c);
  n->d = strip_raw(n->d);
  for (size_t i = 0; i < n->nkids; i++)
    n->kids[i] = strip_raw(n->kids[i]);
  if (n->kind == TPL_N_FILTER && tpl_name_is(&n->name, "raw") && n->a)
    return n->a;
  return n;
}

static void finish_template(chk *C, chk_tpl *T) {
  tpl_ast_template *t = T->t;
  for (size_t i = 0; i < T->self_from.n; i++) {
    tpl_node *k = T->self_from.v[i];
    bool found = false;
    for (size_t j = 0; j < T->macros.n; j++)
      if (name_eq(&T->macros.v[j].name, &k->name))
        found = true;
    if (!found && !parents_have_macro(C, t->parent, &k->name))
      ERR(C, k, "unknown macro \"%s\"", k->name.s);
  }
  if (t->parent)
    filter_child_body(C, t->body, false);
  if (C->saw_raw) {
    t->body = strip_raw(t->body);
    for (size_t i = 0; i < T->blocks.n; i++)
      T->blocks.v[i].body = strip_raw(T->blocks.v[i].body);
    for (size_t i = 0; i < T->macros.n; i++)
      T->macros.v[i].body = strip_raw(T->macros.v[i].body);
  }
  t->nblocks = T->blocks.n;
  t->blocks = T->blocks.v;
  t->nmacros = T->macros.n;
  t->macros = T->macros.v;
  t->nuses = T->uses.n;
  t->uses = T->uses.v;
  t->nembeds = T->embeds.n;
  t->embeds = T->embeds.v;
}

tpl_ast_template *tpl_check(tpl_pctx *P) {
  chk C;
  memset(&C, 0, sizeof C);
  C.P = P;
  C.esc = P->opts->autoescape;
  chk_tpl *T = oc_arena_calloc(P->arena, 1, sizeof *T);
  T->t = oc_arena_calloc(P->arena, 1, sizeof *T->t);
  T->t->name = P->name;
  T->t->autoescape = P->opts->autoescape;
  C.tpl = T;
  T->t->body = body(&C, P->root);
  finish_template(&C, T);
  return T->t;
}
