/* The book model of one edition: the template environment, the `app`
 * object, labels and titles, and the items of `contents:` converted from
 * Markdown, numbered, labelled and listed in the TOC. */
#include "book.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "book_fs.h"
#include "book_writers.h" /* bk_find_theme */
#include "ts_image.h"
#include "hl_highlight.h"
#include "oc_alloc.h"
#include "oc_file.h"
#include "tpl_loader.h"

#ifndef OCTAVO_VERSION
#define OCTAVO_VERSION "0.1.0"
#endif

/* ---- small helpers -------------------------------------------------- */

tpl_value bk_get(tpl_value map, const char *key) {
  tpl_value v = tpl_null();
  if (map.type == TPL_MAP)
    tpl_map_get_str(map.u.map, key, strlen(key), &v);
  return v;
}

void bk_set(bk_edition *e, tpl_map *m, const char *key, tpl_value v) {
  tpl_map_set_str(e->a, m, key, v);
}

tpl_value bk_s(bk_edition *e, const char *s) {
  return tpl_str_copy(e->a, s ? s : "", s ? strlen(s) : 0);
}

tpl_value bk_html(bk_edition *e, const char *s) {
  tpl_value v = bk_s(e, s);
  v.safe = 1;
  return v;
}

/* Reports a problem at the place of a config value ("book.title"). */
static void report_at(bk_edition *e, oc_severity sev, const char *path,
                      const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void report_at(bk_edition *e, oc_severity sev, const char *path,
                      const char *fmt, ...) {
  bk_pos pos = {"config.yml", 0, 0};
  if (path)
    bk_config_where(e->cfg, path, &pos);
  va_list ap;
  va_start(ap, fmt);
  bk_vreport_at(e->rep, &e->errors, sev, pos, fmt, ap);
  va_end(ap);
}

/* ---- the theme as a template source --------------------------------- */

/* The folders of a theme folder an edition's templates come from, in
 * order (publish --theme; themec compiles the same). */
static const char *theme_subdir(const bk_edition *e, size_t i) {
  const char *const subs[] = {e->theme.format, "common", "contents"};
  return i < 3 ? subs[i] : NULL;
}

static int theme_find(void *data, tpl_env *env, const char *name, size_t len,
                      const tpl_template **out, tpl_diag *diag) {
  (void)env;
  (void)diag;
  const bk_theme *t = data;
  size_t pl = tpl_theme_prefix(name, len);
  name += pl;
  len -= pl;
  for (size_t i = 0; i < t->ntemplates; i++) {
    const char *n = t->templates[i]->name;
    if (strlen(n) == len && !memcmp(n, name, len)) {
      *out = t->templates[i];
      return 1;
    }
  }
  return 0;
}

/* ---- rendering ------------------------------------------------------ */

const char *bk_format_alias(const bk_edition *e) {
  if (!strcmp(e->format, "html_chunked"))
    return "htmlchunked"; /* Easybook's spelling */
  if (!strcmp(e->format, "mobi"))
    return "epub"; /* mobi editions are EPUBs now */
  return "";
}

/* Where a template named `name` lives, as the user should read it: the
 * book's file (Resources/Templates/…), or the theme's. */
static const char *template_file(bk_edition *e, const char *name) {
  /* Content files rendered as templates are named by their path. */
  if (!strncmp(name, "Contents/", 9))
    return name;
  const char *dirs[] = {e->name, e->format, bk_format_alias(e), ""};
  for (size_t i = 0; i < 4; i++) {
    if (i == 2 && !dirs[2][0])
      continue;
    const char *rel = oc_arena_printf(e->a, "Resources/Templates/%s%s%s",
                                      dirs[i], dirs[i][0] ? "/" : "", name);
    /* lstat: a symbolic link to nothing is the template refused there. */
    struct stat st;
    if (lstat(oc_arena_printf(e->a, "%s/%s", e->book_dir, rel), &st) == 0)
      return rel;
  }
  if (e->theme.dir) {
    const char *in = name + tpl_theme_prefix(name, strlen(name));
    for (size_t i = 0; theme_subdir(e, i); i++) {
      const char *sub = theme_subdir(e, i);
      struct stat st;
      if (stat(oc_arena_printf(e->a, "%s/%s/%s", e->theme.dir, sub, in),
               &st) == 0)
        return oc_arena_printf(e->a, "%s/%s/%s", e->opt->theme_shown, sub,
                               in);
    }
  }
  return oc_arena_printf(e->a, "%s (in the %s theme)", name, e->theme.name);
}

/* Reports a template error once per template, at the place the user
 * wrote it: a template file, or the config value or label a template
 * string came from. */
static void report_tpl_diag(bk_edition *e, const tpl_diag *d) {
  e->errors++;
  if (tpl_map_get_str(e->failed, d->file, strlen(d->file), NULL))
    return;
  tpl_map_set_str(e->a, e->failed,
                  oc_arena_strndup(e->a, d->file, strlen(d->file)),
                  tpl_bool(true));
  tpl_value at;
  if (tpl_map_get_str(e->origins, d->file, strlen(d->file), &at)) {
    const bk_origin *o = &e->origin_list[at.u.i];
    oc_report(e->rep, OC_ERROR, o->file, o->line, o->col, "in %s: %s", o->what,
              d->message);
    return;
  }
  oc_report(e->rep, OC_ERROR, template_file(e, d->file), d->line, d->col, "%s",
            d->message);
}

const char *bk_render(bk_edition *e, const char *name, tpl_value data,
                      size_t *len) {
  char *out = NULL;
  size_t n = 0;
  tpl_diag diag;
  memset(&diag, 0, sizeof diag);
  if (tpl_map_get_str(e->failed, name, strlen(name), NULL) ||
      tpl_env_budget_exhausted(e->env)) {
    e->errors++; /* reported the first time (the budget: by its render) */
    return NULL;
  }
  if (tpl_render(e->env, name, data, &out, &n, &diag) != 0) {
    report_tpl_diag(e, &diag);
    return NULL;
  }
  char *s = oc_arena_strndup(e->a, out, n);
  free(out);
  if (len)
    *len = n;
  return s;
}

bool bk_has_template(bk_edition *e, const char *name) {
  /* Asked once per code block and figure: remember the answers, which
   * cannot change during a publish. */
  tpl_value known;
  if (tpl_map_get_str(e->tpl_exists, name, strlen(name), &known))
    return known.u.b;
  const tpl_template *t;
  tpl_diag diag;
  /* A template that exists but does not parse counts as existing: the
   * render that follows reports its error. */
  int r = tpl_env_find(e->env, name, strlen(name), &t, &diag);
  tpl_map_set_str(e->a, e->tpl_exists,
                  oc_arena_strndup(e->a, name, strlen(name)), tpl_bool(r != 0));
  return r != 0;
}

/* Renders a template given as text (a label, a book string), compiling
 * each distinct text once; `o` says where the text comes from, for error
 * messages. Plain text is returned as it is. A text that failed once gives
 * NULL without a second message. */
/* esc: how printed values are escaped. TPL_ESC_NONE for the book's
 * strings (plain text, which the templates escape where they print it),
 * TPL_ESC_HTML for labels (HTML: a chapter numbered "<b>" must not put a
 * tag in the page), TPL_ESC_SH for a command for sh. Each kind has its
 * own entries in the cache. */
static const char *render_text_as(bk_edition *e, const char *text,
                                  tpl_value data, const bk_origin *o,
                                  tpl_escape esc) {
  if (!strstr(text, "{{") && !strstr(text, "{%") && !strstr(text, "{#"))
    return text;
  tpl_value name;
  const char *key = esc == TPL_ESC_SH     ? oc_arena_printf(e->a, "sh:%s", text)
                    : esc == TPL_ESC_HTML ? oc_arena_printf(e->a, "html:%s", text)
                                          : text;
  if (!tpl_map_get_str(e->text_cache, key, strlen(key), &name)) {
    char buf[64];
    snprintf(buf, sizeof buf, "@%s/%zu",
             esc == TPL_ESC_SH ? "command" : "string", e->label_seq++);
    if (esc != TPL_ESC_NONE)
      tpl_loader_add_string_as(e->loader, buf, text, strlen(text), esc);
    else
      tpl_loader_add_string(e->loader, buf, text, strlen(text));
    name = bk_s(e, buf);
    tpl_map_set_str(e->a, e->text_cache, key, name);
    e->origin_list =
        oc_arena_grow_array(e->a, e->origin_list, e->norigins, &e->corigins,
                            e->norigins + 1, sizeof *e->origin_list);
    e->origin_list[e->norigins] = *o;
    tpl_map_set_str(e->a, e->origins, name.u.s,
                    tpl_int((int64_t)e->norigins++));
  }
  if (tpl_map_get_str(e->failed, name.u.s, name.len, NULL))
    return NULL;
  return bk_render(e, name.u.s, data, NULL);
}

static const char *render_text(bk_edition *e, const char *text, tpl_value data,
                               const bk_origin *o) {
  return render_text_as(e, text, data, o, TPL_ESC_NONE);
}

/* The origin of label `name` of the book's language. */
static bk_origin label_origin(bk_edition *e, const char *name, int level) {
  const char *file = oc_arena_printf(e->a, "labels.%s.yml", e->bk.language);
  const char *rel = oc_arena_printf(e->a, "Resources/Translations/%s", file);
  struct stat st;
  if (stat(oc_arena_printf(e->a, "%s/%s", e->book_dir, rel), &st) == 0)
    file = rel;
  bk_origin o = {
      file, 0, 0,
      level ? oc_arena_printf(e->a, "label '%s' (level %d)", name, level)
            : oc_arena_printf(e->a, "label '%s'", name)};
  /* In the book's own file, point at the line that defines the label. */
  if (file == rel) {
    size_t len;
    char *text =
        oc_read_file(oc_arena_printf(e->a, "%s/%s", e->book_dir, rel), &len);
    size_t kl = strlen(name);
    unsigned line = 1;
    for (char *p = text; p && *p; line++) {
      char *q = p;
      while (*q == ' ' || *q == '\t')
        q++;
      if (!strncmp(q, name, kl) && q[kl] == ':') {
        o.line = line;
        o.col = (unsigned)(q - p) + 1;
        break;
      }
      p = strchr(p, '\n');
      if (p)
        p++;
    }
    free(text);
  }
  return o;
}

/* Label `name` rendered with vars, its values escaped with esc. */
static const char *label_as(bk_edition *e, const char *name, tpl_value vars,
                            tpl_escape esc) {
  tpl_value t = bk_get(e->labels, name);
  if (t.type == TPL_LIST)
    t = t.u.list->len ? t.u.list->items[0] : tpl_null();
  if (t.type != TPL_STR)
    return "";
  bk_origin o = label_origin(e, name, 0);
  const char *r =
      render_text_as(e, oc_arena_strndup(e->a, t.u.s, t.len), vars, &o, esc);
  return r ? r : "";
}

const char *bk_label(bk_edition *e, const char *name, tpl_value vars) {
  return label_as(e, name, vars, TPL_ESC_HTML);
}

/* A label for an attribute, which the Markdown module escapes itself. */
static const char *label_text(bk_edition *e, const char *name) {
  return label_as(e, name, tpl_null(), TPL_ESC_NONE);
}

const char *bk_title(bk_edition *e, const char *name) {
  tpl_value t = bk_get(e->titles, name);
  return t.type == TPL_STR ? oc_arena_strndup(e->a, t.u.s, t.len) : "";
}

/* ---- the app object ----------------------------------------------- */

static bool app_call(tpl_rt *rt, tpl_obj *self, const char *name, size_t len,
                     int argc, const tpl_value *argv, tpl_value *out) {
  bk_edition *e = self->data;
#define IS(s) (len == sizeof(s) - 1 && !memcmp(name, s, len))
  if (IS("get")) {
    tpl_value k = argc > 0 ? tpl_to_str(rt, argv[0]) : tpl_str("", 0);
    const char *key = oc_arena_strndup(rt->arena, k.u.s, k.len);
    if (!strcmp(key, "publishing.items"))
      *out = e->items_list;
    else if (!strcmp(key, "publishing.list.images"))
      *out = e->figures;
    else if (!strcmp(key, "publishing.list.tables"))
      *out = e->tables;
    else if (!strcmp(key, "publishing.edition") ||
             !strcmp(key, "publishing.edition.id"))
      *out = tpl_str(e->name, strlen(e->name));
    else if (!strcmp(key, "publishing.book.slug")) {
      const char *s =
          e->bk.title_is_text
              ? bk_slug(e->slugger, rt->arena, e->bk.title, strlen(e->bk.title))
              : "book";
      *out = tpl_str(s, strlen(s));
    } else if (!strcmp(key, "app.version"))
      *out = tpl_cstr(OCTAVO_VERSION);
    else if (!strcmp(key, "app.name"))
      *out = tpl_cstr("Octavo");
    else
      *out = tpl_null();
    return true;
  }
  if (IS("getLabel")) {
    tpl_value k = argc > 0 ? tpl_to_str(rt, argv[0]) : tpl_str("", 0);
    const char *key = oc_arena_strndup(rt->arena, k.u.s, k.len);
    const char *s = bk_label(e, key, argc > 1 ? argv[1] : tpl_null());
    *out = tpl_safe_str(s, strlen(s));
    return true;
  }
  if (IS("getTitle")) {
    tpl_value k = argc > 0 ? tpl_to_str(rt, argv[0]) : tpl_str("", 0);
    const char *key = oc_arena_strndup(rt->arena, k.u.s, k.len);
    const char *s = bk_title(e, key);
    *out = tpl_str(s, strlen(s));
    return true;
  }
  if (IS("getVersion")) {
    *out = tpl_cstr(OCTAVO_VERSION);
    return true;
  }
  if (IS("edition") || IS("book")) {
    tpl_value src = IS("edition") ? e->edition : e->book;
    tpl_value k = argc > 0 ? tpl_to_str(rt, argv[0]) : tpl_str("", 0);
    *out = tpl_null();
    if (src.type == TPL_MAP)
      tpl_map_get(src.u.map, k, out);
    return true;
  }
#undef IS
  return false;
}

static bool app_attr(tpl_rt *rt, tpl_obj *self, const char *name, size_t len,
                     tpl_value *out) {
  (void)rt;
  (void)self;
  if (len == 7 && !memcmp(name, "version", 7)) {
    *out = tpl_cstr(OCTAVO_VERSION);
    return true;
  }
  return false;
}

static const tpl_obj_class app_class = {
    .name = "app", .get_attr = app_attr, .call = app_call};

/* ---- environment ---------------------------------------------------- */

static bool is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Adds a folder of the book's templates, unless it is a link that leads
 * out of the book (then an error: a book cannot make publish read files
 * elsewhere). */
static void add_template_dir(bk_edition *e, const char *rel) {
  const char *p = oc_arena_printf(e->a, "%s/Resources/Templates%s%s",
                                  e->book_dir, rel[0] ? "/" : "", rel);
  if (!is_dir(p))
    return;
  char *real = realpath(p, NULL);
  size_t bl = strlen(e->book_dir);
  bool inside = real && !strncmp(real, e->book_dir, bl) && real[bl] == '/';
  free(real);
  if (!inside) {
    oc_report(e->rep, OC_ERROR,
              oc_arena_printf(e->a, "Resources/Templates%s%s",
                              rel[0] ? "/" : "", rel),
              0, 0, "a symbolic link that leads out of the book's folder");
    e->errors++;
    return;
  }
  tpl_loader_add_dir(e->loader, p);
}

static void find_custom_css(bk_edition *e) {
  const char *dirs[] = {e->name, e->format, bk_format_alias(e), ""};
  for (size_t i = 0; i < 4; i++) {
    if (i == 2 && !dirs[2][0])
      continue;
    const char *rel = oc_arena_printf(e->a, "Resources/Templates/%s%sstyle.css",
                                      dirs[i], dirs[i][0] ? "/" : "");
    bool missing = false;
    const char *p = bk_book_path(e, "", rel, "config.yml", 0, 0, &missing);
    if (p) {
      e->custom_css = p;
      return;
    }
  }
}

static int setup_env(bk_edition *e) {
  e->env = tpl_env_new();
  tpl_env_set_autoescape(e->env, TPL_ESC_NONE);
  /* Reproducible: `random` is seeded from the book, not the clock. */
  tpl_env_set_random_seed(e->env,
                          e->bk.title_is_text
                              ? tpl_hash_bytes(e->bk.title, strlen(e->bk.title))
                              : 1);
  /* Reproducible builds: SOURCE_DATE_EPOCH fixes "now" (the date a book
   * without publication_date prints). */
  const char *sde = getenv("SOURCE_DATE_EPOCH");
  if (sde && *sde) {
    char *end;
    long long t = strtoll(sde, &end, 10);
    if (!*end && t >= 0)
      tpl_env_set_now(e->env, (int64_t)t);
  }
  /* The work and output budgets of the edition's templates (issue 13),
   * for all of its renders together (issue 24): two hundred pages that
   * each stay under a per-page cap would still take minutes. Each publish
   * makes its editions anew, so each has a whole budget. */
  tpl_env_set_work_limit(
      e->env, (uint64_t)e->ed->template_max_iterations,
      "the edition option template_max_iterations, for all of the "
      "edition's pages together");
  tpl_env_set_output_limit(
      e->env, (size_t)e->ed->template_max_output_mb << 20,
      "the edition option template_max_output_mb, for all of the edition's "
      "pages together");
  tpl_env_set_budgets_shared(e->env, true);
  /* A NUL byte would end the page for every reader of it (and for the
   * writers, which take pages as C strings). */
  tpl_env_set_nul_forbidden(e->env, true);
  e->loader = tpl_loader_new(e->env);
  tpl_loader_set_root(e->loader, e->book_dir, "the book's folder");
  add_template_dir(e, e->name);
  add_template_dir(e, e->format);
  if (bk_format_alias(e)[0])
    add_template_dir(e, bk_format_alias(e));
  add_template_dir(e, "");
  if (e->theme.dir) {
    /* publish --theme DIR: the folder through the interpreter, searched as
     * themec compiles it (the format's folder, then common/ and
     * contents/). */
    tpl_loader *tl = tpl_loader_new(e->env);
    tpl_loader_theme_names(tl);
    /* Its folders may share templates through links, within the theme. */
    tpl_loader_set_root(tl, e->theme.dir, "the theme's folder");
    for (size_t i = 0; theme_subdir(e, i); i++)
      tpl_loader_add_dir(tl, oc_arena_printf(e->a, "%s/%s", e->theme.dir,
                                             theme_subdir(e, i)));
  } else {
    tpl_env_add_source(e->env, (tpl_source){theme_find, &e->theme});
  }
  e->app = tpl_obj_value(e->a, &app_class, e);
  tpl_env_set_global(e->env, "app", e->app);
  tpl_env_set_global(e->env, "book", e->book);
  tpl_env_set_global(e->env, "edition", e->edition);
  find_custom_css(e);
  tpl_env_set_global(e->env, "has_custom_css", tpl_bool(e->custom_css));
  tpl_env_set_global(e->env, "root", tpl_cstr(""));
  return 0;
}

/* The place of a config value, for messages about its template. */
static bk_origin value_origin(bk_edition *e, const char *path) {
  bk_pos pos = {"config.yml", 0, 0};
  bk_config_where(e->cfg, path, &pos);
  bk_origin o = {pos.file ? pos.file : "config.yml", pos.line, pos.col,
                 oc_arena_printf(e->a, "the template in %s", path)};
  return o;
}

/* Renders the book's string values (and those one level down) as
 * templates, as Easybook did: `title: "{{ book.author }}'s diary"`. */
static void render_book_strings(bk_edition *e) {
  tpl_value raw = e->book;
  if (raw.type != TPL_MAP)
    return;
  tpl_map *m = tpl_map_new(e->a, raw.u.map->len);
  for (size_t i = 0; i < raw.u.map->len; i++) {
    tpl_map_entry *en = &raw.u.map->entries[i];
    tpl_value v = en->val;
    const char *key = en->key.type == TPL_STR
                          ? oc_arena_strndup(e->a, en->key.u.s, en->key.len)
                          : "";
    bool skip = !strcmp(key, "contents") || !strcmp(key, "editions");
    if (!skip && v.type == TPL_STR) {
      const char *text = oc_arena_strndup(e->a, v.u.s, v.len);
      bk_origin o = value_origin(e, oc_arena_printf(e->a, "book.%s", key));
      const char *r = render_text(e, text, tpl_null(), &o);
      if (r)
        v = bk_s(e, r);
    } else if (!skip && v.type == TPL_MAP) {
      tpl_map *sub = tpl_map_new(e->a, v.u.map->len);
      for (size_t j = 0; j < v.u.map->len; j++) {
        tpl_map_entry *se = &v.u.map->entries[j];
        tpl_value sv = se->val;
        if (sv.type == TPL_STR) {
          const char *sk =
              se->key.type == TPL_STR
                  ? oc_arena_strndup(e->a, se->key.u.s, se->key.len)
                  : "";
          bk_origin o =
              value_origin(e, oc_arena_printf(e->a, "book.%s.%s", key, sk));
          const char *r = render_text(e, oc_arena_strndup(e->a, sv.u.s, sv.len),
                                      tpl_null(), &o);
          if (r)
            sv = bk_s(e, r);
        }
        tpl_map_set(e->a, sub, se->key, sv);
      }
      v = tpl_map_value(sub);
    }
    tpl_map_set(e->a, m, en->key, v);
  }
  e->book = tpl_map_value(m);
  tpl_env_set_global(e->env, "book", e->book);
  bk_book_conf_texts(e->a, e->book, &e->bk);
}

/* ---- items ---------------------------------------------------------- */

static const char *const builtin_elements[] = {"acknowledgement",
                                               "afterword",
                                               "appendix",
                                               "author",
                                               "chapter",
                                               "conclusion",
                                               "cover",
                                               "dedication",
                                               "edition",
                                               "epilogue",
                                               "foreword",
                                               "glossary",
                                               "introduction",
                                               "license",
                                               "lof",
                                               "lot",
                                               "part",
                                               "preface",
                                               "prologue",
                                               "title",
                                               "toc"};

static bool is_builtin(const char *el) {
  for (size_t i = 0; i < sizeof builtin_elements / sizeof *builtin_elements;
       i++)
    if (!strcmp(builtin_elements[i], el))
      return true;
  return false;
}

/* Levenshtein distance, for "did you mean"; long words are not compared. */
static size_t edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 40 || lb > 40)
    return 99;
  size_t row[41];
  for (size_t j = 0; j <= lb; j++)
    row[j] = j;
  for (size_t i = 1; i <= la; i++) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t up = row[j];
      size_t best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best)
        best = up + 1;
      if (row[j - 1] + 1 < best)
        best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[lb];
}

