/* What the tagged-PDF writer (ts_tag.c) shares with the PDF writer
 * (ts_pdf.c): the libharu objects underneath a ts_pdf, and the hooks
 * ts_pdf.c calls. Included by those two files only: they are the ones
 * that use libharu's internal headers. */
#ifndef OCTAVO_TS_PDF_INT_H
#define OCTAVO_TS_PDF_INT_H

#include <hpdf.h>
#include <hpdf_list.h>
#include <hpdf_objects.h>

#include "ts_pdf.h"

typedef struct ts_tag ts_tag;

/* The object number libharu gave obj (its header's low 24 bits). */
static inline unsigned ts_hpdf_obj_id(const void *obj) {
  return ((const HPDF_Obj_Header *)obj)->obj_id & 0x00FFFFFF;
}

/* libharu grows its lists (the cross-reference table, arrays) by a fixed
 * step: a million objects would copy the table a thousand times. Called
 * before adding to a list, this makes the step the list's length, so
 * that it doubles. */
static inline void ts_hpdf_list_doubling(HPDF_List l) {
  if (l && l->items_per_block < l->count)
    l->items_per_block = l->count;
}

HPDF_Doc ts_pdf_hpdf(ts_pdf *p);
oc_arena *ts_pdf_arena(ts_pdf *p);
/* The first failure was met: nothing more is written. */
bool ts_pdf_has_failed(const ts_pdf *p);
/* Page i of the body (NULL after a misuse, reported when saving); a page
 * to draw on must not be finished. */
HPDF_Page ts_pdf_hpdf_page(ts_pdf *p, int page);
HPDF_Page ts_pdf_hpdf_draw_page(ts_pdf *p, int page);
/* The cover image's page, NULL when there is none. */
HPDF_Page ts_pdf_hpdf_cover(ts_pdf *p);
size_t ts_pdf_link_count(const ts_pdf *p);
/* A PDF text string (UTF-16BE) of UTF-8 s. */
HPDF_Binary ts_pdf_text_string(ts_pdf *p, const char *s);
ts_tag *ts_pdf_tag_state(const ts_pdf *p);
void ts_pdf_set_tag_state(ts_pdf *p, ts_tag *t);

/* ts_tag.c, called by ts_pdf.c: the annotation made for link number
 * link (in the order of ts_pdf_link_dest and _uri), and the structure
 * written when saving, before libharu writes the file. */
long ts_tag_annot(ts_tag *t, HPDF_Annotation a, int page, size_t link);
void ts_tag_finish(ts_tag *t);

#endif
