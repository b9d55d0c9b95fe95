/* The node tree to the vertical list: block boxes with collapsing margins,
 * padding, borders and backgrounds; each paragraph's inline content
 * collected (text, generated content, images, links, anchors, footnote
 * calls), handed to ts_inline.c to be set, and its lines placed with list
 * markers hung in the margin. Pages are the next stage's business: this
 * one only says where breaks are allowed, and at what price (penalties
 * for widows, orphans, keeps). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "oc_alloc.h"
#include "oc_sb.h"
#include "ts_engine_int.h"

static void vl_push(ts_ctx *c, ts_vitem it) {
  ts_vlist *v = &c->vl;
  if (v->n == v->cap)
    OC_GROW(v->items, v->cap, v->n + 1024);
  v->items[v->n++] = it;
}

/* ---- the block layout's state ---------------------------------------- */

typedef struct pending {
  double mpos, mneg; /* collapsing margins */
  bool have_margin;
  bool keep;          /* the previous block asked to be kept with this */
  int brk;            /* a forced break waiting for content */
  const char *marker; /* a list item's marker for the next line */
  const ts_cstyle *marker_style;
  bool marker_inside; /* list-style-position: inside: set in the line */
  ts_tagref marker_tag;
  const char **anchors;
  size_t nanchors, canchors;
  struct pending_string {
    const char *name, *value;
  } * strings; /* string-set values waiting for the next line */
  size_t nstrings, cstrings;
  bool reset;
  long reset_value;
} pending;

typedef struct lay {
  ts_ctx *c;
  pending pd;
  const char *page_in_force;
  const char *page_wanted;
  bool started;    /* any content yet */
  int avoid_depth; /* inside elements with break-inside: avoid */
  int entry_depth; /* the depth before the first content of such an element
                      (a break before it is allowed), -1 when none */
} lay;

static void add_anchor(lay *L, const char *id) {
  pending *p = &L->pd;
  p->anchors =
      oc_arena_grow_array(L->c->pa, p->anchors, p->nanchors, &p->canchors,
                          p->nanchors + 1, sizeof *p->anchors);
  p->anchors[p->nanchors++] = id;
}

/* Before any content: the forced break or the named page change waiting,
 * the penalty for breaking between this and what came before, the
 * collapsed margin, then the marks that belong to the content's page. */
static void before_content(lay *L, bool margin_glue) {
  ts_ctx *c = L->c;
  pending *p = &L->pd;
  bool name_change =
      L->started &&
      ((L->page_wanted == NULL) != (L->page_in_force == NULL) ||
       (L->page_wanted && strcmp(L->page_wanted, L->page_in_force)));
  if (!L->started || p->brk || name_change) {
    /* (The document's first page takes its name and side from its first
       content.) */
    vl_push(c, (ts_vitem){.type = TS_V_PENALTY,
                          .penalty = -TS_INF_PENALTY,
                          .brk = p->brk ? p->brk : TS_BRK_PAGE,
                          .page_name = L->page_wanted});
    L->page_in_force = L->page_wanted;
    p->brk = 0;
    if (L->started)
      p->keep = false;
  } else if (margin_glue) {
    int depth = L->entry_depth >= 0 ? L->entry_depth : L->avoid_depth;
    vl_push(c,
            (ts_vitem){.type = TS_V_PENALTY,
                       .penalty = p->keep || depth > 0 ? TS_INF_PENALTY : 0});
  }
  L->entry_depth = -1;
  L->started = true;
  if (margin_glue) {
    double m = p->mpos + p->mneg;
    if (p->have_margin && m != 0)
      vl_push(c, (ts_vitem){.type = TS_V_GLUE, .h = m});
    p->mpos = p->mneg = 0;
    p->have_margin = false;
  }
  for (size_t i = 0; i < p->nstrings; i++)
    vl_push(c, (ts_vitem){.type = TS_V_STRING_SET,
                          .u.str = {p->strings[i].name, p->strings[i].value}});
  p->nstrings = 0;
  if (p->reset)
    vl_push(
        c, (ts_vitem){.type = TS_V_COUNTER_RESET, .u.counter = p->reset_value});
  p->reset = false;
}

static void add_margin(pending *p, double m) {
  if (m > p->mpos)
    p->mpos = m;
  if (m < p->mneg)
    p->mneg = m;
  p->have_margin = true;
}

/* The footnote's body, into c->notes (below, with the blocks). */
static void layout_note(ts_ctx *c, ts_vline *ln, ts_node *note, int number);

/* The anchors and the list marker waiting for a paragraph's first line:
 * the anchors go on it, the marker hangs left of it. */
static void mark_first_line(lay *L, ts_para_line *pl) {
  ts_ctx *c = L->c;
  pending *p = &L->pd;
  ts_vline *ln = pl->ln;
  if (p->nanchors) {
    const char **a =
        oc_arena_alloc(c->pa, (ln->nanchors + p->nanchors) * sizeof *a);
    if (ln->nanchors)
      memcpy(a, ln->anchors, ln->nanchors * sizeof *a);
    memcpy(a + ln->nanchors, p->anchors, p->nanchors * sizeof *a);
    ln->anchors = a;
    ln->nanchors += p->nanchors;
  }
  p->nanchors = 0;
  if (p->marker) {
    const ts_cstyle *ms = p->marker_style;
    ts_hang_text(c, ln, ms, p->marker, -ms->size * 0.5, p->marker_tag);
    double above = ts_strut_above(ms);
    if (above > pl->above)
      pl->above = above;
    p->marker = NULL;
  }
}

