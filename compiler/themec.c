/* themec: the theme compiler. `compile` turns a folder of Twig templates into
 * C (tpl_cgen), `check` reports their errors, and `render` runs one template
 * through the interpreter. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oc_alloc.h"
#include "oc_file.h"
#include "themec.h"
#include "themec_set.h"
#include "tpl_cgen.h"
#include "tpl_interp.h"
#include "tpl_rt.h"

#define THEMEC_VERSION "0.1.0"

static const char usage_text[] =
    "usage: themec compile THEME_DIR... -o OUT.c [--prefix NAME] [--header "
    "OUT.h]\n"
    "                     [--autoescape html|js|css|url|html_attr|sh|false]\n"
    "       themec check THEME_DIR... [--theme THEME] [--format FORMAT]\n"
    "       themec new DIR [--from THEME]\n"
    "       themec build THEME_DIR... -o BINARY [--default THEME] [-v]\n"
    "       themec registry -o OUT.c [--symbol NAME] NAME:FORMAT:PREFIX...\n"
    "       themec render [-I DIR]... TEMPLATE [--data FILE]\n"
    "                     [--autoescape html|js|css|url|html_attr|sh|false]\n"
    "                     [--strict] [--seed N]\n"
    "       themec --help | --version\n";

static int usage(const char *msg) {
  if (msg)
    fprintf(stderr, "themec: %s\n", msg);
  fputs(usage_text, stderr);
  return 2;
}

/* ---- diagnostics -----------------------------------------------------------
 */

/* Prints a diagnostic with the path the user can open: a template name
 * becomes DIR/name for the first of dirs that holds it (the loader's own
 * search order), as gcc names files the way they were found. */
static void print_diag_in(const tpl_diag *d, const char *const *dirs,
                          size_t ndirs) {
  tpl_diag shown = *d;
  for (size_t i = 0; i < ndirs && d->file[0] && d->file[0] != '/'; i++) {
    char path[PATH_MAX];
    int n = snprintf(path, sizeof path, "%s/%s", dirs[i], d->file);
    if (n <= 0 || (size_t)n >= sizeof shown.file || access(path, R_OK) != 0)
      continue;
    if (strcmp(dirs[i], ".") != 0)
      memcpy(shown.file, path, (size_t)n + 1);
    break;
  }
  tpl_diag_print(stderr, &shown);
}

/* Prints each diagnostic of the set once (a template of a theme's common/
 * is checked with every format: its errors are said once), naming files
 * by the folders they were found in. */
static void unitset_print_diags(themec_set *s, char *const *dirs,
                                size_t ndirs, themec_strlist *said) {
  for (size_t i = 0; i < s->n; i++) {
    themec_unit *u = &s->u[i];
    size_t shown = u->ndiags < THEMEC_MAX_DIAGS ? u->ndiags : THEMEC_MAX_DIAGS;
    for (size_t k = 0; k < shown; k++) {
      const tpl_diag *d = &u->diags[k];
      char key[sizeof d->file + sizeof d->message + 64];
      snprintf(key, sizeof key, "%s:%u:%u:%s", d->file, d->line, d->col,
               d->message);
      bool dup = false;
      for (size_t j = 0; said && j < said->len && !dup; j++)
        dup = !strcmp(said->v[j], key);
      if (dup)
        continue;
      if (said)
        themec_strlist_add(said, oc_strdup(key));
      print_diag_in(d, (const char *const *)dirs, ndirs);
    }
    if (u->ndiags > shown)
      fprintf(stderr, "%s: %zu more errors not shown\n", u->name,
              u->ndiags - shown);
    if (u->state == THEMEC_FAILED && u->ndiags == 0)
      fprintf(stderr, "%s: error: the template could not be parsed\n", u->name);
  }
}

/* ---- a theme folder ------------------------------------------------------ */

typedef struct theme {
  themec_strlist names;   /* relative, sorted */
  themec_strlist sources; /* file contents */
  themec_strlist paths; /* for #line: under the working folder when possible */
  themec_set set;
} theme;

static void theme_free(theme *t) {
  themec_strlist_free(&t->names);
  themec_strlist_free(&t->sources);
  themec_strlist_free(&t->paths);
  themec_set_free(&t->set);
}

