/* Tagged PDF through libharu (see ts_tag.h): marked-content
 * operators written into the pages' content streams as they are drawn,
 * and, when saving, the structure tree (ISO 32000-1, 14.7 and 14.8):
 * elements in document order with their marked-content and object
 * references, the parent tree, and the catalog's and pages' entries. */
#include "ts_tag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oc_alloc.h"
#include "ts_pdf_int.h"

#include <hpdf_doc.h>
#include <hpdf_pages.h>
#include <hpdf_streams.h>

/* A marked-content sequence of a page: its MCID is its rank among the
 * page's (they are recorded in the order they are drawn). */
typedef struct tag_mcr {
  uint32_t sid, ord;
  uint32_t page, mcid;
} tag_mcr;

typedef struct tag_link {
  uint32_t sid, ord;
} tag_link;

typedef struct tag_annot {
  HPDF_Annotation annot;
  int page;
  uint32_t sid, ord;
} tag_annot;

struct ts_tag {
  ts_pdf *pdf;
  oc_arena *a;
  tag_mcr *mcrs;
  size_t nmcrs, cmcrs;
  uint32_t *next_mcid; /* by page */
  size_t npages_seen;
  tag_link *links; /* by link, as ts_pdf numbers them */
  size_t nlinks, clinks;
  tag_annot *annots;
  size_t nannots, cannots;
  const ts_tag_elem *elems;
  size_t nelems;
  bool open; /* a sequence is open, of open_sid on open_page */
  uint32_t open_sid;
  int open_page;
};

void ts_pdf_set_tagged(ts_pdf *p) {
  if (!p || ts_pdf_tag_state(p))
    return;
  oc_arena *a = ts_pdf_arena(p);
  ts_tag *t = oc_arena_calloc(a, 1, sizeof *t);
  t->pdf = p;
  t->a = a;
  ts_pdf_set_tag_state(p, t);
}

bool ts_pdf_tagged(const ts_pdf *p) { return p && ts_pdf_tag_state(p); }

static void put_ops(HPDF_Page pg, const char *s, size_t n) {
  HPDF_Stream_Write(((HPDF_PageAttr)pg->attr)->stream, (const HPDF_BYTE *)s,
                    (HPDF_UINT)n);
}

void ts_pdf_mark_begin(ts_pdf *p, int page, uint32_t sid, uint32_t ord,
                       const char *type) {
  ts_tag *t = ts_pdf_tag_state(p);
  if (!t)
    return;
  /* artifacts in a row are one sequence; content is one per call: when a
     paragraph's lines on a page were one sequence, poppler (pdfinfo
     -struct-text) read them as one string, the last word of a line glued
     to the first of the next ("lueavec"), and dropped some of them */
  if (t->open && t->open_page == page && !sid && !t->open_sid)
    return;
  HPDF_Page pg = ts_pdf_hpdf_draw_page(p, page);
  if (!pg)
    return;
  if (t->open)
    ts_pdf_mark_end(p, t->open_page);
  t->open = true;
  t->open_page = page;
  t->open_sid = sid;
  if (!sid) {
    put_ops(pg, "/Artifact BMC\n", 14);
    return;
  }
  if ((size_t)page >= t->npages_seen) {
    size_t old = t->npages_seen;
    size_t cap = old;
    t->next_mcid = oc_arena_grow_array(t->a, t->next_mcid, old, &cap,
                                       (size_t)page + 1, sizeof *t->next_mcid);
    memset(t->next_mcid + old, 0, (cap - old) * sizeof *t->next_mcid);
    t->npages_seen = cap;
  }
  uint32_t mcid = t->next_mcid[page]++;
  char buf[96];
  int n = snprintf(buf, sizeof buf, "/%s <</MCID %u>> BDC\n",
                   type && *type && strlen(type) < 40 ? type : "Span", mcid);
  put_ops(pg, buf, (size_t)n);
  t->mcrs = oc_arena_grow_array(t->a, t->mcrs, t->nmcrs, &t->cmcrs,
                                t->nmcrs + 1, sizeof *t->mcrs);
  t->mcrs[t->nmcrs++] = (tag_mcr){sid, ord, (uint32_t)page, mcid};
}

void ts_pdf_mark_end(ts_pdf *p, int page) {
  ts_tag *t = ts_pdf_tag_state(p);
  if (!t || !t->open)
    return;
  HPDF_Page pg = ts_pdf_hpdf_draw_page(p, page);
  if (pg)
    put_ops(pg, "EMC\n", 4);
  t->open = false;
}

