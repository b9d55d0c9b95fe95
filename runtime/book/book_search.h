/* The website's search index, the book's side (book_search.c): a page's
 * HTML read, its text split into sections at headings with ids and handed
 * to the index of runtime/search (si_index.h: si_new, si_dropped,
 * si_write, si_script, si_free), which stems, counts and writes
 * search-index.js. The format is in docs/design.md ("Search on the
 * website"). The HTML is untrusted: it is read in one pass (book_htmltext)
 * and what the index keeps is capped there. */
#ifndef OCTAVO_BOOK_SEARCH_H
#define OCTAVO_BOOK_SEARCH_H

#include "si_index.h"

/* Adds a page to x: file (its name on the website, "chapter-1.html"),
 * title (HTML: the page's first section, linked without a fragment) and
 * html, the page's content. A heading with an id in html starts a
 * section; text in <pre>, <script> and <style> is left out. */
void bk_search_add_page(si_index *x, const char *file, const char *title,
                        const char *html);

#endif
