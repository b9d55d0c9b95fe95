/* Selector matching over the caller's DOM, the cascade (importance and
 * origin, specificity, order), inheritance and the computed font size, and
 * the user-agent stylesheet that starts every cascade. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "css.h"
#include "oc_hash.h"

static bool compound_matches(const css_compound *c, const css_dom *dom,
                             const void *el) {
  if (c->tag) {
    const char *tag = dom->tag(el);
    if (!tag ||
        (dom->lower_tags ? strcmp(tag, c->tag) : strcasecmp(tag, c->tag)) != 0)
      return false;
  }
  if (c->id) {
    const char *id = dom->id(el);
    if (!id || strcmp(id, c->id) != 0)
      return false;
  }
  for (size_t i = 0; i < c->nclasses; i++)
    if (!dom->has_class(el, c->classes[i]))
      return false;
  for (size_t i = 0; i < c->nattrs; i++) {
    const char *v = dom->attr(el, c->attrs[i].name);
    if (!v || (c->attrs[i].value && strcmp(v, c->attrs[i].value) != 0))
      return false;
  }
  if (c->first_child && dom->prev_sibling(el))
    return false;
  return true;
}

/* How a match failed, as WebKit's selector checker tells it: here only
 * (an ancestor or earlier sibling may still do), for every later sibling
 * of el too, or for every ancestor too. A descendant combinator stops at
 * the last: what failed over all ancestors of a node fails over those of
 * its ancestors. Without it, `.x div div div div div div` over 200 nested
 * divs tries every choice of six ancestors (over 10^10). */
typedef enum { M_YES, M_NO_HERE, M_NO_SIBLINGS, M_NO_ANCESTORS } match_result;

/* Matches parts[0..k] with parts[k] on el, right to left; a descendant
 * combinator tries every ancestor, as a later part may need a higher one. */
static match_result match_from(const css_selector *sel, size_t k,
                               const css_dom *dom, const void *el) {
  if (!compound_matches(&sel->parts[k], dom, el))
    return M_NO_HERE;
  if (k == 0)
    return M_YES;
  if (sel->parts[k].comb == CSS_COMB_ADJACENT) {
    const void *s = dom->prev_sibling(el);
    return s ? match_from(sel, k - 1, dom, s) : M_NO_SIBLINGS;
  }
  if (sel->parts[k].comb == CSS_COMB_SIBLING) {
    for (const void *s = dom->prev_sibling(el); s; s = dom->prev_sibling(s)) {
      match_result r = match_from(sel, k - 1, dom, s);
      if (r != M_NO_HERE)
        return r;
    }
    return M_NO_SIBLINGS;
  }
  const void *p = dom->parent(el);
  if (sel->parts[k].comb == CSS_COMB_CHILD)
    return p ? match_from(sel, k - 1, dom, p) : M_NO_ANCESTORS;
  for (; p; p = dom->parent(p)) {
    match_result r = match_from(sel, k - 1, dom, p);
    if (r == M_YES || r == M_NO_ANCESTORS)
      return r;
  }
  return M_NO_ANCESTORS;
}

bool css_selector_matches(const css_selector *sel, const css_dom *dom,
                          const void *el) {
  return sel->nparts && match_from(sel, sel->nparts - 1, dom, el) == M_YES;
}

/* ---- cascade -------------------------------------------------------- */

typedef struct matched {
  const css_decl *decl;
  unsigned level; /* 0 UA, 1 author, 2 author !important */
  uint32_t specificity;
  size_t order;
} matched;

static int matched_cmp(const void *pa, const void *pb) {
  const matched *a = pa, *b = pb;
  if (a->level != b->level)
    return a->level < b->level ? -1 : 1;
  if (a->specificity != b->specificity)
    return a->specificity < b->specificity ? -1 : 1;
  return a->order < b->order ? -1 : a->order > b->order;
}

static bool is_inherit(const css_decl *d) {
  return d && d->nvalue == 1 && d->value->type == CSS_T_IDENT &&
         strcasecmp(d->value->text, "inherit") == 0;
}

