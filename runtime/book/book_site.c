/* What the writers share: see book_site.h. */
#include "book_site.h"

#include <libxml/xmlerror.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "oc_file.h"
#include "oc_path.h"

tpl_value bk_vars1(bk_edition *e, const char *k, tpl_value v) {
  tpl_map *m = tpl_map_new(e->a, 4);
  tpl_map_set_str(e->a, m, k, v);
  return tpl_map_value(m);
}

/* ---- sinks ----------------------------------------------------------- */

typedef struct folder_sink {
  bk_edition *e;
  bk_out *o;
} folder_sink;

static int folder_put(void *user, const char *rel, const char *data,
                      size_t len) {
  folder_sink *f = user;
  return bk_out_write(f->e, f->o, rel, data, len);
}

bk_sink bk_folder_sink(bk_edition *e, bk_out *o) {
  folder_sink *f = oc_arena_alloc(e->a, sizeof *f);
  f->e = e;
  f->o = o;
  return (bk_sink){folder_put, f};
}

/* ---- shared: styles and images -------------------------------------- */

static int put_file(bk_edition *e, bk_sink *s, const char *rel,
                    const char *path) {
  size_t len;
  char *data = oc_read_file(path, &len);
  if (!data) {
    oc_report(e->rep, OC_ERROR, rel, 0, 0, "cannot read %s", path);
    return -1;
  }
  int rc = s->put(s->user, rel, data, len);
  free(data);
  return rc;
}

int bk_put_styles(bk_edition *e, bk_sink *s, const char *prefix) {
  if (e->ed->include_styles) {
    size_t len;
    const char *css = bk_render(e, "style.css.twig", tpl_null(), &len);
    if (!css ||
        s->put(s->user, oc_arena_printf(e->a, "%scss/easybook.css", prefix),
               css, len) != 0)
      return -1;
  }
  if (e->custom_css &&
      put_file(e, s, oc_arena_printf(e->a, "%scss/styles.css", prefix),
               e->custom_css) != 0)
    return -1;
  return 0;
}

int bk_put_images(bk_edition *e, bk_sink *s, const char *prefix,
                  bk_image_fn each, void *user) {
  const char *base = e->ed->images_base_dir;
  bool plain_base =
      !strstr(base, "..") && base[0] != '/' && !strstr(base, "://");
  tpl_map *done = tpl_map_new(e->a, 16);
  int rc = 0;
  for (size_t i = 0; i < e->nitems; i++) {
    bk_item *it = &e->items[i];
    const char *file = it->file ? it->file : "config.yml";
    for (size_t k = 0; k < it->md.nimages; k++) {
      const bk_md_ref *im = &it->md.images[k];
      /* target is the path as written; its output place is where the
       * <img> points after images_base_dir replaced a leading images/. */
      const char *written = im->target, *dest = written;
      if (plain_base && !strncmp(written, "images/", 7))
        dest = oc_arena_printf(e->a, "%s%s", base, written + 7);
      if (tpl_map_get_str(done, dest, strlen(dest), NULL))
        continue;
      tpl_map_set_str(e->a, done, dest, tpl_bool(true));
      bool missing = false;
      const char *abs = bk_book_path(e, "Contents", written, file, im->line,
                                     im->col, &missing);
      if (!abs) {
        if (missing)
          oc_report(e->rep, OC_WARNING, file, im->line, im->col,
                    "image 'Contents/%s' not found", written);
        else
          rc = -1;
        continue;
      }
      /* Its place in the output, as a browser resolves it: inside the
       * edition's folder, made of plain names (oc_path.h). */
      char *norm = oc_arena_strndup(e->a, dest, strlen(dest));
      const char *why = oc_path_normalize(norm)
                            ? oc_relpath_problem(norm, strlen(norm))
                            : "leaves the edition's folder";
      if (why) {
        oc_report(e->rep, OC_ERROR, file, im->line, im->col,
                  "image '%s': its place in the output, '%s', %s", written,
                  dest, why);
        rc = -1;
        continue;
      }
      if (strcmp(norm, dest) && tpl_map_get_str(done, norm, strlen(norm), NULL))
        continue; /* images/./x.png is images/x.png */
      tpl_map_set_str(e->a, done, norm, tpl_bool(true));
      dest = norm;
      size_t len;
      char *data = oc_read_file(abs, &len);
      if (!data) {
        oc_report(e->rep, OC_ERROR, file, im->line, im->col,
                  "cannot read image 'Contents/%s'", written);
        rc = -1;
        continue;
      }
      if ((each && each(user, it, im, dest, data, len) != 0) ||
          s->put(s->user, oc_arena_printf(e->a, "%s%s", prefix, dest), data,
                 len) != 0)
        rc = -1;
      free(data);
    }
  }
  return rc;
}

