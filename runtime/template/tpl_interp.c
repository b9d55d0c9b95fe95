/* The interpreter: runtime templates whose body, block, macro and arrow
 * functions walk the checked AST, making exactly the run-time calls the C
 * generator emits for the same nodes, so that both back ends print the same
 * bytes. No rule of the language lives here, only the sequencing. */
#include "tpl_interp.h"

/* What a walk needs besides the scope: the template whose code runs (for
 * `_self`, imports and embeds), the block table of the display, the block
 * being run (for parent()), and the output of an `apply` body. */
typedef struct ip_frame {
  tpl_rt *rt;
  const tpl_template *self;
  const tpl_blocks *blocks;
  const tpl_block_def *def;
  tpl_value captured;
} ip_frame;

static tpl_value ip_eval(ip_frame *f, tpl_ctx *ctx, const tpl_node *n);
static void ip_exec(ip_frame *f, tpl_ctx *ctx, const tpl_node *n);

#define IP_STACK_ARGS 8

/* Evaluates a list of argument nodes into argv; a NULL node is an optional
 * argument not given (null), and argc counts up to the last one given. */
static int ip_args(ip_frame *f, tpl_ctx *ctx, tpl_node *const *kids,
                   size_t nkids, tpl_value *argv) {
  int argc = 0;
  for (size_t i = 0; i < nkids; i++) {
    if (kids[i]) {
      argv[i] = ip_eval(f, ctx, kids[i]);
      argc = (int)i + 1;
    } else {
      argv[i] = tpl_null();
    }
  }
  return argc;
}

static tpl_value *ip_argv(ip_frame *f, size_t n, tpl_value *stack) {
  return n <= IP_STACK_ARGS ? stack
                            : oc_arena_calloc(f->rt->arena, n, sizeof *stack);
}

/* Filters, functions and tests: argv[0] is the input for filters/tests. */
static tpl_value ip_callable(ip_frame *f, tpl_ctx *ctx, const tpl_node *n,
                             const tpl_node *input) {
  if (!n->callable)
    tpl_fail(f->rt, &n->loc, "unknown function \"%.*s\"", (int)n->name.len,
             n->name.s);
  size_t off = input ? 1 : 0;
  tpl_value stack[IP_STACK_ARGS];
  tpl_value *argv = ip_argv(f, n->nkids + off, stack);
  int argc = 0;
  if (input) {
    argv[0] = ip_eval(f, ctx, input);
    argc = 1;
  }
  int given = ip_args(f, ctx, n->kids, n->nkids, argv + off);
  if (given)
    argc = given + (int)off;
  return n->callable->fn(f->rt, ctx, argc, argv, &n->loc);
}

/* Evaluates n as the defined test, `??` and `default` see it: a variable
 * or attribute chain is read without strict-mode errors, and *defined says
 * whether its last step exists. Anything else is evaluated and defined. */
static tpl_value ip_probe(ip_frame *f, tpl_ctx *ctx, const tpl_node *n,
                          bool *defined) {
  tpl_value v = tpl_null();
  if (n->kind == TPL_N_NAME) {
    *defined = tpl_var_probe(f->rt, ctx, f->self, &n->name, &v);
    return *defined ? v : tpl_null();
  }
  if (n->kind == TPL_N_GETATTR && n->index != TPL_ATTR_METHOD) {
    bool obj_defined;
    tpl_value obj = ip_probe(f, ctx, n->a, &obj_defined);
    tpl_value key = n->index == TPL_ATTR_ANY && n->name.s && !n->nkids
                        ? tpl_str(n->name.s, n->name.len)
                        : ip_eval(f, ctx, n->b);
    *defined = tpl_has_attr(f->rt, obj, key, &v);
    return *defined ? v : tpl_null();
  }
  *defined = true;
  return ip_eval(f, ctx, n);
}

