/* Unit tests of the line breaker (runtime/typeset/ts_linebreak.c): small paragraphs
 * whose breaks and ratios are worked out by hand, forced breaks, the hard
 * limit on hyphenated lines, the emergency and last-resort passes, ragged
 * and centred setting, and the time taken by a 10,000-word paragraph.
 * --quick (under valgrind) shortens the long paragraph. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ts_linebreak.h"

#include "check.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-9)

static oc_arena *arena;

typedef struct para {
  ts_item items[64];
  size_t n;
} para;

static void add(para *p, ts_item it) { p->items[p->n++] = it; }

/* Words of the given widths separated by glue, then TeX's paragraph end. */
static void words(para *p, const double *w, size_t n, ts_item space) {
  for (size_t i = 0; i < n; i++) {
    if (i)
      add(p, space);
    add(p, ts_box(w[i]));
  }
}

static void finish(para *p) {
  add(p, ts_penalty(0, TS_INF_PENALTY, false));
  add(p, ts_fil_glue(0));
  add(p, ts_forced_break());
}

static ts_breaks run(const ts_item *items, size_t n,
                     const ts_break_params *bp) {
  ts_breaks b;
  CHECK(ts_break_lines(arena, items, n, bp, &b) == TS_BREAK_OK);
  return b;
}

/* The width a line takes once its glue is set by the ratio, left and right
   skips included: the measure for every line that is not overfull. */
static double set_width(const ts_item *items, const ts_breaks *b, size_t k,
                        const ts_break_params *bp) {
  const ts_line *l = &b->lines[k];
  double w = 0;
  ts_item skips[2] = {
      ts_glue(bp->left_skip.width, bp->left_skip.stretch, bp->left_skip.shrink),
      ts_glue(bp->right_skip.width, bp->right_skip.stretch,
              bp->right_skip.shrink)};
  for (size_t i = l->start; i <= l->end + 2; i++) {
    const ts_item *it = i < l->end    ? &items[i]
                        : i == l->end ? &items[l->end]
                                      : &skips[i - l->end - 1];
    if (it->type == TS_BOX) {
      w += it->width;
    } else if (it->type == TS_PENALTY) {
      if (i == l->end)
        w += it->width;
    } else if (i != l->end) {
      w += it->width;
      if (l->ratio >= 0 && it->fil == l->fil)
        w += l->ratio * it->stretch;
      else if (l->ratio < 0)
        w += l->ratio * it->shrink;
    }
  }
  return w;
}

static void test_exact_ratios(void) {
  ts_break_params bp;
  ts_break_params_default(&bp);
  double measure = 100;
  bp.line_widths = &measure;
  bp.n_line_widths = 1;

  /* 40 + 10 + 40 = 90 with stretch 10: ratio 1, badness 100, just within
     the pretolerance; with the third word, 130 - 4 is overfull. */
  para p = {.n = 0};
  words(&p, (double[]){40, 40, 30}, 3, ts_glue(10, 10, 4));
  finish(&p);
  ts_breaks b = run(p.items, p.n, &bp);
  CHECK(b.n_lines == 2);
  CHECK(b.pass == 1);
  CHECK(b.lines[0].start == 0 && b.lines[0].end == 3);
  CHECK(NEAR(b.lines[0].ratio, 1.0) && !b.lines[0].fil);
  CHECK(b.lines[1].start == 4 && b.lines[1].end == p.n - 1);
  CHECK(b.lines[1].fil && NEAR(b.lines[1].ratio, 70.0));
  /* demerits: (10 + 100)^2 for line 1, (10 + 0)^2 for line 2, and
     adj_demerits twice: the paragraph start counts as decent (as in TeX),
     line 1 is very loose, line 2 decent again. */
  CHECK(NEAR(b.demerits, 110.0 * 110 + 100 + 2 * 10000));

  /* Badness 100 fails a pretolerance of 99: pass 2, same breaks. */
  bp.pretolerance = 99;
  b = run(p.items, p.n, &bp);
  CHECK(b.pass == 2 && b.n_lines == 2 && b.lines[0].end == 3);

  /* Shrinking: 30*3 + 8*2 = 106 with shrink 6: ratio -1 exactly. */
  ts_break_params_default(&bp);
  bp.line_widths = &measure;
  bp.n_line_widths = 1;
  p.n = 0;
  words(&p, (double[]){30, 30, 30, 30}, 4, ts_glue(8, 4, 3));
  finish(&p);
  b = run(p.items, p.n, &bp);
  CHECK(b.n_lines == 2);
  CHECK(b.lines[0].end == 5 && NEAR(b.lines[0].ratio, -1.0));
  CHECK(b.lines[1].start == 6);
  CHECK(NEAR(set_width(p.items, &b, 0, &bp), 100));
  CHECK(NEAR(set_width(p.items, &b, 1, &bp), 100));
  CHECK(b.overflow == 0 && b.lines[0].overflow == 0);
}

