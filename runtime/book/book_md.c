/* Markdown to an HTML fragment. cmark-gfm parses and renders; the book's
 * extensions are a rewrite of the source that keeps every line's column
 * (admonitions) and edits of the tree before rendering (heading ids,
 * figures, tables, code, footnotes, page breaks), which also gather what the
 * book model needs. Nothing is done to the rendered HTML. */
#include "book_md.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <utf8proc.h>

#include "book_rawhtml.h"
#include "oc_alloc.h"
#include "oc_sb.h"

/* No sourcepos in the output; tables align with style attributes, as HTML5
 * has no align attribute; raw HTML of Easybook books is kept. */
#define MD_CMARK_OPTIONS                                                       \
  (CMARK_OPT_UNSAFE | CMARK_OPT_FOOTNOTES |                                    \
   CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES)

/* ---- arena helpers -------------------------------------------------- */

/* The render's string builders (oc_sb, in the arena) are reset and reused
 * for every piece of markup; what must outlive the next reset is copied
 * with md_sb_copy. */
static const char *md_sb_copy(const oc_sb *b) {
  return oc_arena_strndup(b->a, b->p, b->len);
}

/* Text or attribute value: the four characters HTML and XML both need
 * escaped. */
static void md_add_escaped(oc_sb *b, const char *s, size_t n) {
  size_t from = 0;
  for (size_t i = 0; i < n; i++) {
    const char *rep;
    switch (s[i]) {
    case '&':
      rep = "&amp;";
      break;
    case '<':
      rep = "&lt;";
      break;
    case '>':
      rep = "&gt;";
      break;
    case '"':
      rep = "&quot;";
      break;
    default:
      continue;
    }
    oc_sb_add(b, s + from, i - from);
    oc_sb_adds(b, rep);
    from = i + 1;
  }
  oc_sb_add(b, s + from, n - from);
}

/* Appends one zeroed element to an arena array, growing it by the arena's
 * rule. */
static void *md_push(oc_arena *a, void *arrp, size_t *len, size_t *cap,
                     size_t elem) {
  void **arr = arrp;
  *arr = oc_arena_grow_array(a, *arr, *len, cap, *len + 1, elem);
  void *slot = (char *)*arr + (*len)++ * elem;
  memset(slot, 0, elem);
  return slot;
}
#define MD_PUSH(m, arr, n, cap)                                                \
  md_push((m)->a, &(arr), &(n), &(cap), sizeof *(arr))

/* ---- state of one render -------------------------------------------- */

typedef struct md_heading {
  bk_md_heading h;
  cmark_node *node;
  unsigned col;
  bool has_note; /* holds a footnote reference */
  bool is_title; /* the extracted H1: out of the body */
} md_heading;

typedef struct md_figure {
  bk_md_figure f;
  cmark_node *para, *img;
} md_figure;

typedef struct md_table {
  bk_md_table t;
  cmark_node *node, *caption;
} md_table;

typedef struct md_note_ref {
  cmark_node *node; /* the raw HTML inline that replaced the reference */
  int number;
  const char *id; /* NULL: no back-link comes to it */
} md_note_ref;

typedef struct md_insert {
  size_t offset; /* in the source: the line it goes before */
  unsigned line; /* its line in the rewritten source */
  char eol;
  const char *text; /* NULL: a blank line; else this line ("-->") */
} md_insert;

typedef struct md_admonition {
  unsigned line; /* where the rewritten source starts its block quote */
  char kind;     /* the prefix letter */
} md_admonition;

typedef struct md {
  oc_arena *a;
  const bk_md_options *opt;
  const char *prefix; /* id_prefix, "" for none */
  const char *images_dir;
  unsigned line_offset;
  /* The admonition rewrite: the blank lines put around admonitions, the
   * offsets of their prefixes, and where each admonition starts, all in
   * source order. */
  md_insert *inserted;
  size_t ninserted, cap_inserted;
  size_t *prefixes;
  size_t nprefixes, cap_prefixes;
  md_admonition *admons;
  size_t nadmons, cap_admons, next_admon;

  bk_idset *idset;     /* opt->ids, or one of this render's own */
  bk_slugger *slugger; /* opt->slugger, or one of this render's own */
  cmark_parser *parser;
  cmark_node *doc;
  cmark_node_type table_type; /* the extension's, found on first sight */
  int counters[6];
  oc_sb sb, tmp;
  cmark_node *claimed_caption; /* a caption after a table, not yet walked */
  cmark_node *last_caption;

  md_heading *headings;
  size_t nheadings, cap_headings;
  md_figure *figures;
  size_t nfigures, cap_figures;
  md_table *tables;
  size_t ntables, cap_tables;
  md_note_ref *refs;
  size_t nrefs, cap_refs;
  cmark_node **notes;
  size_t nnotes, cap_notes;
  const char **ids;
  size_t nids, cap_ids;
  bk_md_ref *links;
  size_t nlinks, cap_links;
  bk_md_ref *images;
  size_t nimages, cap_images;
  int *alt_kinds; /* md_alt_kind's stack */
  size_t cap_alt_kinds;
} md;

static const char *md_file(const md *m) {
  return m->opt->file ? m->opt->file : "";
}

/* A line of the rewritten source as a line of the file. */
static unsigned md_line(const md *m, int pre_line) {
  if (pre_line <= 0)
    return 0;
  size_t lo = 0, hi = m->ninserted;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (m->inserted[mid].line < (unsigned)pre_line)
      lo = mid + 1;
    else
      hi = mid;
  }
  return (unsigned)pre_line - (unsigned)lo + m->line_offset;
}

static bool md_is_table(md *m, cmark_node *n) {
  cmark_node_type t = cmark_node_get_type(n);
  if (m->table_type)
    return t == m->table_type;
  if ((t & CMARK_NODE_TYPE_MASK) != CMARK_NODE_TYPE_BLOCK ||
      t <= CMARK_NODE_FOOTNOTE_DEFINITION ||
      strcmp(cmark_node_get_type_string(n), "table") != 0)
    return false;
  m->table_type = t;
  return true;
}

/* The line of n, or of the nearest block that knows its own: the table
 * extension leaves the paragraph it splits off a table's head without
 * one, and that paragraph starts where the table's node says. */
static unsigned md_node_line(md *m, cmark_node *n) {
  for (cmark_node *p = n; p; p = cmark_node_parent(p)) {
    int l = cmark_node_get_start_line(p);
    if (l > 0)
      return md_line(m, l);
    cmark_node *next = cmark_node_next(p);
    if (cmark_node_get_type(p) == CMARK_NODE_PARAGRAPH && next &&
        md_is_table(m, next))
      return md_line(m, cmark_node_get_start_line(next));
  }
  return m->line_offset + 1;
}

/* Pre-order successor of n inside root (descending into n when asked). */
static cmark_node *md_next(cmark_node *root, cmark_node *n, bool descend) {
  cmark_node *c;
  if (descend && (c = cmark_node_first_child(n)))
    return c;
  for (; n && n != root; n = cmark_node_parent(n))
    if ((c = cmark_node_next(n)))
      return c;
  return NULL;
}

static char *md_render_node(md *m, cmark_node *n) {
  return cmark_render_html(n, MD_CMARK_OPTIONS,
                           cmark_parser_get_syntax_extensions(m->parser));
}

/* Appends to b the HTML of n's content: n rendered without its own
 * opening and closing tag (open/close, when the render has them). */
static void md_add_inner(md *m, oc_sb *b, cmark_node *n, const char *open,
                         const char *close) {
  char *html = md_render_node(m, n);
  size_t len = strlen(html);
  while (len && html[len - 1] == '\n')
    len--;
  size_t start = 0, ol = strlen(open), cl = strlen(close);
  if (ol && len >= ol && memcmp(html, open, ol) == 0)
    start = ol;
  if (cl && len - start >= cl && memcmp(html + len - cl, close, cl) == 0)
    len -= cl;
  oc_sb_add(b, html + start, len - start);
  free(html);
}

/* Plain text of n's descendants, as an alt attribute holds it. */
static void md_add_plain(oc_sb *b, cmark_node *root) {
  for (cmark_node *n = cmark_node_first_child(root); n;) {
    cmark_node_type t = cmark_node_get_type(n);
    if (t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE)
      oc_sb_adds(b, cmark_node_get_literal(n));
    else if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK)
      oc_sb_add(b, " ", 1);
    n = md_next(root, n, true);
  }
}

static cmark_node *md_custom_block(const char *enter, const char *exit) {
  cmark_node *c = cmark_node_new(CMARK_NODE_CUSTOM_BLOCK);
  cmark_node_set_on_enter(c, enter);
  if (exit)
    cmark_node_set_on_exit(c, exit);
  return c;
}

/* Puts a custom block holding html where old was, and frees old. */
static cmark_node *md_replace_block(cmark_node *old, const char *html) {
  cmark_node *c = md_custom_block(html, NULL);
  cmark_node_insert_before(old, c);
  cmark_node_free(old);
  return c;
}

static void md_add_id(md *m, const char *id) {
  *(const char **)MD_PUSH(m, m->ids, m->nids, m->cap_ids) = id;
}

/* An id the writer chose ({#id}, an id attribute): kept as written when
 * free; a duplicate is reported, and made unique when we may change it. */
static const char *md_claim_id(md *m, const char *id, unsigned line,
                               unsigned col, bool may_change) {
  if (bk_idset_add(m->idset, id)) {
    const char *copy = oc_arena_strndup(m->a, id, strlen(id));
    md_add_id(m, copy);
    return copy;
  }
  if (!may_change) {
    oc_report(m->opt->report, OC_WARNING, md_file(m), line, col,
              "duplicate id '%s'", id);
    return NULL;
  }
  const char *unique = bk_idset_unique(m->idset, id);
  oc_report(m->opt->report, OC_WARNING, md_file(m), line, col,
            "duplicate id '%s' (renamed '%s')", id, unique);
  md_add_id(m, unique);
  return unique;
}

static const char *md_generate_id(md *m, const char *base) {
  const char *id = bk_idset_unique(m->idset, base);
  md_add_id(m, id);
  return id;
}

/* "<kind>-<prefix>-<n>", or "<kind>-<n>" without a prefix. */
static const char *md_numbered_id(md *m, const char *kind, long n) {
  m->tmp.len = 0;
  oc_sb_adds(&m->tmp, kind);
  oc_sb_adds(&m->tmp, "-");
  if (*m->prefix) {
    oc_sb_adds(&m->tmp, m->prefix);
    oc_sb_adds(&m->tmp, "-");
  }
  oc_sb_add_int(&m->tmp, n);
  return md_generate_id(m, oc_sb_cstr(&m->tmp));
}

/* ---- the source: UTF-8 check and the admonition rewrite ------------- */

static bool md_is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool md_is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

/* s[0..n) is name (lower case), ASCII case aside. */
static bool md_name_is(const char *s, size_t n, const char *name) {
  if (strlen(name) != n)
    return false;
  for (size_t i = 0; i < n; i++) {
    char c = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') : s[i];
    if (c != name[i])
      return false;
  }
  return true;
}

