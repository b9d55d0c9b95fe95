/* Template values: constructors, lists and insertion-ordered hash maps with
 * PHP's key normalisation, and PHP 8's conversions and comparisons (string
 * and float printing, numeric strings, loose and strict equality, <=>). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

#include "tpl_lib.h"

/* ---- constructors --------------------------------------------------- */

tpl_value tpl_cstr(const char *s) { return tpl_str(s, strlen(s)); }

tpl_value tpl_str_copy(oc_arena *a, const char *s, size_t len) {
  if (len > UINT32_MAX)
    len = UINT32_MAX; /* values carry 32-bit lengths */
  return tpl_str(oc_arena_strndup(a, s, len), len);
}

tpl_value tpl_list_value(tpl_list *l) {
  tpl_value v = {TPL_LIST, 0, 0, {.list = l}};
  return v;
}

tpl_value tpl_map_value(tpl_map *m) {
  tpl_value v = {TPL_MAP, 0, 0, {.map = m}};
  return v;
}

tpl_value tpl_obj_value(oc_arena *a, const tpl_obj_class *cls, void *data) {
  tpl_obj *o = oc_arena_alloc(a, sizeof *o);
  o->cls = cls;
  o->data = data;
  tpl_value v = {TPL_OBJ, 0, 0, {.obj = o}};
  return v;
}

tpl_list *tpl_list_new(oc_arena *a, size_t len) {
  tpl_list *l = oc_arena_alloc(a, sizeof *l);
  l->len = len;
  l->items = len ? oc_arena_calloc(a, len, sizeof(tpl_value)) : NULL;
  return l;
}

tpl_value tpl_list_of(oc_arena *a, const tpl_value *items, size_t n) {
  tpl_list *l = tpl_list_new(a, n);
  if (n)
    memcpy(l->items, items, n * sizeof *items);
  return tpl_list_value(l);
}

/* ---- hashing and maps ----------------------------------------------- */

uint32_t tpl_hash_bytes(const char *s, size_t len) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < len; i++) {
    h ^= (unsigned char)s[i];
    h *= 16777619u;
  }
  return h;
}

static inline uint32_t tpl_hash_int(int64_t i) {
  uint64_t x = (uint64_t)i * 0x9E3779B97F4A7C15ull;
  return (uint32_t)(x >> 32) ^ (uint32_t)x;
}

/* PHP treats a string key that is a canonical decimal integer ("5", "-3",
 * not "05", "-0" or "5 ") as that integer. */
static bool tpl_key_is_int(const char *s, size_t len, int64_t *out) {
  if (len == 0 || len > 20)
    return false;
  size_t i = 0;
  bool neg = false;
  if (s[0] == '-') {
    neg = true;
    i = 1;
    if (len == 1)
      return false;
  }
  if (s[i] < '0' || s[i] > '9')
    return false;
  if (s[i] == '0' && (len - i > 1 || neg))
    return false;
  uint64_t v = 0;
  for (; i < len; i++) {
    unsigned d = (unsigned char)s[i] - '0';
    if (d > 9)
      return false;
    if (v > (UINT64_MAX - d) / 10)
      return false;
    v = v * 10 + d;
  }
  if (neg) {
    if (v > (uint64_t)INT64_MAX + 1)
      return false;
    *out = (int64_t)(0 - v);
  } else {
    if (v > (uint64_t)INT64_MAX)
      return false;
    *out = (int64_t)v;
  }
  return true;
}

static const char tpl_empty_str[1] = "";

tpl_value tpl_array_key(tpl_rt *rt, tpl_value key) {
  (void)rt;
  int64_t i;
  switch (key.type) {
  case TPL_STR:
    if (tpl_key_is_int(key.u.s, key.len, &i))
      return tpl_int(i);
    key.safe = 0;
    return key;
  case TPL_INT:
    return key;
  case TPL_BOOL:
    return tpl_int(key.u.b ? 1 : 0);
  case TPL_FLOAT:
    return tpl_int(tpl_double_to_int(key.u.f));
  case TPL_NULL:
    return tpl_str(tpl_empty_str, 0);
  default: {
    tpl_value bad = {TPL_NULL, 0, 0, {.i = 0}};
    return bad; /* arrays and objects are not valid keys */
  }
  }
}

#define TPL_MAP_INDEX_MIN 8

/* Keys are short: an inline loop beats a call to memcmp. */
static inline bool tpl_bytes_eq(const char *a, const char *b, size_t n) {
  if (a == b)
    return true;
  if (n > 16)
    return memcmp(a, b, n) == 0;
  for (size_t i = 0; i < n; i++)
    if (a[i] != b[i])
      return false;
  return true;
}

static inline uint64_t tpl_key_prefix(const char *s, size_t len) {
  uint64_t p = 0;
  memcpy(&p, s, len < 8 ? len : 8);
  return p;
}

/* A string key against entry e, the prefix and hash already computed. */
static inline bool tpl_entry_is(const tpl_map_entry *e, const char *s,
                                size_t len, uint32_t h, uint64_t prefix) {
  return e->hash == h && e->prefix == prefix && e->key.type == TPL_STR &&
         e->key.len == len &&
         (len <= 8 || memcmp(e->key.u.s + 8, s + 8, len - 8) == 0);
}

static inline bool tpl_key_eq(const tpl_value *a, const tpl_value *b) {
  if (a->type != b->type)
    return false;
  if (a->type == TPL_INT)
    return a->u.i == b->u.i;
  return a->len == b->len && tpl_bytes_eq(a->u.s, b->u.s, a->len);
}

/* Entry e against key, or when key is NULL against the string s of len
 * bytes whose prefix is computed. */
