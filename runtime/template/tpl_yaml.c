/* The YAML reader (tpl_yaml.h): one recursive walk over libyaml's events,
 * handing each node to the caller's builder. Sequences collect their items
 * on one stack shared by the whole read, so a sequence costs the caller one
 * allocation, not one per item. */
#include "tpl_yaml.h"

#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "oc_alloc.h"

typedef struct ty_anchor {
  struct ty_anchor *next;
  const char *name;
  tpl_yaml_node node;
} ty_anchor;

typedef struct ty {
  yaml_parser_t parser;
  oc_arena *a;
  const tpl_yaml_builder *b;
  ty_anchor *anchors;
  tpl_yaml_node *stack; /* the items of the sequences being read */
  size_t nstack, cstack;
} ty;

static tpl_yaml_pos ty_pos(const yaml_mark_t *m) {
  return (tpl_yaml_pos){(unsigned)m->line + 1, (unsigned)m->column + 1,
                        m->index};
}

static bool ty_fail(ty *t, tpl_yaml_problem problem, const yaml_mark_t *m,
                    const char *anchor) {
  tpl_yaml_error e = {.problem = problem, .pos = ty_pos(m), .anchor = anchor};
  t->b->error(t->b->user, &e);
  return false;
}

static bool ty_next(ty *t, yaml_event_t *ev) {
  if (yaml_parser_parse(&t->parser, ev))
    return true;
  yaml_parser_t *p = &t->parser;
  tpl_yaml_error e = {.problem = TPL_YAML_SYNTAX, .what = p->problem};
  if (p->error == YAML_READER_ERROR) {
    e.encoding = true;
    e.pos.offset = p->problem_offset;
  } else {
    e.pos = ty_pos(&p->problem_mark);
    e.context = p->context;
    e.context_pos = ty_pos(&p->context_mark);
  }
  t->b->error(t->b->user, &e);
  return false;
}

static void ty_anchor_add(ty *t, const yaml_char_t *anchor,
                          const tpl_yaml_node *node) {
  if (!anchor)
    return;
  ty_anchor *an = oc_arena_alloc(t->a, sizeof *an);
  const char *s = (const char *)anchor;
  an->name = oc_arena_strndup(t->a, s, strlen(s));
  an->node = *node;
  an->next = t->anchors;
  t->anchors = an;
}

static bool ty_scalar(ty *t, const yaml_event_t *ev, bool key,
                      tpl_yaml_node *out) {
  tpl_yaml_scalar s = {(const char *)ev->data.scalar.value,
                       ev->data.scalar.length,
                       (const char *)ev->data.scalar.tag,
                       ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE,
                       ty_pos(&ev->start_mark)};
  if (!t->b->scalar(t->b->user, &s, key, out))
    return false;
  ty_anchor_add(t, ev->data.scalar.anchor, out);
  return true;
}

static bool ty_node(ty *t, yaml_event_t *ev, int depth, tpl_yaml_node *out);

static bool ty_sequence(ty *t, yaml_event_t *start, int depth,
                        tpl_yaml_node *out) {
  size_t base = t->nstack;
  for (;;) {
    yaml_event_t ev;
    if (!ty_next(t, &ev))
      return false;
    if (ev.type == YAML_SEQUENCE_END_EVENT) {
      yaml_event_delete(&ev);
      break;
    }
    tpl_yaml_node item;
    bool ok = ty_node(t, &ev, depth + 1, &item);
    yaml_event_delete(&ev);
    if (!ok)
      return false;
    OC_GROW(t->stack, t->cstack, t->nstack + 1);
    t->stack[t->nstack++] = item;
  }
  /* an empty sequence may come before the stack has any room */
  bool ok = t->b->sequence(t->b->user, ty_pos(&start->start_mark),
                           t->nstack > base ? t->stack + base : NULL,
                           t->nstack - base, out);
  t->nstack = base;
  if (ok)
    ty_anchor_add(t, start->data.sequence_start.anchor, out);
  return ok;
}

/* A mapping's key: a scalar, or an alias of a node the caller takes as a
 * key. */
