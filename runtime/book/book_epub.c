/* The EPUB 3 writer: one XHTML content document per item, the navigation
 * document, an NCX for old readers, the package document, the cover, the
 * styles and images, zipped by libzip into Output/<edition>/book.epub with
 * `mimetype` first and stored, and fixed timestamps, so that the same book
 * gives the same bytes. The package's files come from the theme's EPUB
 * templates (themes/clean/epub), which a book may override. */
#include "book_site.h"

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zip.h>

#include "oc_file.h"
#include "oc_hash.h"
#include "oc_path.h"
#include "ts_font.h"

/* ---- the files of the package, in memory until zipped --------------- */

typedef struct entry {
  const char *name; /* path inside the zip */
  const char *data;
  size_t len;
} entry;

typedef struct manifest_item {
  const char *id, *href, *media_type, *properties;
} manifest_item;

typedef struct epub {
  bk_edition *e;
  entry *files;
  size_t nfiles, cfiles;
  manifest_item *items;
  size_t nitems, citems;
  tpl_map *hrefs; /* hrefs already in the manifest */
  bool has_images;
  bool has_cover;  /* the book's cover image, not the typographic page */
  tpl_list *spine; /* {idref, linear} maps, the reading order */
  /* For the landmarks: the first TOC page, the first chapter or part. */
  const char *toc_page, *body_page, *body_title;
  bool failed_xml; /* one message about XHTML per book is enough */
  bk_page_marks *marks; /* the printed pages (page_source), or NULL */
} epub;

static int epub_put(void *user, const char *rel, const char *data, size_t len) {
  epub *p = user;
  /* A zip entry is a path for whoever unpacks the package: plain names
   * only (no "OEBPS/css/../../x", the zip-slip). */
  const char *why = oc_relpath_problem(rel, strlen(rel));
  if (why) {
    oc_report(p->e->rep, OC_ERROR, "Output", 0, 0,
              "refusing to put '%s' in the EPUB package: the path %s", rel,
              why);
    return -1;
  }
  p->files = oc_arena_grow_array(p->e->a, p->files, p->nfiles, &p->cfiles,
                                 p->nfiles + 1, sizeof *p->files);
  p->files[p->nfiles++] = (entry){oc_arena_strndup(p->e->a, rel, strlen(rel)),
                                  oc_arena_strndup(p->e->a, data, len), len};
  return 0;
}

static void manifest_add(epub *p, const char *id, const char *href,
                         const char *media_type, const char *properties) {
  if (tpl_map_get_str(p->hrefs, href, strlen(href), NULL))
    return;
  tpl_map_set_str(p->e->a, p->hrefs, href, tpl_bool(true));
  p->items = oc_arena_grow_array(p->e->a, p->items, p->nitems, &p->citems,
                                 p->nitems + 1, sizeof *p->items);
  p->items[p->nitems++] =
      (manifest_item){id, href, media_type, properties ? properties : ""};
}

/* ---- images ---------------------------------------------------------- */

/* The media type EPUB 3 allows for an image, from its first bytes; NULL
 * when it is none of them (*webp set for WebP, which EPUB 3.3 allows only
 * as a foreign resource with a fallback). */
static const char *image_type(const char *d, size_t n, bool *webp) {
  const unsigned char *u = (const unsigned char *)d;
  *webp = false;
  if (n >= 8 && !memcmp(u, "\x89PNG\r\n\x1a\n", 8))
    return "image/png";
  if (n >= 3 && u[0] == 0xFF && u[1] == 0xD8 && u[2] == 0xFF)
    return "image/jpeg";
  if (n >= 6 && (!memcmp(u, "GIF87a", 6) || !memcmp(u, "GIF89a", 6)))
    return "image/gif";
  if (n >= 12 && !memcmp(u, "RIFF", 4) && !memcmp(u + 8, "WEBP", 4)) {
    *webp = true;
    return NULL;
  }
  /* SVG: XML text whose first element is <svg. */
  size_t k = n < 1024 ? n : 1024;
  for (size_t i = 0; i + 4 <= k; i++)
    if (!memcmp(d + i, "<svg", 4))
      return "image/svg+xml";
  return NULL;
}

static int check_image(void *user, const bk_item *it, const bk_md_ref *im,
                       const char *dest, const char *data, size_t len) {
  epub *p = user;
  bool webp;
  const char *type = image_type(data, len, &webp);
  const char *file = it->file ? it->file : "config.yml";
  if (!type) {
    oc_report(p->e->rep, OC_ERROR, file, im->line, im->col,
              webp ? "'%s' is a WebP image, which EPUB readers need not "
                     "show: convert it to PNG or JPEG"
                   : "'%s' is not a PNG, JPEG, GIF or SVG image, the kinds "
                     "EPUB readers show",
              im->target);
    return -1;
  }
  char id[32];
  snprintf(id, sizeof id, "image-%zu", p->nitems + 1);
  manifest_add(p, oc_arena_strndup(p->e->a, id, strlen(id)),
               oc_arena_strndup(p->e->a, dest, strlen(dest)), type, NULL);
  p->has_images = true;
  return 0;
}

