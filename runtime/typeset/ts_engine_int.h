/* The PDF engine's inner structures, shared by its parts and by no one else.
 * Its files form layers, each calling only those below it (tables and
 * blocks call each other: a cell holds blocks):
 *
 *   ts_engine.c   the entry point and the passes that settle page references
 *   ts_draw.c     the pages to PDF: items, footnotes, margin boxes and
 *                 running strings, page labels, the outline
 *   ts_page.c     the vertical list to pages (breaks, keeps, widows and
 *                 orphans, floats, footnotes, blank pages, @page rules,
 *                 page counters, anchors)
 *   ts_layout.c   the node tree to a vertical list: blocks with margins,
 *                 borders and backgrounds; paragraphs' pieces collected,
 *                 their lines placed
 *   ts_table.c    tables as rows of boxes
 *   ts_inline.c   a paragraph's pieces set into lines, in phases
 *   ts_struct.c   the structure tree of a tagged PDF: elements by node
 *   ts_style.c    XHTML (libxml2) to a node tree, the cascade, computed styles
 *   ts_fontuse.c  the fonts a render uses: @font-face, warnings
 *
 * Everything lives in the render's arena. */
#ifndef OCTAVO_TS_ENGINE_INT_H
#define OCTAVO_TS_ENGINE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "css.h"
#include "oc_hash.h"
#include "ts_engine.h"
#include "ts_font.h"
#include "ts_hyphen.h"
#include "ts_linebreak.h"
#include "ts_pdf.h"

/* ---- the document ---------------------------------------------------- */

/* Where a drawn piece belongs in a tagged PDF's structure tree
 * (ts_struct.c): the element (an index of the structure's elements; 0:
 * none, the piece is an artifact) and its place in document order (the
 * preorder number of the node it comes from). */
typedef struct ts_tagref {
  uint32_t sid, ord;
} ts_tagref;

typedef struct ts_node ts_node;
struct ts_node {
  const char *tag;  /* NULL for text */
  const char *text; /* text nodes: the characters */
  size_t text_len;
  const char *id;
  const char **classes;
  size_t nclasses;
  const char **attrs; /* name, value, name, value, ... */
  size_t nattrs;
  ts_node *parent, *prev_el, *first, *next;
  unsigned line;                    /* in the XHTML, for messages */
  struct ts_cstyle *style;          /* computed when laid out */
  struct ts_cstyle *before, *after; /* ::before, ::after; NULL: none */
  bool pseudo_done;
  bool sid_done;         /* sid is known (ts_struct.c) */
  uint32_t sid;          /* the structure element its content goes to */
  uint32_t ord, ord_end; /* preorder numbers: its own, its last descendant's */
  size_t xel; /* elements: its index among the XHTML's, in document order
                 (elements nested past TS_MAX_DEPTH have no node) */
};

/* ---- computed styles ------------------------------------------------- */

enum { TS_ALIGN_LEFT, TS_ALIGN_RIGHT, TS_ALIGN_CENTER, TS_ALIGN_JUSTIFY };
enum { TS_WS_NORMAL, TS_WS_PRE, TS_WS_NOWRAP, TS_WS_PRE_WRAP, TS_WS_PRE_LINE };
enum {
  TS_D_INLINE,
  TS_D_BLOCK,
  TS_D_LIST_ITEM,
  TS_D_NONE,
  TS_D_INLINE_BLOCK,
  /* Tables (ts_table.c); their parts outside a table are blocks. */
  TS_D_TABLE,
  TS_D_TABLE_ROW,
  TS_D_TABLE_CELL,
  TS_D_TABLE_HEADER_GROUP,
  TS_D_TABLE_ROW_GROUP,
  TS_D_TABLE_FOOTER_GROUP,
  TS_D_TABLE_CAPTION,
  TS_D_TABLE_COLUMN, /* and table-column-group: nothing to draw */
};
enum { TS_BRK_AUTO, TS_BRK_PAGE, TS_BRK_LEFT, TS_BRK_RIGHT, TS_BRK_AVOID };
/* top, middle and bottom place a table cell's content; inline, they are
   the baseline. */
enum {
  TS_VA_BASELINE,
  TS_VA_SUPER,
  TS_VA_SUB,
  TS_VA_TOP,
  TS_VA_MIDDLE,
  TS_VA_BOTTOM
};
enum { TS_TT_NONE, TS_TT_UPPER, TS_TT_LOWER, TS_TT_CAPITALIZE };
enum { TS_FLOAT_NONE, TS_FLOAT_FOOTNOTE, TS_FLOAT_PAGE };

