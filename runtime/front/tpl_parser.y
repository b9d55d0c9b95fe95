/* The template grammar (Twig 3.5) with Twig's operator precedence, building
 * the raw AST tpl_check.c resolves; its token layer (yylex) finds tag names,
 * tag keywords, test names, arrows and named arguments by context. */

%define api.pure full
%define api.prefix {tpl_yy}
%define parse.error custom
%define parse.lac full
%locations
%param {tpl_pctx *P}

%code requires {
#include "tpl_front.h"
}

%code provides {
int tpl_yylex(TPL_YYSTYPE *lval, TPL_YYLTYPE *lloc, tpl_pctx *P);
}

%code {
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void tpl_yyerror(TPL_YYLTYPE *loc, tpl_pctx *P, const char *msg);

#define NODE(kind, l) tpl_node_new(P, (kind), (l).first_line, (l).first_column)

/* line/col: where the whole expression starts; loc stays where the node's
 * own run-time errors point (the operator, the attribute, the name). */
static tpl_node *starts_at(tpl_node *n, const tpl_node *first) {
  n->line = first->line;
  n->col = first->col;
  return n;
}

static tpl_node *mk_body(tpl_pctx *P, const tpl_nlist *l, TPL_YYLTYPE loc) {
  tpl_node *b = NODE(TPL_N_BODY, loc);
  tpl_node_set_kids(b, l);
  return b;
}

static tpl_node *mk_bin(tpl_pctx *P, int op, tpl_node *a, tpl_node *b,
                        TPL_YYLTYPE loc) {
  /* Twig compiles a unary operator without parentheses, so PHP rebinds
   * "-2 ** 2" as -(2 ** 2): the only operator that binds tighter in PHP.
   * Mirror that so the result is Twig's. */
  if (op == TPL_OP_POW && a->kind == TPL_N_UNARY) {
    a->a = mk_bin(P, op, a->a, b, loc);
    return a;
  }
  /* `x is not t` is a `not` around the test in Twig, so the same holds:
   * "(x is not t) ** y" is not ((x is t) ** y). */
  if (op == TPL_OP_POW && a->kind == TPL_N_TEST &&
      (a->flags & TPL_F_NEGATE)) {
    a->flags &= ~TPL_F_NEGATE;
    tpl_node *n = starts_at(NODE(TPL_N_UNARY, loc), a);
    n->index = TPL_OP_NOT;
    n->a = mk_bin(P, op, a, b, loc);
    return n;
  }
  tpl_node *n = NODE(TPL_N_BINARY, loc);
  n->index = op;
  n->a = a;
  n->b = b;
  return starts_at(n, a);
}

static tpl_node *mk_un(tpl_pctx *P, int op, tpl_node *a, TPL_YYLTYPE loc) {
  tpl_node *n = NODE(TPL_N_UNARY, loc);
  n->index = op;
  n->a = a;
  return n;
}

static tpl_node *mk_const(tpl_pctx *P, tpl_value v, TPL_YYLTYPE loc) {
  tpl_node *n = NODE(TPL_N_CONST, loc);
  n->value = v;
  return n;
}

static tpl_node *mk_str(tpl_pctx *P, const tpl_tok *t, TPL_YYLTYPE loc) {
  return mk_const(P, tpl_str(t->s, t->slen), loc);
}

static tpl_name tok_name(tpl_pctx *P, const tpl_tok *t) {
  return tpl_mkname(P->arena, t->s, t->slen);
}

/* A variable `set` or `for` assigns: as in Twig, not one of the constants
 * (true, false, none, null in any case). */
static tpl_node *assign_target(tpl_pctx *P, const tpl_tok *t,
                               TPL_YYLTYPE loc) {
  tpl_node *n = tpl_node_new(P, TPL_N_NAME, (uint32_t)loc.first_line,
                             (uint32_t)loc.first_column);
  n->name = tok_name(P, t);
  if (!strcasecmp(t->s, "true") || !strcasecmp(t->s, "false") ||
      !strcasecmp(t->s, "none") || !strcasecmp(t->s, "null"))
    tpl_perr(P, loc.first_line, loc.first_column,
             "you cannot assign a value to \"%s\"", t->s);
  return n;
}

static void set_args(tpl_node *n, tpl_arglist *args) {
  if (!args)
    return;
  tpl_node_set_kids(n, &args->vals);
  if (args->any_named) {
    n->names = args->names;
    n->nnames = args->vals.n;
  }
}

static tpl_node *mk_name_or_const(tpl_pctx *P, const tpl_tok *t,
                                  TPL_YYLTYPE loc) {
  const char *s = t->s;
  if (!strcmp(s, "true") || !strcmp(s, "TRUE"))
    return mk_const(P, tpl_bool(true), loc);
  if (!strcmp(s, "false") || !strcmp(s, "FALSE"))
    return mk_const(P, tpl_bool(false), loc);
  if (!strcmp(s, "null") || !strcmp(s, "NULL") || !strcmp(s, "none") ||
      !strcmp(s, "NONE"))
    return mk_const(P, tpl_null(), loc);
  tpl_node *n = NODE(TPL_N_NAME, loc);
  n->name = tok_name(P, t);
  return n;
}

static void open_tag(tpl_pctx *P, const char *tag, TPL_YYLTYPE loc) {
  OC_GROW(P->open, P->ocap, P->nopen + 1);
  tpl_open_tag *o = &P->open[P->nopen++];
  o->tag = tag;
  o->line = (uint32_t)loc.first_line;
  o->col = (uint32_t)loc.first_column;
}

static void close_tag(tpl_pctx *P) {
  if (P->nopen)
    P->nopen--;
}

static void check_end_name(tpl_pctx *P, const char *what, tpl_node *def,
                           const tpl_tok *end, TPL_YYLTYPE loc) {
  if (end && (end->slen != def->name.len ||
              memcmp(end->s, def->name.s, end->slen) != 0))
    tpl_perr(P, loc.first_line, loc.first_column,
             "expected end%s for %s \"%s\" (but \"%s\" given)", what, what,
             def->name.s, end->s);
}

static bool is_constant(const tpl_node *n) {
  if (!n)
    return true;
  switch (n->kind) {
  case TPL_N_CONST:
    return true;
  case TPL_N_UNARY:
    return n->index != TPL_OP_NOT && is_constant(n->a);
  case TPL_N_ARRAY:
  case TPL_N_HASH:
    for (size_t i = 0; i < n->nkids; i++)
      if (!is_constant(n->kids[i]))
        return false;
    return true;
  default:
    return false;
  }
}

static tpl_node *mk_apply(tpl_pctx *P, tpl_node *chain, tpl_nlist *body,
                          TPL_YYLTYPE loc, TPL_YYLTYPE bloc) {
  tpl_node *n = NODE(TPL_N_APPLY, loc);
  n->a = chain;
  n->b = mk_body(P, body, bloc);
  return n;
}

static bool strategy_by_name(const char *s, size_t n, int *out) {
  tpl_escape e;
  if (!tpl_escape_by_name(s, n, &e))
    return false;
  *out = (int)e;
  return true;
}

static int autoescape_value(tpl_pctx *P, tpl_node *e, TPL_YYLTYPE loc) {
  int st = TPL_ESC_HTML;
  if (e->kind == TPL_N_CONST && e->value.type == TPL_BOOL)
    return e->value.u.b ? TPL_ESC_HTML : TPL_ESC_NONE;
  if (e->kind == TPL_N_CONST && e->value.type == TPL_STR) {
    if (!strategy_by_name(e->value.u.s, e->value.len, &st))
      tpl_perr(P, e->line, e->col, "unknown escaping strategy \"%s\"",
               e->value.u.s);
    return st;
  }
  tpl_perr(P, loc.first_line, loc.first_column,
           "an escaping strategy must be a string or false");
  return st;
}

static tpl_node *mk_capture_filter(tpl_pctx *P, const char *name,
                                   TPL_YYLTYPE loc) {
  tpl_node *f = NODE(TPL_N_FILTER, loc);
  f->name = tpl_mkname(P->arena, name, strlen(name));
  f->a = NODE(TPL_N_CAPTURED, loc);
  return f;
}
}

