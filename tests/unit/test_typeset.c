/* The PDF engine end to end on small documents. With arguments it
 * typesets a file: test_typeset DOC.xhtml [SHEET.css...] OUT.pdf. */
#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* jpeglib.h needs stdio.h and stddef.h first */
#include <jpeglib.h>

#include "check.h"
#include "ts_engine.h"

static int warnings_seen, errors_seen;
static char last_warning[512];
static void print_diag(void *user, oc_severity sev, const char *file,
                       unsigned line, unsigned col, const char *msg) {
  (void)user;
  if (sev == OC_WARNING) {
    warnings_seen++;
    snprintf(last_warning, sizeof last_warning, "%s:%u:%u: %s", file, line, col,
             msg);
  }
  if (sev == OC_ERROR)
    errors_seen++;
  fprintf(stderr, "%s:%u:%u: %s: %s\n", file, line, col,
          sev == OC_ERROR     ? "error"
          : sev == OC_WARNING ? "warning"
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
  oc_arena *a = oc_arena_new();
  oc_reporter rep = {print_diag, NULL};
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
  oc_arena_free(a);
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

/* run(cmd) for a command that reads the PDF at pdf, remembered by the
 * command and the file's bytes: the checks ask pdftotext for the same page
 * of the same file many times (page_of reads every page until it finds
 * its text), each a process, which made this test a minute long. */
#define RUN_CACHE 256
static struct {
  char *cmd, *out;
  uint64_t hash;
  size_t len;
} run_cache[RUN_CACHE];
static size_t run_cache_next;

static char *run_pdf(const char *pdf, const char *cmd) {
  size_t len;
  char *bytes = slurp(pdf, &len);
  if (!bytes)
    return run(cmd);
  uint64_t h = 1469598103934665603u;
  for (size_t i = 0; i < len; i++)
    h = (h ^ (unsigned char)bytes[i]) * 1099511628211u;
  free(bytes);
  for (size_t i = 0; i < RUN_CACHE; i++)
    if (run_cache[i].cmd && run_cache[i].hash == h && run_cache[i].len == len &&
        strcmp(run_cache[i].cmd, cmd) == 0)
      return strdup(run_cache[i].out);
  char *out = run(cmd);
  if (!out)
    return NULL;
  size_t k = run_cache_next++ % RUN_CACHE;
  free(run_cache[k].cmd);
  free(run_cache[k].out);
  run_cache[k].cmd = strdup(cmd);
  run_cache[k].out = strdup(out);
  run_cache[k].hash = h;
  run_cache[k].len = len;
  return out;
}

/* The text of page n (1-based) of the PDF. */
static char *page_text(const char *pdf, int n) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "pdftotext -f %d -l %d '%s' - 2>&1", n, n, pdf);
  return run_pdf(pdf, cmd);
}

static int page_count(const char *pdf) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "pdfinfo '%s' 2>&1", pdf);
  char *o = run_pdf(pdf, cmd);
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

/* Per process: several builds' tests may run at once. */
static char tmp_pdf[64];

static char *pdf_text_all(void) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "pdftotext '%s' - 2>&1", tmp_pdf);
  return run_pdf(tmp_pdf, cmd);
}

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
/* The text of tmp_pdf (pdftotext -raw), its lines joined by a space, or
 * by nothing after a character of drop (which goes) or of keep (which
 * stays): what the engine broke without a space. *joins counts those. */
static char *joined_lines(const char *drop, const char *keep, int *joins) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "pdftotext -raw '%s' - 2>&1", tmp_pdf);
  char *t = run(cmd);
  size_t k = 0;
  for (size_t i = 0; t && t[i]; i++) {
    if (t[i] == '\f')
      continue;
    /* a newline with a line after it */
    bool nl = t[i] == '\n' && t[i + 1] && t[i + 1] != '\f';
    if (*drop && strchr(drop, t[i]) && t[i + 1] == '\n' && t[i + 2] &&
        t[i + 2] != '\f') {
      i++;
      (*joins)++;
      continue;
    }
    if (nl && k && *keep && strchr(keep, t[k - 1])) {
      (*joins)++;
      continue;
    }
    t[k++] = t[i] == '\n' ? ' ' : t[i];
  }
  while (t && k && t[k - 1] == ' ')
    k--;
  if (t)
    t[k] = 0;
  return t;
}

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
  /* a hyphen at a line's end was added by the engine */
  int hyphens = 0;
  char *t = joined_lines("-", "", &hyphens);
  /* the source's backslash escape is one backslash */
  CHECK_STR(t, "Typesetting justification requires hyphenation of "
               "extraordinarily long words, characteristically encyclopedic "
               "documentation and incomprehensibilities; the (parenthesised) "
               "and back\\slashed characters survive too.");
  CHECK(hyphens >= 1);
  free(t);
}

/* Inline code and URLs break after / . - _ ? & = (not after a leading
 * one, nor before the last character), with no hyphen added, where a line
 * needs it; pdftotext's lines joined back give the source exactly. */
static void test_url_breaks(void) {
  char doc[2048];
  snprintf(doc, sizeof doc,
           "<html xmlns='http://www.w3.org/1999/xhtml' lang='en'><body>"
           "<p>Open the folder <code>my-first-book/Output/web/</code> then "
           "<code>runtime/typeset/ts_linebreak.c</code> or "
           "<code>/usr/share/doc</code> and see "
           "https://example.com/books/index.html?lang=en&amp;x=1 for "
           "more.</p></body></html>");
  CHECK(typeset(doc, "@page { size: 150pt 400pt; margin: 20pt }\n"
                     "p { text-align: justify; hyphens: auto; "
                     "font-family: 'DejaVu Serif'; font-size: 10pt }\n"
                     "code { font-family: 'DejaVu Sans Mono' }") == 0);
  /* not before the last character, nor after a leading slash */
  char *lines = page_text(tmp_pdf, 1);
  CHECK(lines && !strstr(lines, ".\nc ") && !strstr(lines, "/\nusr"));
  free(lines);
  int url_ends = 0;
  char *t = joined_lines("", "/.-_?&=", &url_ends);
  CHECK_STR(t, "Open the folder my-first-book/Output/web/ then "
               "runtime/typeset/ts_linebreak.c or /usr/share/doc and see "
               "https://example.com/books/index.html?lang=en&x=1 for more.");
  CHECK(url_ends >= 2);
  free(t);
}

/* Chinese in the engine alone (no ICU: its own rules, ts_cjk.c): lines
 * break between characters with no space added, never before closing
 * punctuation nor after an opening bracket, and white-space: nowrap
 * holds; Korean (lang ko) keeps Han words whole, breaking at spaces. The
 * characters come from the fallback face (fonts-droid-fallback, which has
 * Han but almost no Hangul: Hangul itself breaks at spaces as Latin does,
 * by test_cjk.c's classes). */
