#!/usr/bin/env python3
"""Runs publish over the catalogue of broken books (tests/books/errors/).

usage: run_errors.py [-v] PUBLISH ERRORS_DIR [CASE...]

-v prints publish's stderr for every run, to review the messages.
OCTAVO_TEST_WRAPPER (e.g. "valgrind -q --error-exitcode=99") runs publish
under another program.

Each case is a folder: book/ (the book), expect (line 1 the exit code,
then what stderr must hold), and optional args, outputs, checks, symlinks
and fifos files; expect.NAME with args.NAME, outputs.NAME, checks.NAME make
a variant run of the same book. tests/books/README.md describes the format.
Every run also checks that publish did not crash or hang, that its
messages have the gcc form, that failed editions left the previous
Output/<edition>/ untouched with no temporary folder behind, and that
nothing outside the book was written, deleted or read (the tree around the
book hashed before and after; reads seen by atime where the file system
keeps it) and the book's own files were left as they were.
"""
import os
import re
import shutil
import hashlib
import signal
import stat
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from machine import book_messages  # noqa: E402

TIMEOUT = 30 if not os.environ.get("OCTAVO_TEST_WRAPPER") else 300
# e.g. OCTAVO_TEST_WRAPPER="valgrind -q --error-exitcode=99": a memory
# error then fails the run (exit code 99 is not 0, 1 or 2).
WRAPPER = os.environ.get("OCTAVO_TEST_WRAPPER", "").split()
MARKER = "marker.txt"
SECRET = "TOP SECRET: this file is outside the book"
# A diagnostic: `file[:line[:col]]: kind: text`, or `publish: kind: text`.
DIAG = re.compile(r"^(?:[^\s:][^:]*)(?::\d+){0,2}: (error|warning|note): \S")


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return [ln.rstrip("\n") for ln in f if ln.strip() != ""]


def read_list(path, default):
    return read_lines(path) if os.path.exists(path) else default


class Run:
    def __init__(self, case_dir, variant):
        self.case_dir = case_dir
        self.variant = variant
        self.name = os.path.basename(case_dir) + ("." + variant if variant else "")
        suffix = "." + variant if variant else ""
        exp = read_lines(os.path.join(case_dir, "expect" + suffix))
        if not exp or not re.fullmatch(r"[0-9]+", exp[0]):
            raise ValueError(f"{self.name}: expect must start with an exit code")
        self.code = int(exp[0])
        self.patterns = exp[1:]
        base_args = read_list(os.path.join(case_dir, "args"), ["{book}"])
        self.args = read_list(os.path.join(case_dir, "args" + suffix), base_args)
        default_out = ["web replaced" if self.code == 0 else "web kept"]
        self.outputs = read_list(os.path.join(case_dir, "outputs" + suffix),
                                 default_out)
        self.checks = read_list(os.path.join(case_dir, "checks" + suffix), [])
        self.symlinks = read_list(os.path.join(case_dir, "symlinks"), [])
        self.fifos = read_list(os.path.join(case_dir, "fifos"), [])


def tree_state(root, skip=None):
    """{relative path: what it is} for everything under root (not following
    links, never opening what is not a regular file), skip left out."""
    state = {}
    for d, dirs, files in os.walk(root):
        if skip and os.path.abspath(d) == os.path.abspath(skip):
            dirs[:] = []
            continue
        for n in dirs + files:
            p = os.path.join(d, n)
            if skip and os.path.abspath(p) == os.path.abspath(skip):
                continue
            st = os.lstat(p)
            rel = os.path.relpath(p, root)
            if stat.S_ISLNK(st.st_mode):
                state[rel] = "link " + os.readlink(p)
            elif stat.S_ISDIR(st.st_mode):
                state[rel] = "folder"
            elif stat.S_ISREG(st.st_mode):
                with open(p, "rb") as f:
                    state[rel] = hashlib.sha256(f.read()).hexdigest()
            else:
                state[rel] = "special"
    return state


def age_atimes(root, skip):
    """Sets the access time of every regular file under root (skip left
    out) before its modification time, so that relatime records the next
    read; returns {path: atime}."""
    times = {}
    for d, dirs, files in os.walk(root):
        if os.path.abspath(d) == os.path.abspath(skip):
            dirs[:] = []
            continue
        for n in files:
            p = os.path.join(d, n)
            st = os.lstat(p)
            if stat.S_ISREG(st.st_mode):
                os.utime(p, ns=(st.st_mtime_ns - 100 * 10**9, st.st_mtime_ns),
                         follow_symlinks=False)
                times[p] = os.lstat(p).st_atime_ns
    return times