/* ---- html_chunked ---------------------------------------------------- */

static page *add_page(site *s) {
  s->pages = oc_arena_grow_array(s->e->a, s->pages, s->npages, &s->cap,
                                 s->npages + 1, sizeof *s->pages);
  page *p = &s->pages[s->npages++];
  memset(p, 0, sizeof *p);
  return p;
}

/* Records every id="…" in html as living on page pi. */
static void map_ids(site *s, const char *html, size_t pi) {
  const char *p = html;
  while ((p = strstr(p, " id=\""))) {
    p += 5;
    const char *q = strchr(p, '"');
    if (!q)
      break;
    const char *id = oc_arena_strndup(s->e->a, p, (size_t)(q - p));
    if (!tpl_map_get_str(s->id_page, id, strlen(id), NULL))
      tpl_map_set_str(s->e->a, s->id_page, id, tpl_int((int64_t)pi));
    p = q;
  }
}

/* The page file an id lives on, NULL when unknown. */
const char *bk_site_page_of(site *s, const char *id, size_t len) {
  tpl_value v;
  if (!tpl_map_get_str(s->id_page, id, len, &v))
    return NULL;
  return s->pages[v.u.i].file;
}

/* Rewrites href="#id" to the page holding id, relative to page `at`. */
const char *bk_site_fix_links(site *s, const char *html, const page *at) {
  oc_sb b;
  oc_sb_init(&b, NULL, 4096);
  const char *p = html, *q;
  while ((q = strstr(p, "href=\"#"))) {
    q += 6; /* at '#' */
    oc_sb_add(&b, p, (size_t)(q - p));
    const char *end = strchr(q, '"');
    if (!end) {
      p = q;
      break;
    }
    const char *file = bk_site_page_of(s, q + 1, (size_t)(end - q - 1));
    if (file && strcmp(file, at->file)) {
      oc_sb_adds(&b, at->root);
      oc_sb_adds(&b, file);
    }
    oc_sb_add(&b, q, (size_t)(end - q));
    p = end;
  }
  oc_sb_adds(&b, p);
  const char *r = oc_arena_strndup(s->e->a, b.p, b.len);
  oc_sb_free(&b);
  return r;
}

/* Prefixes root to the relative src="…" of pages in a subfolder. */
static const char *fix_srcs(bk_edition *e, const char *html, const char *root) {
  if (!root[0])
    return html;
  oc_sb b;
  oc_sb_init(&b, NULL, 4096);
  const char *p = html, *q;
  while ((q = strstr(p, "src=\""))) {
    q += 5;
    oc_sb_add(&b, p, (size_t)(q - p));
    bool relative = strncmp(q, "http:", 5) && strncmp(q, "https:", 6) &&
                    strncmp(q, "data:", 5) && q[0] != '/' && q[0] != '#';
    if (relative)
      oc_sb_adds(&b, root);
    p = q;
  }
  oc_sb_adds(&b, p);
  const char *r = oc_arena_strndup(e->a, b.p, b.len);
  oc_sb_free(&b);
  return r;
}

static bool skip_in_site(const site *s, const char *el) {
  return !strcmp(el, "cover") || (!s->keep_toc && !strcmp(el, "toc"));
}

/* Splits an item's HTML at its <h2 …> headings (chunk_level 2). Returns the
 * number of parts; starts[k] is where part k begins (part 0: before the
 * first h2). */
static size_t split_h2(const char *html, const char ***starts, oc_arena *a) {
  size_t n = 1;
  for (const char *p = html; (p = strstr(p, "<h2 ")); p++)
    n++;
  const char **st = oc_arena_alloc(a, n * sizeof *st);
  st[0] = html;
  size_t k = 1;
  for (const char *p = html; (p = strstr(p, "<h2 ")); p++)
    st[k++] = p;
  *starts = st;
  return n;
}

static const char *attr_value(oc_arena *a, const char *tag, const char *name) {
  char pat[32];
  snprintf(pat, sizeof pat, " %s=\"", name);
  const char *end = strchr(tag, '>');
  const char *p = strstr(tag, pat);
  if (!p || (end && p > end))
    return NULL;
  p += strlen(pat);
  const char *q = strchr(p, '"');
  return q ? oc_arena_strndup(a, p, (size_t)(q - p)) : NULL;
}

