/* Fonts of the PDF writer: any OpenType face (TrueType or CFF outlines, a
 * file alone or one face of a collection) embedded as a composite font
 * written through libharu's object API, since libharu's own loader takes
 * TrueType files only and addresses glyphs by BMP code point.
 *
 * Each face becomes a Type0 font with the Identity-H encoding over one
 * CIDFont:
 *  - TrueType outlines: CIDFontType2, the program in FontFile2;
 *  - CFF outlines: CIDFontType0, the bare CFF table in FontFile3
 *    /CIDFontType0C (PDF 1.3, so PDF/A-1 allows it).
 * The two-byte codes in the page streams are fixed when the text is drawn,
 * before the subset is known, so they are what survives subsetting:
 *  - TrueType: the original glyph id; a /CIDToGIDMap stream maps it to the
 *    subset's glyph id;
 *  - CID-keyed CFF (Noto CJK, Source Han): the glyph's CID, which
 *    HarfBuzz's subsetter keeps in the subset's charset (FreeType reads it);
 *  - name-keyed CFF (TeX Gyre, Latin Modern): the glyph id, the subset
 *    keeping glyph ids, since a CIDFontType0 over a name-keyed program
 *    takes its codes as glyph ids (ISO 32000-1, 9.7.4.2).
 * The subset (HarfBuzz's hb_subset, layout tables and hinting dropped) is
 * made when the document is saved. A ToUnicode CMap maps every code to the
 * text it was drawn for (f-ligatures to their letters), and /W gives the
 * advances as the engine measured them (ts_font.h: 1/1000 em, truncated).
 *
 * Internal to the writer (ts_pdf.c): it needs libharu's object headers. */
#ifndef OCTAVO_TS_PDFFONT_H
#define OCTAVO_TS_PDFFONT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hpdf.h>

#include "oc_arena.h"
#include "oc_diag.h"

typedef struct ts_pdf_font ts_pdf_font;

/* Opens face index of the file at path. NULL after reporting an error
 * naming the file (unreadable, no glyphs, bitmap or CFF2 outlines). */
ts_pdf_font *ts_pdffont_open(oc_arena *a, const oc_reporter *rep,
                             const char *path, unsigned index);

const char *ts_pdffont_path(const ts_pdf_font *f);
unsigned ts_pdffont_index(const ts_pdf_font *f);

/* The font's Type0 dictionary, made (an indirect object of doc) on the
 * first call: what a page's /Font resources name. NULL when libharu fails
 * (its error handler has been told). */
HPDF_Dict ts_pdffont_dict(ts_pdf_font *f, HPDF_Doc doc);

/* The two-byte code that draws code point cp (its glyph, or .notdef when
 * the face lacks it), marking the glyph as used and remembering cp as the
 * text of the code. */
uint16_t ts_pdffont_code(ts_pdf_font *f, uint32_t cp);

/* Subsets the face to the used glyphs and writes the CIDFont, its
 * descriptor, the font program, /W, the ToUnicode CMap and, with pdfa, the
 * CIDSet PDF/A-1 wants. 0, or -1 after reporting an error. */
int ts_pdffont_finish(ts_pdf_font *f, HPDF_Doc doc, bool pdfa);

#endif
