/* Fonts for the typesetter: fontconfig resolves families to OpenType faces
 * (TrueType or CFF outlines, what the PDF writer embeds), HarfBuzz reads
 * each face's cmap, hmtx, OS/2 and hhea metrics and GPOS/kern kerning.
 * Widths follow the writer's arithmetic so that measuring and the PDF's /W
 * array agree. */
#include "ts_font.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <fontconfig/fontconfig.h>
#include <hb-ot.h>
#include <hb-subset.h>
#include <hb.h>

#include "oc_file.h"
#include "oc_hash.h"

/* A loaded face: the public part first, so a ts_face * is a face_rec *. */
typedef struct face_rec {
  ts_face pub;
  struct face_rec *next;
  oc_arena *arena;
  hb_font_t *font;
  const char **names; /* every family name fontconfig gives the file */
  size_t nnames;
  /* Per BMP code point, filled on first use: -1 unknown, else
     width * 2 + (1 if the cmap maps it). */
  int32_t *bmp;
  int32_t notdef_width;
  bool sc_done;
  ts_face *sc;
  /* The faces fontconfig gave as fallbacks for this one, tried first:
     the same fallback for all of a face's missing characters reads as
     one type, and a fontconfig sort costs about a million instructions. */
  struct face_rec *recent_fb[4];
  uint64_t recent_lang[4]; /* the language each was found for */
  size_t nrecent_fb;
  /* The CSS generic family the face's OS/2 table says it belongs to
     (serif, monospace) or NULL: its fallbacks are sought among the faces
     fontconfig lists for it, so that the Han characters of a serif book
     come from Noto Serif CJK, not Noto Sans CJK. */
  const char *generic;
} face_rec;

/* A family registered with ts_fonts_add_file. */
typedef struct added_font {
  struct added_font *next;
  const char *family;
  int weight;
  bool italic;
  face_rec *face;
} added_font;

typedef struct match_entry {
  struct match_entry *next;
  const char *key;
  ts_face *face;
  bool matched;
} match_entry;

/* A fallback cache entry: key (language * 2^32 + face id) * 2^21 + cp + 1,
   face NULL when none has the character. */
typedef struct fallback_entry {
  uint64_t key;
  ts_face *face;
} fallback_entry;

struct ts_fonts {
  oc_arena *arena;
  const oc_reporter *rep;
  FcConfig *config;
  hb_buffer_t *buf;
  hb_language_t lang;
  face_rec *faces;
  int nfaces;
  added_font *added;
  match_entry *matches;
  oc_hidx fb; /* fallback_entry by key */
  /* The languages fallbacks were asked for, interned: their index is part
     of the fallback cache's key. */
  const char *langs[64];
  size_t nlangs;
};

/* Kerning on; every ligature feature off, since GSUB output cannot reach
   the PDF (the engine hands the writer code points, not glyphs). */
static const hb_feature_t shape_features[] = {
    {HB_TAG('k', 'e', 'r', 'n'), 1, HB_FEATURE_GLOBAL_START,
     HB_FEATURE_GLOBAL_END},
    {HB_TAG('l', 'i', 'g', 'a'), 0, HB_FEATURE_GLOBAL_START,
     HB_FEATURE_GLOBAL_END},
    {HB_TAG('c', 'l', 'i', 'g'), 0, HB_FEATURE_GLOBAL_START,
     HB_FEATURE_GLOBAL_END},
    {HB_TAG('c', 'a', 'l', 't'), 0, HB_FEATURE_GLOBAL_START,
     HB_FEATURE_GLOBAL_END},
    {HB_TAG('d', 'l', 'i', 'g'), 0, HB_FEATURE_GLOBAL_START,
     HB_FEATURE_GLOBAL_END},
};

static void free_config(void *p) { FcConfigDestroy(p); }
static void free_buffer(void *p) { hb_buffer_destroy(p); }
static void free_font(void *p) { hb_font_destroy(p); }

ts_fonts *ts_fonts_new(oc_arena *a, const oc_reporter *rep) {
  FcConfig *config = FcInitLoadConfigAndFonts();
  if (!config)
    return NULL;
  ts_fonts *f = oc_arena_calloc(a, 1, sizeof *f);
  f->arena = a;
  oc_hidx_init(&f->fb, a, 64);
  f->rep = rep;
  f->config = config;
  oc_arena_defer(a, free_config, config);
  f->buf = hb_buffer_create();
  oc_arena_defer(a, free_buffer, f->buf);
  /* Not the locale's language (HarfBuzz's default): output must not depend
     on the machine. */
  f->lang = hb_language_from_string("und", -1);
  return f;
}

static char *arena_strdup(oc_arena *a, const char *s) {
  return oc_arena_strndup(a, s, strlen(s));
}

/* ---- files -------------------------------------------------------------- */

typedef enum font_kind {
  KIND_OPENTYPE, /* TrueType or CFF outlines, or a collection of them */
  KIND_OTHER,
  KIND_UNREADABLE
} font_kind;

