/* publish serve's web server (book_serve.h), on libmicrohttpd: one thread
 * per connection, so that an events channel may wait on a condition
 * variable until there is something to say. */
#include "book_serve.h"

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
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "book_fs.h"
#include "oc_alloc.h"
#include "oc_path.h"
#include "oc_sb.h"

#define EVENTS_PATH "/__octavo/events"

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

struct bk_server {
  struct MHD_Daemon *d;
  unsigned port;
  char *root;
  char *entry;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  unsigned long gen; /* one more at each publish, good or not */
  bool failed;       /* the last publish failed: text is its messages */
  char *text;
  bool quit;
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
  if (bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 64) != 0) {
    int err = errno;
    close(fd);
    errno = err;
    return -1;
  }
  return fd;
}

int bk_serve_listen(unsigned port, unsigned *bound, bool *moved, char *why,
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

/* Opens root/rel when it is a regular file inside root, links followed;
 * -1 else. *dir set when it is a folder inside root. */
static int open_inside(const char *root, const char *rel, bool *dir,
                       struct stat *st) {
  *dir = false;
  char path[PATH_MAX];
  if (snprintf(path, sizeof path, "%s/%s", root, rel) >= (int)sizeof path)
    return -1;
  int fd = -1;
  bk_out_read_lock();
  char *real = realpath(path, NULL);
  char *base = realpath(root, NULL);
  size_t bl = base ? strlen(base) : 0;
  if (real && base && !strncmp(real, base, bl) && real[bl] == '/') {
    fd = open(real, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    bool known = fd >= 0 && fstat(fd, st) == 0;
    if (fd >= 0 && (!known || !S_ISREG(st->st_mode))) {
      *dir = known && S_ISDIR(st->st_mode);
      close(fd);
      fd = -1;
    }
  }
  bk_out_read_unlock();
  free(real);
  free(base);
  return fd;
}

static enum MHD_Result send_file(const char *root, const req *r,
                                 const char *url) {
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
  bool dir;
  struct stat st;
  int fd = root ? open_inside(root, buf, &dir, &st) : -1;
  if (!root)
    dir = false;
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
  if (is_html(type)) {
    size_t len = (size_t)st.st_size, got = 0;
    char *html = oc_malloc(len + 1);
    while (got < len) {
      ssize_t k = read(fd, html + got, len - got);
      if (k <= 0)
        break;
      got += (size_t)k;
    }
    close(fd);
    enum MHD_Result ok = send_page(r, MHD_HTTP_OK, type, html, got);
    free(html);
    return ok;
  }
  struct MHD_Response *resp =
      MHD_create_response_from_fd64((uint64_t)st.st_size, fd);
  if (!resp)
    close(fd);
  return queue(c, MHD_HTTP_OK, resp, "Content-Type", type);
}

/* ---- the events channel ---------------------------------------------- */

typedef struct channel {
  bk_server *s;
  unsigned long seen;
  bool given; /* seen came with the request */
  bool started;
  oc_sb out; /* what is still to be sent */
  size_t off;
} channel;

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

static ssize_t channel_read(void *cls, uint64_t pos, char *buf, size_t max) {
  (void)pos;
  channel *ch = cls;
  bk_server *s = ch->s;
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
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 15;
    if (pthread_cond_timedwait(&s->cv, &s->mu, &until) == ETIMEDOUT)
      oc_sb_adds(&ch->out, ": still here\n\n");
  }
}

static void channel_free(void *cls) {
  channel *ch = cls;
  oc_sb_free(&ch->out);
  free(ch);
}

static enum MHD_Result events(bk_server *s, struct MHD_Connection *c) {
  channel *ch = oc_calloc(1, sizeof *ch);
  ch->s = s;
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

/* ---- requests -------------------------------------------------------- */

static const char read_only[] = "publish serve only reads\n";
static const char forbidden[] =
    "publish serve answers to 127.0.0.1 and localhost only\n";

/* host is 127.0.0.1 or localhost, with this server's port or none. */
static bool host_ok(const bk_server *s, const char *host) {
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
  bk_server *s = cls;
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
  /* what is served may change (bk_serve_set): a copy for this request;
     the generation read before the file is opened */
  req r = {c, 0};
  pthread_mutex_lock(&s->mu);
  char *root = s->root ? oc_strdup(s->root) : NULL;
  char *entry = s->entry ? oc_strdup(s->entry) : NULL;
  r.gen = s->gen;
  pthread_mutex_unlock(&s->mu);
  if (url[0] != '/') {
    free(root);
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
    ok = send_file(root, &r, url);
  }
  free(root);
  free(entry);
  return ok;
}

static void quiet(void *cls, const char *fmt, va_list ap) {
  (void)cls;
  (void)fmt;
  (void)ap;
}

bk_server *bk_serve_start(int fd, const char *root, const char *entry,
                          char *why, size_t nwhy) {
  bk_server *s = oc_calloc(1, sizeof *s);
  s->root = root ? oc_strdup(root) : NULL;
  s->entry = entry ? oc_strdup(entry) : NULL;
  pthread_mutex_init(&s->mu, NULL);
  pthread_cond_init(&s->cv, NULL);
  struct sockaddr_in sa;
  socklen_t len = sizeof sa;
  if (getsockname(fd, (struct sockaddr *)&sa, &len) == 0)
    s->port = ntohs(sa.sin_port);
  s->d = MHD_start_daemon(
      MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD, 0, NULL,
      NULL, answer, s, MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd,
      MHD_OPTION_EXTERNAL_LOGGER, quiet, NULL, MHD_OPTION_END);
  if (!s->d) {
    say(why, nwhy, "libmicrohttpd could not start a server: %s",
        strerror(errno));
    close(fd);
    bk_serve_stop(s);
    return NULL;
  }
  return s;
}

void bk_serve_set(bk_server *s, const char *root, const char *entry) {
  pthread_mutex_lock(&s->mu);
  free(s->root);
  free(s->entry);
  s->root = oc_strdup(root);
  s->entry = oc_strdup(entry);
  pthread_mutex_unlock(&s->mu);
}

void bk_serve_reload(bk_server *s) {
  pthread_mutex_lock(&s->mu);
  s->gen++;
  s->failed = false;
  free(s->text);
  s->text = NULL;
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
}

void bk_serve_failure(bk_server *s, const char *text) {
  pthread_mutex_lock(&s->mu);
  s->gen++;
  s->failed = true;
  free(s->text);
  s->text = oc_strdup(text);
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
}

void bk_serve_stop(bk_server *s) {
  if (!s)
    return;
  pthread_mutex_lock(&s->mu);
  s->quit = true;
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
  if (s->d)
    MHD_stop_daemon(s->d);
  pthread_cond_destroy(&s->cv);
  pthread_mutex_destroy(&s->mu);
  free(s->text);
  free(s->root);
  free(s->entry);
  free(s);
}
