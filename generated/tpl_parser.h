/* A Bison parser, made by GNU Bison 3.8.2.  */

/* Bison interface for Yacc-like parsers in C

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

/* DO NOT RELY ON FEATURES THAT ARE NOT DOCUMENTED in the manual,
   especially those whose name start with YY_ or yy_.  They are
   private implementation details that can be changed or removed.  */

#ifndef YY_TPL_YY_TPL_PARSER_H_INCLUDED
# define YY_TPL_YY_TPL_PARSER_H_INCLUDED
/* Debug traces.  */
#ifndef TPL_YYDEBUG
# if defined YYDEBUG
#if YYDEBUG
#   define TPL_YYDEBUG 1
#  else
#   define TPL_YYDEBUG 0
#  endif
# else /* ! defined YYDEBUG */
#  define TPL_YYDEBUG 0
# endif /* ! defined YYDEBUG */
#endif  /* ! defined TPL_YYDEBUG */
#if TPL_YYDEBUG
extern int tpl_yydebug;
#endif
/* "%code requires" blocks.  */

#include "tpl_front.h"


/* Token kinds.  */
#ifndef TPL_YYTOKENTYPE
# define TPL_YYTOKENTYPE
  enum tpl_yytokentype
  {
    TPL_YYEMPTY = -2,
    TPL_YYEOF = 0,                 /* "end of file"  */
    TPL_YYerror = 256,             /* error  */
    TPL_YYUNDEF = 257,             /* "invalid token"  */
    TEXT = 258,                    /* TEXT  */
    VAR_START = 259,               /* VAR_START  */
    VAR_END = 260,                 /* VAR_END  */
    BLOCK_END = 261,               /* BLOCK_END  */
    NAME = 262,                    /* NAME  */
    NUMBER = 263,                  /* NUMBER  */
    STRING = 264,                  /* STRING  */
    DQ_OPEN = 265,                 /* DQ_OPEN  */
    DQ_CLOSE = 266,                /* DQ_CLOSE  */
    INTERP_START = 267,            /* INTERP_START  */
    INTERP_END = 268,              /* INTERP_END  */
    ARROW = 269,                   /* ARROW  */
    ARROW_PARAM = 270,             /* ARROW_PARAM  */
    ARROW_LPAREN = 271,            /* ARROW_LPAREN  */
    ARG_NAME = 272,                /* ARG_NAME  */
    TEST_NAME = 273,               /* TEST_NAME  */
    TEST_NAME1 = 274,              /* TEST_NAME1  */
    OR = 275,                      /* OR  */
    AND = 276,                     /* AND  */
    BOR = 277,                     /* BOR  */
    BXOR = 278,                    /* BXOR  */
    BAND = 279,                    /* BAND  */
    EQ = 280,                      /* EQ  */
    NE = 281,                      /* NE  */
    CMP = 282,                     /* CMP  */
    LT = 283,                      /* LT  */
    GT = 284,                      /* GT  */
    GE = 285,                      /* GE  */
    LE = 286,                      /* LE  */
    NOT_IN = 287,                  /* NOT_IN  */
    IN = 288,                      /* IN  */
    MATCHES = 289,                 /* MATCHES  */
    STARTS_WITH = 290,             /* STARTS_WITH  */
    ENDS_WITH = 291,               /* ENDS_WITH  */
    HAS_SOME = 292,                /* HAS_SOME  */
    HAS_EVERY = 293,               /* HAS_EVERY  */
    RANGE = 294,                   /* RANGE  */
    PLUS = 295,                    /* PLUS  */
    MINUS = 296,                   /* MINUS  */
    TILDE = 297,                   /* TILDE  */
    MUL = 298,                     /* MUL  */
    DIV = 299,                     /* DIV  */
    FLOORDIV = 300,                /* FLOORDIV  */
    MOD = 301,                     /* MOD  */
    IS = 302,                      /* IS  */
    IS_NOT = 303,                  /* IS_NOT  */
    POW = 304,                     /* POW  */
    NULLCOAL = 305,                /* NULLCOAL  */
    NOT = 306,                     /* NOT  */
    ASSIGN = 307,                  /* ASSIGN  */
    K_AS = 308,                    /* K_AS  */
    K_WITH = 309,                  /* K_WITH  */
    K_ONLY = 310,                  /* K_ONLY  */
    K_IGNORE = 311,                /* K_IGNORE  */
    K_MISSING = 312,               /* K_MISSING  */
    K_IMPORT = 313,                /* K_IMPORT  */
    K_IF = 314,                    /* K_IF  */
    T_IF = 315,                    /* T_IF  */
    T_ELSEIF = 316,                /* T_ELSEIF  */
    T_ELSE = 317,                  /* T_ELSE  */
    T_ENDIF = 318,                 /* T_ENDIF  */
    T_FOR = 319,                   /* T_FOR  */
    T_ENDFOR = 320,                /* T_ENDFOR  */
    T_SET = 321,                   /* T_SET  */
    T_ENDSET = 322,                /* T_ENDSET  */
    T_BLOCK = 323,                 /* T_BLOCK  */
    T_ENDBLOCK = 324,              /* T_ENDBLOCK  */
    T_EXTENDS = 325,               /* T_EXTENDS  */
    T_INCLUDE = 326,               /* T_INCLUDE  */
    T_EMBED = 327,                 /* T_EMBED  */
    T_ENDEMBED = 328,              /* T_ENDEMBED  */
    T_USE = 329,                   /* T_USE  */
    T_MACRO = 330,                 /* T_MACRO  */
    T_ENDMACRO = 331,              /* T_ENDMACRO  */
    T_IMPORT = 332,                /* T_IMPORT  */
    T_FROM = 333,                  /* T_FROM  */
    T_APPLY = 334,                 /* T_APPLY  */
    T_ENDAPPLY = 335,              /* T_ENDAPPLY  */
    T_SPACELESS = 336,             /* T_SPACELESS  */
    T_ENDSPACELESS = 337,          /* T_ENDSPACELESS  */
    T_FILTER = 338,                /* T_FILTER  */
    T_ENDFILTER = 339,             /* T_ENDFILTER  */
    T_AUTOESCAPE = 340,            /* T_AUTOESCAPE  */
    T_ENDAUTOESCAPE = 341,         /* T_ENDAUTOESCAPE  */
    T_WITH = 342,                  /* T_WITH  */
    T_ENDWITH = 343,               /* T_ENDWITH  */
    T_DO = 344,                    /* T_DO  */
    T_FLUSH = 345,                 /* T_FLUSH  */
    T_DEPRECATED = 346,            /* T_DEPRECATED  */
    T_UNKNOWN = 347,               /* T_UNKNOWN  */
    UMINUS = 348                   /* UMINUS  */
  };
  typedef enum tpl_yytokentype tpl_yytoken_kind_t;
