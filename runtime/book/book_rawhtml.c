/* Raw HTML made well-formed: see book_rawhtml.h. libxml2's HTML parser
 * reads a container's raw HTML with markers where the Markdown between
 * its pieces goes; the tree it builds is written back as XHTML, and the
 * output between two markers becomes the raw node they frame. */
#include "book_rawhtml.h"

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "oc_hash.h"
#include "oc_sb.h"

/* ---- what HTML has --------------------------------------------------- */

static int cmp_name(const void *k, const void *e) {
  return strcmp(k, *(const char *const *)e);
}

static bool in_list(const char *name, const char *const *list, size_t n) {
  return bsearch(name, list, n, sizeof *list, cmp_name) != NULL;
}
#define IN(name, list) in_list(name, list, sizeof list / sizeof list[0])

/* The elements of HTML that a book's text may hold (sorted). */
static const char *const known[] = {
    "a",       "abbr",    "address", "area",     "article",    "aside",
    "audio",   "b",       "bdi",     "bdo",      "blockquote", "br",
    "caption", "cite",    "code",    "col",      "colgroup",   "data",
    "dd",      "del",     "details", "dfn",      "div",        "dl",
    "dt",      "em",      "fieldset", "figcaption", "figure",  "footer",
    "h1",      "h2",      "h3",      "h4",       "h5",         "h6",
    "header",  "hgroup",  "hr",      "i",        "img",        "ins",
    "kbd",     "label",   "legend",  "li",       "main",       "map",
    "mark",    "math",    "menu",    "meter",    "nav",        "ol",
    "p",       "picture", "pre",     "progress", "q",          "rp",
    "rt",      "ruby",    "s",       "samp",     "search",     "section",
    "small",   "source",  "span",    "strong",   "sub",        "summary",
    "sup",     "svg",     "table",   "tbody",    "td",         "tfoot",
    "th",      "thead",   "time",    "tr",       "track",      "u",
    "ul",      "var",     "video",   "wbr"};

/* Removed with their content: scripts and what needs them, embedded
 * browsing contexts and plug-ins, form controls, what belongs in <head>. */
static const char *const dropped[] = {
    "applet", "base",     "button",  "canvas", "datalist", "dialog",
    "embed",  "frame",    "frameset", "head",  "iframe",   "input",
    "keygen", "link",     "meta",    "noembed", "noframes", "noscript",
    "object", "optgroup", "option",  "param",  "portal",   "script",
    "select", "style",    "template", "textarea", "title"};

/* Their tags go, their content stays: obsolete presentational elements,
 * a form, and the document's own elements. */
static const char *const unwrapped[] = {
    "acronym", "basefont", "big",  "blink",  "body",   "center", "dir",
    "font",    "form",     "html", "marquee", "nobr",  "strike", "tt"};

static const char *const voids[] = {"area",  "br",   "col",   "embed",
                                    "hr",    "img",  "input", "link",
                                    "meta",  "source", "track", "wbr"};

/* End tags HTML lets a writer leave out. */
static const char *const optional_end[] = {
    "caption", "colgroup", "dd", "dt", "li",    "p",    "rp",
    "rt",      "tbody",    "td", "tfoot", "th", "thead", "tr"};

/* Attributes holding a URL. */
static const char *const url_attrs[] = {"action", "background", "cite",
                                        "data",   "formaction", "href",
                                        "longdesc", "poster", "src",
                                        "xlink:href"};

/* ---- what SVG and MathML have ---------------------------------------- */

/* Allow-lists, as DOMPurify keeps them: what is not listed goes (with a
 * warning), so a name no list foresaw cannot carry a script. libxml2's
 * HTML parser gives names in lower case; the lists give them back as SVG
 * spells them (viewBox, linearGradient), which XHTML needs. */
static int cmp_nocase(const void *k, const void *e) {
  return strcasecmp(k, *(const char *const *)e);
}

/* The name as listed, or NULL. */
static const char *listed(const char *name, const char *const *list, size_t n) {
  const char *const *e = bsearch(name, list, n, sizeof *list, cmp_nocase);
  return e ? *e : NULL;
}
#define LISTED(name, list) listed(name, list, sizeof list / sizeof list[0])

/* clang-format off */
/* SVG's elements a book's drawings may use (sorted without case; as SVG
 * spells them). */
static const char *const svg_elements[] = {
    "a", "animate", "animateMotion", "animateTransform", "circle", "clipPath",
    "defs", "desc", "ellipse", "feBlend", "feColorMatrix",
    "feComponentTransfer", "feComposite", "feConvolveMatrix",
    "feDiffuseLighting", "feDisplacementMap", "feDistantLight",
    "feDropShadow", "feFlood", "feFuncA", "feFuncB", "feFuncG", "feFuncR",
    "feGaussianBlur", "feImage", "feMerge", "feMergeNode", "feMorphology",
    "feOffset", "fePointLight", "feSpecularLighting", "feSpotLight", "feTile",
    "feTurbulence", "filter", "foreignObject", "g", "image", "line",
    "linearGradient", "marker", "mask", "metadata", "mpath", "path",
    "pattern", "polygon", "polyline", "radialGradient", "rect", "set", "stop",
    "svg", "switch", "symbol", "text", "textPath", "title", "tspan", "use",
    "view"};

/* Their attributes (the same order), beside aria-* and data-*. */
static const char *const svg_attrs[] = {
    "accumulate", "additive", "alignment-baseline", "amplitude",
    "attributeName", "attributeType", "azimuth", "baseFrequency",
    "baseline-shift", "begin", "bias", "by", "calcMode", "class", "clip",
    "clip-path", "clip-rule", "clipPathUnits", "color", "color-interpolation",
    "color-interpolation-filters", "cx", "cy", "d", "diffuseConstant",
    "direction", "display", "divisor", "dominant-baseline", "dur", "dx", "dy",
    "edgeMode", "elevation", "end", "exponent", "fill", "fill-opacity",
    "fill-rule", "filter", "filterUnits", "flood-color", "flood-opacity",
    "font-family", "font-size", "font-size-adjust", "font-stretch",
    "font-style", "font-variant", "font-weight", "fr", "from", "fx", "fy",
    "gradientTransform", "gradientUnits", "height", "href", "id",
    "image-rendering", "in", "in2", "intercept", "isolation", "k1", "k2",
    "k3", "k4", "kernelMatrix", "kernelUnitLength", "keyPoints", "keySplines",
    "keyTimes", "lang", "lengthAdjust", "letter-spacing", "lighting-color",
    "limitingConeAngle", "marker-end", "marker-mid", "marker-start",
    "markerHeight", "markerUnits", "markerWidth", "mask", "mask-type",
    "maskContentUnits", "maskUnits", "max", "method", "min", "mix-blend-mode",
    "mode", "numOctaves", "offset", "opacity", "operator", "order", "orient",
    "overflow", "paint-order", "path", "pathLength", "patternContentUnits",
    "patternTransform", "patternUnits", "points", "pointsAtX", "pointsAtY",
    "pointsAtZ", "preserveAlpha", "preserveAspectRatio", "primitiveUnits",
    "r", "radius", "refX", "refY", "repeatCount", "repeatDur",
    "requiredExtensions", "restart", "result", "role", "rotate", "rx", "ry",
    "scale", "seed", "shape-rendering", "side", "slope", "spacing",
    "specularConstant", "specularExponent", "spreadMethod", "startOffset",
    "stdDeviation", "stitchTiles", "stop-color", "stop-opacity", "stroke",
    "stroke-dasharray", "stroke-dashoffset", "stroke-linecap",
    "stroke-linejoin", "stroke-miterlimit", "stroke-opacity", "stroke-width",
    "style", "surfaceScale", "systemLanguage", "tabindex", "tableValues",
    "target", "targetX", "targetY", "text-anchor", "text-decoration",
    "text-rendering", "textLength", "to", "transform", "transform-origin",
    "type", "unicode-bidi", "values", "vector-effect", "version", "viewBox",
    "visibility", "width", "word-spacing", "writing-mode", "x", "x1", "x2",
    "xChannelSelector", "xlink:href", "xml:lang", "xml:space", "y", "y1",
    "y2", "yChannelSelector", "z"};

/* MathML's elements (MathML Core's, and mfenced, semantics and annotation). */
static const char *const math_elements[] = {
    "annotation", "maction", "math", "menclose", "merror", "mfenced", "mfrac",
    "mi", "mlabeledtr", "mmultiscripts", "mn", "mo", "mover", "mpadded",
    "mphantom", "mprescripts", "mroot", "mrow", "ms", "mspace", "msqrt",
    "mstyle", "msub", "msubsup", "msup", "mtable", "mtd", "mtext", "mtr",
    "munder", "munderover", "none", "semantics"};

