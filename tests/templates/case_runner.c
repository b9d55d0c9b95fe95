/* Runs the template case suite (tests/templates/cases) through the
 * interpreter and through the compiled copies compile_cases.c made of the
 * same cases, comparing each output, or each first error line, with the
 * case's expectation. Ends with "N passed, N failed, N skipped". */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compiled_cases.h"
#include "oc_alloc.h"
#include "tpl_case.h"
#include "tpl_loader.h"
#include "tpl_rt.h"

typedef struct case_list {
  char **paths;
  size_t len, cap;
} case_list;

static int collect(const char *dir, case_list *list) {
  DIR *d = opendir(dir);
  if (!d)
    return -1;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.')
      continue;
    size_t n = strlen(dir) + strlen(e->d_name) + 2;
    char *path = oc_malloc(n);
    snprintf(path, n, "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
      collect(path, list);
      free(path);
    } else if (n > 6 && !strcmp(path + n - 6, ".test")) {
      OC_GROW(list->paths, list->cap, list->len + 1);
      list->paths[list->len++] = path;
    } else {
      free(path);
    }
  }
  closedir(d);
  return 0;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Renders index.twig through env; fills the output or the first error line. */
static int run_env(tpl_env *env, const tpl_case *c, const tpl_case_config *cfg,
                   char **out, size_t *out_len, char *errline, size_t errlen) {
  tpl_env_set_strict(env, cfg->strict);
  if (cfg->has_seed)
    tpl_env_set_random_seed(env, cfg->seed);
  if (cfg->max_iterations)
    tpl_env_set_work_limit(env, cfg->max_iterations, "max_iterations");
  if (cfg->max_output)
    tpl_env_set_output_limit(env, (size_t)cfg->max_output, "max_output");
  tpl_value data = tpl_null();
  tpl_diag diag;
  if (c->data && tpl_data_parse(tpl_env_arena(env), "DATA", c->data,
                                strlen(c->data), &data, &diag) != 0) {
    snprintf(errline, errlen, "bad --DATA--: %s:%u:%u: %s", diag.file,
             diag.line, diag.col, diag.message);
    return 2;
  }
  if (tpl_render(env, "index.twig", data, out, out_len, &diag) != 0) {
    snprintf(errline, errlen, "%s:%u:%u: error: %s", diag.file, diag.line,
             diag.col, diag.message);
    return 1;
  }
  return 0;
}

static const tpl_compiled_case *find_compiled(const char *rel) {
  for (size_t i = 0; i < tpl_ncompiled_cases; i++)
    if (!strcmp(tpl_compiled_cases[i].path, rel))
      return &tpl_compiled_cases[i];
  return NULL;
}

typedef struct tally {
  int passed, failed, skipped;
} tally;

static void check(tally *t, const char *mode, const tpl_case *c, int rc,
                  const char *out, size_t out_len, const char *errline,
                  bool verbose) {
  bool ok;
  if (c->expect)
    ok =
        rc == 0 && out_len == c->expect_len && !memcmp(out, c->expect, out_len);
  else
    ok = rc == 1 && !strcmp(errline, c->exception);
  if (ok) {
    t->passed++;
    if (verbose)
      printf("ok   %s [%s]\n", c->path, mode);
    return;
  }
  t->failed++;
  printf("FAIL %s [%s]: %s\n", c->path, mode, c->test ? c->test : "");
  if (c->expect)
    printf("  expected: \"%s\"\n", c->expect);
  else
    printf("  expected error: %s\n", c->exception);
  if (rc == 0)
    printf("  got:      \"%.*s\"\n", (int)out_len, out);
  else
    printf("  got error: %s\n", errline);
}

int main(int argc, char **argv) {
  bool interp = false, compiled = false, verbose = false;
  const char *dir = NULL, *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--interpreted"))
      interp = true;
    else if (!strcmp(argv[i], "--compiled"))
      compiled = true;
    else if (!strcmp(argv[i], "-v"))
      verbose = true;
    else if (!strcmp(argv[i], "--only") && i + 1 < argc)
      only = argv[++i];
    else if (argv[i][0] != '-' && !dir)
      dir = argv[i];
    else {
      fprintf(stderr, "usage: case_runner [--interpreted] [--compiled] [-v] "
                      "[--only SUBSTRING] CASES_DIR\n");
      return 2;
    }
  }
  if (!dir) {
    fprintf(stderr, "case_runner: no cases folder given\n");
    return 2;
  }
  if (!interp && !compiled)
    interp = compiled = true;

  case_list list = {0};
  if (collect(dir, &list) != 0) {
    fprintf(stderr, "case_runner: cannot read %s\n", dir);
    return 2;
  }
  qsort(list.paths, list.len, sizeof *list.paths, cmp_str);

  tally t = {0};
  size_t dirlen = strlen(dir);
  for (size_t i = 0; i < list.len; i++) {
    const char *rel = list.paths[i] + dirlen + 1;
    if (only && !strstr(rel, only)) {
      free(list.paths[i]);
      continue;
    }
    tpl_case c;
    char err[1024];
    if (tpl_case_load(list.paths[i], &c, err, sizeof err) != 0) {
      printf("FAIL %s\n", err);
      t.failed++;
      free(list.paths[i]);
      continue;
    }
    oc_arena *scratch = oc_arena_new();
    tpl_case_config cfg;
    if (tpl_case_read_config(scratch, &c, &cfg, err, sizeof err) != 0) {
      printf("FAIL %s: %s\n", c.path, err);
      t.failed++;
    } else {
      char errline[1024];
      char *out = NULL;
      size_t out_len = 0;
      if (interp) {
        tpl_env *env = tpl_env_new();
        tpl_env_set_autoescape(env, cfg.autoescape);
        tpl_loader *loader = tpl_loader_new(env);
        for (size_t k = 0; k < c.ntemplates; k++)
          tpl_loader_add_string(loader, c.templates[k].name,
                                c.templates[k].source, c.templates[k].len);
        int rc =
            run_env(env, &c, &cfg, &out, &out_len, errline, sizeof errline);
        check(&t, "interpreted", &c, rc, out, out_len, errline, verbose);
        free(out);
        out = NULL;
        tpl_env_free(env);
      }
      if (compiled) {
        const tpl_compiled_case *cc = find_compiled(rel);
        if (!cc) {
          /* Cases whose templates do not compile test compile-time errors,
           * which the interpreted run checks through the same front end. */
          if (c.expect) {
            printf("FAIL %s [compiled]: not compiled by themec\n", c.path);
            t.failed++;
          } else {
            t.skipped++;
          }
        } else {
          tpl_env *env = tpl_env_new();
          tpl_env_add_compiled(env, cc->templates, cc->ntemplates);
          int rc =
              run_env(env, &c, &cfg, &out, &out_len, errline, sizeof errline);
          check(&t, "compiled", &c, rc, out, out_len, errline, verbose);
          free(out);
          tpl_env_free(env);
        }
      }
    }
    oc_arena_free(scratch);
    tpl_case_free(&c);
    free(list.paths[i]);
  }
  free(list.paths);
  printf("%d passed, %d failed, %d skipped\n", t.passed, t.failed, t.skipped);
  return t.failed ? 1 : 0;
}
