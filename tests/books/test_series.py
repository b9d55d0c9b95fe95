#!/usr/bin/env python3
"""Content per edition and a series of books sharing a configuration.

usage: test_series.py PUBLISH

Writes, in a temporary folder, a series: series/config.yml (the editions
web, website, ebook and print, shared) and series/lesson/config.yml, which
imports ".." and adds its contents, with items kept to some editions
(`editions: [ebook]`, `formats: [pdf]`, `editions: [not-print]`) and its
own page size over the series'. Checked, publishing confined as always:

- every edition holds the items its filters keep and none other: the
  web page's headings, the website's pages and its search index, the
  EPUB's documents and navigation, the PDF's text and its TOC;
- a link to an item left out of an edition is one located warning for
  that edition, printed as plain text there, and a link there where the
  item is kept;
- the book's own values win over the imported ones (A4 over the series'
  A5), and an imported edition's option reaches the edition;
- mistakes are located errors and publish nothing: an unknown edition
  or format in a filter (with "did you mean", keeping `not-`), an import
  of a missing folder, a cycle of imports, a YAML error in the imported
  file (named ../config.yml), an edition that filters leave empty.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL " + msg)


SERIES = """book:
    language: en
    editions:
        web:
            format: html
        website:
            format: html_chunked
        ebook:
            format: epub
        print:
            format: pdf
            page_size: A5
            toc: { deep: 1 }
"""

LESSON = """import: [".."]
book:
    title: "Lesson One"
    author: "Ada Series"
    contents:
        - { element: toc }
        - { element: chapter, number: 1, content: start.md }
        - { element: chapter, number: 2, content: ebook.md, editions: [ebook] }
        - { element: chapter, number: 3, content: paper.md, formats: [pdf] }
        - { element: appendix, number: A, content: screen.md, editions: [not-print] }
    editions:
        print:
            page_size: A4
