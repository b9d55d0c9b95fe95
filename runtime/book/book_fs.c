/* Files: paths that must stay inside the book, and output written to a
 * temporary folder that replaces the previous output only when the whole
 * edition succeeded. */
#include "book_fs.h"
#include "book_guard.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oc_alloc.h"
#include "oc_hash.h"
#include "oc_path.h"

/* True when rel climbs above its start with `..` at some point. */
static bool climbs_out(const char *rel) {
  int depth = 0;
  const char *p = rel;
  while (*p) {
    const char *q = strchr(p, '/');
    size_t n = q ? (size_t)(q - p) : strlen(p);
    if (n == 2 && p[0] == '.' && p[1] == '.') {
      if (--depth < 0)
        return true;
    } else if (n && !(n == 1 && p[0] == '.')) {
      depth++;
    }
    if (!q)
      break;
    p = q + 1;
  }
  return false;
}

const char *bk_book_path(bk_edition *e, const char *base_rel, const char *rel,
                         const char *file, unsigned line, unsigned col,
                         bool *missing) {
  *missing = false;
  if (rel[0] == '/' || strchr(rel, '\\') || strstr(rel, "://")) {
    oc_report(e->rep, OC_ERROR, file, line, col,
              "'%s' is an absolute path; paths in a book are relative to "
              "its folder",
              rel);
    return NULL;
  }
  char joined[PATH_MAX];
  int n = snprintf(joined, sizeof joined, "%s/%s%s%s", e->book_dir, base_rel,
                   base_rel[0] ? "/" : "", rel);
  if (n < 0 || (size_t)n >= sizeof joined) {
    oc_report(e->rep, OC_ERROR, file, line, col, "path too long: '%s'", rel);
    return NULL;
  }
  char both[PATH_MAX];
  snprintf(both, sizeof both, "%s%s%s", base_rel, base_rel[0] ? "/" : "", rel);
  if (climbs_out(both)) {
    oc_report(e->rep, OC_ERROR, file, line, col,
              "'%s' leaves the book's folder; a book may only use files "
              "inside it",
              rel);
    return NULL;
  }
  char *real = realpath(joined, NULL);
  if (!real) {
    *missing = true;
    return NULL;
  }
  size_t bl = strlen(e->book_dir);
  bool inside = !strncmp(real, e->book_dir, bl) && real[bl] == '/';
  if (!inside) {
    oc_report(e->rep, OC_ERROR, file, line, col,
              "'%s' is a symbolic link that leads out of the book's folder",
              rel);
    free(real);
    return NULL;
  }
  struct stat st;
  if (stat(real, &st) != 0) {
    free(real);
    *missing = true;
    return NULL;
  }
  if (!S_ISREG(st.st_mode)) {
    oc_report(e->rep, OC_ERROR, file, line, col, "'%s' is %s, not a file", both,
              S_ISDIR(st.st_mode) ? "a folder"
                                  : "a special file (a FIFO or a device)");
    free(real);
    return NULL;
  }
  char *r = oc_arena_strndup(e->a, real, strlen(real));
  free(real);
  return r;
}

int bk_mkdirs(const char *path) {
  char buf[PATH_MAX];
  size_t n = strlen(path);
  if (n >= sizeof buf)
    return -1;
  memcpy(buf, path, n + 1);
  for (size_t i = 1; i <= n; i++) {
    if (buf[i] == '/' || buf[i] == 0) {
      char c = buf[i];
      buf[i] = 0;
      if (mkdir(buf, 0777) != 0 && errno != EEXIST)
        return -1;
      buf[i] = c;
    }
  }
  return 0;
}

int bk_rmtree(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0)
    return errno == ENOENT ? 0 : -1;
  if (!S_ISDIR(st.st_mode))
    return unlink(path);
  DIR *d = opendir(path);
  if (!d)
    return -1;
  int rc = 0;
  struct dirent *de;
  while ((de = readdir(d))) {
    if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
      continue;
    char sub[PATH_MAX];
    if (snprintf(sub, sizeof sub, "%s/%s", path, de->d_name) >=
        (int)sizeof sub) {
      rc = -1;
      continue;
    }
    if (bk_rmtree(sub) != 0)
      rc = -1;
  }
  closedir(d);
  if (rmdir(path) != 0)
    rc = -1;
  return rc;
}

