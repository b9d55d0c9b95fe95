/* The language's operators as Twig 3.5 compiles them to PHP 8 (arithmetic
 * with int overflow to float, ranges, `in`, `matches`, slices), attribute
 * access, closures, value printing and diagnostics. */
#include <math.h>
#include <stdlib.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "tpl_lib.h"

/* ---- diagnostics ---------------------------------------------------- */

void tpl_diag_print(FILE *f, const tpl_diag *d) {
  /* As gcc does: no position when there is none to give. */
  if (!d->file[0])
    fprintf(f, "error: %s\n", d->message);
  else if (!d->line)
    fprintf(f, "%s: error: %s\n", d->file, d->message);
  else
    fprintf(f, "%s:%u:%u: error: %s\n", d->file, (unsigned)d->line,
            (unsigned)d->col, d->message);
  if (!d->source_line[0])
    return;
  fprintf(f, "  %s\n  ", d->source_line);
  /* Tabs stay tabs so the caret lines up whatever the tab width. */
  size_t n = strlen(d->source_line);
  for (uint32_t i = 1; i < d->col; i++)
    fputc(i - 1 < n && d->source_line[i - 1] == '\t' ? '\t' : ' ', f);
  fputs("^\n", f);
}

void tpl_diag_vset(tpl_diag *d, const tpl_loc *loc, const char *fmt,
                   va_list ap) {
  memset(d, 0, sizeof *d);
  if (loc) {
    if (loc->file)
      snprintf(d->file, sizeof d->file, "%s", loc->file);
    d->line = loc->line;
    d->col = loc->col;
  }
  vsnprintf(d->message, sizeof d->message, fmt, ap);
}

void tpl_diag_set(tpl_diag *d, const tpl_loc *loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  tpl_diag_vset(d, loc, fmt, ap);
  va_end(ap);
}

/* ---- printing ------------------------------------------------------- */

static void tpl_out_number(tpl_rt *rt, tpl_value v) {
  if (rt->out_cap - rt->out_len >= 40) {
    char *p = rt->out + rt->out_len;
    rt->out_len += v.type == TPL_INT ? oc_format_int(v.u.i, p)
                                     : tpl_format_float(v.u.f, p);
    return;
  }
  /* Near the end of the buffer, which may be near the output budget: the
   * number's own length, not the most a number may take, is what counts. */
  char buf[40];
  size_t n = v.type == TPL_INT ? oc_format_int(v.u.i, buf)
                               : tpl_format_float(v.u.f, buf);
  tpl_out(rt, buf, n);
}

void tpl_out_value_slow(tpl_rt *rt, tpl_value v) {
  switch (v.type) {
  case TPL_STR:
    tpl_out(rt, v.u.s, v.len);
    return;
  case TPL_INT:
  case TPL_FLOAT:
    tpl_out_number(rt, v);
    return;
  case TPL_NULL:
    return;
  case TPL_BOOL:
    if (v.u.b)
      tpl_out(rt, "1", 1);
    return;
  default: {
    tpl_value s = tpl_to_str(rt, v);
    tpl_out_check(rt, s.u.s, s.len);
    tpl_out(rt, s.u.s, s.len);
  }
  }
}

void tpl_out_escaped_slow(tpl_rt *rt, tpl_value v, tpl_escape strategy) {
  if (strategy == TPL_ESC_SH && v.type != TPL_STR && v.type != TPL_INT &&
      v.type != TPL_FLOAT)
    v = tpl_to_str(rt, v); /* null and false are '', a word all the same */
  if (v.type == TPL_STR) {
    if (strategy == TPL_ESC_SH)
      tpl_escape_out(rt, v.u.s, v.len, strategy);
    else if (strategy == TPL_ESC_NONE || v.safe || v.len == 0)
      tpl_out(rt, v.u.s, v.len);
    else
      tpl_escape_out(rt, v.u.s, v.len, strategy);
    return;
  }
  /* Twig's escaper hands back non-strings untouched, so numbers, booleans,
   * null and arrays print as they are; only objects become strings. */
  if (v.type == TPL_OBJ && strategy != TPL_ESC_NONE) {
    tpl_value s = tpl_to_str(rt, v);
    tpl_out_check(rt, s.u.s, s.len);
    if (s.safe)
      tpl_out(rt, s.u.s, s.len);
    else
      tpl_escape_out(rt, s.u.s, s.len, strategy);
    return;
  }
  tpl_out_value(rt, v);
}

/* ---- arithmetic ----------------------------------------------------- */

tpl_value tpl_arith_operand(tpl_rt *rt, tpl_value v, tpl_value other,
                            const char *op, bool left, const tpl_loc *loc) {
  tpl_value n;
  if (tpl_coerce_number(v, &n))
    return n;
  const char *a = tpl_type_name(left ? v : other);
  const char *b = tpl_type_name(left ? other : v);
  tpl_fail(rt, loc, "unsupported operand types: %s %s %s", a, op, b);
}

