/* Tables: the grid of rows and cells, column widths as CSS 2.1's automatic
 * layout gives them (each column between its cells' narrowest and widest),
 * cells set by the block layout at their column's width, and one box of
 * the vertical list a row (sliced at line boundaries only when taller than
 * a page), the header rows marked for the page builder to repeat. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ts_engine_int.h"

/* A border as drawn: width, style (ts_line_style + 1, 0 none), colour. */
typedef struct tborder {
  double w;
  int style;
  ts_rgb color;
} tborder;

/* A cell's content as set, at offsets from its content box's top. */
typedef struct tunit {
  double top, bottom; /* a line's or rule's extent */
} tunit;

typedef struct tcell {
  ts_node *n;
  const ts_cstyle *st;
  int col, span;
  size_t row, last_row; /* the rows it spans (rowspan) */
  double min, max;      /* the border box's, insets included */
  double in[4];         /* border and padding, top right bottom left */
  ts_vbox content;      /* x from the content box's left, y from its top */
  tunit *units;         /* of content.lines then content.rules, in order */
  size_t nunits;
  double h; /* the content's height */
} tcell;

typedef struct trow {
  const ts_cstyle *st, *group;
  tcell *cells;
  size_t ncells;
  const tcell **at; /* the cell over each column (NULL: none), its own or
                       one spanning down from a row above */
  tcell **ends;     /* the cells spanning rows that end in this one */
  size_t nends, cends;
  bool head;
  bool joined;       /* a cell from the row above spans into this one */
  double min_area;   /* what the cells spanning into it need */
  double top, total; /* as set: the edge above its cells, its height */
} trow;

typedef struct table {
  ts_ctx *c;
  ts_node *n;
  const ts_cstyle *st;
  trow *rows;
  size_t nrows, caprows;
  ts_node *caption;
  int ncols;
  bool collapse;
  double *g;  /* the grid lines' x, ncols + 1 */
  double *vw; /* collapse: the widest border on each grid line */
} table;

/* ---- the grid -------------------------------------------------------- */

static trow *add_row(table *t, const ts_cstyle *st, const ts_cstyle *group,
                     bool head) {
  t->rows = oc_arena_grow_array(t->c->pa, t->rows, t->nrows, &t->caprows,
                                t->nrows + 1, sizeof *t->rows);
  trow *r = &t->rows[t->nrows++];
  *r = (trow){.st = st, .group = group, .head = head};
  return r;
}

static void add_cell(table *t, trow *r, ts_node *n, size_t *cap) {
  ts_ctx *c = t->c;
  r->cells = oc_arena_grow_array(c->pa, r->cells, r->ncells, cap, r->ncells + 1,
                                 sizeof *r->cells);
  tcell *cl = &r->cells[r->ncells++];
  *cl = (tcell){.n = n, .st = ts_style_of(c, n), .span = 1};
  const char *cs = ts_node_attr(n, "colspan");
  if (cs) {
    long v = strtol(cs, NULL, 10);
    cl->span = v < 1 ? 1 : v > 1000 ? 1000 : (int)v;
  }
  /* rows spanned, counted from this one; 0: to the end of its group (as
     HTML says), bounded when the grid is made */
  const char *rs = ts_node_attr(n, "rowspan");
  long v = rs ? strtol(rs, NULL, 10) : 1;
  cl->last_row = v == 0 ? SIZE_MAX : v < 1 ? 0 : (size_t)(v - 1);
}

/* The cells of a row: its element children (anything but display: none). */
static void gather_row(table *t, ts_node *tr, const ts_cstyle *group,
                       bool head) {
  trow *r = add_row(t, ts_style_of(t->c, tr), group, head);
  size_t cap = 0;
  for (ts_node *ch = tr->first; ch; ch = ch->next)
    if (ch->tag && ts_style_of(t->c, ch)->display != TS_D_NONE)
      add_cell(t, r, ch, &cap);
}

/* Rows of a group (or the table), cells found loose among them making rows
 * of their own, as CSS's anonymous rows do. */
static void gather_rows(table *t, ts_node *g, const ts_cstyle *group,
                        bool head) {
  trow *loose = NULL;
  size_t cap = 0;
  for (ts_node *ch = g->first; ch; ch = ch->next) {
    if (!ch->tag)
      continue;
    int d = ts_style_of(t->c, ch)->display;
    if (d == TS_D_NONE || d == TS_D_TABLE_COLUMN)
      continue;
    if (d == TS_D_TABLE_ROW) {
      gather_row(t, ch, group, head);
      loose = NULL;
    } else if (d == TS_D_TABLE_CELL) {
      if (!loose) {
        loose = add_row(t, group, group, head);
        cap = 0;
      }
      add_cell(t, loose, ch, &cap);
    }
  }
}

