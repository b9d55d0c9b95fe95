/* A Bison parser, made by GNU Bison 3.8.2.  */

/* Bison implementation for Yacc-like parsers in C

   Copyright (C) 1984, 1989-1990, 2000-2015, 2018-2021 Free Software Foundation,
   Inc.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.

   This program is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
   GNU General Public License for more details.

   You should have received a copy of the GNU General Public License
   along with this program.  If not, see <https://www.gnu.org/licenses/>.  */

/* As a special exception, you may create a larger work that contains
   part or all of the Bison parser skeleton and distribute that work
   under terms of your choice, so long as that work isn't itself a
   parser generator using the skeleton or a modified version thereof
   as a parser skeleton.  Alternatively, if you modify or redistribute
   the parser skeleton itself, you may (at your option) remove this
   special exception, which will cause the skeleton and the resulting
   Bison output files to be licensed under the GNU General Public
   License without this special exception.

   This special exception was added by the Free Software Foundation in
   version 2.2 of Bison.  */

/* C LALR(1) parser skeleton written by Richard Stallman, by
   simplifying the original so-called "semantic" parser.  */

/* DO NOT RELY ON FEATURES THAT ARE NOT DOCUMENTED in the manual,
   especially those whose name start with YY_ or yy_.  They are
   private implementation details that can be changed or removed.  */

/* All symbols defined below should begin with yy or YY, to avoid
   infringing on user name space.  This should be done even for local
   variables, as they might otherwise be expanded by user macros.
   There are some unavoidable exceptions within include files to
   define necessary library symbols; they are noted "INFRINGES ON
   USER NAME SPACE" below.  */

/* Identify Bison output, and Bison version.  */
#define YYBISON 30802

/* Bison version string.  */
#define YYBISON_VERSION "3.8.2"

/* Skeleton name.  */
#define YYSKELETON_NAME "yacc.c"

/* Pure parsers.  */
#define YYPURE 2

/* Push parsers.  */
#define YYPUSH 0

/* Pull parsers.  */
#define YYPULL 1

/* Substitute the type names.  */
#define YYSTYPE         TPL_YYSTYPE
#define YYLTYPE         TPL_YYLTYPE
/* Substitute the variable and function names.  */
#define yyparse         tpl_yyparse
#define yylex           tpl_yylex
#define yyerror         tpl_yyerror
#define yydebug         tpl_yydebug
#define yynerrs         tpl_yynerrs


# ifndef YY_CAST
#  ifdef __cplusplus
#   define YY_CAST(Type, Val) static_cast<Type> (Val)
#   define YY_REINTERPRET_CAST(Type, Val) reinterpret_cast<Type> (Val)
#  else
#   define YY_CAST(Type, Val) ((Type) (Val))
#   define YY_REINTERPRET_CAST(Type, Val) ((Type) (Val))
#  endif
# endif
# ifndef YY_NULLPTR
#  if defined __cplusplus
#   if 201103L <= __cplusplus
#    define YY_NULLPTR nullptr
#   else
#    define YY_NULLPTR 0
#   endif
#  else
#   define YY_NULLPTR ((void*)0)
#  endif
# endif

#include "tpl_parser.h"
/* Symbol kind.  */
enum yysymbol_kind_t
{
  YYSYMBOL_YYEMPTY = -2,
  YYSYMBOL_YYEOF = 0,                      /* "end of file"  */
  YYSYMBOL_YYerror = 1,                    /* error  */
  YYSYMBOL_YYUNDEF = 2,                    /* "invalid token"  */
  YYSYMBOL_TEXT = 3,                       /* TEXT  */
  YYSYMBOL_VAR_START = 4,                  /* VAR_START  */
  YYSYMBOL_VAR_END = 5,                    /* VAR_END  */
  YYSYMBOL_BLOCK_END = 6,                  /* BLOCK_END  */
  YYSYMBOL_NAME = 7,                       /* NAME  */
  YYSYMBOL_NUMBER = 8,                     /* NUMBER  */
  YYSYMBOL_STRING = 9,                     /* STRING  */
  YYSYMBOL_DQ_OPEN = 10,                   /* DQ_OPEN  */
  YYSYMBOL_DQ_CLOSE = 11,                  /* DQ_CLOSE  */
  YYSYMBOL_INTERP_START = 12,              /* INTERP_START  */
  YYSYMBOL_INTERP_END = 13,                /* INTERP_END  */
  YYSYMBOL_ARROW = 14,                     /* ARROW  */
  YYSYMBOL_ARROW_PARAM = 15,               /* ARROW_PARAM  */
  YYSYMBOL_ARROW_LPAREN = 16,              /* ARROW_LPAREN  */
  YYSYMBOL_ARG_NAME = 17,                  /* ARG_NAME  */
  YYSYMBOL_TEST_NAME = 18,                 /* TEST_NAME  */
  YYSYMBOL_TEST_NAME1 = 19,                /* TEST_NAME1  */
  YYSYMBOL_OR = 20,                        /* OR  */
  YYSYMBOL_AND = 21,                       /* AND  */
  YYSYMBOL_BOR = 22,                       /* BOR  */
  YYSYMBOL_BXOR = 23,                      /* BXOR  */
  YYSYMBOL_BAND = 24,                      /* BAND  */
  YYSYMBOL_EQ = 25,                        /* EQ  */
  YYSYMBOL_NE = 26,                        /* NE  */
  YYSYMBOL_CMP = 27,                       /* CMP  */
  YYSYMBOL_LT = 28,                        /* LT  */
  YYSYMBOL_GT = 29,                        /* GT  */
  YYSYMBOL_GE = 30,                        /* GE  */
  YYSYMBOL_LE = 31,                        /* LE  */
  YYSYMBOL_NOT_IN = 32,                    /* NOT_IN  */
  YYSYMBOL_IN = 33,                        /* IN  */
  YYSYMBOL_MATCHES = 34,                   /* MATCHES  */
  YYSYMBOL_STARTS_WITH = 35,               /* STARTS_WITH  */
  YYSYMBOL_ENDS_WITH = 36,                 /* ENDS_WITH  */
  YYSYMBOL_HAS_SOME = 37,                  /* HAS_SOME  */
  YYSYMBOL_HAS_EVERY = 38,                 /* HAS_EVERY  */
  YYSYMBOL_RANGE = 39,                     /* RANGE  */
  YYSYMBOL_PLUS = 40,                      /* PLUS  */
  YYSYMBOL_MINUS = 41,                     /* MINUS  */
  YYSYMBOL_TILDE = 42,                     /* TILDE  */
  YYSYMBOL_MUL = 43,                       /* MUL  */
  YYSYMBOL_DIV = 44,                       /* DIV  */
  YYSYMBOL_FLOORDIV = 45,                  /* FLOORDIV  */
  YYSYMBOL_MOD = 46,                       /* MOD  */
  YYSYMBOL_IS = 47,                        /* IS  */
  YYSYMBOL_IS_NOT = 48,                    /* IS_NOT  */
  YYSYMBOL_POW = 49,                       /* POW  */
  YYSYMBOL_NULLCOAL = 50,                  /* NULLCOAL  */
  YYSYMBOL_NOT = 51,                       /* NOT  */
  YYSYMBOL_ASSIGN = 52,                    /* ASSIGN  */
  YYSYMBOL_K_AS = 53,                      /* K_AS  */
  YYSYMBOL_K_WITH = 54,                    /* K_WITH  */
  YYSYMBOL_K_ONLY = 55,                    /* K_ONLY  */
  YYSYMBOL_K_IGNORE = 56,                  /* K_IGNORE  */
  YYSYMBOL_K_MISSING = 57,                 /* K_MISSING  */
  YYSYMBOL_K_IMPORT = 58,                  /* K_IMPORT  */
  YYSYMBOL_K_IF = 59,                      /* K_IF  */
  YYSYMBOL_T_IF = 60,                      /* T_IF  */
  YYSYMBOL_T_ELSEIF = 61,                  /* T_ELSEIF  */
  YYSYMBOL_T_ELSE = 62,                    /* T_ELSE  */
  YYSYMBOL_T_ENDIF = 63,                   /* T_ENDIF  */
  YYSYMBOL_T_FOR = 64,                     /* T_FOR  */
  YYSYMBOL_T_ENDFOR = 65,                  /* T_ENDFOR  */
  YYSYMBOL_T_SET = 66,                     /* T_SET  */
  YYSYMBOL_T_ENDSET = 67,                  /* T_ENDSET  */
  YYSYMBOL_T_BLOCK = 68,                   /* T_BLOCK  */
  YYSYMBOL_T_ENDBLOCK = 69,                /* T_ENDBLOCK  */
  YYSYMBOL_T_EXTENDS = 70,                 /* T_EXTENDS  */
  YYSYMBOL_T_INCLUDE = 71,                 /* T_INCLUDE  */
  YYSYMBOL_T_EMBED = 72,                   /* T_EMBED  */
  YYSYMBOL_T_ENDEMBED = 73,                /* T_ENDEMBED  */
  YYSYMBOL_T_USE = 74,                     /* T_USE  */
  YYSYMBOL_T_MACRO = 75,                   /* T_MACRO  */
  YYSYMBOL_T_ENDMACRO = 76,                /* T_ENDMACRO  */
  YYSYMBOL_T_IMPORT = 77,                  /* T_IMPORT  */
  YYSYMBOL_T_FROM = 78,                    /* T_FROM  */
  YYSYMBOL_T_APPLY = 79,                   /* T_APPLY  */
  YYSYMBOL_T_ENDAPPLY = 80,                /* T_ENDAPPLY  */
  YYSYMBOL_T_SPACELESS = 81,               /* T_SPACELESS  */
  YYSYMBOL_T_ENDSPACELESS = 82,            /* T_ENDSPACELESS  */
  YYSYMBOL_T_FILTER = 83,                  /* T_FILTER  */
  YYSYMBOL_T_ENDFILTER = 84,               /* T_ENDFILTER  */
  YYSYMBOL_T_AUTOESCAPE = 85,              /* T_AUTOESCAPE  */
  YYSYMBOL_T_ENDAUTOESCAPE = 86,           /* T_ENDAUTOESCAPE  */
  YYSYMBOL_T_WITH = 87,                    /* T_WITH  */
  YYSYMBOL_T_ENDWITH = 88,                 /* T_ENDWITH  */
  YYSYMBOL_T_DO = 89,                      /* T_DO  */
  YYSYMBOL_T_FLUSH = 90,                   /* T_FLUSH  */
  YYSYMBOL_T_DEPRECATED = 91,              /* T_DEPRECATED  */
  YYSYMBOL_T_UNKNOWN = 92,                 /* T_UNKNOWN  */
  YYSYMBOL_93_ = 93,                       /* '('  */
  YYSYMBOL_94_ = 94,                       /* ')'  */
  YYSYMBOL_95_ = 95,                       /* '['  */
  YYSYMBOL_96_ = 96,                       /* ']'  */
  YYSYMBOL_97_ = 97,                       /* '{'  */
  YYSYMBOL_98_ = 98,                       /* '}'  */
  YYSYMBOL_99_ = 99,                       /* '?'  */
  YYSYMBOL_100_ = 100,                     /* ':'  */
  YYSYMBOL_101_ = 101,                     /* '.'  */
  YYSYMBOL_102_ = 102,                     /* ','  */
  YYSYMBOL_103_ = 103,                     /* '|'  */
  YYSYMBOL_UMINUS = 104,                   /* UMINUS  */
  YYSYMBOL_YYACCEPT = 105,                 /* $accept  */
  YYSYMBOL_template = 106,                 /* template  */
  YYSYMBOL_body = 107,                     /* body  */
  YYSYMBOL_stmt = 108,                     /* stmt  */
  YYSYMBOL_tag = 109,                      /* tag  */
  YYSYMBOL_110_1 = 110,                    /* $@1  */
  YYSYMBOL_111_2 = 111,                    /* $@2  */
  YYSYMBOL_112_3 = 112,                    /* $@3  */
  YYSYMBOL_113_4 = 113,                    /* $@4  */
  YYSYMBOL_114_5 = 114,                    /* $@5  */
  YYSYMBOL_115_6 = 115,                    /* $@6  */
  YYSYMBOL_116_7 = 116,                    /* $@7  */
  YYSYMBOL_117_8 = 117,                    /* $@8  */
  YYSYMBOL_118_9 = 118,                    /* $@9  */
  YYSYMBOL_119_10 = 119,                   /* $@10  */
  YYSYMBOL_120_11 = 120,                   /* $@11  */
  YYSYMBOL_121_12 = 121,                   /* $@12  */
  YYSYMBOL_122_13 = 122,                   /* $@13  */
  YYSYMBOL_elifs = 123,                    /* elifs  */
  YYSYMBOL_else_part = 124,                /* else_part  */
  YYSYMBOL_for_targets = 125,              /* for_targets  */
  YYSYMBOL_for_if = 126,                   /* for_if  */
  YYSYMBOL_for_else = 127,                 /* for_else  */
  YYSYMBOL_set_targets = 128,              /* set_targets  */
  YYSYMBOL_opt_endname = 129,              /* opt_endname  */
  YYSYMBOL_incl_ignore = 130,              /* incl_ignore  */
  YYSYMBOL_incl_with = 131,                /* incl_with  */
  YYSYMBOL_incl_only = 132,                /* incl_only  */
  YYSYMBOL_use_list = 133,                 /* use_list  */
  YYSYMBOL_use_item = 134,                 /* use_item  */
  YYSYMBOL_from_list = 135,                /* from_list  */
  YYSYMBOL_from_item = 136,                /* from_item  */
  YYSYMBOL_mparams = 137,                  /* mparams  */
  YYSYMBOL_mparam_list = 138,              /* mparam_list  */
  YYSYMBOL_mparam = 139,                   /* mparam  */
  YYSYMBOL_filter_chain = 140,             /* filter_chain  */
  YYSYMBOL_filter_app = 141,               /* filter_app  */
  YYSYMBOL_expr_list = 142,                /* expr_list  */
  YYSYMBOL_expr = 143,                     /* expr  */
  YYSYMBOL_test = 144,                     /* test  */
  YYSYMBOL_test_arg = 145,                 /* test_arg  */
  YYSYMBOL_postfix = 146,                  /* postfix  */
  YYSYMBOL_primary = 147,                  /* primary  */
  YYSYMBOL_string = 148,                   /* string  */
  YYSYMBOL_interp_parts = 149,             /* interp_parts  */
  YYSYMBOL_interp_part = 150,              /* interp_part  */
  YYSYMBOL_array = 151,                    /* array  */
  YYSYMBOL_array_items = 152,              /* array_items  */
  YYSYMBOL_hash = 153,                     /* hash  */
  YYSYMBOL_hash_items = 154,               /* hash_items  */
  YYSYMBOL_hash_list = 155,                /* hash_list  */
  YYSYMBOL_args = 156,                     /* args  */
  YYSYMBOL_arg_list = 157,                 /* arg_list  */
  YYSYMBOL_arrow = 158,                    /* arrow  */
  YYSYMBOL_arrow_params = 159              /* arrow_params  */
};
typedef enum yysymbol_kind_t yysymbol_kind_t;



/* Unqualified %code blocks.  */

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


#ifdef short
# undef short
#endif

/* On compilers that do not define __PTRDIFF_MAX__ etc., make sure
   <limits.h> and (if available) <stdint.h> are included
   so that the code can choose integer types of a good width.  */

#ifndef __PTRDIFF_MAX__
# include <limits.h> /* INFRINGES ON USER NAME SPACE */
# if defined __STDC_VERSION__ && 199901 <= __STDC_VERSION__
#  include <stdint.h> /* INFRINGES ON USER NAME SPACE */
#  define YY_STDINT_H
# endif
#endif

/* Narrow types that promote to a signed type and that can represent a
   signed or unsigned integer of at least N bits.  In tables they can
   save space and decrease cache pressure.  Promoting to a signed type
   helps avoid bugs in integer arithmetic.  */

#ifdef __INT_LEAST8_MAX__
typedef __INT_LEAST8_TYPE__ yytype_int8;
#elif defined YY_STDINT_H
typedef int_least8_t yytype_int8;
#else
typedef signed char yytype_int8;
#endif

#ifdef __INT_LEAST16_MAX__
typedef __INT_LEAST16_TYPE__ yytype_int16;
#elif defined YY_STDINT_H
typedef int_least16_t yytype_int16;
#else
typedef short yytype_int16;
#endif

/* Work around bug in HP-UX 11.23, which defines these macros
   incorrectly for preprocessor constants.  This workaround can likely
   be removed in 2023, as HPE has promised support for HP-UX 11.23
   (aka HP-UX 11i v2) only through the end of 2022; see Table 2 of
   <https://h20195.www2.hpe.com/V2/getpdf.aspx/4AA4-7673ENW.pdf>.  */
#ifdef __hpux
# undef UINT_LEAST8_MAX
# undef UINT_LEAST16_MAX
# define UINT_LEAST8_MAX 255
# define UINT_LEAST16_MAX 65535
#endif

#if defined __UINT_LEAST8_MAX__ && __UINT_LEAST8_MAX__ <= __INT_MAX__
typedef __UINT_LEAST8_TYPE__ yytype_uint8;
#elif (!defined __UINT_LEAST8_MAX__ && defined YY_STDINT_H \
       && UINT_LEAST8_MAX <= INT_MAX)
typedef uint_least8_t yytype_uint8;
#elif !defined __UINT_LEAST8_MAX__ && UCHAR_MAX <= INT_MAX
typedef unsigned char yytype_uint8;
#else
typedef short yytype_uint8;
#endif

#if defined __UINT_LEAST16_MAX__ && __UINT_LEAST16_MAX__ <= __INT_MAX__
typedef __UINT_LEAST16_TYPE__ yytype_uint16;
#elif (!defined __UINT_LEAST16_MAX__ && defined YY_STDINT_H \
       && UINT_LEAST16_MAX <= INT_MAX)
typedef uint_least16_t yytype_uint16;
#elif !defined __UINT_LEAST16_MAX__ && USHRT_MAX <= INT_MAX
typedef unsigned short yytype_uint16;
#else
typedef int yytype_uint16;
#endif

#ifndef YYPTRDIFF_T
# if defined __PTRDIFF_TYPE__ && defined __PTRDIFF_MAX__
#  define YYPTRDIFF_T __PTRDIFF_TYPE__
#  define YYPTRDIFF_MAXIMUM __PTRDIFF_MAX__
# elif defined PTRDIFF_MAX
#  ifndef ptrdiff_t
#   include <stddef.h> /* INFRINGES ON USER NAME SPACE */
#  endif
#  define YYPTRDIFF_T ptrdiff_t
#  define YYPTRDIFF_MAXIMUM PTRDIFF_MAX
# else
#  define YYPTRDIFF_T long
#  define YYPTRDIFF_MAXIMUM LONG_MAX
# endif
#endif

#ifndef YYSIZE_T
# ifdef __SIZE_TYPE__
#  define YYSIZE_T __SIZE_TYPE__
# elif defined size_t
#  define YYSIZE_T size_t
# elif defined __STDC_VERSION__ && 199901 <= __STDC_VERSION__
#  include <stddef.h> /* INFRINGES ON USER NAME SPACE */
#  define YYSIZE_T size_t
# else
#  define YYSIZE_T unsigned
# endif
#endif

#define YYSIZE_MAXIMUM                                  \
  YY_CAST (YYPTRDIFF_T,                                 \
           (YYPTRDIFF_MAXIMUM < YY_CAST (YYSIZE_T, -1)  \
            ? YYPTRDIFF_MAXIMUM                         \
            : YY_CAST (YYSIZE_T, -1)))

#define YYSIZEOF(X) YY_CAST (YYPTRDIFF_T, sizeof (X))


/* Stored state numbers (used for stacks). */
typedef yytype_int16 yy_state_t;

/* State numbers in computations.  */
typedef int yy_state_fast_t;

#ifndef YY_
# if defined YYENABLE_NLS && YYENABLE_NLS
#  if ENABLE_NLS
#   include <libintl.h> /* INFRINGES ON USER NAME SPACE */
#   define YY_(Msgid) dgettext ("bison-runtime", Msgid)
#  endif
# endif
# ifndef YY_
#  define YY_(Msgid) Msgid
# endif
#endif


#ifndef YY_ATTRIBUTE_PURE
# if defined __GNUC__ && 2 < __GNUC__ + (96 <= __GNUC_MINOR__)
#  define YY_ATTRIBUTE_PURE __attribute__ ((__pure__))
# else
#  define YY_ATTRIBUTE_PURE
# endif
#endif

