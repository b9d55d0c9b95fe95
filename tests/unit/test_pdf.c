/* The PDF writer (runtime/typeset/ts_pdf.c): builds small documents and checks them
 * with qpdf and poppler-utils (qpdf --check, pdffonts, pdftotext, pdfinfo,
 * pdftoppm), which must be installed. Without --quick it also times a
 * 1000-page document set one word per call. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "ts_image.h"
#include "ts_pdf.h"
#include <png.h>

#define SERIF "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"
#define ITALIC "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Italic.ttf"
/* CFF outlines: name-keyed (TeX Gyre Pagella, fonts-texgyre) and CID-keyed,
   the fourth face of a collection (Noto Serif CJK, fonts-noto-cjk: JP, KR,
   SC, TC, HK; which is which does not matter here). */
#define PAGELLA "/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyrepagella-regular.otf"
#define CJK "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc"

static char dir[64];
static int errors;
static char last_error[512];

static void on_report(void *user, oc_severity sev, const char *file,
                      unsigned line, unsigned col, const char *msg) {
  (void)user, (void)line, (void)col;
  if (sev == OC_ERROR)
    errors++;
  snprintf(last_error, sizeof last_error, "%s: %s", file, msg);
}
static const oc_reporter reporter = {on_report, NULL};

/* Runs a shell command; returns its output (stdout and stderr) in a static
 * buffer and its exit status in *status. */
static const char *run(const char *cmd, int *status) {
  static char out[1 << 22];
  size_t n = 0;
  FILE *f = popen(cmd, "r");
  if (!f) {
    *status = -1;
    return "";
  }
  size_t got;
  while ((got = fread(out + n, 1, sizeof out - 1 - n, f)) > 0)
    n += got;
  char drain[4096];
  while (fread(drain, 1, sizeof drain, f) > 0)
    continue;
  out[n] = '\0';
  int rc = pclose(f);
  *status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  return out;
}

static const char *runf(int *status, const char *fmt, const char *path) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, fmt, path);
  return run(cmd, status);
}

/* UTF-8 to code points (the tests' strings are valid UTF-8). */
static size_t decode(const char *s, uint32_t *out) {
  size_t n = 0;
  for (const unsigned char *u = (const unsigned char *)s; *u;) {
    uint32_t c = *u++;
    int more = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
    c &= more ? 0x3F >> more : 0x7F;
    while (more--)
      c = c << 6 | (*u++ & 0x3F);
    out[n++] = c;
  }
  return n;
}

static const ts_rgb black = {0, 0, 0};

static void text(ts_pdf *p, int page, ts_pdf_font *f, double size, double x,
                 double y, const char *s, const int32_t *kern) {
  uint32_t codes[128];
  size_t n = decode(s, codes);
  ts_pdf_text(p, page, f, size, x, y, black, codes, kern, n, 0);
}

/* True when needles occur in hay in this order. */
static bool in_order(const char *hay, const char *const *needles) {
  for (; *needles; needles++) {
    const char *at = strstr(hay, *needles);
    if (!at) {
      fprintf(stderr, "missing or out of order: %s\n", *needles);
      return false;
    }
    hay = at + strlen(*needles);
  }
  return true;
}

/* The rows of pdffonts's output of the given type, each checked to say
   "yes yes yes" (embedded, subset, ToUnicode). */
static int count_fonts(const char *out, const char *type) {
  int n = 0;
  for (const char *l = strstr(out, type); l; l = strstr(l + 1, type)) {
    n++;
    const char *eol = strchr(l, '\n'), *yes = strstr(l, " yes yes yes ");
    CHECK(yes && eol && yes < eol);
  }
  return n;
}