/* Width and height of a PNG or JPEG (the cover's, for its page). */
static void image_size(const char *d, size_t n, long *w, long *h) {
  const unsigned char *u = (const unsigned char *)d;
  *w = *h = 0;
  if (n >= 24 && !memcmp(u, "\x89PNG", 4)) {
    *w = (long)u[16] << 24 | (long)u[17] << 16 | u[18] << 8 | u[19];
    *h = (long)u[20] << 24 | (long)u[21] << 16 | u[22] << 8 | u[23];
    return;
  }
  /* JPEG: walk the segments to the first start-of-frame. */
  size_t i = 2;
  while (i + 9 < n && u[i] == 0xFF) {
    unsigned char m = u[i + 1];
    size_t seg = (size_t)u[i + 2] << 8 | u[i + 3];
    if (m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC) {
      *h = (long)u[i + 5] << 8 | u[i + 6];
      *w = (long)u[i + 7] << 8 | u[i + 8];
      return;
    }
    i += 2 + seg;
  }
}

/* ---- XHTML ----------------------------------------------------------- */

/* Content documents must be well-formed XML: raw HTML in a book's Markdown
 * may not be. Reports the first problem of the book once. XML_PARSE_HUGE:
 * nesting is capped where the book is read, and a text node over 10 MB (a
 * long paragraph) is no mistake. */
static bool well_formed(epub *p, const bk_item *it, const char *name,
                        const char *xml, size_t len) {
  /* Parsed with no SAX callback: the check builds no tree, whose nodes
   * took a kilobyte or more for each footnote reference of a page. */
  xmlParserCtxtPtr ctxt = xmlCreateMemoryParserCtxt(xml, (int)len);
  if (!ctxt)
    return true;
  xmlSAXHandler none;
  memset(&none, 0, sizeof none);
  none.initialized = XML_SAX2_MAGIC;
  xmlSAXHandlerPtr own = ctxt->sax;
  ctxt->sax = &none;
  xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_NOERROR |
                              XML_PARSE_NOWARNING | XML_PARSE_HUGE);
  bk_xml_error fe = {0};
  xmlSetStructuredErrorFunc(&fe, bk_xml_keep_first);
  xmlParseDocument(ctxt);
  xmlSetStructuredErrorFunc(NULL, NULL);
  /* an undeclared prefix (xlink:href) breaks XML's namespaces only, which
   * readers refuse as well */
  bool ok = ctxt->wellFormed && ctxt->nsWellFormed;
  ctxt->sax = own;
  if (!ok && !p->failed_xml) {
    p->failed_xml = true;
    oc_report(p->e->rep, OC_ERROR, it && it->file ? it->file : name, 0, 0,
              "the EPUB page %s is not well-formed XHTML (line %d of the "
              "page: %s); HTML written in the Markdown must be XHTML in an "
              "EPUB: close every element, quote every attribute",
              name, fe.line, fe.seen ? fe.msg : "not well-formed");
  }
  xmlFreeParserCtxt(ctxt);
  return ok;
}

/* ---- the book's style sheet and what it uses ------------------------ */

/* The media type of a font or image a style sheet uses, from its bytes. */
static const char *resource_type(const char *d, size_t n) {
  bool webp;
  const char *img = image_type(d, n, &webp);
  if (img)
    return img;
  if (n >= 4 && !memcmp(d, "wOFF", 4))
    return "font/woff";
  if (n >= 4 && !memcmp(d, "wOF2", 4))
    return "font/woff2";
  if (n >= 4 && !memcmp(d, "OTTO", 4))
    return "font/otf";
  if (n >= 4 && (!memcmp(d, "\0\1\0\0", 4) || !memcmp(d, "true", 4)))
    return "font/ttf";
  return NULL;
}

/* Fonts and images that the book's style.css names with url(…), relative
 * to its folder, go into the package next to it (OEBPS/css/…) and into the
 * manifest, as the reading system needs them declared. */
