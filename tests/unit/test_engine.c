/* Unit tests of the engine (scopes, loops, inheritance, includes, embeds,
 * macros), the interpreter, the loader and the data reader. Templates are
 * written here by hand the way the C generator writes them, so that the
 * engine is tested on its own; the interpreter on ASTs built by hand and,
 * through the loader, on parsed texts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "oc_alloc.h"
#include "tpl_interp.h"

/* Renders and returns the output, or "ERR:file:line:col: message". */
static char *render(tpl_env *env, const char *name, tpl_value data) {
  char *out;
  size_t len;
  tpl_diag d;
  if (tpl_render(env, name, data, &out, &len, &d) == 0) {
    CHECK(strlen(out) == len);
    return out;
  }
  char *e = oc_malloc(1024);
  snprintf(e, 1024, "ERR:%s:%u:%u: %s", d.file, (unsigned)d.line,
           (unsigned)d.col, d.message);
  return e;
}

#define CHECK_RENDER(env, name, data, want)                                    \
  do {                                                                         \
    char *got_ = render(env, name, data);                                      \
    if (strcmp(got_, want) != 0) {                                             \
      fprintf(stderr, "%s:%d: render %s:\n  want [%s]\n  got  [%s]\n",         \
              __FILE__, __LINE__, name, want, got_);                           \
      failed++;                                                                \
    } else {                                                                   \
      passed++;                                                                \
    }                                                                          \
    free(got_);                                                                \
  } while (0)

/* ---- names ---------------------------------------------------------- */

static tpl_name nm(const char *s) {
  tpl_name n = {s, (uint32_t)strlen(s), tpl_hash_bytes(s, strlen(s))};
  return n;
}

static tpl_name N_x, N_y, N_t, N_n, N_k, N_v, N_items, N_loop, N_index,
    N_length, N_last, N_first, N_parent, N_title, N_body, N_a, N_b, N_f,
    N_varargs, N_foo, N_bar, N_user, N_name, N_g, N_revindex;

static void init_names(void) {
  N_x = nm("x");
  N_y = nm("y");
  N_t = nm("t");
  N_n = nm("n");
  N_k = nm("k");
  N_v = nm("v");
  N_items = nm("items");
  N_loop = nm("loop");
  N_index = nm("index");
  N_length = nm("length");
  N_last = nm("last");
  N_first = nm("first");
  N_parent = nm("parent");
  N_title = nm("title");
  N_body = nm("body");
  N_a = nm("a");
  N_b = nm("b");
  N_f = nm("f");
  N_g = nm("g");
  N_varargs = nm("varargs");
  N_foo = nm("foo");
  N_bar = nm("bar");
  N_user = nm("user");
  N_name = nm("name");
  N_revindex = nm("revindex");
}

static tpl_loc L1 = {"t.twig", 1, 1};

#define OUT(rt, lit) tpl_out(rt, lit, sizeof lit - 1)

/* ---- scopes --------------------------------------------------------- */

static void test_scopes(void) {
  tpl_env *env = tpl_env_new();
  tpl_rt rt;
  memset(&rt, 0, sizeof rt);
  rt.env = env;
  rt.arena = oc_arena_new();
  tpl_ctx *top = tpl_ctx_new(&rt, NULL, false);
  tpl_ctx_set(&rt, top, &N_x, tpl_int(1));
  tpl_ctx_set(&rt, top, &N_y, tpl_int(2));
  /* a loop scope: new variables stay inside, existing ones are written */
  tpl_ctx *loop = tpl_ctx_new(&rt, top, true);
  tpl_ctx_set_own(&rt, loop, &N_v, tpl_int(9));
  tpl_ctx_set(&rt, loop, &N_x, tpl_int(10));
  tpl_ctx_set(&rt, loop, &N_n, tpl_int(5));
  tpl_ctx_set(&rt, loop, &N_v, tpl_int(11));
  tpl_value v;
  CHECK(tpl_ctx_get(top, &N_x, &v) && v.u.i == 10);
  CHECK(!tpl_ctx_get(top, &N_n, &v));
  CHECK(tpl_ctx_get(loop, &N_n, &v) && v.u.i == 5);
  CHECK(tpl_ctx_get(loop, &N_v, &v) && v.u.i == 11);
  CHECK(!tpl_ctx_get(top, &N_v, &v));
  /* an opaque scope keeps its writes */
  tpl_ctx *inc = tpl_ctx_new(&rt, top, false);
  tpl_ctx_set(&rt, inc, &N_y, tpl_int(20));
  CHECK(tpl_ctx_get(inc, &N_y, &v) && v.u.i == 20);
  CHECK(tpl_ctx_get(top, &N_y, &v) && v.u.i == 2);
  /* a loop inside an opaque scope writes a variable seen through it into
   * the opaque scope (the include's copy), not into the caller */
  tpl_ctx *loop2 = tpl_ctx_new(&rt, inc, true);
  tpl_ctx_set(&rt, loop2, &N_x, tpl_int(30));
  CHECK(tpl_ctx_get(inc, &N_x, &v) && v.u.i == 30);
  CHECK(tpl_ctx_get(top, &N_x, &v) && v.u.i == 10);
  CHECK(tpl_ctx_has_own(inc, &N_x) && !tpl_ctx_has_own(loop2, &N_x));
  /* many variables: the hashed index */
  char names[200][16];
  tpl_name ns[200];
  for (int i = 0; i < 200; i++) {
    snprintf(names[i], sizeof names[i], "v%d", i);
    ns[i] = nm(names[i]);
    tpl_ctx_set(&rt, top, &ns[i], tpl_int(i));
  }
  int ok = 0;
  for (int i = 0; i < 200; i++)
    ok += tpl_ctx_get(loop2, &ns[i], &v) && v.u.i == i;
  CHECK(ok == 200);
  /* _context order: outer first */
  tpl_value m = tpl_ctx_to_map(&rt, loop);
  CHECK(m.type == TPL_MAP && m.u.map->len == 204);
  CHECK(m.u.map->entries[0].key.type == TPL_STR &&
        m.u.map->entries[0].key.u.s[0] == 'x' &&
        m.u.map->entries[0].val.u.i == 10);
  CHECK(m.u.map->entries[203].key.u.s[0] == 'n');
  /* merge */
  tpl_map *mm = tpl_map_new(rt.arena, 2);
  tpl_map_set_str(rt.arena, mm, "k", tpl_int(7));
  tpl_map_set(rt.arena, mm, tpl_int(3), tpl_int(8));
  tpl_ctx *w = tpl_ctx_new(&rt, top, false);
  tpl_ctx_merge(&rt, w, tpl_map_value(mm), &L1);
  tpl_name three = nm("3");
  CHECK(tpl_ctx_get(w, &N_k, &v) && v.u.i == 7);
  CHECK(tpl_ctx_get(w, &three, &v) && v.u.i == 8);
  oc_arena_free(rt.arena);
  tpl_env_free(env);
}

/* ---- hand-compiled templates ---------------------------------------- */

static tpl_value var(tpl_rt *rt, tpl_ctx *ctx, const tpl_template *self,
                     const tpl_name *n) {
  return tpl_var(rt, ctx, self, n, &L1);
}

