/* The CSS reader of the PDF engine: a CSS Syntax 3 tokenizer (re2c), a
 * parser for the subset of CSS 2.1 and Paged Media that PDF themes use, typed
 * readers for property values, selectors with CSS 2.1 specificity, and the
 * cascade with inheritance over any DOM given through callbacks.
 *
 * Ownership: everything returned lives in the oc_arena passed in (tokens,
 * strings, rules, styles) and dies with it; nothing here is freed on its
 * own. Problems in the CSS go to a oc_reporter as "file:line:col" records;
 * parsing never fails on bad input, it recovers as CSS says and reports. */
#ifndef OCTAVO_CSS_H
#define OCTAVO_CSS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "oc_diag.h"
#include "oc_arena.h"

/* ---- tokens --------------------------------------------------------- */

typedef enum css_tok_type {
  CSS_T_EOF,
  CSS_T_IDENT,
  CSS_T_FUNCTION,   /* text: the name, without "(" */
  CSS_T_AT_KEYWORD, /* text: the name, without "@" */
  CSS_T_HASH,       /* text: the name, without "#"; is_id per the spec */
  CSS_T_STRING,     /* text: the contents, escapes resolved */
  CSS_T_BAD_STRING,
  CSS_T_URL, /* text: the unquoted url(...) contents */
  CSS_T_BAD_URL,
  CSS_T_NUMBER,
  CSS_T_PERCENTAGE,
  CSS_T_DIMENSION, /* text: the unit */
  CSS_T_WHITESPACE,
  CSS_T_DELIM, /* delim: the code point */
  CSS_T_CDO,
  CSS_T_CDC,
  CSS_T_COLON,
  CSS_T_SEMICOLON,
  CSS_T_COMMA,
  CSS_T_LBRACKET,
  CSS_T_RBRACKET,
  CSS_T_LPAREN,
  CSS_T_RPAREN,
  CSS_T_LBRACE,
  CSS_T_RBRACE,
} css_tok_type;

typedef struct css_token {
  css_tok_type type;
  bool is_id;      /* hash: would be a valid identifier */
  bool is_integer; /* number, percentage, dimension: written without . or e */
  uint32_t delim;
  uint32_t line, col; /* 1-based; col counts bytes, as the template lexer */
  const char *text;   /* NUL-terminated, in the arena; "" when none */
  size_t len;
  double num;
} css_token;

/* Tokenizes UTF-8 src (len bytes, NUL bytes allowed) into an arena array
 * ending with a CSS_T_EOF token; comments are dropped, an unclosed comment,
 * string or url is reported against file. Returns the token count without
 * the EOF. */
size_t css_tokenize(oc_arena *a, const char *src, size_t len, const char *file,
                    const oc_reporter *rep, css_token **out);

/* ---- properties ----------------------------------------------------- */

/* The one table of supported longhand properties is in css_parse.c; this
 * enum follows its order. Shorthands (margin, padding, border, border-top,
 * ..., font, page-break-*) are expanded to these when parsed. */
