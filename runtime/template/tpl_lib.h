/* Private to the template run time's value layer and standard library
 * (tpl_value.c, tpl_ops.c, tpl_escape.c, tpl_filters.c, tpl_functions.c,
 * tpl_tests.c, tpl_date.c, tpl_json.c): helpers those files share. */
#ifndef OCTAVO_TPL_LIB_H
#define OCTAVO_TPL_LIB_H

#include "oc_alloc.h"
#include "oc_sb.h"
#include "tpl_rt.h"

/* ---- the string builder (oc_sb.h) with template values ------------- */

void tpl_sb_add_value(tpl_rt *rt, oc_sb *b, tpl_value v); /* as echo */
tpl_value tpl_sb_value(oc_sb *b); /* the text as a string value */

/* ---- numbers -------------------------------------------------------- */

/* PHP's zend_gcvt: `precision` significant digits (0 → the shortest that
 * round-trips, as serialize_precision -1), exponent letter `e`. */
size_t tpl_gcvt(double f, int precision, char e, char *buf);
/* PHP's round() (half away from zero, with its pre-rounding). */
double tpl_php_round(double value, int places);
/* PHP's (int) cast of a float: 0 for INF/NAN, modular when out of range. */
int64_t tpl_double_to_int(double d);
/* The numeric prefix of a string as PHP's arithmetic reads it. Returns
 * 2 when the whole string (whitespace aside) is numeric, 1 when only a
 * prefix is, 0 when there is none; *out gets the int or float. */
int tpl_str_numeric_prefix(const char *s, size_t len, tpl_value *out);
/* PHP's coercion of a scalar to int|float, as arithmetic and numeric
 * parameters do it: null and bools become ints, numeric (or leading-
 * numeric) strings their number. False for other strings, arrays and
 * objects, where the caller reports its own error or picks its own value. */
bool tpl_coerce_number(tpl_value v, tpl_value *out);
/* A number as PHP's arithmetic takes it: fails on arrays, non-numeric
 * strings and objects with `unsupported operand types`. */
tpl_value tpl_arith_operand(tpl_rt *rt, tpl_value v, tpl_value other,
                            const char *op, bool left, const tpl_loc *loc);
const char *tpl_type_name(tpl_value v); /* PHP's get_debug_type-ish */

/* ---- UTF-8 ---------------------------------------------------------- */

/* Decodes one code point; returns its byte length, or 0 when the bytes at
 * s are not valid UTF-8 (then *cp is the first byte). */
size_t tpl_utf8_decode(const unsigned char *s, size_t len, uint32_t *cp);
size_t tpl_utf8_encode(uint32_t cp, char *buf); /* buf >= 4 bytes */
bool tpl_utf8_valid(const char *s, size_t len);
/* Number of code points (invalid bytes count one each, as mb_strlen). */
size_t tpl_utf8_len(const char *s, size_t len);
/* Byte offset of code point number `index` (clamped to len). */
size_t tpl_utf8_offset(const char *s, size_t len, size_t index);
/* PHP's mb_substr: start/length in code points, negative from the end,
 * length < 0 drops that many from the end, has_length false: to the end. */
tpl_value tpl_mb_substr(tpl_rt *rt, tpl_value s, int64_t start, bool has_length,
                        int64_t length);

/* ---- arrays --------------------------------------------------------- */

/* A read-only view over a PHP array: a list or a map. */
typedef struct tpl_arr {
  const tpl_list *list;
  const tpl_map *map;
  size_t n;
} tpl_arr;

/* Lists and maps, and objects with to_array. False for anything else. */
bool tpl_arr_of(tpl_rt *rt, tpl_value v, tpl_arr *out);
static inline tpl_value tpl_arr_val(const tpl_arr *a, size_t i) {
  return a->list ? a->list->items[i] : a->map->entries[i].val;
}
static inline tpl_value tpl_arr_key(const tpl_arr *a, size_t i) {
  return a->list ? tpl_int((int64_t)i) : a->map->entries[i].key;
}
/* True when the keys are 0..n-1 in order (PHP's array_is_list). */
bool tpl_arr_is_list(const tpl_arr *a);
/* A new map for keys of any kind: copies a list's items with int keys. */
tpl_map *tpl_map_copy(oc_arena *a, const tpl_arr *src, size_t extra);
/* Key normalisation as PHP's array keys: "5" → 5, floats and bools → int,
 * null → "". */
