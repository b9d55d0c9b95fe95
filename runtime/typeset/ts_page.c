/* The vertical list to pages, and the pages to PDF.
 *
 * Breaking: TeX's page builder with a ragged bottom. Legal breaks are
 * penalties below TS_INF_PENALTY and glue that follows a line or a box; the
 * page ends at the cheapest legal break that fits (the latest of equals);
 * a forced penalty ends it at once. Glue and penalties after an unforced
 * break are discarded, as CSS truncates margins there; after a forced break
 * they are kept (a chapter title's top margin pushes it down the page).
 * When nothing legal fits (a keep longer than a page), the page takes what
 * fits and breaks where it must, so setting always finishes.
 *
 * Pages: a forced break may ask for a left or a right page; a blank page is
 * put in between when needed. @page rules are chosen by name, :first (the
 * document's first page; for a named rule, the first page of each group
 * that starts at a forced break onto that name), :left, :right and :blank,
 * by CSS Paged Media's specificity, then order. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "oc_sb.h"
#include "ts_engine_int.h"

typedef struct page_geo {
  double w, h;    /* the trim size */
  double m[4];    /* top right bottom left */
  double bleed;   /* pt, outside the trim */
  unsigned marks; /* TS_MARKS_* */
  const css_decl *box[CSS_MB_COUNT][CSS_P_COUNT];
  bool has_box[CSS_MB_COUNT];
} page_geo;

/* Items [start, end) of a list; gap: space kept below them; repeat: a
 * table's header rows set again. */
typedef struct ts_range {
  size_t start, end;
  double gap;
  bool repeat;
} ts_range;

typedef struct ts_page {
  size_t start, end; /* items [start, end) */
  ts_range *tops;    /* set first: floats moved here, repeated headers */
  size_t ntops, ctops;
  ts_range *skips; /* in [start, end): floats moved to a later page */
  size_t nskips, cskips;
  double tops_h;
  size_t nstart, nend; /* footnote items [nstart, nend) of c->notes */
  double notes_h;      /* with the separator */
  bool notes_continued;
  const char *name;
  bool left, blank, group_first;
  long counter;
  bool reset;
  int label_style; /* css_counter_style, -1 unknown */
  const page_geo *geo;
} ts_page;

typedef struct anchor_pos {
  const char *id;
  size_t page;
  double y;
} anchor_pos;

struct ts_pages {
  ts_page *p;
  size_t n, cap;
  ts_hidx anchors; /* anchor_pos by id */
  struct geo_cache {
    const char *name;
    unsigned bits;
    page_geo geo;
  } * geos;
  size_t ngeos, cgeos;
};

/* ---- @page rules ------------------------------------------------------ */

static unsigned page_spec(const css_page_rule *r) {
  unsigned f = r->name ? 1 : 0;
  unsigned g = ((r->pseudo & CSS_PAGE_FIRST) ? 1 : 0) +
               ((r->pseudo & CSS_PAGE_BLANK) ? 1 : 0);
  unsigned h = (r->pseudo & (CSS_PAGE_LEFT | CSS_PAGE_RIGHT)) ? 1 : 0;
  return f << 16 | g << 8 | h;
}

typedef struct prule {
  const css_page_rule *r;
  unsigned spec;
  size_t order;
} prule;

