/* Unit tests of config.yml (runtime/book/book_config.c) and the labels and
 * titles (runtime/book/book_i18n.c): defaults, merges, `extends`, validation
 * messages with their line and column, --configuration, YAML typing and
 * the translation files. Fixture books are written to a temporary folder
 * that is removed at the end. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "book_config.h"
#include "oc_sb.h"
#include "check_value.h"

/* ---- diagnostics, printed as publish prints them ----------------------- */

typedef struct sink {
  char text[32768];
  size_t len;
  int errors, warnings;
} sink;

static void sink_fn(void *user, oc_severity sev, const char *file,
                    unsigned line, unsigned col, const char *msg) {
  sink *s = user;
  const char *what = sev == OC_ERROR     ? "error"
                     : sev == OC_WARNING ? "warning"
                                         : "note";
  size_t room = sizeof s->text - s->len;
  int n =
      line ? snprintf(s->text + s->len, room, "%s:%u:%u: %s: %s\n", file, line,
                      col, what, msg)
           : snprintf(s->text + s->len, room, "%s: %s: %s\n", file, what, msg);
  if (n > 0 && (size_t)n < room)
    s->len += (size_t)n;
  s->errors += sev == OC_ERROR;
  s->warnings += sev == OC_WARNING;
}

static sink diags;
static const oc_reporter reporter = {sink_fn, &diags};

static void sink_clear(void) { memset(&diags, 0, sizeof diags); }

/* Whether the diagnostics hold this whole line. */
static bool said(const char *line) {
  size_t n = strlen(line);
  for (const char *p = diags.text; (p = strstr(p, line)); p++)
    if ((p == diags.text || p[-1] == '\n') && p[n] == '\n')
      return true;
  return false;
}

static void check_said(const char *file, int line, const char *want) {
  if (said(want)) {
    passed++;
    return;
  }
  failed++;
  fprintf(stderr, "%s:%d: no diagnostic \"%s\"; got:\n%s", file, line, want,
          diags.text);
}
#define CHECK_SAID(want) check_said(__FILE__, __LINE__, (want))

/* ---- values -------------------------------------------------------------- */

/* v.a.0.b: map keys and list indexes. */
static tpl_value get(tpl_value v, const char *path) {
  while (*path) {
    size_t n = strcspn(path, ".");
    if (v.type == TPL_MAP) {
      if (!tpl_map_get_str(v.u.map, path, n, &v))
        return tpl_null();
    } else if (v.type == TPL_LIST) {
      size_t i = (size_t)strtoul(path, NULL, 10);
      if (i >= v.u.list->len)
        return tpl_null();
      v = v.u.list->items[i];
    } else {
      return tpl_null();
    }
    path += n + (path[n] == '.');
  }
  return v;
}

#define CHECK_INT(v, want) CHECK((v).type == TPL_INT && (v).u.i == (want))
#define CHECK_BOOL(v, want) CHECK((v).type == TPL_BOOL && (v).u.b == (want))
#define CHECK_NULL(v) CHECK((v).type == TPL_NULL)
#define CHECK_LEN(v, want)                                                     \
  CHECK((v).type == TPL_LIST && (v).u.list->len == (want))

/* ---- fixture books ------------------------------------------------------- */

static char tmp_root[] = "/tmp/octavo-config-XXXXXX";

static void write_file(const char *path, const char *text) {
  char dir[1024];
  snprintf(dir, sizeof dir, "%s", path);
  for (char *p = dir + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      mkdir(dir, 0755);
      *p = '/';
    }
  FILE *f = fopen(path, "wb");
  if (!f) {
    perror(path);
    exit(2);
  }
  fputs(text, f);
  fclose(f);
}

/* Makes tmp_root/name holding the given files (path, text, ...; NULL
 * ends) and returns its path (static storage, one at a time). */
static const char *book(const char *name, ...) {
  static char dir[512];
  snprintf(dir, sizeof dir, "%s/%s", tmp_root, name);
  mkdir(dir, 0755);
  va_list ap;
  va_start(ap, name);
  const char *rel;
  while ((rel = va_arg(ap, const char *))) {
    const char *text = va_arg(ap, const char *);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    write_file(path, text);
  }
  va_end(ap);
  return dir;
}

static void remove_tree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0)
    return;
  if (S_ISDIR(st.st_mode)) {
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d))) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
        continue;
      char sub[1024];
      snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
      remove_tree(sub);
    }
    if (d)
      closedir(d);
    rmdir(path);
  } else {
    unlink(path);
  }
}

static oc_arena *arena;

/* Loads config text as a book's config.yml. */
static bk_config *load(const char *name, const char *config, const char *json) {
  sink_clear();
  return bk_config_load(arena, book(name, "config.yml", config, NULL), json,
                        &reporter);
}

#define CONTENTS                                                               \
  "  contents:\n"                                                              \
  "    - { element: chapter, number: 1, content: chapter1.md }\n"

/* ---- config.yml ---------------------------------------------------------- */

