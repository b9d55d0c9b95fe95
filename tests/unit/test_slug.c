/* Unit tests of slugs and the book's set of ids (runtime/book/book_slug.c).
 * Expected slugs follow Easybook's (ICU "Any-Latin; Latin-ASCII"), with
 * every run of separators turned into one '-' and other punctuation
 * dropped. */
#include <stdio.h>
#include <string.h>

#include <unicode/uclean.h>

#include "book_slug.h"

#include "check.h"

static bk_slugger *slugger;
static oc_arena *arena;

static const char *slug(const char *s) {
  return bk_slug(slugger, arena, s, strlen(s));
}

static void test_ascii(void) {
  CHECK_STR(slug("Hello World"), "hello-world");
  CHECK_STR(slug("  --Hello--  "), "hello");
  CHECK_STR(slug(""), "");
  CHECK_STR(slug("---"), "");
  CHECK_STR(slug("Chapter 1.2: Setup & Use"), "chapter-12-setup-use"); /* Easybook drops "." and ":" */
  CHECK_STR(slug("don't"), "dont"); /* as Easybook: "'" is dropped */
  CHECK_STR(slug("CamelCase42"), "camelcase42");
  /* len, not the NUL, ends the text. */
  CHECK_STR(bk_slug(slugger, arena, "abc def", 3), "abc");
}

static void test_accents(void) {
  CHECK_STR(slug("Chloë Poincaré"), "chloe-poincare");
  CHECK_STR(slug("Ça va? ¡Sí!"), "ca-va-si");
  CHECK_STR(slug("Straße"), "strasse");
  CHECK_STR(slug("Crème brûlée — à la carte…"), "creme-brulee-a-la-carte");
  CHECK_STR(slug("ﬁnal ＡＢＣ"), "final-abc"); /* compatibility forms */
  CHECK_STR(slug("Škoda Coöperate"), "skoda-cooperate");
  CHECK_STR(slug("“Quoted” ‘text’"), "quoted-text");
  CHECK_STR(slug("soft\xC2\xADhyphen"), "softhyphen"); /* U+00AD ignored */
}

static void test_other_scripts(void) {
  /* Easybook's fixture book5 gave this one. */
  CHECK_STR(slug("種の起源"), "zhongno-qi-yuan");
  CHECK_STR(slug("Привет, мир"), "privet-mir");
  CHECK_STR(slug("Ελληνικά"), "ellenika");
  /* Latin with Greek or Cyrillic takes a narrower transliterator than
     Any-Latin: the same slugs, mixed scripts included. */
  CHECK_STR(slug("Αθήνα και Москва"), "athena-kai-moskva");
  CHECK_STR(slug("Ψυχή – Жизнь – Žižek"), "psyche-zizn-zizek"); /* as uconv -x Any-Latin */
  CHECK_STR(slug("ΑΡΧΗ Ёлка ёж"), "arche-elka-ez");
  CHECK_STR(slug("Þingvellir Æsir Øre"), "thingvellir-aesir-ore");
  CHECK_STR(slug("1 ½ cups"), "1-12-cups");
}

static void test_html(void) {
  CHECK_STR(slug("Section <em>one</em>"), "section-one");
  CHECK_STR(slug("<code>bk_slug()</code> &amp; friends"), "bk-slug-friends");
  CHECK_STR(slug("a<br />b"), "a-b");
  CHECK_STR(slug("1 &lt; 2 &gt; 0 &quot;q&quot; &#39;s&#39;"), "1-2-0-q-s");
  CHECK_STR(slug("caf&#233; &#xE9;t&#XE9;"), "cafe-ete");
  CHECK_STR(slug("&#x7A2E;&#x306E;"), "zhongno");
  CHECK_STR(slug("a&nbsp;b"), "a-b");
  /* HTML's named references, as a browser reads them */
  CHECK_STR(slug("Caf&eacute; cr&egrave;me &amp;&hellip; &Uuml;ber"),
            "cafe-creme-uber");
  CHECK_STR(slug("&Alpha;&beta;&gamma; &euro;5"), "abg-5");
  /* Not entities, not tags: just characters. */
  CHECK_STR(slug("AT&T &unknown; &#; &#xZZ;"), "att-unknown-xzz");
  CHECK_STR(slug("a < b"), "a-b");
  CHECK_STR(slug("x <!-- note --> y"), "x-y");
}

static void test_idset(void) {
  bk_idset *ids = bk_idset_new(arena);
  CHECK(!bk_idset_has(ids, "intro"));
  CHECK(bk_idset_add(ids, "intro"));
  CHECK(bk_idset_has(ids, "intro"));
  CHECK(!bk_idset_add(ids, "intro"));
  CHECK_STR(bk_idset_unique(ids, "intro"), "intro-2");
  CHECK_STR(bk_idset_unique(ids, "intro"), "intro-3");
  CHECK_STR(bk_idset_unique(ids, "other"), "other");
  CHECK_STR(bk_idset_unique(ids, ""), "section");
  CHECK_STR(bk_idset_unique(ids, ""), "section-2");
  /* A suffix someone already took is skipped. */
  CHECK(bk_idset_add(ids, "x-2"));
  CHECK(bk_idset_add(ids, "x"));
  CHECK_STR(bk_idset_unique(ids, "x"), "x-3");
  CHECK(bk_idset_has(ids, "x-3"));

  /* The set copies what it keeps. */
  char buf[8] = "temp";
  CHECK(bk_idset_add(ids, buf));
  strcpy(buf, "gone");
  CHECK(bk_idset_has(ids, "temp"));
  CHECK(!bk_idset_has(ids, "gone"));

  /* Growth keeps everything, and the n-th duplicate costs one probe. */
  char id[32];
  for (int i = 0; i < 5000; i++) {
    snprintf(id, sizeof id, "id%d", i);
    CHECK(bk_idset_add(ids, id));
  }
  for (int i = 0; i < 5000; i++) {
    snprintf(id, sizeof id, "id%d", i);
    if (!bk_idset_has(ids, id))
      CHECK(!"lost an id");
  }
  const char *last = NULL;
  for (int i = 0; i < 20000; i++)
    last = bk_idset_unique(ids, "exercises");
  CHECK_STR(last, "exercises-20000");
}

int main(void) {
  arena = oc_arena_new();
  slugger = bk_slugger_new();
  test_ascii();
  test_accents();
  test_html();
  test_other_scripts();
  test_idset();
  bk_slugger_free(slugger);
  /* A second slugger opens its own transliterator. */
  slugger = bk_slugger_new();
  CHECK_STR(slug("種"), "zhong");
  bk_slugger_free(slugger);
  bk_slugger_free(NULL);
  oc_arena_free(arena);
  u_cleanup(); /* ICU's caches, so that valgrind sees no leak */
  printf("test_slug: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
