/* The PDF writer of the typesetter over libharu 2.3.0 (see ts_pdf.h). Each
 * workaround of a libharu bug is explained where it is applied (and listed
 * in docs/design.md); they need libharu's internal headers, which only
 * ts_tag.c (tagged PDF, through ts_pdf_int.h) includes besides. */
#include "ts_pdf.h"

#include "oc_alloc.h"
#include "oc_file.h"
#include "ts_image.h"
#include "ts_pdf_int.h"
#include "ts_pdffont.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cairo.h>
#include <gdk-pixbuf/gdk-pixbuf.h>
#include <hpdf.h>
#include <hpdf_doc.h>
#include <hpdf_encrypt.h>
#include <hpdf_font.h>
#include <hpdf_fontdef.h>
#include <hpdf_objects.h>
#include <hpdf_pages.h>
#include <hpdf_streams.h>
#include <librsvg/rsvg.h>
#include <png.h>
#include <zlib.h>

typedef struct pdf_link {
  int page, target;
  HPDF_Rect rect;
  double target_y;
  const char *uri; /* NULL: an internal link */
  struct ts_pdf *pdf;
  int32_t struct_parent; /* its key in the parent tree; -1: untagged */
} pdf_link;

typedef struct pdf_outline {
  int parent, page;
  const char *title;
  double y;
  bool open;
} pdf_outline;

typedef struct pdf_label {
  int first_page, start;
  ts_page_label_style style;
  const char *prefix;
  size_t seq; /* the order of the calls (qsort is not stable) */
} pdf_label;

/* A growable array in the arena (the old block is left to the arena). */
typedef struct pdf_vec {
  void *items;
  size_t len, cap;
} pdf_vec;

/* A finished page's content stream, deflated by the packer thread. */
typedef struct packed_page {
  unsigned char *raw, *z; /* malloc'd */
  size_t raw_len, z_len;
  bool ok;
} packed_page;

/* Deflates finished pages' content streams at zlib's fastest level on a
 * second thread while the engine draws the next pages (libharu would
 * deflate them all at its default level while saving, the single largest
 * cost of writing a book). Only plain buffers cross threads; libharu is
 * called from the engine's thread alone. */
typedef struct packer {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  pthread_t thread;
  bool started, closing;
  packed_page **jobs; /* by page; NULL: not finished */
  size_t cap, queued, next;
} packer;

struct ts_pdf_image {
  const char *path;
  HPDF_Image image;
  unsigned px_w, px_h; /* pixels kept when reduced, else 0 (all of them) */
  ts_pdf_image *next;
};

struct ts_pdf {
  oc_arena *arena;
  ts_pdf_image *images;
  uint64_t image_max_pixels; /* 0: no cap */
  unsigned image_max_ppi;    /* 0: images kept whole */
  packer *pk;
  /* The text state of the page drawn last, to write only what changes. */
  int text_page;
  const ts_pdf_font *text_font;
  double text_size;
  ts_rgb text_rgb;
  bool text_rgb_set;
  const oc_reporter *rep;
  const char *name;
  HPDF_Doc doc;
  /* The first failure: a libharu error, or a call the contract forbids. */
  HPDF_STATUS err, detail;
  const char *misuse;
  pdf_vec pages;  /* HPDF_Page */
  pdf_vec shifts; /* double per page: its trim origin in the media box */
  pdf_vec fonts; /* ts_pdf_font *, in the order loaded */
  pdf_vec links, outlines, labels;
  bool structure_done; /* links, outline and labels written */
  /* Covers: a page of ours in front of the body, or pages a merge puts
     there after saving; neither is in `pages`. */
  HPDF_Page cover;
  int front_later;
  HPDF_Page inside_cover; /* ts_pdf_inside_cover's blank page, or NULL */
  /* PDF/A-1b, and the Info entries its XMP must repeat. */
  bool pdfa;
  ts_pdf_info info;
  ts_tag *tag; /* a tagged PDF's marks and structure (ts_tag.c) */
};

static void finish_metadata(ts_pdf *p);

/* ---- errors ---------------------------------------------------------- */

static void on_hpdf_error(HPDF_STATUS error_no, HPDF_STATUS detail_no,
                          void *user) {
  ts_pdf *p = user;
  if (!p->err && !p->misuse) {
    p->err = error_no;
    p->detail = detail_no;
  }
}

static bool failed(const ts_pdf *p) { return !p || p->err || p->misuse; }

static void misuse(ts_pdf *p, const char *what) {
  if (!failed(p))
    p->misuse = what;
}

static const char *hpdf_error_name(HPDF_STATUS e) {
  switch (e) {
  case HPDF_FAILD_TO_ALLOC_MEM:
    return "out of memory";
  case HPDF_FILE_IO_ERROR:
    return "file i/o error";
  case HPDF_FILE_OPEN_ERROR:
    return "cannot open the file";
  case HPDF_INVALID_PARAMETER:
    return "invalid parameter";
  case HPDF_PAGE_OUT_OF_RANGE:
    return "value out of range";
  case HPDF_PAGE_INVALID_GMODE:
    return "invalid graphics mode";
  default:
    return "see libharu's hpdf_error.h";
  }
}

static void report_failure(const ts_pdf *p, const char *file,
                           const char *what) {
  if (p->misuse)
    oc_report(p->rep, OC_ERROR, file, 0, 0, "%s: %s", what, p->misuse);
  else if ((p->err == HPDF_FILE_OPEN_ERROR || p->err == HPDF_FILE_IO_ERROR) &&
           p->detail)
    /* libharu passes errno as the detail of file errors */
    oc_report(p->rep, OC_ERROR, file, 0, 0, "%s: libharu error 0x%04X (%s: %s)",
              what, (unsigned)p->err, hpdf_error_name(p->err),
              strerror((int)p->detail));
  else
    oc_report(p->rep, OC_ERROR, file, 0, 0,
              "%s: libharu error 0x%04X (%s, detail %u)", what,
              (unsigned)p->err, hpdf_error_name(p->err), (unsigned)p->detail);
}

/* Forgets a failure so the document stays usable (a font that did not
 * load must not spoil the rest). */
static void clear_failure(ts_pdf *p) {
  HPDF_ResetError(p->doc);
  p->err = p->detail = 0;
  p->misuse = NULL;
}

/* ---- small helpers --------------------------------------------------- */

static void *vec_push(oc_arena *a, pdf_vec *v, size_t size) {
  v->items =
      oc_arena_grow_array(a, v->items, v->len, &v->cap, v->len + 1, size);
  return (char *)v->items + v->len++ * size;
}

static const char *dup_str(oc_arena *a, const char *s) {
  return s ? oc_arena_strndup(a, s, strlen(s)) : NULL;
}

static unsigned char *read_file(oc_arena *a, const char *path, size_t *len) {
  FILE *f = oc_fopen_regular(path);
  if (!f)
    return NULL;
  unsigned char *buf = NULL;
  long size = -1;
  if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 &&
      fseek(f, 0, SEEK_SET) == 0) {
    buf = oc_arena_alloc(a, (size_t)size + 1);
    if (fread(buf, 1, (size_t)size, f) != (size_t)size)
      buf = NULL;
  }
  int saved = errno;
  fclose(f);
  errno = saved;
  *len = buf ? (size_t)size : 0;
  return buf;
}

static double clamp01(double v) { return v < 0 ? 0 : v > 1 ? 1 : v; }

static HPDF_Page page_at(ts_pdf *p, int page, const char *what) {
  if (failed(p))
    return NULL;
  if (page < 0 || (size_t)page >= p->pages.len) {
    misuse(p, what);
    return NULL;
  }
  return ((HPDF_Page *)p->pages.items)[page];
}

/* A page to draw on: it must exist and not be finished. */
static HPDF_Page draw_page_at(ts_pdf *p, int page, const char *what) {
  HPDF_Page pg = page_at(p, page, what);
  if (pg && p->pk && (size_t)page < p->pk->queued) {
    misuse(p, "drawing on a page already finished");
    return NULL;
  }
  return pg;
}

static void free_doc(void *doc) { HPDF_Free(doc); }

/* ---- document -------------------------------------------------------- */

static void pack(packed_page *j) {
  uLongf len = compressBound((uLong)j->raw_len);
  j->z = oc_malloc(len);
  j->ok =
      compress2(j->z, &len, j->raw, (uLong)j->raw_len, Z_BEST_SPEED) == Z_OK;
  j->z_len = len;
}

static void *packer_main(void *arg) {
  packer *k = arg;
  pthread_mutex_lock(&k->mu);
  for (;;) {
    while (k->next == k->queued && !k->closing)
      pthread_cond_wait(&k->cv, &k->mu);
    if (k->next == k->queued)
      break;
    packed_page *j = k->jobs[k->next++];
    pthread_mutex_unlock(&k->mu);
    pack(j);
    pthread_mutex_lock(&k->mu);
  }
  pthread_mutex_unlock(&k->mu);
  return NULL;
}

/* Joins the thread (when it runs) and frees what is left. */
static void packer_stop(packer *k) {
  if (k->started) {
    pthread_mutex_lock(&k->mu);
    k->closing = true;
    pthread_cond_signal(&k->cv);
    pthread_mutex_unlock(&k->mu);
    pthread_join(k->thread, NULL);
    k->started = false;
  }
  /* jobs the thread never reached are packed here */
  for (; k->next < k->queued; k->next++)
    pack(k->jobs[k->next]);
}

static void packer_free(void *data) {
  packer *k = data;
  packer_stop(k);
  for (size_t i = 0; i < k->cap; i++)
    if (k->jobs[i]) {
      free(k->jobs[i]->raw);
      free(k->jobs[i]->z);
      free(k->jobs[i]);
    }
  free(k->jobs);
  pthread_mutex_destroy(&k->mu);
  pthread_cond_destroy(&k->cv);
  free(k);
}

