/* Build step of test_cgen: compiles the hand-built fixture ASTs
 * (cgen_asts.c) to C with the generator, twice, and fails unless both runs
 * give the same bytes. Usage: cgen_fixture_gen OUT.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgen_asts.h"
#include "tpl_cgen.h"

static char *generate(const char *out_name, size_t *len) {
  oc_arena *a = oc_arena_new();
  tpl_ast_template *t[16];
  size_t n = cgen_fixture_asts(a, t, 16);
  const char *paths[16];
  for (size_t i = 0; i < n; i++)
    paths[i] = t[i]->name;
  /* The sources, through the real front end. */
  tpl_ast_template *src[64];
  size_t ns = cgen_parse_sources(a, src, 64);
  const char *spaths[64];
  for (size_t i = 0; i < ns; i++)
    spaths[i] = src[i]->name;
  char *code = NULL;
  if (ns) {
    tpl_cgen *g = tpl_cgen_new(out_name, 0, NULL);
    tpl_cgen_add_registry(g, "cgen_fixture", n,
                          (const tpl_ast_template *const *)t, paths, NULL,
                          false);
    tpl_cgen_add_registry(g, "cgen_diff", ns,
                          (const tpl_ast_template *const *)src, spaths, NULL,
                          false);
    code = tpl_cgen_finish(g, len);
    tpl_cgen_free(g);
  }
  oc_arena_free(a);
  return code;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: cgen_fixture_gen OUT.c\n");
    return 2;
  }
  const char *base = strrchr(argv[1], '/');
  base = base ? base + 1 : argv[1];
  size_t l1, l2;
  char *c1 = generate(base, &l1), *c2 = generate(base, &l2);
  if (!c1 || !c2) {
    fprintf(stderr, "cgen_fixture_gen: generation failed\n");
    return 1;
  }
  if (l1 != l2 || memcmp(c1, c2, l1) != 0) {
    fprintf(stderr, "cgen_fixture_gen: two runs gave different code\n");
    return 1;
  }
  FILE *f = fopen(argv[1], "wb");
  if (!f || fwrite(c1, 1, l1, f) != l1 || fclose(f) != 0) {
    fprintf(stderr, "cgen_fixture_gen: cannot write %s\n", argv[1]);
    return 1;
  }
  free(c1);
  free(c2);
  return 0;
}
