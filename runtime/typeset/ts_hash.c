/* The engine's one hash index: entries by a 64-bit hash, open addressing
 * with linear probing, the entries the caller's (compared by the caller).
 * The caches of shaped words, hyphenations, words' items and computed
 * styles, and the anchors of the pages, all use it. */
#include <stdlib.h>

#include "oc_alloc.h"
#include "ts_engine_int.h"

static void hidx_free(void *data) {
  ts_hidx *x = data;
  free(x->hashes);
  free(x->entries);
}

void ts_hidx_init(ts_hidx *x, oc_arena *a, size_t cap) {
  size_t c = 16;
  while (c < cap)
    c *= 2;
  x->used = 0;
  x->hashes = oc_calloc(c, sizeof *x->hashes);
  x->entries = oc_calloc(c, sizeof *x->entries);
  x->cap = c;
  oc_arena_defer(a, hidx_free, x);
}

uint64_t ts_hash_bytes(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

void *ts_hidx_get(const ts_hidx *x, uint64_t hash,
                  bool (*eq)(const void *entry, const void *key),
                  const void *key) {
  if (!x->cap)
    return NULL;
  for (size_t j = hash & (x->cap - 1); x->entries[j];
       j = (j + 1) & (x->cap - 1))
    if (x->hashes[j] == hash && eq(x->entries[j], key))
      return x->entries[j];
  return NULL;
}

static void place(uint64_t *hashes, void **entries, size_t cap, uint64_t hash,
                  void *entry) {
  size_t j = hash & (cap - 1);
  while (entries[j])
    j = (j + 1) & (cap - 1);
  hashes[j] = hash;
  entries[j] = entry;
}

void ts_hidx_put(ts_hidx *x, uint64_t hash, void *entry) {
  if ((x->used + 1) * 2 > x->cap) {
    size_t nc = x->cap ? x->cap * 2 : 16;
    uint64_t *nh = oc_calloc(nc, sizeof *nh);
    void **ne = oc_calloc(nc, sizeof *ne);
    for (size_t i = 0; i < x->cap; i++)
      if (x->entries[i])
        place(nh, ne, nc, x->hashes[i], x->entries[i]);
    free(x->hashes);
    free(x->entries);
    x->hashes = nh;
    x->entries = ne;
    x->cap = nc;
  }
  place(x->hashes, x->entries, x->cap, hash, entry);
  x->used++;
}