static bool md_blank(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (s[i] != ' ' && s[i] != '\t')
      return false;
  return true;
}

/* A code fence of the top level (opening or closing): its character and
 * length, 0 when the line is none. */
static size_t md_fence(const char *s, size_t n, char *ch, bool opening) {
  size_t i = 0;
  while (i < n && i < 3 && s[i] == ' ')
    i++;
  if (i >= n || (s[i] != '`' && s[i] != '~'))
    return 0;
  char c = s[i];
  size_t run = 0;
  while (i < n && s[i] == c)
    i++, run++;
  if (run < 3)
    return 0;
  if (opening) {
    if (c == '`' && memchr(s + i, '`', n - i))
      return 0;
  } else if (!md_blank(s + i, n - i)) {
    return 0;
  }
  *ch = c;
  return run;
}

static bool md_admonition_kind(char c) {
  return c && strchr("AWNTEIQD", c) != NULL;
}

/* The end of the line that starts at i, and where the next one starts
 * (after "\n", "\r\n" or a lone "\r"; has_cr says whether to look for
 * "\r" at all, which most files lack). */
static size_t md_line_end(const char *src, size_t len, size_t i, bool has_cr,
                          size_t *next) {
  const char *nl = memchr(src + i, '\n', len - i);
  size_t end = nl ? (size_t)(nl - src) : len;
  if (has_cr) {
    const char *cr = memchr(src + i, '\r', end - i);
    if (cr) {
      end = (size_t)(cr - src);
      *next = end + 1 < len && src[end + 1] == '\n' ? end + 2 : end + 1;
      return end;
    }
  }
  *next = end < len ? end + 1 : len;
  return end;
}

/* ---- the inline parser's work, priced before it runs ---------------- */

/* cmark-gfm 0.29.0.gfm.6 (Debian 12) walks a paragraph's whole stack of
 * emphasis delimiters each time a link, an image or a footnote reference
 * closes (upstream fixed it in gfm.7, CVE-2023-22486): a paragraph's time
 * grows with its links times the emphasis marks before them, and 1.3 MB
 * of "a *b* [x](u) " took 90 s. Each run of lines between blank lines is
 * priced by that product before cmark sees it; past the cap (some seconds
 * of parsing) it is an error at the run's first line, never a hang. The
 * count is an upper bound: a run of '*', '_' or '~' is one delimiter, a
 * "](" closes its bracket and takes the marks inside it off the stack as
 * cmark does, any other ']' costs a walk and takes nothing off; fenced
 * code is skipped. */
#define MD_INLINE_WORK_CAP 500000000ull

/* Its table extension has a second one (fixed in gfm.7 too): at each line
 * that reads as a table's delimiter row (only '|', '-', ':' and blanks,
 * with a pipe and a dash) under a paragraph, it reads the paragraph's
 * whole text as the header row, and when the cells do not match, the
 * paragraph goes on: 4,000 such pairs in one paragraph (88 KB) took 7 s,
 * 16 million bytes read so 0.8 s.
 * Each such line is priced at the bytes of its run before it; the cap is
 * about 0.4 s of that (a table under a long paragraph costs the paragraph
 * once; a blank line before it, nothing). */
#define MD_TABLE_WORK_CAP 8000000ull

/* Whether line l (block quote markers and blanks skipped) reads as a
 * table's delimiter row to cmark-gfm's table extension. */
static bool md_delimiter_row(const char *l, size_t n) {
  size_t i = 0;
  while (i < n && (l[i] == ' ' || l[i] == '\t' || l[i] == '>'))
    i++;
  bool pipe = false, dash = false;
  for (; i < n; i++) {
    char c = l[i];
    if (c == '|')
      pipe = true;
    else if (c == '-')
      dash = true;
    else if (c != ':' && c != ' ' && c != '\t' && c != '\v' && c != '\f')
      return false;
  }
  return pipe && dash;
}

typedef struct md_price {
  uint64_t delims;    /* delimiters on cmark's stack, at most */
  uint64_t work;      /* steps of the walks so far in this run */
  uint64_t open[256]; /* delims when each '[' still open was met */
  size_t nopen, over; /* open brackets, and those past the array */
} md_price;

static void md_price_line(md_price *P, const char *l, size_t n) {
  for (size_t i = 0; i < n; i++) {
    char c = l[i];
    if (c == '\\') {
      i++;
      continue;
    }
    if (c == '*' || c == '_' || c == '~') {
      if (i == 0 || l[i - 1] != c)
        P->delims++;
    } else if (c == '[') {
      if (P->nopen < sizeof P->open / sizeof P->open[0])
        P->open[P->nopen++] = P->delims;
      else
        P->over++;
    } else if (c == ']') {
      P->work += P->delims;
      if (P->over)
        P->over--;
      else if (P->nopen) {
        uint64_t at = P->open[--P->nopen];
        if (i + 1 < n && l[i + 1] == '(')
          P->delims = at;
      }
    }
  }
}

static bool md_check_inline_work(md *m, const char *src, size_t len) {
  bool has_cr = memchr(src, '\r', len) != NULL;
  md_price P;
  memset(&P, 0, sizeof P);
  unsigned line = 0, run_line = 0;
  char fence = 0;
  size_t fence_len = 0, run_start = 0;
  uint64_t table_work = 0;
  for (size_t start = 0, next; start < len; start = next) {
    size_t end = md_line_end(src, len, start, has_cr, &next);
    const char *l = src + start;
    size_t n = end - start;
    line++;
    char ch;
    if (fence) {
      size_t run = md_fence(l, n, &ch, false);
      if (run >= fence_len && ch == fence)
        fence = 0;
      continue;
    }
    if ((fence_len = md_fence(l, n, &fence, true)) != 0)
      continue;
    if (md_blank(l, n)) {
      P.delims = P.work = 0;
      P.nopen = P.over = 0;
      run_line = 0;
      table_work = 0;
      continue;
    }
    if (!run_line) {
      run_line = line;
      run_start = start;
    }
    if (md_delimiter_row(l, n)) {
      table_work += start - run_start;
      if (table_work > MD_TABLE_WORK_CAP) {
        oc_report(m->opt->report, OC_ERROR, md_file(m),
                  run_line + m->line_offset, 1,
                  "this paragraph has too many lines like a table's "
                  "delimiter row ('|---|') under lines that are not its "
                  "header for the Markdown parser (cmark-gfm 0.29 reads the "
                  "whole paragraph again at each: over %llu steps by line "
                  "%u): put a blank line before each table",
                  (unsigned long long)MD_TABLE_WORK_CAP, line + m->line_offset);
        return false;
      }
    }
    md_price_line(&P, l, n);
    if (P.work > MD_INLINE_WORK_CAP) {
      oc_report(m->opt->report, OC_ERROR, md_file(m), run_line + m->line_offset,
                1,
                "this paragraph has too many links and footnote references "
                "after emphasis marks for the Markdown parser (cmark-gfm "
                "0.29 takes time growing with their product: over %llu "
                "steps by line %u): split it into shorter paragraphs, with "
                "a blank line between them",
                (unsigned long long)MD_INLINE_WORK_CAP, line + m->line_offset);
      return false;
    }
  }
  return true;
}

/* Reports the first byte that is not UTF-8, at its line and column. */
static bool md_check_utf8(md *m, const char *src, size_t len) {
  size_t i = 0;
  while (i < len) {
    /* Eight ASCII bytes at a time: the common case. */
    if (len - i >= 8) {
      uint64_t w;
      memcpy(&w, src + i, 8);
      if (!(w & 0x8080808080808080ull)) {
        i += 8;
        continue;
      }
    }
    if ((unsigned char)src[i] < 0x80) {
      i++;
      continue;
    }
    utf8proc_int32_t cp;
    utf8proc_ssize_t n = utf8proc_iterate((const utf8proc_uint8_t *)src + i,
                                          (utf8proc_ssize_t)(len - i), &cp);
    if (n > 0) {
      i += (size_t)n;
      continue;
    }
    bool has_cr = memchr(src, '\r', i) != NULL;
    unsigned line = 1;
    size_t start = 0, next;
    while (md_line_end(src, len, start, has_cr, &next) < i) {
      start = next;
      line++;
    }
    oc_report(m->opt->report, OC_ERROR, md_file(m), line + m->line_offset,
              (unsigned)(i - start + 1), "invalid UTF-8 (byte 0x%02X)",
              (unsigned char)src[i]);
    return false;
  }
  return true;
}

/* The end marker of an HTML block that keeps its lines as they are, blank
 * ones included (CommonMark's kinds 1 and 2: <pre>, <script>, <style>,
 * <textarea>, comments), when the line s opens one; NULL otherwise.
 * *after is where the opener ends. */
static const char *md_raw_block_end(const char *s, size_t n, size_t *after) {
  static const char *const tags[] = {"pre", "script", "style", "textarea"};
  static const char *const ends[] = {"</pre>", "</script>", "</style>",
                                     "</textarea>"};
  size_t i = 0;
  while (i < n && i < 3 && s[i] == ' ')
    i++;
  if (n - i < 4 || s[i] != '<')
    return NULL;
  if (memcmp(s + i, "<!--", 4) == 0) {
    *after = i + 4;
    return "-->";
  }
  for (size_t t = 0; t < sizeof tags / sizeof tags[0]; t++) {
    size_t tl = strlen(tags[t]);
    if (n - i - 1 >= tl && md_name_is(s + i + 1, tl, tags[t]) &&
        (n - i - 1 == tl || s[i + 1 + tl] == '>' ||
         md_is_space(s[i + 1 + tl]))) {
      *after = i + 1 + tl;
      return ends[t];
    }
  }
  return NULL;
}

/* Whether s holds end, ASCII case aside. */
static bool md_line_has(const char *s, size_t n, const char *end) {
  size_t el = strlen(end);
  for (size_t i = 0; i + el <= n; i++)
    if (md_name_is(s + i, el, end))
      return true;
  return false;
}

/* Finds the lines that are admonitions ("N> " outside code fences) and
 * where blank lines must keep two of them, or one and its neighbours,
 * apart. */
