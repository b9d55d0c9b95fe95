/* The printed pages in the e-book: an epub edition whose `page_source`
 * names a pdf edition carries a page-break marker where each printed page
 * starts, and a page-list that leads to them.
 *
 * The two editions render the same Markdown through different templates,
 * so a page start travels between them as text, not as a position: the
 * engine says where the first word of each page comes from (an element of
 * the PDF's XHTML and a byte offset into its text, ts_engine.h); the pdf
 * side turns that into the item it lies in (the element whose id is the
 * item's slug, which both formats' templates give the item's heading or
 * section) and the page's first words. The epub side finds those words in
 * the item's content document, in order, after the previous page's, and
 * puts the marker before them. Footnotes are left out on both sides (in
 * the PDF's text they stand where they are called, in the EPUB's at the
 * item's end). */
#include "book_site.h"

#include <libxml/tree.h>
#include <stdint.h>
#include <string.h>

#include "book_htmltext.h"
#include "ts_engine.h"

/* The first words kept of a page: enough to tell two places apart. */
#define SNIPPET_MAX 48

typedef struct print_page {
  const char *label;
  const char *item; /* the slug; NULL: no word starts on the page */
  const char *text; /* the first words, spaces collapsed */
  bool item_start;  /* nothing of the item comes before it */
} print_page;

struct bk_print_pages {
  oc_arena *a;
  const char *edition;
  const char *source; /* what the pages are: the ISBN's URN, or a name */
  print_page *p;
  size_t n;
};

bk_print_pages *bk_print_pages_new(oc_arena *a, const char *edition) {
  bk_print_pages *pp = oc_arena_calloc(a, 1, sizeof *pp);
  pp->a = a;
  pp->edition = oc_arena_strndup(a, edition, strlen(edition));
  return pp;
}

size_t bk_print_pages_count(const bk_print_pages *pp) { return pp->n; }

/* ---- the PDF's side ---------------------------------------------------- */

static bool is_space(char c) {
  return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

static bool has_class(xmlNode *n, const char *cls) {
  xmlChar *v = xmlGetProp(n, (const xmlChar *)"class");
  bool found = false;
  size_t k = strlen(cls);
  for (const char *p = (const char *)v; p && *p && !found;) {
    while (is_space(*p))
      p++;
    size_t w = 0;
    while (p[w] && !is_space(p[w]))
      w++;
    found = w == k && !memcmp(p, cls, k);
    p += w;
  }
  xmlFree(v);
  return found;
}

/* The next node in document order, into an element's children unless
 * skip_kids; NULL after the last. */
static xmlNode *next_node(xmlNode *n, bool skip_kids) {
  if (!skip_kids && n->type == XML_ELEMENT_NODE && n->children)
    return n->children;
  while (n && !n->next)
    n = n->parent && n->parent->type == XML_ELEMENT_NODE ? n->parent : NULL;
  return n ? n->next : NULL;
}

static bool is_text(const xmlNode *n) {
  return n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE;
}

static size_t nonspace(const char *s, size_t n) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    k += !is_space(s[i]);
  return k;
}

typedef struct pdf_walk {
  bk_edition *e;
  tpl_map *slugs;   /* item slug → 1 */
  xmlNode **elems;  /* by index in document order */
  int *item;        /* the item slug element last opened, by element */
  size_t *nonspace; /* non-space text bytes before each element */
  size_t n, cap;
  const char **slug_of; /* by element: its id when an item's slug */
} pdf_walk;

static const char *item_id(pdf_walk *w, xmlNode *n) {
  xmlChar *id = xmlGetProp(n, (const xmlChar *)"id");
  const char *out = NULL;
  tpl_value v;
  if (id && tpl_map_get_str(w->slugs, (const char *)id, strlen((char *)id), &v))
    out = oc_arena_strndup(w->e->a, (const char *)id, strlen((char *)id));
  xmlFree(id);
  return out;
}