/* The folder as `#line` should name it: relative to the working folder when
 * it lies below it, so that generated files do not depend on where the
 * source tree is checked out. */
static char *display_dir(const char *dir) {
  char cwd[PATH_MAX], real[PATH_MAX];
  if (getcwd(cwd, sizeof cwd) && realpath(dir, real)) {
    size_t n = strlen(cwd);
    if (!strcmp(real, cwd))
      return oc_strdup(".");
    if (!strncmp(real, cwd, n) && real[n] == '/')
      return oc_strdup(real + n + 1);
  }
  size_t n = strlen(dir);
  char *p = oc_strdup(dir);
  while (n > 1 && p[n - 1] == '/')
    p[--n] = 0;
  return p;
}

/* Loads the templates of one or more folders as one set; a name in an
 * earlier folder hides the same name in later ones (a theme's format folder
 * over its shared one). autoescape < 0: each template's strategy by name. */
static int theme_load_dirs(theme *t, char *const *dirs, size_t ndirs,
                           int autoescape) {
  memset(t, 0, sizeof *t);
  for (size_t k = 0; k < ndirs; k++) {
    struct stat st;
    if (stat(dirs[k], &st) != 0 || !S_ISDIR(st.st_mode)) {
      fprintf(stderr, "themec: %s: not a folder\n", dirs[k]);
      return -1;
    }
  }
  /* names holds "NAME\0" + the folder's index in one byte after the NUL,
   * so that sorting keeps each name with the folder it came from. */
  themec_strlist found = {0};
  for (size_t k = 0; k < ndirs; k++) {
    themec_strlist one = {0};
    if (themec_collect(dirs[k], "", ".twig", &one) != 0) {
      themec_strlist_free(&one);
      themec_strlist_free(&found);
      return -1;
    }
    for (size_t i = 0; i < one.len; i++) {
      bool shadowed = false;
      for (size_t j = 0; j < found.len && !shadowed; j++)
        shadowed = !strcmp(found.v[j], one.v[i]);
      if (shadowed)
        continue;
      size_t n = strlen(one.v[i]);
      char *e = oc_malloc(n + 2);
      themec_strlist_add(&found, e);
      memcpy(e, one.v[i], n + 1);
      e[n + 1] = (char)k;
    }
    themec_strlist_free(&one);
  }
  themec_strlist_sort(&found);
  size_t *from = oc_calloc(found.len, sizeof *from);
  for (size_t i = 0; i < found.len; i++)
    from[i] = (unsigned char)found.v[i][strlen(found.v[i]) + 1];
  t->names = found;
  char **shown_dirs = oc_calloc(ndirs, sizeof *shown_dirs);
  int rc = -1;
  for (size_t k = 0; k < ndirs; k++)
    shown_dirs[k] = display_dir(dirs[k]);
  themec_set_init(&t->set, t->names.len);
  for (size_t i = 0; i < t->names.len; i++) {
    const char *dir = dirs[from[i]], *shown = shown_dirs[from[i]];
    char *full = themec_path_join(dir, t->names.v[i]);
    size_t len = 0;
    char *src = oc_read_file(full, &len);
    if (!src) {
      fprintf(stderr, "themec: cannot read %s: %s\n", full, strerror(errno));
      free(full);
      goto out;
    }
    free(full);
    themec_strlist_add(&t->sources, src);
    themec_strlist_add(&t->paths, strcmp(shown, ".")
                                      ? themec_path_join(shown, t->names.v[i])
                                      : oc_strdup(t->names.v[i]));
    themec_unit *u = &t->set.u[i];
    u->name = t->names.v[i];
    u->source = src;
    u->len = len;
    u->autoescape =
        autoescape >= 0 ? (tpl_escape)autoescape : tpl_escape_for_name(u->name);
  }
  rc = 0;
out:
  for (size_t k = 0; k < ndirs; k++)
    free(shown_dirs[k]);
  free(shown_dirs);
  free(from);
  return rc;
}

/* ---- themec check / compile ------------------------------------------- */

size_t themec_format_dirs(const char *theme_dir, const char *format,
                          char **dirs) {
  size_t n = 0;
  const char *subs[] = {format, "common", "contents"};
  for (size_t i = 0; i < 3; i++) {
    char *p = themec_path_join(theme_dir, subs[i]);
    struct stat st;
    if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
      dirs[n++] = p;
    else
      free(p);
  }
  return n;
}