static void test_defaults(void) {
  bk_config *c = load("defaults",
                      "book:\n"
                      "  title: A book\n" CONTENTS "  editions:\n"
                      "    web:\n"
                      "      format: html\n",
                      NULL);
  CHECK(c != NULL);
  CHECK(diags.len == 0);
  if (!c)
    return;
  tpl_value b = bk_config_book(c);
  CHECK_STR(get(b, "title"), "A book");
  CHECK_STR(get(b, "author"), "Anonymous");
  CHECK_STR(get(b, "language"), "en");
  CHECK_NULL(get(b, "edition"));
  CHECK_NULL(get(b, "publication_date"));
  CHECK_STR(get(b, "generator.name"), "Octavo");
  CHECK(get(b, "generator.version").type == TPL_STR);
  CHECK_STR(get(b, "contents.0.element"), "chapter");
  CHECK_INT(get(b, "contents.0.number"), 1);
  CHECK(get(b, "editions.web").type == TPL_MAP);

  CHECK(bk_config_nedition(c) == 1);
  CHECK(strcmp(bk_config_edition_name(c, 0), "web") == 0);
  tpl_value e = bk_config_edition(c, "web");
  CHECK_STR(get(e, "format"), "html");
  CHECK_STR(get(e, "theme"), "clean");
  CHECK_BOOL(get(e, "include_styles"), true);
  CHECK_BOOL(get(e, "highlight_code"), true); /* Octavo highlights by default */
  CHECK_BOOL(get(e, "highlight_cache"), false);
  CHECK_LEN(get(e, "labels"), 3);
  CHECK_STR(get(e, "labels.2"), "figure");
  CHECK_INT(get(e, "toc.deep"), 2);
  CHECK_LEN(get(e, "toc.elements"), 2);
  CHECK_STR(get(e, "toc.elements.1"), "chapter");
  CHECK_STR(get(e, "images_base_dir"), "images/");
  CHECK_INT(get(e, "chunk_level"), 1);
  CHECK_NULL(get(e, "isbn"));
  CHECK_STR(get(e, "page_size"), "A4");
  CHECK_BOOL(get(e, "two_sided"), true);
  CHECK_STR(get(e, "margin.top"), "25mm");
  CHECK_STR(get(e, "margin.bottom"), "25mm");
  CHECK_STR(get(e, "margin.inner"), "30mm");
  CHECK_STR(get(e, "margin.outer"), "20mm");
  CHECK_NULL(get(e, "before_publish"));
  CHECK(bk_config_edition(c, "nope").type == TPL_NULL);

  /* A writer's generator is kept whole, not completed with ours. */
  c = load("generator",
           "book:\n"
           "  generator: { name: easybook }\n" CONTENTS,
           NULL);
  CHECK(c != NULL);
  if (c) {
    CHECK_STR(get(bk_config_book(c), "generator.name"), "easybook");
    CHECK_NULL(get(bk_config_book(c), "generator.version"));
    CHECK(bk_config_nedition(c) == 0);
  }
}

static void test_extends(void) {
  bk_config *c = load("extends",
                      "book:\n" CONTENTS "  editions:\n"
                      "    top:\n"                   /* 5 */
                      "      extends: mid\n"         /* 6 */
                      "      page_size: US-Letter\n" /* 7 */
                      "      margin: { outter: 15mm, top: 10 }\n"
                      "    mid:\n"                /* 9 */
                      "      extends: base\n"     /* 10 */
                      "      format: PDF\n"       /* 11 */
                      "      labels: [chapter]\n" /* 12 */
                      "    base:\n"               /* 13 */
                      "      theme: sober\n"      /* 14 */
                      "      toc: { deep: 3 }\n", /* 15 */
                      NULL);
  CHECK(c != NULL);
  CHECK(diags.len == 0);
  if (!c)
    return;
  CHECK(bk_config_nedition(c) == 3);
  CHECK(strcmp(bk_config_edition_name(c, 2), "base") == 0);
  tpl_value e = bk_config_edition(c, "top");
  CHECK_STR(get(e, "format"), "pdf");
  CHECK_STR(get(e, "theme"), "sober");
  CHECK_INT(get(e, "toc.deep"), 3);
  CHECK_LEN(get(e, "toc.elements"), 2);
  /* A list replaces the default list, it is not merged by index. */
  CHECK_LEN(get(e, "labels"), 1);
  CHECK_STR(get(e, "labels.0"), "chapter");
  CHECK_STR(get(e, "page_size"), "US-Letter");
  CHECK_STR(get(e, "margin.outer"), "15mm");
  CHECK_NULL(get(e, "margin.outter"));
  CHECK_STR(get(e, "margin.top"), "10mm");
  CHECK_STR(get(e, "margin.inner"), "30mm");
  /* A base edition without a format has no format key. */
  tpl_value base = bk_config_edition(c, "base");
  CHECK(base.type == TPL_MAP);
  CHECK(!tpl_map_get_str(base.u.map, "format", 6, NULL));
  CHECK_STR(get(base, "theme"), "sober");

  /* Where inherited values were written: in the edition that wrote them. */
  bk_pos pos;
  CHECK(bk_config_where(c, "book.editions.top.toc.deep", &pos));
  CHECK(pos.line == 15 && pos.col == 20 && !strcmp(pos.file, "config.yml"));
  CHECK(bk_config_where(c, "book.editions.top.format", &pos));
  CHECK(pos.line == 11 && pos.col == 15);
  CHECK(bk_config_where(c, "book.editions.top.page_size", &pos));
  CHECK(pos.line == 7 && pos.col == 18);
  /* A default: the nearest written ancestor, the edition. */
  CHECK(bk_config_where(c, "book.editions.top.chunk_level", &pos));
  CHECK(pos.line == 6 && pos.col == 7);
}

