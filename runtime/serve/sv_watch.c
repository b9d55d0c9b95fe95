/* Folder trees watched with inotify (sv_watch.h). inotify watches one
 * folder, not its tree: each folder gets its watch, and a folder created
 * or moved in later gets its own (and those below it) when its event is
 * read, while the limit lasts; past it, folders are only counted. */
#include "sv_watch.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "oc_alloc.h"

typedef struct watched {
  int wd; /* -1: free */
  char *path;
} watched;

struct sv_watch {
  int fd;
  char *content_dir;
  char *skip;
  watched *dirs;
  size_t n, cap;
  size_t limit;     /* folders watched at most */
  size_t unwatched; /* folders found past it, or refused */
};

enum {
  MASK = IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM |
         IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF |
         IN_ONLYDIR
};

sv_watch *sv_watch_new(const char *content_dir) {
  int fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
  if (fd < 0)
    return NULL;
  sv_watch *w = oc_calloc(1, sizeof *w);
  w->fd = fd;
  w->content_dir = oc_strdup(content_dir);
  /* the kernel's limit is the user's, shared with every other program
     that watches: a quarter of it at most */
  w->limit = SV_WATCH_MAX_FOLDERS;
  FILE *f = fopen("/proc/sys/fs/inotify/max_user_watches", "re");
  unsigned long max;
  if (f && fscanf(f, "%lu", &max) == 1 && max / 4 < w->limit)
    w->limit = max / 4;
  if (f)
    fclose(f);
  return w;
}

size_t sv_watch_limit(const sv_watch *w) { return w->limit; }

size_t sv_watch_unwatched(const sv_watch *w) { return w->unwatched; }

void sv_watch_free(sv_watch *w) {
  if (!w)
    return;
  close(w->fd);
  for (size_t i = 0; i < w->n; i++)
    free(w->dirs[i].path);
  free(w->dirs);
  free(w->content_dir);
  free(w->skip);
  free(w);
}

static watched *find(sv_watch *w, int wd) {
  for (size_t i = 0; i < w->n; i++)
    if (w->dirs[i].wd == wd)
      return &w->dirs[i];
  return NULL;
}

static bool ignored_name(const char *name) {
  size_t n = strlen(name);
  return name[0] == '.' || (n && name[n - 1] == '~');
}

/* Watches dir, or counts it when past the limit. -1 when dir cannot be
 * watched for another reason. */
static int watch_one(sv_watch *w, const char *dir) {
  if (w->n >= w->limit) {
    w->unwatched++;
    return 0;
  }
  int wd = inotify_add_watch(w->fd, dir, MASK);
  if (wd < 0) {
    if (errno != ENOSPC) /* ENOSPC: the user's watches are all taken */
      return -1;
    w->unwatched++;
    return 0;
  }
  watched *old = find(w, wd);
  if (old) { /* the same folder again (moved back): its new path */
    free(old->path);
    old->path = oc_strdup(dir);
  } else {
    OC_GROW(w->dirs, w->cap, w->n + 1);
    w->dirs[w->n].wd = wd;
    w->dirs[w->n].path = oc_strdup(dir);
    w->n++;
  }
  return 0;
}

/* dir and the folders below it, breadth first, so that when the limit
 * is reached the folders nearest the top (Contents, templates) are the
 * ones watched. */
static int add_dir(sv_watch *w, const char *dir) {
  if (w->skip && !strcmp(dir, w->skip))
    return 0;
  if (watch_one(w, dir) != 0)
    return -1;
  typedef struct pending {
    char *path;
    int depth;
  } pending;
  pending *q = NULL;
  size_t head = 0, nq = 0, cq = 0;
  OC_GROW(q, cq, 1);
  q[nq++] = (pending){oc_strdup(dir), 0};
  while (head < nq) {
    pending at = q[head++];
    DIR *d = at.depth < 64 ? opendir(at.path) : NULL;
    struct dirent *de;
    while (d && (de = readdir(d))) {
      if (ignored_name(de->d_name))
        continue;
      char sub[PATH_MAX];
      if (snprintf(sub, sizeof sub, "%s/%s", at.path, de->d_name) >=
          (int)sizeof sub)
        continue;
      struct stat st;
      /* lstat: a link to a folder is not followed (it may lead anywhere) */
      if (lstat(sub, &st) != 0 || !S_ISDIR(st.st_mode) ||
          (w->skip && !strcmp(sub, w->skip)))
        continue;
      if (watch_one(w, sub) != 0) /* gone, or not ours to read */
        w->unwatched++;
      OC_GROW(q, cq, nq + 1);
      q[nq++] = (pending){oc_strdup(sub), at.depth + 1};
    }
    if (d)
      closedir(d);
    free(at.path);
  }
  free(q);
  return 0;
}

int sv_watch_add_tree(sv_watch *w, const char *dir, const char *skip) {
  if (skip && !w->skip)
    w->skip = oc_strdup(skip);
  return add_dir(w, dir);
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

/* Reads the events there are; how many were changes. */
static int drain(sv_watch *w, bool *content_only) {
  char buf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
  int changes = 0;
  for (;;) {
    ssize_t n = read(w->fd, buf, sizeof buf);
    if (n < 0)
      return errno == EAGAIN || errno == EINTR ? changes : -1;
    if (n == 0)
      return changes;
    for (char *p = buf; p < buf + n;) {
      struct inotify_event *ev = (struct inotify_event *)p;
      p += sizeof *ev + ev->len;
      if (ev->mask & IN_Q_OVERFLOW) {
        changes++;
        *content_only = false;
        continue;
      }
      watched *d = find(w, ev->wd);
      if (!d)
        continue;
      if (ev->mask & IN_IGNORED) { /* the folder went away */
        free(d->path);
        *d = w->dirs[--w->n];
        continue;
      }
      if (ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF)) {
        changes++;
        *content_only = false;
        continue;
      }
      const char *name = ev->len ? ev->name : "";
      if (!name[0] || ignored_name(name))
        continue;
      char path[PATH_MAX];
      if (snprintf(path, sizeof path, "%s/%s", d->path, name) >=
          (int)sizeof path)
        continue;
      if (w->skip && !strcmp(path, w->skip))
        continue;
      changes++;
      if (ev->mask & IN_ISDIR) {
        *content_only = false;
        if (ev->mask & (IN_CREATE | IN_MOVED_TO))
          add_dir(w, path);
        continue;
      }
      size_t cl = strlen(w->content_dir);
      if (!(ends_with(path, ".md") && !strncmp(path, w->content_dir, cl) &&
            path[cl] == '/'))
        *content_only = false;
    }
  }
}

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int sv_watch_wait(sv_watch *w, int settle_ms, int stop_fd,
                  bool *content_only) {
  *content_only = true;
  int seen = 0;
  int64_t first = 0;
  for (;;) {
    int timeout = -1;
    if (seen) {
      int64_t left = first + 1000 - now_ms();
      if (left <= 0)
        return 1;
      timeout = left < settle_ms ? (int)left : settle_ms;
    }
    struct pollfd pfd[2] = {{w->fd, POLLIN, 0}, {stop_fd, POLLIN, 0}};
    int r = poll(pfd, stop_fd >= 0 ? 2 : 1, timeout);
    if (r < 0) {
      if (errno == EINTR)
        continue;
      return -1;
    }
    if (stop_fd >= 0 && pfd[1].revents)
      return 0;
    if (r == 0)
      return 1; /* settled */
    int n = drain(w, content_only);
    if (n < 0)
      return -1;
    if (n && !seen) {
      seen = 1;
      first = now_ms();
    }
  }
}