static void tpl_operands(tpl_rt *rt, tpl_value *a, tpl_value *b, const char *op,
                         const tpl_loc *l) {
  tpl_value x = *a, y = *b;
  *a = tpl_arith_operand(rt, x, y, op, true, l);
  *b = tpl_arith_operand(rt, y, x, op, false, l);
}

static inline double tpl_num_d(tpl_value v) {
  return v.type == TPL_INT ? (double)v.u.i : v.u.f;
}

/* PHP's array union: keys of b not in a are appended. */
static tpl_value tpl_array_union(tpl_rt *rt, tpl_value a, tpl_value b) {
  tpl_arr x, y;
  tpl_arr_of(rt, a, &x);
  tpl_arr_of(rt, b, &y);
  if (y.n <= x.n && x.list && y.list)
    return a;
  tpl_map *m = tpl_map_copy(rt->arena, &x, y.n);
  for (size_t i = 0; i < y.n; i++) {
    tpl_value k = tpl_arr_key(&y, i);
    if (!tpl_map_get(m, k, NULL))
      tpl_map_set(rt->arena, m, k, tpl_arr_val(&y, i));
  }
  return tpl_map_or_list(rt->arena, m);
}

static inline bool tpl_is_array(tpl_value v) {
  return v.type == TPL_LIST || v.type == TPL_MAP;
}

tpl_value tpl_op_add(tpl_rt *rt, tpl_value a, tpl_value b, const tpl_loc *l) {
  if (a.type == TPL_INT && b.type == TPL_INT) {
    int64_t r;
    if (!__builtin_add_overflow(a.u.i, b.u.i, &r))
      return tpl_int(r);
    return tpl_float((double)a.u.i + (double)b.u.i);
  }
  if (tpl_is_array(a) && tpl_is_array(b))
    return tpl_array_union(rt, a, b);
  tpl_operands(rt, &a, &b, "+", l);
  if (a.type == TPL_INT && b.type == TPL_INT)
    return tpl_op_add(rt, a, b, l);
  return tpl_float(tpl_num_d(a) + tpl_num_d(b));
}

/* a - b, or a * b when mul: ints while the result fits, floats past that,
 * as PHP. Inlined into each operator with mul constant. */
static inline tpl_value tpl_op_sub_or_mul(tpl_rt *rt, tpl_value a, tpl_value b,
                                          bool mul, const tpl_loc *l) {
  if (a.type != TPL_INT || b.type != TPL_INT)
    tpl_operands(rt, &a, &b, mul ? "*" : "-", l);
  if (a.type == TPL_INT && b.type == TPL_INT) {
    int64_t r;
    if (!(mul ? __builtin_mul_overflow(a.u.i, b.u.i, &r)
              : __builtin_sub_overflow(a.u.i, b.u.i, &r)))
      return tpl_int(r);
    double x = (double)a.u.i, y = (double)b.u.i;
    return tpl_float(mul ? x * y : x - y);
  }
  double x = tpl_num_d(a), y = tpl_num_d(b);
  return tpl_float(mul ? x * y : x - y);
}

tpl_value tpl_op_sub(tpl_rt *rt, tpl_value a, tpl_value b, const tpl_loc *l) {
  return tpl_op_sub_or_mul(rt, a, b, false, l);
}

tpl_value tpl_op_mul(tpl_rt *rt, tpl_value a, tpl_value b, const tpl_loc *l) {
  return tpl_op_sub_or_mul(rt, a, b, true, l);
}

static tpl_value tpl_divide(tpl_rt *rt, tpl_value a, tpl_value b,
                            const char *op, const tpl_loc *l) {
  tpl_operands(rt, &a, &b, op, l);
  if ((b.type == TPL_INT && b.u.i == 0) || (b.type == TPL_FLOAT && b.u.f == 0))
    tpl_fail(rt, l, "division by zero");
  if (a.type == TPL_INT && b.type == TPL_INT) {
    if (b.u.i == -1 && a.u.i == INT64_MIN)
      return tpl_float(-(double)INT64_MIN);
    if (a.u.i % b.u.i == 0)
      return tpl_int(a.u.i / b.u.i);
    return tpl_float((double)a.u.i / (double)b.u.i);
  }
  return tpl_float(tpl_num_d(a) / tpl_num_d(b));
}

tpl_value tpl_op_div(tpl_rt *rt, tpl_value a, tpl_value b, const tpl_loc *l) {
  return tpl_divide(rt, a, b, "/", l);
}

