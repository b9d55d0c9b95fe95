/* The PDF writer: as Easybook's pdf edition did for PrinceXML, the theme's
 * book.twig renders every item into one XHTML document, its style.css.twig
 * (rendered with the edition: page size, margins, two_sided) and the
 * book's own style.css are the style sheets, and the typesetter
 * (ts_engine.h) makes Output/<edition>/book.pdf from them, with the TOC
 * entries as the PDF outline. `--xhtml` also writes the document and the
 * sheets as the engine received them, for theme authors. */
#include "book_site.h"

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "css.h"
#include "lb_linebreak.h"
#include "oc_file.h"
#include "pdf_cover.h"
#include "ts_engine.h"
#include "ts_image.h"

/* The sRGB profile PDF/A's output intent embeds: ICC version 2, as PDF
 * 1.4 reads (Debian's libgs-common). */
#ifndef OCTAVO_SRGB_ICC
#define OCTAVO_SRGB_ICC "/usr/share/color/icc/ghostscript/srgb.icc"
#endif

#ifndef OCTAVO_VERSION
#define OCTAVO_VERSION "0.1.0"
#endif

#define XHTML_NS "http://www.w3.org/1999/xhtml"

typedef struct pdf_job {
  bk_edition *e;
  const char *theme_css_name; /* how messages name the theme's sheet */
  const char *book_css_name;  /* "Resources/Templates/print/style.css" */
  const char *book_css_dir;   /* its folder, relative to the book */
  /* Every local image of the Markdown: the path it wrote (before
     images_base_dir) and where, for messages; by the src its <img> has. */
  struct image_at {
    const char *written;
    const char *file;
    unsigned line, col;
  } * image_at;
  tpl_map *images; /* src → index in image_at (the first place) */
} pdf_job;

/* Where config.yml wrote a value of the edition, for messages. */
static bk_pos edition_pos(bk_edition *e, const char *key) {
  bk_pos pos = {"config.yml", 0, 0};
  char path[300];
  snprintf(path, sizeof path, "book.editions.%s.%s", e->name, key);
  bk_config_where(e->cfg, path, &pos);
  return pos;
}

/* ---- the items ------------------------------------------------------- */

static bool is_body_start(const char *el) {
  return !strcmp(el, "part") || !strcmp(el, "chapter");
}

/* What the print templates need besides the item record: whether the item
 * is front matter (everything before the first part or chapter, numbered
 * in roman) or body, whether it opens the body (the page counter restarts
 * there), and whether it belongs on the back of the page before (the
 * edition notice or licence right after the title page). */
static void mark_matter(bk_edition *e) {
  bool body = false;
  for (size_t i = 0; i < e->nitems; i++) {
    bk_item *it = &e->items[i];
    bool start = !body && is_body_start(it->element);
    if (start)
      body = true;
    bool verso =
        i > 0 && !strcmp(e->items[i - 1].element, "title") &&
        (!strcmp(it->element, "edition") || !strcmp(it->element, "license"));
    bk_set(e, it->record, "matter", bk_s(e, body ? "body" : "front"));
    bk_set(e, it->record, "body_start", tpl_bool(start));
    bk_set(e, it->record, "verso", tpl_bool(verso));
  }
}

/* ---- the document ---------------------------------------------------- */

/* The XHTML is the writer's own: its nesting is capped where the Markdown
 * and raw HTML are read, and a theme's templates nesting deeper are set at
 * the typesetter's cap (TS_MAX_DEPTH, with a warning), so XML_PARSE_HUGE
 * only lifts libxml2's 10 MB bound on one text node (a long paragraph is
 * no mistake) and its 256 levels. */
static xmlDocPtr parse_xml(const char *xml, size_t len, const char *name,
                           bk_xml_error *fe) {
  xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
  if (!ctxt)
    return NULL;
  xmlSetStructuredErrorFunc(fe, bk_xml_keep_first);
  xmlDocPtr doc = xmlCtxtReadMemory(ctxt, xml, (int)len, name, "UTF-8",
                                    XML_PARSE_NONET | XML_PARSE_NOERROR |
                                        XML_PARSE_NOWARNING | XML_PARSE_HUGE |
                                        XML_PARSE_BIG_LINES);
  xmlSetStructuredErrorFunc(NULL, NULL);
  if (doc && !ctxt->wellFormed) {
    xmlFreeDoc(doc);
    doc = NULL;
  }
  xmlFreeParserCtxt(ctxt);
  return doc;
}

