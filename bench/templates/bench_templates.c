/* bench/templates: times one realistic page (a 2,000-entry table of contents
 * and a 500-paragraph chapter, themes/sample/page.html.twig) rendered by the
 * compiled theme and by the interpreter, in-process, excluding start-up and
 * data loading; prints the medians. bench/templates/run compares them with
 * PHP Twig 3.5. `--render` prints the compiled output instead (make demo). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sample.h"
#include "tpl_loader.h"
#include "tpl_rt.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int render(tpl_env *env, tpl_value data, char **out, size_t *len) {
  tpl_diag diag;
  if (tpl_render(env, "page.html.twig", data, out, len, &diag) != 0) {
    tpl_diag_print(stderr, &diag);
    return -1;
  }
  return 0;
}

/* Times `runs` renders after one warm-up; returns the median in ms. */
static int time_renders(tpl_env *env, tpl_value data, int runs,
                        double *median_ms, char **first_out,
                        size_t *first_len) {
  if (render(env, data, first_out, first_len) != 0)
    return -1;
  double *t = malloc(sizeof *t * (size_t)runs);
  if (!t)
    return -1;
  for (int i = 0; i < runs; i++) {
    char *out;
    size_t len;
    double t0 = now_ms();
    if (render(env, data, &out, &len) != 0) {
      free(t);
      return -1;
    }
    t[i] = now_ms() - t0;
    free(out);
  }
  *median_ms = median(t, runs);
  free(t);
  return 0;
}

/* The data lives in the env's arena, loaded once, outside the timings. */
static tpl_env *make_env(const char *data_path, const char *theme_dir,
                         bool compiled, tpl_value *data) {
  tpl_env *env = tpl_env_new();
  tpl_diag diag;
  if (tpl_data_load(tpl_env_arena(env), data_path, data, &diag) != 0) {
    tpl_diag_print(stderr, &diag);
    tpl_env_free(env);
    return NULL;
  }
  if (compiled) {
    tpl_env_add_compiled(env, octavo_theme_sample_templates,
                         octavo_theme_sample_ntemplates);
  } else {
    tpl_loader_add_dir(tpl_loader_new(env), theme_dir);
  }
  return env;
}

int main(int argc, char **argv) {
  int runs = 200;
  bool render_only = false, compiled_only = false; /* for profilers */
  int i = 1;
  for (; i < argc && argv[i][0] == '-'; i++) {
    if (!strcmp(argv[i], "--render"))
      render_only = true;
    else if (!strcmp(argv[i], "--compiled-only"))
      compiled_only = true;
    else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
      runs = atoi(argv[++i]);
    else
      break;
  }
  if (argc - i != 2 || runs < 1) {
    fprintf(stderr, "usage: bench_templates [--runs N] [--render | --compiled-only] THEME_DIR "
                    "DATA.json\n");
    return 2;
  }
  const char *theme_dir = argv[i], *data_path = argv[i + 1];

  tpl_value c_data, i_data;
  tpl_env *compiled = make_env(data_path, theme_dir, true, &c_data);
  if (!compiled)
    return 1;
  char *c_out;
  size_t c_len;
  if (compiled_only) {
    double c_ms;
    int rc = time_renders(compiled, c_data, runs, &c_ms, &c_out, &c_len);
    if (rc == 0) {
      printf("bytes %zu\ncompiled_ms %.4f\n", c_len, c_ms);
      free(c_out);
    }
    tpl_env_free(compiled);
    return rc == 0 ? 0 : 1;
  }
  if (render_only) {
    int rc = render(compiled, c_data, &c_out, &c_len);
    if (rc == 0) {
      fwrite(c_out, 1, c_len, stdout);
      free(c_out);
    }
    tpl_env_free(compiled);
    return rc == 0 ? 0 : 1;
  }
  tpl_env *interp = make_env(data_path, theme_dir, false, &i_data);
  if (!interp)
    return 1;
  double c_ms, i_ms;
  char *i_out;
  size_t i_len;
  int rc = 1;
  if (time_renders(compiled, c_data, runs, &c_ms, &c_out, &c_len) == 0) {
    if (time_renders(interp, i_data, runs, &i_ms, &i_out, &i_len) == 0) {
      if (c_len != i_len || memcmp(c_out, i_out, c_len) != 0) {
        fprintf(stderr, "bench_templates: compiled and interpreted output "
                        "differ\n");
      } else {
        printf("bytes %zu\ncompiled_ms %.4f\ninterpreted_ms %.4f\n", c_len,
               c_ms, i_ms);
        rc = 0;
      }
      free(i_out);
    }
    free(c_out);
  }
  tpl_env_free(interp);
  tpl_env_free(compiled);
  return rc;
}