/* base.twig: <{% block title %}base{% endblock %}|{% block body %}B{% endblock
 * %}> */
static void base_title(tpl_rt *rt, const tpl_block_def *def, tpl_ctx *ctx,
                       const tpl_blocks *blocks) {
  (void)def, (void)ctx, (void)blocks;
  OUT(rt, "base");
}
static void base_body(tpl_rt *rt, const tpl_block_def *def, tpl_ctx *ctx,
                      const tpl_blocks *blocks) {
  (void)def, (void)ctx, (void)blocks;
  OUT(rt, "B");
}
static tpl_block_def base_blocks[2];
static void base_main(tpl_rt *rt, const tpl_template *self, tpl_ctx *ctx,
                      const tpl_blocks *blocks) {
  (void)self;
  OUT(rt, "<");
  tpl_display_block(rt, ctx, blocks, &N_title, &L1);
  OUT(rt, "|");
  tpl_display_block(rt, ctx, blocks, &N_body, &L1);
  OUT(rt, ">");
}
static tpl_template T_base = {.name = "base.twig", .body = base_main};

/* child.twig: {% extends "base.twig" %}{% set x = 'X' %}
 * {% block title %}child-{{ parent() }}-{{ x }}{% set x = 'changed' %}{%
 * endblock %} */
static void child_title(tpl_rt *rt, const tpl_block_def *def, tpl_ctx *ctx,
                        const tpl_blocks *blocks) {
  OUT(rt, "child-");
  tpl_display_parent_block(rt, def, ctx, blocks, &L1);
  OUT(rt, "-");
  tpl_out_value(rt, var(rt, ctx, def->owner, &N_x));
  tpl_ctx_set(rt, ctx, &N_x, tpl_cstr("changed"));
}
static tpl_block_def child_blocks[1];
static void child_main(tpl_rt *rt, const tpl_template *self, tpl_ctx *ctx,
                       const tpl_blocks *blocks) {
  tpl_ctx_set(rt, ctx, &N_x, tpl_cstr("X"));
  tpl_display_parent(rt, self, ctx, blocks, tpl_cstr("base.twig"), &L1);
}
static tpl_template T_child = {.name = "child.twig", .body = child_main};

/* grand.twig: {% extends "child.twig" %}{% block body %}G[{{ block('title')
 * }}]{% endblock %} */
static void grand_body(tpl_rt *rt, const tpl_block_def *def, tpl_ctx *ctx,
                       const tpl_blocks *blocks) {
  (void)def;
  OUT(rt, "G[");
  tpl_out_escaped(
      rt,
      tpl_block_function(rt, ctx, blocks, tpl_cstr("title"), tpl_null(), &L1),
      TPL_ESC_HTML);
  OUT(rt, "]");
}
static tpl_block_def grand_blocks[1];
static void grand_main(tpl_rt *rt, const tpl_template *self, tpl_ctx *ctx,
                       const tpl_blocks *blocks) {
  tpl_display_parent(rt, self, ctx, blocks, tpl_cstr("child.twig"), &L1);
}
static tpl_template T_grand = {.name = "grand.twig", .body = grand_main};

/* cyc_a.twig extends cyc_b.twig extends cyc_a.twig */
static void cyc_a_main(tpl_rt *rt, const tpl_template *self, tpl_ctx *ctx,
                       const tpl_blocks *blocks) {
  tpl_display_parent(rt, self, ctx, blocks, tpl_cstr("cyc_b.twig"), &L1);
}
static void cyc_b_main(tpl_rt *rt, const tpl_template *self, tpl_ctx *ctx,
                       const tpl_blocks *blocks) {
  tpl_display_parent(rt, self, ctx, blocks, tpl_cstr("cyc_a.twig"), &L1);
}
static tpl_template T_cyc_a = {.name = "cyc_a.twig", .body = cyc_a_main};
static tpl_template T_cyc_b = {.name = "cyc_b.twig", .body = cyc_b_main};

/* rec.twig: x{% include 'rec.twig' %} */
static tpl_loc L_rec = {"rec.twig", 1, 13};
static void rec_main(tpl_rt *rt, const tpl_template *self, tpl_ctx *ctx,
                     const tpl_blocks *blocks) {
  (void)self, (void)blocks;
  OUT(rt, "x");
  tpl_include(rt, ctx, tpl_cstr("rec.twig"), tpl_null(), false, false, &L_rec);
}
static tpl_template T_rec = {.name = "rec.twig", .body = rec_main};

/* loop.twig:
 * {% set t = 0 %}{% set v = 'keep' %}
 * {% for k, v in items %}{{ loop.index }}/{{ loop.length }}{{ loop.last }}:{{ k
 * }}={{ v }},
 *   {% set t = t + v %}{% set n = 1 %}{% endfor %}
 * {{ t }}{{ v }}{{ n is defined ? 'leak' : '' }}
 * {% for x in nothing %}{% else %}empty{% endfor %}
 * {% for x in items if x > 1 %}{{ loop.index }}{{ x }}{{ loop.last is null ?
 * 'u' : 'd' }}{% endfor %} */
static void loop_main(tpl_rt *rt, const tpl_template *self, tpl_ctx *ctx,
                      const tpl_blocks *blocks) {
  (void)blocks;
  tpl_ctx_set(rt, ctx, &N_t, tpl_int(0));
  tpl_ctx_set(rt, ctx, &N_v, tpl_cstr("keep"));
  tpl_iter it;
  tpl_for_begin(rt, &it, ctx, var(rt, ctx, self, &N_items), &N_k, &N_v, false);
  while (tpl_for_next(rt, &it)) {
    tpl_for_accept(rt, &it);
    tpl_ctx *s = it.scope;
    tpl_value loop = var(rt, s, self, &N_loop);
    tpl_out_value(rt, tpl_getattr_name(rt, loop, &N_index, &L1));
    OUT(rt, "/");
    tpl_out_value(rt, tpl_getattr_name(rt, loop, &N_length, &L1));
    tpl_out_value(rt, tpl_getattr_name(rt, loop, &N_last, &L1));
    OUT(rt, ":");
    tpl_out_value(rt, var(rt, s, self, &N_k));
    OUT(rt, "=");
    tpl_out_value(rt, var(rt, s, self, &N_v));
    OUT(rt, ",");
    tpl_ctx_set(
        rt, s, &N_t,
        tpl_op_add(rt, var(rt, s, self, &N_t), var(rt, s, self, &N_v), &L1));
    tpl_ctx_set(rt, s, &N_n, tpl_int(1));
  }
  tpl_out_value(rt, var(rt, ctx, self, &N_t));
  tpl_out_value(rt, var(rt, ctx, self, &N_v));
  tpl_value nv;
  if (tpl_var_probe(rt, ctx, self, &N_n, &nv))
    OUT(rt, "leak");
  OUT(rt, "|");
  tpl_for_begin(rt, &it, ctx, tpl_null(), NULL, &N_x, false);
  while (tpl_for_next(rt, &it))
    tpl_for_accept(rt, &it);
  if (tpl_for_empty(&it))
    OUT(rt, "empty");
  OUT(rt, "|");
  tpl_for_begin(rt, &it, ctx, var(rt, ctx, self, &N_items), NULL, &N_x, true);
  while (tpl_for_next(rt, &it)) {
    tpl_ctx *s = it.scope;
    if (tpl_compare(rt, var(rt, s, self, &N_x), tpl_int(1)) <= 0)
      continue;
    tpl_for_accept(rt, &it);
    tpl_value loop = var(rt, s, self, &N_loop);
    tpl_out_value(rt, tpl_getattr_name(rt, loop, &N_index, &L1));
    tpl_out_value(rt, var(rt, s, self, &N_x));
    tpl_value lv;
    OUT(rt, "");
    if (tpl_has_attr(rt, loop, tpl_cstr("last"), &lv))
      OUT(rt, "d");
    else
      OUT(rt, "u");
  }
  OUT(rt, "|");
  /* loop.parent.loop.index in nested loops */
  tpl_iter outer, inner;
  tpl_list *two = tpl_list_new(rt->arena, 2);
  two->items[0] = tpl_int(1);
  two->items[1] = tpl_int(2);
  tpl_for_begin(rt, &outer, ctx, tpl_list_value(two), NULL, &N_a, false);
  while (tpl_for_next(rt, &outer)) {
    tpl_for_accept(rt, &outer);
    tpl_for_begin(rt, &inner, outer.scope, tpl_list_value(two), NULL, &N_b,
                  false);
    while (tpl_for_next(rt, &inner)) {
      tpl_for_accept(rt, &inner);
      tpl_value lp = tpl_getattr_name(rt, var(rt, inner.scope, self, &N_loop),
                                      &N_parent, &L1);
      tpl_value ol = tpl_getattr_name(rt, lp, &N_loop, &L1);
      tpl_out_value(rt, tpl_getattr_name(rt, ol, &N_index, &L1));
      tpl_out_value(rt, var(rt, inner.scope, self, &N_b));
    }
  }
}
static tpl_template T_loop = {.name = "loop.twig", .body = loop_main};

