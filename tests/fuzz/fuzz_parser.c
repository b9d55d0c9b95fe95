/* libFuzzer target for the template front end: every input is parsed and
 * checked as a template (with a loader that finds nothing, and both with
 * and without autoescaping); it must never crash, leak or read out of
 * bounds, and must say why whenever it rejects a template. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tpl_ast.h"

static const tpl_ast_template *find_nothing(void *data, const char *name,
                                            size_t len) {
  (void)data;
  (void)name;
  (void)len;
  return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  oc_arena *a = oc_arena_new();
  tpl_parse_opts opts = {find_nothing, NULL,
                         size && (data[0] & 1) ? TPL_ESC_HTML : TPL_ESC_NONE};
  tpl_diag diags[4];
  size_t ndiags = 0;
  tpl_ast_template *t = tpl_parse(a, "fuzz.twig", (const char *)data, size,
                                  &opts, diags, 4, &ndiags);
  if (!t && ndiags == 0)
    abort(); /* rejected without a diagnostic */
  if (t && ndiags)
    abort(); /* diagnostics but a template */
  if (t) {
    /* walk the whole tree once */
    char *s = tpl_ast_sexpr(t->body);
    free(s);
    for (size_t i = 0; i < t->nblocks; i++) {
      s = tpl_ast_sexpr(t->blocks[i].body);
      free(s);
    }
    for (size_t i = 0; i < t->nmacros; i++) {
      s = tpl_ast_sexpr(t->macros[i].body);
      free(s);
    }
  }
  oc_arena_free(a);
  return 0;
}