#ifndef YY_ATTRIBUTE_UNUSED
# if defined __GNUC__ && 2 < __GNUC__ + (7 <= __GNUC_MINOR__)
#  define YY_ATTRIBUTE_UNUSED __attribute__ ((__unused__))
# else
#  define YY_ATTRIBUTE_UNUSED
# endif
#endif

/* Suppress unused-variable warnings by "using" E.  */
#if ! defined lint || defined __GNUC__
# define YY_USE(E) ((void) (E))
#else
# define YY_USE(E) /* empty */
#endif

/* Suppress an incorrect diagnostic about yylval being uninitialized.  */
#if defined __GNUC__ && ! defined __ICC && 406 <= __GNUC__ * 100 + __GNUC_MINOR__
# if __GNUC__ * 100 + __GNUC_MINOR__ < 407
#  define YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN                           \
    _Pragma ("GCC diagnostic push")                                     \
    _Pragma ("GCC diagnostic ignored \"-Wuninitialized\"")
# else
#  define YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN                           \
    _Pragma ("GCC diagnostic push")                                     \
    _Pragma ("GCC diagnostic ignored \"-Wuninitialized\"")              \
    _Pragma ("GCC diagnostic ignored \"-Wmaybe-uninitialized\"")
# endif
# define YY_IGNORE_MAYBE_UNINITIALIZED_END      \
    _Pragma ("GCC diagnostic pop")
#else
# define YY_INITIAL_VALUE(Value) Value
#endif
#ifndef YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
# define YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
# define YY_IGNORE_MAYBE_UNINITIALIZED_END
#endif
#ifndef YY_INITIAL_VALUE
# define YY_INITIAL_VALUE(Value) /* Nothing. */
#endif

#if defined __cplusplus && defined __GNUC__ && ! defined __ICC && 6 <= __GNUC__
# define YY_IGNORE_USELESS_CAST_BEGIN                          \
    _Pragma ("GCC diagnostic push")                            \
    _Pragma ("GCC diagnostic ignored \"-Wuseless-cast\"")
# define YY_IGNORE_USELESS_CAST_END            \
    _Pragma ("GCC diagnostic pop")
#endif
#ifndef YY_IGNORE_USELESS_CAST_BEGIN
# define YY_IGNORE_USELESS_CAST_BEGIN
# define YY_IGNORE_USELESS_CAST_END
#endif


#define YY_ASSERT(E) ((void) (0 && (E)))

#if 1

/* The parser invokes alloca or malloc; define the necessary symbols.  */

# ifdef YYSTACK_ALLOC
   /* Pacify GCC's 'empty if-body' warning.  */
#  define YYSTACK_FREE(Ptr) do { /* empty */; } while (0)
#  ifndef YYSTACK_ALLOC_MAXIMUM
    /* The OS might guarantee only one guard page at the bottom of the stack,
       and a page size can be as small as 4096 bytes.  So we cannot safely
       invoke alloca (N) if N exceeds 4096.  Use a slightly smaller number
       to allow for a few compiler-allocated temporary stack slots.  */
#   define YYSTACK_ALLOC_MAXIMUM 4032 /* reasonable circa 2006 */
#  endif
# else
#  define YYSTACK_ALLOC YYMALLOC
#  define YYSTACK_FREE YYFREE
#  ifndef YYSTACK_ALLOC_MAXIMUM
#   define YYSTACK_ALLOC_MAXIMUM YYSIZE_MAXIMUM
#  endif
#  if (defined __cplusplus && ! defined EXIT_SUCCESS \
       && ! ((defined YYMALLOC || defined malloc) \
             && (defined YYFREE || defined free)))
#   include <stdlib.h> /* INFRINGES ON USER NAME SPACE */
#   ifndef EXIT_SUCCESS
#    define EXIT_SUCCESS 0
#   endif
#  endif
#  ifndef YYMALLOC
#   define YYMALLOC malloc
#   if ! defined malloc && ! defined EXIT_SUCCESS
void *malloc (YYSIZE_T); /* INFRINGES ON USER NAME SPACE */
#   endif
#  endif
#  ifndef YYFREE
#   define YYFREE free
#   if ! defined free && ! defined EXIT_SUCCESS
void free (void *); /* INFRINGES ON USER NAME SPACE */
#   endif
#  endif
# endif
# define YYCOPY_NEEDED 1
#endif /* 1 */

#if (! defined yyoverflow \
     && (! defined __cplusplus \
         || (defined TPL_YYLTYPE_IS_TRIVIAL && TPL_YYLTYPE_IS_TRIVIAL \
             && defined TPL_YYSTYPE_IS_TRIVIAL && TPL_YYSTYPE_IS_TRIVIAL)))

/* A type that is properly aligned for any stack member.  */
union yyalloc
{
  yy_state_t yyss_alloc;
  YYSTYPE yyvs_alloc;
  YYLTYPE yyls_alloc;
};

/* The size of the maximum gap between one aligned stack and the next.  */
# define YYSTACK_GAP_MAXIMUM (YYSIZEOF (union yyalloc) - 1)

/* The size of an array large to enough to hold all stacks, each with
   N elements.  */
# define YYSTACK_BYTES(N) \
     ((N) * (YYSIZEOF (yy_state_t) + YYSIZEOF (YYSTYPE) \
             + YYSIZEOF (YYLTYPE)) \
      + 2 * YYSTACK_GAP_MAXIMUM)

# define YYCOPY_NEEDED 1

/* Relocate STACK from its old location to the new one.  The
   local variables YYSIZE and YYSTACKSIZE give the old and new number of
   elements in the stack, and YYPTR gives the new location of the
   stack.  Advance YYPTR to a properly aligned location for the next
   stack.  */
# define YYSTACK_RELOCATE(Stack_alloc, Stack)                           \
    do                                                                  \
      {                                                                 \
        YYPTRDIFF_T yynewbytes;                                         \
        YYCOPY (&yyptr->Stack_alloc, Stack, yysize);                    \
        Stack = &yyptr->Stack_alloc;                                    \
        yynewbytes = yystacksize * YYSIZEOF (*Stack) + YYSTACK_GAP_MAXIMUM; \
        yyptr += yynewbytes / YYSIZEOF (*yyptr);                        \
      }                                                                 \
    while (0)

#endif

#if defined YYCOPY_NEEDED && YYCOPY_NEEDED
/* Copy COUNT objects from SRC to DST.  The source and destination do
   not overlap.  */
# ifndef YYCOPY
#  if defined __GNUC__ && 1 < __GNUC__
#   define YYCOPY(Dst, Src, Count) \
      __builtin_memcpy (Dst, Src, YY_CAST (YYSIZE_T, (Count)) * sizeof (*(Src)))
#  else
#   define YYCOPY(Dst, Src, Count)              \
      do                                        \
        {                                       \
          YYPTRDIFF_T yyi;                      \
          for (yyi = 0; yyi < (Count); yyi++)   \
            (Dst)[yyi] = (Src)[yyi];            \
        }                                       \
      while (0)
#  endif
# endif
#endif /* !YYCOPY_NEEDED */

/* YYFINAL -- State number of the termination state.  */
#define YYFINAL  3
/* YYLAST -- Last index in YYTABLE.  */
#define YYLAST   2141

/* YYNTOKENS -- Number of terminals.  */
#define YYNTOKENS  105
/* YYNNTS -- Number of nonterminals.  */
#define YYNNTS  55
/* YYNRULES -- Number of rules.  */
#define YYNRULES  187
/* YYNSTATES -- Number of states.  */
#define YYNSTATES  395

/* YYMAXUTOK -- Last valid token kind.  */
#define YYMAXUTOK   348


/* YYTRANSLATE(TOKEN-NUM) -- Symbol number corresponding to TOKEN-NUM
   as returned by yylex, with out-of-bounds checking.  */
#define YYTRANSLATE(YYX)                                \
  (0 <= (YYX) && (YYX) <= YYMAXUTOK                     \
   ? YY_CAST (yysymbol_kind_t, yytranslate[YYX])        \
   : YYSYMBOL_YYUNDEF)

/* YYTRANSLATE[TOKEN-NUM] -- Symbol number corresponding to TOKEN-NUM
   as returned by yylex.  */
static const yytype_int8 yytranslate[] =
{
       0,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
      93,    94,     2,     2,   102,     2,   101,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,   100,     2,
       2,     2,     2,    99,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,    95,     2,    96,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,    97,   103,    98,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     1,     2,     3,     4,
       5,     6,     7,     8,     9,    10,    11,    12,    13,    14,
      15,    16,    17,    18,    19,    20,    21,    22,    23,    24,
      25,    26,    27,    28,    29,    30,    31,    32,    33,    34,
      35,    36,    37,    38,    39,    40,    41,    42,    43,    44,
      45,    46,    47,    48,    49,    50,    51,    52,    53,    54,
      55,    56,    57,    58,    59,    60,    61,    62,    63,    64,
      65,    66,    67,    68,    69,    70,    71,    72,    73,    74,
      75,    76,    77,    78,    79,    80,    81,    82,    83,    84,
      85,    86,    87,    88,    89,    90,    91,    92,   104
};

#if TPL_YYDEBUG
/* YYRLINE[YYN] -- Source line where rule number YYN was defined.  */
static const yytype_int16 yyrline[] =
{
       0,   263,   263,   267,   268,   272,   276,   280,   284,   284,
     296,   296,   313,   325,   325,   335,   335,   344,   354,   358,
     365,   364,   373,   377,   388,   388,   409,   415,   421,   421,
     426,   426,   431,   431,   436,   436,   443,   443,   450,   450,
     455,   455,   463,   467,   472,   476,   477,   485,   486,   490,
     494,   501,   502,   506,   507,   511,   515,   522,   523,   527,
     528,   532,   533,   537,   538,   542,   543,   547,   552,   560,
     561,   565,   570,   578,   579,   580,   584,   585,   589,   593,
     605,   609,   616,   620,   628,   629,   633,   634,   635,   636,
     637,   638,   639,   640,   641,   642,   643,   644,   645,   646,
     647,   648,   649,   650,   651,   652,   653,   654,   655,   656,
     657,   658,   659,   660,   661,   662,   663,   664,   665,   666,
     667,   673,   674,   679,   685,   690,   698,   702,   707,   717,
     718,   719,   723,   724,   731,   737,   745,   756,   762,   767,
     773,   778,   785,   786,   791,   792,   793,   794,   795,   799,
     800,   813,   814,   818,   819,   823,   830,   831,   832,   836,
     843,   844,   845,   849,   854,   861,   866,   871,   876,   881,
     888,   893,   898,   906,   907,   908,   912,   916,   920,   924,
     928,   929,   930,   934,   941,   948,   959,   965
};
#endif

/** Accessing symbol of state STATE.  */
#define YY_ACCESSING_SYMBOL(State) YY_CAST (yysymbol_kind_t, yystos[State])

#if 1
/* The user-facing name of the symbol whose (internal) number is
   YYSYMBOL.  No bounds checking.  */
static const char *yysymbol_name (yysymbol_kind_t yysymbol) YY_ATTRIBUTE_UNUSED;

static const char *
yysymbol_name (yysymbol_kind_t yysymbol)
{
  static const char *const yy_sname[] =
  {
  "end of file", "error", "invalid token", "TEXT", "VAR_START", "VAR_END",
  "BLOCK_END", "NAME", "NUMBER", "STRING", "DQ_OPEN", "DQ_CLOSE",
  "INTERP_START", "INTERP_END", "ARROW", "ARROW_PARAM", "ARROW_LPAREN",
  "ARG_NAME", "TEST_NAME", "TEST_NAME1", "OR", "AND", "BOR", "BXOR",
  "BAND", "EQ", "NE", "CMP", "LT", "GT", "GE", "LE", "NOT_IN", "IN",
  "MATCHES", "STARTS_WITH", "ENDS_WITH", "HAS_SOME", "HAS_EVERY", "RANGE",
  "PLUS", "MINUS", "TILDE", "MUL", "DIV", "FLOORDIV", "MOD", "IS",
  "IS_NOT", "POW", "NULLCOAL", "NOT", "ASSIGN", "K_AS", "K_WITH", "K_ONLY",
  "K_IGNORE", "K_MISSING", "K_IMPORT", "K_IF", "T_IF", "T_ELSEIF",
  "T_ELSE", "T_ENDIF", "T_FOR", "T_ENDFOR", "T_SET", "T_ENDSET", "T_BLOCK",
  "T_ENDBLOCK", "T_EXTENDS", "T_INCLUDE", "T_EMBED", "T_ENDEMBED", "T_USE",
  "T_MACRO", "T_ENDMACRO", "T_IMPORT", "T_FROM", "T_APPLY", "T_ENDAPPLY",
  "T_SPACELESS", "T_ENDSPACELESS", "T_FILTER", "T_ENDFILTER",
  "T_AUTOESCAPE", "T_ENDAUTOESCAPE", "T_WITH", "T_ENDWITH", "T_DO",
  "T_FLUSH", "T_DEPRECATED", "T_UNKNOWN", "'('", "')'", "'['", "']'",
  "'{'", "'}'", "'?'", "':'", "'.'", "','", "'|'", "UMINUS", "$accept",
  "template", "body", "stmt", "tag", "$@1", "$@2", "$@3", "$@4", "$@5",
  "$@6", "$@7", "$@8", "$@9", "$@10", "$@11", "$@12", "$@13", "elifs",
  "else_part", "for_targets", "for_if", "for_else", "set_targets",
  "opt_endname", "incl_ignore", "incl_with", "incl_only", "use_list",
  "use_item", "from_list", "from_item", "mparams", "mparam_list", "mparam",
  "filter_chain", "filter_app", "expr_list", "expr", "test", "test_arg",
  "postfix", "primary", "string", "interp_parts", "interp_part", "array",
  "array_items", "hash", "hash_items", "hash_list", "args", "arg_list",
  "arrow", "arrow_params", YY_NULLPTR
  };
  return yy_sname[yysymbol];
}
#endif

#define YYPACT_NINF (-197)

#define yypact_value_is_default(Yyn) \
  ((Yyn) == YYPACT_NINF)

#define YYTABLE_NINF (-1)

#define yytable_value_is_error(Yyn) \
  0

/* YYPACT[STATE-NUM] -- Index in YYTABLE of the portion describing
   STATE-NUM.  */
static const yytype_int16 yypact[] =
{
    -197,     9,  1457,  -197,  -197,   787,   787,    48,    51,    55,
     787,   787,   787,   787,    70,   787,   787,    74,    27,    74,
     223,   710,   787,   103,   787,  -197,  -197,   -72,  -197,  -197,
      41,   787,   787,   787,   787,   787,    30,   143,   -44,  -197,
    -197,  -197,  -197,   391,  -197,   -30,  -197,     8,   715,   436,
    1642,  1642,   346,    23,  1679,  1722,    38,    12,  -197,  -197,
      14,  -197,   481,  -197,  1761,   526,  -197,   571,   722,  -197,
     787,    52,  -197,  -197,  -197,   298,  1802,    31,  2042,    50,
      49,    62,    96,   787,    53,    97,  -197,   787,   787,   787,
     787,   787,   787,   787,   787,   787,   787,   787,   787,   787,
     787,   787,   787,   787,   760,   760,   787,   787,   787,   787,
     787,   787,   787,   787,    16,    16,   787,   787,   196,   217,
      66,    74,  -197,   787,   148,  -197,   787,   190,  -197,   616,
    -197,   141,   147,   147,  -197,   200,    15,   201,   202,   722,
    -197,    74,  -197,  -197,  -197,  -197,  -197,  -197,   205,  -197,
    -197,   198,   206,   162,  2042,   121,   115,  -197,  1450,  -197,
    -197,  -197,   787,  -197,   787,   787,   787,  1841,  -197,    33,
     933,  1609,  2079,  1349,  1320,   282,   282,   282,   282,   282,
     282,   282,   282,   282,   282,   282,   282,   282,  -197,   282,
    -197,   313,    95,    95,   298,    21,    21,    21,    21,   125,
      39,  -197,  -197,    26,   169,   787,  1561,   773,  1530,   127,
    -197,  -197,  -197,  1882,  -197,  -197,    17,  -197,  -197,  -197,
    -197,   787,   166,   166,   170,    18,  -197,  -197,   176,   128,
     132,  -197,   229,   185,    25,  -197,   145,  -197,  -197,   832,
    -197,   860,  -197,   949,  -197,   787,  -197,   -58,   760,  -197,
     737,  -197,  2042,  2042,  2042,  2042,   144,   146,   149,   150,
     787,   722,    39,    39,  -197,   -44,  2042,   787,  -197,  1922,
    -197,   782,   722,  1457,   787,   235,   981,  -197,   787,  1039,
    2042,   242,   245,   247,  -197,   200,   787,   246,    15,  -197,
     249,  -197,   202,  -197,  1071,   253,  1129,   254,  1161,   255,
    -197,  2042,   251,   263,  2042,  -197,   224,  2042,  -197,   787,
     787,   787,   787,  1962,   181,  -197,  -197,  2042,  -197,  -197,
    2002,   183,    68,  2042,  -197,   272,   273,  -197,  -197,  -197,
    -197,  2042,  -197,  -197,  -197,  -197,   277,  -197,   278,  -197,
     279,  -197,  1219,   787,  -197,   760,  2042,  2042,  2042,  2042,
     179,  -197,  -197,  -197,   787,   280,   225,  -197,  -197,  -197,
     281,  -197,  -197,  -197,  -197,  -197,   286,  2042,  2042,  -197,
     787,   661,  -197,   288,  1251,  -197,  1340,  1368,  -197,  2042,
    -197,  1457,  -197,   289,   232,   293,   273,  1457,  -197,   294,
    -197,   295,  1457,  -197,  -197
};

/* YYDEFACT[STATE-NUM] -- Default reduction number in state STATE-NUM.
   Performed when YYTABLE does not specify something else to do.  Zero
   means the default is an error.  */
static const yytype_uint8 yydefact[] =
{
       3,     0,     2,     1,     5,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     4,     7,   142,   144,   149,
       0,     0,     0,     0,     0,   156,   160,     0,    86,   132,
     145,   146,   147,     0,    49,     0,    55,     0,     0,     0,
      59,    59,     0,     0,     0,     0,    82,     0,    80,    32,
       0,    34,     0,    38,    63,     0,    44,     0,   173,   153,
       0,     0,   151,    89,    88,    87,     0,   157,    84,     0,
     164,     0,     0,     0,     0,   161,     6,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     8,     0,     0,    13,     0,     0,    15,     0,
      18,     0,    61,    61,    22,     0,    73,     0,     0,   173,
      28,     0,     3,    30,     3,    36,     3,    64,     0,    42,
      43,     0,     0,     0,   176,     0,   174,   177,     0,   150,
     152,   148,   158,   155,     0,     0,     0,     0,   159,   162,
      90,    91,    92,    93,    94,    95,    96,    97,    98,    99,
     100,   101,   102,   103,   104,   105,   106,   107,   109,   108,
     110,   111,   112,   113,   114,   115,   116,   117,   118,   126,
       0,   121,   122,   119,   120,     0,   124,     0,     0,   133,
     134,   141,     3,    51,    50,     3,     0,    56,     3,    17,
      60,     0,    63,    63,    67,     0,    65,    78,     0,     0,
      74,    76,     0,    71,     0,    69,     0,     3,    81,     0,
       3,     0,     3,     0,    40,     0,   186,     0,     0,   143,
     175,   154,    85,   163,   166,   165,     0,   169,     0,     0,
       0,   173,     0,     0,   128,   129,   125,     0,   140,     0,
     136,     0,   173,    45,     0,     0,     0,    12,     0,     0,
      62,     0,     0,     0,    23,     0,     0,     0,    75,    26,
       0,    27,     0,    83,     0,     0,     0,     0,     0,     0,
       3,   184,     0,     0,   178,   179,     0,   180,   181,     0,
       0,     0,     0,     0,     0,   131,   130,   123,   139,   138,
       0,     0,    47,    52,    10,     0,    57,    19,    20,    68,
      66,    79,    24,    77,    72,    70,     0,    33,     0,    35,
       0,    39,     0,     0,   187,     0,   167,   168,   171,   170,
       0,   127,   137,   135,     0,     0,     0,     3,    14,    58,
       0,     3,     3,    29,    31,    37,     0,   185,   182,   183,
       0,     0,     3,     0,    53,    16,     0,     0,    41,   172,
       3,    48,     9,     0,     0,     0,    57,    46,     3,     0,
      21,     0,    54,    11,    25
};