/* The 3-page document all the tool checks look at. */
static int build_sample(const char *path) {
  oc_arena *a = oc_arena_new();
  ts_pdf *p = ts_pdf_new(a, &reporter, "sample.pdf");
  ts_pdf_font *serif = ts_pdf_font_load(p, SERIF, 0);
  ts_pdf_font *italic = ts_pdf_font_load(p, ITALIC, 0);
  CHECK(serif && italic);
  CHECK(ts_pdf_font_load(p, SERIF, 0) == serif);
  ts_pdf_font *pagella = ts_pdf_font_load(p, PAGELLA, 0);
  ts_pdf_font *cjk = ts_pdf_font_load(p, CJK, 3);
  CHECK(pagella && cjk && ts_pdf_font_load(p, CJK, 3) == cjk);
  for (int i = 0; i < 3; i++)
    CHECK(ts_pdf_page_add(p, 432, 648) == i);
  CHECK(ts_pdf_page_count(p) == 3);

  /* AVATAR kerned as HarfBuzz would: the pen moves left before V, A, T. */
  static const int32_t kern[] = {0, -80, -60, -40, 0, 0};
  text(p, 0, serif, 14, 72, 560, "AVATAR", kern);
  text(p, 0, serif, 12, 72, 530, "Ǖber ǘ ȧ café", NULL);
  text(p, 0, italic, 12, 72, 510, "naïve Straße", NULL);
  uint32_t spaced[16];
  size_t n = decode("spaced", spaced);
  ts_pdf_text(p, 0, serif, 12, 72, 490, (ts_rgb){0.5, 0, 0}, spaced, NULL, n,
              1.5);
  text(p, 0, serif, 12, 200, 490, "unspaced", NULL);

  ts_pdf_fill_rect(p, 1, 72, 400, 288, 100, (ts_rgb){0.9, 0.9, 0.9});
  ts_pdf_line(p, 1, 72, 380, 360, 380, 0.5, black, TS_LINE_DASHED);
  ts_pdf_line(p, 1, 72, 370, 360, 370, 1, black, TS_LINE_DOTTED);
  ts_pdf_line(p, 1, 72, 360, 360, 360, 1, black, TS_LINE_SOLID);
  text(p, 1, serif, 12, 72, 560, "Go to chapter one", NULL);
  ts_pdf_link_dest(p, 1, 72, 556, 120, 16, 2, 600);
  text(p, 1, serif, 12, 72, 540, "Visit example.org", NULL);
  ts_pdf_link_uri(p, 1, 72, 536, 120, 16, "https://example.org/zürich");
  text(p, 2, serif, 12, 72, 560, "Chapter One Zürich", NULL);
  /* ff and fi ligatures read back as their letters; a letter beyond the
     BMP (mathematical double-struck A, which DejaVu has) as itself. */
  text(p, 2, pagella, 12, 72, 530, "Pagella \uFB00\uFB01ne", NULL);
  text(p, 2, serif, 12, 200, 530, "𝔸", NULL);
  text(p, 2, cjk, 12, 72, 500, "种的起源。「漢字」かな", NULL);

  int pre = ts_pdf_outline(p, -1, "Préface", 0, 600, true);
  CHECK(ts_pdf_outline(p, pre, "Über uns", 0, 540, false) == 1);
  CHECK(ts_pdf_outline(p, -1, "Chapter One", 2, 600, false) == 2);

  ts_pdf_page_label(p, 2, TS_LABEL_DECIMAL, 1, NULL);
  ts_pdf_page_label(p, 0, TS_LABEL_LOWER_ROMAN, 1, "");
  ts_pdf_set_info(p, &(ts_pdf_info){.title = "Ünïcode Title — Test",
                                    .author = "Ada Lovelace",
                                    .subject = "Tests",
                                    .keywords = "pdf, libharu",
                                    .creator = "Octavo",
                                    .language = "en-GB",
                                    .has_date = true,
                                    .date = 1715941800});
  int rc = ts_pdf_save(p, path);
  oc_arena_free(a);
  return rc;
}

