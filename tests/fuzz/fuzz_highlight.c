/* libFuzzer target for the code highlighter (runtime/highlight/hl_highlight.c):
 * the input's first line is a fence's language name, the rest the code.
 * The names resolve to highlight-common's grammars (any of its 218, read
 * once and kept across inputs, as an edition keeps them across blocks);
 * the output's text, tags dropped and entities read back, must be the
 * code (nothing lost or added), spans balanced on every line; nothing may
 * crash, leak, hang or read out of bounds, whatever the code. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_highlight.h"

static hl_highlighter *hl;

static void check_text(const char *html, size_t hlen, const char *code,
                       size_t len) {
  size_t j = 0;
  int depth = 0;
  for (size_t i = 0; i < hlen;) {
    if (html[i] == '<') {
      if (html[i + 1] == '/')
        depth--;
      else
        depth++;
      const char *gt = memchr(html + i, '>', hlen - i);
      if (!gt)
        abort();
      i = (size_t)(gt - html) + 1;
      continue;
    }
    if (html[i] == '\n' && depth != 0)
      abort(); /* a span crosses a line's end */
    char c = html[i];
    size_t step = 1;
    if (c == '&') {
      static const char *const ents[][2] = {
          {"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}};
      size_t k = 0;
      while (k < 4 && strncmp(html + i, ents[k][0], strlen(ents[k][0])))
        k++;
      if (k == 4)
        abort();
      c = ents[k][1][0];
      step = strlen(ents[k][0]);
    }
    if (j >= len || code[j] != c)
      abort(); /* the text changed */
    j++;
    i += step;
  }
  if (j != len || depth != 0)
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!hl)
    hl = hl_new(NULL, NULL);
  const char *s = (const char *)data;
  const char *nl = memchr(s, '\n', size);
  if (!nl || nl - s > 40)
    return 0;
  char lang[41];
  memcpy(lang, s, (size_t)(nl - s));
  lang[nl - s] = '\0';
  const char *code = nl + 1;
  size_t len = size - (size_t)(code - s);
  oc_sb b;
  oc_sb_init(&b, NULL, len * 2 + 16);
  if (hl_html(hl, lang, code, len, &b, NULL))
    check_text(b.p ? b.p : "", b.len, code, len);
  oc_sb_free(&b);
  return 0;
}