static void test_cjk_text(void) {
  const char *zh = "排版的规矩很多：句号和逗号不能出现在一行的开头，"
                   "左括号不能留在一行的末尾（这就是避头尾）。"
                   "汉字之间随处可以换行，标点符号却要小心处理。";
  const char *nw = "这一段不可分割";
  /* Korean in Han (hanja): words kept whole, broken at spaces only */
  const char *ko = "大韓民國 憲法 第一條 大韓民國 民主共和國 主權 國民 "
                   "權力 國民 大韓民國 領土 韓半島 附屬島嶼";
  char doc[4096];
  snprintf(doc, sizeof doc,
           "<html xmlns='http://www.w3.org/1999/xhtml' lang='zh'><body>"
           "<p>%s</p><p>前面的文字<span class='nw'>%s</span>后面的文字"
           "前面的文字</p><p lang='ko'>%s</p></body></html>",
           zh, nw, ko);
  CHECK(typeset(doc, "@page { size: 200pt 600pt; margin: 20pt }\n"
                     "p { text-align: justify; font-family: 'DejaVu Serif'; "
                     "font-size: 10pt; margin: 0 0 10pt 0 }\n"
                     ".nw { white-space: nowrap }") == 0);
  char *t = page_text(tmp_pdf, 1);
  CHECK(t != NULL);
  if (!t)
    return;
  int lines = 0;
  for (const char *l = t; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : "") {
    lines++;
    static const char *no_start[] = {"。", "，", "：", "）", "、"};
    for (size_t k = 0; k < sizeof no_start / sizeof *no_start; k++)
      CHECK(strncmp(l, no_start[k], strlen(no_start[k])) != 0);
    const char *e = strchr(l, '\n');
    CHECK(!e || e - l < 3 || strncmp(e - 3, "（", 3) != 0);
  }
  CHECK(lines >= 7);
  CHECK(strstr(t, nw) != NULL);
  /* the Korean paragraph spans lines, and comes back whole once its line
     ends are spaces */
  CHECK(strstr(t, ko) == NULL);
  size_t len = strlen(t);
  char *sp = malloc(len + 1);
  for (size_t i = 0; i <= len; i++)
    sp[i] = t[i] == '\n' ? ' ' : t[i];
  CHECK(strstr(sp, ko) != NULL);
  free(sp);
  /* the Chinese one once its line ends go: no space added */
  size_t k = 0;
  for (size_t i = 0; t[i]; i++)
    if (t[i] != '\n' && t[i] != '\f')
      t[k++] = t[i];
  t[k] = 0;
  CHECK(strstr(t, zh) != NULL);
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

/* A PNG through libpng's full writer, for the flavours its simplified one
   cannot make: palette (4 bits an index) and Adam7-interlaced files. The
   left half is red, the right half blue. */
static void write_png_full(const char *path, int color_type, int depth,
                           int interlace) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return;
  png_structp p =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png_create_info_struct(p);
  if (setjmp(png_jmpbuf(p))) {
    png_destroy_write_struct(&p, &info);
    fclose(f);
    return;
  }
  enum { W = 64, H = 32 };
  png_init_io(p, f);
  png_set_IHDR(p, info, W, H, depth, color_type, interlace,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  if (color_type == PNG_COLOR_TYPE_PALETTE) {
    png_color pal[2] = {{255, 0, 0}, {0, 0, 255}};
    png_set_PLTE(p, info, pal, 2);
  }
  png_write_info(p, info);
  if (depth == 16)
    png_set_swap(p); /* rows below are written little-endian */
  int passes = png_set_interlace_handling(p);
  unsigned char row[W * 8];
  for (int pass = 0; pass < passes; pass++)
    for (int y = 0; y < H; y++) {
      memset(row, 0, sizeof row);
      for (int x = 0; x < W; x++) {
        bool left = x < W / 2;
        if (color_type == PNG_COLOR_TYPE_PALETTE) {
          /* 4-bit indices, two a byte, high nibble first */
          row[x / 2] |= (unsigned char)((left ? 0 : 1) << (x % 2 ? 0 : 4));
        } else if (depth == 16) {
          uint16_t *r = (uint16_t *)(void *)row + x * 3;
          r[0] = left ? 65535 : 0;
          r[1] = 0;
          r[2] = left ? 0 : 65535;
        } else {
          row[x * 3] = left ? 255 : 0;
          row[x * 3 + 2] = left ? 0 : 255;
        }
      }
      png_write_row(p, row);
    }
  png_write_end(p, info);
  png_destroy_write_struct(&p, &info);
  fclose(f);
}

/* A JPEG of the given components (1: grey, 4: CMYK) through libjpeg: the
   left half dark, the right half light (grey), or red and blue (CMYK). */
static void write_jpeg(const char *path, int comps) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return;
  struct jpeg_compress_struct cj;
  struct jpeg_error_mgr jerr;
  cj.err = jpeg_std_error(&jerr);
  jpeg_create_compress(&cj);
  jpeg_stdio_dest(&cj, f);
  cj.image_width = 64;
  cj.image_height = 32;
  cj.input_components = comps;
  cj.in_color_space = comps == 1 ? JCS_GRAYSCALE : JCS_CMYK;
  jpeg_set_defaults(&cj);
  jpeg_set_quality(&cj, 90, TRUE);
  jpeg_start_compress(&cj, TRUE);
  unsigned char row[64 * 4];
  while (cj.next_scanline < cj.image_height) {
    for (int x = 0; x < 64; x++) {
      bool left = x < 32;
      if (comps == 1) {
        row[x] = left ? 40 : 220;
      } else {
        /* C M Y K stored inverted, as Photoshop and ImageMagick write them
           (libjpeg marks the file with Adobe's APP14, which tells readers
           so) */
        unsigned char *px = row + x * 4;
        px[0] = left ? 255 : 0;
        px[1] = 0;
        px[2] = left ? 0 : 255;
        px[3] = 255;
      }
    }
    JSAMPROW rows[1] = {row};
    jpeg_write_scanlines(&cj, rows, 1);
  }
  jpeg_finish_compress(&cj);
  jpeg_destroy_compress(&cj);
  fclose(f);
}

/* The colour of the rendered page 1 at (x, y) pt, from pdftoppm at 72 dpi
   (as "r g b"); false when it cannot be read. */
static bool pixel_at(int x, int y, int *r, int *g, int *b) {
  char cmd[512];
  snprintf(cmd, sizeof cmd,
           "pdftoppm -r 72 -x %d -y %d -W 1 -H 1 -f 1 -l 1 '%s' | tail -c 3 | "
           "od -An -tu1",
           x, y, tmp_pdf);
  char *o = run(cmd);
  bool ok = o && sscanf(o, "%d %d %d", r, g, b) == 3;
  free(o);
  return ok;
}

static void test_image_kinds(void) {
  /* Each image alone on a page of its size: its left half at x 10, its
     right half at x 54, y 16. */
  static const struct {
    const char *file;
    const char *color;          /* pdfimages' colour space */
    int lr, lg, lb, rr, rg, rb; /* expected left and right colours */
  } kinds[] = {
      {"/tmp/octavo-test-pal.png", "rgb", 255, 0, 0, 0, 0, 255},
      {"/tmp/octavo-test-adam7.png", "rgb", 255, 0, 0, 0, 0, 255},
      {"/tmp/octavo-test-adam7-16.png", "rgb", 255, 0, 0, 0, 0, 255},
      {"/tmp/octavo-test-grey.jpg", "gray", 40, 40, 40, 220, 220, 220},
      /* cyan and magenta in full make poppler's process blue */
      {"/tmp/octavo-test-cmyk.jpg", "cmyk", 255, 0, 0, 46, 49, 145},
  };
  write_png_full(kinds[0].file, PNG_COLOR_TYPE_PALETTE, 4, PNG_INTERLACE_NONE);
  write_png_full(kinds[1].file, PNG_COLOR_TYPE_RGB, 8, PNG_INTERLACE_ADAM7);
  write_png_full(kinds[2].file, PNG_COLOR_TYPE_RGB, 16, PNG_INTERLACE_ADAM7);
  write_jpeg(kinds[3].file, 1);
  write_jpeg(kinds[4].file, 4);
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    char doc[512];
    snprintf(doc, sizeof doc,
             "<html xmlns='http://www.w3.org/1999/xhtml'><body><p><img "
             "src='%s' alt='x'/></p></body></html>",
             kinds[i].file);
    /* 64 x 32 px at 96 dpi: 48 x 24 pt, on a page just that size */
    CHECK(typeset(doc, "@page { size: 48pt 24pt; margin: 0 }\n"
                       "p { margin: 0; line-height: 0 }") == 0);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "pdfimages -list '%s' 2>&1 | tail -n +3",
             tmp_pdf);
    char *t = run(cmd);
    char color[16] = "";
    unsigned w = 0, h = 0, bpc = 0;
    CHECK(t &&
          sscanf(t, "%*u %*u %*s %u %u %15s %*u %u", &w, &h, color, &bpc) == 4);
    free(t);
    bool kind_ok =
        w == 64 && h == 32 && bpc == 8 && strcmp(color, kinds[i].color) == 0;
    if (!kind_ok)
      fprintf(stderr, "%s: %ux%u %s %u bpc\n", kinds[i].file, w, h, color, bpc);
    CHECK(kind_ok);
    int r, g, b;
    bool left = pixel_at(8, 12, &r, &g, &b) && abs(r - kinds[i].lr) < 40 &&
                abs(g - kinds[i].lg) < 40 && abs(b - kinds[i].lb) < 40;
    if (!left)
      fprintf(stderr, "%s: left %d %d %d\n", kinds[i].file, r, g, b);
    CHECK(left);
    bool right = pixel_at(40, 12, &r, &g, &b) && abs(r - kinds[i].rr) < 40 &&
                 abs(g - kinds[i].rg) < 40 && abs(b - kinds[i].rb) < 40;
    if (!right)
      fprintf(stderr, "%s: right %d %d %d\n", kinds[i].file, r, g, b);
    CHECK(right);
    remove(kinds[i].file);
  }
}