static tpl_value ip_binary(ip_frame *f, tpl_ctx *ctx, const tpl_node *n) {
  tpl_rt *rt = f->rt;
  const tpl_loc *l = &n->loc;
  if (n->index == TPL_OP_OR)
    return tpl_bool(tpl_truthy(ip_eval(f, ctx, n->a)) ||
                    tpl_truthy(ip_eval(f, ctx, n->b)));
  if (n->index == TPL_OP_AND)
    return tpl_bool(tpl_truthy(ip_eval(f, ctx, n->a)) &&
                    tpl_truthy(ip_eval(f, ctx, n->b)));
  tpl_value a = ip_eval(f, ctx, n->a);
  if ((n->index == TPL_OP_STARTS_WITH || n->index == TPL_OP_ENDS_WITH) &&
      !tpl_op_affix_evaluates_right(a))
    return tpl_bool(false);
  tpl_value b = ip_eval(f, ctx, n->b);
  switch ((tpl_binop)n->index) {
  case TPL_OP_BOR:
    return tpl_op_bitor(rt, a, b);
  case TPL_OP_BXOR:
    return tpl_op_bitxor(rt, a, b);
  case TPL_OP_BAND:
    return tpl_op_bitand(rt, a, b);
  case TPL_OP_EQ:
    return tpl_bool(tpl_loose_eq(rt, a, b));
  case TPL_OP_NE:
    return tpl_bool(!tpl_loose_eq(rt, a, b));
  case TPL_OP_CMP:
    return tpl_int(tpl_compare(rt, a, b));
  case TPL_OP_LT:
    return tpl_bool(tpl_compare(rt, a, b) < 0);
  case TPL_OP_GT: /* PHP evaluates a > b as b < a */
    return tpl_bool(tpl_compare(rt, b, a) < 0);
  case TPL_OP_LE:
    return tpl_bool(tpl_compare(rt, a, b) <= 0);
  case TPL_OP_GE:
    return tpl_bool(tpl_compare(rt, b, a) <= 0);
  case TPL_OP_NOT_IN:
    return tpl_bool(!tpl_op_in(rt, a, b));
  case TPL_OP_IN:
    return tpl_bool(tpl_op_in(rt, a, b));
  case TPL_OP_MATCHES:
    return tpl_int(tpl_op_matches(rt, a, b, l));
  case TPL_OP_STARTS_WITH:
    return tpl_bool(tpl_op_starts_with(rt, a, b));
  case TPL_OP_ENDS_WITH:
    return tpl_bool(tpl_op_ends_with(rt, a, b));
  case TPL_OP_RANGE:
    return tpl_op_range(rt, a, b, tpl_null(), l);
  case TPL_OP_ADD:
    return tpl_op_add(rt, a, b, l);
  case TPL_OP_SUB:
    return tpl_op_sub(rt, a, b, l);
  case TPL_OP_CONCAT:
    return tpl_op_concat(rt, a, b);
  case TPL_OP_MUL:
    return tpl_op_mul(rt, a, b, l);
  case TPL_OP_DIV:
    return tpl_op_div(rt, a, b, l);
  case TPL_OP_FLOORDIV:
    return tpl_op_floordiv(rt, a, b, l);
  case TPL_OP_MOD:
    return tpl_op_mod(rt, a, b, l);
  case TPL_OP_POW:
    return tpl_op_pow(rt, a, b, l);
  case TPL_OP_HAS_SOME:
    return tpl_bool(tpl_op_has_some(rt, a, b, l));
  case TPL_OP_HAS_EVERY:
    return tpl_bool(tpl_op_has_every(rt, a, b, l));
  case TPL_OP_OR:
  case TPL_OP_AND:
    break;
  }
  tpl_fail(rt, l, "unknown operator %d", (int)n->index);
}