%union {
  tpl_node *node;
  tpl_nlist list;
  tpl_arglist *args;
  const tpl_tok *tok;
  int ival;
}

%token <tok> TEXT VAR_START VAR_END BLOCK_END
%token <tok> NAME NUMBER STRING DQ_OPEN DQ_CLOSE INTERP_START INTERP_END
%token <tok> ARROW ARROW_PARAM ARROW_LPAREN ARG_NAME TEST_NAME TEST_NAME1
%token <tok> OR AND BOR BXOR BAND EQ NE CMP LT GT GE LE NOT_IN IN MATCHES
%token <tok> STARTS_WITH ENDS_WITH HAS_SOME HAS_EVERY RANGE PLUS MINUS TILDE
%token <tok> MUL DIV FLOORDIV MOD IS IS_NOT POW NULLCOAL NOT ASSIGN
%token <tok> K_AS K_WITH K_ONLY K_IGNORE K_MISSING K_IMPORT K_IF
%token <tok> T_IF T_ELSEIF T_ELSE T_ENDIF T_FOR T_ENDFOR T_SET T_ENDSET
%token <tok> T_BLOCK T_ENDBLOCK T_EXTENDS T_INCLUDE T_EMBED T_ENDEMBED T_USE
%token <tok> T_MACRO T_ENDMACRO T_IMPORT T_FROM T_APPLY T_ENDAPPLY
%token <tok> T_SPACELESS T_ENDSPACELESS T_FILTER T_ENDFILTER T_AUTOESCAPE
%token <tok> T_ENDAUTOESCAPE T_WITH T_ENDWITH T_DO T_FLUSH T_DEPRECATED
%token <tok> T_UNKNOWN
%token <tok> '(' ')' '[' ']' '{' '}' '?' ':' '.' ',' '|'

%right '?' ':'
%left OR
%left AND
%left BOR
%left BXOR
%left BAND
%left EQ NE CMP LT GT GE LE NOT_IN IN MATCHES STARTS_WITH ENDS_WITH HAS_SOME HAS_EVERY
%left RANGE
%left PLUS MINUS
%left TILDE
%precedence NOT
%left MUL DIV FLOORDIV MOD
%precedence IS IS_NOT
%right POW
%right NULLCOAL
%precedence UMINUS

%type <list> body elifs expr_list array_items hash_list hash_items
%type <list> set_targets for_targets use_list from_list mparams mparam_list
%type <list> interp_parts arrow_params
%type <node> stmt tag else_part for_else for_if expr postfix primary string
%type <node> array hash interp_part test test_arg filter_app filter_chain
%type <node> arrow incl_with use_item from_item mparam
%type <args> args arg_list
%type <ival> incl_ignore incl_only
%type <tok> opt_endname

%%

template:
  body { P->root = mk_body(P, &$1, @$); }
;

body:
  %empty { memset(&$$, 0, sizeof $$); }
| body stmt { $$ = $1; if ($2) tpl_nlist_push(P->arena, &$$, $2); }
;

stmt:
  TEXT {
    $$ = NODE(TPL_N_TEXT, @1);
    $$->value = tpl_str($1->s, $1->slen);
  }
| VAR_START expr VAR_END {
    $$ = NODE(TPL_N_PRINT, @1);
    $$->a = $2;
  }
| tag { $$ = $1; }
;

tag:
  T_IF expr BLOCK_END { open_tag(P, "if", @1); } body elifs else_part
  T_ENDIF BLOCK_END {
    close_tag(P);
    $$ = NODE(TPL_N_IF, @1);
    tpl_nlist kids = {0, 0, 0};
    tpl_nlist_push(P->arena, &kids, $2);
    tpl_nlist_push(P->arena, &kids, mk_body(P, &$5, @3));
    for (size_t i = 0; i < $6.n; i++)
      tpl_nlist_push(P->arena, &kids, $6.v[i]);
    tpl_node_set_kids($$, &kids);
    $$->c = $7;
  }
| T_FOR for_targets IN expr for_if BLOCK_END { open_tag(P, "for", @1); }
  body for_else T_ENDFOR BLOCK_END {
    close_tag(P);
    $$ = NODE(TPL_N_FOR, @1);
    if ($2.n > 1) {
      $$->name2 = $2.v[0]->name;
      $$->name = $2.v[1]->name;
    } else {
      /* Twig binds the key to `_key` when it is not named */
      $$->name2 = tpl_mkname(P->arena, "_key", 4);
      $$->name = $2.v[0]->name;
    }
    $$->a = $4;
    $$->b = $5;
    $$->c = mk_body(P, &$8, @6);
    $$->d = $9;
  }
| T_SET set_targets ASSIGN expr_list BLOCK_END {
    if ($2.n != $4.n)
      tpl_perr(P, @1.first_line, @1.first_column,
               "when using set, you must have the same number of variables "
               "and assignments");
    $$ = NODE(TPL_N_SET, @1);
    tpl_nlist kids = $2;
    for (size_t i = 0; i < $4.n; i++)
      tpl_nlist_push(P->arena, &kids, $4.v[i]);
    tpl_node_set_kids($$, &kids);
    $$->n = $2.n;
  }
| T_SET set_targets BLOCK_END { open_tag(P, "set", @1); } body T_ENDSET
  BLOCK_END {
    close_tag(P);
    if ($2.n != 1)
      tpl_perr(P, @1.first_line, @1.first_column,
               "when using set with a block, you cannot have a multi-target");
    $$ = NODE(TPL_N_SET_CAPTURE, @1);
    $$->name = $2.v[0]->name;
    $$->a = mk_body(P, &$5, @3);
  }
| T_BLOCK NAME BLOCK_END { open_tag(P, "block", @1); } body T_ENDBLOCK
  opt_endname BLOCK_END {
    close_tag(P);
    $$ = NODE(TPL_N_BLOCK_REF, @2);
    $$->name = tok_name(P, $2);
    $$->flags = TPL_F__DEF;
    $$->a = mk_body(P, &$5, @3);
    check_end_name(P, "block", $$, $7, @7);
  }
| T_BLOCK NAME expr BLOCK_END {
    $$ = NODE(TPL_N_BLOCK_REF, @2);
    $$->name = tok_name(P, $2);
    $$->flags = TPL_F__DEF | TPL_F__SHORT;
    tpl_node *pr = NODE(TPL_N_PRINT, @3);
    pr->a = $3;
    tpl_nlist l = {0, 0, 0};
    tpl_nlist_push(P->arena, &l, pr);
    $$->a = mk_body(P, &l, @3);
  }
| T_EXTENDS expr BLOCK_END {
    $$ = NODE(TPL_N_EXTENDS, @1);
    $$->a = $2;
  }
| T_INCLUDE expr incl_ignore incl_with incl_only BLOCK_END {
    $$ = NODE(TPL_N_INCLUDE, @1);
    $$->a = $2;
    $$->b = $4;
    $$->flags = (uint8_t)($3 | $5);
  }
| T_EMBED expr incl_ignore incl_with incl_only BLOCK_END
  { open_tag(P, "embed", @1); } body T_ENDEMBED BLOCK_END {
    close_tag(P);
    $$ = NODE(TPL_N_EMBED, @1);
    $$->a = $2;
    $$->b = $4;
    $$->flags = (uint8_t)($3 | $5);
    $$->c = mk_body(P, &$8, @6);
  }
| T_USE expr BLOCK_END {
    $$ = NODE(TPL_N__USE, @1);
    $$->a = $2;
  }
