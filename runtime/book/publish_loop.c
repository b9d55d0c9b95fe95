/* publish serve and publish --watch: the book published, then again at
 * each change the watch sees (sv_watch.h), and with serve the edition
 * served on 127.0.0.1 (sv_serve.h), its open pages reloaded or shown the
 * messages; for the publish command (publish.c). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "book_fs.h"
#include "book_guard.h"
#include "book_writers.h"
#include "hl_highlight.h"
#include "oc_alloc.h"
#include "oc_sb.h"
#include "oc_shell.h"
#include "publish_cli.h"
#include "sv_serve.h"
#include "sv_watch.h"

/* The edition publish serve shows: the one named, else the book's first
 * html edition, else its first html_chunked one, else its first with a
 * format. NULL after saying why; *readable false when config.yml could
 * not be read (then serve waits for it to be fixed). */
static const char *serve_edition(const char *book_dir, const char *named,
                                 const bk_options *opt, oc_reporter *rep,
                                 report_state *st, const char **entry,
                                 bool *readable) {
  oc_arena *a = oc_arena_new();
  const char *found = NULL;
  bk_config *cfg = bk_config_load(a, book_dir, opt->json, rep);
  *readable = cfg && !st->errors;
  if (!*readable)
    goto out;
  size_t n = bk_config_nedition(cfg);
  static const char *const prefer[] = {"html", "html_chunked", NULL};
  for (size_t k = 0; k < 3 && !found && !named; k++)
    for (size_t i = 0; i < n && !found; i++) {
      const char *name = bk_config_edition_name(cfg, i);
      const char *f = bk_config_edition_conf(cfg, name)->format;
      if (prefer[k] ? !strcmp(f, prefer[k]) : pub_format_supported(f))
        found = name;
    }
  if (named)
    found = named;
  if (!found) {
    oc_report(rep, OC_ERROR, "config.yml", 0, 0,
              "the book has no edition publish serve can show");
    goto out;
  }
  const bk_edition_conf *ed = bk_config_edition_conf(cfg, found);
  const char *f = ed ? ed->format : "";
  if (!ed || !pub_format_supported(f)) {
    oc_report(rep, OC_ERROR, NULL, 0, 0,
              !ed ? "the book has no edition '%s' (publish --list shows them)"
                  : "edition '%s' has no format publish can publish",
              found);
    found = NULL;
    goto out;
  }
  found = oc_strdup(found);
  *entry = !strcmp(f, "html")           ? "book.html"
           : !strcmp(f, "html_chunked") ? "book/index.html"
           : !strcmp(f, "pdf")          ? "book.pdf"
                                        : "book.epub";
out:
  oc_arena_free(a);
  return found;
}

/* The folder of the PATH that holds program name, NULL when none. */
static char *find_program(const char *name) {
  const char *path = getenv("PATH");
  if (!path)
    return NULL;
  for (const char *p = path; *p;) {
    const char *q = strchr(p, ':');
    size_t n = q ? (size_t)(q - p) : strlen(p);
    char full[PATH_MAX];
    if (n &&
        snprintf(full, sizeof full, "%.*s/%s", (int)n, p, name) <
            (int)sizeof full &&
        access(full, X_OK) == 0)
      return oc_strdup(full);
    p += n + (q ? 1 : 0);
  }
  return NULL;
}

/* Folders not watched (past the watch's limit), said once. */
static void say_unwatched(const sv_watch *w, bool *said) {
  size_t n = sv_watch_unwatched(w);
  if (!n || *said)
    return;
  *said = true;
  fprintf(stderr,
          "publish: warning: %zu folder%s of the book %s not watched "
          "(publish watches %zu at most): a change there does not publish "
          "again\n",
          n, n == 1 ? "" : "s", n == 1 ? "is" : "are", sv_watch_limit(w));
}

/* One publish of the loop: the messages said anew (a warning said before
 * is said again), and the server told. */
