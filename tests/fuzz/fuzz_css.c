/* libFuzzer target for the PDF engine's CSS reader: any text through the
 * tokenizer, the parser with its error recovery, every value reader on
 * every declaration, and the cascade over a small fixed tree. None may
 * crash, leak or read out of bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "css.h"

typedef struct el {
  const char *tag, *id, *cls;
  const struct el *parent, *prev;
} el;

static const char *e_tag(const void *e) { return ((const el *)e)->tag; }
static const char *e_id(const void *e) { return ((const el *)e)->id; }
static bool e_has_class(const void *e, const char *c) {
  const char *k = ((const el *)e)->cls;
  return k && strcmp(k, c) == 0;
}
static const char *e_attr(const void *e, const char *name) {
  return strcmp(name, "href") == 0 ? ((const el *)e)->id : NULL;
}
static const void *e_parent(const void *e) { return ((const el *)e)->parent; }
static const char *const *e_classes(const void *e, size_t *n) {
  static const char *const none[1] = {NULL};
  const el *x = e;
  *n = x->cls ? 1 : 0;
  return x->cls ? &x->cls : none;
}
static const void *e_prev(const void *e) { return ((const el *)e)->prev; }

static void quiet(void *user, oc_severity sev, const char *file, unsigned line,
                  unsigned col, const char *message) {
  (void)user, (void)sev, (void)file, (void)line, (void)col, (void)message;
}

static void read_values(oc_arena *a, const css_decl *d, size_t n) {
  for (size_t i = 0; i < n; i++) {
    const css_token *v = d[i].value;
    size_t nv = d[i].nvalue;
    css_length l;
    css_color c;
    css_content_item *items;
    size_t ni;
    css_string_set *sets;
    size_t ns;
    const char **names;
    long *values;
    double w, h;
    if (css_read_length(v, nv, &l))
      (void)css_length_pt(l, 12, 12, 100);
    (void)css_read_color(v, nv, &c);
    (void)css_read_keyword(v, nv);
    (void)css_read_font_family(a, v, nv, &names);
    if (css_read_content(a, v, nv, &items, &ni))
      for (size_t k = 0; k < ni; k++)
        (void)css_format_counter(a, (long)k * 997 - 3, items[k].counter_style);
    (void)css_read_string_set(a, v, nv, &sets, &ns);
    (void)css_read_counters(a, v, nv, &names, &values);
    (void)css_read_page_size(v, nv, &w, &h);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  oc_arena *a = oc_arena_new();
  oc_reporter rep = {quiet, NULL};
  css_stylesheet *s = css_parse(a, (const char *)data, size, "fuzz.css",
                                CSS_ORIGIN_AUTHOR, &rep);
  for (size_t i = 0; i < s->nrules; i++)
    read_values(a, s->rules[i].decls, s->rules[i].ndecls);
  for (size_t i = 0; i < s->npages; i++) {
    read_values(a, s->pages[i].decls, s->pages[i].ndecls);
    for (size_t b = 0; b < s->pages[i].nboxes; b++)
      read_values(a, s->pages[i].boxes[b].decls, s->pages[i].boxes[b].ndecls);
  }
  for (size_t i = 0; i < s->nfonts; i++)
    read_values(a, s->fonts[i].decls, s->fonts[i].ndecls);
  static const el html = {"html", NULL, NULL, NULL, NULL};
  static const el body = {"body", "b", "x", &html, NULL};
  static const el h1 = {"h1", "t", "title", &body, NULL};
  static const el p = {"p", NULL, "x", &body, &h1};
  /* The same cascade with the rule index (class_list) and without: the
     index must never change a result. */
  const css_dom dom = {e_tag,    e_id,   e_has_class, e_attr,
                       e_parent, e_prev, true,        NULL};
  const css_dom idom = {e_tag,    e_id,   e_has_class, e_attr,
                        e_parent, e_prev, true,        e_classes};
  const css_stylesheet *sheets[] = {css_ua_stylesheet(a), s};
  css_style st[4], ist[4];
  const el *els[] = {&html, &body, &h1, &p};
  const int parent[] = {-1, 0, 1, 1};
  for (int i = 0; i < 4; i++) {
    css_cascade(a, sheets, 2, &dom, els[i], CSS_PE_NONE,
                parent[i] < 0 ? NULL : &st[parent[i]], &st[i]);
    css_cascade(a, sheets, 2, &idom, els[i], CSS_PE_NONE,
                parent[i] < 0 ? NULL : &st[parent[i]], &ist[i]);
    if (memcmp(st[i].decl, ist[i].decl, sizeof st[i].decl) != 0)
      abort();
  }
  css_style pe;
  css_cascade(a, sheets, 2, &dom, &p, CSS_PE_AFTER, &st[3], &pe);
  oc_arena_free(a);
  return 0;
}