static int prule_cmp(const void *a, const void *b) {
  const prule *x = a, *y = b;
  if (x->spec != y->spec)
    return x->spec < y->spec ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

enum { PB_FIRST = 1, PB_LEFT = 2, PB_BLANK = 4, PB_GROUP_FIRST = 8 };

static void resolve_geo(ts_ctx *c, const char *name, unsigned bits,
                        page_geo *g) {
  memset(g, 0, sizeof *g);
  g->w = c->in->page_width > 0 ? c->in->page_width : 595.276;
  g->h = c->in->page_height > 0 ? c->in->page_height : 841.89;
  g->bleed = c->in->bleed > 0 ? c->in->bleed : 0;
  g->marks = (unsigned)c->in->marks & (TS_MARKS_CROP | TS_MARKS_CROSS);
  for (int i = 0; i < 4; i++)
    g->m[i] = 56.69; /* 2 cm */
  prule list[128];
  size_t n = 0, order = 0;
  for (size_t s = 0; s < c->nsheets; s++) {
    const css_stylesheet *sh = c->sheets[s];
    for (size_t i = 0; i < sh->npages; i++, order++) {
      const css_page_rule *r = &sh->pages[i];
      if (r->name && (!name || strcasecmp(r->name, name)))
        continue;
      if (r->pseudo & CSS_PAGE_FIRST) {
        bool first = r->name ? (bits & PB_GROUP_FIRST) : (bits & PB_FIRST);
        if (!first)
          continue;
      }
      if ((r->pseudo & CSS_PAGE_LEFT) && !(bits & PB_LEFT))
        continue;
      if ((r->pseudo & CSS_PAGE_RIGHT) && (bits & PB_LEFT))
        continue;
      if ((r->pseudo & CSS_PAGE_BLANK) && !(bits & PB_BLANK))
        continue;
      if (n < sizeof list / sizeof list[0])
        list[n++] = (prule){r, page_spec(r), order};
    }
  }
  qsort(list, n, sizeof *list, prule_cmp);
  const css_decl *size = NULL, *margin[4] = {0}, *bleed = NULL, *marks = NULL;
  for (size_t i = 0; i < n; i++) {
    const css_page_rule *r = list[i].r;
    for (size_t k = 0; k < r->ndecls; k++) {
      const css_decl *d = &r->decls[k];
      if (d->prop == CSS_P_SIZE)
        size = d;
      else if (d->prop == CSS_P_BLEED)
        bleed = d;
      else if (d->prop == CSS_P_MARKS)
        marks = d;
      else if (d->prop >= CSS_P_MARGIN_TOP && d->prop <= CSS_P_MARGIN_LEFT)
        margin[d->prop - CSS_P_MARGIN_TOP] = d;
    }
    for (size_t b = 0; b < r->nboxes; b++) {
      const css_margin_rule *mb = &r->boxes[b];
      g->has_box[mb->box] = true;
      for (size_t k = 0; k < mb->ndecls; k++)
        g->box[mb->box][mb->decls[k].prop] = &mb->decls[k];
    }
  }
  if (size)
    css_read_page_size(size->value, size->nvalue, &g->w, &g->h);
  if (marks) {
    /* none | crop || cross */
    g->marks = 0;
    for (size_t k = 0; k < marks->nvalue; k++) {
      const css_token *t = &marks->value[k];
      if (t->type != CSS_T_IDENT)
        continue;
      if (!strcasecmp(t->text, "crop"))
        g->marks |= TS_MARKS_CROP;
      else if (!strcasecmp(t->text, "cross"))
        g->marks |= TS_MARKS_CROSS;
    }
  }
  css_length bl;
  if (bleed && css_read_length(bleed->value, bleed->nvalue, &bl))
    g->bleed = fmax(0, css_length_pt(bl, 12, 12, g->w));
  else if (bleed && css_read_keyword(bleed->value, bleed->nvalue))
    g->bleed = g->marks ? 6 : 0; /* auto, as CSS Paged Media says */
  for (int i = 0; i < 4; i++) {
    css_length l;
    if (margin[i] && css_read_length(margin[i]->value, margin[i]->nvalue, &l))
      g->m[i] = css_length_pt(l, 12, 12, (i % 2) ? g->w : g->h);
  }
}

static const page_geo *geo_for(ts_ctx *c, ts_pages *pg, const char *name,
                               unsigned bits) {
  for (size_t i = 0; i < pg->ngeos; i++) {
    struct geo_cache *gc = &pg->geos[i];
    if (gc->bits == bits &&
        ((!gc->name && !name) || (gc->name && name && !strcmp(gc->name, name))))
      return &gc->geo;
  }
  pg->geos = oc_arena_grow_array(c->pa, pg->geos, pg->ngeos, &pg->cgeos,
                                 pg->ngeos + 1, sizeof *pg->geos);
  struct geo_cache *gc = &pg->geos[pg->ngeos++];
  gc->name = name;
  gc->bits = bits;
  resolve_geo(c, name, bits, &gc->geo);
  return &gc->geo;
}

double ts_page_content_height(ts_ctx *c, const char *name) {
  page_geo g;
  resolve_geo(c, name, 0, &g);
  return g.h - g.m[0] - g.m[2];
}

double ts_page_content_width(ts_ctx *c, const char *name) {
  page_geo g;
  resolve_geo(c, name, 0, &g);
  return g.w - g.m[1] - g.m[3];
}

/* ---- anchors ---------------------------------------------------------- */

static bool anchor_eq(const void *entry, const void *key) {
  return strcmp(((const anchor_pos *)entry)->id, key) == 0;
}

static void anchor_put(ts_ctx *c, ts_pages *pg, const char *id, size_t page,
                       double y) {
  uint64_t h = ts_hash_bytes(TS_HASH_SEED, id, strlen(id));
  if (ts_hidx_get(&pg->anchors, h, anchor_eq, id))
    return; /* the first one wins, as in HTML */
  anchor_pos *e = oc_arena_alloc(c->pa, sizeof *e);
  *e = (anchor_pos){id, page, y};
  ts_hidx_put(&pg->anchors, h, e);
}

static const anchor_pos *anchor_get(const ts_pages *pg, const char *id) {
  return ts_hidx_get(&pg->anchors, ts_hash_bytes(TS_HASH_SEED, id, strlen(id)),
                     anchor_eq, id);
}

/* ---- breaking --------------------------------------------------------- */

static bool discardable(ts_vtype t) {
  return t == TS_V_GLUE || t == TS_V_PENALTY;
}

static bool forced(const ts_vitem *it) {
  return it->type == TS_V_PENALTY && it->penalty <= -TS_INF_PENALTY;
}

static double item_height(const ts_vitem *it) {
  switch (it->type) {
  case TS_V_LINE:
    return it->h + it->d;
  case TS_V_GLUE:
  case TS_V_SPACE:
  case TS_V_RULE:
  case TS_V_BOX:
    return it->h;
  default:
    return 0;
  }
}

static ts_page *new_page(ts_ctx *c, ts_pages *pg) {
  pg->p = oc_arena_grow_array(c->pa, pg->p, pg->n, &pg->cap, pg->n + 1,
                              sizeof *pg->p);
  ts_page *p = &pg->p[pg->n++];
  memset(p, 0, sizeof *p);
  p->left = (pg->n - 1) % 2 == 1;
  p->label_style = -1;
  return p;
}

static void range_push(oc_arena *a, ts_range **r, size_t *n, size_t *cap,
                       ts_range v) {
  *r = oc_arena_grow_array(a, *r, *n, cap, *n + 1, sizeof **r);
  (*r)[(*n)++] = v;
}

/* The height of items [start, end), leading and trailing glue and
 * penalties left out (as at the top of a page). */
static double range_height(const ts_vitem *items, size_t start, size_t end) {
  while (start < end && discardable(items[start].type))
    start++;
  while (end > start && discardable(items[end - 1].type))
    end--;
  double h = 0;
  for (size_t i = start; i < end; i++)
    h += item_height(&items[i]);
  return h;
}

/* Footnotes: the separator above them (space, a rule, space). */
#define NOTE_SEP_ABOVE 9.0
#define NOTE_SEP_BELOW 5.0
#define NOTE_SEP_RULE 0.4

typedef struct notes_state {
  const ts_vitem *items;
  size_t n;
  double *sum; /* sum[i]: the height of items [0, i) */
} notes_state;

static double notes_h(const notes_state *ns, size_t a, size_t b) {
  if (b <= a)
    return 0;
  return ns->sum[b] - ns->sum[a] + NOTE_SEP_ABOVE + NOTE_SEP_RULE +
         NOTE_SEP_BELOW;
}

/* The notes called by a line, or by the lines of a table row: where
 * they end and where the first line of the last of them ends. */
static bool item_notes(const ts_vitem *it, size_t *need, size_t *end) {
  *need = *end = 0;
  if (it->type == TS_V_LINE) {
    *need = it->u.line->notes_need;
    *end = it->u.line->notes_end;
  } else if (it->type == TS_V_BOX) {
    const ts_vbox *b = it->u.box;
    for (size_t i = 0; i < b->nlines; i++) {
      const ts_vline *ln = b->lines[i].line;
      if (ln->notes_end > *end) {
        *end = ln->notes_end;
        *need = ln->notes_need;
      }
    }
  }
  return *end > 0;
}

/* The end of the first line at or after note item k. */
static size_t note_line_end(const notes_state *ns, size_t k) {
  for (size_t i = k; i < ns->n; i++)
    if (ns->items[i].type == TS_V_LINE || ns->items[i].type == TS_V_BOX)
      return i + 1;
  return ns->n;
}

static size_t note_skip_glue(const notes_state *ns, size_t k) {
  while (k < ns->n && discardable(ns->items[k].type))
    k++;
  return k;
}

static void place_range_anchors(ts_ctx *c, ts_pages *pg, size_t pi,
                                const ts_vitem *items, size_t start, size_t end,
                                const ts_range *skips, size_t nskips,
                                double y) {
  size_t sk = 0;
  for (size_t i = start; i < end; i++) {
    if (sk < nskips && i == skips[sk].start) {
      i = skips[sk++].end - 1;
      continue;
    }
    const ts_vitem *it = &items[i];
    if (it->type == TS_V_LINE) {
      const ts_vline *ln = it->u.line;
      for (size_t k = 0; k < ln->nanchors; k++)
        anchor_put(c, pg, ln->anchors[k], pi, y);
    } else if (it->type == TS_V_BOX) {
      const ts_vbox *b = it->u.box;
      for (size_t l = 0; l < b->nlines; l++) {
        /* the line's top: its baseline raised by its tallest glyphs */
        const ts_vline *ln = b->lines[l].line;
        double above = 0;
        for (size_t r = 0; r < ln->nruns; r++) {
          double a = ln->runs[r].face->ascent * ln->runs[r].size / 1000.0;
          if (a > above)
            above = a;
        }
        for (size_t k = 0; k < ln->nanchors; k++)
          anchor_put(c, pg, ln->anchors[k], pi, y - b->lines[l].base + above);
      }
    }
    y -= item_height(it);
  }
}

static void place_anchors(ts_ctx *c, ts_pages *pg, size_t pi) {
  ts_page *p = &pg->p[pi];
  const ts_vitem *items = c->vl.items;
  double y = p->geo->h - p->geo->m[0];
  for (size_t t = 0; t < p->ntops; t++) {
    if (p->tops[t].repeat)
      y -= range_height(items, p->tops[t].start, p->tops[t].end);
    else {
      place_range_anchors(c, pg, pi, items, p->tops[t].start, p->tops[t].end,
                          NULL, 0, y);
      y -= range_height(items, p->tops[t].start, p->tops[t].end) +
           p->tops[t].gap;
    }
  }
  place_range_anchors(c, pg, pi, items, p->start, p->end, p->skips, p->nskips,
                      y);
  if (p->nend > p->nstart)
    place_range_anchors(c, pg, pi, c->notes.items, p->nstart, p->nend, NULL, 0,
                        p->geo->m[2] + p->notes_h);
}

/* The innermost table open at item pos whose header rows lie before it. */
typedef struct table_stack {
  size_t start[32];
  size_t n;
} table_stack;

static void tables_update(table_stack *ts, const ts_vitem *items, size_t from,
                          size_t to) {
  for (size_t i = from; i < to; i++) {
    if (items[i].type == TS_V_TABLE_START) {
      if (ts->n < 32)
        ts->start[ts->n] = i;
      ts->n++;
    } else if (items[i].type == TS_V_TABLE_END && ts->n) {
      ts->n--;
    }
  }
}

/* The page builder's state between pages. */
typedef struct builder {
  ts_ctx *c;
  ts_pages *pg;
  const ts_vitem *items;
  size_t n, pos;    /* the vertical list, and where the next page starts */
  const char *name; /* the page name in force */
  int side;         /* a side asked for by a forced break */
  bool group, after_forced;
  long pending_reset;
  notes_state ns;
  size_t npos, ncalled; /* notes placed, notes called */
  ts_range *waiting;    /* floats moved off a page, not yet set */
  size_t nwaiting, cwaiting;
  table_stack tables;
} builder;

/* The page being filled, and the best break found for it so far. */
typedef struct page_fill {
  ts_page *p;
  bool only_waiting; /* a page of the notes and floats still waiting */
  double avail, h;
  size_t nstart, need; /* notes from nstart; those up to need stand here */
  size_t best, best_need;
  double best_cost;
  bool found, ended_forced;
  ts_range *moved; /* floats this page passes over */
  size_t nmoved, cmoved;
  size_t j; /* where filling stopped */
} page_fill;

/* Step 1: forced breaks at the top of a page set what comes next (its
 * name, its side); after an unforced break, glue and penalties go. */
static void take_breaks(builder *B, bool only_waiting) {
  const ts_vitem *items = B->items;
  while (!only_waiting && B->pos < B->n && forced(&items[B->pos])) {
    const ts_vitem *f = &items[B->pos];
    B->name = f->page_name;
    B->group = f->page_name != NULL;
    if (f->brk == TS_BRK_LEFT || f->brk == TS_BRK_RIGHT)
      B->side = f->brk;
    B->after_forced = true;
    B->pos++;
  }
  if (!B->after_forced && !only_waiting)
    while (B->pos < B->n && discardable(items[B->pos].type) &&
           !forced(&items[B->pos]))
      B->pos++;
  B->npos = note_skip_glue(&B->ns, B->npos);
}

/* Step 2: a blank page when the side asked for is not the next one, then
 * the page, its @page rule chosen. */
static ts_page *open_page(builder *B, bool only_waiting) {
  ts_ctx *c = B->c;
  ts_pages *pg = B->pg;
  bool next_left = pg->n % 2 == 1;
  if ((B->side == TS_BRK_RIGHT && next_left) ||
      (B->side == TS_BRK_LEFT && !next_left)) {
    ts_page *b = new_page(c, pg);
    b->blank = true;
    b->name = pg->n > 1 ? pg->p[pg->n - 2].name : B->name;
    b->start = b->end = B->pos;
    unsigned bits = PB_BLANK | (b->left ? PB_LEFT : 0);
    b->geo = geo_for(c, pg, b->name, bits);
  }
  B->side = 0;
  ts_page *p = new_page(c, pg);
  p->name = B->name;
  p->group_first = B->group && !only_waiting;
  if (!only_waiting)
    B->group = false;
  unsigned bits = (pg->n == 1 ? PB_FIRST : 0) | (p->left ? PB_LEFT : 0) |
                  (p->group_first ? PB_GROUP_FIRST : 0);
  p->geo = geo_for(c, pg, B->name, bits);
  return p;
}

/* Step 3: what is set at the top of the page: floats moved from the page
 * before, in their order, and the header rows of a table going on from
 * it; then the notes that must stand here (carried over, or called in
 * those floats). */
static void set_tops(builder *B, page_fill *f) {
  const ts_vitem *items = B->items;
  ts_page *p = f->p;
  size_t kept = 0;
  for (size_t w = 0; w < B->nwaiting; w++) {
    ts_range r = B->waiting[w];
    double fh = range_height(items, r.start, r.end) + r.gap;
    if (f->h == 0 || f->h + fh <= f->avail) {
      range_push(B->c->pa, &p->tops, &p->ntops, &p->ctops, r);
      f->h += fh;
    } else {
      B->waiting[kept++] = r;
    }
  }
  B->nwaiting = kept;
  table_stack *ts = &B->tables;
  if (ts->n && ts->n <= 32 && B->pos < B->n) {
    const ts_vitem *t = &items[ts->start[ts->n - 1]];
    if (t->u.head.end > t->u.head.start && t->u.head.end <= B->pos) {
      ts_range r = {t->u.head.start, t->u.head.end, 0, true};
      range_push(B->c->pa, &p->tops, &p->ntops, &p->ctops, r);
      f->h += range_height(items, r.start, r.end);
    }
  }
  p->tops_h = f->h;
  /* notes carried over from the page before: at least their first line
     stands here */
  f->nstart = f->need = B->npos;
  if (B->npos < B->ncalled)
    f->need = note_line_end(&B->ns, B->npos);
  for (size_t t = 0; t < p->ntops; t++)
    for (size_t i = p->tops[t].start; i < p->tops[t].end; i++) {
      size_t in, ie;
      if (!p->tops[t].repeat && item_notes(&items[i], &in, &ie) &&
          ie > B->ncalled) {
        B->ncalled = ie;
        if (in > f->need)
          f->need = in;
      }
    }
}

/* Step 4, for a float met while filling: true when it goes to the next
 * page (the text flowing on), recorded in f->moved. */
static bool move_float(builder *B, page_fill *f, size_t j, double req) {
  const ts_vitem *it = &B->items[j];
  size_t fe = it->u.head.end;
  double fh = range_height(B->items, j + 1, fe);
  const page_geo *g = f->p->geo;
  double full = g->h - g->m[0] - g->m[2];
  if ((B->nwaiting || f->h + fh + req > f->avail + 0.01) &&
      fh + it->d <= full && j > B->pos) {
    range_push(B->c->pa, &f->moved, &f->nmoved, &f->cmoved,
               (ts_range){j, fe + 1, it->d, 0});
    return true;
  }
  return false;
}

/* Step 4: items go on the page while they fit with the notes they call;
 * the cheapest legal break that fits (the latest of equals) is kept, a
 * forced one ends the page at once. */
static void fill_page(builder *B, page_fill *f) {
  const ts_vitem *items = B->items;
  const notes_state *ns = &B->ns;
  size_t j = B->pos;
  for (; j < B->n && !f->only_waiting; j++) {
    const ts_vitem *it = &items[j];
    if (forced(it)) {
      f->best = j;
      f->best_need = f->need;
      f->found = true;
      f->ended_forced = true;
      break;
    }
    double req = notes_h(ns, f->nstart, f->need);
    if (it->type == TS_V_FLOAT_START && it->u.head.end < B->n &&
        move_float(B, f, j, req)) {
      j = it->u.head.end;
      continue;
    }
    bool legal = false;
    double cost = 0;
    if (it->type == TS_V_PENALTY && it->penalty < TS_INF_PENALTY) {
      legal = true;
      cost = it->penalty;
    } else if (it->type == TS_V_GLUE && j > B->pos &&
               !discardable(items[j - 1].type)) {
      legal = true;
    }
    if (legal && j > B->pos && f->h + req <= f->avail + 0.01 &&
        cost <= f->best_cost) {
      f->best = j;
      f->best_need = f->need;
      f->best_cost = cost;
      f->found = true;
    }
    double ih = item_height(it);
    size_t nneed = f->need;
    size_t item_need, item_end;
    if (item_notes(it, &item_need, &item_end)) {
      /* a short note is kept whole; a long one may go on overleaf */
      size_t want = notes_h(ns, f->nstart, item_end) <= f->avail * 0.4
                        ? item_end
                        : item_need;
      if (want > nneed)
        nneed = want;
    }
    double nreq = notes_h(ns, f->nstart, nneed);
    /* at the top of a page, an item goes in even when it does not fit,
       unless notes carried over are what fills the page */
    if (f->h + ih + nreq > f->avail + 0.01 && it->type != TS_V_GLUE &&
        (j > B->pos || (f->nstart < B->ncalled && nreq > 0)))
      break;
    f->h += ih;
    f->need = nneed;
    if (it->type == TS_V_COUNTER_RESET) {
      f->p->reset = true;
      B->pending_reset = it->u.counter;
    }
  }
  f->j = j;
}

/* Step 5: where the page ends when filling found no legal break: the end
 * of the list, a page of notes carried over, or where the page is
 * full. */
static void settle_break(builder *B, page_fill *f) {
  size_t pos = B->pos, j = f->j;
  if (f->only_waiting) {
    f->found = true;
    f->best = pos;
  } else if (j >= B->n && !f->ended_forced) {
    f->best = B->n;
    f->best_need = f->need;
    f->found = true;
  }
  if (!f->only_waiting && (!f->found || f->best <= pos) && j == pos &&
      f->nstart < B->ncalled) {
    f->best = pos; /* a page of the notes carried over */
    f->best_need = f->need;
  } else if (!f->only_waiting && (!f->found || f->best <= pos)) {
    /* nothing legal fits: cut where the page is full */
    f->best = j > pos ? j : pos + 1;
    f->best_need = f->need;
  }
}

/* Step 6: the page ends at the break: the floats passed over before it go
 * to the next page, the counter reset and the notes called up to it are
 * its own; returns the height of its content. */
static double close_page(builder *B, page_fill *f) {
  ts_ctx *c = B->c;
  const ts_vitem *items = B->items;
  ts_page *p = f->p;
  size_t pos = B->pos, best = f->best;
  p->start = pos;
  p->end = best;
  for (size_t m = 0; m < f->nmoved; m++)
    if (f->moved[m].end <= best) {
      range_push(c->pa, &p->skips, &p->nskips, &p->cskips, f->moved[m]);
      range_push(c->pa, &B->waiting, &B->nwaiting, &B->cwaiting, f->moved[m]);
    }
  /* a reset beyond the chosen break belongs to the next page */
  p->reset = false;
  double hc = p->tops_h;
  size_t sk = 0;
  size_t seg_start = pos;
  for (size_t i = pos; i < best; i++) {
    if (sk < p->nskips && i == p->skips[sk].start) {
      hc += range_height(items, seg_start, i);
      i = p->skips[sk++].end - 1;
      seg_start = i + 1;
      continue;
    }
    const ts_vitem *it = &items[i];
    if (it->type == TS_V_COUNTER_RESET && !p->reset) {
      p->reset = true;
      B->pending_reset = it->u.counter;
    }
    size_t item_need, item_end;
    if (item_notes(it, &item_need, &item_end)) {
      if (item_end > B->ncalled)
        B->ncalled = item_end;
      if (item_need > f->best_need)
        f->best_need = item_need;
    }
  }
  hc += range_height(items, seg_start, best);
  p->counter = p->reset ? B->pending_reset : 0;
  return hc;
}

/* Step 7: the notes at the foot: those that must stand here, then as
 * many more lines as fit. */
static void place_notes(builder *B, page_fill *f, double hc) {
  const notes_state *ns = &B->ns;
  ts_page *p = f->p;
  size_t nstart = f->nstart;
  size_t nend = f->best_need > nstart ? f->best_need : nstart;
  while (nend < B->ncalled) {
    size_t e = note_line_end(ns, note_skip_glue(ns, nend));
    if (e > B->ncalled || hc + notes_h(ns, nstart, e) > f->avail + 0.01)
      break;
    nend = e;
  }
  if (nend == nstart && nstart < B->ncalled && f->best == B->pos)
    nend = note_line_end(ns, nstart); /* progress, whatever the room */
  p->nstart = nstart;
  p->nend = nend;
  p->notes_h = notes_h(ns, nstart, nend);
  /* the first line of each note is marked (brk) by the layout */
  p->notes_continued =
      nend > nstart && !ns->items[note_line_end(ns, nstart) - 1].brk;
  B->npos = nend;
}

/* One page (and a blank one before it when a side asks for it). */
static void build_page(builder *B) {
  /* notes and floats still waiting at a forced break (or at the end) get
     pages of their own first, under the name in force */
  page_fill f = {.only_waiting = (B->npos < B->ncalled || B->nwaiting) &&
                                 (B->pos >= B->n || forced(&B->items[B->pos])),
                 .best_cost = INFINITY};
  take_breaks(B, f.only_waiting);
  if (B->pos >= B->n && B->npos >= B->ncalled && !B->nwaiting)
    return;
  f.p = open_page(B, f.only_waiting);
  const page_geo *g = f.p->geo;
  f.avail = g->h - g->m[0] - g->m[2];
  set_tops(B, &f);
  f.best_need = f.need;
  fill_page(B, &f);
  settle_break(B, &f);
  place_notes(B, &f, close_page(B, &f));
  tables_update(&B->tables, B->items, B->pos, f.best);
  B->pos = f.best;
  if (!f.only_waiting)
    B->after_forced = f.best < B->n && forced(&B->items[f.best]);
  /* an unforced break: its item is consumed by the discarding above */
}

ts_pages *ts_paginate(ts_ctx *c) {
  ts_pages *pg = oc_arena_calloc(c->pa, 1, sizeof *pg);
  ts_hidx_init(&pg->anchors, c->pa, 1024);
  builder B = {.c = c,
               .pg = pg,
               .items = c->vl.items,
               .n = c->vl.n,
               .after_forced = true,
               .ns = {c->notes.items, c->notes.n, NULL}};
  notes_state *ns = &B.ns;
  ns->sum = oc_arena_alloc(c->pa, (ns->n + 1) * sizeof *ns->sum);
  ns->sum[0] = 0;
  for (size_t i = 0; i < ns->n; i++)
    ns->sum[i + 1] = ns->sum[i] + item_height(&ns->items[i]);
  while (B.pos < B.n || B.npos < B.ncalled || B.nwaiting) {
    size_t pages = pg->n;
    build_page(&B);
    if (pg->n == pages)
      break; /* nothing left but glue */
  }
  if (!pg->n) {
    ts_page *p = new_page(c, pg);
    p->geo = geo_for(c, pg, NULL, PB_FIRST);
  }
  /* page counters */
  long counter = 0;
  for (size_t i = 0; i < pg->n; i++) {
    ts_page *p = &pg->p[i];
    counter = p->reset ? p->counter : counter + 1;
    p->counter = counter;
  }
  for (size_t i = 0; i < pg->n; i++)
    place_anchors(c, pg, i);
  return pg;
}

const char *ts_pages_ref(ts_ctx *c, ts_pages *pg, const char *id, int style) {
  const anchor_pos *a = anchor_get(pg, id);
  if (!a)
    return NULL;
  return css_format_counter(c->a, pg->p[a->page].counter, style);
}

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
  const page_geo *g = p->geo;
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
      ts_pdf_line(pdf, page, left, y, right, y, st.border[2],
                  st.border_color[2], (ts_line_style)(st.border_style[2] - 1));
    }
  }
}

