/* publish serve's web server (sv_serve.h), on libmicrohttpd's own
 * polling thread (epoll): connections cost a descriptor and a small
 * buffer each, not a thread; an events channel with nothing to say is
 * suspended until a publish (or the heartbeat) resumes it. */
#define _GNU_SOURCE /* O_PATH */
#include "sv_serve.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#if defined(SYS_openat2) && __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define HAVE_OPENAT2 1 /* else (headers before Linux 5.6): the walk alone */
#endif

#include "oc_alloc.h"
#include "oc_path.h"
#include "oc_sb.h"

#define EVENTS_PATH "/__octavo/events"

/* Descriptors kept aside from the connections' (the inotify watch,
 * the files a publish has open, libraries). */
#define SPARE_FDS 128

/* No '<' or '&': the pages may be XHTML. %lu: the generation of the
 * output the page was served from, so that a publish that ends between
 * the page's request and its connection to the channel still reloads it. */
static const char script_format[] =
    "<script>/* publish serve: reloads this page when the book is published "
    "again */\n"
    "(function(){var es=new EventSource('" EVENTS_PATH "?g=%lu');"
    "var box=null;\n"
    "function show(t){if(!box){box=document.createElement('div');"
    "box.id='octavo-serve-overlay';box.setAttribute('style','position:fixed;"
    "left:0;right:0;bottom:0;max-height:60%%;overflow:auto;margin:0;"
    "padding:1em;background:#3b0d0d;color:#ffe4e4;font:13px/1.4 monospace;"
    "white-space:pre-wrap;z-index:2147483647;border-top:3px solid #e33');"
    "document.body.appendChild(box);}box.textContent=t;}\n"
    "es.addEventListener('reload',function(){location.reload();});\n"
    "es.addEventListener('failure',function(e){show(e.data);});\n"
    "})();</script>\n";

/* A request: its connection, and the generation read before its file was
 * opened. */
typedef struct req {
  struct MHD_Connection *c;
  unsigned long gen;
} req;

typedef struct channel channel;

struct sv_server {
  struct MHD_Daemon *d;
  unsigned port;
  unsigned max_connections;
  int book_fd; /* the book's folder, O_PATH: what is served is beneath */
  char *edition;
  char *entry;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  unsigned long gen;  /* one more at each publish, good or not */
  unsigned long beat; /* one more every 15 s: the channels' comment */
  bool failed;        /* the last publish failed: text is its messages */
  char *text;
  bool quit;
  channel *waiting; /* the suspended channels, a list through next/prev */
  pthread_t heart;
  bool heart_started;
  sv_lock lock; /* the output's, around every open beneath the book */
};

static void say(char *why, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void say(char *why, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, n, fmt, ap);
  va_end(ap);
}

/* ---- the socket ------------------------------------------------------ */

static int bind_loopback(unsigned port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return -1;
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in sa;
  memset(&sa, 0, sizeof sa);
  sa.sin_family = AF_INET;
  sa.sin_port = htons((uint16_t)port);
  sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 ||
      listen(fd, 512) != 0) {
    int err = errno;
    close(fd);
    errno = err;
    return -1;
  }
  return fd;
}

int sv_serve_listen(unsigned port, unsigned *bound, bool *moved, char *why,
                    size_t nwhy) {
  *moved = false;
  if (port > 65535) {
    say(why, nwhy, "port %u is not a TCP port (0 to 65535)", port);
    return -1;
  }
  int fd = bind_loopback(port);
  if (fd < 0 && port && (errno == EADDRINUSE || errno == EACCES)) {
    fd = bind_loopback(0);
    *moved = fd >= 0;
  }
  if (fd < 0) {
    say(why, nwhy, "cannot listen on 127.0.0.1:%u: %s", port, strerror(errno));
    return -1;
  }
  struct sockaddr_in sa;
  socklen_t len = sizeof sa;
  if (getsockname(fd, (struct sockaddr *)&sa, &len) != 0) {
    say(why, nwhy, "cannot read the port listened on: %s", strerror(errno));
    close(fd);
    return -1;
  }
  *bound = ntohs(sa.sin_port);
  return fd;
}