static void free_dirs(char **dirs, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(dirs[i]);
}

/* Loads and parses one set, printing its errors; the number that failed,
 * or 1 when the folders cannot be read. */
static size_t check_set(theme *t, char **dirs, size_t ndirs, themec_set *base,
                        themec_strlist *said) {
  if (theme_load_dirs(t, dirs, ndirs, -1) != 0)
    return 1;
  t->set.theme_names = true;
  t->set.theme = base;
  size_t failed = themec_set_parse(&t->set);
  unitset_print_diags(&t->set, dirs, ndirs, said);
  return failed;
}

/* The format a book's template folder is for, from its name
 * (Resources/Templates/pdf), or NULL. */
static const char *format_of_folder(const char *dir) {
  char *real = realpath(dir, NULL);
  const char *base = real ? themec_base_name(real) : dir;
  const char *f = NULL;
  for (size_t i = 0; i < themec_nformats && !f; i++)
    if (!strcmp(base, themec_formats[i]))
      f = themec_formats[i];
  if (!strcmp(base, "htmlchunked"))
    f = "html_chunked";
  if (!strcmp(base, "mobi"))
    f = "epub";
  free(real);
  return f;
}

/* themec check THEME_DIR: every format of a theme folder, `@theme/` names
 * within the theme. themec check DIR... --theme THEME [--format F]: a
 * book's template folders over a theme (a bundled theme's name or a theme
 * folder), `@theme/` names in the theme. Without --theme, plain folders of
 * templates, each name within the set. */
static int cmd_check(int argc, char **argv) {
  char *dirs[16];
  size_t ndirs = 0;
  const char *theme_arg = NULL, *format = NULL;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--theme") && i + 1 < argc)
      theme_arg = argv[++i];
    else if (!strcmp(argv[i], "--format") && i + 1 < argc)
      format = argv[++i];
    else if (argv[i][0] != '-' && ndirs < 16)
      dirs[ndirs++] = argv[i];
    else
      return usage(NULL);
  }
  if (!ndirs)
    return usage("check takes THEME_DIR...");
  themec_strlist said = {0};
  size_t failed = 0;
  if (!theme_arg) {
    bool themes = true;
    for (size_t i = 0; i < ndirs; i++)
      themes = themes && themec_is_theme_dir(dirs[i]);
    for (size_t i = 0; themes && i < ndirs; i++)
      for (size_t f = 0; f < themec_nformats; f++) {
        char *fd[3];
        size_t n = themec_format_dirs(dirs[i], themec_formats[f], fd);
        if (n && !strcmp(themec_base_name(fd[0]), themec_formats[f])) {
          theme t;
          failed += check_set(&t, fd, n, NULL, &said);
          theme_free(&t);
        }
        free_dirs(fd, n);
      }
    if (!themes) {
      theme t;
      failed += check_set(&t, dirs, ndirs, NULL, &said);
      theme_free(&t);
    }
    themec_strlist_free(&said);
    return failed ? 1 : 0;
  }
  if (!format)
    format = format_of_folder(dirs[0]);
  if (!format) {
    themec_strlist_free(&said);
    return usage("--theme needs --format (html, html_chunked, epub or pdf) "
                 "when the folder is not named after one");
  }
  char *theme_dir = themec_find_theme(theme_arg);
  if (!theme_dir) {
    themec_strlist_free(&said);
    return 1;
  }
  char *bd[3];
  size_t nb = themec_format_dirs(theme_dir, format, bd);
  theme base, own;
  memset(&own, 0, sizeof own);
  if (!nb || strcmp(themec_base_name(bd[0]), format)) {
    fprintf(stderr, "themec: %s has no %s/ folder\n", theme_dir, format);
    failed = 1;
    memset(&base, 0, sizeof base);
  } else {
    failed += check_set(&base, bd, nb, NULL, &said);
    failed += check_set(&own, dirs, ndirs, &base.set, &said);
  }
  theme_free(&own);
  theme_free(&base);
  free_dirs(bd, nb);
  free(theme_dir);
  themec_strlist_free(&said);
  return failed ? 1 : 0;
}

