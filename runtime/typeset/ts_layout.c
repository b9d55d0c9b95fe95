/* The node tree to the vertical list: block boxes with collapsing margins,
 * padding, borders and backgrounds; paragraphs made of their inline content
 * (text in faces with fallbacks, kerning and ligatures, hyphenation points,
 * leaders, page references, links, anchors) and broken into lines by the
 * total-fit line breaker; list markers hung in the margin. Pages are the
 * next stage's business: this one only says where breaks are allowed, and
 * at what price (penalties for widows, orphans, keeps). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <utf8proc.h>

#include "oc_alloc.h"
#include "oc_sb.h"
#include "ts_engine_int.h"

/* ---- shaped words, cached ------------------------------------------- */

typedef struct word_entry {
  const ts_face *face;
  uint32_t *cps; /* the key */
  size_t ncps;
  uint32_t *codes; /* shaped */
  int32_t *kern;
  size_t n;
  long width; /* 1/1000 em */
  bool lig;
} word_entry;

struct ts_wordcache {
  oc_arena *a;
  ts_hidx idx;
};

ts_wordcache *ts_wordcache_new(oc_arena *a) {
  ts_wordcache *w = oc_arena_calloc(a, 1, sizeof *w);
  w->a = a;
  ts_hidx_init(&w->idx, a, 4096);
  return w;
}

/* Ligatures belong to proportional faces set without letter-spacing: a
 * monospaced face keeps one glyph a character (code must read as typed). */
static bool is_monospaced(const ts_face *f) {
  return ts_face_advance(f, 'i') == ts_face_advance(f, 'm') &&
         ts_face_advance(f, 'i') > 0;
}

typedef struct word_key {
  const ts_face *face;
  const uint32_t *cps;
  size_t n;
  bool lig;
} word_key;

static bool word_eq(const void *entry, const void *key) {
  const word_entry *e = entry;
  const word_key *k = key;
  return e->face == k->face && e->ncps == k->n && e->lig == k->lig &&
         memcmp(e->cps, k->cps, k->n * sizeof *k->cps) == 0;
}

static const word_entry *shape_lig(ts_ctx *c, const ts_face *face,
                                   const uint32_t *cps, size_t n, bool lig) {
  ts_wordcache *w = c->words;
  lig = lig && !is_monospaced(face);
  word_key key = {face, cps, n, lig};
  uint64_t h = ts_hash_bytes(TS_HASH_SEED ^ (uint64_t)face->id ^ lig, cps,
                             n * sizeof *cps);
  word_entry *e = ts_hidx_get(&w->idx, h, word_eq, &key);
  if (e)
    return e;
  e = oc_arena_alloc(w->a, sizeof *e);
  e->face = face;
  e->lig = lig;
  e->ncps = n;
  e->cps = oc_arena_alloc(w->a, (n ? n : 1) * sizeof *cps);
  memcpy(e->cps, cps, n * sizeof *cps);
  e->codes = oc_arena_alloc(w->a, (n ? n : 1) * sizeof *e->codes);
  e->kern = oc_arena_alloc(w->a, (n ? n : 1) * sizeof *e->kern);
  e->n = ts_face_shape(c->fonts, face, cps, n, true, lig, e->codes, e->kern,
                       &e->width);
  ts_hidx_put(&w->idx, h, e);
  return e;
}

static const word_entry *shape(ts_ctx *c, const ts_face *face,
                               const uint32_t *cps, size_t n) {
  return shape_lig(c, face, cps, n, false);
}

/* ---- inline content --------------------------------------------------- */

typedef enum piece_kind {
  P_TEXT,
  P_LEADER,
  P_PAGEREF,
  P_ANCHOR,
  P_BR,
  P_SPACE, /* an inline box's margin, border and padding: width in ref */
  P_IMAGE, /* text: the file; width and height in pt */
  P_NOTE,  /* a footnote called here: ref_style indexes c->calls */
} piece_kind;

typedef struct piece {
  piece_kind kind;
  const ts_cstyle *st;
  const char *text; /* text, leader fill, pageref target, anchor id */
  size_t len;
  const char *href;
  int ref_style;
  double width;     /* P_SPACE, P_IMAGE */
  double height;    /* P_IMAGE */
  double width_pct; /* P_IMAGE: a percentage of the measure, or 0 */
} piece;

typedef struct para {
  oc_arena *ar; /* the paragraph's scratch, freed once it is set */
  piece *p;
  size_t n, cap;
} para;

static void push_piece(ts_ctx *c, para *pa, piece pc) {
  (void)c;
  if (!pa->ar)
    pa->ar = oc_arena_new();
  pa->p = oc_arena_grow_array(pa->ar, pa->p, pa->n, &pa->cap, pa->n + 1,
                              sizeof *pa->p);
  pa->p[pa->n++] = pc;
}

/* What an item of the paragraph is, for drawing it once the lines are
 * known. */
typedef enum ref_kind {
  R_NONE, /* glue between words, the paragraph's end */
  R_TEXT,
  R_INDENT,
  R_HYPHEN,
  R_LEADER,
  R_PAGEREF,
  R_ANCHOR,
  R_IMAGE, /* text: the file; size: its height */
  R_NOTE,  /* ref_style: the call's index in c->calls */
} ref_kind;

typedef struct item_ref {
  ref_kind kind;
  const ts_cstyle *st;
  const ts_face *face;
  double size, rise;
  const word_entry *w;
  const char *href;
  const char *text; /* anchor id, pageref target, leader fill */
  int ref_style;
} item_ref;

typedef struct itemizer {
  ts_ctx *c;
  oc_arena *ar;   /* scratch */
  double measure; /* the paragraph's line width */
  const ts_cstyle *block;
  ts_item *items;
  item_ref *refs;
  size_t n, cap;
  /* the word being gathered: code points with their piece */
  uint32_t *wcp;
  const piece **wpc;
  size_t wn, wcap;
  bool space_pending;
  const piece *space_piece;
  bool has_leader;
  bool code; /* a code block: a word too long for a line breaks anywhere */
} itemizer;

static void add_item(itemizer *z, ts_item it, item_ref r) {
  if (z->n == z->cap) {
    /* room for 64 more at least: a paragraph has many items */
    size_t cap = z->cap;
    z->items = oc_arena_grow_array(z->ar, z->items, z->n, &cap, z->n + 64,
                                   sizeof *z->items);
    z->refs = oc_arena_grow_array(z->ar, z->refs, z->n, &z->cap, z->n + 64,
                                  sizeof *z->refs);
  }
  z->items[z->n] = it;
  z->refs[z->n] = r;
  z->n++;
}

static double rise_of(const ts_cstyle *st, const ts_cstyle *block) {
  if (st->vertical_align == TS_VA_SUPER)
    return block->size * 0.38;
  if (st->vertical_align == TS_VA_SUB)
    return -block->size * 0.2;
  return 0;
}

/* The face for cp in st, falling back when st's face lacks it; NULL (after
 * one warning per code point kind) when nothing installed has it. */
static const ts_face *face_for(ts_ctx *c, const ts_face *face, uint32_t cp,
                               unsigned line) {
  if (ts_face_has(face, cp))
    return face;
  const ts_face *f = ts_fonts_fallback(c->fonts, face, cp);
  if (f)
    return f;
  if (c->warned_cp < 20)
    oc_report(c->rep, OC_WARNING, c->in->name, line, 0,
              "no installed font has the character U+%04X; it is left out%s",
              cp,
              cp > 0xFFFF ? " (libharu sets only the Basic Multilingual "
                            "Plane)"
                          : "");
  c->warned_cp++;
  return NULL;
}

/* The face for one character of a style, and the character as set: the
 * small-capitals face where it has the character; else capitals at 80%
 * for lower-case letters in small caps; else the style's face; else a
 * fallback face that has it. NULL when none has it. */
static const ts_face *face_of_char(ts_ctx *c, const ts_cstyle *st,
                                   const ts_face *sc, uint32_t cp,
                                   uint32_t *out, bool *lower) {
  *lower = false;
  *out = cp;
  if (sc && ts_face_has(sc, cp))
    return sc;
  if (st->small_caps && utf8proc_islower((int32_t)cp)) {
    *out = (uint32_t)utf8proc_toupper((int32_t)cp);
    *lower = true;
  }
  return face_for(c, st->face, *out, 0);
}

/* Adds one box per run of one face and size for cps[0..n) (all of piece
 * pc): a fallback face is used for the characters the style's face lacks
 * only, and small capitals are synthesised where no small-caps face has
 * them. */
static void add_boxes(itemizer *z, const piece *pc, const uint32_t *cps,
                      size_t n) {
  ts_ctx *c = z->c;
  const ts_cstyle *st = pc->st;
  const ts_face *sc =
      st->small_caps ? ts_fonts_small_caps(c->fonts, st->face) : NULL;
  uint32_t buf[256];
  size_t i = 0;
  while (i < n) {
    uint32_t u;
    bool lower;
    const ts_face *f = face_of_char(c, st, sc, cps[i], &u, &lower);
    if (!f) {
      i++; /* reported by face_for */
      continue;
    }
    size_t k = 0;
    buf[k++] = u;
    i++;
    while (i < n && k < sizeof buf / sizeof buf[0]) {
      uint32_t u2;
      bool lower2;
      const ts_face *f2 = face_of_char(c, st, sc, cps[i], &u2, &lower2);
      if (f2 != f || lower2 != lower)
        break;
      buf[k++] = u2;
      i++;
    }
    /* the face will be drawn: its font can start loading now */
    ts_announce_face(c, f);
    const word_entry *w = shape_lig(c, f, buf, k, st->letter_spacing == 0);
    double size = lower ? st->size * 0.8 : st->size;
    double width = w->width * size / 1000.0 + st->letter_spacing * (double)w->n;
    add_item(z, ts_box(width),
             (item_ref){R_TEXT, st, f, size, rise_of(st, z->block), w, pc->href,
                        NULL, 0});
  }
}

static bool is_letter(uint32_t cp) {
  utf8proc_category_t cat = utf8proc_category((int32_t)cp);
  return cat >= UTF8PROC_CATEGORY_LU && cat <= UTF8PROC_CATEGORY_LO;
}

static double hyphen_width(ts_ctx *c, const ts_cstyle *st) {
  uint32_t h = '-';
  const word_entry *w = shape(c, st->face, &h, 1);
  return w->width * st->size / 1000.0;
}

/* Hyphenation points by word: a book repeats its words, libhyphen's
 * patterns cost a microsecond a word. */
typedef struct hyph_entry {
  const char *word;
  size_t len;
  uint8_t n;
  uint8_t points[31];
} hyph_entry;

struct ts_hyphcache {
  ts_hidx idx;
};

typedef struct hyph_key {
  const char *w;
  size_t len;
} hyph_key;

static bool hyph_eq(const void *entry, const void *key) {
  const hyph_entry *e = entry;
  const hyph_key *k = key;
  return e->len == k->len && memcmp(e->word, k->w, k->len) == 0;
}

static bool hyphenate_cached(ts_ctx *c, const char *w, size_t len,
                             size_t *points, size_t *n) {
  ts_hyphcache *h = c->hyphs;
  if (!h) {
    h = c->hyphs = oc_arena_calloc(c->a, 1, sizeof *h);
    ts_hidx_init(&h->idx, c->a, 4096);
  }
  uint64_t hv = ts_hash_bytes(TS_HASH_SEED, w, len);
  hyph_key key = {w, len};
  hyph_entry *e = ts_hidx_get(&h->idx, hv, hyph_eq, &key);
  if (!e) {
    size_t got = 0;
    if (ts_hyphenate(c->hyph, c->lang, w, len, points, 31, &got) !=
        TS_HYPHEN_OK)
      got = 0;
    e = oc_arena_alloc(c->a, sizeof *e);
    e->word = oc_arena_strndup(c->a, w, len);
    e->len = len;
    e->n = (uint8_t)(got > 31 ? 31 : got);
    for (size_t i = 0; i < e->n; i++)
      e->points[i] = (uint8_t)points[i];
    ts_hidx_put(&h->idx, hv, e);
  }
  for (size_t i = 0; i < e->n; i++)
    points[i] = e->points[i];
  *n = e->n;
  return true;
}

