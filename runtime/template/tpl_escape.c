/* Escaping strategies exactly as Twig's escape filter applies them (html as
 * htmlspecialchars with ENT_QUOTES | ENT_SUBSTITUTE, js, css, url as
 * rawurlencode, html_attr), writing straight into the render's output. */
#include "tpl_lib.h"

/* ---- strategy names ------------------------------------------------- */

tpl_escape tpl_escape_for_name(const char *name) {
  size_t n = strlen(name);
  if (n && (name[n - 1] == '/' || name[n - 1] == '\\'))
    return TPL_ESC_HTML;
  if (n >= 5 && memcmp(name + n - 5, ".twig", 5) == 0)
    n -= 5;
  /* The extension is what follows the last dot of the last path part. */
  size_t base = 0;
  for (size_t i = 0; i < n; i++)
    if (name[i] == '/')
      base = i + 1;
  size_t dot = n;
  for (size_t i = base; i < n; i++)
    if (name[i] == '.')
      dot = i;
  if (dot == n)
    return TPL_ESC_HTML;
  const char *ext = name + dot + 1;
  size_t el = n - dot - 1;
  if (el == 2 && memcmp(ext, "js", 2) == 0)
    return TPL_ESC_JS;
  if (el == 3 && memcmp(ext, "css", 3) == 0)
    return TPL_ESC_CSS;
  if (el == 3 && memcmp(ext, "txt", 3) == 0)
    return TPL_ESC_NONE;
  return TPL_ESC_HTML;
}

bool tpl_escape_by_name(const char *s, size_t len, tpl_escape *out) {
  static const struct {
    const char *name;
    tpl_escape e;
  } names[] = {{"html", TPL_ESC_HTML},
               {"js", TPL_ESC_JS},
               {"css", TPL_ESC_CSS},
               {"url", TPL_ESC_URL},
               {"html_attr", TPL_ESC_HTML_ATTR},
               {"sh", TPL_ESC_SH}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strlen(names[i].name) == len && memcmp(names[i].name, s, len) == 0) {
      *out = names[i].e;
      return true;
    }
  return false;
}

/* ---- output sinks --------------------------------------------------- */

/* The escapers write to either the render output or an arena builder;
 * both are a buffer, a length and a capacity, grown only when full. */
typedef struct tpl_sink {
  char *p;
  size_t len, cap;
  tpl_rt *rt;
  oc_sb *sb;
} tpl_sink;

static void tpl_sink_grow(tpl_sink *k, size_t n) {
  if (k->sb) {
    k->sb->len = k->len;
    oc_sb_reserve(k->sb, n);
    k->p = k->sb->p;
    k->cap = k->sb->cap;
  } else {
    k->rt->out_len = k->len;
    tpl_out_grow(k->rt, n);
    k->p = k->rt->out;
    k->cap = k->rt->out_cap;
  }
}

static inline void tpl_sink_put(tpl_sink *k, const char *s, size_t n) {
  if (k->cap - k->len < n)
    tpl_sink_grow(k, n);
  memcpy(k->p + k->len, s, n);
  k->len += n;
}

static inline char *tpl_sink_room(tpl_sink *k, size_t n) {
  if (k->cap - k->len < n)
    tpl_sink_grow(k, n);
  return k->p + k->len;
}

static void tpl_sink_open_rt(tpl_sink *k, tpl_rt *rt) {
  k->rt = rt;
  k->sb = NULL;
  k->p = rt->out;
  k->len = rt->out_len;
  k->cap = rt->out_cap;
}

static void tpl_sink_open_sb(tpl_sink *k, oc_sb *b) {
  k->rt = NULL;
  k->sb = b;
  k->p = b->p;
  k->len = b->len;
  k->cap = b->cap;
}

static void tpl_sink_close(tpl_sink *k) {
  if (k->sb)
    k->sb->len = k->len;
  else
    k->rt->out_len = k->len;
}

/* ---- html ----------------------------------------------------------- */

