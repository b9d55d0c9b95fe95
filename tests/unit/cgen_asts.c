/* Hand-built template ASTs shaped as the checker leaves them (prints wrapped
 * in autoescape nodes, filters resolved to callables), covering every node
 * kind the C back end handles and the string literals it must escape. */
#include "cgen_asts.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct bld {
  oc_arena *a;
  const char *file;
  uint32_t line, col;
} bld;

static tpl_name nm(bld *b, const char *s) {
  size_t n = strlen(s);
  tpl_name r = {oc_arena_strndup(b->a, s, n), (uint32_t)n,
                tpl_hash_bytes(s, n)};
  return r;
}

static tpl_node *nd(bld *b, int kind) {
  tpl_node *n = oc_arena_calloc(b->a, 1, sizeof *n);
  n->kind = (uint8_t)kind;
  n->line = b->line;
  n->col = ++b->col;
  n->loc = (tpl_loc){b->file, n->line, n->col};
  return n;
}

static void kids(bld *b, tpl_node *n, size_t k, tpl_node **v) {
  n->nkids = k;
  n->kids = oc_arena_calloc(b->a, k ? k : 1, sizeof *n->kids);
  for (size_t i = 0; i < k; i++)
    n->kids[i] = v[i];
}

static tpl_node *body(bld *b, ...) {
  tpl_node *v[64];
  size_t k = 0;
  va_list ap;
  va_start(ap, b);
  tpl_node *x;
  while ((x = va_arg(ap, tpl_node *)) && k < 64)
    v[k++] = x;
  va_end(ap);
  tpl_node *n = nd(b, TPL_N_BODY);
  kids(b, n, k, v);
  b->line++;
  return n;
}

static tpl_node *text_n(bld *b, const char *s, size_t len) {
  tpl_node *n = nd(b, TPL_N_TEXT);
  n->value = tpl_str(oc_arena_strndup(b->a, s, len), len);
  return n;
}
static tpl_node *text(bld *b, const char *s) { return text_n(b, s, strlen(s)); }

static tpl_node *cstr(bld *b, const char *s) {
  tpl_node *n = nd(b, TPL_N_CONST);
  n->value = tpl_str(oc_arena_strndup(b->a, s, strlen(s)), strlen(s));
  return n;
}
static tpl_node *cint(bld *b, int64_t i) {
  tpl_node *n = nd(b, TPL_N_CONST);
  n->value = tpl_int(i);
  return n;
}
static tpl_node *cval(bld *b, tpl_value v) {
  tpl_node *n = nd(b, TPL_N_CONST);
  n->value = v;
  return n;
}

static tpl_node *var(bld *b, const char *s) {
  tpl_node *n = nd(b, TPL_N_NAME);
  n->name = nm(b, s);
  return n;
}

static tpl_node *attr(bld *b, tpl_node *obj, const char *key) {
  tpl_node *n = nd(b, TPL_N_GETATTR);
  n->index = TPL_ATTR_ANY;
  n->a = obj;
  n->b = cstr(b, key);
  return n;
}

static tpl_node *item(bld *b, tpl_node *obj, tpl_node *key) {
  tpl_node *n = nd(b, TPL_N_GETATTR);
  n->index = TPL_ATTR_ARRAY;
  n->a = obj;
  n->b = key;
  return n;
}

static tpl_node *bin(bld *b, int op, tpl_node *x, tpl_node *y) {
  tpl_node *n = nd(b, TPL_N_BINARY);
  n->index = op;
  n->a = x;
  n->b = y;
  return n;
}

static tpl_node *un(bld *b, int op, tpl_node *x) {
  tpl_node *n = nd(b, TPL_N_UNARY);
  n->index = op;
  n->a = x;
  return n;
}

static tpl_node *esc(bld *b, tpl_node *x) {
  tpl_node *n = nd(b, TPL_N_ESCAPE);
  n->index = TPL_ESC_HTML;
  n->flags = TPL_F_AUTO;
  n->a = x;
  return n;
}

/* {{ x }} with html autoescaping. */
static tpl_node *print(bld *b, tpl_node *x) {
  tpl_node *n = nd(b, TPL_N_PRINT);
  n->a = esc(b, x);
  return n;
}
static tpl_node *print_raw(bld *b, tpl_node *x) {
  tpl_node *n = nd(b, TPL_N_PRINT);
  n->a = x;
  return n;
}

