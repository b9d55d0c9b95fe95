/* Twig 3.5's core tests (`is even`, `is empty`, `is same as`...) as PHP
 * evaluates their compiled forms, and the test table the checker resolves
 * names against. `defined` is a special node of the checker. */
#include "tpl_lib.h"

#define ARG(i) ((i) < argc ? argv[(i)] : tpl_null())

static tpl_value tpl_t_divisible_by(tpl_rt *rt, tpl_ctx *ctx, int argc,
                                    const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  tpl_value r = tpl_op_mod(rt, ARG(0), ARG(1), loc);
  return tpl_bool(r.u.i == 0);
}

static tpl_value tpl_t_even(tpl_rt *rt, tpl_ctx *ctx, int argc,
                            const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  return tpl_bool(tpl_op_mod(rt, ARG(0), tpl_int(2), loc).u.i == 0);
}

static tpl_value tpl_t_odd(tpl_rt *rt, tpl_ctx *ctx, int argc,
                           const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx;
  return tpl_bool(tpl_op_mod(rt, ARG(0), tpl_int(2), loc).u.i != 0);
}

static tpl_value tpl_t_empty(tpl_rt *rt, tpl_ctx *ctx, int argc,
                             const tpl_value *argv, const tpl_loc *loc) {
  (void)ctx, (void)loc;
  return tpl_bool(tpl_is_empty(rt, ARG(0)));
}

static tpl_value tpl_t_iterable(tpl_rt *rt, tpl_ctx *ctx, int argc,
                                const tpl_value *argv, const tpl_loc *loc) {
  (void)rt, (void)ctx, (void)loc;
  return tpl_bool(tpl_is_iterable(ARG(0)));
}

static tpl_value tpl_t_null(tpl_rt *rt, tpl_ctx *ctx, int argc,
                            const tpl_value *argv, const tpl_loc *loc) {
  (void)rt, (void)ctx, (void)loc;
  return tpl_bool(ARG(0).type == TPL_NULL);
}

static tpl_value tpl_t_same_as(tpl_rt *rt, tpl_ctx *ctx, int argc,
                               const tpl_value *argv, const tpl_loc *loc) {
  (void)rt, (void)ctx, (void)loc;
  tpl_value a = ARG(0), b = ARG(1);
  /* A captured string is Twig's Markup object, never === a string. */
  if (a.type == TPL_STR && b.type == TPL_STR && a.safe != b.safe)
    return tpl_bool(false);
  return tpl_bool(tpl_identical(a, b));
}

static const tpl_callable tpl_tests[] = {
    {"defined", NULL, "", 0, TPL_CALL_NEEDS_TEMPLATE, 0, 0},
    {"divisible by", tpl_t_divisible_by, "num", 1, 0, 0, 0},
    {"empty", tpl_t_empty, "", 0, 0, 0, 0},
    {"even", tpl_t_even, "", 0, 0, 0, 0},
    {"iterable", tpl_t_iterable, "", 0, 0, 0, 0},
    {"none", tpl_t_null, "", 0, 0, 0, 0},
    {"null", tpl_t_null, "", 0, 0, 0, 0},
    {"odd", tpl_t_odd, "", 0, 0, 0, 0},
    {"same as", tpl_t_same_as, "value", 1, 0, 0, 0},
};

const tpl_callable *tpl_find_test(const char *name, size_t len) {
  for (size_t i = 0; i < sizeof tpl_tests / sizeof tpl_tests[0]; i++)
    if (strlen(tpl_tests[i].name) == len &&
        memcmp(tpl_tests[i].name, name, len) == 0)
      return &tpl_tests[i];
  return NULL;
}