/* Sets the paragraph in pa (its block style bs) into lines of the given
 * measure (ts_inline.c), then places them: the first takes what waits
 * for it, each later one is a place to break a page at the price of its
 * widows and orphans, and the footnotes the lines call follow them. */
static void set_paragraph(lay *L, ts_para *pa, const ts_cstyle *bs, double x,
                          double measure, bool avoid_inside) {
  ts_ctx *c = L->c;
  pending *p = &L->pd;
  const char *inside = p->marker && p->marker_inside ? p->marker : NULL;
  if (inside)
    p->marker = NULL;
  ts_set_para sp;
  if (!ts_set_paragraph(c, pa, bs, x, measure, inside, p->marker_style,
                        p->marker_tag, &sp))
    return;
  size_t nl = sp.n;
  for (size_t li = 0; li < nl; li++) {
    ts_para_line *pl = &sp.lines[li];
    if (li == 0) {
      mark_first_line(L, pl);
      before_content(L, true);
    } else {
      /* breaking before line li leaves li lines behind and nl - li ahead */
      double pen = 0;
      if ((int)li < bs->orphans || (int)(nl - li) < bs->widows || avoid_inside)
        pen = TS_INF_PENALTY;
      vl_push(c, (ts_vitem){.type = TS_V_PENALTY, .penalty = pen});
    }
    vl_push(c, (ts_vitem){.type = TS_V_LINE,
                          .h = pl->above,
                          .d = pl->below,
                          .page_name = L->page_in_force,
                          .u.line = pl->ln});
    c->nlines++;
  }
  for (size_t i = 0; i < sp.nnotes; i++)
    layout_note(c, sp.notes[i].ln, c->calls[sp.notes[i].call].note,
                c->calls[sp.notes[i].call].number);
}

/* ---- collecting inline content --------------------------------------- */

static const char *collapse_ws(oc_arena *a, const char *s, size_t len);

/* The elements by id (for target-text and target-counter), for the whole
 * render, and the ids already reported missing, so that each is reported
 * once. */
struct ts_targets {
  oc_hidx ids;
  const char **warned;
  size_t nwarned, cwarned;
};

static bool node_id_eq(const void *entry, const void *key) {
  return strcmp(((const ts_node *)entry)->id, key) == 0;
}

static void index_ids(oc_hidx *x, ts_node *n) {
  for (; n; n = n->next) {
    if (!n->tag)
      continue;
    if (n->id) {
      uint64_t h = oc_hash_bytes(OC_HASH_SEED, n->id, strlen(n->id));
      if (!oc_hidx_get(x, h, node_id_eq, n->id))
        oc_hidx_put(x, h, n);
    }
    index_ids(x, n->first);
  }
}

/* The element a link's target names (its first, as a browser finds it),
 * or NULL after a warning, once per id, at the link's line. */
static ts_node *link_target(ts_ctx *c, const ts_node *link, const char *id,
                            const char *func) {
  struct ts_targets *lc = c->targets;
  if (!lc) {
    lc = c->targets = oc_arena_calloc(c->a, 1, sizeof *lc);
    oc_hidx_init(&lc->ids, c->a, 1024);
    index_ids(&lc->ids, c->root);
  }
  ts_node *t = oc_hidx_get(
      &lc->ids, oc_hash_bytes(OC_HASH_SEED, id, strlen(id)), node_id_eq, id);
  if (t)
    return t;
  for (size_t i = 0; i < lc->nwarned; i++)
    if (strcmp(lc->warned[i], id) == 0)
      return NULL;
  lc->warned = oc_arena_grow_array(c->a, lc->warned, lc->nwarned, &lc->cwarned,
                                   lc->nwarned + 1, sizeof *lc->warned);
  lc->warned[lc->nwarned++] = oc_arena_strndup(c->a, id, strlen(id));
  if (!c->in->links_checked)
    oc_report(c->rep, OC_WARNING, c->in->name, link->line, 0,
              "%s() of a link to '#%s': no element has that id; '\?\?' is "
              "printed",
              func, id);
  return NULL;
}

/* An element's text as it reads: blocks apart, what is not displayed
 * left out. */
static void shown_text(ts_ctx *c, ts_node *n, oc_sb *out) {
  for (ts_node *ch = n->first; ch; ch = ch->next) {
    if (!ch->tag) {
      oc_sb_add(out, ch->text, ch->text_len);
      continue;
    }
    int d = ts_style_of(c, ch)->display;
    if (d == TS_D_NONE)
      continue;
    bool block = d != TS_D_INLINE && d != TS_D_INLINE_BLOCK;
    if (block)
      oc_sb_addc(out, ' ');
    shown_text(c, ch, out);
    if (block)
      oc_sb_addc(out, ' ');
  }
}

/* What target-text() prints: the target's text content, or the text of
 * its ::before or ::after (their strings and attr() values). */
