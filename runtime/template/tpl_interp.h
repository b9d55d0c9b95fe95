/* Private to the interpreter (octavo_tplinterp) and the programs that hand
 * it ASTs themselves (themec, the tests): building runtime templates from
 * the front end's checked ASTs (runtime/front/tpl_ast.h). What the book
 * needs, the loader and data files, is tpl_loader.h, which knows no AST. */
#ifndef OCTAVO_TPL_INTERP_H
#define OCTAVO_TPL_INTERP_H

#include "tpl_ast.h"
#include "tpl_loader.h"

/* Wraps a checked AST (and its embeds) as a runtime template whose body,
 * block and macro functions walk the AST. Allocates in arena, which must
 * outlive every render of the template, as must the AST. Fills in the
 * hashes of the names in the AST. */
const tpl_template *tpl_interp_build(oc_arena *arena, tpl_ast_template *ast);

#endif