static inline bool tpl_entry_matches(const tpl_map_entry *e,
                                     const tpl_value *key, const char *s,
                                     size_t len, uint32_t h, uint64_t prefix) {
  if (!key)
    return tpl_entry_is(e, s, len, h, prefix);
  return e->hash == h && tpl_key_eq(&e->key, key);
}

/* The one probe of both lookups below; forced inline into each (map lookups
 * are the hot path), where whether key is NULL is known, so the test in
 * tpl_entry_matches folds away. */
static inline __attribute__((always_inline)) ptrdiff_t
tpl_map_probe(const tpl_map *m, const tpl_value *key, const char *s, size_t len,
              uint32_t h, uint64_t prefix) {
  if (!m->index) {
    for (size_t i = 0; i < m->len; i++)
      if (tpl_entry_matches(&m->entries[i], key, s, len, h, prefix))
        return (ptrdiff_t)i;
    return -1;
  }
  size_t mask = m->index_cap - 1;
  for (size_t pos = h & mask;; pos = (pos + 1) & mask) {
    uint32_t idx = m->index[pos];
    if (!idx)
      return -1;
    if (tpl_entry_matches(&m->entries[idx - 1], key, s, len, h, prefix))
      return (ptrdiff_t)idx - 1;
  }
}

/* String lookups with a known hash, for attribute names: skips both the
 * numeric-key check and hashing. */
static ptrdiff_t tpl_map_find_str(const tpl_map *m, const char *s, size_t len,
                                  uint32_t h) {
  uint64_t prefix = len ? tpl_key_prefix(s, len) : 0;
  return tpl_map_probe(m, NULL, s, len, h, prefix);
}

static ptrdiff_t tpl_map_find(const tpl_map *m, const tpl_value *key,
                              uint32_t h) {
  if (key->type == TPL_STR)
    return tpl_map_find_str(m, key->u.s, key->len, h);
  return tpl_map_probe(m, key, NULL, 0, h, 0);
}

static void tpl_map_reindex(oc_arena *a, tpl_map *m, size_t cap) {
  m->index = oc_arena_calloc(a, cap, sizeof(uint32_t));
  m->index_cap = cap;
  size_t mask = cap - 1;
  for (size_t i = 0; i < m->len; i++) {
    size_t pos = m->entries[i].hash & mask;
    while (m->index[pos])
      pos = (pos + 1) & mask;
    m->index[pos] = (uint32_t)(i + 1);
  }
}

tpl_map *tpl_map_new(oc_arena *a, size_t cap_hint) {
  tpl_map *m = oc_arena_alloc(a, sizeof *m);
  m->len = 0;
  m->cap = cap_hint;
  m->entries =
      cap_hint ? oc_arena_alloc(a, oc_size_mul(cap_hint, sizeof(tpl_map_entry)))
               : NULL;
  m->index = NULL;
  m->index_cap = 0;
  m->next_int_key = 0;
  if (cap_hint > TPL_MAP_INDEX_MIN) {
    size_t cap = 16;
    while (cap < cap_hint * 2)
      cap = oc_size_mul(cap, 2);
    m->index = oc_arena_calloc(a, cap, sizeof(uint32_t));
    m->index_cap = cap;
  }
  return m;
}

static inline uint32_t tpl_key_hash(const tpl_value *key) {
  return key->type == TPL_INT ? tpl_hash_int(key->u.i)
                              : tpl_hash_bytes(key->u.s, key->len);
}

static void tpl_map_append(oc_arena *a, tpl_map *m, tpl_value key,
                           tpl_value val, uint32_t h) {
  if (m->len == m->cap) {
    size_t ncap = m->cap ? oc_size_mul(m->cap, 2) : 4;
    if (ncap > UINT32_MAX - 1)
      ncap = UINT32_MAX - 1;
    m->entries = oc_arena_grow(a, m->entries, m->cap * sizeof(tpl_map_entry),
                               oc_size_mul(ncap, sizeof(tpl_map_entry)));
    m->cap = ncap;
  }
  tpl_map_entry *e = &m->entries[m->len++];
  e->key = key;
  e->val = val;
  e->hash = h;
  e->prefix =
      key.type == TPL_STR && key.len ? tpl_key_prefix(key.u.s, key.len) : 0;
  if (key.type == TPL_INT && key.u.i >= m->next_int_key)
    m->next_int_key = key.u.i == INT64_MAX ? INT64_MAX : key.u.i + 1;
  if (m->index) {
    if (m->len * 2 > m->index_cap) {
      tpl_map_reindex(a, m, oc_size_mul(m->index_cap, 2));
    } else {
      size_t mask = m->index_cap - 1;
      size_t pos = h & mask;
      while (m->index[pos])
        pos = (pos + 1) & mask;
      m->index[pos] = (uint32_t)m->len;
    }
  } else if (m->len > TPL_MAP_INDEX_MIN) {
    tpl_map_reindex(a, m, 32);
  }
}

void tpl_map_append_new(oc_arena *a, tpl_map *m, tpl_value key, tpl_value val) {
  tpl_map_append(a, m, key, val, tpl_key_hash(&key));
}

void tpl_map_set(oc_arena *a, tpl_map *m, tpl_value key, tpl_value val) {
  key = tpl_array_key(NULL, key);
  if (key.type == TPL_NULL)
    return;
  uint32_t h = tpl_key_hash(&key);
  ptrdiff_t i = tpl_map_find(m, &key, h);
  if (i >= 0) {
    m->entries[i].val = val;
    return;
  }
  tpl_map_append(a, m, key, val, h);
}

void tpl_map_set_str(oc_arena *a, tpl_map *m, const char *key, tpl_value val) {
  tpl_map_set(a, m, tpl_str(key, strlen(key)), val);
}

void tpl_map_push(oc_arena *a, tpl_map *m, tpl_value val) {
  tpl_value key = tpl_int(m->next_int_key);
  tpl_map_append(a, m, key, val, tpl_hash_int(key.u.i));
}