static int put_css_resources(epub *p) {
  bk_edition *e = p->e;
  size_t len;
  char *css = oc_read_file(e->custom_css, &len);
  if (!css)
    return 0;
  const char *rel_css = e->custom_css + strlen(e->book_dir) + 1;
  char dir[512];
  snprintf(dir, sizeof dir, "%s", rel_css);
  char *slash = strrchr(dir, '/');
  if (slash)
    *slash = 0;
  int rc = 0;
  const char *seen = css;
  unsigned line = 1, col = 1;
  oc_sb fixed; /* the sheet without the fonts left out */
  oc_sb_init(&fixed, e->a, 0);
  size_t fixed_from = 0;
  for (const char *c = css; (c = strstr(c, "url("));) {
    const char *url_fn = c; /* the url( itself, replaced when left out */
    c += 4;
    while (*c == ' ' || *c == '"' || *c == '\'')
      c++;
    const char *url_at = c, *end = c;
    while (*end && *end != ')' && *end != '"' && *end != '\'' && *end != ' ')
      end++;
    char *url = oc_arena_strndup(e->a, c, (size_t)(end - c));
    c = end;
    char *cut = strpbrk(url, "?#");
    if (cut)
      *cut = 0;
    if (!url[0] || strstr(url, ":") || url[0] == '/')
      continue; /* data:, http:, absolute: not files of the book */
    for (; seen < url_at; seen++) /* where the url is, for messages */
      if (*seen == '\n')
        line++, col = 1;
      else if (((unsigned char)*seen & 0xC0) != 0x80)
        col++;
    bool missing = false;
    const char *abs = bk_book_path(e, dir, url, rel_css, line, col, &missing);
    if (!abs) {
      if (missing)
        oc_report(e->rep, OC_WARNING, rel_css, line, col,
                  "'%s' named in the style sheet is not in %s/", url, dir);
      else
        rc = -1;
      continue;
    }
    /* Its place in the package is where the reader resolves the url():
     * from OEBPS/css/, and it must stay inside OEBPS/. */
    char *href = oc_arena_printf(e->a, "css/%s", url);
    const char *why = oc_path_normalize(href)
                          ? oc_relpath_problem(href, strlen(href))
                          : "leaves the package's OEBPS/ folder";
    if (why) {
      oc_report(e->rep, OC_ERROR, rel_css, line, col,
                "url(%s) %s: an EPUB holds what its style sheet uses next "
                "to it; put the file in the style sheet's folder or below",
                url, why);
      rc = -1;
      continue;
    }
    size_t n;
    char *data = oc_read_file(abs, &n);
    const char *type = data ? resource_type(data, n) : NULL;
    const char *dot = strrchr(url, '.');
    bool font_name = dot && (!strcasecmp(dot, ".ttf") || !strcasecmp(dot, ".otf") ||
                             !strcasecmp(dot, ".woff") ||
                             !strcasecmp(dot, ".woff2"));
    if (data && ((type && !strncmp(type, "font/", 5)) || (!type && font_name)) &&
        !ts_font_data_usable(data, n)) {
      oc_report(e->rep, OC_WARNING, rel_css, line, col,
                "'%s' is not a usable font (truncated or corrupt): it is left "
                "out of the EPUB, and readers use another",
                url);
      free(data);
      /* the style sheet's url() gives way to a local() no reader finds */
      oc_sb_add(&fixed, css + fixed_from, (size_t)(url_fn - css) - fixed_from);
      oc_sb_adds(&fixed, "local(\"octavo-left-out\")");
      fixed_from = (size_t)(c - css);
      if (*c == '"' || *c == '\'')
        fixed_from++;
      while (css[fixed_from] && css[fixed_from] != ')')
        fixed_from++;
      if (css[fixed_from])
        fixed_from++;
      continue;
    }
    if (!type) {
      oc_report(e->rep, OC_ERROR, rel_css, line, col,
                "'%s' named in the style sheet is not a font (TrueType, "
                "OpenType, WOFF) or an image EPUB readers show",
                url);
      free(data);
      rc = -1;
      continue;
    }
    if (!tpl_map_get_str(p->hrefs, href, strlen(href), NULL)) {
      epub_put(p, oc_arena_printf(e->a, "OEBPS/%s", href), data, n);
      manifest_add(p, oc_arena_printf(e->a, "css-resource-%zu", p->nitems + 1),
                   href, type, NULL);
    }
    free(data);
  }
  if (fixed_from) {
    oc_sb_adds(&fixed, css + fixed_from);
    const char *name = oc_arena_printf(e->a, "OEBPS/css/styles.css");
    for (size_t i = 0; i < p->nfiles; i++)
      if (!strcmp(p->files[i].name, name)) {
        p->files[i].data = oc_sb_cstr(&fixed);
        p->files[i].len = fixed.len;
      }
  }
  free(css);
  return rc;
}

/* The manifest properties of a content document: EPUB requires "svg" and
 * "mathml" on the pages that hold them. */
static const char *page_properties(const char *html) {
  bool svg = strstr(html, "<svg") != NULL, math = strstr(html, "<math") != NULL;
  return svg && math ? "mathml svg" : svg ? "svg" : math ? "mathml" : NULL;
}

