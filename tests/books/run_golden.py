#!/usr/bin/env python3
"""Publishes the golden books and compares their output byte for byte.

usage: run_golden.py PUBLISH GOLDEN_DIR [--update] [BOOK...]

A golden book is GOLDEN_DIR/<name>/ with book/ (the book), args (what
follows the book folder on publish's command line, one argument a line;
default: every edition) and expected/ (the whole Output/ tree it must
give). For each book this checks that publish exits 0 without a warning,
that Output/ equals expected/, that publishing again (over the previous
output, under another time zone) and publishing a copy in another folder
give the same bytes, and that no file outside Output/ changed.

--update rewrites expected/ from what publish gives now. Review the diff
as you would review code: the commit that changes a golden file says why
the new output is right.
"""
import difflib
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from machine import book_messages  # noqa: E402

TIMEOUT = 60
MAX_DIFF_LINES = 40


def snapshot(root, skip_output):
    """{relative path: sha256} of every file (and link) under root."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root)
        if skip_output and rel_dir == ".":
            dirnames[:] = [d for d in dirnames if d != "Output"]
        dirnames.sort()
        for fn in sorted(filenames):
            p = os.path.join(dirpath, fn)
            rel = os.path.normpath(os.path.join(rel_dir, fn))
            if os.path.islink(p):
                out[rel] = "link:" + os.readlink(p)
            else:
                with open(p, "rb") as f:
                    out[rel] = hashlib.sha256(f.read()).hexdigest()
        for d in dirnames:
            p = os.path.join(dirpath, d)
            if os.path.islink(p):
                out[os.path.normpath(os.path.join(rel_dir, d))] = \
                    "link:" + os.readlink(p)
    return out


def publish(publish_bin, book, args, env_extra=None):
    env = dict(os.environ)
    env.update(env_extra or {})
    cmd = [publish_bin, book] + args
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=TIMEOUT, env=env,
                           cwd=os.path.dirname(book))
    except subprocess.TimeoutExpired:
        return [f"publish hung (killed after {TIMEOUT} s)"]
    err = book_messages(p.stderr.decode("utf-8", "replace"))
    fails = []
    if p.returncode != 0:
        fails.append(f"publish exited with {p.returncode}" if p.returncode > 0
                     else f"publish was killed by signal {-p.returncode}")
    if re.search(r"\b(error|warning):", err):
        fails.append("a golden book must publish without errors or warnings")
    if fails:
        fails.append("stderr:\n" + err.rstrip())
    return fails


def first_diff(a, b, label):
    """A unified diff of two files' first differing lines."""
    with open(a, "rb") as f:
        da = f.read()
    with open(b, "rb") as f:
        db = f.read()
    try:
        la = da.decode("utf-8").splitlines(keepends=True)
        lb = db.decode("utf-8").splitlines(keepends=True)
    except UnicodeDecodeError:
        return [f"{label}: binary files differ ({len(da)} and {len(db)} bytes)"]
    diff = list(difflib.unified_diff(la, lb, "expected/" + label,
                                     "output/" + label, n=2))
    if not diff:
        return [f"{label}: differs in line endings or trailing bytes"]
    lines = [ln.rstrip("\n") for ln in diff[:MAX_DIFF_LINES]]
    if len(diff) > MAX_DIFF_LINES:
        lines.append(f"... ({len(diff) - MAX_DIFF_LINES} more diff lines)")
    return lines


def compare_trees(expected, actual, what):
    """Failure messages for two trees that differ; the first differing
    file is shown as a unified diff."""
    se = snapshot(expected, False) if os.path.isdir(expected) else {}
    sa = snapshot(actual, False) if os.path.isdir(actual) else {}
    fails = []
    missing = sorted(set(se) - set(sa))
    extra = sorted(set(sa) - set(se))
    changed = sorted(k for k in set(se) & set(sa) if se[k] != sa[k])
    for k in missing:
        fails.append(f"{what}: {k} is missing")
    for k in extra:
        fails.append(f"{what}: {k} is new")
    for k in changed:
        fails.append(f"{what}: {k} differs")
    if changed:
        fails += ["    " + ln for ln in
                  first_diff(os.path.join(expected, changed[0]),
                             os.path.join(actual, changed[0]), changed[0])]
    return fails


