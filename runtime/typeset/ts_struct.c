/* The structure tree of a tagged PDF, from the XHTML's elements: each
 * element the layout meets is given its structure element once (a
 * standard type from its tag, classes and style, or none: its content
 * then goes to its nearest ancestor's), so that every drawn piece can
 * carry a small number (ts_tagref) instead of a pointer into the tree. */
#include <string.h>
#include <strings.h>

#include "ts_engine_int.h"
#include "ts_tag.h"

struct ts_struct {
  ts_tag_elem *e; /* e[0] unused: sid 0 is "none" */
  size_t n, cap;
};

void ts_struct_init(ts_ctx *c) {
  c->tags = oc_arena_calloc(c->a, 1, sizeof *c->tags);
  c->tags->cap = 256;
  c->tags->e = oc_arena_calloc(c->a, c->tags->cap, sizeof *c->tags->e);
  c->tags->n = 1;
}

static uint32_t new_elem(ts_ctx *c, const char *type, uint32_t parent,
                         uint32_t ord) {
  struct ts_struct *s = c->tags;
  s->e = oc_arena_grow_array(c->a, s->e, s->n, &s->cap, s->n + 1, sizeof *s->e);
  s->e[s->n] = (ts_tag_elem){.type = type, .parent = parent, .ord = ord};
  return (uint32_t)s->n++;
}

static bool has_class(const ts_node *n, const char *cls) {
  for (size_t i = 0; i < n->nclasses; i++)
    if (!strcmp(n->classes[i], cls))
      return true;
  return false;
}

static bool is_type(const ts_ctx *c, uint32_t sid, const char *type) {
  return sid && !strcmp(c->tags->e[sid].type, type);
}

/* The alternative text of the first image under n, NULL when none has
 * one. */
static const char *image_alt(const ts_node *n) {
  for (const ts_node *k = n->first; k; k = k->next) {
    if (!k->tag)
      continue;
    if (!strcmp(k->tag, "img")) {
      const char *alt = ts_node_attr(k, "alt");
      return alt && *alt ? alt : NULL;
    }
    const char *alt = image_alt(k);
    if (alt)
      return alt;
  }
  return NULL;
}

/* The first table under n, NULL when none. */
static ts_node *table_in(ts_node *n) {
  for (ts_node *k = n->first; k; k = k->next) {
    if (!k->tag)
      continue;
    if (!strcmp(k->tag, "table"))
      return k;
    ts_node *t = table_in(k);
    if (t)
      return t;
  }
  return NULL;
}

/* A figure that holds a table and no image with alt text: the table's
 * (its caption goes into the Table, as PDF/UA wants a Caption). */
static bool is_table_figure(const ts_node *n) {
  return n && n->tag && !strcmp(n->tag, "figure") && !image_alt(n) &&
         table_in((ts_node *)n);
}

/* The structure type of an element of the document, NULL when its
 * content belongs to its parent's element. */
static const char *type_of(ts_ctx *c, ts_node *n, uint32_t parent) {
  const char *t = n->tag;
  if (!n->parent)
    return "Document";
  if (t[0] == 'h' && t[1] >= '1' && t[1] <= '6' && !t[2]) {
    static const char *const h[] = {"H1", "H2", "H3", "H4", "H5", "H6"};
    return h[t[1] - '1'];
  }
  /* the tags whose type depends on nothing else */
  static const char *const plain[][2] = {{"p", "P"},
                                         {"blockquote", "BlockQuote"},
                                         {"pre", "Code"},
                                         {"table", "Table"},
                                         {"thead", "THead"},
                                         {"tbody", "TBody"},
                                         {"tfoot", "TFoot"},
                                         {"tr", "TR"},
                                         {"th", "TH"},
                                         {"td", "TD"},
                                         {"caption", "Caption"},
                                         {"figcaption", "Caption"},
                                         {"div", "Div"},
                                         {"aside", "Div"},
                                         {"nav", "Div"},
                                         {"header", "Div"},
                                         {"footer", "Div"},
                                         {"main", "Div"},
                                         {"dl", "Div"},
                                         {"dt", "P"},
                                         {"dd", "P"}};
  for (size_t i = 0; i < sizeof plain / sizeof *plain; i++)
    if (!strcmp(t, plain[i][0]))
      return plain[i][1];
  if (!strcmp(t, "section") || !strcmp(t, "article"))
    return has_class(n, "part") ? "Part" : "Sect";
  if (!strcmp(t, "ul") || !strcmp(t, "ol"))
    return has_class(n, "toc-list") || has_class(n, "toc") ? "TOC" : "L";
  if (!strcmp(t, "li"))
    return is_type(c, parent, "TOC") ? "TOCI" : "LI";
  if (!strcmp(t, "code") || !strcmp(t, "kbd") || !strcmp(t, "samp"))
    return is_type(c, parent, "Code") ? NULL : "Code";
  if (!strcmp(t, "figure"))
    return image_alt(n) ? "Figure" : is_table_figure(n) ? NULL : "Div";
  if (!strcmp(t, "img"))
    return is_type(c, parent, "Figure") ? NULL : "Figure";
  if (!strcmp(t, "a") && ts_node_attr(n, "href"))
    return "Link";
  return NULL;
}

/* The nearest ancestor of n that is a block with an element of its own
 * (a paragraph, a list item's body, a cell), NULL when none is. */