/* An EPUB holds its images: one from the web (src="http…") would make
 * the package invalid, so it is an error that says what to do. */
static bool remote_image(bk_edition *e, const bk_item *it, const char *html) {
  for (const char *p = html; (p = strstr(p, "<img ")); p++) {
    const char *end = strchr(p, '>');
    const char *src = strstr(p, " src=\"");
    if (!src || (end && src > end))
      continue;
    src += 6;
    if (strncmp(src, "http:", 5) && strncmp(src, "https:", 6) &&
        strncmp(src, "//", 2))
      continue;
    const char *q = strchr(src, '"');
    oc_report(e->rep, OC_ERROR, it->file ? it->file : "config.yml", 0, 0,
              "the image '%.*s' is on the web, and an EPUB must hold its "
              "images: save it in Contents/images/ and link to that",
              q ? (int)(q - src) : 80, src);
    return true;
  }
  return false;
}

/* ---- identifiers and dates ------------------------------------------ */

static uint64_t fnv64(uint64_t h, const char *s) {
  /* ^ 0xff separates "ab"+"c" from "a"+"bc" */
  return oc_hash_bytes(h, s, strlen(s)) ^ 0xff;
}

/* The edition's identifier: its ISBN, else a UUID (RFC 9562 version 8,
 * the custom kind) derived from title, author and edition name, so that it
 * stays the same from one publish to the next. */
static const char *identifier(bk_edition *e) {
  const char *isbn = e->ed->isbn;
  if (isbn[0]) {
    char digits[32];
    size_t n = 0;
    for (const char *c = isbn; *c && n < sizeof digits - 1; c++)
      if ((*c >= '0' && *c <= '9') || *c == 'X' || *c == 'x')
        digits[n++] = *c;
    digits[n] = 0;
    return oc_arena_printf(e->a, "urn:isbn:%s", digits);
  }
  const char *parts[] = {e->bk.title, e->bk.author, e->bk.edition, e->name};
  uint64_t a = OC_HASH_FNV_BASIS, b = 0x84222325cbf29ce4ULL;
  for (size_t i = 0; i < 4; i++) {
    a = fnv64(a, parts[i]);
    b = fnv64(b, parts[3 - i]);
  }
  unsigned char u[16];
  for (int i = 0; i < 8; i++) {
    u[i] = (unsigned char)(a >> (56 - 8 * i));
    u[8 + i] = (unsigned char)(b >> (56 - 8 * i));
  }
  u[6] = (unsigned char)((u[6] & 0x0F) | 0x80); /* version 8 */
  u[8] = (unsigned char)((u[8] & 0x3F) | 0x80); /* RFC variant */
  return oc_arena_printf(e->a,
                         "urn:uuid:%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
                         "%02x%02x%02x%02x%02x%02x",
                         u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8],
                         u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
}

/* ---- the TOC as a tree ---------------------------------------------- */

typedef struct tree_ctx {
  bk_edition *e;
  int play_order;
  int depth;
} tree_ctx;

/* Nests the flat TOC entries [i, nflat) whose level is above `level`
 * under their parents; returns the children list and advances *i. */
static tpl_value nest(tree_ctx *c, const bk_toc_entry *flat, size_t nflat,
                      size_t *i, int64_t level, int depth) {
  bk_edition *e = c->e;
  tpl_list *out = tpl_list_new(e->a, 0);
  size_t n = 0, cap = 0;
  tpl_value *v = NULL;
  while (*i < nflat) {
    const bk_toc_entry *en = &flat[*i];
    int64_t l = en->h.level;
    if (l <= level)
      break;
    (*i)++;
    tpl_map *m = tpl_map_new(e->a, 8);
    bk_set(e, m, "title", bk_html(e, en->h.title));
    bk_set(e, m, "label", bk_html(e, en->h.label));
    bk_set(e, m, "url", bk_s(e, en->url));
    bk_set(e, m, "level", tpl_int(l));
    c->play_order++;
    bk_set(e, m, "play_order", tpl_int(c->play_order));
    bk_set(e, m, "id",
           bk_s(e, oc_arena_printf(e->a, "navpoint-%d", c->play_order)));
    if (depth > c->depth)
      c->depth = depth;
    bk_set(e, m, "children", nest(c, flat, nflat, i, l, depth + 1));
    v = oc_arena_grow_array(e->a, v, n, &cap, n + 1, sizeof *v);
    v[n++] = tpl_map_value(m);
  }
  out->len = n;
  out->items = v;
  return tpl_list_value(out);
}

/* ---- the writer ------------------------------------------------------ */

static tpl_value str_list(bk_edition *e, const char *const *s, size_t n) {
  tpl_list *l = tpl_list_new(e->a, n);
  for (size_t i = 0; i < n; i++)
    l->items[i] = bk_s(e, s[i]);
  return tpl_list_value(l);
}

