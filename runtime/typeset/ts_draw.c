/* The pages to PDF: each page's items drawn from the top (backgrounds
 * and borders of the blocks open on it first, then rules, table rows and
 * lines with their links), the floats and repeated headers above them,
 * the footnotes at the foot, the margin boxes with their running strings
 * and page counters, then the page labels and the outline. */
#include <math.h>
#include <string.h>
#include <strings.h>

#include "oc_sb.h"
#include "ts_engine_int.h"
#include "ts_tag.h"

/* ---- marked content ---------------------------------------------------- */

/* What is drawn next belongs to the structure element tag.sid, or is an
 * artifact (sid 0, and everything of a repeated table header): each call
 * opens a marked-content sequence that the next one closes (artifacts in
 * a row share one), the page's last closed before the page is finished.
 * Nothing is written when the PDF is untagged. */
static void mark(ts_ctx *c, ts_pdf *pdf, int page, ts_tagref tag) {
  if (!c->tags)
    return;
  if (c->draw_artifacts)
    tag.sid = 0;
  ts_pdf_mark_begin(pdf, page, tag.sid, tag.ord, ts_struct_type(c, tag.sid));
}


static const ts_tagref artifact = {0, 0};

/* ---- margin boxes ----------------------------------------------------- */

typedef struct strings_state {
  const char **names;
  const char **values; /* the value entering the page */
  size_t n, cap;
} strings_state;

static const char *str_get(const strings_state *s, const char *name) {
  for (size_t i = 0; i < s->n; i++)
    if (!strcmp(s->names[i], name))
      return s->values[i];
  return NULL;
}

static void str_set(oc_arena *a, strings_state *s, const char *name,
                    const char *value) {
  for (size_t i = 0; i < s->n; i++)
    if (!strcmp(s->names[i], name)) {
      s->values[i] = value;
      return;
    }
  size_t cap = s->cap;
  s->names =
      oc_arena_grow_array(a, s->names, s->n, &cap, s->n + 1, sizeof *s->names);
  s->values = oc_arena_grow_array(a, s->values, s->n, &s->cap, s->n + 1,
                                  sizeof *s->values);
  s->names[s->n] = name;
  s->values[s->n] = value;
  s->n++;
}

/* The value of string(name, policy) on page p, given the value entering
 * it. */
static const char *string_value(ts_ctx *c, const ts_page *p,
                                const strings_state *entering, const char *name,
                                int policy) {
  const char *first = NULL, *last = NULL;
  bool at_start = false;
  bool seen_content = false;
  for (size_t i = p->start; i < p->end; i++) {
    const ts_vitem *it = &c->vl.items[i];
    if (it->type == TS_V_LINE)
      seen_content = true;
    if (it->type != TS_V_STRING_SET || strcmp(it->u.str.name, name))
      continue;
    if (!first) {
      first = it->u.str.value;
      at_start = !seen_content;
    }
    last = it->u.str.value;
  }
  const char *enter = str_get(entering, name);
  switch (policy) {
  case CSS_SP_START:
    return at_start ? first : enter;
  case CSS_SP_LAST:
    return last ? last : enter;
  case CSS_SP_FIRST_EXCEPT:
    return first ? "" : enter;
  default:
    return first ? first : enter;
  }
}

typedef struct box_text {
  oc_sb text;        /* on the heap */
  int counter_style; /* of the first counter(page), -1 none */
} box_text;

static void bt_add(box_text *b, const char *s) { oc_sb_adds(&b->text, s); }

static bool eval_content(ts_ctx *c, const ts_pages *pg, const ts_page *p,
                         const strings_state *entering, const css_decl *d,
                         box_text *out) {
  css_content_item *items;
  size_t ni;
  if (!d || !css_read_content(c->pa, d->value, d->nvalue, &items, &ni))
    return false;
  for (size_t i = 0; i < ni; i++) {
    const css_content_item *it = &items[i];
    switch (it->kind) {
    case CSS_C_STRING:
      bt_add(out, it->text);
      break;
    case CSS_C_COUNTER_PAGE:
      if (out->counter_style < 0)
        out->counter_style = it->counter_style;
      bt_add(out, css_format_counter(c->pa, p->counter, it->counter_style));
      break;
    case CSS_C_COUNTER_PAGES:
      bt_add(out, css_format_counter(c->pa, (long)pg->n, it->counter_style));
      break;
    case CSS_C_STRING_REF: {
      const char *v = string_value(c, p, entering, it->text, it->string_policy);
      if (v)
        bt_add(out, v);
      break;
    }
    default:
      break;
    }
  }
  return true;
}

