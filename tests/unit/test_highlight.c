/* Unit tests of the code highlighter (runtime/highlight/hl_highlight.c) on
 * the grammars of Debian's highlight-common: the names a fence may use,
 * the classes of tokens in the languages books show most, the nested
 * grammars of HTML, the hook-driven states (PHP's and the shell's here
 * documents), diff and console lines, escaping, and that nothing is lost:
 * the text of the output, tags removed, is the input. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hl_highlight.h"

#include "check.h"

static hl_highlighter *hl;

static char *html(const char *lang, const char *code) {
  oc_sb b;
  oc_sb_init(&b, NULL, 64);
  if (!hl_html(hl, lang, code, strlen(code), &b, NULL)) {
    oc_sb_free(&b);
    return NULL;
  }
  return oc_sb_take(&b);
}


/* The text of the HTML: tags dropped, the four entities read back. */
static char *text_of(const char *h) {
  char *t = malloc(strlen(h) + 1), *o = t;
  while (*h) {
    if (*h == '<') {
      h = strchr(h, '>') + 1;
      continue;
    }
    static const char *const ents[][2] = {
        {"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}};
    bool done = false;
    for (size_t i = 0; i < 4 && !done; i++)
      if (!strncmp(h, ents[i][0], strlen(ents[i][0]))) {
        *o++ = ents[i][1][0];
        h += strlen(ents[i][0]);
        done = true;
      }
    if (!done)
      *o++ = *h++;
  }
  *o = 0;
  return t;
}

/* code in lang keeps its text, and `frag` (a piece of markup) is in it. */
static void has(const char *lang, const char *code, const char *frag) {
  char *h = html(lang, code);
  CHECK(h != NULL);
  if (!h)
    return;
  char *t = text_of(h);
  CHECK_STR(t, code);
  if (!strstr(h, frag)) {
    fprintf(stderr, "%s: %s not in %s\n", lang, frag, h);
    CHECK(!"fragment missing");
  } else {
    CHECK(1);
  }
  free(t);
  free(h);
}

static void test_names(void) {
  static const char *const want[][2] = {
      {"php", "php"},        {"PHP", "php"},          {"c++", "c"},
      {"cpp", "c"},          {"c", "c"},              {"c#", "csharp"},
      {"csharp", "csharp"},  {"javascript", "js"},    {"js", "js"},
      {"typescript", "ts"},  {"bash", "sh"},          {"shell", "sh"},
      {"sh", "sh"},          {"dockerfile", "docker"}, {"makefile", "make"},
      {"yml", "yaml"},       {"yaml", "yaml"},        {"toml", "ini"},
      {"ini", "ini"},        {"twig", "html"},        {"console", "console"},
      {"rust", "rs"},        {"golang", "go"},        {"go", "go"},
      {"markdown", "md"},    {"apache", "httpd"},     {"nginx", "nginx"},
      {"python", "python"},  {"py", "python"},        {"ruby", "ruby"},
      {"java", "java"},      {"kotlin", "kotlin"},    {"swift", "swift"},
      {"diff", "diff"},      {"json", "json"},        {"xml", "xml"},
      {"sql", "sql"},        {"html", "html"},        {"css", "css"},
      {"patch", "diff"},     {"cli", "console"},      {"html5", "html"},
      {"html4strict", "html"}, {"php-brief", "php"},  {"dos", "bat"},
      {"delphi", "pas"},     {"vbnet", "vb"},         {"plsql", "sql"},
  };
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    const char *got = hl_resolve(hl, want[i][0]);
    CHECK_STR(got ? got : "(none)", want[i][1]);
  }
  static const char *const none[] = {"klingon", "../etc/passwd", "a/b", "",
                                     "php.lang", "langDefs/php", "x y",
                                     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"};
  for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
    CHECK(hl_resolve(hl, none[i]) == NULL);
  oc_sb b;
  oc_sb_init(&b, NULL, 16);
  const char *why = NULL;
  CHECK(!hl_html(hl, "klingon", "qapla'", 6, &b, &why));
  CHECK(b.len == 0 && why && strstr(why, "no grammar"));
  oc_sb_free(&b);
}

static void test_classes(void) {
  has("php", "<?php\n$name = \"World\"; // hi\n", "<span class=\"hl-kwc\">$name");
  has("php", "<?php\n$name = \"World\"; // hi\n", "<span class=\"hl-slc\">// hi");
  has("php", "echo <<<EOT\nHello $x\nEOT;\n",
      "<span class=\"hl-str\">Hello </span><span class=\"hl-ipl\">$x");
  has("c", "#include <stdio.h>\nint main(void) { return 0x1F; } /* x */\n",
      "<span class=\"hl-ppc\">#include ");
  has("c", "int main(void) { return 0x1F; } /* x */\n",
      "<span class=\"hl-num\">0x1F</span>");
  has("c", "int main(void) { return 0; } /* x */\n",
      "<span class=\"hl-com\">/* x */");
  has("c", "char *s = \"a\\n\";\n", "<span class=\"hl-esc\">\\n</span>");
  has("python", "def f(x):\n    return r'\\d' + 'a\\n'\n",
      "<span class=\"hl-str\">'\\d'");
  has("python", "def f(x):\n    return r'\\d' + 'a\\n'\n",
      "<span class=\"hl-kwa\">def </span><span class=\"hl-kwd\">f</span>");
  has("python", "\"\"\"Doc\nstring\"\"\"\nx = 1\n",
      "<span class=\"hl-str\">string&quot;&quot;&quot;</span>");
  has("javascript", "const a = `x`; // c\n", "<span class=\"hl-kwa\">const ");
  has("sh", "cat <<EOF\n$HOME\nEOF\nls\n", "<span class=\"hl-str\">EOF</span>\n");
  has("yaml", "book:\n  title: \"x\" # c\n", "<span class=\"hl-kwa\">book:");
  has("sql", "SELECT * FROM t WHERE id = 'a';\n", "<span class=\"hl-str\">'a'");
  /* HTML with CSS and JavaScript inside */
  has("html", "<style type=\"text/css\">p { color: red }</style>\n",
      "<span class=\"hl-kwa\">color</span>");
  has("html", "<script>var x = 1;</script>\n<p>&amp;</p>\n",
      "<span class=\"hl-num\">1</span>");
  has("html", "<script>var x = 1;</script>\n<p>a</p>\n",
      "<span class=\"hl-kwa\">&lt;p&gt;</span>");
  /* escaped as cmark escapes */
  has("txt", "a < b && \"c\" > d\n", "a &lt; b &amp;&amp; &quot;c&quot; &gt; d");
}

static void test_diff_console(void) {
  const char *d = "--- a\n+++ b\n@@ -1 +1 @@\n ctx\n-old\n+new\n";
  has("diff", d, "<span class=\"hl-line hl-del\">");
  has("diff", d, "<span class=\"hl-line hl-add\">");
  has("diff", d, "<span class=\"hl-line hl-hunk\">");
  has("diff", d, "<span class=\"hl-line hl-file\">");
  const char *c = "$ ls -l | wc -l\n42\nuser@host:~$ echo \"a\" \\\n  b\nout\n";
  has("console", c, "<span class=\"hl-prompt\">$ </span>");
  has("console", c, "<span class=\"hl-out\">42</span>");
  has("console", c, "<span class=\"hl-prompt\">user@host:~$ </span>");
  has("console", c, "<span class=\"hl-out\">out</span>");
  /* the continued line is the command's, not output */
  char *h = html("console", c);
  CHECK(h && !strstr(h, "hl-out\">  b"));
  free(h);
}

/* Each block starts from the grammar as read: keywords Swift's hook adds
 * in one block are not keywords in the next. */
static void test_blocks_independent(void) {
  char *a = html("swift", "let total = 1\nprint(total)\n");
  char *b = html("swift", "print(total)\n");
  CHECK(a && strstr(a, "<span class=\"hl-kwc\">total</span>"));
  CHECK(b && !strstr(b, "hl-kwc"));
  free(a);
  free(b);
  char *c = html("sh", "cat <<END\nx\n");  /* a here-document left open */
  char *d = html("sh", "END\nls\n");
  CHECK(d && !strstr(d, "hl-str"));
  free(c);
  free(d);
}

/* Caps: a line over HL_MAX_LINE is set plain; a long block of short
 * lines is highlighted, and pathological lines end. */
static void test_caps(void) {
  size_t n = HL_MAX_LINE + 10;
  char *line = malloc(n + 1);
  memset(line, 'a', n);
  line[n] = 0;
  oc_sb b;
  oc_sb_init(&b, NULL, 16);
  const char *why = NULL;
  CHECK(!hl_html(hl, "c", line, n, &b, &why));
  CHECK(why && strstr(why, "too long"));
  /* quotes and backslashes that keep expressions busy */
  for (size_t i = 0; i < HL_MAX_LINE - 1; i++)
    line[i] = "\"\\'/*<"[i % 6];
  line[HL_MAX_LINE - 1] = 0;
  static const char *const langs[] = {"c", "php", "sh", "python", "html",
                                      "yaml", "diff", "console", "ruby"};
  for (size_t i = 0; i < sizeof langs / sizeof langs[0]; i++) {
    b.len = 0;
    CHECK(hl_html(hl, langs[i], line, strlen(line), &b, NULL));
  }
  oc_sb_free(&b);
  free(line);
}

/* Every grammar highlight-common installs is read, and keeps the text of
 * a sample that has a bit of every kind of token. */
static void test_all_grammars(const char *dir) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "ls %s/langDefs", dir);
  FILE *p = popen(cmd, "r");
  char name[128];
  int n = 0, ok = 0;
  const char *sample = "x = \"a\\n\" + 'b' /* c */ // d\n# e\nif (y < 10) { z(1.5e3); }\n";
  while (p && fgets(name, sizeof name, p)) {
    char *dot = strstr(name, ".lang");
    if (!dot)
      continue;
    *dot = 0;
    n++;
    char *h = html(name, sample);
    if (h) {
      char *t = text_of(h);
      if (!strcmp(t, sample))
        ok++;
      else
        fprintf(stderr, "%s: text changed\n", name);
      free(t);
      free(h);
    } else {
      fprintf(stderr, "%s: not read\n", name);
    }
  }
  if (p)
    pclose(p);
  printf("test_highlight: %d of %d grammars read and keep the text\n", ok, n);
  CHECK(n >= 200);
  CHECK(ok == n);
}

