/* Total-fit line breaking after Knuth and Plass (and TeX's line_break):
 * one scan over the items with a list of active breakpoints, each holding
 * the best way to reach it per line class, fitness class and run of
 * hyphenated lines. Feasible breaks are recorded as passive nodes that
 * chain back to the paragraph start. The list stays a few nodes long (only
 * breaks within about a line of the current item are active), so the cost
 * is linear in the items times a small constant. */
#include "ts_linebreak.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TS_INF_BAD 10000.0
/* Demerits per square point of overflow in pass 4: any amount of overflow
   outweighs every other consideration, so overfull lines are as few and as
   short as possible. */
#define TS_OVERFLOW_DEMERITS 1e16
#define TS_MAX_RUN 8 /* hyphen runs tracked (a larger limit is clamped) */
#define TS_FITNESS 4

enum { FIT_VERY_LOOSE, FIT_LOOSE, FIT_DECENT, FIT_TIGHT };

typedef struct ts_sums {
  double width, stretch, fil, shrink;
} ts_sums;

/* A feasible break: where it is and how the line ending there was set. */
typedef struct ts_passive {
  struct ts_passive *prev;
  size_t pos;
  double ratio, overflow;
  bool fil, hyphenated;
} ts_passive;

typedef struct ts_active {
  struct ts_active *next;
  ts_passive *brk;  /* NULL for the paragraph start */
  size_t line;      /* lines before the break's successor line */
  int fitness, run; /* run: hyphenated lines ending here in a row */
  double demerits;
  ts_sums after; /* sums up to the first item the next line keeps */
} ts_active;

typedef struct ts_candidate {
  bool set;
  double demerits, ratio, overflow;
  bool fil;
  ts_active *from;
} ts_candidate;

typedef struct ts_pass {
  oc_arena *scratch;
  const ts_item *items;
  size_t n;
  const ts_break_params *p;
  int pass;
  double threshold;
  bool last_resort;
  int run_cap;      /* runs are counted up to this */
  size_t easy_line; /* line classes from here on are all alike */
  ts_active *active, *free_nodes, *pending;
  ts_candidate best[TS_FITNESS][TS_MAX_RUN + 1];
  double min_demerits;
} ts_pass;

void ts_break_params_default(ts_break_params *p) {
  memset(p, 0, sizeof *p);
  p->tolerance = 200;
  p->pretolerance = 100;
  p->line_penalty = 10;
  p->hyphen_penalty = 50;
  p->exhyphen_penalty = 50;
  p->double_hyphen_demerits = 10000;
  p->final_hyphen_demerits = 5000;
  p->adj_demerits = 10000;
  p->max_hyphenated_lines = 2;
}

static double line_width(const ts_break_params *p, size_t line) {
  return p->line_widths[line < p->n_line_widths ? line : p->n_line_widths - 1];
}

static ts_active *node_new(ts_pass *s) {
  ts_active *a = s->free_nodes;
  if (a)
    s->free_nodes = a->next;
  else
    a = oc_arena_alloc(s->scratch, sizeof *a);
  memset(a, 0, sizeof *a);
  return a;
}

static bool is_forced(const ts_item *it) {
  return it->type == TS_PENALTY && it->penalty <= -TS_INF_PENALTY;
}

/* Adds glue's width, stretch (finite or fil) and shrink to the sums. */
static inline void add_glue(ts_sums *cur, const ts_item *it) {
  cur->width += it->width;
  if (it->fil)
    cur->fil += it->stretch;
  else
    cur->stretch += it->stretch;
  cur->shrink += it->shrink;
}

/* The sums up to the first item a line starting after a break at pos keeps:
   glue and penalties after a break are dropped, up to a box or a forced
   break (TeX's break_width). */
static ts_sums sums_after(const ts_pass *s, ts_sums cur, size_t pos) {
  for (size_t i = pos; i < s->n; i++) {
    const ts_item *it = &s->items[i];
    if (it->type == TS_BOX || (i > pos && is_forced(it)))
      break;
    if (it->type == TS_GLUE)
      add_glue(&cur, it);
  }
  return cur;
}

