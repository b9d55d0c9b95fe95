#!/usr/bin/env python3
"""publish serve serves nothing from outside the book (issue 24), whatever
symbolic link a book (or someone, later) puts in its way:

  1. Output -> / with an edition named `etc`: the publish refuses Output
     with its own message, and GET /passwd is a 404;
  2. Output/web -> /etc, left in place by a publish that fails: said in
     the terminal (Output/web ... leads out; without openat2, a link that
     cannot be followed safely), GET /passwd and /shadow 404;
  3. links inside the served folder that lead out (to a file, to a
     folder, absolute and relative) 404; one that stays inside is served;
  4. links swapped in after the start, while serving (Output/web, then
     Output itself, replaced by links to a folder outside with the same
     files) 404, and serving comes back when the real folder does.

Nothing outside the book is written (a publish runs while Output/web is
such a link, and replaces it; the folder outside is compared before and
after) nor read:
the files outside have their access time set in the past, and it must
not move (a read would set it: the
kernel's relatime updates an access time older than the modification).
Run twice: as is (openat2's RESOLVE_BENEATH), and under NOSYS openat2,
as on a kernel without openat2 (every path walked with O_NOFOLLOW).

usage: test_serve_escape.py PUBLISH NOSYS
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from served import raw_get as get  # noqa: E402

PUBLISH = os.path.abspath(sys.argv[1])
NOSYS = os.path.abspath(sys.argv[2])
SECRET = "TOP SECRET: outside the book"
failures = []


def fail(msg):
    print("FAIL: " + msg)
    failures.append(msg)


class Serve:
    def __init__(self, book, edition, prefix, log):
        self.log = open(log, "w+")
        self.p = subprocess.Popen(prefix + [PUBLISH, "serve", book, edition,
                                            "--port", "0"],
                                  stdout=subprocess.PIPE, stderr=self.log,
                                  text=True)
        self.port = None
        for line in self.p.stdout:
            m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if m:
                self.port = int(m.group(1))
                break

    def err(self):
        self.log.seek(0)
        return self.log.read()

    def stop(self):
        self.p.send_signal(2)
        try:
            rc = self.p.wait(10)
            # 130 when it was waiting for a change; -2 when the signal came
            # during a publish (the change the test made last), which the
            # guard undoes before it ends by the signal itself
            if rc not in (130, -2):
                fail("publish serve stopped by SIGINT exited with %d" % rc)
        except subprocess.TimeoutExpired:
            self.p.kill()
            fail("publish serve did not stop on SIGINT")
        err = self.err()
        if "Sanitizer" in err or "runtime error:" in err:
            fail("the sanitizers reported:\n" + err)
        self.log.close()


def outside_folder(tmp):
    """A folder outside the book holding what a leak would show: a page,
    a secret and a passwd, their access times in the past."""
    out = os.path.join(tmp, "outside")
    os.makedirs(os.path.join(out, "web"))
    for rel in ["secret.txt", "passwd", "book.html", "web/book.html"]:
        with open(os.path.join(out, rel), "w") as f:
            f.write("<html><body>%s</body></html>\n" % SECRET)
    stamp(out)
    return out


def stamp(folder):
    for d, _, files in os.walk(folder):
        for n in files:
            p = os.path.join(d, n)
            os.utime(p, (1000000000, time.time()))


def unread(folder, what):
    for d, _, files in os.walk(folder):
        for n in files:
            p = os.path.join(d, n)
            if os.stat(p).st_atime > 1000000001:
                fail("%s: %s outside the book was read" % (what, p))


def snapshot(folder):
    """Every name under folder with its size and modification time."""
    out = {}
    for d, dirs, files in os.walk(folder):
        for n in dirs + files:
            st = os.lstat(os.path.join(d, n))
            out[os.path.relpath(os.path.join(d, n), folder)] = (
                st.st_size, st.st_mtime_ns)
    return out


def no_leak(serve, paths, what):
    for path in paths:
        status, body = get(serve.port, path)
        if status != 404:
            fail("%s: GET %s gave %d, not 404" % (what, path, status))
        if SECRET in body or re.search(r"root:[^:]*:0:0:", body):
            fail("%s: GET %s showed a file outside the book" % (what, path))


def new_book(tmp, name):
    subprocess.run([PUBLISH, "new", name, "--dir", tmp], check=True,
                   stdout=subprocess.DEVNULL)
    return os.path.join(tmp, re.sub(r"[^a-z0-9]+", "-", name.lower()))


def output_to_root(tmp, prefix, mode):
    """1. Output -> / and an edition named etc."""
    book = new_book(tmp, "Root Link")
    config = os.path.join(book, "config.yml")
    text = open(config).read()
    open(config, "w").write(text.replace(
        "    editions:\n", "    editions:\n        etc:\n            format: "
        "html\n", 1))
    shutil.rmtree(os.path.join(book, "Output"), ignore_errors=True)
    os.symlink("/", os.path.join(book, "Output"))
    s = Serve(book, "etc", prefix, os.path.join(tmp, "root.log"))
    try:
        if not s.port:
            fail("%s: Output -> /: serve printed no address" % mode)
            return
        no_leak(s, ["/passwd", "/shadow", "/hostname"], mode +
                ": Output -> /")
        if "Output: error: Output is a symbolic link that leads out of the " \
           "book's folder" not in s.err():
            fail("%s: Output -> /: the publish's message is missing:\n%s"
                 % (mode, s.err()))
    finally:
        s.stop()


def edition_to_etc(tmp, prefix, mode, beneath):
    """2. Output/web -> /etc, and a publish that fails leaves it."""
    book = new_book(tmp, "Etc Link")
    os.remove(os.path.join(book, "Contents", "chapter1.md"))
    shutil.rmtree(os.path.join(book, "Output"), ignore_errors=True)
    os.makedirs(os.path.join(book, "Output"))
    os.symlink("/etc", os.path.join(book, "Output", "web"))
    s = Serve(book, "web", prefix, os.path.join(tmp, "etc.log"))
    try:
        if not s.port:
            fail("%s: Output/web -> /etc: serve printed no address" % mode)
            return
        no_leak(s, ["/passwd", "/shadow", "/hostname", "/os-release"],
                mode + ": Output/web -> /etc")
        how = ("that leads out of the book's Output folder" if beneath else
               "that publish serve cannot follow safely")
        if not re.search(r"(?m)^Output: error: Output/web is a symbolic link "
                         + how, s.err()):
            fail("%s: Output/web -> /etc not said:\n%s" % (mode, s.err()))
        if os.readlink(os.path.join(book, "Output", "web")) != "/etc":
            fail("%s: the failed publish replaced Output/web" % mode)
    finally:
        s.stop()


def inside_and_swapped(tmp, prefix, mode, beneath):
    """3. links in the served folder, 4. links swapped in while serving."""
    book = new_book(tmp, "Swap Links")
    outside = outside_folder(tmp)
    before = snapshot(outside)
    web = os.path.join(book, "Output", "web")
    s = Serve(book, "web", prefix, os.path.join(tmp, "swap.log"))
    try:
        if not s.port:
            fail("%s: serve printed no address:\n%s" % (mode, s.err()))
            return
        if get(s.port, "/book.html")[0] != 200:
            fail("%s: the book is not served" % mode)
        os.symlink(os.path.join(outside, "secret.txt"),
                   os.path.join(web, "abs.txt"))
        os.symlink("../../../outside/secret.txt", os.path.join(web, "rel.txt"))
        os.symlink(outside, os.path.join(web, "css", "absdir"))
        os.symlink("../../../../outside", os.path.join(web, "css", "reldir"))
        os.symlink("book.html", os.path.join(web, "same.html"))
        no_leak(s, ["/abs.txt", "/rel.txt", "/css/absdir/secret.txt",
                    "/css/reldir/secret.txt", "/css/reldir/"],
                mode + ": a link inside the served folder")
        status, body = get(s.port, "/same.html")
        if beneath and (status != 200 or "Lorem ipsum" not in body):
            fail("%s: a link that stays inside gave %d" % (mode, status))
        if not beneath and status != 404:
            fail("%s: without openat2 a link gave %d, not 404" % (mode,
                                                                 status))
        # 4. Output/web swapped for a link to a folder outside
        os.rename(web, web + ".away")
        os.symlink(outside, web)
        no_leak(s, ["/book.html", "/secret.txt"], mode +
                ": Output/web swapped for a link")
        os.remove(web)
        os.symlink("../../outside", web)
        no_leak(s, ["/book.html", "/secret.txt"], mode +
                ": Output/web swapped for a relative link")
        os.remove(web)
        os.rename(web + ".away", web)
        if get(s.port, "/book.html")[0] != 200:
            fail("%s: Output/web back, the book is not served" % mode)
        # ... and Output itself
        out = os.path.join(book, "Output")
        os.rename(out, out + ".away")
        os.symlink(outside, out)
        no_leak(s, ["/book.html", "/web/book.html", "/secret.txt"], mode +
                ": Output swapped for a link")
        os.remove(out)
        os.rename(out + ".away", out)
        if get(s.port, "/book.html")[0] != 200:
            fail("%s: Output back, the book is not served" % mode)
        # an edit while Output/web leads out: the publish writes nothing
        # there, but replaces the link with the edition
        os.rename(web, web + ".away")
        os.symlink(outside, web)
        chapter = os.path.join(book, "Contents", "chapter1.md")
        with open(chapter, "a") as f:
            f.write("\nOne more sentence.\n")
        # the link goes when the publish ends; the page is served once the
        # swap is done: waited for, as a loaded machine may take seconds
        end = time.monotonic() + 20
        while time.monotonic() < end:
            if not os.path.islink(web):
                status, body = get(s.port, "/book.html")
                if status == 200 and "One more sentence." in body:
                    break
            time.sleep(0.05)
        status, body = get(s.port, "/book.html")
        if os.path.islink(web) or status != 200 or \
                "One more sentence." not in body:
            fail("%s: the publish did not replace the link Output/web (%d)"
                 % (mode, status))
        shutil.rmtree(web + ".away")
        unread(outside, mode)
        if snapshot(outside) != before:
            fail("%s: something outside the book was written" % mode)
    finally:
        s.stop()


def main():
    runs = [("openat2", [], True)]
    probe = subprocess.run([NOSYS, "openat2", "true"])
    if probe.returncode == 0:
        runs.append(("without openat2", [NOSYS, "openat2"], False))
    else:
        print("test_serve_escape: no seccomp here: the run without openat2 "
              "is skipped")
    for mode, prefix, beneath in runs:
        tmp = tempfile.mkdtemp(prefix="octavo-serve-escape-")
        try:
            output_to_root(tmp, prefix, mode)
            edition_to_etc(tmp, prefix, mode, beneath)
            inside_and_swapped(tmp, prefix, mode, beneath)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print("test_serve_escape: %d failure(s)" % len(failures))
        return 1
    print("test_serve_escape: OK (%s)" % ", ".join(r[0] for r in runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