/* m.twig: {% macro f(a, b = 'd') %}{{ a }}-{{ b }}-{{ varargs|length }}{%
 * endmacro %}
 *         {% macro g() %}{{ x is defined ? 'sees caller' : 'isolated' }}{%
 * endmacro %} */
static tpl_name f_params[2];
static void m_f(tpl_rt *rt, const tpl_macro_def *def, tpl_ctx *ctx) {
  if (!tpl_ctx_has_own(ctx, &f_params[1]))
    tpl_ctx_set_own(rt, ctx, &f_params[1], tpl_cstr("d"));
  tpl_out_value(rt, var(rt, ctx, def->owner, &N_a));
  OUT(rt, "-");
  tpl_out_value(rt, var(rt, ctx, def->owner, &N_b));
  OUT(rt, "-");
  tpl_out_value(rt,
                tpl_int(tpl_length(rt, var(rt, ctx, def->owner, &N_varargs))));
  OUT(rt, "<i>");
}
static void m_g(tpl_rt *rt, const tpl_macro_def *def, tpl_ctx *ctx) {
  tpl_value v;
  if (tpl_var_probe(rt, ctx, def->owner, &N_x, &v))
    OUT(rt, "sees caller");
  else
    OUT(rt, "isolated");
}
static tpl_macro_def m_macros[2];
static void m_main(tpl_rt *rt, const tpl_template *self, tpl_ctx *ctx,
                   const tpl_blocks *blocks) {
  (void)rt, (void)self, (void)ctx, (void)blocks;
}
static tpl_template T_m = {.name = "m.twig", .body = m_main};

/* calls.twig: {% import "m.twig" as m %}{% set x = 1 %}
 * {{ m.f(1, 2, 3) }}|{{ m.f(b = 'B', a = 'A') }}|{{ m.g() }}|{{ m.f() }} */
static void calls_main(tpl_rt *rt, const tpl_template *self, tpl_ctx *ctx,
                       const tpl_blocks *blocks) {
  (void)blocks;
  tpl_import(rt, self, 0, tpl_cstr("m.twig"), &L1);
  tpl_ctx_set(rt, ctx, &N_x, tpl_int(1));
  tpl_value args[3] = {tpl_int(1), tpl_int(2), tpl_int(3)};
  tpl_out_escaped(rt,
                  tpl_call_macro(rt, ctx, self, 0, &N_f, 3, 0, args, NULL, &L1),
                  TPL_ESC_HTML);
  OUT(rt, "|");
  tpl_value named[2] = {tpl_cstr("B"), tpl_cstr("A")};
  tpl_name names[2] = {N_b, N_a};
  tpl_out_escaped(
      rt, tpl_call_macro(rt, ctx, self, 0, &N_f, 0, 2, named, names, &L1),
      TPL_ESC_HTML);
  OUT(rt, "|");
  tpl_out_escaped(rt,
                  tpl_call_macro(rt, ctx, self, 0, &N_g, 0, 0, NULL, NULL, &L1),
                  TPL_ESC_HTML);
  OUT(rt, "|");
  tpl_value r = tpl_call_macro(rt, ctx, self, 0, &N_f, 0, 0, NULL, NULL, &L1);
  CHECK(r.safe);
  tpl_out_escaped(rt, r, TPL_ESC_HTML);
  OUT(rt, "|");
  if (tpl_macro_defined(rt, self, 0, &N_f) &&
      !tpl_macro_defined(rt, self, 0, &N_x))
    OUT(rt, "def");
}
static tpl_template T_calls = {.name = "calls.twig", .body = calls_main};

/* badcall.twig: {% import "m.twig" as m %}{{ m.f(zz = 1) }} */
static void badcall_main(tpl_rt *rt, const tpl_template *self, tpl_ctx *ctx,
                         const tpl_blocks *blocks) {
  (void)ctx, (void)blocks;
  tpl_import(rt, self, 0, tpl_cstr("m.twig"), &L1);
  tpl_value a[1] = {tpl_int(1)};
  tpl_name zz = nm("zz");
  tpl_call_macro(rt, ctx, self, 0, &N_f, 0, 1, a, &zz, &L1);
}
static tpl_template T_badcall = {.name = "badcall.twig", .body = badcall_main};

/* inc.twig: {% include 'part.twig' %}{% include 'part.twig' with {y: 'w'} only
 * %}
 *   {% include ['nope.twig', 'part.twig'] %}{% include 'nope.twig' ignore
 * missing %}
 *   {{ include('part.twig', {y: 'f'}) }}{{ x }}
 * part.twig: [{{ x }}{{ y }}]{% set x = 'in' %} */
