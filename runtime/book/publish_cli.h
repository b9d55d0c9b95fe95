/* What the publish command's three files share: publish.c (main, the
 * reporter that prints, publishing a book), publish_loop.c (publish serve
 * and publish --watch) and publish_new.c (publish new and customize).
 * Private to them: not a library's API, and only they print. */
#ifndef OCTAVO_PUBLISH_CLI_H
#define OCTAVO_PUBLISH_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "book.h"
#include "oc_diag.h"
#include "oc_hash.h"
#include "oc_sb.h"

typedef struct report_state {
  bool strict;
  int verbosity;
  unsigned errors, warnings;
  unsigned usage_errors; /* errors in the --configuration argument */
  /* Warnings already printed: each edition reads the same contents, and a
   * broken link is one problem however many editions are published. */
  oc_hidx seen;   /* by the hash of file, line, column and text */
  oc_sb *capture; /* publish serve: the messages, for the page's overlay */
} report_state;

/* The reporter's function, user a report_state: prints a message in gcc's
 * form (a warning said before is not said again), counts it, and keeps
 * it in capture when there is one. */
void pub_print_diag(void *user, oc_severity sev, const char *file,
                    unsigned line, unsigned col, const char *msg);
/* The book folder made absolute and canonical (heap), NULL after saying
 * why. */
char *pub_book_folder(const char *arg);
/* Confines the process before the book is read (book_sandbox.h): runner,
 * the shell runner is wanted; serving, a socket was taken before. */
void pub_confine(const char *book_dir, const bk_options *opt, bool list,
                 bool runner, bool serving, const oc_reporter *rep);
/* Whether publish publishes format f. */
bool pub_format_supported(const char *f);
/* Reads config.yml and publishes the editions named (all with a format
 * when none is), or lists them; the exit status. Run in the book's
 * folder, confined. */
int pub_publish_book(const char *book_dir, char **editions, int neditions,
                     const bk_options *opt, oc_reporter *rep, report_state *st,
                     bool list);

/* publish serve (serve true) and publish --watch (publish_loop.c). */
typedef struct loop_args {
  bool serve, open;
  unsigned port;
} loop_args;
int pub_cmd_loop(const char *dir, char **editions, int neditions,
                 const bk_options *given, loop_args args);

/* publish new TITLE (a title not empty) and publish customize
 * (publish_new.c). */
int pub_cmd_new(const char *title, const char *parent);
int pub_cmd_customize(const char *dir, const char *edition);

#endif
