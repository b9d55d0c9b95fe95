/* The PDF engine end to end on small documents. With arguments it
 * typesets a file: test_typeset DOC.xhtml [SHEET.css...] OUT.pdf. */
#include <png.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tpl_lib.h"
#include "ts_engine.h"

static int warnings_seen, errors_seen;
static char last_warning[512];
static void print_diag(void *user, bk_severity sev, const char *file,
                       unsigned line, unsigned col, const char *msg) {
  (void)user;
  if (sev == BK_WARNING) {
    warnings_seen++;
    snprintf(last_warning, sizeof last_warning, "%s:%u:%u: %s", file, line,
             col, msg);
  }
  if (sev == BK_ERROR)
    errors_seen++;
  fprintf(stderr, "%s:%u:%u: %s: %s\n", file, line, col,
          sev == BK_ERROR     ? "error"
          : sev == BK_WARNING ? "warning"
                              : "note",
          msg);
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  *len = fread(b, 1, (size_t)n, f);
  b[*len] = 0;
  fclose(f);
  return b;
}

/* Files by their absolute paths, as the book side's resolver gives them
 * (this one refuses nothing: the engine is under test, not the book). */
static const char *resolve_abs(void *user, const char *url, const char *base,
                               unsigned line, unsigned col) {
  (void)user, (void)base, (void)line, (void)col;
  return url;
}

static int render(const char *doc, size_t len, const char **css, size_t ncss,
                  const char *out, ts_engine_stats *st) {
  tpl_arena *a = tpl_arena_new();
  bk_reporter rep = {print_diag, NULL};
  const css_stylesheet **sheets = malloc((ncss + 1) * sizeof *sheets);
  for (size_t i = 0; i < ncss; i++)
    sheets[i] = css_parse(a, css[i], strlen(css[i]), "test.css",
                          CSS_ORIGIN_AUTHOR, &rep);
  ts_engine_input in = {.xhtml = doc,
                        .len = len,
                        .name = "doc.xhtml",
                        .sheets = sheets,
                        .nsheets = ncss,
                        .lang = "en",
                        .rep = &rep,
                        .resolve = resolve_abs,
                        .info = {.title = "Test", .author = "Octavo"}};
  int rc = ts_engine_render(a, &in, out, st);
  free(sheets);
  tpl_arena_free(a);
  return rc;
}

/* ---- checks on real output ------------------------------------------ */

static char *run(const char *cmd) {
  FILE *f = popen(cmd, "r");
  if (!f)
    return NULL;
  size_t cap = 4096, n = 0;
  char *b = malloc(cap);
  size_t k;
  while ((k = fread(b + n, 1, cap - n - 1, f)) > 0) {
    n += k;
    if (n + 1 >= cap)
      b = realloc(b, cap *= 2);
  }
  b[n] = 0;
  pclose(f);
  return b;
}

/* The text of page n (1-based) of the PDF. */
static char *page_text(const char *pdf, int n) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "pdftotext -f %d -l %d '%s' - 2>&1", n, n, pdf);
  return run(cmd);
}

static int page_count(const char *pdf) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "pdfinfo '%s' 2>&1", pdf);
  char *o = run(cmd);
  const char *p = o ? strstr(o, "Pages:") : NULL;
  int n = p ? atoi(p + 6) : -1;
  free(o);
  return n;
}

/* Which page (1-based) holds text, 0 if none. */
static int page_of(const char *pdf, const char *text) {
  int n = page_count(pdf);
  for (int i = 1; i <= n; i++) {
    char *t = page_text(pdf, i);
    bool hit = t && strstr(t, text);
    free(t);
    if (hit)
      return i;
  }
  return 0;
}

static const char *tmp_pdf = "/tmp/octavo-test-typeset.pdf";

static int typeset(const char *doc, const char *css) {
  const char *sheets[1] = {css};
  return render(doc, strlen(doc), sheets, 1, tmp_pdf, NULL);
}