static void md_scan_admonitions(md *m, const char *src, size_t len) {
  bool has_cr = memchr(src, '\r', len) != NULL;
  unsigned line = 1;
  char fence_ch = 0, prev_kind = 0;
  size_t fence_len = 0, prev_start = 0, prev_len = 0, next;
  const char *raw_end = NULL; /* inside such an HTML block: its end */
  /* A comment that no "-->" after it closes would hide the rest of the
   * file (and on a one-page edition, of the book): it ends at the end of
   * its paragraph, where a line "-->" is put. */
  size_t last_close = SIZE_MAX; /* the last "-->" of the file */
  for (size_t i = len; i >= 3 && last_close == SIZE_MAX; i--)
    if (!memcmp(src + i - 3, "-->", 3))
      last_close = i - 3;
  bool open_comment = false;
  for (size_t start = 0; start < len; start = next, line++) {
    size_t end = md_line_end(src, len, start, has_cr, &next);
    const char *s = src + start;
    size_t n = end - start;
    char kind = 0, ch;
    if (open_comment) {
      if (md_blank(s, n)) {
        md_insert *ins =
            MD_PUSH(m, m->inserted, m->ninserted, m->cap_inserted);
        ins->offset = start;
        ins->line = line + (unsigned)m->ninserted - 1;
        ins->eol = src[start - 1] == '\r' ? '\r' : '\n';
        ins->text = "-->";
        open_comment = false;
        raw_end = NULL;
      } else {
        prev_kind = 0;
        prev_start = start;
        prev_len = n;
        continue;
      }
    }
    if (raw_end) {
      if (md_line_has(s, n, raw_end))
        raw_end = NULL;
      prev_kind = 0;
      prev_start = start;
      prev_len = n;
      continue;
    }
    /* Only a line that starts with a space, a fence character, '<' or a
     * prefix letter can matter; most are decided by their first byte. */
    if (n && (s[0] == ' ' || s[0] == '`' || s[0] == '~' || s[0] == '<' ||
              md_admonition_kind(s[0]))) {
      size_t after;
      if (!fence_len && (raw_end = md_raw_block_end(s, n, &after)) &&
          md_line_has(s + after, n - after, raw_end))
        raw_end = NULL; /* it ends on its own line */
      if (raw_end && !strcmp(raw_end, "-->") &&
          (last_close == SIZE_MAX || last_close < start + after)) {
        size_t at = 0;
        while (s[at] != '<')
          at++;
        oc_report(m->opt->report, OC_WARNING, md_file(m),
                  line + m->line_offset, (unsigned)at + 1,
                  "this comment is not closed with '-->': it ends at the end "
                  "of its paragraph");
        open_comment = true;
      }
      if (raw_end) {
        /* an HTML block: nothing else on this line */
      } else if (fence_len) {
        size_t run = md_fence(s, n, &ch, false);
        if (run >= fence_len && ch == fence_ch)
          fence_len = 0;
      } else if ((fence_len = md_fence(s, n, &fence_ch, true)) == 0 && n >= 2 &&
                 md_admonition_kind(s[0]) && s[1] == '>' &&
                 (n == 2 || s[2] == ' ' || s[2] == '\t')) {
        kind = s[0];
      }
    }
    /* One admonition is the run of lines with one prefix: a blank line
     * keeps it from running into what comes before or after it. */
    if (kind != prev_kind && line > 1 && !md_blank(s, n) &&
        !md_blank(src + prev_start, prev_len)) {
      md_insert *ins = MD_PUSH(m, m->inserted, m->ninserted, m->cap_inserted);
      ins->offset = start;
      ins->line = line + (unsigned)m->ninserted - 1;
      /* The previous line's ending, so that a lone CR stays one. */
      ins->eol = src[start - 1] == '\r' ? '\r' : '\n';
    }
    if (kind) {
      size_t *at = MD_PUSH(m, m->prefixes, m->nprefixes, m->cap_prefixes);
      *at = start;
      if (kind != prev_kind) {
        md_admonition *ad = MD_PUSH(m, m->admons, m->nadmons, m->cap_admons);
        ad->line = line + (unsigned)m->ninserted;
        ad->kind = kind;
      }
    }
    prev_kind = kind;
    prev_start = start;
    prev_len = n;
  }
  if (open_comment) {
    /* to the end of the file: closed on its last line */
    md_insert *ins = MD_PUSH(m, m->inserted, m->ninserted, m->cap_inserted);
    ins->offset = len;
    ins->line = line + (unsigned)m->ninserted - 1;
    ins->eol = '\n';
    ins->text = "-->";
  }
}

/* The source with the "N>" prefixes turned into " >" (same columns) and the
 * separating blank lines added; malloc'd. */
static char *md_rewrite(md *m, const char *src, size_t len, size_t *out_len) {
  size_t extra = m->ninserted;
  for (size_t k = 0; k < m->ninserted; k++)
    if (m->inserted[k].text)
      extra = oc_size_add(extra, strlen(m->inserted[k].text));
  char *out = oc_malloc(oc_size_add(oc_size_add(len, extra), 1));
  size_t o = 0, from = 0, k = 0;
  for (size_t p = 0; p <= m->nprefixes; p++) {
    size_t at = p < m->nprefixes ? m->prefixes[p] : len;
    for (; k < m->ninserted && m->inserted[k].offset <= at; k++) {
      size_t to = m->inserted[k].offset;
      memcpy(out + o, src + from, to - from);
      o += to - from;
      from = to;
      if (m->inserted[k].text) {
        size_t tl = strlen(m->inserted[k].text);
        memcpy(out + o, m->inserted[k].text, tl);
        o += tl;
      }
      out[o++] = m->inserted[k].eol;
    }
    memcpy(out + o, src + from, at - from);
    o += at - from;
    from = at;
    if (p < m->nprefixes) {
      out[o++] = ' ';
      from++;
    }
  }
  out[o] = '\0';
  *out_len = o;
  return out;
}

/* ---- raw HTML: ids and internal links ------------------------------- */

static void md_add_link(md *m, const char *target, size_t n, unsigned line,
                        unsigned col) {
  bk_md_ref *r = MD_PUSH(m, m->links, m->nlinks, m->cap_links);
  r->target = oc_arena_strndup(m->a, target, n);
  r->line = line;
  r->col = col;
}

/* Finds id="…" and href="#…" in the tags of raw HTML that starts at
 * line:col of the file. */
