/* themec: the theme compiler. `compile` turns a folder of Twig templates into
 * C (tpl_cgen), `check` reports their errors, `render` runs one template
 * through the interpreter, and `compile-cases` compiles the test suite. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tpl_case.h"
#include "tpl_cgen.h"
#include "tpl_interp.h"
#include "tpl_rt.h"

#define THEMEC_VERSION "0.1.0"
#define MAX_DIAGS 64

static const char usage_text[] =
    "usage: themec compile THEME_DIR... -o OUT.c [--prefix NAME] [--header "
    "OUT.h]\n"
    "                     [--autoescape html|js|css|url|html_attr|false]\n"
    "       themec check THEME_DIR...\n"
    "       themec render [-I DIR]... TEMPLATE [--data FILE]\n"
    "                     [--autoescape html|js|css|url|html_attr|false]\n"
    "                     [--strict] [--seed N]\n"
    "       themec compile-cases CASES_DIR -o OUT.c\n"
    "       themec --help | --version\n";

static int usage(const char *msg) {
  if (msg)
    fprintf(stderr, "themec: %s\n", msg);
  fputs(usage_text, stderr);
  return 2;
}

/* ---- small helpers ----------------------------------------------------- */

static char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p)
    memcpy(p, s, n);
  return p;
}

/* a + "/" + b, malloc'd. */
static char *path_join(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  while (la > 1 && a[la - 1] == '/')
    la--;
  char *p = malloc(la + lb + 2);
  if (!p)
    return NULL;
  memcpy(p, a, la);
  p[la] = '/';
  memcpy(p + la + 1, b, lb + 1);
  return p;
}

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* Reads a whole file (malloc'd, NUL-terminated). */

/* Writes data to path through a temporary file renamed into place, so that
 * a failed run never leaves a half-written output behind. */
static int write_atomic(const char *path, const char *data, size_t len) {
  char *tmp = malloc(strlen(path) + 16);
  if (!tmp)
    return -1;
  sprintf(tmp, "%s.tmpXXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    fprintf(stderr, "themec: cannot create %s: %s\n", tmp, strerror(errno));
    free(tmp);
    return -1;
  }
  FILE *f = fdopen(fd, "wb");
  bool ok = f && fwrite(data, 1, len, f) == len;
  if (f)
    ok = fclose(f) == 0 && ok;
  else
    close(fd);
  if (ok)
    ok = chmod(tmp, 0644) == 0;
  if (!ok || rename(tmp, path) != 0) {
    fprintf(stderr, "themec: cannot write %s: %s\n", path, strerror(errno));
    unlink(tmp);
    free(tmp);
    return -1;
  }
  free(tmp);
  return 0;
}

static int cmp_strp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct strlist {
  char **v;
  size_t len, cap;
} strlist;

static int strlist_add(strlist *l, char *s) {
  if (!s)
    return -1;
  if (l->len == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 32;
    char **v = realloc(l->v, cap * sizeof *v);
    if (!v) {
      free(s);
      return -1;
    }
    l->v = v;
    l->cap = cap;
  }
  l->v[l->len++] = s;
  return 0;
}

static void strlist_free(strlist *l) {
  for (size_t i = 0; i < l->len; i++)
    free(l->v[i]);
  free(l->v);
  memset(l, 0, sizeof *l);
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

/* Every file under root/rel ending in suffix, as paths relative to root. */
static int collect(const char *root, const char *rel, const char *suffix,
                   strlist *out) {
  char *dir = rel[0] ? path_join(root, rel) : xstrdup(root);
  if (!dir)
    return -1;
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "themec: cannot read %s: %s\n", dir, strerror(errno));
    free(dir);
    return -1;
  }
  int rc = 0;
  struct dirent *e;
  while (rc == 0 && (e = readdir(d))) {
    if (e->d_name[0] == '.')
      continue;
    char *r = rel[0] ? path_join(rel, e->d_name) : xstrdup(e->d_name);
    char *full = path_join(root, r ? r : "");
    struct stat st;
    if (!r || !full) {
      rc = -1;
    } else if (stat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
      rc = collect(root, r, suffix, out);
    } else if (ends_with(r, suffix)) {
      rc = strlist_add(out, r);
      r = NULL;
    }
    free(r);
    free(full);
  }
  closedir(d);
  free(dir);
  return rc;
}

