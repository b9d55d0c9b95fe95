/* config.yml: read through libyaml's events into a tree that remembers
 * where every value was written, merged (defaults ← file ← --configuration;
 * editions along their `extends` chain), checked, and only then turned into
 * template values, so that every later problem can point at the user's text.
 */
#include "book_config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "oc_alloc.h"
#include "oc_file.h"
#include "oc_hash.h"
#include "oc_path.h"
#include "oc_sb.h"
#include "tpl_yaml.h"

#ifndef OCTAVO_VERSION
#define OCTAVO_VERSION "0.1.0"
#endif

/* ---- the tree ---------------------------------------------------------- */

typedef enum cn_kind { CN_SCALAR, CN_LIST, CN_MAP } cn_kind;

typedef struct cn cn;

typedef struct cn_kid {
  const char *key; /* NUL-terminated copy; NULL in lists */
  size_t key_len;
  bk_pos key_pos;
  cn *val;
} cn_kid;

/* Nodes are never changed once built (aliases and merges share them),
 * except for the memoised value. */
struct cn {
  cn_kind kind;
  tpl_value v;      /* scalars */
  const char *text; /* scalars: as written, for messages */
  bk_pos pos;       /* line 0: not written by the user (a default) */
  cn_kid *kid;
  size_t n, cap;
  /* Maps of more than CN_INDEX_MIN keys: kid positions + 1 by their key's
   * hash (kid may move as it grows), so that finding a key, and so
   * reading, merging and checking a map, stays linear in its size. */
  oc_hidx index;
  bool built;
  tpl_value value;
  /* While its mapping is read: the `<<` values, and where the last was. */
  cn *merges;
  tpl_yaml_pos merge_at;
};

static cn *cn_new(oc_arena *a, cn_kind kind, bk_pos pos) {
  cn *n = oc_arena_calloc(a, 1, sizeof *n);
  n->kind = kind;
  n->pos = pos;
  return n;
}

static cn *cn_scalar(oc_arena *a, tpl_value v, const char *text, bk_pos pos) {
  cn *n = cn_new(a, CN_SCALAR, pos);
  n->v = v;
  n->text = text;
  return n;
}

enum { CN_INDEX_MIN = 8 };

/* What a map's index is asked: a key in a map. */
typedef struct cn_probe {
  const cn *map;
  const char *key;
  size_t len;
} cn_probe;

static bool cn_kid_eq(const void *entry, const void *probe) {
  const cn_probe *p = probe;
  const cn_kid *k = &p->map->kid[(uintptr_t)entry - 1];
  return k->key_len == p->len && memcmp(k->key, p->key, p->len) == 0;
}

static void cn_index_put(cn *map, size_t i) {
  const cn_kid *k = &map->kid[i];
  oc_hidx_put(&map->index, oc_hash_bytes(OC_HASH_SEED, k->key, k->key_len),
              (void *)(uintptr_t)(i + 1));
}

/* Adds an entry; a map's key must not be in it already (cn_find). */
static void cn_add(oc_arena *a, cn *parent, const char *key, size_t key_len,
                   bk_pos key_pos, cn *val) {
  if (parent->n >= UINT32_MAX - 1)
    oc_oom(); /* config.yml is read whole in memory: never this many */
  parent->kid = oc_arena_grow_array(a, parent->kid, parent->n, &parent->cap,
                                    parent->n + 1, sizeof *parent->kid);
  parent->kid[parent->n++] = (cn_kid){key, key_len, key_pos, val};
  if (!key || (parent->n <= CN_INDEX_MIN && !parent->index.cap))
    return;
  if (!parent->index.cap) {
    oc_hidx_init(&parent->index, a, 32);
    for (size_t i = 0; i + 1 < parent->n; i++)
      cn_index_put(parent, i);
  }
  cn_index_put(parent, parent->n - 1);
}

static bool key_is(const cn_kid *k, const char *name) {
  size_t n = strlen(name);
  return k->key && k->key_len == n && memcmp(k->key, name, n) == 0;
}

static cn_kid *cn_find(const cn *map, const char *key, size_t len) {
  if (!map || map->kind != CN_MAP)
    return NULL;
  if (map->index.cap) {
    cn_probe p = {map, key, len};
    uintptr_t i = (uintptr_t)oc_hidx_get(
        &map->index, oc_hash_bytes(OC_HASH_SEED, key, len), cn_kid_eq, &p);
    return i ? &map->kid[i - 1] : NULL;
  }
  for (size_t i = 0; i < map->n; i++)
    if (map->kid[i].key_len == len && memcmp(map->kid[i].key, key, len) == 0)
      return &map->kid[i];
  return NULL;
}

static cn *cn_get(const cn *map, const char *key) {
  cn_kid *k = cn_find(map, key, strlen(key));
  return k ? k->val : NULL;
}

/* A shallow copy whose entries may then be replaced. */
static cn *cn_copy(oc_arena *a, const cn *n) {
  cn *c = cn_new(a, n->kind, n->pos);
  c->v = n->v;
  c->text = n->text;
  for (size_t i = 0; i < n->n; i++)
    cn_add(a, c, n->kid[i].key, n->kid[i].key_len, n->kid[i].key_pos,
           n->kid[i].val);
  return c;
}

static bool cn_is_null(const cn *n) {
  return n->kind == CN_SCALAR && n->v.type == TPL_NULL;
}

static bool cn_is_str(const cn *n) {
  return n->kind == CN_SCALAR && n->v.type == TPL_STR;
}

/* Maps merge key by key; anything else in over replaces base. */
static cn *cn_merge(oc_arena *a, cn *base, cn *over) {
  if (!over)
    return base;
  if (!base || base->kind != CN_MAP || over->kind != CN_MAP)
    return over;
  cn *m = cn_copy(a, base);
  if (over->pos.line)
    m->pos = over->pos;
  for (size_t i = 0; i < over->n; i++) {
    const cn_kid *k = &over->kid[i];
    cn_kid *old = cn_find(m, k->key, k->key_len);
    if (old) {
      old->val = cn_merge(a, old->val, k->val);
      if (k->key_pos.line)
        old->key_pos = k->key_pos;
    } else {
      cn_add(a, m, k->key, k->key_len, k->key_pos, k->val);
    }
  }
  return m;
}

static tpl_value cn_value(oc_arena *a, cn *n) {
  if (!n)
    return tpl_null();
  if (n->built)
    return n->value;
  tpl_value v;
  if (n->kind == CN_SCALAR) {
    v = n->v;
  } else if (n->kind == CN_LIST) {
    tpl_list *l = tpl_list_new(a, n->n);
    for (size_t i = 0; i < n->n; i++)
      l->items[i] = cn_value(a, n->kid[i].val);
    v = tpl_list_value(l);
  } else {
    tpl_map *m = tpl_map_new(a, n->n);
    for (size_t i = 0; i < n->n; i++)
      tpl_map_set(a, m, tpl_str(n->kid[i].key, n->kid[i].key_len),
                  cn_value(a, n->kid[i].val));
    /* PHP cannot tell {0: a, 1: b} from [a, b]; an empty map stays one. */
    v = m->len ? tpl_map_or_list(a, m) : tpl_map_value(m);
  }
  n->built = true;
  n->value = v;
  return v;
}

/* ---- scalars as Symfony YAML 2.8 types them ---------------------------- */

static bool eq_nocase(const char *s, size_t n, const char *lit) {
  if (strlen(lit) != n)
    return false;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z')
      c = (char)(c - 'A' + 'a');
    if (c != lit[i])
      return false;
  }
  return true;
}

/* 0x1F and 0o17; too big for an int, a float (as PHP's hexdec does). */
static bool radix_int(const char *s, size_t n, int base, tpl_value *out) {
  if (!n)
    return false;
  uint64_t v = 0;
  double f = 0;
  bool big = false;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : 99;
    if (d >= base)
      return false;
    f = f * base + d;
    if (v > (uint64_t)(INT64_MAX - d) / (uint64_t)base)
      big = true;
    else
      v = v * (uint64_t)base + (uint64_t)d;
  }
  *out = big ? tpl_float(f) : tpl_int((int64_t)v);
  return true;
}

static tpl_value plain_scalar(oc_arena *a, const char *s, size_t n) {
  if (!n || (n == 1 && s[0] == '~') || eq_nocase(s, n, "null"))
    return tpl_null();
  if (eq_nocase(s, n, "true"))
    return tpl_bool(true);
  if (eq_nocase(s, n, "false"))
    return tpl_bool(false);
  tpl_value v;
  if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'o') &&
      radix_int(s + 2, n - 2, s[1] == 'x' ? 16 : 8, &v))
    return v;
  /* PHP's is_numeric, which Symfony uses, but never with the leading
   * blanks it tolerates (a plain scalar has none anyway). */
  if (((s[0] >= '0' && s[0] <= '9') || s[0] == '-' || s[0] == '+' ||
       s[0] == '.') &&
      tpl_str_is_numeric(s, n, &v))
    return v;
  size_t sign = s[0] == '-' || s[0] == '+';
  if (eq_nocase(s + sign, n - sign, ".inf"))
    return tpl_float(s[0] == '-' ? -INFINITY : INFINITY);
  if (eq_nocase(s, n, ".nan"))
    return tpl_float(NAN);
  return tpl_str_copy(a, s, n);
}

/* ---- reading YAML -------------------------------------------------------- */

/* config.yml and the translations, read by the template layer's YAML
 * reader (tpl_yaml.h) into cn nodes, with this file's messages. */
typedef struct yp {
  oc_arena *a;
  const char *name;
  bool keep_pos; /* false for the built-in defaults */
  const char *text;
  size_t len;
  const oc_reporter *r;
  int errors; /* found by the callbacks, which go on reading */
} yp;

