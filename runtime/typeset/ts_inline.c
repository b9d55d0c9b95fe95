/* Inline layout: a paragraph's pieces (text, images, leaders, page
 * references, anchors, footnote calls) set into lines, in phases as a
 * typesetter does it: itemise (shape words in faces with fallbacks, find
 * hyphenation points, scale images), break (Knuth and Plass through
 * ts_linebreak), build each line (runs, leaders, links, images, code
 * marks). The block layout (ts_layout.c) collects the pieces and places
 * the lines it gets back. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <utf8proc.h>

#include "oc_alloc.h"
#include "ts_cjk.h"
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
  oc_hidx idx;
};

ts_wordcache *ts_wordcache_new(oc_arena *a) {
  ts_wordcache *w = oc_arena_calloc(a, 1, sizeof *w);
  w->a = a;
  oc_hidx_init(&w->idx, a, 4096);
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
  uint64_t h = oc_hash_bytes(OC_HASH_SEED ^ (uint64_t)face->id ^ lig, cps,
                             n * sizeof *cps);
  word_entry *e = oc_hidx_get(&w->idx, h, word_eq, &key);
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
  oc_hidx_put(&w->idx, h, e);
  return e;
}

static const word_entry *shape(ts_ctx *c, const ts_face *face,
                               const uint32_t *cps, size_t n) {
  return shape_lig(c, face, cps, n, false);
}

/* ---- the paragraph's pieces ---------------------------------------- */

void ts_para_push(ts_para *pa, ts_piece pc) {
  if (!pa->ar)
    pa->ar = oc_arena_new();
  pa->p = oc_arena_grow_array(pa->ar, pa->p, pa->n, &pa->cap, pa->n + 1,
                              sizeof *pa->p);
  pa->p[pa->n++] = pc;
}

/* ---- phase 1: itemise ------------------------------------------------ */

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
  R_IMAGE,     /* text: the file; size: its height */
  R_NOTE,      /* ref_style: the call's index in c->calls */
  R_INTERCHAR, /* glue between Han or kana characters: no space drawn */
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
  ts_tagref tag;
} item_ref;

typedef struct itemizer {
  ts_ctx *c;
  oc_arena *ar;   /* scratch */
  double measure; /* the paragraph's line width (code: its continuations') */
  double width;   /* the paragraph's measure: images fit in it */
  const ts_cstyle *block;
  ts_item *items;
  item_ref *refs;
  size_t n, cap;
  struct item_arrays *heap; /* what frees items and refs with ar */
  /* the word being gathered: code points with their piece */
  uint32_t *wcp;
  const ts_piece **wpc;
  size_t wn, wcap;
  bool wcjk; /* the word holds Han or kana: it breaks between characters */
  bool space_pending;
  const ts_piece *space_piece;
  bool has_leader;
  bool code; /* a code block: a word too long for a line breaks anywhere */
  /* Where words start in the text the pieces point into (ts_vline.src):
     the character being read, the word's first, and each word's first
     item with the byte it came from, in item order. */
  const char *at, *wsrc;
  struct word_start {
    size_t item;
    const char *src;
  } * starts;
  size_t nstarts, cstarts;
} itemizer;

/* The reference of an item that draws nothing (glue between words,
 * penalties). */
#define NO_REF ((item_ref){R_NONE, NULL, NULL, 0, 0, NULL, NULL, NULL, 0, {0, 0}})

/* A paragraph's items grow on the heap, freed with its scratch arena: grown
 * in the arena, every outgrown array stayed there until the paragraph was
 * set (a 1 MB paragraph took 250 MB, half of it outgrown copies). */
typedef struct item_arrays {
  ts_item *items;
  item_ref *refs;
} item_arrays;

static void free_item_arrays(void *data) {
  item_arrays *h = data;
  free(h->items);
  free(h->refs);
}

static void add_item(itemizer *z, ts_item it, item_ref r) {
  if (z->n == z->cap) {
    /* room for 64 more at least: a paragraph has many items */
    if (!z->heap) {
      z->heap = oc_arena_calloc(z->ar, 1, sizeof *z->heap);
      z->heap->items = z->items; /* NULL: arrays start on the heap */
      oc_arena_defer(z->ar, free_item_arrays, z->heap);
    }
    z->cap = z->cap ? oc_size_mul(z->cap, 2) : 64;
    z->heap->items = z->items =
        oc_realloc(z->items, oc_size_mul(z->cap, sizeof *z->items));
    z->heap->refs = z->refs =
        oc_realloc(z->refs, oc_size_mul(z->cap, sizeof *z->refs));
  }
  z->items[z->n] = it;
  z->refs[z->n] = r;
  z->n++;
}

/* A line's forced end: no break before it, glue that fills the line (none
 * when rigid), the break. */
static void add_line_end(itemizer *z, bool rigid) {
  add_item(z, ts_penalty(0, TS_INF_PENALTY, false), NO_REF);
  add_item(z, rigid ? ts_glue(0, 0, 0) : ts_fil_glue(0), NO_REF);
  add_item(z, ts_forced_break(), NO_REF);
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
                               const char *lang, unsigned line) {
  if (ts_face_has(face, cp))
    return face;
  const ts_face *f = ts_fonts_fallback(c->fonts, face, cp, lang);
  if (f)
    return f;
  if (c->warned_cp < 20)
    oc_report(c->rep, OC_WARNING, c->in->name, line, 0,
              "no installed font has the character U+%04X; it is left out",
              cp);
  c->warned_cp++;
  return NULL;
}

/* The face for one character of a style, and the character as set: the
 * small-capitals face where it has the character; else capitals at 80%
 * for lower-case letters in small caps; else the style's face; else a
 * fallback face that has it. NULL when none has it. */
