/* PNG and JPEG decoded row by row and reduced by a box filter (ts_image.h):
 * the memory an image costs is its reduced copy plus a few rows, however
 * many pixels its header declares. */
#include "ts_image.h"
#include "oc_alloc.h"
#include "oc_file.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* jpeglib.h needs FILE and size_t first */
#include <jpeglib.h>
#include <jerror.h>
#include <png.h>

/* ---- the box filter --------------------------------------------------- */

/* Sums the rows of one band of f rows; emits a row of the output when the
 * band is full or the image ends. Colours are weighted by alpha. */
typedef struct box {
  unsigned in_w, in_ch; /* input pixels a row, channels a pixel */
  bool in_alpha;        /* the input's last channel is alpha */
  bool keep_alpha;      /* else composed on white */
  unsigned f, rows;     /* the factor; rows summed in this band */
  ts_raster *out;
  unsigned out_y;
  uint64_t *sum;        /* out->w * (colours + 1): colour*alpha..., alpha */
} box;

static void box_init(box *b, unsigned w, unsigned h, unsigned in_ch,
                     bool in_alpha, bool keep_alpha, unsigned f,
                     ts_raster *out) {
  memset(b, 0, sizeof *b);
  b->in_w = w;
  b->in_ch = in_ch;
  b->in_alpha = in_alpha;
  b->keep_alpha = keep_alpha && in_alpha;
  b->f = f ? f : 1;
  b->out = out;
  out->w = (w + b->f - 1) / b->f;
  out->h = (h + b->f - 1) / b->f;
  out->ch = in_alpha ? in_ch - 1 : in_ch;
  out->alpha = b->keep_alpha;
  size_t och = out->ch + (out->alpha ? 1 : 0);
  out->px = oc_malloc(oc_size_add(
      oc_size_mul(oc_size_mul(out->w, out->h), och), 1));
  b->sum = oc_calloc(oc_size_mul(out->w, out->ch + 1), sizeof *b->sum);
}

static void box_emit(box *b) {
  ts_raster *o = b->out;
  unsigned cch = o->ch, och = cch + (o->alpha ? 1 : 0);
  unsigned char *row = o->px + (size_t)b->out_y * o->w * och;
  for (unsigned x = 0; x < o->w; x++) {
    uint64_t *s = b->sum + (size_t)x * (cch + 1);
    unsigned cols = b->in_w - x * b->f < b->f ? b->in_w - x * b->f : b->f;
    uint64_t n = (uint64_t)cols * b->rows; /* pixels in the block */
    uint64_t a = s[cch];                   /* sum of alphas (255 each) */
    for (unsigned k = 0; k < cch; k++) {
      uint64_t v;
      if (b->keep_alpha)
        v = a ? (s[k] + a / 2) / a : 0;
      else /* composed on white: mean of c*a/255 + (255 - a) */
        v = (s[k] / 255 + (n * 255 - a) + n / 2) / n;
      row[x * och + k] = (unsigned char)(v > 255 ? 255 : v);
    }
    if (o->alpha)
      row[x * och + cch] = (unsigned char)((a + n / 2) / n);
  }
  memset(b->sum, 0, (size_t)o->w * (cch + 1) * sizeof *b->sum);
  b->rows = 0;
  b->out_y++;
}

static void box_row(box *b, const unsigned char *in) {
  unsigned cch = b->out->ch;
  if (!b->in_alpha) {
    /* opaque: plain sums, the alpha sum set once a block (255 a pixel) */
    uint64_t *s = b->sum;
    unsigned left = b->f;
    for (unsigned x = 0; x < b->in_w; x++) {
      for (unsigned k = 0; k < cch; k++)
        s[k] += (uint64_t)in[k] * 255;
      s[cch] += 255;
      in += cch;
      if (!--left) {
        left = b->f;
        s += cch + 1;
      }
    }
    if (++b->rows == b->f)
      box_emit(b);
    return;
  }
  for (unsigned x = 0; x < b->in_w; x++) {
    const unsigned char *p = in + (size_t)x * b->in_ch;
    unsigned a = b->in_alpha ? p[cch] : 255;
    uint64_t *s = b->sum + (size_t)(x / b->f) * (cch + 1);
    for (unsigned k = 0; k < cch; k++)
      s[k] += (uint64_t)p[k] * a;
    s[cch] += a;
  }
  if (++b->rows == b->f)
    box_emit(b);
}

