/* HTML as tags and text (book_htmltext.h): a tokenizer after HTML's own
 * (start and end tags, attributes quoted or not, comments, raw text in
 * script and style), small enough to read Octavo's output and not to
 * trip on anything else. Named references come from libxml2's table. */
#include "book_htmltext.h"

#include <libxml/HTMLparser.h>
#include <stdint.h>
#include <string.h>
#include <utf8proc.h>

/* The longest name in HTML's table is 8 letters ("thetasym"); a longer
 * one is no reference, and the bound keeps the look-up cheap. */
#define REF_NAME_MAX 32

static bool is_space(char c) {
  return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f';
}

static bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_alnum(char c) { return is_alpha(c) || (c >= '0' && c <= '9'); }

static char lower(char c) {
  return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static bool same_name(const char *s, size_t n, const char *name) {
  size_t k = strlen(name);
  if (k != n)
    return false;
  for (size_t i = 0; i < n; i++)
    if (lower(s[i]) != lower(name[i]))
      return false;
  return true;
}

/* A code point's UTF-8; one that is no character (0, a surrogate, beyond
 * U+10FFFF) gives U+FFFD, as HTML reads it. */
static size_t put_utf8(uint32_t cp, char out[4]) {
  if (!cp || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    cp = 0xFFFD;
  return (size_t)utf8proc_encode_char((utf8proc_int32_t)cp,
                                      (utf8proc_uint8_t *)out);
}

size_t bk_ht_ref(const char *s, size_t n, char out[4], size_t *out_len) {
  if (n < 3 || s[0] != '&')
    return 0;
  if (s[1] == '#') {
    bool hex = s[2] == 'x' || s[2] == 'X';
    size_t i = hex ? 3 : 2, digits = 0;
    uint32_t cp = 0;
    for (; i < n; i++, digits++) {
      char c = s[i];
      int d = c >= '0' && c <= '9'                        ? c - '0'
              : hex && lower(c) >= 'a' && lower(c) <= 'f' ? lower(c) - 'a' + 10
                                                          : -1;
      if (d < 0)
        break;
      /* any number of digits; a value past Unicode stays past it */
      cp = cp > 0x10FFFF ? cp : cp * (hex ? 16 : 10) + (uint32_t)d;
    }
    if (!digits || i >= n || s[i] != ';')
      return 0;
    *out_len = put_utf8(cp, out);
    return i + 1;
  }
  char name[REF_NAME_MAX + 1];
  size_t k = 0;
  while (k < REF_NAME_MAX && 1 + k < n && is_alnum(s[1 + k])) {
    name[k] = s[1 + k];
    k++;
  }
  if (!k || 1 + k >= n || s[1 + k] != ';')
    return 0;
  name[k] = '\0';
  const htmlEntityDesc *e = htmlEntityLookup((const xmlChar *)name);
  /* libxml2 looks "&AMP;" up as "&amp;"; HTML's names are
     case-sensitive, and the table holds each as it is written. */
  if (!e || strcmp(e->name, name) != 0)
    return 0;
  *out_len = put_utf8(e->value, out);
  return k + 2;
}

void bk_ht_decode(const char *s, size_t n, oc_sb *out) {
  for (size_t i = 0; i < n;) {
    const char *amp = memchr(s + i, '&', n - i);
    size_t to = amp ? (size_t)(amp - s) : n;
    oc_sb_add(out, s + i, to - i);
    i = to;
    if (i == n)
      break;
    char buf[4];
    size_t m, took = bk_ht_ref(s + i, n - i, buf, &m);
    if (took) {
      oc_sb_add(out, buf, m);
      i += took;
    } else {
      oc_sb_addc(out, '&');
      i++;
    }
  }
}

/* ---- tags ------------------------------------------------------------ */

/* The attribute at or after i in s[0, n) (the inside of a start tag after
 * its name) into *a; returns where the next one may start. Done (false in
 * *more) at '>' or the end; *gt then says where the '>' is (n: none, the
 * tag is cut). */
static size_t attr_step(const char *s, size_t n, size_t i, bk_ht_attr *a,
                        bool *more, size_t *gt) {
  *more = false;
  while (i < n && (is_space(s[i]) || s[i] == '/'))
    i++;
  if (i >= n || s[i] == '>') {
    *gt = i;
    return i;
  }
  size_t name = i++;
  while (i < n && !is_space(s[i]) && s[i] != '/' && s[i] != '>' && s[i] != '=')
    i++;
  a->name = s + name;
  a->name_len = i - name;
  a->value = NULL;
  a->value_len = 0;
  size_t j = i;
  while (j < n && is_space(s[j]))
    j++;
  if (j < n && s[j] == '=') {
    j++;
    while (j < n && is_space(s[j]))
      j++;
    if (j < n && (s[j] == '"' || s[j] == '\'')) {
      const char *z = memchr(s + j + 1, s[j], n - j - 1);
      if (!z) { /* a quote never closed: the tag is cut */
        *gt = n;
        return n;
      }
      a->value = s + j + 1;
      a->value_len = (size_t)(z - a->value);
      i = (size_t)(z - s) + 1;
    } else {
      size_t v = j;
      while (j < n && !is_space(s[j]) && s[j] != '>')
        j++;
      a->value = s + v;
      a->value_len = j - v;
      i = j;
    }
  }
  *more = true;
  return i;
}

/* The start tag at s[i] == '<' (a letter follows): its name and end into
 * t; false when the input ends inside it. */
static bool read_start(const bk_htreader *r, size_t i, bk_ht_token *t) {
  const char *s = r->s;
  size_t n = r->len, k = i + 1;
  while (k < n && !is_space(s[k]) && s[k] != '/' && s[k] != '>')
    k++;
  t->name = s + i + 1;
  t->name_len = k - i - 1;
  bk_ht_attr a;
  bool more = true;
  size_t gt = n;
  while (more)
    k = attr_step(s, n, k, &a, &more, &gt);
  if (gt >= n)
    return false;
  t->kind = BK_HT_OPEN;
  t->at = i;
  t->end = gt + 1;
  t->empty = s[gt - 1] == '/' && gt - 1 > i + t->name_len;
  return true;
}

/* After a start tag of script or style: the text up to its end tag. */
static bool read_raw(bk_htreader *r, bk_ht_token *t) {
  const char *s = r->s;
  size_t n = r->len, i = r->pos, to = n;
  for (const char *p = s + i; (p = memchr(p, '<', (size_t)(s + n - p))); p++) {
    size_t at = (size_t)(p - s), e = at + 2 + r->raw_len;
    if (e <= n && p[1] == '/' && same_name(p + 2, r->raw_len, r->raw_name) &&
        (e == n || is_space(s[e]) || s[e] == '/' || s[e] == '>')) {
      to = at;
      break;
    }
  }
  r->raw_name = NULL;
  if (to == i)
    return false;
  *t = (bk_ht_token){.kind = BK_HT_TEXT,
                     .at = i,
                     .end = to,
                     .text = s + i,
                     .len = to - i,
                     .raw = true};
  r->pos = to;
  return true;
}

void bk_ht_init(bk_htreader *r, const char *s, size_t len) {
  *r = (bk_htreader){.s = len ? s : "", .len = len};
}

bool bk_ht_next(bk_htreader *r, bk_ht_token *t) {
  const char *s = r->s;
  size_t n = r->len;
  if (r->raw_name && read_raw(r, t))
    return true;
  *t = (bk_ht_token){.kind = BK_HT_END, .at = n, .end = n};
  size_t i = r->pos;
  if (i >= n)
    return false;
  if (s[i] == '&') {
    size_t took = bk_ht_ref(s + i, n - i, r->ref, &t->len);
    if (took) {
      t->kind = BK_HT_TEXT;
      t->at = i;
      t->end = i + took;
      t->text = r->ref;
      t->ref = true;
      r->pos = t->end;
      return true;
    }
  }
  if (s[i] == '<' && i + 1 < n) {
    char c = s[i + 1];
    if (is_alpha(c)) {
      if (!read_start(r, i, t)) {
        r->pos = n;
        return false;
      }
      r->pos = t->end;
      if (!t->empty && (bk_ht_is(t, "script") || bk_ht_is(t, "style"))) {
        r->raw_name = bk_ht_is(t, "script") ? "script" : "style";
        r->raw_len = strlen(r->raw_name);
      }
      return true;
    }
    if (n - i >= 9 && !memcmp(s + i, "<![CDATA[", 9)) {
      const char *z = NULL;
      for (const char *p = s + i + 9; (p = memchr(p, ']', (size_t)(s + n - p)));
           p++)
        if ((size_t)(s + n - p) >= 3 && !memcmp(p, "]]>", 3)) {
          z = p;
          break;
        }
      size_t to = z ? (size_t)(z - s) : n;
      *t = (bk_ht_token){.kind = BK_HT_TEXT,
                         .at = i,
                         .end = z ? to + 3 : n,
                         .text = s + i + 9,
                         .len = to - i - 9,
                         .raw = true};
      r->pos = t->end;
      return true;
    }
    if (n - i >= 4 && !memcmp(s + i, "<!--", 4)) {
      size_t to = n;
      for (const char *p = s + i + 4; (p = memchr(p, '-', (size_t)(s + n - p)));
           p++)
        if ((size_t)(s + n - p) >= 3 && !memcmp(p, "-->", 3)) {
          to = (size_t)(p - s) + 3;
          break;
        }
      *t = (bk_ht_token){.kind = BK_HT_OTHER, .at = i, .end = to};
      r->pos = to;
      return true;
    }
    if (c == '/' && i + 2 < n && is_alpha(s[i + 2])) {
      const char *gt = memchr(s + i, '>', n - i);
      if (!gt) {
        r->pos = n;
        return false;
      }
      size_t k = i + 2;
      while (s + k < gt && !is_space(s[k]) && s[k] != '/')
        k++;
      *t = (bk_ht_token){.kind = BK_HT_CLOSE,
                         .at = i,
                         .end = (size_t)(gt - s) + 1,
                         .name = s + i + 2,
                         .name_len = k - i - 2};
      r->pos = t->end;
      return true;
    }
    if (c == '!' || c == '?' || c == '/') { /* a doctype, or bogus */
      const char *gt = memchr(s + i, '>', n - i);
      size_t to = gt ? (size_t)(gt - s) + 1 : n;
      *t = (bk_ht_token){.kind = BK_HT_OTHER, .at = i, .end = to};
      r->pos = to;
      return true;
    }
  }
  /* text: to the next '<' or reference; a '<' or '&' that starts
     neither is text too */
  size_t k = i + 1;
  for (; k < n; k++) {
    if (s[k] == '<' && k + 1 < n &&
        (is_alpha(s[k + 1]) || s[k + 1] == '/' || s[k + 1] == '!' ||
         s[k + 1] == '?'))
      break;
    char ignored[4];
    size_t m;
    if (s[k] == '&' && bk_ht_ref(s + k, n - k, ignored, &m))
      break;
  }
  *t = (bk_ht_token){
      .kind = BK_HT_TEXT, .at = i, .end = k, .text = s + i, .len = k - i};
  r->pos = k;
  return true;
}

bool bk_ht_is(const bk_ht_token *t, const char *name) {
  return (t->kind == BK_HT_OPEN || t->kind == BK_HT_CLOSE) &&
         same_name(t->name, t->name_len, name);
}

bool bk_ht_attr_next(const bk_ht_token *t, size_t *pos, bk_ht_attr *a) {
  if (t->kind != BK_HT_OPEN)
    return false;
  /* the inside of the tag: after its name, to its '>' */
  const char *in = t->name + t->name_len;
  size_t n = t->end - t->at - 1 - 1 - t->name_len, gt;
  bool more;
  *pos = attr_step(in, n, *pos, a, &more, &gt);
  return more;
}

bool bk_ht_get_attr(const bk_ht_token *t, const char *name, oc_sb *out) {
  size_t pos = 0;
  bk_ht_attr a;
  while (bk_ht_attr_next(t, &pos, &a))
    if (same_name(a.name, a.name_len, name)) {
      if (a.value)
        bk_ht_decode(a.value, a.value_len, out);
      return true;
    }
  return false;
}
