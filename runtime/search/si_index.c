/* The website's search index: see si_index.h, and docs/design.md
 * ("Search on the website") for the format. Text comes in already read
 * out of the pages, section by section; it is tokenised (utf8proc:
 * letters, marks, digits and `_`; Han and kana by characters and pairs),
 * lower-cased, stemmed, and each term's sections are kept in order. */
#include "si_index.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libstemmer.h>
#include <utf8proc.h>
#include <zlib.h>

#include "oc_alloc.h"
#include "oc_arena.h"
#include "oc_hash.h"
#include "oc_sb.h"

/* Caps: a hostile book makes a large index, not an unbounded one. */
enum {
  MAX_TERMS = 200000,     /* distinct stems */
  MAX_FORMS = 400000,     /* distinct surface forms remembered */
  MAX_POSTINGS = 4000000, /* (term, section) pairs */
  MAX_SECTIONS = 100000,  /* sections in the book */
  MAX_WORD = 64,          /* bytes; longer tokens are not words */
  FORMS_PER_TERM = 6,     /* surface forms kept per stem */
  TITLE_MAX = 200,        /* code points of a section's title */
};

typedef struct posting {
  uint32_t sec;
  uint16_t tf;
  uint8_t title;
} posting;

typedef struct term {
  const char *key; /* the stem */
  const char *forms[FORMS_PER_TERM];
  uint8_t nforms;
  posting *post;
  size_t npost, cpost;
} term;

/* A string → index table, open addressing; keys live in the arena. */
typedef struct slot {
  const char *key;
  size_t len;
  uint32_t val;
} slot;
typedef struct strtab {
  slot *slots;
  size_t cap, n; /* cap a power of two, or 0 */
} strtab;

typedef struct section {
  uint32_t page;
  const char *id, *title;
} section;

struct si_index {
  oc_arena *a;
  struct sb_stemmer *stemmer;
  const char *stemmer_name;
  const char **pages;
  size_t npages, cpages;
  section *secs;
  size_t nsecs, csecs;
  term *terms;
  size_t nterms, cterms;
  strtab by_stem, by_form; /* stem → term; surface form → term */
  size_t npostings, dropped;
  oc_sb text, title; /* the current section's text and title */
  bool pending;      /* the last section has text not indexed yet */
  /* every section's text, deflated as the sections end (raw deflate,
     sections separated by U+001F), for the passages shown with results */
  z_stream z;
  bool z_ok;
  oc_sb packed;
};

/* ---- the string table ----------------------------------------------- */

static slot *tab_find(strtab *t, const char *k, size_t n) {
  if (!t->cap)
    return NULL;
  size_t i = (size_t)oc_hash_bytes(OC_HASH_SEED, k, n) & (t->cap - 1);
  for (;; i = (i + 1) & (t->cap - 1)) {
    slot *s = &t->slots[i];
    if (!s->key || (s->len == n && !memcmp(s->key, k, n)))
      return s;
  }
}

static void tab_put(strtab *t, const char *k, size_t n, uint32_t val) {
  if ((t->n + 1) * 2 > t->cap) {
    strtab bigger = {oc_calloc(t->cap ? t->cap * 2 : 64, sizeof(slot)),
                     t->cap ? t->cap * 2 : 64, 0};
    for (size_t i = 0; i < t->cap; i++)
      if (t->slots[i].key)
        *tab_find(&bigger, t->slots[i].key, t->slots[i].len) = t->slots[i];
    bigger.n = t->n;
    free(t->slots);
    *t = bigger;
  }
  slot *s = tab_find(t, k, n);
  if (!s->key)
    t->n++;
  *s = (slot){k, n, val};
}

static bool tab_get(strtab *t, const char *k, size_t n, uint32_t *val) {
  slot *s = tab_find(t, k, n);
  if (!s || !s->key)
    return false;
  *val = s->val;
  return true;
}

/* ---- setting up ----------------------------------------------------- */

