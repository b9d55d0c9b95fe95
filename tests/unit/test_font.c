/* Unit tests of the typesetter's fonts (runtime/typeset/ts_font.c) with
 * Debian's fonts-dejavu-core/-extra and fonts-ebgaramond-extra. Advances and
 * ascent/descent are compared with libharu's own answers for the same
 * files. --quick (for valgrind) skips the timing. */
#include <hpdf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ts_font.h"

#include "check.h"

#define DEJAVU "/usr/share/fonts/truetype/dejavu/"
#define EBG "/usr/share/fonts/truetype/ebgaramond/"

static bool quick;

/* ---- a reporter that keeps the last message ---------------------------- */

typedef struct captured {
  int count;
  char file[64], msg[512];
  unsigned line, col;
  oc_severity sev;
} captured;

static void capture(void *user, oc_severity sev, const char *file,
                    unsigned line, unsigned col, const char *message) {
  captured *c = user;
  c->count++;
  c->sev = sev;
  snprintf(c->file, sizeof c->file, "%s", file ? file : "");
  snprintf(c->msg, sizeof c->msg, "%s", message);
  c->line = line;
  c->col = col;
}

static captured cap;
static oc_reporter rep = {capture, &cap};

static bool ends_with(const char *s, const char *tail) {
  size_t ls = s ? strlen(s) : 0, lt = strlen(tail);
  return ls >= lt && strcmp(s + ls - lt, tail) == 0;
}

static ts_face *match1(ts_fonts *f, const char *family, int weight, bool italic,
                       bool *matched) {
  const char *fams[] = {family};
  return ts_fonts_match(f, fams, 1, weight, italic, matched);
}

/* ---- matching ----------------------------------------------------------- */

static void test_match(ts_fonts *f) {
  bool m = false;
  ts_face *serif = match1(f, "serif", 400, false, &m);
  CHECK(serif && m && ends_with(serif->path, ".ttf"));
  CHECK(serif && !serif->italic && serif->weight == 400);
  ts_face *sans = match1(f, "sans-serif", 400, false, &m);
  CHECK(sans && m && sans != serif);
  ts_face *mono = match1(f, "monospace", 400, false, &m);
  CHECK(mono && m && mono != serif && mono != sans);
  if (mono)
    CHECK(ts_face_advance(mono, 'i') == ts_face_advance(mono, 'M'));
  ts_face *serif_bi = match1(f, "serif", 700, true, &m);
  CHECK(serif_bi && m && serif_bi->italic && serif_bi->weight == 700);

  ts_face *dv = match1(f, "DejaVu Serif", 700, true, &m);
  CHECK(m && dv);
  if (dv) {
    CHECK_STR(dv->path, DEJAVU "DejaVuSerif-BoldItalic.ttf");
    CHECK_STR(dv->family, "DejaVu Serif");
    CHECK(dv->weight == 700 && dv->italic && !dv->small_caps);
    CHECK(dv->units_per_em == 2048);
  }
  /* Case does not matter; the condensed faces of the family lose. */
  ts_face *dvr = match1(f, "dejavu serif", 400, false, &m);
  CHECK(m && dvr);
  if (dvr)
    CHECK_STR(dvr->path, DEJAVU "DejaVuSerif.ttf");

  ts_face *eb = match1(f, "EB Garamond", 400, false, &m);
  CHECK(m && eb);
  if (eb) {
    /* The 12 pt design over the 08, the TTF over the CFF .otf. */
    CHECK_STR(eb->path, EBG "EBGaramond12-Regular.ttf");
    CHECK_STR(eb->family, "EB Garamond 12");
  }
  ts_face *ebb = match1(f, "EB Garamond", 700, false, &m);
  CHECK(m && ebb);
  if (ebb)
    CHECK_STR(ebb->path, EBG "EBGaramond12-Bold.ttf");
  /* No Bold Italic: the Italic (slant counts before weight). */
  ts_face *ebbi = match1(f, "EB Garamond", 700, true, &m);
  CHECK(m && ebbi);
  if (ebbi) {
    CHECK_STR(ebbi->path, EBG "EBGaramond12-Italic.ttf");
    CHECK(ebbi->italic && ebbi->weight == 400);
  }
  /* The name fontconfig gives the 12 pt files as well. */
  CHECK(match1(f, "EB Garamond 12", 400, false, &m) == eb && m);

  /* Cached: the same face, and faces numbered in load order. */
  CHECK(match1(f, "EB Garamond", 400, false, &m) == eb && m);
  CHECK(eb && dv && eb->id != dv->id && eb->id >= 0 && dv->id >= 0);

  /* Unknown families: not matched, but a usable serif. */
  m = true;
  ts_face *none = match1(f, "No Such Family 42", 400, false, &m);
  CHECK(none && !m);
  if (none)
    CHECK(ts_face_has(none, 'a') && ts_face_advance(none, 'a') > 0);
  CHECK(none == serif);
  const char *list[] = {"No Such Family 42", "EB Garamond", "serif"};
  CHECK(ts_fonts_match(f, list, 3, 400, false, &m) == eb && m);
  /* A CFF-only family (URW's Nimbus Roman, .otf) is matched: the PDF
     embeds CFF outlines. */
  ts_face *nimbus = match1(f, "Nimbus Roman", 400, false, &m);
  CHECK(nimbus && m && ends_with(nimbus->path, ".otf"));
  CHECK(match1(f, "EB Garamond", 400, false, NULL) == eb);
}