/* ---- responses ------------------------------------------------------- */

/* Queues r (NULL: none could be made) with header name: value, never
 * to be cached (a page must be fetched again when it reloads). */
static enum MHD_Result queue(struct MHD_Connection *c, unsigned status,
                             struct MHD_Response *r, const char *name,
                             const char *value) {
  if (!r)
    return MHD_NO;
  MHD_add_response_header(r, name, value);
  MHD_add_response_header(r, "Cache-Control", "no-store");
  enum MHD_Result ok = MHD_queue_response(c, status, r);
  MHD_destroy_response(r);
  return ok;
}

static enum MHD_Result send_buffer(struct MHD_Connection *c, unsigned status,
                                   const char *type, const char *data,
                                   size_t len) {
  return queue(c, status,
               MHD_create_response_from_buffer(len, (void *)data,
                                               MHD_RESPMEM_MUST_COPY),
               "Content-Type", type);
}

/* html with the script before its last </body> (at its end when none). */
static enum MHD_Result send_page(const req *r, unsigned status,
                                 const char *type, const char *html,
                                 size_t len) {
  struct MHD_Connection *c = r->c;
  size_t at = len;
  for (size_t i = len; i >= 7; i--)
    if (!strncasecmp(html + i - 7, "</body>", 7)) {
      at = i - 7;
      break;
    }
  oc_sb sb;
  oc_sb_init(&sb, NULL, 0);
  oc_sb_add(&sb, html, at);
  oc_sb_printf(&sb, script_format, r->gen);
  oc_sb_add(&sb, html + at, len - at);
  size_t n = sb.len;
  /* handed over, not copied: a one-page book is megabytes */
  return queue(c, status,
               MHD_create_response_from_buffer(n, oc_sb_take(&sb),
                                               MHD_RESPMEM_MUST_FREE),
               "Content-Type", type);
}

static enum MHD_Result not_found(const req *r, const char *url) {
  oc_sb sb;
  oc_sb_init(&sb, NULL, 0);
  oc_sb_adds(&sb, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
                  "<title>Not found</title></head><body><h1>Not found</h1>"
                  "<p>Nothing is published at <code>");
  for (const char *p = url; *p; p++) {
    if (*p == '<')
      oc_sb_adds(&sb, "&lt;");
    else if (*p == '&')
      oc_sb_adds(&sb, "&amp;");
    else if ((unsigned char)*p >= 0x20)
      oc_sb_addc(&sb, *p);
  }
  oc_sb_adds(&sb, "</code> in this edition. <a href=\"/\">The book</a></p>"
                  "</body></html>\n");
  enum MHD_Result ok =
      send_page(r, MHD_HTTP_NOT_FOUND, "text/html; charset=utf-8", sb.p,
                sb.len);
  oc_sb_free(&sb);
  return ok;
}

static enum MHD_Result redirect(struct MHD_Connection *c, const char *to) {
  return queue(c, MHD_HTTP_FOUND,
               MHD_create_response_from_buffer(0, (void *)"",
                                               MHD_RESPMEM_PERSISTENT),
               "Location", to);
}

static bool ends_with(const char *s, const char *suf) {
  size_t n = strlen(s), k = strlen(suf);
  return n >= k && !strcasecmp(s + n - k, suf);
}

static const struct {
  const char *ext, *type;
} types[] = {
    {".html", "text/html; charset=utf-8"},
    {".htm", "text/html; charset=utf-8"},
    {".xhtml", "application/xhtml+xml; charset=utf-8"},
    {".css", "text/css; charset=utf-8"},
    {".js", "text/javascript; charset=utf-8"},
    {".json", "application/json"},
    {".txt", "text/plain; charset=utf-8"},
    {".xml", "application/xml"},
    {".svg", "image/svg+xml"},
    {".png", "image/png"},
    {".jpg", "image/jpeg"},
    {".jpeg", "image/jpeg"},
    {".gif", "image/gif"},
    {".webp", "image/webp"},
    {".avif", "image/avif"},
    {".ico", "image/x-icon"},
    {".woff", "font/woff"},
    {".woff2", "font/woff2"},
    {".ttf", "font/ttf"},
    {".otf", "font/otf"},
    {".pdf", "application/pdf"},
    {".epub", "application/epub+zip"},
};