static char *default_prefix(const char *dir) {
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/')
    n--;
  size_t start = n;
  while (start > 0 && dir[start - 1] != '/')
    start--;
  const char *pre = "octavo_theme_";
  char *p = oc_malloc(strlen(pre) + (n - start) + 1);
  size_t j = strlen(pre);
  memcpy(p, pre, j);
  for (size_t i = start; i < n; i++) {
    char c = dir[i];
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_';
    p[j++] = ok ? c : '_';
  }
  p[j] = 0;
  return p;
}

static int cmd_compile(int argc, char **argv) {
  const char *dir = NULL, *out = NULL, *header = NULL, *prefix_arg = NULL;
  char *dirs[16];
  size_t ndirs = 0;
  int autoescape = -1;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "-o") && i + 1 < argc)
      out = argv[++i];
    else if (!strcmp(argv[i], "--header") && i + 1 < argc)
      header = argv[++i];
    else if (!strcmp(argv[i], "--prefix") && i + 1 < argc)
      prefix_arg = argv[++i];
    else if (!strcmp(argv[i], "--autoescape") && i + 1 < argc) {
      const char *s = argv[++i];
      tpl_escape e;
      if (!strcmp(s, "false"))
        autoescape = TPL_ESC_NONE;
      else if (tpl_escape_by_name(s, strlen(s), &e))
        autoescape = (int)e;
      else
        return usage("--autoescape takes html, js, css, url, html_attr, sh or "
                     "false");
    } else if (argv[i][0] != '-' && ndirs < 16)
      dirs[ndirs++] = argv[i];
    else
      return usage(NULL);
  }
  dir = ndirs ? dirs[0] : NULL;
  if (!dir || !out)
    return usage("compile needs THEME_DIR and -o OUT.c");
  if (prefix_arg && !tpl_cgen_is_ident(prefix_arg))
    return usage("--prefix must be a C identifier");
  char *prefix = prefix_arg ? oc_strdup(prefix_arg) : default_prefix(dir);
  int rc = 1;
  char *code = NULL, *hdr = NULL;
  size_t len;
  if (themec_compile_dirs(dirs, ndirs, autoescape, prefix,
                          themec_base_name(out),
                          header ? themec_base_name(header) : NULL, &code,
                          &len) != 0)
    goto done;
  if (header) {
    char *desc = display_dir(dir);
    hdr = tpl_cgen_header(prefix, desc);
    free(desc);
    if (themec_write_atomic(header, hdr, strlen(hdr)) != 0)
      goto done;
  }
  if (themec_write_atomic(out, code, len) != 0)
    goto done;
  rc = 0;
done:
  free(code);
  free(hdr);
  free(prefix);
  return rc;
}

int themec_compile_dirs(char *const *dirs, size_t ndirs, int autoescape,
                        const char *prefix, const char *out_name,
                        const char *header_name, char **code, size_t *len) {
  theme t;
  int rc = -1;
  tpl_cgen *g = NULL;
  *code = NULL;
  if (theme_load_dirs(&t, dirs, ndirs, autoescape) != 0)
    goto done;
  if (themec_set_parse(&t.set) != 0) {
    unitset_print_diags(&t.set, dirs, ndirs, NULL);
    goto done;
  }
  g = tpl_cgen_new(out_name, header_name ? 1 : 0, &header_name);
  const tpl_ast_template **asts = oc_calloc(t.set.n, sizeof *asts);
  for (size_t i = 0; i < t.set.n; i++)
    asts[i] = t.set.u[i].ast;
  tpl_cgen_add_registry(g, prefix, t.set.n, asts,
                        (const char *const *)t.paths.v, NULL, false);
  free(asts);
  *code = tpl_cgen_finish(g, len);
  rc = 0;
done:
  theme_free(&t);
  tpl_cgen_free(g);
  return rc;
}

/* ---- themec registry ---------------------------------------------------- */

/* The C of a registry: a table of tpl_theme named `symbol` and its length
 * `symbol`_n... as publish reads them (runtime/book/book_themes.c). */
