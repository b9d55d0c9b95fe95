/* Highlighting of code from highlight's grammars (hl_highlight.h).
 *
 * A grammar (langDefs/NAME.lang) is a Lua chunk that sets globals:
 * Keywords (lists and regular expressions, each with a group Id),
 * Comments, Strings, Digits, Identifiers, Operators, PreProcessor,
 * NestedSections (another grammar between two delimiters) and an optional
 * OnStateChange(old, new, token, group) hook that may change the state a
 * token opens. Reading it gives an ordered list of rules, each a PCRE2
 * expression and the state its match opens.
 *
 * Matching, line by line: every rule is run over the whole line, in the
 * grammar's order, and each match claims its start position unless an
 * earlier rule claimed it (so keyword expressions beat comments, which
 * beat identifiers, numbers, strings, escapes and operators). Then a scan
 * of the line takes, at each position, the claimed match or one
 * character, and a small state machine decides its class: inside a
 * string, only its closing delimiter, escapes and interpolations count;
 * inside a block comment only its closing delimiter (and nested openings
 * where the grammar allows them); a line comment runs to the line's end;
 * a preprocessor line to its end unless the line ends with the
 * continuation character; keyword, number, operator, escape and
 * interpolation runs end at the first token of another state. Identifier
 * matches are looked up in the keyword lists. This is the model highlight
 * documents for its definitions, so its grammars read as their authors
 * meant them.
 *
 * Every block starts from the grammar as read: the hook's globals and the
 * keywords it adds are reset. Work is linear in the block: the matches of
 * one line are found once (again only when a nested grammar starts or
 * ends), PCRE2 runs under match and depth limits, and Lua under an
 * instruction and a memory cap. */
#include "hl_highlight.h"

#include <ctype.h>
#include <errno.h>
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "oc_alloc.h"
#include "oc_hash.h"

/* highlight's state numbers: the hooks compare and return them. */
enum {
  S_STD = 0,
  S_STR,
  S_NUM,
  S_SLC,
  S_COM,
  S_ESC,
  S_PPC,
  S_PPS,
  S_LIN,
  S_OPT,
  S_IPL,
  S_KW,
  S_STR_END,
  S_NUM_END,
  S_SLC_END,
  S_COM_END,
  S_ESC_END,
  S_PPC_END,
  S_OPT_END,
  S_IPL_END,
  S_KW_END,
  S_ID,
  S_ID_END,
  S_EMB_BEGIN,
  S_EMB_END,
  S_LAST = S_EMB_END,
  S_UNKNOWN = 100,
  S_REJECT,
  S_EOL,
  S_EOF,
  S_WS
};

/* Output classes: the span class names, keyword groups last. */
enum { C_STD, C_STR, C_NUM, C_SLC, C_COM, C_ESC, C_PPC, C_PPS, C_OPT, C_IPL,
       C_KW };
static const char *const class_names[] = {
    "",       "hl-str", "hl-num", "hl-slc", "hl-com", "hl-esc", "hl-ppc",
    "hl-pps", "hl-opt", "hl-ipl", "hl-kwa", "hl-kwb", "hl-kwc", "hl-kwd",
    "hl-kwe", "hl-kwf"};
#define MAX_KW_GROUP 6

#define MAX_GRAMMAR_FILE (1u << 20)
#define MAX_LUA_MEMORY (64u << 20)
#define LUA_TICK 10000          /* instructions between two count hooks */
#define LOAD_TICKS 2000         /* 20 M instructions to read a grammar */
#define CALL_TICKS 20           /* 200 k instructions per hook call */
#define MAX_NESTING 8
#define MAX_GRAMMARS 256

typedef struct hl_rule {
  int state;           /* the state a match opens */
  int kw;              /* keyword group of a Keywords expression */
  int group;           /* capture group that is the token; -1: the last */
  int pair;            /* a closing delimiter: its opening rule; else -1 */
  bool distinct;       /* opening and closing delimiters differ */
  bool raw;            /* a raw string's opening delimiter */
  pcre2_code *re;
  uint32_t ncap;       /* its capture groups */
  char *nested;        /* S_EMB_BEGIN: the grammar it opens */
  pcre2_code *end;     /* S_EMB_BEGIN: the expression that ends it */
} hl_rule;

typedef struct kw_map {
  char **words;
  unsigned char *group;
  size_t n, cap; /* cap a power of two, at most half full */
} kw_map;

typedef struct hl_grammar {
  char *name;
  bool failed;
  const char *why;
  hl_rule *rules;
  size_t nrules;
  kw_map kw;
  bool ignore_case, nested_comments, equal_length;
  char raw_prefix, continuation;
  lua_State *L;
  int hook;     /* registry reference of OnStateChange, or LUA_NOREF */
  int snapshot; /* registry reference of the globals as read */
  bool dirty;   /* the hook ran since the globals were restored */
  size_t lua_mem;
  int ticks;
  struct hl_run *run; /* the block being highlighted (AddKeyword) */
} hl_grammar;

struct hl_highlighter {
  char *langdefs, *filetypes;
  hl_grammar *grammars[MAX_GRAMMARS];
  size_t ngrammars;
  /* filetypes.conf: extension → grammar, read once */
  bool ft_read;
  char **ft_ext, **ft_lang;
  size_t nft;
  pcre2_match_data *md;
  pcre2_match_context *mctx;
  char why[160];
};

/* ---- small helpers --------------------------------------------------- */

static size_t kw_hash(const char *s) { return (size_t)oc_hash_str(s); }

static int kw_get(const kw_map *m, const char *w) {
  if (!m->cap)
    return 0;
  for (size_t i = kw_hash(w) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
    if (!m->words[i])
      return 0;
    if (!strcmp(m->words[i], w))
      return m->group[i];
  }
}

/* Adds w unless it is there (the first group named wins, as in highlight). */
static void kw_add(kw_map *m, const char *w, int group) {
  if (group < 1 || group > MAX_KW_GROUP || !*w || kw_get(m, w))
    return;
  if ((m->n + 1) * 2 > m->cap) {
    size_t cap = m->cap ? m->cap * 2 : 64;
    char **words = oc_calloc(cap, sizeof *words);
    unsigned char *groups = oc_calloc(cap, 1);
    for (size_t i = 0; i < m->cap; i++)
      if (m->words[i]) {
        size_t j = kw_hash(m->words[i]) & (cap - 1);
        while (words[j])
          j = (j + 1) & (cap - 1);
        words[j] = m->words[i];
        groups[j] = m->group[i];
      }
    free(m->words);
    free(m->group);
    m->words = words;
    m->group = groups;
    m->cap = cap;
  }
  size_t i = kw_hash(w) & (m->cap - 1);
  while (m->words[i])
    i = (i + 1) & (m->cap - 1);
  m->words[i] = oc_strdup(w);
  m->group[i] = (unsigned char)group;
  m->n++;
}

static void kw_clear(kw_map *m) {
  for (size_t i = 0; i < m->cap; i++)
    free(m->words[i]);
  free(m->words);
  free(m->group);
  memset(m, 0, sizeof *m);
}

static size_t utf8_len(const char *s, size_t left) {
  unsigned char c = (unsigned char)s[0];
  size_t n = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
  if (n > left)
    n = left;
  for (size_t i = 1; i < n; i++)
    if (((unsigned char)s[i] & 0xC0) != 0x80)
      return i;
  return n;
}