static packer *packer_new(oc_arena *a) {
  packer *k = oc_calloc(1, sizeof *k);
  pthread_mutex_init(&k->mu, NULL);
  pthread_cond_init(&k->cv, NULL);
  k->started = pthread_create(&k->thread, NULL, packer_main, k) == 0;
  oc_arena_defer(a, packer_free, k);
  return k;
}

/* Hands page i's content to the packer; libharu's copy is freed. */
static void packer_add(ts_pdf *p, size_t i) {
  packer *k = p->pk;
  HPDF_Page page = ((HPDF_Page *)p->pages.items)[i];
  HPDF_Stream st = ((HPDF_PageAttr)page->attr)->stream;
  if (!k || st->type != HPDF_STREAM_MEMORY)
    return;
  packed_page *j = oc_calloc(1, sizeof *j);
  size_t n = HPDF_Stream_Size(st);
  j->raw = oc_malloc(n);
  size_t off = 0;
  for (HPDF_UINT b = 0; b < HPDF_MemStream_GetBufCount(st) && off < n; b++) {
    HPDF_UINT len = 0;
    HPDF_BYTE *buf = HPDF_MemStream_GetBufPtr(st, b, &len);
    if (len > n - off)
      len = (HPDF_UINT)(n - off);
    memcpy(j->raw + off, buf, len);
    off += len;
  }
  j->raw_len = off;
  HPDF_MemStream_FreeData(st);
  pthread_mutex_lock(&k->mu);
  if (i >= k->cap) {
    size_t old = k->cap;
    OC_GROW(k->jobs, k->cap, i + 1);
    memset(k->jobs + old, 0, (k->cap - old) * sizeof *k->jobs);
  }
  k->jobs[i] = j;
  /* the queue is in page order: pages are finished in order */
  k->queued++;
  pthread_cond_signal(&k->cv);
  pthread_mutex_unlock(&k->mu);
}

/* libharu writes /Filter from the stream's filter field, and drops the
 * entry when the field says none; a deflated page is marked here, in the
 * hook it calls after the dictionary's entries. */
static HPDF_STATUS write_flate_filter(HPDF_Dict dict, HPDF_Stream stream) {
  (void)dict;
  return HPDF_Stream_WriteStr(stream, "/Filter /FlateDecode\012");
}

/* Puts every packed page back into libharu, deflated and marked so. */
static void packer_finish(ts_pdf *p) {
  packer *k = p->pk;
  if (!k)
    return;
  packer_stop(k);
  for (size_t i = 0; i < k->cap && i < p->pages.len; i++) {
    packed_page *j = k->jobs[i];
    if (!j)
      continue;
    HPDF_Page page = ((HPDF_Page *)p->pages.items)[i];
    HPDF_PageAttr attr = page->attr;
    if (j->ok) {
      HPDF_Stream_Write(attr->stream, j->z, (HPDF_UINT)j->z_len);
      attr->contents->filter = HPDF_STREAM_FILTER_NONE;
      attr->contents->write_fn = write_flate_filter;
    } else {
      HPDF_Stream_Write(attr->stream, j->raw, (HPDF_UINT)j->raw_len);
    }
    free(j->raw);
    free(j->z);
    free(j);
    k->jobs[i] = NULL;
  }
}

void ts_pdf_page_done(ts_pdf *p, int page) {
  if (failed(p) || page < 0 || (size_t)page >= p->pages.len)
    return;
  if (!p->pk)
    p->pk = packer_new(p->arena);
  /* pages are handed over in order; a page finished out of order keeps
     libharu's own compression */
  if (p->pk && (size_t)page == p->pk->queued &&
      (p->pk->cap <= (size_t)page || !p->pk->jobs[page]))
    packer_add(p, (size_t)page);
}

ts_pdf *ts_pdf_new(oc_arena *a, const oc_reporter *rep, const char *name) {
  ts_pdf *p = oc_arena_calloc(a, 1, sizeof *p);
  p->arena = a;
  p->rep = rep;
  p->name = dup_str(a, name ? name : "");
  p->text_page = -1;
  p->image_max_pixels = TS_IMAGE_MAX_PIXELS;
  p->image_max_ppi = TS_IMAGE_MAX_PPI;
  p->doc = HPDF_New(on_hpdf_error, p);
  if (!p->doc) {
    p->err = HPDF_FAILD_TO_ALLOC_MEM;
    return p;
  }
  oc_arena_defer(a, free_doc, p->doc);
  HPDF_SetCompressionMode(p->doc, HPDF_COMP_ALL);
  HPDF_UseUTFEncodings(p->doc);
  HPDF_SetCurrentEncoder(p->doc, "UTF-8");
  return p;
}

static HPDF_Box box(double left, double bottom, double right, double top) {
  return (HPDF_Box){(HPDF_REAL)left, (HPDF_REAL)bottom, (HPDF_REAL)right,
                    (HPDF_REAL)top};
}

/* Crop marks continue the trim lines at the corners; registration crosses
 * (a circle and a cross) sit at the middle of each side. Both stay in the
 * slug, 3 pt clear of the bleed and of the media edge. */
static void draw_marks(HPDF_Page page, double off, double w, double h,
                       double bleed, unsigned marks) {
  double near = bleed + 3, far = bleed + TS_PDF_SLUG - 3;
  double l = off, b = off, r = off + w, t = off + h;
  HPDF_Page_GSave(page);
  HPDF_Page_SetRGBStroke(page, 0, 0, 0);
  HPDF_Page_SetLineWidth(page, 0.25f);
  if (marks & TS_MARKS_CROP) {
    double xs[2] = {l, r}, ys[2] = {b, t}, dir[2] = {-1, 1};
    for (int i = 0; i < 2; i++)
      for (int k = 0; k < 2; k++) {
        double x = xs[i], y = ys[k];
        HPDF_Page_MoveTo(page, (HPDF_REAL)(x + dir[i] * near), (HPDF_REAL)y);
        HPDF_Page_LineTo(page, (HPDF_REAL)(x + dir[i] * far), (HPDF_REAL)y);
        HPDF_Page_MoveTo(page, (HPDF_REAL)x, (HPDF_REAL)(y + dir[k] * near));
        HPDF_Page_LineTo(page, (HPDF_REAL)x, (HPDF_REAL)(y + dir[k] * far));
      }
  }
  if (marks & TS_MARKS_CROSS) {
    double mid = bleed + TS_PDF_SLUG / 2, arm = TS_PDF_SLUG / 2 - 3;
    double cx[4] = {(l + r) / 2, (l + r) / 2, l - mid, r + mid};
    double cy[4] = {b - mid, t + mid, (b + t) / 2, (b + t) / 2};
    for (int i = 0; i < 4; i++) {
      HPDF_Page_Circle(page, (HPDF_REAL)cx[i], (HPDF_REAL)cy[i],
                       (HPDF_REAL)(arm * 0.6));
      HPDF_Page_MoveTo(page, (HPDF_REAL)(cx[i] - arm), (HPDF_REAL)cy[i]);
      HPDF_Page_LineTo(page, (HPDF_REAL)(cx[i] + arm), (HPDF_REAL)cy[i]);
      HPDF_Page_MoveTo(page, (HPDF_REAL)cx[i], (HPDF_REAL)(cy[i] - arm));
      HPDF_Page_LineTo(page, (HPDF_REAL)cx[i], (HPDF_REAL)(cy[i] + arm));
    }
  }
  HPDF_Page_Stroke(page);
  HPDF_Page_GRestore(page);
}

/* Sizes a page for print (see ts_pdf_page_add_print) and moves the origin
 * to the trim's corner, once, so that no drawing call needs to know;
 * returns that shift. libharu 2.3.0 has no call for the boxes: the arrays
 * go into the page dictionary directly. */
static double print_geometry(ts_pdf *p, HPDF_Page page, double w, double h,
                             double bleed, unsigned marks) {
  if (!(bleed > 0))
    bleed = 0;
  marks &= TS_MARKS_CROP | TS_MARKS_CROSS;
  double off = bleed + (marks ? TS_PDF_SLUG : 0);
  HPDF_Page_SetWidth(page, (HPDF_REAL)(w + 2 * off));
  HPDF_Page_SetHeight(page, (HPDF_REAL)(h + 2 * off));
  if (off <= 0)
    return 0;
  HPDF_MMgr mm = p->doc->mmgr;
  HPDF_Dict_Add(page, "BleedBox",
                HPDF_Box_Array_New(mm, box(off - bleed, off - bleed,
                                           off + w + bleed, off + h + bleed)));
  HPDF_Dict_Add(page, "TrimBox",
                HPDF_Box_Array_New(mm, box(off, off, off + w, off + h)));
  if (marks) {
    /* printer's marks are no content: an artifact in a tagged PDF */
    if (p->tag)
      HPDF_Stream_WriteStr(((HPDF_PageAttr)page->attr)->stream,
                           "/Artifact BMC\n");
    draw_marks(page, off, w, h, bleed, marks);
    if (p->tag)
      HPDF_Stream_WriteStr(((HPDF_PageAttr)page->attr)->stream, "EMC\n");
  }
  HPDF_Page_Concat(page, 1, 0, 0, 1, (HPDF_REAL)off, (HPDF_REAL)off);
  return off;
}

int ts_pdf_page_add_print(ts_pdf *p, double width, double height, double bleed,
                          unsigned marks) {
  if (failed(p))
    return -1;
  ts_hpdf_list_doubling(p->doc->xref->entries);
  HPDF_Page page = HPDF_AddPage(p->doc);
  if (!page)
    return -1;
  double shift = print_geometry(p, page, width, height, bleed, marks);
  *(HPDF_Page *)vec_push(p->arena, &p->pages, sizeof page) = page;
  *(double *)vec_push(p->arena, &p->shifts, sizeof shift) = shift;
  return (int)p->pages.len - 1;
}