/* Ends the word being gathered: boxes, with hyphenation points and the
 * breaks after explicit hyphens and dashes between them. */
static void flush_word_compute(itemizer *z) {
  ts_ctx *c = z->c;
  size_t n = z->wn;
  if (!n)
    return;
  z->wn = 0;
  /* Split at piece changes; hyphenate a word that is all one piece. */
  bool one = true;
  for (size_t i = 1; i < n; i++)
    if (z->wpc[i] != z->wpc[0])
      one = false;
  const piece *p0 = z->wpc[0];
  size_t points[64], npoints = 0;
  /* Code is never hyphenated: a monospaced face reads as typed. */
  bool mono = is_monospaced(p0->st->face);
  if (one && p0->st->hyphens && c->lang_ok && n >= 5 && !mono &&
      p0->st->white_space != TS_WS_PRE) {
    char utf8[512];
    size_t bl = 0;
    size_t off[130];
    bool fits = n < 128;
    for (size_t i = 0; fits && i < n; i++) {
      off[i] = bl;
      if (bl + 4 >= sizeof utf8) {
        fits = false;
        break;
      }
      bl += (size_t)utf8proc_encode_char((int32_t)z->wcp[i],
                                         (utf8proc_uint8_t *)utf8 + bl);
    }
    if (fits && bl < 255) {
      off[n] = bl;
      size_t bp[64], nb = 0;
      if (hyphenate_cached(c, utf8, bl, bp, &nb)) {
        /* byte offsets to code point indexes */
        size_t k = 0;
        for (size_t i = 0; i < nb; i++) {
          while (k < n && off[k] < bp[i])
            k++;
          if (k < n && off[k] == bp[i])
            points[npoints++] = k;
        }
      }
    }
  }
  /* Only a word wider than the measure may break anywhere. */
  bool too_long = false;
  if ((n > 16 || c->break_words) && z->measure > 0) {
    double w = 0;
    for (size_t i = 0; i < n; i++)
      w += ts_face_advance(z->wpc[i]->st->face, z->wcp[i]) *
           z->wpc[i]->st->size / 1000.0;
    too_long = w > z->measure;
  }
  size_t start = 0, pi = 0;
  for (size_t i = 0; i <= n; i++) {
    bool end = i == n;
    bool piece_change = !end && z->wpc[i] != z->wpc[start];
    bool hyph = !end && pi < npoints && points[pi] == i;
    /* after an explicit hyphen or dash with letters around it */
    bool exh = !end && i >= 2 &&
               (z->wcp[i - 1] == '-' || z->wcp[i - 1] == 0x2013 ||
                z->wcp[i - 1] == 0x2014 || z->wcp[i - 1] == '/') &&
               is_letter(z->wcp[i]) && i - start >= 2 && !mono &&
               z->wpc[i - 1]->st->white_space != TS_WS_PRE;
    /* A word longer than a line could be (a URL, a token of code) may
       break anywhere, at a price, rather than run into the margin. */
    bool any = !end && too_long &&
               ((i - start >= 4 && n - i >= 4) || c->break_words || z->code);
    if (!end && !piece_change && !hyph && !exh && !any)
      continue;
    if (i > start)
      add_boxes(z, z->wpc[start], z->wcp + start, i - start);
    if (hyph) {
      const ts_cstyle *st = z->wpc[i - 1]->st;
      add_item(z, ts_hyphen_point(hyphen_width(c, st), c->bp.hyphen_penalty),
               (item_ref){R_HYPHEN, st, st->face, st->size, 0, NULL,
                          z->wpc[i - 1]->href, NULL, 0});
      pi++;
    } else if (any && !exh) {
      add_item(z, ts_penalty(0, 3000, false),
               (item_ref){R_NONE, NULL, NULL, 0, 0, NULL, NULL, NULL, 0});
    } else if (exh) {
      bool slash = z->wcp[i - 1] == '/';
      add_item(z, ts_penalty(0, slash ? 200 : c->bp.exhyphen_penalty, !slash),
               (item_ref){R_NONE, NULL, NULL, 0, 0, NULL, NULL, NULL, 0});
    }
    while (pi < npoints && points[pi] <= i)
      pi++;
    start = i;
  }
}

/* A word's boxes and penalties, by style and code points: a book repeats
 * its words, and a word's items depend on nothing else (its link is
 * patched in on the way out). Words of more than 16 characters, whose
 * emergency breaks depend on the measure, and words of several styles are
 * set each time. */
typedef struct wordit {
  const ts_cstyle *st, *block;
  uint32_t *cps;
  size_t n;
  ts_item *items;
  item_ref *refs;
  size_t nitems;
} wordit;

/* The layout's caches for the whole render (every pass): words' items,
 * the elements by id (for target-text and target-counter), and the ids
 * already reported missing, so that each is reported once. */
struct ts_worditems {
  ts_hidx idx;
  ts_hidx ids;
  bool ids_built;
  const char **warned;
  size_t nwarned, cwarned;
};

static struct ts_worditems *layout_cache(ts_ctx *c) {
  if (!c->worditems) {
    c->worditems = oc_arena_calloc(c->a, 1, sizeof *c->worditems);
    ts_hidx_init(&c->worditems->idx, c->a, 8192);
  }
  return c->worditems;
}

static bool wordit_eq(const void *entry, const void *key) {
  const wordit *e = entry, *k = key;
  return e->st == k->st && e->block == k->block && e->n == k->n &&
         memcmp(e->cps, k->cps, k->n * sizeof *k->cps) == 0;
}

static void flush_word(itemizer *z) {
  ts_ctx *c = z->c;
  size_t n = z->wn;
  if (!n)
    return;
  const piece *p0 = z->wpc[0];
  bool one = n <= 16 && !c->break_words;
  for (size_t i = 1; one && i < n; i++)
    if (z->wpc[i] != p0)
      one = false;
  if (!one) {
    flush_word_compute(z);
    return;
  }
  struct ts_worditems *wc = layout_cache(c);
  uint64_t h = TS_HASH_SEED ^ (uint64_t)(uintptr_t)p0->st;
  h = (h ^ (uint64_t)(uintptr_t)z->block) * 1099511628211ull;
  h = ts_hash_bytes(h, z->wcp, n * sizeof *z->wcp);
  wordit key = {p0->st, z->block, z->wcp, n, NULL, NULL, 0};
  const wordit *e = ts_hidx_get(&wc->idx, h, wordit_eq, &key);
  if (e) {
    for (size_t k = 0; k < e->nitems; k++) {
      item_ref r = e->refs[k];
      r.href = p0->href;
      add_item(z, e->items[k], r);
    }
    z->wn = 0;
    return;
  }
  size_t first = z->n;
  wordit *ne = oc_arena_alloc(c->a, sizeof *ne);
  *ne = key;
  ne->cps = oc_arena_alloc(c->a, n * sizeof *ne->cps);
  memcpy(ne->cps, z->wcp, n * sizeof *ne->cps);
  flush_word_compute(z);
  size_t ni = z->n - first;
  ne->nitems = ni;
  ne->items = oc_arena_alloc(c->a, (ni ? ni : 1) * sizeof *ne->items);
  ne->refs = oc_arena_alloc(c->a, (ni ? ni : 1) * sizeof *ne->refs);
  memcpy(ne->items, z->items + first, ni * sizeof *ne->items);
  for (size_t k = 0; k < ni; k++) {
    ne->refs[k] = z->refs[first + k];
    ne->refs[k].href = NULL;
  }
  ts_hidx_put(&wc->idx, h, ne);
}

static void word_push(itemizer *z, uint32_t cp, const piece *pc) {
  if (z->wn == z->wcap) {
    size_t cap = z->wcap;
    z->wcp = oc_arena_grow_array(z->ar, z->wcp, z->wn, &cap, z->wn + 64,
                                 sizeof *z->wcp);
    z->wpc = oc_arena_grow_array(z->ar, z->wpc, z->wn, &z->wcap, z->wn + 64,
                                 sizeof *z->wpc);
  }
  z->wcp[z->wn] = cp;
  z->wpc[z->wn] = pc;
  z->wn++;
}

static double space_width(ts_ctx *c, const ts_cstyle *st) {
  uint32_t sp = ' ';
  const ts_face *f = ts_face_has(st->face, sp) ? st->face : st->face;
  const word_entry *w = shape(c, f, &sp, 1);
  return w->width * st->size / 1000.0 + st->letter_spacing;
}

static void flush_space(itemizer *z) {
  if (!z->space_pending)
    return;
  z->space_pending = false;
  const ts_cstyle *st = z->space_piece->st;
  double w = space_width(z->c, st);
  /* Spaces in code do not stretch (a monospaced face keeps its columns). */
  bool justify =
      z->block->align == TS_ALIGN_JUSTIFY && !is_monospaced(st->face);
  if (st->white_space == TS_WS_NOWRAP)
    add_item(z, ts_penalty(0, TS_INF_PENALTY, false),
             (item_ref){R_NONE, NULL, NULL, 0, 0, NULL, NULL, NULL, 0});
  /* TeX's proportions (stretch half the space, shrink a third), with at
     least a sixth of an em to stretch: faces with narrow spaces (EB
     Garamond's is a fifth of an em) would otherwise justify badly. */
  double stretch = w / 2 > st->size / 6 ? w / 2 : st->size / 6;
  add_item(
      z, ts_glue(w, justify ? stretch : 0, justify ? w / 3 : 0),
      (item_ref){R_NONE, st, NULL, 0, 0, NULL, z->space_piece->href, NULL, 0});
}

static uint32_t transform(const ts_cstyle *st, uint32_t cp, bool word_start) {
  switch (st->text_transform) {
  case TS_TT_UPPER:
    return (uint32_t)utf8proc_toupper((int32_t)cp);
  case TS_TT_LOWER:
    return (uint32_t)utf8proc_tolower((int32_t)cp);
  case TS_TT_CAPITALIZE:
    return word_start ? (uint32_t)utf8proc_totitle((int32_t)cp) : cp;
  default:
    return cp;
  }
}

