/* The engine of the template run time: environments and template sources,
 * one render (arena, output buffer, error unwinding), scopes, for loops, and
 * inheritance, blocks, includes, embeds, imports and macros, as Twig 3.5's
 * Template class and the PHP it compiles to behave. */
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "oc_alloc.h"
#include "tpl_rt.h"

/* ==== scopes ========================================================== */

/* A reserved macro parameter not bound yet: present for ordering (Twig's
 * macro context lists the parameters in order) but invisible to reads. */
#define TPL_SLOT_UNSET 0xffu
/* Below this many variables a scope is searched linearly: cheaper than
 * hashing for the loop and block scopes that hold one or two. */
#define TPL_SCOPE_LINEAR 8

typedef struct tpl_slot {
  const char *s;
  uint32_t len, hash;
  tpl_value v;
} tpl_slot;

struct tpl_ctx {
  tpl_ctx *parent;
  tpl_slot *slots; /* in insertion order */
  uint32_t *index; /* slot number + 1, open addressing; NULL while small */
  uint32_t n, cap, mask;
  bool transparent;
};

static tpl_ctx *tpl_ctx_alloc(oc_arena *a, tpl_ctx *parent, bool transparent) {
  tpl_ctx *c = oc_arena_alloc(a, sizeof *c);
  c->parent = parent;
  c->slots = NULL;
  c->index = NULL;
  c->n = c->cap = c->mask = 0;
  c->transparent = transparent;
  return c;
}

static inline bool tpl_slot_is(const tpl_slot *sl, const char *s, uint32_t len,
                               uint32_t hash) {
  return sl->hash == hash && sl->len == len &&
         (sl->s == s || memcmp(sl->s, s, len) == 0);
}

static int64_t tpl_ctx_find_own(const tpl_ctx *c, const char *s, uint32_t len,
                                uint32_t hash) {
  if (!c->index) {
    for (uint32_t i = 0; i < c->n; i++)
      if (tpl_slot_is(&c->slots[i], s, len, hash))
        return i;
    return -1;
  }
  for (uint32_t i = hash & c->mask;; i = (i + 1) & c->mask) {
    uint32_t k = c->index[i];
    if (!k)
      return -1;
    if (tpl_slot_is(&c->slots[k - 1], s, len, hash))
      return k - 1;
  }
}

static void tpl_ctx_reindex(oc_arena *a, tpl_ctx *c, uint32_t size) {
  c->index = oc_arena_calloc(a, size, sizeof *c->index);
  c->mask = size - 1;
  for (uint32_t k = 0; k < c->n; k++) {
    uint32_t i = c->slots[k].hash & c->mask;
    while (c->index[i])
      i = (i + 1) & c->mask;
    c->index[i] = k + 1;
  }
}

/* Appends a new variable (the caller knows it is not there). */
static uint32_t tpl_ctx_append(oc_arena *a, tpl_ctx *c, const char *s,
                               uint32_t len, uint32_t hash, tpl_value v) {
  if (c->n == c->cap) {
    if (c->cap > UINT32_MAX / 4)
      oc_oom();
    uint32_t cap = c->cap ? c->cap * 2 : 4;
    tpl_slot *ns = oc_arena_alloc(a, (size_t)cap * sizeof *ns);
    if (c->n)
      memcpy(ns, c->slots, (size_t)c->n * sizeof *ns);
    c->slots = ns;
    c->cap = cap;
  }
  uint32_t k = c->n++;
  c->slots[k].s = s;
  c->slots[k].len = len;
  c->slots[k].hash = hash;
  c->slots[k].v = v;
  if (c->n > TPL_SCOPE_LINEAR) {
    /* Keep the load factor at or under one half. */
    if (!c->index || (uint64_t)c->n * 2 > (uint64_t)c->mask + 1) {
      uint32_t size = 16;
      while (size < c->n * 4u)
        size *= 2;
      tpl_ctx_reindex(a, c, size);
    } else {
      uint32_t i = hash & c->mask;
      while (c->index[i])
        i = (i + 1) & c->mask;
      c->index[i] = k + 1;
    }
  }
  return k;
}

static uint32_t tpl_ctx_put(oc_arena *a, tpl_ctx *c, const char *s,
                            uint32_t len, uint32_t hash, tpl_value v) {
  int64_t i = tpl_ctx_find_own(c, s, len, hash);
  if (i >= 0) {
    c->slots[i].v = v;
    return (uint32_t)i;
  }
  return tpl_ctx_append(a, c, s, len, hash, v);
}

tpl_ctx *tpl_ctx_new(tpl_rt *rt, tpl_ctx *parent, bool transparent) {
  return tpl_ctx_alloc(rt->arena, parent, transparent);
}

static bool tpl_ctx_lookup(const tpl_ctx *ctx, const char *s, uint32_t len,
                           uint32_t hash, tpl_value *out) {
  for (const tpl_ctx *c = ctx; c; c = c->parent) {
    int64_t i = tpl_ctx_find_own(c, s, len, hash);
    if (i >= 0 && c->slots[i].v.type != TPL_SLOT_UNSET) {
      if (out)
        *out = c->slots[i].v;
      return true;
    }
  }
  return false;
}

bool tpl_ctx_get(const tpl_ctx *ctx, const tpl_name *name, tpl_value *out) {
  return tpl_ctx_lookup(ctx, name->s, name->len, name->hash, out);
}

void tpl_ctx_set(tpl_rt *rt, tpl_ctx *ctx, const tpl_name *name, tpl_value v) {
  if (ctx->transparent) {
    /* Twig copies the context around a loop and, after it, keeps only the
     * variables that existed before: so a write lands where the variable
     * already lives (up to the first opaque scope, whose copy is what the
     * loop started from), and new variables stay in the loop's scope. */
    for (tpl_ctx *c = ctx; c; c = c->parent) {
      int64_t i = tpl_ctx_find_own(c, name->s, name->len, name->hash);
      if (i >= 0) {
        c->slots[i].v = v;
        return;
      }
      if (!c->transparent) {
        if (c->parent &&
            tpl_ctx_lookup(c->parent, name->s, name->len, name->hash, NULL))
          tpl_ctx_append(rt->arena, c, name->s, name->len, name->hash, v);
        else
          tpl_ctx_append(rt->arena, ctx, name->s, name->len, name->hash, v);
        return;
      }
    }
  }
  tpl_ctx_put(rt->arena, ctx, name->s, name->len, name->hash, v);
}

void tpl_ctx_set_own(tpl_rt *rt, tpl_ctx *ctx, const tpl_name *name,
                     tpl_value v) {
  tpl_ctx_put(rt->arena, ctx, name->s, name->len, name->hash, v);
}

bool tpl_ctx_has_own(const tpl_ctx *ctx, const tpl_name *name) {
  int64_t i = tpl_ctx_find_own(ctx, name->s, name->len, name->hash);
  return i >= 0 && ctx->slots[i].v.type != TPL_SLOT_UNSET;
}

/* Sets one variable named by a map key (ints become their decimal text). */
static void tpl_ctx_put_key(tpl_rt *rt, tpl_ctx *ctx, tpl_value key,
                            tpl_value v) {
  if (key.type != TPL_STR) {
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%lld", (long long)tpl_to_int(key));
    key = tpl_str_copy(rt->arena, buf, (size_t)n);
  }
  tpl_ctx_put(rt->arena, ctx, key.u.s, key.len,
              tpl_hash_bytes(key.u.s, key.len), v);
}

