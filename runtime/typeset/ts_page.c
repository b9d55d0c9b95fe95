/* The vertical list to pages (ts_draw.c draws them).
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
 * by CSS Paged Media's specificity, then order. Anchors get their page
 * and height for page references and the outline. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "oc_sb.h"
#include "ts_engine_int.h"

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

void ts_page_geo_resolve(ts_ctx *c, const char *name, unsigned bits,
                         ts_page_geo *g) {
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
        bool first =
            r->name ? (bits & TS_PB_GROUP_FIRST) : (bits & TS_PB_FIRST);
        if (!first)
          continue;
      }
      if ((r->pseudo & CSS_PAGE_LEFT) && !(bits & TS_PB_LEFT))
        continue;
      if ((r->pseudo & CSS_PAGE_RIGHT) && (bits & TS_PB_LEFT))
        continue;
      if ((r->pseudo & CSS_PAGE_BLANK) && !(bits & TS_PB_BLANK))
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

static const ts_page_geo *geo_for(ts_ctx *c, ts_pages *pg, const char *name,
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
  ts_page_geo_resolve(c, name, bits, &gc->geo);
  return &gc->geo;
}

double ts_page_content_height(ts_ctx *c, const char *name) {
  ts_page_geo g;
  ts_page_geo_resolve(c, name, 0, &g);
  return g.h - g.m[0] - g.m[2];
}

double ts_page_content_width(ts_ctx *c, const char *name) {
  ts_page_geo g;
  ts_page_geo_resolve(c, name, 0, &g);
  return g.w - g.m[1] - g.m[3];
}

/* ---- anchors ---------------------------------------------------------- */

static bool anchor_eq(const void *entry, const void *key) {
  return strcmp(((const ts_anchor_pos *)entry)->id, key) == 0;
}

static void anchor_put(ts_ctx *c, ts_pages *pg, const char *id, size_t page,
                       double y) {
  uint64_t h = oc_hash_bytes(OC_HASH_SEED, id, strlen(id));
  if (oc_hidx_get(&pg->anchors, h, anchor_eq, id))
    return; /* the first one wins, as in HTML */
  ts_anchor_pos *e = oc_arena_alloc(c->pa, sizeof *e);
  *e = (ts_anchor_pos){id, page, y};
  oc_hidx_put(&pg->anchors, h, e);
}

const ts_anchor_pos *ts_pages_anchor(const ts_pages *pg, const char *id) {
  return oc_hidx_get(&pg->anchors, oc_hash_bytes(OC_HASH_SEED, id, strlen(id)),
                     anchor_eq, id);
}

/* ---- breaking --------------------------------------------------------- */

bool ts_vitem_discardable(ts_vtype t) {
  return t == TS_V_GLUE || t == TS_V_PENALTY;
}

static bool forced(const ts_vitem *it) {
  return it->type == TS_V_PENALTY && it->penalty <= -TS_INF_PENALTY;
}

double ts_vitem_height(const ts_vitem *it) {
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
double ts_range_height(const ts_vitem *items, size_t start, size_t end) {
  while (start < end && ts_vitem_discardable(items[start].type))
    start++;
  while (end > start && ts_vitem_discardable(items[end - 1].type))
    end--;
  double h = 0;
  for (size_t i = start; i < end; i++)
    h += ts_vitem_height(&items[i]);
  return h;
}

typedef struct notes_state {
  const ts_vitem *items;
  size_t n;
  double *sum; /* sum[i]: the height of items [0, i) */
} notes_state;

static double notes_h(const notes_state *ns, size_t a, size_t b) {
  if (b <= a)
    return 0;
  return ns->sum[b] - ns->sum[a] + TS_NOTE_SEP_ABOVE + TS_NOTE_SEP_RULE +
         TS_NOTE_SEP_BELOW;
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
  while (k < ns->n && ts_vitem_discardable(ns->items[k].type))
    k++;
  return k;
}

static void place_range_anchors(ts_ctx *c, ts_pages *pg, size_t pi,
                                const ts_vitem *items, size_t start, size_t end,
                                const ts_range *skips, size_t nskips,
                                double y) {
  size_t sk = 0;
  for (size_t i = ts_unskipped(skips, nskips, &sk, start); i < end;
       i = ts_unskipped(skips, nskips, &sk, i + 1)) {
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
    y -= ts_vitem_height(it);
  }
}

static void place_anchors(ts_ctx *c, ts_pages *pg, size_t pi) {
  ts_page *p = &pg->p[pi];
  const ts_vitem *items = c->vl.items;
  double y = p->geo->h - p->geo->m[0];
  for (size_t t = 0; t < p->ntops; t++) {
    if (p->tops[t].repeat)
      y -= ts_range_height(items, p->tops[t].start, p->tops[t].end);
    else {
      place_range_anchors(c, pg, pi, items, p->tops[t].start, p->tops[t].end,
                          NULL, 0, y);
      y -= ts_range_height(items, p->tops[t].start, p->tops[t].end) +
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
    while (B->pos < B->n && ts_vitem_discardable(items[B->pos].type) &&
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
    unsigned bits = TS_PB_BLANK | (b->left ? TS_PB_LEFT : 0);
    b->geo = geo_for(c, pg, b->name, bits);
  }
  B->side = 0;
  ts_page *p = new_page(c, pg);
  p->name = B->name;
  p->group_first = B->group && !only_waiting;
  if (!only_waiting)
    B->group = false;
  unsigned bits = (pg->n == 1 ? TS_PB_FIRST : 0) | (p->left ? TS_PB_LEFT : 0) |
                  (p->group_first ? TS_PB_GROUP_FIRST : 0);
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
    double fh = ts_range_height(items, r.start, r.end) + r.gap;
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
      f->h += ts_range_height(items, r.start, r.end);
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
  double fh = ts_range_height(B->items, j + 1, fe);
  const ts_page_geo *g = f->p->geo;
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
               !ts_vitem_discardable(items[j - 1].type)) {
      legal = true;
    }
    if (legal && j > B->pos && f->h + req <= f->avail + 0.01 &&
        cost <= f->best_cost) {
      f->best = j;
      f->best_need = f->need;
      f->best_cost = cost;
      f->found = true;
    }
    double ih = ts_vitem_height(it);
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
      hc += ts_range_height(items, seg_start, i);
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
  hc += ts_range_height(items, seg_start, best);
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
  const ts_page_geo *g = f.p->geo;
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
  oc_hidx_init(&pg->anchors, c->pa, 1024);
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
    ns->sum[i + 1] = ns->sum[i] + ts_vitem_height(&ns->items[i]);
  while (B.pos < B.n || B.npos < B.ncalled || B.nwaiting) {
    size_t pages = pg->n;
    build_page(&B);
    if (pg->n == pages)
      break; /* nothing left but glue */
  }
  if (!pg->n) {
    ts_page *p = new_page(c, pg);
    p->geo = geo_for(c, pg, NULL, TS_PB_FIRST);
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
  const ts_anchor_pos *a = ts_pages_anchor(pg, id);
  if (!a)
    return NULL;
  return css_format_counter(c->a, pg->p[a->page].counter, style);
}
