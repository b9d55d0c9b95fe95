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
  size_t total, limit; /* bytes of chunks taken, and the most allowed */
  void (*on_limit)(void *data);
  void *limit_data;
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

/* Takes a chunk, within the arena's limit: past it on_limit unwinds (a
 * render fails with a message) and only without one does the process
 * stop. */
static tpl_chunk *tpl_arena_chunk(tpl_arena *a, size_t size) {
  size_t bytes = tpl_size_add(sizeof(tpl_chunk), size);
  if (a->limit && (bytes > a->limit || a->total > a->limit - bytes)) {
    if (a->on_limit)
      a->on_limit(a->limit_data);
    tpl_oom();
  }
  a->total += bytes;
  return tpl_chunk_new(size);
}

void tpl_arena_set_limit(tpl_arena *a, size_t limit,
                         void (*on_limit)(void *data), void *data) {
  a->limit = limit;
  a->on_limit = on_limit;
  a->limit_data = data;
}

tpl_arena *tpl_arena_new(void) {
  tpl_arena *a = malloc(sizeof *a);
  if (!a)
    tpl_oom();
  a->cur = tpl_chunk_new(TPL_ARENA_CHUNK - sizeof(tpl_chunk));
  a->full = NULL;
  a->defers = NULL;
  a->last = NULL;
  a->total = TPL_ARENA_CHUNK;
  a->limit = 0;
  a->on_limit = NULL;
  a->limit_data = NULL;
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
    tpl_chunk *big = tpl_arena_chunk(a, need);
    big->used = need;
    big->next = a->full;
    a->full = big;
    return big->data;
  }
  tpl_chunk *fresh = tpl_arena_chunk(a, TPL_ARENA_CHUNK - sizeof(tpl_chunk));
  c->next = a->full;
  a->full = c;
  c = fresh;
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
