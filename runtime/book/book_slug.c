/* Slugs of headings and titles as Easybook's slugger made them, and the
 * book's set of ids. utf8proc brings accented Latin text down to ASCII;
 * ICU's transliterator, slow to open, is opened only for what is left
 * (other scripts), once per slugger. */
#include "book_slug.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unicode/ustring.h>
#include <unicode/utrans.h>
#include <utf8proc.h>

#include "book_htmltext.h"
#include "oc_alloc.h"
#include "oc_hash.h"

struct bk_slugger {
  UTransliterator *latin; /* NULL until a text needs it */
  bool latin_failed;      /* opening failed: do not try at every slug */
};

bk_slugger *bk_slugger_new(void) { return oc_calloc(1, sizeof(bk_slugger)); }

void bk_slugger_free(bk_slugger *s) {
  if (!s)
    return;
  if (s->latin)
    utrans_close(s->latin);
  free(s);
}

/* ---- tags and entities ---------------------------------------------- */

/* Copies text without its tags and with references decoded; out has room
 * for len bytes (no tag or reference is shorter than what it gives). */
static size_t slug_strip_html(const char *s, size_t len, char *out) {
  size_t o = 0;
  bk_htreader r;
  bk_ht_token t;
  bk_ht_init(&r, s, len);
  while (bk_ht_next(&r, &t)) {
    if (t.kind == BK_HT_TEXT) {
      memcpy(out + o, t.text, t.len);
      o += t.len;
    } else {
      /* Tags separate words ("a<br>b"), as spaces would. */
      out[o++] = ' ';
    }
  }
  return o;
}

/* ---- transliteration ------------------------------------------------ */

/* True when text holds a non-ASCII letter or digit, which only ICU can
 * bring to ASCII; other characters become separators anyway. */
static bool slug_needs_icu(const char *s, size_t len) {
  for (size_t i = 0; i < len;) {
    if ((unsigned char)s[i] < 0x80) {
      i++;
      continue;
    }
    utf8proc_int32_t cp;
    utf8proc_ssize_t n = utf8proc_iterate((const utf8proc_uint8_t *)s + i,
                                          (utf8proc_ssize_t)(len - i), &cp);
    if (n <= 0) {
      i++;
      continue;
    }
    i += (size_t)n;
    switch (utf8proc_category(cp)) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
    case UTF8PROC_CATEGORY_ND:
    case UTF8PROC_CATEGORY_NL:
    case UTF8PROC_CATEGORY_NO:
      return true;
    default:
      break;
    }
  }
  return false;
}

static UTransliterator *slug_latin(bk_slugger *s) {
  if (!s->latin && !s->latin_failed) {
    static const UChar id[] = u"Any-Latin; Latin-ASCII";
    UErrorCode err = U_ZERO_ERROR;
    s->latin = utrans_openU(id, -1, UTRANS_FORWARD, NULL, -1, NULL, &err);
    if (U_FAILURE(err)) {
      if (s->latin)
        utrans_close(s->latin);
      s->latin = NULL;
      s->latin_failed = true;
    }
  }
  return s->latin;
}

/* ICU's "Any-Latin; Latin-ASCII" over text; a malloc'd UTF-8 string, or
 * NULL when ICU is not available or fails (the caller then keeps text). */
static char *slug_icu(bk_slugger *s, const char *text, size_t len,
                      size_t *out_len) {
  UTransliterator *t = slug_latin(s);
  if (!t || len > INT32_MAX / 16)
    return NULL;
  UErrorCode err = U_ZERO_ERROR;
  int32_t n16 = 0;
  u_strFromUTF8(NULL, 0, &n16, text, (int32_t)len, &err);
  if (err != U_BUFFER_OVERFLOW_ERROR && U_FAILURE(err))
    return NULL;
  /* Transliteration grows text (one Han character gives a syllable);
   * start with room for that and retry with the size ICU asks for. */
  int32_t cap = n16 * 8 + 16;
  char *result = NULL;
  for (int attempt = 0; attempt < 2 && !result; attempt++) {
    UChar *buf = oc_malloc(oc_size_mul((size_t)cap, sizeof(UChar)));
    err = U_ZERO_ERROR;
    u_strFromUTF8(buf, cap, &n16, text, (int32_t)len, &err);
    int32_t length = n16, limit = n16;
    if (U_SUCCESS(err))
      utrans_transUChars(t, buf, &length, cap, 0, &limit, &err);
    if (err == U_BUFFER_OVERFLOW_ERROR && length > cap) {
      cap = length + 16;
      free(buf);
      continue;
    }
    if (U_SUCCESS(err)) {
      int32_t n8 = 0;
      UErrorCode e2 = U_ZERO_ERROR;
      u_strToUTF8(NULL, 0, &n8, buf, length, &e2);
      result = oc_malloc((size_t)n8 + 1);
      e2 = U_ZERO_ERROR;
      u_strToUTF8(result, n8 + 1, &n8, buf, length, &e2);
      if (U_FAILURE(e2)) {
        free(result);
        result = NULL;
      }
      *out_len = (size_t)n8;
    }
    free(buf);
    break;
  }
  return result;
}

/* ---- the slug ------------------------------------------------------- */

