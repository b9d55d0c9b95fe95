/* The website's search index (octavo_search, a leaf library: it links
 * octavo_base, libstemmer, utf8proc and zlib only): words of each page
 * mapped to the sections that hold them, stemmed for the book's language
 * by a Snowball stemmer (libstemmer), Han and kana by single characters
 * and pairs; written as a script, search-index.js, that the browser side
 * (search.js, embedded here) reads from file:// as well as over HTTP.
 *
 * Its input is text already read out of the pages (the book's
 * book_search.c reads the HTML): a page, then its sections, each with an
 * id, a title and a body given in pieces. The format is in
 * docs/design.md ("Search on the website"). Every input is untrusted:
 * what grows (distinct words, postings, sections) is capped, every string
 * is escaped for a script, the work is linear in the text.
 *
 * Memory: an si_index owns everything it keeps (copies of the names, ids
 * and texts given); si_write returns a heap string the caller frees.
 * Nothing here prints. */
#ifndef OCTAVO_SI_INDEX_H
#define OCTAVO_SI_INDEX_H

#include <stdbool.h>
#include <stddef.h>

typedef struct si_index si_index;

/* An index for a book in language (config's `language`: "en", "pt_BR",
 * "english"…): its Snowball stemmer when libstemmer has one, else words
 * are only lower-cased. */
si_index *si_new(const char *language);
void si_free(si_index *s);
/* The stemmer's name ("english"), NULL when words are not stemmed. */
const char *si_stemmer(const si_index *s);

/* Starts a page: file is its name on the website ("chapter-1.html"). Its
 * sections follow. False, counted in si_dropped, when the index holds as
 * many sections as it may: the page is left out. */
bool si_page(si_index *s, const char *file);
/* Ends the current section (its words indexed, its text kept) and starts
 * one in the current page; id is its fragment ("" for the page's top,
 * which a link reaches without one). False when no page was started, or
 * past the cap on sections (counted in si_dropped): the text that follows
 * goes nowhere until the next section starts. */
bool si_section(si_index *s, const char *id);
/* Appends text (UTF-8, valid or not; p[0..n)) to the current section's
 * title (title true) or body, runs of spaces, tabs and line ends made one
 * space. A section's title is what searches weigh most and what results
 * show, clipped to 200 code points. */
void si_text(si_index *s, bool title, const char *p, size_t n);
/* Ends the current section, if one is open. */
void si_end(si_index *s);

/* What the caps left out (0 when nothing was). */
size_t si_dropped(const si_index *s);

/* search-index.js (heap, *len set): one statement assigning the global
 * octavoSearchIndex. Ends the current section. Byte-identical for the same
 * input. Call it once, last: the index takes no page after it. */
char *si_write(si_index *s, size_t *len);

/* The built-in browser side (search.js; static, *len set). */
const char *si_script(size_t *len);

#endif