/* ---- parsing a set of templates ------------------------------------------ */

enum { ST_UNPARSED, ST_PARSING, ST_OK, ST_FAILED };

typedef struct unit {
  const char *name; /* template name */
  const char *source;
  size_t len;
  int state;
  tpl_escape autoescape;
  tpl_ast_template *ast;
  tpl_diag *diags;
  size_t ndiags; /* all of them; at most MAX_DIAGS kept */
} unit;

typedef struct unitset {
  oc_arena *arena;
  unit *u;
  size_t n; /* sorted by name */
} unitset;

static unit *unit_find(unitset *s, const char *name, size_t len) {
  size_t lo = 0, hi = s->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    const char *m = s->u[mid].name;
    size_t ml = strlen(m);
    int c = memcmp(m, name, ml < len ? ml : len);
    if (c == 0)
      c = ml < len ? -1 : ml > len ? 1 : 0;
    if (c == 0)
      return &s->u[mid];
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return NULL;
}

static void unit_parse(unitset *s, unit *u);

/* An empty stand-in for a template that exists but is being parsed (a
 * cycle of includes is legal) or failed (its own errors are reported). */
static const tpl_ast_template *placeholder(unitset *s, unit *u) {
  tpl_ast_template *t = oc_arena_calloc(s->arena, 1, sizeof *t);
  tpl_node *body = oc_arena_calloc(s->arena, 1, sizeof *body);
  body->kind = TPL_N_BODY;
  t->name = u->name;
  t->source = u->source;
  t->source_len = u->len;
  t->autoescape = u->autoescape;
  t->body = body;
  return t;
}

/* The front end's view of the other templates of the set. */
static const tpl_ast_template *unit_load(void *data, const char *name,
                                         size_t len) {
  unitset *s = data;
  unit *u = unit_find(s, name, len);
  if (!u)
    return NULL;
  if (u->state == ST_UNPARSED)
    unit_parse(s, u);
  if (u->state == ST_OK)
    return u->ast;
  return placeholder(s, u);
}

static void unit_parse(unitset *s, unit *u) {
  u->state = ST_PARSING;
  u->diags = calloc(MAX_DIAGS, sizeof *u->diags);
  if (!u->diags) {
    u->state = ST_FAILED;
    return;
  }
  tpl_parse_opts opts = {unit_load, s, u->autoescape};
  u->ast = tpl_parse(s->arena, u->name, u->source, u->len, &opts, u->diags,
                     MAX_DIAGS, &u->ndiags);
  u->state = u->ast && u->ndiags == 0 ? ST_OK : ST_FAILED;
}

/* Parses every unit; returns the number that failed. */
static size_t unitset_parse(unitset *s) {
  for (size_t i = 0; i < s->n; i++)
    if (s->u[i].state == ST_UNPARSED)
      unit_parse(s, &s->u[i]);
  size_t failed = 0;
  for (size_t i = 0; i < s->n; i++)
    failed += s->u[i].state != ST_OK;
  return failed;
}

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

static void unitset_print_diags(unitset *s, const char *dir) {
  for (size_t i = 0; i < s->n; i++) {
    unit *u = &s->u[i];
    size_t shown = u->ndiags < MAX_DIAGS ? u->ndiags : MAX_DIAGS;
    for (size_t k = 0; k < shown; k++)
      print_diag_in(&u->diags[k], &dir, 1);
    if (u->ndiags > shown)
      fprintf(stderr, "%s: %zu more errors not shown\n", u->name,
              u->ndiags - shown);
    if (u->state == ST_FAILED && u->ndiags == 0)
      fprintf(stderr, "%s: error: the template could not be parsed\n", u->name);
  }
}