static bk_pos yp_pos(const yp *y, tpl_yaml_pos p) {
  if (!y->keep_pos)
    return (bk_pos){NULL, 0, 0};
  return (bk_pos){y->name, p.line, p.col};
}

static void yp_error(yp *y, tpl_yaml_pos p, const char *fmt, const char *arg) {
  oc_report(y->r, OC_ERROR, y->name, p.line, p.col, fmt, arg);
}

/* libyaml's own words, at its mark; reader errors (bad UTF-8) carry a
 * byte offset instead, which becomes a line and a column of characters. */
static void yp_syntax_error(yp *y, const tpl_yaml_error *e) {
  const char *problem = e->what ? e->what : "cannot read the YAML";
  if (e->encoding) {
    tpl_yaml_pos p = tpl_yaml_offset_pos(y->text, y->len, e->pos.offset, true);
    /* A bad trailing octet is reported after its lead byte; the user's
     * character starts at the lead byte. */
    if (strstr(problem, "trailing") && p.col > 1)
      p.col--;
    oc_report(y->r, OC_ERROR, y->name, p.line, p.col, "%s", problem);
    return;
  }
  unsigned line = e->pos.line, col = e->pos.col;
  /* At the end of a text without a final newline libyaml points at the
   * line after it; point at the end of the last line instead. */
  unsigned nlines = 1;
  size_t last_start = 0;
  for (size_t i = 0; i < y->len; i++)
    if (y->text[i] == '\n' && i + 1 < y->len) {
      nlines++;
      last_start = i + 1;
    }
  if (line > nlines) {
    line = nlines;
    col = 1;
    for (size_t i = last_start; i < y->len && y->text[i] != '\n'; i++)
      if (((unsigned char)y->text[i] & 0xC0) != 0x80)
        col++;
  }
  /* The one character YAML never allows at a token's start, with the
   * advice a writer needs. */
  size_t off = e->pos.offset;
  if (off < y->len && y->text[off] == '\t' &&
      strstr(problem, "cannot start any token")) {
    oc_report(y->r, OC_ERROR, y->name, line, col,
              "a tab character: YAML is indented with spaces, never tabs");
  } else if (e->context) {
    oc_report(y->r, OC_ERROR, y->name, line, col, "%s (%s started at %u:%u)",
              problem, e->context, e->context_pos.line, e->context_pos.col);
  } else {
    oc_report(y->r, OC_ERROR, y->name, line, col, "%s", problem);
  }
}

static void yp_yaml_error(void *user, const tpl_yaml_error *e) {
  yp *y = user;
  switch (e->problem) {
  case TPL_YAML_SYNTAX:
    yp_syntax_error(y, e);
    break;
  case TPL_YAML_NO_PARSER:
    oc_report(y->r, OC_ERROR, y->name, 0, 0, "cannot start the YAML parser");
    break;
  case TPL_YAML_TOO_DEEP:
    yp_error(y, e->pos, "nesting deeper than %s levels", "1000");
    break;
  case TPL_YAML_UNKNOWN_ANCHOR:
    yp_error(y, e->pos, "unknown anchor '%s'", e->anchor);
    break;
  case TPL_YAML_KEY_NOT_SCALAR:
    yp_error(y, e->pos, "%s", "mapping keys must be scalars");
    break;
  case TPL_YAML_UNEXPECTED:
    yp_error(y, e->pos, "%s", "unexpected YAML event");
    break;
  }
}

static bool yp_scalar(void *user, const tpl_yaml_scalar *sc, bool key,
                      tpl_yaml_node *out) {
  yp *y = user;
  (void)key; /* keys are typed as values are: their text is the key */
  const char *s = sc->text;
  size_t n = sc->len;
  /* `"a\0b"`: C strings would end at the NUL, a path or a title would
   * silently lose the rest. */
  if (memchr(s, 0, n)) {
    yp_error(y, sc->pos, "%s",
             "a NUL byte in this string (written '\\0' or '\\x00'); paths "
             "and text cannot hold one");
    y->errors++;
  }
  tpl_value v;
  if (sc->tag && strcmp(sc->tag, "!") != 0)
    v = strcmp(sc->tag, TPL_YAML_STR_TAG) == 0 ? tpl_str_copy(y->a, s, n)
                                               : plain_scalar(y->a, s, n);
  else if (sc->plain)
    v = plain_scalar(y->a, s, n);
  else
    v = tpl_str_copy(y->a, s, n);
  const char *text = v.type == TPL_STR ? v.u.s : oc_arena_strndup(y->a, s, n);
  out->p = cn_scalar(y->a, v, text, yp_pos(y, sc->pos));
  return true;
}

static bool yp_sequence(void *user, tpl_yaml_pos pos,
                        const tpl_yaml_node *items, size_t n,
                        tpl_yaml_node *out) {
  yp *y = user;
  cn *list = cn_new(y->a, CN_LIST, yp_pos(y, pos));
  for (size_t i = 0; i < n; i++) {
    cn *item = items[i].p;
    cn_add(y->a, list, NULL, 0, item->pos, item);
  }
  out->p = list;
  return true;
}

static bool yp_map_begin(void *user, tpl_yaml_pos pos, tpl_yaml_node *map) {
  yp *y = user;
  map->p = cn_new(y->a, CN_MAP, yp_pos(y, pos));
  return true;
}

static bool yp_map_pair(void *user, tpl_yaml_node *mapn,
                        const tpl_yaml_pair *pair) {
  yp *y = user;
  cn *map = mapn->p, *key = pair->key.p, *val = pair->val.p;
  bk_pos key_pos = yp_pos(y, pair->key_pos);
  /* An empty value is best shown at its key, not after the colon. */
  if (pair->empty)
    val->pos = key_pos;
  if (pair->merge) {
    if (!map->merges)
      map->merges = cn_new(y->a, CN_LIST, key_pos);
    cn_add(y->a, map->merges, NULL, 0, key_pos, val);
    map->merge_at = pair->key_pos;
    return true;
  }
  /* The whole key: one holding a NUL ("web\0/..") is not "web". */
  size_t klen = key->v.type == TPL_STR ? key->v.len : strlen(key->text);
  const cn_kid *first = cn_find(map, key->text, klen);
  if (first) {
    /* YAML forbids it, and a writer who edits the second one and sees
     * nothing change deserves to know why. */
    oc_report(y->r, OC_ERROR, y->name, key_pos.line, key_pos.col,
              "duplicate key '%s'", key->text);
    if (first->key_pos.line)
      oc_report(y->r, OC_NOTE, first->key_pos.file, first->key_pos.line,
                first->key_pos.col, "first defined here");
    y->errors++;
    return true;
  }
  cn_add(y->a, map, key->text, klen, key_pos, val);
  return true;
}

/* `<<: *base` or `<<: [*a, *b]`: the keys the mapping lacks. */
static bool yp_merge_into(yp *y, cn *map, cn *src, tpl_yaml_pos at) {
  if (src->kind == CN_LIST) {
    for (size_t i = 0; i < src->n; i++)
      if (!yp_merge_into(y, map, src->kid[i].val, at))
        return false;
    return true;
  }
  if (src->kind != CN_MAP) {
    yp_error(y, at, "%s", "'<<' must be given a map or a list of maps");
    return false;
  }
  for (size_t i = 0; i < src->n; i++) {
    const cn_kid *k = &src->kid[i];
    if (!cn_find(map, k->key, k->key_len))
      cn_add(y->a, map, k->key, k->key_len, k->key_pos, k->val);
  }
  return true;
}

/* Keys written in the mapping win over merged ones, wherever they are. */
static bool yp_map_end(void *user, tpl_yaml_node *mapn) {
  yp *y = user;
  cn *map = mapn->p;
  if (!map->merges)
    return true;
  cn *merges = map->merges;
  map->merges = NULL;
  return yp_merge_into(y, map, merges, map->merge_at);
}

static bool yp_is_key(void *user, const tpl_yaml_node *n) {
  (void)user;
  return ((const cn *)n->p)->kind == CN_SCALAR;
}

/* The first document of text; *out is NULL for an empty one. */
static int yp_parse(oc_arena *a, const char *name, bool keep_pos,
                    const char *text, size_t len, const oc_reporter *r,
                    cn **out) {
  yp y = {a, name, keep_pos, text, len, r, 0};
  /* The file itself: binary or damaged, said so at the byte's place
   * rather than as libyaml's "control characters are not allowed". */
  const char *nul = memchr(text, 0, len);
  if (nul) {
    tpl_yaml_pos p = tpl_yaml_offset_pos(text, len, (size_t)(nul - text), true);
    yp_error(&y, p, "%s", "a NUL byte (the file is binary or damaged)");
    *out = NULL;
    return -1;
  }
  tpl_yaml_builder b = {&y,          yp_scalar,  yp_sequence, yp_map_begin,
                        yp_map_pair, yp_map_end, yp_is_key,   yp_yaml_error};
  tpl_yaml_node root = {.p = NULL};
  int rc = tpl_yaml_read(a, text, len, &b, &root);
  *out = root.p;
  return rc == 0 && y.errors ? -1 : rc;
}

int bk_yaml_parse(oc_arena *a, const char *name, const char *text, size_t len,
                  const oc_reporter *r, tpl_value *out) {
  cn *root;
  int rc = yp_parse(a, name, true, text, len, r, &root);
  *out = rc == 0 ? cn_value(a, root) : tpl_null();
  return rc;
}

