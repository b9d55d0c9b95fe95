/* Unit tests of the Markdown module (runtime/book/book_md.c): every book
 * extension, every hook and the default markup, ids unique in the book,
 * what the result gathers (headings, figures, tables, ids, links, images)
 * with their lines, and the diagnostics. The important outputs are
 * compared whole. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <unicode/uclean.h>

#include "book_md.h"

#include "check.h"

#define CHECK_REF(ref, t, l, c)                                                \
  do {                                                                         \
    CHECK_STR((ref).target, (t));                                              \
    CHECK((ref).line == (l));                                                  \
    CHECK((ref).col == (c));                                                   \
  } while (0)

/* ---- a render with hooks that show what they were given ------------- */

typedef struct fixture {
  oc_arena *a;
  bk_slugger *slugger;
  bk_idset *ids;
  oc_reporter reporter;
  bk_md_options opt;
  bk_md_result r;
  char log[16384]; /* "line:col: severity: message" lines */
  int code_calls;
} fixture;

static void on_report(void *user, oc_severity sev, const char *file,
                      unsigned line, unsigned col, const char *message) {
  fixture *f = user;
  size_t n = strlen(f->log);
  snprintf(f->log + n, sizeof f->log - n, "%s:%u:%u: %s: %s\n", file, line, col,
           sev == OC_ERROR     ? "error"
           : sev == OC_WARNING ? "warning"
                               : "note",
           message);
}

static const char *fmt(fixture *f, const char *format, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, format);
  int n = vsnprintf(buf, sizeof buf, format, ap);
  va_end(ap);
  return oc_arena_strndup(f->a, buf, (size_t)n);
}

/* Easybook's English labels: "Chapter 1", then the dotted counters. */
static const char *heading_label(void *user, int level, const int c[6]) {
  if (level == 1)
    return "Chapter 1";
  char buf[64] = "1";
  for (int i = 1; i < level; i++) {
    size_t n = strlen(buf);
    snprintf(buf + n, sizeof buf - n, ".%d", c[i]);
  }
  return fmt(user, "%s", buf);
}

static const char *figure_label(void *user, int n) {
  return fmt(user, "Figure 1.%d", n);
}

static const char *table_label(void *user, int n) {
  return fmt(user, "Table 1.%d", n);
}

/* The theme's figure.twig: everything it was given, visibly. Even numbers
 * only: NULL asks for the module's own markup. */
static const char *figure_html(void *user, const bk_md_figure *fig,
                               const char *inner) {
  if (fig->number % 2)
    return NULL;
  return fmt(user,
             "<div class=\"fig %s\" id=\"%s\" data-n=\"%d\" data-src=\"%s\" "
             "data-line=\"%u\">%s<p>%s: %s</p></div>",
             fig->align, fig->id, fig->number, fig->src, fig->line, inner,
             fig->label, fig->caption);
}

static const char *table_html(void *user, const bk_md_table *t,
                              const char *inner) {
  return fmt(user,
             "<div class=\"tbl\" id=\"%s\" data-line=\"%u\">%s|%s|%s</div>",
             t->id, t->line, t->label, t->caption, inner);
}

static const char *code_html(void *user, const char *lang, const char *inner) {
  fixture *f = user;
  f->code_calls++;
  if (strcmp(lang, "none") == 0)
    return NULL;
  return fmt(user, "<div class=\"hl\" data-lang=\"%s\">%s</div>", lang, inner);
}

static void fx_open(fixture *f) {
  memset(f, 0, sizeof *f);
  f->a = oc_arena_new();
  f->slugger = bk_slugger_new();
  f->ids = bk_idset_new(f->a);
  f->reporter.fn = on_report;
  f->reporter.user = f;
  f->opt.file = "chapter1.md";
  f->opt.first_line = 1;
  f->opt.id_prefix = "1";
  f->opt.ids = f->ids;
  f->opt.slugger = f->slugger;
  f->opt.report = &f->reporter;
  f->opt.hooks.user = f;
}

static void fx_hooks(fixture *f) {
  f->opt.hooks.heading_label = heading_label;
  f->opt.hooks.figure_label = figure_label;
  f->opt.hooks.table_label = table_label;
}

static int fx_render(fixture *f, const char *src) {
  return bk_md_render(f->a, src, strlen(src), &f->opt, &f->r);
}

/* Renders src and returns the HTML ("(failed)" when the render failed). */
static const char *html_of(fixture *f, const char *src) {
  return fx_render(f, src) == 0 ? f->r.html : "(failed)";
}

static void fx_close(fixture *f) {
  bk_slugger_free(f->slugger);
  oc_arena_free(f->a);
}

/* ---- headings ------------------------------------------------------- */

static void test_headings(void) {
  fixture f;
  fx_open(&f);
  fx_hooks(&f);
  f.opt.extract_title = true;
  const char *src = "# The *Title*\n"
                    "\n"
                    "### Straight under the H1\n"
                    "\n"
                    "## Section ## {#sec}\n"
                    "\n"
                    "### Sub `code`\n"
                    "\n"
                    "## C# ## {#c-sharp}\n"
                    "\n"
                    "Setext title {#setext}\n"
                    "----------------------\n"
                    "\n"
                    "#### Deep\n"
                    "\n"
                    "## Section\n"
                    "\n"
                    "## Chloë & <em>Co</em>\n";
  CHECK_STR(
      html_of(&f, src),
      "<h3 id=\"straight-under-the-h1\"><span class=\"label\">1.0.1</span> "
      "Straight under the H1</h3>\n"
      "<h2 id=\"sec\"><span class=\"label\">1.1</span> Section</h2>\n"
      "<h3 id=\"sub-code\"><span class=\"label\">1.1.1</span> Sub "
      "<code>code</code></h3>\n"
      "<h2 id=\"c-sharp\"><span class=\"label\">1.2</span> C#</h2>\n"
      "<h2 id=\"setext\"><span class=\"label\">1.3</span> Setext "
      "title</h2>\n"
      "<h4 id=\"deep\"><span class=\"label\">1.3.0.1</span> Deep</h4>\n"
      "<h2 id=\"section\"><span class=\"label\">1.4</span> Section</h2>\n"
      "<h2 id=\"chloe-co\"><span class=\"label\">1.5</span> Chloë &amp; "
      "<em>Co</em></h2>\n");
  CHECK_STR(f.r.title, "The <em>Title</em>");
  CHECK_STR(f.r.title_text, "The Title");
  CHECK_STR(f.r.title_id, "the-title");
  CHECK(f.r.nheadings == 9);
  if (f.r.nheadings == 9) {
    bk_md_heading *h = f.r.headings;
    CHECK(h[0].level == 1 && h[0].line == 1);
    CHECK_STR(h[0].id, "the-title");
    CHECK_STR(h[0].label, "Chapter 1");
    CHECK_STR(h[1].label, "1.0.1");
    CHECK(h[2].level == 2 && h[2].line == 5);
    CHECK_STR(h[2].title, "Section");
    CHECK_STR(h[3].title, "Sub <code>code</code>");
    CHECK_STR(h[3].text, "Sub code");
    CHECK(h[5].line == 11);
    CHECK_STR(h[5].id, "setext");
    CHECK_STR(h[8].text, "Chloë & Co");
  }
  CHECK_STR(f.log, "");
  fx_close(&f);

  /* No label hook: no label span; no extract_title: the H1 stays. */
  fx_open(&f);
  CHECK_STR(html_of(&f, "# Title\n\nText.\n"),
            "<h1 id=\"title\">Title</h1>\n<p>Text.</p>\n");
  CHECK(f.r.title == NULL && f.r.title_id == NULL);
  CHECK_STR(f.r.headings[0].label, "");
  fx_close(&f);

  /* extract_title takes only an H1 that comes first. */
  fx_open(&f);
  f.opt.extract_title = true;
  CHECK_STR(html_of(&f, "Intro.\n\n# Title\n"),
            "<p>Intro.</p>\n<h1 id=\"title\">Title</h1>\n");
  CHECK(f.r.title == NULL);
  CHECK_STR(html_of(&f, "## Not a title\n"),
            "<h2 id=\"not-a-title\">Not a title</h2>\n");
  CHECK(f.r.title == NULL);
  fx_close(&f);
}