bool tpl_map_get(const tpl_map *m, tpl_value key, tpl_value *out) {
  key = tpl_array_key(NULL, key);
  if (key.type == TPL_NULL)
    return false;
  ptrdiff_t i = tpl_map_find(m, &key, tpl_key_hash(&key));
  if (i < 0)
    return false;
  if (out)
    *out = m->entries[i].val;
  return true;
}

bool tpl_map_get_str(const tpl_map *m, const char *key, size_t len,
                     tpl_value *out) {
  return tpl_map_get(m, tpl_str(key, len), out);
}

/* For attribute names known at compile time (hash precomputed). */
bool tpl_map_get_name(const tpl_map *m, const char *s, size_t len,
                      uint32_t hash, tpl_value *out) {
  int64_t k;
  ptrdiff_t i;
  if (len && ((s[0] >= '0' && s[0] <= '9') || s[0] == '-') &&
      tpl_key_is_int(s, len, &k)) {
    tpl_value key = tpl_int(k);
    i = tpl_map_find(m, &key, tpl_hash_int(k));
  } else {
    i = tpl_map_find_str(m, s, len, hash);
  }
  if (i < 0)
    return false;
  if (out)
    *out = m->entries[i].val;
  return true;
}

bool tpl_map_find_name(const tpl_map *m, const struct tpl_name *key, size_t *at,
                       tpl_value *out) {
  int64_t k;
  ptrdiff_t i;
  if (key->len &&
      ((key->s[0] >= '0' && key->s[0] <= '9') || key->s[0] == '-') &&
      tpl_key_is_int(key->s, key->len, &k)) {
    tpl_value ik = tpl_int(k);
    i = tpl_map_find(m, &ik, tpl_hash_int(k));
  } else {
    i = tpl_map_find_str(m, key->s, key->len, key->hash);
  }
  if (i < 0)
    return false;
  *at = (size_t)i;
  *out = m->entries[i].val;
  return true;
}

/* a.b with a compile-time name: the hot path of every template, kept next
 * to the map lookup so that it inlines. */
tpl_value tpl_getattr_name(tpl_rt *rt, tpl_value obj, const tpl_name *key,
                           const tpl_loc *loc) {
  tpl_value out;
  if (obj.type == TPL_MAP) {
    if (tpl_map_get_name(obj.u.map, key->s, key->len, key->hash, &out))
      return out;
  } else if (obj.type == TPL_OBJ) {
    const tpl_obj_class *cls = obj.u.obj->cls;
    if (cls->get_attr && cls->get_attr(rt, obj.u.obj, key->s, key->len, &out))
      return out;
  } else if (tpl_has_attr(rt, obj, tpl_str(key->s, key->len), &out)) {
    return out;
  }
  if (rt->strict)
    tpl_attr_fail(rt, obj, tpl_str(key->s, key->len), loc);
  return tpl_null();
}

tpl_value tpl_map_or_list(oc_arena *a, tpl_map *m) {
  for (size_t i = 0; i < m->len; i++) {
    const tpl_value *k = &m->entries[i].key;
    if (k->type != TPL_INT || k->u.i != (int64_t)i)
      return tpl_map_value(m);
  }
  tpl_list *l = tpl_list_new(a, m->len);
  for (size_t i = 0; i < m->len; i++)
    l->items[i] = m->entries[i].val;
  return tpl_list_value(l);
}

bool tpl_arr_of(tpl_rt *rt, tpl_value v, tpl_arr *out) {
  switch (v.type) {
  case TPL_LIST:
    out->list = v.u.list;
    out->map = NULL;
    out->n = v.u.list->len;
    return true;
  case TPL_MAP:
    out->list = NULL;
    out->map = v.u.map;
    out->n = v.u.map->len;
    return true;
  case TPL_OBJ:
    if (v.u.obj->cls->to_array) {
      tpl_value a = v.u.obj->cls->to_array(rt, v.u.obj);
      if (a.type == TPL_LIST || a.type == TPL_MAP)
        return tpl_arr_of(rt, a, out);
    }
    return false;
  default:
    return false;
  }
}

bool tpl_arr_is_list(const tpl_arr *a) {
  if (a->list)
    return true;
  for (size_t i = 0; i < a->n; i++) {
    const tpl_value *k = &a->map->entries[i].key;
    if (k->type != TPL_INT || k->u.i != (int64_t)i)
      return false;
  }
  return true;
}

tpl_map *tpl_map_copy(oc_arena *a, const tpl_arr *src, size_t extra) {
  tpl_map *m = tpl_map_new(a, oc_size_add(src->n, extra));
  for (size_t i = 0; i < src->n; i++) {
    tpl_value k = tpl_arr_key(src, i);
    tpl_map_append(a, m, k, tpl_arr_val(src, i), tpl_key_hash(&k));
  }
  return m;
}

tpl_map *tpl_as_map(tpl_rt *rt, tpl_value v) {
  if (v.type == TPL_MAP)
    return v.u.map;
  tpl_arr arr;
  if (!tpl_arr_of(rt, v, &arr))
    return NULL;
  if (arr.map)
    return (tpl_map *)arr.map;
  return tpl_map_copy(rt->arena, &arr, 0);
}

/* ---- numbers to text ------------------------------------------------ */

/* Decimal digits of f rounded to `ndigit` significant digits (0: shortest
 * round trip), trailing zeros dropped; *decpt as dtoa's (0.d1d2 x 10^decpt). */
