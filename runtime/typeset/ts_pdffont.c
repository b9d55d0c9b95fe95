/* Composite fonts for the PDF writer (see ts_pdffont.h): HarfBuzz reads and
 * subsets the face, FreeType tells a CID-keyed CFF's CIDs, libharu's object
 * API writes the dictionaries and streams. */
#include "ts_pdffont.h"

#include <stdio.h>
#include <string.h>

#include <hb-ot.h>
#include <hb-subset.h>
#include <hb.h>
#include <hpdf_objects.h>
#include <hpdf_streams.h>

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_CID_H

#include "oc_hash.h"

typedef enum outline_kind {
  OUTLINE_TRUETYPE, /* glyf: codes are glyph ids, a CIDToGIDMap */
  OUTLINE_CFF_CID,  /* CID-keyed CFF: codes are CIDs */
  OUTLINE_CFF_NAME  /* name-keyed CFF: codes are glyph ids, kept */
} outline_kind;

struct ts_pdf_font {
  oc_arena *arena;
  const oc_reporter *rep;
  const char *path;
  unsigned index;
  outline_kind kind;
  hb_blob_t *blob;
  hb_face_t *face;
  hb_font_t *font;
  unsigned nglyphs, upem;
  FT_Library ft;
  FT_Face ftface; /* CFF only: reads the charset's CIDs */
  /* By glyph id: used, the code it is drawn with, the text it stands for
     (the lowest code point drawn with it: a space before a no-break
     space, a hyphen-minus before U+2010). */
  uint8_t *used;
  uint16_t *code;
  uint32_t *text;
  /* By BMP code point: glyph id + 1, 0 when not looked up yet. */
  uint32_t *cmap;
  HPDF_Dict type0;
};

static void free_blob(void *p) { hb_blob_destroy(p); }
static void free_face(void *p) { hb_face_destroy(p); }
static void free_font(void *p) { hb_font_destroy(p); }
static void free_ft(void *p) { FT_Done_FreeType(p); }

static bool has_table(hb_face_t *face, hb_tag_t tag) {
  hb_blob_t *t = hb_face_reference_table(face, tag);
  bool has = hb_blob_get_length(t) > 0;
  hb_blob_destroy(t);
  return has;
}

ts_pdf_font *ts_pdffont_open(oc_arena *a, const oc_reporter *rep,
                             const char *path, unsigned index) {
  hb_blob_t *blob = hb_blob_create_from_file_or_fail(path);
  if (!blob) {
    oc_report(rep, OC_ERROR, path, 0, 0, "cannot read the font");
    return NULL;
  }
  oc_arena_defer(a, free_blob, blob);
  hb_face_t *face = hb_face_create(blob, index);
  oc_arena_defer(a, free_face, face);
  unsigned nglyphs = hb_face_get_glyph_count(face);
  unsigned upem = hb_face_get_upem(face);
  bool glyf = has_table(face, HB_TAG('g', 'l', 'y', 'f'));
  bool cff = has_table(face, HB_TAG('C', 'F', 'F', ' '));
  const char *why = nglyphs == 0 || upem == 0 ? "it has no glyphs"
                    : nglyphs > 0xFFFF        ? "it has too many glyphs"
                    : !glyf && !cff ? "it has neither TrueType nor CFF outlines"
                                    : NULL;
  if (why) {
    oc_report(rep, OC_ERROR, path, 0, 0, "cannot embed the font: %s", why);
    return NULL;
  }
  ts_pdf_font *f = oc_arena_calloc(a, 1, sizeof *f);
  f->arena = a;
  f->rep = rep;
  f->path = oc_arena_strndup(a, path, strlen(path));
  f->index = index;
  f->blob = blob;
  f->face = face;
  f->font = hb_font_create(face);
  oc_arena_defer(a, free_font, f->font);
  hb_font_set_scale(f->font, (int)upem, (int)upem);
  f->nglyphs = nglyphs;
  f->upem = upem;
  f->kind = OUTLINE_TRUETYPE;
  if (!glyf) {
    f->kind = OUTLINE_CFF_NAME;
    unsigned len = 0;
    const char *data = hb_blob_get_data(blob, &len);
    if (FT_Init_FreeType(&f->ft) == 0) {
      oc_arena_defer(a, free_ft, f->ft);
      FT_Bool cid = 0;
      if (FT_New_Memory_Face(f->ft, (const FT_Byte *)data, (FT_Long)len,
                             (FT_Long)index, &f->ftface) == 0 &&
          FT_Get_CID_Is_Internally_CID_Keyed(f->ftface, &cid) == 0 && cid)
        f->kind = OUTLINE_CFF_CID;
    }
  }
  f->used = oc_arena_calloc(a, (nglyphs + 7) / 8, 1);
  f->code = oc_arena_calloc(a, nglyphs, sizeof *f->code);
  f->text = oc_arena_calloc(a, nglyphs, sizeof *f->text);
  return f;
}

