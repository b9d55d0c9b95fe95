/* A temporary book folder for the fuzz targets that go through the book
 * model and the writers (fuzz_chapter, fuzz_image, fuzz_config): made once
 * per process, removed at exit, its files rewritten for each input.
 *
 * Editions are published as publish.c does it, minus the scripts and the
 * final rename: the writers' output goes to the temporary folder of
 * Output/ and is removed again. Fuzz targets must only publish editions
 * whose names and page names they chose, so that nothing is written
 * outside the folder before the path rule refuses such names. */
#ifndef OCTAVO_FUZZ_TMPBOOK_H
#define OCTAVO_FUZZ_TMPBOOK_H

#include <stddef.h>
#include <stdint.h>

#include "book.h"

/* What libFuzzer calls (a target defines both). */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The start of a config.yml: the book's strings and a cover item; the
 * target lists its other items and its editions. */
#define FZ_BOOK_HEAD                                                           \
  "book:\n"                                                                    \
  "  title: Fuzz\n"                                                            \
  "  author: A. Fuzzer\n"                                                      \
  "  language: en\n"                                                           \
  "  publication_date: '2024-01-01'\n"                                         \
  "  contents:\n"                                                              \
  "    - { element: cover }\n"

/* A 1x1 grey PNG, for the images chapters name as images/pic.png. */
extern const unsigned char fz_png1x1[67];

/* Counts what the reporter sees, for the fuzz targets' invariants. */
typedef struct fz_counts {
  unsigned errors, warnings;
} fz_counts;

/* A reporter that counts into *c and prints nothing (FUZZ_VERBOSE set in
 * the environment: prints to stderr, to read a crash's diagnostics). */
oc_reporter fz_reporter(fz_counts *c);

/* Makes the folder (under $TMPDIR or /tmp), canonical, removed at exit,
 * with config_yml as its config.yml when not NULL. Aborts when it
 * cannot. */
const char *fz_book_make(const char *config_yml);

/* Writes book/rel (folders created), replacing it. Aborts on failure. */
void fz_book_write(const char *book, const char *rel, const void *data,
                   size_t len);

/* Publishes edition `name` of cfg: init and items (FZ_MODEL), then
 * (FZ_WRITE) the writer of its format, html, epub or pdf, into a
 * temporary folder that is then removed. Returns 0, or -1 after errors were
 * reported; aborts when an edition fails without reporting an error. */
typedef enum fz_stage { FZ_MODEL, FZ_WRITE } fz_stage;
int fz_publish(bk_config *cfg, const char *book, const char *name,
               fz_stage stage, const oc_reporter *rep, const fz_counts *c);

/* Loads the book's config.yml (in an arena of its own, freed after: the
 * values it hands out live there) and publishes edition `name` as
 * fz_publish does, with fz_reporter; aborts when the config does not
 * load. */
void fz_load_publish(const char *book, const char *name, fz_stage stage);

#endif
