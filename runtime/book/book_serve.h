/* publish serve's web server (book_serve.c): an edition's output folder
 * served on 127.0.0.1 through libmicrohttpd, with a channel of
 * server-sent events that tells the open pages to reload, or to show the
 * messages of a publish that failed.
 *
 * The listening socket is made first (bk_serve_listen, before the
 * process confines itself: Landlock then refuses every bind and connect),
 * and the server's threads started later (bk_serve_start, after the
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
 * `failure`. Files are opened under bk_out_read_lock (book_fs.h), so a
 * request never falls between the two renames of a commit.
 *
 * Under load: one thread polls every connection (epoll), with at most
 * BK_SERVE_MAX_CONNECTIONS of them (fewer when the process's file limit
 * cannot be raised to two descriptors each), each closed after
 * BK_SERVE_IDLE_SECONDS without traffic; files are sent from their
 * descriptors, an HTML page streamed with its script, so a slow reader
 * holds a descriptor and a few tens of KiB, never a copy of the page.
 * An events channel with nothing to say is suspended, not waited on by a
 * thread: one more thread wakes them every 15 s for a comment (that is
 * how a closed page's channel is noticed).
 *
 * Nothing here prints: errors come back as sentences in why[]. */
#ifndef OCTAVO_BOOK_SERVE_H
#define OCTAVO_BOOK_SERVE_H

#include <stdbool.h>
#include <stddef.h>

/* A socket bound to 127.0.0.1:port and listening (port 0: one the kernel
 * picks). When port is taken, another is picked and *moved set. Returns
 * the socket and its port in *bound, or -1 with why. */
int bk_serve_listen(unsigned port, unsigned *bound, bool *moved, char *why,
                    size_t nwhy);

typedef struct bk_server bk_server;

enum { BK_SERVE_MAX_CONNECTIONS = 2048, BK_SERVE_IDLE_SECONDS = 30 };

/* Serves BOOK/Output/<edition> (book_dir canonical; the folder need not
 * exist yet) on socket fd (bk_serve_listen's, taken over). `entry` is
 * the page "/" leads to, relative to that folder ("book.html",
 * "book/index.html"); one not ending in .html ("book.pdf", "book.epub")
 * is shown in a page of the server's own, embedding a PDF, linking
 * anything else. edition and entry NULL: not known yet (a book whose
 * config.yml does not read): "/" is a page of the server's own, where the
 * overlay shows why, and nothing else is served. Raises the soft limit
 * of open files (RLIMIT_NOFILE) to what the connections need, as far as
 * the hard limit lets it. NULL with why when the server cannot start
 * (the socket is then closed). */
bk_server *bk_serve_start(int fd, const char *book_dir, const char *edition,
                          const char *entry, char *why, size_t nwhy);
/* What is served from now on (as bk_serve_start's, not NULL). */
void bk_serve_set(bk_server *s, const char *edition, const char *entry);
/* Whether the served folder resolves inside BOOK/Output now: 0 when it
 * does (also when it is not there yet, or nothing is served); else what
 * leads out, with why, the sentence publish says of it:
 * BK_SERVE_OUTPUT_OUT ("Output is a symbolic link that leads out of the
 * book's folder", which a publish has said already) or
 * BK_SERVE_EDITION_OUT (Output/<edition> is such a link, which a
 * publish that fails leaves in place). Without openat2 a link there is
 * not followed at all, and why says so. Nothing is served from either. */
enum { BK_SERVE_OUTPUT_OUT = 1, BK_SERVE_EDITION_OUT };
int bk_serve_check(bk_server *s, char *why, size_t nwhy);
/* How many connections are served at most (the limit of
 * open files considered). */
unsigned bk_serve_max_connections(const bk_server *s);
/* The edition was published again: the open pages reload. */
void bk_serve_reload(bk_server *s);
/* A publish failed: the open pages (and those opened until the next
 * success) show text, the messages, over the last good output. */
void bk_serve_failure(bk_server *s, const char *text);
void bk_serve_stop(bk_server *s);

#endif
