/* Line breaking in text written without spaces between words: Han, kana
 * and bopomofo with their punctuation (Chinese and Japanese). Korean
 * (Hangul) is not among them: it breaks at spaces, as Korean typesetting
 * does. The classes here are the line-start and line-end prohibitions
 * (kinsoku) the engine enforces whatever finds the break opportunities.
 *
 * Unicode's line breaking rules (UAX #14) come from the caller through
 * ts_engine_input.line_breaks (the book side asks ICU, which the
 * typesetter may not link); ts_cjk_breaks completes and corrects them:
 * strict kinsoku always (small kana and the prolonged sound mark never
 * start a line, as ICU's strict rules and JIS X 4051 say), and breaks
 * around curly quotes next to Han or kana, which ICU 72 allows only in
 * Chinese and Japanese text (Unicode 15.1's LB19a, everywhere). */
#ifndef OCTAVO_TS_CJK_H
#define OCTAVO_TS_CJK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum ts_cjk_class {
  TS_CJK_NONE, /* not Han, kana or their punctuation (Latin, Hangul...) */
  TS_CJK_IDEO, /* a line may break before and after it */
  TS_CJK_OPEN, /* never at a line end: 「 （ 『 【 〔 《 */
  TS_CJK_CLOSE, /* never at a line start: 。 ， 、 」 ） ！ ？ ・ ー ゃ っ */
} ts_cjk_class;

/* Every code point below this is TS_CJK_NONE: Latin text pays one
   comparison a character. */
#define TS_CJK_FIRST 0x2E80u

ts_cjk_class ts_cjk_class_of(uint32_t cp);

/* Where a line may break inside cps[0..n), a run without spaces that holds
 * Han or kana: brk[i] is true when a break may come before cps[i]. On
 * entry brk holds Unicode's opportunities (all false when none are
 * known); on return only breaks next to Han or kana are left, the
 * prohibitions applied (breaks between two other characters, inside a
 * Latin word, are the word's own business: hyphenation, its hyphens). */
void ts_cjk_breaks(const uint32_t *cps, size_t n, bool *brk);

/* A language that breaks Han only at spaces (Korean: CSS's keep-all). */
bool ts_cjk_keep_all(const char *lang);

/* Chinese, Japanese or Korean: languages that are not hyphenated. */
bool ts_cjk_lang(const char *lang);

#endif