static tpl_value ip_arrow(tpl_rt *rt, const tpl_closure *cl, int argc,
                          const tpl_value *argv) {
  const tpl_node *n = cl->node;
  tpl_ctx *scope = tpl_ctx_new(rt, cl->ctx, false);
  for (size_t i = 0; i < n->nnames; i++)
    tpl_ctx_set_own(rt, scope, &n->names[i],
                    (int)i < argc ? argv[i] : tpl_null());
  ip_frame f = {rt, cl->self, cl->blocks, NULL, tpl_null()};
  return ip_eval(&f, scope, n->a);
}

static tpl_value ip_eval(ip_frame *f, tpl_ctx *ctx, const tpl_node *n) {
  tpl_rt *rt = f->rt;
  switch ((tpl_node_kind)n->kind) {
  case TPL_N_CONST:
    return n->value;
  case TPL_N_NAME:
    return tpl_var(rt, ctx, f->self, &n->name, &n->loc);
  case TPL_N_ARRAY: {
    tpl_list *l = tpl_list_new(rt->arena, n->nkids);
    for (size_t i = 0; i < n->nkids; i++)
      l->items[i] = ip_eval(f, ctx, n->kids[i]);
    return tpl_list_value(l);
  }
  case TPL_N_HASH: {
    tpl_map *m = tpl_map_new(rt->arena, n->nkids / 2);
    for (size_t i = 0; i + 1 < n->nkids; i += 2) {
      tpl_value k = ip_eval(f, ctx, n->kids[i]);
      tpl_map_set(rt->arena, m, k, ip_eval(f, ctx, n->kids[i + 1]));
    }
    return tpl_map_or_list(rt->arena, m);
  }
  case TPL_N_GETATTR: {
    tpl_value obj = ip_eval(f, ctx, n->a);
    if (n->index == TPL_ATTR_ANY && n->name.s && !n->nkids)
      return tpl_getattr_name(rt, obj, &n->name, &n->loc);
    tpl_value key = ip_eval(f, ctx, n->b);
    if (n->index != TPL_ATTR_METHOD)
      return tpl_getattr(rt, obj, key, (tpl_attr_kind)n->index, &n->loc);
    tpl_value *argv =
        n->nkids ? oc_arena_alloc(rt->arena, n->nkids * sizeof *argv) : NULL;
    int argc = 0;
    for (size_t i = 0; i < n->nkids; i++)
      if (n->kids[i])
        argv[argc++] = ip_eval(f, ctx, n->kids[i]);
    return tpl_call_method(rt, obj, key, argc, argv, &n->loc);
  }
  case TPL_N_BINARY:
    return ip_binary(f, ctx, n);
  case TPL_N_UNARY: {
    tpl_value a = ip_eval(f, ctx, n->a);
    if (n->index == TPL_OP_NOT)
      return tpl_bool(!tpl_truthy(a));
    if (n->index == TPL_OP_NEG)
      return tpl_op_neg(rt, a, &n->loc);
    return tpl_op_pos(rt, a, &n->loc);
  }
  case TPL_N_COND: {
    tpl_value c = ip_eval(f, ctx, n->a);
    if (!n->b) /* a ?: c */
      return tpl_truthy(c) ? c : ip_eval(f, ctx, n->c);
    if (tpl_truthy(c))
      return ip_eval(f, ctx, n->b);
    return n->c ? ip_eval(f, ctx, n->c) : tpl_str("", 0);
  }
  case TPL_N_NULLCOALESCE: {
    /* Twig tests block() with the defined test alone: a defined block
     * gives its output, an undefined one the right operand. */
    const tpl_node *a = n->a;
    if (a->kind == TPL_N_BLOCK_FUNC)
      return tpl_block_defined(rt, f->blocks, ip_eval(f, ctx, a->a),
                               a->b ? ip_eval(f, ctx, a->b) : tpl_null())
                 ? ip_eval(f, ctx, a)
                 : ip_eval(f, ctx, n->b);
    bool defined;
    tpl_value v = ip_probe(f, ctx, a, &defined);
    if (defined && v.type != TPL_NULL)
      return v;
    return ip_eval(f, ctx, n->b);
  }
  case TPL_N_FILTER:
    return ip_callable(f, ctx, n, n->a);
  case TPL_N_FUNCTION:
    return ip_callable(f, ctx, n, NULL);
  case TPL_N_TEST: {
    tpl_value r = ip_callable(f, ctx, n, n->a);
    bool b = tpl_truthy(r);
    return tpl_bool((n->flags & TPL_F_NEGATE) ? !b : b);
  }
  case TPL_N_DEFINED: {
    const tpl_node *a = n->a;
    bool d;
    switch (a->kind) {
    case TPL_N_NAME:
    case TPL_N_GETATTR:
      ip_probe(f, ctx, a, &d);
      break;
    case TPL_N_BLOCK_FUNC:
      d = tpl_block_defined(rt, f->blocks, ip_eval(f, ctx, a->a),
                            a->b ? ip_eval(f, ctx, a->b) : tpl_null());
      break;
    case TPL_N_MACRO_CALL:
      d = tpl_macro_defined(rt, f->self, a->index, &a->name);
      break;
    default:
      d = true;
    }
    return tpl_bool((n->flags & TPL_F_NEGATE) ? !d : d);
  }
  case TPL_N_DEFAULT: {
    bool defined;
    tpl_value v = ip_probe(f, ctx, n->a, &defined);
    if (defined && !tpl_is_empty(rt, v))
      return v;
    return n->b ? ip_eval(f, ctx, n->b) : tpl_str("", 0);
  }
  case TPL_N_SLICE: {
    tpl_value v = ip_eval(f, ctx, n->a);
    tpl_value start = n->b ? ip_eval(f, ctx, n->b) : tpl_int(0);
    tpl_value len = n->c ? ip_eval(f, ctx, n->c) : tpl_null();
    return tpl_slice(rt, v, start, len, false, &n->loc);
  }
  case TPL_N_MACRO_CALL: {
    tpl_value stack[IP_STACK_ARGS];
    tpl_value *argv = ip_argv(f, n->nkids, stack);
    for (size_t i = 0; i < n->nkids; i++)
      argv[i] = n->kids[i] ? ip_eval(f, ctx, n->kids[i]) : tpl_null();
    size_t npos = n->n <= n->nkids ? n->n : n->nkids;
    return tpl_call_macro(rt, ctx, f->self, n->index, &n->name, (int)npos,
                          (int)(n->nkids - npos), argv, n->names, &n->loc);
  }
  case TPL_N_ARROW:
    return tpl_closure_new(rt, ip_arrow, n, ctx, f->self, f->blocks);
  case TPL_N_PARENT:
    return tpl_parent_function(rt, f->def, ctx, f->blocks, &n->loc);
  case TPL_N_BLOCK_FUNC:
    return tpl_block_function(rt, ctx, f->blocks, ip_eval(f, ctx, n->a),
                              n->b ? ip_eval(f, ctx, n->b) : tpl_null(),
                              &n->loc);
  case TPL_N_ESCAPE: {
    tpl_value v = ip_eval(f, ctx, n->a);
    if ((n->flags & TPL_F_AUTO) && v.type == TPL_STR && v.safe)
      return v;
    return tpl_escape_value(rt, v, (tpl_escape)n->index, &n->loc);
  }
  case TPL_N_CAPTURED:
    return f->captured;
  default:
    break;
  }
  tpl_fail(rt, &n->loc, "cannot evaluate node kind %d", (int)n->kind);
}

