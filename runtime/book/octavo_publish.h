/* The publish command as a function, for the programs that are publish:
 * Octavo's own (publish_bundled.c) and the themed ones `themec build`
 * writes, which add their themes to the bundled ones. Installed under
 * include/octavo/ with tpl_rt.h, which defines tpl_theme. */
#ifndef OCTAVO_PUBLISH_H
#define OCTAVO_PUBLISH_H

#include <stddef.h>

#include "tpl_rt.h"

/* Runs publish with argv: themes (nthemes of them, may be NULL) are added
 * to the bundled ones and hide those of the same name; default_theme is
 * the theme of editions without `theme:` (NULL: clean). Returns the exit
 * status: 0 success, 1 a problem in the book, 2 bad usage. */
int octavo_publish_main(int argc, char **argv, const tpl_theme *themes,
                        size_t nthemes, const char *default_theme);

#endif
