/* What the writers share (book_site.c): the sink that
 * files go to (a folder, or a zip being built), the theme's styles and the
 * book's images, and the plan of a book cut into pages (a website, an
 * EPUB): page names, the flattened TOC, ids mapped to pages, links
 * rewritten to the page that holds their target. Private to the writers. */
#ifndef OCTAVO_BOOK_SITE_H
#define OCTAVO_BOOK_SITE_H

#include "book.h"
#include "book_fs.h"
#include "book_writers.h"
#include "oc_sb.h"

tpl_value bk_vars1(bk_edition *e, const char *k, tpl_value v);

/* Renders each item through its element's template (else item.twig); the
 * result becomes the item's content, as Easybook's decoration did
 * (book_html.c; used by the html and pdf writers). */
int bk_decorate_items(bk_edition *e);

/* Where a writer's files go. put() returns 0 or -1 after reporting. */
typedef struct bk_sink {
  int (*put)(void *user, const char *rel, const char *data, size_t len);
  void *user;
} bk_sink;

/* A sink writing into an output folder (bk_out). */
bk_sink bk_folder_sink(bk_edition *e, bk_out *o);

/* css/easybook.css (the theme's style.css.twig, when include_styles) and
 * css/styles.css (the book's style.css), under prefix. */
int bk_put_styles(bk_edition *e, bk_sink *s, const char *prefix);

/* Every local image the book uses, once: `images/x` as written in the
 * Markdown (Contents/images/x) goes to images_base_dir under prefix. A
 * missing image is a warning. each(), when given, sees every image read
 * (its place in the output and its bytes) and may refuse it (-1, after
 * reporting at the image's line). */
typedef int (*bk_image_fn)(void *user, const bk_item *it, const bk_md_ref *im,
                           const char *dest, const char *data, size_t len);
int bk_put_images(bk_edition *e, bk_sink *s, const char *prefix,
                  bk_image_fn each, void *user);

typedef struct page {
  const char *file; /* "chapter-1.html", "chapter-1/section.html" */
  const char *root; /* "" or "../" */
  bk_item *item;
  tpl_map *record;     /* `item` of the page */
  const char *content; /* the page's part of the item's HTML */
  const char *title, *label, *slug;
  int level;
} page;

/* An entry of the flattened TOC: a heading and the URL of its place. */
typedef struct bk_toc_entry {
  bk_heading h;
  const char *url;
} bk_toc_entry;

typedef struct site {
  bk_edition *e;
  const char *ext; /* ".html", ".xhtml" */
  bool keep_toc;   /* a contents `toc` gets a page (EPUB) */
  page *pages;
  size_t npages, cap;
  tpl_map *id_page; /* id → page index */
  tpl_value toc;    /* flattened TOC, for the templates */
  bk_toc_entry *entries; /* the same */
  size_t nentries;
} site;

/* Cuts the book into pages (chunk_level from the edition: 1 or 2) and
 * maps every id to its page; then the flattened TOC and each item's own
 * TOC with page URLs. */
int bk_site_plan(site *s, int chunk_level);
void bk_site_toc(site *s);
/* Rewrites href="#id" to the page holding id, relative to page `at`. */
const char *bk_site_fix_links(site *s, const char *html, const page *at);
/* Renders page pg with vars ({item, toc, previous, next}): through the
 * template of its element when there is one, else chunk.twig. An element
 * template that gives a fragment rather than a whole page (one written for
 * the one-page edition) is put inside chunk.twig as the item's content. */
const char *bk_site_render_page(bk_edition *e, page *pg, tpl_map *vars,
                                size_t *len);
/* The page file an id lives on, NULL when unknown. */
const char *bk_site_page_of(site *s, const char *id, size_t len);

/* The first problem of a libxml2 parse (the later ones are its
 * consequences): set bk_xml_keep_first as the structured error handler
 * with a zeroed bk_xml_error. */
typedef struct bk_xml_error {
  bool seen;
  int line;
  char msg[256];
} bk_xml_error;
struct _xmlError;
void bk_xml_keep_first(void *user, struct _xmlError *err);

/* ---- the printed pages in an e-book (book_pages.c) ---------------- */

struct ts_page_start;
/* pdf: e->pages_out filled from the engine's page starts in xml_doc (the
 * libxml2 tree of the XHTML it typeset): each page's label, item, first
 * words. */
void bk_pages_collect(bk_edition *e, void *xml_doc,
                      const struct ts_page_start *starts, size_t n);

/* epub: the markers of e->pages_in, content document by content document
 * in reading order: the cover (index 0, slug "cover"), then page i of s
 * (index i + 1, its item's slug). */
typedef struct bk_page_marks bk_page_marks;
bk_page_marks *bk_pages_begin(bk_edition *e, site *s);
/* The document html (file in the package) with its markers (html itself
 * when none; *len updated), in e's arena. */
const char *bk_pages_mark(bk_page_marks *m, size_t index, const char *slug,
                          const char *file, const char *html, size_t *len);
/* The page-list: {label, url} maps in the printed order; *guessed: how
 * many markers stand where their words were not found. */
tpl_value bk_pages_list(bk_page_marks *m, size_t *guessed);
/* What the pages are of (dc:source): urn:isbn:… or a description. */
const char *bk_pages_source(const bk_print_pages *pp);

#endif