static void test_heading_ids(void) {
  fixture f;
  fx_open(&f);
  /* An explicit id wins over a slug made earlier in the same file; a
   * duplicate explicit id is renamed and reported; an invalid one stays
   * text. */
  const char *src = "## Intro\n"
                    "\n"
                    "## Later ## {#intro}\n"
                    "\n"
                    "## Again {#intro}\n"
                    "\n"
                    "## Bad {#a/b}\n"
                    "\n"
                    "## Braces {# not an id}\n"
                    "\n"
                    "## x.y:z_w-1 {#x.y:z_w-1}\n"
                    "\n"
                    "## Last ##\n";
  CHECK_STR(html_of(&f, src),
            "<h2 id=\"intro-3\">Intro</h2>\n"
            "<h2 id=\"intro\">Later</h2>\n"
            "<h2 id=\"intro-2\">Again</h2>\n"
            "<h2 id=\"bad-a-b\">Bad {#a/b}</h2>\n"
            "<h2 id=\"braces-not-an-id\">Braces {# not an id}</h2>\n"
            "<h2 id=\"x.y:z_w-1\">x.y:z_w-1</h2>\n"
            "<h2 id=\"last\">Last</h2>\n");
  CHECK_STR(f.log,
            "chapter1.md:5:1: warning: duplicate id 'intro' (renamed "
            "'intro-2')\n"
            "chapter1.md:7:1: warning: invalid id 'a/b' (letters, digits, "
            "'-', '_', ':' and '.' only)\n");
  fx_close(&f);
}

/* Two files of one book share the idset: nothing repeats. */
static void test_ids_across_renders(void) {
  fixture f;
  fx_open(&f);
  const char *src = "# Intro\n\nA note.[^a]\n\n![Cat](cat.png)\n\n"
                    "| a |\n|---|\n| 1 |\n\n[^a]: Note.\n";
  CHECK(fx_render(&f, src) == 0);
  CHECK(f.r.nids == 5);
  const char *first[5];
  for (size_t i = 0; i < 5 && i < f.r.nids; i++)
    first[i] = f.r.ids[i];
  /* The same file again, with the same prefix (the worst case). */
  CHECK(fx_render(&f, src) == 0);
  CHECK(f.r.nids == 5);
  for (size_t i = 0; i < 5 && i < f.r.nids; i++)
    for (size_t j = 0; j < 5; j++)
      CHECK(strcmp(f.r.ids[i], first[j]) != 0);
  CHECK_STR(f.r.headings[0].id, "intro-2");
  CHECK_STR(f.r.figures[0].id, "figure-1-1-2");
  CHECK_STR(f.r.tables[0].id, "table-1-1-2");
  /* The next chapter, with its own prefix. */
  f.opt.id_prefix = "2";
  CHECK_STR(html_of(&f, "# Intro\n\nB.[^b]\n\n[^b]: Other.\n"),
            "<h1 id=\"intro-3\">Intro</h1>\n"
            "<p>B.<sup class=\"footnote-ref\"><a href=\"#fn-2-1\" "
            "id=\"fnref-2-1\" role=\"doc-noteref\">1</a></sup></p>\n"
            "<div class=\"footnotes\" role=\"doc-endnotes\">\n<ol>\n"
            "<li id=\"fn-2-1\">\n"
            "<p>Other. <a href=\"#fnref-2-1\" class=\"footnote-backref\" "
            "role=\"doc-backlink\" aria-label=\"Back to the text\">↩</a></p>\n"
            "</li>\n</ol>\n</div>\n");
  CHECK(bk_idset_has(f.ids, "fn-1-1") && bk_idset_has(f.ids, "fn-1-1-2"));
  CHECK(bk_idset_has(f.ids, "fnref-2-1"));
  fx_close(&f);
}

/* ---- admonitions and page breaks ------------------------------------ */

static const char *kind_label(void *user, const char *kind) {
  (void)user;
  return !strcmp(kind, "warning") ? "Avertissement \"fort\""
         : !strcmp(kind, "aside") ? "Aparté"
                                  : NULL;
}

/* The kind's name in the book's language goes to assistive technology. */
static void test_admonition_labels(void) {
  fixture f;
  fx_open(&f);
  f.opt.hooks.admonition_label = kind_label;
  CHECK_STR(html_of(&f, "W> Careful.\n\nA> By the way.\n\nT> A tip.\n"),
            "<div class=\"admonition warning\" role=\"note\" "
            "aria-label=\"Avertissement &quot;fort&quot;\">\n"
            "<p>Careful.</p>\n</div>\n"
            "<aside class=\"admonition aside\" aria-label=\"Aparté\">\n"
            "<p>By the way.</p>\n</aside>\n"
            "<div class=\"admonition tip\">\n<p>A tip.</p>\n</div>\n");
  fx_close(&f);
}

static void test_admonitions(void) {
  fixture f;
  fx_open(&f);
  const char *src = "A> An aside.\n"
                    "\n"
                    "N> A note with a list:\n"
                    "N>\n"
                    "N> - one\n"
                    "N> - two\n"
                    "N>\n"
                    "N> ```php\n"
                    "N> echo 1;\n"
                    "N> ```\n"
                    "N>\n"
                    "N> > quoted\n"
                    "W> A warning right after.\n"
                    "T> Tip.\n"
                    "E> Error.\n"
                    "I> Information.\n"
                    "Q> Question?\n"
                    "D> Discussion [link](#here).\n"
                    "Plain text after.\n"
                    "\n"
                    "```\n"
                    "N> in code, kept\n"
                    "```\n"
                    "\n"
                    "N>not a prefix\n";
  CHECK_STR(
      html_of(&f, src),
      "<aside class=\"admonition aside\">\n<p>An aside.</p>\n</aside>\n"
      "<div class=\"admonition note\">\n"
      "<p>A note with a list:</p>\n"
      "<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n"
      "<div class=\"code php\"><pre><code class=\"language-php\">echo 1;\n"
      "</code></pre></div>\n"
      "<blockquote>\n<p>quoted</p>\n</blockquote>\n"
      "</div>\n"
      "<div class=\"admonition warning\">\n<p>A warning right "
      "after.</p>\n</div>\n"
      "<div class=\"admonition tip\">\n<p>Tip.</p>\n</div>\n"
      "<div class=\"admonition error\">\n<p>Error.</p>\n</div>\n"
      "<div class=\"admonition information\">\n<p>Information.</p>\n"
      "</div>\n"
      "<div class=\"admonition question\">\n<p>Question?</p>\n</div>\n"
      "<div class=\"admonition discussion\">\n<p>Discussion <a "
      "href=\"#here\">link</a>.</p>\n</div>\n"
      "<p>Plain text after.</p>\n"
      "<div class=\"code\"><pre><code>N&gt; in code, kept\n"
      "</code></pre></div>\n"
      "<p>N&gt;not a prefix</p>\n");
  /* The blank lines put between admonitions do not shift lines. */
  CHECK(f.r.nlinks == 1);
  if (f.r.nlinks == 1)
    CHECK_REF(f.r.links[0], "here", 18, 15);

  /* A block quote right before an admonition stays apart; CRLF and lone CR
   * line ends keep their lines too. */
  CHECK_STR(html_of(&f, "> quote\r\nN> note\r\n\r\ntext\rW> warn\r[l](#x)\r"),
            "<blockquote>\n<p>quote</p>\n</blockquote>\n"
            "<div class=\"admonition note\">\n<p>note</p>\n</div>\n"
            "<p>text</p>\n"
            "<div class=\"admonition warning\">\n<p>warn</p>\n</div>\n"
            "<p><a href=\"#x\">l</a></p>\n");
  CHECK(f.r.nlinks == 1);
  if (f.r.nlinks == 1)
    CHECK_REF(f.r.links[0], "x", 6, 1);

  /* HTML blocks that keep their lines (<pre>, comments) keep prefixes. */
  CHECK_STR(html_of(&f, "<pre>\nN> kept\n\nW> kept\n</pre>\n"
                        "<!--\nN> commented\n-->\n"
                        "<PRE class=\"x\">N> kept</pre>\n"
                        "N> note\n"),
            "<pre>\nN> kept\n\nW> kept\n</pre>\n"
            "<!--\nN> commented\n-->\n"
            /* <PRE> … </pre> is not XML: written again */
            "<pre class=\"x\">N&gt; kept</pre>\n"
            "<div class=\"admonition note\">\n<p>note</p>\n</div>\n");
  fx_close(&f);
}