tpl_value bk_value_merge(oc_arena *a, tpl_value base, tpl_value over) {
  if (base.type != TPL_MAP || over.type != TPL_MAP)
    return over;
  const tpl_map *b = base.u.map, *o = over.u.map;
  tpl_map *m = tpl_map_new(a, b->len + o->len);
  for (size_t i = 0; i < b->len; i++)
    tpl_map_set(a, m, b->entries[i].key, b->entries[i].val);
  for (size_t i = 0; i < o->len; i++) {
    tpl_value old;
    tpl_value v = o->entries[i].val;
    if (tpl_map_get(m, o->entries[i].key, &old))
      v = bk_value_merge(a, old, v);
    tpl_map_set(a, m, o->entries[i].key, v);
  }
  return tpl_map_value(m);
}

/* ---- the book's files ---------------------------------------------------- */

char *bk_read_book_file(const char *book_dir, const char *rel, size_t *len,
                        bk_read_status *st) {
  char *root = NULL, *path = NULL, *real = NULL, *text = NULL;
  int err = 0;
  *st = BK_READ_FAILED;
  root = realpath(book_dir, NULL);
  size_t dn = strlen(book_dir), rn = strlen(rel);
  path = oc_malloc(oc_size_add(oc_size_add(dn, rn), 2));
  if (!root) {
    err = errno;
    goto done;
  }
  memcpy(path, book_dir, dn);
  path[dn] = '/';
  memcpy(path + dn + 1, rel, rn + 1);
  real = realpath(path, NULL);
  if (!real) {
    err = errno;
    if (err == ENOENT || err == ENOTDIR)
      *st = BK_READ_MISSING;
    goto done;
  }
  size_t n = strlen(root);
  bool inside = strncmp(real, root, n) == 0 &&
                (real[n] == '/' || (n == 1 && real[1] != '\0'));
  if (!inside) {
    *st = BK_READ_OUTSIDE;
    goto done;
  }
  text = oc_read_file(real, len);
  if (text)
    *st = BK_READ_OK;
  else
    err = errno;
done:
  free(root);
  free(path);
  free(real);
  errno = err;
  return text;
}

/* ---- the configuration ----------------------------------------------------
 */

typedef struct cfg_edition {
  const char *name;
  cn *raw;    /* as written: config.yml ← --configuration */
  cn *norm;   /* checked; format lower-cased, isbn and margins normalised */
  cn *merged; /* defaults ← the extends chain ← norm */
  enum { ED_NEW, ED_ON_CHAIN, ED_DONE, ED_BROKEN } state;
} cfg_edition;

struct bk_config {
  oc_arena *a;
  const cn *editions; /* ed[i] is editions->kid[i] */
  cn *root;           /* config.yml ← --configuration */
  cn *book;           /* book defaults ← root's book */
  tpl_value book_value;
  bool book_set;
  cfg_edition *ed;
  size_t ned;
  bk_book_conf book_conf; /* the typed model (book_types.h) */
  bk_edition_conf *edc;   /* edc[i] is ed[i]'s */
};

/* A checking pass: counts the errors it reports. */
typedef struct ck {
  oc_arena *a;
  const oc_reporter *r;
  int errors;
} ck;

static void ck_report(ck *k, oc_severity sev, bk_pos pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void bk_vreport_at(const oc_reporter *r, int *errors, oc_severity sev,
                   bk_pos pos, const char *fmt, va_list ap) {
  oc_vreport(r, sev, pos.file ? pos.file : "config.yml", pos.line, pos.col, fmt,
             ap);
  if (sev == OC_ERROR)
    (*errors)++;
}

static void ck_report(ck *k, oc_severity sev, bk_pos pos, const char *fmt,
                      ...) {
  va_list ap;
  va_start(ap, fmt);
  bk_vreport_at(k->r, &k->errors, sev, pos, fmt, ap);
  va_end(ap);
}

/* What the user wrote, for "must be ..., not X". */
static const char *describe(ck *k, const cn *n) {
  if (n->kind == CN_LIST)
    return "a list";
  if (n->kind == CN_MAP)
    return "a map";
  if (n->v.type == TPL_NULL)
    return "null";
  char buf[64];
  size_t len = strlen(n->text);
  if (len > 40)
    snprintf(buf, sizeof buf, "'%.37s...'", n->text);
  else
    snprintf(buf, sizeof buf, "'%s'", n->text);
  return oc_arena_strndup(k->a, buf, strlen(buf));
}

/* Damerau's optimal string alignment distance, for "did you mean". */
static unsigned edit_distance(const char *a, size_t n, const char *b,
                              size_t m) {
  enum { MAX = 48 };
  if (n > MAX || m > MAX)
    return UINT_MAX;
  unsigned d[MAX + 1][MAX + 1];
  for (size_t i = 0; i <= n; i++)
    d[i][0] = (unsigned)i;
  for (size_t j = 0; j <= m; j++)
    d[0][j] = (unsigned)j;
  for (size_t i = 1; i <= n; i++)
    for (size_t j = 1; j <= m; j++) {
      unsigned best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      if (d[i - 1][j] + 1 < best)
        best = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < best)
        best = d[i][j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
          d[i - 2][j - 2] + 1 < best)
        best = d[i - 2][j - 2] + 1;
      d[i][j] = best;
    }
  return d[n][m];
}

/* The nearest of names within 2 edits, or 1 when either word has 4
 * letters or fewer (a custom `time` is not a misspelt `title`); or NULL. */
static const char *closest(const char *s, size_t n, const char *const *names) {
  const char *best = NULL;
  unsigned best_d = UINT_MAX;
  for (; *names; names++) {
    size_t m = strlen(*names);
    unsigned d = edit_distance(s, n, *names, m);
    if (d > (n <= 4 || m <= 4 ? 1u : 2u))
      continue;
    if (d < best_d) {
      best = *names;
      best_d = d;
    }
  }
  return best;
}

static bool is_one_of(const cn_kid *k, const char *const *names) {
  for (; *names; names++)
    if (key_is(k, *names))
      return true;
  return false;
}

static const char *const top_keys[] = {"book", "easybook", "import", NULL};
static const char *const book_keys[] = {
    "title",     "author",   "edition",  "language", "publication_date",
    "generator", "contents", "editions", NULL};
static const char *const edition_keys[] = {"format",
                                           "extends",
                                           "theme",
                                           "include_styles",
                                           "highlight_code",
                                           "highlight_cache",
                                           "labels",
                                           "toc",
                                           "images_base_dir",
                                           "chunk_level",
                                           "search",
                                           "isbn",
                                           "page_size",
                                           "two_sided",
                                           "margin",
                                           "before_publish",
                                           "after_publish",
                                           "template_max_iterations",
                                           "template_max_output_mb",
                                           "image_max_megapixels",
                                           "image_max_ppi",
                                           "page_source",
                                           "pdf_tagged",
                                           NULL};
static const char *const toc_keys[] = {"deep", "elements", NULL};
static const char *const margin_keys[] = {"top", "bottom", "inner", "outer",
                                          NULL};
static const char *const item_keys[] = {
    "element", "content", "title", "number", "editions", "formats", NULL};
static const char *const formats[] = {"epub", "mobi",         "pdf",
                                      "html", "html_chunked", NULL};

/* A key that looks like a misspelt known one warns; prefix names the map
 * for nested options ("toc."), and strict warns about any unknown key. */
static void check_unknown(ck *k, const cn_kid *kid, const char *const *known,
                          const char *prefix, bool strict) {
  if (is_one_of(kid, known))
    return;
  const char *near = closest(kid->key, kid->key_len, known);
  if (near)
    ck_report(k, OC_WARNING, kid->key_pos,
              "unknown option '%s%s' (did you mean '%s%s'?)", prefix, kid->key,
              prefix, near);
  else if (strict)
    ck_report(k, OC_WARNING, kid->key_pos, "unknown option '%s%s'", prefix,
              kid->key);
}

static void must_string(ck *k, const char *name, const cn *v) {
  if (!cn_is_str(v))
    ck_report(k, OC_ERROR, v->pos, "'%s' must be a string, not %s", name,
              describe(k, v));
}

/* A string naming a file or folder: a NUL byte in it (YAML's "\0")
 * would silently cut the path short, so it is an error. */
static void must_path(ck *k, const char *name, const cn *v) {
  must_string(k, name, v);
  if (!cn_is_str(v) || !memchr(v->v.u.s, 0, v->v.len))
    return;
  oc_sb b;
  oc_sb_init(&b, k->a, v->v.len + 8);
  oc_sb_add_printable(&b, v->v.u.s, v->v.len);
  ck_report(k, OC_ERROR, v->pos, "'%s' holds a NUL byte: '%s' is not a path",
            name, oc_sb_cstr(&b));
}

static void must_bool(ck *k, const char *name, const cn *v) {
  if (v->kind != CN_SCALAR || v->v.type != TPL_BOOL)
    ck_report(k, OC_ERROR, v->pos, "'%s' must be true or false, not %s", name,
              describe(k, v));
}

/* A positive whole number (the caps of issue 13: work, output, images), or
 * null for the default. */
static void must_positive_int(ck *k, const char *name, const cn *v) {
  if (!cn_is_null(v) &&
      (v->kind != CN_SCALAR || v->v.type != TPL_INT || v->v.u.i < 1))
    ck_report(k, OC_ERROR, v->pos,
              "'%s' must be a whole number above 0, not %s", name,
              describe(k, v));
}

/* The budgets of an edition and their ceilings (book_config.h). */
static const struct {
  const char *name;
  int64_t ceiling;
} budgets[] = {{"template_max_iterations", BK_MAX_TEMPLATE_ITERATIONS},
               {"template_max_output_mb", BK_MAX_TEMPLATE_OUTPUT_MB},
               {"image_max_megapixels", BK_MAX_IMAGE_MEGAPIXELS},
               {"image_max_ppi", BK_MAX_IMAGE_PPI}};

