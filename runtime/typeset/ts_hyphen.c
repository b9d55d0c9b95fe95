/* Hyphenation through libhyphen. The patterns are lower case and some of
 * Debian's dictionaries are ISO8859-1 (de, nl, pt_PT), so each run of
 * letters is lowered and re-encoded for its dictionary while the byte offset
 * of every character in the caller's word is kept; libhyphen then marks
 * points per character. */
#include "ts_hyphen.h"
#include "ts_hyphen_dict.h"

#include <ctype.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hyphen.h>
#include <utf8proc.h>

/* Longest run of letters hyphenated, in bytes once encoded: no word is
   longer, and it bounds the buffers. */
#define TS_HYPHEN_MAX_RUN 240

typedef struct ts_hyphen_lang {
  struct ts_hyphen_lang *next;
  char *code; /* as asked for */
  char *path; /* NULL: none found */
  char *real; /* path with its symlinks resolved */
  HyphenDict *dict;
  ts_hyphen_status status;
} ts_hyphen_lang;

struct ts_hyphenator {
  oc_arena *arena;
  const char *dir;
  int left_min, right_min;
  ts_hyphen_lang *langs;
};

static void free_dict(void *d) { hnj_hyphen_free(d); }

ts_hyphenator *ts_hyphenator_new(oc_arena *a, const char *dir) {
  ts_hyphenator *h = oc_arena_calloc(a, 1, sizeof *h);
  h->arena = a;
  h->dir = dir ? oc_arena_strndup(a, dir, strlen(dir)) : TS_HYPHEN_DIR;
  h->left_min = 2;
  h->right_min = 3;
  return h;
}

void ts_hyphenator_set_min(ts_hyphenator *h, int left, int right) {
  if (left > 0)
    h->left_min = left;
  if (right > 0)
    h->right_min = right;
}

/* ---- finding a dictionary ---------------------------------------------- */

/* The region whose dictionary stands for a language given alone, where
   Debian installs no hyph_<ll>.dic link. */
static const char *usual_region(const char *ll) {
  static const char *const map[][2] = {
      {"en", "US"}, {"de", "DE"}, {"fr", "FR"}, {"es", "ES"}, {"it", "IT"},
      {"ca", "ES"}, {"nl", "NL"}, {"pt", "PT"}, {"gl", "ES"}, {"sv", "SE"},
      {"da", "DK"}, {"cs", "CZ"}, {"pl", "PL"}, {"ru", "RU"}, {"hu", "HU"}};
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (strcmp(map[i][0], ll) == 0)
      return map[i][1];
  return NULL;
}

/* Splits "en-GB", "pt_BR", "sr-Latn-RS" into a lower-case language and an
   upper-case region (empty if none); false when lang is not a code. */
static bool parse_lang(const char *lang, char ll[4], char rr[4]) {
  size_t i = 0;
  while (isalpha((unsigned char)lang[i]) && i < 3) {
    ll[i] = (char)tolower((unsigned char)lang[i]);
    i++;
  }
  ll[i] = '\0';
  rr[0] = '\0';
  if (i < 2 || (lang[i] && lang[i] != '-' && lang[i] != '_'))
    return false;
  const char *p = lang + i;
  while (*p == '-' || *p == '_') {
    p++;
    size_t n = strcspn(p, "-_");
    if (n == 2 && isalpha((unsigned char)p[0]) &&
        isalpha((unsigned char)p[1]) && !rr[0]) {
      rr[0] = (char)toupper((unsigned char)p[0]);
      rr[1] = (char)toupper((unsigned char)p[1]);
      rr[2] = '\0';
    }
    p += n;
  }
  return true;
}

static char *dict_path(ts_hyphenator *h, const char *ll, const char *rr) {
  char buf[4096];
  int n = snprintf(buf, sizeof buf, "%s/hyph_%s%s%s.dic", h->dir, ll,
                   rr && rr[0] ? "_" : "", rr ? rr : "");
  if (n < 0 || (size_t)n >= sizeof buf || access(buf, R_OK) != 0)
    return NULL;
  return oc_arena_strndup(h->arena, buf, (size_t)n);
}