const char *ts_pdffont_path(const ts_pdf_font *f) { return f->path; }
unsigned ts_pdffont_index(const ts_pdf_font *f) { return f->index; }

HPDF_Dict ts_pdffont_dict(ts_pdf_font *f, HPDF_Doc doc) {
  if (!f->type0) {
    HPDF_Dict d = HPDF_Dict_New(doc->mmgr);
    if (d && HPDF_Xref_Add(doc->xref, d) == HPDF_OK)
      f->type0 = d;
  }
  return f->type0;
}

static unsigned glyph_of(ts_pdf_font *f, uint32_t cp) {
  if (cp < 0x10000) {
    if (!f->cmap)
      f->cmap = oc_arena_calloc(f->arena, 0x10000, sizeof *f->cmap);
    if (f->cmap[cp])
      return f->cmap[cp] - 1;
  }
  hb_codepoint_t gid = 0;
  if (!hb_font_get_nominal_glyph(f->font, cp, &gid) || gid >= f->nglyphs)
    gid = 0;
  if (cp < 0x10000)
    f->cmap[cp] = gid + 1;
  return gid;
}

uint16_t ts_pdffont_code(ts_pdf_font *f, uint32_t cp) {
  unsigned gid = glyph_of(f, cp);
  uint8_t bit = (uint8_t)(1u << (gid & 7));
  if (!(f->used[gid >> 3] & bit)) {
    f->used[gid >> 3] |= bit;
    unsigned code = gid;
    if (f->kind == OUTLINE_CFF_CID) {
      FT_UInt cid = 0;
      code = FT_Get_CID_From_Glyph_Index(f->ftface, gid, &cid) == 0 &&
                     cid <= 0xFFFF
                 ? cid
                 : 0;
    }
    f->code[gid] = (uint16_t)code;
    f->text[gid] = cp;
  } else if (cp < f->text[gid]) {
    f->text[gid] = cp;
  }
  return f->code[gid];
}

/* ---- finishing -------------------------------------------------------- */

static int thousandths(long v, unsigned upem) {
  return (int)(v * 1000 / (long)upem); /* truncated, as ts_font measures */
}

static long read_be(hb_face_t *face, hb_tag_t tag, unsigned off, int bytes,
                    bool sign) {
  hb_blob_t *t = hb_face_reference_table(face, tag);
  unsigned len = 0;
  const unsigned char *d = (const unsigned char *)hb_blob_get_data(t, &len);
  long v = 0;
  if (d && off + (unsigned)bytes <= len) {
    unsigned long u = 0;
    for (int i = 0; i < bytes; i++)
      u = u << 8 | d[off + (unsigned)i];
    v = sign && (u >> (8 * bytes - 1)) ? (long)u - (1L << (8 * bytes))
                                       : (long)u;
  }
  hb_blob_destroy(t);
  return v;
}

/* The PostScript name with what a PDF name cannot hold left out, behind a
 * subset tag of six capitals from a hash of the glyphs kept: the same
 * book gives the same name. */
