/* octavo_serve alone (linked with octavo_base only): the server on a
 * folder made here, asked over a socket (a file, the page with its
 * script, "/", what it must refuse: paths out, hidden names, links out,
 * another Host, a POST), the output's lock taken around every open, the
 * check of Output; and the watch (a content file, another file, a
 * folder made later, what is not a change, the stop descriptor). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include "check.h"
#include "sv_serve.h"
#include "sv_watch.h"

static char root[PATH_MAX];

static void put(const char *rel, const char *text) {
  char path[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/%s", root, rel);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

static void folder(const char *rel) {
  char path[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/%s", root, rel);
  CHECK(mkdir(path, 0777) == 0);
}

/* The whole response to request (HTTP/1.0: the server closes), heap. */
static char *ask(unsigned port, const char *request) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in sa = {0};
  sa.sin_family = AF_INET;
  sa.sin_port = htons((uint16_t)port);
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
    close(fd);
    return strdup("(no connection)");
  }
  size_t n = strlen(request);
  CHECK(write(fd, request, n) == (ssize_t)n);
  size_t cap = 1 << 16, len = 0;
  char *out = malloc(cap);
  ssize_t k;
  while ((k = read(fd, out + len, cap - 1 - len)) > 0)
    len += (size_t)k;
  out[len] = 0;
  close(fd);
  return out;
}

static char *get(unsigned port, const char *path, const char *host) {
  char req[1024];
  snprintf(req, sizeof req, "GET %s HTTP/1.0\r\nHost: %s\r\n\r\n", path, host);
  return ask(port, req);
}

/* Whether the response to GET path has status code and holds text. */
static bool answers(unsigned port, const char *path, const char *code,
                    const char *text) {
  char host[64];
  snprintf(host, sizeof host, "127.0.0.1:%u", port);
  char *r = get(port, path, host);
  bool ok = !strncmp(r, "HTTP/1.", 7) && !strncmp(r + 9, code, 3) &&
            (!text || strstr(r, text));
  if (!ok)
    fprintf(stderr, "GET %s:\n%.300s\n", path, r);
  free(r);
  return ok;
}

typedef struct counts {
  int locks, unlocks;
} counts;

static void lock(void *user) {
  __atomic_add_fetch(&((counts *)user)->locks, 1, __ATOMIC_SEQ_CST);
}
static void unlock(void *user) {
  __atomic_add_fetch(&((counts *)user)->unlocks, 1, __ATOMIC_SEQ_CST);
}

static void test_server(void) {
  folder("Output");
  folder("Output/web");
  folder("Output/web/css");
  put("Output/web/book.html", "<html><body><p>The page</p></body></html>");
  put("Output/web/css/a.css", "p { color: red }");
  put("Output/web/.hidden", "secret");
  put("secret.txt", "outside the output");
  char link[PATH_MAX + 64];
  snprintf(link, sizeof link, "%s/Output/web/out", root);
  CHECK(symlink("/etc/passwd", link) == 0);
  snprintf(link, sizeof link, "%s/Output/web/up", root);
  CHECK(symlink("../../secret.txt", link) == 0);

  unsigned port = 0;
  bool moved = true;
  char why[512] = "";
  int fd = sv_serve_listen(0, &port, &moved, why, sizeof why);
  CHECK(fd >= 0 && port > 0 && !moved);
  counts n = {0, 0};
  sv_lock l = {lock, unlock, &n};
  sv_server *s =
      sv_serve_start(fd, root, "web", "book.html", &l, why, sizeof why);
  CHECK(s != NULL);
  if (!s) {
    fprintf(stderr, "%s\n", why);
    return;
  }
  CHECK(sv_serve_max_connections(s) >= 16);
  CHECK(answers(port, "/css/a.css", "200", "p { color: red }"));
  /* a page gets the reloading script, in the response only */
  CHECK(answers(port, "/book.html", "200", "<p>The page</p>"));
  CHECK(answers(port, "/book.html", "200", "/__octavo/events"));
  CHECK(answers(port, "/", "302", "Location: /book.html"));
  CHECK(answers(port, "/nothing.html", "404", NULL));
  CHECK(answers(port, "/../../secret.txt", "404", NULL));
  CHECK(answers(port, "/%2e%2e/%2e%2e/secret.txt", "404", NULL));
  CHECK(answers(port, "/.hidden", "404", NULL));
  CHECK(answers(port, "/out", "404", NULL));
  CHECK(answers(port, "/up", "404", NULL));
  /* a folder: to its index */
  CHECK(answers(port, "/css", "302", "Location: /css/"));
  /* every open beneath the book was under the lock, and let go */
  CHECK(n.locks > 0 && n.locks == n.unlocks);
  char *r = get(port, "/book.html", "evil.example:80");
  CHECK(!strncmp(r + 9, "403", 3));
  free(r);
  char req[256];
  snprintf(req, sizeof req,
           "POST /book.html HTTP/1.0\r\nHost: localhost:%u\r\n"
           "Content-Length: 2\r\n\r\nab",
           port);
  r = ask(port, req);
  CHECK(!strncmp(r + 9, "405", 3));
  free(r);
  CHECK(sv_serve_check(s, why, sizeof why) == 0);
  /* what is served changes: a pdf edition is shown in the server's page */
  folder("Output/print");
  put("Output/print/book.pdf", "%PDF-1.7");
  sv_serve_set(s, "print", "book.pdf");
  CHECK(answers(port, "/", "200", "book.pdf"));
  CHECK(answers(port, "/book.pdf", "200", "%PDF-1.7"));
  CHECK(answers(port, "/book.html", "404", NULL));
  sv_serve_reload(s);
  sv_serve_failure(s, "config.yml:1:1: error: <broken>");
  /* Output/<edition> a link out: refused, and said */
  snprintf(link, sizeof link, "%s/Output/etc", root);
  CHECK(symlink("/etc", link) == 0);
  sv_serve_set(s, "etc", "passwd.html");
  CHECK(sv_serve_check(s, why, sizeof why) == SV_SERVE_EDITION_OUT);
  CHECK(strstr(why, "Output/etc is a symbolic link") != NULL);
  CHECK(answers(port, "/passwd", "404", NULL));
  sv_serve_stop(s);
  sv_serve_stop(NULL);
}