/* Their attributes, beside aria-* and data-*. */
static const char *const math_attrs[] = {
    "accent", "accentunder", "actiontype", "align", "alttext", "arg",
    "bevelled", "class", "close", "columnalign", "columnlines",
    "columnspacing", "columnspan", "denomalign", "depth", "dir", "display",
    "displaystyle", "encoding", "equalcolumns", "equalrows", "fence", "form",
    "frame", "framespacing", "height", "id", "intent", "lang", "largeop",
    "linethickness", "lquote", "lspace", "mathbackground", "mathcolor",
    "mathsize", "mathvariant", "maxsize", "minsize", "movablelimits",
    "notation", "numalign", "open", "role", "rowalign", "rowlines",
    "rowspacing", "rowspan", "rquote", "rspace", "scriptlevel",
    "scriptminsize", "scriptsizemultiplier", "selection", "separator",
    "separators", "stretchy", "style", "subscriptshift", "superscriptshift",
    "symmetric", "tabindex", "voffset", "width", "xml:lang", "xml:space"};
/* clang-format on */

bool bk_rawhtml_is_local(const char *url) {
  if (!*url || (url[0] == '/' && url[1] == '/'))
    return false;
  size_t i = 0;
  while ((url[i] >= 'a' && url[i] <= 'z') || (url[i] >= 'A' && url[i] <= 'Z') ||
         (i && ((url[i] >= '0' && url[i] <= '9') || url[i] == '+' ||
                url[i] == '-' || url[i] == '.')))
    i++;
  /* "c:/…" is a drive, not a scheme: local, for the caller to refuse. */
  return !(i >= 2 && url[i] == ':');
}

/* ---- one container --------------------------------------------------- */

#define MARK "octavo-m-"
#define RAW_MAX_DEPTH 64
#define ROOT "octavo-root"

/* What enter() made of an element (its _private). M_FOREIGN is set before,
 * by clean_tree(): an SVG or MathML element written as it is; so is
 * M_IN_FOREIGN_OBJECT, an HTML element in a foreignObject that is not
 * written as one (unwrapped, printed as text), whose children stand in
 * the foreignObject (enter() replaces it). */
enum mode {
  M_ELEM = 1,
  M_TEXT,
  M_UNWRAP,
  M_SKIP,
  M_MARK,
  M_FOREIGN,
  M_IN_FOREIGN_OBJECT
};

typedef struct kid {
  cmark_node *n;
  bool raw;
  bool seen;        /* its marker is in the output */
  unsigned sline;   /* stream line where its literal starts */
  const char *text; /* the literal as fed (raw kids) */
  size_t seg;       /* where its part of the output starts */
  bool changed;     /* a mistake was corrected in its part */
} kid;

typedef struct cl {
  const bk_rawhtml_ctx *c;
  oc_arena *a;
  kid *kids;
  size_t nkids;
  size_t *raw; /* indexes of the raw kids */
  size_t nraw;
  const char **ends; /* names of the stream's end tags, sorted */
  size_t nends;
  const char *stream;
  oc_sb out;
  long last_mark;
  bool changed;
  bool emitting;
  int depth;        /* elements open in the output */
  bool deep_warned; /* one warning a container for deep nesting */
  xmlNodePtr endm; /* the end marker, when the output has it */
  size_t end_seg;  /* where the output after it starts */
  size_t nerrs, cerrs;
  struct perr {
    int line;
    char msg[160];
  } * errs;
  /* per name of no_flow[], the first stream line where an element was
   * closed before a Markdown block (close_before_blocks), 0 for none */
  int *shut;
} cl;

/* Notes that the part being written (the last marker's) was corrected. */
static void mark_changed(cl *s) {
  s->changed = true;
  if (s->last_mark >= 0 && (size_t)s->last_mark < s->nkids)
    s->kids[s->last_mark].changed = true;
}

/* The kid whose literal holds stream line `line` (NULL: none). */
static kid *kid_at(cl *s, unsigned line) {
  /* raw kids' lines grow with their index: the last that starts at or
   * before line */
  size_t lo = 0, hi = s->nraw;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (s->kids[s->raw[mid]].sline <= line)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo ? &s->kids[s->raw[lo - 1]] : NULL;
}

/* The kid whose tag at stream line `line` is being written: while
 * writing, the last marker's (several kids can share a line of the
 * stream). */
static kid *kid_of_tag(cl *s, unsigned line) {
  if (s->emitting && s->last_mark >= 0 && (size_t)s->last_mark < s->nkids &&
      s->kids[s->last_mark].raw && s->kids[s->last_mark].sline <= line) {
    unsigned last = s->kids[s->last_mark].sline;
    for (const char *p = s->kids[s->last_mark].text; *p; p++)
      last += *p == '\n';
    if (line <= last)
      return &s->kids[s->last_mark];
  }
  return kid_at(s, line);
}

/* Reports at stream line `line`, where needle (a tag's start) is. */
static void warn_at(cl *s, unsigned line, const char *needle, const char *fmt,
                    ...) __attribute__((format(printf, 4, 5)));
static void warn_at(cl *s, unsigned line, const char *needle, const char *fmt,
                    ...) {
  kid *k = kid_of_tag(s, line);
  unsigned fline = 0, col = 0;
  if (k) {
    unsigned rel = line - k->sline;
    const char *p = k->text;
    for (unsigned i = 0; i < rel && p; i++)
      if ((p = strchr(p, '\n')))
        p++;
    unsigned base = rel == 0 ? (unsigned)cmark_node_get_start_column(k->n) : 1;
    col = base ? base : 1;
    if (p && needle) {
      size_t nl = strlen(needle), ll = strcspn(p, "\n");
      for (size_t i = 0; i + nl <= ll; i++)
        if (!strncasecmp(p + i, needle, nl)) {
          col = base + (unsigned)i;
          break;
        }
    }
    fline = s->c->line_of(s->c->user, k->n) + rel;
  }
  va_list ap;
  va_start(ap, fmt);
  oc_vreport(s->c->report, OC_WARNING, s->c->file, fline, col, fmt, ap);
  va_end(ap);
}

static void add_esc(oc_sb *b, const char *s) {
  const char *from = s;
  for (; *s; s++) {
    const char *rep = *s == '&'   ? "&amp;"
                      : *s == '<' ? "&lt;"
                      : *s == '>' ? "&gt;"
                      : *s == '"' ? "&quot;"
                                  : NULL;
    if (!rep)
      continue;
    oc_sb_add(b, from, (size_t)(s - from));
    oc_sb_adds(b, rep);
    from = s + 1;
  }
  oc_sb_adds(b, from);
}

static const char *attr_text(xmlAttrPtr at) {
  return at->children && at->children->content
             ? (const char *)at->children->content
             : "";
}

static const char *get_attr(xmlNodePtr n, const char *name) {
  for (xmlAttrPtr at = n->properties; at; at = at->next)
    if (!strcmp((const char *)at->name, name))
      return attr_text(at);
  return NULL;
}

/* URL schemes a book's links may use; any other (javascript:, data:,
 * file:, blob:…) is refused. */
static const char *const schemes[] = {"ftp", "geo",  "http",   "https",
                                      "irc", "ircs", "mailto", "news",
                                      "sms", "tel",  "urn",    "xmpp"};

/* Whether c is what a browser drops from a URL before reading its scheme:
 * tabs and newlines anywhere, other controls and spaces at the ends.
 * Skipping them anywhere is stricter: it can only find a scheme where a
 * browser sees none. */
static bool url_blank(char c) { return (unsigned char)c <= ' '; }

/* A URL's scheme in lower case ("" when it has none), as a browser reads
 * it once entities are decoded (libxml2 has). */
