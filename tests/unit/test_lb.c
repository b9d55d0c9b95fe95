/* octavo_linebreak alone (linked with octavo_base only): ICU's line break
 * opportunities as lb_breaks reports them, by code point index, for text
 * within and beyond the BMP, code points that are not scalar values, and
 * one breaker reused across languages. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "lb_linebreak.h"

/* The code points of an ASCII string, '*' standing for cp. */
static size_t ascii(const char *s, uint32_t cp, uint32_t *out) {
  size_t n = strlen(s);
  for (size_t i = 0; i < n; i++)
    out[i] = s[i] == '*' ? cp : (uint32_t)(unsigned char)s[i];
  return n;
}

/* The indices where a break is allowed, as "i,j,…". */
static const char *breaks(lb_breaker *lb, const char *lang, const uint32_t *cps,
                          size_t n) {
  bool brk[64] = {0};
  static char out[256];
  size_t o = 0;
  out[0] = 0;
  if (!lb_breaks(lb, lang, cps, n, brk))
    return "(failed)";
  for (size_t i = 0; i < n && o + 8 < sizeof out; i++)
    if (brk[i])
      o += (size_t)snprintf(out + o, sizeof out - o, o ? ",%zu" : "%zu", i);
  return out;
}

static void test_words(lb_breaker *lb) {
  uint32_t cps[64];
  size_t n = ascii("one two-three", 0, cps);
  /* after the space, after the hyphen; never before the first */
  CHECK_STR(breaks(lb, "en", cps, n), "4,8");
  CHECK_STR(breaks(lb, NULL, cps, n), "4,8");
  CHECK_STR(breaks(lb, "", cps, n), "4,8");
  CHECK_STR(breaks(lb, "not a tag!", cps, n), "4,8");
  n = ascii("word", 0, cps);
  CHECK_STR(breaks(lb, "en", cps, n), "");
}

/* Beyond the BMP a code point is two UTF-16 units: the indices are still
 * code points'. */
static void test_astral(lb_breaker *lb) {
  uint32_t cps[] = {0x20000, 0x20001, 0x5B57, ' ', 'a'};
  CHECK_STR(breaks(lb, "zh", cps, 5), "1,2,4");
  uint32_t emoji[] = {'a', ' ', 0x1F600, ' ', 'b'};
  CHECK_STR(breaks(lb, "en", emoji, 5), "2,4");
}

/* Strict rules: no line starts with a small kana or the ideographic full
 * stop, none ends with an opening bracket. */
static void test_strict(lb_breaker *lb) {
  uint32_t small[] = {0x5B57, 0x3063, 0x5B57}; /* 字っ字 */
  CHECK_STR(breaks(lb, "ja", small, 3), "2");
  uint32_t stop[] = {0x5B57, 0x3002, 0x5B57}; /* 字。字 */
  CHECK_STR(breaks(lb, "ja", stop, 3), "2");
  uint32_t open[] = {0x5B57, 0x300C, 0x5B57}; /* 字「字 */
  CHECK_STR(breaks(lb, "ja", open, 3), "1");
}

/* Surrogates and values past U+10FFFF are read as U+FFFD, which breaks
 * like an ideograph would not: the call succeeds and reports by index. */
static void test_not_scalar(lb_breaker *lb) {
  uint32_t cps[64];
  size_t n = ascii("a *b", 0xD800, cps);
  CHECK_STR(breaks(lb, "en", cps, n), "2");
  n = ascii("a *b", 0x110000, cps);
  CHECK_STR(breaks(lb, "en", cps, n), "2");
  n = ascii("a *b", 0xFFFFFFFFu, cps);
  CHECK_STR(breaks(lb, "en", cps, n), "2");
}

static void test_refused(lb_breaker *lb) {
  uint32_t cp = 'a';
  bool brk[1] = {true};
  CHECK(!lb_breaks(lb, "en", &cp, 0, brk));
  CHECK(!lb_breaks(NULL, "en", &cp, 1, brk));
  CHECK(brk[0]);
}

int main(void) {
  lb_breaker *lb = lb_new();
  /* the languages alternate: the one iterator is reopened each time */
  for (int round = 0; round < 2; round++) {
    test_words(lb);
    test_astral(lb);
    test_strict(lb);
    test_not_scalar(lb);
    test_refused(lb);
  }
  lb_free(lb);
  lb_free(NULL);
  printf("linebreak: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
