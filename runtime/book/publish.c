/* publish: the writer's command. Creates books, publishes their editions,
 * lists them, and writes starter style sheets. Exit codes: 0 success, 1 a
 * problem in the book, 2 bad usage. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "book_guard.h"
#include "book_sandbox.h"
#include "book_writers.h"
#include "hl_highlight.h"
#include "oc_alloc.h"
#include "oc_sb.h"
#include "oc_shell.h"
#include "octavo_publish.h"
#include "publish_cli.h"

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

/* Two warnings are the same when their hashes are: 64 bits of FNV-1a. */
static bool same_warning(const void *entry, const void *key) {
  (void)entry, (void)key;
  return true;
}

/* True when this warning was printed before (and remembers it). */
static bool seen_before(report_state *st, const char *file, unsigned line,
                        unsigned col, const char *msg) {
  uint64_t h = oc_hash_str(file ? file : "");
  h = oc_hash_bytes(h, msg, strlen(msg));
  h = oc_hash_u64(oc_hash_u64(h, line), col);
  if (oc_hidx_get(&st->seen, h, same_warning, NULL))
    return true;
  oc_hidx_put(&st->seen, h, st); /* any pointer: the hash is the key */
  return false;
}

void pub_print_diag(void *user, oc_severity sev, const char *file,
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

bool pub_format_supported(const char *f) { return format_supported(f); }

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
void pub_confine(const char *book_dir, const bk_options *opt, bool list,
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
char *pub_book_folder(const char *arg) {
  char *real = realpath(arg, NULL);
  struct stat st;
  if (!real || stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
    fprintf(stderr, "publish: error: %s: no such book folder\n", arg);
    free(real);
    return NULL;
  }
  return real;
}

/* "publish: N errors, N warnings" and then more. */
static void say_totals(const report_state *st, const char *more) {
  fprintf(stderr, "publish: %u error%s, %u warning%s%s\n", st->errors,
          st->errors == 1 ? "" : "s", st->warnings,
          st->warnings == 1 ? "" : "s", more);
}

/* Whether edition name's format is one publish publishes, said when it
 * is not; mobi is, as an EPUB, with a note. */
static bool format_published(const bk_config *cfg, oc_reporter *rep,
                             const char *name, const char *format) {
  if (!format_supported(format)) {
    bk_pos pos = format_pos(cfg, name);
    oc_report(rep, OC_ERROR, pos.file, pos.line, pos.col,
              "edition '%s': the %s format is not available in this "
              "version of Octavo yet (html, html_chunked, epub and pdf are)",
              name, format);
    return false;
  }
  if (!strcmp(format, "mobi")) {
    bk_pos pos = format_pos(cfg, name);
    oc_report(rep, OC_NOTE, pos.file, pos.line, pos.col,
              "edition '%s': mobi needed Amazon's KindleGen, which is "
              "discontinued; Kindle takes EPUB now, so Octavo publishes "
              "book.epub",
              name);
  }
  return true;
}

/* Sets the printed pages pp of edition source, which names[0] takes
 * from it (names[1..n) are the editions still to publish, done[] which of
 * them are): source is published now when it is among them, else set and
 * its output thrown away. 0, or -1 after saying why. */
static int set_pages(bk_config *cfg, const char *book_dir,
                     const bk_options *opt, oc_reporter *rep, report_state *st,
                     bk_print_pages *pp, const char **names, size_t n,
                     bool *done, const char *source) {
  edition_pages src = {pp, NULL, true};
  for (size_t k = 1; k < n && src.only; k++)
    if (!strcmp(names[k], source) && !done[k]) {
      src.only = false;
      done[k] = true;
    }
  if (publish_edition(cfg, book_dir, source, opt, rep, st, src) == 0)
    return 0;
  if (opt->verbosity >= 0)
    fprintf(stderr,
            "publish: edition '%s' was not published: its "
            "page_source '%s' could not be set\n",
            names[0], source);
  return -1;
}

/* Whether an edition named on the command line is not one publish can
 * publish (said through the reporter, which escapes what a terminal
 * would act on). */
static bool named_unknown(bk_config *cfg, oc_reporter *rep, char **editions,
                          int neditions) {
  for (int i = 0; i < neditions; i++) {
    const bk_edition_conf *ed = bk_config_edition_conf(cfg, editions[i]);
    if (!ed) {
      /* Through the reporter, which escapes what a terminal would act on. */
      oc_report(rep, OC_ERROR, NULL, 0, 0,
                "the book has no edition '%s' (publish --list shows them)",
                editions[i]);
      return true;
    }
    if (!ed->format[0]) {
      oc_report(rep, OC_ERROR, NULL, 0, 0,
                "edition '%s' has no format; it can only be extended by "
                "other editions",
                editions[i]);
      return true;
    }
  }
  return false;
}

/* Reads config.yml and publishes the editions named (all with a format
 * when none is), or lists them; the exit status. Run in the book's
 * folder, confined. */
int pub_publish_book(const char *book_dir, char **editions, int neditions,
                     const bk_options *opt, oc_reporter *rep, report_state *st,
                     bool list) {
  int rc = 0;
  oc_arena *a = oc_arena_new();
  bk_config *cfg = bk_config_load(a, book_dir, opt->json, rep);
  if (!cfg || st->errors) {
    /* A --configuration that does not parse is a bad command line. */
    rc = st->usage_errors ? 2 : 1;
    if (opt->verbosity >= 0)
      say_totals(st, "; nothing published");
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
  if (named_unknown(cfg, rep, editions, neditions)) {
    rc = 1;
    goto out;
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
    if (!format_published(cfg, rep, name, format)) {
      rc = 1;
      continue;
    }
    edition_pages pages = {0};
    tpl_value v;
    if (tpl_map_get_str(pages_of, name, strlen(name), &v))
      pages.out = pages_list[v.u.i];
    const char *source = ed->page_source;
    if (source[0] && tpl_map_get_str(pages_of, source, strlen(source), &v)) {
      bk_print_pages *pp = pages_list[v.u.i];
      if (!bk_print_pages_count(pp) &&
          set_pages(cfg, book_dir, opt, rep, st, pp, names + i, todo - i,
                    done + i, source) != 0) {
        rc = 1;
        continue;
      }
      pages.in = pp;
    }
    if (publish_edition(cfg, book_dir, name, opt, rep, st, pages) != 0)
      rc = 1;
  }
  if (opt->verbosity >= 0 && (st->warnings || st->errors))
    say_totals(st, "");
out:
  oc_arena_free(a);
  return rc;
}

static int cmd_publish(const char *dir, char **editions, int neditions,
                       const bk_options *opt, bool list) {
  report_state st = {opt->strict, opt->verbosity, 0, 0, 0, {0}, NULL};
  oc_reporter rep = {pub_print_diag, &st};
  char *book_dir = pub_book_folder(dir);
  if (!book_dir)
    return 1;
  /* Before any thread (Landlock confines the calling thread and those it
   * starts) and before the signals are blocked (the script runner forks
   * then). */
  pub_confine(book_dir, opt, list, false, false, &rep);
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
    with_hl.hl = hl_new(NULL, NULL);
    rc = pub_publish_book(book_dir, editions, neditions, &with_hl, &rep, &st,
                          list);
    hl_free(with_hl.hl);
  }
  bk_guard_uninstall();
  oc_shell_stop();
  oc_hidx_free(&st.seen);
  free(book_dir);
  return rc;
}

/* ---- main ----------------------------------------------------------- */

/* What the command line asks. */
typedef struct cli {
  bk_options opt;
  bool list, list_themes, watch, port_given;
  loop_args loop;
  const char *dir_opt;
  char **pos; /* the arguments that are not options */
  int npos;
} cli;

/* Reads the options into c: -1, or the exit status when the command is
 * done (--help, --version) or wrong. */
static int parse_args(cli *c, int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage_text, stdout);
      fputs("\n", stdout);
      fputs(help_text, stdout);
      return 0;
    } else if (!strcmp(a, "--version") || !strcmp(a, "-V")) {
      printf("publish (Octavo) %s\n", OCTAVO_VERSION);
      return 0;
    } else if (!strcmp(a, "--configuration") && i + 1 < argc) {
      c->opt.json = argv[++i];
    } else if (!strncmp(a, "--configuration=", 16)) {
      c->opt.json = a + 16;
    } else if (!strcmp(a, "--dir") && i + 1 < argc) {
      c->dir_opt = argv[++i];
    } else if (!strcmp(a, "--strict")) {
      c->opt.strict = true;
    } else if (!strcmp(a, "--no-scripts")) {
      c->opt.no_scripts = true;
    } else if (!strcmp(a, "--no-sandbox")) {
      c->opt.no_sandbox = true;
    } else if (!strcmp(a, "--xhtml")) {
      c->opt.xhtml = true;
    } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
      c->opt.verbosity = -1;
    } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
      c->opt.verbosity = 1;
    } else if (!strcmp(a, "--list")) {
      c->list = true;
    } else if (!strcmp(a, "--watch")) {
      c->watch = true;
    } else if (!strcmp(a, "--open")) {
      c->loop.open = true;
    } else if ((!strcmp(a, "--port") && i + 1 < argc) ||
               !strncmp(a, "--port=", 7)) {
      const char *v = a[6] == '=' ? a + 7 : argv[++i];
      char *end;
      errno = 0;
      unsigned long p = strtoul(v, &end, 10);
      if (!*v || *end || errno || p > 65535 || v[0] == '-') {
        fprintf(stderr, "publish: --port %s: not a port (0 to 65535)\n", v);
        return usage(NULL);
      }
      c->loop.port = (unsigned)p;
      c->port_given = true;
    } else if (!strcmp(a, "--themes")) {
      c->list_themes = true;
    } else if (!strcmp(a, "--theme") && i + 1 < argc) {
      c->opt.theme_dir = argv[++i];
    } else if (!strncmp(a, "--theme=", 8)) {
      c->opt.theme_dir = a + 8;
    } else if (!strcmp(a, "--configuration") || !strcmp(a, "--dir") ||
               !strcmp(a, "--theme") || !strcmp(a, "--port")) {
      fprintf(stderr, "publish: option '%s' needs a value\n", a);
      return usage(NULL);
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "publish: unknown option '%s'\n", a);
      return usage(NULL);
    } else {
      c->pos[c->npos++] = argv[i];
    }
  }
  return -1;
}

