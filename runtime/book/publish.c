/* publish: the writer's command. Creates books, publishes their editions,
 * lists them, and writes starter style sheets. Exit codes: 0 success, 1 a
 * problem in the book, 2 bad usage. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "book_guard.h"
#include "book_highlight.h"
#include "book_sandbox.h"
#include "book_serve.h"
#include "book_watch.h"
#include "book_writers.h"
#include "oc_alloc.h"
#include "oc_sb.h"
#include "oc_shell.h"
#include "octavo_publish.h"

#ifndef OCTAVO_VERSION
#define OCTAVO_VERSION "0.1.0"
#endif

static const char usage_text[] =
    "usage: publish BOOK_DIR [EDITION...] [--configuration JSON] [--strict]\n"
    "               [--theme DIR] [--no-scripts] [--no-sandbox] [--xhtml]\n"
    "               [-q | -v]\n"
    "       publish --watch BOOK_DIR [EDITION...] [options]\n"
    "       publish serve BOOK_DIR [EDITION] [--port N] [--open] [options]\n"
    "       publish --list BOOK_DIR\n"
    "       publish --themes\n"
    "       publish new TITLE [--dir DIR]\n"
    "       publish customize BOOK_DIR EDITION\n"
    "       publish --help | --version\n";

static const char help_text[] =
    "Publishes a book written in Markdown (Easybook's format) as HTML,\n"
    "a website, EPUB or PDF.\n"
    "\n"
    "  publish BOOK_DIR [EDITION...]   publish the editions named (all\n"
    "                                  editions with a format when none is)\n"
    "                                  into BOOK_DIR/Output/<edition>/\n"
    "  publish --watch BOOK_DIR [EDITION...]\n"
    "                                  publish, then again at every change\n"
    "                                  of the book or its theme folder\n"
    "  publish serve BOOK_DIR [EDITION]\n"
    "                                  the same, serving the edition (the\n"
    "                                  first html one, else html_chunked)\n"
    "                                  on http://127.0.0.1:PORT/; its pages\n"
    "                                  reload when it is published again\n"
    "                                  and show the errors when it fails\n"
    "  publish --list BOOK_DIR         list the book's editions\n"
    "  publish --themes                list the themes compiled in\n"
    "  publish new TITLE [--dir DIR]   create a new book in DIR (default: .)\n"
    "  publish customize BOOK_DIR EDITION\n"
    "                                  write a starter style.css for EDITION\n"
    "\n"
    "options:\n"
    "  --configuration JSON  override config.yml values, e.g.\n"
    "                        '{\"book\": {\"title\": \"Draft\"}}'\n"
    "  --strict              treat warnings as errors\n"
    "  --theme DIR           publish with the theme folder DIR (as `themec\n"
    "                        new` writes it) instead of the edition's\n"
    "                        compiled theme, read by the interpreter: the\n"
    "                        same output as the theme compiled in\n"
    "  --no-scripts          do not run before_publish/after_publish\n"
    "                        (for books you do not trust: a book's scripts\n"
    "                        are code, printed before they run)\n"
    "  --no-sandbox          do not confine publish to reading the book and\n"
    "                        writing in its Output/ (Landlock), to debug\n"
    "  --xhtml               pdf editions: also write book.xhtml, theme.css\n"
    "                        and style.css beside book.pdf, the document and\n"
    "                        style sheets the typesetter read (for themes)\n"
    "  --port N              serve: the port (default 8000; 0 or a taken\n"
    "                        port: a free one, printed)\n"
    "  --open                serve: open the page with xdg-open\n"
    "  -q, --quiet           print errors only\n"
    "  -v, --verbose         print what is done and how long it takes\n"
    "  --help, --version\n"
    "\n"
    "Exit status: 0 success, 1 a problem in the book, 2 bad usage.\n"
    "More: man publish, man themec, man 5 octavo-theme; the user guide in\n"
    "share/doc/octavo/guide/ where Octavo is installed (docs/guide/ in its\n"
    "sources).\n";

static int usage(const char *msg) {
  if (msg)
    fprintf(stderr, "publish: %s\n", msg);
  fputs(usage_text, stderr);
  return 2;
}

/* ---- reporting ------------------------------------------------------ */

typedef struct report_state {
  bool strict;
  int verbosity;
  unsigned errors, warnings;
  unsigned usage_errors; /* errors in the --configuration argument */
  /* Warnings already printed: each edition reads the same contents, and a
   * broken link is one problem however many editions are published. */
  uint64_t *seen;
  size_t nseen, cseen;
  oc_sb *capture; /* publish serve: the messages, for the page's overlay */
} report_state;

/* True when this warning was printed before (and remembers it). */
static bool seen_before(report_state *st, const char *file, unsigned line,
                        unsigned col, const char *msg) {
  uint64_t h = 0xcbf29ce484222325ULL;
  const char *parts[] = {file ? file : "", msg};
  for (size_t k = 0; k < 2; k++)
    for (const char *c = parts[k]; *c; c++)
      h = (h ^ (unsigned char)*c) * 0x100000001b3ULL;
  h = (h ^ line) * 0x100000001b3ULL;
  h = (h ^ col) * 0x100000001b3ULL;
  h |= 1; /* 0 marks a free slot */
  /* An open-addressing set, at most half full: a book with many warnings
   * costs no more per warning than one with few. */
  if ((st->nseen + 1) * 2 > st->cseen) {
    size_t cap = st->cseen ? st->cseen * 2 : 64;
    uint64_t *set = oc_calloc(cap, sizeof *set);
    for (size_t i = 0; i < st->cseen; i++)
      if (st->seen[i]) {
        size_t j = st->seen[i] & (cap - 1);
        while (set[j])
          j = (j + 1) & (cap - 1);
        set[j] = st->seen[i];
      }
    free(st->seen);
    st->seen = set;
    st->cseen = cap;
  }
  size_t j = h & (st->cseen - 1);
  for (; st->seen[j]; j = (j + 1) & (st->cseen - 1))
    if (st->seen[j] == h)
      return true;
  st->seen[j] = h;
  st->nseen++;
  return false;
}