static const char *target_text(ts_ctx *c, const ts_node *link, const char *href,
                               int part) {
  if (!href || href[0] != '#')
    return ""; /* the target is not in this document */
  ts_node *t = link_target(c, link, href + 1, "target-text");
  if (!t)
    return "??";
  oc_sb buf;
  oc_sb_init(&buf, NULL, 0);
  if (part == CSS_TP_CONTENT) {
    shown_text(c, t, &buf);
  } else {
    ts_cstyle *ps = ts_style_pseudo(
        c, t, part == CSS_TP_BEFORE ? CSS_PE_BEFORE : CSS_PE_AFTER);
    css_content_item *items;
    size_t ni;
    const css_decl *d = ps ? ps->css->decl[CSS_P_CONTENT] : NULL;
    if (d && css_read_content(c->pa, d->value, d->nvalue, &items, &ni))
      for (size_t i = 0; i < ni; i++) {
        const char *v = items[i].kind == CSS_C_STRING ? items[i].text
                        : items[i].kind == CSS_C_ATTR
                            ? ts_node_attr(t, items[i].text)
                            : NULL;
        if (v)
          oc_sb_adds(&buf, v);
      }
  }
  const char *out = collapse_ws(c->pa, buf.p, buf.len);
  oc_sb_free(&buf);
  return out;
}

static void add_generated(lay *L, ts_para *pa, ts_node *n, const ts_cstyle *ps,
                          const char *href, bool after) {
  ts_ctx *c = L->c;
  const css_decl *d = ps->css->decl[CSS_P_CONTENT];
  css_content_item *items;
  size_t ni;
  if (!css_read_content(c->pa, d->value, d->nvalue, &items, &ni))
    return;
  ts_tagref tag = ts_struct_generated(c, n, after);
  for (size_t i = 0; i < ni; i++) {
    const css_content_item *it = &items[i];
    switch (it->kind) {
    case CSS_C_STRING:
      ts_para_push(pa, (ts_piece){TS_P_TEXT, ps, it->text, strlen(it->text),
                                  href, 0, 0, 0, 0, 0, tag});
      break;
    case CSS_C_ATTR: {
      const char *v = ts_node_attr(n, it->text);
      if (v)
        ts_para_push(
            pa, (ts_piece){TS_P_TEXT, ps, v, strlen(v), href, 0, 0, 0, 0, 0, tag});
      break;
    }
    case CSS_C_LEADER:
      ts_para_push(
          pa, (ts_piece){TS_P_LEADER, ps, it->text, 0, href, 0, 0, 0, 0, 0, tag});
      break;
    case CSS_C_TARGET_COUNTER: {
      const char *h = ts_node_attr(n, it->text);
      if (!h || h[0] != '#')
        break;
      /* a missing target prints "??" (the pages know no such anchor) */
      link_target(c, n, h + 1, "target-counter");
      ts_para_push(pa, (ts_piece){TS_P_PAGEREF, ps, h + 1, 0, href,
                                  it->counter_style, 0, 0, 0, 0, tag});
      break;
    }
    case CSS_C_TARGET_TEXT: {
      const char *t =
          target_text(c, n, ts_node_attr(n, it->text), it->string_policy);
      if (*t)
        ts_para_push(
            pa, (ts_piece){TS_P_TEXT, ps, t, strlen(t), href, 0, 0, 0, 0, 0, tag});
      break;
    }
    default:
      /* counter(page) and string() belong to margin boxes */
      break;
    }
  }
}

static void set_string(lay *L, ts_node *n, const ts_cstyle *st);

static void collect_inline(lay *L, ts_para *pa, ts_node *n, const char *href);

/* An <img> as a box of the paragraph, at its natural size (its pixels at
 * its resolution, 96 dpi when the file does not say) or the width CSS
 * gives it; false when it cannot be placed (reported). */
static bool add_image(lay *L, ts_para *pa, ts_node *img, const ts_cstyle *st,
                      const char *href) {
  ts_ctx *c = L->c;
  const char *src = ts_node_attr(img, "src");
  if (!src || !*src || !c->in->resolve)
    return false;
  const char *path =
      c->in->resolve(c->in->resolve_user, src, c->in->name, img->line, 0);
  if (!path)
    return false; /* reported by resolve */
  unsigned pw = 0, ph = 0;
  double dpi = 96;
  ts_image_status s = ts_image_probe(path, &pw, &ph, &dpi);
  /* a .png or .jpg that is neither is a broken file, not another format */
  const char *dot = strrchr(src, '.');
  if (s == TS_IMAGE_UNSUPPORTED && dot &&
      (!strcasecmp(dot, ".png") || !strcasecmp(dot, ".jpg") ||
       !strcasecmp(dot, ".jpeg")))
    s = TS_IMAGE_UNREADABLE;
  if (s != TS_IMAGE_OK) {
    oc_report(c->rep, s == TS_IMAGE_UNSUPPORTED ? OC_WARNING : OC_ERROR,
              c->in->name, img->line, 0,
              s == TS_IMAGE_UNSUPPORTED
                  ? "'%s' is not a PNG, JPEG, GIF or SVG image, which are what "
                    "a PDF edition can show; its alternative text stands in"
                  : "'%s' cannot be read as an image",
              src);
    return false;
  }
  double w = pw * 72.0 / dpi, h = ph * 72.0 / dpi;
  if (st->width >= 0 && w > 0) {
    h *= st->width / w;
    w = st->width;
  }
  ts_para_push(pa, (ts_piece){TS_P_IMAGE, st, path, 0, href, 0, w, h,
                              st->width < 0 ? st->width_pct : 0, 0,
                              {ts_struct_of(c, img), img->ord}});
  return true;
}