void themec_registry_code(themec_strlist *out_lines, const char *symbol,
                          const themec_reg_entry *e, size_t n) {
  char buf[1024];
#define LINE(...)                                                              \
  do {                                                                         \
    snprintf(buf, sizeof buf, __VA_ARGS__);                                    \
    themec_strlist_add(out_lines, oc_strdup(buf));                             \
  } while (0)
  for (size_t i = 0; i < n; i++) {
    LINE("extern const tpl_template *const %s_templates[];\n", e[i].prefix);
    LINE("extern const size_t %s_ntemplates;\n", e[i].prefix);
  }
  LINE("\nconst tpl_theme %s[] = {\n", symbol);
  for (size_t i = 0; i < n; i++)
    LINE("    {\"%s\", \"%s\", %s_templates, &%s_ntemplates},\n", e[i].name,
         e[i].format, e[i].prefix, e[i].prefix);
  if (!n)
    LINE("    {0},\n");
  LINE("};\nconst size_t %s_n = %zu;\n", symbol, n);
#undef LINE
}

char *themec_strlist_join(const themec_strlist *l) {
  size_t n = 1;
  for (size_t i = 0; i < l->len; i++)
    n = oc_size_add(n, strlen(l->v[i]));
  char *s = oc_malloc(n), *p = s;
  for (size_t i = 0; i < l->len; i++) {
    size_t k = strlen(l->v[i]);
    memcpy(p, l->v[i], k);
    p += k;
  }
  *p = 0;
  return s;
}

/* A theme or format name as registries hold them: letters, digits, `_`
 * and `-` (names of folders and of edition formats). */
bool themec_plain_name(const char *s, size_t n) {
  if (!n)
    return false;
  for (size_t i = 0; i < n; i++)
    if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
          (s[i] >= '0' && s[i] <= '9') || s[i] == '_' || s[i] == '-'))
      return false;
  return true;
}

/* themec registry -o OUT.c [--symbol SYM] NAME:FORMAT:PREFIX...: the
 * table of the themes compiled into publish (themes/CMakeLists.txt). */
static int cmd_registry(int argc, char **argv) {
  const char *out = NULL, *symbol = "octavo_bundled_themes";
  themec_reg_entry *e = oc_calloc((size_t)argc + 1, sizeof *e);
  themec_strlist parts = {0};
  size_t n = 0;
  int rc = 2;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "-o") && i + 1 < argc) {
      out = argv[++i];
      continue;
    }
    if (!strcmp(argv[i], "--symbol") && i + 1 < argc) {
      symbol = argv[++i];
      continue;
    }
    char *spec = oc_strdup(argv[i]);
    themec_strlist_add(&parts, spec);
    char *c1 = strchr(spec, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c2 || !themec_plain_name(spec, (size_t)(c1 - spec)) ||
        !themec_plain_name(c1 + 1, (size_t)(c2 - c1 - 1)) ||
        !tpl_cgen_is_ident(c2 + 1)) {
      rc = usage("registry takes NAME:FORMAT:PREFIX entries");
      goto done;
    }
    *c1 = *c2 = 0;
    e[n++] = (themec_reg_entry){spec, c1 + 1, c2 + 1};
  }
  if (!out || !tpl_cgen_is_ident(symbol)) {
    rc = usage("registry needs -o OUT.c (and --symbol a C identifier)");
    goto done;
  }
  themec_strlist lines = {0};
  themec_strlist_add(&lines,
                     oc_strdup("/* Generated by themec registry: do not edit. "
                               "The themes compiled into publish. */\n"
                               "#include <stddef.h>\n\n#include \"tpl_rt.h\"\n\n"));
  themec_registry_code(&lines, symbol, e, n);
  char *code = themec_strlist_join(&lines);
  themec_strlist_free(&lines);
  rc = themec_write_atomic(out, code, strlen(code)) == 0 ? 0 : 1;
  free(code);
done:
  themec_strlist_free(&parts);
  free(e);
  return rc;
}

/* ---- themec render ----------------------------------------------------- */

