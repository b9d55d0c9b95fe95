/* The book model of one edition being published, and the writers.
 *
 * bk_edition_load reads everything the writers need: the book's strings
 * rendered, the labels and titles of its language, the template
 * environment (the book's own templates over the compiled theme), and every
 * item of `contents:` with its Markdown converted, numbered, labelled and
 * listed in the TOC. The writers (book_html.c) turn that into files under a
 * temporary folder, which book_fs.c renames into place.
 *
 * Memory: one arena per edition (bk_edition.a) owns the model and every
 * value the templates see; bk_edition_free releases it with the env. */
#ifndef OCTAVO_BOOK_H
#define OCTAVO_BOOK_H

#include <stdbool.h>
#include <stddef.h>

#include "book_config.h"
#include "oc_diag.h"
#include "book_md.h"
#include "book_slug.h"
#include "tpl_rt.h"

/* A compiled theme: the templates of one format, as themec wrote them. */
typedef struct bk_theme {
  const char *name;   /* "clean" */
  const char *format; /* "html", "html_chunked" */
  const tpl_template *const *templates;
  size_t ntemplates;
} bk_theme;

/* Finds a theme compiled into this program (book_themes.c). */
bool bk_find_theme(const char *name, const char *format, bk_theme *found);
/* Comma-separated names of the built-in themes, for messages. */
const char *bk_theme_names(void);

typedef struct bk_item {
  const char *element;
  tpl_value config;        /* the contents entry (a map) */
  const char *number;      /* item.config.number as text, "" when none */
  const char *file;        /* "Contents/…" or NULL */
  const char *title;       /* HTML */
  const char *label;       /* HTML, "" when none */
  const char *slug;        /* the id of the title */
  const char *content;     /* the body HTML */
  bk_md_result md;
  tpl_list *toc;           /* {level, title, slug, label, url} maps */
  const char *page_name;   /* html_chunked: "chapter-1", NULL: no page */
  tpl_map *record;         /* what templates see as `item` */
} bk_item;

typedef struct bk_options {
  const char *json;     /* --configuration */
  bool strict;          /* warnings are errors */
  bool no_scripts;      /* do not run before/after_publish */
  int verbosity;        /* -1 quiet, 0 normal, 1 verbose */
  bool xhtml;           /* pdf: also write book.xhtml and the sheets */
} bk_options;

/* Where a template text came from (a config value, a label). */
typedef struct bk_origin {
  const char *file;
  unsigned line, col;
  const char *what; /* "the template in book.title", "label 'figure'" */
} bk_origin;

typedef struct bk_edition {
  oc_arena *a;
  const char *book_dir;  /* canonical, absolute */
  const char *name;      /* edition name */
  const char *format;    /* lower case */
  const bk_options *opt;
  const oc_reporter *rep;
  bk_config *cfg;
  tpl_value book, edition; /* book with strings rendered; merged edition */
  tpl_value labels, titles;
  bk_theme theme;
  tpl_env *env;
  void *loader;            /* the book's templates (tpl_loader) */
  tpl_value app;           /* the `app` object */
  bk_slugger *slugger;
  bk_idset *ids;
  bk_item *items;
  size_t nitems;
  tpl_value items_list;    /* records of every item */
  tpl_value figures, tables; /* app.get('publishing.list.images'|…) */
  const char *custom_css;  /* the book's style.css (absolute) or NULL */
  tpl_map *text_cache;     /* template text → its name in the loader */
  tpl_map *tpl_exists;     /* template name → whether it exists */
  tpl_map *origins;        /* template text's name → index in origin_list */
  bk_origin *origin_list;
  size_t norigins, corigins;
  tpl_map *failed;         /* names of templates that failed once */
  size_t label_seq;        /* names of those templates */
  int errors;              /* errors reported while loading */
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
const char *bk_render_string(bk_edition *e, const char *text,
                             const char *path);
void bk_edition_free(bk_edition *e);

/* Renders template `name` with data (a map) and returns its output in the
 * edition's arena; NULL after reporting the error. */
const char *bk_render(bk_edition *e, const char *name, tpl_value data,
                      size_t *len);
/* True when a template of that name exists (the book's or the theme's). */
bool bk_has_template(bk_edition *e, const char *name);
/* The label `name` ("figure", "next"…) rendered with vars (a map or null);
 * "" when the language has none. */
const char *bk_label(bk_edition *e, const char *name, tpl_value vars);
/* The other folder name of the edition's format in Resources/Templates/:
 * "htmlchunked" (Easybook's) for html_chunked, "epub" for mobi, else "". */
const char *bk_format_alias(const bk_edition *e);
/* The default title of element `name`. */
const char *bk_title(bk_edition *e, const char *name);

/* Map helpers for building template records. */
tpl_value bk_get(tpl_value map, const char *key);
const char *bk_get_str(oc_arena *a, tpl_value map, const char *key,
                       const char *dflt);
void bk_set(bk_edition *e, tpl_map *m, const char *key, tpl_value v);
tpl_value bk_s(bk_edition *e, const char *s); /* arena copy as a value */
tpl_value bk_html(bk_edition *e, const char *s); /* same, marked safe */
/* Whether list (a template list) holds the string s. */
bool bk_list_has(tpl_value list, const char *s);
/* Renders each item through its element's template (else item.twig); the
 * result becomes the item's content, as Easybook's decoration did
 * (book_html.c; the html and pdf writers). */
int bk_decorate_items(bk_edition *e);

/* ---- files ---------------------------------------------------------- */

/* Resolves rel (as written in the book: a content or image path, relative
 * to base_rel, a folder of the book such as "Contents") to an absolute
 * path inside the book. Refuses absolute paths, `..` that climbs out and
 * symbolic links that lead out of the book (reported at file:line:col, an
 * error). NULL when refused or missing (missing: *missing set, nothing
 * reported). */
const char *bk_book_path(bk_edition *e, const char *base_rel,
                         const char *rel, const char *file, unsigned line,
                         unsigned col, bool *missing);

/* Output: files go under a temporary folder next to the final one. */
typedef struct bk_out {
  const char *final_dir; /* BOOK/Output/<edition> */
  const char *tmp_dir;   /* BOOK/Output/.<edition>.tmp-XXXXXX */
  const char *old_dir;   /* the previous output, until bk_out_finish */
} bk_out;

int bk_out_begin(bk_edition *e, bk_out *o);
/* Writes data to tmp_dir/rel, creating folders. */
int bk_out_write(bk_edition *e, bk_out *o, const char *rel, const char *data,
                 size_t len);
/* Renames the temporary folder into place, keeping the previous output
 * aside; then either bk_out_finish removes it, or bk_out_rollback (an
 * after_publish script failed) puts it back. */
int bk_out_commit(bk_edition *e, bk_out *o);
void bk_out_finish(bk_out *o);
int bk_out_rollback(bk_edition *e, bk_out *o);
/* Removes the temporary folder (on failure). */
void bk_out_abort(bk_out *o);
int bk_rmtree(const char *path);
int bk_mkdirs(const char *path);

/* ---- writers ------------------------------------------------------ */

int bk_write_html(bk_edition *e, bk_out *o);
int bk_write_html_chunked(bk_edition *e, bk_out *o);
/* format epub (and mobi, which Kindle now takes as EPUB): book.epub. */
int bk_write_epub(bk_edition *e, bk_out *o);
/* format pdf: book.pdf, typeset by ts_engine.h from the theme's book.twig
 * (one XHTML document) and style sheets; with opt->xhtml also book.xhtml,
 * theme.css and style.css as the engine received them. */
int bk_write_pdf(bk_edition *e, bk_out *o);

#endif