static unsigned line_at(const char *s, const char *at) {
  unsigned n = 1;
  for (; s < at; s++)
    n += *s == '\n';
  return n;
}

/* Where each item's output lies in the document, in lines: found once
 * (each item's first 80 bytes, searched in order) when a message first
 * needs it, as a book may have thousands of items and messages. */
typedef struct item_span {
  unsigned start, end;
  const bk_item *item;
} item_span;

typedef struct doc_map {
  bk_edition *e;
  const char *doc;
  item_span *spans;
  size_t n;
  bool made;
} doc_map;

static void doc_map_make(doc_map *m) {
  bk_edition *e = m->e;
  m->made = true;
  m->spans =
      oc_arena_alloc(e->a, (e->nitems ? e->nitems : 1) * sizeof *m->spans);
  const char *from = m->doc;
  unsigned from_line = 1;
  for (size_t i = 0; i < e->nitems; i++) {
    const char *c = e->items[i].decorated;
    size_t clen = c ? strlen(c) : 0;
    if (clen < 16)
      continue;
    char *head = oc_arena_strndup(e->a, c, clen < 80 ? clen : 80);
    const char *at = strstr(from, head);
    if (!at)
      continue;
    unsigned start = from_line + line_at(from, at) - 1;
    m->spans[m->n++] =
        (item_span){start, start + line_at(c, c + clen) - 1, &e->items[i]};
    from_line = start + (*at == '\n');
    from = at + 1;
  }
}

/* The item whose output holds line `line` of the document: the last one
 * that starts at or before it. NULL when none does (book.twig's own). */
static const bk_item *item_at_line(doc_map *m, unsigned line) {
  if (!m->made)
    doc_map_make(m);
  const bk_item *found = NULL;
  for (size_t i = 0; i < m->n && m->spans[i].start <= line; i++)
    if (line <= m->spans[i].end)
      found = m->spans[i].item;
  return found;
}

/* The engine's messages name the document's lines ("book.xhtml:812"):
 * they are passed on at the chapter whose output holds the line. */
typedef struct doc_reporter {
  const oc_reporter *next;
  doc_map *map;
} doc_reporter;

static void report_at_item(void *user, oc_severity sev, const char *file,
                           unsigned line, unsigned col, const char *msg) {
  doc_reporter *r = user;
  if (file && line && !strcmp(file, "book.xhtml")) {
    const bk_item *it = item_at_line(r->map, line);
    if (it && it->file) {
      oc_report(r->next, sev, it->file, 0, 0, "%s", msg);
      return;
    }
  }
  oc_report(r->next, sev, file, line, col, "%s", msg);
}

/* The document must be well-formed XHTML, with <html> in the XHTML
 * namespace as its root: the engine reads it as XML. */
typedef struct doc_holder {
  xmlDocPtr doc;
} doc_holder;

static void free_holder(void *data) {
  doc_holder *h = data;
  if (h->doc)
    xmlFreeDoc(h->doc);
}

/* Parses and checks the document; the tree is the engine's input too (one
 * parse, not two); the caller frees it. */
