/* Line breaking in Chinese and Japanese: ICU's opportunities as the book
 * side finds them (lb_linebreak.c), checked for the line-start and
 * line-end prohibitions, and the engine's rules that complete them
 * (ts_cjk.c), with and without ICU. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <utf8proc.h>

#include "check.h"
#include "lb_linebreak.h"
#include "ts_cjk.h"

static size_t decode(const char *s, uint32_t *cps, size_t cap) {
  size_t n = 0, len = strlen(s);
  for (size_t i = 0; i < len && n < cap;) {
    utf8proc_int32_t cp;
    utf8proc_ssize_t k = utf8proc_iterate((const utf8proc_uint8_t *)s + i,
                                          (utf8proc_ssize_t)(len - i), &cp);
    if (k <= 0)
      break;
    cps[n++] = (uint32_t)cp;
    i += (size_t)k;
  }
  return n;
}

/* s with '|' where a line may break; icu: ask ICU first (as publish does),
 * else the engine's rules alone; raw: ICU's answer, not completed. */
static char *marked(lb_breaker *lb, const char *lang, const char *s, bool raw) {
  uint32_t cps[256];
  bool brk[256] = {0};
  size_t n = decode(s, cps, 256);
  if (lb)
    CHECK(lb_breaks(lb, lang, cps, n, brk));
  if (!raw)
    ts_cjk_breaks(cps, n, brk);
  static char out[2048];
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    if (brk[i] && i > 0)
      out[o++] = '|';
    o += (size_t)utf8proc_encode_char((utf8proc_int32_t)cps[i],
                                      (utf8proc_uint8_t *)out + o);
  }
  out[o] = 0;
  return out;
}

/* ICU's strict rules for Japanese keep ch off a line's start (CLOSE) or
 * end (OPEN), and the engine, which enforces it without ICU, has ch in
 * that class. */
static void check_prohibited(lb_breaker *lb, const char *ch, ts_cjk_class cls) {
  char s[32], want[32];
  snprintf(s, sizeof s, "字%s字", ch);
  snprintf(want, sizeof want, cls == TS_CJK_CLOSE ? "字%s|字" : "字|%s字", ch);
  CHECK_STR(marked(lb, "ja", s, true), want);
  uint32_t cp[2];
  decode(ch, cp, 2);
  CHECK(ts_cjk_class_of(cp[0]) == cls);
}

/* ICU's strict rules for Japanese already forbid every line start and line
 * end the engine forbids, but for the curly quotes (Unicode 15.1's LB19a,
 * after ICU 72). */
static void test_icu_kinsoku(lb_breaker *lb) {
  static const char *no_start[] = {"。", "，", "、", "」", "）", "』", "】",
                                   "〕", "！", "？", "・", "ー", "ゃ", "ゅ",
                                   "ょ", "っ", "ァ", "ッ", "ャ", "ヵ", "々",
                                   "〜", "ゝ", "：", "；", "》", "〉", "〙"};
  static const char *no_end[] = {"「", "（", "『", "【", "〔", "《", "〈"};
  for (size_t i = 0; i < sizeof no_start / sizeof *no_start; i++)
    check_prohibited(lb, no_start[i], TS_CJK_CLOSE);
  for (size_t i = 0; i < sizeof no_end / sizeof *no_end; i++)
    check_prohibited(lb, no_end[i], TS_CJK_OPEN);
  /* Curly quotes: ICU 72 breaks around them next to Han in Chinese and
     Japanese, not in other languages (a Chinese quotation in an English
     book); Unicode 15.1's LB19a allows it everywhere, and so does the
     engine. */
  CHECK_STR(marked(lb, "zh", "说“你好”然", true), "说|“你|好”|然");
  CHECK_STR(marked(lb, "en", "说“你好”然", false), "说|“你|好”|然");
}

static void test_rules(lb_breaker *lb) {
  CHECK_STR(marked(lb, "zh", "他说：“你好。”然后走了。", false),
            "他|说：|“你|好。”|然|后|走|了。");
  CHECK_STR(marked(lb, "ja", "ちょっと待ってください。", false),
            "ちょっ|と|待っ|て|く|だ|さ|い。");
  CHECK_STR(marked(lb, "ja", "「禁則」（きんそく）", false),
            "「禁|則」|（き|ん|そ|く）");
  CHECK_STR(marked(lb, "ja", "コーヒー", false), "コー|ヒー");
  CHECK_STR(marked(lb, "ja", "ジョン・スミス", false), "ジョ|ン・|ス|ミ|ス");
  CHECK_STR(marked(lb, "ja", "……と言った", false), "……|と|言っ|た");
  /* Latin inside: ICU breaks where it meets Han; the word itself stays
     whole (its hyphenation is the engine's business) */
  CHECK_STR(marked(lb, "zh", "使用Octavo排版", false), "使|用|Octavo|排|版");
  CHECK_STR(marked(lb, "zh", "用well-known词", false), "用|well-known|词");
  CHECK_STR(marked(lb, "zh", "（Octavo）。", false), "（Octavo）。");
  /* without ICU: between Han and kana only */
  CHECK_STR(marked(NULL, "zh", "使用Octavo排版。", false),
            "使|用Octavo排|版。");
  CHECK_STR(marked(NULL, "ja", "「禁則」っ", false), "「禁|則」っ");
  /* Hangul is not among them: Korean breaks at spaces */
  CHECK_STR(marked(lb, "ko", "한국어", false), "한국어");
  CHECK(ts_cjk_class_of(0xAC00) == TS_CJK_NONE);
  CHECK(ts_cjk_class_of('a') == TS_CJK_NONE);
  CHECK(ts_cjk_class_of(0x4E00) == TS_CJK_IDEO);
  CHECK(ts_cjk_class_of(0x20000) == TS_CJK_IDEO);
  CHECK(ts_cjk_keep_all("ko") && ts_cjk_keep_all("ko-KR") &&
        ts_cjk_keep_all("KO_kr"));
  CHECK(ts_cjk_lang("zh-Hans") && ts_cjk_lang("ja") && !ts_cjk_lang("en"));
  CHECK(!ts_cjk_keep_all("kok") && !ts_cjk_keep_all("ja") &&
        !ts_cjk_keep_all(NULL) && !ts_cjk_keep_all("k"));
}

/* A language ICU does not know, none, characters beyond the BMP, one
 * iterator reused across languages. */
static void test_languages(lb_breaker *lb) {
  CHECK_STR(marked(lb, NULL, "汉字。", false), "汉|字。");
  CHECK_STR(marked(lb, "xx-bogus-tag!", "汉字。", false), "汉|字。");
  CHECK_STR(marked(lb, "zh-Hant-TW", "𠀀𠀁字", false), "𠀀|𠀁|字");
  CHECK_STR(marked(lb, "ja", "𠀀っ", false), "𠀀っ");
}

int main(void) {
  lb_breaker *lb = lb_new();
  test_icu_kinsoku(lb);
  test_rules(lb);
  test_languages(lb);
  lb_free(lb);
  printf("cjk: %d passed, %d failed\n", passed, failed);
  return failed != 0;
}
