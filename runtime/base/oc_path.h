/* The one rule for every name that becomes a path (oc_path.c), and the one
 * way a book's text is shown on a terminal.
 *
 * A book is untrusted: an edition name, a heading's id, an image, font or
 * style name, a zip entry all end up in a path Octavo writes. A safe name
 * is one plain file name: 1 to OC_NAME_MAX bytes of valid UTF-8, no '/',
 * no '\\', no NUL, no control character (C0, DEL, C1), not "." or "..",
 * no leading '.' (no hidden files, no "..x"). A safe relative path is one
 * or more safe names joined by single '/'s. Callers report the problem at
 * the place the name was written, or slug a name that came from the text.
 */
#ifndef OCTAVO_OC_PATH_H
#define OCTAVO_OC_PATH_H

#include <stdbool.h>
#include <stddef.h>

#include "oc_sb.h"

enum { OC_NAME_MAX = 200 };

/* NULL when s[0..len) is a safe file name, else why not ("is empty",
 * "holds a '/'", "starts with '.'", "holds a control character", ...), a
 * static string to put after the name in a message. */
const char *oc_name_problem(const char *s, size_t len);
static inline bool oc_safe_name(const char *s, size_t len) {
  return oc_name_problem(s, len) == NULL;
}

/* The same for a relative path: NULL when every '/'-separated component
 * is a safe name (no leading '/', no empty component), else why not. The
 * bound is PATH_MAX-like: OC_PATH_MAX bytes in all. */
enum { OC_PATH_MAX = 1024 };
const char *oc_relpath_problem(const char *s, size_t len);
static inline bool oc_safe_relpath(const char *s, size_t len) {
  return oc_relpath_problem(s, len) == NULL;
}

/* Normalises a relative path in place: empty and "." components dropped,
 * "x/.." pairs removed. Returns false (path unspecified) when a ".."
 * climbs above the start or the path is absolute; "" stays "". */
bool oc_path_normalize(char *path);

/* Appends s[0..len) for a terminal: control characters (C0, DEL, C1) and
 * the bytes of invalid UTF-8 as \xNN, the bidirectional controls that
 * reorder text (U+202A-U+202E, U+2066-U+2069) as \uNNNN; the rest as is. */
void oc_sb_add_printable(oc_sb *b, const char *s, size_t len);

#endif
