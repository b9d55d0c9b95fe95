/* The document side of the engine: the XHTML read by libxml2 into the
 * engine's own node tree (strings in the arena, so the cascade's DOM
 * callbacks allocate nothing), and computed styles: the cascade's winning
 * declarations turned into points, colours, faces and keywords. */
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ts_engine_int.h"

/* ---- the node tree --------------------------------------------------- */

static const char *dom_tag(const void *el) {
  return ((const ts_node *)el)->tag;
}
static const char *dom_id(const void *el) { return ((const ts_node *)el)->id; }
static bool dom_has_class(const void *el, const char *cls) {
  const ts_node *n = el;
  for (size_t i = 0; i < n->nclasses; i++)
    if (strcmp(n->classes[i], cls) == 0)
      return true;
  return false;
}
const char *ts_node_attr(const ts_node *n, const char *name) {
  for (size_t i = 0; i + 1 < n->nattrs * 2; i += 2)
    if (strcmp(n->attrs[i], name) == 0)
      return n->attrs[i + 1];
  return NULL;
}
static const char *dom_attr(const void *el, const char *name) {
  return ts_node_attr(el, name);
}
static const void *dom_parent(const void *el) {
  const ts_node *p = ((const ts_node *)el)->parent;
  return p && p->tag ? p : NULL;
}
static const char *const *dom_classes(const void *el, size_t *n) {
  const ts_node *e = el;
  *n = e->nclasses;
  return e->classes;
}

static const void *dom_prev(const void *el) {
  return ((const ts_node *)el)->prev_el;
}

static const char *adup(oc_arena *a, const xmlChar *s) {
  return s ? oc_arena_strndup(a, (const char *)s, strlen((const char *)s))
           : NULL;
}