| T_USE expr K_WITH use_list BLOCK_END {
    $$ = NODE(TPL_N__USE, @1);
    $$->a = $2;
    $$->nnames = $4.n * 2;
    $$->names = oc_arena_alloc(P->arena,
                                ($$->nnames ? $$->nnames : 1) * sizeof(tpl_name));
    for (size_t i = 0; i < $4.n; i++) {
      $$->names[2 * i] = $4.v[i]->name;
      $$->names[2 * i + 1] = $4.v[i]->name2;
    }
  }
| T_MACRO NAME '(' mparams ')' BLOCK_END { open_tag(P, "macro", @1); } body
  T_ENDMACRO opt_endname BLOCK_END {
    close_tag(P);
    $$ = NODE(TPL_N__MACRO, @2);
    $$->name = tok_name(P, $2);
    $$->nnames = $4.n;
    $$->names = oc_arena_alloc(P->arena, ($4.n ? $4.n : 1) * sizeof(tpl_name));
    tpl_nlist defs = {0, 0, 0};
    for (size_t i = 0; i < $4.n; i++) {
      $$->names[i] = $4.v[i]->name;
      tpl_nlist_push(P->arena, &defs, $4.v[i]->a);
      if (tpl_name_is(&$4.v[i]->name, "varargs"))
        tpl_perr(P, $4.v[i]->line, $4.v[i]->col,
                 "the argument \"varargs\" in macro \"%s\" cannot be defined "
                 "because the variable \"varargs\" is reserved for arbitrary "
                 "arguments", $$->name.s);
    }
    tpl_node_set_kids($$, &defs);
    $$->a = mk_body(P, &$8, @6);
    check_end_name(P, "macro", $$, $10, @10);
  }
| T_IMPORT expr K_AS NAME BLOCK_END {
    $$ = NODE(TPL_N_IMPORT, @1);
    $$->a = $2;
    $$->name = tok_name(P, $4);
    $$->name2 = $$->name;
  }
| T_FROM expr K_IMPORT from_list BLOCK_END {
    $$ = NODE(TPL_N_IMPORT, @1);
    $$->a = $2;
    $$->flags = TPL_F__FROM;
    tpl_node_set_kids($$, &$4);
  }
| T_APPLY filter_chain BLOCK_END { open_tag(P, "apply", @1); } body
  T_ENDAPPLY BLOCK_END {
    close_tag(P);
    $$ = mk_apply(P, $2, &$5, @1, @3);
  }
| T_FILTER filter_chain BLOCK_END { open_tag(P, "filter", @1); } body
  T_ENDFILTER BLOCK_END {
    close_tag(P);
    $$ = mk_apply(P, $2, &$5, @1, @3);
  }
| T_SPACELESS BLOCK_END { open_tag(P, "spaceless", @1); } body
  T_ENDSPACELESS BLOCK_END {
    close_tag(P);
    $$ = mk_apply(P, mk_capture_filter(P, "spaceless", @1), &$4, @1, @2);
  }
| T_AUTOESCAPE BLOCK_END { open_tag(P, "autoescape", @1); } body
  T_ENDAUTOESCAPE BLOCK_END {
    close_tag(P);
    $$ = NODE(TPL_N_AUTOESCAPE, @1);
    $$->index = TPL_ESC_HTML;
    $$->a = mk_body(P, &$4, @2);
  }
| T_AUTOESCAPE expr BLOCK_END { open_tag(P, "autoescape", @1); } body
  T_ENDAUTOESCAPE BLOCK_END {
    close_tag(P);
    $$ = NODE(TPL_N_AUTOESCAPE, @1);
    $$->index = autoescape_value(P, $2, @2);
    $$->a = mk_body(P, &$5, @3);
  }
| T_WITH BLOCK_END { open_tag(P, "with", @1); } body T_ENDWITH BLOCK_END {
    close_tag(P);
    $$ = NODE(TPL_N_WITH, @1);
    $$->b = mk_body(P, &$4, @2);
  }
| T_WITH expr incl_only BLOCK_END { open_tag(P, "with", @1); } body
  T_ENDWITH BLOCK_END {
    close_tag(P);
    $$ = NODE(TPL_N_WITH, @1);
    $$->a = $2;
    $$->flags = (uint8_t)$3;
    $$->b = mk_body(P, &$6, @4);
  }
| T_DO expr BLOCK_END {
    $$ = NODE(TPL_N_DO, @1);
    $$->a = $2;
  }
| T_DEPRECATED expr BLOCK_END {
    /* evaluated for its errors, as Twig does, but prints nothing */
    $$ = NODE(TPL_N_DO, @1);
    $$->a = $2;
  }
| T_FLUSH BLOCK_END { $$ = NULL; }
;

elifs:
  %empty { memset(&$$, 0, sizeof $$); }
| elifs T_ELSEIF expr BLOCK_END body {
    $$ = $1;
    tpl_nlist_push(P->arena, &$$, $3);
    tpl_nlist_push(P->arena, &$$, mk_body(P, &$5, @4));
  }
;

else_part:
  %empty { $$ = NULL; }
| T_ELSE BLOCK_END body { $$ = mk_body(P, &$3, @2); }
;

for_targets:
  NAME {
    memset(&$$, 0, sizeof $$);
    tpl_nlist_push(P->arena, &$$, assign_target(P, $1, @1));
  }
| for_targets ',' NAME {
    $$ = $1;
    tpl_nlist_push(P->arena, &$$, assign_target(P, $3, @3));
  }
;

for_if:
  %empty { $$ = NULL; }
| K_IF expr { $$ = $2; }
;

for_else:
  %empty { $$ = NULL; }
| T_ELSE BLOCK_END body { $$ = mk_body(P, &$3, @2); }
;

set_targets:
  NAME {
    memset(&$$, 0, sizeof $$);
    tpl_nlist_push(P->arena, &$$, assign_target(P, $1, @1));
  }
| set_targets ',' NAME {
    $$ = $1;
    tpl_nlist_push(P->arena, &$$, assign_target(P, $3, @3));
  }
;

opt_endname:
  %empty { $$ = NULL; }
| NAME { $$ = $1; }
;

incl_ignore:
  %empty { $$ = 0; }
| K_IGNORE K_MISSING { $$ = TPL_F_IGNORE_MISSING; }
;

incl_with:
  %empty { $$ = NULL; }
| K_WITH expr { $$ = $2; }
;

incl_only:
  %empty { $$ = 0; }
| K_ONLY { $$ = TPL_F_ONLY; }
;

use_list:
  use_item { memset(&$$, 0, sizeof $$); tpl_nlist_push(P->arena, &$$, $1); }
| use_list ',' use_item { $$ = $1; tpl_nlist_push(P->arena, &$$, $3); }
;

use_item:
  NAME {
    $$ = NODE(TPL_N_NAME, @1);
    $$->name = tok_name(P, $1);
    $$->name2 = $$->name;
  }
| NAME K_AS NAME {
    $$ = NODE(TPL_N_NAME, @1);
    $$->name = tok_name(P, $1);
    $$->name2 = tok_name(P, $3);
  }
;

from_list:
  from_item { memset(&$$, 0, sizeof $$); tpl_nlist_push(P->arena, &$$, $1); }
| from_list ',' from_item { $$ = $1; tpl_nlist_push(P->arena, &$$, $3); }
;

from_item:
  NAME {
    $$ = NODE(TPL_N_NAME, @1);
    $$->name = tok_name(P, $1);
    $$->name2 = $$->name;
  }
| NAME K_AS NAME {
    $$ = NODE(TPL_N_NAME, @1);
    $$->name = tok_name(P, $1);
    $$->name2 = tok_name(P, $3);
  }
;

mparams:
  %empty { memset(&$$, 0, sizeof $$); }
| mparam_list { $$ = $1; }
| mparam_list ',' { $$ = $1; }
;