typedef struct ts_cstyle {
  const css_style *css;
  const struct ts_cstyle *parent; /* the style it was computed under */
  const char *own_lang; /* the element's own lang attribute, or NULL */
  ts_face *face;
  double size;        /* font size, pt */
  double line_height; /* pt */
  ts_rgb color;
  int align;
  double indent;
  double letter_spacing;
  bool hyphens;
  bool small_caps;
  bool underline, strike;
  int white_space;
  int display;
  int vertical_align;
  int text_transform;
  const char *list_style; /* lower-cased keyword, "none" */
  bool list_inside;
  double margin[4], padding[4], border[4]; /* top right bottom left, pt;
                                               margins may be negative */
  bool margin_auto[4];
  int border_style[4]; /* ts_line_style + 1, 0 none */
  ts_rgb border_color[4];
  bool has_bg;
  ts_rgb bg;
  double width;         /* pt, < 0: auto */
  double width_pct;     /* > 0: a percentage of the containing block */
  double max_width;     /* pt, < 0: none */
  double max_width_pct; /* > 0: a percentage of the containing block */
  bool border_collapse; /* tables: border-collapse: collapse */
  bool caption_bottom;  /* captions: caption-side: bottom */
  int break_before, break_after, break_inside;
  int orphans, widows;
  const char *page; /* named page, NULL: auto */
  const css_decl *string_set;
  const css_decl *counter_reset;
  const char *lang;
  int float_kind;       /* TS_FLOAT_* */
  bool footnote_inline; /* footnote-display: inline */
} ts_cstyle;

/* ---- the vertical list ----------------------------------------------- */

/* One run of glyphs on a line, in one face and size. */
typedef struct ts_run {
  ts_face *face;
  double size;
  ts_rgb color;
  double x; /* from the line's left edge */
  double rise;
  double width;
  uint32_t *codes;
  int32_t *kern; /* 1/1000 em before each glyph; gaps between words too */
  size_t n;
  double char_space;
  bool underline, strike;
  ts_tagref tag;
} ts_run;

/* Dots filling a leader's glue. */
typedef struct ts_leader {
  ts_face *face;
  double size;
  ts_rgb color;
  double x0, x1; /* from the line's left edge */
  uint32_t cp;
} ts_leader;

/* A page number filled in when the pages are known. */
typedef struct ts_pageref {
  const char *target; /* id */
  int style;          /* css_counter_style */
  ts_face *face;
  double size;
  ts_rgb color;
  double x, width; /* the room the line left for it; set right-aligned */
  bool column;     /* after a leader: any text up to width fits */
  ts_tagref tag;
} ts_pageref;

/* An image standing on the baseline. */
typedef struct ts_image_box {
  const char *path;
  double x, w, h; /* x from the line's left edge */
  ts_tagref tag;   /* sid 0: decorative (alt=""), an artifact */
} ts_image_box;

typedef struct ts_link {
  double x0, x1; /* from the line's left edge */
  double above, below;
  const char *href; /* "#id" or a URI */
  ts_tagref tag;    /* of the link's first piece */
} ts_link;

typedef struct ts_vline {
  double x, width; /* left edge from the content area's left; measure */
  ts_run *runs;
  size_t nruns;
  ts_leader *leaders;
  size_t nleaders;
  ts_pageref *refs;
  size_t nrefs;
  ts_link *links;
  size_t nlinks;
  const char **anchors; /* ids that start on this line */
  size_t nanchors;
  ts_image_box *images;
  size_t nimages;
  /* Footnotes called on this line: their items in c->notes end at
     notes_end (0: none), and the first line of the last of them ends at
     notes_need, which must stand on the same page as this line. */
  size_t notes_need, notes_end;
  /* The byte of a text node of the document (ts_node.text) where the first
     word that starts on this line comes from; NULL: none does (generated
     text, an image, the end of a hyphenated word only). */
  const char *src;
} ts_vline;

/* A box drawn behind a block: background and borders, on every page the
 * block spans (the top border only where it starts, the bottom where it
 * ends). */
typedef struct ts_vblock {
  double x, width; /* the border box */
  bool has_bg;
  ts_rgb bg;
  double border[4];
  int border_style[4];
  ts_rgb border_color[4];
} ts_vblock;

