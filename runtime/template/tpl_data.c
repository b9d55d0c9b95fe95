/* Data files for `themec render --data FILE`: JSON or YAML (libyaml reads
 * both, JSON being YAML) turned into template values, with plain scalars
 * typed by the YAML 1.2 core schema so that JSON numbers, booleans and null
 * come out as PHP's json_decode gives them. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <yaml.h>

#include "tpl_interp.h"

#define DATA_MAX_DEPTH 1000

typedef struct dp_anchor {
  struct dp_anchor *next;
  const char *name;
  tpl_value v;
} dp_anchor;

typedef struct dp {
  yaml_parser_t parser;
  oc_arena *a;
  const char *name;
  const char *text;
  size_t len;
  tpl_diag *diag;
  dp_anchor *anchors;
  /* Mapping keys, interned: a list of 2,000 TOC entries then holds one
   * "title" instead of 2,000, and attribute lookups meet the same pointer
   * again and again (see tpl_getattr_name_ic). */
  tpl_value *keys;
  size_t nkeys, keys_cap;
} dp;

static tpl_value dp_key(dp *d, const char *s, size_t n) {
  if (d->nkeys * 2 >= d->keys_cap) {
    size_t cap = d->keys_cap ? d->keys_cap * 2 : 64;
    tpl_value *keys = oc_arena_calloc(d->a, cap, sizeof *keys);
    for (size_t i = 0; i < d->keys_cap; i++) {
      tpl_value k = d->keys[i];
      if (k.type != TPL_STR)
        continue;
      size_t pos = tpl_hash_bytes(k.u.s, k.len) & (cap - 1);
      while (keys[pos].type == TPL_STR)
        pos = (pos + 1) & (cap - 1);
      keys[pos] = k;
    }
    d->keys = keys;
    d->keys_cap = cap;
  }
  size_t pos = tpl_hash_bytes(s, n) & (d->keys_cap - 1);
  for (; d->keys[pos].type == TPL_STR; pos = (pos + 1) & (d->keys_cap - 1)) {
    tpl_value k = d->keys[pos];
    if (k.len == n && !memcmp(k.u.s, s, n))
      return k;
  }
  d->keys[pos] = tpl_str_copy(d->a, s, n);
  d->nkeys++;
  return d->keys[pos];
}

static void dp_error_at(dp *d, size_t line, size_t col, const char *fmt,
                        const char *a, const char *b) {
  tpl_loc loc = {d->name, (uint32_t)line, (uint32_t)col};
  if (b)
    tpl_diag_set(d->diag, &loc, fmt, a, b);
  else
    tpl_diag_set(d->diag, &loc, fmt, a);
}

static void dp_error_mark(dp *d, const yaml_mark_t *m, const char *msg,
                          const char *arg) {
  dp_error_at(d, m->line + 1, m->column + 1, msg, arg, NULL);
}

/* libyaml's own failure, located at its mark (or byte offset for bad
 * encodings, which the reader reports without a mark). */
static void dp_parser_error(dp *d) {
  yaml_parser_t *p = &d->parser;
  const char *problem = p->problem ? p->problem : "cannot parse the data";
  if (p->error == YAML_READER_ERROR) {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < p->problem_offset && i < d->len; i++) {
      if (d->text[i] == '\n') {
        line++;
        col = 1;
      } else {
        col++;
      }
    }
    dp_error_at(d, line, col, "%s", problem, NULL);
  } else if (p->context) {
    dp_error_at(d, p->problem_mark.line + 1, p->problem_mark.column + 1,
                "%s %s", problem, p->context);
  } else {
    dp_error_at(d, p->problem_mark.line + 1, p->problem_mark.column + 1, "%s",
                problem, NULL);
  }
}

