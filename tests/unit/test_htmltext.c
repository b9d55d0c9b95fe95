/* Unit tests of the book's HTML text reader (runtime/book/book_htmltext.c):
 * named references from HTML's table, numeric ones with U+FFFD for what is
 * no character, tags and attributes, each piece's bytes in the input, raw
 * text, and broken markup read to the end without a fault. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book_htmltext.h"

#include "check.h"

/* The pieces of html as one line each: "T[text]at-end" ('R' for a
 * reference, 'W' for raw text), "<name>at-end" ("<name/>" when empty),
 * "</name>at-end", "!at-end" for the rest; or with text_only its text
 * alone, tags left out. Heap; the caller frees. */
static char *walk(const char *html, bool text_only) {
  oc_sb b;
  oc_sb_init(&b, NULL, 256);
  bk_htreader r;
  bk_ht_token t;
  bk_ht_init(&r, html, strlen(html));
  while (bk_ht_next(&r, &t)) {
    if (text_only) {
      if (t.kind == BK_HT_TEXT)
        oc_sb_add(&b, t.text, t.len);
      continue;
    }
    switch (t.kind) {
    case BK_HT_TEXT:
      oc_sb_printf(&b, "%c[%.*s]",
                   t.ref   ? 'R'
                   : t.raw ? 'W'
                           : 'T',
                   (int)t.len, t.text);
      break;
    case BK_HT_OPEN:
      oc_sb_printf(&b, "<%.*s%s>", (int)t.name_len, t.name, t.empty ? "/" : "");
      break;
    case BK_HT_CLOSE:
      oc_sb_printf(&b, "</%.*s>", (int)t.name_len, t.name);
      break;
    default:
      oc_sb_addc(&b, '!');
    }
    oc_sb_printf(&b, "%zu-%zu\n", t.at, t.end);
  }
  CHECK(t.kind == BK_HT_END);
  return oc_sb_take(&b);
}

static char *pieces(const char *html) { return walk(html, false); }
static char *text(const char *html) { return walk(html, true); }

#define CHECK_TEXT(html, want)                                                 \
  do {                                                                         \
    char *got_ = text(html);                                                   \
    CHECK_STR(got_, want);                                                     \
    free(got_);                                                                \
  } while (0)

#define CHECK_PIECES(html, want)                                               \
  do {                                                                         \
    char *got_ = pieces(html);                                                 \
    CHECK_STR(got_, want);                                                     \
    free(got_);                                                                \
  } while (0)

static void test_named(void) {
  CHECK_TEXT("caf&eacute; cr&egrave;me", "café crème");
  CHECK_TEXT("&amp;&lt;&gt;&quot;&apos;", "&<>\"'");
  CHECK_TEXT("a&nbsp;b&ndash;c&mdash;d&hellip;", "a\xc2\xa0"
                                                 "b–c—d…");
  CHECK_TEXT("&Eacute;&eacute;&euro;&thetasym;", "Éé€ϑ");
  /* unknown, cut or without ';': text as written; names are
     case-sensitive */
  CHECK_TEXT("&bogus; &amp &eacute &EACUTE; &; & x", "&bogus; &amp &eacute "
                                                     "&EACUTE; &; & x");
  CHECK_TEXT("&aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa;",
             "&aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa;");
  char out[4];
  size_t n;
  CHECK(bk_ht_ref("&eacute;x", 9, out, &n) == 8 && n == 2 &&
        !memcmp(out, "é", 2));
  CHECK(bk_ht_ref("&eacute;", 7, out, &n) == 0); /* the ';' is beyond n */
  CHECK(bk_ht_ref("eacute;", 7, out, &n) == 0);
}