static void itemize_text(itemizer *z, const piece *pc) {
  const utf8proc_uint8_t *s = (const utf8proc_uint8_t *)pc->text;
  size_t len = pc->len;
  int ws = pc->st->white_space;
  bool pre = ws == TS_WS_PRE || ws == TS_WS_PRE_WRAP;
  bool keep_nl = pre || ws == TS_WS_PRE_LINE;
  bool line_start = z->n == 0 && z->wn == 0;
  for (size_t i = 0; i < len;) {
    utf8proc_int32_t cp;
    utf8proc_ssize_t k =
        utf8proc_iterate(s + i, (utf8proc_ssize_t)(len - i), &cp);
    if (k <= 0) {
      i++;
      continue;
    }
    i += (size_t)k;
    if (cp == '\n' && keep_nl) {
      flush_word(z);
      z->space_pending = false;
      add_item(z, ts_penalty(0, TS_INF_PENALTY, false),
               (item_ref){R_NONE, NULL, NULL, 0, 0, NULL, NULL, NULL, 0});
      add_item(z, ts_fil_glue(0),
               (item_ref){R_NONE, NULL, NULL, 0, 0, NULL, NULL, NULL, 0});
      add_item(z, ts_forced_break(),
               (item_ref){R_NONE, NULL, NULL, 0, 0, NULL, NULL, NULL, 0});
      line_start = true;
      continue;
    }
    if (cp == '\t' && pre) {
      /* tabs to the next multiple of 8 columns are beyond a proportional
         measure; four spaces read as code does */
      for (int t = 0; t < 4; t++)
        word_push(z, ' ', pc);
      continue;
    }
    if (cp == ' ' || cp == '\n' || cp == '\t' || cp == '\r') {
      if (pre) {
        /* Spaces of code: the first after a word may break the line; the
           others, and those that indent a line, are kept as boxes. */
        if (z->wn && z->wcp[z->wn - 1] != ' ' && !line_start) {
          flush_word(z);
          z->space_pending = true;
          z->space_piece = pc;
          flush_space(z);
        } else {
          word_push(z, ' ', pc);
        }
        continue;
      }
      flush_word(z);
      if (z->n > 0 || z->wn > 0) {
        z->space_pending = true;
        z->space_piece = pc;
      }
      continue;
    }
    if (cp == 0xAD) /* soft hyphen: the hyphenator finds its own points */
      continue;
    if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0))
      continue;
    if (cp == 0xA0 || cp == 0x202F) {
      /* no break here, but the space stretches with the others */
      flush_word(z);
      z->space_pending = false;
      add_item(z, ts_penalty(0, TS_INF_PENALTY, false),
               (item_ref){R_NONE, NULL, NULL, 0, 0, NULL, NULL, NULL, 0});
      double w = space_width(z->c, pc->st) * (cp == 0x202F ? 0.6 : 1);
      bool justify = z->block->align == TS_ALIGN_JUSTIFY && cp == 0xA0;
      add_item(z, ts_glue(w, justify ? w / 2 : 0, justify ? w / 3 : 0),
               (item_ref){R_NONE, pc->st, NULL, 0, 0, NULL, pc->href, NULL, 0});
      continue;
    }
    flush_space(z);
    line_start = false;
    bool word_start = z->wn == 0;
    word_push(z, transform(pc->st, (uint32_t)cp, word_start), pc);
  }
}

/* ---- lines ------------------------------------------------------------ */

typedef struct strut {
  double above, below;
} strut;

static strut strut_of(const ts_cstyle *st) {
  const ts_face *f = st->face;
  double a = f->ascent * st->size / 1000.0;
  double d = -f->descent * st->size / 1000.0;
  double half = (st->line_height - (a + d)) / 2;
  return (strut){a + half, d + half};
}

static void vl_push(ts_ctx *c, ts_vitem it) {
  ts_vlist *v = &c->vl;
  if (v->n == v->cap)
    OC_GROW(v->items, v->cap, v->n + 1024);
  v->items[v->n++] = it;
}

/* ---- the block layout's state ---------------------------------------- */

typedef struct pending {
  double mpos, mneg; /* collapsing margins */
  bool have_margin;
  bool keep;          /* the previous block asked to be kept with this */
  int brk;            /* a forced break waiting for content */
  const char *marker; /* a list item's marker for the next line */
  const ts_cstyle *marker_style;
  bool marker_inside; /* list-style-position: inside: set in the line */
  const char **anchors;
  size_t nanchors, canchors;
  struct pending_string {
    const char *name, *value;
  } * strings; /* string-set values waiting for the next line */
  size_t nstrings, cstrings;
  bool reset;
  long reset_value;
} pending;

typedef struct lay {
  ts_ctx *c;
  pending pd;
  const char *page_in_force;
  const char *page_wanted;
  bool started;    /* any content yet */
  int avoid_depth; /* inside elements with break-inside: avoid */
  int entry_depth; /* the depth before the first content of such an element
                      (a break before it is allowed), -1 when none */
} lay;

static void add_anchor(lay *L, const char *id) {
  pending *p = &L->pd;
  p->anchors =
      oc_arena_grow_array(L->c->pa, p->anchors, p->nanchors, &p->canchors,
                          p->nanchors + 1, sizeof *p->anchors);
  p->anchors[p->nanchors++] = id;
}

/* Before any content: the forced break or the named page change waiting,
 * the penalty for breaking between this and what came before, the
 * collapsed margin, then the marks that belong to the content's page. */
static void before_content(lay *L, bool margin_glue) {
  ts_ctx *c = L->c;
  pending *p = &L->pd;
  bool name_change =
      L->started &&
      ((L->page_wanted == NULL) != (L->page_in_force == NULL) ||
       (L->page_wanted && strcmp(L->page_wanted, L->page_in_force)));
  if (!L->started) {
    /* The document's first page takes its name and side from its first
       content. */
    vl_push(c, (ts_vitem){.type = TS_V_PENALTY,
                          .penalty = -TS_INF_PENALTY,
                          .brk = p->brk ? p->brk : TS_BRK_PAGE,
                          .page_name = L->page_wanted});
    L->page_in_force = L->page_wanted;
    p->brk = 0;
  } else if (p->brk || name_change) {
    vl_push(c, (ts_vitem){.type = TS_V_PENALTY,
                          .penalty = -TS_INF_PENALTY,
                          .brk = p->brk ? p->brk : TS_BRK_PAGE,
                          .page_name = L->page_wanted});
    L->page_in_force = L->page_wanted;
    p->brk = 0;
    p->keep = false;
  } else if (margin_glue) {
    int depth = L->entry_depth >= 0 ? L->entry_depth : L->avoid_depth;
    vl_push(c,
            (ts_vitem){.type = TS_V_PENALTY,
                       .penalty = p->keep || depth > 0 ? TS_INF_PENALTY : 0});
  }
  L->entry_depth = -1;
  L->started = true;
  if (margin_glue) {
    double m = p->mpos + p->mneg;
    if (p->have_margin && m != 0)
      vl_push(c, (ts_vitem){.type = TS_V_GLUE, .h = m});
    p->mpos = p->mneg = 0;
    p->have_margin = false;
  }
  for (size_t i = 0; i < p->nstrings; i++)
    vl_push(c, (ts_vitem){.type = TS_V_STRING_SET,
                          .u.str = {p->strings[i].name, p->strings[i].value}});
  p->nstrings = 0;
  if (p->reset)
    vl_push(
        c, (ts_vitem){.type = TS_V_COUNTER_RESET, .u.counter = p->reset_value});
  p->reset = false;
}

static void add_margin(pending *p, double m) {
  if (m > p->mpos)
    p->mpos = m;
  if (m < p->mneg)
    p->mneg = m;
  p->have_margin = true;
}

/* ---- setting a paragraph --------------------------------------------- */

/* What the previous pass found the reference to print; a guess at first. */
static const char *pageref_text(ts_ctx *c, const char *id) {
  for (size_t i = 0; i < c->nrefs; i++)
    if (strcmp(c->ref_ids[i], id) == 0)
      return c->ref_texts[i];
  return "00";
}

double ts_text_width(const ts_cstyle *st, const char *text) {
  double w = 0;
  const utf8proc_uint8_t *s = (const utf8proc_uint8_t *)text;
  size_t len = strlen(text);
  for (size_t i = 0; i < len;) {
    utf8proc_int32_t cp;
    utf8proc_ssize_t k =
        utf8proc_iterate(s + i, (utf8proc_ssize_t)(len - i), &cp);
    if (k <= 0)
      break;
    i += (size_t)k;
    w += ts_face_advance(st->face, (uint32_t)cp) * st->size / 1000.0;
  }
  return w;
}

/* Lines to vertical-list items: runs merged per face and size, with the
 * gaps between words given as kerning (one TJ array a run). */
typedef struct runbuf {
  uint32_t *codes;
  int32_t *kern;
  size_t n, cap;
} runbuf;

static void rb_push(oc_arena *a, runbuf *b, uint32_t code, int32_t kern) {
  if (b->n == b->cap) {
    /* room for 64 glyphs more at least: a run is a line's words */
    size_t cap = b->cap;
    b->codes = oc_arena_grow_array(a, b->codes, b->n, &cap, b->n + 64,
                                   sizeof *b->codes);
    b->kern = oc_arena_grow_array(a, b->kern, b->n, &b->cap, b->n + 64,
                                  sizeof *b->kern);
  }
  b->codes[b->n] = code;
  b->kern[b->n] = kern;
  b->n++;
}

typedef struct line_builder {
  ts_ctx *c;
  ts_vline *ln;
  size_t cruns;
  ts_run *cur; /* the run open for merging */
  runbuf rb;
  double cur_end; /* x where the open run's pen stands */
} line_builder;

static ts_run *lb_new_run(line_builder *b) {
  ts_vline *ln = b->ln;
  if (ln->nruns == b->cruns) {
    ln->runs = oc_arena_grow_array(b->c->pa, ln->runs, ln->nruns, &b->cruns,
                                   ln->nruns + 1, sizeof *ln->runs);
    if (b->cur)
      b->cur = &ln->runs[ln->nruns - 1];
  }
  return &ln->runs[ln->nruns++];
}

static void lb_close(line_builder *b) {
  if (!b->cur)
    return;
  b->cur->codes = b->rb.codes;
  b->cur->kern = b->rb.kern;
  b->cur->n = b->rb.n;
  b->cur = NULL;
  b->rb = (runbuf){0};
}

static void lb_glyphs(line_builder *b, const ts_cstyle *st, const ts_face *face,
                      double size, double rise, double x, const uint32_t *codes,
                      const int32_t *kern, size_t n, double width) {
  ts_run *r = b->cur;
  bool same = r && r->face == face && r->size == size && r->rise == rise &&
              r->char_space == st->letter_spacing &&
              r->color.r == st->color.r && r->color.g == st->color.g &&
              r->color.b == st->color.b && r->underline == st->underline &&
              r->strike == st->strike;
  int32_t gap = 0;
  if (same) {
    double g = (x - b->cur_end) * 1000.0 / size;
    gap = (int32_t)lround(g);
    /* Only small gaps are worth merging (a space, justified): a long one
       would be rounded by more than a viewer could ever show anyway. */
    if (fabs(g) > 30000)
      same = false;
  }
  if (!same) {
    lb_close(b);
    r = lb_new_run(b);
    *r = (ts_run){.face = (ts_face *)face,
                  .size = size,
                  .color = st->color,
                  .x = x,
                  .rise = rise,
                  .char_space = st->letter_spacing,
                  .underline = st->underline,
                  .strike = st->strike};
    b->cur = r;
    gap = 0;
  }
  /* A gap between words gets a real space glyph, its width taken out of
     the gap, so that text extraction and copying find the word spaces
     without guessing from positions. */
  int32_t first_kern = gap;
  if (same && gap >= 100 && ts_face_has(face, ' ')) {
    rb_push(b->c->pa, &b->rb, ' ', 0);
    first_kern -= ts_face_advance(face, ' ');
  }
  for (size_t i = 0; i < n; i++)
    rb_push(b->c->pa, &b->rb, codes[i],
            (i == 0 ? first_kern : 0) + (kern ? kern[i] : 0));
  /* The run's end where the viewer's pen will be, so the next gap is
     measured from there (rounding does not accumulate). */
  if (same) {
    double drawn = b->cur_end + gap * size / 1000.0;
    b->cur_end = drawn + width;
  } else {
    b->cur_end = x + width;
  }
  r->width = b->cur_end - r->x;
}