static void md_scan_html(md *m, const char *s, size_t n, unsigned line,
                         unsigned col) {
  size_t counted = 0, line_start = 0;
  bool first = true;
  for (size_t i = 0; i < n;) {
    const char *lt = memchr(s + i, '<', n - i);
    if (!lt)
      break;
    i = (size_t)(lt - s) + 1;
    if (n - i >= 3 && memcmp(s + i, "!--", 3) == 0) {
      const char *end = NULL;
      for (size_t j = i + 3; j + 3 <= n && !end; j++)
        if (memcmp(s + j, "-->", 3) == 0)
          end = s + j;
      i = end ? (size_t)(end - s) + 3 : n;
      continue;
    }
    if (i >= n || !md_is_alpha(s[i]))
      continue;
    while (i < n &&
           (md_is_alpha(s[i]) || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
      i++;
    for (;;) {
      while (i < n && (md_is_space(s[i]) || s[i] == '/'))
        i++;
      if (i >= n || s[i] == '>' || s[i] == '<')
        break;
      size_t name = i;
      while (i < n && !md_is_space(s[i]) && s[i] != '=' && s[i] != '>' &&
             s[i] != '/')
        i++;
      size_t name_len = i - name;
      while (i < n && md_is_space(s[i]))
        i++;
      size_t val = i, val_len = 0;
      if (i < n && s[i] == '=') {
        i++;
        while (i < n && md_is_space(s[i]))
          i++;
        if (i < n && (s[i] == '"' || s[i] == '\'')) {
          char q = s[i++];
          val = i;
          while (i < n && s[i] != q)
            i++;
          val_len = i - val;
          if (i < n)
            i++;
        } else {
          val = i;
          while (i < n && !md_is_space(s[i]) && s[i] != '>')
            i++;
          val_len = i - val;
        }
      }
      bool is_id = md_name_is(s + name, name_len, "id");
      bool is_href = md_name_is(s + name, name_len, "href");
      if ((!is_id || !val_len) && (!is_href || !val_len || s[val] != '#'))
        continue;
      for (; counted < name; counted++)
        if (s[counted] == '\n') {
          line++;
          line_start = counted + 1;
          first = false;
        }
      unsigned c = (unsigned)(name - line_start) + (first ? col : 1);
      if (is_id) {
        m->tmp.len = 0;
        oc_sb_add(&m->tmp, s + val, val_len);
        md_claim_id(m, oc_sb_cstr(&m->tmp), line, c, false);
      } else if (val_len > 1) {
        md_add_link(m, s + val + 1, val_len - 1, line, c);
      }
    }
  }
}

/* `<!--BREAK-->`, inner spaces allowed. */
static bool md_is_break_comment(const char *s) {
  while (md_is_space(*s))
    s++;
  if (strncmp(s, "<!--", 4) != 0)
    return false;
  s += 4;
  while (md_is_space(*s))
    s++;
  if (strncmp(s, "BREAK", 5) != 0)
    return false;
  s += 5;
  while (md_is_space(*s))
    s++;
  if (strncmp(s, "-->", 3) != 0)
    return false;
  s += 3;
  while (md_is_space(*s))
    s++;
  return *s == '\0';
}

#define MD_PAGE_BREAK "<div class=\"page-break\"></div>"

/* ---- {#id} ---------------------------------------------------------- */

static bool md_id_char(char c) {
  return md_is_alpha(c) || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
         c == ':' || c == '.';
}

/* The prefix of generated ids comes from the book (an item's number): it
 * is taken as it is only when made of id characters, else slugged. */
static bool md_is_id(const char *s) {
  for (; *s; s++)
    if (!md_id_char(*s))
      return false;
  return true;
}

/* Sets the literal of a text node to s[0..n), dropping the node when that
 * is empty. */
static void md_set_text(md *m, cmark_node *text, const char *s, size_t n) {
  if (!n) {
    cmark_node_free(text);
    return;
  }
  m->tmp.len = 0;
  oc_sb_add(&m->tmp, s, n);
  cmark_node_set_literal(text, oc_sb_cstr(&m->tmp));
}

/* Takes a trailing `{#id}` off the last text of a heading or caption (and
 * with closing_hashes, the closing hashes of an ATX heading before it).
 * Returns the id, in the arena, or NULL. */
static const char *md_take_id(md *m, cmark_node *parent, bool closing_hashes,
                              unsigned line, unsigned col) {
  cmark_node *last = cmark_node_last_child(parent);
  if (!last || cmark_node_get_type(last) != CMARK_NODE_TEXT)
    return NULL;
  const char *s = cmark_node_get_literal(last);
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
    n--;
  if (n < 4 || s[n - 1] != '}')
    return NULL;
  size_t open = n - 1;
  while (open > 0 && s[open - 1] != '{')
    open--;
  if (open == 0 || s[open] != '#')
    return NULL;
  open--; /* at the brace */
  const char *id = s + open + 2;
  size_t id_len = n - 1 - (open + 2);
  for (size_t i = 0; i < id_len; i++)
    if (md_is_space(id[i]))
      return NULL; /* text in braces, not an id */
  for (size_t i = 0; i < id_len; i++)
    if (!md_id_char(id[i])) {
      oc_report(m->opt->report, OC_WARNING, md_file(m), line, col,
                "invalid id '%.*s' (letters, digits, '-', '_', ':' and '.' "
                "only)",
                (int)id_len, id);
      return NULL;
    }
  if (!id_len)
    return NULL;
  const char *result = oc_arena_strndup(m->a, id, id_len);
  size_t keep = open;
  while (keep && (s[keep - 1] == ' ' || s[keep - 1] == '\t'))
    keep--;
  if (closing_hashes) {
    size_t h = keep;
    while (h && s[h - 1] == '#')
      h--;
    bool at_start = h == 0 && !cmark_node_previous(last);
    if (h < keep &&
        (at_start || (h && (s[h - 1] == ' ' || s[h - 1] == '\t')))) {
      keep = h;
      while (keep && (s[keep - 1] == ' ' || s[keep - 1] == '\t'))
        keep--;
    }
  }
  md_set_text(m, last, s, keep);
  return result;
}

/* ---- the walk: one visit per node ----------------------------------- */

static void md_visit_heading(md *m, cmark_node *n) {
  cmark_consolidate_text_nodes(n);
  int level = cmark_node_get_heading_level(n);
  md_heading *h = MD_PUSH(m, m->headings, m->nheadings, m->cap_headings);
  h->node = n;
  h->h.level = level;
  h->h.line = md_node_line(m, n);
  h->col = (unsigned)cmark_node_get_start_column(n);
  bool atx = cmark_node_get_end_line(n) <= cmark_node_get_start_line(n);
  const char *id = md_take_id(m, n, atx, h->h.line, h->col);
  if (id)
    h->h.id = md_claim_id(m, id, h->h.line, h->col, true);
  h->is_title = m->opt->extract_title && level == 1 && m->nheadings == 1 &&
                cmark_node_first_child(m->doc) == n;

  /* Easybook's counters: level L counts in counters[L-1], deeper levels
   * restart; level 1 is the item's own number. */
  if (level >= 2)
    m->counters[level - 1]++;
  for (int i = level; i < 6; i++)
    m->counters[i] = 0;
  const char *label = NULL;
  if (m->opt->hooks.heading_label)
    label = m->opt->hooks.heading_label(m->opt->hooks.user, level, m->counters);
  h->h.label = label ? label : "";
}

/* The image of a paragraph that holds only one (spaces aside). */
static cmark_node *md_lone_image(cmark_node *para) {
  cmark_node *img = NULL;
  for (cmark_node *c = cmark_node_first_child(para); c;
       c = cmark_node_next(c)) {
    cmark_node_type t = cmark_node_get_type(c);
    if (t == CMARK_NODE_IMAGE && !img)
      img = c;
    else if (!(t == CMARK_NODE_SOFTBREAK ||
               (t == CMARK_NODE_TEXT &&
                md_blank(cmark_node_get_literal(c),
                         strlen(cmark_node_get_literal(c))))))
      return NULL;
  }
  return img;
}

/* What an image's alt text is, spaces aside: nothing, a lone `*` (a
 * decorative image), or anything else. Each image keeps its kind as its
 * cmark user data (the kind + 1; none: not yet known). */
enum { MD_ALT_EMPTY, MD_ALT_STAR, MD_ALT_TEXT };

/* The kind of alt text a followed by alt text b. */
static int md_alt_join(int a, int b) {
  if (a == MD_ALT_EMPTY)
    return b;
  return b == MD_ALT_EMPTY ? a : MD_ALT_TEXT;
}

static int md_alt_add_text(int kind, const char *s) {
  for (; *s && kind != MD_ALT_TEXT; s++)
    if (!md_is_space(*s))
      kind = *s == '*' && kind == MD_ALT_EMPTY ? MD_ALT_STAR : MD_ALT_TEXT;
  return kind;
}

/* The kind of img's alt text. An alt text holds the alt texts of the
 * images inside it, so they are all worked out in one pass from the inside
 * out and kept: an image nested 100,000 deep in its own alt text was read
 * again for every image around it (quadratic: 97 s). */
static int md_alt_kind(md *m, cmark_node *img) {
  uintptr_t known = (uintptr_t)cmark_node_get_user_data(img);
  if (known)
    return (int)(known - 1);
  size_t open = 0; /* images entered and not left: their kinds so far */
  cmark_iter *it = cmark_iter_new(img);
  cmark_event_type ev;
  while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
    cmark_node *n = cmark_iter_get_node(it);
    cmark_node_type t = cmark_node_get_type(n);
    if (t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE) {
      m->alt_kinds[open - 1] =
          md_alt_add_text(m->alt_kinds[open - 1], cmark_node_get_literal(n));
      continue;
    }
    if (t != CMARK_NODE_IMAGE)
      continue;
    if (ev == CMARK_EVENT_ENTER) {
      if ((known = (uintptr_t)cmark_node_get_user_data(n)) != 0) {
        m->alt_kinds[open - 1] =
            md_alt_join(m->alt_kinds[open - 1], (int)(known - 1));
        cmark_iter_reset(it, n, CMARK_EVENT_EXIT); /* past its alt text */
        continue;
      }
      *(int *)MD_PUSH(m, m->alt_kinds, open, m->cap_alt_kinds) = MD_ALT_EMPTY;
      continue;
    }
    int kind = m->alt_kinds[--open];
    cmark_node_set_user_data(n, (void *)(uintptr_t)(kind + 1));
    if (open)
      m->alt_kinds[open - 1] = md_alt_join(m->alt_kinds[open - 1], kind);
  }
  cmark_iter_free(it);
  return (int)((uintptr_t)cmark_node_get_user_data(img) - 1);
}

/* Alt text `*` (spaces aside): a decorative image. */
static bool md_is_decorative(md *m, cmark_node *img) {
  return md_alt_kind(m, img) == MD_ALT_STAR;
}

/* Local images: not a URL with a scheme, not protocol-relative. */
static bool md_is_local(const char *url) { return bk_rawhtml_is_local(url); }

/* A URL as a message shows it: at most 60 bytes (a data: URL can be
 * long), cut between characters. */
static const char *md_shown_url(md *m, const char *url) {
  size_t n = 0;
  while (url[n] && (n < 60 || ((unsigned char)url[n] & 0xC0) == 0x80))
    n++;
  return url[n] ? oc_arena_printf(m->a, "%.*s\xe2\x80\xa6", (int)n, url) : url;
}

/* A local image's path as the hooks find it (Easybook's Contents/images/
 * first), or url itself. */
static const char *md_image_src(md *m, const char *url) {
  const bk_md_hooks *hk = &m->opt->hooks;
  const char *found =
      hk->image_resolve && md_is_local(url) ? hk->image_resolve(hk->user, url)
                                            : NULL;
  return found ? found : url;
}

/* An image node's url resolved by md_image_src, set on the node. */
static const char *md_resolve_image(md *m, cmark_node *img) {
  const char *url = cmark_node_get_url(img);
  const char *src = md_image_src(m, url);
  if (src != url && strcmp(src, url) != 0)
    cmark_node_set_url(img, src);
  return cmark_node_get_url(img);
}

/* Whether an image can be kept: a URL no edition can use is refused here
 * (reported), a local image by the image hook. */
static bool md_image_ok(md *m, const char *url, unsigned line, unsigned col) {
  const bk_md_hooks *hk = &m->opt->hooks;
  if (!md_is_local(url)) {
    const char *why = bk_rawhtml_refused_url(m->a, url);
    if (why)
      oc_report(m->opt->report, OC_WARNING, md_file(m), line, col,
                "the image '%s' is %s, which cannot be part of a book: its "
                "alternative text stands in",
                md_shown_url(m, url), why);
    return !why;
  }
  return !hk->image_ok || hk->image_ok(hk->user, url, line, col);
}

/* An inline node replaced by its children (kept or not); returns an empty
 * text node put where it was, before them, for the walk to go on from. */
static cmark_node *md_unwrap_inline(cmark_node *n, bool keep) {
  cmark_node *at = cmark_node_new(CMARK_NODE_TEXT);
  cmark_node_set_literal(at, "");
  cmark_node_insert_before(n, at);
  cmark_node *c;
  while ((c = cmark_node_first_child(n))) {
    if (keep)
      cmark_node_insert_before(n, c);
    else
      cmark_node_free(c);
  }
  cmark_node_free(n);
  return at;
}

/* An image refused: its alt text takes its place (none for a decorative
 * one). Returns an empty text node put where it was, before the alt text,
 * for the walk to go on from. */
static cmark_node *md_image_to_alt(md *m, cmark_node *img) {
  return md_unwrap_inline(img, !md_is_decorative(m, img));
}

/* A link whose URL no edition can use (a script, a file): its text stays,
 * the link goes (reported); the walk goes on into the text. */
static cmark_node *md_link_to_text(md *m, cmark_node *link, const char *why) {
  const char *url = cmark_node_get_url(link);
  oc_report(m->opt->report, OC_WARNING, md_file(m), md_node_line(m, link),
            (unsigned)cmark_node_get_start_column(link),
            "the link '%s' is %s, which cannot be part of a book: its text "
            "stands without it",
            md_shown_url(m, url), why);
  return md_unwrap_inline(link, true);
}

static cmark_node *md_visit_paragraph(md *m, cmark_node *n, bool *descend) {
  if (n == m->claimed_caption)
    return n;
  cmark_node *first = cmark_node_first_child(n);
  if (first && !cmark_node_next(first) &&
      cmark_node_get_type(first) == CMARK_NODE_TEXT) {
    const char *s = cmark_node_get_literal(first);
    while (md_is_space(*s))
      s++;
    size_t len = strlen(s);
    while (len && md_is_space(s[len - 1]))
      len--;
    if (len == 11 && memcmp(s, "{pagebreak}", 11) == 0) {
      *descend = false;
      return md_replace_block(n, MD_PAGE_BREAK);
    }
  }
  cmark_node *img = md_lone_image(n);
  if (img && !md_is_decorative(m, img) &&
      !md_image_ok(m, md_resolve_image(m, img), md_node_line(m, img),
                   (unsigned)cmark_node_get_start_column(img))) {
    md_image_to_alt(m, img); /* a paragraph of its alt text, not a figure */
    return n;
  }
  if (img && !md_is_decorative(m, img)) {
    md_figure *f = MD_PUSH(m, m->figures, m->nfigures, m->cap_figures);
    f->para = n;
    f->img = img;
    f->f.line = md_node_line(m, img);
  }
  return n;
}

static size_t md_prefix_len(const char *s, const char *prefix) {
  size_t n = strlen(prefix);
  return strncmp(s, prefix, n) == 0 ? n : 0;
}

/* A paragraph "Table: caption {#id}": takes the prefix and the id off it
 * and returns true. The autolink extension splits text at ':', hence the
 * consolidation, done only for paragraphs that start with "Table". */
static bool md_take_caption(md *m, cmark_node *p, md_table *t) {
  if (!p || cmark_node_get_type(p) != CMARK_NODE_PARAGRAPH ||
      p == m->last_caption)
    return false;
  cmark_node *first = cmark_node_first_child(p);
  if (!first || cmark_node_get_type(first) != CMARK_NODE_TEXT ||
      !md_prefix_len(cmark_node_get_literal(first), "Table"))
    return false;
  cmark_consolidate_text_nodes(p);
  first = cmark_node_first_child(p);
  const char *s = cmark_node_get_literal(first);
  size_t skip = md_prefix_len(s, "Table:");
  if (!skip)
    return false;
  while (s[skip] == ' ' || s[skip] == '\t')
    skip++;
  md_set_text(m, first, s + skip, strlen(s + skip));
  unsigned line = md_node_line(m, p);
  unsigned col = (unsigned)cmark_node_get_start_column(p);
  const char *id = md_take_id(m, p, false, line, col);
  if (id)
    t->t.id = md_claim_id(m, id, line, col, true);
  t->caption = p;
  m->last_caption = p;
  return true;
}

/* Lines of a paragraph (its breaks plus one). */
static unsigned md_para_lines(cmark_node *p) {
  unsigned lines = 1;
  for (cmark_node *n = cmark_node_first_child(p); n; n = md_next(p, n, true)) {
    cmark_node_type t = cmark_node_get_type(n);
    lines += t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK;
  }
  return lines;
}

static void md_visit_table(md *m, cmark_node *n) {
  md_table *t = MD_PUSH(m, m->tables, m->ntables, m->cap_tables);
  t->node = n;
  t->t.number = (int)m->ntables;
  int line = cmark_node_get_start_line(n);
  cmark_node *prev = cmark_node_previous(n);
  /* A paragraph right above the table shares its start line. */
  if (prev && cmark_node_get_type(prev) == CMARK_NODE_PARAGRAPH &&
      cmark_node_get_start_line(prev) == 0)
    line += (int)md_para_lines(prev);
  t->t.line = md_line(m, line);
  if (!md_take_caption(m, prev, t) && md_take_caption(m, cmark_node_next(n), t))
    m->claimed_caption = t->caption;
}

/* The language of a code block: a fence's info (`php`, `.php`, `{.php}`,
 * first word), or an indented block's first line `[php]`, which goes. */
static cmark_node *md_visit_code(md *m, cmark_node *n) {
  int flen, foff;
  char fch;
  const char *lang = "";
  size_t lang_len = 0;
  if (cmark_node_get_fenced(n, &flen, &foff, &fch)) {
    const char *info = cmark_node_get_fence_info(n);
    size_t i = 0;
    while (info[i] && !md_is_space(info[i]))
      i++;
    lang = info;
    lang_len = i;
    if (lang_len && lang[0] == '{')
      lang++, lang_len--;
    if (lang_len && lang[lang_len - 1] == '}')
      lang_len--;
    if (lang_len && lang[0] == '.')
      lang++, lang_len--;
    lang = oc_arena_strndup(m->a, lang, lang_len);
  } else {
    const char *code = cmark_node_get_literal(n);
    const char *eol = strchr(code, '\n');
    size_t first = eol ? (size_t)(eol - code) : strlen(code);
    while (first && md_is_space(code[first - 1]))
      first--;
    if (first >= 3 && code[0] == '[' && code[first - 1] == ']') {
      const char *w = code + 1;
      size_t wl = first - 2;
      /* `[code php]`, as Easybook's documentation writes it. */
      if (wl > 5 && memcmp(w, "code ", 5) == 0)
        w += 5, wl -= 5;
      bool word = wl > 0;
      for (size_t i = 0; i < wl; i++)
        word = word && !md_is_space(w[i]) && w[i] != '[' && w[i] != ']';
      if (word) {
        if (!(wl == 4 && memcmp(w, "code", 4) == 0)) {
          lang = oc_arena_strndup(m->a, w, wl);
          lang_len = wl;
        }
        m->tmp.len = 0;
        oc_sb_adds(&m->tmp, eol ? eol + 1 : "");
        cmark_node_set_literal(n, oc_sb_cstr(&m->tmp));
      }
    }
  }
  cmark_node_set_fence_info(n, lang);

  m->sb.len = 0;
  const char *hl = NULL;
  if (lang_len && m->opt->hooks.highlight) {
    const char *code = cmark_node_get_literal(n);
    int line = cmark_node_get_start_line(n);
    hl = m->opt->hooks.highlight(m->opt->hooks.user, lang, code, strlen(code),
                                 md_line(m, line));
  }
  if (hl) {
    oc_sb_adds(&m->sb, "<pre><code class=\"language-");
    md_add_escaped(&m->sb, lang, lang_len);
    oc_sb_adds(&m->sb, "\">");
    oc_sb_adds(&m->sb, hl);
    oc_sb_adds(&m->sb, "</code></pre>");
  } else {
    md_add_inner(m, &m->sb, n, "", "");
  }
  const char *inner = md_sb_copy(&m->sb);
  const char *html = NULL;
  if (m->opt->hooks.code_html)
    html = m->opt->hooks.code_html(m->opt->hooks.user, lang, inner);
  if (!html) {
    m->sb.len = 0;
    oc_sb_adds(&m->sb, "<div class=\"code");
    if (lang_len) {
      oc_sb_adds(&m->sb, " ");
      md_add_escaped(&m->sb, lang, lang_len);
    }
    oc_sb_adds(&m->sb, "\">");
    oc_sb_adds(&m->sb, inner);
    oc_sb_adds(&m->sb, "</div>");
    html = oc_sb_cstr(&m->sb);
  }
  return md_replace_block(n, html);
}

/* Drops the line breaks and spaces at one end of a paragraph (its start
 * with at_start, else its end). */
static void md_trim_edge(md *m, cmark_node *p, bool at_start) {
  cmark_node *c;
  while (
      (c = at_start ? cmark_node_first_child(p) : cmark_node_last_child(p))) {
    cmark_node_type t = cmark_node_get_type(c);
    if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK) {
      cmark_node_free(c);
      continue;
    }
    if (t != CMARK_NODE_TEXT)
      return;
    const char *s = cmark_node_get_literal(c);
    size_t from = 0, to = strlen(s);
    if (at_start)
      while (from < to && md_is_space(s[from]))
        from++;
    else
      while (to && md_is_space(s[to - 1]))
        to--;
    if (from < to) {
      if (to - from < strlen(s))
        md_set_text(m, c, s + from, to - from);
      return;
    }
    cmark_node_free(c);
  }
}