def atime_works(tmp):
    """True when reading a file whose atime is older than its mtime
    updates it here (relatime or strictatime, not noatime)."""
    p = os.path.join(tmp, "atime-probe")
    with open(p, "w") as f:
        f.write("probe\n")
    st = os.stat(p)
    os.utime(p, ns=(st.st_mtime_ns - 100 * 10**9, st.st_mtime_ns))
    before = os.stat(p).st_atime_ns
    with open(p) as f:
        f.read()
    works = os.stat(p).st_atime_ns != before
    os.unlink(p)
    return works


def compare_states(before, after, where):
    fails = []
    for rel in sorted(set(before) | set(after)):
        if rel not in after:
            fails.append(f"{where}: {rel} was deleted")
        elif rel not in before:
            fails.append(f"{where}: {rel} was created")
        elif before[rel] != after[rel]:
            fails.append(f"{where}: {rel} was changed")
    return fails


def match_pattern(pat, text):
    """True when stderr satisfies one expect line; for `once:` exactly one
    occurrence, for `!` none."""
    if pat.startswith("!"):
        return not match_pattern(pat[1:], text)
    if pat.startswith("once:"):
        p = pat[5:]
        n = len(re.findall(p[3:], text, re.M)) if p.startswith("re:") \
            else text.count(p)
        return n == 1
    if pat.startswith("re:"):
        return re.search(pat[3:], text, re.M) is not None
    return pat in text


def prepare(run, work):
    """Copies the book into work/book, creates the symbolic links, the
    files outside the book and the markers of the previous output."""
    book = os.path.join(work, "book")
    outside = os.path.join(work, "outside")
    shutil.copytree(os.path.join(run.case_dir, "book"), book, symlinks=True)
    os.makedirs(outside)
    # A folder beside the book, as an escape would find one: a victim of
    # an edition named "../../victim", or of a page named "../x/index".
    for rel in ("victim/index.html", "victim/css/easybook.css",
                "Contents/chapter1.md"):
        p = os.path.join(work, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write("a file beside the book: " + rel + "\n")
    for p in (os.path.join(outside, "secret.md"), os.path.join(work, "secret.md"),
              os.path.join(work, "secret.png")):
        with open(p, "w") as f:
            f.write(SECRET + "\n")
    for ln in run.symlinks:
        link, target = [s.strip() for s in ln.split("->")]
        target = target.replace("{outside}", outside)
        lp = os.path.join(book, link)
        os.makedirs(os.path.dirname(lp), exist_ok=True)
        os.symlink(target, lp)
    for ln in run.fifos:
        fp = os.path.join(book, ln.strip())
        os.makedirs(os.path.dirname(fp), exist_ok=True)
        os.mkfifo(fp)
    for ln in run.outputs:
        edition = ln.split()[0]
        d = os.path.join(book, "Output", edition)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, MARKER), "w") as f:
            f.write("the previous output\n")
    return book, outside