/* The text of a footnote's ::footnote-call or ::footnote-marker: its
 * content's strings, attr() values and counter(footnote), which is the
 * note's number; trailing spaces dropped. */
static const char *note_part_text(ts_ctx *c, ts_node *note, const ts_cstyle *ps,
                                  int number) {
  const css_decl *d = ps ? ps->css->decl[CSS_P_CONTENT] : NULL;
  css_content_item *items;
  size_t ni;
  if (!d || !css_read_content(c->pa, d->value, d->nvalue, &items, &ni))
    return css_format_counter(c->pa, number, CSS_CS_DECIMAL);
  oc_sb buf;
  oc_sb_init(&buf, NULL, 0);
  for (size_t i = 0; i < ni; i++) {
    const css_content_item *it = &items[i];
    const char *t = NULL;
    if (it->kind == CSS_C_STRING)
      t = it->text;
    else if (it->kind == CSS_C_ATTR)
      t = ts_node_attr(note, it->text);
    else if (it->kind == CSS_C_COUNTER && !strcasecmp(it->text, "footnote"))
      t = css_format_counter(c->pa, number, it->counter_style);
    if (t)
      oc_sb_adds(&buf, t);
  }
  while (buf.len && buf.p[buf.len - 1] == ' ')
    buf.len--;
  const char *out = oc_arena_strndup(c->pa, buf.p, buf.len);
  oc_sb_free(&buf);
  return out;
}

/* A footnote's call, in its ::footnote-call style (by default its number
 * raised and at 75% of the text around it), linked to the note; the note
 * itself goes to the foot of the page (layout_note). */
static void add_note_call(lay *L, ts_para *pa, ts_node *note) {
  ts_ctx *c = L->c;
  int number = (int)++c->note_counter;
  const ts_cstyle *around =
      note->parent ? ts_style_of(c, note->parent) : ts_style_of(c, note);
  /* (the user-agent sheet gives every note a ::footnote-call) */
  ts_cstyle *cs = ts_style_note_part(c, note, CSS_PE_FOOTNOTE_CALL, around);
  cs->underline = cs->strike = false;
  const char *num = note_part_text(c, note, cs, number);
  const char *href = NULL;
  if (note->id) {
    char *h = oc_arena_alloc(c->pa, strlen(note->id) + 2);
    sprintf(h, "#%s", note->id);
    href = h;
  }
  ts_para_push(pa, (ts_piece){TS_P_TEXT, cs, num, strlen(num), href, 0, 0, 0,
                              0, 0, ts_struct_note_call(c, note)});
  c->calls = oc_arena_grow_array(c->pa, c->calls, c->ncalls, &c->ccalls,
                                 c->ncalls + 1, sizeof *c->calls);
  c->calls[c->ncalls] = (struct ts_call){note, number};
  ts_para_push(pa, (ts_piece){TS_P_NOTE, cs, NULL, 0, NULL, (int)c->ncalls++, 0,
                              0, 0, 0, {0, 0}});
}

static void collect_element(lay *L, ts_para *pa, ts_node *ch,
                            const char *href) {
  ts_ctx *c = L->c;
  ts_cstyle *st = ts_style_of(c, ch);
  if (st->display == TS_D_NONE)
    return;
  if (st->float_kind == TS_FLOAT_FOOTNOTE && !c->in_note) {
    add_note_call(L, pa, ch);
    return;
  }
  if (ch->id)
    ts_para_push(pa,
                 (ts_piece){TS_P_ANCHOR, st, ch->id, 0, NULL, 0, 0, 0, 0, 0, {0, 0}});
  if (st->string_set)
    set_string(L, ch, st);
  if (strcmp(ch->tag, "br") == 0) {
    ts_para_push(pa, (ts_piece){TS_P_BR, st, NULL, 0, NULL, 0, 0, 0, 0, 0, {0, 0}});
    return;
  }
  if (strcmp(ch->tag, "img") == 0) {
    if (add_image(L, pa, ch, st, href))
      return;
    /* What cannot be placed is stood in for by its alternative text, in
       brackets, so nothing vanishes silently. */
    const char *alt = ts_node_attr(ch, "alt");
    char *t = oc_arena_alloc(c->pa, (alt ? strlen(alt) : 5) + 3);
    sprintf(t, "[%s]", alt && *alt ? alt : "image");
    ts_para_push(pa, (ts_piece){TS_P_TEXT, st, t, strlen(t), href, 0, 0, 0,
                                0, 0, {ts_struct_of(c, ch), ch->ord}});
    return;
  }
  const char *h = href;
  if (strcmp(ch->tag, "a") == 0) {
    const char *v = ts_node_attr(ch, "href");
    if (v && *v)
      h = v;
  }
  /* An inline box's horizontal margin, border and padding take room (its
     background and borders are not drawn). */
  double left = st->margin[3] + st->border[3] + st->padding[3];
  double right = st->margin[1] + st->border[1] + st->padding[1];
  if (left > 0)
    ts_para_push(pa, (ts_piece){TS_P_SPACE, st, NULL, 0, h, 0, left, 0, 0, 0, {0, 0}});
  ts_cstyle *bst = ts_style_pseudo(c, ch, CSS_PE_BEFORE);
  if (bst)
    add_generated(L, pa, ch, bst, h, false);
  collect_inline(L, pa, ch, h);
  ts_cstyle *ast = ts_style_pseudo(c, ch, CSS_PE_AFTER);
  if (ast)
    add_generated(L, pa, ch, ast, h, true);
  if (right > 0)
    ts_para_push(pa, (ts_piece){TS_P_SPACE, st, NULL, 0, h, 0, right, 0, 0, 0, {0, 0}});
}