/* Easybook's last step: lower-cases ASCII letters and digits into out,
 * turns every run of separators (space and other white space, '-', '_',
 * '/', '|', '+') into one '-', drops everything else ("Octavo's" gives
 * "octavos", as Easybook's slugger did), and trims '-'. */
static size_t slug_ascii(const char *s, size_t len, char *out) {
  size_t o = 0;
  bool sep = false;
  for (size_t i = 0; i < len; i++) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z')
      c = (char)(c - 'A' + 'a');
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      if (sep && o)
        out[o++] = '-';
      sep = false;
      out[o++] = c;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '-' ||
               c == '_' || c == '/' || c == '|' || c == '+') {
      sep = true;
    }
  }
  return o;
}

const char *bk_slug(bk_slugger *s, oc_arena *a, const char *text, size_t len) {
  char small[256];
  char *plain = len <= sizeof small ? small : oc_malloc(len);
  size_t n = slug_strip_html(text, len, plain);

  bool ascii = true;
  for (size_t i = 0; i < n && ascii; i++)
    ascii = (unsigned char)plain[i] < 0x80;

  const char *src = plain;
  utf8proc_uint8_t *mapped = NULL;
  char *latin = NULL;
  if (!ascii) {
    /* Compatibility decomposition without marks, case-folded: "Chloë"
     * gives "chloe", "Straße" "strasse", "ﬁ" "fi", soft hyphens vanish. */
    utf8proc_ssize_t m = utf8proc_map(
        (const utf8proc_uint8_t *)plain, (utf8proc_ssize_t)n, &mapped,
        UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT | UTF8PROC_STRIPMARK |
            UTF8PROC_CASEFOLD | UTF8PROC_IGNORE);
    if (m >= 0) {
      src = (const char *)mapped;
      n = (size_t)m;
    }
    size_t ln;
    if (slug_needs_icu(src, n) && (latin = slug_icu(s, src, n, &ln))) {
      src = latin;
      n = ln;
    }
  }

  char *out = oc_arena_alloc(a, n + 1);
  out[slug_ascii(src, n, out)] = '\0';
  free(latin);
  free(mapped);
  if (plain != small)
    free(plain);
  return out;
}

/* ---- the set of ids ------------------------------------------------- */

typedef struct bk_id_entry {
  const char *id;
  /* For a base that bk_idset_unique was asked for: the next suffix to try,
   * so that the n-th "exercises" costs one probe, not n. */
  uint32_t next_suffix;
} bk_id_entry;

struct bk_idset {
  oc_arena *a;
  oc_hidx ids;     /* bk_id_entry by id */
  uint64_t digest; /* the sum of the members' 64-bit hashes */
};

static uint64_t id_hash64(const char *s) {
  uint64_t h = oc_hash_bytes(OC_HASH_FNV_BASIS, s, strlen(s));
  return h ^ (h >> 29);
}

static bool id_eq(const void *entry, const void *id) {
  return !strcmp(((const bk_id_entry *)entry)->id, id);
}

bk_idset *bk_idset_new(oc_arena *a) {
  bk_idset *set = oc_arena_alloc(a, sizeof *set);
  set->a = a;
  set->digest = 0;
  oc_hidx_init(&set->ids, a, 128);
  return set;
}

static bk_id_entry *id_find(const bk_idset *set, const char *id) {
  return oc_hidx_get(&set->ids, oc_hash_str(id), id_eq, id);
}

bool bk_idset_has(const bk_idset *set, const char *id) {
  return id_find(set, id) != NULL;
}

/* Adds id (copied unless it already lives in the set's arena as the
 * caller's own copy, which owned says); the new entry, or NULL when id was
 * there. */
static bk_id_entry *id_add(bk_idset *set, const char *id, bool owned) {
  uint64_t h = oc_hash_str(id);
  if (oc_hidx_get(&set->ids, h, id_eq, id))
    return NULL;
  bk_id_entry *e = oc_arena_alloc(set->a, sizeof *e);
  e->id = owned ? id : oc_arena_strndup(set->a, id, strlen(id));
  e->next_suffix = 0;
  oc_hidx_put(&set->ids, h, e);
  set->digest += id_hash64(e->id);
  return e;
}

uint64_t bk_idset_digest(const bk_idset *set) { return set->digest; }

uint64_t bk_idset_digest_with(uint64_t digest, const char *id) {
  return digest + id_hash64(id);
}

bool bk_idset_add(bk_idset *set, const char *id) {
  return id_add(set, id, false) != NULL;
}

const char *bk_idset_unique(bk_idset *set, const char *base) {
  if (!*base)
    base = "section";
  bk_id_entry *added = id_add(set, base, false);
  if (added)
    return added->id;
  bk_id_entry *b = id_find(set, base);
  uint32_t k = b->next_suffix ? b->next_suffix : 2;
  size_t blen = strlen(base);
  char *cand = oc_arena_alloc(set->a, blen + 12);
  memcpy(cand, base, blen);
  for (;; k++) {
    snprintf(cand + blen, 12, "-%u", (unsigned)k);
    if (!bk_idset_has(set, cand))
      break;
  }
  b->next_suffix = k + 1;
  id_add(set, cand, true);
  return cand;
}