static void draw_line(ts_ctx *c, ts_pdf *pdf, int page, const ts_vline *ln,
                      double left, double baseline, const ts_pages *pg);

/* The margin boxes of page p: evaluated (for the label style) and, when
 * pdf is not NULL, drawn. */
static void margin_boxes(ts_ctx *c, ts_pages *pg, size_t pi,
                         const strings_state *entering, ts_pdf *pdf, int page) {
  ts_page *p = &pg->p[pi];
  const ts_page_geo *g = p->geo;
  const ts_cstyle *root = ts_style_of(c, c->root);
  for (int b = 0; b < CSS_MB_COUNT; b++) {
    if (!g->has_box[b])
      continue;
    box_text bt = {.counter_style = -1};
    oc_sb_init(&bt.text, NULL, 0);
    bool ok = eval_content(c, pg, p, entering, g->box[b][CSS_P_CONTENT], &bt);
    if (bt.counter_style >= 0 && p->label_style < 0)
      p->label_style = bt.counter_style;
    if (!ok || !pdf || !bt.text.len) {
      oc_sb_free(&bt.text);
      continue;
    }
    css_style *css = oc_arena_alloc(c->pa, sizeof *css);
    *css = *root->css;
    for (int k = 0; k < CSS_P_COUNT; k++)
      if (g->box[b][k] && css_prop_inherited((css_prop)k))
        css->decl[k] = g->box[b][k];
    for (int k = CSS_P_MARGIN_TOP; k <= CSS_P_BORDER_LEFT_COLOR; k++)
      css->decl[k] = g->box[b][k];
    const css_decl *fs = g->box[b][CSS_P_FONT_SIZE];
    css_length l;
    if (fs && css_read_length(fs->value, fs->nvalue, &l))
      css->font_size_pt = css_length_pt(l, root->size, root->size, root->size);
    ts_cstyle st;
    ts_style_compute(c, NULL, root, &st, css);
    ts_vline ln = {0};
    double w = ts_set_text_line(c, &st, oc_sb_cstr(&bt.text), &ln);
    oc_sb_free(&bt.text);
    double left = g->m[3], right = g->w - g->m[1];
    double x;
    int col = b % 3;
    if (g->box[b][CSS_P_TEXT_ALIGN])
      col = st.align == TS_ALIGN_CENTER  ? 1
            : st.align == TS_ALIGN_RIGHT ? 2
                                         : 0;
    x = col == 0 ? left : col == 1 ? (left + right - w) / 2 : right - w;
    double a = st.face->ascent * st.size / 1000.0;
    double d = -st.face->descent * st.size / 1000.0;
    double band_top = b < 3 ? g->h : g->m[2];
    double band_bottom = b < 3 ? g->h - g->m[0] : 0;
    double baseline = (band_top + band_bottom) / 2 - (a - d) / 2;
    draw_line(c, pdf, page, &ln, x, baseline, pg);
    /* a border under a running head, across the text area */
    if (st.border_style[2] && st.border[2] > 0) {
      double y = baseline - d - st.padding[2] - st.border[2] / 2;
      mark(c, pdf, page, artifact);
      ts_pdf_line(pdf, page, left, y, right, y, st.border[2],
                  st.border_color[2], (ts_line_style)(st.border_style[2] - 1));
    }
  }
}

/* ---- drawing ---------------------------------------------------------- */

static void draw_run(ts_ctx *c, ts_pdf *pdf, int page, const ts_run *r,
                     double left, double baseline) {
  ts_pdf_font *f = ts_pdf_font_load(pdf, r->face->path, r->face->index);
  if (!f)
    return;
  mark(c, pdf, page, r->tag);
  ts_pdf_text(pdf, page, f, r->size, left + r->x, baseline + r->rise, r->color,
              r->codes, r->kern, r->n, r->char_space);
  if (r->underline || r->strike) {
    double t = r->size / 18;
    double y = r->underline ? baseline + r->rise - r->size * 0.12
                            : baseline + r->rise + r->size * 0.28;
    ts_pdf_line(pdf, page, left + r->x, y, left + r->x + r->width, y, t,
                r->color, TS_LINE_SOLID);
  }
}