static void part_main(tpl_rt *rt, const tpl_template *self, tpl_ctx *ctx,
                      const tpl_blocks *blocks) {
  (void)blocks;
  OUT(rt, "[");
  tpl_out_escaped(rt, var(rt, ctx, self, &N_x), TPL_ESC_HTML);
  tpl_out_escaped(rt, var(rt, ctx, self, &N_y), TPL_ESC_HTML);
  OUT(rt, "]");
  tpl_ctx_set(rt, ctx, &N_x, tpl_cstr("in"));
}
static tpl_template T_part = {.name = "part.twig", .body = part_main};
static void inc_main(tpl_rt *rt, const tpl_template *self, tpl_ctx *ctx,
                     const tpl_blocks *blocks) {
  (void)blocks;
  tpl_include(rt, ctx, tpl_cstr("part.twig"), tpl_null(), false, false, &L1);
  tpl_map *w = tpl_map_new(rt->arena, 1);
  tpl_map_set_str(rt->arena, w, "y", tpl_cstr("w"));
  tpl_include(rt, ctx, tpl_cstr("part.twig"), tpl_map_value(w), true, false,
              &L1);
  tpl_list *names = tpl_list_new(rt->arena, 2);
  names->items[0] = tpl_cstr("nope.twig");
  names->items[1] = tpl_cstr("part.twig");
  tpl_include(rt, ctx, tpl_list_value(names), tpl_null(), false, false, &L1);
  tpl_include(rt, ctx, tpl_cstr("nope.twig"), tpl_null(), false, true, &L1);
  tpl_map *f = tpl_map_new(rt->arena, 1);
  tpl_map_set_str(rt->arena, f, "y", tpl_cstr("<f>"));
  tpl_value s = tpl_include_function(rt, ctx, tpl_cstr("part.twig"),
                                     tpl_map_value(f), true, false, &L1);
  tpl_out_value(rt, s);
  tpl_out_value(rt, var(rt, ctx, self, &N_x));
}
static tpl_template T_inc = {.name = "inc.twig", .body = inc_main};
static tpl_loc L_missing = {"missing.twig", 3, 7};
static void missing_main(tpl_rt *rt, const tpl_template *self, tpl_ctx *ctx,
                         const tpl_blocks *blocks) {
  (void)self, (void)blocks;
  tpl_list *names = tpl_list_new(rt->arena, 2);
  names->items[0] = tpl_cstr("a.twig");
  names->items[1] = tpl_cstr("b.twig");
  tpl_include(rt, ctx, tpl_list_value(names), tpl_null(), false, false,
              &L_missing);
}
static tpl_template T_missing = {.name = "missing.twig", .body = missing_main};

/* traits.twig: {% use 'blocks.twig' with g as bar %}{% block foo %}own[{{
 * parent() }}]{% endblock %}
 *   |{{ block('bar') }}{{ block('foo') }}|{{ block('g', 'blocks.twig') }}{{
 * block('bar') is defined ? 'y' }} blocks.twig: {% block foo %}FOO{% endblock
 * %}{% block g %}G{% endblock %} */
static void blk_foo(tpl_rt *rt, const tpl_block_def *def, tpl_ctx *ctx,
                    const tpl_blocks *blocks) {
  (void)def, (void)ctx, (void)blocks;
  OUT(rt, "FOO");
}
static void blk_g(tpl_rt *rt, const tpl_block_def *def, tpl_ctx *ctx,
                  const tpl_blocks *blocks) {
  (void)def, (void)ctx, (void)blocks;
  OUT(rt, "G");
}
static tpl_block_def blocks_blocks[2];
static tpl_template T_blocks = {.name = "blocks.twig", .body = m_main};
static void traits_foo(tpl_rt *rt, const tpl_block_def *def, tpl_ctx *ctx,
                       const tpl_blocks *blocks) {
  OUT(rt, "own[");
  tpl_display_parent_block(rt, def, ctx, blocks, &L1);
  OUT(rt, "]");
}
static tpl_block_def traits_blocks[1];
static tpl_use_rename traits_renames[1];
static tpl_use traits_uses[1];
static void traits_main(tpl_rt *rt, const tpl_template *self, tpl_ctx *ctx,
                        const tpl_blocks *blocks) {
  (void)self;
  tpl_display_block(rt, ctx, blocks, &N_foo, &L1);
  OUT(rt, "|");
  tpl_out_value(rt, tpl_block_function(rt, ctx, blocks, tpl_cstr("bar"),
                                       tpl_null(), &L1));
  tpl_out_value(rt, tpl_block_function(rt, ctx, blocks, tpl_cstr("foo"),
                                       tpl_null(), &L1));
  OUT(rt, "|");
  tpl_out_value(rt, tpl_block_function(rt, ctx, blocks, tpl_cstr("g"),
                                       tpl_cstr("blocks.twig"), &L1));
  if (tpl_block_defined(rt, blocks, tpl_cstr("bar"), tpl_null()))
    OUT(rt, "y");
}
static tpl_template T_traits = {.name = "traits.twig", .body = traits_main};

/* embed.twig: {% embed 'base.twig' with {x: 'E'} %}{% block body %}[{{ x }}]{%
 * endblock %}{% endembed %}{{ x ?? 'none' }} */
static void emb_body(tpl_rt *rt, const tpl_block_def *def, tpl_ctx *ctx,
                     const tpl_blocks *blocks) {
  (void)blocks;
  OUT(rt, "[");
  tpl_out_value(rt, var(rt, ctx, def->owner, &N_x));
  OUT(rt, "]");
}
static tpl_block_def emb_blocks[1];
static void emb_main(tpl_rt *rt, const tpl_template *self, tpl_ctx *ctx,
                     const tpl_blocks *blocks) {
  tpl_display_parent(rt, self, ctx, blocks, tpl_cstr("base.twig"), &L1);
}
static tpl_template T_emb0 = {.name = "embed.twig", .body = emb_main};
static const tpl_template *emb_embeds[1] = {&T_emb0};
static void embed_main(tpl_rt *rt, const tpl_template *self, tpl_ctx *ctx,
                       const tpl_blocks *blocks) {
  (void)blocks;
  tpl_map *w = tpl_map_new(rt->arena, 1);
  tpl_map_set_str(rt->arena, w, "x", tpl_cstr("E"));
  tpl_embed(rt, self, 0, ctx, tpl_map_value(w), false, false, &L1);
  tpl_value v;
  if (!tpl_var_probe(rt, ctx, self, &N_x, &v))
    OUT(rt, "none");
}
static tpl_template T_embed = {.name = "embed.twig", .body = embed_main};

/* vars.twig: {{ _self }} {{ _charset }} {{ _context|keys }} {{ g }} {{
 * undefined }} */
static void vars_main(tpl_rt *rt, const tpl_template *self, tpl_ctx *ctx,
                      const tpl_blocks *blocks) {
  (void)blocks;
  tpl_name s = nm("_self"), c = nm("_charset"), cx = nm("_context"),
           u = nm("undefined");
  tpl_out_value(rt, var(rt, ctx, self, &s));
  OUT(rt, " ");
  tpl_out_value(rt, var(rt, ctx, self, &c));
  OUT(rt, " ");
  tpl_value m = var(rt, ctx, self, &cx);
  for (size_t i = 0; i < m.u.map->len; i++) {
    tpl_out_value(rt, m.u.map->entries[i].key);
    OUT(rt, ",");
  }
  OUT(rt, " ");
  tpl_out_value(rt, var(rt, ctx, self, &N_g));
  OUT(rt, " ");
  tpl_out_value(rt, tpl_var(rt, ctx, self, &u, &(tpl_loc){"vars.twig", 4, 2}));
}
static tpl_template T_vars = {.name = "vars.twig", .body = vars_main};