int ts_pdf_page_add(ts_pdf *p, double width, double height) {
  return ts_pdf_page_add_print(p, width, height, 0, 0);
}

/* Where a page's trim origin is in its media box (see print_geometry). */
static double shift_of(const ts_pdf *p, int page) {
  return page >= 0 && (size_t)page < p->shifts.len
             ? ((const double *)p->shifts.items)[page]
             : 0;
}

size_t ts_pdf_page_count(const ts_pdf *p) { return p ? p->pages.len : 0; }

/* ---- for ts_tag.c (ts_pdf_int.h) -------------------------------------- */

HPDF_Doc ts_pdf_hpdf(ts_pdf *p) { return p->doc; }
oc_arena *ts_pdf_arena(ts_pdf *p) { return p->arena; }
bool ts_pdf_has_failed(const ts_pdf *p) { return failed(p); }
HPDF_Page ts_pdf_hpdf_page(ts_pdf *p, int page) {
  return page_at(p, page, "a page that does not exist");
}
HPDF_Page ts_pdf_hpdf_draw_page(ts_pdf *p, int page) {
  return draw_page_at(p, page, "marked content on a page that does not exist");
}
HPDF_Page ts_pdf_hpdf_cover(ts_pdf *p) { return p->cover; }
size_t ts_pdf_link_count(const ts_pdf *p) { return p->links.len; }
ts_tag *ts_pdf_tag_state(const ts_pdf *p) { return p->tag; }
void ts_pdf_set_tag_state(ts_pdf *p, ts_tag *t) { p->tag = t; }

/* ---- fonts ----------------------------------------------------------- */

ts_pdf_font *ts_pdf_font_load(ts_pdf *p, const char *path, unsigned index) {
  if (failed(p))
    return NULL;
  ts_pdf_font **fonts = p->fonts.items;
  for (size_t i = 0; i < p->fonts.len; i++)
    if (ts_pdffont_index(fonts[i]) == index &&
        strcmp(ts_pdffont_path(fonts[i]), path) == 0)
      return fonts[i];
  ts_pdf_font *f = ts_pdffont_open(p->arena, p->rep, path, index);
  if (f)
    *(ts_pdf_font **)vec_push(p->arena, &p->fonts, sizeof f) = f;
  return f;
}

/* ---- drawing --------------------------------------------------------- */

/* Appends to the page's content stream in blocks. */
typedef struct tj_buf {
  HPDF_Stream stream;
  char b[512];
  size_t n;
} tj_buf;

static void tj_flush(tj_buf *t) {
  /* Binary: the strings hold NUL bytes, so not WriteStr. */
  HPDF_Stream_Write(t->stream, (const HPDF_BYTE *)t->b, (HPDF_UINT)t->n);
  t->n = 0;
}

static void tj_put(tj_buf *t, const char *s, size_t len) {
  if (t->n + len >= sizeof t->b)
    tj_flush(t);
  memcpy(t->b + t->n, s, len);
  t->n += len;
}

/* A number and a space, to two decimals (1/7200 in), without trailing
 * zeros: what the stream needs, faster than printf. */
static void put_num(tj_buf *t, double v) {
  char b[32];
  size_t n = 0;
  long c = lround(v * 100);
  if (c < 0) {
    b[n++] = '-';
    c = -c;
  }
  long whole = c / 100, frac = c % 100;
  char d[24];
  int nd = 0;
  do
    d[nd++] = (char)('0' + whole % 10);
  while ((whole /= 10) > 0 && nd < 20);
  while (nd)
    b[n++] = d[--nd];
  if (frac) {
    b[n++] = '.';
    b[n++] = (char)('0' + frac / 10);
    if (frac % 10)
      b[n++] = (char)('0' + frac % 10);
  }
  b[n++] = ' ';
  tj_put(t, b, n);
}

void ts_pdf_text(ts_pdf *p, int page, ts_pdf_font *font, double size, double x,
                 double y, ts_rgb color, const uint32_t *codes,
                 const int32_t *kern, size_t n, double char_space) {
  HPDF_Page pg = draw_page_at(p, page, "text on a page that does not exist");
  if (!pg || n == 0)
    return;
  if (!font) {
    misuse(p, "text without a font");
    return;
  }
  HPDF_Page_BeginText(pg);
  /* The font through libharu (it puts the font in the page's resources),
   * only when it changes: Tf, like the fill colour, lasts across text
   * objects (and our rectangles and lines save and restore the state). The
   * colour and the position are written directly: libharu's calls format
   * numbers slowly, and this runs once a run of text. */
  if (p->text_page != page) {
    p->text_page = page;
    p->text_font = NULL;
    p->text_rgb_set = false;
  }
  tj_buf t = {.stream = ((HPDF_PageAttr)pg->attr)->stream};
  if (p->text_font != font || p->text_size != size) {
    /* libharu names the font in the page's resources; Tf is ours, since
       libharu's own takes only the fonts it loaded */
    HPDF_Dict dict = ts_pdffont_dict(font, p->doc);
    const char *res =
        dict ? HPDF_Page_GetLocalFontName(pg, (HPDF_Font)dict) : NULL;
    if (!res) {
      misuse(p, "a font the page's resources cannot name");
      return;
    }
    tj_put(&t, "/", 1);
    tj_put(&t, res, strlen(res));
    tj_put(&t, " ", 1);
    put_num(&t, size);
    tj_put(&t, "Tf\n", 3);
    p->text_font = font;
    p->text_size = size;
  }
  ts_rgb rgb = {clamp01(color.r), clamp01(color.g), clamp01(color.b)};
  if (!p->text_rgb_set || rgb.r != p->text_rgb.r || rgb.g != p->text_rgb.g ||
      rgb.b != p->text_rgb.b) {
    put_num(&t, rgb.r);
    put_num(&t, rgb.g);
    put_num(&t, rgb.b);
    tj_put(&t, "rg\n", 3);
    p->text_rgb = rgb;
    p->text_rgb_set = true;
  }
  /* Tc outlives ET; write it when it changes so a letter-spaced run does
   * not leak into the next one. */
  if ((HPDF_REAL)char_space != HPDF_Page_GetCharSpace(pg)) {
    tj_flush(&t);
    HPDF_Page_SetCharSpace(pg, (HPDF_REAL)char_space);
  }
  put_num(&t, x);
  put_num(&t, y);
  tj_put(&t, "Td\n", 3);
  if (failed(p))
    return;

  /* Literal strings, two bytes a glyph (half of hex's four): only the
   * delimiters, the backslash and CR (which a reader would turn into LF)
   * are escaped. Written straight into the buffer: this loop runs once a
   * glyph of the book. */
  bool in_string = false;
  tj_put(&t, "[", 1);
  for (size_t i = 0; i < n; i++) {
    /* room for ")-2147483648(" and an escaped glyph */
    if (t.n + 24 >= sizeof t.b)
      tj_flush(&t);
    char *o = t.b + t.n;
    if (kern && kern[i]) {
      if (in_string)
        *o++ = ')';
      long v = -(long)kern[i];
      if (v < 0) {
        *o++ = '-';
        v = -v;
      }
      char digits[12];
      int nd = 0;
      do
        digits[nd++] = (char)('0' + v % 10);
      while ((v /= 10) > 0 && nd < 11);
      while (nd)
        *o++ = digits[--nd];
      in_string = false;
    }
    uint16_t c = ts_pdffont_code(font, codes[i]);
    if (!in_string)
      *o++ = '(';
    unsigned char b2[2] = {(unsigned char)(c >> 8), (unsigned char)(c & 0xFF)};
    for (int j = 0; j < 2; j++) {
      unsigned char ch = b2[j];
      if (ch == '(' || ch == ')' || ch == '\\') {
        *o++ = '\\';
        *o++ = (char)ch;
      } else if (ch == '\r') {
        *o++ = '\\';
        *o++ = 'r';
      } else {
        *o++ = (char)ch;
      }
    }
    t.n = (size_t)(o - t.b);
    in_string = true;
  }
  if (in_string)
    tj_put(&t, ")", 1);
  tj_put(&t, "] TJ\n", 5);
  tj_flush(&t);
  HPDF_Page_EndText(pg);
}

void ts_pdf_fill_rect(ts_pdf *p, int page, double x, double y, double w,
                      double h, ts_rgb color) {
  HPDF_Page pg =
      draw_page_at(p, page, "a rectangle on a page that does not exist");
  if (!pg)
    return;
  HPDF_Page_GSave(pg);
  HPDF_Page_SetRGBFill(pg, (HPDF_REAL)clamp01(color.r),
                       (HPDF_REAL)clamp01(color.g),
                       (HPDF_REAL)clamp01(color.b));
  HPDF_Page_Rectangle(pg, (HPDF_REAL)x, (HPDF_REAL)y, (HPDF_REAL)w,
                      (HPDF_REAL)h);
  HPDF_Page_Fill(pg);
  HPDF_Page_GRestore(pg);
}