static void test_page_breaks(void) {
  fixture f;
  fx_open(&f);
  const char *src = "One.\n"
                    "\n"
                    "{pagebreak}\n"
                    "\n"
                    "<!--BREAK-->\n"
                    "\n"
                    "<!-- BREAK -->\n"
                    "\n"
                    "Before <!-- BREAK --> after *this*.\n"
                    "\n"
                    "Line one\n"
                    "<!--BREAK-->\n"
                    "\n"
                    "Ends with <!--BREAK-->\n"
                    "\n"
                    "- item {pagebreak}\n"
                    "\n"
                    "<!-- other comment -->\n";
  CHECK_STR(html_of(&f, src), "<p>One.</p>\n"
                              "<div class=\"page-break\"></div>\n"
                              "<div class=\"page-break\"></div>\n"
                              "<div class=\"page-break\"></div>\n"
                              "<p>Before</p>\n"
                              "<div class=\"page-break\"></div>\n"
                              "<p>after <em>this</em>.</p>\n"
                              "<p>Line one</p>\n"
                              "<div class=\"page-break\"></div>\n"
                              "<p>Ends with</p>\n"
                              "<div class=\"page-break\"></div>\n"
                              "<ul>\n<li>item {pagebreak}</li>\n</ul>\n"
                              "<!-- other comment -->\n");
  fx_close(&f);
}

/* ---- figures and images --------------------------------------------- */

static void test_figures(void) {
  fixture f;
  fx_open(&f);
  fx_hooks(&f);
  f.opt.hooks.figure_html = figure_html;
  f.opt.images_base_dir = "../img/";
  const char *src = "![A *cat* & dog](images/cat.png)\n"
                    "\n"
                    "![ Left](images/left.png \"title\")\n"
                    "\n"
                    "![Right ](right.png)\n"
                    "\n"
                    "  ![ Centre ](http://example.com/c.png)  \n"
                    "\n"
                    "![*](images/deco.png)\n"
                    "\n"
                    "Text ![inline](images/in.png) and ![ * ](/abs.png).\n"
                    "\n"
                    "![](../up.png)\n"
                    "\n"
                    "![x](data:image/png;base64,AAAA) ![y](//cdn/y.png) "
                    "![z](https://h/z.png)\n";
  CHECK_STR(html_of(&f, src),
            "<figure class=\"figure\" id=\"figure-1-1\"><img "
            "src=\"../img/cat.png\" alt=\"A cat &amp; dog\" /><figcaption "
            "class=\"caption\"><strong class=\"label\">Figure 1.1</strong> A "
            "cat &amp; dog</figcaption></figure>\n"
            "<div class=\"fig left\" id=\"figure-1-2\" data-n=\"2\" "
            "data-src=\"../img/left.png\" data-line=\"3\"><img "
            "src=\"../img/left.png\" alt=\"Left\" title=\"title\" /><p>Figure "
            "1.2: Left</p></div>\n"
            "<figure class=\"figure right\" id=\"figure-1-3\"><img "
            "src=\"right.png\" alt=\"Right\" /><figcaption "
            "class=\"caption\"><strong class=\"label\">Figure 1.3</strong> "
            "Right</figcaption></figure>\n"
            "<div class=\"fig center\" id=\"figure-1-4\" data-n=\"4\" "
            "data-src=\"http://example.com/c.png\" data-line=\"7\"><img "
            "src=\"http://example.com/c.png\" alt=\"Centre\" /><p>Figure 1.4: "
            "Centre</p></div>\n"
            "<p><img src=\"../img/deco.png\" alt=\"\" /></p>\n"
            "<p>Text <img src=\"../img/in.png\" alt=\"inline\" /> and <img "
            "src=\"/abs.png\" alt=\"\" />.</p>\n"
            "<figure class=\"figure\" id=\"figure-1-5\"><img src=\"../up.png\" "
            "alt=\"\" /><figcaption class=\"caption\"><strong "
            "class=\"label\">Figure 1.5</strong></figcaption></figure>\n"
            /* a data: URL is refused in every edition: its alt text */
            "<p>x <img src=\"//cdn/y.png\" alt=\"y\" /> <img "
            "src=\"https://h/z.png\" alt=\"z\" /></p>\n");
  CHECK(strstr(f.log, "chapter1.md:15:1: warning: the image "
                      "'data:image/png;base64,AAAA' is a data: URL, which "
                      "cannot be part of a book: its alternative text stands "
                      "in\n") != NULL);
  CHECK(f.r.nfigures == 5);
  if (f.r.nfigures == 5) {
    bk_md_figure *g = f.r.figures;
    CHECK(g[0].number == 1 && g[0].line == 1);
    CHECK_STR(g[0].caption, "A cat &amp; dog");
    CHECK_STR(g[0].label, "Figure 1.1");
    CHECK_STR(g[0].align, "");
    CHECK_STR(g[0].src, "../img/cat.png");
    CHECK_STR(g[1].align, "left");
    CHECK_STR(g[2].align, "right");
    CHECK_STR(g[3].align, "center");
    CHECK_STR(g[4].caption, "");
    CHECK(g[4].line == 13);
  }
  /* Local images as written, with where they were written. */
  CHECK(f.r.nimages == 7);
  if (f.r.nimages == 7) {
    CHECK_REF(f.r.images[0], "images/cat.png", 1, 1);
    CHECK_REF(f.r.images[1], "images/left.png", 3, 1);
    CHECK_REF(f.r.images[2], "right.png", 5, 1);
    CHECK_REF(f.r.images[3], "images/deco.png", 9, 1);
    CHECK_REF(f.r.images[4], "images/in.png", 11, 6);
    CHECK_REF(f.r.images[5], "/abs.png", 11, 35);
    CHECK_REF(f.r.images[6], "../up.png", 13, 1);
  }
  fx_close(&f);

  /* Raw HTML's <img> moves to images_base_dir as a Markdown image does. */
  fx_open(&f);
  fx_hooks(&f);
  f.opt.images_base_dir = "../img/";
  CHECK_STR(html_of(&f, "<p>Raw <img src=\"images/raw.png\" alt=\"r\"> and "
                        "<img src=\"other/o.png\" alt=\"o\"></p>\n"),
            "<p>Raw <img src=\"../img/raw.png\" alt=\"r\" /> and <img "
            "src=\"other/o.png\" alt=\"o\" /></p>\n");
  CHECK(f.r.nimages == 2);
  if (f.r.nimages == 2) {
    CHECK_REF(f.r.images[0], "images/raw.png", 1, 1);
    CHECK_REF(f.r.images[1], "other/o.png", 1, 1);
  }
  fx_close(&f);

  /* No hooks at all: no label, so a caption alone; none: no figcaption. */
  fx_open(&f);
  CHECK_STR(html_of(&f, "![Cap](images/a.png)\n\n![](images/b.png)\n"),
            "<figure class=\"figure\" id=\"figure-1-1\"><img "
            "src=\"images/a.png\" alt=\"Cap\" /><figcaption "
            "class=\"caption\">Cap</figcaption></figure>\n"
            "<figure class=\"figure\" id=\"figure-1-2\"><img "
            "src=\"images/b.png\" alt=\"\" /></figure>\n");
  fx_close(&f);
}

/* ---- tables --------------------------------------------------------- */