typedef enum css_prop {
  CSS_P_COLOR,
  CSS_P_FONT_FAMILY,
  CSS_P_FONT_SIZE,
  CSS_P_FONT_STYLE,
  CSS_P_FONT_VARIANT,
  CSS_P_FONT_WEIGHT,
  CSS_P_LINE_HEIGHT,
  CSS_P_TEXT_ALIGN,
  CSS_P_TEXT_INDENT,
  CSS_P_LETTER_SPACING,
  CSS_P_HYPHENS,
  CSS_P_WHITE_SPACE,
  CSS_P_LIST_STYLE_TYPE,
  CSS_P_ORPHANS,
  CSS_P_WIDOWS,
  CSS_P_DISPLAY, /* also prince-footnote (Easybook's themes): read it as
                  * float: footnote */
  CSS_P_WIDTH,
  CSS_P_BACKGROUND_COLOR,
  CSS_P_MARGIN_TOP,
  CSS_P_MARGIN_RIGHT,
  CSS_P_MARGIN_BOTTOM,
  CSS_P_MARGIN_LEFT,
  CSS_P_PADDING_TOP,
  CSS_P_PADDING_RIGHT,
  CSS_P_PADDING_BOTTOM,
  CSS_P_PADDING_LEFT,
  CSS_P_BORDER_TOP_WIDTH,
  CSS_P_BORDER_RIGHT_WIDTH,
  CSS_P_BORDER_BOTTOM_WIDTH,
  CSS_P_BORDER_LEFT_WIDTH,
  CSS_P_BORDER_TOP_STYLE,
  CSS_P_BORDER_RIGHT_STYLE,
  CSS_P_BORDER_BOTTOM_STYLE,
  CSS_P_BORDER_LEFT_STYLE,
  CSS_P_BORDER_TOP_COLOR,
  CSS_P_BORDER_RIGHT_COLOR,
  CSS_P_BORDER_BOTTOM_COLOR,
  CSS_P_BORDER_LEFT_COLOR,
  CSS_P_BREAK_BEFORE, /* page-break-before is read as this */
  CSS_P_BREAK_AFTER,
  CSS_P_BREAK_INSIDE,
  CSS_P_PAGE, /* the named page of an element */
  CSS_P_CONTENT,
  CSS_P_STRING_SET,
  CSS_P_SIZE, /* @page only */
  CSS_P_SRC,  /* @font-face only */
  /* Added for the typesetter; the readers below say how to read them. */
  CSS_P_COUNTER_RESET,     /* css_read_counters */
  CSS_P_COUNTER_INCREMENT, /* css_read_counters */
  /* none underline line-through; the shorthand text-decoration sets it.
   * Not inherited, but as CSS says the engine draws an ancestor's line
   * under its descendants' text too. */
  CSS_P_TEXT_DECORATION_LINE,
  CSS_P_VERTICAL_ALIGN, /* baseline super sub top middle bottom, length, % */
  CSS_P_TEXT_TRANSFORM, /* none uppercase lowercase capitalize; inherited */
  CSS_P_MAX_WIDTH,      /* length, %, none */
  CSS_P_HEIGHT,         /* length, %, auto */
  CSS_P_MIN_HEIGHT,     /* length, %, auto */
  CSS_P_FLOAT,          /* none left right footnote */
  CSS_P_LIST_STYLE_POSITION, /* inside outside; inherited */
  CSS_P_BLEED,               /* @page only: length */
  CSS_P_MARKS,               /* @page only: none | crop || cross */
  CSS_P_BORDER_COLLAPSE,     /* separate collapse; inherited */
  CSS_P_CAPTION_SIDE,        /* top bottom; inherited */
  CSS_P_FOOTNOTE_DISPLAY,    /* block inline compact */
  CSS_P_COUNT
} css_prop;

const char *css_prop_name(css_prop p);
bool css_prop_inherited(css_prop p);

/* One longhand declaration. value is its component tokens without the
 * surrounding whitespace and without "!important"; "inherit" is kept as an
 * ident for the cascade. A shorthand's longhands point at the shorthand's
 * position and at their own slice of its tokens (or at an initial value). */
typedef struct css_decl {
  css_prop prop;
  bool important;
  uint32_t line, col; /* of the property name */
  const css_token *value;
  size_t nvalue;
} css_decl;

/* ---- typed values --------------------------------------------------- */

typedef enum css_unit {
  CSS_U_NONE, /* a bare number (line-height: 1.4) or 0 */
  CSS_U_PT,
  CSS_U_MM,
  CSS_U_CM,
  CSS_U_IN,
  CSS_U_PX,
  CSS_U_EM,
  CSS_U_REM,
  CSS_U_PERCENT,
} css_unit;

typedef struct css_length {
  double value;
  css_unit unit;
} css_length;