void ts_pdf_link_tag(ts_pdf *p, uint32_t sid, uint32_t ord) {
  ts_tag *t = ts_pdf_tag_state(p);
  size_t n = ts_pdf_link_count(p);
  if (!t || !n)
    return;
  if (n > t->nlinks) {
    t->links = oc_arena_grow_array(t->a, t->links, t->nlinks, &t->clinks, n,
                                   sizeof *t->links);
    memset(t->links + t->nlinks, 0, (n - t->nlinks) * sizeof *t->links);
    t->nlinks = n;
  }
  t->links[n - 1] = (tag_link){sid, ord};
}

void ts_pdf_tag_elements(ts_pdf *p, const ts_tag_elem *elems, size_t n) {
  ts_tag *t = ts_pdf_tag_state(p);
  if (!t)
    return;
  t->elems = elems;
  t->nelems = n;
}

long ts_tag_annot(ts_tag *t, HPDF_Annotation a, int page, size_t link) {
  if (link >= t->nlinks || !t->links[link].sid ||
      t->links[link].sid >= t->nelems)
    return -1;
  t->annots = oc_arena_grow_array(t->a, t->annots, t->nannots, &t->cannots,
                                  t->nannots + 1, sizeof *t->annots);
  t->annots[t->nannots++] =
      (tag_annot){a, page, t->links[link].sid, t->links[link].ord};
  return (long)(t->nannots - 1);
}

/* ---- the tree ---------------------------------------------------------- */

/* One kid of an element (or of the root, parent 0): an element, a
 * marked-content reference or an annotation, sorted into document order
 * by (parent, ord, kind, seq). */
typedef struct tag_kid {
  uint32_t parent, ord;
  uint32_t kind; /* 0 element, 1 marked content, 2 annotation */
  uint32_t seq;  /* the element's sid, the record's index */
} tag_kid;

