/* themec new and themec build (themec.h): a theme author's starter folder,
 * copied from an installed theme's sources, and a publish with theme
 * folders compiled in, linked by the system C compiler against the
 * installed run-time libraries that pkg-config names (octavo.pc). Both
 * find what Octavo installed relative to themec's own location, so that an
 * installed tree can be moved. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "oc_alloc.h"
#include "oc_file.h"
#include "octavo_paths.h"
#include "themec.h"
#include "tpl_cgen.h"

const char *const themec_formats[] = {"html", "html_chunked", "epub", "pdf"};
const size_t themec_nformats = sizeof themec_formats / sizeof *themec_formats;

static bool is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool sub_is_dir(const char *dir, const char *sub) {
  char *p = themec_path_join(dir, sub);
  bool r = is_dir(p);
  free(p);
  return r;
}

bool themec_is_theme_dir(const char *dir) {
  for (size_t i = 0; i < themec_nformats; i++)
    if (sub_is_dir(dir, themec_formats[i]))
      return true;
  return false;
}

/* The folder this program lives in (malloc'd), or NULL. */
static char *exe_dir(void) {
  char *real = realpath("/proc/self/exe", NULL);
  if (!real)
    return NULL;
  char *slash = strrchr(real, '/');
  if (slash == real)
    real[1] = 0;
  else if (slash)
    *slash = 0;
  return real;
}

/* BIN/rel when that folder exists (malloc'd, canonical), else NULL. */
static char *installed(const char *rel) {
  char *bin = exe_dir();
  if (!bin)
    return NULL;
  char *p = themec_path_join(bin, rel);
  free(bin);
  char *real = realpath(p, NULL);
  free(p);
  if (real && !is_dir(real)) {
    free(real);
    real = NULL;
  }
  return real;
}

/* The folder holding the bundled themes' sources: the installed
 * share/octavo/themes, else the source tree's themes/ (a themec of the
 * build tree). NULL when neither exists. */
static char *themes_home(void) {
  char *data = installed(OCTAVO_REL_DATADIR);
  if (data) {
    char *t = themec_path_join(data, "themes");
    free(data);
    if (is_dir(t))
      return t;
    free(t);
  }
  char *bin = exe_dir();
  char *build = realpath(OCTAVO_BINARY_DIR "/compiler", NULL);
  bool in_build = bin && build && !strcmp(bin, build);
  free(bin);
  free(build);
  if (in_build && is_dir(OCTAVO_SOURCE_DIR "/themes"))
    return oc_strdup(OCTAVO_SOURCE_DIR "/themes");
  return NULL;
}

/* The theme folder --from names: a folder, or a bundled theme's name. */
char *themec_find_theme(const char *from) {
  if (strchr(from, '/') || is_dir(from)) {
    if (themec_is_theme_dir(from))
      return realpath(from, NULL);
    fprintf(stderr,
            "themec: %s is not a theme folder (it has none of html/, "
            "html_chunked/, epub/, pdf/)\n",
            from);
    return NULL;
  }
  char *home = themes_home();
  if (!home) {
    fprintf(stderr, "themec: cannot find the installed themes (looked in "
                    "%s/themes beside themec)\n",
            OCTAVO_REL_DATADIR);
    return NULL;
  }
  char *t = themec_path_join(home, from);
  if (themec_plain_name(from, strlen(from)) && themec_is_theme_dir(t)) {
    free(home);
    return t;
  }
  fprintf(stderr, "themec: no theme '%s' in %s (it has:", from, home);
  DIR *d = opendir(home);
  struct dirent *e;
  while (d && (e = readdir(d)))
    if (e->d_name[0] != '.' && themec_plain_name(e->d_name, strlen(e->d_name)))
      fprintf(stderr, " %s", e->d_name);
  if (d)
    closedir(d);
  fputs(")\n", stderr);
  free(home);
  free(t);
  return NULL;
}

/* ---- themec new ----------------------------------------------------------
 */

/* Copies the regular files and folders under src into dst (which exists),
 * leaving out hidden files, links and the build's CMakeLists.txt. */
