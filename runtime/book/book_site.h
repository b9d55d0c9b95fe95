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
/* The image caps every edition applies to a PNG or JPEG of the book
 * (issue 13): more pixels than image_max_megapixels (read from the header,
 * nothing decoded), or a file that does not decode whole (truncated,
 * corrupt), is reported at the Markdown's file:line with severity sev.
 * Returns 0 when the image may be used, -1 when reported. */
int bk_image_check(bk_edition *e, const char *abs, const char *written,
                   const char *file, unsigned line, unsigned col,
                   oc_severity sev);
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

typedef struct site {
  bk_edition *e;
  const char *ext; /* ".html", ".xhtml" */
  bool keep_toc;   /* a contents `toc` gets a page (EPUB) */
  page *pages;
  size_t npages, cap;
  tpl_map *id_page; /* id → page index */
  tpl_value toc;    /* flattened TOC */
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

#endif
