/* The C back end: turns checked template ASTs into one C file whose static
 * functions call the run-time library (tpl_rt.h) exactly as the interpreter
 * does, plus a registry that tpl_env_add_compiled takes.
 *
 * Ownership: a tpl_cgen copies every string it keeps; the ASTs given to it
 * must stay alive until tpl_cgen_finish returns. */
#ifndef OCTAVO_TPL_CGEN_H
#define OCTAVO_TPL_CGEN_H

#include <stdbool.h>
#include <stddef.h>

#include "tpl_ast.h"

typedef struct tpl_cgen tpl_cgen;

/* out_name: the generated file's name as `#line` directives should give it
 * (a base name keeps the output independent of the build folder).
 * includes: extra headers the file includes after tpl_rt.h (may be NULL). */
tpl_cgen *tpl_cgen_new(const char *out_name, size_t nincludes,
                       const char *const *includes);
void tpl_cgen_free(tpl_cgen *g);

/* Adds the registry `PREFIX_templates` / `PREFIX_ntemplates` holding the
 * given templates in that order (a static registry has no _ntemplates).
 * paths[i] names templates[i]'s source file in `#line` directives. Non-static
 * unless is_static. broken (may be NULL): when broken[i] is set, templates[i]
 * did not parse and becomes a stub that keeps its name and source (for
 * source()) and fails with that diagnostic when displayed; only its name,
 * source and autoescape are read. */
void tpl_cgen_add_registry(tpl_cgen *g, const char *prefix, size_t n,
                           const tpl_ast_template *const *templates,
                           const char *const *paths,
                           const tpl_diag *const *broken, bool is_static);

/* Appends text after the registries (the case compiler's table). */
void tpl_cgen_add_trailer(tpl_cgen *g, const char *text, size_t len);

/* The whole C file (malloc'd, NUL-terminated; its length in *len). */
char *tpl_cgen_finish(tpl_cgen *g, size_t *len);

/* The header declaring registry `prefix` (malloc'd). */
char *tpl_cgen_header(const char *prefix, const char *source_desc);

/* True when s is a valid C identifier. */
bool tpl_cgen_is_ident(const char *s);

#endif