static void draw_leader(ts_ctx *c, ts_pdf *pdf, int page, const ts_leader *l,
                        double left, double baseline) {
  uint32_t dot = l->cp;
  if (!ts_face_has(l->face, dot))
    return;
  double dw = ts_face_advance(l->face, dot) * l->size / 1000.0;
  /* dots on a grid of their own width plus a space, from the page's left
     edge, so they line up from one line to the next */
  double step = dw + l->size * 0.45;
  if (step <= 0)
    return;
  double x0 = left + l->x0 + l->size * 0.25, x1 = left + l->x1 - l->size * 0.25;
  double start = ceil(x0 / step) * step;
  size_t nd = start + dw <= x1 ? (size_t)((x1 - dw - start) / step) + 1 : 0;
  if (!nd)
    return;
  uint32_t *codes = oc_arena_alloc(c->pa, nd * sizeof *codes);
  int32_t *kern = oc_arena_alloc(c->pa, nd * sizeof *kern);
  for (size_t k = 0; k < nd; k++) {
    codes[k] = dot;
    kern[k] = k ? (int32_t)lround((step - dw) * 1000.0 / l->size) : 0;
  }
  ts_pdf_font *f = ts_pdf_font_load(pdf, l->face->path, l->face->index);
  if (!f)
    return;
  mark(c, pdf, page, artifact);
  ts_pdf_text(pdf, page, f, l->size, start, baseline, l->color, codes, kern, nd,
              0);
}

static void draw_ref(ts_ctx *c, ts_pdf *pdf, int page, const ts_pageref *r,
                     double left, double baseline, const ts_pages *pg) {
  const char *t = ts_pages_ref(c, (ts_pages *)pg, r->target, r->style);
  if (!t)
    t = "??";
  ts_cstyle st = {0};
  st.face = r->face;
  st.size = r->size;
  st.color = r->color;
  st.line_height = r->size;
  ts_vline tmp = {0};
  double w = ts_set_text_line(c, &st, t, &tmp);
  for (size_t i = 0; i < tmp.nruns; i++)
    tmp.runs[i].tag = r->tag;
  /* right-aligned in the room left for it */
  draw_line(c, pdf, page, &tmp, left + r->x + r->width - w, baseline, pg);
}

/* A line's runs, leaders and page references, drawn in the order they
 * stand (so text extraction reads "Title . . . 12" and "(page 3)" where
 * they are), then its images. */
static void draw_line(ts_ctx *c, ts_pdf *pdf, int page, const ts_vline *ln,
                      double left, double baseline, const ts_pages *pg) {
  size_t i = 0, j = 0, k = 0;
  while (i < ln->nruns || j < ln->nleaders || k < ln->nrefs) {
    double xr = i < ln->nruns ? ln->runs[i].x : INFINITY;
    double xl = j < ln->nleaders ? ln->leaders[j].x0 : INFINITY;
    double xp = k < ln->nrefs ? ln->refs[k].x : INFINITY;
    if (xr <= xl && xr <= xp)
      draw_run(c, pdf, page, &ln->runs[i++], left, baseline);
    else if (xl <= xp)
      draw_leader(c, pdf, page, &ln->leaders[j++], left, baseline);
    else
      draw_ref(c, pdf, page, &ln->refs[k++], left, baseline, pg);
  }
  for (size_t n = 0; n < ln->nimages; n++) {
    const ts_image_box *im = &ln->images[n];
    ts_pdf_image *pi = ts_pdf_image_load(pdf, im->path, im->w, im->h);
    if (!pi)
      continue;
    mark(c, pdf, page, im->tag);
    ts_pdf_draw_image(pdf, page, pi, left + im->x, baseline, im->w, im->h);
  }
}