static const tpl_template *const registry[] = {
    &T_base,    &T_child,  &T_grand,  &T_cyc_a, &T_cyc_b,   &T_rec,
    &T_loop,    &T_part,   &T_m,      &T_calls, &T_badcall, &T_inc,
    &T_missing, &T_blocks, &T_traits, &T_embed, &T_vars};

static void setup_registry(void) {
  base_blocks[0] = (tpl_block_def){N_title, base_title, &T_base, NULL};
  base_blocks[1] = (tpl_block_def){N_body, base_body, &T_base, NULL};
  T_base.nblocks = 2;
  T_base.blocks = base_blocks;
  child_blocks[0] = (tpl_block_def){N_title, child_title, &T_child, NULL};
  T_child.nblocks = 1;
  T_child.blocks = child_blocks;
  grand_blocks[0] = (tpl_block_def){N_body, grand_body, &T_grand, NULL};
  T_grand.nblocks = 1;
  T_grand.blocks = grand_blocks;
  f_params[0] = N_a;
  f_params[1] = N_b;
  m_macros[0] = (tpl_macro_def){N_f, 2, f_params, m_f, &T_m, NULL};
  m_macros[1] = (tpl_macro_def){N_g, 0, NULL, m_g, &T_m, NULL};
  T_m.nmacros = 2;
  T_m.macros = m_macros;
  blocks_blocks[0] = (tpl_block_def){N_foo, blk_foo, &T_blocks, NULL};
  blocks_blocks[1] = (tpl_block_def){N_g, blk_g, &T_blocks, NULL};
  T_blocks.nblocks = 2;
  T_blocks.blocks = blocks_blocks;
  traits_blocks[0] = (tpl_block_def){N_foo, traits_foo, &T_traits, NULL};
  T_traits.nblocks = 1;
  T_traits.blocks = traits_blocks;
  traits_renames[0] = (tpl_use_rename){N_g, N_bar};
  traits_uses[0] =
      (tpl_use){"blocks.twig", 1, traits_renames, {"traits.twig", 1, 4}};
  T_traits.nuses = 1;
  T_traits.uses = traits_uses;
  emb_blocks[0] = (tpl_block_def){N_body, emb_body, &T_emb0, NULL};
  T_emb0.nblocks = 1;
  T_emb0.blocks = emb_blocks;
  T_embed.nembeds = 1;
  T_embed.embeds = emb_embeds;
}

static tpl_value items_map(oc_arena *a) {
  tpl_map *m = tpl_map_new(a, 3);
  tpl_map_set_str(a, m, "a", tpl_int(1));
  tpl_map_set_str(a, m, "b", tpl_int(2));
  tpl_map_set_str(a, m, "c", tpl_int(3));
  tpl_map *d = tpl_map_new(a, 1);
  tpl_map_set_str(a, d, "items", tpl_map_value(m));
  return tpl_map_value(d);
}

static void test_engine(void) {
  tpl_env *env = tpl_env_new();
  tpl_env_add_compiled(env, registry, sizeof registry / sizeof *registry);
  oc_arena *a = tpl_env_arena(env);
  CHECK_RENDER(env, "base.twig", tpl_null(), "<base|B>");
  CHECK_RENDER(env, "child.twig", tpl_null(), "<child-base-X|B>");
  CHECK_RENDER(env, "grand.twig", tpl_null(), "<child-base-X|G[child-base-X]>");
  CHECK_RENDER(env, "cyc_a.twig", tpl_null(),
               "ERR:t.twig:1:1: extends cycle: cyc_a.twig -> cyc_b.twig -> "
               "cyc_a.twig");
  CHECK_RENDER(env, "rec.twig", tpl_null(),
               "ERR:rec.twig:1:13: maximum template nesting depth (200) "
               "exceeded");
  CHECK_RENDER(env, "nope.twig", tpl_null(),
               "ERR::0:0: template \"nope.twig\" not found");
  CHECK_RENDER(env, "loop.twig", items_map(a),
               "1/3:a=1,2/3:b=2,3/31:c=3,6keep|empty|12u23u|11122122");
  CHECK_RENDER(env, "calls.twig", tpl_null(),
               "1-2-1<i>|A-B-0<i>|isolated|-d-0<i>|def");
  CHECK_RENDER(env, "badcall.twig", tpl_null(),
               "ERR:t.twig:1:1: macro \"f\" has no argument \"zz\"");
  tpl_map *d = tpl_map_new(a, 1);
  tpl_map_set_str(a, d, "x", tpl_cstr("<x>"));
  CHECK_RENDER(env, "inc.twig", tpl_map_value(d),
               "[&lt;x&gt;][w][&lt;x&gt;][&lt;x&gt;&lt;f&gt;]<x>");
  CHECK_RENDER(env, "missing.twig", tpl_null(),
               "ERR:missing.twig:3:7: template \"a.twig\", \"b.twig\" not "
               "found");
  CHECK_RENDER(env, "traits.twig", tpl_null(), "own[FOO]|Gown[FOO]|Gy");
  CHECK_RENDER(env, "embed.twig", tpl_null(), "<base|[E]>none");
  tpl_env_set_global(env, "g", tpl_cstr("glob"));
  CHECK_RENDER(env, "vars.twig", tpl_map_value(d),
               "vars.twig UTF-8 x,g, glob ");
  tpl_env_set_strict(env, true);
  CHECK_RENDER(env, "vars.twig", tpl_map_value(d),
               "ERR:vars.twig:4:2: variable \"undefined\" does not exist");
  tpl_env_free(env);
}

/* ---- the interpreter on hand-built ASTs ----------------------------- */

static tpl_node *mk(oc_arena *a, tpl_node_kind kind) {
  tpl_node *n = oc_arena_calloc(a, 1, sizeof *n);
  n->kind = (uint8_t)kind;
  n->loc = (tpl_loc){"i.twig", 1, 1};
  n->line = n->col = 1;
  return n;
}
static tpl_node *mk_text(oc_arena *a, const char *s) {
  tpl_node *n = mk(a, TPL_N_TEXT);
  n->value = tpl_cstr(s);
  return n;
}
static tpl_node *mk_name(oc_arena *a, const char *s) {
  tpl_node *n = mk(a, TPL_N_NAME);
  n->name = nm(s);
  return n;
}
static tpl_node *mk_const(oc_arena *a, tpl_value v) {
  tpl_node *n = mk(a, TPL_N_CONST);
  n->value = v;
  return n;
}
static tpl_node *mk_attr(oc_arena *a, tpl_node *obj, const char *key) {
  tpl_node *n = mk(a, TPL_N_GETATTR);
  n->a = obj;
  n->b = mk_const(a, tpl_cstr(key));
  n->index = TPL_ATTR_ANY;
  return n;
}
static tpl_node *mk_print(oc_arena *a, tpl_node *e) {
  tpl_node *esc = mk(a, TPL_N_ESCAPE);
  esc->a = e;
  esc->index = TPL_ESC_HTML;
  esc->flags = TPL_F_AUTO;
  tpl_node *p = mk(a, TPL_N_PRINT);
  p->a = esc;
  return p;
}
static tpl_node *mk_body(oc_arena *a, size_t n, tpl_node **kids) {
  tpl_node *b = mk(a, TPL_N_BODY);
  b->nkids = n;
  b->kids = oc_arena_calloc(a, n + 1, sizeof *kids);
  memcpy(b->kids, kids, n * sizeof *kids);
  return b;
}

