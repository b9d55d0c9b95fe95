/* Unit tests of the typed book model (runtime/book/book_types.h): a
 * config.yml read into bk_book_conf, bk_edition_conf and bk_item_conf
 * (defaults, `extends`, the editions:/formats: filters, options as the
 * writers read them), and an edition loaded from a small book folder: its
 * items, their headings and the template records built from them. */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "book.h"
#include "check.h"

/* Diagnostics are counted and shown, never expected here: each config is
 * valid. */
static int diagnostics;
static void show(void *user, oc_severity sev, const char *file, unsigned line,
                 unsigned col, const char *msg) {
  (void)user;
  (void)sev;
  diagnostics++;
  fprintf(stderr, "%s:%u:%u: %s\n", file ? file : "", line, col, msg);
}
static const oc_reporter rep = {show, NULL};

/* Where a diagnostic is expected: the last one kept. */
static char last[256];
static void keep(void *user, oc_severity sev, const char *file, unsigned line,
                 unsigned col, const char *msg) {
  (void)user, (void)sev, (void)file, (void)line, (void)col;
  snprintf(last, sizeof last, "%s", msg);
}
static const oc_reporter kept = {keep, NULL};

#define CHECK_IS(got, want) CHECK_STR((got), (want))

static const char config[] =
    "book:\n"
    "  title: \"{{ book.author }}'s notes\"\n"
    "  author: Ann\n"
    "  keywords: [ink, paper]\n"
    "  description: Short\n"
    "  publisher: 42\n"
    "  generator: {name: Tool}\n"
    "  contents:\n"
    "    - { element: cover }\n"
    "    - { element: chapter, number: 1, content: ch1.md, title: 1984 }\n"
    "    - { element: appendix, content: a.md, editions: [print],"
    " formats: not-epub }\n"
    "    - { element: afterword, editions: not-print,"
    " formats: [html, html_chunked] }\n"
    "  editions:\n"
    "    base:\n"
    "      toc: { deep: 3, elements: [chapter] }\n"
    "      isbn: 9781234567897\n"
    "      labels: [chapter]\n"
    "    print:\n"
    "      extends: base\n"
    "      format: PDF\n"
    "      footnotes: end\n"
    "      bleed: 3mm\n"
    "      crop_marks: true\n"
    "      two_sided: false\n"
    "      template_max_iterations: 1000\n"
    "      image_max_ppi: 600\n"
    "    web:\n"
    "      format: html_chunked\n"
    "      chunk_level: 2\n"
    "      search: false\n"
    "      before_publish: echo hi\n"
    "      after_publish: [one, two]\n"
    "      footnote_numbering: book\n"
    "    ebook:\n"
    "      format: epub\n"
    "      page_source: print\n"
    "      include_styles: false\n"
    "      highlight_code: false\n"
    "      pdf_tagged: false\n"
    "      pdf_a: maybe\n"
    "      bleed: 0\n"
    "      footnotes: side\n";

static bool strings_are(const bk_strings *l, const char *const *want,
                        size_t n) {
  if (l->n != n)
    return false;
  for (size_t i = 0; i < n; i++)
    if (!l->v[i] || strcmp(l->v[i], want[i]))
      return false;
  return true;
}

static void test_book(const bk_config *c) {
  const bk_book_conf *b = bk_config_book_conf(c);
  /* the texts as written: editions render them (test_edition) */
  CHECK_IS(b->title, "{{ book.author }}'s notes");
  CHECK(b->title_is_text);
  CHECK_IS(b->author, "Ann");
  CHECK_IS(b->edition, ""); /* the default, ~ */
  CHECK_IS(b->language, "en");
  CHECK_IS(b->publisher, "42");
  CHECK_IS(b->description, "Short");
  static const char *const short_[] = {"Short"}, *const kw[] = {"ink", "paper"};
  CHECK(strings_are(&b->description_list, short_, 1));
  CHECK(strings_are(&b->keywords, kw, 2));
  /* generator is kept whole: no version when the book gives none */
  CHECK_IS(b->generator_name, "Tool");
  CHECK_IS(b->generator_version, "");

  CHECK(b->nitems == 4);
  if (b->nitems != 4)
    return;
  const bk_item_conf *cover = &b->items[0], *ch = &b->items[1],
                     *app = &b->items[2], *after = &b->items[3];
  CHECK_IS(cover->element, "cover");
  CHECK_IS(cover->number, "");
  CHECK(cover->content == NULL && cover->title == NULL);
  CHECK(ch->index == 1);
  CHECK_IS(ch->number, "1");
  CHECK_IS(ch->content, "ch1.md");
  CHECK_IS(ch->title, "1984");
  CHECK(ch->map.type == TPL_MAP);
  CHECK(app->editions.n == 1 && !app->editions.excluded[0]);
  CHECK(app->formats.n == 1 && app->formats.excluded[0]);
  CHECK_IS(app->formats.names[0], "epub");

  /* editions:/formats:: a listed name admits, `not-` excludes, both
     filters must pass, no filter admits everything */
  const char *const eds[] = {"print", "web", "ebook"};
  const char *const fmts[] = {"pdf", "html_chunked", "epub"};
  const bool want[4][3] = {{true, true, true},
                           {true, true, true},
                           {true, false, false},
                           {false, true, false}};
  for (size_t i = 0; i < 4; i++)
    for (size_t k = 0; k < 3; k++)
      CHECK(bk_item_conf_in(&b->items[i], eds[k], fmts[k]) == want[i][k]);
  CHECK(!bk_filter_passes(&after->editions, "print"));
  CHECK(bk_filter_passes(&after->editions, "other"));
  CHECK(bk_filter_passes(&cover->formats, "anything"));
}