/* ---- advances and metrics against libharu ------------------------------ */

static void hpdf_error(HPDF_STATUS err, HPDF_STATUS detail, void *user) {
  (void)user;
  fprintf(stderr, "libharu error 0x%04x (%u)\n", (unsigned)err,
          (unsigned)detail);
}

static void compare_with_libharu(const ts_face *face) {
  HPDF_Doc pdf = HPDF_New(hpdf_error, NULL);
  HPDF_UseUTFEncodings(pdf);
  HPDF_SetCurrentEncoder(pdf, "UTF-8");
  const char *name = HPDF_LoadTTFontFromFile(pdf, face->path, HPDF_TRUE);
  HPDF_Font font = name ? HPDF_GetFont(pdf, name, "UTF-8") : NULL;
  CHECK(font != NULL);
  if (!font) {
    HPDF_Free(pdf);
    return;
  }
  static const uint32_t ranges[][2] = {
      {0x20, 0x17f},    {0x370, 0x3ff},   {0x400, 0x45f},   {0x2010, 0x2044},
      {0x20ac, 0x20ac}, {0x2122, 0x2122}, {0x4e2d, 0x4e2d}, {0xfb00, 0xfb06}};
  int compared = 0, differ = 0, covered = 0;
  for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++)
    for (uint32_t cp = ranges[r][0]; cp <= ranges[r][1]; cp++) {
      int ours = ts_face_advance(face, cp);
      int theirs = (int)HPDF_Font_GetUnicodeWidth(font, (HPDF_UNICODE)cp);
      compared++;
      covered += ts_face_has(face, cp);
      if (ours != theirs && differ++ < 5)
        fprintf(stderr, "%s U+%04X: %d, libharu %d\n", face->family,
                (unsigned)cp, ours, theirs);
    }
  CHECK(compared > 500 && covered > 400);
  CHECK(differ == 0);
  int asc = HPDF_Font_GetAscent(font), desc = HPDF_Font_GetDescent(font);
  int xh = (int)HPDF_Font_GetXHeight(font),
      caph = (int)HPDF_Font_GetCapHeight(font);
  if (!quick)
    printf("%s: ascent %d (libharu %d), descent %d (%d), x-height %d (%d), "
           "cap height %d (%d), line gap %d\n",
           face->family, face->ascent, asc, face->descent, desc, face->x_height,
           xh, face->cap_height, caph, face->line_gap);
  CHECK(face->ascent == asc);
  CHECK(face->descent == desc);
  /* x-height and cap height: the OS/2 values where the font has them
     (EB Garamond), else HarfBuzz measures 'x' and 'H'; libharu always
     measures, slightly differently. */
  CHECK(abs(face->x_height - xh) <= 20 && abs(face->cap_height - caph) <= 20);
  CHECK(face->x_height > 0 && face->x_height < face->cap_height);
  CHECK(face->cap_height < face->ascent && face->line_gap >= 0);
  HPDF_Free(pdf);
}