static void gather(table *t) {
  ts_ctx *c = t->c;
  ts_node *foot = NULL;
  bool have_head = false;
  /* the header first, the footer last, wherever they stand */
  for (ts_node *ch = t->n->first; ch; ch = ch->next)
    if (ch->tag && ts_style_of(c, ch)->display == TS_D_TABLE_HEADER_GROUP &&
        !have_head) {
      gather_rows(t, ch, ts_style_of(c, ch), true);
      have_head = true;
    }
  bool loose = false;
  for (ts_node *ch = t->n->first; ch; ch = ch->next) {
    if (!ch->tag)
      continue;
    const ts_cstyle *cs = ts_style_of(c, ch);
    switch (cs->display) {
    case TS_D_TABLE_CAPTION:
      if (!t->caption)
        t->caption = ch;
      break;
    case TS_D_TABLE_HEADER_GROUP:
      if (have_head) {
        have_head = false; /* the one gathered above */
        break;
      }
      gather_rows(t, ch, cs, false);
      break;
    case TS_D_TABLE_FOOTER_GROUP:
      if (!foot)
        foot = ch;
      else
        gather_rows(t, ch, cs, false);
      break;
    case TS_D_TABLE_ROW_GROUP:
      gather_rows(t, ch, cs, false);
      break;
    case TS_D_TABLE_ROW:
    case TS_D_TABLE_CELL:
      loose = true;
      break;
    default:
      break;
    }
  }
  if (loose)
    gather_rows(t, t->n, t->st, false);
  if (foot)
    gather_rows(t, foot, ts_style_of(c, foot), false);
  /* Columns: each row's cells take the first columns that no cell from a
     row above spans down into. A row span ends with its row group. */
  size_t cap = 0;
  size_t *busy = NULL; /* per column: the last row a span above covers */
  for (size_t i = 0; i < t->nrows; i++) {
    trow *r = &t->rows[i];
    size_t group_end = i;
    while (group_end + 1 < t->nrows &&
           t->rows[group_end + 1].group == r->group &&
           t->rows[group_end + 1].head == r->head)
      group_end++;
    int w = 0;
    for (size_t k = 0; k < r->ncells; k++) {
      tcell *cl = &r->cells[k];
      while ((size_t)w < cap && busy[w] != SIZE_MAX && busy[w] >= i)
        w++;
      size_t down = cl->last_row;
      cl->col = w;
      cl->row = i;
      cl->last_row =
          down == SIZE_MAX || down > group_end - i ? group_end : i + down;
      size_t need = (size_t)w + (size_t)cl->span;
      if (need > cap) {
        size_t old = cap;
        busy = oc_arena_grow_array(c->pa, busy, cap, &cap, need, sizeof *busy);
        for (size_t q = old; q < cap; q++)
          busy[q] = SIZE_MAX;
      }
      for (int s = 0; s < cl->span; s++)
        busy[w + s] = cl->last_row;
      w += cl->span;
    }
    for (size_t q = 0; q < cap; q++)
      if (busy[q] != SIZE_MAX && busy[q] >= i && (int)q + 1 > w)
        w = (int)q + 1;
    if (w > t->ncols)
      t->ncols = w;
  }
  for (size_t i = 0; i < t->nrows; i++) {
    trow *r = &t->rows[i];
    r->at = oc_arena_calloc(c->pa, (size_t)(t->ncols ? t->ncols : 1),
                            sizeof *r->at);
  }
  for (size_t i = 0; i < t->nrows; i++)
    for (size_t k = 0; k < t->rows[i].ncells; k++) {
      tcell *cl = &t->rows[i].cells[k];
      for (size_t q = i; q <= cl->last_row; q++) {
        for (int s = 0; s < cl->span && cl->col + s < t->ncols; s++)
          t->rows[q].at[cl->col + s] = cl;
        if (q > i)
          t->rows[q].joined = true;
      }
      if (cl->last_row > i) {
        trow *e = &t->rows[cl->last_row];
        e->ends = oc_arena_grow_array(c->pa, e->ends, e->nends, &e->cends,
                                      e->nends + 1, sizeof *e->ends);
        e->ends[e->nends++] = cl;
      }
    }
}

/* ---- borders ------------------------------------------------------- */

static tborder border_of(const ts_cstyle *st, int side) {
  if (!st || !st->border_style[side] || st->border[side] <= 0)
    return (tborder){0};
  return (tborder){st->border[side], st->border_style[side],
                   st->border_color[side]};
}

/* CSS 2.1's conflict resolution, cut short: the wider border wins, then
 * solid over dashed over dotted, then the first given (the cell before
 * its row, its group and the table). */
static int style_rank(int style) {
  return style == 1 + TS_LINE_SOLID ? 3 : style == 1 + TS_LINE_DASHED ? 2 : 1;
}

static void resolve(tborder *best, tborder b) {
  if (b.w <= 0)
    return;
  if (b.w > best->w + 1e-9 || (fabs(b.w - best->w) <= 1e-9 &&
                               style_rank(b.style) > style_rank(best->style)))
    *best = b;
}

static const tcell *cell_at(const table *t, size_t r, int col) {
  if (r >= t->nrows || col < 0 || col >= t->ncols)
    return NULL;
  return t->rows[r].at[col];
}

/* The collapsed border at column col under row r, or above the first row
 * (the table's top edge) when top_edge. It belongs to the row above it, so
 * that the rule under a header is repeated with the header. */