static void report_again(report_state *st) {
  oc_hidx_free(&st->seen);
  st->seen = (oc_hidx){0};
  st->errors = st->warnings = st->usage_errors = 0;
  st->capture->len = 0;
}

/* After a publish (rc its status): a served folder that leads out of
 * Output (a link a failed publish left) is an error, said unless the
 * publish said it. */
static int check_served(sv_server *server, oc_reporter *rep, int rc) {
  char why[512];
  int out = sv_serve_check(server, why, sizeof why);
  if (out == SV_SERVE_EDITION_OUT || (out && rc == 0)) {
    oc_report(rep, OC_ERROR, "Output", 0, 0, "%s", why);
    return 1;
  }
  return rc;
}

/* edition and entry: what the server serves from now on (NULL: as it
 * was), set once the publish is over, so that "/" never leads to a page
 * not written yet. */
static int publish_again(const char *book_dir, char **editions, int neditions,
                         const bk_options *opt, report_state *st,
                         sv_server *server, const char *edition,
                         const char *entry) {
  report_again(st);
  oc_reporter rep = {pub_print_diag, st};
  size_t linked0, written0, linked, written;
  bk_out_memo_counts(opt->out_memo, &linked0, &written0);
  int rc =
      pub_publish_book(book_dir, editions, neditions, opt, &rep, st, false);
  bk_out_memo_counts(opt->out_memo, &linked, &written);
  if (opt->verbosity > 0)
    printf("wrote %zu files, linked %zu unchanged ones from the output "
           "before\n",
           written - written0, linked - linked0);
  fflush(stdout);
  if (server && edition)
    sv_serve_set(server, edition, entry);
  if (server)
    rc = check_served(server, &rep, rc);
  if (server && rc == 0)
    sv_serve_reload(server);
  else if (server) {
    oc_sb_adds(st->capture, "publish: the edition was not published; the "
                            "last good output is still served\n");
    sv_serve_failure(server, oc_sb_cstr(st->capture));
  }
  return rc;
}

/* What the loop holds from its start to its end. */
typedef struct loop {
  loop_args args;
  bk_options opt;
  report_state st;
  oc_reporter rep;
  oc_sb capture;
  char *book_dir;
  char **editions;
  int neditions;
  const char *named;   /* the edition the command line named, or NULL */
  const char *edition; /* the edition served (heap), NULL: none yet */
  const char *entry;   /* its page "/" leads to */
  bool readable;       /* config.yml read when the edition was looked for */
  bool unwatched_said;
  unsigned port;
  int lfd; /* the listening socket until the server takes it */
  char *opener;
  sv_server *server;
  sv_watch *watch;
} loop;

/* The output's lock, as the server takes it (sv_lock). */
static void out_read_lock(void *user) {
  (void)user;
  bk_out_read_lock();
}

static void out_read_unlock(void *user) {
  (void)user;
  bk_out_read_unlock();
}

/* Until the first publish: the socket taken, the process confined, the
 * book watched, the edition to serve found. 0, or -1 after saying why. */