static size_t tpl_dtoa(double f, int ndigit, char *digits, int *decpt) {
  char tmp[64];
  if (ndigit <= 0) {
    for (int p = 1; p <= 17; p++) {
      snprintf(tmp, sizeof tmp, "%.*e", p - 1, f);
      if (strtod(tmp, NULL) == f)
        break;
    }
  } else {
    if (ndigit > 40)
      ndigit = 40;
    snprintf(tmp, sizeof tmp, "%.*e", ndigit - 1, f);
  }
  const char *p = tmp;
  if (*p == '-')
    p++;
  size_t n = 0;
  for (; *p && *p != 'e'; p++)
    if (*p != '.')
      digits[n++] = *p;
  int exp = *p == 'e' ? atoi(p + 1) : 0;
  while (n > 1 && digits[n - 1] == '0')
    n--;
  digits[n] = '\0';
  *decpt = digits[0] == '0' ? 1 : exp + 1;
  return n;
}

size_t tpl_gcvt(double f, int precision, char e, char *buf) {
  if (isnan(f)) {
    memcpy(buf, "NAN", 4);
    return 3;
  }
  if (isinf(f)) {
    if (f < 0) {
      memcpy(buf, "-INF", 5);
      return 4;
    }
    memcpy(buf, "INF", 4);
    return 3;
  }
  char digits[48];
  int decpt;
  tpl_dtoa(f, precision, digits, &decpt);
  int ndigit = precision > 0 ? precision : 17;
  char *d = buf;
  if (signbit(f))
    *d++ = '-';
  const char *src = digits;
  if (decpt < 0 ? decpt < -3 : decpt > ndigit) {
    int x = decpt - 1;
    bool neg = x < 0;
    if (neg)
      x = -x;
    *d++ = *src++;
    *d++ = '.';
    if (!*src)
      *d++ = '0';
    while (*src)
      *d++ = *src++;
    *d++ = e;
    *d++ = neg ? '-' : '+';
    char xb[12];
    int xn = 0;
    do {
      xb[xn++] = (char)('0' + x % 10);
      x /= 10;
    } while (x);
    while (xn)
      *d++ = xb[--xn];
  } else if (decpt <= 0) {
    *d++ = '0';
    *d++ = '.';
    for (int i = decpt; i < 0; i++)
      *d++ = '0';
    while (*src)
      *d++ = *src++;
  } else {
    for (int i = 0; i < decpt; i++)
      *d++ = *src ? *src++ : '0';
    if (*src) {
      *d++ = '.';
      while (*src)
        *d++ = *src++;
    }
  }
  *d = '\0';
  return (size_t)(d - buf);
}

size_t tpl_format_float(double f, char *buf) {
  return tpl_gcvt(f, 14, 'E', buf);
}

int64_t tpl_double_to_int(double d) {
  if (!isfinite(d))
    return 0;
  if (d >= -9223372036854775808.0 && d < 9223372036854775808.0)
    return (int64_t)d;
  /* PHP wraps out-of-range values modulo 2^64. */
  double two64 = 18446744073709551616.0;
  double m = fmod(d, two64);
  if (m < 0)
    m += two64;
  if (m >= 9223372036854775808.0)
    m -= two64;
  return (int64_t)m;
}

/* ---- numeric strings ------------------------------------------------ */

static inline bool tpl_is_ws(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
         c == '\f';
}

/* Parses the numeric prefix of s. Returns the number of bytes it spans
 * (0 when none) and whether it is an integer that fits. */
static size_t tpl_scan_number(const char *s, size_t len, tpl_value *out,
                              int *oflow) {
  *oflow = 0;
  size_t i = 0;
  while (i < len && tpl_is_ws((unsigned char)s[i]))
    i++;
  size_t start = i;
  if (i < len && (s[i] == '+' || s[i] == '-'))
    i++;
  size_t int_start = i;
  while (i < len && s[i] >= '0' && s[i] <= '9')
    i++;
  size_t int_digits = i - int_start;
  size_t frac_digits = 0;
  bool is_float = false;
  if (i < len && s[i] == '.') {
    size_t j = i + 1;
    while (j < len && s[j] >= '0' && s[j] <= '9')
      j++;
    frac_digits = j - i - 1;
    if (int_digits || frac_digits) {
      is_float = true;
      i = j;
    }
  }
  if (!int_digits && !frac_digits)
    return 0;
  if (i < len && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < len && (s[j] == '+' || s[j] == '-'))
      j++;
    if (j < len && s[j] >= '0' && s[j] <= '9') {
      while (j < len && s[j] >= '0' && s[j] <= '9')
        j++;
      is_float = true;
      i = j;
    }
  }
  if (!is_float) {
    bool neg = s[start] == '-';
    uint64_t v = 0;
    bool overflow = false;
    for (size_t k = int_start; k < i; k++) {
      unsigned d = (unsigned char)s[k] - '0';
      if (v > (UINT64_MAX - d) / 10) {
        overflow = true;
        break;
      }
      v = v * 10 + d;
    }
    if (!overflow && (neg ? v <= (uint64_t)INT64_MAX + 1 : v <= INT64_MAX)) {
      *out = tpl_int(neg ? (int64_t)(0 - v) : (int64_t)v);
      return i;
    }
    *oflow = neg ? -1 : 1; /* an integer too big: a float, as in PHP */
  }
  char small[128];
  size_t n = i - start;
  char *buf = n < sizeof small ? small : oc_malloc(n + 1);
  memcpy(buf, s + start, n);
  buf[n] = '\0';
  *out = tpl_float(strtod(buf, NULL));
  if (buf != small)
    free(buf);
  return i;
}

/* 2: all numeric, 1: numeric prefix, 0: not numeric. */
static int tpl_numeric_ex(const char *s, size_t len, tpl_value *out,
                          int *oflow) {
  size_t end = tpl_scan_number(s, len, out, oflow);
  if (!end) {
    *out = tpl_int(0);
    return 0;
  }
  while (end < len && tpl_is_ws((unsigned char)s[end]))
    end++;
  return end == len ? 2 : 1;
}