si_index *si_new(const char *language) {
  si_index *s = oc_calloc(1, sizeof *s);
  s->a = oc_arena_new();
  oc_sb_init(&s->text, NULL, 4096);
  oc_sb_init(&s->title, NULL, 256);
  oc_sb_init(&s->packed, NULL, 1 << 16);
  s->z_ok =
      deflateInit2(&s->z, 4, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) == Z_OK;
  /* "pt_BR", "en-GB" → "pt", "en"; libstemmer knows ISO 639 codes and
   * its own names ("english"). */
  char code[32] = "";
  size_t n = 0;
  for (const char *p = language ? language : "";
       *p && *p != '_' && *p != '-' && n + 1 < sizeof code; p++)
    code[n++] = (char)((*p >= 'A' && *p <= 'Z') ? *p + 32 : *p);
  code[n] = 0;
  if (n && strcmp(code, "porter") != 0)
    s->stemmer = sb_stemmer_new(code, "UTF_8");
  if (s->stemmer) {
    /* The algorithm's own name, for the index and messages. */
    static const char *const codes[][2] = {
        {"ar", "arabic"},    {"hy", "armenian"},   {"eu", "basque"},
        {"ca", "catalan"},   {"da", "danish"},     {"nl", "dutch"},
        {"en", "english"},   {"fi", "finnish"},    {"fr", "french"},
        {"de", "german"},    {"el", "greek"},      {"hi", "hindi"},
        {"hu", "hungarian"}, {"id", "indonesian"}, {"ga", "irish"},
        {"it", "italian"},   {"lt", "lithuanian"}, {"ne", "nepali"},
        {"no", "norwegian"}, {"nb", "norwegian"},  {"pt", "portuguese"},
        {"ro", "romanian"},  {"ru", "russian"},    {"sr", "serbian"},
        {"es", "spanish"},   {"sv", "swedish"},    {"ta", "tamil"},
        {"tr", "turkish"},   {"yi", "yiddish"}};
    s->stemmer_name = oc_arena_strndup(s->a, code, n);
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
      if (!strcmp(codes[i][0], code))
        s->stemmer_name = codes[i][1];
  }
  return s;
}

void si_free(si_index *s) {
  if (!s)
    return;
  if (s->stemmer)
    sb_stemmer_delete(s->stemmer);
  free(s->by_stem.slots);
  free(s->by_form.slots);
  oc_sb_free(&s->text);
  oc_sb_free(&s->title);
  oc_sb_free(&s->packed);
  if (s->z_ok)
    deflateEnd(&s->z);
  oc_arena_free(s->a);
  free(s);
}

const char *si_stemmer(const si_index *s) { return s->stemmer_name; }

size_t si_dropped(const si_index *s) { return s->dropped; }

/* ---- tokens --------------------------------------------------------- */

/* Han and kana: no spaces between words, so indexed by characters and
 * pairs. search.js tests the same ranges. */
static bool is_cjk(int32_t c) {
  return (c >= 0x3040 && c <= 0x30ff) || (c >= 0x31f0 && c <= 0x31ff) ||
         (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) ||
         (c >= 0xf900 && c <= 0xfaff) || (c >= 0xff66 && c <= 0xff9f) ||
         (c >= 0x20000 && c <= 0x3ffff);
}

/* Letters, marks, digits and connector punctuation make words, as
 * search.js's /[\p{L}\p{M}\p{N}\p{Pc}]/u. */
static bool is_word(int32_t c) {
  switch (utf8proc_category(c)) {
  case UTF8PROC_CATEGORY_LU:
  case UTF8PROC_CATEGORY_LL:
  case UTF8PROC_CATEGORY_LT:
  case UTF8PROC_CATEGORY_LM:
  case UTF8PROC_CATEGORY_LO:
  case UTF8PROC_CATEGORY_MN:
  case UTF8PROC_CATEGORY_MC:
  case UTF8PROC_CATEGORY_ME:
  case UTF8PROC_CATEGORY_ND:
  case UTF8PROC_CATEGORY_NL:
  case UTF8PROC_CATEGORY_NO:
  case UTF8PROC_CATEGORY_PC:
    return true;
  default:
    return false;
  }
}