/* Any hyph_<ll>_*.dic, the first in byte order so the choice is stable. */
static char *any_region(ts_hyphenator *h, const char *ll) {
  DIR *d = opendir(h->dir);
  if (!d)
    return NULL;
  char prefix[16], best[256] = "";
  snprintf(prefix, sizeof prefix, "hyph_%s_", ll);
  size_t plen = strlen(prefix);
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t n = strlen(e->d_name);
    if (n > plen + 4 && n < sizeof best &&
        strncmp(e->d_name, prefix, plen) == 0 &&
        strcmp(e->d_name + n - 4, ".dic") == 0 &&
        (!best[0] || strcmp(e->d_name, best) < 0))
      memcpy(best, e->d_name, n + 1);
  }
  closedir(d);
  if (!best[0])
    return NULL;
  char buf[4096];
  int n = snprintf(buf, sizeof buf, "%s/%s", h->dir, best);
  if (n < 0 || (size_t)n >= sizeof buf)
    return NULL;
  return oc_arena_strndup(h->arena, buf, (size_t)n);
}

static ts_hyphen_lang *find_lang(ts_hyphenator *h, const char *lang) {
  for (ts_hyphen_lang *l = h->langs; l; l = l->next)
    if (strcmp(l->code, lang) == 0)
      return l;
  ts_hyphen_lang *l = oc_arena_calloc(h->arena, 1, sizeof *l);
  l->code = oc_arena_strndup(h->arena, lang, strlen(lang));
  l->next = h->langs;
  h->langs = l;

  char ll[4], rr[4];
  if (!parse_lang(lang, ll, rr)) {
    l->status = TS_HYPHEN_BAD_LANG;
    return l;
  }
  const char *usual = usual_region(ll);
  l->path = rr[0] ? dict_path(h, ll, rr) : NULL;
  if (!l->path)
    l->path = dict_path(h, ll, NULL);
  if (!l->path && usual)
    l->path = dict_path(h, ll, usual);
  if (!l->path)
    l->path = any_region(h, ll);
  if (!l->path) {
    l->status = TS_HYPHEN_NO_DICT;
    return l;
  }
  /* de, de-CH and de-AT are one file through symlinks: load it once. */
  char *real = realpath(l->path, NULL);
  if (real) {
    l->real = oc_arena_strndup(h->arena, real, strlen(real));
    free(real);
    for (ts_hyphen_lang *o = l->next; o; o = o->next)
      if (o->real && o->dict && strcmp(o->real, l->real) == 0) {
        l->dict = o->dict;
        l->status = o->status;
        return l;
      }
  }
  bool unsupported;
  l->dict = ts_hyphen_dict_load(h->arena, l->path, &unsupported);
  if (unsupported) {
    l->dict = hnj_hyphen_load(l->path);
    if (l->dict)
      oc_arena_defer(h->arena, free_dict, l->dict);
  }
  if (!l->dict) {
    l->status = TS_HYPHEN_BAD_DICT;
    return l;
  }
  if (!l->dict->utf8 && strcmp(l->dict->cset, "ISO8859-1") != 0)
    l->status = TS_HYPHEN_BAD_DICT;
  return l;
}

ts_hyphen_status ts_hyphen_load(ts_hyphenator *h, const char *lang,
                                const char **path) {
  ts_hyphen_lang *l = find_lang(h, lang);
  if (path)
    *path = l->path;
  return l->status;
}

/* ---- hyphenating ------------------------------------------------------- */

static bool is_letter(utf8proc_int32_t c) {
  utf8proc_category_t k = utf8proc_category(c);
  return (k >= UTF8PROC_CATEGORY_LU && k <= UTF8PROC_CATEGORY_LO) ||
         (k >= UTF8PROC_CATEGORY_MN && k <= UTF8PROC_CATEGORY_ME);
}

static bool is_digit(utf8proc_int32_t c) {
  utf8proc_category_t k = utf8proc_category(c);
  return k >= UTF8PROC_CATEGORY_ND && k <= UTF8PROC_CATEGORY_NO;
}

/* Joiners belong to a word when letters stand on both sides: apostrophes
   (French "l'homme") and the Catalan middle dot ("col·lecció"). */
static bool is_joiner(utf8proc_int32_t c) {
  return c == '\'' || c == 0x2019 || c == 0xb7;
}

/* Hyphenates one run of letters: cps[0..m) with their byte offsets in the
   word (offs[m] is the end of the run). */