static tpl_node *call(bld *b, int kind, const char *name, tpl_node *input,
                      size_t nargs, ...) {
  tpl_node *n = nd(b, kind);
  n->name = nm(b, name);
  n->callable = kind == TPL_N_FILTER     ? tpl_find_filter(name, strlen(name))
                : kind == TPL_N_FUNCTION ? tpl_find_function(name, strlen(name))
                                         : tpl_find_test(name, strlen(name));
  n->a = input;
  tpl_node *v[8];
  va_list ap;
  va_start(ap, nargs);
  for (size_t i = 0; i < nargs && i < 8; i++)
    v[i] = va_arg(ap, tpl_node *);
  va_end(ap);
  kids(b, n, nargs, v);
  return n;
}

static tpl_node *list(bld *b, size_t k, ...) {
  tpl_node *v[16];
  va_list ap;
  va_start(ap, k);
  for (size_t i = 0; i < k && i < 16; i++)
    v[i] = va_arg(ap, tpl_node *);
  va_end(ap);
  tpl_node *n = nd(b, TPL_N_ARRAY);
  kids(b, n, k, v);
  return n;
}

static tpl_node *hash(bld *b, size_t k, ...) {
  tpl_node *v[16];
  va_list ap;
  va_start(ap, k);
  for (size_t i = 0; i < 2 * k && i < 16; i++)
    v[i] = va_arg(ap, tpl_node *);
  va_end(ap);
  tpl_node *n = nd(b, TPL_N_HASH);
  kids(b, n, 2 * k, v);
  return n;
}

static tpl_node *arrow(bld *b, const char *param, tpl_node *e) {
  tpl_node *n = nd(b, TPL_N_ARROW);
  n->nnames = 1;
  n->names = oc_arena_calloc(b->a, 1, sizeof *n->names);
  n->names[0] = nm(b, param);
  n->a = e;
  return n;
}

static tpl_node *set1(bld *b, const char *name, tpl_node *e) {
  tpl_node *n = nd(b, TPL_N_SET);
  n->n = 1;
  tpl_node *v[2] = {var(b, name), e};
  kids(b, n, 2, v);
  return n;
}

static tpl_node *for_n(bld *b, const char *key, const char *val, tpl_node *seq,
                       tpl_node *cond, tpl_node *bod, tpl_node *els) {
  tpl_node *n = nd(b, TPL_N_FOR);
  n->name = nm(b, val);
  if (key)
    n->name2 = nm(b, key);
  n->a = seq;
  n->b = cond;
  n->c = bod;
  n->d = els;
  return n;
}

static tpl_node *if_n(bld *b, tpl_node *cond, tpl_node *then, tpl_node *cond2,
                      tpl_node *then2, tpl_node *els) {
  tpl_node *n = nd(b, TPL_N_IF);
  tpl_node *v[4] = {cond, then, cond2, then2};
  kids(b, n, cond2 ? 4 : 2, v);
  n->c = els;
  return n;
}

static tpl_node *cond_n(bld *b, tpl_node *c, tpl_node *x, tpl_node *y) {
  tpl_node *n = nd(b, TPL_N_COND);
  n->a = c;
  n->b = x;
  n->c = y;
  return n;
}

static tpl_node *two(bld *b, int kind, tpl_node *x, tpl_node *y) {
  tpl_node *n = nd(b, kind);
  n->a = x;
  n->b = y;
  return n;
}

static tpl_ast_template *tpl_new(bld *b, const char *name, tpl_node *bod) {
  tpl_ast_template *t = oc_arena_calloc(b->a, 1, sizeof *t);
  t->name = name;
  t->source = "{# hand-built #}";
  t->source_len = strlen(t->source);
  t->autoescape = tpl_escape_for_name(name);
  t->body = bod;
  return t;
}

static void add_block(bld *b, tpl_ast_template *t, const char *name,
                      tpl_node *bod) {
  tpl_ast_block *bl = oc_arena_calloc(b->a, t->nblocks + 1, sizeof *bl);
  if (t->nblocks)
    memcpy(bl, t->blocks, t->nblocks * sizeof *bl);
  bl[t->nblocks].name = nm(b, name);
  bl[t->nblocks].body = bod;
  bl[t->nblocks].loc = (tpl_loc){b->file, b->line, 1};
  t->blocks = bl;
  t->nblocks++;
}

static tpl_node *block_ref(bld *b, const char *name) {
  tpl_node *n = nd(b, TPL_N_BLOCK_REF);
  n->name = nm(b, name);
  return n;
}

