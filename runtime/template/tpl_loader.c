/* The interpreter's template source: finds template texts in memory or in
 * include folders, parses and checks them on first use (literal template
 * names checked against everything the env can find), builds the runtime
 * templates and caches them, broken ones with their first error. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oc_alloc.h"
#include "oc_file.h"
#include "oc_hash.h"
#include "tpl_interp.h"

typedef enum ld_state {
  LD_UNPARSED, /* text known, not parsed yet */
  LD_BUSY,     /* being parsed (a reference back to it is a cycle) */
  LD_OK,
  LD_BROKEN, /* failed to parse: diag holds the first error */
  LD_MISSING
} ld_state;

typedef struct ld_entry {
  const char *name; /* NUL-terminated */
  size_t len;
  ld_state state;
  bool in_memory;
  bool own_escape; /* escape: its autoescaping strategy, whatever the env's */
  tpl_escape escape;
  const char *text;
  size_t text_len;
  const tpl_template *tpl;
  tpl_ast_template *shallow; /* parsed without checks, for cycles */
  tpl_diag *diag;
} ld_entry;

struct tpl_loader {
  tpl_env *env;
  oc_arena *arena;
  oc_hidx entries; /* ld_entry by name */
  const char **dirs;
  size_t ndirs, cdirs;
  bool theme_names; /* tpl_loader_theme_names */
  /* tpl_loader_set_root: the folder no file may lead out of (canonical),
   * and what messages call it; NULL: each include folder is its own. */
  const char *root, *root_what;
};

/* `name` without its theme prefix, for a theme folder's loader. */
static void ld_strip(const tpl_loader *l, const char **name, size_t *len) {
  if (!l->theme_names)
    return;
  size_t pl = tpl_theme_prefix(*name, *len);
  *name += pl;
  *len -= pl;
}

/* Names that may be looked up in folders: relative, no `..` segment, no NUL
 * byte, not empty. */
static bool ld_name_ok(const char *name, size_t len) {
  if (!len || name[0] == '/' || memchr(name, 0, len))
    return false;
  size_t i = 0;
  while (i < len) {
    size_t j = i;
    while (j < len && name[j] != '/')
      j++;
    if (j - i == 2 && name[i] == '.' && name[i + 1] == '.')
      return false;
    i = j + 1;
  }
  return true;
}

/* What the index is asked: a name. */
typedef struct ld_key {
  const char *name;
  size_t len;
} ld_key;

static bool ld_eq(const void *entry, const void *key) {
  const ld_entry *e = entry;
  const ld_key *k = key;
  return e->len == k->len && memcmp(e->name, k->name, k->len) == 0;
}

static uint64_t ld_hash(const char *name, size_t len) {
  return oc_hash_bytes(OC_HASH_SEED, name, len);
}

static ld_entry *ld_lookup(tpl_loader *l, const char *name, size_t len,
                           uint64_t hash) {
  ld_key k = {name, len};
  return oc_hidx_get(&l->entries, hash, ld_eq, &k);
}

static ld_entry *ld_insert(tpl_loader *l, const char *name, size_t len,
                           uint64_t hash) {
  ld_entry *e = oc_arena_calloc(l->arena, 1, sizeof *e);
  e->name = oc_arena_strndup(l->arena, name, len);
  e->len = len;
  e->state = LD_MISSING;
  oc_hidx_put(&l->entries, hash, e);
  return e;
}

/* Why dir/name exists but is not read: it is not a regular file (a FIFO,
 * a device, a folder), or it is a symbolic link that leads out of the
 * root or to nothing. Either way it is not taken for missing: the next
 * folder's template (a theme's) standing in for it would hide the
 * author's mistake, or an attempt to make Octavo read elsewhere. */
typedef enum ld_refusal {
  LD_READ_OK,
  LD_SPECIAL,
  LD_OUTSIDE,
  LD_DANGLING
} ld_refusal;

/* Whether canonical path `real` lies inside canonical folder `dir`. */
static bool ld_inside(const char *real, const char *dir) {
  size_t dl = strlen(dir);
  return strncmp(real, dir, dl) == 0 && (real[dl] == '/' || dl == 1);
}

/* Reads dir/name into the arena; false when there is no such file, or
 * when it is refused (*refused says why). */