static void collect_inline(lay *L, ts_para *pa, ts_node *n, const char *href) {
  ts_ctx *c = L->c;
  for (ts_node *ch = n->first; ch; ch = ch->next) {
    if (!ch->tag) {
      ts_para_push(pa, (ts_piece){TS_P_TEXT, ts_style_of(c, n), ch->text,
                                  ch->text_len, href, 0, 0, 0, 0, ch->line,
                                  ts_struct_text(c, ch)});
      continue;
    }
    collect_element(L, pa, ch, href);
  }
}

/* The text of an element, for string-set's content(). */
static void text_of(ts_node *n, oc_sb *out) {
  for (ts_node *ch = n->first; ch; ch = ch->next) {
    if (ch->tag)
      text_of(ch, out);
    else
      oc_sb_add(out, ch->text, ch->text_len);
  }
}

static const char *collapse_ws(oc_arena *a, const char *s, size_t len) {
  char *o = oc_arena_alloc(a, len + 1);
  size_t k = 0;
  bool sp = true;
  for (size_t i = 0; i < len; i++) {
    char ch = s[i];
    if (ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r') {
      if (!sp)
        o[k++] = ' ';
      sp = true;
      continue;
    }
    o[k++] = ch;
    sp = false;
  }
  while (k && o[k - 1] == ' ')
    k--;
  o[k] = 0;
  return o;
}

static void set_string(lay *L, ts_node *n, const ts_cstyle *st) {
  ts_ctx *c = L->c;
  css_string_set *sets;
  size_t ns;
  const css_decl *d = st->string_set;
  if (!css_read_string_set(c->pa, d->value, d->nvalue, &sets, &ns))
    return;
  for (size_t i = 0; i < ns; i++) {
    oc_sb buf;
    oc_sb_init(&buf, NULL, 0);
    for (size_t k = 0; k < sets[i].nitems; k++) {
      const css_content_item *it = &sets[i].items[k];
      if (it->kind == CSS_C_STRING)
        oc_sb_adds(&buf, it->text);
      else if (it->kind == CSS_C_ELEMENT_TEXT)
        text_of(n, &buf);
    }
    const char *v = collapse_ws(c->pa, buf.p, buf.len);
    oc_sb_free(&buf);
    pending *p = &L->pd;
    p->strings =
        oc_arena_grow_array(c->pa, p->strings, p->nstrings, &p->cstrings,
                            p->nstrings + 1, sizeof *p->strings);
    p->strings[p->nstrings].name = sets[i].name;
    p->strings[p->nstrings].value = v;
    p->nstrings++;
  }
}

/* ---- blocks ----------------------------------------------------------- */

/* A table's parts outside a table are laid out as blocks. */
static bool is_block(int display) {
  return display == TS_D_BLOCK || display == TS_D_LIST_ITEM ||
         (display >= TS_D_TABLE && display != TS_D_TABLE_COLUMN);
}

static const char *marker_text(ts_ctx *c, ts_node *li, const ts_cstyle *st) {
  const char *t = st->list_style;
  if (!strcasecmp(t, "none"))
    return NULL;
  if (!strcasecmp(t, "disc"))
    return "\u2022";
  if (!strcasecmp(t, "circle"))
    return "\u25E6";
  if (!strcasecmp(t, "square"))
    return "\u25AA";
  if (!strcasecmp(t, "dash") || !strcasecmp(t, "hyphen"))
    return "\u2013";
  /* ordinal: the item's place among its list's items */
  long idx = 1;
  ts_node *list = li->parent;
  if (list) {
    const char *start = ts_node_attr(list, "start");
    if (start)
      idx = strtol(start, NULL, 10);
  }
  for (ts_node *p = li->prev_el; p; p = p->prev_el)
    if (ts_style_of(c, p)->display == TS_D_LIST_ITEM)
      idx++;
  int style = CSS_CS_DECIMAL;
  if (!strcasecmp(t, "lower-roman"))
    style = CSS_CS_LOWER_ROMAN;
  else if (!strcasecmp(t, "upper-roman"))
    style = CSS_CS_UPPER_ROMAN;
  else if (!strcasecmp(t, "lower-alpha") || !strcasecmp(t, "lower-latin"))
    style = CSS_CS_LOWER_ALPHA;
  else if (!strcasecmp(t, "upper-alpha") || !strcasecmp(t, "upper-latin"))
    style = CSS_CS_UPPER_ALPHA;
  const char *num = css_format_counter(c->pa, idx, style);
  char *out = oc_arena_alloc(c->pa, strlen(num) + 2);
  sprintf(out, "%s.", num);
  return out;
}

static void layout_block(lay *L, ts_node *n, double x, double width);

static void para_reset(ts_para *pa) {
  oc_arena_free(pa->ar);
  *pa = (ts_para){0};
}

