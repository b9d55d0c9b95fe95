/* The arena: a bump allocator over malloc'd chunks that owns everything a
 * render or a publish run builds (strings, lists, maps, boxes, styles),
 * plus cleanup hooks for foreign objects (compiled regexes, fonts, libxml2
 * documents). Freed all at once; nothing in it is freed alone.
 *
 * Allocation never returns NULL: out of memory follows oc_alloc.h. A cap
 * (oc_arena_set_limit) turns a runaway input into an error instead. */
#ifndef OCTAVO_OC_ARENA_H
#define OCTAVO_OC_ARENA_H

#include <stdarg.h>
#include <stddef.h>

typedef struct oc_arena oc_arena;

oc_arena *oc_arena_new(void);
void oc_arena_free(oc_arena *a); /* runs the hooks, newest first */
void *oc_arena_alloc(oc_arena *a, size_t size);
void *oc_arena_calloc(oc_arena *a, size_t n, size_t size);
char *oc_arena_strndup(oc_arena *a, const char *s, size_t n);
/* Grows the most recent allocation p (of old_size bytes) to new_size in
 * place when it is the last block of the arena's current chunk, else copies
 * it to a new block. */
void *oc_arena_grow(oc_arena *a, void *p, size_t old_size, size_t new_size);
/* Makes room for need items of `size` bytes in an arena array of cap
 * items holding n, doubling; returns the (maybe moved) array and updates
 * *cap. The one growth rule for arena arrays. */
void *oc_arena_grow_array(oc_arena *a, void *items, size_t n, size_t *cap,
                          size_t need, size_t size);
/* printf into the arena; the result is NUL-terminated. */
char *oc_arena_printf(oc_arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
char *oc_arena_vprintf(oc_arena *a, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* Caps the bytes the arena may take (0: no cap). Past the cap it calls
 * on_limit(data), which must not return (a render unwinds with an error);
 * without one, or if it returns, the process stops as on out of memory. */
void oc_arena_set_limit(oc_arena *a, size_t limit,
                        void (*on_limit)(void *data), void *data);
/* Runs fn(data) when the arena is freed (for pcre2 codes and the like). */
void oc_arena_defer(oc_arena *a, void (*fn)(void *), void *data);

#endif