static bool ld_read(tpl_loader *l, const char *dir, const char *name,
                    const char **text, size_t *len, ld_refusal *refused) {
  size_t dl = strlen(dir), nl = strlen(name);
  char *path = oc_malloc(oc_size_add(dl, nl + 2));
  memcpy(path, dir, dl);
  path[dl] = '/';
  memcpy(path + dl + 1, name, nl + 1);
  /* The folders are canonical (tpl_loader_add_dir): a file whose real path
   * lies outside the root (or its own folder, without one), through a
   * symbolic link, is refused, so that a theme or book cannot make Octavo
   * read elsewhere. */
  char *real = realpath(path, NULL);
  struct stat st;
  if (!real && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
    *refused = LD_DANGLING;
  free(path);
  if (!real)
    return false;
  if (!ld_inside(real, l->root ? l->root : dir)) {
    free(real);
    *refused = LD_OUTSIDE;
    return false;
  }
  size_t n;
  char *buf = oc_read_file(real, &n);
  free(real);
  if (!buf) {
    if (errno == EISDIR)
      *refused = LD_SPECIAL;
    return false;
  }
  *text = oc_arena_strndup(l->arena, buf, n);
  *len = n;
  free(buf);
  return true;
}

/* The entry for a name, looking the text up on first sight. */
static ld_entry *ld_get(tpl_loader *l, const char *name, size_t len) {
  uint64_t hash = ld_hash(name, len);
  ld_entry *e = ld_lookup(l, name, len, hash);
  if (e)
    return e;
  e = ld_insert(l, name, len, hash);
  for (size_t i = 0; i < l->ndirs; i++) {
    ld_refusal refused = LD_READ_OK;
    if (ld_read(l, l->dirs[i], e->name, &e->text, &e->text_len, &refused)) {
      e->state = LD_UNPARSED;
      break;
    }
    if (refused == LD_READ_OK)
      continue;
    e->diag = oc_arena_alloc(l->arena, sizeof *e->diag);
    const tpl_loc at = {e->name, 0, 0};
    if (refused == LD_SPECIAL)
      tpl_diag_set(e->diag, &at,
                   "'%s' is not a regular file (a FIFO, a device or a "
                   "folder): refusing to read it",
                   e->name);
    else
      tpl_diag_set(
          e->diag, &at,
          "'%s' is a symbolic link that leads %s: refusing to "
          "read it",
          e->name,
          refused == LD_DANGLING
              ? "to nothing"
              : oc_arena_printf(l->arena, "out of %s",
                                l->root_what ? l->root_what : "its folder"));
    e->state = LD_BROKEN;
    break;
  }
  return e;
}

static tpl_escape ld_autoescape(tpl_loader *l, const char *name) {
  size_t n = strlen(name);
  ld_entry *e = ld_lookup(l, name, n, ld_hash(name, n));
  if (e && e->own_escape)
    return e->escape;
  int ae = tpl_env_get_autoescape(l->env);
  return ae >= 0 ? (tpl_escape)ae : tpl_escape_for_name(name);
}

/* ---- what the checker sees of other templates ----------------------- */

static tpl_node *ld_empty_body(tpl_loader *l) {
  tpl_node *n = oc_arena_calloc(l->arena, 1, sizeof *n);
  n->kind = TPL_N_BODY;
  return n;
}

/* A template that exists but failed to parse: its errors come when it is
 * used, as Twig only loads it then. */
static tpl_ast_template *ld_placeholder(tpl_loader *l, const char *name) {
  tpl_ast_template *a = oc_arena_calloc(l->arena, 1, sizeof *a);
  a->name = name;
  a->source = "";
  a->autoescape = ld_autoescape(l, name);
  a->body = ld_empty_body(l);
  return a;
}

/* The outline of a compiled template: its blocks and macro signatures. */
static tpl_ast_template *ld_outline(tpl_loader *l, const tpl_template *t) {
  tpl_ast_template *a = ld_placeholder(l, t->name);
  a->autoescape = t->autoescape;
  a->source = t->source ? t->source : "";
  a->source_len = t->source_len;
  a->nblocks = t->nblocks;
  a->blocks = oc_arena_calloc(l->arena, t->nblocks + 1, sizeof *a->blocks);
  for (size_t i = 0; i < t->nblocks; i++) {
    a->blocks[i].name = t->blocks[i].name;
    a->blocks[i].body = ld_empty_body(l);
  }
  a->nmacros = t->nmacros;
  a->macros = oc_arena_calloc(l->arena, t->nmacros + 1, sizeof *a->macros);
  for (size_t i = 0; i < t->nmacros; i++) {
    const tpl_macro_def *m = &t->macros[i];
    tpl_ast_macro *am = &a->macros[i];
    am->name = m->name;
    am->nparams = m->nparams;
    am->params = oc_arena_calloc(l->arena, m->nparams + 1, sizeof *am->params);
    if (m->nparams)
      memcpy(am->params, m->params, m->nparams * sizeof *am->params);
    am->defaults =
        oc_arena_calloc(l->arena, m->nparams + 1, sizeof *am->defaults);
    am->body = ld_empty_body(l);
  }
  a->nuses = t->nuses;
  a->uses = (tpl_use *)t->uses;
  if (t->parent_name) {
    /* for `from` imports of macros its parents define */
    tpl_node *p = oc_arena_calloc(l->arena, 1, sizeof *p);
    p->kind = TPL_N_CONST;
    p->value = tpl_str(t->parent_name, strlen(t->parent_name));
    a->parent = p;
  } else if (t->parent_of) {
    /* a computed parent: the checker cannot follow it */
    tpl_node *p = oc_arena_calloc(l->arena, 1, sizeof *p);
    p->kind = TPL_N_NAME;
    a->parent = p;
  }
  return a;
}

static const tpl_ast_template *ld_check_load(void *data, const char *name,
                                             size_t len);

static tpl_parse_opts ld_opts(tpl_loader *l, const char *name, bool checked) {
  tpl_parse_opts o;
  memset(&o, 0, sizeof o);
  o.load = checked ? ld_check_load : NULL;
  o.load_data = l;
  o.autoescape = ld_autoescape(l, name);
  return o;
}

/* A template that refers back to one being parsed: parse that one again
 * without checking its own references, just for its outline. */
static tpl_ast_template *ld_shallow(tpl_loader *l, ld_entry *e) {
  if (!e->shallow) {
    tpl_parse_opts o = ld_opts(l, e->name, false);
    tpl_diag d;
    size_t nd = 0;
    e->shallow =
        tpl_parse(l->arena, e->name, e->text, e->text_len, &o, &d, 1, &nd);
    if (!e->shallow)
      e->shallow = ld_placeholder(l, e->name);
  }
  return e->shallow;
}

static const tpl_ast_template *ld_check_load(void *data, const char *name,
                                             size_t len) {
  tpl_loader *l = data;
  const char *own = name;
  size_t own_len = len;
  ld_strip(l, &own, &own_len);
  if (ld_name_ok(own, own_len)) {
    ld_entry *e = ld_get(l, own, own_len);
    if (e->state == LD_BUSY)
      return ld_shallow(l, e);
  }
  const tpl_template *t;
  tpl_diag d;
  int r = tpl_env_find(l->env, name, len, &t, &d);
  if (r == 0)
    return NULL;
  if (r < 0)
    return ld_placeholder(l, oc_arena_strndup(l->arena, name, len));
  return t->ast ? (const tpl_ast_template *)t->ast : ld_outline(l, t);
}

/* ---- the source ----------------------------------------------------- */

static void ld_set_broken(tpl_loader *l, ld_entry *e, const tpl_diag *d,
                          size_t nd) {
  e->diag = oc_arena_alloc(l->arena, sizeof *e->diag);
  if (nd)
    *e->diag = *d;
  else
    tpl_diag_set(e->diag, &(tpl_loc){e->name, 1, 1}, "cannot parse template");
  e->state = LD_BROKEN;
}

/* A NUL byte would end the text for the lexer: the rest of the template
 * would vanish without a word. It is an error at its line and column. */
static bool ld_has_nul(const ld_entry *e, tpl_diag *d) {
  const char *nul = memchr(e->text, 0, e->text_len);
  if (!nul)
    return false;
  uint32_t line = 1, col = 1;
  for (const char *p = e->text; p < nul; p++) {
    if (*p == '\n') {
      line++;
      col = 1;
    } else if (((unsigned char)*p & 0xC0) != 0x80) {
      col++;
    }
  }
  tpl_diag_set(d, &(tpl_loc){e->name, line, col},
               "a NUL byte in the template (the file is binary or damaged)");
  return true;
}

static int ld_find(void *data, tpl_env *env, const char *name, size_t len,
                   const tpl_template **out, tpl_diag *diag) {
  (void)env;
  tpl_loader *l = data;
  ld_strip(l, &name, &len);
  if (!ld_name_ok(name, len))
    return 0;
  ld_entry *e = ld_get(l, name, len);
  switch (e->state) {
  case LD_MISSING:
  case LD_BUSY:
    return 0;
  case LD_OK:
    *out = e->tpl;
    return 1;
  case LD_BROKEN:
    *diag = *e->diag;
    return -1;
  case LD_UNPARSED:
    break;
  }
  e->state = LD_BUSY;
  tpl_parse_opts o = ld_opts(l, e->name, true);
  tpl_diag d;
  size_t nd = 0;
  tpl_ast_template *ast =
      ld_has_nul(e, &d) ? (nd = 1, NULL)
                        : tpl_parse(l->arena, e->name, e->text, e->text_len,
                                    &o, &d, 1, &nd);
  if (!ast) {
    ld_set_broken(l, e, &d, nd);
    *diag = *e->diag;
    return -1;
  }
  e->tpl = tpl_interp_build(l->arena, ast);
  e->state = LD_OK;
  *out = e->tpl;
  return 1;
}

static int ld_text(void *data, const char *name, size_t len, const char **text,
                   size_t *text_len) {
  tpl_loader *l = data;
  ld_strip(l, &name, &len);
  if (!ld_name_ok(name, len))
    return 0;
  ld_entry *e = ld_get(l, name, len);
  if (e->state == LD_MISSING)
    return 0;
  *text = e->text;
  *text_len = e->text_len;
  return 1;
}

tpl_loader *tpl_loader_new(tpl_env *env) {
  oc_arena *a = tpl_env_arena(env);
  tpl_loader *l = oc_arena_calloc(a, 1, sizeof *l);
  l->env = env;
  l->arena = a;
  oc_hidx_init(&l->entries, a, 64);
  tpl_env_add_source_with_text(env, (tpl_source){ld_find, l}, ld_text);
  return l;
}

void tpl_loader_add_string_as(tpl_loader *l, const char *name,
                              const char *text, size_t len,
                              tpl_escape autoescape) {
  tpl_loader_add_string(l, name, text, len);
  size_t n = strlen(name);
  ld_entry *e = ld_lookup(l, name, n, ld_hash(name, n));
  if (e->state == LD_UNPARSED) {
    e->own_escape = true;
    e->escape = autoescape;
  }
}

void tpl_loader_add_string(tpl_loader *l, const char *name, const char *text,
                           size_t len) {
  size_t nl = strlen(name);
  uint64_t hash = ld_hash(name, nl);
  ld_entry *e = ld_lookup(l, name, nl, hash);
  if (!e)
    e = ld_insert(l, name, nl, hash);
  else if (e->state == LD_OK || e->state == LD_BUSY)
    return; /* templates already built keep the text they were built from */
  char *copy = oc_arena_alloc(l->arena, len + 1);
  if (len)
    memcpy(copy, text, len);
  copy[len] = 0;
  e->text = copy;
  e->text_len = len;
  e->in_memory = true;
  e->shallow = NULL;
  e->diag = NULL;
  e->state = LD_UNPARSED;
}

void tpl_loader_add_dir(tpl_loader *l, const char *dir) {
  l->dirs = oc_arena_grow_array(l->arena, l->dirs, l->ndirs, &l->cdirs,
                                l->ndirs + 1, sizeof *l->dirs);
  /* Kept canonical, for the containment check of ld_read. A folder that
   * does not exist stays as given and finds nothing. */
  char *real = realpath(dir, NULL);
  const char *d = real ? real : dir;
  l->dirs[l->ndirs++] = oc_arena_strndup(l->arena, d, strlen(d));
  free(real);
}

void tpl_loader_theme_names(tpl_loader *l) { l->theme_names = true; }

void tpl_loader_set_root(tpl_loader *l, const char *dir, const char *what) {
  char *real = realpath(dir, NULL);
  const char *d = real ? real : dir;
  l->root = oc_arena_strndup(l->arena, d, strlen(d));
  l->root_what = oc_arena_strndup(l->arena, what, strlen(what));
  free(real);
}

int tpl_loader_check(tpl_loader *l, const char *name, tpl_diag *diags,
                     size_t max_diags, size_t *ndiags) {
  *ndiags = 0;
  size_t len = strlen(name);
  if (!ld_name_ok(name, len))
    return -1;
  ld_entry *e = ld_get(l, name, len);
  if (e->state == LD_MISSING)
    return -1;
  bool fresh = e->state == LD_UNPARSED;
  if (fresh)
    e->state = LD_BUSY;
  tpl_parse_opts o = ld_opts(l, e->name, true);
  size_t total = 0;
  tpl_diag nul;
  tpl_ast_template *ast = NULL;
  if (ld_has_nul(e, &nul)) {
    total = 1;
    if (max_diags)
      diags[0] = nul;
  } else {
    ast = tpl_parse(l->arena, e->name, e->text, e->text_len, &o, diags,
                    max_diags, &total);
  }
  if (fresh) {
    if (ast) {
      e->tpl = tpl_interp_build(l->arena, ast);
      e->state = LD_OK;
    } else {
      ld_set_broken(l, e, diags, max_diags ? total : 0);
    }
  }
  *ndiags = total < max_diags ? total : max_diags;
  if (!ast && !total)
    total = 1; /* a failure with no message still fails */
  return total > (size_t)INT32_MAX ? INT32_MAX : (int)total;
}
