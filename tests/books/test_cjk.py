#!/usr/bin/env python3
"""Publishes Chinese and Japanese books and checks their line breaking.

usage: test_cjk.py PUBLISH BOOK...

Each book is published, every edition, into a temporary copy (exit 0, no
warning). Then, in the PDF of each pdf edition:

1. recall: every Han, kana and bopomofo character of the Markdown sources
   is in `pdftotext`'s text, as often as the sources have it (100 %);
2. kinsoku: no line (poppler's `-bbox-layout` lines) starts with closing
   punctuation, small kana, the prolonged sound mark or a middle dot, and
   none ends with an opening bracket or quote;
3. lines break between characters: most body lines that continue a
   paragraph end with a Han or kana character, not a space (there are
   none) nor a punctuation mark;
4. justified: every body line followed by another line of its paragraph
   (same size, not indented further, right below it) reaches the right
   edge of the text, within 0.5 pt, and none passes it.

The checks do not depend on which face sets the characters.
Exit status: 0 good, 1 problems.
"""
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from machine import book_messages  # noqa: E402

CJK = re.compile(r"[\u2e80-\u2fdf\u3005-\u3007\u3021-\u3029\u3031-\u303a"
                 r"\u3041-\u309f\u30a1-\u30fa\u30fc-\u30ff\u3105-\u312f"
                 r"\u31a0-\u31bf\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
                 r"\uf900-\ufaff\U00020000-\U0003ffff]")
NO_START = set("。．，、」）』】〕〉》〗〙〛｝］”’！？：；・ー〜々〻ゝゞヽヾ"
               "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ"
               "ㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ,.)!?:;%")
NO_END = set("「（『【〔〈《〖〘〚｛［“‘([")
PUNCT = NO_START | NO_END | set("…—―")
HEAD_SLACK = 30.0  # pt: running heads and folios stand this far outside


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600,
                          **kw)


def fail(msgs, book, check, msg):
    msgs.append(f"FAIL {book}: check {check}: {msg}")


def source_text(book):
    out = []
    contents = os.path.join(book, "Contents")
    for name in sorted(os.listdir(contents)):
        if name.endswith(".md"):
            with open(os.path.join(contents, name), encoding="utf-8") as f:
                out.append(f.read())
    return "\n".join(out)


