/* Fonts for the typesetter: families resolved through fontconfig to
 * OpenType faces (TrueType or CFF outlines, alone in their file or in a
 * collection) that the PDF writer embeds, glyph coverage, advance widths as
 * the PDF's /W array gives them, kerning (legacy kern and GPOS, through
 * HarfBuzz), the standard ligatures U+FB00-FB04 where the font maps them,
 * and fallback faces for characters a face lacks.
 *
 * Units: widths and kerning are integers in 1/1000 em, computed exactly as
 * the PDF writer computes the /W array (advance * 1000 / units_per_em,
 * truncated), so what the engine measures is what a viewer lays out.
 *
 * Ownership: the ts_fonts and every face live in the arena they were made
 * in; HarfBuzz and fontconfig objects are released when the arena is freed.
 * Not thread-safe: one ts_fonts per thread. */
#ifndef OCTAVO_TS_FONT_H
#define OCTAVO_TS_FONT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "oc_arena.h"
#include "oc_diag.h"

typedef struct ts_fonts ts_fonts;

typedef struct ts_face {
  const char *path;   /* the font file (absolute) */
  unsigned index;     /* the face's index in a collection (.ttc), else 0 */
  const char *family; /* as the font names itself, e.g. "EB Garamond 12" */
  int weight;         /* CSS: 400 regular, 700 bold */
  bool italic;
  bool small_caps; /* a face whose lower case are small capitals (an "SC"
                      family), so the engine need not synthesise them */
  unsigned units_per_em;
  /* In 1/1000 em, positive up, truncated. From HarfBuzz's hb_ot_metrics:
     ascent, descent and line gap are OS/2's typo values when the font sets
     USE_TYPO_METRICS (EB Garamond), else hhea's (DejaVu); cap and x
     height are OS/2's,
     or measured from 'H' and 'x' when the table lacks them. */
  int ascent, descent; /* descent is negative */
  int cap_height, x_height;
  int line_gap;
  int id; /* 0, 1, 2, ... in the order faces were loaded */
} ts_face;

/* NULL when fontconfig cannot load its configuration. */
ts_fonts *ts_fonts_new(oc_arena *a, const oc_reporter *rep);

/* The face for a CSS font: families in order of preference (CSS generic
 * names serif, sans-serif, monospace, cursive, fantasy, system-ui mapped
 * through fontconfig), weight 100..900, italic. Only outline OpenType faces
 * are considered (TrueType or CFF, .ttf, .otf, .ttc; Type 1, bitmap and
 * colour fonts and variable-font instances are skipped). A family added with ts_fonts_add_file wins
 * over fontconfig. *matched (may be NULL) says whether one of the named
 * families was found; if none was, the best serif fontconfig
 * knows is returned. NULL only when the system has no usable font at all.
 * Within a family, as in CSS, width counts first (condensed faces lose),
 * then slant, then weight: EB Garamond, which has no Bold Italic, gives its
 * Italic for bold italic. Among faces equally close, the optical size
 * nearest 12 pt wins (EB Garamond 12 over EB Garamond 08).
 * Results are cached per (families, weight, italic). */
ts_face *ts_fonts_match(ts_fonts *f, const char *const *families,
                        size_t nfamilies, int weight, bool italic,
                        bool *matched);

/* The small-caps companion of face (e.g. "EB Garamond SC 12" for "EB
 * Garamond 12"), or NULL when the system has none. */
ts_face *ts_fonts_small_caps(ts_fonts *f, const ts_face *face);

/* Whether data, the bytes of a font file, holds a face that can be used:
 * for TrueType and OpenType, HarfBuzz finds its glyphs, its units per em
 * and a cmap; for WOFF and WOFF2, the length the header declares is the
 * file's (a truncated download is not). */
bool ts_font_data_usable(const char *data, size_t len);

/* Registers a font file for @font-face (its first face, for a
 * collection). Returns NULL, after a warning at (file, line, col) naming
 * the file as shown (the url as written; NULL: path), when the file cannot
 * be read, is not an OpenType font with TrueType or CFF outlines (WOFF,
 * Type 1) or is truncated or corrupt: the text then takes the next font of
 * its font-family. */
ts_face *ts_fonts_add_file(ts_fonts *f, const char *path, const char *shown,
                           const char *family, int weight, bool italic,
                           const char *file, unsigned line, unsigned col);

/* Whether face has a glyph for code point cp (a cmap entry, not .notdef). */
bool ts_face_has(const ts_face *face, uint32_t cp);

/* The advance width of cp in face, 1/1000 em, as the PDF writer gives it
 * (a code point the face lacks measures as .notdef, which is what the
 * writer draws). */
int ts_face_advance(const ts_face *face, uint32_t cp);

/* The ink of codes[0..n) in face: *top the highest point of their
 * outlines above the baseline, *bottom the lowest below it (positive
 * down), in 1/1000 em; 0 and 0 for no outline (spaces). */
void ts_face_ink(const ts_face *face, const uint32_t *codes, size_t n,
                 int *top, int *bottom);

/* A face that has cp, as close to face's style as fontconfig finds (same
 * weight and slant first), or NULL when no installed font has it; face
 * itself when it has cp. lang (BCP 47, may be NULL) is the text's
 * language, which fontconfig's rules use to choose among faces that all
 * have cp: the Japanese, Simplified or Traditional Chinese or Korean forms
 * of a Han character (Noto CJK JP, SC, TC, KR). Cached. */
ts_face *ts_fonts_fallback(ts_fonts *f, const ts_face *face, uint32_t cp,
                           const char *lang);

/* Shapes a run of code points all of which face has:
 *  - with ligatures, "ffi", "ffl", "ff", "fi", "fl" become U+FB03, U+FB04,
 *    U+FB00, U+FB01, U+FB02 where face maps those code points;
 *  - with kerning, kern[i] is the adjustment in 1/1000 em added to the pen
 *    position before glyph i (negative brings glyphs closer; kern[0] is 0),
 *    from the font's GPOS or kern table through HarfBuzz.
 * Writes the shaped code points to out (at most n) and returns how many;
 * *width receives the run's total width (advances + kerning) in 1/1000 em.
 * out and kern must have room for n entries. */
size_t ts_face_shape(ts_fonts *f, const ts_face *face, const uint32_t *cps,
                     size_t n, bool kerning, bool ligatures, uint32_t *out,
                     int32_t *kern, long *width);

/* The folders fontconfig's configuration reads fonts from (its <dir>s,
 * such as /usr/share/texmf/fonts/opentype/public/tex-gyre, which
 * fonts-texgyre adds), without those inside another: at most max, copied
 * into buf (each at most size bytes; a longer one is left out). For the
 * sandbox, which must let publish read them. Returns how many. */
size_t ts_font_dirs(char *buf, size_t size, size_t max);

#endif