static int fitness_of(double ratio, double badness) {
  if (ratio > 0)
    return badness > 99 ? FIT_VERY_LOOSE
                        : (badness > 12 ? FIT_LOOSE : FIT_DECENT);
  return badness > 12 ? FIT_TIGHT : FIT_DECENT;
}

static size_t line_class(const ts_pass *s, size_t line) {
  return line > s->easy_line ? s->easy_line : line;
}

/* Makes active nodes at pos for the best candidates gathered so far and
   links them before `before` (after `prev`, which may be NULL). */
static void flush_candidates(ts_pass *s, size_t pos, ts_sums cur,
                             ts_active **prev, ts_active *before) {
  if (s->min_demerits == INFINITY)
    return;
  const ts_item *it = &s->items[pos];
  bool flagged = it->type == TS_PENALTY && it->flagged;
  ts_sums after = sums_after(s, cur, pos);
  for (int f = 0; f < TS_FITNESS; f++) {
    for (int r = 0; r <= s->run_cap; r++) {
      ts_candidate *c = &s->best[f][r];
      if (!c->set)
        continue;
      c->set = false;
      if (c->demerits > s->min_demerits + s->p->adj_demerits)
        continue;
      ts_passive *b = oc_arena_alloc(s->scratch, sizeof *b);
      *b = (ts_passive){.prev = c->from->brk,
                        .pos = pos,
                        .ratio = c->ratio,
                        .overflow = c->overflow,
                        .fil = c->fil,
                        .hyphenated = flagged};
      ts_active *a = node_new(s);
      a->brk = b;
      a->line = c->from->line + 1;
      a->fitness = f;
      a->run = r;
      a->demerits = c->demerits;
      a->after = after;
      a->next = before;
      if (*prev)
        (*prev)->next = a;
      else
        s->active = a;
      *prev = a;
    }
  }
  s->min_demerits = INFINITY;
}