int tpl_str_numeric_prefix(const char *s, size_t len, tpl_value *out) {
  int oflow;
  return tpl_numeric_ex(s, len, out, &oflow);
}

bool tpl_str_is_numeric(const char *s, size_t len, tpl_value *out) {
  tpl_value tmp;
  int r = tpl_str_numeric_prefix(s, len, &tmp);
  if (out)
    *out = tmp;
  return r == 2;
}

/* ---- conversions ---------------------------------------------------- */

bool tpl_truthy(tpl_value v) {
  switch (v.type) {
  case TPL_NULL:
    return false;
  case TPL_BOOL:
    return v.u.b;
  case TPL_INT:
    return v.u.i != 0;
  case TPL_FLOAT:
    return v.u.f != 0.0;
  case TPL_STR:
    return !(v.len == 0 || (v.len == 1 && v.u.s[0] == '0'));
  case TPL_LIST:
    return v.u.list->len != 0;
  case TPL_MAP:
    return v.u.map->len != 0;
  default:
    return true;
  }
}

const char *tpl_type_name(tpl_value v) {
  switch (v.type) {
  case TPL_NULL:
    return "null";
  case TPL_BOOL:
    return "bool";
  case TPL_INT:
    return "int";
  case TPL_FLOAT:
    return "float";
  case TPL_STR:
    return "string";
  case TPL_LIST:
  case TPL_MAP:
    return "array";
  case TPL_OBJ:
    return v.u.obj->cls->name ? v.u.obj->cls->name : "object";
  default:
    return "Closure";
  }
}

tpl_value tpl_to_str(tpl_rt *rt, tpl_value v) {
  char buf[40];
  size_t n;
  switch (v.type) {
  case TPL_STR:
    return v;
  case TPL_NULL:
    return tpl_str(tpl_empty_str, 0);
  case TPL_BOOL:
    return v.u.b ? tpl_str("1", 1) : tpl_str(tpl_empty_str, 0);
  case TPL_INT:
    n = oc_format_int(v.u.i, buf);
    return tpl_str_copy(rt->arena, buf, n);
  case TPL_FLOAT:
    n = tpl_format_float(v.u.f, buf);
    return tpl_str_copy(rt->arena, buf, n);
  case TPL_LIST:
  case TPL_MAP:
    return tpl_str("Array", 5);
  case TPL_OBJ:
    if (v.u.obj->cls->to_string) {
      tpl_value s = v.u.obj->cls->to_string(rt, v.u.obj);
      return s.type == TPL_STR ? s : tpl_to_str(rt, s);
    }
    /* fall through */
  default:
    tpl_fail(rt, rt->loc, "object of class %s could not be converted to string",
             tpl_type_name(v));
  }
}

bool tpl_coerce_number(tpl_value v, tpl_value *out) {
  switch (v.type) {
  case TPL_INT:
  case TPL_FLOAT:
    *out = v;
    return true;
  case TPL_NULL:
    *out = tpl_int(0);
    return true;
  case TPL_BOOL:
    *out = tpl_int(v.u.b);
    return true;
  case TPL_STR:
    return tpl_str_numeric_prefix(v.u.s, v.len, out) != 0;
  default:
    return false;
  }
}

tpl_value tpl_to_number(tpl_value v) {
  tpl_value out;
  if (tpl_coerce_number(v, &out) || v.type == TPL_STR)
    return out; /* a non-numeric string gives what its prefix gave: 0 */
  switch (v.type) {
  case TPL_LIST:
    return tpl_int(v.u.list->len ? 1 : 0);
  case TPL_MAP:
    return tpl_int(v.u.map->len ? 1 : 0);
  default:
    return tpl_int(1);
  }
}

int64_t tpl_to_int(tpl_value v) {
  v = tpl_to_number(v);
  return v.type == TPL_INT ? v.u.i : tpl_double_to_int(v.u.f);
}

double tpl_to_float(tpl_value v) {
  v = tpl_to_number(v);
  return v.type == TPL_INT ? (double)v.u.i : v.u.f;
}

/* ---- comparisons ---------------------------------------------------- */

static inline int tpl_cmp3_d(double a, double b) {
  return a == b ? 0 : (a < b ? -1 : 1);
}
static inline int tpl_cmp3_i(int64_t a, int64_t b) {
  return a == b ? 0 : (a < b ? -1 : 1);
}

static int tpl_bin_strcmp(const char *a, size_t al, const char *b, size_t bl) {
  size_t n = al < bl ? al : bl;
  int r = n ? memcmp(a, b, n) : 0;
  if (r)
    return r < 0 ? -1 : 1;
  return al == bl ? 0 : (al < bl ? -1 : 1);
}

static int tpl_cmp_nums(tpl_value a, tpl_value b) {
  if (a.type == TPL_INT && b.type == TPL_INT)
    return tpl_cmp3_i(a.u.i, b.u.i);
  double x = a.type == TPL_INT ? (double)a.u.i : a.u.f;
  double y = b.type == TPL_INT ? (double)b.u.i : b.u.f;
  return tpl_cmp3_d(x, y);
}

/* A number against a string: numerically when the string is numeric, else
 * the number's text against the string (PHP 8). */
static int tpl_cmp_num_str(tpl_value num, const char *s, size_t len) {
  tpl_value sv;
  if (tpl_str_is_numeric(s, len, &sv))
    return tpl_cmp_nums(num, sv);
  char buf[40];
  size_t n = num.type == TPL_INT ? oc_format_int(num.u.i, buf)
                                 : tpl_format_float(num.u.f, buf);
  return tpl_bin_strcmp(buf, n, s, len);
}