/* A page break inside a paragraph ends it: the text after it goes into a
 * paragraph of its own, and an emptied paragraph goes. Returns the break,
 * whose successor the walk visits next. */
static cmark_node *md_split_at_break(md *m, cmark_node *comment) {
  cmark_node *para = cmark_node_parent(comment);
  cmark_node *brk = md_custom_block(MD_PAGE_BREAK, NULL);
  cmark_node_insert_after(para, brk);
  cmark_node *rest = cmark_node_new(CMARK_NODE_PARAGRAPH);
  cmark_node *c;
  while ((c = cmark_node_next(comment)))
    cmark_node_append_child(rest, c);
  cmark_node_free(comment);
  /* Spaces and line breaks next to the break would only pad the text. */
  md_trim_edge(m, para, false);
  md_trim_edge(m, rest, true);
  if (cmark_node_first_child(rest))
    cmark_node_insert_after(brk, rest);
  else
    cmark_node_free(rest);
  if (!cmark_node_first_child(para))
    cmark_node_free(para);
  return brk;
}

/* Where the page finds a local image: the edition's images_base_dir in
 * place of a leading "images/", as Easybook did, or NULL when the url stays
 * as written. Raw HTML's <img> and Markdown's images alike. */
static const char *md_image_url(md *m, const char *url) {
  size_t p = md_prefix_len(url, "images/");
  if (!p || strcmp(m->images_dir, "images/") == 0)
    return NULL;
  return oc_arena_printf(m->a, "%s%s", m->images_dir, url + p);
}

static cmark_node *md_visit_image(md *m, cmark_node *n) {
  const char *url = md_resolve_image(m, n);
  if (!md_image_ok(m, url, md_node_line(m, n),
                   (unsigned)cmark_node_get_start_column(n)))
    return md_image_to_alt(m, n);
  if (md_is_local(url)) {
    bk_md_ref *r = MD_PUSH(m, m->images, m->nimages, m->cap_images);
    r->target = oc_arena_strndup(m->a, url, strlen(url));
    r->line = md_node_line(m, n);
    r->col = (unsigned)cmark_node_get_start_column(n);
    const char *moved = md_image_url(m, url);
    if (moved)
      cmark_node_set_url(n, moved);
  }
  if (md_is_decorative(m, n)) {
    cmark_node *c;
    while ((c = cmark_node_first_child(n)))
      cmark_node_free(c);
  }
  return n;
}

static void md_visit_note_ref(md *m, cmark_node **np) {
  cmark_node *n = *np;
  /* Its markup comes when the ids are known; until then it renders as
   * nothing, which is what a heading's title for the TOC wants. Raw HTML,
   * as table cells take no custom inline. */
  cmark_node *c = cmark_node_new(CMARK_NODE_HTML_INLINE);
  cmark_node_set_literal(c, "");
  if (!cmark_node_insert_before(n, c)) {
    cmark_node_free(c);
    return;
  }
  md_note_ref *r = MD_PUSH(m, m->refs, m->nrefs, m->cap_refs);
  r->number = atoi(cmark_node_get_literal(n));
  cmark_node_free(n);
  r->node = c;
  *np = c;
  for (cmark_node *p = cmark_node_parent(c); p; p = cmark_node_parent(p))
    if (cmark_node_get_type(p) == CMARK_NODE_HEADING) {
      m->headings[m->nheadings - 1].has_note = true;
      break;
    }
}

static cmark_node *md_visit_quote(md *m, cmark_node *n) {
  if (cmark_node_parent(n) != m->doc)
    return n;
  unsigned line = (unsigned)cmark_node_get_start_line(n);
  while (m->next_admon < m->nadmons && m->admons[m->next_admon].line < line)
    m->next_admon++;
  if (m->next_admon >= m->nadmons || m->admons[m->next_admon].line != line)
    return n;
  static const struct {
    char kind;
    const char *name;
  } kinds[] = {{'A', "aside"},    {'N', "note"},      {'W', "warning"},
               {'T', "tip"},      {'E', "error"},     {'I', "information"},
               {'Q', "question"}, {'D', "discussion"}};
  char kind = m->admons[m->next_admon++].kind;
  const char *name = "note";
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (kinds[i].kind == kind)
      name = kinds[i].name;
  const char *tag = kind == 'A' ? "aside" : "div";
  m->sb.len = 0;
  oc_sb_adds(&m->sb, "<");
  oc_sb_adds(&m->sb, tag);
  oc_sb_adds(&m->sb, " class=\"admonition ");
  oc_sb_adds(&m->sb, name);
  oc_sb_adds(&m->sb, "\"");
  /* Colour alone must not tell a warning from a tip: the kind's name, in
   * the book's language, is what assistive technology announces. */
  const char *label =
      m->opt->hooks.admonition_label
          ? m->opt->hooks.admonition_label(m->opt->hooks.user, name)
          : NULL;
  if (label && label[0]) {
    if (kind != 'A')
      oc_sb_adds(&m->sb, " role=\"note\"");
    oc_sb_adds(&m->sb, " aria-label=\"");
    md_add_escaped(&m->sb, label, strlen(label));
    oc_sb_adds(&m->sb, "\"");
  }
  oc_sb_adds(&m->sb, ">");
  char close[16];
  snprintf(close, sizeof close, "</%s>", tag);
  cmark_node *c = md_custom_block(oc_sb_cstr(&m->sb), close);
  cmark_node_insert_before(n, c);
  cmark_node *child;
  while ((child = cmark_node_first_child(n)))
    cmark_node_append_child(c, child);
  cmark_node_free(n);
  return c;
}