static void print_diag(void *user, oc_severity sev, const char *file,
                       unsigned line, unsigned col, const char *msg) {
  report_state *st = user;
  bk_guard_pass(); /* stopped by a signal: say nothing more */
  /* A warning said twice is said once, also when --strict makes it an
   * error (errors stop the edition, and each is said where it happens). */
  bool warning = sev == OC_WARNING;
  if (warning && st->strict)
    sev = OC_ERROR;
  if ((sev != OC_ERROR || warning) && seen_before(st, file, line, col, msg))
    return;
  if (sev == OC_ERROR)
    st->errors++;
  if (sev == OC_ERROR && file && !strcmp(file, "--configuration"))
    st->usage_errors++;
  else if (sev == OC_WARNING)
    st->warnings++;
  if (sev != OC_ERROR && st->verbosity < 0)
    return;
  const char *kind = sev == OC_ERROR     ? "error"
                     : sev == OC_WARNING ? "warning"
                                         : "note";
  char where[PATH_MAX + 32];
  if (file && line && col)
    snprintf(where, sizeof where, "%s:%u:%u", file, line, col);
  else if (file && line)
    snprintf(where, sizeof where, "%s:%u", file, line);
  else
    snprintf(where, sizeof where, "%s", file ? file : "publish");
  fprintf(stderr, "%s: %s: %s\n", where, kind, msg);
  /* the page's overlay: the same lines, up to 64 KiB */
  if (st->capture && st->capture->len < 65536)
    oc_sb_printf(st->capture, "%s: %s: %s\n", where, kind, msg);
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- scripts -------------------------------------------------------- */

/* Prints s with its control characters escaped (\n, \t, \x1b...), so
 * that a command cannot rewrite the terminal or hide behind a newline;
 * the rest as it is, to be read or copied. */
static void print_escaped(FILE *f, const char *s) {
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '\n')
      fputs("\\n", f);
    else if (*p == '\t')
      fputs("\\t", f);
    else if (*p < 0x20 || *p == 0x7f)
      fprintf(f, "\\x%02x", *p);
    else
      fputc(*p, f);
  }
}

/* A book's scripts are code the writer runs, as a Makefile is: each
 * command is shown before it runs, even under -q, whichever way config.yml
 * spelt, merged or inherited it (this is the command as resolved and
 * rendered). */
static void print_command(bk_pos pos, const char *which, const char *edition,
                          const char *cmd, bool skipped) {
  fflush(stdout);
  if (pos.line)
    fprintf(stderr, "%s:%u:%u: note: ", pos.file, pos.line, pos.col);
  else
    fprintf(stderr, "%s: note: ", pos.file);
  fprintf(stderr, "%s %s of edition '", skipped ? "not running" : "running",
          which);
  print_escaped(stderr, edition);
  fputs(skipped ? "' (--no-scripts): " : "': ", stderr);
  print_escaped(stderr, cmd);
  fputc('\n', stderr);
}

/* Runs before_publish or after_publish (a string or a list of strings,
 * rendered as templates whose values are shell-quoted) in the book's
 * folder. */