/* What the file is, from its first four bytes. */
static font_kind file_kind(const char *path, int *err) {
  FILE *fp = oc_fopen_regular(path); /* a FIFO would hang the loaders */
  if (!fp) {
    *err = errno;
    return KIND_UNREADABLE;
  }
  unsigned char m[4];
  size_t got = fread(m, 1, 4, fp);
  fclose(fp);
  if (got < 4)
    return KIND_OTHER;
  if ((m[0] == 0 && m[1] == 1 && m[2] == 0 && m[3] == 0) ||
      memcmp(m, "true", 4) == 0 || memcmp(m, "OTTO", 4) == 0 ||
      memcmp(m, "ttcf", 4) == 0)
    return KIND_OPENTYPE;
  return KIND_OTHER;
}

/* ---- faces -------------------------------------------------------------- */

static int to_thousandths(hb_position_t v, unsigned upem) {
  return (int)((long)v * 1000 / (long)upem); /* truncated, as the /W */
}

static int metric(hb_font_t *font, hb_ot_metrics_tag_t tag, unsigned upem) {
  hb_position_t v = 0;
  hb_ot_metrics_get_position_with_fallback(font, tag, &v);
  return to_thousandths(v, upem);
}

/* From OS/2: PANOSE (Latin text: serif styles 2-10, 11-13 sans; proportion
   9 monospaced), else the IBM family class (1-5 and 7 are serif classes). */
static const char *generic_of(hb_face_t *face) {
  hb_blob_t *t = hb_face_reference_table(face, HB_TAG('O', 'S', '/', '2'));
  unsigned len = 0;
  const unsigned char *d = (const unsigned char *)hb_blob_get_data(t, &len);
  const char *g = NULL;
  if (d && len >= 42) {
    unsigned cls = d[30], family = d[32], serif = d[33], proportion = d[35];
    if (family == 2 && proportion == 9)
      g = "monospace";
    else if (family == 2 && serif >= 2 && serif <= 10)
      g = "serif";
    else if (!(family == 2 && serif >= 11) &&
             ((cls >= 1 && cls <= 5) || cls == 7))
      g = "serif";
  }
  hb_blob_destroy(t);
  return g;
}

/* A name of the face's name table (English where it has one), copied into
   the arena; NULL when it has none. */
static const char *face_name(oc_arena *a, hb_face_t *face,
                             hb_ot_name_id_t id) {
  char buf[256];
  unsigned len = sizeof buf;
  if (!hb_ot_name_get_utf8(face, id, hb_language_from_string("en", -1), &len,
                           buf) &&
      (len = sizeof buf,
       !hb_ot_name_get_utf8(face, id, HB_LANGUAGE_INVALID, &len, buf)))
    return NULL;
  return len && buf[0] ? oc_arena_strndup(a, buf, strlen(buf)) : NULL;
}

/* What fontconfig's pattern says of a face, for a file a book brings
   (@font-face), read by HarfBuzz: fontconfig's own reader of font files
   (FcFreeTypeQuery) is not given bytes from a stranger (fuzzing found it
   copying overlapping memory on a broken name table). The typographic
   family first and the legacy one last, as fontconfig lists them; the
   weight class and the italic bit of OS/2 (or head's macStyle). */
static void names_from_face(face_rec *r, hb_face_t *face) {
  const char *typo = face_name(r->arena, face, HB_OT_NAME_ID_TYPOGRAPHIC_FAMILY);
  const char *legacy = face_name(r->arena, face, HB_OT_NAME_ID_FONT_FAMILY);
  r->names = oc_arena_calloc(r->arena, 2, sizeof *r->names);
  if (typo && (!legacy || strcmp(typo, legacy) != 0))
    r->names[r->nnames++] = typo;
  if (legacy)
    r->names[r->nnames++] = legacy;
  r->pub.family = r->nnames ? r->names[r->nnames - 1] : "";
  hb_blob_t *os2 = hb_face_reference_table(face, HB_TAG('O', 'S', '/', '2'));
  unsigned len = 0;
  const unsigned char *d = (const unsigned char *)hb_blob_get_data(os2, &len);
  unsigned weight = d && len >= 6 ? (unsigned)d[4] << 8 | d[5] : 400;
  r->pub.weight = weight >= 1 && weight <= 1000 ? (int)weight : 400;
  bool italic = d && len >= 64 && (d[63] & 1);
  hb_blob_destroy(os2);
  if (!italic) {
    hb_blob_t *head = hb_face_reference_table(face, HB_TAG('h', 'e', 'a', 'd'));
    const unsigned char *h = (const unsigned char *)hb_blob_get_data(head, &len);
    italic = h && len >= 46 && (h[45] & 2);
    hb_blob_destroy(head);
  }
  r->pub.italic = italic;
}

/* Loads face index of path (already checked to be OpenType) once per
   ts_fonts. pat is fontconfig's pattern of the face, or NULL for a file a
   book brings (its names are then read by HarfBuzz). */