static void unitset_free(unitset *s) {
  for (size_t i = 0; i < s->n; i++)
    free(s->u[i].diags);
  free(s->u);
  if (s->arena)
    oc_arena_free(s->arena);
  memset(s, 0, sizeof *s);
}

/* ---- a theme folder ------------------------------------------------------ */

typedef struct theme {
  strlist names;   /* relative, sorted */
  strlist sources; /* file contents */
  strlist paths;   /* for #line: under the working folder when possible */
  unitset set;
} theme;

static void theme_free(theme *t) {
  strlist_free(&t->names);
  strlist_free(&t->sources);
  strlist_free(&t->paths);
  unitset_free(&t->set);
}

/* The folder as `#line` should name it: relative to the working folder when
 * it lies below it, so that generated files do not depend on where the
 * source tree is checked out. */
static char *display_dir(const char *dir) {
  char cwd[PATH_MAX], real[PATH_MAX];
  if (getcwd(cwd, sizeof cwd) && realpath(dir, real)) {
    size_t n = strlen(cwd);
    if (!strcmp(real, cwd))
      return xstrdup(".");
    if (!strncmp(real, cwd, n) && real[n] == '/')
      return xstrdup(real + n + 1);
  }
  size_t n = strlen(dir);
  char *p = xstrdup(dir);
  while (p && n > 1 && p[n - 1] == '/')
    p[--n] = 0;
  return p;
}

/* Loads the templates of one or more folders as one set; a name in an
 * earlier folder hides the same name in later ones (a theme's format folder
 * over its shared one). autoescape < 0: each template's strategy by name. */