static const char *type_of(const char *path) {
  for (size_t i = 0; i < sizeof types / sizeof *types; i++)
    if (ends_with(path, types[i].ext))
      return types[i].type;
  return "application/octet-stream";
}

static bool is_html(const char *type) {
  return !strncmp(type, "text/html", 9) ||
         !strncmp(type, "application/xhtml+xml", 21);
}

/* The page "/" shows when the entry is no web page. */
static enum MHD_Result wrapper(const char *entry, const req *r) {
  oc_sb sb;
  oc_sb_init(&sb, NULL, 0);
  const char *name = !entry ? "publish serve" : strrchr(entry, '/');
  name = !entry ? name : name ? name + 1 : entry;
  oc_sb_printf(&sb,
               "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
               "<title>%s</title><style>html,body{margin:0;height:100%%}"
               "embed{display:block;width:100%%;height:100%%;border:0}"
               "p{font-family:sans-serif;margin:2em}</style></head><body>",
               name);
  if (!entry)
    oc_sb_adds(&sb, "<p>The book could not be read yet: see the messages "
                    "below, or in the terminal.</p>");
  else if (ends_with(entry, ".pdf"))
    oc_sb_printf(&sb, "<embed src=\"/%s\" type=\"application/pdf\">", entry);
  else
    oc_sb_printf(&sb, "<p><a href=\"/%s\">%s</a></p>", entry, name);
  oc_sb_adds(&sb, "</body></html>\n");
  enum MHD_Result ok =
      send_page(r, MHD_HTTP_OK, "text/html; charset=utf-8", sb.p, sb.len);
  oc_sb_free(&sb);
  return ok;
}

/* ---- what is served: beneath the book ------------------------------ */

/* Opens rel beneath dir: no absolute path, no ".." out, no symbolic link
 * that leads out of dir (openat2's RESOLVE_BENEATH). Where the kernel has
 * no openat2 (before 5.6, or a filter that says ENOSYS), component by
 * component with O_NOFOLLOW: no symbolic link at all. -1 with errno
 * (EXDEV or ELOOP for a way out). */
