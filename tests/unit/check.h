/* The checks every unit test shares: the counters, CHECK and CHECK_STR
 * (strings compared whole, both shown on a mismatch; check_value.h makes it
 * take template values instead). A test program includes this once and
 * prints `name: N passed, N failed`. */
#ifndef OCTAVO_TESTS_CHECK_H
#define OCTAVO_TESTS_CHECK_H

#include <stdio.h>
#include <string.h>

static int passed, failed;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (cond) {                                                                \
      passed++;                                                                \
    } else {                                                                   \
      failed++;                                                                \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

static inline void check_str(const char *file, int line, const char *got,
                             const char *want) {
  if (got && strcmp(got, want) == 0) {
    passed++;
    return;
  }
  failed++;
  fprintf(stderr, "%s:%d: got\n%s\n---- want\n%s\n----\n", file, line,
          got ? got : "(null)", want);
}
#ifndef CHECK_STR
#define CHECK_STR(got, want) check_str(__FILE__, __LINE__, (got), (want))
#endif

#endif