static int run_scripts(bk_edition *e, const char *which) {
  const bk_commands *v = !strcmp(which, "before_publish")
                             ? &e->ed->before_publish
                             : &e->ed->after_publish;
  for (size_t i = 0; i < v->n; i++) {
    const char *c = v->v[i];
    if (!c)
      continue;
    char path[300];
    if (v->list)
      snprintf(path, sizeof path, "book.editions.%s.%s.%zu", e->name, which, i);
    else
      snprintf(path, sizeof path, "book.editions.%s.%s", e->name, which);
    bk_pos pos = {"config.yml", 0, 0};
    bk_config_where(e->cfg, path, &pos);
    if (e->opt->no_scripts) {
      print_command(pos, which, e->name, c, true);
      continue;
    }
    const char *cmd = bk_render_command(e, c, path);
    if (!cmd)
      return -1;
    print_command(pos, which, e->name, cmd, false);
    fflush(stdout);
    fflush(stderr);
    /* Outside the sandbox: a book's scripts are its author's code. */
    int status;
    if (oc_shell_run(e->book_dir, cmd, &status) != 0) {
      oc_report(e->rep, OC_ERROR, pos.file, pos.line, pos.col,
                "cannot run %s: %s", which, strerror(errno));
      return -1;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      if (WIFEXITED(status))
        oc_report(e->rep, OC_ERROR, pos.file, pos.line, pos.col,
                  "the %s script of edition '%s' failed (exit status %d)",
                  which, e->name, WEXITSTATUS(status));
      else
        oc_report(e->rep, OC_ERROR, pos.file, pos.line, pos.col,
                  "the %s script of edition '%s' was killed by signal %d",
                  which, e->name, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
      return -1;
    }
  }
  return 0;
}

/* ---- publishing ----------------------------------------------------- */

#ifdef OCTAVO_TEST_PLANT_ESCAPE
/* Only in the tests' publish-planted: a writer bug that escapes the book,
 * which the sandbox must stop (tests/books/plant_escape.c). */
void octavo_test_plant_escape(const char *book_dir);
#endif

/* Where config.yml gives edition `name` its format, for messages. */
static bk_pos format_pos(const bk_config *cfg, const char *name) {
  char path[300];
  bk_pos pos = {"config.yml", 0, 0};
  snprintf(path, sizeof path, "book.editions.%s.format", name);
  bk_config_where(cfg, path, &pos);
  return pos;
}

static bool format_supported(const char *f) {
  return !strcmp(f, "html") || !strcmp(f, "html_chunked") ||
         !strcmp(f, "epub") || !strcmp(f, "mobi") || !strcmp(f, "pdf");
}

/* What an edition is published with beyond the config: the printed pages
 * it fills (a pdf edition an epub's page_source names) or marks (that
 * epub), and whether only its pages are wanted (a pdf edition the run
 * does not publish: set, then its output thrown away, no scripts run). */
typedef struct edition_pages {
  bk_print_pages *out;
  const bk_print_pages *in;
  bool only;
} edition_pages;

static int publish_edition(bk_config *cfg, const char *book_dir,
                           const char *name, const bk_options *opt,
                           oc_reporter *rep, report_state *st,
                           edition_pages pages) {
  double t0 = now_seconds();
  unsigned errors_before = st->errors;
  bk_edition e;
  int rc = -1;
  bk_out out = {0};
  if (bk_edition_init(&e, cfg, book_dir, name, opt, rep) != 0)
    goto done;
  e.pages_out = pages.out;
  e.pages_in = pages.in;
  if (!pages.only && run_scripts(&e, "before_publish") != 0)
    goto done;
  size_t hits0 = 0, misses0 = 0, hits = 0, misses = 0;
  if (opt->md_cache)
    bk_md_cache_counts(opt->md_cache, &hits0, &misses0);
  if (bk_edition_load_items(&e) != 0 || st->errors != errors_before)
    goto done;
  if (opt->md_cache)
    bk_md_cache_counts(opt->md_cache, &hits, &misses);
  if (opt->verbosity > 0 && opt->md_cache)
    printf("%s: read %zu items in %.3f s (%zu from the cache)\n", name,
           e.nitems, now_seconds() - t0, hits - hits0);
  else if (opt->verbosity > 0)
    printf("%s: read %zu items in %.3f s\n", name, e.nitems,
           now_seconds() - t0);
  if (bk_out_begin(&e, &out) != 0)
    goto done;
  int w = !strcmp(e.format, "html")           ? bk_write_html(&e, &out)
          : !strcmp(e.format, "html_chunked") ? bk_write_html_chunked(&e, &out)
          : !strcmp(e.format, "pdf")          ? bk_write_pdf(&e, &out)
                                              : bk_write_epub(&e, &out);
#ifdef OCTAVO_TEST_PLANT_ESCAPE
  octavo_test_plant_escape(book_dir);
#endif
  if (w != 0 || st->errors != errors_before) {
    bk_out_abort(&out);
    goto done;
  }
  if (pages.only) {
    bk_out_abort(&out);
    if (opt->verbosity > 0)
      printf("set the pages of %s (%s) in %.2f s\n", name, e.format,
             now_seconds() - t0);
    rc = 0;
    goto done;
  }
  if (bk_out_commit(&e, &out) != 0)
    goto done;
  /* after_publish sees the new output; when it fails, the edition counts
   * as not published and the previous output comes back. */
  if (run_scripts(&e, "after_publish") != 0) {
    bk_out_rollback(&e, &out);
    goto done;
  }
  bk_out_finish(&out);
  if (opt->verbosity >= 0)
    printf("published %s (%s) in Output/%s/ in %.2f s\n", name, e.format, name,
           now_seconds() - t0);
  rc = 0;
done:
  if (out.tmp_dir)
    bk_out_abort(&out);
  bk_out_finish(&out);
  if (rc != 0 && opt->verbosity >= 0)
    fprintf(stderr, "publish: edition '%s' was not published%s\n", name,
            out.final_dir ? "; the previous output is left as it was" : "");
  bk_edition_free(&e);
  return rc;
}

/* Before the book is read: reads only the book and the system folders,
 * writes only in Output/ (book_sandbox.h); -v says which. A kernel
 * without Landlock is said without -v (but not with -q): the book is
 * then read with every right of the user. */
static void confine(const char *book_dir, const bk_options *opt, bool list,
                    bool runner, bool serving, const oc_reporter *rep) {
  char why[512];
  int abi = 0;
  if (!opt->no_sandbox) {
    oc_arena *a = oc_arena_new();
    size_t nimports;
    const char **imports = bk_config_imports(a, book_dir, &nimports);
    abi = bk_sandbox_enter(book_dir, opt->theme_dir, imports, nimports, !list,
                           (!list && !opt->no_scripts) || runner, why,
                           sizeof why);
    oc_arena_free(a);
  }
  if (!opt->no_sandbox && !abi) {
    if (opt->verbosity >= 0)
      fprintf(stderr,
              "publish: warning: Landlock not available (%s): running "
              "unconfined\n",
              why);
    return;
  }
  if (opt->verbosity <= 0)
    return;
  if (opt->no_sandbox)
    oc_report(rep, OC_NOTE, NULL, 0, 0, "--no-sandbox: running unconfined");
  else
    oc_report(rep, OC_NOTE, NULL, 0, 0,
              "confined by Landlock (ABI %d): reads the book and the system "
              "folders, writes %s, no network%s",
              abi, list ? "nothing" : "only in Output/",
              serving ? " (but the socket it listens on, taken before)" : "");
}

/* The book folder made absolute and canonical. */
static char *book_folder(const char *arg) {
  char *real = realpath(arg, NULL);
  struct stat st;
  if (!real || stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
    fprintf(stderr, "publish: error: %s: no such book folder\n", arg);
    free(real);
    return NULL;
  }
  return real;
}

/* Reads config.yml and publishes the editions named (all with a format
 * when none is), or lists them; the exit status. Run in the book's
 * folder, confined. */
static int publish_book(const char *book_dir, char **editions, int neditions,
                        const bk_options *opt, oc_reporter *rep,
                        report_state *st, bool list) {
  int rc = 0;
  oc_arena *a = oc_arena_new();
  bk_config *cfg = bk_config_load(a, book_dir, opt->json, rep);
  if (!cfg || st->errors) {
    /* A --configuration that does not parse is a bad command line. */
    rc = st->usage_errors ? 2 : 1;
    if (opt->verbosity >= 0)
      fprintf(stderr, "publish: %u error%s, %u warning%s; nothing published\n",
              st->errors, st->errors == 1 ? "" : "s", st->warnings,
              st->warnings == 1 ? "" : "s");
    goto out;
  }
  size_t n = bk_config_nedition(cfg);
  if (list) {
    for (size_t i = 0; i < n; i++) {
      const char *name = bk_config_edition_name(cfg, i);
      const bk_edition_conf *ed = bk_config_edition_conf(cfg, name);
      const char *format = ed->format;
      const char *ext = ed->extends;
      char line[512];
      snprintf(line, sizeof line, "%-16s %-13s%s%s%s", name,
               format[0] ? format : "(base only)", ext[0] ? " extends " : "",
               ext,
               format[0] && !format_supported(format) ? "  (not available yet)"
                                                      : "");
      size_t ll = strlen(line);
      while (ll && line[ll - 1] == ' ')
        line[--ll] = 0;
      puts(line);
    }
    goto out;
  }
  if (!n) {
    fprintf(stderr, "config.yml: error: the book defines no editions\n");
    rc = 1;
    goto out;
  }
  /* Which editions: the ones named, else all with a format. */
  for (int i = 0; i < neditions; i++) {
    const bk_edition_conf *ed = bk_config_edition_conf(cfg, editions[i]);
    if (!ed) {
      /* Through the reporter, which escapes what a terminal would act on. */
      oc_report(rep, OC_ERROR, NULL, 0, 0,
                "the book has no edition '%s' (publish --list shows them)",
                editions[i]);
      rc = 1;
      goto out;
    }
    if (!ed->format[0]) {
      oc_report(rep, OC_ERROR, NULL, 0, 0,
                "edition '%s' has no format; it can only be extended by "
                "other editions",
                editions[i]);
      rc = 1;
      goto out;
    }
  }
  size_t todo = neditions ? (size_t)neditions : n;
  const char **names = oc_arena_alloc(a, (todo ? todo : 1) * sizeof *names);
  bool *done = oc_arena_calloc(a, todo ? todo : 1, sizeof *done);
  /* the printed pages a pdf edition sets for an epub whose page_source
     names it (config.yml checked that it is a pdf edition), by name */
  tpl_map *pages_of = tpl_map_new(a, 4); /* name → index in pages */
  bk_print_pages **pages_list =
      oc_arena_alloc(a, (todo ? todo : 1) * sizeof *pages_list);
  size_t npages = 0;
  for (size_t i = 0; i < todo; i++) {
    names[i] = neditions ? editions[i] : bk_config_edition_name(cfg, i);
    const bk_edition_conf *ed = bk_config_edition_conf(cfg, names[i]);
    const char *source = ed ? ed->page_source : "";
    tpl_value v;
    if (source[0] && !tpl_map_get_str(pages_of, source, strlen(source), &v)) {
      tpl_map_set_str(a, pages_of, source, tpl_int((int64_t)npages));
      pages_list[npages++] = bk_print_pages_new(a, source);
    }
  }
  for (size_t i = 0; i < todo; i++) {
    const char *name = names[i];
    const bk_edition_conf *ed = bk_config_edition_conf(cfg, name);
    const char *format = ed ? ed->format : "";
    if (!format[0] || done[i])
      continue;
    done[i] = true;
    if (!format_supported(format)) {
      bk_pos pos = format_pos(cfg, name);
      oc_report(rep, OC_ERROR, pos.file, pos.line, pos.col,
                "edition '%s': the %s format is not available in this "
                "version of Octavo yet (html, html_chunked, epub and pdf are)",
                name, format);
      rc = 1;
      continue;
    }
    if (!strcmp(format, "mobi")) {
      bk_pos pos = format_pos(cfg, name);
      oc_report(rep, OC_NOTE, pos.file, pos.line, pos.col,
                "edition '%s': mobi needed Amazon's KindleGen, which is "
                "discontinued; Kindle takes EPUB now, so Octavo publishes "
                "book.epub",
                name);
    }
    edition_pages pages = {0};
    tpl_value v;
    if (tpl_map_get_str(pages_of, name, strlen(name), &v))
      pages.out = pages_list[v.u.i];
    const char *source = ed->page_source;
    if (source[0] && tpl_map_get_str(pages_of, source, strlen(source), &v)) {
      bk_print_pages *pp = pages_list[v.u.i];
      if (!bk_print_pages_count(pp)) {
        /* not set yet: published now when the run publishes it later,
           else set and thrown away */
        edition_pages src = {pp, NULL, true};
        for (size_t k = i + 1; k < todo && src.only; k++)
          if (!strcmp(names[k], source) && !done[k]) {
            src.only = false;
            done[k] = true;
          }
        if (publish_edition(cfg, book_dir, source, opt, rep, st, src) != 0) {
          rc = 1;
          if (opt->verbosity >= 0)
            fprintf(stderr,
                    "publish: edition '%s' was not published: its "
                    "page_source '%s' could not be set\n",
                    name, source);
          continue;
        }
      }
      pages.in = pp;
    }
    if (publish_edition(cfg, book_dir, name, opt, rep, st, pages) != 0)
      rc = 1;
  }
  if (opt->verbosity >= 0 && (st->warnings || st->errors))
    fprintf(stderr, "publish: %u error%s, %u warning%s\n", st->errors,
            st->errors == 1 ? "" : "s", st->warnings,
            st->warnings == 1 ? "" : "s");
out:
  oc_arena_free(a);
  return rc;
}

static int cmd_publish(const char *dir, char **editions, int neditions,
                       const bk_options *opt, bool list) {
  report_state st = {opt->strict, opt->verbosity, 0, 0, 0, NULL, 0, 0, NULL};
  oc_reporter rep = {print_diag, &st};
  char *book_dir = book_folder(dir);
  if (!book_dir)
    return 1;
  /* Before any thread (Landlock confines the calling thread and those it
   * starts) and before the signals are blocked (the script runner forks
   * then). */
  confine(book_dir, opt, list, false, false, &rep);
  /* Before any thread: SIGINT and SIGTERM then remove temporary folders. */
  if (!list)
    bk_guard_install();
  int rc;
  if (chdir(book_dir) != 0) {
    fprintf(stderr, "publish: error: %s: %s\n", dir, strerror(errno));
    rc = 1;
  } else {
    /* one highlighter: each grammar is read once for all the editions */
    bk_options with_hl = *opt;
    with_hl.hl = bk_hl_new(NULL, NULL);
    rc = publish_book(book_dir, editions, neditions, &with_hl, &rep, &st,
                      list);
    bk_hl_free(with_hl.hl);
  }
  bk_guard_uninstall();
  oc_shell_stop();
  free(st.seen);
  free(book_dir);
  return rc;
}

/* ---- publish serve, publish --watch ---------------------------------- */

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
      if (prefer[k] ? !strcmp(f, prefer[k]) : format_supported(f))
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
  if (!ed || !format_supported(f)) {
    oc_report(rep, OC_ERROR, NULL, 0, 0,
              !ed
                  ? "the book has no edition '%s' (publish --list shows them)"
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
    if (n && snprintf(full, sizeof full, "%.*s/%s", (int)n, p, name) <
                 (int)sizeof full &&
        access(full, X_OK) == 0)
      return oc_strdup(full);
    p += n + (q ? 1 : 0);
  }
  return NULL;
}

/* Folders not watched (past the watch's limit), said once. */
static void say_unwatched(const bk_watch *w, bool *said) {
  size_t n = bk_watch_unwatched(w);
  if (!n || *said)
    return;
  *said = true;
  fprintf(stderr,
          "publish: warning: %zu folder%s of the book %s not watched "
          "(publish watches %zu at most): a change there does not publish "
          "again\n",
          n, n == 1 ? "" : "s", n == 1 ? "is" : "are", bk_watch_limit(w));
}

typedef struct loop_args {
  bool serve, open;
  unsigned port;
} loop_args;

/* One publish of the loop: the messages said anew (a warning said before
 * is said again), and the server told. */
static void report_again(report_state *st) {
  free(st->seen);
  st->seen = NULL;
  st->nseen = st->cseen = 0;
  st->errors = st->warnings = st->usage_errors = 0;
  st->capture->len = 0;
}

/* After a publish (rc its status): a served folder that leads out of
 * Output (a link a failed publish left) is an error, said unless the
 * publish said it. */
static int check_served(bk_server *server, oc_reporter *rep, int rc) {
  char why[512];
  int out = bk_serve_check(server, why, sizeof why);
  if (out == BK_SERVE_EDITION_OUT || (out && rc == 0)) {
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
                         bk_server *server, const char *edition,
                         const char *entry) {
  report_again(st);
  oc_reporter rep = {print_diag, st};
  size_t linked0, written0, linked, written;
  bk_out_memo_counts(opt->out_memo, &linked0, &written0);
  int rc = publish_book(book_dir, editions, neditions, opt, &rep, st, false);
  bk_out_memo_counts(opt->out_memo, &linked, &written);
  if (opt->verbosity > 0)
    printf("wrote %zu files, linked %zu unchanged ones from the output "
           "before\n",
           written - written0, linked - linked0);
  fflush(stdout);
  if (server && edition)
    bk_serve_set(server, edition, entry);
  if (server)
    rc = check_served(server, &rep, rc);
  if (server && rc == 0)
    bk_serve_reload(server);
  else if (server) {
    oc_sb_adds(st->capture, "publish: the edition was not published; the "
                            "last good output is still served\n");
    bk_serve_failure(server, oc_sb_cstr(st->capture));
  }
  return rc;
}

static int cmd_loop(const char *dir, char **editions, int neditions,
                    const bk_options *given, loop_args args) {
  oc_sb capture;
  oc_sb_init(&capture, NULL, 0);
  report_state st = {given->strict, given->verbosity, 0, 0, 0, NULL, 0, 0,
                     &capture};
  oc_reporter rep = {print_diag, &st};
  bk_options opt = *given;
  char *book_dir = book_folder(dir);
  if (!book_dir)
    return 1;
  int rc = 1, lfd = -1;
  char why[512];
  bk_server *server = NULL;
  bk_watch *watch = NULL;
  const char *edition = NULL;
  char *opener = args.open ? find_program("xdg-open") : NULL;
  /* The port is taken before the sandbox, which refuses every bind. */
  unsigned port = 0;
  if (args.serve) {
    bool moved;
    lfd = bk_serve_listen(args.port, &port, &moved, why, sizeof why);
    if (lfd < 0) {
      fprintf(stderr, "publish: error: %s\n", why);
      goto out;
    }
    if (moved)
      fprintf(stderr, "publish: note: port %u is taken; serving on port %u\n",
              args.port, port);
  }
  confine(book_dir, &opt, false, opener != NULL, args.serve, &rep);
  bk_guard_install();
  if (chdir(book_dir) != 0) {
    fprintf(stderr, "publish: error: %s: %s\n", dir, strerror(errno));
    goto out;
  }
  char content_dir[PATH_MAX], output_dir[PATH_MAX];
  snprintf(content_dir, sizeof content_dir, "%s/Contents", book_dir);
  snprintf(output_dir, sizeof output_dir, "%s/Output", book_dir);
  watch = bk_watch_new(content_dir);
  if (!watch || bk_watch_add_tree(watch, book_dir, output_dir) != 0 ||
      (opt.theme_dir && bk_watch_add_tree(watch, opt.theme_dir, NULL) != 0)) {
    fprintf(stderr, "publish: error: cannot watch %s: %s\n", book_dir,
            strerror(errno));
    goto out;
  }
  bool unwatched_said = opt.verbosity < 0; /* -q: errors only */
  say_unwatched(watch, &unwatched_said);
  const char *entry = NULL;
  bool readable = true;
  if (args.serve) {
    edition = serve_edition(book_dir, neditions ? editions[0] : NULL, &opt,
                            &rep, &st, &entry, &readable);
    /* an edition that is not there is a mistake of the command line; a
       config.yml that does not read is a moment of the writing: served
       with its messages until it is fixed */
    if (!edition && readable)
      goto out;
  }
  const char *named = neditions ? editions[0] : NULL;
  if (edition) {
    editions = (char **)&edition;
    neditions = 1;
  }
  /* Each publish makes and frees the same few hundred megabytes: kept by
     malloc rather than given back to the kernel, they are not faulted in
     again page by page (a third of a warm publish's time before). */
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
  opt.md_cache = bk_md_cache_new();
  opt.out_memo = bk_out_memo_new();
  opt.hl = bk_hl_new(NULL, NULL);
  int last = 1;
  if (!args.serve || edition)
    last = publish_again(book_dir, editions, neditions, &opt, &st, NULL, NULL,
                         NULL);
  if (args.serve) {
    server = bk_serve_start(lfd, book_dir, edition, entry, why, sizeof why);
    lfd = -1;
    if (!server) {
      fprintf(stderr, "publish: error: %s\n", why);
      goto out;
    }
    if (edition)
      last = check_served(server, &rep, last);
    if (last != 0)
      bk_serve_failure(server, oc_sb_cstr(&capture));
    if (opt.verbosity > 0)
      oc_report(&rep, OC_NOTE, NULL, 0, 0,
                "serving at most %u connections at once, each closed after "
                "%d s without traffic",
                bk_serve_max_connections(server), BK_SERVE_IDLE_SECONDS);
    if (edition)
      printf("serving edition '%s' at http://127.0.0.1:%u/ (Ctrl-C stops)\n",
             edition, port);
    else
      printf("serving at http://127.0.0.1:%u/ once config.yml is fixed "
             "(Ctrl-C stops)\n",
             port);
    fflush(stdout);
    if (args.open && opener) {
      char cmd[PATH_MAX + 128];
      snprintf(cmd, sizeof cmd, "'%s' 'http://127.0.0.1:%u/' >/dev/null 2>&1 &",
               opener, port);
      int status;
      if (oc_shell_run(book_dir, cmd, &status) != 0)
        fprintf(stderr, "publish: note: cannot run xdg-open: %s\n",
                strerror(errno));
    } else if (args.open) {
      printf("xdg-open is not installed: open http://127.0.0.1:%u/ in a "
             "browser\n",
             port);
    }
  } else {
    printf("watching %s for changes (Ctrl-C stops)\n", book_dir);
  }
  fflush(stdout);
  /* Ctrl-C while waiting: the loop ends and everything is let go */
  int stop[2];
  if (pipe(stop) != 0 || fcntl(stop[0], F_SETFD, FD_CLOEXEC) != 0 ||
      fcntl(stop[1], F_SETFD, FD_CLOEXEC) != 0) {
    fprintf(stderr, "publish: error: %s\n", strerror(errno));
    goto out;
  }
  for (;;) {
    bool content_only;
    bk_guard_idle(stop[1]);
    int r = bk_watch_wait(watch, 50, stop[0], &content_only);
    bk_guard_idle(-1);
    if (r == 0) {
      unsigned char sig = 0;
      if (read(stop[0], &sig, 1) == 1)
        rc = 128 + sig;
      if (opt.verbosity >= 0)
        printf("stopped\n");
      break;
    }
    if (r < 0) {
      fprintf(stderr, "publish: error: cannot watch %s: %s\n", book_dir,
              strerror(errno));
      break;
    }
    say_unwatched(watch, &unwatched_said);
    /* a content file changed: the cache finds what did; anything else
       (config.yml, a template, an image, a folder) empties it */
    if (!content_only)
      bk_md_cache_clear(opt.md_cache);
    if (opt.verbosity > 0)
      printf("changes seen%s: publishing again\n",
             content_only ? " in content files" : "");
    if (args.serve && !edition) {
      report_again(&st);
      edition = serve_edition(book_dir, named, &opt, &rep, &st, &entry,
                              &readable);
      if (!edition) {
        bk_serve_failure(server, oc_sb_cstr(&capture));
        continue;
      }
      editions = (char **)&edition;
      neditions = 1;
      printf("serving edition '%s' at http://127.0.0.1:%u/\n", edition, port);
      publish_again(book_dir, editions, neditions, &opt, &st, server, edition,
                    entry);
      continue;
    }
    publish_again(book_dir, editions, neditions, &opt, &st, server, NULL,
                  NULL);
  }
  close(stop[0]);
  close(stop[1]);
out:
  if (lfd >= 0)
    close(lfd);
  bk_serve_stop(server);
  bk_watch_free(watch);
  bk_md_cache_free(opt.md_cache);
  bk_out_memo_free(opt.out_memo);
  bk_hl_free(opt.hl);
  bk_guard_uninstall();
  oc_shell_stop();
  free((char *)edition);
  free(opener);
  free(st.seen);
  oc_sb_free(&capture);
  free(book_dir);
  return rc;
}

/* ---- publish new ---------------------------------------------------- */

static const char skeleton_config[] =
    "# The book's configuration, in Easybook's format. The user guide\n"
    "# (docs/guide) describes every key; these are the ones most books use.\n"
    "book:\n"
    "    title:            \"%s\"\n"
    "    author:           \"Change this: Author Name\"\n"
    "    edition:          \"First edition\"\n"
    "    language:         en        # %s\n"
    "    publication_date: ~         # ~ means the day you publish\n"
    "\n"
    "    # The book's parts, in reading order. Element types: "
    "acknowledgement,\n"
    "    # afterword, appendix, author, chapter, conclusion, cover,\n"
    "    # dedication, edition, epilogue, foreword, glossary, introduction,\n"
    "    # license, lof (list of figures), lot (list of tables), part,\n"
    "    # preface, prologue, title, toc (table of contents).\n"
    "    # `content` is a Markdown file in Contents/.\n"
    "    contents:\n"
    "        - { element: cover }\n"
    "        - { element: toc }\n"
    "        - { element: chapter, number: 1, content: chapter1.md }\n"
    "        - { element: chapter, number: 2, content: chapter2.md }\n"
    "\n"
    "    # Each edition is one published form of the book, written to\n"
    "    # Output/<edition>/ by `publish . <edition>`.\n"
    "    editions:\n"
    "        ebook:                     # an EPUB for e-readers\n"
    "            format:         epub\n"
    "            highlight_code: true\n"
    "            include_styles: true\n"
    "            labels:         [appendix, chapter]  # \"Chapter 1\" labels\n"
    "            theme:          clean\n"
    "            toc:\n"
    "                deep:       1      # heading levels in the contents\n"
    "                elements:   [appendix, chapter, part]\n"
    "\n"
    "        print:                     # a PDF ready for a printer\n"
    "            format:         pdf\n"
    "            highlight_code: true\n"
    "            include_styles: true\n"
    "            isbn:           ~\n"
    "            labels:         [appendix, chapter, figure, table]\n"
    "            margin:\n"
    "                top:        25mm\n"
    "                bottom:     25mm\n"
    "                inner:      30mm   # the binding side\n"
    "                outer:      20mm\n"
    "            page_size:      A4\n"
    "            theme:          clean\n"
    "            toc:\n"
    "                deep:       2\n"
    "                elements:   [appendix, chapter, part]\n"
    "            two_sided:      true   # chapters open on right-hand pages\n"
    "\n"
    "        web:                       # the whole book as one HTML page\n"
    "            format:         html\n"
    "            highlight_code: true\n"
    "            include_styles: true\n"
    "            labels:         [appendix, chapter]\n"
    "            theme:          clean\n"
    "            toc:\n"
    "                deep:       2\n"
    "                elements:   [appendix, chapter]\n"
    "\n"
    "        website:                   # a website, one page per chapter\n"
    "            extends:        web    # every option of web, then these\n"
    "            format:         html_chunked\n"
    "            chunk_level:    1      # 2: one page per section as well\n"
    "            search:         true   # a search box on every page\n";

static const char skeleton_chapter[] =
    "# The title of the %s chapter #\n"
    "\n"
    "Lorem ipsum dolor sit amet, consectetur adipisicing elit, sed do eiusmod\n"
    "tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim\n"
    "veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea\n"
    "commodo consequat.\n"
    "\n"
    "## Ut enim ad minim veniam\n"
    "\n"
    "Duis aute irure dolor in reprehenderit in voluptate velit esse cillum\n"
    "dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non\n"
    "proident, sunt in culpa qui officia deserunt mollit anim id est "
    "laborum.\n";

static int write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "wx");
  if (!f)
    return -1;
  size_t n = strlen(text);
  bool ok = fwrite(text, 1, n, f) == n;
  return fclose(f) == 0 && ok ? 0 : -1;
}