#define PAGE_CSS                                                               \
  "@page { size: 300pt 300pt; margin: 50pt 40pt }\n"                           \
  "html { font-family: 'DejaVu Serif'; font-size: 10pt; line-height: 12pt }\n" \
  "p { margin: 0 }\n"

/* 200pt of text area: 16 lines of 12pt (and 8pt over). */
static char *lines_doc(const char *before, int nlines_par, const char *after) {
  size_t cap = 65536;
  char *d = malloc(cap);
  size_t n = (size_t)snprintf(
      d, cap, "<html xmlns='http://www.w3.org/1999/xhtml'><body>%s", before);
  n += (size_t)snprintf(d + n, cap - n, "<p>");
  for (int i = 0; i < nlines_par; i++)
    n += (size_t)snprintf(d + n, cap - n, "line%02d<br/>", i + 1);
  n += (size_t)snprintf(d + n, cap - n, "</p>%s</body></html>", after);
  return d;
}

static void test_pages(void) {
  /* 20 lines: 16 on the first page, 4 on the second. */
  char *d = lines_doc("", 20, "");
  CHECK(typeset(d, PAGE_CSS) == 0);
  CHECK(page_count(tmp_pdf) == 2);
  CHECK(page_of(tmp_pdf, "line16") == 1 && page_of(tmp_pdf, "line17") == 2);
  free(d);
  /* 17 lines: one would be a widow, so two go over (widows: 2). */
  d = lines_doc("", 17, "");
  CHECK(typeset(d, PAGE_CSS) == 0);
  CHECK(page_of(tmp_pdf, "line15") == 1 && page_of(tmp_pdf, "line16") == 2);
  free(d);
  /* widows: 4 */
  d = lines_doc("", 18, "");
  CHECK(typeset(d, PAGE_CSS "p { widows: 4 }") == 0);
  CHECK(page_of(tmp_pdf, "line14") == 1 && page_of(tmp_pdf, "line15") == 2);
  free(d);
  /* A heading at the foot of a page goes over with its paragraph's first
     lines (break-after: avoid in the user-agent sheet, orphans: 2). */
  d = lines_doc("<p>a<br/>b<br/>c<br/>d<br/>e<br/>f<br/>g<br/>h<br/>i<br/>"
                "j<br/>k<br/>l<br/>m<br/>n</p><h2>Heading</h2>",
                6, "");
  CHECK(typeset(d, PAGE_CSS "h2 { font-size: 10pt; line-height: 12pt; "
                            "margin: 0 }") == 0);
  CHECK(page_of(tmp_pdf, "Heading") == 2 && page_of(tmp_pdf, "line01") == 2);
  CHECK(page_of(tmp_pdf, "n\n") == 1 || page_of(tmp_pdf, "\nn") == 1);
  free(d);
  /* break-before: right leaves a blank left page, with nothing on it,
     not even the running head of its :left rule. */
  CHECK(typeset("<html xmlns='http://www.w3.org/1999/xhtml'><body>"
                "<p>one</p><div class='c'><p>two</p></div></body></html>",
                PAGE_CSS ".c { break-before: right }\n"
                         "@page :left { @top-left { content: 'HEAD' } }\n"
                         "@page :blank { @top-left { content: none } }") == 0);
  CHECK(page_count(tmp_pdf) == 3);
  char *t = page_text(tmp_pdf, 2);
  CHECK(t && strspn(t, " \n\f") == strlen(t));
  free(t);
  CHECK(page_of(tmp_pdf, "two") == 3);
}