static void test_advances(ts_fonts *f) {
  ts_face *dv = match1(f, "DejaVu Serif", 400, false, NULL);
  ts_face *eb = match1(f, "EB Garamond", 400, false, NULL);
  ts_face *ebi = match1(f, "EB Garamond", 400, true, NULL);
  CHECK(dv && eb && ebi);
  if (!dv || !eb || !ebi)
    return;
  compare_with_libharu(dv);
  compare_with_libharu(eb);
  compare_with_libharu(ebi);
  /* DejaVu Serif 'A' is 1479/2048 em: 722.17, truncated. */
  CHECK(ts_face_advance(dv, 'A') == 722);
  CHECK(ts_face_has(dv, 0x416) && ts_face_has(eb, 0x416));
  CHECK(!ts_face_has(dv, 0x4e2d) && !ts_face_has(eb, 0x4e2d));
  /* Beyond the BMP: U+1D538 (double-struck A) is in DejaVu Serif, U+1F600
     (an emoji) is not and measures as .notdef. */
  CHECK(ts_face_has(dv, 0x1d538) && ts_face_advance(dv, 0x1d538) > 0);
  CHECK(!ts_face_has(dv, 0x1f600));
  CHECK(ts_face_advance(dv, 0x1f600) == ts_face_advance(dv, 0xfffe));
}

/* ---- shaping ------------------------------------------------------------ */

static size_t decode(const char *s, uint32_t *out) {
  size_t n = 0;
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    uint32_t c = *p;
    int len = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
    if (len > 1)
      c &= 0x3f >> (len - 1);
    for (int i = 1; i < len; i++)
      c = (c << 6) | (p[i] & 0x3f);
    out[n++] = c;
    p += len;
  }
  return n;
}

static size_t shape(ts_fonts *f, ts_face *face, const char *s, bool kerning,
                    bool ligatures, uint32_t *out, int32_t *kern, long *width) {
  uint32_t in[64];
  size_t n = decode(s, in);
  return ts_face_shape(f, face, in, n, kerning, ligatures, out, kern, width);
}

static void test_kerning(ts_fonts *f) {
  ts_face *dv = match1(f, "DejaVu Serif", 400, false, NULL);
  ts_face *eb = match1(f, "EB Garamond", 400, false, NULL);
  if (!dv || !eb)
    return;
  uint32_t out[64];
  int32_t kern[64];
  long w;
  /* DejaVu: A/V is -102/2048 em in GPOS. */
  CHECK(shape(f, dv, "AV", true, true, out, kern, &w) == 2);
  CHECK(out[0] == 'A' && out[1] == 'V' && kern[0] == 0);
  CHECK(kern[1] == -50);
  CHECK(w == ts_face_advance(dv, 'A') + ts_face_advance(dv, 'V') + kern[1]);
  CHECK(shape(f, eb, "AV", true, true, out, kern, &w) == 2);
  CHECK(kern[0] == 0 && kern[1] < -50);
  CHECK(w == ts_face_advance(eb, 'A') + ts_face_advance(eb, 'V') + kern[1]);
  /* Without kerning: nominal advances only. */
  shape(f, eb, "AV", false, true, out, kern, &w);
  CHECK(kern[1] == 0 &&
        w == ts_face_advance(eb, 'A') + ts_face_advance(eb, 'V'));
  /* Kerning lands before the right code point in a longer run. */
  size_t n = shape(f, dv, "xAVx", true, false, out, kern, &w);
  CHECK(n == 4 && kern[2] == -50);
  long sum = 0;
  for (size_t i = 0; i < n; i++)
    sum += ts_face_advance(dv, out[i]) + kern[i];
  CHECK(w == sum);
  /* A combining mark (its own cluster, or merged with its base): the
     width is still the sum of what the engine will draw. */
  /* (the escapes end where the string does: \x would swallow "ff") */
  static const char to_ff[] = {'T',    'o', '\xcc', '\x88', '\xcc',
                               '\x81', 'f', 'f',    '\0'};
  const char *marks[] = {"Ae\xcc\x81V", to_ff, "office"};
  for (int k = 0; k < 3; k++) {
    n = shape(f, k == 2 ? eb : dv, marks[k], true, true, out, kern, &w);
    sum = 0;
    for (size_t i = 0; i < n; i++)
      sum += ts_face_advance(k == 2 ? eb : dv, out[i]) + kern[i];
    CHECK(n > 0 && kern[0] == 0 && w == sum);
  }
  CHECK(ts_face_shape(f, dv, NULL, 0, true, true, NULL, NULL, &w) == 0 &&
        w == 0);
  /* Nothing to kern in "xx" */
  shape(f, dv, "xx", true, false, out, kern, &w);
  CHECK(kern[1] == 0);
}