/* Backgrounds and borders: artifacts. */
static void draw_block_part(ts_ctx *c, ts_pdf *pdf, int page,
                            const ts_vblock *b, double left, double top,
                            double bottom, bool starts, bool ends) {
  if (top - bottom <= 0.01)
    return;
  double x = left + b->x;
  mark(c, pdf, page, artifact);
  if (b->has_bg)
    ts_pdf_fill_rect(pdf, page, x, bottom, b->width, top - bottom, b->bg);
  if (starts && b->border[0] > 0)
    ts_pdf_line(pdf, page, x, top - b->border[0] / 2, x + b->width,
                top - b->border[0] / 2, b->border[0], b->border_color[0],
                (ts_line_style)(b->border_style[0] - 1));
  if (ends && b->border[2] > 0)
    ts_pdf_line(pdf, page, x, bottom + b->border[2] / 2, x + b->width,
                bottom + b->border[2] / 2, b->border[2], b->border_color[2],
                (ts_line_style)(b->border_style[2] - 1));
  if (b->border[3] > 0)
    ts_pdf_line(pdf, page, x + b->border[3] / 2, top, x + b->border[3] / 2,
                bottom, b->border[3], b->border_color[3],
                (ts_line_style)(b->border_style[3] - 1));
  if (b->border[1] > 0)
    ts_pdf_line(pdf, page, x + b->width - b->border[1] / 2, top,
                x + b->width - b->border[1] / 2, bottom, b->border[1],
                b->border_color[1], (ts_line_style)(b->border_style[1] - 1));
}

/* Blocks open across page boundaries, kept while drawing in order. */
typedef struct open_blocks {
  const ts_vblock *b[64];
  double top[64];
  bool started_here[64];
  size_t n;
} open_blocks;

/* Links, each tagged with the Link element of its first piece. */
static void draw_links(ts_ctx *c, ts_pdf *pdf, int page, const ts_vline *ln,
                       double left, double base, const ts_pages *pg) {
  for (size_t k = 0; k < ln->nlinks; k++) {
    const ts_link *lk = &ln->links[k];
    double x0 = left + lk->x0, w = lk->x1 - lk->x0;
    double y0 = base - lk->below, h = lk->above + lk->below;
    if (lk->href[0] == '#') {
      const ts_anchor_pos *a = ts_pages_anchor(pg, lk->href + 1);
      if (!a)
        continue;
      ts_pdf_link_dest(pdf, page, x0, y0, w, h, (int)a->page, a->y);
    } else if (strstr(lk->href, "://") || !strncmp(lk->href, "mailto:", 7)) {
      ts_pdf_link_uri(pdf, page, x0, y0, w, h, lk->href);
    } else {
      continue;
    }
    uint32_t sid = c->draw_artifacts ? 0 : ts_struct_link(c, lk->tag.sid);
    if (sid)
      ts_pdf_link_tag(pdf, sid, lk->tag.ord);
  }
}

/* A table row: its cells' backgrounds and borders, then rules and lines. */
static void draw_box(ts_ctx *c, ts_pdf *pdf, int page, const ts_vbox *b,
                     double left, double top, const ts_pages *pg) {
  for (size_t i = 0; i < b->nblocks; i++) {
    const ts_box_block *bb = &b->blocks[i];
    draw_block_part(c, pdf, page, bb->block, left + bb->x, top - bb->top,
                    top - bb->bottom, bb->starts, bb->ends);
  }
  if (b->nrules)
    mark(c, pdf, page, artifact);
  for (size_t i = 0; i < b->nrules; i++) {
    const ts_box_rule *r = &b->rules[i];
    double y = top - r->y - r->h / 2;
    ts_pdf_line(pdf, page, left + r->x, y, left + r->x + r->width, y, r->h,
                r->color, TS_LINE_SOLID);
  }
  for (size_t i = 0; i < b->nlines; i++) {
    const ts_box_line *bl = &b->lines[i];
    double x = left + bl->x + bl->line->x, base = top - bl->base;
    draw_line(c, pdf, page, bl->line, x, base, pg);
    draw_links(c, pdf, page, bl->line, x, base, pg);
  }
}

/* Items [start, end) of items from top down, the ranges in skips left
 * out: backgrounds and borders first (blocks open across pages are kept
 * in ob), then rules, rows and lines. Returns the y below the last. */
