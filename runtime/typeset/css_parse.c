/* The CSS parser: rules, @page with margin boxes, @font-face and @media
 * print over the tokenizer's output, with CSS's error recovery; the one
 * table of supported properties, value checks, shorthand expansion and the
 * typed value readers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "oc_alloc.h"

#include "css.h"
#include "css_lex.h"

/* ---- the property table --------------------------------------------- */

typedef enum val_kind {
  V_COLOR,
  V_FAMILY,
  V_LENGTH,    /* a length or %, or one of kw */
  V_LENGTH_NN, /* the same, not negative */
  V_KEYWORD,   /* one of kw */
  V_KEYWORDS,  /* one or more of kw, each once */
  V_INTEGER,   /* a positive integer */
  V_LINE_HEIGHT,
  V_FONT_SIZE,
  V_FONT_WEIGHT,
  V_CONTENT,
  V_STRING_SET,
  V_PAGE_SIZE,
  V_PAGE_NAME,
  V_COUNTERS, /* counter-reset, counter-increment */
  V_ANY,
} val_kind;

typedef struct prop_info {
  const char *name;
  val_kind kind;
  bool inherited;
  const char *kw; /* allowed keywords, space-separated */
} prop_info;

#define BORDER_STYLES "none solid dotted dashed double"
#define BREAKS "auto avoid avoid-page page left right recto verso"

static const prop_info props[CSS_P_COUNT] = {
    [CSS_P_COLOR] = {"color", V_COLOR, true, NULL},
    [CSS_P_FONT_FAMILY] = {"font-family", V_FAMILY, true, NULL},
    [CSS_P_FONT_SIZE] = {"font-size", V_FONT_SIZE, true,
                         "xx-small x-small small medium large x-large "
                         "xx-large smaller larger"},
    [CSS_P_FONT_STYLE] = {"font-style", V_KEYWORD, true,
                          "normal italic oblique"},
    [CSS_P_FONT_VARIANT] = {"font-variant", V_KEYWORD, true,
                            "normal small-caps"},
    [CSS_P_FONT_WEIGHT] = {"font-weight", V_FONT_WEIGHT, true,
                           "normal bold bolder lighter"},
    [CSS_P_LINE_HEIGHT] = {"line-height", V_LINE_HEIGHT, true, "normal"},
    [CSS_P_TEXT_ALIGN] = {"text-align", V_KEYWORD, true,
                          "left right center justify"},
    [CSS_P_TEXT_INDENT] = {"text-indent", V_LENGTH, true, NULL},
    [CSS_P_LETTER_SPACING] = {"letter-spacing", V_LENGTH, true, "normal"},
    [CSS_P_HYPHENS] = {"hyphens", V_KEYWORD, true, "none manual auto"},
    [CSS_P_WHITE_SPACE] = {"white-space", V_KEYWORD, true,
                           "normal pre nowrap pre-wrap pre-line"},
    [CSS_P_LIST_STYLE_TYPE] = {"list-style-type", V_KEYWORD, true,
                               "disc circle square decimal "
                               "decimal-leading-zero lower-roman "
                               "upper-roman lower-alpha upper-alpha "
                               "lower-latin upper-latin lower-greek none"},
    [CSS_P_ORPHANS] = {"orphans", V_INTEGER, true, NULL},
    [CSS_P_WIDOWS] = {"widows", V_INTEGER, true, NULL},
    [CSS_P_DISPLAY] =
        {"display", V_KEYWORD, false,
         "block inline list-item none prince-footnote inline-block table "
         "table-row table-cell table-header-group "
         "table-row-group table-footer-group table-caption "
         "table-column table-column-group"},
    [CSS_P_WIDTH] = {"width", V_LENGTH_NN, false, "auto"},
    [CSS_P_BACKGROUND_COLOR] = {"background-color", V_COLOR, false, NULL},
    [CSS_P_MARGIN_TOP] = {"margin-top", V_LENGTH, false, "auto"},
    [CSS_P_MARGIN_RIGHT] = {"margin-right", V_LENGTH, false, "auto"},
    [CSS_P_MARGIN_BOTTOM] = {"margin-bottom", V_LENGTH, false, "auto"},
    [CSS_P_MARGIN_LEFT] = {"margin-left", V_LENGTH, false, "auto"},
    [CSS_P_PADDING_TOP] = {"padding-top", V_LENGTH_NN, false, NULL},
    [CSS_P_PADDING_RIGHT] = {"padding-right", V_LENGTH_NN, false, NULL},
    [CSS_P_PADDING_BOTTOM] = {"padding-bottom", V_LENGTH_NN, false, NULL},
    [CSS_P_PADDING_LEFT] = {"padding-left", V_LENGTH_NN, false, NULL},
    [CSS_P_BORDER_TOP_WIDTH] = {"border-top-width", V_LENGTH_NN, false,
                                "thin medium thick"},
    [CSS_P_BORDER_RIGHT_WIDTH] = {"border-right-width", V_LENGTH_NN, false,
                                  "thin medium thick"},
    [CSS_P_BORDER_BOTTOM_WIDTH] = {"border-bottom-width", V_LENGTH_NN, false,
                                   "thin medium thick"},
    [CSS_P_BORDER_LEFT_WIDTH] = {"border-left-width", V_LENGTH_NN, false,
                                 "thin medium thick"},
    [CSS_P_BORDER_TOP_STYLE] = {"border-top-style", V_KEYWORD, false,
                                BORDER_STYLES},
    [CSS_P_BORDER_RIGHT_STYLE] = {"border-right-style", V_KEYWORD, false,
                                  BORDER_STYLES},
    [CSS_P_BORDER_BOTTOM_STYLE] = {"border-bottom-style", V_KEYWORD, false,
                                   BORDER_STYLES},
    [CSS_P_BORDER_LEFT_STYLE] = {"border-left-style", V_KEYWORD, false,
                                 BORDER_STYLES},
    [CSS_P_BORDER_TOP_COLOR] = {"border-top-color", V_COLOR, false, NULL},
    [CSS_P_BORDER_RIGHT_COLOR] = {"border-right-color", V_COLOR, false, NULL},
    [CSS_P_BORDER_BOTTOM_COLOR] = {"border-bottom-color", V_COLOR, false, NULL},
    [CSS_P_BORDER_LEFT_COLOR] = {"border-left-color", V_COLOR, false, NULL},
    [CSS_P_BREAK_BEFORE] = {"break-before", V_KEYWORD, false, BREAKS},
    [CSS_P_BREAK_AFTER] = {"break-after", V_KEYWORD, false, BREAKS},
    [CSS_P_BREAK_INSIDE] = {"break-inside", V_KEYWORD, false,
                            "auto avoid avoid-page"},
    [CSS_P_PAGE] = {"page", V_PAGE_NAME, false, NULL},
    [CSS_P_CONTENT] = {"content", V_CONTENT, false, "none normal"},
    [CSS_P_STRING_SET] = {"string-set", V_STRING_SET, false, "none"},
    [CSS_P_SIZE] = {"size", V_PAGE_SIZE, false, NULL},
    [CSS_P_SRC] = {"src", V_ANY, false, NULL},
    [CSS_P_COUNTER_RESET] = {"counter-reset", V_COUNTERS, false, "none"},
    [CSS_P_COUNTER_INCREMENT] = {"counter-increment", V_COUNTERS, false,
                                 "none"},
    [CSS_P_TEXT_DECORATION_LINE] = {"text-decoration-line", V_KEYWORD, false,
                                    "none underline line-through"},
    [CSS_P_VERTICAL_ALIGN] = {"vertical-align", V_LENGTH, false,
                              "baseline super sub top middle bottom"},
    [CSS_P_TEXT_TRANSFORM] = {"text-transform", V_KEYWORD, true,
                              "none uppercase lowercase capitalize"},
    [CSS_P_MAX_WIDTH] = {"max-width", V_LENGTH_NN, false, "none"},
    [CSS_P_HEIGHT] = {"height", V_LENGTH_NN, false, "auto"},
    [CSS_P_MIN_HEIGHT] = {"min-height", V_LENGTH_NN, false, "auto"},
    [CSS_P_FLOAT] = {"float", V_KEYWORDS, false,
                     "none left right footnote top bottom unless-fit next"},
    [CSS_P_LIST_STYLE_POSITION] = {"list-style-position", V_KEYWORD, true,
                                   "inside outside"},
    [CSS_P_BLEED] = {"bleed", V_LENGTH_NN, false, "auto"},
    [CSS_P_MARKS] = {"marks", V_KEYWORDS, false, "none crop cross"},
    [CSS_P_BORDER_COLLAPSE] = {"border-collapse", V_KEYWORD, true,
                               "separate collapse"},
    [CSS_P_CAPTION_SIDE] = {"caption-side", V_KEYWORD, true, "top bottom"},
    [CSS_P_FOOTNOTE_DISPLAY] = {"footnote-display", V_KEYWORD, false,
                                "block inline compact"},
};

const char *css_prop_name(css_prop p) {
  return p < CSS_P_COUNT ? props[p].name : "";
}

bool css_prop_inherited(css_prop p) {
  return p < CSS_P_COUNT && props[p].inherited;
}

/* The shorthands, expanded by expand_shorthand. */
typedef enum shorthand {
  SH_NONE,
  SH_MARGIN,
  SH_PADDING,
  SH_BORDER,
  SH_BORDER_SIDE, /* border-top, ...: side in the low bits */
  SH_BORDER_WIDTH,
  SH_BORDER_STYLE,
  SH_BORDER_COLOR,
  SH_FONT,
  SH_PAGE_BREAK, /* page-break-before|after|inside: prop says which */
  SH_TEXT_DECORATION,
} shorthand;

typedef struct shorthand_info {
  const char *name;
  shorthand sh;
  int arg;
} shorthand_info;

static const shorthand_info shorthands[] = {
    {"margin", SH_MARGIN, 0},
    {"padding", SH_PADDING, 0},
    {"border", SH_BORDER, 0},
    {"border-top", SH_BORDER_SIDE, 0},
    {"border-right", SH_BORDER_SIDE, 1},
    {"border-bottom", SH_BORDER_SIDE, 2},
    {"border-left", SH_BORDER_SIDE, 3},
    {"border-width", SH_BORDER_WIDTH, 0},
    {"border-style", SH_BORDER_STYLE, 0},
    {"border-color", SH_BORDER_COLOR, 0},
    {"font", SH_FONT, 0},
    {"page-break-before", SH_PAGE_BREAK, CSS_P_BREAK_BEFORE},
    {"page-break-after", SH_PAGE_BREAK, CSS_P_BREAK_AFTER},
    {"page-break-inside", SH_PAGE_BREAK, CSS_P_BREAK_INSIDE},
    {"text-decoration", SH_TEXT_DECORATION, 0},
};

/* ---- helpers -------------------------------------------------------- */

static bool tok_is(const css_token *t, css_tok_type type, const char *text) {
  return t->type == type && strcasecmp(t->text, text) == 0;
}

static bool tok_delim(const css_token *t, uint32_t c) {
  return t->type == CSS_T_DELIM && t->delim == c;
}

