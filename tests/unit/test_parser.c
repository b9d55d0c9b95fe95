/* Unit tests of the template front end: AST shapes (operator precedence,
 * tags, the checker's rewrites and autoescaping), every compile-time error
 * of the catalogue at its exact line:col, and random garbage that must
 * never crash. Run as `test_parser`; prints failures, exits non-zero. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tpl_ast.h"

static int failures, checks;

/* ---- a tiny in-memory loader ----------------------------------------- */

static const char *const lib_names[] = {"base.twig", "forms.twig",
                                        "other.twig", "frame.twig"};
static const char *const lib_sources[] = {
    "<{% block title %}{% endblock %}>{% block body %}{% endblock %}",
    ("{% macro input(name, value = '') %}<input>{% endmacro %}"
     "{% macro label(text) %}{{ text }}{% endmacro %}"),
    "other",
    "[{% block content %}{% endblock %}]",
};
#define NLIB (sizeof lib_names / sizeof *lib_names)

typedef struct loader {
  oc_arena *arena;
  tpl_ast_template *cache[NLIB];
} loader;

static const tpl_ast_template *load(void *data, const char *name,
                                    size_t len) {
  loader *L = data;
  for (size_t i = 0; i < NLIB; i++) {
    if (strlen(lib_names[i]) != len || memcmp(lib_names[i], name, len))
      continue;
    if (!L->cache[i]) {
      tpl_parse_opts o = {load, L, TPL_ESC_HTML};
      tpl_diag d[4];
      size_t nd = 0;
      L->cache[i] = tpl_parse(L->arena, lib_names[i], lib_sources[i],
                              strlen(lib_sources[i]), &o, d, 4, &nd);
    }
    return L->cache[i];
  }
  return NULL;
}

static loader the_loader;

static tpl_ast_template *parse_with(oc_arena *a, const char *src,
                                    tpl_escape esc, tpl_diag *d, size_t nmax,
                                    size_t *nd) {
  tpl_parse_opts o = {load, &the_loader, esc};
  return tpl_parse(a, "index.twig", src, strlen(src), &o, d, nmax, nd);
}

/* ---- helpers ------------------------------------------------------- */

static void fail(const char *what, const char *src, const char *want,
                 const char *got) {
  failures++;
  printf("FAIL %s\n  template: %s\n  want: %s\n  got:  %s\n", what, src, want,
         got);
}

/* The body of a template parsed without autoescaping, as an S-expr. */
static void body_is(const char *src, const char *want) {
  checks++;
  oc_arena *a = oc_arena_new();
  tpl_diag d[4];
  size_t nd = 0;
  tpl_ast_template *t = parse_with(a, src, TPL_ESC_NONE, d, 4, &nd);
  if (!t) {
    fail("body", src, want, nd ? d[0].message : "(no diagnostic)");
  } else {
    char *got = tpl_ast_sexpr(t->body);
    if (strcmp(got, want))
      fail("body", src, want, got);
    free(got);
  }
  oc_arena_free(a);
}

/* Same with html autoescaping. */
static void html_is(const char *src, const char *want) {
  checks++;
  oc_arena *a = oc_arena_new();
  tpl_diag d[4];
  size_t nd = 0;
  tpl_ast_template *t = parse_with(a, src, TPL_ESC_HTML, d, 4, &nd);
  if (!t) {
    fail("html", src, want, nd ? d[0].message : "(no diagnostic)");
  } else {
    char *got = tpl_ast_sexpr(t->body);
    if (strcmp(got, want))
      fail("html", src, want, got);
    free(got);
  }
  oc_arena_free(a);
}

/* One printed expression, no autoescaping. */
static void expr_is(const char *e, const char *want) {
  char src[1024], w[1200];
  snprintf(src, sizeof src, "{{ %s }}", e);
  snprintf(w, sizeof w, "(body (print %s))", want);
  body_is(src, w);
}

/* The first diagnostic: line, column and message. */
static void error_is(const char *src, unsigned line, unsigned col,
                     const char *msg) {
  checks++;
  oc_arena *a = oc_arena_new();
  tpl_diag d[8];
  size_t nd = 0;
  tpl_ast_template *t = parse_with(a, src, TPL_ESC_HTML, d, 8, &nd);
  char want[600], got[600];
  snprintf(want, sizeof want, "%u:%u: %s", line, col, msg);
  if (t || !nd) {
    fail("error", src, want, "(parsed fine)");
  } else {
    snprintf(got, sizeof got, "%u:%u: %s", d[0].line, d[0].col, d[0].message);
    if (strcmp(got, want))
      fail("error", src, want, got);
    if (strcmp(d[0].file, "index.twig"))
      fail("error file", src, "index.twig", d[0].file);
  }
  oc_arena_free(a);
}