static face_rec *load_face(ts_fonts *f, const char *path, unsigned index,
                           FcPattern *pat) {
  char *abs = realpath(path, NULL);
  if (!abs)
    return NULL;
  for (face_rec *r = f->faces; r; r = r->next)
    if (r->pub.index == index && strcmp(r->pub.path, abs) == 0) {
      free(abs);
      return r;
    }
  hb_blob_t *blob = hb_blob_create_from_file_or_fail(abs);
  if (!blob) {
    free(abs);
    return NULL;
  }
  hb_face_t *hface = hb_face_create(blob, index);
  hb_blob_destroy(blob);
  unsigned upem = hb_face_get_upem(hface);
  if (hb_face_get_glyph_count(hface) == 0 || upem == 0) {
    hb_face_destroy(hface);
    free(abs);
    return NULL;
  }
  hb_font_t *font = hb_font_create(hface);
  hb_font_set_scale(font, (int)upem, (int)upem);
  oc_arena_defer(f->arena, free_font, font);

  face_rec *r = oc_arena_calloc(f->arena, 1, sizeof *r);
  r->arena = f->arena;
  r->font = font;
  r->pub.path = arena_strdup(f->arena, abs);
  r->pub.index = index;
  free(abs);
  if (pat) {
    FcChar8 *s;
    size_t n = 0;
    while (FcPatternGetString(pat, FC_FAMILY, (int)n, &s) == FcResultMatch)
      n++;
    r->names = oc_arena_calloc(f->arena, n ? n : 1, sizeof *r->names);
    for (size_t i = 0; i < n; i++) {
      FcPatternGetString(pat, FC_FAMILY, (int)i, &s);
      r->names[i] = arena_strdup(f->arena, (const char *)s);
    }
    r->nnames = n;
    /* fontconfig lists the typographic family first and the font's own
       legacy name (with its optical size, "EB Garamond 12") last. */
    r->pub.family = n ? r->names[n - 1] : "";
    double w = 80;
    FcPatternGetDouble(pat, FC_WEIGHT, 0, &w);
    r->pub.weight = (int)(FcWeightToOpenTypeDouble(w) + 0.5);
    int slant = 0;
    FcPatternGetInteger(pat, FC_SLANT, 0, &slant);
    r->pub.italic = slant > FC_SLANT_ROMAN;
  } else {
    names_from_face(r, hface);
  }
  hb_face_destroy(hface);
  r->pub.units_per_em = upem;
  r->pub.ascent = metric(font, HB_OT_METRICS_TAG_HORIZONTAL_ASCENDER, upem);
  r->pub.descent = metric(font, HB_OT_METRICS_TAG_HORIZONTAL_DESCENDER, upem);
  r->pub.line_gap = metric(font, HB_OT_METRICS_TAG_HORIZONTAL_LINE_GAP, upem);
  r->pub.cap_height = metric(font, HB_OT_METRICS_TAG_CAP_HEIGHT, upem);
  r->pub.x_height = metric(font, HB_OT_METRICS_TAG_X_HEIGHT, upem);
  r->pub.id = f->nfaces++;
  r->notdef_width = to_thousandths(hb_font_get_glyph_h_advance(font, 0), upem);
  r->generic = generic_of(hb_font_get_face(font));
  r->next = f->faces;
  f->faces = r;
  return r;
}

/* The table entry of a BMP code point, filled on first use. */
static int32_t bmp_entry(face_rec *r, uint32_t cp) {
  if (!r->bmp) {
    /* 256 KB per face, and only for faces text is measured in. */
    r->bmp = oc_arena_alloc(r->arena, 0x10000 * sizeof *r->bmp);
    memset(r->bmp, 0xff, 0x10000 * sizeof *r->bmp);
  }
  int32_t e = r->bmp[cp];
  if (e >= 0)
    return e;
  hb_codepoint_t gid = 0;
  bool has = hb_font_get_nominal_glyph(r->font, cp, &gid) && gid != 0;
  int32_t width =
      has ? to_thousandths(hb_font_get_glyph_h_advance(r->font, gid),
                           r->pub.units_per_em)
          : r->notdef_width; /* the writer draws .notdef */
  e = width * 2 + (has ? 1 : 0);
  r->bmp[cp] = e;
  return e;
}

/* Beyond the BMP (rare in books: emoji, historic scripts, CJK extension
   B), looked up each time. */
static int32_t astral_entry(const face_rec *r, uint32_t cp) {
  hb_codepoint_t gid = 0;
  bool has = cp <= 0x10FFFF && hb_font_get_nominal_glyph(r->font, cp, &gid) &&
             gid != 0;
  int32_t width =
      has ? to_thousandths(hb_font_get_glyph_h_advance(r->font, gid),
                           r->pub.units_per_em)
          : r->notdef_width;
  return width * 2 + (has ? 1 : 0);
}

bool ts_face_has(const ts_face *face, uint32_t cp) {
  if (cp > 0xffff)
    return astral_entry((const face_rec *)face, cp) & 1;
  return bmp_entry((face_rec *)face, cp) & 1;
}

int ts_face_advance(const ts_face *face, uint32_t cp) {
  if (cp > 0xffff)
    return astral_entry((const face_rec *)face, cp) >> 1;
  return bmp_entry((face_rec *)face, cp) >> 1;
}

void ts_face_ink(const ts_face *face, const uint32_t *codes, size_t n,
                 int *top, int *bottom) {
  const face_rec *r = (const face_rec *)face;
  hb_position_t hi = 0, lo = 0;
  for (size_t i = 0; i < n; i++) {
    hb_codepoint_t gid = 0;
    hb_glyph_extents_t e;
    if (!hb_font_get_nominal_glyph(r->font, codes[i], &gid))
      gid = 0;
    if (!hb_font_get_glyph_extents(r->font, gid, &e))
      continue;
    if (e.y_bearing > hi)
      hi = e.y_bearing;
    if (e.y_bearing + e.height < lo) /* height is negative */
      lo = e.y_bearing + e.height;
  }
  *top = (int)((long)hi * 1000 / (long)r->pub.units_per_em);
  *bottom = (int)(-(long)lo * 1000 / (long)r->pub.units_per_em);
}