/* Twig compiles a // b to (int) floor(a / b). */
tpl_value tpl_op_floordiv(tpl_rt *rt, tpl_value a, tpl_value b,
                          const tpl_loc *l) {
  tpl_value q = tpl_divide(rt, a, b, "/", l);
  if (q.type == TPL_INT)
    return q;
  return tpl_int(tpl_double_to_int(floor(q.u.f)));
}

tpl_value tpl_op_mod(tpl_rt *rt, tpl_value a, tpl_value b, const tpl_loc *l) {
  tpl_operands(rt, &a, &b, "%", l);
  int64_t x = a.type == TPL_INT ? a.u.i : tpl_double_to_int(a.u.f);
  int64_t y = b.type == TPL_INT ? b.u.i : tpl_double_to_int(b.u.f);
  if (y == 0)
    tpl_fail(rt, l, "modulo by zero");
  if (y == -1)
    return tpl_int(0);
  return tpl_int(x % y);
}

tpl_value tpl_op_pow(tpl_rt *rt, tpl_value a, tpl_value b, const tpl_loc *l) {
  tpl_operands(rt, &a, &b, "**", l);
  if (a.type == TPL_INT && b.type == TPL_INT && b.u.i >= 0) {
    int64_t base = a.u.i, e = b.u.i, acc = 1;
    if (e == 0)
      return tpl_int(1);
    if (base == 0)
      return tpl_int(0);
    /* Square-and-multiply; on overflow finish in floating point the way
     * PHP does, so the float result matches PHP's bit for bit. */
    while (e >= 1) {
      int64_t r;
      if (e % 2) {
        --e;
        if (__builtin_mul_overflow(acc, base, &r))
          return tpl_float((double)acc * (double)base *
                           pow((double)base, (double)e));
        acc = r;
      } else {
        e /= 2;
        if (__builtin_mul_overflow(base, base, &r))
          return tpl_float((double)acc *
                           pow((double)base * (double)base, (double)e));
        base = r;
      }
    }
    return tpl_int(acc);
  }
  return tpl_float(pow(tpl_num_d(a), tpl_num_d(b)));
}

/* PHP compiles -x and +x as multiplications by -1 and 1. */
tpl_value tpl_op_neg(tpl_rt *rt, tpl_value a, const tpl_loc *l) {
  return tpl_op_mul(rt, a, tpl_int(-1), l);
}

tpl_value tpl_op_pos(tpl_rt *rt, tpl_value a, const tpl_loc *l) {
  return tpl_op_mul(rt, a, tpl_int(1), l);
}

tpl_value tpl_op_concat(tpl_rt *rt, tpl_value a, tpl_value b) {
  a = tpl_to_str(rt, a);
  b = tpl_to_str(rt, b);
  if (b.len == 0) {
    a.safe = 0;
    return a;
  }
  if (a.len == 0) {
    b.safe = 0;
    return b;
  }
  size_t n = oc_size_add(a.len, b.len);
  if (n > UINT32_MAX)
    tpl_fail(rt, rt->loc, "string too long");
  char *p = oc_arena_alloc(rt->arena, n + 1);
  memcpy(p, a.u.s, a.len);
  memcpy(p + a.len, b.u.s, b.len);
  p[n] = '\0';
  return tpl_str(p, n);
}

static tpl_value tpl_bitop(tpl_rt *rt, tpl_value a, tpl_value b, char op) {
  if (a.type == TPL_STR && b.type == TPL_STR) {
    /* PHP works byte by byte on two strings. */
    size_t n = op == '|' ? (a.len > b.len ? a.len : b.len)
                         : (a.len < b.len ? a.len : b.len);
    char *p = oc_arena_alloc(rt->arena, n + 1);
    for (size_t i = 0; i < n; i++) {
      unsigned char x = i < a.len ? (unsigned char)a.u.s[i] : 0;
      unsigned char y = i < b.len ? (unsigned char)b.u.s[i] : 0;
      p[i] = (char)(op == '&' ? x & y : op == '|' ? x | y : x ^ y);
    }
    p[n] = '\0';
    return tpl_str(p, n);
  }
  char ops[2] = {op, 0};
  tpl_operands(rt, &a, &b, ops, rt->loc);
  int64_t x = a.type == TPL_INT ? a.u.i : tpl_double_to_int(a.u.f);
  int64_t y = b.type == TPL_INT ? b.u.i : tpl_double_to_int(b.u.f);
  return tpl_int(op == '&' ? x & y : op == '|' ? x | y : x ^ y);
}

tpl_value tpl_op_bitand(tpl_rt *rt, tpl_value a, tpl_value b) {
  return tpl_bitop(rt, a, b, '&');
}
tpl_value tpl_op_bitor(tpl_rt *rt, tpl_value a, tpl_value b) {
  return tpl_bitop(rt, a, b, '|');
}
tpl_value tpl_op_bitxor(tpl_rt *rt, tpl_value a, tpl_value b) {
  return tpl_bitop(rt, a, b, '^');
}

