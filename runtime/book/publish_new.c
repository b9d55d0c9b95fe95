/* publish new (a new book's folder: config.yml with four editions and two
 * chapters, from the skeletons below) and publish customize (a starter
 * style.css for an edition), for the publish command (publish.c). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "book_fs.h"
#include "book_writers.h"
#include "oc_alloc.h"
#include "publish_cli.h"

/* ---- publish new ---------------------------------------------------- */

static const char skeleton_config[] =
    "# The book's configuration, in Easybook's format. The user guide\n"
    "# (docs/guide) describes every key; these are the ones most books use.\n"
    "book:\n"
    "    title:            \"%s\"\n"
    "    author:           \"Change this: Author Name\"\n"
    "    edition:          \"First edition\"\n"
    "    language:         en        # %s\n"
    "    publication_date: ~         # ~ means the day you publish\n"
    "\n"
    "    # The book's parts, in reading order. Element types: "
    "acknowledgement,\n"
    "    # afterword, appendix, author, chapter, conclusion, cover,\n"
    "    # dedication, edition, epilogue, foreword, glossary, introduction,\n"
    "    # license, lof (list of figures), lot (list of tables), part,\n"
    "    # preface, prologue, title, toc (table of contents).\n"
    "    # `content` is a Markdown file in Contents/.\n"
    "    contents:\n"
    "        - { element: cover }\n"
    "        - { element: toc }\n"
    "        - { element: chapter, number: 1, content: chapter1.md }\n"
    "        - { element: chapter, number: 2, content: chapter2.md }\n"
    "\n"
    "    # Each edition is one published form of the book, written to\n"
    "    # Output/<edition>/ by `publish . <edition>`.\n"
    "    editions:\n"
    "        ebook:                     # an EPUB for e-readers\n"
    "            format:         epub\n"
    "            highlight_code: true\n"
    "            include_styles: true\n"
    "            labels:         [appendix, chapter]  # \"Chapter 1\" labels\n"
    "            theme:          clean\n"
    "            toc:\n"
    "                deep:       1      # heading levels in the contents\n"
    "                elements:   [appendix, chapter, part]\n"
    "\n"
    "        print:                     # a PDF ready for a printer\n"
    "            format:         pdf\n"
    "            highlight_code: true\n"
    "            include_styles: true\n"
    "            isbn:           ~\n"
    "            labels:         [appendix, chapter, figure, table]\n"
    "            margin:\n"
    "                top:        25mm\n"
    "                bottom:     25mm\n"
    "                inner:      30mm   # the binding side\n"
    "                outer:      20mm\n"
    "            page_size:      A4\n"
    "            theme:          clean\n"
    "            toc:\n"
    "                deep:       2\n"
    "                elements:   [appendix, chapter, part]\n"
    "            two_sided:      true   # chapters open on right-hand pages\n"
    "\n"
    "        web:                       # the whole book as one HTML page\n"
    "            format:         html\n"
    "            highlight_code: true\n"
    "            include_styles: true\n"
    "            labels:         [appendix, chapter]\n"
    "            theme:          clean\n"
    "            toc:\n"
    "                deep:       2\n"
    "                elements:   [appendix, chapter]\n"
    "\n"
    "        website:                   # a website, one page per chapter\n"
    "            extends:        web    # every option of web, then these\n"
    "            format:         html_chunked\n"
    "            chunk_level:    1      # 2: one page per section as well\n"
    "            search:         true   # a search box on every page\n";

static const char skeleton_chapter[] =
    "# The title of the %s chapter #\n"
    "\n"
    "Lorem ipsum dolor sit amet, consectetur adipisicing elit, sed do eiusmod\n"
    "tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim\n"
    "veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea\n"
    "commodo consequat.\n"
    "\n"
    "## Ut enim ad minim veniam\n"
    "\n"
    "Duis aute irure dolor in reprehenderit in voluptate velit esse cillum\n"
    "dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non\n"
    "proident, sunt in culpa qui officia deserunt mollit anim id est "
    "laborum.\n";

static int write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "wx");
  if (!f)
    return -1;
  size_t n = strlen(text);
  bool ok = fwrite(text, 1, n, f) == n;
  return fclose(f) == 0 && ok ? 0 : -1;
}

