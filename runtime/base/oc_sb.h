/* The string builder: a growing byte buffer in an arena (the text dies
 * with the arena) or, with a NULL arena, on the heap (the caller frees it
 * with oc_sb_free or takes it with oc_sb_take). The text is not kept
 * NUL-terminated; oc_sb_cstr adds the NUL. */
#ifndef OCTAVO_OC_SB_H
#define OCTAVO_OC_SB_H

#include <stdint.h>
#include <string.h>

#include "oc_arena.h"

typedef struct oc_sb {
  oc_arena *a; /* NULL: heap */
  char *p;
  size_t len, cap;
} oc_sb;

void oc_sb_init(oc_sb *b, oc_arena *a, size_t cap_hint);
void oc_sb_reserve(oc_sb *b, size_t extra);
static inline void oc_sb_add(oc_sb *b, const char *s, size_t n) {
  if (b->cap - b->len < n)
    oc_sb_reserve(b, n);
  if (n)
    memcpy(b->p + b->len, s, n);
  b->len += n;
}
static inline void oc_sb_addc(oc_sb *b, char c) {
  if (b->cap == b->len)
    oc_sb_reserve(b, 1);
  b->p[b->len++] = c;
}
static inline void oc_sb_adds(oc_sb *b, const char *s) {
  oc_sb_add(b, s, strlen(s));
}
void oc_sb_add_int(oc_sb *b, int64_t i);
void oc_sb_printf(oc_sb *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The text NUL-terminated (the NUL is not counted in len). */
char *oc_sb_cstr(oc_sb *b);
/* Heap builders only: hands the NUL-terminated text to the caller (who
 * frees it) and leaves the builder empty; oc_sb_free releases it. */
char *oc_sb_take(oc_sb *b);
void oc_sb_free(oc_sb *b);

/* Writes i in decimal to buf (>= 21 bytes), returns the length. */
size_t oc_format_int(int64_t i, char *buf);

#endif