/* ---- in, starts with, ends with ------------------------------------- */

static bool tpl_memmem(const char *h, size_t hl, const char *n, size_t nl) {
  if (nl == 0)
    return true;
  const char *end = h + hl;
  while ((size_t)(end - h) >= nl) {
    const char *p = memchr(h, n[0], (size_t)(end - h) - nl + 1);
    if (!p)
      return false;
    if (memcmp(p, n, nl) == 0)
      return true;
    h = p + 1;
  }
  return false;
}

bool tpl_op_in(tpl_rt *rt, tpl_value needle, tpl_value haystack) {
  if (haystack.type == TPL_STR) {
    if (needle.type == TPL_STR)
      return tpl_memmem(haystack.u.s, haystack.len, needle.u.s, needle.len);
    if (needle.type == TPL_INT || needle.type == TPL_FLOAT) {
      tpl_value s = tpl_to_str(rt, needle);
      return tpl_memmem(haystack.u.s, haystack.len, s.u.s, s.len);
    }
    return false;
  }
  tpl_arr arr;
  if (!tpl_arr_of(rt, haystack, &arr))
    return false;
  bool by_identity = needle.type == TPL_OBJ || needle.type == TPL_FUNC;
  for (size_t i = 0; i < arr.n; i++) {
    tpl_value item = tpl_arr_val(&arr, i);
    if (by_identity ? tpl_identical(needle, item)
                    : tpl_compare(rt, needle, item) == 0)
      return true;
  }
  return false;
}

/* Twig requires real strings on both sides (a Markup object is not one). */
bool tpl_op_starts_with(tpl_rt *rt, tpl_value a, tpl_value b) {
  (void)rt;
  if (a.type != TPL_STR || b.type != TPL_STR || a.safe || b.safe)
    return false;
  return b.len <= a.len && memcmp(a.u.s, b.u.s, b.len) == 0;
}

bool tpl_op_ends_with(tpl_rt *rt, tpl_value a, tpl_value b) {
  (void)rt;
  if (a.type != TPL_STR || b.type != TPL_STR || a.safe || b.safe)
    return false;
  return b.len <= a.len && memcmp(a.u.s + a.len - b.len, b.u.s, b.len) == 0;
}

/* ---- matches -------------------------------------------------------- */

typedef struct tpl_regex_entry {
  struct tpl_regex_entry *next;
  const char *src;
  size_t len;
  pcre2_code *code;
  pcre2_match_data *md;
} tpl_regex_entry;

static void tpl_regex_free(void *p) {
  tpl_regex_entry *e = p;
  pcre2_match_data_free(e->md);
  pcre2_code_free(e->code);
}

static _Noreturn void tpl_regex_fail(tpl_rt *rt, const tpl_loc *l, tpl_value re,
                                     const char *why) {
  tpl_fail(rt, l, "Regexp \"%.*s\" passed to \"matches\" is not valid: %s",
           (int)re.len, re.u.s, why);
}

/* Compiles a PHP regex "/body/flags" (any non-alphanumeric delimiter,
 * bracket pairs nesting), cached for the render. */