#endif

/* Value type.  */
#if ! defined TPL_YYSTYPE && ! defined TPL_YYSTYPE_IS_DECLARED
union TPL_YYSTYPE
{

  tpl_node *node;
  tpl_nlist list;
  tpl_arglist *args;
  const tpl_tok *tok;
  int ival;


};
typedef union TPL_YYSTYPE TPL_YYSTYPE;
# define TPL_YYSTYPE_IS_TRIVIAL 1
# define TPL_YYSTYPE_IS_DECLARED 1
#endif

/* Location type.  */
#if ! defined TPL_YYLTYPE && ! defined TPL_YYLTYPE_IS_DECLARED
typedef struct TPL_YYLTYPE TPL_YYLTYPE;
struct TPL_YYLTYPE
{
  int first_line;
  int first_column;
  int last_line;
  int last_column;
};
# define TPL_YYLTYPE_IS_DECLARED 1
# define TPL_YYLTYPE_IS_TRIVIAL 1
#endif




int tpl_yyparse (tpl_pctx *P);

/* "%code provides" blocks.  */

int tpl_yylex(TPL_YYSTYPE *lval, TPL_YYLTYPE *lloc, tpl_pctx *P);


#endif /* !YY_TPL_YY_TPL_PARSER_H_INCLUDED  */