/* The file name of a section's page (without its extension): its id
 * when that is a safe file name (oc_path.h), else the slug of its
 * heading's text (a raw <h2 id="../../x"> must not name a path), else
 * section-K; unique among the item's sections. */
static const char *section_file(bk_edition *e, bk_idset *taken, const char *h2,
                                const char *sid, size_t k) {
  const char *base = sid;
  if (!oc_safe_name(sid, strlen(sid)) || strlen(sid) > 100) {
    const char *text = strchr(h2, '>');
    const char *end = text ? strstr(text, "</h2>") : NULL;
    base = end ? bk_slug(e->slugger, e->a, text + 1, (size_t)(end - text - 1))
               : "";
    if (strlen(base) > 100)
      base = oc_arena_strndup(e->a, base, 100);
    if (!oc_safe_name(base, strlen(base)))
      base = oc_arena_printf(e->a, "section-%zu", k);
  }
  return bk_idset_unique(taken, base);
}

int bk_site_plan(site *s, int level) {
  bk_edition *e = s->e;
  bk_idset *names = bk_idset_new(e->a);
  bk_idset_add(names, "index");

  for (size_t i = 0; i < e->nitems; i++) {
    bk_item *it = &e->items[i];
    if (skip_in_site(s, it->element))
      continue;
    const char *basis = it->label[0] ? it->label : it->title;
    const char *slug =
        basis[0] ? bk_slug(e->slugger, e->a, basis, strlen(basis)) : "";
    /* A slug is a safe file name by construction (oc_path.h); anything
     * else falls back to the element's name. */
    if (!oc_safe_name(slug, strlen(slug)) || strlen(slug) > 100)
      slug = "";
    const char *name = bk_idset_unique(names, slug[0] ? slug : it->element);
    it->page_name = name;
    bk_set(e, it->record, "page_name", bk_s(e, name));
    bk_set(e, it->record, "url",
           bk_s(e, oc_arena_printf(e->a, "%s%s", name, s->ext)));
    const char **starts;
    size_t parts = level == 2 ? split_h2(it->content, &starts, e->a) : 1;
    if (parts == 1)
      starts = NULL;
    /* With nothing between the title and the first h2, that first section
     * stays on the item's page (as Easybook did). */
    size_t first = 1;
    if (parts > 1) {
      const char *p = it->content;
      while (p < starts[1] && (*p == ' ' || *p == '\n'))
        p++;
      if (p == starts[1])
        first = 2;
    }
    bk_idset *sections = bk_idset_new(e->a);
    size_t pi = s->npages;
    page *pg = add_page(s);
    pg->file = oc_arena_printf(e->a, "%s%s", name, s->ext);
    pg->root = "";
    pg->item = it;
    pg->record = it->record;
    pg->content = parts > first
                      ? oc_arena_strndup(e->a, it->content,
                                         (size_t)(starts[first] - it->content))
                      : it->content;
    pg->title = it->title;
    pg->label = it->label;
    pg->slug = it->slug;
    pg->level = 1;
    tpl_map_set_str(e->a, s->id_page, it->slug, tpl_int((int64_t)pi));
    map_ids(s, pg->content, pi);
    for (size_t k = first; k < parts; k++) {
      const char *from = starts[k];
      const char *to = k + 1 < parts ? starts[k + 1] : from + strlen(from);
      const char *id = attr_value(e->a, from, "id");
      const char *sid = id ? id : oc_arena_printf(e->a, "section-%zu", k);
      size_t si = s->npages;
      page *sp = add_page(s);
      sp->file =
          oc_arena_printf(e->a, "%s/%s%s", name,
                          section_file(e, sections, from, sid, k), s->ext);
      sp->root = "../";
      sp->item = it;
      /* The page's template prints the section's heading itself. */
      const char *body = strstr(from, "</h2>");
      body = body && body < to ? body + 5 : from;
      sp->content =
          fix_srcs(e, oc_arena_strndup(e->a, body, (size_t)(to - body)), "../");
      sp->slug = sid;
      sp->level = 2;
      for (size_t h = 0; h < it->md.nheadings; h++)
        if (!strcmp(it->md.headings[h].id, sid)) {
          sp->title = it->md.headings[h].title;
          sp->label = it->md.headings[h].label;
        }
      if (!sp->title)
        sp->title = sid, sp->label = "";
      if (id)
        tpl_map_set_str(e->a, s->id_page, id, tpl_int((int64_t)si));
      map_ids(s, sp->content, si);
    }
  }
  return 0;
}