static tpl_regex_entry *tpl_regex_get(tpl_rt *rt, tpl_value re,
                                      const tpl_loc *l) {
  tpl_lib_state *lib = tpl_lib(rt);
  for (tpl_regex_entry *e = lib->regexes; e; e = e->next)
    if (e->len == re.len && memcmp(e->src, re.u.s, re.len) == 0)
      return e;

  const char *s = re.u.s, *end = s + re.len;
  while (s < end && (*s == ' ' || (*s >= '\t' && *s <= '\r')))
    s++;
  if (s == end)
    tpl_regex_fail(rt, l, re, "Empty regular expression");
  char start = *s++;
  if ((start >= '0' && start <= '9') || (start >= 'a' && start <= 'z') ||
      (start >= 'A' && start <= 'Z') || start == '\\' || start == '\0')
    tpl_regex_fail(rt, l, re,
                   "Delimiter must not be alphanumeric, backslash, or NUL");
  char close = start;
  const char *pairs = "([{<", *closes = ")]}>";
  const char *pp = strchr(pairs, start);
  if (pp && start)
    close = closes[pp - pairs];
  const char *p = s;
  int depth = 1;
  while (p < end) {
    if (*p == '\\' && p + 1 < end) {
      p += 2;
      continue;
    }
    if (*p == close && (close == start || --depth <= 0))
      break;
    if (close != start && *p == start)
      depth++;
    p++;
  }
  if (p >= end) {
    char msg[64];
    snprintf(msg, sizeof msg,
             close == start ? "No ending delimiter '%c' found"
                            : "No ending matching delimiter '%c' found",
             close);
    tpl_regex_fail(rt, l, re, msg);
  }
  const char *body = s;
  size_t body_len = (size_t)(p - s);
  uint32_t opts = 0;
  for (const char *f = p + 1; f < end; f++) {
    switch (*f) {
    case 'i':
      opts |= PCRE2_CASELESS;
      break;
    case 'm':
      opts |= PCRE2_MULTILINE;
      break;
    case 's':
      opts |= PCRE2_DOTALL;
      break;
    case 'x':
      opts |= PCRE2_EXTENDED;
      break;
    case 'A':
      opts |= PCRE2_ANCHORED;
      break;
    case 'D':
      opts |= PCRE2_DOLLAR_ENDONLY;
      break;
    case 'U':
      opts |= PCRE2_UNGREEDY;
      break;
    case 'u':
      opts |= PCRE2_UTF | PCRE2_UCP;
      break;
    case 'J':
      opts |= PCRE2_DUPNAMES;
      break;
    case 'n':
      opts |= PCRE2_NO_AUTO_CAPTURE;
      break;
    case 'S':
    case 'X':
    case ' ':
    case '\n':
    case '\r':
      break;
    case 'e':
      tpl_regex_fail(rt, l, re,
                     "The /e modifier is no longer supported, use "
                     "preg_replace_callback instead");
    default: {
      char msg[64];
      if (*f)
        snprintf(msg, sizeof msg, "Unknown modifier '%c'", *f);
      else
        snprintf(msg, sizeof msg, "NUL is not a valid modifier");
      tpl_regex_fail(rt, l, re, msg);
    }
    }
  }
  int err;
  PCRE2_SIZE erroff;
  pcre2_code *code =
      pcre2_compile((PCRE2_SPTR)body, body_len, opts, &err, &erroff, NULL);
  if (!code) {
    PCRE2_UCHAR buf[256];
    pcre2_get_error_message(err, buf, sizeof buf);
    char msg[320];
    snprintf(msg, sizeof msg, "Compilation failed: %s at offset %zu",
             (const char *)buf, (size_t)erroff);
    tpl_regex_fail(rt, l, re, msg);
  }
  tpl_regex_entry *e = oc_arena_alloc(rt->arena, sizeof *e);
  e->src = oc_arena_strndup(rt->arena, re.u.s, re.len);
  e->len = re.len;
  e->code = code;
  e->md = pcre2_match_data_create_from_pattern(code, NULL);
  if (!e->md) {
    pcre2_code_free(code);
    tpl_fail(rt, l, "out of memory");
  }
  oc_arena_defer(rt->arena, tpl_regex_free, e);
  e->next = lib->regexes;
  lib->regexes = e;
  return e;
}

bool tpl_op_matches(tpl_rt *rt, tpl_value subject, tpl_value regex,
                    const tpl_loc *l) {
  if (regex.type != TPL_STR)
    regex = tpl_to_str(rt, regex);
  if (subject.type == TPL_NULL)
    subject = tpl_str("", 0);
  else if (subject.type == TPL_LIST || subject.type == TPL_MAP)
    /* twig_matches() declares ?string $str: an array is a TypeError */
    tpl_fail(rt, l,
             "twig_matches(): Argument #2 ($str) must be of type ?string, "
             "array given");
  else if (subject.type != TPL_STR)
    subject = tpl_to_str(rt, subject);
  tpl_regex_entry *e = tpl_regex_get(rt, regex, l);
  int rc = pcre2_match(e->code, (PCRE2_SPTR)subject.u.s, subject.len, 0, 0,
                       e->md, NULL);
  /* PHP's preg_match gives false on bad UTF-8 and the like: no match. */
  return rc >= 0;
}

/* ---- ranges --------------------------------------------------------- */

/* PHP stops at its memory limit (128 MB by default); so do we, roughly. */
#define TPL_RANGE_MAX ((size_t)1 << 22)