def pdf_editions(book):
    """The names of the editions whose format is pdf (config.yml read
    crudely: `name:` at four spaces, `format: pdf` below it)."""
    names, cur = [], None
    with open(os.path.join(book, "config.yml"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^        (\w[\w-]*):\s*$", line)
            if m:
                cur = m.group(1)
            if cur and re.match(r"^\s+format:\s*pdf\s*$", line):
                names.append(cur)
    return names


def lines_of(pdf):
    """Per page: (text, xMin, yMin, xMax, yMax) of each line, in order."""
    r = run(["pdftotext", "-bbox-layout", pdf, "-"])
    root = ET.fromstring(re.sub(r"<!DOCTYPE[^>]*>", "", r.stdout)
                         .replace('xmlns="http://www.w3.org/1999/xhtml"', ""))
    pages = []
    for page in root.iter("page"):
        lines = []
        for line in page.iter("line"):
            words = [w.text or "" for w in line.iter("word")]
            box = [float(line.get(k)) for k in ("xMin", "yMin", "xMax",
                                                  "yMax")]
            lines.append(("".join(words) if all(CJK.search(w) for w in words)
                          else " ".join(words), *box))
        pages.append((float(page.get("height")), lines))
    return pages


def check_pdf(pdf, book, src, msgs):
    name = os.path.basename(book)
    text = run(["pdftotext", pdf, "-"]).stdout
    want = collections.Counter(CJK.findall(src))
    got = collections.Counter(CJK.findall(text))
    missing = {c: n - got[c] for c, n in want.items() if got[c] < n}
    total = sum(want.values())
    lost = sum(missing.values())
    if not total:
        fail(msgs, name, 1, "the sources hold no Han or kana")
    elif lost:
        fail(msgs, name, 1, f"recall {100 * (total - lost) / total:.2f} %: "
             f"missing {''.join(sorted(missing))[:60]}")
    pages = lines_of(pdf)
    body = [ln for _, lines in pages for ln in lines if CJK.search(ln[0])]
    heights = collections.Counter(round(ln[4] - ln[2], 1) for ln in body)
    body_h = heights.most_common(1)[0][0] if heights else 0
    rights = collections.Counter(round(ln[3], 1) for ln in body
                                 if round(ln[4] - ln[2], 1) == body_h)
    right = rights.most_common(1)[0][0] if rights else 0
    checked = ends_cjk = ends_other = 0
    for pno, (height, lines) in enumerate(pages, 1):
        for i, (t, x0, y0, x1, y1) in enumerate(lines):
            t = t.strip()
            if not t or y1 < HEAD_SLACK + 30 or y0 > height - HEAD_SLACK - 30:
                continue  # a running head or folio
            if t[0] in NO_START:
                fail(msgs, name, 2, f"page {pno}: a line starts with "
                     f"{t[0]!r}: {t[:20]!r}")
            if t[-1] in NO_END:
                fail(msgs, name, 2, f"page {pno}: a line ends with "
                     f"{t[-1]!r}: {t[-20:]!r}")
            if round(y1 - y0, 1) != body_h or not CJK.search(t):
                continue
            if x1 > right + 0.5:
                fail(msgs, name, 4, f"page {pno}: a line passes the right "
                     f"edge ({x1:.1f} > {right:.1f}): {t[-20:]!r}")
            nxt = lines[i + 1] if i + 1 < len(lines) else None
            if not nxt or round(nxt[4] - nxt[2], 1) != body_h or \
                    nxt[1] > x0 + 0.5 or nxt[2] - y1 > (y1 - y0) * 0.6 or \
                    not CJK.search(nxt[0]) or nxt[0][:1] in "•·-–0123456789" \
                    or (t[:1] in "•·-–" and nxt[1] < x0 - 0.5):
                continue  # the paragraph's (or list item's) last line
            checked += 1
            if abs(x1 - right) > 0.5:
                fail(msgs, name, 4, f"page {pno}: a line of a paragraph "
                     f"ends at {x1:.1f}, not at the edge {right:.1f}: "
                     f"{t[-20:]!r}")
            if CJK.match(t[-1]) and t[-1] not in PUNCT:
                ends_cjk += 1
            else:
                ends_other += 1
    if checked < 20:
        fail(msgs, name, 4, f"only {checked} paragraph lines to check")
    if ends_cjk < 2 * ends_other:
        fail(msgs, name, 3, f"{ends_cjk} lines end with a Han or kana "
             f"character, {ends_other} otherwise: not breaking between "
             f"characters")
    return checked


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    publish = os.path.abspath(sys.argv[1])
    msgs = []
    for book in sys.argv[2:]:
        book = os.path.abspath(book)
        name = os.path.basename(book)
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, name)
            shutil.copytree(book, copy,
                            ignore=shutil.ignore_patterns("Output"))
            r = run([publish, copy])
            if r.returncode != 0 or "warning:" in book_messages(r.stderr):
                fail(msgs, name, 0, f"publish exited {r.returncode}:\n"
                     f"{r.stderr}")
                continue
            src = source_text(book)
            for ed in pdf_editions(book):
                pdf = os.path.join(copy, "Output", ed, "book.pdf")
                n = check_pdf(pdf, book, src, msgs)
                print(f"{name} {ed}: {n} paragraph lines checked")
    for m in msgs[:40]:
        print(m)
    print(f"test_cjk: {len(msgs)} problems")
    return 1 if msgs else 0


if __name__ == "__main__":
    sys.exit(main())