static void test_references(void) {
  /* A table of contents: target-counter after a leader, right page
     numbers; the running head is the chapter title except where it
     starts (first-except); page labels roman then arabic. */
  const char *doc =
      "<html xmlns='http://www.w3.org/1999/xhtml'><body>"
      "<div class='front'><p class='toc'><a href='#a'>Alpha</a></p>"
      "<p class='toc'><a href='#b'>Beta</a></p></div>"
      "<div class='ch'><h1 id='a'>Alpha</h1><p>x<br/>x<br/>x<br/>x<br/>x<br/>"
      "x<br/>x<br/>x<br/>x<br/>x<br/>x<br/>x<br/>x<br/>x<br/>x<br/>x<br/>x<br/>"
      "x<br/>x</p><p>Ending (one) \\ two</p></div>"
      "<div class='ch'><h1 id='b'>Beta</h1><p>y</p></div></body></html>";
  const char *css = PAGE_CSS
      ".toc a::after { content: leader('.') target-counter(attr(href), page) "
      "}\n"
      ".front { page: front }\n"
      ".ch { break-before: page; page: body }\n"
      ".ch:first-child { counter-reset: page 1 }\n"
      "div.front + div.ch { counter-reset: page 1 }\n"
      "h1 { string-set: title content(); font-size: 10pt; margin: 0 }\n"
      "@page front { @bottom-center { content: counter(page, lower-roman) } }\n"
      "@page body { @bottom-center { content: '-' counter(page) '-' }\n"
      "  @top-center { content: string(title, first-except) } }\n";
  CHECK(typeset(doc, css) == 0);
  /* front: i; Alpha: 1-2; Beta: 3 */
  CHECK(page_count(tmp_pdf) == 4);
  char *t = page_text(tmp_pdf, 1);
  /* pdftotext puts the right-aligned numbers in a column of their own */
  CHECK(t && strstr(t, "Alpha . . .") && strstr(t, "Beta . . ."));
  CHECK(t && strstr(t, "\n1\n3\n"));
  CHECK(t && strstr(t, "i\n"));
  free(t);
  t = page_text(tmp_pdf, 2);
  CHECK(t && strstr(t, "-1-") && strstr(t, "Alpha") && strstr(t, "x"));
  free(t);
  t = page_text(tmp_pdf, 3); /* the head: Alpha, not on its first page */
  CHECK(t && strstr(t, "-2-") && strncmp(t, "Alpha", 5) == 0);
  CHECK(t && strstr(t, "Ending (one) \\ two"));
  free(t);
  t = page_text(tmp_pdf, 4);
  CHECK(t && strstr(t, "-3-") && !strstr(t, "Alpha"));
  free(t);
  char cmd[512];
  snprintf(cmd, sizeof cmd,
           "qpdf --json --json-key=pagelabels '%s' 2>&1 | tr -d ' \n'",
           tmp_pdf);
  t = run(cmd);
  CHECK(t && strstr(t, "\"/S\":\"/r\"") && strstr(t, "\"/S\":\"/D\""));
  free(t);
  snprintf(cmd, sizeof cmd, "qpdf --check '%s' 2>&1", tmp_pdf);
  t = run(cmd);
  CHECK(t && strstr(t, "No syntax or stream encoding errors") &&
        !strstr(t, "WARNING"));
  free(t);
}

/* Justified, hyphenated text reads back word for word, with its spaces
 * (real space glyphs), even in pdftotext's raw mode. */
