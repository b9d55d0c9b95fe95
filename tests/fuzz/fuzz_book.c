/* libFuzzer target for the book's readers: the first byte of an input
 * picks the reader, the rest is its text. Markdown (bk_md_render, with
 * every extension and a shared id set, rendered twice so that ids must stay
 * unique) and YAML (bk_yaml_parse, config.yml's reader) must never crash,
 * leak or read out of bounds; a rejected text must say why, and a
 * rendered fragment must be NUL-terminated at its length. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "book_config.h"
#include "book_md.h"

typedef struct counts {
  unsigned errors;
} counts;

static void count(void *user, oc_severity sev, const char *file,
                  unsigned line, unsigned col, const char *message) {
  (void)file;
  (void)line;
  (void)col;
  (void)message;
  if (sev == OC_ERROR)
    ((counts *)user)->errors++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!size)
    return 0;
  int mode = data[0] % 2;
  const char *text = (const char *)data + 1;
  size_t len = size - 1;
  counts c = {0};
  oc_reporter rep = {count, &c};
  oc_arena *a = oc_arena_new();
  if (mode == 0) {
    bk_slugger *sl = bk_slugger_new();
    bk_idset *ids = bk_idset_new(a);
    bk_md_options o;
    memset(&o, 0, sizeof o);
    o.file = "fuzz.md";
    o.first_line = 1;
    o.id_prefix = "1";
    o.images_base_dir = "images/";
    o.extract_title = data[0] & 2;
    o.ids = ids;
    o.slugger = sl;
    o.report = &rep;
    for (int round = 0; round < 2; round++) {
      bk_md_result r;
      int rc = bk_md_render(a, text, len, &o, &r);
      if (rc != 0 && !c.errors)
        abort(); /* rejected without a diagnostic */
      if (rc == 0 && strlen(r.html) != r.html_len)
        abort();
      if (rc != 0)
        break;
      o.id_prefix = "2";
    }
    bk_slugger_free(sl);
  } else {
    tpl_value v;
    if (bk_yaml_parse(a, "fuzz.yml", text, len, &rep, &v) != 0 && !c.errors)
      abort();
  }
  oc_arena_free(a);
  return 0;
}
