/* The website's search index, the book's side: the text of each page
 * read out of its HTML, split into sections at headings with ids, and
 * handed to the index (runtime/search, si_index.h), which stems, counts
 * and writes it. See book_search.h. */
#include "book_search.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "book_htmltext.h"
#include "oc_alloc.h"
#include "oc_arena.h"
#include "si_index.h"

/* One page being read: the index it goes to, and whether the text is a
 * heading's (the section's title) or the body's. */
typedef struct page_reader {
  si_index *x;
  bool in_title;
} page_reader;

/* Ends the current section (the index takes its text) and starts one. */
static bool start_section(page_reader *s, const char *id) {
  si_end(s->x);
  return si_section(s->x, id);
}

/* Text goes to the title or the body, spaces collapsed. */
static void put_text(page_reader *s, const char *p, size_t n) {
  si_text(s->x, s->in_title, p, n);
}

static void put_space(page_reader *s) { put_text(s, " ", 1); }

/* Tags that sit inside words ("<em>un</em>done"); any other tag is a
 * space between words. */
static bool inline_tag(const char *name, size_t n) {
  static const char *const tags[] = {
      "a",     "abbr", "b",      "code", "em",  "i",   "kbd", "mark", "s",
      "small", "span", "strong", "u",    "del", "ins", "var", "samp", NULL};
  for (const char *const *t = tags; *t; t++)
    if (strlen(*t) == n && !memcmp(*t, name, n))
      return true;
  return false;
}

void bk_search_add_page(si_index *x, const char *file, const char *title,
                        const char *html) {
  if (!si_page(x, file))
    return;
  page_reader reader = {x, false}, *s = &reader;
  bool open = start_section(s, "");
  oc_sb id;
  oc_sb_init(&id, NULL, 64);
  /* The title, read as HTML with the body's rules. */
  s->in_title = true;
  for (int part = 0; part < 2; part++) {
    const char *p = part ? html : title ? title : "";
    char heading = 0; /* the level of the heading being read, as a digit */
    const char *left_out = NULL; /* the element being left out */
    bk_htreader r;
    bk_ht_token t;
    bk_ht_init(&r, p, strlen(p));
    while (bk_ht_next(&r, &t)) {
      if (left_out) {
        if (t.kind == BK_HT_CLOSE && bk_ht_is(&t, left_out))
          left_out = NULL;
        continue;
      }
      if (t.kind == BK_HT_TEXT) {
        if (open)
          put_text(s, t.text, t.len);
        continue;
      }
      if (t.kind == BK_HT_OPEN &&
          (bk_ht_is(&t, "pre") || bk_ht_is(&t, "script") ||
           bk_ht_is(&t, "style"))) {
        /* Left out: code listings and what is not text. */
        left_out = bk_ht_is(&t, "pre")      ? "pre"
                   : bk_ht_is(&t, "script") ? "script"
                                            : "style";
        put_space(s);
        continue;
      }
      bool closing = t.kind == BK_HT_CLOSE;
      if (part && t.kind != BK_HT_OTHER && t.name_len == 2 &&
          t.name[0] == 'h' && t.name[1] >= '1' && t.name[1] <= '6') {
        id.len = 0;
        if (!closing && bk_ht_get_attr(&t, "id", &id) && !heading) {
          open = start_section(s, id.len ? oc_sb_cstr(&id) : "");
          s->in_title = true;
          heading = t.name[1];
        } else if (closing && heading == t.name[1]) {
          s->in_title = false;
          heading = 0;
        } else {
          put_space(s);
        }
      } else if (t.kind == BK_HT_OTHER || !inline_tag(t.name, t.name_len)) {
        put_space(s);
      }
    }
    s->in_title = false;
  }
  oc_sb_free(&id);
  si_end(x);
}