typedef struct one_source {
  const char *name;
  const tpl_template *t;
} one_source;
static int one_find(void *data, tpl_env *env, const char *name, size_t len,
                    const tpl_template **out, tpl_diag *diag) {
  (void)env, (void)diag;
  one_source *s = data;
  if (strlen(s->name) != len || memcmp(s->name, name, len) != 0)
    return 0;
  *out = s->t;
  return 1;
}

static void test_interp_ast(void) {
  tpl_env *env = tpl_env_new();
  oc_arena *a = tpl_env_arena(env);
  /* a{{ user.name }}{% for x in items %}({{ x }}){% else %}none{% endfor %}
   * {{ missing ?? 'dflt' }}{{ user.nope is defined ? 'y' : 'n' }}
   * {% set y = user.name|default('?') %}{{ y }}{{ [1, 2][1] }} */
  tpl_ast_template *ast = oc_arena_calloc(a, 1, sizeof *ast);
  ast->name = "i.twig";
  ast->source = "";
  ast->autoescape = TPL_ESC_HTML;
  tpl_node *fr = mk(a, TPL_N_FOR);
  fr->name = nm("x");
  fr->a = mk_name(a, "items");
  tpl_node *fb[] = {mk_text(a, "("), mk_print(a, mk_name(a, "x")),
                    mk_text(a, ")")};
  fr->c = mk_body(a, 3, fb);
  tpl_node *fe[] = {mk_text(a, "none")};
  fr->d = mk_body(a, 1, fe);
  tpl_node *nc = mk(a, TPL_N_NULLCOALESCE);
  nc->a = mk_name(a, "missing");
  nc->b = mk_const(a, tpl_cstr("dflt"));
  tpl_node *def = mk(a, TPL_N_DEFINED);
  def->a = mk_attr(a, mk_name(a, "user"), "nope");
  tpl_node *cond = mk(a, TPL_N_COND);
  cond->a = def;
  cond->b = mk_const(a, tpl_cstr("y"));
  cond->c = mk_const(a, tpl_cstr("n"));
  tpl_node *dflt = mk(a, TPL_N_DEFAULT);
  dflt->a = mk_attr(a, mk_name(a, "user"), "name");
  dflt->b = mk_const(a, tpl_cstr("?"));
  tpl_node *set = mk(a, TPL_N_SET);
  set->n = 1;
  set->nkids = 2;
  set->kids = oc_arena_calloc(a, 2, sizeof *set->kids);
  set->kids[0] = mk_name(a, "y");
  set->kids[1] = dflt;
  tpl_node *arr = mk(a, TPL_N_ARRAY);
  arr->nkids = 2;
  arr->kids = oc_arena_calloc(a, 2, sizeof *arr->kids);
  arr->kids[0] = mk_const(a, tpl_int(1));
  arr->kids[1] = mk_const(a, tpl_int(2));
  tpl_node *sub = mk(a, TPL_N_GETATTR);
  sub->a = arr;
  sub->b = mk_const(a, tpl_int(1));
  sub->index = TPL_ATTR_ARRAY;
  tpl_node *body[] = {mk_text(a, "a"),
                      mk_print(a, mk_attr(a, mk_name(a, "user"), "name")),
                      fr,
                      mk_print(a, nc),
                      mk_print(a, cond),
                      set,
                      mk_print(a, mk_name(a, "y")),
                      mk_print(a, sub)};
  ast->body = mk_body(a, sizeof body / sizeof *body, body);
  one_source src = {"i.twig", tpl_interp_build(a, ast)};
  tpl_env_add_source(env, (tpl_source){one_find, &src});

  tpl_map *user = tpl_map_new(a, 1);
  tpl_map_set_str(a, user, "name", tpl_cstr("<Ann>"));
  tpl_map *d = tpl_map_new(a, 2);
  tpl_map_set_str(a, d, "user", tpl_map_value(user));
  CHECK_RENDER(env, "i.twig", tpl_map_value(d),
               "a&lt;Ann&gt;nonedfltn&lt;Ann&gt;2");
  tpl_list *items = tpl_list_new(a, 2);
  items->items[0] = tpl_cstr("p");
  items->items[1] = tpl_cstr("&");
  tpl_map_set_str(a, d, "items", tpl_list_value(items));
  tpl_env_set_strict(env, true);
  CHECK_RENDER(env, "i.twig", tpl_map_value(d),
               "a&lt;Ann&gt;(p)(&amp;)dfltn&lt;Ann&gt;2");
  tpl_env_free(env);
}

/* ---- the loader, through the parser --------------------------------- */

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (!f)
    return;
  fputs(text, f);
  fclose(f);
}

static void add_string(tpl_loader *l, const char *name, const char *text) {
  tpl_loader_add_string(l, name, text, strlen(text));
}