void ts_pdf_line(ts_pdf *p, int page, double x1, double y1, double x2,
                 double y2, double width, ts_rgb color, ts_line_style style) {
  HPDF_Page pg = draw_page_at(p, page, "a line on a page that does not exist");
  if (!pg)
    return;
  HPDF_Page_GSave(pg);
  HPDF_Page_SetRGBStroke(pg, (HPDF_REAL)clamp01(color.r),
                         (HPDF_REAL)clamp01(color.g),
                         (HPDF_REAL)clamp01(color.b));
  HPDF_Page_SetLineWidth(pg, (HPDF_REAL)width);
  if (style != TS_LINE_SOLID) {
    /* libharu 2.3.0 takes whole points only: at least 1. */
    double unit = width < 1 ? 1 : width;
    HPDF_UINT16 on =
        (HPDF_UINT16)(unit * (style == TS_LINE_DASHED ? 3 : 1) + 0.5);
    HPDF_UINT16 pattern[2] = {on, (HPDF_UINT16)(unit * 2 + 0.5)};
    HPDF_Page_SetDash(pg, pattern, 2, 0);
  }
  HPDF_Page_MoveTo(pg, (HPDF_REAL)x1, (HPDF_REAL)y1);
  HPDF_Page_LineTo(pg, (HPDF_REAL)x2, (HPDF_REAL)y2);
  HPDF_Page_Stroke(pg);
  if (style != TS_LINE_SOLID)
    HPDF_Page_SetDash(pg, NULL, 0, 0);
  HPDF_Page_GRestore(pg);
}

/* ---- links, outline, labels, info ------------------------------------ */

static void add_link(ts_pdf *p, int page, double x, double y, double w,
                     double h, int target, double target_y, const char *uri) {
  if (!page_at(p, page, "a link on a page that does not exist"))
    return;
  pdf_link *l = vec_push(p->arena, &p->links, sizeof *l);
  *l = (pdf_link){.page = page,
                  .target = target,
                  .rect = {(HPDF_REAL)x, (HPDF_REAL)y, (HPDF_REAL)(x + w),
                           (HPDF_REAL)(y + h)},
                  .target_y = target_y,
                  .uri = uri};
}

void ts_pdf_link_dest(ts_pdf *p, int page, double x, double y, double w,
                      double h, int target_page, double target_y) {
  add_link(p, page, x, y, w, h, target_page, target_y, NULL);
}

/* URIs are ASCII: percent-encode UTF-8 bytes, spaces and controls. */
static const char *uri_ascii(oc_arena *a, const char *uri) {
  size_t len = strlen(uri);
  char *out = oc_arena_alloc(a, len * 3 + 1), *o = out;
  for (const unsigned char *s = (const unsigned char *)uri; *s; s++) {
    if (*s <= 0x20 || *s >= 0x7F)
      o += sprintf(o, "%%%02X", *s);
    else
      *o++ = (char)*s;
  }
  *o = '\0';
  return out;
}

void ts_pdf_link_uri(ts_pdf *p, int page, double x, double y, double w,
                     double h, const char *uri) {
  if (failed(p))
    return;
  add_link(p, page, x, y, w, h, -1, 0, uri_ascii(p->arena, uri ? uri : ""));
}

int ts_pdf_outline(ts_pdf *p, int parent, const char *title_utf8, int page,
                   double y, bool open) {
  if (failed(p))
    return -1;
  if (parent < -1 || parent >= (int)p->outlines.len) {
    misuse(p, "an outline entry under an entry that does not exist");
    return -1;
  }
  pdf_outline *o = vec_push(p->arena, &p->outlines, sizeof *o);
  *o = (pdf_outline){.parent = parent,
                     .page = page,
                     .title = dup_str(p->arena, title_utf8 ? title_utf8 : ""),
                     .y = y,
                     .open = open};
  return (int)p->outlines.len - 1;
}

void ts_pdf_page_label(ts_pdf *p, int first_page, ts_page_label_style style,
                       int start, const char *prefix) {
  if (failed(p))
    return;
  pdf_label *l = vec_push(p->arena, &p->labels, sizeof *l);
  *l = (pdf_label){first_page, start, style, dup_str(p->arena, prefix),
                   p->labels.len};
}

/* A text string as UTF-16BE with its byte order mark, surrogate pairs
 * beyond the BMP; bytes that are not UTF-8 become U+FFFD. */
static HPDF_Binary utf16_text(ts_pdf *p, const char *s) {
  size_t n = strlen(s);
  unsigned char *u = oc_arena_alloc(p->arena, oc_size_add(oc_size_mul(n, 2), 2));
  size_t k = 0;
  u[k++] = 0xFE;
  u[k++] = 0xFF;
  const unsigned char *c = (const unsigned char *)s;
  for (size_t i = 0; i < n;) {
    uint32_t cp = 0xFFFD;
    size_t len = c[i] < 0x80 ? 1 : (c[i] >> 5) == 6 ? 2 : (c[i] >> 4) == 14 ? 3
                 : (c[i] >> 3) == 30                 ? 4
                                                     : 0;
    bool ok = len && i + len <= n;
    for (size_t j = 1; ok && j < len; j++)
      ok = (c[i + j] & 0xC0) == 0x80;
    if (ok) {
      cp = len == 1 ? c[i] : (uint32_t)(c[i] & (0xFF >> (len + 1)));
      for (size_t j = 1; j < len; j++)
        cp = cp << 6 | (c[i + j] & 0x3F);
      if (cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000))
        cp = 0xFFFD;
    }
    i += ok ? len : 1;
    if (cp >= 0x10000) {
      uint32_t v = cp - 0x10000, hi = 0xD800 | v >> 10, lo = 0xDC00 | (v & 0x3FF);
      u[k++] = (unsigned char)(hi >> 8);
      u[k++] = (unsigned char)hi;
      u[k++] = (unsigned char)(lo >> 8);
      u[k++] = (unsigned char)lo;
    } else {
      u[k++] = (unsigned char)(cp >> 8);
      u[k++] = (unsigned char)cp;
    }
  }
  return HPDF_Binary_New(p->doc->mmgr, u, (HPDF_UINT)k);
}

HPDF_Binary ts_pdf_text_string(ts_pdf *p, const char *s) {
  return utf16_text(p, s);
}

static bool beyond_bmp(const char *s) {
  for (const unsigned char *c = (const unsigned char *)s; *c; c++)
    if (*c >= 0xF0)
      return true;
  return false;
}

static void set_info_str(ts_pdf *p, HPDF_InfoType type, const char *s) {
  static const char *const keys[] = {
      [HPDF_INFO_AUTHOR] = "Author",     [HPDF_INFO_CREATOR] = "Creator",
      [HPDF_INFO_TITLE] = "Title",       [HPDF_INFO_SUBJECT] = "Subject",
      [HPDF_INFO_KEYWORDS] = "Keywords"};
  if (!s || !*s)
    return;
  /* libharu's UTF-8 encoder knows only the BMP: a character beyond it
   * (an emoji, a rare CJK ideograph) came out as two spaces. Such a
   * string is written as a hex UTF-16 string of our own; the others as
   * before, so that their bytes do not change. */
  bool wide = beyond_bmp(s);
  HPDF_SetInfoAttr(p->doc, type, wide ? "" : s);
  if (wide && p->doc->info && type < sizeof keys / sizeof *keys &&
      keys[type])
    HPDF_Dict_Add(p->doc->info, keys[type], utf16_text(p, s));
}

void ts_pdf_set_info(ts_pdf *p, const ts_pdf_info *info) {
  if (failed(p) || !info)
    return;
  p->info = *info;
  p->info.title = dup_str(p->arena, info->title);
  p->info.author = dup_str(p->arena, info->author);
  p->info.subject = dup_str(p->arena, info->subject);
  p->info.keywords = dup_str(p->arena, info->keywords);
  p->info.creator = dup_str(p->arena, info->creator);
  p->info.language = dup_str(p->arena, info->language);
  /* Written as UTF-16BE because the current encoder is UTF-8. */
  set_info_str(p, HPDF_INFO_TITLE, info->title);
  set_info_str(p, HPDF_INFO_AUTHOR, info->author);
  set_info_str(p, HPDF_INFO_SUBJECT, info->subject);
  set_info_str(p, HPDF_INFO_KEYWORDS, info->keywords);
  set_info_str(p, HPDF_INFO_CREATOR, info->creator);
  if (info->has_date) {
    /* UTC as +00'00': libharu writes 'Z' as "Z00'00'", which the PDF date
     * syntax does not allow. */
    struct tm tm;
    if (!gmtime_r(&info->date, &tm) || tm.tm_year + 1900 > 9999) {
      misuse(p, "a date out of range");
      return;
    }
    HPDF_Date d = {.year = tm.tm_year + 1900,
                   .month = tm.tm_mon + 1,
                   .day = tm.tm_mday,
                   .hour = tm.tm_hour,
                   .minutes = tm.tm_min,
                   .seconds = tm.tm_sec,
                   .ind = '+'};
    HPDF_SetInfoDateAttr(p->doc, HPDF_INFO_CREATION_DATE, d);
    HPDF_SetInfoDateAttr(p->doc, HPDF_INFO_MOD_DATE, d);
  }
  if (info->language && *info->language)
    HPDF_Dict_Add(p->doc->catalog, "Lang",
                  HPDF_String_New(p->doc->mmgr, info->language, NULL));
}

/* [page /XYZ 0 top null]: libharu's SetXYZ refuses a null zoom ("keep the
 * reader's"), so the array it built is rewritten in place. */
static HPDF_Destination make_dest(ts_pdf *p, int page, double top) {
  HPDF_Page target = page_at(p, page,
                             "a destination on a page that does "
                             "not exist");
  if (!target)
    return NULL;
  HPDF_Destination d = HPDF_Page_CreateDestination(target);
  if (d)
    HPDF_Destination_SetXYZ(d, 0, (HPDF_REAL)top, 1);
  return d;
}

static void null_zoom(ts_pdf *p, HPDF_Destination d, int page, double top) {
  HPDF_Array_Clear(d);
  HPDF_Array_Add(d, ((HPDF_Page *)p->pages.items)[page]);
  HPDF_Array_AddName(d, "XYZ");
  HPDF_Array_AddReal(d, 0);
  HPDF_Array_AddReal(d, (HPDF_REAL)top);
  HPDF_Array_Add(d, HPDF_Null_New(p->doc->mmgr));
}