static void flush_para(lay *L, ts_para *pa, const ts_cstyle *bs, double x,
                       double width, bool avoid) {
  if (!pa->n)
    return;
  /* A paragraph of white space alone sets nothing. */
  bool any = false;
  for (size_t i = 0; i < pa->n && !any; i++) {
    const ts_piece *p = &pa->p[i];
    if (p->kind != TS_P_TEXT) {
      any = p->kind != TS_P_ANCHOR;
      continue;
    }
    if (p->st->white_space == TS_WS_PRE ||
        p->st->white_space == TS_WS_PRE_WRAP) {
      any = p->len > 0;
      continue;
    }
    for (size_t k = 0; k < p->len; k++)
      if (p->text[k] != ' ' && p->text[k] != '\n' && p->text[k] != '\t' &&
          p->text[k] != '\r') {
        any = true;
        break;
      }
  }
  if (any) {
    set_paragraph(L, pa, bs, x, width, avoid);
  } else {
    for (size_t i = 0; i < pa->n; i++)
      if (pa->p[i].kind == TS_P_ANCHOR)
        add_anchor(L, pa->p[i].text);
  }
  para_reset(pa);
}

/* The two walks over a block's children, which must agree on what is a
 * paragraph and what is a block: setting them (at x, width) and measuring
 * them (a table's columns: their narrowest and widest, raised into *mn
 * and *mx). One walk, one list of cases. */
typedef struct child_walk {
  bool measure;
  double x, width; /* setting */
  double *mn, *mx; /* measuring */
} child_walk;

static void walk_children(lay *L, ts_node *n, const ts_cstyle *st,
                          const child_walk *w);

/* The paragraph gathered so far: set, or measured. */
static void end_para(lay *L, ts_para *pa, const ts_cstyle *st,
                     const child_walk *w, bool avoid) {
  if (w->measure) {
    ts_measure_para(L->c, pa, st, w->mn, w->mx);
    para_reset(pa);
  } else {
    flush_para(L, pa, st, w->x, w->width, avoid);
  }
}

/* A child block measured: its content's, or its width when it has one,
 * with its borders, padding and positive margins. */
static void measure_block(lay *L, ts_node *ch, const ts_cstyle *cs,
                          const child_walk *w) {
  double a = 0, b = 0;
  if (cs->display == TS_D_TABLE)
    ts_measure_table(L->c, ch, &a, &b);
  else
    walk_children(L, ch, cs,
                  &(child_walk){.measure = true, .mn = &a, .mx = &b});
  if (cs->width >= 0)
    a = b = cs->width;
  double e = cs->border[1] + cs->border[3] + cs->padding[1] + cs->padding[3] +
             (cs->margin[1] > 0 ? cs->margin[1] : 0) +
             (cs->margin[3] > 0 ? cs->margin[3] : 0);
  if (a + e > *w->mn)
    *w->mn = a + e;
  if (b + e > *w->mx)
    *w->mx = b + e;
}

static void walk_children(lay *L, ts_node *n, const ts_cstyle *st,
                          const child_walk *w) {
  ts_ctx *c = L->c;
  ts_para pa = {0};
  bool avoid = L->avoid_depth > 0;
  ts_cstyle *bst = ts_style_pseudo(c, n, CSS_PE_BEFORE);
  if (bst)
    add_generated(L, &pa, n, bst, NULL, false);
  for (ts_node *ch = n->first; ch; ch = ch->next) {
    if (!ch->tag) {
      ts_para_push(&pa, (ts_piece){TS_P_TEXT, st, ch->text, ch->text_len, NULL,
                                   0, 0, 0, 0, ch->line,
                                   ts_struct_text(c, ch)});
      continue;
    }
    ts_cstyle *cs = ts_style_of(c, ch);
    if (cs->display == TS_D_NONE)
      continue;
    /* a footnote is a call in the text where it is set (outside notes),
       and measured as the block it is */
    bool block =
        is_block(cs->display) &&
        (w->measure || cs->float_kind != TS_FLOAT_FOOTNOTE || c->in_note);
    if (!block) {
      collect_element(L, &pa, ch, NULL);
      continue;
    }
    end_para(L, &pa, st, w, avoid);
    if (w->measure)
      measure_block(L, ch, cs, w);
    else
      layout_block(L, ch, w->x, w->width);
  }
  ts_cstyle *ast = ts_style_pseudo(c, n, CSS_PE_AFTER);
  if (ast)
    add_generated(L, &pa, n, ast, NULL, true);
  end_para(L, &pa, st, w, avoid);
}

static void layout_children(lay *L, ts_node *n, const ts_cstyle *st, double x,
                            double width) {
  walk_children(L, n, st, &(child_walk){.x = x, .width = width});
}