static int cmd_new(const char *title, const char *parent) {
  if (!title[0])
    return usage("the book needs a title");
  struct stat st;
  if (stat(parent, &st) != 0 || !S_ISDIR(st.st_mode)) {
    fprintf(stderr, "publish: error: %s: no such folder\n", parent);
    return 1;
  }
  oc_arena *a = oc_arena_new();
  bk_slugger *sl = bk_slugger_new();
  const char *slug = bk_slug(sl, a, title, strlen(title));
  if (!slug[0])
    slug = "book";
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s/%s", parent, slug);
  for (int k = 1; mkdir(dir, 0777) != 0; k++) {
    if (errno != EEXIST || k > 1000) {
      fprintf(stderr, "publish: error: cannot create %s: %s\n", dir,
              strerror(errno));
      bk_slugger_free(sl);
      oc_arena_free(a);
      return 1;
    }
    snprintf(dir, sizeof dir, "%s/%s-%d", parent, slug, k);
  }
  /* The title goes into a double-quoted YAML string. */
  char quoted[1024];
  size_t q = 0;
  for (const char *p = title; *p && q + 3 < sizeof quoted; p++) {
    if (*p == '"' || *p == '\\')
      quoted[q++] = '\\';
    quoted[q++] = *p;
  }
  quoted[q] = 0;
  char path[PATH_MAX + 32], text[sizeof skeleton_config + 1200];
  int rc = 0;
  snprintf(text, sizeof text, skeleton_config, quoted, bk_i18n_languages(a));
  snprintf(path, sizeof path, "%s/config.yml", dir);
  rc |= write_text(path, text);
  snprintf(path, sizeof path, "%s/Contents/images", dir);
  rc |= bk_mkdirs(path);
  snprintf(path, sizeof path, "%s/Output", dir);
  rc |= bk_mkdirs(path);
  snprintf(text, sizeof text, skeleton_chapter, "first");
  snprintf(path, sizeof path, "%s/Contents/chapter1.md", dir);
  rc |= write_text(path, text);
  snprintf(text, sizeof text, skeleton_chapter, "second");
  snprintf(path, sizeof path, "%s/Contents/chapter2.md", dir);
  rc |= write_text(path, text);
  bk_slugger_free(sl);
  oc_arena_free(a);
  if (rc) {
    fprintf(stderr, "publish: error: cannot write the book in %s: %s\n", dir,
            strerror(errno));
    return 1;
  }
  printf("Created the book in %s\nPublish it with: publish %s\n", dir, dir);
  return 0;
}