static const char tpl_byte_chars[256] = {
    0,    1,    2,    3,    4,    5,    6,    7,    8,    9,    10,   11,
    12,   13,   14,   15,   16,   17,   18,   19,   20,   21,   22,   23,
    24,   25,   26,   27,   28,   29,   30,   31,   32,   33,   34,   35,
    36,   37,   38,   39,   40,   41,   42,   43,   44,   45,   46,   47,
    48,   49,   50,   51,   52,   53,   54,   55,   56,   57,   58,   59,
    60,   61,   62,   63,   64,   65,   66,   67,   68,   69,   70,   71,
    72,   73,   74,   75,   76,   77,   78,   79,   80,   81,   82,   83,
    84,   85,   86,   87,   88,   89,   90,   91,   92,   93,   94,   95,
    96,   97,   98,   99,   100,  101,  102,  103,  104,  105,  106,  107,
    108,  109,  110,  111,  112,  113,  114,  115,  116,  117,  118,  119,
    120,  121,  122,  123,  124,  125,  126,  127,  -128, -127, -126, -125,
    -124, -123, -122, -121, -120, -119, -118, -117, -116, -115, -114, -113,
    -112, -111, -110, -109, -108, -107, -106, -105, -104, -103, -102, -101,
    -100, -99,  -98,  -97,  -96,  -95,  -94,  -93,  -92,  -91,  -90,  -89,
    -88,  -87,  -86,  -85,  -84,  -83,  -82,  -81,  -80,  -79,  -78,  -77,
    -76,  -75,  -74,  -73,  -72,  -71,  -70,  -69,  -68,  -67,  -66,  -65,
    -64,  -63,  -62,  -61,  -60,  -59,  -58,  -57,  -56,  -55,  -54,  -53,
    -52,  -51,  -50,  -49,  -48,  -47,  -46,  -45,  -44,  -43,  -42,  -41,
    -40,  -39,  -38,  -37,  -36,  -35,  -34,  -33,  -32,  -31,  -30,  -29,
    -28,  -27,  -26,  -25,  -24,  -23,  -22,  -21,  -20,  -19,  -18,  -17,
    -16,  -15,  -14,  -13,  -12,  -11,  -10,  -9,   -8,   -7,   -6,   -5,
    -4,   -3,   -2,   -1};

static _Noreturn void tpl_range_fail(tpl_rt *rt, const tpl_loc *l) {
  tpl_fail(rt, l,
           "range(): Argument #3 ($step) must not exceed the specified range");
}

static tpl_list *tpl_range_list(tpl_rt *rt, size_t n, const tpl_loc *l) {
  if (n > TPL_RANGE_MAX)
    tpl_fail(rt, l, "the supplied range exceeds the maximum array size");
  tpl_work(rt, n, l);
  return tpl_list_new(rt->arena, n);
}

/* PHP 8.2's range(): letters for two non-numeric strings, floats when any
 * bound or the step is a float, else integers; the step's sign is ignored. */
tpl_value tpl_op_range(tpl_rt *rt, tpl_value low, tpl_value high,
                       tpl_value step, const tpl_loc *l) {
  bool step_is_float = false;
  double dstep = 1.0;
  if (step.type != TPL_NULL) {
    tpl_value sn = tpl_to_number(step);
    step_is_float = sn.type == TPL_FLOAT;
    dstep = tpl_to_float(step);
    if (dstep < 0)
      dstep = -dstep;
  }
  bool use_float = false;
  if (low.type == TPL_STR && high.type == TPL_STR && low.len && high.len) {
    tpl_value n1, n2;
    bool num1 = tpl_str_is_numeric(low.u.s, low.len, &n1);
    bool num2 = tpl_str_is_numeric(high.u.s, high.len, &n2);
    if ((num1 && n1.type == TPL_FLOAT) || (num2 && n2.type == TPL_FLOAT) ||
        step_is_float) {
      use_float = true;
    } else if (!num1 && !num2) {
      unsigned char lo = (unsigned char)low.u.s[0];
      unsigned char hi = (unsigned char)high.u.s[0];
      int64_t lstep = (int64_t)dstep;
      tpl_list *list;
      if (lo == hi) {
        list = tpl_range_list(rt, 1, l);
        list->items[0] = tpl_str(&tpl_byte_chars[lo], 1);
        return tpl_list_value(list);
      }
      int span = lo > hi ? lo - hi : hi - lo;
      if (span < lstep || lstep <= 0)
        tpl_range_fail(rt, l);
      list = tpl_range_list(rt, (size_t)(span / lstep) + 1, l);
      size_t n = 0;
      for (int c = lo; lo > hi ? c >= hi : c <= hi;
           c += lo > hi ? -(int)lstep : (int)lstep)
        list->items[n++] = tpl_str(&tpl_byte_chars[c], 1);
      list->len = n;
      return tpl_list_value(list);
    }
  } else if (low.type == TPL_FLOAT || high.type == TPL_FLOAT || step_is_float) {
    use_float = true;
  }

  if (use_float) {
    double lo = tpl_to_float(low), hi = tpl_to_float(high);
    if (isinf(lo) || isinf(hi))
      tpl_fail(rt, l, "range(): invalid range supplied");
    tpl_list *list;
    if (lo == hi) {
      list = tpl_range_list(rt, 1, l);
      list->items[0] = tpl_float(lo);
      return tpl_list_value(list);
    }
    double span = lo > hi ? lo - hi : hi - lo;
    if (span < dstep || dstep <= 0)
      tpl_range_fail(rt, l);
    double calc = span / dstep + 1;
    if (calc >= (double)TPL_RANGE_MAX)
      tpl_fail(rt, l, "the supplied range exceeds the maximum array size");
    size_t size = (size_t)tpl_php_round(calc, 0);
    list = tpl_range_list(rt, size, l);
    size_t i = 0;
    for (double el = lo; i < size && (lo > hi ? el >= hi : el <= hi);) {
      list->items[i] = tpl_float(el);
      ++i;
      el = lo > hi ? lo - (double)i * dstep : lo + (double)i * dstep;
    }
    list->len = i;
    return tpl_list_value(list);
  }

  int64_t lo = tpl_to_int(low), hi = tpl_to_int(high);
  tpl_list *list;
  if (dstep <= 0)
    tpl_range_fail(rt, l);
  uint64_t lstep =
      dstep >= 18446744073709551615.0 ? UINT64_MAX : (uint64_t)dstep;
  if (lstep == 0)
    tpl_range_fail(rt, l);
  if (lo == hi) {
    list = tpl_range_list(rt, 1, l);
    list->items[0] = tpl_int(lo);
    return tpl_list_value(list);
  }
  uint64_t span =
      lo > hi ? (uint64_t)lo - (uint64_t)hi : (uint64_t)hi - (uint64_t)lo;
  if (span < lstep)
    tpl_range_fail(rt, l);
  uint64_t count = span / lstep;
  if (count >= TPL_RANGE_MAX)
    tpl_fail(rt, l, "the supplied range exceeds the maximum array size");
  list = tpl_range_list(rt, (size_t)count + 1, l);
  for (uint64_t i = 0; i <= count; i++) {
    uint64_t off = i * lstep;
    list->items[i] = tpl_int(lo > hi ? (int64_t)((uint64_t)lo - off)
                                     : (int64_t)((uint64_t)lo + off));
  }
  return tpl_list_value(list);
}