static tborder hline(const table *t, size_t r, int col, bool top_edge) {
  tborder b = {0};
  if (top_edge) {
    const tcell *cl = cell_at(t, 0, col);
    resolve(&b, border_of(cl ? cl->st : NULL, 0));
    resolve(&b, border_of(t->rows[0].st, 0));
    if (t->rows[0].group != t->st)
      resolve(&b, border_of(t->rows[0].group, 0));
    resolve(&b, border_of(t->st, 0));
    return b;
  }
  const tcell *up = cell_at(t, r, col);
  bool last = r + 1 >= t->nrows;
  if (!last && up && up == cell_at(t, r + 1, col))
    return b; /* inside a cell spanning rows */
  resolve(&b, border_of(up ? up->st : NULL, 2));
  if (!last) {
    const tcell *dn = cell_at(t, r + 1, col);
    resolve(&b, border_of(dn ? dn->st : NULL, 0));
  }
  resolve(&b, border_of(t->rows[r].st, 2));
  if (!last)
    resolve(&b, border_of(t->rows[r + 1].st, 0));
  if (last || t->rows[r + 1].group != t->rows[r].group) {
    if (t->rows[r].group != t->st)
      resolve(&b, border_of(t->rows[r].group, 2));
    if (!last && t->rows[r + 1].group != t->st)
      resolve(&b, border_of(t->rows[r + 1].group, 0));
  }
  if (last)
    resolve(&b, border_of(t->st, 2));
  return b;
}

/* The collapsed border on grid line j of row r, where a cell edge is. */
static tborder vline(const table *t, size_t r, int j) {
  tborder b = {0};
  const trow *rw = &t->rows[r];
  const tcell *l = cell_at(t, r, j - 1), *rt = cell_at(t, r, j);
  if (l && l == rt)
    return b; /* inside a spanning cell */
  resolve(&b, border_of(l ? l->st : NULL, 1));
  resolve(&b, border_of(rt ? rt->st : NULL, 3));
  if (j == 0 || j == t->ncols) {
    int side = j == 0 ? 3 : 1;
    resolve(&b, border_of(rw->st, side));
    if (rw->group != t->st)
      resolve(&b, border_of(rw->group, side));
    resolve(&b, border_of(t->st, side));
  }
  return b;
}

/* ---- column widths --------------------------------------------------- */

static void cell_insets(table *t, tcell *cl) {
  const ts_cstyle *s = cl->st;
  for (int i = 0; i < 4; i++)
    cl->in[i] = s->padding[i] + (t->collapse ? 0 : s->border[i]);
  if (t->collapse) {
    int a = cl->col, b = cl->col + cl->span;
    cl->in[3] += a == 0 ? t->vw[0] : t->vw[a] / 2;
    cl->in[1] += b >= t->ncols ? t->vw[t->ncols] : t->vw[b] / 2;
  }
}

/* Spreads what a spanning cell needs beyond its columns over them, in
 * proportion to their widest (evenly when they are all empty). */
static void spread(double *cols, const double *weight, int a, int span,
                   double need) {
  double have = 0, wsum = 0;
  for (int i = a; i < a + span; i++) {
    have += cols[i];
    wsum += weight[i];
  }
  if (need <= have)
    return;
  for (int i = a; i < a + span; i++)
    cols[i] += (need - have) * (wsum > 0 ? weight[i] / wsum : 1.0 / span);
}

/* Each column's narrowest and widest (border boxes of its cells), their
 * sums in smin and smax. */
static void measure_columns(table *t, double *mn, double *mx, double *smin,
                            double *smax) {
  ts_ctx *c = t->c;
  int nc = t->ncols;
  for (size_t r = 0; r < t->nrows; r++)
    for (size_t k = 0; k < t->rows[r].ncells; k++) {
      tcell *cl = &t->rows[r].cells[k];
      cell_insets(t, cl);
      double a, b;
      ts_measure_content(c, cl->n, &a, &b);
      if (cl->st->width >= 0 && cl->st->width > a)
        a = b = cl->st->width;
      /* a little over, so that sums taken in another order still fit */
      cl->min = a + cl->in[1] + cl->in[3] + 0.05;
      cl->max = b + cl->in[1] + cl->in[3] + 0.05;
      if (cl->span == 1 && cl->min > mn[cl->col])
        mn[cl->col] = cl->min;
      if (cl->span == 1 && cl->max > mx[cl->col])
        mx[cl->col] = cl->max;
    }
  /* then what spanning cells need beyond their columns */
  for (size_t r = 0; r < t->nrows; r++)
    for (size_t k = 0; k < t->rows[r].ncells; k++) {
      const tcell *cl = &t->rows[r].cells[k];
      if (cl->span == 1)
        continue;
      int sp = cl->col + cl->span > nc ? nc - cl->col : cl->span;
      spread(mn, mx, cl->col, sp, cl->min);
      spread(mx, mx, cl->col, sp, cl->max);
    }
  *smin = *smax = 0;
  for (int i = 0; i < nc; i++) {
    if (mx[i] < mn[i])
      mx[i] = mn[i];
    *smin += mn[i];
    *smax += mx[i];
  }
}

