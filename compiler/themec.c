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
#include "themec_set.h"
#include "tpl_cgen.h"
#include "tpl_interp.h"
#include "tpl_rt.h"

#define THEMEC_VERSION "0.1.0"

static const char usage_text[] =
    "usage: themec compile THEME_DIR... -o OUT.c [--prefix NAME] [--header "
    "OUT.h]\n"
    "                     [--autoescape html|js|css|url|html_attr|sh|false]\n"
    "       themec check THEME_DIR...\n"
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

static void unitset_print_diags(themec_set *s, const char *dir) {
  for (size_t i = 0; i < s->n; i++) {
    themec_unit *u = &s->u[i];
    size_t shown = u->ndiags < THEMEC_MAX_DIAGS ? u->ndiags : THEMEC_MAX_DIAGS;
    for (size_t k = 0; k < shown; k++)
      print_diag_in(&u->diags[k], &dir, 1);
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

static int cmd_check(int argc, char **argv) {
  if (argc < 1)
    return usage("check takes THEME_DIR...");
  theme t;
  int rc = 1;
  if (theme_load_dirs(&t, argv, (size_t)argc, -1) == 0) {
    size_t failed = themec_set_parse(&t.set);
    unitset_print_diags(&t.set, argv[0]);
    rc = failed ? 1 : 0;
  }
  theme_free(&t);
  return rc;
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
  theme t;
  int rc = 1;
  char *code = NULL, *hdr = NULL;
  tpl_cgen *g = NULL;
  if (theme_load_dirs(&t, dirs, ndirs, autoescape) != 0)
    goto done;
  if (themec_set_parse(&t.set) != 0) {
    unitset_print_diags(&t.set, dir);
    goto done;
  }
  const char *hbase = header ? themec_base_name(header) : NULL;
  g = tpl_cgen_new(themec_base_name(out), hbase ? 1 : 0, &hbase);
  const tpl_ast_template **asts = oc_calloc(t.set.n, sizeof *asts);
  for (size_t i = 0; i < t.set.n; i++)
    asts[i] = t.set.u[i].ast;
  size_t len;
  tpl_cgen_add_registry(g, prefix, t.set.n, asts,
                        (const char *const *)t.paths.v, NULL, false);
  free(asts);
  code = tpl_cgen_finish(g, &len);
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
  theme_free(&t);
  tpl_cgen_free(g);
  free(code);
  free(hdr);
  free(prefix);
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
  return usage("unknown command");
}