/* A budget: a whole number above 0, and at most its ceiling: a book may
 * lower what Octavo spends on it, never lift the bound (a warning, and the
 * ceiling is what the edition gets). NULL when name is no budget. */
static cn *check_budget(ck *k, const cn_kid *kid) {
  for (size_t i = 0; i < sizeof budgets / sizeof budgets[0]; i++) {
    if (!key_is(kid, budgets[i].name))
      continue;
    cn *v = kid->val;
    must_positive_int(k, kid->key, v);
    if (v->kind != CN_SCALAR || v->v.type != TPL_INT ||
        v->v.u.i <= budgets[i].ceiling)
      return v;
    ck_report(k, OC_WARNING, v->pos,
              "'%s' is %lld, above its ceiling of %lld, which applies: a "
              "book may lower this budget but not lift it past that",
              kid->key, (long long)v->v.u.i, (long long)budgets[i].ceiling);
    return cn_scalar(
        k->a, tpl_int(budgets[i].ceiling),
        oc_arena_printf(k->a, "%lld", (long long)budgets[i].ceiling), v->pos);
  }
  return NULL;
}

/* null, or a list of strings. */
static void must_string_list(ck *k, const char *name, const cn *v) {
  if (cn_is_null(v))
    return;
  if (v->kind != CN_LIST) {
    ck_report(k, OC_ERROR, v->pos, "'%s' must be a list of strings, not %s",
              name, describe(k, v));
    return;
  }
  for (size_t i = 0; i < v->n; i++)
    if (!cn_is_str(v->kid[i].val))
      ck_report(k, OC_ERROR, v->kid[i].val->pos,
                "'%s' must be a list of strings, not hold %s", name,
                describe(k, v->kid[i].val));
}

/* before_publish and after_publish: null, a command or a list of them. */
static void must_commands(ck *k, const char *name, const cn *v) {
  if (cn_is_null(v) || cn_is_str(v))
    return;
  bool ok = v->kind == CN_LIST;
  for (size_t i = 0; ok && i < v->n; i++)
    ok = cn_is_str(v->kid[i].val);
  if (!ok)
    ck_report(k, OC_ERROR, v->pos,
              "'%s' must be a string or a list of strings, not %s", name,
              describe(k, v));
}

static void check_toc(ck *k, const cn *toc) {
  if (toc->kind != CN_MAP) {
    ck_report(k, OC_ERROR, toc->pos, "'toc' must be a map, not %s",
              describe(k, toc));
    return;
  }
  for (size_t i = 0; i < toc->n; i++) {
    const cn_kid *kid = &toc->kid[i];
    const cn *v = kid->val;
    if (key_is(kid, "deep")) {
      if (v->kind != CN_SCALAR || v->v.type != TPL_INT || v->v.u.i < 1 ||
          v->v.u.i > 6)
        ck_report(k, OC_ERROR, v->pos,
                  "'toc.deep' must be an integer from 1 to 6, not %s",
                  describe(k, v));
    } else if (key_is(kid, "elements")) {
      must_string_list(k, "toc.elements", v);
    } else {
      check_unknown(k, kid, toc_keys, "toc.", true);
    }
  }
}

/* A margin given as a number is taken in millimetres ("25" → "25mm"), the
 * unit of every default; `outter` (Easybook's old spelling) is `outer`. */
static cn *check_margin(ck *k, const cn *margin) {
  if (margin->kind != CN_MAP) {
    ck_report(k, OC_ERROR, margin->pos, "'margin' must be a map, not %s",
              describe(k, margin));
    return (cn *)margin;
  }
  cn *out = cn_new(k->a, CN_MAP, margin->pos);
  bool has_outer = cn_get(margin, "outer") != NULL;
  for (size_t i = 0; i < margin->n; i++) {
    const cn_kid *kid = &margin->kid[i];
    cn *v = kid->val;
    const char *key = kid->key;
    size_t key_len = kid->key_len;
    if (key_is(kid, "outter")) {
      if (has_outer) {
        ck_report(k, OC_WARNING, kid->key_pos,
                  "'margin.outter' is ignored, as 'margin.outer' is given");
        continue;
      }
      key = "outer";
      key_len = 5;
    } else if (!is_one_of(kid, margin_keys)) {
      check_unknown(k, kid, margin_keys, "margin.", true);
      cn_add(k->a, out, key, key_len, kid->key_pos, v);
      continue;
    }
    if (v->kind == CN_SCALAR &&
        (v->v.type == TPL_INT || v->v.type == TPL_FLOAT)) {
      char buf[48];
      size_t n = v->v.type == TPL_INT
                     ? (size_t)snprintf(buf, 32, "%lld", (long long)v->v.u.i)
                     : tpl_format_float(v->v.u.f, buf);
      memcpy(buf + n, "mm", 3);
      tpl_value s = tpl_str_copy(k->a, buf, n + 2);
      v = cn_scalar(k->a, s, s.u.s, v->pos);
    } else if (!cn_is_str(v)) {
      ck_report(k, OC_ERROR, v->pos,
                "'margin.%s' must be a length such as '20mm', not %s", key,
                describe(k, v));
    }
    cn_add(k->a, out, key, key_len, kid->key_pos, v);
  }
  return out;
}

static cn *check_format(ck *k, cn *v) {
  if (cn_is_null(v))
    return v;
  if (v->kind != CN_SCALAR) {
    ck_report(k, OC_ERROR, v->pos, "'format' must be a string, not %s",
              describe(k, v));
    return v;
  }
  size_t n = strlen(v->text);
  char *lower = oc_arena_strndup(k->a, v->text, n);
  for (size_t i = 0; i < n; i++)
    if (lower[i] >= 'A' && lower[i] <= 'Z')
      lower[i] = (char)(lower[i] - 'A' + 'a');
  for (const char *const *f = formats; *f; f++)
    if (strcmp(lower, *f) == 0)
      return cn_scalar(k->a, tpl_str(lower, n), lower, v->pos);
  const char *near = closest(lower, n, formats);
  if (near)
    ck_report(k, OC_ERROR, v->pos,
              "unknown edition format '%s' (did you mean '%s'?)", v->text,
              near);
  else
    ck_report(k, OC_ERROR, v->pos,
              "unknown edition format '%s' (known: epub, mobi, pdf, html, "
              "html_chunked)",
              v->text);
  return v;
}

/* Checks one edition as written and returns it normalised. */
static cn *check_edition(ck *k, const char *name, cn *raw) {
  if (cn_is_null(raw))
    return cn_new(k->a, CN_MAP, raw->pos);
  if (raw->kind != CN_MAP) {
    ck_report(k, OC_ERROR, raw->pos, "edition '%s' must be a map, not %s", name,
              describe(k, raw));
    return cn_new(k->a, CN_MAP, raw->pos);
  }
  cn *out = cn_new(k->a, CN_MAP, raw->pos);
  for (size_t i = 0; i < raw->n; i++) {
    const cn_kid *kid = &raw->kid[i];
    cn *v = kid->val, *budget;
    if (key_is(kid, "format")) {
      v = check_format(k, v);
    } else if (key_is(kid, "extends")) {
      if (!cn_is_null(v) && !cn_is_str(v))
        ck_report(k, OC_ERROR, v->pos,
                  "'extends' must be the name of an edition, not %s",
                  describe(k, v));
    } else if (key_is(kid, "page_size")) {
      must_string(k, kid->key, v);
    } else if (key_is(kid, "page_source")) {
      if (!cn_is_null(v))
        must_string(k, kid->key, v);
    } else if (key_is(kid, "theme") || key_is(kid, "images_base_dir")) {
      must_path(k, kid->key, v);
    } else if (key_is(kid, "include_styles") || key_is(kid, "highlight_code") ||
               key_is(kid, "highlight_cache") || key_is(kid, "two_sided") ||
               key_is(kid, "pdf_tagged") || key_is(kid, "search")) {
      must_bool(k, kid->key, v);
    } else if ((budget = check_budget(k, kid))) {
      v = budget;
    } else if (key_is(kid, "labels")) {
      must_string_list(k, "labels", v);
    } else if (key_is(kid, "toc")) {
      check_toc(k, v);
    } else if (key_is(kid, "chunk_level")) {
      if (v->kind != CN_SCALAR || v->v.type != TPL_INT ||
          (v->v.u.i != 1 && v->v.u.i != 2))
        ck_report(k, OC_ERROR, v->pos, "'chunk_level' must be 1 or 2, not %s",
                  describe(k, v));
    } else if (key_is(kid, "isbn")) {
      if (v->kind == CN_SCALAR && v->v.type == TPL_INT)
        v = cn_scalar(k->a, tpl_str(v->text, strlen(v->text)), v->text, v->pos);
      else if (!cn_is_null(v) && !cn_is_str(v))
        ck_report(k, OC_ERROR, v->pos, "'isbn' must be a string, not %s",
                  describe(k, v));
    } else if (key_is(kid, "margin")) {
      v = check_margin(k, v);
    } else if (key_is(kid, "before_publish") || key_is(kid, "after_publish")) {
      must_commands(k, kid->key, v);
    } else {
      check_unknown(k, kid, edition_keys, "", false);
    }
    cn_add(k->a, out, kid->key, kid->key_len, kid->key_pos, v);
  }
  return out;
}