static void box_finish(box *b) {
  if (b->rows)
    box_emit(b);
  free(b->sum);
  b->sum = NULL;
}

/* ---- PNG -------------------------------------------------------------- */

typedef struct png_err {
  jmp_buf jb;
  char *why;
  size_t n;
} png_err;

static void png_fail(png_structp png, png_const_charp msg) {
  png_err *e = png_get_error_ptr(png);
  /* libpng says "Read Error" when the file ends early */
  snprintf(e->why, e->n, "%s",
           !strcmp(msg, "Read Error") ? "the file ends before its image does"
                                      : msg);
  longjmp(e->jb, 1);
}

static void png_quiet(png_structp png, png_const_charp msg) {
  (void)png, (void)msg;
}

/* What a PNG read keeps across the longjmp of an error. */
typedef struct png_job {
  FILE *f;
  png_structp png;
  png_infop info;
  unsigned char *row, *all;
  png_bytep *rows; /* in the job: libpng's longjmp may leave any time */
  box b;
  bool box_open;
} png_job;

static void png_job_free(png_job *j) {
  if (j->png)
    png_destroy_read_struct(&j->png, j->info ? &j->info : NULL, NULL);
  if (j->f)
    fclose(j->f);
  free(j->row);
  free(j->all);
  free(j->rows);
  if (j->box_open)
    free(j->b.sum);
}

/* mode 0: header only; 1: verify; 2: decode reduced into out. */
static int png_run(const char *path, int mode, unsigned f, bool keep_alpha,
                   unsigned *w, unsigned *h, ts_raster *out, char *why,
                   size_t n) {
  png_job *volatile jv = oc_calloc(1, sizeof(png_job));
  png_job *j = jv;
  png_err err = {.why = why, .n = n};
  int rc = -1;
  j->f = oc_fopen_regular(path);
  if (!j->f) {
    snprintf(why, n, "cannot open it");
    goto done;
  }
  j->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &err, png_fail,
                                  png_quiet);
  if (!j->png || !(j->info = png_create_info_struct(j->png))) {
    snprintf(why, n, "libpng cannot start");
    goto done;
  }
  if (setjmp(err.jb)) {
    j = jv;
    rc = -1;
    if (out && j->box_open) {
      free(out->px);
      out->px = NULL;
    }
    goto done;
  }
  png_init_io(j->png, j->f);
  /* The pixel cap is the caller's: libpng's own (1,000,000 a side) would
   * refuse what the cap lets through. */
  png_set_user_limits(j->png, 0x7fffffff, 0x7fffffff);
#ifdef PNG_IGNORE_ADLER32
  /* inflate finds a truncated or corrupt stream without it */
  png_set_option(j->png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
  png_read_info(j->png, j->info);
  *w = png_get_image_width(j->png, j->info);
  *h = png_get_image_height(j->png, j->info);
  if (mode == 0) {
    rc = 0;
    goto done;
  }
  png_set_expand(j->png);
  png_set_scale_16(j->png);
  int passes = png_set_interlace_handling(j->png);
  png_read_update_info(j->png, j->info);
  unsigned ch = png_get_channels(j->png, j->info);
  size_t rowbytes = png_get_rowbytes(j->png, j->info);
  bool alpha = ch == 2 || ch == 4;
  if (mode == 2) {
    box_init(&j->b, *w, *h, ch, alpha, keep_alpha, f, out);
    j->box_open = true;
  }
  if (passes > 1) {
    /* interlaced: the passes fill the whole image before any row is done */
    j->all = oc_malloc(oc_size_add(oc_size_mul(rowbytes, *h), 1));
    j->rows = oc_malloc(oc_size_mul(*h ? *h : 1, sizeof *j->rows));
    for (unsigned y = 0; y < *h; y++)
      j->rows[y] = j->all + (size_t)y * rowbytes;
    png_read_image(j->png, j->rows);
    if (mode == 2)
      for (unsigned y = 0; y < *h; y++)
        box_row(&j->b, j->all + (size_t)y * rowbytes);
  } else {
    j->row = oc_malloc(rowbytes + 1);
    for (unsigned y = 0; y < *h; y++) {
      png_read_row(j->png, j->row, NULL);
      if (mode == 2)
        box_row(&j->b, j->row);
    }
  }
  png_read_end(j->png, NULL);
  if (mode == 2) {
    box_finish(&j->b);
    j->box_open = false;
  }
  rc = 0;
done:
  png_job_free(j);
  free(j);
  return rc;
}