static void add_posting(si_index *s, term *t, bool title) {
  uint32_t sec = (uint32_t)(s->nsecs - 1);
  if (t->npost && t->post[t->npost - 1].sec == sec) {
    posting *p = &t->post[t->npost - 1];
    if (p->tf < UINT16_MAX)
      p->tf++;
    p->title |= title;
    return;
  }
  if (s->npostings >= MAX_POSTINGS) {
    s->dropped++;
    return;
  }
  t->post = oc_arena_grow_array(s->a, t->post, t->npost, &t->cpost,
                                t->npost + 1, sizeof *t->post);
  t->post[t->npost++] = (posting){sec, 1, title};
  s->npostings++;
}

/* The term of a stem, made when new (NULL past the cap). */
static term *term_of(si_index *s, const char *stem, size_t n) {
  uint32_t ti;
  if (tab_get(&s->by_stem, stem, n, &ti))
    return &s->terms[ti];
  if (s->nterms >= MAX_TERMS)
    return NULL;
  s->terms = oc_arena_grow_array(s->a, s->terms, s->nterms, &s->cterms,
                                 s->nterms + 1, sizeof *s->terms);
  term *t = &s->terms[s->nterms];
  memset(t, 0, sizeof *t);
  t->key = oc_arena_strndup(s->a, stem, n);
  tab_put(&s->by_stem, t->key, n, (uint32_t)s->nterms);
  s->nterms++;
  return t;
}

/* A lower-cased word (NFC): its stem's term gets the section, and the
 * form is remembered under the stem for the browser's lookup. */
static void add_word(si_index *s, const char *w, size_t n, bool stem,
                     bool title) {
  uint32_t ti;
  if (tab_get(&s->by_form, w, n, &ti)) {
    add_posting(s, &s->terms[ti], title);
    return;
  }
  const char *st = w;
  size_t sn = n;
  if (stem && s->stemmer) {
    st =
        (const char *)sb_stemmer_stem(s->stemmer, (const sb_symbol *)w, (int)n);
    sn = st ? (size_t)sb_stemmer_length(s->stemmer) : 0;
    if (!st || !sn)
      st = w, sn = n;
  }
  term *t = term_of(s, st, sn);
  if (!t) {
    s->dropped++;
    return;
  }
  if (s->by_form.n < MAX_FORMS) {
    const char *form = oc_arena_strndup(s->a, w, n);
    tab_put(&s->by_form, form, n, (uint32_t)(t - s->terms));
    if ((sn != n || memcmp(st, w, n)) && t->nforms < FORMS_PER_TERM)
      t->forms[t->nforms++] = form;
  }
  add_posting(s, t, title);
}

/* Lower-cases (and composes) bytes [p, p+n) of valid words into buf. */
static size_t fold(const char *p, size_t n, char *buf, size_t cap) {
  size_t o = 0;
  bool ascii = true;
  for (size_t i = 0; i < n;) {
    utf8proc_int32_t c;
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)p + i,
                                          (utf8proc_ssize_t)(n - i), &c);
    if (k <= 0)
      break;
    i += (size_t)k;
    c = utf8proc_tolower(c);
    if (c >= 0x80)
      ascii = false;
    if (o + 4 >= cap)
      return 0;
    o += (size_t)utf8proc_encode_char(c, (utf8proc_uint8_t *)buf + o);
  }
  buf[o] = 0;
  if (ascii)
    return o;
  utf8proc_uint8_t *nfc = utf8proc_NFC((const utf8proc_uint8_t *)buf);
  if (!nfc)
    return o;
  size_t m = strlen((const char *)nfc);
  if (m < cap) {
    memcpy(buf, nfc, m + 1);
    o = m;
  }
  free(nfc);
  return o;
}

static size_t count_cps(const char *p, size_t n) {
  size_t c = 0;
  for (size_t i = 0; i < n; i++)
    c += ((unsigned char)p[i] & 0xc0) != 0x80;
  return c;
}