static bool ty_key(ty *t, yaml_event_t *kev, int depth, tpl_yaml_pair *pair) {
  pair->key_pos = ty_pos(&kev->start_mark);
  if (kev->type == YAML_SCALAR_EVENT) {
    pair->merge = kev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
                  kev->data.scalar.length == 2 &&
                  memcmp(kev->data.scalar.value, "<<", 2) == 0;
    return ty_scalar(t, kev, true, &pair->key);
  }
  if (kev->type == YAML_ALIAS_EVENT) {
    if (!ty_node(t, kev, depth + 1, &pair->key))
      return false;
    if (t->b->is_key(t->b->user, &pair->key))
      return true;
  }
  return ty_fail(t, TPL_YAML_KEY_NOT_SCALAR, &kev->start_mark, NULL);
}

static bool ty_mapping(ty *t, yaml_event_t *start, int depth,
                       tpl_yaml_node *out) {
  const tpl_yaml_builder *b = t->b;
  if (!b->map_begin(b->user, ty_pos(&start->start_mark), out))
    return false;
  for (;;) {
    yaml_event_t kev, vev;
    if (!ty_next(t, &kev))
      return false;
    if (kev.type == YAML_MAPPING_END_EVENT) {
      yaml_event_delete(&kev);
      break;
    }
    tpl_yaml_pair pair = {0};
    bool ok = ty_key(t, &kev, depth, &pair);
    yaml_event_delete(&kev);
    if (!ok || !ty_next(t, &vev))
      return false;
    ok = ty_node(t, &vev, depth + 1, &pair.val);
    pair.empty = vev.type == YAML_SCALAR_EVENT && !vev.data.scalar.length &&
                 vev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    yaml_event_delete(&vev);
    if (!ok || !b->map_pair(b->user, out, &pair))
      return false;
  }
  if (!b->map_end(b->user, out))
    return false;
  ty_anchor_add(t, start->data.mapping_start.anchor, out);
  return true;
}

static bool ty_node(ty *t, yaml_event_t *ev, int depth, tpl_yaml_node *out) {
  if (depth > TPL_YAML_MAX_DEPTH)
    return ty_fail(t, TPL_YAML_TOO_DEEP, &ev->start_mark, NULL);
  switch (ev->type) {
  case YAML_SCALAR_EVENT:
    return ty_scalar(t, ev, false, out);
  case YAML_SEQUENCE_START_EVENT:
    return ty_sequence(t, ev, depth, out);
  case YAML_MAPPING_START_EVENT:
    return ty_mapping(t, ev, depth, out);
  case YAML_ALIAS_EVENT: {
    const char *name = (const char *)ev->data.alias.anchor;
    for (ty_anchor *an = t->anchors; an; an = an->next)
      if (strcmp(an->name, name) == 0) {
        *out = an->node;
        return true;
      }
    return ty_fail(t, TPL_YAML_UNKNOWN_ANCHOR, &ev->start_mark, name);
  }
  default:
    return ty_fail(t, TPL_YAML_UNEXPECTED, &ev->start_mark, NULL);
  }
}

int tpl_yaml_read(oc_arena *a, const char *text, size_t len,
                  const tpl_yaml_builder *b, tpl_yaml_node *root) {
  ty t;
  memset(&t, 0, sizeof t);
  t.a = a;
  t.b = b;
  if (!yaml_parser_initialize(&t.parser)) {
    tpl_yaml_error e = {.problem = TPL_YAML_NO_PARSER};
    b->error(b->user, &e);
    return -1;
  }
  yaml_parser_set_input_string(&t.parser, (const unsigned char *)text, len);
  bool ok = true, done = false;
  while (ok && !done) {
    yaml_event_t ev;
    if (!ty_next(&t, &ev)) {
      ok = false;
      break;
    }
    switch (ev.type) {
    case YAML_STREAM_START_EVENT:
    case YAML_DOCUMENT_START_EVENT:
      break;
    case YAML_STREAM_END_EVENT:
    case YAML_DOCUMENT_END_EVENT: /* only the first document counts */
      done = true;
      break;
    default:
      ok = ty_node(&t, &ev, 0, root);
    }
    yaml_event_delete(&ev);
  }
  yaml_parser_delete(&t.parser);
  free(t.stack);
  return ok ? 0 : -1;
}

tpl_yaml_pos tpl_yaml_offset_pos(const char *text, size_t len, size_t offset,
                                 bool utf8) {
  tpl_yaml_pos p = {1, 1, offset};
  for (size_t i = 0; i < offset && i < len; i++) {
    if (text[i] == '\n') {
      p.line++;
      p.col = 1;
    } else if (!utf8 || ((unsigned char)text[i] & 0xC0) != 0x80) {
      p.col++;
    }
  }
  return p;
}
