/* Safe names and paths, and text made printable (oc_path.h). */
#include "oc_path.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The code point at s[0..n) (n >= 1) and its length in *len; -1 with
 * *len 1 for a byte that does not start valid UTF-8 (overlong forms,
 * surrogates and values above U+10FFFF included). */
static int32_t utf8_next(const unsigned char *s, size_t n, size_t *len) {
  unsigned char c = s[0];
  *len = 1;
  if (c < 0x80)
    return c;
  size_t k;
  int32_t cp, min;
  if (c >= 0xC2 && c <= 0xDF)
    k = 2, cp = c & 0x1F, min = 0x80;
  else if (c >= 0xE0 && c <= 0xEF)
    k = 3, cp = c & 0x0F, min = 0x800;
  else if (c >= 0xF0 && c <= 0xF4)
    k = 4, cp = c & 0x07, min = 0x10000;
  else
    return -1;
  if (n < k)
    return -1;
  for (size_t i = 1; i < k; i++) {
    if ((s[i] & 0xC0) != 0x80)
      return -1;
    cp = cp << 6 | (s[i] & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    return -1;
  *len = k;
  return cp;
}

static bool is_control(int32_t cp) {
  return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F);
}

static bool is_bidi_control(int32_t cp) {
  return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

const char *oc_name_problem(const char *s, size_t len) {
  if (len == 0)
    return "is empty";
  if (len > OC_NAME_MAX)
    return "is longer than 200 bytes";
  const unsigned char *u = (const unsigned char *)s;
  for (size_t i = 0; i < len;) {
    size_t k;
    int32_t cp = utf8_next(u + i, len - i, &k);
    if (cp == 0)
      return "holds a NUL byte";
    if (cp < 0)
      return "is not valid UTF-8";
    if (cp == '/' || cp == '\\')
      return cp == '/' ? "holds a '/'" : "holds a '\\'";
    if (is_control(cp) || is_bidi_control(cp))
      return "holds a control character";
    i += k;
  }
  if (s[0] == '.')
    return len <= 2 && (len == 1 || s[1] == '.')
               ? "is not a file name"
               : "starts with '.' (a hidden file)";
  return NULL;
}

const char *oc_relpath_problem(const char *s, size_t len) {
  if (len == 0)
    return "is empty";
  if (len > OC_PATH_MAX)
    return "is longer than 1024 bytes";
  if (s[0] == '/')
    return "is an absolute path";
  for (size_t i = 0; i <= len;) {
    const char *slash = memchr(s + i, '/', len - i);
    size_t n = slash ? (size_t)(slash - (s + i)) : len - i;
    if (n == 0)
      return "holds an empty component ('//' or a trailing '/')";
    const char *why = oc_name_problem(s + i, n);
    if (why)
      return n == 2 && s[i] == '.' && s[i + 1] == '.' ? "holds '..'"
             : n == 1 && s[i] == '.'                  ? "holds '.'"
                                                      : why;
    i += n + 1;
    if (!slash)
      break;
  }
  return NULL;
}

bool oc_path_normalize(char *path) {
  if (path[0] == '/')
    return false;
  char *out = path;
  const char *p = path;
  while (*p) {
    const char *q = strchr(p, '/');
    size_t n = q ? (size_t)(q - p) : strlen(p);
    if (n == 2 && p[0] == '.' && p[1] == '.') {
      if (out == path)
        return false;
      /* Drop the last component written (and its '/'). */
      out--;
      while (out > path && out[-1] != '/')
        out--;
      if (out > path)
        out--;
    } else if (n && !(n == 1 && p[0] == '.')) {
      if (out > path)
        *out++ = '/';
      memmove(out, p, n);
      out += n;
    }
    p += n + (q != NULL);
  }
  *out = 0;
  return true;
}

void oc_sb_add_printable(oc_sb *b, const char *s, size_t len) {
  const unsigned char *u = (const unsigned char *)s;
  char esc[12];
  for (size_t i = 0; i < len;) {
    size_t k;
    int32_t cp = utf8_next(u + i, len - i, &k);
    if (cp < 0 || is_control(cp)) {
      /* A C1 control is two bytes of valid UTF-8: both escaped. */
      for (size_t j = 0; j < k; j++) {
        snprintf(esc, sizeof esc, "\\x%02x", u[i + j]);
        oc_sb_add(b, esc, 4);
      }
    } else if (is_bidi_control(cp)) {
      snprintf(esc, sizeof esc, "\\u%04x", (unsigned)cp);
      oc_sb_add(b, esc, 6);
    } else {
      oc_sb_add(b, s + i, k);
    }
    i += k;
  }
}