/* GeSHi's languages without an equivalent grammar in highlight-common:
 * esoteric, vendor or dead languages, set plain with a note. Every other
 * GeSHi language file must resolve. */
static const char *const geshi_plain[] = {
    "4cs",        "aimms",       "asymptote",   "autoconf",    "avisynth",
    "bascomavr",  "basic4gl",    "bf",          "caddcl",      "cfdg",
    "chaiscript", "cil",         "cuesheet",    "dcl",         "dcs",
    "div",        "epc",         "ezt",         "f1",          "falcon",
    "fo",         "freebasic",   "freeswitch",  "genero",      "genie",
    "glsl",       "gml",         "gnuplot",     "gwbasic",     "hicest",
    "hq9plus",    "intercal",    "ispfpanel",   "jcl",         "kixtart",
    "lb",         "llvm",        "locobasic",   "lolcode",     "lotusformulas",
    "lotusscript", "lscript",    "magiksf",     "mapbasic",    "mathematica",
    "metapost",   "mk-61",       "nagios",      "objeck",      "parasail",
    "parigp",     "pcre",        "per",         "perl6",       "pf",
    "pixelbender", "powerbuilder", "proftpd",   "prolog",      "providex",
    "qbasic",     "rbs",         "robots",      "roff",        "sass",
    "scl",        "sdlbasic",    "sparql",      "stonescript", "teraterm",
    "texgraph",   "thinbasic",   "typoscript",  "urbi",        "uscript",
    "vedit",      "visualfoxpro", "visualprolog", "whitespace", "whois",
    "winbatch",   "wolfram",     "xbasic",      "xojo",        "zxbasic",
};

