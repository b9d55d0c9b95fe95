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

struct bk_search {
  si_index *x;
  oc_arena *a; /* the sections' ids, entities decoded */
  bool in_title;
};

bk_search *bk_search_new(const char *language) {
  bk_search *s = oc_calloc(1, sizeof *s);
  s->x = si_new(language);
  s->a = oc_arena_new();
  return s;
}

void bk_search_free(bk_search *s) {
  if (!s)
    return;
  si_free(s->x);
  oc_arena_free(s->a);
  free(s);
}

const char *bk_search_stemmer(const bk_search *s) {
  return si_stemmer(s->x);
}

size_t bk_search_dropped(const bk_search *s) { return si_dropped(s->x); }

/* ---- pages ---------------------------------------------------------- */

/* Ends the current section: the index takes its text. */
static void end_section(bk_search *s) { si_end(s->x); }

static bool start_section(bk_search *s, const char *id, size_t n) {
  end_section(s);
  return si_section(s->x, oc_arena_strndup(s->a, id, n));
}

/* Text goes to the title or the body, spaces collapsed. */
static void put_text(bk_search *s, const char *p, size_t n) {
  si_text(s->x, s->in_title, p, n);
}

static void put_space(bk_search *s) { put_text(s, " ", 1); }

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

void bk_search_add_page(bk_search *s, const char *file, const char *title,
                        const char *html) {
  if (!si_page(s->x, file))
    return;
  bool open = start_section(s, "", 0);
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
          open = start_section(s, id.p ? id.p : "", id.len);
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
  end_section(s);
}

char *bk_search_write(bk_search *s, size_t *len) {
  return si_write(s->x, len);
}

const char *bk_search_script(size_t *len) { return si_script(len); }
