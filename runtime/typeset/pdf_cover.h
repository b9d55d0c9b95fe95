/* A cover PDF in front of the typeset book, as Easybook merged cover.pdf:
 * every page of the cover, then every page of the book, whose catalog
 * (outline, page labels, metadata, output intents) is kept. The PDF work
 * is qpdf's (its C API), so a cover from any tool is read as qpdf reads
 * it.
 *
 * Both calls report through rep, naming the cover as `name` (the path the
 * user would recognise, "Resources/Templates/print/cover.pdf"). */
#ifndef OCTAVO_PDF_COVER_H
#define OCTAVO_PDF_COVER_H

#include "oc_diag.h"

/* The number of pages of the cover (at least 1); -1 after reporting that
 * qpdf cannot read it or that it has no page. */
int pdf_cover_pages(const char *cover_path, const char *name,
                    const oc_reporter *rep);

/* Writes out_path: the cover's pages, then book_path's. Reproducible: the
 * same inputs give the same bytes (the /ID is derived from the content).
 * 0, or -1 after reporting; out_path may then hold a partial file. */
int pdf_cover_merge(const char *cover_path, const char *name,
                    const char *book_path, const char *out_path,
                    const oc_reporter *rep);

#endif
