/* Markdown: one content file to an HTML fragment through cmark-gfm (tables,
 * footnotes, strikethrough, autolinks, task lists), with the book's
 * extensions, and what the book model needs to know of it (headings for
 * the TOC, figures, tables, ids, internal links, images).
 *
 * Extensions (docs/guide says how writers use them):
 *  - heading ids `{#id}` at the end of a heading, after closing hashes too
 *    (`## Title ## {#id}`); every heading gets an id: that one, or a unique
 *    slug of its text;
 *  - admonitions: lines prefixed `A>` aside, `N>` note, `W>` warning, `T>`
 *    tip, `E>` error, `I>` information, `Q>` question, `D>` discussion;
 *  - `{pagebreak}` and `<!--BREAK-->` (inner spaces allowed) as page breaks;
 *  - a paragraph holding only an image is a figure (numbered, captioned by
 *    its alt text); spaces around the alt text align it (`![ a](x)` left,
 *    `![a ](x)` right, `![ a ](x)` centre); alt `*` is decorative: never a
 *    figure, never numbered;
 *  - table captions: a paragraph `Table: caption {#id}` right before or
 *    right after a table (pandoc's syntax) captions it;
 *  - fenced code with ``` and ~~~ (info `lang`, `.lang` or `{.lang}`) and
 *    indented code whose first line is `[lang]`;
 *  - footnotes numbered per content file, with ids unique in the book.
 *
 * Markup (valid HTML5 and well-formed XML, void elements self-closed):
 *  - heading: <hN id="ID"><span class="label">LABEL</span> TITLE</hN>;
 *  - admonition: <aside class="admonition aside">…</aside> for A>,
 *    <div class="admonition note|warning|tip|error|information|question|
 *    discussion">…</div> for the others;
 *  - page break: <div class="page-break"></div> (a break inside a paragraph
 *    splits it);
 *  - figure: <figure class="figure ALIGN" id="ID"><img … /><figcaption
 *    class="caption"><strong class="label">LABEL</strong> CAPTION
 *    </figcaption></figure> (no label element without a label, no
 *    figcaption without either);
 *  - table: <figure class="table" id="ID"><figcaption …>…</figcaption>
 *    <table>…</table></figure>, caption first, cells aligned by style;
 *  - code: <div class="code LANG"><pre><code class="language-LANG">…
 *    </code></pre></div>, the text highlighted by hooks.highlight;
 *  - footnotes: <sup class="footnote-ref"><a href="#fn-P-N" id="fnref-P-N"
 *    role="doc-noteref">N</a></sup> (a second reference to a note gets
 *    fnref-P-N-2; past the tenth, no id), and at the end <section class="footnotes"
 *    role="doc-endnotes"><ol><li id="fn-P-N">… <a href="#fnref-P-N"
 *    class="footnote-backref" role="doc-backlink" …>↩</a></li></ol>
 *    (links back to the note's first ten references)
 *    </section>, P being id_prefix ("fn-N" without one).
 *
 * Ids: a {#id} (heading, table caption) is claimed as the walk meets it,
 * before any id is generated, so that generated ones (slugs, figure-…,
 * table-…, fn-…) step aside; a {#id} already in the book is reported and
 * renamed (id-2…). An id="…" of raw HTML cannot be renamed: a duplicate is
 * reported only (and not listed in result.ids).
 *
 * Raw HTML is made well-formed first (book_rawhtml.h), with a warning for
 * each mistake; an image the image_ok hook refuses becomes its alt text.
 *
 * Memory: everything in the result lives in the arena given. */
#ifndef OCTAVO_BOOK_MD_H
#define OCTAVO_BOOK_MD_H

#include <stdbool.h>
#include <stddef.h>

#include "oc_diag.h"
#include "book_slug.h"
#include "tpl_value.h"

typedef struct bk_md_heading {
  int level;         /* 1..6 */
  const char *id;    /* unique in the book */
  const char *title; /* inline HTML of the text, without {#id} and label */
  const char *text;  /* the same as plain text */
  const char *label; /* from hooks.heading_label, "" when none */
  unsigned line;
} bk_md_heading;

typedef struct bk_md_figure {
  int number;          /* per content file, from 1 */
  const char *id;      /* "figure-<id_prefix>-<number>", unique */
  const char *caption; /* inline HTML (the alt text, escaped) */
  const char *label;   /* from hooks.figure_label, "" when none */
  const char *align;   /* "", "left", "right" or "center" */
  const char *src;     /* as written in the <img>, after images_base_dir */
  unsigned line;
} bk_md_figure;

typedef struct bk_md_table {
  int number;          /* per content file, from 1 */
  const char *id;      /* "table-<id_prefix>-<number>", or the caption's
                          {#id}; unique */
  const char *caption; /* inline HTML, "" when none */
  const char *label;   /* from hooks.table_label, "" when none */
  unsigned line;
} bk_md_table;

/* A place in the source: a link to `#target` or a local image. */
typedef struct bk_md_ref {
  const char *target; /* without the '#' for links; the path for images */
  unsigned line, col;
} bk_md_ref;