static int open_beneath(int dir, const char *rel, int flags) {
#ifdef HAVE_OPENAT2
  struct open_how how;
  memset(&how, 0, sizeof how);
  how.flags = (uint64_t)(flags | O_CLOEXEC);
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  long fd = syscall(SYS_openat2, dir, rel, &how, sizeof how);
  if (fd >= 0 || errno != ENOSYS)
    return (int)fd;
#endif
  char part[NAME_MAX + 1];
  int at = dir;
  for (const char *p = rel;;) {
    const char *slash = strchr(p, '/');
    size_t n = slash ? (size_t)(slash - p) : strlen(p);
    if (!n || n > NAME_MAX || (n <= 2 && !strncmp(p, "..", n))) {
      if (at != dir)
        close(at);
      errno = EXDEV;
      return -1;
    }
    memcpy(part, p, n);
    part[n] = 0;
    /* O_PATH with O_NOFOLLOW opens a link itself: refused here */
    int next = slash || (flags & O_PATH)
                   ? openat(at, part, O_PATH | O_NOFOLLOW | O_CLOEXEC)
                   : openat(at, part, flags | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    int err = next < 0                ? errno
              : fstat(next, &st) != 0 ? errno
              : S_ISLNK(st.st_mode)   ? ELOOP
              : (slash || (flags & O_DIRECTORY)) && !S_ISDIR(st.st_mode)
                  ? ENOTDIR
                  : 0;
    if (at != dir)
      close(at);
    if (err) {
      if (next >= 0)
        close(next);
      errno = err;
      return -1;
    }
    if (!slash)
      return next;
    at = next;
    p = slash + 1;
  }
}

/* Why the folder served is not, or ROOT_OK when it is (or is missing). */
enum {
  ROOT_OK,
  ROOT_OUTPUT_OUT = SV_SERVE_OUTPUT_OUT,
  ROOT_EDITION_OUT = SV_SERVE_EDITION_OUT
};

/* BOOK/Output/<edition>, beneath the book and beneath Output: a folder
 * descriptor, or -1 with *why, and errno (EXDEV: a link leads out; ELOOP:
 * a link not followed, without openat2, or one that loops). Called under
 * the output's lock (read_lock). */
/* The output's lock: between these no publish moves a folder that is
 * served (sv_lock). */
static void read_lock(const sv_server *s) {
  if (s->lock.read_lock)
    s->lock.read_lock(s->lock.user);
}

static void read_unlock(const sv_server *s) {
  if (s->lock.read_unlock)
    s->lock.read_unlock(s->lock.user);
}

static int open_root(const sv_server *s, const char *edition, int *why) {
  *why = ROOT_OK;
  int out = open_beneath(s->book_fd, "Output", O_PATH | O_DIRECTORY);
  if (out < 0) {
    if (errno == EXDEV || errno == ELOOP)
      *why = ROOT_OUTPUT_OUT;
    return -1;
  }
  errno = EINVAL;
  int root = edition && oc_safe_name(edition, strlen(edition))
                 ? open_beneath(out, edition, O_PATH | O_DIRECTORY)
                 : -1;
  int err = errno;
  if (root < 0 && (err == EXDEV || err == ELOOP))
    *why = ROOT_EDITION_OUT;
  close(out);
  errno = err;
  return root;
}

int sv_serve_check(sv_server *s, char *why, size_t nwhy) {
  pthread_mutex_lock(&s->mu);
  char *edition = s->edition ? oc_strdup(s->edition) : NULL;
  pthread_mutex_unlock(&s->mu);
  int problem = ROOT_OK, err = 0;
  if (edition) {
    read_lock(s);
    int fd = open_root(s, edition, &problem);
    err = errno;
    read_unlock(s);
    if (fd >= 0)
      close(fd);
  }
  /* ELOOP: a link that may stay inside, but cannot be followed safely
     here (no openat2), or that loops */
  const char *how = err == ELOOP ? "that publish serve cannot follow safely "
                                   "(it loops, or the kernel has no openat2)"
                                 : "that leads out of the book's folder";
  if (problem == ROOT_OUTPUT_OUT)
    say(why, nwhy, "Output is a symbolic link %s", how);
  else if (problem == ROOT_EDITION_OUT)
    say(why, nwhy, "Output/%s is a symbolic link %s: nothing is served from it",
        edition,
        err == ELOOP ? how : "that leads out of the book's Output folder");
  free(edition);
  return problem;
}

/* Opens rel beneath the served folder when it is a regular file; -1
 * else, *dir set when it is a folder. */
static int open_inside(const sv_server *s, const char *edition, const char *rel,
                       bool *dir, struct stat *st) {
  *dir = false;
  int fd = -1, problem;
  read_lock(s);
  int root = open_root(s, edition, &problem);
  if (root >= 0) {
    fd = open_beneath(root, rel, O_RDONLY | O_NONBLOCK | O_NOCTTY);
    close(root);
  }
  read_unlock(s);
  bool known = fd >= 0 && fstat(fd, st) == 0;
  if (fd >= 0 && (!known || !S_ISREG(st->st_mode))) {
    *dir = known && S_ISDIR(st->st_mode);
    close(fd);
    fd = -1;
  }
  return fd;
}

/* An HTML file sent as it is read, with the script before its last
 * </body>: what a connection holds is the descriptor and MHD's block. */
typedef struct page {
  int fd;
  uint64_t size, at; /* the file's size; where the script goes */
  size_t nscript;
  char script[sizeof script_format + 24];
} page;

/* Where the last </body> of the file starts (its end when none), read
 * backwards a block at a time. */
static uint64_t body_end(int fd, uint64_t size) {
  char buf[8192];
  uint64_t end = size;
  while (end > 0) {
    /* 6 bytes again, in case "</body>" straddles two blocks */
    uint64_t start = end > sizeof buf ? end - sizeof buf : 0;
    size_t n = (size_t)(end - start);
    ssize_t got = pread(fd, buf, n, (off_t)start);
    if (got != (ssize_t)n)
      return size;
    for (size_t i = n; i >= 7; i--)
      if (!strncasecmp(buf + i - 7, "</body>", 7))
        return start + i - 7;
    if (start == 0)
      break;
    end = start + 6;
  }
  return size;
}

static ssize_t page_read(void *cls, uint64_t pos, char *buf, size_t max) {
  page *p = cls;
  uint64_t total = p->size + p->nscript;
  size_t n = 0;
  while (n < max && pos < total) {
    size_t want = max - n;
    ssize_t got;
    if (pos < p->at) {
      if (want > p->at - pos)
        want = (size_t)(p->at - pos);
      got = pread(p->fd, buf + n, want, (off_t)pos);
    } else if (pos < p->at + p->nscript) {
      if (want > p->at + p->nscript - pos)
        want = (size_t)(p->at + p->nscript - pos);
      memcpy(buf + n, p->script + (pos - p->at), want);
      got = (ssize_t)want;
    } else {
      got = pread(p->fd, buf + n, want, (off_t)(pos - p->nscript));
    }
    if (got <= 0) /* the file shrank under us (changed by hand) */
      return n ? (ssize_t)n : MHD_CONTENT_READER_END_WITH_ERROR;
    n += (size_t)got;
    pos += (uint64_t)got;
  }
  return n ? (ssize_t)n : MHD_CONTENT_READER_END_OF_STREAM;
}

static void page_free(void *cls) {
  page *p = cls;
  close(p->fd);
  free(p);
}

static enum MHD_Result send_html(const req *r, int fd, const struct stat *st,
                                 const char *type) {
  page *p = oc_calloc(1, sizeof *p);
  p->fd = fd;
  p->size = (uint64_t)st->st_size;
  p->at = body_end(fd, p->size);
  int n = snprintf(p->script, sizeof p->script, script_format, r->gen);
  p->nscript = n > 0 && (size_t)n < sizeof p->script ? (size_t)n : 0;
  struct MHD_Response *resp = MHD_create_response_from_callback(
      p->size + p->nscript, 16384, page_read, p, page_free);
  if (!resp)
    page_free(p);
  return queue(r->c, MHD_HTTP_OK, resp, "Content-Type", type);
}

static enum MHD_Result send_file(const sv_server *s, const char *edition,
                                 const req *r, const char *url) {
  struct MHD_Connection *c = r->c;
  const char *rel = url + 1;
  char buf[OC_PATH_MAX + 16];
  size_t n = strlen(rel);
  if (n + 11 >= sizeof buf)
    return not_found(r, url);
  memcpy(buf, rel, n + 1);
  if (!n || buf[n - 1] == '/')
    memcpy(buf + n, "index.html", 11);
  /* the project's rule for names that become paths: no "..", no hidden
     names, no empty component, no control character */
  if (oc_relpath_problem(buf, strlen(buf)))
    return not_found(r, url);
  bool dir = false;
  struct stat st;
  int fd = edition ? open_inside(s, edition, buf, &dir, &st) : -1;
  if (fd < 0) {
    if (dir) {
      char *to = oc_malloc(strlen(url) + 2);
      sprintf(to, "%s/", url);
      enum MHD_Result ok = redirect(c, to);
      free(to);
      return ok;
    }
    return not_found(r, url);
  }
  const char *type = type_of(buf);
  if (is_html(type))
    return send_html(r, fd, &st, type);
  /* sent from the descriptor (sendfile), which the response closes */
  struct MHD_Response *resp =
      MHD_create_response_from_fd64((uint64_t)st.st_size, fd);
  if (!resp)
    close(fd);
  return queue(c, MHD_HTTP_OK, resp, "Content-Type", type);
}

/* ---- the events channel ---------------------------------------------- */

struct channel {
  sv_server *s;
  struct MHD_Connection *c;
  unsigned long seen, beat;
  bool given; /* seen came with the request */
  bool started;
  bool waiting; /* suspended, or about to be: in s->waiting */
  channel *next, *prev;
  oc_sb out; /* what is still to be sent */
  size_t off;
};

static void event(oc_sb *sb, const char *name, const char *data) {
  oc_sb_printf(sb, "event: %s\n", name);
  const char *p = data;
  do {
    const char *nl = strchr(p, '\n');
    size_t n = nl ? (size_t)(nl - p) : strlen(p);
    oc_sb_adds(sb, "data: ");
    for (size_t i = 0; i < n; i++)
      if (p[i] != '\r')
        oc_sb_addc(sb, p[i]);
    oc_sb_addc(sb, '\n');
    p = nl ? nl + 1 : p + n;
  } while (*p);
  oc_sb_addc(sb, '\n');
}

static void unlist(sv_server *s, channel *ch) {
  if (ch->prev)
    ch->prev->next = ch->next;
  else
    s->waiting = ch->next;
  if (ch->next)
    ch->next->prev = ch->prev;
  ch->next = ch->prev = NULL;
  ch->waiting = false;
}

/* Resumes every suspended channel: each then finds something to send
 * (an event, the comment, or the end), so none is resumed for nothing.
 * Under s->mu. */
static void wake_all(sv_server *s) {
  while (s->waiting) {
    channel *ch = s->waiting;
    unlist(s, ch);
    MHD_resume_connection(ch->c);
  }
}

static ssize_t channel_read(void *cls, uint64_t pos, char *buf, size_t max) {
  (void)pos;
  channel *ch = cls;
  sv_server *s = ch->s;
  pthread_mutex_lock(&s->mu);
  for (;;) {
    if (ch->off < ch->out.len) {
      size_t n = ch->out.len - ch->off;
      if (n > max)
        n = max;
      memcpy(buf, ch->out.p + ch->off, n);
      ch->off += n;
      pthread_mutex_unlock(&s->mu);
      return (ssize_t)n;
    }
    ch->out.len = 0;
    ch->off = 0;
    if (s->quit) {
      pthread_mutex_unlock(&s->mu);
      return MHD_CONTENT_READER_END_OF_STREAM;
    }
    if (!ch->started) {
      ch->started = true;
      ch->beat = s->beat;
      if (!ch->given || ch->seen > s->gen)
        ch->seen = s->gen;
      oc_sb_adds(&ch->out, "retry: 300\n\n");
      if (s->failed)
        event(&ch->out, "failure", s->text ? s->text : "");
      continue;
    }
    if (ch->seen != s->gen) {
      ch->seen = s->gen;
      if (s->failed)
        event(&ch->out, "failure", s->text ? s->text : "");
      else
        event(&ch->out, "reload", "published");
      continue;
    }
    if (ch->beat != s->beat) {
      ch->beat = s->beat;
      oc_sb_adds(&ch->out, ": still here\n\n");
      continue;
    }
    /* Nothing to say: suspended until wake_all. A wake between the
       unlock and the suspension is not lost: libmicrohttpd then cancels
       the suspension, and calls again. */
    ch->waiting = true;
    ch->prev = NULL;
    ch->next = s->waiting;
    if (s->waiting)
      s->waiting->prev = ch;
    s->waiting = ch;
    pthread_mutex_unlock(&s->mu);
    MHD_suspend_connection(ch->c);
    return 0;
  }
}

static void channel_free(void *cls) {
  channel *ch = cls;
  sv_server *s = ch->s;
  pthread_mutex_lock(&s->mu);
  if (ch->waiting)
    unlist(s, ch);
  pthread_mutex_unlock(&s->mu);
  oc_sb_free(&ch->out);
  free(ch);
}

static enum MHD_Result events(sv_server *s, struct MHD_Connection *c) {
  channel *ch = oc_calloc(1, sizeof *ch);
  ch->s = s;
  ch->c = c;
  /* the generation of the page that connects, when it says */
  const char *g = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "g");
  char *end;
  if (g && *g) {
    ch->seen = strtoul(g, &end, 10);
    ch->given = !*end;
  }
  oc_sb_init(&ch->out, NULL, 0);
  struct MHD_Response *r = MHD_create_response_from_callback(
      MHD_SIZE_UNKNOWN, 4096, channel_read, ch, channel_free);
  if (!r)
    channel_free(ch);
  return queue(c, MHD_HTTP_OK, r, "Content-Type", "text/event-stream");
}