/* Indexes the elements as the engine counts them. */
static void index_document(pdf_walk *w, xmlNode *root) {
  oc_arena *a = w->e->a;
  size_t text = 0;
  int item = -1;
  for (xmlNode *n = root; n; n = next_node(n, false)) {
    if (is_text(n)) {
      const char *s = (const char *)n->content;
      text += s ? nonspace(s, strlen(s)) : 0;
      continue;
    }
    if (n->type != XML_ELEMENT_NODE)
      continue;
    if (w->n == w->cap) {
      size_t cap = w->cap;
      w->elems = oc_arena_grow_array(a, w->elems, w->n, &cap, w->n + 1,
                                     sizeof *w->elems);
      cap = w->cap;
      w->item = oc_arena_grow_array(a, w->item, w->n, &cap, w->n + 1,
                                    sizeof *w->item);
      cap = w->cap;
      w->slug_of = oc_arena_grow_array(a, w->slug_of, w->n, &cap, w->n + 1,
                                       sizeof *w->slug_of);
      w->nonspace = oc_arena_grow_array(a, w->nonspace, w->n, &w->cap, w->n + 1,
                                        sizeof *w->nonspace);
    }
    w->slug_of[w->n] = item_id(w, n);
    if (w->slug_of[w->n])
      item = (int)w->n;
    w->elems[w->n] = n;
    w->item[w->n] = item;
    w->nonspace[w->n] = text;
    w->n++;
  }
}

/* The page's first words from text node t at byte off on, spaces collapsed,
 * footnotes left out, up to the next item. */
static const char *snippet(pdf_walk *w, xmlNode *t, size_t off) {
  char buf[SNIPPET_MAX + 8];
  size_t n = 0, nodes = 0;
  bool space = false;
  /* a bounded number of nodes: elements without text (a long run of
     empty ones) end the words rather than cost a walk per page */
  for (xmlNode *x = t; x && n < SNIPPET_MAX && nodes++ < 256;) {
    if (x->type == XML_ELEMENT_NODE) {
      if (x != t && item_id(w, x))
        break;
      if (has_class(x, "footnote")) {
        x = next_node(x, true);
        continue;
      }
    } else if (is_text(x) && x->content) {
      const char *s = (const char *)x->content + (x == t ? off : 0);
      for (; *s && n < SNIPPET_MAX; s++) {
        if (is_space(*s)) {
          space = n > 0;
          continue;
        }
        if (space)
          buf[n++] = ' ';
        space = false;
        if (n < SNIPPET_MAX)
          buf[n++] = *s;
      }
    }
    x = next_node(x, false);
  }
  /* whole characters only */
  while (n && ((unsigned char)buf[n - 1] & 0xC0) == 0x80)
    n--;
  if (n && (unsigned char)buf[n - 1] >= 0xC0)
    n--;
  return oc_arena_strndup(w->e->a, buf, n);
}

/* Where the walk to the last page's text node stopped. */
typedef struct resume {
  size_t el;
  xmlNode *x;
  size_t base, before, idx;
  int item;
} resume;

void bk_pages_collect(bk_edition *e, void *xml_doc,
                      const struct ts_page_start *starts, size_t n) {
  bk_print_pages *pp = e->pages_out;
  oc_arena *pa = pp->a;
  pdf_walk w = {.e = e, .slugs = tpl_map_new(e->a, e->nitems + 1)};
  for (size_t i = 0; i < e->nitems; i++)
    if (e->items[i].slug && e->items[i].slug[0])
      tpl_map_set_str(e->a, w.slugs, e->items[i].slug, tpl_int(1));
  xmlNode *root = xmlDocGetRootElement((xmlDocPtr)xml_doc);
  if (root)
    index_document(&w, root);
  pp->p = oc_arena_calloc(pa, n ? n : 1, sizeof *pp->p);
  pp->n = n;
  resume r = {0};
  for (size_t i = 0; i < n; i++) {
    print_page *o = &pp->p[i];
    o->label = oc_arena_strndup(pa, starts[i].label, strlen(starts[i].label));
    size_t el = starts[i].element;
    if (el >= w.n)
      continue;
    /* the text node that holds the offset, and the item it lies in; a
       page in the element the last one was in goes on from there (a
       paragraph or code block over many pages is walked once) */
    xmlNode *top = w.elems[el], *t = NULL, *end = next_node(top, true);
    xmlNode *x = top->children;
    size_t base = 0, before = w.nonspace[el], idx = el, off = starts[i].offset;
    int item = w.item[el];
    if (r.x && r.el == el && off >= r.base) {
      x = r.x;
      base = r.base;
      before = r.before;
      idx = r.idx;
      item = r.item;
    }
    for (; x && x != end; x = next_node(x, false)) {
      if (x->type == XML_ELEMENT_NODE) {
        if (++idx < w.n && w.slug_of[idx])
          item = (int)idx;
        continue;
      }
      if (!is_text(x) || !x->content)
        continue;
      size_t len = strlen((const char *)x->content);
      if (off - base < len) {
        t = x;
        break;
      }
      base += len;
      before += nonspace((const char *)x->content, len);
    }
    if (t)
      r = (resume){el, t, base, before, idx, item};
    size_t left = off - base;
    if (t)
      before += nonspace((const char *)t->content, left);
    if (!t || item < 0)
      continue;
    o->item = oc_arena_strndup(pa, w.slug_of[item], strlen(w.slug_of[item]));
    o->item_start = before == w.nonspace[item];
    const char *s = snippet(&w, t, left);
    o->text = oc_arena_strndup(pa, s, strlen(s));
  }
  const char *isbn = e->ed->isbn;
  const char *title = e->bk.title;
  char *digits = oc_arena_strndup(pa, isbn, strlen(isbn)), *d = digits;
  for (const char *c = isbn; *c; c++)
    if ((*c >= '0' && *c <= '9') || *c == 'X' || *c == 'x')
      *d++ = *c;
  *d = 0;
  pp->source = digits[0] ? oc_arena_printf(pa, "urn:isbn:%s", digits)
                         : oc_arena_printf(pa, "%s (%s, PDF)", title, e->name);
}