static int check_document(bk_edition *e, const char *xhtml, size_t len,
                          xmlDocPtr *out) {
  *out = NULL;
  bk_xml_error fe = {0};
  xmlDocPtr doc = parse_xml(xhtml, len, "book.xhtml", &fe);
  bool as_html = false;
  if (!doc) {
    doc_map map = {.e = e, .doc = xhtml};
    const bk_item *it = item_at_line(&map, (unsigned)fe.line);
    /* The line itself, as the user may not find it in the Markdown. */
    const char *l = xhtml;
    for (int k = 1; k < fe.line && l; k++)
      if ((l = strchr(l, '\n')))
        l++;
    int ll = 0;
    while (l && l[ll] && l[ll] != '\n' && ll < 100)
      ll++;
    /* Easybook's books wrote HTML in their Markdown and PrinceXML read it
       as HTML: so does Octavo, through libxml2's HTML parser, and says
       what an XHTML reader would have refused. */
    doc = htmlReadMemory(xhtml, (int)len, "book.xhtml", "UTF-8",
                         HTML_PARSE_NONET | HTML_PARSE_NOERROR |
                             HTML_PARSE_NOWARNING);
    oc_report(e->rep, doc ? OC_WARNING : OC_ERROR,
              it && it->file ? it->file : "book.twig", 0, 0,
              "the PDF's document is not well-formed XHTML (%s, in \"%.*s\"); "
              "%s (XHTML closes every element, as in <br />, and quotes every "
              "attribute)",
              fe.seen ? fe.msg : "not well-formed", ll, l ? l : "",
              doc ? "it is read as HTML, as PrinceXML did"
                  : "it cannot be read as HTML either");
    if (!doc)
      return -1;
    as_html = true;
  }
  xmlNodePtr root = xmlDocGetRootElement(doc);
  bool ok = root && !strcmp((const char *)root->name, "html") &&
            (as_html ||
             (root->ns && !strcmp((const char *)root->ns->href, XHTML_NS)));
  if (!ok) {
    xmlFreeDoc(doc);
    oc_report(e->rep, OC_ERROR, "book.twig", 0, 0,
              "the PDF's document must be XHTML: book.twig must print "
              "<html xmlns=\"" XHTML_NS "\"> as its root element");
    return -1;
  }
  *out = doc;
  return 0;
}

/* ---- the outline ----------------------------------------------------- */

/* Plain text of an HTML title (markup dropped, entities resolved by
 * libxml2), with spaces collapsed. */
static const char *plain_text(bk_edition *e, const char *label,
                              const char *title) {
  const char *frag = oc_arena_printf(e->a, "<t>%s%s%s</t>", label,
                                     label[0] && title[0] ? " " : "", title);
  bk_xml_error fe = {0};
  xmlDocPtr doc = parse_xml(frag, strlen(frag), "title", &fe);
  char *text = NULL;
  if (doc) {
    xmlChar *c = xmlNodeGetContent(xmlDocGetRootElement(doc));
    if (c)
      text = oc_arena_strndup(e->a, (const char *)c, strlen((char *)c));
    xmlFree(c);
    xmlFreeDoc(doc);
  }
  if (!text) {
    /* Not XML (the document check reports why): tags dropped by hand. */
    text = oc_arena_strndup(e->a, frag, strlen(frag));
    char *w = text;
    bool in_tag = false;
    for (const char *r = frag; *r; r++) {
      if (*r == '<')
        in_tag = true;
      else if (*r == '>')
        in_tag = false;
      else if (!in_tag)
        *w++ = *r;
    }
    *w = 0;
  }
  char *w = text;
  bool space = true;
  for (const char *r = text; *r; r++) {
    bool ws = *r == ' ' || *r == '\n' || *r == '\t' || *r == '\r';
    if (ws && space)
      continue;
    *w++ = ws ? ' ' : *r;
    space = ws;
  }
  while (w > text && w[-1] == ' ')
    w--;
  *w = 0;
  return text;
}

/* The entries of the printed TOC (toc.twig's rule): the headings of the
 * items in toc.elements down to toc.deep; an item without headings gets
 * one entry from its label and title. */
static ts_outline_entry *outline(bk_edition *e, size_t *n) {
  int deep = e->ed->toc_deep;
  size_t cap = 0;
  for (size_t i = 0; i < e->nitems; i++)
    cap += e->items[i].nheadings + 1;
  ts_outline_entry *out = oc_arena_alloc(e->a, (cap ? cap : 1) * sizeof *out);
  *n = 0;
  for (size_t i = 0; i < e->nitems; i++) {
    const bk_item *it = &e->items[i];
    if (!bk_strings_has(&e->ed->toc_elements, it->element))
      continue;
    size_t before = *n;
    for (size_t k = 0; k < it->nheadings; k++) {
      const bk_heading *h = &it->headings[k];
      if (h->level > deep)
        continue;
      out[(*n)++] = (ts_outline_entry){
          h->level, plain_text(e, h->label, h->title), h->slug};
    }
    if (*n == before && (it->title[0] || it->label[0]))
      out[(*n)++] =
          (ts_outline_entry){1, plain_text(e, it->label, it->title), it->slug};
  }
  return out;
}

