/* Confinement of publish (book_sandbox.c): before it reads the book, the
 * process gives up every access a book never needs, so that a path bug
 * that slips past book_fs's checks is refused by the kernel (Landlock,
 * through oc_sandbox.h). docs/design.md, "Confinement", has the rules. */
#ifndef OCTAVO_BOOK_SANDBOX_H
#define OCTAVO_BOOK_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>

/* Confines the process to reading the book (book_dir: canonical,
 * absolute), the theme folder of publish --theme (canonical, or NULL),
 * the nimports config.yml files the book imports (bk_config_imports: those
 * files alone, not their folders) and the system folders publishing reads (shared libraries,
 * fonts and fontconfig, hyphenation, ICU, locales, time zones, colour
 * profiles, the files of /etc those read), and to writing in BOOK/Output
 * only, which it creates first when `publishing` (false: --list, which
 * writes nothing). With
 * `scripts`, the shell runner for before_publish and after_publish
 * (oc_shell.h) is started first, so scripts run unconfined.
 * Returns the Landlock ABI used, or 0 when the process is left as it was,
 * with why (a sentence without a final period) in why[0..nwhy). */
int bk_sandbox_enter(const char *book_dir, const char *theme_dir,
                     const char *const *imports, size_t nimports,
                     bool publishing, bool scripts, char *why, size_t nwhy);

#endif
