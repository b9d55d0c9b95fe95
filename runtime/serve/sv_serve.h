/* publish serve's web server (sv_serve.c): an edition's output folder
 * served on 127.0.0.1 through libmicrohttpd, with a channel of
 * server-sent events that tells the open pages to reload, or to show the
 * messages of a publish that failed.
 *
 * The listening socket is made first (sv_serve_listen, before the
 * process confines itself: Landlock then refuses every bind and connect),
 * and the server's threads started later (sv_serve_start, after the
 * confinement, which they inherit).
 *
 * What is served: files inside BOOK/Output/<edition> only, resolved at
 * each request from a descriptor of the book's folder held since the
 * start: Output beneath the book, <edition> beneath Output, the file
 * beneath <edition> (openat2's RESOLVE_BENEATH; on a kernel without it,
 * component by component with no symbolic link at all), so a link that
 * leads out, at any of the three levels and whenever it appeared, is
 * never followed. A request's path must also be a safe relative path
 * (oc_path.h: no "..", no hidden name, no control character) and lead
 * to a regular file; else 404. HTML pages get a small
 * script added at the end of their body, in the response only (the
 * published files never hold it): it listens to /__octavo/events,
 * reloads the page on `reload` and shows an overlay with the messages on
 * `failure`. Files are opened under the output's lock, which the caller
 * hands over (sv_lock: publish's bk_out_read_lock, book_fs.h), so a
 * request never falls between the two renames of a commit.
 *
 * Under load: one thread polls every connection (epoll), with at most
 * SV_SERVE_MAX_CONNECTIONS of them (fewer when the process's file limit
 * cannot be raised to two descriptors each), each closed after
 * SV_SERVE_IDLE_SECONDS without traffic; files are sent from their
 * descriptors, an HTML page streamed with its script, so a slow reader
 * holds a descriptor and a few tens of KiB, never a copy of the page.
 * An events channel with nothing to say is suspended, not waited on by a
 * thread: one more thread wakes them every 15 s for a comment (that is
 * how a closed page's channel is noticed).
 *
 * A leaf library (octavo_serve, with sv_watch.h): it links octavo_base,
 * libmicrohttpd and the threads library only. Nothing here prints:
 * errors come back as sentences in why[]. */
#ifndef OCTAVO_SV_SERVE_H
#define OCTAVO_SV_SERVE_H

#include <stdbool.h>
#include <stddef.h>

/* A socket bound to 127.0.0.1:port and listening (port 0: one the kernel
 * picks). When port is taken, another is picked and *moved set. Returns
 * the socket and its port in *bound, or -1 with why. */
int sv_serve_listen(unsigned port, unsigned *bound, bool *moved, char *why,
                    size_t nwhy);

typedef struct sv_server sv_server;

/* The lock of the served output: read_lock before a file or folder is
 * looked for beneath BOOK/Output, read_unlock after it is opened (or not),
 * both given user; a publish holds it for writing while it renames an
 * edition's folder. Called from the server's threads. A NULL function
 * does nothing. */
typedef struct sv_lock {
  void (*read_lock)(void *user);
  void (*read_unlock)(void *user);
  void *user;
} sv_lock;

enum { SV_SERVE_MAX_CONNECTIONS = 2048, SV_SERVE_IDLE_SECONDS = 30 };

/* Serves BOOK/Output/<edition> (book_dir canonical; the folder need not
 * exist yet) on socket fd (sv_serve_listen's, taken over). `entry` is
 * the page "/" leads to, relative to that folder ("book.html",
 * "book/index.html"); one not ending in .html ("book.pdf", "book.epub")
 * is shown in a page of the server's own, embedding a PDF, linking
 * anything else. edition and entry NULL: not known yet (a book whose
 * config.yml does not read): "/" is a page of the server's own, where the
 * overlay shows why, and nothing else is served. Raises the soft limit
 * of open files (RLIMIT_NOFILE) to what the connections need, as far as
 * the hard limit lets it. lock (copied; NULL: none) guards every open
 * beneath Output. NULL with why when the server cannot start (the socket
 * is then closed). */
sv_server *sv_serve_start(int fd, const char *book_dir, const char *edition,
                          const char *entry, const sv_lock *lock, char *why,
                          size_t nwhy);
/* What is served from now on (as sv_serve_start's, not NULL). */
void sv_serve_set(sv_server *s, const char *edition, const char *entry);
/* Whether the served folder resolves inside BOOK/Output now: 0 when it
 * does (also when it is not there yet, or nothing is served); else what
 * leads out, with why, the sentence publish says of it:
 * SV_SERVE_OUTPUT_OUT ("Output is a symbolic link that leads out of the
 * book's folder", which a publish has said already) or
 * SV_SERVE_EDITION_OUT (Output/<edition> is such a link, which a
 * publish that fails leaves in place). Without openat2 a link there is
 * not followed at all, and why says so. Nothing is served from either. */
enum { SV_SERVE_OUTPUT_OUT = 1, SV_SERVE_EDITION_OUT };
int sv_serve_check(sv_server *s, char *why, size_t nwhy);
/* How many connections are served at most (the limit of
 * open files considered). */
unsigned sv_serve_max_connections(const sv_server *s);
/* The edition was published again: the open pages reload. */
void sv_serve_reload(sv_server *s);
/* A publish failed: the open pages (and those opened until the next
 * success) show text, the messages, over the last good output. */
void sv_serve_failure(sv_server *s, const char *text);
void sv_serve_stop(sv_server *s);

#endif
