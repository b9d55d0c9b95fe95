/* What themec and the template suite's case compiler share: a set of named
 * template sources parsed together (each one's includes and imports
 * resolved within the set), listing a folder's files by suffix, and
 * writing an output file atomically. Messages go to stderr as "themec: ...".
 *
 * Memory follows oc_alloc.h: nothing here returns NULL for want of it. */
#ifndef OCTAVO_THEMEC_SET_H
#define OCTAVO_THEMEC_SET_H

#include <stdbool.h>
#include <stddef.h>

#include "tpl_ast.h"

/* The diagnostics kept per template (more are counted, not kept). */
#define THEMEC_MAX_DIAGS 64

/* A growing list of malloc'd strings, freed with the list. */
typedef struct themec_strlist {
  char **v;
  size_t len, cap;
} themec_strlist;

/* Takes s (malloc'd). */
void themec_strlist_add(themec_strlist *l, char *s);
void themec_strlist_free(themec_strlist *l);
void themec_strlist_sort(themec_strlist *l);

/* a + "/" + b (malloc'd); trailing slashes of a are dropped. */
char *themec_path_join(const char *a, const char *b);
const char *themec_base_name(const char *path);

/* Adds to out every file under root/rel whose name ends in suffix, as a
 * path relative to root. -1 when a folder cannot be read (said on stderr). */
int themec_collect(const char *root, const char *rel, const char *suffix,
                   themec_strlist *out);

/* Writes data to path through a temporary file renamed into place, so that
 * a failed run never leaves a half-written output behind. 0 or -1 (said on
 * stderr). */
int themec_write_atomic(const char *path, const char *data, size_t len);

enum { THEMEC_UNPARSED, THEMEC_PARSING, THEMEC_OK, THEMEC_FAILED };

/* One template of a set. name and source are the caller's and must outlive
 * the set. */
typedef struct themec_unit {
  const char *name;
  const char *source;
  size_t len;
  int state;
  tpl_escape autoescape;
  tpl_ast_template *ast;
  tpl_diag *diags; /* THEMEC_MAX_DIAGS of them, malloc'd */
  size_t ndiags;   /* all of them; at most THEMEC_MAX_DIAGS kept */
} themec_unit;

/* The units, sorted by name (themec_set_sort), and the arena their ASTs
 * live in. */
typedef struct themec_set {
  oc_arena *arena;
  themec_unit *u;
  size_t n;
  /* Book theme names (themec check): `@theme/NAME`, `@theme_base/NAME`
   * and `@content/NAME` mean the theme's NAME, found in `theme` when set
   * (a book's templates over a theme), else in this set (a theme's own).
   * Other names are found here, then in `theme`. */
  bool theme_names;
  struct themec_set *theme;
} themec_set;

/* An empty set of n units, to be filled and sorted by the caller. */
void themec_set_init(themec_set *s, size_t n);
void themec_set_sort(themec_set *s);
themec_unit *themec_set_find(themec_set *s, const char *name, size_t len);
/* Parses every unit not parsed yet; returns the number that failed. */
size_t themec_set_parse(themec_set *s);
/* An empty template standing for u (parsing, or failed). */
const tpl_ast_template *themec_placeholder(themec_set *s, const themec_unit *u);
void themec_set_free(themec_set *s);

#endif