/* The flattened TOC with page URLs, and each item's own TOC re-pointed. */
void bk_site_toc(site *s) {
  bk_edition *e = s->e;
  int deep = e->ed->toc_deep;
  tpl_list *flat = tpl_list_new(e->a, 0);
  size_t n = 0, cap = 0, ecap = 0;
  tpl_value *v = NULL;
  for (size_t i = 0; i < e->nitems; i++) {
    bk_item *it = &e->items[i];
    if (!it->page_name)
      continue;
    bool listed = bk_strings_has(&e->ed->toc_elements, it->element);
    tpl_list *own = tpl_list_new(e->a, it->nheadings);
    tpl_value parent = tpl_null();
    for (size_t k = 0; k < it->nheadings; k++) {
      const bk_heading *h = &it->headings[k];
      tpl_map *m = bk_heading_map(e, h);
      int level = h->level;
      const char *id = h->slug;
      tpl_value at;
      const char *file = oc_arena_printf(e->a, "%s%s", it->page_name, s->ext);
      bool page_start = level == 1;
      if (tpl_map_get_str(s->id_page, id, strlen(id), &at)) {
        const page *pg = &s->pages[at.u.i];
        file = pg->file;
        page_start = page_start || !strcmp(pg->slug, id);
      }
      const char *url =
          page_start ? file : oc_arena_printf(e->a, "%s#%s", file, id);
      bk_set(e, m, "url", bk_s(e, url));
      if (level == 1) {
        bk_set(e, m, "config", it->config);
        parent = tpl_map_value(m);
        bk_set(e, m, "parent", tpl_null());
      } else {
        bk_set(e, m, "parent", parent);
      }
      own->items[k] = tpl_map_value(m);
      if (listed && level <= deep) {
        v = oc_arena_grow_array(e->a, v, n, &cap, n + 1, sizeof *v);
        s->entries = oc_arena_grow_array(e->a, s->entries, n, &ecap, n + 1,
                                         sizeof *s->entries);
        s->entries[n] = (bk_toc_entry){*h, url};
        v[n++] = tpl_map_value(m);
      }
    }
    it->toc = own;
    bk_set(e, it->record, "toc", tpl_list_value(own));
  }
  flat->len = n;
  flat->items = v;
  s->nentries = n;
  s->toc = tpl_list_value(flat);
}

/* A whole page (a document that starts with an XML declaration, a doctype
 * or <html>) or a fragment? */
static bool whole_page(const char *s) {
  while (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r')
    s++;
  return !strncmp(s, "<?xml", 5) || !strncasecmp(s, "<!doctype", 9) ||
         !strncmp(s, "<html", 5);
}

const char *bk_site_render_page(bk_edition *e, page *pg, tpl_map *vars,
                                size_t *len) {
  const char *tpl = oc_arena_printf(e->a, "%s.twig", pg->item->element);
  if (!bk_has_template(e, tpl))
    return bk_render(e, "chunk.twig", tpl_map_value(vars), len);
  const char *out = bk_render(e, tpl, tpl_map_value(vars), len);
  if (!out || whole_page(out))
    return out;
  /* An element template written for the one-page edition (a book's own
   * `recipe.twig` in Resources/Templates/) gives the item's body: the
   * page around it is chunk.twig's. */
  tpl_value item = bk_get(tpl_map_value(vars), "item");
  tpl_map *r = tpl_map_new(e->a, 12);
  if (item.type == TPL_MAP)
    for (size_t j = 0; j < item.u.map->len; j++)
      tpl_map_set(e->a, r, item.u.map->entries[j].key,
                  item.u.map->entries[j].val);
  bk_set(e, r, "content", bk_html(e, out));
  bk_set(e, r, "decorated", tpl_bool(true));
  tpl_map *v = tpl_map_new(e->a, 8);
  for (size_t j = 0; j < vars->len; j++)
    tpl_map_set(e->a, v, vars->entries[j].key, vars->entries[j].val);
  bk_set(e, v, "item", tpl_map_value(r));
  return bk_render(e, "chunk.twig", tpl_map_value(v), len);
}

/* libxml2 reports every error of a parse; the first one names the cause
 * (a later "premature end of data" is only its consequence). */
void bk_xml_keep_first(void *user, xmlErrorPtr err) {
  bk_xml_error *f = user;
  if (f->seen || !err)
    return;
  f->seen = true;
  f->line = err->line;
  snprintf(f->msg, sizeof f->msg, "%s",
           err->message ? err->message : "not well-formed");
  size_t n = strlen(f->msg);
  while (n && (f->msg[n - 1] == '\n' || f->msg[n - 1] == ' '))
    f->msg[--n] = 0;
}
