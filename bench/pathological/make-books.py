#!/usr/bin/env python3
"""Writes the pathological books of issue 13 into a folder, one book each:

  footnotes       20,000 footnotes, one per short paragraph
  footnotes-para  20,000 footnotes in one paragraph
  headings        100,000 headings (## Heading N), a line of text each
  png             one 20000x20000 grey PNG (about 0.4 MB, 400 megapixels
                  declared), placed as a figure: over the default cap
  png-400         the same with image_max_megapixels: 400 in every
                  edition: decoded (pdf: reduced to 300 ppi)
  paragraph       one 50 MB paragraph of words
  paragraph10     one 10 MB paragraph (cmark-gfm's inline parser)
  paragraph-cjk   one 10 MB paragraph of Chinese and Japanese, no space
                  in it: every character a break (language: zh)
  css             a 50 MB style.css beside an ordinary chapter
  map             config.yml with an 80,000-key map under book:
  lists           10,000-deep nested lists
  links           650 KB of "a *b* [x](u) " in one paragraph (cmark-gfm
                  0.29 walks every emphasis mark at each link: refused)
  links-prose     10 MB of prose in one paragraph, a link, emphasis and a
                  footnote reference in every sentence (cmark-gfm alone:
                  over 300 s): refused
  image-alt       an image nested in its own alternative text 100,000
                  deep: ![![![...](images/i.png)](images/i.png)](images/i.png),
                  a 1x1 PNG
  footnote-refs   one footnote referenced 1,000,000 times, 100 references
                  a paragraph
  table-delims    40,000 lines alternating 'a | b' and '-|-|-' in one
                  paragraph: each reads as a delimiter row that does not
                  match its header (cmark-gfm alone: minutes): refused

Issue 24's deep books (nesting past every cap; each edition within 10 s
and 1 GB):

  deep-emphasis   50,000 '*' on each side of a word (100 KB)
  deep-quotes     10,000-deep block quotes
  deep-mixed      lists and quotes alternating, 10,000 deep
  deep-div        100,000 raw HTML <div> nested
  deep-span       100,000 raw HTML <span> nested in a paragraph
  deep-tables     10,000 raw HTML tables, each in the cell of the last
  deep-links      100,000 '[' before a link and 100,000 '](u)' after it
  deep-a          10,000 raw HTML <a href> nested

Every book has the editions web (html), website (html_chunked), ebook
(epub) and print (pdf). Usage: make-books.py DIR [NAME...]"""
import os
import random
import struct
import sys
import zlib

EDITIONS = """    editions:
        web: { format: html }
        website: { format: html_chunked }
        ebook: { format: epub }
        print: { format: pdf }
"""


def book(root, name, chapter, extra_book="", files=None, options=""):
    d = os.path.join(root, name)
    os.makedirs(os.path.join(d, "Contents"), exist_ok=True)
    with open(os.path.join(d, "config.yml"), "w") as f:
        f.write('book:\n    title: "%s"\n%s' % (name, extra_book))
        f.write("    contents:\n")
        f.write("        - { element: chapter, number: 1, content: ch1.md }\n")
        eds = EDITIONS
        if options:
            eds = eds.replace(" }\n", ", %s }\n" % options)
        f.write(eds)
    with open(os.path.join(d, "Contents", "ch1.md"), "w") as f:
        f.write(chapter)
    for rel, data in (files or {}).items():
        p = os.path.join(d, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data)


def cjk_text(rng, nbytes):
    """Han, kana and their punctuation, with no space: one 'word' to the
    itemiser, a break between almost every two characters."""
    vocab = ["排版", "文字", "的", "一行", "标点", "禁则", "ちょっと", "テキスト",
             "。", "，", "、", "「行頭」", "（括弧）", "ー", "漢字", "かな"]
    out, n = [], 0
    while n < nbytes:
        w = rng.choice(vocab)
        out.append(w)
        n += len(w.encode())
    return "".join(out)


def words(rng, nbytes):
    vocab = ["lorem", "ipsum", "dolor", "sit", "amet", "consectetur",
             "adipiscing", "elit", "sed", "do", "eiusmod", "tempor",
             "incididunt", "ut", "labore", "et", "dolore", "magna",
             "aliqua.", "Ut", "enim", "ad", "minim", "veniam,"]
    out, n = [], 0
    while n < nbytes:
        w = rng.choice(vocab)
        out.append(w)
        n += len(w) + 1
    return " ".join(out)


def png(width, height):
    def chunk(kind, data):
        c = struct.pack(">I", len(data)) + kind + data
        return c + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    z = zlib.compressobj(9)
    row = b"\0" + b"\x80" * width  # filter 0, mid grey
    body = b"".join(z.compress(row) for _ in range(height)) + z.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) +
            chunk(b"IDAT", body) + chunk(b"IEND", b""))