static tpl_ast_template *text_template(bld *b) {
  b->file = "text.twig";
  b->line = 1;
  /* Bytes a C literal must carry exactly: NUL, trigraph starts, quotes,
   * backslashes, invalid and valid UTF-8, a line separator, and a text
   * longer than one literal chunk. */
  static const char tricky[] = "a\0b?\?=c?\?/d\"e\\f\xff\xc3\xa9\xe2\x80\xa8"
                               "g\x7f\x01h\r\n\t?"
                               "?(?"
                               "?)?\?'";
  char big[9001];
  for (size_t i = 0; i < sizeof big - 1; i++)
    big[i] = i % 97 == 96 ? '\n' : (char)('a' + i % 26);
  big[sizeof big - 1] = 0;
  return tpl_new(b, "text.twig",
                 body(b, text_n(b, tricky, sizeof tricky - 1),
                      print_raw(b, cint(b, 42)),
                      print_raw(b, cval(b, tpl_bool(true))),
                      print_raw(b, cval(b, tpl_null())), text(b, "|"),
                      print(b, cval(b, tpl_safe_str("<i>", 3))), text(b, "|"),
                      print(b, cval(b, tpl_float(-0.0))), text(b, "|"),
                      print(b, cval(b, tpl_float(0.1))), text(b, "|"),
                      text(b, big), NULL));
}

static tpl_ast_template *expr_template(bld *b) {
  b->file = "expr.twig";
  b->line = 1;
  tpl_node *captured = nd(b, TPL_N_CAPTURED);
  tpl_node *apply = nd(b, TPL_N_APPLY);
  apply->a = esc(b, call(b, TPL_N_FILTER, "upper", captured, 0));
  apply->b = body(b, text(b, "hi "), print(b, var(b, "s")), NULL);
  tpl_node *capture = nd(b, TPL_N_SET_CAPTURE);
  capture->name = nm(b, "c");
  capture->a = body(b, text(b, "cap"), print(b, var(b, "a")), NULL);
  tpl_node *with = nd(b, TPL_N_WITH);
  with->flags = TPL_F_ONLY;
  with->a = hash(b, 1, cstr(b, "z"), cint(b, 1));
  with->b = body(b, print(b, var(b, "z")), print(b, var(b, "a")), NULL);
  tpl_node *do_n = nd(b, TPL_N_DO);
  do_n->a = bin(b, TPL_OP_ADD, cint(b, 1), cint(b, 1));
  tpl_node *defined = nd(b, TPL_N_DEFINED);
  defined->a = attr(b, var(b, "m"), "k");
  tpl_node *undef = nd(b, TPL_N_DEFINED);
  undef->a = attr(b, var(b, "nope"), "k");
  undef->flags = TPL_F_NEGATE;
  tpl_node *dflt =
      two(b, TPL_N_DEFAULT, attr(b, var(b, "m"), "zz"), cstr(b, "d"));
  tpl_node *dflt2 = two(b, TPL_N_DEFAULT, var(b, "s"), NULL);
  tpl_node *slice = nd(b, TPL_N_SLICE);
  slice->a = cstr(b, "abcdef");
  slice->b = cint(b, 1);
  slice->c = cint(b, 3);
  tpl_node *slice2 = nd(b, TPL_N_SLICE);
  slice2->a = var(b, "list");
  slice2->c = cint(b, 2);
  tpl_node *elvis = cond_n(b, var(b, "missing"), NULL, cstr(b, "elvis"));
  tpl_node *loop_if = for_n(
      b, NULL, "x", var(b, "list"), bin(b, TPL_OP_GT, var(b, "x"), cint(b, 1)),
      body(b, print(b, attr(b, var(b, "loop"), "index")), text(b, ":"),
           print(b, var(b, "x")), text(b, ";"), NULL),
      NULL);
  /* A constant list holding a map and a list (no front end folds these
   * today; the generator builds them in the render's arena). */
  tpl_list *cl = tpl_list_new(b->a, 3);
  cl->items[0] = tpl_int(1);
  tpl_map *cm = tpl_map_new(b->a, 2);
  tpl_map_set_str(b->a, cm, "k", tpl_str("v", 1));
  tpl_map_set(b->a, cm, tpl_int(7), tpl_float(2.5));
  cl->items[1] = tpl_map_value(cm);
  tpl_list *inner = tpl_list_new(b->a, 1);
  inner->items[0] = tpl_bool(true);
  cl->items[2] = tpl_list_value(inner);
  tpl_node *const_list = cval(b, tpl_list_value(cl));
  tpl_node *set_two = nd(b, TPL_N_SET);
  set_two->n = 2;
  {
    tpl_node *v[4] = {var(b, "p"), var(b, "q"), var(b, "a"), cstr(b, "Q")};
    kids(b, set_two, 4, v);
  }
  return tpl_new(
      b, "expr.twig",
      body(
          b, print(b, bin(b, TPL_OP_ADD, var(b, "a"), cint(b, 2))),
          text(b, "|"), print(b, var(b, "s")), text(b, "|"),
          print(b, bin(b, TPL_OP_CONCAT, var(b, "s"), cstr(b, "x"))),
          text(b, "|"),
          if_n(b,
               bin(b, TPL_OP_AND, bin(b, TPL_OP_GT, var(b, "a"), cint(b, 2)),
                   un(b, TPL_OP_NOT,
                      bin(b, TPL_OP_EQ, var(b, "a"), cint(b, 5)))),
               body(b, text(b, "yes"), NULL),
               bin(b, TPL_OP_OR, var(b, "nope"), var(b, "a")),
               body(b, text(b, "elif"), NULL), body(b, text(b, "no"), NULL)),
          text(b, "|"),
          for_n(b, "k", "v", var(b, "m"), NULL,
                body(b, print(b, var(b, "k")), text(b, "="),
                     print(b, var(b, "v")), text(b, ","), NULL),
                body(b, text(b, "empty"), NULL)),
          for_n(b, NULL, "v", var(b, "none"), NULL, body(b, NULL),
                body(b, text(b, "empty:"),
                     print(b, attr(b, var(b, "loop"), "index")), NULL)),
          text(b, "|"), loop_if, text(b, "|"),
          set1(b, "y", list(b, 2, cint(b, 1), cint(b, 2))),
          print(b, call(b, TPL_N_FILTER, "join", var(b, "y"), 1, cstr(b, ","))),
          text(b, "|"),
          print(b, two(b, TPL_N_NULLCOALESCE, var(b, "undefined"),
                       cstr(b, "dflt"))),
          print(b, two(b, TPL_N_NULLCOALESCE, attr(b, var(b, "m"), "k"),
                       cstr(b, "no"))),
          print(b, dflt), print(b, dflt2), text(b, "|"),
          print(b, cond_n(b, defined, cstr(b, "D"), cstr(b, "U"))),
          print(b, cond_n(b, undef, cstr(b, "N"), NULL)), print(b, elvis),
          text(b, "|"),
          print(b,
                call(b, TPL_N_FILTER, "join",
                     call(b, TPL_N_FILTER, "map", var(b, "list"), 1,
                          arrow(b, "x",
                                bin(b, TPL_OP_MUL, var(b, "x"), var(b, "a")))),
                     1, cstr(b, "-"))),
          text(b, "|"), print(b, slice), print(b, slice2), text(b, "|"),
          print(b, un(b, TPL_OP_NEG, var(b, "a"))), text(b, "|"),
          print(b, call(b, TPL_N_FILTER, "join",
                        call(b, TPL_N_FILTER, "keys",
                             hash(b, 2, cstr(b, "a"), cint(b, 1), cstr(b, "b"),
                                  cint(b, 2)),
                             0),
                        0)),
          text(b, "|"),
          print(b, call(b, TPL_N_FILTER, "join",
                        bin(b, TPL_OP_RANGE, cint(b, 1), cint(b, 3)), 0)),
          text(b, "|"), capture, print(b, var(b, "c")), text(b, "|"), apply,
          text(b, "|"), with, text(b, "|"), do_n,
          print(b, item(b, var(b, "m"), cstr(b, "k"))),
          print(b, bin(b, TPL_OP_MOD, cint(b, 7), cint(b, 3))),
          print(b, bin(b, TPL_OP_CMP, cint(b, 7), cint(b, 3))),
          print(b, bin(b, TPL_OP_IN, cint(b, 2), var(b, "list"))),
          print(b, bin(b, TPL_OP_LE, cint(b, 2), cint(b, 2))), text(b, "|"),
          set_two, print(b, var(b, "p")), print(b, var(b, "q")),
          print(b, call(b, TPL_N_FUNCTION, "range", NULL, 2, cint(b, 1),
                        cint(b, 1))),
          text(b, "|"),
          print(b, call(b, TPL_N_FILTER, "json_encode", const_list, 0)), NULL));
}