/* Points for absolute units (1in = 72pt, 1px = 0.75pt); em and rem against
 * the given font sizes in pt, % against percent_of. */
double css_length_pt(css_length l, double em_pt, double rem_pt,
                     double percent_of);

typedef struct css_color {
  uint8_t r, g, b;
  bool transparent;
} css_color;

/* Each reader returns true and fills *out when the tokens are a value of
 * that kind, false otherwise (the parser has already checked the declared
 * properties, so false is for "inherit" or a keyword such as "auto"). */
bool css_read_length(const css_token *v, size_t n, css_length *out);
bool css_read_color(const css_token *v, size_t n, css_color *out);
/* The lower-cased keyword when the value is one identifier, else NULL. */
const char *css_read_keyword(const css_token *v, size_t n);
/* font-family: the names in order, quoted or as space-joined identifiers. */
size_t css_read_font_family(oc_arena *a, const css_token *v, size_t n,
                            const char ***names);

typedef enum css_content_kind {
  CSS_C_STRING,         /* text */
  CSS_C_COUNTER_PAGE,   /* counter(page) */
  CSS_C_COUNTER_PAGES,  /* counter(pages) */
  CSS_C_STRING_REF,     /* string(name): text = name */
  CSS_C_LEADER,         /* leader('.'): text = the fill */
  CSS_C_TARGET_COUNTER, /* target-counter(attr(text), page) */
  CSS_C_ELEMENT_TEXT,   /* content() in string-set: the element's text */
  CSS_C_ATTR,           /* attr(name): text = name */
  CSS_C_TARGET_TEXT,    /* target-text(attr(text)): the target's text */
  CSS_C_COUNTER,        /* counter(name), a counter other than page(s) */
} css_content_kind;

/* counter(x, style)'s style; an unknown one is reported by the parser and
 * read as decimal. lower-latin and upper-latin are the alpha ones. */
typedef enum css_counter_style {
  CSS_CS_DECIMAL = 0,
  CSS_CS_LOWER_ROMAN,
  CSS_CS_UPPER_ROMAN,
  CSS_CS_LOWER_ALPHA,
  CSS_CS_UPPER_ALPHA,
  CSS_CS_NONE,
} css_counter_style;

/* string(name, policy): which of the page's assignments is used. */
typedef enum css_string_policy {
  CSS_SP_FIRST = 0,
  CSS_SP_START,
  CSS_SP_LAST,
  CSS_SP_FIRST_EXCEPT,
} css_string_policy;

/* target-text(attr(x), part): which text of the target is printed. */
typedef enum css_target_part {
  CSS_TP_CONTENT = 0, /* content, content(text): its text content */
  CSS_TP_BEFORE,      /* before, content(before): its ::before */
  CSS_TP_AFTER,       /* after, content(after): its ::after */
} css_target_part;

typedef struct css_content_item {
  css_content_kind kind;
  const char *text;
  /* css_counter_style, for CSS_C_COUNTER_PAGE, _PAGES, _TARGET_COUNTER
   * and CSS_C_COUNTER; 0 (decimal) for the others. */
  int counter_style;
  /* css_string_policy, for CSS_C_STRING_REF; css_target_part for
   * CSS_C_TARGET_TEXT; 0 for the others. */
  int string_policy;
} css_content_item;

/* n in a counter style: roman up to 3999 and alpha (a..z, aa, ab, ...)
 * from 1, decimal outside those ranges; "" for none. In the arena. */
char *css_format_counter(oc_arena *a, long n, int style);

/* counter-reset and counter-increment: the names and their values in
 * order; 0 for none. The parser writes every omitted value out (0 for
 * counter-reset, 1 for counter-increment), so values read from its
 * declarations are always explicit; read alone, a bare name is 0. */
size_t css_read_counters(oc_arena *a, const css_token *v, size_t n,
                         const char ***names, long **values);

