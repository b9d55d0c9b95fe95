/* Times bk_md_render against cmark-gfm alone (parse and render with the
 * same extensions and options) over the Markdown files given, e.g. the
 * chapters of make-corpus's large book:
 *
 *   bench_markdown [-n RUNS] /tmp/large/Contents/chapter*.md
 *
 * Prints the best run of each and their ratio. Not a test: timings depend
 * on the machine. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>

#include "book_md.h"

typedef struct source {
  char *text;
  size_t len;
  const char *name;
} source;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool read_file(const char *path, source *s) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return false;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  s->text = malloc((size_t)n + 1);
  s->len = s->text ? fread(s->text, 1, (size_t)n, f) : 0;
  s->name = path;
  fclose(f);
  return s->text != NULL;
}

static size_t cmark_alone(const source *srcs, int n) {
  int options = CMARK_OPT_UNSAFE | CMARK_OPT_FOOTNOTES |
                CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES;
  static const char *const exts[] = {"table", "strikethrough", "autolink",
                                     "tasklist"};
  size_t out = 0;
  for (int i = 0; i < n; i++) {
    cmark_parser *p = cmark_parser_new(options);
    for (size_t e = 0; e < sizeof exts / sizeof exts[0]; e++)
      cmark_parser_attach_syntax_extension(
          p, cmark_find_syntax_extension(exts[e]));
    cmark_parser_feed(p, srcs[i].text, srcs[i].len);
    cmark_node *doc = cmark_parser_finish(p);
    char *html =
        cmark_render_html(doc, options, cmark_parser_get_syntax_extensions(p));
    out += strlen(html);
    free(html);
    cmark_node_free(doc);
    cmark_parser_free(p);
  }
  return out;
}

static const char *label(void *user, int number) {
  (void)user;
  (void)number;
  return "Figure";
}

static size_t octavo(const source *srcs, int n, bk_slugger *slugger) {
  oc_arena *a = oc_arena_new();
  bk_md_options opt = {0};
  opt.ids = bk_idset_new(a);
  opt.slugger = slugger;
  opt.extract_title = true;
  opt.hooks.figure_label = label;
  opt.hooks.table_label = label;
  size_t out = 0;
  for (int i = 0; i < n; i++) {
    char prefix[16];
    snprintf(prefix, sizeof prefix, "%d", i + 1);
    opt.file = srcs[i].name;
    opt.id_prefix = prefix;
    bk_md_result r;
    if (bk_md_render(a, srcs[i].text, srcs[i].len, &opt, &r) == 0)
      out += r.html_len;
  }
  oc_arena_free(a);
  return out;
}

int main(int argc, char **argv) {
  int runs = 20, first = 1;
  if (argc > 2 && strcmp(argv[1], "-n") == 0) {
    runs = atoi(argv[2]);
    first = 3;
  }
  int n = argc - first;
  if (n <= 0 || runs <= 0) {
    fputs("usage: bench_markdown [-n RUNS] FILE.md...\n", stderr);
    return 2;
  }
  source *srcs = calloc((size_t)n, sizeof *srcs);
  size_t bytes = 0;
  for (int i = 0; i < n; i++) {
    if (!srcs || !read_file(argv[first + i], &srcs[i])) {
      fprintf(stderr, "bench_markdown: cannot read %s\n", argv[first + i]);
      return 1;
    }
    bytes += srcs[i].len;
  }
  cmark_gfm_core_extensions_ensure_registered();
  bk_slugger *slugger = bk_slugger_new();
  double best_c = 1e9, best_o = 1e9;
  size_t out_c = 0, out_o = 0;
  /* Alternate the two so that both see the same machine state. */
  for (int r = 0; r < runs; r++) {
    double t0 = now();
    out_c = cmark_alone(srcs, n);
    double t1 = now();
    out_o = octavo(srcs, n, slugger);
    double t2 = now();
    if (t1 - t0 < best_c)
      best_c = t1 - t0;
    if (t2 - t1 < best_o)
      best_o = t2 - t1;
  }
  printf("%d files, %zu bytes in; best of %d runs\n", n, bytes, runs);
  printf("cmark-gfm alone: %8.2f ms (%zu bytes out)\n", best_c * 1e3, out_c);
  printf("bk_md_render:    %8.2f ms (%zu bytes out)\n", best_o * 1e3, out_o);
  printf("ratio:           %8.2f\n", best_o / best_c);
  bk_slugger_free(slugger);
  for (int i = 0; i < n; i++)
    free(srcs[i].text);
  free(srcs);
  return 0;
}