void tpl_ctx_merge(tpl_rt *rt, tpl_ctx *ctx, tpl_value map,
                   const tpl_loc *loc) {
  if (map.type == TPL_OBJ && map.u.obj->cls->to_array)
    map = map.u.obj->cls->to_array(rt, map.u.obj);
  switch (map.type) {
  case TPL_NULL:
    return;
  case TPL_LIST:
    for (size_t i = 0; i < map.u.list->len; i++)
      tpl_ctx_put_key(rt, ctx, tpl_int((int64_t)i), map.u.list->items[i]);
    return;
  case TPL_MAP:
    for (size_t i = 0; i < map.u.map->len; i++)
      tpl_ctx_put_key(rt, ctx, map.u.map->entries[i].key,
                      map.u.map->entries[i].val);
    return;
  default:
    tpl_fail(rt, loc, "variables must be given as a mapping");
  }
}

static void tpl_ctx_add_to_map(tpl_rt *rt, tpl_map *m, const tpl_ctx *c,
                               bool only_new) {
  for (uint32_t i = 0; i < c->n; i++) {
    const tpl_slot *sl = &c->slots[i];
    if (sl->v.type == TPL_SLOT_UNSET)
      continue;
    tpl_value key = tpl_str(sl->s, sl->len);
    if (only_new && tpl_map_get(m, key, NULL))
      continue;
    tpl_map_set(rt->arena, m, key, sl->v);
  }
}

tpl_value tpl_ctx_to_map(tpl_rt *rt, const tpl_ctx *ctx) {
  /* Twig's context lists the caller's variables first, then those added
   * later, and the globals (merged in when a template is displayed) last. */
  size_t n = 0;
  bool globals = false;
  for (const tpl_ctx *c = ctx; c && !(globals = c == rt->globals);
       c = c->parent)
    n++;
  const tpl_ctx **stack = oc_arena_calloc(rt->arena, n + 1, sizeof *stack);
  size_t k = 0;
  for (const tpl_ctx *c = ctx; k < n; c = c->parent)
    stack[k++] = c;
  tpl_map *m = tpl_map_new(rt->arena, 8);
  while (n)
    tpl_ctx_add_to_map(rt, m, stack[--n], false);
  if (globals)
    tpl_ctx_add_to_map(rt, m, rt->globals, true);
  return tpl_map_value(m);
}

/* ==== environments and sources ======================================= */

typedef struct tpl_tinfo tpl_tinfo;

struct tpl_env {
  oc_arena *arena;
  tpl_source *sources;
  tpl_source_text_fn *texts; /* per source, may be NULL */
  size_t nsources, csources;
  tpl_ctx *globals;
  bool strict, debug, seed_set, now_set;
  uint64_t seed;
  int64_t now;
  int autoescape;
  /* The size of the last output: the next render's first buffer, so that
   * renders of similar pages do not grow it step by step. */
  size_t out_hint;
  size_t memory_limit; /* per render: arena plus output, 0 for none */
  /* per render, or the renders' together (budgets_shared): */
  uint64_t work_limit;  /* steps (tpl_work), 0 for none */
  size_t output_limit;  /* bytes of output, 0 for none */
  const char *work_setting, *output_setting; /* named in the errors */
  /* tpl_env_set_budgets_shared, tpl_env_set_nul_forbidden, whether a
   * render failed for want of a shared budget, and what the renders spent
   * (shared or not). */
  bool budgets_shared, nul_forbidden, budget_exhausted;
  uint64_t work_spent;
  size_t output_spent;
  /* Resolved block tables per template, keyed by address (malloc'd). */
  tpl_tinfo **tinfo;
  size_t tinfo_n, tinfo_cap;
};

tpl_env *tpl_env_new(void) {
  tpl_env *env = oc_calloc(1, sizeof *env);
  env->arena = oc_arena_new();
  env->globals = tpl_ctx_alloc(env->arena, NULL, false);
  env->autoescape = -1;
  env->memory_limit = TPL_DEFAULT_MEMORY_LIMIT;
  env->work_limit = TPL_DEFAULT_WORK_LIMIT;
  env->output_limit = TPL_DEFAULT_OUTPUT_LIMIT;
  return env;
}

void tpl_env_set_memory_limit(tpl_env *env, size_t bytes) {
  env->memory_limit = bytes;
}

void tpl_env_set_work_limit(tpl_env *env, uint64_t steps, const char *setting) {
  env->work_limit = steps;
  env->work_setting = setting;
}

void tpl_env_set_output_limit(tpl_env *env, size_t bytes, const char *setting) {
  env->output_limit = bytes;
  env->output_setting = setting;
}

void tpl_env_set_budgets_shared(tpl_env *env, bool shared) {
  env->budgets_shared = shared;
}

uint64_t tpl_env_work_spent(const tpl_env *env) { return env->work_spent; }

size_t tpl_env_output_spent(const tpl_env *env) { return env->output_spent; }

bool tpl_env_budget_exhausted(const tpl_env *env) {
  return env->budget_exhausted;
}

void tpl_env_set_nul_forbidden(tpl_env *env, bool forbidden) {
  env->nul_forbidden = forbidden;
}

void tpl_out_nul(tpl_rt *rt) {
  tpl_fail(rt, NULL,
           "the template prints a NUL byte, which would cut the page short "
           "there");
}

void tpl_work_over(tpl_rt *rt, const tpl_loc *loc) {
  if (!rt->work_limit) {
    rt->work_left = UINT64_MAX;
    return;
  }
  const char *set = rt->env->work_setting;
  rt->env->budget_exhausted = rt->env->budgets_shared;
  tpl_fail(rt, loc,
           "the template's work budget is exhausted: more than %llu loop "
           "iterations and calls%s%s%s",
           (unsigned long long)rt->work_limit, set ? " (the cap is " : "",
           set ? set : "", set ? ")" : "");
}

static _Noreturn void tpl_output_over(tpl_rt *rt) {
  const char *set = rt->env->output_setting;
  rt->env->budget_exhausted = rt->env->budgets_shared;
  size_t mb = rt->env->output_limit >> 20;
  tpl_fail(rt, NULL,
           "the template's output budget is exhausted: more than %zu %s of "
           "output%s%s%s",
           mb ? mb : rt->env->output_limit, mb ? "MiB" : "bytes",
           set ? " (the cap is " : "", set ? set : "", set ? ")" : "");
}

/* The arena's cap was reached: fail the render like any other error. */
static void tpl_render_over_limit(void *data) {
  tpl_rt *rt = data;
  tpl_fail(rt, rt->loc, "the template needs more than %zu MiB of memory",
           rt->env->memory_limit >> 20);
}

void tpl_env_free(tpl_env *env) {
  if (!env)
    return;
  free(env->sources);
  free(env->texts);
  free(env->tinfo);
  oc_arena_free(env->arena);
  free(env);
}

oc_arena *tpl_env_arena(tpl_env *env) { return env->arena; }

void tpl_env_add_source_with_text(tpl_env *env, tpl_source src,
                                  tpl_source_text_fn text) {
  /* Two arrays of one capacity: grow the texts with a copy of it. */
  size_t ctexts = env->csources;
  OC_GROW(env->texts, ctexts, env->nsources + 1);
  OC_GROW(env->sources, env->csources, env->nsources + 1);
  env->texts[env->nsources] = text;
  env->sources[env->nsources++] = src;
}

