/* Temporary folders removed when publish is stopped by a signal, and stale
 * ones of killed runs removed by the next run (book_guard.h).
 *
 * Why a watcher thread and not a handler: removing a tree needs opendir
 * and readdir, which may allocate, so a signal handler cannot do it; a
 * handler that only sets a flag would need every long computation (the
 * PDF engine, a template) to poll it. Blocking the signals everywhere and
 * taking them with sigwait in one thread runs the cleanup as ordinary
 * code while the rest of the run goes on. So that it does not race the
 * main thread, the watcher takes the mutex every change to the output
 * folders takes (bk_guard_enter) and keeps it: file writes then wait for
 * ever, and what writes without asking (libzip, libharu) finds the folder
 * renamed away first, so nothing new appears in it while it is removed.
 * Then the signal's default action is restored and the signal raised
 * again, so the run ends as killed by it (a shell shows status 128 + N:
 * 130 for SIGINT, 143 for SIGTERM). */
#include "book_guard.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "book_fs.h"

typedef struct guard_dir {
  char path[PATH_MAX];
  int fd; /* holds the flock; -1 when none */
} guard_dir;

static pthread_mutex_t g_mutex = PTHREAD_MUTEX_INITIALIZER;
static guard_dir g_dirs[2] = {{"", -1}, {"", -1}};
static pthread_t g_watcher;
static bool g_installed, g_quit;
static sigset_t g_signals;

/* Removes a held folder: renamed aside first (to a name that is still
 * stale-looking, for a run killed during the removal), then its tree. */
static void remove_held(guard_dir *d) {
  if (!d->path[0])
    return;
  char aside[PATH_MAX + 8];
  snprintf(aside, sizeof aside, "%s.dying", d->path);
  const char *p = rename(d->path, aside) == 0 ? aside : d->path;
  for (int i = 0; i < 3 && bk_rmtree(p) != 0; i++)
    ;
  d->path[0] = 0;
}

static int g_idle_fd = -1; /* bk_guard_idle's */

