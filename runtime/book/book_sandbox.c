/* What publish may touch once confined (book_sandbox.h). Reads: the book,
 * and the system folders the libraries publishing links read at run
 * time, found by tracing every edition of the guide and the test books
 * (strace -f -e trace=%file); the bundled themes and the translations are
 * compiled in, so there is no installed data folder (publish --theme
 * adds the theme folder it names). Writes: BOOK/Output
 * alone (temporary folders, the final rename and the cleaning up all
 * happen there). fontconfig's caches are read but not written: a stale
 * cache only makes fontconfig scan the font folders again. */
#include "book_sandbox.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book_fs.h"
#include "ts_font.h"
#include "oc_alloc.h"
#include "oc_sandbox.h"
#include "oc_shell.h"

/* Shared libraries and what they load (gconv, GIO and gdk-pixbuf modules,
 * OpenSSL's configuration, the locale archive), ICU's data, fonts and
 * fontconfig's configuration and caches, hyphenation dictionaries, the
 * grammars of highlighted code (highlight-common),
 * time zones the templates' dates read, the sRGB profile of PDF/A,
 * glib's MIME database, of /etc only what those read (never all of it:
 * a path bug would reach shadow and the keys of ssh and TLS), what
 * glibc and libselinux read in /proc, the inotify limit the watch of
 * publish serve and --watch stays under, and the process's own /proc/<pid>
 * (LeakSanitizer lists its threads there at exit, in the ASan build). */
static const char *const system_reads[] = {
    "/usr/lib",
    "/usr/lib64",
    "/usr/local/lib",
    "/lib",
    "/lib64",
    "/usr/share/icu",
    "/usr/share/fonts",
    "/usr/local/share/fonts",
    "/usr/share/fontconfig",
    "/var/cache/fontconfig",
    "/usr/share/hyphen",
    "/usr/share/highlight",
    "/usr/share/locale",
    "/usr/share/zoneinfo",
    "/usr/share/color/icc",
    "/usr/share/mime",
    /* /etc: fontconfig's configuration, the time zone (the link's
       target is /usr/share/zoneinfo's; a copy is the file itself),
       highlight's file types, the dynamic loader's cache (a module
       dlopen()ed by name), OpenSSL's, GnuTLS's and libxml2's
       configuration (catalogs) */
    "/etc/fonts",
    "/etc/localtime",
    "/etc/timezone",
    "/etc/highlight",
    "/etc/ld.so.cache",
    "/etc/ssl/openssl.cnf",
    "/etc/gnutls",
    "/etc/xml",
    "/proc/self",
    "/proc/filesystems",
    "/proc/sys/vm/overcommit_memory",
    "/proc/sys/fs/inotify/max_user_watches",
    "/dev/null",
    "/dev/urandom",
};

/* fontconfig's folders in the user's home, as its default configuration
 * names them (XDG base directories, and the older dot folders). */
static size_t home_reads(char buf[][PATH_MAX], size_t max) {
  const char *home = getenv("HOME");
  const char *data = getenv("XDG_DATA_HOME");
  const char *cache = getenv("XDG_CACHE_HOME");
  const char *config = getenv("XDG_CONFIG_HOME");
  size_t n = 0;
#define HOME_PATH(...)                                                         \
  do {                                                                         \
    if (n < max && snprintf(buf[n], PATH_MAX, __VA_ARGS__) < PATH_MAX)         \
      n++;                                                                     \
  } while (0)
  if (data && data[0] == '/')
    HOME_PATH("%s/fonts", data);
  if (cache && cache[0] == '/')
    HOME_PATH("%s/fontconfig", cache);
  if (config && config[0] == '/')
    HOME_PATH("%s/fontconfig", config);
  if (home && home[0] == '/') {
    HOME_PATH("%s/.local/share/fonts", home);
    HOME_PATH("%s/.cache/fontconfig", home);
    HOME_PATH("%s/.config/fontconfig", home);
    HOME_PATH("%s/.fonts", home);
    HOME_PATH("%s/.fonts.conf", home);
    HOME_PATH("%s/.fontconfig", home);
  }
#undef HOME_PATH
  return n;
}

/* BOOK/Output, created, when it is inside the book (a symbolic link that
 * leads out is refused later by bk_out_begin, with its message; here it
 * gets no right at all). NULL when there is none. */
static char *output_folder(const char *book_dir) {
  char path[PATH_MAX];
  if (snprintf(path, sizeof path, "%s/Output", book_dir) >= (int)sizeof path)
    return NULL;
  bk_mkdirs(path);
  char *real = realpath(path, NULL);
  size_t bl = strlen(book_dir);
  if (real && !strncmp(real, book_dir, bl) && real[bl] == '/')
    return real;
  free(real);
  return NULL;
}

int bk_sandbox_enter(const char *book_dir, const char *theme_dir,
                     const char *const *imports, size_t nimports,
                     bool publishing, bool scripts, char *why, size_t nwhy) {
  if (scripts && oc_shell_start() != 0) {
    snprintf(why, nwhy, "cannot start the runner of scripts: %s",
             strerror(errno));
    return 0;
  }
  enum {
    NSYS = sizeof system_reads / sizeof *system_reads,
    NHOME = 10,
    NFONT = 32
  };
  char home[NHOME][PATH_MAX];
  static char fonts[NFONT][PATH_MAX];
  const char **reads = oc_reallocarray(
      NULL, oc_size_add(2 + NSYS + NHOME + NFONT, nimports), sizeof *reads);
  size_t nread = 0;
  reads[nread++] = book_dir;
  if (theme_dir)
    reads[nread++] = theme_dir;
  for (size_t i = 0; i < nimports; i++)
    reads[nread++] = imports[i];
  for (size_t i = 0; i < NSYS; i++)
    reads[nread++] = system_reads[i];
  size_t nhome = home_reads(home, NHOME);
  for (size_t i = 0; i < nhome; i++)
    reads[nread++] = home[i];
  /* fontconfig's own <dir>s: packages add folders outside
     /usr/share/fonts (fonts-texgyre's are in /usr/share/texmf) */
  size_t nfont = ts_font_dirs(fonts[0], PATH_MAX, NFONT);
  for (size_t i = 0; i < nfont; i++)
    reads[nread++] = fonts[i];
  char *out = publishing ? output_folder(book_dir) : NULL;
  const char *writes[1] = {out};
  oc_sandbox sb = {reads, nread, writes, out ? 1 : 0, 0};
  int abi = oc_sandbox_restrict(&sb, why, nwhy);
  free(out);
  free(reads);
  return abi;
}
