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

enum mode { M_ELEM = 1, M_TEXT, M_UNWRAP, M_SKIP, M_MARK };

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
  int foreign; /* inside svg or math */
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

/* Reports at stream line `line`, where needle (a tag's start) is. */
static void warn_at(cl *s, unsigned line, const char *needle, const char *fmt,
                    ...) __attribute__((format(printf, 4, 5)));
static void warn_at(cl *s, unsigned line, const char *needle, const char *fmt,
                    ...) {
  /* While writing, the part being written is the kid's whose tag this is
   * (several kids can share a line of the stream). */
  kid *k = NULL;
  if (s->emitting && s->last_mark >= 0 && (size_t)s->last_mark < s->nkids &&
      s->kids[s->last_mark].raw && s->kids[s->last_mark].sline <= line) {
    unsigned last = s->kids[s->last_mark].sline;
    for (const char *p = s->kids[s->last_mark].text; *p; p++)
      last += *p == '\n';
    if (line <= last)
      k = &s->kids[s->last_mark];
  }
  if (!k)
    k = kid_at(s, line);
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

/* A URL no edition can use: a script, a file: URL, an absolute path. */
static const char *refused_url(const char *v) {
  while (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r')
    v++;
  if (!strncasecmp(v, "javascript:", 11) || !strncasecmp(v, "vbscript:", 9))
    return "a script URL";
  if (!strncasecmp(v, "file:", 5))
    return "a file: URL";
  if (v[0] == '/' && v[1] != '/')
    return "an absolute path";
  if (v[0] == '\\')
    return "an absolute path";
  return NULL;
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
    if (report && !s->foreign && !strncasecmp(name, "on", 2)) {
      warn_at(s, (unsigned)n->line, name,
              "the event attribute '%s' of <%s> is removed: a book's pages "
              "run no scripts",
              name, n->name);
      mark_changed(s);
      continue;
    }
    const char *why = IN(name, url_attrs) ? refused_url(v) : NULL;
    if (report && why) {
      warn_at(s, (unsigned)n->line, name,
              "%s='%s' of <%s> is removed: %s cannot be part of a book",
              name, v, n->name, why);
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
  if (s->foreign) {
    s->depth++;
    n->_private = (void *)(intptr_t)M_ELEM;
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
    const char *why = src ? refused_url(src) : NULL;
    bool bad = !src || !src[0] || why;
    if (why)
      warn_at(s, line, needle,
              "the image '%s' is %s, which cannot be part of a book: its "
              "alternative text stands in",
              src, why);
    else if (bad)
      warn_at(s, line, needle,
              "<img> has no src: its alternative text stands in");
    else if (bk_rawhtml_is_local(src) && s->c->image) {
      /* the hook reports at the image's line */
      kid *k = kid_at(s, line);
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
  if (!strcmp(name, "svg") || !strcmp(name, "math"))
    s->foreign++;
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
  if (mode == M_ELEM) {
    if (!IN(name, voids) || s->foreign)
      s->depth--;
    if (s->foreign && (!strcmp(name, "svg") || !strcmp(name, "math")))
      s->foreign--;
    else if (s->foreign && !n->children)
      return; /* written as <x /> */
    if (!s->foreign && IN(name, voids))
      return;
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
    if (n->type == XML_ELEMENT_NODE && (intptr_t)n->_private == M_ELEM)
      leave(s, n);
    else if (n->type == XML_ELEMENT_NODE && (intptr_t)n->_private == M_TEXT)
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
  const char *doc = oc_arena_printf(s->a, "<" ROOT ">%s</" ROOT ">", text);
  return xml_well_formed(doc, strlen(doc));
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
    oc_sb_adds(&st, kd->text);
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
  oc_sb_init(&s.out, s.a, slen + 64);
  s.emitting = true;
  emit(&s, root);
  s.emitting = false;
  for (size_t e = 0; e < s.nerrs; e++) {
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

/* A pointer set in the arena: the containers already listed. */
typedef struct pset {
  cmark_node **slots;
  size_t cap, n;
} pset;

static bool pset_has(const pset *p, cmark_node *x) {
  if (!p->cap)
    return false;
  size_t h = ((uintptr_t)x >> 4) * 0x9E3779B97F4A7C15ull % p->cap;
  while (p->slots[h]) {
    if (p->slots[h] == x)
      return true;
    h = (h + 1) % p->cap;
  }
  return false;
}

static bool pset_add(oc_arena *a, pset *p, cmark_node *x) {
  if (2 * (p->n + 1) > p->cap) {
    pset q = {oc_arena_calloc(a, p->cap ? p->cap * 2 : 64, sizeof *q.slots),
              p->cap ? p->cap * 2 : 64, 0};
    for (size_t i = 0; i < p->cap; i++)
      if (p->slots[i])
        pset_add(a, &q, p->slots[i]);
    *p = q;
  }
  size_t h = ((uintptr_t)x >> 4) * 0x9E3779B97F4A7C15ull % p->cap;
  while (p->slots[h]) {
    if (p->slots[h] == x)
      return false;
    h = (h + 1) % p->cap;
  }
  p->slots[h] = x;
  p->n++;
  return true;
}

void bk_rawhtml_clean(cmark_node *doc, const bk_rawhtml_ctx *c) {
  /* The containers first (cleaning one changes the tree), innermost
   * first: cleaning a container may remove a container inside it (in an
   * element removed with its content), never one around it. */
  pset seen = {0};
  cmark_node **list = NULL;
  size_t n = 0, cap = 0;
  cmark_iter *it = cmark_iter_new(doc);
  cmark_event_type ev;
  while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
    cmark_node *x = cmark_iter_get_node(it);
    if (ev == CMARK_EVENT_ENTER && is_raw(x) && cmark_node_parent(x)) {
      pset_add(c->a, &seen, cmark_node_parent(x));
    } else if (ev == CMARK_EVENT_EXIT && pset_has(&seen, x)) {
      list = oc_arena_grow_array(c->a, list, n, &cap, n + 1, sizeof *list);
      list[n++] = x;
    }
  }
  cmark_iter_free(it);
  for (size_t i = 0; i < n; i++)
    clean_container(c, list[i]);
}
