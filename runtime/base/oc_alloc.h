/* The allocation policy of every Octavo library: memory comes from these
 * functions (or from an arena, which takes its chunks here), and none of
 * them returns NULL. Running out of memory, or a size computation that
 * overflows, prints one line ("octavo: out of memory") and aborts, as
 * cmark's xmalloc does: no caller has a sane way to go on without memory,
 * and checking at 100 call sites is 100 chances to get it wrong.
 *
 * What a book may make Octavo allocate is capped before it gets here (the
 * arena's limit, the input caps), so this is the last line, not the
 * policy for hostile input. */
#ifndef OCTAVO_OC_ALLOC_H
#define OCTAVO_OC_ALLOC_H

#include <stddef.h>

void *oc_malloc(size_t size);
void *oc_calloc(size_t n, size_t size);
/* realloc(p, size); frees nothing on failure because it never fails. */
void *oc_realloc(void *p, size_t size);
/* realloc(p, n * size) with the product checked. */
void *oc_reallocarray(void *p, size_t n, size_t size);
char *oc_strdup(const char *s);
char *oc_strndup(const char *s, size_t n); /* NUL-terminated copy */

/* Overflow-checked size arithmetic: overflow is treated as out of memory. */
size_t oc_size_mul(size_t a, size_t b);
size_t oc_size_add(size_t a, size_t b);

/* Prints "octavo: out of memory" and aborts. */
_Noreturn void oc_oom(void);

/* Grows a heap array *items of *cap elements of `size` bytes so that it
 * holds at least `need`, doubling (at least 8). The one growth rule for
 * malloc'd arrays; arena arrays use oc_arena_grow_array. */
void oc_grow(void **items, size_t *cap, size_t need, size_t size);
#define OC_GROW(items, cap, need)                                              \
  oc_grow((void **)&(items), &(cap), (need), sizeof *(items))

#endif