/* Every language file of php-geshi (dir: its geshi/ folder) resolves to a
 * grammar, or is one of geshi_plain, which must not resolve. */
static void test_geshi_names(const char *dir) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "ls %s", dir);
  FILE *p = popen(cmd, "r");
  char name[128];
  int n = 0, resolved = 0;
  while (p && fgets(name, sizeof name, p)) {
    char *dot = strstr(name, ".php");
    if (!dot)
      continue;
    *dot = 0;
    n++;
    bool plain = false;
    for (size_t i = 0; i < sizeof geshi_plain / sizeof geshi_plain[0]; i++)
      plain = plain || !strcmp(name, geshi_plain[i]);
    const char *got = hl_resolve(hl, name);
    if (plain ? got != NULL : got == NULL) {
      fprintf(stderr, "GeSHi's '%s' %s\n", name,
              got ? "resolves: take it off geshi_plain"
                  : "has no grammar: map it or list it in geshi_plain");
      CHECK(!"GeSHi name");
    } else {
      CHECK(1);
    }
    resolved += got != NULL;
  }
  if (p)
    pclose(p);
  printf("test_highlight: %d of GeSHi's %d languages have a grammar\n",
         resolved, n);
  CHECK(n >= 250);
}

int main(int argc, char **argv) {
  hl = hl_new(NULL, NULL);
  if (argc == 3 && !strcmp(argv[1], "--geshi")) {
    test_geshi_names(argv[2]);
    hl_free(hl);
    printf("test_highlight: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
  }
  if (argc == 3) { /* by hand: test_highlight LANG FILE */
    FILE *f = fopen(argv[2], "rb");
    static char buf[1 << 20];
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
      fclose(f);
    buf[n] = 0;
    char *s = html(argv[1], buf);
    fputs(s ? s : "(unknown)\n", stdout);
    free(s);
    hl_free(hl);
    return 0;
  }
  test_names();
  test_classes();
  test_diff_console();
  test_blocks_independent();
  test_caps();
  test_all_grammars(HL_DATA_DIR);
  hl_free(hl);
  printf("test_highlight: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