/* Text escaped as cmark escapes code: & < > ". */
static void add_escaped(oc_sb *out, const char *s, size_t n) {
  size_t from = 0;
  for (size_t i = 0; i < n; i++) {
    const char *rep = NULL;
    switch (s[i]) {
    case '&': rep = "&amp;"; break;
    case '<': rep = "&lt;"; break;
    case '>': rep = "&gt;"; break;
    case '"': rep = "&quot;"; break;
    default: continue;
    }
    oc_sb_add(out, s + from, i - from);
    oc_sb_adds(out, rep);
    from = i + 1;
  }
  oc_sb_add(out, s + from, n - from);
}

static char *trimmed(const char *s) {
  while (isspace((unsigned char)*s))
    s++;
  size_t n = strlen(s);
  while (n && isspace((unsigned char)s[n - 1]))
    n--;
  return oc_strndup(s, n);
}

/* ---- Lua: a capped state that runs a grammar file ------------------- */

static void *lua_alloc_capped(void *ud, void *ptr, size_t osize, size_t nsize) {
  hl_grammar *g = ud;
  if (!ptr)
    osize = 0;
  if (nsize == 0) {
    free(ptr);
    g->lua_mem -= osize;
    return NULL;
  }
  if (nsize > osize && g->lua_mem + (nsize - osize) > MAX_LUA_MEMORY)
    return NULL;
  void *p = realloc(ptr, nsize);
  if (p)
    g->lua_mem = g->lua_mem - osize + nsize;
  return p;
}

static hl_grammar *grammar_of(lua_State *L) {
  void *ud;
  lua_getallocf(L, &ud);
  return ud;
}

static void lua_count(lua_State *L, lua_Debug *ar) {
  (void)ar;
  hl_grammar *g = grammar_of(L);
  if (--g->ticks < 0)
    luaL_error(L, "too many instructions");
}

struct hl_run;
static void run_add_keyword(struct hl_run *r, const char *w, int group);

/* AddKeyword(word, group): to the grammar while it is read, to the block
 * being highlighted afterwards. */
static int lua_add_keyword(lua_State *L) {
  hl_grammar *g = grammar_of(L);
  const char *w = luaL_checkstring(L, 1);
  int group = (int)luaL_checkinteger(L, 2);
  if (g->run)
    run_add_keyword(g->run, w, group);
  else
    kw_add(&g->kw, w, group);
  return 0;
}

static bool lua_run_file(hl_grammar *g, lua_State *L, const char *path);

/* dofile(HL_LANG_DIR .. "NAME.lang"): a grammar that builds on another
 * (scala on java, plperl on sql) runs that one first. Only a grammar file
 * of the same folder, by a plain name. */
static int lua_dofile_grammar(lua_State *L) {
  hl_grammar *g = grammar_of(L);
  const char *path = luaL_checkstring(L, 1);
  const char *dir = lua_tostring(L, lua_upvalueindex(1));
  size_t dl = strlen(dir), n = strlen(path);
  bool ok = n > dl + 5 && !strncmp(path, dir, dl) &&
            !strcmp(path + n - 5, ".lang");
  for (size_t i = dl; ok && i < n - 5; i++)
    ok = isalnum((unsigned char)path[i]) || path[i] == '_' || path[i] == '-';
  if (!ok)
    return luaL_error(L, "dofile: not a grammar of this folder");
  int ticks = g->ticks;
  bool ran = lua_run_file(g, L, path);
  g->ticks = ticks;
  if (!ran)
    return luaL_error(L, "dofile: %s cannot be run", path);
  return 0;
}

static const struct {
  const char *name;
  int value;
} lua_consts[] = {
    {"HL_STANDARD", S_STD},
    {"HL_STRING", S_STR},
    {"HL_NUMBER", S_NUM},
    {"HL_LINE_COMMENT", S_SLC},
    {"HL_BLOCK_COMMENT", S_COM},
    {"HL_ESC_SEQ", S_ESC},
    {"HL_PREPROC", S_PPC},
    {"HL_PREPROC_STRING", S_PPS},
    {"HL_OPERATOR", S_OPT},
    {"HL_LINENUMBER", S_LIN},
    {"HL_INTERPOLATION", S_IPL},
    {"HL_KEYWORD", S_KW},
    {"HL_STRING_END", S_STR_END},
    {"HL_LINE_COMMENT_END", S_SLC_END},
    {"HL_BLOCK_COMMENT_END", S_COM_END},
    {"HL_ESC_SEQ_END", S_ESC_END},
    {"HL_PREPROC_END", S_PPC_END},
    {"HL_OPERATOR_END", S_OPT_END},
    {"HL_KEYWORD_END", S_KW_END},
    {"HL_EMBEDDED_CODE_BEGIN", S_EMB_BEGIN},
    {"HL_EMBEDDED_CODE_END", S_EMB_END},
    {"HL_IDENTIFIER_BEGIN", S_ID},
    {"HL_IDENTIFIER_END", S_ID_END},
    {"HL_INTERPOLATION_END", S_IPL_END},
    {"HL_UNKNOWN", S_UNKNOWN},
    {"HL_REJECT", S_REJECT},
    /* output formats: Octavo writes (X)HTML */
    {"HL_FORMAT_HTML", 0},
    {"HL_FORMAT_XHTML", 1},
    {"HL_FORMAT_TEX", 2},
    {"HL_FORMAT_LATEX", 3},
    {"HL_FORMAT_RTF", 4},
    {"HL_FORMAT_ANSI", 5},
    {"HL_FORMAT_XTERM256", 6},
    {"HL_FORMAT_SVG", 7},
    {"HL_FORMAT_BBCODE", 8},
    {"HL_FORMAT_PANGO", 9},
    {"HL_FORMAT_ODT", 10},
    {"HL_FORMAT_TRUECOLOR", 11},
    {"HL_OUTPUT", 1},
};

/* highlight's defaults, which a grammar may replace. */
static const char default_identifier[] = "[a-zA-Z_]\\w*";
static const char default_number[] =
    "(?:0x|0X)[0-9a-fA-F]+|\\d*[\\.]?\\d+(?:[eE][\\-\\+]\\d+)?[lLuU]*";
static const char default_escape[] =
    "\\\\u[[:xdigit:]]{4}|\\\\\\d{3}|\\\\x[[:xdigit:]]{2}|"
    "\\\\[ntvbrfa\\\\\\?'\"]";

/* A state with only the base, string, table and math libraries (and
 * dofile for grammars in langdefs, when not NULL). */
static lua_State *lua_open_capped(hl_grammar *g, const char *langdefs) {
  lua_State *L = lua_newstate(lua_alloc_capped, g);
  if (!L)
    return NULL;
  static const luaL_Reg libs[] = {{LUA_GNAME, luaopen_base},
                                  {LUA_STRLIBNAME, luaopen_string},
                                  {LUA_TABLIBNAME, luaopen_table},
                                  {LUA_MATHLIBNAME, luaopen_math}};
  for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++) {
    luaL_requiref(L, libs[i].name, libs[i].func, 1);
    lua_pop(L, 1);
  }
  static const char *const removed[] = {"dofile", "loadfile", "load",
                                        "require", "collectgarbage", "print"};
  for (size_t i = 0; i < sizeof removed / sizeof removed[0]; i++) {
    lua_pushnil(L);
    lua_setglobal(L, removed[i]);
  }
  for (size_t i = 0; i < sizeof lua_consts / sizeof lua_consts[0]; i++) {
    lua_pushinteger(L, lua_consts[i].value);
    lua_setglobal(L, lua_consts[i].name);
  }
  lua_pushstring(L, default_identifier);
  lua_setglobal(L, "Identifiers");
  lua_pushstring(L, default_number);
  lua_setglobal(L, "Digits");
  lua_pushcfunction(L, lua_add_keyword);
  lua_setglobal(L, "AddKeyword");
  if (langdefs) {
    lua_pushfstring(L, "%s/", langdefs);
    lua_pushvalue(L, -1);
    lua_setglobal(L, "HL_LANG_DIR");
    lua_pushcclosure(L, lua_dofile_grammar, 1);
    lua_setglobal(L, "dofile");
  }
  lua_sethook(L, lua_count, LUA_MASKCOUNT, LUA_TICK);
  return L;
}