static void test_ligatures(ts_fonts *f) {
  ts_face *eb = match1(f, "EB Garamond", 400, false, NULL);
  ts_face *dv = match1(f, "DejaVu Serif", 400, false, NULL);
  if (!dv || !eb)
    return;
  uint32_t out[64];
  int32_t kern[64];
  long w;
  CHECK(shape(f, eb, "fi", true, true, out, kern, &w) == 1);
  CHECK(out[0] == 0xfb01 && w == ts_face_advance(eb, 0xfb01));
  CHECK(shape(f, eb, "office", true, true, out, kern, &w) == 4);
  CHECK(out[0] == 'o' && out[1] == 0xfb03 && out[2] == 'c' && out[3] == 'e');
  CHECK(shape(f, eb, "baffle", true, true, out, kern, &w) == 4);
  CHECK(out[2] == 0xfb04);
  CHECK(shape(f, eb, "stuff", true, true, out, kern, &w) == 4);
  CHECK(out[3] == 0xfb00);
  CHECK(shape(f, dv, "flow", false, true, out, kern, &w) == 3);
  CHECK(out[0] == 0xfb02);
  /* Off: the letters stay. */
  CHECK(shape(f, eb, "office", true, false, out, kern, &w) == 6);
  CHECK(out[1] == 'f' && out[2] == 'f' && out[3] == 'i');
  /* Capitals are not ligated. */
  CHECK(shape(f, eb, "FI", true, true, out, kern, &w) == 2);
}

/* ---- fallback ----------------------------------------------------------- */

/* Whether fc-list knows a TrueType (not collection) file with cp. */
static bool system_has_truetype(uint32_t cp) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "fc-list ':charset=%x:fontformat=TrueType' file",
           (unsigned)cp);
  FILE *p = popen(cmd, "r");
  if (!p)
    return false;
  char line[512];
  bool found = false;
  while (fgets(line, sizeof line, p))
    if (strstr(line, ".ttf:") || strstr(line, ".TTF:"))
      found = true;
  pclose(p);
  return found;
}

static void test_fallback(ts_fonts *f) {
  ts_face *eb = match1(f, "EB Garamond", 400, false, NULL);
  ts_face *ebi = match1(f, "EB Garamond", 400, true, NULL);
  ts_face *dv = match1(f, "DejaVu Serif", 400, false, NULL);
  if (!dv || !eb || !ebi)
    return;
  /* A face that has the character is its own fallback. */
  CHECK(ts_fonts_fallback(f, dv, 0x416, NULL) == dv);
  CHECK(ts_fonts_fallback(f, eb, 0x416, NULL) == eb);
  /* U+0531 ARMENIAN CAPITAL AYB: not in EB Garamond, in DejaVu. */
  CHECK(!ts_face_has(eb, 0x531));
  ts_face *fa = ts_fonts_fallback(f, eb, 0x531, NULL);
  CHECK(fa && fa != eb && ts_face_has(fa, 0x531) &&
        ends_with(fa->path, ".ttf") && !fa->italic);
  CHECK(ts_fonts_fallback(f, eb, 0x531, NULL) == fa); /* cached */
  /* The italic's fallback is italic where one has the character. */
  ts_face *fai = ts_fonts_fallback(f, ebi, 0x531, NULL);
  CHECK(fai && ts_face_has(fai, 0x531) && fai->italic);
  if (fai && !quick)
    printf("fallback for U+0531: %s, italic: %s\n", fa ? fa->path : "-",
           fai->path);
  /* CJK: whatever this machine has. */
  ts_face *cjk = ts_fonts_fallback(f, eb, 0x4e2d, NULL);
  CHECK((cjk != NULL) == system_has_truetype(0x4e2d));
  if (cjk)
    CHECK(ts_face_has(cjk, 0x4e2d));
  /* Noncharacters no font has, in the BMP and beyond; a character beyond
     the BMP that DejaVu Sans has (U+1F600) and EB Garamond lacks. */
  CHECK(ts_fonts_fallback(f, eb, 0xfffe, NULL) == NULL);
  CHECK(ts_fonts_fallback(f, eb, 0x1fffe, NULL) == NULL);
  ts_face *smp = ts_fonts_fallback(f, eb, 0x1f600, NULL);
  CHECK(smp && smp != eb && ts_face_has(smp, 0x1f600));
  /* The language picks among faces that all have a Han character: Noto
     CJK's Japanese form for ja, the Simplified Chinese one for zh-CN. */
  ts_face *ja = ts_fonts_fallback(f, eb, 0x6f22, "ja");
  ts_face *zh = ts_fonts_fallback(f, eb, 0x6f22, "zh-CN");
  CHECK(ja && zh && ja != zh);
  if (ja && zh) {
    CHECK(strstr(ja->family, "JP") != NULL);
    CHECK(strstr(zh->family, "SC") != NULL);
  }
  CHECK(ts_fonts_fallback(f, eb, 0x6f22, "ja") == ja); /* cached */
}