static void check_contents(ck *k, const cn *contents, bk_pos book_pos) {
  if (!contents || cn_is_null(contents) ||
      (contents->kind == CN_LIST && contents->n == 0)) {
    ck_report(k, OC_ERROR, contents ? contents->pos : book_pos,
              "the book has no contents");
    return;
  }
  if (contents->kind != CN_LIST) {
    ck_report(k, OC_ERROR, contents->pos,
              "'contents' must be a list of items, not %s",
              describe(k, contents));
    return;
  }
  for (size_t i = 0; i < contents->n; i++) {
    const cn *item = contents->kid[i].val;
    if (item->kind != CN_MAP) {
      ck_report(k, OC_ERROR, item->pos,
                "a contents entry must be a map with an 'element', not %s",
                describe(k, item));
      continue;
    }
    if (!cn_get(item, "element"))
      ck_report(k, OC_ERROR, item->pos, "this contents entry has no 'element'");
    for (size_t j = 0; j < item->n; j++) {
      const cn_kid *kid = &item->kid[j];
      const cn *v = kid->val;
      if (key_is(kid, "element")) {
        must_string(k, "element", v);
      } else if (key_is(kid, "content")) {
        if (!cn_is_null(v))
          must_path(k, "content", v);
      } else if (key_is(kid, "title")) {
        /* `title: 1984` is a fine title; lists and booleans are not. */
        if (v->kind != CN_SCALAR || v->v.type == TPL_BOOL)
          ck_report(k, OC_ERROR, v->pos, "'title' must be a string, not %s",
                    describe(k, v));
      } else if (key_is(kid, "number")) {
        if (v->kind != CN_SCALAR)
          ck_report(k, OC_ERROR, v->pos,
                    "'number' must be a number or a string, not %s",
                    describe(k, v));
      } else if (key_is(kid, "editions") || key_is(kid, "formats")) {
        if (!cn_is_str(v))
          must_string_list(k, kid->key, v);
      } else {
        check_unknown(k, kid, item_keys, "", false);
      }
    }
  }
}

static void check_book(ck *k, const cn *book, bk_pos book_pos) {
  for (size_t i = 0; i < book->n; i++) {
    const cn_kid *kid = &book->kid[i];
    const cn *v = kid->val;
    if (key_is(kid, "title") || key_is(kid, "author") ||
        key_is(kid, "edition") || key_is(kid, "publication_date")) {
      if (v->kind != CN_SCALAR)
        ck_report(k, OC_ERROR, v->pos, "'%s' must be a string, not %s",
                  kid->key, describe(k, v));
    } else if (key_is(kid, "language")) {
      must_string(k, "language", v);
    } else if (key_is(kid, "generator")) {
      if (v->kind != CN_MAP)
        ck_report(k, OC_ERROR, v->pos,
                  "'generator' must be a map with a name and a version, "
                  "not %s",
                  describe(k, v));
    } else if (key_is(kid, "editions")) {
      if (v->kind != CN_MAP && !cn_is_null(v))
        ck_report(k, OC_ERROR, v->pos,
                  "'editions' must be a map of editions, not %s",
                  describe(k, v));
    } else if (!key_is(kid, "contents")) {
      check_unknown(k, kid, book_keys, "", false);
    }
  }
  check_contents(k, cn_get(book, "contents"), book_pos);
}

static cfg_edition *find_edition(bk_config *c, const char *name, size_t len) {
  const cn_kid *k = c->ned ? cn_find(c->editions, name, len) : NULL;
  return k ? &c->ed[k - c->editions->kid] : NULL;
}

static void report_cycle(ck *k, bk_config *c, const size_t *cycle, size_t n) {
  size_t cap = 64;
  for (size_t i = 0; i < n; i++)
    cap += 32 + strlen(c->ed[cycle[i]].name);
  char *msg = oc_arena_alloc(k->a, cap);
  size_t len = (size_t)snprintf(msg, cap, "edition '%s'", c->ed[cycle[0]].name);
  for (size_t i = 0; i < n; i++)
    len += (size_t)snprintf(msg + len, cap - len, "%s '%s'",
                            i ? ", which extends" : " extends",
                            c->ed[cycle[(i + 1) % n]].name);
  const cn *ext = cn_get(c->ed[cycle[0]].norm, "extends");
  ck_report(k, OC_ERROR, ext->pos, "%s", msg);
}

/* The edition whose name is closest to a misspelt one, or NULL.
 * Suggestions cost a comparison with every edition: not for a config with
 * thousands of them, where each would be an error. */
static const char *near_edition(ck *k, const bk_config *c, const char *name) {
  if (c->ned > 256)
    return NULL;
  const char **names = oc_arena_alloc(k->a, (c->ned + 1) * sizeof *names);
  for (size_t j = 0; j < c->ned; j++)
    names[j] = c->ed[j].name;
  names[c->ned] = NULL;
  return closest(name, strlen(name), names);
}

/* Follows edition i's extends chain and merges it, root first. */
static void resolve_edition(ck *k, bk_config *c, cn *defaults, size_t i,
                            size_t *chain) {
  size_t n = 0, cur = i;
  cn *base = defaults;
  for (;;) {
    cfg_edition *e = &c->ed[cur];
    if (e->state == ED_DONE) {
      base = e->merged;
      break;
    }
    /* Marked while on the chain, so that a cycle costs no search until
     * one is found, however long the chain. */
    if (e->state == ED_ON_CHAIN) {
      for (size_t j = 0; j < n; j++)
        if (chain[j] == cur)
          report_cycle(k, c, chain + j, n - j);
      goto broken;
    }
    if (e->state == ED_BROKEN)
      goto broken;
    e->state = ED_ON_CHAIN;
    chain[n++] = cur;
    const cn *ext = cn_get(e->norm, "extends");
    if (!ext || !cn_is_str(ext))
      break;
    cfg_edition *parent = find_edition(c, ext->text, strlen(ext->text));
    if (!parent) {
      const char *near = near_edition(k, c, ext->text);
      if (near)
        ck_report(k, OC_ERROR, ext->pos,
                  "edition '%s' extends '%s', which does not exist (did you "
                  "mean '%s'?)",
                  e->name, ext->text, near);
      else
        ck_report(k, OC_ERROR, ext->pos,
                  "edition '%s' extends '%s', which does not exist", e->name,
                  ext->text);
      goto broken;
    }
    cur = (size_t)(parent - c->ed);
  }
  while (n--) {
    cfg_edition *e = &c->ed[chain[n]];
    e->merged = cn_merge(k->a, base, e->norm);
    e->state = ED_DONE;
    base = e->merged;
  }
  return;
broken:
  while (n--)
    c->ed[chain[n]].state = ED_BROKEN;
}

/* page_source names the pdf edition whose printed pages an epub edition
 * marks. Only epub editions read it and only pdf editions are named, so
 * no chain of them can loop. */
static void check_page_source(ck *k, bk_config *c, const cfg_edition *e) {
  const cn *src = cn_get(e->merged, "page_source");
  if (!src || !cn_is_str(src))
    return;
  const cn *fmt = cn_get(e->merged, "format");
  const char *format = fmt && cn_is_str(fmt) ? fmt->text : "";
  if (strcmp(format, "epub") != 0 && strcmp(format, "mobi") != 0) {
    ck_report(k, OC_ERROR, src->pos,
              "edition '%s': page_source is read by epub editions only, "
              "and this one is %s",
              e->name, format[0] ? format : "a base for extends");
    return;
  }
  const cfg_edition *target = find_edition(c, src->text, strlen(src->text));
  if (!target) {
    const char *near = near_edition(k, c, src->text);
    ck_report(k, OC_ERROR, src->pos,
              "edition '%s': page_source names '%s', which is not an "
              "edition of the book%s%s%s",
              e->name, src->text, near ? " (did you mean '" : "",
              near ? near : "", near ? "'?)" : "");
    return;
  }
  if (target->state != ED_DONE)
    return; /* its own error is reported */
  const cn *tf = cn_get(target->merged, "format");
  if (!tf || !cn_is_str(tf) || strcmp(tf->text, "pdf") != 0)
    ck_report(k, OC_ERROR, src->pos,
              "edition '%s': page_source must name a pdf edition, whose "
              "printed pages the e-book marks; '%s' is %s",
              e->name, src->text,
              tf && cn_is_str(tf)
                  ? oc_arena_printf(k->a, "an %s edition", tf->text)
                  : "a base for extends, with no format");
}

/* The theme of editions that name none (bk_config_set_default_theme). */
static const char *default_theme = "clean";

void bk_config_set_default_theme(const char *name) {
  default_theme = name && name[0] ? name : "clean";
}

/* Every edition's defaults, after `theme: <default_theme>`. */
static const char edition_defaults[] =
    "include_styles: true\n"
    "highlight_code: true\n"
    "highlight_cache: false\n"
    "labels: [appendix, chapter, figure]\n"
    "toc: {deep: 2, elements: [appendix, chapter]}\n"
    "images_base_dir: images/\n"
    "chunk_level: 1\n"
    "search: true\n"
    "isbn: ~\n"
    "page_size: A4\n"
    "two_sided: true\n"
    "margin: {top: 25mm, bottom: 25mm, inner: 30mm, outer: 20mm}\n"
    "before_publish: ~\n"
    "after_publish: ~\n";

static const char book_defaults[] =
    "title: Untitled\n"
    "author: Anonymous\n"
    "edition: ~\n"
    "language: en\n"
    "publication_date: ~\n"
    "generator: {name: Octavo, version: '" OCTAVO_VERSION "'}\n"
    "contents: ~\n"
    "editions: ~\n";

static cn *defaults(oc_arena *a, const char *text, const oc_reporter *r) {
  cn *n = NULL;
  yp_parse(a, "(built-in defaults)", false, text, strlen(text), r, &n);
  return n;
}