static void test_tables(void) {
  fixture f;
  fx_open(&f);
  fx_hooks(&f);
  const char *src = "Table: Before, with *emphasis* {#tab-first}\n"
                    "\n"
                    "| Left | Centre | Right |\n"
                    "|:-----|:------:|------:|\n"
                    "| a    | b      | c     |\n"
                    "\n"
                    "| Plain |\n"
                    "|-------|\n"
                    "| [x](#tab-first) |\n"
                    "\n"
                    "Table: After\n"
                    "\n"
                    "| Bare |\n"
                    "|------|\n"
                    "| 1    |\n"
                    "\n"
                    "Text.\n"
                    "\n"
                    "Table: not next to a table\n";
  CHECK_STR(html_of(&f, src),
            "<figure class=\"table\" id=\"tab-first\"><figcaption "
            "class=\"caption\"><strong class=\"label\">Table 1.1</strong> "
            "Before, with <em>emphasis</em></figcaption><table>\n"
            "<thead>\n<tr>\n"
            "<th style=\"text-align: left\">Left</th>\n"
            "<th style=\"text-align: center\">Centre</th>\n"
            "<th style=\"text-align: right\">Right</th>\n"
            "</tr>\n</thead>\n<tbody>\n<tr>\n"
            "<td style=\"text-align: left\">a</td>\n"
            "<td style=\"text-align: center\">b</td>\n"
            "<td style=\"text-align: right\">c</td>\n"
            "</tr>\n</tbody>\n</table></figure>\n"
            "<figure class=\"table\" id=\"table-1-2\"><figcaption "
            "class=\"caption\"><strong class=\"label\">Table 1.2</strong> "
            "After</figcaption><table>\n"
            "<thead>\n<tr>\n<th>Plain</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n"
            "<td><a href=\"#tab-first\">x</a></td>\n"
            "</tr>\n</tbody>\n</table></figure>\n"
            "<figure class=\"table\" id=\"table-1-3\"><figcaption "
            "class=\"caption\"><strong class=\"label\">Table "
            "1.3</strong></figcaption><table>\n"
            "<thead>\n<tr>\n<th>Bare</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n"
            "<td>1</td>\n"
            "</tr>\n</tbody>\n</table></figure>\n"
            "<p>Text.</p>\n"
            "<p>Table: not next to a table</p>\n");
  CHECK(f.r.ntables == 3);
  if (f.r.ntables == 3) {
    CHECK(f.r.tables[0].number == 1 && f.r.tables[0].line == 3);
    CHECK_STR(f.r.tables[0].id, "tab-first");
    CHECK_STR(f.r.tables[0].caption, "Before, with <em>emphasis</em>");
    CHECK_STR(f.r.tables[0].label, "Table 1.1");
    CHECK(f.r.tables[1].line == 7);
    CHECK_STR(f.r.tables[1].caption, "After");
    CHECK(f.r.tables[2].line == 13);
    CHECK_STR(f.r.tables[2].caption, "");
  }
  CHECK(f.r.nlinks == 1);
  if (f.r.nlinks == 1)
    CHECK_REF(f.r.links[0], "tab-first", 9, 3);
  fx_close(&f);

  /* The theme's table.twig; a caption straight above the table (the table
   * extension takes it off the table's first line), no label hook. */
  fx_open(&f);
  f.opt.hooks.table_html = table_html;
  f.opt.first_line = 10;
  CHECK_STR(html_of(&f, "Intro\n\nTable: Tight\n| a |\n|---|\n| 1 |\n"),
            "<p>Intro</p>\n"
            "<div class=\"tbl\" id=\"table-1-1\" data-line=\"13\">|Tight|"
            "<table>\n<thead>\n<tr>\n<th>a</th>\n</tr>\n</thead>\n<tbody>\n"
            "<tr>\n<td>1</td>\n</tr>\n</tbody>\n</table></div>\n");
  CHECK_STR(html_of(&f, "| a |\n|---|\n"),
            "<div class=\"tbl\" id=\"table-1-1-2\" data-line=\"10\">||"
            "<table>\n<thead>\n<tr>\n<th>a</th>\n</tr>\n</thead>\n"
            "</table></div>\n");
  fx_close(&f);
}

/* ---- code ----------------------------------------------------------- */

static void test_code(void) {
  fixture f;
  fx_open(&f);
  const char *src = "```php\n<?php echo \"a & b\";\n```\n"
                    "\n"
                    "~~~ .js extra words\nvar x;\n~~~\n"
                    "\n"
                    "```{.rb}\nputs 1\n```\n"
                    "\n"
                    "```\nplain\n```\n"
                    "\n"
                    "    [python]\n    print(1)\n"
                    "\n"
                    "text\n"
                    "\n"
                    "    [code]\n    no language\n"
                    "\n"
                    "text\n"
                    "\n"
                    "    just code\n";
  CHECK_STR(
      html_of(&f, src),
      "<div class=\"code php\"><pre><code class=\"language-php\">&lt;?php "
      "echo &quot;a &amp; b&quot;;\n</code></pre></div>\n"
      "<div class=\"code js\"><pre><code class=\"language-js\">var x;\n"
      "</code></pre></div>\n"
      "<div class=\"code rb\"><pre><code class=\"language-rb\">puts 1\n"
      "</code></pre></div>\n"
      "<div class=\"code\"><pre><code>plain\n</code></pre></div>\n"
      "<div class=\"code python\"><pre><code "
      "class=\"language-python\">print(1)\n</code></pre></div>\n"
      "<p>text</p>\n"
      "<div class=\"code\"><pre><code>no language\n</code></pre></div>\n"
      "<p>text</p>\n"
      "<div class=\"code\"><pre><code>just code\n</code></pre></div>\n");
  fx_close(&f);

  /* The theme's code.twig gets the language and the escaped <pre>. */
  fx_open(&f);
  f.opt.hooks.code_html = code_html;
  CHECK_STR(html_of(&f, "```c\nint a<b;\n```\n\n```none\nx\n```\n\n    y\n"),
            "<div class=\"hl\" data-lang=\"c\"><pre><code "
            "class=\"language-c\">int a&lt;b;\n</code></pre></div>\n"
            "<div class=\"code none\"><pre><code "
            "class=\"language-none\">x\n</code></pre></div>\n"
            "<div class=\"hl\" data-lang=\"\"><pre><code>y\n"
            "</code></pre></div>\n");
  CHECK(f.code_calls == 3);
  fx_close(&f);
}

/* ---- footnotes ------------------------------------------------------ */

/* EPUB 3: references marked noteref, each note an aside marked footnote,
 * numbered in its first paragraph, with a translated back link. */
static void test_footnotes_epub(void) {
  fixture f;
  fx_open(&f);
  f.opt.id_prefix = "e";
  f.opt.epub = true;
  f.opt.backref_label = "Volver \"al\" texto";
  CHECK_STR(html_of(&f, "Text[^a].\n\n[^a]: The note.\n"),
            "<p>Text<sup class=\"footnote-ref\"><a href=\"#fn-e-1\" "
            "id=\"fnref-e-1\" epub:type=\"noteref\" role=\"doc-noteref\">1"
            "</a></sup>.</p>\n"
            "<div class=\"footnotes\" role=\"doc-endnotes\">\n"
            "<aside epub:type=\"footnote\" role=\"doc-footnote\" "
            "class=\"footnote\" id=\"fn-e-1\">\n"
            "<p><span class=\"footnote-number\">1.</span> The note. <a "
            "href=\"#fnref-e-1\" class=\"footnote-backref\" "
            "role=\"doc-backlink\" aria-label=\"Volver &quot;al&quot; "
            "texto\">↩</a></p>\n"
            "</aside>\n</div>\n");
  fx_close(&f);
}

static void test_footnotes(void) {
  fixture f;
  fx_open(&f);
  f.opt.id_prefix = "a";
  const char *src = "Second[^z] first[^y], again[^z], missing[^nope].\n"
                    "\n"
                    "| Cell |\n|---|\n| in a cell[^y] |\n"
                    "\n"
                    "[^y]: Note *y*\n"
                    "    with two paragraphs.\n"
                    "\n"
                    "    Second paragraph.\n"
                    "[^z]: Note z.\n"
                    "[^unused]: Never referenced.\n";
  CHECK_STR(html_of(&f, src),
            "<p>Second<sup class=\"footnote-ref\"><a href=\"#fn-a-1\" "
            "id=\"fnref-a-1\" role=\"doc-noteref\">1</a></sup> first<sup "
            "class=\"footnote-ref\"><a href=\"#fn-a-2\" id=\"fnref-a-2\" "
            "role=\"doc-noteref\">2</a></sup>, again<sup "
            "class=\"footnote-ref\"><a href=\"#fn-a-1\" id=\"fnref-a-1-2\" "
            "role=\"doc-noteref\">1</a></sup>, missing[^nope].</p>\n"
            "<figure class=\"table\" id=\"table-a-1\"><table>\n"
            "<thead>\n<tr>\n<th>Cell</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n"
            "<td>in a cell<sup class=\"footnote-ref\"><a href=\"#fn-a-2\" "
            "id=\"fnref-a-2-2\" role=\"doc-noteref\">2</a></sup></td>\n"
            "</tr>\n</tbody>\n</table></figure>\n"
            "<div class=\"footnotes\" role=\"doc-endnotes\">\n<ol>\n"
            "<li id=\"fn-a-1\">\n"
            "<p>Note z. <a href=\"#fnref-a-1\" class=\"footnote-backref\" "
            "role=\"doc-backlink\" aria-label=\"Back to the text\">↩</a> <a "
            "href=\"#fnref-a-1-2\" class=\"footnote-backref\" "
            "role=\"doc-backlink\" aria-label=\"Back to the "
            "text\">↩<sup>2</sup></a></p>\n"
            "</li>\n"
            "<li id=\"fn-a-2\">\n"
            "<p>Note <em>y</em>\nwith two paragraphs.</p>\n"
            "<p>Second paragraph. <a href=\"#fnref-a-2\" "
            "class=\"footnote-backref\" role=\"doc-backlink\" "
            "aria-label=\"Back to the text\">↩</a> <a href=\"#fnref-a-2-2\" "
            "class=\"footnote-backref\" role=\"doc-backlink\" "
            "aria-label=\"Back to the text\">↩<sup>2</sup></a></p>\n"
            "</li>\n</ol>\n</div>\n");
  CHECK(f.r.nids == 7);
  if (f.r.nids == 7) {
    CHECK_STR(f.r.ids[0], "fn-a-1");
    CHECK_STR(f.r.ids[1], "fn-a-2");
    CHECK_STR(f.r.ids[2], "fnref-a-1");
    CHECK_STR(f.r.ids[3], "fnref-a-2");
    CHECK_STR(f.r.ids[4], "fnref-a-1-2");
    CHECK_STR(f.r.ids[5], "fnref-a-2-2");
    CHECK_STR(f.r.ids[6], "table-a-1");
  }
  fx_close(&f);

  /* A note ending in a list gets its back link after it; a reference in a
   * heading stays out of the title the TOC prints. No prefix: plain
   * numbers. */
  fx_open(&f);
  f.opt.id_prefix = NULL;
  CHECK_STR(html_of(&f, "## Heading[^1]\n\n[^1]: - item\n"),
            "<h2 id=\"heading\">Heading<sup class=\"footnote-ref\"><a "
            "href=\"#fn-1\" id=\"fnref-1\" "
            "role=\"doc-noteref\">1</a></sup></h2>\n"
            "<div class=\"footnotes\" role=\"doc-endnotes\">\n<ol>\n"
            "<li id=\"fn-1\">\n<ul>\n<li>item</li>\n</ul>\n"
            "<a href=\"#fnref-1\" class=\"footnote-backref\" "
            "role=\"doc-backlink\" aria-label=\"Back to the text\">↩</a>\n"
            "</li>\n</ol>\n</div>\n");
  CHECK_STR(f.r.headings[0].title, "Heading");
  CHECK_STR(f.r.headings[0].text, "Heading");

  /* cmark drops a duplicate definition with the reference it held: the
   * note it pointed to has no reference left, hence no back link. */
  CHECK_STR(html_of(&f, "[^1]:\n[^1]: note\n| 1 | 2[^1] |\n"),
            "<div class=\"footnotes\" role=\"doc-endnotes\">\n<ol>\n"
            "<li id=\"fn-1-2\">\n</li>\n</ol>\n</div>\n");
  fx_close(&f);
}