/* layout.twig, child.twig (extends, parent(), import, macros), macros.twig,
 * emb.twig (embed) and inc.twig (include). */
static size_t inherit_templates(bld *b, tpl_ast_template **out) {
  b->file = "layout.twig";
  b->line = 1;
  tpl_ast_template *layout =
      tpl_new(b, "layout.twig",
              body(b, text(b, "["), block_ref(b, "title"), text(b, "|"),
                   block_ref(b, "body"), text(b, "]"), NULL));
  add_block(b, layout, "title", body(b, text(b, "T"), NULL));
  add_block(b, layout, "body", body(b, NULL));

  b->file = "macros.twig";
  tpl_ast_template *macros = tpl_new(b, "macros.twig", body(b, NULL));
  tpl_ast_macro *m = oc_arena_calloc(b->a, 1, sizeof *m);
  m->name = nm(b, "hello");
  m->nparams = 2;
  m->params = oc_arena_calloc(b->a, 2, sizeof *m->params);
  m->params[0] = nm(b, "name");
  m->params[1] = nm(b, "greeting");
  m->defaults = oc_arena_calloc(b->a, 2, sizeof *m->defaults);
  m->defaults[1] = cstr(b, "Hi");
  m->body = body(b, print(b, var(b, "greeting")), text(b, " "),
                 print(b, var(b, "name")), text(b, "<>"), NULL);
  m->loc = (tpl_loc){b->file, 1, 1};
  macros->macros = m;
  macros->nmacros = 1;

  b->file = "child.twig";
  tpl_node *import = nd(b, TPL_N_IMPORT);
  import->a = cstr(b, "macros.twig");
  import->index = 0;
  tpl_node *callm = nd(b, TPL_N_MACRO_CALL);
  callm->name = nm(b, "hello");
  callm->index = 0;
  callm->n = 1;
  {
    tpl_node *v[2] = {cstr(b, "x"), cstr(b, "Yo")};
    kids(b, callm, 2, v);
  }
  callm->nnames = 1;
  callm->names = oc_arena_calloc(b->a, 1, sizeof *callm->names);
  callm->names[0] = nm(b, "greeting");
  tpl_node *mdef = nd(b, TPL_N_DEFINED);
  mdef->a = nd(b, TPL_N_MACRO_CALL);
  mdef->a->name = nm(b, "hello");
  mdef->a->index = 0;
  tpl_node *bfunc = nd(b, TPL_N_BLOCK_FUNC);
  bfunc->a = cstr(b, "title");
  tpl_node *ext = nd(b, TPL_N_EXTENDS);
  ext->a = cstr(b, "layout.twig");
  tpl_ast_template *child = tpl_new(b, "child.twig", body(b, import, NULL));
  child->parent = ext;
  child->nimports = 1;
  add_block(b, child, "title",
            body(b, text(b, "C("), print(b, nd(b, TPL_N_PARENT)), text(b, ")"),
                 NULL));
  add_block(b, child, "body",
            body(b, print(b, callm), print(b, mdef), print(b, bfunc), NULL));

  b->file = "emb.twig";
  tpl_ast_template *embedded = tpl_new(b, "emb.twig", body(b, NULL));
  tpl_node *ext2 = nd(b, TPL_N_EXTENDS);
  ext2->a = cstr(b, "layout.twig");
  embedded->parent = ext2;
  add_block(b, embedded, "body",
            body(b, text(b, "E"), print(b, var(b, "w")), NULL));
  tpl_node *embed = nd(b, TPL_N_EMBED);
  embed->a = cstr(b, "layout.twig");
  embed->b = hash(b, 1, cstr(b, "w"), cint(b, 9));
  embed->index = 0;
  tpl_ast_template *emb =
      tpl_new(b, "emb.twig", body(b, text(b, "<"), embed, text(b, ">"), NULL));
  emb->nembeds = 1;
  emb->embeds = oc_arena_calloc(b->a, 1, sizeof *emb->embeds);
  emb->embeds[0] = embedded;

  b->file = "inc.twig";
  tpl_node *inc = nd(b, TPL_N_INCLUDE);
  inc->a = cstr(b, "macros.twig");
  tpl_node *inc2 = nd(b, TPL_N_INCLUDE);
  inc2->a = cstr(b, "missing.twig");
  inc2->flags = TPL_F_IGNORE_MISSING;
  tpl_node *inc3 = nd(b, TPL_N_INCLUDE);
  inc3->a = cstr(b, "emb.twig");
  inc3->b = hash(b, 1, cstr(b, "w"), cint(b, 5));
  inc3->flags = TPL_F_ONLY;
  tpl_ast_template *inct =
      tpl_new(b, "inc.twig",
              body(b, text(b, "("), inc, inc2, inc3, text(b, ")"), NULL));

  out[0] = layout;
  out[1] = macros;
  out[2] = child;
  out[3] = emb;
  out[4] = inct;
  return 5;
}