static void lb_link(line_builder *b, const char *href, double x0, double x1,
                    double above, double below, size_t *clinks) {
  ts_vline *ln = b->ln;
  if (ln->nlinks && ln->links[ln->nlinks - 1].href == href &&
      fabs(ln->links[ln->nlinks - 1].x1 - x0) < 0.01 + 20) {
    ts_link *l = &ln->links[ln->nlinks - 1];
    if (x1 > l->x1)
      l->x1 = x1;
    if (above > l->above)
      l->above = above;
    if (below > l->below)
      l->below = below;
    return;
  }
  ln->links = oc_arena_grow_array(b->c->pa, ln->links, ln->nlinks, clinks,
                                  ln->nlinks + 1, sizeof *ln->links);
  ln->links[ln->nlinks++] = (ts_link){x0, x1, above, below, href};
}

static double glue_set(const ts_item *it, const ts_line *l) {
  if (it->type != TS_GLUE)
    return 0;
  if (l->fil)
    return it->width + (it->fil ? l->ratio * it->stretch : 0);
  if (it->fil)
    return it->width;
  return it->width + l->ratio * (l->ratio >= 0 ? it->stretch : it->shrink);
}

static double skip_set(ts_skip s, const ts_line *l) {
  if (l->fil)
    return s.width;
  return s.width + l->ratio * (l->ratio >= 0 ? s.stretch : s.shrink);
}

/* ---- code blocks ------------------------------------------------------ */

/* A code block is a pre or pre-wrap block in a monospaced face: its long
 * lines wrap (at a space, else at the measure, character-wise), each
 * continuation starting with a grey mark; its lines are numbered when its
 * style says `counter-reset: line [N]` (from N + 1). */
#define CODE_MARK 0x21AA /* ↪ */

static bool is_code_block(const ts_cstyle *bs) {
  return (bs->white_space == TS_WS_PRE || bs->white_space == TS_WS_PRE_WRAP) &&
         is_monospaced(bs->face);
}

/* The number before the block's first line, or -1 when its lines are
 * not numbered. */
static long code_line_base(ts_ctx *c, const ts_cstyle *bs) {
  if (!bs->counter_reset)
    return -1;
  const char **names;
  long *values;
  size_t n = css_read_counters(c->pa, bs->counter_reset->value,
                               bs->counter_reset->nvalue, &names, &values);
  for (size_t i = 0; i < n; i++)
    if (!strcasecmp(names[i], "line"))
      return values[i] > 0 ? values[i] : 0;
  return -1;
}

/* A grey style for the marks and numbers of a code block, size times the
 * block's. In the render's arena: the word cache knows styles by their
 * address, which must not be reused for another. */
static const ts_cstyle *code_aside_style(ts_ctx *c, const ts_cstyle *bs,
                                         double size) {
  ts_cstyle *st = oc_arena_alloc(c->a, sizeof *st);
  *st = *bs;
  st->size = bs->size * size;
  st->line_height = st->size;
  st->color = (ts_rgb){0.55, 0.55, 0.55};
  st->underline = st->strike = st->small_caps = false;
  st->letter_spacing = 0;
  st->text_transform = TS_TT_NONE;
  return st;
}

/* Sets text left of the line's start, its right edge at right_edge (from
 * the line's left), before the line's own runs, so that text extraction
 * reads it first. */
static void hang_text(ts_ctx *c, ts_vline *ln, const ts_cstyle *st,
                      const char *text, double right_edge) {
  ts_vline tmp = {0};
  double w = ts_set_text_line(c, st, text, &tmp);
  if (!tmp.nruns)
    return;
  for (size_t i = 0; i < tmp.nruns; i++)
    tmp.runs[i].x += right_edge - w;
  ts_run *nr = oc_arena_alloc(c->pa, (ln->nruns + tmp.nruns) * sizeof *nr);
  memcpy(nr, tmp.runs, tmp.nruns * sizeof *nr);
  if (ln->nruns)
    memcpy(nr + tmp.nruns, ln->runs, ln->nruns * sizeof *nr);
  ln->runs = nr;
  ln->nruns += tmp.nruns;
}

/* Breaks a code block's items one source line at a time (they end at
 * forced breaks), so that each source line's continuations get the
 * narrower measure (bp's second line width). lineno[i] is the source
 * line's number, from 1, on its first line and 0 on its continuations. */
static void break_code(itemizer *z, const ts_break_params *bp, ts_breaks *out,
                       size_t **lineno) {
  ts_line *lines = NULL;
  size_t *nos = NULL, n = 0, cap = 0, src = 0;
  for (size_t s = 0; s < z->n;) {
    size_t e = s;
    while (e + 1 < z->n && !(z->items[e].type == TS_PENALTY &&
                             z->items[e].penalty <= -TS_INF_PENALTY))
      e++;
    ts_breaks br;
    ts_break_lines(z->ar, z->items + s, e - s + 1, bp, &br);
    src++;
    for (size_t i = 0; i < br.n_lines; i++) {
      size_t ncap = cap;
      lines = oc_arena_grow_array(z->ar, lines, n, &ncap, n + 1, sizeof *lines);
      nos = oc_arena_grow_array(z->ar, nos, n, &cap, n + 1, sizeof *nos);
      lines[n] = br.lines[i];
      lines[n].start += s;
      lines[n].end += s;
      nos[n] = i == 0 ? src : 0;
      n++;
    }
    s = e + 1;
  }
  *out = (ts_breaks){.lines = lines, .n_lines = n};
  *lineno = nos;
}

/* Sets the paragraph in pa (its block style bs) into lines of the given
 * measure and appends them to the vertical list. */
static void layout_note(ts_ctx *c, ts_vline *ln, ts_node *note, int number);

