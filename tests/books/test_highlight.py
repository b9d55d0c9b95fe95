#!/usr/bin/env python3
"""Highlighted code in the formats the golden test does not read: the
golden book `code` (a snippet in each of 33 languages) published to EPUB
and PDF as well as HTML, with both bundled themes.

usage: test_highlight.py PUBLISH BOOK_DIR

Checks:
  - publish says one note, at the fence of the language without a grammar
    (systems.md:119), and nothing else;
  - the EPUB passes EPUBCheck, its chapters hold the same hl-* spans as
    the web edition, and its style sheet styles them;
  - the PDF passes qpdf --check; pdftotext gives every line of every
    snippet; keywords are set in DejaVu Sans Mono Bold and comments in its
    Oblique (pdffonts); the print sheet's colours for the classes are in
    the page streams, and each reads in grey: 4.5:1 or more against the
    code's background once turned to grey, with keywords and comments
    told apart by weight and slant as well as by colour;
  - an edition with highlight_code: false has no hl-* span;
  - publishing twice gives the same bytes.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

EDITIONS = ('{"book": {"editions": {"ebook": {"format": "epub"},'
            ' "print": {"format": "pdf", "page_size": "A5"}}}}')
EPUBCHECK = os.environ.get("EPUBCHECK_JAR", "/usr/share/java/epubcheck.jar")

problems = []


def fail(msg):
    problems.append(msg)
    print("FAIL " + msg)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def snippets(book):
    """(lang, code) of each fenced block of the book's chapters."""
    out = []
    for name in sorted(os.listdir(os.path.join(book, "Contents"))):
        if not name.endswith(".md"):
            continue
        text = open(os.path.join(book, "Contents", name), encoding="utf-8").read()
        for m in re.finditer(r"^```(\S+)\n(.*?)^```$", text, re.M | re.S):
            out.append((m.group(1), m.group(2)))
    return out


