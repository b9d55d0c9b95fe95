/* The book model of one edition being published: its config, labels and
 * titles, template environment and items (book_model.c).
 *
 * bk_edition_init prepares an edition (the book's strings rendered, the
 * labels and titles of its language, the template environment: the book's
 * own templates over the compiled theme); bk_edition_load_items reads every
 * item of `contents:` with its Markdown converted, numbered, labelled and
 * listed in the TOC. The writers (book_writers.h) turn that into files,
 * through the file-system layer (book_fs.h).
 *
 * Memory: one arena per edition (bk_edition.a) owns the model and every
 * value and string these functions return; bk_edition_free releases it
 * with the env. */
#ifndef OCTAVO_BOOK_H
#define OCTAVO_BOOK_H

#include <stdbool.h>
#include <stddef.h>

#include "book_config.h"
#include "book_md.h"
#include "book_slug.h"
#include "oc_diag.h"
#include "tpl_rt.h"

/* An edition's theme: the compiled templates of one format, as themec
 * wrote them (found by bk_find_theme, book_writers.h; static data, owned
 * by no one), or a theme folder read by the interpreter (publish --theme
 * DIR: dir set, no templates). */
typedef struct bk_theme {
  const char *name;   /* "clean" */
  const char *format; /* "html", "html_chunked", "epub", "pdf" */
  const tpl_template *const *templates;
  size_t ntemplates;
  const char *dir; /* the theme folder, canonical; NULL when compiled */
} bk_theme;

/* An item of the edition: its entry of contents: converted. */
typedef struct bk_item {
  const bk_item_conf *conf; /* its entry (book_types.h) */
  const char *element;      /* conf->element */
  tpl_value config;         /* conf->map: what templates see as item.config */
  const char *number;       /* conf->number: "" when none */
  const char *file;         /* "Contents/…" or NULL */
  const char *title;        /* HTML */
  const char *label;        /* HTML, "" when none */
  const char *slug;         /* the id of the title */
  const char *content;      /* the body HTML */
  bk_md_result md;
  bk_heading *headings; /* its TOC (book_types.h), its title first */
  size_t nheadings;
  /* the same for the templates: {level, title, slug, label, url} maps
     (a website's with their pages' URLs, config and parent) */
  tpl_list *toc;
  const char *page_name; /* html_chunked: "chapter-1", NULL: no page */
  /* the item through its element's template (bk_decorate_items), which
     the html and pdf editions print; NULL before */
  const char *decorated;
  tpl_map *record; /* what templates see as `item` */
} bk_item;

/* The Markdown cache of a process that publishes a book again and again
 * (publish serve, publish --watch; book_model.c). Per edition and item it
 * keeps the result of the item's content file, keyed by a 128-bit hash of
 * everything that result depends on besides the book's configuration,
 * templates and images: the source's bytes (a .twig content file's once
 * rendered), the item's place, the edition's name and format, the
 * rendering options, and the ids the items before it claimed (a digest of
 * the book's id set, which decides the generated ids). Only results whose
 * render reported nothing are kept (so every warning is said again), and
 * a hit claims the result's ids as the render did. The caller clears it
 * when anything but a content file changes. Thread-compatible: one
 * publish at a time. */
typedef struct bk_md_cache bk_md_cache;
bk_md_cache *bk_md_cache_new(void);
void bk_md_cache_clear(bk_md_cache *c);
void bk_md_cache_free(bk_md_cache *c);
/* Renders served from the cache, and rendered, since it was made. */
void bk_md_cache_counts(const bk_md_cache *c, size_t *hits, size_t *misses);

/* What a process that publishes again and again wrote last (book_fs.h):
 * the files an edition's next output shares with its current one are
 * linked, not written. */
typedef struct bk_out_memo bk_out_memo;

typedef struct bk_options {
  const char *json; /* --configuration */
  bool strict;      /* warnings are errors */
  bool no_scripts;  /* do not run before/after_publish */
  int verbosity;    /* -1 quiet, 0 normal, 1 verbose */
  bool xhtml;       /* pdf: also write book.xhtml and the sheets */
  bool no_sandbox;  /* do not confine publish (book_sandbox.h) */
  const char *theme_dir;   /* --theme: a theme folder, canonical, for every
                              edition */
  const char *theme_shown; /* the same, as given, for messages */
  bk_md_cache *md_cache;   /* NULL: every content file rendered */
  bk_out_memo *out_memo;   /* NULL: every output file written */
  struct hl_highlighter *hl; /* the code highlighter of every edition (its
                                grammars read once); NULL: each edition
                                makes its own */
} bk_options;

/* Where a template text came from (a config value, a label). */
typedef struct bk_origin {
  const char *file;
  unsigned line, col;
  const char *what; /* "the template in book.title", "label 'figure'" */
} bk_origin;

/* The printed pages of a pdf edition, for an epub edition whose
 * `page_source` names it (book_writers.h). */
