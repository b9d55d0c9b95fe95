/* libFuzzer target for config.yml: the text (and, after a line
 * --CONFIGURATION--, a --configuration JSON) through the config reader
 * (bk_config_parse: YAML, merge keys, defaults, extends chains, checks),
 * every edition merged and located, then the model of the first edition
 * with a format (book strings rendered as templates, labels and titles,
 * every content item) in a temporary book that has each content file the
 * config names. Nothing is written to Output/: edition names become paths
 * there. A rejected config must say why; nothing may crash, leak or read
 * out of bounds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book_fs.h"
#include "fuzz_tmpbook.h"
#include "oc_alloc.h"

static const char *book;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  book = fz_book_make(NULL);
  return 0;
}

/* A plain file name (the path rule's job is not this target's). */
static bool plain_name(const char *s, size_t n) {
  if (!n || n > 64 || s[0] == '.')
    return false;
  for (size_t i = 0; i < n; i++)
    if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
          (s[i] >= '0' && s[i] <= '9') || s[i] == '.' || s[i] == '-' ||
          s[i] == '_'))
      return false;
  return true;
}

/* Contents/ afresh, with a short chapter for each content file named. */
static void make_contents(bk_config *cfg) {
  char path[4096];
  snprintf(path, sizeof path, "%s/Contents", book);
  bk_rmtree(path);
  static const char md[] = "# A title {#t}\n\nText and a note.[^1]\n\n"
                           "[^1]: The note.\n";
  tpl_value contents = bk_get(bk_config_book(cfg), "contents");
  if (contents.type != TPL_LIST)
    return;
  for (size_t i = 0; i < contents.u.list->len && i < 64; i++) {
    tpl_value c = bk_get(contents.u.list->items[i], "content");
    if (c.type != TPL_STR || !plain_name(c.u.s, c.len))
      continue;
    char rel[100];
    snprintf(rel, sizeof rel, "Contents/%.*s", (int)c.len, c.u.s);
    fz_book_write(book, rel, md, sizeof md - 1);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char mark[] = "\n--CONFIGURATION--\n";
  const char *text = (const char *)data;
  size_t len = size;
  char *json = NULL;
  const char *m = NULL;
  for (size_t i = 0; !m && i + sizeof mark - 1 <= size; i++)
    if (!memcmp(text + i, mark, sizeof mark - 1))
      m = text + i;
  if (m) {
    len = (size_t)(m - text);
    const char *j = m + sizeof mark - 1;
    size_t jlen = size - (size_t)(j - text);
    if (memchr(j, 0, jlen)) /* a command-line argument holds no NUL */
      return 0;
    json = oc_strndup(j, jlen);
  }
  fz_counts c = {0};
  oc_reporter rep = fz_reporter(&c);
  oc_arena *a = oc_arena_new();
  bk_config *cfg = bk_config_parse(a, text, len, json, &rep);
  if (!cfg) {
    if (!c.errors)
      abort(); /* refused without a reason */
    goto done;
  }
  (void)bk_config_root(cfg);
  const char *first = NULL;
  for (size_t i = 0; i < bk_config_nedition(cfg); i++) {
    const char *name = bk_config_edition_name(cfg, i);
    tpl_value ed = bk_config_edition(cfg, name);
    if (ed.type != TPL_MAP)
      abort(); /* a listed edition that is not there */
    char path[512];
    snprintf(path, sizeof path, "book.editions.%s.format", name);
    bk_pos pos;
    (void)bk_config_where(cfg, path, &pos);
    if (!first && bk_get(ed, "format").type == TPL_STR)
      first = name;
  }
  if (first) {
    make_contents(cfg);
    fz_publish(cfg, book, first, FZ_MODEL, &rep, &c);
  }
done:
  oc_arena_free(a);
  free(json);
  return 0;
}
