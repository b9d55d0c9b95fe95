/* The website's search index (book_search.c): the book's pages read as
 * HTML, their text split into sections at headings with ids and handed to
 * the index of runtime/search (si_index.h), which maps words, stemmed for
 * the book's language by a Snowball stemmer (libstemmer), to the sections
 * that hold them, and writes search-index.js, which the browser side
 * (search.js) reads from file:// as well as over HTTP.
 *
 * The format is in docs/design.md ("Search on the website"). Every input
 * is untrusted: what grows (distinct words, postings, sections) is capped,
 * every string is escaped for a script, the work is linear in the text.
 *
 * Memory: a bk_search owns everything it keeps; bk_search_write returns a
 * heap string the caller frees. */
#ifndef OCTAVO_BOOK_SEARCH_H
#define OCTAVO_BOOK_SEARCH_H

#include <stdbool.h>
#include <stddef.h>

typedef struct bk_search bk_search;

/* An index for a book in language (config's `language`: "en", "pt_BR",
 * "english"…): its Snowball stemmer when libstemmer has one, else words
 * are only lower-cased. */
bk_search *bk_search_new(const char *language);
void bk_search_free(bk_search *s);
/* The stemmer's name ("english"), NULL when words are not stemmed. */
const char *bk_search_stemmer(const bk_search *s);

/* Adds a page: file (its name on the website, "chapter-1.html"), title
 * (HTML: the page's first section, linked without a fragment) and html,
 * the page's content. A heading with an id in html starts a section;
 * text in <pre>, <script> and <style> is left out. */
void bk_search_add_page(bk_search *s, const char *file, const char *title,
                        const char *html);

/* What the caps left out (0 when nothing was). */
size_t bk_search_dropped(const bk_search *s);

/* search-index.js (heap, *len set): one statement assigning the global
 * octavoSearchIndex. Byte-identical for the same pages. */
char *bk_search_write(bk_search *s, size_t *len);

/* The built-in browser side (search.js; static, *len set). */
const char *bk_search_script(size_t *len);

#endif