/* Every word of text (NUL-terminated UTF-8, valid or not). */
static void index_text(si_index *s, const char *text, size_t len, bool title) {
  char buf[MAX_WORD * 2 + 8];
  size_t i = 0;
  int32_t prev_cjk = -1; /* the previous Han or kana character, or -1 */
  while (i < len) {
    utf8proc_int32_t c;
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)text + i,
                                          (utf8proc_ssize_t)(len - i), &c);
    if (k <= 0) {
      i++;
      prev_cjk = -1;
      continue;
    }
    if (is_cjk(c)) {
      char one[8];
      size_t n1 = (size_t)utf8proc_encode_char(c, (utf8proc_uint8_t *)one);
      add_word(s, one, n1, false, title);
      if (prev_cjk >= 0) {
        char two[8];
        size_t n2 =
            (size_t)utf8proc_encode_char(prev_cjk, (utf8proc_uint8_t *)two);
        memcpy(two + n2, one, n1);
        add_word(s, two, n2 + n1, false, title);
      }
      prev_cjk = c;
      i += (size_t)k;
      continue;
    }
    prev_cjk = -1;
    if (!is_word(c)) {
      i += (size_t)k;
      continue;
    }
    size_t start = i;
    bool letter = false;
    while (i < len) {
      k = utf8proc_iterate((const utf8proc_uint8_t *)text + i,
                           (utf8proc_ssize_t)(len - i), &c);
      if (k <= 0 || is_cjk(c) || !is_word(c))
        break;
      utf8proc_category_t cat = utf8proc_category(c);
      letter |= cat >= UTF8PROC_CATEGORY_LU && cat <= UTF8PROC_CATEGORY_LO;
      i += (size_t)k;
    }
    /* One letter or digit finds everything and nothing: left out, as
     * search.js leaves it out of queries. */
    if (i - start > MAX_WORD || count_cps(text + start, i - start) < 2)
      continue;
    size_t n = fold(text + start, i - start, buf, sizeof buf);
    if (n)
      add_word(s, buf, n, letter, title);
  }
}

/* ---- pages ---------------------------------------------------------- */

/* The first `max` code points of text, cut after a word when one ends in
 * the last fifth. */
static const char *clip(oc_arena *a, const char *text, size_t len, size_t max) {
  size_t i = 0, cps = 0, cut = 0;
  while (i < len && cps < max) {
    if (text[i] == ' ')
      cut = i;
    i++;
    while (i < len && ((unsigned char)text[i] & 0xc0) == 0x80)
      i++;
    cps++;
  }
  if (i < len && cut > i - i / 5)
    i = cut;
  while (i && text[i - 1] == ' ')
    i--;
  return oc_arena_strndup(a, text, i);
}

/* Deflates n bytes of p into s->packed (flush: Z_NO_FLUSH, or Z_FINISH
 * at the end). The text is the pages' own, which the caller already
 * holds whole: no cap of its own. */
static void pack(si_index *s, const char *p, size_t n, int flush) {
  enum { CHUNK = 1 << 14 };
  if (!s->z_ok)
    return;
  s->z.next_in = (Bytef *)p;
  s->z.avail_in = (uInt)n;
  int rc;
  do {
    oc_sb_reserve(&s->packed, CHUNK);
    s->z.next_out = (Bytef *)s->packed.p + s->packed.len;
    s->z.avail_out = CHUNK;
    rc = deflate(&s->z, flush);
    s->packed.len += CHUNK - s->z.avail_out;
  } while (rc == Z_OK && (s->z.avail_out == 0 || flush == Z_FINISH));
  if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
    s->z_ok = false;
}

/* Ends the current section: its words indexed, its title kept, its text
 * packed. */
static void end_section(si_index *s) {
  if (!s->pending)
    return;
  s->pending = false;
  section *sec = &s->secs[s->nsecs - 1];
  index_text(s, s->title.p ? s->title.p : "", s->title.len, true);
  index_text(s, s->text.p ? s->text.p : "", s->text.len, false);
  if (!sec->title)
    sec->title =
        clip(s->a, s->title.p ? s->title.p : "", s->title.len, TITLE_MAX);
  while (s->text.len && s->text.p[s->text.len - 1] == ' ')
    s->text.len--;
  if (s->nsecs > 1)
    pack(s, "\x1f", 1, Z_NO_FLUSH);
  pack(s, s->text.p ? s->text.p : "", s->text.len, Z_NO_FLUSH);
  s->text.len = s->title.len = 0;
}