static double draw_items(ts_ctx *c, ts_pages *pg, ts_pdf *pdf, int page,
                         const ts_vitem *items, size_t start, size_t end,
                         const ts_range *skips, size_t nskips, double left,
                         double top, open_blocks *ob) {
  while (start < end && ts_vitem_discardable(items[start].type))
    start++;
  for (size_t k = 0; k < ob->n; k++) {
    ob->top[k] = top;
    ob->started_here[k] = false;
  }
  double y = top, content_bottom = top;
  size_t sk = 0;
  for (size_t i = ts_unskipped(skips, nskips, &sk, start); i < end;
       i = ts_unskipped(skips, nskips, &sk, i + 1)) {
    const ts_vitem *it = &items[i];
    if (it->type == TS_V_BLOCK_START && ob->n < 64) {
      ob->b[ob->n] = it->u.block;
      ob->top[ob->n] = y;
      ob->started_here[ob->n] = true;
      ob->n++;
    } else if (it->type == TS_V_BLOCK_END && ob->n) {
      /* the innermost open block is this one */
      size_t k = ob->n - 1;
      draw_block_part(c, pdf, page, ob->b[k], left, ob->top[k], y,
                      ob->started_here[k], true);
      ob->n--;
    }
    y -= ts_vitem_height(it);
    if (it->type == TS_V_LINE || it->type == TS_V_SPACE ||
        it->type == TS_V_RULE || it->type == TS_V_BOX)
      content_bottom = y;
  }
  for (size_t k = 0; k < ob->n; k++)
    draw_block_part(c, pdf, page, ob->b[k], left, ob->top[k], content_bottom,
                    ob->started_here[k], false);
  y = top;
  sk = 0;
  for (size_t i = ts_unskipped(skips, nskips, &sk, start); i < end;
       i = ts_unskipped(skips, nskips, &sk, i + 1)) {
    const ts_vitem *it = &items[i];
    if (it->type == TS_V_LINE) {
      double base = y - it->h;
      const ts_vline *ln = it->u.line;
      draw_line(c, pdf, page, ln, left + ln->x, base, pg);
      draw_links(c, pdf, page, ln, left + ln->x, base, pg);
    } else if (it->type == TS_V_RULE) {
      mark(c, pdf, page, artifact);
      ts_pdf_line(pdf, page, left + it->u.rule.x, y - it->h / 2,
                  left + it->u.rule.x + it->u.rule.width, y - it->h / 2, it->h,
                  it->u.rule.color, TS_LINE_SOLID);
    } else if (it->type == TS_V_BOX) {
      draw_box(c, pdf, page, it->u.box, left, y, pg);
    }
    y -= ts_vitem_height(it);
  }
  return content_bottom;
}

static void draw_page(ts_ctx *c, ts_pages *pg, size_t pi, ts_pdf *pdf, int page,
                      open_blocks *ob, open_blocks *nob) {
  ts_page *p = &pg->p[pi];
  const ts_page_geo *g = p->geo;
  const ts_vitem *items = c->vl.items;
  double left = g->m[3];
  double top = g->h - g->m[0];
  /* floats moved here and table headers repeated */
  for (size_t t = 0; t < p->ntops; t++) {
    open_blocks tob = {0};
    /* a header row set again is an artifact: its cells are tagged once */
    c->draw_artifacts = p->tops[t].repeat;
    draw_items(c, pg, pdf, page, items, p->tops[t].start, p->tops[t].end, NULL,
               0, left, top, &tob);
    c->draw_artifacts = false;
    top -= ts_range_height(items, p->tops[t].start, p->tops[t].end) +
           p->tops[t].gap;
  }
  draw_items(c, pg, pdf, page, items, p->start, p->end, p->skips, p->nskips,
             left, top, ob);
  if (p->nend > p->nstart) {
    /* the footnotes at the foot, under a short rule (a full one when a
       note goes on from the page before) */
    double ntop = g->m[2] + p->notes_h;
    double width = g->w - g->m[1] - g->m[3];
    double ry = ntop - TS_NOTE_SEP_ABOVE - TS_NOTE_SEP_RULE / 2;
    mark(c, pdf, page, artifact);
    ts_pdf_line(pdf, page, left, ry,
                left + (p->notes_continued ? width : width * 0.3), ry,
                TS_NOTE_SEP_RULE, (ts_rgb){0, 0, 0}, TS_LINE_SOLID);
    draw_items(
        c, pg, pdf, page, c->notes.items, p->nstart, p->nend, NULL, 0, left,
        ntop - TS_NOTE_SEP_ABOVE - TS_NOTE_SEP_RULE - TS_NOTE_SEP_BELOW, nob);
  }
}

static ts_page_label_style label_style(int cs) {
  switch (cs) {
  case CSS_CS_LOWER_ROMAN:
    return TS_LABEL_LOWER_ROMAN;
  case CSS_CS_UPPER_ROMAN:
    return TS_LABEL_UPPER_ROMAN;
  case CSS_CS_LOWER_ALPHA:
    return TS_LABEL_LOWER_ALPHA;
  case CSS_CS_UPPER_ALPHA:
    return TS_LABEL_UPPER_ALPHA;
  case CSS_CS_NONE:
    return TS_LABEL_NONE;
  default:
    return TS_LABEL_DECIMAL;
  }
}