/* ---- matching ----------------------------------------------------------- */

static bool pattern_has_family(FcPattern *p, const char *name) {
  FcChar8 *s;
  for (int i = 0; FcPatternGetString(p, FC_FAMILY, i, &s) == FcResultMatch; i++)
    if (strcasecmp((const char *)s, name) == 0)
      return true;
  return false;
}

/* A face the PDF writer can embed: OpenType outlines (TrueType or CFF;
   CFF2 is variable only), alone in its file or in a collection, neither a
   colour (bitmap) font nor a variable font. */
static bool pattern_usable(FcPattern *p, const char **path, unsigned *index) {
  FcChar8 *fmt, *file;
  int idx = 0;
  FcBool b;
  if (FcPatternGetString(p, FC_FONTFORMAT, 0, &fmt) != FcResultMatch ||
      (strcmp((const char *)fmt, "TrueType") != 0 &&
       strcmp((const char *)fmt, "CFF") != 0))
    return false;
  if ((FcPatternGetBool(p, FC_OUTLINE, 0, &b) == FcResultMatch && !b) ||
      (FcPatternGetBool(p, FC_COLOR, 0, &b) == FcResultMatch && b) ||
      (FcPatternGetBool(p, FC_VARIABLE, 0, &b) == FcResultMatch && b))
    return false;
  /* above 0xFFFF: a named instance of a variable font */
  if (FcPatternGetInteger(p, FC_INDEX, 0, &idx) == FcResultMatch &&
      (idx < 0 || idx > 0xFFFF))
    return false;
  if (FcPatternGetString(p, FC_FILE, 0, &file) != FcResultMatch)
    return false;
  int err;
  if (file_kind((const char *)file, &err) != KIND_OPENTYPE)
    return false;
  *path = (const char *)file;
  *index = (unsigned)idx;
  return true;
}

/* The design size in a family name's trailing number ("EB Garamond 08"),
   or 0. */
static int optical_size(FcPattern *p) {
  FcChar8 *s;
  int best = 0;
  for (int i = 0; FcPatternGetString(p, FC_FAMILY, i, &s) == FcResultMatch;
       i++) {
    const char *sp = strrchr((const char *)s, ' ');
    if (!sp || !sp[1])
      continue;
    char *end;
    long n = strtol(sp + 1, &end, 10);
    if (*end == '\0' && n > 0 && n < 100)
      best = (int)n;
  }
  return best;
}

/* How far p is from the style asked for; smaller is better. As in CSS,
   width counts before slant and slant before weight, so a family without
   Bold Italic gives its Italic. Among equals, the optical size nearest 12
   pt wins (EB Garamond 12 over EB Garamond 08). */
static long style_distance(FcPattern *p, int weight, bool italic) {
  double w = 80, width = 100;
  int slant = 0;
  FcPatternGetDouble(p, FC_WEIGHT, 0, &w);
  FcPatternGetDouble(p, FC_WIDTH, 0, &width);
  FcPatternGetInteger(p, FC_SLANT, 0, &slant);
  long d = labs((long)(FcWeightToOpenTypeDouble(w) + 0.5) - weight) * 100;
  if ((slant > FC_SLANT_ROMAN) != italic)
    d += 10000000L;
  d += (long)(width > 100 ? width - 100 : 100 - width) * 100000L;
  int size = optical_size(p);
  d += size ? labs(size - 12L) : 50;
  return d;
}

/* The usable face of family name closest to weight/italic, from all the
   fonts fontconfig knows. */
static face_rec *pick_family(ts_fonts *f, const char *name, int weight,
                             bool italic) {
  FcFontSet *sets[2] = {FcConfigGetFonts(f->config, FcSetSystem),
                        FcConfigGetFonts(f->config, FcSetApplication)};
  FcPattern *best = NULL;
  const char *best_path = NULL;
  unsigned best_index = 0;
  bool best_cff = false;
  long best_d = LONG_MAX;
  for (int k = 0; k < 2; k++) {
    if (!sets[k])
      continue;
    for (int i = 0; i < sets[k]->nfont; i++) {
      FcPattern *p = sets[k]->fonts[i];
      const char *path;
      unsigned index;
      if (!pattern_has_family(p, name) || !pattern_usable(p, &path, &index))
        continue;
      long d = style_distance(p, weight, italic);
      /* Ties go to TrueType (a family packaged both ways, as EB Garamond
         is, keeps the outlines it had before CFF could be embedded), then
         to the smaller path and index, so the choice is reproducible. */
      FcChar8 *fmt = NULL;
      FcPatternGetString(p, FC_FONTFORMAT, 0, &fmt);
      bool cff = fmt && strcmp((const char *)fmt, "CFF") == 0;
      int c = best_path ? strcmp(path, best_path) : -1;
      if (d < best_d ||
          (d == best_d &&
           (cff < best_cff ||
            (cff == best_cff && (c < 0 || (c == 0 && index < best_index)))))) {
        best = p;
        best_path = path;
        best_index = index;
        best_cff = cff;
        best_d = d;
      }
    }
  }
  return best ? load_face(f, best_path, best_index, best) : NULL;
}