/* Every 15 s, a comment on every channel: a page closed while its
   channel was suspended is noticed when the comment cannot be sent. */
static void *heartbeat(void *cls) {
  sv_server *s = cls;
  pthread_mutex_lock(&s->mu);
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 15;
  while (!s->quit) {
    if (pthread_cond_timedwait(&s->cv, &s->mu, &until) != ETIMEDOUT)
      continue;
    s->beat++;
    wake_all(s);
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 15;
  }
  pthread_mutex_unlock(&s->mu);
  return NULL;
}

/* ---- requests -------------------------------------------------------- */

static const char read_only[] = "publish serve only reads\n";
static const char forbidden[] =
    "publish serve answers to 127.0.0.1 and localhost only\n";

/* host is 127.0.0.1 or localhost, with this server's port or none. */
static bool host_ok(const sv_server *s, const char *host) {
  if (!host)
    return false;
  size_t n;
  if (!strncasecmp(host, "127.0.0.1", 9))
    n = 9;
  else if (!strncasecmp(host, "localhost", 9))
    n = 9;
  else
    return false;
  if (!host[n])
    return true;
  char port[16];
  snprintf(port, sizeof port, ":%u", s->port);
  return !strcmp(host + n, port);
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *c,
                              const char *url, const char *method,
                              const char *version, const char *upload,
                              size_t *upload_size, void **state) {
  (void)version;
  (void)upload;
  sv_server *s = cls;
  if (!*state) { /* headers only so far: answer when the request is whole */
    *state = s;
    return MHD_YES;
  }
  if (*upload_size) {
    *upload_size = 0;
    return MHD_YES;
  }
  /* A page of another site may not read the book through a name that
     it makes point at 127.0.0.1 (DNS rebinding): the Host must be this
     machine's. */
  if (!host_ok(s, MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host")))
    return send_buffer(c, MHD_HTTP_FORBIDDEN, "text/plain; charset=utf-8",
                       forbidden, sizeof forbidden - 1);
  if (strcmp(method, "GET") && strcmp(method, "HEAD"))
    return send_buffer(c, MHD_HTTP_METHOD_NOT_ALLOWED,
                       "text/plain; charset=utf-8",
                       read_only, sizeof read_only - 1);
  if (!strcmp(url, EVENTS_PATH))
    return events(s, c);
  /* what is served may change (sv_serve_set): a copy for this request;
     the generation read before the file is opened */
  req r = {c, 0};
  pthread_mutex_lock(&s->mu);
  char *edition = s->edition ? oc_strdup(s->edition) : NULL;
  char *entry = s->entry ? oc_strdup(s->entry) : NULL;
  r.gen = s->gen;
  pthread_mutex_unlock(&s->mu);
  if (url[0] != '/') {
    free(edition);
    free(entry);
    return not_found(&r, url);
  }
  enum MHD_Result ok;
  if (!strcmp(url, "/") && entry && ends_with(entry, ".html")) {
    char *to = oc_malloc(strlen(entry) + 2);
    sprintf(to, "/%s", entry);
    ok = redirect(c, to);
    free(to);
  } else if (!strcmp(url, "/")) {
    ok = wrapper(entry, &r);
  } else {
    ok = send_file(s, edition, &r, url);
  }
  free(edition);
  free(entry);
  return ok;
}

static void quiet(void *cls, const char *fmt, va_list ap) {
  (void)cls;
  (void)fmt;
  (void)ap;
}

/* How many connections the file limit allows: each may hold its socket
 * and a file being sent. The soft limit is raised first, within the hard
 * one. */
static unsigned connection_limit(void) {
  rlim_t want = 2 * (rlim_t)SV_SERVE_MAX_CONNECTIONS + SPARE_FDS;
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
    return 64;
  if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want) {
    struct rlimit up = rl;
    up.rlim_cur =
        rl.rlim_max == RLIM_INFINITY || rl.rlim_max > want ? want : rl.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &up) == 0)
      rl = up;
  }
  rlim_t have =
      rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > want ? want : rl.rlim_cur;
  rlim_t n = have > SPARE_FDS + 2 * 16 ? (have - SPARE_FDS) / 2 : 16;
  return (unsigned)n;
}

