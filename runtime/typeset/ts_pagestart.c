/* Where each page starts in the document's text, for a reader of another
 * edition who follows the printed pages (ts_engine_input.page_starts): the
 * first word that starts on the page, found in the lines of the page's own
 * items (not the floats it receives, nor its repeated table headers), as an
 * element of the document and a byte offset into that element's text. */
#include <stdint.h>
#include <stdlib.h>

#include "oc_alloc.h"
#include "ts_engine_int.h"

typedef struct start_at {
  uintptr_t src; /* the byte a line's first word came from */
  size_t page;
} start_at;

static int by_src(const void *a, const void *b) {
  uintptr_t x = ((const start_at *)a)->src, y = ((const start_at *)b)->src;
  return x < y ? -1 : x > y;
}

static const char *line_src(const ts_vitem *it) {
  if (it->type == TS_V_LINE)
    return it->u.line->src;
  if (it->type == TS_V_BOX)
    for (size_t k = 0; k < it->u.box->nlines; k++)
      if (it->u.box->lines[k].line->src)
        return it->u.box->lines[k].line->src;
  return NULL;
}

/* The first source byte of a line on page p, skipping the floats moved
 * from it; NULL when no word starts there. */
static const char *page_src(const ts_ctx *c, const ts_page *p) {
  size_t skip = 0;
  for (size_t k = p->start; k < p->end; k++) {
    while (skip < p->nskips && p->skips[skip].end <= k)
      skip++;
    if (skip < p->nskips && p->skips[skip].start <= k)
      continue;
    const char *s = line_src(&c->vl.items[k]);
    if (s)
      return s;
  }
  return NULL;
}

typedef struct walk {
  start_at *at; /* sorted by src */
  size_t n;
  ts_page_start *out;
  size_t text; /* text bytes seen */
} walk;

/* Document order; an element's text starts at text_start. Recursion is as
 * deep as the node tree, TS_MAX_DEPTH at most; elements are numbered as in
 * the XHTML, which holds those deeper too (xel). */
static void visit(walk *w, const ts_node *n, size_t element,
                  size_t text_start) {
  if (!n->tag) {
    uintptr_t from = (uintptr_t)n->text, to = from + n->text_len;
    size_t lo = 0, hi = w->n;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (w->at[mid].src < from)
        lo = mid + 1;
      else
        hi = mid;
    }
    for (; lo < w->n && w->at[lo].src < to; lo++) {
      ts_page_start *o = &w->out[w->at[lo].page];
      o->element = element;
      o->offset = w->text - text_start + (size_t)(w->at[lo].src - from);
    }
    w->text += n->text_len;
    return;
  }
  size_t self = n->xel, start = w->text;
  for (const ts_node *ch = n->first; ch; ch = ch->next)
    visit(w, ch, self, start);
}

ts_page_start *ts_page_starts(ts_ctx *c, const ts_pages *pg) {
  ts_page_start *out = oc_arena_calloc(c->a, pg->n ? pg->n : 1, sizeof *out);
  start_at *at = oc_reallocarray(NULL, pg->n ? pg->n : 1, sizeof *at);
  size_t n = 0;
  for (size_t i = 0; i < pg->n; i++) {
    const ts_page *p = &pg->p[i];
    out[i].label = css_format_counter(c->a, p->counter, p->label_style);
    out[i].element = SIZE_MAX;
    const char *s = p->blank ? NULL : page_src(c, p);
    if (s)
      at[n++] = (start_at){(uintptr_t)s, i};
  }
  qsort(at, n, sizeof *at, by_src);
  walk w = {at, n, out, 0};
  if (c->root)
    visit(&w, c->root, 0, 0);
  free(at);
  return out;
}
