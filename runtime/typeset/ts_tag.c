/* Tagged PDF through libharu's object API (see ts_tag.h): marked-content
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
  /* artifacts in a row are one sequence; content is one per call: poppler
     (pdfinfo -struct-text) read only part of a paragraph's lines when they
     were one sequence */
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

void ts_tag_annot(ts_tag *t, HPDF_Annotation a, int page, size_t link) {
  if (link >= t->nlinks || !t->links[link].sid ||
      t->links[link].sid >= t->nelems)
    return;
  t->annots = oc_arena_grow_array(t->a, t->annots, t->nannots, &t->cannots,
                                  t->nannots + 1, sizeof *t->annots);
  t->annots[t->nannots++] =
      (tag_annot){a, page, t->links[link].sid, t->links[link].ord};
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

static HPDF_Dict new_indirect(HPDF_Doc doc) {
  HPDF_Dict d = HPDF_Dict_New(doc->mmgr);
  if (d && HPDF_Xref_Add(doc->xref, d) != HPDF_OK)
    return NULL;
  return d;
}

/* The element's dictionary (its kids added later). */
static HPDF_Dict make_elem(ts_tag *t, HPDF_Doc doc, uint32_t sid) {
  const ts_tag_elem *e = &t->elems[sid];
  HPDF_Dict d = new_indirect(doc);
  if (!d)
    return NULL;
  HPDF_Dict_AddName(d, "Type", "StructElem");
  HPDF_Dict_AddName(d, "S", e->type);
  if (e->alt)
    HPDF_Dict_Add(d, "Alt", ts_pdf_text_string(t->pdf, e->alt));
  if (e->lang)
    HPDF_Dict_Add(d, "Lang", ts_pdf_text_string(t->pdf, e->lang));
  if (!strcmp(e->type, "Note")) {
    /* PDF/UA: a Note has an /ID, unique in the document */
    char id[24];
    snprintf(id, sizeof id, "note-%u", (unsigned)sid);
    HPDF_Dict_Add(d, "ID", HPDF_String_New(doc->mmgr, id, NULL));
  }
  if (e->scope) {
    HPDF_Dict attr = HPDF_Dict_New(doc->mmgr);
    if (attr) {
      HPDF_Dict_AddName(attr, "O", "Table");
      HPDF_Dict_AddName(attr, "Scope", e->scope);
      HPDF_Dict_Add(d, "A", attr);
    }
  }
  return d;
}

/* The kids array of d, made on first use. */
static HPDF_Array kids_of(HPDF_Doc doc, HPDF_Dict d) {
  HPDF_Array k = HPDF_Dict_GetItem(d, "K", HPDF_OCLASS_ARRAY);
  if (!k) {
    k = HPDF_Array_New(doc->mmgr);
    if (k)
      HPDF_Dict_Add(d, "K", k);
  }
  return k;
}

void ts_tag_finish(ts_tag *t) {
  ts_pdf *p = t->pdf;
  HPDF_Doc doc = ts_pdf_hpdf(p);
  HPDF_MMgr mm = doc->mmgr;
  size_t npages = ts_pdf_page_count(p);
  if (ts_pdf_has_failed(p) || !t->elems || t->nelems < 2)
    return;
  uint8_t *used = oc_arena_calloc(t->a, t->nelems, 1);
  for (size_t i = 0; i < t->nmcrs; i++)
    mark_used(t, used, t->mcrs[i].sid);
  for (size_t i = 0; i < t->nannots; i++)
    mark_used(t, used, t->annots[i].sid);
  size_t nk = 0;
  for (size_t i = 1; i < t->nelems; i++)
    nk += used[i];
  nk += t->nmcrs + t->nannots;
  tag_kid *kids = oc_malloc(oc_size_mul(nk ? nk : 1, sizeof *kids));
  size_t k = 0;
  for (uint32_t i = 1; i < t->nelems; i++)
    if (used[i])
      kids[k++] = (tag_kid){t->elems[i].parent, t->elems[i].ord, 0, i};
  for (size_t i = 0; i < t->nmcrs; i++)
    if (t->mcrs[i].sid < t->nelems)
      kids[k++] = (tag_kid){t->mcrs[i].sid, t->mcrs[i].ord, 1, (uint32_t)i};
  for (size_t i = 0; i < t->nannots; i++)
    kids[k++] = (tag_kid){t->annots[i].sid, t->annots[i].ord, 2, (uint32_t)i};
  nk = k;
  qsort(kids, nk, sizeof *kids, kid_cmp);

  HPDF_Dict root = new_indirect(doc);
  HPDF_Dict *dicts = oc_arena_calloc(t->a, t->nelems, sizeof *dicts);
  /* the page each element's /Pg names: its kids there are bare MCIDs */
  int32_t *pg_of = oc_arena_alloc(t->a, t->nelems * sizeof *pg_of);
  for (size_t i = 0; i < t->nelems; i++)
    pg_of[i] = -1;
  if (!root)
    goto done;
  HPDF_Dict_AddName(root, "Type", "StructTreeRoot");
  for (uint32_t i = 1; i < t->nelems; i++)
    if (used[i] && !(dicts[i] = make_elem(t, doc, i)))
      goto done;
  for (size_t i = 0; i < nk && !ts_pdf_has_failed(p); i++) {
    const tag_kid *kd = &kids[i];
    HPDF_Dict parent = kd->parent ? dicts[kd->parent] : root;
    HPDF_Array arr = kids_of(doc, parent);
    if (!arr)
      goto done;
    if (kd->kind == 0) {
      HPDF_Array_Add(arr, dicts[kd->seq]);
      HPDF_Dict_Add(dicts[kd->seq], "P", parent);
    } else if (kd->kind == 1) {
      const tag_mcr *m = &t->mcrs[kd->seq];
      HPDF_Page pg = ts_pdf_hpdf_page(p, (int)m->page);
      if (pg_of[kd->parent] < 0) {
        pg_of[kd->parent] = (int32_t)m->page;
        HPDF_Dict_Add(parent, "Pg", pg);
      }
      if (pg_of[kd->parent] == (int32_t)m->page) {
        HPDF_Array_AddNumber(arr, (HPDF_INT32)m->mcid);
      } else {
        HPDF_Dict mcr = HPDF_Dict_New(mm);
        if (!mcr)
          goto done;
        HPDF_Dict_AddName(mcr, "Type", "MCR");
        HPDF_Dict_Add(mcr, "Pg", pg);
        HPDF_Dict_AddNumber(mcr, "MCID", (HPDF_INT32)m->mcid);
        HPDF_Array_Add(arr, mcr);
      }
    } else {
      const tag_annot *an = &t->annots[kd->seq];
      HPDF_Dict objr = HPDF_Dict_New(mm);
      if (!objr)
        goto done;
      HPDF_Dict_AddName(objr, "Type", "OBJR");
      HPDF_Dict_Add(objr, "Pg", ts_pdf_hpdf_page(p, an->page));
      HPDF_Dict_Add(objr, "Obj", an->annot);
      HPDF_Array_Add(arr, objr);
    }
  }

  /* The parent tree: page i's MCIDs under key i, each annotation under a
   * key of its own after the pages'. One node: /Nums in key order. */
  HPDF_Array nums = HPDF_Array_New(mm);
  HPDF_Dict ptree = HPDF_Dict_New(mm);
  HPDF_Array *by_page = oc_arena_calloc(t->a, npages ? npages : 1,
                                        sizeof *by_page);
  if (!nums || !ptree)
    goto done;
  for (size_t i = 0; i < npages; i++) {
    by_page[i] = HPDF_Array_New(mm);
    if (!by_page[i])
      goto done;
  }
  for (size_t i = 0; i < t->nmcrs; i++) {
    const tag_mcr *m = &t->mcrs[i];
    if (m->page < npages && m->sid < t->nelems)
      HPDF_Array_Add(by_page[m->page], dicts[m->sid]);
  }
  for (size_t i = 0; i < npages; i++) {
    HPDF_Page pg = ts_pdf_hpdf_page(p, (int)i);
    HPDF_Dict_AddNumber(pg, "StructParents", (HPDF_INT32)i);
    HPDF_Dict_AddName(pg, "Tabs", "S");
    HPDF_Array_AddNumber(nums, (HPDF_INT32)i);
    HPDF_Array_Add(nums, by_page[i]);
  }
  for (size_t i = 0; i < t->nannots; i++) {
    HPDF_INT32 key = (HPDF_INT32)(npages + i);
    HPDF_Dict_AddNumber(t->annots[i].annot, "StructParent", key);
    HPDF_Array_AddNumber(nums, key);
    HPDF_Array_Add(nums, dicts[t->annots[i].sid]);
  }
  HPDF_Dict_Add(ptree, "Nums", nums);
  HPDF_Dict_Add(root, "ParentTree", ptree);
  HPDF_Dict_AddNumber(root, "ParentTreeNextKey",
                      (HPDF_INT32)(npages + t->nannots));
  HPDF_Page cover = ts_pdf_hpdf_cover(p);
  if (cover)
    HPDF_Dict_AddName(cover, "Tabs", "S");

  HPDF_Dict mark = HPDF_Dict_New(mm);
  HPDF_Dict prefs = HPDF_Dict_New(mm);
  if (!mark || !prefs)
    goto done;
  HPDF_Dict_Add(mark, "Marked", HPDF_Boolean_New(mm, HPDF_TRUE));
  HPDF_Dict_Add(doc->catalog, "MarkInfo", mark);
  HPDF_Dict_Add(prefs, "DisplayDocTitle", HPDF_Boolean_New(mm, HPDF_TRUE));
  HPDF_Dict_Add(doc->catalog, "ViewerPreferences", prefs);
  HPDF_Dict_Add(doc->catalog, "StructTreeRoot", root);
done:
  free(kids);
}