static bool dp_next(dp *d, yaml_event_t *ev) {
  if (!yaml_parser_parse(&d->parser, ev)) {
    dp_parser_error(d);
    return false;
  }
  return true;
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

static tpl_value dp_scalar(dp *d, const yaml_event_t *ev) {
  const char *s = (const char *)ev->data.scalar.value;
  size_t n = ev->data.scalar.length;
  const char *tag = (const char *)ev->data.scalar.tag;
  if (tag && strcmp(tag, "!") != 0) {
    if (strcmp(tag, YAML_STR_TAG) == 0)
      return tpl_str_copy(d->a, s, n);
    return dp_plain(d, s, n); /* !!int, !!float, !!bool, !!null, others */
  }
  if (ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
    return dp_plain(d, s, n);
  return tpl_str_copy(d->a, s, n);
}

/* ---- nodes ---------------------------------------------------------- */

static void dp_anchor_add(dp *d, const yaml_char_t *anchor, tpl_value v) {
  if (!anchor)
    return;
  dp_anchor *an = oc_arena_alloc(d->a, sizeof *an);
  const char *s = (const char *)anchor;
  an->name = oc_arena_strndup(d->a, s, strlen(s));
  an->v = v;
  an->next = d->anchors;
  d->anchors = an;
}

static bool dp_node(dp *d, yaml_event_t *ev, tpl_value *out, int depth);

static bool dp_sequence(dp *d, yaml_event_t *start, tpl_value *out,
                        int depth) {
  size_t n = 0, cap = 8;
  tpl_value *items = oc_arena_alloc(d->a, cap * sizeof *items);
  for (;;) {
    yaml_event_t ev;
    if (!dp_next(d, &ev))
      return false;
    if (ev.type == YAML_SEQUENCE_END_EVENT) {
      yaml_event_delete(&ev);
      break;
    }
    if (n == cap) {
      if (cap > SIZE_MAX / 2 / sizeof *items) {
        dp_error_mark(d, &ev.start_mark, "%s", "sequence too long");
        yaml_event_delete(&ev);
        return false;
      }
      tpl_value *bigger = oc_arena_alloc(d->a, cap * 2 * sizeof *items);
      memcpy(bigger, items, n * sizeof *items);
      items = bigger;
      cap *= 2;
    }
    bool ok = dp_node(d, &ev, &items[n], depth + 1);
    yaml_event_delete(&ev);
    if (!ok)
      return false;
    n++;
  }
  tpl_list *l = tpl_list_new(d->a, n);
  if (n)
    memcpy(l->items, items, n * sizeof *items);
  *out = tpl_list_value(l);
  dp_anchor_add(d, start->data.sequence_start.anchor, *out);
  return true;
}

static bool dp_mapping(dp *d, yaml_event_t *start, tpl_value *out, int depth) {
  tpl_map *m = tpl_map_new(d->a, 8);
  for (;;) {
    yaml_event_t kev, vev;
    if (!dp_next(d, &kev))
      return false;
    if (kev.type == YAML_MAPPING_END_EVENT) {
      yaml_event_delete(&kev);
      break;
    }
    tpl_value key;
    if (kev.type == YAML_SCALAR_EVENT) {
      key = dp_key(d, (const char *)kev.data.scalar.value,
                   kev.data.scalar.length);
      dp_anchor_add(d, kev.data.scalar.anchor, key);
    } else if (kev.type == YAML_ALIAS_EVENT) {
      bool ok = dp_node(d, &kev, &key, depth + 1);
      if (ok && key.type != TPL_STR && key.type != TPL_INT) {
        dp_error_mark(d, &kev.start_mark, "%s", "mapping keys must be scalars");
        ok = false;
      }
      if (!ok) {
        yaml_event_delete(&kev);
        return false;
      }
    } else {
      dp_error_mark(d, &kev.start_mark, "%s", "mapping keys must be scalars");
      yaml_event_delete(&kev);
      return false;
    }
    yaml_event_delete(&kev);
    if (!dp_next(d, &vev))
      return false;
    tpl_value v;
    bool ok = dp_node(d, &vev, &v, depth + 1);
    yaml_event_delete(&vev);
    if (!ok)
      return false;
    tpl_map_set(d->a, m, key, v);
  }
  *out = tpl_map_or_list(d->a, m);
  dp_anchor_add(d, start->data.mapping_start.anchor, *out);
  return true;
}

static bool dp_node(dp *d, yaml_event_t *ev, tpl_value *out, int depth) {
  if (depth > DATA_MAX_DEPTH) {
    dp_error_mark(d, &ev->start_mark, "nesting deeper than %s levels", "1000");
    return false;
  }
  switch (ev->type) {
  case YAML_SCALAR_EVENT:
    *out = dp_scalar(d, ev);
    dp_anchor_add(d, ev->data.scalar.anchor, *out);
    return true;
  case YAML_SEQUENCE_START_EVENT:
    return dp_sequence(d, ev, out, depth);
  case YAML_MAPPING_START_EVENT:
    return dp_mapping(d, ev, out, depth);
  case YAML_ALIAS_EVENT: {
    const char *name = (const char *)ev->data.alias.anchor;
    for (dp_anchor *an = d->anchors; an; an = an->next)
      if (strcmp(an->name, name) == 0) {
        *out = an->v;
        return true;
      }
    dp_error_mark(d, &ev->start_mark, "unknown anchor \"%s\"", name);
    return false;
  }
  default:
    dp_error_mark(d, &ev->start_mark, "%s", "unexpected YAML event");
    return false;
  }
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
          copy = malloc(len + 1);
          if (!copy)
            return NULL;
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

int tpl_data_parse(oc_arena *a, const char *name, const char *text,
                   size_t len, tpl_value *out, tpl_diag *diag) {
  size_t fixed_len = 0;
  char *fixed = dp_fix_surrogates(text, len, &fixed_len);
  if (fixed) {
    text = fixed;
    len = fixed_len;
  }
  dp d;
  memset(&d, 0, sizeof d);
  d.a = a;
  d.name = name;
  d.text = text;
  d.len = len;
  d.diag = diag;
  memset(diag, 0, sizeof *diag);
  *out = tpl_null();
  if (!yaml_parser_initialize(&d.parser)) {
    tpl_diag_set(diag, NULL, "cannot start the YAML parser");
    free(fixed);
    return -1;
  }
  yaml_parser_set_input_string(&d.parser, (const unsigned char *)text, len);
  bool ok = true, done = false;
  while (ok && !done) {
    yaml_event_t ev;
    if (!dp_next(&d, &ev)) {
      ok = false;
      break;
    }
    switch (ev.type) {
    case YAML_STREAM_START_EVENT:
    case YAML_DOCUMENT_START_EVENT:
      break;
    case YAML_STREAM_END_EVENT:
      done = true;
      break;
    case YAML_DOCUMENT_END_EVENT:
      done = true; /* only the first document counts */
      break;
    default:
      ok = dp_node(&d, &ev, out, 0);
    }
    yaml_event_delete(&ev);
  }
  yaml_parser_delete(&d.parser);
  free(fixed);
  return ok ? 0 : -1;
}

int tpl_data_load(oc_arena *a, const char *path, tpl_value *out,
                  tpl_diag *diag) {
  size_t len;
  char *buf = oc_read_file(path, &len);
  if (!buf) {
    tpl_diag_set(diag, &(tpl_loc){path, 0, 0}, "cannot read: %s",
                 strerror(errno));
    *out = tpl_null();
    return -1;
  }
  int r = tpl_data_parse(a, path, buf, len, out, diag);
  free(buf);
  return r;
}