/* Whether word is one of the space-separated words of list. */
static bool in_list(const char *list, const char *word) {
  if (!list)
    return false;
  size_t n = strlen(word);
  for (const char *p = list; *p;) {
    const char *e = strchr(p, ' ');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len == n && strncasecmp(p, word, n) == 0)
      return true;
    p += len + (e ? 1 : 0);
  }
  return false;
}

/* Grows an arena array by one zeroed item, doubling from one: most of these
 * arrays (a selector's compounds, a compound's classes, a rule's selectors
 * and declarations) hold one to a few, and a 50 MB sheet has millions of
 * them. The array grows in place while it is the arena's latest block (a
 * rule's declarations, pushed one after the other); otherwise the old
 * block stays in the arena, which frees everything at once. */
static void *vec_push(oc_arena *a, void *items_ptr, size_t *n, size_t *cap,
                      size_t size) {
  void **items = items_ptr;
  if (*n == *cap) {
    size_t ncap = *cap ? oc_size_mul(*cap, 2) : 1;
    *items = oc_arena_grow(a, *items, oc_size_mul(*n, size),
                           oc_size_mul(ncap, size));
    *cap = ncap;
  }
  void *item = (char *)*items + (*n)++ * size;
  memset(item, 0, size);
  return item;
}

static char *lower_dup(oc_arena *a, const char *s) {
  size_t n = strlen(s);
  char *o = oc_arena_strndup(a, s, n);
  for (size_t i = 0; i < n; i++)
    if (o[i] >= 'A' && o[i] <= 'Z')
      o[i] = (char)(o[i] + 32);
  return o;
}

/* ---- typed readers -------------------------------------------------- */

static const struct {
  const char *name;
  css_unit unit;
} units[] = {{"pt", CSS_U_PT},  {"mm", CSS_U_MM}, {"cm", CSS_U_CM},
             {"in", CSS_U_IN},  {"px", CSS_U_PX}, {"em", CSS_U_EM},
             {"rem", CSS_U_REM}};

bool css_read_length(const css_token *v, size_t n, css_length *out) {
  if (n != 1)
    return false;
  if (v->type == CSS_T_PERCENTAGE) {
    *out = (css_length){v->num, CSS_U_PERCENT};
    return true;
  }
  if (v->type == CSS_T_NUMBER) {
    *out = (css_length){v->num, CSS_U_NONE};
    return true;
  }
  if (v->type != CSS_T_DIMENSION)
    return false;
  for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
    if (strcasecmp(v->text, units[i].name) == 0) {
      *out = (css_length){v->num, units[i].unit};
      return true;
    }
  return false;
}

double css_length_pt(css_length l, double em_pt, double rem_pt,
                     double percent_of) {
  switch (l.unit) {
  case CSS_U_PT:
    return l.value;
  case CSS_U_MM:
    return l.value * 72.0 / 25.4;
  case CSS_U_CM:
    return l.value * 72.0 / 2.54;
  case CSS_U_IN:
    return l.value * 72.0;
  case CSS_U_PX:
    return l.value * 0.75;
  case CSS_U_EM:
    return l.value * em_pt;
  case CSS_U_REM:
    return l.value * rem_pt;
  case CSS_U_PERCENT:
    return l.value * percent_of / 100.0;
  case CSS_U_NONE:
    break;
  }
  return l.value;
}

/* CSS 2.1's seventeen colours and the greys themes use. */
static const struct {
  const char *name;
  uint32_t rgb;
} colors[] = {
    {"black", 0x000000},     {"silver", 0xc0c0c0},   {"gray", 0x808080},
    {"grey", 0x808080},      {"white", 0xffffff},    {"maroon", 0x800000},
    {"red", 0xff0000},       {"purple", 0x800080},   {"fuchsia", 0xff00ff},
    {"green", 0x008000},     {"lime", 0x00ff00},     {"olive", 0x808000},
    {"yellow", 0xffff00},    {"navy", 0x000080},     {"blue", 0x0000ff},
    {"teal", 0x008080},      {"aqua", 0x00ffff},     {"orange", 0xffa500},
    {"darkgray", 0xa9a9a9},  {"darkgrey", 0xa9a9a9}, {"lightgray", 0xd3d3d3},
    {"lightgrey", 0xd3d3d3}, {"dimgray", 0x696969},  {"dimgrey", 0x696969},
};

