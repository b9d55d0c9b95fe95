/* Confinement (runtime/base: oc_sandbox.h, oc_shell.h).
 *   test_sandbox shell     the shell runner, with and without its process:
 *                          exit statuses, the folder, a folder missing
 *   test_sandbox landlock  a process confined to reading BOOK and writing
 *                          BOOK/Output, at each ABI from 1 to the kernel's:
 *                          what a publisher does works, every escape gets
 *                          EACCES, TCP is refused (ABI 4 on), and the
 *                          runner started before still writes anywhere.
 *                          Exit 77 (skipped) without Landlock. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "oc_sandbox.h"
#include "oc_shell.h"

static char root[64];

static bool exists(const char *rel) {
  char p[256];
  struct stat st;
  snprintf(p, sizeof p, "%s/%s", root, rel);
  return stat(p, &st) == 0;
}

static int exit_status(const char *dir, const char *cmd) {
  int status = -1;
  if (oc_shell_run(dir, cmd, &status) != 0)
    return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void check_shell(void) {
  CHECK(exit_status(root, "exit 0") == 0);
  CHECK(exit_status(root, "exit 3") == 3);
  CHECK(exit_status(root, "echo hi > made-here.txt") == 0);
  CHECK(exists("made-here.txt"));
  CHECK(exit_status(root, "rm made-here.txt") == 0);
  CHECK(!exists("made-here.txt"));
  char missing[128];
  snprintf(missing, sizeof missing, "%s/no-such-folder", root);
  CHECK(exit_status(missing, "exit 0") == 127);
  int status = 0;
  CHECK(oc_shell_run(root, "kill -TERM $$", &status) == 0 &&
        WIFSIGNALED(status) && WTERMSIG(status) == 15);
}

static int test_shell(void) {
  check_shell(); /* forked from this process */
  CHECK(oc_shell_start() == 0);
  check_shell(); /* through the runner */
  oc_shell_stop();
  check_shell(); /* after it: from this process again */
  CHECK(exit_status(root, "rm -rf \"$PWD\"") == 0);
  printf("test_sandbox shell: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}

/* errno of opening rel (relative to root) with flags; 0 when it opened. */
static int open_errno(const char *rel, int flags) {
  char p[256];
  snprintf(p, sizeof p, "%s/%s", root, rel);
  int fd = open(p, flags | O_CLOEXEC, 0644);
  if (fd < 0)
    return errno;
  close(fd);
  return 0;
}

/* errno of a path operation on two paths relative to root, 0 when done. */
static int op_errno(int (*op)(const char *, const char *), const char *a,
                    const char *b) {
  char pa[256], pb[256];
  snprintf(pa, sizeof pa, "%s/%s", root, a);
  snprintf(pb, sizeof pb, "%s/%s", root, b);
  return op(pa, pb) == 0 ? 0 : errno;
}

static int tcp_errno(bool bind_it) {
  int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (s < 0)
    return errno;
  struct sockaddr_in in = {0};
  in.sin_family = AF_INET;
  in.sin_port = htons(bind_it ? 0 : 9);
  in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  int rc = bind_it ? bind(s, (struct sockaddr *)&in, sizeof in)
                   : connect(s, (struct sockaddr *)&in, sizeof in);
  int err = rc == 0 ? 0 : errno;
  close(s);
  return err;
}

/* The exit status of a child that execs /bin/true: 0 when it ran, 126
 * when execve failed with EACCES. */
static int exec_status(void) {
  pid_t pid = fork();
  if (pid == 0) {
    execl("/bin/true", "true", (char *)NULL);
    _exit(errno == EACCES ? 126 : 125);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int rename_op(const char *a, const char *b) { return rename(a, b); }
static int mkfifo_op(const char *a, const char *b) {
  (void)b;
  return mkfifo(a, 0644);
}

/* In a child: confined at `abi`, the checks; exits 0 when all passed. */
static _Noreturn void confined_checks(int abi) {
  passed = failed = 0;
  char book[128], output[128];
  snprintf(book, sizeof book, "%s/book", root);
  snprintf(output, sizeof output, "%s/book/Output", root);
  const char *reads[] = {book, "/no/such/folder"};
  const char *writes[] = {output};
  oc_sandbox sb = {reads, 2, writes, 1, abi};
  CHECK(oc_shell_start() == 0);
  char why[256] = "";
  int used = oc_sandbox_restrict(&sb, why, sizeof why);
  CHECK(used == abi);
  if (used != abi)
    fprintf(stderr, "not confined at ABI %d: %s\n", abi, why);

  /* What publishing does. */
  CHECK(open_errno("book/Contents/a.md", O_RDONLY) == 0);
  DIR *d = opendir(book);
  CHECK(d != NULL);
  if (d)
    closedir(d);
  CHECK(open_errno("book/Output/.web.tmp-1", O_RDONLY | O_DIRECTORY) == ENOENT);
  char tmp[160];
  snprintf(tmp, sizeof tmp, "%s/.web.tmp-1", output);
  CHECK(mkdir(tmp, 0755) == 0);
  CHECK(open_errno("book/Output/.web.tmp-1/book.html",
                   O_WRONLY | O_CREAT | O_TRUNC) == 0);
  CHECK(op_errno(rename_op, "book/Output/.web.tmp-1", "book/Output/web") == 0);
  CHECK(exists("book/Output/web/book.html"));
  CHECK(mkdir(tmp, 0755) == 0);
  if (abi >= 2) /* across folders: Landlock's REFER right */
    CHECK(op_errno(rename_op, "book/Output/web/book.html",
                   "book/Output/.web.tmp-1/book.html") == 0);
  CHECK(open_errno("book/Output/web/book.html", O_WRONLY | O_CREAT | O_TRUNC) ==
        0);
  snprintf(tmp, sizeof tmp, "%s/web/book.html", output);
  CHECK(truncate(tmp, 0) == 0);
  CHECK(unlink(tmp) == 0);

  /* The escapes. */
  CHECK(open_errno("outside/escaped.txt", O_WRONLY | O_CREAT) == EACCES);
  CHECK(!exists("outside/escaped.txt"));
  CHECK(open_errno("outside/secret.txt", O_RDONLY) == EACCES);
  CHECK(open_errno("outside", O_RDONLY | O_DIRECTORY) == EACCES);
  CHECK(open_errno("book/Contents/a.md", O_WRONLY) == EACCES);
  CHECK(open_errno("book/Contents/new.md", O_WRONLY | O_CREAT) == EACCES);
  CHECK(op_errno(rename_op, "book/Contents/a.md", "book/Output/a.md") ==
        EACCES);
  CHECK(exists("book/Contents/a.md"));
  /* A link in Output may be made and renamed, but leads nowhere. */
  snprintf(tmp, sizeof tmp, "%s/link", output);
  CHECK(symlink("../../outside", tmp) == 0);
  CHECK(op_errno(rename_op, "book/Output/link", "book/Output/link2") == 0);
  CHECK(open_errno("book/Output/link2/escaped.txt", O_WRONLY | O_CREAT) ==
        EACCES);
  CHECK(open_errno("book/Output/link2/secret.txt", O_RDONLY) == EACCES);
  CHECK(!exists("outside/escaped.txt"));
  CHECK(op_errno(mkfifo_op, "book/Output/fifo", "") == EACCES);
  CHECK(exec_status() == 126);
  if (abi >= 3) { /* truncate(2) is Landlock's from ABI 3 */
    snprintf(tmp, sizeof tmp, "%s/outside/secret.txt", root);
    CHECK(truncate(tmp, 0) != 0 && errno == EACCES);
  }
  if (abi >= 4) {
    CHECK(tcp_errno(false) == EACCES);
    CHECK(tcp_errno(true) == EACCES);
  }

  /* The runner was started before: a script writes where it likes. */
  CHECK(exit_status(root, "echo ran > outside/by-script.txt") == 0);
  CHECK(exists("outside/by-script.txt"));
  oc_shell_stop();
  printf("test_sandbox landlock, ABI %d: %d passed, %d failed\n", abi, passed,
         failed);
  fflush(stdout);
  _exit(failed ? 1 : 0);
}

/* Each ABI from 1 to the kernel's, in a child of its own (confinement
 * cannot be undone), on a fresh book. */
static int test_landlock(void) {
  int kernel = oc_sandbox_abi();
  for (int abi = 1; abi <= kernel; abi++) {
    CHECK(exit_status(root, "rm -rf book outside && "
                            "mkdir -p book/Contents book/Output outside && "
                            "echo text > book/Contents/a.md && "
                            "echo secret > outside/secret.txt") == 0);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0)
      confined_checks(abi);
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
          WEXITSTATUS(status) == 0);
  }
  CHECK(exit_status(root, "rm -rf \"$PWD\"") == 0);
  if (!kernel) {
    printf("test_sandbox landlock: this kernel has no Landlock: skipped\n");
    return 77;
  }
  printf("test_sandbox landlock: ABI 1 to %d: %d passed, %d failed\n", kernel,
         passed, failed);
  return failed ? 1 : 0;
}

int main(int argc, char **argv) {
  bool shell = argc == 2 && !strcmp(argv[1], "shell");
  bool landlock = argc == 2 && !strcmp(argv[1], "landlock");
  if (!shell && !landlock) {
    fprintf(stderr, "usage: test_sandbox shell|landlock\n");
    return 2;
  }
  const char *tmp = getenv("TMPDIR");
  snprintf(root, sizeof root, "%s/octavo-sandbox-XXXXXX",
           tmp && tmp[0] == '/' && strlen(tmp) < 32 ? tmp : "/tmp");
  if (!mkdtemp(root)) {
    perror("mkdtemp");
    return 1;
  }
  return shell ? test_shell() : test_landlock();
}
