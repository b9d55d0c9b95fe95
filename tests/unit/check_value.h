/* check.h for the tests of template values (test_values.c, test_config.c):
 * CHECK_STR(v, want) passes when v is a string value equal to want. */
#ifndef OCTAVO_TESTS_CHECK_VALUE_H
#define OCTAVO_TESTS_CHECK_VALUE_H

#define CHECK_STR(v, want) check_value_str(__FILE__, __LINE__, (v), (want))
#include "check.h"
#include "tpl_value.h"

static inline void check_value_str(const char *file, int line, tpl_value v,
                                   const char *want) {
  size_t n = strlen(want);
  if (v.type == TPL_STR && v.len == n && memcmp(v.u.s, want, n) == 0) {
    passed++;
    return;
  }
  failed++;
  if (v.type == TPL_STR)
    fprintf(stderr, "%s:%d: got \"%.*s\", want \"%s\"\n", file, line,
            (int)v.len, v.u.s, want);
  else
    fprintf(stderr, "%s:%d: got a value of type %d, want \"%s\"\n", file, line,
            v.type, want);
}

#endif