static void test_loader(void) {
  tpl_env *env = tpl_env_new();
  tpl_loader *l = tpl_loader_new(env);
  char dir[] = "/tmp/octavo-test-engine-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[256];
  snprintf(path, sizeof path, "%s/sub", dir);
  mkdir(path, 0700);
  snprintf(path, sizeof path, "%s/sub/page.twig", dir);
  write_file(path, "{% extends 'layout.twig' %}{% block b %}page "
                   "{{ title }}{% endblock %}");
  snprintf(path, sizeof path, "%s/broken.twig", dir);
  write_file(path, "ok\n{{ oops");
  tpl_loader_add_dir(l, dir);
  add_string(l, "layout.twig", "<{% block b %}{% endblock %}>");
  add_string(l, "uses_broken.twig", "x{% include 'broken.twig' %}");
  add_string(l, "macros.twig",
             "{% macro m(a, b = 2) %}{{ a }}{{ b }}{% endmacro %}"
             "{% import _self as s %}{{ s.m(1) }}|"
             "{{ [1, 2, 3]|map(x => x * 2)|join(',') }}"
             "{% for i in 1..3 %}{{ loop.index }}{% endfor %}");
  /* block(), include() and parent() give plain strings: escaped when
   * printed from a variable, as in Twig */
  add_string(
      l, "plain.twig",
      "{% set y = block('b') %}{{ y }}|{{ block('b') }}"
      "{% set z = include('inc.twig') %}{{ z }}|{{ include('inc.twig') }}|"
      "{% block b %}<b>{% endblock %}");
  add_string(l, "inc.twig", "<i>");
  add_string(
      l, "plain_child.twig",
      "{% extends 'plain_layout.twig' %}{% block c %}{% set p = parent() %}"
      "{{ p }}|{{ parent() }}{% endblock %}");
  add_string(l, "plain_layout.twig", "{% block c %}<c>{% endblock %}");
  /* A command for the shell: every printed value is one quoted word, also
   * when marked safe (set ... endset) and when empty; |raw opts out. */
  const char *cmd = "cp {{ title }} {{ nothing }}{{ t2 }} {{ n }} {{ title|raw }}"
                    "{% set s %}a'b{% endset %} {{ s }} {{ title|e('sh') }}";
  tpl_loader_add_string_as(l, "cmd", cmd, strlen(cmd), TPL_ESC_SH);
  tpl_map *c = tpl_map_new(tpl_env_arena(env), 4);
  tpl_map_set_str(tpl_env_arena(env), c, "title", tpl_cstr("it's \"x\"\n$y"));
  tpl_map_set_str(tpl_env_arena(env), c, "nothing", tpl_null());
  tpl_map_set_str(tpl_env_arena(env), c, "t2", tpl_cstr(""));
  tpl_map_set_str(tpl_env_arena(env), c, "n", tpl_int(42));
  CHECK_RENDER(env, "cmd", tpl_map_value(c),
               "cp 'it'\\''s \"x\"\n$y' '''' 42 it's \"x\"\n$y 'a'\\''b' "
               "'it'\\''s \"x\"\n$y'");
  /* a NUL byte is an error at its place, not the end of the template */
  tpl_loader_add_string(l, "nul.twig", "ab\ncd\0{{ x }}", 13);
  CHECK_RENDER(env, "nul.twig", tpl_null(),
               "ERR:nul.twig:2:3: a NUL byte in the template (the file is "
               "binary or damaged)");
  tpl_map *d = tpl_map_new(tpl_env_arena(env), 1);
  tpl_map_set_str(tpl_env_arena(env), d, "title", tpl_cstr("T&"));
  CHECK_RENDER(env, "plain.twig", tpl_null(), "&lt;b&gt;|<b>&lt;i&gt;|<i>|<b>");
  CHECK_RENDER(env, "plain_child.twig", tpl_null(), "&lt;c&gt;|<c>");
  CHECK_RENDER(env, "sub/page.twig", tpl_map_value(d), "<page T&amp;>");
  CHECK_RENDER(env, "../x.twig", tpl_null(),
               "ERR::0:0: template \"../x.twig\" not found");
  CHECK_RENDER(env, "/etc/passwd", tpl_null(),
               "ERR::0:0: template \"/etc/passwd\" not found");
  char *got = render(env, "uses_broken.twig", tpl_null());
  CHECK(strncmp(got, "ERR:broken.twig:2:", 18) == 0);
  free(got);
  CHECK_RENDER(env, "macros.twig", tpl_null(), "12|2,4,6123");
  const char *text;
  size_t text_len;
  CHECK(tpl_env_source(env, "broken.twig", 11, &text, &text_len) == 1 &&
        text_len == 10 && memcmp(text, "ok\n{{ oops", 10) == 0);
  CHECK(tpl_env_source(env, "gone.twig", 9, &text, &text_len) == 0);
  tpl_diag diags[4];
  size_t nd = 0;
  CHECK(tpl_loader_check(l, "broken.twig", diags, 4, &nd) >= 1 && nd >= 1);
  CHECK(tpl_loader_check(l, "layout.twig", diags, 4, &nd) == 0 && nd == 0);
  CHECK(tpl_loader_check(l, "nope.twig", diags, 4, &nd) == -1);
  snprintf(path, sizeof path, "%s/sub/page.twig", dir);
  unlink(path);
  snprintf(path, sizeof path, "%s/broken.twig", dir);
  unlink(path);
  snprintf(path, sizeof path, "%s/sub", dir);
  rmdir(path);
  rmdir(dir);
  tpl_env_free(env);
}

/* Templates that are symbolic links: one inside the loader's root is
 * read, one out of it or to nothing is an error, not a missing template
 * a later folder may give (the book's override replaced by the theme's). */
static void test_loader_links(void) {
  char dir[] = "/tmp/octavo-test-links-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char book[64], tpl[96], p[256], q[256];
  snprintf(book, sizeof book, "%s/book", dir);
  snprintf(tpl, sizeof tpl, "%s/book/Templates", dir);
  mkdir(book, 0700);
  mkdir(tpl, 0700);
  snprintf(p, sizeof p, "%s/shared.twig", book);
  write_file(p, "shared");
  snprintf(p, sizeof p, "%s/outside.twig", dir);
  write_file(p, "outside");
  snprintf(p, sizeof p, "%s/in.twig", tpl);
  CHECK(symlink("../shared.twig", p) == 0);
  snprintf(p, sizeof p, "%s/out.twig", tpl);
  snprintf(q, sizeof q, "%s/outside.twig", dir);
  CHECK(symlink(q, p) == 0);
  snprintf(p, sizeof p, "%s/none.twig", tpl);
  CHECK(symlink("nothing.twig", p) == 0);
  for (int rooted = 0; rooted < 2; rooted++) {
    tpl_env *env = tpl_env_new();
    tpl_loader *l = tpl_loader_new(env);
    if (rooted)
      tpl_loader_set_root(l, book, "the book's folder");
    tpl_loader_add_dir(l, tpl);
    /* a later source's templates must not stand in for refused ones */
    tpl_loader *theme = tpl_loader_new(env);
    add_string(theme, "out.twig", "theme's");
    add_string(theme, "none.twig", "theme's");
    CHECK_RENDER(env, "in.twig", tpl_null(),
                 rooted ? "shared"
                        : "ERR:in.twig:0:0: 'in.twig' is a symbolic link "
                          "that leads out of its folder: refusing to read "
                          "it");
    CHECK_RENDER(env, "out.twig", tpl_null(),
                 rooted ? "ERR:out.twig:0:0: 'out.twig' is a symbolic link "
                          "that leads out of the book's folder: refusing to "
                          "read it"
                        : "ERR:out.twig:0:0: 'out.twig' is a symbolic link "
                          "that leads out of its folder: refusing to read "
                          "it");
    CHECK_RENDER(env, "none.twig", tpl_null(),
                 "ERR:none.twig:0:0: 'none.twig' is a symbolic link that "
                 "leads to nothing: refusing to read it");
    tpl_env_free(env);
  }
  const char *gone[] = {"Templates/in.twig", "Templates/out.twig",
                        "Templates/none.twig", "shared.twig"};
  for (size_t i = 0; i < 4; i++) {
    snprintf(p, sizeof p, "%s/%s", book, gone[i]);
    unlink(p);
  }
  unlink(q);
  rmdir(tpl);
  rmdir(book);
  rmdir(dir);
}

/* ---- data files ----------------------------------------------------- */

