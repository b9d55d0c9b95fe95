/* The PDF writer of the typesetter: pages, text, rules, links, outline,
 * page labels and metadata, written through libharu 2.3.0; fonts (any
 * OpenType face, ts_pdffont.h) and TJ arrays go through its object API.
 * All of libharu's internal-object use is in ts_pdf.c, ts_pdffont.c and,
 * for tagged PDF (the structure tree, ts_tag.h), ts_tag.c.
 *
 * Coordinates are PDF points with the origin at the bottom left of the
 * page. Text is given as Unicode code points with optional TJ
 * adjustments; the writer draws each with its glyph in the font's cmap.
 *
 * Ownership: a ts_pdf lives in the arena it was made in; its libharu
 * document is freed when the arena is. Output is byte-identical for the
 * same calls (no date unless one is given). */
#ifndef OCTAVO_TS_PDF_H
#define OCTAVO_TS_PDF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "oc_diag.h"
#include "oc_arena.h"

typedef struct ts_pdf ts_pdf;
typedef struct ts_pdf_font ts_pdf_font;

typedef struct ts_rgb {
  double r, g, b; /* 0..1 */
} ts_rgb;

/* name: the output as the user should read it in messages. */
ts_pdf *ts_pdf_new(oc_arena *a, const oc_reporter *rep, const char *name);

/* Loads face index of an OpenType file (TrueType or CFF outlines, alone
 * or in a collection) once per (path, index); later calls return the same
 * font. It is embedded as a subset of the glyphs drawn with it when the
 * document is saved (ts_pdffont.h). NULL after reporting an error. */
ts_pdf_font *ts_pdf_font_load(ts_pdf *p, const char *path, unsigned index);

/* Appends a page of the given size; returns its index (0-based). */
int ts_pdf_page_add(ts_pdf *p, double width, double height);

/* Print marks outside the trim, as CSS `marks` names them. */
enum { TS_MARKS_CROP = 1, TS_MARKS_CROSS = 2 };

/* The room outside the bleed that marks take on every side, in pt. */
#define TS_PDF_SLUG 24.0

/* Appends a page for print: width x height is the trim size; the media box
 * grows by bleed on every side, and by TS_PDF_SLUG more when marks are
 * asked for (crop marks at the corners, registration crosses at the middle
 * of each side, drawn in the slug, never in the bleed). The TrimBox and
 * BleedBox are written when bleed or marks are non-zero. Callers keep trim
 * coordinates: drawing, links, destinations and outline entries on the
 * page are shifted by the writer. Returns the page's index. */
int ts_pdf_page_add_print(ts_pdf *p, double width, double height, double bleed,
                          unsigned marks);

/* Says nothing more will be drawn on page (links may still be added): its
 * content is then compressed on a second thread while later pages are
 * drawn. Pages must be finished in order; drawing on a finished page is
 * an error. Optional: unfinished pages are compressed when saving. */
void ts_pdf_page_done(ts_pdf *p, int page);
size_t ts_pdf_page_count(const ts_pdf *p);

/* Draws codes[0..n) with the font at size, baseline starting at (x, y).
 * kern (may be NULL): kern[i] is added to the pen position before glyph i,
 * in 1/1000 em (as ts_face_shape gives it; the writer negates it for TJ).
 * char_space: extra points after every glyph (letter-spacing). */
void ts_pdf_text(ts_pdf *p, int page, ts_pdf_font *font, double size, double x,
                 double y, ts_rgb color, const uint32_t *codes,
                 const int32_t *kern, size_t n, double char_space);

/* Images: PNG (read and normalised by libpng: 16-bit and interlaced files
 * are re-encoded as 8-bit, which libharu 2.3.0 needs) and JPEG (passed
 * through). */
typedef struct ts_pdf_image ts_pdf_image;

typedef enum ts_image_status {
  TS_IMAGE_OK,
  TS_IMAGE_UNREADABLE, /* missing, or a broken file */
  TS_IMAGE_UNSUPPORTED /* not PNG, JPEG, GIF or SVG (WebP, TIFF, ...) */
} ts_image_status;

/* The size of a PNG or JPEG in pixels and its resolution (dots per inch,
 * 96 when the file does not say), without a ts_pdf: safe while another
 * thread uses one. */
ts_image_status ts_image_probe(const char *path, unsigned *width,
                               unsigned *height, double *dpi);

/* Loads an image into the document (once per path and resolution) for
 * placing at w x h points (0: its natural size); NULL after reporting an
 * error naming it. A PNG or JPEG over the pixel cap is refused from its
 * header; one with more pixels than w x h needs at the ppi cap is decoded
 * row by row and reduced by a whole factor (ts_image.h). */