/* YYPGOTO[NTERM-NUM].  */
static const yytype_int16 yypgoto[] =
{
    -197,  -197,   -90,  -197,  -197,  -197,  -197,  -197,  -197,  -197,
    -197,  -197,  -197,  -197,  -197,  -197,  -197,  -197,  -197,  -197,
    -197,  -197,  -197,  -197,   -84,   252,   175,   -69,  -197,    24,
    -197,    19,  -197,  -197,    45,   296,   -96,   187,    -5,   204,
     -68,  -196,  -197,  -197,  -197,   264,  -197,  -197,  -197,  -197,
    -197,  -137,  -197,   -92,  -197
};

/* YYDEFGOTO[NTERM-NUM].  */
static const yytype_int16 yydefgoto[] =
{
       0,     1,     2,    25,    26,   212,   357,   215,   218,   361,
     362,   237,   240,   142,   144,   242,   146,   300,   322,   356,
      45,   275,   384,    47,   360,   132,   222,   148,   225,   226,
     234,   235,   229,   230,   231,    57,    58,    77,   154,   201,
     264,    38,    39,    40,    71,    72,    41,    79,    42,    84,
      85,   155,   156,   157,   247
};

/* YYTABLE[YYPACT[STATE-NUM]] -- What to do in state STATE-NUM.  If
   positive, shift that token.  If negative, reduce the rule whose
   number is the opposite.  If YYTABLE_NINF, syntax error.  */
static const yytype_int16 yytable[] =
{
      37,    43,   236,   123,   265,    49,    50,    51,    52,     3,
      54,    55,   188,   190,   125,    62,    64,    65,   140,    67,
     143,    68,   227,   277,   284,   211,    73,    74,    75,    76,
      78,   291,   228,    59,   199,   200,   302,    80,    81,    82,
     257,   258,   259,   129,   303,   238,    27,    28,    29,    30,
      69,   119,   239,    70,   241,    44,   243,   120,    46,   121,
     126,    69,    48,   159,    70,   158,   265,   265,   114,   115,
     116,   117,   124,   209,   210,   116,   117,    53,   167,   262,
     263,    56,   170,   171,   172,   173,   174,   175,   176,   177,
     178,   179,   180,   181,   182,   183,   184,   185,   186,   187,
     189,   191,   192,   193,   194,   195,   196,   197,   198,    66,
     127,   203,   204,   206,   208,   141,   136,   141,   213,   278,
     285,    78,   273,    83,   314,   276,   260,   292,   279,   354,
     355,   139,    34,   162,    35,   321,    36,   109,   110,   111,
     112,   113,   114,   115,   116,   117,   163,   294,    86,   164,
     296,   168,   298,   281,   282,   214,   305,   252,   308,   253,
     254,   255,   165,    87,    88,    89,    90,    91,    92,    93,
      94,    95,    96,    97,    98,    99,   100,   101,   102,   103,
     104,   105,   106,   107,   108,   109,   110,   111,   112,   113,
     114,   115,   116,   117,   315,   316,   166,   217,   220,   169,
     266,   221,   269,    27,    28,    29,    30,   224,   232,   233,
     342,   244,   245,   246,   248,   249,   280,   250,   261,   117,
     272,   147,   287,   283,    27,    28,    29,    30,   286,    61,
      27,    28,    29,    30,   288,   289,    31,    32,   290,   293,
     301,   324,   118,   304,   309,   307,   310,    33,   327,   311,
     312,   328,   332,   369,   329,   313,   334,    31,    32,   337,
     339,   341,   317,    31,    32,   343,   320,   374,    33,   323,
     344,   376,   377,   252,    33,   351,   345,   353,   358,   370,
     359,   331,   381,   363,   364,   365,   372,   375,   373,    34,
     387,    35,   378,    36,   382,   388,   205,   389,   392,   390,
     393,   394,   391,   133,   346,   347,   348,   349,   223,   330,
      34,   335,    35,   216,    36,    60,    34,   207,    35,   202,
      36,   106,   107,   108,   109,   110,   111,   112,   113,   114,
     115,   116,   117,   333,     0,   160,     0,     0,   367,     0,
     368,   110,   111,   112,   113,   114,   115,   116,   117,   371,
       0,     0,   134,   107,   108,   109,   110,   111,   112,   113,
     114,   115,   116,   117,     0,   379,    87,    88,    89,    90,
      91,    92,    93,    94,    95,    96,    97,    98,    99,   100,
     101,   102,   103,   104,   105,   106,   107,   108,   109,   110,
     111,   112,   113,   114,   115,   116,   117,   122,     0,     0,
     135,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,    87,    88,    89,    90,    91,    92,    93,    94,    95,
      96,    97,    98,    99,   100,   101,   102,   103,   104,   105,
     106,   107,   108,   109,   110,   111,   112,   113,   114,   115,
     116,   117,   130,     0,     0,   118,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,    87,    88,    89,    90,
      91,    92,    93,    94,    95,    96,    97,    98,    99,   100,
     101,   102,   103,   104,   105,   106,   107,   108,   109,   110,
     111,   112,   113,   114,   115,   116,   117,   145,     0,     0,
     118,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,    87,    88,    89,    90,    91,    92,    93,    94,    95,
      96,    97,    98,    99,   100,   101,   102,   103,   104,   105,
     106,   107,   108,   109,   110,   111,   112,   113,   114,   115,
     116,   117,   149,     0,     0,   118,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,    87,    88,    89,    90,
      91,    92,    93,    94,    95,    96,    97,    98,    99,   100,
     101,   102,   103,   104,   105,   106,   107,   108,   109,   110,
     111,   112,   113,   114,   115,   116,   117,   150,     0,     0,
     118,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,    87,    88,    89,    90,    91,    92,    93,    94,    95,
      96,    97,    98,    99,   100,   101,   102,   103,   104,   105,
     106,   107,   108,   109,   110,   111,   112,   113,   114,   115,
     116,   117,   219,     0,     0,   118,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,    87,    88,    89,    90,
      91,    92,    93,    94,    95,    96,    97,    98,    99,   100,
     101,   102,   103,   104,   105,   106,   107,   108,   109,   110,
     111,   112,   113,   114,   115,   116,   117,   380,     0,     0,
     118,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,    87,    88,    89,    90,    91,    92,    93,    94,    95,
      96,    97,    98,    99,   100,   101,   102,   103,   104,   105,
     106,   107,   108,   109,   110,   111,   112,   113,   114,   115,
     116,   117,     0,     0,     0,   118,    63,    27,    28,    29,
      30,   128,    27,    28,    29,    30,     0,     0,     0,    27,
      28,    29,    30,     0,     0,     0,     0,   151,   152,   153,
       0,     0,     0,     0,    27,    28,    29,    30,     0,     0,
      31,    32,   151,   152,   306,    31,    32,     0,     0,     0,
     118,    33,    31,    32,     0,     0,    33,    27,    28,    29,
      30,     0,     0,    33,     0,   151,   152,    31,    32,     0,
      27,    28,    29,    30,     0,     0,     0,     0,    33,    27,
      28,    29,    30,     0,    27,    28,    29,    30,     0,     0,
      31,    32,     0,    34,     0,    35,     0,    36,    34,     0,
      35,    33,    36,    31,    32,    34,     0,    35,     0,    36,
       0,     0,    31,    32,    33,     0,     0,    31,    32,     0,
      34,     0,    35,    33,    36,     4,     5,     0,    33,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     0,    34,     0,    35,     0,    36,     0,     0,
       0,     0,     0,     4,     5,     0,    34,     0,    35,   268,
      36,     0,     0,     0,     0,    34,     0,    35,   319,    36,
      34,     0,    35,     0,    36,     0,     0,     0,     0,     0,
       0,     0,     6,     0,     0,     0,     7,     0,     8,     0,
       9,     0,    10,    11,    12,     0,    13,    14,     0,    15,
      16,    17,     0,    18,   295,    19,     0,    20,     0,    21,
       6,    22,    23,    24,     7,     0,     8,     0,     9,     0,
      10,    11,    12,     0,    13,    14,     0,    15,    16,    17,
       0,    18,     0,    19,     0,    20,   297,    21,     0,    22,
      23,    24,     4,     5,    88,    89,    90,    91,    92,    93,
      94,    95,    96,    97,    98,    99,   100,   101,   102,   103,
     104,   105,   106,   107,   108,   109,   110,   111,   112,   113,
     114,   115,   116,   117,     4,     5,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     6,
       0,     0,     0,     7,     0,     8,     0,     9,     0,    10,
      11,    12,     0,    13,    14,     0,    15,    16,    17,     0,
      18,     0,    19,     0,    20,     0,    21,   299,    22,    23,
      24,     6,     4,     5,     0,     7,     0,     8,   325,     9,
       0,    10,    11,    12,     0,    13,    14,     0,    15,    16,
      17,     0,    18,     0,    19,     0,    20,     0,    21,     0,
      22,    23,    24,     0,     4,     5,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     6,
       0,     0,     0,     7,     0,     8,     0,     9,   326,    10,
      11,    12,     0,    13,    14,     0,    15,    16,    17,     0,
      18,     0,    19,     0,    20,     0,    21,     0,    22,    23,
      24,     6,     4,     5,     0,     7,     0,     8,     0,     9,
       0,    10,    11,    12,     0,    13,    14,     0,    15,    16,
      17,   336,    18,     0,    19,     0,    20,     0,    21,     0,
      22,    23,    24,     0,     4,     5,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     6,
       0,     0,     0,     7,     0,     8,     0,     9,     0,    10,
      11,    12,     0,    13,    14,     0,    15,    16,    17,     0,
      18,     0,    19,   338,    20,     0,    21,     0,    22,    23,
      24,     6,     4,     5,     0,     7,     0,     8,     0,     9,
       0,    10,    11,    12,     0,    13,    14,     0,    15,    16,
      17,     0,    18,     0,    19,     0,    20,   340,    21,     0,
      22,    23,    24,     0,     4,     5,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     6,
       0,     0,     0,     7,     0,     8,     0,     9,     0,    10,
      11,    12,     0,    13,    14,     0,    15,    16,    17,     0,
      18,     0,    19,     0,    20,     0,    21,   366,    22,    23,
      24,     6,     0,   383,     0,     7,     0,     8,     0,     9,
       0,    10,    11,    12,     0,    13,    14,     0,    15,    16,
      17,     0,    18,     0,    19,     0,    20,     0,    21,     0,
      22,    23,    24,     4,     5,    92,    93,    94,    95,    96,
      97,    98,    99,   100,   101,   102,   103,   104,   105,   106,
     107,   108,   109,   110,   111,   112,   113,   114,   115,   116,
     117,     4,     5,    91,    92,    93,    94,    95,    96,    97,
      98,    99,   100,   101,   102,   103,   104,   105,   106,   107,
     108,   109,   110,   111,   112,   113,   114,   115,   116,   117,
       6,     0,     0,     0,     7,     0,     8,     0,     9,     0,
      10,    11,    12,   385,    13,    14,     0,    15,    16,    17,
       0,    18,     0,    19,     0,    20,     0,    21,     6,    22,
      23,    24,     7,     0,     8,     0,     9,     0,    10,    11,
      12,     0,    13,    14,   386,    15,    16,    17,     0,    18,
       0,    19,     0,    20,     0,    21,     0,    22,    23,    24,
       4,     5,     0,   251,     0,     0,     0,     0,     0,     0,
      87,    88,    89,    90,    91,    92,    93,    94,    95,    96,
      97,    98,    99,   100,   101,   102,   103,   104,   105,   106,
     107,   108,   109,   110,   111,   112,   113,   114,   115,   116,
     117,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     6,     0,     0,
       0,     7,     0,     8,     0,     9,     0,    10,    11,    12,
       0,    13,    14,     0,    15,    16,    17,     0,    18,     0,
      19,     0,    20,     0,    21,     0,    22,    23,    24,   118,
      87,    88,    89,    90,    91,    92,    93,    94,    95,    96,
      97,    98,    99,   100,   101,   102,   103,   104,   105,   106,
     107,   108,   109,   110,   111,   112,   113,   114,   115,   116,
     117,    87,    88,    89,    90,    91,    92,    93,    94,    95,
      96,    97,    98,    99,   100,   101,   102,   103,   104,   105,
     106,   107,   108,   109,   110,   111,   112,   113,   114,   115,
     116,   117,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,   270,     0,     0,   118,
     271,    89,    90,    91,    92,    93,    94,    95,    96,    97,
      98,    99,   100,   101,   102,   103,   104,   105,   106,   107,
     108,   109,   110,   111,   112,   113,   114,   115,   116,   117,
     118,   267,    87,    88,    89,    90,    91,    92,    93,    94,
      95,    96,    97,    98,    99,   100,   101,   102,   103,   104,
     105,   106,   107,   108,   109,   110,   111,   112,   113,   114,
     115,   116,   117,     0,     0,     0,     0,     0,   131,    87,
      88,    89,    90,    91,    92,    93,    94,    95,    96,    97,
      98,    99,   100,   101,   102,   103,   104,   105,   106,   107,
     108,   109,   110,   111,   112,   113,   114,   115,   116,   117,
       0,     0,   137,     0,     0,     0,     0,     0,     0,     0,
       0,   118,    87,    88,    89,    90,    91,    92,    93,    94,
      95,    96,    97,    98,    99,   100,   101,   102,   103,   104,
     105,   106,   107,   108,   109,   110,   111,   112,   113,   114,
     115,   116,   117,     0,     0,     0,     0,     0,   118,     0,
     138,    87,    88,    89,    90,    91,    92,    93,    94,    95,
      96,    97,    98,    99,   100,   101,   102,   103,   104,   105,
     106,   107,   108,   109,   110,   111,   112,   113,   114,   115,
     116,   117,     0,     0,     0,     0,   147,     0,     0,     0,
       0,   118,    87,    88,    89,    90,    91,    92,    93,    94,
      95,    96,    97,    98,    99,   100,   101,   102,   103,   104,
     105,   106,   107,   108,   109,   110,   111,   112,   113,   114,
     115,   116,   117,     0,     0,     0,     0,     0,     0,     0,
     118,    87,    88,    89,    90,    91,    92,    93,    94,    95,
      96,    97,    98,    99,   100,   101,   102,   103,   104,   105,
     106,   107,   108,   109,   110,   111,   112,   113,   114,   115,
     116,   117,     0,     0,     0,     0,   161,     0,     0,     0,
       0,   118,    87,    88,    89,    90,    91,    92,    93,    94,
      95,    96,    97,    98,    99,   100,   101,   102,   103,   104,
     105,   106,   107,   108,   109,   110,   111,   112,   113,   114,
     115,   116,   117,     0,     0,   256,     0,     0,     0,     0,
     118,   274,    87,    88,    89,    90,    91,    92,    93,    94,
      95,    96,    97,    98,    99,   100,   101,   102,   103,   104,
     105,   106,   107,   108,   109,   110,   111,   112,   113,   114,
     115,   116,   117,     0,     0,     0,     0,     0,     0,     0,
       0,   118,    87,    88,    89,    90,    91,    92,    93,    94,
      95,    96,    97,    98,    99,   100,   101,   102,   103,   104,
     105,   106,   107,   108,   109,   110,   111,   112,   113,   114,
     115,   116,   117,     0,     0,     0,     0,     0,   318,     0,
       0,   118,    87,    88,    89,    90,    91,    92,    93,    94,
      95,    96,    97,    98,    99,   100,   101,   102,   103,   104,
     105,   106,   107,   108,   109,   110,   111,   112,   113,   114,
     115,   116,   117,     0,     0,     0,   350,     0,     0,     0,
       0,   118,    87,    88,    89,    90,    91,    92,    93,    94,
      95,    96,    97,    98,    99,   100,   101,   102,   103,   104,
     105,   106,   107,   108,   109,   110,   111,   112,   113,   114,
     115,   116,   117,     0,     0,     0,     0,     0,   352,     0,
       0,   118,    90,    91,    92,    93,    94,    95,    96,    97,
      98,    99,   100,   101,   102,   103,   104,   105,   106,   107,
     108,   109,   110,   111,   112,   113,   114,   115,   116,   117,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,   118
};