/* The built-in element a misspelt name most likely meant, or NULL. */
static const char *nearest_element(const char *el) {
  const char *best = NULL;
  size_t best_d = strlen(el) <= 4 ? 1 : 2;
  for (size_t i = 0; i < sizeof builtin_elements / sizeof *builtin_elements;
       i++) {
    size_t d = edit_distance(el, builtin_elements[i]);
    if (d <= best_d && (!best || d < best_d)) {
      best = builtin_elements[i];
      best_d = d;
    }
  }
  return best;
}

static bool has_default_content(const char *el) {
  return !strcmp(el, "edition") || !strcmp(el, "license") ||
         !strcmp(el, "title");
}

/* What a label template sees as `item`: the item's config plus `level`
 * and `counters` (counters[0] is the item's number). */
static tpl_value label_vars(oc_arena *a, bk_item *it, int level,
                            const int counters[6]) {
  tpl_map *item = tpl_map_new(a, 8);
  if (it->config.type == TPL_MAP)
    for (size_t i = 0; i < it->config.u.map->len; i++)
      tpl_map_set(a, item, it->config.u.map->entries[i].key,
                  it->config.u.map->entries[i].val);
  tpl_value number =
      tpl_str_copy(a, it->number ? it->number : "",
                   it->number ? strlen(it->number) : 0);
  tpl_map_set_str(a, item, "number", number);
  tpl_map_set_str(a, item, "level", tpl_int(level));
  tpl_list *c = tpl_list_new(a, 6);
  c->items[0] = number;
  for (int i = 1; i < 6; i++)
    c->items[i] = tpl_int(counters ? counters[i] : 0);
  tpl_map_set_str(a, item, "counters", tpl_list_value(c));
  tpl_map *vars = tpl_map_new(a, 2);
  tpl_map_set_str(a, vars, "item", tpl_map_value(item));
  return tpl_map_value(vars);
}