def luminance(hexcolour):
    h = hexcolour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    rgb = [int(h[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
           for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a, b):
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def check_pdf(out, theme, book):
    pdf = os.path.join(out, "print", "book.pdf")
    r = run(["qpdf", "--check", pdf])
    if r.returncode != 0:
        fail(f"{theme}: qpdf --check: {r.stdout[-300:]}")
    # a long line wraps, its continuation marked with ↪: compared without
    # spaces and marks
    text = run(["pdftotext", "-layout", pdf, "-"]).stdout
    flat = re.sub(r"[\s↪]+", "", text)
    missing = 0
    for lang, code in snippets(book):
        for line in code.splitlines():
            words = re.sub(r"\s+", "", line)
            if words and words not in flat:
                missing += 1
                if missing <= 5:
                    fail(f"{theme}: pdf: a line of the {lang} snippet is "
                         f"missing: {words!r}")
    fonts = run(["pdffonts", pdf]).stdout
    for face in ("DejaVuSansMono-Bold", "DejaVuSansMono-Oblique"):
        if face not in fonts:
            fail(f"{theme}: pdf: {face} is not used: keywords are bold and "
                 "comments oblique")
    # the print sheet as the engine read it
    css = open(os.path.join(out, "print", "theme.css"), encoding="utf-8").read()
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    bg = re.search(r"\npre \{[^}]*background-color: (#[0-9a-fA-F]{3,6})", css)
    bg = bg.group(1) if bg else "#ffffff"
    colours = {}
    for selectors, body in re.findall(r"([^{}]+)\{([^}]*)\}", css):
        for sel in selectors.split(","):
            m = re.fullmatch(r"\s*\.(hl-[a-z]+)\s*", sel)
            if not m:
                continue
            cls = m.group(1)
            c = re.search(r"(?<!-)color: (#[0-9a-fA-F]{6})", body)
            if c:
                colours.setdefault(cls, c.group(1))
            if cls == "hl-kwa" and "font-weight: bold" not in body:
                fail(f"{theme}: pdf: keywords are not bold")
            if cls == "hl-com" and "font-style: italic" not in body:
                fail(f"{theme}: pdf: comments are not italic")
    for cls in ("hl-kwa", "hl-kwb", "hl-str", "hl-num", "hl-com", "hl-opt"):
        if cls not in colours:
            fail(f"{theme}: pdf: no colour for .{cls}")
            continue
        c = colours[cls]
        grey = round(255 * luminance(c) ** (1 / 2.2))
        g = "#%02x%02x%02x" % (grey, grey, grey)
        if contrast(g, bg) < 4.5:
            fail(f"{theme}: pdf: .{cls} {c} reads {g} in grey: "
                 f"{contrast(g, bg):.1f}:1 on {bg}")
    # the colours reach the page streams (qpdf writes them uncompressed)
    qdf = os.path.join(out, "qdf.pdf")
    run(["qpdf", "--qdf", "--object-streams=disable", pdf, qdf])
    streams = open(qdf, "rb").read().decode("latin-1")
    for cls in ("hl-kwb", "hl-str", "hl-num"):
        if cls not in colours:
            continue
        h = colours[cls].lstrip("#")
        rgb = [int(h[i:i + 2], 16) / 255 for i in (0, 2, 4)]
        found = False
        for m in re.finditer(r"([\d.]+) ([\d.]+) ([\d.]+) rg", streams):
            got = [float(x) for x in m.groups()]
            if all(abs(a - b) < 0.01 for a, b in zip(got, rgb)):
                found = True
                break
        if not found:
            fail(f"{theme}: pdf: the colour of .{cls} ({colours[cls]}) is "
                 "on no page")


def spans(html):
    return re.findall(r'<span class="(hl-[a-z -]+)">', html)


def check_epub(out, theme):
    epub = os.path.join(out, "ebook", "book.epub")
    r = run(["java", "-jar", EPUBCHECK, epub])
    if r.returncode != 0 or "0 errors / 0 warnings" not in r.stdout:
        fail(f"{theme}: EPUBCheck: {(r.stdout + r.stderr)[-500:]}")
    web = open(os.path.join(out, "web", "book.html"), encoding="utf-8").read()
    with zipfile.ZipFile(epub) as z:
        pages = [z.read(n).decode("utf-8") for n in sorted(z.namelist())
                 if n.endswith(".xhtml") and "chapter" in n]
        css = "".join(z.read(n).decode("utf-8") for n in z.namelist()
                      if n.endswith(".css"))
    got = sum(len(spans(p)) for p in pages)
    want = len(spans(web))
    if got != want or want < 300:
        fail(f"{theme}: epub has {got} hl-* spans, the web edition {want}")
    for cls in ("hl-kwa", "hl-str", "hl-com", "hl-add", "hl-prompt"):
        if "." + cls not in css:
            fail(f"{theme}: epub: its style sheet does not style .{cls}")


def publish(publish_bin, book, theme):
    conf = EDITIONS
    if theme != "clean":
        conf = ('{"book": {"editions": {"ebook": {"format": "epub", "theme": "%s"},'
                ' "print": {"format": "pdf", "page_size": "A5", "theme": "%s"},'
                ' "web": {"theme": "%s"}, "plain": {"theme": "%s"}}}}'
                % (theme, theme, theme, theme))
    return run([publish_bin, book, "web", "plain", "ebook", "print",
                "--configuration", conf, "--xhtml"])


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    publish_bin, source = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    tmp = tempfile.mkdtemp(prefix="octavo-highlight-")
    try:
        for theme in ("clean", "tech"):
            book = os.path.join(tmp, theme)
            shutil.copytree(source, book)
            r = publish(publish_bin, book, theme)
            if r.returncode != 0:
                fail(f"{theme}: publish failed: {r.stderr}")
                continue
            said = [ln for ln in r.stderr.splitlines()
                    if "published" not in ln]
            want = ("Contents/systems.md:119: note: code in 'klingon' is set "
                    "plain: no grammar of that name is installed")
            if said != [want]:
                fail(f"{theme}: publish said {said}, not one note at the "
                     "klingon fence")
            out = os.path.join(book, "Output")
            plain = open(os.path.join(out, "plain", "book.html"),
                         encoding="utf-8").read()
            if spans(plain):
                fail(f"{theme}: highlight_code: false still highlights")
            check_epub(out, theme)
            check_pdf(out, theme, book)
            # reproducible
            first = {}
            for rel in ("ebook/book.epub", "print/book.pdf", "web/book.html"):
                first[rel] = open(os.path.join(out, rel), "rb").read()
            publish(publish_bin, book, theme)
            for rel, data in first.items():
                if open(os.path.join(out, rel), "rb").read() != data:
                    fail(f"{theme}: {rel} differs when published again")
    finally:
        shutil.rmtree(tmp)
    print("books_highlight: %s" % ("ok" if not problems else
                                   "%d problems" % len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