/* Visits n; returns the node that now stands in its place (the walk goes
 * on from there) and says whether to walk into it. */
static cmark_node *md_visit(md *m, cmark_node *n, bool *descend) {
  *descend = true;
  switch (cmark_node_get_type(n)) {
  case CMARK_NODE_BLOCK_QUOTE:
    return md_visit_quote(m, n);
  case CMARK_NODE_HEADING:
    md_visit_heading(m, n);
    return n;
  case CMARK_NODE_PARAGRAPH:
    return md_visit_paragraph(m, n, descend);
  case CMARK_NODE_CODE_BLOCK:
    *descend = false;
    return md_visit_code(m, n);
  case CMARK_NODE_HTML_BLOCK:
  case CMARK_NODE_HTML_INLINE: {
    *descend = false;
    const char *lit = cmark_node_get_literal(n);
    bool block = cmark_node_get_type(n) == CMARK_NODE_HTML_BLOCK;
    if (md_is_break_comment(lit)) {
      if (block)
        return md_replace_block(n, MD_PAGE_BREAK);
      cmark_node *para = cmark_node_parent(n);
      if (cmark_node_get_type(para) == CMARK_NODE_PARAGRAPH &&
          para != m->claimed_caption && para != m->last_caption)
        return md_split_at_break(m, n);
    }
    md_scan_html(m, lit, strlen(lit), md_node_line(m, n),
                 (unsigned)cmark_node_get_start_column(n));
    return n;
  }
  case CMARK_NODE_LINK: {
    const char *url = cmark_node_get_url(n);
    const char *why = bk_rawhtml_refused_url(m->a, url);
    if (why)
      return md_link_to_text(m, n, why);
    if (url[0] == '#' && url[1])
      md_add_link(m, url + 1, strlen(url + 1), md_node_line(m, n),
                  (unsigned)cmark_node_get_start_column(n));
    return n;
  }
  case CMARK_NODE_IMAGE:
    return md_visit_image(m, n);
  case CMARK_NODE_FOOTNOTE_REFERENCE:
    *descend = false;
    md_visit_note_ref(m, &n);
    return n;
  case CMARK_NODE_FOOTNOTE_DEFINITION:
    *(cmark_node **)MD_PUSH(m, m->notes, m->nnotes, m->cap_notes) = n;
    return n;
  case CMARK_NODE_TEXT:
  case CMARK_NODE_SOFTBREAK:
  case CMARK_NODE_LINEBREAK:
  case CMARK_NODE_CODE:
  case CMARK_NODE_THEMATIC_BREAK:
    *descend = false;
    return n;
  default:
    if (md_is_table(m, n))
      md_visit_table(m, n);
    return n;
  }
}

static void md_walk(md *m) {
  cmark_node *n = cmark_node_first_child(m->doc);
  while (n) {
    bool descend;
    n = md_visit(m, n, &descend);
    n = md_next(m->doc, n, descend);
  }
}

/* ---- after the walk: ids and markup --------------------------------- */

static void md_finish_headings(md *m) {
  for (size_t i = 0; i < m->nheadings; i++) {
    md_heading *h = &m->headings[i];
    char open[8], close[8];
    snprintf(open, sizeof open, "<h%d>", h->h.level);
    snprintf(close, sizeof close, "</h%d>", h->h.level);
    m->sb.len = 0;
    md_add_inner(m, &m->sb, h->node, open, close);
    h->h.title = md_sb_copy(&m->sb);
    m->sb.len = 0;
    md_add_plain(&m->sb, h->node);
    h->h.text = md_sb_copy(&m->sb);
    if (!h->h.id)
      h->h.id = md_generate_id(
          m, bk_slug(m->slugger, m->a, h->h.title, strlen(h->h.title)));
  }
}

static void md_heading_markup(md *m) {
  for (size_t i = 0; i < m->nheadings; i++) {
    md_heading *h = &m->headings[i];
    if (h->is_title) {
      cmark_node_free(h->node);
      continue;
    }
    m->sb.len = 0;
    oc_sb_adds(&m->sb, "<h");
    oc_sb_add_int(&m->sb, h->h.level);
    oc_sb_adds(&m->sb, " id=\"");
    md_add_escaped(&m->sb, h->h.id, strlen(h->h.id));
    oc_sb_adds(&m->sb, "\">");
    if (*h->h.label) {
      oc_sb_adds(&m->sb, "<span class=\"label\">");
      oc_sb_adds(&m->sb, h->h.label);
      oc_sb_adds(&m->sb, "</span> ");
    }
    if (h->has_note) {
      /* Rendered again now that the notes' references have markup. */
      char open[8], close[8];
      snprintf(open, sizeof open, "<h%d>", h->h.level);
      snprintf(close, sizeof close, "</h%d>", h->h.level);
      md_add_inner(m, &m->sb, h->node, open, close);
    } else {
      oc_sb_adds(&m->sb, h->h.title);
    }
    oc_sb_adds(&m->sb, "</h");
    oc_sb_add_int(&m->sb, h->h.level);
    oc_sb_adds(&m->sb, ">");
    md_replace_block(h->node, oc_sb_cstr(&m->sb));
  }
}

/* Default caption markup: the label in bold, then the caption. */
static void md_add_caption(oc_sb *b, const char *label, const char *caption) {
  if (!*label && !*caption)
    return;
  oc_sb_adds(b, "<figcaption class=\"caption\">");
  if (*label) {
    oc_sb_adds(b, "<strong class=\"label\">");
    oc_sb_adds(b, label);
    oc_sb_adds(b, "</strong>");
    if (*caption)
      oc_sb_adds(b, " ");
  }
  oc_sb_adds(b, caption);
  oc_sb_adds(b, "</figcaption>");
}

/* Trims the alt text's outer spaces, which gave the alignment. */
static void md_trim_alt(md *m, cmark_node *img) {
  cmark_node *first = cmark_node_first_child(img);
  if (first && cmark_node_get_type(first) == CMARK_NODE_TEXT) {
    const char *s = cmark_node_get_literal(first);
    size_t skip = 0;
    while (md_is_space(s[skip]))
      skip++;
    if (skip)
      md_set_text(m, first, s + skip, strlen(s + skip));
  }
  cmark_node *last = cmark_node_last_child(img);
  if (last && cmark_node_get_type(last) == CMARK_NODE_TEXT) {
    const char *s = cmark_node_get_literal(last);
    size_t n = strlen(s), keep = n;
    while (keep && md_is_space(s[keep - 1]))
      keep--;
    if (keep < n)
      md_set_text(m, last, s, keep);
  }
}

static void md_finish_figures(md *m) {
  const bk_md_hooks *hk = &m->opt->hooks;
  for (size_t i = 0; i < m->nfigures; i++) {
    md_figure *f = &m->figures[i];
    f->f.number = (int)i + 1;
    f->f.id = md_numbered_id(m, "figure", f->f.number);
    m->sb.len = 0;
    md_add_plain(&m->sb, f->img);
    const char *alt = oc_sb_cstr(&m->sb);
    size_t alt_len = m->sb.len;
    bool left = alt_len && md_is_space(alt[0]);
    bool right = alt_len && md_is_space(alt[alt_len - 1]);
    f->f.align = left && right ? "center"
                 : left        ? "left"
                 : right       ? "right"
                               : "";
    while (alt_len && md_is_space(*alt))
      alt++, alt_len--;
    while (alt_len && md_is_space(alt[alt_len - 1]))
      alt_len--;
    oc_sb cap;
    oc_sb_init(&cap, m->a, alt_len);
    md_add_escaped(&cap, alt, alt_len);
    f->f.caption = md_sb_copy(&cap);
    const char *url = cmark_node_get_url(f->img);
    f->f.src = oc_arena_strndup(m->a, url, strlen(url));
    const char *label =
        hk->figure_label ? hk->figure_label(hk->user, f->f.number) : NULL;
    f->f.label = label ? label : "";

    md_trim_alt(m, f->img);
    m->sb.len = 0;
    md_add_inner(m, &m->sb, f->img, "", "");
    const char *inner = md_sb_copy(&m->sb);
    const char *html =
        hk->figure_html ? hk->figure_html(hk->user, &f->f, inner) : NULL;
    if (!html) {
      m->sb.len = 0;
      oc_sb_adds(&m->sb, "<figure class=\"figure");
      if (*f->f.align) {
        oc_sb_adds(&m->sb, " ");
        oc_sb_adds(&m->sb, f->f.align);
      }
      oc_sb_adds(&m->sb, "\" id=\"");
      md_add_escaped(&m->sb, f->f.id, strlen(f->f.id));
      oc_sb_adds(&m->sb, "\">");
      oc_sb_adds(&m->sb, inner);
      md_add_caption(&m->sb, f->f.label, f->f.caption);
      oc_sb_adds(&m->sb, "</figure>");
      html = oc_sb_cstr(&m->sb);
    }
    md_replace_block(f->para, html);
  }
}

static void md_finish_tables(md *m) {
  const bk_md_hooks *hk = &m->opt->hooks;
  for (size_t i = 0; i < m->ntables; i++) {
    md_table *t = &m->tables[i];
    if (!t->t.id)
      t->t.id = md_numbered_id(m, "table", t->t.number);
    const char *label =
        hk->table_label ? hk->table_label(hk->user, t->t.number) : NULL;
    t->t.label = label ? label : "";
    m->sb.len = 0;
    if (t->caption) {
      md_add_inner(m, &m->sb, t->caption, "<p>", "</p>");
      cmark_node_free(t->caption);
    }
    t->t.caption = md_sb_copy(&m->sb);
    m->sb.len = 0;
    md_add_inner(m, &m->sb, t->node, "", "");
    const char *inner = md_sb_copy(&m->sb);
    const char *html =
        hk->table_html ? hk->table_html(hk->user, &t->t, inner) : NULL;
    if (!html) {
      m->sb.len = 0;
      oc_sb_adds(&m->sb, "<figure class=\"table\" id=\"");
      md_add_escaped(&m->sb, t->t.id, strlen(t->t.id));
      oc_sb_adds(&m->sb, "\">");
      md_add_caption(&m->sb, t->t.label, t->t.caption);
      oc_sb_adds(&m->sb, inner);
      oc_sb_adds(&m->sb, "</figure>");
      html = oc_sb_cstr(&m->sb);
    }
    md_replace_block(t->node, html);
  }
}

/* A footnote reference's markup: a link to its note. */
static void md_note_ref_markup(md *m, const md_note_ref *r,
                               const char *note_id) {
  m->sb.len = 0;
  oc_sb_adds(&m->sb, "<sup class=\"footnote-ref\"><a href=\"#");
  md_add_escaped(&m->sb, note_id, strlen(note_id));
  if (r->id) {
    oc_sb_adds(&m->sb, "\" id=\"");
    md_add_escaped(&m->sb, r->id, strlen(r->id));
  }
  oc_sb_adds(&m->sb, m->opt->epub
                         ? "\" epub:type=\"noteref\" role=\"doc-noteref\">"
                         : "\" role=\"doc-noteref\">");
  oc_sb_add_int(&m->sb, r->number);
  oc_sb_adds(&m->sb, "</a></sup>");
  cmark_node_set_literal(r->node, oc_sb_cstr(&m->sb));
}