static int loop_begin(loop *l, const char *dir) {
  char why[512];
  /* The port is taken before the sandbox, which refuses every bind. */
  if (l->args.serve) {
    bool moved;
    l->lfd = sv_serve_listen(l->args.port, &l->port, &moved, why, sizeof why);
    if (l->lfd < 0) {
      fprintf(stderr, "publish: error: %s\n", why);
      return -1;
    }
    if (moved)
      fprintf(stderr, "publish: note: port %u is taken; serving on port %u\n",
              l->args.port, l->port);
  }
  pub_confine(l->book_dir, &l->opt, false, l->opener != NULL, l->args.serve,
              &l->rep);
  bk_guard_install();
  if (chdir(l->book_dir) != 0) {
    fprintf(stderr, "publish: error: %s: %s\n", dir, strerror(errno));
    return -1;
  }
  char content_dir[PATH_MAX], output_dir[PATH_MAX];
  snprintf(content_dir, sizeof content_dir, "%s/Contents", l->book_dir);
  snprintf(output_dir, sizeof output_dir, "%s/Output", l->book_dir);
  l->watch = sv_watch_new(content_dir);
  if (!l->watch || sv_watch_add_tree(l->watch, l->book_dir, output_dir) != 0 ||
      (l->opt.theme_dir &&
       sv_watch_add_tree(l->watch, l->opt.theme_dir, NULL) != 0)) {
    fprintf(stderr, "publish: error: cannot watch %s: %s\n", l->book_dir,
            strerror(errno));
    return -1;
  }
  l->unwatched_said = l->opt.verbosity < 0; /* -q: errors only */
  say_unwatched(l->watch, &l->unwatched_said);
  l->readable = true;
  l->named = l->neditions ? l->editions[0] : NULL;
  if (l->args.serve) {
    l->edition = serve_edition(l->book_dir, l->named, &l->opt, &l->rep, &l->st,
                               &l->entry, &l->readable);
    /* an edition that is not there is a mistake of the command line; a
       config.yml that does not read is a moment of the writing: served
       with its messages until it is fixed */
    if (!l->edition && l->readable)
      return -1;
  }
  if (l->edition) {
    l->editions = (char **)&l->edition;
    l->neditions = 1;
  }
  return 0;
}

/* Says where the edition is served, and opens it with xdg-open when
 * --open asks. */
static void announce(loop *l) {
  if (l->opt.verbosity > 0)
    oc_report(&l->rep, OC_NOTE, NULL, 0, 0,
              "serving at most %u connections at once, each closed after "
              "%d s without traffic",
              sv_serve_max_connections(l->server), SV_SERVE_IDLE_SECONDS);
  if (l->edition)
    printf("serving edition '%s' at http://127.0.0.1:%u/ (Ctrl-C stops)\n",
           l->edition, l->port);
  else
    printf("serving at http://127.0.0.1:%u/ once config.yml is fixed "
           "(Ctrl-C stops)\n",
           l->port);
  fflush(stdout);
  if (l->args.open && l->opener) {
    char cmd[PATH_MAX + 128];
    snprintf(cmd, sizeof cmd, "'%s' 'http://127.0.0.1:%u/' >/dev/null 2>&1 &",
             l->opener, l->port);
    int status;
    if (oc_shell_run(l->book_dir, cmd, &status) != 0)
      fprintf(stderr, "publish: note: cannot run xdg-open: %s\n",
              strerror(errno));
  } else if (l->args.open) {
    printf("xdg-open is not installed: open http://127.0.0.1:%u/ in a "
           "browser\n",
           l->port);
  }
}

/* The first publish, then the server started on it. 0, or -1 after
 * saying why. */
static int loop_first(loop *l) {
  /* Each publish makes and frees the same few hundred megabytes: kept by
     malloc rather than given back to the kernel, they are not faulted in
     again page by page (a third of a warm publish's time before). */
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
  l->opt.md_cache = bk_md_cache_new();
  l->opt.out_memo = bk_out_memo_new();
  l->opt.hl = hl_new(NULL, NULL);
  int last = 1;
  if (!l->args.serve || l->edition)
    last = publish_again(l->book_dir, l->editions, l->neditions, &l->opt,
                         &l->st, NULL, NULL, NULL);
  if (!l->args.serve) {
    printf("watching %s for changes (Ctrl-C stops)\n", l->book_dir);
    return 0;
  }
  char why[512];
  sv_lock lock = {out_read_lock, out_read_unlock, NULL};
  l->server = sv_serve_start(l->lfd, l->book_dir, l->edition, l->entry, &lock,
                             why, sizeof why);
  l->lfd = -1;
  if (!l->server) {
    fprintf(stderr, "publish: error: %s\n", why);
    return -1;
  }
  if (l->edition)
    last = check_served(l->server, &l->rep, last);
  if (last != 0)
    sv_serve_failure(l->server, oc_sb_cstr(&l->capture));
  announce(l);
  return 0;
}