static void test_first_line_width(void) {
  ts_break_params bp;
  ts_break_params_default(&bp);
  double widths[] = {70, 110}; /* an indent of 40 on the first line */
  bp.line_widths = widths;
  bp.n_line_widths = 2;
  para p = {.n = 0};
  words(&p, (double[]){30, 30, 30, 30, 30}, 5, ts_glue(10, 5, 3));
  finish(&p);
  ts_breaks b = run(p.items, p.n, &bp);
  /* 30+10+30 = 70 fills line 1; three words (110) fill the later lines. */
  CHECK(b.n_lines == 2 && b.pass == 1);
  CHECK(b.lines[0].end == 3 && NEAR(b.lines[0].ratio, 0));
  CHECK(b.lines[1].start == 4 && b.lines[1].end == p.n - 1);
  CHECK(NEAR(set_width(p.items, &b, 0, &bp), 70));
  CHECK(NEAR(set_width(p.items, &b, 1, &bp), 110));
}

static void test_forced_break(void) {
  ts_break_params bp;
  ts_break_params_default(&bp);
  double measure = 100;
  bp.line_widths = &measure;
  bp.n_line_widths = 1;
  para p = {.n = 0};
  add(&p, ts_box(20));
  add(&p, ts_glue(5, 3, 2));
  add(&p, ts_box(20));
  add(&p, ts_fil_glue(0));
  add(&p, ts_forced_break()); /* 4: a <br> */
  add(&p, ts_box(20));
  add(&p, ts_glue(5, 3, 2));
  add(&p, ts_box(20));
  finish(&p);
  ts_breaks b = run(p.items, p.n, &bp);
  CHECK(b.n_lines == 2);
  CHECK(b.lines[0].end == 4 && b.lines[0].fil);
  CHECK(NEAR(b.lines[0].ratio, 55));
  CHECK(b.lines[1].start == 5);
  CHECK(b.pass == 1);
}

/* Halves of hyphenated words (45) fill a line two by two with a hyphen;
   a negative hyphen penalty makes every line want one. */
static size_t hyphen_para(ts_item *items, size_t words_n) {
  size_t n = 0;
  items[n++] = ts_box(45);
  for (size_t i = 0; i < words_n; i++) {
    items[n++] = ts_glue(10, 0, 0);
    items[n++] = ts_box(45);
    items[n++] = ts_hyphen_point(0, -50);
    items[n++] = ts_box(45);
  }
  items[n++] = ts_penalty(0, TS_INF_PENALTY, false);
  items[n++] = ts_fil_glue(0);
  items[n++] = ts_forced_break();
  return n;
}

static size_t longest_hyphen_run(const ts_breaks *b) {
  size_t run = 0, best = 0;
  for (size_t i = 0; i < b->n_lines; i++) {
    run = b->lines[i].hyphenated ? run + 1 : 0;
    if (run > best)
      best = run;
  }
  return best;
}