static void font_name(const ts_pdf_font *f, char *out, size_t size) {
  char ps[64];
  unsigned len = sizeof ps;
  ps[0] = '\0';
  hb_ot_name_get_utf8(f->face, HB_OT_NAME_ID_POSTSCRIPT_NAME,
                      HB_LANGUAGE_INVALID, &len, ps);
  char clean[64];
  size_t n = 0;
  for (const char *s = ps; *s && n + 1 < sizeof clean; s++)
    if ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
        (*s >= '0' && *s <= '9') || *s == '-' || *s == '_')
      clean[n++] = *s;
  clean[n] = '\0';
  if (!n)
    snprintf(clean, sizeof clean, "Font%u", f->index);
  uint64_t h = oc_hash_bytes(OC_HASH_SEED, f->used, (f->nglyphs + 7) / 8);
  h = oc_hash_bytes(h, clean, strlen(clean));
  char tag[7];
  for (int i = 0; i < 6; i++, h /= 26)
    tag[i] = (char)('A' + h % 26);
  tag[6] = '\0';
  snprintf(out, size, "%s+%s", tag, clean);
}

static bool used(const ts_pdf_font *f, unsigned gid) {
  return f->used[gid >> 3] & (1u << (gid & 7));
}

/* The font program: the subset, whole (TrueType) or its CFF table. */
static HPDF_Dict font_program(ts_pdf_font *f, HPDF_Doc doc, hb_face_t *sub) {
  hb_blob_t *b = f->kind == OUTLINE_TRUETYPE
                     ? hb_face_reference_blob(sub)
                     : hb_face_reference_table(sub, HB_TAG('C', 'F', 'F', ' '));
  unsigned len = 0;
  const char *data = hb_blob_get_data(b, &len);
  HPDF_Dict s = len ? HPDF_DictStream_New(doc->mmgr, doc->xref) : NULL;
  if (s) {
    s->filter = HPDF_STREAM_FILTER_FLATE_DECODE;
    if (f->kind == OUTLINE_TRUETYPE)
      HPDF_Dict_AddNumber(s, "Length1", (HPDF_INT32)len);
    else
      HPDF_Dict_AddName(s, "Subtype", "CIDFontType0C");
    HPDF_Stream_Write(s->stream, (const HPDF_BYTE *)data, len);
  }
  hb_blob_destroy(b);
  return s;
}

/* Groups of at most 100 entries, as the CMap syntax wants. */
static void write_tounicode(ts_pdf_font *f, HPDF_Stream s, unsigned count) {
  HPDF_Stream_WriteStr(
      s, "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
         "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 "
         ">> def\n/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
         "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n");
  /* The ligatures the engine sets read back as their letters, so that
     searching and copying find the words. */
  static const char *const ligatures[] = {"00660066", "00660069", "0066006C",
                                          "006600660069", "00660066006C"};
  char line[64];
  unsigned in_block = 0, left = count;
  for (unsigned gid = 0; gid < f->nglyphs; gid++) {
    if (!used(f, gid) || gid == 0)
      continue;
    if (in_block == 0) {
      unsigned n = left > 100 ? 100 : left;
      snprintf(line, sizeof line, "%u beginbfchar\n", n);
      HPDF_Stream_WriteStr(s, line);
    }
    uint32_t cp = f->text[gid];
    char utf16[32];
    if (cp >= 0xFB00 && cp <= 0xFB04)
      snprintf(utf16, sizeof utf16, "%s", ligatures[cp - 0xFB00]);
    else if (cp >= 0x10000)
      snprintf(utf16, sizeof utf16, "%04X%04X",
               0xD800 + ((cp - 0x10000) >> 10), 0xDC00 + (cp & 0x3FF));
    else
      snprintf(utf16, sizeof utf16, "%04X", cp);
    snprintf(line, sizeof line, "<%04X> <%s>\n", f->code[gid], utf16);
    HPDF_Stream_WriteStr(s, line);
    left--;
    if (++in_block == 100 || left == 0) {
      HPDF_Stream_WriteStr(s, "endbfchar\n");
      in_block = 0;
    }
  }
  HPDF_Stream_WriteStr(s, "endcmap\nCMapName currentdict /CMap "
                          "defineresource pop\nend\nend\n");
}