/* A link annotation is a dictionary libharu writes through this hook,
 * from the link's own record: a book may hold a million links (one
 * footnote referred to on every line), and libharu's own annotation, a
 * dictionary of eight entries of 136 bytes each, a Rect array of four
 * objects and a destination object, cost about 3 KB a link where this
 * costs a dictionary header and an xref entry. The destination is written
 * in place ([page /XYZ 0 top null]: the reader keeps its zoom). */
static HPDF_STATUS write_link(HPDF_Dict d, HPDF_Stream s) {
  const pdf_link *l = d->attr;
  const ts_pdf *p = l->pdf;
  HPDF_Page *pages = p->pages.items;
  HPDF_REAL dx = (HPDF_REAL)shift_of(p, l->page);
  char buf[96];
  HPDF_STATUS ret = HPDF_OK;
#define PUT(call)                                                              \
  do {                                                                         \
    if (ret == HPDF_OK)                                                        \
      ret = (call);                                                            \
  } while (0)
  snprintf(buf, sizeof buf, "/Type /Annot\n/Subtype /Link\n/P %u 0 R\n/Rect [",
           ts_hpdf_obj_id(pages[l->page]));
  PUT(HPDF_Stream_WriteStr(s, buf));
  const HPDF_REAL r[4] = {l->rect.left + dx, l->rect.bottom + dx,
                          l->rect.right + dx, l->rect.top + dx};
  for (int i = 0; i < 4; i++) {
    PUT(HPDF_Stream_WriteReal(s, r[i]));
    PUT(HPDF_Stream_WriteStr(s, i < 3 ? " " : "]\n"));
  }
  PUT(HPDF_Stream_WriteStr(s, "/Border [0 0 0]\n")); /* /H: the default, invert */
  if (p->pdfa || p->tag)
    PUT(HPDF_Stream_WriteStr(s, "/F 4\n")); /* PDF/A and /UA: annotations print */
  if (l->uri) {
    PUT(HPDF_Stream_WriteStr(s, "/A << /Type /Action /S /URI /URI "));
    PUT(HPDF_Stream_WriteEscapeText(s, l->uri)); /* ASCII: uri_ascii's */
    PUT(HPDF_Stream_WriteStr(s, " >>\n"));
  } else {
    snprintf(buf, sizeof buf, "/Dest [%u 0 R /XYZ 0 ",
             ts_hpdf_obj_id(pages[l->target]));
    PUT(HPDF_Stream_WriteStr(s, buf));
    PUT(HPDF_Stream_WriteReal(s,
                          (HPDF_REAL)(l->target_y + shift_of(p, l->target))));
    PUT(HPDF_Stream_WriteStr(s, " null]\n"));
  }
  if (p->tag) {
    /* PDF/UA: a link says where it goes */
    PUT(HPDF_Stream_WriteStr(s, "/Contents "));
    if (l->uri) {
      PUT(HPDF_Stream_WriteEscapeText(s, l->uri));
    } else {
      snprintf(buf, sizeof buf, "Go to page %d", l->target + 1);
      PUT(HPDF_Stream_WriteEscapeText(s, buf));
    }
    PUT(HPDF_Stream_WriteStr(s, "\n"));
  }
  if (l->struct_parent >= 0) {
    snprintf(buf, sizeof buf, "/StructParent %d\n", (int)l->struct_parent);
    PUT(HPDF_Stream_WriteStr(s, buf));
  }
#undef PUT
  return ret;
}

static void write_links(ts_pdf *p) {
  pdf_link *links = p->links.items;
  HPDF_Array *annots = oc_arena_calloc(p->arena, p->pages.len ? p->pages.len : 1,
                                       sizeof *annots);
  size_t npages = p->pages.len;
  for (size_t i = 0; i < p->links.len && !failed(p); i++) {
    pdf_link *l = &links[i];
    HPDF_Page pg = ((HPDF_Page *)p->pages.items)[l->page];
    if (!l->uri && !page_at(p, l->target,
                            "a destination on a page that does not exist"))
      return;
    if (!annots[l->page]) { /* no other writer gives a page annotations */
      annots[l->page] = HPDF_Array_New(p->doc->mmgr);
      if (!annots[l->page] ||
          HPDF_Dict_Add(pg, "Annots", annots[l->page]) != HPDF_OK)
        return;
    }
    ts_hpdf_list_doubling(p->doc->xref->entries);
    ts_hpdf_list_doubling(annots[l->page]->list);
    HPDF_Dict a = HPDF_Dict_New(p->doc->mmgr);
    if (!a || HPDF_Xref_Add(p->doc->xref, a) != HPDF_OK ||
        HPDF_Array_Add(annots[l->page], a) != HPDF_OK)
      return;
    l->pdf = p;
    l->struct_parent = -1;
    if (p->tag) {
      long k = ts_tag_annot(p->tag, a, l->page, i);
      l->struct_parent = k < 0 ? -1 : (int32_t)(npages + (size_t)k);
    }
    a->attr = l; /* ours: libharu frees no dictionary's attr */
    a->write_fn = write_link;
  }
}

static void write_outline(ts_pdf *p) {
  if (p->outlines.len == 0)
    return;
  const pdf_outline *entries = p->outlines.items;
  HPDF_Outline *made = oc_arena_calloc(p->arena, p->outlines.len, sizeof *made);
  HPDF_Encoder utf8 = HPDF_GetEncoder(p->doc, "UTF-8");
  for (size_t i = 0; i < p->outlines.len && !failed(p); i++) {
    const pdf_outline *e = &entries[i];
    HPDF_Outline parent = e->parent < 0 ? NULL : made[e->parent];
    made[i] = HPDF_CreateOutline(p->doc, parent, e->title, utf8);
    if (made[i] && beyond_bmp(e->title)) /* as in set_info_str */
      HPDF_Dict_Add(made[i], "Title", utf16_text(p, e->title));
    double top = e->y + shift_of(p, e->page);
    HPDF_Destination d = make_dest(p, e->page, top);
    if (!made[i] || !d)
      return;
    HPDF_Outline_SetDestination(made[i], d);
    null_zoom(p, d, e->page, top);
    HPDF_Outline_SetOpened(made[i], e->open);
  }
  HPDF_SetPageMode(p->doc, HPDF_PAGE_MODE_USE_OUTLINE);
}