/* All diagnostics, "l:c: msg|l:c: msg". */
static void errors_are(const char *src, const char *want) {
  checks++;
  oc_arena *a = oc_arena_new();
  tpl_diag d[16];
  size_t nd = 0;
  tpl_ast_template *t = parse_with(a, src, TPL_ESC_HTML, d, 16, &nd);
  char got[4000] = "";
  size_t n = 0;
  for (size_t i = 0; i < nd && i < 16; i++)
    n += (size_t)snprintf(got + n, sizeof got - n, "%s%u:%u: %s",
                          i ? "|" : "", d[i].line, d[i].col, d[i].message);
  if (t || strcmp(got, want))
    fail("errors", src, want, t ? "(parsed fine)" : got);
  oc_arena_free(a);
}

static void source_line_is(const char *src, const char *want) {
  checks++;
  oc_arena *a = oc_arena_new();
  tpl_diag d[2];
  size_t nd = 0;
  parse_with(a, src, TPL_ESC_HTML, d, 2, &nd);
  if (!nd || strcmp(d[0].source_line, want))
    fail("source line", src, want, nd ? d[0].source_line : "(none)");
  oc_arena_free(a);
}

/* ---- shapes --------------------------------------------------------- */

static void test_precedence(void) {
  expr_is("1 + 2 * 3", "(+ 1 (* 2 3))");
  expr_is("1 * 2 + 3", "(+ (* 1 2) 3)");
  expr_is("1 - 2 - 3", "(- (- 1 2) 3)");
  expr_is("2 ** 3 ** 2", "(** 2 (** 3 2))");
  /* Twig's compiled PHP rebinds a unary left of ** */
  expr_is("-2 ** 2", "(neg (** 2 2))");
  expr_is("(-2) ** 2", "(neg (** 2 2))");
  expr_is("- - 2 ** 2", "(neg (neg (** 2 2)))");
  expr_is("(not a) ** 2", "(not (** a 2))");
  expr_is("2 ** -1", "(** 2 (neg 1))");
  expr_is("-a * b", "(* (neg a) b)");
  expr_is("not a == b", "(== (not a) b)");
  expr_is("not a and b", "(and (not a) b)");
  expr_is("not a * b", "(not (* a b))");
  expr_is("not a ~ b", "(~ (not a) b)");
  expr_is("not a in b", "(in (not a) b)");
  expr_is("a or b and c", "(or a (and b c))");
  expr_is("a and b or c", "(or (and a b) c)");
  expr_is("a b-or b b-xor c b-and d", "(b-or a (b-xor b (b-and c d)))");
  expr_is("a == b in c", "(in (== a b) c)");
  expr_is("a < b", "(< a b)");
  expr_is("a >= b != c", "(!= (>= a b) c)");
  expr_is("a <=> b", "(<=> a b)");
  expr_is("1..3 ~ 'x'", "(.. 1 (~ 3 \"x\"))");
  expr_is("a ~ b + c", "(+ (~ a b) c)");
  expr_is("a + b ~ c", "(+ a (~ b c))");
  expr_is("a // b % c", "(% (// a b) c)");
  expr_is("a ?? b ?? c", "(?? a (?? b c))");
  expr_is("a + b ?? c", "(+ a (?? b c))");
  expr_is("a ?? b ** c", "(** (?? a b) c)");
  expr_is("a is odd and b", "(and (is odd a) b)");
  expr_is("a + b is odd", "(+ a (is odd b))");
  expr_is("a ** b is odd", "(is odd (** a b))");
  expr_is("not a is odd", "(not (is odd a))");
  expr_is("a is not null", "(is-not null a)");
  expr_is("-a is odd", "(is odd (neg a))");
  expr_is("a ? b : c ? d : e", "(? a b (? c d e))");
  expr_is("a ? b ? c : d : e", "(? a (? b c d) e)");
  expr_is("a ?: b", "(? a _ b)");
  expr_is("a ? b", "(? a b _)");
  expr_is("a ? : b", "(? a _ b)");
  expr_is("a or b ? c : d", "(? (or a b) c d)");
  expr_is("a ? b : c or d", "(? a b (or c d))");
  expr_is("a not in b", "(not-in a b)");
  expr_is("a  not   in b", "(not-in a b)");
  expr_is("a matches '/x/'", "(matches a \"/x/\")");
  expr_is("a starts with 'b' and c ends with 'd'",
          "(and (starts-with a \"b\") (ends-with c \"d\"))");
  expr_is("a has some x => x > 1", "(has-some a (=> (x) (> x 1)))");
  expr_is("a has every (x, k) => x", "(has-every a (=> (x k) x))");
  expr_is("-a.b|abs", "(neg (|abs (. a \"b\")))");
  expr_is("-1|abs", "(neg (|abs 1))");
  expr_is("+a", "(pos a)");
  expr_is("not(a)", "(not a)");
  expr_is("(a + b) * c", "(* (+ a b) c)");
}