/* 0: copy, 1: entity, 2: start of a multi-byte sequence to check. */
static const unsigned char tpl_html_class[256] = {
    ['&'] = 1,  ['<'] = 1,  ['>'] = 1,  ['"'] = 1,  ['\''] = 1, [0x80] = 2,
    [0x81] = 2, [0x82] = 2, [0x83] = 2, [0x84] = 2, [0x85] = 2, [0x86] = 2,
    [0x87] = 2, [0x88] = 2, [0x89] = 2, [0x8A] = 2, [0x8B] = 2, [0x8C] = 2,
    [0x8D] = 2, [0x8E] = 2, [0x8F] = 2, [0x90] = 2, [0x91] = 2, [0x92] = 2,
    [0x93] = 2, [0x94] = 2, [0x95] = 2, [0x96] = 2, [0x97] = 2, [0x98] = 2,
    [0x99] = 2, [0x9A] = 2, [0x9B] = 2, [0x9C] = 2, [0x9D] = 2, [0x9E] = 2,
    [0x9F] = 2, [0xA0] = 2, [0xA1] = 2, [0xA2] = 2, [0xA3] = 2, [0xA4] = 2,
    [0xA5] = 2, [0xA6] = 2, [0xA7] = 2, [0xA8] = 2, [0xA9] = 2, [0xAA] = 2,
    [0xAB] = 2, [0xAC] = 2, [0xAD] = 2, [0xAE] = 2, [0xAF] = 2, [0xB0] = 2,
    [0xB1] = 2, [0xB2] = 2, [0xB3] = 2, [0xB4] = 2, [0xB5] = 2, [0xB6] = 2,
    [0xB7] = 2, [0xB8] = 2, [0xB9] = 2, [0xBA] = 2, [0xBB] = 2, [0xBC] = 2,
    [0xBD] = 2, [0xBE] = 2, [0xBF] = 2, [0xC0] = 2, [0xC1] = 2, [0xC2] = 2,
    [0xC3] = 2, [0xC4] = 2, [0xC5] = 2, [0xC6] = 2, [0xC7] = 2, [0xC8] = 2,
    [0xC9] = 2, [0xCA] = 2, [0xCB] = 2, [0xCC] = 2, [0xCD] = 2, [0xCE] = 2,
    [0xCF] = 2, [0xD0] = 2, [0xD1] = 2, [0xD2] = 2, [0xD3] = 2, [0xD4] = 2,
    [0xD5] = 2, [0xD6] = 2, [0xD7] = 2, [0xD8] = 2, [0xD9] = 2, [0xDA] = 2,
    [0xDB] = 2, [0xDC] = 2, [0xDD] = 2, [0xDE] = 2, [0xDF] = 2, [0xE0] = 2,
    [0xE1] = 2, [0xE2] = 2, [0xE3] = 2, [0xE4] = 2, [0xE5] = 2, [0xE6] = 2,
    [0xE7] = 2, [0xE8] = 2, [0xE9] = 2, [0xEA] = 2, [0xEB] = 2, [0xEC] = 2,
    [0xED] = 2, [0xEE] = 2, [0xEF] = 2, [0xF0] = 2, [0xF1] = 2, [0xF2] = 2,
    [0xF3] = 2, [0xF4] = 2, [0xF5] = 2, [0xF6] = 2, [0xF7] = 2, [0xF8] = 2,
    [0xF9] = 2, [0xFA] = 2, [0xFB] = 2, [0xFC] = 2, [0xFD] = 2, [0xFE] = 2,
    [0xFF] = 2};

/* Skips bytes that need no html escaping, eight at a time: a word is clean
 * when no byte has the high bit set or equals one of & < > " '. */
#define TPL_ONES 0x0101010101010101ull
#define TPL_HIGHS 0x8080808080808080ull

static inline uint64_t tpl_has_byte(uint64_t w, unsigned char c) {
  uint64_t x = w ^ (TPL_ONES * c);
  return (x - TPL_ONES) & ~x & TPL_HIGHS;
}

static inline bool tpl_html_word_clean(uint64_t w) {
  return !((w & TPL_HIGHS) | tpl_has_byte(w, '&') | tpl_has_byte(w, '<') |
           tpl_has_byte(w, '>') | tpl_has_byte(w, '"') | tpl_has_byte(w, '\''));
}

static inline size_t tpl_html_scan(const unsigned char *s, size_t i,
                                   size_t len) {
  while (len - i >= 8) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    if (!tpl_html_word_clean(w))
      goto bytes;
    i += 8;
  }
bytes:
  while (i < len && !tpl_html_class[s[i]])
    i++;
  return i;
}