static int theme_load_dirs(theme *t, char *const *dirs, size_t ndirs,
                           int autoescape);

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
  strlist found = {0};
  for (size_t k = 0; k < ndirs; k++) {
    strlist one = {0};
    if (collect(dirs[k], "", ".twig", &one) != 0) {
      strlist_free(&one);
      strlist_free(&found);
      return -1;
    }
    for (size_t i = 0; i < one.len; i++) {
      bool shadowed = false;
      for (size_t j = 0; j < found.len && !shadowed; j++)
        shadowed = !strcmp(found.v[j], one.v[i]);
      if (shadowed)
        continue;
      size_t n = strlen(one.v[i]);
      char *e = malloc(n + 2);
      if (!e || strlist_add(&found, e) != 0) {
        free(e);
        strlist_free(&one);
        strlist_free(&found);
        return -1;
      }
      memcpy(e, one.v[i], n + 1);
      e[n + 1] = (char)k;
    }
    strlist_free(&one);
  }
  if (found.len)
    qsort(found.v, found.len, sizeof *found.v, cmp_strp);
  size_t *from = calloc(found.len ? found.len : 1, sizeof *from);
  if (!from) {
    strlist_free(&found);
    return -1;
  }
  for (size_t i = 0; i < found.len; i++)
    from[i] = (unsigned char)found.v[i][strlen(found.v[i]) + 1];
  t->names = found;
  char **shown_dirs = calloc(ndirs, sizeof *shown_dirs);
  if (!shown_dirs) {
    free(from);
    return -1;
  }
  int rc = -1;
  for (size_t k = 0; k < ndirs; k++)
    if (!(shown_dirs[k] = display_dir(dirs[k])))
      goto out;
  t->set.arena = oc_arena_new();
  t->set.u = calloc(t->names.len ? t->names.len : 1, sizeof *t->set.u);
  if (!t->set.u)
    goto out;
  t->set.n = t->names.len;
  for (size_t i = 0; i < t->names.len; i++) {
    const char *dir = dirs[from[i]], *shown = shown_dirs[from[i]];
    char *full = path_join(dir, t->names.v[i]);
    size_t len = 0;
    char *src = full ? oc_read_file(full, &len) : NULL;
    if (!src) {
      fprintf(stderr, "themec: cannot read %s: %s\n",
              full ? full : t->names.v[i], strerror(errno));
      free(full);
      goto out;
    }
    free(full);
    if (strlist_add(&t->sources, src) != 0 ||
        strlist_add(&t->paths, strcmp(shown, ".")
                                   ? path_join(shown, t->names.v[i])
                                   : xstrdup(t->names.v[i])) != 0)
      goto out;
    unit *u = &t->set.u[i];
    u->name = t->names.v[i];
    u->source = src;
    u->len = len;
    u->autoescape = autoescape >= 0 ? (tpl_escape)autoescape
                                    : tpl_escape_for_name(u->name);
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
    size_t failed = unitset_parse(&t.set);
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
  char *p = malloc(strlen(pre) + (n - start) + 1);
  if (!p)
    return NULL;
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
        return usage("--autoescape takes html, js, css, url, html_attr or "
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
  char *prefix = prefix_arg ? xstrdup(prefix_arg) : default_prefix(dir);
  theme t;
  int rc = 1;
  char *code = NULL, *hdr = NULL;
  tpl_cgen *g = NULL;
  if (!prefix || theme_load_dirs(&t, dirs, ndirs, autoescape) != 0)
    goto done;
  if (unitset_parse(&t.set) != 0) {
    unitset_print_diags(&t.set, dir);
    goto done;
  }
  const char *hbase = header ? base_name(header) : NULL;
  g = tpl_cgen_new(base_name(out), hbase ? 1 : 0, &hbase);
  const tpl_ast_template **asts = calloc(t.set.n ? t.set.n : 1, sizeof *asts);
  if (!g || !asts) {
    free(asts);
    fprintf(stderr, "themec: out of memory\n");
    goto done;
  }
  for (size_t i = 0; i < t.set.n; i++)
    asts[i] = t.set.u[i].ast;
  size_t len;
  int r = tpl_cgen_add_registry(g, prefix, t.set.n, asts,
                                (const char *const *)t.paths.v, NULL, false);
  free(asts);
  if (r != 0 || tpl_cgen_finish(g, &code, &len) != 0) {
    fprintf(stderr, "themec: out of memory\n");
    goto done;
  }
  if (header) {
    char *desc = display_dir(dir);
    hdr = tpl_cgen_header(prefix, desc);
    free(desc);
    if (!hdr || write_atomic(header, hdr, strlen(hdr)) != 0)
      goto done;
  }
  if (write_atomic(out, code, len) != 0)
    goto done;
  rc = 0;
done:
  if (prefix)
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
  strlist includes = {0};
  int rc = 2;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "-I") && i + 1 < argc) {
      if (strlist_add(&includes, xstrdup(argv[++i])) != 0)
        goto done;
    } else if (!strncmp(argv[i], "-I", 2) && argv[i][2]) {
      if (strlist_add(&includes, xstrdup(argv[i] + 2)) != 0)
        goto done;
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
        rc = usage("--autoescape takes html, js, css, url, html_attr or "
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
  char *dir = xstrdup(tpl);
  if (!dir)
    goto done;
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
  const char **dirs = malloc((includes.len + 1) * sizeof *dirs);
  if (!dirs) {
    free(dir);
    tpl_env_free(env);
    goto done;
  }
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
  if (tpl_render(env, base_name(tpl), data, &out, &out_len, &diag) != 0) {
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
  strlist_free(&includes);
  return rc;
}

/* ---- themec compile-cases ----------------------------------------------- */

/* The autoescape strategy a case's --CONFIG-- sets: -1 for by name. */
static int case_autoescape(oc_arena *a, const tpl_case *c, int *out) {
  *out = -1;
  if (!c->config)
    return 0;
  tpl_value v;
  tpl_diag diag;
  if (tpl_data_parse(a, "CONFIG", c->config, strlen(c->config), &v, &diag) !=
          0 ||
      v.type != TPL_MAP)
    return -1;
  tpl_value x;
  if (!tpl_map_get_str(v.u.map, "autoescape", 10, &x))
    return 0;
  tpl_escape e;
  if (x.type == TPL_BOOL && !x.u.b)
    *out = TPL_ESC_NONE;
  else if (x.type == TPL_STR && x.len == 4 && !memcmp(x.u.s, "name", 4))
    *out = -1;
  else if (x.type == TPL_STR && tpl_escape_by_name(x.u.s, x.len, &e))
    *out = (int)e;
  else
    return -1;
  return 0;
}

static int cmp_unit(const void *a, const void *b) {
  return strcmp(((const unit *)a)->name, ((const unit *)b)->name);
}

/* C string literal of s into buf (no escapes needed for paths we make,
 * but quotes and backslashes are escaped all the same). */
static void add_cstr(strlist *parts, const char *s) {
  size_t n = strlen(s);
  char *p = malloc(n * 4 + 3);
  if (!p)
    return;
  size_t j = 0;
  p[j++] = '"';
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      p[j++] = '\\';
      p[j++] = (char)c;
    } else if (c < 0x20 || c >= 0x7f || (c == '?' && i && s[i - 1] == '?')) {
      j += (size_t)sprintf(p + j, "\\%03o", c);
    } else {
      p[j++] = (char)c;
    }
  }
  p[j++] = '"';
  p[j] = 0;
  strlist_add(parts, p);
}