/* ---- style sheets ---------------------------------------------------- */

/* The page size of the edition in pt, from page_size as CSS reads it
 * (A4, A5, letter, Easybook's names, "6in 9in"). */
static int page_size(bk_edition *e, double *w, double *h) {
  const char *size = e->ed->page_size;
  bk_pos pos = edition_pos(e, "page_size");
  css_token *toks;
  size_t n = css_tokenize(e->a, size, strlen(size), pos.file, e->rep, &toks);
  if (!css_read_page_size(toks, n, w, h)) {
    oc_report(e->rep, OC_ERROR, pos.file, pos.line, pos.col,
              "unknown page size '%s' (use a name such as A4, A5, letter or "
              "royal-octavo, or a width and height such as '6in 9in')",
              size);
    return -1;
  }
  return 0;
}

/* ---- print production ------------------------------------------------ */

/* The edition's bleed, crop_marks and pdf_a: what @page rules do not set
 * comes from them. */
/* An edition option that must be one of two words (the first is the
 * default): its value (book_types.h), or -1 after an error at its place
 * in config.yml. */
static int choice(bk_edition *e, const char *key, int value,
                  const char *const *words) {
  if (value >= 0)
    return value;
  bk_pos pos = edition_pos(e, key);
  oc_report(e->rep, OC_ERROR, pos.file, pos.line, pos.col,
            "%s must be %s or %s", key, words[0], words[1]);
  return -1;
}

static int print_options(bk_edition *e, ts_engine_input *in) {
  /* where footnotes go (book_model.c reads it too) and how they count */
  static const char *const where[] = {"page", "end"};
  static const char *const count[] = {"item", "book"};
  if (choice(e, "footnotes", e->ed->footnotes, where) < 0 ||
      choice(e, "footnote_numbering", e->ed->footnote_numbering, count) < 0)
    return -1;
  if (e->ed->has_bleed) {
    bk_pos pos = edition_pos(e, "bleed");
    /* a bare number has no unit: only 0 means something */
    const char *text = e->ed->bleed;
    css_token *toks = NULL;
    size_t n =
        text ? css_tokenize(e->a, text, strlen(text), pos.file, e->rep, &toks)
             : 0;
    css_length l;
    bool zero = text && !strcmp(text, "0");
    if (!zero &&
        (!text || !css_read_length(toks, n, &l) || l.unit == CSS_U_NONE ||
         l.unit == CSS_U_PERCENT || l.value < 0)) {
      oc_report(e->rep, OC_ERROR, pos.file, pos.line, pos.col,
                "bad bleed '%s' (use a length such as 3mm or 0.125in)",
                text ? text : "(not a string)");
      return -1;
    }
    in->bleed = zero ? 0 : css_length_pt(l, 12, 12, 0);
  }
  bk_flag marks = e->ed->crop_marks;
  if (marks == BK_FLAG_TRUE || marks == BK_FLAG_FALSE)
    in->marks = marks == BK_FLAG_TRUE ? TS_MARKS_CROP : 0;
  else if (marks == BK_FLAG_BAD) {
    bk_pos pos = edition_pos(e, "crop_marks");
    oc_report(e->rep, OC_ERROR, pos.file, pos.line, pos.col,
              "crop_marks must be true or false");
    return -1;
  }
  /* tagged (PDF/UA-1) unless the edition says pdf_tagged: false */
  in->untagged = !e->ed->pdf_tagged;
  if (e->ed->pdf_a == BK_FLAG_BAD) {
    bk_pos pos = edition_pos(e, "pdf_a");
    oc_report(e->rep, OC_ERROR, pos.file, pos.line, pos.col,
              "pdf_a must be true or false");
    return -1;
  }
  if (e->ed->pdf_a == BK_FLAG_TRUE) {
    if (access(OCTAVO_SRGB_ICC, R_OK) != 0) {
      bk_pos pos = edition_pos(e, "pdf_a");
      oc_report(e->rep, OC_ERROR, pos.file, pos.line, pos.col,
                "pdf_a needs the sRGB profile " OCTAVO_SRGB_ICC
                " (Debian's package libgs-common)");
      return -1;
    }
    in->pdfa_icc = OCTAVO_SRGB_ICC;
  }
  return 0;
}