/* Notes for the typesetter: each note's content takes the place of its
 * first reference, in an element the print theme floats to the foot of
 * the page (the engine numbers it); later references to the same note
 * stay links to it. */
static void md_page_notes(md *m, const char **note_ids,
                          const size_t *first_ref) {
  for (size_t i = 0; i < m->nnotes; i++) {
    if (first_ref[i] == SIZE_MAX) {
      cmark_node_free(m->notes[i]);
      continue;
    }
    oc_sb body;
    oc_sb_init(&body, m->a, 256);
    oc_sb_adds(&body, "<span class=\"footnote\" id=\"");
    md_add_escaped(&body, note_ids[i], strlen(note_ids[i]));
    oc_sb_adds(&body, "\">");
    for (cmark_node *c = cmark_node_first_child(m->notes[i]); c;
         c = cmark_node_next(c)) {
      char *html = md_render_node(m, c);
      size_t len = strlen(html);
      while (len && html[len - 1] == '\n')
        len--;
      oc_sb_add(&body, html, len);
      free(html);
    }
    oc_sb_adds(&body, "</span>");
    cmark_node_set_literal(m->refs[first_ref[i]].node, oc_sb_cstr(&body));
    cmark_node_free(m->notes[i]);
  }
}

/* A note links back to its first references only, as a reader can follow
 * a few: a note referenced a million times carried a million links (and
 * its references as many ids). */
#define MD_MAX_BACKLINKS 10

/* Footnotes: ids first (the references' markup needs them), then the
 * notes as one list at the end, each with links back to its references. */
static void md_finish_notes(md *m) {
  if (!m->nnotes)
    return;
  const char **note_ids = oc_arena_calloc(m->a, m->nnotes, sizeof *note_ids);
  for (size_t i = 0; i < m->nnotes; i++)
    note_ids[i] = md_numbered_id(m, "fn", (long)i + 1);
  /* Each note's references, in the order of the text: a chain through
   * next_ref from first_ref (SIZE_MAX ends it). */
  size_t *first_ref = oc_arena_alloc(m->a, m->nnotes * sizeof(size_t));
  size_t *next_ref = oc_arena_calloc(m->a, m->nrefs + 1, sizeof(size_t));
  for (size_t i = 0; i < m->nnotes; i++)
    first_ref[i] = SIZE_MAX;
  for (size_t i = m->nrefs; i-- > 0;) {
    md_note_ref *r = &m->refs[i];
    if (r->number < 1 || (size_t)r->number > m->nnotes)
      continue;
    next_ref[i] = first_ref[r->number - 1];
    first_ref[r->number - 1] = i;
  }
  /* Only the references a note links back to need an id. */
  size_t *nrefs = oc_arena_calloc(m->a, m->nnotes, sizeof *nrefs);
  for (size_t i = 0; i < m->nrefs; i++) {
    md_note_ref *r = &m->refs[i];
    if (r->number < 1 || (size_t)r->number > m->nnotes)
      continue;
    if (nrefs[r->number - 1]++ < MD_MAX_BACKLINKS)
      r->id = md_numbered_id(m, "fnref", r->number);
    md_note_ref_markup(m, r, note_ids[r->number - 1]);
  }

  if (m->opt->page_notes) {
    md_page_notes(m, note_ids, first_ref);
    return;
  }
  /* EPUB readers show a note in a pop-up when it is an aside marked as a
   * footnote; a list cannot hold asides, so there each note carries its
   * number itself. */
  bool epub = m->opt->epub;
  cmark_node *section = md_custom_block(
      epub ? "<div class=\"footnotes\" role=\"doc-endnotes\">"
           : "<div class=\"footnotes\" role=\"doc-endnotes\">\n<ol>",
      epub ? "</div>" : "</ol>\n</div>");
  cmark_node_append_child(m->doc, section);
  for (size_t i = 0; i < m->nnotes; i++) {
    m->sb.len = 0;
    oc_sb_adds(&m->sb,
               epub ? "<aside epub:type=\"footnote\" role=\"doc-footnote\" "
                      "class=\"footnote\" id=\""
                    : "<li id=\"");
    md_add_escaped(&m->sb, note_ids[i], strlen(note_ids[i]));
    oc_sb_adds(&m->sb, "\">");
    cmark_node *li =
        md_custom_block(oc_sb_cstr(&m->sb), epub ? "</aside>" : "</li>");
    if (epub) {
      /* The number opens the note's first paragraph. */
      cmark_node *first = cmark_node_first_child(m->notes[i]);
      m->sb.len = 0;
      oc_sb_adds(&m->sb, "<span class=\"footnote-number\">");
      oc_sb_add_int(&m->sb, (long)i + 1);
      oc_sb_adds(&m->sb, ".</span> ");
      cmark_node *num = cmark_node_new(CMARK_NODE_CUSTOM_INLINE);
      cmark_node_set_on_enter(num, oc_sb_cstr(&m->sb));
      if (first && cmark_node_get_type(first) == CMARK_NODE_PARAGRAPH)
        cmark_node_prepend_child(first, num);
      else
        cmark_node_free(num);
    }
    cmark_node_append_child(section, li);
    cmark_node *c;
    while ((c = cmark_node_first_child(m->notes[i])))
      cmark_node_append_child(li, c);
    cmark_node_free(m->notes[i]);

    /* A note can lose its only reference when that sat in a duplicate
     * definition, which cmark drops: then it has no link back. */
    if (first_ref[i] == SIZE_MAX)
      continue;
    m->sb.len = 0;
    int seen = 0;
    for (size_t r = first_ref[i]; r != SIZE_MAX && seen < MD_MAX_BACKLINKS;
         r = next_ref[r]) {
      seen++;
      oc_sb_adds(&m->sb, " <a href=\"#");
      md_add_escaped(&m->sb, m->refs[r].id, strlen(m->refs[r].id));
      const char *back = m->opt->backref_label && m->opt->backref_label[0]
                             ? m->opt->backref_label
                             : "Back to the text";
      oc_sb_adds(&m->sb, "\" class=\"footnote-backref\" role=\"doc-backlink\" "
                         "aria-label=\"");
      md_add_escaped(&m->sb, back, strlen(back));
      oc_sb_adds(&m->sb, "\">\xE2\x86\xA9");
      if (seen > 1) {
        oc_sb_adds(&m->sb, "<sup>");
        oc_sb_add_int(&m->sb, seen);
        oc_sb_adds(&m->sb, "</sup>");
      }
      oc_sb_adds(&m->sb, "</a>");
    }
    /* Inside the note's last paragraph, where readers look for it. */
    cmark_node *last = cmark_node_last_child(li);
    if (last && cmark_node_get_type(last) == CMARK_NODE_PARAGRAPH) {
      cmark_node *back = cmark_node_new(CMARK_NODE_CUSTOM_INLINE);
      cmark_node_set_on_enter(back, oc_sb_cstr(&m->sb));
      cmark_node_append_child(last, back);
    } else {
      cmark_node_append_child(li,
                              md_custom_block(oc_sb_cstr(&m->sb) + 1, NULL));
    }
  }
}

/* ---- nesting --------------------------------------------------------- */

/* Lists and block quotes nested deeper than this are set at this level:
 * every edition then stays within what readers, libxml2 (256 elements)
 * and the typesetter nest. */
#define MD_MAX_NESTING 16

static bool md_is_nesting(cmark_node_type t) {
  return t == CMARK_NODE_LIST || t == CMARK_NODE_ITEM ||
         t == CMARK_NODE_BLOCK_QUOTE;
}

/* Moves the blocks inside the too-deep container x (its paragraphs, code,
 * headings…, out of every list, item and quote) before it, in order, and
 * drops x. */
static void md_flatten(md *m, cmark_node *x) {
  cmark_node **blocks = NULL;
  size_t n = 0, cap = 0;
  cmark_iter *it = cmark_iter_new(x);
  cmark_event_type ev;
  while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
    cmark_node *b = cmark_iter_get_node(it);
    cmark_node_type t = cmark_node_get_type(b);
    if (ev != CMARK_EVENT_ENTER || b == x || md_is_nesting(t) ||
        (t & CMARK_NODE_TYPE_MASK) != CMARK_NODE_TYPE_BLOCK ||
        !md_is_nesting(cmark_node_get_type(cmark_node_parent(b))))
      continue;
    blocks = oc_arena_grow_array(m->a, blocks, n, &cap, n + 1, sizeof *blocks);
    blocks[n++] = b;
  }
  cmark_iter_free(it);
  for (size_t i = 0; i < n; i++)
    cmark_node_insert_before(x, blocks[i]);
  cmark_node_free(x);
}

/* The nodes for which counts() holds that stand inside max others of
 * them, in document order: the outermost of what is too deep. */
static cmark_node **md_too_deep(md *m, bool (*counts)(cmark_node *), int max,
                                size_t *n) {
  cmark_node **deep = NULL;
  size_t cap = 0;
  int depth = 0;
  *n = 0;
  cmark_iter *it = cmark_iter_new(m->doc);
  cmark_event_type ev;
  while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
    cmark_node *x = cmark_iter_get_node(it);
    if (!counts(x))
      continue;
    if (ev == CMARK_EVENT_EXIT) {
      depth--;
    } else if (++depth == max + 1) {
      deep = oc_arena_grow_array(m->a, deep, *n, &cap, *n + 1, sizeof *deep);
      deep[(*n)++] = x;
    }
  }
  cmark_iter_free(it);
  return deep;
}

static bool md_is_list_or_quote(cmark_node *x) {
  cmark_node_type t = cmark_node_get_type(x);
  return t == CMARK_NODE_LIST || t == CMARK_NODE_BLOCK_QUOTE;
}

static void md_limit_nesting(md *m) {
  size_t n;
  cmark_node **deep = md_too_deep(m, md_is_list_or_quote, MD_MAX_NESTING, &n);
  for (size_t i = 0; i < n; i++) {
    oc_report(m->opt->report, OC_WARNING, md_file(m), md_node_line(m, deep[i]),
              (unsigned)cmark_node_get_start_column(deep[i]),
              "lists and quotes nested more than %d deep: what is deeper is "
              "set at level %d",
              MD_MAX_NESTING, MD_MAX_NESTING);
    md_flatten(m, deep[i]);
  }
}

/* Emphasis, strikethrough and links nested deeper than this lose their
 * tags, their text kept where it stands: what is deeper than Markdown
 * sets on purpose (***a***) is a run of marks, and every edition would
 * nest it (25,000 levels from 50,000 '*'), past what XHTML readers take. */
#define MD_MAX_INLINE_NESTING 16