typedef struct item_ctx {
  bk_edition *e;
  bk_item *it;
} item_ctx;

static bool labelled(bk_edition *e, const char *what) {
  return bk_strings_has(&e->ed->labels, what);
}

static const char *hook_heading_label(void *user, int level,
                                      const int counters[6]) {
  item_ctx *c = user;
  if (!labelled(c->e, c->it->element))
    return "";
  tpl_value t = bk_get(c->e->labels, c->it->element);
  if (t.type == TPL_LIST)
    t = (size_t)(level - 1) < t.u.list->len ? t.u.list->items[level - 1]
                                            : tpl_null();
  else if (level != 1)
    t = tpl_null();
  if (t.type != TPL_STR)
    return "";
  const char *text = oc_arena_strndup(c->e->a, t.u.s, t.len);
  bk_origin o = label_origin(c->e, c->it->element, level);
  /* the variables live only for the render: 100,000 headings kept ~1 KB
     each in the edition's arena */
  oc_arena *tmp = oc_arena_new();
  const char *r =
      render_text_as(c->e, text, label_vars(tmp, c->it, level, counters), &o,
                     TPL_ESC_HTML);
  oc_arena_free(tmp);
  return r ? r : "";
}

static tpl_value element_vars(bk_edition *e, bk_item *it) {
  tpl_map *el = tpl_map_new(e->a, 2);
  tpl_map_set_str(e->a, el, "number", bk_s(e, it->number));
  tpl_map_set_str(e->a, el, "element", bk_s(e, it->element));
  return tpl_map_value(el);
}

