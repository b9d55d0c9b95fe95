/* Unit tests of hyphenation (runtime/typeset/ts_hyphen.c) with Debian's pattern
 * dictionaries: hyphen-en-us, hyphen-en-gb, hyphen-de (ISO8859-1), hyphen-fr
 * and hyphen-ca. The expected points are what those dictionaries give with
 * TeX's minimums (2 before a hyphen, 3 after). */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <hyphen.h>
#include <stdlib.h>

#include "oc_file.h"
#include "ts_hyphen.h"
#include "ts_hyphen_dict.h"

#include "check.h"

static ts_hyphenator *hy;

/* The word with a '-' at every point, e.g. "hy-phen-ation". */
static const char *marked(const char *lang, const char *word) {
  static char out[256];
  size_t pts[32], n = 0, len = strlen(word);
  if (ts_hyphenate(hy, lang, word, len, pts, 32, &n) != TS_HYPHEN_OK)
    return "(error)";
  size_t o = 0, from = 0;
  for (size_t i = 0; i < n && i < 32; i++) {
    memcpy(out + o, word + from, pts[i] - from);
    o += pts[i] - from;
    out[o++] = '-';
    from = pts[i];
  }
  memcpy(out + o, word + from, len - from);
  out[o + len - from] = '\0';
  return out;
}

static void test_english(void) {
  CHECK_STR(marked("en", "hyphenation"), "hy-phen-ation");
  CHECK_STR(marked("en-US", "typesetting"), "type-set-ting");
  CHECK_STR(marked("en", "encyclopedia"), "en-cy-clo-pe-dia");
  CHECK_STR(marked("en", "algorithm"), "al-go-rithm");
  /* Capitalised words as in lower case (the patterns are lower case:
     libhyphen alone gives "Hyphen-ation"); acronyms and codes stay whole. */
  CHECK_STR(marked("en", "Hyphenation"), "Hy-phen-ation");
  CHECK_STR(marked("en", "HYPHENATION"), "HYPHENATION");
  CHECK_STR(marked("en", "hyphenation2"), "hyphenation2");
  /* Punctuation around and inside: each run of letters on its own. */
  CHECK_STR(marked("en", "\xc2\xabhyphenation\xc2\xbb,"),
            "\xc2\xabhy-phen-ation\xc2\xbb,");
  CHECK_STR(marked("en", "self-hyphenation"), "self-hy-phen-ation");
  /* Short words and the right minimum: "dia" keeps 3, "ly" would not. */
  CHECK_STR(marked("en", "the"), "the");
  CHECK_STR(marked("en", ""), "");
  /* British patterns differ. */
  CHECK_STR(marked("en-GB", "hyphenation"), "hy-phen-a-tion");
  CHECK_STR(marked("en_gb", "hyphenation"), "hy-phen-a-tion");
}

/* Loading hyph_de_DE.dic takes libhyphen seconds (minutes under valgrind):
   --quick leaves German out; Dutch covers the ISO8859-1 path then. */
static void test_german(void) {
  /* hyph_de_DE.dic is ISO8859-1: offsets still count UTF-8 bytes. */
  CHECK_STR(marked("de", "Silbentrennung"), "Sil-ben-tren-nung");
  CHECK_STR(marked("de", "ver\xc3\xa4ndern"), "ver-\xc3\xa4n-dern");
  CHECK_STR(marked("de-CH", "Donaudampfschifffahrtsgesellschaft"),
            "Do-nau-dampf-schiff-fahrts-ge-sell-schaft");
  /* "Stra-ße" would leave 2 characters, under the right minimum. */
  CHECK_STR(marked("de", "Stra\xc3\x9f"
                         "e"),
            "Stra\xc3\x9f"
            "e");
  /* A letter ISO8859-1 lacks (U+0142): the word is left whole; a symbol
     is not part of the word. */
  CHECK_STR(marked("de", "Silben\xc5\x82trennung"), "Silben\xc5\x82trennung");
  CHECK_STR(marked("de", "Silbentrennung\xe2\x82\xac"),
            "Sil-ben-tren-nung\xe2\x82\xac");
}

