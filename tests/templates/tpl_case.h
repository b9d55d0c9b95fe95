/* Reads one template test case in Twig's integration format (see README.md
 * here): --TEST--, --TEMPLATE--, --TEMPLATE(name)--, --DATA--, --CONFIG--,
 * --EXPECT--, --EXCEPTION--, --SKIP-ORACLE--.
 *
 * Ownership: tpl_case_load fills *c with malloc'd strings that
 * tpl_case_free releases; the case owns all of them. */
#ifndef OCTAVO_TPL_CASE_H
#define OCTAVO_TPL_CASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "oc_arena.h"

typedef struct tpl_case_template {
  char *name; /* "index.twig" for --TEMPLATE-- */
  char *source;
  size_t len;
} tpl_case_template;

typedef struct tpl_case {
  char *path;
  char *test; /* the one-line description */
  size_t ntemplates;
  tpl_case_template *templates;
  char *data;   /* JSON text or NULL */
  char *config; /* JSON text or NULL */
  char *expect; /* NULL unless --EXPECT-- */
  size_t expect_len;
  char *exception;   /* NULL unless --EXCEPTION-- */
  char *skip_oracle; /* reason or NULL */
} tpl_case;

/* What a case's --CONFIG-- sets. */
typedef struct tpl_case_config {
  int autoescape; /* a tpl_escape, or -1 for by name (Twig's 'name') */
  bool strict;    /* strict_variables */
  bool has_seed;  /* random_seed given */
  uint64_t seed;
  uint64_t max_iterations; /* the work budget (0: the default) */
  uint64_t max_output;     /* the output budget in bytes (0: the default) */
} tpl_case_config;

/* Reads c's --CONFIG-- (defaults when it has none), its strings in a.
 * Returns 0, or -1 with a message in err. */
int tpl_case_read_config(oc_arena *a, const tpl_case *c, tpl_case_config *cfg,
                         char *err, size_t errlen);

/* Returns 0, or -1 with a message in err. */
int tpl_case_load(const char *path, tpl_case *c, char *err, size_t errlen);
void tpl_case_free(tpl_case *c);

#endif
