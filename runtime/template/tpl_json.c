/* PHP's json_encode for template values (the json_encode filter): escaped
 * slashes and \u escapes by default, lists vs objects decided by the keys,
 * floats with serialize_precision -1, and the JSON_* flags. */
#include <math.h>

#include "tpl_lib.h"

enum { TPL_JSON_OK, TPL_JSON_ERR_DEPTH, TPL_JSON_ERR_UTF8, TPL_JSON_ERR_INF };

typedef struct tpl_json {
  tpl_rt *rt;
  oc_sb *b;
  int64_t flags;
  int64_t max_depth;
  int64_t depth;
  int error;
} tpl_json;

static const char tpl_hex_lower[] = "0123456789abcdef";

static void tpl_json_u(oc_sb *b, uint32_t u, const char *hex) {
  char tmp[6] = {'\\',
                 'u',
                 hex[(u >> 12) & 15],
                 hex[(u >> 8) & 15],
                 hex[(u >> 4) & 15],
                 hex[u & 15]};
  oc_sb_add(b, tmp, 6);
}

static void tpl_json_double(tpl_json *j, double d) {
  if (!isfinite(d)) {
    j->error = TPL_JSON_ERR_INF;
    oc_sb_addc(j->b, '0');
    return;
  }
  char buf[64];
  size_t n = tpl_gcvt(d, 0, 'e', buf);
  oc_sb_add(j->b, buf, n);
  if (j->flags & TPL_JSON_PRESERVE_ZERO_FRACTION) {
    bool plain = true;
    for (size_t i = 0; i < n; i++)
      if (buf[i] == '.' || buf[i] == 'e')
        plain = false;
    if (plain)
      oc_sb_add(j->b, ".0", 2);
  }
}

static void tpl_json_string(tpl_json *j, const char *str, size_t len,
                            int64_t flags) {
  oc_sb *b = j->b;
  if (len == 0) {
    oc_sb_add(b, "\"\"", 2);
    return;
  }
  if (flags & TPL_JSON_NUMERIC_CHECK) {
    tpl_value n;
    if (tpl_str_is_numeric(str, len, &n)) {
      if (n.type == TPL_INT)
        oc_sb_add_int(b, n.u.i);
      else
        tpl_json_double(j, n.u.f);
      return;
    }
  }
  size_t start = b->len;
  oc_sb_addc(b, '"');
  const unsigned char *s = (const unsigned char *)str;
  size_t i = 0, run = 0;
  while (i < len) {
    unsigned char c = s[i];
    bool plain = c >= 0x20 && c < 0x80 && c != '"' && c != '\\' && c != '/' &&
                 c != '<' && c != '>' && c != '&' && c != '\'';
    if (plain) {
      i++;
      continue;
    }
    oc_sb_add(b, str + run, i - run);
    if (c >= 0x80) {
      uint32_t cp;
      size_t n = tpl_utf8_decode(s + i, len - i, &cp);
      if (!n) {
        if (flags & TPL_JSON_INVALID_UTF8_SUBSTITUTE) {
          if (flags & TPL_JSON_UNESCAPED_UNICODE)
            oc_sb_add(b, "\xEF\xBF\xBD", 3);
          else
            oc_sb_add(b, "\\ufffd", 6);
        } else if (!(flags & TPL_JSON_INVALID_UTF8_IGNORE)) {
          j->error = TPL_JSON_ERR_UTF8;
          b->len = start;
          oc_sb_add(b, "null", 4);
          return;
        }
        i++;
        run = i;
        continue;
      }
      if ((flags & TPL_JSON_UNESCAPED_UNICODE) &&
          ((flags & TPL_JSON_UNESCAPED_LINE_TERMINATORS) ||
           (cp != 0x2028 && cp != 0x2029))) {
        oc_sb_add(b, str + i, n);
      } else if (cp >= 0x10000) {
        uint32_t u = cp - 0x10000;
        tpl_json_u(b, 0xD800 | (u >> 10), tpl_hex_lower);
        tpl_json_u(b, 0xDC00 | (u & 0x3FF), tpl_hex_lower);
      } else {
        tpl_json_u(b, cp, tpl_hex_lower);
      }
      i += n;
      run = i;
      continue;
    }
    switch (c) {
    case '"':
      if (flags & TPL_JSON_HEX_QUOT)
        oc_sb_add(b, "\\u0022", 6);
      else
        oc_sb_add(b, "\\\"", 2);
      break;
    case '\\':
      oc_sb_add(b, "\\\\", 2);
      break;
    case '/':
      if (flags & TPL_JSON_UNESCAPED_SLASHES)
        oc_sb_addc(b, '/');
      else
        oc_sb_add(b, "\\/", 2);
      break;
    case '\b':
      oc_sb_add(b, "\\b", 2);
      break;
    case '\f':
      oc_sb_add(b, "\\f", 2);
      break;
    case '\n':
      oc_sb_add(b, "\\n", 2);
      break;
    case '\r':
      oc_sb_add(b, "\\r", 2);
      break;
    case '\t':
      oc_sb_add(b, "\\t", 2);
      break;
    case '<':
      if (flags & TPL_JSON_HEX_TAG)
        oc_sb_add(b, "\\u003C", 6);
      else
        oc_sb_addc(b, '<');
      break;
    case '>':
      if (flags & TPL_JSON_HEX_TAG)
        oc_sb_add(b, "\\u003E", 6);
      else
        oc_sb_addc(b, '>');
      break;
    case '&':
      if (flags & TPL_JSON_HEX_AMP)
        oc_sb_add(b, "\\u0026", 6);
      else
        oc_sb_addc(b, '&');
      break;
    case '\'':
      if (flags & TPL_JSON_HEX_APOS)
        oc_sb_add(b, "\\u0027", 6);
      else
        oc_sb_addc(b, '\'');
      break;
    default:
      tpl_json_u(b, c, tpl_hex_lower);
    }
    i++;
    run = i;
  }
  oc_sb_add(b, str + run, i - run);
  oc_sb_addc(b, '"');
}

