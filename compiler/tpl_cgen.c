/* The C back end: writes C that sequences the same run-time calls, in the
 * same order, as runtime/template/tpl_interp.c does for the same AST, so that compiled
 * and interpreted templates print identical bytes. Every language rule stays
 * in the run time; this file only decides what to call when. */
#include "tpl_cgen.h"

#include "oc_alloc.h"
#include "oc_hash.h"
#include "oc_sb.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- text ------------------------------------------------------------ *
 * The generated file is built in heap string builders (oc_sb.h); like every
 * allocation here they abort when memory runs out (oc_alloc.h). */

/* Text inside a C comment: no comment end, no control characters, and no
 * trailing backslash-newline (there are no newlines at all). */
static void add_c_comment(oc_sb *b, const char *s) {
  for (; s && *s; s++) {
    char c = *s;
    if (c == '*' && s[1] == '/')
      oc_sb_add(b, "* ", 2);
    else if ((unsigned char)c < 0x20 || c == 0x7f || c == '\\')
      oc_sb_add(b, "?", 1);
    else
      oc_sb_add(b, &c, 1);
  }
}

/* Appends b2 to b and frees b2. */
static void sb_move(oc_sb *b, oc_sb *b2) {
  oc_sb_add(b, b2->p, b2->len);
  oc_sb_free(b2);
}

/* ---- C string literals ---------------------------------------------- */

/* Length of the valid UTF-8 sequence of 2..4 bytes at s, or 0. */
static size_t utf8_seq(const unsigned char *s, size_t n) {
  size_t len;
  uint32_t cp;
  if (s[0] >= 0xc2 && s[0] <= 0xdf) {
    len = 2;
    cp = s[0] & 0x1f;
  } else if (s[0] >= 0xe0 && s[0] <= 0xef) {
    len = 3;
    cp = s[0] & 0x0f;
  } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
    len = 4;
    cp = s[0] & 0x07;
  } else {
    return 0;
  }
  if (n < len)
    return 0;
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xc0) != 0x80)
      return 0;
    cp = cp << 6 | (s[i] & 0x3f);
  }
  if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
      (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
    return 0;
  return len;
}

/* Compilers must accept literals of at least 4095 characters (C11); the
 * text is cut well below that and joined by literal concatenation. */
#define CHUNK 4000

/* Writes s as one or more adjacent C string literals. Valid UTF-8 is kept
 * as is (readable, and compilers take UTF-8 sources); everything else that
 * is not printable ASCII becomes a three-digit octal escape, which cannot
 * swallow a following digit. `?` after `?` is escaped against trigraphs.
 * Long texts break after newlines so that the generated file stays
 * readable; `indent` is the column continuation lines start at. */
static void add_c_string(oc_sb *b, const char *s, size_t n, int indent) {
  const unsigned char *u = (const unsigned char *)s;
  size_t chunk = 0;
  oc_sb_add(b, "\"", 1);
  for (size_t i = 0; i < n;) {
    if (chunk >= CHUNK) {
      oc_sb_printf(b, "\"\n%*s\"", indent, "");
      chunk = 0;
    }
    unsigned char c = u[i];
    size_t seq;
    if (c >= 0x80 && (seq = utf8_seq(u + i, n - i)) > 0) {
      oc_sb_add(b, s + i, seq);
      i += seq;
      chunk += seq;
      continue;
    }
    char esc[8];
    switch (c) {
    case '\n':
      oc_sb_add(b, "\\n", 2);
      i++;
      chunk++;
      /* A new line of source per line of text, past the first few bytes. */
      if (i < n && n > 60) {
        oc_sb_printf(b, "\"\n%*s\"", indent, "");
        chunk = 0;
      }
      continue;
    case '\t':
      oc_sb_add(b, "\\t", 2);
      break;
    case '\r':
      oc_sb_add(b, "\\r", 2);
      break;
    case '"':
      oc_sb_add(b, "\\\"", 2);
      break;
    case '\\':
      oc_sb_add(b, "\\\\", 2);
      break;
    case '?':
      if (i > 0 && u[i - 1] == '?')
        oc_sb_add(b, "\\?", 2);
      else
        oc_sb_add(b, "?", 1);
      break;
    default:
      if (c >= 0x20 && c < 0x7f) {
        oc_sb_add(b, (const char *)&c, 1);
      } else {
        snprintf(esc, sizeof esc, "\\%03o", c);
        oc_sb_add(b, esc, 4);
      }
    }
    i++;
    chunk++;
  }
  oc_sb_add(b, "\"", 1);
}

/* ---- tables of names and locations ----------------------------------- */

/* A deduplicating table: each entry is identified by its key bytes. */
typedef struct dedup_entry {
  char *key;
  size_t klen;
  char *cname; /* the C identifier it was given */
} dedup_entry;

typedef struct dedup {
  dedup_entry *e;
  size_t len, cap;
  oc_hidx idx; /* positions in e + 1 by hash */
} dedup;

static uint64_t hash64(const char *s, size_t n) {
  return oc_hash_bytes(OC_HASH_SEED, s, n);
}

static void dedup_free(dedup *d) {
  for (size_t i = 0; i < d->len; i++) {
    free(d->e[i].key);
    free(d->e[i].cname);
  }
  free(d->e);
  oc_hidx_free(&d->idx);
  memset(d, 0, sizeof *d);
}

/* What the index is asked: key bytes in a table. */
typedef struct dedup_probe {
  const dedup *d;
  const char *key;
  size_t klen;
} dedup_probe;

static bool dedup_eq(const void *entry, const void *probe) {
  const dedup_probe *p = probe;
  const dedup_entry *e = &p->d->e[(uintptr_t)entry - 1];
  return e->klen == p->klen && !memcmp(e->key, p->key, p->klen);
}

/* Finds key (of hash h); returns its index, or -1 when absent. */
static long dedup_find(const dedup *d, const char *key, size_t klen,
                       uint64_t h) {
  dedup_probe p = {d, key, klen};
  return (long)(uintptr_t)oc_hidx_get(&d->idx, h, dedup_eq, &p) - 1;
}

static long dedup_insert(dedup *d, const char *key, size_t klen, uint64_t h,
                         const char *cname) {
  OC_GROW(d->e, d->cap, d->len + 1);
  d->e[d->len] = (dedup_entry){oc_strndup(key, klen), klen, oc_strdup(cname)};
  oc_hidx_put(&d->idx, h, (void *)(uintptr_t)(d->len + 1));
  return (long)d->len++;
}

/* ---- the generator ----------------------------------------------------- */

enum fn_kind { FN_BODY, FN_BLOCK, FN_MACRO, FN_ARROW, FN_PARENT };

typedef struct callref {
  const tpl_callable *c;
  int kind; /* 0 filter, 1 function, 2 test */
  int id;
} callref;

/* The function being written. */
typedef struct fnc {
  oc_sb body;
  int kind;
  int ntemp;
  int indent;
  int captured;    /* temp holding the apply body, -1 outside apply */
  const char *ctx; /* C expression of the current scope */
  size_t ncalls, capcalls;
  callref *calls; /* callables this function looks up, lazily */
  /* Reads reused within straight-line code (see cache_var). */
  size_t ncache, capcache;
  struct centry *cache;
  int cdepth; /* conditional C blocks around the code being written */
  size_t ntops, captops;
  int *tops; /* temps declared at the top of the function */
  /* An arrow function: its parameters and the temps bound to them. */
  const tpl_node *arrow;
  int *ptemps;
  const char *outer_ctx; /* the closure's scope, for other names */
  uint32_t line;         /* template line the function starts at */
  int nics;   /* inline caches of attribute lookups (tpl_getattr_name_ic) */
  int nslots; /* an arrow's cached outer variables (tpl_closure.slots) */
} fnc;

/* A value already read in this function: variable `s` of scope `ctx`
 * (kind 0), or attribute `s` of temp `obj` (kind 1), held by temp `temp`,
 * valid while the code runs at conditional depth >= `depth`. */
typedef struct centry {
  int kind;
  char ctx[40];
  const char *s;
  size_t len;
  int obj;
  int temp;
  int depth;
} centry;

struct tpl_cgen {
  char *out_name;
  oc_sb head;   /* includes */
  oc_sb consts; /* files, names, locations */
  oc_sb protos; /* function prototypes */
  oc_sb fns;    /* function definitions, under template #line directives */
  oc_sb tables; /* template structs and registries */
  oc_sb trailer;
  dedup files, names, locs;
  int nfn;  /* functions so far */
  int ntpl; /* template structs so far */
  int nname_arrays;
  int ncallables;
  bool need_callable_helper;
  const char *path; /* the current template's source path for #line */
  fnc *fn;          /* the function being written */
};

bool tpl_cgen_is_ident(const char *s) {
  if (!s || !*s || (*s >= '0' && *s <= '9'))
    return false;
  for (; *s; s++)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
          (*s >= '0' && *s <= '9') || *s == '_'))
      return false;
  return true;
}

tpl_cgen *tpl_cgen_new(const char *out_name, size_t nincludes,
                       const char *const *includes) {
  tpl_cgen *g = oc_calloc(1, sizeof *g);
  g->out_name = oc_strdup(out_name ? out_name : "generated.c");
  oc_sb *parts[] = {&g->head, &g->consts, &g->protos,
                    &g->fns,  &g->tables, &g->trailer};
  for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
    oc_sb_init(parts[i], NULL, 4096);
  oc_sb_adds(&g->head, "#include <math.h>\n#include <stdint.h>\n\n"
                       "#include \"tpl_rt.h\"\n");
  for (size_t i = 0; i < nincludes; i++)
    oc_sb_printf(&g->head, "#include \"%s\"\n", includes[i]);
  return g;
}

void tpl_cgen_free(tpl_cgen *g) {
  if (!g)
    return;
  free(g->out_name);
  oc_sb_free(&g->head);
  oc_sb_free(&g->consts);
  oc_sb_free(&g->protos);
  oc_sb_free(&g->fns);
  oc_sb_free(&g->tables);
  oc_sb_free(&g->trailer);
  dedup_free(&g->files);
  dedup_free(&g->names);
  dedup_free(&g->locs);
  free(g);
}

/* The C name of the static file-name string for `file`. */
static const char *file_ref(tpl_cgen *g, const char *file) {
  if (!file)
    return "NULL";
  size_t n = strlen(file);
  uint64_t h = hash64(file, n);
  long i = dedup_find(&g->files, file, n, h);
  if (i >= 0)
    return g->files.e[i].cname;
  char cname[32];
  snprintf(cname, sizeof cname, "F_%zu", g->files.len);
  oc_sb_printf(&g->consts, "static const char %s[] = ", cname);
  add_c_string(&g->consts, file, n, 4);
  oc_sb_adds(&g->consts, ";\n");
  i = dedup_insert(&g->files, file, n, h, cname);
  return g->files.e[i].cname;
}

/* Writes a tpl_name initializer {"s", len, hash}. */
static void name_init(oc_sb *b, const char *s, size_t len) {
  oc_sb_adds(b, "{");
  add_c_string(b, s ? s : "", s ? len : 0, 4);
  oc_sb_printf(b, ", %zuu, 0x%08" PRIx32 "u}", s ? len : 0,
               tpl_hash_bytes(s ? s : "", s ? len : 0));
}

