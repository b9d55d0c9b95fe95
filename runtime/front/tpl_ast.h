/* The template AST: what the re2c lexer and bison parser build, what the
 * checker resolves and annotates, and what both back ends (the interpreter
 * in runtime/ and the C generator in compiler/) walk.
 *
 * Ownership: every node, string and array of a parsed template lives in the
 * oc_arena given to tpl_parse and dies with it. Nodes carry the line and
 * column of the token that starts them (line, col: for `a + b` the `a`).
 * node->loc is where the node's own run-time errors point: operators at the
 * operator, a.b at `b`, a[k] at `k`, filters, functions and tests at their
 * name, macro calls at the start of the call, and INCLUDE, EMBED, IMPORT,
 * include() and source() at the start of their template-name expression
 * (pass &n->loc, not &n->a->loc, for "template not found"). Every node has
 * loc.file = the template name.
 *
 * After the checker no node has an unresolved name: filters, functions and
 * tests carry their callable, macro calls their import slot, and nodes may
 * be shared between two places of the tree (a ?: b escaped, `??` unwrapped,
 * an embed's parent expression), so walkers must not mutate it. */
#ifndef OCTAVO_TPL_AST_H
#define OCTAVO_TPL_AST_H

#include "tpl_rt.h"

typedef enum tpl_node_kind {
  /* ---- statements ---- */
  TPL_N_BODY,      /* list: kids */
  TPL_N_TEXT,      /* value: the text (a TPL_STR, not NUL-terminated) */
  TPL_N_PRINT,     /* a: expression (after the checker: wrapped in ESCAPE) */
  TPL_N_IF,        /* kids: alternating cond, body...; c: else body or NULL */
  TPL_N_FOR,       /* name: value var; name2: key var, `_key` when not
                      named (Twig binds it); a: seq; b: inline `if`
                      condition or NULL (Twig 1); c: body; d: else body or
                      NULL; n: 1 when `loop` must be bound (Twig's optimizer:
                      `loop` used, a block or an include without `only` in
                      the loop...), 0 when it may be skipped */
  TPL_N_SET,       /* kids: targets (NAME nodes) then values; n = count */
  TPL_N_SET_CAPTURE, /* name; a: body */
  TPL_N_BLOCK_REF, /* name: a block displayed here (def in template blocks);
                      a child keeps none outside captures */
  TPL_N_INCLUDE,   /* a: name expr; b: with expr or NULL; flags ONLY,
                      IGNORE_MISSING */
  TPL_N_EMBED,     /* a: name expr; b: with expr or NULL; index: embed index;
                      flags */
  TPL_N_IMPORT,    /* a: template expr (NULL for _self); index: slot; both
                      `import ... as x` and `from ... import` (calls were
                      resolved statically to the slot) */
  TPL_N_APPLY,     /* a: filter chain expr whose innermost input is a
                      TPL_N_CAPTURED placeholder (already autoescaped like a
                      print); b: body. Also Twig 1's spaceless and filter */
  TPL_N_AUTOESCAPE, /* index: tpl_escape strategy; a: body */
  TPL_N_WITH,      /* a: vars expr or NULL; b: body; flags ONLY */
  TPL_N_DO,        /* a: expr (also `deprecated`: evaluated, no output) */
  TPL_N_EXTENDS,   /* parser only: the checker moves a into
                      tpl_ast_template.parent and drops the node */

  /* ---- expressions ---- */
  TPL_N_CONST,   /* value */
  TPL_N_NAME,    /* name: a variable */
  TPL_N_ARRAY,   /* kids: items */
  TPL_N_HASH,    /* kids: key, value, key, value... */
  TPL_N_GETATTR, /* a: object; b: key expr (CONST for a.b); index:
                    tpl_attr_kind; kids: method args; name: the key when it
                    is a constant string (s NULL otherwise) */
  TPL_N_BINARY,  /* index: tpl_binop; a, b */
  TPL_N_UNARY,   /* index: tpl_unop; a */
  TPL_N_COND,    /* a ? b : c (c NULL → ''), a ?: c when b is NULL (a is
                    evaluated once) */
  TPL_N_NULLCOALESCE, /* a ?? b (a: a node DEFINED accepts) */
  TPL_N_FILTER,  /* name; callable; a: input; kids: args (normalised to
                    positional by the checker; optional ones skipped by
                    named arguments → NULL kids, to pass as null, so
                    implementations must read null as "not given"); nkids
                    stops at the last given one. `raw` is gone (identity),
                    `default` is DEFAULT, a literal `escape` is ESCAPE */
  TPL_N_FUNCTION, /* name; callable; kids: args, as for filters */
  TPL_N_TEST,    /* name; callable; a: tested; kids: args; flags NEGATE
                    for `is not` ("same as", "divisible by" are names) */
  TPL_N_DEFINED, /* a: NAME/GETATTR/BLOCK_FUNC/MACRO_CALL/FUNCTION
                    constant probed; flags NEGATE (`is not defined`). A
                    GETATTR chain is probed without strict errors all the
                    way down (Twig's ignore_strict_check) */
  TPL_N_DEFAULT, /* a: value (probed for definedness when a NAME or
                    GETATTR, else just evaluated); b: default or NULL ('');
                    the default also replaces empty values (Twig) */
  TPL_N_SLICE,   /* a[b:c]; b: start (CONST 0 for a[:c]); c: length or
                    NULL */
  TPL_N_MACRO_CALL, /* name: macro; index: import slot (-1 for _self);
                       kids: positional args, then named; n: positional
                       count; names: names of the named args */
  TPL_N_ARROW,   /* names: params (nnames); a: body expr */
  TPL_N_PARENT,  /* parent(); name: the enclosing block */
  TPL_N_BLOCK_FUNC, /* block(a[, b]); b NULL when not given */
  TPL_N_ESCAPE,  /* a: value; index: tpl_escape; flags AUTO (skip safe):
                    autoescaping, and the pre-escaped input of nl2br and
                    spaceless; without AUTO: an explicit |e (Twig escapes
                    even safe strings then) */
  TPL_N_CAPTURED /* the body output inside an apply chain */
} tpl_node_kind;