static int cmd_compile_cases(int argc, char **argv) {
  const char *dir = NULL, *out = NULL;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "-o") && i + 1 < argc)
      out = argv[++i];
    else if (argv[i][0] != '-' && !dir)
      dir = argv[i];
    else
      return usage(NULL);
  }
  if (!dir || !out)
    return usage("compile-cases needs CASES_DIR and -o OUT.c");
  strlist files = {0};
  if (collect(dir, "", ".test", &files) != 0) {
    strlist_free(&files);
    return 1;
  }
  if (files.len)
    qsort(files.v, files.len, sizeof *files.v, cmp_strp);

  const char *inc = "tpl_cgen.h";
  tpl_cgen *g = tpl_cgen_new(base_name(out), 1, &inc);
  if (!g) {
    strlist_free(&files);
    return 1;
  }
  /* Keeps every case alive until the file is written: the ASTs point into
   * the case texts. */
  tpl_case *cases = calloc(files.len ? files.len : 1, sizeof *cases);
  unitset *sets = calloc(files.len ? files.len : 1, sizeof *sets);
  strlist table = {0}, keep = {0};
  int rc = 1;
  size_t ncompiled = 0;
  if (!cases || !sets)
    goto done;
  strlist_add(&table, xstrdup("\nconst tpl_compiled_case tpl_compiled_cases[] "
                              "= {\n"));
  for (size_t i = 0; i < files.len; i++) {
    char *full = path_join(dir, files.v[i]);
    char err[1024];
    if (!full) {
      fprintf(stderr, "themec: out of memory\n");
      goto done;
    }
    /* A case that does not load or configure is the case runner's to
     * report; the others still compile. */
    if (tpl_case_load(full, &cases[i], err, sizeof err) != 0) {
      fprintf(stderr, "themec: warning: %s (case left out)\n", err);
      free(full);
      continue;
    }
    free(full);
    tpl_case *c = &cases[i];
    unitset *s = &sets[i];
    s->arena = oc_arena_new();
    int strategy;
    if (case_autoescape(s->arena, c, &strategy) != 0) {
      fprintf(stderr, "themec: warning: %s: bad --CONFIG-- (case left out)\n",
              files.v[i]);
      continue;
    }
    s->u = calloc(c->ntemplates ? c->ntemplates : 1, sizeof *s->u);
    if (!s->u)
      goto done;
    s->n = c->ntemplates;
    for (size_t k = 0; k < c->ntemplates; k++) {
      unit *u = &s->u[k];
      u->name = c->templates[k].name;
      u->source = c->templates[k].source;
      u->len = c->templates[k].len;
      u->autoescape =
          strategy >= 0 ? (tpl_escape)strategy : tpl_escape_for_name(u->name);
    }
    if (s->n)
      qsort(s->u, s->n, sizeof *s->u, cmp_unit);
    /* Cases whose templates do not compile test compile-time errors,
     * which the interpreted run checks. In a case that expects output,
     * templates that do not parse become stubs (source() reads them; the
     * interpreter fails when loading them, so such a case never does). */
    bool usable = unitset_parse(s) == 0;
    unit *main_unit = unit_find(s, "index.twig", 10);
    if (!usable && c->expect && main_unit && main_unit->state == ST_OK) {
      usable = true;
      for (size_t k = 0; usable && k < s->n; k++)
        usable = s->u[k].state == ST_OK || s->u[k].ndiags > 0;
    }
    if (!usable)
      continue;
    const tpl_ast_template **asts = calloc(s->n, sizeof *asts);
    const char **paths = calloc(s->n, sizeof *paths);
    const tpl_diag **broken = calloc(s->n, sizeof *broken);
    bool ok = asts && paths && broken;
    for (size_t k = 0; ok && k < s->n; k++) {
      if (s->u[k].state == ST_OK) {
        asts[k] = s->u[k].ast;
      } else {
        asts[k] = placeholder(s, &s->u[k]);
        broken[k] = &s->u[k].diags[0];
      }
      size_t n = strlen(files.v[i]) + strlen(s->u[k].name) + 3;
      char *p = malloc(n);
      if (!p) {
        ok = false;
        break;
      }
      snprintf(p, n, "%s(%s)", files.v[i], s->u[k].name);
      paths[k] = p;
      ok = strlist_add(&keep, p) == 0;
    }
    char prefix[32];
    snprintf(prefix, sizeof prefix, "case_%zu", ncompiled);
    if (ok)
      ok = tpl_cgen_add_registry(g, prefix, s->n, asts, paths, broken, true) ==
           0;
    free(asts);
    free(paths);
    free(broken);
    if (!ok) {
      fprintf(stderr, "themec: out of memory\n");
      goto done;
    }
    strlist_add(&table, xstrdup("  {"));
    add_cstr(&table, files.v[i]);
    char tail[96];
    snprintf(tail, sizeof tail, ", %s_templates, %zu},\n", prefix, s->n);
    strlist_add(&table, xstrdup(tail));
    ncompiled++;
  }
  if (!ncompiled)
    strlist_add(&table, xstrdup("  {NULL, NULL, 0},\n"));
  char end[96];
  snprintf(end, sizeof end, "};\nconst size_t tpl_ncompiled_cases = %zu;\n",
           ncompiled);
  strlist_add(&table, xstrdup(end));
  for (size_t i = 0; i < table.len; i++)
    if (tpl_cgen_add_trailer(g, table.v[i], strlen(table.v[i])) != 0)
      goto done;
  char *code;
  size_t len;
  if (tpl_cgen_finish(g, &code, &len) != 0) {
    fprintf(stderr, "themec: out of memory\n");
    goto done;
  }
  rc = write_atomic(out, code, len) == 0 ? 0 : 1;
  free(code);
done:
  for (size_t i = 0; cases && i < files.len; i++)
    tpl_case_free(&cases[i]);
  for (size_t i = 0; sets && i < files.len; i++)
    unitset_free(&sets[i]);
  free(cases);
  free(sets);
  strlist_free(&table);
  strlist_free(&keep);
  strlist_free(&files);
  tpl_cgen_free(g);
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
  if (!strcmp(cmd, "compile-cases"))
    return cmd_compile_cases(argc - 2, argv + 2);
  return usage("unknown command");
}