/* The list is allocated at its exact size: one per element with a class. */
static size_t split_classes(oc_arena *a, const char *v, const char ***out) {
  size_t n = 0, cap = 0;
  for (const char *p = v; *p;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
      p++;
    if (*p)
      cap++;
    while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
      p++;
  }
  const char **list = oc_arena_alloc(a, (cap ? cap : 1) * sizeof *list);
  while (*v) {
    while (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r')
      v++;
    const char *s = v;
    while (*v && *v != ' ' && *v != '\t' && *v != '\n' && *v != '\r')
      v++;
    if (v == s)
      break;
    list = oc_arena_grow_array(a, list, n, &cap, n + 1, sizeof *list);
    list[n++] = oc_arena_strndup(a, s, (size_t)(v - s));
  }
  *out = list;
  return n;
}

/* One node of x, its children not yet made. *ord counts the nodes in
 * document order: a tagged PDF's structure orders its elements' content by
 * it. */
static ts_node *make_node(oc_arena *a, xmlNode *x, ts_node *parent,
                          uint32_t *ord) {
  ts_node *n = oc_arena_calloc(a, 1, sizeof *n);
  n->parent = parent;
  n->line = (unsigned)xmlGetLineNo(x);
  n->ord = n->ord_end = (*ord)++;
  if (x->type == XML_TEXT_NODE || x->type == XML_CDATA_SECTION_NODE) {
    n->text_len = x->content ? strlen((const char *)x->content) : 0;
    n->text = oc_arena_strndup(a, (const char *)x->content, n->text_len);
    return n;
  }
  /* Tag names are compared lower-cased, as HTML's are. */
  size_t tl = strlen((const char *)x->name);
  char *tag = oc_arena_strndup(a, (const char *)x->name, tl);
  for (char *p = tag; *p; p++)
    if (*p >= 'A' && *p <= 'Z')
      *p = (char)(*p - 'A' + 'a');
  n->tag = tag;
  size_t na = 0;
  for (xmlAttr *at = x->properties; at; at = at->next)
    na++;
  n->attrs = oc_arena_alloc(a, (na ? na : 1) * 2 * sizeof *n->attrs);
  for (xmlAttr *at = x->properties; at; at = at->next) {
    xmlChar *v = xmlNodeListGetString(x->doc, at->children, 1);
    const char *name = adup(a, at->name);
    /* xml:lang is the same as lang for the engine. */
    if (at->ns && at->ns->prefix &&
        strcmp((const char *)at->ns->prefix, "xml") == 0 &&
        strcmp(name, "lang") == 0)
      name = "xml:lang";
    const char *val = v ? adup(a, v) : "";
    xmlFree(v);
    n->attrs[n->nattrs * 2] = name;
    n->attrs[n->nattrs * 2 + 1] = val;
    n->nattrs++;
    if (strcmp(name, "id") == 0)
      n->id = val;
    else if (strcmp(name, "class") == 0)
      n->nclasses = split_classes(a, val, &n->classes);
  }
  return n;
}

/* An element whose children are being made: the xml child next to read,
 * and the frame of the node that takes them (`owner`: this one, or, for an
 * element left out below the cap, the frame of the node at the cap). An
 * owner keeps its last child and last child element so far. */
typedef struct dom_frame {
  xmlNode *next;
  size_t owner;
  ts_node *into;
  ts_node *last, *prev_el;
  bool cut; /* an element was left out below it */
} dom_frame;

static bool dom_kept(const xmlNode *x) {
  return x->type == XML_ELEMENT_NODE || x->type == XML_TEXT_NODE ||
         x->type == XML_CDATA_SECTION_NODE;
}

/* Elements nested deeper than TS_MAX_DEPTH are left out and their content
 * given to the element at that depth (text, images and all): every later
 * walk of the engine (cascade, layout, tables, structure tree, drawing,
 * where pages start) may then recurse, its depth bounded. This walk keeps
 * its stack on the heap, as the document's depth is not known yet. */
static ts_node *convert(ts_ctx *c, xmlNode *x, uint32_t *ord) {
  dom_frame *st = NULL;
  size_t n = 0, cap = 0, depth = 1; /* the frames of nodes made */
  unsigned cuts = 0;
  size_t xel = 0; /* XHTML elements met */
  ts_node *root = make_node(c->a, x, NULL, ord);
  root->xel = xel++;
  st = oc_arena_grow_array(c->a, st, n, &cap, n + 1, sizeof *st);
  st[n++] = (dom_frame){.next = x->children, .owner = 0, .into = root};
  while (n) {
    size_t top = n - 1;
    xmlNode *ch = st[top].next;
    while (ch && !dom_kept(ch))
      ch = ch->next;
    if (!ch) {
      if (st[top].owner == top) {
        st[top].into->ord_end = *ord - 1;
        depth--;
      }
      n--;
      continue;
    }
    st[top].next = ch->next;
    dom_frame *o = &st[st[top].owner];
    size_t ch_xel = ch->type == XML_ELEMENT_NODE ? xel++ : 0;
    if (ch->type == XML_ELEMENT_NODE && depth >= TS_MAX_DEPTH) {
      if (!o->cut) {
        o->cut = true;
        if (cuts++ < TS_DEPTH_WARNINGS)
          oc_report(c->rep, OC_WARNING, c->in->name, (unsigned)xmlGetLineNo(ch),
                    0,
                    "elements nested more than %d deep: the deeper ones are "
                    "left out, their content kept at level %d",
                    TS_MAX_DEPTH, TS_MAX_DEPTH);
      }
      size_t owner = st[top].owner;
      st = oc_arena_grow_array(c->a, st, n, &cap, n + 1, sizeof *st);
      st[n++] = (dom_frame){.next = ch->children, .owner = owner};
      continue;
    }
    ts_node *k = make_node(c->a, ch, o->into, ord);
    k->xel = ch_xel;
    if (k->tag) {
      k->prev_el = o->prev_el;
      o->prev_el = k;
    }
    if (o->last)
      o->last->next = k;
    else
      o->into->first = k;
    o->last = k;
    if (k->tag) {
      st = oc_arena_grow_array(c->a, st, n, &cap, n + 1, sizeof *st);
      st[n] = (dom_frame){.next = ch->children, .owner = n, .into = k};
      n++;
      depth++;
    }
  }
  if (cuts > TS_DEPTH_WARNINGS)
    oc_report(c->rep, OC_WARNING, c->in->name, 0, 0,
              "%u more elements hold elements nested more than %d deep, "
              "set the same way",
              cuts - TS_DEPTH_WARNINGS, TS_MAX_DEPTH);
  return root;
}

static void xml_error(void *user, const char *msg, ...) {
  (void)user, (void)msg;
}

ts_node *ts_dom_load(ts_ctx *c) {
  c->dom = (css_dom){dom_tag,    dom_id,   dom_has_class, dom_attr,
                     dom_parent, dom_prev, true,          dom_classes};
  xmlDoc *doc = c->in->xml_doc;
  bool own = !doc || c->in->xml_doc_give;
  if (!doc) {
    xmlSetGenericErrorFunc(NULL, xml_error);
    /* XML_PARSE_HUGE: libxml2's 256 levels would refuse what convert
       sets at its cap with a warning */
    doc = xmlReadMemory(c->in->xhtml, (int)c->in->len, c->in->name, "UTF-8",
                        XML_PARSE_NONET | XML_PARSE_NOERROR |
                            XML_PARSE_NOWARNING | XML_PARSE_HUGE);
  }
  if (!doc) {
    const xmlError *e = xmlGetLastError();
    oc_report(c->rep, OC_ERROR, c->in->name, e ? (unsigned)e->line : 0,
              e ? (unsigned)e->int2 : 0, "the document is not well-formed: %s",
              e && e->message ? e->message : "unknown error");
    return NULL;
  }
  xmlNode *r = xmlDocGetRootElement(doc);
  uint32_t ord = 1;
  ts_node *root = r ? convert(c, r, &ord) : NULL;
  if (own)
    xmlFreeDoc(doc);
  if (!root)
    oc_report(c->rep, OC_ERROR, c->in->name, 0, 0, "the document is empty");
  return root;
}

/* ---- computed values ------------------------------------------------- */

static const char *kw_of(const css_decl *d) {
  return d ? css_read_keyword(d->value, d->nvalue) : NULL;
}

static bool kw_is(const css_decl *d, const char *k) {
  const char *v = kw_of(d);
  return v && strcasecmp(v, k) == 0;
}

/* A keyword property's value: the number of its keyword in t (ended by a
 * NULL keyword), or dflt when it has none or one t does not know. */
typedef struct kw_value {
  const char *kw;
  int value;
} kw_value;

static int kw_enum(const css_decl *d, const kw_value *t, int dflt) {
  const char *v = kw_of(d);
  for (; v && t->kw; t++)
    if (!strcasecmp(v, t->kw))
      return t->value;
  return dflt;
}

static const kw_value text_aligns[] = {{"justify", TS_ALIGN_JUSTIFY},
                                       {"center", TS_ALIGN_CENTER},
                                       {"right", TS_ALIGN_RIGHT},
                                       {"end", TS_ALIGN_RIGHT},
                                       {NULL, 0}};
static const kw_value white_spaces[] = {{"pre", TS_WS_PRE},
                                        {"nowrap", TS_WS_NOWRAP},
                                        {"pre-wrap", TS_WS_PRE_WRAP},
                                        {"pre-line", TS_WS_PRE_LINE},
                                        {NULL, 0}};
static const kw_value vertical_aligns[] = {
    {"super", TS_VA_SUPER},   {"sub", TS_VA_SUB},       {"top", TS_VA_TOP},
    {"middle", TS_VA_MIDDLE}, {"bottom", TS_VA_BOTTOM}, {NULL, 0}};
static const kw_value text_transforms[] = {{"uppercase", TS_TT_UPPER},
                                           {"lowercase", TS_TT_LOWER},
                                           {"capitalize", TS_TT_CAPITALIZE},
                                           {NULL, 0}};

/* float: footnote makes a footnote; top or bottom (with unless-fit or
 * next, which are read the same way) a figure that moves to the top of
 * the next page when it does not fit where it stands. */
static int float_of(const css_decl *d) {
  int k = TS_FLOAT_NONE;
  for (size_t i = 0; d && i < d->nvalue; i++) {
    const css_token *t = &d->value[i];
    if (t->type != CSS_T_IDENT)
      continue;
    if (!strcasecmp(t->text, "footnote"))
      return TS_FLOAT_FOOTNOTE;
    if (!strcasecmp(t->text, "top") || !strcasecmp(t->text, "bottom"))
      k = TS_FLOAT_PAGE;
  }
  return k;
}

static double len_of(const css_decl *d, double em, double rem, double pct,
                     double fallback) {
  css_length l;
  if (!d || !css_read_length(d->value, d->nvalue, &l))
    return fallback;
  return css_length_pt(l, em, rem, pct);
}

ts_rgb ts_color_of(const css_decl *d, ts_rgb fallback) {
  css_color col;
  if (!d || !css_read_color(d->value, d->nvalue, &col) || col.transparent)
    return fallback;
  return (ts_rgb){col.r / 255.0, col.g / 255.0, col.b / 255.0};
}

static int weight_of(const css_decl *d, int parent) {
  if (!d)
    return 400;
  const char *k = kw_of(d);
  if (k) {
    if (!strcasecmp(k, "bold"))
      return 700;
    if (!strcasecmp(k, "normal"))
      return 400;
    if (!strcasecmp(k, "bolder"))
      return parent >= 600 ? 900 : 700;
    if (!strcasecmp(k, "lighter"))
      return parent > 500 ? 400 : 100;
    return 400;
  }
  for (size_t i = 0; i < d->nvalue; i++)
    if (d->value[i].type == CSS_T_NUMBER)
      return (int)d->value[i].num;
  return 400;
}

/* The weight through inheritance: font-weight is inherited, so the winning
 * declaration is the nearest one up the tree; bolder/lighter are relative
 * to the parent's, which the cascade does not resolve, so 400 is assumed
 * under them. */
ts_face *ts_style_face(ts_ctx *c, const css_style *css) {
  const css_decl *fam = css->decl[CSS_P_FONT_FAMILY];
  const char **names = NULL;
  size_t nn = 0;
  static const char *serif[] = {"serif"};
  if (fam)
    nn = css_read_font_family(c->a, fam->value, fam->nvalue, &names);
  if (!nn) {
    names = serif;
    nn = 1;
  }
  int w = weight_of(css->decl[CSS_P_FONT_WEIGHT], 400);
  const char *st = kw_of(css->decl[CSS_P_FONT_STYLE]);
  bool italic = st && (!strcasecmp(st, "italic") || !strcasecmp(st, "oblique"));
  bool matched = true;
  ts_face *f = ts_fonts_match(c->fonts, names, nn, w, italic, &matched);
  if (!matched && fam)
    ts_warn_font(c, fam, names[0]);
  return f;
}

static const char *page_name_of(const css_decl *d) {
  const char *k = kw_of(d);
  if (!k || !strcasecmp(k, "auto"))
    return NULL;
  return k;
}

static int break_of(const css_decl *d) {
  const char *k = kw_of(d);
  if (!k)
    return TS_BRK_AUTO;
  if (!strcasecmp(k, "always") || !strcasecmp(k, "page"))
    return TS_BRK_PAGE;
  if (!strcasecmp(k, "left") || !strcasecmp(k, "verso"))
    return TS_BRK_LEFT;
  if (!strcasecmp(k, "right") || !strcasecmp(k, "recto"))
    return TS_BRK_RIGHT;
  if (!strcasecmp(k, "avoid") || !strcasecmp(k, "avoid-page"))
    return TS_BRK_AVOID;
  return TS_BRK_AUTO;
}

static int int_of(const css_decl *d, int fallback) {
  if (d)
    for (size_t i = 0; i < d->nvalue; i++)
      if (d->value[i].type == CSS_T_NUMBER)
        return (int)d->value[i].num;
  return fallback;
}

static int display_of(const char *k) {
  static const struct {
    const char *name;
    int display;
  } map[] = {
      {"none", TS_D_NONE},
      {"list-item", TS_D_LIST_ITEM},
      {"inline", TS_D_INLINE},
      {"inline-block", TS_D_INLINE_BLOCK},
      {"table", TS_D_TABLE},
      {"table-row", TS_D_TABLE_ROW},
      {"table-cell", TS_D_TABLE_CELL},
      {"table-header-group", TS_D_TABLE_HEADER_GROUP},
      {"table-row-group", TS_D_TABLE_ROW_GROUP},
      {"table-footer-group", TS_D_TABLE_FOOTER_GROUP},
      {"table-caption", TS_D_TABLE_CAPTION},
      {"table-column", TS_D_TABLE_COLUMN},
      {"table-column-group", TS_D_TABLE_COLUMN},
  };
  if (!k)
    return TS_D_INLINE;
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (!strcasecmp(k, map[i].name))
      return map[i].display;
  return TS_D_BLOCK;
}

void ts_style_compute(ts_ctx *c, ts_node *n, const ts_cstyle *parent,
                      ts_cstyle *s, const css_style *css) {
  memset(s, 0, sizeof *s);
  s->css = css;
  const css_decl *const *d = css->decl;
  double em = css->font_size_pt, rem = css->root_font_size_pt;
  /* libharu sets text from 0 to 600pt: beyond, the PDF could not be made */
  if (!(em > 0.01) || em > 600) {
    if (!c->warned_size)
      oc_report(c->rep, OC_WARNING, c->in->name, n ? n->line : 0, 0,
                "font size %gpt is outside the 0.01pt to 600pt a PDF can "
                "set; %gpt is used",
                em, em > 600 ? 600.0 : 0.01);
    c->warned_size = true;
    em = em > 600 ? 600 : 0.01;
  }
  s->size = em;
  s->face = ts_style_face(c, css);
  /* line-height: a number or "normal" scales with the element's own font
     size; a length is inherited as computed. */
  const css_decl *lh = d[CSS_P_LINE_HEIGHT];
  css_length l;
  if (lh && css_read_length(lh->value, lh->nvalue, &l)) {
    if (l.unit == CSS_U_NONE)
      s->line_height = l.value * em;
    else if (l.unit == CSS_U_PERCENT || l.unit == CSS_U_EM)
      s->line_height = css_length_pt(l, em, rem, em);
    else
      s->line_height = css_length_pt(l, em, rem, em);
  } else {
    s->line_height = 1.2 * em;
  }
  s->color = ts_color_of(d[CSS_P_COLOR], (ts_rgb){0, 0, 0});
  s->align = kw_enum(d[CSS_P_TEXT_ALIGN], text_aligns, TS_ALIGN_LEFT);
  s->indent = len_of(d[CSS_P_TEXT_INDENT], em, rem, c->content_width, 0);
  s->letter_spacing = len_of(d[CSS_P_LETTER_SPACING], em, rem, 0, 0);
  /* libharu's character spacing runs from -30pt to 300pt */
  if (s->letter_spacing < -30)
    s->letter_spacing = -30;
  if (s->letter_spacing > 300)
    s->letter_spacing = 300;
  s->hyphens = kw_is(d[CSS_P_HYPHENS], "auto");
  s->small_caps = kw_is(d[CSS_P_FONT_VARIANT], "small-caps");
  s->white_space = kw_enum(d[CSS_P_WHITE_SPACE], white_spaces, TS_WS_NORMAL);
  s->display = display_of(kw_of(d[CSS_P_DISPLAY]));
  s->border_collapse = kw_is(d[CSS_P_BORDER_COLLAPSE], "collapse");
  s->caption_bottom = kw_is(d[CSS_P_CAPTION_SIDE], "bottom");
  const char *ls = kw_of(d[CSS_P_LIST_STYLE_TYPE]);
  s->list_style = ls ? ls : "disc";
  s->list_inside = kw_is(d[CSS_P_LIST_STYLE_POSITION], "inside");
  s->vertical_align =
      kw_enum(d[CSS_P_VERTICAL_ALIGN], vertical_aligns, TS_VA_BASELINE);
  s->text_transform =
      kw_enum(d[CSS_P_TEXT_TRANSFORM], text_transforms, TS_TT_NONE);
  /* text-decoration is not inherited, but it draws through the inline
     boxes inside: carry the parent's when the child has none. */
  const char *td = kw_of(d[CSS_P_TEXT_DECORATION_LINE]);
  s->underline =
      td ? !strcasecmp(td, "underline")
         : (parent && parent->display == TS_D_INLINE && parent->underline);
  s->strike = td ? !strcasecmp(td, "line-through")
                 : (parent && parent->display == TS_D_INLINE && parent->strike);
  double cw = c->content_width;
  for (int i = 0; i < 4; i++) {
    const css_decl *m = d[CSS_P_MARGIN_TOP + i];
    s->margin_auto[i] = kw_is(m, "auto");
    s->margin[i] = len_of(m, em, rem, cw, 0);
    s->padding[i] = len_of(d[CSS_P_PADDING_TOP + i], em, rem, cw, 0);
    const char *bs = kw_of(d[CSS_P_BORDER_TOP_STYLE + i]);
    int style = !bs || !strcasecmp(bs, "none") || !strcasecmp(bs, "hidden") ? 0
                : !strcasecmp(bs, "dashed") ? 1 + TS_LINE_DASHED
                : !strcasecmp(bs, "dotted") ? 1 + TS_LINE_DOTTED
                                            : 1 + TS_LINE_SOLID;
    s->border_style[i] = style;
    if (style) {
      const css_decl *bw = d[CSS_P_BORDER_TOP_WIDTH + i];
      const char *k = kw_of(bw);
      s->border[i] = !bw                            ? 2.25 /* medium, 3px */
                     : k && !strcasecmp(k, "thin")  ? 0.75
                     : k && !strcasecmp(k, "thick") ? 3.75
                     : k                            ? 2.25
                         : len_of(bw, em, rem, cw, 0);
      s->border_color[i] = ts_color_of(d[CSS_P_BORDER_TOP_COLOR + i], s->color);
    }
  }
  css_color bg;
  const css_decl *bgd = d[CSS_P_BACKGROUND_COLOR];
  if (bgd && css_read_color(bgd->value, bgd->nvalue, &bg) && !bg.transparent) {
    s->has_bg = true;
    s->bg = (ts_rgb){bg.r / 255.0, bg.g / 255.0, bg.b / 255.0};
  }
  s->width = -1;
  const css_decl *wd = d[CSS_P_WIDTH];
  if (wd && css_read_length(wd->value, wd->nvalue, &l)) {
    if (l.unit == CSS_U_PERCENT)
      s->width_pct = l.value;
    else
      s->width = css_length_pt(l, em, rem, cw);
  }
  s->max_width = -1;
  const css_decl *mwd = d[CSS_P_MAX_WIDTH];
  if (mwd && css_read_length(mwd->value, mwd->nvalue, &l)) {
    if (l.unit == CSS_U_PERCENT)
      s->max_width_pct = l.value;
    else
      s->max_width = css_length_pt(l, em, rem, cw);
  }
  s->break_before = break_of(d[CSS_P_BREAK_BEFORE]);
  s->break_after = break_of(d[CSS_P_BREAK_AFTER]);
  s->break_inside = break_of(d[CSS_P_BREAK_INSIDE]);
  s->orphans = int_of(d[CSS_P_ORPHANS], 2);
  s->widows = int_of(d[CSS_P_WIDOWS], 2);
  s->page = page_name_of(d[CSS_P_PAGE]);
  s->string_set = d[CSS_P_STRING_SET];
  s->counter_reset = d[CSS_P_COUNTER_RESET];
  s->float_kind = float_of(d[CSS_P_FLOAT]);
  if (kw_is(d[CSS_P_DISPLAY], "prince-footnote"))
    s->float_kind = TS_FLOAT_FOOTNOTE;
  s->footnote_inline = kw_is(d[CSS_P_FOOTNOTE_DISPLAY], "inline");
  const char *lang = n ? ts_node_attr(n, "lang") : NULL;
  if (!lang && n)
    lang = ts_node_attr(n, "xml:lang");
  s->lang = lang ? lang : parent ? parent->lang : c->lang;
}

/* Computed styles are shared: elements whose cascade gives the same
 * declarations under the same parent style (every paragraph of every
 * chapter, most of the time) get one ts_cstyle. The key is the winning
 * declarations, the font sizes, the parent's style and the element's own
 * lang, which are all that ts_style_compute reads. */
typedef struct style_key {
  const css_style *css;
  const ts_cstyle *parent;
  const char *lang;
} style_key;

struct ts_stylecache {
  oc_hidx idx;
};

static bool style_eq(const void *entry, const void *key) {
  const ts_cstyle *s = entry;
  const style_key *k = key;
  return s->parent == k->parent &&
         (s->own_lang == k->lang ||
          (s->own_lang && k->lang && !strcmp(s->own_lang, k->lang))) &&
         memcmp(s->css, k->css, sizeof *k->css) == 0;
}

/* Whether two elements look the same to every selector the engine
 * reads, given the same parent: tag, classes and attributes (no ids). */
static bool same_element(const ts_node *a, const ts_node *b) {
  if (a->id || b->id || strcmp(a->tag, b->tag) || a->nclasses != b->nclasses ||
      a->nattrs != b->nattrs)
    return false;
  for (size_t i = 0; i < a->nclasses; i++)
    if (strcmp(a->classes[i], b->classes[i]))
      return false;
  for (size_t i = 0; i < a->nattrs * 2; i++)
    if (strcmp(a->attrs[i], b->attrs[i]))
      return false;
  return true;
}

/* A table cell's alignment from the Markdown (`:---:`), which cmark-gfm
 * writes as style="text-align: center" (or HTML's align="center"): the
 * engine reads no other inline style. It wins over the sheets, as an
 * inline style does, but not over their !important. */
static void cell_alignment(ts_ctx *c, ts_node *n, css_style *css) {
  if (strcmp(n->tag, "td") && strcmp(n->tag, "th"))
    return;
  const char *style = ts_node_attr(n, "style");
  const char *align = ts_node_attr(n, "align");
  if (!(style && strstr(style, "align")) && !align)
    return;
  size_t len = style ? strlen(style) : strlen(align) + 11;
  char *src = oc_arena_alloc(c->a, len + 5);
  if (style)
    snprintf(src, len + 5, "*{%s}", style);
  else
    snprintf(src, len + 5, "*{text-align:%s}", align);
  const css_stylesheet *sh =
      css_parse(c->a, src, strlen(src), c->in->name, CSS_ORIGIN_AUTHOR, NULL);
  for (size_t r = 0; sh && r < sh->nrules; r++)
    for (size_t k = 0; k < sh->rules[r].ndecls; k++) {
      const css_decl *d = &sh->rules[r].decls[k];
      const css_decl *old = css->decl[d->prop];
      if ((d->prop == CSS_P_TEXT_ALIGN || d->prop == CSS_P_VERTICAL_ALIGN) &&
          !(old && old->important))
        css->decl[d->prop] = d;
    }
}

ts_cstyle *ts_style_of(ts_ctx *c, ts_node *n) {
  if (n->style)
    return n->style;
  /* Style sharing, as browsers do it: an element like its previous
     sibling, whose own previous sibling is like it too (so that `a + b`
     and :first-child see the same), gets the same style without a
     cascade; the run of paragraphs of a chapter costs one. Off when a
     sheet uses `~`, which looks at every earlier sibling. */
  ts_node *pv = n->prev_el;
  if (c->share_styles && pv && pv->style && pv->prev_el &&
      same_element(n, pv) && same_element(pv, pv->prev_el)) {
    n->style = pv->style;
    return n->style;
  }
  ts_cstyle *parent =
      n->parent && n->parent->tag ? ts_style_of(c, n->parent) : NULL;
  css_style css;
  css_cascade(c->a, c->sheets, c->nsheets, &c->dom, n, CSS_PE_NONE,
              parent ? parent->css : NULL, &css);
  cell_alignment(c, n, &css);
  const char *lang = ts_node_attr(n, "lang");
  if (!lang)
    lang = ts_node_attr(n, "xml:lang");
  struct ts_stylecache *sc = c->styles;
  if (!sc) {
    sc = c->styles = oc_arena_calloc(c->a, 1, sizeof *sc);
    oc_hidx_init(&sc->idx, c->a, 1024);
  }
  uint64_t h = oc_hash_bytes(OC_HASH_SEED, &css, sizeof css);
  h = oc_hash_bytes(h, &parent, sizeof parent);
  if (lang)
    h = oc_hash_bytes(h, lang, strlen(lang));
  style_key key = {&css, parent, lang};
  ts_cstyle *s = oc_hidx_get(&sc->idx, h, style_eq, &key);
  if (s) {
    n->style = s;
    return s;
  }
  css_style *keep = oc_arena_alloc(c->a, sizeof *keep);
  *keep = css;
  s = oc_arena_alloc(c->a, sizeof *s);
  ts_style_compute(c, n, parent, s, keep);
  s->parent = parent;
  s->own_lang = lang;
  n->style = s;
  oc_hidx_put(&sc->idx, h, s);
  return s;
}

static ts_cstyle *pseudo_style(ts_ctx *c, ts_node *n, css_pseudo_element pe) {
  ts_cstyle *parent = ts_style_of(c, n);
  css_style *css = oc_arena_alloc(c->a, sizeof *css);
  css_cascade(c->a, c->sheets, c->nsheets, &c->dom, n, pe, parent->css, css);
  const css_decl *content = css->decl[CSS_P_CONTENT];
  if (!content)
    return NULL;
  const char *k = kw_of(content);
  if (k && (!strcasecmp(k, "none") || !strcasecmp(k, "normal")))
    return NULL;
  ts_cstyle *s = oc_arena_alloc(c->a, sizeof *s);
  ts_style_compute(c, NULL, parent, s, css);
  s->lang = parent->lang;
  return s;
}

/* Whether any selector with pe could give n a ::before or ::after box:
   only then is the whole cascade run for it. */
static bool may_have_pseudo(ts_ctx *c, ts_node *n, css_pseudo_element pe) {
  for (size_t i = 0; i < c->npseudo; i++)
    if (c->pseudo_sels[i]->pseudo == pe &&
        css_selector_matches(c->pseudo_sels[i], &c->dom, n))
      return true;
  return false;
}

/* HTML's table defaults, which the engine lays out; the shared
 * user-agent sheet (css_cascade.c) makes them blocks for the other
 * editions' sake. Put right after it, this sheet wins over it. */
static const char ua_tables[] =
    "table { display: table; border-collapse: separate }\n"
    "caption { display: table-caption; text-align: center }\n"
    "thead { display: table-header-group; vertical-align: middle }\n"
    "tbody { display: table-row-group; vertical-align: middle }\n"
    "tfoot { display: table-footer-group; vertical-align: middle }\n"
    "tr { display: table-row; vertical-align: inherit }\n"
    "td, th { display: table-cell; vertical-align: inherit; padding: 1px }\n"
    "th { font-weight: bold; text-align: center }\n"
    "col { display: table-column }\n"
    "colgroup { display: table-column-group }\n"
    /* Prince's footnote parts; the call is styled from the text around
       it, the marker from the note */
    "::footnote-call { content: counter(footnote); vertical-align: super;\n"
    "  font-size: 75% }\n"
    "::footnote-marker { content: counter(footnote) '.' }\n";

void ts_style_init(ts_ctx *c) {
  const css_stylesheet **sheets =
      oc_arena_alloc(c->a, (c->nsheets + 1) * sizeof *sheets);
  size_t ns = 0;
  for (size_t i = 0; i < c->nsheets; i++) {
    sheets[ns++] = c->sheets[i];
    if (i == 0)
      sheets[ns++] = css_parse(c->a, ua_tables, sizeof ua_tables - 1,
                               "<user-agent>", CSS_ORIGIN_UA, NULL);
  }
  c->sheets = sheets;
  c->nsheets = ns;
  c->share_styles = true;
  for (size_t s = 0; s < c->nsheets; s++)
    for (size_t r = 0; r < c->sheets[s]->nrules; r++)
      for (size_t k = 0; k < c->sheets[s]->rules[r].nsels; k++) {
        const css_selector *sel = &c->sheets[s]->rules[r].sels[k];
        for (size_t q = 0; q < sel->nparts; q++)
          if (sel->parts[q].comb == CSS_COMB_SIBLING)
            c->share_styles = false;
      }
  size_t n = 0;
  for (int pass = 0; pass < 2; pass++) {
    n = 0;
    for (size_t s = 0; s < c->nsheets; s++) {
      const css_stylesheet *sh = c->sheets[s];
      for (size_t r = 0; r < sh->nrules; r++)
        for (size_t k = 0; k < sh->rules[r].nsels; k++)
          if (sh->rules[r].sels[k].pseudo != CSS_PE_NONE) {
            if (pass)
              c->pseudo_sels[n] = &sh->rules[r].sels[k];
            n++;
          }
    }
    if (!pass)
      c->pseudo_sels =
          oc_arena_alloc(c->a, (n ? n : 1) * sizeof *c->pseudo_sels);
  }
  c->npseudo = n;
}

ts_cstyle *ts_style_note_part(ts_ctx *c, ts_node *n, css_pseudo_element pe,
                              const ts_cstyle *parent) {
  if (!may_have_pseudo(c, n, pe))
    return NULL;
  css_style *css = oc_arena_alloc(c->a, sizeof *css);
  css_cascade(c->a, c->sheets, c->nsheets, &c->dom, n, pe, parent->css, css);
  ts_cstyle *s = oc_arena_alloc(c->a, sizeof *s);
  ts_style_compute(c, NULL, parent, s, css);
  s->lang = parent->lang;
  return s;
}

ts_cstyle *ts_style_pseudo(ts_ctx *c, ts_node *n, css_pseudo_element pe) {
  if (!n->pseudo_done) {
    n->pseudo_done = true;
    if (c->npseudo) {
      if (may_have_pseudo(c, n, CSS_PE_BEFORE))
        n->before = pseudo_style(c, n, CSS_PE_BEFORE);
      if (may_have_pseudo(c, n, CSS_PE_AFTER))
        n->after = pseudo_style(c, n, CSS_PE_AFTER);
    }
  }
  return pe == CSS_PE_BEFORE ? n->before : n->after;
}