mparam_list:
  mparam { memset(&$$, 0, sizeof $$); tpl_nlist_push(P->arena, &$$, $1); }
| mparam_list ',' mparam { $$ = $1; tpl_nlist_push(P->arena, &$$, $3); }
;

mparam:
  NAME {
    $$ = NODE(TPL_N_NAME, @1);
    $$->name = tok_name(P, $1);
  }
| ARG_NAME ASSIGN expr {
    $$ = NODE(TPL_N_NAME, @1);
    $$->name = tok_name(P, $1);
    if (!is_constant($3))
      tpl_perr(P, @3.first_line, @3.first_column,
               "a default value for an argument must be a constant (a "
               "boolean, a string, a number, or an array)");
    $$->a = $3;
  }
;

filter_chain:
  filter_app {
    $$ = $1;
    $$->a = NODE(TPL_N_CAPTURED, @1);
  }
| filter_chain '|' filter_app {
    $$ = starts_at($3, $1);
    $$->a = $1;
  }
;

filter_app:
  NAME {
    $$ = NODE(TPL_N_FILTER, @1);
    $$->name = tok_name(P, $1);
  }
| NAME '(' args ')' {
    $$ = NODE(TPL_N_FILTER, @1);
    $$->name = tok_name(P, $1);
    set_args($$, $3);
  }
;

expr_list:
  expr { memset(&$$, 0, sizeof $$); tpl_nlist_push(P->arena, &$$, $1); }
| expr_list ',' expr { $$ = $1; tpl_nlist_push(P->arena, &$$, $3); }
;

expr:
  postfix { $$ = $1; }
| NOT expr { $$ = mk_un(P, TPL_OP_NOT, $2, @1); }
| MINUS expr %prec UMINUS { $$ = mk_un(P, TPL_OP_NEG, $2, @1); }
| PLUS expr %prec UMINUS { $$ = mk_un(P, TPL_OP_POS, $2, @1); }
| expr OR expr { $$ = mk_bin(P, TPL_OP_OR, $1, $3, @2); }
| expr AND expr { $$ = mk_bin(P, TPL_OP_AND, $1, $3, @2); }
| expr BOR expr { $$ = mk_bin(P, TPL_OP_BOR, $1, $3, @2); }
| expr BXOR expr { $$ = mk_bin(P, TPL_OP_BXOR, $1, $3, @2); }
| expr BAND expr { $$ = mk_bin(P, TPL_OP_BAND, $1, $3, @2); }
| expr EQ expr { $$ = mk_bin(P, TPL_OP_EQ, $1, $3, @2); }
| expr NE expr { $$ = mk_bin(P, TPL_OP_NE, $1, $3, @2); }
| expr CMP expr { $$ = mk_bin(P, TPL_OP_CMP, $1, $3, @2); }
| expr LT expr { $$ = mk_bin(P, TPL_OP_LT, $1, $3, @2); }
| expr GT expr { $$ = mk_bin(P, TPL_OP_GT, $1, $3, @2); }
| expr GE expr { $$ = mk_bin(P, TPL_OP_GE, $1, $3, @2); }
| expr LE expr { $$ = mk_bin(P, TPL_OP_LE, $1, $3, @2); }
| expr NOT_IN expr { $$ = mk_bin(P, TPL_OP_NOT_IN, $1, $3, @2); }
| expr IN expr { $$ = mk_bin(P, TPL_OP_IN, $1, $3, @2); }
| expr MATCHES expr { $$ = mk_bin(P, TPL_OP_MATCHES, $1, $3, @2); }
| expr STARTS_WITH expr { $$ = mk_bin(P, TPL_OP_STARTS_WITH, $1, $3, @2); }
| expr ENDS_WITH expr { $$ = mk_bin(P, TPL_OP_ENDS_WITH, $1, $3, @2); }
| expr HAS_SOME expr { $$ = mk_bin(P, TPL_OP_HAS_SOME, $1, $3, @2); }
| expr HAS_EVERY expr { $$ = mk_bin(P, TPL_OP_HAS_EVERY, $1, $3, @2); }
| expr HAS_SOME arrow { $$ = mk_bin(P, TPL_OP_HAS_SOME, $1, $3, @2); }
| expr HAS_EVERY arrow { $$ = mk_bin(P, TPL_OP_HAS_EVERY, $1, $3, @2); }
| expr RANGE expr { $$ = mk_bin(P, TPL_OP_RANGE, $1, $3, @2); }
| expr PLUS expr { $$ = mk_bin(P, TPL_OP_ADD, $1, $3, @2); }
| expr MINUS expr { $$ = mk_bin(P, TPL_OP_SUB, $1, $3, @2); }
| expr TILDE expr { $$ = mk_bin(P, TPL_OP_CONCAT, $1, $3, @2); }
| expr MUL expr { $$ = mk_bin(P, TPL_OP_MUL, $1, $3, @2); }
| expr DIV expr { $$ = mk_bin(P, TPL_OP_DIV, $1, $3, @2); }
| expr FLOORDIV expr { $$ = mk_bin(P, TPL_OP_FLOORDIV, $1, $3, @2); }
| expr MOD expr { $$ = mk_bin(P, TPL_OP_MOD, $1, $3, @2); }
| expr POW expr { $$ = mk_bin(P, TPL_OP_POW, $1, $3, @2); }
| expr NULLCOAL expr {
    $$ = NODE(TPL_N_NULLCOALESCE, @2);
    $$->a = $1;
    $$->b = $3;
    starts_at($$, $1);
  }
| expr IS test %prec IS { $$ = starts_at($3, $1); $$->a = $1; }
| expr IS_NOT test %prec IS {
    $$ = starts_at($3, $1);
    $$->a = $1;
    $$->flags |= TPL_F_NEGATE;
  }
| expr '?' expr ':' expr {
    $$ = starts_at(NODE(TPL_N_COND, @2), $1);
    $$->a = $1;
    $$->b = $3;
    $$->c = $5;
  }
| expr '?' expr %prec '?' {
    $$ = starts_at(NODE(TPL_N_COND, @2), $1);
    $$->a = $1;
    $$->b = $3;
  }
| expr '?' ':' expr {
    $$ = starts_at(NODE(TPL_N_COND, @2), $1);
    $$->a = $1;
    $$->c = $4;
  }
;

test:
  TEST_NAME {
    $$ = NODE(TPL_N_TEST, @1);
    $$->name = tok_name(P, $1);
  }
| TEST_NAME '(' args ')' {
    $$ = NODE(TPL_N_TEST, @1);
    $$->name = tok_name(P, $1);
    set_args($$, $3);
  }
| TEST_NAME1 test_arg {
    $$ = NODE(TPL_N_TEST, @1);
    $$->name = tok_name(P, $1);
    tpl_nlist l = {0, 0, 0};
    tpl_nlist_push(P->arena, &l, $2);
    tpl_node_set_kids($$, &l);
  }
;

test_arg:
  postfix { $$ = $1; }
| MINUS test_arg { $$ = mk_un(P, TPL_OP_NEG, $2, @1); }
| PLUS test_arg { $$ = mk_un(P, TPL_OP_POS, $2, @1); }
;

postfix:
  primary { $$ = $1; }
| postfix '.' NAME {
    $$ = starts_at(NODE(TPL_N_GETATTR, @3), $1);
    $$->a = $1;
    $$->b = mk_str(P, $3, @3);
    $$->name = tok_name(P, $3);
    $$->index = TPL_ATTR_ANY;
  }
| postfix '.' NUMBER {
    $$ = starts_at(NODE(TPL_N_GETATTR, @3), $1);
    $$->a = $1;
    $$->b = mk_const(P, $3->num, @3);
    $$->index = TPL_ATTR_ANY;
  }