/* A pattern for FcFontSort, with the user's configuration applied. */
static FcPattern *sort_pattern(ts_fonts *f, const char *family,
                               const char *generic, int weight, bool italic,
                               const char *lang) {
  FcPattern *pat = FcPatternCreate();
  if (family)
    FcPatternAddString(pat, FC_FAMILY, (const FcChar8 *)family);
  if (generic)
    FcPatternAddString(pat, FC_FAMILY, (const FcChar8 *)generic);
  int w = weight < 1 ? 400 : weight > 1000 ? 1000 : weight;
  FcPatternAddInteger(pat, FC_WEIGHT, FcWeightFromOpenType(w));
  FcPatternAddInteger(pat, FC_SLANT, italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN);
  if (lang && *lang)
    FcPatternAddString(pat, FC_LANG, (const FcChar8 *)lang);
  /* No charset: fontconfig ranks coverage above the family, which would
     put Noto Sans CJK before Noto Serif CJK for a serif face; the caller
     takes the first face of the sorted list that has the character. */
  FcConfigSubstitute(f->config, pat, FcMatchPattern);
  FcDefaultSubstitute(pat);
  return pat;
}

/* CSS generic families, as fontconfig's aliases name them. */
static const char *generic_alias(const char *name) {
  static const char *const map[][2] = {
      {"serif", "serif"},           {"sans-serif", "sans-serif"},
      {"monospace", "monospace"},   {"cursive", "cursive"},
      {"fantasy", "fantasy"},       {"system-ui", "system-ui"},
      {"ui-serif", "serif"},        {"ui-sans-serif", "sans-serif"},
      {"ui-monospace", "monospace"}};
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (strcasecmp(name, map[i][0]) == 0)
      return map[i][1];
  return NULL;
}

/* A generic family: the first usable family fontconfig sorts for it, then
   that family's closest style. */
static face_rec *pick_generic(ts_fonts *f, const char *alias, int weight,
                              bool italic) {
  FcPattern *pat = sort_pattern(f, alias, NULL, weight, italic, NULL);
  FcResult res;
  FcFontSet *fs = FcFontSort(f->config, pat, FcFalse, NULL, &res);
  FcPatternDestroy(pat);
  face_rec *r = NULL;
  for (int i = 0; fs && i < fs->nfont && !r; i++) {
    const char *path;
    unsigned index;
    FcChar8 *fam;
    if (pattern_usable(fs->fonts[i], &path, &index) &&
        FcPatternGetString(fs->fonts[i], FC_FAMILY, 0, &fam) == FcResultMatch)
      r = pick_family(f, (const char *)fam, weight, italic);
  }
  if (fs)
    FcFontSetDestroy(fs);
  return r;
}

static face_rec *pick_added(ts_fonts *f, const char *name, int weight,
                            bool italic) {
  face_rec *best = NULL;
  long best_d = LONG_MAX;
  for (added_font *ad = f->added; ad; ad = ad->next) {
    if (strcasecmp(ad->family, name) != 0)
      continue;
    long d =
        labs((long)ad->weight - weight) + (ad->italic != italic ? 10000L : 0);
    if (d < best_d) {
      best = ad->face;
      best_d = d;
    }
  }
  return best;
}

ts_face *ts_fonts_match(ts_fonts *f, const char *const *families,
                        size_t nfamilies, int weight, bool italic,
                        bool *matched) {
  size_t len = 16;
  for (size_t i = 0; i < nfamilies; i++)
    len += strlen(families[i]) + 1;
  char stack[256];
  char *key = len <= sizeof stack ? stack : oc_arena_alloc(f->arena, len);
  size_t o = (size_t)snprintf(key, len, "%d%c", weight, italic ? 'i' : 'n');
  for (size_t i = 0; i < nfamilies; i++) {
    size_t l = strlen(families[i]);
    key[o++] = '\n';
    memcpy(key + o, families[i], l);
    o += l;
  }
  key[o] = '\0';
  for (match_entry *m = f->matches; m; m = m->next)
    if (strcmp(m->key, key) == 0) {
      if (matched)
        *matched = m->matched;
      return m->face;
    }

  face_rec *r = NULL;
  bool found = false;
  for (size_t i = 0; i < nfamilies && !r; i++) {
    const char *alias = generic_alias(families[i]);
    r = pick_added(f, families[i], weight, italic);
    if (!r)
      r = alias ? pick_generic(f, alias, weight, italic)
                : pick_family(f, families[i], weight, italic);
  }
  found = r != NULL;
  if (!r)
    r = pick_generic(f, "serif", weight, italic);
  if (!r) /* no serif at all: any usable font */
    r = pick_generic(f, "sans-serif", weight, italic);

  match_entry *m = oc_arena_calloc(f->arena, 1, sizeof *m);
  m->key = oc_arena_strndup(f->arena, key, o);
  m->face = r ? &r->pub : NULL;
  m->matched = found;
  m->next = f->matches;
  f->matches = m;
  if (matched)
    *matched = found;
  return m->face;
}

/* ---- small capitals ----------------------------------------------------- */