static void layout_block(lay *L, ts_node *n, double x, double width) {
  ts_ctx *c = L->c;
  ts_cstyle *st = ts_style_of(c, n);
  pending *p = &L->pd;
  /* A float (not at the start of a page group, not inside another float,
     a note or a table) gathers its items between two marks the page
     builder moves together. */
  bool floating = st->float_kind == TS_FLOAT_PAGE && !c->in_float &&
                  !c->in_note && L->started && !p->brk &&
                  st->break_before <= TS_BRK_AUTO;
  size_t float_start = 0;
  if (floating) {
    float_start = c->vl.n;
    vl_push(c, (ts_vitem){.type = TS_V_FLOAT_START, .d = st->margin[2]});
    c->in_float++;
  }
  const char *outer_page = L->page_wanted;
  if (st->page)
    L->page_wanted = st->page;
  if (st->break_before > TS_BRK_AUTO && st->break_before < TS_BRK_AVOID &&
      (p->brk == 0 || st->break_before != TS_BRK_PAGE))
    p->brk = st->break_before;
  if (st->break_before == TS_BRK_AVOID)
    p->keep = true;
  if (n->id)
    add_anchor(L, n->id);
  if (st->string_set)
    set_string(L, n, st);
  if (st->counter_reset) {
    const char **names;
    long *values;
    size_t nc = css_read_counters(c->pa, st->counter_reset->value,
                                  st->counter_reset->nvalue, &names, &values);
    for (size_t i = 0; i < nc; i++)
      if (!strcasecmp(names[i], "footnote"))
        c->note_counter = values[i];
      else if (!strcasecmp(names[i], "page")) {
        p->reset = true;
        /* counter-reset: page 1 means the page it stands on is page 1 */
        p->reset_value = values[i] ? values[i] : 1;
      }
  }
  add_margin(p, st->margin[0]);
  /* width and horizontal margins */
  double ml = st->margin[1 + 2], mr = st->margin[1];
  double bl = st->border[3] + st->padding[3],
         br = st->border[1] + st->padding[1];
  double bw = width - ml - mr; /* border box */
  if (st->width_pct > 0)
    bw = width * st->width_pct / 100 + bl + br;
  else if (st->width >= 0)
    bw = st->width + bl + br;
  double maxw = st->max_width >= 0 ? st->max_width + bl + br
                : st->max_width_pct > 0
                    ? width * st->max_width_pct / 100 + bl + br
                    : -1;
  if (maxw >= 0 && bw > maxw)
    bw = maxw;
  if (bw > width - ml - mr)
    bw = width - ml - mr;
  double bx = x + ml;
  if (st->margin_auto[1] && st->margin_auto[3])
    bx = x + (width - bw) / 2;
  else if (st->margin_auto[3])
    bx = x + width - mr - bw;
  bool boxed = st->display != TS_D_TABLE && /* a table draws its own */
               (st->has_bg || st->border_style[0] || st->border_style[2] ||
                st->padding[0] > 0 || st->padding[2] > 0 ||
                st->border_style[1] || st->border_style[3]);
  ts_vblock *blk = NULL;
  if (boxed) {
    before_content(L, true);
    blk = oc_arena_calloc(c->pa, 1, sizeof *blk);
    blk->x = bx;
    blk->width = bw;
    blk->has_bg = st->has_bg;
    blk->bg = st->bg;
    for (int i = 0; i < 4; i++) {
      blk->border[i] = st->border_style[i] ? st->border[i] : 0;
      blk->border_style[i] = st->border_style[i];
      blk->border_color[i] = st->border_color[i];
    }
    vl_push(c, (ts_vitem){.type = TS_V_BLOCK_START, .u.block = blk});
    double top = blk->border[0] + st->padding[0];
    if (top > 0) {
      vl_push(c, (ts_vitem){.type = TS_V_SPACE, .h = top});
      /* the top border and padding go with the first line: no page
         break between them (it left a box's top edge alone at the foot
         of a page: a heading's rule, a code block's first strip) */
      p->keep = true;
    }
  }
  if (st->display == TS_D_LIST_ITEM) {
    const char *m = marker_text(c, n, st);
    if (m) {
      p->marker = m;
      p->marker_style = st;
      p->marker_inside = st->list_inside;
      p->marker_tag = ts_struct_marker(c, n);
    }
  }
  if (st->display == TS_D_TABLE) {
    before_content(L, true);
    ts_layout_table(c, n, x, width,
                    L->avoid_depth > 0 || st->break_inside == TS_BRK_AVOID,
                    p->anchors, p->nanchors);
    p->nanchors = 0;
  } else if (strcmp(n->tag, "hr") == 0) {
    before_content(L, true);
    double t = st->border[0] > 0 ? st->border[0] : 0.5;
    vl_push(c, (ts_vitem){.type = TS_V_RULE,
                          .h = t,
                          .u.rule = {bx, bw,
                                     st->border_style[0] ? st->border_color[0]
                                                         : st->color}});
  } else {
    double cx = bx + bl, cw = bw - bl - br;
    bool avoid = st->break_inside == TS_BRK_AVOID;
    if (avoid && L->entry_depth < 0)
      L->entry_depth = L->avoid_depth;
    L->avoid_depth += avoid;
    layout_children(L, n, st, cx, cw);
    L->avoid_depth -= avoid;
  }
  if (boxed) {
    /* the margins inside the box do not collapse through it */
    double m = p->mpos + p->mneg;
    double bottom = blk->border[2] + st->padding[2] + (p->have_margin ? m : 0);
    p->mpos = p->mneg = 0;
    p->have_margin = false;
    if (bottom > 0)
      vl_push(c, (ts_vitem){.type = TS_V_SPACE, .h = bottom});
    vl_push(c, (ts_vitem){.type = TS_V_BLOCK_END, .u.block = blk});
  }
  add_margin(p, st->margin[2]);
  if (st->break_after > TS_BRK_AUTO && st->break_after < TS_BRK_AVOID)
    p->brk = st->break_after;
  p->keep = st->break_after == TS_BRK_AVOID;
  L->page_wanted = outer_page;
  if (floating) {
    /* its bottom margin goes with it: moved, it leaves no gap behind */
    double m = p->mpos + p->mneg;
    if (p->have_margin && m > 0)
      vl_push(c, (ts_vitem){.type = TS_V_GLUE, .h = m});
    p->mpos = p->mneg = 0;
    p->have_margin = false;
    c->in_float--;
    vl_push(c, (ts_vitem){.type = TS_V_FLOAT_END});
    c->vl.items[float_start].u.head.end = c->vl.n - 1;
  }
}