/* Without the book's idset and slugger, a render uses its own. */
static void test_without_book(void) {
  oc_arena *a = oc_arena_new();
  bk_md_options opt;
  memset(&opt, 0, sizeof opt);
  bk_md_result r;
  const char *src = "# Chloë\n\n# Chloë\n\n![x](images/x.png)\n";
  CHECK(bk_md_render(a, src, strlen(src), &opt, &r) == 0);
  CHECK_STR(r.html, "<h1 id=\"chloe\">Chloë</h1>\n"
                    "<h1 id=\"chloe-2\">Chloë</h1>\n"
                    "<figure class=\"figure\" id=\"figure-1\"><img "
                    "src=\"images/x.png\" alt=\"x\" /><figcaption "
                    "class=\"caption\">x</figcaption></figure>\n");
  CHECK(r.nimages == 1 && r.images[0].line == 5);
  oc_arena_free(a);
}

/* ---- links, ids of raw HTML, GFM extensions -------------------------- */

static void test_links_and_raw_html(void) {
  fixture f;
  fx_open(&f);
  f.opt.first_line = 5; /* after a front matter, say */
  const char *src =
      "See [one](#one), [out](http://x.org/#a), [top](#).\n"
      "> Quoted [two](#two \"t\").\n"
      "\n"
      "<div id=\"box\" class=x>\n"
      "<a href=\"#three\">3</a> <a href='#four' id=four>\n"
      "<!-- <a href=\"#not\" id=\"not\"> -->\n"
      "</div>\n"
      "\n"
      "Inline <span id=\"inl\">x</span> <a href=\"#five\">5</a>.\n";
  CHECK_STR(html_of(&f, src),
            "<p>See <a href=\"#one\">one</a>, <a "
            "href=\"http://x.org/#a\">out</a>, <a href=\"#\">top</a>.</p>\n"
            "<blockquote>\n<p>Quoted <a href=\"#two\" "
            "title=\"t\">two</a>.</p>\n</blockquote>\n"
            /* unquoted attributes and an <a> left open: written again */
            "<div id=\"box\" class=\"x\">\n"
            "<a href=\"#three\">3</a> <a href=\"#four\" id=\"four\">\n"
            "<!-- <a href=\"#not\" id=\"not\"> -->\n"
            "</a></div>\n"
            "<p>Inline <span id=\"inl\">x</span> <a "
            "href=\"#five\">5</a>.</p>\n");
  CHECK(f.r.nlinks == 5);
  if (f.r.nlinks == 5) {
    CHECK_REF(f.r.links[0], "one", 5, 5);
    CHECK_REF(f.r.links[1], "two", 6, 10);
    CHECK_REF(f.r.links[2], "three", 9, 4);
    CHECK_REF(f.r.links[3], "four", 9, 27);
    CHECK_REF(f.r.links[4], "five", 13, 35);
  }
  CHECK(f.r.nids == 3);
  if (f.r.nids == 3) {
    CHECK_STR(f.r.ids[0], "box");
    CHECK_STR(f.r.ids[1], "four");
    CHECK_STR(f.r.ids[2], "inl");
  }
  /* Raw ids are the writer's: a duplicate is reported, not renamed. */
  CHECK_STR(html_of(&f, "## Box\n\n<p id=\"box\">again</p>\n"),
            "<h2 id=\"box-2\">Box</h2>\n<p id=\"box\">again</p>\n");
  CHECK_STR(f.log, "chapter1.md:7:4: warning: duplicate id 'box'\n");
  fx_close(&f);

  fx_open(&f);
  CHECK_STR(html_of(&f, "- [ ] todo\n- [x] done\n\n~~gone~~ www.example.com "
                        "<b>raw</b>\n\n---\n\nline  \nbreak\n"),
            "<ul>\n<li><input type=\"checkbox\" disabled=\"\" /> todo</li>\n"
            "<li><input type=\"checkbox\" checked=\"\" disabled=\"\" /> "
            "done</li>\n</ul>\n"
            "<p><del>gone</del> <a "
            "href=\"http://www.example.com\">www.example.com</a> "
            "<b>raw</b></p>\n"
            "<hr />\n"
            "<p>line<br />\nbreak</p>\n");
  /* Tabs are CommonMark's: a tab indents code as four spaces do. */
  CHECK_STR(html_of(&f, "\tcode\n"),
            "<div class=\"code\"><pre><code>code\n</code></pre></div>\n");
  fx_close(&f);
}

/* ---- errors --------------------------------------------------------- */

/* Text made of n copies of unit, between head and tail, in f's arena. */
static const char *repeat(fixture *f, const char *head, const char *unit,
                          size_t n, const char *tail) {
  size_t hl = strlen(head), ul = strlen(unit), tl = strlen(tail);
  char *s = oc_arena_alloc(f->a, hl + ul * n + tl + 1);
  memcpy(s, head, hl);
  for (size_t i = 0; i < n; i++)
    memcpy(s + hl + i * ul, unit, ul);
  memcpy(s + hl + ul * n, tail, tl + 1);
  return s;
}

/* cmark-gfm 0.29 walks every emphasis mark before a link each time one
 * closes: priced before it runs, a paragraph past the cap is an error at
 * its first line (650 KB of these took cmark-gfm 14 s), and the cheap
 * shapes of the same size still publish. */
static void test_inline_work(void) {
  fixture f;
  fx_open(&f);
  f.opt.first_line = 3;
  CHECK(fx_render(&f, repeat(&f, "Intro.\n\n", "a *b* [x](u) ", 50000,
                             "\n")) == -1);
  CHECK_STR(f.log,
            "chapter1.md:5:1: error: this paragraph has too many links and "
            "footnote references after emphasis marks for the Markdown "
            "parser (cmark-gfm 0.29 takes time growing with their product: "
            "over 500000000 steps by line 5): split it into shorter "
            "paragraphs, with a blank line between them\n");
  f.log[0] = '\0';
  /* Emphasis inside the links leaves the stack at each link: linear. */
  CHECK(fx_render(&f, repeat(&f, "", "a [*b*](u) ", 50000, "\n")) == 0);
  /* Many short paragraphs: each priced on its own. */
  CHECK(fx_render(&f, repeat(&f, "", "a *b* [x](u) a *b* [x](u)\n\n", 25000,
                             "")) == 0);
  /* Fenced code is not parsed for inlines. */
  CHECK(fx_render(&f, repeat(&f, "```\n", "a *b* [x](u)\n", 50000,
                             "```\n")) == 0);
  CHECK_STR(f.log, "");
  /* The table extension reads the whole paragraph at each line that looks
     like a delimiter row under it (4,000 of these took 7 s), in a block
     quote too; a real table of as many rows, or the same lines split by
     blank lines, costs nothing. */
  CHECK(fx_render(&f, repeat(&f, "Intro.\n\nx\n", "a | b\n-|-|-\n", 4000,
                             "")) == -1);
  CHECK(strstr(f.log, "chapter1.md:5:1: error: this paragraph has too many "
                      "lines like a table's delimiter row") == f.log);
  f.log[0] = '\0';
  CHECK(fx_render(&f, repeat(&f, "> x\n", "> a | b\n> -|-|-\n", 4000, "")) ==
        -1);
  CHECK(strstr(f.log, "chapter1.md:3:1: error: ") == f.log);
  f.log[0] = '\0';
  CHECK(fx_render(&f, repeat(&f, "| a | b |\n| - | - |\n", "| c | d |\n",
                             20000, "")) == 0);
  CHECK(fx_render(&f, repeat(&f, "", "x\na | b\n-|-|-\n\n", 4000, "")) == 0);
  CHECK_STR(f.log, "");
  fx_close(&f);
}

