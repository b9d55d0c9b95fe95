/* Hyphenation points of words, from libhyphen and the pattern dictionaries
 * Debian installs under /usr/share/hyphen (hyphen-en-us, hyphen-de, ...).
 *
 * Ownership: a hyphenator lives in the arena it was made in; the libhyphen
 * dictionaries it loads are freed when that arena is freed. Dictionaries are
 * loaded on first use of a language and kept. Not thread-safe: one
 * hyphenator per thread. */
#ifndef OCTAVO_TS_HYPHEN_H
#define OCTAVO_TS_HYPHEN_H

#include <stddef.h>

#include "oc_arena.h"

#define TS_HYPHEN_DIR "/usr/share/hyphen"

typedef struct ts_hyphenator ts_hyphenator;

typedef enum ts_hyphen_status {
  TS_HYPHEN_OK = 0,
  TS_HYPHEN_NO_DICT,  /* no dictionary for the language: set it unhyphenated */
  TS_HYPHEN_BAD_DICT, /* a dictionary that libhyphen cannot load, or in a
                         character set other than UTF-8 and ISO8859-1 */
  TS_HYPHEN_BAD_LANG, /* not a language code */
} ts_hyphen_status;

/* dir: where the hyph_*.dic files are; NULL for TS_HYPHEN_DIR. */
ts_hyphenator *ts_hyphenator_new(oc_arena *a, const char *dir);

/* TeX's lefthyphenmin and righthyphenmin (2 and 3 by default): the fewest
 * characters kept before and after a hyphen. A dictionary asking for more
 * gets more. Zero or less leaves a value unchanged. */
void ts_hyphenator_set_min(ts_hyphenator *h, int left, int right);

/* Loads the dictionary for lang (e.g. "en", "en-GB", "pt_BR", "de-CH") if
 * needed. Tried in order: hyph_<ll>_<RR>.dic for the region given,
 * hyph_<ll>.dic, the language's usual region (en_US, de_DE, ca_ES, ...),
 * then any hyph_<ll>_*.dic. When path is not NULL it receives the file
 * used (owned by the hyphenator) or NULL. */
ts_hyphen_status ts_hyphen_load(ts_hyphenator *h, const char *lang,
                                const char **path);

/* Finds the hyphenation points of word (UTF-8, len bytes): points[i] is the
 * byte offset where a hyphen may go (the second part starts there), in
 * increasing order. Writes at most max points, returns how many it found in
 * *count. The word may carry punctuation: only runs of letters are
 * hyphenated, separately (so "well-known" or "«Silbentrennung»" work).
 * Runs with digits and runs in capitals only (acronyms) are left whole;
 * capitalised words are hyphenated as in lower case. Invalid UTF-8 and
 * characters the dictionary cannot represent give no points. Points libhyphen
 * marks as non-standard (a spelling change such as Catalan "l·l" -> "l-l")
 * are left out. */
ts_hyphen_status ts_hyphenate(ts_hyphenator *h, const char *lang,
                              const char *word, size_t len, size_t *points,
                              size_t max, size_t *count);

#endif