static bool words_within(const char *pdf, int n, double x0, double x1);

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
  /* an SVG of 40 x 20 CSS pixels, drawn at 3 pixels to each */
  FILE *f = fopen("/tmp/octavo-test-fig.svg", "w");
  if (f) {
    fputs("<svg xmlns='http://www.w3.org/2000/svg' width='40' height='20'>"
          "<rect width='20' height='20' fill='#c00'/></svg>",
          f);
    fclose(f);
  }
  /* the classic 1 x 1 transparent GIF, read by gdk-pixbuf */
  static const unsigned char gif[] = {
      0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80,
      0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x21, 0xF9, 0x04,
      0x01, 0x00, 0x00, 0x00, 0x00, 0x2C, 0x00, 0x00, 0x00, 0x00, 0x01,
      0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B};
  if ((f = fopen("/tmp/octavo-test-dot.gif", "wb"))) {
    fwrite(gif, 1, sizeof gif, f);
    fclose(f);
  }
  /* a WebP, which nothing here reads */
  if ((f = fopen("/tmp/octavo-test-art.webp", "wb"))) {
    fputs("RIFF\x10\0\0\0WEBPVP8 ", f);
    fclose(f);
  }
  snprintf(doc + n, sizeof doc - n,
           "<p><img src='/tmp/octavo-test-wide.png' alt='wide'/></p>"
           "<p><img src='/tmp/octavo-test-fig.svg' alt='vector'/></p>"
           "<p><img src='/tmp/octavo-test-dot.gif' alt='dot'/></p>"
           "<p><img src='/tmp/octavo-test-art.webp' alt='Raster art'/></p>"
           "</body></html>");
  int before = warnings_seen;
  CHECK(typeset(doc, PAGE_CSS "@page { size: 300pt 600pt }") == 0);
  CHECK(warnings_seen == before + 1); /* the WebP */
  char cmd[512];
  snprintf(cmd, sizeof cmd, "pdfimages -list '%s' 2>&1", tmp_pdf);
  char *t = run(cmd);
  /* six images, the 16-bit one written with 8 bits a channel, at 72 pt an
     inch of 96 pixels (96 ppi) but the wide one (960 px in 220 pt: 314) */
  int lines = 0, bpc16 = 0, ppi96 = 0, wide = 0, svg = 0, gifs = 0;
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
      svg += w == 120 && h == 60 && xppi == 288;
      gifs += w == 1 && h == 1 && xppi == 96;
    }
  }
  CHECK(lines == 8);
  CHECK(svg == 1);
  CHECK(gifs == 1);
  CHECK(bpc16 == 0);
  CHECK(ppi96 == 5);
  CHECK(wide == 1);
  free(t);
  snprintf(cmd, sizeof cmd, "pdftotext '%s' - 2>&1", tmp_pdf);
  t = run(cmd);
  CHECK(t && strstr(t, "[Raster art]") && !strstr(t, "[vector]") &&
        !strstr(t, "[dot]"));
  free(t);
  /* max-width caps an image (96 px in 48 pt: 144 ppi) and a block (its
     words stay within 40 + 60 pt) */
  CHECK(typeset("<html xmlns='http://www.w3.org/1999/xhtml'><body><p><img "
                "src='/tmp/octavo-test-rgb.png' alt='x'/></p><div class='n'>"
                "narrow words in a box that max-width keeps narrow</div>"
                "</body></html>",
                PAGE_CSS
                "img { max-width: 48pt } .n { max-width: 60pt }") == 0);
  snprintf(cmd, sizeof cmd, "pdfimages -list '%s' 2>&1 | tail -n +3", tmp_pdf);
  t = run(cmd);
  unsigned xppi = 0;
  CHECK(t &&
        sscanf(t, "%*u %*u %*s %*u %*u %*s %*u %*u %*s %*s %*u %*u %u",
               &xppi) == 1 &&
        xppi == 144);
  free(t);
  CHECK(words_within(tmp_pdf, 1, 40, 100));
  /* a missing image is an error (publish then keeps the old output) */
  int errs = errors_seen;
  typeset("<html xmlns='http://www.w3.org/1999/xhtml'><body><p><img "
          "src='/nonexistent/x.png' alt='x'/></p></body></html>",
          PAGE_CSS);
  CHECK(errors_seen == errs + 1);
}

/* ---- tables ---------------------------------------------------------- */

/* A word's box on page n, as pdftotext -bbox gives it: the k-th (0-based)
   occurrence of the exact word; false when there is none. */
typedef struct wbox {
  double x0, y0, x1, y1;
} wbox;

static bool word_box(const char *pdf, int n, const char *word, int k,
                     wbox *out) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "pdftotext -bbox -f %d -l %d '%s' - 2>&1", n, n,
           pdf);
  char *o = run_pdf(pdf, cmd);
  bool found = false;
  char want[128];
  snprintf(want, sizeof want, ">%s</word>", word);
  for (const char *p = o; p && (p = strstr(p, "<word ")); p++) {
    const char *end = strstr(p, "</word>");
    if (!end)
      break;
    const char *w = strstr(p, ">");
    if (strncmp(w, want, strlen(want)) != 0 || k-- > 0)
      continue;
    found =
        sscanf(p, "<word xMin=\"%lf\" yMin=\"%lf\" xMax=\"%lf\" yMax=\"%lf\"",
               &out->x0, &out->y0, &out->x1, &out->y1) == 4;
    break;
  }
  free(o);
  return found;
}

/* A line holding a few Han characters, set in a fallback face whose
 * ascent and descent are far apart (Noto CJK: 1.16 em up), keeps the
 * baseline grid: lines widen by ink, not by a face's metrics. */
static void test_mixed_script_grid(void) {
  CHECK(typeset("<html xmlns='http://www.w3.org/1999/xhtml' lang='en'><body>"
                "<p>Alpha<br/>Beta \xe6\xbc\xa2\xe5\xad\x97<br/>Gamma<br/>"
                "Delta</p></body></html>",
                "@page { size: 200pt 400pt; margin: 20pt }\n"
                "p { font-family: 'DejaVu Serif'; font-size: 10pt; "
                "line-height: 14pt }") == 0);
  static const char *const words[] = {"Alpha", "Beta", "Gamma", "Delta"};
  wbox b[4];
  bool all = true;
  for (int i = 0; i < 4; i++)
    all &= word_box(tmp_pdf, 1, words[i], 0, &b[i]);
  CHECK(all);
  if (all)
    for (int i = 1; i < 4; i++) {
      double pitch = b[i].y1 - b[i - 1].y1;
      if (pitch < 13.9 || pitch > 14.1)
        printf("line %d: pitch %.2f pt, not 14\n", i + 1, pitch);
      CHECK(pitch > 13.9 && pitch < 14.1);
    }
}

/* Every word of page n inside x0..x1. */
static bool words_within(const char *pdf, int n, double x0, double x1) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "pdftotext -bbox -f %d -l %d '%s' - 2>&1", n, n,
           pdf);
  char *o = run_pdf(pdf, cmd);
  bool ok = o != NULL;
  int words = 0;
  for (const char *p = o; p && (p = strstr(p, "<word ")); p++) {
    wbox b;
    if (sscanf(p, "<word xMin=\"%lf\" yMin=\"%lf\" xMax=\"%lf\" yMax=\"%lf\"",
               &b.x0, &b.y0, &b.x1, &b.y1) != 4)
      continue;
    words++;
    if (b.x0 < x0 - 0.5 || b.x1 > x1 + 0.5) {
      fprintf(stderr, "word at %.2f..%.2f outside %.2f..%.2f\n", b.x0, b.x1, x0,
              x1);
      ok = false;
    }
  }
  free(o);
  return ok && words > 0;
}

#define TABLE_CSS                                                              \
  PAGE_CSS                                                                     \
  "table { border-collapse: collapse; border-top: 1pt solid black;"            \
  " border-bottom: 1pt solid black }\n"                                        \
  "thead { border-bottom: .5pt solid black }\n"                                \
  "th, td { padding: 2pt 4pt; text-align: left; vertical-align: top }\n"

/* A document of one table: head (may be ""), n rows of the given cells
   (printf format with the row number as %d, used once a cell), after. */
static char *table_doc(const char *head, int nrows, const char *row) {
  size_t cap = 1 << 18;
  char *d = malloc(cap);
  size_t n = (size_t)snprintf(d, cap,
                              "<html xmlns='http://www.w3.org/1999/xhtml'>"
                              "<body><p>Before</p><table>%s<tbody>",
                              head);
  for (int i = 0; i < nrows; i++) {
    n += (size_t)snprintf(d + n, cap - n, "<tr>");
    n += (size_t)snprintf(d + n, cap - n, row, i + 1, i + 1, i + 1);
    n += (size_t)snprintf(d + n, cap - n, "</tr>");
  }
  snprintf(d + n, cap - n, "</tbody></table><p>After</p></body></html>");
  return d;
}

/* Column widths, alignment, headers repeated across pages, rows split,
   empty tables. */