static void test_literals(void) {
  expr_is("1", "1");
  expr_is("1.5", "1.5f");
  expr_is("1.0", "1f");
  expr_is("1_000", "1000");
  expr_is("1.5e+3", "1500f");
  expr_is("9223372036854775807", "9223372036854775807");
  expr_is("'a\\nb'", "\"a\\nb\"");
  expr_is("\"\\x41\\101\\e\\q\"", "\"AAeq\"");
  expr_is("'it\\'s'", "\"it's\"");
  expr_is("\"a#b\"", "\"a#b\"");
  expr_is("\"a\\#{b}\"", "\"a#{b}\"");
  expr_is("\"a#{b}c\"", "(~ (~ \"a\" b) \"c\")");
  expr_is("\"#{b}\"", "b");
  expr_is("\"#{ a ~ \"x#{ {k: 1}.k }\" }\"",
          "(~ a (~ \"x\" (. {\"k\": 1} \"k\")))");
  expr_is("\"\"", "\"\"");
  expr_is("true", "true");
  expr_is("TRUE", "true");
  expr_is("True", "True");
  expr_is("false", "false");
  expr_is("none", "null");
  expr_is("NULL", "null");
  expr_is("[]", "[]");
  expr_is("[1, 'a', [2],]", "[1 \"a\" [2]]");
  expr_is("{}", "{}");
  expr_is("{a, 'b': 1, 2: 3, (c ~ 'd'): 4, e: f,}",
          "{\"a\": a, \"b\": 1, 2: 3, (~ c \"d\"): 4, \"e\": f}");
  expr_is("{true: 1}", "{\"true\": 1}");
}

static void test_postfix(void) {
  expr_is("a.b", "(. a \"b\")");
  expr_is("a.0", "(. a 0)");
  expr_is("a.b(1, 2)", "(.() a \"b\" 1 2)");
  expr_is("a['b']", "([] a \"b\")");
  expr_is("a[b][c]", "([] ([] a b) c)");
  expr_is("a.in", "(. a \"in\")");
  expr_is("a.not", "(. a \"not\")");
  expr_is("a[1:2]", "(slice a 1 2)");
  expr_is("a[1:]", "(slice a 1 _)");
  expr_is("a[:2]", "(slice a 0 2)");
  expr_is("a[:]", "(slice a 0 _)");
  expr_is("a[b ? c : d]", "([] a (? b c d))");
  expr_is("a|upper|lower", "(|lower (|upper a))");
  expr_is("a|join(', ')", "(|join a \", \")");
  expr_is("a|round(method='floor')", "(|round a _ \"floor\")");
  expr_is("a|slice(1, preserve_keys=true)", "(|slice a 1 _ true)");
  expr_is("a|map(x => x * 2)", "(|map a (=> (x) (* x 2)))");
  expr_is("a|reduce((c, v) => c + v, 0)", "(|reduce a (=> (c v) (+ c v)) 0)");
  expr_is("a|sort((a, b) => a <=> b)", "(|sort a (=> (a b) (<=> a b)))");
  expr_is("range(1, 3)", "(range() 1 3)");
  expr_is("range(low=1, high=3)", "(range() 1 3)");
  expr_is("a is defined", "(defined a)");
  expr_is("a.b is not defined", "(not-defined (. a \"b\"))");
  expr_is("[1] is defined", "true");
  expr_is("a is same as b", "(is same as a b)");
  expr_is("a is same as(b)", "(is same as a b)");
  expr_is("a is same as -1", "(is same as a (neg 1))");
  expr_is("a is divisible by 3 + 1", "(+ (is divisible by a 3) 1)");
  expr_is("a is divisible by(3)", "(is divisible by a 3)");
  expr_is("a|default", "(default a _)");
  expr_is("a.b|default('x')", "(default (. a \"b\") \"x\")");
  expr_is("a|e", "(esc html a)");
  expr_is("a|escape('js')", "(esc js a)");
  expr_is("a|e(strategy='css')", "(esc css a)");
  expr_is("a|e(s)", "(|e a s)");
  expr_is("a|raw", "a");
  expr_is("a|raw|upper", "(|upper a)");
  expr_is("block('x')", "(block \"x\")");
  expr_is("block('x', 'base.twig') is defined",
          "(defined (block \"x\" \"base.twig\"))");
  expr_is("attribute(a, 'b')", "(. a \"b\")");
  expr_is("attribute(a, b, [1, 2])", "(. a b 1 2)");
  expr_is("_self.m(1)", "(macro #-1 m 1)");
  expr_is("a ?? 'x'", "(?? a \"x\")");
}