/* A composite item placed as one piece: a table row (or the slice of one
 * that fits a page), with its cells' backgrounds and borders, lines and
 * rules at offsets from the box's top edge. */
typedef struct ts_box_line {
  const ts_vline *line;
  double x;    /* added to the line's own x */
  double base; /* the baseline, below the box's top */
} ts_box_line;

typedef struct ts_box_block {
  const ts_vblock *block;
  double x;           /* added to the block's own x */
  double top, bottom; /* below the box's top */
  bool starts, ends;  /* draw the top / bottom border */
} ts_box_block;

typedef struct ts_box_rule {
  double x, y, width, h; /* y: the rule's top, below the box's top */
  ts_rgb color;
} ts_box_rule;

typedef struct ts_vbox {
  ts_box_block *blocks; /* drawn first, in order */
  size_t nblocks;
  ts_box_line *lines;
  size_t nlines;
  ts_box_rule *rules;
  size_t nrules;
} ts_vbox;

typedef enum ts_vtype {
  TS_V_LINE,    /* h above the baseline, d below */
  TS_V_GLUE,    /* h: vertical space; discarded at an unforced page break */
  TS_V_SPACE,   /* h: vertical space kept at page breaks (padding, border) */
  TS_V_PENALTY, /* penalty; forced when <= -TS_INF_PENALTY */
  TS_V_BLOCK_START,
  TS_V_BLOCK_END,
  TS_V_ANCHOR,        /* id: an element's top */
  TS_V_STRING_SET,    /* name = value */
  TS_V_COUNTER_RESET, /* the page counter: value */
  TS_V_RULE,          /* an hr: h thickness, x, width */
  TS_V_BOX,           /* h: the box's height (d is 0) */
  /* A table's start: the items [u.head.start, u.head.end) after it are
     its header rows, set again at the top of each page the table
     continues on, until the matching TS_V_TABLE_END. */
  TS_V_TABLE_START,
  TS_V_TABLE_END,
  /* A float (float: top unless-fit): its items up to u.head.end (the
     TS_V_FLOAT_END) stay where they are when they fit on the page, and
     otherwise go to the top of the next page while the text flows on;
     d: the space kept below it there. */
  TS_V_FLOAT_START,
  TS_V_FLOAT_END,
} ts_vtype;

typedef struct ts_vitem {
  ts_vtype type;
  int brk; /* forced penalties: TS_BRK_PAGE, _LEFT, _RIGHT */
  double h, d;
  double penalty;
  const char *page_name; /* forced penalties: the pages that follow;
                            lines: the page name in force */
  union {
    ts_vline *line;
    ts_vblock *block; /* start and end share it */
    const char *id;
    struct {
      const char *name, *value;
    } str;
    long counter;
    struct {
      double x, width;
      ts_rgb color;
    } rule;
    ts_vbox *box;
    struct {
      size_t start, end;
    } head;
  } u;
} ts_vitem;

typedef struct ts_vlist {
  ts_vitem *items;
  size_t n, cap;
} ts_vlist;

/* ---- the engine's state ---------------------------------------------- */

typedef struct ts_wordcache ts_wordcache;

typedef struct ts_hyphcache ts_hyphcache;

