/* Twig 3.5's core functions (max, min, range, cycle, random, date, include,
 * source, attribute, dump; block and parent are special nodes) and the
 * function table the checker resolves names against. */
#include <math.h>
#include <stdlib.h>

#include "tpl_lib.h"

#define ARG(i) ((i) < argc ? argv[(i)] : tpl_null())
#define HAS(i) ((i) < argc && argv[(i)].type != TPL_NULL)

/* ---- max, min ------------------------------------------------------- */

static tpl_value tpl_minmax(tpl_rt *rt, int argc, const tpl_value *argv,
                            bool max, const tpl_loc *loc) {
  const char *fn = max ? "max" : "min";
  if (argc == 0)
    tpl_fail(rt, loc, "%s() expects at least 1 argument, 0 given", fn);
  if (argc == 1) {
    tpl_arr a;
    if (argv[0].type != TPL_LIST && argv[0].type != TPL_MAP)
      tpl_fail(rt, loc,
               "%s(): Argument #1 ($value) must be of type array, %s given", fn,
               tpl_type_name(argv[0]));
    tpl_arr_of(rt, argv[0], &a);
    if (a.n == 0)
      tpl_fail(rt, loc,
               "%s(): Argument #1 ($value) must contain at least one "
               "element",
               fn);
    tpl_value best = tpl_arr_val(&a, 0);
    for (size_t i = 1; i < a.n; i++) {
      tpl_value v = tpl_arr_val(&a, i);
      int c = tpl_compare(rt, best, v);
      if (max ? c < 0 : c > 0)
        best = v;
    }
    return best;
  }
  tpl_value best = argv[0];
  for (int i = 1; i < argc; i++) {
    int c = tpl_compare(rt, argv[i], best);
    if (max ? c > 0 : c < 0)
      best = argv[i];
  }
  return best;
}

static tpl_value tpl_fn_max(tpl_rt *rt, tpl_ctx *ctx, int argc,
                            const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  return tpl_minmax(rt, argc, argv, true, loc);
}

static tpl_value tpl_fn_min(tpl_rt *rt, tpl_ctx *ctx, int argc,
                            const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  return tpl_minmax(rt, argc, argv, false, loc);
}

/* ---- range, cycle --------------------------------------------------- */

static tpl_value tpl_fn_range(tpl_rt *rt, tpl_ctx *ctx, int argc,
                              const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  return tpl_op_range(rt, ARG(0), ARG(1), ARG(2), loc);
}

static tpl_value tpl_fn_cycle(tpl_rt *rt, tpl_ctx *ctx, int argc,
                              const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  tpl_value values = ARG(0);
  if (values.type != TPL_LIST && values.type != TPL_MAP)
    return values;
  tpl_arr a;
  tpl_arr_of(rt, values, &a);
  tpl_value pos = tpl_op_mod(rt, ARG(1), tpl_int((int64_t)a.n), loc);
  return tpl_getattr(rt, values, pos, TPL_ATTR_ARRAY, loc);
}

/* ---- random --------------------------------------------------------- */