static void test_tags(void) {
  body_is("a{{ b }}c", "(body (text \"a\") (print b) (text \"c\"))");
  body_is("{% if a %}1{% elseif b %}2{% else %}3{% endif %}",
          "(body (if a (body (text \"1\")) b (body (text \"2\")) else "
          "(body (text \"3\"))))");
  body_is("{% for x in xs %}{{ x }}{% endfor %}",
          "(body (for _key x xs (body (print x))))");
  body_is("{% for k, v in xs if v %}{{ loop.index }}{% else %}-{% endfor %}",
          "(body (for k v xs if v (body (print (. loop \"index\"))) else "
          "(body (text \"-\")) loop))");
  body_is("{% for x in xs %}{% include 'other.twig' %}{% endfor %}",
          "(body (for _key x xs (body (include \"other.twig\" _)) loop))");
  body_is("{% for x in xs %}{% include 'other.twig' only %}{% endfor %}",
          "(body (for _key x xs (body (include \"other.twig\" _ only))))");
  body_is("{% for x in xs %}{% for y in x %}{{ loop.parent.loop.index }}"
          "{% endfor %}{% endfor %}",
          "(body (for _key x xs (body (for _key y x (body (print (. (. (. "
          "loop \"parent\") \"loop\") \"index\"))) loop)) loop))");
  body_is("{% set a = 1 %}{% set b, c = 2, d %}",
          "(body (set a = 1) (set b c = 2 d))");
  body_is("{% set a %}x{{ b }}{% endset %}",
          "(body (capture a (body (text \"x\") (print b))))");
  body_is("{% block a %}A{% endblock %}{% block b 'x' %}",
          "(body (blockref a) (blockref b))");
  body_is("{% include 'other.twig' ignore missing with {a: 1} only %}",
          "(body (include \"other.twig\" {\"a\": 1} ignore-missing only))");
  body_is("{% include x with y %}", "(body (include x y))");
  body_is("{% include ['nope.twig', 'other.twig'] %}",
          "(body (include [\"nope.twig\" \"other.twig\"] _))");
  body_is("{% apply upper|trim('x') %}a{% endapply %}",
          "(body (apply (|trim (|upper @captured) \"x\") (body (text "
          "\"a\"))))");
  body_is("{% spaceless %}<b> </b>{% endspaceless %}",
          "(body (apply (|spaceless (autoesc html @captured)) (body (text \"<b> "
          "</b>\"))))");
  body_is("{% filter upper %}a{% endfilter %}",
          "(body (apply (|upper @captured) (body (text \"a\"))))");
  body_is("{% autoescape %}{{ a }}{% endautoescape %}",
          "(body (autoescape html (body (print (autoesc html a)))))");
  body_is("{% autoescape 'js' %}{% endautoescape %}"
          "{% autoescape false %}{% endautoescape %}",
          "(body (autoescape js (body)) (autoescape none (body)))");
  body_is("{% with {a: 1} only %}{{ a }}{% endwith %}{% with %}{% endwith %}",
          "(body (with {\"a\": 1} (body (print a)) only) (with _ (body)))");
  body_is("{% do a + 1 %}{% flush %}{% deprecated 'x' %}",
          "(body (do (+ a 1)) (do \"x\"))");
  body_is("{% verbatim %}{{ a }}{% endverbatim %}",
          "(body (text \"{{ a }}\"))");
  body_is("{% import 'forms.twig' as f %}{{ f.input('n') }}{{ f.label }}",
          "(body (import #0 \"forms.twig\") (print (macro #0 input \"n\")) "
          "(print (macro #0 label)))");
  body_is("{% from 'forms.twig' import input, label as l %}{{ input(1) }}"
          "{{ l(text='x') }}{{ l is defined }}",
          "(body (import #0 \"forms.twig\") (print (macro #0 input 1)) "
          "(print (macro #0 label text=\"x\")) (print (defined (macro #0 "
          "label))))");
  body_is("{% import _self as me %}{% macro m() %}{% endmacro %}{{ me.m() }}",
          "(body (import #0 _) (print (macro #0 m)))");
  /* the unnamed argument `only` of with is a variable */
  body_is("{% with only %}{% endwith %}", "(body (with only (body)))");
  body_is("{% include 'other.twig' with only %}",
          "(body (include \"other.twig\" only))");
  /* whitespace control */
  body_is("a  \n {{- 1 -}} \n b", "(body (text \"a\") (print 1) (text "
                                  "\"b\"))");
  body_is("a {{~ 1 ~}} \n b", "(body (text \"a\") (print 1) (text \"\\n "
                              "b\"))");
  body_is("{% if 1 %}\nx\n{% endif %}\ny", "(body (if 1 (body (text "
                                          "\"x\\n\"))) (text \"y\"))");
  body_is("{{ 1 }}\nx", "(body (print 1) (text \"\\nx\"))");
  body_is("a{# c #}\nb", "(body (text \"a\") (text \"b\"))");
  body_is("a\r\nb\rc", "(body (text \"a\\nb\\nc\"))");
}