/* ---- publish customize ---------------------------------------------- */

static const char starter_css[] =
    "/* Your own styles for edition '%s' (format %s). Octavo links this file\n"
    " * after the theme's css/easybook.css, so whatever you write here wins.\n"
    " * Rename this folder to the format's name (Resources/Templates/%s/) to\n"
    " * use it for every edition of that format. The guide's theme reference\n"
    " * lists every class the theme emits. */\n"
    "\n"
    "/* The page and the text */\n"
    "body { }\n"
    "main { }\n"
    "p { }\n"
    "a { }\n"
    "\n"
    "/* Headings: an item's title is its h1; .label holds \"Chapter 1\" */\n"
    "h1 { }\n"
    "h2 { }\n"
    "h3 { }\n"
    "h1 .label, h2 .label { }\n"
    "\n"
    "/* Items: every element of contents: is a section.item.<element> */\n"
    ".item { }\n"
    ".item.chapter { }\n"
    ".item.appendix { }\n"
    ".item.part { }\n"
    ".item.cover { }\n"
    ".item.dedication { }\n"
    ".item.toc { }\n"
    "\n"
    "/* Figures and tables: .caption holds the caption, .label \"Figure 1.1\" "
    "*/\n"
    "figure.figure { }\n"
    "figure.figure img { }\n"
    "figure.table { }\n"
    "figure .caption { }\n"
    "table { }\n"
    "th, td { }\n"
    "\n"
    "/* Code: div.code.<language> > pre > code */\n"
    "div.code { }\n"
    "pre { }\n"
    "code { }\n"
    "\n"
    "/* Admonitions: A> N> W> T> E> I> Q> D> in the Markdown */\n"
    ".admonition { }\n"
    ".admonition.aside { }\n"
    ".admonition.note { }\n"
    ".admonition.warning { }\n"
    ".admonition.tip { }\n"
    ".admonition.error { }\n"
    ".admonition.information { }\n"
    ".admonition.question { }\n"
    ".admonition.discussion { }\n"
    "\n"
    "/* Footnotes */\n"
    ".footnote-ref { }\n"
    ".footnotes { }\n"
    "\n"
    "/* The table of contents: li.level-1 ... li.level-6 */\n"
    "nav.toc { }\n"
    "nav.toc li { }\n";

