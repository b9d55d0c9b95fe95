/* config.yml: Easybook's schema read through libyaml, with Easybook's
 * defaults, `--configuration` overrides, edition inheritance, validation
 * with line and column, and the labels and titles of the book's language.
 *
 * Values become template values (maps keep the file's order; YAML 1.1
 * scalars as Symfony YAML types them: ~ null, ints, floats, booleans,
 * quoted strings stay strings). Lists replace lists when merged (Easybook
 * merged them by index, a bug). Unknown keys are kept; one within an edit
 * or two of a known option (one for words of four letters or fewer) warns
 * "did you mean". A margin written as a number is in millimetres (25 →
 * "25mm"), `margin.outter` is read as `outer`, an isbn written as a number
 * is kept as text, and `generator`, when given, is kept whole.
 *
 * Memory: everything lives in the arena given. */
#ifndef OCTAVO_BOOK_CONFIG_H
#define OCTAVO_BOOK_CONFIG_H

#include <stdarg.h>
#include <stdbool.h>

#include "book_types.h"
#include "oc_diag.h"
#include "tpl_value.h"

typedef struct bk_pos {
  const char *file; /* "config.yml" or "--configuration" */
  unsigned line, col;
} bk_pos;

/* Reports fmt at pos (config.yml when pos names no file) and counts an
 * error in *errors. */
void bk_vreport_at(const oc_reporter *r, int *errors, oc_severity sev, bk_pos pos,
                   const char *fmt, va_list ap);

typedef struct bk_config bk_config;

/* The budgets an edition may set, which bound what a book's templates and
 * images may cost (a book is untrusted): a book may lower each, and raise
 * it up to its ceiling only. A value above a ceiling is a warning at its
 * place in config.yml, and the ceiling applies; neither --configuration
 * nor any other option raises one. The template budgets count all of an
 * edition's renders together (see setup_env in book_model.c); the image
 * defaults are the typesetter's (ts_image.h: 100 megapixels, 300 ppi). */
#define BK_DEFAULT_TEMPLATE_ITERATIONS ((int64_t)50000000)
#define BK_MAX_TEMPLATE_ITERATIONS ((int64_t)500000000)
#define BK_DEFAULT_TEMPLATE_OUTPUT_MB ((int64_t)1024)
#define BK_MAX_TEMPLATE_OUTPUT_MB ((int64_t)4096)
#define BK_MAX_IMAGE_MEGAPIXELS ((int64_t)400)
#define BK_MAX_IMAGE_PPI ((int64_t)2400)

/* Reads BOOK_DIR/config.yml, merges defaults ← file ← json (the
 * --configuration text, may be NULL), checks it. Every problem is
 * reported (errors and warnings: a misspelt known option gets "did you
 * mean"); returns NULL when there was an error. */
bk_config *bk_config_load(oc_arena *a, const char *book_dir,
                          const char *json, const oc_reporter *r);

/* The theme editions without `theme:` get (NULL: clean), a plain name;
 * a themed publish sets it (bk_themes_set). */
void bk_config_set_default_theme(const char *name);

/* The same from config.yml's text (len bytes, need not be
 * NUL-terminated), for tests and fuzzing: no file is read. */
bk_config *bk_config_parse(oc_arena *a, const char *text, size_t len,
                           const char *json, const oc_reporter *r);

/* The `book:` map with every key Easybook defines (title, author, edition,
 * language, publication_date, generator, contents, editions) filled with
 * its default, plus the unknown keys, values not yet rendered as templates.
 * editions is the raw map of editions as written. */
tpl_value bk_config_book(const bk_config *c);
/* Replaces the book map (after its strings were rendered). */
void bk_config_set_book(bk_config *c, tpl_value book);

/* Edition names in the file's order, with or without a format. */
size_t bk_config_nedition(const bk_config *c);
const char *bk_config_edition_name(const bk_config *c, size_t i);
/* The edition merged: defaults ← the chain of `extends` (any depth, root
 * first) ← the edition. NULL map when there is no such edition. format is
 * lower-cased and checked; an edition without format returns the map
 * without the key (a base for extends only). */
tpl_value bk_config_edition(const bk_config *c, const char *name);

/* The typed model (book_types.h), read once by bk_config_load: the book
 * as written (texts not rendered), with its contents; NULL when the
 * config was not loaded. */
const bk_book_conf *bk_config_book_conf(const bk_config *c);
/* Edition `name`, merged; NULL when there is no such edition. */
const bk_edition_conf *bk_config_edition_conf(const bk_config *c,
                                              const char *name);