static const char *numbered_label(item_ctx *c, const char *what, int n) {
  if (!labelled(c->e, what))
    return "";
  tpl_map *item = tpl_map_new(c->e->a, 2);
  tpl_map_set_str(c->e->a, item, "number", tpl_int(n));
  tpl_map *vars = tpl_map_new(c->e->a, 2);
  tpl_map_set_str(c->e->a, vars, "item", tpl_map_value(item));
  tpl_map_set_str(c->e->a, vars, "element", element_vars(c->e, c->it));
  return bk_label(c->e, what, tpl_map_value(vars));
}

static const char *hook_figure_label(void *user, int n) {
  return numbered_label(user, "figure", n);
}
static const char *hook_table_label(void *user, int n) {
  return numbered_label(user, "table", n);
}

static const char *render_block(item_ctx *c, const char *tpl, tpl_map *item) {
  bk_edition *e = c->e;
  if (!bk_has_template(e, tpl))
    return NULL;
  tpl_map *vars = tpl_map_new(e->a, 2);
  tpl_map_set_str(e->a, vars, "item", tpl_map_value(item));
  tpl_map_set_str(e->a, vars, "element", element_vars(e, c->it));
  return bk_render(e, tpl, tpl_map_value(vars), NULL);
}

/* A figure's or a table's block (align: NULL for a table, whose map has
 * none), its keys in the order the templates have always seen them. */
static const char *captioned_html(item_ctx *c, const char *tpl,
                                  const char *align, const char *caption,
                                  const char *inner, const char *label,
                                  long long number, const char *id) {
  bk_edition *e = c->e;
  tpl_map *m = tpl_map_new(e->a, 8);
  if (align)
    bk_set(e, m, "align", bk_s(e, align));
  bk_set(e, m, "caption", bk_html(e, caption));
  bk_set(e, m, "content", bk_html(e, inner));
  bk_set(e, m, "label", bk_html(e, label));
  bk_set(e, m, "number", tpl_int(number));
  bk_set(e, m, "slug", bk_s(e, id));
  return render_block(c, tpl, m);
}

static const char *hook_figure_html(void *user, const bk_md_figure *f,
                                    const char *inner) {
  return captioned_html(user, "figure.twig", f->align, f->caption, inner,
                        f->label, f->number, f->id);
}

static const char *hook_table_html(void *user, const bk_md_table *t,
                                   const char *inner) {
  return captioned_html(user, "table.twig", NULL, t->caption, inner, t->label,
                        t->number, t->id);
}

static const char *hook_code_html(void *user, const char *lang,
                                  const char *inner) {
  item_ctx *c = user;
  bk_edition *e = c->e;
  tpl_map *m = tpl_map_new(e->a, 4);
  bk_set(e, m, "content", bk_html(e, inner));
  bk_set(e, m, "language", bk_s(e, lang ? lang : ""));
  bk_set(e, m, "number", tpl_cstr(""));
  bk_set(e, m, "slug", tpl_cstr(""));
  return render_block(c, "code.twig", m);
}

/* A language code was given in that has no grammar: its blocks and the
 * first of them. */
typedef struct bk_plain_lang {
  const char *lang, *file;
  unsigned line;
  size_t blocks;
} bk_plain_lang;

static void note_plain_lang(bk_edition *e, const char *lang,
                            const char *file, unsigned line) {
  e->nplain_blocks++;
  for (size_t i = 0; i < e->nplain_langs; i++)
    if (!strcmp(e->plain_langs[i].lang, lang)) {
      e->plain_langs[i].blocks++;
      return;
    }
  e->plain_langs = oc_arena_grow_array(e->a, e->plain_langs, e->nplain_langs,
                                       &e->cplain_langs, e->nplain_langs + 1,
                                       sizeof *e->plain_langs);
  e->plain_langs[e->nplain_langs++] = (bk_plain_lang){
      oc_arena_strndup(e->a, lang, strlen(lang)), file, line, 1};
}

