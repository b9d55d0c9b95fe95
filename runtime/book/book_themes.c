/* The themes compiled into publish by themec (themes/CMakeLists.txt makes
 * one registry per theme and format). `base`, Easybook's other theme name,
 * is the same as `clean`; `tech` is the technical-book theme. */
#include <string.h>

#include "book_writers.h"
#include "clean_epub.h"
#include "clean_html.h"
#include "clean_html_chunked.h"
#include "clean_pdf.h"
#include "tech_epub.h"
#include "tech_html.h"
#include "tech_html_chunked.h"
#include "tech_pdf.h"

bool bk_find_theme(const char *name, const char *format, bk_theme *found) {
  if (!strcmp(name, "tech")) {
    if (!strcmp(format, "html")) {
      *found = (bk_theme){"tech", "html", octavo_theme_tech_html_templates,
                          octavo_theme_tech_html_ntemplates};
      return true;
    }
    if (!strcmp(format, "html_chunked")) {
      *found = (bk_theme){"tech", "html_chunked",
                          octavo_theme_tech_html_chunked_templates,
                          octavo_theme_tech_html_chunked_ntemplates};
      return true;
    }
    if (!strcmp(format, "epub") || !strcmp(format, "mobi")) {
      *found = (bk_theme){"tech", "epub", octavo_theme_tech_epub_templates,
                          octavo_theme_tech_epub_ntemplates};
      return true;
    }
    if (!strcmp(format, "pdf")) {
      *found = (bk_theme){"tech", "pdf", octavo_theme_tech_pdf_templates,
                          octavo_theme_tech_pdf_ntemplates};
      return true;
    }
    return false;
  }
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

const char *bk_theme_names(void) { return "clean (also called base), tech"; }