void tpl_env_add_source(tpl_env *env, tpl_source src) {
  tpl_env_add_source_with_text(env, src, NULL);
}

/* A compiled registry: an open-addressing index over the templates' names. */
typedef struct tpl_registry {
  const tpl_template *const *templates;
  size_t n;
  uint32_t *index; /* template number + 1 */
  size_t mask;
} tpl_registry;

static int tpl_registry_find(void *data, tpl_env *env, const char *name,
                             size_t len, const tpl_template **out,
                             tpl_diag *diag) {
  (void)env;
  (void)diag;
  const tpl_registry *r = data;
  for (size_t i = tpl_hash_bytes(name, len) & r->mask;; i = (i + 1) & r->mask) {
    uint32_t k = r->index[i];
    if (!k)
      return 0;
    const char *tn = r->templates[k - 1]->name;
    if (strlen(tn) == len && memcmp(tn, name, len) == 0) {
      *out = r->templates[k - 1];
      return 1;
    }
  }
}

void tpl_env_add_compiled(tpl_env *env, const tpl_template *const *templates,
                          size_t n) {
  tpl_registry *r = oc_arena_alloc(env->arena, sizeof *r);
  size_t size = 8;
  while (size < n * 2) {
    if (size > SIZE_MAX / 4)
      oc_oom();
    size *= 2;
  }
  r->templates = templates;
  r->n = n;
  r->index = oc_arena_calloc(env->arena, size, sizeof *r->index);
  r->mask = size - 1;
  for (size_t k = 0; k < n; k++) {
    const char *tn = templates[k]->name;
    size_t i = tpl_hash_bytes(tn, strlen(tn)) & r->mask;
    bool dup = false;
    while (r->index[i]) {
      /* The first of two templates with one name wins, as sources do. */
      if (strcmp(templates[r->index[i] - 1]->name, tn) == 0) {
        dup = true;
        break;
      }
      i = (i + 1) & r->mask;
    }
    if (!dup)
      r->index[i] = (uint32_t)(k + 1);
  }
  tpl_env_add_source(env, (tpl_source){tpl_registry_find, r});
}

void tpl_env_set_global(tpl_env *env, const char *name, tpl_value v) {
  size_t len = strlen(name);
  const char *s = oc_arena_strndup(env->arena, name, len);
  tpl_ctx_put(env->arena, env->globals, s, (uint32_t)len,
              tpl_hash_bytes(s, len), v);
}

void tpl_env_set_strict(tpl_env *env, bool strict) { env->strict = strict; }

void tpl_env_set_now(tpl_env *env, int64_t now) {
  env->now = now;
  env->now_set = true;
}

void tpl_env_set_random_seed(tpl_env *env, uint64_t seed) {
  env->seed = seed;
  env->seed_set = true;
}

void tpl_env_set_debug(tpl_env *env, bool debug) { env->debug = debug; }

void tpl_env_set_autoescape(tpl_env *env, int strategy) {
  env->autoescape = strategy;
}

int tpl_env_get_autoescape(const tpl_env *env) { return env->autoescape; }
bool tpl_env_get_debug(const tpl_env *env) { return env->debug; }
bool tpl_env_get_strict(const tpl_env *env) { return env->strict; }

int tpl_env_find(tpl_env *env, const char *name, size_t len,
                 const tpl_template **out, tpl_diag *diag) {
  for (size_t i = 0; i < env->nsources; i++) {
    int r =
        env->sources[i].find(env->sources[i].data, env, name, len, out, diag);
    if (r != 0)
      return r;
  }
  return 0;
}

int tpl_env_source(tpl_env *env, const char *name, size_t len,
                   const char **text, size_t *text_len) {
  for (size_t i = 0; i < env->nsources; i++) {
    const tpl_source *src = &env->sources[i];
    if (env->texts[i]) {
      if (env->texts[i](src->data, name, len, text, text_len))
        return 1;
      continue;
    }
    const tpl_template *t;
    tpl_diag d;
    int r = src->find(src->data, env, name, len, &t, &d);
    if (r == 1) {
      *text = t->source ? t->source : "";
      *text_len = t->source ? t->source_len : 0;
      return 1;
    }
  }
  return 0;
}

/* ==== one render ====================================================== */

/* The source line `line` of the template named `file`, for the caret. */
static void tpl_fill_source_line(tpl_env *env, tpl_diag *d) {
  if (!d->file[0] || !d->line)
    return;
  const tpl_template *t;
  tpl_diag scratch;
  if (tpl_env_find(env, d->file, strlen(d->file), &t, &scratch) != 1 ||
      !t->source)
    return;
  const char *p = t->source, *end = t->source + t->source_len;
  for (uint32_t l = 1; l < d->line && p < end; l++) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl)
      return;
    p = nl + 1;
  }
  const char *e = memchr(p, '\n', (size_t)(end - p));
  if (!e)
    e = end;
  if (e > p && e[-1] == '\r')
    e--;
  size_t n = (size_t)(e - p);
  if (n >= sizeof d->source_line)
    n = sizeof d->source_line - 1;
  memcpy(d->source_line, p, n);
  d->source_line[n] = 0;
}

_Noreturn void tpl_fail(tpl_rt *rt, const tpl_loc *loc, const char *fmt, ...) {
  tpl_diag *d = rt->diag;
  va_list ap;
  va_start(ap, fmt);
  tpl_diag_vset(d, loc ? loc : rt->loc, fmt, ap);
  va_end(ap);
  tpl_fill_source_line(rt->env, d);
  longjmp(*rt->on_error, 1);
}

/* Unwinds with a diagnostic made elsewhere (a template that failed to
 * load), keeping its location. */
static _Noreturn void tpl_fail_diag(tpl_rt *rt, const tpl_diag *d) {
  if (rt->diag != d)
    *rt->diag = *d;
  longjmp(*rt->on_error, 1);
}

void tpl_out_grow(tpl_rt *rt, size_t need) {
  if (need > SIZE_MAX - 1 - rt->out_len)
    tpl_fail(rt, NULL, "out of memory");
  size_t want = rt->out_len + need + 1;
  size_t cap = rt->out_cap ? rt->out_cap : 4096;
  while (cap < want) {
    if (cap > SIZE_MAX / 2)
      tpl_fail(rt, NULL, "out of memory");
    cap *= 2;
  }
  size_t omax = rt->out_max;
  if (omax && want > omax)
    tpl_output_over(rt);
  size_t limit = rt->env->memory_limit / 2;
  if (omax && (!limit || omax < limit))
    limit = omax;
  if (limit && cap > limit) {
    if (want > limit)
      tpl_render_over_limit(rt);
    cap = limit;
  }
  rt->out = oc_realloc(rt->out, cap);
  rt->out_cap = cap;
}

tpl_value tpl_capture_end(tpl_rt *rt, size_t mark) {
  size_t n = rt->out_len - mark;
  rt->out_len = mark;
  /* Twig gives '' (a plain string) for empty output, Markup otherwise. */
  if (!n)
    return tpl_str("", 0);
  if (n > UINT32_MAX)
    tpl_fail(rt, NULL, "captured output too large");
  char *s = oc_arena_alloc(rt->arena, n);
  memcpy(s, rt->out + mark, n);
  return tpl_safe_str(s, n);
}

static uint64_t tpl_clock_seed(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000007u ^ (uint64_t)ts.tv_nsec;
}