/* PHP's zendi_smart_strcmp: two numeric strings compare as numbers, with
 * care for integers too big for int64 (oflow), else bytewise. */
static int tpl_cmp_strs(const char *a, size_t al, const char *b, size_t bl) {
  /* Cheap rejection before the numeric-string parse: a numeric string
   * starts with whitespace, a sign, a digit or a dot. */
  unsigned char c1 = al ? (unsigned char)a[0] : 0;
  unsigned char c2 = bl ? (unsigned char)b[0] : 0;
  if (al && bl && c1 <= '9' && c2 <= '9') {
    tpl_value x, y;
    int o1, o2;
    if (tpl_numeric_ex(a, al, &x, &o1) == 2 &&
        tpl_numeric_ex(b, bl, &y, &o2) == 2) {
      if (o1 && o1 == o2 && x.u.f - y.u.f == 0.)
        return tpl_bin_strcmp(a, al, b, bl);
      if (x.type == TPL_FLOAT || y.type == TPL_FLOAT) {
        double d1, d2;
        if (x.type != TPL_FLOAT) {
          if (o2)
            return -o2;
          d1 = (double)x.u.i;
          d2 = y.u.f;
        } else if (y.type != TPL_FLOAT) {
          if (o1)
            return o1;
          d1 = x.u.f;
          d2 = (double)y.u.i;
        } else {
          d1 = x.u.f;
          d2 = y.u.f;
          if (d1 == d2 && !isfinite(d1))
            return tpl_bin_strcmp(a, al, b, bl);
        }
        double diff = d1 - d2;
        return diff > 0 ? 1 : diff < 0 ? -1 : 0;
      }
      return tpl_cmp3_i(x.u.i, y.u.i);
    }
  }
  return tpl_bin_strcmp(a, al, b, bl);
}

static int tpl_cmp_arrays(tpl_rt *rt, const tpl_arr *x, const tpl_arr *y) {
  if (x->n != y->n)
    return x->n < y->n ? -1 : 1;
  for (size_t i = 0; i < x->n; i++) {
    tpl_value v2;
    if (y->list && x->list) {
      v2 = y->list->items[i];
    } else if (y->list) {
      tpl_value k = tpl_arr_key(x, i);
      if (k.type != TPL_INT || k.u.i < 0 || (uint64_t)k.u.i >= y->n)
        return 1;
      v2 = y->list->items[k.u.i];
    } else if (!tpl_map_get(y->map, tpl_arr_key(x, i), &v2)) {
      return 1; /* uncomparable */
    }
    int r = tpl_compare(rt, tpl_arr_val(x, i), v2);
    if (r)
      return r;
  }
  return 0;
}

int tpl_compare(tpl_rt *rt, tpl_value a, tpl_value b) {
  uint8_t ta = a.type, tb = b.type;
  /* Fast paths for the common pairs. */
  if (ta == TPL_INT && tb == TPL_INT)
    return tpl_cmp3_i(a.u.i, b.u.i);
  if ((ta == TPL_INT || ta == TPL_FLOAT) && (tb == TPL_INT || tb == TPL_FLOAT))
    return tpl_cmp_nums(a, b);
  if (ta == TPL_STR && tb == TPL_STR)
    return tpl_cmp_strs(a.u.s, a.len, b.u.s, b.len);

  if (ta == TPL_NULL && tb == TPL_STR)
    return b.len == 0 ? 0 : -1;
  if (ta == TPL_STR && tb == TPL_NULL)
    return a.len == 0 ? 0 : 1;
  if (ta == TPL_BOOL || tb == TPL_BOOL || ta == TPL_NULL || tb == TPL_NULL) {
    bool x = tpl_truthy(a), y = tpl_truthy(b);
    return x == y ? 0 : (x ? 1 : -1);
  }
  /* NAN against a string is 1 both ways round, as in PHP */
  if ((ta == TPL_INT || ta == TPL_FLOAT) && tb == TPL_STR)
    return ta == TPL_FLOAT && isnan(a.u.f) ? 1
                                           : tpl_cmp_num_str(a, b.u.s, b.len);
  if (ta == TPL_STR && (tb == TPL_INT || tb == TPL_FLOAT))
    return tb == TPL_FLOAT && isnan(b.u.f) ? 1
                                           : -tpl_cmp_num_str(b, a.u.s, a.len);

  bool aa = ta == TPL_LIST || ta == TPL_MAP,
       ba = tb == TPL_LIST || tb == TPL_MAP;
  if (aa && ba) {
    tpl_arr x, y;
    tpl_arr_of(rt, a, &x);
    tpl_arr_of(rt, b, &y);
    return tpl_cmp_arrays(rt, &x, &y);
  }
  if (aa)
    return 1;
  if (ba)
    return -1;

  if (ta == TPL_OBJ && tb == TPL_OBJ) {
    const tpl_obj_class *cls = a.u.obj->cls;
    if (cls == b.u.obj->cls && cls->compare)
      return cls->compare(rt, a.u.obj, b.u.obj);
    if (a.u.obj == b.u.obj ||
        (a.u.obj->cls == b.u.obj->cls && a.u.obj->data == b.u.obj->data))
      return 0;
    return 1; /* uncomparable */
  }
  if (ta == TPL_FUNC || tb == TPL_FUNC)
    return (ta == tb && a.u.fn == b.u.fn) ? 0 : 1;
  /* An object against a scalar: by its string form when it has one. */
  if (ta == TPL_OBJ && a.u.obj->cls->to_string)
    return tpl_compare(rt, tpl_to_str(rt, a), b);
  if (tb == TPL_OBJ && b.u.obj->cls->to_string)
    return tpl_compare(rt, a, tpl_to_str(rt, b));
  return ta == TPL_OBJ ? 1 : -1;
}