static void test_tables(void) {
  /* A narrow column beside a wide one: the narrow one's words whole, the
     columns lined up. */
  char *d = table_doc(
      "", 3,
      "<td>r%dNarrow</td><td>wide%d text that runs on and on, past the "
      "end of a single line of this page, so it must wrap to another</td>"
      "<td>c%d</td>");
  CHECK(typeset(d, TABLE_CSS) == 0);
  free(d);
  wbox a, b, w1, w3;
  CHECK(word_box(tmp_pdf, 1, "r1Narrow", 0, &a));
  CHECK(word_box(tmp_pdf, 1, "r3Narrow", 0, &b));
  CHECK(fabs(a.x0 - b.x0) < 0.01);
  CHECK(word_box(tmp_pdf, 1, "wide1", 0, &w1));
  CHECK(word_box(tmp_pdf, 1, "wide3", 0, &w3));
  CHECK(fabs(w1.x0 - w3.x0) < 0.01 && w1.x0 > a.x1);
  CHECK(word_box(tmp_pdf, 1, "c1", 0, &a) && word_box(tmp_pdf, 1, "c3", 0, &b));
  CHECK(fabs(a.x0 - b.x0) < 0.01 && a.x0 > w1.x1);
  /* the wide column wrapped (two lines or more), within the page */
  CHECK(word_box(tmp_pdf, 1, "another", 0, &b) && b.y0 > w1.y0 + 5);
  CHECK(words_within(tmp_pdf, 1, 40, 260));

  /* Alignment from the Markdown: right edges equal, centres equal. */
  d = table_doc("<thead><tr><th style='text-align: right'>Num</th>"
                "<th style='text-align: center'>Mid</th><th>L</th></tr>"
                "</thead>",
                3,
                "<td style=\"text-align: right\">%d000</td>"
                "<td align='center'>m%d</td><td>left%d words</td>");
  CHECK(typeset(d, TABLE_CSS) == 0);
  free(d);
  wbox n1, n3, m1, m3, hn, hm;
  CHECK(word_box(tmp_pdf, 1, "1000", 0, &n1) &&
        word_box(tmp_pdf, 1, "3000", 0, &n3) &&
        word_box(tmp_pdf, 1, "Num", 0, &hn));
  CHECK(fabs(n1.x1 - n3.x1) < 0.5 && fabs(n1.x1 - hn.x1) < 0.5);
  CHECK(word_box(tmp_pdf, 1, "m1", 0, &m1) &&
        word_box(tmp_pdf, 1, "m3", 0, &m3) &&
        word_box(tmp_pdf, 1, "Mid", 0, &hm));
  CHECK(fabs((m1.x0 + m1.x1) - (m3.x0 + m3.x1)) < 1.0);
  CHECK(fabs((m1.x0 + m1.x1) - (hm.x0 + hm.x1)) < 1.0);
  /* the header's bold and centred: Mid wider than m1 is centred on it */
  CHECK(hm.x0 < m1.x0 && hm.x1 > m1.x1);

  /* A table over three pages: its header at the top of each. */
  d = table_doc("<thead><tr><th>HeadA</th><th>HeadB</th></tr></thead>", 40,
                "<td>row%02d</td><td>cell %d</td>");
  /* the last cell is unused: a third %d is given, none read */
  CHECK(typeset(d, TABLE_CSS) == 0);
  free(d);
  int np = page_count(tmp_pdf);
  CHECK(np >= 3);
  for (int p = 1; p <= np; p++) {
    char *t = page_text(tmp_pdf, p);
    const char *h = t ? strstr(t, "HeadA") : NULL;
    const char *r = t ? strstr(t, "row") : NULL;
    bool has_rows = r != NULL;
    if (has_rows) {
      CHECK(h != NULL && h < r);
      /* once a page */
      CHECK(h && !strstr(h + 1, "HeadA"));
    }
    if (p > 1 && has_rows)
      CHECK(t && strncmp(t, "HeadA", 5) == 0);
    free(t);
  }
  CHECK(page_of(tmp_pdf, "row01") == 1 && page_of(tmp_pdf, "row40") >= 3);
  /* rows whole, none lost or doubled */
  {
    char *all = pdf_text_all();
    int found = 0;
    for (int i = 1; i <= 40; i++) {
      char w[16];
      snprintf(w, sizeof w, "row%02d", i);
      const char *at = all ? strstr(all, w) : NULL;
      found += at && !strstr(at + 1, w);
    }
    CHECK(found == 40);
    free(all);
  }

  /* A row taller than a page is split at its lines. */
  {
    char cell[4096];
    size_t n = (size_t)snprintf(cell, sizeof cell, "<td>tall");
    for (int i = 1; i <= 40; i++)
      n += (size_t)snprintf(cell + n, sizeof cell - n, "<br/>t%02d", i);
    snprintf(cell + n, sizeof cell - n, "</td><td>side%%d</td>");
    d = table_doc("<thead><tr><th>H1</th><th>H2</th></tr></thead>", 1, cell);
    CHECK(typeset(d, TABLE_CSS) == 0);
    free(d);
    CHECK(page_count(tmp_pdf) >= 3);
    CHECK(page_of(tmp_pdf, "t01") == 1);
    CHECK(page_of(tmp_pdf, "t40") >= 3);
    /* every line once, in order */
    char *all = pdf_text_all();
    const char *at = all;
    for (int i = 1; at && i <= 40; i++) {
      char w[8];
      snprintf(w, sizeof w, "t%02d", i);
      at = strstr(at, w);
    }
    CHECK(at != NULL);
    CHECK(all && !strstr(strstr(all, "t01") + 1, "t01"));
    free(all);
  }

  /* Twelve columns of long words: shrunk, words broken, nothing outside
     the measure (40pt to 260pt). */
  {
    char row[2048];
    size_t n = 0;
    for (int i = 0; i < 12; i++)
      n += (size_t)snprintf(row + n, sizeof row - n,
                            "<td>Incomprehensibilities%s</td>",
                            i == 0 ? "%d" : "");
    d = table_doc("", 2, row);
    CHECK(typeset(d, TABLE_CSS) == 0);
    free(d);
    CHECK(words_within(tmp_pdf, 1, 40, 260));
  }

  /* An empty table, one of a header alone: no crash, the text around. */
  CHECK(typeset("<html xmlns='http://www.w3.org/1999/xhtml'><body><p>Before"
                "</p><table></table><table><tbody></tbody></table><p>After"
                "</p></body></html>",
                TABLE_CSS) == 0);
  CHECK(page_of(tmp_pdf, "After") == 1);
  d = table_doc("<thead><tr><th>OnlyHead</th><th>Two</th></tr></thead>", 0, "");
  CHECK(typeset(d, TABLE_CSS) == 0);
  free(d);
  CHECK(page_of(tmp_pdf, "OnlyHead") == 1 && page_of(tmp_pdf, "After") == 1);

}

/* Cells spanning columns and rows, and tables inside cells. */
static void test_table_spans(void) {
  /* colspan: the spanning cell starts at the first column, the cells
     after it in their own columns. */
  char *d = table_doc("<thead><tr><th>Ca</th><th>Cb</th><th>Cc</th></tr></thead>", 2,
                "<td colspan='2'>span%d over two columns</td><td>z%d</td>");
  CHECK(typeset(d, TABLE_CSS) == 0);
  free(d);
  wbox ca, cc, s1, z1;
  CHECK(word_box(tmp_pdf, 1, "Ca", 0, &ca) &&
        word_box(tmp_pdf, 1, "Cc", 0, &cc) &&
        word_box(tmp_pdf, 1, "span1", 0, &s1) &&
        word_box(tmp_pdf, 1, "z1", 0, &z1));
  CHECK(fabs(ca.x0 - s1.x0) < 0.01 && fabs(cc.x0 - z1.x0) < 0.01);
  /* rowspan: the cells of the rows below move right of the spanning one,
     which stands at its first row's top; a spanning cell taller than its
     rows makes the last of them grow; rowspan='0' spans to the group's
     end */
  int w0 = warnings_seen;
  CHECK(typeset("<html xmlns='http://www.w3.org/1999/xhtml'><body><table>"
                "<tr><td rowspan='2'>Aspan</td><td>b1</td><td>c1</td></tr>"
                "<tr><td>b2</td><td>c2</td></tr>"
                "<tr><td>a3</td><td>b3</td><td>c3</td></tr>"
                "<tr><td rowspan='2'>t1<br/>t2<br/>t3<br/>t4<br/>t5</td>"
                "<td>b4</td><td>c4</td></tr>"
                "<tr><td>b5</td><td>c5</td></tr>"
                "<tr><td rowspan='0'>z</td><td>b6</td><td>c6</td></tr>"
                "<tr><td>b7</td><td>c7</td></tr></table></body></html>",
                TABLE_CSS) == 0);
  CHECK(warnings_seen == w0);
  wbox sa, sb1, sb2, sc2, s3, sb3, st5, sb5, sz, sb7;
  CHECK(word_box(tmp_pdf, 1, "Aspan", 0, &sa) &&
        word_box(tmp_pdf, 1, "b1", 0, &sb1) &&
        word_box(tmp_pdf, 1, "b2", 0, &sb2) &&
        word_box(tmp_pdf, 1, "c2", 0, &sc2) &&
        word_box(tmp_pdf, 1, "a3", 0, &s3) &&
        word_box(tmp_pdf, 1, "b3", 0, &sb3) &&
        word_box(tmp_pdf, 1, "t5", 0, &st5) &&
        word_box(tmp_pdf, 1, "b5", 0, &sb5) &&
        word_box(tmp_pdf, 1, "z", 0, &sz) &&
        word_box(tmp_pdf, 1, "b7", 0, &sb7));
  CHECK(fabs(sb2.x0 - sb1.x0) < 0.01 && fabs(sb3.x0 - sb1.x0) < 0.01);
  CHECK(fabs(s3.x0 - sa.x0) < 0.01 && sc2.x0 > sb2.x1);
  CHECK(fabs(sa.y0 - sb1.y0) < 0.01); /* top-aligned with its first row */
  CHECK(s3.y0 > sb2.y1);
  CHECK(sz.y0 > st5.y1); /* its rows grew to hold it */
  CHECK(fabs(sb7.x0 - sb1.x0) < 0.01 && sz.x0 < sb7.x0);
  /* a cell spanning rows taller than a page spans one row, and says so */
  d = table_doc("", 2,
                "<td rowspan='2'>%d<br/>x<br/>x<br/>x<br/>x<br/>x<br/>x<br/>"
                "x<br/>x<br/>x<br/>x<br/>x<br/>x<br/>x<br/>x<br/>x<br/>x<br/>"
                "x<br/>x<br/>x<br/>x</td><td>b</td>");
  CHECK(typeset(d, TABLE_CSS) == 0);
  free(d);
  CHECK(warnings_seen == w0 + 1 && strstr(last_warning, "spans one row"));
  /* A table in a cell is measured as a table (its columns side by side):
     its words stay whole. Separate borders and a caption below. */
  d = table_doc("<caption>Below</caption>", 1,
                "<td>o%d</td><td><table><tr><td>innerone</td>"
                "<td>innertwo</td></tr></table></td>");
  CHECK(typeset(d, PAGE_CSS "td { border: 1pt solid black; padding: 2pt }\n"
                            "caption { caption-side: bottom }") == 0);
  free(d);
  wbox i1, i2, o1, bl;
  CHECK(word_box(tmp_pdf, 1, "innerone", 0, &i1) &&
        word_box(tmp_pdf, 1, "innertwo", 0, &i2) &&
        word_box(tmp_pdf, 1, "o1", 0, &o1) &&
        word_box(tmp_pdf, 1, "Below", 0, &bl));
  CHECK(fabs(i1.y0 - i2.y0) < 0.01 && i2.x0 > i1.x1 && i1.x0 > o1.x1);
  CHECK(bl.y0 > i1.y1);
}