bool si_page(si_index *s, const char *file) {
  end_section(s);
  if (s->nsecs >= MAX_SECTIONS) {
    s->dropped++;
    return false;
  }
  s->pages = oc_arena_grow_array(s->a, s->pages, s->npages, &s->cpages,
                                 s->npages + 1, sizeof *s->pages);
  s->pages[s->npages++] = oc_arena_strndup(s->a, file, strlen(file));
  return true;
}

bool si_section(si_index *s, const char *id) {
  end_section(s);
  if (!s->npages)
    return false;
  if (s->nsecs >= MAX_SECTIONS) {
    s->dropped++;
    return false;
  }
  s->secs = oc_arena_grow_array(s->a, s->secs, s->nsecs, &s->csecs,
                                s->nsecs + 1, sizeof *s->secs);
  s->secs[s->nsecs++] = (section){(uint32_t)(s->npages - 1),
                                  oc_arena_strndup(s->a, id, strlen(id)), NULL};
  s->pending = true;
  return true;
}

/* Text goes to the title or the body, spaces collapsed. */
void si_text(si_index *s, bool title, const char *p, size_t n) {
  if (!s->pending)
    return;
  oc_sb *b = title ? &s->title : &s->text;
  for (size_t i = 0; i < n; i++) {
    char c = p[i];
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      if (b->len && b->p[b->len - 1] != ' ')
        oc_sb_addc(b, ' ');
    } else {
      oc_sb_addc(b, c);
    }
  }
}

void si_end(si_index *s) { end_section(s); }

/* ---- writing -------------------------------------------------------- */

/* A JSON string that is also safe in a script and in HTML: quotes,
 * backslashes and controls escaped, and <, >, &, U+2028, U+2029;
 * invalid UTF-8 becomes U+FFFD. */
static void put_js_chars(oc_sb *b, const char *p, size_t n) {
  for (size_t i = 0; i < n;) {
    utf8proc_int32_t c;
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)p + i,
                                          (utf8proc_ssize_t)(n - i), &c);
    if (k <= 0) {
      oc_sb_adds(b, "\\ufffd");
      i++;
      continue;
    }
    if (c == '"' || c == '\\') {
      oc_sb_addc(b, '\\');
      oc_sb_addc(b, (char)c);
    } else if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x2028 ||
               c == 0x2029) {
      oc_sb_printf(b, "\\u%04x", (unsigned)c);
    } else {
      oc_sb_add(b, p + i, (size_t)k);
    }
    i += (size_t)k;
  }
}

static void put_js_string(oc_sb *b, const char *p, size_t n) {
  oc_sb_addc(b, '"');
  put_js_chars(b, p, n);
  oc_sb_addc(b, '"');
}

/* Postings as a string of base-32 digits: a number's last digit from
 * LAST, the ones before from MORE. Each number is the section's distance
 * from the previous one times four, plus 2 for a title, plus 1 when the
 * word is there three times or more. */