static int copy_tree(const char *src, const char *dst) {
  DIR *d = opendir(src);
  if (!d) {
    fprintf(stderr, "themec: cannot read %s: %s\n", src, strerror(errno));
    return -1;
  }
  themec_strlist names = {0};
  struct dirent *e;
  while ((e = readdir(d)))
    if (e->d_name[0] != '.' && strcmp(e->d_name, "CMakeLists.txt"))
      themec_strlist_add(&names, oc_strdup(e->d_name));
  closedir(d);
  themec_strlist_sort(&names);
  int rc = 0;
  for (size_t i = 0; i < names.len && rc == 0; i++) {
    char *from = themec_path_join(src, names.v[i]);
    char *to = themec_path_join(dst, names.v[i]);
    struct stat st;
    if (lstat(from, &st) == 0 && S_ISDIR(st.st_mode)) {
      if (mkdir(to, 0755) != 0) {
        fprintf(stderr, "themec: cannot create %s: %s\n", to, strerror(errno));
        rc = -1;
      } else {
        rc = copy_tree(from, to);
      }
    } else if (S_ISREG(st.st_mode)) {
      size_t len;
      char *text = oc_read_file(from, &len);
      if (!text) {
        fprintf(stderr, "themec: cannot read %s: %s\n", from, strerror(errno));
        rc = -1;
      } else {
        rc = themec_write_atomic(to, text, len);
        free(text);
      }
    }
    free(from);
    free(to);
  }
  themec_strlist_free(&names);
  return rc;
}

static const char starter_readme[] =
    "# The %s theme\n"
    "\n"
    "A theme for Octavo, started from `%s` by `themec new`. Each folder\n"
    "holds the templates of one kind of edition; `common/` and `contents/`\n"
    "serve every format whose own folder lacks a template of that name.\n"
    "\n"
    "- `html/`: the `html` edition, one page (`book.html`): `book.twig`\n"
    "  (the page), `item.twig` (the layout the element templates extend)\n"
    "  and one template per element (`chapter.twig`, `appendix.twig`,\n"
    "  `toc.twig`, `cover.twig`, ...).\n"
    "- `html_chunked/`: the `html_chunked` edition, a website: `layout.twig`\n"
    "  (every page), `index.twig` (the first page), `chunk.twig` (the\n"
    "  other pages); an `<element>.twig` here is used for that element's\n"
    "  pages instead of `chunk.twig`.\n"
    "- `epub/`: the `epub` (and `mobi`) edition: the XHTML pages\n"
    "  (`layout.twig`, `chunk.twig`, element pages), the package files\n"
    "  (`content.opf.twig`, `nav.xhtml.twig`, `toc.ncx.twig`,\n"
    "  `container.xml.twig`) and its own `style.css.twig`.\n"
    "- `pdf/`: the `pdf` edition: `book.twig` renders the whole book as one\n"
    "  XHTML document, element templates as in `html/`, and\n"
    "  `style.css.twig`, the style sheet Octavo's typesetter reads (its CSS\n"
    "  subset is in the theme reference).\n"
    "- `common/`: `style.css.twig` and its parts in `css/` (the HTML\n"
    "  editions' style sheet), `code.twig`, `figure.twig`, `table.twig` and\n"
    "  `partials/` (macros and shared blocks).\n"
    "- `contents/`: the default Markdown of the `edition`, `license` and\n"
    "  `title` elements (`<element>.md.twig`).\n"
    "\n"
    "`@theme/NAME` in a template always means this theme's `NAME`, even when\n"
    "a book overrides it (`{%% extends '@theme/style.css.twig' %%}`).\n"
    "\n"
    "## The loop\n"
    "\n"
    "    themec check %s                  # every error, file:line:col\n"
    "    publish --theme %s BOOK [EDITION...]\n"
    "                                       # try it: interpreted, the same\n"
    "                                       # bytes as compiled\n"
    "    themec build %s -o publish-%s\n"
    "                                       # a publish with it compiled in\n"
    "    ./publish-%s --themes\n"
    "\n"
    "A book chooses it with `theme: %s` in an edition of its config.yml.\n"
    "The theme reference (`man 5 octavo-theme`, docs/theme-reference.md)\n"
    "lists the variables every template receives and the classes the\n"
    "bundled themes emit.\n";

