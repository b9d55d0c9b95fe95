/* The template engine's run time: environments, templates, one render's
 * state (arena, output buffer, scopes), and the operations that compiled
 * templates and the interpreter both call, so that the two back ends share
 * every rule of the language and give byte-identical output.
 *
 * Ownership: a tpl_env owns its globals, its loaders and the templates they
 * load; it must outlive every render. A render (tpl_render) owns an arena and
 * an output buffer; the result string is malloc'd and given to the caller.
 *
 * Errors: inside a render, a failing operation calls tpl_fail(), which
 * records the diagnostic and unwinds to tpl_render with longjmp (as Lua
 * does); all memory is in the arena, so nothing leaks. tpl_render returns the
 * error as a code plus a diagnostic. Nothing here exits the process. */
#ifndef OCTAVO_TPL_RT_H
#define OCTAVO_TPL_RT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tpl_value.h"

/* ---- locations and diagnostics -------------------------------------- */

typedef struct tpl_loc {
  const char *file; /* template name */
  uint32_t line, col; /* 1-based */
} tpl_loc;

typedef struct tpl_diag {
  char file[256];
  uint32_t line, col;
  char message[512];
  /* The offending source line, when known, for the caret display. */
  char source_line[512];
} tpl_diag;

/* Writes "file:line:col: error: message\n  source line\n  ^\n". */
void tpl_diag_print(FILE *f, const tpl_diag *d);
void tpl_diag_set(tpl_diag *d, const tpl_loc *loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void tpl_diag_vset(tpl_diag *d, const tpl_loc *loc, const char *fmt,
                   va_list ap) __attribute__((format(printf, 3, 0)));

/* A name known when the template is compiled: literal variable, attribute,
 * block and macro names. Compiled templates keep these in static storage;
 * the interpreter keeps them in the AST. hash = tpl_hash_bytes(s, len). */
typedef struct tpl_name {
  const char *s;
  uint32_t len;
  uint32_t hash;
} tpl_name;

/* ---- escaping ------------------------------------------------------- */

typedef enum tpl_escape {
  TPL_ESC_NONE = 0,
  TPL_ESC_HTML,
  TPL_ESC_JS,
  TPL_ESC_CSS,
  TPL_ESC_URL,
  TPL_ESC_HTML_ATTR,
  /* Not Twig's: one shell word in single quotes (POSIX sh), for commands a
   * book gives to the shell. Unlike the others it quotes strings marked
   * safe (HTML-safe is not shell-safe), empty strings and null (''), and
   * refuses a NUL byte, which no shell word can hold. */
  TPL_ESC_SH
} tpl_escape;

/* The default strategy of a template chosen by its name, as Twig's
 * FileExtensionEscapingStrategy: strip ".twig", then .js → js, .css → css,
 * .txt → none, anything else → html. */
tpl_escape tpl_escape_for_name(const char *name);
bool tpl_escape_by_name(const char *s, size_t len, tpl_escape *out);

/* ---- templates ------------------------------------------------------ */

typedef struct tpl_template tpl_template;
typedef struct tpl_ctx tpl_ctx;
typedef struct tpl_blocks tpl_blocks;
typedef struct tpl_env tpl_env;

/* One theme's compiled templates for one edition format, as themec's
 * registries list them (`themec registry`, `themec build`). ntemplates
 * points at the count the compiled set exports, so that a registry can be
 * a static table. */
typedef struct tpl_theme {
  const char *name;   /* "clean" */
  const char *format; /* "html", "html_chunked", "epub", "pdf" */
  const tpl_template *const *templates;
  const size_t *ntemplates;
} tpl_theme;

/* The length of the prefix that makes `name` mean a theme's own template
 * (`@theme/`, `@theme_base/` or `@content/`, Easybook's names), 0 when it
 * has none. */
size_t tpl_theme_prefix(const char *name, size_t len);

typedef struct tpl_block_def {
  tpl_name name;
  void (*fn)(tpl_rt *rt, const struct tpl_block_def *def, tpl_ctx *ctx,
             const tpl_blocks *blocks);
  const tpl_template *owner; /* set when the template is registered */
  const void *node;          /* the interpreter's AST node, NULL if compiled */
} tpl_block_def;

typedef struct tpl_macro_def {
  tpl_name name;
  size_t nparams;
  const tpl_name *params;
  /* Renders the body into rt's output. ctx holds the bound arguments (those
   * given), `varargs`, and the globals; the body sets the defaults of
   * parameters not given itself (tpl_ctx_has_own), null when a parameter
   * has no default (Twig binds every parameter). */
  void (*fn)(tpl_rt *rt, const struct tpl_macro_def *def, tpl_ctx *ctx);
  const tpl_template *owner;
  const void *node;
} tpl_macro_def;

/* `{% use "name" with a as b %}` */
typedef struct tpl_use_rename {
  tpl_name from, to;
} tpl_use_rename;
typedef struct tpl_use {
  const char *name;
  size_t nrenames;
  const tpl_use_rename *renames;
  tpl_loc loc;
} tpl_use;

struct tpl_template {
  const char *name;
  tpl_escape autoescape; /* default strategy for this template */
  /* Runs the template body. For a child template it runs only the top-level
   * code outside blocks (set, import...), evaluates the parent and displays
   * it through tpl_display_parent. */
  void (*body)(tpl_rt *rt, const tpl_template *self, tpl_ctx *ctx,
               const tpl_blocks *blocks);
  size_t nblocks;
  const tpl_block_def *blocks;
  size_t nmacros;
  const tpl_macro_def *macros;
  size_t nuses;
  const tpl_use *uses;
  /* Anonymous children made by {% embed %}, in source order. */
  size_t nembeds;
  const tpl_template *const *embeds;
  const char *source; /* the template's source text, for source() */
  size_t source_len;
  /* The parent's name when `extends` names it with a string literal, NULL
   * otherwise: a macro a template does not define is looked up in its
   * parents, as Twig's twig_call_macro does. */
  const char *parent_name;
  /* When `extends` takes any other expression: evaluates it in ctx (a
   * caller's context: Twig's twig_call_macro asks getParent($context) for
   * a macro the template lacks). NULL otherwise. */
  tpl_value (*parent_of)(tpl_rt *rt, const tpl_template *self, tpl_ctx *ctx);
  const void *ast; /* interpreter only */
};

/* Effective blocks of one display: the inheritance chain from the template
 * being rendered (index 0) to the root, and every block name resolved to the
 * most derived definition (own blocks, then those brought in by `use`). */
struct tpl_blocks {
  size_t nchain;
  const tpl_template **chain;
  size_t len;
  const tpl_block_def **defs;
};

/* ---- environments and template sources ------------------------------ */

/* A source finds templates by name: the compiled registry of a theme, or the
 * interpreter's loader over folders or in-memory texts. On a load error
 * (a parse error in an interpreted template) it fills *diag and returns -1;
 * 0 means not found; 1 found. Sources are asked in the order they were
 * added. */
typedef struct tpl_source {
  int (*find)(void *data, tpl_env *env, const char *name, size_t len,
              const tpl_template **out, tpl_diag *diag);
  void *data;
} tpl_source;

/* Gives a source the raw texts of its templates without parsing them
 * (source() must work on templates that do not parse): text() returns 1
 * when found, 0 if not. Sources without one give their templates' source. */
typedef int (*tpl_source_text_fn)(void *data, const char *name, size_t len,
                                  const char **text, size_t *text_len);

tpl_env *tpl_env_new(void);
void tpl_env_free(tpl_env *env);
oc_arena *tpl_env_arena(tpl_env *env); /* for globals and loader data */
void tpl_env_add_source(tpl_env *env, tpl_source src);
void tpl_env_add_source_with_text(tpl_env *env, tpl_source src,
                                  tpl_source_text_fn text);
/* A compiled registry, as themec writes it. */
void tpl_env_add_compiled(tpl_env *env, const tpl_template *const *templates,
                          size_t n);
void tpl_env_set_global(tpl_env *env, const char *name, tpl_value v);
void tpl_env_set_strict(tpl_env *env, bool strict);
void tpl_env_set_random_seed(tpl_env *env, uint64_t seed);
/* Fixes what `now` means in dates (seconds since the epoch), for
 * reproducible output (SOURCE_DATE_EPOCH); by default the clock is read
 * once per render. */
void tpl_env_set_now(tpl_env *env, int64_t now);
void tpl_env_set_debug(tpl_env *env, bool debug);
/* The most memory one render may take, values and output together; past
 * it the render fails with "the template needs more than N MiB of memory"
 * instead of exhausting the machine. 0 removes the cap. */
#define TPL_DEFAULT_MEMORY_LIMIT ((size_t)1 << 30)
void tpl_env_set_memory_limit(tpl_env *env, size_t bytes);
/* The work budget of one render (or of all, tpl_env_set_budgets_shared):
 * loop iterations, calls of macros, arrow functions, includes and blocks,
 * and elements made by range() or walked by join count one step each.
 * Past `steps` the render fails at the template's line naming the cap and,
 * when given, `setting` (what the user changes to raise it, e.g. "the
 * edition option template_max_iterations"). 0 removes the cap. */
#define TPL_DEFAULT_WORK_LIMIT ((uint64_t)50000000)
void tpl_env_set_work_limit(tpl_env *env, uint64_t steps, const char *setting);
/* The most output one render (or all) may write (captures included); past
 * it the render fails the same way. 0 removes the cap. */
#define TPL_DEFAULT_OUTPUT_LIMIT ((size_t)256 << 20)
void tpl_env_set_output_limit(tpl_env *env, size_t bytes, const char *setting);
/* Makes the two budgets above those of all the environment's renders
 * together (a publish's, however many pages it has): each render starts
 * with what the renders before it left, failed ones included, so many
 * renders that each stay under the cap still stop at it. Off by default:
 * each render has the whole budget. */
void tpl_env_set_budgets_shared(tpl_env *env, bool shared);
/* What the environment's renders have spent so far (steps while a work
 * cap is set, and bytes), and whether a render failed for want of a
 * shared budget: every render after it fails at once, at no place ("the
 * budget was exhausted by an earlier render"), which a caller that
 * reported the first may keep quiet. */
uint64_t tpl_env_work_spent(const tpl_env *env);
size_t tpl_env_output_spent(const tpl_env *env);
bool tpl_env_budget_exhausted(const tpl_env *env);
/* A printed value holding a NUL byte ({{ "\x00" }}, a filter's result) fails
 * the render at its line: a caller whose output is text (a page) would lose
 * everything after it. Off by default, as in Twig. */
void tpl_env_set_nul_forbidden(tpl_env *env, bool forbidden);
/* Overrides the per-name default escaping strategy for every template
 * (themec render --autoescape). -1 restores the per-name default. */
void tpl_env_set_autoescape(tpl_env *env, int strategy);
/* The raw text of template `name` (Twig's source()), from the first source
 * that has it, parsed or not. Returns 1 when found, else 0. */
int tpl_env_source(tpl_env *env, const char *name, size_t len,
                   const char **text, size_t *text_len);
/* The settings above, for the loader (autoescape: -1 = per name) and the
 * library. */
int tpl_env_get_autoescape(const tpl_env *env);
bool tpl_env_get_debug(const tpl_env *env);
bool tpl_env_get_strict(const tpl_env *env);
/* Finds (and for interpreted sources, parses and caches) a template.
 * Returns -1 on a load error, 0 when not found, 1 when found. */
int tpl_env_find(tpl_env *env, const char *name, size_t len,
                 const tpl_template **out, tpl_diag *diag);

/* Renders template `name` with `data` (a TPL_MAP or null) as its context.
 * On success returns 0 and a malloc'd, NUL-terminated output in *out
 * (length *out_len). On failure returns -1 with *diag filled. `data` may
 * reference memory of data_arena, which must outlive the call. */
int tpl_render(tpl_env *env, const char *name, tpl_value data, char **out,
               size_t *out_len, tpl_diag *diag);

/* ---- one render ----------------------------------------------------- */

#define TPL_MAX_DEPTH 200

typedef struct tpl_import_slot {
  const tpl_template *tpl;
  int slot;
  const tpl_template *target;
  struct tpl_import_slot *next;
} tpl_import_slot;

struct tpl_rt {
  tpl_env *env;
  oc_arena *arena;
  char *out;
  size_t out_len, out_cap;
  jmp_buf *on_error;
  tpl_diag *diag;
  int depth;
  bool strict;
  uint64_t rand_state;
  tpl_ctx *globals;
  tpl_import_slot *imports;
  const tpl_loc *loc; /* the statement being run, for errors deep down */
  /* Filled by the engine when a render starts (zero is a fine default): */
  bool debug;    /* dump() prints only in debug mode */
  bool now_set;  /* `now` in dates is `now` (seconds since the epoch), */
  int64_t now;   /* else the clock is read once per render */
  /* The standard library's per-render caches (compiled regexes, time
   * zones); NULL at the start of a render, owned by the arena. */
  struct tpl_lib_state *lib;
  /* Steps of the work budget left, and the cap (tpl_work). */
  uint64_t work_left, work_limit;
  /* The frame the render started in, and how much stack below it nesting
   * may use (tpl_depth_enter): TPL_MAX_DEPTH alone does not bound it,
   * as a level's frames are larger in a sanitizer's build. */
  const char *stack_base;
  size_t stack_budget;
  /* One more than the most output this render may write (room for the
   * final NUL byte; 0: no cap, as in a tpl_rt made without tpl_render),
   * and whether a printed NUL byte fails it (tpl_env_set_nul_forbidden). */
  size_t out_max;
  bool nul_forbidden;
};

/* Records the error and unwinds the render. */
_Noreturn void tpl_fail(tpl_rt *rt, const tpl_loc *loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Takes n steps of the render's work budget (see tpl_env_set_work_limit);
 * past the cap, fails at loc (NULL: the statement being run). A tpl_rt
 * made without tpl_render (work_limit 0) has no cap. */
void tpl_work_over(tpl_rt *rt, const tpl_loc *loc);
static inline void tpl_work(tpl_rt *rt, uint64_t n, const tpl_loc *loc) {
  if (__builtin_expect(n > rt->work_left, 0))
    tpl_work_over(rt, loc);
  rt->work_left -= n;
}

void tpl_out_grow(tpl_rt *rt, size_t need);
static inline void tpl_out(tpl_rt *rt, const char *s, size_t n) {
  if (rt->out_cap - rt->out_len < n)
    tpl_out_grow(rt, n);
  char *d = rt->out + rt->out_len;
  /* Most printed values are short: two overlapping fixed-size copies beat a
   * call to memcpy. Constant lengths (template text) skip this at compile
   * time and get an inlined memcpy. */
  if (!__builtin_constant_p(n) && n <= 16) {
    if (n >= 8) {
      memcpy(d, s, 8);
      memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4) {
      memcpy(d, s, 4);
      memcpy(d + n - 4, s + n - 4, 4);
    } else {
      for (size_t i = 0; i < n; i++)
        d[i] = s[i];
    }
  } else {
    memcpy(d, s, n);
  }
  rt->out_len += n;
}
/* Fails the render when a NUL byte is printed and the env forbids it. */
_Noreturn void tpl_out_nul(tpl_rt *rt);
static inline void tpl_out_check(tpl_rt *rt, const char *s, size_t n) {
  if (__builtin_expect(rt->nul_forbidden, 0) && memchr(s, 0, n))
    tpl_out_nul(rt);
}
/* Prints a value with no escaping (raw output, autoescape off). */
void tpl_out_value_slow(tpl_rt *rt, tpl_value v);
static inline void tpl_out_value(tpl_rt *rt, tpl_value v) {
  if (v.type == TPL_STR) {
    tpl_out_check(rt, v.u.s, v.len);
    tpl_out(rt, v.u.s, v.len);
  } else {
    tpl_out_value_slow(rt, v);
  }
}
/* Prints a value escaped with `strategy`, unless it is marked safe. This is
 * what autoescaping inserts around {{ }} (Twig's escape(..., autoescape)). */
void tpl_out_escaped_slow(tpl_rt *rt, tpl_value v, tpl_escape strategy);
static inline void tpl_out_escaped(tpl_rt *rt, tpl_value v,
                                   tpl_escape strategy) {
  if (v.type == TPL_STR)
    tpl_out_check(rt, v.u.s, v.len);
  if (v.type == TPL_STR &&
      ((v.safe && strategy != TPL_ESC_SH) || strategy == TPL_ESC_NONE))
    tpl_out(rt, v.u.s, v.len);
  else
    tpl_out_escaped_slow(rt, v, strategy);
}

/* Output capture for {% set %}...{% endset %}, macros, apply, block():
 * remember the mark, render, then take the text as a safe string. */
static inline size_t tpl_capture_begin(tpl_rt *rt) { return rt->out_len; }
tpl_value tpl_capture_end(tpl_rt *rt, size_t mark);

/* ---- scopes --------------------------------------------------------- */

/* Scopes implement Twig's context rules without copying hashes:
 * - an opaque scope (include, block, macro, with, arrow function) sees its
 *   parent's variables but its writes stay in it, as a PHP array copy would;
 * - a transparent scope (for loop) writes to the nearest enclosing scope up
 *   to the first opaque one that already has the variable, else to itself,
 *   so after the loop new variables vanish, the loop variables get their old
 *   values back, and changed outer variables stay changed (Twig 3). */
tpl_ctx *tpl_ctx_new(tpl_rt *rt, tpl_ctx *parent, bool transparent);
bool tpl_ctx_get(const tpl_ctx *ctx, const tpl_name *name, tpl_value *out);
void tpl_ctx_set(tpl_rt *rt, tpl_ctx *ctx, const tpl_name *name, tpl_value v);
/* Always sets in ctx itself (loop variables, macro arguments). */
void tpl_ctx_set_own(tpl_rt *rt, tpl_ctx *ctx, const tpl_name *name,
                     tpl_value v);
bool tpl_ctx_has_own(const tpl_ctx *ctx, const tpl_name *name);
/* Merges every key of a map into ctx as own variables (include ... with). */
void tpl_ctx_merge(tpl_rt *rt, tpl_ctx *ctx, tpl_value map, const tpl_loc *loc);
/* All visible variables as a map (the `_context` variable). */
tpl_value tpl_ctx_to_map(tpl_rt *rt, const tpl_ctx *ctx);

/* A variable read: undefined gives null, or an error in strict mode.
 * `_context`, `_self` and `_charset` are answered here. */
tpl_value tpl_var(tpl_rt *rt, tpl_ctx *ctx, const tpl_template *self,
                  const tpl_name *name, const tpl_loc *loc);

/* The same read for `is defined`, `??` and `|default`: false when the name
 * is not defined, never an error (Twig's ignore_strict_check). */
bool tpl_var_probe(tpl_rt *rt, tpl_ctx *ctx, const tpl_template *self,
                   const tpl_name *name, tpl_value *out);

/* ---- attributes ----------------------------------------------------- */

typedef enum tpl_attr_kind {
  TPL_ATTR_ANY,   /* a.b */
  TPL_ATTR_ARRAY, /* a[b] */
  TPL_ATTR_METHOD /* a.b(args) */
} tpl_attr_kind;

/* Looks up key in obj as Twig's getAttribute does. Missing → null, or an
 * error in strict mode. */
tpl_value tpl_getattr(tpl_rt *rt, tpl_value obj, tpl_value key,
                      tpl_attr_kind kind, const tpl_loc *loc);
/* Same with a compile-time name (a.b): no key conversion needed. */
tpl_value tpl_getattr_name(tpl_rt *rt, tpl_value obj, const tpl_name *key,
                           const tpl_loc *loc);
/* An inline cache for one attribute read of compiled code: where the name
 * was found in the last map, and the key string it was found as (data
 * files intern their keys, so maps of one shape share that pointer). */
typedef struct tpl_ic {
  uint32_t at;
  const char *key;
} tpl_ic;

/* tpl_getattr_name with an inline cache, so that a loop over maps of one
 * shape (a TOC's entries) finds the name with a compare or two. Same
 * result as tpl_getattr_name; compiled templates keep the cache in a local
 * of the calling function. */
static inline tpl_value tpl_getattr_name_ic(tpl_rt *rt, tpl_value obj,
                                            const tpl_name *key,
                                            const tpl_loc *loc, tpl_ic *ic) {
  if (obj.type == TPL_MAP) {
    const tpl_map *m = obj.u.map;
    if (ic->at < m->len) {
      const tpl_map_entry *e = &m->entries[ic->at];
      if (e->key.type == TPL_STR &&
          (e->key.u.s == ic->key ||
           (e->hash == key->hash && e->key.len == key->len &&
            !memcmp(e->key.u.s, key->s, key->len)))) {
        ic->key = e->key.u.s;
        return e->val;
      }
    }
    tpl_value out;
    size_t at;
    if (tpl_map_find_name(m, key, &at, &out)) {
      ic->at = (uint32_t)at;
      ic->key = m->entries[at].key.type == TPL_STR ? m->entries[at].key.u.s
                                                   : NULL;
      return out;
    }
  }
  return tpl_getattr_name(rt, obj, key, loc);
}
/* Existence check for `is defined`, `??` and `|default`. */
bool tpl_has_attr(tpl_rt *rt, tpl_value obj, tpl_value key, tpl_value *out);
/* obj.key(argv...): a host object's method when it has one, else the same
 * as tpl_getattr with TPL_ATTR_METHOD (the arguments are ignored). */
tpl_value tpl_call_method(tpl_rt *rt, tpl_value obj, tpl_value key, int argc,
                          const tpl_value *argv, const tpl_loc *loc);

/* ---- operators ------------------------------------------------------ */

tpl_value tpl_op_add(tpl_rt *rt, tpl_value a, tpl_value b, const tpl_loc *l);
tpl_value tpl_op_sub(tpl_rt *rt, tpl_value a, tpl_value b, const tpl_loc *l);
tpl_value tpl_op_mul(tpl_rt *rt, tpl_value a, tpl_value b, const tpl_loc *l);
tpl_value tpl_op_div(tpl_rt *rt, tpl_value a, tpl_value b, const tpl_loc *l);
tpl_value tpl_op_floordiv(tpl_rt *rt, tpl_value a, tpl_value b,
                          const tpl_loc *l);
tpl_value tpl_op_mod(tpl_rt *rt, tpl_value a, tpl_value b, const tpl_loc *l);
tpl_value tpl_op_pow(tpl_rt *rt, tpl_value a, tpl_value b, const tpl_loc *l);
tpl_value tpl_op_neg(tpl_rt *rt, tpl_value a, const tpl_loc *l);
tpl_value tpl_op_pos(tpl_rt *rt, tpl_value a, const tpl_loc *l);
tpl_value tpl_op_concat(tpl_rt *rt, tpl_value a, tpl_value b);
tpl_value tpl_op_bitand(tpl_rt *rt, tpl_value a, tpl_value b);
tpl_value tpl_op_bitor(tpl_rt *rt, tpl_value a, tpl_value b);
tpl_value tpl_op_bitxor(tpl_rt *rt, tpl_value a, tpl_value b);
bool tpl_op_in(tpl_rt *rt, tpl_value needle, tpl_value haystack);
bool tpl_op_starts_with(tpl_rt *rt, tpl_value a, tpl_value b);
bool tpl_op_ends_with(tpl_rt *rt, tpl_value a, tpl_value b);
/* Whether `a starts with b` / `a ends with b` evaluates b at all: Twig
 * compiles them to is_string($a) && is_string($b) && ..., so b is not run
 * (nor can it fail) unless a is a plain string. */
static inline bool tpl_op_affix_evaluates_right(tpl_value a) {
  return a.type == TPL_STR && !a.safe;
}
/* Twig's `matches` is preg_match(): its value is the INT 0 or 1, so
 * `{{ 'a' matches '/b/' }}` prints "0"; expression code should wrap the
 * result as tpl_int(...), not tpl_bool(...). */
bool tpl_op_matches(tpl_rt *rt, tpl_value subject, tpl_value regex,
                    const tpl_loc *l);
tpl_value tpl_op_range(tpl_rt *rt, tpl_value low, tpl_value high,
                       tpl_value step, const tpl_loc *l);
/* `seq has some fn` / `seq has every fn`: fn(value, key) per item, stopping
 * at the first that decides; a non-iterable seq has no items. */
bool tpl_op_has_some(tpl_rt *rt, tpl_value seq, tpl_value fn,
                     const tpl_loc *l);
bool tpl_op_has_every(tpl_rt *rt, tpl_value seq, tpl_value fn,
                      const tpl_loc *l);
/* a[start:length] on strings (UTF-8 characters) and arrays. */
tpl_value tpl_slice(tpl_rt *rt, tpl_value v, tpl_value start, tpl_value length,
                    bool preserve_keys, const tpl_loc *l);

/* ---- filters, functions, tests -------------------------------------- */

/* argv[0] is the filtered value for filters and the tested value for tests.
 * Optional arguments not given are passed as TPL_NULL with argc counting
 * only those given. Tests return a TPL_BOOL. */
typedef tpl_value (*tpl_callable_fn)(tpl_rt *rt, tpl_ctx *ctx, int argc,
                                     const tpl_value *argv,
                                     const tpl_loc *loc);

enum {
  TPL_CALL_VARIADIC = 1,    /* extra positional arguments allowed */
  TPL_CALL_PRESERVES_SAFETY = 2, /* output is safe if the input was */
  TPL_CALL_NEEDS_TEMPLATE = 4    /* called through a special node */
};

/* Bitmask over tpl_escape values for static safety (1u << TPL_ESC_HTML...) */
#define TPL_SAFE_ALL 0xffu

typedef struct tpl_callable {
  const char *name;
  tpl_callable_fn fn;
  /* Parameter names after the input (filters, tests) or of the function,
   * comma-separated, for named arguments: "low,high,step". A variadic
   * callable's last name is the variadic's: as in Twig, naming it passes
   * one more argument after the others ("value,values": max(1, values=2)). */
  const char *params;
  uint8_t min_args; /* required arguments after the input */
  uint8_t flags;
  uint8_t safe;       /* strategies for which the result is safe */
  uint8_t pre_escape; /* tpl_escape applied to the input first (nl2br) */
} tpl_callable;

const tpl_callable *tpl_find_filter(const char *name, size_t len);
const tpl_callable *tpl_find_function(const char *name, size_t len);
const tpl_callable *tpl_find_test(const char *name, size_t len);

/* Escapes s with strategy into the output. */
void tpl_escape_out(tpl_rt *rt, const char *s, size_t len, tpl_escape strat);
/* The escape filter (Twig's twig_escape_filter without autoescape): escapes
 * strings even when marked safe and returns a PLAIN string, as Twig does
 * (`{% set y = x|e %}{{ y }}` escapes twice in Twig too); other scalars,
 * null and arrays come back unchanged; objects go through their string
 * form. Static safety (the checker) is what keeps `{{ x|e }}` from being
 * escaped again. */
tpl_value tpl_escape_value(tpl_rt *rt, tpl_value v, tpl_escape strat,
                           const tpl_loc *loc);

/* ---- arrow functions ------------------------------------------------ */

typedef struct tpl_closure {
  tpl_value (*fn)(tpl_rt *rt, const struct tpl_closure *self, int argc,
                  const tpl_value *argv);
  const void *node; /* interpreter: the arrow node */
  tpl_ctx *ctx;     /* the scope it was made in */
  const tpl_template *self;
  const tpl_blocks *blocks;
  /* Compiled arrows keep the outer variables they read here: an arrow is
   * an expression, which cannot assign, and lives only while one filter
   * call runs it, so what it reads from ctx cannot change. Slots start
   * with type TPL_UNSET. */
  tpl_value *slots;
  struct tpl_ic *ics; /* compiled arrows' attribute caches, zeroed */
} tpl_closure;

#define TPL_UNSET 0xff

tpl_value tpl_closure_new(tpl_rt *rt,
                          tpl_value (*fn)(tpl_rt *, const tpl_closure *, int,
                                          const tpl_value *),
                          const void *node, tpl_ctx *ctx,
                          const tpl_template *self, const tpl_blocks *blocks);
/* tpl_closure_new with nslots cache slots (see tpl_closure.slots). */
tpl_value tpl_closure_new_slots(
    tpl_rt *rt,
    tpl_value (*fn)(tpl_rt *, const tpl_closure *, int, const tpl_value *),
    tpl_ctx *ctx, const tpl_template *self, const tpl_blocks *blocks,
    size_t nslots, size_t nics);
tpl_value tpl_call(tpl_rt *rt, tpl_value fn, int argc, const tpl_value *argv,
                   const tpl_loc *loc);

/* ---- for loops ------------------------------------------------------ */

typedef struct tpl_loop tpl_loop; /* the `loop` variable's state */

typedef struct tpl_iter {
  tpl_ctx *scope; /* the loop body's transparent scope */
  tpl_map *map;   /* when iterating a map or object */
  tpl_list *list; /* when iterating a list */
  size_t pos, len;
  int64_t accepted;
  const tpl_name *key, *val;
  tpl_loop *loop;
  bool filtered; /* Twig 1's `for x in y if cond`: no length/last */
  tpl_value cur; /* the value bound by the last tpl_for_next */
  const tpl_loc *loc; /* the for statement, for the work budget's error */
} tpl_iter;

/* Starts a loop over seq in a new transparent scope under ctx. Non-iterable
 * values iterate zero times (Twig). */
void tpl_for_begin(tpl_rt *rt, tpl_iter *it, tpl_ctx *ctx, tpl_value seq,
                   const tpl_name *key, const tpl_name *val, bool filtered);
/* Binds the next key/value and `loop`; false when done. */
bool tpl_for_next(tpl_rt *rt, tpl_iter *it);
/* Counts the current item as iterated (after the inline `if` passed, for
 * every item whose body runs; before or after the body, either works). The
 * else branch, when there is one, runs in it->scope like the body. */
void tpl_for_accept(tpl_rt *rt, tpl_iter *it);
/* True when no item was accepted (run the `else` branch). */
static inline bool tpl_for_empty(const tpl_iter *it) {
  return it->accepted == 0;
}

/* ---- blocks, inheritance, includes, macros -------------------------- */

/* Displays a template from the top: builds its chain and block table. Used
 * by tpl_render, include and embed. ctx becomes the template's scope. */
void tpl_display(tpl_rt *rt, const tpl_template *t, tpl_ctx *ctx,
                 const tpl_loc *loc);
/* Called at the end of a child's body: loads parent (a name or template
 * value), checks for cycles, and displays it with the child's blocks. */
void tpl_display_parent(tpl_rt *rt, const tpl_template *self, tpl_ctx *ctx,
                        const tpl_blocks *blocks, tpl_value parent,
                        const tpl_loc *loc);
/* The block table of t displayed alone (its own blocks over those it
 * `use`s): what a macro body passes for blocks, as Twig's macros run with
 * no inherited blocks. */
const tpl_blocks *tpl_blocks_of(tpl_rt *rt, const tpl_template *t);
/* {% block name %} inside a body: displays the most derived definition.
 * This and the other block displays below give def->fn a fresh opaque
 * scope under ctx (Twig passes the context to blocks by value). */
void tpl_display_block(tpl_rt *rt, tpl_ctx *ctx, const tpl_blocks *blocks,
                       const tpl_name *name, const tpl_loc *loc);
/* parent() inside block def: displays the next definition up the chain. */
void tpl_display_parent_block(tpl_rt *rt, const tpl_block_def *def,
                              tpl_ctx *ctx, const tpl_blocks *blocks,
                              const tpl_loc *loc);
/* parent() as a value: the next definition's output as a plain string, as
 * Twig's renderParentBlock gives (printed directly, it is statically safe;
 * tpl_display_parent_block prints the same bytes). */
tpl_value tpl_parent_function(tpl_rt *rt, const tpl_block_def *def,
                              tpl_ctx *ctx, const tpl_blocks *blocks,
                              const tpl_loc *loc);
/* block("name") / block("name", "template") as a function: a plain string,
 * as in Twig, where only static safety keeps {{ block('x') }} unescaped
 * (`{% set y = block('x') %}{{ y }}` escapes).
 * template is null for the current chain. */
tpl_value tpl_block_function(tpl_rt *rt, tpl_ctx *ctx, const tpl_blocks *blocks,
                             tpl_value name, tpl_value tpl, const tpl_loc *loc);
/* `block("name") is defined`. */
bool tpl_block_defined(tpl_rt *rt, const tpl_blocks *blocks, tpl_value name,
                       tpl_value tpl);

/* {% include %}: name may be a string or a list of names (first found wins).
 * with_vars is a map or null; only drops the current context. */
void tpl_include(tpl_rt *rt, tpl_ctx *ctx, tpl_value name, tpl_value with_vars,
                 bool only, bool ignore_missing, const tpl_loc *loc);
/* The include() function: a plain string, as in Twig (see block()). */
tpl_value tpl_include_function(tpl_rt *rt, tpl_ctx *ctx, tpl_value name,
                               tpl_value vars, bool with_context,
                               bool ignore_missing, const tpl_loc *loc);
/* {% embed %}: displays self->embeds[index], whose parent is `name`. */
void tpl_embed(tpl_rt *rt, const tpl_template *self, size_t index,
               tpl_ctx *ctx, tpl_value with_vars, bool only,
               bool ignore_missing, const tpl_loc *loc);

/* Imports: `import EXPR as alias` and `from EXPR import ...` bind slot
 * `slot` of template self to a template (EXPR may be `_self`, given as a
 * null value). Macro calls then go through the slot. */
void tpl_import(tpl_rt *rt, const tpl_template *self, int slot, tpl_value name,
                const tpl_loc *loc);
/* Calls macro `name` of the template bound to self's slot (slot -1: self),
 * or of the nearest of its parents that defines it, as Twig does: a
 * computed parent is evaluated in the caller's ctx. Named arguments follow
 * the positional ones: names[i] for argv[npos + i]. Returns the output as
 * a safe string. */
tpl_value tpl_call_macro(tpl_rt *rt, tpl_ctx *ctx, const tpl_template *self,
                         int slot,
                         const tpl_name *name, int npos, int nnamed,
                         const tpl_value *argv, const tpl_name *names,
                         const tpl_loc *loc);
/* Whether a macro exists (`forms.input is defined`): in the imported
 * template itself, not its parents (Twig's method_exists). */
bool tpl_macro_defined(tpl_rt *rt, const tpl_template *self, int slot,
                       const tpl_name *name);

#endif