int pub_cmd_new(const char *title, const char *parent) {
  struct stat st;
  if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode)) {
    fprintf(stderr, "publish: error: %s: no such folder\n", parent);
    return 1;
  }
  oc_arena *a = oc_arena_new();
  bk_slugger *sl = bk_slugger_new();
  const char *slug = bk_slug(sl, a, title, strlen(title));
  if (!slug[0])
    slug = "book";
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s/%s", parent, slug);
  for (int k = 1; mkdir(dir, 0777) != 0; k++) {
    if (errno != EEXIST || k > 1000) {
      fprintf(stderr, "publish: error: cannot create %s: %s\n", dir,
              strerror(errno));
      bk_slugger_free(sl);
      oc_arena_free(a);
      return 1;
    }
    snprintf(dir, sizeof dir, "%s/%s-%d", parent, slug, k);
  }
  /* The title goes into a double-quoted YAML string. */
  char quoted[1024];
  size_t q = 0;
  for (const char *p = title; *p && q + 3 < sizeof quoted; p++) {
    if (*p == '"' || *p == '\\')
      quoted[q++] = '\\';
    quoted[q++] = *p;
  }
  quoted[q] = 0;
  char path[PATH_MAX + 32], text[sizeof skeleton_config + 1200];
  int rc = 0;
  snprintf(text, sizeof text, skeleton_config, quoted, bk_i18n_languages(a));
  snprintf(path, sizeof path, "%s/config.yml", dir);
  rc |= write_text(path, text);
  snprintf(path, sizeof path, "%s/Contents/images", dir);
  rc |= bk_mkdirs(path);
  snprintf(path, sizeof path, "%s/Output", dir);
  rc |= bk_mkdirs(path);
  snprintf(text, sizeof text, skeleton_chapter, "first");
  snprintf(path, sizeof path, "%s/Contents/chapter1.md", dir);
  rc |= write_text(path, text);
  snprintf(text, sizeof text, skeleton_chapter, "second");
  snprintf(path, sizeof path, "%s/Contents/chapter2.md", dir);
  rc |= write_text(path, text);
  bk_slugger_free(sl);
  oc_arena_free(a);
  if (rc) {
    fprintf(stderr, "publish: error: cannot write the book in %s: %s\n", dir,
            strerror(errno));
    return 1;
  }
  printf("Created the book in %s\nPublish it with: publish %s\n", dir, dir);
  return 0;
}

/* ---- publish customize ---------------------------------------------- */

static const char starter_css[] =
    "/* Your own styles for edition '%s' (format %s). Octavo links this file\n"
    " * after the theme's css/easybook.css, so whatever you write here wins.\n"
    " * Rename this folder to the format's name (Resources/Templates/%s/) to\n"
    " * use it for every edition of that format. The guide's theme reference\n"
    " * lists every class the theme emits. */\n"
    "\n"
    "/* The page and the text */\n"
    "body { }\n"
    "main { }\n"
    "p { }\n"
    "a { }\n"
    "\n"
    "/* Headings: an item's title is its h1; .label holds \"Chapter 1\" */\n"
    "h1 { }\n"
    "h2 { }\n"
    "h3 { }\n"
    "h1 .label, h2 .label { }\n"
    "\n"
    "/* Items: every element of contents: is a section.item.<element> */\n"
    ".item { }\n"
    ".item.chapter { }\n"
    ".item.appendix { }\n"
    ".item.part { }\n"
    ".item.cover { }\n"
    ".item.dedication { }\n"
    ".item.toc { }\n"
    "\n"
    "/* Figures and tables: .caption holds the caption, .label \"Figure 1.1\" "
    "*/\n"
    "figure.figure { }\n"
    "figure.figure img { }\n"
    "figure.table { }\n"
    "figure .caption { }\n"
    "table { }\n"
    "th, td { }\n"
    "\n"
    "/* Code: div.code.<language> > pre > code */\n"
    "div.code { }\n"
    "pre { }\n"
    "code { }\n"
    "\n"
    "/* Admonitions: A> N> W> T> E> I> Q> D> in the Markdown */\n"
    ".admonition { }\n"
    ".admonition.aside { }\n"
    ".admonition.note { }\n"
    ".admonition.warning { }\n"
    ".admonition.tip { }\n"
    ".admonition.error { }\n"
    ".admonition.information { }\n"
    ".admonition.question { }\n"
    ".admonition.discussion { }\n"
    "\n"
    "/* Footnotes */\n"
    ".footnote-ref { }\n"
    ".footnotes { }\n"
    "\n"
    "/* The table of contents: li.level-1 ... li.level-6 */\n"
    "nav.toc { }\n"
    "nav.toc li { }\n";