/* ---- slices --------------------------------------------------------- */

/* PHP's array_slice. */
static tpl_value tpl_array_slice(tpl_rt *rt, const tpl_arr *a, int64_t off,
                                 bool has_len, int64_t len, bool preserve) {
  int64_t n = (int64_t)a->n;
  if (off > n)
    return tpl_list_value(tpl_list_new(rt->arena, 0));
  if (off < 0) {
    off += n;
    if (off < 0)
      off = 0;
  }
  if (!has_len)
    len = n - off;
  else if (len < 0)
    len = n - off + len;
  else if (len > n - off)
    len = n - off;
  if (len <= 0)
    return tpl_list_value(tpl_list_new(rt->arena, 0));
  if (a->list && (!preserve || off == 0)) {
    tpl_list *l = oc_arena_alloc(rt->arena, sizeof *l);
    l->len = (size_t)len;
    l->items = a->list->items + off; /* values are immutable: share */
    return tpl_list_value(l);
  }
  tpl_map *m = tpl_map_new(rt->arena, (size_t)len);
  for (int64_t i = off; i < off + len; i++) {
    tpl_value k = tpl_arr_key(a, (size_t)i);
    if (k.type == TPL_INT && !preserve)
      tpl_map_push(rt->arena, m, tpl_arr_val(a, (size_t)i));
    else
      tpl_map_set(rt->arena, m, k, tpl_arr_val(a, (size_t)i));
  }
  return tpl_map_or_list(rt->arena, m);
}

tpl_value tpl_slice(tpl_rt *rt, tpl_value v, tpl_value start, tpl_value length,
                    bool preserve_keys, const tpl_loc *l) {
  (void)l;
  int64_t off = tpl_to_int(start);
  bool has_len = length.type != TPL_NULL;
  int64_t len = has_len ? tpl_to_int(length) : 0;
  tpl_arr a;
  if (tpl_arr_of(rt, v, &a))
    return tpl_array_slice(rt, &a, off, has_len, len, preserve_keys);
  tpl_value s = tpl_to_str(rt, v);
  s = tpl_mb_substr(rt, s, off, has_len, len);
  s.safe = 0;
  return s;
}

/* ---- attributes ----------------------------------------------------- */

_Noreturn void tpl_attr_fail(tpl_rt *rt, tpl_value obj, tpl_value key,
                             const tpl_loc *loc) {
  tpl_value k = key.type == TPL_STR ? key : tpl_to_str(rt, key);
  int kl = (int)(k.len > 200 ? 200 : k.len);
  if (obj.type == TPL_NULL)
    tpl_fail(rt, loc, "cannot read attribute \"%.*s\" of null", kl, k.u.s);
  if (obj.type == TPL_LIST || obj.type == TPL_MAP)
    tpl_fail(rt, loc, "key \"%.*s\" does not exist", kl, k.u.s);
  if (obj.type == TPL_OBJ)
    tpl_fail(rt, loc, "attribute \"%.*s\" does not exist in %s", kl, k.u.s,
             tpl_type_name(obj));
  tpl_fail(rt, loc, "cannot read attribute \"%.*s\" of %s", kl, k.u.s,
           tpl_type_name(obj));
}