/* For a pdf edition: the print theme's page rules and classes, which the
 * typesetter reads (docs/theme-reference.md, "The CSS the PDF engine
 * reads"). */
static const char starter_print_css[] =
    "/* Your own styles for edition '%s' (format %s). Octavo's typesetter\n"
    " * reads this file after the print theme's style sheet, so whatever you\n"
    " * write here wins. Rename this folder to the format's name\n"
    " * (Resources/Templates/%s/) to use it for every edition of that format.\n"
    " * The theme reference lists the CSS the typesetter reads and every\n"
    " * class the print theme emits; publish with --xhtml to see them. */\n"
    "\n"
    "/* Pages: size, margins, running heads and folios */\n"
    "@page { }\n"
    "@page :left { @top-left { } @bottom-left { } }\n"
    "@page :right { @top-right { } @bottom-right { } }\n"
    "@page chapter:first { }\n"
    "\n"
    "/* The text: the typeface goes on html, so the margin boxes have it too "
    "*/\n"
    "html { }\n"
    "body { }\n"
    "p { }\n"
    "p + p { }\n"
    "\n"
    "/* Items: section.item.<element>; headings h1 > .label + .title */\n"
    ".item.chapter { }\n"
    ".item.chapter > h1 .label { }\n"
    ".item.chapter > h1 .title { }\n"
    ".item.part { }\n"
    ".item.cover { }\n"
    "h2 { }\n"
    "h3 { }\n"
    "\n"
    "/* Code, quotations, lists */\n"
    "pre { }\n"
    "code { }\n"
    "blockquote { }\n"
    "ul, ol { }\n"
    "\n"
    "/* Figures (they float to the next page when they do not fit: float:\n"
    " * none keeps them where they are) and tables, with their captions */\n"
    ".figure { }\n"
    ".table { }\n"
    ".caption { }\n"
    "table { }\n"
    "th, td { }\n"
    "\n"
    "/* Footnotes, at the foot of the page: the note, its call in the text\n"
    " * and its number (counter-reset: footnote on body numbers them through\n"
    " * the book instead of in each chapter) */\n"
    ".footnote { }\n"
    ".footnote::footnote-call { }\n"
    ".footnote::footnote-marker { }\n"
    "\n"
    "/* Cross-references: links to a heading, figure or table elsewhere */\n"
    "a.xref::after { }\n"
    "\n"
    "/* The table of contents: ul.toc-list > li.<element>.level-N > a */\n"
    ".toc-list li { }\n"
    ".toc-list a::after { }\n";