/* ---- drawing ---------------------------------------------------------- */

static void draw_run(ts_pdf *pdf, int page, const ts_run *r, double left,
                     double baseline) {
  ts_pdf_font *f = ts_pdf_font_load(pdf, r->face->path);
  if (!f)
    return;
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
  ts_pdf_font *f = ts_pdf_font_load(pdf, l->face->path);
  if (f)
    ts_pdf_text(pdf, page, f, l->size, start, baseline, l->color, codes, kern,
                nd, 0);
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
      draw_run(pdf, page, &ln->runs[i++], left, baseline);
    else if (xl <= xp)
      draw_leader(c, pdf, page, &ln->leaders[j++], left, baseline);
    else
      draw_ref(c, pdf, page, &ln->refs[k++], left, baseline, pg);
  }
  for (size_t n = 0; n < ln->nimages; n++) {
    const ts_image_box *im = &ln->images[n];
    ts_pdf_image *pi = ts_pdf_image_load(pdf, im->path);
    if (pi)
      ts_pdf_draw_image(pdf, page, pi, left + im->x, baseline, im->w, im->h);
  }
}

static void draw_block_part(ts_pdf *pdf, int page, const ts_vblock *b,
                            double left, double top, double bottom, bool starts,
                            bool ends) {
  if (top - bottom <= 0.01)
    return;
  double x = left + b->x;
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

static void draw_links(ts_pdf *pdf, int page, const ts_vline *ln, double left,
                       double base, const ts_pages *pg) {
  for (size_t k = 0; k < ln->nlinks; k++) {
    const ts_link *lk = &ln->links[k];
    double x0 = left + lk->x0, w = lk->x1 - lk->x0;
    double y0 = base - lk->below, h = lk->above + lk->below;
    if (lk->href[0] == '#') {
      const anchor_pos *a = anchor_get(pg, lk->href + 1);
      if (a)
        ts_pdf_link_dest(pdf, page, x0, y0, w, h, (int)a->page, a->y);
    } else if (strstr(lk->href, "://") || !strncmp(lk->href, "mailto:", 7)) {
      ts_pdf_link_uri(pdf, page, x0, y0, w, h, lk->href);
    }
  }
}

/* A table row: its cells' backgrounds and borders, then rules and lines. */
static void draw_box(ts_ctx *c, ts_pdf *pdf, int page, const ts_vbox *b,
                     double left, double top, const ts_pages *pg) {
  for (size_t i = 0; i < b->nblocks; i++) {
    const ts_box_block *bb = &b->blocks[i];
    draw_block_part(pdf, page, bb->block, left + bb->x, top - bb->top,
                    top - bb->bottom, bb->starts, bb->ends);
  }
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
    draw_links(pdf, page, bl->line, x, base, pg);
  }
}