static inline bool tpl_u8_trail(unsigned char c) {
  return c >= 0x80 && c <= 0xBF;
}
static inline bool tpl_u8_lead(unsigned char c) {
  return c < 0x80 || (c >= 0xC2 && c <= 0xF4);
}

/* One step of htmlspecialchars' UTF-8 reader: the bytes a valid character
 * spans (>0), or minus the bytes one U+FFFD replaces. */
static long tpl_html_u8(const unsigned char *s, size_t avail) {
  unsigned c = s[0];
  if (c < 0xC2)
    return -1;
  if (c < 0xE0) {
    if (avail < 2)
      return -1;
    if (!tpl_u8_trail(s[1]))
      return tpl_u8_lead(s[1]) ? -1 : -2;
    return 2;
  }
  if (c < 0xF0) {
    if (avail < 3 || !tpl_u8_trail(s[1]) || !tpl_u8_trail(s[2])) {
      if (avail < 2 || tpl_u8_lead(s[1]))
        return -1;
      if (avail < 3 || tpl_u8_lead(s[2]))
        return -2;
      return -3;
    }
    uint32_t u = ((c & 0x0Fu) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu);
    if (u < 0x800 || (u >= 0xD800 && u <= 0xDFFF))
      return -3;
    return 3;
  }
  if (c < 0xF5) {
    if (avail < 4 || !tpl_u8_trail(s[1]) || !tpl_u8_trail(s[2]) ||
        !tpl_u8_trail(s[3])) {
      if (avail < 2 || tpl_u8_lead(s[1]))
        return -1;
      if (avail < 3 || tpl_u8_lead(s[2]))
        return -2;
      if (avail < 4 || tpl_u8_lead(s[3]))
        return -3;
      return -4;
    }
    uint32_t u = ((c & 0x07u) << 18) | ((s[1] & 0x3Fu) << 12) |
                 ((s[2] & 0x3Fu) << 6) | (s[3] & 0x3Fu);
    if (u < 0x10000 || u > 0x10FFFF)
      return -4;
    return 4;
  }
  return -1;
}

/* Bytes before `from` are known to need no escaping. */
static void tpl_esc_html(tpl_sink *k, const char *str, size_t len,
                         size_t from) {
  const unsigned char *s = (const unsigned char *)str;
  size_t i = from, run = 0;
  while (i < len) {
    unsigned char cls = tpl_html_class[s[i]];
    if (!cls) {
      i = tpl_html_scan(s, i + 1, len);
      continue;
    }
    long step = 0;
    if (cls == 2) {
      step = tpl_html_u8(s + i, len - i);
      if (step > 0) {
        i += (size_t)step;
        continue;
      }
    }
    if (i > run)
      tpl_sink_put(k, str + run, i - run);
    if (cls == 1) {
      switch (s[i]) {
      case '&':
        tpl_sink_put(k, "&amp;", 5);
        break;
      case '<':
        tpl_sink_put(k, "&lt;", 4);
        break;
      case '>':
        tpl_sink_put(k, "&gt;", 4);
        break;
      case '"':
        tpl_sink_put(k, "&quot;", 6);
        break;
      default:
        tpl_sink_put(k, "&#039;", 6);
        break;
      }
      i++;
    } else {
      tpl_sink_put(k, "\xEF\xBF\xBD", 3);
      i += (size_t)-step;
    }
    run = i;
  }
  if (i > run)
    tpl_sink_put(k, str + run, i - run);
}

/* ---- js, css, html_attr, url ---------------------------------------- */

static const char tpl_hex_upper[] = "0123456789ABCDEF";

static inline bool tpl_is_alnum(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9');
}

static void tpl_put_u16(tpl_sink *k, uint32_t u) {
  char *p = tpl_sink_room(k, 6);
  p[0] = '\\';
  p[1] = 'u';
  p[2] = tpl_hex_upper[(u >> 12) & 15];
  p[3] = tpl_hex_upper[(u >> 8) & 15];
  p[4] = tpl_hex_upper[(u >> 4) & 15];
  p[5] = tpl_hex_upper[u & 15];
  k->len += 6;
}

static void tpl_need_utf8(tpl_rt *rt, const char *s, size_t len,
                          const tpl_loc *loc) {
  if (!tpl_utf8_valid(s, len))
    tpl_fail(rt, loc ? loc : rt->loc,
             "The string to escape is not a valid UTF-8 string.");
}

