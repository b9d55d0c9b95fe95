/* The allocation policy (oc_alloc.h): allocate or report and abort. */
#include "oc_alloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Noreturn void oc_oom(void) {
  fputs("octavo: out of memory\n", stderr);
  abort();
}

size_t oc_size_mul(size_t a, size_t b) {
  if (b && a > SIZE_MAX / b)
    oc_oom();
  return a * b;
}

size_t oc_size_add(size_t a, size_t b) {
  if (a > SIZE_MAX - b)
    oc_oom();
  return a + b;
}

void *oc_malloc(size_t size) {
  void *p = malloc(size ? size : 1);
  if (!p)
    oc_oom();
  return p;
}

void *oc_calloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p)
    oc_oom();
  return p;
}

void *oc_realloc(void *p, size_t size) {
  void *q = realloc(p, size ? size : 1);
  if (!q)
    oc_oom();
  return q;
}

void *oc_reallocarray(void *p, size_t n, size_t size) {
  return oc_realloc(p, oc_size_mul(n, size));
}

char *oc_strndup(const char *s, size_t n) {
  char *p = oc_malloc(oc_size_add(n, 1));
  if (n)
    memcpy(p, s, n);
  p[n] = 0;
  return p;
}

char *oc_strdup(const char *s) { return oc_strndup(s, strlen(s)); }

void oc_grow(void **items, size_t *cap, size_t need, size_t size) {
  if (need <= *cap)
    return;
  size_t ncap = *cap < 4 ? 8 : oc_size_mul(*cap, 2);
  if (ncap < need)
    ncap = need;
  *items = oc_reallocarray(*items, ncap, size);
  *cap = ncap;
}