int ts_pages_write(ts_ctx *c, ts_pages *pg, const char *path,
                   ts_engine_stats *stats) {
  ts_pdf *pdf = c->pdf;
  ts_pdf_set_info(pdf, &c->in->info);
  /* PDF/A first: images are loaded for it (no alpha). The covers come
     before the body and shift the page labels, not the page indexes. */
  if (c->in->pdfa_icc && ts_pdf_set_pdfa(pdf, c->in->pdfa_icc) != 0)
    return -1;
  ts_pdf_front_pages(pdf, c->in->front_pages);
  ts_page_geo cg;
  ts_page_geo_resolve(c, pg->n ? pg->p[0].name : NULL, TS_PB_FIRST, &cg);
  if (c->in->cover_image) {
    ts_pdf_image *img = ts_pdf_image_load(pdf, c->in->cover_image,
                                          cg.w + 2 * cg.bleed,
                                          cg.h + 2 * cg.bleed);
    if (!img ||
        ts_pdf_cover_image(pdf, img, cg.w, cg.h, cg.bleed, cg.marks) != 0)
      return -1;
  }
  int front = (c->in->cover_image ? 1 : 0) + c->in->front_pages;
  if (c->in->two_sided && front % 2 &&
      ts_pdf_inside_cover(pdf, cg.w, cg.h, cg.bleed, cg.marks) != 0)
    return -1;
  strings_state st = {0};
  open_blocks ob = {0}, nob = {0};
  for (size_t i = 0; i < pg->n; i++) {
    ts_page *p = &pg->p[i];
    int page = ts_pdf_page_add_print(pdf, p->geo->w, p->geo->h, p->geo->bleed,
                                     p->geo->marks);
    draw_page(c, pg, i, pdf, page, &ob, &nob);
    margin_boxes(c, pg, i, &st, pdf, page);
    ts_pdf_mark_end(pdf, page);
    ts_pdf_page_done(pdf, page);
    for (size_t k = p->start; k < p->end; k++) {
      const ts_vitem *it = &c->vl.items[k];
      if (it->type == TS_V_STRING_SET)
        str_set(c->pa, &st, it->u.str.name, it->u.str.value);
    }
  }
  /* Page labels follow the counter styles the margin boxes print; a page
     that prints no number takes the style of its counter range's pages. */
  for (size_t i = pg->n; i-- > 0;) {
    ts_page *p = &pg->p[i];
    if (p->label_style < 0 && i + 1 < pg->n && !pg->p[i + 1].reset)
      p->label_style = pg->p[i + 1].label_style;
  }
  for (size_t i = 0; i < pg->n; i++) {
    ts_page *p = &pg->p[i];
    if (p->label_style < 0)
      p->label_style = i ? pg->p[i - 1].label_style : CSS_CS_DECIMAL;
    if (p->label_style < 0)
      p->label_style = CSS_CS_DECIMAL;
    bool start = i == 0 || p->label_style != pg->p[i - 1].label_style ||
                 p->counter != pg->p[i - 1].counter + 1;
    if (start)
      ts_pdf_page_label(pdf, (int)i, label_style(p->label_style),
                        (int)p->counter, NULL);
  }
  /* the outline */
  int parents[16];
  int levels[16];
  size_t depth = 0;
  for (size_t i = 0; i < c->in->noutline; i++) {
    const ts_outline_entry *e = &c->in->outline[i];
    const ts_anchor_pos *a = ts_pages_anchor(pg, e->id);
    if (!a) {
      oc_report(c->rep, OC_WARNING, c->in->name, 0, 0,
                "the outline entry '%s' points at '#%s', which is not in the "
                "document",
                e->title, e->id);
      continue;
    }
    while (depth && levels[depth - 1] >= e->level)
      depth--;
    int parent = depth ? parents[depth - 1] : -1;
    int id = ts_pdf_outline(pdf, parent, e->title, (int)a->page, a->y,
                            e->level <= 1);
    if (depth < 16) {
      parents[depth] = id;
      levels[depth] = e->level;
      depth++;
    }
  }
  if (stats)
    stats->pages = pg->n;
  ts_struct_finish(c);
  return ts_pdf_save(pdf, path);
}

/* The label styles need the margin boxes evaluated; ts_pages_ref formats
 * with the style the reference asks for, so nothing else is needed before
 * the write. */