/* A footnote's body, at the measure of the page, into c->notes: its
 * number and a space first, then its content; the line that calls it
 * learns where it ends. */
static void layout_note(ts_ctx *c, ts_vline *ln, ts_node *note, int number) {
  ts_vlist outer = c->vl;
  c->vl = c->notes;
  bool was = c->in_note;
  c->in_note = true;
  size_t start = c->vl.n;
  lay L = {.c = c, .entry_depth = -1, .started = true};
  const ts_cstyle *st = ts_style_of(c, note);
  const ts_cstyle *ms = ts_style_note_part(c, note, CSS_PE_FOOTNOTE_MARKER, st);
  const char *m = note_part_text(c, note, ms, number);
  if (*m) {
    L.pd.marker = m;
    L.pd.marker_style = ms ? ms : st;
    L.pd.marker_inside = true;
    L.pd.marker_tag = ts_struct_generated(c, note, false);
  }
  layout_block(&L, note, 0, c->content_width);
  for (size_t i = 0; i < L.pd.nanchors; i++)
    vl_push(c, (ts_vitem){.type = TS_V_ANCHOR, .u.id = L.pd.anchors[i]});
  c->notes = c->vl;
  c->vl = outer;
  c->in_note = was;
  size_t first = c->notes.n;
  for (size_t i = start; i < c->notes.n; i++)
    if (c->notes.items[i].type == TS_V_LINE) {
      c->notes.items[i].brk = 1; /* a note starts here */
      first = i + 1;
      break;
    }
  if (first > c->notes.n)
    first = c->notes.n;
  if (c->notes.n > start) {
    ln->notes_need = first;
    ln->notes_end = c->notes.n;
  }
}

/* ---- table cells (ts_table.c) ---------------------------------------- */

void ts_vl_push(ts_ctx *c, ts_vitem it) { vl_push(c, it); }

void ts_layout_cell(ts_ctx *c, ts_node *cell, double width, ts_vlist *out) {
  ts_vlist outer = c->vl;
  c->vl = (ts_vlist){0};
  /* started: a cell's first line asks for no page of its own */
  lay L = {.c = c, .entry_depth = -1, .started = true};
  c->in_float++; /* a float cannot leave a cell */
  layout_children(&L, cell, ts_style_of(c, cell), 0, width);
  c->in_float--;
  *out = c->vl;
  c->vl = outer;
}

static void style_tree(ts_ctx *c, ts_node *n) {
  for (ts_node *ch = n->first; ch; ch = ch->next)
    if (ch->tag && ts_style_of(c, ch)->display != TS_D_NONE) {
      ts_style_pseudo(c, ch, CSS_PE_BEFORE);
      style_tree(c, ch);
    }
}

void ts_measure_content(ts_ctx *c, ts_node *n, double *min, double *max) {
  lay L = {.c = c, .entry_depth = -1, .started = true};
  *min = *max = 0;
  /* What is wrong in the content is reported once, when it is set; the
     styles (whose warnings are given once ever) are computed first. */
  ts_style_pseudo(c, n, CSS_PE_BEFORE);
  style_tree(c, n);
  const oc_reporter *rep = c->rep, quiet = {0};
  c->rep = &quiet;
  /* footnote calls met while measuring are counted when they are set */
  long counter = c->note_counter;
  size_t ncalls = c->ncalls;
  walk_children(&L, n, ts_style_of(c, n),
                &(child_walk){.measure = true, .mn = min, .mx = max});
  c->note_counter = counter;
  c->ncalls = ncalls;
  c->rep = rep;
  if (*max < *min)
    *max = *min;
}

/* The digits a leader's page-number column holds: three, or as many as
 * the page count a long document will reach (a page holds more than 1,500
 * bytes of XHTML in any book-like setting, so this over-estimates), which
 * spares a second pass to widen the column. */
static const char *column_digits(const ts_ctx *c) {
  size_t pages = c->in->len / 1500;
  return pages >= 100000  ? "000000"
         : pages >= 10000 ? "00000"
         : pages >= 1000  ? "0000"
                          : "000";
}

int ts_layout(ts_ctx *c) {
  c->column_digits = column_digits(c);
  c->vl.n = 0;
  c->notes.n = 0;
  c->note_counter = 0;
  c->calls = NULL;
  c->ncalls = c->ccalls = 0;
  c->nlines = 0;
  lay L = {.c = c, .entry_depth = -1};
  ts_node *root = c->root;
  ts_cstyle *rs = ts_style_of(c, root);
  (void)rs;
  /* <html> holds <head> and <body>; both are blocks or none. */
  layout_block(&L, root, 0, c->content_width);
  if (!L.started) {
    /* an empty document still makes one page */
    before_content(&L, false);
  }
  /* Anchors after the last line stay with it. */
  return 0;
}