/* {{ e }}: autoescaping is an escape node the checker put around e. */
static void ip_print(ip_frame *f, tpl_ctx *ctx, const tpl_node *e) {
  const tpl_node *inner =
      e->kind == TPL_N_ESCAPE && (e->flags & TPL_F_AUTO) ? e->a : e;
  /* {{ parent() }} prints straight into the output, as Twig compiles it. */
  if (inner->kind == TPL_N_PARENT && f->def) {
    tpl_display_parent_block(f->rt, f->def, ctx, f->blocks, &inner->loc);
    return;
  }
  if (e->kind == TPL_N_ESCAPE && (e->flags & TPL_F_AUTO))
    tpl_out_escaped(f->rt, ip_eval(f, ctx, e->a), (tpl_escape)e->index);
  else
    tpl_out_value(f->rt, ip_eval(f, ctx, e));
}

static void ip_for(ip_frame *f, tpl_ctx *ctx, const tpl_node *n) {
  tpl_rt *rt = f->rt;
  tpl_iter it;
  tpl_value seq = ip_eval(f, ctx, n->a);
  tpl_for_begin(rt, &it, ctx, seq, n->name2.len ? &n->name2 : NULL, &n->name,
                n->b != NULL);
  while (tpl_for_next(rt, &it)) {
    if (n->b && !tpl_truthy(ip_eval(f, it.scope, n->b)))
      continue;
    tpl_for_accept(rt, &it);
    if (n->c)
      ip_exec(f, it.scope, n->c);
  }
  if (n->d && tpl_for_empty(&it))
    ip_exec(f, it.scope, n->d);
}

