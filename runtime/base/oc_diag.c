/* The reporter every book module writes its problems to. */
#include "oc_diag.h"

#include <stdio.h>

void oc_vreport(const oc_reporter *r, oc_severity sev, const char *file,
                unsigned line, unsigned col, const char *fmt, va_list ap) {
  if (!r || !r->fn)
    return;
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  r->fn(r->user, sev, file, line, col, msg);
}

void oc_report(const oc_reporter *r, oc_severity sev, const char *file,
               unsigned line, unsigned col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  oc_vreport(r, sev, file, line, col, fmt, ap);
  va_end(ap);
}
