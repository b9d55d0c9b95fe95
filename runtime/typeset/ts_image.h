/* PNG and JPEG decoded row by row (libpng, libjpeg) into 8-bit samples,
 * reduced by a box filter on the way, so that an image of any size costs
 * a few rows of memory plus its reduced copy; and a check that a file
 * decodes whole (a truncated or corrupt file is refused, not published).
 * No libharu here: ts_pdf.c hands the samples to it. */
#ifndef TS_IMAGE_H
#define TS_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The caps of an edition (image_max_megapixels, image_max_ppi). */
#define TS_IMAGE_MAX_PIXELS ((uint64_t)100000000)
#define TS_IMAGE_MAX_PPI 300

/* Samples of w x h pixels: ch colour channels (1 grey or 3 RGB), then the
 * alpha when alpha, 8 bits each, rows packed; px is malloc'd. */
typedef struct ts_raster {
  unsigned char *px;
  unsigned w, h, ch;
  bool alpha;
} ts_raster;

/* 1 for a PNG, 2 for a JPEG, 4 for a GIF (by their first bytes), 0 for
 * anything else, -1 when the file cannot be opened. */
int ts_image_sniff(const char *path);

/* Width and height from the header alone (PNG, JPEG or GIF: kind 1, 2 or
 * 4 as ts_image_sniff says; a GIF's logical screen). 0, or -1 with why
 * filled. */
int ts_image_header(const char *path, int kind, unsigned *w, unsigned *h,
                    char *why, size_t whylen);

/* Decodes the whole file without keeping it (JPEG at 1/8 scale, which
 * still reads every coefficient): 0, or -1 with the decoder's reason in
 * why (a truncated file, a bad checksum, corrupt data). */
int ts_image_verify(const char *path, int kind, char *why, size_t whylen);

/* Decodes the file reduced by the whole factor f >= 1 (each output pixel
 * the mean of an f x f block; alpha-weighted colours), alpha kept when
 * keep_alpha, else composed on white. JPEG in CMYK is refused (-1 with
 * why empty: pass it through whole). 0, or -1 with why filled. */
int ts_image_decode(const char *path, int kind, unsigned f, bool keep_alpha,
                    ts_raster *out, char *why, size_t whylen);

#endif