static void ip_exec(ip_frame *f, tpl_ctx *ctx, const tpl_node *n) {
  tpl_rt *rt = f->rt;
  if (n->kind != TPL_N_BODY && n->kind != TPL_N_TEXT)
    rt->loc = &n->loc;
  switch ((tpl_node_kind)n->kind) {
  case TPL_N_BODY:
    for (size_t i = 0; i < n->nkids; i++)
      ip_exec(f, ctx, n->kids[i]);
    return;
  case TPL_N_TEXT:
    if (n->value.type == TPL_STR)
      tpl_out(rt, n->value.u.s, n->value.len);
    return;
  case TPL_N_PRINT:
    ip_print(f, ctx, n->a);
    return;
  case TPL_N_IF:
    for (size_t i = 0; i + 1 < n->nkids; i += 2)
      if (tpl_truthy(ip_eval(f, ctx, n->kids[i]))) {
        if (n->kids[i + 1])
          ip_exec(f, ctx, n->kids[i + 1]);
        return;
      }
    if (n->c)
      ip_exec(f, ctx, n->c);
    return;
  case TPL_N_FOR:
    ip_for(f, ctx, n);
    return;
  case TPL_N_SET: {
    /* `set a, b = b, a`: every value first, then the assignments. */
    size_t cnt = n->n * 2 <= n->nkids ? n->n : n->nkids / 2;
    tpl_value stack[IP_STACK_ARGS];
    tpl_value *vals = ip_argv(f, cnt, stack);
    for (size_t i = 0; i < cnt; i++)
      vals[i] = ip_eval(f, ctx, n->kids[cnt + i]);
    for (size_t i = 0; i < cnt; i++)
      tpl_ctx_set(rt, ctx, &n->kids[i]->name, vals[i]);
    return;
  }
  case TPL_N_SET_CAPTURE: {
    size_t mark = tpl_capture_begin(rt);
    if (n->a)
      ip_exec(f, ctx, n->a);
    tpl_ctx_set(rt, ctx, &n->name, tpl_capture_end(rt, mark));
    return;
  }
  case TPL_N_BLOCK_REF:
    tpl_display_block(rt, ctx, f->blocks, &n->name, &n->loc);
    return;
  case TPL_N_INCLUDE: {
    tpl_value name = ip_eval(f, ctx, n->a);
    tpl_value with = n->b ? ip_eval(f, ctx, n->b) : tpl_null();
    tpl_include(rt, ctx, name, with, n->flags & TPL_F_ONLY,
                n->flags & TPL_F_IGNORE_MISSING, &n->loc);
    return;
  }
  case TPL_N_EMBED: {
    tpl_value with = n->b ? ip_eval(f, ctx, n->b) : tpl_null();
    tpl_embed(rt, f->self, (size_t)n->index, ctx, with, n->flags & TPL_F_ONLY,
              n->flags & TPL_F_IGNORE_MISSING, &n->loc);
    return;
  }
  case TPL_N_IMPORT:
    tpl_import(rt, f->self, n->index, n->a ? ip_eval(f, ctx, n->a) : tpl_null(),
               &n->loc);
    return;
  case TPL_N_APPLY: {
    size_t mark = tpl_capture_begin(rt);
    if (n->b)
      ip_exec(f, ctx, n->b);
    tpl_value saved = f->captured;
    f->captured = tpl_capture_end(rt, mark);
    ip_print(f, ctx, n->a);
    f->captured = saved;
    return;
  }
  case TPL_N_AUTOESCAPE:
    if (n->a)
      ip_exec(f, ctx, n->a);
    return;
  case TPL_N_WITH: {
    tpl_ctx *scope =
        tpl_ctx_new(rt, (n->flags & TPL_F_ONLY) ? rt->globals : ctx, false);
    if (n->a)
      tpl_ctx_merge(rt, scope, ip_eval(f, ctx, n->a), &n->a->loc);
    if (n->b)
      ip_exec(f, scope, n->b);
    return;
  }
  case TPL_N_DO:
    ip_eval(f, ctx, n->a);
    return;
  case TPL_N_EXTENDS:
    return; /* the body's caller displays the parent */
  default:
    /* An expression where a statement should be (never after the
     * checker): evaluated for what it may fail on. */
    if (n->kind >= TPL_N_CONST)
      ip_eval(f, ctx, n);
    return;
  }
}