static const char *url_scheme(const char *v, char buf[24]) {
  size_t n = 0;
  for (; *v; v++) {
    if (url_blank(*v))
      continue;
    char c = *v;
    if (c == ':')
      break;
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!alpha &&
        !(n && ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.')))
      return "";
    if (n + 1 < 24)
      buf[n++] = (char)(c | 0x20);
    else
      return "?"; /* longer than any scheme allowed */
  }
  if (!*v || !n)
    return "";
  buf[n] = 0;
  return buf;
}

/* A URL no edition can use: a script, data: or file: URL, another scheme
 * than a link's, an absolute path. NULL: usable. */
static const char *refused_url(oc_arena *a, const char *v) {
  char buf[24];
  const char *sc = url_scheme(v, buf);
  if (!strcmp(sc, "javascript") || !strcmp(sc, "vbscript") ||
      !strcmp(sc, "livescript"))
    return "a script URL";
  if (!strcmp(sc, "file") || !strcmp(sc, "data"))
    return oc_arena_printf(a, "a %s: URL", sc);
  if (sc[0] && !IN(sc, schemes))
    return oc_arena_printf(a, "a URL of the scheme '%.20s'", sc);
  while (*v && url_blank(*v)) /* url_blank('\0') too: stop at the end */
    v++;
  if (!sc[0] && ((v[0] == '/' && v[1] != '/') || v[0] == '\\'))
    return "an absolute path";
  return NULL;
}

const char *bk_rawhtml_refused_url(oc_arena *a, const char *url) {
  return refused_url(a, url);
}

/* How a refused value is shown: at most 60 bytes (a data: URL can be
 * long), control characters as character references. */
static const char *shown(oc_arena *a, const char *v) {
  oc_sb b;
  oc_sb_init(&b, a, 80);
  size_t i = 0;
  /* past 60 only to end the character */
  for (; v[i] && (i < 60 || ((unsigned char)v[i] & 0xC0) == 0x80); i++) {
    if ((unsigned char)v[i] < ' ') {
      char ref[8];
      snprintf(ref, sizeof ref, "&#%d;", v[i]);
      oc_sb_adds(&b, ref);
    } else
      oc_sb_add(&b, v + i, 1);
  }
  if (v[i])
    oc_sb_adds(&b, "\xe2\x80\xa6");
  return oc_sb_cstr(&b);
}

/* The attributes of an element, written as name="value"; the refused ones
 * left out (reported once each). */
static void add_attrs(cl *s, xmlNodePtr n, oc_sb *b, bool report) {
  for (xmlAttrPtr at = n->properties; at; at = at->next) {
    const char *name = (const char *)at->name;
    const char *v = attr_text(at);
    if (xmlValidateName(at->name, 0) != 0) {
      mark_changed(s);
      continue;
    }
    if (report && !strncasecmp(name, "on", 2)) {
      warn_at(s, (unsigned)n->line, name,
              "the event attribute '%s' of <%s> is removed: a book's pages "
              "run no scripts",
              name, n->name);
      mark_changed(s);
      continue;
    }
    const char *why = IN(name, url_attrs) ? refused_url(s->a, v) : NULL;
    if (report && why) {
      warn_at(s, (unsigned)n->line, name,
              "%s='%s' of <%s> is removed: %s cannot be part of a book", name,
              shown(s->a, v), n->name, why);
      mark_changed(s);
      continue;
    }
    oc_sb_adds(b, " ");
    oc_sb_adds(b, name);
    oc_sb_adds(b, "=\"");
    add_esc(b, v);
    oc_sb_adds(b, "\"");
  }
}

/* Whether the stream has an end tag </name> (an unknown element printed
 * as text gets its end tag back only when the writer wrote one). */
static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Whether the stream has an end tag </name> (an unknown element printed
 * as text gets its end tag back only when the writer wrote one). The
 * names are gathered once, lower case. */
static bool has_end_tag(cl *s, const char *name) {
  if (!s->ends) {
    size_t cap = 0;
    s->ends = oc_arena_grow_array(s->a, NULL, 0, &cap, 1, sizeof *s->ends);
    for (const char *p = s->stream; (p = strstr(p, "</")); p += 2) {
      size_t n = 0;
      while (p[2 + n] && p[2 + n] != '>' && p[2 + n] != ' ' &&
             p[2 + n] != '<')
        n++;
      char *nm = oc_arena_strndup(s->a, p + 2, n);
      for (char *c = nm; *c; c++)
        if (*c >= 'A' && *c <= 'Z')
          *c = (char)(*c - 'A' + 'a');
      s->ends = oc_arena_grow_array(s->a, s->ends, s->nends, &cap,
                                    s->nends + 1, sizeof *s->ends);
      s->ends[s->nends++] = nm;
    }
    qsort(s->ends, s->nends, sizeof *s->ends, cmp_str);
  }
  return bsearch(&name, s->ends, s->nends, sizeof *s->ends, cmp_str) != NULL;
}

/* Writes an element's start (or what stands for it); returns whether to
 * go into its children. Its mode is kept in _private for enter/leave. */
static bool enter(cl *s, xmlNodePtr n) {
  oc_sb *b = &s->out;
  if (n->type == XML_TEXT_NODE) {
    add_esc(b, (const char *)n->content);
    return false;
  }
  if (n->type == XML_COMMENT_NODE) {
    const char *t = (const char *)n->content;
    size_t tl = strlen(t);
    /* XML forbids "--" inside a comment and "-" at its end */
    if (strstr(t, "--") || (tl && t[tl - 1] == '-')) {
      mark_changed(s);
      return false;
    }
    oc_sb_adds(b, "<!--");
    oc_sb_adds(b, t);
    oc_sb_adds(b, "-->");
    return false;
  }
  if (n->type != XML_ELEMENT_NODE) {
    mark_changed(s); /* CDATA, processing instructions, entities */
    return false;
  }
  const char *name = (const char *)n->name;
  if (!strncmp(name, MARK, strlen(MARK))) {
    n->_private = (void *)(intptr_t)M_MARK;
    long i = strtol(name + strlen(MARK), NULL, 10);
    if (i > s->last_mark && (size_t)i <= s->nkids) {
      s->last_mark = i;
      if ((size_t)i < s->nkids) {
        s->kids[i].seen = true;
        s->kids[i].seg = b->len;
      } else {
        s->endm = n;
        s->end_seg = b->len;
      }
    }
    return false;
  }
  unsigned line = (unsigned)n->line;
  char needle[80];
  snprintf(needle, sizeof needle, "<%s", name);
  if ((intptr_t)n->_private == M_FOREIGN) {
    s->depth++;
    oc_sb_adds(b, "<");
    oc_sb_adds(b, name);
    add_attrs(s, n, b, false);
    oc_sb_adds(b, n->children ? ">" : " />");
    return true;
  }
  if (IN(name, dropped)) {
    n->_private = (void *)(intptr_t)M_SKIP;
    warn_at(s, line, needle,
            "<%s> is removed with its content: a book's pages may not hold "
            "it (an EPUB reader would refuse the page)",
            name);
    mark_changed(s);
    return false;
  }
  if (IN(name, unwrapped)) {
    n->_private = (void *)(intptr_t)M_UNWRAP;
    warn_at(s, line, needle,
            "<%s> is not an element of today's HTML: its tags are removed, "
            "its content kept",
            name);
    mark_changed(s);
    return true;
  }
  if (!IN(name, known)) {
    n->_private = (void *)(intptr_t)M_TEXT;
    warn_at(s, line, needle,
            "'<%s>' is not an HTML element: it is printed as text (write "
            "&lt; for a '<' that does not start a tag)",
            name);
    mark_changed(s);
    oc_sb_adds(b, "&lt;");
    oc_sb_adds(b, name);
    oc_sb tmp;
    oc_sb_init(&tmp, s->a, 64);
    add_attrs(s, n, &tmp, false);
    add_esc(b, oc_sb_cstr(&tmp));
    oc_sb_adds(b, "&gt;");
    return true;
  }
  if (!strcmp(name, "img")) {
    const char *src = get_attr(n, "src");
    const char *why = src ? refused_url(s->a, src) : NULL;
    bool bad = !src || !src[0] || why;
    if (why)
      warn_at(s, line, needle,
              "the image '%s' is %s, which cannot be part of a book: its "
              "alternative text stands in",
              shown(s->a, src), why);
    else if (bad)
      warn_at(s, line, needle,
              "<img> has no src: its alternative text stands in");
    else if (bk_rawhtml_is_local(src) && s->c->image) {
      /* the hook reports at the image's line */
      kid *k = kid_of_tag(s, line);
      unsigned fline =
          k ? s->c->line_of(s->c->user, k->n) + line - k->sline : 0;
      unsigned fcol =
          k && line == k->sline ? (unsigned)cmark_node_get_start_column(k->n)
                                : 1;
      const char *url = NULL;
      bad = !s->c->image(s->c->user, src, fline, fcol ? fcol : 1, &url);
      if (!bad && url) {
        xmlSetProp(n, BAD_CAST "src", BAD_CAST url);
        mark_changed(s);
      }
    }
    if (bad) {
      n->_private = (void *)(intptr_t)M_SKIP;
      const char *alt = get_attr(n, "alt");
      add_esc(b, alt ? alt : "");
      mark_changed(s);
      return false;
    }
  }
  if (s->depth >= RAW_MAX_DEPTH && !IN(name, voids)) {
    /* what readers and libxml2 (256 levels) nest, with the Markdown's
       own nesting and the theme's around it */
    if (!s->deep_warned)
      warn_at(s, line, needle,
              "HTML elements nested more than %d deep: the tags of the "
              "deeper ones are left out, their content kept",
              RAW_MAX_DEPTH);
    s->deep_warned = true;
    mark_changed(s);
    n->_private = (void *)(intptr_t)M_UNWRAP;
    return true;
  }
  s->depth++;
  n->_private = (void *)(intptr_t)M_ELEM;
  oc_sb_adds(b, "<");
  oc_sb_adds(b, name);
  add_attrs(s, n, b, true);
  if (IN(name, voids)) {
    s->depth--;
    oc_sb_adds(b, " />");
    return false;
  }
  oc_sb_adds(b, ">");
  return true;
}

static void leave(cl *s, xmlNodePtr n) {
  if (n->type != XML_ELEMENT_NODE)
    return;
  intptr_t mode = (intptr_t)n->_private;
  const char *name = (const char *)n->name;
  if (mode == M_FOREIGN) {
    s->depth--;
    if (!n->children)
      return; /* written as <x /> */
    oc_sb_adds(&s->out, "</");
    oc_sb_adds(&s->out, name);
    oc_sb_adds(&s->out, ">");
  } else if (mode == M_ELEM) {
    if (IN(name, voids))
      return;
    s->depth--;
    oc_sb_adds(&s->out, "</");
    oc_sb_adds(&s->out, name);
    oc_sb_adds(&s->out, ">");
  } else if (mode == M_TEXT && has_end_tag(s, name)) {
    oc_sb_adds(&s->out, "&lt;/");
    oc_sb_adds(&s->out, name);
    oc_sb_adds(&s->out, "&gt;");
  }
}

/* Writes the tree under root, without recursion (raw HTML may nest
 * deeply). */
static void emit(cl *s, xmlNodePtr root) {
  xmlNodePtr n = root->children;
  while (n) {
    if (enter(s, n) && n->children) {
      n = n->children;
      continue;
    }
    intptr_t mode = (intptr_t)n->_private;
    if (n->type == XML_ELEMENT_NODE &&
        (mode == M_ELEM || mode == M_TEXT || mode == M_FOREIGN))
      leave(s, n);
    while (n && !n->next) {
      n = n->parent;
      if (!n || n == root)
        return;
      leave(s, n);
    }
    n = n->next;
  }
}

/* ---- SVG, MathML, styles and srcset: clean_tree() --------------------- */

/* Before the tree is written, one walk over it: SVG and MathML kept to
 * their allow-lists and put in their namespaces (their elements marked
 * M_FOREIGN, for enter() to write as they are), foreignObject's content
 * cleaned as HTML, and on HTML's own elements what enter() does not look
 * at: style's url()s, srcset, namespace declarations and prefixes. */

#define NS_SVG "http://www.w3.org/2000/svg"
#define NS_MATH "http://www.w3.org/1998/Math/MathML"
#define NS_XLINK "http://www.w3.org/1999/xlink"
#define NS_XHTML "http://www.w3.org/1999/xhtml"

/* What a node's children are: where the tree is. */
enum ctx { C_HTML, C_SVG, C_MATH, C_FOREIGN_OBJECT };

/* CSS as a browser reads it, for looking only: comments out, escapes
 * decoded (u\72l( is url(), ASCII in lower case. */
static const char *css_plain(oc_arena *a, const char *v, size_t len) {
  oc_sb b;
  oc_sb_init(&b, a, len + 1);
  for (size_t i = 0; i < len;) {
    if (v[i] == '/' && i + 1 < len && v[i + 1] == '*') {
      const char *e = strstr(v + i + 2, "*/");
      i = e && (size_t)(e - v) < len ? (size_t)(e - v) + 2 : len;
      continue;
    }
    unsigned c = (unsigned char)v[i++];
    if (c == '\\' && i < len) {
      size_t h = 0;
      unsigned cp = 0;
      while (h < 6 && i < len && strchr("0123456789abcdefABCDEF", v[i]) &&
             v[i]) {
        char d = v[i++];
        cp = cp * 16 + (unsigned)(d <= '9' ? d - '0' : (d | 0x20) - 'a' + 10);
        h++;
      }
      if (h) {
        if (i < len && (v[i] == ' ' || v[i] == '\t' || v[i] == '\n'))
          i++;
        c = cp < 0x80 ? cp : '?';
      } else
        c = (unsigned char)v[i++];
    }
    char ch = (char)(c >= 'A' && c <= 'Z' ? c | 0x20 : c);
    oc_sb_add(&b, &ch, 1);
  }
  return oc_sb_cstr(&b);
}

/* Whether CSS text fetches something other than an element of its page
 * (url(#id)): an image, a font, a script of old browsers. */
static bool css_fetches(oc_arena *a, const char *v, size_t len) {
  const char *t = css_plain(a, v, len);
  static const char *const fetchers[] = {"image(", "image-set(", "src(",
                                         "expression(", "-moz-binding"};
  for (size_t i = 0; i < sizeof fetchers / sizeof *fetchers; i++)
    if (strstr(t, fetchers[i]))
      return true;
  for (const char *p = t; (p = strstr(p, "url(")); p += 4) {
    const char *q = p + 4;
    while (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\'' || *q == '"')
      q++;
    if (*q != '#')
      return true;
  }
  return false;
}

/* A style attribute without the declarations that fetch (one warning
 * each); NULL when none is left. */
static const char *clean_style(cl *s, xmlNodePtr n, const char *v) {
  oc_sb keep;
  oc_sb_init(&keep, s->a, strlen(v) + 1);
  const char *d = v;
  char quote = 0;
  int depth = 0;
  for (const char *p = v;; p++) {
    if (*p && quote) {
      if (*p == '\\' && p[1])
        p++;
      else if (*p == quote)
        quote = 0;
      continue;
    }
    if (*p == '\\' && p[1]) {
      p++;
      continue;
    }
    if (*p == '"' || *p == '\'')
      quote = *p;
    depth += *p == '(' ? 1 : *p == ')' && depth ? -1 : 0;
    if (*p && (*p != ';' || depth))
      continue;
    size_t len = (size_t)(p - d) + (*p == ';');
    if (css_fetches(s->a, d, len)) {
      const char *t = oc_arena_strndup(s->a, d, (size_t)(p - d));
      while (*t == ' ' || *t == '\t' || *t == '\n')
        t++;
      warn_at(s, (unsigned)n->line, "style",
              "the style '%s' of <%s> is removed: a style attribute's "
              "url() can name only an element of its page (url(#id)); "
              "images go in the text as images",
              shown(s->a, t), n->name);
      mark_changed(s);
    } else
      oc_sb_add(&keep, d, len);
    if (!*p)
      break;
    d = p + 1;
  }
  const char *k = oc_sb_cstr(&keep);
  return k[strspn(k, " \t\r\n;")] ? k : NULL;
}

/* Removes attribute at, reporting why (fmt gets the attribute's name and
 * the element's). */
static void drop_attr(cl *s, xmlNodePtr n, xmlAttrPtr at, const char *why) {
  if (why)
    warn_at(s, (unsigned)n->line, (const char *)at->name,
            "the attribute '%s' of <%s> is removed: %s", at->name, n->name,
            why);
  mark_changed(s);
  xmlRemoveProp(at);
}

/* A namespace declaration: written by clean_tree() where one is needed,
 * never as the text had it (xmlns="…xhtml" on an <svg> would make its
 * drawing HTML in an EPUB). */
static bool is_xmlns(const char *name) {
  return !strcmp(name, "xmlns") || !strncmp(name, "xmlns:", 6);
}

/* Puts name="value" first among n's attributes. */
static void declare(xmlNodePtr n, const char *name, const char *value) {
  xmlAttrPtr at = xmlNewProp(n, BAD_CAST name, BAD_CAST value);
  if (!at || at == n->properties)
    return;
  at->prev->next = NULL;
  at->prev = NULL;
  at->next = n->properties;
  n->properties->prev = at;
  n->properties = at;
}

/* The style and srcset of an HTML element, and its namespace tricks. */
static void clean_html_attrs(cl *s, xmlNodePtr n) {
  for (xmlAttrPtr at = n->properties, next; at; at = next) {
    next = at->next;
    const char *name = (const char *)at->name, *v = attr_text(at);
    if (is_xmlns(name))
      drop_attr(s, n, at, NULL);
    else if (strchr(name, ':') && strcmp(name, "xml:lang") &&
             strcmp(name, "xml:space") && strncmp(name, "epub:", 5))
      /* (xml:base too: it would change where the page's links lead) */
      drop_attr(s, n, at,
                "its prefix is not a namespace the book's pages declare");
    else if (!strcmp(name, "srcset")) {
      warn_at(s, (unsigned)n->line, name,
              "srcset='%s' of <%s> is removed: the editions hold the "
              "images of src only",
              shown(s->a, v), n->name);
      drop_attr(s, n, at, NULL);
      xmlAttrPtr sizes = xmlHasProp(n, BAD_CAST "sizes");
      if (sizes) {
        if (next == sizes)
          next = sizes->next;
        xmlRemoveProp(sizes);
      }
    } else if (!strcmp(name, "style")) {
      const char *k = clean_style(s, n, v);
      if (!k)
        xmlRemoveProp(at);
      else if (strcmp(k, v))
        xmlSetProp(n, at->name, BAD_CAST k);
    }
  }
}

/* The animation elements, which can set another element's attribute. */
static bool animates(const char *name) {
  return !strcmp(name, "set") || !strncmp(name, "animate", 7);
}

/* Elements that are nothing without their reference. */
static const char *const referers[] = {"feImage", "image", "use"};

/* An SVG or MathML element's attributes kept to its list; false when the
 * element itself goes (reported): one of referers whose reference does. */
static bool clean_foreign_attrs(cl *s, xmlNodePtr n, bool svg) {
  const char *el = (const char *)n->name;
  for (xmlAttrPtr at = n->properties, next; at; at = next) {
    next = at->next;
    const char *name = (const char *)at->name, *v = attr_text(at);
    const char *as = svg ? LISTED(name, svg_attrs) : LISTED(name, math_attrs);
    if (!strncmp(name, "aria-", 5) || !strncmp(name, "data-", 5))
      as = name;
    if (is_xmlns(name)) {
      drop_attr(s, n, at, NULL);
      continue;
    }
    if (!strncasecmp(name, "on", 2)) {
      warn_at(s, (unsigned)n->line, name,
              "the event attribute '%s' of <%s> is removed: a book's pages "
              "run no scripts",
              name, el);
      drop_attr(s, n, at, NULL);
      continue;
    }
    if (!as) {
      drop_attr(s, n, at,
                oc_arena_printf(s->a,
                                "it is not one of the %s attributes a "
                                "book keeps",
                                svg ? "SVG" : "MathML"));
      continue;
    }
    const char *why = NULL;
    if (!strcmp(as, "href") || !strcmp(as, "xlink:href")) {
      /* a link goes where an <a>'s can; anything else refers to a part
       * of the drawing, which must be on the page */
      const char *t = v + strspn(v, " \t\r\n\f");
      why = !strcmp(el, "a") ? refused_url(s->a, v)
            : t[0] != '#'    ? "a drawing in the text can refer only to "
                               "elements of its page (#id)"
                             : NULL;
      if (why && !strcmp(el, "a"))
        why = oc_arena_printf(s->a, "%s cannot be part of a book", why);
    } else if (strcmp(as, "style") && css_fetches(s->a, v, strlen(v)))
      why = "a drawing in the text can refer only to elements of its page "
            "(url(#id))";
    if (why && svg && IN(el, referers)) {
      char needle[80];
      snprintf(needle, sizeof needle, "<%s", el);
      warn_at(s, (unsigned)n->line, needle, "<%s %s='%s'> is removed: %s", el,
              name, shown(s->a, v), why);
      mark_changed(s);
      return false;
    }
    if (why) {
      warn_at(s, (unsigned)n->line, name, "%s='%s' of <%s> is removed: %s",
              name, shown(s->a, v), el, why);
      drop_attr(s, n, at, NULL);
      continue;
    }
    if (!strcmp(as, "style")) {
      const char *k = clean_style(s, n, v);
      if (!k) {
        xmlRemoveProp(at);
        continue;
      }
      if (strcmp(k, v))
        xmlSetProp(n, at->name, BAD_CAST k);
    }
    if (strcmp(name, as))
      xmlNodeSetName((xmlNodePtr)at, BAD_CAST as);
    if (!strncmp(as, "xlink:", 6))
      for (xmlNodePtr p = n; p && p->type == XML_ELEMENT_NODE; p = p->parent)
        if (!strcmp((const char *)p->name, "svg")) {
          if (!xmlHasProp(p, BAD_CAST "xmlns:xlink"))
            xmlSetProp(p, BAD_CAST "xmlns:xlink", BAD_CAST NS_XLINK);
          break;
        }
  }
  return true;
}

/* What to do with a node of the walk. */
enum act { A_DESCEND, A_SKIP, A_REMOVE, A_UNWRAP };

/* The attribute an animation element changes, as SVG names it: NULL when
 * it is one that can hold a URL or run a script (or none SVG has). */
static const char *animated(const char *v) {
  const char *t = v + strspn(v, " \t\r\n\f");
  size_t n = strcspn(t, " \t\r\n\f");
  char name[64];
  if (!n || n >= sizeof name)
    return NULL;
  memcpy(name, t, n);
  name[n] = 0;
  const char *as = LISTED(name, svg_attrs);
  if (!as || !strcmp(as, "style") || strstr(as, "href"))
    return NULL;
  return as;
}

/* Whether text can stand in foreign element p: a drawing shows it only in
 * its text elements (an <a> among them), a formula in its tokens. */
static bool takes_text(xmlNodePtr p) {
  static const char *const svg_text[] = {"desc", "text", "textPath", "title",
                                         "tspan"};
  static const char *const math_text[] = {"annotation", "mi", "mn",
                                          "mo",         "ms", "mtext"};
  for (; p && p->type == XML_ELEMENT_NODE && (intptr_t)p->_private == M_FOREIGN;
       p = p->parent) {
    const char *name = (const char *)p->name;
    if (IN(name, svg_text) || IN(name, math_text))
      return true;
    if (strcmp(name, "a"))
      return false;
  }
  return false;
}

/* An SVG or MathML element: its name as the language spells it, its
 * attributes to the list; what is not in the list goes. */
static enum act visit_foreign(cl *s, xmlNodePtr n, bool svg) {
  const char *name = (const char *)n->name;
  char needle[80];
  snprintf(needle, sizeof needle, "<%s", name);
  const char *as =
      svg ? LISTED(name, svg_elements) : LISTED(name, math_elements);
  if (!as) {
    const char *local = strchr(name, ':') ? strchr(name, ':') + 1 : name;
    if (IN(local, dropped) || !strcmp(local, "annotation-xml")) {
      warn_at(s, (unsigned)n->line, needle,
              "<%s> is removed with its content: %s", name,
              IN(local, dropped) ? "a book's pages may not hold it (an EPUB "
                                   "reader would refuse the page)"
                                 : "a formula keeps its MathML only");
      mark_changed(s);
      return A_REMOVE;
    }
    /* (where no text can stand, its content would be left out word by
     * word) */
    bool keep = takes_text(n->parent);
    warn_at(s, (unsigned)n->line, needle, "<%s> is not %s element: %s", name,
            svg ? "an SVG" : "a MathML",
            keep ? "its tags are removed, its content kept"
                 : "it is removed with its content");
    mark_changed(s);
    return keep ? A_UNWRAP : A_REMOVE;
  }
  if (svg && animates(as)) {
    const char *target = get_attr(n, "attributename");
    if (target && !animated(target)) {
      warn_at(s, (unsigned)n->line, needle,
              "<%s attributeName='%s'> is removed: a drawing in a book may "
              "animate neither links nor scripts",
              as, shown(s->a, target));
      mark_changed(s);
      return A_REMOVE;
    }
  }
  if (strcmp(name, as))
    xmlNodeSetName(n, BAD_CAST as);
  if (!clean_foreign_attrs(s, n, svg))
    return A_REMOVE;
  n->_private = (void *)(intptr_t)M_FOREIGN;
  return A_DESCEND;
}

/* Text in a drawing or formula outside the elements that show it, and
 * Markdown inside them: left out (reported), as neither SVG nor MathML can
 * hold it. */
static enum act visit_stray(cl *s, xmlNodePtr n) {
  xmlNodePtr up = n->parent;
  if (!up || up->type != XML_ELEMENT_NODE ||
      (intptr_t)up->_private != M_FOREIGN || takes_text(up) ||
      !strcmp((const char *)up->name, "foreignObject"))
    return A_SKIP;
  const char *t = (const char *)n->content;
  if (n->type == XML_TEXT_NODE && t && t[strspn(t, " \t\r\n\f")]) {
    t += strspn(t, " \t\r\n\f");
    char needle[41];
    snprintf(needle, sizeof needle, "%.*s", (int)strcspn(t, "\n<&"), t);
    warn_at(s, (unsigned)n->line, needle,
            "the text '%s' in <%s> is left out: a drawing shows text only "
            "in <text>, a formula in its tokens (<mi>, <mn>, <mo>, <mtext>)",
            shown(s->a, t), up->name);
    mark_changed(s);
    return A_REMOVE;
  }
  return A_SKIP;
}

static enum act visit(cl *s, xmlNodePtr n) {
  if (n->type != XML_ELEMENT_NODE)
    return visit_stray(s, n);
  const char *name = (const char *)n->name;
  if (!strncmp(name, MARK, strlen(MARK))) {
    long i = strtol(name + strlen(MARK), NULL, 10);
    if (i <= s->last_mark || (size_t)i >= s->nkids)
      return A_SKIP;
    s->last_mark = i;
    kid *k = &s->kids[i];
    cmark_node_type t = cmark_node_get_type(k->n);
    xmlNodePtr up = n->parent;
    if (k->raw || up->type != XML_ELEMENT_NODE ||
        (intptr_t)up->_private != M_FOREIGN ||
        !strcmp((const char *)up->name, "foreignObject") ||
        ((t == CMARK_NODE_TEXT || t == CMARK_NODE_SOFTBREAK) && takes_text(up)))
      return A_SKIP;
    oc_report(s->c->report, OC_WARNING, s->c->file,
              s->c->line_of(s->c->user, k->n),
              (unsigned)cmark_node_get_start_column(k->n),
              "this Markdown is inside <%s>, where SVG and MathML cannot "
              "hold it: it is left out",
              up->name);
    mark_changed(s);
    return A_REMOVE;
  }
  xmlNodePtr up = n->parent;
  enum ctx in = C_HTML;
  if (up && up->type == XML_ELEMENT_NODE && (intptr_t)up->_private == M_FOREIGN)
    in = !strcmp((const char *)up->name, "foreignObject") ? C_FOREIGN_OBJECT
         : LISTED((const char *)up->name, svg_elements)   ? C_SVG
                                                          : C_MATH;
  else if (up && (intptr_t)up->_private == M_IN_FOREIGN_OBJECT)
    in = C_FOREIGN_OBJECT;
  /* svg in MathML and math in SVG are new drawings and formulas, in
   * their own namespace */
  if (!strcmp(name, "svg") || !strcmp(name, "math")) {
    bool svg = name[0] == 's';
    enum act a = visit_foreign(s, n, svg);
    declare(n, "xmlns", svg ? NS_SVG : NS_MATH);
    mark_changed(s);
    return a;
  }
  if (in == C_SVG || in == C_MATH)
    return visit_foreign(s, n, in == C_SVG);
  if (IN(name, dropped))
    return A_SKIP;
  if (!IN(name, known) || IN(name, unwrapped)) {
    if (in == C_FOREIGN_OBJECT)
      n->_private = (void *)(intptr_t)M_IN_FOREIGN_OBJECT;
    return A_DESCEND;
  }
  clean_html_attrs(s, n);
  if (in == C_FOREIGN_OBJECT) {
    declare(n, "xmlns", NS_XHTML);
    mark_changed(s);
  }
  return A_DESCEND;
}

/* The node after n in document order, n's children left out (NULL at the
 * end of root). */
static xmlNodePtr after(xmlNodePtr root, xmlNodePtr n) {
  while (n && n != root && !n->next)
    n = n->parent;
  return n && n != root ? n->next : NULL;
}

/* One walk over the tree, without recursion (raw HTML may nest deeply). */
static void clean_tree(cl *s, xmlNodePtr root) {
  s->emitting = true; /* for warn_at: the part is the last marker's */
  xmlNodePtr n = root->children;
  while (n) {
    enum act a = visit(s, n);
    if (a == A_DESCEND && n->children) {
      n = n->children;
      continue;
    }
    if (a == A_DESCEND || a == A_SKIP) {
      n = after(root, n);
      continue;
    }
    xmlNodePtr prev = n->prev, parent = n->parent;
    xmlNodePtr next = a == A_REMOVE ? after(root, n) : NULL;
    /* (a text child may merge into a text before n: the walk goes on
     * from what stands after prev once n is gone) */
    for (xmlNodePtr c = a == A_UNWRAP ? n->children : NULL, cn; c; c = cn) {
      cn = c->next;
      xmlUnlinkNode(c);
      xmlAddPrevSibling(n, c);
    }
    xmlUnlinkNode(n);
    xmlFreeNode(n);
    if (a == A_UNWRAP)
      next = prev ? (prev->next ? prev->next : after(root, prev))
                  : (parent->children ? parent->children : after(root, parent));
    n = next;
  }
  s->emitting = false;
  s->last_mark = -1;
}

/* ---- raw HTML left open before Markdown -------------------------------- */

/* Elements that cannot hold the blocks Markdown makes (<p>, lists,
 * headings…): phrasing content (an <a> too, whose transparent model a
 * writer's open tag is seldom meant for), the elements whose content is
 * phrasing, and those holding only their own kinds of children. */
static const char *const no_flow[] = {
    "a",      "abbr",     "b",     "bdi",      "bdo",   "caption", "cite",
    "code",   "colgroup", "data",  "dfn",      "dl",    "em",      "h1",
    "h2",     "h3",       "h4",    "h5",       "h6",    "hgroup",  "i",
    "kbd",    "label",    "legend", "mark",    "menu",  "meter",   "ol",
    "p",      "pre",      "progress", "q",     "rp",    "rt",      "ruby",
    "s",      "samp",     "small", "span",     "strong", "sub",    "summary",
    "sup",    "table",    "tbody", "tfoot",    "thead", "time",    "tr",
    "u",      "ul",       "var"};
#define NO_FLOW (sizeof no_flow / sizeof *no_flow)

/* The Markdown block of marker m (in a container of blocks) is taken out
 * of the elements around it that cannot hold it, innermost first, up to
 * one that can: they close at the end of the HTML block that opened
 * them, as the warning says. Each is reported, but those whose end tag
 * HTML makes optional (<p>: a following block ends it in HTML too).
 * Elements without a content model here (names HTML lacks, the obsolete
 * ones losing their tags) are passed through; in SVG, MathML or an
 * element removed with its content, nothing moves (clean_tree deals with
 * the Markdown there). */
static void close_before_block(cl *s, xmlNodePtr root, xmlNodePtr m) {
  xmlNodePtr top = NULL;
  for (xmlNodePtr p = m->parent; p && p != root; p = p->parent) {
    const char *name = (const char *)p->name;
    if (p->type != XML_ELEMENT_NODE || IN(name, dropped) ||
        !strcmp(name, "svg") || !strcmp(name, "math"))
      return;
    if (IN(name, no_flow))
      top = p;
    else if (IN(name, known))
      break; /* it holds blocks */
  }
  if (!top)
    return;
  /* the elements deeper than RAW_MAX_DEPTH lose their tags in enter(),
   * with a warning of their own */
  int depth = 0;
  for (xmlNodePtr p = m->parent; p && p != root; p = p->parent)
    depth += IN((const char *)p->name, known);
  for (xmlNodePtr p = m->parent;; p = p->parent) {
    const char *name = (const char *)p->name;
    bool tagged = IN(name, known) && depth-- <= RAW_MAX_DEPTH;
    if (tagged && !IN(name, optional_end)) {
      char needle[80];
      snprintf(needle, sizeof needle, "<%s", name);
      warn_at(s, (unsigned)p->line, needle,
              "<%s> is not closed: it is closed at the end of its HTML "
              "block, before the Markdown that follows",
              name);
    }
    kid *k = kid_at(s, (unsigned)p->line);
    if (k)
      k->changed = true;
    s->changed = true;
    const char *const *nf = bsearch(name, no_flow, NO_FLOW, sizeof *no_flow,
                                    cmp_name);
    if (nf) {
      if (!s->shut)
        s->shut = oc_arena_calloc(s->a, NO_FLOW, sizeof *s->shut);
      int *at = &s->shut[nf - no_flow];
      if (!*at || p->line < *at)
        *at = p->line;
    }
    if (p == top)
      break;
  }
  /* m and what follows it, level by level, go after top in order: before
   * a placeholder, so that text merged into a neighbour keeps its place */
  xmlNodePtr ph = xmlNewNode(NULL, BAD_CAST MARK "x");
  if (!ph || !xmlAddNextSibling(top, ph)) {
    xmlFreeNode(ph);
    return;
  }
  xmlNodePtr first = m;
  for (xmlNodePtr up = m->parent;; up = up->parent) {
    for (xmlNodePtr c = first, next; c; c = next) {
      next = c->next;
      xmlUnlinkNode(c);
      xmlAddPrevSibling(ph, c);
    }
    if (up == top)
      break;
    first = up->next;
  }
  xmlUnlinkNode(ph);
  xmlFreeNode(ph);
}

/* Every Markdown block of the container (marker i, kid i not raw) out of
 * the raw HTML elements that cannot hold it. */
static void close_before_blocks(cl *s, xmlNodePtr root) {
  size_t nm = 0, cap = 0;
  xmlNodePtr *ms = NULL;
  for (xmlNodePtr n = root->children; n;) {
    if (n->type == XML_ELEMENT_NODE &&
        !strncmp((const char *)n->name, MARK, strlen(MARK))) {
      long i = strtol((const char *)n->name + strlen(MARK), NULL, 10);
      if (i >= 0 && (size_t)i < s->nkids && !s->kids[i].raw) {
        ms = oc_arena_grow_array(s->a, ms, nm, &cap, nm + 1, sizeof *ms);
        ms[nm++] = n;
      }
    }
    if (n->children && n->type == XML_ELEMENT_NODE) {
      n = n->children;
      continue;
    }
    n = after(root, n);
  }
  for (size_t i = 0; i < nm; i++)
    close_before_block(s, root, ms[i]);
}

/* Whether a parse error is about an element close_before_blocks closed
 * ("Opening and ending tag mismatch: div and span" after the <span>): it
 * was reported as closed there. */
static bool closed_before(const cl *s, const struct perr *e) {
  const char *what = "Opening and ending tag mismatch: ";
  const char *and = strncmp(e->msg, what, strlen(what))
                        ? NULL
                        : strstr(e->msg + strlen(what), " and ");
  const char *const *nf =
      and && s->shut
          ? bsearch(and + 5, no_flow, NO_FLOW, sizeof *no_flow, cmp_name)
          : NULL;
  return nf && s->shut[nf - no_flow] && e->line >= s->shut[nf - no_flow];
}

static void keep_err(void *user, xmlErrorPtr err) {
  cl *s = user;
  if (!err || !err->message)
    return;
  const char *m = err->message;
  if (strncmp(m, "Opening and ending tag mismatch", 31) &&
      strncmp(m, "Unexpected end tag", 18))
    return;
  if (strstr(m, ROOT) || strstr(m, MARK))
    return;
  s->errs = oc_arena_grow_array(s->a, s->errs, s->nerrs, &s->cerrs,
                                s->nerrs + 1, sizeof *s->errs);
  struct perr *e = &s->errs[s->nerrs++];
  e->line = err->line;
  snprintf(e->msg, sizeof e->msg, "%s", m);
  size_t l = strlen(e->msg);
  while (l && (e->msg[l - 1] == '\n' || e->msg[l - 1] == ' '))
    e->msg[--l] = 0;
}

static bool is_raw(cmark_node *n) {
  cmark_node_type t = cmark_node_get_type(n);
  if (t == CMARK_NODE_HTML_BLOCK)
    return true;
  return t == CMARK_NODE_HTML_INLINE && cmark_node_get_literal(n) &&
         cmark_node_get_literal(n)[0];
}

/* A literal with a comment left open gets its end (reported). */
static const char *close_comment(cl *s, const char *lit, unsigned sline) {
  const char *open = NULL;
  for (const char *p = lit; (p = strstr(p, "<!--"));) {
    const char *end = strstr(p + 4, "-->");
    if (!end) {
      open = p;
      break;
    }
    p = end + 3;
  }
  if (!open)
    return lit;
  unsigned rel = 0;
  for (const char *p = lit; p < open; p++)
    rel += *p == '\n';
  warn_at(s, sline + rel, "<!--",
          "this comment is not closed with '-->': it ends at the end of its "
          "paragraph");
  mark_changed(s);
  size_t n = strlen(lit);
  while (n && (lit[n - 1] == '\n' || lit[n - 1] == '\r'))
    n--;
  return oc_arena_printf(s->a, "%.*s-->%s", (int)n, lit, lit + n);
}

static bool xml_well_formed(const char *s, size_t len) {
  xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
  if (!ctxt)
    return false;
  xmlDocPtr doc =
      xmlCtxtReadMemory(ctxt, s, (int)len, NULL, "UTF-8",
                        XML_PARSE_NONET | XML_PARSE_NOERROR |
                            XML_PARSE_NOWARNING | XML_PARSE_HUGE);
  bool ok = doc && ctxt->wellFormed;
  /* XHTML's names are lower case: <DIV> is well-formed, yet not XHTML */
  for (xmlNodePtr n = ok ? xmlDocGetRootElement(doc) : NULL; n && ok;) {
    if (n->type == XML_ELEMENT_NODE) {
      for (const xmlChar *c = n->name; *c && ok; c++)
        ok = !(*c >= 'A' && *c <= 'Z');
      bool own = strcmp((const char *)n->name, "svg") &&
                 strcmp((const char *)n->name, "math");
      for (xmlAttrPtr at = own ? n->properties : NULL; at && ok; at = at->next)
        for (const xmlChar *c = at->name; *c && ok; c++)
          ok = !(*c >= 'A' && *c <= 'Z');
    }
    /* SVG and MathML keep their camelCase (viewBox, foreignObject) */
    bool foreign = n->type == XML_ELEMENT_NODE &&
                   (!strcmp((const char *)n->name, "svg") ||
                    !strcmp((const char *)n->name, "math"));
    if (n->children && n->type == XML_ELEMENT_NODE && !foreign) {
      n = n->children;
      continue;
    }
    while (n && !n->next)
      n = n->parent;
    if (n)
      n = n->next;
  }
  if (doc)
    xmlFreeDoc(doc);
  xmlFreeParserCtxt(ctxt);
  return ok;
}

/* Whether text is well-formed XML by itself (in a root element). */
static bool self_contained(cl *s, const char *text) {
  /* Most pieces of a paragraph's HTML open or close a tag (<mfrac>): as
   * many start tags as end tags and empty ones is needed, and cheaper to
   * count than a parser to start (a comment holding '<' only costs the
   * piece its bytes as written). */
  size_t opened = 0, closed = 0;
  for (const char *p = text; (p = strchr(p, '<')); p++)
    if ((p[1] >= 'a' && p[1] <= 'z') || (p[1] >= 'A' && p[1] <= 'Z'))
      opened++;
    else if (p[1] == '/')
      closed++;
  for (const char *p = text; (p = strstr(p, "/>")); p++)
    closed++;
  if (opened != closed)
    return false;
  const char *doc = oc_arena_printf(s->a, "<" ROOT ">%s</" ROOT ">", text);
  return xml_well_formed(doc, strlen(doc));
}

/* Adds a raw literal to the parser's stream, a character reference to a
 * control character (&#14;) as a space: XML has no such character, and
 * libxml2 would cut the attribute value there without a word, where a
 * browser drops it from a URL (" &#14;javascript:…" is a script). */
static void add_fed(oc_sb *st, const char *text) {
  const char *from = text;
  for (const char *p = text; (p = strstr(p, "&#"));) {
    const char *q = p + 2;
    bool hex = *q == 'x' || *q == 'X';
    q += hex;
    unsigned long v = 0;
    size_t digits = 0;
    while (digits < 8 &&
           (hex ? strchr("0123456789abcdefABCDEF", *q)
                : strchr("0123456789", *q)) &&
           *q) {
      v = v * (hex ? 16 : 10) +
          (unsigned long)(*q <= '9' ? *q - '0' : (*q | 0x20) - 'a' + 10);
      q++, digits++;
    }
    q += *q == ';';
    /* (tab, newline and carriage return are XML's) */
    bool control = digits && v < 0x20 && v != '\t' && v != '\n' && v != '\r';
    if (control) {
      oc_sb_add(st, from, (size_t)(p - from));
      oc_sb_adds(st, "&#32;");
      from = q;
    }
    p = q > p + 2 ? q : p + 2;
  }
  oc_sb_adds(st, from);
}

static void clean_container(const bk_rawhtml_ctx *c, cmark_node *parent) {
  cl s;
  memset(&s, 0, sizeof s);
  s.c = c;
  s.a = c->a;
  s.last_mark = -1;
  size_t n = 0;
  for (cmark_node *k = cmark_node_first_child(parent); k;
       k = cmark_node_next(k))
    n++;
  s.kids = oc_arena_calloc(s.a, n ? n : 1, sizeof *s.kids);
  s.nkids = n;
  oc_sb st;
  oc_sb_init(&st, s.a, 256);
  oc_sb_adds(&st, "<" ROOT ">");
  unsigned line = 1;
  size_t i = 0, raw_cap = 0;
  bool block = false;
  for (cmark_node *k = cmark_node_first_child(parent); k;
       k = cmark_node_next(k), i++) {
    kid *kd = &s.kids[i];
    kd->n = k;
    kd->raw = is_raw(k);
    char mark[64];
    snprintf(mark, sizeof mark, "<" MARK "%zu></" MARK "%zu>", i, i);
    oc_sb_adds(&st, mark);
    if (!kd->raw)
      continue;
    block = block || cmark_node_get_type(k) == CMARK_NODE_HTML_BLOCK;
    kd->sline = line;
    s.raw = oc_arena_grow_array(s.a, s.raw, s.nraw, &raw_cap, s.nraw + 1,
                                sizeof *s.raw);
    s.raw[s.nraw++] = i;
    kd->text = cmark_node_get_literal(k);
    /* the stream so far, for close_comment's report */
    s.stream = oc_sb_cstr(&st);
    const char *lit = kd->text;
    kd->text = close_comment(&s, kd->text, line);
    kd->changed = kd->text != lit;
    add_fed(&st, kd->text);
    for (const char *p = kd->text; *p; p++)
      line += *p == '\n';
  }
  char mark[64];
  snprintf(mark, sizeof mark, "<" MARK "%zu></" MARK "%zu>", n, n);
  oc_sb_adds(&st, mark);
  oc_sb_adds(&st, "</" ROOT ">");
  s.stream = oc_sb_cstr(&st);
  size_t slen = st.len;

  htmlParserCtxtPtr ctxt = htmlNewParserCtxt();
  if (!ctxt)
    return;
  xmlSetStructuredErrorFunc(&s, keep_err);
  htmlDocPtr doc = htmlCtxtReadMemory(
      ctxt, s.stream, (int)slen, NULL, "UTF-8",
      HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
          HTML_PARSE_NOIMPLIED | XML_PARSE_HUGE);
  xmlSetStructuredErrorFunc(NULL, NULL);
  htmlFreeParserCtxt(ctxt);
  xmlNodePtr root = doc ? xmlDocGetRootElement(doc) : NULL;
  if (!root || strcmp((const char *)root->name, ROOT) != 0) {
    /* cannot happen with a parser that reads the root it was given; if
       it does, the raw HTML is printed as text */
    if (doc)
      xmlFreeDoc(doc);
    for (i = 0; i < n; i++)
      if (s.kids[i].raw) {
        cmark_node *t = cmark_node_new(CMARK_NODE_TEXT);
        cmark_node_set_literal(t, s.kids[i].text);
        if (block) {
          cmark_node *p = cmark_node_new(CMARK_NODE_PARAGRAPH);
          cmark_node_append_child(p, t);
          t = p;
        }
        if (cmark_node_insert_before(s.kids[i].n, t))
          cmark_node_free(s.kids[i].n);
        else
          cmark_node_free(t);
      }
    return;
  }
  if (block)
    close_before_blocks(&s, root);
  clean_tree(&s, root);
  oc_sb_init(&s.out, s.a, slen + 64);
  s.emitting = true;
  emit(&s, root);
  s.emitting = false;
  for (size_t e = 0; e < s.nerrs; e++) {
    if (closed_before(&s, &s.errs[e]))
      continue;
    warn_at(&s, (unsigned)s.errs[e].line, "</",
            "HTML elements not properly nested (%s): the end tag is "
            "dropped or the elements closed in order",
            s.errs[e].msg);
    kid *k = kid_at(&s, (unsigned)s.errs[e].line);
    if (k)
      k->changed = true;
    s.changed = true;
  }
  /* Elements still open at the end of the container. */
  for (xmlNodePtr p = s.endm ? s.endm->parent : NULL; p && p != root;
       p = p->parent)
    if ((intptr_t)p->_private == M_ELEM &&
        !IN((const char *)p->name, optional_end)) {
      char needle[80];
      snprintf(needle, sizeof needle, "<%s", (const char *)p->name);
      warn_at(&s, (unsigned)p->line, needle,
              "<%s> is not closed: it is closed at the end of its %s",
              (const char *)p->name, block ? "block" : "paragraph");
      kid *k = kid_at(&s, (unsigned)p->line);
      if (k)
        k->changed = true;
      s.changed = true;
    }
  xmlFreeDoc(doc);
  if (!s.changed && xml_well_formed(s.stream, slen))
    return;

  /* Each raw kid takes the output from its marker to the next one seen;
   * what follows the end marker goes into a node of its own. A markdown
   * kid whose marker is not in the output was swallowed by an element
   * removed with its content. */
  size_t upto = s.endm ? s.end_seg : s.out.len;
  if (s.endm && s.out.len > s.end_seg) {
    cmark_node *tail = cmark_node_new(block ? CMARK_NODE_HTML_BLOCK
                                            : CMARK_NODE_HTML_INLINE);
    cmark_node_set_literal(tail, oc_arena_strndup(s.a, s.out.p + s.end_seg,
                                                  s.out.len - s.end_seg));
    cmark_node_append_child(parent, tail);
  }
  for (i = n; i-- > 0;) {
    kid *kd = &s.kids[i];
    if (!kd->seen) {
      cmark_node_free(kd->n);
      continue;
    }
    if (kd->raw) {
      const char *seg =
          oc_arena_strndup(s.a, s.out.p + kd->seg, upto - kd->seg);
      /* A part with nothing corrected that stands alone as XML, as its
       * literal does, says what the literal says: the literal stays. */
      if (!kd->changed && self_contained(&s, kd->text) &&
          self_contained(&s, seg))
        ;
      else if (seg[0] && !(block && !seg[strspn(seg, " \t\r\n")]))
        cmark_node_set_literal(kd->n, seg);
      else
        cmark_node_free(kd->n);
    } else if (upto > kd->seg) {
      /* closing tags right after a markdown node */
      cmark_node *extra = cmark_node_new(block ? CMARK_NODE_HTML_BLOCK
                                               : CMARK_NODE_HTML_INLINE);
      cmark_node_set_literal(
          extra, oc_arena_strndup(s.a, s.out.p + kd->seg, upto - kd->seg));
      cmark_node_insert_after(kd->n, extra);
    }
    upto = kd->seg;
  }
}

static bool same_node(const void *entry, const void *key) {
  return entry == key;
}

static uint64_t node_hash(const cmark_node *x) {
  return oc_hash_bytes(OC_HASH_SEED, &x, sizeof x);
}

void bk_rawhtml_clean(cmark_node *doc, const bk_rawhtml_ctx *c) {
  /* The containers first (cleaning one changes the tree), innermost
   * first: cleaning a container may remove a container inside it (in an
   * element removed with its content), never one around it. */
  /* the containers already listed (in the arena, which an arena cap
     unwinds with) */
  oc_hidx *seen = oc_arena_alloc(c->a, sizeof *seen);
  oc_hidx_init(seen, c->a, 64);
  cmark_node **list = NULL;
  size_t n = 0, cap = 0;
  cmark_iter *it = cmark_iter_new(doc);
  cmark_event_type ev;
  while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
    cmark_node *x = cmark_iter_get_node(it);
    if (ev == CMARK_EVENT_ENTER && is_raw(x) && cmark_node_parent(x)) {
      cmark_node *p = cmark_node_parent(x);
      if (!oc_hidx_get(seen, node_hash(p), same_node, p))
        oc_hidx_put(seen, node_hash(p), p);
    } else if (ev == CMARK_EVENT_EXIT &&
               oc_hidx_get(seen, node_hash(x), same_node, x)) {
      list = oc_arena_grow_array(c->a, list, n, &cap, n + 1, sizeof *list);
      list[n++] = x;
    }
  }
  cmark_iter_free(it);
  for (size_t i = 0; i < n; i++)
    clean_container(c, list[i]);
}