sv_server *sv_serve_start(int fd, const char *book_dir, const char *edition,
                          const char *entry, const sv_lock *lock, char *why,
                          size_t nwhy) {
  sv_server *s = oc_calloc(1, sizeof *s);
  if (lock)
    s->lock = *lock;
  s->edition = edition ? oc_strdup(edition) : NULL;
  s->entry = entry ? oc_strdup(entry) : NULL;
  pthread_mutex_init(&s->mu, NULL);
  pthread_cond_init(&s->cv, NULL);
  s->book_fd = open(book_dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (s->book_fd < 0) {
    say(why, nwhy, "cannot open %s: %s", book_dir, strerror(errno));
    close(fd);
    sv_serve_stop(s);
    return NULL;
  }
  struct sockaddr_in sa;
  socklen_t len = sizeof sa;
  if (getsockname(fd, (struct sockaddr *)&sa, &len) == 0)
    s->port = ntohs(sa.sin_port);
  s->max_connections = connection_limit();
  s->d = MHD_start_daemon(
      MHD_USE_AUTO_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME, 0, NULL, NULL,
      answer, s, MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd,
      MHD_OPTION_CONNECTION_LIMIT, s->max_connections,
      MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)SV_SERVE_IDLE_SECONDS,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32768,
      MHD_OPTION_EXTERNAL_LOGGER, quiet, NULL, MHD_OPTION_END);
  if (!s->d) {
    say(why, nwhy, "libmicrohttpd could not start a server: %s",
        strerror(errno));
    close(fd);
    sv_serve_stop(s);
    return NULL;
  }
  int err = pthread_create(&s->heart, NULL, heartbeat, s);
  if (err) {
    say(why, nwhy, "cannot start a thread: %s", strerror(err));
    sv_serve_stop(s);
    return NULL;
  }
  s->heart_started = true;
  return s;
}