typedef enum tpl_binop {
  TPL_OP_OR,
  TPL_OP_AND,
  TPL_OP_BOR,
  TPL_OP_BXOR,
  TPL_OP_BAND,
  TPL_OP_EQ,
  TPL_OP_NE,
  TPL_OP_CMP, /* <=> */
  TPL_OP_LT,
  TPL_OP_GT,
  TPL_OP_LE,
  TPL_OP_GE,
  TPL_OP_NOT_IN,
  TPL_OP_IN,
  TPL_OP_MATCHES,
  TPL_OP_STARTS_WITH,
  TPL_OP_ENDS_WITH,
  TPL_OP_RANGE,
  TPL_OP_ADD,
  TPL_OP_SUB,
  TPL_OP_CONCAT,
  TPL_OP_MUL,
  TPL_OP_DIV,
  TPL_OP_FLOORDIV,
  TPL_OP_MOD,
  TPL_OP_POW,
  /* Twig 3.5's `has some` / `has every` (a sequence and an arrow function:
   * whether some / every item passes it). */
  TPL_OP_HAS_SOME,
  TPL_OP_HAS_EVERY
} tpl_binop;

typedef enum tpl_unop { TPL_OP_NOT, TPL_OP_NEG, TPL_OP_POS } tpl_unop;

enum {
  TPL_F_ONLY = 1,
  TPL_F_IGNORE_MISSING = 2,
  TPL_F_NEGATE = 4,
  TPL_F_AUTO = 8,      /* ESCAPE inserted by autoescaping */
  TPL_F_TRIM_LEFT = 16 /* lexer bookkeeping */
};

typedef struct tpl_node tpl_node;
struct tpl_node {
  uint8_t kind;
  uint8_t flags;
  int32_t index;
  uint32_t line, col;
  tpl_loc loc; /* file, line, col: what runtime errors report */
  tpl_name name;
  tpl_name name2;
  tpl_value value; /* TPL_N_CONST; TPL_N_TEXT keeps its text here */
  const tpl_callable *callable;
  tpl_node *a, *b, *c, *d;
  size_t n;
  size_t nkids;
  tpl_node **kids;
  size_t nnames;
  tpl_name *names;
};

typedef struct tpl_ast_block {
  tpl_name name;
  tpl_node *body;
  tpl_loc loc;
} tpl_ast_block;

typedef struct tpl_ast_macro {
  tpl_name name;
  size_t nparams;
  tpl_name *params;
  tpl_node **defaults; /* per param, NULL when none */
  tpl_node *body;
  tpl_loc loc;
} tpl_ast_macro;

typedef struct tpl_ast_template tpl_ast_template;
struct tpl_ast_template {
  const char *name;
  const char *source;
  size_t source_len;
  tpl_escape autoescape;
  tpl_node *body;   /* for a child: only the top-level code outside blocks */
  tpl_node *parent; /* extends expression or NULL; an embed's is the name
                       expression of its EMBED node */
  size_t nblocks;
  tpl_ast_block *blocks;
  size_t nmacros;
  tpl_ast_macro *macros;
  size_t nuses;
  tpl_use *uses;
  size_t nimports; /* import slots used by this template */
  size_t nembeds;
  tpl_ast_template **embeds;
};

/* Everything a parse needs to know about the outside world. */
typedef struct tpl_parse_opts {
  /* Whether a template named by a string literal exists (include, extends,
   * embed, import, from, use): missing ones are compile-time errors unless
   * `ignore missing`. NULL: do not check. For `from ... import` and `use`,
   * the checker also needs the template itself: load returns its AST or
   * NULL when it does not exist. */
  const tpl_ast_template *(*load)(void *data, const char *name, size_t len);
  void *load_data;
  tpl_escape autoescape; /* the template's default strategy */
} tpl_parse_opts;

/* Parses and checks one template. Errors are appended to diags (up to
 * max_diags; *ndiags counts them all). Returns NULL if there were errors. */
tpl_ast_template *tpl_parse(oc_arena *arena, const char *name,
                            const char *source, size_t len,
                            const tpl_parse_opts *opts, tpl_diag *diags,
                            size_t max_diags, size_t *ndiags);

/* Debugging and tests: an expression or statement as an S-expression
 * (malloc'd; "(+ 1 (* 2 3))"), and a whole template on f. */
char *tpl_ast_sexpr(const tpl_node *n);
void tpl_ast_dump(FILE *f, const tpl_ast_template *t);

#endif
