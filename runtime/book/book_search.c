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

static char *attr_text(oc_arena *a, const char *v, size_t n);

static bool start_section(bk_search *s, const char *id, size_t n) {
  end_section(s);
  return si_section(s->x, attr_text(s->a, id, n));
}

/* Text goes to the title or the body, spaces collapsed. */
static void put_text(bk_search *s, const char *p, size_t n) {
  si_text(s->x, s->in_title, p, n);
}

static void put_space(bk_search *s) { put_text(s, " ", 1); }

/* The entity at p (after '&'): its UTF-8 text into out (*n bytes);
 * returns the bytes it took, 0 when it is not one (the '&' is text). */
static size_t decode_entity(const char *p, char out[8], size_t *n) {
  static const struct {
    const char *name, *text;
  } named[] = {{"amp;", "&"},   {"lt;", "<"},    {"gt;", ">"},
               {"quot;", "\""}, {"apos;", "'"},  {"nbsp;", " "},
               {"ndash;", "–"}, {"mdash;", "—"}, {"hellip;", "…"}};
  for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
    if (!strncmp(p, named[i].name, strlen(named[i].name))) {
      *n = strlen(named[i].text);
      memcpy(out, named[i].text, *n);
      return strlen(named[i].name);
    }
  if (*p != '#')
    return 0;
  bool hex = p[1] == 'x' || p[1] == 'X';
  const char *d = p + 1 + hex;
  uint32_t c = 0;
  size_t k = 0;
  for (; k < 8; k++) {
    int v = d[k] >= '0' && d[k] <= '9'          ? d[k] - '0'
            : hex && d[k] >= 'a' && d[k] <= 'f' ? d[k] - 'a' + 10
            : hex && d[k] >= 'A' && d[k] <= 'F' ? d[k] - 'A' + 10
                                                : -1;
    if (v < 0)
      break;
    c = c * (hex ? 16 : 10) + (uint32_t)v;
  }
  if (!k || d[k] != ';')
    return 0;
  if (c == 0 || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
    c = 0xfffd;
  *n = (size_t)utf8proc_encode_char((int32_t)c, (utf8proc_uint8_t *)out);
  return (size_t)(d + k - p) + 1;
}

static size_t put_entity(bk_search *s, const char *p) {
  char buf[8];
  size_t n, k = decode_entity(p, buf, &n);
  if (k)
    put_text(s, buf, n);
  return k;
}

/* An attribute's value as the browser reads it: entities decoded. */
static char *attr_text(oc_arena *a, const char *v, size_t n) {
  char *out = oc_arena_alloc(a, n + 1), *o = out;
  for (size_t i = 0; i < n;) {
    char buf[8];
    size_t m, k = v[i] == '&' ? decode_entity(v + i + 1, buf, &m) : 0;
    if (k && i + 1 + k <= n && m <= 1 + k) {
      memcpy(o, buf, m);
      o += m;
      i += 1 + k;
    } else {
      *o++ = v[i++];
    }
  }
  *o = 0;
  return out;
}

/* Where the tag at p ('<') ends: after its '>' (quotes respected), or at
 * the end of the string. */
static const char *tag_end(const char *p) {
  char q = 0;
  for (p++; *p; p++) {
    if (q) {
      if (*p == q)
        q = 0;
    } else if (*p == '"' || *p == '\'') {
      q = *p;
    } else if (*p == '>') {
      return p + 1;
    }
  }
  return p;
}

/* The value of attribute `name` in the tag [p, end), or NULL. */
static const char *attr(const char *p, const char *end, const char *name,
                        size_t *n) {
  size_t nl = strlen(name);
  for (const char *q = p; q + nl + 3 < end; q++)
    if ((q[0] == ' ' || q[0] == '\n') && !strncmp(q + 1, name, nl) &&
        q[nl + 1] == '=' && q[nl + 2] == '"') {
      const char *v = q + nl + 3, *e = memchr(v, '"', (size_t)(end - v));
      if (!e)
        return NULL;
      *n = (size_t)(e - v);
      return v;
    }
  return NULL;
}

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
  /* The title, read as HTML with the body's rules. */
  s->in_title = true;
  for (int part = 0; part < 2; part++) {
    const char *p = part ? html : title ? title : "";
    char heading = 0; /* the level of the heading being read, as a digit */
    while (*p) {
      if (*p == '&') {
        size_t k = open ? put_entity(s, p + 1) : 0;
        if (!k && open)
          put_text(s, "&", 1);
        p += 1 + k;
        continue;
      }
      if (*p != '<') {
        const char *q = p;
        while (*q && *q != '<' && *q != '&')
          q++;
        if (open)
          put_text(s, p, (size_t)(q - p));
        p = q;
        continue;
      }
      const char *end = tag_end(p);
      const char *name = p + 1 + (p[1] == '/');
      size_t nl = 0;
      while (name[nl] && name[nl] != ' ' && name[nl] != '>' &&
             name[nl] != '/' && name[nl] != '\n')
        nl++;
      bool closing = p[1] == '/';
      if (!closing && ((nl == 3 && !strncmp(name, "pre", 3)) ||
                       (nl == 6 && !strncmp(name, "script", 6)) ||
                       (nl == 5 && !strncmp(name, "style", 5)))) {
        /* Left out: code listings and what is not text. */
        char close[12];
        snprintf(close, sizeof close, "</%.*s", (int)nl, name);
        const char *q = strstr(end, close);
        p = q ? tag_end(q) : end + strlen(end);
        put_space(s);
        continue;
      }
      if (part && nl == 2 && name[0] == 'h' && name[1] >= '1' &&
          name[1] <= '6') {
        size_t idn = 0;
        const char *id = closing ? NULL : attr(p, end, "id", &idn);
        if (id && !heading) {
          open = start_section(s, id, idn);
          s->in_title = true;
          heading = name[1];
        } else if (closing && heading == name[1]) {
          s->in_title = false;
          heading = 0;
        } else {
          put_space(s);
        }
      } else if (!inline_tag(name, nl)) {
        put_space(s);
      }
      p = end;
    }
    s->in_title = false;
  }
  end_section(s);
}

char *bk_search_write(bk_search *s, size_t *len) {
  return si_write(s->x, len);
}

const char *bk_search_script(size_t *len) { return si_script(len); }
