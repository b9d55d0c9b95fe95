/* libFuzzer target for the website's search index (book_search.c): the
 * input is a page's HTML (after its first byte, which picks the language:
 * even English, stemmed, odd Chinese, not stemmed), indexed as two pages
 * (the input cut in half, then whole). Nothing may crash, leak or read out
 * of bounds, and the index must hold nothing a script or an HTML page
 * must not hold raw: no '<', no U+2028 or U+2029, no control character but
 * the newlines it writes itself. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "book_search.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!size)
    return 0;
  si_index *s = si_new(data[0] % 2 ? "zh" : "en");
  char *html = malloc(size);
  memcpy(html, data + 1, size - 1);
  html[size - 1] = 0;
  size_t half = strlen(html) / 2;
  char *title = malloc(half + 1);
  memcpy(title, html, half);
  title[half] = 0;
  bk_search_add_page(s, "a.html", title, title + half / 2);
  bk_search_add_page(s, "b.html", "", html);
  size_t len;
  char *js = si_write(s, &len);
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)js[i];
    if (c == '<' || (c < 0x20 && c != '\n') ||
        (c == 0xe2 && i + 2 < len && (unsigned char)js[i + 1] == 0x80 &&
         ((unsigned char)js[i + 2] == 0xa8 || (unsigned char)js[i + 2] == 0xa9)))
      abort();
  }
  free(js);
  free(title);
  free(html);
  si_free(s);
  return 0;
}