def check_run(run, publish, work, verbose=False, atimes=False):
    """Returns a list of failure messages (empty: the run passed)."""
    book, outside = prepare(run, work)
    around = tree_state(work, skip=book)
    sources = tree_state(book, skip=os.path.join(book, "Output"))
    aged = age_atimes(work, skip=book) if atimes else {}
    args = [a.replace("{book}", book).replace("{outside}", outside)
            for a in run.args]
    cmd = WRAPPER + [publish] + args
    try:
        p = subprocess.run(cmd, cwd=work, capture_output=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return [f"publish hung (killed after {TIMEOUT} s)"]
    err = book_messages(p.stderr.decode("utf-8", "replace"))
    out = p.stdout.decode("utf-8", "replace")
    fails = []
    # Outside the book: nothing read (atime first: hashing reads), written
    # or deleted; the book's own files as they were (what the case's checks
    # say may appear, e.g. a script's file, aside).
    for path, t in aged.items():
        if os.path.exists(path) and os.lstat(path).st_atime_ns != t:
            fails.append("a file outside the book was read: " +
                         os.path.relpath(path, work))
    fails += compare_states(around, tree_state(work, skip=book),
                            "outside the book")
    # A file a check looks at (`exists F`, `contains F TEXT`) may appear.
    expected_new = {ck.split(" ", 2)[1] for ck in run.checks
                    if ck.split(" ", 1)[0] in ("exists", "contains")
                    and " " in ck}
    fails += [f for f in compare_states(
        sources, tree_state(book, skip=os.path.join(book, "Output")),
        "in the book")
        if not (f.endswith(" was created") and
                f[len("in the book: "):-len(" was created")] in expected_new)]
    if verbose:
        print(f"---- {run.name}: exit {p.returncode}\n" +
              err.replace(work, "$TMP").rstrip())
    if p.returncode < 0:
        sig = signal.Signals(-p.returncode).name
        return [f"publish crashed with {sig}", "stderr:\n" + err]
    if p.returncode not in (0, 1, 2):
        fails.append(f"exit code {p.returncode} is not 0, 1 or 2")
    if p.returncode != run.code:
        fails.append(f"exit code {p.returncode}, expected {run.code}")
    for pat in run.patterns:
        if not match_pattern(pat, err):
            fails.append(f"stderr does not satisfy: {pat}")
    # Messages every run must respect.
    for ln in err.splitlines():
        if re.search(r"\b(error|warning|note):", ln) and not DIAG.match(ln):
            fails.append(f"not a gcc-style diagnostic: {ln}")
        for bad in ("(null)", "@string/", "@command/", "AddressSanitizer", "runtime error:"):
            if bad in ln:
                fails.append(f"stderr holds '{bad}': {ln}")
    if run.code == 1 and p.returncode == 1 and not re.search(r"\berror:", err):
        fails.append("exit code 1 without any 'error:' message")
    if SECRET in err or SECRET in out:
        fails.append("publish printed the contents of a file outside the book")
    # The output: previous editions kept or replaced, nothing left behind.
    outdir = os.path.join(book, "Output")
    for ln in run.outputs:
        edition, what = ln.split()
        d = os.path.join(outdir, edition)
        marker = os.path.join(d, MARKER)
        if what == "kept" and not os.path.isfile(marker):
            fails.append(f"Output/{edition}/ was not left as it was "
                         f"({MARKER} is gone)")
        if what == "replaced":
            if os.path.exists(marker):
                fails.append(f"Output/{edition}/ was not replaced "
                             f"({MARKER} is still there)")
            if not os.path.isdir(d) or not os.listdir(d):
                fails.append(f"Output/{edition}/ is missing or empty")
    if os.path.isdir(outdir) and not os.path.islink(outdir):
        for n in os.listdir(outdir):
            if ".tmp-" in n:
                fails.append(f"temporary folder left behind: Output/{n}")
        for root, _, files in os.walk(outdir):
            for fn in files:
                with open(os.path.join(root, fn), "rb") as f:
                    if SECRET.encode() in f.read():
                        fails.append("a file outside the book was published: "
                                     + os.path.relpath(os.path.join(root, fn), book))
    for ck in run.checks:
        fails += file_check(book, ck)
    if fails:
        fails.append("command: " + " ".join(
            a if re.fullmatch(r"[\w./{}:-]+", a) else repr(a) for a in
            ["publish"] + [x.replace(work, "$TMP") for x in args]))
        fails.append("stderr:\n" + (err.replace(work, "$TMP").rstrip() or "(empty)"))
    return fails


def file_check(book, ck):
    """`exists PATH`, `absent PATH`, `contains PATH TEXT` (relative to the
    book)."""
    kind, rest = ck.split(" ", 1)
    if kind == "contains":
        rel, text = rest.split(" ", 1)
    else:
        rel = rest
    p = os.path.join(book, rel)
    if kind == "exists":
        return [] if os.path.exists(p) else [f"{rel} does not exist"]
    if kind == "absent":
        return [f"{rel} exists and should not"] if os.path.exists(p) else []
    if kind == "contains":
        if not os.path.isfile(p):
            return [f"{rel} does not exist (it should contain '{text}')"]
        with open(p, encoding="utf-8", errors="replace") as f:
            return [] if text in f.read() else [f"{rel} does not contain '{text}'"]
    raise ValueError(f"unknown check: {ck}")


def runs_of(case_dir):
    yield Run(case_dir, None)
    for fn in sorted(os.listdir(case_dir)):
        if fn.startswith("expect."):
            yield Run(case_dir, fn[len("expect."):])


def main(argv):
    verbose = "-v" in argv
    argv = [a for a in argv if a != "-v"]
    if len(argv) < 3:
        print("usage: run_errors.py [-v] PUBLISH ERRORS_DIR [CASE...]",
              file=sys.stderr)
        return 2
    publish = os.path.abspath(argv[1])
    errors_dir = argv[2]
    if not os.access(publish, os.X_OK):
        print(f"run_errors: {publish} is not an executable", file=sys.stderr)
        return 2
    names = argv[3:] or sorted(
        n for n in os.listdir(errors_dir)
        if os.path.isfile(os.path.join(errors_dir, n, "expect")))
    passed, failed = 0, []
    with tempfile.TemporaryDirectory(prefix="octavo-errors-") as tmp:
        atimes = atime_works(tmp)
        if not atimes:
            print("note: this file system does not record reads (noatime); "
                  "reads outside the book are not checked")
        for name in names:
            case_dir = os.path.join(errors_dir, name)
            for run in runs_of(case_dir):
                work = os.path.join(tmp, run.name)
                os.makedirs(work)
                fails = check_run(run, publish, work, verbose, atimes)
                if fails:
                    failed.append(run.name)
                    print(f"FAIL {run.name}")
                    for f in fails:
                        print("    " + f.replace("\n", "\n    "))
                else:
                    passed += 1
                    print(f"ok   {run.name}")
    print(f"\nbooks_errors: {passed} passed, {len(failed)} failed")
    if failed:
        print("failed: " + " ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