static void test_numeric(void) {
  CHECK_TEXT("&#233;&#xE9;&#XE9;&#xe9;&#0000233;", "ééééé");
  CHECK_TEXT("&#x1F600;&#65;&#x10FFFF;", "😀A\xf4\x8f\xbf\xbf");
  /* no character: U+FFFD */
  CHECK_TEXT("&#0;&#xD800;&#xDFFF;&#x110000;&#99999999999999999999;",
             "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
  /* not references */
  CHECK_TEXT("&#; &#x; &#65 &#x41x; &#-1;", "&#; &#x; &#65 &#x41x; &#-1;");
}

static void test_offsets(void) {
  CHECK_PIECES("a&lt;b<i>c</i>", "T[a]0-1\nR[<]1-5\nT[b]5-6\n<i>6-9\nT[c]9-10\n"
                                 "</i>10-14\n");
  CHECK_PIECES("<!DOCTYPE html><p>&#233;t&eacute;<br/></p><!-- c -->x",
               "!0-15\n<p>15-18\nR[é]18-24\nT[t]24-25\nR[é]25-33\n"
               "<br/>33-38\n</p>38-42\n!42-52\nT[x]52-53\n");
  /* a '>' inside a quoted value does not end the tag */
  CHECK_PIECES("<a title=\"1>0\" href='x'>y</a >",
               "<a>0-24\nT[y]24-25\n</a>25-30\n");
  /* '<' and '&' that start nothing are text with their neighbours */
  CHECK_PIECES("1 < 2 & 3 <> 4", "T[1 < 2 & 3 <> 4]0-14\n");
}

static void test_attributes(void) {
  const char *html = "<h2 id=\"caf&eacute;&amp;x\" class='a b' data-x=plain "
                     "hidden\nlang = \"en\" ID=dup>";
  bk_htreader r;
  bk_ht_token t;
  bk_ht_init(&r, html, strlen(html));
  CHECK(bk_ht_next(&r, &t) && t.kind == BK_HT_OPEN && bk_ht_is(&t, "H2"));
  oc_sb b;
  oc_sb_init(&b, NULL, 16);
  CHECK(bk_ht_get_attr(&t, "id", &b));
  CHECK_STR(oc_sb_cstr(&b), "café&x");
  b.len = 0;
  CHECK(bk_ht_get_attr(&t, "hidden", &b) && b.len == 0);
  CHECK(bk_ht_get_attr(&t, "LANG", &b));
  CHECK_STR(oc_sb_cstr(&b), "en");
  CHECK(!bk_ht_get_attr(&t, "title", &b));
  oc_sb_free(&b);
  /* all of them, values as written */
  const char *want[][2] = {{"id", "caf&eacute;&amp;x"},
                           {"class", "a b"},
                           {"data-x", "plain"},
                           {"hidden", NULL},
                           {"lang", "en"},
                           {"ID", "dup"}};
  size_t pos = 0, k = 0;
  bk_ht_attr a;
  while (bk_ht_attr_next(&t, &pos, &a) && k < 6) {
    CHECK(a.name_len == strlen(want[k][0]) &&
          !memcmp(a.name, want[k][0], a.name_len));
    CHECK(want[k][1] ? a.value && a.value_len == strlen(want[k][1]) &&
                           !memcmp(a.value, want[k][1], a.value_len)
                     : !a.value);
    k++;
  }
  CHECK(k == 6);
  CHECK(!bk_ht_next(&r, &t));
  bk_ht_init(&r, "x", 1);
  CHECK(bk_ht_next(&r, &t) && !bk_ht_attr_next(&t, &pos, &a));
}

static void test_raw(void) {
  CHECK_PIECES("<script>a<b>&amp;</scriptx></SCRIPT>c",
               "<script>0-8\nW[a<b>&amp;</scriptx>]8-27\n</SCRIPT>27-36\n"
               "T[c]36-37\n");
  CHECK_PIECES("<style></style><script/>&amp;",
               "<style>0-7\n</style>7-15\n<script/>15-24\nR[&]24-29\n");
  CHECK_PIECES("<p><![CDATA[a<b>&amp;]]></p>",
               "<p>0-3\nW[a<b>&amp;]3-24\n</p>24-28\n");
}

static void test_broken(void) {
  /* cut by the end: a tag or a quote never closed is dropped, a comment
     or raw text runs to the end */
  CHECK_PIECES("a<b", "T[a]0-1\n");
  CHECK_PIECES("a<b href=\"x>y", "T[a]0-1\n");
  CHECK_PIECES("a</b", "T[a]0-1\n");
  CHECK_PIECES("a<!-- b", "T[a]0-1\n!1-7\n");
  CHECK_PIECES("<![CDATA[x", "W[x]0-10\n");
  CHECK_PIECES("<script>x</scr", "<script>0-8\nW[x</scr]8-14\n");
  CHECK_PIECES("<", "T[<]0-1\n");
  CHECK_PIECES("&", "T[&]0-1\n");
  CHECK_PIECES("</>x", "!0-3\nT[x]3-4\n");
  CHECK_PIECES("<?php ?>", "!0-8\n");
  CHECK_PIECES("", "");
  /* a NUL is a byte like any other */
  bk_htreader r;
  bk_ht_token t;
  bk_ht_init(&r, "a\0<b>", 5);
  CHECK(bk_ht_next(&r, &t) && t.kind == BK_HT_TEXT && t.len == 2);
  CHECK(bk_ht_next(&r, &t) && t.kind == BK_HT_OPEN && t.at == 2);
  CHECK(!bk_ht_next(&r, &t) && !bk_ht_next(&r, &t));
  bk_ht_init(&r, NULL, 0);
  CHECK(!bk_ht_next(&r, &t));
}

/* A megabyte of references, tags and comments: one pass. */
static void test_linear(void) {
  const char *unit = "&#1111;&eacute<a b='>'c=d>x</a y><!-- -->";
  size_t k = strlen(unit), units = (1 << 20) / k;
  char *s = malloc(units * k + 1);
  for (size_t i = 0; i < units; i++)
    memcpy(s + i * k, unit, k);
  s[units * k] = 0;
  char *t = text(s);
  CHECK(strlen(t) == units * strlen("ї&eacutex"));
  CHECK(!strncmp(t, "ї&eacutexї", strlen("ї&eacutexї")));
  free(t);
  free(s);
}

static void test_decode(void) {
  oc_sb b;
  oc_sb_init(&b, NULL, 16);
  bk_ht_decode("x&lt;&#x41;&y", 13, &b);
  CHECK_STR(oc_sb_cstr(&b), "x<A&y");
  oc_sb_free(&b);
}

int main(void) {
  test_named();
  test_numeric();
  test_offsets();
  test_attributes();
  test_raw();
  test_broken();
  test_linear();
  test_decode();
  printf("htmltext: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
