/* The themes compiled into publish by themec (themes/CMakeLists.txt makes
 * one registry per theme and format). `base`, Easybook's other theme name,
 * is the same as `clean`. */
#include <string.h>

#include "book_writers.h"
#include "clean_epub.h"
#include "clean_html.h"
#include "clean_html_chunked.h"
#include "clean_pdf.h"

bool bk_find_theme(const char *name, const char *format, bk_theme *found) {
  if (strcmp(name, "clean") && strcmp(name, "base"))
    return false;
  if (!strcmp(format, "html")) {
    *found = (bk_theme){"clean", "html", octavo_theme_clean_html_templates,
                        octavo_theme_clean_html_ntemplates};
    return true;
  }
  if (!strcmp(format, "html_chunked")) {
    *found = (bk_theme){"clean", "html_chunked",
                        octavo_theme_clean_html_chunked_templates,
                        octavo_theme_clean_html_chunked_ntemplates};
    return true;
  }
  /* mobi editions are published as EPUB (KindleGen is gone). */
  if (!strcmp(format, "epub") || !strcmp(format, "mobi")) {
    *found = (bk_theme){"clean", "epub", octavo_theme_clean_epub_templates,
                        octavo_theme_clean_epub_ntemplates};
    return true;
  }
  if (!strcmp(format, "pdf")) {
    *found = (bk_theme){"clean", "pdf", octavo_theme_clean_pdf_templates,
                        octavo_theme_clean_pdf_ntemplates};
    return true;
  }
  return false;
}

const char *bk_theme_names(void) { return "clean (also called base)"; }
