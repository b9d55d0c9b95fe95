/* The watch of publish serve and publish --watch (sv_watch.c): folder
 * trees watched with inotify, new folders included, and a wait for the
 * next burst of changes to settle.
 *
 * Hidden names (editors' swap and lock files: ".x.swp", ".#x") and
 * backups ("x~") are not changes. inotify's watches are the user's, a
 * few thousand to a few hundred thousand for all the programs that
 * watch: at most sv_watch_limit folders are watched, and those past it
 * (or refused by the kernel) counted, not watched. Part of the leaf
 * library octavo_serve (sv_serve.h); it needs nothing but Linux's inotify.
 * Nothing here prints. */
#ifndef OCTAVO_SV_WATCH_H
#define OCTAVO_SV_WATCH_H

#include <stdbool.h>
#include <stddef.h>

typedef struct sv_watch sv_watch;

enum { SV_WATCH_MAX_FOLDERS = 4096 };

/* content_dir: canonical; a change to a .md file under it is a "content"
 * change (sv_watch_wait). NULL with errno when inotify is not there. */
sv_watch *sv_watch_new(const char *content_dir);
/* How many folders are watched at most: SV_WATCH_MAX_FOLDERS, or a
 * quarter of the kernel's max_user_watches when that is less. */
size_t sv_watch_limit(const sv_watch *w);
/* How many folders found so far are not watched (past the limit, or
 * refused by the kernel): changes in them are not seen. */
size_t sv_watch_unwatched(const sv_watch *w);
/* Watches dir (canonical) and every folder below it, but skip (a
 * canonical folder, or NULL) and what is below it. 0, or -1 with errno
 * when dir itself cannot be watched. */
int sv_watch_add_tree(sv_watch *w, const char *dir, const char *skip);
/* Waits for a change, then until settle_ms pass without another (at most
 * a second in all). 1 after changes, with *content_only true when every
 * one was to a .md file under content_dir; 0 when stop_fd (>= 0) became
 * readable first; -1 with errno on an error. */
int sv_watch_wait(sv_watch *w, int settle_ms, int stop_fd,
                  bool *content_only);
void sv_watch_free(sv_watch *w);

#endif