static void set_paragraph(lay *L, para *pa, const ts_cstyle *bs, double x,
                          double measure, bool avoid_inside) {
  ts_ctx *c = L->c;
  itemizer z = {.c = c, .ar = pa->ar, .block = bs, .measure = measure};
  /* code: continuation lines are narrower by the mark's column */
  bool code = is_code_block(bs);
  double markw = 0;
  if (code) {
    const ts_face *mf = face_for(c, bs->face, CODE_MARK, 0);
    markw = mf ? ts_face_advance(mf, CODE_MARK) * bs->size / 1000.0 : 0;
    if (markw > measure / 4)
      markw = 0;
    z.code = true;
    z.measure = measure - markw;
  }
  bool indent_done = false;
  if (L->pd.marker && L->pd.marker_inside) {
    /* an inside marker is the line's first word */
    const char *m = oc_arena_alloc(pa->ar, strlen(L->pd.marker) + 2);
    sprintf((char *)m, "%s ", L->pd.marker);
    piece mp = {P_TEXT, L->pd.marker_style, m, strlen(m), NULL, 0, 0, 0, 0};
    itemize_text(&z, &mp);
    flush_word(&z);
    flush_space(&z);
    L->pd.marker = NULL;
  }
  for (size_t i = 0; i < pa->n; i++) {
    const piece *pc = &pa->p[i];
    if (!indent_done && bs->indent != 0 &&
        (pc->kind == P_TEXT || pc->kind == P_LEADER || pc->kind == P_PAGEREF)) {
      add_item(&z, ts_box(bs->indent),
               (item_ref){R_INDENT, bs, NULL, 0, 0, NULL, NULL, NULL, 0});
      indent_done = true;
    }
    switch (pc->kind) {
    case P_TEXT:
      itemize_text(&z, pc);
      break;
    case P_IMAGE: {
      flush_word(&z);
      flush_space(&z);
      /* at its size, or the width CSS gives it, never wider than the
         measure nor taller than the page */
      double w = pc->width, h = pc->height;
      if (pc->width_pct > 0) {
        h *= measure * pc->width_pct / 100 / w;
        w = measure * pc->width_pct / 100;
      }
      double maxw = pc->st->max_width >= 0 ? pc->st->max_width
                    : pc->st->max_width_pct > 0
                        ? measure * pc->st->max_width_pct / 100
                        : -1;
      if (maxw >= 0 && w > maxw && w > 0) {
        h *= maxw / w;
        w = maxw;
      }
      if (w > measure && measure > 0) {
        h *= measure / w;
        w = measure;
      }
      double maxh = c->content_height * 0.95;
      if (h > maxh && maxh > 0) {
        w *= maxh / h;
        h = maxh;
      }
      add_item(
          &z, ts_box(w),
          (item_ref){R_IMAGE, pc->st, NULL, h, 0, NULL, pc->href, pc->text, 0});
      break;
    }
    case P_SPACE:
      flush_word(&z);
      flush_space(&z);
      add_item(
          &z, ts_box(pc->width),
          (item_ref){R_INDENT, pc->st, NULL, 0, 0, NULL, pc->href, NULL, 0});
      break;
    case P_ANCHOR:
      flush_word(&z);
      flush_space(&z);
      add_item(
          &z, ts_box(0),
          (item_ref){R_ANCHOR, pc->st, NULL, 0, 0, NULL, NULL, pc->text, 0});
      break;
    case P_NOTE:
      /* no break between the call and the word it follows */
      flush_word(&z);
      add_item(&z, ts_box(0),
               (item_ref){R_NOTE, pc->st, NULL, 0, 0, NULL, NULL, NULL,
                          pc->ref_style});
      break;
    case P_BR:
      flush_word(&z);
      z.space_pending = false;
      add_item(&z, ts_penalty(0, TS_INF_PENALTY, false),
               (item_ref){R_NONE, NULL, NULL, 0, 0, NULL, NULL, NULL, 0});
      add_item(&z, ts_fil_glue(0),
               (item_ref){R_NONE, NULL, NULL, 0, 0, NULL, NULL, NULL, 0});
      add_item(&z, ts_forced_break(),
               (item_ref){R_NONE, NULL, NULL, 0, 0, NULL, NULL, NULL, 0});
      break;
    case P_LEADER:
      flush_word(&z);
      flush_space(&z);
      /* a little room on both sides, then dots filling the rest */
      add_item(&z, ts_penalty(0, TS_INF_PENALTY, false),
               (item_ref){R_NONE, NULL, NULL, 0, 0, NULL, NULL, NULL, 0});
      ts_announce_face(c, pc->st->face);
      add_item(&z, ts_fil_glue(pc->st->size * 0.5),
               (item_ref){R_LEADER, pc->st, pc->st->face, pc->st->size, 0, NULL,
                          pc->href, pc->text, 0});
      z.has_leader = true;
      break;
    case P_PAGEREF: {
      flush_word(&z);
      /* in the text, a number stays on the line of the word before it
         ("page 12"), as TeX's tie keeps it */
      if (z.space_pending && !z.has_leader)
        add_item(&z, ts_penalty(0, TS_INF_PENALTY, false),
                 (item_ref){R_NONE, NULL, NULL, 0, 0, NULL, NULL, NULL, 0});
      flush_space(&z);
      ts_announce_face(c, pc->st->face);
      const char *t = pageref_text(c, pc->text);
      double w = ts_text_width(pc->st, t);
      /* After a leader, a number gets a column at least three digits wide
         and is set flush right in it: the leader takes up the difference,
         so the number never changes the lines and one pass is enough (a
         wider number asks for another). */
      if (z.has_leader) {
        double col = ts_text_width(pc->st, c->column_digits);
        if (w < col)
          w = col;
      }
      add_item(&z, ts_box(w),
               (item_ref){R_PAGEREF, pc->st, pc->st->face, pc->st->size, 0,
                          NULL, pc->href, pc->text, pc->ref_style});
      z.refs[z.n - 1].rise = z.has_leader ? 1 : 0; /* marks a fixed column */
      break;
    }
    }
  }
  flush_word(&z);
  z.space_pending = false;
  /* Trailing glue never ends a paragraph, nor does a last line break (a
     <br/> or the newline that ends a <pre>, as in HTML). */
  for (;;) {
    while (z.n && z.items[z.n - 1].type == TS_GLUE &&
           z.refs[z.n - 1].kind == R_NONE)
      z.n--;
    if (z.n >= 3 && z.items[z.n - 1].type == TS_PENALTY &&
        z.items[z.n - 1].penalty <= -TS_INF_PENALTY &&
        z.items[z.n - 2].type == TS_GLUE && z.items[z.n - 2].fil &&
        z.items[z.n - 3].type == TS_PENALTY) {
      z.n -= 3;
      continue;
    }
    break;
  }
  if (!z.n)
    return;
  ts_break_params bp = c->bp;
  bp.line_widths = &measure;
  bp.n_line_widths = 1;
  double em = bs->size;
  bool rigid_end = z.has_leader;
  switch (bs->align) {
  case TS_ALIGN_JUSTIFY:
    break;
  case TS_ALIGN_LEFT:
    bp.right_skip = (ts_skip){0, 2.5 * em, 0};
    break;
  case TS_ALIGN_RIGHT:
    bp.left_skip = (ts_skip){0, 10000, 0};
    rigid_end = true;
    break;
  case TS_ALIGN_CENTER:
    bp.left_skip = (ts_skip){0, 10000, 0};
    bp.right_skip = (ts_skip){0, 10000, 0};
    rigid_end = true;
    break;
  }
  if (bs->white_space == TS_WS_PRE || bs->white_space == TS_WS_PRE_WRAP ||
      bs->white_space == TS_WS_NOWRAP)
    bp.right_skip = (ts_skip){0, 10000, 0};
  add_item(&z, ts_penalty(0, TS_INF_PENALTY, false),
           (item_ref){R_NONE, NULL, NULL, 0, 0, NULL, NULL, NULL, 0});
  add_item(&z, rigid_end ? ts_glue(0, 0, 0) : ts_fil_glue(0),
           (item_ref){R_NONE, NULL, NULL, 0, 0, NULL, NULL, NULL, 0});
  add_item(&z, ts_forced_break(),
           (item_ref){R_NONE, NULL, NULL, 0, 0, NULL, NULL, NULL, 0});
  bp.emergency_stretch = 3 * em;

  ts_breaks br;
  size_t *lineno = NULL;
  long line_base = -1;
  const ts_cstyle *mark_st = NULL, *num_st = NULL;
  if (code) {
    double widths[2] = {measure, measure - markw};
    bp.line_widths = widths;
    bp.n_line_widths = 2;
    bp.left_skip = (ts_skip){0, 0, 0};
    break_code(&z, &bp, &br, &lineno);
    mark_st = code_aside_style(c, bs, 1);
    line_base = code_line_base(c, bs);
    if (line_base >= 0)
      num_st = code_aside_style(c, bs, 0.8);
  } else {
    ts_break_lines(z.ar, z.items, z.n, &bp, &br);
  }

  strut bst = strut_of(bs);
  size_t nl = br.n_lines;
  /* the footnotes called, by line: laid out once the lines are pushed */
  struct line_note {
    ts_vline *ln;
    int call;
  } *notes = NULL;
  size_t nnotes = 0, cnotes = 0;
  for (size_t li = 0; li < nl; li++) {
    const ts_line *l = &br.lines[li];
    ts_vline *ln = oc_arena_calloc(c->pa, 1, sizeof *ln);
    ln->x = x;
    ln->width = measure;
    bool cont = code && lineno[li] == 0;
    if (cont) {
      ln->x += markw;
      ln->width -= markw;
    }
    line_builder b = {.c = c, .ln = ln};
    size_t clinks = 0, cleaders = 0, crefs = 0, canchors = 0, cimages = 0;
    double above = bst.above, below = bst.below;
    double pos = skip_set(bp.left_skip, l);
    const ts_cstyle *last_st = bs;
    for (size_t k = l->start; k < l->end; k++) {
      const ts_item *it = &z.items[k];
      const item_ref *r = &z.refs[k];
      if (it->type == TS_GLUE) {
        double w = glue_set(it, l);
        if (r->kind == R_LEADER) {
          ln->leaders =
              oc_arena_grow_array(c->pa, ln->leaders, ln->nleaders, &cleaders,
                                  ln->nleaders + 1, sizeof *ln->leaders);
          uint32_t dot = '.';
          if (r->text && *r->text) {
            utf8proc_int32_t cp;
            if (utf8proc_iterate((const utf8proc_uint8_t *)r->text, -1, &cp) >
                0)
              dot = (uint32_t)cp;
          }
          ln->leaders[ln->nleaders++] = (ts_leader){
              (ts_face *)r->face, r->size, r->st->color, pos, pos + w, dot};
        }
        if (r->href && k > l->start)
          lb_link(&b, r->href, pos, pos + w, above, below, &clinks);
        pos += w;
        continue;
      }
      if (it->type == TS_PENALTY)
        continue;
      switch (r->kind) {
      case R_TEXT: {
        /* An inline box widens the line only when its glyphs reach past
           the paragraph's strut (TeX's way: an even baseline grid, unless
           a formula or a big letter needs the room). */
        strut s = {r->face->ascent * r->size / 1000.0,
                   -r->face->descent * r->size / 1000.0};
        if (s.above + r->rise > above)
          above = s.above + r->rise;
        if (s.below - r->rise > below)
          below = s.below - r->rise;
        lb_glyphs(&b, r->st, r->face, r->size, r->rise, pos, r->w->codes,
                  r->w->kern, r->w->n, it->width);
        if (r->href)
          lb_link(&b, r->href, pos, pos + it->width, s.above + r->rise, s.below,
                  &clinks);
        last_st = r->st;
        break;
      }
      case R_PAGEREF: {
        ln->refs = oc_arena_grow_array(c->pa, ln->refs, ln->nrefs, &crefs,
                                       ln->nrefs + 1, sizeof *ln->refs);
        lb_close(&b);
        ln->refs[ln->nrefs++] = (ts_pageref){
            r->text,      r->ref_style, (ts_face *)r->face, r->size,
            r->st->color, pos,          it->width,          r->rise != 0};
        if (r->href)
          lb_link(&b, r->href, pos, pos + it->width, above, below, &clinks);
        break;
      }
      case R_IMAGE:
        /* the image stands on the baseline */
        if (r->size > above)
          above = r->size;
        ln->images =
            oc_arena_grow_array(c->pa, ln->images, ln->nimages, &cimages,
                                ln->nimages + 1, sizeof *ln->images);
        ln->images[ln->nimages++] =
            (ts_image_box){r->text, pos, it->width, r->size};
        if (r->href)
          lb_link(&b, r->href, pos, pos + it->width, r->size, 0, &clinks);
        break;
      case R_ANCHOR:
        ln->anchors =
            oc_arena_grow_array(c->pa, ln->anchors, ln->nanchors, &canchors,
                                ln->nanchors + 1, sizeof *ln->anchors);
        ln->anchors[ln->nanchors++] = r->text;
        break;
      case R_NOTE:
        notes = oc_arena_grow_array(z.ar, notes, nnotes, &cnotes, nnotes + 1,
                                    sizeof *notes);
        notes[nnotes++] = (struct line_note){ln, r->ref_style};
        break;
      default:
        break;
      }
      pos += it->width;
    }
    /* the hyphen of a hyphenated line */
    if (l->end < z.n && z.items[l->end].type == TS_PENALTY &&
        z.items[l->end].flagged && z.items[l->end].width > 0) {
      const item_ref *r = &z.refs[l->end];
      const ts_cstyle *st = r->st ? r->st : last_st;
      uint32_t h = '-';
      const word_entry *w = shape(c, st->face, &h, 1);
      lb_glyphs(&b, st, st->face, st->size, 0, pos, w->codes, w->kern, w->n,
                z.items[l->end].width);
    }
    lb_close(&b);
    if (cont) {
      hang_text(c, ln, mark_st, "\u21AA", 0);
    } else if (code && num_st) {
      char num[24];
      snprintf(num, sizeof num, "%ld", line_base + (long)lineno[li]);
      hang_text(c, ln, num_st, num, -bs->size);
    }
    /* the anchors, strings and marker that were waiting for this line */
    pending *p = &L->pd;
    if (li == 0) {
      for (size_t i = 0; i < p->nanchors; i++) {
        ln->anchors =
            oc_arena_grow_array(c->pa, ln->anchors, ln->nanchors, &canchors,
                                ln->nanchors + 1, sizeof *ln->anchors);
        ln->anchors[ln->nanchors++] = p->anchors[i];
      }
      p->nanchors = 0;
      if (p->marker) {
        const ts_cstyle *ms = p->marker_style;
        ts_vline tmp = {0};
        double mw = ts_set_text_line(c, ms, p->marker, &tmp);
        double gapw = ms->size * 0.5;
        for (size_t i = 0; i < tmp.nruns; i++)
          tmp.runs[i].x += -mw - gapw;
        /* the marker's runs go first, hanging left of the line */
        ts_run *nr =
            oc_arena_alloc(c->pa, (ln->nruns + tmp.nruns) * sizeof *nr);
        memcpy(nr, tmp.runs, tmp.nruns * sizeof *nr);
        if (ln->nruns)
          memcpy(nr + tmp.nruns, ln->runs, ln->nruns * sizeof *nr);
        ln->runs = nr;
        ln->nruns += tmp.nruns;
        strut s = strut_of(ms);
        if (s.above > above)
          above = s.above;
        p->marker = NULL;
      }
    }
    if (li > 0) {
      /* breaking before line li leaves li lines behind and nl - li ahead */
      double pen = 0;
      if ((int)li < bs->orphans || (int)(nl - li) < bs->widows || avoid_inside)
        pen = TS_INF_PENALTY;
      vl_push(c, (ts_vitem){.type = TS_V_PENALTY, .penalty = pen});
    } else {
      before_content(L, true);
    }
    vl_push(c, (ts_vitem){.type = TS_V_LINE,
                          .h = above,
                          .d = below,
                          .page_name = L->page_in_force,
                          .u.line = ln});
    c->nlines++;
  }
  for (size_t i = 0; i < nnotes; i++)
    layout_note(c, notes[i].ln, c->calls[notes[i].call].note,
                c->calls[notes[i].call].number);
}

/* Sets text on one line at its natural width (margin boxes, markers). */
double ts_set_text_line(ts_ctx *c, const ts_cstyle *st, const char *text,
                        ts_vline *line) {
  itemizer z = {.c = c, .ar = oc_arena_new(), .block = st};
  piece pc = {P_TEXT, st, text, strlen(text), NULL, 0, 0, 0, 0};
  ts_cstyle plain = *st;
  plain.hyphens = false;
  pc.st = &plain;
  itemize_text(&z, &pc);
  flush_word(&z);
  line_builder b = {.c = c, .ln = line};
  double pos = 0;
  for (size_t k = 0; k < z.n; k++) {
    const ts_item *it = &z.items[k];
    const item_ref *r = &z.refs[k];
    if (it->type == TS_BOX && r->kind == R_TEXT)
      lb_glyphs(&b, r->st, r->face, r->size, r->rise, pos, r->w->codes,
                r->w->kern, r->w->n, it->width);
    if (it->type != TS_PENALTY)
      pos += it->width;
  }
  lb_close(&b);
  oc_arena_free(z.ar);
  line->width = pos;
  return pos;
}

/* ---- collecting inline content --------------------------------------- */

static const char *collapse_ws(oc_arena *a, const char *s, size_t len);

static bool node_id_eq(const void *entry, const void *key) {
  return strcmp(((const ts_node *)entry)->id, key) == 0;
}

