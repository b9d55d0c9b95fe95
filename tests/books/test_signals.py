#!/usr/bin/env python3
"""publish stopped by a signal, and the temporary folders of killed runs.

    test_signals.py PUBLISH

- SIGTERM and SIGINT while an edition is being written (its temporary
  folder Output/.<edition>.tmp-* exists): publish ends as killed by that
  signal (a shell shows 128 + N), no temporary folder is left, and the
  previous output is untouched.
- Stale folders: Output/.web.tmp-* folders planted before a run are
  removed by the next run of `web`, except one that another process holds
  locked (a live run) and those of another edition.

No timing: the signal is sent once the temporary folder is seen; a run
that ends before it is seen is tried again with a bigger book.
"""
import fcntl
import glob
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile

fails = []


def check(cond, what):
    if not cond:
        fails.append(what)
        print("FAIL " + what)


def make_book(root, chapters):
    """A book whose pdf edition takes a while: long chapters, notes."""
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(os.path.join(root, "Contents"))
    rnd = random.Random(1)
    words = ("lorem ipsum dolor sit amet consectetur adipiscing elit sed do "
             "eiusmod tempor incididunt ut labore et dolore magna").split()
    items = []
    for c in range(1, chapters + 1):
        with open(os.path.join(root, "Contents", "c%d.md" % c), "w") as f:
            f.write("# Chapter %d\n\n" % c)
            for s in range(10):
                f.write("## Section %d.%d\n\n" % (c, s))
                for p in range(12):
                    f.write(" ".join(rnd.choice(words) for _ in range(100)))
                    f.write("[^n%d_%d]\n\n[^n%d_%d]: A note.\n\n" % (s, p, s, p))
        items.append("        - { element: chapter, number: %d, "
                     "content: c%d.md }" % (c, c))
    with open(os.path.join(root, "config.yml"), "w") as f:
        f.write("book:\n    title: Big\n    contents:\n" + "\n".join(items) +
                "\n    editions:\n        print: { format: pdf }\n"
                "        web: { format: html }\n")


def temp_folders(book, edition="*"):
    return glob.glob(os.path.join(book, "Output", ".%s.tmp-*" % edition))


def stop_while_writing(publish, tmp, signame):
    sig = getattr(signal, signame)
    chapters = 20
    for attempt in range(4):
        book = os.path.join(tmp, "big-%s" % signame)
        make_book(book, chapters)
        marker = os.path.join(book, "Output", "print", "marker.txt")
        os.makedirs(os.path.dirname(marker))
        with open(marker, "w") as f:
            f.write("previous output\n")
        p = subprocess.Popen([publish, book, "print", "-q"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        while p.poll() is None and not temp_folders(book, "print"):
            pass
        if p.poll() is not None:
            p.communicate()
            chapters *= 2  # done before its folder was seen: a bigger book
            continue
        p.send_signal(sig)
        err = p.communicate()[1].decode("utf-8", "replace")
        check(p.returncode == -sig,
              "%s: publish ended with %s, not killed by %s (stderr: %s)" %
              (signame, p.returncode, signame, err[-500:]))
        left = temp_folders(book)
        check(not left, "%s: temporary folders left: %s" % (signame, left))
        check(os.path.exists(marker),
              "%s: the previous output was not kept" % signame)
        check("Traceback" not in err and "error:" not in err,
              "%s: messages on the way out: %s" % (signame, err[-500:]))
        return
    check(False, "%s: publish always ended before its temporary folder "
          "could be seen" % signame)


def stale_folders(publish, tmp):
    book = os.path.join(tmp, "small")
    os.makedirs(os.path.join(book, "Contents"))
    with open(os.path.join(book, "Contents", "ch1.md"), "w") as f:
        f.write("# One\n\nText.\n")
    with open(os.path.join(book, "config.yml"), "w") as f:
        f.write("book:\n    title: Small\n    contents:\n"
                "        - { element: chapter, number: 1, content: ch1.md }\n"
                "    editions:\n        web: { format: html }\n")
    out = os.path.join(book, "Output")
    planted = [".web.tmp-Ab12Cd", ".web.tmp-Ef34Gh.old", ".web.tmp-Ij56Kl.dying"]
    for name in planted + [".web.tmp-live01", ".print.tmp-Mn78Op"]:
        os.makedirs(os.path.join(out, name, "book", "css"))
        with open(os.path.join(out, name, "book", "index.html"), "w") as f:
            f.write("left by a killed run\n")
    # A live run of web: this process holds its folder's lock.
    live = os.path.join(out, ".web.tmp-live01")
    fd = os.open(live, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    r = subprocess.run([publish, book, "web", "-q"], capture_output=True)
    check(r.returncode == 0, "stale: publish failed: %s" % r.stderr)
    for name in planted:
        check(not os.path.exists(os.path.join(out, name)),
              "stale: %s was not removed" % name)
    check(os.path.isdir(live), "stale: the folder of a live run was removed")
    check(os.path.isdir(os.path.join(out, ".print.tmp-Mn78Op")),
          "stale: another edition's folder was removed")
    check(os.path.isfile(os.path.join(out, "web", "book.html")),
          "stale: web was not published")
    os.close(fd)  # the live run is gone: its folder is stale now
    r = subprocess.run([publish, book, "web", "-q"], capture_output=True)
    check(r.returncode == 0, "stale: second publish failed: %s" % r.stderr)
    check(not os.path.exists(live),
          "stale: the folder of a run that ended was not removed")
    check(os.path.isdir(os.path.join(out, ".print.tmp-Mn78Op")),
          "stale: another edition's folder was removed by the second run")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    publish = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="octavo-signals-") as tmp:
        stop_while_writing(publish, tmp, "SIGTERM")
        stop_while_writing(publish, tmp, "SIGINT")
        stale_folders(publish, tmp)
    print("books_signals: %s" % ("%d failed" % len(fails) if fails else "ok"))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
