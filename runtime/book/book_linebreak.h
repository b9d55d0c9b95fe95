/* Line break opportunities by Unicode's rules (UAX #14), through ICU's
 * line break iterator, for the PDF engine, which may not link ICU
 * (ts_engine_input.line_breaks): the book side lends it this one.
 *
 * Ownership: a bk_linebreaker keeps one iterator open (ICU's rules are
 * slow to load), for the last language asked; bk_linebreaker_free closes
 * it. One per thread. */
#ifndef OCTAVO_BOOK_LINEBREAK_H
#define OCTAVO_BOOK_LINEBREAK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct bk_linebreaker bk_linebreaker;

bk_linebreaker *bk_linebreaker_new(void);
void bk_linebreaker_free(bk_linebreaker *lb);

/* ts_engine_input.line_breaks, user being a bk_linebreaker: brk[i] true
 * where ICU's line rules for lang (strict: the Japanese and Chinese line
 * start and end prohibitions in full) allow a break before cps[i]. False
 * when ICU fails (brk is then left as it was). */
bool bk_line_breaks(void *user, const char *lang, const uint32_t *cps, size_t n,
                    bool *brk);

#endif
