/* Template sets and files for themec and the case compiler (themec_set.h). */
#include "themec_set.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oc_alloc.h"

/* ---- files ------------------------------------------------------------- */

void themec_strlist_add(themec_strlist *l, char *s) {
  OC_GROW(l->v, l->cap, l->len + 1);
  l->v[l->len++] = s;
}

void themec_strlist_free(themec_strlist *l) {
  for (size_t i = 0; i < l->len; i++)
    free(l->v[i]);
  free(l->v);
  memset(l, 0, sizeof *l);
}

static int cmp_strp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

void themec_strlist_sort(themec_strlist *l) {
  if (l->len)
    qsort(l->v, l->len, sizeof *l->v, cmp_strp);
}

char *themec_path_join(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  while (la > 1 && a[la - 1] == '/')
    la--;
  char *p = oc_malloc(oc_size_add(la, oc_size_add(lb, 2)));
  memcpy(p, a, la);
  p[la] = '/';
  memcpy(p + la + 1, b, lb + 1);
  return p;
}

const char *themec_base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

int themec_collect(const char *root, const char *rel, const char *suffix,
                   themec_strlist *out) {
  char *dir = rel[0] ? themec_path_join(root, rel) : oc_strdup(root);
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
    char *r = rel[0] ? themec_path_join(rel, e->d_name) : oc_strdup(e->d_name);
    char *full = themec_path_join(root, r);
    struct stat st;
    if (stat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
      rc = themec_collect(root, r, suffix, out);
    } else if (ends_with(r, suffix)) {
      themec_strlist_add(out, r);
      r = NULL;
    }
    free(r);
    free(full);
  }
  closedir(d);
  free(dir);
  return rc;
}

int themec_write_atomic(const char *path, const char *data, size_t len) {
  size_t n = oc_size_add(strlen(path), 16);
  char *tmp = oc_malloc(n);
  snprintf(tmp, n, "%s.tmpXXXXXX", path);
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

/* ---- a set of templates -------------------------------------------------- */

void themec_set_init(themec_set *s, size_t n) {
  s->arena = oc_arena_new();
  s->u = oc_calloc(n, sizeof *s->u);
  s->n = n;
}

static int cmp_unit(const void *a, const void *b) {
  return strcmp(((const themec_unit *)a)->name, ((const themec_unit *)b)->name);
}

void themec_set_sort(themec_set *s) {
  if (s->n)
    qsort(s->u, s->n, sizeof *s->u, cmp_unit);
}

themec_unit *themec_set_find(themec_set *s, const char *name, size_t len) {
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

static void unit_parse(themec_set *s, themec_unit *u);

/* An empty stand-in for a template that exists but is being parsed (a
 * cycle of includes is legal) or failed (its own errors are reported). */
const tpl_ast_template *themec_placeholder(themec_set *s,
                                           const themec_unit *u) {
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

static const tpl_ast_template *set_load(themec_set *s, const char *name,
                                        size_t len);

/* The front end's view of the other templates of the set. */
static const tpl_ast_template *unit_load(void *data, const char *name,
                                         size_t len) {
  themec_set *s = data;
  size_t pl = s->theme_names ? tpl_theme_prefix(name, len) : 0;
  if (pl)
    return set_load(s->theme ? s->theme : s, name + pl, len - pl);
  const tpl_ast_template *t = set_load(s, name, len);
  return t || !s->theme ? t : set_load(s->theme, name, len);
}

static const tpl_ast_template *set_load(themec_set *s, const char *name,
                                        size_t len) {
  themec_unit *u = themec_set_find(s, name, len);
  if (!u)
    return NULL;
  if (u->state == THEMEC_UNPARSED)
    unit_parse(s, u);
  if (u->state == THEMEC_OK)
    return u->ast;
  return themec_placeholder(s, u);
}

static void unit_parse(themec_set *s, themec_unit *u) {
  u->state = THEMEC_PARSING;
  u->diags = oc_calloc(THEMEC_MAX_DIAGS, sizeof *u->diags);
  tpl_parse_opts opts = {unit_load, s, u->autoescape};
  u->ast = tpl_parse(s->arena, u->name, u->source, u->len, &opts, u->diags,
                     THEMEC_MAX_DIAGS, &u->ndiags);
  u->state = u->ast && u->ndiags == 0 ? THEMEC_OK : THEMEC_FAILED;
}

size_t themec_set_parse(themec_set *s) {
  for (size_t i = 0; i < s->n; i++)
    if (s->u[i].state == THEMEC_UNPARSED)
      unit_parse(s, &s->u[i]);
  size_t failed = 0;
  for (size_t i = 0; i < s->n; i++)
    failed += s->u[i].state != THEMEC_OK;
  return failed;
}

void themec_set_free(themec_set *s) {
  for (size_t i = 0; i < s->n; i++)
    free(s->u[i].diags);
  free(s->u);
  if (s->arena)
    oc_arena_free(s->arena);
  memset(s, 0, sizeof *s);
}
