/* Hand-built template ASTs for the C back end's tests: the same trees are
 * compiled to C at build time (cgen_fixture_gen) and interpreted at test
 * time (test_cgen), so the two back ends can be compared without the
 * parser. */
#ifndef OCTAVO_CGEN_ASTS_H
#define OCTAVO_CGEN_ASTS_H

#include "tpl_ast.h"

/* Builds the fixture templates in a; returns how many (<= max). */
size_t cgen_fixture_asts(tpl_arena *a, tpl_ast_template **out, size_t max);

#endif