static void tpl_esc_js(tpl_sink *k, const char *str, size_t len) {
  const unsigned char *s = (const unsigned char *)str;
  size_t i = 0, run = 0;
  while (i < len) {
    unsigned char c = s[i];
    if (tpl_is_alnum(c) || c == ',' || c == '.' || c == '_') {
      i++;
      continue;
    }
    if (i > run)
      tpl_sink_put(k, str + run, i - run);
    uint32_t cp = c;
    size_t n = 1;
    if (c >= 0x80)
      n = tpl_utf8_decode(s + i, len - i, &cp);
    switch (cp) {
    case '\\':
      tpl_sink_put(k, "\\\\", 2);
      break;
    case '/':
      tpl_sink_put(k, "\\/", 2);
      break;
    case '\b':
      tpl_sink_put(k, "\\b", 2);
      break;
    case '\f':
      tpl_sink_put(k, "\\f", 2);
      break;
    case '\n':
      tpl_sink_put(k, "\\n", 2);
      break;
    case '\r':
      tpl_sink_put(k, "\\r", 2);
      break;
    case '\t':
      tpl_sink_put(k, "\\t", 2);
      break;
    default:
      if (cp < 0x10000) {
        tpl_put_u16(k, cp);
      } else {
        uint32_t u = cp - 0x10000;
        tpl_put_u16(k, 0xD800 | (u >> 10));
        tpl_put_u16(k, 0xDC00 | (u & 0x3FF));
      }
    }
    i += n ? n : 1;
    run = i;
  }
  if (i > run)
    tpl_sink_put(k, str + run, i - run);
}

static void tpl_put_hex(tpl_sink *k, uint32_t v, int min_digits) {
  char tmp[8];
  int n = 0;
  do {
    tmp[n++] = tpl_hex_upper[v & 15];
    v >>= 4;
  } while (v || n < min_digits);
  char *p = tpl_sink_room(k, (size_t)n);
  for (int i = 0; i < n; i++)
    p[i] = tmp[n - 1 - i];
  k->len += (size_t)n;
}

static void tpl_esc_css(tpl_sink *k, const char *str, size_t len) {
  const unsigned char *s = (const unsigned char *)str;
  size_t i = 0, run = 0;
  while (i < len) {
    if (tpl_is_alnum(s[i])) {
      i++;
      continue;
    }
    if (i > run)
      tpl_sink_put(k, str + run, i - run);
    uint32_t cp = s[i];
    size_t n = 1;
    if (cp >= 0x80)
      n = tpl_utf8_decode(s + i, len - i, &cp);
    tpl_sink_put(k, "\\", 1);
    tpl_put_hex(k, cp, 1);
    tpl_sink_put(k, " ", 1);
    i += n ? n : 1;
    run = i;
  }
  if (i > run)
    tpl_sink_put(k, str + run, i - run);
}

static void tpl_esc_html_attr(tpl_sink *k, const char *str, size_t len) {
  const unsigned char *s = (const unsigned char *)str;
  size_t i = 0, run = 0;
  while (i < len) {
    unsigned char c = s[i];
    if (tpl_is_alnum(c) || c == ',' || c == '.' || c == '-' || c == '_') {
      i++;
      continue;
    }
    if (i > run)
      tpl_sink_put(k, str + run, i - run);
    if (c < 0x80) {
      if ((c <= 0x1F && c != '\t' && c != '\n' && c != '\r') || c == 0x7F) {
        tpl_sink_put(k, "&#xFFFD;", 8);
      } else if (c == '"') {
        tpl_sink_put(k, "&quot;", 6);
      } else if (c == '&') {
        tpl_sink_put(k, "&amp;", 5);
      } else if (c == '<') {
        tpl_sink_put(k, "&lt;", 4);
      } else if (c == '>') {
        tpl_sink_put(k, "&gt;", 4);
      } else {
        tpl_sink_put(k, "&#x", 3);
        tpl_put_hex(k, c, 2);
        tpl_sink_put(k, ";", 1);
      }
      i++;
    } else {
      uint32_t cp;
      size_t n = tpl_utf8_decode(s + i, len - i, &cp);
      tpl_sink_put(k, "&#x", 3);
      tpl_put_hex(k, cp, 4);
      tpl_sink_put(k, ";", 1);
      i += n ? n : 1;
    }
    run = i;
  }
  if (i > run)
    tpl_sink_put(k, str + run, i - run);
}

