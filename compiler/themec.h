/* What themec's commands share (themec.c: compile, check, registry,
 * render; themec_build.c: new and build). Messages go to stderr. */
#ifndef OCTAVO_THEMEC_H
#define OCTAVO_THEMEC_H

#include <stdbool.h>
#include <stddef.h>

#include "themec_set.h"

/* Compiles the templates of dirs (earlier folders hide later ones'
 * templates of the same name) into one registry `prefix`, as C whose
 * #include of its header, when header_name is set, names it; *code is
 * malloc'd. autoescape < 0: each template's strategy by name. -1 after
 * printing the templates' errors. */
int themec_compile_dirs(char *const *dirs, size_t ndirs, int autoescape,
                        const char *prefix, const char *out_name,
                        const char *header_name, char **code, size_t *len);

/* One entry of a registry of themes: a theme's compiled set for one
 * edition format, `prefix`_templates and `prefix`_ntemplates. */
typedef struct themec_reg_entry {
  const char *name, *format, *prefix;
} themec_reg_entry;

/* Adds to out_lines the C of a registry: the table `symbol` of tpl_theme
 * and its length `symbol`_n, as publish reads them
 * (runtime/book/book_themes.c). */
void themec_registry_code(themec_strlist *out_lines, const char *symbol,
                          const themec_reg_entry *e, size_t n);
/* The strings of l one after the other (malloc'd). */
char *themec_strlist_join(const themec_strlist *l);
/* A theme or format name: letters, digits, `_` and `-`, not empty. */
bool themec_plain_name(const char *s, size_t n);

/* The edition formats a theme folder has a subfolder for, in the order
 * registries list them. */
extern const char *const themec_formats[];
extern const size_t themec_nformats;
/* The folders themec compiles for one format of a theme folder, into
 * dirs[0..3): the format's, then common/ and contents/, those that exist
 * (malloc'd); returns how many. */
size_t themec_format_dirs(const char *theme_dir, const char *format,
                          char **dirs);
/* Whether dir is a theme folder: one with a subfolder per format. */
bool themec_is_theme_dir(const char *dir);

/* The theme folder a name or path names: a folder, or a bundled theme's
 * name, looked up in the installed themes' sources (malloc'd, canonical);
 * NULL after saying why. */
char *themec_find_theme(const char *from);

int themec_cmd_new(int argc, char **argv);
int themec_cmd_build(int argc, char **argv);

#endif
