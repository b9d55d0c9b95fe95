/* The escape bug planted in publish-planted (tests/books/test_sandbox.sh),
 * a copy of publish built with -DOCTAVO_TEST_PLANT_ESCAPE: after each
 * edition's writer has run, inside the sandbox, it does what a path bug in
 * a writer would do when OCTAVO_TEST_PLANT_ESCAPE names a folder outside
 * the book: writes DIR/escaped.txt, reads DIR/secret.txt, connects to
 * 127.0.0.1 port 9, and says on stderr how each went; with
 * OCTAVO_TEST_PLANT_ESCAPE_READ, it reads that file too (/etc/passwd: of
 * /etc, the sandbox grants only what the libraries read). The shipped
 * publish has none of this. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void octavo_test_plant_escape(const char *book_dir);

static void say(const char *what, const char *path, int rc) {
  fprintf(stderr, "planted escape: %s %s: %s\n", what, path,
          rc == 0 ? "done" : strerror(errno));
}

void octavo_test_plant_escape(const char *book_dir) {
  const char *dir = getenv("OCTAVO_TEST_PLANT_ESCAPE");
  if (!dir || !dir[0])
    return;
  fprintf(stderr, "planted escape: publishing %s\n", book_dir);
  char path[4096];
  snprintf(path, sizeof path, "%s/escaped.txt", dir);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd >= 0 && write(fd, "escaped\n", 8) != 8)
    fd = -1;
  say("write", path, fd >= 0 ? 0 : -1);
  if (fd >= 0)
    close(fd);
  snprintf(path, sizeof path, "%s/secret.txt", dir);
  const char *more = getenv("OCTAVO_TEST_PLANT_ESCAPE_READ");
  for (const char *p = path; p; p = p == path ? more : NULL) {
    fd = open(p, O_RDONLY | O_CLOEXEC);
    char buf[64];
    say("read", p, fd >= 0 && read(fd, buf, sizeof buf) > 0 ? 0 : -1);
    if (fd >= 0)
      close(fd);
  }
  int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_in in = {0};
  in.sin_family = AF_INET;
  in.sin_port = htons(9);
  in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  say("connect", "127.0.0.1:9",
      s >= 0 ? connect(s, (struct sockaddr *)&in, sizeof in) : -1);
  if (s >= 0)
    close(s);
}