/* The editions as written, each checked, then merged along extends. */
static void load_editions(ck *k, bk_config *c, const cn *editions) {
  if (!editions || editions->kind != CN_MAP)
    return;
  c->editions = editions;
  c->ned = editions->n;
  c->ed = oc_arena_calloc(k->a, c->ned ? c->ned : 1, sizeof *c->ed);
  for (size_t i = 0; i < c->ned; i++) {
    const cn_kid *kid = &editions->kid[i];
    /* The name becomes the folder Output/<edition>/: one plain name. */
    const char *why = oc_name_problem(kid->key, kid->key_len);
    if (why) {
      oc_sb name;
      oc_sb_init(&name, k->a, kid->key_len + 8);
      oc_sb_add_printable(&name, kid->key, kid->key_len);
      ck_report(k, OC_ERROR, kid->key_pos,
                "the edition name '%s' %s; an edition's name is its "
                "folder in Output/, so it must be a plain file name "
                "(letters, digits, '-', '_', no '/' and no leading '.')",
                oc_sb_cstr(&name), why);
    }
    c->ed[i].name = kid->key;
    c->ed[i].raw = kid->val;
    c->ed[i].norm = check_edition(k, kid->key, kid->val);
  }
  cn *base = defaults(
      k->a,
      oc_arena_printf(k->a, "theme: '%s'\n%s", default_theme, edition_defaults),
      k->r);
  size_t *chain = oc_arena_alloc(k->a, (c->ned + 1) * sizeof *chain);
  for (size_t i = 0; i < c->ned; i++) {
    if (c->ed[i].state == ED_NEW)
      resolve_edition(k, c, base, i, chain);
    cfg_edition *e = &c->ed[i];
    if (e->state != ED_DONE)
      continue;
    /* `format: ~` marks a base for extends only, like no format at all. */
    cn_kid *f = cn_find(e->merged, "format", 6);
    if (f && cn_is_null(f->val)) {
      cn *m = cn_new(k->a, CN_MAP, e->merged->pos);
      for (size_t j = 0; j < e->merged->n; j++)
        if (&e->merged->kid[j] != f)
          cn_add(k->a, m, e->merged->kid[j].key, e->merged->kid[j].key_len,
                 e->merged->kid[j].key_pos, e->merged->kid[j].val);
      e->merged = m;
    }
  }
  for (size_t i = 0; i < c->ned; i++)
    if (c->ed[i].state == ED_DONE)
      check_page_source(k, c, &c->ed[i]);
}

/* config.yml's text as a tree with positions (null when empty). */
static cn *parse_config(ck *k, const char *text, size_t len) {
  cn *root = NULL;
  if (yp_parse(k->a, "config.yml", true, text, len, k->r, &root) != 0)
    k->errors++;
  if (!root)
    root = cn_scalar(k->a, tpl_null(), "", (bk_pos){"config.yml", 0, 0});
  return root;
}

static cn *read_config(ck *k, const char *book_dir) {
  size_t len;
  bk_read_status st;
  char *text = bk_read_book_file(book_dir, "config.yml", &len, &st);
  if (!text) {
    size_t n = strlen(book_dir) + sizeof "/config.yml";
    char *path = oc_arena_alloc(k->a, n);
    snprintf(path, n, "%s/config.yml", book_dir);
    if (st == BK_READ_OUTSIDE)
      ck_report(k, OC_ERROR, (bk_pos){path, 0, 0},
                "refusing to read it: it is a link that leads out of the "
                "book folder");
    else if (st == BK_READ_MISSING)
      ck_report(k, OC_ERROR, (bk_pos){path, 0, 0},
                "no such file: a book needs a config.yml");
    else
      ck_report(k, OC_ERROR, (bk_pos){path, 0, 0}, "cannot read: %s",
                oc_file_error(errno));
    return NULL;
  }
  cn *root = parse_config(k, text, len);
  free(text);
  return root;
}

/* ---- content per edition ------------------------------------------- */

/* A filter's name without its negation (`not-print`, or `!print` as
 * trefoil first wrote it, quoted in YAML); *neg says whether it had one. */
static const char *filter_name(const char *s, bool *neg) {
  *neg = true;
  if (!strncmp(s, "not-", 4))
    return s + 4;
  if (s[0] == '!')
    return s + 1;
  *neg = false;
  return s;
}

/* The names of an item's `editions:` or `formats:` (a name or a list of
 * them), each the edition of this book or a known format. */
static void check_filter(ck *k, bk_config *c, const cn *v, bool editions) {
  size_t n = v->kind == CN_LIST ? v->n : 1;
  for (size_t i = 0; i < n; i++) {
    const cn *name = v->kind == CN_LIST ? v->kid[i].val : v;
    if (!cn_is_str(name))
      continue; /* said by check_contents */
    bool neg;
    const char *s = filter_name(name->text, &neg);
    bool known = false;
    for (const char *const *f = formats; !editions && *f && !known; f++)
      known = strcmp(s, *f) == 0;
    if (editions ? find_edition(c, s, strlen(s)) != NULL : known)
      continue;
    const char *near =
        editions ? near_edition(k, c, s) : closest(s, strlen(s), formats);
    if (near)
      ck_report(k, OC_ERROR, name->pos,
                "unknown %s '%s' in '%s' (did you mean '%s%s'?)",
                editions ? "edition" : "format", s,
                editions ? "editions" : "formats", neg ? "not-" : "", near);
    else if (editions)
      ck_report(k, OC_ERROR, name->pos,
                "unknown edition '%s' in 'editions': the book's editions are "
                "those of book.editions",
                s);
    else
      ck_report(k, OC_ERROR, name->pos,
                "unknown format '%s' in 'formats': one of epub, mobi, pdf, "
                "html, html_chunked",
                s);
  }
}

static void check_filters(ck *k, bk_config *c, const cn *contents) {
  if (!contents || contents->kind != CN_LIST)
    return;
  for (size_t i = 0; i < contents->n; i++) {
    const cn *item = contents->kid[i].val;
    if (item->kind != CN_MAP)
      continue;
    const cn *v = cn_get(item, "editions");
    if (v && !cn_is_null(v))
      check_filter(k, c, v, true);
    if ((v = cn_get(item, "formats")) && !cn_is_null(v))
      check_filter(k, c, v, false);
  }
}

bool bk_filter_passes(const bk_filter *f, const char *name) {
  bool any_positive = false, listed = false;
  for (size_t i = 0; i < f->n; i++) {
    bool match = strcmp(f->names[i], name) == 0;
    if (f->excluded[i] && match)
      return false;
    if (!f->excluded[i]) {
      any_positive = true;
      listed = listed || match;
    }
  }
  return !any_positive || listed;
}

bool bk_item_conf_in(const bk_item_conf *it, const char *edition,
                     const char *format) {
  return bk_filter_passes(&it->editions, edition) &&
         bk_filter_passes(&it->formats, format);
}

/* ---- the typed model (book_types.h) ----------------------------------- */

const char *bk_value_text(oc_arena *a, tpl_value v, const char *dflt) {
  char buf[64];
  switch (v.type) {
  case TPL_STR:
    return oc_arena_strndup(a, v.u.s, v.len);
  case TPL_INT:
    snprintf(buf, sizeof buf, "%lld", (long long)v.u.i);
    return oc_arena_strndup(a, buf, strlen(buf));
  case TPL_FLOAT: {
    size_t n = tpl_format_float(v.u.f, buf);
    return oc_arena_strndup(a, buf, n);
  }
  case TPL_BOOL:
    return v.u.b ? "1" : "";
  default:
    return dflt;
  }
}

bool bk_strings_has(const bk_strings *l, const char *s) {
  for (size_t i = 0; i < l->n; i++)
    if (l->v[i] && !strcmp(l->v[i], s))
      return true;
  return false;
}

/* The value of key in a map; null when absent or not a map. The reader's
 * own: the writers read the structs. */
static tpl_value field(tpl_value map, const char *key) {
  tpl_value v = tpl_null();
  if (map.type == TPL_MAP)
    tpl_map_get_str(map.u.map, key, strlen(key), &v);
  return v;
}

static const char *text(oc_arena *a, tpl_value map, const char *key,
                        const char *dflt) {
  return bk_value_text(a, field(map, key), dflt);
}

/* The strings of a list of names (labels, toc.elements). */
static bk_strings name_list(oc_arena *a, tpl_value v) {
  bk_strings l = {NULL, 0};
  if (v.type != TPL_LIST)
    return l;
  const char **out = oc_arena_alloc(a, (v.u.list->len + 1) * sizeof *out);
  for (size_t i = 0; i < v.u.list->len; i++) {
    tpl_value x = v.u.list->items[i];
    if (x.type == TPL_STR)
      out[l.n++] = oc_arena_strndup(a, x.u.s, x.len);
  }
  l.v = out;
  return l;
}

/* A text or a list of texts (description, keywords). */
static bk_strings text_list(oc_arena *a, tpl_value v) {
  bk_strings l = {NULL, 0};
  size_t n = v.type == TPL_LIST ? v.u.list->len : v.type == TPL_STR ? 1 : 0;
  const char **out = oc_arena_alloc(a, (n + 1) * sizeof *out);
  for (size_t i = 0; i < n; i++) {
    tpl_value x = v.type == TPL_LIST ? v.u.list->items[i] : v;
    if (x.type == TPL_STR)
      out[l.n++] = oc_arena_strndup(a, x.u.s, x.len);
  }
  l.v = out;
  return l;
}