/* The table's border box width; the grid's lines in t->g. */
static double column_widths(table *t, double x, double width, double *tx) {
  ts_ctx *c = t->c;
  int nc = t->ncols;
  const ts_cstyle *st = t->st;
  double *mn = oc_arena_calloc(c->pa, (size_t)nc, sizeof *mn);
  double *mx = oc_arena_calloc(c->pa, (size_t)nc, sizeof *mx);
  double smin, smax;
  measure_columns(t, mn, mx, &smin, &smax);
  double ml = st->margin_auto[3] ? 0 : st->margin[3];
  double mr = st->margin_auto[1] ? 0 : st->margin[1];
  double el = t->collapse ? 0 : st->border[3] + st->padding[3];
  double er = t->collapse ? 0 : st->border[1] + st->padding[1];
  double room = width - ml - mr - el - er;
  if (room < 0)
    room = 0;
  double w = smax;
  bool fixed = st->width >= 0 || st->width_pct > 0;
  if (fixed) {
    w = st->width_pct > 0 ? width * st->width_pct / 100 : st->width;
    w -= el + er;
    if (w < smin)
      w = smin;
  }
  if (w > room)
    w = room;
  double *cw = oc_arena_alloc(c->pa, (size_t)nc * sizeof *cw);
  for (int i = 0; i < nc; i++) {
    if (w >= smax)
      /* only a width from CSS is wider than the widest: columns grow in
         proportion to their content */
      cw[i] = smax > 0 ? mx[i] * w / smax : w / nc;
    else if (w >= smin)
      /* as browsers do: each column from its narrowest toward its widest
         by the same fraction of the difference */
      cw[i] = mn[i] +
              (mx[i] - mn[i]) * (smax > smin ? (w - smin) / (smax - smin) : 0);
    else
      /* too narrow for its words: shrunk, its words broken */
      cw[i] = smin > 0 ? mn[i] * w / smin : w / nc;
  }
  double tw = w + el + er;
  *tx = x + ml;
  if (st->margin_auto[1] && st->margin_auto[3])
    *tx = x + (width - tw) / 2;
  else if (st->margin_auto[3])
    *tx = x + width - mr - tw;
  t->g = oc_arena_alloc(c->pa, (size_t)(nc + 1) * sizeof *t->g);
  t->g[0] = *tx + el;
  for (int i = 0; i < nc; i++)
    t->g[i + 1] = t->g[i] + cw[i];
  return tw;
}

/* ---- cells ----------------------------------------------------------- */

/* The capacity of an array that only push grows, told by its count alone:
 * none, then oc_arena_grow_array's steps (8, doubling). */
static size_t push_cap(size_t n) {
  size_t cap = n ? 8 : 0;
  while (cap < n)
    cap *= 2;
  return cap;
}

static void *push(oc_arena *a, void *items, size_t *n, size_t size) {
  size_t cap = push_cap(*n);
  items = oc_arena_grow_array(a, items, *n, &cap, *n + 1, size);
  (*n)++;
  return items;
}

static void box_line(oc_arena *a, ts_vbox *b, ts_box_line l) {
  b->lines = push(a, b->lines, &b->nlines, sizeof l);
  b->lines[b->nlines - 1] = l;
}

static void box_block(oc_arena *a, ts_vbox *b, ts_box_block k) {
  b->blocks = push(a, b->blocks, &b->nblocks, sizeof k);
  b->blocks[b->nblocks - 1] = k;
}

static void box_rule(oc_arena *a, ts_vbox *b, ts_box_rule r) {
  b->rules = push(a, b->rules, &b->nrules, sizeof r);
  b->rules[b->nrules - 1] = r;
}

static void add_unit(oc_arena *a, tcell *cl, double top, double bottom) {
  cl->units = push(a, cl->units, &cl->nunits, sizeof *cl->units);
  cl->units[cl->nunits - 1] = (tunit){top, bottom};
}

/* A cell's vertical list as the content of a box: lines at their
 * baselines, blocks and rules at their offsets, the boxes of a table
 * inside taken apart. Units: the lines' and rules' extents, for slicing. */
static void cell_content(ts_ctx *c, tcell *cl, const ts_vlist *vl) {
  oc_arena *a = c->pa;
  ts_vbox *b = &cl->content;
  double y = 0;
  size_t open[64], nopen = 0;
  double otop[64];
  for (size_t i = 0; i < vl->n; i++) {
    const ts_vitem *it = &vl->items[i];
    switch (it->type) {
    case TS_V_LINE:
      box_line(a, b, (ts_box_line){it->u.line, 0, y + it->h});
      add_unit(a, cl, y, y + it->h + it->d);
      y += it->h + it->d;
      break;
    case TS_V_GLUE:
    case TS_V_SPACE:
      y += it->h;
      break;
    case TS_V_RULE:
      box_rule(a, b,
               (ts_box_rule){it->u.rule.x, y, it->u.rule.width, it->h,
                             it->u.rule.color});
      add_unit(a, cl, y, y + it->h);
      y += it->h;
      break;
    case TS_V_BLOCK_START:
      if (nopen < 64) {
        open[nopen] = i;
        otop[nopen++] = y;
      }
      break;
    case TS_V_BLOCK_END:
      if (nopen) {
        nopen--;
        box_block(a, b,
                  (ts_box_block){vl->items[open[nopen]].u.block, 0, otop[nopen],
                                 y, true, true});
      }
      break;
    case TS_V_BOX: {
      const ts_vbox *in = it->u.box;
      for (size_t k = 0; k < in->nblocks; k++) {
        ts_box_block bb = in->blocks[k];
        bb.top += y;
        bb.bottom += y;
        box_block(a, b, bb);
      }
      for (size_t k = 0; k < in->nlines; k++) {
        ts_box_line bl = in->lines[k];
        bl.base += y;
        box_line(a, b, bl);
      }
      for (size_t k = 0; k < in->nrules; k++) {
        ts_box_rule br = in->rules[k];
        br.y += y;
        box_rule(a, b, br);
      }
      add_unit(a, cl, y, y + it->h);
      y += it->h;
      break;
    }
    default:
      break;
    }
  }
  cl->h = y;
}