int bk_out_begin(bk_edition *e, bk_out *o) {
  char buf[PATH_MAX];
  snprintf(buf, sizeof buf, "%s/Output", e->book_dir);
  if (bk_mkdirs(buf) != 0) {
    oc_report(e->rep, OC_ERROR, "Output", 0, 0, "cannot create %s: %s", buf,
              strerror(errno));
    return -1;
  }
  /* Output/ itself must not be a link out of the book. */
  char *real = realpath(buf, NULL);
  size_t bl = strlen(e->book_dir);
  bool inside = real && !strncmp(real, e->book_dir, bl) && real[bl] == '/';
  free(real);
  if (!inside) {
    oc_report(e->rep, OC_ERROR, "Output", 0, 0,
              "Output is a symbolic link that leads out of the book's folder");
    return -1;
  }
  /* config.yml checked the name; this is the last line of defence. */
  const char *why = oc_name_problem(e->name, strlen(e->name));
  if (why) {
    oc_report(e->rep, OC_ERROR, "Output", 0, 0,
              "refusing to publish edition '%s' into Output/: its name %s",
              e->name, why);
    return -1;
  }
  snprintf(buf, sizeof buf, "%s/Output/%s", e->book_dir, e->name);
  o->final_dir = oc_arena_strndup(e->a, buf, strlen(buf));
  char output[PATH_MAX];
  snprintf(output, sizeof output, "%s/Output", e->book_dir);
  snprintf(buf, sizeof buf, "%s/Output/.%s.tmp-XXXXXX", e->book_dir, e->name);
  /* mkdtemp, after removing the temporary folders of killed runs. */
  if (bk_guard_begin(output, e->name, buf) != 0) {
    oc_report(e->rep, OC_ERROR, "Output", 0, 0,
              "cannot create a temporary folder in Output: %s",
              strerror(errno));
    return -1;
  }
  chmod(buf, 0755);
  o->tmp_dir = oc_arena_strndup(e->a, buf, strlen(buf));
  return 0;
}

static int ensure_parent(const char *path) {
  char buf[PATH_MAX];
  size_t n = strlen(path);
  if (n >= sizeof buf)
    return -1;
  memcpy(buf, path, n + 1);
  char *slash = strrchr(buf, '/');
  if (!slash)
    return 0;
  *slash = 0;
  return bk_mkdirs(buf);
}

void bk_hash_feed(uint64_t h[2], const void *p, size_t n) {
  /* eight bytes a step, in two independent chains: a megabyte in well
     under a millisecond (FNV-1a's byte a step took three) */
  const unsigned char *u = p;
  uint64_t a = h[0], b = h[1];
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, u + i, 8);
    a = (a ^ w) * 0x9e3779b97f4a7c15ULL;
    a ^= a >> 29;
    b = (b ^ w) * 0xc2b2ae3d27d4eb4fULL;
    b ^= b >> 31;
  }
  a = oc_hash_bytes(a, u + i, n - i);
  b = oc_hash_bytes(b, u + i, n - i);
  /* the length, so that trailing zero bytes count */
  a = (a ^ n) * 0x9e3779b97f4a7c15ULL;
  b = (b ^ n) * 0xc2b2ae3d27d4eb4fULL;
  h[0] = a ^ (a >> 32);
  h[1] = b ^ (b >> 29);
}

/* ---- the memo of what was written ----------------------------------- */

typedef struct memo_entry {
  char *key; /* "<edition>/<rel>" */
  uint64_t hash[2];
  size_t size;
  dev_t dev;
  ino_t ino;
  struct timespec mtime;
} memo_entry;

struct bk_out_memo {
  oc_hidx entries; /* memo_entry by key, on the heap */
  size_t linked, written;
};

