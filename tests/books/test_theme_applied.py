#!/usr/bin/env python3
"""Checks that an edition's `theme:` really changes what is published:
the user guide, published with the default theme (clean) and with
another bundled theme in temporary copies, gives style sheets of that
theme in every HTML and EPUB edition, and PDFs set in other fonts.

usage: test_theme_applied.py PUBLISH SOURCE_DIR THEME FONT...

FONT: a font (its PostScript name, as pdffonts lists it without the
subset prefix) that every PDF of THEME must embed and clean's must not.

Exit status: 0 good, 1 problems, 77 when pdffonts is missing.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import themed  # noqa: E402

SKIP = 77


def fonts(pdf):
    """The fonts a PDF embeds, without the subset prefix."""
    out = subprocess.run(["pdffonts", pdf], capture_output=True, text=True,
                         check=True).stdout.splitlines()[2:]
    return {re.sub(r"^[A-Z]{6}\+", "", ln.split()[0]).split(",")[0]
            for ln in out if ln.strip()}


def sheets(out, edition):
    """The first line of the theme's style sheet in an edition's output."""
    d = os.path.join(out, edition)
    epub = os.path.join(d, "book.epub")
    if os.path.exists(epub):
        with zipfile.ZipFile(epub) as z:
            return z.read("OEBPS/css/easybook.css").decode().split("\n")[0]
    for css in (os.path.join(d, "css/easybook.css"),
                os.path.join(d, "book/css/easybook.css")):
        if os.path.exists(css):
            with open(css, encoding="utf-8") as f:
                return f.readline().rstrip("\n")
    return None


def main(argv):
    if len(argv) < 5:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    publish, source, theme = (os.path.abspath(argv[1]),
                              os.path.abspath(argv[2]), argv[3])
    want_fonts = set(argv[4:])
    if not shutil.which("pdffonts"):
        print("SKIPPED: pdffonts is missing (apt-get install poppler-utils)")
        return SKIP
    problems = []
    with tempfile.TemporaryDirectory(prefix="octavo-theme-") as tmp:
        books = {}
        for name in ("clean", theme):
            book = os.path.join(tmp, name)
            shutil.copytree(os.path.join(source, "docs/guide"), book,
                            ignore=shutil.ignore_patterns("Output"))
            if name != "clean":
                themed.use_theme(book, name)
            p = subprocess.run([publish, book, "--strict"],
                               capture_output=True, text=True, timeout=300)
            if p.returncode != 0:
                problems.append(f"{name}: publish exited {p.returncode}: "
                                f"{p.stderr.strip()[-500:]}")
                continue
            books[name] = os.path.join(book, "Output")
        if len(books) == 2:
            out = books[theme]
            for ed in sorted(os.listdir(out)):
                pdf = os.path.join(out, ed, "book.pdf")
                if os.path.exists(pdf):
                    mine = fonts(pdf)
                    clean = fonts(os.path.join(books["clean"], ed, "book.pdf"))
                    print(f"{ed}: {theme} {sorted(mine)}; clean "
                          f"{sorted(clean)}")
                    if mine == clean:
                        problems.append(f"{ed}: the same fonts as clean's")
                    if want_fonts - mine:
                        problems.append(f"{ed}: {sorted(want_fonts - mine)} "
                                        "not embedded")
                    if want_fonts & clean:
                        problems.append(f"{ed}: clean's PDF embeds "
                                        f"{sorted(want_fonts & clean)} too")
                    continue
                head = sheets(out, ed)
                print(f"{ed}: {head}")
                if not head or f'theme "{theme}"' not in head:
                    problems.append(f"{ed}: the style sheet is not {theme}'s:"
                                    f" {head!r}")
    for pr in problems:
        print("FAIL " + pr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
