/* The PDF engine's entry point: a well-formed XHTML document and the style
 * sheets that apply to it (the CSS subset of css.h) are typeset into a PDF
 * file. The engine knows nothing of books or Markdown: the book side
 * (book_pdf.c) renders the templates to XHTML and hands them here.
 *
 * What the engine reads from the document:
 *  - the styled box tree: every element through the cascade of css.h;
 *  - <a href="#id"> links (live links; target-counter(attr(href), page)
 *    in a ::after or ::before content prints the target's page), <a
 *    href="http..."> URI links, and id attributes as link targets;
 *  - running heads from string-set, page numbers from counter(page) in the
 *    margin boxes of @page rules (their counter style also gives the PDF's
 *    page labels, so a viewer shows the printed numbers);
 *  - the `lang` of the root element for hyphenation, else input->lang;
 *    each element's lang for line breaking in Chinese and Japanese (between
 *    characters, with their prohibitions) and Korean (at spaces).
 *  - for a tagged PDF (unless input->untagged), the elements as structure
 *    (ts_struct.c: headings, paragraphs, lists, tables, figures with
 *    their img's alt, footnotes, links, code, sections, the TOC list of
 *    class toc-list), and every element's own lang.
 *
 * Ownership: everything lives in the arena given; the output file is
 * written whole at pdf_path (the caller writes to a temporary path and
 * renames). */
#ifndef OCTAVO_TS_ENGINE_H
#define OCTAVO_TS_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "oc_diag.h"
#include "css.h"
#include "oc_arena.h"
#include "ts_pdf.h"

typedef struct ts_outline_entry {
  int level;         /* 1.. */
  const char *title; /* UTF-8, plain text */
  const char *id;    /* the target element's id */
} ts_outline_entry;

typedef struct ts_engine_input {
  const char *xhtml; /* the document, UTF-8 */
  size_t len;
  const char *name; /* how messages name the document, e.g. "book.xhtml" */
  /* Optional: the document already parsed by libxml2 (an xmlDocPtr, from
     xhtml): read, not parsed again, and left to the caller to free, unless
     xml_doc_give: then the engine frees it as soon as it has made its own
     tree (a 100,000-heading book's libxml2 tree is ~200 MB). */
  void *xml_doc;
  bool xml_doc_give;
  /* Author sheets in cascade order (the theme's, then the book's); the
     engine adds its user-agent sheet in front. */
  const css_stylesheet *const *sheets;
  size_t nsheets;
  const char *lang; /* when the root has no lang; NULL: no hyphenation */
  /* The page size when no @page rule gives one, in pt (A4 if zero). */
  double page_width, page_height;
  /* Resolves a url() of a sheet (@font-face src) or an image src of the
     document to a readable absolute path, refusing paths that leave the
     book; NULL after reporting (base: the sheet's or document's name). */
  const char *(*resolve)(void *user, const char *url, const char *base,
                         unsigned line, unsigned col);
  void *resolve_user;
  /* Optional: Unicode's line break opportunities (UAX #14) in cps[0..n),
     a run without spaces in language lang (BCP 47, or NULL) that holds
     Han or kana: sets brk[i] true where a line may break before cps[i]
     and returns true, or false when it cannot tell. The book side gives
     ICU's line break iterator, which the engine may not link; without it
     the engine breaks between Han and kana characters by its own rules
     only (ts_cjk.h), not where they meet Latin text. */
  bool (*line_breaks)(void *user, const char *lang, const uint32_t *cps,
                      size_t n, bool *brk);
  void *line_breaks_user;
  ts_pdf_info info;
  /* The PDF outline (bookmarks), in document order: level 1 is top; each
     entry points at the element with that id (entries whose id is not in
     the document are reported as warnings and left out). */
  const struct ts_outline_entry *outline;
  size_t noutline;
  const oc_reporter *rep;
  /* Print production, used when no @page rule sets `bleed` or `marks`:
     the bleed in pt and TS_MARKS_* bits (ts_pdf.h). */
  double bleed;
  int marks;
  /* A PNG or JPEG printed full-bleed as page 1, before the document's
     pages (NULL: none); it takes no page number. */
  const char *cover_image;
  /* The number of pages the caller puts in front of the PDF afterwards (a
     cover PDF): the page labels are written for the merged file. */
  int front_pages;
  /* A two-sided book: when the front (cover_image's page and front_pages)
     is an odd number of pages, a blank inside cover follows it, so that
     the body's first page is a right-hand page on paper as in the
     layout, and every page's inner margin is on the binding side. */
  bool two_sided;
  /* PDF/A-1b, with the sRGB ICC (version 2) profile at this path; NULL:
     a plain PDF. */
  const char *pdfa_icc;
  /* The image caps (ts_image.h): pixels from the header (0: the default
     100 megapixels) and the resolution kept at the placed size (0: the
     default 300 ppi). */
  uint64_t image_max_pixels;
  unsigned image_max_ppi;
  /* An untagged PDF (the edition option pdf_tagged: false); by default
     the PDF is tagged as PDF/UA-1 asks (ts_tag.h): a structure tree from
     the document's elements, artifacts for what is not content. */
  bool untagged;
  /* The caller has reported links to ids the document lacks: the engine
     prints "??" for their references without a warning of its own. */
  bool links_checked;
  /* Say where each page starts (ts_engine_stats.page_starts), for an
     e-book that marks the printed pages. */
  bool page_starts;
} ts_engine_input;

/* Where a printed page starts in the document. The element is counted
 * among the document's elements in document order (the root is 0), as a
 * walk of libxml2's tree of the same XHTML counts XML_ELEMENT_NODEs; the
 * offset is in bytes of its text content (its descendant text and CDATA
 * nodes, in order, as libxml2 gives them), where the first word that
 * starts on the page comes from. */
typedef struct ts_page_start {
  const char *label; /* the page label the PDF gives it ("iv", "12"; "" for
                        a page whose numbers are `none`) */
  size_t element;    /* SIZE_MAX: no word starts on the page (a blank page,
                        a figure alone, a word's end after a hyphen) */
  size_t offset;
} ts_page_start;

typedef struct ts_engine_stats {
  size_t pages;
  int passes;   /* layouts run until page references settled */
  size_t lines; /* text lines set */
  /* Seconds spent reading the document, laying out (all passes), breaking
     pages (all passes) and drawing and saving the PDF. */
  double t_read, t_layout, t_pages, t_write;
  /* With input.page_starts: one a page, in the arena given to the render;
     the PDF's pages after the front pages and cover image the input adds. */
  ts_page_start *page_starts;
} ts_engine_stats;

/* 0 on success; -1 after reporting an error (nothing usable written). */
int ts_engine_render(oc_arena *a, const ts_engine_input *in,
                     const char *pdf_path, ts_engine_stats *stats);

#endif