| postfix '.' NAME '(' args ')' {
    $$ = starts_at(NODE(TPL_N_GETATTR, @3), $1);
    $$->a = $1;
    $$->b = mk_str(P, $3, @3);
    $$->name = tok_name(P, $3);
    $$->index = TPL_ATTR_METHOD;
    set_args($$, $5);
  }
| postfix '[' expr ']' {
    /* a missing key is reported at the key */
    $$ = starts_at(NODE(TPL_N_GETATTR, @3), $1);
    $$->loc.line = $3->line;
    $$->loc.col = $3->col;
    $$->a = $1;
    $$->b = $3;
    $$->index = TPL_ATTR_ARRAY;
    if ($3->kind == TPL_N_CONST && $3->value.type == TPL_STR)
      $$->name = tpl_mkname(P->arena, $3->value.u.s, $3->value.len);
  }
| postfix '[' expr ':' expr ']' {
    $$ = starts_at(NODE(TPL_N_SLICE, @2), $1);
    $$->a = $1;
    $$->b = $3;
    $$->c = $5;
  }
| postfix '[' expr ':' ']' {
    $$ = starts_at(NODE(TPL_N_SLICE, @2), $1);
    $$->a = $1;
    $$->b = $3;
  }
| postfix '[' ':' expr ']' {
    $$ = starts_at(NODE(TPL_N_SLICE, @2), $1);
    $$->a = $1;
    $$->b = mk_const(P, tpl_int(0), @3);
    $$->c = $4;
  }
| postfix '[' ':' ']' {
    $$ = starts_at(NODE(TPL_N_SLICE, @2), $1);
    $$->a = $1;
    $$->b = mk_const(P, tpl_int(0), @3);
  }
| postfix '|' filter_app {
    $$ = starts_at($3, $1);
    $$->a = $1;
  }
;

primary:
  NAME { $$ = mk_name_or_const(P, $1, @1); }
| NAME '(' args ')' {
    $$ = NODE(TPL_N_FUNCTION, @1);
    $$->name = tok_name(P, $1);
    set_args($$, $3);
  }
| NUMBER { $$ = mk_const(P, $1->num, @1); }
| string { $$ = $1; }
| array { $$ = $1; }
| hash { $$ = $1; }
| '(' expr ')' { $$ = $2; }
;

string:
  STRING { $$ = mk_str(P, $1, @1); }
| DQ_OPEN interp_parts DQ_CLOSE {
    /* Twig: parts joined by ~, a lone #{x} is x itself */
    $$ = NULL;
    for (size_t i = 0; i < $2.n; i++) {
      tpl_node *p = $2.v[i];
      $$ = $$ ? mk_bin(P, TPL_OP_CONCAT, $$, p, @1) : p;
    }
    if (!$$)
      $$ = mk_const(P, tpl_str("", 0), @1);
  }
;

interp_parts:
  interp_part { memset(&$$, 0, sizeof $$); tpl_nlist_push(P->arena, &$$, $1); }
| interp_parts interp_part { $$ = $1; tpl_nlist_push(P->arena, &$$, $2); }
;

interp_part:
  STRING { $$ = mk_str(P, $1, @1); }
| INTERP_START expr INTERP_END { $$ = $2; }
;

array:
  '[' array_items ']' {
    $$ = NODE(TPL_N_ARRAY, @1);
    tpl_node_set_kids($$, &$2);
  }
;

array_items:
  %empty { memset(&$$, 0, sizeof $$); }
| expr_list { $$ = $1; }
| expr_list ',' { $$ = $1; }
;

hash:
  '{' hash_items '}' {
    $$ = NODE(TPL_N_HASH, @1);
    tpl_node_set_kids($$, &$2);
  }
;

hash_items:
  %empty { memset(&$$, 0, sizeof $$); }
| hash_list { $$ = $1; }
| hash_list ',' { $$ = $1; }
;

hash_list:
  NAME ':' expr {
    memset(&$$, 0, sizeof $$);
    tpl_nlist_push(P->arena, &$$, mk_str(P, $1, @1));
    tpl_nlist_push(P->arena, &$$, $3);
  }
| NAME {
    memset(&$$, 0, sizeof $$);
    tpl_nlist_push(P->arena, &$$, mk_str(P, $1, @1));
    tpl_node *v = NODE(TPL_N_NAME, @1);
    v->name = tok_name(P, $1);
    tpl_nlist_push(P->arena, &$$, v);
  }
| STRING ':' expr {
    memset(&$$, 0, sizeof $$);
    tpl_nlist_push(P->arena, &$$, mk_str(P, $1, @1));
    tpl_nlist_push(P->arena, &$$, $3);
  }
| NUMBER ':' expr {
    memset(&$$, 0, sizeof $$);
    tpl_nlist_push(P->arena, &$$, mk_const(P, $1->num, @1));
    tpl_nlist_push(P->arena, &$$, $3);
  }
| '(' expr ')' ':' expr {
    memset(&$$, 0, sizeof $$);
    tpl_nlist_push(P->arena, &$$, $2);
    tpl_nlist_push(P->arena, &$$, $5);
  }
| hash_list ',' NAME ':' expr {
    $$ = $1;
    tpl_nlist_push(P->arena, &$$, mk_str(P, $3, @3));
    tpl_nlist_push(P->arena, &$$, $5);
  }
| hash_list ',' NAME {
    $$ = $1;
    tpl_nlist_push(P->arena, &$$, mk_str(P, $3, @3));
    tpl_node *v = NODE(TPL_N_NAME, @3);
    v->name = tok_name(P, $3);
    tpl_nlist_push(P->arena, &$$, v);
  }
| hash_list ',' STRING ':' expr {
    $$ = $1;
    tpl_nlist_push(P->arena, &$$, mk_str(P, $3, @3));
    tpl_nlist_push(P->arena, &$$, $5);
  }
| hash_list ',' NUMBER ':' expr {
    $$ = $1;
    tpl_nlist_push(P->arena, &$$, mk_const(P, $3->num, @3));
    tpl_nlist_push(P->arena, &$$, $5);
  }
| hash_list ',' '(' expr ')' ':' expr {
    $$ = $1;
    tpl_nlist_push(P->arena, &$$, $4);
    tpl_nlist_push(P->arena, &$$, $7);
  }
;

args:
  %empty { $$ = oc_arena_calloc(P->arena, 1, sizeof(tpl_arglist)); }
| arg_list { $$ = $1; }
| arg_list ',' { $$ = $1; }
;

arg_list:
  expr {
    $$ = oc_arena_calloc(P->arena, 1, sizeof(tpl_arglist));
    tpl_arglist_push(P->arena, $$, $1, NULL, 0);
  }
| arrow {
    $$ = oc_arena_calloc(P->arena, 1, sizeof(tpl_arglist));
    tpl_arglist_push(P->arena, $$, $1, NULL, 0);
  }
| ARG_NAME ASSIGN expr {
    $$ = oc_arena_calloc(P->arena, 1, sizeof(tpl_arglist));
    tpl_arglist_push(P->arena, $$, $3, $1->s, $1->slen);
  }
| ARG_NAME ASSIGN arrow {
    $$ = oc_arena_calloc(P->arena, 1, sizeof(tpl_arglist));
    tpl_arglist_push(P->arena, $$, $3, $1->s, $1->slen);
  }
| arg_list ',' expr { $$ = $1; tpl_arglist_push(P->arena, $$, $3, NULL, 0); }
| arg_list ',' arrow { $$ = $1; tpl_arglist_push(P->arena, $$, $3, NULL, 0); }
| arg_list ',' ARG_NAME ASSIGN expr {
    $$ = $1;
    tpl_arglist_push(P->arena, $$, $5, $3->s, $3->slen);
  }
| arg_list ',' ARG_NAME ASSIGN arrow {
    $$ = $1;
    tpl_arglist_push(P->arena, $$, $5, $3->s, $3->slen);
  }
;

