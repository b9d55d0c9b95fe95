/* The book's one reader of HTML as text: a fragment or a page walked as
 * tags (name, attributes) and text with every character reference decoded,
 * each piece with its bytes in the input. Slugs, the search index and the
 * EPUB's printed-page markers read Octavo's own HTML through it. */
#ifndef OCTAVO_BOOK_HTMLTEXT_H
#define OCTAVO_BOOK_HTMLTEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "oc_sb.h"

typedef enum bk_ht_kind {
  BK_HT_END,   /* the input is over */
  BK_HT_TEXT,  /* characters */
  BK_HT_OPEN,  /* a start tag */
  BK_HT_CLOSE, /* an end tag */
  BK_HT_OTHER  /* a comment, a doctype, a processing instruction */
} bk_ht_kind;

/* One piece of the input. Its pointers point into the input or into the
 * reader, and hold until the next bk_ht_next. */
typedef struct bk_ht_token {
  bk_ht_kind kind;
  size_t at, end; /* the piece's bytes in the input: [at, end) */
  /* Text: the characters, decoded. A run without references is the
   * input's own bytes (len == end - at); a character reference is a token
   * of its own (ref), so that every byte of text knows where it came
   * from. The content of script and style, and a CDATA section, are text
   * as written (raw). */
  const char *text;
  size_t len;
  bool ref, raw;
  /* Tags: the name as written, and for a start tag whether it ends with
   * "/>" (empty); the attributes through bk_ht_attr_next. */
  const char *name;
  size_t name_len;
  bool empty;
} bk_ht_token;

/* The reader over len bytes of s (which it does not copy: s must outlive
 * it). It never fails: broken markup is read as a browser would roughly
 * read it (a '<' that starts no tag is text, a tag or comment cut by the
 * end of the input is dropped), in time linear in len. */
typedef struct bk_htreader {
  const char *s;
  size_t len, pos;
  const char *raw_name; /* after <script> or <style>: the end tag awaited */
  size_t raw_len;
  char ref[4]; /* a decoded reference's UTF-8 */
} bk_htreader;

void bk_ht_init(bk_htreader *r, const char *s, size_t len);
/* The next piece into *t; false (and t->kind BK_HT_END) at the end. */
bool bk_ht_next(bk_htreader *r, bk_ht_token *t);

/* True when the tag's name is `name` (ASCII letters compared without
 * case, as HTML does). */
bool bk_ht_is(const bk_ht_token *t, const char *name);

/* A start tag's attributes one by one: *pos starts at 0; the name and the
 * value as written (value NULL when the attribute has none), false after
 * the last. */
typedef struct bk_ht_attr {
  const char *name, *value;
  size_t name_len, value_len;
} bk_ht_attr;
bool bk_ht_attr_next(const bk_ht_token *t, size_t *pos, bk_ht_attr *a);

/* The decoded value of the start tag's attribute `name` (ASCII case
 * ignored) appended to out (an empty one when it has no value); false,
 * and out untouched, when the tag has no such attribute. */
bool bk_ht_get_attr(const bk_ht_token *t, const char *name, oc_sb *out);

/* Appends n bytes of s to out with their character references decoded. */
void bk_ht_decode(const char *s, size_t n, oc_sb *out);

/* The character reference at s[0] == '&' (n bytes available): its UTF-8
 * into out (1 to 4 bytes, *out_len) and the bytes it takes, or 0 when it
 * is no reference (the '&' is text). Named ones are HTML's (libxml2's
 * table), numeric ones any code point; one that is none (0, a surrogate,
 * beyond U+10FFFF) gives U+FFFD. A reference ends with ';'. */
size_t bk_ht_ref(const char *s, size_t n, char out[4], size_t *out_len);

#endif