static void test_sample(void) {
  char path[96], again[96];
  snprintf(path, sizeof path, "%s/sample.pdf", dir);
  snprintf(again, sizeof again, "%s/again.pdf", dir);
  CHECK(build_sample(path) == 0);
  CHECK(build_sample(again) == 0);
  CHECK(errors == 0);

  int st;
  const char *out = runf(&st, "qpdf --check '%s' 2>&1", path);
  CHECK(st == 0);
  CHECK(strstr(out, "No syntax or stream encoding errors"));
  CHECK(!strstr(out, "WARNING"));

  out = runf(&st, "pdffonts '%s' 2>&1", path);
  CHECK(st == 0);
  /* The TrueType fonts, and both CFF fonts: CIDFontType0 over a bare CFF
     program; every one embedded, subset, with a ToUnicode map. */
  CHECK(count_fonts(out, "CID TrueType") == 2);
  CHECK(strstr(out, "DejaVuSerif-Italic"));
  CHECK(count_fonts(out, "CID Type 0C") == 2);
  CHECK(strstr(out, "+TeXGyrePagella-Regular"));
  CHECK(strstr(out, "+NotoSerifCJK"));
  CHECK(!strstr(out, "Syntax"));

  out = runf(&st, "pdftotext '%s' - 2>&1", path);
  CHECK(st == 0);
  CHECK(!strstr(out, "Syntax Warning")); /* the ToUnicode fix */
  CHECK(in_order(out, (const char *const[]){
                          "AVATAR", "Ǖber ǘ ȧ café", "naïve Straße", "spaced",
                          "unspaced", "Go to chapter one", "Visit example.org",
                          "Chapter One Zürich", "Pagella fffine", "𝔸",
                          "种的起源。「漢字」かな", NULL}));

  out = runf(&st, "pdfinfo '%s' 2>&1", path);
  CHECK(st == 0);
  CHECK(strstr(out, "Title:           Ünïcode Title — Test\n"));
  CHECK(strstr(out, "Author:          Ada Lovelace\n"));
  CHECK(strstr(out, "Creator:         Octavo\n"));
  CHECK(strstr(out, "CreationDate:    Fri May 17 10:30:00 2024 UTC\n"));
  CHECK(strstr(out, "ModDate:         Fri May 17 10:30:00 2024 UTC\n"));
  CHECK(strstr(out, "Pages:           3\n"));
  CHECK(strstr(out, "Page size:       432 x 648 pts"));

  out = runf(&st,
             "qpdf --json --json-key=pagelabels --json-key=outlines "
             "--json-key=pages '%s' 2>&1",
             path);
  CHECK(st == 0);
  CHECK(in_order(out, (const char *const[]){"\"pagelabels\"", "\"/S\": \"/r\"",
                                            "\"/S\": \"/D\"", NULL}));
  CHECK(in_order(out,
                 (const char *const[]){"\"label\"", "\"/r\"", "\"label\"",
                                       "\"/r\"", "\"label\"", "\"/D\"", NULL}));
  CHECK(in_order(out, (const char *const[]){
                          "\"title\": \"Préface\"", "\"title\": \"Über uns\"",
                          "\"title\": \"Chapter One\"", NULL}));
  CHECK(strstr(out, "\"/XYZ\",\n        0,\n        600,\n        null\n"));

  /* The catalog, the annotations and the content streams as written,
   * decompressed by qpdf. */
  out = runf(&st, "qpdf --stream-data=uncompress '%s' - 2>&1 | tr -d '\\000'",
             path);
  CHECK(st == 0);
  CHECK(strstr(out, "/Lang (en-GB)"));
  CHECK(strstr(out, "/CreationDate (D:20240517103000+00'00')"));
  CHECK(strstr(out, "/PageMode /UseOutlines"));
  CHECK(strstr(out, "/PageLabels << /Nums [ 0 << /S /r >> 2 << /S /D >> ]"));
  /* No border, and no /H: libharu leaves out the default, invert. */
  CHECK(in_order(out, (const char *const[]){"<< /Border [ 0 0 0 ] /Dest ",
                                            "/Subtype /Link", NULL}));
  CHECK(strstr(out, "/A << /S /URI /Type /Action "
                    "/URI (https://example.org/z%C3%BCrich) >> "
                    "/Border [ 0 0 0 ]"));
  CHECK(!strstr(out, "/H /"));
  CHECK(strstr(out, "[ 9 0 R /XYZ 0 600 null ]"));
  /* Kerning as TJ numbers; Tc only where letter-spaced, then reset. The
   * strings are literal, two bytes a glyph id (DejaVu's A is glyph 36,
   * '$'; the NUL high bytes are removed by the tr above). */
  CHECK(in_order(out, (const char *const[]){"BT\n/F1 14 Tf\n0 0 0 rg\n"
                                            "72 560 Td\n[($)80(",
                                            ")60($)40(", ")] TJ\nET\n",
                                            NULL}));
  CHECK(strstr(out, "0.5 0 0 rg\n1.5 Tc\n72 490 Td\n[("));
  CHECK(strstr(out, "0 0 0 rg\n0 Tc\n200 490 Td\n"));
  CHECK(in_order(out, (const char *const[]){"[3 2 ] 0 d", "[1 2 ] 0 d", NULL}));

  FILE *f1 = fopen(path, "rb"), *f2 = fopen(again, "rb");
  static char b1[1 << 20], b2[1 << 20];
  size_t n1 = f1 ? fread(b1, 1, sizeof b1, f1) : 0;
  size_t n2 = f2 ? fread(b2, 1, sizeof b2, f2) : 0;
  CHECK(n1 > 1000 && n1 < sizeof b1 && n1 == n2 && memcmp(b1, b2, n1) == 0);
  if (f1)
    fclose(f1);
  if (f2)
    fclose(f2);
  printf("sample.pdf: %zu bytes\n", n1);
  if (!getenv("KEEP_SAMPLE"))
    remove(path);
  remove(again);
}

