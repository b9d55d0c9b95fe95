/* A pattern file (hyph_*.dic) read into libhyphen's own automaton, in time
 * linear in the file. hnj_hyphen_load finds each state by looking its
 * string up in a hash table of a fixed 31,627 buckets and each fallback by
 * looking up every suffix of every state: Debian's German patterns make
 * 280,000 states, about 4 s and 40 MB. Here the states are a trie's nodes
 * and the fallbacks its Aho-Corasick failure links, found breadth first;
 * the automaton is the same (a state per prefix of a pattern's letters,
 * the fallback of a state the longest proper suffix that is a state), so
 * libhyphen's hyphenation functions run on it unchanged. */
#include "ts_hyphen_dict.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "oc_alloc.h"
#include "oc_file.h"

/* libhyphen reads lines with fgets into MAX_CHARS bytes and drops longer
   ones; its charset line goes into MAX_NAME bytes. */
#define LINE_MAX_BYTES (MAX_CHARS - 1)

/* One level of patterns while it is read: the trie as first-child and
   next-sibling lists, each node's match (digits, leading zeros dropped). */
typedef struct level {
  int *child, *sibling;
  unsigned char *ch;
  const char **match;
  size_t n, cap;
  HyphenDict *dict;
} level;

static int new_node(level *l, unsigned char c) {
  if (l->n == l->cap) {
    size_t cap = l->cap;
    OC_GROW(l->child, cap, l->n + 1);
    cap = l->cap;
    OC_GROW(l->sibling, cap, l->n + 1);
    cap = l->cap;
    OC_GROW(l->ch, cap, l->n + 1);
    cap = l->cap;
    OC_GROW(l->match, cap, l->n + 1);
    l->cap = cap;
  }
  int v = (int)l->n++;
  l->child[v] = l->sibling[v] = -1;
  l->ch[v] = c;
  l->match[v] = NULL;
  return v;
}

static void level_init(level *l, HyphenDict *d) {
  memset(l, 0, sizeof *l);
  l->dict = d;
  new_node(l, 0); /* the empty string: state 0 */
}

static void level_free(level *l) {
  free(l->child);
  free(l->sibling);
  free(l->ch);
  free(l->match);
}

/* NOHYPHEN a,b,c: the list as libhyphen keeps it, its items separated by
   NULs and counted in nohyphenl (the line's last byte, its newline, is
   dropped as libhyphen drops it). */
static void read_nohyphen(oc_arena *a, HyphenDict *d, const char *s,
                          size_t len) {
  while (len && (*s == ' ' || *s == '\t'))
    s++, len--;
  if (!len)
    return;
  char *list = oc_arena_alloc(a, len);
  memcpy(list, s, len - 1);
  list[len - 1] = 0;
  for (size_t i = len - 2; i > 0 && i < len; i--)
    if (list[i] == ',') {
      d->nohyphenl++;
      list[i] = 0;
    }
  d->nohyphen = list;
}

static bool keyword(const char *s, size_t len, const char *kw, int *value) {
  size_t k = strlen(kw);
  if (len < k || memcmp(s, kw, k) != 0)
    return false;
  char num[16];
  size_t n = len - k < sizeof num - 1 ? len - k : sizeof num - 1;
  memcpy(num, s + k, n);
  num[n] = 0;
  *value = atoi(num);
  return true;
}

/* One line, with its newline when it has one. 1 when the line is a
   pattern libhyphen would load with a replacement (`/`): not read here. */
static int read_line(oc_arena *a, level *l, const char *s, size_t len) {
  HyphenDict *d = l->dict;
  const struct {
    const char *name;
    char *value;
  } mins[] = {{"LEFTHYPHENMIN", &d->lhmin},
              {"RIGHTHYPHENMIN", &d->rhmin},
              {"COMPOUNDLEFTHYPHENMIN", &d->clhmin},
              {"COMPOUNDRIGHTHYPHENMIN", &d->crhmin}};
  for (size_t i = 0; i < sizeof mins / sizeof mins[0]; i++) {
    int v;
    if (keyword(s, len, mins[i].name, &v)) {
      *mins[i].value = (char)v;
      return 0;
    }
  }
  if (len >= 8 && !memcmp(s, "NOHYPHEN", 8)) {
    read_nohyphen(a, d, s + 8, len - 8);
    return 0;
  }
  if (memchr(s, '/', len))
    return 1;
  /* letters and the digits between them: "1ba" is b, a with 1 before b */
  char digits[MAX_CHARS + 1];
  size_t j = 0;
  digits[0] = '0';
  int u = 0;
  for (size_t i = 0; i < len && (unsigned char)s[i] > ' '; i++) {
    if (s[i] >= '0' && s[i] <= '9') {
      digits[j] = s[i];
      continue;
    }
    unsigned char c = (unsigned char)s[i];
    int w = l->child[u];
    while (w >= 0 && l->ch[w] != c)
      w = l->sibling[w];
    if (w < 0) {
      w = new_node(l, c);
      l->sibling[w] = l->child[u];
      l->child[u] = w;
    }
    u = w;
    digits[++j] = '0';
  }
  size_t from = 0;
  while (from <= j && digits[from] == '0')
    from++;
  char *m = oc_arena_alloc(a, j + 2 - from);
  memcpy(m, digits + from, j + 1 - from);
  m[j + 1 - from] = 0;
  l->match[u] = m;
  return 0;
}