static bk_commands commands(oc_arena *a, tpl_value v) {
  bk_commands l = {NULL, 0, v.type == TPL_LIST};
  size_t n = l.list ? v.u.list->len : v.type == TPL_STR ? 1 : 0;
  const char **out = oc_arena_calloc(a, n + 1, sizeof *out);
  for (size_t i = 0; i < n; i++) {
    tpl_value x = l.list ? v.u.list->items[i] : v;
    if (x.type == TPL_STR)
      out[i] = oc_arena_strndup(a, x.u.s, x.len);
  }
  l.v = out;
  l.n = n;
  return l;
}

static bk_filter filter(oc_arena *a, tpl_value v) {
  bk_filter f = {NULL, NULL, 0};
  size_t n = v.type == TPL_LIST ? v.u.list->len : v.type == TPL_STR ? 1 : 0;
  const char **names = oc_arena_alloc(a, (n + 1) * sizeof *names);
  bool *excluded = oc_arena_alloc(a, (n + 1) * sizeof *excluded);
  for (size_t i = 0; i < n; i++) {
    tpl_value x = v.type == TPL_LIST ? v.u.list->items[i] : v;
    if (x.type != TPL_STR)
      continue;
    const char *s = oc_arena_strndup(a, x.u.s, x.len < 127 ? x.len : 127);
    names[f.n] = filter_name(s, &excluded[f.n]);
    f.n++;
  }
  f.names = names;
  f.excluded = excluded;
  return f;
}

/* true unless the option is false */
static bool unless_false(tpl_value map, const char *key) {
  tpl_value v = field(map, key);
  return !(v.type == TPL_BOOL && !v.u.b);
}

static bk_flag flag(tpl_value v) {
  return v.type == TPL_NULL   ? BK_FLAG_UNSET
         : v.type != TPL_BOOL ? BK_FLAG_BAD
         : v.u.b              ? BK_FLAG_TRUE
                              : BK_FLAG_FALSE;
}

/* One of two words: 0 the first (also when absent), 1 the second, -1
 * anything else. */
static int choice(tpl_value v, const char *first, const char *second) {
  if (v.type == TPL_NULL)
    return 0;
  if (v.type != TPL_STR)
    return -1;
  if (strlen(first) == v.len && !memcmp(first, v.u.s, v.len))
    return 0;
  if (strlen(second) == v.len && !memcmp(second, v.u.s, v.len))
    return 1;
  return -1;
}

/* A budget: a whole number above 0, else dflt. */
static int64_t positive(tpl_value map, const char *key, int64_t dflt) {
  tpl_value v = field(map, key);
  return v.type == TPL_INT && v.u.i > 0 ? v.u.i : dflt;
}

static void read_edition(oc_arena *a, const char *name, tpl_value m,
                         bk_edition_conf *o) {
  memset(o, 0, sizeof *o);
  o->name = name;
  o->map = m;
  o->format = text(a, m, "format", "");
  o->extends = text(a, m, "extends", "");
  o->theme = text(a, m, "theme", "clean");
  o->page_source = text(a, m, "page_source", "");
  o->isbn = text(a, m, "isbn", "");
  o->images_base_dir = text(a, m, "images_base_dir", "images/");
  o->page_size = text(a, m, "page_size", "A4");
  o->highlight_code = unless_false(m, "highlight_code");
  o->include_styles = unless_false(m, "include_styles");
  o->search = unless_false(m, "search");
  o->pdf_tagged = unless_false(m, "pdf_tagged");
  tpl_value two = field(m, "two_sided");
  o->two_sided = two.type == TPL_NULL || tpl_truthy(two);
  tpl_value level = field(m, "chunk_level");
  o->chunk_level = level.type == TPL_INT ? (int)level.u.i : 1;
  tpl_value toc = field(m, "toc"), deep = field(toc, "deep");
  o->toc_deep = deep.type == TPL_INT ? (int)deep.u.i : 2;
  o->toc_elements = name_list(a, field(toc, "elements"));
  o->labels = name_list(a, field(m, "labels"));
  o->footnotes = choice(field(m, "footnotes"), "page", "end");
  o->footnote_numbering =
      choice(field(m, "footnote_numbering"), "item", "book");
  tpl_value bleed = field(m, "bleed");
  o->has_bleed = bleed.type != TPL_NULL;
  o->bleed = bleed.type == TPL_STR ? oc_arena_strndup(a, bleed.u.s, bleed.len)
             : bleed.type == TPL_INT
                 ? oc_arena_printf(a, "%lld", (long long)bleed.u.i)
             : bleed.type == TPL_FLOAT ? oc_arena_printf(a, "%g", bleed.u.f)
                                       : NULL;
  o->crop_marks = flag(field(m, "crop_marks"));
  o->pdf_a = flag(field(m, "pdf_a"));
  o->template_max_iterations =
      positive(m, "template_max_iterations", BK_DEFAULT_TEMPLATE_ITERATIONS);
  o->template_max_output_mb =
      positive(m, "template_max_output_mb", BK_DEFAULT_TEMPLATE_OUTPUT_MB);
  o->image_max_megapixels = positive(m, "image_max_megapixels", 0);
  o->image_max_ppi = positive(m, "image_max_ppi", 0);
  o->before_publish = commands(a, field(m, "before_publish"));
  o->after_publish = commands(a, field(m, "after_publish"));
}

void bk_book_conf_texts(oc_arena *a, tpl_value m, bk_book_conf *b) {
  tpl_value title = field(m, "title");
  b->title = bk_value_text(a, title, "");
  b->title_is_text = title.type == TPL_STR;
  b->author = text(a, m, "author", "");
  b->edition = text(a, m, "edition", "");
  b->language = text(a, m, "language", "en");
  b->publisher = text(a, m, "publisher", "");
  b->description = text(a, m, "description", "");
  b->description_list = text_list(a, field(m, "description"));
  b->keywords = text_list(a, field(m, "keywords"));
  tpl_value gen = field(m, "generator");
  b->generator_name = text(a, gen, "name", "Octavo");
  b->generator_version = text(a, gen, "version", "");
}

static void read_items(oc_arena *a, tpl_value contents, bk_book_conf *b) {
  size_t n = contents.type == TPL_LIST ? contents.u.list->len : 0;
  bk_item_conf *items = oc_arena_calloc(a, n ? n : 1, sizeof *items);
  for (size_t i = 0; i < n; i++) {
    bk_item_conf *it = &items[i];
    tpl_value m = contents.u.list->items[i];
    it->index = i;
    it->map = m;
    it->element = text(a, m, "element", "");
    it->number = text(a, m, "number", "");
    tpl_value content = field(m, "content");
    it->content = content.type == TPL_STR && content.len
                      ? oc_arena_strndup(a, content.u.s, content.len)
                      : NULL;
    tpl_value title = field(m, "title");
    it->title = title.type == TPL_STR || title.type == TPL_INT ||
                        title.type == TPL_FLOAT
                    ? bk_value_text(a, title, "")
                    : NULL;
    it->editions = filter(a, field(m, "editions"));
    it->formats = filter(a, field(m, "formats"));
  }
  b->items = items;
  b->nitems = n;
}

/* The structs of a checked configuration. */
static void read_model(bk_config *c) {
  /* one map for every edition, so that item.config is the very entry of
     book.contents the templates see */
  tpl_value book = cn_value(c->a, c->book);
  bk_config_set_book(c, book);
  bk_book_conf_texts(c->a, book, &c->book_conf);
  read_items(c->a, field(book, "contents"), &c->book_conf);
  c->edc = oc_arena_calloc(c->a, c->ned ? c->ned : 1, sizeof *c->edc);
  for (size_t i = 0; i < c->ned; i++)
    if (c->ed[i].merged)
      read_edition(c->a, c->ed[i].name, cn_value(c->a, c->ed[i].merged),
                   &c->edc[i]);
}

const bk_book_conf *bk_config_book_conf(const bk_config *c) {
  return &c->book_conf;
}

const bk_edition_conf *bk_config_edition_conf(const bk_config *c,
                                              const char *name) {
  cfg_edition *e = find_edition((bk_config *)c, name, strlen(name));
  return e && e->merged ? &c->edc[e - c->ed] : NULL;
}

/* ---- import: a series of books sharing a configuration ------------- */

/* At most this many config.yml files in an import chain, the book's
 * included: deeper is a mistake, or a loop through links. */
enum { IMPORT_MAX_DEPTH = 16 };

typedef struct import_walk {
  oc_arena *a;
  ck *k;                /* where errors go; a silent one for the scan */
  const char *book_dir; /* canonical */
  const char *chain[IMPORT_MAX_DEPTH]; /* the folders being read */
  size_t depth;
  const char **files; /* every imported config.yml, canonical (in a) */
  size_t nfiles, cfiles;
} import_walk;

/* A folder's name for messages: relative to the book's folder. */
static const char *shown_path(oc_arena *a, const char *book_dir,
                              const char *real) {
  size_t common = 0;
  for (size_t i = 0;; i++) {
    char b = book_dir[i], r = real[i];
    if ((b == '/' || !b) && (r == '/' || !r))
      common = i;
    if (b != r || !b)
      break;
  }
  size_t ups = 0;
  for (const char *p = book_dir + common; *p; p++)
    ups += *p == '/';
  const char *rest = real + common + (real[common] == '/');
  oc_sb b;
  oc_sb_init(&b, a, 3 * ups + strlen(rest) + 2);
  for (size_t i = 0; i < ups; i++)
    oc_sb_adds(&b, i + 1 < ups || *rest ? "../" : "..");
  oc_sb_adds(&b, rest);
  if (!b.len)
    oc_sb_addc(&b, '.');
  return oc_sb_cstr(&b);
}

static cn *import_into(import_walk *w, cn *root, const char *dir);

/* The config.yml of folder rel (relative to dir, where it is named), over
 * its own imports; NULL after an error. */