/* content: a list of items; false for none/normal or anything else. */
bool css_read_content(oc_arena *a, const css_token *v, size_t n,
                      css_content_item **items, size_t *nitems);

/* string-set: name content-list, separated by commas. The content items
 * allowed here are strings and content(): text. */
typedef struct css_string_set {
  const char *name;
  css_content_item *items; /* CSS_C_STRING or CSS_C_ELEMENT_TEXT */
  size_t nitems;
} css_string_set;
bool css_read_string_set(oc_arena *a, const css_token *v, size_t n,
                         css_string_set **sets, size_t *nsets);

/* @page size: width and height in pt, with landscape or portrait applied;
 * false for auto (the edition's page_size then decides). The names are
 * css_page_size_by_name's. */
bool css_read_page_size(const css_token *v, size_t n, double *width,
                        double *height);

/* A named page size (Prince's, so Easybook's page_size option), case-
 * insensitive, in pt, width and height as Prince gives them (ledger and
 * id-1 are wider than tall): A0-A10, B0-B10, C0-C10, id-1 to id-3,
 * letter, legal, ledger, executive and their US- spellings, US-Tabloid,
 * US-Government, US-Statement, US-Folio, ansi-a to -e, arch-a to -e1, and
 * the traditional book sizes imperial-, royal-, crown- and foolscap-
 * folio, -quarto and -octavo, medium-quarto, demy-quarto, demy-octavo.
 * False for any other name. */
bool css_page_size_by_name(const char *name, double *w, double *h);

/* ---- selectors ------------------------------------------------------ */

typedef enum css_combinator {
  CSS_COMB_NONE, /* the first compound */
  CSS_COMB_DESCENDANT,
  CSS_COMB_CHILD,
  CSS_COMB_ADJACENT, /* a + b: b right after a, its previous element */
  CSS_COMB_SIBLING,  /* a ~ b: any earlier element sibling */
} css_combinator;

typedef enum css_pseudo_element {
  CSS_PE_NONE,
  CSS_PE_BEFORE,
  CSS_PE_AFTER,
  CSS_PE_FOOTNOTE_CALL,   /* ::footnote-call (Prince): a footnote's call */
  CSS_PE_FOOTNOTE_MARKER, /* ::footnote-marker: its number in the note */
} css_pseudo_element;

typedef struct css_attr_test {
  const char *name;
  const char *value; /* NULL: presence */
} css_attr_test;

typedef struct css_compound {
  css_combinator comb; /* how it relates to the compound before it */
  const char *tag;     /* lower-cased; NULL for * or none */
  const char *id;
  const char **classes;
  size_t nclasses;
  css_attr_test *attrs;
  size_t nattrs;
  bool first_child;
} css_compound;

typedef struct css_selector {
  css_compound *parts; /* left to right */
  size_t nparts;
  css_pseudo_element pseudo;
  uint32_t specificity; /* a << 16 | b << 8 | c (each capped at 255) */
  uint32_t line, col;
} css_selector;

/* The DOM, as the caller has it. Elements are opaque pointers; parent and
 * prev_sibling (previous element sibling) return NULL when there is none;
 * attr returns NULL when the attribute is absent. Tag names compare case-
 * insensitively, ids, classes and attribute values exactly. */
typedef struct css_dom {
  const char *(*tag)(const void *el);
  const char *(*id)(const void *el);
  bool (*has_class)(const void *el, const char *cls);
  const char *(*attr)(const void *el, const char *name);
  const void *(*parent)(const void *el);
  const void *(*prev_sibling)(const void *el);
  /* true when tag() always returns lower case: tags then compare with
     strcmp (the selectors' tags are lower-cased when parsed) */
  bool lower_tags;
  /* Optional: the element's classes. With it, the cascade looks only at
     the rules whose rightmost compound could match (by id, class or tag),
     through an index built once per sheet. */
  const char *const *(*class_list)(const void *el, size_t *n);
} css_dom;