/* ---- footnotes and floats -------------------------------------------- */

#define NOTE_CSS                                                               \
  PAGE_CSS ".fn { float: footnote; font-size: 8pt; line-height: 9pt }\n"       \
           "p { widows: 1; orphans: 1 }\n"

/* n paragraphs of `lines` lines each; paragraph k calls a note whose text
   is "noteK" and `nlines` more words, one a line. */
static char *notes_doc(int n, int lines, int nlines) {
  size_t cap = 1 << 18;
  char *d = malloc(cap);
  size_t len = (size_t)snprintf(
      d, cap, "<html xmlns='http://www.w3.org/1999/xhtml'><body>");
  for (int k = 1; k <= n; k++) {
    len += (size_t)snprintf(d + len, cap - len, "<p>call%02d", k);
    len += (size_t)snprintf(d + len, cap - len,
                            "<span class='fn' id='n%d'>note%02d", k, k);
    for (int i = 0; i < nlines; i++)
      len += (size_t)snprintf(d + len, cap - len, "<br/>more%02d_%02d", k, i);
    len += (size_t)snprintf(d + len, cap - len, "</span>");
    for (int i = 1; i < lines; i++)
      len += (size_t)snprintf(d + len, cap - len, "<br/>body%02d_%02d", k, i);
    len += (size_t)snprintf(d + len, cap - len, "</p>");
  }
  snprintf(d + len, cap - len, "</body></html>");
  return d;
}

static void test_footnotes(void) {
  /* 30 paragraphs of 3 lines, each with a 2-line note: every call stands
     on the page of its note, and each note lies below the page's text. */
  char *d = notes_doc(30, 3, 1);
  CHECK(typeset(d, NOTE_CSS) == 0);
  free(d);
  int pages = page_count(tmp_pdf);
  CHECK(pages >= 6);
  bool same = true, below = true, numbered = true;
  for (int k = 1; k <= 30; k++) {
    char call[16], note[16], body[16];
    snprintf(call, sizeof call, "call%02d", k);
    snprintf(note, sizeof note, "note%02d", k);
    snprintf(body, sizeof body, "body%02d_02", k);
    int pc = page_of(tmp_pdf, call), pn = page_of(tmp_pdf, note);
    if (pc == 0 || pc != pn) {
      fprintf(stderr, "%s on page %d, %s on page %d\n", call, pc, note, pn);
      same = false;
      continue;
    }
    /* the call's number is raised after the word, the note starts with
       it: "call07" then "7", "7." then "note07" */
    wbox cb, nb, bb;
    if (!word_box(tmp_pdf, pc, call, 0, &cb) ||
        !word_box(tmp_pdf, pc, note, 0, &nb)) {
      same = false;
      continue;
    }
    int pb = page_of(tmp_pdf, body);
    if (pb == pc && word_box(tmp_pdf, pc, body, 0, &bb) && bb.y1 > nb.y0)
      below = false;
    if (nb.y1 > 300 - 50 + 0.5 || nb.y0 < cb.y1)
      below = false;
    char num[8];
    snprintf(num, sizeof num, "%d.", k);
    wbox mb;
    if (!word_box(tmp_pdf, pc, num, 0, &mb) || fabs(mb.y0 - nb.y0) > 0.5 ||
        mb.x1 > nb.x0)
      numbered = false;
  }
  CHECK(same);
  CHECK(below);
  CHECK(numbered);
  /* every page with notes keeps them inside the text area */
  for (int p = 1; p <= pages; p++)
    CHECK(words_within(tmp_pdf, p, 40, 260));

  /* A note longer than what is left of the page goes on overleaf: its
     first line stands with the call, the rest at the foot of the next
     page, above nothing of the next page's text. */
  d = notes_doc(3, 5, 40);
  CHECK(typeset(d, NOTE_CSS) == 0);
  free(d);
  int p1 = page_of(tmp_pdf, "call01");
  CHECK(p1 == 1 && page_of(tmp_pdf, "note01") == 1);
  CHECK(page_of(tmp_pdf, "more01_39") > 1);
  int p3 = page_of(tmp_pdf, "call03");
  CHECK(p3 > 0 && page_of(tmp_pdf, "note03") == p3);

  /* Numbered per chapter: counter-reset: footnote starts again at 1. */
  CHECK(typeset("<html xmlns='http://www.w3.org/1999/xhtml'><body>"
                "<div class='ch'><p>alpha<span class='fn'>first</span></p>"
                "<p>beta<span class='fn'>second</span></p></div>"
                "<div class='ch'><p>gamma<span class='fn'>third</span></p>"
                "</div></body></html>",
                NOTE_CSS ".ch { counter-reset: footnote; "
                         "break-before: page }") == 0);
  char *t = page_text(tmp_pdf, 1);
  CHECK(t && strstr(t, "2. second") && strstr(t, "alpha1"));
  free(t);
  t = page_text(tmp_pdf, 2);
  CHECK(t && strstr(t, "1. third") && strstr(t, "gamma1"));
  free(t);
  /* Easybook's display: prince-footnote is read as float: footnote */
  CHECK(typeset("<html xmlns='http://www.w3.org/1999/xhtml'><body>"
                "<p>text<span class='fn'>the note</span> goes on</p>"
                "</body></html>",
                PAGE_CSS ".fn { display: prince-footnote }") == 0);
  t = page_text(tmp_pdf, 1);
  CHECK(t && strstr(t, "text1 goes on") && strstr(t, "1. the note"));
  free(t);
  /* notes called in a table's cells: numbered once, in order, at the foot
     of the table's page */
  CHECK(typeset("<html xmlns='http://www.w3.org/1999/xhtml'><body>"
                "<p>before<span class='fn'>zero</span></p>"
                "<table><tr><td>cell<span class='fn'>inner</span></td>"
                "<td>other<span class='fn'>second</span></td></tr></table>"
                "<p>after<span class='fn'>last</span></p></body></html>",
                NOTE_CSS) == 0);
  t = page_text(tmp_pdf, 1);
  CHECK(t && strstr(t, "1. zero") && strstr(t, "2. inner") &&
        strstr(t, "3. second") && strstr(t, "4. last") && !strstr(t, "5."));
  free(t);
  CHECK(page_count(tmp_pdf) == 1);
  /* Prince's ::footnote-call and ::footnote-marker, as Easybook's print
     theme wrote them */
  CHECK(typeset("<html xmlns='http://www.w3.org/1999/xhtml'><body>"
                "<p>text<span class='fn'>the note</span> goes on</p>"
                "</body></html>",
                PAGE_CSS ".fn { display: prince-footnote }\n"
                         ".fn::footnote-call { content: '(' counter(footnote, "
                         "lower-roman) ')' }\n"
                         ".fn::footnote-marker { content: '[' "
                         "counter(footnote) ']' }") == 0);
  t = page_text(tmp_pdf, 1);
  CHECK(t && strstr(t, "text(i) goes on") && strstr(t, "[1] the note"));
  free(t);
  /* a note inside a note is set where it stands */
  CHECK(typeset("<html xmlns='http://www.w3.org/1999/xhtml'><body>"
                "<p>outer<span class='fn'>in <span class='fn'>deep</span>"
                "</span></p></body></html>",
                NOTE_CSS) == 0);
  t = page_text(tmp_pdf, 1);
  CHECK(t && strstr(t, "1. in deep"));
  free(t);
}