static void test_cycles(void) {
  bk_config *c = load("cycle",
                      "book:\n" CONTENTS "  editions:\n"
                      "    a:\n"                 /* 5 */
                      "      format: html\n"     /* 6 */
                      "      extends: b\n"       /* 7 */
                      "    b: { extends: a }\n"  /* 8 */
                      "    c: { extends: a }\n"  /* 9 */
                      "    d: { extends: d }\n"  /* 10 */
                      "    e: { extends: f }\n"  /* 11 */
                      "    f: { extends: g }\n"  /* 12 */
                      "    g: { extends: e }\n", /* 13 */
                      NULL);
  CHECK(c == NULL);
  CHECK_SAID("config.yml:7:16: error: edition 'a' extends 'b', which "
             "extends 'a'");
  CHECK_SAID("config.yml:10:19: error: edition 'd' extends 'd'");
  CHECK_SAID("config.yml:11:19: error: edition 'e' extends 'f', which "
             "extends 'g', which extends 'e'");
  CHECK(diags.errors == 3); /* each cycle once; c only inherits one */

  c = load("unknown-parent",
           "book:\n" CONTENTS "  editions:\n"
           "    print: { format: pdf }\n"
           "    proof: { extends: prnt }\n"
           "    other: { extends: zzz }\n",
           NULL);
  CHECK(c == NULL);
  CHECK_SAID("config.yml:6:23: error: edition 'proof' extends 'prnt', which "
             "does not exist (did you mean 'print'?)");
  CHECK_SAID("config.yml:7:23: error: edition 'other' extends 'zzz', which "
             "does not exist");
}

static void test_format(void) {
  bk_config *c = load("format",
                      "book:\n"
                      "  title: T\n" CONTENTS "  editions:\n"
                      "    print:\n"
                      "      format: pfd\n"
                      "    web: { format: HTML_Chunked }\n"
                      "    odd: { format: docx }\n",
                      NULL);
  CHECK(c == NULL);
  CHECK_SAID("config.yml:7:15: error: unknown edition format 'pfd' (did you "
             "mean 'pdf'?)");
  CHECK_SAID("config.yml:9:20: error: unknown edition format 'docx' (known: "
             "epub, mobi, pdf, html, html_chunked)");
  CHECK(diags.errors == 2);
}

static void test_json(void) {
  const char *config = "book:\n"
                       "  title: From the file\n"
                       "  author: Ann\n" CONTENTS "  editions:\n"
                       "    web: { format: html, theme: clean }\n";
  bk_config *c =
      load("json", config,
           "{\"book\": {\"title\": \"From JSON\", \"editions\": {\"fly\": "
           "{\"format\": \"epub\"}, \"web\": {\"theme\": \"dark\"}}}}");
  CHECK(c != NULL);
  CHECK(diags.len == 0);
  if (!c)
    return;
  tpl_value b = bk_config_book(c);
  CHECK_STR(get(b, "title"), "From JSON");
  CHECK_STR(get(b, "author"), "Ann");
  CHECK(bk_config_nedition(c) == 2);
  CHECK(strcmp(bk_config_edition_name(c, 1), "fly") == 0);
  CHECK_STR(get(bk_config_edition(c, "fly"), "format"), "epub");
  CHECK_STR(get(bk_config_edition(c, "web"), "format"), "html");
  CHECK_STR(get(bk_config_edition(c, "web"), "theme"), "dark");
  bk_pos pos;
  CHECK(bk_config_where(c, "book.title", &pos));
  CHECK(!strcmp(pos.file, "--configuration") && pos.line == 1 && pos.col == 20);
  CHECK(bk_config_where(c, "book.author", &pos));
  CHECK(!strcmp(pos.file, "config.yml") && pos.line == 3 && pos.col == 11);

  c = load("json-bad", config, "{\"book\": {\"title\": }");
  CHECK(c == NULL);
  CHECK_SAID("--configuration:1:21: error: did not find expected ',' or '}' "
             "(while parsing a flow mapping started at 1:1)");
  c = load("json-list", config, "[1, 2]");
  CHECK(c == NULL);
  CHECK_SAID("--configuration:1:1: error: the configuration must be a JSON "
             "object such as {\"book\": {...}}, not a list");
}

static void test_warnings(void) {
  bk_config *c = load("warnings",
                      "book:\n"       /* 1 */
                      "  autor: Me\n" /* 2 */
                      "  price: 10\n" /* 3 */
                      "  contents:\n" /* 4 */
                      "    - { element: chapter, contnet: a.md, time: 5 }\n"
                      "  editions:\n"                         /* 6 */
                      "    web:\n"                            /* 7 */
                      "      format: html\n"                  /* 8 */
                      "      chunklevel: 2\n"                 /* 9 */
                      "      tocs: 1\n"                       /* 10 */
                      "      include_style: false\n"          /* 11 */
                      "      framework: bootstrap\n"          /* 12 */
                      "      toc: { deap: 3, elements: ~ }\n" /* 13 */
                      "      margin: { outer: 1cm, outter: 2cm, left: 0 }\n",
                      NULL);
  CHECK(c != NULL);
  CHECK(diags.errors == 0);
  CHECK_SAID("config.yml:2:3: warning: unknown option 'autor' (did you mean "
             "'author'?)");
  CHECK_SAID("config.yml:5:27: warning: unknown option 'contnet' (did you "
             "mean 'content'?)");
  CHECK_SAID("config.yml:9:7: warning: unknown option 'chunklevel' (did you "
             "mean 'chunk_level'?)");
  CHECK_SAID("config.yml:10:7: warning: unknown option 'tocs' (did you mean "
             "'toc'?)");
  CHECK_SAID("config.yml:11:7: warning: unknown option 'include_style' (did "
             "you mean 'include_styles'?)");
  CHECK_SAID("config.yml:13:14: warning: unknown option 'toc.deap' (did you "
             "mean 'toc.deep'?)");
  CHECK_SAID("config.yml:14:29: warning: 'margin.outter' is ignored, as "
             "'margin.outer' is given");
  CHECK_SAID("config.yml:14:42: warning: unknown option 'margin.left'");
  CHECK(diags.warnings == 8); /* price, time and framework are the writer's */
  if (!c)
    return;
  tpl_value b = bk_config_book(c);
  CHECK_INT(get(b, "price"), 10);
  CHECK_INT(get(b, "contents.0.time"), 5);
  tpl_value e = bk_config_edition(c, "web");
  CHECK_STR(get(e, "framework"), "bootstrap");
  CHECK_STR(get(e, "margin.outer"), "1cm");
  CHECK_NULL(get(e, "toc.elements"));
  CHECK_INT(get(e, "toc.deep"), 2);
}