static int label_cmp(const void *a, const void *b) {
  const pdf_label *x = a, *y = b;
  if (x->first_page != y->first_page)
    return x->first_page < y->first_page ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The dictionaries are built here rather than by HPDF_AddPageLabel, which
 * cannot leave out /S (a prefix-only label) and appends to /Nums in call
 * order where the PDF wants ascending page numbers. */
static void write_labels(ts_pdf *p) {
  pdf_label *labels = p->labels.items;
  int front = (p->cover ? 1 : 0) + (p->inside_cover ? 1 : 0) + p->front_later;
  if (!p->labels.len && !front)
    return;
  if (p->labels.len) /* a cover alone has none: labels may be NULL */
    qsort(labels, p->labels.len, sizeof *labels, label_cmp);
  static const char *const style_names[] = {"D", "r", "R", "a", "A"};
  HPDF_Encoder utf8 = HPDF_GetEncoder(p->doc, "UTF-8");
  if (front) {
    /* the cover is named, not numbered; the body keeps its numbers */
    HPDF_Dict d = HPDF_Dict_New(p->doc->mmgr);
    if (!d)
      return;
    HPDF_Dict_Add(d, "P", HPDF_String_New(p->doc->mmgr, "Cover", utf8));
    HPDF_Catalog_AddPageLabel(p->doc->catalog, 0, d);
    if ((!p->labels.len || labels[0].first_page != 0) && p->pages.len) {
      HPDF_Dict body = HPDF_Dict_New(p->doc->mmgr);
      if (!body)
        return;
      HPDF_Dict_AddName(body, "S", "D");
      HPDF_Catalog_AddPageLabel(p->doc->catalog, (HPDF_UINT)front, body);
    }
  }
  for (size_t i = 0; i < p->labels.len && !failed(p); i++) {
    const pdf_label *l = &labels[i];
    if (i + 1 < p->labels.len && labels[i + 1].first_page == l->first_page)
      continue; /* a later call for the same page wins */
    if (l->first_page < 0 || (size_t)l->first_page >= p->pages.len) {
      misuse(p, "a page label for a page that does not exist");
      return;
    }
    HPDF_Dict d = HPDF_Dict_New(p->doc->mmgr);
    if (!d)
      return;
    if (l->style >= TS_LABEL_DECIMAL && l->style < TS_LABEL_NONE)
      HPDF_Dict_AddName(d, "S", style_names[l->style]);
    if (l->prefix && *l->prefix)
      HPDF_Dict_Add(d, "P", HPDF_String_New(p->doc->mmgr, l->prefix, utf8));
    if (l->start != 1)
      HPDF_Dict_AddNumber(d, "St", l->start);
    HPDF_Catalog_AddPageLabel(p->doc->catalog,
                              (HPDF_UINT)(l->first_page + front), d);
  }
}

int ts_pdf_save(ts_pdf *p, const char *path) {
  if (!p)
    return -1;
  if (!failed(p) && !p->structure_done) {
    p->structure_done = true;
    write_links(p);
    write_outline(p);
    write_labels(p);
  }
  if (!failed(p)) {
    packer_finish(p);
    ts_pdf_font **fonts = p->fonts.items;
    for (size_t i = 0; i < p->fonts.len && !failed(p); i++)
      if (ts_pdffont_finish(fonts[i], p->doc, p->pdfa) != 0 && !failed(p))
        misuse(p, "a font could not be embedded");
    if (p->tag && !failed(p))
      ts_tag_finish(p->tag);
    if ((p->pdfa || p->tag) && !failed(p))
      finish_metadata(p);
    if (HPDF_SaveToFile(p->doc, path) != HPDF_OK && !failed(p))
      p->err = HPDF_FILE_IO_ERROR;
  }
  if (failed(p)) {
    report_failure(p, p->name, "cannot write the PDF");
    return -1;
  }
  return 0;
}

/* ---- images ----------------------------------------------------------- */

/* Every loader below opens the file by its name: ts_image_sniff, which
 * refuses what is not a regular file (a FIFO would hang them), comes
 * before each of them. 1 PNG, 2 JPEG, 3 SVG, 4 GIF, 0 another kind, -1
 * unreadable. */
static int image_kind(const char *path) {
  int k = ts_image_sniff(path);
  if (k)
    return k;
  /* SVG is text: known by its name */
  const char *dot = strrchr(path, '.');
  if (dot && (!strcasecmp(dot, ".svg") || !strcasecmp(dot, ".svgz")))
    return 3;
  return 0;
}

/* SVG through librsvg: its size in CSS pixels (96 an inch), from its
 * width and height, else its viewBox. NULL when librsvg cannot read it. */
static RsvgHandle *svg_open(const char *path, double *w, double *h) {
  GError *err = NULL;
  RsvgHandle *hd = rsvg_handle_new_from_file(path, &err);
  if (!hd) {
    g_clear_error(&err);
    return NULL;
  }
  rsvg_handle_set_dpi(hd, 96);
  gboolean has_w, has_h, has_vb;
  RsvgLength lw, lh;
  RsvgRectangle vb;
  rsvg_handle_get_intrinsic_dimensions(hd, &has_w, &lw, &has_h, &lh, &has_vb,
                                       &vb);
  if (!rsvg_handle_get_intrinsic_size_in_pixels(hd, w, h)) {
    *w = has_vb ? vb.width : 0;
    *h = has_vb ? vb.height : 0;
  }
  if (!(*w > 0 && *h > 0)) {
    g_object_unref(hd);
    return NULL;
  }
  return hd;
}

ts_image_status ts_image_probe(const char *path, unsigned *width,
                               unsigned *height, double *dpi) {
  *dpi = 96;
  int kind = image_kind(path);
  if (kind < 0)
    return TS_IMAGE_UNREADABLE;
  if (kind == 0)
    return TS_IMAGE_UNSUPPORTED;
  if (kind == 3) {
    double w, h;
    RsvgHandle *hd = svg_open(path, &w, &h);
    if (!hd)
      return TS_IMAGE_UNREADABLE;
    g_object_unref(hd);
    *width = (unsigned)ceil(w);
    *height = (unsigned)ceil(h);
    return TS_IMAGE_OK;
  }
  if (kind == 4) {
    int w = 0, h = 0;
    if (!gdk_pixbuf_get_file_info(path, &w, &h) || w <= 0 || h <= 0)
      return TS_IMAGE_UNREADABLE;
    *width = (unsigned)w;
    *height = (unsigned)h;
    return TS_IMAGE_OK;
  }
  if (kind == 1) {
    png_image im;
    memset(&im, 0, sizeof im);
    im.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&im, path))
      return TS_IMAGE_UNREADABLE;
    *width = im.width;
    *height = im.height;
    png_image_free(&im);
    return *width && *height ? TS_IMAGE_OK : TS_IMAGE_UNREADABLE;
  }
  /* JPEG: libharu reads the frame header, in a document of its own */
  HPDF_Doc d = HPDF_New(NULL, NULL);
  if (!d)
    return TS_IMAGE_UNREADABLE;
  HPDF_Image im = HPDF_LoadJpegImageFromFile(d, path);
  ts_image_status st = TS_IMAGE_UNREADABLE;
  if (im) {
    *width = HPDF_Image_GetWidth(im);
    *height = HPDF_Image_GetHeight(im);
    if (*width && *height)
      st = TS_IMAGE_OK;
  }
  HPDF_Free(d);
  return st;
}

/* Samples of w x h pixels, ch colour channels (1 or 3) and, when alpha,
 * an alpha channel after them, 8 bits each, as a libharu image: the
 * colours raw, the alpha as a soft mask (px is rewritten in place). */
static HPDF_Image raw_image(ts_pdf *p, unsigned char *px, unsigned w,
                            unsigned h, size_t ch, bool alpha) {
  HPDF_ColorSpace cs = ch == 3 ? HPDF_CS_DEVICE_RGB : HPDF_CS_DEVICE_GRAY;
  if (!alpha)
    return HPDF_LoadRawImageFromMem(p->doc, px, w, h, cs, 8);
  size_t npx = (size_t)w * h;
  unsigned char *mask = oc_malloc(npx);
  /* the colours and the alpha apart, in place: colours first */
  for (size_t i = 0; i < npx; i++) {
    mask[i] = px[i * (ch + 1) + ch];
    memmove(px + i * ch, px + i * (ch + 1), ch);
  }
  HPDF_Image out = HPDF_LoadRawImageFromMem(p->doc, px, w, h, cs, 8);
  HPDF_Image sm =
      out ? HPDF_LoadRawImageFromMem(p->doc, mask, w, h, HPDF_CS_DEVICE_GRAY, 8)
          : NULL;
  free(mask);
  if (!sm || HPDF_Image_AddSMask(out, sm) != HPDF_OK)
    return NULL;
  return out;
}

/* A PNG decoded by libpng to 8 bits a channel (libharu 2.3.0 garbles
 * 16-bit files and refuses interlaced ones) and handed to libharu as raw
 * samples: nothing is compressed twice (libharu deflates the samples
 * once, when it saves). */
static HPDF_Image load_png(ts_pdf *p, const char *path) {
  png_image im;
  memset(&im, 0, sizeof im);
  im.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&im, path))
    return NULL;
  /* PDF/A-1 allows no soft mask: libpng composes the alpha on white */
  bool alpha = (im.format & PNG_FORMAT_FLAG_ALPHA) && !p->pdfa;
  bool color = im.format & PNG_FORMAT_FLAG_COLOR;
  im.format = color ? (alpha ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB)
                    : (alpha ? PNG_FORMAT_GA : PNG_FORMAT_GRAY);
  png_color white = {255, 255, 255};
  size_t size = PNG_IMAGE_SIZE(im);
  png_bytep px = oc_malloc(size);
  if (!png_image_finish_read(&im, &white, px, 0, NULL)) {
    png_image_free(&im);
    free(px);
    return NULL;
  }
  HPDF_Image out = raw_image(p, px, im.width, im.height, color ? 3 : 1, alpha);
  free(px);
  return out;
}

/* RGBA samples from premultiplied ARGB (cairo's, native-endian 32-bit
 * words): colours un-premultiplied, or composed on white for PDF/A. */
static unsigned char *from_argb(const unsigned char *data, int stride,
                                unsigned w, unsigned h, bool alpha) {
  size_t ch = alpha ? 4 : 3;
  unsigned char *px =
      oc_malloc(oc_size_add(oc_size_mul(oc_size_mul(w, h), ch), 1));
  for (unsigned y = 0; y < h; y++) {
    const uint32_t *row =
        (const uint32_t *)(const void *)(data + (size_t)y * stride);
    for (unsigned x = 0; x < w; x++) {
      uint32_t v = row[x];
      unsigned a = v >> 24, r = (v >> 16) & 255, g = (v >> 8) & 255,
               b = v & 255;
      unsigned char *o = px + ((size_t)y * w + x) * ch;
      if (alpha) {
        o[0] = (unsigned char)(a ? (r * 255 + a / 2) / a : 0);
        o[1] = (unsigned char)(a ? (g * 255 + a / 2) / a : 0);
        o[2] = (unsigned char)(a ? (b * 255 + a / 2) / a : 0);
        o[3] = (unsigned char)a;
      } else { /* premultiplied over white: c + (255 - a) */
        o[0] = (unsigned char)(r + 255 - a);
        o[1] = (unsigned char)(g + 255 - a);
        o[2] = (unsigned char)(b + 255 - a);
      }
    }
  }
  return px;
}

/* An SVG drawn by librsvg and cairo at 3 pixels to each of its own (288
 * pixels an inch at its natural size, more where it is scaled down to
 * the measure), at most 4,000 pixels a side: a raster, as libharu has no
 * way to take vector art from another program. */
static HPDF_Image load_svg(ts_pdf *p, const char *path) {
  double w, h;
  RsvgHandle *hd = svg_open(path, &w, &h);
  if (!hd)
    return NULL;
  double scale = 3;
  if (w * scale > 4000)
    scale = 4000 / w;
  if (h * scale > 4000)
    scale = 4000 / h;
  int pw = (int)ceil(w * scale), ph = (int)ceil(h * scale);
  cairo_surface_t *sf = cairo_image_surface_create(
      CAIRO_FORMAT_ARGB32, pw > 0 ? pw : 1, ph > 0 ? ph : 1);
  cairo_t *cr = cairo_create(sf);
  RsvgRectangle vp = {0, 0, pw, ph};
  GError *err = NULL;
  bool ok = rsvg_handle_render_document(hd, cr, &vp, &err);
  g_clear_error(&err);
  cairo_destroy(cr);
  cairo_surface_flush(sf);
  HPDF_Image out = NULL;
  if (ok && cairo_surface_status(sf) == CAIRO_STATUS_SUCCESS) {
    bool alpha = !p->pdfa;
    unsigned char *px = from_argb(cairo_image_surface_get_data(sf),
                                  cairo_image_surface_get_stride(sf),
                                  (unsigned)pw, (unsigned)ph, alpha);
    out = raw_image(p, px, (unsigned)pw, (unsigned)ph, 3, alpha);
    free(px);
  }
  cairo_surface_destroy(sf);
  g_object_unref(hd);
  return out;
}

