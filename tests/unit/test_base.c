/* octavo_base (runtime/base): the arena (allocation, growth, arrays,
 * printf, cleanup hooks, the limit), the string builder in both modes,
 * integer formatting, reading files (a FIFO must be refused at once, not
 * waited on), safe names and paths (oc_path.h), and OC_GROW. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "oc_alloc.h"
#include "oc_arena.h"
#include "oc_file.h"
#include "oc_path.h"
#include "oc_sb.h"

static void test_arena_alloc(void) {
  oc_arena *a = oc_arena_new();
  char *p = oc_arena_alloc(a, 10);
  CHECK(p != NULL && ((uintptr_t)p % 16) == 0);
  memset(p, 'x', 10);
  int *z = oc_arena_calloc(a, 100, sizeof *z);
  bool zero = true;
  for (int i = 0; i < 100; i++)
    zero = zero && z[i] == 0;
  CHECK(zero);
  /* An oversized block and many small ones across chunks stay intact. */
  char *big = oc_arena_alloc(a, 1 << 20);
  memset(big, 'b', 1 << 20);
  char *small[2000];
  for (int i = 0; i < 2000; i++) {
    small[i] = oc_arena_alloc(a, 100);
    memset(small[i], (char)i, 100);
  }
  bool kept = big[0] == 'b' && big[(1 << 20) - 1] == 'b';
  for (int i = 0; i < 2000; i++)
    kept = kept && small[i][0] == (char)i && small[i][99] == (char)i;
  CHECK(kept);
  CHECK_STR(oc_arena_strndup(a, "hello world", 5), "hello");
  oc_arena_free(a);
  oc_arena_free(NULL);
}

static void test_arena_grow(void) {
  oc_arena *a = oc_arena_new();
  /* The last block grows in place. */
  char *p = oc_arena_alloc(a, 16);
  memcpy(p, "abcdefghijklmno", 16);
  char *q = oc_arena_grow(a, p, 16, 64);
  CHECK(q == p);
  CHECK_STR(q, "abcdefghijklmno");
  /* An older block is copied. */
  char *other = oc_arena_alloc(a, 8);
  (void)other;
  char *r = oc_arena_grow(a, q, 64, 128);
  CHECK(r != q);
  CHECK_STR(r, "abcdefghijklmno");
  CHECK(oc_arena_grow(a, r, 128, 32) == r);

  int *items = NULL;
  size_t n = 0, cap = 0;
  for (int i = 0; i < 1000; i++) {
    items = oc_arena_grow_array(a, items, n, &cap, n + 1, sizeof *items);
    items[n++] = i;
  }
  bool ok = cap >= 1000;
  for (int i = 0; i < 1000; i++)
    ok = ok && items[i] == i;
  CHECK(ok);
  size_t before = cap;
  CHECK(oc_arena_grow_array(a, items, n, &cap, 10, sizeof *items) == items);
  CHECK(cap == before);
  items = oc_arena_grow_array(a, items, n, &cap, 5000, sizeof *items);
  CHECK(cap >= 5000 && items[999] == 999);
  oc_arena_free(a);
}

static void test_arena_printf(void) {
  oc_arena *a = oc_arena_new();
  CHECK_STR(oc_arena_printf(a, "%s-%d-%zu", "x", -3, (size_t)7), "x--3-7");
  CHECK_STR(oc_arena_printf(a, "%s", ""), "");
  char long_text[3000];
  memset(long_text, 'l', sizeof long_text - 1);
  long_text[sizeof long_text - 1] = 0;
  CHECK_STR(oc_arena_printf(a, "%s", long_text), long_text);
  oc_arena_free(a);
}

static char order[8];
static size_t norder;
static void note(void *data) { order[norder++] = *(const char *)data; }

static void test_arena_defer(void) {
  oc_arena *a = oc_arena_new();
  static const char first = '1', second = '2', third = '3';
  oc_arena_defer(a, note, (void *)&first);
  oc_arena_defer(a, note, (void *)&second);
  oc_arena_defer(a, note, (void *)&third);
  CHECK(norder == 0);
  oc_arena_free(a);
  order[norder] = 0;
  CHECK_STR(order, "321"); /* newest first */
}

static jmp_buf over;
static int limit_calls;
static void on_limit(void *data) {
  limit_calls++;
  longjmp(over, *(int *)data);
}

