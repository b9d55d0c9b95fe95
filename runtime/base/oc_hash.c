/* The hash index (oc_hash.h): at most half full, so that a probe ends
 * within a few slots; the hashes are kept beside the entries so that a
 * probe compares the caller's keys only when the whole hash matches. */
#include "oc_hash.h"

#include <stdlib.h>

#include "oc_alloc.h"

/* Not inline: inlined in the typesetter's caches it took more
 * instructions, not fewer (callgrind, the large corpus book's PDF). */
uint64_t oc_hash_bytes(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

static void hidx_free(void *data) { oc_hidx_free(data); }

void oc_hidx_init(oc_hidx *x, oc_arena *a, size_t cap) {
  size_t c = 16;
  while (c < cap)
    c *= 2;
  x->used = 0;
  x->hashes = oc_calloc(c, sizeof *x->hashes);
  x->entries = oc_calloc(c, sizeof *x->entries);
  x->cap = c;
  if (a)
    oc_arena_defer(a, hidx_free, x);
}

void oc_hidx_free(oc_hidx *x) {
  free(x->hashes);
  free(x->entries);
  x->hashes = NULL;
  x->entries = NULL;
  x->cap = x->used = 0;
}

void *oc_hidx_get(const oc_hidx *x, uint64_t hash,
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

void oc_hidx_put(oc_hidx *x, uint64_t hash, void *entry) {
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