static const char LAST[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef";
static const char MORE[] = "ghijklmnopqrstuvwxyz0123456789+/";

static void put_number(oc_sb *b, uint64_t v) {
  char d[16];
  size_t n = 0;
  d[n++] = LAST[v & 31];
  for (v >>= 5; v; v >>= 5)
    d[n++] = MORE[v & 31];
  while (n)
    oc_sb_addc(b, d[--n]);
}

/* Base64 (RFC 4648, padded): what a script's string can carry of the
 * deflated texts, and what the browser's atob reads. */
static void put_base64(oc_sb *b, const unsigned char *p, size_t n) {
  static const char digits[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  oc_sb_reserve(b, (n + 2) / 3 * 4);
  for (size_t i = 0; i < n; i += 3) {
    uint32_t v = (uint32_t)p[i] << 16;
    if (i + 1 < n)
      v |= (uint32_t)p[i + 1] << 8;
    if (i + 2 < n)
      v |= p[i + 2];
    char out[4] = {digits[v >> 18], digits[(v >> 12) & 63],
                   i + 1 < n ? digits[(v >> 6) & 63] : '=',
                   i + 2 < n ? digits[v & 63] : '='};
    oc_sb_add(b, out, 4);
  }
}

static int by_key(const void *x, const void *y) {
  return strcmp(((const term *)x)->key, ((const term *)y)->key);
}

static int by_string(const void *x, const void *y) {
  return strcmp(*(const char *const *)x, *(const char *const *)y);
}

char *si_write(si_index *s, size_t *len) {
  end_section(s); /* its title is written first */
  oc_sb b;
  oc_sb_init(&b, NULL, 1 << 16);
  oc_sb_adds(&b, "window.octavoSearchIndex={\"version\":2,\"stemmer\":");
  if (s->stemmer_name)
    put_js_string(&b, s->stemmer_name, strlen(s->stemmer_name));
  else
    oc_sb_adds(&b, "null");
  oc_sb_adds(&b, ",\n\"pages\":[");
  for (size_t i = 0; i < s->npages; i++) {
    if (i)
      oc_sb_addc(&b, ',');
    put_js_string(&b, s->pages[i], strlen(s->pages[i]));
  }
  /* Sections: page, id, title; three values each. */
  oc_sb_adds(&b, "],\n\"sections\":[");
  for (size_t i = 0; i < s->nsecs; i++) {
    const section *c = &s->secs[i];
    oc_sb_printf(&b, "%s\n%u,", i ? "," : "", (unsigned)c->page);
    put_js_string(&b, c->id, strlen(c->id));
    oc_sb_addc(&b, ',');
    put_js_string(&b, c->title, strlen(c->title));
  }
  /* Their texts, deflated and in base64 (search.js inflates them with
     the browser's DecompressionStream, for the passage around a match). */
  pack(s, "", 0, Z_FINISH);
  oc_sb_adds(&b, "],\n\"text\":\"");
  if (s->z_ok)
    put_base64(&b, (const unsigned char *)s->packed.p, s->packed.len);
  /* Words, sorted, in one string: "stem forms:postings" joined by ';'.
   * Forms are the stem's other surface forms, each the part after the
   * stem or "=" and the whole form. Words hold none of " :;=". */
  oc_sb_adds(&b, "\",\n\"words\":\"");
  if (s->nterms) /* qsort may not take NULL, even for nothing */
    qsort(s->terms, s->nterms, sizeof *s->terms, by_key);
  for (size_t i = 0; i < s->nterms; i++) {
    term *t = &s->terms[i];
    if (i)
      oc_sb_addc(&b, ';');
    size_t kl = strlen(t->key);
    put_js_chars(&b, t->key, kl);
    qsort(t->forms, t->nforms, sizeof *t->forms, by_string);
    for (size_t f = 0; f < t->nforms; f++) {
      const char *form = t->forms[f];
      oc_sb_addc(&b, ' ');
      if (!strncmp(form, t->key, kl))
        form += kl;
      else
        oc_sb_addc(&b, '=');
      put_js_chars(&b, form, strlen(form));
    }
    oc_sb_addc(&b, ':');
    for (size_t k = 0; k < t->npost; k++) {
      const posting *p = &t->post[k];
      uint64_t delta = k ? p->sec - t->post[k - 1].sec : (uint64_t)p->sec + 1;
      put_number(&b, delta * 4 + (p->title ? 2 : 0) + (p->tf >= 3));
    }
  }
  oc_sb_adds(&b, "\"};\n");
  /* The terms were sorted: the form table's indexes are stale now. */
  free(s->by_stem.slots);
  free(s->by_form.slots);
  s->by_stem = s->by_form = (strtab){0};
  *len = b.len;
  return oc_sb_take(&b);
}

const char *si_builtin(const char *name, size_t *len);

const char *si_script(size_t *len) { return si_builtin("search.js", len); }