/* ---- trampolines ---------------------------------------------------- */

static void ip_body(tpl_rt *rt, const tpl_template *self, tpl_ctx *ctx,
                    const tpl_blocks *blocks) {
  const tpl_ast_template *ast = self->ast;
  ip_frame f = {rt, self, blocks, NULL, tpl_null()};
  if (ast->body)
    ip_exec(&f, ctx, ast->body);
  if (ast->parent) {
    const tpl_node *p =
        ast->parent->kind == TPL_N_EXTENDS ? ast->parent->a : ast->parent;
    rt->loc = &p->loc;
    tpl_display_parent(rt, self, ctx, blocks, ip_eval(&f, ctx, p), &p->loc);
  }
}

/* A computed parent's name, for a macro looked up in the parents: the
 * extends expression in the caller's ctx, with the template's own blocks
 * as a macro has them. */
static tpl_value ip_parent_of(tpl_rt *rt, const tpl_template *self,
                              tpl_ctx *ctx) {
  const tpl_ast_template *ast = self->ast;
  ip_frame f = {rt, self, tpl_blocks_of(rt, self), NULL, tpl_null()};
  return ip_eval(&f, ctx,
                 ast->parent->kind == TPL_N_EXTENDS ? ast->parent->a
                                                    : ast->parent);
}

static void ip_block(tpl_rt *rt, const tpl_block_def *def, tpl_ctx *ctx,
                     const tpl_blocks *blocks) {
  const tpl_ast_block *b = def->node;
  ip_frame f = {rt, def->owner, blocks, def, tpl_null()};
  if (b->body)
    ip_exec(&f, ctx, b->body);
}

static void ip_macro(tpl_rt *rt, const tpl_macro_def *def, tpl_ctx *ctx) {
  const tpl_ast_macro *m = def->node;
  ip_frame f = {rt, def->owner, tpl_blocks_of(rt, def->owner), NULL,
                tpl_null()};
  for (size_t i = 0; i < m->nparams; i++)
    if (!tpl_ctx_has_own(ctx, &m->params[i]))
      tpl_ctx_set_own(rt, ctx, &m->params[i],
                      m->defaults && m->defaults[i]
                          ? ip_eval(&f, ctx, m->defaults[i])
                          : tpl_null());
  if (m->body)
    ip_exec(&f, ctx, m->body);
}

