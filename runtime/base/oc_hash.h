/* The one hash function (FNV-1a, 64 bits) and the one hash index: entries
 * by their 64-bit hash, open addressing with linear probing. The entries
 * are the caller's and compared by the caller, so one index serves strings,
 * pointers and composite keys alike; every table of Octavo's uses it but
 * the template map's (tpl_value.c), whose hot path keeps its own. */
#ifndef OCTAVO_OC_HASH_H
#define OCTAVO_OC_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "oc_arena.h"

/* Where a hash starts. Not FNV's published offset basis (it is that
 * number a digit short, as the engine has always had it): the PDFs' font
 * subset tags derive from it, and changing it would change every PDF. */
#define OC_HASH_SEED 1469598103934665603ull
/* FNV's own offset basis, for a hash that must be FNV-1a's published one. */
#define OC_HASH_FNV_BASIS 0xcbf29ce484222325ull

/* FNV-1a over n bytes of p, continuing from h (OC_HASH_SEED to start, or a
 * hash of what came before). */
uint64_t oc_hash_bytes(uint64_t h, const void *p, size_t n);

/* The same over a 64-bit value taken whole (a pointer, a number): one step
 * instead of eight. The result's low bits depend on v's low bits alone: a
 * hash must not end with it when those do not vary (an aligned pointer). */
static inline uint64_t oc_hash_u64(uint64_t h, uint64_t v) {
  return (h ^ v) * 1099511628211ull;
}

static inline uint64_t oc_hash_str(const char *s) {
  return oc_hash_bytes(OC_HASH_SEED, s, strlen(s));
}

/* The index: its two tables are on the heap (oc_alloc.h); with an arena
 * they are freed with it (then the oc_hidx itself must not move), without
 * one by oc_hidx_free. A zeroed oc_hidx is an empty index without an
 * arena. Entries are never NULL and never removed. */
typedef struct oc_hidx {
  uint64_t *hashes;
  void **entries;
  size_t cap, used; /* cap: 0 or a power of two */
} oc_hidx;

/* Makes x empty, its table at least cap slots (it holds half as many
 * entries before it grows). */
void oc_hidx_init(oc_hidx *x, oc_arena *a, size_t cap);
void oc_hidx_free(oc_hidx *x);
/* The entry stored under hash for which eq(entry, key) holds, or NULL. */
void *oc_hidx_get(const oc_hidx *x, uint64_t hash,
                  bool (*eq)(const void *entry, const void *key),
                  const void *key);
/* Stores entry under hash (the caller knows it is not there yet). */
void oc_hidx_put(oc_hidx *x, uint64_t hash, void *entry);

#endif