/* The cover, where Easybook looked for cover.pdf: Resources/Templates/
 * <edition>/, pdf/, then Resources/Templates/; cover.jpg and cover.png
 * (Octavo's) in the same places, a cover.pdf anywhere first. */
static const char *find_cover(bk_edition *e, bool *is_pdf) {
  const char *dirs[] = {e->name, "pdf", ""};
  const char *names[] = {"cover.pdf", "cover.jpg", "cover.jpeg", "cover.png"};
  for (size_t k = 0; k < 4; k++)
    for (size_t i = 0; i < 3; i++) {
      if (i == 1 && !strcmp(e->name, "pdf"))
        continue;
      const char *rel =
          oc_arena_printf(e->a, "Resources/Templates/%s%s%s", dirs[i],
                          dirs[i][0] ? "/" : "", names[k]);
      bool missing;
      const char *abs = bk_book_path(e, "", rel, rel, 0, 0, &missing);
      if (abs) {
        *is_pdf = k == 0;
        return abs;
      }
    }
  return NULL;
}

/* A cover file replaces the theme's typographic cover, as in Easybook:
 * the cover items leave the contents (and the lists that follow them). */
static void drop_cover_items(bk_edition *e) {
  tpl_list *items = tpl_list_new(e->a, e->nitems);
  tpl_list *figs = tpl_list_new(e->a, e->nitems);
  tpl_list *tabs = tpl_list_new(e->a, e->nitems);
  size_t n = 0;
  for (size_t i = 0; i < e->nitems; i++) {
    if (!strcmp(e->items[i].element, "cover"))
      continue;
    items->items[n] = e->items_list.u.list->items[i];
    figs->items[n] =
        e->figures.type == TPL_LIST ? e->figures.u.list->items[i] : tpl_null();
    tabs->items[n] =
        e->tables.type == TPL_LIST ? e->tables.u.list->items[i] : tpl_null();
    e->items[n++] = e->items[i];
  }
  items->len = figs->len = tabs->len = n;
  e->nitems = n;
  e->items_list = tpl_list_value(items);
  if (e->figures.type == TPL_LIST)
    e->figures = tpl_list_value(figs);
  if (e->tables.type == TPL_LIST)
    e->tables = tpl_list_value(tabs);
}

/* How messages name the theme's sheet: the book's own style.css.twig
 * when it has one, else the built-in theme's. */
static const char *theme_css_name(bk_edition *e) {
  const char *dirs[] = {e->name, e->format, ""};
  for (size_t i = 0; i < 3; i++) {
    const char *rel =
        oc_arena_printf(e->a, "Resources/Templates/%s%sstyle.css.twig", dirs[i],
                        dirs[i][0] ? "/" : "");
    bool missing;
    if (bk_book_path(e, "", rel, "config.yml", 0, 0, &missing))
      return rel;
  }
  return oc_arena_printf(e->a, "theme %s %s/style.css", e->theme.name,
                         e->theme.format);
}

/* The theme's sheet: style.css.twig rendered with `page` (the size in pt,
 * for @page). */
static const char *theme_css(bk_edition *e, double w, double h, size_t *len) {
  tpl_map *page = tpl_map_new(e->a, 4);
  bk_set(e, page, "width", tpl_float(w));
  bk_set(e, page, "height", tpl_float(h));
  bk_set(e, page, "size", bk_s(e, oc_arena_printf(e->a, "%gpt %gpt", w, h)));
  bk_set(e, page, "name", bk_s(e, e->ed->page_size));
  return bk_render(e, "style.css.twig",
                   bk_vars1(e, "page", tpl_map_value(page)), len);
}

/* ---- resources ------------------------------------------------------- */