"""

FILES = {
    "start.md": "# Starting out\n\nSee [the reader's part](#readers-part) "
                "and [the paper](#on-paper).\n",
    "ebook.md": "# For readers {#readers-part}\n\nZanzibarish words only in "
                "the e-book.\n",
    "paper.md": "# On paper\n\nQuetzalcoatlish words only in print.\n",
    "screen.md": "# On screens\n\nXylophonic words everywhere but in print.\n",
}

# What each edition must hold (True) or not (False).
KEEP = {
    "web": {"Zanzibarish": False, "Quetzalcoatlish": False, "Xylophonic": True},
    "website": {"Zanzibarish": False, "Quetzalcoatlish": False, "Xylophonic": True},
    "ebook": {"Zanzibarish": True, "Quetzalcoatlish": False, "Xylophonic": True},
    "print": {"Zanzibarish": False, "Quetzalcoatlish": True, "Xylophonic": False},
}


def make(root, lesson=LESSON, series=SERIES):
    if os.path.exists(root):
        shutil.rmtree(root)
    os.makedirs(os.path.join(root, "lesson", "Contents"))
    with open(os.path.join(root, "config.yml"), "w") as f:
        f.write(series)
    with open(os.path.join(root, "lesson", "config.yml"), "w") as f:
        f.write(lesson)
    for name, text in FILES.items():
        with open(os.path.join(root, "lesson", "Contents", name), "w") as f:
            f.write(text)
    return os.path.join(root, "lesson")


def publish(exe, book, *args):
    r = subprocess.run([exe, book] + list(args), capture_output=True,
                       timeout=300)
    return r.returncode, r.stderr.decode()


def text_of(book, edition):
    out = os.path.join(book, "Output", edition)
    if not os.path.isdir(out):
        fail("%s: not published" % edition)
        return ""
    if edition == "print":
        return subprocess.run(["pdftotext", os.path.join(out, "book.pdf"), "-"],
                              capture_output=True).stdout.decode()
    if edition == "ebook":
        with zipfile.ZipFile(os.path.join(out, "book.epub")) as z:
            return "\n".join(z.read(n).decode() for n in z.namelist()
                             if n.endswith((".xhtml", ".opf", ".ncx")))
    parts = []
    for dirpath, _, names in os.walk(out):
        for n in sorted(names):
            if n.endswith((".html", ".js")):
                with open(os.path.join(dirpath, n), encoding="utf-8") as f:
                    parts.append(f.read())
    return "\n".join(parts)


def check_published(exe, tmp):
    book = make(os.path.join(tmp, "ok"))
    rc, err = publish(exe, book)
    if rc != 0:
        fail("publish exited %d: %s" % (rc, err))
        return
    for edition, keep in KEEP.items():
        text = text_of(book, edition)
        for word, want in keep.items():
            if (word in text) != want:
                fail("%s: '%s' %s" % (edition, word, "missing" if want else
                                      "published, though its item is left out"))
    # the search index of the website knows only what it publishes
    with open(os.path.join(book, "Output/website/book/search-index.js")) as f:
        idx = f.read()
    if "quetzalcoatl" in idx.lower() or "zanzibar" in idx.lower():
        fail("website: the search index holds a left-out item's words")
    if "xylophon" not in idx.lower():  # its stem
        fail("website: the search index lacks a kept item's words")
    pages = sorted(os.listdir(os.path.join(book, "Output/website/book")))
    if any(p.startswith(("chapter-2", "chapter-3")) for p in pages):
        fail("website: a page for a left-out item: %s" % pages)
    # the print TOC lists chapter 3 and no appendix
    pdf = text_of(book, "print")
    if not re.search(r"Chapter 3 On paper", pdf) or "Appendix" in pdf:
        fail("print: the TOC does not follow the filters: %s" % pdf[:300])
    # the book's page size over the series'
    info = subprocess.run(["pdfinfo", os.path.join(book, "Output/print/book.pdf")],
                          capture_output=True).stdout.decode()
    if "595.28 x 841.89" not in info and "595.276 x 841.89" not in info:
        fail("print: not A4 (the book's own page_size over the series' A5): %s"
             % re.findall(r"Page size:.*", info))
    # links into left-out items: one warning per edition where it is left out
    want = [("web", "readers-part"), ("web", "on-paper"),
            ("website", "readers-part"), ("website", "on-paper"),
            ("ebook", "on-paper"), ("print", "readers-part")]
    for edition, target in want:
        msg = ("Contents/start.md:3:%d: warning: link to '#%s', which is in an "
               "item that 'editions' or 'formats' leave out of edition '%s'; "
               "it is printed as plain text there") % (
                   5 if target == "readers-part" else 44, target, edition)
        if err.count(msg) != 1:
            fail("want once: %s\nin: %s" % (msg, err))
    if err.count("warning:") != len(want):
        fail("%d warnings, want %d: %s" % (err.count("warning:"), len(want), err))
    web = text_of(book, "web")
    if 'href="#readers-part"' in web:
        fail("web: the link to a left-out item is still a link")
    if 'href="chapter-2.xhtml#readers-part"' not in text_of(book, "ebook") and \
            '#readers-part"' not in text_of(book, "ebook"):
        fail("ebook: the link to its own e-book chapter is gone")


ERRORS = [
    ("unknown edition",
     LESSON.replace("editions: [ebook]", "editions: [ebok]"), SERIES,
     r"(?m)^config\.yml:8:\d+: error: unknown edition 'ebok' in 'editions' "
     r"\(did you mean 'ebook'\?\)$"),
    ("unknown format",
     LESSON.replace("formats: [pdf]", "formats: [not-pfd]"), SERIES,
     r"(?m)^config\.yml:9:\d+: error: unknown format 'pfd' in 'formats' "
     r"\(did you mean 'not-pdf'\?\)$"),
    ("missing folder",
     LESSON.replace('import: [".."]', 'import: ["..", "../nope"]'), SERIES,
     r"(?m)^config\.yml:1:\d+: error: cannot import '\.\./nope': no such folder$"),
    ("cycle", LESSON, SERIES + 'import: ["lesson"]\n',
     r"(?m)^\.\./config\.yml:14:\d+: error: importing 'lesson' makes a cycle"),
    ("yaml error in the import", LESSON,
     SERIES.replace("format: html_chunked", "format: [html_chunked"),
     r"(?m)^\.\./config\.yml:\d+:\d+: error: "),
    ("no contents left",
     LESSON.replace("- { element: toc }", "- { element: toc, formats: [pdf] }")
           .replace("content: start.md }", "content: start.md, formats: [pdf] }")
           .replace("content: screen.md, editions: [not-print]",
                    "content: screen.md, editions: [print]"),
     SERIES, r"(?m)^config\.yml:\d+:\d+: error: edition 'web' has no contents"),
]


def check_errors(exe, tmp):
    for i, (name, lesson, series, want) in enumerate(ERRORS):
        book = make(os.path.join(tmp, "err%d" % i), lesson, series)
        rc, err = publish(exe, book, "web")
        if rc != 1 or not re.search(want, err):
            fail("%s: exit %d, want 1 and /%s/ in: %s" % (name, rc, want, err))
        if os.path.exists(os.path.join(book, "Output", "web", "book.html")):
            fail("%s: published anyway" % name)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    exe = os.path.abspath(sys.argv[1])
    for tool in ("pdftotext", "pdfinfo"):
        if not shutil.which(tool):
            print("the command '%s' is missing: install poppler-utils "
                  "(scripts/install-deps.sh --test)" % tool)
            return 1
    with tempfile.TemporaryDirectory() as tmp:
        check_published(exe, tmp)
        check_errors(exe, tmp)
    print("books_series: %s" % ("%d problems" % len(failures) if failures
                                else "all checks passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