/* ---- JPEG ------------------------------------------------------------- */

typedef struct jpg_err {
  struct jpeg_error_mgr pub;
  jmp_buf jb;
  char msg[JMSG_LENGTH_MAX];
  int warnings;
} jpg_err;

static void jpg_fail(j_common_ptr c) {
  jpg_err *e = (jpg_err *)(void *)c->err;
  c->err->format_message(c, e->msg);
  longjmp(e->jb, 1);
}

/* Warnings are what libjpeg says of a truncated file ("Premature end of
 * JPEG file") or corrupt data: the image is then refused. */
static void jpg_emit(j_common_ptr c, int level) {
  jpg_err *e = (jpg_err *)(void *)c->err;
  if (level >= 0)
    return;
  /* stray bytes before a marker and odd headers are common and harmless */
  switch (c->err->msg_code) {
  case JWRN_JPEG_EOF:
  case JWRN_HIT_MARKER:
  case JWRN_MUST_RESYNC:
  case JWRN_HUFF_BAD_CODE:
  case JWRN_NOT_SEQUENTIAL:
    if (!e->warnings++)
      c->err->format_message(c, e->msg);
    break;
  default:
    break;
  }
}

typedef struct jpg_job {
  FILE *f;
  struct jpeg_decompress_struct d;
  bool created;
  unsigned char *row;
  box b;
  bool box_open;
} jpg_job;

static int jpg_run(const char *path, int mode, unsigned f, unsigned *w,
                   unsigned *h, ts_raster *out, char *why, size_t n) {
  jpg_job *volatile jv = oc_calloc(1, sizeof(jpg_job));
  jpg_job *j = jv;
  jpg_err err;
  memset(&err, 0, sizeof err);
  int rc = -1;
  j->f = oc_fopen_regular(path);
  if (!j->f) {
    snprintf(why, n, "cannot open it");
    goto done;
  }
  j->d.err = jpeg_std_error(&err.pub);
  err.pub.error_exit = jpg_fail;
  err.pub.emit_message = jpg_emit;
  if (setjmp(err.jb)) {
    j = jv;
    rc = -1;
    snprintf(why, n, "%s", err.msg);
    if (j->box_open) {
      free(out->px);
      out->px = NULL;
    }
    goto done;
  }
  jpeg_create_decompress(&j->d);
  j->created = true;
  jpeg_stdio_src(&j->d, j->f);
  jpeg_read_header(&j->d, TRUE);
  *w = j->d.image_width;
  *h = j->d.image_height;
  if (mode == 0) {
    rc = 0;
    goto done;
  }
  bool cmyk = j->d.jpeg_color_space == JCS_CMYK ||
              j->d.jpeg_color_space == JCS_YCCK;
  if (mode == 2 && cmyk) {
    why[0] = 0; /* not an error: pass it through whole */
    goto done;
  }
  /* libjpeg's DCT scaling does the first halvings for free */
  unsigned denom = 1;
  if (mode == 1)
    denom = 8;
  else
    while (denom < 8 && f % (denom * 2) == 0)
      denom *= 2;
  j->d.scale_num = 1;
  j->d.scale_denom = denom;
  if (mode == 1) {
    j->d.dct_method = JDCT_IFAST;
    j->d.do_fancy_upsampling = FALSE;
  }
  if (!cmyk)
    j->d.out_color_space =
        j->d.jpeg_color_space == JCS_GRAYSCALE ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_start_decompress(&j->d);
  unsigned ow = j->d.output_width, oh = j->d.output_height;
  unsigned ch = (unsigned)j->d.output_components;
  if (mode == 2) {
    box_init(&j->b, ow, oh, ch, false, false, f / denom, out);
    j->box_open = true;
  }
  j->row = oc_malloc(oc_size_add(oc_size_mul(ow, ch), 1));
  while (j->d.output_scanline < oh) {
    JSAMPROW r = j->row;
    if (jpeg_read_scanlines(&j->d, &r, 1) != 1)
      break;
    if (mode == 2)
      box_row(&j->b, j->row);
  }
  jpeg_finish_decompress(&j->d);
  if (err.warnings) {
    snprintf(why, n, "%s", err.msg);
    if (mode == 2) {
      box_finish(&j->b);
      j->box_open = false;
      free(out->px);
      out->px = NULL;
    }
    goto done;
  }
  if (mode == 2) {
    box_finish(&j->b);
    j->box_open = false;
  }
  rc = 0;
done:
  j = jv;
  if (j->created)
    jpeg_destroy_decompress(&j->d);
  if (j->f)
    fclose(j->f);
  free(j->row);
  if (j->box_open)
    free(j->b.sum);
  free(j);
  return rc;
}