ts_face *ts_fonts_small_caps(ts_fonts *f, const ts_face *face) {
  face_rec *r = (face_rec *)face;
  if (r->sc_done)
    return r->sc;
  r->sc_done = true;
  /* The most specific name first: "EB Garamond 12" gives "EB Garamond SC
     12" before "EB Garamond" gives "EB Garamond SC". */
  for (size_t i = r->nnames; i-- > 0 && !r->sc;) {
    const char *name = r->names[i];
    size_t len = strlen(name);
    char *sc = oc_arena_alloc(f->arena, len + 4);
    const char *sp = strrchr(name, ' ');
    bool numbered =
        sp && sp[1] && strspn(sp + 1, "0123456789") == strlen(sp + 1);
    if (numbered) {
      size_t head = (size_t)(sp - name);
      memcpy(sc, name, head);
      memcpy(sc + head, " SC", 3);
      memcpy(sc + head + 3, sp, len - head + 1);
    } else {
      memcpy(sc, name, len);
      memcpy(sc + len, " SC", 4);
    }
    face_rec *s = pick_family(f, sc, face->weight, face->italic);
    if (s && s != r) {
      s->pub.small_caps = true;
      r->sc = &s->pub;
    }
  }
  return r->sc;
}

/* ---- @font-face --------------------------------------------------------- */

/* Whether HarfBuzz subsets the face whole, as the PDF writer will subset
 * the glyphs it uses (ts_pdffont_finish): a font damaged past what the
 * checks above see would otherwise fail only when the PDF is written,
 * too late for its text to take another font. Whole, because the damage
 * may lie in any glyph; it costs one subset of each @font-face file. */
static bool subsets(hb_face_t *face) {
  hb_subset_input_t *in = hb_subset_input_create_or_fail();
  if (!in)
    return false;
  hb_set_add_range(hb_subset_input_glyph_set(in), 0,
                   hb_face_get_glyph_count(face) - 1);
  hb_subset_input_set_flags(in, HB_SUBSET_FLAGS_NO_HINTING);
  hb_face_t *sub = hb_subset_or_fail(face, in);
  hb_subset_input_destroy(in);
  hb_face_destroy(sub);
  return sub != NULL;
}

ts_face *ts_fonts_add_file(ts_fonts *f, const char *path, const char *shown,
                           const char *family, int weight, bool italic,
                           const char *file, unsigned line, unsigned col) {
  /* A font the PDF cannot use is the author's mistake the book survives:
   * a warning at its url, and the text takes the next font of its
   * font-family, as a reader of the EPUB does (--strict: an error). */
  static const char fallback[] =
      ": it is left out of the PDF, and the text uses the next font of its "
      "font-family";
  if (!shown)
    shown = path;
  int err = 0;
  switch (file_kind(path, &err)) {
  case KIND_UNREADABLE:
    oc_report(f->rep, OC_WARNING, file, line, col,
              "cannot read font '%s' (%s)%s", shown, oc_file_error(err),
              fallback);
    return NULL;
  case KIND_OTHER:
    oc_report(f->rep, OC_WARNING, file, line, col,
              "'%s' is not an OpenType font (the PDF embeds .ttf, .otf and "
              ".ttc files; WOFF and Type 1 are for other readers)%s",
              shown, fallback);
    return NULL;
  case KIND_OPENTYPE:
    break;
  }
  /* The checks the EPUB makes: a table cut off, no glyphs, no cmap. */
  hb_blob_t *blob = hb_blob_create_from_file_or_fail(path);
  unsigned n = 0;
  const char *data = blob ? hb_blob_get_data(blob, &n) : NULL;
  bool usable = data && ts_font_data_usable(data, n);
  hb_face_t *probe = usable ? hb_face_create(blob, 0) : NULL;
  bool outlines = false, cff2 = false;
  if (probe && hb_face_get_glyph_count(probe) && !subsets(probe))
    usable = false;
  if (probe) {
    static const hb_tag_t tags[] = {HB_TAG('g', 'l', 'y', 'f'),
                                    HB_TAG('C', 'F', 'F', ' '),
                                    HB_TAG('C', 'F', 'F', '2')};
    for (size_t i = 0; i < 3; i++) {
      hb_blob_t *t = hb_face_reference_table(probe, tags[i]);
      if (hb_blob_get_length(t) > 0) {
        outlines |= i < 2;
        cff2 |= i == 2;
      }
      hb_blob_destroy(t);
    }
    hb_face_destroy(probe);
  }
  hb_blob_destroy(blob);
  if (usable && !outlines) {
    oc_report(f->rep, OC_WARNING, file, line, col,
              "'%s' has neither TrueType nor CFF outlines (%s)%s", shown,
              cff2 ? "a CFF2 variable font" : "a bitmap or colour font",
              fallback);
    return NULL;
  }
  face_rec *r = usable ? load_face(f, path, 0, NULL) : NULL;
  if (!r) {
    oc_report(f->rep, OC_WARNING, file, line, col,
              "'%s' is not a usable font (truncated or corrupt)%s", shown,
              fallback);
    return NULL;
  }
  added_font *ad = oc_arena_calloc(f->arena, 1, sizeof *ad);
  ad->family = arena_strdup(f->arena, family);
  ad->weight = weight;
  ad->italic = italic;
  ad->face = r;
  ad->next = f->added;
  f->added = ad;
  /* Earlier matches may have resolved this family through fontconfig. */
  f->matches = NULL;
  return &r->pub;
}