static void dump_is(const char *src, tpl_escape esc, const char *want) {
  checks++;
  oc_arena *a = oc_arena_new();
  tpl_diag d[4];
  size_t nd = 0;
  tpl_ast_template *t = parse_with(a, src, esc, d, 4, &nd);
  if (!t) {
    fail("dump", src, want, nd ? d[0].message : "(no diagnostic)");
  } else {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    tpl_ast_dump(f, t);
    fclose(f);
    if (strcmp(buf, want))
      fail("dump", src, want, buf);
    free(buf);
  }
  oc_arena_free(a);
}

static void test_templates(void) {
  dump_is("{% extends 'base.twig' %}\n{% import 'forms.twig' as f %}\n"
          "{% set x = 1 %}\n{% block title %}{{ f.input() }}{{ parent() }}"
          "{% block inner %}i{% endblock %}{% endblock %}\n",
          TPL_ESC_HTML,
          "template index.twig (autoescape html) imports=1\n"
          " parent \"base.twig\"\n"
          " body (body (import #0 \"forms.twig\") (set x = 1))\n"
          " block title (body (print (macro #0 input)) (print (parent)) "
          "(blockref inner))\n"
          " block inner (body (text \"i\"))\n");
  dump_is("{% embed 'frame.twig' with {a: 1} %}\n  {% block content %}"
          "{{ parent() }}{{ a }}{% endblock %}\n{% endembed %}"
          "{% embed 'frame.twig' %}{% endembed %}",
          TPL_ESC_HTML,
          "template index.twig (autoescape html) imports=0\n"
          " body (body (embed #0 \"frame.twig\" {\"a\": 1}) (embed #1 "
          "\"frame.twig\" _))\n"
          " embed #0\n"
          "  template index.twig (autoescape html) imports=0\n"
          "   parent \"frame.twig\"\n"
          "   body (body)\n"
          "   block content (body (print (parent)) (print (autoesc html "
          "a)))\n"
          " embed #1\n"
          "  template index.twig (autoescape html) imports=0\n"
          "   parent \"frame.twig\"\n"
          "   body (body)\n");
  dump_is("{% macro m(a, b = 1, c = [1, -2]) %}{{ a }}{% endmacro m %}"
          "{% macro m2() %}{% import 'forms.twig' as f %}{{ f.label(1) }}"
          "{% endmacro %}{% use 'base.twig' with title as t, body as b %}"
          "{% use 'frame.twig' %}",
          TPL_ESC_NONE,
          "template index.twig (autoescape none) imports=1\n"
          " body (body)\n"
          " macro m(a b=1 c=[1 (neg 2)]) (body (print a))\n"
          " macro m2() (body (import #0 \"forms.twig\") (print (macro #0 "
          "label 1)))\n"
          " use base.twig title=t body=b\n"
          " use frame.twig\n");
  /* imports are lexically scoped: a block's import is not seen outside */
  dump_is("{% block a %}{% import 'forms.twig' as f %}{% endblock %}"
          "{% block b %}{{ f.input() }}{% endblock %}",
          TPL_ESC_NONE,
          "template index.twig (autoescape none) imports=1\n"
          " body (body (blockref a) (blockref b))\n"
          " block a (body (import #0 \"forms.twig\"))\n"
          " block b (body (print (.() f \"input\")))\n");
  /* top-level imports are seen in later blocks and macros */
  dump_is("{% import 'forms.twig' as f %}{% block b %}{{ f.input() }}"
          "{% endblock %}{% macro m() %}{{ f.label() }}{% endmacro %}",
          TPL_ESC_NONE,
          "template index.twig (autoescape none) imports=1\n"
          " body (body (import #0 \"forms.twig\") (blockref b))\n"
          " block b (body (print (macro #0 input)))\n"
          " macro m() (body (print (macro #0 label)))\n");
  /* child: whitespace and comments outside blocks vanish; blocks inside a
   * set capture stay */
  dump_is("{# c #}\n{% extends 'base.twig' %}\n\n   {% block title %}T"
          "{% endblock %}\n{% set x %}{% block body %}B{% endblock %}"
          "{% endset %}\n",
          TPL_ESC_NONE,
          "template index.twig (autoescape none) imports=0\n"
          " parent \"base.twig\"\n"
          " body (body (capture x (body (blockref body))))\n"
          " block title (body (text \"T\"))\n"
          " block body (body (text \"B\"))\n");
}

