#!/usr/bin/env python3
"""A book full of author mistakes (mistakes/README.md): every edition
published with one warning per mistake, and valid.

  test_mistakes.py PUBLISH SOURCE_DIR
"""
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from machine import book_messages  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# Words a mistake used to lose, which every edition's text must hold.
MUST_SHOW = ["<your-project-dir>", "More text after the comment",
             "The second chapter, still here", "a list forty deep",
             "a quote forty deep", "A missing image", "missing too",
             "dead link", "The end of chapter two", "a dead heading link",
             "the hosts file", "styled word", "file link",
             "a file image in Markdown",
             "A paragraph after the open span",
             "an item after the open emphasis", "a bold link never closed",
             "the list after it"]


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600,
                          **kw)


def text_of_html(path):
    import html
    import re
    with open(path, encoding="utf-8") as f:
        s = f.read()
    s = re.sub(r"<[^>]*>", "", s)
    return " ".join(html.unescape(s).split())


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    publish, source = os.path.abspath(sys.argv[1]), sys.argv[2]
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        book = os.path.join(tmp, "book")
        shutil.copytree(os.path.join(HERE, "mistakes", "book"), book)
        p = run([publish, book])
        with open(os.path.join(HERE, "mistakes", "expected-warnings"),
                  encoding="utf-8") as f:
            want = sorted(l for l in f.read().splitlines() if l)
        got = sorted(l for l in book_messages(p.stderr).splitlines()
                     if ": warning: " in l or ": error: " in l)
        if p.returncode != 0:
            failed.append(f"publish exited with {p.returncode}")
        if got != want:
            failed.append("the warnings differ from expected-warnings:\n" +
                          "\n".join(f"  - {l}" for l in want if l not in got) +
                          "\n" +
                          "\n".join(f"  + {l}" for l in got if l not in want))
        out = os.path.join(book, "Output")
        # the words, in every edition
        texts = {"web": text_of_html(os.path.join(out, "web", "book.html"))}
        site = os.path.join(out, "website", "book")
        texts["website"] = " ".join(
            text_of_html(os.path.join(site, n)) for n in sorted(os.listdir(site))
            if n.endswith(".html"))
        with zipfile.ZipFile(os.path.join(out, "ebook", "book.epub")) as z:
            pages = [n for n in z.namelist() if n.endswith(".xhtml")]
            xt = os.path.join(tmp, "epub")
            z.extractall(xt)
        texts["ebook"] = " ".join(text_of_html(os.path.join(xt, n))
                                  for n in sorted(pages))
        pdf = os.path.join(out, "print", "book.pdf")
        t = run(["pdftotext", "-enc", "UTF-8", pdf, "-"])
        texts["print"] = " ".join(t.stdout.split())
        for ed, text in texts.items():
            for w in MUST_SHOW:
                if w not in text:
                    failed.append(f"{ed}: '{w}' is not in the text")
        # validity
        q = run(["qpdf", "--check", pdf])
        if q.returncode != 0:
            failed.append(f"qpdf --check: {q.stdout[-400:]}")
        jar = os.environ.get("EPUBCHECK_JAR", "/usr/share/java/epubcheck.jar")
        if shutil.which("java") and os.path.isfile(jar):
            e = run(["java", "-jar", jar, os.path.join(out, "ebook",
                                                        "book.epub")])
            if e.returncode != 0 or "0 fatals / 0 errors / 0 warnings" \
                    not in e.stdout + e.stderr:
                failed.append("epubcheck:\n" + e.stdout + e.stderr)
        else:
            failed.append("EPUBCheck cannot run: java (default-jre-headless) "
                          f"or {jar} (epubcheck) is missing "
                          "(scripts/install-deps.sh --test)")
        h = run([sys.executable, os.path.join(HERE, "check_html.py"),
                 os.path.join(out, "web"), os.path.join(out, "website")],
                env=dict(os.environ, OCTAVO_SOURCE_DIR=source))
        if h.returncode != 0:
            failed.append("check_html.py:\n" + h.stdout + h.stderr)
        # --strict: every warning an error, nothing replaced
        marker = os.path.join(out, "web", "marker.txt")
        with open(marker, "w") as f:
            f.write("kept")
        s = run([publish, book, "web", "--strict"])
        errors = [l for l in s.stderr.splitlines() if ": error: " in l]
        if s.returncode != 1:
            failed.append(f"--strict exited with {s.returncode}")
        if len(errors) != len([w for w in want if "Contents/" in w]):
            failed.append("--strict: not one error per mistake:\n" + s.stderr)
        if not os.path.exists(marker):
            failed.append("--strict replaced Output/web/")
    for f in failed:
        print("FAIL " + f)
    print(f"books_mistakes: {'failed' if failed else 'ok'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