bk_out_memo *bk_out_memo_new(void) { return oc_calloc(1, sizeof(bk_out_memo)); }

void bk_out_memo_free(bk_out_memo *m) {
  if (!m)
    return;
  for (size_t i = 0; i < m->entries.cap; i++) {
    memo_entry *en = m->entries.entries[i];
    if (en) {
      free(en->key);
      free(en);
    }
  }
  oc_hidx_free(&m->entries);
  free(m);
}

void bk_out_memo_counts(const bk_out_memo *m, size_t *linked,
                        size_t *written) {
  *linked = m->linked;
  *written = m->written;
}

static bool memo_eq(const void *entry, const void *key) {
  return !strcmp(((const memo_entry *)entry)->key, key);
}

/* The entry of key, a new one (all but the key zero) when there is none. */
static memo_entry *memo_add(bk_out_memo *m, const char *key) {
  uint64_t h = oc_hash_str(key);
  memo_entry *en = oc_hidx_get(&m->entries, h, memo_eq, key);
  if (!en) {
    en = oc_calloc(1, sizeof *en);
    en->key = oc_strdup(key);
    oc_hidx_put(&m->entries, h, en);
  }
  return en;
}

static bool same_time(struct timespec a, struct timespec b) {
  return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

/* Links path (in the temporary folder) to the current output's rel when
 * the memo says it holds these bytes, untouched since: 1 when done, 0
 * when not to be linked, -1 with errno when link failed. */
static int link_unchanged(bk_out_memo *m, memo_entry *en, bk_out *o,
                          const char *rel, const uint64_t hash[2], size_t len,
                          const char *path) {
  if (!en->key || en->size != len || en->hash[0] != hash[0] ||
      en->hash[1] != hash[1])
    return 0;
  char prev[PATH_MAX];
  struct stat st;
  if (snprintf(prev, sizeof prev, "%s/%s", o->final_dir, rel) >=
          (int)sizeof prev ||
      lstat(prev, &st) != 0 || !S_ISREG(st.st_mode) || st.st_dev != en->dev ||
      st.st_ino != en->ino || (size_t)st.st_size != len ||
      !same_time(st.st_mtim, en->mtime))
    return 0;
  if (link(prev, path) != 0)
    return -1;
  m->linked++;
  return 1;
}

int bk_out_write(bk_edition *e, bk_out *o, const char *rel, const char *data,
                 size_t len) {
  char path[PATH_MAX];
  /* Every file of an edition stays inside its folder: rel is made of
   * safe names (the writers check them where the names come from). */
  const char *why = oc_relpath_problem(rel, strlen(rel));
  if (why) {
    oc_report(e->rep, OC_ERROR, "Output", 0, 0,
              "refusing to write '%s' in Output/%s/: the path %s", rel, e->name,
              why);
    return -1;
  }
  snprintf(path, sizeof path, "%s/%s", o->tmp_dir, rel);
  bk_out_memo *m = e->opt ? e->opt->out_memo : NULL;
  memo_entry *en = NULL;
  uint64_t hash[2] = {OC_HASH_FNV_BASIS, 0x84222325cbf29ce4ULL};
  if (m) {
    char key[PATH_MAX + OC_NAME_MAX + 2];
    snprintf(key, sizeof key, "%s/%s", e->name, rel);
    bk_hash_feed(hash, data, len);
    en = memo_add(m, key);
  }
  bk_guard_enter(); /* a signal being handled: wait here for the end */
  /* the folders are made when the file cannot be: once per folder, not
     once per file and level */
  int linked = en ? link_unchanged(m, en, o, rel, hash, len, path) : 0;
  if (linked < 0 && errno == ENOENT && ensure_parent(path) == 0)
    linked = link_unchanged(m, en, o, rel, hash, len, path);
  if (linked > 0) {
    bk_guard_leave();
    return 0;
  }
  FILE *f = fopen(path, "wb");
  if (!f && errno == ENOENT && ensure_parent(path) == 0)
    f = fopen(path, "wb");
  if (!f)
    goto fail;
  size_t w = fwrite(data, 1, len, f);
  struct stat st;
  if (fflush(f) != 0 || w != len || fstat(fileno(f), &st) != 0) {
    fclose(f);
    goto fail;
  }
  if (fclose(f) != 0)
    goto fail;
  bk_guard_leave();
  if (en) {
    en->hash[0] = hash[0];
    en->hash[1] = hash[1];
    en->size = len;
    en->dev = st.st_dev;
    en->ino = st.st_ino;
    en->mtime = st.st_mtim;
    m->written++;
  }
  return 0;
fail:
  bk_guard_leave();
  oc_report(e->rep, OC_ERROR, "Output", 0, 0, "cannot write %s: %s", path,
            strerror(errno));
  return -1;
}

/* True when path's parent folder is, once resolved, BOOK/Output itself. */
static bool parent_is_output(bk_edition *e, const char *path) {
  char parent[PATH_MAX], want[PATH_MAX];
  snprintf(parent, sizeof parent, "%s", path);
  char *slash = strrchr(parent, '/');
  if (!slash || !oc_safe_name(slash + 1, strlen(slash + 1)))
    return false;
  *slash = 0;
  snprintf(want, sizeof want, "%s/Output", e->book_dir);
  char *a = realpath(parent, NULL), *b = realpath(want, NULL);
  bool same = a && b && !strcmp(a, b);
  free(a);
  free(b);
  return same;
}

/* Readers: a server's requests; writers: the renames of commits. */
static pthread_rwlock_t g_swap = PTHREAD_RWLOCK_INITIALIZER;

void bk_out_read_lock(void) { pthread_rwlock_rdlock(&g_swap); }
void bk_out_read_unlock(void) { pthread_rwlock_unlock(&g_swap); }

int bk_out_commit(bk_edition *e, bk_out *o) {
  if (!parent_is_output(e, o->final_dir)) {
    oc_report(e->rep, OC_ERROR, "Output", 0, 0,
              "refusing to replace %s: it is not a folder of %s/Output",
              o->final_dir, e->book_dir);
    return -1;
  }
  char old[PATH_MAX];
  snprintf(old, sizeof old, "%s.old", o->tmp_dir);
  struct stat st;
  bool had = lstat(o->final_dir, &st) == 0;
  pthread_rwlock_wrlock(&g_swap);
  int moved = bk_guard_commit(o->tmp_dir, o->final_dir, old, had);
  pthread_rwlock_unlock(&g_swap);
  if (moved != 0) {
    oc_report(e->rep, OC_ERROR, "Output", 0, 0, "cannot move output to %s: %s",
              o->final_dir, strerror(errno));
    return -1;
  }
  o->old_dir = had ? oc_arena_strndup(e->a, old, strlen(old)) : NULL;
  o->tmp_dir = NULL;
  return 0;
}

void bk_out_finish(bk_out *o) {
  if (o->old_dir)
    bk_rmtree(o->old_dir);
  o->old_dir = NULL;
  bk_guard_release(BK_GUARD_OLD);
}

int bk_out_rollback(bk_edition *e, bk_out *o) {
  char failed[PATH_MAX];
  snprintf(failed, sizeof failed, "%s.failed", o->final_dir);
  bk_rmtree(failed);
  pthread_rwlock_wrlock(&g_swap);
  bool moved = rename(o->final_dir, failed) == 0 &&
               (!o->old_dir || rename(o->old_dir, o->final_dir) == 0);
  pthread_rwlock_unlock(&g_swap);
  if (!moved) {
    oc_report(e->rep, OC_ERROR, "Output", 0, 0,
              "cannot put the previous output back in %s: %s", o->final_dir,
              strerror(errno));
    return -1;
  }
  o->old_dir = NULL;
  bk_guard_release(BK_GUARD_OLD);
  bk_rmtree(failed);
  return 0;
}

void bk_out_abort(bk_out *o) {
  if (o->tmp_dir)
    bk_rmtree(o->tmp_dir);
  o->tmp_dir = NULL;
  bk_guard_release(BK_GUARD_TMP);
}
