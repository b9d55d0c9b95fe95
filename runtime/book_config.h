/* config.yml: Easybook's schema read through libyaml, with Easybook's
 * defaults, `--configuration` overrides, edition inheritance, validation
 * with line and column, and the labels and titles of the book's language.
 *
 * Values become template values (maps keep the file's order; YAML 1.1
 * scalars as Symfony YAML types them: ~ null, ints, floats, booleans,
 * quoted strings stay strings). Lists replace lists when merged (Easybook
 * merged them by index, a bug). Unknown keys are kept.
 *
 * Memory: everything lives in the arena given. */
#ifndef OCTAVO_BOOK_CONFIG_H
#define OCTAVO_BOOK_CONFIG_H

#include <stdbool.h>

#include "book_diag.h"
#include "tpl_value.h"

typedef struct bk_pos {
  const char *file; /* "config.yml" or "--configuration" */
  unsigned line, col;
} bk_pos;

typedef struct bk_config bk_config;

/* Reads BOOK_DIR/config.yml, merges defaults ← file ← json (the
 * --configuration text, may be NULL), checks it. Every problem is
 * reported (errors and warnings: a misspelt known option gets "did you
 * mean"); returns NULL when there was an error. */
bk_config *bk_config_load(tpl_arena *a, const char *book_dir,
                          const char *json, const bk_reporter *r);

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

/* Where the user wrote a value, by dotted path ("book.editions.web.format",
 * "book.contents.3.content", "book.title"); the nearest written ancestor
 * when that value came from the defaults. false when nothing matches. */
bool bk_config_where(const bk_config *c, const char *path, bk_pos *out);

/* ---- labels and titles ---------------------------------------------- */

/* The labels (`label:` map: appendix and chapter are lists of 6 templates,
 * figure, table, part… templates, date_format…) and titles (`title:` map)
 * for language lang, built in for ca de en es eu fr it nl ro zh, deep-
 * merged with the book's Resources/Translations/{<edition>,<format>,.}/
 * {labels,titles}.<lang>.yml (first found of each). An unknown language
 * warns and falls back to English. Returns 0, or -1 after reporting an
 * error in a book's file. */
int bk_i18n_load(tpl_arena *a, const char *book_dir, const char *lang,
                 const char *edition, const char *format,
                 const bk_reporter *r, tpl_value *labels, tpl_value *titles);

#endif