static const ts_face *face_of_char(ts_ctx *c, const ts_cstyle *st,
                                   const ts_face *sc, uint32_t cp,
                                   unsigned line, uint32_t *out, bool *lower) {
  *lower = false;
  *out = cp;
  if (sc && ts_face_has(sc, cp))
    return sc;
  if (st->small_caps && utf8proc_islower((int32_t)cp)) {
    *out = (uint32_t)utf8proc_toupper((int32_t)cp);
    *lower = true;
  }
  return face_for(c, st->face, *out, st->lang, line);
}

/* Adds one box per run of one face and size for cps[0..n) (all of piece
 * pc): a fallback face is used for the characters the style's face lacks
 * only, and small capitals are synthesised where no small-caps face has
 * them. */
static void add_boxes(itemizer *z, const ts_piece *pc, const uint32_t *cps,
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
    const ts_face *f = face_of_char(c, st, sc, cps[i], pc->line, &u, &lower);
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
      const ts_face *f2 =
          face_of_char(c, st, sc, cps[i], pc->line, &u2, &lower2);
      if (f2 != f || lower2 != lower)
        break;
      buf[k++] = u2;
      i++;
    }
    const word_entry *w = shape_lig(c, f, buf, k, st->letter_spacing == 0);
    double size = lower ? st->size * 0.8 : st->size;
    double width = w->width * size / 1000.0 + st->letter_spacing * (double)w->n;
    add_item(z, ts_box(width),
             (item_ref){R_TEXT, st, f, size, rise_of(st, z->block), w, pc->href,
                        NULL, 0, pc->tag});
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
  oc_hidx idx;
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
    oc_hidx_init(&h->idx, c->a, 4096);
  }
  uint64_t hv = oc_hash_bytes(OC_HASH_SEED, w, len);
  hyph_key key = {w, len};
  hyph_entry *e = oc_hidx_get(&h->idx, hv, hyph_eq, &key);
  if (!e) {
    size_t got = 0;
    if (ts_hyphenate(c->hyph, c->hyph_lang, w, len, points, 31, &got) !=
        TS_HYPHEN_OK)
      got = 0;
    e = oc_arena_alloc(c->a, sizeof *e);
    e->word = oc_arena_strndup(c->a, w, len);
    e->len = len;
    e->n = (uint8_t)(got > 31 ? 31 : got);
    for (size_t i = 0; i < e->n; i++)
      e->points[i] = (uint8_t)points[i];
    oc_hidx_put(&h->idx, hv, e);
  }
  for (size_t i = 0; i < e->n; i++)
    points[i] = e->points[i];
  *n = e->n;
  return true;
}

/* Where a URL or a token of code may break: after these, as TeX's url
 * package breaks. */
static bool url_break_char(uint32_t cp) {
  return cp == '/' || cp == '.' || cp == '-' || cp == '_' || cp == '?' ||
         cp == '&' || cp == '=';
}

/* Text that reads as a URL or a path: "www." at its start, or two
 * slashes ("://" has them). */
static bool looks_like_url(const uint32_t *cps, size_t n) {
  if (n >= 4 && cps[0] == 'w' && cps[1] == 'w' && cps[2] == 'w' &&
      cps[3] == '.')
    return true;
  size_t slashes = 0;
  for (size_t i = 0; i < n && slashes < 2; i++)
    slashes += cps[i] == '/';
  return slashes >= 2;
}

/* The penalty of a break before cps[i] inside a URL or inline code, or 0
 * for none: after '/' (50, a hyphen's price: the natural place) or after
 * . - _ ? & = (100), never inside a run of them ("://", "../"), after a
 * leading one ("/usr", "-v") nor before the last character ("index.c"
 * keeps its extension with it); no hyphen is added. Priced so that a
 * break is taken only when the line would otherwise be loose. */
static double url_break(const uint32_t *cps, size_t n, size_t i) {
  if (i < 2 || i + 2 > n || !url_break_char(cps[i - 1]) ||
      url_break_char(cps[i]))
    return 0;
  for (size_t k = 0; k + 1 < i; k++)
    if (!url_break_char(cps[k]))
      return cps[i - 1] == '/' ? 50 : 100;
  return 0;
}

/* A word's boxes (cps[0..n), each of its piece pcs[i]), with hyphenation
 * points and the breaks after explicit hyphens and dashes between them;
 * a URL or inline code breaks after its punctuation instead. */