/* Three quarters of the stack's soft limit (8 MiB unless set otherwise),
 * the rest for what a render calls below its last level. */
static size_t tpl_stack_budget(void) {
  struct rlimit rl;
  size_t lim = 8u << 20;
  if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
      rl.rlim_cur < lim)
    lim = (size_t)rl.rlim_cur;
  return lim / 4 * 3;
}

int tpl_render(tpl_env *env, const char *name, tpl_value data, char **out,
               size_t *out_len, tpl_diag *diag) {
  memset(diag, 0, sizeof *diag);
  *out = NULL;
  *out_len = 0;
  const tpl_template *t;
  int r = tpl_env_find(env, name, strlen(name), &t, diag);
  if (r < 0)
    return -1;
  if (r == 0) {
    tpl_diag_set(diag, NULL, "template \"%s\" not found", name);
    return -1;
  }
  if (env->budget_exhausted) {
    tpl_diag_set(diag, &(tpl_loc){t->name, 0, 0},
                 "the budget was exhausted by an earlier render");
    return -1;
  }
  oc_arena *arena = oc_arena_new();
  /* The render state lives in the arena, not in this frame: longjmp leaves
   * non-volatile locals changed after setjmp indeterminate. */
  tpl_rt *rt = oc_arena_calloc(arena, 1, sizeof *rt);
  jmp_buf *jb = oc_arena_alloc(arena, sizeof *jb);
  rt->env = env;
  rt->arena = arena;
  rt->on_error = jb;
  rt->diag = diag;
  rt->strict = env->strict;
  if (env->now_set) {
    rt->now_set = true;
    rt->now = env->now;
  }
  rt->debug = env->debug;
  rt->rand_state = env->seed_set ? env->seed : tpl_clock_seed();
  rt->globals = env->globals;
  rt->stack_base = __builtin_frame_address(0);
  rt->stack_budget = tpl_stack_budget();
  rt->work_limit = env->work_limit;
  rt->work_left = env->work_limit ? env->work_limit : UINT64_MAX;
  size_t room = env->output_limit;
  if (env->budgets_shared) {
    if (env->work_limit)
      rt->work_left = env->work_limit > env->work_spent
                          ? env->work_limit - env->work_spent
                          : 0;
    if (env->output_limit)
      room = env->output_limit > env->output_spent
                 ? env->output_limit - env->output_spent
                 : 0;
  }
  rt->out_max = !env->output_limit ? 0 : room < SIZE_MAX ? room + 1 : room;
  uint64_t work_start = rt->work_left;
  rt->nul_forbidden = env->nul_forbidden;
  /* Half the cap for values, half for the output (which may double). */
  if (env->memory_limit)
    oc_arena_set_limit(arena, env->memory_limit / 2, tpl_render_over_limit, rt);
  rt->out_cap = env->out_hint > 16384 ? env->out_hint : 16384;
  if (rt->out_max && rt->out_cap > rt->out_max)
    rt->out_cap = rt->out_max;
  rt->out = oc_malloc(rt->out_cap);
  int rc;
  if (setjmp(*jb) == 0) {
    tpl_ctx *top = tpl_ctx_new(rt, rt->globals, false);
    tpl_ctx_merge(rt, top, data, NULL);
    tpl_display(rt, t, top, NULL);
    if (rt->out_len == rt->out_cap)
      tpl_out_grow(rt, 1);
    rt->out[rt->out_len] = 0;
    *out = rt->out;
    *out_len = rt->out_len;
    if (rt->out_len < ((size_t)16 << 20))
      env->out_hint = rt->out_len + rt->out_len / 8 + 1;
    rc = 0;
  } else {
    free(rt->out);
    rc = -1;
  }
  /* A failed render spent what it spent too: it counts. */
  if (rt->work_limit)
    env->work_spent += work_start - rt->work_left;
  env->output_spent += rt->out_len;
  oc_arena_free(arena);
  return rc;
}

/* ==== variables ======================================================= */

tpl_value tpl_var(tpl_rt *rt, tpl_ctx *ctx, const tpl_template *self,
                  const tpl_name *name, const tpl_loc *loc) {
  /* Twig compiles these three names specially, whatever the context. */
  if (name->len > 1 && name->s[0] == '_') {
    if (name->len == 5 && memcmp(name->s, "_self", 5) == 0)
      return tpl_cstr(self->name);
    if (name->len == 8 && memcmp(name->s, "_context", 8) == 0)
      return tpl_ctx_to_map(rt, ctx);
    if (name->len == 8 && memcmp(name->s, "_charset", 8) == 0)
      return tpl_str("UTF-8", 5);
  }
  tpl_value v;
  if (tpl_ctx_lookup(ctx, name->s, name->len, name->hash, &v))
    return v;
  if (rt->strict)
    tpl_fail(rt, loc, "variable \"%.*s\" does not exist", (int)name->len,
             name->s);
  return tpl_null();
}

bool tpl_var_probe(tpl_rt *rt, tpl_ctx *ctx, const tpl_template *self,
                   const tpl_name *name, tpl_value *out) {
  if (name->len > 1 && name->s[0] == '_' &&
      ((name->len == 5 && memcmp(name->s, "_self", 5) == 0) ||
       (name->len == 8 && memcmp(name->s, "_context", 8) == 0) ||
       (name->len == 8 && memcmp(name->s, "_charset", 8) == 0))) {
    *out = tpl_var(rt, ctx, self, name, NULL);
    return true;
  }
  return tpl_ctx_lookup(ctx, name->s, name->len, name->hash, out);
}

/* ==== for loops ======================================================= */

struct tpl_loop {
  tpl_obj obj;
  tpl_ctx *outer; /* the context around the loop: loop.parent */
  int64_t index0, length;
  bool filtered;
  int64_t key_slot, val_slot; /* in the loop scope, -1 until bound */
};

static bool tpl_loop_attr(tpl_rt *rt, tpl_obj *self, const char *name,
                          size_t len, tpl_value *out) {
  const tpl_loop *l = self->data;
  int64_t i0 = l->index0, n = l->length;
#define TPL_IS(lit) (len == sizeof lit - 1 && memcmp(name, lit, len) == 0)
  if (TPL_IS("index"))
    *out = tpl_int(i0 + 1);
  else if (TPL_IS("index0"))
    *out = tpl_int(i0);
  else if (TPL_IS("first"))
    *out = tpl_bool(i0 == 0);
  else if (TPL_IS("parent"))
    *out = tpl_ctx_to_map(rt, l->outer);
  else if (l->filtered)
    return false; /* Twig 1's `for ... if`: the length is not known */
  else if (TPL_IS("length"))
    *out = tpl_int(n);
  else if (TPL_IS("last"))
    *out = tpl_bool(i0 == n - 1);
  else if (TPL_IS("revindex"))
    *out = tpl_int(n - i0);
  else if (TPL_IS("revindex0"))
    *out = tpl_int(n - i0 - 1);
  else
    return false;
#undef TPL_IS
  return true;
}

static tpl_value tpl_loop_array(tpl_rt *rt, tpl_obj *self) {
  static const char *const keys[] = {"parent",    "index0",   "index",  "first",
                                     "revindex0", "revindex", "length", "last"};
  tpl_map *m = tpl_map_new(rt->arena, 8);
  for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
    tpl_value v;
    if (tpl_loop_attr(rt, self, keys[i], strlen(keys[i]), &v))
      tpl_map_set_str(rt->arena, m, keys[i], v);
  }
  return tpl_map_value(m);
}