typedef struct ts_ctx {
  oc_arena *a;  /* the render's: the document, styles, caches */
  oc_arena *pa; /* the pass's: the vertical list's lines and the pages */
  const ts_engine_input *in;
  const oc_reporter *rep;
  const css_stylesheet **sheets; /* UA + the input's */
  size_t nsheets;
  const css_selector **pseudo_sels; /* those with ::before or ::after */
  bool share_styles; /* no sheet uses `~`: siblings may share styles */
  ts_pdf *pdf;       /* made before the layout, so fonts load meanwhile */
  size_t npseudo;
  css_dom dom;
  ts_node *root;
  ts_fonts *fonts;
  ts_hyphenator *hyph;
  const char *lang;
  const char *hyph_lang; /* the patterns' language: lang, or en for zh, ja
                            and ko (their Latin words) */
  bool lang_loaded, lang_ok;
  ts_wordcache *words;
  ts_hyphcache *hyphs;
  struct ts_stylecache *styles;
  struct ts_worditems *worditems;
  struct ts_targets *targets;
  ts_break_params bp;
  /* Page references known from the previous pass: id -> page label. */
  const char **ref_ids;
  const char **ref_texts;
  size_t nrefs;
  /* The measure of the page being laid out (named pages may differ). */
  double content_width;
  double content_height; /* of the default page: images fit in it */
  ts_vlist vl;
  const char *column_digits; /* a leader's page-number column: "000" */
  ts_vlist notes; /* the footnotes' items, in the order of their calls */
  long note_counter;
  struct ts_call {
    ts_node *note; /* the footnote's element */
    int number;
  } * calls; /* the footnote calls of the pass */
  size_t ncalls, ccalls;
  bool in_note; /* laying out a footnote's body */
  int in_float; /* inside a float or a table cell: no floats there */
  size_t nlines;
  size_t warned_cp; /* how many missing-glyph warnings were given */
  const char *warned_fonts[32];
  size_t nwarned_fonts;
  bool warned_size; /* a font size libharu cannot set was reported */
  struct ts_struct *tags; /* a tagged PDF's structure; NULL: untagged */
  bool draw_artifacts;    /* drawing repeated table headers */
  /* Setting a table cell narrower than its widest word: words may break
     between any two letters (ts_table.c). */
  bool break_words;
} ts_ctx;

double ts_page_content_width(ts_ctx *c, const char *name);
double ts_page_content_height(ts_ctx *c, const char *name);

/* ts_fontuse.c */
/* The @font-face rules of the input's sheets, added to c->fonts. */
void ts_load_font_faces(ts_ctx *c);
/* Reports, once per family, that fam's first family is not installed. */
void ts_warn_font(ts_ctx *c, const css_decl *fam, const char *first);

/* ts_style.c */
/* How deep the node tree nests: what is deeper in the XHTML is set at this
 * level (ts_dom_load warns, TS_DEPTH_WARNINGS times at most), so that the
 * walks over the tree and its boxes may recurse. */
#define TS_MAX_DEPTH 256
#define TS_DEPTH_WARNINGS 10
ts_node *ts_dom_load(ts_ctx *c);
void ts_style_init(ts_ctx *c);
void ts_style_compute(ts_ctx *c, ts_node *n, const ts_cstyle *parent,
                      ts_cstyle *out, const css_style *css);
/* The computed style of n (cascade included), cached on the node. */
ts_cstyle *ts_style_of(ts_ctx *c, ts_node *n);
/* The style of a footnote's ::footnote-call (parent: the style of the text
 * around the call) or ::footnote-marker (parent: the note's), or NULL when
 * no rule gives it one. */
ts_cstyle *ts_style_note_part(ts_ctx *c, ts_node *n, css_pseudo_element pe,
                              const ts_cstyle *parent);
/* The style of n's ::before or ::after box, or NULL when it has no content. */
ts_cstyle *ts_style_pseudo(ts_ctx *c, ts_node *n, css_pseudo_element pe);
const char *ts_node_attr(const ts_node *n, const char *name);
ts_face *ts_style_face(ts_ctx *c, const css_style *css);
ts_rgb ts_color_of(const css_decl *d, ts_rgb fallback);

/* ts_struct.c: the structure tree of a tagged PDF, built from the nodes
 * as the layout meets them (every call is cheap and returns 0 when the
 * PDF is untagged). */
void ts_struct_init(ts_ctx *c);
/* The element n's content goes to (its own, or its nearest ancestor's);
 * 0: an artifact (an image with an empty alt). */
uint32_t ts_struct_of(ts_ctx *c, ts_node *n);
/* A text node's characters. */
ts_tagref ts_struct_text(ts_ctx *c, ts_node *text);
/* Generated content of n: ::before (after: false) or ::after. */
ts_tagref ts_struct_generated(ts_ctx *c, ts_node *n, bool after);
/* A list item's marker (a Lbl), a footnote's call (in its Reference). */
ts_tagref ts_struct_marker(ts_ctx *c, ts_node *li);
ts_tagref ts_struct_note_call(ts_ctx *c, ts_node *note);
/* The Link element around sid, or 0. */
uint32_t ts_struct_link(const ts_ctx *c, uint32_t sid);
/* The element's structure type, for the marked content's tag. */
const char *ts_struct_type(const ts_ctx *c, uint32_t sid);
/* Hands the elements to the PDF writer (before it saves). */
void ts_struct_finish(ts_ctx *c);

