/* The arena (oc_arena.h): a bump allocator over malloc'd chunks, with
 * cleanup hooks, freed all at once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oc_alloc.h"
#include "oc_arena.h"

#define OC_ARENA_ALIGN 16
#define OC_ARENA_CHUNK (64 * 1024)

typedef struct oc_chunk {
  struct oc_chunk *next;
  size_t size; /* usable bytes after the header */
  size_t used;
  /* Keeps the data that follows the header aligned. */
  _Alignas(OC_ARENA_ALIGN) unsigned char data[];
} oc_chunk;

typedef struct oc_defer {
  struct oc_defer *next;
  void (*fn)(void *);
  void *data;
} oc_defer;

struct oc_arena {
  oc_chunk *cur;  /* where small allocations go */
  oc_chunk *full; /* retired chunks and oversized blocks */
  oc_defer *defers;
  void *last; /* the most recent allocation in cur, for oc_arena_grow */
  size_t total, limit; /* bytes of chunks taken, and the most allowed */
  void (*on_limit)(void *data);
  void *limit_data;
};

static oc_chunk *oc_chunk_new(size_t size) {
  oc_chunk *c = oc_malloc(oc_size_add(sizeof(oc_chunk), size));
  c->next = NULL;
  c->size = size;
  c->used = 0;
  return c;
}

/* Takes a chunk, within the arena's limit: past it on_limit unwinds (a
 * render fails with a message) and only without one does the process
 * stop. */
static oc_chunk *oc_arena_chunk(oc_arena *a, size_t size) {
  size_t bytes = oc_size_add(sizeof(oc_chunk), size);
  if (a->limit && (bytes > a->limit || a->total > a->limit - bytes)) {
    if (a->on_limit)
      a->on_limit(a->limit_data);
    oc_oom();
  }
  a->total += bytes;
  return oc_chunk_new(size);
}

void oc_arena_set_limit(oc_arena *a, size_t limit,
                         void (*on_limit)(void *data), void *data) {
  a->limit = limit;
  a->on_limit = on_limit;
  a->limit_data = data;
}

oc_arena *oc_arena_new(void) {
  oc_arena *a = oc_malloc(sizeof *a);
  a->cur = oc_chunk_new(OC_ARENA_CHUNK - sizeof(oc_chunk));
  a->full = NULL;
  a->defers = NULL;
  a->last = NULL;
  a->total = OC_ARENA_CHUNK;
  a->limit = 0;
  a->on_limit = NULL;
  a->limit_data = NULL;
  return a;
}

static void oc_chunks_free(oc_chunk *c) {
  while (c) {
    oc_chunk *next = c->next;
    free(c);
    c = next;
  }
}

void oc_arena_free(oc_arena *a) {
  if (!a)
    return;
  /* Hooks run newest first, as later objects may depend on older ones. */
  for (oc_defer *d = a->defers; d; d = d->next)
    d->fn(d->data);
  oc_chunks_free(a->cur);
  oc_chunks_free(a->full);
  free(a);
}

static inline size_t oc_align_up(size_t n) {
  return oc_size_add(n, OC_ARENA_ALIGN - 1) & ~(size_t)(OC_ARENA_ALIGN - 1);
}

/* Takes size bytes at the given alignment (OC_ARENA_ALIGN, or 1 for the
 * bytes of a string: a short name then costs its length, not 16). */
static void *arena_take(oc_arena *a, size_t size, size_t align) {
  if (size == 0)
    size = 1;
  oc_chunk *c = a->cur;
  size_t start = (c->used + align - 1) & ~(align - 1);
  if (start <= c->size && c->size - start >= size) {
    void *p = c->data + start;
    c->used = start + size;
    a->last = p;
    return p;
  }
  size_t need = oc_align_up(size);
  if (need > OC_ARENA_CHUNK / 4) {
    /* Oversized: its own chunk, so the current one keeps its free space. */
    oc_chunk *big = oc_arena_chunk(a, need);
    big->used = need;
    big->next = a->full;
    a->full = big;
    return big->data;
  }
  oc_chunk *fresh = oc_arena_chunk(a, OC_ARENA_CHUNK - sizeof(oc_chunk));
  c->next = a->full;
  a->full = c;
  c = fresh;
  a->cur = c;
  c->used = size;
  a->last = c->data;
  return c->data;
}

void *oc_arena_alloc(oc_arena *a, size_t size) {
  return arena_take(a, size, OC_ARENA_ALIGN);
}

void *oc_arena_calloc(oc_arena *a, size_t n, size_t size) {
  size_t total = oc_size_mul(n, size);
  void *p = oc_arena_alloc(a, total);
  memset(p, 0, total);
  return p;
}

char *oc_arena_strndup(oc_arena *a, const char *s, size_t n) {
  char *p = arena_take(a, oc_size_add(n, 1), 1);
  if (n)
    memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

void *oc_arena_grow(oc_arena *a, void *p, size_t old_size, size_t new_size) {
  if (new_size <= old_size)
    return p;
  oc_chunk *c = a->cur;
  if (p && p == a->last) {
    size_t start = (size_t)((unsigned char *)p - c->data);
    size_t need = oc_align_up(new_size);
    if (c->size - start >= need) {
      c->used = start + need;
      return p;
    }
  }
  void *q = oc_arena_alloc(a, new_size);
  if (old_size)
    memcpy(q, p, old_size);
  return q;
}

void oc_arena_defer(oc_arena *a, void (*fn)(void *), void *data) {
  oc_defer *d = oc_arena_alloc(a, sizeof *d);
  d->fn = fn;
  d->data = data;
  d->next = a->defers;
  a->defers = d;
}

void *oc_arena_grow_array(oc_arena *a, void *items, size_t n, size_t *cap,
                          size_t need, size_t size) {
  if (need <= *cap)
    return items;
  size_t ncap = *cap < 4 ? 8 : oc_size_mul(*cap, 2);
  if (ncap < need)
    ncap = need;
  void *b = oc_arena_alloc(a, oc_size_mul(ncap, size));
  if (n)
    memcpy(b, items, n * size);
  *cap = ncap;
  return b;
}

char *oc_arena_vprintf(oc_arena *a, const char *fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  if (n < 0)
    n = 0;
  char *s = oc_arena_alloc(a, (size_t)n + 1);
  vsnprintf(s, (size_t)n + 1, fmt, again);
  va_end(again);
  return s;
}

char *oc_arena_printf(oc_arena *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = oc_arena_vprintf(a, fmt, ap);
  va_end(ap);
  return s;
}
