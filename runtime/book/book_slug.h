/* Slugs and the book's set of ids.
 *
 * A slug is what Easybook's slugger makes of a heading or title: HTML tags
 * stripped, text transliterated to ASCII (accents removed through utf8proc;
 * other scripts through ICU's "Any-Latin; Latin-ASCII" transliterator, as
 * Easybook did, so "種の起源" gives "zhongno-qi-yuan"), lower-cased, every
 * run of separators (white space, '-', '_', '/', '|', '+') turned into one
 * '-', every other character dropped ("Octavo's tools" gives
 * "octavos-tools", "1.2" gives "12", as Easybook's did), and '-' trimmed
 * from both ends. ICU is opened only when a text needs it.
 *
 * Ids: one set per book, so that heading, figure, table and footnote ids are
 * unique across the whole book (a one-page edition holds every item). */
#ifndef OCTAVO_BOOK_SLUG_H
#define OCTAVO_BOOK_SLUG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tpl_value.h"

typedef struct bk_slugger bk_slugger;

/* Owns the ICU transliterator when one was opened. */
bk_slugger *bk_slugger_new(void);
void bk_slugger_free(bk_slugger *s);

/* The slug of text (UTF-8; may hold inline HTML, whose tags are skipped and
 * whose entities &amp; &lt; &gt; &quot; &apos; &nbsp; &#NNN; &#xHH; are
 * decoded first), allocated in a. "" when nothing is left. Not thread-safe
 * (the transliterator is the slugger's). */
const char *bk_slug(bk_slugger *s, oc_arena *a, const char *text, size_t len);

typedef struct bk_idset bk_idset;

/* Lives in a. */
bk_idset *bk_idset_new(oc_arena *a);
bool bk_idset_has(const bk_idset *set, const char *id);
/* Adds id; false (and nothing added) when it was already there. */
bool bk_idset_add(bk_idset *set, const char *id);
/* base when free, else the first free of base-2, base-3, …; the result is
 * added to the set. An empty base counts as "section". */
const char *bk_idset_unique(bk_idset *set, const char *base);
/* What the set holds, in 64 bits: the sum of a hash of each member, so the
 * same members give the same digest whatever order they came in (the
 * Markdown cache of book.h keys a content file's result by it). */
uint64_t bk_idset_digest(const bk_idset *set);
/* digest with id added (id not a member). */
uint64_t bk_idset_digest_with(uint64_t digest, const char *id);

#endif