static void test_autoescape(void) {
  html_is("{{ a }}{{ 'x' }}{{ 1 }}", "(body (print (autoesc html a)) (print "
                                     "\"x\") (print 1))");
  html_is("{{ a|e }}{{ a|e('js') }}{{ a|e('html_attr') }}",
          "(body (print (esc html a)) (print (autoesc html (esc js a))) "
          "(print (esc html_attr a)))");
  html_is("{{ a|raw }}{{ a|raw ~ b }}",
          "(body (print a) (print (autoesc html (~ a b))))");
  html_is("{{ a|upper }}{{ a|nl2br }}{{ '<'|nl2br }}{{ a|raw|nl2br }}",
          "(body (print (autoesc html (|upper a))) (print (|nl2br (autoesc "
          "html a))) (print (|nl2br \"<\")) (print (|nl2br a)))");
  html_is("{{ a ? '<b>' : c }}{{ a ? b : c }}{{ a ? 'x' : 'y' }}",
          "(body (print (? a \"<b>\" (autoesc html c))) (print (autoesc html "
          "(? a b c))) (print (? a \"x\" \"y\")))");
  html_is("{{ a ?: 'x' }}{{ a ? b }}",
          "(body (print (? a (autoesc html a) \"x\")) (print (? a (autoesc "
          "html b) _)))");
  html_is("{{ a ? 'x' : (b ? c : 'y') }}",
          "(body (print (? a \"x\" (? b (autoesc html c) \"y\"))))");
  html_is("{{ a ?? 'x' }}{{ a ?? b }}",
          "(body (print (? (and (defined a) (is-not null a)) (autoesc html a) "
          "\"x\")) (print (autoesc html (?? a b))))");
  html_is("{{ block('b') ?? 'x' }}", "(body (print (?? (block \"b\") "
                                     "\"x\")))");
  html_is("{{ a|default('x') }}", "(body (print (autoesc html (default a "
                                  "\"x\"))))");
  html_is("{{ include('other.twig') }}{{ _self.m() }}",
          "(body (print (include() \"other.twig\")) (print (macro #-1 m)))");
  html_is("{% autoescape 'js' %}{{ a }}{{ a|e('js') }}{% endautoescape %}",
          "(body (autoescape js (body (print (autoesc js a)) (print (esc js "
          "a)))))");
  html_is("{% autoescape false %}{{ a }}{% endautoescape %}",
          "(body (autoescape none (body (print a))))");
  html_is("{% apply upper %}{{ a }}{% endapply %}",
          "(body (apply (autoesc html (|upper @captured)) (body (print "
          "(autoesc html a)))))");
  /* blocks keep the strategy of their place, macros take the default */
  dump_is("{% autoescape 'js' %}{% block b %}{{ a }}{% endblock %}"
          "{% macro m() %}{{ a }}{% endmacro %}{% endautoescape %}",
          TPL_ESC_HTML,
          "template index.twig (autoescape html) imports=0\n"
          " body (body (autoescape js (body (blockref b))))\n"
          " block b (body (print (autoesc js a)))\n"
          " macro m() (body (print (autoesc html a)))\n");
}

/* ---- errors --------------------------------------------------------- */

