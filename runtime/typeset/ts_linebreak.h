/* Paragraphs to lines: total-fit line breaking (Knuth and Plass, "Breaking
 * Paragraphs into Lines", 1981, as TeX does it) over boxes, glue and
 * penalties. Widths are in points. The typesetter knows nothing of fonts
 * here: the caller measures words and builds the items.
 *
 * Ownership: the items and parameters stay the caller's; the result lives in
 * the arena passed to ts_break_lines. The breaker's working memory is its
 * own scratch arena, freed before it returns.
 *
 * How to build a paragraph:
 *  - a word (or a run of one font) is a box; an inter-word space is glue
 *    (width, stretch, shrink); a hyphenation point found by ts_hyphen is
 *    ts_hyphen_point(width of '-', params.hyphen_penalty); the break after a
 *    hyphen the text already has is ts_penalty(0, exhyphen_penalty, true);
 *  - the paragraph ends with ts_penalty(0, TS_INF_PENALTY, false),
 *    ts_fil_glue(0) (TeX's parfillskip) and ts_forced_break(); the last item
 *    must be a forced break;
 *  - a forced line break inside the paragraph (<br>) is ts_fil_glue(0)
 *    then ts_forced_break(): without the fil glue the line before it is
 *    underfull and only the last-resort pass accepts it;
 *  - justified: inter-word glue with stretch and shrink (TeX: a third of the
 *    space and a ninth of it), left_skip and right_skip zero;
 *  - ragged right: inter-word glue with no stretch or shrink and right_skip
 *    with stretch (TeX's \raggedright uses about 2 em; less gives a more even
 *    rag); every line then gets ratio * stretch at its right end;
 *  - centred: left_skip and right_skip with equal stretch, inter-word glue
 *    rigid, and the paragraph end with ts_glue(0, 0, 0) instead of the fil
 *    glue, so the last line is centred too;
 *  - ragged left: left_skip with stretch, right_skip zero, same ending as
 *    centred. */
#ifndef OCTAVO_TS_LINEBREAK_H
#define OCTAVO_TS_LINEBREAK_H

#include <stdbool.h>
#include <stddef.h>

#include "oc_arena.h"

/* A penalty of this size or more forbids a break; its negative forces one. */
#define TS_INF_PENALTY 10000.0

typedef enum ts_item_type { TS_BOX, TS_GLUE, TS_PENALTY } ts_item_type;

typedef struct ts_item {
  ts_item_type type;
  double width;       /* box and glue width; for a penalty, the width added at
                         the end of the line when it breaks there (the '-') */
  double stretch;     /* glue */
  double shrink;      /* glue */
  double penalty;     /* penalty */
  bool fil;           /* glue: the stretch is infinite (first order, TeX's fil)
                         and wins over all finite stretch in its line */
  bool flagged;       /* penalty: a break here ends the line with a hyphen */
  bool discretionary; /* penalty: a point hyphenation found; the first pass
                         (pretolerance) does not break there */
} ts_item;

static inline ts_item ts_box(double width) {
  return (ts_item){.type = TS_BOX, .width = width};
}
static inline ts_item ts_glue(double width, double stretch, double shrink) {
  return (ts_item){
      .type = TS_GLUE, .width = width, .stretch = stretch, .shrink = shrink};
}
static inline ts_item ts_fil_glue(double width) {
  return (ts_item){.type = TS_GLUE, .width = width, .stretch = 1, .fil = true};
}
static inline ts_item ts_penalty(double width, double penalty, bool flagged) {
  return (ts_item){.type = TS_PENALTY,
                   .width = width,
                   .penalty = penalty,
                   .flagged = flagged};
}
static inline ts_item ts_hyphen_point(double hyphen_width, double penalty) {
  return (ts_item){.type = TS_PENALTY,
                   .width = hyphen_width,
                   .penalty = penalty,
                   .flagged = true,
                   .discretionary = true};
}
static inline ts_item ts_forced_break(void) {
  return ts_penalty(0, -TS_INF_PENALTY, false);
}

/* Glue added at both ends of every line (TeX's \leftskip, \rightskip). */
typedef struct ts_skip {
  double width, stretch, shrink;
} ts_skip;

typedef struct ts_break_params {
  double tolerance;    /* 200: the worst badness of a line in pass 2 */
  double pretolerance; /* 100: pass 1, without the discretionary breaks;
                          negative skips pass 1 */
  double line_penalty; /* 10 */
  /* 50 each: not read by the breaker, which takes penalties from the items;
     kept here so the caller builds the items from one set of parameters. */
  double hyphen_penalty, exhyphen_penalty;
  double double_hyphen_demerits; /* 10000: two hyphenated lines in a row */
  double final_hyphen_demerits;  /* 5000: hyphen on the next-to-last line */
  double adj_demerits; /* 10000: neighbour lines two fitness classes apart */
  int looseness;       /* 0; +1 asks for a line more, -1 for one fewer */
  /* 2: a hard limit on hyphenated lines in a row (0: no limit; more than 8
     counts as 8). */
  int max_hyphenated_lines;
  /* 0, as in TeX: finite stretch added to every line in pass 3, tried when
     pass 2 finds nothing. A few em (the caller knows the em) is usual. */
  double emergency_stretch;
  /* Line i has width line_widths[i]; the last entry repeats. Required. */
  const double *line_widths;
  size_t n_line_widths;
  ts_skip left_skip, right_skip; /* zero */
} ts_break_params;

void ts_break_params_default(ts_break_params *p);

typedef struct ts_line {
  /* Items [start, end) make the line; items[end] is where it broke (glue,
     not drawn, or a penalty whose width is drawn at the end of the line).
     Glue and penalties after a break are dropped: the next line starts at
     the next box (or the forced break that ends an empty line). */
  size_t start, end;
  /* Adjustment ratio: each glue gets width + ratio * stretch when ratio >= 0
     and width + ratio * shrink when negative (ratio is never below -1).
     With fil set the ratio applies to fil glue only, finite glue keeps its
     width. left_skip and right_skip are adjusted in the same way. */
  double ratio;
  bool fil;
  bool hyphenated; /* ends at a flagged penalty */
  /* Points by which the line, shrunk as far as it can, still exceeds its
     width (only from the last-resort pass); the caller may break a box. */
  double overflow;
} ts_line;

typedef struct ts_breaks {
  ts_line *lines;
  size_t n_lines;
  /* 1 (pretolerance), 2 (tolerance), 3 (emergency stretch) or 4: the last
     resort, where any line is allowed and overfull lines are chosen to
     exceed the measure as little as possible. */
  int pass;
  double overflow; /* the largest line overflow, 0 unless pass 4 */
  double demerits; /* total demerits of the chosen breaks */
} ts_breaks;

typedef enum ts_break_status {
  TS_BREAK_OK = 0,
  TS_BREAK_NO_WIDTHS, /* no line_widths given */
  TS_BREAK_NO_END,    /* the items do not end with a forced break */
} ts_break_status;

/* Breaks items[0..n) into lines; the result's lines are allocated in a.
 * Always finds breaks for well-formed input (pass 4 cannot fail). */
ts_break_status ts_break_lines(oc_arena *a, const ts_item *items, size_t n,
                               const ts_break_params *p, ts_breaks *out);

#endif
