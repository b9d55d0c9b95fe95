/* The temporary book of the fuzz targets that publish (fuzz_tmpbook.h). */
#include "fuzz_tmpbook.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book_fs.h"
#include "book_writers.h"

const unsigned char fz_png1x1[67] = {
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d,
    0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01,
    0x08, 0x00, 0x00, 0x00, 0x00, 0x3a, 0x7e, 0x9b, 0x55, 0x00, 0x00, 0x00,
    0x0a, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x68, 0x00, 0x00, 0x00,
    0x82, 0x00, 0x81, 0x77, 0xcd, 0x72, 0xb6, 0x00, 0x00, 0x00, 0x00, 0x49,
    0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82};

static void count(void *user, oc_severity sev, const char *file, unsigned line,
                  unsigned col, const char *message) {
  fz_counts *c = user;
  if (sev == OC_ERROR)
    c->errors++;
  else if (sev == OC_WARNING)
    c->warnings++;
  if (getenv("FUZZ_VERBOSE"))
    fprintf(stderr, "%s:%u:%u: %s: %s\n", file, line, col,
            sev == OC_ERROR     ? "error"
            : sev == OC_WARNING ? "warning"
                                : "note",
            message);
}

oc_reporter fz_reporter(fz_counts *c) { return (oc_reporter){count, c}; }

static char made[PATH_MAX];

static void remove_book(void) {
  if (made[0])
    bk_rmtree(made);
}

const char *fz_book_make(const char *config_yml) {
  const char *tmp = getenv("TMPDIR");
  char buf[PATH_MAX];
  snprintf(buf, sizeof buf, "%s/octavo-fuzz-XXXXXX",
           tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(buf) || !realpath(buf, made)) {
    perror("fuzz: cannot make a temporary book folder");
    abort();
  }
  atexit(remove_book);
  if (config_yml)
    fz_book_write(made, "config.yml", config_yml, strlen(config_yml));
  return made;
}

void fz_book_write(const char *book, const char *rel, const void *data,
                   size_t len) {
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/%s", book, rel);
  char *slash = strrchr(path, '/');
  *slash = 0;
  if (bk_mkdirs(path) != 0) {
    perror(path);
    abort();
  }
  *slash = '/';
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
    perror(path);
    abort();
  }
}

int fz_publish(bk_config *cfg, const char *book, const char *name,
               fz_stage stage, const oc_reporter *rep, const fz_counts *c) {
  unsigned errors = c->errors;
  bk_options opt;
  memset(&opt, 0, sizeof opt);
  opt.no_scripts = true;
  opt.verbosity = -1;
  bk_edition e;
  bk_out out = {0};
  int rc = -1;
  if (bk_edition_init(&e, cfg, book, name, &opt, rep) != 0 ||
      bk_edition_load_items(&e) != 0 || c->errors != errors)
    goto done;
  if (stage == FZ_MODEL) {
    rc = 0;
    goto done;
  }
  if (bk_out_begin(&e, &out) != 0)
    goto done;
  rc = !strcmp(e.format, "html")   ? bk_write_html(&e, &out)
       : !strcmp(e.format, "epub") ? bk_write_epub(&e, &out)
       : !strcmp(e.format, "pdf")  ? bk_write_pdf(&e, &out)
                                   : 0;
done:
  if (out.tmp_dir)
    bk_out_abort(&out);
  bk_out_finish(&out);
  bk_edition_free(&e);
  if (rc != 0 && c->errors == errors)
    abort(); /* failed without saying why */
  return rc != 0 || c->errors != errors ? -1 : 0;
}

void fz_load_publish(const char *book, const char *name, fz_stage stage) {
  fz_counts c = {0};
  oc_reporter rep = fz_reporter(&c);
  oc_arena *a = oc_arena_new();
  bk_config *cfg = bk_config_load(a, book, NULL, &rep);
  if (!cfg)
    abort();
  fz_publish(cfg, book, name, stage, &rep, &c);
  oc_arena_free(a);
}