/* Dark pixels of a page rendered by pdftoppm at 36 dpi, in gray. */
static long ink(const char *path, int page) {
  char cmd[256], pgm[128];
  snprintf(pgm, sizeof pgm, "%s/ink", dir);
  snprintf(cmd, sizeof cmd,
           "pdftoppm -r 36 -gray -singlefile -f %d -l %d '%s' '%s'", page, page,
           path, pgm);
  int st;
  run(cmd, &st);
  strcat(pgm, ".pgm");
  FILE *f = fopen(pgm, "rb");
  if (st != 0 || !f)
    return -1;
  int w, h, max;
  long dark = 0;
  if (fscanf(f, "P5 %d %d %d", &w, &h, &max) == 3 && fgetc(f) != EOF)
    for (long i = 0; i < (long)w * h; i++)
      dark += fgetc(f) < 128;
  fclose(f);
  remove(pgm);
  return dark;
}

/* Ǖ is a composite of a composite in DejaVu Serif: libharu 2.3.0 alone
 * embeds its marks empty, so it would render exactly like U. */
static void test_nested_composites(void) {
  char path[96];
  snprintf(path, sizeof path, "%s/composite.pdf", dir);
  oc_arena *a = oc_arena_new();
  ts_pdf *p = ts_pdf_new(a, &reporter, "composite.pdf");
  ts_pdf_font *f = ts_pdf_font_load(p, SERIF, 0);
  const char *glyphs[] = {"U", "Ǖ", "a", "ȧ"};
  for (int i = 0; i < 4; i++) {
    ts_pdf_page_add(p, 100, 100);
    text(p, i, f, 72, 10, 20, glyphs[i], NULL);
  }
  CHECK(ts_pdf_save(p, path) == 0);
  oc_arena_free(a);
  long u = ink(path, 1), u_marks = ink(path, 2);
  long a_plain = ink(path, 3), a_dot = ink(path, 4);
  CHECK(u > 50 && u_marks > u + u / 10);
  CHECK(a_plain > 50 && a_dot > a_plain + a_plain / 20);
  printf("ink: U %ld, Ǖ %ld, a %ld, ȧ %ld\n", u, u_marks, a_plain, a_dot);
  remove(path);
}