/* Runs the command c asks for, once its options are read: its exit
 * status. */
static int run(cli *c) {
  if (c->npos >= 1 && !strcmp(c->pos[0], "new") && !c->list) {
    if (c->npos != 2)
      return usage("new takes one TITLE (quote it)");
    return c->pos[1][0] ? pub_cmd_new(c->pos[1], c->dir_opt ? c->dir_opt : ".")
                        : usage("the book needs a title");
  }
  if (c->npos >= 1 && !strcmp(c->pos[0], "customize") && !c->list) {
    if (c->npos != 3)
      return usage("customize takes BOOK_DIR and EDITION");
    return pub_cmd_customize(c->pos[1], c->pos[2]);
  }
  if (c->dir_opt)
    return usage("--dir goes with `publish new`");
  bool serve =
      c->npos >= 1 && !strcmp(c->pos[0], "serve") && !c->list && !c->watch;
  if ((c->loop.open || c->port_given) && !serve)
    return usage("--port and --open go with `publish serve`");
  if (serve) {
    if (c->npos < 2 || c->npos > 3)
      return usage("serve takes BOOK_DIR and at most one EDITION");
    c->loop.serve = true;
    return pub_cmd_loop(c->pos[1], c->pos + 2, c->npos - 2, &c->opt, c->loop);
  }
  if (c->watch) {
    if (c->npos < 1 || c->list)
      return usage(c->list ? "--watch and --list do not go together" : NULL);
    return pub_cmd_loop(c->pos[0], c->pos + 1, c->npos - 1, &c->opt, c->loop);
  }
  if (c->npos < 1)
    return usage(NULL);
  if (c->list && c->npos != 1)
    return usage("--list takes only BOOK_DIR");
  return cmd_publish(c->pos[0], c->pos + 1, c->npos - 1, &c->opt, c->list);
}