static const tpl_obj_class tpl_loop_class = {
    .name = "loop", .get_attr = tpl_loop_attr, .to_array = tpl_loop_array};

void tpl_for_begin(tpl_rt *rt, tpl_iter *it, tpl_ctx *ctx, tpl_value seq,
                   const tpl_name *key, const tpl_name *val, bool filtered) {
  it->scope = tpl_ctx_alloc(rt->arena, ctx, true);
  it->map = NULL;
  it->list = NULL;
  it->pos = it->len = 0;
  it->accepted = 0;
  it->key = key && key->len ? key : NULL;
  it->val = val;
  it->filtered = filtered;
  it->loc = rt->loc;
  if (seq.type == TPL_OBJ && seq.u.obj->cls->to_array)
    seq = seq.u.obj->cls->to_array(rt, seq.u.obj);
  if (seq.type == TPL_LIST) {
    it->list = seq.u.list;
    it->len = seq.u.list->len;
  } else if (seq.type == TPL_MAP) {
    it->map = seq.u.map;
    it->len = seq.u.map->len;
  }
  tpl_loop *l = oc_arena_alloc(rt->arena, sizeof *l);
  l->obj.cls = &tpl_loop_class;
  l->obj.data = l;
  l->outer = ctx;
  l->index0 = 0;
  l->length = (int64_t)it->len;
  l->filtered = filtered;
  l->key_slot = l->val_slot = -1;
  it->loop = l;
  tpl_value lv = {TPL_OBJ, 0, 0, {.obj = &l->obj}};
  tpl_ctx_append(rt->arena, it->scope, "loop", 4, tpl_hash_bytes("loop", 4),
                 lv);
}

static inline void tpl_for_bind(tpl_rt *rt, tpl_ctx *scope, int64_t *slot,
                                const tpl_name *name, tpl_value v) {
  /* The slot may have been rebound by `set` in the body, but it stays the
   * same slot of this scope: writing there is what binding means. */
  if (*slot >= 0)
    scope->slots[*slot].v = v;
  else
    *slot = tpl_ctx_put(rt->arena, scope, name->s, name->len, name->hash, v);
}

bool tpl_for_next(tpl_rt *rt, tpl_iter *it) {
  if (it->pos >= it->len)
    return false;
  if (__builtin_expect(!rt->work_left, 0))
    tpl_work_over(rt, it->loc);
  rt->work_left--;
  tpl_value k, v;
  if (it->list) {
    k = tpl_int((int64_t)it->pos);
    v = it->list->items[it->pos];
  } else {
    k = it->map->entries[it->pos].key;
    v = it->map->entries[it->pos].val;
  }
  tpl_loop *l = it->loop;
  tpl_for_bind(rt, it->scope, &l->val_slot, it->val, v);
  if (it->key)
    tpl_for_bind(rt, it->scope, &l->key_slot, it->key, k);
  /* With an inline `if`, Twig 1 counts only the items that passed. */
  l->index0 = it->filtered ? it->accepted : (int64_t)it->pos;
  it->cur = v;
  it->pos++;
  return true;
}

void tpl_for_accept(tpl_rt *rt, tpl_iter *it) {
  (void)rt;
  it->accepted++;
}

/* ==== has some / has every ============================================ */

/* Twig's twig_array_some/every: a foreach calling the arrow with the value
 * and the key; `want` is the answer that stops the walk. */
static bool tpl_has_walk(tpl_rt *rt, tpl_value seq, tpl_value fn, bool want,
                         const tpl_loc *l) {
  if (seq.type == TPL_OBJ && seq.u.obj->cls->to_array)
    seq = seq.u.obj->cls->to_array(rt, seq.u.obj);
  size_t n = seq.type == TPL_LIST  ? seq.u.list->len
             : seq.type == TPL_MAP ? seq.u.map->len
                                   : 0;
  tpl_work(rt, n, l);
  for (size_t i = 0; i < n; i++) {
    tpl_value args[2];
    if (seq.type == TPL_LIST) {
      args[0] = seq.u.list->items[i];
      args[1] = tpl_int((int64_t)i);
    } else {
      args[0] = seq.u.map->entries[i].val;
      args[1] = seq.u.map->entries[i].key;
    }
    if (tpl_truthy(tpl_call(rt, fn, 2, args, l)) == want)
      return true;
  }
  return false;
}

bool tpl_op_has_some(tpl_rt *rt, tpl_value seq, tpl_value fn,
                     const tpl_loc *l) {
  return tpl_has_walk(rt, seq, fn, true, l);
}

bool tpl_op_has_every(tpl_rt *rt, tpl_value seq, tpl_value fn,
                      const tpl_loc *l) {
  return !tpl_has_walk(rt, seq, fn, false, l);
}

/* ==== templates: loading, block tables ================================ */

/* A template's own block table (its blocks over those brought in by `use`)
 * and the `use`d blocks alone, for parent(). Computed once per env. */
struct tpl_tinfo {
  const tpl_template *t;
  const tpl_template *chain1[1];
  tpl_blocks own;
  size_t ntraits;
  const tpl_block_def **traits;
};

typedef struct tpl_tbuild {
  const tpl_template *t;
  const struct tpl_tbuild *up;
} tpl_tbuild;

static inline size_t tpl_ptr_hash(const void *p) {
  uint64_t x = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ull;
  return (size_t)(x >> 29);
}

static tpl_tinfo *tpl_tinfo_lookup(tpl_env *env, const tpl_template *t) {
  if (!env->tinfo_cap)
    return NULL;
  size_t mask = env->tinfo_cap - 1;
  for (size_t i = tpl_ptr_hash(t) & mask;; i = (i + 1) & mask) {
    tpl_tinfo *ti = env->tinfo[i];
    if (!ti || ti->t == t)
      return ti;
  }
}

static void tpl_tinfo_insert(tpl_env *env, tpl_tinfo *ti) {
  if ((env->tinfo_n + 1) * 2 > env->tinfo_cap) {
    size_t cap = env->tinfo_cap ? env->tinfo_cap * 2 : 32;
    tpl_tinfo **tab = oc_calloc(cap, sizeof *tab);
    for (size_t k = 0; k < env->tinfo_cap; k++) {
      tpl_tinfo *o = env->tinfo[k];
      if (!o)
        continue;
      size_t i = tpl_ptr_hash(o->t) & (cap - 1);
      while (tab[i])
        i = (i + 1) & (cap - 1);
      tab[i] = o;
    }
    free(env->tinfo);
    env->tinfo = tab;
    env->tinfo_cap = cap;
  }
  size_t mask = env->tinfo_cap - 1;
  size_t i = tpl_ptr_hash(ti->t) & mask;
  while (env->tinfo[i])
    i = (i + 1) & mask;
  env->tinfo[i] = ti;
  env->tinfo_n++;
}

static inline bool tpl_name_eq(const tpl_name *a, const tpl_name *b) {
  return a->hash == b->hash && a->len == b->len &&
         (a->s == b->s || memcmp(a->s, b->s, a->len) == 0);
}

static const tpl_block_def *tpl_defs_find(const tpl_block_def *const *defs,
                                          size_t n, const tpl_name *name) {
  for (size_t i = 0; i < n; i++)
    if (tpl_name_eq(&defs[i]->name, name))
      return defs[i];
  return NULL;
}

