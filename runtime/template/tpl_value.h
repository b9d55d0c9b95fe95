/* Template values: the tagged value every template expression evaluates to,
 * the per-render arena that owns them, and PHP's conversion and comparison
 * rules that Twig inherits. Shared by compiled and interpreted templates.
 *
 * Ownership: values never own memory. Strings, lists, maps and closures built
 * during a render live in that render's arena (oc_arena) and die with it;
 * string literals of compiled templates point at static storage. Values are
 * immutable once built: "changing" a list or map builds a new one. */
#ifndef OCTAVO_TPL_VALUE_H
#define OCTAVO_TPL_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "oc_arena.h"

/* ---- values --------------------------------------------------------- */

typedef enum tpl_type {
  TPL_NULL,
  TPL_BOOL,
  TPL_INT,
  TPL_FLOAT,
  TPL_STR,
  TPL_LIST, /* PHP array with keys 0..n-1 */
  TPL_MAP,  /* PHP array with arbitrary int/string keys, ordered */
  TPL_OBJ,  /* host object with lazily computed attributes */
  TPL_FUNC  /* an arrow function (closure) */
} tpl_type;

struct tpl_list;
struct tpl_map;
struct tpl_obj;
struct tpl_closure;

/* 16 bytes, passed by value. `safe` marks a string that must not be escaped
 * again by autoescaping (Twig's Markup: captured output, macro output,
 * block() and include() results, rendered Markdown). */
typedef struct tpl_value {
  uint8_t type;
  uint8_t safe;
  uint32_t len; /* TPL_STR: byte length */
  union {
    bool b;
    int64_t i;
    double f;
    const char *s; /* TPL_STR: not NUL-terminated in general */
    struct tpl_list *list;
    struct tpl_map *map;
    struct tpl_obj *obj;
    struct tpl_closure *fn;
  } u;
} tpl_value;

typedef struct tpl_list {
  size_t len;
  tpl_value *items;
} tpl_list;

typedef struct tpl_map_entry {
  tpl_value key; /* TPL_INT or TPL_STR (PHP normalises "5" to 5) */
  tpl_value val;
  uint32_t hash;
  /* The first 8 bytes of a string key, zero-padded (0 for int keys): most
   * keys then compare without reading their text, which is rarely in the
   * cache. Maintained by the tpl_map_* functions. */
  uint64_t prefix;
} tpl_map_entry;

typedef struct tpl_map {
  size_t len, cap;
  tpl_map_entry *entries;
  uint32_t *index; /* open addressing over entries, NULL when small */
  size_t index_cap;
  int64_t next_int_key;
} tpl_map;

/* Host objects: the book model exposes items, editions and the like this
 * way. get_attr returns false when the attribute does not exist. Attributes
 * may be computed on first use and cached by the host. */
typedef struct tpl_rt tpl_rt;
typedef struct tpl_obj_class {
  const char *name;
  bool (*get_attr)(tpl_rt *rt, struct tpl_obj *self, const char *name,
                   size_t len, tpl_value *out);
  /* Optional: turns the object into a list or map for iteration, length,
   * keys, json_encode and friends. NULL means "not iterable". */
  tpl_value (*to_array)(tpl_rt *rt, struct tpl_obj *self);
  /* Optional: string conversion (PHP's __toString). */
  tpl_value (*to_string)(tpl_rt *rt, struct tpl_obj *self);
  /* Optional: a method call with arguments, `obj.name(args)`; false when
   * the object has no such method (the call then reads the attribute). */
  bool (*call)(tpl_rt *rt, struct tpl_obj *self, const char *name, size_t len,
               int argc, const tpl_value *argv, tpl_value *out);
  /* Optional: orders two objects of this class (<0, 0, >0) for the
   * comparison operators, as PHP compares DateTimes. NULL: two objects are
   * equal when they are the same one, else uncomparable. */
  int (*compare)(tpl_rt *rt, const struct tpl_obj *a, const struct tpl_obj *b);
} tpl_obj_class;

typedef struct tpl_obj {
  const tpl_obj_class *cls;
  void *data;
} tpl_obj;

