/* Han and kana line breaking: the kinsoku classes and the rules that
 * complete Unicode's break opportunities (ts_cjk.h). */
#include "ts_cjk.h"

#include <ctype.h>

#define B(n) (1ull << (n))

/* The prohibited characters of the blocks where they are, as bits from
 * the block's first code point: CJK punctuation (brackets, 、。 々 〜),
 * hiragana and katakana (small kana, iteration marks, ゠ ・ ー), full-
 * and halfwidth forms (！ ％ ） ， ． ： ； ？ ］ ｝ and their openings,
 * halfwidth small kana and ｰ). Small kana and the prolonged sound mark
 * never start a line: JIS X 4051's strict rules, ICU's
 * Conditional_Japanese_Starter taken as a non-starter. */
static const struct {
  uint32_t base;
  uint64_t close, open;
} blocks[] = {
    {0x3000,
     B(0x01) | B(0x02) | B(0x03) | B(0x05) | B(0x09) | B(0x0B) | B(0x0D) |
         B(0x0F) | B(0x11) | B(0x15) | B(0x17) | B(0x19) | B(0x1B) | B(0x1C) |
         B(0x1E) | B(0x1F) | B(0x3B),
     B(0x08) | B(0x0A) | B(0x0C) | B(0x0E) | B(0x10) | B(0x14) | B(0x16) |
         B(0x18) | B(0x1A) | B(0x1D)},
    {0x3040, B(0x01) | B(0x03) | B(0x05) | B(0x07) | B(0x09) | B(0x23), 0},
    {0x3080,
     B(0x03) | B(0x05) | B(0x07) | B(0x0E) | B(0x15) | B(0x16) | B(0x1B) |
         B(0x1C) | B(0x1D) | B(0x1E) | B(0x20) | B(0x21) | B(0x23) | B(0x25) |
         B(0x27) | B(0x29),
     0},
    {0x30C0,
     B(0x03) | B(0x23) | B(0x25) | B(0x27) | B(0x2E) | B(0x35) | B(0x36) |
         B(0x3B) | B(0x3C) | B(0x3D) | B(0x3E),
     0},
    {0xFF00,
     B(0x01) | B(0x05) | B(0x09) | B(0x0C) | B(0x0E) | B(0x1A) | B(0x1B) |
         B(0x1F) | B(0x3D),
     B(0x08) | B(0x3B)},
    {0xFF40,
     B(0x1D) | B(0x20) | B(0x21) | B(0x23) | B(0x24) | B(0x25) |
         (B(0x31) - B(0x27)), /* ｧ to ｰ */
     B(0x1B) | B(0x1F) | B(0x22)},
};

ts_cjk_class ts_cjk_class_of(uint32_t cp) {
  if (cp < TS_CJK_FIRST)
    return TS_CJK_NONE;
  if (cp < 0x3000)
    return cp < 0x2FE0 ? TS_CJK_IDEO : TS_CJK_NONE; /* radicals */
  if ((cp >= 0x3130 && cp < 0x3190) || (cp >= 0xFFA0 && cp < 0xFFE0) ||
      (cp >= 0xA000 && cp < 0xF900) || (cp >= 0xFB00 && cp < 0xFF00) ||
      (cp >= 0xFFF0 && cp < 0x1F200) || (cp >= 0x1F300 && cp < 0x20000) ||
      cp >= 0x40000)
    return TS_CJK_NONE;            /* Hangul, Yi, specials, emoji... */
  if (cp >= 0x31F0 && cp < 0x3200) /* small katakana for Ainu */
    return TS_CJK_CLOSE;
  if (cp == 0xFF9E || cp == 0xFF9F) /* halfwidth sound marks */
    return TS_CJK_CLOSE;
  for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++) {
    if (cp < blocks[i].base || cp >= blocks[i].base + 64)
      continue;
    uint64_t bit = B(cp - blocks[i].base);
    if (blocks[i].close & bit)
      return TS_CJK_CLOSE;
    if (blocks[i].open & bit)
      return TS_CJK_OPEN;
    break;
  }
  return TS_CJK_IDEO;
}

/* Curly quotes: Chinese uses them as its quotation marks, English too. */
static bool opening_quote(uint32_t cp) { return cp == 0x201C || cp == 0x2018; }
static bool closing_quote(uint32_t cp) { return cp == 0x201D || cp == 0x2019; }

void ts_cjk_breaks(const uint32_t *cps, size_t n, bool *brk) {
  if (!n)
    return;
  brk[0] = false;
  ts_cjk_class a = ts_cjk_class_of(cps[0]);
  for (size_t i = 1; i < n; i++) {
    ts_cjk_class b = ts_cjk_class_of(cps[i]);
    bool ok;
    if (a == TS_CJK_NONE && b == TS_CJK_NONE) {
      ok = false;
    } else {
      bool a_ends = a == TS_CJK_IDEO || a == TS_CJK_CLOSE;
      bool b_starts = b == TS_CJK_IDEO || b == TS_CJK_OPEN;
      ok = brk[i] || (a_ends && b_starts) ||
           (a_ends && opening_quote(cps[i])) ||
           (closing_quote(cps[i - 1]) && b_starts);
      if (b == TS_CJK_CLOSE || a == TS_CJK_OPEN || opening_quote(cps[i - 1]) ||
          closing_quote(cps[i]))
        ok = false;
    }
    brk[i] = ok;
    a = b;
  }
}

/* lang is the two-letter language ll, with or without a region. */
static bool lang_is(const char *lang, const char *ll) {
  return lang && tolower((unsigned char)lang[0]) == ll[0] &&
         tolower((unsigned char)lang[1]) == ll[1] &&
         (lang[2] == 0 || lang[2] == '-' || lang[2] == '_');
}

bool ts_cjk_keep_all(const char *lang) { return lang_is(lang, "ko"); }

bool ts_cjk_lang(const char *lang) {
  return lang_is(lang, "zh") || lang_is(lang, "ja") || lang_is(lang, "ko");
}
