/* The output layer of publish (book_fs.c): an edition's files stay inside
 * BOOK/Output/<edition>/ whatever names reach it. bk_out_write refuses a
 * path that is not made of safe names (oc_path.h), bk_out_begin an edition
 * name that is not one, and bk_out_commit a final folder whose parent is
 * not BOOK/Output, even when a caller hands it one (the last defences
 * behind the checks where names come from). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "book_fs.h"
#include "check.h"

static char said[4096];

static void sink(void *user, oc_severity sev, const char *file, unsigned line,
                 unsigned col, const char *msg) {
  (void)user, (void)sev, (void)file, (void)line, (void)col;
  size_t n = strlen(said);
  snprintf(said + n, sizeof said - n, "%s\n", msg);
}

static bool exists(const char *root, const char *rel) {
  char p[PATH_MAX];
  snprintf(p, sizeof p, "%s/%s", root, rel);
  struct stat st;
  return lstat(p, &st) == 0;
}

int main(void) {
  char root[] = "/tmp/octavo-test-fs-XXXXXX";
  if (!mkdtemp(root))
    return 2;
  char book[PATH_MAX], victim[PATH_MAX];
  snprintf(book, sizeof book, "%s/book", root);
  snprintf(victim, sizeof victim, "%s/victim", root);
  CHECK(mkdir(book, 0755) == 0 && mkdir(victim, 0755) == 0);
  oc_reporter rep = {sink, NULL};
  bk_edition e;
  memset(&e, 0, sizeof e);
  e.a = oc_arena_new();
  e.book_dir = book;
  e.rep = &rep;

  /* An unsafe edition name never gets a folder. */
  bk_out o = {0};
  e.name = "../victim";
  said[0] = 0;
  CHECK(bk_out_begin(&e, &o) != 0);
  CHECK(strstr(said, "its name holds a '/'") != NULL);

  e.name = "web";
  CHECK(bk_out_begin(&e, &o) == 0);
  const char *bad[] = {
      "../../victim/x.html", "/etc/x", "book/../../x", "a//b", ".hidden",
      "css/\x1b.css",        ""};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    said[0] = 0;
    CHECK(bk_out_write(&e, &o, bad[i], "x", 1) != 0);
    CHECK(strstr(said, "refusing to write") != NULL);
  }
  CHECK(bk_out_write(&e, &o, "book/chapter-1/intro.html", "ok", 2) == 0);
  CHECK(!exists(root, "victim/x.html") && !exists(root, "x"));

  /* A final folder elsewhere (as an edition named "/../../victim" once
   * made): refused, the temporary output kept for bk_out_abort. */
  const char *final_dir = o.final_dir;
  o.final_dir = victim;
  said[0] = 0;
  CHECK(bk_out_commit(&e, &o) != 0);
  CHECK(strstr(said, "refusing to replace") != NULL);
  CHECK(exists(root, "victim"));
  char up[PATH_MAX + 32];
  snprintf(up, sizeof up, "%s/Output/../../victim", book);
  o.final_dir = up;
  CHECK(bk_out_commit(&e, &o) != 0);
  o.final_dir = final_dir;
  CHECK(bk_out_commit(&e, &o) == 0);
  bk_out_finish(&o);
  CHECK(exists(book, "Output/web/book/chapter-1/intro.html"));

  oc_arena_free(e.a);
  bk_rmtree(root);
  printf("fs: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