/* A server that cannot start closes the socket and says why. */
static void test_no_book(void) {
  unsigned port;
  bool moved;
  char why[512] = "";
  int fd = sv_serve_listen(0, &port, &moved, why, sizeof why);
  CHECK(fd >= 0);
  CHECK(sv_serve_start(fd, "/nonexistent/book", NULL, NULL, NULL, why,
                       sizeof why) == NULL);
  CHECK(strstr(why, "/nonexistent/book") != NULL);
  CHECK(fcntl(fd, F_GETFD) == -1 && errno == EBADF);
}

static void test_watch(void) {
  char content[PATH_MAX + 16], out[PATH_MAX + 16];
  folder("Contents");
  snprintf(content, sizeof content, "%s/Contents", root);
  snprintf(out, sizeof out, "%s/Output", root);
  sv_watch *w = sv_watch_new(content);
  CHECK(w != NULL);
  if (!w)
    return;
  CHECK(sv_watch_limit(w) > 0 && sv_watch_limit(w) <= SV_WATCH_MAX_FOLDERS);
  CHECK(sv_watch_add_tree(w, root, out) == 0);
  CHECK(sv_watch_unwatched(w) == 0);
  int stop[2];
  CHECK(pipe(stop) == 0);
  bool content_only = false;
  put("Contents/a.md", "# A");
  CHECK(sv_watch_wait(w, 20, stop[0], &content_only) == 1 && content_only);
  put("config.yml", "book: {}");
  put("Contents/b.md", "# B");
  CHECK(sv_watch_wait(w, 20, stop[0], &content_only) == 1 && !content_only);
  /* a folder made later is watched too */
  folder("Contents/part");
  CHECK(sv_watch_wait(w, 20, stop[0], &content_only) == 1);
  put("Contents/part/c.md", "# C");
  CHECK(sv_watch_wait(w, 20, stop[0], &content_only) == 1 && content_only);
  /* not changes: the skipped folder, swap files, backups; the stop
     descriptor ends the wait */
  put("Output/web/new.html", "x");
  put("Contents/.a.md.swp", "x");
  put("Contents/a.md~", "x");
  CHECK(write(stop[1], "x", 1) == 1);
  CHECK(sv_watch_wait(w, 20, stop[0], &content_only) == 0);
  sv_watch_free(w);
  sv_watch_free(NULL);
  close(stop[0]);
  close(stop[1]);
}

int main(void) {
  char tmpl[] = "/tmp/octavo-test-sv-XXXXXX";
  if (!mkdtemp(tmpl))
    return 1;
  if (!realpath(tmpl, root))
    return 1;
  test_server();
  test_no_book();
  test_watch();
  char cmd[PATH_MAX + 16];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  if (system(cmd) != 0)
    failed++;
  printf("sv: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