/* Seconds of CPU the render of src takes, the best of three. */
static double render_seconds(fixture *f, const char *src) {
  double best = 1e9;
  for (int run = 0; run < 3; run++) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    CHECK(fx_render(f, src) == 0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double t = (double)(t1.tv_sec - t0.tv_sec) +
               (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    best = t < best ? t : best;
  }
  return best;
}

/* ![![…![x](i.png)…](i.png)](i.png), n images deep. */
static const char *nested_images(fixture *f, size_t n) {
  const char *open = repeat(f, "", "![", n, "x");
  const char *close = repeat(f, "", "](i.png)", n, "\n");
  char *s = oc_arena_alloc(f->a, strlen(open) + strlen(close) + 1);
  strcpy(s, open);
  strcat(s, close);
  return s;
}

/* Repetition and nesting cost their size: an image nested in its own alt
 * text four times deeper takes about four times as long (its alt text was
 * read again for every image around it: sixteen times, 97 s at 100,000
 * deep), and a note referenced many times links back to ten. */
static void test_repetition(void) {
  fixture f;
  fx_open(&f);
  /* Alt texts inside alt texts are read once, and still right: a
   * decorative image has none, an alt text of only one is decorative. */
  CHECK_STR(html_of(&f, "![a ![b ![*](i.png)](i.png) c](o.png)\n\n"
                        "x ![![ * ](i.png)](i.png)\n"),
            "<figure class=\"figure\" id=\"figure-1-1\"><img src=\"o.png\" "
            "alt=\"a b  c\" /><figcaption class=\"caption\">a b  "
            "c</figcaption></figure>\n"
            "<p>x <img src=\"i.png\" alt=\"\" /></p>\n");
  size_t n = 8000;
  double t1 = render_seconds(&f, nested_images(&f, n));
  double t4 = render_seconds(&f, nested_images(&f, 4 * n));
  fprintf(stderr, "markdown: images nested %zu deep %.3f s, %zu deep %.3f s\n",
          n, t1, 4 * n, t4);
  CHECK(t4 < 10 * t1 + 0.05); /* quadratic: 16 times (37 measured) */
  CHECK(f.r.nimages == 4 * n && f.r.nfigures == 1);
  fx_close(&f);

  /* Twelve references: ten links back, and ids for those ten only. */
  fx_open(&f);
  const char *html =
      html_of(&f, repeat(&f, "", "a[^1] ", 12, "\n\n[^1]: The note.\n"));
  size_t backlinks = 0, ids = 0;
  for (const char *p = html; (p = strstr(p, "class=\"footnote-backref\"")); p++)
    backlinks++;
  for (const char *p = html; (p = strstr(p, " id=\"fnref-")); p++)
    ids++;
  CHECK(backlinks == 10 && ids == 10);
  CHECK(strstr(html, "<a href=\"#fn-1-1\" role=\"doc-noteref\">1</a>") !=
        NULL);
  CHECK(strstr(html, "\u21a9<sup>10</sup>") != NULL);
  CHECK(strstr(html, "<sup>11</sup>") == NULL);
  CHECK(f.r.nids == 11);
  size_t before = strlen(html);
  fx_close(&f);
  /* 100,000 more references: each a reference, the note as long. */
  fx_open(&f);
  html = html_of(&f, repeat(&f, "", "a[^1] ", 12 + 100000,
                            "\n\n[^1]: The note.\n"));
  CHECK(strlen(html) - before ==
        100000 * strlen("a<sup class=\"footnote-ref\"><a href=\"#fn-1-1\" "
                        "role=\"doc-noteref\">1</a></sup> "));
  fx_close(&f);
}

/* Ids take a prefix that comes from the book (an item's number) only as id
 * characters; text becomes HTML escaped. */
static void test_id_prefix(void) {
  fixture f;
  fx_open(&f);
  f.opt.id_prefix = "<script>x</script>";
  CHECK_STR(html_of(&f, "A[^1]\n\n![F](f.png)\n\n[^1]: N.\n"),
            "<p>A<sup class=\"footnote-ref\"><a href=\"#fn-x-1\" "
            "id=\"fnref-x-1\" role=\"doc-noteref\">1</a></sup></p>\n"
            "<figure class=\"figure\" id=\"figure-x-1\"><img src=\"f.png\" "
            "alt=\"F\" /><figcaption class=\"caption\">F</figcaption>"
            "</figure>\n"
            "<div class=\"footnotes\" role=\"doc-endnotes\">\n<ol>\n"
            "<li id=\"fn-x-1\">\n<p>N. <a href=\"#fnref-x-1\" "
            "class=\"footnote-backref\" role=\"doc-backlink\" "
            "aria-label=\"Back to the text\">\u21a9</a></p>\n</li>\n</ol>\n"
            "</div>\n");
  /* Id characters stay as they are. */
  f.opt.id_prefix = "IV.b_2";
  CHECK(strstr(html_of(&f, "![F](f.png)\n"), "id=\"figure-IV.b_2-1\"") != NULL);
  CHECK_STR(bk_md_escape(f.a, "<a href=\"x\">&</a>", 17),
            "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;");
  fx_close(&f);
}

static void test_invalid_utf8(void) {
  fixture f;
  fx_open(&f);
  f.opt.first_line = 3;
  CHECK(fx_render(&f, "Fine line\r\nsecond caf\xE9 line\n") == -1);
  CHECK_STR(f.log, "chapter1.md:4:11: error: invalid UTF-8 (byte 0xE9)\n");
  f.log[0] = '\0';
  /* A truncated sequence at the very end, and an overlong one. */
  CHECK(fx_render(&f, "ok \xE2\x82") == -1);
  CHECK_STR(f.log, "chapter1.md:3:4: error: invalid UTF-8 (byte 0xE2)\n");
  f.log[0] = '\0';
  CHECK(fx_render(&f, "a\nb\nlong line of ascii text \xC0\xAF") == -1);
  CHECK_STR(f.log, "chapter1.md:5:25: error: invalid UTF-8 (byte 0xC0)\n");
  f.log[0] = '\0';
  CHECK(fx_render(&f, "é ü 種 \xF0\x9F\x98\x80\n") == 0);
  CHECK_STR(f.log, "");
  /* Empty input: an empty fragment. */
  CHECK(fx_render(&f, "") == 0);
  CHECK_STR(f.r.html, "");
  CHECK(f.r.nheadings == 0 && f.r.nids == 0);
  fx_close(&f);
}

static bool refuse_missing(void *user, const char *src, unsigned line,
                           unsigned col) {
  fixture *f = user;
  if (strstr(src, "missing")) {
    on_report(f, OC_WARNING, "chapter1.md", line, col, "not found");
    return false;
  }
  return true;
}

static bool dead_x(void *user, const char *id, size_t len) {
  (void)user;
  return len == 1 && id[0] == 'x';
}

/* Author mistakes: valid HTML and one located warning each. */
static void test_mistakes(void) {
  fixture f;
  fx_open(&f);
  f.opt.hooks.user = &f;
  f.opt.hooks.image_ok = refuse_missing;
  /* A pseudo-tag is text; <br> and <img> are written well-formed. */
  CHECK_STR(html_of(&f, "Run: composer create-project a/b <your-dir>\n"
                        "now, a<br>b <img src=\"images/x.png\" alt=\"X\">\n"),
            "<p>Run: composer create-project a/b &lt;your-dir&gt;\n"
            "now, a<br />b <img src=\"images/x.png\" alt=\"X\" /></p>\n");
  CHECK_STR(f.log, "chapter1.md:1:34: warning: '<your-dir>' is not an HTML "
                   "element: it is printed as text (write &lt; for a '<' "
                   "that does not start a tag)\n");
  CHECK(f.r.nimages == 1);
  f.log[0] = '\0';
  /* An open comment ends at its paragraph; what follows is kept. */
  CHECK_STR(html_of(&f, "<!-- TODO\nmore\n\nAfter.\n\n# Title {#t}\n"),
            "<!-- TODO\nmore\n-->\n<p>After.</p>\n<h1 id=\"t\">Title</h1>\n");
  CHECK_STR(f.log, "chapter1.md:1:1: warning: this comment is not closed with "
                   "'-->': it ends at the end of its paragraph\n");
  f.log[0] = '\0';
  /* A refused image: its alt text, in a figure's place too. */
  CHECK_STR(html_of(&f, "![A figure](images/missing.png)\n\n"
                        "In ![text](missing.png) and <img src=\"missing.jpg\" "
                        "alt=\"raw\">.\n"),
            "<p>A figure</p>\n<p>In text and raw.</p>\n");
  CHECK(f.r.nfigures == 0 && f.r.nimages == 0);
  /* raw HTML is read before the Markdown's images are visited */
  CHECK_STR(f.log, "chapter1.md:3:29: warning: not found\n"
                   "chapter1.md:1:1: warning: not found\n"
                   "chapter1.md:3:4: warning: not found\n");
  f.log[0] = '\0';
  /* Scripts go; an element left open is closed at its paragraph's end. */
  CHECK_STR(html_of(&f, "<script>x()</script>\n\nSome <b>bold *text*\n"),
            "<p>Some <b>bold <em>text</em></b></p>\n");
  CHECK(strstr(f.log, "1:1: warning: <script> is removed") != NULL);
  CHECK(strstr(f.log, "3:6: warning: <b> is not closed") != NULL);
  f.log[0] = '\0';
  /* Forty levels of quotes: set at sixteen, text kept. */
  char deep[64];
  memset(deep, '>', 40);
  strcpy(deep + 40, " deep\n");
  const char *html = html_of(&f, deep);
  CHECK(strstr(html, "<p>deep</p>") != NULL);
  size_t quotes = 0;
  for (const char *p = html; (p = strstr(p, "<blockquote>")); p++)
    quotes++;
  CHECK(quotes == 16);
  CHECK_STR(f.log, "chapter1.md:1:17: warning: lists and quotes nested more "
                   "than 16 deep: what is deeper is set at level 16\n");
  f.log[0] = '\0';
  /* Upper-case names are not XHTML: written again, silently; SVG keeps
   * its camelCase and gets its namespace. */
  CHECK_STR(html_of(&f,
                    "<DIV CLASS=\"x\">Upper</DIV>\n\n"
                    "An <svg viewBox=\"0 0 1 1\"><circle r=\"1\"/></svg>\n"),
            "<div class=\"x\">Upper</div>\n"
            "<p>An <svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1 "
            "1\"><circle r=\"1\"/></svg></p>\n");
  CHECK_STR(f.log, "");
  /* Dead links: their text. */
  CHECK_STR(bk_md_unlink(f.a, "<p><a href=\"#x\">x</a> <a href=\"#ok\">ok</a>"
                              "<!-- <a href=\"#x\"> --></p>",
                         dead_x, NULL),
            "<p>x <a href=\"#ok\">ok</a><!-- <a href=\"#x\"> --></p>");
  fx_close(&f);
}

/* html_of(md) is html, with a warning "<name> is not closed…" at each
 * "line:col <name>" of the NULL-ended list, in order. */
static void check_open(fixture *f, const char *md, const char *html, ...) {
  CHECK_STR(html_of(f, md), html);
  char want[1024] = "";
  va_list ap;
  va_start(ap, html);
  for (const char *w; (w = va_arg(ap, const char *));) {
    size_t at = strlen(want), sp = strcspn(w, " ");
    snprintf(want + at, sizeof want - at,
             "chapter1.md:%.*s: warning: %s is not closed: it is closed at "
             "the end of its HTML block, before the Markdown that follows\n",
             (int)sp, w, w + sp + 1);
  }
  va_end(ap);
  CHECK_STR(f->log, want);
  f->log[0] = '\0';
}

/* Raw HTML left open before Markdown's blocks: a phrasing element (or a
 * <p>) closes at the end of its HTML block, before the Markdown, and the
 * warning says so; a <div> around Markdown stays as written. */
static void test_open_before_markdown(void) {
  fixture f;
  fx_open(&f);
  /* the case: a span left open in a note, a paragraph after */
  check_open(&f, "<div class=\"note\"><span>never closed\n\nA paragraph.\n\n"
                 "</div>\n",
             "<div class=\"note\"><span>never closed\n</span>\n"
             "<p>A paragraph.</p>\n</div>\n",
             "1:19 <span>", NULL);
  /* at the top level */
  check_open(&f, "<span>\nnever closed\n\nA paragraph.\n",
             "<span>\nnever closed\n</span>\n<p>A paragraph.</p>\n",
             "1:1 <span>", NULL);
  /* em, a and strong before a list */
  check_open(&f, "<div><em>stressed\n\n- one\n- two\n\n</div>\n",
             "<div><em>stressed\n</em>\n<ul>\n<li>one</li>\n<li>two</li>\n"
             "</ul>\n</div>\n",
             "1:6 <em>", NULL);
  check_open(&f, "<div><a href=\"https://example.org/\">a link\n\n1. one\n\n"
                 "</div>\n",
             "<div><a href=\"https://example.org/\">a link\n</a>\n<ol>\n"
             "<li>one</li>\n</ol>\n</div>\n",
             "1:6 <a>", NULL);
  check_open(&f, "<strong>\nbold\n\n- one\n",
             "<strong>\nbold\n</strong>\n<ul>\n<li>one</li>\n</ul>\n",
             "1:1 <strong>", NULL);
  /* a <p> before a heading: HTML ends it there too, so no warning */
  check_open(&f, "<p>some text\n\n# Title {#t}\n",
             "<p>some text\n</p>\n<h1 id=\"t\">Title</h1>\n", NULL);
  /* nested phrasing: each closed and reported, innermost first; the
   * parser's complaint at </div> about them is not repeated */
  check_open(&f, "<div class=\"note\"><span><em>deep\n\nA paragraph.\n\n"
                 "</div>\n",
             "<div class=\"note\"><span><em>deep\n</em></span>\n"
             "<p>A paragraph.</p>\n</div>\n",
             "1:25 <em>", "1:19 <span>", NULL);
  /* spans 70 deep: those past the 64 levels kept lose their tags with a
   * warning of their own, not one each */
  char deep[600] = "<div>";
  for (int i = 0; i < 70; i++)
    strcat(deep, "<span>");
  strcat(deep, "deep\n\nA paragraph.\n\n</div>\n");
  CHECK(strstr(html_of(&f, deep), "</span></span>\n<p>A paragraph.</p>"));
  size_t closed = 0;
  for (const char *p = f.log; (p = strstr(p, "<span> is not closed")); p++)
    closed++;
  CHECK(closed == 63);
  CHECK(strstr(f.log, "nested more than 64 deep") != NULL);
  f.log[0] = '\0';
  /* a <div> around Markdown, as Easybook's notes: kept as written */
  check_open(&f, "<div class=\"note\">\n\nSome *Markdown*.\n\n- a list\n\n"
                 "</div>\n",
             "<div class=\"note\">\n<p>Some <em>Markdown</em>.</p>\n<ul>\n"
             "<li>a list</li>\n</ul>\n</div>\n",
             NULL);
  fx_close(&f);
}

/* ---- SVG, MathML and URLs in raw HTML ------------------------------ */

/* Raw HTML's SVG, MathML and URLs, and Markdown's URLs: what is kept,
 * what goes, a warning for each removal at its column. */
static void test_foreign_raw_html(void) {
  fixture f;
  fx_open(&f);
  /* An honest drawing: names as SVG spells them, its namespaces. */
  CHECK_STR(html_of(&f, "<svg viewBox=\"0 0 9 9\">\n"
                        "<linearGradient id=\"g\"><stop offset=\"0\"/>"
                        "</linearGradient>\n"
                        "<use xlink:href=\"#p\" fill=\"url(#g)\"/>"
                        "<text>T</text>\n</svg>\n"),
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 9 9\" "
            "xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n"
            "<linearGradient id=\"g\"><stop offset=\"0\" /></linearGradient>\n"
            "<use xlink:href=\"#p\" fill=\"url(#g)\" /><text>T</text>\n"
            "</svg>\n");
  CHECK_STR(f.log, "");
  f.log[0] = '\0';
  /* Scripts, events, animations of links, references outside. */
  CHECK_STR(html_of(&f,
                    "<svg onload=\"x()\"><script>x()</script>"
                    "<animate onbegin=\"x()\" attributeName=\"x\"/>"
                    "<set attributeName=\" XLINK:HREF\" to=\"javascript:x()\"/>"
                    "<use href=\"o.svg#a\"/><rect fill=\"url(o.svg#g)\"/>"
                    "<a xlink:href=\"javascript:x()\"><text>a</text></a>"
                    "</svg>\n"),
            "<p><svg xmlns=\"http://www.w3.org/2000/svg\"><animate "
            "attributeName=\"x\" /><rect /><a><text>a</text></a></svg></p>\n");
  CHECK_STR(
      f.log,
      "chapter1.md:1:6: warning: the event attribute 'onload' of <svg> is "
      "removed: a book's pages run no scripts\n"
      "chapter1.md:1:19: warning: <script> is removed with its content: a "
      "book's pages may not hold it (an EPUB reader would refuse the page)\n"
      "chapter1.md:1:48: warning: the event attribute 'onbegin' of <animate> "
      "is removed: a book's pages run no scripts\n"
      "chapter1.md:1:81: warning: <set attributeName=' XLINK:HREF'> is "
      "removed: a drawing in a book may animate neither links nor scripts\n"
      "chapter1.md:1:135: warning: <use href='o.svg#a'> is removed: a drawing "
      "in the text can refer only to elements of its page (#id)\n"
      "chapter1.md:1:162: warning: fill='url(o.svg#g)' of <rect> is removed: a "
      "drawing in the text can refer only to elements of its page (url(#id))\n"
      "chapter1.md:1:186: warning: xlink:href='javascript:x()' of <a> is "
      "removed: a script URL cannot be part of a book\n");
  f.log[0] = '\0';
  /* foreignObject's content is HTML, cleaned as HTML; MathML. */
  CHECK_STR(html_of(&f, "<svg><foreignObject><p onclick=\"x()\">Hi</p>"
                        "</foreignObject></svg> <math><maction "
                        "xlink:href=\"javascript:x()\"><mi>x</mi></maction>"
                        "<annotation-xml><b>y</b></annotation-xml></math>\n"),
            "<p><svg xmlns=\"http://www.w3.org/2000/svg\"><foreignObject><p "
            "xmlns=\"http://www.w3.org/1999/xhtml\">Hi</p></foreignObject></"
            "svg> <math "
            "xmlns=\"http://www.w3.org/1998/Math/MathML\"><maction><mi>x</mi></"
            "maction></math></p>\n");
  CHECK_STR(
      f.log,
      "chapter1.md:1:82: warning: the attribute 'xlink:href' of <maction> is "
      "removed: it is not one of the MathML attributes a book keeps\n"
      "chapter1.md:1:130: warning: <annotation-xml> is removed with its "
      "content: a formula keeps its MathML only\n"
      "chapter1.md:1:24: warning: the event attribute 'onclick' of <p> is "
      "removed: a book's pages run no scripts\n");
  f.log[0] = '\0';
  /* Names that are not SVG's, text where SVG shows none, a namespace
   * that would make the drawing HTML. */
  CHECK_STR(html_of(&f,
                    "<svg xmlns=\"http://www.w3.org/1999/xhtml\">"
                    "stray<b>bold</b><text><tspan>in</tspan><i>it</i>"
                    "</text><circle r=\"1\" bad=\"1\" data-x=\"1\"/></svg>\n"),
            "<p><svg "
            "xmlns=\"http://www.w3.org/2000/svg\"><text><tspan>in</tspan>it</"
            "text><circle r=\"1\" data-x=\"1\" /></svg></p>\n");
  CHECK_STR(f.log,
            "chapter1.md:1:43: warning: this Markdown is inside <svg>, where "
            "SVG and MathML cannot hold it: it is left out\n"
            "chapter1.md:1:48: warning: <b> is not an SVG element: it is "
            "removed with its content\n"
            "chapter1.md:1:82: warning: <i> is not an SVG element: its tags "
            "are removed, its content kept\n"
            "chapter1.md:1:112: warning: the attribute 'bad' of <circle> is "
            "removed: it is not one of the SVG attributes a book keeps\n");
  f.log[0] = '\0';
  /* URLs as a browser reads them. */
  CHECK_STR(html_of(&f, "<a href=\"jav&#x09;ascript:x()\">1</a> "
                        "<a href=\" &#14;javascript:x()\">2</a> "
                        "<a href=\"&#x6A;avascript:x()\">3</a> "
                        "<a href=\"data:text/html,x\">4</a> "
                        "<a href=\"intent:x\">5</a> "
                        "<a href=\"https://e.org/\">6</a> "
                        "<a href=\"mailto:a@e.org\">7</a> "
                        "<a href=\"other.html#x\">8</a>\n"),
            "<p><a>1</a> <a>2</a> <a>3</a> <a>4</a> <a>5</a> <a "
            "href=\"https://e.org/\">6</a> <a href=\"mailto:a@e.org\">7</a> <a "
            "href=\"other.html#x\">8</a></p>\n");
  CHECK_STR(f.log,
            "chapter1.md:1:4: warning: href='jav&#9;ascript:x()' of <a> is "
            "removed: a script URL cannot be part of a book\n"
            "chapter1.md:1:41: warning: href='  javascript:x()' of <a> is "
            "removed: a script URL cannot be part of a book\n"
            "chapter1.md:1:78: warning: href='javascript:x()' of <a> is "
            "removed: a script URL cannot be part of a book\n"
            "chapter1.md:1:114: warning: href='data:text/html,x' of <a> is "
            "removed: a data: URL cannot be part of a book\n"
            "chapter1.md:1:147: warning: href='intent:x' of <a> is removed: a "
            "URL of the scheme 'intent' cannot be part of a book\n");
  f.log[0] = '\0';
  /* Styles that fetch, srcset, prefixes; Markdown's links. */
  CHECK_STR(html_of(&f, "<span style=\"color: red; background: "
                        "u\\72l(x.png)\">a</span> <span style=\"filter: "
                        "url(#f)\" foo:bar=\"1\">b</span> <img src=\"x.png\" "
                        "srcset=\"y.png 2x\" sizes=\"1px\" alt=\"c\"> "
                        "[d](javascript:x()) ![e](data:image/png,x)\n"),
            "<p><span style=\"color: red;\">a</span> <span style=\"filter: "
            "url(#f)\">b</span> <img src=\"x.png\" alt=\"c\" /> d e</p>\n");
  CHECK_STR(
      f.log,
      "chapter1.md:1:7: warning: the style 'background: u\\72l(x.png)' of "
      "<span> is removed: a style attribute's url() can name only an element "
      "of its page (url(#id)); images go in the text as images\n"
      "chapter1.md:1:91: warning: the attribute 'foo:bar' of <span> is "
      "removed: its prefix is not a namespace the book's pages declare\n"
      "chapter1.md:1:129: warning: srcset='y.png 2x' of <img> is removed: the "
      "editions hold the images of src only\n"
      "chapter1.md:1:168: warning: the link 'javascript:x()' is a script URL, "
      "which cannot be part of a book: its text stands without it\n"
      "chapter1.md:1:188: warning: the image 'data:image/png,x' is a data: "
      "URL, which cannot be part of a book: its alternative text stands in\n");
  f.log[0] = '\0';
  /* HTML in a foreignObject is in XHTML's namespace, under an element
   * left out too. */
  CHECK(strstr(html_of(&f, "<svg><foreignObject><center><p>x</p></center>"
                           "</foreignObject></svg>\n"),
               "<foreignObject><p xmlns=\"http://www.w3.org/1999/xhtml\">x"
               "</p></foreignObject>") != NULL);
  /* a style's -moz-binding fetches; a font's name is no binding */
  CHECK_STR(html_of(&f, "<span style=\"font-family: Binding; -moz-binding: "
                        "url(#b)\">x</span>\n"),
            "<p><span style=\"font-family: Binding;\">x</span></p>\n");
  fx_close(&f);
}

int main(void) {
  test_headings();
  test_heading_ids();
  test_ids_across_renders();
  test_admonitions();
  test_admonition_labels();
  test_page_breaks();
  test_figures();
  test_tables();
  test_code();
  test_footnotes();
  test_footnotes_epub();
  test_without_book();
  test_links_and_raw_html();
  test_foreign_raw_html();
  test_inline_work();
  test_repetition();
  test_id_prefix();
  test_invalid_utf8();
  test_mistakes();
  test_open_before_markdown();
  u_cleanup(); /* ICU's caches, so that valgrind sees no leak */
  printf("test_markdown: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
