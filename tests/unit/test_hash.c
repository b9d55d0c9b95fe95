/* Unit tests of base's hash function and hash index (runtime/base/
 * oc_hash.c): FNV-1a's published values, continuing a hash, entries found
 * by the caller's comparison under colliding hashes, growth past many
 * entries, and the tables freed with an arena or by oc_hidx_free (valgrind
 * checks both). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "oc_hash.h"

#include "check.h"

typedef struct entry {
  const char *key;
  int value;
} entry;

static bool entry_eq(const void *e, const void *key) {
  return !strcmp(((const entry *)e)->key, key);
}

static void test_function(void) {
  /* FNV-1a 64's test vectors */
  CHECK(oc_hash_bytes(OC_HASH_FNV_BASIS, "a", 1) == 0xaf63dc4c8601ec8cull);
  CHECK(oc_hash_bytes(OC_HASH_FNV_BASIS, "foobar", 6) == 0x85944171f73967e8ull);
  /* the engine's seed (the PDFs' subset tags depend on it) */
  CHECK(oc_hash_bytes(OC_HASH_SEED, "", 0) == 1469598103934665603ull);
  CHECK(oc_hash_str("a") == (1469598103934665603ull ^ 'a') * 1099511628211ull);
  /* in pieces as whole */
  CHECK(oc_hash_bytes(oc_hash_str("foo"), "bar", 3) == oc_hash_str("foobar"));
  CHECK(oc_hash_str("ab") != oc_hash_str("ba"));
  /* a word whole is one step of the same */
  CHECK(oc_hash_u64(OC_HASH_SEED, 'a') == oc_hash_str("a"));
}

static void test_index(void) {
  oc_arena *a = oc_arena_new();
  oc_hidx x;
  oc_hidx_init(&x, a, 4);
  CHECK(x.cap == 16 && x.used == 0);
  CHECK(oc_hidx_get(&x, oc_hash_str("a"), entry_eq, "a") == NULL);
  /* 10,000 entries: the table grows, stays at most half full, and finds
     each one */
  enum { N = 10000 };
  static entry es[N];
  static char keys[N][8];
  for (int i = 0; i < N; i++) {
    snprintf(keys[i], sizeof keys[i], "k%d", i);
    es[i] = (entry){keys[i], i};
    oc_hidx_put(&x, oc_hash_str(keys[i]), &es[i]);
  }
  CHECK(x.used == N && x.used * 2 <= x.cap);
  int found = 0;
  for (int i = 0; i < N; i++) {
    const entry *e = oc_hidx_get(&x, oc_hash_str(keys[i]), entry_eq, keys[i]);
    found += e && e->value == i;
  }
  CHECK(found == N);
  CHECK(oc_hidx_get(&x, oc_hash_str("k10000"), entry_eq, "k10000") == NULL);
  oc_arena_free(a); /* frees the tables */
}

static void test_collisions(void) {
  /* a zeroed index needs no init; every entry under one hash: the
     comparison tells them apart, the probe wraps around the table */
  oc_hidx x = {0};
  entry e[40];
  char keys[40][4];
  uint64_t h = 15; /* the last slot of the first table */
  for (int i = 0; i < 40; i++) {
    snprintf(keys[i], sizeof keys[i], "%d", i);
    e[i] = (entry){keys[i], i};
    oc_hidx_put(&x, h, &e[i]);
  }
  int found = 0;
  for (int i = 0; i < 40; i++) {
    const entry *f = oc_hidx_get(&x, h, entry_eq, keys[i]);
    found += f == &e[i];
  }
  CHECK(found == 40);
  CHECK(oc_hidx_get(&x, h, entry_eq, "40") == NULL);
  CHECK(oc_hidx_get(&x, h + 1, entry_eq, "1") == NULL);
  oc_hidx_free(&x);
  CHECK(x.cap == 0 && oc_hidx_get(&x, h, entry_eq, "1") == NULL);
}

int main(void) {
  test_function();
  test_index();
  test_collisions();
  printf("hash: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
