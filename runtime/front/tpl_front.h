/* Private to the template front end: the raw tokens the re2c lexer makes,
 * the parse context shared by lexer, bison parser and checker, and the
 * internal node kinds that exist only between parser and checker. */
#ifndef OCTAVO_TPL_FRONT_H
#define OCTAVO_TPL_FRONT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "oc_alloc.h"
#include "tpl_ast.h"

/* ---- raw tokens (Twig's token types, before keyword resolution) ---- */

enum tpl_rtok {
  TPL_T_EOF,
  TPL_T_TEXT,
  TPL_T_VAR_START,   /* {{ */
  TPL_T_VAR_END,     /* }} */
  TPL_T_BLOCK_START, /* {% */
  TPL_T_BLOCK_END,   /* %} */
  TPL_T_NAME,
  TPL_T_NUMBER,
  TPL_T_STRING, /* a whole string, or one literal part of an interpolated one */
  TPL_T_OP,     /* op: enum tpl_rop */
  TPL_T_PUNCT,  /* op: the character */
  TPL_T_ARROW,  /* => */
  TPL_T_DQ_OPEN,      /* a double-quoted string with #{...} starts */
  TPL_T_DQ_CLOSE,     /* ...and ends */
  TPL_T_INTERP_START, /* #{ */
  TPL_T_INTERP_END    /* } closing #{ */
};

enum tpl_rop {
  TPL_R_OR = 1,
  TPL_R_AND,
  TPL_R_BOR,
  TPL_R_BXOR,
  TPL_R_BAND,
  TPL_R_EQ,
  TPL_R_NE,
  TPL_R_CMP,
  TPL_R_LT,
  TPL_R_GT,
  TPL_R_GE,
  TPL_R_LE,
  TPL_R_NOT_IN,
  TPL_R_IN,
  TPL_R_MATCHES,
  TPL_R_STARTS_WITH,
  TPL_R_ENDS_WITH,
  TPL_R_HAS_SOME,
  TPL_R_HAS_EVERY,
  TPL_R_RANGE,
  TPL_R_PLUS,
  TPL_R_MINUS,
  TPL_R_TILDE,
  TPL_R_MUL,
  TPL_R_DIV,
  TPL_R_FLOORDIV,
  TPL_R_MOD,
  TPL_R_IS,
  TPL_R_IS_NOT,
  TPL_R_POW,
  TPL_R_NULLCOAL,
  TPL_R_NOT,
  TPL_R_ASSIGN
};

typedef struct tpl_tok {
  uint8_t type;
  uint8_t op; /* TPL_T_OP: tpl_rop; TPL_T_PUNCT: the character */
  uint32_t line, col;
  uint32_t off, len; /* span in the (normalised) source */
  const char *s;     /* NAME, STRING: the value (arena, NUL-ended); TEXT:
                        the text in the source (not NUL-ended) */
  size_t slen;
  tpl_value num; /* NUMBER */
} tpl_tok;

/* Arena-backed growable array of nodes used while parsing. */
typedef struct tpl_nlist {
  tpl_node **v;
  size_t n, cap;
} tpl_nlist;

/* An argument list while parsing: values plus, per value, the name of a
 * named argument (len 0 for positional ones). */
typedef struct tpl_arglist {
  tpl_nlist vals;
  tpl_name *names;
  size_t ncap;
  bool any_named;
} tpl_arglist;

/* An open tag, for `unclosed "if" tag`. */
typedef struct tpl_open_tag {
  const char *tag;
  uint32_t line, col;
} tpl_open_tag;

typedef struct tpl_pctx {
  oc_arena *arena;
  const char *name;
  const char *src; /* normalised (\r\n, \r → \n), NUL-terminated */
  size_t len;
  const tpl_parse_opts *opts;

  /* diagnostics */
  tpl_diag *diags;
  size_t max_diags, ndiags;

  /* tokens */
  tpl_tok *toks;
  size_t ntoks, tcap;

  /* token layer (yylex) state */
  size_t pos;
  int prev_kind;  /* bison kind of the previous token */
  int tag;        /* bison kind of the current tag, 0 outside tags */
  char *brackets; /* open brackets seen by the token layer */
  size_t nbrackets, bcap;
  const tpl_tok *cur; /* the token last returned */
  bool targets;       /* in the targets of set or for */
  bool lex_failed;

  /* open tags */
  tpl_open_tag *open;
  size_t nopen, ocap;

  tpl_node *root;
} tpl_pctx;

/* Internal node kinds, gone after the checker. */
enum {
  TPL_N__MACRO = 200, /* name; names: params (nnames); kids: defaults (NULL
                         when none); a: body */
  TPL_N__USE          /* a: template expr; names: from, to pairs (nnames) */
};

/* Internal flag bits, in node->flags of parser-made nodes. */
enum {
  TPL_F__DEF = 32,   /* BLOCK_REF: a holds the definition's body */
  TPL_F__FROM = 64,  /* IMPORT: `from` form; kids are NAME nodes (name =
                        macro, name2 = alias) */
  TPL_F__SHORT = 128 /* BLOCK_REF: `{% block n expr %}` */
};

/* ---- shared helpers (tpl_ast.c) ---- */

tpl_node *tpl_node_new(tpl_pctx *P, int kind, uint32_t line, uint32_t col);
tpl_name tpl_mkname(oc_arena *a, const char *s, size_t len);
void tpl_nlist_push(oc_arena *a, tpl_nlist *l, tpl_node *n);
void tpl_node_set_kids(tpl_node *n, const tpl_nlist *l);
void tpl_arglist_push(oc_arena *a, tpl_arglist *l, tpl_node *v,
                      const char *name, size_t len);
/* Records a diagnostic at line:col (1-based) of the template. */
void tpl_perr(tpl_pctx *P, uint32_t line, uint32_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
bool tpl_name_is(const tpl_name *n, const char *s);

/* The lexer: tokenizes P->src into P->toks. false after an error. */
bool tpl_lex(tpl_pctx *P);
/* The bison parser (tpl_parser.y): builds P->root from P->toks. */
int tpl_parse_tokens(tpl_pctx *P);
/* The checker (tpl_check.c): turns P->root into a template. */
tpl_ast_template *tpl_check(tpl_pctx *P);

#endif
