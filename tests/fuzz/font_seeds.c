/* The seeds of the font fuzz target, made from Debian's fonts (none is
 * committed): small subsets, cut by HarfBuzz, of a TrueType face with
 * astral letters (DejaVu Serif), one with GPOS kerning (EB Garamond
 * Italic), a name-keyed CFF face (TeX Gyre Pagella) and a CID-keyed CFF
 * face from a collection (Noto Serif CJK). usage: font_seeds DIR */
#include <errno.h>
#include <hb-subset.h>
#include <hb.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

typedef struct seed {
  const char *out, *path;
  unsigned index;
  hb_codepoint_t text[12];
} seed;

static const seed seeds[] = {
    {"truetype.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", 0,
     {'A', 'V', 'f', 'i', 0xE9, 0x3A9, 0x1D538, ' ', '1'}},
    {"truetype-kern.ttf",
     "/usr/share/fonts/truetype/ebgaramond/EBGaramond12-Italic.ttf", 0,
     {'A', 'V', 'f', 'i', 0xFB01, ' ', '1'}},
    {"cff-name-keyed.otf",
     "/usr/share/texmf/fonts/opentype/public/tex-gyre/"
     "texgyrepagella-regular.otf",
     0, {'A', 'V', 'f', 'i', 0xE9, 0x3A9, 0xFB01, ' ', '1'}},
    {"cff-cid-keyed.otf",
     "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc", 0,
     {'A', 0x6F22, ' ', '1'}},
};

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: font_seeds DIR\n");
    return 2;
  }
  if (mkdir(argv[1], 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "font_seeds: %s: %s\n", argv[1], strerror(errno));
    return 1;
  }
  int status = 0;
  for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
    const seed *s = &seeds[i];
    hb_blob_t *blob = hb_blob_create_from_file_or_fail(s->path);
    if (!blob) {
      fprintf(stderr, "font_seeds: cannot read %s\n", s->path);
      status = 1;
      continue;
    }
    hb_face_t *face = hb_face_create(blob, s->index);
    hb_subset_input_t *in = hb_subset_input_create_or_fail();
    hb_set_t *u = hb_subset_input_unicode_set(in);
    for (size_t k = 0; k < 12 && s->text[k]; k++)
      hb_set_add(u, s->text[k]);
    hb_set_t *drop = hb_subset_input_set(in, HB_SUBSET_SETS_DROP_TABLE_TAG);
    hb_set_add(drop, HB_TAG('G', 'S', 'U', 'B'));
    hb_subset_input_set_flags(in, HB_SUBSET_FLAGS_NO_HINTING);
    hb_face_t *sub = hb_subset_or_fail(face, in);
    hb_blob_t *out = sub ? hb_face_reference_blob(sub) : NULL;
    unsigned len = 0;
    const char *data = out ? hb_blob_get_data(out, &len) : NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", argv[1], s->out);
    FILE *f = data ? fopen(path, "wb") : NULL;
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
      fprintf(stderr, "font_seeds: cannot write %s\n", path);
      status = 1;
    }
    hb_blob_destroy(out);
    hb_face_destroy(sub);
    hb_subset_input_destroy(in);
    hb_face_destroy(face);
    hb_blob_destroy(blob);
  }
  return status;
}