/* Adds def to a table, replacing a definition of the same name. */
static void tpl_defs_put(const tpl_block_def **defs, size_t *n,
                         const tpl_block_def *def) {
  for (size_t i = 0; i < *n; i++)
    if (tpl_name_eq(&defs[i]->name, &def->name)) {
      defs[i] = def;
      return;
    }
  defs[(*n)++] = def;
}

/* Finds a template by name; NULL when missing. A template that fails to
 * load ends the render with its own first error. */
static const tpl_template *tpl_load(tpl_rt *rt, const char *name, size_t len) {
  const tpl_template *t;
  tpl_diag d;
  int r = tpl_env_find(rt->env, name, len, &t, &d);
  if (r < 0)
    tpl_fail_diag(rt, &d);
  return r ? t : NULL;
}

/* A template name value: a string, or a list of names of which the first
 * that exists wins (Twig's resolveTemplate). NULL when none exists and
 * ignore_missing. */
static const tpl_template *tpl_resolve(tpl_rt *rt, tpl_value name,
                                       bool ignore_missing,
                                       const tpl_loc *loc) {
  if (name.type == TPL_LIST || name.type == TPL_MAP) {
    size_t n = name.type == TPL_LIST ? name.u.list->len : name.u.map->len;
    char msg[400];
    size_t ml = 0;
    msg[0] = 0;
    for (size_t i = 0; i < n; i++) {
      tpl_value v = name.type == TPL_LIST ? name.u.list->items[i]
                                          : name.u.map->entries[i].val;
      v = tpl_to_str(rt, v);
      const tpl_template *t = tpl_load(rt, v.u.s, v.len);
      if (t)
        return t;
      if (ml < sizeof msg)
        ml += (size_t)snprintf(msg + ml, sizeof msg - ml, "%s\"%.*s\"",
                               i ? ", " : "", (int)v.len, v.u.s);
    }
    if (ignore_missing)
      return NULL;
    tpl_fail(rt, loc, "template %s not found", n ? msg : "\"\"");
  }
  tpl_value s = tpl_to_str(rt, name);
  const tpl_template *t = tpl_load(rt, s.u.s, s.len);
  if (!t && !ignore_missing)
    tpl_fail(rt, loc, "template \"%.*s\" not found", (int)s.len, s.u.s);
  return t;
}

static const tpl_tinfo *tpl_tinfo_get(tpl_rt *rt, const tpl_template *t,
                                      const tpl_tbuild *up) {
  tpl_env *env = rt->env;
  tpl_tinfo *ti = tpl_tinfo_lookup(env, t);
  if (ti)
    return ti;
  for (const tpl_tbuild *b = up; b; b = b->up)
    if (b->t == t)
      tpl_fail(rt, t->nuses ? &t->uses[0].loc : NULL,
               "template \"%s\" uses itself", t->name);
  tpl_tbuild me = {t, up};
  oc_arena *a = env->arena;
  /* The used templates' tables first, to size the arrays. */
  size_t ntrait_max = 0;
  const tpl_tinfo **used = NULL;
  if (t->nuses) {
    used = oc_arena_calloc(a, t->nuses, sizeof *used);
    for (size_t u = 0; u < t->nuses; u++) {
      const tpl_use *use = &t->uses[u];
      const tpl_template *ut = tpl_load(rt, use->name, strlen(use->name));
      if (!ut)
        tpl_fail(rt, &use->loc, "template \"%s\" not found", use->name);
      used[u] = tpl_tinfo_get(rt, ut, &me);
      ntrait_max += used[u]->own.len;
    }
  }
  const tpl_block_def **traits =
      oc_arena_calloc(a, ntrait_max ? ntrait_max : 1, sizeof *traits);
  size_t ntraits = 0;
  for (size_t u = 0; u < t->nuses; u++) {
    const tpl_use *use = &t->uses[u];
    const tpl_blocks *ub = &used[u]->own;
    for (size_t r = 0; r < use->nrenames; r++)
      if (!tpl_defs_find(ub->defs, ub->len, &use->renames[r].from))
        tpl_fail(rt, &use->loc, "block \"%.*s\" is not defined",
                 (int)use->renames[r].from.len, use->renames[r].from.s);
    /* Twig copies the used blocks, then moves each renamed one to its new
     * name (overwriting a block already called that). */
    for (size_t i = 0; i < ub->len; i++) {
      bool renamed = false;
      for (size_t r = 0; r < use->nrenames && !renamed; r++)
        renamed = tpl_name_eq(&ub->defs[i]->name, &use->renames[r].from);
      if (!renamed)
        tpl_defs_put(traits, &ntraits, ub->defs[i]);
    }
    for (size_t r = 0; r < use->nrenames; r++) {
      const tpl_block_def *d =
          tpl_defs_find(ub->defs, ub->len, &use->renames[r].from);
      tpl_block_def *copy = oc_arena_alloc(a, sizeof *copy);
      *copy = *d;
      copy->name = use->renames[r].to;
      tpl_defs_put(traits, &ntraits, copy);
    }
  }
  ti = oc_arena_calloc(a, 1, sizeof *ti);
  ti->t = t;
  ti->chain1[0] = t;
  ti->traits = traits;
  ti->ntraits = ntraits;
  const tpl_block_def **defs =
      oc_arena_calloc(a, ntraits + t->nblocks + 1, sizeof *defs);
  size_t n = 0;
  for (size_t i = 0; i < ntraits; i++)
    defs[n++] = traits[i];
  for (size_t i = 0; i < t->nblocks; i++)
    tpl_defs_put(defs, &n, &t->blocks[i]);
  ti->own.nchain = 1;
  ti->own.chain = ti->chain1;
  ti->own.len = n;
  ti->own.defs = defs;
  tpl_tinfo_insert(env, ti);
  return ti;
}

const tpl_blocks *tpl_blocks_of(tpl_rt *rt, const tpl_template *t) {
  return &tpl_tinfo_get(rt, t, NULL)->own;
}

/* ==== displaying ====================================================== */

static inline void tpl_depth_enter(tpl_rt *rt, const tpl_loc *loc) {
  tpl_work(rt, 1, loc);
  if (++rt->depth > TPL_MAX_DEPTH)
    tpl_fail(rt, loc, "maximum template nesting depth (%d) exceeded",
             TPL_MAX_DEPTH);
  const char *here = __builtin_frame_address(0);
  size_t used = (size_t)(rt->stack_base > here ? rt->stack_base - here
                                               : here - rt->stack_base);
  if (used > rt->stack_budget)
    tpl_fail(rt, loc,
             "templates nested too deeply for the stack (%zu KiB at depth "
             "%d): a macro or include that calls itself?",
             used / 1024, rt->depth);
}


void tpl_display(tpl_rt *rt, const tpl_template *t, tpl_ctx *ctx,
                 const tpl_loc *loc) {
  tpl_depth_enter(rt, loc);
  const tpl_tinfo *ti = tpl_tinfo_get(rt, t, NULL);
  t->body(rt, t, ctx, &ti->own);
  rt->depth--;
}