static void layout_cell(table *t, tcell *cl) {
  ts_ctx *c = t->c;
  double w =
      t->g[cl->col + cl->span > t->ncols ? t->ncols : cl->col + cl->span] -
      t->g[cl->col] - cl->in[1] - cl->in[3];
  if (w < 1)
    w = 1;
  /* narrower than its widest word: its words break anywhere */
  bool was = c->break_words;
  c->break_words = cl->min - cl->in[1] - cl->in[3] > w + 0.01;
  ts_vlist vl;
  ts_layout_cell(c, cl->n, w, &vl);
  c->break_words = was;
  cell_content(c, cl, &vl);
  free(vl.items);
}

/* ---- rows as boxes --------------------------------------------------- */

typedef struct slice {
  double *from, *to; /* per cell: the part of its content in this slice */
  bool first, last;
} slice;

static void block_for(oc_arena *a, ts_vbox *b, double x, double w, double top,
                      double bottom, const ts_cstyle *bg,
                      const ts_cstyle *borders, bool starts, bool ends) {
  ts_vblock *k = oc_arena_calloc(a, 1, sizeof *k);
  k->x = x;
  k->width = w;
  if (bg && bg->has_bg) {
    k->has_bg = true;
    k->bg = bg->bg;
  }
  for (int i = 0; borders && i < 4; i++) {
    tborder e = border_of(borders, i);
    k->border[i] = e.w;
    k->border_style[i] = e.style;
    k->border_color[i] = e.color;
  }
  if (!k->has_bg &&
      !(k->border[0] + k->border[1] + k->border[2] + k->border[3] > 0))
    return;
  box_block(a, b, (ts_box_block){k, 0, top, bottom, starts, ends});
}

/* A collapsed border as a block with one side drawn. */
static void edge(oc_arena *a, ts_vbox *b, tborder e, int side, double x,
                 double w, double top, double bottom) {
  if (e.w <= 0)
    return;
  ts_vblock *k = oc_arena_calloc(a, 1, sizeof *k);
  k->x = x;
  k->width = w;
  k->border[side] = e.w;
  k->border_style[side] = e.style;
  k->border_color[side] = e.color;
  box_block(a, b, (ts_box_block){k, 0, top, bottom, true, true});
}

/* The collapsed horizontal rules of row r: merged where they agree. */
static void hrules(table *t, ts_vbox *b, size_t r, bool top_edge, double y) {
  oc_arena *a = t->c->pa;
  int i = 0;
  while (i < t->ncols) {
    tborder e = hline(t, r, i, top_edge);
    int k = i + 1;
    while (k < t->ncols) {
      tborder f = hline(t, r, k, top_edge);
      if (f.w != e.w || f.style != e.style || f.color.r != e.color.r ||
          f.color.g != e.color.g || f.color.b != e.color.b)
        break;
      k++;
    }
    edge(a, b, e, 0, t->g[i], t->g[k] - t->g[i], y, y + e.w);
    i = k;
  }
}

static double hrule_height(table *t, size_t r, bool top_edge) {
  double h = 0;
  for (int i = 0; i < t->ncols; i++) {
    tborder e = hline(t, r, i, top_edge);
    if (e.w > h)
      h = e.w;
  }
  return h;
}

/* A cell's background, borders and content [from, to) in box b, its
 * border box from top, area high. */
static void place_cell(table *t, ts_vbox *b, const tcell *cl, double from,
                       double to, bool first, bool last, double top,
                       double area) {
  oc_arena *a = t->c->pa;
  int end = cl->col + cl->span > t->ncols ? t->ncols : cl->col + cl->span;
  double cx = t->g[cl->col], cw = t->g[end] - cx;
  block_for(a, b, cx, cw, top, top + area, cl->st, t->collapse ? NULL : cl->st,
            first, last);
  /* the content, placed by vertical-align when the cell is whole */
  double dy = top + (first ? cl->in[0] : 0) - from;
  if (first && last) {
    double room = area - cl->in[0] - cl->in[2] - cl->h;
    int va = cl->st->vertical_align;
    dy += va == TS_VA_MIDDLE ? room / 2 : va == TS_VA_BOTTOM ? room : 0;
  }
  double lx = cx + cl->in[3];
  const ts_vbox *in = &cl->content;
  /* a line belongs to the slice that holds its baseline */
  for (size_t i = 0; i < in->nlines; i++) {
    double base = in->lines[i].base;
    if (base <= from + 0.001 || base > to + 0.001)
      continue;
    box_line(a, b,
             (ts_box_line){in->lines[i].line, in->lines[i].x + lx, base + dy});
  }
  for (size_t i = 0; i < in->nrules; i++) {
    ts_box_rule ru = in->rules[i];
    if (ru.y < from - 0.001 || ru.y >= to - 0.001)
      continue;
    ru.x += lx;
    ru.y += dy;
    box_rule(a, b, ru);
  }
  for (size_t i = 0; i < in->nblocks; i++) {
    ts_box_block bb = in->blocks[i];
    if (bb.bottom <= from || bb.top >= to)
      continue;
    bb.starts = bb.starts && bb.top >= from;
    bb.ends = bb.ends && bb.bottom <= to;
    bb.top = (bb.top > from ? bb.top : from) + dy;
    bb.bottom = (bb.bottom < to ? bb.bottom : to) + dy;
    bb.x += lx;
    box_block(a, b, bb);
  }
}