static void test_french_dutch_catalan(void) {
  CHECK_STR(marked("nl", "woordafbreking"),
            "woord-af-bre-king"); /* ISO8859-1 */
  CHECK_STR(marked("fr", "d\xc3\xa9veloppement"), "d\xc3\xa9-ve-lop-pe-ment");
  CHECK_STR(marked("fr", "typographie"), "ty-po-gra-phie");
  /* Catalan "l·l": libhyphen's non-standard point is left out. */
  CHECK_STR(marked("ca", "col\xc2\xb7lecci\xc3\xb3"),
            "col\xc2\xb7lec-ci\xc3\xb3");
}

static void test_languages(void) {
  const char *path = NULL, *again = NULL;
  CHECK(ts_hyphen_load(hy, "pt-BR", &path) == TS_HYPHEN_OK);
  CHECK_STR(path, "/usr/share/hyphen/hyph_pt_BR.dic");
  CHECK(ts_hyphen_load(hy, "pt-BR", &again) == TS_HYPHEN_OK && again == path);
  CHECK(ts_hyphen_load(hy, "ca", &path) == TS_HYPHEN_OK);
  CHECK_STR(path, "/usr/share/hyphen/hyph_ca_ES.dic");
  CHECK(ts_hyphen_load(hy, "es", &path) == TS_HYPHEN_OK);
  CHECK_STR(path, "/usr/share/hyphen/hyph_es_ES.dic");
  CHECK(ts_hyphen_load(hy, "en-NZ", &path) == TS_HYPHEN_OK);
  CHECK_STR(path, "/usr/share/hyphen/hyph_en.dic");
  CHECK(ts_hyphen_load(hy, "EN_us", &path) == TS_HYPHEN_OK);
  CHECK_STR(path, "/usr/share/hyphen/hyph_en_US.dic");
  const char *langs[] = {"it", "nl", "pt", "fr-CA"};
  for (size_t i = 0; i < sizeof langs / sizeof langs[0]; i++)
    CHECK(ts_hyphen_load(hy, langs[i], NULL) == TS_HYPHEN_OK);

  size_t pts[4], n = 99;
  CHECK(ts_hyphenate(hy, "xx", "word", 4, pts, 4, &n) == TS_HYPHEN_NO_DICT);
  CHECK(n == 0);
  CHECK(ts_hyphen_load(hy, "xx", &path) == TS_HYPHEN_NO_DICT && !path);
  CHECK(ts_hyphen_load(hy, "klingon", NULL) == TS_HYPHEN_BAD_LANG);
  CHECK(ts_hyphen_load(hy, "", NULL) == TS_HYPHEN_BAD_LANG);
  CHECK(ts_hyphen_load(hy, "e", NULL) == TS_HYPHEN_BAD_LANG);

  /* More points than room: the count says how many there were. */
  CHECK(ts_hyphenate(hy, "en", "hyphenation", 11, pts, 1, &n) == TS_HYPHEN_OK);
  CHECK(n == 2 && pts[0] == 2);
  /* Invalid UTF-8 gives no points. */
  CHECK(ts_hyphenate(hy, "en", "hyph\xffnation", 11, pts, 4, &n) ==
        TS_HYPHEN_OK);
  CHECK(n == 0);
}

static void test_minimums(oc_arena *a) {
  ts_hyphenator *h = ts_hyphenator_new(a, NULL);
  ts_hyphenator_set_min(h, 3, 4);
  size_t pts[8], n = 0;
  CHECK(ts_hyphenate(h, "en", "hyphenation", 11, pts, 8, &n) == TS_HYPHEN_OK);
  CHECK(n == 1 && pts[0] == 6); /* hyphen-ation */
  /* A folder without dictionaries. */
  ts_hyphenator *none = ts_hyphenator_new(a, "/nonexistent");
  CHECK(ts_hyphen_load(none, "en", NULL) == TS_HYPHEN_NO_DICT);
}

