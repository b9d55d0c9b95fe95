/* octavo_search alone (linked with octavo_base only): the index fed text
 * already read out of pages, as the book's side feeds it: sections and
 * their ids, titles and bodies given in pieces and spaces collapsed,
 * stems and forms, text outside a section, a title clipped, the names of
 * the stemmers, what a script must not hold raw, the same bytes each
 * time, and the cap on sections. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "check_search.h"
#include "si_index.h"

static void text(si_index *x, bool title, const char *s) {
  si_text(x, title, s, strlen(s));
}

static char *written(si_index *x) {
  size_t len;
  char *js = si_write(x, &len);
  CHECK(strlen(js) == len);
  si_free(x);
  return js;
}

/* Two pages, three sections; the body in pieces, with runs of spaces,
 * tabs and line ends. */
static char *two_pages(void) {
  si_index *x = si_new("en");
  CHECK(si_page(x, "one.html"));
  CHECK(si_section(x, ""));
  text(x, true, "Publishing");
  text(x, false, "She  publishes\n\tbooks;");
  text(x, false, " he published ");
  CHECK(si_section(x, "later"));
  text(x, true, "Later   on");
  text(x, false, "publishing, publishing, publishing");
  CHECK(si_page(x, "two.html"));
  CHECK(si_section(x, ""));
  text(x, true, "Two");
  text(x, false, "happy readers");
  return written(x);
}

static void test_pages(void) {
  char *js = two_pages();
  CHECK(strstr(js, "\"stemmer\":\"english\"") != NULL);
  CHECK(strstr(js, "\"pages\":[\"one.html\",\"two.html\"]") != NULL);
  CHECK(strstr(js, "[\n0,\"\",\"Publishing\",\n0,\"later\",\"Later on\",\n"
                   "1,\"\",\"Two\"]") != NULL);
  /* The bodies, spaces collapsed, trailing ones dropped. */
  check_texts(js, "She publishes books; he published|publishing, "
                  "publishing, publishing|happy readers");
  /* publish: section 0 in the title (delta 1: 4, +2: G... and three
   * times with the body: +1, H), section 1 three times (delta 1: 4 + 1,
   * F). */
  CHECK_STR(entry(js, "publish"), "publish ed es ing:HF");
  CHECK_STR(entry(js, "happi"), "happi =happy:M"); /* section 2: 3 * 4 */
  char *again = two_pages();
  CHECK_STR(again, js);
  free(again);
  free(js);
}

/* Text before any section goes nowhere; a section before any page is
 * refused; si_end ends one, and what follows it goes nowhere either. */
static void test_outside(void) {
  si_index *x = si_new("en");
  CHECK(!si_section(x, "early"));
  text(x, false, "lost");
  CHECK(si_page(x, "p.html"));
  text(x, false, "stray");
  CHECK(si_section(x, ""));
  text(x, false, "kept");
  si_end(x);
  text(x, false, "dropped");
  si_end(x);
  CHECK(si_dropped(x) == 0);
  char *js = written(x);
  CHECK(entry(js, "lost") == NULL && entry(js, "stray") == NULL &&
        entry(js, "drop") == NULL);
  CHECK_STR(entry(js, "kept"), "kept:E");
  check_texts(js, "kept");
  free(js);
}

/* A title is clipped to 200 code points, after a word when one ends in
 * the last fifth; the words past the cut are still found. */
static void test_clip(void) {
  si_index *x = si_new("en");
  si_page(x, "p.html");
  si_section(x, "long");
  for (int i = 0; i < 30; i++)
    text(x, true, "étoile ");
  text(x, true, "finalword");
  char *js = written(x);
  const char *t = strstr(js, "\"long\",\"");
  CHECK(t != NULL);
  if (t) {
    t += 8;
    size_t n = strcspn(t, "\"");
    /* 28 whole words of 7 code points (the space after the last cut):
     * 195 code points, 223 bytes */
    CHECK(n == 28 * 8 - 1);
    CHECK(!strncmp(t + n - 7, "étoile\"", 8));
  }
  CHECK(entry(js, "finalword") != NULL);
  free(js);
}

static void test_stemmers(void) {
  static const char *const names[][2] = {
      {"en", "english"},    {"pt_BR", "portuguese"},
      {"en-GB", "english"}, {"english", "english"},
      {"DE", "german"},     {"xx_YY", NULL},
      {"porter", NULL},     {"", NULL}};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    si_index *x = si_new(names[i][0]);
    const char *got = si_stemmer(x);
    if (names[i][1])
      CHECK_STR(got, names[i][1]);
    else
      CHECK(got == NULL);
    si_free(x);
  }
  si_index *x = si_new(NULL);
  CHECK(si_stemmer(x) == NULL);
  si_page(x, "p.html");
  si_section(x, "");
  text(x, false, "Publishing ÉTÉ 中文");
  char *js = written(x);
  CHECK(strstr(js, "\"stemmer\":null") != NULL);
  CHECK(entry(js, "publishing") != NULL && entry(js, "été") != NULL);
  CHECK(entry(js, "中文") != NULL && entry(js, "中") != NULL);
  free(js);
}

/* Names, ids and titles are escaped for a script; the text, in base64,
 * keeps its bytes. */
static void test_escaping(void) {
  si_index *x = si_new("en");
  si_page(x, "a\"</script>.html");
  si_section(x, "x\"y</");
  text(x, true, "A \xe2\x80\xa8 <b> & bad\xff");
  text(x, false, "</script> \x01");
  char *js = written(x);
  CHECK(strstr(js, "</") == NULL && strstr(js, "\xe2\x80\xa8") == NULL);
  CHECK(strstr(js, "\"a\\\"\\u003c/script\\u003e.html\"") != NULL);
  CHECK(strstr(js, "\"x\\\"y\\u003c/\"") != NULL);
  CHECK(strstr(js, "\"A \\u2028 \\u003cb\\u003e \\u0026 bad\\ufffd\"") != NULL);
  check_texts(js, "</script> \x01");
  free(js);
}

/* At most 100,000 sections: the next one and the next page are refused
 * and counted; the index is written with what it holds. */
static void test_cap(void) {
  si_index *x = si_new("en");
  CHECK(si_page(x, "p.html"));
  bool all = true;
  for (int i = 0; i < 100000; i++)
    all &= si_section(x, "");
  CHECK(all);
  CHECK(si_dropped(x) == 0);
  CHECK(!si_section(x, "over"));
  text(x, false, "nowhere");
  CHECK(!si_page(x, "q.html"));
  CHECK(si_dropped(x) == 2);
  char *js = written(x);
  CHECK(strstr(js, "q.html") == NULL && strstr(js, "over") == NULL);
  CHECK(entry(js, "nowher") == NULL);
  free(js);
}

int main(void) {
  test_pages();
  test_outside();
  test_clip();
  test_stemmers();
  test_escaping();
  test_cap();
  size_t len;
  const char *script = si_script(&len);
  CHECK(script && len > 1000 && strstr(script, "octavoSearchIndex"));
  printf("si: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