/* Finds the cover image as Easybook did: cover.jpg or cover.png in
 * Resources/Templates/<edition>/, <format>/, then Resources/Templates/. */
static const char *find_cover(bk_edition *e) {
  const char *dirs[] = {e->name, e->format, bk_format_alias(e), ""};
  /* Other kinds are looked for too, to say that they cannot be covers. */
  const char *names[] = {"cover.jpg", "cover.jpeg", "cover.png",
                         "cover.gif", "cover.svg",  "cover.webp"};
  for (size_t i = 0; i < 4; i++) {
    if (i == 2 && !dirs[2][0])
      continue;
    for (size_t k = 0; k < 6; k++) {
      const char *rel =
          oc_arena_printf(e->a, "Resources/Templates/%s%s%s", dirs[i],
                          dirs[i][0] ? "/" : "", names[k]);
      bool missing;
      const char *p = bk_book_path(e, "", rel, rel, 0, 0, &missing);
      if (p)
        return p;
    }
  }
  return NULL;
}

static int render_put(epub *p, const char *tpl, tpl_value vars,
                      const char *name) {
  size_t len;
  const char *out = bk_render(p->e, tpl, vars, &len);
  if (!out)
    return -1;
  return epub_put(p, name, out, len);
}

static int zip_all(epub *p, const char *path, const char *date) {
  bk_edition *e = p->e;
  int err = 0;
  zip_t *z = zip_open(path, ZIP_CREATE | ZIP_TRUNCATE, &err);
  if (!z) {
    oc_report(e->rep, OC_ERROR, "Output", 0, 0, "cannot create %s", path);
    return -1;
  }
  /* DOS date of the publication date, so the archive does not depend on
   * the clock or the time zone. */
  int y = 1980, mo = 1, d = 1;
  sscanf(date, "%d-%d-%d", &y, &mo, &d);
  if (y < 1980)
    y = 1980;
  zip_uint16_t dosdate = (zip_uint16_t)((y - 1980) << 9 | mo << 5 | d);
  int rc = 0;
  for (size_t i = 0; i < p->nfiles && rc == 0; i++) {
    const entry *f = &p->files[i];
    zip_source_t *src = zip_source_buffer(z, f->data, f->len, 0);
    zip_int64_t idx =
        src ? zip_file_add(z, f->name, src, ZIP_FL_ENC_UTF_8) : -1;
    if (idx < 0) {
      zip_source_free(src);
      rc = -1;
      break;
    }
    bool store = !strcmp(f->name, "mimetype");
    if (zip_set_file_compression(z, (zip_uint64_t)idx,
                                 store ? ZIP_CM_STORE : ZIP_CM_DEFLATE,
                                 store ? 0 : 6) != 0 ||
        zip_file_set_dostime(z, (zip_uint64_t)idx, 0, dosdate, 0) != 0)
      rc = -1;
  }
  if (rc != 0) {
    oc_report(e->rep, OC_ERROR, "Output", 0, 0, "cannot add to %s: %s", path,
              zip_strerror(z));
    zip_discard(z);
    return -1;
  }
  if (zip_close(z) != 0) {
    oc_report(e->rep, OC_ERROR, "Output", 0, 0, "cannot write %s: %s", path,
              zip_strerror(z));
    zip_discard(z);
    return -1;
  }
  return 0;
}

/* The cover: the book's image (cover-image.png or .jpg in the package),
 * else the theme's typographic page; cover.xhtml either way. */
static int put_cover(epub *p) {
  bk_edition *e = p->e;
  tpl_value cover = tpl_null();
  const char *cover_path = find_cover(e);
  if (cover_path) {
    size_t len;
    char *data = oc_read_file(cover_path, &len);
    bool webp;
    const char *type = data ? image_type(data, len, &webp) : NULL;
    if (!type || !strcmp(type, "image/gif") || !strcmp(type, "image/svg+xml")) {
      oc_report(e->rep, OC_ERROR, cover_path + strlen(e->book_dir) + 1, 0, 0,
                "the cover must be a JPEG or PNG image");
      free(data);
      return -1;
    }
    const char *href =
        !strcmp(type, "image/png") ? "cover-image.png" : "cover-image.jpg";
    long w, h;
    image_size(data, len, &w, &h);
    epub_put(p, oc_arena_printf(e->a, "OEBPS/%s", href), data, len);
    free(data);
    manifest_add(p, "cover-image", href, type, "cover-image");
    tpl_map *c = tpl_map_new(e->a, 4);
    bk_set(e, c, "src", bk_s(e, href));
    bk_set(e, c, "width", tpl_int(w ? w : 1600));
    bk_set(e, c, "height", tpl_int(h ? h : 2400));
    bk_set(e, c, "media_type", bk_s(e, type));
    cover = tpl_map_value(c);
    p->has_cover = true;
  }
  size_t len;
  const char *cover_doc =
      bk_render(e, "cover.twig", bk_vars1(e, "cover", cover), &len);
  if (cover_doc && p->marks)
    cover_doc =
        bk_pages_mark(p->marks, 0, "cover", "cover.xhtml", cover_doc, &len);
  if (!cover_doc || !well_formed(p, NULL, "cover.xhtml", cover_doc, len))
    return -1;
  epub_put(p, "OEBPS/cover.xhtml", cover_doc, len);
  manifest_add(p, "cover", "cover.xhtml", "application/xhtml+xml",
               strstr(cover_doc, "<svg") ? "svg" : NULL);
  return 0;
}