static void test_floats(void) {
  /* 10 lines, a 150pt figure, 8 lines: the figure does not fit under the
     first ten lines (200pt of page), so it opens page 2 and the text after
     it fills page 1. */
  const char *css = PAGE_CSS ".fig { float: top unless-fit; margin: 6pt 0 }\n"
                             ".box { height: 150pt; padding-top: 138pt }\n";
  char *d = lines_doc("", 10,
                      "<div class='fig'><div class='box'>FIGURE</div></div>"
                      "<p>after01<br/>after02<br/>after03<br/>after04<br/>"
                      "after05<br/>after06<br/>after07<br/>after08</p>");
  CHECK(typeset(d, css) == 0);
  free(d);
  CHECK(page_of(tmp_pdf, "FIGURE") == 2);
  CHECK(page_of(tmp_pdf, "after01") == 1);
  wbox fb, ab;
  CHECK(word_box(tmp_pdf, 2, "FIGURE", 0, &fb) && fb.y0 > 50 + 130);
  /* the rest of the text follows the figure on page 2 */
  CHECK(page_of(tmp_pdf, "after06") == 1);
  int pa = page_of(tmp_pdf, "after08");
  CHECK(pa == 2 && word_box(tmp_pdf, 2, "after08", 0, &ab) && ab.y0 > fb.y1);
  CHECK(page_count(tmp_pdf) == 2);
  /* A figure that fits stays where it is called (2 lines, 162pt of
     figure with its margins, a line: 198pt of 200). */
  d = lines_doc("", 2,
                "<div class='fig'><div class='box'>FIGURE</div></div>"
                "<p>after01</p>");
  CHECK(typeset(d, css) == 0);
  free(d);
  CHECK(page_count(tmp_pdf) == 1);
  CHECK(word_box(tmp_pdf, 1, "FIGURE", 0, &fb) &&
        word_box(tmp_pdf, 1, "after01", 0, &ab) && ab.y0 > fb.y1);
  /* Two figures that do not fit keep their order. */
  d = lines_doc("", 12,
                "<div class='fig'><div class='box'>FIGA</div></div>"
                "<div class='fig'><div class='box'>FIGB</div></div>"
                "<p>after01</p>");
  CHECK(typeset(d, css) == 0);
  free(d);
  CHECK(page_of(tmp_pdf, "FIGA") == 2 && page_of(tmp_pdf, "FIGB") == 3);
  CHECK(page_of(tmp_pdf, "after01") == 1);
  /* A note called in a float that moves goes with it. */
  d = lines_doc("", 10,
                "<div class='fig'><div class='box'>FIGURE<span "
                "class='fn'>floated</span></div></div><p>after01</p>");
  CHECK(typeset(d, NOTE_CSS ".fig { float: top unless-fit; margin: 6pt 0 }\n"
                            ".box { padding-top: 100pt }\n") == 0);
  free(d);
  CHECK(page_of(tmp_pdf, "FIGURE") == 2 && page_of(tmp_pdf, "floated") == 2);
  CHECK(page_of(tmp_pdf, "after01") == 1);
}

/* Cross-references in the text: target-counter prints the true page, at
 * the width of the number (another pass when it changes); target-text
 * prints the target's text or its ::before; a missing target prints "??"
 * with one warning at the link's line. */
static void test_cross_references(void) {
  const char *doc =
      "<html xmlns='http://www.w3.org/1999/xhtml'><body>\n"
      "<p>See <a class='x' href='#near'>near</a>, "
      "<a class='x' href='#far'>far</a> and <a class='t' href='#fig'>t</a> "
      "and <a class='b' href='#fig2'>b</a>.</p>\n"
      "<p>Gone <a class='x' href='#nowhere'>n1</a> and "
      "<a class='t' href='#nowhere'>n2</a>.</p>\n"
      "<div class='pg' id='near'><p>NEAR</p></div>"
      "<div class='pg'><p>p3</p></div><div class='pg'><p>p4</p></div>"
      "<div class='pg'><p>p5</p></div><div class='pg'><p>p6</p></div>"
      "<div class='pg'><p>p7</p></div><div class='pg'><p>p8</p></div>"
      "<div class='pg'><p>p9</p></div><div class='pg'><p>p10</p></div>"
      "<div class='pg'><p>p11</p></div>"
      "<div class='pg' id='far'><p>FAR</p>"
      "<div id='fig'><p>IMG</p><p><span class='label'>Figure 7</span> "
      "Waves</p></div><p id='fig2' data-n='9'>Other</p></div>"
      "</body></html>";
  const char *css = PAGE_CSS
      ".pg { break-before: page }\n"
      "a.x::after { content: ' (page ' target-counter(attr(href), page) ')' "
      "}\n"
      "a.t::after { content: ' [' target-text(attr(href)) ']' }\n"
      "a.b::after { content: ' [' target-text(attr(href), content(before)) "
      "']' }\n"
      "#fig2::before { content: 'Fig. ' attr(data-n) }\n";
  int warns = warnings_seen;
  CHECK(typeset(doc, css) == 0);
  CHECK(page_of(tmp_pdf, "NEAR") == 2 && page_of(tmp_pdf, "FAR") == 12);
  char *t = page_text(tmp_pdf, 1);
  CHECK(t && strstr(t, "near (page 2)") && strstr(t, "far (page 12)"));
  CHECK(t && strstr(t, "[IMG Figure 7 Waves]"));
  CHECK(t && strstr(t, "b [Fig. 9]"));
  CHECK(t && strstr(t, "n1 (page \?\?)") && strstr(t, "n2 [\?\?]"));
  free(t);
  /* one warning for the missing id, however many links and passes */
  CHECK(warnings_seen == warns + 1);
  CHECK(strstr(last_warning, "doc.xhtml:3:0: ") == last_warning &&
        strstr(last_warning, "'#nowhere'"));
}

/* The x extent of every word on page n, pt. */
static void words_extent(const char *pdf, int n, double *x0, double *x1) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "pdftotext -bbox -f %d -l %d '%s' - 2>&1", n, n,
           pdf);
  char *o = run_pdf(pdf, cmd);
  *x0 = 1e9;
  *x1 = -1e9;
  for (const char *p = o; p && (p = strstr(p, "<word ")); p++) {
    double a, b, c, d;
    if (sscanf(p, "<word xMin=\"%lf\" yMin=\"%lf\" xMax=\"%lf\" yMax=\"%lf\"",
               &a, &b, &c, &d) != 4)
      continue;
    if (a < *x0)
      *x0 = a;
    if (c > *x1)
      *x1 = c;
  }
  free(o);
}

/* How many lines of text (pages apart) start with prefix; *elsewhere:
 * how many times it stands inside a line. */
static int lines_starting(const char *text, const char *prefix,
                          int *elsewhere) {
  int k = 0, other = 0;
  size_t n = strlen(prefix);
  for (const char *p = text; p && (p = strstr(p, prefix)); p += n) {
    if (p == text || p[-1] == '\n' || p[-1] == '\f')
      k++;
    else
      other++;
  }
  if (elsewhere)
    *elsewhere = other;
  return k;
}

/* Where each page starts (ts_engine_input.page_starts): the element, in
 * document order, and the byte of its text where the page's first word
 * begins; a hyphenated word's end is not a start. */