void tpl_display_parent(tpl_rt *rt, const tpl_template *self, tpl_ctx *ctx,
                        const tpl_blocks *blocks, tpl_value parent,
                        const tpl_loc *loc) {
  (void)self;
  const tpl_template *p = tpl_resolve(rt, parent, false, loc);
  for (size_t i = 0; i < blocks->nchain; i++) {
    if (blocks->chain[i] != p)
      continue;
    char msg[400];
    size_t ml = 0;
    for (size_t j = i; j < blocks->nchain && ml < sizeof msg; j++)
      ml += (size_t)snprintf(msg + ml, sizeof msg - ml, "%s -> ",
                             blocks->chain[j]->name);
    tpl_fail(rt, loc, "extends cycle: %s%s", msg, p->name);
  }
  tpl_depth_enter(rt, loc);
  const tpl_tinfo *pi = tpl_tinfo_get(rt, p, NULL);
  /* The child's table wins; the parent adds what the child lacks. */
  tpl_blocks *nb = oc_arena_alloc(rt->arena, sizeof *nb);
  const tpl_template **chain =
      oc_arena_calloc(rt->arena, blocks->nchain + 1, sizeof *chain);
  memcpy(chain, blocks->chain, blocks->nchain * sizeof *chain);
  chain[blocks->nchain] = p;
  const tpl_block_def **defs =
      oc_arena_calloc(rt->arena, blocks->len + pi->own.len + 1, sizeof *defs);
  if (blocks->len)
    memcpy(defs, blocks->defs, blocks->len * sizeof *defs);
  size_t n = blocks->len;
  for (size_t i = 0; i < pi->own.len; i++)
    if (!tpl_defs_find(blocks->defs, blocks->len, &pi->own.defs[i]->name))
      defs[n++] = pi->own.defs[i];
  nb->nchain = blocks->nchain + 1;
  nb->chain = chain;
  nb->len = n;
  nb->defs = defs;
  p->body(rt, p, ctx, nb);
  rt->depth--;
}

/* Runs a block definition in a copy of the context (Twig passes the
 * context array by value to block methods). */
static void tpl_run_block(tpl_rt *rt, const tpl_block_def *def, tpl_ctx *ctx,
                          const tpl_blocks *blocks, const tpl_loc *loc) {
  tpl_depth_enter(rt, loc);
  def->fn(rt, def, tpl_ctx_alloc(rt->arena, ctx, false), blocks);
  rt->depth--;
}

static _Noreturn void tpl_block_missing(tpl_rt *rt, const char *s, size_t len,
                                        const tpl_loc *loc) {
  tpl_fail(rt, loc, "block \"%.*s\" is not defined", (int)len, s);
}

void tpl_display_block(tpl_rt *rt, tpl_ctx *ctx, const tpl_blocks *blocks,
                       const tpl_name *name, const tpl_loc *loc) {
  const tpl_block_def *def = tpl_defs_find(blocks->defs, blocks->len, name);
  if (!def)
    tpl_block_missing(rt, name->s, name->len, loc);
  tpl_run_block(rt, def, ctx, blocks, loc);
}

void tpl_display_parent_block(tpl_rt *rt, const tpl_block_def *def,
                              tpl_ctx *ctx, const tpl_blocks *blocks,
                              const tpl_loc *loc) {
  if (!def)
    tpl_fail(rt, loc, "\"parent()\" can only be used in a block");
  /* Twig's displayParentBlock: the blocks the owner `use`s first, then
   * the templates above the owner in the chain, by the name the block has
   * in its owner's source (not the one a `use ... with` gave a copy). */
  const tpl_name *name = &def->name;
  for (size_t i = 0; i < def->owner->nblocks; i++)
    if (def->owner->blocks[i].fn == def->fn &&
        def->owner->blocks[i].node == def->node)
      name = &def->owner->blocks[i].name;
  const tpl_tinfo *oi = tpl_tinfo_get(rt, def->owner, NULL);
  const tpl_block_def *next = tpl_defs_find(oi->traits, oi->ntraits, name);
  if (next) {
    /* Twig asks the used template for its block of that name, so a block
     * renamed by `use` has no parent under its new name (Twig 3.5's
     * displayParentBlock) unless that template has one so named. */
    const tpl_tinfo *ui = tpl_tinfo_get(rt, next->owner, NULL);
    next = tpl_defs_find(ui->own.defs, ui->own.len, name);
    if (!next)
      tpl_fail(rt, loc,
               "block \"%.*s\" should not call parent() as the block does "
               "not exist in the parent template \"%s\"",
               (int)name->len, name->s, ui->t->name);
  } else {
    size_t i = 0;
    while (i < blocks->nchain && blocks->chain[i] != def->owner)
      i++;
    for (i++; i < blocks->nchain && !next; i++) {
      const tpl_tinfo *pi = tpl_tinfo_get(rt, blocks->chain[i], NULL);
      next = tpl_defs_find(pi->own.defs, pi->own.len, name);
    }
  }
  if (!next)
    tpl_block_missing(rt, name->s, name->len, loc);
  tpl_run_block(rt, next, ctx, blocks, loc);
}

/* Captured output as a plain string: what Twig's render* methods return. */
static tpl_value tpl_capture_plain(tpl_rt *rt, size_t mark) {
  tpl_value v = tpl_capture_end(rt, mark);
  v.safe = 0;
  return v;
}

tpl_value tpl_parent_function(tpl_rt *rt, const tpl_block_def *def,
                              tpl_ctx *ctx, const tpl_blocks *blocks,
                              const tpl_loc *loc) {
  size_t mark = tpl_capture_begin(rt);
  tpl_display_parent_block(rt, def, ctx, blocks, loc);
  return tpl_capture_plain(rt, mark);
}

/* The table block("name", template) looks in: the current display's, or
 * the named template's own. */
static const tpl_blocks *tpl_block_table(tpl_rt *rt, const tpl_blocks *blocks,
                                         tpl_value tpl, bool quiet,
                                         const tpl_loc *loc) {
  if (tpl.type == TPL_NULL)
    return blocks;
  const tpl_template *t;
  if (quiet) {
    tpl_value s = tpl_to_str(rt, tpl);
    tpl_diag d;
    if (tpl_env_find(rt->env, s.u.s, s.len, &t, &d) != 1)
      return NULL;
  } else {
    t = tpl_resolve(rt, tpl, false, loc);
  }
  return &tpl_tinfo_get(rt, t, NULL)->own;
}

tpl_value tpl_block_function(tpl_rt *rt, tpl_ctx *ctx, const tpl_blocks *blocks,
                             tpl_value name, tpl_value tpl,
                             const tpl_loc *loc) {
  const tpl_blocks *table = tpl_block_table(rt, blocks, tpl, false, loc);
  tpl_value s = tpl_to_str(rt, name);
  tpl_name n = {s.u.s, s.len, tpl_hash_bytes(s.u.s, s.len)};
  const tpl_block_def *def = tpl_defs_find(table->defs, table->len, &n);
  if (!def)
    tpl_block_missing(rt, s.u.s, s.len, loc);
  size_t mark = tpl_capture_begin(rt);
  tpl_run_block(rt, def, ctx, table, loc);
  return tpl_capture_plain(rt, mark);
}

bool tpl_block_defined(tpl_rt *rt, const tpl_blocks *blocks, tpl_value name,
                       tpl_value tpl) {
  const tpl_blocks *table = tpl_block_table(rt, blocks, tpl, true, NULL);
  if (!table)
    return false;
  tpl_value s = tpl_to_str(rt, name);
  tpl_name n = {s.u.s, s.len, tpl_hash_bytes(s.u.s, s.len)};
  return tpl_defs_find(table->defs, table->len, &n) != NULL;
}

/* ==== includes and embeds ============================================= */