arrow:
  ARROW_PARAM ARROW expr %prec '?' {
    $$ = NODE(TPL_N_ARROW, @1);
    $$->nnames = 1;
    $$->names = oc_arena_alloc(P->arena, sizeof(tpl_name));
    $$->names[0] = tok_name(P, $1);
    $$->a = $3;
  }
| ARROW_LPAREN arrow_params ')' ARROW expr %prec '?' {
    $$ = NODE(TPL_N_ARROW, @1);
    $$->nnames = $2.n;
    $$->names = oc_arena_alloc(P->arena, $2.n * sizeof(tpl_name));
    for (size_t i = 0; i < $2.n; i++)
      $$->names[i] = $2.v[i]->name;
    $$->a = $5;
  }
;

arrow_params:
  NAME {
    memset(&$$, 0, sizeof $$);
    tpl_node *n = NODE(TPL_N_NAME, @1);
    n->name = tok_name(P, $1);
    tpl_nlist_push(P->arena, &$$, n);
  }
| arrow_params ',' NAME {
    $$ = $1;
    tpl_node *n = NODE(TPL_N_NAME, @3);
    n->name = tok_name(P, $3);
    tpl_nlist_push(P->arena, &$$, n);
  }
;

%%

/* ---- the token layer ------------------------------------------------ */

typedef struct tpl_tag_entry {
  const char *name;
  int kind;
} tpl_tag_entry;

static const tpl_tag_entry tpl_tags[] = {
    {"if", T_IF},
    {"elseif", T_ELSEIF},
    {"else", T_ELSE},
    {"endif", T_ENDIF},
    {"for", T_FOR},
    {"endfor", T_ENDFOR},
    {"set", T_SET},
    {"endset", T_ENDSET},
    {"block", T_BLOCK},
    {"endblock", T_ENDBLOCK},
    {"extends", T_EXTENDS},
    {"include", T_INCLUDE},
    {"embed", T_EMBED},
    {"endembed", T_ENDEMBED},
    {"use", T_USE},
    {"macro", T_MACRO},
    {"endmacro", T_ENDMACRO},
    {"import", T_IMPORT},
    {"from", T_FROM},
    {"apply", T_APPLY},
    {"endapply", T_ENDAPPLY},
    {"spaceless", T_SPACELESS},
    {"endspaceless", T_ENDSPACELESS},
    {"filter", T_FILTER},
    {"endfilter", T_ENDFILTER},
    {"autoescape", T_AUTOESCAPE},
    {"endautoescape", T_ENDAUTOESCAPE},
    {"with", T_WITH},
    {"endwith", T_ENDWITH},
    {"do", T_DO},
    {"flush", T_FLUSH},
    {"deprecated", T_DEPRECATED},
};

static int tag_kind(const tpl_tok *t) {
  for (size_t i = 0; i < sizeof tpl_tags / sizeof *tpl_tags; i++)
    if (!strcmp(tpl_tags[i].name, t->s))
      return tpl_tags[i].kind;
  return T_UNKNOWN;
}

/* Words that are keywords inside a given tag (after an expression). */
static int tag_keyword(int tag, const char *s) {
  switch (tag) {
  case T_FOR:
    return !strcmp(s, "if") ? K_IF : 0;
  case T_INCLUDE:
  case T_EMBED:
    if (!strcmp(s, "ignore"))
      return K_IGNORE;
    if (!strcmp(s, "with"))
      return K_WITH;
    if (!strcmp(s, "only"))
      return K_ONLY;
    return 0;
  case T_IMPORT:
    return !strcmp(s, "as") ? K_AS : 0;
  case T_FROM:
    return !strcmp(s, "import") ? K_IMPORT : !strcmp(s, "as") ? K_AS : 0;
  case T_USE:
    return !strcmp(s, "with") ? K_WITH : !strcmp(s, "as") ? K_AS : 0;
  case T_WITH:
    return !strcmp(s, "only") ? K_ONLY : 0;
  default:
    return 0;
  }
}

static bool ends_expr(int kind) {
  switch (kind) {
  case NAME:
  case NUMBER:
  case STRING:
  case DQ_CLOSE:
  case TEST_NAME:
  case ')':
  case ']':
  case '}':
  case K_MISSING:
    return true;
  default:
    return false;
  }
}

static bool known_test(const char *s, size_t n) {
  if ((n == 7 && !memcmp(s, "defined", 7)) ||
      (n == 7 && !memcmp(s, "same as", 7)) ||
      (n == 12 && !memcmp(s, "divisible by", 12)))
    return true;
  return tpl_find_test(s, n) != NULL;
}

static void bracket_push(tpl_pctx *P, char c) {
  OC_GROW(P->brackets, P->bcap, P->nbrackets + 1);
  P->brackets[P->nbrackets++] = c;
}

static const tpl_tok *peek(const tpl_pctx *P, size_t i) {
  size_t k = P->pos + i;
  return k < P->ntoks ? &P->toks[k] : &P->toks[P->ntoks - 1];
}

static bool is_punct(const tpl_tok *t, char c) {
  return t->type == TPL_T_PUNCT && t->op == (uint8_t)c;
}

static int op_kind(int op) {
  switch (op) {
  case TPL_R_OR: return OR;
  case TPL_R_AND: return AND;
  case TPL_R_BOR: return BOR;
  case TPL_R_BXOR: return BXOR;
  case TPL_R_BAND: return BAND;
  case TPL_R_EQ: return EQ;
  case TPL_R_NE: return NE;
  case TPL_R_CMP: return CMP;
  case TPL_R_LT: return LT;
  case TPL_R_GT: return GT;
  case TPL_R_GE: return GE;
  case TPL_R_LE: return LE;
  case TPL_R_NOT_IN: return NOT_IN;
  case TPL_R_IN: return IN;
  case TPL_R_MATCHES: return MATCHES;
  case TPL_R_STARTS_WITH: return STARTS_WITH;
  case TPL_R_ENDS_WITH: return ENDS_WITH;
  case TPL_R_HAS_SOME: return HAS_SOME;
  case TPL_R_HAS_EVERY: return HAS_EVERY;
  case TPL_R_RANGE: return RANGE;
  case TPL_R_PLUS: return PLUS;
  case TPL_R_MINUS: return MINUS;
  case TPL_R_TILDE: return TILDE;
  case TPL_R_MUL: return MUL;
  case TPL_R_DIV: return DIV;
  case TPL_R_FLOORDIV: return FLOORDIV;
  case TPL_R_MOD: return MOD;
  case TPL_R_IS: return IS;
  case TPL_R_IS_NOT: return IS_NOT;
  case TPL_R_POW: return POW;
  case TPL_R_NULLCOAL: return NULLCOAL;
  case TPL_R_NOT: return NOT;
  default: return ASSIGN;
  }
}

/* A name just read: the name of a named argument when `=` follows it in
 * parentheses. */
static int name_or_arg(tpl_pctx *P) {
  const tpl_tok *nx = peek(P, 0);
  if (nx->type == TPL_T_OP && nx->op == TPL_R_ASSIGN && P->nbrackets &&
      P->brackets[P->nbrackets - 1] == '(')
    return ARG_NAME;
  return NAME;
}

/* Whether an expression may start at the next token: after an operator,
 * an opening bracket, a separator or a tag that takes an expression. A
 * comma in a hash is followed by a key, never by an expression. */
