/* The string builder (oc_sb.h), in an arena or on the heap. */
#include "oc_sb.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "oc_alloc.h"

void oc_sb_init(oc_sb *b, oc_arena *a, size_t cap_hint) {
  b->a = a;
  b->len = 0;
  b->cap = cap_hint < 16 ? 16 : cap_hint;
  b->p = a ? oc_arena_alloc(a, b->cap) : oc_malloc(b->cap);
}

void oc_sb_reserve(oc_sb *b, size_t extra) {
  size_t need = oc_size_add(b->len, extra);
  if (need <= b->cap)
    return;
  size_t ncap = oc_size_mul(b->cap, 2);
  if (ncap < need)
    ncap = need;
  b->p = b->a ? oc_arena_grow(b->a, b->p, b->len, ncap) : oc_realloc(b->p, ncap);
  b->cap = ncap;
}

size_t oc_format_int(int64_t i, char *buf) {
  char tmp[24];
  size_t n = 0;
  /* Through the unsigned magnitude, so INT64_MIN needs no special case. */
  uint64_t u = i < 0 ? (uint64_t)0 - (uint64_t)i : (uint64_t)i;
  do {
    tmp[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  size_t len = 0;
  if (i < 0)
    buf[len++] = '-';
  while (n)
    buf[len++] = tmp[--n];
  buf[len] = 0;
  return len;
}

void oc_sb_add_int(oc_sb *b, int64_t i) {
  oc_sb_reserve(b, 24);
  b->len += oc_format_int(i, b->p + b->len);
}

void oc_sb_printf(oc_sb *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n <= 0)
    return;
  oc_sb_reserve(b, (size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

char *oc_sb_cstr(oc_sb *b) {
  oc_sb_reserve(b, 1);
  b->p[b->len] = 0;
  return b->p;
}

char *oc_sb_take(oc_sb *b) {
  char *s = oc_sb_cstr(b);
  b->p = NULL;
  b->len = b->cap = 0;
  return s;
}

void oc_sb_free(oc_sb *b) {
  if (!b->a)
    free(b->p);
  b->p = NULL;
  b->len = b->cap = 0;
}
