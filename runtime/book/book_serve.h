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
 * What is served: files inside the output folder only. A request's path
 * must be a safe relative path (oc_path.h: no "..", no hidden name, no
 * control character), and what it resolves to, symbolic links followed,
 * a regular file inside the folder; else 404. HTML pages get a small
 * script added at the end of their body, in the response only (the
 * published files never hold it): it listens to /__octavo/events,
 * reloads the page on `reload` and shows an overlay with the messages on
 * `failure`. Files are opened under bk_out_read_lock (book_fs.h), so a
 * request never falls between the two renames of a commit.
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

/* Serves root (the output folder, canonical; it need not exist yet) on
 * socket fd (bk_serve_listen's, taken over). `entry` is the page "/"
 * leads to, relative to root ("book.html", "book/index.html"); one not
 * ending in .html ("book.pdf", "book.epub") is shown in a page of the
 * server's own, embedding a PDF, linking anything else. Both NULL: not
 * known yet (a book whose config.yml does not read): "/" is a page of the
 * server's own, where the overlay shows why, and nothing else is served.
 * NULL with why when the server cannot start (the socket is then
 * closed). */
bk_server *bk_serve_start(int fd, const char *root, const char *entry,
                          char *why, size_t nwhy);
/* What is served from now on (as bk_serve_start's, not NULL). */
void bk_serve_set(bk_server *s, const char *root, const char *entry);
/* The edition was published again: the open pages reload. */
void bk_serve_reload(bk_server *s);
/* A publish failed: the open pages (and those opened until the next
 * success) show text, the messages, over the last good output. */
void bk_serve_failure(bk_server *s, const char *text);
void bk_serve_stop(bk_server *s);

#endif