/* LeakSanitizer builds: librsvg draws SVG text through pango, whose
 * fontconfig font map is a process-wide cache never freed (valgrind's
 * runs suppress the same, tests/books/valgrind.supp). */
#if defined(__SANITIZE_ADDRESS__)
#define TS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TS_ASAN 1
#endif
#endif
#ifdef TS_ASAN
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) {
  return "leak:libpango\nleak:libfontconfig\nleak:librsvg\n";
}
#endif

/* A GIF (its first frame) through gdk-pixbuf. */
static HPDF_Image load_gif(ts_pdf *p, const char *path) {
  GError *err = NULL;
  GdkPixbuf *pb = gdk_pixbuf_new_from_file(path, &err);
  g_clear_error(&err);
  if (!pb || gdk_pixbuf_get_bits_per_sample(pb) != 8 ||
      gdk_pixbuf_get_colorspace(pb) != GDK_COLORSPACE_RGB) {
    if (pb)
      g_object_unref(pb);
    return NULL;
  }
  unsigned w = (unsigned)gdk_pixbuf_get_width(pb),
           h = (unsigned)gdk_pixbuf_get_height(pb);
  int stride = gdk_pixbuf_get_rowstride(pb);
  bool has_alpha = gdk_pixbuf_get_has_alpha(pb);
  bool alpha = has_alpha && !p->pdfa;
  size_t in_ch = has_alpha ? 4 : 3, ch = alpha ? 4 : 3;
  const unsigned char *data = gdk_pixbuf_read_pixels(pb);
  unsigned char *px =
      oc_malloc(oc_size_add(oc_size_mul(oc_size_mul(w, h), ch), 1));
  for (unsigned y = 0; y < h; y++)
    for (unsigned x = 0; x < w; x++) {
      const unsigned char *i = data + (size_t)y * stride + x * in_ch;
      unsigned char *o = px + ((size_t)y * w + x) * ch;
      unsigned a = has_alpha ? i[3] : 255;
      for (int k = 0; k < 3; k++)
        o[k] = alpha
                   ? i[k]
                   : (unsigned char)((i[k] * a + 255 * (255 - a) + 127) / 255);
      if (alpha)
        o[3] = (unsigned char)a;
    }
  HPDF_Image out = raw_image(p, px, w, h, 3, alpha);
  free(px);
  g_object_unref(pb);
  return out;
}

void ts_pdf_set_image_limits(ts_pdf *p, uint64_t max_pixels,
                             unsigned max_ppi) {
  p->image_max_pixels = max_pixels;
  p->image_max_ppi = max_ppi;
}

/* The whole factor by which a PNG or JPEG of sw x sh pixels placed at
 * w x h points can be reduced and keep image_max_ppi (1: keep it whole). */
static unsigned reduce_factor(const ts_pdf *p, unsigned sw, unsigned sh,
                              double w, double h) {
  if (!p->image_max_ppi || !(w > 0) || !(h > 0))
    return 1;
  double need_w = ceil(w / 72.0 * p->image_max_ppi);
  double need_h = ceil(h / 72.0 * p->image_max_ppi);
  double f = floor(fmin(sw / need_w, sh / need_h));
  return f >= 2 ? (f > 65536 ? 65536 : (unsigned)f) : 1;
}

/* A PNG or JPEG reduced by f, decoded row by row; NULL after reporting. */
static HPDF_Image load_reduced(ts_pdf *p, const char *path, int kind,
                               unsigned f, bool *pass) {
  ts_raster r;
  char why[200];
  *pass = false;
  if (ts_image_decode(path, kind, f, !p->pdfa, &r, why, sizeof why) != 0) {
    if (!why[0]) { /* a CMYK JPEG: kept whole */
      *pass = true;
      return NULL;
    }
    oc_report(p->rep, OC_ERROR, path, 0, 0, "cannot place the image: %s",
              why);
    return NULL;
  }
  HPDF_Image out = raw_image(p, r.px, r.w, r.h, r.ch, r.alpha);
  free(r.px);
  return out;
}

ts_pdf_image *ts_pdf_image_load(ts_pdf *p, const char *path, double w,
                                double h) {
  if (failed(p))
    return NULL;
  int kind = image_kind(path);
  unsigned sw = 0, sh = 0, f = 1;
  if (kind == 1 || kind == 2 || kind == 4) {
    char why[200];
    if (ts_image_header(path, kind, &sw, &sh, why, sizeof why) != 0) {
      oc_report(p->rep, OC_ERROR, path, 0, 0, "cannot place the image: %s",
                why);
      return NULL;
    }
    if (p->image_max_pixels &&
        (uint64_t)sw * sh > p->image_max_pixels) {
      oc_report(p->rep, OC_ERROR, path, 0, 0,
                "the image has %ux%u pixels, more than the %llu megapixels "
                "of the edition option image_max_megapixels",
                sw, sh, (unsigned long long)(p->image_max_pixels / 1000000));
      return NULL;
    }
    /* a GIF is read whole by gdk-pixbuf: the cap bounds it */
    if (kind != 4)
      f = reduce_factor(p, sw, sh, w, h);
  }
  /* an image already loaded with pixels enough for this size */
  for (ts_pdf_image *i = p->images; i; i = i->next)
    if (!strcmp(i->path, path) &&
        (!i->px_w || (i->px_w >= (sw + f - 1) / f && i->px_h >= (sh + f - 1) / f)))
      return i;
  bool pass = true;
  HPDF_Image img = NULL;
  if (f > 1) {
    img = load_reduced(p, path, kind, f, &pass);
    if (!img && !pass)
      return NULL;
    if (pass)
      f = 1;
  }
  if (!img)
    img = kind == 1   ? load_png(p, path)
          : kind == 2 ? HPDF_LoadJpegImageFromFile(p->doc, path)
          : kind == 3 ? load_svg(p, path)
          : kind == 4 ? load_gif(p, path)
                      : NULL;
  if (!img || failed(p)) {
    if (failed(p)) {
      report_failure(p, path, "cannot place the image");
      clear_failure(p);
    } else {
      oc_report(p->rep, OC_ERROR, path, 0, 0,
                "cannot place the image: not a PNG or JPEG file libpng or "
                "libharu can read");
    }
    return NULL;
  }
  ts_pdf_image *i = oc_arena_calloc(p->arena, 1, sizeof *i);
  i->path = dup_str(p->arena, path);
  i->image = img;
  if (f > 1) {
    i->px_w = (sw + f - 1) / f;
    i->px_h = (sh + f - 1) / f;
  }
  i->next = p->images;
  p->images = i;
  return i;
}

void ts_pdf_draw_image(ts_pdf *p, int page, ts_pdf_image *img, double x,
                       double y, double w, double h) {
  HPDF_Page pg =
      draw_page_at(p, page, "an image on a page that does not exist");
  if (!pg || !img)
    return;
  HPDF_Page_DrawImage(pg, img->image, (HPDF_REAL)x, (HPDF_REAL)y, (HPDF_REAL)w,
                      (HPDF_REAL)h);
}

/* ---- covers ------------------------------------------------------------ */

int ts_pdf_cover_image(ts_pdf *p, ts_pdf_image *img, double width,
                       double height, double bleed, unsigned marks) {
  if (failed(p) || !img)
    return -1;
  if (p->cover) {
    misuse(p, "a second cover page");
    return -1;
  }
  HPDF_Page page = p->pages.len
                       ? HPDF_InsertPage(p->doc, *(HPDF_Page *)p->pages.items)
                       : HPDF_AddPage(p->doc);
  if (!page)
    return -1;
  p->cover = page;
  print_geometry(p, page, width, height, bleed, marks);
  if (!(bleed > 0))
    bleed = 0;
  /* Scaled to cover the bleed box, centred; what overflows is clipped. */
  double bw = width + 2 * bleed, bh = height + 2 * bleed;
  double iw = HPDF_Image_GetWidth(img->image);
  double ih = HPDF_Image_GetHeight(img->image);
  if (iw <= 0 || ih <= 0)
    return -1;
  double scale = fmax(bw / iw, bh / ih);
  double dw = iw * scale, dh = ih * scale;
  /* the cover's picture repeats the title page: an artifact when tagged */
  if (p->tag)
    HPDF_Stream_WriteStr(((HPDF_PageAttr)page->attr)->stream,
                         "/Artifact BMC\n");
  HPDF_Page_GSave(page);
  HPDF_Page_Rectangle(page, (HPDF_REAL)-bleed, (HPDF_REAL)-bleed, (HPDF_REAL)bw,
                      (HPDF_REAL)bh);
  HPDF_Page_Clip(page);
  HPDF_Page_EndPath(page);
  HPDF_Page_DrawImage(page, img->image, (HPDF_REAL)(-bleed + (bw - dw) / 2),
                      (HPDF_REAL)(-bleed + (bh - dh) / 2), (HPDF_REAL)dw,
                      (HPDF_REAL)dh);
  HPDF_Page_GRestore(page);
  if (p->tag)
    HPDF_Stream_WriteStr(((HPDF_PageAttr)page->attr)->stream, "EMC\n");
  return failed(p) ? -1 : 0;
}

int ts_pdf_inside_cover(ts_pdf *p, double width, double height, double bleed,
                        unsigned marks) {
  if (failed(p))
    return -1;
  if (p->pages.len || p->inside_cover) {
    misuse(p, "an inside cover after the body's first page");
    return -1;
  }
  HPDF_Page page = HPDF_AddPage(p->doc);
  if (!page)
    return -1;
  p->inside_cover = page;
  print_geometry(p, page, width, height, bleed, marks);
  return failed(p) ? -1 : 0;
}

void ts_pdf_front_pages(ts_pdf *p, int n) {
  if (p && n > 0)
    p->front_later = n;
}

/* ---- PDF/A-1b ---------------------------------------------------------- */

