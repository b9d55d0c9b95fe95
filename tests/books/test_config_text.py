#!/usr/bin/env python3
"""Values of config.yml are text (config-text/book): a title, an author, an
edition, a chapter's number and an entry's title holding <script>, <b> or
<img onerror>, and a title holding Markdown (a javascript: link, emphasis:
the default title, edition and license pages are Markdown) are printed as
text in every edition and both bundled
themes, never as markup; ids, page and EPUB file names made from them are
sanitised; the EPUB passes EPUBCheck; the PDF's metadata and text hold
the values as written.

  test_config_text.py PUBLISH
"""
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from themed import use_theme  # noqa: E402

# Markup of the book's values, which must never reach a page unescaped
# (the website's own <script src="search…"> aside).
RAW = re.compile(r"<script(?! src=\"(\.\./)?search(-index)?\.js\")|<b>bold|"
                 r"<i>one|<img src=x|href=\"javascript:|<em>e</em>")
ID = re.compile(r"""\sid="([^"]*)"|href="#([^"]*)\"""")
SAFE_ID = re.compile(r"^[A-Za-z0-9._:-]+$")
SAFE_FILE = re.compile(r"^[A-Za-z0-9._/-]+$")
TEXTS = ["Title <script>alert('title')</script> & <b>bold</b> "
         "[x](javascript:alert(1)) *e*",
         "Chapter <script>alert('t')</script> title",
         "Chapter <script>alert('n')</script>"]


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600)


def check_markup(name, text, failed):
    m = RAW.search(text)
    if m:
        at = text[max(0, m.start() - 60):m.end() + 20]
        failed.append(f"{name}: a value's markup printed raw: ...{at}...")
    for m in ID.finditer(text):
        v = m.group(1) if m.group(1) is not None else m.group(2)
        if v and not SAFE_ID.match(v):
            failed.append(f"{name}: id or fragment '{v}' is not made of id "
                          "characters")


def check_files(where, names, failed):
    for n in names:
        if not SAFE_FILE.match(n):
            failed.append(f"{where}: file name '{n}' is not sanitised")


def check_book(publish, book, theme, failed):
    p = run([publish, "-q", book, "web", "website", "ebook", "print",
             "--xhtml"])
    if p.returncode != 0 or p.stderr:
        failed.append(f"{theme}: publish exited {p.returncode}:\n{p.stderr}")
        return
    out = os.path.join(book, "Output")
    for ed, sub in (("web", "web"), ("website", "website/book"),
                    ("print", "print")):
        root = os.path.join(out, sub)
        files = []
        for dirpath, _, filenames in os.walk(root):
            for fn in filenames:
                rel = os.path.relpath(os.path.join(dirpath, fn), root)
                files.append(rel)
                if fn.endswith((".html", ".xhtml", ".js")):
                    with open(os.path.join(root, rel), encoding="utf-8") as f:
                        check_markup(f"{theme} {ed} {rel}", f.read(), failed)
        if ed == "website":
            check_files(f"{theme} website", files, failed)
    epub = os.path.join(out, "ebook", "book.epub")
    with zipfile.ZipFile(epub) as z:
        names = z.namelist()
        check_files(f"{theme} ebook", names, failed)
        for n in names:
            if n.endswith((".xhtml", ".opf", ".ncx")):
                check_markup(f"{theme} ebook {n}", z.read(n).decode(), failed)
    jar = os.environ.get("EPUBCHECK_JAR", "/usr/share/java/epubcheck.jar")
    if not (shutil.which("java") and os.path.isfile(jar)):
        failed.append(f"EPUBCheck cannot run: java or {jar} is missing")
    else:
        e = run(["java", "-jar", jar, epub])
        if e.returncode != 0 or "WARNING" in e.stdout + e.stderr:
            failed.append(f"{theme}: epubcheck:\n{e.stdout}{e.stderr}")
    pdf = os.path.join(out, "print", "book.pdf")
    info = run(["pdfinfo", pdf]).stdout
    if not re.search(r"(?m)^Title: +" + re.escape(TEXTS[0]) + "$", info):
        failed.append(f"{theme}: the PDF's title is not the book's:\n{info}")
    words = " ".join(run(["pdftotext", pdf, "-"]).stdout.split())
    for t in TEXTS:
        if t not in words:
            failed.append(f"{theme}: the PDF does not print '{t}'")
    with open(os.path.join(out, "web", "book.html"), encoding="utf-8") as f:
        page = " ".join(html.unescape(re.sub(r"<[^>]*>", "", f.read())).split())
    for t in TEXTS:
        if t not in page:
            failed.append(f"{theme}: book.html does not print '{t}' as text")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    publish = os.path.abspath(sys.argv[1])
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        for theme in ("clean", "tech"):
            book = os.path.join(tmp, theme)
            shutil.copytree(os.path.join(HERE, "config-text", "book"), book)
            if theme != "clean":
                use_theme(book, theme)
            check_book(publish, book, theme, failed)
    for f in failed:
        print("FAIL:", f)
    print(f"test_config_text: {'failed' if failed else 'passed'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