static int cmd_customize(const char *dir, const char *edition) {
  report_state st = {false, 0, 0, 0, 0, NULL, 0, 0, NULL};
  oc_reporter rep = {print_diag, &st};
  char *book_dir = book_folder(dir);
  if (!book_dir)
    return 1;
  oc_arena *a = oc_arena_new();
  int rc = 1;
  bk_config *cfg = bk_config_load(a, book_dir, NULL, &rep);
  if (!cfg)
    goto out;
  const bk_edition_conf *ed = bk_config_edition_conf(cfg, edition);
  if (!ed) {
    oc_report(&rep, OC_ERROR, NULL, 0, 0, "the book has no edition '%s'",
              edition);
    goto out;
  }
  const char *format = ed->format;
  char path[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/Resources/Templates/%s", book_dir, edition);
  if (bk_mkdirs(path) != 0) {
    fprintf(stderr, "publish: error: cannot create %s: %s\n", path,
            strerror(errno));
    goto out;
  }
  snprintf(path, sizeof path, "%s/Resources/Templates/%s/style.css", book_dir,
           edition);
  char text[sizeof starter_css + sizeof starter_print_css + 256];
  snprintf(text, sizeof text,
           strcasecmp(format, "pdf") == 0 ? starter_print_css : starter_css,
           edition, format, format);
  if (write_text(path, text) != 0) {
    fprintf(stderr, "publish: error: cannot write %s: %s\n", path,
            errno == EEXIST ? "it exists already (remove it first)"
                            : strerror(errno));
    goto out;
  }
  printf("Wrote %s\n", path);
  rc = 0;
out:
  free(st.seen);
  oc_arena_free(a);
  free(book_dir);
  return rc;
}

/* ---- main ----------------------------------------------------------- */

int octavo_publish_main(int argc, char **argv, const tpl_theme *themes,
                        size_t nthemes, const char *default_theme) {
  bk_themes_set(themes, nthemes, default_theme);
  bk_options opt = {0};
  bool list = false, list_themes = false, watch = false;
  loop_args loop = {false, false, 8000};
  bool port_given = false;
  char *theme_dir = NULL;
  const char *dir_opt = NULL;
  char **pos = oc_calloc((size_t)argc + 1, sizeof *pos);
  int npos = 0;
  int rc = 2;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage_text, stdout);
      fputs("\n", stdout);
      fputs(help_text, stdout);
      rc = 0;
      goto out;
    } else if (!strcmp(a, "--version") || !strcmp(a, "-V")) {
      printf("publish (Octavo) %s\n", OCTAVO_VERSION);
      rc = 0;
      goto out;
    } else if (!strcmp(a, "--configuration") && i + 1 < argc) {
      opt.json = argv[++i];
    } else if (!strncmp(a, "--configuration=", 16)) {
      opt.json = a + 16;
    } else if (!strcmp(a, "--dir") && i + 1 < argc) {
      dir_opt = argv[++i];
    } else if (!strcmp(a, "--strict")) {
      opt.strict = true;
    } else if (!strcmp(a, "--no-scripts")) {
      opt.no_scripts = true;
    } else if (!strcmp(a, "--no-sandbox")) {
      opt.no_sandbox = true;
    } else if (!strcmp(a, "--xhtml")) {
      opt.xhtml = true;
    } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
      opt.verbosity = -1;
    } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
      opt.verbosity = 1;
    } else if (!strcmp(a, "--list")) {
      list = true;
    } else if (!strcmp(a, "--watch")) {
      watch = true;
    } else if (!strcmp(a, "--open")) {
      loop.open = true;
    } else if ((!strcmp(a, "--port") && i + 1 < argc) ||
               !strncmp(a, "--port=", 7)) {
      const char *v = a[6] == '=' ? a + 7 : argv[++i];
      char *end;
      errno = 0;
      unsigned long p = strtoul(v, &end, 10);
      if (!*v || *end || errno || p > 65535 || v[0] == '-') {
        fprintf(stderr, "publish: --port %s: not a port (0 to 65535)\n", v);
        rc = usage(NULL);
        goto out;
      }
      loop.port = (unsigned)p;
      port_given = true;
    } else if (!strcmp(a, "--themes")) {
      list_themes = true;
    } else if (!strcmp(a, "--theme") && i + 1 < argc) {
      opt.theme_dir = argv[++i];
    } else if (!strncmp(a, "--theme=", 8)) {
      opt.theme_dir = a + 8;
    } else if (!strcmp(a, "--configuration") || !strcmp(a, "--dir") ||
               !strcmp(a, "--theme") || !strcmp(a, "--port")) {
      fprintf(stderr, "publish: option '%s' needs a value\n", a);
      rc = usage(NULL);
      goto out;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "publish: unknown option '%s'\n", a);
      rc = usage(NULL);
      goto out;
    } else {
      pos[npos++] = argv[i];
    }
  }
  if (list_themes) {
    if (npos || list || opt.theme_dir) {
      rc = usage("--themes takes nothing else");
      goto out;
    }
    bk_themes_print(stdout);
    rc = 0;
    goto out;
  }
  if (opt.theme_dir) {
    /* Canonical, as the sandbox and the loader want it; messages name
     * the files under it. */
    theme_dir = realpath(opt.theme_dir, NULL);
    struct stat st;
    if (!theme_dir || stat(theme_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
      fprintf(stderr, "publish: error: --theme %s: %s\n", opt.theme_dir,
              theme_dir ? "not a folder" : strerror(errno));
      rc = 1;
      goto out;
    }
    opt.theme_shown = opt.theme_dir;
    opt.theme_dir = theme_dir;
  }
  if (npos >= 1 && !strcmp(pos[0], "new") && !list) {
    if (npos != 2) {
      rc = usage("new takes one TITLE (quote it)");
      goto out;
    }
    rc = cmd_new(pos[1], dir_opt ? dir_opt : ".");
    goto out;
  }
  if (npos >= 1 && !strcmp(pos[0], "customize") && !list) {
    if (npos != 3) {
      rc = usage("customize takes BOOK_DIR and EDITION");
      goto out;
    }
    rc = cmd_customize(pos[1], pos[2]);
    goto out;
  }
  if (dir_opt) {
    rc = usage("--dir goes with `publish new`");
    goto out;
  }
  bool serve = npos >= 1 && !strcmp(pos[0], "serve") && !list && !watch;
  if ((loop.open || port_given) && !serve) {
    rc = usage("--port and --open go with `publish serve`");
    goto out;
  }
  if (serve) {
    if (npos < 2 || npos > 3) {
      rc = usage("serve takes BOOK_DIR and at most one EDITION");
      goto out;
    }
    loop.serve = true;
    rc = cmd_loop(pos[1], pos + 2, npos - 2, &opt, loop);
    goto out;
  }
  if (watch) {
    if (npos < 1 || list) {
      rc = usage(list ? "--watch and --list do not go together" : NULL);
      goto out;
    }
    rc = cmd_loop(pos[0], pos + 1, npos - 1, &opt, loop);
    goto out;
  }
  if (npos < 1) {
    rc = usage(NULL);
    goto out;
  }
  if (list && npos != 1) {
    rc = usage("--list takes only BOOK_DIR");
    goto out;
  }
  rc = cmd_publish(pos[0], pos + 1, npos - 1, &opt, list);
out:
  free(theme_dir);
  free(pos);
  return rc;
}