bool tpl_loose_eq(tpl_rt *rt, tpl_value a, tpl_value b) {
  if (a.type == TPL_STR && b.type == TPL_STR) {
    if (a.len == b.len && (a.u.s == b.u.s || memcmp(a.u.s, b.u.s, a.len) == 0))
      return true;
    return tpl_cmp_strs(a.u.s, a.len, b.u.s, b.len) == 0;
  }
  if (a.type == TPL_FLOAT || b.type == TPL_FLOAT) {
    /* NAN is never equal, even to itself. */
    if ((a.type == TPL_FLOAT && isnan(a.u.f)) ||
        (b.type == TPL_FLOAT && isnan(b.u.f)))
      return (a.type == TPL_BOOL || b.type == TPL_BOOL || a.type == TPL_NULL ||
              b.type == TPL_NULL)
                 ? tpl_truthy(a) == tpl_truthy(b)
                 : false;
  }
  return tpl_compare(rt, a, b) == 0;
}

bool tpl_identical(tpl_value a, tpl_value b) {
  bool aa = a.type == TPL_LIST || a.type == TPL_MAP;
  bool ba = b.type == TPL_LIST || b.type == TPL_MAP;
  if (aa && ba) {
    tpl_arr x, y;
    tpl_arr_of(NULL, a, &x);
    tpl_arr_of(NULL, b, &y);
    if (x.n != y.n)
      return false;
    for (size_t i = 0; i < x.n; i++) {
      tpl_value k1 = tpl_arr_key(&x, i), k2 = tpl_arr_key(&y, i);
      if (!tpl_key_eq(&k1, &k2) ||
          !tpl_identical(tpl_arr_val(&x, i), tpl_arr_val(&y, i)))
        return false;
    }
    return true;
  }
  if (a.type != b.type)
    return false;
  switch (a.type) {
  case TPL_NULL:
    return true;
  case TPL_BOOL:
    return a.u.b == b.u.b;
  case TPL_INT:
    return a.u.i == b.u.i;
  case TPL_FLOAT:
    return a.u.f == b.u.f;
  case TPL_STR:
    return a.len == b.len && (a.len == 0 || memcmp(a.u.s, b.u.s, a.len) == 0);
  case TPL_OBJ:
    return a.u.obj == b.u.obj ||
           (a.u.obj->cls == b.u.obj->cls && a.u.obj->data == b.u.obj->data);
  default:
    return a.u.fn == b.u.fn;
  }
}

/* ---- UTF-8 ---------------------------------------------------------- */