/* The budgets: lowered freely, lifted up to their ceilings only (a
 * warning at the value, and the ceiling is what the edition gets), from
 * the file, from --configuration and through `extends`. */
static void test_budget_ceilings(void) {
  bk_config *c =
      load("budgets",
           "book:\n" CONTENTS                                     /* 1-3 */
           "  editions:\n"                                        /* 4 */
           "    base:\n"                                          /* 5 */
           "      template_max_iterations: 9000000000000000000\n" /* 6 */
           "      template_max_output_mb: 4097\n"                 /* 7 */
           "    web:\n"                                           /* 8 */
           "      format: html\n"                                 /* 9 */
           "      extends: base\n"                                /* 10 */
           "      image_max_megapixels: 401\n"                    /* 11 */
           "      image_max_ppi: 2400\n"                          /* 12 */
           "    low:\n"                                           /* 13 */
           "      format: html\n"                                 /* 14 */
           "      template_max_iterations: 1000\n"                /* 15 */
           "      template_max_output_mb: 1\n",                   /* 16 */
           "{\"book\": {\"editions\": {\"low\": {\"image_max_ppi\": 2401}}}}");
  CHECK(c != NULL);
  CHECK(diags.errors == 0 && diags.warnings == 4);
  CHECK_SAID("config.yml:6:32: warning: 'template_max_iterations' is "
             "9000000000000000000, above its ceiling of 500000000, which "
             "applies: a book may lower this budget but not lift it past "
             "that");
  CHECK_SAID("config.yml:7:31: warning: 'template_max_output_mb' is 4097, "
             "above its ceiling of 4096, which applies: a book may lower "
             "this budget but not lift it past that");
  CHECK_SAID("config.yml:11:29: warning: 'image_max_megapixels' is 401, "
             "above its ceiling of 400, which applies: a book may lower this "
             "budget but not lift it past that");
  CHECK_SAID("--configuration:1:49: warning: 'image_max_ppi' is 2401, above "
             "its ceiling of 2400, which applies: a book may lower this "
             "budget but not lift it past that");
  if (!c)
    return;
  tpl_value web = bk_config_edition(c, "web");
  CHECK_INT(get(web, "template_max_iterations"), BK_MAX_TEMPLATE_ITERATIONS);
  CHECK_INT(get(web, "template_max_output_mb"), BK_MAX_TEMPLATE_OUTPUT_MB);
  CHECK_INT(get(web, "image_max_megapixels"), BK_MAX_IMAGE_MEGAPIXELS);
  CHECK_INT(get(web, "image_max_ppi"), 2400);
  tpl_value low = bk_config_edition(c, "low");
  CHECK_INT(get(low, "template_max_iterations"), 1000);
  CHECK_INT(get(low, "template_max_output_mb"), 1);
  CHECK_INT(get(low, "image_max_ppi"), BK_MAX_IMAGE_PPI);
}

static void test_type_errors(void) {
  bk_config *c = load("types",
                      "book:\n"                                 /* 1 */
                      "  title: [a, b]\n"                       /* 2 */
                      "  contents:\n"                           /* 3 */
                      "    - chapter1.md\n"                     /* 4 */
                      "    - { content: a.md }\n"               /* 5 */
                      "    - { element: 3, title: { a: 1 } }\n" /* 6 */
                      "  editions:\n"                           /* 7 */
                      "    web:\n"                              /* 8 */
                      "      format: html\n"                    /* 9 */
                      "      include_styles: 'yes'\n"           /* 10 */
                      "      toc: { deep: 9, elements: chapter }\n"
                      "      chunk_level: 3\n"          /* 12 */
                      "      labels: [chapter, 3]\n"    /* 13 */
                      "      theme: ~\n"                /* 14 */
                      "      isbn: 9781234567897\n"     /* 15 */
                      "      margin: { top: [1] }\n"    /* 16 */
                      "      after_publish: { a: b }\n" /* 17 */
                      "    bad: [1]\n",                 /* 18 */
                      NULL);
  CHECK(c == NULL);
  CHECK_SAID("config.yml:2:10: error: 'title' must be a string, not a list");
  CHECK_SAID("config.yml:4:7: error: a contents entry must be a map with an "
             "'element', not 'chapter1.md'");
  CHECK_SAID("config.yml:5:7: error: this contents entry has no 'element'");
  CHECK_SAID("config.yml:6:18: error: 'element' must be a string, not '3'");
  CHECK_SAID("config.yml:6:28: error: 'title' must be a string, not a map");
  CHECK_SAID("config.yml:10:23: error: 'include_styles' must be true or "
             "false, not 'yes'");
  CHECK_SAID("config.yml:11:20: error: 'toc.deep' must be an integer from 1 "
             "to 6, not '9'");
  CHECK_SAID("config.yml:11:33: error: 'toc.elements' must be a list of "
             "strings, not 'chapter'");
  CHECK_SAID("config.yml:12:20: error: 'chunk_level' must be 1 or 2, not '3'");
  CHECK_SAID("config.yml:13:25: error: 'labels' must be a list of strings, "
             "not hold '3'");
  CHECK_SAID("config.yml:14:14: error: 'theme' must be a string, not null");
  CHECK_SAID("config.yml:16:22: error: 'margin.top' must be a length such as "
             "'20mm', not a list");
  CHECK_SAID("config.yml:17:22: error: 'after_publish' must be a string or a "
             "list of strings, not a map");
  CHECK_SAID("config.yml:18:10: error: edition 'bad' must be a map, not a "
             "list");
  CHECK(diags.errors == 14); /* every one, not the first only */

  /* isbn written as a number is kept as text. */
  c = load("isbn",
           "book:\n" CONTENTS "  editions:\n"
           "    e: { format: epub, isbn: 9781234567897 }\n",
           NULL);
  CHECK(c != NULL);
  if (c)
    CHECK_STR(get(bk_config_edition(c, "e"), "isbn"), "9781234567897");
}