/* One box of row r: all of it, or the slice of a row taller than a page.
 * The extras: what the table's edges (separate borders) or the collapsed
 * rules add above and below the cells. */
static ts_vbox *row_box(table *t, size_t r, const slice *s, double tx,
                        double tw, double *height) {
  ts_ctx *c = t->c;
  oc_arena *a = c->pa;
  trow *rw = &t->rows[r];
  const ts_cstyle *ts = t->st;
  ts_vbox *b = oc_arena_calloc(a, 1, sizeof *b);
  bool first_row = r == 0, last_row = r + 1 == t->nrows;
  double top = 0, bottom = 0;
  if (t->collapse) {
    if (first_row && s->first)
      top = hrule_height(t, r, true);
    if (s->last)
      bottom = hrule_height(t, r, false);
  } else {
    if (first_row && s->first)
      top = ts->border[0] + ts->padding[0];
    if (last_row && s->last)
      bottom = ts->border[2] + ts->padding[2];
  }
  /* the cells' area: the tallest cell's slice */
  double area = 0;
  for (size_t k = 0; k < rw->ncells; k++) {
    const tcell *cl = &rw->cells[k];
    if (cl->last_row > cl->row)
      continue; /* spanning rows: what it needs is in min_area */
    double h = s->to[k] - s->from[k] + (s->first ? cl->in[0] : 0) +
               (s->last ? cl->in[2] : 0);
    if (h > area)
      area = h;
  }
  if (s->first && s->last && rw->min_area > area)
    area = rw->min_area;
  double total = top + area + bottom;
  /* backgrounds: the table's, the group's, the row's, then the cells' */
  if (t->collapse)
    block_for(a, b, tx, tw, 0, total, ts, NULL, true, true);
  else
    block_for(a, b, tx, tw, 0, total, ts, ts, first_row && s->first,
              last_row && s->last);
  double gx = t->g[0], gw = t->g[t->ncols] - t->g[0];
  if (rw->group != ts)
    block_for(a, b, gx, gw, top, top + area, rw->group, NULL, true, true);
  block_for(a, b, gx, gw, top, top + area, rw->st, NULL, true, true);
  for (size_t k = 0; k < rw->ncells; k++) {
    const tcell *cl = &rw->cells[k];
    if (cl->last_row == cl->row) /* (the others go with their last row) */
      place_cell(t, b, cl, s->from[k], s->to[k], s->first, s->last, top, area);
  }
  /* cells spanning rows, from their first row's top: the rows of a span
     are set whole and kept together, so they lie just above */
  for (size_t e = 0; e < rw->nends && s->first && s->last; e++) {
    const tcell *cl = rw->ends[e];
    double y = t->rows[cl->row].top;
    for (size_t q = cl->row; q < r; q++)
      y -= t->rows[q].total;
    place_cell(t, b, cl, 0, cl->h, true, true, y, top + area - y);
  }
  if (t->collapse) {
    /* vertical rules where cells meet, then the horizontal ones */
    for (int j = 0; j <= t->ncols; j++) {
      tborder e = vline(t, r, j);
      double x0 = j == 0          ? t->g[0]
                  : j == t->ncols ? t->g[j] - e.w
                                  : t->g[j] - e.w / 2;
      edge(a, b, e, 3, x0, e.w, top, top + area);
    }
    if (first_row && s->first)
      hrules(t, b, r, true, 0);
    if (s->last)
      hrules(t, b, r, false, top + area);
  }
  if (s->first && s->last) {
    rw->top = top;
    rw->total = total;
  }
  *height = total;
  return b;
}

/* Where the slice of a cell starting at from ends, for room: after the
 * last unit that fits whole (at least one, so that a slice always moves
 * on), or the content's end when the rest fits. */
static double slice_end(const tcell *cl, double from, double room) {
  if (cl->h - from <= room)
    return cl->h;
  double end = from;
  for (size_t u = 0; u < cl->nunits; u++) {
    const tunit *un = &cl->units[u];
    if (un->bottom <= from + 0.001)
      continue;
    if (un->bottom - from > room && end > from)
      break;
    end = un->bottom;
    if (un->bottom - from > room)
      break;
  }
  return end > from ? end : cl->h;
}

static void push_box(ts_ctx *c, ts_vbox *b, double h) {
  ts_vl_push(c, (ts_vitem){.type = TS_V_BOX, .h = h, .u.box = b});
}

static void push_penalty(ts_ctx *c, double p) {
  ts_vl_push(c, (ts_vitem){.type = TS_V_PENALTY, .penalty = p});
}