/* Items [start, end) of items from top down, the ranges in skips left
 * out: backgrounds and borders first (blocks open across pages are kept
 * in ob), then rules, rows and lines. Returns the y below the last. */
static double draw_items(ts_ctx *c, ts_pages *pg, ts_pdf *pdf, int page,
                         const ts_vitem *items, size_t start, size_t end,
                         const ts_range *skips, size_t nskips, double left,
                         double top, open_blocks *ob) {
  while (start < end && discardable(items[start].type))
    start++;
  for (size_t k = 0; k < ob->n; k++) {
    ob->top[k] = top;
    ob->started_here[k] = false;
  }
  double y = top, content_bottom = top;
  size_t sk = 0;
  for (size_t i = start; i < end; i++) {
    if (sk < nskips && i == skips[sk].start) {
      i = skips[sk++].end - 1;
      continue;
    }
    const ts_vitem *it = &items[i];
    if (it->type == TS_V_BLOCK_START && ob->n < 64) {
      ob->b[ob->n] = it->u.block;
      ob->top[ob->n] = y;
      ob->started_here[ob->n] = true;
      ob->n++;
    } else if (it->type == TS_V_BLOCK_END && ob->n) {
      /* the innermost open block is this one */
      size_t k = ob->n - 1;
      draw_block_part(pdf, page, ob->b[k], left, ob->top[k], y,
                      ob->started_here[k], true);
      ob->n--;
    }
    y -= item_height(it);
    if (it->type == TS_V_LINE || it->type == TS_V_SPACE ||
        it->type == TS_V_RULE || it->type == TS_V_BOX)
      content_bottom = y;
  }
  for (size_t k = 0; k < ob->n; k++)
    draw_block_part(pdf, page, ob->b[k], left, ob->top[k], content_bottom,
                    ob->started_here[k], false);
  y = top;
  sk = 0;
  for (size_t i = start; i < end; i++) {
    if (sk < nskips && i == skips[sk].start) {
      i = skips[sk++].end - 1;
      continue;
    }
    const ts_vitem *it = &items[i];
    if (it->type == TS_V_LINE) {
      double base = y - it->h;
      const ts_vline *ln = it->u.line;
      draw_line(c, pdf, page, ln, left + ln->x, base, pg);
      draw_links(pdf, page, ln, left + ln->x, base, pg);
    } else if (it->type == TS_V_RULE) {
      ts_pdf_line(pdf, page, left + it->u.rule.x, y - it->h / 2,
                  left + it->u.rule.x + it->u.rule.width, y - it->h / 2, it->h,
                  it->u.rule.color, TS_LINE_SOLID);
    } else if (it->type == TS_V_BOX) {
      draw_box(c, pdf, page, it->u.box, left, y, pg);
    }
    y -= item_height(it);
  }
  return content_bottom;
}