static void index_ids(ts_hidx *x, ts_node *n) {
  for (; n; n = n->next) {
    if (!n->tag)
      continue;
    if (n->id) {
      uint64_t h = ts_hash_bytes(TS_HASH_SEED, n->id, strlen(n->id));
      if (!ts_hidx_get(x, h, node_id_eq, n->id))
        ts_hidx_put(x, h, n);
    }
    index_ids(x, n->first);
  }
}

/* The element a link's target names (its first, as a browser finds it),
 * or NULL after a warning, once per id, at the link's line. */
static ts_node *link_target(ts_ctx *c, const ts_node *link, const char *id,
                            const char *func) {
  struct ts_worditems *lc = layout_cache(c);
  if (!lc->ids_built) {
    ts_hidx_init(&lc->ids, c->a, 1024);
    index_ids(&lc->ids, c->root);
    lc->ids_built = true;
  }
  ts_node *t = ts_hidx_get(
      &lc->ids, ts_hash_bytes(TS_HASH_SEED, id, strlen(id)), node_id_eq, id);
  if (t)
    return t;
  for (size_t i = 0; i < lc->nwarned; i++)
    if (strcmp(lc->warned[i], id) == 0)
      return NULL;
  lc->warned = oc_arena_grow_array(c->a, lc->warned, lc->nwarned, &lc->cwarned,
                                   lc->nwarned + 1, sizeof *lc->warned);
  lc->warned[lc->nwarned++] = oc_arena_strndup(c->a, id, strlen(id));
  if (!c->in->links_checked)
    oc_report(c->rep, OC_WARNING, c->in->name, link->line, 0,
              "%s() of a link to '#%s': no element has that id; '\?\?' is "
              "printed",
              func, id);
  return NULL;
}

/* An element's text as it reads: blocks apart, what is not displayed
 * left out. */
static void shown_text(ts_ctx *c, ts_node *n, oc_sb *out) {
  for (ts_node *ch = n->first; ch; ch = ch->next) {
    if (!ch->tag) {
      oc_sb_add(out, ch->text, ch->text_len);
      continue;
    }
    int d = ts_style_of(c, ch)->display;
    if (d == TS_D_NONE)
      continue;
    bool block = d != TS_D_INLINE && d != TS_D_INLINE_BLOCK;
    if (block)
      oc_sb_addc(out, ' ');
    shown_text(c, ch, out);
    if (block)
      oc_sb_addc(out, ' ');
  }
}

/* What target-text() prints: the target's text content, or the text of
 * its ::before or ::after (their strings and attr() values). */
static const char *target_text(ts_ctx *c, const ts_node *link, const char *href,
                               int part) {
  if (!href || href[0] != '#')
    return ""; /* the target is not in this document */
  ts_node *t = link_target(c, link, href + 1, "target-text");
  if (!t)
    return "??";
  oc_sb buf;
  oc_sb_init(&buf, NULL, 0);
  if (part == CSS_TP_CONTENT) {
    shown_text(c, t, &buf);
  } else {
    ts_cstyle *ps = ts_style_pseudo(
        c, t, part == CSS_TP_BEFORE ? CSS_PE_BEFORE : CSS_PE_AFTER);
    css_content_item *items;
    size_t ni;
    const css_decl *d = ps ? ps->css->decl[CSS_P_CONTENT] : NULL;
    if (d && css_read_content(c->pa, d->value, d->nvalue, &items, &ni))
      for (size_t i = 0; i < ni; i++) {
        const char *v = items[i].kind == CSS_C_STRING ? items[i].text
                        : items[i].kind == CSS_C_ATTR
                            ? ts_node_attr(t, items[i].text)
                            : NULL;
        if (v)
          oc_sb_adds(&buf, v);
      }
  }
  const char *out = collapse_ws(c->pa, buf.p, buf.len);
  oc_sb_free(&buf);
  return out;
}

static void add_generated(lay *L, para *pa, ts_node *n, const ts_cstyle *ps,
                          const char *href) {
  ts_ctx *c = L->c;
  const css_decl *d = ps->css->decl[CSS_P_CONTENT];
  css_content_item *items;
  size_t ni;
  if (!css_read_content(c->pa, d->value, d->nvalue, &items, &ni))
    return;
  for (size_t i = 0; i < ni; i++) {
    const css_content_item *it = &items[i];
    switch (it->kind) {
    case CSS_C_STRING:
      push_piece(
          c, pa,
          (piece){P_TEXT, ps, it->text, strlen(it->text), href, 0, 0, 0, 0});
      break;
    case CSS_C_ATTR: {
      const char *v = ts_node_attr(n, it->text);
      if (v)
        push_piece(c, pa, (piece){P_TEXT, ps, v, strlen(v), href, 0, 0, 0, 0});
      break;
    }
    case CSS_C_LEADER:
      push_piece(c, pa, (piece){P_LEADER, ps, it->text, 0, href, 0, 0, 0, 0});
      break;
    case CSS_C_TARGET_COUNTER: {
      const char *h = ts_node_attr(n, it->text);
      if (!h || h[0] != '#')
        break;
      /* a missing target prints "??" (the pages know no such anchor) */
      link_target(c, n, h + 1, "target-counter");
      push_piece(
          c, pa,
          (piece){P_PAGEREF, ps, h + 1, 0, href, it->counter_style, 0, 0, 0});
      break;
    }
    case CSS_C_TARGET_TEXT: {
      const char *t =
          target_text(c, n, ts_node_attr(n, it->text), it->string_policy);
      if (*t)
        push_piece(c, pa, (piece){P_TEXT, ps, t, strlen(t), href, 0, 0, 0, 0});
      break;
    }
    default:
      /* counter(page) and string() belong to margin boxes */
      break;
    }
  }
}

static void set_string(lay *L, ts_node *n, const ts_cstyle *st);

static void collect_inline(lay *L, para *pa, ts_node *n, const char *href);

/* An <img> as a box of the paragraph, at its natural size (its pixels at
 * its resolution, 96 dpi when the file does not say) or the width CSS
 * gives it; false when it cannot be placed (reported). */
static bool add_image(lay *L, para *pa, ts_node *img, const ts_cstyle *st,
                      const char *href) {
  ts_ctx *c = L->c;
  const char *src = ts_node_attr(img, "src");
  if (!src || !*src || !c->in->resolve)
    return false;
  const char *path =
      c->in->resolve(c->in->resolve_user, src, c->in->name, img->line, 0);
  if (!path)
    return false; /* reported by resolve */
  unsigned pw = 0, ph = 0;
  double dpi = 96;
  ts_image_status s = ts_image_probe(path, &pw, &ph, &dpi);
  /* a .png or .jpg that is neither is a broken file, not another format */
  const char *dot = strrchr(src, '.');
  if (s == TS_IMAGE_UNSUPPORTED && dot &&
      (!strcasecmp(dot, ".png") || !strcasecmp(dot, ".jpg") ||
       !strcasecmp(dot, ".jpeg")))
    s = TS_IMAGE_UNREADABLE;
  if (s != TS_IMAGE_OK) {
    oc_report(c->rep, s == TS_IMAGE_UNSUPPORTED ? OC_WARNING : OC_ERROR,
              c->in->name, img->line, 0,
              s == TS_IMAGE_UNSUPPORTED
                  ? "'%s' is not a PNG, JPEG, GIF or SVG image, which are what "
                    "a PDF edition can show; its alternative text stands in"
                  : "'%s' cannot be read as an image",
              src);
    return false;
  }
  double w = pw * 72.0 / dpi, h = ph * 72.0 / dpi;
  if (st->width >= 0 && w > 0) {
    h *= st->width / w;
    w = st->width;
  }
  push_piece(c, pa,
             (piece){P_IMAGE, st, path, 0, href, 0, w, h,
                     st->width < 0 ? st->width_pct : 0});
  return true;
}

/* The text of a footnote's ::footnote-call or ::footnote-marker: its
 * content's strings, attr() values and counter(footnote), which is the
 * note's number; trailing spaces dropped. */
static const char *note_part_text(ts_ctx *c, ts_node *note, const ts_cstyle *ps,
                                  int number) {
  const css_decl *d = ps ? ps->css->decl[CSS_P_CONTENT] : NULL;
  css_content_item *items;
  size_t ni;
  if (!d || !css_read_content(c->pa, d->value, d->nvalue, &items, &ni))
    return css_format_counter(c->pa, number, CSS_CS_DECIMAL);
  oc_sb buf;
  oc_sb_init(&buf, NULL, 0);
  for (size_t i = 0; i < ni; i++) {
    const css_content_item *it = &items[i];
    const char *t = NULL;
    if (it->kind == CSS_C_STRING)
      t = it->text;
    else if (it->kind == CSS_C_ATTR)
      t = ts_node_attr(note, it->text);
    else if (it->kind == CSS_C_COUNTER && !strcasecmp(it->text, "footnote"))
      t = css_format_counter(c->pa, number, it->counter_style);
    if (t)
      oc_sb_adds(&buf, t);
  }
  while (buf.len && buf.p[buf.len - 1] == ' ')
    buf.len--;
  const char *out = oc_arena_strndup(c->pa, buf.p, buf.len);
  oc_sb_free(&buf);
  return out;
}

/* A footnote's call, in its ::footnote-call style (by default its number
 * raised and at 75% of the text around it), linked to the note; the note
 * itself goes to the foot of the page (layout_note). */
static void add_note_call(lay *L, para *pa, ts_node *note) {
  ts_ctx *c = L->c;
  int number = (int)++c->note_counter;
  const ts_cstyle *around =
      note->parent ? ts_style_of(c, note->parent) : ts_style_of(c, note);
  /* (the user-agent sheet gives every note a ::footnote-call) */
  ts_cstyle *cs = ts_style_note_part(c, note, CSS_PE_FOOTNOTE_CALL, around);
  cs->underline = cs->strike = false;
  const char *num = note_part_text(c, note, cs, number);
  const char *href = NULL;
  if (note->id) {
    char *h = oc_arena_alloc(c->pa, strlen(note->id) + 2);
    sprintf(h, "#%s", note->id);
    href = h;
  }
  push_piece(c, pa, (piece){P_TEXT, cs, num, strlen(num), href, 0, 0, 0, 0});
  c->calls = oc_arena_grow_array(c->pa, c->calls, c->ncalls, &c->ccalls,
                                 c->ncalls + 1, sizeof *c->calls);
  c->calls[c->ncalls] = (struct ts_call){note, number};
  push_piece(c, pa,
             (piece){P_NOTE, cs, NULL, 0, NULL, (int)c->ncalls++, 0, 0, 0});
}