/* hnj_hyphen_hyphenate2's marks for word with dictionary d, or NULL when it
 * failed; rep, pos and cut freed. */
static char *marks_of(HyphenDict *d, const char *word, size_t n) {
  char *marks = malloc(n + 5);
  char **rep = NULL;
  int *pos = NULL, *cut = NULL;
  int rc =
      hnj_hyphen_hyphenate2(d, word, (int)n, marks, NULL, &rep, &pos, &cut);
  if (rep) {
    for (size_t k = 0; k < n; k++)
      free(rep[k]);
    free(rep);
  }
  free(pos);
  free(cut);
  if (rc != 0) {
    free(marks);
    return NULL;
  }
  marks[n] = 0;
  return marks;
}

/* ts_hyphen_dict_load builds the automaton hnj_hyphen_load builds: every
 * pattern's letters, alone and run into the next pattern's (compounds,
 * and strings that cross patterns' fallbacks), are hyphenated alike. */
static void test_same_automaton(const char *file, bool replacements) {
  char path[256];
  snprintf(path, sizeof path, "/usr/share/hyphen/%s", file);
  oc_arena *a = oc_arena_new();
  bool unsupported = true;
  HyphenDict *ours = ts_hyphen_dict_load(a, path, &unsupported);
  CHECK(unsupported == replacements);
  if (!ours || unsupported) {
    CHECK(replacements && !ours);
    oc_arena_free(a);
    return;
  }
  HyphenDict *theirs = hnj_hyphen_load(path);
  size_t len;
  char *text = oc_read_file(path, &len);
  CHECK(theirs && text);
  if (!theirs || !text) {
    free(text);
    oc_arena_free(a);
    return;
  }
  CHECK(ours->lhmin == theirs->lhmin && ours->rhmin == theirs->rhmin &&
        ours->clhmin == theirs->clhmin && ours->crhmin == theirs->crhmin &&
        ours->utf8 == theirs->utf8 && !strcmp(ours->cset, theirs->cset) &&
        !ours->nextlevel == !theirs->nextlevel);
  char prev[128] = "", word[256];
  size_t words = 0, differ = 0;
  for (char *line = strchr(text, '\n'); line; line = strchr(line, '\n')) {
    line++;
    size_t n = 0;
    for (const char *c = line; *c > ' ' && n < 100; c++)
      if (!(*c >= '0' && *c <= '9') && *c != '.')
        word[n++] = *c;
    word[n] = 0;
    if (!n || n > 60 || (word[0] >= 'A' && word[0] <= 'Z') ||
        strpbrk(word, "%#/"))
      continue;
    size_t p = strlen(prev);
    for (int twice = 0; twice < 2; twice++) {
      size_t m = twice ? p + n : n;
      if (twice) {
        memmove(word + p, word, n + 1);
        memcpy(word, prev, p);
      }
      char *x = marks_of(ours, word, m), *y = marks_of(theirs, word, m);
      words++;
      if (!x || !y || strcmp(x, y) != 0)
        differ++;
      free(x);
      free(y);
    }
    memcpy(prev, word + p, n + 1);
  }
  CHECK(words > 1000 && differ == 0);
  if (differ)
    printf("%s: %zu of %zu words hyphenated differently\n", file, differ,
           words);
  free(text);
  hnj_hyphen_free(theirs);
  oc_arena_free(a);
}

int main(int argc, char **argv) {
  bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
  oc_arena *a = oc_arena_new();
  hy = ts_hyphenator_new(a, NULL);
  test_english();
  if (!quick)
    test_german();
  test_french_dutch_catalan();
  test_languages();
  test_minimums(a);
  test_same_automaton("hyph_en_US.dic", false);
  test_same_automaton("hyph_fr.dic", false);
  test_same_automaton("hyph_nl_NL.dic", false);
  test_same_automaton("hyph_ca_ES.dic", true);
  if (!quick)
    test_same_automaton("hyph_de_DE.dic", false);
  oc_arena_free(a);
  printf("hyphen: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
