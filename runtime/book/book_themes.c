/* The themes compiled into publish (book_writers.h): the bundled ones,
 * listed by the registry themes/CMakeLists.txt has themec write
 * (octavo_bundled_themes), and those a themed publish adds (`themec
 * build`), which octavo_publish_main hands to bk_themes_set. An added theme
 * hides a bundled one of the same name, all its formats. `base`,
 * Easybook's other theme name, is `clean` unless a theme has that name. */
#include <stdio.h>
#include <string.h>

#include "book_config.h"
#include "book_writers.h"
#include "oc_sb.h"

extern const tpl_theme octavo_bundled_themes[];
extern const size_t octavo_bundled_themes_n;

static const tpl_theme *added;
static size_t nadded;
static const char *default_name = "clean";

void bk_themes_set(const tpl_theme *themes, size_t n, const char *dflt) {
  added = themes;
  nadded = n;
  if (dflt && dflt[0])
    default_name = dflt;
  bk_config_set_default_theme(default_name);
}

const char *bk_theme_format_dir(const char *format) {
  /* mobi editions are published as EPUB (KindleGen is gone). */
  return strcmp(format, "mobi") ? format : "epub";
}

static bool list_has(const tpl_theme *list, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(list[i].name, name))
      return true;
  return false;
}

static bool has_name(const char *name) {
  return list_has(added, nadded, name) ||
         list_has(octavo_bundled_themes, octavo_bundled_themes_n, name);
}

bool bk_find_theme(const char *name, const char *format, bk_theme *found) {
  if (!strcmp(name, "base") && !has_name("base"))
    name = "clean";
  bool mine = list_has(added, nadded, name);
  const tpl_theme *list = mine ? added : octavo_bundled_themes;
  size_t n = mine ? nadded : octavo_bundled_themes_n;
  const char *dir = bk_theme_format_dir(format);
  for (size_t i = 0; i < n; i++)
    if (!strcmp(list[i].name, name) && !strcmp(list[i].format, dir)) {
      *found = (bk_theme){list[i].name, list[i].format, list[i].templates,
                          *list[i].ntemplates, NULL};
      return true;
    }
  return false;
}

/* Calls fn for each theme name once, with the list its formats come
 * from: the added themes, then the bundled ones they do not hide. */
static void each_name(void (*fn)(void *, const char *, const tpl_theme *,
                                 size_t, bool),
                      void *data) {
  for (int pass = 0; pass < 2; pass++) {
    const tpl_theme *list = pass ? octavo_bundled_themes : added;
    size_t n = pass ? octavo_bundled_themes_n : nadded;
    for (size_t i = 0; i < n; i++) {
      const char *name = list[i].name;
      if (list_has(list, i, name) || (pass && list_has(added, nadded, name)))
        continue;
      fn(data, name, list, n, pass == 0);
    }
  }
}

static void add_name(void *data, const char *name, const tpl_theme *list,
                     size_t n, bool is_added) {
  (void)list, (void)n, (void)is_added;
  oc_sb *sb = data;
  if (sb->len)
    oc_sb_adds(sb, ", ");
  oc_sb_adds(sb, name);
  if (!strcmp(name, "clean") && !has_name("base"))
    oc_sb_adds(sb, " (also called base)");
}

const char *bk_theme_names(void) {
  static char names[1024];
  if (!names[0]) {
    oc_sb sb;
    oc_sb_init(&sb, NULL, 64);
    each_name(add_name, &sb);
    snprintf(names, sizeof names, "%s", sb.len ? oc_sb_cstr(&sb) : "none");
    oc_sb_free(&sb);
  }
  return names;
}

static void print_theme(void *data, const char *name, const tpl_theme *list,
                        size_t n, bool is_added) {
  FILE *f = data;
  fprintf(f, "%-12s", name);
  for (size_t i = 0; i < n; i++)
    if (!strcmp(list[i].name, name))
      fprintf(f, " %s", list[i].format);
  const char *notes[3];
  size_t nn = 0;
  if (!strcmp(name, default_name))
    notes[nn++] = "the default";
  if (!strcmp(name, "clean") && !has_name("base"))
    notes[nn++] = "also called base";
  if (is_added)
    notes[nn++] = "added by themec build";
  for (size_t i = 0; i < nn; i++)
    fprintf(f, "%s%s", i ? "; " : "  (", notes[i]);
  fputs(nn ? ")\n" : "\n", f);
}

void bk_themes_print(FILE *f) { each_name(print_theme, f); }
