/* The shell runner (oc_shell.h). The runner is a fork of the program made
 * before it confined itself; the two talk over a Unix socket pair: a
 * request is the two lengths and the bytes of the folder and the command,
 * the answer the errno of starting it (0) and its wait status. The runner
 * forks the shell itself, so a command sees the same process tree as when
 * the program forks it directly. */
#define _GNU_SOURCE
#include "oc_shell.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "oc_alloc.h"

static pid_t runner = -1;
static int runner_fd = -1;

static int send_all(int fd, const void *p, size_t n) {
  const char *c = p;
  while (n) {
    ssize_t k = send(fd, c, n, MSG_NOSIGNAL);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      return -1;
    c += k;
    n -= (size_t)k;
  }
  return 0;
}

static int recv_all(int fd, void *p, size_t n) {
  char *c = p;
  while (n) {
    ssize_t k = recv(fd, c, n, 0);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0) {
      if (k == 0)
        errno = EPIPE;
      return -1;
    }
    c += k;
    n -= (size_t)k;
  }
  return 0;
}

static int run_here(const char *dir, const char *cmd, int *status) {
  pid_t pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    /* Interruptible as any program, whatever signals the program blocks
     * for itself (publish's guard takes SIGINT, SIGTERM, SIGHUP in a
     * thread of its own). */
    sigset_t sigs;
    sigemptyset(&sigs);
    sigaddset(&sigs, SIGINT);
    sigaddset(&sigs, SIGTERM);
    sigaddset(&sigs, SIGHUP);
    sigprocmask(SIG_UNBLOCK, &sigs, NULL);
    if (chdir(dir) != 0)
      _exit(127);
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    _exit(127);
  }
  while (waitpid(pid, status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return 0;
}

/* The runner's life: one command a request, until the program closes its
 * end. Handlers the program installed (to clean up on SIGINT, say) are
 * the program's business, not the runner's. */
static _Noreturn void serve(int fd) {
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
  for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
    struct sigaction sa;
    if (sigaction(sigs[i], NULL, &sa) == 0 && sa.sa_handler != SIG_IGN)
      signal(sigs[i], SIG_DFL);
  }
  uint32_t len[2];
  while (recv_all(fd, len, sizeof len) == 0) {
    char *dir = oc_malloc((size_t)len[0] + 1);
    char *cmd = oc_malloc((size_t)len[1] + 1);
    int answer[2] = {0, 0};
    if (recv_all(fd, dir, len[0]) != 0 || recv_all(fd, cmd, len[1]) != 0)
      _exit(1);
    dir[len[0]] = cmd[len[1]] = 0;
    if (run_here(dir, cmd, &answer[1]) != 0)
      answer[0] = errno ? errno : EIO;
    free(dir);
    free(cmd);
    if (send_all(fd, answer, sizeof answer) != 0)
      break;
  }
  _exit(0);
}

int oc_shell_start(void) {
  if (runner > 0)
    return 0;
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    return -1;
  pid_t pid = fork();
  if (pid < 0) {
    int err = errno;
    close(sv[0]);
    close(sv[1]);
    errno = err;
    return -1;
  }
  if (pid == 0) {
    close(sv[0]);
    serve(sv[1]);
  }
  close(sv[1]);
  runner = pid;
  runner_fd = sv[0];
  return 0;
}

int oc_shell_run(const char *dir, const char *cmd, int *status) {
  if (runner <= 0)
    return run_here(dir, cmd, status);
  size_t nd = strlen(dir), nc = strlen(cmd);
  if (nd > UINT32_MAX || nc > UINT32_MAX) {
    errno = E2BIG;
    return -1;
  }
  uint32_t len[2] = {(uint32_t)nd, (uint32_t)nc};
  int answer[2];
  if (send_all(runner_fd, len, sizeof len) != 0 ||
      send_all(runner_fd, dir, nd) != 0 || send_all(runner_fd, cmd, nc) != 0 ||
      recv_all(runner_fd, answer, sizeof answer) != 0)
    return -1;
  if (answer[0]) {
    errno = answer[0];
    return -1;
  }
  *status = answer[1];
  return 0;
}

void oc_shell_stop(void) {
  if (runner <= 0)
    return;
  close(runner_fd);
  while (waitpid(runner, NULL, 0) < 0 && errno == EINTR)
    ;
  runner = -1;
  runner_fd = -1;
}