typedef struct bk_print_pages bk_print_pages;

typedef struct bk_edition {
  oc_arena *a;
  const char *book_dir; /* canonical, absolute */
  const char *name;     /* edition name */
  const char *format;   /* lower case */
  const bk_options *opt;
  const oc_reporter *rep;
  bk_config *cfg;
  const bk_edition_conf *ed; /* the edition's options (book_types.h) */
  bk_book_conf bk;           /* the book's, its texts rendered */
  /* what templates see as `book` (its strings rendered) and `edition` */
  tpl_value book, edition;
  tpl_value labels, titles;
  bk_theme theme;
  tpl_env *env;
  void *loader;  /* the book's templates (tpl_loader) */
  tpl_value app; /* the `app` object */
  bk_slugger *slugger;
  bk_idset *ids;
  bk_item *items;
  size_t nitems;
  tpl_value items_list;      /* records of every item */
  tpl_value figures, tables; /* app.get('publishing.list.images'|…) */
  const char *custom_css;    /* the book's style.css (absolute) or NULL */
  tpl_map *text_cache;       /* template text → its name in the loader */
  tpl_map *tpl_exists;       /* template name → whether it exists */
  tpl_map *images_ok;        /* image sources found fit: checked once */
  tpl_map *origins;          /* template text's name → index in origin_list */
  bk_origin *origin_list;
  size_t norigins, corigins;
  tpl_map *failed;  /* names of templates that failed once */
  size_t label_seq; /* names of those templates */
  int errors;       /* errors reported while loading */
  /* pdf: where to say where each printed page starts (NULL: nowhere);
     epub: the printed pages to mark (NULL: none). publish.c sets them. */
  bk_print_pages *pages_out;
  const bk_print_pages *pages_in;
  /* code highlighting (hl_highlight.h): on unless the edition says
     highlight_code: false; opt->hl highlights, or without it the
     edition's own, made for the first block */
  bool highlight;
  struct hl_highlighter *hl;
  /* languages with no grammar met while loading the items: one note per
     language at the end of bk_edition_load_items, not one per block */
  struct bk_plain_lang *plain_langs;
  size_t nplain_langs, cplain_langs, nplain_blocks;
  /* the ids of the items editions:/formats: leave out (NULL: none) */
  bk_idset *left_out_ids;
} bk_edition;

/* Prepares edition `name` (which must have a format): the book's strings
 * rendered, labels and titles, the template environment. cfg is the book's
 * config, loaded once for all editions. Returns 0, or -1 after reporting
 * errors. bk_edition_free must be called either way. */
int bk_edition_init(bk_edition *e, bk_config *cfg, const char *book_dir,
                    const char *name, const bk_options *opt,
                    const oc_reporter *rep);
/* Reads and converts every item of contents:, numbers and labels them,
 * checks internal links. Returns 0, or -1 after reporting errors. */
int bk_edition_load_items(bk_edition *e);
/* A string rendered as a template with the globals (book, edition, app);
 * NULL after reporting an error at the config value `path`
 * ("book.editions.web.before_publish"). */
const char *bk_render_string(bk_edition *e, const char *text, const char *path);
/* The same for a command given to the shell (before_publish,
 * after_publish): every value it prints is one shell word in single quotes
 * (autoescaping strategy `sh`), unless the author wrote `|raw`. */
const char *bk_render_command(bk_edition *e, const char *text,
                              const char *path);
void bk_edition_free(bk_edition *e);

/* Renders template `name` with data (a map) and returns its output in the
 * edition's arena; NULL after reporting the error. */
const char *bk_render(bk_edition *e, const char *name, tpl_value data,
                      size_t *len);
/* True when a template of that name exists (the book's or the theme's). */
bool bk_has_template(bk_edition *e, const char *name);
/* The label `name` ("figure", "next"…) rendered with vars (a map or null);
 * "" when the language has none. A label is HTML: the values it prints
 * (item.number, a key of the item's) are escaped. */
const char *bk_label(bk_edition *e, const char *name, tpl_value vars);
/* The other folder name of the edition's format in Resources/Templates/:
 * "htmlchunked" (Easybook's) for html_chunked, "epub" for mobi, else "". */
const char *bk_format_alias(const bk_edition *e);
/* The default title of element `name`. */
const char *bk_title(bk_edition *e, const char *name);

/* A heading as the templates see it in item.toc: {level, title, slug,
 * label, url "#slug"}. */
tpl_map *bk_heading_map(bk_edition *e, const bk_heading *h);

/* Map helpers for the template records: the writers read the structs
 * (book_types.h), and bk_get only what a template gave or sees. */
tpl_value bk_get(tpl_value map, const char *key);
void bk_set(bk_edition *e, tpl_map *m, const char *key, tpl_value v);
tpl_value bk_s(bk_edition *e, const char *s);    /* arena copy as a value */
tpl_value bk_html(bk_edition *e, const char *s); /* same, marked safe */

#endif
