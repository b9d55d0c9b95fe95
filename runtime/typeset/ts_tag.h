/* Tagged PDF (PDF/UA-1): marked content in the page streams and the
 * structure tree, written through libharu (ts_tag.c: its dictionaries,
 * whose entries a write hook prints for the tree's elements). The
 * engine says which structure element each drawn piece belongs to; the
 * writer numbers each page's marked content and, when saving, builds the
 * tree in document order, its parent tree, the pages' /StructParents and
 * /Tabs, the links' object references and the catalog's /MarkInfo,
 * /StructTreeRoot and /ViewerPreferences (the XMP's PDF/UA identification
 * is written with the metadata, ts_pdf.c).
 *
 * Ownership: everything lives in the ts_pdf's arena. */
#ifndef OCTAVO_TS_TAG_H
#define OCTAVO_TS_TAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ts_pdf.h"

/* A structure element; elements are named by their index (sid) in the
 * array given to ts_pdf_tag_elements, 0 being none. */
typedef struct ts_tag_elem {
  const char *type;  /* a standard structure type: "P", "H1", "Figure" */
  uint32_t parent;   /* 0: the root of the tree */
  uint32_t ord;      /* its place among its parent's kids (document order) */
  const char *alt;   /* /Alt; NULL: none */
  const char *lang;  /* /Lang; NULL: the document's */
  const char *scope; /* a TH's /Scope: "Column" or "Row"; NULL: none */
} ts_tag_elem;

/* Makes the document a tagged one: call before adding pages. */
void ts_pdf_set_tagged(ts_pdf *p);
bool ts_pdf_tagged(const ts_pdf *p);

/* What is drawn next on page (each drawing call being whole) is real
 * content of the element sid (type: the element's structure type, the
 * sequence's tag; ord: its place in the element's kids), or an artifact
 * when sid is 0: the sequence open goes on when both are artifacts, else
 * it is closed and another opened.
 * ts_pdf_mark_end closes it: call it before ts_pdf_page_done. Nothing is
 * written to an untagged PDF. */
void ts_pdf_mark_begin(ts_pdf *p, int page, uint32_t sid, uint32_t ord,
                       const char *type);
void ts_pdf_mark_end(ts_pdf *p, int page);

/* The link added last belongs to the Link element sid (its annotation
 * becomes an object reference among its kids, at ord). */
void ts_pdf_link_tag(ts_pdf *p, uint32_t sid, uint32_t ord);

/* The structure elements, elems[1..n) (elems[0] is not read), given once
 * before saving; elements that hold no content are left out. */
void ts_pdf_tag_elements(ts_pdf *p, const ts_tag_elem *elems, size_t n);

#endif
