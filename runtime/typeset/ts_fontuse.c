/* The fonts a render uses: the @font-face rules of its sheets loaded, and
 * a family that is not installed reported once. Under
 * the layout, beside the styles: the engine's other files call it. */
#include <string.h>

#include "ts_engine_int.h"

/* The sheet a declaration was read from, for messages. */
static const char *sheet_of(const ts_ctx *c, const css_decl *d) {
  for (size_t s = 0; s < c->nsheets; s++) {
    const css_stylesheet *sh = c->sheets[s];
    for (size_t r = 0; r < sh->nrules; r++)
      if (d >= sh->rules[r].decls &&
          d < sh->rules[r].decls + sh->rules[r].ndecls)
        return sh->file;
  }
  return c->in->name;
}

/* Once per family name. */
void ts_warn_font(ts_ctx *c, const css_decl *fam, const char *first) {
  for (size_t i = 0; i < c->nwarned_fonts; i++)
    if (!strcmp(c->warned_fonts[i], first))
      return;
  if (c->nwarned_fonts < sizeof c->warned_fonts / sizeof c->warned_fonts[0])
    c->warned_fonts[c->nwarned_fonts++] = first;
  oc_report(c->rep, OC_WARNING, sheet_of(c, fam), fam->line, fam->col,
            "font family '%s' is not installed; another is used",
            first);
}

/* @font-face rules: each names a family, a weight, a style and a file,
 * resolved through the caller (which keeps paths inside the book). */
void ts_load_font_faces(ts_ctx *c) {
  for (size_t s = 1; s < c->nsheets; s++) {
    const css_stylesheet *sh = c->sheets[s];
    for (size_t i = 0; i < sh->nfonts; i++) {
      const css_font_face *ff = &sh->fonts[i];
      const char *family = NULL, *url = NULL;
      unsigned uline = ff->line, ucol = ff->col;
      int weight = 400;
      bool italic = false;
      for (size_t k = 0; k < ff->ndecls; k++) {
        const css_decl *d = &ff->decls[k];
        if (d->prop == CSS_P_FONT_FAMILY) {
          const char **names;
          if (css_read_font_family(c->a, d->value, d->nvalue, &names))
            family = names[0];
        } else if (d->prop == CSS_P_SRC) {
          for (size_t t = 0; t < d->nvalue && !url; t++) {
            const css_token *tk = &d->value[t];
            if (tk->type == CSS_T_URL)
              url = tk->text;
            else if (tk->type == CSS_T_FUNCTION && !strcmp(tk->text, "url") &&
                     t + 1 < d->nvalue && d->value[t + 1].type == CSS_T_STRING)
              url = d->value[t + 1].text;
            uline = tk->line;
            ucol = tk->col;
          }
        } else if (d->prop == CSS_P_FONT_WEIGHT) {
          const char *k2 = css_read_keyword(d->value, d->nvalue);
          if (k2 && !strcmp(k2, "bold"))
            weight = 700;
          else if (!k2 && d->nvalue && d->value[0].type == CSS_T_NUMBER)
            weight = (int)d->value[0].num;
        } else if (d->prop == CSS_P_FONT_STYLE) {
          const char *k2 = css_read_keyword(d->value, d->nvalue);
          italic = k2 && (!strcmp(k2, "italic") || !strcmp(k2, "oblique"));
        }
      }
      if (!family || !url) {
        oc_report(c->rep, OC_WARNING, sh->file, ff->line, ff->col,
                  "@font-face needs font-family and src: url(...); ignored");
        continue;
      }
      const char *path =
          c->in->resolve
              ? c->in->resolve(c->in->resolve_user, url, sh->file, uline, ucol)
              : NULL;
      if (path)
        ts_fonts_add_file(c->fonts, path, url, family, weight, italic, sh->file,
                          uline, ucol);
    }
  }
}