unsigned sv_serve_max_connections(const sv_server *s) {
  return s->max_connections;
}

void sv_serve_set(sv_server *s, const char *edition, const char *entry) {
  pthread_mutex_lock(&s->mu);
  free(s->edition);
  free(s->entry);
  s->edition = oc_strdup(edition);
  s->entry = oc_strdup(entry);
  pthread_mutex_unlock(&s->mu);
}

void sv_serve_reload(sv_server *s) {
  pthread_mutex_lock(&s->mu);
  s->gen++;
  s->failed = false;
  free(s->text);
  s->text = NULL;
  wake_all(s);
  pthread_mutex_unlock(&s->mu);
}

void sv_serve_failure(sv_server *s, const char *text) {
  pthread_mutex_lock(&s->mu);
  s->gen++;
  s->failed = true;
  free(s->text);
  s->text = oc_strdup(text);
  wake_all(s);
  pthread_mutex_unlock(&s->mu);
}

void sv_serve_stop(sv_server *s) {
  if (!s)
    return;
  /* libmicrohttpd may not stop with a connection suspended: every
     channel resumed, to end its stream */
  pthread_mutex_lock(&s->mu);
  s->quit = true;
  wake_all(s);
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
  if (s->heart_started)
    pthread_join(s->heart, NULL);
  if (s->d)
    MHD_stop_daemon(s->d);
  if (s->book_fd >= 0)
    close(s->book_fd);
  pthread_cond_destroy(&s->cv);
  pthread_mutex_destroy(&s->mu);
  free(s->text);
  free(s->edition);
  free(s->entry);
  free(s);
}