/* For a pdf edition: the print theme's page rules and classes, which the
 * typesetter reads (docs/theme-reference.md, "The CSS the PDF engine
 * reads"). */
static const char starter_print_css[] =
    "/* Your own styles for edition '%s' (format %s). Octavo's typesetter\n"
    " * reads this file after the print theme's style sheet, so whatever you\n"
    " * write here wins. Rename this folder to the format's name\n"
    " * (Resources/Templates/%s/) to use it for every edition of that format.\n"
    " * The theme reference lists the CSS the typesetter reads and every\n"
    " * class the print theme emits; publish with --xhtml to see them. */\n"
    "\n"
    "/* Pages: size, margins, running heads and folios */\n"
    "@page { }\n"
    "@page :left { @top-left { } @bottom-left { } }\n"
    "@page :right { @top-right { } @bottom-right { } }\n"
    "@page chapter:first { }\n"
    "\n"
    "/* The text: the typeface goes on html, so the margin boxes have it too "
    "*/\n"
    "html { }\n"
    "body { }\n"
    "p { }\n"
    "p + p { }\n"
    "\n"
    "/* Items: section.item.<element>; headings h1 > .label + .title */\n"
    ".item.chapter { }\n"
    ".item.chapter > h1 .label { }\n"
    ".item.chapter > h1 .title { }\n"
    ".item.part { }\n"
    ".item.cover { }\n"
    "h2 { }\n"
    "h3 { }\n"
    "\n"
    "/* Code, quotations, lists */\n"
    "pre { }\n"
    "code { }\n"
    "blockquote { }\n"
    "ul, ol { }\n"
    "\n"
    "/* Figures (they float to the next page when they do not fit: float:\n"
    " * none keeps them where they are) and tables, with their captions */\n"
    ".figure { }\n"
    ".table { }\n"
    ".caption { }\n"
    "table { }\n"
    "th, td { }\n"
    "\n"
    "/* Footnotes, at the foot of the page: the note, its call in the text\n"
    " * and its number (counter-reset: footnote on body numbers them through\n"
    " * the book instead of in each chapter) */\n"
    ".footnote { }\n"
    ".footnote::footnote-call { }\n"
    ".footnote::footnote-marker { }\n"
    "\n"
    "/* Cross-references: links to a heading, figure or table elsewhere */\n"
    "a.xref::after { }\n"
    "\n"
    "/* The table of contents: ul.toc-list > li.<element>.level-N > a */\n"
    ".toc-list li { }\n"
    ".toc-list a::after { }\n";

int pub_cmd_customize(const char *dir, const char *edition) {
  report_state st = {false, 0, 0, 0, 0, {0}, NULL};
  oc_reporter rep = {pub_print_diag, &st};
  char *book_dir = pub_book_folder(dir);
  if (!book_dir)
    return 1;
  oc_arena *a = oc_arena_new();
  int rc = 1;
  bk_config *cfg = bk_config_load(a, book_dir, NULL, &rep);
  if (!cfg)
    goto out;
  const bk_edition_conf *ed = bk_config_edition_conf(cfg, edition);
  if (!ed) {
    oc_report(&rep, OC_ERROR, NULL, 0, 0, "the book has no edition '%s'",
              edition);
    goto out;
  }
  const char *format = ed->format;
  char path[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/Resources/Templates/%s", book_dir, edition);
  if (bk_mkdirs(path) != 0) {
    fprintf(stderr, "publish: error: cannot create %s: %s\n", path,
            strerror(errno));
    goto out;
  }
  snprintf(path, sizeof path, "%s/Resources/Templates/%s/style.css", book_dir,
           edition);
  char text[sizeof starter_css + sizeof starter_print_css + 256];
  snprintf(text, sizeof text,
           strcasecmp(format, "pdf") == 0 ? starter_print_css : starter_css,
           edition, format, format);
  if (write_text(path, text) != 0) {
    fprintf(stderr, "publish: error: cannot write %s: %s\n", path,
            errno == EEXIST ? "it exists already (remove it first)"
                            : strerror(errno));
    goto out;
  }
  printf("Wrote %s\n", path);
  rc = 0;
out:
  oc_hidx_free(&st.seen);
  oc_arena_free(a);
  free(book_dir);
  return rc;
}
