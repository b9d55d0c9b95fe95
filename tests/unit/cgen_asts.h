/* Hand-built template ASTs for the C back end's tests: the same trees are
 * compiled to C at build time (cgen_fixture_gen) and interpreted at test
 * time (test_cgen), so the two back ends can be compared without the
 * parser. */
#ifndef OCTAVO_CGEN_ASTS_H
#define OCTAVO_CGEN_ASTS_H

#include "tpl_ast.h"

/* Builds the fixture templates in a; returns how many (<= max). */
size_t cgen_fixture_asts(oc_arena *a, tpl_ast_template **out, size_t max);

/* Template sources that stress the generator's reuse of reads and its
 * agreement with the interpreter; they go through the real front end. */
typedef struct cgen_source {
  const char *name;
  const char *text;
} cgen_source;
extern const cgen_source cgen_sources[];
extern const size_t cgen_nsources;

/* Parses every source (in cgen_sources order) into out. Returns how many,
 * or 0 after printing the diagnostics of one that does not parse. */
size_t cgen_parse_sources(oc_arena *a, tpl_ast_template **out, size_t max);

#endif
