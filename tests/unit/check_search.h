/* What the search index's tests share (test_search.c, test_si.c): the
 * sections' texts of an index inflated, and a word's entry. Included once
 * by a test program, after check.h. */
#ifndef OCTAVO_TESTS_CHECK_SEARCH_H
#define OCTAVO_TESTS_CHECK_SEARCH_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* The sections' texts of the index ("text": base64 of raw deflate),
 * inflated, separated by U+001F: malloc'd, or NULL when they do not
 * decode. */
static char *texts_of(const char *js) {
  const char *t = strstr(js, "\"text\":\"");
  if (!t)
    return NULL;
  t += 8;
  size_t n = strcspn(t, "\"");
  unsigned char *bin = malloc(n / 4 * 3 + 3);
  size_t nb = 0;
  uint32_t v = 0;
  int bits = 0;
  static const char digits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (size_t i = 0; i < n && t[i] != '='; i++) {
    const char *d = strchr(digits, t[i]);
    if (!d) {
      free(bin);
      return NULL;
    }
    v = v << 6 | (uint32_t)(d - digits);
    if ((bits += 6) >= 8)
      bin[nb++] = (unsigned char)(v >> (bits -= 8));
  }
  size_t cap = 1 << 20;
  char *out = malloc(cap);
  z_stream z = {0};
  inflateInit2(&z, -15);
  z.next_in = bin;
  z.avail_in = (uInt)nb;
  z.next_out = (Bytef *)out;
  z.avail_out = (uInt)cap - 1;
  int rc = inflate(&z, Z_FINISH);
  size_t len = cap - 1 - z.avail_out;
  inflateEnd(&z);
  free(bin);
  if (rc != Z_STREAM_END) {
    free(out);
    return NULL;
  }
  out[len] = 0;
  return out;
}

/* texts_of(js) is want ('|' standing for U+001F). */
static void check_texts(const char *js, const char *want) {
  char *got = texts_of(js);
  char *w = strdup(want);
  for (char *p = w; *p; p++)
    if (*p == '|')
      *p = '\x1f';
  CHECK_STR(got ? got : "(no texts)", w);
  free(w);
  free(got);
}

/* The entry of word `stem` in the index's words ("stem forms:postings"),
 * NULL when absent. */
static char *entry(const char *js, const char *stem) {
  const char *w = strstr(js, "\"words\":\"");
  if (!w)
    return NULL;
  w += 9;
  size_t n = strlen(stem);
  for (const char *p = w; *p && *p != '"';) {
    const char *end = p + strcspn(p, ";\"");
    if (!strncmp(p, stem, n) && (p[n] == ' ' || p[n] == ':')) {
      static char buf[256];
      snprintf(buf, sizeof buf, "%.*s", (int)(end - p), p);
      return buf;
    }
    p = *end == ';' ? end + 1 : end;
  }
  return NULL;
}

#endif