/* The C name of a static const tpl_name for the given text. */
static const char *name_ref(tpl_cgen *g, const char *s, size_t len) {
  if (!s) {
    s = "";
    len = 0;
  }
  uint64_t h = hash64(s, len);
  long i = dedup_find(&g->names, s, len, h);
  if (i >= 0)
    return g->names.e[i].cname;
  char cname[64];
  bool ident = len > 0 && len < 40 && memchr(s, 0, len) == NULL;
  if (ident) {
    char tmp[48];
    memcpy(tmp, s, len);
    tmp[len] = 0;
    ident = tpl_cgen_is_ident(tmp);
    if (ident)
      snprintf(cname, sizeof cname, "N_%s", tmp);
  }
  if (!ident)
    snprintf(cname, sizeof cname, "NX_%zu", g->names.len);
  oc_sb_printf(&g->consts, "static const tpl_name %s = ", cname);
  name_init(&g->consts, s, len);
  oc_sb_adds(&g->consts, ";\n");
  i = dedup_insert(&g->names, s, len, h, cname);
  return g->names.e[i].cname;
}

static const char *name_ref_n(tpl_cgen *g, const tpl_name *n) {
  return name_ref(g, n->s, n->len);
}

/* The C name of a static const tpl_loc. */
static const char *loc_ref(tpl_cgen *g, const tpl_loc *loc) {
  const char *file = loc->file ? loc->file : "";
  char key[600];
  int kn = snprintf(key, sizeof key, "%u:%u:%.500s", loc->line, loc->col, file);
  size_t klen = (size_t)kn < sizeof key ? (size_t)kn : sizeof key - 1;
  /* Very long file names share a prefix: keep the full name in the key. */
  char *heap = NULL;
  const char *k = key;
  if (strlen(file) > 500) {
    size_t n = strlen(file) + 32;
    heap = oc_malloc(n);
    klen = (size_t)snprintf(heap, n, "%u:%u:%s", loc->line, loc->col, file);
    k = heap;
  }
  uint64_t h = hash64(k, klen);
  long i = dedup_find(&g->locs, k, klen, h);
  if (i < 0) {
    const char *fref = file_ref(g, loc->file);
    char cname[32];
    snprintf(cname, sizeof cname, "L_%zu", g->locs.len);
    oc_sb_printf(&g->consts,
                 "static const tpl_loc %s = {%s, %" PRIu32 ", %" PRIu32 "};\n",
                 cname, fref, loc->line, loc->col);
    i = dedup_insert(&g->locs, k, klen, h, cname);
  }
  free(heap);
  return g->locs.e[i].cname;
}

/* ---- emitting code into the current function -------------------------- */

static void emit_indent(tpl_cgen *g) {
  oc_sb_printf(&g->fn->body, "%*s", g->fn->indent * 2, "");
}

/* printf into the current function, at its indentation. A function, not
 * a macro: arguments that generate code themselves run before the indent. */