/* ---- fallback ----------------------------------------------------------- */

static bool fallback_eq(const void *entry, const void *key) {
  return ((const fallback_entry *)entry)->key == *(const uint64_t *)key;
}

static void fallback_put(ts_fonts *f, uint64_t key, uint64_t hash,
                         ts_face *face) {
  fallback_entry *e = oc_arena_alloc(f->arena, sizeof *e);
  e->key = key;
  e->face = face;
  oc_hidx_put(&f->fb, hash, e);
}

/* The index of lang among those asked for (0: none given). */
static uint64_t lang_index(ts_fonts *f, const char *lang) {
  if (!lang || !*lang)
    return 0;
  for (size_t i = 0; i < f->nlangs; i++)
    if (strcasecmp(f->langs[i], lang) == 0)
      return i + 1;
  if (f->nlangs == sizeof f->langs / sizeof f->langs[0])
    return 0; /* a book of more languages: the rest share the default */
  f->langs[f->nlangs++] = arena_strdup(f->arena, lang);
  return f->nlangs;
}

ts_face *ts_fonts_fallback(ts_fonts *f, const ts_face *face, uint32_t cp,
                           const char *lang) {
  if (cp > 0x10FFFF)
    return NULL;
  if (ts_face_has(face, cp))
    return (ts_face *)face;
  uint64_t li = lang_index(f, lang);
  if (!li)
    lang = NULL;
  uint64_t key = ((li << 32 | (uint64_t)face->id) << 21) + cp + 1;
  uint64_t hash = oc_hash_u64(OC_HASH_SEED, key);
  const fallback_entry *known = oc_hidx_get(&f->fb, hash, fallback_eq, &key);
  if (known)
    return known->face;
  face_rec *r = (face_rec *)face;
  for (size_t i = 0; i < r->nrecent_fb; i++)
    if (r->recent_lang[i] == li && ts_face_has(&r->recent_fb[i]->pub, cp)) {
      fallback_put(f, key, hash, &r->recent_fb[i]->pub);
      return &r->recent_fb[i]->pub;
    }
  FcPattern *pat =
      sort_pattern(f, r->nnames ? r->names[0] : NULL, r->generic, face->weight,
                   face->italic, lang);
  FcResult res;
  FcFontSet *fs = FcFontSort(f->config, pat, FcFalse, NULL, &res);
  FcPatternDestroy(pat);
  face_rec *found = NULL;
  for (int i = 0; fs && i < fs->nfont && !found; i++) {
    FcPattern *p = fs->fonts[i];
    FcCharSet *cs;
    const char *path;
    unsigned index;
    if (FcPatternGetCharSet(p, FC_CHARSET, 0, &cs) != FcResultMatch ||
        !FcCharSetHasChar(cs, cp) || !pattern_usable(p, &path, &index))
      continue;
    face_rec *c = load_face(f, path, index, p);
    /* fontconfig's charset and the cmap HarfBuzz reads should agree;
       trust the one the PDF will use. */
    if (c && ts_face_has(&c->pub, cp))
      found = c;
  }
  if (fs)
    FcFontSetDestroy(fs);
  ts_face *out = found ? &found->pub : NULL;
  fallback_put(f, key, hash, out);
  if (found && r->nrecent_fb < sizeof r->recent_fb / sizeof r->recent_fb[0]) {
    r->recent_lang[r->nrecent_fb] = li;
    r->recent_fb[r->nrecent_fb++] = found;
  }
  return out;
}

/* ---- shaping ------------------------------------------------------------ */

/* Replaces f-ligatures by U+FB00-FB04 where face maps them. */
static size_t ligate(const ts_face *face, const uint32_t *cps, size_t n,
                     uint32_t *out) {
  size_t o = 0;
  for (size_t i = 0; i < n;) {
    if (cps[i] == 'f' && i + 1 < n) {
      uint32_t b = cps[i + 1], c = i + 2 < n ? cps[i + 2] : 0;
      if (b == 'f' && c == 'i' && ts_face_has(face, 0xFB03)) {
        out[o++] = 0xFB03, i += 3;
        continue;
      }
      if (b == 'f' && c == 'l' && ts_face_has(face, 0xFB04)) {
        out[o++] = 0xFB04, i += 3;
        continue;
      }
      uint32_t lig = b == 'f'   ? 0xFB00
                     : b == 'i' ? 0xFB01
                     : b == 'l' ? 0xFB02
                                : 0;
      if (lig && ts_face_has(face, lig)) {
        out[o++] = lig, i += 2;
        continue;
      }
    }
    out[o++] = cps[i++];
  }
  return o;
}

/* Rounds v font units to 1/1000 em. */
static int32_t round_thousandths(long v, unsigned upem) {
  long t = v * 1000;
  return (int32_t)(t >= 0 ? (t + upem / 2) / (long)upem
                          : -((-t + upem / 2) / (long)upem));
}

/* The advance of cp's nominal glyph (.notdef when none), font units. */
static long nominal_units(const face_rec *r, uint32_t cp) {
  hb_codepoint_t gid = 0;
  if (!hb_font_get_nominal_glyph(r->font, cp, &gid))
    gid = 0;
  return hb_font_get_glyph_h_advance(r->font, gid);
}