static void test_structure_errors(void) {
  bk_config *c = load("no-contents", "book:\n  title: T\n", NULL);
  CHECK(c == NULL);
  CHECK_SAID("config.yml:1:1: error: the book has no contents");
  c = load("empty-contents", "book:\n  contents: []\n", NULL);
  CHECK_SAID("config.yml:2:13: error: the book has no contents");
  c = load("no-book", "title: T\n", NULL);
  CHECK(c == NULL);
  CHECK_SAID("config.yml:1:1: error: config.yml has no 'book' map");
  c = load("book-scalar", "book: yes\n", NULL);
  CHECK_SAID("config.yml:1:7: error: 'book' must be a map of options, not "
             "'yes'");
  c = load("boook", "boook:\n  title: T\n", NULL);
  CHECK_SAID("config.yml:1:1: warning: unknown option 'boook' (did you mean "
             "'book'?)");
  c = load("editions-list", "book:\n" CONTENTS "  editions: [web]\n", NULL);
  CHECK(c == NULL);
  CHECK_SAID("config.yml:4:13: error: 'editions' must be a map of editions, "
             "not a list");
  c = load("empty", "", NULL);
  CHECK(c == NULL);
  CHECK(diags.errors == 1);
  /* An empty edition is fine: all defaults, no format. */
  c = load("empty-edition", "book:\n" CONTENTS "  editions:\n    base:\n",
           NULL);
  CHECK(c != NULL);
  if (c)
    CHECK_STR(get(bk_config_edition(c, "base"), "theme"), "clean");
}

static void test_yaml_errors(void) {
  bk_config *c = load("syntax", "book:\n  title: x: y\n", NULL);
  CHECK(c == NULL);
  CHECK_SAID("config.yml:2:11: error: mapping values are not allowed in this "
             "context");
  CHECK(diags.errors == 1);

  c = load("syntax2", "book:\n  - a\n  b: 1\n", NULL);
  CHECK_SAID("config.yml:3:3: error: did not find expected '-' indicator "
             "(while parsing a block collection started at 2:3)");

  c = load("latin1", "book:\n  title: caf\xe9\n", NULL);
  CHECK(c == NULL);
  CHECK_SAID("config.yml:2:13: error: incomplete UTF-8 octet sequence");

  sink_clear();
  c = bk_config_load(arena, book("missing", NULL), NULL, &reporter);
  CHECK(c == NULL);
  char want[600];
  snprintf(want, sizeof want,
           "%s/missing/config.yml: error: no such file: a book needs a "
           "config.yml",
           tmp_root);
  CHECK_SAID(want);
}

static void test_where(void) {
  bk_config *c = load("where",
                      "book:\n"                    /* 1 */
                      "  title: T\n"               /* 2 */
                      "  contents:\n"              /* 3 */
                      "    - { element: cover }\n" /* 4 */
                      "    - element: chapter\n"   /* 5 */
                      "      content: one.md\n"    /* 6 */
                      "  editions:\n"              /* 7 */
                      "    web:\n"                 /* 8 */
                      "      format: html\n",      /* 9 */
                      NULL);
  CHECK(c != NULL);
  if (!c)
    return;
  bk_pos pos;
  CHECK(bk_config_where(c, "book.title", &pos));
  CHECK(pos.line == 2 && pos.col == 10);
  CHECK(bk_config_where(c, "book.contents.1.content", &pos));
  CHECK(pos.line == 6 && pos.col == 16);
  CHECK(bk_config_where(c, "book.contents.0", &pos));
  CHECK(pos.line == 4 && pos.col == 7);
  CHECK(bk_config_where(c, "book.editions.web.format", &pos));
  CHECK(pos.line == 9 && pos.col == 15);
  /* From the defaults: the nearest ancestor the writer wrote. */
  CHECK(bk_config_where(c, "book.editions.web.margin.top", &pos));
  CHECK(pos.line == 9 && pos.col == 7);
  CHECK(bk_config_where(c, "book.contents.1.title", &pos));
  CHECK(pos.line == 5 && pos.col == 7);
  CHECK(bk_config_where(c, "book.author", &pos));
  CHECK(pos.line == 2 && pos.col == 3);
  CHECK(!bk_config_where(c, "nothing.here", &pos));
}

