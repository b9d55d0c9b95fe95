/* The per-render arena: a bump allocator over malloc'd chunks that owns
 * every string, list, map and closure a render builds, plus cleanup hooks
 * for foreign objects (compiled regexes). Freed all at once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tpl_lib.h"

#define TPL_ARENA_ALIGN 16
#define TPL_ARENA_CHUNK (64 * 1024)

typedef struct tpl_chunk {
  struct tpl_chunk *next;
  size_t size; /* usable bytes after the header */
  size_t used;
  /* Keeps the data that follows the header aligned. */
  _Alignas(TPL_ARENA_ALIGN) unsigned char data[];
} tpl_chunk;

typedef struct tpl_defer {
  struct tpl_defer *next;
  void (*fn)(void *);
  void *data;
} tpl_defer;

struct tpl_arena {
  tpl_chunk *cur;  /* where small allocations go */
  tpl_chunk *full; /* retired chunks and oversized blocks */
  tpl_defer *defers;
  void *last; /* the most recent allocation in cur, for tpl_arena_grow */
};

static _Noreturn void tpl_oom(void) {
  fputs("octavo: out of memory\n", stderr);
  abort();
}

size_t tpl_size_mul(size_t a, size_t b) {
  if (b && a > SIZE_MAX / b)
    tpl_oom();
  return a * b;
}

size_t tpl_size_add(size_t a, size_t b) {
  if (a > SIZE_MAX - b)
    tpl_oom();
  return a + b;
}

static tpl_chunk *tpl_chunk_new(size_t size) {
  tpl_chunk *c = malloc(tpl_size_add(sizeof(tpl_chunk), size));
  if (!c)
    tpl_oom();
  c->next = NULL;
  c->size = size;
  c->used = 0;
  return c;
}

tpl_arena *tpl_arena_new(void) {
  tpl_arena *a = malloc(sizeof *a);
  if (!a)
    tpl_oom();
  a->cur = tpl_chunk_new(TPL_ARENA_CHUNK - sizeof(tpl_chunk));
  a->full = NULL;
  a->defers = NULL;
  a->last = NULL;
  return a;
}

static void tpl_chunks_free(tpl_chunk *c) {
  while (c) {
    tpl_chunk *next = c->next;
    free(c);
    c = next;
  }
}

void tpl_arena_free(tpl_arena *a) {
  if (!a)
    return;
  /* Hooks run newest first, as later objects may depend on older ones. */
  for (tpl_defer *d = a->defers; d; d = d->next)
    d->fn(d->data);
  tpl_chunks_free(a->cur);
  tpl_chunks_free(a->full);
  free(a);
}

static inline size_t tpl_align_up(size_t n) {
  return tpl_size_add(n, TPL_ARENA_ALIGN - 1) & ~(size_t)(TPL_ARENA_ALIGN - 1);
}

void *tpl_arena_alloc(tpl_arena *a, size_t size) {
  if (size == 0)
    size = 1;
  size_t need = tpl_align_up(size);
  tpl_chunk *c = a->cur;
  if (c->size - c->used >= need) {
    void *p = c->data + c->used;
    c->used += need;
    a->last = p;
    return p;
  }
  if (need > TPL_ARENA_CHUNK / 4) {
    /* Oversized: its own chunk, so the current one keeps its free space. */
    tpl_chunk *big = tpl_chunk_new(need);
    big->used = need;
    big->next = a->full;
    a->full = big;
    return big->data;
  }
  c->next = a->full;
  a->full = c;
  c = tpl_chunk_new(TPL_ARENA_CHUNK - sizeof(tpl_chunk));
  a->cur = c;
  c->used = need;
  a->last = c->data;
  return c->data;
}

void *tpl_arena_calloc(tpl_arena *a, size_t n, size_t size) {
  size_t total = tpl_size_mul(n, size);
  void *p = tpl_arena_alloc(a, total);
  memset(p, 0, total);
  return p;
}

char *tpl_arena_strndup(tpl_arena *a, const char *s, size_t n) {
  char *p = tpl_arena_alloc(a, tpl_size_add(n, 1));
  if (n)
    memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

void *tpl_arena_grow(tpl_arena *a, void *p, size_t old_size, size_t new_size) {
  if (new_size <= old_size)
    return p;
  tpl_chunk *c = a->cur;
  if (p && p == a->last) {
    size_t start = (size_t)((unsigned char *)p - c->data);
    size_t need = tpl_align_up(new_size);
    if (c->size - start >= need) {
      c->used = start + need;
      return p;
    }
  }
  void *q = tpl_arena_alloc(a, new_size);
  if (old_size)
    memcpy(q, p, old_size);
  return q;
}

void tpl_arena_defer(tpl_arena *a, void (*fn)(void *), void *data) {
  tpl_defer *d = tpl_arena_alloc(a, sizeof *d);
  d->fn = fn;
  d->data = data;
  d->next = a->defers;
  a->defers = d;
}