static void test_errors(void) {
  error_is("{{ a|nope }}", 1, 6, "unknown filter \"nope\"");
  error_is("x\n  {{ nope(1) }}", 2, 6, "unknown function \"nope\"");
  error_is("{{ a is nope }}", 1, 9, "unknown test \"nope\"");
  error_is("{% nope %}", 1, 4, "unknown tag \"nope\"");
  error_is("{% if 1 %}{% nope %}{% endif %}", 1, 14, "unknown tag \"nope\"");
  error_is("{% block a %}{% endblock %}\n{% block a %}{% endblock %}", 2, 10,
           "block \"a\" is already defined");
  error_is("{% extends 'base.twig' %}{% extends 'base.twig' %}", 1, 29,
           "\"extends\" must be the first tag in a template");
  error_is("{% block a %}{% extends 'base.twig' %}{% endblock %}", 1, 17,
           "\"extends\" must be the first tag in a template");
  error_is("{% macro m() %}{% extends 'base.twig' %}{% endmacro %}", 1, 19,
           "\"extends\" must be the first tag in a template");
  error_is("{% if 1 %}{% extends 'base.twig' %}{% endif %}", 1, 14,
           "\"extends\" must be the first tag in a template");
  error_is("{% extends 'base.twig' %}\n\n  hello", 3, 3,
           "a template that extends another one cannot have output outside "
           "blocks");
  error_is("{% extends 'base.twig' %}{{ x }}", 1, 26,
           "a template that extends another one cannot have output outside "
           "blocks");
  error_is("{% extends 'base.twig' %}{% if 1 %} x {% endif %}", 1, 37,
           "a template that extends another one cannot have output outside "
           "blocks");
  error_is("{% embed 'frame.twig' %}oops{% endembed %}", 1, 25,
           "a template that extends another one cannot have output outside "
           "blocks");
  error_is("x\n{% if a %}\n  {% for b in c %}\n", 3, 6,
           "unclosed \"for\" tag");
  error_is("{% if a %}", 1, 4, "unclosed \"if\" tag");
  error_is("{% block b %}{% if a %}{% endif %}", 1, 4,
           "unclosed \"block\" tag");
  error_is("{% set a %}", 1, 4, "unclosed \"set\" tag");
  error_is("{% macro m() %}", 1, 4, "unclosed \"macro\" tag");
  error_is("{% embed 'frame.twig' %}", 1, 4, "unclosed \"embed\" tag");
  error_is("{% verbatim %}xx", 1, 4, "unclosed \"verbatim\" tag");
  error_is("a\n b {# x", 2, 4, "unclosed comment");
  error_is("a\n b {{ x", 2, 4, "unclosed \"{{\"");
  error_is("a {{ x ", 1, 3, "unclosed \"{{\"");
  error_is("{% if x", 1, 1, "unclosed \"{%\"");
  error_is("{% endfor %}", 1, 4, "unexpected \"endfor\" tag");
  error_is("{% if 1 %}{% endfor %}", 1, 14, "unexpected \"endfor\" tag");
  error_is("{% else %}", 1, 4, "unexpected \"else\" tag");
  error_is("{% include 'nope.twig' %}", 1, 12,
           "template \"nope.twig\" not found");
  error_is("{% extends \"nope.twig\" %}", 1, 12,
           "template \"nope.twig\" not found");
  error_is("{% embed 'nope.twig' %}{% endembed %}", 1, 10,
           "template \"nope.twig\" not found");
  error_is("{% import 'nope.twig' as f %}", 1, 11,
           "template \"nope.twig\" not found");
  error_is("{% from 'nope.twig' import f %}", 1, 9,
           "template \"nope.twig\" not found");
  error_is("{% use 'nope.twig' %}", 1, 8, "template \"nope.twig\" not found");
  error_is("{% include ['nope.twig', 'nope2.twig'] %}", 1, 13,
           "template \"nope.twig\" not found");
  error_is("{{ parent() }}", 1, 4,
           "\"parent()\" can only be used in a block of a template that "
           "extends or uses another");
  error_is("{% block a %}{{ parent() }}{% endblock %}", 1, 17,
           "\"parent()\" can only be used in a block of a template that "
           "extends or uses another");
  error_is("{% from 'forms.twig' import input, nope %}", 1, 36,
           "unknown macro \"nope\"");
  error_is("{% from _self import nope %}", 1, 22, "unknown macro \"nope\"");
  /* syntax errors */
  error_is("{{ }}", 1, 4, "unexpected \"}}\"");
  error_is("{{ a b }}", 1, 6, "unexpected name \"b\"");
  error_is("{% if %}{% endif %}", 1, 7, "unexpected \"%}\"");
  error_is("{{ a + }}", 1, 8, "unexpected \"}}\"");
  error_is("{{ 1e5 }}", 1, 5, "unexpected name \"e5\"");
  error_is("{{ a $ b }}", 1, 6, "unexpected character \"$\"");
  error_is("{{ 'abc }}", 1, 4, "unterminated string");
  error_is("{{ \"a#{b\" }}", 1, 9, "unterminated string");
  error_is("{{ \"a#{b }}", 1, 4, "unterminated string");
  error_is("{{ (a }}", 1, 4, "unclosed \"(\"");
  error_is("{{ a) }}", 1, 5, "unexpected \")\"");
  error_is("{{ {a: 1}} }}", 1, 10, "unexpected \"}\"");
  error_is("{% block a %}{% endblock b %}", 1, 26,
           "expected endblock for block \"a\" (but \"b\" given)");
  error_is("{% set a, b = 1 %}", 1, 4,
           "when using set, you must have the same number of variables and "
           "assignments");
  error_is("{% set true = 1 %}", 1, 8,
           "you cannot assign a value to \"true\"");
  error_is("{% macro m(a = b) %}{% endmacro %}", 1, 16,
           "a default value for an argument must be a constant (a boolean, "
           "a string, a number, or an array)");
  error_is("{% autoescape 'nope' %}{% endautoescape %}", 1, 15,
           "unknown escaping strategy \"nope\"");
  error_is("{% use x %}", 1, 8,
           "the template references in a \"use\" statement must be a string");
  error_is("{{ (a ~ b) is defined }}", 1, 15,
           "the \"defined\" test only works with simple variables");
  error_is("{{ a|upper ?? 1 }}", 1, 12,
           "the \"defined\" test only works with simple variables");
  error_is("{{ a|round(nope=1) }}", 1, 17,
           "unknown argument \"nope\" for filter \"round\"");
  error_is("{{ a|round(1, precision=2) }}", 1, 25,
           "argument \"precision\" is defined twice for filter \"round\"");
  error_is("{{ a|round(method='x', 1) }}", 1, 24,
           "positional arguments cannot be used after named arguments for "
           "filter \"round\"");
  error_is("{{ a|upper(1) }}", 1, 6, "too many arguments for filter \"upper\"");
  error_is("{{ a|split }}", 1, 6,
           "missing argument \"delimiter\" for filter \"split\"");
  error_is("{{ block() }}", 1, 4,
           "the \"block\" function takes one argument (the block name)");
  error_is("{% extends 'base.twig' %}{% if 1 %}{% block b %}{% endblock %}"
           "{% endif %}",
           1, 45,
           "a block definition cannot be nested under non-capturing nodes");
  /* every error is collected, in order */
  errors_are("{{ a|x }}\n{{ b|y }}{% block q %}{{ parent() }}{% endblock %}"
             "{% block q %}{% endblock %}",
             "1:6: unknown filter \"x\"|2:6: unknown filter \"y\"|2:26: "
             "\"parent()\" can only be used in a block of a template that "
             "extends or uses another|2:60: block \"q\" is already defined");
  source_line_is("a\n  {{ x|nope }}\nb", "  {{ x|nope }}");
}