def make(root, name):
    rng = random.Random(13)
    if name == "footnotes":
        ch = "# Notes\n\n" + "".join(
            "Paragraph %d with a note.[^n%d]\n\n" % (i, i) for i in range(20000))
        ch += "".join("[^n%d]: Note %d.\n" % (i, i) for i in range(20000))
        book(root, name, ch)
    elif name == "footnotes-para":
        ch = "# Notes\n\n" + " ".join(
            "word[^n%d]" % i for i in range(20000)) + "\n\n"
        ch += "".join("[^n%d]: Note %d.\n" % (i, i) for i in range(20000))
        book(root, name, ch)
    elif name == "headings":
        ch = "# Headings\n\n" + "".join(
            "## Heading %d\n\nText %d.\n\n" % (i, i) for i in range(100000))
        book(root, name, ch)
    elif name in ("png", "png-400"):
        book(root, name, "# Image\n\n![A huge image](images/huge.png)\n",
             files={"Contents/images/huge.png": png(20000, 20000)},
             options="image_max_megapixels: 400" if name == "png-400" else "")
    elif name == "paragraph":
        book(root, name, "# Long\n\n" + words(rng, 50 << 20) + "\n")
    elif name == "paragraph10":
        book(root, name, "# Long\n\n" + words(rng, 10 << 20) + "\n")
    elif name == "paragraph-cjk":
        book(root, name, "# Long\n\n" + cjk_text(rng, 10 << 20) + "\n",
             extra_book="    language: zh\n")
    elif name == "css":
        rules = []
        n = 0
        i = 0
        while n < 50 << 20:
            r = ".c%d p.x%d > em { color: #%06x; margin: %dpt 0 0 0; }\n" % (
                i, i, i & 0xffffff, i % 20)
            rules.append(r)
            n += len(r)
            i += 1
        book(root, name, "# Styled\n\nSome text.\n",
             files={"Resources/Templates/style.css": "".join(rules).encode()})
    elif name == "map":
        extra = "    extra:\n" + "".join(
            "        key%d: value %d\n" % (i, i) for i in range(80000))
        book(root, name, "# Map\n\nText.\n", extra_book=extra)
    elif name == "lists":
        ch = "# Deep\n\n" + "- " * 10000 + "deep\n"
        book(root, name, ch)
    elif name == "links":
        book(root, name, "# Links\n\n" + "a *b* [x](u) " * 50000 + "\n")
    elif name == "links-prose":
        unit = ("There was *their* protégé evening, said [the guide]"
                "(https://example.org/guide); some **files** removed "
                "another `late` coffee.[^1] ")
        text = unit * ((10 << 20) // len(unit))
        book(root, name, "# Prose\n\n" + text + "\n\n[^1]: A note.\n")
    elif name == "deep-emphasis":
        book(root, name, "# Deep\n\n" + "*" * 50000 + "word" + "*" * 50000 + "\n")
    elif name == "deep-quotes":
        book(root, name, "# Deep\n\n" + "> " * 10000 + "deep\n")
    elif name == "deep-mixed":
        book(root, name, "# Deep\n\n" + "- > " * 5000 + "deep\n")
    elif name == "deep-div":
        book(root, name, "# Deep\n\n" + "<div>" * 100000 + "deep" +
             "</div>" * 100000 + "\n")
    elif name == "deep-span":
        book(root, name, "# Deep\n\nText " + "<span>" * 100000 + "deep" +
             "</span>" * 100000 + "\n")
    elif name == "deep-tables":
        book(root, name, "# Deep\n\n" + "<table><tr><td>" * 10000 + "deep" +
             "</td></tr></table>" * 10000 + "\n")
    elif name == "deep-links":
        book(root, name, "# Deep\n\n" + "[" * 100000 + "x" + "](u)" * 100000
             + "\n")
    elif name == "deep-a":
        book(root, name, "# Deep\n\nText " + '<a href="https://example.org/">' * 10000 + "deep"
             + "</a>" * 10000 + "\n")
    elif name == "image-alt":
        deep = 100000
        book(root, name, "# Alt\n\n" + "![" * deep + "x" +
             "](images/i.png)" * deep + "\n",
             files={"Contents/images/i.png": png(1, 1)})
    elif name == "footnote-refs":
        para = " ".join("word[^1]" for _ in range(100)) + "\n\n"
        book(root, name, "# Refs\n\n" + para * 10000 + "[^1]: The note.\n")
    elif name == "table-delims":
        book(root, name, "# Rows\n\nx\n" + "a | b\n-|-|-\n" * 20000)
    else:
        sys.exit("make-books.py: unknown book '%s'" % name)


NAMES = ["footnotes", "footnotes-para", "headings", "png", "png-400", "paragraph",
         "paragraph10", "paragraph-cjk", "css", "map", "lists", "links", "links-prose",
         "image-alt", "footnote-refs", "table-delims"]
NAMES += ["deep-emphasis", "deep-quotes", "deep-mixed", "deep-div", "deep-span",
          "deep-tables", "deep-links", "deep-a"]

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for n in sys.argv[2:] or NAMES:
        make(sys.argv[1], n)
