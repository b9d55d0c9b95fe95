/* libFuzzer target for a chapter through the whole book side: its
 * Markdown through cmark-gfm, the book's extensions and the model's hooks
 * (labels, the theme's figure, table and code templates), then the writer
 * of one edition. The first byte picks the edition (% 8: 0-2 html, 3-5
 * epub, 6 pdf's model with notes at the foot of the page, 7 pdf typeset,
 * which costs ten times the others), the rest is
 * Contents/chapter1.md of a small book whose other chapter has ids to
 * link to. A failure must be a reported error, and nothing may crash,
 * leak or read out of bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_tmpbook.h"

static const char config[] = FZ_BOOK_HEAD
    "    - { element: toc }\n"
    "    - { element: chapter, number: 1, content: chapter1.md }\n"
    "    - { element: appendix, number: A, content: appendix.md }\n"
    "  editions:\n"
    "    web: { format: html, highlight_code: true }\n"
    "    ebook: { format: epub, toc: { deep: 3 } }\n"
    "    print: { format: pdf, code_line_numbers: true }\n";

static const char appendix[] =
    "# Appendix {#appendix}\n\n"
    "## Notes {#notes}\n\nSee [the start](#chapter-one) and a note.[^a]\n\n"
    "[^a]: The note.\n\n"
    "![A figure](images/pic.png)\n";

static const char *book;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  book = fz_book_make(config);
  fz_book_write(book, "Contents/appendix.md", appendix, sizeof appendix - 1);
  fz_book_write(book, "Contents/images/pic.png", fz_png1x1, sizeof fz_png1x1);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!size)
    return 0;
  static const char *const editions[] = {"web",   "web",   "web",   "ebook",
                                         "ebook", "ebook", "print", "print"};
  int mode = data[0] % 8;
  fz_book_write(book, "Contents/chapter1.md", data + 1, size - 1);
  fz_load_publish(book, editions[mode], mode == 6 ? FZ_MODEL : FZ_WRITE);
  return 0;
}