int themec_cmd_new(int argc, char **argv) {
  const char *dir = NULL, *from = "clean";
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--from") && i + 1 < argc)
      from = argv[++i];
    else if (argv[i][0] != '-' && !dir)
      dir = argv[i];
    else {
      fputs("usage: themec new DIR [--from THEME]\n", stderr);
      return 2;
    }
  }
  if (!dir) {
    fputs("usage: themec new DIR [--from THEME]\n", stderr);
    return 2;
  }
  char *src = themec_find_theme(from);
  if (!src)
    return 1;
  int rc = 1;
  char *real = NULL;
  if (mkdir(dir, 0755) != 0) {
    fprintf(stderr, "themec: cannot create %s: %s\n", dir,
            errno == EEXIST ? "it exists already (choose a new folder)"
                            : strerror(errno));
    goto done;
  }
  if (copy_tree(src, dir) != 0)
    goto done;
  real = realpath(dir, NULL);
  const char *name = real ? themec_base_name(real) : dir;
  /* The source's own README becomes the notes after the starter's. */
  char *old_path = themec_path_join(dir, "README.md");
  size_t old_len = 0;
  char *old = oc_read_file(old_path, &old_len);
  /* The text names dir three times, name four times and from twice. */
  size_t n = sizeof starter_readme + 3 * strlen(dir) + 4 * strlen(name) +
             2 * strlen(from) + old_len + 64;
  char *text = oc_malloc(n);
  int k = snprintf(text, n, starter_readme, name, from, dir, dir, dir, name,
                   name, name);
  if (old && k > 0 && (size_t)k < n)
    snprintf(text + k, n - (size_t)k, "\n## Notes from `%s`\n\n%s", from,
             old + (strncmp(old, "# ", 2) ? 0 : strcspn(old, "\n") + 1));
  rc = themec_write_atomic(old_path, text, strlen(text)) == 0 ? 0 : 1;
  free(text);
  free(old);
  free(old_path);
  if (rc == 0)
    printf("Wrote the theme %s in %s (from %s).\nTry it: publish --theme %s "
           "BOOK\n",
           name, dir, from, dir);
done:
  free(real);
  free(src);
  return rc;
}

/* ---- themec build --------------------------------------------------------
 */

/* s as one word of sh, in single quotes (malloc'd). */
static char *sh_quote(const char *s) {
  size_t n = 3;
  for (const char *p = s; *p; p++)
    n = oc_size_add(n, *p == '\'' ? 4 : 1);
  char *q = oc_malloc(n), *o = q;
  *o++ = '\'';
  for (const char *p = s; *p; p++) {
    if (*p == '\'') {
      memcpy(o, "'\\''", 4);
      o += 4;
    } else {
      *o++ = *p;
    }
  }
  *o++ = '\'';
  *o = 0;
  return q;
}

/* A C identifier made of a theme name. */
static char *ident_of(const char *name) {
  char *s = oc_strdup(name);
  for (char *p = s; *p; p++)
    if (*p == '-')
      *p = '_';
  return s;
}

/* Removes the files of the build's temporary folder, and the folder. */
static void remove_tmp(const char *tmp, const themec_strlist *files) {
  for (size_t i = 0; i < files->len; i++)
    unlink(files->v[i]);
  rmdir(tmp);
}

/* Compiles theme folder `dir` into tmp, one C file per format, adding its
 * entries to the registry. */
static int build_theme(const char *dir, const char *name, const char *tmp,
                       themec_strlist *files, themec_strlist *strings,
                       themec_reg_entry *entries, size_t *nentries) {
  char *id = ident_of(name);
  int rc = 0;
  for (size_t f = 0; f < themec_nformats && rc == 0; f++) {
    const char *format = themec_formats[f];
    if (!sub_is_dir(dir, format))
      continue;
    char *dirs[3];
    size_t ndirs = themec_format_dirs(dir, format, dirs);
    size_t pn = strlen(id) + strlen(format) + 32;
    char *prefix = oc_malloc(pn);
    snprintf(prefix, pn, "octavo_added_%s_%s", id, format);
    char *file = oc_malloc(pn + 4);
    snprintf(file, pn + 4, "%s.c", prefix);
    char *code = NULL;
    size_t len = 0;
    rc = themec_compile_dirs(dirs, ndirs, TPL_ESC_NONE, prefix, file, NULL,
                             &code, &len);
    char *path = themec_path_join(tmp, file);
    if (rc == 0)
      rc = themec_write_atomic(path, code, len);
    themec_strlist_add(files, path);
    free(code);
    free(file);
    for (size_t i = 0; i < ndirs; i++)
      free(dirs[i]);
    themec_strlist_add(strings, prefix);
    entries[(*nentries)++] = (themec_reg_entry){name, format, prefix};
  }
  free(id);
  return rc;
}