static void test_text(void) {
  const char *words =
      "Typesetting justification requires hyphenation of extraordinarily "
      "long words, characteristically encyclopedic documentation and "
      "incomprehensibilities; the (parenthesised) and back\\slashed "
      "characters survive too.";
  char doc[2048];
  snprintf(doc, sizeof doc,
           "<html xmlns='http://www.w3.org/1999/xhtml' lang='en'><body>"
           "<p>%s</p></body></html>",
           words);
  CHECK(typeset(doc, "@page { size: 200pt 400pt; margin: 20pt }\n"
                     "p { text-align: justify; hyphens: auto; "
                     "font-family: 'DejaVu Serif'; font-size: 10pt }") == 0);
  char cmd[512];
  snprintf(cmd, sizeof cmd, "pdftotext -raw '%s' - 2>&1", tmp_pdf);
  char *t = run(cmd);
  /* join the lines: a hyphen at a line's end was added by the engine */
  size_t k = 0;
  int hyphens = 0;
  for (size_t i = 0; t && t[i]; i++) {
    if (t[i] == '-' && t[i + 1] == '\n') {
      i++;
      hyphens++;
      continue;
    }
    if (t[i] == '\f')
      continue;
    t[k++] = t[i] == '\n' ? ' ' : t[i];
  }
  while (t && k && t[k - 1] == ' ')
    k--;
  if (t)
    t[k] = 0;
  /* the source's backslash escape is one backslash */
  CHECK_STR(t, "Typesetting justification requires hyphenation of "
               "extraordinarily long words, characteristically encyclopedic "
               "documentation and incomprehensibilities; the (parenthesised) "
               "and back\\slashed characters survive too.");
  CHECK(hyphens >= 1);
  free(t);
}

/* List markers: ordinals in the list's style, hung outside the text (left
 * of the item's text edge) or set inside it. */
static void test_lists(void) {
  CHECK(typeset("<html xmlns='http://www.w3.org/1999/xhtml'><body>"
                "<ol class='r'><li>Alpha</li><li>Beta</li></ol>"
                "<ol class='i' start='4'><li>Gamma</li></ol>"
                "<ul><li>Delta</li></ul></body></html>",
                PAGE_CSS "ol.r { list-style-type: lower-roman }\n"
                         "ol.i { list-style-position: inside }\n") == 0);
  char cmd[512];
  snprintf(cmd, sizeof cmd, "pdftotext -bbox '%s' - 2>&1", tmp_pdf);
  char *t = run(cmd);
  /* xMin of a word in the bbox output */
  double x_ii = -1, x_beta = -1, x_4 = -1, x_gamma = -1, x_dot = -1,
         x_delta = -1;
  const struct {
    const char *w;
    double *x;
  } want[] = {{">ii.<", &x_ii},     {">Beta<", &x_beta},
              {">4.<", &x_4},       {">Gamma<", &x_gamma},
              {">\u2022<", &x_dot}, {">Delta<", &x_delta}};
  for (size_t i = 0; t && i < sizeof want / sizeof want[0]; i++) {
    const char *p = strstr(t, want[i].w);
    if (!p)
      continue;
    while (p > t && strncmp(p, "xMin=\"", 6))
      p--;
    *want[i].x = atof(p + 6);
  }
  /* outside: the marker ends left of the text; inside: the marker starts
     at the list's text edge, where the outside items' text starts */
  CHECK(x_ii >= 0 && x_beta > x_ii + 5);
  CHECK(x_dot >= 0 && x_delta > x_dot + 3);
  CHECK(x_4 >= 0 && x_gamma > x_4 && x_4 > x_ii && x_4 - x_beta < 1 &&
        x_beta - x_4 < 1);
  free(t);
}

/* Pathological documents and sheets set without a crash, a hang or a
 * refusal: empty paragraphs, a word of 5,000 letters, 40 nested lists,
 * pages smaller than their margins, negative margins and indents, forced
 * breaks everywhere, absurd widows, and font sizes beyond what a PDF can
 * set (clamped, with a warning). */
