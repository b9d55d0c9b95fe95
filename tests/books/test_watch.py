#!/usr/bin/env python3
"""publish --watch (issue 16): a change republishes, and what the warm,
incremental publishes write is byte for byte what a cold publish of the
same book writes.

On a book `publish new` writes (two chapters sharing a heading, so the
second one's id is "ut-enim-ad-minim-veniam-2") and, when MAKE_CORPUS is
given and exists, on the small corpus book, the web, website and ebook
(EPUB) editions are watched (-v) while a sequence of edits is made: a paragraph added
(only that chapter is rendered again: the others come from the cache,
and only the pages that changed are written, the others linked from the
previous output; a page changed by hand there is written again), a
heading removed and put back (the next chapter's generated ids change
while its bytes do not: it must not come from the cache), a heading id
added that a later chapter's heading would take, config.yml changed, a
chapter's file removed (the previous output stays) and restored, a style
sheet and a file in folders made after the start. After
each, Output/ is compared with a cold publish of a copy.

Then the limit of watches: a book with 4,400 folders more is watched
with at most the limit (4,096, or a quarter of the kernel's
max_user_watches; counted in /proc/PID/fdinfo), one warning names how
many folders are not, and a chapter's edit still publishes again (the
folders nearest the top are the ones watched).

usage: test_watch.py PUBLISH [MAKE_CORPUS]
"""
import filecmp
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

PUBLISH = os.path.abspath(sys.argv[1])
MAKE_CORPUS = sys.argv[2] if len(sys.argv) > 2 else None
EDITIONS = ["web", "website", "ebook"]
failures = []


def fail(msg):
    print("FAIL: " + msg)
    failures.append(msg)


def differences(a, b):
    """Files that differ or exist on one side only, under a and b."""
    out = []
    c = filecmp.dircmp(a, b)
    out += [os.path.join(a, n) for n in c.left_only + c.right_only]
    for n in c.common_files:
        if not filecmp.cmp(os.path.join(a, n), os.path.join(b, n),
                           shallow=False):
            out.append(os.path.join(a, n))
    for d in c.common_dirs:
        out += differences(os.path.join(a, d), os.path.join(b, d))
    return out


