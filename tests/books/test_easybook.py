#!/usr/bin/env python3
"""A book written the Easybook way, in the formats its goldens do not
cover: the EPUB and the PDF of tests/books/golden/easybook-compat.

usage: test_easybook.py PUBLISH BOOK_DIR

The book names some images as Easybook did, relative to Contents/images/
(`![...](diagrams/flow.png)`, raw `<img src="photos/2019/beach.png">`),
others in Octavo's way (`images/diagrams/flow.png`), and marks a terminal
session `[cli]`. Its web editions are goldens (books_golden); here, on a
copy, its `ebook` and `print` editions are published and checked: no
warning; every image of the chapter in the EPUB (its files, the <img> of
the chapter's document) and in the PDF (pdfimages -list: four placed
images); EPUBCheck passes; the `[cli]` session is a console block, its
text in the PDF.
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


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    publish, src = os.path.abspath(sys.argv[1]), sys.argv[2]
    jar = os.environ.get("EPUBCHECK_JAR", "/usr/share/java/epubcheck.jar")
    with tempfile.TemporaryDirectory() as tmp:
        book = os.path.join(tmp, "book")
        shutil.copytree(src, book)
        r = subprocess.run([publish, book, "ebook", "print"],
                           capture_output=True, timeout=300)
        err = r.stderr.decode()
        if r.returncode != 0 or "warning:" in err or "note:" in err:
            fail("publish: exit %d: %s" % (r.returncode, err))
            return 1
        epub = os.path.join(book, "Output/ebook/book.epub")
        with zipfile.ZipFile(epub) as z:
            names = z.namelist()
            for img in ("OEBPS/images/diagrams/flow.png",
                        "OEBPS/images/photos/2019/beach.png"):
                if img not in names:
                    fail("ebook: %s missing: %s" % (img, names))
            docs = "\n".join(z.read(n).decode() for n in names
                             if n.endswith(".xhtml"))
        srcs = re.findall(r'<img [^>]*src="([^"]*)"', docs)
        want = ["images/diagrams/flow.png", "images/photos/2019/beach.png",
                "images/diagrams/flow.png", "images/photos/2019/beach.png"]
        if sorted(srcs) != sorted(want):
            fail("ebook: the <img> are %s, want %s" % (srcs, want))
        if 'class="hl-prompt"' not in docs:
            fail("ebook: the [cli] session is not a console block")
        r = subprocess.run(["java", "-jar", jar, epub], capture_output=True,
                           timeout=300)
        if r.returncode != 0:
            fail("ebook: EPUBCheck: %s" % (r.stdout + r.stderr).decode())
        pdf = os.path.join(book, "Output/print/book.pdf")
        listing = subprocess.run(["pdfimages", "-list", pdf],
                                 capture_output=True).stdout.decode()
        placed = [ln for ln in listing.splitlines()[2:] if ln.strip()]
        if len(placed) != 4:
            fail("print: %d images placed, want 4:\n%s" % (len(placed), listing))
        text = subprocess.run(["pdftotext", pdf, "-"],
                              capture_output=True).stdout.decode()
        if "$ book publish the-origin-of-species print" not in text:
            fail("print: the [cli] session's command is not in the text")
    print("books_easybook: %s" % ("%d problems" % len(failures) if failures
                                  else "all checks passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
