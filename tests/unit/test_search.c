/* Unit tests of the website's search index from the pages' HTML
 * (runtime/book/book_search.c, over runtime/search/si_index.c):
 * English words under their Snowball stems with the forms the book used,
 * sections cut at headings with ids, code blocks left out, Han and kana by
 * characters and pairs, a language without a stemmer, what a script must
 * not hold raw escaped, postings delta-encoded, the sections' texts
 * deflated in base64, the same bytes each time, and the caps. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "book_search.h"

#include "check.h"
#include "check_search.h"

static char *index_of(const char *lang, const char *title, const char *html) {
  si_index *s = si_new(lang);
  bk_search_add_page(s, "p.html", title, html);
  size_t len;
  char *js = si_write(s, &len);
  si_free(s);
  CHECK(strlen(js) == len);
  return js;
}

static void test_english(void) {
  char *js = index_of(
      "en", "Publishing",
      "<p>She <em>publishes</em> books; he published a 2.</p>\n"
      "<h2 id=\"later\">Later</h2>\n<p>Happy readers publish &amp; read.</p>"
      "<pre><code>secretword</code></pre><p>Un<em>done</em></p>"
      "<prelude>overture</prelude>");
  CHECK(strstr(js, "\"stemmer\":\"english\"") != NULL);
  /* Two sections: the page's top (id "") and #later. */
  CHECK(strstr(js, "0,\"\",\"Publishing\",\n0,\"later\",\"Later\"]") != NULL);
  check_texts(js, "She publishes books; he published a 2.|Happy readers "
                  "publish & read. Undone overture");
  /* publish: forms "ed", "es", "ing"; in section 0 (delta 1 from none:
   * 4, +2 in the title, +1 three times or more: 7, H) and section 1
   * (delta 1: 4, E). */
  CHECK_STR(entry(js, "publish"), "publish ed es ing:HE");
  /* A form that is not stem + suffix is written whole. */
  CHECK_STR(entry(js, "happi"), "happi =happy:I");
  CHECK(entry(js, "undon") != NULL);      /* "Un<em>done</em>" is one word */
  CHECK(entry(js, "secretword") == NULL); /* code blocks are left out */
  CHECK(entry(js, "overtur") != NULL);    /* not <pre> */
  CHECK(entry(js, "a") == NULL && entry(js, "2") == NULL); /* one character */
  CHECK(entry(js, "he") != NULL);
  free(js);
}

static void test_sections_and_tf(void) {
  char *js = index_of("en", "T",
                      "<p>cat cat cat</p><h3 id=\"a\">A</h3><p>dog</p>"
                      "<h3>no id</h3><p>cat</p>"
                      "<h3 id=\"b\">B</h3><p>cat</p>");
  /* cat: section 0 three times (1*4+1 = 5, F), section 1 (#a, via the
   * heading without an id: delta 1, E), section 2 (#b: E). */
  CHECK_STR(entry(js, "cat"), "cat:FEE");
  check_texts(js, "cat cat cat|dog no id cat|cat");
  free(js);
  /* The last section of a page keeps its text when the next page comes. */
  si_index *s = si_new("en");
  bk_search_add_page(s, "1.html", "One",
                     "<p>first</p><h2 id=\"e\">E</h2>"
                     "<p>last words</p>");
  bk_search_add_page(s, "2.html", "Two", "<p>second</p>");
  size_t len;
  js = si_write(s, &len);
  si_free(s);
  CHECK(strstr(js, "\n0,\"e\",\"E\",\n1,\"\",\"Two\"]") != NULL);
  check_texts(js, "first|last words|second");
  CHECK_STR(entry(js, "last"), "last:I"); /* section 1: (1 + 1) * 4 */
  free(js);
}

static void test_cjk(void) {
  char *js = index_of("zh", "纸与墨", "<p>中文排版。Hello</p>");
  CHECK(strstr(js, "\"stemmer\":null") != NULL);
  /* Characters and pairs, never across the full stop. */
  CHECK(entry(js, "中") != NULL);
  CHECK(entry(js, "中文") != NULL);
  CHECK(entry(js, "文排") != NULL);
  CHECK(entry(js, "排版") != NULL);
  CHECK(entry(js, "版。") == NULL);
  CHECK(entry(js, "纸与") != NULL);         /* the title's words too */
  CHECK_STR(entry(js, "hello"), "hello:E"); /* lower-cased, not stemmed */
  free(js);
  /* Kana, and kana next to Latin letters. */
  js = index_of("ja", "", "<p>ひらがなabc</p>");
  CHECK(entry(js, "ひら") != NULL);
  CHECK(entry(js, "なa") == NULL);
  CHECK(entry(js, "abc") != NULL);
  free(js);
}