size_t cgen_fixture_asts(oc_arena *a, tpl_ast_template **out, size_t max) {
  if (max < 7)
    return 0;
  bld b = {a, "x.twig", 1, 0};
  size_t n = 0;
  out[n++] = text_template(&b);
  out[n++] = expr_template(&b);
  n += inherit_templates(&b, out + n);
  return n;
}

/* ---- sources through the front end ----------------------------------- */

const cgen_source cgen_sources[] = {
    {"set_in_loop.twig",
     "{% set s = 0 %}{% for x in list %}{{ s }}-{% set s = s + x %}{{ s }}"
     ";{% endfor %}{{ s }}"},
    {"set_in_branch.twig",
     "{{ a }}{% if a %}{% set a = 5 %}{% endif %}{{ a }}{% if not a %}x{% "
     "else %}{% set a = a + 1 %}{% endif %}{{ a }}"},
    {"first_read_in_branch.twig",
     "{% if list %}{{ b }}{% endif %}{{ b }}{{ z ? b : 'n' }}{{ b }}"},
    {"nested_loops.twig",
     "{% for r in rows %}{{ loop.index }}{{ r.t }}{% for c in r.c %}[{{ lo"
     "op.index }}{{ loop.parent.loop.index ?\? '' }}{{ r.t }}{{ c }}]{% el"
     "se %}E{{ loop.index ?\? '-' }}{% endfor %}{{ loop.index }}{{ loop.fi"
     "rst }}{{ loop.last }};{% endfor %}"},
    {"loop_var_restore.twig",
     "{% set x = 'out' %}{% for x in list %}{{ x }}{% endfor %}{{ x }}{% f"
     "or y in list %}{% set x = y %}{% endfor %}{{ x }}{{ y ?\? 'noy' }}"},
    {"capture_then_read.twig",
     "{{ a }}{% set a %}cap{{ a }}{% endset %}{{ a }}{{ a|length }}"},
    {"with_scopes.twig",
     "{% with {a: 9} %}{{ a }}{% set a = 10 %}{{ a }}{% endwith %}{{ a }}{"
     "% with {q: 1} only %}{{ q }}{{ a ?\? 'none' }}{% endwith %}"},
    {"attr_twice.twig",
     "{{ m.k }}{{ m.k }}{% set m = {k: 'w'} %}{{ m.k }}{{ m.n.d ?\? 'nd' }"
     "}{{ m.n is defined ? 'y' : 'n' }}"},
    {"arrow_params.twig",
     "{{ list|map(x => x * a)|join(',') }}|{{ list|map((x, k) => k ~ x)|jo"
     "in }}|{{ list|filter(x => x > a)|join }}|{{ list|map(x => x ~ b)|joi"
     "n }}|{{ list|map(x => [x]|length)|join }}|{{ list|reduce((c, x) => c"
     " + x, 10) }}|{{ list|map(_context => 1)|join }}|{{ list|sort((p, q) "
     "=> q <=> p)|join }}"},
    {"arrow_shadow.twig",
     "{% set x = 'outer' %}{{ list|map(x => x)|join }}{{ x }}{{ list|map(y"
     " => x)|join }}"},
    {"context_var.twig",
     "{% set u = 1 %}{{ _context|keys|join(',') }}{% for i in [1] %}{{ _co"
     "ntext|keys|join(',') }}{% endfor %}"},
    {"short_circuit.twig",
     "{{ (z and z.q) ? 'T' : 'F' }}{{ z.q ?\? 'dq' }}{{ (a or z.q) ? 'T' :"
     " 'F' }}{{ z.q|default('dd') }}{{ b }}"},
    {"cond_reads.twig",
     "{{ a ? b : m.k }}{{ b }}{{ m.k }}{{ a ?: b }}{{ z ?: b }}"},
    {"loop_else_reads.twig",
     "{% for q in [] %}{{ q }}{% else %}{{ b }}{{ loop is defined ? 'L' : "
     "'nl' }}{% endfor %}{{ b }}"},
    {"macro_defaults.twig",
     "{% macro f(p, q = 'dq') %}{{ p }}{{ q }}{{ p }}{% set p = 'x' %}{{ p"
     " }}{% endmacro %}{% import _self as s %}{{ s.f(1) }}{{ s.f(1, 2) }}{"
     "{ s.f(q = 3) }}"},
    {"include_no_leak.twig",
     "{% set v = 1 %}{% include 'inc.twig' %}{{ v }}{% include 'inc.twig' "
     "with {v: 7} %}{{ v }}"},
    {"inline_if_loop.twig",
     "{% for x in list if x != a %}{{ x }}{{ loop.index }}{% endfor %}"},
    {"set_multi.twig",
     "{% set p, q = a, b %}{{ p }}{{ q }}{% set p, q = q, p %}{{ p }}{{ q "
     "}}"},
    {"apply_reads.twig",
     "{% apply upper %}{{ b }}{% set b = 'y' %}{{ b }}{% endapply %}{{ b }"
     "}"},
    {"strict_like.twig",
     "{{ undefined_var }}{{ undefined_var.x }}{{ m.missing }}{{ m.missing."
     "deeper }}"},
    {"for_with_set_before_use.twig",
     "{% for x in list %}{% if loop.first %}{% set t = x %}{% endif %}{{ t"
     " ?\? 'u' }}{% endfor %}{{ t ?\? 'gone' }}"},
    {"has_ops.twig",
     "{% if list has some x => x > 2 %}S{% endif %}{% if list has every x "
     "=> x > a %}E{% else %}e{% endif %}{{ (list has some v => v == a) ? 1"
     " : 0 }}"},
    {"range_slice.twig",
     "{{ (1..4)|join }}{{ list[1:]|join }}{{ list[:2]|join }}{{ 'abcdef'[2"
     ":2] }}{{ list|slice(1)|join }}"},
    {"tests_ops.twig",
     "{{ a is odd ? 1 : 0 }}{{ a is not even }}{{ 3 is divisible by(3) }}{"
     "{ z is null }}{{ list is iterable }}{{ b is same as('<x>') }}{{ m.k "
     "starts with 'v' }}{{ 'ab' ends with 'b' }}{{ 'abc' matches '/^a/' }}"
     "{{ 2 in list }}{{ 5 not in list }}{{ 1 <=> 2 }}{{ 2 ** 3 }}{{ 7 // 2"
     " }}{{ -a }}{{ +a }}{{ a b-or 2 }}{{ 6 b-and 3 }}{{ 5 b-xor 1 }}"},
    {"deep_if.twig",
     "{% if a == 1 %}{% if b %}{{ b }}{% set b = 'c' %}{% endif %}{{ b }}{"
     "% elseif b %}{{ b }}{% else %}{{ m.k }}{% endif %}{{ b }}"},
    {"inc.twig", "[{{ v }}{% set v = 3 %}{{ v }}]"},
    {"inh_layout.twig",
     "{% set x = 1 %}<{% block a %}A{{ x }}{% endblock %}|{{ x }}|{{ block"
     "('a') }}|{% block b %}B{% endblock %}>"},
    {"inh_child.twig",
     "{% extends 'inh_layout.twig' %}{% block a %}[{{ parent() }}|{{ x }}]"
     "{% set x = 2 %}{{ x }}{% endblock %}{% block b %}{{ block('a') is de"
     "fined ? 'd' : 'u' }}{{ parent()|upper }}{% endblock %}"},
    {"inh_dynamic.twig",
     "{% extends a ? 'inh_layout.twig' : 'nope.twig' %}{% block b %}dyn{{ "
     "x }}{% endblock %}"},
    {"inh_uses.twig",
     "{% use 'inh_layout.twig' with a as c %}{% block b %}U{{ block('c') }"
     "}{% endblock %}{{ block('b') }}{{ block('c') }}"},
    {"embeds.twig",
     "({% embed 'inh_layout.twig' with {x: 5} %}{% block a %}E{{ x }}{{ pa"
     "rent() }}{% endblock %}{% endembed %}){% embed 'inh_layout.twig' onl"
     "y %}{% block b %}{{ b ?\? 'nob' }}{% endblock %}{% endembed %}"},
    {"macros.twig",
     "{% import _self as s %}{% from 'macros_lib.twig' import wrap as w, d"
     "eep %}{% macro m(a, b = 2) %}{{ a }}{{ b }}{{ varargs|join(',') }}{%"
     " endmacro %}{{ s.m(1) }}|{{ s.m(1, 3, 4, 5) }}|{{ s.m(b = 7, a = 6) "
     "}}|{{ w('x') }}|{{ deep(3) }}|{{ s.m is defined ? 'y' : 'n' }}|{{ s."
     "zz is defined ? 'y' : 'n' }}"},
    {"macros_lib.twig",
     "{% macro wrap(t) %}<{{ t }}>{% endmacro %}{% macro deep(n) %}{% impo"
     "rt _self as me %}{{ n }}{% if n > 0 %}{{ me.deep(n - 1) }}{% endif %"
     "}{% endmacro %}"},
    {"includes.twig",
     "{% include ['nope.twig', 'inc.twig'] %}{% include 'nope.twig' ignore"
     " missing %}{% include 'inc.twig' with {v: 2} only %}{{ include('inc."
     "twig', {v: 4}) }}{{ include('nope.twig', ignore_missing = true) }}{{"
     " source('inc.twig') }}"},
    {"escaping.twig",
     "{{ b }}{{ b|raw }}{{ b|e }}{{ b|e('js') }}{% autoescape 'js' %}{{ b "
     "}}{{ 'a\\'b' }}{% endautoescape %}{% autoescape false %}{{ b }}{% en"
     "dautoescape %}{{ b|e|e }}{{ '<lit>' }}{{ '<' ~ 'c>' }}{{ m.k|default"
     "(b) }}{% apply escape %}{{ b }}{% endapply %}{% apply lower|escape('"
     "html') %}<P>{% endapply %}"},
    {"filters_misc.twig",
     "{{ list|first }}{{ list|last }}{{ list|length }}{{ 'a,b'|split(',')|"
     "join('+') }}{{ 'hello world'|title }}{{ '  x '|trim }}{{ 3.14159|rou"
     "nd(2) }}{{ 1234.5|number_format(1, ',', '.') }}{{ '%s-%d'|format('a'"
     ", 3) }}{{ {a: 1}|merge({b: 2})|keys|join }}{{ list|batch(2)|length }"
     "}{{ rows|column('t')|join }}{{ list|reverse|join }}{{ 'abc'|reverse "
     "}}{{ rows|map(r => r.t)|join }}{{ [3, 1, 2]|sort|join }}{{ max(list)"
     " }}{{ min(1, 2) }}{{ range(0, 6, 2)|join }}{{ cycle(['x', 'y'], 3) }"
     "}{{ attribute(m, 'k') }}{{ 'ab'|capitalize }}{{ list|json_encode }}{"
     "{ m|json_encode }}{{ '<b>x</b>'|striptags }}{{ 'a b'|url_encode }}{{"
     " 'x\\ny'|nl2br }}"},
    {"strings.twig",
     "{{ \"i#{a + 1}j\" }}{{ 'tab\\tx' }}{{ 1_000 }}{{ 0.1 + 0.2 }}{{ 1e+20"
     " }}{{ 1/3 }}{{ -0.0 }}{{ 7 % 3 }}{{ '10' == 10 ? 't' : 'f' }}{{ 'abc"
     "' == 0 ? 't' : 'f' }}{{ null ~ 'x' }}{{ true ~ false }}"},
    {"with_only_novars.twig",
     "{% set q = 1 %}{% with only %}{{ q ?\? 'none' }}{% endwith %}{% with"
     " {r: 2} %}{{ q }}{{ r }}{% endwith %}{{ r ?\? 'nor' }}"},
    {"do_and_set_order.twig",
     "{% set a = 1 %}{% set a, b = 2, a %}{{ a }}{{ b }}{% do list|map(x ="
     "> x) %}{% set t %}{% for x in list %}{{ x }}{% endfor %}{% endset %}"
     "{{ t }}{{ t|length }}"},
    {"strict_errors.twig",
     "{{ m.k }}{% if strict_probe is defined %}{% endif %}{{ m.zz ?\? 'ok'"
     " }}{{ m.nope|default('d') }}{{ undefined_thing.x }}"},
    {"random_seeded.twig",
     "{{ random(100) }}{{ random(['a', 'b', 'c']) }}{{ random('xyz') }}{{ "
     "random() > 0 ? 'p' : 'z' }}"},
    /* For test_cgen's budgets shared by renders and printed NUL bytes. */
    {"budget_loops.twig",
     "<{{ a }}>\n{% for i in list %}{% for j in list %}{{ i }}{{ j }}{% "
     "endfor %}{% endfor %}"},
    {"nul_escaped.twig", "ok\n  {{ \"b\\x00c\" }}"},
    {"nul_raw.twig",
     "ok\n{% autoescape false %}{{ 'x' }}{{ \"b\\x00\" ~ a }}{% "
     "endautoescape %}"},
};
const size_t cgen_nsources = sizeof cgen_sources / sizeof *cgen_sources;

