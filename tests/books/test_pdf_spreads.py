#!/usr/bin/env python3
"""Spreads kept with a custom cover: the inner margin of every page on the
binding side, by physical page.

usage: test_pdf_spreads.py PUBLISH BOOK_DIR

BOOK_DIR is tests/books/pdf/spreads: a two-sided A5 book (inner margin
30mm, outer 12mm) with a table of contents, a preface and three chapters of
several pages, each opening on a right-hand page. The test writes the
chapters (seeded words) and the covers into a temporary copy and publishes:

spreads-pdf:  Resources/Templates/spreads-pdf/cover.pdf, one page: the
              cover, then a blank inside cover, then the book;
spreads-png:  a cover.png (with bleed): the same;
spreads-none: no cover file: the theme's typographic cover, no blank page;
one-sided:    two_sided: false with the cover.pdf: no blank page, the
              book from physical page 2 (Easybook's order).

On every page after the covers, every word (pdftotext -bbox-layout) lies
in the text block of its side: odd physical pages are right-hand pages
(inner margin on the left), even ones left-hand pages; and on each side
some line reaches the block's outer edge (the check can see a mirrored
page). Every item's first page is a right-hand page by physical page in
the two-sided editions. The inside cover holds no word; page labels say
"Cover" for the cover and the blank, then roman numbers and 1 at chapter
1. qpdf --check passes.
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_pdf_print import write_cover_pdf, write_png  # noqa: E402

MM = 72 / 25.4
INNER, OUTER = 30 * MM, 12 * MM
A5_W = 419.528
TOL = 0.6

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL " + msg)


def run(args):
    r = subprocess.run(args, capture_output=True, timeout=120)
    if r.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), r.returncode,
                                                 r.stderr.decode()))
    return r.stdout.decode()


WORDS = ("the of and to in a is that for it as was with be by on not he "
         "this are or his from at which but have an they you were her all "
         "she there would their we him been has when who will more no if "
         "out so said what up its about into than them can only other new "
         "some could time these two may then do first any my now such like "
         "our over man me even most made after also did many before must "
         "through back years where much your way well down should because "
         "each just those people how too little state good very make world "
         "still own see men work long get here between both life being "
         "under never day same another know while last might us great old "
         "year off come since against go came right used take three").split()


def chapter(rng, title, paragraphs):
    out = ["# %s\n" % title]
    for _ in range(paragraphs):
        words = [rng.choice(WORDS) for _ in range(rng.randint(60, 110))]
        words[0] = words[0].capitalize()
        out.append(" ".join(words) + ".\n")
    return "\n".join(out)


def prepare(src, dst):
    shutil.copytree(src, dst)
    rng = random.Random(7)
    contents = os.path.join(dst, "Contents")
    os.makedirs(contents, exist_ok=True)  # git keeps no empty folder
    with open(os.path.join(contents, "preface.md"), "w") as f:
        f.write(chapter(rng, "Preface", 4))
    for n in (1, 2, 3):
        with open(os.path.join(contents, "chapter%d.md" % n), "w") as f:
            f.write(chapter(rng, "Chapter of trials %d" % n, 6 + 3 * n))
    tpl = os.path.join(dst, "Resources/Templates")
    for ed in ("spreads-pdf", "one-sided"):
        os.makedirs(os.path.join(tpl, ed))
        write_cover_pdf(os.path.join(tpl, ed, "cover.pdf"), "COVER FROM PDF")
    os.makedirs(os.path.join(tpl, "spreads-png"))
    write_png(os.path.join(tpl, "spreads-png/cover.png"), 300, 400, False)


def pages(pdf):
    """[(width, height, [(xmin, ymin, xmax, ymax, word)])] by physical page,
    in trim coordinates (pdftotext reads the CropBox: the MediaBox here,
    which the bleed grows on each side)."""
    xml = run(["pdftotext", "-bbox-layout", pdf, "-"])
    out = []
    for m in re.finditer(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>',
                         xml, re.S):
        w, h = float(m.group(1)), float(m.group(2))
        words = [(float(a), float(b), float(c), float(d), t) for a, b, c, d, t in
                 re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" '
                            r'xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>',
                            m.group(3))]
        out.append((w, h, words))
    return out


def roman(n):
    out = ""
    for v, r in ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"),
                 (90, "xc"), (50, "l"), (40, "xl"), (10, "x"), (9, "ix"),
                 (5, "v"), (4, "iv"), (1, "i")):
        while n >= v:
            out, n = out + r, n - v
    return out


def labels(pdf, n):
    """The page label of each of the n physical pages (qpdf's JSON of the
    /PageLabels ranges: prefix, style, start)."""
    import json
    j = json.loads(run(["qpdf", "--json", "--json-key=pagelabels", pdf]))
    ranges = sorted((e["index"], e["label"]) for e in j.get("pagelabels", []))
    out = []
    for i in range(n):
        start, d = max((r for r in ranges if r[0] <= i), default=(0, {}))
        num = d.get("/St", 1) + i - start
        style = d.get("/S", "")
        text = {"/D": str(num), "/r": roman(num),
                "/R": roman(num).upper()}.get(style, "")
        out.append(re.sub(r"^u:", "", d.get("/P", "")) + text)
    return out


def check_edition(name, pdf, front, two_sided):
    """front: the pages before the book (the cover and the inside cover)."""
    ps = pages(pdf)
    if len(ps) <= front + 4:
        fail("%s: %d pages, too few" % (name, len(ps)))
        return
    for i in range(1, front):  # the inside cover
        if ps[i][2]:
            fail("%s: physical page %d (the inside cover) holds words: %s" %
                 (name, i + 1, [w[4] for w in ps[i][2][:5]]))
    reach = {True: 0, False: 0}
    for i in range(front, len(ps)):
        w, h, words = ps[i]
        right = (i + 1) % 2 == 1 if two_sided else True
        shift = (w - A5_W) / 2  # the bleed on each side
        left_m = INNER if right else OUTER
        right_m = OUTER if right else INNER
        lo, hi = shift + left_m - TOL, shift + A5_W - right_m + TOL
        outside = [x for x in words if x[0] < lo or x[2] > hi]
        if outside:
            fail("%s: physical page %d (%s-hand): %d words outside the text "
                 "block [%.1f, %.1f], e.g. %r at %.1f-%.1f" %
                 (name, i + 1, "right" if right else "left", len(outside),
                  lo, hi, outside[0][4], outside[0][0], outside[0][2]))
        edge = hi - TOL if right else lo + TOL
        if right and any(x[2] > edge - 1.5 for x in words):
            reach[True] += 1
        if not right and any(x[0] < edge + 1.5 for x in words):
            reach[False] += 1
    if not reach[True] or (two_sided and not reach[False]):
        fail("%s: no line reaches the outer edge (right pages %d, left %d): "
             "the check sees nothing" % (name, reach[True], reach[False]))
    if two_sided:
        for i in range(front, len(ps)):
            words = [x[4] for x in ps[i][2]]
            for title in ("Preface", "Chapter"):
                if words[:1] == [title] and (i + 1) % 2 == 0:
                    fail("%s: '%s' opens on physical page %d, a left-hand page"
                         % (name, " ".join(words[:5]), i + 1))
    got = labels(pdf, len(ps))
    if got[:front] != ["Cover"] * front:
        fail("%s: the cover pages are labelled %s" % (name, got[:front]))
    if front < len(got) and got[front] != "i":
        fail("%s: the book's first page is labelled %r, not i" % (name, got[front]))
    firsts = [i for i in range(len(ps)) if [x[4] for x in ps[i][2]][:2] ==
              ["Chapter", "1"]]
    if not firsts or got[firsts[0]] != "1":
        fail("%s: chapter 1 (physical pages %s) is not labelled 1: %s" %
             (name, [f + 1 for f in firsts], got))


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    publish, book = os.path.abspath(sys.argv[1]), sys.argv[2]
    for tool in ("qpdf", "pdftotext"):
        if not shutil.which(tool):
            print("the command '%s' is missing: install %s "
                  "(scripts/install-deps.sh --test)"
                  % (tool, "qpdf" if tool == "qpdf" else "poppler-utils"))
            return 1
    editions = ("spreads-pdf", "spreads-png", "spreads-none", "one-sided")
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "book")
        prepare(book, copy)
        r = subprocess.run([publish, copy] + list(editions), capture_output=True,
                           timeout=300)
        if r.returncode != 0:
            fail("publish exited %d: %s" % (r.returncode, r.stderr.decode()))
            return 1
        out = {e: os.path.join(copy, "Output", e, "book.pdf") for e in editions}
        for e, pdf in out.items():
            r = subprocess.run(["qpdf", "--check", pdf], capture_output=True)
            if r.returncode != 0 or b"WARNING" in r.stdout + r.stderr:
                fail("%s: qpdf --check: %s" % (e, (r.stdout + r.stderr).decode()))
        check_edition("spreads-pdf", out["spreads-pdf"], 2, True)
        check_edition("spreads-png", out["spreads-png"], 2, True)
        check_edition("spreads-none", out["spreads-none"], 0, True)
        check_edition("one-sided", out["one-sided"], 1, False)
    print("books_pdf_spreads: %s" % ("%d problems" % len(failures) if failures
                                     else "all checks passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
