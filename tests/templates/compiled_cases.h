/* The table of the template suite compiled to C by compile_cases (one
 * registry per case), which case_runner runs next to the interpreter. */
#ifndef OCTAVO_COMPILED_CASES_H
#define OCTAVO_COMPILED_CASES_H

#include <stddef.h>

#include "tpl_rt.h"

/* One compiled case: path is the .test file relative to the cases folder. */
typedef struct tpl_compiled_case {
  const char *path;
  const tpl_template *const *templates;
  size_t ntemplates;
} tpl_compiled_case;

/* Defined by the file compile_cases writes. */
extern const tpl_compiled_case tpl_compiled_cases[];
extern const size_t tpl_ncompiled_cases;

#endif