static void test_editions(const bk_config *c) {
  CHECK(bk_config_edition_conf(c, "nope") == NULL);
  const bk_edition_conf *base = bk_config_edition_conf(c, "base"),
                        *print = bk_config_edition_conf(c, "print"),
                        *web = bk_config_edition_conf(c, "web"),
                        *ebook = bk_config_edition_conf(c, "ebook");
  CHECK(base && print && web && ebook);
  if (!base || !print || !web || !ebook)
    return;
  /* a base for extends only has no format */
  CHECK_IS(base->name, "base");
  CHECK_IS(base->format, "");
  CHECK_IS(base->extends, "");

  /* print inherits from base what it does not set; format lower-cased */
  CHECK_IS(print->format, "pdf");
  CHECK_IS(print->extends, "base");
  CHECK(print->toc_deep == 3);
  static const char *const chapter[] = {"chapter"};
  CHECK(strings_are(&print->toc_elements, chapter, 1));
  CHECK(strings_are(&print->labels, chapter, 1));
  CHECK_IS(print->isbn, "9781234567897"); /* a number kept as text */
  CHECK(print->footnotes == 1);
  CHECK(print->footnote_numbering == 0);
  CHECK(print->has_bleed);
  CHECK_IS(print->bleed, "3mm");
  CHECK(print->crop_marks == BK_FLAG_TRUE);
  CHECK(print->pdf_a == BK_FLAG_UNSET);
  CHECK(!print->two_sided);
  CHECK(print->template_max_iterations == 1000);
  CHECK(print->template_max_output_mb == BK_DEFAULT_TEMPLATE_OUTPUT_MB);
  CHECK(print->image_max_megapixels == 0); /* the typesetter's default */
  CHECK(print->image_max_ppi == 600);
  CHECK(print->before_publish.n == 0 && print->after_publish.n == 0);
  tpl_value f = tpl_null();
  CHECK(print->map.type == TPL_MAP &&
        tpl_map_get_str(print->map.u.map, "format", 6, &f) &&
        f.type == TPL_STR && f.len == 3 && !memcmp(f.u.s, "pdf", 3));

  /* web: the defaults (book_config.c's edition_defaults) */
  CHECK_IS(web->format, "html_chunked");
  CHECK_IS(web->theme, "clean");
  CHECK_IS(web->images_base_dir, "images/");
  CHECK_IS(web->page_size, "A4");
  CHECK_IS(web->isbn, "");
  CHECK_IS(web->page_source, "");
  CHECK(web->toc_deep == 2);
  static const char *const toc[] = {"appendix", "chapter"};
  static const char *const labels[] = {"appendix", "chapter", "figure"};
  CHECK(strings_are(&web->toc_elements, toc, 2));
  CHECK(strings_are(&web->labels, labels, 3));
  CHECK(web->highlight_code && web->include_styles && web->two_sided &&
        web->pdf_tagged);
  CHECK(!web->search);
  CHECK(web->chunk_level == 2);
  CHECK(web->footnotes == 0 && web->footnote_numbering == 1);
  CHECK(!web->has_bleed && web->bleed == NULL);
  CHECK(web->crop_marks == BK_FLAG_UNSET);
  CHECK(web->template_max_iterations == BK_DEFAULT_TEMPLATE_ITERATIONS);
  CHECK(web->before_publish.n == 1 && !web->before_publish.list);
  CHECK_IS(web->before_publish.v[0], "echo hi");
  CHECK(web->after_publish.n == 2 && web->after_publish.list);
  CHECK_IS(web->after_publish.v[1], "two");

  /* ebook: options turned off, and values the pdf writer refuses */
  CHECK_IS(ebook->page_source, "print");
  CHECK(!ebook->include_styles && !ebook->highlight_code && !ebook->pdf_tagged);
  CHECK(ebook->search && ebook->chunk_level == 1);
  CHECK(ebook->pdf_a == BK_FLAG_BAD);
  CHECK(ebook->has_bleed);
  CHECK_IS(ebook->bleed, "0");
  CHECK(ebook->footnotes == -1);
}

/* A title written as a number is text for the writers, not for the seed
 * and the slug; a --configuration override reaches the structs. */