static bool operand_next(const tpl_pctx *P) {
  char top = P->nbrackets ? P->brackets[P->nbrackets - 1] : 0;
  switch (P->prev_kind) {
  case ',':
    return top ? top != '{' : P->tag == T_SET;
  case K_WITH:
    return P->tag == T_INCLUDE || P->tag == T_EMBED;
  case NAME: /* {% block name expr %}: {%, block, name, then this one */
    return P->tag == T_BLOCK && P->pos >= 4 &&
           P->toks[P->pos - 4].type == TPL_T_BLOCK_START;
  case VAR_START: case INTERP_START: case '(': case '[': case '?': case ':':
  case ARROW: case ASSIGN: case OR: case AND: case BOR: case BXOR: case BAND:
  case EQ: case NE: case CMP: case LT: case GT: case GE: case LE: case NOT_IN:
  case IN: case MATCHES: case STARTS_WITH: case ENDS_WITH: case HAS_SOME:
  case HAS_EVERY: case RANGE: case PLUS: case MINUS: case TILDE: case MUL:
  case DIV: case FLOORDIV: case MOD: case POW: case NULLCOAL: case NOT:
  case T_IF: case T_ELSEIF: case T_DO: case T_WITH: case T_INCLUDE:
  case T_EXTENDS: case T_EMBED: case T_DEPRECATED: case T_IMPORT: case T_FROM:
  case K_IF: case TEST_NAME1:
    return true;
  default:
    return false;
  }
}

/* Twig reads an operator spelt as a name (and, or, not, in, is, matches)
 * as a variable where an expression starts (`not` stays the unary
 * operator there) and as a target of set and for; elsewhere, and in macro
 * signatures, it is the operator. Returns the name token or NULL. */
static const tpl_tok *op_as_name(tpl_pctx *P, const tpl_tok *t) {
  const char *s = P->src + t->off;
  for (uint32_t i = 0; i < t->len; i++)
    if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
          s[i] == '_'))
      return NULL;
  bool target = P->targets && (P->prev_kind == T_SET ||
                               P->prev_kind == T_FOR || P->prev_kind == ',');
  if (!target && (t->op == TPL_R_NOT || P->tag == T_MACRO || !operand_next(P)))
    return NULL;
  tpl_tok *c = oc_arena_alloc(P->arena, sizeof *c);
  *c = *t;
  c->type = TPL_T_NAME;
  c->op = 0;
  c->s = oc_arena_strndup(P->arena, s, t->len);
  c->slen = t->len;
  return c;
}

static int next_kind(tpl_pctx *P, const tpl_tok **out) {
  const tpl_tok *t = &P->toks[P->pos++];
  *out = t;
  switch (t->type) {
  case TPL_T_EOF:
    P->pos--; /* stay on EOF */
    return TPL_YYEOF;
  case TPL_T_TEXT:
    return TEXT;
  case TPL_T_VAR_START:
    P->nbrackets = 0;
    P->tag = 0;
    return VAR_START;
  case TPL_T_VAR_END:
    return VAR_END;
  case TPL_T_BLOCK_START: {
    const tpl_tok *n = &P->toks[P->pos];
    P->nbrackets = 0;
    if (n->type != TPL_T_NAME) {
      tpl_perr(P, n->line, n->col, "a block must start with a tag name");
      return TPL_YYerror;
    }
    P->pos++;
    *out = n;
    P->tag = tag_kind(n);
    return P->tag;
  }
  case TPL_T_BLOCK_END:
    P->tag = 0;
    return BLOCK_END;
  case TPL_T_NUMBER:
    return NUMBER;
  case TPL_T_STRING:
    return STRING;
  case TPL_T_DQ_OPEN:
    return DQ_OPEN;
  case TPL_T_DQ_CLOSE:
    return DQ_CLOSE;
  case TPL_T_INTERP_START:
    bracket_push(P, '#');
    return INTERP_START;
  case TPL_T_INTERP_END:
    if (P->nbrackets)
      P->nbrackets--;
    return INTERP_END;
  case TPL_T_ARROW:
    return ARROW;
  case TPL_T_OP: {
    const char *os = P->src + t->off;
    if (P->prev_kind == '.' &&
        ((*os >= 'a' && *os <= 'z') || (*os >= 'A' && *os <= 'Z'))) {
      /* `obj. in`: Twig's parser takes any operator token spelt as a name
       * after the dot as the attribute, spaces inside it made one */
      tpl_tok *c = oc_arena_alloc(P->arena, sizeof *c);
      *c = *t;
      c->type = TPL_T_NAME;
      c->op = 0;
      char *n = oc_arena_alloc(P->arena, (size_t)t->len + 1);
      size_t l = 0;
      for (uint32_t i = 0; i < t->len; i++)
        if (!(os[i] == ' ' || os[i] == '\t' || os[i] == '\n' ||
              os[i] == '\r') ||
            (l && n[l - 1] != ' '))
          n[l++] = os[i] == ' ' || os[i] == '\t' || os[i] == '\n' ||
                           os[i] == '\r'
                       ? ' '
                       : os[i];
      n[l] = 0;
      c->s = n;
      c->slen = l;
      *out = c;
      return NAME;
    }
    const tpl_tok *nt = op_as_name(P, t);
    if (!nt)
      return op_kind(t->op);
    *out = nt;
    return name_or_arg(P);
  }
  case TPL_T_PUNCT: {
    char c = (char)t->op;
    if (c == '(') {
      bracket_push(P, '(');
      /* (a, b) => ... */
      size_t i = 0;
      while (peek(P, i)->type == TPL_T_NAME) {
        if (is_punct(peek(P, i + 1), ','))
          i += 2;
        else
          break;
      }
      if (peek(P, i)->type == TPL_T_NAME && is_punct(peek(P, i + 1), ')') &&
          peek(P, i + 2)->type == TPL_T_ARROW)
        return ARROW_LPAREN;
      return '(';
    }
    if (c == '[' || c == '{')
      bracket_push(P, c);
    else if ((c == ')' || c == ']' || c == '}') && P->nbrackets)
      P->nbrackets--;
    return (unsigned char)c;
  }
  case TPL_T_NAME:
    break;
  default:
    return TPL_YYUNDEF;
  }

  /* names */
  if (P->prev_kind == IS || P->prev_kind == IS_NOT) {
    const tpl_tok *n2 = peek(P, 0);
    const tpl_tok *name = t;
    if (!known_test(t->s, t->slen) && n2->type == TPL_T_NAME) {
      size_t l = t->slen + 1 + n2->slen;
      char *s = oc_arena_alloc(P->arena, l + 1);
      memcpy(s, t->s, t->slen);
      s[t->slen] = ' ';
      memcpy(s + t->slen + 1, n2->s, n2->slen);
      s[l] = 0;
      if (known_test(s, l)) {
        tpl_tok *c = oc_arena_alloc(P->arena, sizeof *c);
        *c = *t;
        c->s = s;
        c->slen = l;
        name = c;
        P->pos++;
      }
    }
    *out = name;
    /* Twig's one_mandatory_argument tests take an argument without
     * parentheses */
    if ((!strcmp(name->s, "same as") || !strcmp(name->s, "divisible by")) &&
        !is_punct(peek(P, 0), '('))
      return TEST_NAME1;
    return TEST_NAME;
  }
  if (P->tag && ends_expr(P->prev_kind)) {
    int kw = tag_keyword(P->tag, t->s);
    if (kw)
      return kw;
  }
  if (P->prev_kind == K_IGNORE && !strcmp(t->s, "missing"))
    return K_MISSING;
  if (peek(P, 0)->type == TPL_T_ARROW)
    return ARROW_PARAM;
  return name_or_arg(P);
}

int tpl_yylex(TPL_YYSTYPE *lval, TPL_YYLTYPE *lloc, tpl_pctx *P) {
  const tpl_tok *t;
  int k = next_kind(P, &t);
  lval->tok = t;
  lloc->first_line = lloc->last_line = (int)t->line;
  lloc->first_column = (int)t->col;
  lloc->last_column = (int)(t->col + t->len);
  P->cur = t;
  P->prev_kind = k;
  if (k == T_SET || k == T_FOR)
    P->targets = true;
  else if (k != NAME && k != ',')
    P->targets = false;
  if (k == TPL_YYerror)
    P->lex_failed = true;
  return k;
}