static void draw_page(ts_ctx *c, ts_pages *pg, size_t pi, ts_pdf *pdf, int page,
                      open_blocks *ob, open_blocks *nob) {
  ts_page *p = &pg->p[pi];
  const page_geo *g = p->geo;
  const ts_vitem *items = c->vl.items;
  double left = g->m[3];
  double top = g->h - g->m[0];
  /* floats moved here and table headers repeated */
  for (size_t t = 0; t < p->ntops; t++) {
    open_blocks tob = {0};
    draw_items(c, pg, pdf, page, items, p->tops[t].start, p->tops[t].end, NULL,
               0, left, top, &tob);
    top -=
        range_height(items, p->tops[t].start, p->tops[t].end) + p->tops[t].gap;
  }
  draw_items(c, pg, pdf, page, items, p->start, p->end, p->skips, p->nskips,
             left, top, ob);
  if (p->nend > p->nstart) {
    /* the footnotes at the foot, under a short rule (a full one when a
       note goes on from the page before) */
    double ntop = g->m[2] + p->notes_h;
    double width = g->w - g->m[1] - g->m[3];
    double ry = ntop - NOTE_SEP_ABOVE - NOTE_SEP_RULE / 2;
    ts_pdf_line(pdf, page, left, ry,
                left + (p->notes_continued ? width : width * 0.3), ry,
                NOTE_SEP_RULE, (ts_rgb){0, 0, 0}, TS_LINE_SOLID);
    draw_items(c, pg, pdf, page, c->notes.items, p->nstart, p->nend, NULL, 0,
               left, ntop - NOTE_SEP_ABOVE - NOTE_SEP_RULE - NOTE_SEP_BELOW,
               nob);
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
  if (c->in->cover_image) {
    page_geo cg;
    resolve_geo(c, pg->n ? pg->p[0].name : NULL, PB_FIRST, &cg);
    ts_pdf_image *img = ts_pdf_image_load(pdf, c->in->cover_image);
    if (!img ||
        ts_pdf_cover_image(pdf, img, cg.w, cg.h, cg.bleed, cg.marks) != 0)
      return -1;
  }
  strings_state st = {0};
  open_blocks ob = {0}, nob = {0};
  for (size_t i = 0; i < pg->n; i++) {
    ts_page *p = &pg->p[i];
    int page = ts_pdf_page_add_print(pdf, p->geo->w, p->geo->h, p->geo->bleed,
                                     p->geo->marks);
    draw_page(c, pg, i, pdf, page, &ob, &nob);
    margin_boxes(c, pg, i, &st, pdf, page);
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
    const anchor_pos *a = anchor_get(pg, e->id);
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
  return ts_pdf_save(pdf, path);
}

/* The label styles need the margin boxes evaluated; ts_pages_ref formats
 * with the style the reference asks for, so nothing else is needed before
 * the write. */