size_t ts_face_shape(ts_fonts *f, const ts_face *face, const uint32_t *cps,
                     size_t n, bool kerning, bool ligatures, uint32_t *out,
                     int32_t *kern, long *width) {
  *width = 0;
  if (n == 0)
    return 0;
  size_t m = n;
  if (ligatures)
    m = ligate(face, cps, n, out);
  else if (out != cps)
    memmove(out, cps, n * sizeof *out);
  long total = 0;
  for (size_t i = 0; i < m; i++) {
    kern[i] = 0;
    total += ts_face_advance(face, out[i]);
  }
  if (kerning && m > 1) {
    const face_rec *r = (const face_rec *)face;
    hb_buffer_t *buf = f->buf;
    hb_buffer_clear_contents(buf);
    hb_buffer_add_codepoints(buf, out, (int)m, 0, (int)m);
    hb_buffer_set_direction(buf, HB_DIRECTION_LTR);
    hb_buffer_set_language(buf, f->lang);
    hb_buffer_guess_segment_properties(buf);
    hb_shape(r->font, buf, shape_features,
             sizeof shape_features / sizeof shape_features[0]);
    unsigned count;
    hb_glyph_info_t *info = hb_buffer_get_glyph_infos(buf, &count);
    hb_glyph_position_t *pos = hb_buffer_get_glyph_positions(buf, &count);
    /* At the start of each cluster, HarfBuzz's pen position (sum of shaped
       advances) against the nominal one (sum of the code points' own
       advances) gives the kerning before that code point. Working on the
       running sums keeps rounding from drifting. x_offset (mark placement)
       has no counterpart in per-code-point kerning and is left out. */
    long shaped = 0, nominal = 0;
    int32_t applied = 0;
    size_t next = 0; /* code points below next are summed in nominal */
    for (unsigned g = 0; g < count; g++) {
      size_t c = info[g].cluster;
      if (c < m && c >= next && (g == 0 || info[g - 1].cluster != c)) {
        while (next < c)
          nominal += nominal_units(r, out[next++]);
        if (c > 0) {
          kern[c] =
              round_thousandths(shaped - nominal, face->units_per_em) - applied;
          applied += kern[c];
        }
      }
      shaped += pos[g].x_advance;
    }
    total += applied;
  }
  *width = total;
  return m;
}

size_t ts_font_dirs(char *buf, size_t size, size_t max) {
  FcConfig *config = FcInitLoadConfig(); /* the <dir>s: no font scanned */
  FcStrList *dirs = config ? FcConfigGetFontDirs(config) : NULL;
  size_t n = 0;
  FcChar8 *d;
  while (dirs && n < max && (d = FcStrListNext(dirs))) {
    const char *dir = (const char *)d;
    size_t len = strlen(dir);
    bool inside = len >= size;
    for (size_t i = 0; i < n && !inside; i++) {
      const char *o = buf + i * size;
      size_t ol = strlen(o);
      inside = !strncmp(dir, o, ol) && (dir[ol] == '/' || dir[ol] == '\0');
    }
    if (!inside)
      memcpy(buf + n++ * size, dir, len + 1);
  }
  if (dirs)
    FcStrListDone(dirs);
  if (config)
    FcConfigDestroy(config);
  return n;
}

bool ts_font_data_usable(const char *data, size_t len) {
  const unsigned char *u = (const unsigned char *)data;
  if (len >= 12 && (!memcmp(u, "wOFF", 4) || !memcmp(u, "wOF2", 4)))
    return ((size_t)u[8] << 24 | (size_t)u[9] << 16 | (size_t)u[10] << 8 |
            u[11]) == len;
  if (len < 12 || len > UINT_MAX)
    return false;
  /* every table inside the file: a truncated font has tables cut off */
  if (memcmp(u, "ttcf", 4) != 0) {
    size_t ntables = (size_t)u[4] << 8 | u[5];
    if (len < 12 + 16 * ntables)
      return false;
    for (size_t i = 0; i < ntables; i++) {
      const unsigned char *r = u + 12 + 16 * i;
      uint64_t off = (uint64_t)r[8] << 24 | r[9] << 16 | r[10] << 8 | r[11];
      uint64_t tl = (uint64_t)r[12] << 24 | r[13] << 16 | r[14] << 8 | r[15];
      if (off + tl > len)
        return false;
    }
  }
  hb_blob_t *blob =
      hb_blob_create(data, (unsigned)len, HB_MEMORY_MODE_READONLY, NULL, NULL);
  hb_face_t *face = hb_face_create(blob, 0);
  hb_blob_destroy(blob);
  hb_blob_t *cmap = hb_face_reference_table(face, HB_TAG('c', 'm', 'a', 'p'));
  hb_blob_t *head = hb_face_reference_table(face, HB_TAG('h', 'e', 'a', 'd'));
  bool ok = hb_face_get_glyph_count(face) > 0 && hb_blob_get_length(cmap) > 0 &&
            hb_blob_get_length(head) > 0;
  hb_blob_destroy(cmap);
  hb_blob_destroy(head);
  hb_face_destroy(face);
  return ok;
}