/* Reads the book's texts (title … generator, not the items) from a book
 * map into b: what bk_config_load does with the map as written, and
 * bk_edition_init again once an edition rendered them. */
void bk_book_conf_texts(oc_arena *a, tpl_value book, bk_book_conf *b);
/* A scalar as text (ints and floats as PHP prints them, true "1", false
 * ""), in a; dflt for null, lists and maps. */
const char *bk_value_text(oc_arena *a, tpl_value v, const char *dflt);

/* The config.yml files (canonical paths, in a) that the book's config.yml
 * imports, directly or through the files it imports (`import:`, a folder
 * or a list of folders, each relative to the folder of the config.yml
 * naming it): what the sandbox must let publish read. Errors are left to
 * bk_config_load, which reads each imported file under the book's own
 * config.yml (maps merged, lists and values replaced) and reports a
 * missing folder or file, a cycle or an import deeper than 16. book_dir
 * is canonical. */
const char **bk_config_imports(oc_arena *a, const char *book_dir, size_t *n);

/* Where the user wrote a value, by dotted path ("book.editions.web.format",
 * "book.contents.3.content", "book.title"; list indexes from 0); the
 * nearest written ancestor when that value came from the defaults or is
 * not there. An edition answers for what it inherits too: the place in
 * the edition that wrote it. false when nothing matches. */
bool bk_config_where(const bk_config *c, const char *path, bk_pos *out);

/* The whole document, defaults left out (config.yml ← json): for the
 * top-level keys other than `book:`, such as `easybook: parameters:`. */
tpl_value bk_config_root(const bk_config *c);

/* ---- YAML and the book's files ---------------------------------------- */

/* Reads YAML text (its first document) as Symfony YAML 2.8 types it:
 * plain ~, null and "" (any case) are null, true and false (any case)
 * booleans, decimal, 0x and 0o integers ints (floats when too big),
 * 1.5, 1e3, .inf and .nan floats; everything else, unquoted dates
 * included, strings; `<<` merge keys are applied and a duplicate key
 * warns (the first one counts, as in Symfony 2.8). Errors are reported
 * as name:line:col. Returns 0, or -1 after reporting. */
int bk_yaml_parse(oc_arena *a, const char *name, const char *text,
                  size_t len, const oc_reporter *r, tpl_value *out);

/* Maps merged key by key, recursively; anything else in over (lists
 * too) replaces what base holds. Neither input is changed. */
tpl_value bk_value_merge(oc_arena *a, tpl_value base, tpl_value over);

typedef enum bk_read_status {
  BK_READ_OK,
  BK_READ_MISSING, /* no such file (a dangling link too) */
  BK_READ_OUTSIDE, /* its real path leaves the book folder */
  BK_READ_FAILED   /* a folder, unreadable...: errno tells */
} bk_read_status;

/* Reads BOOK_DIR/REL whole (malloc'd, NUL-terminated, length in *len),
 * after resolving symbolic links: a file whose real path is not inside
 * the book folder is refused. NULL with *st saying why. */
char *bk_read_book_file(const char *book_dir, const char *rel, size_t *len,
                        bk_read_status *st);

/* ---- labels and titles ---------------------------------------------- */

/* The codes of the built-in languages, sorted, separated by a space
 * ("ca de en … zh"), in a.*/
const char *bk_i18n_languages(oc_arena *a);
/* The labels (`label:` map: appendix and chapter are lists of 6 templates,
 * figure, table, part… templates, date_format…) and titles (`title:` map)
 * for language lang, built in for bk_i18n_languages()'s, deep-
 * merged with the book's Resources/Translations/{<edition>,<format>,.}/
 * {labels,titles}.<lang>.yml (first found of each; html_chunked also
 * looks in `htmlchunked/`). A regional variant ("fr_CA") uses its
 * language. An unknown language falls back to English, and warns unless
 * the book brings both files for it. book_dir may be NULL (built-ins
 * only). Returns 0, or -1 after reporting an error in a book's file (bad
 * YAML, unreadable, or a link leading out of the book). */
int bk_i18n_load(oc_arena *a, const char *book_dir, const char *lang,
                 const char *edition, const char *format,
                 const oc_reporter *r, tpl_value *labels, tpl_value *titles);
/* The same, with where book.language was written (from bk_config_where,
 * may be NULL) for the warning about an unknown language. */
int bk_i18n_load_at(oc_arena *a, const char *book_dir, const char *lang,
                    const bk_pos *lang_pos, const char *edition,
                    const char *format, const oc_reporter *r,
                    tpl_value *labels, tpl_value *titles);

#endif