def read_args(golden_book):
    p = os.path.join(golden_book, "args")
    if not os.path.exists(p):
        return []
    with open(p, encoding="utf-8") as f:
        return [ln.rstrip("\n") for ln in f if ln.strip()]


def check_book(publish_bin, golden_book, tmp, update):
    name = os.path.basename(golden_book)
    args = read_args(golden_book)
    src = os.path.join(golden_book, "book")
    expected = os.path.join(golden_book, "expected")
    if os.path.isdir(os.path.join(src, "Output")):
        return [f"{src}/Output exists: golden books are committed without it"]
    # Copy A: publish twice in place (the second time over the first output,
    # in another time zone and locale).
    a = os.path.join(tmp, name, "a", "book")
    shutil.copytree(src, a, symlinks=True)
    before = snapshot(a, True)
    fails = publish(publish_bin, a, args, {"TZ": "UTC"})
    if fails:
        return fails
    out_a = os.path.join(a, "Output")
    if update:
        if os.path.isdir(expected):
            shutil.rmtree(expected)
        shutil.copytree(out_a, expected, symlinks=True)
        print(f"updated {os.path.relpath(expected)}")
    fails += compare_trees(expected, out_a, "golden output")
    after = snapshot(a, True)
    for k in sorted(set(before) | set(after)):
        if before.get(k) != after.get(k):
            fails.append(f"publish changed {k}, outside Output/")
    first = os.path.join(tmp, name, "first-output")
    shutil.copytree(out_a, first, symlinks=True)
    fails += publish(publish_bin, a, args,
                     {"TZ": "Pacific/Kiritimati", "LC_ALL": "C",
                      "LANG": "de_DE.UTF-8"})
    fails += compare_trees(first, out_a, "publishing again")
    # Copy B: a folder of another name and depth.
    b = os.path.join(tmp, name, "b", "a longer folder name", "Book Copy")
    shutil.copytree(src, b, symlinks=True)
    fails += publish(publish_bin, b, args, {"TZ": "America/Los_Angeles"})
    fails += compare_trees(first, os.path.join(b, "Output"),
                           "publishing a copy in another folder")
    return fails


def main(argv):
    args = [a for a in argv[1:] if a != "--update"]
    update = "--update" in argv
    if len(args) < 2:
        print("usage: run_golden.py PUBLISH GOLDEN_DIR [--update] [BOOK...]",
              file=sys.stderr)
        return 2
    publish_bin = os.path.abspath(args[0])
    golden_dir = args[1]
    if not os.access(publish_bin, os.X_OK):
        print(f"run_golden: {publish_bin} is not an executable", file=sys.stderr)
        return 2
    names = args[2:] or sorted(
        n for n in os.listdir(golden_dir)
        if os.path.isdir(os.path.join(golden_dir, n, "book")))
    failed = []
    with tempfile.TemporaryDirectory(prefix="octavo-golden-") as tmp:
        for name in names:
            fails = check_book(publish_bin, os.path.join(golden_dir, name), tmp,
                               update)
            if fails:
                failed.append(name)
                print(f"FAIL {name}")
                for f in fails:
                    print("    " + f.replace("\n", "\n    "))
            else:
                print(f"ok   {name}")
    print(f"\nbooks_golden: {len(names) - len(failed)} passed, "
          f"{len(failed)} failed")
    if failed and not update:
        print("If the new output is right, rewrite the expected files with\n"
              f"  {sys.argv[0]} {args[0]} {golden_dir} --update "
              + " ".join(failed) + "\nand review the diff.")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
