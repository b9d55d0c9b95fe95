/* The reporter every book module writes its problems to. */
#include "oc_diag.h"

#include <stdio.h>
#include <stdlib.h>

#include "oc_path.h"

void oc_vreport(const oc_reporter *r, oc_severity sev, const char *file,
                unsigned line, unsigned col, const char *fmt, va_list ap) {
  if (!r || !r->fn)
    return;
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  /* Messages echo the book's strings (edition names, paths, ids): what a
   * terminal would act on (escape sequences, invalid UTF-8) is shown
   * escaped, whoever prints the message. */
  oc_sb m, f;
  oc_sb_init(&m, NULL, sizeof msg);
  oc_sb_add_printable(&m, msg, strlen(msg));
  oc_sb_init(&f, NULL, 64);
  if (file)
    oc_sb_add_printable(&f, file, strlen(file));
  r->fn(r->user, sev, file ? oc_sb_cstr(&f) : NULL, line, col, oc_sb_cstr(&m));
  oc_sb_free(&m);
  oc_sb_free(&f);
}

void oc_report(const oc_reporter *r, oc_severity sev, const char *file,
               unsigned line, unsigned col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  oc_vreport(r, sev, file, line, col, fmt, ap);
  va_end(ap);
}