static void collect_element(lay *L, para *pa, ts_node *ch, const char *href) {
  ts_ctx *c = L->c;
  ts_cstyle *st = ts_style_of(c, ch);
  if (st->display == TS_D_NONE)
    return;
  if (st->float_kind == TS_FLOAT_FOOTNOTE && !c->in_note) {
    add_note_call(L, pa, ch);
    return;
  }
  if (ch->id)
    push_piece(c, pa, (piece){P_ANCHOR, st, ch->id, 0, NULL, 0, 0, 0, 0});
  if (st->string_set)
    set_string(L, ch, st);
  if (strcmp(ch->tag, "br") == 0) {
    push_piece(c, pa, (piece){P_BR, st, NULL, 0, NULL, 0, 0, 0, 0});
    return;
  }
  if (strcmp(ch->tag, "img") == 0) {
    if (add_image(L, pa, ch, st, href))
      return;
    /* What cannot be placed is stood in for by its alternative text, in
       brackets, so nothing vanishes silently. */
    const char *alt = ts_node_attr(ch, "alt");
    char *t = oc_arena_alloc(c->pa, (alt ? strlen(alt) : 5) + 3);
    sprintf(t, "[%s]", alt && *alt ? alt : "image");
    push_piece(c, pa, (piece){P_TEXT, st, t, strlen(t), href, 0, 0, 0, 0});
    return;
  }
  const char *h = href;
  if (strcmp(ch->tag, "a") == 0) {
    const char *v = ts_node_attr(ch, "href");
    if (v && *v)
      h = v;
  }
  /* An inline box's horizontal margin, border and padding take room (its
     background and borders are not drawn). */
  double left = st->margin[3] + st->border[3] + st->padding[3];
  double right = st->margin[1] + st->border[1] + st->padding[1];
  if (left > 0)
    push_piece(c, pa, (piece){P_SPACE, st, NULL, 0, h, 0, left, 0, 0});
  ts_cstyle *bst = ts_style_pseudo(c, ch, CSS_PE_BEFORE);
  if (bst)
    add_generated(L, pa, ch, bst, h);
  collect_inline(L, pa, ch, h);
  ts_cstyle *ast = ts_style_pseudo(c, ch, CSS_PE_AFTER);
  if (ast)
    add_generated(L, pa, ch, ast, h);
  if (right > 0)
    push_piece(c, pa, (piece){P_SPACE, st, NULL, 0, h, 0, right, 0, 0});
}

static void collect_inline(lay *L, para *pa, ts_node *n, const char *href) {
  ts_ctx *c = L->c;
  for (ts_node *ch = n->first; ch; ch = ch->next) {
    if (!ch->tag) {
      push_piece(c, pa,
                 (piece){P_TEXT, ts_style_of(c, n), ch->text, ch->text_len,
                         href, 0, 0, 0, 0});
      continue;
    }
    collect_element(L, pa, ch, href);
  }
}

/* The text of an element, for string-set's content(). */
static void text_of(ts_node *n, oc_sb *out) {
  for (ts_node *ch = n->first; ch; ch = ch->next) {
    if (ch->tag)
      text_of(ch, out);
    else
      oc_sb_add(out, ch->text, ch->text_len);
  }
}

static const char *collapse_ws(oc_arena *a, const char *s, size_t len) {
  char *o = oc_arena_alloc(a, len + 1);
  size_t k = 0;
  bool sp = true;
  for (size_t i = 0; i < len; i++) {
    char ch = s[i];
    if (ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r') {
      if (!sp)
        o[k++] = ' ';
      sp = true;
      continue;
    }
    o[k++] = ch;
    sp = false;
  }
  while (k && o[k - 1] == ' ')
    k--;
  o[k] = 0;
  return o;
}

static void set_string(lay *L, ts_node *n, const ts_cstyle *st) {
  ts_ctx *c = L->c;
  css_string_set *sets;
  size_t ns;
  const css_decl *d = st->string_set;
  if (!css_read_string_set(c->pa, d->value, d->nvalue, &sets, &ns))
    return;
  for (size_t i = 0; i < ns; i++) {
    oc_sb buf;
    oc_sb_init(&buf, NULL, 0);
    for (size_t k = 0; k < sets[i].nitems; k++) {
      const css_content_item *it = &sets[i].items[k];
      if (it->kind == CSS_C_STRING)
        oc_sb_adds(&buf, it->text);
      else if (it->kind == CSS_C_ELEMENT_TEXT)
        text_of(n, &buf);
    }
    const char *v = collapse_ws(c->pa, buf.p, buf.len);
    oc_sb_free(&buf);
    pending *p = &L->pd;
    p->strings =
        oc_arena_grow_array(c->pa, p->strings, p->nstrings, &p->cstrings,
                            p->nstrings + 1, sizeof *p->strings);
    p->strings[p->nstrings].name = sets[i].name;
    p->strings[p->nstrings].value = v;
    p->nstrings++;
  }
}

/* ---- blocks ----------------------------------------------------------- */

/* A table's parts outside a table are laid out as blocks. */
static bool is_block(int display) {
  return display == TS_D_BLOCK || display == TS_D_LIST_ITEM ||
         (display >= TS_D_TABLE && display != TS_D_TABLE_COLUMN);
}

static const char *marker_text(ts_ctx *c, ts_node *li, const ts_cstyle *st) {
  const char *t = st->list_style;
  if (!strcasecmp(t, "none"))
    return NULL;
  if (!strcasecmp(t, "disc"))
    return "\u2022";
  if (!strcasecmp(t, "circle"))
    return "\u25E6";
  if (!strcasecmp(t, "square"))
    return "\u25AA";
  if (!strcasecmp(t, "dash") || !strcasecmp(t, "hyphen"))
    return "\u2013";
  /* ordinal: the item's place among its list's items */
  long idx = 1;
  ts_node *list = li->parent;
  if (list) {
    const char *start = ts_node_attr(list, "start");
    if (start)
      idx = strtol(start, NULL, 10);
  }
  for (ts_node *p = li->prev_el; p; p = p->prev_el)
    if (ts_style_of(c, p)->display == TS_D_LIST_ITEM)
      idx++;
  int style = CSS_CS_DECIMAL;
  if (!strcasecmp(t, "lower-roman"))
    style = CSS_CS_LOWER_ROMAN;
  else if (!strcasecmp(t, "upper-roman"))
    style = CSS_CS_UPPER_ROMAN;
  else if (!strcasecmp(t, "lower-alpha") || !strcasecmp(t, "lower-latin"))
    style = CSS_CS_LOWER_ALPHA;
  else if (!strcasecmp(t, "upper-alpha") || !strcasecmp(t, "upper-latin"))
    style = CSS_CS_UPPER_ALPHA;
  const char *num = css_format_counter(c->pa, idx, style);
  char *out = oc_arena_alloc(c->pa, strlen(num) + 2);
  sprintf(out, "%s.", num);
  return out;
}

static void layout_block(lay *L, ts_node *n, double x, double width);

static void flush_para(lay *L, para *pa, const ts_cstyle *bs, double x,
                       double width, bool avoid) {
  if (!pa->n)
    return;
  /* A paragraph of white space alone sets nothing. */
  bool any = false;
  for (size_t i = 0; i < pa->n && !any; i++) {
    const piece *p = &pa->p[i];
    if (p->kind != P_TEXT) {
      any = p->kind != P_ANCHOR;
      continue;
    }
    if (p->st->white_space == TS_WS_PRE ||
        p->st->white_space == TS_WS_PRE_WRAP) {
      any = p->len > 0;
      continue;
    }
    for (size_t k = 0; k < p->len; k++)
      if (p->text[k] != ' ' && p->text[k] != '\n' && p->text[k] != '\t' &&
          p->text[k] != '\r') {
        any = true;
        break;
      }
  }
  if (any) {
    set_paragraph(L, pa, bs, x, width, avoid);
  } else {
    for (size_t i = 0; i < pa->n; i++)
      if (pa->p[i].kind == P_ANCHOR)
        add_anchor(L, pa->p[i].text);
  }
  oc_arena_free(pa->ar);
  *pa = (para){0};
}

static void layout_children(lay *L, ts_node *n, const ts_cstyle *st, double x,
                            double width) {
  ts_ctx *c = L->c;
  para pa = {0};
  bool avoid = L->avoid_depth > 0;
  ts_cstyle *bst = ts_style_pseudo(c, n, CSS_PE_BEFORE);
  if (bst)
    add_generated(L, &pa, n, bst, NULL);
  for (ts_node *ch = n->first; ch; ch = ch->next) {
    if (!ch->tag) {
      push_piece(c, &pa,
                 (piece){P_TEXT, st, ch->text, ch->text_len, NULL, 0, 0, 0, 0});
      continue;
    }
    ts_cstyle *cs = ts_style_of(c, ch);
    if (cs->display == TS_D_NONE)
      continue;
    if (is_block(cs->display) &&
        (cs->float_kind != TS_FLOAT_FOOTNOTE || c->in_note)) {
      flush_para(L, &pa, st, x, width, avoid);
      layout_block(L, ch, x, width);
      continue;
    }
    collect_element(L, &pa, ch, NULL);
  }
  ts_cstyle *ast = ts_style_pseudo(c, n, CSS_PE_AFTER);
  if (ast)
    add_generated(L, &pa, n, ast, NULL);
  flush_para(L, &pa, st, x, width, avoid);
}

static void layout_block(lay *L, ts_node *n, double x, double width) {
  ts_ctx *c = L->c;
  ts_cstyle *st = ts_style_of(c, n);
  pending *p = &L->pd;
  /* A float (not at the start of a page group, not inside another float,
     a note or a table) gathers its items between two marks the page
     builder moves together. */
  bool floating = st->float_kind == TS_FLOAT_PAGE && !c->in_float &&
                  !c->in_note && L->started && !p->brk &&
                  st->break_before <= TS_BRK_AUTO;
  size_t float_start = 0;
  if (floating) {
    float_start = c->vl.n;
    vl_push(c, (ts_vitem){.type = TS_V_FLOAT_START, .d = st->margin[2]});
    c->in_float++;
  }
  const char *outer_page = L->page_wanted;
  if (st->page)
    L->page_wanted = st->page;
  if (st->break_before > TS_BRK_AUTO && st->break_before < TS_BRK_AVOID &&
      (p->brk == 0 || st->break_before != TS_BRK_PAGE))
    p->brk = st->break_before;
  if (st->break_before == TS_BRK_AVOID)
    p->keep = true;
  if (n->id)
    add_anchor(L, n->id);
  if (st->string_set)
    set_string(L, n, st);
  if (st->counter_reset) {
    const char **names;
    long *values;
    size_t nc = css_read_counters(c->pa, st->counter_reset->value,
                                  st->counter_reset->nvalue, &names, &values);
    for (size_t i = 0; i < nc; i++)
      if (!strcasecmp(names[i], "footnote"))
        c->note_counter = values[i];
      else if (!strcasecmp(names[i], "page")) {
        p->reset = true;
        /* counter-reset: page 1 means the page it stands on is page 1 */
        p->reset_value = values[i] ? values[i] : 1;
      }
  }
  add_margin(p, st->margin[0]);
  /* width and horizontal margins */
  double ml = st->margin[1 + 2], mr = st->margin[1];
  double bl = st->border[3] + st->padding[3],
         br = st->border[1] + st->padding[1];
  double bw = width - ml - mr; /* border box */
  if (st->width_pct > 0)
    bw = width * st->width_pct / 100 + bl + br;
  else if (st->width >= 0)
    bw = st->width + bl + br;
  double maxw = st->max_width >= 0 ? st->max_width + bl + br
                : st->max_width_pct > 0
                    ? width * st->max_width_pct / 100 + bl + br
                    : -1;
  if (maxw >= 0 && bw > maxw)
    bw = maxw;
  if (bw > width - ml - mr)
    bw = width - ml - mr;
  double bx = x + ml;
  if (st->margin_auto[1] && st->margin_auto[3])
    bx = x + (width - bw) / 2;
  else if (st->margin_auto[3])
    bx = x + width - mr - bw;
  bool boxed = st->display != TS_D_TABLE && /* a table draws its own */
               (st->has_bg || st->border_style[0] || st->border_style[2] ||
                st->padding[0] > 0 || st->padding[2] > 0 ||
                st->border_style[1] || st->border_style[3]);
  ts_vblock *blk = NULL;
  if (boxed) {
    before_content(L, true);
    blk = oc_arena_calloc(c->pa, 1, sizeof *blk);
    blk->x = bx;
    blk->width = bw;
    blk->has_bg = st->has_bg;
    blk->bg = st->bg;
    for (int i = 0; i < 4; i++) {
      blk->border[i] = st->border_style[i] ? st->border[i] : 0;
      blk->border_style[i] = st->border_style[i];
      blk->border_color[i] = st->border_color[i];
    }
    vl_push(c, (ts_vitem){.type = TS_V_BLOCK_START, .u.block = blk});
    double top = blk->border[0] + st->padding[0];
    if (top > 0)
      vl_push(c, (ts_vitem){.type = TS_V_SPACE, .h = top});
  }
  if (st->display == TS_D_LIST_ITEM) {
    const char *m = marker_text(c, n, st);
    if (m) {
      p->marker = m;
      p->marker_style = st;
      p->marker_inside = st->list_inside;
    }
  }
  if (st->display == TS_D_TABLE) {
    before_content(L, true);
    ts_layout_table(c, n, x, width,
                    L->avoid_depth > 0 || st->break_inside == TS_BRK_AVOID,
                    p->anchors, p->nanchors);
    p->nanchors = 0;
  } else if (strcmp(n->tag, "hr") == 0) {
    before_content(L, true);
    double t = st->border[0] > 0 ? st->border[0] : 0.5;
    vl_push(c, (ts_vitem){.type = TS_V_RULE,
                          .h = t,
                          .u.rule = {bx, bw,
                                     st->border_style[0] ? st->border_color[0]
                                                         : st->color}});
  } else {
    double cx = bx + bl, cw = bw - bl - br;
    bool avoid = st->break_inside == TS_BRK_AVOID;
    if (avoid && L->entry_depth < 0)
      L->entry_depth = L->avoid_depth;
    L->avoid_depth += avoid;
    layout_children(L, n, st, cx, cw);
    L->avoid_depth -= avoid;
  }
  if (boxed) {
    /* the margins inside the box do not collapse through it */
    double m = p->mpos + p->mneg;
    double bottom = blk->border[2] + st->padding[2] + (p->have_margin ? m : 0);
    p->mpos = p->mneg = 0;
    p->have_margin = false;
    if (bottom > 0)
      vl_push(c, (ts_vitem){.type = TS_V_SPACE, .h = bottom});
    vl_push(c, (ts_vitem){.type = TS_V_BLOCK_END, .u.block = blk});
  }
  add_margin(p, st->margin[2]);
  if (st->break_after > TS_BRK_AUTO && st->break_after < TS_BRK_AVOID)
    p->brk = st->break_after;
  p->keep = st->break_after == TS_BRK_AVOID;
  L->page_wanted = outer_page;
  if (floating) {
    /* its bottom margin goes with it: moved, it leaves no gap behind */
    double m = p->mpos + p->mneg;
    if (p->have_margin && m > 0)
      vl_push(c, (ts_vitem){.type = TS_V_GLUE, .h = m});
    p->mpos = p->mneg = 0;
    p->have_margin = false;
    c->in_float--;
    vl_push(c, (ts_vitem){.type = TS_V_FLOAT_END});
    c->vl.items[float_start].u.head.end = c->vl.n - 1;
  }
}