static void tpl_json_indent(tpl_json *j) {
  if (!(j->flags & TPL_JSON_PRETTY_PRINT))
    return;
  oc_sb_addc(j->b, '\n');
  for (int64_t i = 0; i < j->depth; i++)
    oc_sb_add(j->b, "    ", 4);
}

static void tpl_json_value(tpl_json *j, tpl_value v);

static void tpl_json_array(tpl_json *j, const tpl_arr *a, bool as_object) {
  if (!as_object)
    as_object = (j->flags & TPL_JSON_FORCE_OBJECT) || !tpl_arr_is_list(a);
  if (j->depth >= j->max_depth) {
    j->error = TPL_JSON_ERR_DEPTH;
    oc_sb_add(j->b, "null", 4);
    return;
  }
  if (a->n == 0) {
    oc_sb_add(j->b, as_object ? "{}" : "[]", 2);
    return;
  }
  oc_sb_addc(j->b, as_object ? '{' : '[');
  j->depth++;
  for (size_t i = 0; i < a->n; i++) {
    if (i)
      oc_sb_addc(j->b, ',');
    tpl_json_indent(j);
    if (as_object) {
      tpl_value k = tpl_arr_key(a, i);
      if (k.type == TPL_INT) {
        char buf[24];
        size_t n = oc_format_int(k.u.i, buf);
        oc_sb_addc(j->b, '"');
        oc_sb_add(j->b, buf, n);
        oc_sb_addc(j->b, '"');
      } else {
        tpl_json_string(j, k.u.s, k.len, j->flags & ~TPL_JSON_NUMERIC_CHECK);
      }
      if (j->flags & TPL_JSON_PRETTY_PRINT)
        oc_sb_add(j->b, ": ", 2);
      else
        oc_sb_addc(j->b, ':');
    }
    tpl_json_value(j, tpl_arr_val(a, i));
  }
  j->depth--;
  tpl_json_indent(j);
  oc_sb_addc(j->b, as_object ? '}' : ']');
}

static void tpl_json_value(tpl_json *j, tpl_value v) {
  switch (v.type) {
  case TPL_NULL:
    oc_sb_add(j->b, "null", 4);
    return;
  case TPL_BOOL:
    if (v.u.b)
      oc_sb_add(j->b, "true", 4);
    else
      oc_sb_add(j->b, "false", 5);
    return;
  case TPL_INT:
    oc_sb_add_int(j->b, v.u.i);
    return;
  case TPL_FLOAT:
    tpl_json_double(j, v.u.f);
    return;
  case TPL_STR:
    tpl_json_string(j, v.u.s, v.len, j->flags);
    return;
  case TPL_LIST:
  case TPL_MAP: {
    tpl_arr a;
    tpl_arr_of(j->rt, v, &a);
    tpl_json_array(j, &a, false);
    return;
  }
  case TPL_OBJ: {
    /* PHP encodes an object's properties as a JSON object, always. */
    tpl_arr a;
    if (v.u.obj->cls == &tpl_date_class) {
      tpl_arr_of(j->rt, tpl_date_json_map(j->rt, v.u.obj->data), &a);
      tpl_json_array(j, &a, true);
      return;
    }
    if (tpl_arr_of(j->rt, v, &a)) {
      tpl_json_array(j, &a, true);
      return;
    }
    if (v.u.obj->cls->to_string && v.u.obj->cls != &tpl_date_class) {
      tpl_value s = tpl_to_str(j->rt, v);
      if (s.safe) {
        /* Twig's Markup is JsonSerializable: it encodes as its text. */
        tpl_json_string(j, s.u.s, s.len, j->flags);
        return;
      }
    }
    oc_sb_add(j->b, "{}", 2);
    return;
  }
  default:
    oc_sb_add(j->b, "{}", 2);
  }
}

tpl_value tpl_json_encode(tpl_rt *rt, tpl_value v, int64_t flags, int64_t depth,
                          const tpl_loc *loc) {
  oc_sb b;
  oc_sb_init(&b, rt->arena, 64);
  tpl_json j = {rt, &b, flags, depth <= 0 ? 0 : depth, 0, TPL_JSON_OK};
  if (depth <= 0 && (v.type == TPL_LIST || v.type == TPL_MAP))
    j.error = TPL_JSON_ERR_DEPTH;
  else
    tpl_json_value(&j, v);
  if (j.error && !(flags & TPL_JSON_PARTIAL_OUTPUT_ON_ERROR)) {
    if (flags & TPL_JSON_THROW_ON_ERROR) {
      const char *msg =
          j.error == TPL_JSON_ERR_DEPTH ? "Maximum stack depth exceeded"
          : j.error == TPL_JSON_ERR_UTF8
              ? "Malformed UTF-8 characters, possibly incorrectly "
                "encoded"
              : "Inf and NaN cannot be JSON encoded";
      tpl_fail(rt, loc, "%s", msg);
    }
    return tpl_bool(false);
  }
  return tpl_sb_value(&b);
}