ts_pdf_image *ts_pdf_image_load(ts_pdf *p, const char *path, double w,
                                double h);
/* The caps (the edition options image_max_megapixels and image_max_ppi;
 * ts_image.h has the defaults): 0 removes either. */
void ts_pdf_set_image_limits(ts_pdf *p, uint64_t max_pixels,
                             unsigned max_ppi);

/* Draws the image scaled to w x h points, its bottom left at (x, y). */
void ts_pdf_draw_image(ts_pdf *p, int page, ts_pdf_image *img, double x,
                       double y, double w, double h);

/* A filled rectangle (x, y: bottom left). */
void ts_pdf_fill_rect(ts_pdf *p, int page, double x, double y, double w,
                      double h, ts_rgb color);

typedef enum ts_line_style {
  TS_LINE_SOLID,
  TS_LINE_DASHED,
  TS_LINE_DOTTED
} ts_line_style;

/* A straight line of the given width. */
void ts_pdf_line(ts_pdf *p, int page, double x1, double y1, double x2,
                 double y2, double width, ts_rgb color, ts_line_style style);

/* A link over the rectangle (x, y bottom left, w, h) to a place on a page
 * (top of the view at y; the reader's zoom kept), or to a URI. Links may
 * point at pages added later; add them at any time before saving. */
void ts_pdf_link_dest(ts_pdf *p, int page, double x, double y, double w,
                      double h, int target_page, double target_y);
void ts_pdf_link_uri(ts_pdf *p, int page, double x, double y, double w,
                     double h, const char *uri);

/* An outline (bookmark) entry under parent (-1: top level), pointing at a
 * place on a page; returns its id for children. Entries are shown in the
 * order they are added. open: shown expanded. */
int ts_pdf_outline(ts_pdf *p, int parent, const char *title_utf8, int page,
                   double y, bool open);

typedef enum ts_page_label_style {
  TS_LABEL_DECIMAL,
  TS_LABEL_LOWER_ROMAN,
  TS_LABEL_UPPER_ROMAN,
  TS_LABEL_LOWER_ALPHA,
  TS_LABEL_UPPER_ALPHA,
  TS_LABEL_NONE /* prefix only */
} ts_page_label_style;

/* From first_page on, pages are labelled in style starting at start. */
void ts_pdf_page_label(ts_pdf *p, int first_page, ts_page_label_style style,
                       int start, const char *prefix);

/* Covers, in front of the body: page indexes of every other call stay
 * those of the body (0 is its first page), and the page labels are moved
 * past the cover, which is labelled "Cover".
 *
 * A cover image: a page of the geometry of ts_pdf_page_add_print showing
 * img scaled to cover the page and its bleed, centred and cropped by the
 * bleed box. At most one, before or after the body's pages are added. */
int ts_pdf_cover_image(ts_pdf *p, ts_pdf_image *img, double width,
                       double height, double bleed, unsigned marks);

/* A blank page of the geometry of ts_pdf_page_add_print after the cover
 * (the inside cover of a two-sided book), labelled with it, not counted
 * among the body's pages. Before the body's first page is added. */
int ts_pdf_inside_cover(ts_pdf *p, double width, double height, double bleed,
                        unsigned marks);

/* Says that n pages will be put in front of the saved file (a cover PDF,
 * see pdf_cover.h), so that the labels written now fit the merged file. */
void ts_pdf_front_pages(ts_pdf *p, int n);

/* PDF/A-1b: an OutputIntent with the sRGB ICC profile at icc_path (an ICC
 * version 2 profile, as PDF 1.4 wants), XMP metadata matching the Info
 * dictionary, a trailer /ID derived from the content (not the clock),
 * printable link annotations, the font descriptors' CapHeight and CIDSet,
 * and PNG alpha flattened on white (PDF/A-1 has no transparency). Call
 * before loading images. 0, or -1 after reporting (the profile cannot be
 * read). */
int ts_pdf_set_pdfa(ts_pdf *p, const char *icc_path);

typedef struct ts_pdf_info {
  const char *title, *author, *subject, *keywords, *creator;
  const char *language; /* BCP 47, e.g. "en-GB": the catalog's /Lang */
  bool has_date;
  time_t date; /* creation and modification date, written in UTC */
} ts_pdf_info;
void ts_pdf_set_info(ts_pdf *p, const ts_pdf_info *info);

/* Writes the document to path. 0 on success; -1 after reporting. */
int ts_pdf_save(ts_pdf *p, const char *path);

#endif