/* Parses one selector (no list) for tests and tools; NULL on error. */
css_selector *css_parse_selector(oc_arena *a, const char *text,
                                 const char *file, const oc_reporter *rep);
/* Whether sel matches el, ignoring sel's pseudo-element. */
bool css_selector_matches(const css_selector *sel, const css_dom *dom,
                          const void *el);

/* ---- stylesheets ---------------------------------------------------- */

typedef enum css_origin {
  CSS_ORIGIN_UA,
  CSS_ORIGIN_AUTHOR, /* a theme's and a book's sheets, in that order */
} css_origin;

typedef struct css_rule {
  css_selector *sels;
  size_t nsels;
  css_decl *decls;
  size_t ndecls;
  uint32_t line, col;
} css_rule;

enum {
  CSS_PAGE_FIRST = 1,
  CSS_PAGE_LEFT = 2,
  CSS_PAGE_RIGHT = 4,
  CSS_PAGE_BLANK = 8,
};

typedef enum css_margin_box {
  CSS_MB_TOP_LEFT,
  CSS_MB_TOP_CENTER,
  CSS_MB_TOP_RIGHT,
  CSS_MB_BOTTOM_LEFT,
  CSS_MB_BOTTOM_CENTER,
  CSS_MB_BOTTOM_RIGHT,
  CSS_MB_COUNT
} css_margin_box;

typedef struct css_margin_rule {
  css_margin_box box;
  css_decl *decls;
  size_t ndecls;
  uint32_t line, col;
} css_margin_rule;

typedef struct css_page_rule {
  const char *name; /* a named page, or NULL */
  unsigned pseudo;  /* CSS_PAGE_* bits */
  css_decl *decls;  /* size, margin-* */
  size_t ndecls;
  css_margin_rule *boxes;
  size_t nboxes;
  uint32_t line, col;
} css_page_rule;

typedef struct css_font_face {
  css_decl *decls; /* font-family, src, font-weight, font-style */
  size_t ndecls;
  uint32_t line, col;
} css_font_face;

typedef struct css_stylesheet {
  const char *file;
  css_origin origin;
  css_rule *rules;
  size_t nrules;
  css_page_rule *pages;
  size_t npages;
  css_font_face *fonts;
  size_t nfonts;
  size_t ndiags;    /* diagnostics reported (any severity), lexer included */
  oc_arena *arena; /* the sheet's, for its index */
  struct css_index *index; /* built by the first indexed cascade */
} css_stylesheet;

/* Parses a whole stylesheet. Rules inside @media print (and @media all)
 * are kept, other media are skipped; @import is reported and ignored. */
css_stylesheet *css_parse(oc_arena *a, const char *src, size_t len,
                          const char *file, css_origin origin,
                          const oc_reporter *rep);

/* The user-agent sheet: HTML's block elements (tables are blocks for
 * now), headings, lists, pre, the inline phrase elements, sup and sub. */
css_stylesheet *css_ua_stylesheet(oc_arena *a);

/* ---- cascade -------------------------------------------------------- */

/* An element's style: the winning declaration per property (NULL: the
 * initial value), after inheritance, and its font size computed in pt
 * (em, rem and % resolved; the root's parent size is 12pt). */
typedef struct css_style {
  const css_decl *decl[CSS_P_COUNT];
  double font_size_pt;
  double root_font_size_pt;
} css_style;

/* Cascades the sheets (in order: UA, theme, book) for el, or for its
 * ::before/::after box when pe says so, inheriting from parent (NULL for
 * the root). Sorting: importance and origin, then specificity, then order
 * of appearance across the sheets. */
void css_cascade(oc_arena *a, const css_stylesheet *const *sheets,
                 size_t nsheets, const css_dom *dom, const void *el,
                 css_pseudo_element pe, const css_style *parent,
                 css_style *out);

#endif