static bool has_scheme(const char *url) {
  for (const char *c = url; *c && *c != '/'; c++)
    if (*c == ':')
      return true;
  return false;
}

/* The engine asks for the files a sheet (@font-face) or the document (an
 * image) names: relative to the book's style.css, to the book's folder for
 * the theme's sheet, to Contents/ for the document. */
static const char *resolve(void *user, const char *url, const char *base,
                           unsigned line, unsigned col) {
  pdf_job *j = user;
  bk_edition *e = j->e;
  if (has_scheme(url) || url[0] == '/') {
    oc_report(e->rep, OC_ERROR, base, line, col,
              "'%s' is not a file of the book: a PDF can use only fonts and "
              "images inside the book's folder",
              url);
    return NULL;
  }
  const char *dir = "Contents", *rel = url;
  struct image_at *im = NULL;
  if (j->book_css_name && !strcmp(base, j->book_css_name))
    dir = j->book_css_dir;
  else if (!strcmp(base, j->theme_css_name))
    dir = "";
  else {
    /* an image: messages name the Markdown that wrote it */
    tpl_value at;
    if (tpl_map_get_str(j->images, url, strlen(url), &at)) {
      im = &j->image_at[at.u.i];
      rel = im->written;
      base = im->file;
      line = im->line;
      col = im->col;
    }
  }
  bool missing = false;
  const char *abs = bk_book_path(e, dir, rel, base, line, col, &missing);
  if (!abs && missing)
    oc_report(e->rep, OC_ERROR, base, line, col, "'%s' not found in %s%s", rel,
              dir[0] ? dir : "the book's folder", dir[0] ? "/" : "");
  if (abs && !strcmp(dir, "Contents")) {
    unsigned w, h;
    double dpi;
    ts_image_status st = ts_image_probe(abs, &w, &h, &dpi);
    /* a file named for a format it is not in is broken, not foreign */
    const char *dot = strrchr(rel, '.');
    const char *as = !dot                       ? NULL
                     : !strcasecmp(dot, ".png") ? "a PNG image"
                     : !strcasecmp(dot, ".jpg") || !strcasecmp(dot, ".jpeg")
                         ? "a JPEG image"
                     : !strcasecmp(dot, ".gif") ? "a GIF image"
                     : !strcasecmp(dot, ".svg") ? "an SVG image"
                                                : NULL;
    if (st == TS_IMAGE_UNREADABLE || (st == TS_IMAGE_UNSUPPORTED && as)) {
      oc_report(e->rep, OC_WARNING, base, line, col,
                "'%s' cannot be read as %s; its alternative text stands in",
                rel, as ? as : "an image");
      return NULL;
    }
    if (st == TS_IMAGE_UNSUPPORTED) {
      oc_report(e->rep, OC_WARNING, base, line, col,
                "'%s' is not a PNG, JPEG, GIF or SVG image, which are what "
                "a PDF edition can show; its alternative text stands in",
                rel);
      return NULL;
    }
  }
  return abs;
}

/* Where the Markdown wrote each local image, by the src its <img> has
 * (images_base_dir put in place of a leading images/). */
static void image_places(pdf_job *j) {
  bk_edition *e = j->e;
  const char *base = e->ed->images_base_dir;
  bool plain_base =
      !strstr(base, "..") && base[0] != '/' && !strstr(base, "://");
  size_t n = 0;
  for (size_t i = 0; i < e->nitems; i++)
    n += e->items[i].md.nimages;
  j->image_at = oc_arena_calloc(e->a, n ? n : 1, sizeof *j->image_at);
  j->images = tpl_map_new(e->a, 16);
  n = 0;
  for (size_t i = 0; i < e->nitems; i++)
    for (size_t k = 0; k < e->items[i].md.nimages; k++) {
      const bk_md_ref *r = &e->items[i].md.images[k];
      const char *src = r->target;
      if (plain_base && !strncmp(src, "images/", 7))
        src = oc_arena_printf(e->a, "%s%s", base, src + 7);
      tpl_value seen;
      if (tpl_map_get_str(j->images, src, strlen(src), &seen))
        continue;
      j->image_at[n] = (struct image_at){
          r->target, e->items[i].file ? e->items[i].file : "config.yml",
          r->line, r->col};
      tpl_map_set_str(e->a, j->images, src, tpl_int((int64_t)n++));
    }
}

