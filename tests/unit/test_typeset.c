/* The PDF engine end to end on small documents. With arguments it
 * typesets a file: test_typeset DOC.xhtml [SHEET.css...] OUT.pdf. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tpl_lib.h"
#include "ts_engine.h"

static void print_diag(void *user, bk_severity sev, const char *file,
                       unsigned line, unsigned col, const char *msg) {
  (void)user;
  fprintf(stderr, "%s:%u:%u: %s: %s\n", file, line, col,
          sev == BK_ERROR ? "error" : sev == BK_WARNING ? "warning" : "note",
          msg);
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  *len = fread(b, 1, (size_t)n, f);
  b[*len] = 0;
  fclose(f);
  return b;
}

static int render(const char *doc, size_t len, const char **css, size_t ncss,
                  const char *out, ts_engine_stats *st) {
  tpl_arena *a = tpl_arena_new();
  bk_reporter rep = {print_diag, NULL};
  const css_stylesheet **sheets = malloc((ncss + 1) * sizeof *sheets);
  for (size_t i = 0; i < ncss; i++)
    sheets[i] = css_parse(a, css[i], strlen(css[i]), "test.css",
                          CSS_ORIGIN_AUTHOR, &rep);
  ts_engine_input in = {.xhtml = doc,
                        .len = len,
                        .name = "doc.xhtml",
                        .sheets = sheets,
                        .nsheets = ncss,
                        .lang = "en",
                        .rep = &rep,
                        .info = {.title = "Test", .author = "Octavo"}};
  int rc = ts_engine_render(a, &in, out, st);
  free(sheets);
  tpl_arena_free(a);
  return rc;
}

int main(int argc, char **argv) {
  if (argc >= 3) {
    size_t len;
    char *doc = slurp(argv[1], &len);
    if (!doc) {
      perror(argv[1]);
      return 1;
    }
    const char *css[16];
    size_t ncss = 0;
    for (int i = 2; i < argc - 1 && ncss < 16; i++) {
      size_t l;
      css[ncss] = slurp(argv[i], &l);
      if (!css[ncss]) {
        perror(argv[i]);
        return 1;
      }
      ncss++;
    }
    ts_engine_stats st = {0};
    int rc = render(doc, len, css, ncss, argv[argc - 1], &st);
    fprintf(stderr, "%zu pages, %zu lines, %d passes\n", st.pages, st.lines,
            st.passes);
    return rc ? 1 : 0;
  }
  printf("typeset: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
