/* libFuzzer target for deep and repeated structure on the way to the PDF:
 * the input is a program that writes a chapter, so that a few bytes reach
 * nesting (thousands of levels) and repetition that mutation of Markdown
 * text would never build. The first byte picks the edition (% 8: 0-5
 * print, typeset; 6 ebook; 7 web); then pairs of bytes, (op, count):
 * op % 32 below 19 is a kind of element (emphasis, links, raw HTML, lists,
 * quotes, tables, footnotes...), opened count times (1 + count^2 / 3, up
 * to 21,676), nested, or side by side when op & 0x80; op % 32 from 19
 * closes what is open. The chapter is capped at 32 KiB, which still holds
 * 1,000 levels of the longest kind and keeps a run within seconds under
 * the sanitizers (a chapter of 256 KiB of everything took 44 s). Nothing may
 * crash, leak or hang, and a failure must be a reported error. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_tmpbook.h"

static const char config[] =
    FZ_BOOK_HEAD "    - { element: chapter, number: 1, content: chapter1.md }\n"
                 "  editions:\n"
                 "    web: { format: html }\n"
                 "    ebook: { format: epub }\n"
                 "    print: { format: pdf }\n";

/* Block kinds are line prefixes (nested: one after the other on a line);
 * the others open before the word and close after it. */
static const struct kind {
  const char *open, *close;
  bool block;
} kinds[] = {
    {"*", "*", false},
    {"**", "**", false},
    {"~~", "~~", false},
    {"[", "](#deep)", false},
    {"![", "](images/pic.png)", false},
    {"<span>", "</span>", false},
    {"<a href=\"#deep\">", "</a>", false},
    {"<div>", "</div>", false},
    {"<table><tr><td>", "</td></tr></table>", false},
    {"<ul><li>", "</li></ul>", false},
    {"<blockquote>", "</blockquote>", false},
    {"<sup>", "</sup>", false},
    {"w[^n]", "", false},
    {"`c` ", "", false},
    {"- ", "", true},
    {"1. ", "", true},
    {"> ", "", true},
    {"| a | b |\n| - | - |\n| ", " | c |\n", false},
    {"\n\n## H {#h}\n\n", "", false},
};
enum {
  NKINDS = sizeof kinds / sizeof kinds[0],
  CLOSE = NKINDS,
  MAX_CHAPTER = 32 << 10,
  MAX_OPEN = 1 << 16
};

typedef struct prog {
  char *out;
  size_t n;
  unsigned char open[MAX_OPEN]; /* kinds open, outermost first */
  size_t nopen;
} prog;

static bool put(prog *p, const char *s) {
  size_t l = strlen(s);
  if (p->n + l > MAX_CHAPTER)
    return false;
  memcpy(p->out + p->n, s, l);
  p->n += l;
  return true;
}

/* The word, what is open closed in reverse, and a blank line. */
static void close_all(prog *p) {
  put(p, "deep");
  while (p->nopen)
    put(p, kinds[p->open[--p->nopen]].close);
  put(p, "\n\n");
}

static const char *book;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  book = fz_book_make(config);
  fz_book_write(book, "Contents/images/pic.png", fz_png1x1, sizeof fz_png1x1);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!size)
    return 0;
  static const char *const editions[] = {"print", "print", "print", "print",
                                         "print", "print", "ebook", "web"};
  const char *edition = editions[data[0] % 8];
  prog *p = calloc(1, sizeof *p);
  p->out = malloc(MAX_CHAPTER + 1);
  put(p, "# Deep {#deep}\n\n");
  for (size_t i = 1; i + 1 < size; i += 2) {
    unsigned op = data[i] % 32u;
    size_t count = 1 + (size_t)data[i + 1] * data[i + 1] / 3;
    if (op >= CLOSE) {
      close_all(p);
      continue;
    }
    const struct kind *k = &kinds[op];
    if (data[i] & 0x80) { /* side by side */
      for (size_t j = 0; j < count; j++)
        if (!put(p, k->open) || !put(p, "x") || !put(p, k->close) ||
            (k->block && !put(p, "\n")))
          break;
      continue;
    }
    for (size_t j = 0; j < count && p->nopen < MAX_OPEN; j++) {
      if (!put(p, k->open))
        break;
      if (!k->block)
        p->open[p->nopen++] = (unsigned char)op;
    }
  }
  close_all(p);
  put(p, "[^n]: A note.\n");
  fz_book_write(book, "Contents/chapter1.md", p->out, p->n);
  free(p->out);
  free(p);

  fz_load_publish(book, edition, FZ_WRITE);
  return 0;
}