/* Code-ordered (code, glyph id) pairs of the used glyphs, .notdef too. */
typedef struct code_glyph {
  uint16_t code;
  unsigned gid;
} code_glyph;

static int code_cmp(const void *a, const void *b) {
  const code_glyph *x = a, *y = b;
  return (x->code > y->code) - (x->code < y->code);
}

/* /W: runs of consecutive codes, each with its array of widths. */
static HPDF_Array widths(ts_pdf_font *f, HPDF_Doc doc, const code_glyph *cg,
                         size_t n) {
  HPDF_Array w = HPDF_Array_New(doc->mmgr);
  HPDF_Array run = NULL;
  for (size_t i = 0; w && i < n; i++) {
    if (!run || cg[i].code != cg[i - 1].code + 1) {
      HPDF_Array_AddNumber(w, cg[i].code);
      run = HPDF_Array_New(doc->mmgr);
      if (!run)
        return w;
      HPDF_Array_Add(w, run);
    }
    HPDF_Array_AddNumber(
        run,
        thousandths(hb_font_get_glyph_h_advance(f->font, cg[i].gid), f->upem));
  }
  return w;
}

static HPDF_Dict descriptor(ts_pdf_font *f, HPDF_Doc doc, const char *name,
                            HPDF_Dict program) {
  HPDF_Dict d = HPDF_Dict_New(doc->mmgr);
  if (!d || HPDF_Xref_Add(doc->xref, d) != HPDF_OK)
    return NULL;
  hb_face_t *face = f->face;
  unsigned upem = f->upem;
  HPDF_Dict_AddName(d, "Type", "FontDescriptor");
  HPDF_Dict_AddName(d, "FontName", name);
  long italic_angle = read_be(face, HB_TAG('p', 'o', 's', 't'), 4, 4, true);
  bool fixed = read_be(face, HB_TAG('p', 'o', 's', 't'), 12, 4, false) != 0;
  /* Symbolic (4): the glyphs are addressed by code, not by a standard
     encoding; FixedPitch 1, Italic 64. */
  HPDF_Dict_AddNumber(d, "Flags",
                      4 | (fixed ? 1 : 0) | (italic_angle ? 64 : 0));
  HPDF_Array bbox = HPDF_Array_New(doc->mmgr);
  if (bbox) {
    for (unsigned off = 36; off <= 42; off += 2)
      HPDF_Array_AddNumber(
          bbox, thousandths(read_be(face, HB_TAG('h', 'e', 'a', 'd'), off, 2,
                                    true),
                            upem));
    HPDF_Dict_Add(d, "FontBBox", bbox);
  }
  HPDF_Dict_AddReal(d, "ItalicAngle", (HPDF_REAL)(italic_angle / 65536.0));
  static const struct {
    const char *key;
    hb_ot_metrics_tag_t tag;
  } metrics[] = {{"Ascent", HB_OT_METRICS_TAG_HORIZONTAL_ASCENDER},
                 {"Descent", HB_OT_METRICS_TAG_HORIZONTAL_DESCENDER},
                 {"CapHeight", HB_OT_METRICS_TAG_CAP_HEIGHT},
                 {"XHeight", HB_OT_METRICS_TAG_X_HEIGHT}};
  for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++) {
    hb_position_t v = 0;
    hb_ot_metrics_get_position_with_fallback(f->font, metrics[i].tag, &v);
    HPDF_Dict_AddNumber(d, metrics[i].key, thousandths(v, upem));
  }
  /* The dominant stem's width is not in the font; from its weight class,
     as other writers guess it (a hint for substitution only). */
  long weight = read_be(face, HB_TAG('O', 'S', '/', '2'), 4, 2, false);
  if (weight <= 0)
    weight = 400;
  HPDF_Dict_AddNumber(d, "StemV", (HPDF_INT32)(10 + weight * weight / 2000));
  if (program)
    HPDF_Dict_Add(d, f->kind == OUTLINE_TRUETYPE ? "FontFile2" : "FontFile3",
                  program);
  return d;
}