static const yytype_int16 yycheck[] =
{
       5,     6,   139,    33,   200,    10,    11,    12,    13,     0,
      15,    16,   104,   105,     6,    20,    21,    22,     6,    24,
       6,    93,     7,     6,     6,   121,    31,    32,    33,    34,
      35,     6,    17,     6,    18,    19,    94,     7,     8,     9,
       7,     8,     9,    48,   102,   141,     7,     8,     9,    10,
       9,    95,   142,    12,   144,     7,   146,   101,     7,   103,
      52,     9,     7,    11,    12,    70,   262,   263,    47,    48,
      49,    50,   102,     7,     8,    49,    50,     7,    83,    40,
      41,     7,    87,    88,    89,    90,    91,    92,    93,    94,
      95,    96,    97,    98,    99,   100,   101,   102,   103,   104,
     105,   106,   107,   108,   109,   110,   111,   112,   113,     6,
     102,   116,   117,   118,   119,   103,    93,   103,   123,   102,
     102,   126,   212,    93,   261,   215,    93,   102,   218,    61,
      62,    93,    93,   102,    95,   272,    97,    42,    43,    44,
      45,    46,    47,    48,    49,    50,    96,   237,     5,   100,
     240,    98,   242,   222,   223,     7,   248,   162,   250,   164,
     165,   166,   100,    20,    21,    22,    23,    24,    25,    26,
      27,    28,    29,    30,    31,    32,    33,    34,    35,    36,
      37,    38,    39,    40,    41,    42,    43,    44,    45,    46,
      47,    48,    49,    50,   262,   263,   100,     7,    57,   102,
     205,    54,   207,     7,     8,     9,    10,     7,     7,     7,
     300,     6,    14,     7,    52,    94,   221,   102,    93,    50,
      93,    55,    94,    53,     7,     8,     9,    10,    52,     6,
       7,     8,     9,    10,   102,     6,    40,    41,    53,    94,
     245,     6,    99,   248,   100,   250,   100,    51,     6,   100,
     100,     6,     6,   345,     7,   260,     7,    40,    41,     6,
       6,     6,   267,    40,    41,    14,   271,   357,    51,   274,
       7,   361,   362,   278,    51,    94,    52,    94,     6,   100,
       7,   286,   372,     6,     6,     6,     6,     6,    63,    93,
     380,    95,     6,    97,     6,     6,   100,    65,   388,     6,
       6,     6,   386,    51,   309,   310,   311,   312,   133,   285,
      93,   292,    95,   126,    97,    19,    93,   100,    95,   115,
      97,    39,    40,    41,    42,    43,    44,    45,    46,    47,
      48,    49,    50,   288,    -1,    71,    -1,    -1,   343,    -1,
     345,    43,    44,    45,    46,    47,    48,    49,    50,   354,
      -1,    -1,     6,    40,    41,    42,    43,    44,    45,    46,
      47,    48,    49,    50,    -1,   370,    20,    21,    22,    23,
      24,    25,    26,    27,    28,    29,    30,    31,    32,    33,
      34,    35,    36,    37,    38,    39,    40,    41,    42,    43,
      44,    45,    46,    47,    48,    49,    50,     6,    -1,    -1,
      54,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    20,    21,    22,    23,    24,    25,    26,    27,    28,
      29,    30,    31,    32,    33,    34,    35,    36,    37,    38,
      39,    40,    41,    42,    43,    44,    45,    46,    47,    48,
      49,    50,     6,    -1,    -1,    99,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    20,    21,    22,    23,
      24,    25,    26,    27,    28,    29,    30,    31,    32,    33,
      34,    35,    36,    37,    38,    39,    40,    41,    42,    43,
      44,    45,    46,    47,    48,    49,    50,     6,    -1,    -1,
      99,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    20,    21,    22,    23,    24,    25,    26,    27,    28,
      29,    30,    31,    32,    33,    34,    35,    36,    37,    38,
      39,    40,    41,    42,    43,    44,    45,    46,    47,    48,
      49,    50,     6,    -1,    -1,    99,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    20,    21,    22,    23,
      24,    25,    26,    27,    28,    29,    30,    31,    32,    33,
      34,    35,    36,    37,    38,    39,    40,    41,    42,    43,
      44,    45,    46,    47,    48,    49,    50,     6,    -1,    -1,
      99,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    20,    21,    22,    23,    24,    25,    26,    27,    28,
      29,    30,    31,    32,    33,    34,    35,    36,    37,    38,
      39,    40,    41,    42,    43,    44,    45,    46,    47,    48,
      49,    50,     6,    -1,    -1,    99,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    20,    21,    22,    23,
      24,    25,    26,    27,    28,    29,    30,    31,    32,    33,
      34,    35,    36,    37,    38,    39,    40,    41,    42,    43,
      44,    45,    46,    47,    48,    49,    50,     6,    -1,    -1,
      99,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    20,    21,    22,    23,    24,    25,    26,    27,    28,
      29,    30,    31,    32,    33,    34,    35,    36,    37,    38,
      39,    40,    41,    42,    43,    44,    45,    46,    47,    48,
      49,    50,    -1,    -1,    -1,    99,     6,     7,     8,     9,
      10,     6,     7,     8,     9,    10,    -1,    -1,    -1,     7,
       8,     9,    10,    -1,    -1,    -1,    -1,    15,    16,    17,
      -1,    -1,    -1,    -1,     7,     8,     9,    10,    -1,    -1,
      40,    41,    15,    16,    17,    40,    41,    -1,    -1,    -1,
      99,    51,    40,    41,    -1,    -1,    51,     7,     8,     9,
      10,    -1,    -1,    51,    -1,    15,    16,    40,    41,    -1,
       7,     8,     9,    10,    -1,    -1,    -1,    -1,    51,     7,
       8,     9,    10,    -1,     7,     8,     9,    10,    -1,    -1,
      40,    41,    -1,    93,    -1,    95,    -1,    97,    93,    -1,
      95,    51,    97,    40,    41,    93,    -1,    95,    -1,    97,
      -1,    -1,    40,    41,    51,    -1,    -1,    40,    41,    -1,
      93,    -1,    95,    51,    97,     3,     4,    -1,    51,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    93,    -1,    95,    -1,    97,    -1,    -1,
      -1,    -1,    -1,     3,     4,    -1,    93,    -1,    95,    96,
      97,    -1,    -1,    -1,    -1,    93,    -1,    95,    96,    97,
      93,    -1,    95,    -1,    97,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    60,    -1,    -1,    -1,    64,    -1,    66,    -1,
      68,    -1,    70,    71,    72,    -1,    74,    75,    -1,    77,
      78,    79,    -1,    81,    82,    83,    -1,    85,    -1,    87,
      60,    89,    90,    91,    64,    -1,    66,    -1,    68,    -1,
      70,    71,    72,    -1,    74,    75,    -1,    77,    78,    79,
      -1,    81,    -1,    83,    -1,    85,    86,    87,    -1,    89,
      90,    91,     3,     4,    21,    22,    23,    24,    25,    26,
      27,    28,    29,    30,    31,    32,    33,    34,    35,    36,
      37,    38,    39,    40,    41,    42,    43,    44,    45,    46,
      47,    48,    49,    50,     3,     4,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    60,
      -1,    -1,    -1,    64,    -1,    66,    -1,    68,    -1,    70,
      71,    72,    -1,    74,    75,    -1,    77,    78,    79,    -1,
      81,    -1,    83,    -1,    85,    -1,    87,    88,    89,    90,
      91,    60,     3,     4,    -1,    64,    -1,    66,    67,    68,
      -1,    70,    71,    72,    -1,    74,    75,    -1,    77,    78,
      79,    -1,    81,    -1,    83,    -1,    85,    -1,    87,    -1,
      89,    90,    91,    -1,     3,     4,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    60,
      -1,    -1,    -1,    64,    -1,    66,    -1,    68,    69,    70,
      71,    72,    -1,    74,    75,    -1,    77,    78,    79,    -1,
      81,    -1,    83,    -1,    85,    -1,    87,    -1,    89,    90,
      91,    60,     3,     4,    -1,    64,    -1,    66,    -1,    68,
      -1,    70,    71,    72,    -1,    74,    75,    -1,    77,    78,
      79,    80,    81,    -1,    83,    -1,    85,    -1,    87,    -1,
      89,    90,    91,    -1,     3,     4,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    60,
      -1,    -1,    -1,    64,    -1,    66,    -1,    68,    -1,    70,
      71,    72,    -1,    74,    75,    -1,    77,    78,    79,    -1,
      81,    -1,    83,    84,    85,    -1,    87,    -1,    89,    90,
      91,    60,     3,     4,    -1,    64,    -1,    66,    -1,    68,
      -1,    70,    71,    72,    -1,    74,    75,    -1,    77,    78,
      79,    -1,    81,    -1,    83,    -1,    85,    86,    87,    -1,
      89,    90,    91,    -1,     3,     4,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    60,
      -1,    -1,    -1,    64,    -1,    66,    -1,    68,    -1,    70,
      71,    72,    -1,    74,    75,    -1,    77,    78,    79,    -1,
      81,    -1,    83,    -1,    85,    -1,    87,    88,    89,    90,
      91,    60,    -1,    62,    -1,    64,    -1,    66,    -1,    68,
      -1,    70,    71,    72,    -1,    74,    75,    -1,    77,    78,
      79,    -1,    81,    -1,    83,    -1,    85,    -1,    87,    -1,
      89,    90,    91,     3,     4,    25,    26,    27,    28,    29,
      30,    31,    32,    33,    34,    35,    36,    37,    38,    39,
      40,    41,    42,    43,    44,    45,    46,    47,    48,    49,
      50,     3,     4,    24,    25,    26,    27,    28,    29,    30,
      31,    32,    33,    34,    35,    36,    37,    38,    39,    40,
      41,    42,    43,    44,    45,    46,    47,    48,    49,    50,
      60,    -1,    -1,    -1,    64,    -1,    66,    -1,    68,    -1,
      70,    71,    72,    73,    74,    75,    -1,    77,    78,    79,
      -1,    81,    -1,    83,    -1,    85,    -1,    87,    60,    89,
      90,    91,    64,    -1,    66,    -1,    68,    -1,    70,    71,
      72,    -1,    74,    75,    76,    77,    78,    79,    -1,    81,
      -1,    83,    -1,    85,    -1,    87,    -1,    89,    90,    91,
       3,     4,    -1,    13,    -1,    -1,    -1,    -1,    -1,    -1,
      20,    21,    22,    23,    24,    25,    26,    27,    28,    29,
      30,    31,    32,    33,    34,    35,    36,    37,    38,    39,
      40,    41,    42,    43,    44,    45,    46,    47,    48,    49,
      50,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    60,    -1,    -1,
      -1,    64,    -1,    66,    -1,    68,    -1,    70,    71,    72,
      -1,    74,    75,    -1,    77,    78,    79,    -1,    81,    -1,
      83,    -1,    85,    -1,    87,    -1,    89,    90,    91,    99,
      20,    21,    22,    23,    24,    25,    26,    27,    28,    29,
      30,    31,    32,    33,    34,    35,    36,    37,    38,    39,
      40,    41,    42,    43,    44,    45,    46,    47,    48,    49,
      50,    20,    21,    22,    23,    24,    25,    26,    27,    28,
      29,    30,    31,    32,    33,    34,    35,    36,    37,    38,
      39,    40,    41,    42,    43,    44,    45,    46,    47,    48,
      49,    50,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    96,    -1,    -1,    99,
     100,    22,    23,    24,    25,    26,    27,    28,    29,    30,
      31,    32,    33,    34,    35,    36,    37,    38,    39,    40,
      41,    42,    43,    44,    45,    46,    47,    48,    49,    50,
      99,   100,    20,    21,    22,    23,    24,    25,    26,    27,
      28,    29,    30,    31,    32,    33,    34,    35,    36,    37,
      38,    39,    40,    41,    42,    43,    44,    45,    46,    47,
      48,    49,    50,    -1,    -1,    -1,    -1,    -1,    56,    20,
      21,    22,    23,    24,    25,    26,    27,    28,    29,    30,
      31,    32,    33,    34,    35,    36,    37,    38,    39,    40,
      41,    42,    43,    44,    45,    46,    47,    48,    49,    50,
      -1,    -1,    53,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    99,    20,    21,    22,    23,    24,    25,    26,    27,
      28,    29,    30,    31,    32,    33,    34,    35,    36,    37,
      38,    39,    40,    41,    42,    43,    44,    45,    46,    47,
      48,    49,    50,    -1,    -1,    -1,    -1,    -1,    99,    -1,
      58,    20,    21,    22,    23,    24,    25,    26,    27,    28,
      29,    30,    31,    32,    33,    34,    35,    36,    37,    38,
      39,    40,    41,    42,    43,    44,    45,    46,    47,    48,
      49,    50,    -1,    -1,    -1,    -1,    55,    -1,    -1,    -1,
      -1,    99,    20,    21,    22,    23,    24,    25,    26,    27,
      28,    29,    30,    31,    32,    33,    34,    35,    36,    37,
      38,    39,    40,    41,    42,    43,    44,    45,    46,    47,
      48,    49,    50,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      99,    20,    21,    22,    23,    24,    25,    26,    27,    28,
      29,    30,    31,    32,    33,    34,    35,    36,    37,    38,
      39,    40,    41,    42,    43,    44,    45,    46,    47,    48,
      49,    50,    -1,    -1,    -1,    -1,    94,    -1,    -1,    -1,
      -1,    99,    20,    21,    22,    23,    24,    25,    26,    27,
      28,    29,    30,    31,    32,    33,    34,    35,    36,    37,
      38,    39,    40,    41,    42,    43,    44,    45,    46,    47,
      48,    49,    50,    -1,    -1,    94,    -1,    -1,    -1,    -1,
      99,    59,    20,    21,    22,    23,    24,    25,    26,    27,
      28,    29,    30,    31,    32,    33,    34,    35,    36,    37,
      38,    39,    40,    41,    42,    43,    44,    45,    46,    47,
      48,    49,    50,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    99,    20,    21,    22,    23,    24,    25,    26,    27,
      28,    29,    30,    31,    32,    33,    34,    35,    36,    37,
      38,    39,    40,    41,    42,    43,    44,    45,    46,    47,
      48,    49,    50,    -1,    -1,    -1,    -1,    -1,    96,    -1,
      -1,    99,    20,    21,    22,    23,    24,    25,    26,    27,
      28,    29,    30,    31,    32,    33,    34,    35,    36,    37,
      38,    39,    40,    41,    42,    43,    44,    45,    46,    47,
      48,    49,    50,    -1,    -1,    -1,    94,    -1,    -1,    -1,
      -1,    99,    20,    21,    22,    23,    24,    25,    26,    27,
      28,    29,    30,    31,    32,    33,    34,    35,    36,    37,
      38,    39,    40,    41,    42,    43,    44,    45,    46,    47,
      48,    49,    50,    -1,    -1,    -1,    -1,    -1,    96,    -1,
      -1,    99,    23,    24,    25,    26,    27,    28,    29,    30,
      31,    32,    33,    34,    35,    36,    37,    38,    39,    40,
      41,    42,    43,    44,    45,    46,    47,    48,    49,    50,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    99
};

/* YYSTOS[STATE-NUM] -- The symbol kind of the accessing symbol of
   state STATE-NUM.  */
static const yytype_uint8 yystos[] =
{
       0,   106,   107,     0,     3,     4,    60,    64,    66,    68,
      70,    71,    72,    74,    75,    77,    78,    79,    81,    83,
      85,    87,    89,    90,    91,   108,   109,     7,     8,     9,
      10,    40,    41,    51,    93,    95,    97,   143,   146,   147,
     148,   151,   153,   143,     7,   125,     7,   128,     7,   143,
     143,   143,   143,     7,   143,   143,     7,   140,   141,     6,
     140,     6,   143,     6,   143,   143,     6,   143,    93,     9,
      12,   149,   150,   143,   143,   143,   143,   142,   143,   152,
       7,     8,     9,    93,   154,   155,     5,    20,    21,    22,
      23,    24,    25,    26,    27,    28,    29,    30,    31,    32,
      33,    34,    35,    36,    37,    38,    39,    40,    41,    42,
      43,    44,    45,    46,    47,    48,    49,    50,    99,    95,
     101,   103,     6,    33,   102,     6,    52,   102,     6,   143,
       6,    56,   130,   130,     6,    54,    93,    53,    58,    93,
       6,   103,   118,     6,   119,     6,   121,    55,   132,     6,
       6,    15,    16,    17,   143,   156,   157,   158,   143,    11,
     150,    94,   102,    96,   100,   100,   100,   143,    98,   102,
     143,   143,   143,   143,   143,   143,   143,   143,   143,   143,
     143,   143,   143,   143,   143,   143,   143,   143,   158,   143,
     158,   143,   143,   143,   143,   143,   143,   143,   143,    18,
      19,   144,   144,   143,   143,   100,   143,   100,   143,     7,
       8,   141,   110,   143,     7,   112,   142,     7,   113,     6,
      57,    54,   131,   131,     7,   133,   134,     7,    17,   137,
     138,   139,     7,     7,   135,   136,   156,   116,   141,   107,
     117,   107,   120,   107,     6,    14,     7,   159,    52,    94,
     102,    13,   143,   143,   143,   143,    94,     7,     8,     9,
      93,    93,    40,    41,   145,   146,   143,   100,    96,   143,
      96,   100,    93,   107,    59,   126,   107,     6,   102,   107,
     143,   132,   132,    53,     6,   102,    52,    94,   102,     6,
      53,     6,   102,    94,   107,    82,   107,    86,   107,    88,
     122,   143,    94,   102,   143,   158,    17,   143,   158,   100,
     100,   100,   100,   143,   156,   145,   145,   143,    96,    96,
     143,   156,   123,   143,     6,    67,    69,     6,     6,     7,
     134,   143,     6,   139,     7,   136,    80,     6,    84,     6,
      86,     6,   107,    14,     7,    52,   143,   143,   143,   143,
      94,    94,    96,    94,    61,    62,   124,   111,     6,     7,
     129,   114,   115,     6,     6,     6,    88,   143,   143,   158,
     100,   143,     6,    63,   107,     6,   107,   107,     6,   143,
       6,   107,     6,    62,   127,    73,    76,   107,     6,    65,
       6,   129,   107,     6,     6
};

/* YYR1[RULE-NUM] -- Symbol kind of the left-hand side of rule RULE-NUM.  */
static const yytype_uint8 yyr1[] =
{
       0,   105,   106,   107,   107,   108,   108,   108,   110,   109,
     111,   109,   109,   112,   109,   113,   109,   109,   109,   109,
     114,   109,   109,   109,   115,   109,   109,   109,   116,   109,
     117,   109,   118,   109,   119,   109,   120,   109,   121,   109,
     122,   109,   109,   109,   109,   123,   123,   124,   124,   125,
     125,   126,   126,   127,   127,   128,   128,   129,   129,   130,
     130,   131,   131,   132,   132,   133,   133,   134,   134,   135,
     135,   136,   136,   137,   137,   137,   138,   138,   139,   139,
     140,   140,   141,   141,   142,   142,   143,   143,   143,   143,
     143,   143,   143,   143,   143,   143,   143,   143,   143,   143,
     143,   143,   143,   143,   143,   143,   143,   143,   143,   143,
     143,   143,   143,   143,   143,   143,   143,   143,   143,   143,
     143,   143,   143,   143,   143,   143,   144,   144,   144,   145,
     145,   145,   146,   146,   146,   146,   146,   146,   146,   146,
     146,   146,   147,   147,   147,   147,   147,   147,   147,   148,
     148,   149,   149,   150,   150,   151,   152,   152,   152,   153,
     154,   154,   154,   155,   155,   155,   155,   155,   155,   155,
     155,   155,   155,   156,   156,   156,   157,   157,   157,   157,
     157,   157,   157,   157,   158,   158,   159,   159
};

/* YYR2[RULE-NUM] -- Number of symbols on the right-hand side of rule RULE-NUM.  */
static const yytype_int8 yyr2[] =
{
       0,     2,     1,     0,     2,     1,     3,     1,     0,     9,
       0,    11,     5,     0,     7,     0,     8,     4,     3,     6,
       0,    10,     3,     5,     0,    11,     5,     5,     0,     7,
       0,     7,     0,     6,     0,     6,     0,     7,     0,     6,
       0,     8,     3,     3,     2,     0,     5,     0,     3,     1,
       3,     0,     2,     0,     3,     1,     3,     0,     1,     0,
       2,     0,     2,     0,     1,     1,     3,     1,     3,     1,
       3,     1,     3,     0,     1,     2,     1,     3,     1,     3,
       1,     3,     1,     4,     1,     3,     1,     2,     2,     2,
       3,     3,     3,     3,     3,     3,     3,     3,     3,     3,
       3,     3,     3,     3,     3,     3,     3,     3,     3,     3,
       3,     3,     3,     3,     3,     3,     3,     3,     3,     3,
       3,     3,     3,     5,     3,     4,     1,     4,     2,     1,
       2,     2,     1,     3,     3,     6,     4,     6,     5,     5,
       4,     3,     1,     4,     1,     1,     1,     1,     3,     1,
       3,     1,     2,     1,     3,     3,     0,     1,     2,     3,
       0,     1,     2,     3,     1,     3,     3,     5,     5,     3,
       5,     5,     7,     0,     1,     2,     1,     1,     3,     3,
       3,     3,     5,     5,     3,     5,     1,     3
};


enum { YYENOMEM = -2 };

#define yyerrok         (yyerrstatus = 0)
#define yyclearin       (yychar = TPL_YYEMPTY)

#define YYACCEPT        goto yyacceptlab
#define YYABORT         goto yyabortlab
#define YYERROR         goto yyerrorlab
#define YYNOMEM         goto yyexhaustedlab


#define YYRECOVERING()  (!!yyerrstatus)

#define YYBACKUP(Token, Value)                                    \
  do                                                              \
    if (yychar == TPL_YYEMPTY)                                        \
      {                                                           \
        yychar = (Token);                                         \
        yylval = (Value);                                         \
        YYPOPSTACK (yylen);                                       \
        yystate = *yyssp;                                         \
        YY_LAC_DISCARD ("YYBACKUP");                              \
        goto yybackup;                                            \
      }                                                           \
    else                                                          \
      {                                                           \
        yyerror (&yylloc, P, YY_("syntax error: cannot back up")); \
        YYERROR;                                                  \
      }                                                           \
  while (0)

/* Backward compatibility with an undocumented macro.
   Use TPL_YYerror or TPL_YYUNDEF. */
#define YYERRCODE TPL_YYUNDEF

/* YYLLOC_DEFAULT -- Set CURRENT to span from RHS[1] to RHS[N].
   If N is 0, then set CURRENT to the empty location which ends
   the previous symbol: RHS[0] (always defined).  */

#ifndef YYLLOC_DEFAULT
# define YYLLOC_DEFAULT(Current, Rhs, N)                                \
    do                                                                  \
      if (N)                                                            \
        {                                                               \
          (Current).first_line   = YYRHSLOC (Rhs, 1).first_line;        \
          (Current).first_column = YYRHSLOC (Rhs, 1).first_column;      \
          (Current).last_line    = YYRHSLOC (Rhs, N).last_line;         \
          (Current).last_column  = YYRHSLOC (Rhs, N).last_column;       \
        }                                                               \
      else                                                              \
        {                                                               \
          (Current).first_line   = (Current).last_line   =              \
            YYRHSLOC (Rhs, 0).last_line;                                \
          (Current).first_column = (Current).last_column =              \
            YYRHSLOC (Rhs, 0).last_column;                              \
        }                                                               \
    while (0)
#endif

#define YYRHSLOC(Rhs, K) ((Rhs)[K])


/* Enable debugging if requested.  */
#if TPL_YYDEBUG

# ifndef YYFPRINTF
#  include <stdio.h> /* INFRINGES ON USER NAME SPACE */
#  define YYFPRINTF fprintf
# endif

# define YYDPRINTF(Args)                        \
do {                                            \
  if (yydebug)                                  \
    YYFPRINTF Args;                             \
} while (0)


/* YYLOCATION_PRINT -- Print the location on the stream.
   This macro was not mandated originally: define only if we know
   we won't break user code: when these are the locations we know.  */

# ifndef YYLOCATION_PRINT

#  if defined YY_LOCATION_PRINT

   /* Temporary convenience wrapper in case some people defined the
      undocumented and private YY_LOCATION_PRINT macros.  */
#   define YYLOCATION_PRINT(File, Loc)  YY_LOCATION_PRINT(File, *(Loc))

#  elif defined TPL_YYLTYPE_IS_TRIVIAL && TPL_YYLTYPE_IS_TRIVIAL

/* Print *YYLOCP on YYO.  Private, do not rely on its existence. */

YY_ATTRIBUTE_UNUSED
static int
yy_location_print_ (FILE *yyo, YYLTYPE const * const yylocp)
{
  int res = 0;
  int end_col = 0 != yylocp->last_column ? yylocp->last_column - 1 : 0;
  if (0 <= yylocp->first_line)
    {
      res += YYFPRINTF (yyo, "%d", yylocp->first_line);
      if (0 <= yylocp->first_column)
        res += YYFPRINTF (yyo, ".%d", yylocp->first_column);
    }
  if (0 <= yylocp->last_line)
    {
      if (yylocp->first_line < yylocp->last_line)
        {
          res += YYFPRINTF (yyo, "-%d", yylocp->last_line);
          if (0 <= end_col)
            res += YYFPRINTF (yyo, ".%d", end_col);
        }
      else if (0 <= end_col && yylocp->first_column < end_col)
        res += YYFPRINTF (yyo, "-%d", end_col);
    }
  return res;
}