static tpl_ctx *tpl_include_scope(tpl_rt *rt, tpl_ctx *ctx, tpl_value vars,
                                  bool only, const tpl_loc *loc) {
  tpl_ctx *scope = tpl_ctx_alloc(rt->arena, only ? rt->globals : ctx, false);
  tpl_ctx_merge(rt, scope, vars, loc);
  return scope;
}

void tpl_include(tpl_rt *rt, tpl_ctx *ctx, tpl_value name, tpl_value with_vars,
                 bool only, bool ignore_missing, const tpl_loc *loc) {
  const tpl_template *t = tpl_resolve(rt, name, ignore_missing, loc);
  if (!t)
    return;
  tpl_display(rt, t, tpl_include_scope(rt, ctx, with_vars, only, loc), loc);
}

tpl_value tpl_include_function(tpl_rt *rt, tpl_ctx *ctx, tpl_value name,
                               tpl_value vars, bool with_context,
                               bool ignore_missing, const tpl_loc *loc) {
  const tpl_template *t = tpl_resolve(rt, name, ignore_missing, loc);
  if (!t)
    return tpl_str("", 0);
  tpl_ctx *scope = tpl_include_scope(rt, ctx, vars, !with_context, loc);
  size_t mark = tpl_capture_begin(rt);
  tpl_display(rt, t, scope, loc);
  return tpl_capture_plain(rt, mark);
}

void tpl_embed(tpl_rt *rt, const tpl_template *self, size_t index, tpl_ctx *ctx,
               tpl_value with_vars, bool only, bool ignore_missing,
               const tpl_loc *loc) {
  /* Twig's `ignore missing` only guards loading the embedded template
   * itself, which always exists; a missing parent fails in its body. */
  (void)ignore_missing;
  if (index >= self->nembeds)
    tpl_fail(rt, loc, "embed %zu of template \"%s\" does not exist", index,
             self->name);
  tpl_display(rt, self->embeds[index],
              tpl_include_scope(rt, ctx, with_vars, only, loc), loc);
}

/* ==== imports and macros ============================================== */

void tpl_import(tpl_rt *rt, const tpl_template *self, int slot, tpl_value name,
                const tpl_loc *loc) {
  const tpl_template *target =
      name.type == TPL_NULL ? self : tpl_resolve(rt, name, false, loc);
  /* One entry per import statement: run again (in a loop, or in a macro
   * that calls itself) it replaces its target, so that the list, which
   * every macro call searches, stays as long as the templates' imports
   * (an import in a recursive macro made each call slower than the last:
   * found by fuzz_render). */
  for (tpl_import_slot *s = rt->imports; s; s = s->next)
    if (s->tpl == self && s->slot == slot) {
      s->target = target;
      return;
    }
  tpl_import_slot *s = oc_arena_alloc(rt->arena, sizeof *s);
  s->tpl = self;
  s->slot = slot;
  s->target = target;
  s->next = rt->imports;
  rt->imports = s;
}

static const tpl_template *
tpl_import_target(tpl_rt *rt, const tpl_template *self, int slot) {
  if (slot < 0)
    return self;
  for (const tpl_import_slot *s = rt->imports; s; s = s->next)
    if (s->tpl == self && s->slot == slot)
      return s->target;
  return NULL;
}

static const tpl_macro_def *tpl_macro_find(const tpl_template *t,
                                           const tpl_name *name) {
  if (!t)
    return NULL;
  for (size_t i = 0; i < t->nmacros; i++)
    if (tpl_name_eq(&t->macros[i].name, name))
      return &t->macros[i];
  return NULL;
}

bool tpl_macro_defined(tpl_rt *rt, const tpl_template *self, int slot,
                       const tpl_name *name) {
  return tpl_macro_find(tpl_import_target(rt, self, slot), name) != NULL;
}

/* The macro in t or, when t lacks it, in the nearest parent that has it
 * (Twig's twig_call_macro), a computed parent evaluated in the caller's
 * ctx each time, as Twig's getParent($context) does. A chain longer than
 * TPL_MAX_DEPTH is an extends cycle, which displaying it reports. */
static const tpl_macro_def *tpl_macro_find_up(tpl_rt *rt, tpl_ctx *ctx,
                                              const tpl_template *t,
                                              const tpl_name *name,
                                              const tpl_loc *loc) {
  for (int up = 0; t && up <= TPL_MAX_DEPTH; up++) {
    const tpl_macro_def *def = tpl_macro_find(t, name);
    if (def)
      return def;
    tpl_value parent;
    if (t->parent_name)
      parent = tpl_str(t->parent_name, strlen(t->parent_name));
    else if (t->parent_of)
      parent = t->parent_of(rt, t, ctx);
    else
      return NULL;
    t = tpl_resolve(rt, parent, false, loc);
  }
  return NULL;
}

tpl_value tpl_call_macro(tpl_rt *rt, tpl_ctx *ctx, const tpl_template *self,
                         int slot, const tpl_name *name, int npos, int nnamed,
                         const tpl_value *argv, const tpl_name *names,
                         const tpl_loc *loc) {
  const tpl_macro_def *def = tpl_macro_find_up(
      rt, ctx, tpl_import_target(rt, self, slot), name, loc);
  if (!def)
    tpl_fail(rt, loc, "unknown macro \"%.*s\"", (int)name->len, name->s);
  tpl_depth_enter(rt, loc);
  /* Macros see their arguments and the globals, never the caller. */
  tpl_ctx *scope = tpl_ctx_alloc(rt->arena, rt->globals, false);
  tpl_value unset = {TPL_SLOT_UNSET, 0, 0, {.i = 0}};
  for (size_t i = 0; i < def->nparams; i++)
    tpl_ctx_append(rt->arena, scope, def->params[i].s, def->params[i].len,
                   def->params[i].hash, unset);
  int nextra = npos > (int)def->nparams ? npos - (int)def->nparams : 0;
  tpl_list *varargs = tpl_list_new(rt->arena, (size_t)nextra);
  for (int i = 0; i < npos; i++) {
    if (i < (int)def->nparams)
      scope->slots[i].v = argv[i];
    else
      varargs->items[i - (int)def->nparams] = argv[i];
  }
  for (int j = 0; j < nnamed; j++) {
    size_t p = 0;
    while (p < def->nparams && !tpl_name_eq(&def->params[p], &names[j]))
      p++;
    if (p == def->nparams)
      tpl_fail(rt, loc, "macro \"%.*s\" has no argument \"%.*s\"",
               (int)name->len, name->s, (int)names[j].len, names[j].s);
    if (scope->slots[p].v.type != TPL_SLOT_UNSET)
      tpl_fail(rt, loc, "argument \"%.*s\" of macro \"%.*s\" is given twice",
               (int)names[j].len, names[j].s, (int)name->len, name->s);
    scope->slots[p].v = argv[npos + j];
  }
  tpl_ctx_append(rt->arena, scope, "varargs", 7, tpl_hash_bytes("varargs", 7),
                 tpl_list_value(varargs));
  size_t mark = tpl_capture_begin(rt);
  def->fn(rt, def, scope);
  rt->depth--;
  return tpl_capture_end(rt, mark);
}

/* ---- theme names ---------------------------------------------------- */

size_t tpl_theme_prefix(const char *name, size_t len) {
  static const char *const prefixes[] = {"@theme/", "@theme_base/",
                                         "@content/"};
  for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
    size_t pl = strlen(prefixes[i]);
    if (len > pl && !memcmp(name, prefixes[i], pl))
      return pl;
  }
  return 0;
}