/* ---- metadata -------------------------------------------------------- */

/* A config text, or a list of them, joined with ", "; NULL when empty. */
static const char *joined(bk_edition *e, const bk_strings *l) {
  oc_sb b;
  oc_sb_init(&b, e->a, 64);
  for (size_t i = 0; i < l->n; i++) {
    if (b.len)
      oc_sb_adds(&b, ", ");
    oc_sb_adds(&b, l->v[i]);
  }
  return b.len ? oc_sb_cstr(&b) : NULL;
}

/* The date of the PDF: the publication date (else today, or the day of
 * SOURCE_DATE_EPOCH) at 00:00 UTC, as the EPUB's, so that publishing the
 * same book twice gives the same bytes. */
static int pdf_date(bk_edition *e, time_t *out) {
  const char *date = bk_render_string(
      e, "{{ book.publication_date|default('now')|date('Y-m-d', 'UTC') }}",
      "book.publication_date");
  if (!date)
    return -1;
  struct tm tm = {0};
  if (sscanf(date, "%d-%d-%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday) != 3)
    return -1;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  *out = timegm(&tm);
  return 0;
}

/* ---- the writer ------------------------------------------------------ */

int bk_write_pdf(bk_edition *e, bk_out *o) {
  double width, height;
  if (page_size(e, &width, &height) != 0)
    return -1;
  ts_engine_input in = {0};
  in.image_max_pixels =
      (e->ed->image_max_megapixels ? (uint64_t)e->ed->image_max_megapixels
                                   : TS_IMAGE_MAX_PIXELS / 1000000) *
      1000000;
  in.image_max_ppi =
      e->ed->image_max_ppi ? (unsigned)e->ed->image_max_ppi : TS_IMAGE_MAX_PPI;
  if (print_options(e, &in) != 0)
    return -1;
  bool cover_is_pdf = false;
  const char *cover = find_cover(e, &cover_is_pdf);
  const char *cover_name = cover ? cover + strlen(e->book_dir) + 1 : NULL;
  if (cover) {
    drop_cover_items(e);
    if (cover_is_pdf &&
        (in.front_pages = pdf_cover_pages(cover, cover_name, e->rep)) < 0)
      return -1;
    if (!cover_is_pdf)
      in.cover_image = cover;
  }
  /* two_sided is a checked boolean; the bundled themes' default is true */
  in.two_sided = e->ed->two_sided;
  mark_matter(e);
  if (bk_decorate_items(e) != 0)
    return -1;
  size_t len;
  const char *xhtml =
      bk_render(e, "book.twig", bk_vars1(e, "items", e->items_list), &len);
  xmlDocPtr parsed = NULL;
  if (!xhtml || check_document(e, xhtml, len, &parsed) != 0)
    return -1;
  /* given to the engine, which frees it once read, or freed with the
     edition on an error before */
  doc_holder *dh = oc_arena_alloc(e->a, sizeof *dh);
  dh->doc = parsed;
  oc_arena_defer(e->a, free_holder, dh);

  pdf_job j = {.e = e};
  j.theme_css_name = theme_css_name(e);
  image_places(&j);
  const css_stylesheet *sheets[2];
  size_t nsheets = 0;
  const char *theme_text = NULL;
  size_t theme_len = 0;
  if (e->ed->include_styles) {
    theme_text = theme_css(e, width, height, &theme_len);
    if (!theme_text)
      return -1;
    sheets[nsheets++] = css_parse(e->a, theme_text, theme_len, j.theme_css_name,
                                  CSS_ORIGIN_AUTHOR, e->rep);
  }
  char *book_text = NULL;
  size_t book_len = 0;
  if (e->custom_css) {
    j.book_css_name = e->custom_css + strlen(e->book_dir) + 1;
    char *dir =
        oc_arena_strndup(e->a, j.book_css_name, strlen(j.book_css_name));
    char *slash = strrchr(dir, '/');
    if (slash)
      *slash = 0;
    j.book_css_dir = dir;
    book_text = oc_read_file(e->custom_css, &book_len);
    if (!book_text) {
      oc_report(e->rep, OC_ERROR, j.book_css_name, 0, 0, "cannot read it");
      return -1;
    }
    sheets[nsheets++] = css_parse(e->a, book_text, book_len, j.book_css_name,
                                  CSS_ORIGIN_AUTHOR, e->rep);
  }

  int rc = 0;
  if (e->opt->xhtml &&
      (bk_out_write(e, o, "book.xhtml", xhtml, len) != 0 ||
       (theme_text &&
        bk_out_write(e, o, "theme.css", theme_text, theme_len) != 0) ||
       (book_text &&
        bk_out_write(e, o, "style.css", book_text, book_len) != 0)))
    rc = -1;
  free(book_text);
  if (rc != 0)
    return -1;

  ts_pdf_info info = {0};
  info.title = e->bk.title;
  info.author = e->bk.author;
  info.subject = joined(e, &e->bk.description_list);
  info.keywords = joined(e, &e->bk.keywords);
  info.creator = "Octavo " OCTAVO_VERSION;
  /* BCP 47 wants en-GB where Easybook's config has en_GB. */
  const char *language = e->bk.language;
  char *lang = oc_arena_strndup(e->a, language, strlen(language));
  for (char *c = lang; *c; c++)
    if (*c == '_')
      *c = '-';
  info.language = lang;
  if (pdf_date(e, &info.date) != 0)
    return -1;
  info.has_date = true;

  in.xhtml = xhtml;
  in.len = len;
  in.name = "book.xhtml";
  in.sheets = sheets;
  in.nsheets = nsheets;
  in.lang = lang;
  in.links_checked = true; /* the Markdown's links were, at their lines */
  in.page_width = width;
  in.page_height = height;
  in.resolve = resolve;
  in.resolve_user = &j;
  in.info = info;
  in.outline = outline(e, &in.noutline);
  doc_map map = {.e = e, .doc = xhtml};
  doc_reporter dr = {e->rep, &map};
  oc_reporter located = {report_at_item, &dr};
  in.rep = &located;
  /* the engine frees the document once it has its own tree, unless the
     page starts are to be found in it afterwards */
  in.xml_doc = dh->doc;
  in.page_starts = e->pages_out != NULL;
  in.xml_doc_give = !in.page_starts;
  if (in.xml_doc_give)
    dh->doc = NULL;
  ts_engine_stats stats = {0};
  const char *pdf_path = oc_arena_printf(e->a, "%s/book.pdf", o->tmp_dir);
  /* with a cover PDF the engine's file is the body, merged after it */
  const char *body_path =
      cover_is_pdf ? oc_arena_printf(e->a, "%s/.book-body.pdf", o->tmp_dir)
                   : pdf_path;
  /* Chinese and Japanese break by Unicode's rules, which ICU knows */
  lb_breaker *breaker = lb_new();
  in.line_breaks = lb_breaks;
  in.line_breaks_user = breaker;
  int typeset = ts_engine_render(e->a, &in, body_path, &stats);
  lb_free(breaker);
  if (typeset == 0 && cover_is_pdf) {
    typeset = pdf_cover_merge(cover, cover_name, body_path, pdf_path, e->rep);
    unlink(body_path);
  }
  if (typeset != 0)
    return -1;
  if (e->pages_out) {
    bk_pages_collect(e, dh->doc, stats.page_starts, stats.pages);
    xmlFreeDoc(dh->doc);
    dh->doc = NULL;
  }
  /* -v: what the typesetter did, as a note (only main prints). */
  if (e->opt->verbosity > 0)
    oc_report(e->rep, OC_NOTE, NULL, 0, 0,
              "edition '%s': %zu pages, %zu lines, %d layout pass%s (read "
              "%.2f s, layout %.2f s, pages %.2f s, PDF %.2f s)",
              e->name, stats.pages, stats.lines, stats.passes,
              stats.passes == 1 ? "" : "es", stats.t_read, stats.t_layout,
              stats.t_pages, stats.t_write);
  return 0;
}