static void test_yaml_types(void) {
  tpl_value v;
  const char *text = "a: ~\nb: NULL\nc:\nd: TRUE\ne: false\nf: 42\ng: -7\n"
                     "h: +3\ni: 0x1F\nj: 0o17\nk: 1.5\nl: 1e3\nm: .inf\n"
                     "n: -.Inf\no: .NaN\np: 2024-03-05\nq: '12'\nr: \"true\"\n"
                     "s: yes\nt: 4.0\nu: 99999999999999999999\n"
                     "base: &b { x: 1, y: 2 }\nderived:\n  <<: *b\n  y: 3\n";
  sink_clear();
  CHECK(bk_yaml_parse(arena, "t.yml", text, strlen(text), &reporter, &v) == 0);
  CHECK_NULL(get(v, "a"));
  CHECK_NULL(get(v, "b"));
  CHECK_NULL(get(v, "c"));
  CHECK_BOOL(get(v, "d"), true);
  CHECK_BOOL(get(v, "e"), false);
  CHECK_INT(get(v, "f"), 42);
  CHECK_INT(get(v, "g"), -7);
  CHECK_INT(get(v, "h"), 3);
  CHECK_INT(get(v, "i"), 31);
  CHECK_INT(get(v, "j"), 15);
  CHECK(get(v, "k").type == TPL_FLOAT && get(v, "k").u.f == 1.5);
  CHECK(get(v, "l").type == TPL_FLOAT && get(v, "l").u.f == 1000);
  CHECK(get(v, "m").type == TPL_FLOAT && get(v, "m").u.f > 1e308);
  CHECK(get(v, "n").type == TPL_FLOAT && get(v, "n").u.f < -1e308);
  CHECK(get(v, "o").type == TPL_FLOAT && get(v, "o").u.f != get(v, "o").u.f);
  CHECK_STR(get(v, "p"), "2024-03-05");
  CHECK_STR(get(v, "q"), "12");
  CHECK_STR(get(v, "r"), "true");
  CHECK_STR(get(v, "s"), "yes");
  CHECK(get(v, "t").type == TPL_FLOAT && get(v, "t").u.f == 4.0);
  CHECK(get(v, "u").type == TPL_FLOAT);
  CHECK_INT(get(v, "derived.x"), 1);
  CHECK_INT(get(v, "derived.y"), 3);

  /* Duplicate keys are errors naming both places, in every map; keys
   * brought by `<<` are not duplicates (the written ones win). */
  const char *dups = "a: 1\nm:\n  x: 1\n  y: 2\n  x: 3\nb: 2\na: 4\n"
                     "base: &b { x: 1 }\nd: { <<: *b, x: 2 }\n";
  sink_clear();
  CHECK(bk_yaml_parse(arena, "d.yml", dups, strlen(dups), &reporter, &v) ==
        -1);
  CHECK_SAID("d.yml:5:3: error: duplicate key 'x'");
  CHECK_SAID("d.yml:3:3: note: first defined here");
  CHECK_SAID("d.yml:7:1: error: duplicate key 'a'");
  CHECK_SAID("d.yml:1:1: note: first defined here");
  CHECK(diags.errors == 2);
  /* the same in a map big enough to be indexed */
  oc_sb big;
  oc_sb_init(&big, arena, 1 << 16);
  for (int i = 0; i < 5000; i++)
    oc_sb_printf(&big, "key%d: %d\n", i, i);
  oc_sb_printf(&big, "key4321: again\n");
  sink_clear();
  CHECK(bk_yaml_parse(arena, "big.yml", big.p, big.len, &reporter, &v) ==
        -1);
  CHECK_SAID("big.yml:5001:1: error: duplicate key 'key4321'");
  CHECK_SAID("big.yml:4322:1: note: first defined here");
  CHECK(diags.errors == 1);

  /* Lists replace lists; maps merge. */
  tpl_value base, over;
  const char *b = "l: [1, 2, 3]\nm: { x: 1, y: 2 }\n";
  const char *o = "l: [9]\nm: { y: 5, z: 6 }\n";
  bk_yaml_parse(arena, "b", b, strlen(b), &reporter, &base);
  bk_yaml_parse(arena, "o", o, strlen(o), &reporter, &over);
  tpl_value m = bk_value_merge(arena, base, over);
  CHECK_LEN(get(m, "l"), 1);
  CHECK_INT(get(m, "m.x"), 1);
  CHECK_INT(get(m, "m.y"), 5);
  CHECK_INT(get(m, "m.z"), 6);
  CHECK_LEN(get(base, "l"), 3); /* the inputs are left alone */
}

/* Pathological inputs: deep nesting stops cleanly, and aliases share
 * what they name instead of copying it (a "billion laughs" stays small). */
static void test_pathological(void) {
  char deep[4100];
  size_t n = 0;
  for (int i = 0; i < 1500; i++)
    deep[n++] = '[';
  for (int i = 0; i < 1500; i++)
    deep[n++] = ']';
  deep[n] = '\0';
  tpl_value v;
  sink_clear();
  CHECK(bk_yaml_parse(arena, "deep.yml", deep, n, &reporter, &v) == -1);
  CHECK_SAID("deep.yml:1:1002: error: nesting deeper than 1000 levels");

  const char *laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
                       "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                       "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
                       "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                       "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
                       "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
                       "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n"
                       "h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g, *g]\n"
                       "i: [*h, *h, *h, *h, *h, *h, *h, *h, *h, *h]\n";
  sink_clear();
  CHECK(bk_yaml_parse(arena, "laughs.yml", laughs, strlen(laughs), &reporter,
                      &v) == 0);
  CHECK_STR(get(v, "i.9.9.9.9.9.9.9.9.9"), "x");
}

static void test_symlinks(void) {
  char outside[600], link[600];
  snprintf(outside, sizeof outside, "%s/outside.yml", tmp_root);
  write_file(outside, "book:\n  title: stolen\n" CONTENTS);
  const char *dir = book("linked", NULL);
  snprintf(link, sizeof link, "%s/config.yml", dir);
  CHECK(symlink(outside, link) == 0);
  sink_clear();
  CHECK(bk_config_load(arena, dir, NULL, &reporter) == NULL);
  CHECK(diags.errors == 1 && strstr(diags.text, "leads out of the book"));

  /* A link that stays inside the book is fine. */
  dir = book("linked-in", "real.yml", "book:\n  title: mine\n" CONTENTS, NULL);
  snprintf(link, sizeof link, "%s/config.yml", dir);
  CHECK(symlink("real.yml", link) == 0);
  sink_clear();
  bk_config *c = bk_config_load(arena, dir, NULL, &reporter);
  CHECK(c != NULL);
  if (c)
    CHECK_STR(get(bk_config_book(c), "title"), "mine");
}