static void test_page_starts(void) {
  /* elements: html 0, body 1, h1 2, p 3, then in it an em and 24 br, the
     second p 29; 16 lines a page */
  char d[8192];
  size_t n = (size_t)snprintf(
      d, sizeof d,
      "<html xmlns='http://www.w3.org/1999/xhtml'><body><h1>Head</h1><p>");
  for (int i = 0; i < 24; i++)
    n += (size_t)snprintf(d + n, sizeof d - n, "%sline%02d<br/>",
                          i == 1 ? "<em>x</em> " : "", i + 1);
  n += (size_t)snprintf(d + n, sizeof d - n, "</p><p>");
  for (int i = 0; i < 20; i++)
    n += (size_t)snprintf(d + n, sizeof d - n, "next%02d<br/>", i + 1);
  snprintf(d + n, sizeof d - n, "</p></body></html>");
  const char *css = PAGE_CSS "h1 { font-size: 10pt; margin: 0 }";
  oc_arena *a = oc_arena_new();
  oc_reporter rep = {print_diag, NULL};
  const css_stylesheet *sheet =
      css_parse(a, css, strlen(css), "test.css", CSS_ORIGIN_AUTHOR, &rep);
  ts_engine_input in = {.xhtml = d,
                        .len = strlen(d),
                        .name = "doc.xhtml",
                        .sheets = &sheet,
                        .nsheets = 1,
                        .lang = "en",
                        .rep = &rep,
                        .resolve = resolve_abs,
                        .page_starts = true};
  ts_engine_stats st = {0};
  CHECK(ts_engine_render(a, &in, tmp_pdf, &st) == 0);
  CHECK(st.pages == 3 && st.page_starts);
  if (st.pages == 3 && st.page_starts) {
    const ts_page_start *ps = st.page_starts;
    CHECK(!strcmp(ps[0].label, "1") && !strcmp(ps[2].label, "3"));
    /* page 1: "Head"; page 2: line16 of the first p, whose text before it
       is "line01" "x" " line02" ... "line15" (7 + 1 + 14 * 6 bytes) */
    CHECK(ps[0].element == 2 && ps[0].offset == 0);
    CHECK(ps[1].element == 3 && ps[1].offset == 6 + 1 + 1 + 14 * 6);
    /* page 3: line24 was page 2's 16th line after line16..line23; then
       the second p's lines: next08 opens page 3 */
    CHECK(ps[2].element == 29 && ps[2].offset == 7 * 6);
  }
  oc_arena_free(a);
}

/* Code blocks: long lines wrap inside the measure (at a space, else at the
 * measure), each continuation starting with a mark; lines are numbered
 * when the block resets the counter `line`. */
/* A box's top edge stays with its first line. */
static void test_box_edges(void) {
  /* The top border and padding (14pt) fit under 15 lines (180pt of
     200), its first line does not: the box goes over whole, its top edge
     is not left alone at the foot of page 1. */
  char *d = lines_doc("", 15, "<div class='b'>BOXED</div>");
  CHECK(typeset(d, PAGE_CSS ".b { border-top: 4pt solid #000000; "
                            "padding-top: 10pt }") == 0);
  free(d);
  wbox bb;
  CHECK(page_of(tmp_pdf, "BOXED") == 2);
  CHECK(word_box(tmp_pdf, 2, "BOXED", 0, &bb) && bb.y0 > 50 + 12);
  /* The same with a background and no border, as a code block has: its
     padding fits at the foot of page 1 (10pt of 20), its first line does
     not. Nothing of the background stands on page 1 (the guide's grey
     sliver under the last line of a page). */
  d = lines_doc("", 15, "<div class='b'>BOXED</div>");
  CHECK(typeset(d, PAGE_CSS ".b { background-color: #ff0000; "
                            "padding-top: 10pt }") == 0);
  free(d);
  CHECK(page_of(tmp_pdf, "BOXED") == 2);
  int r = 0, g = 0, b = 0;
  for (int y = 231; y < 250; y += 3)
    CHECK(pixel_at(150, y, &r, &g, &b) && !(r > 200 && g < 100 && b < 100));
}

static void test_code_blocks(void) {
  char longw[201], spaced[400];
  memset(longw, 'y', 200);
  longw[200] = 0;
  size_t n = 0;
  for (int i = 0; i < 40; i++)
    n += (size_t)snprintf(spaced + n, sizeof spaced - n, "w%02d ", i);
  spaced[n - 1] = 0;
  char doc[2048];
  snprintf(doc, sizeof doc,
           "<html xmlns='http://www.w3.org/1999/xhtml'><body>"
           "<pre>short line\n%s\n%s\nend</pre>"
           "<pre class='w'>%s</pre></body></html>",
           spaced, longw, spaced);
  const char *css =
      PAGE_CSS "pre { font-family: 'DejaVu Sans Mono'; font-size: 8pt; "
               "white-space: pre; background-color: #eeeeee; padding: 2pt }\n"
               "pre.w { white-space: pre-wrap }\n";
  CHECK(typeset(doc, css) == 0);
  char cmd[512];
  snprintf(cmd, sizeof cmd, "pdftotext -raw '%s' - 2>&1", tmp_pdf);
  char *t = run(cmd);
  /* the unwrapped lines carry no mark, every continuation one */
  CHECK(t && strstr(t, "short line\n") && strstr(t, "\nend\n"));
  CHECK(t && lines_starting(t, "w00 ", NULL) == 2);
  int inside = -1;
  int marks = t ? lines_starting(t, "\u21AA", &inside) : 0;
  /* 160 characters of words and 200 without a space, in a measure of
     about 44 columns: 3 + 4 + 3 continuations, each with its mark */
  CHECK(marks == 3 + 4 + 3 && inside == 0);
  /* words wrap at spaces: none is cut */
  CHECK(t && strstr(t, "w10\n\u21AAw11 ") && !strstr(t, "w0\n") &&
        !strstr(t, "w1\n"));
  /* the 200 y's come back whole, less the marks and line ends */
  size_t ys = 0;
  for (const char *p = t; p && *p; p++)
    ys += *p == 'y';
  CHECK(ys == 200);
  free(t);
  /* nothing crosses the text area (300pt wide, 40pt margins) */
  double x0, x1;
  words_extent(tmp_pdf, 1, &x0, &x1);
  CHECK(x0 >= 40 - 0.5 && x1 <= 260 + 0.5);

  /* numbered: 1..3, the continuation lines not numbered */
  snprintf(doc, sizeof doc,
           "<html xmlns='http://www.w3.org/1999/xhtml'><body>"
           "<pre class='n'>alpha\n%s\ngamma</pre></body></html>",
           longw);
  CHECK(typeset(doc, PAGE_CSS "pre { font-family: 'DejaVu Sans Mono'; "
                              "font-size: 8pt; white-space: pre }\n"
                              "pre.n { counter-reset: line; padding-left: "
                              "20pt }\n") == 0);
  t = run(cmd);
  CHECK(t && strstr(t, "1 alpha\n2 yyyy") && strstr(t, "\n3 gamma"));
  CHECK(t && lines_starting(t, "\u21AA", NULL) == 4 &&
        lines_starting(t, "4", NULL) == 0);
  free(t);
  words_extent(tmp_pdf, 1, &x0, &x1);
  CHECK(x0 >= 40 - 0.5 && x1 <= 260 + 0.5);
  /* counter-reset: line 10 numbers from 11 */
  CHECK(typeset("<html xmlns='http://www.w3.org/1999/xhtml'><body>"
                "<pre>a\nb</pre></body></html>",
                PAGE_CSS "pre { font-family: 'DejaVu Sans Mono'; "
                         "white-space: pre; counter-reset: line 10 }\n") == 0);
  t = run(cmd);
  CHECK(t && strstr(t, "11 a\n12 b"));
  free(t);
}

/* Tables, footnotes and floats in shapes no book should have: every
 * document with every sheet sets without a crash (and, under the
 * sanitizers, without a bad access). */
