/* libFuzzer target for the book's HTML text reader (book_htmltext.c): the
 * input is any HTML, walked whole. Nothing may crash or read out of
 * bounds, and every piece must hold: pieces in order, inside the input and
 * covering it up to the end or a cut tag; plain text the input's own
 * bytes; a reference 1 to 4 bytes of valid UTF-8; tags with their names
 * and attributes inside them. The input is also slugged, which reads it
 * through the same reader. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "book_htmltext.h"
#include "book_slug.h"

static void check_tag(const char *in, const bk_ht_token *t) {
  if (t->name < in + t->at || t->name + t->name_len > in + t->end ||
      !t->name_len)
    abort();
  size_t pos = 0, guard = 0;
  bk_ht_attr a;
  while (bk_ht_attr_next(t, &pos, &a)) {
    if (a.name < in + t->at || a.name + a.name_len > in + t->end ||
        (a.value &&
         (a.value < in + t->at || a.value + a.value_len > in + t->end)) ||
        ++guard > t->end - t->at)
      abort();
  }
  oc_sb v;
  oc_sb_init(&v, NULL, 16);
  bk_ht_get_attr(t, "id", &v);
  oc_sb_free(&v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *in = (const char *)data;
  bk_htreader r;
  bk_ht_token t;
  bk_ht_init(&r, in, size);
  size_t last = 0;
  while (bk_ht_next(&r, &t)) {
    if (t.at != last || t.end <= t.at || t.end > size)
      abort();
    last = t.end;
    if (t.kind == BK_HT_TEXT && t.ref) {
      utf8proc_int32_t c;
      if (t.len < 1 || t.len > 4 ||
          utf8proc_iterate((const utf8proc_uint8_t *)t.text,
                           (utf8proc_ssize_t)t.len,
                           &c) != (utf8proc_ssize_t)t.len)
        abort();
    } else if (t.kind == BK_HT_TEXT) {
      if (t.text < in + t.at || t.text + t.len > in + t.end ||
          (!t.raw && t.len != t.end - t.at))
        abort();
    } else if (t.kind == BK_HT_OPEN || t.kind == BK_HT_CLOSE) {
      check_tag(in, &t);
    }
  }
  if (t.kind != BK_HT_END || bk_ht_next(&r, &t))
    abort();
  /* one slugger for the run: opening ICU's transliterator at every input
     would be most of the time */
  static bk_slugger *sl;
  if (!sl)
    sl = bk_slugger_new();
  oc_arena *a = oc_arena_new();
  bk_slug(sl, a, size ? in : "", size);
  oc_arena_free(a);
  return 0;
}
