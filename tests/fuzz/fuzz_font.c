/* libFuzzer target for a font file a book brings (@font-face): the bytes
 * are the file. It goes where the PDF edition takes such a file: the
 * typesetter's checks and metrics (ts_fonts_add_file: HarfBuzz), shaping
 * with kerning, then the PDF writer's embedding (FreeType for a CFF's
 * CIDs, HarfBuzz's subsetter, the CIDFont's objects) of a line of Latin,
 * Greek, Han and astral text, saved. A broken font must be a reported
 * warning or error, and nothing may crash, leak or read out of bounds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ts_font.h"
#include "ts_pdf.h"

static void quiet(void *user, oc_severity sev, const char *file, unsigned line,
                  unsigned col, const char *message) {
  (void)file, (void)line, (void)col, (void)message;
  if (sev == OC_ERROR)
    ++*(unsigned *)user;
}

static char dir[64], font_path[96], pdf_path[96];

static void cleanup(void) {
  unlink(font_path);
  unlink(pdf_path);
  rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!dir[0]) {
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/octavo-fuzz-XXXXXX", tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
      abort();
    snprintf(font_path, sizeof font_path, "%s/font.otf", dir);
    snprintf(pdf_path, sizeof pdf_path, "%s/out.pdf", dir);
    atexit(cleanup);
  }
  FILE *f = fopen(font_path, "wb");
  if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
    abort();
  unsigned errors = 0;
  oc_reporter rep = {quiet, &errors};
  oc_arena *a = oc_arena_new();
  ts_fonts *fonts = ts_fonts_new(a, &rep);
  ts_face *face =
      fonts ? ts_fonts_add_file(fonts, font_path, "font.otf", "Fuzz", 400,
                                false, "style.css", 1, 1)
            : NULL;
  if (face) {
    static const uint32_t text[] = {'A', 'V', 'f', 'f', 'i', 0xE9, 0x3A9,
                                    0x6F22, 0x1D538, 0xFB01, ' ', '1'};
    enum { N = sizeof text / sizeof text[0] };
    uint32_t shaped[N];
    int32_t kern[N];
    long width;
    size_t n = ts_face_shape(fonts, face, text, N, true, true, shaped, kern,
                             &width);
    for (size_t i = 0; i < N; i++)
      (void)ts_face_advance(face, text[i]);
    ts_pdf *p = ts_pdf_new(a, &rep, "out.pdf");
    ts_pdf_font *pf = ts_pdf_font_load(p, face->path, face->index);
    if (pf) {
      ts_pdf_page_add(p, 300, 300);
      ts_pdf_text(p, 0, pf, 12, 10, 100, (ts_rgb){0, 0, 0}, shaped, kern, n,
                  0);
    }
    unsigned before = errors;
    if (ts_pdf_save(p, pdf_path) != 0 && errors == before)
      abort(); /* refused without a reason */
  }
  oc_arena_free(a);
  return 0;
}