static void test_hyphen_limit(void) {
  ts_break_params bp;
  ts_break_params_default(&bp);
  double measure = 100;
  bp.line_widths = &measure;
  bp.n_line_widths = 1;
  bp.double_hyphen_demerits = 0; /* only the hard limit holds them back */
  bp.pretolerance = -1;          /* pass 1 would not hyphenate at all */
  bp.right_skip = (ts_skip){0, 60, 0};
  ts_item items[64];
  size_t n = hyphen_para(items, 8);

  bp.max_hyphenated_lines = 0;
  ts_breaks b = run(items, n, &bp);
  CHECK(longest_hyphen_run(&b) >= 3); /* the control: limits do matter */

  for (int limit = 1; limit <= 3; limit++) {
    bp.max_hyphenated_lines = limit;
    b = run(items, n, &bp);
    CHECK(b.n_lines > 1);
    CHECK(longest_hyphen_run(&b) == (size_t)limit);
    CHECK(b.overflow == 0);
  }
  /* Pass 1 never breaks at a discretionary hyphen. */
  bp.max_hyphenated_lines = 2;
  bp.pretolerance = 10000;
  b = run(items, n, &bp);
  CHECK(b.pass == 1 && longest_hyphen_run(&b) == 0);
}

static void test_emergency(void) {
  ts_break_params bp;
  ts_break_params_default(&bp);
  double measure = 100;
  bp.line_widths = &measure;
  bp.n_line_widths = 1;
  para p = {.n = 0};
  words(&p, (double[]){40, 40, 30}, 3, ts_glue(10, 2, 2));
  finish(&p);
  /* 90 with stretch 2: ratio 5, infeasible; 130 - 4 overfull. */
  bp.emergency_stretch = 20;
  ts_breaks b = run(p.items, p.n, &bp);
  CHECK(b.pass == 3 && b.n_lines == 2 && b.lines[0].end == 3);
  CHECK(b.overflow == 0);
  /* Without it, the last resort: an underfull line, nothing overfull; of
     the two underfull first lines the less loose wins (ratio 5, not 30:
     past TeX's "infinitely bad" the last resort still grades badness). */
  bp.emergency_stretch = 0;
  b = run(p.items, p.n, &bp);
  CHECK(b.pass == 4 && b.overflow == 0 && b.n_lines == 2);
  CHECK(b.lines[0].end == 3 && b.lines[1].start == 4);

  /* A word wider than the measure gets a line of its own, and the overflow
     is reported; its neighbours do not join it. */
  p.n = 0;
  words(&p, (double[]){30, 150, 30}, 3, ts_glue(10, 5, 3));
  finish(&p);
  bp.emergency_stretch = 30;
  b = run(p.items, p.n, &bp);
  CHECK(b.pass == 4);
  CHECK(b.n_lines == 3);
  CHECK(b.lines[1].start == 2 && b.lines[1].end == 3);
  CHECK(NEAR(b.lines[1].overflow, 50) && NEAR(b.overflow, 50));
  CHECK(b.lines[0].overflow == 0 && b.lines[2].overflow == 0);
}

/* A pseudo-random text: word widths 10..60 pt, some with hyphen points. */
static size_t random_para(ts_item *items, size_t words_n, ts_item space,
                          unsigned seed) {
  size_t n = 0;
  for (size_t i = 0; i < words_n; i++) {
    seed = seed * 1103515245u + 12345u;
    double w = 8 + (seed >> 16) % 33;
    if (i)
      items[n++] = space;
    if (w > 25) {
      items[n++] = ts_box(w / 2);
      items[n++] = ts_hyphen_point(3.33, 50);
      items[n++] = ts_box(w / 2);
    } else {
      items[n++] = ts_box(w);
    }
  }
  items[n++] = ts_penalty(0, TS_INF_PENALTY, false);
  items[n++] = ts_fil_glue(0);
  items[n++] = ts_forced_break();
  return n;
}

