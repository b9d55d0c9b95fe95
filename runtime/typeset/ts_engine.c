/* The engine's entry: read the document, lay it out, break it into pages,
 * and repeat while page references (target-counter) changed what they
 * print, then write the PDF. The first pass sets references with a guessed
 * width; later passes with the numbers the previous one found. A reference
 * whose text no longer changes ends the loop, at most four passes. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ts_cjk.h"
#include "ts_engine_int.h"
#include "ts_tag.h"
#include "ts_image.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* What the references of a pass print, by target, for the next pass. */
typedef struct ref_list {
  const char **ids, **texts;
  size_t n, cap;
} ref_list;

static void collect_line(ts_ctx *c, ts_pages *pg, const ts_vline *ln,
                         ref_list *out, bool *changed) {
  for (size_t k = 0; k < ln->nrefs; k++) {
    const ts_pageref *r = &ln->refs[k];
    const char *t = ts_pages_ref(c, pg, r->target, r->style);
    if (!t)
      t = "??";
    if (r->column) {
      /* a number in a leader's column changes nothing unless it no
         longer fits */
      ts_cstyle st = {.face = r->face, .size = r->size};
      if (ts_text_width(&st, t) > r->width + 0.01)
        *changed = true;
    } else {
      /* in the text, the reference took the width of what it printed in
         the previous pass: other text is another width */
      const char *old = NULL;
      for (size_t i = 0; i < c->nrefs && !old; i++)
        if (!strcmp(c->ref_ids[i], r->target))
          old = c->ref_texts[i];
      if (!old || strcmp(old, t))
        *changed = true;
    }
    size_t cap = out->cap;
    out->ids = oc_arena_grow_array(c->a, out->ids, out->n, &cap, out->n + 1,
                                   sizeof *out->ids);
    out->texts = oc_arena_grow_array(c->a, out->texts, out->n, &out->cap,
                                     out->n + 1, sizeof *out->texts);
    out->ids[out->n] = r->target;
    out->texts[out->n] = t;
    out->n++;
  }
}

static void collect_list(ts_ctx *c, ts_pages *pg, const ts_vlist *vl,
                         ref_list *out, bool *changed) {
  for (size_t i = 0; i < vl->n; i++) {
    const ts_vitem *it = &vl->items[i];
    if (it->type == TS_V_LINE)
      collect_line(c, pg, it->u.line, out, changed);
    else if (it->type == TS_V_BOX)
      for (size_t k = 0; k < it->u.box->nlines; k++)
        collect_line(c, pg, it->u.box->lines[k].line, out, changed);
  }
}

/* Every reference the layout set, in lines, boxes (table rows) and
 * footnotes, with what it now prints; changed when a reference would
 * print other text than the width it was laid out with allows. */
static void collect_refs(ts_ctx *c, ts_pages *pg, bool *changed) {
  ref_list out = {0};
  *changed = false;
  collect_list(c, pg, &c->vl, &out, changed);
  collect_list(c, pg, &c->notes, &out, changed);
  c->ref_ids = out.ids;
  c->ref_texts = out.texts;
  c->nrefs = out.n;
}

int ts_engine_render(oc_arena *a, const ts_engine_input *in,
                     const char *pdf_path, ts_engine_stats *stats) {
  ts_ctx ctx = {0}, *c = &ctx;
  c->a = a;
  c->in = in;
  c->rep = in->rep;
  c->sheets = oc_arena_alloc(a, (in->nsheets + 1) * sizeof *c->sheets);
  c->sheets[0] = css_ua_stylesheet(a);
  for (size_t i = 0; i < in->nsheets; i++)
    c->sheets[i + 1] = in->sheets[i];
  c->nsheets = in->nsheets + 1;
  c->fonts = ts_fonts_new(a, in->rep);
  c->hyph = ts_hyphenator_new(a, NULL);
  c->words = ts_wordcache_new(a);
  ts_break_params_default(&c->bp);
  ts_engine_stats st = {0};
  double t0 = now();
  c->pdf = ts_pdf_new(a, in->rep, in->name);
  ts_pdf_set_image_limits(
      c->pdf, in->image_max_pixels ? in->image_max_pixels : TS_IMAGE_MAX_PIXELS,
      in->image_max_ppi ? in->image_max_ppi : TS_IMAGE_MAX_PPI);
  if (!in->untagged) {
    ts_pdf_set_tagged(c->pdf);
    ts_struct_init(c);
  }
  ts_style_init(c);
  ts_load_font_faces(c);
  c->root = ts_dom_load(c);
  st.t_read = now() - t0;
  if (!c->root)
    return -1;
  const char *lang = ts_node_attr(c->root, "lang");
  if (!lang)
    lang = ts_node_attr(c->root, "xml:lang");
  c->lang = lang ? lang : in->lang;
  /* Chinese, Japanese and Korean are not hyphenated; the Latin words in
     them are, as English, which most of them are */
  c->hyph_lang = ts_cjk_lang(c->lang) ? "en" : c->lang;
  if (c->hyph_lang) {
    ts_hyphen_status hs = ts_hyphen_load(c->hyph, c->hyph_lang, NULL);
    c->lang_ok = hs == TS_HYPHEN_OK;
    if (hs == TS_HYPHEN_NO_DICT && !ts_cjk_lang(c->lang))
      oc_report(c->rep, OC_NOTE, in->name, 0, 0,
                "no hyphenation patterns for language '%s' are installed; "
                "the text is set without hyphenation",
                c->lang);
  }
  c->content_width = ts_page_content_width(c, NULL);
  c->content_height = ts_page_content_height(c, NULL);
  ts_pages *pg = NULL;
  int pass = 0;
  for (;;) {
    pass++;
    c->pa = oc_arena_new();
    t0 = now();
    ts_layout(c);
    double t1 = now();
    pg = ts_paginate(c);
    st.t_layout += t1 - t0;
    st.t_pages += now() - t1;
    bool changed = false;
    collect_refs(c, pg, &changed);
    if (!changed || pass >= 4)
      break;
    oc_arena_free(c->pa);
  }
  st.passes = pass;
  st.lines = c->nlines;
  t0 = now();
  int rc = ts_pages_write(c, pg, pdf_path, &st);
  st.t_write = now() - t0;
  if (rc == 0 && in->page_starts)
    st.page_starts = ts_page_starts(c, pg);
  if (stats)
    *stats = st;
  oc_arena_free(c->pa);
  free(c->vl.items);
  free(c->notes.items);
  return rc;
}