typedef struct src_set {
  oc_arena *a;
  tpl_ast_template **asts;
  int *state; /* 0 not parsed, 1 parsing, 2 done, 3 failed */
} src_set;

static const tpl_ast_template *src_parse(src_set *s, size_t i);

static const tpl_ast_template *src_load(void *data, const char *name,
                                        size_t len) {
  src_set *s = data;
  for (size_t i = 0; i < cgen_nsources; i++)
    if (strlen(cgen_sources[i].name) == len &&
        !memcmp(cgen_sources[i].name, name, len))
      return src_parse(s, i);
  return NULL;
}

static const tpl_ast_template *src_parse(src_set *s, size_t i) {
  if (s->state[i] == 0) {
    s->state[i] = 1;
    tpl_parse_opts opts = {src_load, s,
                           tpl_escape_for_name(cgen_sources[i].name)};
    tpl_diag d[4];
    size_t nd = 0;
    s->asts[i] = tpl_parse(s->a, cgen_sources[i].name, cgen_sources[i].text,
                           strlen(cgen_sources[i].text), &opts, d, 4, &nd);
    for (size_t k = 0; k < nd && k < 4; k++)
      tpl_diag_print(stderr, &d[k]);
    s->state[i] = s->asts[i] && !nd ? 2 : 3;
  }
  return s->state[i] == 2 ? s->asts[i] : NULL;
}

size_t cgen_parse_sources(oc_arena *a, tpl_ast_template **out, size_t max) {
  if (max < cgen_nsources)
    return 0;
  src_set s = {a, out, oc_arena_calloc(a, cgen_nsources, sizeof(int))};
  for (size_t i = 0; i < cgen_nsources; i++)
    if (!src_parse(&s, i))
      return 0;
  return cgen_nsources;
}