static void test_overrides(oc_arena *a) {
  const char text[] = "book:\n"
                      "  title: 1984\n"
                      "  contents: [{element: chapter}]\n"
                      "  editions: {web: {format: html}}\n";
  bk_config *c = bk_config_parse(
      a, text, strlen(text),
      "{\"book\": {\"editions\": {\"web\": {\"toc\": {\"deep\": 4}, "
      "\"theme\": \"tech\"}}}}",
      &rep);
  CHECK(c != NULL);
  if (!c)
    return;
  const bk_book_conf *b = bk_config_book_conf(c);
  CHECK_IS(b->title, "1984");
  CHECK(!b->title_is_text);
  CHECK(b->nitems == 1);
  const bk_edition_conf *web = bk_config_edition_conf(c, "web");
  CHECK(web && web->toc_deep == 4);
  CHECK(web && !strcmp(web->theme, "tech"));
}

/* ---- an edition of a book folder ------------------------------------ */

static char root[] = "/tmp/octavo-model-XXXXXX";

static void put(const char *rel, const char *text) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", root, rel);
  char *slash = strrchr(path, '/');
  *slash = 0;
  mkdir(path, 0755);
  *slash = '/';
  FILE *f = fopen(path, "w");
  if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
    perror(path);
    exit(2);
  }
}

static int unlink_one(const char *path, const struct stat *st, int flag,
                      struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(path);
}

static void test_edition(void) {
  put("config.yml", config);
  put("Contents/ch1.md", "# First\n\nText.\n\n## Second\n\nMore.\n");
  put("Contents/a.md", "# Notes\n");
  oc_arena *a = oc_arena_new();
  bk_config *c = bk_config_load(a, root, NULL, &rep);
  CHECK(c != NULL);
  bk_options opt = {.verbosity = -1};
  bk_edition e;
  int rc = c ? bk_edition_init(&e, c, root, "web", &opt, &rep) : -1;
  CHECK(rc == 0);
  if (rc == 0)
    rc = bk_edition_load_items(&e);
  CHECK(rc == 0);
  if (rc == 0) {
    const bk_book_conf *b = bk_config_book_conf(c);
    /* the edition's book has its texts rendered */
    CHECK_IS(e.bk.title, "Ann's notes");
    CHECK(e.ed == bk_config_edition_conf(c, "web"));
    /* the appendix is for print only */
    CHECK(e.nitems == 3);
    CHECK(e.items[0].conf == &b->items[0]);
    CHECK(e.items[1].conf == &b->items[1]);
    CHECK(e.items[2].conf == &b->items[3]);
    const bk_item *ch = &e.items[1];
    CHECK_IS(ch->element, "chapter");
    CHECK_IS(ch->title, "1984"); /* the entry's title wins */
    CHECK(ch->nheadings == 2);
    if (ch->nheadings == 2) {
      /* the leading H1 is the item's title */
      CHECK(ch->headings[0].level == 1);
      CHECK_IS(ch->headings[0].title, "1984");
      CHECK_IS(ch->headings[0].slug, ch->slug);
      CHECK_IS(ch->headings[0].label, ch->label);
      CHECK(ch->headings[1].level == 2);
      CHECK_IS(ch->headings[1].title, "Second");
    }
    /* an item without content gets one entry: its title and label */
    const bk_item *af = &e.items[2];
    CHECK(af->nheadings == 1 && af->headings[0].level == 1);
    CHECK_IS(af->headings[0].title, af->title);
    /* the templates' item.toc is made of the headings, in order */
    CHECK(ch->toc && ch->toc->len == 2);
    tpl_value t1 = ch->toc ? bk_get(ch->toc->items[1], "title") : tpl_null();
    CHECK(t1.type == TPL_STR && t1.safe && t1.len == 6 &&
          !memcmp(t1.u.s, "Second", 6));
    tpl_value url = ch->toc ? bk_get(ch->toc->items[1], "url") : tpl_null();
    char want[128];
    snprintf(want, sizeof want, "#%s", ch->headings[1].slug);
    CHECK(url.type == TPL_STR && url.len == strlen(want) &&
          !memcmp(url.u.s, want, url.len));
    /* item.config is the entry of book.contents itself */
    tpl_value contents = bk_get(e.book, "contents");
    CHECK(contents.type == TPL_LIST &&
          contents.u.list->items[1].u.map == ch->config.u.map);
  }
  if (c)
    bk_edition_free(&e);
  if (c) {
    /* an edition the book does not have is an error, not a crash */
    bk_edition none;
    CHECK(bk_edition_init(&none, c, root, "nope", &opt, &kept) == -1);
    CHECK_IS(last, "the book has no edition 'nope'");
    bk_edition_free(&none);
  }
  oc_arena_free(a);
}

int main(void) {
  if (!mkdtemp(root)) {
    perror("mkdtemp");
    return 2;
  }
  oc_arena *a = oc_arena_new();
  bk_config *c = bk_config_parse(a, config, strlen(config), NULL, &rep);
  CHECK(c != NULL);
  if (c) {
    test_book(c);
    test_editions(c);
  }
  test_overrides(a);
  oc_arena_free(a);
  test_edition();
  CHECK(diagnostics == 0);
  nftw(root, unlink_one, 16, FTW_DEPTH | FTW_PHYS);
  printf("model: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
