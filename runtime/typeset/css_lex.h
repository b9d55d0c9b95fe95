/* The CSS tokenizer's state, shared by css_lexer.re and css_parse.c only:
 * the parser pulls the tokens of one top-level rule at a time into a
 * buffer it reuses, so that a sheet's tokens are never all held at once. */
#ifndef OCTAVO_CSS_LEX_H
#define OCTAVO_CSS_LEX_H

#include "css.h"

typedef struct css_lx {
  oc_arena *a;            /* the token texts */
  const unsigned char *s; /* NUL-terminated copy, in the arena */
  size_t len;
  const char *file;
  const oc_reporter *rep; /* NULL: problems are not reported */
  bool keep;              /* false: only report, keeping no token */
  bool done;              /* the EOF token is pushed */
  size_t cur;             /* where lexing goes on */
  size_t line_start;      /* offset of the current line's first byte */
  uint32_t line;
  css_token *toks; /* on the heap (css_lx_free) */
  size_t n, cap;
} css_lx;

/* Copies src into the arena and starts at its beginning, keeping tokens. */
void css_lx_init(css_lx *L, oc_arena *a, const char *src, size_t len,
                 const char *file, const oc_reporter *rep);
/* Back to the beginning of the sheet, the buffer emptied. */
void css_lx_rewind(css_lx *L);
/* Lexes on (appending to toks) until toks holds want tokens besides the
 * EOF; false when the sheet ends first (toks[n - 1] is then the EOF). */
bool css_lx_more(css_lx *L, size_t want);
void css_lx_free(css_lx *L);

#endif
