/* Splits a .test file into its sections. A section's text runs from the line
 * after its header to the line before the next header; its last newline
 * belongs to the file layout, not to the text. */
#include "tpl_case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oc_alloc.h"
#include "oc_file.h"
#include "tpl_loader.h"

/* A header is a whole line "--NAME--" or "--TEMPLATE(name)--". */
static bool header_at(const char *line, const char *end, const char **name,
                      size_t *name_len) {
  size_t n = (size_t)(end - line);
  if (n < 5 || line[0] != '-' || line[1] != '-' || end[-1] != '-' ||
      end[-2] != '-')
    return false;
  for (const char *p = line + 2; p < end - 2; p++)
    if (!((*p >= 'A' && *p <= 'Z') || *p == '-' || *p == '(' || *p == ')' ||
          (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '.' ||
          *p == '_' || *p == '/'))
      return false;
  *name = line + 2;
  *name_len = n - 4;
  return true;
}

int tpl_case_load(const char *path, tpl_case *c, char *err, size_t errlen) {
  memset(c, 0, sizeof *c);
  size_t len;
  char *text = oc_read_file(path, &len);
  if (!text) {
    snprintf(err, errlen, "%s: cannot read", path);
    return -1;
  }
  c->path = oc_strdup(path);
  const char *sec_name = NULL, *sec_start = NULL;
  size_t sec_name_len = 0;
  const char *p = text, *end = text + len;
  int rc = 0;
  for (;;) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    const char *line_end = eol ? eol : end;
    const char *hname = NULL;
    size_t hlen = 0;
    bool is_header = p < end && header_at(p, line_end, &hname, &hlen);
    if (is_header || p >= end) {
      if (sec_name) {
        const char *body_end = p;
        if (body_end > sec_start && body_end[-1] == '\n')
          body_end--;
        if (body_end < sec_start)
          body_end = sec_start;
        char *body = oc_strndup(sec_start, (size_t)(body_end - sec_start));
        size_t blen = (size_t)(body_end - sec_start);
#define IS(lit)                                                                \
  (sec_name_len == sizeof(lit) - 1 && !memcmp(sec_name, lit, sec_name_len))
        if (IS("TEST")) {
          c->test = body;
        } else if (IS("TEMPLATE") ||
                   (sec_name_len > 10 && !memcmp(sec_name, "TEMPLATE(", 9))) {
          c->templates = oc_reallocarray(c->templates, c->ntemplates + 1,
                                         sizeof *c->templates);
          tpl_case_template *t = &c->templates[c->ntemplates++];
          t->name = IS("TEMPLATE")
                        ? oc_strndup("index.twig", 10)
                        : oc_strndup(sec_name + 9, sec_name_len - 10);
          t->source = body;
          t->len = blen;
        } else if (IS("DATA")) {
          c->data = body;
        } else if (IS("CONFIG")) {
          c->config = body;
        } else if (IS("EXPECT")) {
          c->expect = body;
          c->expect_len = blen;
        } else if (IS("EXCEPTION")) {
          c->exception = body;
        } else if (IS("SKIP-ORACLE")) {
          c->skip_oracle = body;
        } else {
          snprintf(err, errlen, "%s: unknown section --%.*s--", path,
                   (int)sec_name_len, sec_name);
          free(body);
          rc = -1;
          break;
        }
#undef IS
      }
      if (p >= end)
        break;
      sec_name = hname;
      sec_name_len = hlen;
      sec_start = eol ? eol + 1 : end;
    } else if (!sec_name && line_end > p) {
      snprintf(err, errlen, "%s:1:1: text before the first section", path);
      rc = -1;
      break;
    }
    p = eol ? eol + 1 : end;
  }
  free(text);
  if (rc == 0 && c->ntemplates == 0) {
    snprintf(err, errlen, "%s: no --TEMPLATE-- section", path);
    rc = -1;
  }
  if (rc == 0 && !c->expect == !c->exception) {
    snprintf(err, errlen,
             "%s: needs exactly one of --EXPECT-- and --EXCEPTION--", path);
    rc = -1;
  }
  if (rc != 0)
    tpl_case_free(c);
  return rc;
}

void tpl_case_free(tpl_case *c) {
  for (size_t i = 0; i < c->ntemplates; i++) {
    free(c->templates[i].name);
    free(c->templates[i].source);
  }
  free(c->templates);
  free(c->path);
  free(c->test);
  free(c->data);
  free(c->config);
  free(c->expect);
  free(c->exception);
  free(c->skip_oracle);
  memset(c, 0, sizeof *c);
}

/* ---- --CONFIG-- ------------------------------------------------------ */

/* The case's --CONFIG-- options. */
static bool str_is(tpl_value v, const char *s) {
  return v.type == TPL_STR && v.len == strlen(s) && !memcmp(v.u.s, s, v.len);
}

int tpl_case_read_config(oc_arena *a, const tpl_case *c, tpl_case_config *cfg,
                         char *err, size_t errlen) {
  cfg->autoescape = -1;
  cfg->strict = false;
  cfg->has_seed = false;
  cfg->max_iterations = cfg->max_output = 0;
  if (!c->config)
    return 0;
  tpl_value v;
  tpl_diag diag;
  if (tpl_data_parse(a, "CONFIG", c->config, strlen(c->config), &v, &diag) !=
          0 ||
      v.type != TPL_MAP) {
    snprintf(err, errlen, "bad --CONFIG--: %s", diag.message);
    return -1;
  }
  tpl_value x;
  if (tpl_map_get_str(v.u.map, "autoescape", 10, &x)) {
    tpl_escape e;
    if (x.type == TPL_BOOL && !x.u.b)
      cfg->autoescape = TPL_ESC_NONE;
    else if (str_is(x, "name"))
      cfg->autoescape = -1;
    else if (x.type == TPL_STR && tpl_escape_by_name(x.u.s, x.len, &e))
      cfg->autoescape = (int)e;
    else {
      snprintf(err, errlen, "bad autoescape in --CONFIG--");
      return -1;
    }
  }
  if (tpl_map_get_str(v.u.map, "strict_variables", 16, &x))
    cfg->strict = tpl_truthy(x);
  if (tpl_map_get_str(v.u.map, "random_seed", 11, &x)) {
    cfg->has_seed = true;
    cfg->seed = (uint64_t)tpl_to_int(x);
  }
  if (tpl_map_get_str(v.u.map, "max_iterations", 14, &x))
    cfg->max_iterations = (uint64_t)tpl_to_int(x);
  if (tpl_map_get_str(v.u.map, "max_output", 10, &x))
    cfg->max_output = (uint64_t)tpl_to_int(x);
  return 0;
}