/* Tries every active node against a break at pos (TeX's try_break). */
static void try_break(ts_pass *s, size_t pos, ts_sums cur) {
  const ts_item *it = &s->items[pos];
  const ts_break_params *p = s->p;
  bool is_penalty = it->type == TS_PENALTY;
  double pi = is_penalty ? it->penalty : 0;
  bool forced = pi <= -TS_INF_PENALTY;
  bool flagged = is_penalty && it->flagged;
  bool final = pos == s->n - 1;
  double extra = is_penalty ? it->width : 0;

  ts_active *prev = NULL, *a = s->active;
  size_t cls = SIZE_MAX;
  while (a) {
    size_t acls = line_class(s, a->line);
    if (acls != cls) {
      /* Candidates of one line class go in before the next class starts,
         keeping the list ordered by line. */
      flush_candidates(s, pos, cur, &prev, a);
      cls = acls;
    }
    ts_active *next = a->next;
    double width = line_width(p, a->line);
    double natural = cur.width - a->after.width + extra + p->left_skip.width +
                     p->right_skip.width;
    double stretch = cur.stretch - a->after.stretch + p->left_skip.stretch +
                     p->right_skip.stretch;
    double fil = cur.fil - a->after.fil;
    double shrink = cur.shrink - a->after.shrink + p->left_skip.shrink +
                    p->right_skip.shrink;
    if (s->pass == 3)
      stretch += p->emergency_stretch;

    double ratio, badness, overflow = 0, shown = 0;
    bool use_fil = false;
    if (natural < width) {
      if (fil > 0) {
        ratio = 0;
        use_fil = true;
        shown = (width - natural) / fil;
      } else if (stretch > 0) {
        ratio = (width - natural) / stretch;
        /* Emergency stretch only judges the line (as in TeX); the line is
           set with the glue it has, which then fills it. */
        double real = s->pass == 3 ? stretch - p->emergency_stretch : stretch;
        shown = real > 0 ? (width - natural) / real : ratio;
      } else {
        ratio = INFINITY;
      }
    } else if (natural > width) {
      ratio = shrink > 0 ? (width - natural) / shrink : -INFINITY;
      shown = ratio < -1 ? -1 : ratio;
    } else {
      ratio = 0;
    }
    double mag = fabs(ratio);
    badness = mag >= 100 ? TS_INF_BAD : 100 * mag * mag * mag;
    if (badness > TS_INF_BAD)
      badness = TS_INF_BAD;
    if (ratio < -1)
      overflow = natural - shrink - width;

    bool deactivate = ratio < -1 || forced;
    bool hyphen_ok = !flagged || forced || p->max_hyphenated_lines <= 0 ||
                     a->run < s->run_cap;
    bool feasible =
        hyphen_ok &&
        (s->last_resort ? true : ratio >= -1 && badness <= s->threshold);
    if (!hyphen_ok && !forced)
      deactivate = false; /* a later, unflagged break may still do */

    if (feasible) {
      /* In the last resort every line is allowed, so how bad a line is
         must still count past TeX's "infinitely bad": graded by the cube
         of its ratio, a line a little too loose beats one with gaps of an
         inch (capped, all such lines would cost the same). */
      double b = badness;
      if (s->last_resort && ratio > 0 && badness >= TS_INF_BAD)
        b = 100 * mag * mag * mag;
      if (!(b < 1e6)) /* beyond, all equally awful (and overflow worse) */
        b = 1e6;
      double d = p->line_penalty + b;
      d = !s->last_resort && d >= TS_INF_BAD ? TS_INF_BAD * TS_INF_BAD : d * d;
      if (pi > 0)
        d += pi * pi;
      else if (!forced)
        d -= pi * pi;
      if (a->run > 0 && final)
        d += p->final_hyphen_demerits;
      else if (a->run > 0 && flagged)
        d += p->double_hyphen_demerits;
      int fit = fitness_of(ratio, badness);
      if (abs(fit - a->fitness) > 1)
        d += p->adj_demerits;
      if (overflow > 0)
        d += TS_OVERFLOW_DEMERITS * overflow * overflow;
      d += a->demerits;
      int run = flagged ? (a->run < s->run_cap ? a->run + 1 : s->run_cap) : 0;
      ts_candidate *c = &s->best[fit][run];
      if (!c->set || d < c->demerits) {
        *c = (ts_candidate){.set = true,
                            .demerits = d,
                            .ratio = shown,
                            .overflow = overflow,
                            .fil = use_fil,
                            .from = a};
        if (d < s->min_demerits)
          s->min_demerits = d;
      }
    }
    if (deactivate) {
      if (prev)
        prev->next = next;
      else
        s->active = next;
      /* It may be a candidate's origin: recycle it once they are flushed. */
      a->next = s->pending;
      s->pending = a;
    } else {
      prev = a;
    }
    a = next;
  }
  flush_candidates(s, pos, cur, &prev, NULL);
  while (s->pending) {
    ts_active *n = s->pending->next;
    s->pending->next = s->free_nodes;
    s->free_nodes = s->pending;
    s->pending = n;
  }
}

/* One pass over the items; false when every active node died before the
   end (no way to set the paragraph within the threshold). */
static bool run_pass(ts_pass *s) {
  s->active = s->free_nodes = s->pending = NULL;
  s->min_demerits = INFINITY;
  memset(s->best, 0, sizeof s->best);
  s->active = node_new(s);
  s->active->fitness = FIT_DECENT;

  ts_sums cur = {0, 0, 0, 0};
  for (size_t i = 0; i < s->n; i++) {
    const ts_item *it = &s->items[i];
    switch (it->type) {
    case TS_BOX:
      cur.width += it->width;
      break;
    case TS_GLUE:
      if (i > 0 && s->items[i - 1].type == TS_BOX)
        try_break(s, i, cur);
      add_glue(&cur, it);
      break;
    case TS_PENALTY:
      if (it->penalty < TS_INF_PENALTY && !(it->discretionary && s->pass == 1))
        try_break(s, i, cur);
      break;
    }
    if (!s->active)
      return false;
  }
  return true;
}