static void test_unknown_language(void) {
  char *js = index_of("xx_YY", "", "<p>Publishing ÉTÉ</p>");
  CHECK(strstr(js, "\"stemmer\":null") != NULL);
  CHECK(entry(js, "publishing") != NULL);
  CHECK(entry(js, "été") != NULL);
  free(js);
  js = index_of("pt_BR", "", "<p>livros</p>");
  CHECK(strstr(js, "\"stemmer\":\"portuguese\"") != NULL);
  free(js);
}

static void test_escaping(void) {
  char *js = index_of(
      "en", "A \"quoted\" &lt;/script&gt; title",
      "<h2 id=\"x&quot;y\">H</h2><p>a\\b &lt;/script&gt; \xe2\x80\xa8 line"
      " \x01 bad\xff byte &#0; &#x110000; &#60; &# -5; &#x;</p>");
  CHECK(strstr(js, "</") == NULL);
  CHECK(strstr(js, "\xe2\x80\xa8") == NULL);
  CHECK(strstr(js, "\\u003c/script\\u003e") != NULL);
  CHECK(strstr(js, "A \\\"quoted\\\" \\u003c/script\\u003e title") != NULL);
  /* The text, in base64, holds its bytes as they are: the browser reads
     them as UTF-8, a bad byte as U+FFFD. */
  char *t = texts_of(js);
  CHECK(t && strstr(t, "a\\b </script> \xe2\x80\xa8 line \x01 bad\xff byte "
                       "\xef\xbf\xbd \xef\xbf\xbd < &# -5; &#x;") != NULL);
  free(t);
  /* The id as the browser reads it (entities decoded), escaped for the
   * script. */
  CHECK(strstr(js, ",\"x\\\"y\",") != NULL);
  free(js);
}

/* HTML's named references in titles, headings, ids and text are read as
 * the browser reads them. */
static void test_named_references(void) {
  char *js = index_of("fr", "Caf&eacute;",
                      "<h2 id=\"d&eacute;j&agrave;\">D&eacute;j&agrave; "
                      "vu</h2><p>cr&egrave;me&nbsp;br&ucirc;l&eacute;e</p>");
  CHECK(strstr(js, ",\"déjà\",\"Déjà vu\"") != NULL);
  CHECK(strstr(js, "eacute") == NULL);
  CHECK(entry(js, "cafe") != NULL || entry(js, "caf") != NULL);
  check_texts(js, "|crème\xc2\xa0"
                  "brûlée");
  free(js);
}

static void test_reproducible(void) {
  const char *html = "<p>zeta alpha beta alpha gamma</p><h2 id=\"s\">S</h2>"
                     "<p>beta delta</p>";
  char *a = index_of("en", "T", html), *b = index_of("en", "T", html);
  CHECK_STR(a, b);
  /* Sorted by stem. */
  const char *w = strstr(a, "\"words\":\"");
  CHECK(w && strstr(w, "alpha:") < strstr(w, "beta:") &&
        strstr(w, "beta:") < strstr(w, "delta:") &&
        strstr(w, "gamma:") < strstr(w, "zeta:"));
  free(a);
  free(b);
}

/* Many distinct words: linear work, capped growth, a count of what was
 * left out, and long tokens that are not words. */
static void test_caps(void) {
  size_t n = 260000;
  char *html = malloc(n * 8 + 200);
  char *p = html;
  p += sprintf(p, "<p>");
  for (size_t i = 0; i < n; i++)
    p += sprintf(p, "w%06zu ", i);
  memset(p, 'x', 100);
  p += 100;
  sprintf(p, "</p><h2 id=\"unclosed\">never closed");
  si_index *s = si_new("en");
  bk_search_add_page(s, "p.html", "T", html);
  CHECK(si_dropped(s) > 0);
  size_t len;
  char *js = si_write(s, &len);
  CHECK(entry(js, "w000000") != NULL);
  CHECK(entry(js, "w259999") == NULL);
  CHECK(strstr(js, "xxxxxxxxxx") == NULL ||
        strstr(js, "xxxxxxxxxx") < strstr(js, "\"words\""));
  free(js);
  si_free(s);
  free(html);
}

int main(void) {
  test_english();
  test_sections_and_tf();
  test_cjk();
  test_unknown_language();
  test_escaping();
  test_named_references();
  test_reproducible();
  test_caps();
  size_t len;
  CHECK(si_script(&len) && len > 1000);
  printf("search: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