/* ---- labels and titles --------------------------------------------------- */

static const char *const languages[] = {"ca", "de", "en", "es", "eu", "fr",
                                        "it", "ja", "nl", "ro", "zh"};

/* Every key of English is in every language, with a value of its type. */
static void test_languages(void) {
  tpl_value en_labels, en_titles;
  sink_clear();
  CHECK(bk_i18n_load(arena, NULL, "en", NULL, NULL, &reporter, &en_labels,
                     &en_titles) == 0);
  CHECK(diags.len == 0);
  CHECK(en_labels.type == TPL_MAP && en_labels.u.map->len == 51); /* 5: search, search_none, search_one, search_many, search_some */
  CHECK(en_titles.type == TPL_MAP && en_titles.u.map->len == 21);
  CHECK_STR(get(en_labels, "chapter.0"), "Chapter {{ item.number }}");
  CHECK_STR(get(en_labels, "chapter.3"), "{{ item.counters[0:4]|join('.') }}");
  CHECK_STR(
      get(en_labels, "figure"),
      "Figure {{ element.number ? element.number ~ '.' }}{{ item.number }}");
  CHECK_STR(get(en_labels, "date_format"), "m/d/Y");
  CHECK_STR(get(en_labels, "published_with"), "Published with {{ generator }}");
  CHECK_STR(get(en_titles, "toc"), "Table of contents");
  CHECK_STR(get(en_titles, "chapter"), "");
  for (size_t i = 0; i < sizeof languages / sizeof *languages; i++) {
    tpl_value labels, titles;
    sink_clear();
    CHECK(bk_i18n_load(arena, NULL, languages[i], NULL, NULL, &reporter,
                       &labels, &titles) == 0);
    CHECK(diags.len == 0);
    tpl_value pairs[2][2] = {{en_labels, labels}, {en_titles, titles}};
    for (int k = 0; k < 2; k++) {
      const tpl_map *en = pairs[k][0].u.map;
      CHECK(pairs[k][1].type == TPL_MAP && pairs[k][1].u.map->len == en->len);
      if (pairs[k][1].type != TPL_MAP)
        continue;
      for (size_t j = 0; j < en->len; j++) {
        tpl_value v;
        bool ok = tpl_map_get(pairs[k][1].u.map, en->entries[j].key, &v) &&
                  v.type == en->entries[j].val.type &&
                  (v.type != TPL_LIST ||
                   v.u.list->len == en->entries[j].val.u.list->len);
        if (!ok)
          fprintf(stderr, "%s: key '%.*s' missing or of another type\n",
                  languages[i], (int)en->entries[j].key.len,
                  en->entries[j].key.u.s);
        CHECK(ok);
      }
    }
  }
  tpl_value l, t;
  bk_i18n_load(arena, NULL, "eu", NULL, NULL, &reporter, &l, &t);
  CHECK_STR(get(l, "chapter.0"), "{{ item.number }}. kapitulua");
  bk_i18n_load(arena, NULL, "zh", NULL, NULL, &reporter, &l, &t);
  CHECK_STR(get(l, "chapter.0"), "第 {{ item.number }} 章");
  CHECK_STR(get(l, "date_format"), "Y年n月j日");
  bk_i18n_load(arena, NULL, "ja", NULL, NULL, &reporter, &l, &t);
  CHECK_STR(get(l, "chapter.0"), "第 {{ item.number }} 章");
  CHECK_STR(get(t, "toc"), "目次");
  bk_i18n_load(arena, NULL, "es", NULL, NULL, &reporter, &l, &t);
  CHECK_STR(get(l, "date_format"), "d/m/Y");
  CHECK_STR(get(t, "toc"), "Índice");
}

static void test_language_fallback(void) {
  tpl_value l, t;
  sink_clear();
  CHECK(bk_i18n_load(arena, NULL, "xx", NULL, NULL, &reporter, &l, &t) == 0);
  CHECK_SAID("config.yml: warning: unknown language 'xx'; using English");
  CHECK_STR(get(l, "next"), "Next");
  sink_clear();
  bk_pos at = {"config.yml", 3, 13};
  bk_i18n_load_at(arena, NULL, "tlh", &at, NULL, NULL, &reporter, &l, &t);
  CHECK_SAID("config.yml:3:13: warning: unknown language 'tlh'; using "
             "English");
  /* A regional variant uses its language, quietly. */
  sink_clear();
  bk_i18n_load(arena, NULL, "fr_CA", NULL, NULL, &reporter, &l, &t);
  CHECK(diags.len == 0);
  CHECK_STR(get(l, "next"), "Suivant");
  /* A book that brings its own translation needs no warning. */
  const char *dir =
      book("own-language", "Resources/Translations/labels.pt.yml",
           "label:\n  next: Seguinte\n", "Resources/Translations/titles.pt.yml",
           "title:\n  toc: Índice\n", NULL);
  sink_clear();
  CHECK(bk_i18n_load(arena, dir, "pt", NULL, NULL, &reporter, &l, &t) == 0);
  CHECK(diags.len == 0);
  CHECK_STR(get(l, "next"), "Seguinte");
  CHECK_STR(get(l, "previous"), "Previous");
  CHECK_STR(get(t, "toc"), "Índice");
}