/* ---- the EPUB's side --------------------------------------------------- */

/* A content document's text as the reader reads it: spaces collapsed,
 * entities decoded, footnotes and foreign content (SVG, MathML) left out;
 * each byte with the byte of the document it comes from, and where a
 * marker before it would go (before the heading, figure or table whose
 * first words it is). */
typedef struct doc_text {
  char *t;
  size_t *src, *put;
  size_t n, cap;
  size_t slug_put, slug_at; /* the item's slug element: before its tag, and
                               its first text; SIZE_MAX: not found */
  size_t body_at, body_end; /* after <body …>, before </body> */
} doc_text;

static void dt_add(oc_arena *a, doc_text *d, char c, size_t src, size_t put) {
  if (d->n == d->cap) {
    size_t cap = d->cap;
    d->t = oc_arena_grow_array(a, d->t, d->n, &cap, d->n + 1, sizeof *d->t);
    cap = d->cap;
    d->src =
        oc_arena_grow_array(a, d->src, d->n, &cap, d->n + 1, sizeof *d->src);
    d->put =
        oc_arena_grow_array(a, d->put, d->n, &d->cap, d->n + 1, sizeof *d->put);
  }
  d->t[d->n] = c;
  d->src[d->n] = src;
  d->put[d->n] = put;
  d->n++;
}

static bool has_token(const char *list, const char *word) {
  size_t k = strlen(word);
  for (const char *p = list; p && *p;) {
    while (is_space(*p))
      p++;
    size_t w = 0;
    while (p[w] && !is_space(p[w]))
      w++;
    if (w == k && !memcmp(p, word, k))
      return true;
    p += w;
  }
  return false;
}

/* The attribute `name` of the start tag t, decoded, in v (NUL-terminated),
 * or NULL. */
static const char *tag_attr(const bk_ht_token *t, const char *name, oc_sb *v) {
  v->len = 0;
  return bk_ht_get_attr(t, name, v) ? oc_sb_cstr(v) : NULL;
}

static void scan_document(oc_arena *a, const char *h, size_t len,
                          const char *slug, doc_text *d) {
  d->slug_put = d->slug_at = SIZE_MAX;
  d->body_at = d->body_end = len;
  bool in_body = false, space = false;
  size_t skip = 0;         /* depth inside left-out content */
  size_t hoist = SIZE_MAX; /* a heading opened since the last text */
  oc_sb v;
  oc_sb_init(&v, NULL, 64);
  bk_htreader r;
  bk_ht_token t;
  bk_ht_init(&r, h, len);
  while (bk_ht_next(&r, &t)) {
    if (t.kind == BK_HT_CLOSE) {
      if (skip)
        skip--;
      else if (bk_ht_is(&t, "body"))
        d->body_end = t.at;
      continue;
    }
    if (t.kind == BK_HT_OPEN) {
      if (bk_ht_is(&t, "body")) {
        in_body = true;
        d->body_at = t.end;
        continue;
      }
      if (skip) {
        skip += !t.empty;
        continue;
      }
      const char *cls = tag_attr(&t, "class", &v);
      if (bk_ht_is(&t, "svg") || bk_ht_is(&t, "math") ||
          bk_ht_is(&t, "script") || bk_ht_is(&t, "style") ||
          bk_ht_is(&t, "textarea") || bk_ht_is(&t, "select") ||
          has_token(cls, "footnotes") || has_token(cls, "footnote-ref")) {
        skip = !t.empty;
        continue;
      }
      const char *id = tag_attr(&t, "id", &v);
      if (id && !strcmp(id, slug) && d->slug_put == SIZE_MAX) {
        d->slug_put = t.at;
        d->slug_at = d->n;
      }
      /* a marker goes before a heading (inside, it would join the
         heading's name), a figure (its image comes before the caption's
         words) or a table (its caption or first row) that opens with the
         page's words */
      bool heading = t.name_len == 2 && t.name[0] == 'h' && t.name[1] >= '1' &&
                     t.name[1] <= '6';
      if ((heading || bk_ht_is(&t, "figure") || bk_ht_is(&t, "table")) &&
          hoist == SIZE_MAX)
        hoist = t.at;
      continue;
    }
    if (t.kind != BK_HT_TEXT || !in_body || skip)
      continue;
    /* each byte with where it comes from: a reference's bytes all from
       its '&' */
    for (size_t k = 0; k < t.len; k++) {
      size_t at = t.ref ? t.at : (size_t)(t.text - h) + k;
      if ((!t.ref || t.len == 1) && is_space(t.text[k])) {
        space = d->n > 0;
        continue;
      }
      if (space)
        dt_add(a, d, ' ', at, at);
      space = false;
      dt_add(a, d, t.text[k], at, hoist != SIZE_MAX ? hoist : at);
      hoist = SIZE_MAX;
    }
  }
  oc_sb_free(&v);
}