static void test_arena_limit(void) {
  oc_arena *a = oc_arena_new();
  int code = 7;
  oc_arena_set_limit(a, 256 * 1024, on_limit, &code);
  volatile size_t got = 0;
  int r = setjmp(over);
  if (r == 0) {
    for (int i = 0; i < 100; i++) {
      oc_arena_alloc(a, 32 * 1024);
      got++;
    }
  }
  CHECK(r == 7);
  CHECK(limit_calls == 1);
  CHECK(got > 0 && got < 100);
  /* The arena is still whole after unwinding, and frees cleanly. */
  oc_arena_set_limit(a, 0, NULL, NULL);
  CHECK_STR(oc_arena_printf(a, "%d", 42), "42");
  oc_arena_free(a);
}

static void test_sb(oc_arena *a) {
  oc_sb b;
  oc_sb_init(&b, a, 0);
  CHECK_STR(oc_sb_cstr(&b), "");
  oc_sb_adds(&b, "abc");
  oc_sb_addc(&b, '-');
  oc_sb_add(&b, "xyz", 2);
  oc_sb_add_int(&b, -42);
  oc_sb_printf(&b, "|%05.1f|%s", 2.25, "end");
  CHECK(b.len == strlen("abc-xy-42|002.2|end"));
  CHECK_STR(oc_sb_cstr(&b), "abc-xy-42|002.2|end");
  for (int i = 0; i < 10000; i++)
    oc_sb_addc(&b, (char)('a' + i % 26));
  CHECK(b.len == 19 + 10000 && b.p[19] == 'a' && b.p[19 + 9999] == 'p');
  if (a) {
    oc_sb_free(&b); /* the arena keeps the text; nothing to free */
  } else {
    char *s = oc_sb_take(&b);
    CHECK(strlen(s) == 19 + 10000);
    CHECK(b.p == NULL && b.len == 0);
    free(s);
    oc_sb_init(&b, NULL, 64);
    oc_sb_adds(&b, "freed");
    oc_sb_free(&b);
    CHECK(b.p == NULL);
  }
}

static void test_format_int(void) {
  char buf[24];
  CHECK(oc_format_int(0, buf) == 1);
  CHECK_STR(buf, "0");
  oc_format_int(-7, buf);
  CHECK_STR(buf, "-7");
  oc_format_int(INT64_MAX, buf);
  CHECK_STR(buf, "9223372036854775807");
  CHECK(oc_format_int(INT64_MIN, buf) == 20);
  CHECK_STR(buf, "-9223372036854775808");
}

static void test_read_file(void) {
  char dir[] = "/tmp/octavo-test-base-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[PATH_MAX];
  size_t len = 99;

  snprintf(path, sizeof path, "%s/file.txt", dir);
  FILE *f = fopen(path, "wb");
  CHECK(f && fwrite("one\0two\n", 1, 8, f) == 8 && fclose(f) == 0);
  char *text = oc_read_file(path, &len);
  CHECK(text && len == 8 && !memcmp(text, "one\0two\n", 9));
  free(text);

  snprintf(path, sizeof path, "%s/empty", dir);
  f = fopen(path, "wb");
  CHECK(f && fclose(f) == 0);
  text = oc_read_file(path, &len);
  CHECK(text && len == 0 && text[0] == 0);
  free(text);

  snprintf(path, sizeof path, "%s/missing", dir);
  errno = 0;
  CHECK(oc_read_file(path, &len) == NULL && errno == ENOENT);

  errno = 0;
  CHECK(oc_read_file(dir, &len) == NULL && errno == EISDIR);

  /* A FIFO without a writer: refused at once (this would hang otherwise). */
  snprintf(path, sizeof path, "%s/fifo", dir);
  CHECK(mkfifo(path, 0600) == 0);
  errno = 0;
  CHECK(oc_read_file(path, &len) == NULL && errno == EISDIR);

  const char *names[] = {"file.txt", "empty", "fifo"};
  for (size_t i = 0; i < 3; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    unlink(path);
  }
  CHECK(rmdir(dir) == 0);
}

static void test_grow(void) {
  long *v = NULL;
  size_t cap = 0;
  for (size_t n = 0; n < 3000; n++) {
    OC_GROW(v, cap, n + 1);
    v[n] = (long)n * 3;
  }
  bool ok = cap >= 3000;
  for (size_t n = 0; n < 3000; n++)
    ok = ok && v[n] == (long)n * 3;
  CHECK(ok);
  size_t before = cap;
  OC_GROW(v, cap, 10);
  CHECK(cap == before);
  free(v);

  char *s = oc_strndup("abcdef", 3);
  CHECK_STR(s, "abc");
  free(s);
  s = oc_strdup("copy");
  CHECK_STR(s, "copy");
  free(s);
  CHECK(oc_size_mul(3, 5) == 15 && oc_size_add(3, 5) == 8);
}

/* The one rule for names that become paths, normalising, and text made
 * printable for a terminal. */
