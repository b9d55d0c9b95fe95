/* Unicode's line break opportunities through ICU (lb_linebreak.h). */
#include "lb_linebreak.h"

#include <stdlib.h>
#include <string.h>

#include <unicode/ubrk.h>
#include <unicode/uloc.h>
#include <unicode/utf16.h>

#include "oc_alloc.h"

struct lb_breaker {
  UBreakIterator *bi;
  char *lang; /* the language bi was opened for ("" for none) */
  bool failed;
};

lb_breaker *lb_new(void) { return oc_calloc(1, sizeof(lb_breaker)); }

void lb_free(lb_breaker *lb) {
  if (!lb)
    return;
  if (lb->bi)
    ubrk_close(lb->bi);
  free(lb->lang);
  free(lb);
}

/* The iterator for lang: ICU's locale from the BCP 47 tag, with the strict
 * line breaking rules (lb=strict: small kana and the prolonged sound mark
 * never start a line). */
static UBreakIterator *iterator_for(lb_breaker *lb, const char *lang) {
  if (!lang)
    lang = "";
  if (lb->bi && strcmp(lb->lang, lang) == 0)
    return lb->bi;
  if (lb->bi)
    ubrk_close(lb->bi);
  lb->bi = NULL;
  free(lb->lang);
  lb->lang = oc_strdup(lang);
  UErrorCode err = U_ZERO_ERROR;
  char locale[ULOC_FULLNAME_CAPACITY] = "";
  if (*lang) {
    uloc_forLanguageTag(lang, locale, sizeof locale, NULL, &err);
    if (U_FAILURE(err) || err == U_STRING_NOT_TERMINATED_WARNING) {
      err = U_ZERO_ERROR;
      locale[0] = 0;
    }
  }
  uloc_setKeywordValue("lb", "strict", locale, sizeof locale, &err);
  if (U_FAILURE(err))
    err = U_ZERO_ERROR;
  lb->bi = ubrk_open(UBRK_LINE, locale, NULL, 0, &err);
  if (U_FAILURE(err)) {
    lb->bi = NULL;
    lb->failed = true;
  }
  return lb->bi;
}

bool lb_breaks(void *user, const char *lang, const uint32_t *cps, size_t n,
               bool *brk) {
  lb_breaker *lb = user;
  if (!lb || n == 0 || n > INT32_MAX / 2)
    return false;
  UBreakIterator *bi = iterator_for(lb, lang);
  if (!bi)
    return false;
  /* UTF-16 for ICU, and each unit's code point index back */
  UChar *u = oc_malloc(oc_size_mul(n, 2 * sizeof *u));
  size_t *at = oc_malloc(oc_size_mul(oc_size_mul(n, 2) + 1, sizeof *at));
  int32_t len = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t cp = cps[i];
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000))
      cp = 0xFFFD;
    at[len] = i;
    if (cp > 0xFFFF) {
      u[len++] = U16_LEAD(cp);
      at[len] = i;
      u[len++] = U16_TRAIL(cp);
    } else {
      u[len++] = (UChar)cp;
    }
  }
  at[len] = n;
  UErrorCode err = U_ZERO_ERROR;
  ubrk_setText(bi, u, len, &err);
  bool ok = U_SUCCESS(err);
  if (ok) {
    for (int32_t b = ubrk_following(bi, 0); b != UBRK_DONE && b < len;
         b = ubrk_next(bi))
      brk[at[b]] = true;
    /* the iterator must not keep pointing at our buffer */
    ubrk_setText(bi, NULL, 0, &err);
  }
  free(u);
  free(at);
  return ok;
}
