/* Data files for `themec render --data FILE`: JSON or YAML (libyaml reads
 * both, JSON being YAML) turned into template values, with plain scalars
 * typed by the YAML 1.2 core schema so that JSON numbers, booleans and null
 * come out as PHP's json_decode gives them. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "oc_alloc.h"
#include "oc_file.h"
#include "oc_hash.h"
#include "tpl_loader.h"
#include "tpl_yaml.h"

typedef struct dp {
  oc_arena *a;
  const char *name;
  const char *text;
  size_t len;
  tpl_diag *diag;
  /* Mapping keys, interned: a list of 2,000 TOC entries then holds one
   * "title" instead of 2,000, and attribute lookups meet the same pointer
   * again and again (see tpl_getattr_name_ic). */
  oc_hidx *keys; /* tpl_value (strings in the arena) by their bytes */
} dp;

/* What the key index is asked: bytes. */
typedef struct dp_bytes {
  const char *s;
  size_t n;
} dp_bytes;

static bool dp_key_eq(const void *entry, const void *key) {
  const tpl_value *k = entry;
  const dp_bytes *b = key;
  return k->len == b->n && !memcmp(k->u.s, b->s, b->n);
}

static tpl_value dp_key(dp *d, const char *s, size_t n) {
  uint64_t h = oc_hash_bytes(OC_HASH_SEED, s, n);
  dp_bytes b = {s, n};
  tpl_value *k = oc_hidx_get(d->keys, h, dp_key_eq, &b);
  if (!k) {
    k = oc_arena_alloc(d->a, sizeof *k);
    *k = tpl_str_copy(d->a, s, n);
    oc_hidx_put(d->keys, h, k);
  }
  return *k;
}

static void dp_error_at(dp *d, size_t line, size_t col, const char *fmt,
                        const char *a, const char *b) {
  tpl_loc loc = {d->name, (uint32_t)line, (uint32_t)col};
  if (b)
    tpl_diag_set(d->diag, &loc, fmt, a, b);
  else
    tpl_diag_set(d->diag, &loc, fmt, a);
}

static void dp_error_pos(dp *d, tpl_yaml_pos p, const char *fmt,
                         const char *arg) {
  dp_error_at(d, p.line, p.col, fmt, arg, NULL);
}

/* A problem of the YAML, in the words of theme developers' tools. */
static void dp_yaml_error(void *user, const tpl_yaml_error *e) {
  dp *d = user;
  switch (e->problem) {
  case TPL_YAML_SYNTAX: {
    const char *problem = e->what ? e->what : "cannot parse the data";
    if (e->encoding) {
      /* The reader reports a byte offset, not a mark. */
      tpl_yaml_pos p =
          tpl_yaml_offset_pos(d->text, d->len, e->pos.offset, false);
      dp_error_at(d, p.line, p.col, "%s", problem, NULL);
    } else if (e->context) {
      dp_error_at(d, e->pos.line, e->pos.col, "%s %s", problem, e->context);
    } else {
      dp_error_at(d, e->pos.line, e->pos.col, "%s", problem, NULL);
    }
    break;
  }
  case TPL_YAML_NO_PARSER:
    tpl_diag_set(d->diag, NULL, "cannot start the YAML parser");
    break;
  case TPL_YAML_TOO_DEEP:
    dp_error_pos(d, e->pos, "nesting deeper than %s levels", "1000");
    break;
  case TPL_YAML_UNKNOWN_ANCHOR:
    dp_error_pos(d, e->pos, "unknown anchor \"%s\"", e->anchor);
    break;
  case TPL_YAML_KEY_NOT_SCALAR:
    dp_error_pos(d, e->pos, "%s", "mapping keys must be scalars");
    break;
  case TPL_YAML_UNEXPECTED:
    dp_error_pos(d, e->pos, "%s", "unexpected YAML event");
    break;
  }
}

/* ---- scalars -------------------------------------------------------- */

static bool dp_is(const char *s, size_t n, const char *a, const char *b,
                  const char *c) {
  return (strlen(a) == n && memcmp(s, a, n) == 0) ||
         (strlen(b) == n && memcmp(s, b, n) == 0) ||
         (strlen(c) == n && memcmp(s, c, n) == 0);
}

static bool dp_digits(const char *s, size_t n, int base) {
  if (!n)
    return false;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    bool ok = base == 16 ? ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
                            (c >= 'A' && c <= 'F'))
                         : (c >= '0' && c < '0' + base);
    if (!ok)
      return false;
  }
  return true;
}