static int kid_cmp(const void *x, const void *y) {
  const tag_kid *a = x, *b = y;
  if (a->parent != b->parent)
    return a->parent < b->parent ? -1 : 1;
  if (a->ord != b->ord)
    return a->ord < b->ord ? -1 : 1;
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Marks sid and its ancestors as holding content. */
static void mark_used(const ts_tag *t, uint8_t *used, uint32_t sid) {
  while (sid && sid < t->nelems && !used[sid]) {
    used[sid] = 1;
    sid = t->elems[sid].parent;
  }
}

/* The tree is written by hand into empty dictionaries of libharu's
 * (their write hook, called after their entries): a book has tens of
 * thousands of elements and marked-content references, and libharu's
 * objects for each entry (a name takes 128 bytes, a number a
 * malloc) cost a quarter of the time a book took to make. */
typedef struct tag_tree {
  ts_tag *t;
  tag_kid *kids; /* sorted: each parent's are contiguous */
  size_t nk;
  size_t *first; /* by sid: its kids are kids[first[sid] .. first[sid+1]) */
  HPDF_Dict *dicts;
  int32_t *pg; /* by sid: the page its /Pg names, -1 none */
  HPDF_Dict root;
  size_t npages;
} tag_tree;

typedef struct tag_node {
  tag_tree *tr;
  uint32_t sid; /* 0: the root */
} tag_node;

static HPDF_STATUS put_fmt(HPDF_Stream s, const char *fmt, unsigned a,
                           unsigned b) {
  char buf[64];
  int n = snprintf(buf, sizeof buf, fmt, a, b);
  return HPDF_Stream_Write(s, (const HPDF_BYTE *)buf, (HPDF_UINT)n);
}

static HPDF_STATUS put_ref(HPDF_Stream s, const void *obj) {
  return put_fmt(s, "%u 0 R ", ts_hpdf_obj_id(obj), 0);
}

static HPDF_STATUS put_text(tag_tree *tr, HPDF_Stream s, const char *key,
                            const char *text) {
  HPDF_Binary b = ts_pdf_text_string(tr->t->pdf, text);
  if (!b)
    return HPDF_FAILD_TO_ALLOC_MEM;
  HPDF_Stream_WriteStr(s, key);
  HPDF_STATUS ret = HPDF_Binary_Write(b, s, NULL);
  HPDF_Binary_Free(b);
  HPDF_Stream_WriteStr(s, "\n");
  return ret;
}

static HPDF_Page page_of(tag_tree *tr, uint32_t page) {
  return ts_pdf_hpdf_page(tr->t->pdf, (int)page);
}

/* /K: the kids of sid (0: the root's) in document order. */
static HPDF_STATUS put_kids(tag_tree *tr, HPDF_Stream s, uint32_t sid) {
  HPDF_Stream_WriteStr(s, "/K [ ");
  for (size_t i = tr->first[sid]; i < tr->first[sid + 1]; i++) {
    const tag_kid *k = &tr->kids[i];
    if (k->kind == 0) {
      put_ref(s, tr->dicts[k->seq]);
    } else if (k->kind == 1) {
      const tag_mcr *m = &tr->t->mcrs[k->seq];
      if (tr->pg[sid] == (int32_t)m->page) {
        put_fmt(s, "%u ", m->mcid, 0);
      } else {
        put_fmt(s, "<< /Type /MCR /Pg %u 0 R /MCID %u >> ",
                ts_hpdf_obj_id(page_of(tr, m->page)), m->mcid);
      }
    } else {
      const tag_annot *an = &tr->t->annots[k->seq];
      put_fmt(s, "<< /Type /OBJR /Pg %u 0 R /Obj %u 0 R >> ",
              ts_hpdf_obj_id(page_of(tr, (uint32_t)an->page)),
              ts_hpdf_obj_id(an->annot));
    }
  }
  return HPDF_Stream_WriteStr(s, "]\n");
}

static HPDF_STATUS write_elem(HPDF_Dict d, HPDF_Stream s) {
  const tag_node *n = d->attr;
  tag_tree *tr = n->tr;
  const ts_tag_elem *e = &tr->t->elems[n->sid];
  HPDF_Stream_WriteStr(s, "/S /");
  HPDF_Stream_WriteStr(s, e->type);
  HPDF_Stream_WriteStr(s, "\n/P ");
  put_ref(s, e->parent ? tr->dicts[e->parent] : tr->root);
  HPDF_Stream_WriteStr(s, "\n");
  if (tr->pg[n->sid] >= 0)
    put_fmt(s, "/Pg %u 0 R\n",
            ts_hpdf_obj_id(page_of(tr, (uint32_t)tr->pg[n->sid])), 0);
  if (e->alt)
    put_text(tr, s, "/Alt ", e->alt);
  if (e->lang)
    put_text(tr, s, "/Lang ", e->lang);
  if (e->scope) {
    HPDF_Stream_WriteStr(s, "/A << /O /Table /Scope /");
    HPDF_Stream_WriteStr(s, e->scope);
    HPDF_Stream_WriteStr(s, " >>\n");
  }
  /* PDF/UA: a Note has an /ID, unique in the document */
  if (!strcmp(e->type, "Note"))
    put_fmt(s, "/ID (note-%u)\n", n->sid, 0);
  return put_kids(tr, s, n->sid);
}

/* The root's kids and the parent tree: page i's MCIDs under key i (the
 * records are in page order, each page's in MCID order), each link
 * annotation under a key of its own after the pages'. */
static HPDF_STATUS write_root(HPDF_Dict d, HPDF_Stream s) {
  const tag_node *n = d->attr;
  tag_tree *tr = n->tr;
  const ts_tag *t = tr->t;
  put_kids(tr, s, 0);
  HPDF_Stream_WriteStr(s, "/ParentTree << /Nums [\n");
  size_t m = 0;
  for (size_t i = 0; i < tr->npages; i++) {
    put_fmt(s, "%u [ ", (unsigned)i, 0);
    for (; m < t->nmcrs && t->mcrs[m].page == i; m++)
      put_ref(s, tr->dicts[t->mcrs[m].sid]);
    HPDF_Stream_WriteStr(s, "]\n");
  }
  for (size_t i = 0; i < t->nannots; i++) {
    put_fmt(s, "%u ", (unsigned)(tr->npages + i), 0);
    put_ref(s, tr->dicts[t->annots[i].sid]);
  }
  HPDF_Stream_WriteStr(s, "] >>\n");
  return put_fmt(s, "/ParentTreeNextKey %u\n",
                 (unsigned)(tr->npages + t->nannots), 0);
}

static HPDF_Dict new_hooked(HPDF_Doc doc, tag_tree *tr, uint32_t sid,
                            HPDF_Dict_OnWriteFunc fn) {
  ts_hpdf_list_doubling(doc->xref->entries);
  HPDF_Dict d = HPDF_Dict_New(doc->mmgr);
  if (!d || HPDF_Xref_Add(doc->xref, d) != HPDF_OK)
    return NULL;
  tag_node *n = oc_arena_alloc(tr->t->a, sizeof *n);
  *n = (tag_node){tr, sid};
  d->attr = n; /* ours: libharu frees no dictionary's attr */
  d->write_fn = fn;
  return d;
}

void ts_tag_finish(ts_tag *t) {
  ts_pdf *p = t->pdf;
  HPDF_Doc doc = ts_pdf_hpdf(p);
  HPDF_MMgr mm = doc->mmgr;
  size_t npages = ts_pdf_page_count(p);
  if (ts_pdf_has_failed(p) || !t->elems || t->nelems < 2)
    return;
  for (size_t i = 0; i < t->nmcrs; i++)
    if (t->mcrs[i].sid >= t->nelems || t->mcrs[i].page >= npages ||
        (i && t->mcrs[i].page < t->mcrs[i - 1].page))
      return; /* cannot happen: the engine's elements, pages in order */
  uint8_t *used = oc_arena_calloc(t->a, t->nelems, 1);
  for (size_t i = 0; i < t->nmcrs; i++)
    mark_used(t, used, t->mcrs[i].sid);
  for (size_t i = 0; i < t->nannots; i++)
    mark_used(t, used, t->annots[i].sid);
  size_t nk = t->nmcrs + t->nannots;
  for (size_t i = 1; i < t->nelems; i++)
    nk += used[i];
  tag_tree *tr = oc_arena_calloc(t->a, 1, sizeof *tr);
  tr->t = t;
  tr->npages = npages;
  tr->kids = oc_arena_alloc(t->a, oc_size_mul(nk ? nk : 1, sizeof *tr->kids));
  size_t k = 0;
  for (uint32_t i = 1; i < t->nelems; i++)
    if (used[i])
      tr->kids[k++] = (tag_kid){t->elems[i].parent, t->elems[i].ord, 0, i};
  for (size_t i = 0; i < t->nmcrs; i++)
    tr->kids[k++] = (tag_kid){t->mcrs[i].sid, t->mcrs[i].ord, 1, (uint32_t)i};
  for (size_t i = 0; i < t->nannots; i++)
    tr->kids[k++] =
        (tag_kid){t->annots[i].sid, t->annots[i].ord, 2, (uint32_t)i};
  tr->nk = nk;
  qsort(tr->kids, nk, sizeof *tr->kids, kid_cmp);
  /* each element's range of kids (counted, then summed), and its /Pg:
     its first MCR's page */
  tr->first = oc_arena_calloc(t->a, t->nelems + 1, sizeof *tr->first);
  tr->pg = oc_arena_alloc(t->a, t->nelems * sizeof *tr->pg);
  for (size_t i = 0; i < nk; i++)
    tr->first[tr->kids[i].parent + 1]++;
  for (size_t i = 1; i <= t->nelems; i++)
    tr->first[i] += tr->first[i - 1];
  for (size_t i = 0; i < t->nelems; i++)
    tr->pg[i] = -1;
  for (size_t i = 0; i < nk; i++) {
    const tag_kid *kd = &tr->kids[i];
    if (kd->kind == 1 && tr->pg[kd->parent] < 0)
      tr->pg[kd->parent] = (int32_t)t->mcrs[kd->seq].page;
  }

  tr->dicts = oc_arena_calloc(t->a, t->nelems, sizeof *tr->dicts);
  tr->root = new_hooked(doc, tr, 0, write_root);
  if (!tr->root)
    return;
  HPDF_Dict_AddName(tr->root, "Type", "StructTreeRoot");
  for (uint32_t i = 1; i < t->nelems; i++)
    if (used[i] && !(tr->dicts[i] = new_hooked(doc, tr, i, write_elem)))
      return;
  for (size_t i = 0; i < npages; i++) {
    HPDF_Page pg = ts_pdf_hpdf_page(p, (int)i);
    HPDF_Dict_AddNumber(pg, "StructParents", (HPDF_INT32)i);
    HPDF_Dict_AddName(pg, "Tabs", "S");
  }
  HPDF_Page cover = ts_pdf_hpdf_cover(p);
  if (cover)
    HPDF_Dict_AddName(cover, "Tabs", "S");

  HPDF_Dict mark = HPDF_Dict_New(mm);
  HPDF_Dict prefs = HPDF_Dict_New(mm);
  if (!mark || !prefs)
    return;
  HPDF_Dict_Add(mark, "Marked", HPDF_Boolean_New(mm, HPDF_TRUE));
  HPDF_Dict_Add(doc->catalog, "MarkInfo", mark);
  HPDF_Dict_Add(prefs, "DisplayDocTitle", HPDF_Boolean_New(mm, HPDF_TRUE));
  HPDF_Dict_Add(doc->catalog, "ViewerPreferences", prefs);
  HPDF_Dict_Add(doc->catalog, "StructTreeRoot", tr->root);
}
