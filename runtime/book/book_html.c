/* The two HTML writers: `html` (one page, book.html) and `html_chunked` (a
 * website under book/, one page per item or per section). */
#include "book_search.h"
#include "book_site.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- html ------------------------------------------------------------ */

/* Renders each item through its element's template; the result becomes
 * the item's content, as Easybook's decoration did. */
int bk_decorate_items(bk_edition *e) {
  for (size_t i = 0; i < e->nitems; i++) {
    bk_item *it = &e->items[i];
    const char *tpl = oc_arena_printf(e->a, "%s.twig", it->element);
    if (!bk_has_template(e, tpl))
      tpl = "item.twig";
    const char *html =
        bk_render(e, tpl, bk_vars1(e, "item", tpl_map_value(it->record)), NULL);
    if (!html)
      return -1;
    it->decorated = html;
    bk_set(e, it->record, "content", bk_html(e, html));
  }
  return 0;
}

int bk_write_html(bk_edition *e, bk_out *o) {
  if (bk_decorate_items(e) != 0)
    return -1;
  size_t len;
  const char *html =
      bk_render(e, "book.twig", bk_vars1(e, "items", e->items_list), &len);
  if (!html || bk_out_write(e, o, "book.html", html, len) != 0)
    return -1;
  bk_sink sink = bk_folder_sink(e, o);
  if (bk_put_styles(e, &sink, "") != 0)
    return -1;
  return bk_put_images(e, &sink, "", NULL, NULL);
}

/* ---- html_chunked ---------------------------------------------------- */

/* search-index.js from every page, and the script that reads it (the
 * theme's search.js.twig when it has one, else the built-in one). */
static int write_search(bk_edition *e, bk_out *o, site *s) {
  si_index *idx = si_new(e->bk.language);
  for (size_t i = 0; i < s->npages; i++)
    bk_search_add_page(idx, s->pages[i].file, s->pages[i].title,
                       s->pages[i].content);
  if (si_dropped(idx)) {
    /* At the edition's `search` (or the edition): where to turn it off. */
    bk_pos pos = {"config.yml", 0, 0};
    bk_config_where(e->cfg,
                    oc_arena_printf(e->a, "book.editions.%s.search", e->name),
                    &pos);
    oc_report(e->rep, OC_WARNING, pos.file, pos.line, pos.col,
              "edition '%s': the search index is full; %zu words or sections "
              "of the book are not in it",
              e->name, si_dropped(idx));
  }
  size_t len;
  char *js = si_write(idx, &len);
  si_free(idx);
  int rc = bk_out_write(e, o, "book/search-index.js", js, len);
  free(js);
  if (rc != 0)
    return -1;
  const char *script = bk_has_template(e, "search.js.twig")
                           ? bk_render(e, "search.js.twig", tpl_null(), &len)
                           : si_script(&len);
  return script ? bk_out_write(e, o, "book/search.js", script, len) : -1;
}

static tpl_value nav_entry(bk_edition *e, const char *title, const char *label,
                           const char *url) {
  tpl_map *m = tpl_map_new(e->a, 4);
  bk_set(e, m, "title", bk_html(e, title));
  bk_set(e, m, "label", bk_html(e, label ? label : ""));
  bk_set(e, m, "url", bk_s(e, url));
  return tpl_map_value(m);
}

int bk_write_html_chunked(bk_edition *e, bk_out *o) {
  site s = {.e = e};
  s.id_page = tpl_map_new(e->a, 256);
  s.ext = ".html";
  if (bk_site_plan(&s, e->ed->chunk_level) != 0)
    return -1;
  bk_site_toc(&s);
  tpl_env *env = e->env;
  /* index.html */
  tpl_map *iv = tpl_map_new(e->a, 4);
  bk_set(e, iv, "items", e->items_list);
  bk_set(e, iv, "toc", s.toc);
  size_t len;
  tpl_env_set_global(env, "root", tpl_cstr(""));
  const char *html = bk_render(e, "index.twig", tpl_map_value(iv), &len);
  if (!html)
    return -1;
  page index = {.file = "index.html", .root = ""};
  html = bk_site_fix_links(&s, html, &index);
  if (bk_out_write(e, o, "book/index.html", html, strlen(html)) != 0)
    return -1;
  for (size_t i = 0; i < s.npages; i++) {
    page *pg = &s.pages[i];
    tpl_value item;
    if (pg->level == 1) {
      tpl_map *r = tpl_map_new(e->a, 12);
      for (size_t j = 0; j < pg->record->len; j++)
        tpl_map_set(e->a, r, pg->record->entries[j].key,
                    pg->record->entries[j].val);
      bk_set(e, r, "content", bk_html(e, pg->content));
      bk_set(e, r, "level", tpl_int(1));
      item = tpl_map_value(r);
    } else {
      tpl_map *r = tpl_map_new(e->a, 12);
      bk_set(e, r, "level", tpl_int(2));
      bk_set(e, r, "title", bk_html(e, pg->title));
      bk_set(e, r, "label", bk_html(e, pg->label));
      bk_set(e, r, "slug", bk_s(e, pg->slug));
      bk_set(e, r, "url", bk_s(e, pg->file));
      bk_set(e, r, "content", bk_html(e, pg->content));
      bk_set(e, r, "parent", tpl_map_value(pg->item->record));
      bk_set(e, r, "config", pg->item->config);
      bk_set(e, r, "toc", tpl_list_value(pg->item->toc));
      bk_set(e, r, "html_title", bk_html(e, pg->title));
      item = tpl_map_value(r);
    }
    tpl_value prev =
        i == 0
            ? nav_entry(e, bk_label(e, "index", tpl_null()), "", "index.html")
            : nav_entry(e, s.pages[i - 1].title, s.pages[i - 1].label,
                        s.pages[i - 1].file);
    tpl_value next = i + 1 < s.npages
                         ? nav_entry(e, s.pages[i + 1].title,
                                     s.pages[i + 1].label, s.pages[i + 1].file)
                         : tpl_null();
    tpl_map *pv = tpl_map_new(e->a, 6);
    bk_set(e, pv, "item", item);
    bk_set(e, pv, "toc", s.toc);
    bk_set(e, pv, "previous", prev);
    bk_set(e, pv, "next", next);
    tpl_env_set_global(env, "root", bk_s(e, pg->root));
    html = bk_site_render_page(e, pg, pv, &len);
    if (!html)
      return -1;
    html = bk_site_fix_links(&s, html, pg);
    if (bk_out_write(e, o, oc_arena_printf(e->a, "book/%s", pg->file), html,
                     strlen(html)) != 0)
      return -1;
  }
  tpl_env_set_global(env, "root", tpl_cstr(""));
  if (e->ed->search && write_search(e, o, &s) != 0)
    return -1;
  bk_sink sink = bk_folder_sink(e, o);
  if (bk_put_styles(e, &sink, "book/") != 0)
    return -1;
  return bk_put_images(e, &sink, "book/", NULL, NULL);
}