/* One note per language with no grammar, at its first block; the
 * reporter says it once however many editions meet the same blocks. */
static void report_plain_langs(bk_edition *e) {
  for (size_t i = 0; i < e->nplain_langs; i++) {
    const bk_plain_lang *p = &e->plain_langs[i];
    if (p->blocks == 1)
      oc_report(e->rep, OC_NOTE, p->file, p->line, 0,
                "code in '%s' is set plain: no grammar of that name is "
                "installed",
                p->lang);
    else
      oc_report(e->rep, OC_NOTE, p->file, p->line, 0,
                "code in '%s' is set plain in %zu blocks, the first here: "
                "no grammar of that name is installed",
                p->lang, p->blocks);
  }
  e->nplain_langs = 0;
}

/* A code block's text highlighted, or NULL (set plain): highlighting is
 * off, or the language has no grammar (counted for report_plain_langs),
 * or the block is beyond the highlighter's caps (a note at the block). */
static const char *hook_highlight(void *user, const char *lang,
                                  const char *code, size_t len,
                                  unsigned line) {
  item_ctx *c = user;
  bk_edition *e = c->e;
  if (!e->highlight)
    return NULL;
  hl_highlighter *hl = e->opt->hl;
  if (!hl)
    hl = e->hl ? e->hl : (e->hl = hl_new(NULL, NULL));
  oc_sb b;
  oc_sb_init(&b, e->a, len + len / 2 + 64);
  const char *why;
  const char *file = c->it->file ? c->it->file : "config.yml";
  if (!hl_html(hl, lang, code, len, &b, &why)) {
    if (!hl_resolve(hl, lang))
      note_plain_lang(e, lang, file, line);
    else
      oc_report(e->rep, OC_NOTE, file, line, 0,
                "code in '%s' is set plain: %s", lang, why);
    return NULL;
  }
  return oc_sb_cstr(&b);
}

static const char *hook_admonition_label(void *user, const char *kind) {
  item_ctx *c = user;
  return label_text(c->e, oc_arena_printf(c->e->a, "admonition_%s", kind));
}

/* Easybook put images_base_dir in front of every image path and found
 * `x.png` in Contents/images/: a relative path is looked up there first,
 * then as written (Octavo's `images/x.png`, relative to Contents/). */
static const char *hook_image_resolve(void *user, const char *src) {
  item_ctx *c = user;
  bk_edition *e = c->e;
  if (!strncmp(src, "images/", 7) || src[0] == '/' || strstr(src, ".."))
    return NULL;
  const char *in_images = oc_arena_printf(e->a, "images/%s", src);
  bool missing = false;
  const char *file = c->it->file ? c->it->file : "config.yml";
  return bk_book_path(e, "Contents", in_images, file, 0, 0, &missing)
             ? in_images
             : NULL;
}

/* Whether the first bytes are those of an image a browser, a reader or
 * the typesetter may know: PNG, JPEG, GIF, WebP, SVG, TIFF, BMP, AVIF. */
static bool looks_like_image(const unsigned char *u, size_t n) {
  if ((n >= 8 && !memcmp(u, "\x89PNG\r\n\x1a\n", 8)) ||
      (n >= 3 && u[0] == 0xFF && u[1] == 0xD8 && u[2] == 0xFF) ||
      (n >= 6 && (!memcmp(u, "GIF87a", 6) || !memcmp(u, "GIF89a", 6))) ||
      (n >= 12 && !memcmp(u, "RIFF", 4) && !memcmp(u + 8, "WEBP", 4)) ||
      (n >= 4 && (!memcmp(u, "II*", 4) || !memcmp(u, "MM\0*", 4))) ||
      (n >= 2 && !memcmp(u, "BM", 2)) ||
      (n >= 12 && !memcmp(u + 4, "ftyp", 4)))
    return true;
  for (size_t i = 0; i + 4 <= n; i++)
    if (!memcmp(u + i, "<svg", 4))
      return true;
  return false;
}

/* The image caps every edition applies to a PNG, JPEG or GIF of the book:
 * more pixels than image_max_megapixels (read from the header, nothing
 * decoded; a GIF's logical screen), or a PNG or JPEG that does not decode
 * whole (truncated, corrupt), is a warning at the Markdown's file:line, and
 * its alt text stands in. Returns 0 when the image may be used, -1 when
 * reported. */
static int image_check(bk_edition *e, const char *abs, const char *written,
                       const char *file, unsigned line, unsigned col) {
  const oc_severity sev = OC_WARNING;
  int kind = ts_image_sniff(abs);
  if (kind != 1 && kind != 2 && kind != 4)
    return 0; /* missing or another kind: the caller's checks say so */
  char why[200];
  unsigned w, h;
  uint64_t cap = e->ed->image_max_megapixels
                     ? (uint64_t)e->ed->image_max_megapixels
                     : TS_IMAGE_MAX_PIXELS / 1000000;
  if (ts_image_header(abs, kind, &w, &h, why, sizeof why) == 0 &&
      (uint64_t)w * h > cap * 1000000) {
    oc_report(e->rep, sev, file, line, col,
              "the image '%s' has %ux%u pixels (%.0f megapixels), more than "
              "the edition option image_max_megapixels allows (%llu); its "
              "alternative text stands in",
              written, w, h, (double)w * h / 1e6, (unsigned long long)cap);
    return -1;
  }
  if (ts_image_verify(abs, kind, why, sizeof why) != 0) {
    oc_report(e->rep, sev, file, line, col,
              "the image '%s' is truncated or corrupt (%s); its alternative "
              "text stands in",
              written, why);
    return -1;
  }
  return 0;
}

/* A local image of the Markdown: found, readable and an image, else a
 * warning at its place and false (its alt text stands in, in every
 * edition). A path that leaves the book is an error (bk_book_path). */