static void test_path(void) {
  CHECK(oc_safe_name("web", 3));
  CHECK(oc_safe_name("chapter-1.html", 14));
  CHECK(oc_safe_name("caf\xc3\xa9", 5));
  CHECK(oc_safe_name("a..b", 4));
  CHECK_STR(oc_name_problem("", 0), "is empty");
  CHECK_STR(oc_name_problem(".", 1), "is not a file name");
  CHECK_STR(oc_name_problem("..", 2), "is not a file name");
  CHECK_STR(oc_name_problem(".hidden", 7), "starts with '.' (a hidden file)");
  CHECK_STR(oc_name_problem("/../../victim", 13), "holds a '/'");
  CHECK_STR(oc_name_problem("a/b", 3), "holds a '/'");
  CHECK_STR(oc_name_problem("a\\b", 3), "holds a '\\'");
  CHECK_STR(oc_name_problem("a\0b", 3), "holds a NUL byte");
  CHECK_STR(oc_name_problem("a\x1b[31m", 6), "holds a control character");
  CHECK_STR(oc_name_problem("a\x7f", 2), "holds a control character");
  CHECK_STR(oc_name_problem("a\xc2\x9b", 3), "holds a control character");
  CHECK_STR(oc_name_problem("a\xe2\x80\xae", 4), "holds a control character");
  CHECK_STR(oc_name_problem("a\xff", 2), "is not valid UTF-8");
  CHECK_STR(oc_name_problem("\xc0\xaf", 2),
            "is not valid UTF-8"); /* overlong '/' */
  CHECK_STR(oc_name_problem("\xed\xa0\x80", 3), "is not valid UTF-8");
  CHECK_STR(oc_name_problem("\xe2\x82", 2), "is not valid UTF-8");
  char longname[OC_NAME_MAX + 2];
  memset(longname, 'x', sizeof longname);
  CHECK(oc_safe_name(longname, OC_NAME_MAX));
  CHECK_STR(oc_name_problem(longname, OC_NAME_MAX + 1),
            "is longer than 200 bytes");

  CHECK(oc_safe_relpath("book/chapter-1/intro.html", 25));
  CHECK(oc_safe_relpath("OEBPS/css/f.ttf", 15));
  CHECK_STR(oc_relpath_problem("/etc/passwd", 11), "is an absolute path");
  CHECK_STR(oc_relpath_problem("a//b", 4),
            "holds an empty component ('//' or a trailing '/')");
  CHECK_STR(oc_relpath_problem("a/", 2),
            "holds an empty component ('//' or a trailing '/')");
  CHECK_STR(oc_relpath_problem("css/../../x", 11), "holds '..'");
  CHECK_STR(oc_relpath_problem("./x", 3), "holds '.'");
  CHECK_STR(oc_relpath_problem("a/.git/config", 13),
            "starts with '.' (a hidden file)");
  CHECK_STR(oc_relpath_problem("a/b\n", 4), "holds a control character");
  CHECK_STR(oc_relpath_problem("", 0), "is empty");

  char p[64];
  strcpy(p, "css/../fonts/./f.ttf");
  CHECK(oc_path_normalize(p));
  CHECK_STR(p, "fonts/f.ttf");
  strcpy(p, "a//b/c/../../d/");
  CHECK(oc_path_normalize(p));
  CHECK_STR(p, "a/d");
  strcpy(p, "a/..");
  CHECK(oc_path_normalize(p));
  CHECK_STR(p, "");
  strcpy(p, "css/../../../Contents/f.ttf");
  CHECK(!oc_path_normalize(p));
  strcpy(p, "../x");
  CHECK(!oc_path_normalize(p));
  strcpy(p, "/x");
  CHECK(!oc_path_normalize(p));

  oc_sb b;
  oc_sb_init(&b, NULL, 0);
  const char text[] = "web\x1b[2J\ttab caf\xc3\xa9 \xff\xc2\x9b \xe2\x80\xae!";
  oc_sb_add_printable(&b, text, sizeof text - 1);
  CHECK_STR(oc_sb_cstr(&b),
            "web\\x1b[2J\\x09tab caf\xc3\xa9 \\xff\\xc2\\x9b \\u202e!");
  b.len = 0;
  oc_sb_add_printable(&b, "a\0b", 3);
  CHECK_STR(oc_sb_cstr(&b), "a\\x00b");
  oc_sb_free(&b);
}

int main(void) {
  test_arena_alloc();
  test_arena_grow();
  test_arena_printf();
  test_arena_defer();
  test_arena_limit();
  oc_arena *a = oc_arena_new();
  test_sb(a);
  oc_arena_free(a);
  test_sb(NULL);
  test_format_int();
  test_read_file();
  test_grow();
  test_path();
  printf("base: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