/* The trie as libhyphen's states, numbered breadth first (a node's
   children are consecutive, and fallbacks, always shallower, are near the
   front): transitions in one block, each state's fallback found from its
   parent's. */
static void level_finish(oc_arena *a, level *l) {
  HyphenDict *d = l->dict;
  size_t n = l->n;
  d->num_states = (int)n;
  d->states = oc_arena_calloc(a, n, sizeof *d->states);
  HyphenTrans *trans = oc_arena_calloc(a, n, sizeof *trans);
  int *order = oc_reallocarray(NULL, n, sizeof *order);
  size_t tail = 1;
  order[0] = 0;
  for (size_t i = 0; i < tail; i++) {
    HyphenState *st = &d->states[i];
    st->match = (char *)l->match[order[i]];
    st->trans = trans + tail - 1;
    for (int w = l->child[order[i]]; w >= 0; w = l->sibling[w]) {
      st->trans[st->num_trans].ch = (char)l->ch[w];
      st->trans[st->num_trans++].new_state = (int)tail;
      order[tail++] = w;
    }
    if (!st->num_trans)
      st->trans = NULL;
  }
  free(order);
  d->states[0].fallback_state = -1;
  for (size_t i = 0; i < n; i++) {
    const HyphenState *st = &d->states[i];
    for (int k = 0; k < st->num_trans; k++) {
      /* follow the fallbacks until one has the same transition */
      char c = st->trans[k].ch;
      int f = st->fallback_state, to = 0;
      for (; f >= 0 && !to; f = d->states[f].fallback_state) {
        const HyphenState *fs = &d->states[f];
        for (int t = 0; t < fs->num_trans; t++)
          if (fs->trans[t].ch == c) {
            to = fs->trans[t].new_state;
            break;
          }
      }
      d->states[st->trans[k].new_state].fallback_state = to;
    }
  }
}

HyphenDict *ts_hyphen_dict_load(oc_arena *a, const char *path,
                                bool *unsupported) {
  *unsupported = false;
  size_t len;
  char *text = oc_read_file(path, &len);
  if (!text)
    return NULL;
  HyphenDict *dict[2] = {oc_arena_calloc(a, 1, sizeof *dict[0]),
                         oc_arena_calloc(a, 1, sizeof *dict[1])};
  level lv[2];
  level_init(&lv[0], dict[0]);
  level_init(&lv[1], dict[1]);

  /* the character set: the first line, as much as fits in MAX_NAME */
  size_t at = 0;
  size_t k = 0;
  while (at < len && k < MAX_NAME - 1) {
    char c = text[at++];
    dict[0]->cset[k++] = c == '\r' || c == '\n' ? 0 : c;
    if (c == '\n')
      break;
  }
  dict[0]->utf8 = !strcmp(dict[0]->cset, "UTF-8");
  memcpy(dict[1]->cset, dict[0]->cset, MAX_NAME - 1);
  dict[1]->utf8 = dict[0]->utf8;

  int cur = 0;
  bool nextlevel = false;
  while (at < len) {
    const char *s = text + at;
    const char *nl = memchr(s, '\n', len - at);
    size_t n = nl ? (size_t)(nl - s) + 1 : len - at;
    at += n;
    size_t body = nl ? n - 1 : n;
    if (body >= LINE_MAX_BYTES)
      continue; /* libhyphen skips what does not fit its buffer */
    if (n >= 9 && !memcmp(s, "NEXTLEVEL", 9)) {
      if (cur == 1)
        break; /* a third level is not read */
      nextlevel = true;
      cur = 1;
      continue;
    }
    /* `%` starts a comment; so does `#` in LibreOffice's German file,
       which libhyphen reads as patterns of '#' characters: states no run
       of letters ever enters, left out here (one holds a `/`) */
    if (s[0] == '%' || s[0] == '#')
      continue;
    if (read_line(a, &lv[cur], s, n)) {
      *unsupported = true;
      break;
    }
  }
  free(text);
  if (!*unsupported && !nextlevel) {
    /* libhyphen's default compound level: no break at hyphens and
       apostrophes, which break the word into parts */
    static const char *const ascii[] = {"NOHYPHEN ',-\n", "1-1\n", "1'1\n"};
    static const char *const utf8[] = {
        "NOHYPHEN ',\xe2\x80\x93,\xe2\x80\x99,-\n", "1-1\n", "1'1\n",
        "1\xe2\x80\x93"
        "1\n",
        "1\xe2\x80\x99"
        "1\n"};
    const char *const *lines = dict[0]->utf8 ? utf8 : ascii;
    size_t nlines = dict[0]->utf8 ? 5 : 3;
    for (size_t i = 0; i < nlines; i++)
      read_line(a, &lv[1], lines[i], strlen(lines[i]));
  }
  if (!*unsupported) {
    level_finish(a, &lv[0]);
    level_finish(a, &lv[1]);
  }
  level_free(&lv[0]);
  level_free(&lv[1]);
  if (*unsupported)
    return NULL;
  if (nextlevel) {
    dict[0]->nextlevel = dict[1];
    return dict[0];
  }
  HyphenDict *d0 = dict[0], *d1 = dict[1];
  d1->nextlevel = d0;
  d1->lhmin = d0->lhmin;
  d1->rhmin = d0->rhmin;
  d1->clhmin = d0->clhmin ? d0->clhmin : d0->lhmin ? d0->lhmin : 3;
  d1->crhmin = d0->crhmin ? d0->crhmin : d0->rhmin ? d0->rhmin : 3;
  return d1;
}