static void test_errors(void) {
  oc_arena *a = oc_arena_new();
  ts_pdf *p = ts_pdf_new(a, &reporter, "out/book.pdf");
  int before = errors;
  CHECK(ts_pdf_font_load(p, "/nonexistent/font.ttf", 0) == NULL);
  CHECK(errors == before + 1);
  CHECK(strstr(last_error, "/nonexistent/font.ttf: cannot read the font"));
  /* Not a font: an error, then the document still works. */
  CHECK(ts_pdf_font_load(p, "/etc/hostname", 0) == NULL);
  CHECK(errors == before + 2);
  CHECK(strstr(last_error,
               "/etc/hostname: cannot embed the font: it has no glyphs"));
  CHECK(ts_pdf_page_add(p, 200, 200) == 0);
  CHECK(ts_pdf_save(p, "/nonexistent/dir/book.pdf") == -1);
  CHECK(errors == before + 3);
  CHECK(strstr(last_error, "out/book.pdf: cannot write the PDF: libharu "
                           "error 0x"));
  oc_arena_free(a);

  /* A call past the last page spoils the document, and says why. */
  a = oc_arena_new();
  p = ts_pdf_new(a, &reporter, "bad.pdf");
  ts_pdf_fill_rect(p, 3, 0, 0, 1, 1, black);
  char path[96];
  snprintf(path, sizeof path, "%s/bad.pdf", dir);
  CHECK(ts_pdf_save(p, path) == -1);
  CHECK_STR(last_error, "bad.pdf: cannot write the PDF: a rectangle on a "
                        "page that does not exist");
  CHECK(access(path, F_OK) != 0);
  oc_arena_free(a);

  /* Finished pages are deflated aside; drawing on one is refused. */
  a = oc_arena_new();
  p = ts_pdf_new(a, &reporter, "done.pdf");
  ts_pdf_page_add(p, 200, 200);
  ts_pdf_fill_rect(p, 0, 10, 10, 50, 50, black);
  ts_pdf_page_done(p, 0);
  ts_pdf_page_add(p, 200, 200);
  ts_pdf_fill_rect(p, 1, 10, 10, 50, 50, black);
  snprintf(path, sizeof path, "%s/done.pdf", dir);
  CHECK(ts_pdf_save(p, path) == 0);
  oc_arena_free(a);
  {
    int rc;
    const char *o = runf(&rc, "qpdf --check '%s' 2>&1", path);
    CHECK(rc == 0 && o && !strstr(o, "WARNING"));
    o = runf(&rc,
             "qpdf --qdf --object-streams=disable '%s' - 2>/dev/null | "
             "grep -a -c '^10 10 50 50 re'",
             path);
    CHECK(o && atoi(o) == 2); /* both rectangles, inflated by qpdf */
  }
  a = oc_arena_new();
  p = ts_pdf_new(a, &reporter, "done2.pdf");
  ts_pdf_page_add(p, 200, 200);
  ts_pdf_page_done(p, 0);
  ts_pdf_fill_rect(p, 0, 10, 10, 50, 50, black);
  CHECK(ts_pdf_save(p, path) == -1);
  CHECK_STR(last_error, "done2.pdf: cannot write the PDF: drawing on a page "
                        "already finished");
  oc_arena_free(a);

  /* A prefix-only label (no /S), and libharu's own range check. */
  a = oc_arena_new();
  p = ts_pdf_new(a, &reporter, "labels.pdf");
  ts_pdf_page_add(p, 200, 200);
  ts_pdf_page_add(p, 200, 200);
  ts_pdf_page_label(p, 0, TS_LABEL_NONE, 1, "Cover");
  ts_pdf_page_label(p, 1, TS_LABEL_UPPER_ALPHA, 3, "A-");
  snprintf(path, sizeof path, "%s/labels.pdf", dir);
  CHECK(ts_pdf_save(p, path) == 0);
  int st;
  const char *out =
      runf(&st, "qpdf --json --json-key=pagelabels '%s' 2>&1", path);
  CHECK(strstr(out, "\"/P\": \"u:Cover\""));
  CHECK(in_order(
      out, (const char *const[]){"\"/P\": \"u:Cover\"", "}", "\"/P\": \"u:A-\"",
                                 "\"/S\": \"/A\"", "\"/St\": 3", NULL}));
  /* the cover's dictionary has no /S */
  CHECK(!strstr(out, "\"/S\"") ||
        strstr(out, "\"/S\"") > strstr(out, "\"/P\": \"u:A-\""));
  remove(path);
  oc_arena_free(a);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* 1000 pages of 40 lines of 10 words, one ts_pdf_text per word. */
static void measure_big(void) {
  static const char *const words[] = {
      "the",     "typesetter", "places", "every",  "word", "at",
      "its",     "own",        "pen",    "Straße", "café", "justified",
      "columns", "of",         "prose",  "AVATAR"};
  uint32_t codes[16][16];
  size_t lens[16];
  for (int i = 0; i < 16; i++)
    lens[i] = decode(words[i], codes[i]);
  int32_t kern[16] = {0, -80, -60, -40};
  char path[96];
  snprintf(path, sizeof path, "%s/big.pdf", dir);
  double t0 = now();
  oc_arena *a = oc_arena_new();
  ts_pdf *p = ts_pdf_new(a, &reporter, "big.pdf");
  ts_pdf_font *f = ts_pdf_font_load(p, SERIF, 0);
  unsigned w = 0;
  for (int pg = 0; pg < 1000; pg++) {
    ts_pdf_page_add(p, 432, 648);
    for (int line = 0; line < 40; line++)
      for (int word = 0; word < 10; word++, w = w * 7 + 3) {
        unsigned k = w % 16;
        ts_pdf_text(p, pg, f, 10, 54 + word * 32.5, 600 - line * 13.2, black,
                    codes[k], k == 15 ? kern : NULL, lens[k], 0);
      }
  }
  double t1 = now();
  CHECK(ts_pdf_save(p, path) == 0);
  double t2 = now();
  oc_arena_free(a);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  FILE *fp = fopen(path, "rb");
  long size = 0;
  if (fp) {
    fseek(fp, 0, SEEK_END);
    size = ftell(fp);
    fclose(fp);
  }
  int st;
  const char *out = runf(&st, "pdfinfo '%s' 2>&1", path);
  CHECK(strstr(out, "Pages:           1000\n"));
  printf("1000 pages, 400000 words: build %.2f s, save %.2f s, %.1f MB, peak "
         "RSS %ld MB\n",
         t1 - t0, t2 - t1, size / 1e6, ru.ru_maxrss / 1024);
  remove(path);
}

/* Writes a w x h PNG of 4-byte RGBA pixels (or 1-byte grey) with libpng. */
static bool write_png(const char *path, const unsigned char *px, unsigned w,
                      unsigned h, bool rgba) {
  png_image im;
  memset(&im, 0, sizeof im);
  im.version = PNG_IMAGE_VERSION;
  im.width = w;
  im.height = h;
  im.format = rgba ? PNG_FORMAT_RGBA : PNG_FORMAT_GRAY;
  return png_image_write_to_file(&im, path, 0, px, 0, NULL) != 0;
}

/* ts_image.c: the box filter's means, partial blocks at the edges, alpha
 * kept (colours weighted by it) or composed on white, and a truncated
 * file refused by the decoder. */
static void test_image_reduce(void) {
  char path[300], why[200];
  snprintf(path, sizeof path, "%s/grey.png", dir);
  unsigned w = 101, h = 60;
  unsigned char *g = malloc((size_t)w * h);
  for (unsigned y = 0; y < h; y++)
    for (unsigned x = 0; x < w; x++)
      g[y * w + x] = x % 2 ? 200 : 100;
  CHECK(write_png(path, g, w, h, false));
  free(g);
  unsigned hw, hh;
  CHECK(ts_image_header(path, 1, &hw, &hh, why, sizeof why) == 0);
  CHECK(hw == 101 && hh == 60);
  CHECK(ts_image_verify(path, 1, why, sizeof why) == 0);
  ts_raster r;
  CHECK(ts_image_decode(path, 1, 4, true, &r, why, sizeof why) == 0);
  CHECK(r.w == 26 && r.h == 15 && r.ch == 1 && !r.alpha);
  CHECK(r.px[0] == 150 && r.px[14 * 26 + 24] == 150);
  CHECK(r.px[25] == 100); /* the last block holds column 100 alone */
  free(r.px);

  snprintf(path, sizeof path, "%s/rgba.png", dir);
  w = 8, h = 4;
  unsigned char *c = calloc((size_t)w * h, 4);
  for (unsigned i = 0; i < w * h; i++)
    if (i % 2 == 0) { /* opaque red, then a transparent green */
      c[i * 4] = 255;
      c[i * 4 + 3] = 255;
    } else {
      c[i * 4 + 1] = 255;
    }
  CHECK(write_png(path, c, w, h, true));
  free(c);
  CHECK(ts_image_decode(path, 1, 2, true, &r, why, sizeof why) == 0);
  CHECK(r.w == 4 && r.h == 2 && r.ch == 3 && r.alpha);
  /* the transparent green weighs nothing: red, half opaque */
  CHECK(r.px[0] == 255 && r.px[1] == 0 && r.px[2] == 0 && r.px[3] == 128);
  free(r.px);
  CHECK(ts_image_decode(path, 1, 2, false, &r, why, sizeof why) == 0);
  CHECK(r.ch == 3 && !r.alpha);
  /* on white: the mean of red and white */
  CHECK(r.px[0] == 255 && r.px[1] == 128 && r.px[2] == 128);
  free(r.px);

  /* cut in the middle of its image data */
  FILE *f = fopen(path, "rb");
  unsigned char buf[4096];
  size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
  if (f)
    fclose(f);
  f = fopen(path, "wb");
  if (f) {
    fwrite(buf, 1, n - 20, f);
    fclose(f);
  }
  CHECK(ts_image_verify(path, 1, why, sizeof why) != 0);
  CHECK(ts_image_decode(path, 1, 2, true, &r, why, sizeof why) != 0);
  CHECK(r.px == NULL && why[0]);
  unlink(path);
  snprintf(path, sizeof path, "%s/grey.png", dir);
  unlink(path);
}

int main(int argc, char **argv) {
  bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
  snprintf(dir, sizeof dir, "/tmp/test_pdf.XXXXXX");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  test_sample();
  test_nested_composites();
  test_errors();
  test_image_reduce();
  if (!quick)
    measure_big();
  rmdir(dir);
  printf("test_pdf: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