static void tpl_yyerror(TPL_YYLTYPE *loc, tpl_pctx *P, const char *msg) {
  if (!strcmp(msg, "memory exhausted"))
    msg = "expressions or tags nested too deeply";
  tpl_perr(P, (uint32_t)loc->first_line, (uint32_t)loc->first_column, "%s",
           msg);
}

/* How a grammar symbol reads in "expecting ..."; punctuation comes out
 * of bison's names ('(') into buf. */
static const char *describe(yysymbol_kind_t k, char buf[8]) {
  const char *bn = yysymbol_name(k);
  if (bn && bn[0] == '\'' && bn[1] && bn[2] == '\'') {
    buf[0] = '"';
    buf[1] = bn[1];
    buf[2] = '"';
    buf[3] = 0;
    return buf;
  }
  switch (k) {
  case YYSYMBOL_YYEOF: return "end of template";
  case YYSYMBOL_TEXT: return "text";
  case YYSYMBOL_VAR_START: return "\"{{\"";
  case YYSYMBOL_VAR_END: return "\"}}\"";
  case YYSYMBOL_BLOCK_END: return "\"%}\"";
  case YYSYMBOL_NAME:
  case YYSYMBOL_ARG_NAME:
  case YYSYMBOL_ARROW_PARAM: return "a name";
  case YYSYMBOL_TEST_NAME:
  case YYSYMBOL_TEST_NAME1: return "a test name";
  case YYSYMBOL_NUMBER: return "a number";
  case YYSYMBOL_STRING:
  case YYSYMBOL_DQ_OPEN: return "a string";
  case YYSYMBOL_DQ_CLOSE: return "end of string";
  case YYSYMBOL_INTERP_START: return "\"#{\"";
  case YYSYMBOL_INTERP_END: return "\"}\"";
  case YYSYMBOL_ARROW: return "\"=>\"";
  case YYSYMBOL_ARROW_LPAREN: return "\"(\"";
  case YYSYMBOL_K_AS: return "\"as\"";
  case YYSYMBOL_K_WITH: return "\"with\"";
  case YYSYMBOL_K_ONLY: return "\"only\"";
  case YYSYMBOL_K_IGNORE: return "\"ignore\"";
  case YYSYMBOL_K_MISSING: return "\"missing\"";
  case YYSYMBOL_K_IMPORT: return "\"import\"";
  case YYSYMBOL_K_IF: return "\"if\"";
  case YYSYMBOL_ASSIGN: return "\"=\"";
  case YYSYMBOL_T_ENDIF: return "\"endif\" tag";
  case YYSYMBOL_T_ENDFOR: return "\"endfor\" tag";
  case YYSYMBOL_T_ENDSET: return "\"endset\" tag";
  case YYSYMBOL_T_ENDBLOCK: return "\"endblock\" tag";
  case YYSYMBOL_T_ENDEMBED: return "\"endembed\" tag";
  case YYSYMBOL_T_ENDMACRO: return "\"endmacro\" tag";
  case YYSYMBOL_T_ENDAPPLY: return "\"endapply\" tag";
  case YYSYMBOL_T_ENDFILTER: return "\"endfilter\" tag";
  case YYSYMBOL_T_ENDSPACELESS: return "\"endspaceless\" tag";
  case YYSYMBOL_T_ENDAUTOESCAPE: return "\"endautoescape\" tag";
  case YYSYMBOL_T_ENDWITH: return "\"endwith\" tag";
  case YYSYMBOL_T_ELSE: return "\"else\" tag";
  case YYSYMBOL_T_ELSEIF: return "\"elseif\" tag";
  case YYSYMBOL_OR: return "\"or\"";
  case YYSYMBOL_AND: return "\"and\"";
  case YYSYMBOL_IN: return "\"in\"";
  case YYSYMBOL_IS: return "\"is\"";
  case YYSYMBOL_NOT: return "\"not\"";
  default: return NULL;
  }
}

static bool is_tag_symbol(yysymbol_kind_t k) {
  return k >= YYSYMBOL_T_IF && k <= YYSYMBOL_T_UNKNOWN;
}

static int yyreport_syntax_error(const yypcontext_t *ctx, tpl_pctx *P) {
  if (P->lex_failed)
    return 0;
  yysymbol_kind_t k = yypcontext_token(ctx);
  const TPL_YYLTYPE *loc = yypcontext_location(ctx);
  uint32_t line = (uint32_t)loc->first_line, col = (uint32_t)loc->first_column;
  const tpl_tok *t = P->cur;
  char what[160];
  if (k == YYSYMBOL_YYEOF) {
    if (P->nopen) {
      const tpl_open_tag *o = &P->open[P->nopen - 1];
      tpl_perr(P, o->line, o->col, "unclosed \"%s\" tag", o->tag);
      return 0;
    }
    snprintf(what, sizeof what, "end of template");
  } else if (is_tag_symbol(k)) {
    if (k == YYSYMBOL_T_UNKNOWN)
      tpl_perr(P, line, col, "unknown tag \"%s\"", t->s);
    else
      tpl_perr(P, line, col, "unexpected \"%s\" tag", t->s);
    return 0;
  } else if (t && (t->type == TPL_T_NAME)) {
    snprintf(what, sizeof what, "name \"%.100s\"", t->s);
  } else if (t && t->type == TPL_T_NUMBER) {
    snprintf(what, sizeof what, "number %.*s", (int)(t->len < 60 ? t->len : 60),
             P->src + t->off);
  } else if (t && (t->type == TPL_T_STRING || t->type == TPL_T_DQ_OPEN)) {
    snprintf(what, sizeof what, "string");
  } else if (t && t->type == TPL_T_VAR_END) {
    snprintf(what, sizeof what, "\"}}\"");
  } else if (t && t->type == TPL_T_BLOCK_END) {
    snprintf(what, sizeof what, "\"%%}\"");
  } else if (t && t->type == TPL_T_TEXT) {
    snprintf(what, sizeof what, "text");
  } else if (t) {
    /* operators and punctuation: as written, whitespace collapsed */
    char buf[40];
    size_t j = 0;
    for (size_t i = 0; i < t->len && j + 1 < sizeof buf; i++) {
      char c = P->src[t->off + i];
      bool sp = c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f';
      if (sp && j && buf[j - 1] == ' ')
        continue;
      buf[j++] = sp ? ' ' : c;
    }
    buf[j] = 0;
    snprintf(what, sizeof what, "\"%s\"", buf);
  } else {
    snprintf(what, sizeof what, "token");
  }
  yysymbol_kind_t exp[4];
  int n = yypcontext_expected_tokens(ctx, exp, 4);
  char msg[400];
  int m = snprintf(msg, sizeof msg, "unexpected %s", what);
  if (n >= 1 && n <= 3) {
    bool ok = true;
    char bufs[4][8];
    for (int i = 0; i < n; i++)
      if (!describe(exp[i], bufs[i]))
        ok = false;
    if (ok) {
      const char *uniq[4];
      int nu = 0;
      for (int i = 0; i < n; i++) {
        const char *d = describe(exp[i], bufs[i]);
        bool seen = false;
        for (int j = 0; j < nu; j++)
          seen = seen || !strcmp(uniq[j], d);
        if (!seen)
          uniq[nu++] = d;
      }
      for (int i = 0; i < nu && m > 0 && (size_t)m < sizeof msg; i++)
        m += snprintf(msg + m, sizeof msg - (size_t)m, "%s%s",
                      i == 0 ? ", expecting " : i == nu - 1 ? " or " : ", ",
                      uniq[i]);
    }
  }
  tpl_perr(P, line, col, "%s", msg);
  return 0;
}

int tpl_parse_tokens(tpl_pctx *P) {
  P->pos = 0;
  P->prev_kind = 0;
  P->targets = false;
  P->tag = 0;
  P->nbrackets = 0;
  P->nopen = 0;
  return tpl_yyparse(P);
}