static HPDF_Dict system_info(ts_pdf_font *f, HPDF_Doc doc) {
  const char *registry = "Adobe", *ordering = "Identity";
  FT_Int supplement = 0;
  if (f->kind == OUTLINE_CFF_CID &&
      FT_Get_CID_Registry_Ordering_Supplement(f->ftface, &registry, &ordering,
                                              &supplement) != 0) {
    registry = "Adobe";
    ordering = "Identity";
    supplement = 0;
  }
  HPDF_Dict si = HPDF_Dict_New(doc->mmgr);
  if (si) {
    HPDF_Dict_Add(si, "Registry", HPDF_String_New(doc->mmgr, registry, NULL));
    HPDF_Dict_Add(si, "Ordering", HPDF_String_New(doc->mmgr, ordering, NULL));
    HPDF_Dict_AddNumber(si, "Supplement", supplement);
  }
  return si;
}

/* A stream of bytes, deflated. */
static HPDF_Dict byte_stream(HPDF_Doc doc, const uint8_t *b, size_t n) {
  HPDF_Dict s = HPDF_DictStream_New(doc->mmgr, doc->xref);
  if (s) {
    s->filter = HPDF_STREAM_FILTER_FLATE_DECODE;
    HPDF_Stream_Write(s->stream, b, (HPDF_UINT)n);
  }
  return s;
}