/* CSS 2.1's absolute sizes, with medium the 12pt a book is set in. */
static const struct {
  const char *name;
  double pt;
} font_sizes[] = {{"xx-small", 7}, {"x-small", 8.5}, {"small", 10},
                  {"medium", 12},  {"large", 14.5},  {"x-large", 18},
                  {"xx-large", 24}};

static double computed_font_size(const css_decl *d, double parent_pt,
                                 double root_pt) {
  if (!d)
    return parent_pt;
  const char *kw = css_read_keyword(d->value, d->nvalue);
  if (kw) {
    for (size_t i = 0; i < sizeof font_sizes / sizeof font_sizes[0]; i++)
      if (strcasecmp(kw, font_sizes[i].name) == 0)
        return font_sizes[i].pt;
    if (strcasecmp(kw, "smaller") == 0)
      return parent_pt / 1.2;
    if (strcasecmp(kw, "larger") == 0)
      return parent_pt * 1.2;
    return parent_pt;
  }
  css_length l;
  if (!css_read_length(d->value, d->nvalue, &l))
    return parent_pt;
  return css_length_pt(l, parent_pt, root_pt, parent_pt);
}

/* ---- the rule index -------------------------------------------------- */

/* Rules by the key of their selectors' rightmost compound (its id, else
 * its first class, else its tag, else none: the universal list), so an
 * element is tested only against rules that can match it. Each list holds
 * rule numbers in ascending order, once each. */
typedef struct idx_list {
  const char *key;
  uint8_t kind; /* 0 tag, 1 class, 2 id */
  size_t *rules;
  size_t n, cap;
} idx_list;

struct css_index {
  size_t *decl_base; /* per rule: declarations in the rules before it */
  size_t total_decls;
  oc_hidx lists; /* idx_list by key and kind */
  idx_list universal;
};

static uint64_t idx_hash(const char *k, uint8_t kind) {
  return oc_hash_bytes(OC_HASH_SEED ^ kind, k, strlen(k));
}

static bool list_eq(const void *entry, const void *key) {
  const idx_list *l = entry, *k = key;
  return l->kind == k->kind && !strcmp(l->key, k->key);
}

static void list_add(oc_arena *a, idx_list *l, size_t r) {
  if (l->n && l->rules[l->n - 1] == r)
    return;
  l->rules = oc_arena_grow_array(a, l->rules, l->n, &l->cap, l->n + 1,
                                 sizeof *l->rules);
  l->rules[l->n++] = r;
}

static struct css_index *build_index(const css_stylesheet *sh) {
  oc_arena *a = sh->arena;
  struct css_index *x = oc_arena_calloc(a, 1, sizeof *x);
  x->decl_base =
      oc_arena_alloc(a, (sh->nrules ? sh->nrules : 1) * sizeof *x->decl_base);
  size_t keys = 0;
  for (size_t r = 0; r < sh->nrules; r++) {
    x->decl_base[r] = x->total_decls;
    x->total_decls += sh->rules[r].ndecls;
    keys += sh->rules[r].nsels;
  }
  oc_hidx_init(&x->lists, a, keys * 2 + 2);
  for (size_t r = 0; r < sh->nrules; r++)
    for (size_t k = 0; k < sh->rules[r].nsels; k++) {
      const css_selector *sel = &sh->rules[r].sels[k];
      if (!sel->nparts) {
        list_add(a, &x->universal, r);
        continue;
      }
      const css_compound *c = &sel->parts[sel->nparts - 1];
      const char *key = c->id ? c->id : c->nclasses ? c->classes[0] : c->tag;
      uint8_t kind = c->id ? 2 : c->nclasses ? 1 : 0;
      if (!key) {
        list_add(a, &x->universal, r);
        continue;
      }
      uint64_t h = idx_hash(key, kind);
      idx_list probe = {.key = key, .kind = kind};
      idx_list *l = oc_hidx_get(&x->lists, h, list_eq, &probe);
      if (!l) {
        l = oc_arena_calloc(a, 1, sizeof *l);
        *l = probe;
        oc_hidx_put(&x->lists, h, l);
      }
      list_add(a, l, r);
    }
  return x;
}