/* Row r as one box, or as slices when taller than room. */
static void emit_row(table *t, size_t r, double tx, double tw, double room,
                     double between) {
  ts_ctx *c = t->c;
  trow *rw = &t->rows[r];
  size_t n = rw->ncells ? rw->ncells : 1;
  slice s = {oc_arena_calloc(c->pa, n, sizeof(double)),
             oc_arena_calloc(c->pa, n, sizeof(double)), true, true};
  for (size_t k = 0; k < rw->ncells; k++)
    s.to[k] = rw->cells[k].h;
  double h;
  ts_vbox *b = row_box(t, r, &s, tx, tw, &h);
  if (h <= room || room <= 0) {
    push_box(c, b, h);
    return;
  }
  /* Taller than a page: sliced at line boundaries, each cell on its own,
     a slice about a line high, so that the page builder fills the page
     the row starts on and breaks where it likes. */
  double fit = 1;
  for (size_t k = 0; k < rw->ncells; k++)
    for (size_t u = 0; u < rw->cells[k].nunits; u++) {
      const tunit *un = &rw->cells[k].units[u];
      if (un->bottom - un->top > fit)
        fit = un->bottom - un->top;
    }
  bool done = false;
  s.last = false;
  for (size_t k = 0; k < rw->ncells; k++)
    s.to[k] = 0;
  while (!done) {
    done = true;
    for (size_t k = 0; k < rw->ncells; k++) {
      s.from[k] = s.to[k];
      s.to[k] = slice_end(&rw->cells[k], s.from[k], fit);
      if (s.to[k] < rw->cells[k].h - 0.001)
        done = false;
    }
    s.last = done;
    b = row_box(t, r, &s, tx, tw, &h);
    push_box(c, b, h);
    if (!done)
      push_penalty(c, between);
    s.first = false;
  }
}

/* A caption as a box of its lines, at the table's width. */
static void emit_caption(table *t, double tx, double tw) {
  ts_ctx *c = t->c;
  const ts_cstyle *cs = ts_style_of(c, t->caption);
  tcell cl = {.n = t->caption, .st = cs, .span = 1};
  for (int i = 0; i < 4; i++)
    cl.in[i] = cs->padding[i] + cs->border[i];
  double w = tw - cl.in[1] - cl.in[3];
  ts_vlist vl;
  ts_layout_cell(c, t->caption, w > 1 ? w : 1, &vl);
  cell_content(c, &cl, &vl);
  free(vl.items);
  ts_vbox *b = oc_arena_calloc(c->pa, 1, sizeof *b);
  double top = cs->caption_bottom ? cs->margin[0] : 0;
  double area = cl.in[0] + cl.h + cl.in[2];
  block_for(c->pa, b, tx, tw, top, top + area, cs, cs, true, true);
  for (size_t i = 0; i < cl.content.nlines; i++) {
    ts_box_line l = cl.content.lines[i];
    l.x += tx + cl.in[3];
    l.base += top + cl.in[0];
    box_line(c->pa, b, l);
  }
  push_box(c, b, top + area + (cs->caption_bottom ? 0 : cs->margin[2]));
}

/* The height a whole row's own cells need (cells spanning rows aside). */
static double natural_area(const table *t, size_t r) {
  const trow *rw = &t->rows[r];
  double area = 0;
  for (size_t k = 0; k < rw->ncells; k++) {
    const tcell *cl = &rw->cells[k];
    double h = cl->in[0] + cl->h + cl->in[2];
    if (cl->last_row == cl->row && h > area)
      area = h;
  }
  return area > rw->min_area ? area : rw->min_area;
}

/* A cell spanning rows made a cell of its first row alone (its rows taller
 * than a page must be free to break apart). */
static void unspan(table *t, tcell *cl) {
  for (size_t q = cl->row + 1; q <= cl->last_row; q++)
    for (int s = 0; s < cl->span && cl->col + s < t->ncols; s++)
      if (t->rows[q].at[cl->col + s] == cl)
        t->rows[q].at[cl->col + s] = NULL;
  trow *e = &t->rows[cl->last_row];
  for (size_t i = 0; i < e->nends; i++)
    if (e->ends[i] == cl) {
      e->ends[i] = e->ends[--e->nends];
      break;
    }
  cl->last_row = cl->row;
}

/* Rows under cells spanning them: the last row grows when the cell needs
 * more than they give, and they are set whole, kept together. */
static void span_heights(table *t, double room) {
  ts_ctx *c = t->c;
  for (size_t r = 0; r < t->nrows; r++) {
    trow *rw = &t->rows[r];
    for (size_t e = 0; e < rw->nends; e++) {
      tcell *cl = rw->ends[e];
      double need = cl->in[0] + cl->h + cl->in[2], have = 0;
      for (size_t q = cl->row; q <= r; q++) {
        have += natural_area(t, q);
        if (q < r && t->collapse)
          have += hrule_height(t, q, false);
      }
      if (room > 0 && (need > room * 0.9 || have > room * 0.9)) {
        oc_report(c->rep, OC_WARNING, c->in->name, cl->n->line, 0,
                  "a cell spanning %zu rows is taller than a page: it spans "
                  "one row, so that its rows can break across pages",
                  cl->last_row - cl->row + 1);
        unspan(t, cl);
        e--;
        continue;
      }
      if (need > have)
        rw->min_area = natural_area(t, r) + need - have;
    }
  }
  for (size_t r = 0; r < t->nrows; r++)
    t->rows[r].joined = false;
  for (size_t r = 0; r < t->nrows; r++)
    for (size_t k = 0; k < t->rows[r].ncells; k++)
      for (size_t q = r + 1; q <= t->rows[r].cells[k].last_row; q++)
        t->rows[q].joined = true;
}