static tpl_value spine_ref(bk_edition *e, const char *idref, bool linear) {
  tpl_map *ref = tpl_map_new(e->a, 2);
  bk_set(e, ref, "idref", bk_s(e, idref));
  bk_set(e, ref, "linear", tpl_bool(linear));
  return tpl_map_value(ref);
}

/* One content document per page, in the spine after the cover; notes the
 * first TOC page and the first chapter or part for the landmarks. */
static int put_pages(epub *p, site *s) {
  bk_edition *e = p->e;
  int rc = 0;
  p->spine = tpl_list_new(e->a, s->npages + 1);
  p->spine->items[0] = spine_ref(e, "cover", true);
  for (size_t i = 0; i < s->npages; i++) {
    page *pg = &s->pages[i];
    tpl_map *pv = tpl_map_new(e->a, 4);
    bk_set(e, pv, "item", tpl_map_value(pg->record));
    bk_set(e, pv, "toc", s->toc);
    bk_set(e, pv, "previous", tpl_null());
    bk_set(e, pv, "next", tpl_null());
    size_t len;
    const char *html = bk_site_render_page(e, pg, pv, &len);
    if (!html) {
      rc = -1;
      continue;
    }
    html = bk_site_fix_links(s, html, pg);
    len = strlen(html);
    if (p->marks)
      html = bk_pages_mark(p->marks, i + 1, pg->item->slug, pg->file, html,
                           &len);
    if (remote_image(e, pg->item, html) ||
        !well_formed(p, pg->item, pg->file, html, len)) {
      rc = -1;
      continue;
    }
    epub_put(p, oc_arena_printf(e->a, "OEBPS/%s", pg->file), html, len);
    const char *id = oc_arena_printf(e->a, "page-%zu", i + 1);
    manifest_add(p, id, pg->file, "application/xhtml+xml",
                 page_properties(html));
    p->spine->items[i + 1] = spine_ref(e, id, true);
    if (!strcmp(pg->item->element, "toc") && !p->toc_page)
      p->toc_page = pg->file;
    if (!p->body_page && (!strcmp(pg->item->element, "chapter") ||
                          !strcmp(pg->item->element, "part"))) {
      p->body_page = pg->file;
      p->body_title = pg->item->title;
    }
  }
  return rc;
}

/* The nested TOC of the navigation document and the NCX. When no element
 * is listed in toc.elements the navigation document still needs entries:
 * one a page. */
static tpl_value toc_tree(bk_edition *e, site *s, tree_ctx *tc) {
  size_t at = 0;
  tpl_value tree = nest(tc, s->entries, s->nentries, &at, 0, 1);
  if (tree.u.list->len)
    return tree;
  bk_toc_entry *flat =
      oc_arena_alloc(e->a, (s->npages ? s->npages : 1) * sizeof *flat);
  for (size_t i = 0; i < s->npages; i++) {
    const bk_item *it = s->pages[i].item;
    flat[i] = (bk_toc_entry){
        {1, it->title[0] ? it->title : it->element, it->label, it->slug},
        s->pages[i].file};
  }
  at = 0;
  return nest(tc, flat, s->npages, &at, 0, 1);
}

/* The landmarks: the cover, the TOC (the navigation document when the book
 * has no TOC page) and the start of the body, when there is one. */
static tpl_value landmarks(epub *p) {
  bk_edition *e = p->e;
  tpl_list *marks = tpl_list_new(e->a, 3);
  size_t nm = 0;
  const char *mtype[] = {"cover", "toc", "bodymatter"};
  const char *mtitle[] = {bk_title(e, "cover"), bk_title(e, "toc"),
                          p->body_title ? p->body_title : ""};
  const char *murl[] = {"cover.xhtml", p->toc_page ? p->toc_page : "nav.xhtml",
                        p->body_page};
  for (size_t k = 0; k < 3; k++) {
    if (!murl[k])
      continue;
    tpl_map *m = tpl_map_new(e->a, 3);
    bk_set(e, m, "type", bk_s(e, mtype[k]));
    bk_set(e, m, "title", bk_html(e, mtitle[k][0] ? mtitle[k] : mtype[k]));
    bk_set(e, m, "url", bk_s(e, murl[k]));
    marks->items[nm++] = tpl_map_value(m);
  }
  marks->len = nm;
  return tpl_list_value(marks);
}