static int hex1(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  c = (char)(c | 0x20);
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* One rgb() channel: 0-255 or a percentage, clamped. */
static bool rgb_channel(const css_token *t, uint8_t *out) {
  double v;
  if (t->type == CSS_T_NUMBER)
    v = t->num;
  else if (t->type == CSS_T_PERCENTAGE)
    v = t->num * 255.0 / 100.0;
  else
    return false;
  v = v < 0 ? 0 : v > 255 ? 255 : v;
  *out = (uint8_t)lround(v);
  return true;
}

static bool read_rgb(const css_token *v, size_t n, css_color *out);

bool css_read_color(const css_token *v, size_t n, css_color *out) {
  if (n != 1)
    return read_rgb(v, n, out);
  memset(out, 0, sizeof *out);
  if (v->type == CSS_T_IDENT) {
    if (strcasecmp(v->text, "transparent") == 0) {
      out->transparent = true;
      return true;
    }
    for (size_t i = 0; i < sizeof colors / sizeof colors[0]; i++)
      if (strcasecmp(v->text, colors[i].name) == 0) {
        out->r = (uint8_t)(colors[i].rgb >> 16);
        out->g = (uint8_t)(colors[i].rgb >> 8);
        out->b = (uint8_t)colors[i].rgb;
        return true;
      }
    return false;
  }
  if (v->type == CSS_T_HASH) {
    int d[6];
    if (v->len != 3 && v->len != 6)
      return false;
    for (size_t i = 0; i < v->len; i++)
      if ((d[i] = hex1(v->text[i])) < 0)
        return false;
    if (v->len == 3) {
      out->r = (uint8_t)(d[0] * 17);
      out->g = (uint8_t)(d[1] * 17);
      out->b = (uint8_t)(d[2] * 17);
    } else {
      out->r = (uint8_t)(d[0] * 16 + d[1]);
      out->g = (uint8_t)(d[2] * 16 + d[3]);
      out->b = (uint8_t)(d[4] * 16 + d[5]);
    }
    return true;
  }
  return false;
}

/* The arguments of the function token at v[0]: the tokens up to its ")"
 * with whitespace dropped, at most max; returns how many, or -1 when the
 * function is not closed or has more. */
static int func_args(const css_token *v, size_t n, const css_token **args,
                     int max, size_t *end) {
  int k = 0, depth = 0;
  for (size_t i = 1; i < n; i++) {
    css_tok_type t = v[i].type;
    if (t == CSS_T_RPAREN && depth == 0) {
      *end = i + 1;
      return k;
    }
    if (t == CSS_T_FUNCTION || t == CSS_T_LPAREN)
      depth++;
    else if (t == CSS_T_RPAREN)
      depth--;
    if (t == CSS_T_WHITESPACE)
      continue;
    if (k == max)
      return -1;
    args[k++] = &v[i];
  }
  return -1;
}

/* rgb(r, g, b) as one value: the parser keeps the function's tokens, so
 * this reader is given the whole span. */
static bool read_rgb(const css_token *v, size_t n, css_color *out) {
  const css_token *a[5];
  size_t end;
  if (n < 1 || !tok_is(v, CSS_T_FUNCTION, "rgb"))
    return false;
  if (func_args(v, n, a, 5, &end) != 5 || end != n)
    return false;
  memset(out, 0, sizeof *out);
  return a[1]->type == CSS_T_COMMA && a[3]->type == CSS_T_COMMA &&
         a[0]->type == a[2]->type && a[2]->type == a[4]->type &&
         rgb_channel(a[0], &out->r) && rgb_channel(a[2], &out->g) &&
         rgb_channel(a[4], &out->b);
}

const char *css_read_keyword(const css_token *v, size_t n) {
  return n == 1 && v->type == CSS_T_IDENT ? v->text : NULL;
}

size_t css_read_font_family(oc_arena *a, const css_token *v, size_t n,
                            const char ***names) {
  size_t count = 0, cap = 0;
  const char **out = NULL;
  size_t i = 0;
  while (i < n) {
    while (i < n && v[i].type == CSS_T_WHITESPACE)
      i++;
    if (i < n && v[i].type == CSS_T_STRING) {
      const char **slot = vec_push(a, &out, &count, &cap, sizeof *out);
      *slot = v[i++].text;
    } else {
      /* Identifiers joined by one space: Liberation Serif. */
      size_t len = 0, b = i;
      for (; i < n && v[i].type != CSS_T_COMMA; i++)
        if (v[i].type == CSS_T_IDENT)
          len += v[i].len + 1;
        else if (v[i].type != CSS_T_WHITESPACE)
          return 0;
      if (!len)
        return 0;
      char *s = oc_arena_alloc(a, len), *p = s;
      for (size_t j = b; j < i; j++)
        if (v[j].type == CSS_T_IDENT) {
          if (p != s)
            *p++ = ' ';
          memcpy(p, v[j].text, v[j].len);
          p += v[j].len;
        }
      *p = 0;
      const char **slot = vec_push(a, &out, &count, &cap, sizeof *out);
      *slot = s;
    }
    while (i < n && v[i].type == CSS_T_WHITESPACE)
      i++;
    if (i < n && v[i].type != CSS_T_COMMA)
      return 0;
    if (i < n && ++i == n)
      return 0; /* a trailing comma */
  }
  *names = out;
  return count;
}

/* counter(x, style)'s style names; false for an unknown one, which reads as
 * decimal (the parser reports it). */
static bool counter_style(const char *name, int *out) {
  static const struct {
    const char *name;
    css_counter_style cs;
  } styles[] = {
      {"decimal", CSS_CS_DECIMAL},         {"lower-roman", CSS_CS_LOWER_ROMAN},
      {"upper-roman", CSS_CS_UPPER_ROMAN}, {"lower-alpha", CSS_CS_LOWER_ALPHA},
      {"lower-latin", CSS_CS_LOWER_ALPHA}, {"upper-alpha", CSS_CS_UPPER_ALPHA},
      {"upper-latin", CSS_CS_UPPER_ALPHA}, {"none", CSS_CS_NONE},
  };
  for (size_t i = 0; i < sizeof styles / sizeof styles[0]; i++)
    if (strcasecmp(name, styles[i].name) == 0) {
      *out = (int)styles[i].cs;
      return true;
    }
  *out = CSS_CS_DECIMAL;
  return false;
}

static bool string_policy(const char *name, int *out) {
  static const char *const policies[] = {"first", "start", "last",
                                         "first-except"};
  for (int i = 0; i < 4; i++)
    if (strcasecmp(name, policies[i]) == 0) {
      *out = i; /* css_string_policy's order */
      return true;
    }
  return false;
}

/* The optional ", ident" after a function's first argument: args[1] and
 * args[2] of func_args; true with *word NULL when there is none. */
static bool opt_ident(const css_token *const *args, int k, const char **word) {
  *word = NULL;
  if (k == 1)
    return true;
  if (k != 3 || args[1]->type != CSS_T_COMMA || args[2]->type != CSS_T_IDENT)
    return false;
  *word = args[2]->text;
  return true;
}

/* One item of content: or string-set:, at v[*i]; false if it is none. */
static bool content_item(oc_arena *a, const css_token *v, size_t n, size_t *i,
                         bool string_set, css_content_item *it) {
  const css_token *t = &v[*i], *args[4];
  const char *opt;
  size_t end;
  if (t->type == CSS_T_STRING) {
    *it = (css_content_item){CSS_C_STRING, t->text, 0, 0};
    (*i)++;
    return true;
  }
  if (t->type != CSS_T_FUNCTION)
    return false;
  int k = func_args(t, n - *i, args, 4, &end);
  if (k < 0)
    return false;
  *i += end;
  if (string_set)
    return k == 0 && tok_is(t, CSS_T_FUNCTION, "content") &&
           (*it = (css_content_item){CSS_C_ELEMENT_TEXT, "", 0, 0}, true);
  if (k < 1 ||
      args[0]->type !=
          (tok_is(t, CSS_T_FUNCTION, "leader") ? CSS_T_STRING : CSS_T_IDENT))
    return false;
  const char *arg = args[0]->text;
  if (tok_is(t, CSS_T_FUNCTION, "counter") && opt_ident(args, k, &opt)) {
    int cs = CSS_CS_DECIMAL;
    if (opt)
      counter_style(opt, &cs);
    if (strcasecmp(arg, "page") == 0)
      *it = (css_content_item){CSS_C_COUNTER_PAGE, "page", cs, 0};
    else if (strcasecmp(arg, "pages") == 0)
      *it = (css_content_item){CSS_C_COUNTER_PAGES, "pages", cs, 0};
    else
      *it = (css_content_item){CSS_C_COUNTER, arg, cs, 0};
    return true;
  }
  if (tok_is(t, CSS_T_FUNCTION, "string") && opt_ident(args, k, &opt)) {
    int sp = CSS_SP_FIRST;
    if (opt && !string_policy(opt, &sp))
      return false;
    *it = (css_content_item){CSS_C_STRING_REF, arg, 0, sp};
    return true;
  }
  if (tok_is(t, CSS_T_FUNCTION, "leader") && k == 1) {
    *it = (css_content_item){CSS_C_LEADER, arg, 0, 0};
    return true;
  }
  if (tok_is(t, CSS_T_FUNCTION, "attr") && k == 1) {
    *it = (css_content_item){CSS_C_ATTR, lower_dup(a, arg), 0, 0};
    return true;
  }
  return false;
}

/* target-text's second argument, as GCPM spells it (content, before,
 * after) or as content()'s argument (text, before, after). */
static bool target_part(const char *w, int *part) {
  if (!strcasecmp(w, "content") || !strcasecmp(w, "text"))
    *part = CSS_TP_CONTENT;
  else if (!strcasecmp(w, "before"))
    *part = CSS_TP_BEFORE;
  else if (!strcasecmp(w, "after"))
    *part = CSS_TP_AFTER;
  else
    return false;
  return true;
}

/* target-counter(attr(X), page[, style]) and target-text(attr(X)[,
 * part]) spelled out: the nested function makes func_args's flat view
 * awkward, so they are matched token by token. */
static bool target_func(const css_token *v, size_t n, size_t *i,
                        css_content_item *it) {
  size_t p = *i;
  const css_token *name = NULL;
  bool counter = tok_is(&v[p], CSS_T_FUNCTION, "target-counter");
  if (!counter && !tok_is(&v[p], CSS_T_FUNCTION, "target-text"))
    return false;
  p++;
#define SKIP_WS                                                                \
  while (p < n && v[p].type == CSS_T_WHITESPACE)                               \
  p++
  SKIP_WS;
  if (p >= n || !tok_is(&v[p], CSS_T_FUNCTION, "attr"))
    return false;
  p++;
  SKIP_WS;
  if (p >= n || v[p].type != CSS_T_IDENT)
    return false;
  name = &v[p++];
  SKIP_WS;
  if (p >= n || v[p++].type != CSS_T_RPAREN)
    return false;
  SKIP_WS;
  int cs = CSS_CS_DECIMAL;
  if (counter) {
    if (p >= n || v[p++].type != CSS_T_COMMA)
      return false;
    SKIP_WS;
    if (p >= n || !tok_is(&v[p++], CSS_T_IDENT, "page"))
      return false;
    SKIP_WS;
  }
  int part = CSS_TP_CONTENT;
  if (p < n && v[p].type == CSS_T_COMMA) {
    p++;
    SKIP_WS;
    if (counter) {
      if (p >= n || v[p].type != CSS_T_IDENT)
        return false;
      counter_style(v[p++].text, &cs);
    } else if (p < n && tok_is(&v[p], CSS_T_FUNCTION, "content")) {
      /* content(text), content(before), content(after); content() is
         the text */
      p++;
      SKIP_WS;
      if (p < n && v[p].type == CSS_T_IDENT) {
        if (!target_part(v[p].text, &part))
          return false;
        p++;
        SKIP_WS;
      }
      if (p >= n || v[p++].type != CSS_T_RPAREN)
        return false;
    } else if (p >= n || v[p].type != CSS_T_IDENT ||
               !target_part(v[p++].text, &part)) {
      return false;
    }
    SKIP_WS;
  }
  if (p >= n || v[p++].type != CSS_T_RPAREN)
    return false;
#undef SKIP_WS
  *it = (css_content_item){counter ? CSS_C_TARGET_COUNTER : CSS_C_TARGET_TEXT,
                           name->text, cs, part};
  *i = p;
  return true;
}

bool css_read_content(oc_arena *a, const css_token *v, size_t n,
                      css_content_item **items, size_t *nitems) {
  size_t count = 0, cap = 0, i = 0;
  css_content_item *out = NULL;
  while (i < n) {
    if (v[i].type == CSS_T_WHITESPACE) {
      i++;
      continue;
    }
    css_content_item it;
    if (!target_func(v, n, &i, &it) && !content_item(a, v, n, &i, false, &it))
      return false;
    *(css_content_item *)vec_push(a, &out, &count, &cap, sizeof it) = it;
  }
  if (!count)
    return false;
  *items = out;
  *nitems = count;
  return true;
}

char *css_format_counter(oc_arena *a, long n, int style) {
  char buf[32];
  size_t len = 0;
  if (style == CSS_CS_NONE)
    return oc_arena_strndup(a, "", 0);
  if ((style == CSS_CS_LOWER_ROMAN || style == CSS_CS_UPPER_ROMAN) && n >= 1 &&
      n <= 3999) {
    static const struct {
      int v;
      const char *s;
    } r[] = {{1000, "m"}, {900, "cm"}, {500, "d"}, {400, "cd"}, {100, "c"},
             {90, "xc"},  {50, "l"},   {40, "xl"}, {10, "x"},   {9, "ix"},
             {5, "v"},    {4, "iv"},   {1, "i"}};
    for (size_t k = 0; k < sizeof r / sizeof r[0]; k++)
      for (; n >= r[k].v; n -= r[k].v)
        for (const char *c = r[k].s; *c; c++)
          buf[len++] = style == CSS_CS_UPPER_ROMAN ? (char)(*c - 32) : *c;
  } else if ((style == CSS_CS_LOWER_ALPHA || style == CSS_CS_UPPER_ALPHA) &&
             n >= 1) {
    /* Bijective base 26: z is 26, aa 27. Written backwards, then turned. */
    char base = style == CSS_CS_UPPER_ALPHA ? 'A' : 'a';
    for (; n > 0; n = (n - 1) / 26)
      buf[len++] = (char)(base + (n - 1) % 26);
    for (size_t k = 0; k < len / 2; k++) {
      char c = buf[k];
      buf[k] = buf[len - 1 - k];
      buf[len - 1 - k] = c;
    }
  } else {
    len = (size_t)snprintf(buf, sizeof buf, "%ld", n);
  }
  return oc_arena_strndup(a, buf, len);
}

/* Whether a counter name is one CSS reserves. */
static bool counter_name_ok(const char *s) {
  return strcasecmp(s, "none") != 0 && strcasecmp(s, "inherit") != 0 &&
         strcasecmp(s, "initial") != 0;
}

size_t css_read_counters(oc_arena *a, const css_token *v, size_t n,
                         const char ***names, long **values) {
  size_t count = 0, cap = 0, vcap = 0, vn = 0;
  const char **nm = NULL;
  long *val = NULL;
  for (size_t i = 0; i < n;) {
    if (v[i].type == CSS_T_WHITESPACE) {
      i++;
      continue;
    }
    if (v[i].type != CSS_T_IDENT || !counter_name_ok(v[i].text))
      return 0;
    *(const char **)vec_push(a, &nm, &count, &cap, sizeof *nm) = v[i++].text;
    long *slot = vec_push(a, &val, &vn, &vcap, sizeof *val);
    size_t j = i;
    while (j < n && v[j].type == CSS_T_WHITESPACE)
      j++;
    if (j < n && v[j].type == CSS_T_NUMBER) {
      if (!v[j].is_integer || fabs(v[j].num) > 1e9)
        return 0;
      *slot = (long)v[j].num;
      i = j + 1;
    }
  }
  *names = nm;
  *values = val;
  return count;
}

bool css_read_string_set(oc_arena *a, const css_token *v, size_t n,
                         css_string_set **sets, size_t *nsets) {
  size_t count = 0, cap = 0, i = 0;
  css_string_set *out = NULL;
  while (i < n) {
    while (i < n && v[i].type == CSS_T_WHITESPACE)
      i++;
    if (i >= n || v[i].type != CSS_T_IDENT)
      return false;
    css_string_set *s = vec_push(a, &out, &count, &cap, sizeof *s);
    s->name = v[i++].text;
    size_t icap = 0;
    while (i < n && v[i].type != CSS_T_COMMA) {
      if (v[i].type == CSS_T_WHITESPACE) {
        i++;
        continue;
      }
      css_content_item it;
      if (!content_item(a, v, n, &i, v[i].type == CSS_T_FUNCTION, &it))
        return false;
      *(css_content_item *)vec_push(a, &s->items, &s->nitems, &icap,
                                    sizeof it) = it;
    }
    if (!s->nitems)
      return false;
    if (i < n && ++i == n)
      return false;
  }
  if (!count)
    return false;
  *sets = out;
  *nsets = count;
  return true;
}

/* ---- value checks --------------------------------------------------- */

static bool is_length_value(const css_token *v, size_t n, bool nonneg) {
  css_length l;
  if (!css_read_length(v, n, &l))
    return false;
  if (nonneg && l.value < 0)
    return false;
  /* A bare number is a length only when it is zero. */
  return l.unit != CSS_U_NONE || l.value == 0;
}

/* The named page sizes, as Prince documents them (ISO ones in mm, the
 * others in inches), width then height. The traditional book sizes are
 * fractions of their sheets: imperial 22x30in, royal 20x25, crown 15x20,
 * foolscap 13.5x17, medium 18x23, demy 17.5x22.5 (a folio is half of it, a
 * quarto a quarter, an octavo an eighth). */
#define MM(x) ((x)*72.0 / 25.4)
#define IN(x) ((x)*72.0)
static const struct {
  const char *name;
  double w, h;
} page_sizes[] = {
    {"a0", MM(841), MM(1189)},
    {"a1", MM(594), MM(841)},
    {"a2", MM(420), MM(594)},
    {"a3", MM(297), MM(420)},
    {"a4", MM(210), MM(297)},
    {"a5", MM(148), MM(210)},
    {"a6", MM(105), MM(148)},
    {"a7", MM(74), MM(105)},
    {"a8", MM(52), MM(74)},
    {"a9", MM(37), MM(52)},
    {"a10", MM(26), MM(37)},
    {"b0", MM(1000), MM(1414)},
    {"b1", MM(707), MM(1000)},
    {"b2", MM(500), MM(707)},
    {"b3", MM(353), MM(500)},
    {"b4", MM(250), MM(353)},
    {"b5", MM(176), MM(250)},
    {"b6", MM(125), MM(176)},
    {"b7", MM(88), MM(125)},
    {"b8", MM(62), MM(88)},
    {"b9", MM(44), MM(62)},
    {"b10", MM(31), MM(44)},
    {"c0", MM(917), MM(1297)},
    {"c1", MM(648), MM(917)},
    {"c2", MM(458), MM(648)},
    {"c3", MM(324), MM(458)},
    {"c4", MM(229), MM(324)},
    {"c5", MM(162), MM(229)},
    {"c6", MM(114), MM(162)},
    {"c7", MM(81), MM(114)},
    {"c8", MM(57), MM(81)},
    {"c9", MM(40), MM(57)},
    {"c10", MM(28), MM(40)},
    {"id-1", MM(85.60), MM(53.98)},
    {"id-2", MM(105), MM(74)},
    {"id-3", MM(125), MM(88)},
    {"letter", IN(8.5), IN(11)},
    {"legal", IN(8.5), IN(14)},
    {"executive", IN(7.25), IN(10.5)},
    {"ledger", IN(17), IN(11)},
    {"tabloid", IN(11), IN(17)},
    {"government", IN(8), IN(11)},
    {"statement", IN(5.5), IN(8.5)},
    {"folio", IN(8.5), IN(13)},
    {"ansi-a", IN(8.5), IN(11)},
    {"ansi-b", IN(11), IN(17)},
    {"ansi-c", IN(17), IN(22)},
    {"ansi-d", IN(22), IN(34)},
    {"ansi-e", IN(34), IN(44)},
    {"arch-a", IN(9), IN(12)},
    {"arch-b", IN(12), IN(18)},
    {"arch-c", IN(18), IN(24)},
    {"arch-d", IN(24), IN(36)},
    {"arch-e1", IN(30), IN(42)},
    {"arch-e", IN(36), IN(48)},
    {"imperial-folio", IN(15), IN(22)},
    {"imperial-quarto", IN(11), IN(15)},
    {"imperial-octavo", IN(7.5), IN(11)},
    {"royal-folio", IN(12.5), IN(20)},
    {"royal-quarto", IN(10), IN(12.5)},
    {"royal-octavo", IN(6.25), IN(10)},
    {"crown-folio", IN(10), IN(15)},
    {"crown-quarto", IN(7.5), IN(10)},
    {"crown-octavo", IN(5), IN(7.5)},
    {"foolscap-folio", IN(8.5), IN(13.5)},
    {"foolscap-quarto", IN(6.75), IN(8.5)},
    {"foolscap-octavo", IN(4.25), IN(6.75)},
    {"medium-quarto", IN(9), IN(11.5)},
    {"demy-quarto", IN(8.75), IN(11.25)},
    {"demy-octavo", IN(5.625), IN(8.75)},
};
#undef MM
#undef IN

bool css_page_size_by_name(const char *name, double *w, double *h) {
  /* US-Letter and the other American sizes also go by "US-". */
  if (strncasecmp(name, "us-", 3) == 0) {
    name += 3;
    if (strcasecmp(name, "letter") != 0 && strcasecmp(name, "legal") != 0 &&
        strcasecmp(name, "executive") != 0 && strcasecmp(name, "ledger") != 0 &&
        strcasecmp(name, "tabloid") != 0 &&
        strcasecmp(name, "government") != 0 &&
        strcasecmp(name, "statement") != 0 && strcasecmp(name, "folio") != 0)
      return false;
  }
  for (size_t k = 0; k < sizeof page_sizes / sizeof page_sizes[0]; k++)
    if (strcasecmp(name, page_sizes[k].name) == 0) {
      *w = page_sizes[k].w;
      *h = page_sizes[k].h;
      return true;
    }
  return false;
}

bool css_read_page_size(const css_token *v, size_t n, double *width,
                        double *height) {
  double len[2];
  size_t nlen = 0, nnames = 0;
  int orient = 0; /* 1 portrait, 2 landscape */
  for (size_t i = 0; i < n; i++) {
    const css_token *t = &v[i];
    css_length l;
    if (t->type == CSS_T_WHITESPACE)
      continue;
    if (t->type == CSS_T_IDENT) {
      /* Lengths take no orientation. */
      if (nlen)
        return false;
      if (strcasecmp(t->text, "portrait") == 0 && !orient) {
        orient = 1;
        continue;
      }
      if (strcasecmp(t->text, "landscape") == 0 && !orient) {
        orient = 2;
        continue;
      }
      if (nnames || nlen || !css_page_size_by_name(t->text, width, height))
        return false;
      nnames++;
      continue;
    }
    if (nlen == 2 || nnames || orient || !css_read_length(t, 1, &l) ||
        l.unit == CSS_U_NONE || l.unit == CSS_U_PERCENT || l.unit == CSS_U_EM ||
        l.unit == CSS_U_REM || l.value <= 0)
      return false;
    len[nlen++] = css_length_pt(l, 0, 0, 0);
  }
  if (nlen) {
    *width = len[0];
    *height = nlen == 2 ? len[1] : len[0];
  } else if (!nnames) {
    if (!orient)
      return false;
    css_page_size_by_name("a4", width, height); /* "size: landscape" */
  }
  if ((orient == 2 && *width < *height) || (orient == 1 && *width > *height)) {
    double t = *width;
    *width = *height;
    *height = t;
  }
  return true;
}

static bool value_ok(oc_arena *a, css_prop p, const css_token *v, size_t n) {
  const prop_info *pi = &props[p];
  const char *kw = css_read_keyword(v, n);
  if (kw && in_list(pi->kw, kw))
    return true;
  switch (pi->kind) {
  case V_COLOR: {
    css_color c;
    return css_read_color(v, n, &c);
  }
  case V_FAMILY: {
    const char **names;
    return css_read_font_family(a, v, n, &names) > 0;
  }
  case V_LENGTH:
    return is_length_value(v, n, false);
  case V_LENGTH_NN:
    return is_length_value(v, n, true);
  case V_KEYWORD:
    return false;
  case V_KEYWORDS:
    for (size_t i = 0; i < n; i++) {
      if (v[i].type == CSS_T_WHITESPACE)
        continue;
      if (v[i].type != CSS_T_IDENT || !in_list(pi->kw, v[i].text))
        return false;
      for (size_t k = 0; k < i; k++)
        if (v[k].type == CSS_T_IDENT && !strcasecmp(v[k].text, v[i].text))
          return false;
    }
    return n > 0;
  case V_INTEGER:
    return n == 1 && v->type == CSS_T_NUMBER && v->is_integer && v->num >= 1;
  case V_LINE_HEIGHT:
    return (n == 1 && v->type == CSS_T_NUMBER && v->num >= 0) ||
           is_length_value(v, n, true);
  case V_FONT_SIZE:
    return is_length_value(v, n, true);
  case V_FONT_WEIGHT:
    return n == 1 && v->type == CSS_T_NUMBER && v->is_integer &&
           v->num >= 100 && v->num <= 900 && (int)v->num % 100 == 0;
  case V_CONTENT: {
    css_content_item *it;
    size_t k;
    return css_read_content(a, v, n, &it, &k);
  }
  case V_STRING_SET: {
    css_string_set *s;
    size_t k;
    return css_read_string_set(a, v, n, &s, &k);
  }
  case V_PAGE_SIZE: {
    double w, h;
    return (kw && strcasecmp(kw, "auto") == 0) ||
           css_read_page_size(v, n, &w, &h);
  }
  case V_PAGE_NAME:
    return kw != NULL;
  case V_COUNTERS: {
    const char **names;
    long *values;
    return css_read_counters(a, v, n, &names, &values) > 0;
  }
  case V_ANY:
    return n > 0;
  }
  return false;
}

/* ---- the parser ----------------------------------------------------- */

typedef struct css_ps {
  oc_arena *a;
  const css_token *t;
  size_t n; /* tokens, without the EOF */
  const char *file;
  const oc_reporter *rep;
  css_stylesheet *sheet;
  size_t nrules_cap, npages_cap, nfonts_cap;
} css_ps;

static void ps_report(css_ps *P, oc_severity sev, const css_token *at,
                      const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void ps_report(css_ps *P, oc_severity sev, const css_token *at,
                      const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  oc_vreport(P->rep, sev, P->file, at->line, at->col, fmt, ap);
  va_end(ap);
}

/* Index just past the component value starting at i (a block or function
 * runs to its matching close, or to e). */
static size_t skip_block(const css_ps *P, size_t i, size_t e);

static inline size_t skip_component(const css_ps *P, size_t i, size_t e) {
  css_tok_type open = P->t[i].type;
  if (open != CSS_T_LBRACE && open != CSS_T_LBRACKET && open != CSS_T_LPAREN &&
      open != CSS_T_FUNCTION)
    return i + 1;
  return skip_block(P, i, e);
}

/* The closers a block still waits for: a stack of 64, and nesting past it
 * counted, so that it is still skipped. */
typedef struct block_nest {
  css_tok_type want[64];
  size_t depth, over;
} block_nest;

/* Takes the next token of a block whose opener came first (nest zeroed
 * before it): true when t closes that block. */
static bool nest_step(block_nest *N, css_tok_type t) {
  css_tok_type close = t == CSS_T_LBRACE     ? CSS_T_RBRACE
                       : t == CSS_T_LBRACKET ? CSS_T_RBRACKET
                       : (t == CSS_T_LPAREN || t == CSS_T_FUNCTION)
                           ? CSS_T_RPAREN
                           : CSS_T_EOF;
  if (close != CSS_T_EOF) {
    if (N->depth < 64)
      N->want[N->depth++] = close;
    else
      N->over++;
  } else if (N->over && (t == CSS_T_RBRACE || t == CSS_T_RBRACKET ||
                         t == CSS_T_RPAREN)) {
    N->over--;
  } else if (N->depth && t == N->want[N->depth - 1]) {
    return --N->depth == 0;
  }
  return false;
}

static size_t skip_block(const css_ps *P, size_t i, size_t e) {
  block_nest N = {0};
  for (; i < e; i++)
    if (nest_step(&N, P->t[i].type))
      return i + 1;
  return e;
}

/* Trims whitespace off both ends of [*b, *e). */
static void trim(const css_ps *P, size_t *b, size_t *e) {
  while (*b < *e && P->t[*b].type == CSS_T_WHITESPACE)
    (*b)++;
  while (*e > *b && P->t[*e - 1].type == CSS_T_WHITESPACE)
    (*e)--;
}

typedef struct decl_list {
  css_decl *d;
  size_t n, cap;
} decl_list;

typedef enum decl_ctx {
  CTX_STYLE,
  CTX_PAGE,
  CTX_MARGIN_BOX,
  CTX_FONT_FACE
} decl_ctx;

static void add_decl(css_ps *P, decl_list *L, css_prop p, const css_token *at,
                     const css_token *v, size_t n, bool important) {
  css_decl *d = vec_push(P->a, &L->d, &L->n, &L->cap, sizeof *d);
  d->prop = p;
  d->important = important;
  d->line = at->line;
  d->col = at->col;
  d->value = v;
  d->nvalue = n;
}

/* A token made for a shorthand's omitted part (its initial value). */
static const css_token *synth_ident(css_ps *P, const css_token *at,
                                    const char *word) {
  css_token *t = oc_arena_calloc(P->a, 1, sizeof *t);
  t->type = CSS_T_IDENT;
  t->text = word;
  t->len = strlen(word);
  t->line = at->line;
  t->col = at->col;
  return t;
}

/* The top-level component values of v[0, n), whitespace dropped: start
 * and end of each. */
static size_t components(const css_ps *P, const css_token *v, size_t n,
                         size_t *b, size_t *e, size_t max) {
  size_t k = 0, base = (size_t)(v - P->t);
  for (size_t i = 0; i < n;) {
    if (v[i].type == CSS_T_WHITESPACE) {
      i++;
      continue;
    }
    size_t j = skip_component(P, base + i, base + n) - base;
    if (k < max) {
      b[k] = i;
      e[k] = j;
    }
    k++;
    i = j;
  }
  return k;
}

static const css_prop side_props[4][4] = {
    {CSS_P_MARGIN_TOP, CSS_P_MARGIN_RIGHT, CSS_P_MARGIN_BOTTOM,
     CSS_P_MARGIN_LEFT},
    {CSS_P_PADDING_TOP, CSS_P_PADDING_RIGHT, CSS_P_PADDING_BOTTOM,
     CSS_P_PADDING_LEFT},
    {CSS_P_BORDER_TOP_WIDTH, CSS_P_BORDER_RIGHT_WIDTH,
     CSS_P_BORDER_BOTTOM_WIDTH, CSS_P_BORDER_LEFT_WIDTH},
    {CSS_P_BORDER_TOP_STYLE, CSS_P_BORDER_RIGHT_STYLE,
     CSS_P_BORDER_BOTTOM_STYLE, CSS_P_BORDER_LEFT_STYLE},
};
static const css_prop border_colors[4] = {
    CSS_P_BORDER_TOP_COLOR, CSS_P_BORDER_RIGHT_COLOR, CSS_P_BORDER_BOTTOM_COLOR,
    CSS_P_BORDER_LEFT_COLOR};

/* margin: 1 to 4 values, top right bottom left as CSS repeats them. */
static bool expand_box(css_ps *P, decl_list *L, const css_prop sides[4],
                       const css_token *at, const css_token *v, size_t n,
                       bool imp) {
  size_t b[4], e[4];
  size_t k = components(P, v, n, b, e, 4);
  if (k < 1 || k > 4)
    return false;
  static const size_t pick[4][4] = {
      {0, 0, 0, 0}, {0, 1, 0, 1}, {0, 1, 2, 1}, {0, 1, 2, 3}};
  for (int s = 0; s < 4; s++) {
    size_t c = pick[k - 1][s];
    if (!value_ok(P->a, sides[s], v + b[c], e[c] - b[c]))
      return false;
  }
  for (int s = 0; s < 4; s++) {
    size_t c = pick[k - 1][s];
    add_decl(P, L, sides[s], at, v + b[c], e[c] - b[c], imp);
  }
  return true;
}

/* border and border-<side>: width, style and colour in any order, each at
 * most once; the omitted ones reset to their initial values. */
static bool expand_border(css_ps *P, decl_list *L, int side,
                          const css_token *at, const css_token *v, size_t n,
                          bool imp) {
  size_t b[4], e[4];
  size_t k = components(P, v, n, b, e, 4);
  if (k < 1 || k > 3)
    return false;
  const css_token *part[3] = {NULL, NULL, NULL};
  size_t plen[3] = {1, 1, 1};
  for (size_t c = 0; c < k; c++) {
    const css_token *x = v + b[c];
    size_t xn = e[c] - b[c];
    int slot = value_ok(P->a, CSS_P_BORDER_TOP_WIDTH, x, xn)   ? 0
               : value_ok(P->a, CSS_P_BORDER_TOP_STYLE, x, xn) ? 1
               : value_ok(P->a, CSS_P_BORDER_TOP_COLOR, x, xn) ? 2
                                                               : -1;
    if (slot < 0 || part[slot] ||
        (xn == 1 && tok_is(x, CSS_T_IDENT, "inherit")))
      return false;
    part[slot] = x;
    plen[slot] = xn;
  }
  if (!part[0])
    part[0] = synth_ident(P, at, "medium");
  if (!part[1])
    part[1] = synth_ident(P, at, "none");
  for (int s = 0; s < 4; s++) {
    if (side >= 0 && s != side)
      continue;
    add_decl(P, L, side_props[2][s], at, part[0], plen[0], imp);
    add_decl(P, L, side_props[3][s], at, part[1], plen[1], imp);
    /* An omitted colour is the element's colour: left to the engine. */
    if (part[2])
      add_decl(P, L, border_colors[s], at, part[2], plen[2], imp);
  }
  return true;
}

/* font: [style || variant || weight] size [/ line-height] family. */
static bool expand_font(css_ps *P, decl_list *L, const css_token *at,
                        const css_token *v, size_t n, bool imp) {
  size_t b[16], e[16];
  size_t k = components(P, v, n, b, e, 16);
  if (k < 2 || k > 16)
    return false;
  const css_token *style = NULL, *variant = NULL, *weight = NULL;
  size_t c = 0;
  for (; c < k && c < 3; c++) {
    const css_token *x = v + b[c];
    size_t xn = e[c] - b[c];
    if (xn == 1 && tok_is(x, CSS_T_IDENT, "normal"))
      continue;
    if (!style && value_ok(P->a, CSS_P_FONT_STYLE, x, xn))
      style = x;
    else if (!variant && value_ok(P->a, CSS_P_FONT_VARIANT, x, xn))
      variant = x;
    else if (!weight && value_ok(P->a, CSS_P_FONT_WEIGHT, x, xn))
      weight = x;
    else
      break;
  }
  if (c >= k || !value_ok(P->a, CSS_P_FONT_SIZE, v + b[c], e[c] - b[c]))
    return false;
  const css_token *size = v + b[c++];
  const css_token *lh = NULL;
  if (c + 1 < k && tok_delim(v + b[c], '/')) {
    lh = v + b[c + 1];
    if (!value_ok(P->a, CSS_P_LINE_HEIGHT, lh, e[c + 1] - b[c + 1]))
      return false;
    c += 2;
  }
  if (c >= k)
    return false;
  const css_token *fam = v + b[c];
  size_t famn = n - b[c];
  if (!value_ok(P->a, CSS_P_FONT_FAMILY, fam, famn))
    return false;
  add_decl(P, L, CSS_P_FONT_STYLE, at,
           style ? style : synth_ident(P, at, "normal"), 1, imp);
  add_decl(P, L, CSS_P_FONT_VARIANT, at,
           variant ? variant : synth_ident(P, at, "normal"), 1, imp);
  add_decl(P, L, CSS_P_FONT_WEIGHT, at,
           weight ? weight : synth_ident(P, at, "normal"), 1, imp);
  add_decl(P, L, CSS_P_FONT_SIZE, at, size, 1, imp);
  add_decl(P, L, CSS_P_LINE_HEIGHT, at, lh ? lh : synth_ident(P, at, "normal"),
           1, imp);
  add_decl(P, L, CSS_P_FONT_FAMILY, at, fam, famn, imp);
  return true;
}

/* text-decoration: the line, and a style or colour the engine does not
 * draw (dropped); an omitted line is none. */
static bool expand_text_decoration(css_ps *P, decl_list *L, const css_token *at,
                                   const css_token *v, size_t n, bool imp) {
  size_t b[3], e[3];
  size_t k = components(P, v, n, b, e, 3);
  if (k < 1 || k > 3)
    return false;
  if (n == 1 && tok_is(v, CSS_T_IDENT, "inherit")) {
    add_decl(P, L, CSS_P_TEXT_DECORATION_LINE, at, v, 1, imp);
    return true;
  }
  const css_token *line = NULL;
  bool style = false, color = false;
  for (size_t c = 0; c < k; c++) {
    const css_token *x = v + b[c];
    size_t xn = e[c] - b[c];
    const char *kw = css_read_keyword(x, xn);
    css_color col;
    if (!line && value_ok(P->a, CSS_P_TEXT_DECORATION_LINE, x, xn))
      line = x;
    else if (!style && kw && in_list("solid double dotted dashed wavy", kw))
      style = true;
    else if (!color && css_read_color(x, xn, &col))
      color = true;
    else
      return false;
  }
  add_decl(P, L, CSS_P_TEXT_DECORATION_LINE, at,
           line ? line : synth_ident(P, at, "none"), 1, imp);
  return true;
}

static bool expand_shorthand(css_ps *P, decl_list *L, const shorthand_info *sh,
                             const css_token *at, const css_token *v, size_t n,
                             bool imp) {
  /* inherit on a shorthand sets every longhand to inherit. */
  if (n == 1 && tok_is(v, CSS_T_IDENT, "inherit") && sh->sh != SH_FONT &&
      sh->sh != SH_PAGE_BREAK && sh->sh != SH_TEXT_DECORATION) {
    css_prop all[12];
    size_t k = 0;
    for (int s = 0; s < 4; s++) {
      if (sh->sh == SH_MARGIN)
        all[k++] = side_props[0][s];
      else if (sh->sh == SH_PADDING)
        all[k++] = side_props[1][s];
      else if (sh->sh == SH_BORDER_WIDTH)
        all[k++] = side_props[2][s];
      else if (sh->sh == SH_BORDER_STYLE)
        all[k++] = side_props[3][s];
      else if (sh->sh == SH_BORDER_COLOR)
        all[k++] = border_colors[s];
      else if (sh->sh == SH_BORDER ||
               (sh->sh == SH_BORDER_SIDE && sh->arg == s)) {
        all[k++] = side_props[2][s];
        all[k++] = side_props[3][s];
        all[k++] = border_colors[s];
      }
    }
    for (size_t i = 0; i < k; i++)
      add_decl(P, L, all[i], at, v, n, imp);
    return true;
  }
  switch (sh->sh) {
  case SH_MARGIN:
    return expand_box(P, L, side_props[0], at, v, n, imp);
  case SH_PADDING:
    return expand_box(P, L, side_props[1], at, v, n, imp);
  case SH_BORDER_WIDTH:
    return expand_box(P, L, side_props[2], at, v, n, imp);
  case SH_BORDER_STYLE:
    return expand_box(P, L, side_props[3], at, v, n, imp);
  case SH_BORDER_COLOR:
    return expand_box(P, L, border_colors, at, v, n, imp);
  case SH_BORDER:
    return expand_border(P, L, -1, at, v, n, imp);
  case SH_BORDER_SIDE:
    return expand_border(P, L, sh->arg, at, v, n, imp);
  case SH_FONT:
    return expand_font(P, L, at, v, n, imp);
  case SH_PAGE_BREAK: {
    css_prop p = (css_prop)sh->arg;
    const char *kw = css_read_keyword(v, n);
    if (!kw)
      return false;
    /* CSS 2.1's values only; its "always" is Fragmentation's "page". */
    if (strcasecmp(kw, "always") == 0 && p != CSS_P_BREAK_INSIDE)
      v = synth_ident(P, at, "page");
    else if (!in_list(p == CSS_P_BREAK_INSIDE ? "auto avoid inherit"
                                              : "auto avoid left right inherit",
                      kw))
      return false;
    add_decl(P, L, p, at, v, 1, imp);
    return true;
  }
  case SH_TEXT_DECORATION:
    return expand_text_decoration(P, L, at, v, n, imp);
  case SH_NONE:
    break;
  }
  return false;
}

static bool prop_allowed(css_prop p, decl_ctx ctx) {
  switch (ctx) {
  case CTX_STYLE:
  case CTX_MARGIN_BOX:
    return p != CSS_P_SIZE && p != CSS_P_SRC && p != CSS_P_BLEED &&
           p != CSS_P_MARKS;
  case CTX_PAGE:
    return p != CSS_P_SRC;
  case CTX_FONT_FACE:
    return p == CSS_P_SRC || p == CSS_P_FONT_FAMILY || p == CSS_P_FONT_STYLE ||
           p == CSS_P_FONT_WEIGHT;
  }
  return false;
}

static const char *ctx_name(decl_ctx ctx) {
  return ctx == CTX_PAGE         ? "@page"
         : ctx == CTX_FONT_FACE  ? "@font-face"
         : ctx == CTX_MARGIN_BOX ? "a margin box"
                                 : "a style rule";
}

/* counter-reset and counter-increment with every omitted value written
 * out as dflt, so that css_read_counters needs no default. */
static const css_token *counter_defaults(css_ps *P, const css_token *v,
                                         size_t *n, long dflt) {
  const char *kw = css_read_keyword(v, *n);
  if (kw && strcasecmp(kw, "none") == 0)
    return v;
  /* Name, space, number and space per name at most. */
  css_token *out = oc_arena_calloc(P->a, *n * 4, sizeof *out);
  size_t k = 0;
  for (size_t i = 0; i < *n;) {
    if (v[i].type == CSS_T_WHITESPACE) {
      i++;
      continue;
    }
    const css_token *name = &v[i++];
    css_token space = {.type = CSS_T_WHITESPACE,
                       .line = name->line,
                       .col = name->col,
                       .text = " ",
                       .len = 1};
    if (k)
      out[k++] = space;
    out[k++] = *name;
    out[k++] = space;
    size_t j = i;
    while (j < *n && v[j].type == CSS_T_WHITESPACE)
      j++;
    if (j < *n && v[j].type == CSS_T_NUMBER) {
      out[k++] = v[j];
      i = j + 1;
    } else {
      out[k++] = (css_token){.type = CSS_T_NUMBER,
                             .is_integer = true,
                             .line = name->line,
                             .col = name->col,
                             .text = "",
                             .num = (double)dflt};
    }
  }
  *n = k;
  return out;
}

/* counter(x, style) and target-counter(attr(y), page, style) with a style
 * the reader does not know: a warning, and decimal. */
static void check_counter_styles(css_ps *P, const css_token *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    int want = tok_is(&v[i], CSS_T_FUNCTION, "counter")          ? 1
               : tok_is(&v[i], CSS_T_FUNCTION, "target-counter") ? 2
                                                                 : 0;
    if (!want)
      continue;
    int depth = 0, commas = 0;
    for (size_t j = i + 1; j < n; j++) {
      css_tok_type t = v[j].type;
      if (t == CSS_T_RPAREN && depth-- == 0)
        break;
      if (t == CSS_T_FUNCTION || t == CSS_T_LPAREN)
        depth++;
      else if (depth == 0 && t == CSS_T_COMMA)
        commas++;
      else if (depth == 0 && t == CSS_T_IDENT && commas == want) {
        int cs;
        if (!counter_style(v[j].text, &cs))
          ps_report(P, OC_WARNING, &v[j],
                    "unknown counter style '%s', decimal used", v[j].text);
      }
    }
  }
}

/* One declaration, name at P->t[i], value up to e (exclusive, the ";" or
 * the block's end). */
static void parse_decl(css_ps *P, decl_list *L, decl_ctx ctx, size_t i,
                       size_t e) {
  const css_token *name = &P->t[i];
  size_t p = i + 1;
  while (p < e && P->t[p].type == CSS_T_WHITESPACE)
    p++;
  if (p >= e || P->t[p].type != CSS_T_COLON) {
    ps_report(P, OC_ERROR, name, "expected ':' after '%s'", name->text);
    return;
  }
  size_t vb = p + 1, ve = e;
  trim(P, &vb, &ve);
  bool imp = false;
  /* "! important" at the very end. */
  if (ve > vb && tok_is(&P->t[ve - 1], CSS_T_IDENT, "important")) {
    size_t q = ve - 1;
    while (q > vb && P->t[q - 1].type == CSS_T_WHITESPACE)
      q--;
    if (q > vb && tok_delim(&P->t[q - 1], '!')) {
      imp = true;
      ve = q - 1;
      trim(P, &vb, &ve);
    }
  }
  if (vb == ve) {
    ps_report(P, OC_ERROR, name, "missing value for '%s'", name->text);
    return;
  }
  /* A bad string or url anywhere, or a closer without its opener, makes
   * the declaration invalid. */
  for (size_t q = vb; q < ve; q++)
    if (P->t[q].type == CSS_T_BAD_STRING || P->t[q].type == CSS_T_BAD_URL) {
      ps_report(P, OC_ERROR, &P->t[q], "invalid value for '%s'", name->text);
      return;
    }
  for (size_t q = vb; q < ve; q = skip_component(P, q, ve))
    if (P->t[q].type == CSS_T_RBRACE || P->t[q].type == CSS_T_RPAREN ||
        P->t[q].type == CSS_T_RBRACKET) {
      ps_report(P, OC_ERROR, &P->t[q], "invalid value for '%s'", name->text);
      return;
    }
  const css_token *v = &P->t[vb];
  size_t n = ve - vb;
  /* Names compare lower-cased, first byte first: the tables are scanned
   * for every declaration. */
  char lname[32];
  if (name->len >= sizeof lname) {
    ps_report(P, OC_WARNING, name, "unsupported property '%s'", name->text);
    return;
  }
  for (size_t k = 0; k <= name->len; k++)
    lname[k] =
        (char)(name->text[k] >= 'A' && name->text[k] <= 'Z' ? name->text[k] + 32
                                                            : name->text[k]);
  for (size_t s = 0; s < sizeof shorthands / sizeof shorthands[0]; s++) {
    if (shorthands[s].name[0] != lname[0] ||
        strcmp(shorthands[s].name, lname) != 0)
      continue;
    if (ctx == CTX_FONT_FACE) {
      ps_report(P, OC_WARNING, name, "property '%s' does not apply in %s",
                name->text, ctx_name(ctx));
      return;
    }
    if (!expand_shorthand(P, L, &shorthands[s], name, v, n, imp))
      ps_report(P, OC_ERROR, v, "invalid value for '%s'", name->text);
    return;
  }
  for (int pi = 0; pi < CSS_P_COUNT; pi++) {
    if (props[pi].name[0] != lname[0] || strcmp(props[pi].name, lname) != 0)
      continue;
    if (!prop_allowed((css_prop)pi, ctx)) {
      ps_report(P, OC_WARNING, name, "property '%s' does not apply in %s",
                name->text, ctx_name(ctx));
      return;
    }
    bool inherit = n == 1 && tok_is(v, CSS_T_IDENT, "inherit");
    if (!inherit && !value_ok(P->a, (css_prop)pi, v, n)) {
      ps_report(P, OC_ERROR, v, "invalid value for '%s'", name->text);
      return;
    }
    if (!inherit && props[pi].kind == V_COUNTERS)
      v = counter_defaults(P, v, &n, pi == CSS_P_COUNTER_RESET ? 0 : 1);
    if (pi == CSS_P_CONTENT)
      check_counter_styles(P, v, n);
    add_decl(P, L, (css_prop)pi, name, v, n, imp);
    return;
  }
  ps_report(P, OC_WARNING, name, "unsupported property '%s'", name->text);
}

static void parse_at_rule(css_ps *P, size_t *i, size_t e, int depth);

static const char *const margin_boxes[CSS_MB_COUNT] = {
    "top-left",    "top-center",    "top-right",
    "bottom-left", "bottom-center", "bottom-right"};

/* A declaration list in [b, e): declarations separated by ";", and in @page
 * the margin-box at-rules. */
static void parse_decls(css_ps *P, decl_list *L, decl_ctx ctx, size_t b,
                        size_t e, css_page_rule *page) {
  size_t i = b, mcap = 0;
  while (i < e) {
    const css_token *t = &P->t[i];
    if (t->type == CSS_T_WHITESPACE || t->type == CSS_T_SEMICOLON) {
      i++;
      continue;
    }
    if (t->type == CSS_T_AT_KEYWORD) {
      int box = -1;
      for (int k = 0; page && k < CSS_MB_COUNT; k++)
        if (strcasecmp(t->text, margin_boxes[k]) == 0)
          box = k;
      /* An at-rule runs to its block's end or its ";". */
      size_t j = i + 1;
      while (j < e && P->t[j].type != CSS_T_LBRACE &&
             P->t[j].type != CSS_T_SEMICOLON)
        j = skip_component(P, j, e);
      size_t end = j < e && P->t[j].type == CSS_T_LBRACE
                       ? skip_component(P, j, e)
                       : (j < e ? j + 1 : e);
      if (box >= 0 && j < e && P->t[j].type == CSS_T_LBRACE) {
        css_margin_rule *m =
            vec_push(P->a, &page->boxes, &page->nboxes, &mcap, sizeof *m);
        m->box = (css_margin_box)box;
        m->line = t->line;
        m->col = t->col;
        decl_list ml = {0};
        size_t be = end;
        if (be > j + 1 && P->t[be - 1].type == CSS_T_RBRACE)
          be--;
        else
          ps_report(P, OC_ERROR, t, "unclosed block of '@%s'", t->text);
        parse_decls(P, &ml, CTX_MARGIN_BOX, j + 1, be, NULL);
        m->decls = ml.d;
        m->ndecls = ml.n;
      } else if (page) {
        ps_report(P, OC_WARNING, t, "unsupported margin box '@%s'", t->text);
      } else {
        ps_report(P, OC_WARNING, t, "unexpected '@%s' in %s", t->text,
                  ctx_name(ctx));
      }
      i = end;
      continue;
    }
    /* A declaration runs to the next ";" outside any block. */
    size_t j = i;
    while (j < e && P->t[j].type != CSS_T_SEMICOLON)
      j = skip_component(P, j, e);
    if (t->type != CSS_T_IDENT)
      ps_report(P, OC_ERROR, t, "expected a property name");
    else
      parse_decl(P, L, ctx, i, j);
    i = j;
  }
}

/* The block [b, e) that starts at a "{": its inside, reporting an
 * unclosed one. */
static void block_inside(css_ps *P, size_t open, size_t end,
                         const css_token *owner, size_t *b, size_t *e) {
  *b = open + 1;
  *e = end;
  if (end > open + 1 && P->t[end - 1].type == CSS_T_RBRACE && end - 1 != open)
    (*e)--;
  else
    ps_report(P, OC_ERROR, owner, "unclosed block");
}

/* ---- selectors ------------------------------------------------------ */

static bool parse_selector_at(css_ps *P, size_t b, size_t e, css_selector *out);

css_selector *css_parse_selector(oc_arena *a, const char *text,
                                 const char *file, const oc_reporter *rep) {
  css_stylesheet sheet = {0};
  css_ps P = {0};
  P.a = a;
  P.file = file;
  P.rep = rep;
  P.sheet = &sheet;
  css_token *t;
  P.n = css_tokenize(a, text, strlen(text), file, rep, &t);
  P.t = t;
  size_t b = 0, e = P.n;
  trim(&P, &b, &e);
  css_selector *sel = oc_arena_calloc(a, 1, sizeof *sel);
  return parse_selector_at(&P, b, e, sel) ? sel : NULL;
}

/* One complex selector in [b, e), whitespace trimmed. */
static bool parse_selector_at(css_ps *P, size_t b, size_t e,
                              css_selector *out) {
  size_t cap = 0, ccap = 0, acap = 0;
  unsigned ids = 0, cls = 0, types = 0;
  memset(out, 0, sizeof *out);
  if (b >= e) {
    ps_report(P, OC_ERROR, &P->t[b < P->n ? b : P->n], "empty selector");
    return false;
  }
  out->line = P->t[b].line;
  out->col = P->t[b].col;
  /* The compounds, at most one more than the runs of combinator tokens,
   * are allocated at once: a 50 MB sheet has millions of them. */
  size_t most = 1;
  bool in_run = false;
  for (size_t k = b; k < e; k++) {
    const css_token *t = &P->t[k];
    bool comb_tok = t->type == CSS_T_WHITESPACE || tok_delim(t, '>') ||
                    tok_delim(t, '+') || tok_delim(t, '~');
    most += comb_tok && !in_run;
    in_run = comb_tok;
  }
  out->parts = oc_arena_alloc(P->a, oc_size_mul(most, sizeof *out->parts));
  cap = most;
  css_combinator comb = CSS_COMB_NONE;
  size_t i = b;
  while (i < e) {
    css_compound *c =
        vec_push(P->a, &out->parts, &out->nparts, &cap, sizeof *c);
    c->comb = comb;
    ccap = acap = 0;
    const css_token *t = &P->t[i];
    bool any = false;
    if (out->pseudo != CSS_PE_NONE) {
      ps_report(P, OC_ERROR, t, "pseudo-element must end the selector");
      return false;
    }
    if (t->type == CSS_T_IDENT) {
      c->tag = lower_dup(P->a, t->text);
      types++;
      i++;
      any = true;
    } else if (tok_delim(t, '*')) {
      i++;
      any = true;
    }
    while (i < e) {
      t = &P->t[i];
      if (t->type == CSS_T_HASH && t->is_id) {
        /* Valid CSS, but no element has two ids: say so and drop it. */
        if (c->id && strcmp(c->id, t->text) != 0) {
          ps_report(P, OC_WARNING, t, "selector with two ids never matches");
          return false;
        }
        c->id = t->text;
        ids++;
        i++;
      } else if (tok_delim(t, '.') && i + 1 < e &&
                 P->t[i + 1].type == CSS_T_IDENT) {
        const char **slot =
            vec_push(P->a, &c->classes, &c->nclasses, &ccap, sizeof *slot);
        *slot = P->t[i + 1].text;
        cls++;
        i += 2;
      } else if (t->type == CSS_T_LBRACKET) {
        size_t end = skip_component(P, i, e), q = i + 1;
        size_t ie = end - 1;
        trim(P, &q, &ie);
        css_attr_test *at =
            vec_push(P->a, &c->attrs, &c->nattrs, &acap, sizeof *at);
        if (end > i + 1 && P->t[end - 1].type == CSS_T_RBRACKET && q < ie &&
            P->t[q].type == CSS_T_IDENT) {
          at->name = lower_dup(P->a, P->t[q].text);
          size_t r = q + 1;
          while (r < ie && P->t[r].type == CSS_T_WHITESPACE)
            r++;
          if (r == ie) {
            i = end;
            cls++;
            any = true;
            continue;
          }
          if (tok_delim(&P->t[r], '=')) {
            r++;
            while (r < ie && P->t[r].type == CSS_T_WHITESPACE)
              r++;
            if (r + 1 == ie &&
                (P->t[r].type == CSS_T_IDENT || P->t[r].type == CSS_T_STRING)) {
              at->value = P->t[r].text;
              i = end;
              cls++;
              any = true;
              continue;
            }
          } else if (P->t[r].type == CSS_T_DELIM && r + 1 < ie &&
                     tok_delim(&P->t[r + 1], '=')) {
            ps_report(P, OC_WARNING, t, "unsupported selector '[%s%c=...]'",
                      at->name, (char)P->t[r].delim);
            return false;
          }
        }
        ps_report(P, OC_ERROR, t, "invalid attribute selector");
        return false;
      } else if (t->type == CSS_T_COLON) {
        bool two = i + 1 < e && P->t[i + 1].type == CSS_T_COLON;
        size_t q = i + (two ? 2 : 1);
        if (q >= e ||
            (P->t[q].type != CSS_T_IDENT && P->t[q].type != CSS_T_FUNCTION)) {
          ps_report(P, OC_ERROR, t, "invalid selector");
          return false;
        }
        const char *name = P->t[q].text;
        if (out->pseudo != CSS_PE_NONE) {
          ps_report(P, OC_ERROR, t, "pseudo-element must end the selector");
          return false;
        }
        if (!two && strcasecmp(name, "first-child") == 0 &&
            P->t[q].type == CSS_T_IDENT) {
          c->first_child = true;
          cls++;
        } else if (P->t[q].type == CSS_T_IDENT &&
                   (strcasecmp(name, "before") == 0 ||
                    strcasecmp(name, "after") == 0)) {
          out->pseudo = (name[0] | 0x20) == 'b' ? CSS_PE_BEFORE : CSS_PE_AFTER;
          types++;
        } else if (P->t[q].type == CSS_T_IDENT &&
                   (strcasecmp(name, "footnote-call") == 0 ||
                    strcasecmp(name, "footnote-marker") == 0)) {
          out->pseudo = strcasecmp(name, "footnote-call") == 0
                            ? CSS_PE_FOOTNOTE_CALL
                            : CSS_PE_FOOTNOTE_MARKER;
          types++;
        } else {
          ps_report(P, OC_WARNING, t, "unsupported selector '%s%s'",
                    two ? "::" : ":", name);
          return false;
        }
        i = q + 1;
      } else {
        break;
      }
      any = true;
    }
    if (!any) {
      ps_report(P, OC_ERROR, t, "invalid selector");
      return false;
    }
    if (i >= e)
      break;
    /* A combinator: whitespace, ">" with optional whitespace. */
    bool ws = false;
    while (i < e && P->t[i].type == CSS_T_WHITESPACE) {
      ws = true;
      i++;
    }
    comb = ws ? CSS_COMB_DESCENDANT : CSS_COMB_NONE;
    if (i < e && tok_delim(&P->t[i], '>')) {
      comb = CSS_COMB_CHILD;
      i++;
      while (i < e && P->t[i].type == CSS_T_WHITESPACE)
        i++;
    } else if (i < e &&
               (tok_delim(&P->t[i], '+') || tok_delim(&P->t[i], '~'))) {
      comb = tok_delim(&P->t[i], '+') ? CSS_COMB_ADJACENT : CSS_COMB_SIBLING;
      i++;
      while (i < e && P->t[i].type == CSS_T_WHITESPACE)
        i++;
    }
    if (comb == CSS_COMB_NONE || i >= e) {
      ps_report(P, OC_ERROR, &P->t[i < e ? i : e - 1], "invalid selector");
      return false;
    }
  }
  out->specificity = (ids > 255 ? 255 : ids) << 16 |
                     (cls > 255 ? 255 : cls) << 8 | (types > 255 ? 255 : types);
  return true;
}

/* A selector list in [b, e): every selector must parse, else the rule is
 * dropped as CSS says. */
static bool parse_selector_list(css_ps *P, size_t b, size_t e,
                                css_selector **sels, size_t *nsels) {
  size_t cap = 0;
  *sels = NULL;
  *nsels = 0;
  size_t i = b;
  while (i <= e) {
    size_t j = i;
    while (j < e && P->t[j].type != CSS_T_COMMA)
      j = skip_component(P, j, e);
    size_t sb = i, se = j;
    trim(P, &sb, &se);
    css_selector *s = vec_push(P->a, sels, nsels, &cap, sizeof *s);
    if (sb == se) {
      ps_report(P, OC_ERROR, &P->t[sb < P->n ? sb : P->n], "empty selector");
      return false;
    }
    if (!parse_selector_at(P, sb, se, s))
      return false;
    i = j + 1;
  }
  return true;
}

/* ---- rules ---------------------------------------------------------- */

static void parse_rules(css_ps *P, size_t i, size_t e, int depth);

static void parse_style_rule(css_ps *P, size_t *i, size_t e) {
  size_t b = *i, j = *i;
  while (j < e && P->t[j].type != CSS_T_LBRACE)
    j = skip_component(P, j, e);
  if (j >= e) {
    ps_report(P, OC_ERROR, &P->t[b], "expected '{' after the selector");
    *i = e;
    return;
  }
  size_t end = skip_component(P, j, e), ib, ie;
  *i = end;
  block_inside(P, j, end, &P->t[b], &ib, &ie);
  css_selector *sels;
  size_t nsels;
  size_t sb = b, se = j;
  trim(P, &sb, &se);
  if (!parse_selector_list(P, sb, se, &sels, &nsels))
    return;
  decl_list L = {0};
  parse_decls(P, &L, CTX_STYLE, ib, ie, NULL);
  css_rule *r = vec_push(P->a, &P->sheet->rules, &P->sheet->nrules,
                         &P->nrules_cap, sizeof *r);
  r->sels = sels;
  r->nsels = nsels;
  r->decls = L.d;
  r->ndecls = L.n;
  r->line = P->t[b].line;
  r->col = P->t[b].col;
}

/* @page [name] [:first|:left|:right|:blank]* in [b, e). */
static bool parse_page_selector(css_ps *P, size_t b, size_t e,
                                css_page_rule *pg) {
  trim(P, &b, &e);
  size_t i = b;
  if (i < e && P->t[i].type == CSS_T_IDENT)
    pg->name = P->t[i++].text;
  while (i < e) {
    if (P->t[i].type != CSS_T_COLON || i + 1 >= e ||
        P->t[i + 1].type != CSS_T_IDENT) {
      ps_report(P, OC_ERROR, &P->t[i], "invalid page selector");
      return false;
    }
    const char *ps = P->t[i + 1].text;
    unsigned bit = strcasecmp(ps, "first") == 0   ? CSS_PAGE_FIRST
                   : strcasecmp(ps, "left") == 0  ? CSS_PAGE_LEFT
                   : strcasecmp(ps, "right") == 0 ? CSS_PAGE_RIGHT
                   : strcasecmp(ps, "blank") == 0 ? CSS_PAGE_BLANK
                                                  : 0;
    if (!bit) {
      ps_report(P, OC_ERROR, &P->t[i], "unknown page selector ':%s'", ps);
      return false;
    }
    pg->pseudo |= bit;
    i += 2;
  }
  return true;
}

/* Whether a media query list names print (or all). Queries with features
 * are not evaluated: they do not count as print. */
static bool media_is_print(const css_ps *P, size_t b, size_t e) {
  size_t i = b;
  while (i < e) {
    size_t j = i;
    bool print = false, other = false;
    while (j < e && P->t[j].type != CSS_T_COMMA) {
      const css_token *t = &P->t[j];
      if (t->type == CSS_T_IDENT) {
        if (tok_is(t, CSS_T_IDENT, "print") || tok_is(t, CSS_T_IDENT, "all"))
          print = true;
        else if (!tok_is(t, CSS_T_IDENT, "only"))
          other = true;
      } else if (t->type != CSS_T_WHITESPACE) {
        other = true;
      }
      j = skip_component(P, j, e);
    }
    if (print && !other)
      return true;
    i = j + 1;
  }
  return false;
}

static void parse_at_rule(css_ps *P, size_t *i, size_t e, int depth) {
  const css_token *kw = &P->t[*i];
  size_t j = *i + 1;
  while (j < e && P->t[j].type != CSS_T_LBRACE &&
         P->t[j].type != CSS_T_SEMICOLON)
    j = skip_component(P, j, e);
  bool has_block = j < e && P->t[j].type == CSS_T_LBRACE;
  size_t end = has_block ? skip_component(P, j, e) : (j < e ? j + 1 : e);
  size_t pb = *i + 1, pe = j;
  *i = end;
  const char *name = kw->text;

  if (strcasecmp(name, "charset") == 0)
    return;
  if (strcasecmp(name, "import") == 0) {
    ps_report(P, OC_WARNING, kw, "unsupported at-rule '@import'");
    return;
  }
  if (!has_block) {
    ps_report(P, OC_ERROR, kw, "expected a block after '@%s'", name);
    return;
  }
  size_t ib, ie;
  block_inside(P, j, end, kw, &ib, &ie);
  if (strcasecmp(name, "media") == 0) {
    trim(P, &pb, &pe);
    if (pb == pe)
      ps_report(P, OC_ERROR, kw, "missing media type after '@media'");
    else if (media_is_print(P, pb, pe))
      parse_rules(P, ib, ie, depth + 1);
    return;
  }
  if (strcasecmp(name, "page") == 0) {
    css_page_rule pg = {0};
    if (!parse_page_selector(P, pb, pe, &pg))
      return;
    decl_list L = {0};
    parse_decls(P, &L, CTX_PAGE, ib, ie, &pg);
    pg.decls = L.d;
    pg.ndecls = L.n;
    pg.line = kw->line;
    pg.col = kw->col;
    *(css_page_rule *)vec_push(P->a, &P->sheet->pages, &P->sheet->npages,
                               &P->npages_cap, sizeof pg) = pg;
    return;
  }
  if (strcasecmp(name, "font-face") == 0) {
    decl_list L = {0};
    parse_decls(P, &L, CTX_FONT_FACE, ib, ie, NULL);
    css_font_face *f = vec_push(P->a, &P->sheet->fonts, &P->sheet->nfonts,
                                &P->nfonts_cap, sizeof *f);
    f->decls = L.d;
    f->ndecls = L.n;
    f->line = kw->line;
    f->col = kw->col;
    return;
  }
  ps_report(P, OC_WARNING, kw, "unsupported at-rule '@%s'", name);
}

static void parse_rules(css_ps *P, size_t i, size_t e, int depth) {
  while (i < e) {
    const css_token *t = &P->t[i];
    switch (t->type) {
    case CSS_T_WHITESPACE:
    case CSS_T_CDO:
    case CSS_T_CDC:
      i++;
      break;
    case CSS_T_AT_KEYWORD:
      if (depth > 0 && !tok_is(t, CSS_T_AT_KEYWORD, "page")) {
        /* Inside @media only style rules and @page are kept. */
        ps_report(P, OC_WARNING, t, "unsupported at-rule '@%s' in @media",
                  t->text);
        size_t j = i + 1;
        while (j < e && P->t[j].type != CSS_T_LBRACE &&
               P->t[j].type != CSS_T_SEMICOLON)
          j = skip_component(P, j, e);
        i = j < e && P->t[j].type == CSS_T_LBRACE ? skip_component(P, j, e)
                                                  : j + 1;
        break;
      }
      parse_at_rule(P, &i, e, depth);
      break;
    case CSS_T_RBRACE:
      ps_report(P, OC_ERROR, t, "unexpected '}'");
      i++;
      break;
    default:
      parse_style_rule(P, &i, e);
      break;
    }
  }
}

/* Lexes the next top-level item into the front of L's buffer (which may
 * hold the previous item's token of lookahead already), as parse_rules
 * takes it at depth 0 (a whitespace, a stray "}", a rule or an at-rule
 * with its block or ";"): returns its token count, 0 at the end. When the
 * item runs to the end of the sheet, the EOF token follows it. */
static size_t lex_block(css_lx *L, size_t i);

static size_t lex_item(css_lx *L) {
  if (!css_lx_more(L, 1))
    return 0;
  css_tok_type first = L->toks[0].type;
  if (first == CSS_T_WHITESPACE || first == CSS_T_CDO ||
      first == CSS_T_CDC || first == CSS_T_RBRACE)
    return 1;
  bool at = first == CSS_T_AT_KEYWORD;
  size_t i = at ? 1 : 0;
  for (;;) {
    if (!css_lx_more(L, i + 1))
      return i;
    css_tok_type t = L->toks[i].type;
    if (t == CSS_T_LBRACE)
      return lex_block(L, i);
    if (at && t == CSS_T_SEMICOLON)
      return i + 1;
    if (t == CSS_T_LBRACKET || t == CSS_T_LPAREN || t == CSS_T_FUNCTION)
      i = lex_block(L, i);
    else
      i++;
  }
}

/* skip_block over tokens lexed as it goes: just past the block opened at
 * toks[i], or the count at the end of the sheet. */
static size_t lex_block(css_lx *L, size_t i) {
  block_nest N = {0};
  for (;; i++) {
    if (!css_lx_more(L, i + 1))
      return i;
    if (nest_step(&N, L->toks[i].type))
      return i + 1;
  }
}

/* The declarations added since r0, p0 and f0 point into L's buffer, which
 * the next item reuses: their values move into the arena. */
static void keep_decls(css_ps *P, const css_lx *L, css_decl *d, size_t n) {
  for (size_t k = 0; k < n; k++) {
    uintptr_t v0 = (uintptr_t)d[k].value, b = (uintptr_t)L->toks;
    if (v0 < b || v0 >= b + L->n * sizeof *L->toks || !d[k].nvalue)
      continue;
    css_token *v = oc_arena_alloc(P->a, d[k].nvalue * sizeof *v);
    memcpy(v, d[k].value, d[k].nvalue * sizeof *v);
    d[k].value = v;
  }
}

static void keep_values(css_ps *P, const css_lx *L, size_t r0, size_t p0,
                        size_t f0) {
  css_stylesheet *sh = P->sheet;
  for (size_t i = r0; i < sh->nrules; i++)
    keep_decls(P, L, sh->rules[i].decls, sh->rules[i].ndecls);
  for (size_t i = p0; i < sh->npages; i++) {
    keep_decls(P, L, sh->pages[i].decls, sh->pages[i].ndecls);
    for (size_t b = 0; b < sh->pages[i].nboxes; b++)
      keep_decls(P, L, sh->pages[i].boxes[b].decls,
                 sh->pages[i].boxes[b].ndecls);
  }
  for (size_t i = f0; i < sh->nfonts; i++)
    keep_decls(P, L, sh->fonts[i].decls, sh->fonts[i].ndecls);
}

/* Counts what the parser and the tokenizer report, then passes it on. */
typedef struct counting_rep {
  const oc_reporter *next;
  css_stylesheet *sheet;
} counting_rep;

static void count_report(void *user, oc_severity sev, const char *file,
                         unsigned line, unsigned col, const char *message) {
  counting_rep *c = user;
  c->sheet->ndiags++;
  if (c->next && c->next->fn)
    c->next->fn(c->next->user, sev, file, line, col, message);
}

css_stylesheet *css_parse(oc_arena *a, const char *src, size_t len,
                          const char *file, css_origin origin,
                          const oc_reporter *rep) {
  css_stylesheet *sheet = oc_arena_calloc(a, 1, sizeof *sheet);
  sheet->arena = a;
  sheet->file = file;
  sheet->origin = origin;
  counting_rep cr = {rep, sheet};
  oc_reporter counted = {count_report, &cr};
  rep = &counted;
  css_ps P = {0};
  P.a = a;
  P.file = file;
  P.rep = rep;
  P.sheet = sheet;
  css_lx L;
  css_lx_init(&L, a, src, len, file, rep);
  /* The tokenizer's problems first, as when the whole sheet was tokenized
   * before parsing: one pass that only reports, then the tokens. */
  L.keep = false;
  css_lx_more(&L, SIZE_MAX);
  L.keep = true;
  L.rep = NULL;
  css_lx_rewind(&L);
  for (;;) {
    size_t n = lex_item(&L);
    if (n == 0)
      break;
    /* The parser may look at t[n] (an error at the end of an item names
     * where the next one starts): one token of lookahead, the EOF at the
     * end, which stays in the buffer for the next item. */
    css_lx_more(&L, n + 1);
    size_t r0 = sheet->nrules, p0 = sheet->npages, f0 = sheet->nfonts;
    P.t = L.toks;
    P.n = n;
    parse_rules(&P, 0, n, 0);
    keep_values(&P, &L, r0, p0, f0);
    memmove(L.toks, L.toks + n, (L.n - n) * sizeof *L.toks);
    L.n -= n;
  }
  css_lx_free(&L);
  return sheet;
}