int ts_pdffont_finish(ts_pdf_font *f, HPDF_Doc doc, bool pdfa) {
  if (!f->type0)
    return 0; /* never drawn with */
  f->used[0] |= 1; /* .notdef: every font program has it */
  hb_subset_input_t *in = hb_subset_input_create_or_fail();
  if (!in) {
    oc_report(f->rep, OC_ERROR, f->path, 0, 0, "cannot subset the font: "
                                               "out of memory");
    return -1;
  }
  hb_set_t *glyphs = hb_subset_input_glyph_set(in);
  size_t count = 0;
  for (unsigned gid = 0; gid < f->nglyphs; gid++)
    if (used(f, gid)) {
      hb_set_add(glyphs, gid);
      count++;
    }
  /* What a PDF viewer reads of a font program is its outlines and
     metrics: shaping tables and hinting would only take room. */
  static const hb_tag_t drop[] = {
      HB_TAG('G', 'S', 'U', 'B'), HB_TAG('G', 'P', 'O', 'S'),
      HB_TAG('G', 'D', 'E', 'F'), HB_TAG('B', 'A', 'S', 'E'),
      HB_TAG('J', 'S', 'T', 'F'), HB_TAG('M', 'A', 'T', 'H'),
      HB_TAG('k', 'e', 'r', 'n'), HB_TAG('m', 'o', 'r', 'x'),
      HB_TAG('D', 'S', 'I', 'G'), HB_TAG('v', 'h', 'e', 'a'),
      HB_TAG('v', 'm', 't', 'x'), HB_TAG('V', 'O', 'R', 'G')};
  hb_set_t *tables = hb_subset_input_set(in, HB_SUBSET_SETS_DROP_TABLE_TAG);
  for (size_t i = 0; i < sizeof drop / sizeof drop[0]; i++)
    hb_set_add(tables, drop[i]);
  hb_subset_input_set_flags(
      in, HB_SUBSET_FLAGS_NO_HINTING |
              (f->kind == OUTLINE_CFF_NAME ? HB_SUBSET_FLAGS_RETAIN_GIDS : 0));
  hb_subset_plan_t *plan = hb_subset_plan_create_or_fail(f->face, in);
  hb_subset_input_destroy(in);
  hb_face_t *sub = plan ? hb_subset_plan_execute_or_fail(plan) : NULL;
  if (!sub) {
    hb_subset_plan_destroy(plan);
    oc_report(f->rep, OC_ERROR, f->path, 0, 0,
              "cannot subset the font (HarfBuzz refused it)");
    return -1;
  }

  code_glyph *cg = oc_arena_alloc(f->arena, count * sizeof *cg);
  size_t n = 0;
  for (unsigned gid = 0; gid < f->nglyphs; gid++)
    if (used(f, gid))
      cg[n++] = (code_glyph){gid ? f->code[gid] : 0, gid};
  qsort(cg, n, sizeof *cg, code_cmp);
  unsigned max_code = n ? cg[n - 1].code : 0;

  char name[96];
  font_name(f, name, sizeof name);
  HPDF_Dict program = font_program(f, doc, sub);
  HPDF_Dict desc = descriptor(f, doc, name, program);
  HPDF_Dict cid = HPDF_Dict_New(doc->mmgr);
  if (!desc || !cid || HPDF_Xref_Add(doc->xref, cid) != HPDF_OK) {
    hb_face_destroy(sub);
    hb_subset_plan_destroy(plan);
    return -1;
  }
  if (pdfa) {
    uint8_t *bits = oc_arena_calloc(f->arena, max_code / 8 + 1, 1);
    for (size_t i = 0; i < n; i++)
      bits[cg[i].code >> 3] |= (uint8_t)(0x80u >> (cg[i].code & 7));
    HPDF_Dict set = byte_stream(doc, bits, max_code / 8 + 1);
    if (set)
      HPDF_Dict_Add(desc, "CIDSet", set);
  }
  HPDF_Dict_AddName(cid, "Type", "Font");
  HPDF_Dict_AddName(cid, "Subtype", f->kind == OUTLINE_TRUETYPE
                                        ? "CIDFontType2"
                                        : "CIDFontType0");
  HPDF_Dict_AddName(cid, "BaseFont", name);
  HPDF_Dict_Add(cid, "CIDSystemInfo", system_info(f, doc));
  HPDF_Dict_Add(cid, "FontDescriptor", desc);
  HPDF_Dict_AddNumber(
      cid, "DW", thousandths(hb_font_get_glyph_h_advance(f->font, 0), f->upem));
  HPDF_Dict_Add(cid, "W", widths(f, doc, cg, n));
  if (f->kind == OUTLINE_TRUETYPE) {
    /* code (the original glyph id) -> the subset's glyph id */
    const hb_map_t *map = hb_subset_plan_old_to_new_glyph_mapping(plan);
    size_t len = ((size_t)max_code + 1) * 2;
    uint8_t *m = oc_arena_calloc(f->arena, len, 1);
    for (size_t i = 0; i < n; i++) {
      hb_codepoint_t g = hb_map_get(map, cg[i].gid);
      if (g == HB_MAP_VALUE_INVALID)
        g = 0;
      m[cg[i].code * 2] = (uint8_t)(g >> 8);
      m[cg[i].code * 2 + 1] = (uint8_t)g;
    }
    HPDF_Dict map_stream = byte_stream(doc, m, len);
    if (map_stream)
      HPDF_Dict_Add(cid, "CIDToGIDMap", map_stream);
  }
  hb_face_destroy(sub);
  hb_subset_plan_destroy(plan);

  HPDF_Dict tu = HPDF_DictStream_New(doc->mmgr, doc->xref);
  if (tu) {
    tu->filter = HPDF_STREAM_FILTER_FLATE_DECODE;
    write_tounicode(f, tu->stream, (unsigned)(n - 1));
  }
  HPDF_Array desc_fonts = HPDF_Array_New(doc->mmgr);
  if (desc_fonts)
    HPDF_Array_Add(desc_fonts, cid);
  HPDF_Dict t0 = f->type0;
  HPDF_Dict_AddName(t0, "Type", "Font");
  HPDF_Dict_AddName(t0, "Subtype", "Type0");
  char base[112];
  snprintf(base, sizeof base, "%s%s", name,
           f->kind == OUTLINE_TRUETYPE ? "" : "-Identity-H");
  HPDF_Dict_AddName(t0, "BaseFont", base);
  HPDF_Dict_AddName(t0, "Encoding", "Identity-H");
  HPDF_Dict_Add(t0, "DescendantFonts", desc_fonts);
  if (tu)
    HPDF_Dict_Add(t0, "ToUnicode", tu);
  return 0;
}