static const idx_list *idx_find(const struct css_index *x, const char *key,
                                uint8_t kind) {
  if (!key)
    return NULL;
  idx_list probe = {.key = key, .kind = kind};
  return oc_hidx_get(&x->lists, idx_hash(key, kind), list_eq, &probe);
}

/* Adds the declarations of rule r of sh when one of its selectors matches
 * el (the most specific one counts), numbered from order. */
static void add_rule(oc_arena *a, const css_stylesheet *sh, size_t r,
                     const css_dom *dom, const void *el, css_pseudo_element pe,
                     size_t order, matched **m, size_t *n, size_t *cap) {
  const css_rule *rule = &sh->rules[r];
  uint32_t spec = 0;
  bool hit = false;
  for (size_t k = 0; k < rule->nsels; k++) {
    const css_selector *sel = &rule->sels[k];
    if (sel->pseudo == pe && sel->specificity >= spec &&
        css_selector_matches(sel, dom, el)) {
      spec = sel->specificity;
      hit = true;
    }
  }
  if (!hit)
    return;
  for (size_t d = 0; d < rule->ndecls; d++) {
    /* Past the stack buffer, the arena takes the list. */
    *m = oc_arena_grow_array(a, *m, *n, cap, *n + 1, sizeof **m);
    const css_decl *decl = &rule->decls[d];
    (*m)[(*n)++] = (matched){decl,
                             sh->origin == CSS_ORIGIN_UA ? 0u
                             : decl->important           ? 2u
                                                         : 1u,
                             spec, order + d};
  }
}

void css_cascade(oc_arena *a, const css_stylesheet *const *sheets,
                 size_t nsheets, const css_dom *dom, const void *el,
                 css_pseudo_element pe, const css_style *parent,
                 css_style *out) {
  matched stack_buf[64], *m = stack_buf;
  size_t n = 0, cap = 64, order = 0;
  const char *const *classes = NULL;
  size_t nclasses = 0;
  if (dom->class_list)
    classes = dom->class_list(el, &nclasses);
  size_t base = 0; /* declarations of the sheets before */
  for (size_t s = 0; s < nsheets; s++) {
    const css_stylesheet *sh = sheets[s];
    if (!dom->class_list || !sh->arena) {
      /* no index: every rule, in order */
      size_t order0 = order;
      for (size_t r = 0; r < sh->nrules; r++) {
        add_rule(a, sh, r, dom, el, pe, order, &m, &n, &cap);
        order += sh->rules[r].ndecls;
      }
      base += order - order0;
      continue;
    }
    if (!sh->index)
      ((css_stylesheet *)sh)->index = build_index(sh);
    const struct css_index *x = sh->index;
    /* the candidate lists: universal, tag, id, every class */
    const idx_list *lists[2 + 1 + 16];
    size_t nl = 0;
    if (x->universal.n)
      lists[nl++] = &x->universal;
    const idx_list *l = idx_find(x, dom->tag(el), 0);
    if (l)
      lists[nl++] = l;
    if ((l = idx_find(x, dom->id(el), 2)))
      lists[nl++] = l;
    bool all = false;
    for (size_t i = 0; i < nclasses; i++)
      if ((l = idx_find(x, classes[i], 1))) {
        if (nl == sizeof lists / sizeof lists[0]) {
          all = true; /* more classes than the merge takes: scan all */
          break;
        }
        lists[nl++] = l;
      }
    if (all) {
      for (size_t r = 0; r < sh->nrules; r++)
        add_rule(a, sh, r, dom, el, pe, base + x->decl_base[r], &m, &n, &cap);
    } else {
      /* merge the ascending lists, each rule once */
      size_t pos[sizeof lists / sizeof lists[0]] = {0};
      for (;;) {
        size_t best = SIZE_MAX;
        for (size_t i = 0; i < nl; i++)
          if (pos[i] < lists[i]->n && lists[i]->rules[pos[i]] < best)
            best = lists[i]->rules[pos[i]];
        if (best == SIZE_MAX)
          break;
        for (size_t i = 0; i < nl; i++)
          if (pos[i] < lists[i]->n && lists[i]->rules[pos[i]] == best)
            pos[i]++;
        add_rule(a, sh, best, dom, el, pe, base + x->decl_base[best], &m, &n,
                 &cap);
      }
    }
    base += x->total_decls;
    order = base;
  }
  qsort(m, n, sizeof *m, matched_cmp);

  memset(out, 0, sizeof *out);
  for (size_t i = 0; i < n; i++)
    out->decl[m[i].decl->prop] = m[i].decl;
  bool fs_inherited = false;
  for (int p = 0; p < CSS_P_COUNT; p++) {
    const css_decl *d = out->decl[p];
    if (is_inherit(d) || (!d && css_prop_inherited((css_prop)p))) {
      out->decl[p] = parent ? parent->decl[p] : NULL;
      if (p == CSS_P_FONT_SIZE)
        fs_inherited = true;
    }
  }
  double parent_pt = parent ? parent->font_size_pt : 12.0;
  double root_pt = parent ? parent->root_font_size_pt : 12.0;
  /* An inherited font size is the parent's computed one, not re-resolved
   * (1.2em must not compound down the tree through inheritance). */
  out->font_size_pt =
      fs_inherited
          ? parent_pt
          : computed_font_size(out->decl[CSS_P_FONT_SIZE], parent_pt, root_pt);
  out->root_font_size_pt = parent ? root_pt : out->font_size_pt;
}