tpl_value tpl_array_key(tpl_rt *rt, tpl_value key);
/* Map lookup by a name whose hash (tpl_hash_bytes) is known; numeric
 * names find int keys as PHP does. */
bool tpl_map_get_name(const tpl_map *m, const char *s, size_t len,
                      uint32_t hash, tpl_value *out);
/* Appends a key the caller knows is not in m yet (no lookup). */
void tpl_map_append_new(oc_arena *a, tpl_map *m, tpl_value key, tpl_value val);
/* The strict-mode error of a missing attribute or key. */
_Noreturn void tpl_attr_fail(tpl_rt *rt, tpl_value obj, tpl_value key,
                             const tpl_loc *loc);
/* A list holding the given items (copied). */
tpl_value tpl_list_of(oc_arena *a, const tpl_value *items, size_t n);

/* ---- the standard library's per-render state ------------------------ */

struct tpl_regex_entry;
struct tpl_tz;
typedef struct tpl_lib_state {
  struct tpl_regex_entry *regexes;
  const struct tpl_tz *zones; /* loaded time zones, a list */
  bool clock_read;
  int64_t clock;
} tpl_lib_state;

tpl_lib_state *tpl_lib(tpl_rt *rt);

/* ---- callables shared between files --------------------------------- */

/* Calls an arrow function (or fails when fn is not callable). */
tpl_value tpl_call_arrow(tpl_rt *rt, tpl_value fn, int argc,
                         const tpl_value *argv, const char *what,
                         const tpl_loc *loc);

/* ---- dates (tpl_date.c) --------------------------------------------- */

extern const tpl_obj_class tpl_date_class;
typedef struct tpl_date {
  int64_t ts;   /* seconds since the epoch */
  int32_t usec; /* microseconds */
  const struct tpl_tz *tz;
} tpl_date;

tpl_value tpl_date_filter(tpl_rt *rt, tpl_ctx *ctx, int argc,
                          const tpl_value *argv, const tpl_loc *loc);
tpl_value tpl_date_modify_filter(tpl_rt *rt, tpl_ctx *ctx, int argc,
                                 const tpl_value *argv, const tpl_loc *loc);
tpl_value tpl_date_function(tpl_rt *rt, tpl_ctx *ctx, int argc,
                            const tpl_value *argv, const tpl_loc *loc);
/* {"date": ..., "timezone_type": ..., "timezone": ...} as PHP encodes a
 * DateTime in JSON. */
tpl_value tpl_date_json_map(tpl_rt *rt, const tpl_date *d);
/* Seconds since the epoch of `now` for this render. */
int64_t tpl_now(tpl_rt *rt);

/* ---- JSON (tpl_json.c) ---------------------------------------------- */

enum {
  TPL_JSON_HEX_TAG = 1,
  TPL_JSON_HEX_AMP = 2,
  TPL_JSON_HEX_APOS = 4,
  TPL_JSON_HEX_QUOT = 8,
  TPL_JSON_FORCE_OBJECT = 16,
  TPL_JSON_NUMERIC_CHECK = 32,
  TPL_JSON_UNESCAPED_SLASHES = 64,
  TPL_JSON_PRETTY_PRINT = 128,
  TPL_JSON_UNESCAPED_UNICODE = 256,
  TPL_JSON_PARTIAL_OUTPUT_ON_ERROR = 512,
  TPL_JSON_PRESERVE_ZERO_FRACTION = 1024,
  TPL_JSON_UNESCAPED_LINE_TERMINATORS = 2048,
  TPL_JSON_INVALID_UTF8_IGNORE = 0x100000,
  TPL_JSON_INVALID_UTF8_SUBSTITUTE = 0x200000,
  TPL_JSON_THROW_ON_ERROR = 0x400000
};

/* PHP's json_encode: a string, or false on error (as PHP). */
tpl_value tpl_json_encode(tpl_rt *rt, tpl_value v, int64_t flags, int64_t depth,
                          const tpl_loc *loc);

/* ---- escaping helpers (tpl_escape.c) -------------------------------- */

/* Escapes into a builder (for filters that escape a part of their work). */
void tpl_escape_sb(tpl_rt *rt, oc_sb *b, const char *s, size_t len,
                   tpl_escape strat, const tpl_loc *loc);

#endif