#   define YYLOCATION_PRINT  yy_location_print_

    /* Temporary convenience wrapper in case some people defined the
       undocumented and private YY_LOCATION_PRINT macros.  */
#   define YY_LOCATION_PRINT(File, Loc)  YYLOCATION_PRINT(File, &(Loc))

#  else

#   define YYLOCATION_PRINT(File, Loc) ((void) 0)
    /* Temporary convenience wrapper in case some people defined the
       undocumented and private YY_LOCATION_PRINT macros.  */
#   define YY_LOCATION_PRINT  YYLOCATION_PRINT

#  endif
# endif /* !defined YYLOCATION_PRINT */


# define YY_SYMBOL_PRINT(Title, Kind, Value, Location)                    \
do {                                                                      \
  if (yydebug)                                                            \
    {                                                                     \
      YYFPRINTF (stderr, "%s ", Title);                                   \
      yy_symbol_print (stderr,                                            \
                  Kind, Value, Location, P); \
      YYFPRINTF (stderr, "\n");                                           \
    }                                                                     \
} while (0)


/*-----------------------------------.
| Print this symbol's value on YYO.  |
`-----------------------------------*/

static void
yy_symbol_value_print (FILE *yyo,
                       yysymbol_kind_t yykind, YYSTYPE const * const yyvaluep, YYLTYPE const * const yylocationp, tpl_pctx *P)
{
  FILE *yyoutput = yyo;
  YY_USE (yyoutput);
  YY_USE (yylocationp);
  YY_USE (P);
  if (!yyvaluep)
    return;
  YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
  YY_USE (yykind);
  YY_IGNORE_MAYBE_UNINITIALIZED_END
}


/*---------------------------.
| Print this symbol on YYO.  |
`---------------------------*/

static void
yy_symbol_print (FILE *yyo,
                 yysymbol_kind_t yykind, YYSTYPE const * const yyvaluep, YYLTYPE const * const yylocationp, tpl_pctx *P)
{
  YYFPRINTF (yyo, "%s %s (",
             yykind < YYNTOKENS ? "token" : "nterm", yysymbol_name (yykind));

  YYLOCATION_PRINT (yyo, yylocationp);
  YYFPRINTF (yyo, ": ");
  yy_symbol_value_print (yyo, yykind, yyvaluep, yylocationp, P);
  YYFPRINTF (yyo, ")");
}

/*------------------------------------------------------------------.
| yy_stack_print -- Print the state stack from its BOTTOM up to its |
| TOP (included).                                                   |
`------------------------------------------------------------------*/

static void
yy_stack_print (yy_state_t *yybottom, yy_state_t *yytop)
{
  YYFPRINTF (stderr, "Stack now");
  for (; yybottom <= yytop; yybottom++)
    {
      int yybot = *yybottom;
      YYFPRINTF (stderr, " %d", yybot);
    }
  YYFPRINTF (stderr, "\n");
}

# define YY_STACK_PRINT(Bottom, Top)                            \
do {                                                            \
  if (yydebug)                                                  \
    yy_stack_print ((Bottom), (Top));                           \
} while (0)


/*------------------------------------------------.
| Report that the YYRULE is going to be reduced.  |
`------------------------------------------------*/

static void
yy_reduce_print (yy_state_t *yyssp, YYSTYPE *yyvsp, YYLTYPE *yylsp,
                 int yyrule, tpl_pctx *P)
{
  int yylno = yyrline[yyrule];
  int yynrhs = yyr2[yyrule];
  int yyi;
  YYFPRINTF (stderr, "Reducing stack by rule %d (line %d):\n",
             yyrule - 1, yylno);
  /* The symbols being reduced.  */
  for (yyi = 0; yyi < yynrhs; yyi++)
    {
      YYFPRINTF (stderr, "   $%d = ", yyi + 1);
      yy_symbol_print (stderr,
                       YY_ACCESSING_SYMBOL (+yyssp[yyi + 1 - yynrhs]),
                       &yyvsp[(yyi + 1) - (yynrhs)],
                       &(yylsp[(yyi + 1) - (yynrhs)]), P);
      YYFPRINTF (stderr, "\n");
    }
}

# define YY_REDUCE_PRINT(Rule)          \
do {                                    \
  if (yydebug)                          \
    yy_reduce_print (yyssp, yyvsp, yylsp, Rule, P); \
} while (0)

/* Nonzero means print parse trace.  It is left uninitialized so that
   multiple parsers can coexist.  */
int yydebug;
#else /* !TPL_YYDEBUG */
# define YYDPRINTF(Args) ((void) 0)
# define YY_SYMBOL_PRINT(Title, Kind, Value, Location)
# define YY_STACK_PRINT(Bottom, Top)
# define YY_REDUCE_PRINT(Rule)
#endif /* !TPL_YYDEBUG */


/* YYINITDEPTH -- initial size of the parser's stacks.  */
#ifndef YYINITDEPTH
# define YYINITDEPTH 200
#endif

/* YYMAXDEPTH -- maximum size the stacks can grow to (effective only
   if the built-in stack extension method is used).

   Do not make this value too large; the results are undefined if
   YYSTACK_ALLOC_MAXIMUM < YYSTACK_BYTES (YYMAXDEPTH)
   evaluated with infinite-precision integer arithmetic.  */

#ifndef YYMAXDEPTH
# define YYMAXDEPTH 10000
#endif


/* Given a state stack such that *YYBOTTOM is its bottom, such that
   *YYTOP is either its top or is YYTOP_EMPTY to indicate an empty
   stack, and such that *YYCAPACITY is the maximum number of elements it
   can hold without a reallocation, make sure there is enough room to
   store YYADD more elements.  If not, allocate a new stack using
   YYSTACK_ALLOC, copy the existing elements, and adjust *YYBOTTOM,
   *YYTOP, and *YYCAPACITY to reflect the new capacity and memory
   location.  If *YYBOTTOM != YYBOTTOM_NO_FREE, then free the old stack
   using YYSTACK_FREE.  Return 0 if successful or if no reallocation is
   required.  Return YYENOMEM if memory is exhausted.  */
static int
yy_lac_stack_realloc (YYPTRDIFF_T *yycapacity, YYPTRDIFF_T yyadd,
#if TPL_YYDEBUG
                      char const *yydebug_prefix,
                      char const *yydebug_suffix,
#endif
                      yy_state_t **yybottom,
                      yy_state_t *yybottom_no_free,
                      yy_state_t **yytop, yy_state_t *yytop_empty)
{
  YYPTRDIFF_T yysize_old =
    *yytop == yytop_empty ? 0 : *yytop - *yybottom + 1;
  YYPTRDIFF_T yysize_new = yysize_old + yyadd;
  if (*yycapacity < yysize_new)
    {
      YYPTRDIFF_T yyalloc = 2 * yysize_new;
      yy_state_t *yybottom_new;
      /* Use YYMAXDEPTH for maximum stack size given that the stack
         should never need to grow larger than the main state stack
         needs to grow without LAC.  */
      if (YYMAXDEPTH < yysize_new)
        {
          YYDPRINTF ((stderr, "%smax size exceeded%s", yydebug_prefix,
                      yydebug_suffix));
          return YYENOMEM;
        }
      if (YYMAXDEPTH < yyalloc)
        yyalloc = YYMAXDEPTH;
      yybottom_new =
        YY_CAST (yy_state_t *,
                 YYSTACK_ALLOC (YY_CAST (YYSIZE_T,
                                         yyalloc * YYSIZEOF (*yybottom_new))));
      if (!yybottom_new)
        {
          YYDPRINTF ((stderr, "%srealloc failed%s", yydebug_prefix,
                      yydebug_suffix));
          return YYENOMEM;
        }
      if (*yytop != yytop_empty)
        {
          YYCOPY (yybottom_new, *yybottom, yysize_old);
          *yytop = yybottom_new + (yysize_old - 1);
        }
      if (*yybottom != yybottom_no_free)
        YYSTACK_FREE (*yybottom);
      *yybottom = yybottom_new;
      *yycapacity = yyalloc;
    }
  return 0;
}

/* Establish the initial context for the current lookahead if no initial
   context is currently established.

   We define a context as a snapshot of the parser stacks.  We define
   the initial context for a lookahead as the context in which the
   parser initially examines that lookahead in order to select a
   syntactic action.  Thus, if the lookahead eventually proves
   syntactically unacceptable (possibly in a later context reached via a
   series of reductions), the initial context can be used to determine
   the exact set of tokens that would be syntactically acceptable in the
   lookahead's place.  Moreover, it is the context after which any
   further semantic actions would be erroneous because they would be
   determined by a syntactically unacceptable token.

   YY_LAC_ESTABLISH should be invoked when a reduction is about to be
   performed in an inconsistent state (which, for the purposes of LAC,
   includes consistent states that don't know they're consistent because
   their default reductions have been disabled).  Iff there is a
   lookahead token, it should also be invoked before reporting a syntax
   error.  This latter case is for the sake of the debugging output.

   For parse.lac=full, the implementation of YY_LAC_ESTABLISH is as
   follows.  If no initial context is currently established for the
   current lookahead, then check if that lookahead can eventually be
   shifted if syntactic actions continue from the current context.
   Report a syntax error if it cannot.  */
#define YY_LAC_ESTABLISH                                                \
do {                                                                    \
  if (!yy_lac_established)                                              \
    {                                                                   \
      YYDPRINTF ((stderr,                                               \
                  "LAC: initial context established for %s\n",          \
                  yysymbol_name (yytoken)));                            \
      yy_lac_established = 1;                                           \
      switch (yy_lac (yyesa, &yyes, &yyes_capacity, yyssp, yytoken))    \
        {                                                               \
        case YYENOMEM:                                                  \
          YYNOMEM;                                                      \
        case 1:                                                         \
          goto yyerrlab;                                                \
        }                                                               \
    }                                                                   \
} while (0)

/* Discard any previous initial lookahead context because of Event,
   which may be a lookahead change or an invalidation of the currently
   established initial context for the current lookahead.

   The most common example of a lookahead change is a shift.  An example
   of both cases is syntax error recovery.  That is, a syntax error
   occurs when the lookahead is syntactically erroneous for the
   currently established initial context, so error recovery manipulates
   the parser stacks to try to find a new initial context in which the
   current lookahead is syntactically acceptable.  If it fails to find
   such a context, it discards the lookahead.  */
#if TPL_YYDEBUG
# define YY_LAC_DISCARD(Event)                                           \
do {                                                                     \
  if (yy_lac_established)                                                \
    {                                                                    \
      YYDPRINTF ((stderr, "LAC: initial context discarded due to "       \
                  Event "\n"));                                          \
      yy_lac_established = 0;                                            \
    }                                                                    \
} while (0)
#else
# define YY_LAC_DISCARD(Event) yy_lac_established = 0
#endif

/* Given the stack whose top is *YYSSP, return 0 iff YYTOKEN can
   eventually (after perhaps some reductions) be shifted, return 1 if
   not, or return YYENOMEM if memory is exhausted.  As preconditions and
   postconditions: *YYES_CAPACITY is the allocated size of the array to
   which *YYES points, and either *YYES = YYESA or *YYES points to an
   array allocated with YYSTACK_ALLOC.  yy_lac may overwrite the
   contents of either array, alter *YYES and *YYES_CAPACITY, and free
   any old *YYES other than YYESA.  */
static int
yy_lac (yy_state_t *yyesa, yy_state_t **yyes,
        YYPTRDIFF_T *yyes_capacity, yy_state_t *yyssp, yysymbol_kind_t yytoken)
{
  yy_state_t *yyes_prev = yyssp;
  yy_state_t *yyesp = yyes_prev;
  /* Reduce until we encounter a shift and thereby accept the token.  */
  YYDPRINTF ((stderr, "LAC: checking lookahead %s:", yysymbol_name (yytoken)));
  if (yytoken == YYSYMBOL_YYUNDEF)
    {
      YYDPRINTF ((stderr, " Always Err\n"));
      return 1;
    }
  while (1)
    {
      int yyrule = yypact[+*yyesp];
      if (yypact_value_is_default (yyrule)
          || (yyrule += yytoken) < 0 || YYLAST < yyrule
          || yycheck[yyrule] != yytoken)
        {
          /* Use the default action.  */
          yyrule = yydefact[+*yyesp];
          if (yyrule == 0)
            {
              YYDPRINTF ((stderr, " Err\n"));
              return 1;
            }
        }
      else
        {
          /* Use the action from yytable.  */
          yyrule = yytable[yyrule];
          if (yytable_value_is_error (yyrule))
            {
              YYDPRINTF ((stderr, " Err\n"));
              return 1;
            }
          if (0 < yyrule)
            {
              YYDPRINTF ((stderr, " S%d\n", yyrule));
              return 0;
            }
          yyrule = -yyrule;
        }
      /* By now we know we have to simulate a reduce.  */
      YYDPRINTF ((stderr, " R%d", yyrule - 1));
      {
        /* Pop the corresponding number of values from the stack.  */
        YYPTRDIFF_T yylen = yyr2[yyrule];
        /* First pop from the LAC stack as many tokens as possible.  */
        if (yyesp != yyes_prev)
          {
            YYPTRDIFF_T yysize = yyesp - *yyes + 1;
            if (yylen < yysize)
              {
                yyesp -= yylen;
                yylen = 0;
              }
            else
              {
                yyesp = yyes_prev;
                yylen -= yysize;
              }
          }
        /* Only afterwards look at the main stack.  */
        if (yylen)
          yyesp = yyes_prev -= yylen;
      }
      /* Push the resulting state of the reduction.  */
      {
        yy_state_fast_t yystate;
        {
          const int yylhs = yyr1[yyrule] - YYNTOKENS;
          const int yyi = yypgoto[yylhs] + *yyesp;
          yystate = (0 <= yyi && yyi <= YYLAST && yycheck[yyi] == *yyesp
                     ? yytable[yyi]
                     : yydefgoto[yylhs]);
        }
        if (yyesp == yyes_prev)
          {
            yyesp = *yyes;
            YY_IGNORE_USELESS_CAST_BEGIN
            *yyesp = YY_CAST (yy_state_t, yystate);
            YY_IGNORE_USELESS_CAST_END
          }
        else
          {
            if (yy_lac_stack_realloc (yyes_capacity, 1,
#if TPL_YYDEBUG
                                      " (", ")",
#endif
                                      yyes, yyesa, &yyesp, yyes_prev))
              {
                YYDPRINTF ((stderr, "\n"));
                return YYENOMEM;
              }
            YY_IGNORE_USELESS_CAST_BEGIN
            *++yyesp = YY_CAST (yy_state_t, yystate);
            YY_IGNORE_USELESS_CAST_END
          }
        YYDPRINTF ((stderr, " G%d", yystate));
      }
    }
}

/* Context of a parse error.  */
typedef struct
{
  yy_state_t *yyssp;
  yy_state_t *yyesa;
  yy_state_t **yyes;
  YYPTRDIFF_T *yyes_capacity;
  yysymbol_kind_t yytoken;
  YYLTYPE *yylloc;
} yypcontext_t;

/* Put in YYARG at most YYARGN of the expected tokens given the
   current YYCTX, and return the number of tokens stored in YYARG.  If
   YYARG is null, return the number of expected tokens (guaranteed to
   be less than YYNTOKENS).  Return YYENOMEM on memory exhaustion.
   Return 0 if there are more than YYARGN expected tokens, yet fill
   YYARG up to YYARGN. */
static int
yypcontext_expected_tokens (const yypcontext_t *yyctx,
                            yysymbol_kind_t yyarg[], int yyargn)
{
  /* Actual size of YYARG. */
  int yycount = 0;

  int yyx;
  for (yyx = 0; yyx < YYNTOKENS; ++yyx)
    {
      yysymbol_kind_t yysym = YY_CAST (yysymbol_kind_t, yyx);
      if (yysym != YYSYMBOL_YYerror && yysym != YYSYMBOL_YYUNDEF)
        switch (yy_lac (yyctx->yyesa, yyctx->yyes, yyctx->yyes_capacity, yyctx->yyssp, yysym))
          {
          case YYENOMEM:
            return YYENOMEM;
          case 1:
            continue;
          default:
            if (!yyarg)
              ++yycount;
            else if (yycount == yyargn)
              return 0;
            else
              yyarg[yycount++] = yysym;
          }
    }
  if (yyarg && yycount == 0 && 0 < yyargn)
    yyarg[0] = YYSYMBOL_YYEMPTY;
  return yycount;
}




/* The kind of the lookahead of this context.  */
static yysymbol_kind_t
yypcontext_token (const yypcontext_t *yyctx) YY_ATTRIBUTE_UNUSED;

static yysymbol_kind_t
yypcontext_token (const yypcontext_t *yyctx)
{
  return yyctx->yytoken;
}

/* The location of the lookahead of this context.  */
static YYLTYPE *
yypcontext_location (const yypcontext_t *yyctx) YY_ATTRIBUTE_UNUSED;

static YYLTYPE *
yypcontext_location (const yypcontext_t *yyctx)
{
  return yyctx->yylloc;
}

/* User defined function to report a syntax error.  */
static int
yyreport_syntax_error (const yypcontext_t *yyctx, tpl_pctx *P);

/*-----------------------------------------------.
| Release the memory associated to this symbol.  |
`-----------------------------------------------*/

static void
yydestruct (const char *yymsg,
            yysymbol_kind_t yykind, YYSTYPE *yyvaluep, YYLTYPE *yylocationp, tpl_pctx *P)
{
  YY_USE (yyvaluep);
  YY_USE (yylocationp);
  YY_USE (P);
  if (!yymsg)
    yymsg = "Deleting";
  YY_SYMBOL_PRINT (yymsg, yykind, yyvaluep, yylocationp);

  YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
  YY_USE (yykind);
  YY_IGNORE_MAYBE_UNINITIALIZED_END
}






/*----------.
| yyparse.  |
`----------*/