/* ---- garbage -------------------------------------------------------- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 11);
}

static void test_garbage(void) {
  static const char *const frags[] = {
      "{{", "}}", "{%", "%}", "{#", "#}", "-", "~", " ", "\n", "if", "endif",
      "for", "in", "endfor", "else", "elseif", "set", "=", "endset", "block",
      "endblock", "extends", "include", "embed", "endembed", "macro",
      "endmacro", "import", "from", "as", "with", "only", "ignore", "missing",
      "use", "apply", "endapply", "autoescape", "verbatim", "endverbatim",
      "a", "b", "_self", "loop", "parent()", "block(", "(", ")", "[", "]",
      "{", "}", ",", ":", ".", "|", "?", "??", "?:", "=>", "is", "not",
      "defined", "same as", "divisible by", "and", "or", "~", "+", "*", "**",
      "..", "1", "2.5", "'s'", "\"d#{", "\"", "'", "#{", "upper", "raw",
      "e('js')", "default", "x => x", "(a, b) =>", "'base.twig'",
      "'forms.twig'", "with", "endwith", "do", "\\", "\0", "\xff", "\r\n"};
  size_t nfrag = sizeof frags / sizeof *frags;
  char buf[512];
  for (int iter = 0; iter < 20000; iter++) {
    size_t n = 0;
    int parts = (int)(rnd() % 40);
    for (int p = 0; p < parts; p++) {
      const char *f;
      size_t fl;
      char one;
      if (rnd() % 8 == 0) {
        one = (char)(rnd() & 0xff);
        f = &one;
        fl = 1;
      } else {
        f = frags[rnd() % nfrag];
        fl = f[0] ? strlen(f) : 1;
      }
      if (n + fl >= sizeof buf)
        break;
      memcpy(buf + n, f, fl);
      n += fl;
    }
    oc_arena *a = oc_arena_new();
    tpl_parse_opts o = {load, &the_loader,
                        iter % 2 ? TPL_ESC_HTML : TPL_ESC_NONE};
    tpl_diag d[3];
    size_t nd = 0;
    tpl_ast_template *t = tpl_parse(a, "g.twig", buf, n, &o, d, 3, &nd);
    checks++;
    if (!t && !nd) {
      failures++;
      printf("FAIL garbage: no template and no diagnostic for %.*s\n", (int)n,
             buf);
    }
    if (t) {
      char *s = tpl_ast_sexpr(t->body);
      free(s);
    }
    oc_arena_free(a);
  }
}

int main(void) {
  the_loader.arena = oc_arena_new();
  test_precedence();
  test_literals();
  test_postfix();
  test_tags();
  test_templates();
  test_autoescape();
  test_errors();
  test_garbage();
  oc_arena_free(the_loader.arena);
  printf("%d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