struct bk_page_marks {
  bk_edition *e;
  const bk_print_pages *pp;
  site *s;
  tpl_map *last_page; /* item slug → index of its last EPUB page */
  tpl_map *ids;       /* marker ids given */
  size_t next;        /* the first printed page not yet marked */
  const char **url;   /* by printed page: where its marker is */
  const char **id;
  size_t guessed; /* markers whose words were not found */
};

bk_page_marks *bk_pages_begin(bk_edition *e, site *s) {
  bk_page_marks *m = oc_arena_calloc(e->a, 1, sizeof *m);
  m->e = e;
  m->pp = e->pages_in;
  m->s = s;
  m->last_page = tpl_map_new(e->a, s->npages + 1);
  m->ids = tpl_map_new(e->a, m->pp->n + 1);
  /* index 0 is the cover page, i + 1 page i of s */
  tpl_map_set_str(e->a, m->last_page, "cover", tpl_int(0));
  for (size_t i = 0; i < s->npages; i++)
    tpl_map_set_str(e->a, m->last_page, s->pages[i].item->slug,
                    tpl_int((int64_t)i + 1));
  m->url = oc_arena_calloc(e->a, m->pp->n + 1, sizeof *m->url);
  m->id = oc_arena_calloc(e->a, m->pp->n + 1, sizeof *m->id);
  return m;
}

/* "page-<label>", unique in the book: a label is a number or a roman
 * numeral, but any other character becomes '-'. */
static const char *marker_id(bk_page_marks *m, size_t k) {
  bk_edition *e = m->e;
  const char *label = m->pp->p[k].label;
  char *id = label[0] ? oc_arena_printf(e->a, "page-%s", label)
                      : oc_arena_printf(e->a, "page-at-%zu", k + 1);
  for (char *c = id + 5; *c; c++)
    if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
          (*c >= '0' && *c <= '9')))
      *c = '-';
  const char *out = id;
  tpl_value v;
  for (int n = 2; tpl_map_get_str(m->ids, out, strlen(out), &v) ||
                  bk_site_page_of(m->s, out, strlen(out)) != NULL;
       n++)
    out = oc_arena_printf(e->a, "%s-%d", id, n);
  tpl_map_set_str(e->a, m->ids, out, tpl_int(1));
  return out;
}

/* A page's words are looked for this far after the previous page's (a
 * page holds a few kilobytes): a page the e-book lacks costs a window,
 * not the rest of the document. */
#define SEARCH_WINDOW 65536

/* Where printed page k's words are in d, from byte cursor on: an index of
 * d, or SIZE_MAX. */
static size_t find_words(const doc_text *d, size_t from, const char *w) {
  size_t n = strlen(w);
  if (!n || d->n < n)
    return SIZE_MAX;
  size_t to = d->n - n;
  if (to - from > SEARCH_WINDOW && from < to)
    to = from + SEARCH_WINDOW;
  for (size_t i = from; i <= to; i++)
    if (d->t[i] == w[0] && !memcmp(d->t + i, w, n))
      return i;
  return SIZE_MAX;
}

typedef struct insertion {
  size_t at;   /* byte of the document */
  size_t page; /* printed page */
} insertion;