/* [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? */
static bool dp_is_float(const char *s, size_t n) {
  size_t i = 0;
  if (i < n && (s[i] == '-' || s[i] == '+'))
    i++;
  size_t int_digits = 0, frac_digits = 0;
  while (i < n && s[i] >= '0' && s[i] <= '9')
    i++, int_digits++;
  if (i < n && s[i] == '.') {
    i++;
    while (i < n && s[i] >= '0' && s[i] <= '9')
      i++, frac_digits++;
    if (!int_digits && !frac_digits)
      return false;
  } else if (!int_digits) {
    return false;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    if (i < n && (s[i] == '-' || s[i] == '+'))
      i++;
    size_t exp_digits = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9')
      i++, exp_digits++;
    if (!exp_digits)
      return false;
  }
  return i == n;
}

/* An integer that does not fit becomes a float, as json_decode does. */
static tpl_value dp_int(const char *s, size_t n, int base, size_t skip) {
  char buf[128];
  if (n >= sizeof buf)
    return tpl_float(strtod(s, NULL));
  memcpy(buf, s, n);
  buf[n] = 0;
  bool neg = buf[0] == '-';
  const char *digits = buf + skip + (buf[0] == '-' || buf[0] == '+');
  errno = 0;
  unsigned long long u = strtoull(digits, NULL, base);
  if (errno == ERANGE || u > (unsigned long long)INT64_MAX + (neg ? 1u : 0u)) {
    if (base == 10)
      return tpl_float(strtod(buf, NULL));
    return tpl_float(neg ? -(double)u : (double)u);
  }
  if (neg)
    return tpl_int(u == (unsigned long long)INT64_MAX + 1u ? INT64_MIN
                                                           : -(int64_t)u);
  return tpl_int((int64_t)u);
}

/* The YAML 1.2 core schema for a plain scalar. */
static tpl_value dp_plain(dp *d, const char *s, size_t n) {
  if (!n || dp_is(s, n, "~", "null", "Null") || dp_is(s, n, "NULL", "", ""))
    return tpl_null();
  if (dp_is(s, n, "true", "True", "TRUE"))
    return tpl_bool(true);
  if (dp_is(s, n, "false", "False", "FALSE"))
    return tpl_bool(false);
  size_t sign = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (dp_digits(s + sign, n - sign, 10))
    return dp_int(s, n, 10, 0);
  if (n > 2 && s[0] == '0' && s[1] == 'o' && dp_digits(s + 2, n - 2, 8))
    return dp_int(s, n, 8, 2);
  if (n > 2 && s[0] == '0' && s[1] == 'x' && dp_digits(s + 2, n - 2, 16))
    return dp_int(s, n, 16, 2);
  if (dp_is_float(s, n)) {
    char buf[128];
    if (n < sizeof buf) {
      memcpy(buf, s, n);
      buf[n] = 0;
      return tpl_float(strtod(buf, NULL));
    }
  }
  const char *t = s + sign;
  size_t tn = n - sign;
  if (dp_is(t, tn, ".inf", ".Inf", ".INF"))
    return tpl_float(s[0] == '-' ? -INFINITY : INFINITY);
  if (!sign && dp_is(s, n, ".nan", ".NaN", ".NAN"))
    return tpl_float(NAN);
  return tpl_str_copy(d->a, s, n);
}

/* ---- nodes: template values ----------------------------------------- */

static bool dp_scalar(void *user, const tpl_yaml_scalar *sc, bool key,
                      tpl_yaml_node *out) {
  dp *d = user;
  const char *s = sc->text;
  size_t n = sc->len;
  if (key)
    out->v = dp_key(d, s, n);
  else if (sc->tag && strcmp(sc->tag, "!") != 0)
    out->v = strcmp(sc->tag, TPL_YAML_STR_TAG) == 0
                 ? tpl_str_copy(d->a, s, n)
                 : dp_plain(d, s, n); /* !!int, !!float, !!bool, !!null… */
  else if (sc->plain)
    out->v = dp_plain(d, s, n);
  else
    out->v = tpl_str_copy(d->a, s, n);
  return true;
}

static bool dp_sequence(void *user, tpl_yaml_pos pos,
                        const tpl_yaml_node *items, size_t n,
                        tpl_yaml_node *out) {
  dp *d = user;
  (void)pos;
  tpl_list *l = tpl_list_new(d->a, n);
  for (size_t i = 0; i < n; i++)
    l->items[i] = items[i].v;
  out->v = tpl_list_value(l);
  return true;
}