/* A footnote's body, at the measure of the page, into c->notes: its
 * number and a space first, then its content; the line that calls it
 * learns where it ends. */
static void layout_note(ts_ctx *c, ts_vline *ln, ts_node *note, int number) {
  ts_vlist outer = c->vl;
  c->vl = c->notes;
  bool was = c->in_note;
  c->in_note = true;
  size_t start = c->vl.n;
  lay L = {.c = c, .entry_depth = -1, .started = true};
  const ts_cstyle *st = ts_style_of(c, note);
  const ts_cstyle *ms = ts_style_note_part(c, note, CSS_PE_FOOTNOTE_MARKER, st);
  const char *m = note_part_text(c, note, ms, number);
  if (*m) {
    L.pd.marker = m;
    L.pd.marker_style = ms ? ms : st;
    L.pd.marker_inside = true;
  }
  layout_block(&L, note, 0, c->content_width);
  for (size_t i = 0; i < L.pd.nanchors; i++)
    vl_push(c, (ts_vitem){.type = TS_V_ANCHOR, .u.id = L.pd.anchors[i]});
  c->notes = c->vl;
  c->vl = outer;
  c->in_note = was;
  size_t first = c->notes.n;
  for (size_t i = start; i < c->notes.n; i++)
    if (c->notes.items[i].type == TS_V_LINE) {
      c->notes.items[i].brk = 1; /* a note starts here */
      first = i + 1;
      break;
    }
  if (first > c->notes.n)
    first = c->notes.n;
  if (c->notes.n > start) {
    ln->notes_need = first;
    ln->notes_end = c->notes.n;
  }
}

/* ---- table cells (ts_table.c) ---------------------------------------- */

void ts_vl_push(ts_ctx *c, ts_vitem it) { vl_push(c, it); }

void ts_layout_cell(ts_ctx *c, ts_node *cell, double width, ts_vlist *out) {
  ts_vlist outer = c->vl;
  c->vl = (ts_vlist){0};
  /* started: a cell's first line asks for no page of its own */
  lay L = {.c = c, .entry_depth = -1, .started = true};
  c->in_float++; /* a float cannot leave a cell */
  layout_children(&L, cell, ts_style_of(c, cell), 0, width);
  c->in_float--;
  *out = c->vl;
  c->vl = outer;
}

/* A paragraph's widest unbreakable run (hyphenation points aside) and its
 * widest line between forced breaks. */
static void measure_para(lay *L, para *pa, const ts_cstyle *bs, double *mn,
                         double *mx) {
  if (!pa->n)
    return;
  itemizer z = {.c = L->c, .ar = pa->ar, .block = bs};
  for (size_t i = 0; i < pa->n; i++) {
    const piece *pc = &pa->p[i];
    if (pc->kind == P_TEXT) {
      itemize_text(&z, pc);
      continue;
    }
    flush_word(&z);
    flush_space(&z);
    double w = pc->kind == P_IMAGE || pc->kind == P_SPACE ? pc->width
               : pc->kind == P_PAGEREF
                   ? ts_text_width(pc->st, L->c->column_digits)
               : pc->kind == P_LEADER ? pc->st->size
                                      : 0;
    if (pc->kind == P_BR)
      add_item(&z, ts_forced_break(),
               (item_ref){R_NONE, NULL, NULL, 0, 0, NULL, NULL, NULL, 0});
    else if (w > 0)
      add_item(&z, ts_box(w),
               (item_ref){R_NONE, NULL, NULL, 0, 0, NULL, NULL, NULL, 0});
  }
  flush_word(&z);
  double run = bs->indent, line = bs->indent;
  for (size_t k = 0; k <= z.n; k++) {
    const ts_item *it = k < z.n ? &z.items[k] : NULL;
    bool glued = k > 0 && z.items[k - 1].type == TS_PENALTY &&
                 z.items[k - 1].penalty >= TS_INF_PENALTY;
    if (it && it->type == TS_BOX) {
      run += it->width;
      line += it->width;
      continue;
    }
    if (it && it->type == TS_GLUE) {
      line += it->width;
      if (glued) {
        run += it->width;
        continue;
      }
    }
    if (it && it->type == TS_PENALTY &&
        (it->penalty >= TS_INF_PENALTY || (it->flagged && it->width > 0)))
      continue;
    if (run > *mn)
      *mn = run;
    run = 0;
    if (!it || (it->type == TS_PENALTY && it->penalty <= -TS_INF_PENALTY)) {
      if (line > *mx)
        *mx = line;
      line = 0;
    }
  }
  oc_arena_free(pa->ar);
  *pa = (para){0};
}

static void measure_children(lay *L, ts_node *n, const ts_cstyle *st,
                             double *mn, double *mx) {
  ts_ctx *c = L->c;
  para pa = {0};
  ts_cstyle *bst = ts_style_pseudo(c, n, CSS_PE_BEFORE);
  if (bst)
    add_generated(L, &pa, n, bst, NULL);
  for (ts_node *ch = n->first; ch; ch = ch->next) {
    if (!ch->tag) {
      push_piece(c, &pa,
                 (piece){P_TEXT, st, ch->text, ch->text_len, NULL, 0, 0, 0, 0});
      continue;
    }
    ts_cstyle *cs = ts_style_of(c, ch);
    if (cs->display == TS_D_NONE)
      continue;
    if (!is_block(cs->display)) {
      collect_element(L, &pa, ch, NULL);
      continue;
    }
    measure_para(L, &pa, st, mn, mx);
    double a = 0, b = 0;
    if (cs->display == TS_D_TABLE)
      ts_measure_table(c, ch, &a, &b);
    else
      measure_children(L, ch, cs, &a, &b);
    if (cs->width >= 0)
      a = b = cs->width;
    double e = cs->border[1] + cs->border[3] + cs->padding[1] + cs->padding[3] +
               (cs->margin[1] > 0 ? cs->margin[1] : 0) +
               (cs->margin[3] > 0 ? cs->margin[3] : 0);
    if (a + e > *mn)
      *mn = a + e;
    if (b + e > *mx)
      *mx = b + e;
  }
  ts_cstyle *ast = ts_style_pseudo(c, n, CSS_PE_AFTER);
  if (ast)
    add_generated(L, &pa, n, ast, NULL);
  measure_para(L, &pa, st, mn, mx);
}

static void style_tree(ts_ctx *c, ts_node *n) {
  for (ts_node *ch = n->first; ch; ch = ch->next)
    if (ch->tag && ts_style_of(c, ch)->display != TS_D_NONE) {
      ts_style_pseudo(c, ch, CSS_PE_BEFORE);
      style_tree(c, ch);
    }
}

void ts_measure_content(ts_ctx *c, ts_node *n, double *min, double *max) {
  lay L = {.c = c, .entry_depth = -1, .started = true};
  *min = *max = 0;
  /* What is wrong in the content is reported once, when it is set; the
     styles (whose warnings are given once ever) are computed first. */
  ts_style_pseudo(c, n, CSS_PE_BEFORE);
  style_tree(c, n);
  const oc_reporter *rep = c->rep, quiet = {0};
  c->rep = &quiet;
  /* footnote calls met while measuring are counted when they are set */
  long counter = c->note_counter;
  size_t ncalls = c->ncalls;
  measure_children(&L, n, ts_style_of(c, n), min, max);
  c->note_counter = counter;
  c->ncalls = ncalls;
  c->rep = rep;
  if (*max < *min)
    *max = *min;
}

/* The digits a leader's page-number column holds: three, or as many as
 * the page count a long document will reach (a page holds more than 1,500
 * bytes of XHTML in any book-like setting, so this over-estimates), which
 * spares a second pass to widen the column. */
static const char *column_digits(const ts_ctx *c) {
  size_t pages = c->in->len / 1500;
  return pages >= 100000  ? "000000"
         : pages >= 10000 ? "00000"
         : pages >= 1000  ? "0000"
                          : "000";
}

int ts_layout(ts_ctx *c) {
  c->column_digits = column_digits(c);
  c->vl.n = 0;
  c->notes.n = 0;
  c->note_counter = 0;
  c->calls = NULL;
  c->ncalls = c->ccalls = 0;
  c->nlines = 0;
  lay L = {.c = c, .entry_depth = -1};
  ts_node *root = c->root;
  ts_cstyle *rs = ts_style_of(c, root);
  (void)rs;
  /* <html> holds <head> and <body>; both are blocks or none. */
  layout_block(&L, root, 0, c->content_width);
  if (!L.started) {
    /* an empty document still makes one page */
    before_content(&L, false);
  }
  /* Anchors after the last line stay with it. */
  return 0;
}
