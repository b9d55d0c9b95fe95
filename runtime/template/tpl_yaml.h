/* The one YAML reader: libyaml's events of a text's first document walked
 * once, in order, into the caller's own nodes (config.yml's tree with
 * positions, a data file's template values), with anchors and aliases,
 * `<<` keys marked, a depth limit and the line and column of every node.
 * The caller types the scalars, builds its nodes and words its messages:
 * config.yml (book_config.c) and data files (tpl_data.c) say different
 * things about the same problem.
 *
 * Memory: the anchors' names go to the arena given; the nodes are the
 * caller's. Nothing else outlives tpl_yaml_read. */
#ifndef OCTAVO_TPL_YAML_H
#define OCTAVO_TPL_YAML_H

#include <stdbool.h>
#include <stddef.h>

#include "oc_arena.h"
#include "tpl_value.h"

/* Deeper nesting is refused (TPL_YAML_TOO_DEEP). */
#define TPL_YAML_MAX_DEPTH 1000
/* The tag of `!!str`, libyaml's YAML_STR_TAG. */
#define TPL_YAML_STR_TAG "tag:yaml.org,2002:str"

/* 1-based, as the user counts; offset is the byte in the text. */
typedef struct tpl_yaml_pos {
  unsigned line, col;
  size_t offset;
} tpl_yaml_pos;

/* A node as the caller builds it: a value, or its own node. */
typedef union tpl_yaml_node {
  tpl_value v;
  void *p;
} tpl_yaml_node;

/* A scalar as written; text is valid during the callback only. */
typedef struct tpl_yaml_scalar {
  const char *text;
  size_t len;
  const char *tag; /* NULL when none; "!" when non-specific */
  bool plain;      /* unquoted, so typed by the caller's schema */
  tpl_yaml_pos pos;
} tpl_yaml_scalar;

/* One key and its value, as a mapping is read. */
typedef struct tpl_yaml_pair {
  tpl_yaml_node key, val;
  tpl_yaml_pos key_pos;
  bool merge; /* the key is a plain `<<` */
  bool empty; /* the value is an empty plain scalar (`key:` alone) */
} tpl_yaml_pair;

typedef enum tpl_yaml_problem {
  TPL_YAML_SYNTAX,         /* libyaml stopped: what, context, encoding */
  TPL_YAML_NO_PARSER,      /* libyaml could not start; no position */
  TPL_YAML_TOO_DEEP,       /* nested deeper than TPL_YAML_MAX_DEPTH */
  TPL_YAML_UNKNOWN_ANCHOR, /* anchor: the alias's name */
  TPL_YAML_KEY_NOT_SCALAR, /* a sequence or mapping used as a key */
  TPL_YAML_UNEXPECTED      /* an event out of place */
} tpl_yaml_problem;

typedef struct tpl_yaml_error {
  tpl_yaml_problem problem;
  tpl_yaml_pos pos;
  const char *anchor;
  /* TPL_YAML_SYNTAX: libyaml's words (what is NULL when it gave none).
   * An encoding error has only pos.offset (line and col are 0). */
  const char *what, *context;
  tpl_yaml_pos context_pos;
  bool encoding;
} tpl_yaml_error;

/* What the caller does with each node. A callback that returns false has
 * reported why; the reading stops there. */
typedef struct tpl_yaml_builder {
  void *user;
  /* A scalar; key: it is a mapping's key. */
  bool (*scalar)(void *user, const tpl_yaml_scalar *s, bool key,
                 tpl_yaml_node *out);
  /* A sequence, once read: its n items in order. */
  bool (*sequence)(void *user, tpl_yaml_pos pos, const tpl_yaml_node *items,
                   size_t n, tpl_yaml_node *out);
  /* A mapping: begun, then each pair as it is read, then ended (map_end
   * may replace *map). */
  bool (*map_begin)(void *user, tpl_yaml_pos pos, tpl_yaml_node *map);
  bool (*map_pair)(void *user, tpl_yaml_node *map, const tpl_yaml_pair *pair);
  bool (*map_end)(void *user, tpl_yaml_node *map);
  /* Whether the node an alias gives may be a mapping's key. */
  bool (*is_key)(void *user, const tpl_yaml_node *n);
  /* A problem of the YAML itself (not one a callback found). */
  void (*error)(void *user, const tpl_yaml_error *e);
} tpl_yaml_builder;

/* Reads the first document of text through b. Returns 0 with *root set
 * (left as it was when the document is empty), or -1 after reporting. */
int tpl_yaml_read(oc_arena *a, const char *text, size_t len,
                  const tpl_yaml_builder *b, tpl_yaml_node *root);

/* The line and column of byte offset in text; columns count bytes, or
 * characters when utf8 (UTF-8 continuation bytes are not counted). */
tpl_yaml_pos tpl_yaml_offset_pos(const char *text, size_t len, size_t offset,
                                 bool utf8);

#endif