static void test_pathological(void) {
  static const char head[] =
      "<html xmlns='http://www.w3.org/1999/xhtml'><body><p>";
  char *word = malloc(sizeof head + 5000 + 32);
  memcpy(word, head, sizeof head - 1);
  memset(word + sizeof head - 1, 'x', 5000);
  strcpy(word + sizeof head - 1 + 5000, "</p></body></html>");
  char *lists = malloc(4096);
  strcpy(lists, "<html xmlns='http://www.w3.org/1999/xhtml'><body>");
  for (int i = 0; i < 40; i++)
    strcat(lists, "<ul><li>a");
  for (int i = 0; i < 40; i++)
    strcat(lists, "</li></ul>");
  strcat(lists, "</body></html>");
  /* (one literal each: clang warns of literals joined inside an array) */
#define XHTML_OPEN "<html xmlns='http://www.w3.org/1999/xhtml'><body>"
  static const char empty[] = XHTML_OPEN "</body></html>";
  static const char blanks[] =
      XHTML_OPEN "<p></p><p> </p><h1></h1><pre></pre></body></html>";
  static const char breaks[] = XHTML_OPEN
      "<div class='b'>1</div><div class='b'>2</div><div class='b'>3</div>"
      "</body></html>";
#undef XHTML_OPEN
  const char *docs[] = {empty, blanks, breaks, word, lists};
  static const char breaks_css[] =
      ".b { break-before: right; break-after: left } "
      "div { break-inside: avoid }";
  const char *sheets[] = {
      "p { text-align: justify; hyphens: auto }",
      "@page { size: 100pt 100pt; margin: 80pt }",
      "@page { margin: -50pt } p { margin: -100pt; text-indent: -500pt }",
      breaks_css,
      "html { font-size: 0.001pt }",
      "html { font-size: 2000pt; line-height: 0; letter-spacing: 900pt }",
      "p { widows: 1000; orphans: 1000 }"};
  for (size_t d = 0; d < sizeof docs / sizeof docs[0]; d++)
    for (size_t k = 0; k < sizeof sheets / sizeof sheets[0]; k++) {
      ts_engine_stats st = {0};
      const char *css[1] = {sheets[k]};
      int rc = render(docs[d], strlen(docs[d]), css, 1, tmp_pdf, &st);
      CHECK(rc == 0 && st.pages >= 1);
      if (rc != 0 || st.pages < 1)
        fprintf(stderr, "  document %zu, sheet %zu\n", d, k);
    }
  free(word);
  free(lists);
}

/* Images: PNG in every flavour libpng writes (8-bit RGB, RGBA, grey,
 * grey with alpha, 16-bit RGB, which libharu 2.3.0 garbles unless it is
 * normalised), placed at 96 dpi, scaled down to the measure; a file that
 * is not PNG or JPEG gives a warning and its alternative text. */
static void write_png(const char *path, unsigned w, unsigned h,
                      png_uint_32 format) {
  png_image im;
  memset(&im, 0, sizeof im);
  im.version = PNG_IMAGE_VERSION;
  im.width = w;
  im.height = h;
  im.format = format;
  size_t size = PNG_IMAGE_SIZE(im);
  unsigned char *px = malloc(size);
  for (size_t i = 0; i < size; i++)
    px[i] = (unsigned char)(i * 7);
  png_image_write_to_file(&im, path, 0, px, 0, NULL);
  free(px);
}