static void test_overrides(void) {
  const char *dir = book(
      "overrides", "Resources/Translations/labels.en.yml",
      "label:\n  next: Root\n  chapter: ['Ch. {{ item.number }}']\n",
      "Resources/Translations/html/labels.en.yml", "label:\n  next: Format\n",
      "Resources/Translations/web/labels.en.yml", "label:\n  next: Edition\n",
      "Resources/Translations/htmlchunked/labels.en.yml",
      "label:\n  next: Chunked\n", "Resources/Translations/titles.en.yml",
      "title:\n  toc: Contents\n", NULL);
  tpl_value l, t;
  sink_clear();
  CHECK(bk_i18n_load(arena, dir, "en", "web", "html", &reporter, &l, &t) == 0);
  CHECK(diags.len == 0);
  CHECK_STR(get(l, "next"), "Edition");
  CHECK_STR(get(l, "previous"), "Previous");
  CHECK_STR(get(t, "toc"), "Contents");
  CHECK_STR(get(t, "preface"), "Preface");
  bk_i18n_load(arena, dir, "en", "site", "html", &reporter, &l, &t);
  CHECK_STR(get(l, "next"), "Format");
  bk_i18n_load(arena, dir, "en", "site", "html_chunked", &reporter, &l, &t);
  CHECK_STR(get(l, "next"), "Chunked");
  bk_i18n_load(arena, dir, "en", "print", "pdf", &reporter, &l, &t);
  CHECK_STR(get(l, "next"), "Root");
  /* The root file's list replaced the built-in one whole. */
  CHECK_LEN(get(l, "chapter"), 1);
  CHECK_STR(get(l, "chapter.0"), "Ch. {{ item.number }}");
  CHECK_STR(
      get(l, "figure"),
      "Figure {{ element.number ? element.number ~ '.' }}{{ item.number }}");

  dir = book("bad-translation", "Resources/Translations/labels.en.yml",
             "label:\n  next: [oops\n", NULL);
  sink_clear();
  CHECK(bk_i18n_load(arena, dir, "en", "web", "html", &reporter, &l, &t) == -1);
  CHECK(
      diags.errors == 1 &&
      !strncmp(diags.text, "Resources/Translations/labels.en.yml:2:14: ", 43));

  char outside[600], link[600];
  snprintf(outside, sizeof outside, "%s/titles.en.yml", tmp_root);
  write_file(outside, "title:\n  toc: Stolen\n");
  dir = book("translation-link", "Resources/Translations/labels.en.yml",
             "label: {}\n", NULL);
  snprintf(link, sizeof link, "%s/Resources/Translations/titles.en.yml", dir);
  CHECK(symlink(outside, link) == 0);
  sink_clear();
  CHECK(bk_i18n_load(arena, dir, "en", "web", "html", &reporter, &l, &t) == -1);
  CHECK_SAID("Resources/Translations/titles.en.yml: error: refusing to read "
             "it: it is a link that leads out of the book folder");
}

/* Names that become paths (oc_path.h): an edition's name is its folder in
 * Output/, so one that is not a plain file name is an error at its key,
 * shown escaped; a NUL in a path value is an error at the value. */
static void test_unsafe_names(void) {
  bk_config *c = load("name-dotdot",
                      "book:\n" CONTENTS
                      "  editions:\n    \"../../victim\": { format: html }\n",
                      NULL);
  CHECK(c == NULL);
  CHECK_SAID("config.yml:5:5: error: the edition name '../../victim' holds a "
             "'/'; an edition's name is its folder in Output/, so it must be "
             "a plain file name (letters, digits, '-', '_', no '/' and no "
             "leading '.')");
  c = load("name-control",
           "book:\n" CONTENTS
           "  editions:\n    \"a\\e[1mb\": { format: html }\n",
           NULL);
  CHECK(c == NULL);
  CHECK(diags.errors == 1);
  CHECK(strstr(diags.text, "'a\\x1b[1mb' holds a control character"));
  CHECK(!strchr(diags.text, 0x1b));
  c = load("name-nul",
           "book:\n" CONTENTS "  editions:\n    \"web\\0x\": { format: html }\n"
           "    web: { format: html }\n",
           NULL);
  CHECK(c == NULL);
  CHECK(strstr(diags.text, "a NUL byte in this string"));
  c = load("name-dot", "book:\n" CONTENTS "  editions:\n    .web: ~\n", NULL);
  CHECK(c == NULL);
  CHECK(strstr(diags.text, "config.yml:5:5: error: the edition name '.web' "
                           "starts with '.'"));
  c = load("content-nul",
           "book:\n  contents:\n    - { element: chapter, content: "
           "\"ch1.md\\0.txt\" }\n  editions:\n    web: { format: html }\n",
           NULL);
  CHECK(c == NULL);
  CHECK_SAID("config.yml:3:36: error: a NUL byte in this string (written "
             "'\\0' or '\\x00'); paths and text cannot hold one");
  c = load("name-ok",
           "book:\n" CONTENTS "  editions:\n    web_2-b.x: { format: html }\n",
           NULL);
  CHECK(c != NULL);
}

int main(void) {
  if (!mkdtemp(tmp_root)) {
    perror("mkdtemp");
    return 2;
  }
  arena = oc_arena_new();
  test_defaults();
  test_extends();
  test_cycles();
  test_format();
  test_json();
  test_warnings();
  test_budget_ceilings();
  test_type_errors();
  test_structure_errors();
  test_yaml_errors();
  test_where();
  test_yaml_types();
  test_pathological();
  test_symlinks();
  test_languages();
  test_language_fallback();
  test_overrides();
  test_unsafe_names();
  oc_arena_free(arena);
  remove_tree(tmp_root);
  printf("config: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