/* The anchors waiting for a line go on the table's first. */
static void hand_anchors(ts_ctx *c, size_t from, const char **anchors,
                         size_t nanchors) {
  for (size_t i = from; nanchors && i < c->vl.n; i++) {
    const ts_vitem *it = &c->vl.items[i];
    if (it->type != TS_V_BOX || !it->u.box->nlines)
      continue;
    ts_box_line *bl = &it->u.box->lines[0];
    ts_vline *ln = oc_arena_alloc(c->pa, sizeof *ln);
    *ln = *bl->line;
    ln->anchors =
        oc_arena_alloc(c->pa, (ln->nanchors + nanchors) * sizeof *ln->anchors);
    memcpy(ln->anchors, anchors, nanchors * sizeof *anchors);
    if (bl->line->nanchors)
      memcpy(ln->anchors + nanchors, bl->line->anchors,
             bl->line->nanchors * sizeof *ln->anchors);
    ln->nanchors += nanchors;
    bl->line = ln;
    return;
  }
}

/* The grid of table n, and the collapsed borders on its grid lines. */
static void prepare(table *t, ts_ctx *c, ts_node *n) {
  *t = (table){.c = c, .n = n, .st = ts_style_of(c, n)};
  t->collapse = t->st->border_collapse;
  gather(t);
  t->vw = oc_arena_calloc(c->pa, (size_t)t->ncols + 1, sizeof *t->vw);
  if (t->collapse)
    for (size_t r = 0; r < t->nrows; r++)
      for (int j = 0; j <= t->ncols; j++) {
        tborder e = vline(t, r, j);
        if (e.w > t->vw[j])
          t->vw[j] = e.w;
      }
}

void ts_measure_table(ts_ctx *c, ts_node *n, double *min, double *max) {
  table t;
  prepare(&t, c, n);
  *min = *max = 0;
  if (!t.ncols)
    return;
  double *mn = oc_arena_calloc(c->pa, (size_t)t.ncols, sizeof *mn);
  double *mx = oc_arena_calloc(c->pa, (size_t)t.ncols, sizeof *mx);
  measure_columns(&t, mn, mx, min, max);
  const ts_cstyle *st = t.st;
  if (!t.collapse) {
    double e = st->border[1] + st->border[3] + st->padding[1] + st->padding[3];
    *min += e;
    *max += e;
  }
  if (st->width >= 0 && st->width > *min)
    *min = *max = st->width;
}

void ts_layout_table(ts_ctx *c, ts_node *n, double x, double width, bool avoid,
                     const char **anchors, size_t nanchors) {
  table t;
  prepare(&t, c, n);
  size_t first = c->vl.n;
  if (!t.ncols) {
    /* an empty table: its caption, if any */
    if (t.caption)
      emit_caption(&t, x, width);
    hand_anchors(c, first, anchors, nanchors);
    return;
  }
  double tx;
  double tw = column_widths(&t, x, width, &tx);
  for (size_t r = 0; r < t.nrows; r++)
    for (size_t k = 0; k < t.rows[r].ncells; k++)
      layout_cell(&t, &t.rows[r].cells[k]);
  span_heights(&t, c->content_height);
  double between = avoid ? TS_INF_PENALTY : 0;
  bool bottom_caption = t.caption && ts_style_of(c, t.caption)->caption_bottom;
  if (t.caption && !bottom_caption) {
    emit_caption(&t, tx, tw);
    push_penalty(c, TS_INF_PENALTY);
  }
  size_t start = c->vl.n;
  ts_vl_push(c, (ts_vitem){.type = TS_V_TABLE_START});
  double head_h = 0, room = c->content_height;
  size_t r = 0;
  for (; r < t.nrows && t.rows[r].head; r++) {
    if (r)
      push_penalty(c, TS_INF_PENALTY);
    emit_row(&t, r, tx, tw, 0, TS_INF_PENALTY);
    head_h += c->vl.items[c->vl.n - 1].h;
  }
  c->vl.items[start].u.head.start = start + 1;
  c->vl.items[start].u.head.end = c->vl.n;
  /* the header is set again above the rows of each page */
  if (room - head_h > room / 4)
    room -= head_h;
  for (size_t body = 0; r < t.nrows; r++, body++) {
    /* never a header alone at a page's foot, nor a row apart from the
       rows a cell spans with it */
    if (r)
      push_penalty(c, body == 0 || t.rows[r].joined ? TS_INF_PENALTY : between);
    bool spans = t.rows[r].joined;
    for (size_t k = 0; k < t.rows[r].ncells && !spans; k++)
      spans = t.rows[r].cells[k].last_row > r;
    /* (the rows of a span are set whole: span_heights saw to it that
       they fit a page) */
    emit_row(&t, r, tx, tw, spans ? 0 : room, between);
  }
  ts_vl_push(c, (ts_vitem){.type = TS_V_TABLE_END});
  if (bottom_caption) {
    push_penalty(c, TS_INF_PENALTY);
    emit_caption(&t, tx, tw);
  }
  hand_anchors(c, first, anchors, nanchors);
}