int octavo_publish_main(int argc, char **argv, const tpl_theme *themes,
                        size_t nthemes, const char *default_theme) {
  bk_themes_set(themes, nthemes, default_theme);
  cli c = {.loop = {false, false, 8000}};
  c.pos = oc_calloc((size_t)argc + 1, sizeof *c.pos);
  char *theme_dir = NULL;
  int rc = parse_args(&c, argc, argv);
  if (rc >= 0)
    goto out;
  rc = 2;
  if (c.list_themes) {
    if (c.npos || c.list || c.opt.theme_dir) {
      rc = usage("--themes takes nothing else");
      goto out;
    }
    bk_themes_print(stdout);
    rc = 0;
    goto out;
  }
  if (c.opt.theme_dir) {
    /* Canonical, as the sandbox and the loader want it; messages name
     * the files under it. */
    theme_dir = realpath(c.opt.theme_dir, NULL);
    struct stat st;
    if (!theme_dir || stat(theme_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
      fprintf(stderr, "publish: error: --theme %s: %s\n", c.opt.theme_dir,
              theme_dir ? "not a folder" : strerror(errno));
      rc = 1;
      goto out;
    }
    c.opt.theme_shown = c.opt.theme_dir;
    c.opt.theme_dir = theme_dir;
  }
  rc = run(&c);
out:
  free(theme_dir);
  free(c.pos);
  return rc;
}