/* ts_inline.c: a paragraph's inline content into lines */

/* What the block layout collects of a paragraph, in order. */
typedef enum ts_piece_kind {
  TS_P_TEXT,
  TS_P_LEADER,
  TS_P_PAGEREF,
  TS_P_ANCHOR,
  TS_P_BR,
  TS_P_SPACE, /* an inline box's margin, border and padding: width */
  TS_P_IMAGE, /* text: the file; width and height in pt */
  TS_P_NOTE,  /* a footnote called here: ref_style indexes c->calls */
} ts_piece_kind;

typedef struct ts_piece {
  ts_piece_kind kind;
  const ts_cstyle *st;
  const char *text; /* text, leader fill, pageref target, anchor id */
  size_t len;
  const char *href;
  int ref_style;
  double width;     /* TS_P_SPACE, TS_P_IMAGE */
  double height;    /* TS_P_IMAGE */
  double width_pct; /* TS_P_IMAGE: a percentage of the measure, or 0 */
  unsigned line;    /* TS_P_TEXT of the document: its line, for messages */
  ts_tagref tag;
} ts_piece;

typedef struct ts_para {
  oc_arena *ar; /* the paragraph's scratch (made by the first push), freed
                   by the caller once the paragraph is set */
  ts_piece *p;
  size_t n, cap;
} ts_para;

void ts_para_push(ts_para *pa, ts_piece pc);

/* A paragraph set: its lines (in c->pa) with the room each needs above
 * and below its baseline, and the footnotes its lines call. The arrays
 * are in the paragraph's scratch. */
typedef struct ts_para_line {
  ts_vline *ln;
  double above, below;
} ts_para_line;
typedef struct ts_para_note {
  ts_vline *ln;
  int call; /* in c->calls */
} ts_para_note;
typedef struct ts_set_para {
  ts_para_line *lines;
  size_t n;
  ts_para_note *notes;
  size_t nnotes, cnotes;
} ts_set_para;

/* Sets pa (its block's style bs) into lines of the measure at x, an inside
 * marker (a list item's, in marker_st) first when marker is not NULL;
 * false when there is nothing to set. */
bool ts_set_paragraph(ts_ctx *c, const ts_para *pa, const ts_cstyle *bs,
                      double x, double measure, const char *marker,
                      const ts_cstyle *marker_st, ts_tagref marker_tag,
                      ts_set_para *out);
/* A paragraph's widest unbreakable run (hyphenation points aside) and its
 * widest line between forced breaks, raised into *mn and *mx. */
void ts_measure_para(ts_ctx *c, const ts_para *pa, const ts_cstyle *bs,
                     double *mn, double *mx);
ts_wordcache *ts_wordcache_new(oc_arena *a);
/* Sets one line of text (margin boxes): runs in *line, returns its width. */
double ts_set_text_line(ts_ctx *c, const ts_cstyle *st, const char *text,
                        ts_vline *line);
/* Sets text left of the line's start, its right edge at right_edge (from
 * the line's left), before the line's own runs, so that text extraction
 * reads it first. */
void ts_hang_text(ts_ctx *c, ts_vline *ln, const ts_cstyle *st,
                  const char *text, double right_edge, ts_tagref tag);
/* The room above the baseline of a line in st (half the leading
 * included). */
double ts_strut_above(const ts_cstyle *st);
/* The natural width of text in st's face (no kerning), pt. */
double ts_text_width(const ts_cstyle *st, const char *text);

/* ts_layout.c */
int ts_layout(ts_ctx *c);

/* Lays out the content of a table cell (or caption) at the given width
 * into *out, as items of a vertical list whose lines start at x 0; the
 * list is the caller's to free. */
void ts_layout_cell(ts_ctx *c, ts_node *cell, double width, ts_vlist *out);
/* The narrowest a block's content can be set in (its widest word,
 * hyphenation aside) and its width set without breaks, pt. */
void ts_measure_content(ts_ctx *c, ts_node *n, double *min, double *max);
void ts_vl_push(ts_ctx *c, ts_vitem it);

/* ts_table.c: a table as the vertical list's boxes, one a row (split
 * across pages only when taller than a page), its header rows marked for
 * repetition; x and width are its containing block's. The anchors waiting
 * for a line go on its first. avoid: no page break inside. */
void ts_layout_table(ts_ctx *c, ts_node *table, double x, double width,
                     bool avoid, const char **anchors, size_t nanchors);
