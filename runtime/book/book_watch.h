/* The watch of publish serve and publish --watch (book_watch.c): folder
 * trees watched with inotify, new folders included, and a wait for the
 * next burst of changes to settle.
 *
 * Hidden names (editors' swap and lock files: ".x.swp", ".#x") and
 * backups ("x~") are not changes. Nothing here prints. */
#ifndef OCTAVO_BOOK_WATCH_H
#define OCTAVO_BOOK_WATCH_H

#include <stdbool.h>

typedef struct bk_watch bk_watch;

/* content_dir: canonical; a change to a .md file under it is a "content"
 * change (bk_watch_wait). NULL with errno when inotify is not there. */
bk_watch *bk_watch_new(const char *content_dir);
/* Watches dir (canonical) and every folder below it, but skip (a
 * canonical folder, or NULL) and what is below it. 0, or -1 with errno
 * when dir itself cannot be watched. */
int bk_watch_add_tree(bk_watch *w, const char *dir, const char *skip);
/* Waits for a change, then until settle_ms pass without another (at most
 * a second in all). 1 after changes, with *content_only true when every
 * one was to a .md file under content_dir; 0 when stop_fd (>= 0) became
 * readable first; -1 with errno on an error. */
int bk_watch_wait(bk_watch *w, int settle_ms, int stop_fd,
                  bool *content_only);
void bk_watch_free(bk_watch *w);

#endif