/* ---- the API ---------------------------------------------------------- */

int ts_image_sniff(const char *path) {
  unsigned char b[8] = {0};
  FILE *f = oc_fopen_regular(path);
  if (!f)
    return -1;
  size_t n = fread(b, 1, sizeof b, f);
  fclose(f);
  if (n >= 8 && !png_sig_cmp(b, 0, 8))
    return 1;
  if (n >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF)
    return 2;
  if (n >= 4 && !memcmp(b, "GIF8", 4))
    return 4;
  return 0;
}

/* A GIF's logical screen, the size gdk-pixbuf allocates for its frames:
 * 49 bytes declaring 17993x14649 took 2 GB (found by fuzz_image). */
static int gif_header(const char *path, unsigned *w, unsigned *h, char *why,
                      size_t whylen) {
  unsigned char b[10];
  FILE *f = oc_fopen_regular(path);
  if (!f) {
    snprintf(why, whylen, "cannot be read");
    return -1;
  }
  size_t n = fread(b, 1, sizeof b, f);
  fclose(f);
  if (n < sizeof b || memcmp(b, "GIF8", 4) != 0) {
    snprintf(why, whylen, "not a GIF file");
    return -1;
  }
  *w = (unsigned)b[6] | (unsigned)b[7] << 8;
  *h = (unsigned)b[8] | (unsigned)b[9] << 8;
  return 0;
}

int ts_image_header(const char *path, int kind, unsigned *w, unsigned *h,
                    char *why, size_t whylen) {
  *w = *h = 0;
  if (kind == 1)
    return png_run(path, 0, 1, false, w, h, NULL, why, whylen);
  if (kind == 2)
    return jpg_run(path, 0, 1, w, h, NULL, why, whylen);
  if (kind == 4)
    return gif_header(path, w, h, why, whylen);
  snprintf(why, whylen, "not a PNG, JPEG or GIF file");
  return -1;
}

int ts_image_verify(const char *path, int kind, char *why, size_t whylen) {
  unsigned w, h;
  if (kind == 1)
    return png_run(path, 1, 1, false, &w, &h, NULL, why, whylen);
  if (kind == 2)
    return jpg_run(path, 1, 1, &w, &h, NULL, why, whylen);
  return 0;
}

int ts_image_decode(const char *path, int kind, unsigned f, bool keep_alpha,
                    ts_raster *out, char *why, size_t whylen) {
  unsigned w, h;
  memset(out, 0, sizeof *out);
  why[0] = 0;
  if (kind == 1)
    return png_run(path, 2, f, keep_alpha, &w, &h, out, why, whylen);
  if (kind == 2)
    return jpg_run(path, 2, f, &w, &h, out, why, whylen);
  snprintf(why, whylen, "not a PNG or JPEG file");
  return -1;
}
