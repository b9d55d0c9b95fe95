/* libFuzzer target for images through what each writer does with them.
 * The first byte is kind + 5 * way: kind 0-4 names the file pic.png,
 * .jpg, .gif, .svg, or a cover.pdf; way 0-3 makes the PDF writer's calls
 * directly (probe, load, draw, a cover page, save; a cover PDF counted
 * and merged in front of a one-page body by qpdf), 4-5 publishes an epub
 * edition, 6 a pdf edition (typeset: ten times slower), 7 an html
 * edition, of a book whose chapter shows the image as a figure and, for
 * PNG and JPEG, takes it as the cover. The rest is the file. A broken
 * file must be a reported error, and nothing may crash, leak or read out
 * of bounds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_tmpbook.h"
#include "pdf_cover.h"
#include "ts_pdf.h"

static const char config[] =
    FZ_BOOK_HEAD "    - { element: chapter, number: 1, content: chapter1.md }\n"
                 "  editions:\n"
                 "    ebook: { format: epub }\n"
                 "    print: { format: pdf }\n"
                 "    web: { format: html }\n";

static const char *const exts[] = {"png", "jpg", "gif", "svg", "pdf"};
static const char *book;

/* A one-page PDF for covers to be merged in front of. */
static char body_pdf[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  book = fz_book_make(config);
  snprintf(body_pdf, sizeof body_pdf, "%s/body.pdf", book);
  fz_counts c = {0};
  oc_reporter rep = fz_reporter(&c);
  oc_arena *a = oc_arena_new();
  ts_pdf *p = ts_pdf_new(a, &rep, "body.pdf");
  ts_pdf_page_add(p, 300, 400);
  if (ts_pdf_save(p, body_pdf) != 0)
    abort();
  oc_arena_free(a);
  return 0;
}

/* A cover PDF as book_pdf.c takes it: its pages counted, then merged. */
static void through_pdf_cover(const char *rel, fz_counts *c,
                              const oc_reporter *rep) {
  char path[4096], out[4096];
  snprintf(path, sizeof path, "%s/%s", book, rel);
  snprintf(out, sizeof out, "%s/merged.pdf", book);
  unsigned errors = c->errors;
  int n = pdf_cover_pages(path, rel, rep);
  if (n < 0 || (n > 0 && pdf_cover_merge(path, rel, body_pdf, out, rep) != 0))
    if (c->errors == errors)
      abort(); /* refused without a reason */
}

static void remove_file(const char *rel) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", book, rel);
  unlink(path);
}

/* What the PDF engine does with an image: its size first (book_pdf.c's
 * probe), then loading, drawing it on a page and as a cover, saving. */
static void through_pdf_writer(const char *rel, fz_counts *c,
                               const oc_reporter *rep) {
  char path[4096], out[4096];
  snprintf(path, sizeof path, "%s/%s", book, rel);
  snprintf(out, sizeof out, "%s/out.pdf", book);
  unsigned w = 0, h = 0;
  double dpi = 0;
  ts_image_status st = ts_image_probe(path, &w, &h, &dpi);
  if (st != TS_IMAGE_OK)
    return;
  if (!w || !h || !(dpi > 0))
    abort(); /* probed, but no size */
  oc_arena *a = oc_arena_new();
  ts_pdf *p = ts_pdf_new(a, rep, "fuzz.pdf");
  unsigned errors = c->errors;
  ts_pdf_image *img = ts_pdf_image_load(p, path, 200, 100);
  if (img) {
    int page = ts_pdf_page_add(p, 300, 400);
    ts_pdf_draw_image(p, page, img, 10, 10, 200, 100);
    ts_pdf_cover_image(p, img, 300, 400, 9, TS_MARKS_CROP);
    if (ts_pdf_save(p, out) != 0 && c->errors == errors)
      abort();
  } else if (c->errors == errors) {
    abort(); /* refused without a reason */
  }
  oc_arena_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!size)
    return 0;
  int kind = data[0] % 5, way = (data[0] / 5) % 8;
  const char *ext = exts[kind];
  char rel[64], md[128];
  for (size_t i = 0; i < 5; i++) {
    snprintf(rel, sizeof rel, "Contents/images/pic.%s", exts[i]);
    remove_file(rel);
    snprintf(rel, sizeof rel, "Resources/Templates/cover.%s", exts[i]);
    remove_file(rel);
  }
  fz_counts c = {0};
  oc_reporter rep = fz_reporter(&c);
  bool cover = kind == 0 || kind == 1 || kind == 4;
  if (kind == 4) { /* a cover PDF: qpdf, or the pdf edition */
    snprintf(rel, sizeof rel, "Resources/Templates/cover.pdf");
    way = way < 6 ? 0 : 6;
  } else {
    snprintf(rel, sizeof rel, "Contents/images/pic.%s", ext);
  }
  fz_book_write(book, rel, data + 1, size - 1);
  if (way < 4) {
    if (kind == 4)
      through_pdf_cover(rel, &c, &rep);
    else
      through_pdf_writer(rel, &c, &rep);
    return 0;
  }
  if (cover && kind != 4) {
    char crel[64];
    snprintf(crel, sizeof crel, "Resources/Templates/cover.%s", ext);
    fz_book_write(book, crel, data + 1, size - 1);
  }
  int n = snprintf(md, sizeof md,
                   "# Pictures\n\n![A figure](images/pic.%s)\n\nText.\n", ext);
  fz_book_write(book, "Contents/chapter1.md", md, (size_t)n);
  static const char *const editions[] = {"",      "",      "",      "",
                                         "ebook", "ebook", "print", "web"};
  oc_arena *a = oc_arena_new();
  bk_config *cfg = bk_config_load(a, book, NULL, &rep);
  if (!cfg)
    abort();
  fz_publish(cfg, book, editions[way], FZ_WRITE, &rep, &c);
  oc_arena_free(a);
  return 0;
}