/* Navigation: nav.xhtml (the nested TOC and the landmarks), then the NCX
 * for old readers from the same tree. */
static int put_navigation(epub *p, site *s, const char *identifier) {
  bk_edition *e = p->e;
  tree_ctx tc = {e, 0, 1};
  tpl_value tree = toc_tree(e, s, &tc);
  tpl_map *nv = tpl_map_new(e->a, 2);
  bk_set(e, nv, "toc_tree", tree);
  bk_set(e, nv, "landmarks", landmarks(p));
  if (p->marks) {
    size_t guessed;
    bk_set(e, nv, "page_list", bk_pages_list(p->marks, &guessed));
    if (guessed)
      oc_report(e->rep, OC_NOTE, NULL, 0, 0,
                "edition '%s': %zu of the %zu printed pages of '%s' start "
                "with words not found in the e-book; their markers stand "
                "after the previous page's",
                e->name, guessed, bk_print_pages_count(e->pages_in),
                e->ed->page_source);
  }
  size_t len;
  const char *nav = bk_render(e, "nav.xhtml.twig", tpl_map_value(nv), &len);
  if (!nav || !well_formed(p, NULL, "nav.xhtml", nav, len))
    return -1;
  epub_put(p, "OEBPS/nav.xhtml", nav, len);
  manifest_add(p, "nav", "nav.xhtml", "application/xhtml+xml", "nav");
  if (!p->toc_page) {
    /* The landmarks point at the navigation document, which must then be
     * in the spine: outside the reading order. */
    tpl_list *sp = tpl_list_new(e->a, p->spine->len + 1);
    memcpy(sp->items, p->spine->items, p->spine->len * sizeof *sp->items);
    sp->items[p->spine->len] = spine_ref(e, "nav", false);
    p->spine = sp;
  }
  tpl_map *ncx = tpl_map_new(e->a, 3);
  bk_set(e, ncx, "identifier", bk_s(e, identifier));
  bk_set(e, ncx, "depth", tpl_int(tc.depth));
  bk_set(e, ncx, "toc_tree", tree);
  if (render_put(p, "toc.ncx.twig", tpl_map_value(ncx), "OEBPS/toc.ncx") != 0)
    return -1;
  manifest_add(p, "ncx", "toc.ncx", "application/x-dtbncx+xml", NULL);
  return 0;
}

/* The theme's and the book's style sheets, the book's images and what its
 * style sheet uses, each in the manifest. */
static int put_styles_and_images(epub *p) {
  bk_edition *e = p->e;
  bk_sink sink = {epub_put, p};
  size_t before = p->nfiles;
  if (bk_put_styles(e, &sink, "OEBPS/") != 0)
    return -1;
  for (size_t i = before; i < p->nfiles; i++) {
    const char *href = p->files[i].name + 6; /* after "OEBPS/" */
    manifest_add(p, strstr(href, "styles") ? "css-book" : "css-theme", href,
                 "text/css", NULL);
  }
  if (bk_put_images(e, &sink, "OEBPS/", check_image, p) != 0)
    return -1;
  if (e->custom_css && put_css_resources(p) != 0)
    return -1;
  return 0;
}

static tpl_value manifest_list(epub *p) {
  bk_edition *e = p->e;
  tpl_list *man = tpl_list_new(e->a, p->nitems);
  for (size_t i = 0; i < p->nitems; i++) {
    tpl_map *m = tpl_map_new(e->a, 4);
    bk_set(e, m, "id", bk_s(e, p->items[i].id));
    bk_set(e, m, "href", bk_s(e, p->items[i].href));
    bk_set(e, m, "media_type", bk_s(e, p->items[i].media_type));
    bk_set(e, m, "properties", bk_s(e, p->items[i].properties));
    man->items[i] = tpl_map_value(m);
  }
  return tpl_list_value(man);
}