static const ts_node *block_of(ts_ctx *c, ts_node *n) {
  for (ts_node *a = n->parent; a && a->parent; a = a->parent) {
    uint32_t sid = ts_struct_of(c, a);
    if (sid && sid != ts_struct_of(c, a->parent) &&
        ts_style_of(c, a)->display != TS_D_INLINE)
      return a;
  }
  return NULL;
}

/* The element's own language when it differs from the document's. */
static const char *own_lang(ts_ctx *c, const ts_node *n) {
  const char *l = ts_node_attr(n, "lang");
  if (!l)
    l = ts_node_attr(n, "xml:lang");
  if (!l || !*l || !n->parent || (c->lang && !strcasecmp(l, c->lang)))
    return NULL;
  return l;
}

uint32_t ts_struct_of(ts_ctx *c, ts_node *n) {
  if (!c->tags || !n)
    return 0;
  if (n->sid_done)
    return n->sid;
  uint32_t parent = n->parent ? ts_struct_of(c, n->parent) : 0;
  /* a table figure's caption is the table's */
  if (n->tag && !strcmp(n->tag, "figcaption") && is_table_figure(n->parent))
    parent = ts_struct_of(c, table_in(n->parent));
  uint32_t sid = parent;
  if (!n->tag) {
    n->sid_done = true;
    return n->sid = parent;
  }
  const ts_cstyle *st = ts_style_of(c, n);
  const char *type = type_of(c, n, parent);
  const char *lang = own_lang(c, n);
  if (st->float_kind == TS_FLOAT_FOOTNOTE) {
    /* the call in a Reference (a Link when it links to the note) where it
       stands; the Note after the block that calls it, as the reader
       finds it after the text of the paragraph */
    uint32_t ref = new_elem(c, "Reference", parent, n->ord);
    if (n->id)
      new_elem(c, "Link", ref, n->ord);
    const ts_node *b = block_of(c, n);
    uint32_t bsid = b ? ts_struct_of(c, (ts_node *)b) : 0;
    const char *bt = bsid ? c->tags->e[bsid].type : "";
    bool para = !strcmp(bt, "P") ||
                (bt[0] == 'H' && bt[1] >= '1' && bt[1] <= '6' && !bt[2]);
    if (para) /* after the paragraph, before what follows it */
      sid = new_elem(c, "Note", c->tags->e[bsid].parent, b->ord_end);
    else if (bsid) /* a cell's, a list item's: last in it */
      sid = new_elem(c, "Note", bsid, b->ord_end + 1);
    else
      sid = new_elem(c, "Note", parent, n->ord);
  } else if (!strcmp(n->tag, "img") && !is_type(c, parent, "Figure") &&
             !(ts_node_attr(n, "alt") && *ts_node_attr(n, "alt"))) {
    sid = 0; /* decorative: an artifact */
  } else if (type && !strcmp(type, "LI")) {
    /* LI, then its Lbl (the marker) and LBody (the content) */
    uint32_t li = new_elem(c, type, parent, n->ord);
    new_elem(c, "Lbl", li, n->ord);
    sid = new_elem(c, "LBody", li, n->ord);
  } else if (type || lang) {
    sid = new_elem(c, type ? type : "Span", parent, n->ord);
    ts_tag_elem *e = &c->tags->e[sid];
    e->lang = lang;
    if (!strcmp(e->type, "Figure"))
      e->alt = !strcmp(n->tag, "img") ? ts_node_attr(n, "alt") : image_alt(n);
    else if (!strcmp(e->type, "TH"))
      e->scope = n->parent && n->parent->parent && n->parent->parent->tag &&
                         !strcmp(n->parent->parent->tag, "thead")
                     ? "Column"
                     : "Row";
  }
  n->sid_done = true;
  return n->sid = sid;
}

ts_tagref ts_struct_text(ts_ctx *c, ts_node *text) {
  if (!c->tags)
    return (ts_tagref){0, 0};
  return (ts_tagref){ts_struct_of(c, text->parent), text->ord};
}

ts_tagref ts_struct_generated(ts_ctx *c, ts_node *n, bool after) {
  if (!c->tags)
    return (ts_tagref){0, 0};
  return (ts_tagref){ts_struct_of(c, n), after ? n->ord_end : n->ord};
}

ts_tagref ts_struct_marker(ts_ctx *c, ts_node *li) {
  uint32_t sid = ts_struct_of(c, li);
  /* an LBody follows its Lbl */
  if (sid && is_type(c, sid, "LBody"))
    return (ts_tagref){sid - 1, li->ord};
  return (ts_tagref){sid, li->ord};
}

ts_tagref ts_struct_note_call(ts_ctx *c, ts_node *note) {
  uint32_t sid = ts_struct_of(c, note);
  if (!sid)
    return (ts_tagref){0, 0};
  /* Reference [Link] Note, made together */
  return (ts_tagref){sid - 1, note->ord};
}

uint32_t ts_struct_link(const ts_ctx *c, uint32_t sid) {
  if (!c->tags)
    return 0;
  for (; sid; sid = c->tags->e[sid].parent)
    if (is_type(c, sid, "Link"))
      return sid;
  return 0;
}

const char *ts_struct_type(const ts_ctx *c, uint32_t sid) {
  return c->tags && sid ? c->tags->e[sid].type : "Artifact";
}

void ts_struct_finish(ts_ctx *c) {
  if (c->tags)
    ts_pdf_tag_elements(c->pdf, c->tags->e, c->tags->n);
}
