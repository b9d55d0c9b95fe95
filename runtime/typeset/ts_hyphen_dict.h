/* Loading a libhyphen pattern file (hyph_*.dic) in time linear in its size,
 * into libhyphen's own HyphenDict, for hnj_hyphen_hyphenate2.
 *
 * Ownership: the dictionary lives in the arena (never hnj_hyphen_free it).
 * Errors: NULL when the file cannot be read, or with *unsupported set when
 * it holds a pattern with a replacement (`/`, non-standard hyphenation such
 * as Catalan l·l): the caller then loads it with hnj_hyphen_load. */
#ifndef OCTAVO_TS_HYPHEN_DICT_H
#define OCTAVO_TS_HYPHEN_DICT_H

#include <stdbool.h>

#include <hyphen.h>

#include "oc_arena.h"

HyphenDict *ts_hyphen_dict_load(oc_arena *a, const char *path,
                                bool *unsupported);

#endif