static void word_items(itemizer *z, const uint32_t *cps,
                       const ts_piece *const *pcs, size_t n) {
  ts_ctx *c = z->c;
  if (!n)
    return;
  /* Split at piece changes; hyphenate a word that is all one piece. */
  bool one = true;
  for (size_t i = 1; i < n; i++)
    if (pcs[i] != pcs[0])
      one = false;
  const ts_piece *p0 = pcs[0];
  size_t points[64], npoints = 0;
  /* Code is never hyphenated: a monospaced face reads as typed. */
  bool mono = is_monospaced(p0->st->face);
  bool pre = z->code || p0->st->white_space == TS_WS_PRE ||
             p0->st->white_space == TS_WS_PRE_WRAP;
  bool url = !pre && (mono || looks_like_url(cps, n));
  if (one && p0->st->hyphens && c->lang_ok && n >= 5 && !mono && !url &&
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
      bl += (size_t)utf8proc_encode_char((int32_t)cps[i],
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
      w +=
          ts_face_advance(pcs[i]->st->face, cps[i]) * pcs[i]->st->size / 1000.0;
    too_long = w > z->measure;
  }
  /* Unjustified, a URL breaks anywhere only when a piece between its own
     breaks is wider than the measure: a short ragged line is better than
     "Resources/Tran|slations/" (the breaker would take it, a ragged line
     having little stretch). Justified lines keep the emergency breaks: a
     line of URL pieces alone has no stretch at all. */
  if (too_long && url && z->block->align != TS_ALIGN_JUSTIFY) {
    double piece = 0, widest = 0;
    for (size_t i = 0; i < n; i++) {
      if (url_break(cps, n, i))
        piece = 0;
      piece += ts_face_advance(pcs[i]->st->face, cps[i]) *
               pcs[i]->st->size / 1000.0;
      if (piece > widest)
        widest = piece;
    }
    too_long = widest > z->measure;
  }
  size_t start = 0, pi = 0;
  for (size_t i = 0; i <= n; i++) {
    bool end = i == n;
    bool piece_change = !end && pcs[i] != pcs[start];
    bool hyph = !end && pi < npoints && points[pi] == i;
    /* after an explicit hyphen or dash with letters around it */
    double urlp = url && !end ? url_break(cps, n, i) : 0;
    bool exh = !end && !url && i >= 2 &&
               (cps[i - 1] == '-' || cps[i - 1] == 0x2013 ||
                cps[i - 1] == 0x2014 || cps[i - 1] == '/') &&
               is_letter(cps[i]) && i - start >= 2 && !mono &&
               pcs[i - 1]->st->white_space != TS_WS_PRE;
    /* A word longer than a line could be (a URL, a token of code) may
       break anywhere, at a price, rather than run into the margin. */
    bool any = !end && too_long &&
               ((i - start >= 4 && n - i >= 4) || c->break_words || z->code);
    if (!end && !piece_change && !hyph && !exh && !any && !urlp)
      continue;
    if (i > start)
      add_boxes(z, pcs[start], cps + start, i - start);
    if (hyph) {
      const ts_cstyle *st = pcs[i - 1]->st;
      add_item(z, ts_hyphen_point(hyphen_width(c, st), c->bp.hyphen_penalty),
               (item_ref){R_HYPHEN, st, st->face, st->size, 0, NULL,
                          pcs[i - 1]->href, NULL, 0, pcs[i - 1]->tag});
      pi++;
    } else if (urlp) {
      add_item(z, ts_penalty(0, urlp, false), NO_REF);
    } else if (any && !exh) {
      add_item(z, ts_penalty(0, 3000, false), NO_REF);
    } else if (exh) {
      bool slash = cps[i - 1] == '/';
      add_item(z, ts_penalty(0, slash ? 200 : c->bp.exhyphen_penalty, !slash),
               NO_REF);
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

/* Words' items, for the whole render (every pass). */
struct ts_worditems {
  oc_hidx idx;
};

static struct ts_worditems *worditems(ts_ctx *c) {
  if (!c->worditems) {
    c->worditems = oc_arena_calloc(c->a, 1, sizeof *c->worditems);
    oc_hidx_init(&c->worditems->idx, c->a, 8192);
  }
  return c->worditems;
}

static bool wordit_eq(const void *entry, const void *key) {
  const wordit *e = entry, *k = key;
  return e->st == k->st && e->block == k->block && e->n == k->n &&
         memcmp(e->cps, k->cps, k->n * sizeof *k->cps) == 0;
}

static void word_items_cached(itemizer *z, const uint32_t *cps,
                              const ts_piece *const *pcs, size_t n) {
  ts_ctx *c = z->c;
  if (!n)
    return;
  const ts_piece *p0 = pcs[0];
  bool one = n <= 16 && !c->break_words;
  for (size_t i = 1; one && i < n; i++)
    if (pcs[i] != p0)
      one = false;
  if (!one) {
    word_items(z, cps, pcs, n);
    return;
  }
  struct ts_worditems *wc = worditems(c);
  uint64_t h = OC_HASH_SEED ^ (uint64_t)(uintptr_t)p0->st;
  h = oc_hash_u64(h, (uint64_t)(uintptr_t)z->block);
  h = oc_hash_bytes(h, cps, n * sizeof *cps);
  wordit key = {p0->st, z->block, (uint32_t *)cps, n, NULL, NULL, 0};
  const wordit *e = oc_hidx_get(&wc->idx, h, wordit_eq, &key);
  if (e) {
    for (size_t k = 0; k < e->nitems; k++) {
      item_ref r = e->refs[k];
      r.href = p0->href;
      r.tag = p0->tag;
      add_item(z, e->items[k], r);
    }
    return;
  }
  size_t first = z->n;
  wordit *ne = oc_arena_alloc(c->a, sizeof *ne);
  *ne = key;
  ne->cps = oc_arena_alloc(c->a, n * sizeof *ne->cps);
  memcpy(ne->cps, cps, n * sizeof *ne->cps);
  word_items(z, cps, pcs, n);
  size_t ni = z->n - first;
  ne->nitems = ni;
  ne->items = oc_arena_alloc(c->a, (ni ? ni : 1) * sizeof *ne->items);
  ne->refs = oc_arena_alloc(c->a, (ni ? ni : 1) * sizeof *ne->refs);
  memcpy(ne->items, z->items + first, ni * sizeof *ne->items);
  for (size_t k = 0; k < ni; k++) {
    ne->refs[k] = z->refs[first + k];
    ne->refs[k].href = NULL;
  }
  oc_hidx_put(&wc->idx, h, ne);
}

/* Glue at a break between Han or kana characters: what justifies a line
 * that has few spaces or none. A tenth of an em to stretch and a fiftieth
 * to shrink, so that the characters keep their grid unless a line needs
 * it (Japanese classes give about as much to \kanjiskip). */
static void add_interchar_glue(itemizer *z, const ts_piece *pc) {
  const ts_cstyle *st = pc->st;
  bool justify = z->block->align == TS_ALIGN_JUSTIFY &&
                 st->white_space != TS_WS_PRE &&
                 st->white_space != TS_WS_PRE_WRAP;
  add_item(z,
           ts_glue(0, justify ? st->size / 10 : 0, justify ? st->size / 50 : 0),
           (item_ref){R_INTERCHAR, st, NULL, 0, 0, NULL, pc->href, NULL, 0,
                      pc->tag});
}

/* A word that holds Han or kana (cps[0..n)): its Latin runs become words
 * of their own (hyphenated, broken after their hyphens, as in any text);
 * the rest boxes between the break opportunities of ts_cjk_breaks (from
 * Unicode's rules when the caller gave them), each break a glue. */
static void cjk_items(itemizer *z, const uint32_t *cps,
                      const ts_piece *const *pcs, size_t n) {
  ts_ctx *c = z->c;
  bool *brk = oc_calloc(n, sizeof *brk);
  const ts_engine_input *in = c->in;
  if (in && in->line_breaks &&
      !in->line_breaks(in->line_breaks_user, pcs[0]->st->lang, cps, n, brk))
    memset(brk, 0, n * sizeof *brk);
  ts_cjk_breaks(cps, n, brk);
  /* white-space: nowrap keeps its text on one line, as at its spaces */
  for (size_t i = 1; i < n; i++)
    if (brk[i] && (pcs[i - 1]->st->white_space == TS_WS_NOWRAP ||
                   pcs[i]->st->white_space == TS_WS_NOWRAP))
      brk[i] = false;
  size_t start = 0;
  bool latin = ts_cjk_class_of(cps[0]) == TS_CJK_NONE;
  for (size_t i = 1; i <= n; i++) {
    bool latin_i = i < n && ts_cjk_class_of(cps[i]) == TS_CJK_NONE;
    if (i < n && !brk[i] && latin_i == latin && (latin || pcs[i] == pcs[start]))
      continue;
    if (latin)
      word_items_cached(z, cps + start, pcs + start, i - start);
    else
      add_boxes(z, pcs[start], cps + start, i - start);
    if (i < n && brk[i])
      add_interchar_glue(z, pcs[i - 1]);
    start = i;
    latin = latin_i;
  }
  free(brk);
}

/* Ends the word being gathered. */
static void flush_word(itemizer *z) {
  if (z->wn) {
    /* where the word starts (a run of Han or kana is one word here) */
    z->starts = oc_arena_grow_array(z->ar, z->starts, z->nstarts, &z->cstarts,
                                    z->nstarts + 1, sizeof *z->starts);
    z->starts[z->nstarts++] = (struct word_start){z->n, z->wsrc};
  }
  if (z->wcjk)
    cjk_items(z, z->wcp, (const ts_piece *const *)z->wpc, z->wn);
  else
    word_items_cached(z, z->wcp, (const ts_piece *const *)z->wpc, z->wn);
  z->wn = 0;
  z->wcjk = false;
}

static void word_push(itemizer *z, uint32_t cp, const ts_piece *pc) {
  if (z->wn == z->wcap) {
    size_t cap = z->wcap;
    z->wcp = oc_arena_grow_array(z->ar, z->wcp, z->wn, &cap, z->wn + 64,
                                 sizeof *z->wcp);
    z->wpc = oc_arena_grow_array(z->ar, z->wpc, z->wn, &z->wcap, z->wn + 64,
                                 sizeof *z->wpc);
  }
  if (!z->wn)
    z->wsrc = z->at;
  z->wcp[z->wn] = cp;
  z->wpc[z->wn] = pc;
  z->wn++;
  if (cp >= TS_CJK_FIRST && !z->wcjk && ts_cjk_class_of(cp) != TS_CJK_NONE &&
      !ts_cjk_keep_all(pc->st->lang))
    z->wcjk = true;
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
    add_item(z, ts_penalty(0, TS_INF_PENALTY, false), NO_REF);
  /* TeX's proportions (stretch half the space, shrink a third), with at
     least a sixth of an em to stretch: faces with narrow spaces (EB
     Garamond's is a fifth of an em) would otherwise justify badly. */
  double stretch = w / 2 > st->size / 6 ? w / 2 : st->size / 6;
  add_item(
      z, ts_glue(w, justify ? stretch : 0, justify ? w / 3 : 0),
      (item_ref){R_NONE, st, NULL, 0, 0, NULL, z->space_piece->href, NULL, 0,
                 z->space_piece->tag});
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

static void itemize_text(itemizer *z, const ts_piece *pc) {
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
    z->at = pc->text + i;
    i += (size_t)k;
    if (cp == '\n' && keep_nl) {
      flush_word(z);
      z->space_pending = false;
      add_line_end(z, false);
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
      add_item(z, ts_penalty(0, TS_INF_PENALTY, false), NO_REF);
      double w = space_width(z->c, pc->st) * (cp == 0x202F ? 0.6 : 1);
      bool justify = z->block->align == TS_ALIGN_JUSTIFY && cp == 0xA0;
      add_item(z, ts_glue(w, justify ? w / 2 : 0, justify ? w / 3 : 0),
               (item_ref){R_NONE, pc->st, NULL, 0, 0, NULL, pc->href, NULL, 0,
                          pc->tag});
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

double ts_strut_above(const ts_cstyle *st) { return strut_of(st).above; }

/* ---- phase 3: build lines ---------------------------------------------- */

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
 * gaps between words given as kerning (one TJ array a run). A run grows
 * on the heap and is copied into the pass arena at its exact size when it
 * closes: the arena keeps no room a run did not use (100,000 short lines
 * held 1.5 KB each before). */
typedef struct runbuf {
  uint32_t *codes;
  int32_t *kern;
  size_t n, cap;
} runbuf;

static void rb_push(runbuf *b, uint32_t code, int32_t kern) {
  if (b->n == b->cap) {
    /* room for 64 glyphs more at least: a run is a line's words */
    b->cap = b->cap ? oc_size_mul(b->cap, 2) : 64;
    b->codes = oc_realloc(b->codes, oc_size_mul(b->cap, sizeof *b->codes));
    b->kern = oc_realloc(b->kern, oc_size_mul(b->cap, sizeof *b->kern));
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
  /* The gap before the next glyphs is glue between Han or kana
     characters, not a word space: no space glyph goes into it. */
  bool interchar;
} line_builder;

static ts_run *lb_new_run(line_builder *b) {
  ts_vline *ln = b->ln;
  if (ln->nruns == b->cruns) {
    /* most lines hold one or two runs: start at two, then double */
    if (!b->cruns) {
      ts_run *r = oc_arena_alloc(b->c->pa, 2 * sizeof *ln->runs);
      if (ln->nruns)
        memcpy(r, ln->runs, ln->nruns * sizeof *r);
      ln->runs = r;
      b->cruns = 2;
    } else {
      ln->runs = oc_arena_grow_array(b->c->pa, ln->runs, ln->nruns, &b->cruns,
                                     ln->nruns + 1, sizeof *ln->runs);
    }
    if (b->cur)
      b->cur = &ln->runs[ln->nruns - 1];
  }
  return &ln->runs[ln->nruns++];
}

static void lb_close(line_builder *b) {
  if (!b->cur)
    return;
  size_t n = b->rb.n;
  b->cur->codes =
      oc_arena_alloc(b->c->pa, oc_size_mul(n + 1, sizeof(uint32_t)));
  b->cur->kern = oc_arena_alloc(b->c->pa, oc_size_mul(n + 1, sizeof(int32_t)));
  if (n) {
    memcpy(b->cur->codes, b->rb.codes, n * sizeof(uint32_t));
    memcpy(b->cur->kern, b->rb.kern, n * sizeof(int32_t));
  }
  b->cur->n = n;
  free(b->rb.codes);
  free(b->rb.kern);
  b->cur = NULL;
  b->rb = (runbuf){0};
}

static void lb_glyphs(line_builder *b, const ts_cstyle *st, const ts_face *face,
                      double size, double rise, double x, const uint32_t *codes,
                      const int32_t *kern, size_t n, double width,
                      ts_tagref tag) {
  ts_run *r = b->cur;
  /* a run is one structure element's (one marked-content sequence) */
  bool same = r && r->tag.sid == tag.sid && r->face == face &&
              r->size == size && r->rise == rise &&
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
                  .strike = st->strike,
                  .tag = tag};
    b->cur = r;
    gap = 0;
  }
  /* A gap between words gets a real space glyph, its width taken out of
     the gap, so that text extraction and copying find the word spaces
     without guessing from positions. */
  int32_t first_kern = gap;
  bool interchar = b->interchar;
  b->interchar = false;
  if (same && gap >= 100 && !interchar && ts_face_has(face, ' ')) {
    rb_push(&b->rb, ' ', 0);
    first_kern -= ts_face_advance(face, ' ');
  }
  for (size_t i = 0; i < n; i++)
    rb_push(&b->rb, codes[i], (i == 0 ? first_kern : 0) + (kern ? kern[i] : 0));
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
                    double above, double below, size_t *clinks, ts_tagref tag) {
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
  ln->links[ln->nlinks++] = (ts_link){x0, x1, above, below, href, tag};
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

void ts_hang_text(ts_ctx *c, ts_vline *ln, const ts_cstyle *st,
                  const char *text, double right_edge, ts_tagref tag) {
  ts_vline tmp = {0};
  double w = ts_set_text_line(c, st, text, &tmp);
  if (!tmp.nruns)
    return;
  for (size_t i = 0; i < tmp.nruns; i++) {
    tmp.runs[i].x += right_edge - w;
    tmp.runs[i].tag = tag;
  }
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
/* ---- the phases ------------------------------------------------------- */

/* A paragraph on its way through the phases: what each one leaves for the
 * next. */
typedef struct para_set {
  ts_ctx *c;
  const ts_cstyle *bs; /* the block's style */
  double x, measure;
  itemizer z; /* phase 1: the items */
  bool code;  /* a code block: its continuations marked, narrower by markw */
  double markw;
  /* phase 2: the breaks (code: each line's source line number, 0 on
     continuations), with the parameters they were found with */
  ts_break_params bp;
  double widths[2];
  ts_breaks br;
  size_t *lineno;
  long line_base; /* code: the number before the first line, -1: none */
  const ts_cstyle *mark_st, *num_st;
  size_t next_start; /* phase 3: the first of z.starts not yet on a line */
} para_set;

/* Phase 1, itemise: an image at its size, or the width CSS gives it, never
 * wider than the measure nor taller than the page. */
static void itemize_image(itemizer *z, const ts_piece *pc) {
  double measure = z->width;
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
  double maxh = z->c->content_height * 0.95;
  if (h > maxh && maxh > 0) {
    w *= maxh / h;
    h = maxh;
  }
  add_item(
      z, ts_box(w),
      (item_ref){R_IMAGE, pc->st, NULL, h, 0, NULL, pc->href, pc->text, 0,
                 pc->tag});
}

/* Phase 1, itemise: a page reference, its width what the previous pass
 * found it prints. */
static void itemize_pageref(itemizer *z, const ts_piece *pc) {
  ts_ctx *c = z->c;
  /* in the text, a number stays on the line of the word before it
     ("page 12"), as TeX's tie keeps it */
  if (z->space_pending && !z->has_leader)
    add_item(z, ts_penalty(0, TS_INF_PENALTY, false), NO_REF);
  flush_space(z);
  const char *t = pageref_text(c, pc->text);
  double w = ts_text_width(pc->st, t);
  /* After a leader, a number gets a column at least three digits wide
     and is set flush right in it: the leader takes up the difference,
     so the number never changes the lines and one pass is enough (a
     wider number asks for another). */
  if (z->has_leader) {
    double col = ts_text_width(pc->st, c->column_digits);
    if (w < col)
      w = col;
  }
  add_item(z, ts_box(w),
           (item_ref){R_PAGEREF, pc->st, pc->st->face, pc->st->size, 0, NULL,
                      pc->href, pc->text, pc->ref_style, pc->tag});
  z->refs[z->n - 1].rise = z->has_leader ? 1 : 0; /* marks a fixed column */
}

/* Phase 1, itemise: one piece. */
static void itemize_piece(itemizer *z, const ts_piece *pc) {
  if (pc->kind == TS_P_TEXT) {
    itemize_text(z, pc);
    return;
  }
  flush_word(z);
  switch (pc->kind) {
  case TS_P_IMAGE:
    flush_space(z);
    itemize_image(z, pc);
    break;
  case TS_P_SPACE:
    flush_space(z);
    add_item(z, ts_box(pc->width),
             (item_ref){R_INDENT, pc->st, NULL, 0, 0, NULL, pc->href, NULL, 0,
                        {0, 0}});
    break;
  case TS_P_ANCHOR:
    flush_space(z);
    add_item(z, ts_box(0),
             (item_ref){R_ANCHOR, pc->st, NULL, 0, 0, NULL, NULL, pc->text, 0,
                        {0, 0}});
    break;
  case TS_P_NOTE:
    /* no break between the call and the word it follows */
    add_item(z, ts_box(0),
             (item_ref){R_NOTE, pc->st, NULL, 0, 0, NULL, NULL, NULL,
                        pc->ref_style, {0, 0}});
    break;
  case TS_P_BR:
    z->space_pending = false;
    add_line_end(z, false);
    break;
  case TS_P_LEADER:
    flush_space(z);
    /* a little room on both sides, then dots filling the rest */
    add_item(z, ts_penalty(0, TS_INF_PENALTY, false), NO_REF);
    add_item(z, ts_fil_glue(pc->st->size * 0.5),
             (item_ref){R_LEADER, pc->st, pc->st->face, pc->st->size, 0, NULL,
                        pc->href, pc->text, 0, {0, 0}});
    z->has_leader = true;
    break;
  case TS_P_PAGEREF:
    itemize_pageref(z, pc);
    break;
  default:
    break;
  }
}

/* Phase 1, itemise: the paragraph's pieces to boxes, glue and penalties,
 * an inside marker (a list item's) first and the first-line indent
 * before the first text. Trailing glue never ends a paragraph, nor does a
 * last line break (a <br/> or the newline that ends a <pre>, as in
 * HTML). */
static void itemize_para(para_set *ps, const ts_para *pa, const char *marker,
                         const ts_cstyle *marker_st, ts_tagref marker_tag) {
  itemizer *z = &ps->z;
  const ts_cstyle *bs = ps->bs;
  if (marker) {
    /* an inside marker is the line's first word */
    const char *m = oc_arena_printf(pa->ar, "%s ", marker);
    ts_piece mp = {TS_P_TEXT, marker_st, m, strlen(m), NULL, 0, 0, 0, 0, 0,
                   marker_tag};
    itemize_text(z, &mp);
    flush_word(z);
    flush_space(z);
  }
  bool indent_done = false;
  for (size_t i = 0; i < pa->n; i++) {
    const ts_piece *pc = &pa->p[i];
    if (!indent_done && bs->indent != 0 &&
        (pc->kind == TS_P_TEXT || pc->kind == TS_P_LEADER ||
         pc->kind == TS_P_PAGEREF)) {
      add_item(z, ts_box(bs->indent),
               (item_ref){R_INDENT, bs, NULL, 0, 0, NULL, NULL, NULL, 0,
                          {0, 0}});
      indent_done = true;
    }
    itemize_piece(z, pc);
  }
  flush_word(z);
  z->space_pending = false;
  for (;;) {
    while (z->n && z->items[z->n - 1].type == TS_GLUE &&
           z->refs[z->n - 1].kind == R_NONE)
      z->n--;
    if (z->n >= 3 && z->items[z->n - 1].type == TS_PENALTY &&
        z->items[z->n - 1].penalty <= -TS_INF_PENALTY &&
        z->items[z->n - 2].type == TS_GLUE && z->items[z->n - 2].fil &&
        z->items[z->n - 3].type == TS_PENALTY) {
      z->n -= 3;
      continue;
    }
    break;
  }
}

/* Phase 2, break: the line breaker's parameters for the block's alignment
 * and white space, the paragraph's end, then Knuth and Plass over the
 * items (a code block one source line at a time, its continuations
 * narrower). */
static void break_para(para_set *ps) {
  ts_ctx *c = ps->c;
  const ts_cstyle *bs = ps->bs;
  itemizer *z = &ps->z;
  ts_break_params *bp = &ps->bp;
  *bp = c->bp;
  bp->line_widths = &ps->measure;
  bp->n_line_widths = 1;
  double em = bs->size;
  bool rigid_end = z->has_leader;
  switch (bs->align) {
  case TS_ALIGN_JUSTIFY:
    break;
  case TS_ALIGN_LEFT:
    bp->right_skip = (ts_skip){0, 2.5 * em, 0};
    break;
  case TS_ALIGN_RIGHT:
    bp->left_skip = (ts_skip){0, 10000, 0};
    rigid_end = true;
    break;
  case TS_ALIGN_CENTER:
    bp->left_skip = (ts_skip){0, 10000, 0};
    bp->right_skip = (ts_skip){0, 10000, 0};
    rigid_end = true;
    break;
  }
  if (bs->white_space == TS_WS_PRE || bs->white_space == TS_WS_PRE_WRAP ||
      bs->white_space == TS_WS_NOWRAP)
    bp->right_skip = (ts_skip){0, 10000, 0};
  add_line_end(z, rigid_end);
  bp->emergency_stretch = 3 * em;
  ps->line_base = -1;
  if (!ps->code) {
    ts_break_lines(z->ar, z->items, z->n, bp, &ps->br);
    return;
  }
  ps->widths[0] = ps->measure;
  ps->widths[1] = ps->measure - ps->markw;
  bp->line_widths = ps->widths;
  bp->n_line_widths = 2;
  bp->left_skip = (ts_skip){0, 0, 0};
  break_code(z, bp, &ps->br, &ps->lineno);
  ps->mark_st = code_aside_style(c, bs, 1);
  ps->line_base = code_line_base(c, bs);
  if (ps->line_base >= 0)
    ps->num_st = code_aside_style(c, bs, 0.8);
}

/* A line being built: its runs, and the room its arrays have. */
typedef struct line_state {
  line_builder b;
  size_t clinks, cleaders, crefs, canchors, cimages;
  double above, below; /* from its strut, widened by what it holds */
  double pos;          /* the pen, from the line's left */
  const ts_cstyle *last_st;
} line_state;

/* Phase 3, build: a glue item (a leader's dots, a link's stretch). */
static void place_glue(line_state *s, const ts_line *l, const ts_item *it,
                       const item_ref *r, bool first) {
  ts_vline *ln = s->b.ln;
  double w = glue_set(it, l);
  s->b.interchar = r->kind == R_INTERCHAR;
  if (r->kind == R_LEADER) {
    ln->leaders =
        oc_arena_grow_array(s->b.c->pa, ln->leaders, ln->nleaders, &s->cleaders,
                            ln->nleaders + 1, sizeof *ln->leaders);
    uint32_t dot = '.';
    if (r->text && *r->text) {
      utf8proc_int32_t cp;
      if (utf8proc_iterate((const utf8proc_uint8_t *)r->text, -1, &cp) > 0)
        dot = (uint32_t)cp;
    }
    ln->leaders[ln->nleaders++] = (ts_leader){
        (ts_face *)r->face, r->size, r->st->color, s->pos, s->pos + w, dot};
  }
  if (r->href && !first)
    lb_link(&s->b, r->href, s->pos, s->pos + w, s->above, s->below, &s->clinks,
            r->tag);
  s->pos += w;
}

/* Phase 3, build: a box (glyphs, a page reference, an image, an anchor, a
 * footnote call, which goes to out's notes). */
static void place_box(line_state *s, const ts_item *it, const item_ref *r,
                      ts_set_para *out, oc_arena *scratch) {
  ts_vline *ln = s->b.ln;
  oc_arena *pa = s->b.c->pa;
  double pos = s->pos;
  switch (r->kind) {
  case R_TEXT: {
    /* An inline box widens the line only when its glyphs reach past
       the paragraph's strut (TeX's way: an even baseline grid, unless
       a formula or a big letter needs the room): by their ink, not by
       their face's ascent and descent, which a face of another script
       sets far apart (Noto CJK's reach 1.16 em up, its ideographs 0.88
       em), so that a line holding a few Han characters keeps the grid. */
    strut st = {r->face->ascent * r->size / 1000.0,
                -r->face->descent * r->size / 1000.0};
    if (st.above + r->rise > s->above || st.below - r->rise > s->below) {
      int top, bottom;
      ts_face_ink(r->face, r->w->codes, r->w->n, &top, &bottom);
      double ink_above = top * r->size / 1000.0;
      double ink_below = bottom * r->size / 1000.0;
      if (ink_above + r->rise > s->above)
        s->above = ink_above + r->rise;
      if (ink_below - r->rise > s->below)
        s->below = ink_below - r->rise;
    }
    lb_glyphs(&s->b, r->st, r->face, r->size, r->rise, pos, r->w->codes,
              r->w->kern, r->w->n, it->width, r->tag);
    if (r->href)
      lb_link(&s->b, r->href, pos, pos + it->width, st.above + r->rise,
              st.below, &s->clinks, r->tag);
    s->last_st = r->st;
    break;
  }
  case R_PAGEREF:
    ln->refs = oc_arena_grow_array(pa, ln->refs, ln->nrefs, &s->crefs,
                                   ln->nrefs + 1, sizeof *ln->refs);
    lb_close(&s->b);
    ln->refs[ln->nrefs++] = (ts_pageref){
        r->text,      r->ref_style, (ts_face *)r->face, r->size,
        r->st->color, pos,          it->width,          r->rise != 0,
        r->tag};
    if (r->href)
      lb_link(&s->b, r->href, pos, pos + it->width, s->above, s->below,
              &s->clinks, r->tag);
    break;
  case R_IMAGE:
    /* the image stands on the baseline */
    if (r->size > s->above)
      s->above = r->size;
    ln->images = oc_arena_grow_array(pa, ln->images, ln->nimages, &s->cimages,
                                     ln->nimages + 1, sizeof *ln->images);
    ln->images[ln->nimages++] =
        (ts_image_box){r->text, pos, it->width, r->size, r->tag};
    if (r->href)
      lb_link(&s->b, r->href, pos, pos + it->width, r->size, 0, &s->clinks,
              r->tag);
    break;
  case R_ANCHOR:
    ln->anchors =
        oc_arena_grow_array(pa, ln->anchors, ln->nanchors, &s->canchors,
                            ln->nanchors + 1, sizeof *ln->anchors);
    ln->anchors[ln->nanchors++] = r->text;
    break;
  case R_NOTE:
    out->notes =
        oc_arena_grow_array(scratch, out->notes, out->nnotes, &out->cnotes,
                            out->nnotes + 1, sizeof *out->notes);
    out->notes[out->nnotes++] = (ts_para_note){ln, r->ref_style};
    break;
  default:
    break;
  }
  s->pos += it->width;
}

/* Phase 3, build: line li from its items, the hyphen of a hyphenated line,
 * a code line's mark or number hung left of it. */
static ts_para_line build_line(para_set *ps, size_t li, strut bst,
                               ts_set_para *out) {
  ts_ctx *c = ps->c;
  const itemizer *z = &ps->z;
  const ts_line *l = &ps->br.lines[li];
  ts_vline *ln = oc_arena_calloc(c->pa, 1, sizeof *ln);
  ln->x = ps->x;
  ln->width = ps->measure;
  bool cont = ps->code && ps->lineno[li] == 0;
  if (cont) {
    ln->x += ps->markw;
    ln->width -= ps->markw;
  }
  line_state s = {.b = {.c = c, .ln = ln},
                  .above = bst.above,
                  .below = bst.below,
                  .pos = skip_set(ps->bp.left_skip, l),
                  .last_st = ps->bs};
  /* the first word that starts on the line (not the end of one broken
     at a hyphen on the line before) */
  while (ps->next_start < z->nstarts &&
         z->starts[ps->next_start].item < l->start)
    ps->next_start++;
  if (ps->next_start < z->nstarts && z->starts[ps->next_start].item < l->end)
    ln->src = z->starts[ps->next_start].src;
  for (size_t k = l->start; k < l->end; k++) {
    const ts_item *it = &z->items[k];
    if (it->type == TS_GLUE)
      place_glue(&s, l, it, &z->refs[k], k == l->start);
    else if (it->type != TS_PENALTY)
      place_box(&s, it, &z->refs[k], out, z->ar);
  }
  if (l->end < z->n && z->items[l->end].type == TS_PENALTY &&
      z->items[l->end].flagged && z->items[l->end].width > 0) {
    const item_ref *r = &z->refs[l->end];
    const ts_cstyle *st = r->st ? r->st : s.last_st;
    uint32_t h = '-';
    const word_entry *w = shape(c, st->face, &h, 1);
    lb_glyphs(&s.b, st, st->face, st->size, 0, s.pos, w->codes, w->kern, w->n,
              z->items[l->end].width, r->tag);
  }
  lb_close(&s.b);
  if (cont) {
    ts_hang_text(c, ln, ps->mark_st, "\u21AA", 0, (ts_tagref){0, 0});
  } else if (ps->code && ps->num_st) {
    char num[24];
    snprintf(num, sizeof num, "%ld", ps->line_base + (long)ps->lineno[li]);
    ts_hang_text(c, ln, ps->num_st, num, -ps->bs->size, (ts_tagref){0, 0});
  }
  return (ts_para_line){ln, s.above, s.below};
}

bool ts_set_paragraph(ts_ctx *c, const ts_para *pa, const ts_cstyle *bs,
                      double x, double measure, const char *marker,
                      const ts_cstyle *marker_st, ts_tagref marker_tag,
                      ts_set_para *out) {
  para_set ps = {.c = c, .bs = bs, .x = x, .measure = measure};
  ps.z = (itemizer){
      .c = c, .ar = pa->ar, .block = bs, .measure = measure, .width = measure};
  *out = (ts_set_para){0};
  /* code: continuation lines are narrower by the mark's column */
  ps.code = is_code_block(bs);
  if (ps.code) {
    const ts_face *mf = face_for(c, bs->face, CODE_MARK, bs->lang, 0);
    ps.markw = mf ? ts_face_advance(mf, CODE_MARK) * bs->size / 1000.0 : 0;
    if (ps.markw > measure / 4)
      ps.markw = 0;
    ps.z.code = true;
    ps.z.measure = measure - ps.markw;
  }
  itemize_para(&ps, pa, marker, marker_st, marker_tag);
  if (!ps.z.n)
    return false;
  break_para(&ps);
  strut bst = strut_of(bs);
  out->n = ps.br.n_lines;
  out->lines =
      oc_arena_alloc(pa->ar, (out->n ? out->n : 1) * sizeof *out->lines);
  for (size_t li = 0; li < out->n; li++)
    out->lines[li] = build_line(&ps, li, bst, out);
  return true;
}
/* Sets text on one line at its natural width (margin boxes, markers). */
double ts_set_text_line(ts_ctx *c, const ts_cstyle *st, const char *text,
                        ts_vline *line) {
  itemizer z = {.c = c, .ar = oc_arena_new(), .block = st};
  ts_piece pc = {TS_P_TEXT, st, text, strlen(text), NULL, 0, 0, 0, 0, 0, {0, 0}};
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
                r->w->kern, r->w->n, it->width, r->tag);
    if (it->type != TS_PENALTY)
      pos += it->width;
  }
  lb_close(&b);
  oc_arena_free(z.ar);
  line->width = pos;
  return pos;
}

/* ---- measuring (table columns) ---------------------------------------- */

void ts_measure_para(ts_ctx *c, const ts_para *pa, const ts_cstyle *bs,
                     double *mn, double *mx) {
  if (!pa->n)
    return;
  itemizer z = {.c = c, .ar = pa->ar, .block = bs};
  for (size_t i = 0; i < pa->n; i++) {
    const ts_piece *pc = &pa->p[i];
    if (pc->kind == TS_P_TEXT) {
      itemize_text(&z, pc);
      continue;
    }
    flush_word(&z);
    flush_space(&z);
    double w = pc->kind == TS_P_IMAGE || pc->kind == TS_P_SPACE ? pc->width
               : pc->kind == TS_P_PAGEREF
                   ? ts_text_width(pc->st, c->column_digits)
               : pc->kind == TS_P_LEADER ? pc->st->size
                                         : 0;
    if (pc->kind == TS_P_BR)
      add_item(&z, ts_forced_break(), NO_REF);
    else if (w > 0)
      add_item(&z, ts_box(w), NO_REF);
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
}