static void emit(tpl_cgen *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void emit(tpl_cgen *g, const char *fmt, ...) {
  emit_indent(g);
  oc_sb *b = &g->fn->body;
  oc_sb_reserve(b, 256);
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  if ((size_t)n >= b->cap - b->len) {
    oc_sb_reserve(b, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
  }
  b->len += (size_t)n;
}

static int new_temp(tpl_cgen *g) { return g->fn->ntemp++; }

/* ---- reusing reads ------------------------------------------------------ *
 * Within straight-line code, a second read of the same variable in the same
 * scope, or of the same attribute of the same value, gives what the first
 * gave: values are immutable, and only `set` statements write to the
 * scopes this function can see (blocks, includes, macros and embeds run in
 * fresh opaque scopes; the library never writes to a scope). So the
 * generated code reads once and reuses the temp, which is declared at the
 * top of the function and stays valid until the conditional block it was
 * assigned in closes, or until a `set` (or a loop whose body sets) for
 * variables. The first read is the one that would fail in strict mode, so
 * errors stay the same. */

/* A temp declared at the top of the function, assigned where first read. */
static int top_temp(tpl_cgen *g) {
  fnc *f = g->fn;
  OC_GROW(f->tops, f->captops, f->ntops + 1);
  int t = new_temp(g);
  f->tops[f->ntops++] = t;
  return t;
}

/* A new inline cache, a local of the function being written. */
static int new_ic(tpl_cgen *g) { return g->fn->nics++; }

static int cache_find(tpl_cgen *g, int kind, const char *ctx, int obj,
                      const char *s, size_t len) {
  fnc *f = g->fn;
  for (size_t i = f->ncache; i-- > 0;) {
    centry *e = &f->cache[i];
    if (e->kind == kind && e->len == len &&
        (len == 0 || !memcmp(e->s, s, len)) &&
        (kind == 0 ? !strcmp(e->ctx, ctx) : e->obj == obj))
      return e->temp;
  }
  return -1;
}

static void cache_add(tpl_cgen *g, int kind, const char *ctx, int obj,
                      const char *s, size_t len, int temp) {
  fnc *f = g->fn;
  if (ctx && strlen(ctx) >= sizeof f->cache->ctx)
    return;
  OC_GROW(f->cache, f->capcache, f->ncache + 1);
  centry *e = &f->cache[f->ncache++];
  e->kind = kind;
  snprintf(e->ctx, sizeof e->ctx, "%s", ctx ? ctx : "");
  e->s = s;
  e->len = len;
  e->obj = obj;
  e->temp = temp;
  e->depth = f->cdepth;
}

/* A `set` ran: every variable may have changed. */
static void cache_forget_vars(tpl_cgen *g) {
  fnc *f = g->fn;
  size_t j = 0;
  for (size_t i = 0; i < f->ncache; i++)
    if (f->cache[i].kind != 0)
      f->cache[j++] = f->cache[i];
  f->ncache = j;
}

/* Conditional C blocks: reads made inside may not have run after them. */
static void cond_open(tpl_cgen *g) {
  g->fn->indent++;
  g->fn->cdepth++;
}

static void cond_close(tpl_cgen *g) {
  fnc *f = g->fn;
  size_t j = 0;
  for (size_t i = 0; i < f->ncache; i++)
    if (f->cache[i].depth < f->cdepth)
      f->cache[j++] = f->cache[i];
  f->ncache = j;
  f->cdepth--;
  f->indent--;
}

/* Whether running n may write a variable (a `set` anywhere in it). */
static bool has_writes(const tpl_node *n) {
  if (!n)
    return false;
  if (n->kind == TPL_N_SET || n->kind == TPL_N_SET_CAPTURE)
    return true;
  if (n->kind == TPL_N_ARROW)
    return false; /* expressions only */
  if (has_writes(n->a) || has_writes(n->b) || has_writes(n->c) ||
      has_writes(n->d))
    return true;
  for (size_t i = 0; i < n->nkids; i++)
    if (has_writes(n->kids[i]))
      return true;
  return false;
}

/* Names tpl_var answers itself whatever the scope holds. */
static bool special_name(const tpl_name *n) {
  return n->len > 1 && n->s && n->s[0] == '_' &&
         ((n->len == 5 && !memcmp(n->s, "_self", 5)) ||
          (n->len == 8 &&
           (!memcmp(n->s, "_context", 8) || !memcmp(n->s, "_charset", 8))));
}

/* `#line` to the template line of a statement, so that C compiler messages
 * point at the template. */
static void emit_line(tpl_cgen *g, uint32_t line) {
  if (!g->path || line == 0)
    return;
  oc_sb_printf(&g->fn->body, "#line %" PRIu32 " ", line);
  add_c_string(&g->fn->body, g->path, strlen(g->path), 0);
  oc_sb_adds(&g->fn->body, "\n");
}

static const char *escape_name(int e) {
  switch (e) {
  case TPL_ESC_HTML:
    return "TPL_ESC_HTML";
  case TPL_ESC_JS:
    return "TPL_ESC_JS";
  case TPL_ESC_CSS:
    return "TPL_ESC_CSS";
  case TPL_ESC_URL:
    return "TPL_ESC_URL";
  case TPL_ESC_HTML_ATTR:
    return "TPL_ESC_HTML_ATTR";
  case TPL_ESC_SH:
    return "TPL_ESC_SH";
  default:
    return "TPL_ESC_NONE";
  }
}

static const char *attr_kind_name(int k) {
  switch (k) {
  case TPL_ATTR_ARRAY:
    return "TPL_ATTR_ARRAY";
  case TPL_ATTR_METHOD:
    return "TPL_ATTR_METHOD";
  default:
    return "TPL_ATTR_ANY";
  }
}

/* The C variable caching the callable c in this function; looked up on
 * first use, so that a function pays only for the callables it reaches. */
static int callable_ref(tpl_cgen *g, const tpl_callable *c, int kind,
                        const tpl_loc *loc) {
  fnc *f = g->fn;
  int id = -1;
  for (size_t i = 0; i < f->ncalls; i++)
    if (f->calls[i].c == c && f->calls[i].kind == kind)
      id = f->calls[i].id;
  if (id < 0) {
    OC_GROW(f->calls, f->capcalls, f->ncalls + 1);
    id = g->ncallables++;
    f->calls[f->ncalls++] = (callref){c, kind, id};
  }
  static const char *const finder[] = {"tpl_find_filter", "tpl_find_function",
                                       "tpl_find_test"};
  static const char *const what[] = {"filter", "function", "test"};
  g->need_callable_helper = true;
  const char *name = c->name ? c->name : "";
  emit(g, "if (!k%d)\n", id);
  g->fn->indent++;
  emit(g, "k%d = tplc_need(rt, %s(", id, finder[kind]);
  add_c_string(&f->body, name, strlen(name), 0);
  oc_sb_printf(&f->body, ", %zu), \"%s\", ", strlen(name), what[kind]);
  add_c_string(&f->body, name, strlen(name), 0);
  oc_sb_printf(&f->body, ", &%s);\n", loc_ref(g, loc));
  g->fn->indent--;
  return id;
}

/* ---- expressions ------------------------------------------------------ */

/* A call node without a callable (the checker always sets one): fails at
 * run time as the interpreter does. Returns a null temp. */
static int gen_no_callable(tpl_cgen *g, const tpl_node *n) {
  emit(g, "tpl_fail(rt, &%s, \"unknown function \\\"%%s\\\"\", ",
       loc_ref(g, &n->loc));
  add_c_string(&g->fn->body, n->name.s ? n->name.s : "",
               n->name.s ? n->name.len : 0, 0);
  oc_sb_adds(&g->fn->body, ");\n");
  int r = new_temp(g);
  emit(g, "tpl_value v%d = tpl_null();\n", r);
  return r;
}

static int gen_expr(tpl_cgen *g, const tpl_node *n);
static int gen_cond(tpl_cgen *g, const tpl_node *n);
static void gen_body(tpl_cgen *g, const tpl_node *n);

/* Writes a C expression of type tpl_value for a constant scalar, or returns
 * false when the constant needs code (lists, maps). */
static bool const_scalar(tpl_cgen *g, oc_sb *b, tpl_value v) {
  char num[64];
  switch (v.type) {
  case TPL_NULL:
    oc_sb_adds(b, "tpl_null()");
    return true;
  case TPL_BOOL:
    oc_sb_adds(b, v.u.b ? "tpl_bool(true)" : "tpl_bool(false)");
    return true;
  case TPL_INT:
    if (v.u.i == INT64_MIN)
      oc_sb_adds(b, "tpl_int(-INT64_C(9223372036854775807) - 1)");
    else
      oc_sb_printf(b, "tpl_int(INT64_C(%" PRId64 "))", v.u.i);
    return true;
  case TPL_FLOAT:
    if (isnan(v.u.f)) {
      oc_sb_adds(b, "tpl_float(NAN)");
    } else if (isinf(v.u.f)) {
      oc_sb_adds(b, v.u.f > 0 ? "tpl_float(HUGE_VAL)" : "tpl_float(-HUGE_VAL)");
    } else {
      /* 17 significant digits round-trip exactly; keep it a floating
       * literal so that -0.0 stays negative zero. */
      snprintf(num, sizeof num, "%.17g", v.u.f);
      if (!strpbrk(num, ".eE"))
        strcat(num, ".0");
      oc_sb_printf(b, "tpl_float(%s)", num);
    }
    return true;
  case TPL_STR:
    oc_sb_adds(b, v.safe ? "tpl_safe_str(" : "tpl_str(");
    add_c_string(b, v.u.s, v.len, g->fn ? g->fn->indent * 2 + 4 : 4);
    oc_sb_printf(b, ", %" PRIu32 "u)", v.len);
    return true;
  default:
    return false;
  }
}

/* A constant list or map built at run time in the render's arena. */
static int gen_const(tpl_cgen *g, tpl_value v) {
  int t = new_temp(g);
  if (v.type == TPL_LIST && v.u.list) {
    int l = new_temp(g);
    size_t n = v.u.list->len;
    emit(g, "tpl_list *l%d = tpl_list_new(rt->arena, %zu);\n", l, n);
    for (size_t i = 0; i < n; i++) {
      tpl_value item = v.u.list->items[i];
      emit(g, "l%d->items[%zu] = ", l, i);
      if (!const_scalar(g, &g->fn->body, item)) {
        oc_sb_adds(&g->fn->body, "tpl_null();\n");
        int it = gen_const(g, item);
        emit(g, "l%d->items[%zu] = v%d;\n", l, i, it);
      } else {
        oc_sb_adds(&g->fn->body, ";\n");
      }
    }
    emit(g, "tpl_value v%d = tpl_list_value(l%d);\n", t, l);
    return t;
  }
  if (v.type == TPL_MAP && v.u.map) {
    int m = new_temp(g);
    const tpl_map *map = v.u.map;
    emit(g, "tpl_map *m%d = tpl_map_new(rt->arena, %zu);\n", m, map->len);
    for (size_t i = 0; i < map->len; i++) {
      tpl_value val = map->entries[i].val;
      int vt = -1;
      if (val.type == TPL_LIST || val.type == TPL_MAP)
        vt = gen_const(g, val);
      emit(g, "tpl_map_set(rt->arena, m%d, ", m);
      const_scalar(g, &g->fn->body, map->entries[i].key);
      oc_sb_adds(&g->fn->body, ", ");
      if (vt >= 0)
        oc_sb_printf(&g->fn->body, "v%d", vt);
      else if (!const_scalar(g, &g->fn->body, val))
        oc_sb_adds(&g->fn->body, "tpl_null()");
      oc_sb_adds(&g->fn->body, ");\n");
    }
    emit(g, "tpl_value v%d = tpl_map_value(m%d);\n", t, m);
    return t;
  }
  if (v.type == TPL_LIST || v.type == TPL_MAP) {
    emit(g, "tpl_value v%d = tpl_null();\n", t);
    return t;
  }
  emit(g, "tpl_value v%d = ", t);
  if (!const_scalar(g, &g->fn->body, v))
    oc_sb_adds(&g->fn->body, "tpl_null()");
  oc_sb_adds(&g->fn->body, ";\n");
  return t;
}

/* The (static) string value of a constant string node, or NULL. */
static bool const_str(const tpl_node *n, const char **s, size_t *len) {
  if (!n || n->kind != TPL_N_CONST || n->value.type != TPL_STR)
    return false;
  *s = n->value.u.s;
  *len = n->value.len;
  return true;
}

/* Evaluates the kids of n as an argv array after `first` (-1: none).
 * Missing optional arguments (NULL kids) are passed as null; argc counts up
 * to the last argument given. Returns the array's temp id and sets *argc;
 * -1 when there are no arguments at all. */
static int gen_args(tpl_cgen *g, int first, const tpl_node *n, int *argc) {
  size_t nk = n->nkids;
  size_t last = 0; /* count of kids up to the last one given */
  for (size_t i = 0; i < nk; i++)
    if (n->kids[i])
      last = i + 1;
  int *ids = nk ? oc_calloc(nk, sizeof *ids) : NULL;
  for (size_t i = 0; i < nk; i++)
    ids[i] = n->kids[i] ? gen_expr(g, n->kids[i]) : -1;
  size_t total = nk + (first >= 0);
  *argc = (int)(last + (first >= 0));
  if (total == 0) {
    free(ids);
    return -1;
  }
  int a = new_temp(g);
  emit(g, "const tpl_value a%d[%zu] = {", a, total);
  bool comma = false;
  if (first >= 0) {
    oc_sb_printf(&g->fn->body, "v%d", first);
    comma = true;
  }
  for (size_t i = 0; i < nk; i++) {
    if (comma)
      oc_sb_adds(&g->fn->body, ", ");
    comma = true;
    if (ids[i] >= 0)
      oc_sb_printf(&g->fn->body, "v%d", ids[i]);
    else
      oc_sb_adds(&g->fn->body, "tpl_null()");
  }
  oc_sb_adds(&g->fn->body, "};\n");
  free(ids);
  return a;
}

/* The attribute name of `a.b` when known at compile time (the parser's
 * name, or a constant string key), as the interpreter decides it. */
static bool getattr_name(const tpl_node *n, const char **s, size_t *len) {
  if (n->index != TPL_ATTR_ANY || n->nkids)
    return false;
  if (n->name.s) {
    *s = n->name.s;
    *len = n->name.len;
    return true;
  }
  return const_str(n->b, s, len);
}

/* Probes an expression for `is defined`, `??` and `|default`: sets *def to
 * a bool temp (defined or not) and *val to a value temp (null when
 * undefined). A variable or attribute chain is read without strict-mode
 * errors; anything else is evaluated and defined. */
static void gen_probe(tpl_cgen *g, const tpl_node *n, int *def, int *val) {
  int d = new_temp(g);
  int v = new_temp(g);
  *def = d;
  *val = v;
  switch (n->kind) {
  case TPL_N_NAME:
    emit(g, "tpl_value v%d = tpl_null();\n", v);
    emit(g, "bool b%d = tpl_var_probe(rt, %s, self, &%s, &v%d);\n", d,
         g->fn->ctx, name_ref_n(g, &n->name), v);
    emit(g, "if (!b%d)\n", d);
    emit(g, "  v%d = tpl_null();\n", v);
    return;
  case TPL_N_GETATTR: {
    if (n->index == TPL_ATTR_METHOD)
      goto evaluate; /* a method call is defined: its result decides */
    int od, ov;
    gen_probe(g, n->a, &od, &ov);
    emit(g, "(void)b%d;\n", od);
    const char *s;
    size_t len;
    int k;
    if (getattr_name(n, &s, &len)) {
      k = new_temp(g);
      emit(g, "tpl_value v%d = tpl_str(", k);
      add_c_string(&g->fn->body, s, len, g->fn->indent * 2 + 4);
      oc_sb_printf(&g->fn->body, ", %zu);\n", len);
    } else {
      k = gen_expr(g, n->b);
    }
    emit(g, "tpl_value v%d = tpl_null();\n", v);
    emit(g, "bool b%d = tpl_has_attr(rt, v%d, v%d, &v%d);\n", d, ov, k, v);
    emit(g, "if (!b%d)\n", d);
    emit(g, "  v%d = tpl_null();\n", v);
    return;
  }
  default:
  evaluate : {
    emit(g, "bool b%d = true;\n", d);
    int r = gen_expr(g, n);
    emit(g, "tpl_value v%d = v%d;\n", v, r);
    return;
  }
  }
}

static const char *cmp_op(int op) {
  switch (op) {
  case TPL_OP_LT:
    return "<";
  case TPL_OP_LE:
    return "<=";
  case TPL_OP_GT:
    return ">";
  case TPL_OP_GE:
    return ">=";
  default:
    return NULL;
  }
}

/* Conditions as C bools: avoids boxing comparisons, tests and logic. */
static int gen_cond(tpl_cgen *g, const tpl_node *n) {
  int r;
  if (n->kind == TPL_N_BINARY) {
    int op = n->index;
    if (op == TPL_OP_AND || op == TPL_OP_OR) {
      r = gen_cond(g, n->a);
      emit(g, "if (%sb%d) {\n", op == TPL_OP_AND ? "" : "!", r);
      cond_open(g);
      int b = gen_cond(g, n->b);
      emit(g, "b%d = b%d;\n", r, b);
      cond_close(g);
      emit(g, "}\n");
      return r;
    }
    if (op == TPL_OP_STARTS_WITH || op == TPL_OP_ENDS_WITH) {
      /* The right operand runs only if the left is a plain string, as in
       * the interpreter (tpl_op_affix_evaluates_right). */
      int a = gen_expr(g, n->a);
      r = new_temp(g);
      emit(g, "bool b%d = false;\n", r);
      emit(g, "if (tpl_op_affix_evaluates_right(v%d)) {\n", a);
      cond_open(g);
      int b = gen_expr(g, n->b);
      emit(g, "b%d = %s(rt, v%d, v%d);\n", r,
           op == TPL_OP_STARTS_WITH ? "tpl_op_starts_with" : "tpl_op_ends_with",
           a, b);
      cond_close(g);
      emit(g, "}\n");
      return r;
    }
    const char *cmp = cmp_op(op);
    if (cmp || op == TPL_OP_EQ || op == TPL_OP_NE || op == TPL_OP_IN ||
        op == TPL_OP_NOT_IN || op == TPL_OP_MATCHES || op == TPL_OP_HAS_SOME ||
        op == TPL_OP_HAS_EVERY) {
      int a = gen_expr(g, n->a);
      int b = gen_expr(g, n->b);
      r = new_temp(g);
      switch (op) {
      case TPL_OP_EQ:
        emit(g, "bool b%d = tpl_loose_eq(rt, v%d, v%d);\n", r, a, b);
        break;
      case TPL_OP_NE:
        emit(g, "bool b%d = !tpl_loose_eq(rt, v%d, v%d);\n", r, a, b);
        break;
      case TPL_OP_IN:
        emit(g, "bool b%d = tpl_op_in(rt, v%d, v%d);\n", r, a, b);
        break;
      case TPL_OP_NOT_IN:
        emit(g, "bool b%d = !tpl_op_in(rt, v%d, v%d);\n", r, a, b);
        break;
      case TPL_OP_MATCHES:
        emit(g, "bool b%d = tpl_op_matches(rt, v%d, v%d, &%s);\n", r, a, b,
             loc_ref(g, &n->loc));
        break;
      case TPL_OP_HAS_SOME:
      case TPL_OP_HAS_EVERY:
        emit(g, "bool b%d = %s(rt, v%d, v%d, &%s);\n", r,
             op == TPL_OP_HAS_SOME ? "tpl_op_has_some" : "tpl_op_has_every", a,
             b, loc_ref(g, &n->loc));
        break;
      case TPL_OP_GT:
      case TPL_OP_GE:
        /* PHP evaluates a > b as b < a, which differs for values that do
         * not compare (arrays with other keys, NAN). */
        emit(g, "bool b%d = tpl_compare(rt, v%d, v%d) %s 0;\n", r, b, a,
             op == TPL_OP_GT ? "<" : "<=");
        break;
      default:
        emit(g, "bool b%d = tpl_compare(rt, v%d, v%d) %s 0;\n", r, a, b, cmp);
      }
      return r;
    }
  } else if (n->kind == TPL_N_UNARY && n->index == TPL_OP_NOT) {
    int a = gen_cond(g, n->a);
    r = new_temp(g);
    emit(g, "bool b%d = !b%d;\n", r, a);
    return r;
  } else if (n->kind == TPL_N_TEST) {
    if (!n->callable) {
      int v = gen_no_callable(g, n);
      r = new_temp(g);
      emit(g, "bool b%d = tpl_truthy(v%d);\n", r, v);
      return r;
    }
    int in = gen_expr(g, n->a);
    int argc;
    int av = gen_args(g, in, n, &argc);
    int k = callable_ref(g, n->callable, 2, &n->loc);
    r = new_temp(g);
    emit(g, "bool b%d = %stpl_truthy(k%d->fn(rt, %s, %d, a%d, &%s));\n", r,
         (n->flags & TPL_F_NEGATE) ? "!" : "", k, g->fn->ctx, argc, av,
         loc_ref(g, &n->loc));
    return r;
  } else if (n->kind == TPL_N_DEFINED) {
    const tpl_node *a = n->a;
    const char *neg = (n->flags & TPL_F_NEGATE) ? "!" : "";
    r = new_temp(g);
    if (a->kind == TPL_N_NAME || a->kind == TPL_N_GETATTR) {
      int d, v;
      gen_probe(g, a, &d, &v);
      emit(g, "(void)v%d;\n", v);
      emit(g, "bool b%d = %sb%d;\n", r, neg, d);
    } else if (a->kind == TPL_N_BLOCK_FUNC) {
      int x = gen_expr(g, a->a);
      int y = a->b ? gen_expr(g, a->b) : -1;
      char yb[32];
      snprintf(yb, sizeof yb, y >= 0 ? "v%d" : "tpl_null()", y);
      emit(g, "bool b%d = %stpl_block_defined(rt, blocks, v%d, %s);\n", r, neg,
           x, yb);
    } else if (a->kind == TPL_N_MACRO_CALL) {
      emit(g, "bool b%d = %stpl_macro_defined(rt, self, %d, &%s);\n", r, neg,
           (int)a->index, name_ref_n(g, &a->name));
    } else {
      emit(g, "bool b%d = %s;\n", r, *neg ? "false" : "true");
    }
    return r;
  } else if (n->kind == TPL_N_CONST && n->value.type == TPL_BOOL) {
    r = new_temp(g);
    emit(g, "bool b%d = %s;\n", r, n->value.u.b ? "true" : "false");
    return r;
  }
  int v = gen_expr(g, n);
  r = new_temp(g);
  emit(g, "bool b%d = tpl_truthy(v%d);\n", r, v);
  return r;
}

static bool is_bool_node(const tpl_node *n) {
  switch (n->kind) {
  case TPL_N_TEST:
  case TPL_N_DEFINED:
    return true;
  case TPL_N_UNARY:
    return n->index == TPL_OP_NOT;
  case TPL_N_BINARY: {
    switch (n->index) {
    case TPL_OP_OR:
    case TPL_OP_AND:
    case TPL_OP_EQ:
    case TPL_OP_NE:
    case TPL_OP_LT:
    case TPL_OP_GT:
    case TPL_OP_LE:
    case TPL_OP_GE:
    case TPL_OP_IN:
    case TPL_OP_NOT_IN:
    case TPL_OP_MATCHES:
    case TPL_OP_STARTS_WITH:
    case TPL_OP_ENDS_WITH:
    case TPL_OP_HAS_SOME:
    case TPL_OP_HAS_EVERY:
      return true;
    default:
      return false;
    }
  }
  default:
    return false;
  }
}

static void gen_function_begin(tpl_cgen *g, fnc *f, int kind);
static void gen_function_end(tpl_cgen *g, fnc *saved, const char *signature);

/* Whether an arrow body needs its parameters in a real scope: when
 * something in it receives the scope (calls, probes, nested arrows,
 * `_context`). Otherwise parameters are plain C values and other names are
 * read from the closure's scope, which is what the parameters' scope would
 * have answered. */
static bool arrow_needs_scope(const tpl_node *n) {
  if (!n)
    return false;
  switch (n->kind) {
  case TPL_N_FILTER:
  case TPL_N_FUNCTION:
  case TPL_N_TEST:
  case TPL_N_ARROW:
  case TPL_N_BLOCK_FUNC:
  case TPL_N_PARENT:
  case TPL_N_DEFINED:
  case TPL_N_DEFAULT:
  case TPL_N_NULLCOALESCE:
  case TPL_N_MACRO_CALL: /* a computed parent of its template reads it */
    return true;
  case TPL_N_NAME:
    return special_name(&n->name);
  default:
    break;
  }
  if (arrow_needs_scope(n->a) || arrow_needs_scope(n->b) ||
      arrow_needs_scope(n->c) || arrow_needs_scope(n->d))
    return true;
  for (size_t i = 0; i < n->nkids; i++)
    if (arrow_needs_scope(n->kids[i]))
      return true;
  return false;
}

/* An arrow function: its own C function, bound to the current scope. */
static int gen_arrow(tpl_cgen *g, const tpl_node *n) {
  int id = g->nfn++;
  fnc f, *saved = g->fn;
  gen_function_begin(g, &f, FN_ARROW);
  f.line = n->line;
  f.ptemps = oc_calloc(n->nnames, sizeof *f.ptemps);
  for (size_t i = 0; i < n->nnames; i++) {
    f.ptemps[i] = new_temp(g);
    emit(g, "tpl_value v%d = argc > %zu ? argv[%zu] : tpl_null();\n",
         f.ptemps[i], i, i);
    emit(g, "(void)v%d;\n", f.ptemps[i]);
  }
  f.outer_ctx = "cl->ctx";
  f.ctx = "cl->ctx";
  if (arrow_needs_scope(n->a)) {
    emit(g, "tpl_ctx *scope = tpl_ctx_new(rt, cl->ctx, false);\n");
    for (size_t i = 0; i < n->nnames; i++)
      emit(g, "tpl_ctx_set_own(rt, scope, &%s, v%d);\n",
           name_ref_n(g, &n->names[i]), f.ptemps[i]);
    f.ctx = "scope";
  }
  f.arrow = n;
  int r = gen_expr(g, n->a);
  emit(g, "return v%d;\n", r);
  free(f.ptemps);
  f.ptemps = NULL;
  int nslots = f.nslots, nics = f.nics;
  char sig[160];
  snprintf(sig, sizeof sig,
           "static tpl_value fn%d(tpl_rt *rt, const tpl_closure *cl, int "
           "argc, const tpl_value *argv)",
           id);
  gen_function_end(g, saved, sig);
  int t = new_temp(g);
  emit(g,
       "tpl_value v%d = tpl_closure_new_slots(rt, fn%d, %s, self, blocks, "
       "%d, %d);\n",
       t, id, g->fn->ctx, nslots, nics);
  return t;
}

/* v<r> = e, or '' when the operand was left out (`a ? b`, `|default`). */
static void gen_assign_or_empty(tpl_cgen *g, int r, const tpl_node *e) {
  if (e)
    emit(g, "v%d = v%d;\n", r, gen_expr(g, e));
  else
    emit(g, "v%d = tpl_str(\"\", 0);\n", r);
}

static int gen_expr(tpl_cgen *g, const tpl_node *n) {
  int r;
  if (!n) {
    r = new_temp(g);
    emit(g, "tpl_value v%d = tpl_null();\n", r);
    return r;
  }
  const char *ctx = g->fn->ctx;
  if (is_bool_node(n)) {
    int b = gen_cond(g, n);
    r = new_temp(g);
    /* PHP's preg_match gives an int: `matches` prints 1 or 0. */
    bool is_int = n->kind == TPL_N_BINARY && n->index == TPL_OP_MATCHES;
    emit(g, "tpl_value v%d = %s(b%d);\n", r, is_int ? "tpl_int" : "tpl_bool",
         b);
    return r;
  }
  switch (n->kind) {
  case TPL_N_CONST:
    return gen_const(g, n->value);
  case TPL_N_NAME: {
    fnc *f = g->fn;
    bool special = special_name(&n->name);
    if (f->arrow && !special) {
      /* Arrow parameters: the scope holds exactly what was bound (the last
       * of two parameters with one name wins, as in the scope). */
      for (size_t i = f->arrow->nnames; i-- > 0;) {
        const tpl_name *p = &f->arrow->names[i];
        if (p->len == n->name.len && !memcmp(p->s, n->name.s, p->len))
          return f->ptemps[i];
      }
      /* Other names are not in the parameters' scope: ask the closure's. */
      ctx = f->outer_ctx;
    }
    if (special) {
      r = new_temp(g);
      emit(g, "tpl_value v%d = tpl_var(rt, %s, self, &%s, &%s);\n", r, ctx,
           name_ref_n(g, &n->name), loc_ref(g, &n->loc));
      return r;
    }
    if (f->arrow) {
      /* Read once per closure (see tpl_closure.slots). */
      int slot = f->nslots++;
      r = new_temp(g);
      emit(g, "if (cl->slots[%d].type == TPL_UNSET)\n", slot);
      emit(g, "  cl->slots[%d] = tpl_var(rt, %s, self, &%s, &%s);\n", slot, ctx,
           name_ref_n(g, &n->name), loc_ref(g, &n->loc));
      emit(g, "tpl_value v%d = cl->slots[%d];\n", r, slot);
      return r;
    }
    r = cache_find(g, 0, ctx, 0, n->name.s, n->name.len);
    if (r >= 0)
      return r;
    r = top_temp(g);
    emit(g, "v%d = tpl_var(rt, %s, self, &%s, &%s);\n", r, ctx,
         name_ref_n(g, &n->name), loc_ref(g, &n->loc));
    cache_add(g, 0, ctx, 0, n->name.s, n->name.len, r);
    return r;
  }
  case TPL_N_ARRAY: {
    int *ids = n->nkids ? oc_calloc(n->nkids, sizeof *ids) : NULL;
    for (size_t i = 0; i < n->nkids; i++)
      ids[i] = gen_expr(g, n->kids[i]);
    int l = new_temp(g);
    emit(g, "tpl_list *l%d = tpl_list_new(rt->arena, %zu);\n", l, n->nkids);
    for (size_t i = 0; i < n->nkids; i++)
      emit(g, "l%d->items[%zu] = v%d;\n", l, i, ids[i]);
    free(ids);
    r = new_temp(g);
    emit(g, "tpl_value v%d = tpl_list_value(l%d);\n", r, l);
    return r;
  }
  case TPL_N_HASH: {
    int m = new_temp(g);
    emit(g, "tpl_map *m%d = tpl_map_new(rt->arena, %zu);\n", m, n->nkids / 2);
    for (size_t i = 0; i + 1 < n->nkids; i += 2) {
      int k = gen_expr(g, n->kids[i]);
      int v = gen_expr(g, n->kids[i + 1]);
      emit(g, "tpl_map_set(rt->arena, m%d, v%d, v%d);\n", m, k, v);
    }
    r = new_temp(g);
    emit(g, "tpl_value v%d = tpl_map_or_list(rt->arena, m%d);\n", r, m);
    return r;
  }
  case TPL_N_GETATTR: {
    int o = gen_expr(g, n->a);
    const char *s;
    size_t len;
    if (getattr_name(n, &s, &len)) {
      r = cache_find(g, 1, NULL, o, s, len);
      if (r >= 0)
        return r;
      r = top_temp(g);
      int ic = new_ic(g);
      /* An arrow runs once per item: its caches live in the closure. */
      emit(g, "v%d = tpl_getattr_name_ic(rt, v%d, &%s, &%s, &%s%d%s);\n", r, o,
           name_ref(g, s, len), loc_ref(g, &n->loc),
           g->fn->kind == FN_ARROW ? "cl->ics[" : "ic", ic,
           g->fn->kind == FN_ARROW ? "]" : "");
      cache_add(g, 1, NULL, o, s, len, r);
      return r;
    }
    int k = gen_expr(g, n->b);
    if (n->index == TPL_ATTR_METHOD) {
      int argc;
      int av = gen_args(g, -1, n, &argc);
      char args[32];
      if (av >= 0)
        snprintf(args, sizeof args, "a%d", av);
      else
        snprintf(args, sizeof args, "NULL");
      r = new_temp(g);
      emit(g, "tpl_value v%d = tpl_call_method(rt, v%d, v%d, %d, %s, &%s);\n",
           r, o, k, argc, args, loc_ref(g, &n->loc));
      return r;
    }
    r = new_temp(g);
    emit(g, "tpl_value v%d = tpl_getattr(rt, v%d, v%d, %s, &%s);\n", r, o, k,
         attr_kind_name(n->index), loc_ref(g, &n->loc));
    return r;
  }
  case TPL_N_BINARY: {
    static const char *const ops[] = {[TPL_OP_BOR] = "tpl_op_bitor",
                                      [TPL_OP_BXOR] = "tpl_op_bitxor",
                                      [TPL_OP_BAND] = "tpl_op_bitand",
                                      [TPL_OP_CONCAT] = "tpl_op_concat",
                                      [TPL_OP_ADD] = "tpl_op_add",
                                      [TPL_OP_SUB] = "tpl_op_sub",
                                      [TPL_OP_MUL] = "tpl_op_mul",
                                      [TPL_OP_DIV] = "tpl_op_div",
                                      [TPL_OP_FLOORDIV] = "tpl_op_floordiv",
                                      [TPL_OP_MOD] = "tpl_op_mod",
                                      [TPL_OP_POW] = "tpl_op_pow",
                                      [TPL_OP_RANGE] = "tpl_op_range",
                                      [TPL_OP_CMP] = "tpl_compare"};
    int op = n->index;
    int a = gen_expr(g, n->a);
    int b = gen_expr(g, n->b);
    r = new_temp(g);
    if (op < 0 || op >= (int)(sizeof ops / sizeof *ops) || !ops[op]) {
      /* As the interpreter does for an operator it does not know. */
      emit(g, "(void)v%d;\n(void)v%d;\n", a, b);
      emit(g, "tpl_fail(rt, &%s, \"unknown operator %%d\", %d);\n",
           loc_ref(g, &n->loc), op);
      emit(g, "tpl_value v%d = tpl_null();\n", r);
      return r;
    }
    switch (op) {
    case TPL_OP_BOR:
    case TPL_OP_BXOR:
    case TPL_OP_BAND:
    case TPL_OP_CONCAT:
      emit(g, "tpl_value v%d = %s(rt, v%d, v%d);\n", r, ops[op], a, b);
      break;
    case TPL_OP_CMP:
      emit(g, "tpl_value v%d = tpl_int(tpl_compare(rt, v%d, v%d));\n", r, a, b);
      break;
    case TPL_OP_RANGE:
      emit(g, "tpl_value v%d = tpl_op_range(rt, v%d, v%d, tpl_null(), &%s);\n",
           r, a, b, loc_ref(g, &n->loc));
      break;
    default:
      emit(g, "tpl_value v%d = %s(rt, v%d, v%d, &%s);\n", r, ops[op], a, b,
           loc_ref(g, &n->loc));
    }
    return r;
  }
  case TPL_N_UNARY: {
    int a = gen_expr(g, n->a);
    r = new_temp(g);
    emit(g, "tpl_value v%d = %s(rt, v%d, &%s);\n", r,
         n->index == TPL_OP_NEG ? "tpl_op_neg" : "tpl_op_pos", a,
         loc_ref(g, &n->loc));
    return r;
  }
  case TPL_N_COND: {
    r = new_temp(g);
    emit(g, "tpl_value v%d;\n", r);
    int c;
    if (n->b) {
      c = gen_cond(g, n->a);
      emit(g, "if (b%d) {\n", c);
      cond_open(g);
      int b = gen_expr(g, n->b);
      emit(g, "v%d = v%d;\n", r, b);
    } else {
      int a = gen_expr(g, n->a);
      emit(g, "if (tpl_truthy(v%d)) {\n", a);
      cond_open(g);
      emit(g, "v%d = v%d;\n", r, a);
    }
    cond_close(g);
    emit(g, "} else {\n");
    cond_open(g);
    gen_assign_or_empty(g, r, n->c);
    cond_close(g);
    emit(g, "}\n");
    return r;
  }
  case TPL_N_NULLCOALESCE: {
    int d, v;
    if (n->a->kind == TPL_N_BLOCK_FUNC) {
      /* As the interpreter: a defined block gives its output, an
       * undefined one the right operand. */
      const tpl_node *a = n->a;
      int x = gen_expr(g, a->a);
      int y = a->b ? gen_expr(g, a->b) : -1;
      char yb[32];
      snprintf(yb, sizeof yb, y >= 0 ? "v%d" : "tpl_null()", y);
      r = new_temp(g);
      emit(g, "tpl_value v%d;\n", r);
      emit(g, "if (tpl_block_defined(rt, blocks, v%d, %s)) {\n", x, yb);
      cond_open(g);
      int b = gen_expr(g, a);
      emit(g, "v%d = v%d;\n", r, b);
      cond_close(g);
      emit(g, "} else {\n");
      cond_open(g);
      b = gen_expr(g, n->b);
      emit(g, "v%d = v%d;\n", r, b);
      cond_close(g);
      emit(g, "}\n");
      return r;
    }
    gen_probe(g, n->a, &d, &v);
    r = new_temp(g);
    emit(g, "tpl_value v%d;\n", r);
    emit(g, "if (b%d && v%d.type != TPL_NULL) {\n", d, v);
    emit(g, "  v%d = v%d;\n", r, v);
    emit(g, "} else {\n");
    cond_open(g);
    int b = gen_expr(g, n->b);
    emit(g, "v%d = v%d;\n", r, b);
    cond_close(g);
    emit(g, "}\n");
    return r;
  }
  case TPL_N_FILTER: {
    if (!n->callable)
      return gen_no_callable(g, n);
    int in = gen_expr(g, n->a);
    int argc;
    int av = gen_args(g, in, n, &argc);
    int k = callable_ref(g, n->callable, 0, &n->loc);
    r = new_temp(g);
    emit(g, "tpl_value v%d = k%d->fn(rt, %s, %d, a%d, &%s);\n", r, k, ctx, argc,
         av, loc_ref(g, &n->loc));
    return r;
  }
  case TPL_N_FUNCTION: {
    if (!n->callable)
      return gen_no_callable(g, n);
    int argc;
    int av = gen_args(g, -1, n, &argc);
    int k = callable_ref(g, n->callable, 1, &n->loc);
    r = new_temp(g);
    char args[32];
    if (av >= 0)
      snprintf(args, sizeof args, "a%d", av);
    else
      snprintf(args, sizeof args, "NULL");
    emit(g, "tpl_value v%d = k%d->fn(rt, %s, %d, %s, &%s);\n", r, k, ctx, argc,
         args, loc_ref(g, &n->loc));
    return r;
  }
  case TPL_N_DEFAULT: {
    int d, v;
    gen_probe(g, n->a, &d, &v);
    r = new_temp(g);
    emit(g, "tpl_value v%d;\n", r);
    emit(g, "if (b%d && !tpl_is_empty(rt, v%d)) {\n", d, v);
    emit(g, "  v%d = v%d;\n", r, v);
    emit(g, "} else {\n");
    cond_open(g);
    gen_assign_or_empty(g, r, n->b);
    cond_close(g);
    emit(g, "}\n");
    return r;
  }
  case TPL_N_SLICE: {
    int a = gen_expr(g, n->a);
    int s = n->b ? gen_expr(g, n->b) : -1;
    int l = n->c ? gen_expr(g, n->c) : -1;
    r = new_temp(g);
    char sb[32], lb[32];
    snprintf(sb, sizeof sb, s >= 0 ? "v%d" : "tpl_int(0)", s);
    snprintf(lb, sizeof lb, l >= 0 ? "v%d" : "tpl_null()", l);
    emit(g, "tpl_value v%d = tpl_slice(rt, v%d, %s, %s, false, &%s);\n", r, a,
         sb, lb, loc_ref(g, &n->loc));
    return r;
  }
  case TPL_N_MACRO_CALL: {
    int argc;
    int av = gen_args(g, -1, n, &argc);
    size_t npos = n->n <= n->nkids ? n->n : n->nkids;
    size_t nnamed = n->nkids - npos;
    char names[32] = "NULL";
    if (nnamed > 0 && n->names) {
      int id = g->nname_arrays++;
      snprintf(names, sizeof names, "NA_%d", id);
      oc_sb_printf(&g->consts, "static const tpl_name %s[%zu] = {", names,
                   nnamed);
      for (size_t i = 0; i < nnamed; i++) {
        if (i)
          oc_sb_adds(&g->consts, ", ");
        name_init(&g->consts, n->names[i].s, n->names[i].len);
      }
      oc_sb_adds(&g->consts, "};\n");
    }
    char args[32] = "NULL";
    if (av >= 0)
      snprintf(args, sizeof args, "a%d", av);
    r = new_temp(g);
    emit(g,
         "tpl_value v%d = tpl_call_macro(rt, %s, self, %d, &%s, %zu, %zu, "
         "%s, %s, &%s);\n",
         r, ctx, (int)n->index, name_ref_n(g, &n->name), npos, nnamed, args,
         names, loc_ref(g, &n->loc));
    return r;
  }
  case TPL_N_ARROW:
    return gen_arrow(g, n);
  case TPL_N_PARENT: {
    r = new_temp(g);
    /* Outside a block the run time reports the misuse. */
    emit(g, "tpl_value v%d = tpl_parent_function(rt, %s, %s, blocks, &%s);\n",
         r, g->fn->kind == FN_BLOCK ? "def" : "NULL", ctx, loc_ref(g, &n->loc));
    return r;
  }
  case TPL_N_BLOCK_FUNC: {
    int a = gen_expr(g, n->a);
    int b = n->b ? gen_expr(g, n->b) : -1;
    r = new_temp(g);
    char bb[32];
    snprintf(bb, sizeof bb, b >= 0 ? "v%d" : "tpl_null()", b);
    emit(g,
         "tpl_value v%d = tpl_block_function(rt, %s, blocks, v%d, %s, "
         "&%s);\n",
         r, ctx, a, bb, loc_ref(g, &n->loc));
    return r;
  }
  case TPL_N_ESCAPE: {
    int a = gen_expr(g, n->a);
    r = new_temp(g);
    if (n->flags & TPL_F_AUTO)
      emit(g,
           "tpl_value v%d = v%d.type == TPL_STR && v%d.safe ? v%d : "
           "tpl_escape_value(rt, v%d, %s, &%s);\n",
           r, a, a, a, a, escape_name(n->index), loc_ref(g, &n->loc));
    else
      emit(g, "tpl_value v%d = tpl_escape_value(rt, v%d, %s, &%s);\n", r, a,
           escape_name(n->index), loc_ref(g, &n->loc));
    return r;
  }
  case TPL_N_CAPTURED:
    if (g->fn->captured >= 0)
      return g->fn->captured;
    return gen_expr(g, NULL);
  default:
    /* Statements never appear here after the checker. */
    return gen_expr(g, NULL);
  }
}

/* ---- statements ------------------------------------------------------- */

static void emit_rt_loc(tpl_cgen *g, const tpl_node *n) {
  emit(g, "rt->loc = &%s;\n", loc_ref(g, &n->loc));
}

/* Prints the value of expression n as {{ }} does (and apply's result). */
static void gen_print_expr(tpl_cgen *g, const tpl_node *n) {
  const tpl_node *e = n;
  bool autoesc = false;
  if (e->kind == TPL_N_ESCAPE && (e->flags & TPL_F_AUTO)) {
    autoesc = true;
    e = e->a;
  }
  /* parent() prints straight into the output: its captured text is safe,
   * so escaping it would change nothing. */
  if (e->kind == TPL_N_PARENT && g->fn->kind == FN_BLOCK) {
    emit(g, "tpl_display_parent_block(rt, def, %s, blocks, &%s);\n", g->fn->ctx,
         loc_ref(g, &e->loc));
    return;
  }
  int v = gen_expr(g, e);
  if (autoesc) {
    emit(g, "tpl_out_escaped(rt, v%d, %s);\n", v, escape_name(n->index));
  } else {
    emit(g, "tpl_out_value(rt, v%d);\n", v);
  }
}

/* Constant output of a statement that prints without any run-time rule:
 * text, and {{ }} of a string, integer, boolean or null literal that is
 * printed raw (or safe). Appends to out and returns true. */
static bool const_output(const tpl_node *n, oc_sb *out) {
  if (n->kind == TPL_N_TEXT) {
    if (n->value.type == TPL_STR)
      oc_sb_add(out, n->value.u.s ? n->value.u.s : "", n->value.len);
    return true;
  }
  if (n->kind != TPL_N_PRINT || !n->a)
    return false;
  const tpl_node *e = n->a;
  if (e->kind == TPL_N_ESCAPE && (e->flags & TPL_F_AUTO)) {
    e = e->a;
    /* Only safe strings pass autoescaping unchanged whatever the
     * strategy. */
    if (!e || e->kind != TPL_N_CONST || e->value.type != TPL_STR ||
        !e->value.safe)
      return false;
  }
  if (e->kind != TPL_N_CONST)
    return false;
  char num[32];
  switch (e->value.type) {
  case TPL_STR:
    /* A NUL byte is printed at run time, where the env may refuse it
     * (tpl_env_set_nul_forbidden), as the interpreter does. */
    if (e->value.len && memchr(e->value.u.s, 0, e->value.len))
      return false;
    oc_sb_add(out, e->value.u.s ? e->value.u.s : "", e->value.len);
    return true;
  case TPL_NULL:
    return true;
  case TPL_BOOL:
    if (e->value.u.b)
      oc_sb_add(out, "1", 1);
    return true;
  case TPL_INT:
    snprintf(num, sizeof num, "%" PRId64, e->value.u.i);
    oc_sb_adds(out, num);
    return true;
  default:
    return false;
  }
}

static void gen_text(tpl_cgen *g, const char *s, size_t len) {
  if (len == 0)
    return;
  emit(g, "tpl_out(rt, ");
  add_c_string(&g->fn->body, s, len, g->fn->indent * 2 + 11);
  oc_sb_printf(&g->fn->body, ", %zu);\n", len);
}

static void gen_stmt(tpl_cgen *g, const tpl_node *n);

static void gen_body(tpl_cgen *g, const tpl_node *n) {
  if (!n)
    return;
  if (n->kind != TPL_N_BODY) {
    gen_stmt(g, n);
    return;
  }
  oc_sb text;
  oc_sb_init(&text, NULL, 0);
  uint32_t text_line = 0;
  for (size_t i = 0; i < n->nkids; i++) {
    const tpl_node *k = n->kids[i];
    if (!k)
      continue;
    size_t before = text.len;
    if (const_output(k, &text)) {
      if (text.len > before && text_line == 0)
        text_line = k->line;
      continue;
    }
    if (text.len) {
      emit_line(g, text_line);
      gen_text(g, text.p, text.len);
      text.len = 0;
    }
    text_line = 0;
    gen_stmt(g, k);
  }
  if (text.len) {
    emit_line(g, text_line);
    gen_text(g, text.p, text.len);
  }
  oc_sb_free(&text);
}

/* Runs body with ctx_expr as the current scope. */
static void gen_body_in(tpl_cgen *g, const tpl_node *body,
                        const char *ctx_expr) {
  const char *saved = g->fn->ctx;
  g->fn->ctx = ctx_expr;
  gen_body(g, body);
  g->fn->ctx = saved;
}

static void gen_stmt(tpl_cgen *g, const tpl_node *n) {
  const char *ctx = g->fn->ctx;
  switch (n->kind) {
  case TPL_N_BODY:
    gen_body(g, n);
    return;
  case TPL_N_TEXT:
    if (n->value.type == TPL_STR && n->value.len) {
      emit_line(g, n->line);
      gen_text(g, n->value.u.s, n->value.len);
    }
    return;
  case TPL_N_EXTENDS:
    return; /* kept in the template, evaluated at the end of the body */
  default:
    break;
  }
  emit_line(g, n->line);
  emit(g, "{\n");
  g->fn->indent++;
  emit_rt_loc(g, n);
  switch (n->kind) {
  case TPL_N_PRINT: {
    oc_sb text;
    oc_sb_init(&text, NULL, 0);
    if (const_output(n, &text))
      gen_text(g, text.p, text.len);
    else
      gen_print_expr(g, n->a);
    oc_sb_free(&text);
    break;
  }
  case TPL_N_IF: {
    size_t pairs = n->nkids / 2;
    int opened = 0;
    for (size_t i = 0; i < pairs; i++) {
      if (i > 0) {
        emit(g, "} else {\n");
        cond_open(g);
        opened++;
        emit_line(g, n->kids[2 * i]->line);
      }
      int c = gen_cond(g, n->kids[2 * i]);
      emit(g, "if (b%d) {\n", c);
      cond_open(g);
      gen_body(g, n->kids[2 * i + 1]);
      cond_close(g);
    }
    if (n->c) {
      emit(g, "} else {\n");
      cond_open(g);
      gen_body(g, n->c);
      cond_close(g);
    }
    emit(g, "}\n");
    while (opened-- > 0) {
      cond_close(g);
      emit(g, "}\n");
    }
    break;
  }
  case TPL_N_FOR: {
    int seq = gen_expr(g, n->a);
    int it = new_temp(g);
    char key[80] = "NULL";
    if (n->name2.len)
      snprintf(key, sizeof key, "&%s", name_ref_n(g, &n->name2));
    emit(g, "tpl_iter it%d;\n", it);
    emit(g, "tpl_for_begin(rt, &it%d, %s, v%d, %s, &%s, %s);\n", it, ctx, seq,
         key, name_ref_n(g, &n->name), n->b ? "true" : "false");
    char scope[32];
    snprintf(scope, sizeof scope, "it%d.scope", it);
    /* The body runs again after its own writes. */
    if (has_writes(n->b) || has_writes(n->c))
      cache_forget_vars(g);
    emit(g, "while (tpl_for_next(rt, &it%d)) {\n", it);
    cond_open(g);
    /* Unless the loop assigns variables, reads of the loop variable in its
     * own scope are the value the iterator just bound. */
    if (!has_writes(n->b) && !has_writes(n->c) && n->name.len) {
      int cur = top_temp(g);
      emit(g, "v%d = it%d.cur;\n", cur, it);
      emit(g, "(void)v%d;\n", cur);
      cache_add(g, 0, scope, 0, n->name.s, n->name.len, cur);
    }
    if (n->b) {
      const char *saved = g->fn->ctx;
      g->fn->ctx = scope;
      int c = gen_cond(g, n->b);
      g->fn->ctx = saved;
      emit(g, "if (!b%d)\n", c);
      emit(g, "  continue;\n");
    }
    emit(g, "tpl_for_accept(rt, &it%d);\n", it);
    gen_body_in(g, n->c, scope);
    cond_close(g);
    emit(g, "}\n");
    if (n->d) {
      emit(g, "if (tpl_for_empty(&it%d)) {\n", it);
      cond_open(g);
      gen_body_in(g, n->d, scope);
      cond_close(g);
      emit(g, "}\n");
    }
    break;
  }
  case TPL_N_SET: {
    size_t cnt = n->n;
    if (cnt * 2 > n->nkids)
      cnt = n->nkids / 2;
    int *ids = cnt ? oc_calloc(cnt, sizeof *ids) : NULL;
    for (size_t i = 0; i < cnt; i++)
      ids[i] = gen_expr(g, n->kids[cnt + i]);
    for (size_t i = 0; i < cnt; i++)
      emit(g, "tpl_ctx_set(rt, %s, &%s, v%d);\n", ctx,
           name_ref_n(g, &n->kids[i]->name), ids[i]);
    cache_forget_vars(g);
    free(ids);
    break;
  }
  case TPL_N_SET_CAPTURE: {
    int m = new_temp(g);
    emit(g, "size_t c%d = tpl_capture_begin(rt);\n", m);
    gen_body(g, n->a);
    int v = new_temp(g);
    emit(g, "tpl_value v%d = tpl_capture_end(rt, c%d);\n", v, m);
    emit(g, "tpl_ctx_set(rt, %s, &%s, v%d);\n", ctx, name_ref_n(g, &n->name),
         v);
    cache_forget_vars(g);
    break;
  }
  case TPL_N_BLOCK_REF:
    emit(g, "tpl_display_block(rt, %s, blocks, &%s, &%s);\n", ctx,
         name_ref_n(g, &n->name), loc_ref(g, &n->loc));
    break;
  case TPL_N_INCLUDE: {
    int a = gen_expr(g, n->a);
    int b = n->b ? gen_expr(g, n->b) : -1;
    char bb[32];
    snprintf(bb, sizeof bb, b >= 0 ? "v%d" : "tpl_null()", b);
    emit(g, "tpl_include(rt, %s, v%d, %s, %s, %s, &%s);\n", ctx, a, bb,
         (n->flags & TPL_F_ONLY) ? "true" : "false",
         (n->flags & TPL_F_IGNORE_MISSING) ? "true" : "false",
         loc_ref(g, &n->loc));
    break;
  }
  case TPL_N_EMBED: {
    int b = n->b ? gen_expr(g, n->b) : -1;
    char bb[32];
    snprintf(bb, sizeof bb, b >= 0 ? "v%d" : "tpl_null()", b);
    emit(g, "tpl_embed(rt, self, %d, %s, %s, %s, %s, &%s);\n", (int)n->index,
         ctx, bb, (n->flags & TPL_F_ONLY) ? "true" : "false",
         (n->flags & TPL_F_IGNORE_MISSING) ? "true" : "false",
         loc_ref(g, &n->loc));
    break;
  }
  case TPL_N_IMPORT: {
    int a = n->a ? gen_expr(g, n->a) : -1;
    char ab[32];
    snprintf(ab, sizeof ab, a >= 0 ? "v%d" : "tpl_null()", a);
    emit(g, "tpl_import(rt, self, %d, %s, &%s);\n", (int)n->index, ab,
         loc_ref(g, &n->loc));
    break;
  }
  case TPL_N_APPLY: {
    int m = new_temp(g);
    emit(g, "size_t c%d = tpl_capture_begin(rt);\n", m);
    gen_body(g, n->b);
    int v = new_temp(g);
    emit(g, "tpl_value v%d = tpl_capture_end(rt, c%d);\n", v, m);
    int saved = g->fn->captured;
    g->fn->captured = v;
    gen_print_expr(g, n->a);
    g->fn->captured = saved;
    break;
  }
  case TPL_N_AUTOESCAPE:
    gen_body(g, n->a);
    break;
  case TPL_N_WITH: {
    int s = new_temp(g);
    emit(g, "tpl_ctx *s%d = tpl_ctx_new(rt, %s, false);\n", s,
         (n->flags & TPL_F_ONLY) ? "rt->globals" : ctx);
    if (n->a) {
      int v = gen_expr(g, n->a);
      emit(g, "tpl_ctx_merge(rt, s%d, v%d, &%s);\n", s, v,
           loc_ref(g, &n->a->loc));
    }
    char scope[32];
    snprintf(scope, sizeof scope, "s%d", s);
    gen_body_in(g, n->b, scope);
    break;
  }
  case TPL_N_DO: {
    int v = gen_expr(g, n->a);
    emit(g, "(void)v%d;\n", v);
    break;
  }
  default:
    /* An expression where a statement should be: evaluate for effects. */
    if (n->kind >= TPL_N_CONST) {
      int v = gen_expr(g, n);
      emit(g, "(void)v%d;\n", v);
    }
    break;
  }
  g->fn->indent--;
  emit(g, "}\n");
}

/* ---- functions --------------------------------------------------------- */

static void gen_function_begin(tpl_cgen *g, fnc *f, int kind) {
  memset(f, 0, sizeof *f);
  oc_sb_init(&f->body, NULL, 1024);
  f->kind = kind;
  f->indent = 1;
  f->captured = -1;
  f->ctx = "ctx";
  g->fn = f;
}

/* Finishes the current function: writes its prototype and its definition
 * (parameters marked used, callable caches declared) and restores the
 * enclosing one. */
static void gen_function_end(tpl_cgen *g, fnc *saved, const char *signature) {
  fnc *f = g->fn;
  oc_sb_printf(&g->protos, "%s;\n", signature);
  oc_sb *o = &g->fns;
  oc_sb_adds(o, "\n");
  if (g->path && f->line) {
    oc_sb_printf(o, "#line %" PRIu32 " ", f->line);
    add_c_string(o, g->path, strlen(g->path), 0);
    oc_sb_adds(o, "\n");
  }
  oc_sb_printf(o, "%s {\n", signature);
  switch (f->kind) {
  case FN_BODY:
    oc_sb_adds(o,
               "  (void)rt;\n  (void)self;\n  (void)ctx;\n  (void)blocks;\n");
    break;
  case FN_BLOCK:
    oc_sb_adds(o, "  (void)rt;\n  (void)ctx;\n  (void)blocks;\n"
                  "  const tpl_template *self = def->owner;\n  (void)self;\n");
    break;
  case FN_MACRO:
    /* Macros run with their template's own block table, as Twig's. */
    oc_sb_adds(o, "  (void)ctx;\n"
                  "  const tpl_template *self = def->owner;\n  (void)self;\n"
                  "  const tpl_blocks *blocks = tpl_blocks_of(rt, self);\n"
                  "  (void)blocks;\n");
    break;
  case FN_ARROW:
    oc_sb_adds(o,
               "  (void)rt;\n  (void)cl;\n  (void)argc;\n  (void)argv;\n"
               "  const tpl_template *self = cl->self;\n  (void)self;\n"
               "  const tpl_blocks *blocks = cl->blocks;\n  (void)blocks;\n");
    break;
  case FN_PARENT:
    oc_sb_adds(o, "  (void)ctx;\n"
                  "  const tpl_blocks *blocks = tpl_blocks_of(rt, self);\n"
                  "  (void)blocks;\n");
    break;
  }
  for (size_t i = 0; i < f->ncalls; i++)
    oc_sb_printf(o, "  const tpl_callable *k%d = NULL;\n", f->calls[i].id);
  for (size_t i = 0; i < f->ntops; i++)
    oc_sb_printf(o, "  tpl_value v%d = tpl_null();\n", f->tops[i]);
  for (int i = 0; f->kind != FN_ARROW && i < f->nics; i++)
    oc_sb_printf(o, "  tpl_ic ic%d = {0, NULL};\n", i);
  sb_move(o, &f->body);
  oc_sb_adds(o, "}\n");
  free(f->calls);
  f->calls = NULL;
  free(f->cache);
  f->cache = NULL;
  free(f->tops);
  f->tops = NULL;
  g->fn = saved;
}

static void gen_template(tpl_cgen *g, const tpl_ast_template *t,
                         const char *path, int tid);

/* Writes the tables and struct of template t (number tid). */
static void gen_template_tables(tpl_cgen *g, const tpl_ast_template *t, int tid,
                                int body_fn, int parent_fn,
                                const int *block_fns, const int *macro_fns,
                                const int *embed_tids) {
  oc_sb *o = &g->tables;
  oc_sb_adds(o, "\n/* ");
  add_c_comment(o, t->name);
  oc_sb_adds(o, " */\n");
  if (t->nblocks) {
    oc_sb_printf(o, "static const tpl_block_def T%d_blocks[%zu] = {\n", tid,
                 t->nblocks);
    for (size_t i = 0; i < t->nblocks; i++) {
      oc_sb_adds(o, "  {.name = ");
      name_init(o, t->blocks[i].name.s, t->blocks[i].name.len);
      oc_sb_printf(o, ", .fn = fn%d, .owner = &T%d, .node = NULL},\n",
                   block_fns[i], tid);
    }
    oc_sb_adds(o, "};\n");
  }
  for (size_t i = 0; i < t->nmacros; i++) {
    const tpl_ast_macro *m = &t->macros[i];
    if (!m->nparams)
      continue;
    oc_sb_printf(o, "static const tpl_name T%d_m%zu_params[%zu] = {\n", tid, i,
                 m->nparams);
    for (size_t j = 0; j < m->nparams; j++) {
      oc_sb_adds(o, "  ");
      name_init(o, m->params[j].s, m->params[j].len);
      oc_sb_adds(o, ",\n");
    }
    oc_sb_adds(o, "};\n");
  }
  if (t->nmacros) {
    oc_sb_printf(o, "static const tpl_macro_def T%d_macros[%zu] = {\n", tid,
                 t->nmacros);
    for (size_t i = 0; i < t->nmacros; i++) {
      const tpl_ast_macro *m = &t->macros[i];
      oc_sb_adds(o, "  {.name = ");
      name_init(o, m->name.s, m->name.len);
      if (m->nparams)
        oc_sb_printf(o, ", .nparams = %zu, .params = T%d_m%zu_params",
                     m->nparams, tid, i);
      else
        oc_sb_adds(o, ", .nparams = 0, .params = NULL");
      oc_sb_printf(o, ", .fn = fn%d, .owner = &T%d, .node = NULL},\n",
                   macro_fns[i], tid);
    }
    oc_sb_adds(o, "};\n");
  }
  for (size_t i = 0; i < t->nuses; i++) {
    const tpl_use *u = &t->uses[i];
    if (!u->nrenames)
      continue;
    oc_sb_printf(o, "static const tpl_use_rename T%d_u%zu_renames[%zu] = {\n",
                 tid, i, u->nrenames);
    for (size_t j = 0; j < u->nrenames; j++) {
      oc_sb_adds(o, "  {");
      name_init(o, u->renames[j].from.s, u->renames[j].from.len);
      oc_sb_adds(o, ", ");
      name_init(o, u->renames[j].to.s, u->renames[j].to.len);
      oc_sb_adds(o, "},\n");
    }
    oc_sb_adds(o, "};\n");
  }
  if (t->nuses) {
    oc_sb_printf(o, "static const tpl_use T%d_uses[%zu] = {\n", tid, t->nuses);
    for (size_t i = 0; i < t->nuses; i++) {
      const tpl_use *u = &t->uses[i];
      oc_sb_adds(o, "  {.name = ");
      add_c_string(o, u->name ? u->name : "", u->name ? strlen(u->name) : 0, 4);
      if (u->nrenames)
        oc_sb_printf(o, ", .nrenames = %zu, .renames = T%d_u%zu_renames",
                     u->nrenames, tid, i);
      else
        oc_sb_adds(o, ", .nrenames = 0, .renames = NULL");
      oc_sb_printf(o, ", .loc = {%s, %" PRIu32 ", %" PRIu32 "}},\n",
                   file_ref(g, u->loc.file), u->loc.line, u->loc.col);
    }
    oc_sb_adds(o, "};\n");
  }
  if (t->nembeds) {
    oc_sb_printf(o, "static const tpl_template *const T%d_embeds[%zu] = {", tid,
                 t->nembeds);
    for (size_t i = 0; i < t->nembeds; i++)
      oc_sb_printf(o, "%s&T%d", i ? ", " : "", embed_tids[i]);
    oc_sb_adds(o, "};\n");
  }
  oc_sb_printf(o, "static const char T%d_source[] =\n    ", tid);
  add_c_string(o, t->source ? t->source : "", t->source ? t->source_len : 0, 4);
  oc_sb_adds(o, ";\n");
  oc_sb_printf(o, "static const tpl_template T%d = {\n  .name = ", tid);
  add_c_string(o, t->name ? t->name : "", t->name ? strlen(t->name) : 0, 4);
  oc_sb_printf(o, ",\n  .autoescape = %s,\n  .body = fn%d,\n",
               escape_name(t->autoescape), body_fn);
  if (t->nblocks)
    oc_sb_printf(o, "  .nblocks = %zu,\n  .blocks = T%d_blocks,\n", t->nblocks,
                 tid);
  if (t->nmacros)
    oc_sb_printf(o, "  .nmacros = %zu,\n  .macros = T%d_macros,\n", t->nmacros,
                 tid);
  if (t->nuses)
    oc_sb_printf(o, "  .nuses = %zu,\n  .uses = T%d_uses,\n", t->nuses, tid);
  if (t->nembeds)
    oc_sb_printf(o, "  .nembeds = %zu,\n  .embeds = T%d_embeds,\n", t->nembeds,
                 tid);
  oc_sb_printf(o, "  .source = T%d_source,\n  .source_len = %zu,\n", tid,
               t->source ? t->source_len : 0);
  if (t->parent && t->parent->kind == TPL_N_CONST &&
      t->parent->value.type == TPL_STR) {
    oc_sb_adds(o, "  .parent_name = ");
    add_c_string(o, t->parent->value.u.s, t->parent->value.len, 4);
    oc_sb_adds(o, ",\n");
  }
  if (parent_fn >= 0)
    oc_sb_printf(o, "  .parent_of = fn%d,\n", parent_fn);
  oc_sb_adds(o, "  .ast = NULL,\n};\n");
}

/* The function for a template body, block or macro. */
static int gen_code_fn(tpl_cgen *g, int kind, const tpl_node *body,
                       const tpl_ast_macro *macro, const tpl_node *parent,
                       uint32_t line) {
  int id = g->nfn++;
  fnc f, *saved = g->fn;
  gen_function_begin(g, &f, kind);
  f.line = line;
  if (macro) {
    /* Twig binds every parameter: those not given get their default, or
     * null. */
    for (size_t i = 0; i < macro->nparams; i++) {
      const char *pn = name_ref_n(g, &macro->params[i]);
      emit_line(g, macro->defaults && macro->defaults[i]
                       ? macro->defaults[i]->line
                       : line);
      emit(g, "if (!tpl_ctx_has_own(ctx, &%s)) {\n", pn);
      cond_open(g);
      if (macro->defaults && macro->defaults[i]) {
        int v = gen_expr(g, macro->defaults[i]);
        emit(g, "tpl_ctx_set_own(rt, ctx, &%s, v%d);\n", pn, v);
      } else {
        emit(g, "tpl_ctx_set_own(rt, ctx, &%s, tpl_null());\n", pn);
      }
      cond_close(g);
      emit(g, "}\n");
    }
    cache_forget_vars(g); /* the defaults were written */
  }
  gen_body(g, body);
  if (parent) {
    const tpl_node *pe =
        parent->kind == TPL_N_EXTENDS && parent->a ? parent->a : parent;
    emit_line(g, pe->line);
    emit(g, "{\n");
    g->fn->indent++;
    emit_rt_loc(g, pe);
    int v = gen_expr(g, pe);
    emit(g, "tpl_display_parent(rt, self, ctx, blocks, v%d, &%s);\n", v,
         loc_ref(g, &pe->loc));
    g->fn->indent--;
    emit(g, "}\n");
  }
  char sig[200];
  switch (kind) {
  case FN_BODY:
    snprintf(sig, sizeof sig,
             "static void fn%d(tpl_rt *rt, const tpl_template *self, tpl_ctx "
             "*ctx, const tpl_blocks *blocks)",
             id);
    break;
  case FN_BLOCK:
    snprintf(sig, sizeof sig,
             "static void fn%d(tpl_rt *rt, const tpl_block_def *def, tpl_ctx "
             "*ctx, const tpl_blocks *blocks)",
             id);
    break;
  default:
    snprintf(sig, sizeof sig,
             "static void fn%d(tpl_rt *rt, const tpl_macro_def *def, tpl_ctx "
             "*ctx)",
             id);
  }
  gen_function_end(g, saved, sig);
  return id;
}

/* A computed extends expression as a function of a caller's context, for
 * macros looked up in the parents (tpl_template.parent_of). */
static int gen_parent_fn(tpl_cgen *g, const tpl_node *parent) {
  int id = g->nfn++;
  fnc f, *saved = g->fn;
  gen_function_begin(g, &f, FN_PARENT);
  const tpl_node *pe =
      parent->kind == TPL_N_EXTENDS && parent->a ? parent->a : parent;
  f.line = pe->line;
  int v = gen_expr(g, pe);
  emit(g, "return v%d;\n", v);
  char sig[160];
  snprintf(sig, sizeof sig,
           "static tpl_value fn%d(tpl_rt *rt, const tpl_template *self, "
           "tpl_ctx *ctx)",
           id);
  gen_function_end(g, saved, sig);
  return id;
}

/* Generates every function and table of template t as number tid. */
static void gen_template(tpl_cgen *g, const tpl_ast_template *t,
                         const char *path, int tid) {
  int *embed_tids = t->nembeds ? oc_calloc(t->nembeds, sizeof(int)) : NULL;
  int *block_fns = t->nblocks ? oc_calloc(t->nblocks, sizeof(int)) : NULL;
  int *macro_fns = t->nmacros ? oc_calloc(t->nmacros, sizeof(int)) : NULL;
  /* Embedded templates first: they are tables this one points at. */
  for (size_t i = 0; i < t->nembeds; i++) {
    embed_tids[i] = g->ntpl++;
    oc_sb_printf(&g->protos, "static const tpl_template T%d;\n", embed_tids[i]);
    gen_template(g, t->embeds[i], path, embed_tids[i]);
  }
  const char *saved_path = g->path;
  g->path = path;
  oc_sb_adds(&g->fns, "\n/* ---- ");
  add_c_comment(&g->fns, t->name);
  oc_sb_adds(&g->fns, " ---- */\n");
  for (size_t i = 0; i < t->nmacros; i++)
    macro_fns[i] = gen_code_fn(g, FN_MACRO, t->macros[i].body, &t->macros[i],
                               NULL, t->macros[i].loc.line);
  for (size_t i = 0; i < t->nblocks; i++)
    block_fns[i] = gen_code_fn(g, FN_BLOCK, t->blocks[i].body, NULL, NULL,
                               t->blocks[i].loc.line);
  int body_fn = gen_code_fn(g, FN_BODY, t->body, NULL, t->parent, 1);
  int parent_fn = -1;
  if (t->parent &&
      !(t->parent->kind == TPL_N_CONST && t->parent->value.type == TPL_STR))
    parent_fn = gen_parent_fn(g, t->parent);
  g->path = saved_path;
  gen_template_tables(g, t, tid, body_fn, parent_fn, block_fns, macro_fns,
                      embed_tids);
  free(embed_tids);
  free(block_fns);
  free(macro_fns);
}

/* A template that did not parse: its body fails with the diagnostic. */
static void gen_broken_template(tpl_cgen *g, const tpl_ast_template *t,
                                const tpl_diag *d, int tid) {
  int id = g->nfn++;
  fnc f, *saved = g->fn;
  gen_function_begin(g, &f, FN_BODY);
  tpl_loc loc = {d->file, d->line, d->col};
  emit(g, "tpl_fail(rt, &%s, \"%%s\", ", loc_ref(g, &loc));
  add_c_string(&f.body, d->message, strnlen(d->message, sizeof d->message), 4);
  oc_sb_adds(&f.body, ");\n");
  char sig[200];
  snprintf(sig, sizeof sig,
           "static void fn%d(tpl_rt *rt, const tpl_template *self, tpl_ctx "
           "*ctx, const tpl_blocks *blocks)",
           id);
  gen_function_end(g, saved, sig);
  tpl_ast_template stub = {.name = t->name,
                           .source = t->source,
                           .source_len = t->source_len,
                           .autoescape = t->autoescape};
  gen_template_tables(g, &stub, tid, id, -1, NULL, NULL, NULL);
}

void tpl_cgen_add_registry(tpl_cgen *g, const char *prefix, size_t n,
                           const tpl_ast_template *const *templates,
                           const char *const *paths,
                           const tpl_diag *const *broken, bool is_static) {
  int *tids = n ? oc_calloc(n, sizeof *tids) : NULL;
  for (size_t i = 0; i < n; i++) {
    tids[i] = g->ntpl++;
    oc_sb_printf(&g->protos, "static const tpl_template T%d;\n", tids[i]);
  }
  for (size_t i = 0; i < n; i++) {
    if (broken && broken[i])
      gen_broken_template(g, templates[i], broken[i], tids[i]);
    else
      gen_template(g, templates[i], paths ? paths[i] : templates[i]->name,
                   tids[i]);
  }
  oc_sb *o = &g->tables;
  const char *st = is_static ? "static " : "";
  oc_sb_printf(o, "\n%sconst tpl_template *const %s_templates[%zu] = {\n", st,
               prefix, n ? n : 1);
  for (size_t i = 0; i < n; i++)
    oc_sb_printf(o, "  &T%d,\n", tids[i]);
  if (!n)
    oc_sb_adds(o, "  NULL,\n");
  oc_sb_adds(o, "};\n");
  /* A static registry is used through the array only (its users take the
   * count from the table they put it in). */
  if (!is_static)
    oc_sb_printf(o, "const size_t %s_ntemplates = %zu;\n", prefix, n);
  free(tids);
}

void tpl_cgen_add_trailer(tpl_cgen *g, const char *text, size_t len) {
  oc_sb_add(&g->trailer, text, len);
}

static size_t count_lines(const oc_sb *b) {
  size_t n = 0;
  for (size_t i = 0; i < b->len; i++)
    n += b->p[i] == '\n';
  return n;
}

char *tpl_cgen_finish(tpl_cgen *g, size_t *len) {
  oc_sb o;
  oc_sb_init(&o, NULL, 65536);
  oc_sb_adds(&o,
             "/* Generated by themec: do not edit. Each function below "
             "sequences the\n * run-time calls (tpl_rt.h) that the "
             "interpreter makes for the same\n * template; #line directives "
             "point at the template lines. */\n");
  oc_sb_add(&o, g->head.p, g->head.len);
  if (g->need_callable_helper)
    oc_sb_adds(&o,
               "\n/* Looks up a filter, function or test by name once per "
               "call of the\n * function using it; fails cleanly when the "
               "run-time library lacks it. */\n"
               "static const tpl_callable *tplc_need(tpl_rt *rt, const "
               "tpl_callable *c,\n"
               "                                     const char *what, const "
               "char *name,\n"
               "                                     const tpl_loc *loc) {\n"
               "  if (!c)\n"
               "    tpl_fail(rt, loc, \"unknown %s \\\"%s\\\"\", what, "
               "name);\n"
               "  return c;\n"
               "}\n");
  oc_sb_adds(&o, "\n");
  oc_sb_add(&o, g->consts.p, g->consts.len);
  oc_sb_adds(&o, "\n");
  oc_sb_add(&o, g->protos.p, g->protos.len);
  oc_sb_add(&o, g->fns.p, g->fns.len);
  /* Back to this file's own lines for the tables. */
  size_t line = count_lines(&o) + 1;
  oc_sb_printf(&o, "#line %zu ", line + 1);
  add_c_string(&o, g->out_name, strlen(g->out_name), 0);
  oc_sb_adds(&o, "\n");
  oc_sb_add(&o, g->tables.p, g->tables.len);
  oc_sb_add(&o, g->trailer.p, g->trailer.len);
  *len = o.len;
  return oc_sb_take(&o);
}

char *tpl_cgen_header(const char *prefix, const char *source_desc) {
  oc_sb o;
  oc_sb_init(&o, NULL, 512);
  char guard[256];
  size_t j = 0;
  for (const char *p = prefix; *p && j + 3 < sizeof guard; p++)
    guard[j++] = (*p >= 'a' && *p <= 'z') ? (char)(*p - 'a' + 'A') : *p;
  guard[j] = 0;
  oc_sb_adds(&o, "/* Generated by themec from ");
  add_c_comment(&o, source_desc ? source_desc : "templates");
  oc_sb_printf(&o,
               ": do not edit. The compiled templates,\n"
               " * for tpl_env_add_compiled. */\n"
               "#ifndef %s_H\n#define %s_H\n\n#include <stddef.h>\n\n"
               "#include \"tpl_rt.h\"\n\n"
               "extern const tpl_template *const %s_templates[];\n"
               "extern const size_t %s_ntemplates;\n\n#endif\n",
               guard, guard, prefix, prefix);
  return oc_sb_take(&o);
}