static char *read_small_file(const char *path, size_t max, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  char *buf = oc_malloc(max + 1);
  size_t n = fread(buf, 1, max + 1, f);
  bool bad = ferror(f) || n > max;
  fclose(f);
  if (bad) {
    free(buf);
    return NULL;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

/* Runs a file's chunk in L; false (with g->why) when it fails. */
static bool lua_run_file(hl_grammar *g, lua_State *L, const char *path) {
  size_t len;
  char *src = read_small_file(path, MAX_GRAMMAR_FILE, &len);
  if (!src) {
    g->why = "cannot be read";
    return false;
  }
  g->ticks = LOAD_TICKS;
  int rc = luaL_loadbufferx(L, src, len, path, "t");
  free(src);
  if (rc == LUA_OK)
    rc = lua_pcall(L, 0, 0, 0);
  if (rc != LUA_OK) {
    lua_pop(L, 1);
    g->why = "is not a grammar Lua can run";
    return false;
  }
  return true;
}

/* ---- reading a grammar --------------------------------------------- */

/* The string at t[key] (t on the stack top), or NULL. */
static char *field_string(lua_State *L, const char *key) {
  char *s = NULL;
  if (lua_getfield(L, -1, key) == LUA_TSTRING)
    s = trimmed(lua_tostring(L, -1));
  lua_pop(L, 1);
  return s;
}

static char *index_string(lua_State *L, lua_Integer i) {
  char *s = NULL;
  if (lua_geti(L, -1, i) == LUA_TSTRING)
    s = trimmed(lua_tostring(L, -1));
  lua_pop(L, 1);
  return s;
}

static bool field_flag(lua_State *L, const char *key, bool *set) {
  int t = lua_getfield(L, -1, key);
  bool v = lua_toboolean(L, -1);
  lua_pop(L, 1);
  if (set)
    *set = t != LUA_TNIL;
  return v;
}

static pcre2_code *compile_re(const char *pattern) {
  int err;
  PCRE2_SIZE off;
  pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
                                 PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &err,
                                 &off, NULL);
  if (re)
    pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
  return re;
}

/* Appends a rule; a pattern PCRE2 cannot compile drops the rule. */
static int add_rule(hl_grammar *g, size_t *cap, int state, const char *pattern,
                    int kw, int group) {
  if (!pattern)
    return -1;
  pcre2_code *re = compile_re(pattern);
  if (!re)
    return -1;
  oc_grow((void **)&g->rules, cap, g->nrules + 1, sizeof *g->rules);
  hl_rule *r = &g->rules[g->nrules];
  memset(r, 0, sizeof *r);
  r->state = state;
  r->kw = kw;
  r->group = group;
  r->pair = -1;
  r->re = re;
  pcre2_pattern_info(re, PCRE2_INFO_CAPTURECOUNT, &r->ncap);
  return (int)g->nrules++;
}

static void read_keywords(hl_grammar *g, lua_State *L, size_t *cap) {
  if (lua_getglobal(L, "Keywords") == LUA_TTABLE) {
    for (lua_Integer i = 1; lua_geti(L, -1, i) == LUA_TTABLE; i++) {
      int id = 0;
      if (lua_getfield(L, -1, "Id") == LUA_TNUMBER)
        id = (int)lua_tointeger(L, -1);
      lua_pop(L, 1);
      if (id < 1 || id > MAX_KW_GROUP)
        id = MAX_KW_GROUP;
      if (lua_getfield(L, -1, "List") == LUA_TTABLE) {
        for (lua_Integer k = 1; lua_geti(L, -1, k) == LUA_TSTRING; k++) {
          kw_add(&g->kw, lua_tostring(L, -1), id);
          lua_pop(L, 1);
        }
        lua_pop(L, 2);
      } else {
        lua_pop(L, 1);
        char *re = field_string(L, "Regex");
        int group = -1;
        if (lua_getfield(L, -1, "Group") == LUA_TNUMBER)
          group = (int)lua_tointeger(L, -1);
        lua_pop(L, 1);
        add_rule(g, cap, S_KW, re, id, group);
        free(re);
      }
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

static void read_comments(hl_grammar *g, lua_State *L, size_t *cap) {
  if (lua_getglobal(L, "Comments") == LUA_TTABLE) {
    for (lua_Integer i = 1; lua_geti(L, -1, i) == LUA_TTABLE; i++) {
      bool block = field_flag(L, "Block", NULL);
      if (block) {
        bool set;
        bool nested = field_flag(L, "Nested", &set);
        if (set)
          g->nested_comments = nested;
      }
      char *open = NULL, *close = NULL;
      if (lua_getfield(L, -1, "Delimiter") == LUA_TTABLE) {
        open = index_string(L, 1);
        close = block ? index_string(L, 2) : NULL;
      }
      lua_pop(L, 1);
      if (!block) {
        add_rule(g, cap, S_SLC, open, 0, -1);
      } else if (open && close) {
        int o = add_rule(g, cap, S_COM, open, 0, -1);
        int c = add_rule(g, cap, S_COM_END, close, 0, -1);
        if (o >= 0 && c >= 0) {
          g->rules[c].pair = o;
          g->rules[o].distinct = g->rules[c].distinct = strcmp(open, close);
        }
      }
      free(open);
      free(close);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

static void read_strings(hl_grammar *g, lua_State *L, size_t *cap) {
  if (lua_getglobal(L, "Strings") != LUA_TTABLE) {
    lua_pop(L, 1);
    return;
  }
  char *s = field_string(L, "RawPrefix");
  if (s && s[0])
    g->raw_prefix = s[0];
  free(s);
  s = field_string(L, "Delimiter");
  int r = add_rule(g, cap, S_STR, s, 0, -1);
  if (r >= 0)
    g->rules[r].distinct = true;
  free(s);
  s = field_string(L, "Interpolation");
  add_rule(g, cap, S_IPL, s, 0, -1);
  free(s);
  if (lua_getfield(L, -1, "DelimiterPairs") == LUA_TTABLE) {
    for (lua_Integer i = 1; lua_geti(L, -1, i) == LUA_TTABLE; i++) {
      char *open = field_string(L, "Open"), *close = field_string(L, "Close");
      bool raw = field_flag(L, "Raw", NULL);
      if (open && close) {
        int o = add_rule(g, cap, S_STR, open, 0, -1);
        int c = add_rule(g, cap, S_STR_END, close, 0, -1);
        if (o >= 0 && c >= 0) {
          g->rules[c].pair = o;
          g->rules[o].raw = raw;
        }
      }
      free(open);
      free(close);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  g->equal_length = field_flag(L, "AssertEqualLength", NULL);
  s = field_string(L, "Escape");
  add_rule(g, cap, S_ESC, s ? s : default_escape, 0, -1);
  free(s);
  lua_pop(L, 1);
}

/* The global `name` as a trimmed string, or NULL. */
static char *global_string(lua_State *L, const char *name) {
  char *s = NULL;
  if (lua_getglobal(L, name) == LUA_TSTRING)
    s = trimmed(lua_tostring(L, -1));
  lua_pop(L, 1);
  return s;
}

static void read_rules(hl_grammar *g, lua_State *L) {
  size_t cap = 0;
  if (lua_getglobal(L, "IgnoreCase") != LUA_TNIL)
    g->ignore_case = lua_toboolean(L, -1);
  lua_pop(L, 1);
  read_keywords(g, L, &cap);
  read_comments(g, L, &cap);
  char *s = global_string(L, "Identifiers");
  add_rule(g, &cap, S_ID, s ? s : default_identifier, 0, -1);
  free(s);
  s = global_string(L, "Digits");
  add_rule(g, &cap, S_NUM, s ? s : default_number, 0, -1);
  free(s);
  read_strings(g, L, &cap);
  if (lua_getglobal(L, "PreProcessor") == LUA_TTABLE) {
    s = field_string(L, "Prefix");
    add_rule(g, &cap, S_PPC, s, 0, -1);
    free(s);
    s = field_string(L, "Continuation");
    if (s && s[0])
      g->continuation = s[0];
    free(s);
  }
  lua_pop(L, 1);
  s = global_string(L, "Operators");
  add_rule(g, &cap, S_OPT, s, 0, -1);
  free(s);
  /* Nested sections go first, the last listed first of all. */
  if (lua_getglobal(L, "NestedSections") == LUA_TTABLE) {
    for (lua_Integer i = 1; lua_geti(L, -1, i) == LUA_TTABLE; i++) {
      char *lang = field_string(L, "Lang"), *open = NULL, *close = NULL;
      if (lua_getfield(L, -1, "Delimiter") == LUA_TTABLE) {
        open = index_string(L, 1);
        close = index_string(L, 2);
      }
      lua_pop(L, 1);
      pcre2_code *end = close ? compile_re(close) : NULL;
      int r = lang && end ? add_rule(g, &cap, S_EMB_BEGIN, open, 0, -1) : -1;
      if (r >= 0) {
        hl_rule nr = g->rules[r];
        nr.nested = lang;
        nr.end = end;
        lang = NULL;
        end = NULL;
        memmove(g->rules + 1, g->rules, (size_t)r * sizeof *g->rules);
        g->rules[0] = nr;
        for (size_t k = 1; k < g->nrules; k++)
          if (g->rules[k].pair >= 0)
            g->rules[k].pair++;
      }
      pcre2_code_free(end);
      free(lang);
      free(open);
      free(close);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

/* A shallow copy of the globals, to start every block from. */
static void snapshot_globals(hl_grammar *g) {
  lua_State *L = g->L;
  lua_newtable(L);
  lua_pushglobaltable(L);
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, -5);
  }
  lua_pop(L, 1);
  g->snapshot = luaL_ref(L, LUA_REGISTRYINDEX);
}

static void restore_globals(hl_grammar *g) {
  lua_State *L = g->L;
  lua_pushglobaltable(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, g->snapshot);
  /* keys added since: removed (collected first: no writes during next) */
  lua_newtable(L);
  lua_Integer n = 0;
  lua_pushnil(L);
  while (lua_next(L, -4)) {
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    if (lua_rawget(L, -4) == LUA_TNIL) {
      lua_pushvalue(L, -2);
      lua_rawseti(L, -4, ++n);
    }
    lua_pop(L, 1);
  }
  for (lua_Integer i = 1; i <= n; i++) {
    lua_rawgeti(L, -1, i);
    lua_pushnil(L);
    lua_rawset(L, -5);
  }
  lua_pop(L, 1);
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, -5);
  }
  lua_pop(L, 2);
}

static void grammar_free(hl_grammar *g) {
  if (!g)
    return;
  for (size_t i = 0; i < g->nrules; i++) {
    pcre2_code_free(g->rules[i].re);
    pcre2_code_free(g->rules[i].end);
    free(g->rules[i].nested);
  }
  free(g->rules);
  kw_clear(&g->kw);
  if (g->L)
    lua_close(g->L);
  free(g->name);
  free(g);
}

static hl_grammar *grammar_load(hl_highlighter *h, const char *stem) {
  for (size_t i = 0; i < h->ngrammars; i++)
    if (!strcmp(h->grammars[i]->name, stem))
      return h->grammars[i];
  if (h->ngrammars == MAX_GRAMMARS)
    return NULL;
  hl_grammar *g = oc_calloc(1, sizeof *g);
  g->name = oc_strdup(stem);
  g->nested_comments = true;
  g->hook = g->snapshot = LUA_NOREF;
  h->grammars[h->ngrammars++] = g;
  char *path = oc_malloc(strlen(h->langdefs) + strlen(stem) + 8);
  sprintf(path, "%s/%s.lang", h->langdefs, stem);
  g->L = lua_open_capped(g, h->langdefs);
  if (!g->L || !lua_run_file(g, g->L, path)) {
    g->failed = true;
    if (!g->why)
      g->why = "cannot be read";
    free(path);
    return g;
  }
  free(path);
  read_rules(g, g->L);
  if (lua_getglobal(g->L, "OnStateChange") == LUA_TFUNCTION) {
    g->hook = luaL_ref(g->L, LUA_REGISTRYINDEX);
    snapshot_globals(g);
  } else {
    lua_pop(g->L, 1);
    lua_close(g->L);
    g->L = NULL;
  }
  return g;
}

/* ---- names ---------------------------------------------------------- */

/* Names code fences use that are neither a grammar's file name nor one of
 * filetypes.conf's extensions. */
static const char *const aliases[][2] = {
    {"javascript", "js"},    {"node", "js"},        {"typescript", "ts"},
    {"tsx", "ts"},           {"rust", "rs"},        {"shell", "sh"},
    {"c#", "csharp"},        {"golang", "go"},      {"toml", "ini"},
    {"twig", "html"},        {"jinja", "html"},     {"xhtml", "html"},
    {"apache", "httpd"},     {"apacheconf", "httpd"},
    {"htaccess", "httpd"},   {"patch", "diff"},     {"udiff", "diff"},
    {"objective-c", "objc"}, {"objectivec", "objc"},
    {"postgresql", "sql"},   {"postgres", "sql"},   {"mysql", "sql"},
    {"sqlite", "sql"},       {"powershell", "ps1"}, {"pwsh", "ps1"},
    {"vim", "vimscript"},    {"latex", "tex"},      {"elisp", "lisp"},
    {"emacs-lisp", "lisp"},  {"python3", "python"}, {"py3", "python"},
    {"text", "txt"},         {"plain", "txt"},      {"plaintext", "txt"},
    {"kt", "kotlin"},        {"jsonc", "json"},     {"json5", "json"},
    {"docker", "docker"},    {"console", "console"},
    {"shell-session", "console"}, {"shellsession", "console"},
    {"sh-session", "console"},    {"terminal", "console"},
    {"cli", "console"}, /* Easybook's own books mark terminal sessions so */
};

/* GeSHi's language names (Easybook highlighted with GeSHi, so its books
 * name code as GeSHi does) where highlight calls the language otherwise:
 * every GeSHi 1.0.9 name that is none of highlight's grammar or extension
 * names and has an equivalent grammar (unit_highlight checks the table
 * against php-geshi's language files). GeSHi's dialects of one language
 * (php-brief, html4strict, cpp-qt, oracle11) take the language's grammar. */
static const char *const geshi_names[][2] = {
    {"6502acme", "assembler"},   {"6502kickass", "assembler"},
    {"6502tasm", "assembler"},   {"68000devpac", "assembler"},
    {"abap", "abap4"},           {"actionscript3", "actionscript"},
    {"algol68", "algol"},        {"apt_sources", "conf"},
    {"batch", "bat"},            {"biblatex", "bibtex"},
    {"c_loadrunner", "c"},       {"c_mac", "c"},
    {"c_winapi", "c"},           {"cadlisp", "lisp"},
    {"chapel", "chpl"},          {"coffeescript", "coffee"},
    {"cpp-qt", "c"},             {"cpp-winapi", "c"},
    {"dcpu16", "assembler"},     {"delphi", "pas"},
    {"dos", "bat"},              {"ecmascript", "js"},
    {"fortran", "fortran90"},    {"gettext", "po"},
    {"html4strict", "html"},     {"html5", "html"},
    {"inno", "innosetup"},       {"java5", "java"},
    {"jquery", "js"},            {"klonec", "c"},
    {"klonecpp", "c"},           {"lsl2", "lindenscript"},
    {"m68k", "assembler"},       {"mirc", "msl"},
    {"mmix", "assembler"},       {"modula2", "mod2"},
    {"modula3", "mod3"},         {"mpasm", "assembler"},
    {"newlisp", "lisp"},         {"nimrod", "nim"},
    {"oberon2", "oberon"},       {"ocaml-brief", "ocaml"},
    {"oobas", "vb"},             {"oracle11", "sql"},
    {"oracle8", "sql"},          {"oxygene", "pas"},
    {"pascal", "pas"},           {"phix", "euphoria"},
    {"php-brief", "php"},        {"pic16", "assembler"},
    {"pli", "pl1"},              {"plsql", "sql"},
    {"postscript", "ps"},        {"povray", "pov"},
    {"properties", "ini"},       {"pycon", "python"},
    {"pys60", "python"},         {"racket", "lisp"},
    {"rails", "ruby"},           {"reg", "ini"},
    {"rpmspec", "spec"},         {"rsplus", "r"},
    {"scheme", "lisp"},          {"smarty", "html"},
    {"spark", "ada"},            {"sshconfig", "conf"},
    {"standardml", "sml"},       {"systemverilog", "verilog"},
    {"tclegg", "tcl"},           {"unicon", "icon"},
    {"vbnet", "vb"},             {"vbscript", "vb"},
    {"vhdl", "vhd"},             {"xorg_conf", "conf"},
    {"z80", "assembler"},
};

static void read_filetypes(hl_highlighter *h) {
  h->ft_read = true;
  hl_grammar tmp;
  memset(&tmp, 0, sizeof tmp);
  lua_State *L = lua_open_capped(&tmp, NULL);
  if (!L)
    return;
  if (lua_run_file(&tmp, L, h->filetypes) &&
      lua_getglobal(L, "FileMapping") == LUA_TTABLE) {
    size_t cap = 0;
    for (lua_Integer i = 1; lua_geti(L, -1, i) == LUA_TTABLE; i++) {
      char *lang = field_string(L, "Lang");
      if (lang && lua_getfield(L, -1, "Extensions") == LUA_TTABLE) {
        for (lua_Integer k = 1; lua_geti(L, -1, k) == LUA_TSTRING; k++) {
          oc_grow((void **)&h->ft_ext, &cap, h->nft + 1, sizeof *h->ft_ext);
          h->ft_lang = oc_reallocarray(h->ft_lang, cap, sizeof *h->ft_lang);
          h->ft_ext[h->nft] = oc_strdup(lua_tostring(L, -1));
          h->ft_lang[h->nft++] = oc_strdup(lang);
          lua_pop(L, 1);
        }
        lua_pop(L, 1);
      }
      if (lang)
        lua_pop(L, 1);
      free(lang);
      lua_pop(L, 1);
    }
  }
  lua_close(L);
}

static bool grammar_file_exists(hl_highlighter *h, const char *stem) {
  char *path = oc_malloc(strlen(h->langdefs) + strlen(stem) + 8);
  sprintf(path, "%s/%s.lang", h->langdefs, stem);
  struct stat st;
  bool ok = stat(path, &st) == 0 && S_ISREG(st.st_mode);
  free(path);
  return ok;
}

const char *hl_resolve(hl_highlighter *h, const char *name) {
  /* Only names of letters, digits and + # _ - : a name becomes a file
   * name in the grammars' folder, never a path. */
  char low[40];
  size_t n = strlen(name);
  if (n == 0 || n >= sizeof low)
    return NULL;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)name[i];
    if (!isalnum(c) && c != '+' && c != '#' && c != '_' && c != '-')
      return NULL;
    low[i] = (char)tolower(c);
  }
  low[n] = '\0';
  for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
    if (!strcmp(low, aliases[i][0]))
      return !strcmp(aliases[i][1], "console") || grammar_file_exists(h, aliases[i][1])
                 ? aliases[i][1]
                 : NULL;
  for (size_t i = 0; i < sizeof geshi_names / sizeof geshi_names[0]; i++)
    if (!strcmp(low, geshi_names[i][0]))
      return grammar_file_exists(h, geshi_names[i][1]) ? geshi_names[i][1]
                                                       : NULL;
  for (size_t i = 0; i < h->ngrammars; i++)
    if (!strcmp(h->grammars[i]->name, low))
      return h->grammars[i]->name;
  if (grammar_file_exists(h, low)) {
    hl_grammar *g = grammar_load(h, low);
    return g ? g->name : NULL;
  }
  if (!h->ft_read)
    read_filetypes(h);
  for (size_t i = 0; i < h->nft; i++)
    if (!strcmp(h->ft_ext[i], low))
      return grammar_file_exists(h, h->ft_lang[i]) ? h->ft_lang[i] : NULL;
  return NULL;
}

hl_highlighter *hl_new(const char *data_dir, const char *conf_dir) {
  hl_highlighter *h = oc_calloc(1, sizeof *h);
  const char *d = data_dir ? data_dir : HL_DATA_DIR;
  const char *c = conf_dir ? conf_dir : HL_CONF_DIR;
  h->langdefs = oc_malloc(strlen(d) + 10);
  sprintf(h->langdefs, "%s/langDefs", d);
  h->filetypes = oc_malloc(strlen(c) + 16);
  sprintf(h->filetypes, "%s/filetypes.conf", c);
  h->md = pcre2_match_data_create(64, NULL);
  h->mctx = pcre2_match_context_create(NULL);
  pcre2_set_match_limit(h->mctx, 200000);
  pcre2_set_depth_limit(h->mctx, 2000);
  return h;
}

void hl_free(hl_highlighter *h) {
  if (!h)
    return;
  for (size_t i = 0; i < h->ngrammars; i++)
    grammar_free(h->grammars[i]);
  for (size_t i = 0; i < h->nft; i++) {
    free(h->ft_ext[i]);
    free(h->ft_lang[i]);
  }
  free(h->ft_ext);
  free(h->ft_lang);
  pcre2_match_data_free(h->md);
  pcre2_match_context_free(h->mctx);
  free(h->langdefs);
  free(h->filetypes);
  free(h);
}

/* ---- one block ------------------------------------------------------ */

typedef struct tok {
  int state;
  size_t start, len;
  int kw;      /* keyword group, 0 when none */
  int rule;    /* the rule that matched, -1 for a lone character */
  bool hooked; /* the hook decided the state */
} tok;

typedef struct hl_run {
  hl_highlighter *h;
  const char *code;
  size_t len;
  size_t line, line_end; /* the current line: [line, line_end) */
  size_t pos;
  /* matches of the current line, by offset from its start */
  int *claim;
  size_t *claim_len;
  size_t claim_cap;
  /* grammars: the stack of nested ones, each with the rule that opened it */
  hl_grammar *stack[MAX_NESTING];
  const hl_rule *opener[MAX_NESTING];
  int depth;
  bool skip_nested;          /* no nested section opens again on this line */
  hl_grammar *pending;       /* a nested section starts at pending_at */
  const hl_rule *pending_rule;
  size_t pending_at;
  kw_map added;              /* AddKeyword during this block */
  /* what PCRE2 reads: a copy with zeros after it (its JIT may load a few
     bytes past the end, which must be initialised) */
  char *scratch;
  size_t scratch_cap;
  /* output */
  oc_sb *out;
  int cls;                   /* the open span's class, C_STD for none */
  bool diff;                 /* wrap lines as diff lines */
  bool line_open;
} hl_run;

static void run_add_keyword(hl_run *r, const char *w, int group) {
  kw_add(&r->added, w, group);
}

static hl_grammar *cur(hl_run *r) { return r->stack[r->depth]; }

#define SCRATCH_PAD 64

static const char *padded(hl_run *r, const char *s, size_t n) {
  if (n + SCRATCH_PAD > r->scratch_cap) {
    r->scratch_cap = n + SCRATCH_PAD + 256;
    free(r->scratch);
    r->scratch = oc_malloc(r->scratch_cap);
  }
  memcpy(r->scratch, s, n);
  memset(r->scratch + n, 0, SCRATCH_PAD);
  return r->scratch;
}

/* The rules of the current grammar, with the end of the nested section
 * first, are run over the current line. */
static void match_line(hl_run *r) {
  size_t n = r->line_end - r->line;
  if (n + 1 > r->claim_cap) {
    r->claim_cap = n + 64;
    r->claim = oc_reallocarray(r->claim, r->claim_cap, sizeof *r->claim);
    r->claim_len =
        oc_reallocarray(r->claim_len, r->claim_cap, sizeof *r->claim_len);
  }
  for (size_t i = 0; i <= n; i++)
    r->claim[i] = -2;
  hl_grammar *g = cur(r);
  const char *subject = padded(r, r->code + r->line, n);
  pcre2_match_data *md = r->h->md;
  for (int k = r->depth > 0 ? -1 : 0; k < (int)g->nrules; k++) {
    const pcre2_code *re;
    int group;
    if (k < 0) {
      re = r->opener[r->depth]->end;
      group = -1;
    } else {
      if (g->rules[k].state == S_EMB_BEGIN &&
          (r->skip_nested || r->depth + 1 >= MAX_NESTING))
        continue;
      re = g->rules[k].re;
      group = g->rules[k].group;
    }
    uint32_t ncap = 0;
    if (k < 0)
      pcre2_pattern_info(re, PCRE2_INFO_CAPTURECOUNT, &ncap);
    else
      ncap = g->rules[k].ncap;
    int gi = group < 0 ? (int)ncap : group;
    if (gi > (int)ncap)
      continue;
    size_t off = 0;
    while (off <= n) {
      int rc = pcre2_match(re, (PCRE2_SPTR)subject, n, off, 0, md,
                           r->h->mctx);
      if (rc < 0)
        break;
      PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
      if ((uint32_t)gi < pcre2_get_ovector_count(md) &&
          ov[2 * gi] != PCRE2_UNSET && ov[2 * gi + 1] > ov[2 * gi]) {
        size_t s = ov[2 * gi];
        if (r->claim[s] == -2) {
          r->claim[s] = k;
          r->claim_len[s] = ov[2 * gi + 1] - s;
        }
      }
      size_t next = ov[1];
      if (next <= off || ov[1] == ov[0])
        next = (ov[1] > off ? ov[1] : off) +
               (ov[1] < n ? utf8_len(subject + ov[1], n - ov[1]) : 1);
      off = next;
    }
  }
}

static void start_line(hl_run *r, size_t at) {
  r->line = at;
  const char *nl = memchr(r->code + at, '\n', r->len - at);
  r->line_end = nl ? (size_t)(nl - r->code) : r->len;
  r->pos = at;
  r->skip_nested = false;
  match_line(r);
}

/* Whether the whole token equals a match of rule k. */
static bool full_match(hl_run *r, const hl_rule *rule, const char *s,
                       size_t n) {
  s = padded(r, s, n);
  int rc = pcre2_match(rule->re, (PCRE2_SPTR)s, n, 0, PCRE2_ANCHORED |
                       PCRE2_ENDANCHORED, r->h->md, r->h->mctx);
  return rc >= 0;
}

/* The first rule of state `state` whose expression matches the token
 * whole, or -1 (highlight's getOpenDelimiterID). */
static int delimiter_rule(hl_run *r, const tok *t, int state) {
  hl_grammar *g = cur(r);
  for (size_t k = 0; k < g->nrules; k++)
    if (g->rules[k].state == state &&
        full_match(r, &g->rules[k], r->code + t->start, t->len))
      return (int)k;
  return -1;
}

/* Whether a closing rule of state `state` matches the token and closes
 * the opening rule `open`. */
static bool closes(hl_run *r, const tok *t, int state, int open) {
  hl_grammar *g = cur(r);
  for (size_t k = 0; k < g->nrules; k++)
    if (g->rules[k].state == state && g->rules[k].pair == open &&
        full_match(r, &g->rules[k], r->code + t->start, t->len))
      return true;
  return false;
}

/* The hook's word on a token's state. */
static void validate(hl_run *r, tok *t, int old_state) {
  hl_grammar *g = cur(r);
  t->hooked = false;
  if (g->hook == LUA_NOREF)
    return;
  lua_State *L = g->L;
  lua_rawgeti(L, LUA_REGISTRYINDEX, g->hook);
  lua_pushinteger(L, old_state);
  lua_pushinteger(L, t->state);
  lua_pushlstring(L, r->code + t->start, t->len);
  lua_pushinteger(L, t->kw);
  g->ticks = CALL_TICKS;
  g->run = r;
  g->dirty = true;
  int rc = lua_pcall(L, 4, 1, 0);
  g->run = NULL;
  if (rc != LUA_OK) {
    lua_pop(L, 1);
    return;
  }
  if (lua_type(L, -1) == LUA_TNUMBER) {
    lua_Integer s = lua_tointeger(L, -1);
    t->hooked = true;
    if (s == S_REJECT) {
      t->len = utf8_len(r->code + t->start, t->len);
      t->state = old_state;
    } else if (s >= 0 && s <= S_LAST) {
      t->state = (int)s;
      /* a keyword the hook made, of no group: the first group's */
      if (s == S_KW && !t->kw)
        t->kw = 1;
    }
  }
  lua_pop(L, 1);
}

/* The token at r->pos as seen from state old_state (not taken). */
static void peek(hl_run *r, int old_state, tok *t) {
  t->start = r->pos;
  t->len = 0;
  t->kw = 0;
  t->rule = -1;
  t->hooked = false;
  if (r->pos >= r->line_end) {
    t->state = r->line_end >= r->len ? S_EOF : S_EOL;
    return;
  }
  char c = r->code[r->pos];
  if (c == ' ' || c == '\t') {
    t->state = S_WS;
    t->len = 1;
    return;
  }
  /* The nested grammar takes over after its opening delimiter. */
  if (r->pending && r->pos >= r->pending_at) {
    r->depth++;
    r->stack[r->depth] = r->pending;
    r->opener[r->depth] = r->pending_rule;
    r->pending = NULL;
    match_line(r);
  }
  hl_grammar *g = cur(r);
  size_t off = r->pos - r->line;
  int k = r->claim[off];
  if (k == -2) {
    t->state = S_STD;
    t->len = utf8_len(r->code + r->pos, r->line_end - r->pos);
    return;
  }
  t->len = r->claim_len[off];
  if (r->pos + t->len > r->line_end)
    t->len = r->line_end - r->pos;
  t->rule = k;
  if (k < 0) {
    t->state = S_EMB_END;
  } else if (g->rules[k].state == S_EMB_BEGIN) {
    /* the delimiter itself is the host's: match again without nested
       sections, and start the nested grammar after it */
    hl_grammar *nested = grammar_load(r->h, g->rules[k].nested);
    r->skip_nested = true;
    if (nested && !nested->failed) {
      r->pending = nested;
      r->pending_rule = &g->rules[k];
      r->pending_at = r->pos + t->len;
    }
    match_line(r);
    peek(r, old_state, t);
    return;
  } else if (g->rules[k].state == S_ID || g->rules[k].state == S_KW) {
    char buf[256];
    int group = 0;
    if (t->len < sizeof buf) {
      for (size_t i = 0; i < t->len; i++) {
        char ch = r->code[t->start + i];
        buf[i] = g->ignore_case ? (char)tolower((unsigned char)ch) : ch;
      }
      buf[t->len] = '\0';
      group = kw_get(&g->kw, buf);
      if (!group)
        group = kw_get(&r->added, buf);
    }
    if (!group && g->rules[k].state == S_KW)
      group = g->rules[k].kw;
    t->kw = group;
    t->state = group ? S_KW : S_STD;
  } else {
    t->state = g->rules[k].state;
  }
  validate(r, t, old_state);
}

/* ---- output --------------------------------------------------------- */

static const char *diff_line_class(const char *s, size_t n) {
  if (n >= 3 && (!memcmp(s, "+++", 3) || !memcmp(s, "---", 3)))
    return "hl-line hl-file";
  if (n && (s[0] == '+' || s[0] == '>'))
    return "hl-line hl-add";
  if (n && (s[0] == '-' || s[0] == '<'))
    return "hl-line hl-del";
  if (n >= 2 && !memcmp(s, "@@", 2))
    return "hl-line hl-hunk";
  if (n && s[0] >= '0' && s[0] <= '9')
    return "hl-line hl-hunk";
  return NULL;
}

static void close_span(hl_run *r) {
  if (r->cls != C_STD)
    oc_sb_adds(r->out, "</span>");
  r->cls = C_STD;
}

static void line_begin(hl_run *r) {
  if (r->line_open || !r->diff)
    return;
  r->line_open = true;
  const char *cls =
      diff_line_class(r->code + r->line, r->line_end - r->line);
  oc_sb_adds(r->out, "<span class=\"");
  oc_sb_adds(r->out, cls ? cls : "hl-line");
  oc_sb_adds(r->out, "\">");
}

static void emit(hl_run *r, int cls, size_t start, size_t len) {
  line_begin(r);
  if (cls != r->cls) {
    close_span(r);
    if (cls != C_STD) {
      oc_sb_adds(r->out, "<span class=\"");
      oc_sb_adds(r->out, class_names[cls]);
      oc_sb_adds(r->out, "\">");
    }
    r->cls = cls;
  }
  add_escaped(r->out, r->code + start, len);
}

/* Whitespace keeps the open span. */
static void emit_ws(hl_run *r, size_t start, size_t len) {
  line_begin(r);
  oc_sb_add(r->out, r->code + start, len);
}

static void emit_newline(hl_run *r) {
  close_span(r);
  if (r->line_open)
    oc_sb_adds(r->out, "</span>");
  r->line_open = false;
  oc_sb_addc(r->out, '\n');
}

/* Takes the token: moves past it, to the next line after an EOL. */
static void take(hl_run *r, const tok *t) {
  if (t->state == S_EOL) {
    emit_newline(r);
    start_line(r, r->line_end + 1);
    return;
  }
  r->pos = t->start + t->len;
}

static void take_emit(hl_run *r, const tok *t, int cls) {
  if (t->state == S_WS)
    emit_ws(r, t->start, t->len);
  else
    emit(r, cls, t->start, t->len);
  take(r, t);
}

static int kw_class(int group) {
  return group >= 1 && group <= MAX_KW_GROUP ? C_KW + group - 1 : C_STD;
}

/* ---- the states ----------------------------------------------------- */

/* The end of the block (1) or of the line, taken (0), ends a run of
 * tokens; -1 for another token. */
static int line_or_block_end(hl_run *r, tok *t) {
  if (t->state == S_EOF)
    return 1;
  if (t->state != S_EOL)
    return -1;
  take(r, t);
  return 0;
}

/* A run of tokens of one state (number, operator, escape, interpolation):
 * it ends at a line's end or at a token of another state, which is left
 * for the state around it. */
static bool st_run(hl_run *r, tok *t, int state, int cls) {
  take_emit(r, t, cls);
  for (;;) {
    peek(r, state, t);
    int end = line_or_block_end(r, t);
    if (end >= 0)
      return end;
    if (t->state != S_WS && t->state != state)
      return false;
    take_emit(r, t, cls);
  }
}

static bool st_keyword(hl_run *r, tok *t) {
  int group = t->kw, cls = kw_class(group);
  take_emit(r, t, cls);
  for (;;) {
    peek(r, S_KW, t);
    int end = line_or_block_end(r, t);
    if (end >= 0)
      return end;
    if (t->state == S_WS) {
      take_emit(r, t, cls);
      continue;
    }
    if (t->state != S_KW || t->kw != group)
      return false;
    take_emit(r, t, cls);
  }
}

static bool st_block_comment(hl_run *r, tok *t) {
  int open = t->rule >= 0 ? delimiter_rule(r, t, S_COM) : -1;
  int depth = 1;
  take_emit(r, t, C_COM);
  for (;;) {
    peek(r, S_COM, t);
    switch (t->state) {
    case S_EOF:
      return true;
    case S_EOL:
      take(r, t);
      continue;
    case S_COM:
    case S_COM_END: {
      if (t->state == S_COM) {
        if (cur(r)->nested_comments)
          depth++;
        /* distinct delimiters: an opening; the same: it may close */
        int k = delimiter_rule(r, t, S_COM);
        if (k >= 0 && cur(r)->rules[k].distinct)
          break;
      }
      if (closes(r, t, S_COM_END, open) && --depth == 0) {
        take_emit(r, t, C_COM);
        return false;
      }
      break;
    }
    default:
      break;
    }
    take_emit(r, t, C_COM);
  }
}

static bool st_line_comment(hl_run *r, tok *t) {
  take_emit(r, t, C_SLC);
  for (;;) {
    peek(r, S_SLC, t);
    int end = line_or_block_end(r, t);
    if (end >= 0)
      return end;
    take_emit(r, t, C_SLC);
  }
}

static bool st_string(hl_run *r, tok *t, int around) {
  int state = around == S_PPC ? S_PPS : S_STR;
  int cls = around == S_PPC ? C_PPS : C_STR;
  int open = delimiter_rule(r, t, state);
  size_t open_start = t->start, open_len = t->len;
  bool raw = open >= 0 && cur(r)->rules[open].raw;
  if (t->start > r->line && cur(r)->raw_prefix &&
      r->code[t->start - 1] == cur(r)->raw_prefix)
    raw = true;
  take_emit(r, t, cls);
  for (;;) {
    peek(r, state, t);
    bool end = false;
    switch (t->state) {
    case S_EOF:
      return true;
    case S_EOL:
      take(r, t);
      continue;
    case S_STR_END:
      if (t->hooked || closes(r, t, S_STR_END, open))
        end = !cur(r)->equal_length || t->len == open_len;
      break;
    case S_STR: {
      int k = delimiter_rule(r, t, S_STR);
      end = k >= 0 && cur(r)->rules[k].distinct && t->len == open_len &&
            !memcmp(r->code + t->start, r->code + open_start, open_len);
      break;
    }
    case S_ESC:
      if (!raw) {
        if (st_run(r, t, S_ESC, C_ESC))
          return true;
        continue;
      }
      end = t->len > 1 && r->code[t->start + 1] == r->code[open_start];
      break;
    case S_IPL:
      if (st_run(r, t, S_IPL, C_IPL))
        return true;
      continue;
    default:
      break;
    }
    take_emit(r, t, cls);
    if (end)
      return false;
  }
}

static bool st_directive(hl_run *r, tok *t) {
  take_emit(r, t, C_PPC);
  for (;;) {
    peek(r, S_PPC, t);
    switch (t->state) {
    case S_EOF:
      return true;
    case S_PPC_END:
      take_emit(r, t, C_PPC);
      return false;
    case S_EOL: {
      char last = r->line_end > r->line ? r->code[r->line_end - 1] : 0;
      take(r, t);
      if (!cur(r)->continuation || last != cur(r)->continuation)
        return false;
      continue;
    }
    case S_COM:
      if (st_block_comment(r, t))
        return true;
      continue;
    case S_SLC:
      return st_line_comment(r, t);
    case S_STR:
      if (st_string(r, t, S_PPC))
        return true;
      continue;
    default:
      take_emit(r, t, C_PPC);
    }
  }
}

/* The end of a nested section: back to the grammar around it. */
static bool st_nested_end(hl_run *r, tok *t) {
  r->depth--;
  r->skip_nested = true;
  emit(r, C_KW, t->start, t->len);
  take(r, t);
  match_line(r);
  for (;;) {
    peek(r, S_EMB_END, t);
    int end = line_or_block_end(r, t);
    if (end >= 0)
      return end;
    if (t->state != S_WS)
      return false;
    take_emit(r, t, C_KW);
  }
}

static void st_root(hl_run *r) {
  for (;;) {
    tok t;
    peek(r, S_STD, &t);
    bool eof = false;
    switch (t.state) {
    case S_EOF:
      return;
    case S_EOL:
    case S_WS:
      take_emit(r, &t, C_STD);
      break;
    case S_KW:
      eof = st_keyword(r, &t);
      break;
    case S_NUM:
      eof = st_run(r, &t, S_NUM, C_NUM);
      break;
    case S_COM:
      eof = st_block_comment(r, &t);
      break;
    case S_SLC:
      eof = st_line_comment(r, &t);
      break;
    case S_STR:
      eof = st_string(r, &t, S_STD);
      break;
    case S_PPC:
      eof = st_directive(r, &t);
      break;
    case S_ESC:
      eof = st_run(r, &t, S_ESC, C_ESC);
      break;
    case S_OPT:
      eof = st_run(r, &t, S_OPT, C_OPT);
      break;
    case S_EMB_END:
      eof = r->depth > 0 ? st_nested_end(r, &t) : (take_emit(r, &t, C_STD), false);
      break;
    default:
      take_emit(r, &t, C_STD);
      break;
    }
    if (eof)
      return;
  }
}

/* Highlights code[0..len) with grammar g into out. */
static void run_grammar(hl_highlighter *h, hl_grammar *g, const char *code,
                        size_t len, bool diff, oc_sb *out) {
  hl_run r;
  memset(&r, 0, sizeof r);
  r.h = h;
  r.code = code;
  r.len = len;
  r.stack[0] = g;
  r.out = out;
  r.cls = C_STD;
  r.diff = diff;
  for (size_t i = 0; i < h->ngrammars; i++)
    if (h->grammars[i]->dirty) {
      restore_globals(h->grammars[i]);
      h->grammars[i]->dirty = false;
    }
  start_line(&r, 0);
  st_root(&r);
  close_span(&r);
  if (r.line_open)
    oc_sb_adds(out, "</span>");
  free(r.claim);
  free(r.claim_len);
  free(r.scratch);
  kw_clear(&r.added);
}

/* ---- console sessions ----------------------------------------------- */

/* The length of a prompt at the start of s (with its space), or 0. */
static size_t prompt_len(const char *s, size_t n) {
  size_t i = 0;
  if (n >= 2 && s[0] == 'P' && s[1] == 'S') {
    const char *gt = memchr(s, '>', n);
    if (gt && (size_t)(gt - s) < 80 && (size_t)(gt - s) + 1 < n &&
        gt[1] == ' ')
      return (size_t)(gt - s) + 2;
    return 0;
  }
  /* user@host:dir$ , or a bare $ # % > */
  while (i < n && i < 80 && s[i] != ' ' && s[i] != '$' && s[i] != '#' &&
         s[i] != '%' && s[i] != '>')
    i++;
  if (i < n && (s[i] == '$' || s[i] == '#' || s[i] == '%' || s[i] == '>') &&
      i + 1 < n && s[i + 1] == ' ' && (i == 0 || memchr(s, '@', i) ||
                                       memchr(s, ':', i)))
    return i + 2;
  return 0;
}

static void run_console(hl_highlighter *h, const char *code, size_t len,
                        oc_sb *out) {
  hl_grammar *sh = grammar_load(h, "sh");
  size_t at = 0;
  while (at < len) {
    const char *nl = memchr(code + at, '\n', len - at);
    size_t end = nl ? (size_t)(nl - code) : len;
    size_t p = prompt_len(code + at, end - at);
    if (!p) {
      if (end > at) {
        oc_sb_adds(out, "<span class=\"hl-out\">");
        add_escaped(out, code + at, end - at);
        oc_sb_adds(out, "</span>");
      }
    } else {
      oc_sb_adds(out, "<span class=\"hl-prompt\">");
      add_escaped(out, code + at, p);
      oc_sb_adds(out, "</span>");
      /* the command, with the lines a trailing backslash continues */
      size_t cmd = at + p, cend = end;
      while (cend < len && cend > cmd && code[cend - 1] == '\\') {
        const char *n2 = memchr(code + cend + 1, '\n', len - cend - 1);
        cend = n2 ? (size_t)(n2 - code) : len;
      }
      if (sh && !sh->failed)
        run_grammar(h, sh, code + cmd, cend - cmd, false, out);
      else
        add_escaped(out, code + cmd, cend - cmd);
      end = cend;
    }
    if (end < len)
      oc_sb_addc(out, '\n');
    at = end + 1;
  }
}

bool hl_html(hl_highlighter *h, const char *lang, const char *code, size_t len,
             oc_sb *out, const char **why) {
  const char *stem = hl_resolve(h, lang);
  if (why)
    *why = "no grammar of that name is installed";
  if (!stem)
    return false;
  if (len > HL_MAX_BYTES) {
    if (why)
      *why = "the block is too large to highlight";
    return false;
  }
  for (size_t at = 0; at < len;) {
    const char *nl = memchr(code + at, '\n', len - at);
    size_t end = nl ? (size_t)(nl - code) : len;
    if (end - at > HL_MAX_LINE) {
      if (why)
        *why = "a line is too long to highlight";
      return false;
    }
    at = end + 1;
  }
  if (!strcmp(stem, "console")) {
    run_console(h, code, len, out);
    return true;
  }
  hl_grammar *g = grammar_load(h, stem);
  if (!g || g->failed) {
    if (why) {
      snprintf(h->why, sizeof h->why, "the grammar %s.lang %s", stem,
               g && g->why ? g->why : "cannot be read");
      *why = h->why;
    }
    return false;
  }
  run_grammar(h, g, code, len, !strcmp(stem, "diff"), out);
  return true;
}
