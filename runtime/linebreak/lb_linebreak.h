/* Line break opportunities by Unicode's rules (UAX #14), through ICU's
 * line break iterator (octavo_linebreak, a leaf library: it links
 * octavo_base and ICU only). Its user is the PDF engine, which may not
 * link ICU: publish lends it lb_breaks as ts_engine_input.line_breaks.
 *
 * Ownership: an lb_breaker keeps one iterator open (ICU's rules are
 * slow to load), for the last language asked; lb_free closes it. One
 * per thread. Nothing here prints. */
#ifndef OCTAVO_LB_LINEBREAK_H
#define OCTAVO_LB_LINEBREAK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct lb_breaker lb_breaker;

lb_breaker *lb_new(void);
void lb_free(lb_breaker *lb);

/* ts_engine_input.line_breaks, user being an lb_breaker: brk[i] true
 * where ICU's line rules for lang (a BCP 47 tag, NULL or "" for none;
 * strict: the Japanese and Chinese line start and end prohibitions in
 * full) allow a break before cps[i]. Code points that are not scalar
 * values count as U+FFFD. False when n is 0 or ICU fails (brk is then
 * left as it was). */
bool lb_breaks(void *user, const char *lang, const uint32_t *cps, size_t n,
               bool *brk);

#endif