/* The accessibility metadata of the package (schema.org's). */
static void set_accessibility(epub *p, tpl_map *pk) {
  bk_edition *e = p->e;
  const char *modes_t[] = {"textual"}, *modes_v[] = {"textual", "visual"};
  bk_set(e, pk, "access_modes",
         p->has_images || p->has_cover ? str_list(e, modes_v, 2)
                                       : str_list(e, modes_t, 1));
  bk_set(e, pk, "access_mode_sufficient", str_list(e, modes_t, 1));
  const char *features[7] = {"structuralNavigation", "tableOfContents",
                             "readingOrder"};
  size_t nf = 3;
  if (p->has_images)
    features[nf++] = "alternativeText";
  if (p->marks) {
    /* printPageNumbers is schema.org's older name of the two others */
    features[nf++] = "pageBreakMarkers";
    features[nf++] = "pageNavigation";
    features[nf++] = "printPageNumbers";
    bk_set(e, pk, "page_source", bk_s(e, bk_pages_source(e->pages_in)));
  }
  bk_set(e, pk, "features", str_list(e, features, nf));
  const char *none[] = {"none"};
  bk_set(e, pk, "hazards", str_list(e, none, 1));
  bk_set(e, pk, "summary",
         bk_s(e, p->has_images
                     ? "The text is complete without the images, which "
                       "carry text alternatives; headings, a table of "
                       "contents and landmarks allow navigation."
                     : "Text only, with headings, a table of contents and "
                       "landmarks for navigation."));
}

/* The package document (content.opf): metadata, manifest and spine; NULL
 * after reporting. */
static const char *package_document(epub *p, const char *identifier,
                                    const char *date, size_t *len) {
  bk_edition *e = p->e;
  tpl_map *pk = tpl_map_new(e->a, 24);
  bk_set(e, pk, "identifier", bk_s(e, identifier));
  bk_set(e, pk, "title", bk_get(e->book, "title"));
  bk_set(e, pk, "creator", bk_get(e->book, "author"));
  bk_set(e, pk, "language", bk_get(e->book, "language"));
  bk_set(e, pk, "date", bk_s(e, date));
  bk_set(e, pk, "modified",
         bk_s(e, oc_arena_printf(e->a, "%sT00:00:00Z", date)));
  bk_set(e, pk, "generator",
         bk_s(e, oc_arena_printf(e->a, "%s %s", e->bk.generator_name,
                                 e->bk.generator_version)));
  bk_set(e, pk, "publisher", bk_s(e, e->bk.publisher));
  bk_set(e, pk, "description", bk_s(e, e->bk.description));
  bk_set(e, pk, "isbn", bk_s(e, e->ed->isbn));
  bk_set(e, pk, "manifest", manifest_list(p));
  bk_set(e, pk, "spine", tpl_list_value(p->spine));
  bk_set(e, pk, "has_ncx", tpl_bool(true));
  set_accessibility(p, pk);
  const char *opf = bk_render(e, "content.opf.twig",
                              bk_vars1(e, "package", tpl_map_value(pk)), len);
  if (!opf || !well_formed(p, NULL, "content.opf", opf, *len))
    return NULL;
  return opf;
}

/* container.xml and the package go right after mimetype, as readers like
 * to find them early. */
static int put_container_first(epub *p, const char *opf, size_t opf_len) {
  bk_edition *e = p->e;
  const char *container = bk_render(e, "container.xml.twig", tpl_null(), NULL);
  if (!container)
    return -1;
  entry *files = oc_arena_alloc(e->a, (p->nfiles + 2) * sizeof *files);
  files[0] = p->files[0];
  files[1] = (entry){"META-INF/container.xml", container, strlen(container)};
  files[2] = (entry){"OEBPS/content.opf", opf, opf_len};
  memcpy(files + 3, p->files + 1, (p->nfiles - 1) * sizeof *files);
  p->files = files;
  p->nfiles += 2;
  p->cfiles = p->nfiles;
  return 0;
}

int bk_write_epub(bk_edition *e, bk_out *o) {
  epub p = {.e = e};
  p.hrefs = tpl_map_new(e->a, 64);
  epub_put(&p, "mimetype", "application/epub+zip", 20);
  site s = {.e = e, .ext = ".xhtml", .keep_toc = true};
  s.id_page = tpl_map_new(e->a, 256);
  if (bk_site_plan(&s, 1) != 0)
    return -1;
  bk_site_toc(&s);
  if (e->pages_in)
    p.marks = bk_pages_begin(e, &s);
  if (put_cover(&p) != 0 || put_pages(&p, &s) != 0)
    return -1;
  const char *id = identifier(e);
  if (put_navigation(&p, &s, id) != 0 || put_styles_and_images(&p) != 0)
    return -1;
  const char *date = bk_render_string(
      e, "{{ book.publication_date|default('now')|date('Y-m-d', 'UTC') }}",
      "book.publication_date");
  if (!date)
    return -1;
  size_t len;
  const char *opf = package_document(&p, id, date, &len);
  if (!opf || put_container_first(&p, opf, len) != 0)
    return -1;
  return zip_all(&p, oc_arena_printf(e->a, "%s/book.epub", o->tmp_dir), date);
}