static void test_ragged_centred(void) {
  static ts_item items[1000];
  ts_break_params bp;
  ts_break_params_default(&bp);
  double measure = 300;
  bp.line_widths = &measure;
  bp.n_line_widths = 1;

  size_t n = random_para(items, 200, ts_glue(3.33, 1.67, 1.11), 7);
  ts_breaks just = run(items, n, &bp);
  CHECK(just.n_lines > 10 && just.overflow == 0);
  for (size_t k = 0; k + 1 < just.n_lines; k++)
    CHECK(NEAR(set_width(items, &just, k, &bp), 300));

  /* Ragged right: rigid spaces, the slack goes to right_skip. */
  n = random_para(items, 200, ts_glue(3.33, 0, 0), 7);
  bp.right_skip = (ts_skip){0, 30, 0};
  ts_breaks rag = run(items, n, &bp);
  CHECK(rag.n_lines > 10 && rag.overflow == 0);
  bool uneven = false;
  for (size_t k = 0; k + 1 < rag.n_lines; k++) {
    CHECK(NEAR(set_width(items, &rag, k, &bp), 300));
    CHECK(rag.lines[k].ratio >= 0 && !rag.lines[k].fil);
    uneven |= rag.lines[k].ratio > 0.01;
  }
  CHECK(uneven);

  /* Centred: equal skips, and a rigid end so the last line is centred. */
  bp.left_skip = (ts_skip){0, 30, 0};
  n -= 2;
  items[n++] = ts_glue(0, 0, 0);
  items[n++] = ts_forced_break();
  ts_breaks mid = run(items, n, &bp);
  const ts_line *last = &mid.lines[mid.n_lines - 1];
  CHECK(!last->fil && last->ratio > 0);
  for (size_t k = 0; k < mid.n_lines; k++)
    CHECK(NEAR(set_width(items, &mid, k, &bp), 300));
}

static void test_looseness(void) {
  static ts_item items[1000];
  ts_break_params bp;
  ts_break_params_default(&bp);
  double measure = 300;
  bp.line_widths = &measure;
  bp.n_line_widths = 1;
  size_t n = random_para(items, 120, ts_glue(3.33, 3, 1.11), 3);
  ts_breaks base = run(items, n, &bp);
  bp.looseness = 1;
  ts_breaks loose = run(items, n, &bp);
  CHECK(loose.n_lines == base.n_lines + 1);
}

static void test_errors(void) {
  ts_break_params bp;
  ts_break_params_default(&bp);
  ts_item items[] = {ts_box(10), ts_forced_break()};
  ts_breaks b;
  CHECK(ts_break_lines(arena, items, 2, &bp, &b) == TS_BREAK_NO_WIDTHS);
  double measure = 100;
  bp.line_widths = &measure;
  bp.n_line_widths = 1;
  CHECK(ts_break_lines(arena, items, 1, &bp, &b) == TS_BREAK_NO_END);
  CHECK(ts_break_lines(arena, items, 0, &bp, &b) == TS_BREAK_NO_END);
  CHECK(ts_break_lines(arena, items, 2, &bp, &b) == TS_BREAK_OK);
  CHECK(b.n_lines == 1);
}

static void test_long_paragraph(size_t words_n) {
  static ts_item items[40000];
  ts_break_params bp;
  ts_break_params_default(&bp);
  double measure = 345;
  bp.line_widths = &measure;
  bp.n_line_widths = 1;
  size_t n = random_para(items, words_n, ts_glue(3.33, 1.67, 1.11), 11);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  ts_breaks b = run(items, n, &bp);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
  printf("linebreak: %zu words, %zu items, %zu lines, pass %d: %.2f ms\n",
         words_n, n, b.n_lines, b.pass, ms);
  CHECK(b.overflow == 0 && b.n_lines > words_n / 20);
  size_t bad = 0;
  for (size_t k = 0; k + 1 < b.n_lines; k++)
    bad += !NEAR(set_width(items, &b, k, &bp), 345);
  CHECK(bad == 0);
  CHECK(longest_hyphen_run(&b) <= 2);
  /* The time is printed, not asserted: speed is measured by benchmarks,
   * and a sanitizer build or a busy machine must not fail a test. */
}

int main(int argc, char **argv) {
  bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
  arena = oc_arena_new();
  test_exact_ratios();
  test_first_line_width();
  test_forced_break();
  test_hyphen_limit();
  test_emergency();
  test_ragged_centred();
  test_looseness();
  test_errors();
  test_long_paragraph(quick ? 2000 : 10000);
  oc_arena_free(arena);
  printf("linebreak: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