size_t tpl_utf8_decode(const unsigned char *s, size_t len, uint32_t *cp) {
  unsigned c = s[0];
  *cp = c;
  if (c < 0x80)
    return 1;
  if (c < 0xC2)
    return 0;
  if (c < 0xE0) {
    if (len < 2 || (s[1] & 0xC0) != 0x80)
      return 0;
    *cp = ((c & 0x1F) << 6) | (s[1] & 0x3F);
    return 2;
  }
  if (c < 0xF0) {
    if (len < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
      return 0;
    uint32_t u =
        ((c & 0x0F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
    if (u < 0x800 || (u >= 0xD800 && u <= 0xDFFF))
      return 0;
    *cp = u;
    return 3;
  }
  if (c < 0xF5) {
    if (len < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 ||
        (s[3] & 0xC0) != 0x80)
      return 0;
    uint32_t u = ((c & 0x07) << 18) | ((uint32_t)(s[1] & 0x3F) << 12) |
                 ((uint32_t)(s[2] & 0x3F) << 6) | (s[3] & 0x3F);
    if (u < 0x10000 || u > 0x10FFFF)
      return 0;
    *cp = u;
    return 4;
  }
  return 0;
}

size_t tpl_utf8_encode(uint32_t cp, char *buf) {
  if (cp < 0x80) {
    buf[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    buf[0] = (char)(0xC0 | (cp >> 6));
    buf[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    buf[0] = (char)(0xE0 | (cp >> 12));
    buf[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    buf[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  buf[0] = (char)(0xF0 | (cp >> 18));
  buf[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  buf[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  buf[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

bool tpl_utf8_valid(const char *s, size_t len) {
  const unsigned char *p = (const unsigned char *)s;
  size_t i = 0;
  while (i < len) {
    if (p[i] < 0x80) {
      i++;
      continue;
    }
    uint32_t cp;
    size_t n = tpl_utf8_decode(p + i, len - i, &cp);
    if (!n)
      return false;
    i += n;
  }
  return true;
}

/* mbstring steps through UTF-8 by the lead byte alone, without validating;
 * doing the same keeps lengths and offsets equal to PHP's on bad input. */
static inline size_t tpl_utf8_step(unsigned char c) {
  return c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : c < 0xF8 ? 4 : 1;
}

size_t tpl_utf8_len(const char *s, size_t len) {
  size_t n = 0;
  for (size_t i = 0; i < len; n++)
    i += tpl_utf8_step((unsigned char)s[i]);
  return n;
}

size_t tpl_utf8_offset(const char *s, size_t len, size_t index) {
  size_t i = 0;
  while (index && i < len) {
    i += tpl_utf8_step((unsigned char)s[i]);
    index--;
  }
  return i < len ? i : len;
}

tpl_value tpl_mb_substr(tpl_rt *rt, tpl_value s, int64_t start, bool has_length,
                        int64_t length) {
  (void)rt;
  size_t n = 0;
  bool ascii = true;
  for (size_t i = 0; i < s.len; i++)
    if ((unsigned char)s.u.s[i] >= 0x80) {
      ascii = false;
      break;
    }
  n = ascii ? s.len : tpl_utf8_len(s.u.s, s.len);
  int64_t len = (int64_t)n;
  if (start < 0) {
    start += len;
    if (start < 0)
      start = 0;
  } else if (start > len) {
    start = len;
  }
  int64_t end;
  if (!has_length) {
    end = len;
  } else if (length < 0) {
    end = len + length;
    if (end < start)
      end = start;
  } else {
    end = length > len - start ? len : start + length;
  }
  size_t b0 =
      ascii ? (size_t)start : tpl_utf8_offset(s.u.s, s.len, (size_t)start);
  size_t b1 = ascii ? (size_t)end
                    : b0 + tpl_utf8_offset(s.u.s + b0, s.len - b0,
                                           (size_t)(end - start));
  tpl_value r = tpl_str(s.u.s + b0, b1 - b0);
  return r;
}

/* ---- length, emptiness ---------------------------------------------- */

int64_t tpl_length(tpl_rt *rt, tpl_value v) {
  switch (v.type) {
  case TPL_NULL:
    return 0;
  case TPL_STR:
    return (int64_t)tpl_utf8_len(v.u.s, v.len);
  case TPL_BOOL:
  case TPL_INT:
  case TPL_FLOAT: {
    tpl_value s = tpl_to_str(rt, v);
    return (int64_t)s.len;
  }
  case TPL_LIST:
    return (int64_t)v.u.list->len;
  case TPL_MAP:
    return (int64_t)v.u.map->len;
  case TPL_OBJ: {
    tpl_arr a;
    if (tpl_arr_of(rt, v, &a))
      return (int64_t)a.n;
    if (v.u.obj->cls->to_string) {
      tpl_value s = tpl_to_str(rt, v);
      return (int64_t)tpl_utf8_len(s.u.s, s.len);
    }
    return 1;
  }
  default:
    return 1;
  }
}

bool tpl_is_iterable(tpl_value v) {
  return v.type == TPL_LIST || v.type == TPL_MAP ||
         (v.type == TPL_OBJ && v.u.obj->cls->to_array);
}

bool tpl_is_empty(tpl_rt *rt, tpl_value v) {
  switch (v.type) {
  case TPL_NULL:
    return true;
  case TPL_BOOL:
    return !v.u.b;
  case TPL_STR:
    return v.len == 0;
  case TPL_LIST:
    return v.u.list->len == 0;
  case TPL_MAP:
    return v.u.map->len == 0;
  case TPL_OBJ: {
    tpl_arr a;
    if (tpl_arr_of(rt, v, &a))
      return a.n == 0;
    if (v.u.obj->cls->to_string)
      return tpl_to_str(rt, v).len == 0;
    return false;
  }
  default:
    return false;
  }
}

/* ---- the string builder --------------------------------------------- */

void tpl_sb_add_value(tpl_rt *rt, oc_sb *b, tpl_value v) {
  switch (v.type) {
  case TPL_STR:
    oc_sb_add(b, v.u.s, v.len);
    return;
  case TPL_INT:
    oc_sb_add_int(b, v.u.i);
    return;
  case TPL_FLOAT:
    oc_sb_reserve(b, 40);
    b->len += tpl_format_float(v.u.f, b->p + b->len);
    return;
  case TPL_NULL:
    return;
  case TPL_BOOL:
    if (v.u.b)
      oc_sb_addc(b, '1');
    return;
  default: {
    tpl_value s = tpl_to_str(rt, v);
    oc_sb_add(b, s.u.s, s.len);
  }
  }
}

tpl_value tpl_sb_value(oc_sb *b) {
  return tpl_str(b->p, b->len > UINT32_MAX ? UINT32_MAX : b->len);
}

/* ---- per-render library state --------------------------------------- */

tpl_lib_state *tpl_lib(tpl_rt *rt) {
  if (!rt->lib)
    rt->lib = oc_arena_calloc(rt->arena, 1, sizeof(tpl_lib_state));
  return rt->lib;
}

/* ---- PHP's round() -------------------------------------------------- */

static double tpl_pow10i(int power) {
  static const double p[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                             1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                             1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  if (power < 0 || power > 22)
    return pow(10.0, (double)power);
  return p[power];
}

static double tpl_round_half_up(double v) {
  return v >= 0.0 ? floor(v + 0.5) : ceil(v - 0.5);
}

static double tpl_scale10(double v, int places) {
  double f = tpl_pow10i(places < 0 ? -places : places);
  return places >= 0 ? v * f : v / f;
}

/* PHP (before 8.4) first rounds to the 15 significant digits a double can
 * hold, so that 0.285 (really 0.28499999...) rounds to 0.29 as people
 * expect; the same steps give the same results. */
double tpl_php_round(double value, int places) {
  if (!isfinite(value) || value == 0.0)
    return value;
  if (places < -10000)
    places = -10000;
  if (places > 10000)
    places = 10000;
  int precision_places = 14 - (int)floor(log10(fabs(value)));
  double f1 = tpl_pow10i(places < 0 ? -places : places);
  double tmp;
  if (precision_places > places && precision_places - 15 < places) {
    int use = precision_places < -(4 * 15) ? -(4 * 15) : precision_places;
    tmp = tpl_round_half_up(tpl_scale10(value, use));
    use = places - use;
    if (use < -(4 * 15))
      use = -(4 * 15);
    tmp = tmp / tpl_pow10i(use < 0 ? -use : use);
  } else {
    tmp = places >= 0 ? value * f1 : value / f1;
    if (fabs(tmp) >= 1e15)
      return value;
  }
  tmp = tpl_round_half_up(tmp);
  if ((places < 0 ? -places : places) < 23) {
    tmp = places > 0 ? tmp / f1 : tmp * f1;
  } else {
    char buf[64];
    snprintf(buf, sizeof buf, "%15fe%d", tmp, -places);
    double r = strtod(buf, NULL);
    if (!isfinite(r))
      return value;
    tmp = r;
  }
  return tmp;
}
