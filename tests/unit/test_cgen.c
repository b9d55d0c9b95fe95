/* Tests the C back end without the parser: the hand-built ASTs of
 * cgen_asts.c were compiled to C at build time (cgen_fixture.c); here the
 * same ASTs run through the interpreter, and every template must print the
 * same bytes both ways (and, for some, the bytes expected). Also checks the
 * generator's helpers. Ends with "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgen_asts.h"
#include "tpl_cgen.h"
#include "tpl_interp.h"

extern const tpl_template *const cgen_fixture_templates[];
extern const size_t cgen_fixture_ntemplates;
extern const tpl_template *const cgen_diff_templates[];
extern const size_t cgen_diff_ntemplates;

static int passed, failed;

static void check(bool ok, const char *what) {
  if (ok) {
    passed++;
  } else {
    failed++;
    printf("FAIL %s\n", what);
  }
}

typedef struct interp_set {
  const tpl_template *t[64];
  size_t n;
} interp_set;

static int interp_find(void *data, tpl_env *env, const char *name, size_t len,
                       const tpl_template **out, tpl_diag *diag) {
  (void)env;
  (void)diag;
  interp_set *s = data;
  for (size_t i = 0; i < s->n; i++)
    if (strlen(s->t[i]->name) == len && !memcmp(s->t[i]->name, name, len)) {
      *out = s->t[i];
      return 1;
    }
  return 0;
}

static tpl_value data_of(oc_arena *a) {
  tpl_map *m = tpl_map_new(a, 4);
  tpl_map_set_str(a, m, "a", tpl_int(3));
  tpl_map_set_str(a, m, "s", tpl_str("<b>", 3));
  tpl_list *l = tpl_list_new(a, 3);
  for (int i = 0; i < 3; i++)
    l->items[i] = tpl_int(i + 1);
  tpl_map_set_str(a, m, "list", tpl_list_value(l));
  tpl_map *mm = tpl_map_new(a, 1);
  tpl_map_set_str(a, mm, "k", tpl_str("v", 1));
  tpl_map_set_str(a, m, "m", tpl_map_value(mm));
  return tpl_map_value(m);
}

static int render(tpl_env *env, const char *name, char **out, size_t *len,
                  char *err, size_t errlen) {
  tpl_diag d;
  if (tpl_render(env, name, data_of(tpl_env_arena(env)), out, len, &d) != 0) {
    snprintf(err, errlen, "%s:%u:%u: error: %s", d.file, d.line, d.col,
             d.message);
    *out = NULL;
    *len = 0;
    return -1;
  }
  return 0;
}

static void test_helpers(void) {
  check(tpl_cgen_is_ident("octavo_theme_x1"), "is_ident accepts");
  check(!tpl_cgen_is_ident("1x") && !tpl_cgen_is_ident("a-b") &&
            !tpl_cgen_is_ident(""),
        "is_ident rejects");
  char *h = tpl_cgen_header("octavo_theme_demo", "themes/demo");
  check(h && strstr(h, "#ifndef OCTAVO_THEME_DEMO_H") &&
            strstr(h, "extern const tpl_template *const "
                      "octavo_theme_demo_templates[];") &&
            strstr(h, "extern const size_t octavo_theme_demo_ntemplates;"),
        "header declares the registry");
  free(h);
}

static const char diff_data[] =
    "{\"a\": 1, \"b\": \"<x>\", \"list\": [1, 2, 3], \"m\": {\"k\": \"v\", "
    "\"n\": {\"d\": 4}}, \"rows\": [{\"t\": \"r1\", \"c\": [1, 2]}, {\"t\": "
    "\"r2\", \"c\": []}], \"z\": null}";

/* Renders template `name` of env with the diff data; output or error. */
static void render_diff(tpl_env *env, const char *name, char **out, size_t *len,
                        char *err, size_t errlen) {
  tpl_value data;
  tpl_diag d;
  *out = NULL;
  *len = 0;
  err[0] = 0;
  if (tpl_data_parse(tpl_env_arena(env), "data", diff_data,
                     sizeof diff_data - 1, &data, &d) != 0) {
    snprintf(err, errlen, "bad data: %s", d.message);
    return;
  }
  if (tpl_render(env, name, data, out, len, &d) != 0)
    snprintf(err, errlen, "%s:%u:%u: error: %s", d.file, d.line, d.col,
             d.message);
}

/* Every source, compiled (cgen_fixture.c) and interpreted, in normal and
 * strict mode with one seed: the same bytes or the same error. */