typedef struct bk_md_hooks {
  void *user;
  /* Label of a heading; counters[1..5] count headings of levels 2..6 as
   * Easybook's do (counters[0] is unused: level 1 is the item's number,
   * which the caller knows). NULL hook or NULL result: no label. */
  const char *(*heading_label)(void *user, int level, const int counters[6]);
  const char *(*figure_label)(void *user, int number);
  const char *(*table_label)(void *user, int number);
  /* Whole-block HTML of a figure, table or code block (the theme's
   * figure.twig, table.twig, code.twig). inner is the <img>, the <table>
   * or the escaped <pre>; NULL hook or result: the module's own markup. */
  const char *(*figure_html)(void *user, const bk_md_figure *f,
                             const char *inner);
  const char *(*table_html)(void *user, const bk_md_table *t,
                            const char *inner);
  /* lang is "" for code without a language. */
  const char *(*code_html)(void *user, const char *lang, const char *inner);
  /* The name of an admonition's kind ("note", "warning"…) in the book's
   * language, given to assistive technology as its aria-label; NULL hook
   * or result: none. */
  const char *(*admonition_label)(void *user, const char *kind);
  /* A local image (Markdown's or raw HTML's <img>), as written: true to
   * keep it; false after the hook reported why not (missing, unreadable,
   * not an image), and then its alt text stands in. NULL: kept. */
  bool (*image_ok)(void *user, const char *src, unsigned line, unsigned col);
  /* Where a local image written src is, as a path relative to Contents/
   * (Easybook looked for `x.png` in Contents/images/: "images/x.png"), or
   * NULL to take src as written. Asked before image_ok, which gets the
   * answer; the <img> then points at it (images_base_dir put in place of
   * its leading images/). NULL hook: as written. */
  const char *(*image_resolve)(void *user, const char *src);
  /* The highlighted HTML of a code block's text (what goes inside its
   * <code>), for a block with a language; line is the line that names
   * it (the fence, or `[lang]`). NULL hook or result: the text escaped. */
  const char *(*highlight)(void *user, const char *lang, const char *code,
                           size_t len, unsigned line);
} bk_md_hooks;

typedef struct bk_md_options {
  const char *file;            /* for messages, e.g. "Contents/chapter1.md" */
  unsigned first_line;         /* line of the source's first line (1) */
  const char *id_prefix;       /* for figure/table/footnote ids: the item's
                                  number or slug ("1", "a", "preface");
                                  slugged unless made of id characters */
  const char *images_base_dir; /* replaces a leading "images/" in local
                                  image sources ("images/" by default;
                                  give the trailing slash) */
  bool extract_title;          /* a leading H1 becomes the title, out of body */
  bool epub;                   /* EPUB 3 notes: epub:type="noteref" on
                                  references, each note an <aside
                                  epub:type="footnote"> */
  bool page_notes;             /* PDF: each note set where it is first
                                  called, <span class="footnote"
                                  id="fn-…">…</span>, for the typesetter to
                                  move to the foot of the page */
  const char *backref_label;   /* aria-label of a note's link back to the
                                  text, in the book's language; NULL: "Back
                                  to the text" */
  bk_idset *ids;               /* the book's ids (NULL: this render's own) */
  bk_slugger *slugger;         /* NULL: one for this render, freed after it */
  const oc_reporter *report;
  bk_md_hooks hooks;
} bk_md_options;

typedef struct bk_md_result {
  const char *html; /* the fragment, NUL-terminated */
  size_t html_len;
  /* The extracted H1 (extract_title): its inline HTML, text and id; NULL
   * when the content does not start with an H1, or without extract_title.
   * It stays headings[0]. Footnote references are left out of every
   * heading's title and text (they stay in the body's heading). */
  const char *title, *title_text, *title_id;
  bk_md_heading *headings;
  size_t nheadings;
  bk_md_figure *figures;
  size_t nfigures;
  bk_md_table *tables;
  size_t ntables;
  const char **ids; /* every id this fragment defines (headings, figures,
                       tables, footnotes and notes' back references, and
                       id="…" attributes of raw HTML) */
  size_t nids;
  bk_md_ref *links; /* internal links (href="#…") to check */
  size_t nlinks;
  bk_md_ref *images; /* local images (no URL scheme, not //host/…), as
                        written (before images_base_dir), to copy; "/…"
                        and "../…" included, for the caller to refuse */
  size_t nimages;
} bk_md_result;

/* Renders src (len bytes, need not be NUL-terminated). Text that is not
 * valid UTF-8 is an error at its line and column (reported, returns -1);
 * problems that do not stop the render (a duplicate {#id}) are warnings.
 * Returns 0 on success. */
int bk_md_render(oc_arena *a, const char *src, size_t len,
                 const bk_md_options *opt, bk_md_result *out);

/* A deep copy of a result into arena a (the Markdown cache of book.h keeps
 * results across publishes). */
void bk_md_result_copy(oc_arena *a, const bk_md_result *from,
                       bk_md_result *to);

/* text[0..len) as HTML text or an attribute's value (& < > " escaped),
 * in arena a. */
const char *bk_md_escape(oc_arena *a, const char *text, size_t len);

/* html with the links to the ids dead() names (href="#id") made plain
 * text: their <a …> and </a> tags left out, what they held kept. Returns
 * html itself when it has none; else a copy in the arena. */
const char *bk_md_unlink(oc_arena *a, const char *html,
                         bool (*dead)(void *user, const char *id, size_t len),
                         void *user);

#endif