static bool dp_map_begin(void *user, tpl_yaml_pos pos, tpl_yaml_node *map) {
  dp *d = user;
  (void)pos;
  map->v = tpl_map_value(tpl_map_new(d->a, 8));
  return true;
}

static bool dp_map_pair(void *user, tpl_yaml_node *map,
                        const tpl_yaml_pair *pair) {
  dp *d = user;
  tpl_map_set(d->a, map->v.u.map, pair->key.v, pair->val.v);
  return true;
}

static bool dp_map_end(void *user, tpl_yaml_node *map) {
  dp *d = user;
  map->v = tpl_map_or_list(d->a, map->v.u.map);
  return true;
}

static bool dp_is_key(void *user, const tpl_yaml_node *n) {
  (void)user;
  return n->v.type == TPL_STR || n->v.type == TPL_INT;
}

static int dp_hex4(const char *s) {
  int v = 0;
  for (int i = 0; i < 4; i++) {
    char c = s[i];
    int h = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    if (h < 0)
      return -1;
    v = v * 16 + h;
  }
  return v;
}

/* JSON writes characters beyond the BMP as UTF-16 surrogate pairs
 * ("\ud83d\ude00"), which YAML's escapes do not know: such pairs become
 * YAML's "\U0001f600". Returns a malloc'd copy when something changed. */
static char *dp_fix_surrogates(const char *text, size_t len, size_t *out_len) {
  char *copy = NULL;
  size_t o = 0, backslashes = 0;
  for (size_t i = 0; i < len; i++) {
    if (text[i] == '\\' && backslashes % 2 == 0 && i + 12 <= len &&
        text[i + 1] == 'u' && text[i + 6] == '\\' && text[i + 7] == 'u') {
      int hi = dp_hex4(text + i + 2), lo = dp_hex4(text + i + 8);
      if (hi >= 0xD800 && hi <= 0xDBFF && lo >= 0xDC00 && lo <= 0xDFFF) {
        if (!copy) {
          copy = oc_malloc(oc_size_add(len, 1));
          memcpy(copy, text, i);
          o = i;
        }
        unsigned cp = 0x10000u + (((unsigned)hi - 0xD800u) << 10) +
                      ((unsigned)lo - 0xDC00u);
        o += (size_t)snprintf(copy + o, 11, "\\U%08x", cp);
        i += 11;
        backslashes = 0;
        continue;
      }
    }
    backslashes = text[i] == '\\' ? backslashes + 1 : 0;
    if (copy)
      copy[o++] = text[i];
  }
  if (copy)
    *out_len = o;
  return copy;
}

int tpl_data_parse(oc_arena *a, const char *name, const char *text, size_t len,
                   tpl_value *out, tpl_diag *diag) {
  size_t fixed_len = 0;
  char *fixed = dp_fix_surrogates(text, len, &fixed_len);
  if (fixed) {
    text = fixed;
    len = fixed_len;
  }
  dp d;
  memset(&d, 0, sizeof d);
  d.a = a;
  /* in the arena, so that an arena cap unwinding the read frees it too */
  d.keys = oc_arena_alloc(a, sizeof *d.keys);
  oc_hidx_init(d.keys, a, 64);
  d.name = name;
  d.text = text;
  d.len = len;
  d.diag = diag;
  memset(diag, 0, sizeof *diag);
  tpl_yaml_builder b = {&d,          dp_scalar,  dp_sequence, dp_map_begin,
                        dp_map_pair, dp_map_end, dp_is_key,   dp_yaml_error};
  tpl_yaml_node root = {.v = tpl_null()};
  int rc = tpl_yaml_read(a, text, len, &b, &root);
  *out = rc == 0 ? root.v : tpl_null();
  free(fixed);
  return rc;
}

int tpl_data_load(oc_arena *a, const char *path, tpl_value *out,
                  tpl_diag *diag) {
  size_t len;
  char *buf = oc_read_file(path, &len);
  if (!buf) {
    tpl_diag_set(diag, &(tpl_loc){path, 0, 0}, "cannot read: %s",
                 oc_file_error(errno));
    *out = tpl_null();
    return -1;
  }
  int r = tpl_data_parse(a, path, buf, len, out, diag);
  free(buf);
  return r;
}