/* Constructors. */
static inline tpl_value tpl_null(void) {
  tpl_value v = {TPL_NULL, 0, 0, {.i = 0}};
  return v;
}
static inline tpl_value tpl_bool(bool b) {
  tpl_value v = {TPL_BOOL, 0, 0, {.b = b}};
  return v;
}
static inline tpl_value tpl_int(int64_t i) {
  tpl_value v = {TPL_INT, 0, 0, {.i = i}};
  return v;
}
static inline tpl_value tpl_float(double f) {
  tpl_value v = {TPL_FLOAT, 0, 0, {.f = f}};
  return v;
}
/* s must outlive the render (static or arena memory). */
static inline tpl_value tpl_str(const char *s, size_t len) {
  tpl_value v = {TPL_STR, 0, (uint32_t)len, {.s = s}};
  return v;
}
static inline tpl_value tpl_safe_str(const char *s, size_t len) {
  tpl_value v = {TPL_STR, 1, (uint32_t)len, {.s = s}};
  return v;
}
tpl_value tpl_cstr(const char *s); /* static NUL-terminated string */
tpl_value tpl_str_copy(oc_arena *a, const char *s, size_t len);
tpl_value tpl_list_value(tpl_list *l);
tpl_value tpl_map_value(tpl_map *m);
tpl_value tpl_obj_value(oc_arena *a, const tpl_obj_class *cls, void *data);

/* Lists. */
tpl_list *tpl_list_new(oc_arena *a, size_t len); /* items zeroed (null) */

/* Maps: insertion-ordered, keys normalised as PHP does. */
tpl_map *tpl_map_new(oc_arena *a, size_t cap_hint);
void tpl_map_set(oc_arena *a, tpl_map *m, tpl_value key, tpl_value val);
void tpl_map_set_str(oc_arena *a, tpl_map *m, const char *key, tpl_value val);
void tpl_map_push(oc_arena *a, tpl_map *m, tpl_value val); /* m[] = val */
bool tpl_map_get(const tpl_map *m, tpl_value key, tpl_value *out);
bool tpl_map_get_str(const tpl_map *m, const char *key, size_t len,
                     tpl_value *out);
/* Looks up a string key given as a tpl_name (hash precomputed); stores its
 * entry index in *at. Numeric names ("0") find int keys, as PHP does. */
struct tpl_name;
bool tpl_map_find_name(const tpl_map *m, const struct tpl_name *key, size_t *at,
                       tpl_value *out);
/* A map whose keys are 0..n-1 in order becomes a list, else stays a map. */
tpl_value tpl_map_or_list(oc_arena *a, tpl_map *m);
/* Any iterable (list, map, iterable object) as a map; lists get int keys. */
tpl_map *tpl_as_map(tpl_rt *rt, tpl_value v);

uint32_t tpl_hash_bytes(const char *s, size_t len); /* FNV-1a */

/* ---- PHP's conversions ---------------------------------------------- */

bool tpl_truthy(tpl_value v);
/* String conversion as PHP's (string) cast and echo: true → "1", false and
 * null → "", floats with precision 14 ("0.3", "1.0E+25", "-0"). Lists and
 * maps convert to "Array" (PHP also warns). Result lives in the arena or is
 * the input itself. */
tpl_value tpl_to_str(tpl_rt *rt, tpl_value v);
/* Writes PHP's float-to-string of f into buf (>= 32 bytes), returns length. */
size_t tpl_format_float(double f, char *buf);
/* Numeric conversion for arithmetic: ints stay ints, numeric strings become
 * ints or floats, null/false → 0, true → 1, non-numeric strings → 0 (PHP 8
 * throws for these in arithmetic; Twig templates rarely rely on either). */
tpl_value tpl_to_number(tpl_value v);
int64_t tpl_to_int(tpl_value v);
double tpl_to_float(tpl_value v);
/* PHP's is_numeric for strings: optional whitespace, sign, digits, '.',
 * exponent. Sets *out to the int or float. */
bool tpl_str_is_numeric(const char *s, size_t len, tpl_value *out);

/* PHP 8 loose comparison (==) and the spaceship operator (<=>). */
bool tpl_loose_eq(tpl_rt *rt, tpl_value a, tpl_value b);
int tpl_compare(tpl_rt *rt, tpl_value a, tpl_value b);
/* Strict identity (===), used by `same as`. */
bool tpl_identical(tpl_value a, tpl_value b);

/* Length as Twig's length filter: UTF-8 characters, items, 0 for null. */
int64_t tpl_length(tpl_rt *rt, tpl_value v);
bool tpl_is_iterable(tpl_value v);
/* Empty as Twig's `empty` test: "", null, false, [], and countables of 0. */
bool tpl_is_empty(tpl_rt *rt, tpl_value v);

#endif