/* ---- the user-agent sheet ------------------------------------------- */

/* Browsers' defaults, cut to what a book's HTML holds; themes set the
 * rest. Table elements are blocks here; the PDF engine adds its own sheet
 * for them (ts_style.c: display: table, table-row, ...). */
static const char ua_css[] =
    "html, body, div, p, h1, h2, h3, h4, h5, h6, ul, ol, dl, dt, dd, pre,\n"
    "blockquote, section, article, aside, nav, header, footer, main,\n"
    "figure, figcaption, address, hr, table, caption, thead, tbody, tfoot,\n"
    "tr, td, th { display: block }\n"
    "li { display: list-item }\n"
    "head, script, style, title, meta, link { display: none }\n"
    "h1 { font-size: 2em; margin: 0.67em 0 }\n"
    "h2 { font-size: 1.5em; margin: 0.83em 0 }\n"
    "h3 { font-size: 1.17em; margin: 1em 0 }\n"
    "h4 { margin: 1.33em 0 }\n"
    "h5 { font-size: 0.83em; margin: 1.67em 0 }\n"
    "h6 { font-size: 0.67em; margin: 2.33em 0 }\n"
    "h1, h2, h3, h4, h5, h6 { font-weight: bold; break-after: avoid }\n"
    "p, ul, ol, dl, pre, blockquote, figure { margin: 1em 0 }\n"
    "ul, ol { padding-left: 2em }\n"
    "ul { list-style-type: disc }\n"
    "ol { list-style-type: decimal }\n"
    "dd { margin-left: 2em }\n"
    "blockquote { margin-left: 2em; margin-right: 2em }\n"
    "em, i, cite, var, dfn { font-style: italic }\n"
    "strong, b, th, dt { font-weight: bold }\n"
    "pre, code, kbd, samp, tt { font-family: monospace }\n"
    "pre { white-space: pre }\n"
    "sup { vertical-align: super; font-size: smaller }\n"
    "sub { vertical-align: sub; font-size: smaller }\n"
    "small { font-size: 0.83em }\n"
    "body { orphans: 2; widows: 2 }\n";

css_stylesheet *css_ua_stylesheet(oc_arena *a) {
  return css_parse(a, ua_css, sizeof ua_css - 1, "<user-agent>", CSS_ORIGIN_UA,
                   NULL);
}