static cn *import_one(import_walk *w, const char *dir, const cn *rel) {
  const char *joined = rel->text[0] == '/'
                           ? rel->text
                           : oc_arena_printf(w->a, "%s/%s", dir, rel->text);
  char *found = realpath(joined, NULL);
  struct stat st;
  if (!found || stat(found, &st) != 0 || !S_ISDIR(st.st_mode)) {
    ck_report(w->k, OC_ERROR, rel->pos, "cannot import '%s': no such folder",
              rel->text);
    free(found);
    return NULL;
  }
  const char *real = oc_arena_strndup(w->a, found, strlen(found));
  free(found);
  for (size_t i = 0; i < w->depth; i++)
    if (!strcmp(w->chain[i], real)) {
      ck_report(w->k, OC_ERROR, rel->pos,
                "importing '%s' makes a cycle: that folder's config.yml is "
                "already being read",
                rel->text);
      return NULL;
    }
  if (w->depth == IMPORT_MAX_DEPTH) {
    ck_report(w->k, OC_ERROR, rel->pos,
              "cannot import '%s': imports nest more than %d deep", rel->text,
              IMPORT_MAX_DEPTH);
    return NULL;
  }
  const char *file = oc_arena_printf(w->a, "%s/config.yml", real);
  w->files = oc_arena_grow_array(w->a, w->files, w->nfiles, &w->cfiles,
                                 w->nfiles + 1, sizeof *w->files);
  w->files[w->nfiles++] = file;
  size_t len;
  char *text = oc_read_file(file, &len);
  if (!text) {
    ck_report(w->k, OC_ERROR, rel->pos, "cannot import '%s': %s/config.yml: %s",
              rel->text, rel->text, oc_file_error(errno));
    return NULL;
  }
  cn *root = NULL;
  const char *shown = oc_arena_printf(w->a, "%s/config.yml",
                                      shown_path(w->a, w->book_dir, real));
  if (yp_parse(w->a, shown, true, text, len, w->k->r, &root) != 0) {
    w->k->errors++;
    root = NULL;
  }
  free(text);
  if (root && root->kind != CN_MAP) {
    ck_report(w->k, OC_ERROR, root->pos,
              "an imported config.yml must be a map, not %s",
              describe(w->k, root));
    root = NULL;
  }
  if (root) {
    w->chain[w->depth++] = real;
    root = import_into(w, root, real);
    w->depth--;
  }
  return root;
}

/* root (the config.yml of dir) over the configurations its `import:`
 * names, each over the ones before it. */
static cn *import_into(import_walk *w, cn *root, const char *dir) {
  const cn *list = cn_get(root, "import");
  if (!list || cn_is_null(list))
    return root;
  if (!cn_is_str(list) && list->kind != CN_LIST) {
    ck_report(w->k, OC_ERROR, list->pos,
              "'import' must be a folder or a list of folders, not %s",
              describe(w->k, list));
    return root;
  }
  size_t n = list->kind == CN_LIST ? list->n : 1;
  cn *base = NULL;
  for (size_t i = 0; i < n; i++) {
    const cn *rel = list->kind == CN_LIST ? list->kid[i].val : list;
    if (!cn_is_str(rel)) {
      ck_report(w->k, OC_ERROR, rel->pos,
                "'import' must list folders, not hold %s", describe(w->k, rel));
      continue;
    }
    cn *imported = import_one(w, dir, rel);
    if (imported)
      base = base ? cn_merge(w->a, base, imported) : imported;
  }
  return base ? cn_merge(w->a, base, root) : root;
}

/* root with what its import: names (a no-op without one); errors in k. */
static cn *with_imports(ck *k, cn *root, const char *book_dir, import_walk *w) {
  w->a = k->a;
  w->k = k;
  w->book_dir = book_dir;
  w->chain[w->depth++] = book_dir;
  return root && root->kind == CN_MAP ? import_into(w, root, book_dir) : root;
}

static void say_nothing(void *user, oc_severity sev, const char *file,
                        unsigned line, unsigned col, const char *msg) {
  (void)user, (void)sev, (void)file, (void)line, (void)col, (void)msg;
}

const char **bk_config_imports(oc_arena *a, const char *book_dir, size_t *n) {
  oc_reporter silent = {say_nothing, NULL};
  ck k = {a, &silent, 0};
  import_walk w = {0};
  *n = 0;
  size_t len;
  bk_read_status st;
  char *text = bk_read_book_file(book_dir, "config.yml", &len, &st);
  if (!text)
    return NULL;
  cn *root = NULL;
  if (yp_parse(a, "config.yml", true, text, len, &silent, &root) == 0)
    with_imports(&k, root, book_dir, &w);
  free(text);
  *n = w.nfiles;
  return w.files;
}

/* Merges --configuration over root, checks it, loads the editions. */
static bk_config *check_config(ck k, cn *root, const char *json);

bk_config *bk_config_load(oc_arena *a, const char *book_dir, const char *json,
                          const oc_reporter *r) {
  ck k = {a, r, 0};
  cn *root = read_config(&k, book_dir);
  import_walk w = {0};
  root = with_imports(&k, root, book_dir, &w);
  if (k.errors)
    return NULL;
  return root ? check_config(k, root, json) : NULL;
}

bk_config *bk_config_parse(oc_arena *a, const char *text, size_t len,
                           const char *json, const oc_reporter *r) {
  ck k = {a, r, 0};
  cn *root = parse_config(&k, text, len);
  return check_config(k, root, json);
}

static bk_config *check_config(ck k, cn *root, const char *json) {
  oc_arena *a = k.a;
  const oc_reporter *r = k.r;
  if (json) {
    cn *over = NULL;
    if (yp_parse(a, "--configuration", true, json, strlen(json), r, &over))
      k.errors++;
    else if (!over || over->kind != CN_MAP)
      ck_report(&k, OC_ERROR,
                over ? over->pos : (bk_pos){"--configuration", 0, 0},
                "the configuration must be a JSON object such as "
                "{\"book\": {...}}, not %s",
                over ? describe(&k, over) : "nothing");
    else if (root->kind == CN_MAP)
      root = cn_merge(a, root, over);
  }
  if (k.errors)
    return NULL;

  if (root->kind != CN_MAP) {
    ck_report(&k, OC_ERROR, root->pos,
              "config.yml must be a map with a 'book' key, not %s",
              describe(&k, root));
    return NULL;
  }
  for (size_t i = 0; i < root->n; i++)
    check_unknown(&k, &root->kid[i], top_keys, "", false);
  cn_kid *book_kid = cn_find(root, "book", 4);
  if (!book_kid) {
    ck_report(&k, OC_ERROR, root->pos, "config.yml has no 'book' map");
    return NULL;
  }
  cn *user = book_kid->val;
  if (user->kind != CN_MAP) {
    ck_report(&k, OC_ERROR, user->pos,
              "'book' must be a map of options, not %s", describe(&k, user));
    return NULL;
  }
  check_book(&k, user, book_kid->key_pos);

  bk_config *c = oc_arena_calloc(a, 1, sizeof *c);
  c->a = a;
  c->root = root;
  c->book = cn_merge(a, defaults(a, book_defaults, r), user);
  /* The writer's generator is kept whole: "easybook 0.1.0" would lie. */
  cn_kid *gen = cn_find(user, "generator", 9);
  if (gen)
    cn_find(c->book, "generator", 9)->val = gen->val;
  load_editions(&k, c, cn_get(user, "editions"));
  check_filters(&k, c, cn_get(user, "contents"));
  if (k.errors)
    return NULL;
  read_model(c);
  return c;
}

tpl_value bk_config_book(const bk_config *c) {
  return c->book_set ? c->book_value : cn_value(c->a, c->book);
}

void bk_config_set_book(bk_config *c, tpl_value book) {
  c->book_value = book;
  c->book_set = true;
}

tpl_value bk_config_root(const bk_config *c) { return cn_value(c->a, c->root); }

size_t bk_config_nedition(const bk_config *c) { return c->ned; }

const char *bk_config_edition_name(const bk_config *c, size_t i) {
  return i < c->ned ? c->ed[i].name : NULL;
}

tpl_value bk_config_edition(const bk_config *c, const char *name) {
  cfg_edition *e = find_edition((bk_config *)c, name, strlen(name));
  return e && e->merged ? cn_value(c->a, e->merged) : tpl_null();
}

bool bk_config_where(const bk_config *c, const char *path, bk_pos *out) {
  const cn *node = c->root;
  bool found = false, in_editions = false;
  const char *p = path;
  while (node && *p) {
    const char *dot = strchr(p, '.');
    size_t n = dot ? (size_t)(dot - p) : strlen(p);
    const cn *next = NULL;
    if (node == c->root && n == 4 && memcmp(p, "book", 4) == 0) {
      next = c->book;
    } else if (in_editions) {
      /* An edition answers with what it inherits too. */
      cfg_edition *e = find_edition((bk_config *)c, p, n);
      next = e ? (e->merged ? e->merged : e->raw) : NULL;
      in_editions = false;
    } else if (node->kind == CN_MAP) {
      const cn_kid *kid = cn_find(node, p, n);
      next = kid ? kid->val : NULL;
      in_editions = node == c->book && n == 8 && !memcmp(p, "editions", 8);
    } else if (node->kind == CN_LIST) {
      char *end;
      unsigned long i = strtoul(p, &end, 10);
      if (n && end == p + n && i < node->n)
        next = node->kid[i].val;
    }
    if (!next)
      break;
    node = next;
    if (node->pos.line) {
      *out = node->pos;
      found = true;
    }
    p += n + (dot != NULL);
  }
  return found;
}