int
yyparse (tpl_pctx *P)
{
/* Lookahead token kind.  */
int yychar;


/* The semantic value of the lookahead symbol.  */
/* Default value used for initialization, for pacifying older GCCs
   or non-GCC compilers.  */
YY_INITIAL_VALUE (static YYSTYPE yyval_default;)
YYSTYPE yylval YY_INITIAL_VALUE (= yyval_default);

/* Location data for the lookahead symbol.  */
static YYLTYPE yyloc_default
# if defined TPL_YYLTYPE_IS_TRIVIAL && TPL_YYLTYPE_IS_TRIVIAL
  = { 1, 1, 1, 1 }
# endif
;
YYLTYPE yylloc = yyloc_default;

    /* Number of syntax errors so far.  */
    int yynerrs = 0;

    yy_state_fast_t yystate = 0;
    /* Number of tokens to shift before error messages enabled.  */
    int yyerrstatus = 0;

    /* Refer to the stacks through separate pointers, to allow yyoverflow
       to reallocate them elsewhere.  */

    /* Their size.  */
    YYPTRDIFF_T yystacksize = YYINITDEPTH;

    /* The state stack: array, bottom, top.  */
    yy_state_t yyssa[YYINITDEPTH];
    yy_state_t *yyss = yyssa;
    yy_state_t *yyssp = yyss;

    /* The semantic value stack: array, bottom, top.  */
    YYSTYPE yyvsa[YYINITDEPTH];
    YYSTYPE *yyvs = yyvsa;
    YYSTYPE *yyvsp = yyvs;

    /* The location stack: array, bottom, top.  */
    YYLTYPE yylsa[YYINITDEPTH];
    YYLTYPE *yyls = yylsa;
    YYLTYPE *yylsp = yyls;

    yy_state_t yyesa[20];
    yy_state_t *yyes = yyesa;
    YYPTRDIFF_T yyes_capacity = 20 < YYMAXDEPTH ? 20 : YYMAXDEPTH;

  /* Whether LAC context is established.  A Boolean.  */
  int yy_lac_established = 0;
  int yyn;
  /* The return value of yyparse.  */
  int yyresult;
  /* Lookahead symbol kind.  */
  yysymbol_kind_t yytoken = YYSYMBOL_YYEMPTY;
  /* The variables used to return semantic value and location from the
     action routines.  */
  YYSTYPE yyval;
  YYLTYPE yyloc;

  /* The locations where the error started and ended.  */
  YYLTYPE yyerror_range[3];



#define YYPOPSTACK(N)   (yyvsp -= (N), yyssp -= (N), yylsp -= (N))

  /* The number of symbols on the RHS of the reduced rule.
     Keep to zero when no symbol should be popped.  */
  int yylen = 0;

  YYDPRINTF ((stderr, "Starting parse\n"));

  yychar = TPL_YYEMPTY; /* Cause a token to be read.  */

  yylsp[0] = yylloc;
  goto yysetstate;


/*------------------------------------------------------------.
| yynewstate -- push a new state, which is found in yystate.  |
`------------------------------------------------------------*/
yynewstate:
  /* In all cases, when you get here, the value and location stacks
     have just been pushed.  So pushing a state here evens the stacks.  */
  yyssp++;


/*--------------------------------------------------------------------.
| yysetstate -- set current state (the top of the stack) to yystate.  |
`--------------------------------------------------------------------*/
yysetstate:
  YYDPRINTF ((stderr, "Entering state %d\n", yystate));
  YY_ASSERT (0 <= yystate && yystate < YYNSTATES);
  YY_IGNORE_USELESS_CAST_BEGIN
  *yyssp = YY_CAST (yy_state_t, yystate);
  YY_IGNORE_USELESS_CAST_END
  YY_STACK_PRINT (yyss, yyssp);

  if (yyss + yystacksize - 1 <= yyssp)
#if !defined yyoverflow && !defined YYSTACK_RELOCATE
    YYNOMEM;
#else
    {
      /* Get the current used size of the three stacks, in elements.  */
      YYPTRDIFF_T yysize = yyssp - yyss + 1;

# if defined yyoverflow
      {
        /* Give user a chance to reallocate the stack.  Use copies of
           these so that the &'s don't force the real ones into
           memory.  */
        yy_state_t *yyss1 = yyss;
        YYSTYPE *yyvs1 = yyvs;
        YYLTYPE *yyls1 = yyls;

        /* Each stack pointer address is followed by the size of the
           data in use in that stack, in bytes.  This used to be a
           conditional around just the two extra args, but that might
           be undefined if yyoverflow is a macro.  */
        yyoverflow (YY_("memory exhausted"),
                    &yyss1, yysize * YYSIZEOF (*yyssp),
                    &yyvs1, yysize * YYSIZEOF (*yyvsp),
                    &yyls1, yysize * YYSIZEOF (*yylsp),
                    &yystacksize);
        yyss = yyss1;
        yyvs = yyvs1;
        yyls = yyls1;
      }
# else /* defined YYSTACK_RELOCATE */
      /* Extend the stack our own way.  */
      if (YYMAXDEPTH <= yystacksize)
        YYNOMEM;
      yystacksize *= 2;
      if (YYMAXDEPTH < yystacksize)
        yystacksize = YYMAXDEPTH;

      {
        yy_state_t *yyss1 = yyss;
        union yyalloc *yyptr =
          YY_CAST (union yyalloc *,
                   YYSTACK_ALLOC (YY_CAST (YYSIZE_T, YYSTACK_BYTES (yystacksize))));
        if (! yyptr)
          YYNOMEM;
        YYSTACK_RELOCATE (yyss_alloc, yyss);
        YYSTACK_RELOCATE (yyvs_alloc, yyvs);
        YYSTACK_RELOCATE (yyls_alloc, yyls);
#  undef YYSTACK_RELOCATE
        if (yyss1 != yyssa)
          YYSTACK_FREE (yyss1);
      }
# endif

      yyssp = yyss + yysize - 1;
      yyvsp = yyvs + yysize - 1;
      yylsp = yyls + yysize - 1;

      YY_IGNORE_USELESS_CAST_BEGIN
      YYDPRINTF ((stderr, "Stack size increased to %ld\n",
                  YY_CAST (long, yystacksize)));
      YY_IGNORE_USELESS_CAST_END

      if (yyss + yystacksize - 1 <= yyssp)
        YYABORT;
    }
#endif /* !defined yyoverflow && !defined YYSTACK_RELOCATE */


  if (yystate == YYFINAL)
    YYACCEPT;

  goto yybackup;


/*-----------.
| yybackup.  |
`-----------*/
yybackup:
  /* Do appropriate processing given the current state.  Read a
     lookahead token if we need one and don't already have one.  */

  /* First try to decide what to do without reference to lookahead token.  */
  yyn = yypact[yystate];
  if (yypact_value_is_default (yyn))
    goto yydefault;

  /* Not known => get a lookahead token if don't already have one.  */

  /* YYCHAR is either empty, or end-of-input, or a valid lookahead.  */
  if (yychar == TPL_YYEMPTY)
    {
      YYDPRINTF ((stderr, "Reading a token\n"));
      yychar = yylex (&yylval, &yylloc, P);
    }

  if (yychar <= TPL_YYEOF)
    {
      yychar = TPL_YYEOF;
      yytoken = YYSYMBOL_YYEOF;
      YYDPRINTF ((stderr, "Now at end of input.\n"));
    }
  else if (yychar == TPL_YYerror)
    {
      /* The scanner already issued an error message, process directly
         to error recovery.  But do not keep the error token as
         lookahead, it is too special and may lead us to an endless
         loop in error recovery. */
      yychar = TPL_YYUNDEF;
      yytoken = YYSYMBOL_YYerror;
      yyerror_range[1] = yylloc;
      goto yyerrlab1;
    }
  else
    {
      yytoken = YYTRANSLATE (yychar);
      YY_SYMBOL_PRINT ("Next token is", yytoken, &yylval, &yylloc);
    }

  /* If the proper action on seeing token YYTOKEN is to reduce or to
     detect an error, take that action.  */
  yyn += yytoken;
  if (yyn < 0 || YYLAST < yyn || yycheck[yyn] != yytoken)
    {
      YY_LAC_ESTABLISH;
      goto yydefault;
    }
  yyn = yytable[yyn];
  if (yyn <= 0)
    {
      if (yytable_value_is_error (yyn))
        goto yyerrlab;
      yyn = -yyn;
      YY_LAC_ESTABLISH;
      goto yyreduce;
    }

  /* Count tokens shifted since error; after three, turn off error
     status.  */
  if (yyerrstatus)
    yyerrstatus--;

  /* Shift the lookahead token.  */
  YY_SYMBOL_PRINT ("Shifting", yytoken, &yylval, &yylloc);
  yystate = yyn;
  YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
  *++yyvsp = yylval;
  YY_IGNORE_MAYBE_UNINITIALIZED_END
  *++yylsp = yylloc;

  /* Discard the shifted token.  */
  yychar = TPL_YYEMPTY;
  YY_LAC_DISCARD ("shift");
  goto yynewstate;


/*-----------------------------------------------------------.
| yydefault -- do the default action for the current state.  |
`-----------------------------------------------------------*/
yydefault:
  yyn = yydefact[yystate];
  if (yyn == 0)
    goto yyerrlab;
  goto yyreduce;


/*-----------------------------.
| yyreduce -- do a reduction.  |
`-----------------------------*/
yyreduce:
  /* yyn is the number of a rule to reduce with.  */
  yylen = yyr2[yyn];

  /* If YYLEN is nonzero, implement the default value of the action:
     '$$ = $1'.

     Otherwise, the following line sets YYVAL to garbage.
     This behavior is undocumented and Bison
     users should not rely upon it.  Assigning to YYVAL
     unconditionally makes the parser a bit smaller, and it avoids a
     GCC warning that YYVAL may be used uninitialized.  */
  yyval = yyvsp[1-yylen];

  /* Default location. */
  YYLLOC_DEFAULT (yyloc, (yylsp - yylen), yylen);
  yyerror_range[1] = yyloc;
  YY_REDUCE_PRINT (yyn);
  {
    int yychar_backup = yychar;
    switch (yyn)
      {
  case 2: /* template: body  */
       { P->root = mk_body(P, &(yyvsp[0].list), (yyloc)); }
    break;

  case 3: /* body: %empty  */
         { memset(&(yyval.list), 0, sizeof (yyval.list)); }
    break;

  case 4: /* body: body stmt  */
            { (yyval.list) = (yyvsp[-1].list); if ((yyvsp[0].node)) tpl_nlist_push(P->arena, &(yyval.list), (yyvsp[0].node)); }
    break;

  case 5: /* stmt: TEXT  */
       {
    (yyval.node) = NODE(TPL_N_TEXT, (yylsp[0]));
    (yyval.node)->value = tpl_str((yyvsp[0].tok)->s, (yyvsp[0].tok)->slen);
  }
    break;

  case 6: /* stmt: VAR_START expr VAR_END  */
                         {
    (yyval.node) = NODE(TPL_N_PRINT, (yylsp[-2]));
    (yyval.node)->a = (yyvsp[-1].node);
  }
    break;

  case 7: /* stmt: tag  */
      { (yyval.node) = (yyvsp[0].node); }
    break;

  case 8: /* $@1: %empty  */
                      { open_tag(P, "if", (yylsp[-2])); }
    break;

  case 9: /* tag: T_IF expr BLOCK_END $@1 body elifs else_part T_ENDIF BLOCK_END  */
                    {
    close_tag(P);
    (yyval.node) = NODE(TPL_N_IF, (yylsp[-8]));
    tpl_nlist kids = {0, 0, 0};
    tpl_nlist_push(P->arena, &kids, (yyvsp[-7].node));
    tpl_nlist_push(P->arena, &kids, mk_body(P, &(yyvsp[-4].list), (yylsp[-6])));
    for (size_t i = 0; i < (yyvsp[-3].list).n; i++)
      tpl_nlist_push(P->arena, &kids, (yyvsp[-3].list).v[i]);
    tpl_node_set_kids((yyval.node), &kids);
    (yyval.node)->c = (yyvsp[-2].node);
  }
    break;

  case 10: /* $@2: %empty  */
                                             { open_tag(P, "for", (yylsp[-5])); }
    break;

  case 11: /* tag: T_FOR for_targets IN expr for_if BLOCK_END $@2 body for_else T_ENDFOR BLOCK_END  */
                                   {
    close_tag(P);
    (yyval.node) = NODE(TPL_N_FOR, (yylsp[-10]));
    if ((yyvsp[-9].list).n > 1) {
      (yyval.node)->name2 = (yyvsp[-9].list).v[0]->name;
      (yyval.node)->name = (yyvsp[-9].list).v[1]->name;
    } else {
      /* Twig binds the key to `_key` when it is not named */
      (yyval.node)->name2 = tpl_mkname(P->arena, "_key", 4);
      (yyval.node)->name = (yyvsp[-9].list).v[0]->name;
    }
    (yyval.node)->a = (yyvsp[-7].node);
    (yyval.node)->b = (yyvsp[-6].node);
    (yyval.node)->c = mk_body(P, &(yyvsp[-3].list), (yylsp[-5]));
    (yyval.node)->d = (yyvsp[-2].node);
  }
    break;

  case 12: /* tag: T_SET set_targets ASSIGN expr_list BLOCK_END  */
                                               {
    if ((yyvsp[-3].list).n != (yyvsp[-1].list).n)
      tpl_perr(P, (yylsp[-4]).first_line, (yylsp[-4]).first_column,
               "when using set, you must have the same number of variables "
               "and assignments");
    (yyval.node) = NODE(TPL_N_SET, (yylsp[-4]));
    tpl_nlist kids = (yyvsp[-3].list);
    for (size_t i = 0; i < (yyvsp[-1].list).n; i++)
      tpl_nlist_push(P->arena, &kids, (yyvsp[-1].list).v[i]);
    tpl_node_set_kids((yyval.node), &kids);
    (yyval.node)->n = (yyvsp[-3].list).n;
  }
    break;

  case 13: /* $@3: %empty  */
                              { open_tag(P, "set", (yylsp[-2])); }
    break;

  case 14: /* tag: T_SET set_targets BLOCK_END $@3 body T_ENDSET BLOCK_END  */
            {
    close_tag(P);
    if ((yyvsp[-5].list).n != 1)
      tpl_perr(P, (yylsp[-6]).first_line, (yylsp[-6]).first_column,
               "when using set with a block, you cannot have a multi-target");
    (yyval.node) = NODE(TPL_N_SET_CAPTURE, (yylsp[-6]));
    (yyval.node)->name = (yyvsp[-5].list).v[0]->name;
    (yyval.node)->a = mk_body(P, &(yyvsp[-2].list), (yylsp[-4]));
  }
    break;

  case 15: /* $@4: %empty  */
                         { open_tag(P, "block", (yylsp[-2])); }
    break;

  case 16: /* tag: T_BLOCK NAME BLOCK_END $@4 body T_ENDBLOCK opt_endname BLOCK_END  */
                        {
    close_tag(P);
    (yyval.node) = NODE(TPL_N_BLOCK_REF, (yylsp[-6]));
    (yyval.node)->name = tok_name(P, (yyvsp[-6].tok));
    (yyval.node)->flags = TPL_F__DEF;
    (yyval.node)->a = mk_body(P, &(yyvsp[-3].list), (yylsp[-5]));
    check_end_name(P, "block", (yyval.node), (yyvsp[-1].tok), (yylsp[-1]));
  }
    break;

  case 17: /* tag: T_BLOCK NAME expr BLOCK_END  */
                              {
    (yyval.node) = NODE(TPL_N_BLOCK_REF, (yylsp[-2]));
    (yyval.node)->name = tok_name(P, (yyvsp[-2].tok));
    (yyval.node)->flags = TPL_F__DEF | TPL_F__SHORT;
    tpl_node *pr = NODE(TPL_N_PRINT, (yylsp[-1]));
    pr->a = (yyvsp[-1].node);
    tpl_nlist l = {0, 0, 0};
    tpl_nlist_push(P->arena, &l, pr);
    (yyval.node)->a = mk_body(P, &l, (yylsp[-1]));
  }
    break;

  case 18: /* tag: T_EXTENDS expr BLOCK_END  */
                           {
    (yyval.node) = NODE(TPL_N_EXTENDS, (yylsp[-2]));
    (yyval.node)->a = (yyvsp[-1].node);
  }
    break;

  case 19: /* tag: T_INCLUDE expr incl_ignore incl_with incl_only BLOCK_END  */
                                                           {
    (yyval.node) = NODE(TPL_N_INCLUDE, (yylsp[-5]));
    (yyval.node)->a = (yyvsp[-4].node);
    (yyval.node)->b = (yyvsp[-2].node);
    (yyval.node)->flags = (uint8_t)((yyvsp[-3].ival) | (yyvsp[-1].ival));
  }
    break;

  case 20: /* $@5: %empty  */
  { open_tag(P, "embed", (yylsp[-5])); }
    break;

  case 21: /* tag: T_EMBED expr incl_ignore incl_with incl_only BLOCK_END $@5 body T_ENDEMBED BLOCK_END  */
                                                          {
    close_tag(P);
    (yyval.node) = NODE(TPL_N_EMBED, (yylsp[-9]));
    (yyval.node)->a = (yyvsp[-8].node);
    (yyval.node)->b = (yyvsp[-6].node);
    (yyval.node)->flags = (uint8_t)((yyvsp[-7].ival) | (yyvsp[-5].ival));
    (yyval.node)->c = mk_body(P, &(yyvsp[-2].list), (yylsp[-4]));
  }
    break;

  case 22: /* tag: T_USE expr BLOCK_END  */
                       {
    (yyval.node) = NODE(TPL_N__USE, (yylsp[-2]));
    (yyval.node)->a = (yyvsp[-1].node);
  }
    break;

  case 23: /* tag: T_USE expr K_WITH use_list BLOCK_END  */
                                       {
    (yyval.node) = NODE(TPL_N__USE, (yylsp[-4]));
    (yyval.node)->a = (yyvsp[-3].node);
    (yyval.node)->nnames = (yyvsp[-1].list).n * 2;
    (yyval.node)->names = oc_arena_alloc(P->arena,
                                ((yyval.node)->nnames ? (yyval.node)->nnames : 1) * sizeof(tpl_name));
    for (size_t i = 0; i < (yyvsp[-1].list).n; i++) {
      (yyval.node)->names[2 * i] = (yyvsp[-1].list).v[i]->name;
      (yyval.node)->names[2 * i + 1] = (yyvsp[-1].list).v[i]->name2;
    }
  }
    break;

  case 24: /* $@6: %empty  */
                                         { open_tag(P, "macro", (yylsp[-5])); }
    break;

  case 25: /* tag: T_MACRO NAME '(' mparams ')' BLOCK_END $@6 body T_ENDMACRO opt_endname BLOCK_END  */
                                   {
    close_tag(P);
    (yyval.node) = NODE(TPL_N__MACRO, (yylsp[-9]));
    (yyval.node)->name = tok_name(P, (yyvsp[-9].tok));
    (yyval.node)->nnames = (yyvsp[-7].list).n;
    (yyval.node)->names = oc_arena_alloc(P->arena, ((yyvsp[-7].list).n ? (yyvsp[-7].list).n : 1) * sizeof(tpl_name));
    tpl_nlist defs = {0, 0, 0};
    for (size_t i = 0; i < (yyvsp[-7].list).n; i++) {
      (yyval.node)->names[i] = (yyvsp[-7].list).v[i]->name;
      tpl_nlist_push(P->arena, &defs, (yyvsp[-7].list).v[i]->a);
      if (tpl_name_is(&(yyvsp[-7].list).v[i]->name, "varargs"))
        tpl_perr(P, (yyvsp[-7].list).v[i]->line, (yyvsp[-7].list).v[i]->col,
                 "the argument \"varargs\" in macro \"%s\" cannot be defined "
                 "because the variable \"varargs\" is reserved for arbitrary "
                 "arguments", (yyval.node)->name.s);
    }
    tpl_node_set_kids((yyval.node), &defs);
    (yyval.node)->a = mk_body(P, &(yyvsp[-3].list), (yylsp[-5]));
    check_end_name(P, "macro", (yyval.node), (yyvsp[-1].tok), (yylsp[-1]));
  }
    break;

  case 26: /* tag: T_IMPORT expr K_AS NAME BLOCK_END  */
                                    {
    (yyval.node) = NODE(TPL_N_IMPORT, (yylsp[-4]));
    (yyval.node)->a = (yyvsp[-3].node);
    (yyval.node)->name = tok_name(P, (yyvsp[-1].tok));
    (yyval.node)->name2 = (yyval.node)->name;
  }
    break;

  case 27: /* tag: T_FROM expr K_IMPORT from_list BLOCK_END  */
                                           {
    (yyval.node) = NODE(TPL_N_IMPORT, (yylsp[-4]));
    (yyval.node)->a = (yyvsp[-3].node);
    (yyval.node)->flags = TPL_F__FROM;
    tpl_node_set_kids((yyval.node), &(yyvsp[-1].list));
  }
    break;

  case 28: /* $@7: %empty  */
                                 { open_tag(P, "apply", (yylsp[-2])); }
    break;

  case 29: /* tag: T_APPLY filter_chain BLOCK_END $@7 body T_ENDAPPLY BLOCK_END  */
                       {
    close_tag(P);
    (yyval.node) = mk_apply(P, (yyvsp[-5].node), &(yyvsp[-2].list), (yylsp[-6]), (yylsp[-4]));
  }
    break;

  case 30: /* $@8: %empty  */
                                  { open_tag(P, "filter", (yylsp[-2])); }
    break;

  case 31: /* tag: T_FILTER filter_chain BLOCK_END $@8 body T_ENDFILTER BLOCK_END  */
                        {
    close_tag(P);
    (yyval.node) = mk_apply(P, (yyvsp[-5].node), &(yyvsp[-2].list), (yylsp[-6]), (yylsp[-4]));
  }
    break;

  case 32: /* $@9: %empty  */
                        { open_tag(P, "spaceless", (yylsp[-1])); }
    break;

  case 33: /* tag: T_SPACELESS BLOCK_END $@9 body T_ENDSPACELESS BLOCK_END  */
                           {
    close_tag(P);
    (yyval.node) = mk_apply(P, mk_capture_filter(P, "spaceless", (yylsp[-5])), &(yyvsp[-2].list), (yylsp[-5]), (yylsp[-4]));
  }
    break;

  case 34: /* $@10: %empty  */
                         { open_tag(P, "autoescape", (yylsp[-1])); }
    break;

  case 35: /* tag: T_AUTOESCAPE BLOCK_END $@10 body T_ENDAUTOESCAPE BLOCK_END  */
                            {
    close_tag(P);
    (yyval.node) = NODE(TPL_N_AUTOESCAPE, (yylsp[-5]));
    (yyval.node)->index = TPL_ESC_HTML;
    (yyval.node)->a = mk_body(P, &(yyvsp[-2].list), (yylsp[-4]));
  }
    break;

  case 36: /* $@11: %empty  */
                              { open_tag(P, "autoescape", (yylsp[-2])); }
    break;

  case 37: /* tag: T_AUTOESCAPE expr BLOCK_END $@11 body T_ENDAUTOESCAPE BLOCK_END  */
                            {
    close_tag(P);
    (yyval.node) = NODE(TPL_N_AUTOESCAPE, (yylsp[-6]));
    (yyval.node)->index = autoescape_value(P, (yyvsp[-5].node), (yylsp[-5]));
    (yyval.node)->a = mk_body(P, &(yyvsp[-2].list), (yylsp[-4]));
  }
    break;

  case 38: /* $@12: %empty  */
                   { open_tag(P, "with", (yylsp[-1])); }
    break;

  case 39: /* tag: T_WITH BLOCK_END $@12 body T_ENDWITH BLOCK_END  */
                                                                         {
    close_tag(P);
    (yyval.node) = NODE(TPL_N_WITH, (yylsp[-5]));
    (yyval.node)->b = mk_body(P, &(yyvsp[-2].list), (yylsp[-4]));
  }
    break;

  case 40: /* $@13: %empty  */
                                  { open_tag(P, "with", (yylsp[-3])); }
    break;

  case 41: /* tag: T_WITH expr incl_only BLOCK_END $@13 body T_ENDWITH BLOCK_END  */
                      {
    close_tag(P);
    (yyval.node) = NODE(TPL_N_WITH, (yylsp[-7]));
    (yyval.node)->a = (yyvsp[-6].node);
    (yyval.node)->flags = (uint8_t)(yyvsp[-5].ival);
    (yyval.node)->b = mk_body(P, &(yyvsp[-2].list), (yylsp[-4]));
  }
    break;

  case 42: /* tag: T_DO expr BLOCK_END  */
                      {
    (yyval.node) = NODE(TPL_N_DO, (yylsp[-2]));
    (yyval.node)->a = (yyvsp[-1].node);
  }
    break;

  case 43: /* tag: T_DEPRECATED expr BLOCK_END  */
                              {
    /* evaluated for its errors, as Twig does, but prints nothing */
    (yyval.node) = NODE(TPL_N_DO, (yylsp[-2]));
    (yyval.node)->a = (yyvsp[-1].node);
  }
    break;

  case 44: /* tag: T_FLUSH BLOCK_END  */
                    { (yyval.node) = NULL; }
    break;

  case 45: /* elifs: %empty  */
         { memset(&(yyval.list), 0, sizeof (yyval.list)); }
    break;

  case 46: /* elifs: elifs T_ELSEIF expr BLOCK_END body  */
                                     {
    (yyval.list) = (yyvsp[-4].list);
    tpl_nlist_push(P->arena, &(yyval.list), (yyvsp[-2].node));
    tpl_nlist_push(P->arena, &(yyval.list), mk_body(P, &(yyvsp[0].list), (yylsp[-1])));
  }
    break;

  case 47: /* else_part: %empty  */
         { (yyval.node) = NULL; }
    break;

  case 48: /* else_part: T_ELSE BLOCK_END body  */
                        { (yyval.node) = mk_body(P, &(yyvsp[0].list), (yylsp[-1])); }
    break;

  case 49: /* for_targets: NAME  */
       {
    memset(&(yyval.list), 0, sizeof (yyval.list));
    tpl_nlist_push(P->arena, &(yyval.list), assign_target(P, (yyvsp[0].tok), (yylsp[0])));
  }
    break;

  case 50: /* for_targets: for_targets ',' NAME  */
                       {
    (yyval.list) = (yyvsp[-2].list);
    tpl_nlist_push(P->arena, &(yyval.list), assign_target(P, (yyvsp[0].tok), (yylsp[0])));
  }
    break;

  case 51: /* for_if: %empty  */
         { (yyval.node) = NULL; }
    break;

  case 52: /* for_if: K_IF expr  */
            { (yyval.node) = (yyvsp[0].node); }
    break;

  case 53: /* for_else: %empty  */
         { (yyval.node) = NULL; }
    break;

  case 54: /* for_else: T_ELSE BLOCK_END body  */
                        { (yyval.node) = mk_body(P, &(yyvsp[0].list), (yylsp[-1])); }
    break;

  case 55: /* set_targets: NAME  */
       {
    memset(&(yyval.list), 0, sizeof (yyval.list));
    tpl_nlist_push(P->arena, &(yyval.list), assign_target(P, (yyvsp[0].tok), (yylsp[0])));
  }
    break;

  case 56: /* set_targets: set_targets ',' NAME  */
                       {
    (yyval.list) = (yyvsp[-2].list);
    tpl_nlist_push(P->arena, &(yyval.list), assign_target(P, (yyvsp[0].tok), (yylsp[0])));
  }
    break;

  case 57: /* opt_endname: %empty  */
         { (yyval.tok) = NULL; }
    break;

  case 58: /* opt_endname: NAME  */
       { (yyval.tok) = (yyvsp[0].tok); }
    break;

  case 59: /* incl_ignore: %empty  */
         { (yyval.ival) = 0; }
    break;

  case 60: /* incl_ignore: K_IGNORE K_MISSING  */
                     { (yyval.ival) = TPL_F_IGNORE_MISSING; }
    break;

  case 61: /* incl_with: %empty  */
         { (yyval.node) = NULL; }
    break;

  case 62: /* incl_with: K_WITH expr  */
              { (yyval.node) = (yyvsp[0].node); }
    break;

  case 63: /* incl_only: %empty  */
         { (yyval.ival) = 0; }
    break;

  case 64: /* incl_only: K_ONLY  */
         { (yyval.ival) = TPL_F_ONLY; }
    break;

  case 65: /* use_list: use_item  */
           { memset(&(yyval.list), 0, sizeof (yyval.list)); tpl_nlist_push(P->arena, &(yyval.list), (yyvsp[0].node)); }
    break;

  case 66: /* use_list: use_list ',' use_item  */
                        { (yyval.list) = (yyvsp[-2].list); tpl_nlist_push(P->arena, &(yyval.list), (yyvsp[0].node)); }
    break;

  case 67: /* use_item: NAME  */
       {
    (yyval.node) = NODE(TPL_N_NAME, (yylsp[0]));
    (yyval.node)->name = tok_name(P, (yyvsp[0].tok));
    (yyval.node)->name2 = (yyval.node)->name;
  }
    break;

  case 68: /* use_item: NAME K_AS NAME  */
                 {
    (yyval.node) = NODE(TPL_N_NAME, (yylsp[-2]));
    (yyval.node)->name = tok_name(P, (yyvsp[-2].tok));
    (yyval.node)->name2 = tok_name(P, (yyvsp[0].tok));
  }
    break;

  case 69: /* from_list: from_item  */
            { memset(&(yyval.list), 0, sizeof (yyval.list)); tpl_nlist_push(P->arena, &(yyval.list), (yyvsp[0].node)); }
    break;

  case 70: /* from_list: from_list ',' from_item  */
                          { (yyval.list) = (yyvsp[-2].list); tpl_nlist_push(P->arena, &(yyval.list), (yyvsp[0].node)); }
    break;

  case 71: /* from_item: NAME  */
       {
    (yyval.node) = NODE(TPL_N_NAME, (yylsp[0]));
    (yyval.node)->name = tok_name(P, (yyvsp[0].tok));
    (yyval.node)->name2 = (yyval.node)->name;
  }
    break;

  case 72: /* from_item: NAME K_AS NAME  */
                 {
    (yyval.node) = NODE(TPL_N_NAME, (yylsp[-2]));
    (yyval.node)->name = tok_name(P, (yyvsp[-2].tok));
    (yyval.node)->name2 = tok_name(P, (yyvsp[0].tok));
  }
    break;

  case 73: /* mparams: %empty  */
         { memset(&(yyval.list), 0, sizeof (yyval.list)); }
    break;

  case 74: /* mparams: mparam_list  */
              { (yyval.list) = (yyvsp[0].list); }
    break;

  case 75: /* mparams: mparam_list ','  */
                  { (yyval.list) = (yyvsp[-1].list); }
    break;

  case 76: /* mparam_list: mparam  */
         { memset(&(yyval.list), 0, sizeof (yyval.list)); tpl_nlist_push(P->arena, &(yyval.list), (yyvsp[0].node)); }
    break;

  case 77: /* mparam_list: mparam_list ',' mparam  */
                         { (yyval.list) = (yyvsp[-2].list); tpl_nlist_push(P->arena, &(yyval.list), (yyvsp[0].node)); }
    break;

  case 78: /* mparam: NAME  */
       {
    (yyval.node) = NODE(TPL_N_NAME, (yylsp[0]));
    (yyval.node)->name = tok_name(P, (yyvsp[0].tok));
  }
    break;

  case 79: /* mparam: ARG_NAME ASSIGN expr  */
                       {
    (yyval.node) = NODE(TPL_N_NAME, (yylsp[-2]));
    (yyval.node)->name = tok_name(P, (yyvsp[-2].tok));
    if (!is_constant((yyvsp[0].node)))
      tpl_perr(P, (yylsp[0]).first_line, (yylsp[0]).first_column,
               "a default value for an argument must be a constant (a "
               "boolean, a string, a number, or an array)");
    (yyval.node)->a = (yyvsp[0].node);
  }
    break;

  case 80: /* filter_chain: filter_app  */
             {
    (yyval.node) = (yyvsp[0].node);
    (yyval.node)->a = NODE(TPL_N_CAPTURED, (yylsp[0]));
  }
    break;

  case 81: /* filter_chain: filter_chain '|' filter_app  */
                              {
    (yyval.node) = starts_at((yyvsp[0].node), (yyvsp[-2].node));
    (yyval.node)->a = (yyvsp[-2].node);
  }
    break;

  case 82: /* filter_app: NAME  */
       {
    (yyval.node) = NODE(TPL_N_FILTER, (yylsp[0]));
    (yyval.node)->name = tok_name(P, (yyvsp[0].tok));
  }
    break;

  case 83: /* filter_app: NAME '(' args ')'  */
                    {
    (yyval.node) = NODE(TPL_N_FILTER, (yylsp[-3]));
    (yyval.node)->name = tok_name(P, (yyvsp[-3].tok));
    set_args((yyval.node), (yyvsp[-1].args));
  }
    break;

  case 84: /* expr_list: expr  */
       { memset(&(yyval.list), 0, sizeof (yyval.list)); tpl_nlist_push(P->arena, &(yyval.list), (yyvsp[0].node)); }
    break;

  case 85: /* expr_list: expr_list ',' expr  */
                     { (yyval.list) = (yyvsp[-2].list); tpl_nlist_push(P->arena, &(yyval.list), (yyvsp[0].node)); }
    break;

  case 86: /* expr: postfix  */
          { (yyval.node) = (yyvsp[0].node); }
    break;

  case 87: /* expr: NOT expr  */
           { (yyval.node) = mk_un(P, TPL_OP_NOT, (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 88: /* expr: MINUS expr  */
                          { (yyval.node) = mk_un(P, TPL_OP_NEG, (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 89: /* expr: PLUS expr  */
                         { (yyval.node) = mk_un(P, TPL_OP_POS, (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 90: /* expr: expr OR expr  */
               { (yyval.node) = mk_bin(P, TPL_OP_OR, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 91: /* expr: expr AND expr  */
                { (yyval.node) = mk_bin(P, TPL_OP_AND, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 92: /* expr: expr BOR expr  */
                { (yyval.node) = mk_bin(P, TPL_OP_BOR, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 93: /* expr: expr BXOR expr  */
                 { (yyval.node) = mk_bin(P, TPL_OP_BXOR, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 94: /* expr: expr BAND expr  */
                 { (yyval.node) = mk_bin(P, TPL_OP_BAND, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 95: /* expr: expr EQ expr  */
               { (yyval.node) = mk_bin(P, TPL_OP_EQ, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 96: /* expr: expr NE expr  */
               { (yyval.node) = mk_bin(P, TPL_OP_NE, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 97: /* expr: expr CMP expr  */
                { (yyval.node) = mk_bin(P, TPL_OP_CMP, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 98: /* expr: expr LT expr  */
               { (yyval.node) = mk_bin(P, TPL_OP_LT, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 99: /* expr: expr GT expr  */
               { (yyval.node) = mk_bin(P, TPL_OP_GT, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 100: /* expr: expr GE expr  */
               { (yyval.node) = mk_bin(P, TPL_OP_GE, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 101: /* expr: expr LE expr  */
               { (yyval.node) = mk_bin(P, TPL_OP_LE, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 102: /* expr: expr NOT_IN expr  */
                   { (yyval.node) = mk_bin(P, TPL_OP_NOT_IN, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 103: /* expr: expr IN expr  */
               { (yyval.node) = mk_bin(P, TPL_OP_IN, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 104: /* expr: expr MATCHES expr  */
                    { (yyval.node) = mk_bin(P, TPL_OP_MATCHES, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 105: /* expr: expr STARTS_WITH expr  */
                        { (yyval.node) = mk_bin(P, TPL_OP_STARTS_WITH, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 106: /* expr: expr ENDS_WITH expr  */
                      { (yyval.node) = mk_bin(P, TPL_OP_ENDS_WITH, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 107: /* expr: expr HAS_SOME expr  */
                     { (yyval.node) = mk_bin(P, TPL_OP_HAS_SOME, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 108: /* expr: expr HAS_EVERY expr  */
                      { (yyval.node) = mk_bin(P, TPL_OP_HAS_EVERY, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 109: /* expr: expr HAS_SOME arrow  */
                      { (yyval.node) = mk_bin(P, TPL_OP_HAS_SOME, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 110: /* expr: expr HAS_EVERY arrow  */
                       { (yyval.node) = mk_bin(P, TPL_OP_HAS_EVERY, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 111: /* expr: expr RANGE expr  */
                  { (yyval.node) = mk_bin(P, TPL_OP_RANGE, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 112: /* expr: expr PLUS expr  */
                 { (yyval.node) = mk_bin(P, TPL_OP_ADD, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 113: /* expr: expr MINUS expr  */
                  { (yyval.node) = mk_bin(P, TPL_OP_SUB, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 114: /* expr: expr TILDE expr  */
                  { (yyval.node) = mk_bin(P, TPL_OP_CONCAT, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 115: /* expr: expr MUL expr  */
                { (yyval.node) = mk_bin(P, TPL_OP_MUL, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 116: /* expr: expr DIV expr  */
                { (yyval.node) = mk_bin(P, TPL_OP_DIV, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 117: /* expr: expr FLOORDIV expr  */
                     { (yyval.node) = mk_bin(P, TPL_OP_FLOORDIV, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 118: /* expr: expr MOD expr  */
                { (yyval.node) = mk_bin(P, TPL_OP_MOD, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 119: /* expr: expr POW expr  */
                { (yyval.node) = mk_bin(P, TPL_OP_POW, (yyvsp[-2].node), (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 120: /* expr: expr NULLCOAL expr  */
                     {
    (yyval.node) = NODE(TPL_N_NULLCOALESCE, (yylsp[-1]));
    (yyval.node)->a = (yyvsp[-2].node);
    (yyval.node)->b = (yyvsp[0].node);
    starts_at((yyval.node), (yyvsp[-2].node));
  }
    break;

  case 121: /* expr: expr IS test  */
                        { (yyval.node) = starts_at((yyvsp[0].node), (yyvsp[-2].node)); (yyval.node)->a = (yyvsp[-2].node); }
    break;

  case 122: /* expr: expr IS_NOT test  */
                            {
    (yyval.node) = starts_at((yyvsp[0].node), (yyvsp[-2].node));
    (yyval.node)->a = (yyvsp[-2].node);
    (yyval.node)->flags |= TPL_F_NEGATE;
  }
    break;

  case 123: /* expr: expr '?' expr ':' expr  */
                         {
    (yyval.node) = starts_at(NODE(TPL_N_COND, (yylsp[-3])), (yyvsp[-4].node));
    (yyval.node)->a = (yyvsp[-4].node);
    (yyval.node)->b = (yyvsp[-2].node);
    (yyval.node)->c = (yyvsp[0].node);
  }
    break;

  case 124: /* expr: expr '?' expr  */
                          {
    (yyval.node) = starts_at(NODE(TPL_N_COND, (yylsp[-1])), (yyvsp[-2].node));
    (yyval.node)->a = (yyvsp[-2].node);
    (yyval.node)->b = (yyvsp[0].node);
  }
    break;

  case 125: /* expr: expr '?' ':' expr  */
                    {
    (yyval.node) = starts_at(NODE(TPL_N_COND, (yylsp[-2])), (yyvsp[-3].node));
    (yyval.node)->a = (yyvsp[-3].node);
    (yyval.node)->c = (yyvsp[0].node);
  }
    break;

  case 126: /* test: TEST_NAME  */
            {
    (yyval.node) = NODE(TPL_N_TEST, (yylsp[0]));
    (yyval.node)->name = tok_name(P, (yyvsp[0].tok));
  }
    break;

  case 127: /* test: TEST_NAME '(' args ')'  */
                         {
    (yyval.node) = NODE(TPL_N_TEST, (yylsp[-3]));
    (yyval.node)->name = tok_name(P, (yyvsp[-3].tok));
    set_args((yyval.node), (yyvsp[-1].args));
  }
    break;

  case 128: /* test: TEST_NAME1 test_arg  */
                      {
    (yyval.node) = NODE(TPL_N_TEST, (yylsp[-1]));
    (yyval.node)->name = tok_name(P, (yyvsp[-1].tok));
    tpl_nlist l = {0, 0, 0};
    tpl_nlist_push(P->arena, &l, (yyvsp[0].node));
    tpl_node_set_kids((yyval.node), &l);
  }
    break;

  case 129: /* test_arg: postfix  */
          { (yyval.node) = (yyvsp[0].node); }
    break;

  case 130: /* test_arg: MINUS test_arg  */
                 { (yyval.node) = mk_un(P, TPL_OP_NEG, (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 131: /* test_arg: PLUS test_arg  */
                { (yyval.node) = mk_un(P, TPL_OP_POS, (yyvsp[0].node), (yylsp[-1])); }
    break;

  case 132: /* postfix: primary  */
          { (yyval.node) = (yyvsp[0].node); }
    break;

  case 133: /* postfix: postfix '.' NAME  */
                   {
    (yyval.node) = starts_at(NODE(TPL_N_GETATTR, (yylsp[0])), (yyvsp[-2].node));
    (yyval.node)->a = (yyvsp[-2].node);
    (yyval.node)->b = mk_str(P, (yyvsp[0].tok), (yylsp[0]));
    (yyval.node)->name = tok_name(P, (yyvsp[0].tok));
    (yyval.node)->index = TPL_ATTR_ANY;
  }
    break;

  case 134: /* postfix: postfix '.' NUMBER  */
                     {
    (yyval.node) = starts_at(NODE(TPL_N_GETATTR, (yylsp[0])), (yyvsp[-2].node));
    (yyval.node)->a = (yyvsp[-2].node);
    (yyval.node)->b = mk_const(P, (yyvsp[0].tok)->num, (yylsp[0]));
    (yyval.node)->index = TPL_ATTR_ANY;
  }
    break;

  case 135: /* postfix: postfix '.' NAME '(' args ')'  */
                                {
    (yyval.node) = starts_at(NODE(TPL_N_GETATTR, (yylsp[-3])), (yyvsp[-5].node));
    (yyval.node)->a = (yyvsp[-5].node);
    (yyval.node)->b = mk_str(P, (yyvsp[-3].tok), (yylsp[-3]));
    (yyval.node)->name = tok_name(P, (yyvsp[-3].tok));
    (yyval.node)->index = TPL_ATTR_METHOD;
    set_args((yyval.node), (yyvsp[-1].args));
  }
    break;

  case 136: /* postfix: postfix '[' expr ']'  */
                       {
    /* a missing key is reported at the key */
    (yyval.node) = starts_at(NODE(TPL_N_GETATTR, (yylsp[-1])), (yyvsp[-3].node));
    (yyval.node)->loc.line = (yyvsp[-1].node)->line;
    (yyval.node)->loc.col = (yyvsp[-1].node)->col;
    (yyval.node)->a = (yyvsp[-3].node);
    (yyval.node)->b = (yyvsp[-1].node);
    (yyval.node)->index = TPL_ATTR_ARRAY;
    if ((yyvsp[-1].node)->kind == TPL_N_CONST && (yyvsp[-1].node)->value.type == TPL_STR)
      (yyval.node)->name = tpl_mkname(P->arena, (yyvsp[-1].node)->value.u.s, (yyvsp[-1].node)->value.len);
  }
    break;

  case 137: /* postfix: postfix '[' expr ':' expr ']'  */
                                {
    (yyval.node) = starts_at(NODE(TPL_N_SLICE, (yylsp[-4])), (yyvsp[-5].node));
    (yyval.node)->a = (yyvsp[-5].node);
    (yyval.node)->b = (yyvsp[-3].node);
    (yyval.node)->c = (yyvsp[-1].node);
  }
    break;

  case 138: /* postfix: postfix '[' expr ':' ']'  */
                           {
    (yyval.node) = starts_at(NODE(TPL_N_SLICE, (yylsp[-3])), (yyvsp[-4].node));
    (yyval.node)->a = (yyvsp[-4].node);
    (yyval.node)->b = (yyvsp[-2].node);
  }
    break;

  case 139: /* postfix: postfix '[' ':' expr ']'  */
                           {
    (yyval.node) = starts_at(NODE(TPL_N_SLICE, (yylsp[-3])), (yyvsp[-4].node));
    (yyval.node)->a = (yyvsp[-4].node);
    (yyval.node)->b = mk_const(P, tpl_int(0), (yylsp[-2]));
    (yyval.node)->c = (yyvsp[-1].node);
  }
    break;

  case 140: /* postfix: postfix '[' ':' ']'  */
                      {
    (yyval.node) = starts_at(NODE(TPL_N_SLICE, (yylsp[-2])), (yyvsp[-3].node));
    (yyval.node)->a = (yyvsp[-3].node);
    (yyval.node)->b = mk_const(P, tpl_int(0), (yylsp[-1]));
  }
    break;

  case 141: /* postfix: postfix '|' filter_app  */
                         {
    (yyval.node) = starts_at((yyvsp[0].node), (yyvsp[-2].node));
    (yyval.node)->a = (yyvsp[-2].node);
  }
    break;

  case 142: /* primary: NAME  */
       { (yyval.node) = mk_name_or_const(P, (yyvsp[0].tok), (yylsp[0])); }
    break;

  case 143: /* primary: NAME '(' args ')'  */
                    {
    (yyval.node) = NODE(TPL_N_FUNCTION, (yylsp[-3]));
    (yyval.node)->name = tok_name(P, (yyvsp[-3].tok));
    set_args((yyval.node), (yyvsp[-1].args));
  }
    break;

  case 144: /* primary: NUMBER  */
         { (yyval.node) = mk_const(P, (yyvsp[0].tok)->num, (yylsp[0])); }
    break;

  case 145: /* primary: string  */
         { (yyval.node) = (yyvsp[0].node); }
    break;

  case 146: /* primary: array  */
        { (yyval.node) = (yyvsp[0].node); }
    break;

  case 147: /* primary: hash  */
       { (yyval.node) = (yyvsp[0].node); }
    break;

  case 148: /* primary: '(' expr ')'  */
               { (yyval.node) = (yyvsp[-1].node); }
    break;

  case 149: /* string: STRING  */
         { (yyval.node) = mk_str(P, (yyvsp[0].tok), (yylsp[0])); }
    break;

  case 150: /* string: DQ_OPEN interp_parts DQ_CLOSE  */
                                {
    /* Twig: parts joined by ~, a lone #{x} is x itself */
    (yyval.node) = NULL;
    for (size_t i = 0; i < (yyvsp[-1].list).n; i++) {
      tpl_node *p = (yyvsp[-1].list).v[i];
      (yyval.node) = (yyval.node) ? mk_bin(P, TPL_OP_CONCAT, (yyval.node), p, (yylsp[-2])) : p;
    }
    if (!(yyval.node))
      (yyval.node) = mk_const(P, tpl_str("", 0), (yylsp[-2]));
  }
    break;

  case 151: /* interp_parts: interp_part  */
              { memset(&(yyval.list), 0, sizeof (yyval.list)); tpl_nlist_push(P->arena, &(yyval.list), (yyvsp[0].node)); }
    break;

  case 152: /* interp_parts: interp_parts interp_part  */
                           { (yyval.list) = (yyvsp[-1].list); tpl_nlist_push(P->arena, &(yyval.list), (yyvsp[0].node)); }
    break;

  case 153: /* interp_part: STRING  */
         { (yyval.node) = mk_str(P, (yyvsp[0].tok), (yylsp[0])); }
    break;

  case 154: /* interp_part: INTERP_START expr INTERP_END  */
                               { (yyval.node) = (yyvsp[-1].node); }
    break;

  case 155: /* array: '[' array_items ']'  */
                      {
    (yyval.node) = NODE(TPL_N_ARRAY, (yylsp[-2]));
    tpl_node_set_kids((yyval.node), &(yyvsp[-1].list));
  }
    break;

  case 156: /* array_items: %empty  */
         { memset(&(yyval.list), 0, sizeof (yyval.list)); }
    break;

  case 157: /* array_items: expr_list  */
            { (yyval.list) = (yyvsp[0].list); }
    break;

  case 158: /* array_items: expr_list ','  */
                { (yyval.list) = (yyvsp[-1].list); }
    break;

  case 159: /* hash: '{' hash_items '}'  */
                     {
    (yyval.node) = NODE(TPL_N_HASH, (yylsp[-2]));
    tpl_node_set_kids((yyval.node), &(yyvsp[-1].list));
  }
    break;

  case 160: /* hash_items: %empty  */
         { memset(&(yyval.list), 0, sizeof (yyval.list)); }
    break;

  case 161: /* hash_items: hash_list  */
            { (yyval.list) = (yyvsp[0].list); }
    break;

  case 162: /* hash_items: hash_list ','  */
                { (yyval.list) = (yyvsp[-1].list); }
    break;

  case 163: /* hash_list: NAME ':' expr  */
                {
    memset(&(yyval.list), 0, sizeof (yyval.list));
    tpl_nlist_push(P->arena, &(yyval.list), mk_str(P, (yyvsp[-2].tok), (yylsp[-2])));
    tpl_nlist_push(P->arena, &(yyval.list), (yyvsp[0].node));
  }
    break;

  case 164: /* hash_list: NAME  */
       {
    memset(&(yyval.list), 0, sizeof (yyval.list));
    tpl_nlist_push(P->arena, &(yyval.list), mk_str(P, (yyvsp[0].tok), (yylsp[0])));
    tpl_node *v = NODE(TPL_N_NAME, (yylsp[0]));
    v->name = tok_name(P, (yyvsp[0].tok));
    tpl_nlist_push(P->arena, &(yyval.list), v);
  }
    break;

  case 165: /* hash_list: STRING ':' expr  */
                  {
    memset(&(yyval.list), 0, sizeof (yyval.list));
    tpl_nlist_push(P->arena, &(yyval.list), mk_str(P, (yyvsp[-2].tok), (yylsp[-2])));
    tpl_nlist_push(P->arena, &(yyval.list), (yyvsp[0].node));
  }
    break;

  case 166: /* hash_list: NUMBER ':' expr  */
                  {
    memset(&(yyval.list), 0, sizeof (yyval.list));
    tpl_nlist_push(P->arena, &(yyval.list), mk_const(P, (yyvsp[-2].tok)->num, (yylsp[-2])));
    tpl_nlist_push(P->arena, &(yyval.list), (yyvsp[0].node));
  }
    break;

  case 167: /* hash_list: '(' expr ')' ':' expr  */
                        {
    memset(&(yyval.list), 0, sizeof (yyval.list));
    tpl_nlist_push(P->arena, &(yyval.list), (yyvsp[-3].node));
    tpl_nlist_push(P->arena, &(yyval.list), (yyvsp[0].node));
  }
    break;

  case 168: /* hash_list: hash_list ',' NAME ':' expr  */
                              {
    (yyval.list) = (yyvsp[-4].list);
    tpl_nlist_push(P->arena, &(yyval.list), mk_str(P, (yyvsp[-2].tok), (yylsp[-2])));
    tpl_nlist_push(P->arena, &(yyval.list), (yyvsp[0].node));
  }
    break;

  case 169: /* hash_list: hash_list ',' NAME  */
                     {
    (yyval.list) = (yyvsp[-2].list);
    tpl_nlist_push(P->arena, &(yyval.list), mk_str(P, (yyvsp[0].tok), (yylsp[0])));
    tpl_node *v = NODE(TPL_N_NAME, (yylsp[0]));
    v->name = tok_name(P, (yyvsp[0].tok));
    tpl_nlist_push(P->arena, &(yyval.list), v);
  }
    break;

  case 170: /* hash_list: hash_list ',' STRING ':' expr  */
                                {
    (yyval.list) = (yyvsp[-4].list);
    tpl_nlist_push(P->arena, &(yyval.list), mk_str(P, (yyvsp[-2].tok), (yylsp[-2])));
    tpl_nlist_push(P->arena, &(yyval.list), (yyvsp[0].node));
  }
    break;

  case 171: /* hash_list: hash_list ',' NUMBER ':' expr  */
                                {
    (yyval.list) = (yyvsp[-4].list);
    tpl_nlist_push(P->arena, &(yyval.list), mk_const(P, (yyvsp[-2].tok)->num, (yylsp[-2])));
    tpl_nlist_push(P->arena, &(yyval.list), (yyvsp[0].node));
  }
    break;

  case 172: /* hash_list: hash_list ',' '(' expr ')' ':' expr  */
                                      {
    (yyval.list) = (yyvsp[-6].list);
    tpl_nlist_push(P->arena, &(yyval.list), (yyvsp[-3].node));
    tpl_nlist_push(P->arena, &(yyval.list), (yyvsp[0].node));
  }
    break;

  case 173: /* args: %empty  */
         { (yyval.args) = oc_arena_calloc(P->arena, 1, sizeof(tpl_arglist)); }
    break;

  case 174: /* args: arg_list  */
           { (yyval.args) = (yyvsp[0].args); }
    break;

  case 175: /* args: arg_list ','  */
               { (yyval.args) = (yyvsp[-1].args); }
    break;

  case 176: /* arg_list: expr  */
       {
    (yyval.args) = oc_arena_calloc(P->arena, 1, sizeof(tpl_arglist));
    tpl_arglist_push(P->arena, (yyval.args), (yyvsp[0].node), NULL, 0);
  }
    break;

  case 177: /* arg_list: arrow  */
        {
    (yyval.args) = oc_arena_calloc(P->arena, 1, sizeof(tpl_arglist));
    tpl_arglist_push(P->arena, (yyval.args), (yyvsp[0].node), NULL, 0);
  }
    break;

  case 178: /* arg_list: ARG_NAME ASSIGN expr  */
                       {
    (yyval.args) = oc_arena_calloc(P->arena, 1, sizeof(tpl_arglist));
    tpl_arglist_push(P->arena, (yyval.args), (yyvsp[0].node), (yyvsp[-2].tok)->s, (yyvsp[-2].tok)->slen);
  }
    break;

  case 179: /* arg_list: ARG_NAME ASSIGN arrow  */
                        {
    (yyval.args) = oc_arena_calloc(P->arena, 1, sizeof(tpl_arglist));
    tpl_arglist_push(P->arena, (yyval.args), (yyvsp[0].node), (yyvsp[-2].tok)->s, (yyvsp[-2].tok)->slen);
  }
    break;

  case 180: /* arg_list: arg_list ',' expr  */
                    { (yyval.args) = (yyvsp[-2].args); tpl_arglist_push(P->arena, (yyval.args), (yyvsp[0].node), NULL, 0); }
    break;

  case 181: /* arg_list: arg_list ',' arrow  */
                     { (yyval.args) = (yyvsp[-2].args); tpl_arglist_push(P->arena, (yyval.args), (yyvsp[0].node), NULL, 0); }
    break;

  case 182: /* arg_list: arg_list ',' ARG_NAME ASSIGN expr  */
                                    {
    (yyval.args) = (yyvsp[-4].args);
    tpl_arglist_push(P->arena, (yyval.args), (yyvsp[0].node), (yyvsp[-2].tok)->s, (yyvsp[-2].tok)->slen);
  }
    break;

  case 183: /* arg_list: arg_list ',' ARG_NAME ASSIGN arrow  */
                                     {
    (yyval.args) = (yyvsp[-4].args);
    tpl_arglist_push(P->arena, (yyval.args), (yyvsp[0].node), (yyvsp[-2].tok)->s, (yyvsp[-2].tok)->slen);
  }
    break;

  case 184: /* arrow: ARROW_PARAM ARROW expr  */
                                   {
    (yyval.node) = NODE(TPL_N_ARROW, (yylsp[-2]));
    (yyval.node)->nnames = 1;
    (yyval.node)->names = oc_arena_alloc(P->arena, sizeof(tpl_name));
    (yyval.node)->names[0] = tok_name(P, (yyvsp[-2].tok));
    (yyval.node)->a = (yyvsp[0].node);
  }
    break;

  case 185: /* arrow: ARROW_LPAREN arrow_params ')' ARROW expr  */
                                                     {
    (yyval.node) = NODE(TPL_N_ARROW, (yylsp[-4]));
    (yyval.node)->nnames = (yyvsp[-3].list).n;
    (yyval.node)->names = oc_arena_alloc(P->arena, (yyvsp[-3].list).n * sizeof(tpl_name));
    for (size_t i = 0; i < (yyvsp[-3].list).n; i++)
      (yyval.node)->names[i] = (yyvsp[-3].list).v[i]->name;
    (yyval.node)->a = (yyvsp[0].node);
  }
    break;

  case 186: /* arrow_params: NAME  */
       {
    memset(&(yyval.list), 0, sizeof (yyval.list));
    tpl_node *n = NODE(TPL_N_NAME, (yylsp[0]));
    n->name = tok_name(P, (yyvsp[0].tok));
    tpl_nlist_push(P->arena, &(yyval.list), n);
  }
    break;

  case 187: /* arrow_params: arrow_params ',' NAME  */
                        {
    (yyval.list) = (yyvsp[-2].list);
    tpl_node *n = NODE(TPL_N_NAME, (yylsp[0]));
    n->name = tok_name(P, (yyvsp[0].tok));
    tpl_nlist_push(P->arena, &(yyval.list), n);
  }
    break;



        default: break;
      }
    if (yychar_backup != yychar)
      YY_LAC_DISCARD ("yychar change");
  }
  /* User semantic actions sometimes alter yychar, and that requires
     that yytoken be updated with the new translation.  We take the
     approach of translating immediately before every use of yytoken.
     One alternative is translating here after every semantic action,
     but that translation would be missed if the semantic action invokes
     YYABORT, YYACCEPT, or YYERROR immediately after altering yychar or
     if it invokes YYBACKUP.  In the case of YYABORT or YYACCEPT, an
     incorrect destructor might then be invoked immediately.  In the
     case of YYERROR or YYBACKUP, subsequent parser actions might lead
     to an incorrect destructor call or verbose syntax error message
     before the lookahead is translated.  */
  YY_SYMBOL_PRINT ("-> $$ =", YY_CAST (yysymbol_kind_t, yyr1[yyn]), &yyval, &yyloc);

  YYPOPSTACK (yylen);
  yylen = 0;

  *++yyvsp = yyval;
  *++yylsp = yyloc;

  /* Now 'shift' the result of the reduction.  Determine what state
     that goes to, based on the state we popped back to and the rule
     number reduced by.  */
  {
    const int yylhs = yyr1[yyn] - YYNTOKENS;
    const int yyi = yypgoto[yylhs] + *yyssp;
    yystate = (0 <= yyi && yyi <= YYLAST && yycheck[yyi] == *yyssp
               ? yytable[yyi]
               : yydefgoto[yylhs]);
  }

  goto yynewstate;


/*--------------------------------------.
| yyerrlab -- here on detecting error.  |
`--------------------------------------*/
yyerrlab:
  /* Make sure we have latest lookahead translation.  See comments at
     user semantic actions for why this is necessary.  */
  yytoken = yychar == TPL_YYEMPTY ? YYSYMBOL_YYEMPTY : YYTRANSLATE (yychar);
  /* If not already recovering from an error, report this error.  */
  if (!yyerrstatus)
    {
      ++yynerrs;
      {
        yypcontext_t yyctx
          = {yyssp, yyesa, &yyes, &yyes_capacity, yytoken, &yylloc};
        if (yychar != TPL_YYEMPTY)
          YY_LAC_ESTABLISH;
        if (yyreport_syntax_error (&yyctx, P) == 2)
          YYNOMEM;
      }
    }

  yyerror_range[1] = yylloc;
  if (yyerrstatus == 3)
    {
      /* If just tried and failed to reuse lookahead token after an
         error, discard it.  */

      if (yychar <= TPL_YYEOF)
        {
          /* Return failure if at end of input.  */
          if (yychar == TPL_YYEOF)
            YYABORT;
        }
      else
        {
          yydestruct ("Error: discarding",
                      yytoken, &yylval, &yylloc, P);
          yychar = TPL_YYEMPTY;
        }
    }

  /* Else will try to reuse lookahead token after shifting the error
     token.  */
  goto yyerrlab1;


/*---------------------------------------------------.
| yyerrorlab -- error raised explicitly by YYERROR.  |
`---------------------------------------------------*/
yyerrorlab:
  /* Pacify compilers when the user code never invokes YYERROR and the
     label yyerrorlab therefore never appears in user code.  */
  if (0)
    YYERROR;
  ++yynerrs;

  /* Do not reclaim the symbols of the rule whose action triggered
     this YYERROR.  */
  YYPOPSTACK (yylen);
  yylen = 0;
  YY_STACK_PRINT (yyss, yyssp);
  yystate = *yyssp;
  goto yyerrlab1;


/*-------------------------------------------------------------.
| yyerrlab1 -- common code for both syntax error and YYERROR.  |
`-------------------------------------------------------------*/
yyerrlab1:
  yyerrstatus = 3;      /* Each real token shifted decrements this.  */

  /* Pop stack until we find a state that shifts the error token.  */
  for (;;)
    {
      yyn = yypact[yystate];
      if (!yypact_value_is_default (yyn))
        {
          yyn += YYSYMBOL_YYerror;
          if (0 <= yyn && yyn <= YYLAST && yycheck[yyn] == YYSYMBOL_YYerror)
            {
              yyn = yytable[yyn];
              if (0 < yyn)
                break;
            }
        }

      /* Pop the current state because it cannot handle the error token.  */
      if (yyssp == yyss)
        YYABORT;

      yyerror_range[1] = *yylsp;
      yydestruct ("Error: popping",
                  YY_ACCESSING_SYMBOL (yystate), yyvsp, yylsp, P);
      YYPOPSTACK (1);
      yystate = *yyssp;
      YY_STACK_PRINT (yyss, yyssp);
    }

  /* If the stack popping above didn't lose the initial context for the
     current lookahead token, the shift below will for sure.  */
  YY_LAC_DISCARD ("error recovery");

  YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
  *++yyvsp = yylval;
  YY_IGNORE_MAYBE_UNINITIALIZED_END

  yyerror_range[2] = yylloc;
  ++yylsp;
  YYLLOC_DEFAULT (*yylsp, yyerror_range, 2);

  /* Shift the error token.  */
  YY_SYMBOL_PRINT ("Shifting", YY_ACCESSING_SYMBOL (yyn), yyvsp, yylsp);

  yystate = yyn;
  goto yynewstate;


/*-------------------------------------.
| yyacceptlab -- YYACCEPT comes here.  |
`-------------------------------------*/
yyacceptlab:
  yyresult = 0;
  goto yyreturnlab;


/*-----------------------------------.
| yyabortlab -- YYABORT comes here.  |
`-----------------------------------*/
yyabortlab:
  yyresult = 1;
  goto yyreturnlab;


/*-----------------------------------------------------------.
| yyexhaustedlab -- YYNOMEM (memory exhaustion) comes here.  |
`-----------------------------------------------------------*/
yyexhaustedlab:
  yyerror (&yylloc, P, YY_("memory exhausted"));
  yyresult = 2;
  goto yyreturnlab;


/*----------------------------------------------------------.
| yyreturnlab -- parsing is finished, clean up and return.  |
`----------------------------------------------------------*/
yyreturnlab:
  if (yychar != TPL_YYEMPTY)
    {
      /* Make sure we have latest lookahead translation.  See comments at
         user semantic actions for why this is necessary.  */
      yytoken = YYTRANSLATE (yychar);
      yydestruct ("Cleanup: discarding lookahead",
                  yytoken, &yylval, &yylloc, P);
    }
  /* Do not reclaim the symbols of the rule whose action triggered
     this YYABORT or YYACCEPT.  */
  YYPOPSTACK (yylen);
  YY_STACK_PRINT (yyss, yyssp);
  while (yyssp != yyss)
    {
      yydestruct ("Cleanup: popping",
                  YY_ACCESSING_SYMBOL (+*yyssp), yyvsp, yylsp, P);
      YYPOPSTACK (1);
    }
#ifndef yyoverflow
  if (yyss != yyssa)
    YYSTACK_FREE (yyss);
#endif
  if (yyes != yyesa)
    YYSTACK_FREE (yyes);

  return yyresult;
}



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
