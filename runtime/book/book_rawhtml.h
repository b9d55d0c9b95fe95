/* Raw HTML of a Markdown file (cmark-gfm's HTML blocks and inline HTML)
 * made well-formed and safe, for every edition alike (book_rawhtml.c).
 *
 * Raw HTML is read by libxml2's HTML parser one container at a time (the
 * document, a block quote, a list item, a paragraph, a heading, a table
 * cell, an emphasis…), the Markdown between its pieces standing in as
 * placeholders, so that a <b> opened in one inline node and closed in
 * another is one element. When a container's raw HTML is already
 * well-formed XML of known HTML elements with nothing refused, it is left
 * byte for byte as written (SVG and MathML are always written again, in
 * their namespaces); otherwise each raw node is written again from
 * the parse as XHTML that is valid HTML5 too (void elements as <br />,
 * every element closed, attributes quoted), and each mistake is a warning
 * at its line:
 *  - an element name HTML does not have (`<your-project-dir>`) is printed
 *    as text;
 *  - elements an EPUB content document may not hold (script, style,
 *    iframe, object, embed, form controls, head elements) are removed with
 *    their content; obsolete presentational ones (center, font…) and
 *    form, button, html and body lose their tags and keep their content;
 *  - event attributes (onclick…) are removed, and URLs in href, src and
 *    the like that bk_rawhtml_refused_url() refuses (javascript:, data:,
 *    file:, absolute paths…);
 *  - SVG and MathML are kept to allow-lists of elements and attributes
 *    (scripts, styles, animations of href, references outside the
 *    drawing, text where they show none removed) and declared in their
 *    namespaces; a <foreignObject>'s content is cleaned as HTML;
 *  - a style attribute's declarations that fetch (url() but url(#id)),
 *    srcset, xmlns and undeclared prefixes are removed;
 *  - an element left open at the end of its container is closed there
 *    (elements whose end tag HTML makes optional, p or li, silently);
 *    one that cannot hold Markdown's blocks (span, em, a, p, h1, ul…)
 *    and is left open before them is closed at the end of its HTML block,
 *    before them (a div wrapping Markdown stays as written);
 *  - an end tag that closes nothing is dropped;
 *  - a comment left open ends at the end of its raw HTML block;
 *  - an <img> whose local file the image hook refuses becomes its alt
 *    text. */
#ifndef OCTAVO_BOOK_RAWHTML_H
#define OCTAVO_BOOK_RAWHTML_H

#include <stdbool.h>

#include <cmark-gfm.h>

#include "oc_arena.h"
#include "oc_diag.h"

typedef struct bk_rawhtml_ctx {
  oc_arena *a;
  const char *file; /* for messages */
  const oc_reporter *report;
  void *user;
  /* The line of the file where node n starts. */
  unsigned (*line_of)(void *user, cmark_node *n);
  /* A local image (no URL scheme) of an <img src>: true to keep it, with
   * *url set to the src the page uses when it differs (the edition's
   * images_base_dir, as for a Markdown image); false after the hook
   * reported why not (its alt text then stands in). NULL: every image is
   * kept as it is. */
  bool (*image)(void *user, const char *src, unsigned line, unsigned col,
                const char **url);
} bk_rawhtml_ctx;

/* Cleans every container of doc that holds raw HTML, in place. */
void bk_rawhtml_clean(cmark_node *doc, const bk_rawhtml_ctx *c);

/* True when src is a local path (no URL scheme, not //host/…). */
bool bk_rawhtml_is_local(const char *url);

/* NULL when an edition can use url (after the entity decoding the caller
 * did, ignoring the spaces and control characters a browser ignores);
 * otherwise why not: "a script URL", "a data: URL", "a file: URL", "a URL
 * of the scheme 'x'" (any but http, https, mailto, tel, ftp, sms, geo,
 * irc, ircs, news, urn, xmpp), "an absolute path". The text is static or
 * in a. Markdown's links and images are held to it as raw HTML's are. */
const char *bk_rawhtml_refused_url(oc_arena *a, const char *url);

#endif