/* ---- building ------------------------------------------------------- */

static void ip_hash(tpl_name *n) {
  if (n->s)
    n->hash = tpl_hash_bytes(n->s, n->len);
}

/* Makes every name's hash right, and gives `a.b` its attribute name. */
static void ip_prep(tpl_node *n) {
  if (!n)
    return;
  ip_hash(&n->name);
  ip_hash(&n->name2);
  for (size_t i = 0; i < n->nnames; i++)
    ip_hash(&n->names[i]);
  if (n->kind == TPL_N_GETATTR && n->index == TPL_ATTR_ANY && !n->name.s &&
      n->b && n->b->kind == TPL_N_CONST && n->b->value.type == TPL_STR) {
    n->name.s = n->b->value.u.s;
    n->name.len = n->b->value.len;
    ip_hash(&n->name);
  }
  ip_prep(n->a);
  ip_prep(n->b);
  ip_prep(n->c);
  ip_prep(n->d);
  for (size_t i = 0; i < n->nkids; i++)
    ip_prep(n->kids[i]);
}

const tpl_template *tpl_interp_build(oc_arena *arena, tpl_ast_template *ast) {
  ip_prep(ast->body);
  ip_prep(ast->parent);
  tpl_template *t = oc_arena_calloc(arena, 1, sizeof *t);
  t->name = ast->name;
  t->autoescape = ast->autoescape;
  t->body = ip_body;
  t->ast = ast;
  t->source = ast->source;
  t->source_len = ast->source_len;
  if (ast->parent && ast->parent->kind == TPL_N_CONST &&
      ast->parent->value.type == TPL_STR)
    t->parent_name = oc_arena_strndup(arena, ast->parent->value.u.s,
                                      ast->parent->value.len);
  else if (ast->parent)
    t->parent_of = ip_parent_of;

  tpl_block_def *blocks = oc_arena_calloc(arena, ast->nblocks + 1, sizeof *blocks);
  for (size_t i = 0; i < ast->nblocks; i++) {
    tpl_ast_block *b = &ast->blocks[i];
    ip_hash(&b->name);
    ip_prep(b->body);
    blocks[i] =
        (tpl_block_def){.name = b->name, .fn = ip_block, .owner = t, .node = b};
  }
  t->nblocks = ast->nblocks;
  t->blocks = blocks;

  tpl_macro_def *macros = oc_arena_calloc(arena, ast->nmacros + 1, sizeof *macros);
  for (size_t i = 0; i < ast->nmacros; i++) {
    tpl_ast_macro *m = &ast->macros[i];
    ip_hash(&m->name);
    for (size_t p = 0; p < m->nparams; p++) {
      ip_hash(&m->params[p]);
      if (m->defaults)
        ip_prep(m->defaults[p]);
    }
    ip_prep(m->body);
    macros[i] = (tpl_macro_def){.name = m->name,
                                .nparams = m->nparams,
                                .params = m->params,
                                .fn = ip_macro,
                                .owner = t,
                                .node = m};
  }
  t->nmacros = ast->nmacros;
  t->macros = macros;

  for (size_t u = 0; u < ast->nuses; u++)
    for (size_t r = 0; r < ast->uses[u].nrenames; r++) {
      tpl_use_rename *rn = (tpl_use_rename *)&ast->uses[u].renames[r];
      ip_hash(&rn->from);
      ip_hash(&rn->to);
    }
  t->nuses = ast->nuses;
  t->uses = ast->uses;

  if (ast->nembeds) {
    const tpl_template **embeds =
        oc_arena_calloc(arena, ast->nembeds, sizeof *embeds);
    for (size_t i = 0; i < ast->nembeds; i++)
      embeds[i] = tpl_interp_build(arena, ast->embeds[i]);
    t->nembeds = ast->nembeds;
    t->embeds = embeds;
  }
  return t;
}