/* The final node to trace back from: the fewest demerits, or with
   looseness the line count nearest the one asked for (TeX's rule). */
static const ts_active *choose_final(const ts_pass *s, long *actual_out) {
  const ts_active *best = s->active;
  for (const ts_active *a = s->active; a; a = a->next)
    if (a->demerits < best->demerits)
      best = a;
  int looseness = s->p->looseness;
  *actual_out = 0;
  if (looseness == 0)
    return best;
  long best_line = (long)best->line, actual = 0;
  for (const ts_active *a = s->active; a; a = a->next) {
    long diff = (long)a->line - best_line;
    if ((diff < actual && looseness <= diff) ||
        (diff > actual && looseness >= diff)) {
      best = a;
      actual = diff;
    } else if (diff == actual && a->demerits < best->demerits) {
      best = a;
    }
  }
  *actual_out = actual;
  return best;
}

static size_t next_line_start(const ts_item *items, size_t n, size_t pos) {
  size_t i = pos + 1;
  while (i < n && items[i].type != TS_BOX && !is_forced(&items[i]))
    i++;
  return i;
}

ts_break_status ts_break_lines(oc_arena *a, const ts_item *items, size_t n,
                               const ts_break_params *p, ts_breaks *out) {
  memset(out, 0, sizeof *out);
  if (!p->line_widths || p->n_line_widths == 0)
    return TS_BREAK_NO_WIDTHS;
  if (n == 0 || !is_forced(&items[n - 1]))
    return TS_BREAK_NO_END;

  ts_pass s;
  long actual = 0;
  memset(&s, 0, sizeof s);
  s.scratch = oc_arena_new();
  s.items = items;
  s.n = n;
  s.p = p;
  s.run_cap = p->max_hyphenated_lines <= 0           ? 1
              : p->max_hyphenated_lines > TS_MAX_RUN ? TS_MAX_RUN
                                                     : p->max_hyphenated_lines;
  s.easy_line = p->looseness != 0 ? SIZE_MAX : p->n_line_widths - 1;

  /* As in TeX, looseness that a pass cannot meet sends the breaker on to
     the next real pass (not to the last resort). */
  int last_real = p->emergency_stretch > 0 ? 3 : 2;
  bool done = false;
  const ts_active *last = NULL;
  for (int pass = p->pretolerance >= 0 ? 1 : 2; pass <= 4 && !done; pass++) {
    if (pass == 3 && !(p->emergency_stretch > 0))
      continue;
    s.pass = pass;
    s.threshold = pass == 1 ? p->pretolerance : p->tolerance;
    s.last_resort = pass == 4;
    done = run_pass(&s);
    if (done) {
      last = choose_final(&s, &actual);
      if (p->looseness != 0 && actual != p->looseness && pass < last_real)
        done = false;
    }
  }

  ts_break_status status = TS_BREAK_OK;
  if (!done)
    last = NULL;
  if (!last) {
    /* Pass 4 accepts every line, so only a hyphen limit that a forced
       break cannot lift could get here; report it as malformed input. */
    status = TS_BREAK_NO_END;
  } else {
    out->pass = s.pass;
    out->demerits = last->demerits;
    out->n_lines = last->line;
    out->lines = oc_arena_calloc(a, out->n_lines, sizeof *out->lines);
    size_t k = out->n_lines;
    for (const ts_passive *b = last->brk; b; b = b->prev) {
      ts_line *l = &out->lines[--k];
      l->end = b->pos;
      l->start = b->prev ? next_line_start(items, n, b->prev->pos) : 0;
      l->ratio = b->ratio;
      l->fil = b->fil;
      l->hyphenated = b->hyphenated;
      l->overflow = b->overflow;
      if (l->overflow > out->overflow)
        out->overflow = l->overflow;
    }
  }
  oc_arena_free(s.scratch);
  return status;
}