/* ---- small caps and @font-face ----------------------------------------- */

static void test_small_caps(ts_fonts *f) {
  ts_face *eb = match1(f, "EB Garamond", 400, false, NULL);
  ts_face *dv = match1(f, "DejaVu Serif", 400, false, NULL);
  if (!dv || !eb)
    return;
  ts_face *sc = ts_fonts_small_caps(f, eb);
  CHECK(sc != NULL);
  if (sc) {
    CHECK_STR(sc->path, EBG "EBGaramondSC12-Regular.ttf");
    CHECK(sc->small_caps && !eb->small_caps);
  }
  CHECK(ts_fonts_small_caps(f, eb) == sc);
  CHECK(ts_fonts_small_caps(f, dv) == NULL);
}

static void test_add_file(void) {
  oc_arena *a = oc_arena_new();
  ts_fonts *f = ts_fonts_new(a, &rep);
  CHECK(f != NULL);
  if (!f) {
    oc_arena_free(a);
    return;
  }
  memset(&cap, 0, sizeof cap);
  CHECK(ts_fonts_add_file(f, "/nonexistent/fonts/x.ttf", NULL, "X", 400, false,
                          "style.css", 3, 5) == NULL);
  CHECK(cap.count == 1 && cap.sev == OC_WARNING && cap.line == 3 &&
        cap.col == 5);
  CHECK_STR(cap.file, "style.css");
  CHECK_STR(cap.msg, "cannot read font '/nonexistent/fonts/x.ttf' (No such "
                     "file or directory): it is left out of the PDF, and the "
                     "text uses the next font of its font-family");
  const char *otf = "/usr/share/fonts/opentype/ebgaramond/"
                    "EBGaramond12-Regular.otf";
  FILE *probe = fopen(otf, "rb");
  if (!probe)
    otf = "/usr/share/fonts/opentype/urw-base35/P052-Roman.otf";
  else
    fclose(probe);
  /* A CFF .otf is embedded as well as a .ttf. */
  ts_face *cff = ts_fonts_add_file(f, otf, NULL, "X", 400, false, "style.css",
                                   7, 1);
  CHECK(cff && ts_face_has(cff, 'a') && cap.count == 1);
  char want[512];
  snprintf(want, sizeof want,
           "'/etc/hostname' is not an OpenType font (the PDF embeds .ttf, "
           ".otf and .ttc files; WOFF and Type 1 are for other readers): it "
           "is left out of the PDF, and the text uses the next font of its "
           "font-family");
  CHECK(ts_fonts_add_file(f, "/etc/hostname", NULL, "X", 400, false,
                          "style.css", 8, 1) == NULL);
  CHECK(cap.count == 2 && cap.line == 8);
  CHECK_STR(cap.msg, want);
  cap.count++; /* the numbering of the checks below */
  /* A TrueType file cut short: its tables run past its end. */
  char cut[] = "/tmp/octavo-test-font-XXXXXX";
  int fd = mkstemp(cut);
  FILE *src = fopen(EBG "EBGaramond12-Regular.ttf", "rb");
  CHECK(fd >= 0 && src);
  if (fd >= 0 && src) {
    char buf[4096];
    size_t got = fread(buf, 1, sizeof buf, src);
    CHECK(write(fd, buf, got) == (ssize_t)got);
    close(fd);
    CHECK(ts_fonts_add_file(f, cut, NULL, "X", 400, false, "style.css", 9, 2) ==
          NULL);
    CHECK(cap.count == 4 && cap.sev == OC_WARNING && cap.line == 9 &&
          strstr(cap.msg, "is not a usable font (truncated or corrupt): it "
                          "is left out of the PDF"));
    unlink(cut);
  }
  if (src)
    fclose(src);

  /* Before registering: fontconfig's DejaVu Serif. */
  bool m = false;
  ts_face *before = match1(f, "DejaVu Serif", 400, false, &m);
  CHECK(before && m && ends_with(before->path, "DejaVuSerif.ttf"));
  /* Registered files win for their family name, nearest style first. */
  ts_face *reg = ts_fonts_add_file(f, EBG "EBGaramond12-Regular.ttf", NULL,
                                   "DejaVu Serif", 400, false, "s.css", 9, 1);
  ts_face *ital = ts_fonts_add_file(f, EBG "EBGaramond12-Italic.ttf", NULL,
                                    "DejaVu Serif", 400, true, "s.css", 10, 1);
  ts_face *book = ts_fonts_add_file(f, EBG "EBGaramond12-Bold.ttf", NULL,
                                    "Body", 700, false, "s.css", 11, 1);
  CHECK(reg && ital && book && cap.count == 4);
  if (reg)
    CHECK_STR(reg->family, "EB Garamond 12");
  CHECK(match1(f, "DejaVu Serif", 400, false, &m) == reg && m);
  CHECK(match1(f, "DejaVu Serif", 700, true, &m) == ital && m);
  CHECK(match1(f, "body", 400, false, &m) == book && m);
  /* The same file through fontconfig is the same face. */
  CHECK(match1(f, "EB Garamond", 700, false, &m) == book);
  oc_arena_free(a);
}