static void test_data(void) {
  oc_arena *a = oc_arena_new();
  tpl_value v;
  tpl_diag d;
  const char *json = "{\"s\": \"x\", \"i\": -12, \"f\": 1.5, \"e\": 1e3, "
                     "\"t\": true, \"n\": null, \"l\": [1, \"2\"], "
                     "\"o\": {\"0\": \"a\", \"1\": \"b\"}, \"q\": \"true\", "
                     "\"big\": 99999999999999999999}";
  CHECK(tpl_data_parse(a, "d.json", json, strlen(json), &v, &d) == 0);
  CHECK(v.type == TPL_MAP && v.u.map->len == 10);
  tpl_value x;
  CHECK(tpl_map_get_str(v.u.map, "s", 1, &x) && x.type == TPL_STR);
  CHECK(tpl_map_get_str(v.u.map, "i", 1, &x) && x.type == TPL_INT &&
        x.u.i == -12);
  CHECK(tpl_map_get_str(v.u.map, "f", 1, &x) && x.type == TPL_FLOAT &&
        x.u.f == 1.5);
  CHECK(tpl_map_get_str(v.u.map, "e", 1, &x) && x.type == TPL_FLOAT &&
        x.u.f == 1000.0);
  CHECK(tpl_map_get_str(v.u.map, "t", 1, &x) && x.type == TPL_BOOL && x.u.b);
  CHECK(tpl_map_get_str(v.u.map, "n", 1, &x) && x.type == TPL_NULL);
  CHECK(tpl_map_get_str(v.u.map, "l", 1, &x) && x.type == TPL_LIST &&
        x.u.list->len == 2 && x.u.list->items[1].type == TPL_STR);
  CHECK(tpl_map_get_str(v.u.map, "o", 1, &x) && x.type == TPL_LIST);
  CHECK(tpl_map_get_str(v.u.map, "q", 1, &x) && x.type == TPL_STR);
  CHECK(tpl_map_get_str(v.u.map, "big", 3, &x) && x.type == TPL_FLOAT);
  const char *yaml = "title: Book\nyear: 2024\nratio: .5\nhex: 0x1F\n"
                     "none: ~\nyes: True\nlist:\n  - &a one\n  - 'two'\n"
                     "  - *a\nquoted: \"12\"\ninf: -.inf\n";
  CHECK(tpl_data_parse(a, "d.yaml", yaml, strlen(yaml), &v, &d) == 0);
  CHECK(tpl_map_get_str(v.u.map, "year", 4, &x) && x.type == TPL_INT &&
        x.u.i == 2024);
  CHECK(tpl_map_get_str(v.u.map, "ratio", 5, &x) && x.type == TPL_FLOAT);
  CHECK(tpl_map_get_str(v.u.map, "hex", 3, &x) && x.type == TPL_INT &&
        x.u.i == 31);
  CHECK(tpl_map_get_str(v.u.map, "none", 4, &x) && x.type == TPL_NULL);
  CHECK(tpl_map_get_str(v.u.map, "yes", 3, &x) && x.type == TPL_BOOL);
  CHECK(tpl_map_get_str(v.u.map, "list", 4, &x) && x.type == TPL_LIST &&
        x.u.list->len == 3 && x.u.list->items[2].len == 3);
  CHECK(tpl_map_get_str(v.u.map, "quoted", 6, &x) && x.type == TPL_STR);
  CHECK(tpl_map_get_str(v.u.map, "inf", 3, &x) && x.type == TPL_FLOAT &&
        isinf(x.u.f) && x.u.f < 0);
  const char *bad = "a: 1\nb: [1, 2\n";
  CHECK(tpl_data_parse(a, "bad.yaml", bad, strlen(bad), &v, &d) == -1);
  CHECK(strcmp(d.file, "bad.yaml") == 0 && d.line >= 2 && d.col >= 1 &&
        d.message[0]);
  oc_arena_free(a);
}

/* ---- speed ---------------------------------------------------------- */

/* {% for it in items %}<li>{{ it.a }} {{ it.b }} {{ it.c }}</li>{% endfor %} */
static tpl_name N_it, N_c;
static void toc_main(tpl_rt *rt, const tpl_template *self, tpl_ctx *ctx,
                     const tpl_blocks *blocks) {
  (void)blocks;
  tpl_iter it;
  tpl_for_begin(rt, &it, ctx, tpl_var(rt, ctx, self, &N_items, &L1), NULL,
                &N_it, false);
  while (tpl_for_next(rt, &it)) {
    tpl_for_accept(rt, &it);
    tpl_value v = tpl_var(rt, it.scope, self, &N_it, &L1);
    OUT(rt, "<li>");
    tpl_out_escaped(rt, tpl_getattr_name(rt, v, &N_a, &L1), TPL_ESC_HTML);
    OUT(rt, " ");
    tpl_out_escaped(rt, tpl_getattr_name(rt, v, &N_b, &L1), TPL_ESC_HTML);
    OUT(rt, " ");
    tpl_out_escaped(rt, tpl_getattr_name(rt, v, &N_c, &L1), TPL_ESC_HTML);
    OUT(rt, "</li>\n");
  }
}
static tpl_template T_toc = {.name = "toc.twig", .body = toc_main};

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void test_speed(void) {
  N_it = nm("it");
  N_c = nm("c");
  tpl_env *env = tpl_env_new();
  const tpl_template *reg[] = {&T_toc};
  tpl_env_add_compiled(env, reg, 1);
  oc_arena *a = tpl_env_arena(env);
  tpl_list *items = tpl_list_new(a, 2000);
  for (size_t i = 0; i < 2000; i++) {
    tpl_map *m = tpl_map_new(a, 3);
    tpl_map_set_str(a, m, "a", tpl_int((int64_t)i));
    tpl_map_set_str(a, m, "b", tpl_cstr("Chapter title & more"));
    tpl_map_set_str(a, m, "c", tpl_cstr("chapter.html"));
    items->items[i] = tpl_map_value(m);
  }
  tpl_map *d = tpl_map_new(a, 1);
  tpl_map_set_str(a, d, "items", tpl_list_value(items));
  double best = 1e9;
  for (int r = 0; r < 20; r++) {
    char *out;
    size_t len;
    tpl_diag diag;
    double t0 = now_ms();
    int rc = tpl_render(env, "toc.twig", tpl_map_value(d), &out, &len, &diag);
    double t = now_ms() - t0;
    CHECK(rc == 0);
    if (rc == 0)
      free(out);
    if (t < best)
      best = t;
  }
  printf("toc loop, 2000 items x 3 attributes: %.3f ms\n", best);
  tpl_env_free(env);
}

/* A template that doubles a string 40 times fails cleanly at the cap,
 * in values and in output alike, and the env renders again afterwards. */
static void test_memory_limit(void) {
  tpl_env *env = tpl_env_new();
  tpl_env_set_memory_limit(env, (size_t)8 << 20);
  tpl_loader *l = tpl_loader_new(env);
  add_string(l, "values.twig",
             "{% set s = 'xxxxxxxx' %}{% for i in 1..40 %}{% set s = s ~ s %}"
             "{% endfor %}{{ s|length }}");
  add_string(l, "output.twig",
             "{% for i in 1..1000 %}{% for j in 1..1000 %}0123456789abcdef"
             "{% endfor %}{% endfor %}");
  add_string(l, "small.twig", "{{ 'fine' }}");
  CHECK_RENDER(env, "values.twig", tpl_null(),
               "ERR:values.twig:1:48: the template needs more than 8 MiB of "
               "memory");
  char *out = render(env, "output.twig", tpl_null());
  if (!strstr(out, "needs more than 8 MiB")) {
    fprintf(stderr, "%s:%d: got [%s]\n", __FILE__, __LINE__, out);
    failed++;
  }
  free(out);
  CHECK_RENDER(env, "small.twig", tpl_null(), "fine");
  tpl_env_free(env);
}

int main(void) {
  init_names();
  setup_registry();
  test_scopes();
  test_engine();
  test_interp_ast();
  test_loader();
  test_loader_links();
  test_data();
  test_memory_limit();
  test_speed();
  printf("engine: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
