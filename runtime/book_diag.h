/* Diagnostics of the book side: every module reports problems in the
 * book (config.yml, Markdown, templates, images) through one reporter, which
 * publish's main prints in gcc's form ("file:line:col: warning: message"),
 * counts, and turns into errors under --strict.
 *
 * file is the path as the user should read it, relative to the book folder
 * ("config.yml", "Contents/chapter1.md"); line and col are 1-based, 0 when
 * unknown (then they are left out of the message). */
#ifndef OCTAVO_BOOK_DIAG_H
#define OCTAVO_BOOK_DIAG_H

#include <stdarg.h>

typedef enum bk_severity { BK_NOTE, BK_WARNING, BK_ERROR } bk_severity;

typedef struct bk_reporter {
  void (*fn)(void *user, bk_severity sev, const char *file, unsigned line,
             unsigned col, const char *message);
  void *user;
} bk_reporter;

/* Formats the message and hands it to r->fn; does nothing when r or r->fn
 * is NULL. */
void bk_report(const bk_reporter *r, bk_severity sev, const char *file,
               unsigned line, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
void bk_vreport(const bk_reporter *r, bk_severity sev, const char *file,
                unsigned line, unsigned col, const char *fmt, va_list ap)
    __attribute__((format(printf, 6, 0)));

#endif