const char *bk_pages_mark(bk_page_marks *m, size_t index, const char *slug,
                          const char *file, const char *html, size_t *len) {
  bk_edition *e = m->e;
  const bk_print_pages *pp = m->pp;
  const site *s = m->s;
  bool last = index == s->npages;
  bool more_of_item =
      index > 0 && !last && s->pages[index].item == s->pages[index - 1].item;
  doc_text d = {0};
  scan_document(e->a, html, *len, slug, &d);
  insertion *ins = oc_arena_alloc(e->a, (pp->n + 1) * sizeof *ins);
  size_t nins = 0, cursor = 0, pending = m->next;
  size_t last_at = d.slug_put != SIZE_MAX ? d.slug_put : d.body_at;
  while (m->next < pp->n) {
    const print_page *p = &pp->p[m->next];
    tpl_value lp;
    bool known =
        p->item && tpl_map_get_str(m->last_page, p->item, strlen(p->item), &lp);
    if (!known || (size_t)lp.u.i < index) {
      m->next++; /* no words of its own here: set with the next page */
      continue;
    }
    if (strcmp(p->item, slug) != 0)
      break;
    size_t at;
    if (p->item_start && d.slug_put != SIZE_MAX && cursor <= d.slug_at) {
      at = d.slug_put;
      cursor = d.slug_at;
    } else {
      size_t f = find_words(&d, cursor, p->text);
      if (f == SIZE_MAX && more_of_item)
        break; /* on the item's next page */
      if (f == SIZE_MAX) {
        m->guessed++;
        at = last_at;
      } else {
        at = d.put[f];
        cursor = f + 1;
      }
    }
    last_at = at;
    for (; pending <= m->next; pending++)
      ins[nins++] = (insertion){at, pending};
    m->next++;
  }
  if (last) {
    /* pages with no words after the last marker: at the end of the text */
    for (; pending < pp->n; pending++)
      ins[nins++] = (insertion){d.body_end, pending};
    m->next = pp->n;
  } else {
    m->next = pending; /* pages without words wait for the next marker */
  }
  if (!nins)
    return html;
  bool ns = strstr(html, "xmlns:epub=") != NULL;
  oc_sb out;
  oc_sb_init(&out, e->a, *len + nins * 120);
  size_t from = 0;
  for (size_t i = 0; i < nins; i++) {
    size_t at = ins[i].at < from ? from : ins[i].at;
    oc_sb_add(&out, html + from, at - from);
    from = at;
    size_t k = ins[i].page;
    const char *id = marker_id(m, k);
    const char *label = pp->p[k].label[0] ? pp->p[k].label
                                          : oc_arena_printf(e->a, "%zu", k + 1);
    oc_sb_adds(&out, "<span");
    if (!ns)
      oc_sb_adds(&out, " xmlns:epub=\"http://www.idpf.org/2007/ops\"");
    oc_sb_adds(&out, " epub:type=\"pagebreak\" role=\"doc-pagebreak\" id=\"");
    oc_sb_adds(&out, id);
    oc_sb_adds(&out, "\" aria-label=\"");
    for (const char *c = label; *c; c++)
      if (*c == '<' || *c == '&' || *c == '"')
        oc_sb_adds(&out, *c == '<' ? "&lt;" : *c == '&' ? "&amp;" : "&quot;");
      else
        oc_sb_addc(&out, *c);
    oc_sb_adds(&out, "\"/>");
    m->url[k] = file;
    m->id[k] = id;
  }
  oc_sb_add(&out, html + from, *len - from);
  *len = out.len;
  return oc_sb_cstr(&out);
}

tpl_value bk_pages_list(bk_page_marks *m, size_t *guessed) {
  bk_edition *e = m->e;
  const bk_print_pages *pp = m->pp;
  tpl_list *list = tpl_list_new(e->a, pp->n);
  size_t n = 0;
  for (size_t k = 0; k < pp->n; k++) {
    if (!m->url[k])
      continue;
    tpl_map *entry = tpl_map_new(e->a, 2);
    const char *label = pp->p[k].label[0] ? pp->p[k].label
                                          : oc_arena_printf(e->a, "%zu", k + 1);
    bk_set(e, entry, "label", bk_s(e, label));
    bk_set(e, entry, "url",
           bk_s(e, oc_arena_printf(e->a, "%s#%s", m->url[k], m->id[k])));
    list->items[n++] = tpl_map_value(entry);
  }
  list->len = n;
  *guessed = m->guessed;
  return tpl_list_value(list);
}

const char *bk_pages_source(const bk_print_pages *pp) { return pp->source; }