static void tpl_esc_url(tpl_sink *k, const char *str, size_t len) {
  const unsigned char *s = (const unsigned char *)str;
  size_t i = 0, run = 0;
  while (i < len) {
    unsigned char c = s[i];
    if (tpl_is_alnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      i++;
      continue;
    }
    if (i > run)
      tpl_sink_put(k, str + run, i - run);
    char *p = tpl_sink_room(k, 3);
    p[0] = '%';
    p[1] = tpl_hex_upper[c >> 4];
    p[2] = tpl_hex_upper[c & 15];
    k->len += 3;
    run = ++i;
  }
  if (i > run)
    tpl_sink_put(k, str + run, i - run);
}

/* One POSIX shell word: inside single quotes nothing is special but the
 * quote itself, which is closed, escaped and reopened ('\''). */
static void tpl_esc_sh(tpl_rt *rt, tpl_sink *k, const char *s, size_t len,
                       const tpl_loc *loc) {
  if (memchr(s, 0, len))
    tpl_fail(rt, loc, "a NUL byte cannot be passed to the shell");
  tpl_sink_put(k, "'", 1);
  size_t run = 0;
  for (size_t i = 0; i < len; i++)
    if (s[i] == '\'') {
      tpl_sink_put(k, s + run, i - run);
      tpl_sink_put(k, "'\\''", 4);
      run = i + 1;
    }
  tpl_sink_put(k, s + run, len - run);
  tpl_sink_put(k, "'", 1);
}

static void tpl_escape_sink(tpl_rt *rt, tpl_sink *k, const char *s, size_t len,
                            tpl_escape strat, const tpl_loc *loc) {
  switch (strat) {
  case TPL_ESC_HTML:
    tpl_esc_html(k, s, len, 0);
    break;
  case TPL_ESC_JS:
    tpl_need_utf8(rt, s, len, loc);
    tpl_esc_js(k, s, len);
    break;
  case TPL_ESC_CSS:
    tpl_need_utf8(rt, s, len, loc);
    tpl_esc_css(k, s, len);
    break;
  case TPL_ESC_HTML_ATTR:
    tpl_need_utf8(rt, s, len, loc);
    tpl_esc_html_attr(k, s, len);
    break;
  case TPL_ESC_URL:
    tpl_esc_url(k, s, len);
    break;
  case TPL_ESC_SH:
    tpl_esc_sh(rt, k, s, len, loc);
    break;
  default:
    tpl_sink_put(k, s, len);
  }
}

void tpl_escape_out(tpl_rt *rt, const char *s, size_t len, tpl_escape strat) {
  tpl_sink k;
  if (strat == TPL_ESC_HTML) {
    /* The common case: most text has no special byte at all. */
    size_t i = tpl_html_scan((const unsigned char *)s, 0, len);
    if (i == len) {
      tpl_out(rt, s, len);
      return;
    }
    tpl_sink_open_rt(&k, rt);
    tpl_esc_html(&k, s, len, i);
    tpl_sink_close(&k);
    return;
  }
  tpl_sink_open_rt(&k, rt);
  tpl_escape_sink(rt, &k, s, len, strat, rt->loc);
  tpl_sink_close(&k);
}

void tpl_escape_sb(tpl_rt *rt, oc_sb *b, const char *s, size_t len,
                   tpl_escape strat, const tpl_loc *loc) {
  tpl_sink k;
  tpl_sink_open_sb(&k, b);
  tpl_escape_sink(rt, &k, s, len, strat, loc);
  tpl_sink_close(&k);
}

tpl_value tpl_escape_value(tpl_rt *rt, tpl_value v, tpl_escape strat,
                           const tpl_loc *loc) {
  if (v.type == TPL_OBJ && v.u.obj->cls->to_string)
    v = tpl_to_str(rt, v);
  if (strat == TPL_ESC_SH && (v.type == TPL_NULL || v.type == TPL_BOOL))
    v = tpl_to_str(rt, v);
  if (v.type != TPL_STR || strat == TPL_ESC_NONE)
    return v;
  if (v.len == 0 && strat != TPL_ESC_SH)
    return tpl_str("", 0);
  oc_sb b;
  oc_sb_init(&b, rt->arena, (size_t)v.len + v.len / 8 + 16);
  tpl_escape_sb(rt, &b, v.u.s, v.len, strat, loc);
  return tpl_sb_value(&b);
}