/* The lookup shared by every attribute form; false when missing. */
static bool tpl_lookup(tpl_rt *rt, tpl_value obj, tpl_value key,
                       tpl_attr_kind kind, tpl_value *out) {
  switch (obj.type) {
  case TPL_MAP:
    if (kind == TPL_ATTR_METHOD)
      return false;
    return tpl_map_get(obj.u.map, key, out);
  case TPL_LIST: {
    if (kind == TPL_ATTR_METHOD)
      return false;
    tpl_value k = tpl_array_key(rt, key);
    if (k.type != TPL_INT || k.u.i < 0 || (uint64_t)k.u.i >= obj.u.list->len)
      return false;
    *out = obj.u.list->items[k.u.i];
    return true;
  }
  case TPL_OBJ: {
    const tpl_obj_class *cls = obj.u.obj->cls;
    if (!cls->get_attr)
      return false;
    tpl_value k = key.type == TPL_STR ? key : tpl_to_str(rt, key);
    return cls->get_attr(rt, obj.u.obj, k.u.s, k.len, out);
  }
  default:
    return false;
  }
}

tpl_value tpl_getattr(tpl_rt *rt, tpl_value obj, tpl_value key,
                      tpl_attr_kind kind, const tpl_loc *loc) {
  tpl_value out;
  if (tpl_lookup(rt, obj, key, kind, &out))
    return out;
  if (rt->strict)
    tpl_attr_fail(rt, obj, key, loc);
  return tpl_null();
}

tpl_value tpl_call_method(tpl_rt *rt, tpl_value obj, tpl_value key, int argc,
                          const tpl_value *argv, const tpl_loc *loc) {
  if (obj.type == TPL_OBJ && obj.u.obj->cls->call) {
    tpl_value k = key.type == TPL_STR ? key : tpl_to_str(rt, key);
    tpl_value out;
    if (obj.u.obj->cls->call(rt, obj.u.obj, k.u.s, k.len, argc, argv, &out))
      return out;
  }
  return tpl_getattr(rt, obj, key, TPL_ATTR_METHOD, loc);
}

bool tpl_has_attr(tpl_rt *rt, tpl_value obj, tpl_value key, tpl_value *out) {
  tpl_value tmp;
  if (!tpl_lookup(rt, obj, key, TPL_ATTR_ANY, &tmp))
    return false;
  if (out)
    *out = tmp;
  return true;
}

/* ---- closures ------------------------------------------------------- */

tpl_value tpl_closure_new(tpl_rt *rt,
                          tpl_value (*fn)(tpl_rt *, const tpl_closure *, int,
                                          const tpl_value *),
                          const void *node, tpl_ctx *ctx,
                          const tpl_template *self, const tpl_blocks *blocks) {
  tpl_closure *c = oc_arena_alloc(rt->arena, sizeof *c);
  c->fn = fn;
  c->node = node;
  c->ctx = ctx;
  c->self = self;
  c->blocks = blocks;
  c->slots = NULL;
  c->ics = NULL;
  tpl_value v = {TPL_FUNC, 0, 0, {.fn = c}};
  return v;
}

tpl_value tpl_closure_new_slots(tpl_rt *rt,
                                tpl_value (*fn)(tpl_rt *, const tpl_closure *,
                                                int, const tpl_value *),
                                tpl_ctx *ctx, const tpl_template *self,
                                const tpl_blocks *blocks, size_t nslots,
                                size_t nics) {
  tpl_value v = tpl_closure_new(rt, fn, NULL, ctx, self, blocks);
  if (nics)
    v.u.fn->ics = oc_arena_calloc(rt->arena, nics, sizeof(tpl_ic));
  if (nslots) {
    v.u.fn->slots =
        oc_arena_alloc(rt->arena, oc_size_mul(nslots, sizeof(tpl_value)));
    for (size_t i = 0; i < nslots; i++)
      v.u.fn->slots[i].type = TPL_UNSET;
  }
  return v;
}

tpl_value tpl_call(tpl_rt *rt, tpl_value fn, int argc, const tpl_value *argv,
                   const tpl_loc *loc) {
  if (fn.type != TPL_FUNC)
    tpl_fail(rt, loc, "a value of type %s is not callable", tpl_type_name(fn));
  return fn.u.fn->fn(rt, fn.u.fn, argc, argv);
}

tpl_value tpl_call_arrow(tpl_rt *rt, tpl_value fn, int argc,
                         const tpl_value *argv, const char *what,
                         const tpl_loc *loc) {
  if (fn.type != TPL_FUNC)
    tpl_fail(rt, loc, "the %s expects an arrow function, got %s", what,
             tpl_type_name(fn));
  return fn.u.fn->fn(rt, fn.u.fn, argc, argv);
}
