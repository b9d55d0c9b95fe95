/* Diagnostics: every module reports problems in the
 * book (config.yml, Markdown, templates, images) through one reporter, which
 * publish's main prints in gcc's form ("file:line:col: warning: message"),
 * counts, and turns into errors under --strict.
 *
 * file is the path as the user should read it, relative to the book folder
 * ("config.yml", "Contents/chapter1.md"); line and col are 1-based, 0 when
 * unknown (then they are left out of the message). The message and the
 * file reach r->fn made printable (oc_sb_add_printable): a book's strings
 * echoed in a message cannot drive the terminal. */
#ifndef OCTAVO_OC_DIAG_H
#define OCTAVO_OC_DIAG_H

#include <stdarg.h>

typedef enum oc_severity { OC_NOTE, OC_WARNING, OC_ERROR } oc_severity;

typedef struct oc_reporter {
  void (*fn)(void *user, oc_severity sev, const char *file, unsigned line,
             unsigned col, const char *message);
  void *user;
} oc_reporter;

/* Formats the message and hands it to r->fn; does nothing when r or r->fn
 * is NULL. */
void oc_report(const oc_reporter *r, oc_severity sev, const char *file,
               unsigned line, unsigned col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
void oc_vreport(const oc_reporter *r, oc_severity sev, const char *file,
                unsigned line, unsigned col, const char *fmt, va_list ap)
    __attribute__((format(printf, 6, 0)));

#endif