static void hyphenate_run(const ts_hyphenator *h, const HyphenDict *dict,
                          const utf8proc_int32_t *cps, const size_t *offs,
                          size_t m, size_t *points, size_t max, size_t *count) {
  bool digit = false, lower = false;
  for (size_t i = 0; i < m; i++) {
    digit |= is_digit(cps[i]);
    lower |= utf8proc_islower(cps[i]) != 0;
  }
  if (digit || !lower)
    return; /* a number, a code, an acronym: never split */

  int left = h->left_min > dict->lhmin ? h->left_min : dict->lhmin;
  int right = h->right_min > dict->rhmin ? h->right_min : dict->rhmin;
  if (m < (size_t)(left + right))
    return;

  char enc[TS_HYPHEN_MAX_RUN + 8];
  size_t n = 0;
  for (size_t i = 0; i < m; i++) {
    utf8proc_int32_t c = utf8proc_tolower(cps[i]);
    if (c == 0x2019)
      c = '\'';
    if (dict->utf8) {
      if (n + 4 > TS_HYPHEN_MAX_RUN)
        return;
      n += (size_t)utf8proc_encode_char(c, (utf8proc_uint8_t *)enc + n);
    } else {
      if (c > 0xff || n + 1 > TS_HYPHEN_MAX_RUN)
        return; /* not in the dictionary's ISO8859-1 */
      enc[n++] = (char)c;
    }
  }

  enc[n] = '\0'; /* libhyphen runs strstr on the word (its NOHYPHEN list) */

  char marks[TS_HYPHEN_MAX_RUN + 8];
  char **rep = NULL;
  int *pos = NULL, *cut = NULL;
  /* libhyphen's API takes a mutable dictionary but does not change it. */
  if (hnj_hyphen_hyphenate2((HyphenDict *)dict, enc, (int)n, marks, NULL, &rep,
                            &pos, &cut) == 0) {
    /* marks[k] odd: a break after character k. */
    for (size_t k = (size_t)left - 1; k + (size_t)right < m; k++) {
      if (!(marks[k] & 1) || (rep && rep[k]))
        continue;
      if (*count < max)
        points[*count] = offs[k + 1];
      (*count)++;
    }
  }
  if (rep) {
    for (size_t k = 0; k < n; k++)
      free(rep[k]);
    free(rep);
    free(pos);
    free(cut);
  }
}

ts_hyphen_status ts_hyphenate(ts_hyphenator *h, const char *lang,
                              const char *word, size_t len, size_t *points,
                              size_t max, size_t *count) {
  *count = 0;
  ts_hyphen_lang *l = find_lang(h, lang);
  if (l->status != TS_HYPHEN_OK)
    return l->status;

  utf8proc_int32_t cps[TS_HYPHEN_MAX_RUN + 1];
  size_t offs[TS_HYPHEN_MAX_RUN + 2];
  size_t m = 0;
  bool too_long = false;
  size_t i = 0;
  while (i <= len) {
    utf8proc_int32_t c = -1;
    utf8proc_ssize_t step = 0;
    if (i < len) {
      step = utf8proc_iterate((const utf8proc_uint8_t *)word + i,
                              (utf8proc_ssize_t)(len - i), &c);
      if (step < 0) {
        *count = 0; /* invalid UTF-8: offsets would mean nothing */
        return TS_HYPHEN_OK;
      }
    }
    bool in_run = c >= 0 && (is_letter(c) || is_digit(c));
    if (c >= 0 && is_joiner(c) && m > 0 && i + (size_t)step < len) {
      utf8proc_int32_t d;
      if (utf8proc_iterate((const utf8proc_uint8_t *)word + i + step,
                           (utf8proc_ssize_t)(len - i - (size_t)step),
                           &d) > 0 &&
          is_letter(d))
        in_run = true;
    }
    if (in_run) {
      if (m < TS_HYPHEN_MAX_RUN) {
        cps[m] = c;
        offs[m] = i;
        m++;
      } else {
        too_long = true;
      }
    } else {
      if (m > 0 && !too_long) {
        offs[m] = i;
        hyphenate_run(h, l->dict, cps, offs, m, points, max, count);
      }
      m = 0;
      too_long = false;
    }
    if (i == len)
      break;
    i += (size_t)step;
  }
  return TS_HYPHEN_OK;
}