int ts_pdf_set_pdfa(ts_pdf *p, const char *icc_path) {
  if (failed(p))
    return -1;
  size_t len = 0;
  unsigned char *icc = read_file(p->arena, icc_path, &len);
  /* a profile: 'acsp' at 36; PDF 1.4 reads ICC version 2 */
  if (!icc || len < 128 || memcmp(icc + 36, "acsp", 4) || icc[8] != 2 ||
      memcmp(icc + 16, "RGB ", 4)) {
    oc_report(p->rep, OC_ERROR, icc_path, 0, 0,
              "cannot use it as the sRGB profile of PDF/A: %s",
              icc ? "not an RGB ICC version 2 profile" : strerror(errno));
    return -1;
  }
  HPDF_MMgr mm = p->doc->mmgr;
  HPDF_Dict profile = HPDF_DictStream_New(mm, p->doc->xref);
  HPDF_Dict intent = HPDF_Dict_New(mm);
  HPDF_Array intents = HPDF_Array_New(mm);
  if (!profile || !intent || !intents)
    return -1;
  profile->filter = HPDF_STREAM_FILTER_FLATE_DECODE;
  HPDF_Dict_AddNumber(profile, "N", 3);
  HPDF_Dict_AddName(profile, "Alternate", "DeviceRGB");
  HPDF_Stream_Write(profile->stream, icc, (HPDF_UINT)len);
  HPDF_Dict_AddName(intent, "Type", "OutputIntent");
  HPDF_Dict_AddName(intent, "S", "GTS_PDFA1");
  HPDF_Dict_Add(intent, "OutputConditionIdentifier",
                HPDF_String_New(mm, "sRGB IEC61966-2.1", NULL));
  HPDF_Dict_Add(intent, "Info", HPDF_String_New(mm, "sRGB IEC61966-2.1", NULL));
  HPDF_Dict_Add(intent, "RegistryName",
                HPDF_String_New(mm, "http://www.color.org", NULL));
  HPDF_Dict_Add(intent, "DestOutputProfile", profile);
  HPDF_Array_Add(intents, intent);
  HPDF_Dict_Add(p->doc->catalog, "OutputIntents", intents);
  p->pdfa = true;
  return failed(p) ? -1 : 0;
}

/* The XMP packet goes into its stream and into the digest that becomes
 * the trailer's /ID: the same book gives the same ID, another book
 * another one (libharu's own ID hashes the clock). */
typedef struct xmp_out {
  HPDF_Stream stream;
  HPDF_MD5_CTX md5;
} xmp_out;

static void xmp_put(xmp_out *x, const char *s, size_t n) {
  HPDF_Stream_Write(x->stream, (const HPDF_BYTE *)s, (HPDF_UINT)n);
  HPDF_MD5Update(&x->md5, (const HPDF_BYTE *)s, (HPDF_UINT)n);
}

static void xmp_puts(xmp_out *x, const char *s) { xmp_put(x, s, strlen(s)); }

static void xmp_text(xmp_out *x, const char *s) {
  for (const char *run = s;; s++) {
    const char *esc = *s == '&'   ? "&amp;"
                      : *s == '<' ? "&lt;"
                      : *s == '>' ? "&gt;"
                                  : NULL;
    if (esc || !*s) {
      xmp_put(x, run, (size_t)(s - run));
      if (!*s)
        return;
      xmp_puts(x, esc);
      run = s + 1;
    }
  }
}

static void xmp_prop(xmp_out *x, const char *name, const char *open,
                     const char *value, const char *close) {
  if (!value || !*value)
    return;
  xmp_puts(x, "<");
  xmp_puts(x, name);
  xmp_puts(x, ">");
  xmp_puts(x, open);
  xmp_text(x, value);
  xmp_puts(x, close);
  xmp_puts(x, "</");
  xmp_puts(x, name);
  xmp_puts(x, ">\n");
}

/* What only the end of the document knows: XMP repeating the Info
 * entries (libharu's own escapes nothing) with the identification of
 * PDF/A-1b and of PDF/UA-1 (a tagged PDF), one packet for both; the ID;
 * the version (1.4 for PDF/A, 1.7 for PDF/UA alone). The fonts' CIDSet,
 * which PDF/A-1 wants, is written with the fonts (ts_pdffont.c). */
static void finish_metadata(ts_pdf *p) {
  HPDF_MMgr mm = p->doc->mmgr;
  HPDF_Dict meta = HPDF_DictStream_New(mm, p->doc->xref);
  if (!meta)
    return;
  /* PDF/A-1 wants the packet readable as is: no filter */
  meta->filter = HPDF_STREAM_FILTER_NONE;
  HPDF_Dict_AddName(meta, "Type", "Metadata");
  HPDF_Dict_AddName(meta, "Subtype", "XML");
  xmp_out x = {.stream = meta->stream};
  HPDF_MD5Init(&x.md5);
  char date[40] = "";
  struct tm tm;
  if (p->info.has_date && gmtime_r(&p->info.date, &tm))
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S+00:00", &tm);
  const char *producer = HPDF_GetInfoAttr(p->doc, HPDF_INFO_PRODUCER);
  xmp_puts(&x, "<?xpacket begin=\"\xEF\xBB\xBF\" "
               "id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
               "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n"
               "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/"
               "22-rdf-syntax-ns#\">\n");
  if (p->pdfa && p->tag)
    /* PDF/A-1 allows other schemas when the packet describes them */
    xmp_puts(&x,
             "<rdf:Description rdf:about=\"\"\n"
             " xmlns:pdfaExtension=\"http://www.aiim.org/pdfa/ns/extension/\"\n"
             " xmlns:pdfaSchema=\"http://www.aiim.org/pdfa/ns/schema#\"\n"
             " xmlns:pdfaProperty=\"http://www.aiim.org/pdfa/ns/property#\">\n"
             "<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType=\"Resource\">\n"
             "<pdfaSchema:schema>PDF/UA identification</pdfaSchema:schema>\n"
             "<pdfaSchema:namespaceURI>http://www.aiim.org/pdfua/ns/id/"
             "</pdfaSchema:namespaceURI>\n"
             "<pdfaSchema:prefix>pdfuaid</pdfaSchema:prefix>\n"
             "<pdfaSchema:property><rdf:Seq><rdf:li rdf:parseType=\"Resource\">\n"
             "<pdfaProperty:name>part</pdfaProperty:name>\n"
             "<pdfaProperty:valueType>Integer</pdfaProperty:valueType>\n"
             "<pdfaProperty:category>internal</pdfaProperty:category>\n"
             "<pdfaProperty:description>the part of PDF/UA</pdfaProperty:description>\n"
             "</rdf:li></rdf:Seq></pdfaSchema:property>\n"
             "</rdf:li></rdf:Bag></pdfaExtension:schemas>\n"
             "</rdf:Description>\n");
  xmp_puts(&x, "<rdf:Description rdf:about=\"\"\n"
               " xmlns:dc=\"http://purl.org/dc/elements/1.1/\"\n"
               " xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\"\n"
               " xmlns:pdf=\"http://ns.adobe.com/pdf/1.3/\"");
  if (p->pdfa)
    xmp_puts(&x, "\n xmlns:pdfaid=\"http://www.aiim.org/pdfa/ns/id/\"");
  if (p->tag)
    xmp_puts(&x, "\n xmlns:pdfuaid=\"http://www.aiim.org/pdfua/ns/id/\"");
  xmp_puts(&x, ">\n");
  if (p->pdfa)
    xmp_puts(&x, "<pdfaid:part>1</pdfaid:part>\n"
                 "<pdfaid:conformance>B</pdfaid:conformance>\n");
  if (p->tag)
    xmp_puts(&x, "<pdfuaid:part>1</pdfuaid:part>\n");
  xmp_puts(&x, "<dc:format>application/pdf</dc:format>\n");
  xmp_prop(&x, "dc:title", "<rdf:Alt><rdf:li xml:lang=\"x-default\">",
           p->info.title, "</rdf:li></rdf:Alt>");
  xmp_prop(&x, "dc:creator", "<rdf:Seq><rdf:li>", p->info.author,
           "</rdf:li></rdf:Seq>");
  xmp_prop(&x, "dc:description", "<rdf:Alt><rdf:li xml:lang=\"x-default\">",
           p->info.subject, "</rdf:li></rdf:Alt>");
  xmp_prop(&x, "pdf:Keywords", "", p->info.keywords, "");
  xmp_prop(&x, "pdf:Producer", "", producer, "");
  xmp_prop(&x, "xmp:CreatorTool", "", p->info.creator, "");
  xmp_prop(&x, "xmp:CreateDate", "", date, "");
  xmp_prop(&x, "xmp:ModifyDate", "", date, "");
  xmp_puts(&x, "</rdf:Description>\n</rdf:RDF>\n</x:xmpmeta>\n"
               "<?xpacket end=\"r\"?>");
  HPDF_Dict_Add(p->doc->catalog, "Metadata", meta);

  char pages[32];
  snprintf(pages, sizeof pages, "%zu", p->pages.len);
  HPDF_MD5Update(&x.md5, (const HPDF_BYTE *)pages, (HPDF_UINT)strlen(pages));
  HPDF_BYTE id[HPDF_MD5_KEY_LEN];
  HPDF_MD5Final(id, &x.md5);
  HPDF_Array ids = HPDF_Array_New(mm);
  if (ids) {
    HPDF_Array_Add(ids, HPDF_Binary_New(mm, id, sizeof id));
    HPDF_Array_Add(ids, HPDF_Binary_New(mm, id, sizeof id));
    HPDF_Dict_Add(p->doc->trailer, "ID", ids);
  }
  HPDF_PDFVer version = p->pdfa ? HPDF_VER_14 : HPDF_VER_17;
  if (p->doc->pdf_version < version)
    p->doc->pdf_version = version;
}