static void test_sources(void) {
  oc_arena *a = oc_arena_new();
  tpl_ast_template *asts[64];
  size_t n = cgen_parse_sources(a, asts, 64);
  check(n > 0 && n == cgen_diff_ntemplates, "sources parse");
  interp_set set = {.n = n};
  for (size_t i = 0; i < n; i++)
    set.t[i] = tpl_interp_build(a, asts[i]);
  for (int strict = 0; strict < 2; strict++) {
    for (size_t i = 0; i < n; i++) {
      const char *name = asts[i]->name;
      tpl_env *ce = tpl_env_new(), *ie = tpl_env_new();
      tpl_env_add_compiled(ce, cgen_diff_templates, cgen_diff_ntemplates);
      tpl_env_add_source(ie, (tpl_source){interp_find, &set});
      tpl_env_set_strict(ce, strict);
      tpl_env_set_strict(ie, strict);
      tpl_env_set_random_seed(ce, 42);
      tpl_env_set_random_seed(ie, 42);
      char *co, *io, cerr[1200], ierr[1200];
      size_t cl, il;
      render_diff(ce, name, &co, &cl, cerr, sizeof cerr);
      render_diff(ie, name, &io, &il, ierr, sizeof ierr);
      bool same =
          cl == il && (cl == 0 || !memcmp(co, io, cl)) && !strcmp(cerr, ierr);
      char what[300];
      snprintf(what, sizeof what, "%s%s: compiled and interpreted agree", name,
               strict ? " (strict)" : "");
      check(same, what);
      if (!same || getenv("CGEN_VERBOSE")) {
        printf("  compiled:    %.*s%s\n", (int)cl, co ? co : "", cerr);
        printf("  interpreted: %.*s%s\n", (int)il, io ? io : "", ierr);
      }
      free(co);
      free(io);
      tpl_env_free(ce);
      tpl_env_free(ie);
    }
  }
  oc_arena_free(a);
}

/* The environment of one back end for test_limits: compiled, or the
 * sources interpreted. */
static tpl_env *limits_env(bool compiled, interp_set *set) {
  tpl_env *env = tpl_env_new();
  if (compiled)
    tpl_env_add_compiled(env, cgen_diff_templates, cgen_diff_ntemplates);
  else
    tpl_env_add_source(env, (tpl_source){interp_find, set});
  return env;
}

/* Renders `name` `times` times in env (then frees it): the outcomes, one
 * a line, must be `want`. */
static void check_runs(tpl_env *env, const char *name, int times,
                       const char *want, const char *what) {
  char got[4096];
  size_t used = 0;
  got[0] = 0;
  for (int i = 0; i < times; i++) {
    char *out, err[1200];
    size_t len;
    render_diff(env, name, &out, &len, err, sizeof err);
    int n = snprintf(got + used, sizeof got - used, "%d: %s\n", i,
                     err[0] ? err : "ok");
    if (n > 0 && (size_t)n < sizeof got - used)
      used += (size_t)n;
    free(out);
  }
  tpl_env_free(env);
  check(!strcmp(got, want), what);
  if (strcmp(got, want))
    printf("  got:\n%s", got);
}

/* Budgets shared by an environment's renders, and printed NUL bytes: the
 * compiled and the interpreted template fail on the same render, at the
 * same place, with the same words. */
