/* The typed book model: the book, its editions and the items of its
 * contents as config.yml states them, read once into C structs when the
 * configuration is loaded (book_config.c), and the headings an item's
 * Markdown gives its TOC (book_model.c). The writers read these fields;
 * the maps the templates see (`book`, `edition`, `item.config`) are kept
 * beside them unchanged, and the template records (items, TOC entries)
 * are built from the structs.
 *
 * Every field holds what the configuration says once defaults (book_config.c)
 * and `extends` are applied; config.yml's checks have passed, so a field's
 * documented type is the one written. Texts are whole C strings: the
 * reader of config.yml refuses a NUL byte in any string.
 *
 * Memory: the arena given to the reader (bk_config_load's, or the
 * edition's for bk_book_conf_texts) owns every struct and string. */
#ifndef OCTAVO_BOOK_TYPES_H
#define OCTAVO_BOOK_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tpl_value.h"

/* A list of texts; entries of the list as written that are not strings
 * are left out. */
typedef struct bk_strings {
  const char *const *v;
  size_t n;
} bk_strings;

/* Whether s is one of the texts. */
bool bk_strings_has(const bk_strings *l, const char *s);

/* before_publish or after_publish: a command, or a list of them. */
typedef struct bk_commands {
  const char *const *v; /* NULL for one that is not a string (config.yml
                           checked that none is) */
  size_t n;
  bool list; /* written as a list: the places of its entries are
                book.editions.<name>.<key>.<i> */
} bk_commands;

/* An option that is true, false or absent, or (an error a pdf edition
 * reports at write time) something else. */
typedef enum bk_flag {
  BK_FLAG_UNSET, /* absent or ~ */
  BK_FLAG_FALSE,
  BK_FLAG_TRUE,
  BK_FLAG_BAD /* neither a boolean nor null */
} bk_flag;

/* An item's `editions:` or `formats:`: names, each with or without the
 * `not-` (or `!`) that excludes it; none when the key is absent. A name
 * is cut at 127 bytes. */
typedef struct bk_filter {
  const char *const *names; /* without their `not-` */
  const bool *excluded;     /* excluded[i]: names[i] had `not-` */
  size_t n;
} bk_filter;

/* Whether name passes the filter: no name without `not-`, or name among
 * them; and name not among the excluded. */
bool bk_filter_passes(const bk_filter *f, const char *name);

/* One entry of `contents:`. */
typedef struct bk_item_conf {
  size_t index;        /* its place in contents:, from 0 ("book.contents.3") */
  const char *element; /* "chapter", a book's own element; "" when none */
  const char *number;  /* `number` as text (7 → "7"); "" when none */
  const char *content; /* the content file, relative to Contents/; NULL
                          when none (or empty) */
  const char *title;   /* `title` as text (1984 → "1984"), plain text, not
                          HTML; NULL when none */
  bk_filter editions, formats;
  tpl_value map; /* the entry as written: what templates see as
                    item.config */
} bk_item_conf;

/* Whether the item is published in edition `edition` of format `format`:
 * both its filters pass (book_config.c checked every name). */
bool bk_item_conf_in(const bk_item_conf *it, const char *edition,
                     const char *format);

/* The book: `book:` with its defaults. Its texts as the configuration
 * writes them (bk_config_book_conf); an edition's copy has them rendered
 * as templates (bk_edition.bk, book.h). */
typedef struct bk_book_conf {
  const char *title;       /* as text; "" when ~ */
  bool title_is_text;      /* written as a string (not 1984, not ~): only then
                              does it seed `random` and make the book's slug */
  const char *author;      /* as text; "" when ~ */
  const char *edition;     /* as text ("second"); "" when none */
  const char *language;    /* "en", "fr_CA" */
  const char *publisher;   /* as text; "" when none or not a scalar */
  const char *description; /* as text; "" when none or not a scalar */
  /* description and keywords as the PDF's Subject and Keywords read
     them: a text, or a list of texts (the PDF joins them with ", ") */
  bk_strings description_list, keywords;
  const char *generator_name;    /* generator.name, else "Octavo" */
  const char *generator_version; /* generator.version, else "" */
  const bk_item_conf *items;     /* contents:, in order */
  size_t nitems;
} bk_book_conf;

/* One edition, merged: defaults ← the chain of `extends` ← the edition. */
typedef struct bk_edition_conf {
  const char *name;        /* its key under editions:, its Output/ folder */
  const char *format;      /* lower case: epub, mobi, pdf, html, html_chunked;
                              "" for a base that only others extend */
  const char *extends;     /* the edition it extends as written; "" when none */
  const char *theme;       /* "clean" (or the themed publish's default) */
  const char *page_source; /* epub: the pdf edition whose printed pages it
                              marks; "" when none */
  const char *isbn;        /* as text; "" when none */
  const char *images_base_dir; /* "images/" */
  const char *page_size;       /* pdf: "A4", "6in 9in" */
  bool highlight_code;         /* highlight code blocks (true) */
  bool include_styles;         /* the theme's style sheet (true) */
  bool search;                 /* html_chunked: the search index (true) */
  bool two_sided;              /* pdf: recto and verso pages (true) */
  bool pdf_tagged;             /* pdf: tagged, PDF/UA-1 (true) */
  int chunk_level;             /* html_chunked: a page per item (1) or per
                                  section (2) */
  int toc_deep;                /* toc.deep: headings down to this level (2) */
  bk_strings toc_elements;     /* toc.elements: [appendix, chapter] */
  bk_strings labels;           /* elements that get labels: [appendix,
                                  chapter, figure] */
  /* pdf: footnotes: 0 page (also when absent), 1 end; footnote_numbering:
     0 item (also when absent), 1 book; -1 another value (an error the pdf
     writer reports) */
  int footnotes, footnote_numbering;
  bool has_bleed;            /* pdf: bleed given (not ~) */
  const char *bleed;         /* its text (a number as text); NULL when it is
                                neither a string nor a number */
  bk_flag crop_marks, pdf_a; /* pdf */
  /* the budgets (book_config.h): the templates' work and output, with
     their defaults; the image caps, 0 for the typesetter's defaults
     (ts_image.h) */
  int64_t template_max_iterations, template_max_output_mb;
  int64_t image_max_megapixels, image_max_ppi;
  bk_commands before_publish, after_publish;
  tpl_value map; /* the merged edition: what templates see as `edition` */
} bk_edition_conf;

/* One heading of an item's TOC: the item's title first (its leading H1,
 * else an entry made of its title and label), then its headings. */
typedef struct bk_heading {
  int level;         /* 1 to 6 */
  const char *title; /* HTML */
  const char *label; /* HTML; "" when none */
  const char *slug;  /* the heading's id; its URL in the one-page book is
                        "#slug" */
} bk_heading;

#endif