static void test_pathological_structures(void) {
#define XO "<html xmlns='http://www.w3.org/1999/xhtml'><body>"
#define XC "</body></html>"
  char *deep = malloc(1 << 16);
  strcpy(deep, XO);
  for (int i = 0; i < 30; i++)
    strcat(deep, "<table><tr><td>a<span class='fn'>n</span>");
  for (int i = 0; i < 30; i++)
    strcat(deep, "</td></tr></table>");
  strcat(deep, XC);
  char *many = malloc(1 << 18);
  strcpy(many, XO "<p>");
  for (int i = 0; i < 2000; i++)
    strcat(many, "w<span class='fn'>note</span> ");
  strcat(many, "</p>" XC);
  static const char spans[] =
      XO "<table><tr><td colspan='0'>a</td><td colspan='-5'>b</td>"
         "<td colspan='100000'>c</td><td rowspan='99999'>d</td></tr>"
         "<tr></tr><tr><th colspan='x'>e</th></tr></table>" XC;
  static const char odd[] =
      XO "<table></table><table><caption>only</caption></table>"
         "<table><thead><tr><th>h</th></tr></thead></table>"
         "<table><tfoot><tr><td>f</td></tr></tfoot><tr><td>x</td></tr>"
         "</table><tr><td>stray row</td></tr><td>stray cell</td>"
         "<caption>stray caption</caption>" XC;
  static const char nested[] =
      XO "<div class='fig'><div class='fig'><p>in<span class='fn'>a "
         "<span class='fn'>b</span><div class='fig'>c</div></span></p>"
         "</div><table><tr><td><div class='fig'>cell float</div></td></tr>"
         "</table></div><p>after</p>" XC;
  char *tall = malloc(1 << 16);
  strcpy(tall, XO "<div class='fig'>");
  for (int i = 0; i < 200; i++)
    strcat(tall, "<p>tall float line</p>");
  strcat(tall, "</div><p>x<span class='fn'>");
  for (int i = 0; i < 200; i++)
    strcat(tall, "<p>tall note line</p>");
  strcat(tall, "</span></p><table>");
  for (int i = 0; i < 100; i++)
    strcat(tall, "<tr><td>r</td><td><p>1</p><p>2</p><p>3</p></td></tr>");
  strcat(tall, "</table>" XC);
  const char *docs[] = {deep, many, spans, odd, nested, tall};
  const char *sheets[] = {
      ".fn { float: footnote } .fig { float: top unless-fit }",
      "* { float: footnote }",
      "* { float: top }",
      "td, th, tr, table { float: footnote }",
      "table { display: inline } tr { display: table-cell } "
      "td { display: table }",
      ".fn { float: footnote; break-before: page; break-inside: avoid } "
      "p { break-inside: avoid; widows: 99 }",
      "@page { size: 60pt 60pt; margin: 25pt } .fn { float: footnote }",
      "table { border-collapse: collapse; border: 40pt solid red; width: 1pt }"
      " td { padding: 100pt; border: 30pt double blue }",
      ".fn { float: footnote } .fn::footnote-call { content: none } "
      ".fn::footnote-marker { content: counter(footnote, upper-roman) "
      "attr(id) 'x' }"};
#undef XO
#undef XC
  for (size_t d = 0; d < sizeof docs / sizeof docs[0]; d++)
    for (size_t k = 0; k < sizeof sheets / sizeof sheets[0]; k++) {
      ts_engine_stats st = {0};
      const char *css[1] = {sheets[k]};
      int rc = render(docs[d], strlen(docs[d]), css, 1, tmp_pdf, &st);
      CHECK(rc == 0 && st.pages >= 1);
      if (rc != 0 || st.pages < 1)
        fprintf(stderr, "  structures: document %zu, sheet %zu\n", d, k);
    }
  free(deep);
  free(many);
  free(tall);
}

/* Nesting far past the node tree's cap (256 levels), of every kind the
 * engine walks recursively: blocks, inline elements, tables in tables,
 * lists, footnotes in footnotes, links; each set at the cap with one
 * warning at its line, its innermost text kept. Without the cap these
 * overflow the stack. Then many deep places: ten warnings and a count. */
static char *deep_doc(const char *open, const char *close, int n) {
  size_t lo = strlen(open), lc = strlen(close);
  char *d = malloc(256 + (lo + lc) * (size_t)n);
  size_t k = (size_t)sprintf(d, "<html xmlns='http://www.w3.org/1999/xhtml'>"
                                "<body>\n<p>above</p>\n");
  for (int i = 0; i < n; i++, k += lo)
    memcpy(d + k, open, lo);
  k += (size_t)sprintf(d + k, "deepest");
  for (int i = 0; i < n; i++, k += lc)
    memcpy(d + k, close, lc);
  strcpy(d + k, "</body></html>");
  return d;
}

static void test_deep_nesting(void) {
  /* shown: whether the innermost text is on the page (not so where each
     level takes its share of the width: 64 tables in tables, notes) */
  static const struct {
    const char *open, *close;
    bool shown;
  } kinds[] = {{"<div>", "</div>", true},
               {"<p><span>", "</span></p>", true},
               {"<em><strong>", "</strong></em>", true},
               {"<table><tr><td>", "</td></tr></table>", false},
               {"<ul><li>", "</li></ul>", true},
               {"<blockquote>", "</blockquote>", true},
               {"<span class='fn'>a", "</span>", false},
               {"<a href='#x'>", "</a>", true},
               {"<div><table><tr><td><ul><li><span class='fn'><a href='#x'>",
                "</a></span></li></ul></td></tr></table></div>", false}};
  const char *css[1] = {".fn { float: footnote } ul, li, blockquote, table, "
                        "td { margin: 0; padding: 0 }"};
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    char *d = deep_doc(kinds[i].open, kinds[i].close,
                       100000 / (int)strlen(kinds[i].open));
    ts_engine_stats st = {0};
    warnings_seen = 0;
    bool ok = render(d, strlen(d), css, 1, tmp_pdf, &st) == 0 && st.pages >= 1;
    CHECK(ok);
    CHECK(warnings_seen == 1);
    CHECK_STR(last_warning, "doc.xhtml:3:0: elements nested more than 256 "
                            "deep: the deeper ones are left out, their "
                            "content kept at level 256");
    char *t = pdf_text_all();
    bool shown = t && strstr(t, "deepest");
    CHECK(shown || !kinds[i].shown);
    if (!ok || (!shown && kinds[i].shown))
      fprintf(stderr, "  deep nesting: kind %zu\n", i);
    free(t);
    free(d);
  }
  /* Where pages start numbers elements as the XHTML does, those left out
     included: html 0, body 1, p 2 ("above"), 300 divs 3-302 (254 of them
     in the tree), the p 303; page 1 holds "above", "deepest" and 14 of
     its lines */
  char *pd = deep_doc("<div>", "</div>", 300);
  char *end = strstr(pd, "</body>");
  size_t pn = (size_t)(end - pd), pcap = pn + 1024;
  pd = realloc(pd, pcap);
  pn += (size_t)snprintf(pd + pn, pcap - pn, "<p>");
  for (int i = 0; i < 40; i++)
    pn += (size_t)snprintf(pd + pn, pcap - pn, "line%02d<br/>", i + 1);
  snprintf(pd + pn, pcap - pn, "</p></body></html>");
  oc_arena *pa = oc_arena_new();
  oc_reporter rep = {print_diag, NULL};
  const char *pcss = PAGE_CSS "div { margin: 0 }";
  const css_stylesheet *sheet =
      css_parse(pa, pcss, strlen(pcss), "test.css", CSS_ORIGIN_AUTHOR, &rep);
  ts_engine_input in = {.xhtml = pd,
                        .len = strlen(pd),
                        .name = "doc.xhtml",
                        .sheets = &sheet,
                        .nsheets = 1,
                        .lang = "en",
                        .rep = &rep,
                        .resolve = resolve_abs,
                        .page_starts = true};
  ts_engine_stats pst = {0};
  CHECK(ts_engine_render(pa, &in, tmp_pdf, &pst) == 0);
  CHECK(pst.pages >= 2 && pst.page_starts);
  if (pst.pages >= 2 && pst.page_starts) {
    CHECK(pst.page_starts[1].element == 303);
    CHECK(pst.page_starts[1].offset == 14 * 6);
    if (pst.page_starts[1].element != 303 ||
        pst.page_starts[1].offset != 14 * 6)
      fprintf(stderr, "  page 2 starts at element %zu, offset %zu\n",
              pst.page_starts[1].element, pst.page_starts[1].offset);
  }
  oc_arena_free(pa);
  free(pd);
  /* 30 deep places, one a line */
  size_t cap = 30 * 300 * 14 + 256, k = 0;
  char *d = malloc(cap);
  k += (size_t)sprintf(d, "<html xmlns='http://www.w3.org/1999/xhtml'><body>");
  for (int i = 0; i < 30; i++) {
    for (int j = 0; j < 300; j++)
      k += (size_t)sprintf(d + k, "<i>");
    k += (size_t)sprintf(d + k, "w");
    for (int j = 0; j < 300; j++)
      k += (size_t)sprintf(d + k, "</i>");
    k += (size_t)sprintf(d + k, "\n");
  }
  strcpy(d + k, "</body></html>");
  warnings_seen = 0;
  CHECK(render(d, strlen(d), css, 1, tmp_pdf, NULL) == 0);
  CHECK(warnings_seen == 11);
  CHECK_STR(last_warning, "doc.xhtml:0:0: 20 more elements hold elements "
                          "nested more than 256 deep, set the same way");
  free(d);
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
  snprintf(tmp_pdf, sizeof tmp_pdf, "/tmp/octavo-test-typeset-%ld.pdf",
           (long)getpid());
  test_pages();
  test_page_starts();
  test_references();
  test_text();
  test_mixed_script_grid();
  test_url_breaks();
  test_cjk_text();
  test_lists();
  test_pathological();
  test_images();
  test_image_kinds();
  test_tables();
  test_table_spans();
  test_footnotes();
  test_floats();
  test_pathological_structures();
  test_deep_nesting();
  test_cross_references();
  test_code_blocks();
  test_box_edges();
  /* a family that is not installed: named at its place in the sheet */
  CHECK(typeset("<html xmlns='http://www.w3.org/1999/xhtml'><body><p>x</p>"
                "</body></html>",
                "p {\n  font-family: 'No Such Face';\n}") == 0);
  CHECK_STR(last_warning, "test.css:2:3: font family 'No Such Face' is not "
                          "installed; another is used");
  remove(tmp_pdf);
  for (size_t i = 0; i < RUN_CACHE; i++) {
    free(run_cache[i].cmd);
    free(run_cache[i].out);
  }
  printf("typeset: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