static const char build_usage[] =
    "usage: themec build THEME_DIR... -o BINARY [--default THEME] [-v]\n";

int themec_cmd_build(int argc, char **argv) {
  const char *out = NULL, *dflt = NULL;
  bool verbose = false;
  themec_strlist dirs = {0}, names = {0}, files = {0}, strings = {0};
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "-o") && i + 1 < argc)
      out = argv[++i];
    else if (!strcmp(argv[i], "--default") && i + 1 < argc)
      dflt = argv[++i];
    else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose"))
      verbose = true;
    else if (argv[i][0] != '-')
      themec_strlist_add(&dirs, oc_strdup(argv[i]));
    else {
      fputs(build_usage, stderr);
      themec_strlist_free(&dirs);
      return 2;
    }
  }
  int rc = 2;
  char tmp[] = "/tmp/themec-build-XXXXXX";
  bool have_tmp = false;
  themec_reg_entry *entries =
      oc_calloc(dirs.len * themec_nformats + 1, sizeof *entries);
  size_t nentries = 0;
  if (!out || !dirs.len) {
    fputs(build_usage, stderr);
    goto done;
  }
  rc = 1;
  for (size_t i = 0; i < dirs.len; i++) {
    char *real = realpath(dirs.v[i], NULL);
    const char *name = real ? themec_base_name(real) : "";
    if (!real || !themec_is_theme_dir(real)) {
      fprintf(stderr,
              "themec: %s is not a theme folder (one with html/, "
              "html_chunked/, epub/ or pdf/; `themec new` writes one)\n",
              dirs.v[i]);
      free(real);
      goto done;
    }
    if (!themec_plain_name(name, strlen(name))) {
      fprintf(stderr,
              "themec: %s: a theme's name is its folder's, and '%s' has "
              "characters other than letters, digits, '_' and '-'\n",
              dirs.v[i], name);
      free(real);
      goto done;
    }
    for (size_t j = 0; j < names.len; j++)
      if (!strcmp(names.v[j], name)) {
        fprintf(stderr, "themec: two themes named '%s'\n", name);
        free(real);
        goto done;
      }
    themec_strlist_add(&names, oc_strdup(name));
    free(dirs.v[i]);
    dirs.v[i] = real;
  }
  if (dflt && strcmp(dflt, "clean")) {
    bool known = false;
    for (size_t j = 0; j < names.len && !known; j++)
      known = !strcmp(names.v[j], dflt);
    if (!known) {
      fprintf(stderr,
              "themec: --default %s: not one of the themes built, nor clean\n",
              dflt);
      goto done;
    }
  }
  if (!mkdtemp(tmp)) {
    fprintf(stderr, "themec: cannot create a temporary folder: %s\n",
            strerror(errno));
    goto done;
  }
  have_tmp = true;
  for (size_t i = 0; i < dirs.len; i++)
    if (build_theme(dirs.v[i], names.v[i], tmp, &files, &strings, entries,
                    &nentries) != 0)
      goto done;

  /* main.c: the registry of the added themes and publish's main. */
  themec_strlist lines = {0};
  themec_strlist_add(&lines,
                     oc_strdup("/* Generated by themec build: a publish with "
                               "themes added. */\n#include <stddef.h>\n\n"
                               "#include \"octavo_publish.h\"\n\n"));
  themec_registry_code(&lines, "octavo_added_themes", entries, nentries);
  char buf[512];
  /* dflt is a theme's name: letters, digits, '_' and '-' */
  snprintf(buf, sizeof buf,
           "\nint main(int argc, char **argv) {\n"
           "  return octavo_publish_main(argc, argv, octavo_added_themes,\n"
           "                             octavo_added_themes_n, %s%s%s);\n"
           "}\n",
           dflt ? "\"" : "", dflt ? dflt : "NULL", dflt ? "\"" : "");
  themec_strlist_add(&lines, oc_strdup(buf));
  char *main_code = themec_strlist_join(&lines);
  themec_strlist_free(&lines);
  char *main_path = themec_path_join(tmp, "main.c");
  themec_strlist_add(&files, main_path);
  int w = themec_write_atomic(main_path, main_code, strlen(main_code));
  free(main_code);
  if (w != 0)
    goto done;

  /* pkg-config finds the installed octavo.pc beside this themec first. */
  char *pcdir = installed(OCTAVO_REL_PKGCONFIGDIR);
  if (pcdir) {
    const char *old = getenv("PKG_CONFIG_PATH");
    size_t n = strlen(pcdir) + (old ? strlen(old) : 0) + 2;
    char *path = oc_malloc(n);
    snprintf(path, n, "%s%s%s", pcdir, old && *old ? ":" : "",
             old ? old : "");
    setenv("PKG_CONFIG_PATH", path, 1);
    free(path);
    free(pcdir);
  }
  if (system("command -v pkg-config >/dev/null") != 0) {
    fprintf(stderr, "themec: themec build needs pkg-config and a C compiler "
                    "(Debian: apt-get install pkg-config gcc libc6-dev)\n");
    goto done;
  }
  /* pkg-config says what is missing: octavo.pc, or a library's -dev
   * package that octavo.pc requires (the octavo package suggests them). */
  if (system("pkg-config --print-errors --exists octavo") != 0) {
    fprintf(stderr,
            "themec: pkg-config cannot use octavo.pc: run the themec of an "
            "installed Octavo (make install, or its Debian package with the "
            "-dev packages it suggests), or add the folder of octavo.pc to "
            "PKG_CONFIG_PATH\n");
    goto done;
  }
  const char *cc = getenv("CC");
  const char *cflags = getenv("CFLAGS");
  char *out_tmp = oc_malloc(strlen(out) + 16);
  sprintf(out_tmp, "%s.themec-tmp", out);
  char *q_out = sh_quote(out_tmp);
  themec_strlist cmd = {0};
  themec_strlist_add(&cmd, oc_strdup(cc && *cc ? cc : "cc"));
  themec_strlist_add(&cmd, oc_strdup(" "));
  themec_strlist_add(&cmd, oc_strdup(cflags && *cflags ? cflags : "-O2"));
  themec_strlist_add(&cmd, oc_strdup(" -o "));
  themec_strlist_add(&cmd, q_out);
  for (size_t i = 0; i < files.len; i++) {
    themec_strlist_add(&cmd, oc_strdup(" "));
    themec_strlist_add(&cmd, sh_quote(files.v[i]));
  }
  themec_strlist_add(
      &cmd, oc_strdup(" $(pkg-config --cflags --libs --static octavo)"));
  char *command = themec_strlist_join(&cmd);
  themec_strlist_free(&cmd);
  if (verbose)
    fprintf(stderr, "themec: %s\n", command);
  int st = system(command);
  free(command);
  if (st != 0) {
    fprintf(stderr, "themec: the C compiler failed (%s %d) linking %s\n",
            WIFEXITED(st) ? "exit status" : "status",
            WIFEXITED(st) ? WEXITSTATUS(st) : st, out);
    unlink(out_tmp);
  } else if (rename(out_tmp, out) != 0) {
    fprintf(stderr, "themec: cannot write %s: %s\n", out, strerror(errno));
    unlink(out_tmp);
  } else {
    rc = 0;
    printf("Wrote %s: publish with the bundled themes and", out);
    for (size_t i = 0; i < names.len; i++)
      printf("%s %s", i ? "," : "", names.v[i]);
    printf("%s%s.\n", dflt ? "; default theme " : "", dflt ? dflt : "");
  }
  free(out_tmp);
done:
  if (have_tmp)
    remove_tmp(tmp, &files);
  free(entries);
  themec_strlist_free(&dirs);
  themec_strlist_free(&names);
  themec_strlist_free(&files);
  themec_strlist_free(&strings);
  return rc;
}