static bool hook_image_ok(void *user, const char *src, unsigned line,
                          unsigned col) {
  item_ctx *c = user;
  bk_edition *e = c->e;
  /* An image used again is not read again (100,000 images nested in their
   * alt texts read one file 100,000 times: 40 s). */
  if (tpl_map_get_str(e->images_ok, src, strlen(src), NULL))
    return true;
  const char *file = c->it->file ? c->it->file : "config.yml";
  bool missing = false;
  const char *abs = bk_book_path(e, "Contents", src, file, line, col, &missing);
  if (!abs) {
    /* hook_image_resolve looked in Contents/images/ first */
    bool looked_twice =
        strncmp(src, "images/", 7) != 0 && src[0] != '/' && !strstr(src, "..");
    if (missing && looked_twice)
      oc_report(e->rep, OC_WARNING, file, line, col,
                "image '%s' not found in Contents/images/ nor in Contents/; "
                "its alternative text stands in",
                src);
    else if (missing)
      oc_report(e->rep, OC_WARNING, file, line, col,
                "image 'Contents/%s' not found; its alternative text stands "
                "in",
                src);
    return false;
  }
  unsigned char head[1024];
  ssize_t n = -1;
  int fd = open(abs, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
    n = read(fd, head, sizeof head);
  if (fd >= 0)
    close(fd);
  if (n < 0) {
    oc_report(e->rep, OC_WARNING, file, line, col,
              "cannot read image 'Contents/%s'; its alternative text stands "
              "in",
              src);
    return false;
  }
  if (!looks_like_image(head, (size_t)n)) {
    oc_report(e->rep, OC_WARNING, file, line, col,
              "'Contents/%s' is not an image (not a PNG, JPEG, GIF, SVG or "
              "WebP file); its alternative text stands in",
              src);
    return false;
  }
  /* the pixel cap and a whole decode (truncated or corrupt files), the
   * same in every edition */
  if (image_check(e, abs, src, file, line, col) != 0)
    return false;
  tpl_map_set_str(e->a, e->images_ok, oc_arena_strndup(e->a, src, strlen(src)),
                  tpl_bool(true));
  return true;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

/* The item's source text: its content file (rendered first when it ends
 * in .twig), or the theme's default content for edition, license, title. */
static int item_source(bk_edition *e, bk_item *it, size_t i, const char **src,
                       size_t *len) {
  *src = NULL;
  *len = 0;
  char path[64];
  snprintf(path, sizeof path, "book.contents.%zu.content", i);
  if (it->conf->content) {
    const char *rel = it->conf->content;
    bk_pos pos = {"config.yml", 0, 0};
    bk_config_where(e->cfg, path, &pos);
    bool missing = false;
    const char *abs =
        bk_book_path(e, "Contents", rel, pos.file, pos.line, pos.col, &missing);
    if (!abs) {
      if (missing)
        report_at(e, OC_ERROR, path, "content file 'Contents/%s' not found",
                  rel);
      else
        e->errors++;
      return -1;
    }
    size_t n;
    char *text = oc_read_file(abs, &n);
    if (!text) {
      report_at(e, OC_ERROR, path, "cannot read 'Contents/%s': %s", rel,
                oc_file_error(errno));
      return -1;
    }
    it->file = oc_arena_printf(e->a, "Contents/%s", rel);
    const char *s = oc_arena_strndup(e->a, text, n);
    free(text);
    if (ends_with(rel, ".twig")) {
      tpl_loader_add_string(e->loader, it->file, s, n);
      tpl_map *vars = tpl_map_new(e->a, 2);
      tpl_map_set_str(e->a, vars, "item", it->config);
      s = bk_render(e, it->file, tpl_map_value(vars), &n);
      if (!s)
        return -1;
    }
    *src = s;
    *len = n;
    return 0;
  }
  if (has_default_content(it->element)) {
    const char *name =
        oc_arena_printf(e->a, "@content/%s.md.twig", it->element);
    if (!bk_has_template(e, name))
      return 0;
    tpl_map *vars = tpl_map_new(e->a, 2);
    tpl_map_set_str(e->a, vars, "item", it->config);
    *src = bk_render(e, name, tpl_map_value(vars), len);
    it->file = oc_arena_printf(e->a, "(the theme's %s.md.twig)", it->element);
    return *src ? 0 : -1;
  }
  return 0;
}

tpl_map *bk_heading_map(bk_edition *e, const bk_heading *h) {
  tpl_map *m = tpl_map_new(e->a, 6);
  bk_set(e, m, "level", tpl_int(h->level));
  bk_set(e, m, "title", bk_html(e, h->title));
  bk_set(e, m, "slug", bk_s(e, h->slug));
  bk_set(e, m, "label", bk_html(e, h->label));
  bk_set(e, m, "url", bk_s(e, oc_arena_printf(e->a, "#%s", h->slug)));
  return m;
}

/* ---- the Markdown cache (book.h) ----------------------------------- */

typedef struct md_slot {
  uint64_t where;  /* the edition and the item's index */
  uint64_t key[2]; /* what the result depends on */
  oc_arena *a;     /* the result's */
  bk_md_result md;
} md_slot;

struct bk_md_cache {
  md_slot *slots;
  size_t n, cap;
  size_t hits, misses;
};

bk_md_cache *bk_md_cache_new(void) { return oc_calloc(1, sizeof(bk_md_cache)); }

void bk_md_cache_clear(bk_md_cache *c) {
  for (size_t i = 0; i < c->n; i++)
    oc_arena_free(c->slots[i].a);
  c->n = 0;
}

void bk_md_cache_free(bk_md_cache *c) {
  if (!c)
    return;
  bk_md_cache_clear(c);
  free(c->slots);
  free(c);
}

void bk_md_cache_counts(const bk_md_cache *c, size_t *hits, size_t *misses) {
  *hits = c->hits;
  *misses = c->misses;
}

static void key_str(uint64_t k[2], const char *s) {
  bk_hash_feed(k, s ? s : "", s ? strlen(s) + 1 : 1);
}

/* Counts what a render reports, passing it on. */
typedef struct count_rep {
  const oc_reporter *next;
  unsigned n;
} count_rep;

static void count_diag(void *user, oc_severity sev, const char *file,
                       unsigned line, unsigned col, const char *msg) {
  count_rep *c = user;
  c->n++;
  if (c->next && c->next->fn)
    c->next->fn(c->next->user, sev, file, line, col, msg);
}

/* bk_md_render through the edition's cache when it has one. */
static int render_md(bk_edition *e, size_t i, const char *src, size_t len,
                     bk_md_options *mo, bk_md_result *out) {
  bk_md_cache *c = e->opt ? e->opt->md_cache : NULL;
  if (!c)
    return bk_md_render(e->a, src, len, mo, out);
  uint64_t before = bk_idset_digest(e->ids);
  uint64_t where[2] = {0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL};
  key_str(where, e->name);
  uint64_t idx = i;
  bk_hash_feed(where, &idx, sizeof idx);
  uint64_t key[2] = {where[0], where[1]};
  key_str(key, e->format);
  key_str(key, mo->file);
  key_str(key, mo->id_prefix);
  key_str(key, mo->images_base_dir);
  key_str(key, mo->backref_label);
  bool flags[3] = {mo->extract_title, mo->epub, mo->page_notes};
  bk_hash_feed(key, flags, sizeof flags);
  bk_hash_feed(key, &before, sizeof before);
  uint64_t n = len;
  bk_hash_feed(key, &n, sizeof n);
  bk_hash_feed(key, src, len);
  md_slot *slot = NULL;
  for (size_t k = 0; k < c->n && !slot; k++)
    if (c->slots[k].where == where[0])
      slot = &c->slots[k];
  if (slot && slot->key[0] == key[0] && slot->key[1] == key[1]) {
    c->hits++;
    *out = slot->md;
    for (size_t k = 0; k < out->nids; k++)
      bk_idset_add(e->ids, out->ids[k]);
    return 0;
  }
  c->misses++;
  count_rep counted = {e->rep, 0};
  size_t plain_before = e->nplain_blocks;
  oc_reporter wrap = {count_diag, &counted};
  const oc_reporter *saved = e->rep;
  e->rep = &wrap;
  mo->report = &wrap;
  int rc = bk_md_render(e->a, src, len, mo, out);
  e->rep = saved;
  mo->report = saved;
  /* kept only when nothing was said, and when its ids are all the render
     claimed (what a hit claims again) */
  uint64_t after = before;
  for (size_t k = 0; rc == 0 && k < out->nids; k++)
    after = bk_idset_digest_with(after, out->ids[k]);
  bool keep = rc == 0 && !counted.n && e->nplain_blocks == plain_before &&
              after == bk_idset_digest(e->ids);
  if (slot) {
    oc_arena_free(slot->a);
    *slot = c->slots[--c->n];
  }
  if (keep) {
    OC_GROW(c->slots, c->cap, c->n + 1);
    slot = &c->slots[c->n++];
    slot->where = where[0];
    slot->key[0] = key[0];
    slot->key[1] = key[1];
    slot->a = oc_arena_new();
    bk_md_result_copy(slot->a, out, &slot->md);
  }
  return rc;
}

static int load_item(bk_edition *e, bk_item *it, size_t i) {
  char path[64];
  snprintf(path, sizeof path, "book.contents.%zu.element", i);
  if (!is_builtin(it->element) &&
      !bk_has_template(e, oc_arena_printf(e->a, "%s.twig", it->element))) {
    const char *near = nearest_element(it->element);
    if (near)
      report_at(e, OC_ERROR, path, "unknown element '%s' (did you mean '%s'?)",
                it->element, near);
    else
      report_at(e, OC_ERROR, path,
                "unknown element '%s': a book's own element needs a "
                "template '%s.twig' for the %s format, in "
                "Resources/Templates/ or Resources/Templates/%s/",
                it->element, it->element, e->format, e->format);
    return -1;
  }
  const char *src;
  size_t len;
  if (item_source(e, it, i, &src, &len) != 0)
    return -1;
  item_ctx c = {e, it};
  bk_md_options mo;
  memset(&mo, 0, sizeof mo);
  mo.file = it->file ? it->file : "config.yml";
  mo.first_line = 1;
  mo.id_prefix = it->number[0] ? it->number : it->element;
  mo.images_base_dir = e->ed->images_base_dir;
  mo.extract_title = true;
  mo.backref_label = label_text(e, "back_to_text");
  mo.epub = !strcmp(e->format, "epub") || !strcmp(e->format, "mobi");
  /* a pdf edition sets notes at the foot of their pages unless its
     `footnotes: end` keeps them at the end of each item */
  mo.page_notes = !strcmp(e->format, "pdf") && e->ed->footnotes != 1;
  mo.ids = e->ids;
  mo.slugger = e->slugger;
  mo.report = e->rep;
  mo.hooks = (bk_md_hooks){&c,
                           hook_heading_label,
                           hook_figure_label,
                           hook_table_label,
                           hook_figure_html,
                           hook_table_html,
                           hook_code_html,
                           hook_admonition_label,
                           hook_image_ok,
                           hook_image_resolve,
                           hook_highlight};
  memset(&it->md, 0, sizeof it->md);
  if (src) {
    if (render_md(e, i, src, len, &mo, &it->md) != 0) {
      e->errors++;
      return -1;
    }
    it->content = it->md.html;
  } else {
    it->content = "";
  }
  /* Title: the entry's, else the leading H1, else the default. */
  if (it->conf->title) {
    /* Titles are HTML (a heading's); the entry's is text. */
    it->title = bk_md_escape(e->a, it->conf->title, strlen(it->conf->title));
  } else if (it->md.title)
    it->title = it->md.title;
  else
    it->title = bk_title(e, it->element);
  /* Label: only for elements listed in the edition's labels. */
  it->label = "";
  if (labelled(e, it->element)) {
    const char *l = hook_heading_label(&c, 1, NULL);
    it->label = l ? l : "";
  }
  if (it->md.title_id)
    it->slug = it->md.title_id;
  else {
    const char *base =
        it->title[0] ? bk_slug(e->slugger, e->a, it->title, strlen(it->title))
                     : "";
    it->slug = bk_idset_unique(e->ids, base[0] ? base : it->element);
  }
  /* TOC: the item's headings; an item without any gets one entry. */
  /* TOC: the item's headings, its title first: the leading H1 when the
   * content has one, else an entry made of its title and label. */
  size_t n = it->md.nheadings;
  size_t extra = it->md.title ? 0 : 1;
  it->nheadings = n + extra;
  it->headings = oc_arena_alloc(e->a, (n + extra) * sizeof *it->headings);
  if (extra)
    it->headings[0] = (bk_heading){1, it->title, it->label, it->slug};
  for (size_t k = 0; k < n; k++) {
    const bk_md_heading *h = &it->md.headings[k];
    bool title = k == 0 && it->md.title;
    it->headings[k + extra] =
        (bk_heading){h->level, title ? it->title : h->title,
                     title ? it->label : h->label, title ? it->slug : h->id};
  }
  return 0;
}

static void say_nothing(void *user, oc_severity sev, const char *file,
                        unsigned line, unsigned col, const char *msg) {
  (void)user, (void)sev, (void)file, (void)line, (void)col, (void)msg;
}

/* An item that editions: or formats: leave out of this edition: its ids,
 * read with nothing said into a set of their own, so that a link to it
 * says why it leads nowhere here. Its mistakes are the other editions'
 * to report. */
static void left_out_item(bk_edition *e, const bk_item_conf *conf, size_t i) {
  if (!e->left_out_ids)
    e->left_out_ids = bk_idset_new(e->a);
  bk_item it = {0};
  it.conf = conf;
  it.config = conf->map;
  it.element = conf->element;
  it.number = conf->number;
  if (!is_builtin(it.element) &&
      !bk_has_template(e, oc_arena_printf(e->a, "%s.twig", it.element)))
    return;
  oc_reporter silent = {say_nothing, NULL};
  const oc_reporter *saved = e->rep;
  int errors = e->errors;
  e->rep = &silent;
  const char *src = NULL;
  size_t len = 0;
  if (item_source(e, &it, i, &src, &len) == 0 && src) {
    bk_md_options mo;
    memset(&mo, 0, sizeof mo);
    mo.file = it.file ? it.file : "config.yml";
    mo.first_line = 1;
    mo.id_prefix = it.number[0] ? it.number : it.element;
    mo.extract_title = true;
    mo.ids = e->left_out_ids;
    mo.slugger = e->slugger;
    mo.report = &silent;
    bk_md_result md;
    bk_md_render(e->a, src, len, &mo, &md);
  }
  e->rep = saved;
  e->errors = errors;
}

/* An entry of app.get('publishing.list.images'|'…tables'): the figure or
 * table as `item`, the item that holds it as `element`. */
static tpl_value float_entry(bk_edition *e, tpl_map *holder, int number,
                             const char *id, const char *caption,
                             const char *label) {
  tpl_map *m = tpl_map_new(e->a, 6);
  bk_set(e, m, "number", tpl_int(number));
  bk_set(e, m, "slug", bk_s(e, id));
  bk_set(e, m, "caption", bk_html(e, caption));
  bk_set(e, m, "label", bk_html(e, label));
  bk_set(e, m, "url", bk_s(e, oc_arena_printf(e->a, "#%s", id)));
  tpl_map *pair = tpl_map_new(e->a, 2);
  bk_set(e, pair, "item", tpl_map_value(m));
  bk_set(e, pair, "element", tpl_map_value(holder));
  return tpl_map_value(pair);
}

static void build_records(bk_edition *e) {
  tpl_list *items = tpl_list_new(e->a, e->nitems);
  tpl_list *figs = tpl_list_new(e->a, e->nitems);
  tpl_list *tabs = tpl_list_new(e->a, e->nitems);
  for (size_t i = 0; i < e->nitems; i++) {
    bk_item *it = &e->items[i];
    tpl_map *r = tpl_map_new(e->a, 10);
    bk_set(e, r, "config", it->config);
    bk_set(e, r, "title", bk_html(e, it->title));
    bk_set(e, r, "label", bk_html(e, it->label));
    bk_set(e, r, "slug", bk_s(e, it->slug));
    bk_set(e, r, "content", bk_html(e, it->content));
    it->toc = tpl_list_new(e->a, it->nheadings);
    for (size_t k = 0; k < it->nheadings; k++)
      it->toc->items[k] = tpl_map_value(bk_heading_map(e, &it->headings[k]));
    bk_set(e, r, "toc", tpl_list_value(it->toc));
    bk_set(e, r, "page_name", bk_s(e, it->page_name ? it->page_name : ""));
    bk_set(e, r, "url", bk_s(e, oc_arena_printf(e->a, "#%s", it->slug)));
    it->record = r;
    items->items[i] = tpl_map_value(r);
    tpl_list *fl = tpl_list_new(e->a, it->md.nfigures);
    for (size_t k = 0; k < it->md.nfigures; k++) {
      const bk_md_figure *f = &it->md.figures[k];
      fl->items[k] = float_entry(e, r, f->number, f->id, f->caption, f->label);
    }
    figs->items[i] = tpl_list_value(fl);
    tpl_list *tl = tpl_list_new(e->a, it->md.ntables);
    for (size_t k = 0; k < it->md.ntables; k++) {
      const bk_md_table *t = &it->md.tables[k];
      tl->items[k] = float_entry(e, r, t->number, t->id, t->caption, t->label);
    }
    tabs->items[i] = tpl_list_value(tl);
  }
  e->items_list = tpl_list_value(items);
  e->figures = tpl_list_value(figs);
  e->tables = tpl_list_value(tabs);
}

static bool id_is_dead(void *user, const char *id, size_t len) {
  bk_edition *e = user;
  char *s = oc_arena_strndup(e->a, id, len);
  return s[0] && !bk_idset_has(e->ids, s);
}

/* Warns about links to ids that no item defines; such a link becomes its
 * text, in every edition (an EPUB may not keep a dead fragment). */
static void check_links(bk_edition *e) {
  for (size_t i = 0; i < e->nitems; i++) {
    bk_item *it = &e->items[i];
    bool dead = false;
    for (size_t k = 0; k < it->md.nlinks; k++) {
      const bk_md_ref *l = &it->md.links[k];
      if (!l->target[0] || bk_idset_has(e->ids, l->target))
        continue;
      dead = true;
      if (e->left_out_ids && bk_idset_has(e->left_out_ids, l->target))
        oc_report(e->rep, OC_WARNING, it->file ? it->file : "config.yml",
                  l->line, l->col,
                  "link to '#%s', which is in an item that 'editions' or "
                  "'formats' leave out of edition '%s'; it is printed as "
                  "plain text there",
                  l->target, e->name);
      else
        oc_report(e->rep, OC_WARNING, it->file ? it->file : "config.yml",
                  l->line, l->col,
                  "link to '#%s', which is not an id anywhere in the book; "
                  "it is printed as plain text",
                  l->target);
    }
    if (!dead)
      continue;
    it->content = bk_md_unlink(e->a, it->content, id_is_dead, e);
    /* a heading's link lives on in the TOC too */
    it->title = bk_md_unlink(e->a, it->title, id_is_dead, e);
    for (size_t k = 0; k < it->nheadings; k++)
      it->headings[k].title =
          bk_md_unlink(e->a, it->headings[k].title, id_is_dead, e);
  }
}

/* publish --theme DIR: the edition's theme is the folder (canonical,
 * checked by publish.c), which must have templates for its format. */
static int theme_folder(bk_edition *e) {
  const char *dir = e->opt->theme_dir;
  const char *fdir = bk_theme_format_dir(e->format);
  struct stat st;
  if (stat(oc_arena_printf(e->a, "%s/%s", dir, fdir), &st) != 0 ||
      !S_ISDIR(st.st_mode)) {
    oc_report(e->rep, OC_ERROR, e->opt->theme_shown, 0, 0,
              "the theme has no %s/ folder for edition '%s' (format %s): a "
              "theme folder holds html/, html_chunked/, epub/ and pdf/, "
              "with common/ and contents/",
              fdir, e->name, e->format);
    e->errors++;
    return -1;
  }
  e->theme = (bk_theme){strrchr(dir, '/') + 1, fdir, NULL, 0, dir};
  return 0;
}

int bk_edition_init(bk_edition *e, bk_config *cfg, const char *book_dir,
                    const char *name, const bk_options *opt,
                    const oc_reporter *rep) {
  memset(e, 0, sizeof *e);
  e->a = oc_arena_new();
  e->cfg = cfg;
  e->book_dir = book_dir;
  e->name = name;
  e->opt = opt;
  e->rep = rep;
  e->ed = bk_config_edition_conf(cfg, name);
  if (!e->ed) {
    oc_report(rep, OC_ERROR, NULL, 0, 0, "the book has no edition '%s'", name);
    return -1;
  }
  e->bk = *bk_config_book_conf(cfg);
  e->book = bk_config_book(cfg);
  e->edition = e->ed->map;
  e->format = e->ed->format;
  e->highlight = e->ed->highlight_code;
  char path[300];
  const char *theme = e->ed->theme;
  if (opt->theme_dir) {
    if (theme_folder(e) != 0)
      return -1;
  } else if (!bk_find_theme(theme, e->format, &e->theme)) {
    snprintf(path, sizeof path, "book.editions.%s.theme", name);
    report_at(e, OC_ERROR, path, "unknown theme '%s' (Octavo has: %s)", theme,
              bk_theme_names());
    return -1;
  }
  e->slugger = bk_slugger_new();
  e->text_cache = tpl_map_new(e->a, 16);
  e->tpl_exists = tpl_map_new(e->a, 16);
  e->images_ok = tpl_map_new(e->a, 16);
  e->origins = tpl_map_new(e->a, 16);
  e->failed = tpl_map_new(e->a, 4);
  e->ids = bk_idset_new(e->a);
  if (setup_env(e) != 0)
    return -1;
  bk_pos lang_pos = {"config.yml", 0, 0};
  bk_config_where(cfg, "book.language", &lang_pos);
  if (bk_i18n_load_at(e->a, book_dir, e->bk.language, &lang_pos, name,
                      e->format, rep, &e->labels, &e->titles) != 0)
    return -1;
  render_book_strings(e);
  return e->errors ? -1 : 0;
}

const char *bk_render_string(bk_edition *e, const char *text,
                             const char *path) {
  bk_origin o = value_origin(e, path);
  return render_text(e, oc_arena_strndup(e->a, text, strlen(text)), tpl_null(),
                     &o);
}

const char *bk_render_command(bk_edition *e, const char *text,
                              const char *path) {
  bk_origin o = value_origin(e, path);
  return render_text_as(e, oc_arena_strndup(e->a, text, strlen(text)),
                        tpl_null(), &o, TPL_ESC_SH);
}

int bk_edition_load_items(bk_edition *e) {
  /* Items. */
  size_t n = e->bk.nitems;
  if (!n) {
    report_at(e, OC_ERROR, "book",
              "the book has no contents: list its "
              "chapters under 'contents:'");
    return -1;
  }
  e->items = oc_arena_calloc(e->a, n, sizeof *e->items);
  e->nitems = 0;
  int rc = 0;
  for (size_t i = 0; i < n; i++) {
    const bk_item_conf *conf = &e->bk.items[i];
    /* an item for other editions only (editions:, formats:) is left out
       before anything counts it: numbering, the TOC, ids, the index */
    if (!bk_item_conf_in(conf, e->name, e->format)) {
      left_out_item(e, conf, i);
      continue;
    }
    bk_item *it = &e->items[e->nitems++];
    it->conf = conf;
    it->config = conf->map;
    it->element = conf->element;
    it->number = conf->number;
    if (load_item(e, it, i) != 0)
      rc = -1;
  }
  if (!e->nitems) {
    report_at(e, OC_ERROR, "book.contents",
              "edition '%s' has no contents: every item's 'editions' or "
              "'formats' leaves it out",
              e->name);
    return -1;
  }
  report_plain_langs(e);
  if (rc != 0 || e->errors)
    return -1;
  check_links(e);
  build_records(e);
  return 0;
}

void bk_edition_free(bk_edition *e) {
  hl_free(e->hl);
  if (e->env)
    tpl_env_free(e->env);
  if (e->slugger)
    bk_slugger_free(e->slugger);
  if (e->a)
    oc_arena_free(e->a);
  memset(e, 0, sizeof *e);
}