static void test_limits(void) {
  oc_arena *a = oc_arena_new();
  tpl_ast_template *asts[64];
  size_t n = cgen_parse_sources(a, asts, 64);
  interp_set set = {.n = n};
  for (size_t i = 0; i < n; i++)
    set.t[i] = tpl_interp_build(a, asts[i]);
  for (int compiled = 0; compiled < 2; compiled++) {
    char what[200];
    const char *how = compiled ? "compiled" : "interpreted";
    /* Thirteen steps a render (the template, three iterations of the outer
     * loop, nine of the inner): two renders fit in thirty steps, not the
     * third, and the fourth fails before it starts. */
    tpl_env *env = limits_env(compiled, &set);
    tpl_env_set_work_limit(env, 30, "the test's");
    tpl_env_set_budgets_shared(env, true);
    char *out;
    size_t len;
    render_diff(env, "budget_loops.twig", &out, &len, what, sizeof what);
    free(out);
    check(tpl_env_work_spent(env) == 13 && !tpl_env_budget_exhausted(env),
          "the work spent is counted");
    snprintf(what, sizeof what, "%s: the work budget is all renders'", how);
    check_runs(env, "budget_loops.twig", 3,
               "0: ok\n1: budget_loops.twig:2:23: error: the template's work "
               "budget is exhausted: more than 30 loop iterations and calls "
               "(the cap is the test's)\n2: budget_loops.twig:0:0: error: the "
               "budget was exhausted by an earlier render\n",
               what);
    /* Not shared: each render has the whole budget. */
    env = limits_env(compiled, &set);
    tpl_env_set_work_limit(env, 30, "the test's");
    snprintf(what, sizeof what, "%s: the work budget is per render", how);
    check_runs(env, "budget_loops.twig", 4, "0: ok\n1: ok\n2: ok\n3: ok\n",
               what);
    /* Output: 22 bytes a render ("<1>\n" and nine pairs). */
    env = limits_env(compiled, &set);
    tpl_env_set_output_limit(env, 50, "the test's");
    tpl_env_set_budgets_shared(env, true);
    snprintf(what, sizeof what, "%s: the output budget is all renders'", how);
    check_runs(env, "budget_loops.twig", 3,
               "0: ok\n1: ok\n2: budget_loops.twig:2:46: error: the "
               "template's output budget is exhausted: more than 50 bytes of "
               "output (the cap is the test's)\n",
               what);
    /* A printed NUL byte, escaped and raw. */
    static const char *const nul[][2] = {
        {"nul_escaped.twig", "0: nul_escaped.twig:2:3: error: the template "
                             "prints a NUL byte, which would cut the page "
                             "short there\n"},
        {"nul_raw.twig", "0: nul_raw.twig:2:32: error: the template prints a "
                         "NUL byte, which would cut the page short there\n"}};
    for (size_t i = 0; i < 2; i++) {
      snprintf(what, sizeof what, "%s: %s fails", how, nul[i][0]);
      env = limits_env(compiled, &set);
      tpl_env_set_nul_forbidden(env, true);
      check_runs(env, nul[i][0], 1, nul[i][1], what);
    }
  }
  oc_arena_free(a);
}

int main(void) {
  test_helpers();

  oc_arena *a = oc_arena_new();
  tpl_ast_template *asts[16];
  size_t n = cgen_fixture_asts(a, asts, 16);
  check(n == cgen_fixture_ntemplates, "registry size");
  interp_set set = {.n = n};
  for (size_t i = 0; i < n; i++)
    set.t[i] = tpl_interp_build(a, asts[i]);

  for (size_t i = 0; i < n && i < cgen_fixture_ntemplates; i++) {
    const char *name = cgen_fixture_templates[i]->name;
    check(!strcmp(name, asts[i]->name), "registry order");
    tpl_env *ce = tpl_env_new(), *ie = tpl_env_new();
    tpl_env_add_compiled(ce, cgen_fixture_templates, cgen_fixture_ntemplates);
    tpl_env_add_source(ie, (tpl_source){interp_find, &set});
    char *co, *io, cerr[1200] = "", ierr[1200] = "";
    size_t cl, il;
    int crc = render(ce, name, &co, &cl, cerr, sizeof cerr);
    int irc = render(ie, name, &io, &il, ierr, sizeof ierr);
    char what[300];
    snprintf(what, sizeof what, "%s: compiled and interpreted agree", name);
    bool same = crc == irc && cl == il && (cl == 0 || !memcmp(co, io, cl)) &&
                !strcmp(cerr, ierr);
    check(same, what);
    if (!same || getenv("CGEN_VERBOSE")) {
      printf("  %s compiled (%d): %.*s%s\n", name, crc, (int)cl, co ? co : "",
             cerr);
      printf("  %s interpreted (%d): %.*s%s\n", name, irc, (int)il,
             io ? io : "", ierr);
    }
    if (!strcmp(name, "text.twig")) {
      static const char tricky[] =
          "a\0b?\?=c?\?/d\"e\\f\xff\xc3\xa9\xe2\x80\xa8"
          "g\x7f\x01h\r\n\t?"
          "?(?"
          "?)?\?'"
          "421|<i>|-0|0.1|";
      bool ok = crc == 0 && cl == sizeof tricky - 1 + 9000 &&
                !memcmp(co, tricky, sizeof tricky - 1);
      for (size_t k = 0; ok && k < 9000; k++)
        ok = co[sizeof tricky - 1 + k] ==
             (k % 97 == 96 ? '\n' : (char)('a' + k % 26));
      check(ok, "text.twig: literal bytes survive the C compiler");
    }
    free(co);
    free(io);
    tpl_env_free(ce);
    tpl_env_free(ie);
  }
  oc_arena_free(a);
  test_sources();
  test_limits();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
