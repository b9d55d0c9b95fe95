/* compile_cases CASES_DIR -o OUT.c: compiles every case of the template
 * suite to C with the back end (one static registry per case) and writes
 * the table of compiled_cases.h, which case_runner runs next to the
 * interpreter. A case that does not load, configure or compile is left out
 * here: the interpreted run reports it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oc_alloc.h"
#include "oc_sb.h"
#include "themec_set.h"
#include "tpl_case.h"
#include "tpl_cgen.h"
#include "tpl_interp.h"

/* A C string literal of s (no escapes needed for paths we make, but quotes
 * and backslashes are escaped all the same). */
static void add_cstr(oc_sb *b, const char *s) {
  oc_sb_addc(b, '"');
  for (size_t i = 0; s[i]; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') {
      oc_sb_addc(b, '\\');
      oc_sb_addc(b, (char)c);
    } else if (c < 0x20 || c >= 0x7f || (c == '?' && i && s[i - 1] == '?')) {
      oc_sb_printf(b, "\\%03o", c);
    } else {
      oc_sb_addc(b, (char)c);
    }
  }
  oc_sb_addc(b, '"');
}

/* Whether the case's templates can be compiled: all of them parse, or, in
 * a case that expects output, index.twig parses and the others that do not
 * have diagnostics (they become stubs that fail when displayed; source()
 * still reads them, and the interpreter fails when loading them, so such a
 * case never does). Cases whose templates do not compile test compile-time
 * errors, which the interpreted run checks. */
static bool case_usable(themec_set *s, const tpl_case *c) {
  if (themec_set_parse(s) == 0)
    return true;
  themec_unit *main_unit = themec_set_find(s, "index.twig", 10);
  if (!c->expect || !main_unit || main_unit->state != THEMEC_OK)
    return false;
  for (size_t k = 0; k < s->n; k++)
    if (s->u[k].state != THEMEC_OK && s->u[k].ndiags == 0)
      return false;
  return true;
}

/* Adds case c (file `file`) as registry `prefix` if it can be compiled,
 * parsing its templates in s (a set of c->ntemplates units); the paths
 * for #line are kept in keep. */
static bool compile_case(tpl_cgen *g, const char *file, const tpl_case *c,
                         themec_set *s, const char *prefix,
                         themec_strlist *keep) {
  tpl_case_config cfg;
  char err[256];
  if (tpl_case_read_config(s->arena, c, &cfg, err, sizeof err) != 0) {
    fprintf(stderr, "compile_cases: warning: %s: %s (case left out)\n", file,
            err);
    return false;
  }
  int strategy = cfg.autoescape;
  for (size_t k = 0; k < c->ntemplates; k++) {
    themec_unit *u = &s->u[k];
    u->name = c->templates[k].name;
    u->source = c->templates[k].source;
    u->len = c->templates[k].len;
    u->autoescape =
        strategy >= 0 ? (tpl_escape)strategy : tpl_escape_for_name(u->name);
  }
  themec_set_sort(s);
  if (!case_usable(s, c))
    return false;
  const tpl_ast_template **asts = oc_calloc(s->n, sizeof *asts);
  const char **paths = oc_calloc(s->n, sizeof *paths);
  const tpl_diag **broken = oc_calloc(s->n, sizeof *broken);
  for (size_t k = 0; k < s->n; k++) {
    if (s->u[k].state == THEMEC_OK) {
      asts[k] = s->u[k].ast;
    } else {
      asts[k] = themec_placeholder(s, &s->u[k]);
      broken[k] = &s->u[k].diags[0];
    }
    oc_sb p;
    oc_sb_init(&p, NULL, 0);
    oc_sb_printf(&p, "%s(%s)", file, s->u[k].name);
    char *path = oc_sb_take(&p);
    paths[k] = path;
    themec_strlist_add(keep, path);
  }
  tpl_cgen_add_registry(g, prefix, s->n, asts, paths, broken, true);
  free(asts);
  free(paths);
  free(broken);
  return true;
}

static int usage(void) {
  fputs("usage: compile_cases CASES_DIR -o OUT.c\n", stderr);
  return 2;
}

int main(int argc, char **argv) {
  const char *dir = NULL, *out = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-o") && i + 1 < argc)
      out = argv[++i];
    else if (argv[i][0] != '-' && !dir)
      dir = argv[i];
    else
      return usage();
  }
  if (!dir || !out)
    return usage();
  themec_strlist files = {0};
  if (themec_collect(dir, "", ".test", &files) != 0) {
    themec_strlist_free(&files);
    return 1;
  }
  themec_strlist_sort(&files);

  const char *inc = "compiled_cases.h";
  tpl_cgen *g = tpl_cgen_new(themec_base_name(out), 1, &inc);
  /* Keeps every case alive until the file is written: the ASTs point into
   * the case texts. */
  tpl_case *cases = oc_calloc(files.len, sizeof *cases);
  themec_set *sets = oc_calloc(files.len, sizeof *sets);
  themec_strlist keep = {0};
  oc_sb table;
  oc_sb_init(&table, NULL, 4096);
  oc_sb_adds(&table, "\nconst tpl_compiled_case tpl_compiled_cases[] = {\n");
  size_t ncompiled = 0;
  for (size_t i = 0; i < files.len; i++) {
    char *full = themec_path_join(dir, files.v[i]);
    char err[1024];
    int loaded = tpl_case_load(full, &cases[i], err, sizeof err);
    free(full);
    if (loaded != 0) {
      fprintf(stderr, "compile_cases: warning: %s (case left out)\n", err);
      continue;
    }
    char prefix[32];
    snprintf(prefix, sizeof prefix, "case_%zu", ncompiled);
    themec_set_init(&sets[i], cases[i].ntemplates);
    if (!compile_case(g, files.v[i], &cases[i], &sets[i], prefix, &keep))
      continue;
    oc_sb_adds(&table, "  {");
    add_cstr(&table, files.v[i]);
    oc_sb_printf(&table, ", %s_templates, %zu},\n", prefix, sets[i].n);
    ncompiled++;
  }
  if (!ncompiled)
    oc_sb_adds(&table, "  {NULL, NULL, 0},\n");
  oc_sb_printf(&table, "};\nconst size_t tpl_ncompiled_cases = %zu;\n",
               ncompiled);
  tpl_cgen_add_trailer(g, table.p, table.len);
  size_t len;
  char *code = tpl_cgen_finish(g, &len);
  int rc = themec_write_atomic(out, code, len) == 0 ? 0 : 1;
  free(code);
  for (size_t i = 0; i < files.len; i++) {
    tpl_case_free(&cases[i]);
    themec_set_free(&sets[i]);
  }
  free(cases);
  free(sets);
  oc_sb_free(&table);
  themec_strlist_free(&keep);
  themec_strlist_free(&files);
  tpl_cgen_free(g);
  return rc;
}
