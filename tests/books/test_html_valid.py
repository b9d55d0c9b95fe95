#!/usr/bin/env python3
"""Publishes every golden book and the user guide into temporary copies,
then checks the HTML they give: links (check_html.py) and validity (the Nu
HTML checker).

usage: test_html_valid.py PUBLISH SOURCE_DIR [--theme NAME]

With --theme, only the user guide, published with that bundled theme
(themed.py sets `theme: NAME` on each edition of its copy).

Exit status: 0 good, 1 problems (also when vnu.jar or java is missing:
the test fails, naming what to install).
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_html  # noqa: E402
import themed  # noqa: E402


def read_args(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [ln.rstrip("\n") for ln in f if ln.strip()]


def main(argv):
    argv, theme = themed.pop_theme(argv)
    if len(argv) != 3:
        print("usage: test_html_valid.py PUBLISH SOURCE_DIR [--theme NAME]",
              file=sys.stderr)
        return 2
    publish = os.path.abspath(argv[1])
    source = os.path.abspath(argv[2])
    golden = os.path.join(source, "tests/books/golden")
    books = [] if theme else [
        (n, os.path.join(golden, n, "book"),
         read_args(os.path.join(golden, n, "args")))
        for n in sorted(os.listdir(golden))
        if os.path.isdir(os.path.join(golden, n, "book"))]
    books.append(("guide", os.path.join(source, "docs/guide"),
                  ["web", "website"] + (["--strict"] if theme else [])))
    failed = False
    roots = []
    with tempfile.TemporaryDirectory(prefix="octavo-html-") as tmp:
        for name, src, args in books:
            book = os.path.join(tmp, name)
            shutil.copytree(src, book, symlinks=True,
                            ignore=shutil.ignore_patterns("Output"))
            if theme:
                themed.use_theme(book, theme)
            p = subprocess.run([publish, book] + args, capture_output=True,
                               text=True, timeout=120)
            if p.returncode != 0:
                print(f"FAIL {name}: publish exited with {p.returncode}")
                print("    " + p.stderr.strip().replace("\n", "\n    "))
                failed = True
                continue
            out = os.path.join(book, "Output")
            roots += [os.path.join(out, e) for e in sorted(os.listdir(out))]
        problems, pages, links = check_html.check_links(roots)
        for pr in problems:
            print("link: " + pr.replace(tmp + "/", ""))
        print(f"links: {pages} pages, {links} links, {len(problems)} problems "
              f"in {len(roots)} editions")
        if problems or not pages:
            failed = True
        jar, why = check_html.find_vnu()
        if not jar:
            print(f"FAILED: the Nu HTML checker cannot run: {why}")
            return 1
        vnu = check_html.run_vnu(jar, roots)
        for pr in vnu:
            print(pr.replace(tmp + "/", ""))
        print("vnu: " + ("errors" if vnu else "no error"))
        failed = failed or bool(vnu)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