/* splitmix64 over the render's state: deterministic for a given seed. */
static uint64_t tpl_rand_next(tpl_rt *rt) {
  uint64_t z = (rt->rand_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Uniform in [lo, hi] without modulo bias. */
static int64_t tpl_rand_range(tpl_rt *rt, int64_t lo, int64_t hi) {
  uint64_t span = (uint64_t)hi - (uint64_t)lo;
  if (span == UINT64_MAX)
    return (int64_t)tpl_rand_next(rt);
  uint64_t n = span + 1, limit = UINT64_MAX - UINT64_MAX % n, r;
  do
    r = tpl_rand_next(rt);
  while (r >= limit);
  return (int64_t)((uint64_t)lo + r % n);
}

static tpl_value tpl_fn_random(tpl_rt *rt, tpl_ctx *ctx, int argc,
                               const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  tpl_value values = ARG(0), max = ARG(1);
  if (values.type == TPL_NULL) {
    if (max.type == TPL_NULL)
      return tpl_int(tpl_rand_range(rt, 0, 2147483647));
    values = tpl_int(0);
  }
  if (values.type == TPL_INT || values.type == TPL_FLOAT) {
    int64_t lo, hi;
    if (max.type == TPL_NULL) {
      int64_t v = tpl_to_int(values);
      lo = v < 0 ? v : 0;
      hi = v < 0 ? 0 : v;
    } else {
      lo = tpl_to_int(values);
      hi = tpl_to_int(max);
    }
    if (hi < lo)
      tpl_fail(rt, loc,
               "mt_rand(): Argument #2 ($max) must be greater than or "
               "equal to argument #1 ($min)");
    return tpl_int(tpl_rand_range(rt, lo, hi));
  }
  if (values.type == TPL_STR) {
    if (values.len == 0)
      return values;
    size_t n = tpl_utf8_len(values.u.s, values.len);
    size_t k = (size_t)tpl_rand_range(rt, 0, (int64_t)n - 1);
    size_t off = tpl_utf8_offset(values.u.s, values.len, k);
    size_t next = off + tpl_utf8_offset(values.u.s + off, values.len - off, 1);
    return tpl_str(values.u.s + off, next - off);
  }
  tpl_arr a;
  if (!tpl_arr_of(rt, values, &a))
    return values;
  if (a.n == 0)
    tpl_fail(rt, loc, "The random function cannot pick from an empty array.");
  return tpl_arr_val(&a, (size_t)tpl_rand_range(rt, 0, (int64_t)a.n - 1));
}

/* ---- templates ------------------------------------------------------ */

static tpl_value tpl_fn_include(tpl_rt *rt, tpl_ctx *ctx, int argc,
                                const tpl_value *argv, const tpl_loc *loc) {
  bool with_context =
      !(argc > 2 && argv[2].type != TPL_NULL && !tpl_truthy(argv[2]));
  bool ignore_missing = HAS(3) && tpl_truthy(argv[3]);
  return tpl_include_function(rt, ctx, ARG(0), ARG(1), with_context,
                              ignore_missing, loc);
}

static tpl_value tpl_fn_source(tpl_rt *rt, tpl_ctx *ctx, int argc,
                               const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  tpl_value name = ARG(0);
  if (name.type != TPL_STR)
    name = tpl_to_str(rt, name);
  const char *text;
  size_t len;
  if (!tpl_env_source(rt->env, name.u.s, name.len, &text, &len)) {
    if (HAS(1) && tpl_truthy(argv[1]))
      return tpl_null();
    tpl_fail(rt, loc, "template \"%.*s\" not found",
             (int)(name.len > 200 ? 200 : name.len), name.u.s);
  }
  /* A plain string, as in Twig: only static safety keeps it unescaped.
   * The text is the env's and outlives the render. */
  if (len > UINT32_MAX)
    len = UINT32_MAX;
  return tpl_str(text ? text : "", text ? len : 0);
}

static tpl_value tpl_fn_attribute(tpl_rt *rt, tpl_ctx *ctx, int argc,
                                  const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  return tpl_getattr(rt, ARG(0), ARG(1), TPL_ATTR_ANY, loc);
}

/* ---- dump ----------------------------------------------------------- */

static void tpl_var_dump(tpl_rt *rt, oc_sb *b, tpl_value v, int indent) {
  for (int i = 0; i < indent; i++)
    oc_sb_addc(b, ' ');
  switch (v.type) {
  case TPL_NULL:
    oc_sb_adds(b, "NULL\n");
    return;
  case TPL_BOOL:
    oc_sb_adds(b, v.u.b ? "bool(true)\n" : "bool(false)\n");
    return;
  case TPL_INT:
    oc_sb_printf(b, "int(%lld)\n", (long long)v.u.i);
    return;
  case TPL_FLOAT: {
    char buf[64];
    tpl_gcvt(v.u.f, 0, 'E', buf);
    oc_sb_printf(b, "float(%s)\n", buf);
    return;
  }
  case TPL_STR:
    oc_sb_printf(b, "string(%u) \"", (unsigned)v.len);
    oc_sb_add(b, v.u.s, v.len);
    oc_sb_adds(b, "\"\n");
    return;
  case TPL_LIST:
  case TPL_MAP: {
    tpl_arr a;
    tpl_arr_of(rt, v, &a);
    oc_sb_printf(b, "array(%zu) {\n", a.n);
    for (size_t i = 0; i < a.n; i++) {
      tpl_value k = tpl_arr_key(&a, i);
      for (int j = 0; j < indent + 2; j++)
        oc_sb_addc(b, ' ');
      if (k.type == TPL_INT)
        oc_sb_printf(b, "[%lld]=>\n", (long long)k.u.i);
      else {
        oc_sb_adds(b, "[\"");
        oc_sb_add(b, k.u.s, k.len);
        oc_sb_adds(b, "\"]=>\n");
      }
      tpl_var_dump(rt, b, tpl_arr_val(&a, i), indent + 2);
    }
    for (int i = 0; i < indent; i++)
      oc_sb_addc(b, ' ');
    oc_sb_adds(b, "}\n");
    return;
  }
  default:
    oc_sb_printf(b, "object(%s)\n", tpl_type_name(v));
  }
}

static tpl_value tpl_fn_dump(tpl_rt *rt, tpl_ctx *ctx, int argc,
                             const tpl_value *argv, const tpl_loc *loc) {
  (void)loc;
  if (!rt->debug)
    return tpl_null();
  oc_sb b;
  oc_sb_init(&b, rt->arena, 128);
  if (argc == 0)
    tpl_var_dump(rt, &b, tpl_ctx_to_map(rt, ctx), 0);
  for (int i = 0; i < argc; i++)
    tpl_var_dump(rt, &b, argv[i], 0);
  return tpl_sb_value(&b);
}

/* ---- the table ------------------------------------------------------ */

static const tpl_callable tpl_functions[] = {
    {"attribute", tpl_fn_attribute, "object,attribute,arguments", 2, 0, 0, 0},
    {"block", NULL, "name,template", 1, TPL_CALL_NEEDS_TEMPLATE, TPL_SAFE_ALL,
     0},
    {"cycle", tpl_fn_cycle, "values,position", 2, 0, 0, 0},
    {"date", tpl_date_function, "date,timezone", 0, 0, 0, 0},
    {"dump", tpl_fn_dump, "vars", 0, TPL_CALL_VARIADIC, 1u << TPL_ESC_HTML, 0},
    {"include", tpl_fn_include,
     "template,variables,with_context,ignore_missing,sandboxed", 1, 0,
     TPL_SAFE_ALL, 0},
    {"max", tpl_fn_max, "value,values", 1, TPL_CALL_VARIADIC, 0, 0},
    {"min", tpl_fn_min, "value,values", 1, TPL_CALL_VARIADIC, 0, 0},
    {"parent", NULL, "", 0, TPL_CALL_NEEDS_TEMPLATE, TPL_SAFE_ALL, 0},
    {"random", tpl_fn_random, "values,max", 0, 0, 0, 0},
    {"range", tpl_fn_range, "low,high,step", 2, 0, 0, 0},
    {"source", tpl_fn_source, "name,ignore_missing", 1, 0, TPL_SAFE_ALL, 0},
};

const tpl_callable *tpl_find_function(const char *name, size_t len) {
  for (size_t i = 0; i < sizeof tpl_functions / sizeof tpl_functions[0]; i++)
    if (strlen(tpl_functions[i].name) == len &&
        memcmp(tpl_functions[i].name, name, len) == 0)
      return &tpl_functions[i];
  return NULL;
}