/* A table's narrowest and widest, as ts_measure_content gives a block's. */
void ts_measure_table(ts_ctx *c, ts_node *table, double *min, double *max);

/* ts_page.c: the vertical list to pages, which ts_draw.c draws */

typedef struct ts_page_geo {
  double w, h;    /* the trim size */
  double m[4];    /* top right bottom left */
  double bleed;   /* pt, outside the trim */
  unsigned marks; /* TS_MARKS_* */
  const css_decl *box[CSS_MB_COUNT][CSS_P_COUNT];
  bool has_box[CSS_MB_COUNT];
} ts_page_geo;

/* Items [start, end) of a list; gap: space kept below them; repeat: a
 * table's header rows set again. */
typedef struct ts_range {
  size_t start, end;
  double gap;
  bool repeat;
} ts_range;

/* Walking a page's items minus the ranges it skips (floats moved to a
 * later page; skips sorted, *sk the next one): the first index at or
 * after i that is not skipped.
 *   for (i = ts_unskipped(s, n, &sk, start); i < end;
 *        i = ts_unskipped(s, n, &sk, i + 1)) */
static inline size_t ts_unskipped(const ts_range *skips, size_t nskips,
                                  size_t *sk, size_t i) {
  while (*sk < nskips && i == skips[*sk].start)
    i = skips[(*sk)++].end;
  return i;
}

typedef struct ts_page {
  size_t start, end; /* items [start, end) */
  ts_range *tops;    /* set first: floats moved here, repeated headers */
  size_t ntops, ctops;
  ts_range *skips; /* in [start, end): floats moved to a later page */
  size_t nskips, cskips;
  double tops_h;
  size_t nstart, nend; /* footnote items [nstart, nend) of c->notes */
  double notes_h;      /* with the separator */
  bool notes_continued;
  const char *name;
  bool left, blank, group_first;
  long counter;
  bool reset;
  int label_style; /* css_counter_style, -1 unknown */
  const ts_page_geo *geo;
} ts_page;

typedef struct ts_anchor_pos {
  const char *id;
  size_t page;
  double y;
} ts_anchor_pos;

struct ts_pages {
  ts_page *p;
  size_t n, cap;
  oc_hidx anchors; /* ts_anchor_pos by id */
  struct geo_cache {
    const char *name;
    unsigned bits;
    ts_page_geo geo;
  } * geos;
  size_t ngeos, cgeos;
};

enum {
  TS_PB_FIRST = 1,
  TS_PB_LEFT = 2,
  TS_PB_BLANK = 4,
  TS_PB_GROUP_FIRST = 8
};

/* Footnotes: the separator above them (space, a rule, space). */
#define TS_NOTE_SEP_ABOVE 9.0
#define TS_NOTE_SEP_BELOW 5.0
#define TS_NOTE_SEP_RULE 0.4

typedef struct ts_pages ts_pages;
ts_pages *ts_paginate(ts_ctx *c);
/* The geometry and margin boxes of the page named name (NULL: none) with
 * the TS_PB_* bits, by the @page rules. */
void ts_page_geo_resolve(ts_ctx *c, const char *name, unsigned bits,
                         ts_page_geo *g);
/* Where id stands, or NULL. */
const ts_anchor_pos *ts_pages_anchor(const ts_pages *pg, const char *id);
/* Glue and penalties: dropped at an unforced page break. */
bool ts_vitem_discardable(ts_vtype t);
double ts_vitem_height(const ts_vitem *it);
/* The height of items [start, end), leading and trailing glue and
 * penalties left out (as at the top of a page). */
double ts_range_height(const ts_vitem *items, size_t start, size_t end);
/* The printed label of the page holding id (formatted in style), NULL when
 * the id is not in the document. */
const char *ts_pages_ref(ts_ctx *c, ts_pages *pg, const char *id, int style);

/* ts_pagestart.c: each page's label and where its first word comes from
 * (ts_engine_input.page_starts), in c->a; after ts_pages_write, which sets
 * the pages' label styles. */
ts_page_start *ts_page_starts(ts_ctx *c, const ts_pages *pg);

/* ts_draw.c: the pages drawn, labelled and outlined, and the PDF saved. */
int ts_pages_write(ts_ctx *c, ts_pages *pg, const char *path,
                   ts_engine_stats *stats);

#endif
