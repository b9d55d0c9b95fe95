/* The interpreter's public face (octavo_tplinterp): the loader that finds,
 * parses and caches template sources (folders and in-memory texts), which
 * the book renders its template overrides and theme folders through, and
 * the data files `themec render --data` reads. No AST here: the parsing
 * happens behind it (tpl_interp.h is the interpreter's own header). */
#ifndef OCTAVO_TPL_LOADER_H
#define OCTAVO_TPL_LOADER_H

#include <stddef.h>

#include "tpl_rt.h"

/* ---- loader --------------------------------------------------------- */

/* A template source over in-memory texts (asked first) and include folders
 * (asked in the order added). Templates are parsed on first use, checked
 * against every template the env can find, and cached for the env's life.
 * Names may have `/` subfolders; absolute names and `..` segments are never
 * found. The loader lives in the env's arena and goes away with it. */
typedef struct tpl_loader tpl_loader;

/* Creates a loader and adds it to env's sources. */
tpl_loader *tpl_loader_new(tpl_env *env);
/* Adds (or replaces, when not parsed yet) an in-memory template; the text
 * is copied. */
void tpl_loader_add_string(tpl_loader *l, const char *name, const char *text,
                           size_t len);
/* The same, with its own autoescaping strategy whatever the env's (the
 * book's shell commands: TPL_ESC_SH). */
void tpl_loader_add_string_as(tpl_loader *l, const char *name, const char *text,
                              size_t len, tpl_escape autoescape);
/* Adds an include folder (`-I DIR`); the path is copied. */
void tpl_loader_add_dir(tpl_loader *l, const char *dir);
/* The folder (copied) that no template of the include folders may lead
 * out of through a symbolic link, and what messages call it ("the book's
 * folder"): such a template, or a link to nothing, is an error where it is
 * looked up, not a template the next folder may give. Without a root,
 * each include folder is its own. */
void tpl_loader_set_root(tpl_loader *l, const char *dir, const char *what);
/* Makes the loader find `@theme/name` (tpl_theme_prefix) as `name`: the
 * loader of a theme folder. */
void tpl_loader_theme_names(tpl_loader *l);
/* Parses and checks template `name` afresh for `themec check`: returns -1
 * when it is not found, else the number of errors, the first max_diags of
 * which go to diags (*ndiags gets how many were written). */
int tpl_loader_check(tpl_loader *l, const char *name, tpl_diag *diags,
                     size_t max_diags, size_t *ndiags);

/* ---- data files ----------------------------------------------------- */

/* Reads JSON or YAML (the first document) into values allocated in a:
 * mappings become maps in order (a mapping with keys 0..n-1 a list, as PHP
 * sees it), sequences lists; plain scalars are typed by the YAML 1.2 core
 * schema (null, booleans, ints, floats), quoted ones are strings. `name`
 * is what diagnostics call the text. Returns 0, or -1 with *diag filled
 * (file:line:col of the problem). */
int tpl_data_parse(oc_arena *a, const char *name, const char *text, size_t len,
                   tpl_value *out, tpl_diag *diag);
int tpl_data_load(oc_arena *a, const char *path, tpl_value *out,
                  tpl_diag *diag);

#endif