static void test_images(void) {
  static const struct {
    const char *name;
    png_uint_32 format;
  } kinds[] = {{"rgb", PNG_FORMAT_RGB},
               {"rgba", PNG_FORMAT_RGBA},
               {"gray", PNG_FORMAT_GRAY},
               {"ga", PNG_FORMAT_GA},
               {"rgb16", PNG_FORMAT_RGB | PNG_FORMAT_FLAG_LINEAR}};
  char doc[4096];
  size_t n = (size_t)snprintf(
      doc, sizeof doc, "<html xmlns='http://www.w3.org/1999/xhtml'><body>");
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    char path[96];
    snprintf(path, sizeof path, "/tmp/octavo-test-%s.png", kinds[i].name);
    write_png(path, 96, 48, kinds[i].format);
    n += (size_t)snprintf(doc + n, sizeof doc - n,
                          "<p><img src='%s' alt='%s'/></p>", path,
                          kinds[i].name);
  }
  /* a wide one, scaled down to the 220pt measure */
  write_png("/tmp/octavo-test-wide.png", 960, 96, PNG_FORMAT_RGB);
  FILE *f = fopen("/tmp/octavo-test-fig.svg", "w");
  if (f) {
    fputs("<svg xmlns='http://www.w3.org/2000/svg'/>", f);
    fclose(f);
  }
  snprintf(doc + n, sizeof doc - n,
           "<p><img src='/tmp/octavo-test-wide.png' alt='wide'/></p>"
           "<p><img src='/tmp/octavo-test-fig.svg' alt='Vector art'/></p>"
           "</body></html>");
  int before = warnings_seen;
  CHECK(typeset(doc, PAGE_CSS "@page { size: 300pt 600pt }") == 0);
  CHECK(warnings_seen == before + 1); /* the SVG */
  char cmd[512];
  snprintf(cmd, sizeof cmd, "pdfimages -list '%s' 2>&1", tmp_pdf);
  char *t = run(cmd);
  /* six images, the 16-bit one written with 8 bits a channel, at 72 pt an
     inch of 96 pixels (96 ppi) but the wide one (960 px in 220 pt: 314) */
  int lines = 0, bpc16 = 0, ppi96 = 0, wide = 0;
  for (char *l = t; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "") {
    unsigned page, num, w, h, comp, bpc, xppi;
    char type[16], color[16];
    if (sscanf(l, "%u %u %15s %u %u %15s %u %u %*s %*s %*u %*u %u", &page, &num,
               type, &w, &h, color, &comp, &bpc, &xppi) == 9 &&
        strcmp(type, "image") == 0) { /* (alpha comes as "smask" rows) */
      lines++;
      bpc16 += bpc == 16;
      ppi96 += w == 96 && xppi == 96;
      wide += w == 960 && xppi > 300 && xppi < 330;
    }
  }
  CHECK(lines == 6);
  CHECK(bpc16 == 0);
  CHECK(ppi96 == 5);
  CHECK(wide == 1);
  free(t);
  snprintf(cmd, sizeof cmd, "pdftotext '%s' - 2>&1", tmp_pdf);
  t = run(cmd);
  CHECK(t && strstr(t, "[Vector art]"));
  free(t);
  /* a missing image is an error (publish then keeps the old output) */
  int errs = errors_seen;
  typeset("<html xmlns='http://www.w3.org/1999/xhtml'><body><p><img "
          "src='/nonexistent/x.png' alt='x'/></p></body></html>",
          PAGE_CSS);
  CHECK(errors_seen == errs + 1);
}

int main(int argc, char **argv) {
  if (argc >= 3) {
    size_t len;
    char *doc = slurp(argv[1], &len);
    if (!doc) {
      perror(argv[1]);
      return 1;
    }
    const char *css[16];
    size_t ncss = 0;
    for (int i = 2; i < argc - 1 && ncss < 16; i++) {
      size_t l;
      css[ncss] = slurp(argv[i], &l);
      if (!css[ncss]) {
        perror(argv[i]);
        return 1;
      }
      ncss++;
    }
    ts_engine_stats st = {0};
    int rc = render(doc, len, css, ncss, argv[argc - 1], &st);
    fprintf(stderr,
            "%zu pages, %zu lines, %d passes; read %.3f s, layout %.3f s, "
            "pages %.3f s, write %.3f s\n",
            st.pages, st.lines, st.passes, st.t_read, st.t_layout, st.t_pages,
            st.t_write);
    return rc ? 1 : 0;
  }
  test_pages();
  test_references();
  test_text();
  test_lists();
  test_pathological();
  test_images();
  /* a family that is not installed: named at its place in the sheet */
  CHECK(typeset("<html xmlns='http://www.w3.org/1999/xhtml'><body><p>x</p>"
                "</body></html>",
                "p {\n  font-family: 'No Such Face';\n}") == 0);
  CHECK_STR(last_warning, "test.css:2:3: font family 'No Such Face' is not "
                          "installed as TrueType; another is used");
  remove(tmp_pdf);
  printf("typeset: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
