/* The writers: one entry point per edition format, each turning a loaded
 * edition (book.h) into its files under the output's temporary folder
 * (book_fs.h), and the lookup of the themes compiled into publish
 * (book_themes.c).
 *
 * Memory: what the writers build lives in the edition's arena. Each
 * returns 0, or -1 after reporting the errors through the edition's
 * reporter. */
#ifndef OCTAVO_BOOK_WRITERS_H
#define OCTAVO_BOOK_WRITERS_H

#include <stdbool.h>
#include <stdio.h>

#include "book.h"
#include "book_fs.h"

/* Finds a theme compiled into this program; false when there is none of
 * that name for that format. */
bool bk_find_theme(const char *name, const char *format, bk_theme *found);
/* Comma-separated names of the built-in themes, for messages (static). */
const char *bk_theme_names(void);
/* Adds themes to the bundled ones (a themed publish, `themec build`; they
 * hide bundled themes of the same name) and sets the default theme name
 * (NULL: clean). The table must outlive every edition. */
void bk_themes_set(const tpl_theme *themes, size_t n, const char *dflt);
/* `publish --themes`: one line per theme, its formats and notes. */
void bk_themes_print(FILE *f);
/* The theme folder that holds a format's templates ("epub" for mobi). */
const char *bk_theme_format_dir(const char *format);

int bk_write_html(bk_edition *e, bk_out *o);
int bk_write_html_chunked(bk_edition *e, bk_out *o);
/* format epub (and mobi, which Kindle now takes as EPUB): book.epub. */
int bk_write_epub(bk_edition *e, bk_out *o);
/* format pdf: book.pdf, typeset by ts_engine.h from the theme's book.twig
 * (one XHTML document) and style sheets; with opt->xhtml also book.xhtml,
 * theme.css and style.css as the engine received them. */
int bk_write_pdf(bk_edition *e, bk_out *o);

/* The printed pages (book_pages.c) of pdf edition `edition`: made empty in
 * arena a (publish's, which outlives the editions), filled by
 * bk_write_pdf through e->pages_out, read by bk_write_epub through
 * e->pages_in. */
bk_print_pages *bk_print_pages_new(oc_arena *a, const char *edition);
/* How many pages it holds (0 until the pdf edition was set). */
size_t bk_print_pages_count(const bk_print_pages *pp);

#endif