class Watcher:
    def __init__(self, book):
        self.p = subprocess.Popen(
            [PUBLISH, "--watch", book] + EDITIONS + ["-v"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines = queue.Queue()
        self.all = []
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def read(self):
        for line in self.p.stdout:
            self.all.append(line)
            self.lines.put(line)

    def until(self, pattern, count=1, timeout=20):
        """The lines up to the count-th one matching pattern."""
        got, seen = [], 0
        end = time.monotonic() + timeout
        while seen < count:
            try:
                line = self.lines.get(timeout=max(0.01,
                                                  end - time.monotonic()))
            except queue.Empty:
                return None
            got.append(line)
            if re.search(pattern, line):
                seen += 1
        return got

    def stop(self):
        self.p.send_signal(2)
        try:
            rc = self.p.wait(10)
            if rc != 130:
                fail("publish --watch stopped by SIGINT exited with %d, not "
                     "130" % rc)
        except subprocess.TimeoutExpired:
            self.p.kill()
            fail("publish --watch did not stop on SIGINT")
        self.reader.join(5)
        out = "".join(self.all)
        if "Sanitizer" in out or "runtime error:" in out:
            fail("the sanitizers reported:\n" + out[-3000:])


def compare(book, tmp, what):
    """Output/ against a cold publish of a copy; on a loaded machine a
    publish of a second burst may still be under way, so a difference is
    looked at again for up to two seconds before it fails."""
    cold = os.path.join(tmp, "cold")
    shutil.rmtree(cold, ignore_errors=True)
    shutil.copytree(book, cold, ignore=shutil.ignore_patterns("Output"))
    subprocess.run([PUBLISH, cold, "-q"] + EDITIONS, stderr=subprocess.DEVNULL)
    for ed in EDITIONS:
        warm_dir = os.path.join(book, "Output", ed)
        cold_dir = os.path.join(cold, "Output", ed)
        if not os.path.isdir(cold_dir):
            fail("%s: the cold publish wrote no Output/%s" % (what, ed))
            continue
        for _ in range(10):
            diff = differences(warm_dir, cold_dir)
            if not diff:
                break
            time.sleep(0.2)
        if diff:
            fail("%s: Output/%s differs from a cold publish: %s"
                 % (what, ed, diff[:5]))


def taken_id(book):
    """The id of the second chapter's first section, as published."""
    page = open(os.path.join(book, "Output", "website", "book",
                             "chapter-2.html")).read()
    return re.search(r'<h2 id="([^"]+)"', page).group(1)


def edit(path, fn):
    text = open(path).read()
    with open(path, "w") as f:
        f.write(fn(text))


def run(book, tmp, chapters):
    first, second = chapters
    w = Watcher(book)
    try:
        if not w.until(r"^watching "):
            fail("publish --watch did not start")
            return
        compare(book, tmp, "the first publish")
        steps = [
            ("a paragraph added to %s" % first,
             lambda: edit(first, lambda t: t + "\nA new paragraph.\n"), True),
            ("a heading removed from %s" % first,
             lambda: edit(first, lambda t: re.sub(r"\n## [^\n]*\n", "\n", t,
                                                  count=1)), True),
            ("the heading put back",
             lambda: edit(first, lambda t: t.replace("A new paragraph.",
                                                     "## Ut enim ad minim "
                                                     "veniam\n\nBack.")),
             True),
            ("an id taken before %s's" % second,
             lambda: edit(first, lambda t: t + "\n## Taken {#%s}\n" %
                          taken_id(book)), True),
            ("config.yml changed",
             lambda: edit(os.path.join(book, "config.yml"),
                          lambda t: re.sub(r"(title:\s*)\"?([^\n\"]*)\"?",
                                           r'\1"\2 (edited)"', t, count=1)),
             True),
        ]
        for what, change, ok in steps:
            change()
            got = w.until(r"^published ebook", 1)
            if got is None:
                fail("%s: not published again" % what)
                continue
            compare(book, tmp, what)
        # folders made after the start are watched too: the book's own
        # templates (Resources/Templates/web/style.css, which empties the
        # cache), and a new folder of Contents
        def in_new_folder(folder, name, text, what):
            """Makes folder (a publish), then a file in it (another)."""
            os.makedirs(folder)
            w.until(r"^published ebook", 1, timeout=3)
            with open(os.path.join(folder, name), "w") as f:
                f.write(text)
            if w.until(r"^published ebook", 1) is None:
                fail("%s in a new folder was not seen" % what)

        in_new_folder(os.path.join(book, "Resources", "Templates", "web"),
                      "style.css", "body { color: #123; }\n",
                      "a style sheet")
        compare(book, tmp, "a style sheet in Resources/Templates/web/")
        if not os.path.exists(os.path.join(book, "Output", "web", "css",
                                           "styles.css")):
            fail("the new style sheet is not in Output/web/css/")
        in_new_folder(os.path.join(book, "Contents", "more", "deeper"),
                      "notes.txt", "not in the book\n", "a file of Contents")
        # the cache was used: one chapter changed, the others hit; and a
        # page changed by hand in Output/ is written again, not linked
        with open(os.path.join(book, "Output", "website", "book",
                               "chapter-1.html"), "w") as f:
            f.write("changed by hand")
        edit(second, lambda t: t + "\nLast words.\n")
        got = w.until(r"^published ebook", 1) or []
        if not any(re.search(r"\(([1-9]\d*) from the cache\)", line)
                   for line in got):
            fail("no content file came from the cache:\n" + "".join(got))
        compare(book, tmp, "an edit after the cache was used")
        # a failed publish keeps the previous output, and recovers
        before = open(os.path.join(book, "Output", "web", "book.html")).read()
        os.rename(second, second + ".away")
        got = w.until(r"was not published", 2) or []
        if not any("not found" in line for line in got):
            fail("a removed chapter was not an error:\n" + "".join(got))
        if open(os.path.join(book, "Output", "web",
                             "book.html")).read() != before:
            fail("a failed publish changed Output/web")
        os.rename(second + ".away", second)
        if w.until(r"^published ebook", 1) is None:
            fail("not published again after the chapter came back")
        compare(book, tmp, "the chapter restored")
    finally:
        w.stop()


def watch_limit(tmp):
    subprocess.run([PUBLISH, "new", "Many Folders", "--dir", tmp],
                   check=True, stdout=subprocess.DEVNULL)
    book = os.path.join(tmp, "many-folders")
    many = os.path.join(book, "Resources", "many")
    for i in range(44):
        for j in range(100):
            os.makedirs(os.path.join(many, "d%02d" % i, "e%02d" % j))
    limit = 4096
    with open("/proc/sys/fs/inotify/max_user_watches") as f:
        limit = min(limit, int(f.read()) // 4)
    total = 0
    for d, dirs, _ in os.walk(book):
        dirs[:] = [n for n in dirs if not n.startswith(".") and
                   not n.endswith("~") and
                   os.path.join(d, n) != os.path.join(book, "Output")]
        total += 1
    w = Watcher(book)
    try:
        got = w.until(r"^watching ")
        if got is None:
            fail("--watch on %d folders did not start" % total)
            return
        said = [ln for ln in got if "not watched" in ln]
        want = "publish: warning: %d folders of the book are not watched " \
            "(publish watches %d at most)" % (total - limit, limit)
        if len(said) != 1 or not said[0].startswith(want):
            fail("%d folders: %r, not one %r" % (total, said, want))
        watches = 0
        fdinfo = "/proc/%d/fdinfo" % w.p.pid
        for fd in os.listdir(fdinfo):
            with open(os.path.join(fdinfo, fd)) as f:
                watches += sum(1 for ln in f if ln.startswith("inotify wd:"))
        if watches > limit:
            fail("%d inotify watches, more than %d" % (watches, limit))
        print("test_watch: %d folders, %d watched" % (total, watches))
        edit(os.path.join(book, "Contents", "chapter1.md"),
             lambda t: t + "\nA sentence past the limit.\n")
        if w.until(r"^wrote \d+ files", timeout=20) is None:
            fail("past the limit, an edit of a chapter was not published")
        time.sleep(0.5)  # back to waiting: Ctrl-C then stops it cleanly
    finally:
        w.stop()
    if sum("not watched" in ln for ln in w.all) != 1:
        fail("the warning of folders not watched was said more than once")


def main():
    tmp = tempfile.mkdtemp(prefix="octavo-watch-test-")
    try:
        subprocess.run([PUBLISH, "new", "Watch Test", "--dir", tmp],
                       check=True, stdout=subprocess.DEVNULL)
        book = os.path.join(tmp, "watch-test")
        c = os.path.join(book, "Contents")
        run(book, tmp, [os.path.join(c, "chapter1.md"),
                        os.path.join(c, "chapter2.md")])
        if MAKE_CORPUS and os.path.exists(MAKE_CORPUS):
            small = os.path.join(tmp, "small")
            subprocess.run([sys.executable, MAKE_CORPUS, "--seed", "3",
                            "small", small], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            c = os.path.join(small, "Contents")
            run(small, tmp, [os.path.join(c, "chapter1.md"),
                             os.path.join(c, "chapter2.md")])
        watch_limit(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print("test_watch: %d failure(s)" % len(failures))
        return 1
    print("test_watch: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
