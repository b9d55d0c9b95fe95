/* libFuzzer target for rendering: templates and data through the
 * interpreter. An input is a template case in the suite's format
 * (tests/templates/README.md), so the case files are its seeds: text
 * before any section header is index.twig; --TEMPLATE-- and
 * --TEMPLATE(name)-- are templates, --DATA-- is JSON or YAML,
 * --CONFIG-- sets autoescape and strict_variables; other sections are
 * ignored. The render must never crash, leak or read out of bounds, must
 * say why it fails, and its output must be NUL-terminated at its length.
 * Renders are capped at 64 MiB; hangs (a loop over range(1, 1e9)) are the
 * template work budget's to stop, a million steps here (or the case's
 * max_iterations when lower). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tpl_case.h"
#include "tpl_loader.h"

/* "--NAME--" alone on its line, NAME of capitals, digits, '-', or
 * TEMPLATE(name) with a name of letters, digits and ._-/ */
static bool is_header(const char *p, size_t n) {
  if (n < 5 || p[0] != '-' || p[1] != '-' || p[n - 1] != '-' || p[n - 2] != '-')
    return false;
  for (size_t i = 2; i < n - 2; i++) {
    char c = p[i];
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
          (c >= '0' && c <= '9') || c == '-' || c == '(' || c == ')' ||
          c == '.' || c == '_' || c == '/'))
      return false;
  }
  return true;
}

enum { MAX_TEMPLATES = 8 };
#define FUZZ_WORK_LIMIT 1000000u

typedef struct section {
  const char *name; /* header without the dashes; NULL before any */
  size_t name_len;
  const char *text;
  size_t len;
} section;

static bool named(const section *s, const char *lit) {
  return s->name && s->name_len == strlen(lit) &&
         !memcmp(s->name, lit, s->name_len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *p = (const char *)data, *end = p + size;
  section secs[16];
  size_t nsecs = 0;
  secs[0] = (section){NULL, 0, p, 0};
  nsecs = 1;
  for (const char *line = p; line < end;) {
    const char *eol = memchr(line, '\n', (size_t)(end - line));
    const char *line_end = eol ? eol : end;
    const char *next = eol ? eol + 1 : end;
    if (is_header(line, (size_t)(line_end - line)) && nsecs < 16) {
      section *prev = &secs[nsecs - 1];
      prev->len = (size_t)(line - prev->text);
      if (prev->len && prev->text[prev->len - 1] == '\n')
        prev->len--;
      secs[nsecs++] =
          (section){line + 2, (size_t)(line_end - line) - 4, next, 0};
    }
    line = next;
  }
  secs[nsecs - 1].len = (size_t)(end - secs[nsecs - 1].text);

  tpl_env *env = tpl_env_new();
  tpl_env_set_memory_limit(env, (size_t)64 << 20);
  /* A million steps, not publish's fifty: the budget is still reached, in
   * well under the fuzzer's timeout under the sanitizers, and a step that
   * costs more than its share (work growing with each call) still shows
   * as a timeout. */
  tpl_env_set_work_limit(env, FUZZ_WORK_LIMIT, "the fuzzer's budget");
  tpl_env_set_random_seed(env, 42);
  tpl_env_set_now(env, 1700000000);
  oc_arena *ea = tpl_env_arena(env);
  tpl_loader *loader = tpl_loader_new(env);
  tpl_value vars = tpl_null();
  size_t ntemplates = 0;
  for (size_t i = 0; i < nsecs; i++) {
    const section *s = &secs[i];
    if (!s->name || named(s, "TEMPLATE")) {
      if (s->name || s->len) {
        tpl_loader_add_string(loader, "index.twig", s->text, s->len);
        ntemplates++;
      }
    } else if (s->name_len > 10 && !memcmp(s->name, "TEMPLATE(", 9) &&
               s->name[s->name_len - 1] == ')' && ntemplates < MAX_TEMPLATES) {
      char *name = oc_arena_strndup(ea, s->name + 9, s->name_len - 10);
      tpl_loader_add_string(loader, name, s->text, s->len);
      ntemplates++;
    } else if (named(s, "DATA")) {
      tpl_diag diag;
      memset(&diag, 0, sizeof diag);
      if (tpl_data_parse(ea, "DATA", s->text, s->len, &vars, &diag) != 0) {
        if (!diag.message[0])
          abort(); /* rejected without a reason */
        vars = tpl_null();
      } else if (vars.type != TPL_MAP) {
        vars = tpl_null();
      }
    } else if (named(s, "CONFIG")) {
      /* the suite's reader of --CONFIG--, on a case holding just that */
      tpl_case c;
      memset(&c, 0, sizeof c);
      c.config = oc_arena_strndup(ea, s->text, s->len);
      tpl_case_config cfg;
      char err[200];
      if (tpl_case_read_config(ea, &c, &cfg, err, sizeof err) == 0) {
        tpl_env_set_autoescape(env, cfg.autoescape);
        tpl_env_set_strict(env, cfg.strict);
        if (cfg.has_seed)
          tpl_env_set_random_seed(env, cfg.seed);
        if (cfg.max_iterations && cfg.max_iterations < FUZZ_WORK_LIMIT)
          tpl_env_set_work_limit(env, cfg.max_iterations, "max_iterations");
      }
    }
  }
  char *out = NULL;
  size_t out_len = 0;
  tpl_diag diag;
  memset(&diag, 0, sizeof diag);
  if (tpl_render(env, "index.twig", vars, &out, &out_len, &diag) != 0) {
    if (!diag.message[0])
      abort(); /* failed without saying why */
  } else {
    if (!out || out[out_len] != 0)
      abort();
    free(out);
  }
  tpl_env_free(env);
  return 0;
}
