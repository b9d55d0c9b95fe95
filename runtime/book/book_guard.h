/* The guard of an edition's temporary folders (book_guard.c): removed
 * when publish is stopped by SIGINT, SIGTERM or SIGHUP, and those a killed
 * run left behind (SIGKILL, a power cut) removed by the next run of the
 * same edition.
 *
 * A run holds an flock on each temporary folder it owns (the fd stays open
 * while the folder lives), so a folder named Output/.<edition>.tmp-* whose
 * lock can be taken belongs to no live process: it is stale. Two runs of
 * one edition at once never remove each other's folders.
 *
 * The signals are blocked in every thread (bk_guard_install runs before
 * any thread starts) and taken by one watcher thread with sigwait: the
 * cleanup then runs as ordinary code, not in a signal handler, where
 * walking a folder (opendir, malloc) is not allowed. */
#ifndef OCTAVO_BOOK_GUARD_H
#define OCTAVO_BOOK_GUARD_H

#include <stdbool.h>

/* The folders a run may own at once: the one being written, and the
 * previous output between the commit and its removal. */
typedef enum bk_guard_slot { BK_GUARD_TMP, BK_GUARD_OLD } bk_guard_slot;

/* Blocks SIGINT, SIGTERM and SIGHUP and starts the watcher. Call before
 * any other thread exists; bk_guard_uninstall stops it. */
void bk_guard_install(void);
void bk_guard_uninstall(void);
/* publish serve and --watch: while fd >= 0 (the run is idle, waiting for
 * changes, and holds no folder), a signal writes its number (one byte)
 * to fd and the run stops by itself, cleanly; with fd -1 (publishing)
 * it ends the run as above. A second signal ends it as above. */
void bk_guard_idle(int fd);
/* In a forked child before exec: the signals unblocked again, so that a
 * script can be interrupted as any program. */
void bk_guard_child(void);

/* Makes the temporary folder of edition `edition` in output_dir from
 * tmpl (mkdtemp's template, changed in place) and holds it in slot
 * BK_GUARD_TMP, after removing the stale ones of killed runs. Returns 0,
 * or -1 with errno set. */
int bk_guard_begin(const char *output_dir, const char *edition, char *tmpl);
/* Holds path in slot (its lock taken when it can be), or lets go of it.
 * A held folder is removed if a signal stops the run. */
void bk_guard_hold(bk_guard_slot slot, const char *path);
/* The held folder was renamed to path (its lock goes with it). */
void bk_guard_renamed(bk_guard_slot slot, const char *path);
void bk_guard_release(bk_guard_slot slot);
/* The commit's renames, as one step for the watcher: final_dir (when
 * had) to old, then tmp to final_dir; old is then held in BK_GUARD_OLD
 * and tmp let go. Returns 0, or -1 with errno set and nothing moved. */
int bk_guard_commit(const char *tmp, const char *final_dir, const char *old,
                    bool had);
/* Around a change of the output folders (writing a file, the renames of
 * a commit): once a signal is being handled, enter never returns and the
 * run ends with the signal. */
void bk_guard_enter(void);
void bk_guard_leave(void);
/* Returns at once, unless a signal is being handled: then never. Called
 * before printing a message, so that what fails while the folders are
 * removed under the run's feet is not shown. */
void bk_guard_pass(void);

#endif