/* ---- speed -------------------------------------------------------------- */

static void bench(ts_fonts *f) {
  ts_face *eb = match1(f, "EB Garamond", 400, false, NULL);
  if (!eb)
    return;
  static const char *const words[] = {"office",  "typeset", "Avenue", "waffle",
                                      "kerning", "flight",  "Tower",  "before",
                                      "glyphs",  "reader"};
  uint32_t in[10][16], out[16];
  size_t len[10];
  int32_t kern[16];
  for (int i = 0; i < 10; i++)
    len[i] = decode(words[i], in[i]);
  long w, total = 0;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int i = 0; i < 200000; i++) {
    int k = i % 10;
    ts_face_shape(f, eb, in[k], len[k], true, true, out, kern, &w);
    total += w;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double us = ((double)(t1.tv_sec - t0.tv_sec) * 1e6 +
               (double)(t1.tv_nsec - t0.tv_nsec) / 1e3) /
              200000;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int i = 0; i < 200000; i++) {
    int k = i % 10;
    ts_face_shape(f, eb, in[k], len[k], false, true, out, kern, &w);
    total += w;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double us_plain = ((double)(t1.tv_sec - t0.tv_sec) * 1e6 +
                     (double)(t1.tv_nsec - t0.tv_nsec) / 1e3) /
                    200000;
  printf("shaping 200000 words: %.2f us/word with kerning, %.3f without "
         "(checksum %ld)\n",
         us, us_plain, total);
  CHECK(total > 0);
}

int main(int argc, char **argv) {
  quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
  oc_arena *a = oc_arena_new();
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  ts_fonts *f = ts_fonts_new(a, &rep);
  CHECK(f != NULL);
  if (f) {
    test_match(f);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (!quick)
      printf("fontconfig load and first matches: %.1f ms\n",
             (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
                 (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
    test_advances(f);
    test_kerning(f);
    test_ligatures(f);
    test_fallback(f);
    test_small_caps(f);
    if (!quick)
      bench(f);
  }
  oc_arena_free(a);
  test_add_file();
  printf("font: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