static int cmd_render(int argc, char **argv) {
  const char *tpl = NULL, *data_path = NULL;
  int autoescape = -1;
  bool strict = false, has_seed = false;
  uint64_t seed = 0;
  themec_strlist includes = {0};
  int rc = 2;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "-I") && i + 1 < argc) {
      themec_strlist_add(&includes, oc_strdup(argv[++i]));
    } else if (!strncmp(argv[i], "-I", 2) && argv[i][2]) {
      themec_strlist_add(&includes, oc_strdup(argv[i] + 2));
    } else if (!strcmp(argv[i], "--data") && i + 1 < argc) {
      data_path = argv[++i];
    } else if (!strcmp(argv[i], "--autoescape") && i + 1 < argc) {
      const char *s = argv[++i];
      tpl_escape e;
      if (!strcmp(s, "false") || !strcmp(s, "none"))
        autoescape = TPL_ESC_NONE;
      else if (!strcmp(s, "name"))
        autoescape = -1;
      else if (tpl_escape_by_name(s, strlen(s), &e))
        autoescape = (int)e;
      else {
        rc = usage("--autoescape takes html, js, css, url, html_attr, sh or "
                   "false");
        goto done;
      }
    } else if (!strcmp(argv[i], "--strict")) {
      strict = true;
    } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
      char *end;
      errno = 0;
      seed = strtoull(argv[++i], &end, 10);
      if (errno || *end || !argv[i][0]) {
        rc = usage("--seed takes a number");
        goto done;
      }
      has_seed = true;
    } else if (argv[i][0] != '-' && !tpl) {
      tpl = argv[i];
    } else {
      rc = usage(NULL);
      goto done;
    }
  }
  if (!tpl) {
    rc = usage("render needs a TEMPLATE");
    goto done;
  }
  rc = 1;
  if (access(tpl, R_OK) != 0) {
    fprintf(stderr, "%s: error: cannot read: %s\n", tpl, strerror(errno));
    goto done;
  }
  char *dir = oc_strdup(tpl);
  char *slash = strrchr(dir, '/');
  if (slash == dir)
    dir[1] = 0;
  else if (slash)
    *slash = 0;
  else
    strcpy(dir, ".");

  tpl_env *env = tpl_env_new();
  tpl_env_set_autoescape(env, autoescape);
  tpl_env_set_strict(env, strict);
  if (has_seed)
    tpl_env_set_random_seed(env, seed);
  tpl_loader *loader = tpl_loader_new(env);
  tpl_loader_add_dir(loader, dir);
  for (size_t i = 0; i < includes.len; i++)
    tpl_loader_add_dir(loader, includes.v[i]);
  /* The same folders, in the same order, to name files in messages. */
  const char **dirs = oc_reallocarray(NULL, includes.len + 1, sizeof *dirs);
  dirs[0] = dir;
  for (size_t i = 0; i < includes.len; i++)
    dirs[i + 1] = includes.v[i];

  tpl_value data = tpl_null();
  tpl_diag diag;
  if (data_path &&
      tpl_data_load(tpl_env_arena(env), data_path, &data, &diag) != 0) {
    tpl_diag_print(stderr, &diag);
    free(dirs);
    free(dir);
    tpl_env_free(env);
    goto done;
  }
  char *out;
  size_t out_len;
  if (tpl_render(env, themec_base_name(tpl), data, &out, &out_len, &diag) !=
      0) {
    print_diag_in(&diag, dirs, includes.len + 1);
  } else {
    if (fwrite(out, 1, out_len, stdout) == out_len && fflush(stdout) == 0)
      rc = 0;
    else
      fprintf(stderr, "themec: cannot write the output: %s\n", strerror(errno));
    free(out);
  }
  free(dirs);
  free(dir);
  tpl_env_free(env);
done:
  themec_strlist_free(&includes);
  return rc;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return usage(NULL);
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
    fputs(usage_text, stdout);
    return 0;
  }
  if (!strcmp(cmd, "--version")) {
    printf("themec (octavo) %s\n", THEMEC_VERSION);
    return 0;
  }
  if (!strcmp(cmd, "compile"))
    return cmd_compile(argc - 2, argv + 2);
  if (!strcmp(cmd, "check"))
    return cmd_check(argc - 2, argv + 2);
  if (!strcmp(cmd, "render"))
    return cmd_render(argc - 2, argv + 2);
  if (!strcmp(cmd, "registry"))
    return cmd_registry(argc - 2, argv + 2);
  if (!strcmp(cmd, "new"))
    return themec_cmd_new(argc - 2, argv + 2);
  if (!strcmp(cmd, "build"))
    return themec_cmd_build(argc - 2, argv + 2);
  return usage("unknown command");
}