/* One burst of changes: the book published again (with serve and no
 * edition yet, once config.yml gives one). */
static void loop_change(loop *l, bool content_only) {
  say_unwatched(l->watch, &l->unwatched_said);
  /* a content file changed: the cache finds what did; anything else
     (config.yml, a template, an image, a folder) empties it */
  if (!content_only)
    bk_md_cache_clear(l->opt.md_cache);
  if (l->opt.verbosity > 0)
    printf("changes seen%s: publishing again\n",
           content_only ? " in content files" : "");
  if (l->args.serve && !l->edition) {
    report_again(&l->st);
    l->edition = serve_edition(l->book_dir, l->named, &l->opt, &l->rep, &l->st,
                               &l->entry, &l->readable);
    if (!l->edition) {
      sv_serve_failure(l->server, oc_sb_cstr(&l->capture));
      return;
    }
    l->editions = (char **)&l->edition;
    l->neditions = 1;
    printf("serving edition '%s' at http://127.0.0.1:%u/\n", l->edition,
           l->port);
    publish_again(l->book_dir, l->editions, l->neditions, &l->opt, &l->st,
                  l->server, l->edition, l->entry);
    return;
  }
  publish_again(l->book_dir, l->editions, l->neditions, &l->opt, &l->st,
                l->server, NULL, NULL);
}

/* Waits for changes until Ctrl-C: the exit status. */
static int loop_run(loop *l) {
  int rc = 1;
  fflush(stdout);
  /* Ctrl-C while waiting: the loop ends and everything is let go */
  int stop[2];
  if (pipe(stop) != 0 || fcntl(stop[0], F_SETFD, FD_CLOEXEC) != 0 ||
      fcntl(stop[1], F_SETFD, FD_CLOEXEC) != 0) {
    fprintf(stderr, "publish: error: %s\n", strerror(errno));
    return rc;
  }
  for (;;) {
    bool content_only;
    bk_guard_idle(stop[1]);
    int r = sv_watch_wait(l->watch, 50, stop[0], &content_only);
    bk_guard_idle(-1);
    if (r == 0) {
      unsigned char sig = 0;
      if (read(stop[0], &sig, 1) == 1)
        rc = 128 + sig;
      if (l->opt.verbosity >= 0)
        printf("stopped\n");
      break;
    }
    if (r < 0) {
      fprintf(stderr, "publish: error: cannot watch %s: %s\n", l->book_dir,
              strerror(errno));
      break;
    }
    loop_change(l, content_only);
  }
  close(stop[0]);
  close(stop[1]);
  return rc;
}

int pub_cmd_loop(const char *dir, char **editions, int neditions,
                 const bk_options *given, loop_args args) {
  loop l = {.args = args,
            .opt = *given,
            .editions = editions,
            .neditions = neditions,
            .lfd = -1};
  oc_sb_init(&l.capture, NULL, 0);
  l.st =
      (report_state){given->strict, given->verbosity, 0, 0, 0, {0}, &l.capture};
  l.rep = (oc_reporter){pub_print_diag, &l.st};
  l.book_dir = pub_book_folder(dir);
  if (!l.book_dir)
    return 1;
  int rc = 1;
  l.opener = args.open ? find_program("xdg-open") : NULL;
  if (loop_begin(&l, dir) == 0 && loop_first(&l) == 0)
    rc = loop_run(&l);
  if (l.lfd >= 0)
    close(l.lfd);
  sv_serve_stop(l.server);
  sv_watch_free(l.watch);
  bk_md_cache_free(l.opt.md_cache);
  bk_out_memo_free(l.opt.out_memo);
  hl_free(l.opt.hl);
  bk_guard_uninstall();
  oc_shell_stop();
  free((char *)l.edition);
  free(l.opener);
  oc_hidx_free(&l.st.seen);
  oc_sb_free(&l.capture);
  free(l.book_dir);
  return rc;
}