static void *watch(void *arg) {
  (void)arg;
  for (;;) {
    int sig = 0;
    while (sigwait(&g_signals, &sig) != 0)
      ;
    pthread_mutex_lock(&g_mutex);
    if (g_quit) {
      pthread_mutex_unlock(&g_mutex);
      return NULL;
    }
    if (g_idle_fd >= 0) { /* the run stops by itself; a second signal
                             while it does is taken as below */
      unsigned char b = (unsigned char)sig;
      if (write(g_idle_fd, &b, 1) != 1) {
        /* nothing to do: the pipe is the run's own */
      }
      g_idle_fd = -1;
      pthread_mutex_unlock(&g_mutex);
      continue;
    }
    remove_held(&g_dirs[BK_GUARD_TMP]);
    remove_held(&g_dirs[BK_GUARD_OLD]);
    /* The mutex stays taken: the main thread must not write again. */
    signal(sig, SIG_DFL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    pthread_sigmask(SIG_UNBLOCK, &one, NULL);
    raise(sig);
    _exit(128 + sig); /* not reached: the default action ends the process */
  }
}

void bk_guard_idle(int fd) {
  pthread_mutex_lock(&g_mutex);
  g_idle_fd = fd;
  pthread_mutex_unlock(&g_mutex);
}

void bk_guard_install(void) {
  if (g_installed)
    return;
  sigemptyset(&g_signals);
  sigaddset(&g_signals, SIGINT);
  sigaddset(&g_signals, SIGTERM);
  sigaddset(&g_signals, SIGHUP);
  if (pthread_sigmask(SIG_BLOCK, &g_signals, NULL) != 0)
    return;
  g_quit = false;
  if (pthread_create(&g_watcher, NULL, watch, NULL) != 0) {
    pthread_sigmask(SIG_UNBLOCK, &g_signals, NULL);
    return;
  }
  g_installed = true;
}

void bk_guard_uninstall(void) {
  if (!g_installed)
    return;
  pthread_mutex_lock(&g_mutex);
  g_quit = true;
  pthread_mutex_unlock(&g_mutex);
  pthread_kill(g_watcher, SIGTERM); /* blocked, so sigwait takes it */
  pthread_join(g_watcher, NULL);
  g_installed = false;
  for (int i = 0; i < 2; i++)
    bk_guard_release((bk_guard_slot)i);
}

void bk_guard_child(void) {
  sigset_t all;
  sigemptyset(&all);
  sigaddset(&all, SIGINT);
  sigaddset(&all, SIGTERM);
  sigaddset(&all, SIGHUP);
  pthread_sigmask(SIG_UNBLOCK, &all, NULL);
}

void bk_guard_enter(void) { pthread_mutex_lock(&g_mutex); }

void bk_guard_leave(void) { pthread_mutex_unlock(&g_mutex); }

void bk_guard_pass(void) {
  pthread_mutex_lock(&g_mutex);
  pthread_mutex_unlock(&g_mutex);
}

static void hold_locked(bk_guard_slot slot, const char *path) {
  guard_dir *d = &g_dirs[slot];
  if (d->fd >= 0)
    close(d->fd);
  snprintf(d->path, sizeof d->path, "%s", path);
  d->fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  /* Not taken only when another run holds it: then it is not stale for
   * anyone either. */
  if (d->fd >= 0)
    flock(d->fd, LOCK_EX | LOCK_NB);
}

void bk_guard_hold(bk_guard_slot slot, const char *path) {
  pthread_mutex_lock(&g_mutex);
  hold_locked(slot, path);
  pthread_mutex_unlock(&g_mutex);
}

void bk_guard_renamed(bk_guard_slot slot, const char *path) {
  pthread_mutex_lock(&g_mutex);
  snprintf(g_dirs[slot].path, sizeof g_dirs[slot].path, "%s", path);
  pthread_mutex_unlock(&g_mutex);
}

void bk_guard_release(bk_guard_slot slot) {
  pthread_mutex_lock(&g_mutex);
  guard_dir *d = &g_dirs[slot];
  if (d->fd >= 0)
    close(d->fd);
  d->fd = -1;
  d->path[0] = 0;
  pthread_mutex_unlock(&g_mutex);
}

/* Removes Output/.<edition>.tmp-* folders whose lock no run holds. */
static void sweep(const char *output_dir, const char *edition) {
  char prefix[NAME_MAX + 8];
  int pn = snprintf(prefix, sizeof prefix, ".%s.tmp-", edition);
  if (pn < 0 || (size_t)pn >= sizeof prefix)
    return;
  DIR *dir = opendir(output_dir);
  if (!dir)
    return;
  struct dirent *de;
  while ((de = readdir(dir))) {
    if (strncmp(de->d_name, prefix, (size_t)pn) != 0)
      continue;
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", output_dir, de->d_name) >=
        (int)sizeof path)
      continue;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
      continue;
    if (flock(fd, LOCK_EX | LOCK_NB) == 0)
      bk_rmtree(path);
    close(fd);
  }
  closedir(dir);
}

int bk_guard_begin(const char *output_dir, const char *edition, char *tmpl) {
  /* The sweep and the birth of a locked folder are one step for the runs
   * of a book: a folder is never seen between its mkdtemp and its lock. */
  int dfd = open(output_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0)
    return -1;
  while (flock(dfd, LOCK_EX) != 0 && errno == EINTR)
    ;
  sweep(output_dir, edition);
  int rc = 0;
  pthread_mutex_lock(&g_mutex);
  if (mkdtemp(tmpl))
    hold_locked(BK_GUARD_TMP, tmpl);
  else
    rc = -1;
  pthread_mutex_unlock(&g_mutex);
  int err = errno;
  close(dfd); /* and so its lock */
  errno = err;
  return rc;
}

int bk_guard_commit(const char *tmp, const char *final_dir, const char *old,
                    bool had) {
  int fd = had ? open(final_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
                                     O_CLOEXEC)
               : -1;
  if (fd >= 0)
    flock(fd, LOCK_EX | LOCK_NB);
  pthread_mutex_lock(&g_mutex);
  int rc = 0, err = 0;
  if (had && rename(final_dir, old) != 0) {
    rc = -1;
    err = errno;
  } else if (rename(tmp, final_dir) != 0) {
    rc = -1;
    err = errno;
    if (had)
      rename(old, final_dir);
  }
  if (rc == 0) {
    guard_dir *t = &g_dirs[BK_GUARD_TMP], *o = &g_dirs[BK_GUARD_OLD];
    if (t->fd >= 0)
      close(t->fd);
    t->fd = -1;
    t->path[0] = 0;
    if (o->fd >= 0)
      close(o->fd);
    o->fd = fd;
    snprintf(o->path, sizeof o->path, "%s", had ? old : "");
    fd = -1;
  }
  pthread_mutex_unlock(&g_mutex);
  if (fd >= 0)
    close(fd);
  errno = err;
  return rc;
}