static bool md_is_inline_nesting(cmark_node *x) {
  cmark_node_type t = cmark_node_get_type(x);
  return (t & CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_INLINE &&
         t != CMARK_NODE_IMAGE && cmark_node_first_child(x);
}

/* Replaces x and every nesting inline inside it by their children. */
static void md_unwrap_inlines(md *m, cmark_node *x) {
  cmark_node **all = NULL;
  size_t n = 0, cap = 0;
  cmark_iter *it = cmark_iter_new(x);
  cmark_event_type ev;
  while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
    cmark_node *k = cmark_iter_get_node(it);
    if (ev == CMARK_EVENT_ENTER && md_is_inline_nesting(k)) {
      all = oc_arena_grow_array(m->a, all, n, &cap, n + 1, sizeof *all);
      all[n++] = k;
    }
  }
  cmark_iter_free(it);
  /* outermost first: each one's parent is then no deeper than x's */
  for (size_t i = 0; i < n; i++) {
    cmark_node *k;
    while ((k = cmark_node_first_child(all[i])))
      cmark_node_insert_before(all[i], k);
    cmark_node_free(all[i]);
  }
}

static void md_limit_inline_nesting(md *m) {
  size_t n;
  cmark_node **deep =
      md_too_deep(m, md_is_inline_nesting, MD_MAX_INLINE_NESTING, &n);
  for (size_t i = 0; i < n; i++) {
    oc_report(m->opt->report, OC_WARNING, md_file(m), md_node_line(m, deep[i]),
              (unsigned)cmark_node_get_start_column(deep[i]),
              "emphasis and links nested more than %d deep: the deeper ones "
              "are left out, their text kept",
              MD_MAX_INLINE_NESTING);
    md_unwrap_inlines(m, deep[i]);
  }
}

/* ---- raw HTML --------------------------------------------------------- */

static unsigned md_raw_line(void *user, cmark_node *n) {
  return md_node_line(user, n);
}

/* An <img> of raw HTML: checked as Markdown's images are, and listed with
 * them to be copied. */
static bool md_raw_image(void *user, const char *src, unsigned line,
                         unsigned col, const char **url) {
  md *m = user;
  const char *written = src;
  src = md_image_src(m, src);
  if (!md_image_ok(m, src, line, col))
    return false;
  *url = md_image_url(m, src);
  if (!*url && src != written)
    *url = src;
  bk_md_ref *r = MD_PUSH(m, m->images, m->nimages, m->cap_images);
  r->target = oc_arena_strndup(m->a, src, strlen(src));
  r->line = line;
  r->col = col;
  return true;
}

/* ---- dead links -------------------------------------------------------- */

/* The HTML here is the module's own output (raw HTML made well-formed):
 * every '<' starts a tag or a comment, attribute values are quoted. */
const char *bk_md_unlink(oc_arena *a, const char *html,
                         bool (*dead)(void *user, const char *id, size_t len),
                         void *user) {
  oc_sb b;
  oc_sb_init(&b, a, 0);
  bool *drop = NULL; /* per open <a>: whether its tags go */
  size_t depth = 0, cap = 0;
  bool changed = false;
  const char *p = html, *from = html;
  while ((p = strchr(p, '<'))) {
    if (!strncmp(p, "<!--", 4)) {
      const char *e = strstr(p + 4, "-->");
      p = e ? e + 3 : p + strlen(p);
      continue;
    }
    const char *end = p + 1;
    char q = 0;
    while (*end && (q || *end != '>')) {
      if (q && *end == q)
        q = 0;
      else if (!q && (*end == '"' || *end == '\''))
        q = *end;
      end++;
    }
    if (!*end)
      break;
    end++;
    bool open = p[1] == 'a' && (p[2] == ' ' || p[2] == '>');
    bool close = !strncmp(p, "</a>", 4);
    bool gone = false;
    if (open) {
      const char *h = strstr(p, " href=\"#");
      if (h && h < end) {
        h += 8;
        const char *hq = strchr(h, '"');
        gone = hq && hq < end && dead(user, h, (size_t)(hq - h));
      }
      drop = oc_arena_grow_array(a, drop, depth, &cap, depth + 1, sizeof *drop);
      drop[depth++] = gone;
    } else if (close && depth) {
      gone = drop[--depth];
    }
    if (gone) {
      if (!changed)
        oc_sb_init(&b, a, strlen(html));
      changed = true;
      oc_sb_add(&b, from, (size_t)(p - from));
      from = end;
    }
    p = end;
  }
  if (!changed)
    return html;
  oc_sb_adds(&b, from);
  return oc_sb_cstr(&b);
}

/* ---- entry point ---------------------------------------------------- */

int bk_md_render(oc_arena *a, const char *src, size_t len,
                 const bk_md_options *opt, bk_md_result *out) {
  memset(out, 0, sizeof *out);
  md m;
  memset(&m, 0, sizeof m);
  m.a = a;
  m.opt = opt;
  m.prefix = opt->id_prefix ? opt->id_prefix : "";
  m.images_dir = opt->images_base_dir ? opt->images_base_dir : "images/";
  m.line_offset = opt->first_line > 1 ? opt->first_line - 1 : 0;
  oc_sb_init(&m.sb, a, 256);
  oc_sb_init(&m.tmp, a, 256);
  m.idset = opt->ids ? opt->ids : bk_idset_new(a);

  if (!md_check_utf8(&m, src, len) || !md_check_inline_work(&m, src, len))
    return -1;
  md_scan_admonitions(&m, src, len);
  char *text = NULL;
  size_t text_len = len;
  if (m.nprefixes || m.ninserted) {
    text = md_rewrite(&m, src, len, &text_len);
  }

  cmark_gfm_core_extensions_ensure_registered();
  m.parser = cmark_parser_new(MD_CMARK_OPTIONS);
  static const char *const extensions[] = {"table", "strikethrough", "autolink",
                                           "tasklist"};
  for (size_t i = 0; i < sizeof extensions / sizeof extensions[0]; i++) {
    cmark_syntax_extension *ext = cmark_find_syntax_extension(extensions[i]);
    if (ext)
      cmark_parser_attach_syntax_extension(m.parser, ext);
  }
  cmark_parser_feed(m.parser, text ? text : src, text_len);
  m.doc = cmark_parser_finish(m.parser);
  free(text);

  md_limit_nesting(&m);
  md_limit_inline_nesting(&m);
  bk_rawhtml_ctx raw = {a, md_file(&m), opt->report, &m, md_raw_line,
                        md_raw_image};
  bk_rawhtml_clean(m.doc, &raw);

  bk_slugger *own_slugger = opt->slugger ? NULL : bk_slugger_new();
  m.slugger = opt->slugger ? opt->slugger : own_slugger;
  if (!md_is_id(m.prefix))
    m.prefix = bk_slug(m.slugger, a, m.prefix, strlen(m.prefix));
  md_walk(&m);
  /* Headings' titles first, while footnote references render as nothing;
   * then the references get their markup before anything holding one
   * (a table, a heading) is rendered. */
  md_finish_headings(&m);
  md_finish_notes(&m);
  md_finish_figures(&m);
  md_finish_tables(&m);
  md_heading_markup(&m);

  char *html = md_render_node(&m, m.doc);
  out->html_len = strlen(html);
  out->html = oc_arena_strndup(a, html, out->html_len);
  free(html);
  cmark_node_free(m.doc);
  cmark_parser_free(m.parser);
  bk_slugger_free(own_slugger);

  out->headings = oc_arena_calloc(a, m.nheadings, sizeof *out->headings);
  for (size_t i = 0; i < m.nheadings; i++)
    out->headings[i] = m.headings[i].h;
  out->nheadings = m.nheadings;
  if (m.nheadings && m.headings[0].is_title) {
    out->title = m.headings[0].h.title;
    out->title_text = m.headings[0].h.text;
    out->title_id = m.headings[0].h.id;
  }
  out->figures = oc_arena_calloc(a, m.nfigures, sizeof *out->figures);
  for (size_t i = 0; i < m.nfigures; i++)
    out->figures[i] = m.figures[i].f;
  out->nfigures = m.nfigures;
  out->tables = oc_arena_calloc(a, m.ntables, sizeof *out->tables);
  for (size_t i = 0; i < m.ntables; i++)
    out->tables[i] = m.tables[i].t;
  out->ntables = m.ntables;
  out->ids = m.ids;
  out->nids = m.nids;
  out->links = m.links;
  out->nlinks = m.nlinks;
  out->images = m.images;
  out->nimages = m.nimages;
  return 0;
}

const char *bk_md_escape(oc_arena *a, const char *text, size_t len) {
  oc_sb b;
  oc_sb_init(&b, a, len + 1);
  md_add_escaped(&b, text, len);
  return oc_sb_cstr(&b);
}

/* ---- copying a result ------------------------------------------------ */

static const char *dup_str(oc_arena *a, const char *s) {
  return s ? oc_arena_strndup(a, s, strlen(s)) : NULL;
}

static void *dup_array(oc_arena *a, const void *p, size_t n, size_t size) {
  if (!n)
    return NULL;
  void *q = oc_arena_alloc(a, oc_size_mul(n, size));
  memcpy(q, p, n * size);
  return q;
}

void bk_md_result_copy(oc_arena *a, const bk_md_result *from,
                       bk_md_result *to) {
  *to = *from;
  to->html = oc_arena_strndup(a, from->html ? from->html : "", from->html_len);
  to->title = dup_str(a, from->title);
  to->title_text = dup_str(a, from->title_text);
  to->title_id = dup_str(a, from->title_id);
  to->headings =
      dup_array(a, from->headings, from->nheadings, sizeof *from->headings);
  for (size_t i = 0; i < from->nheadings; i++) {
    bk_md_heading *h = &to->headings[i];
    h->id = dup_str(a, h->id);
    h->title = dup_str(a, h->title);
    h->text = dup_str(a, h->text);
    h->label = dup_str(a, h->label);
  }
  to->figures = dup_array(a, from->figures, from->nfigures, sizeof *from->figures);
  for (size_t i = 0; i < from->nfigures; i++) {
    bk_md_figure *f = &to->figures[i];
    f->id = dup_str(a, f->id);
    f->caption = dup_str(a, f->caption);
    f->label = dup_str(a, f->label);
    f->align = dup_str(a, f->align);
    f->src = dup_str(a, f->src);
  }
  to->tables = dup_array(a, from->tables, from->ntables, sizeof *from->tables);
  for (size_t i = 0; i < from->ntables; i++) {
    bk_md_table *t = &to->tables[i];
    t->id = dup_str(a, t->id);
    t->caption = dup_str(a, t->caption);
    t->label = dup_str(a, t->label);
  }
  to->ids = dup_array(a, from->ids, from->nids, sizeof *from->ids);
  for (size_t i = 0; i < from->nids; i++)
    to->ids[i] = dup_str(a, to->ids[i]);
  to->links = dup_array(a, from->links, from->nlinks, sizeof *from->links);
  for (size_t i = 0; i < from->nlinks; i++)
    to->links[i].target = dup_str(a, to->links[i].target);
  to->images = dup_array(a, from->images, from->nimages, sizeof *from->images);
  for (size_t i = 0; i < from->nimages; i++)
    to->images[i].target = dup_str(a, to->images[i].target);
}
