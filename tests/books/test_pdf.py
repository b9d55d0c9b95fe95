#!/usr/bin/env python3
"""Publishes the PDF editions of books and checks the files.

usage: test_pdf.py PUBLISH BOOK... [--pdf FILE] [--edition NAME]
                   [--relax-tables] [--theme NAME] [--font-type TYPE]

Every edition whose format is pdf is published into a temporary copy of
its book (nothing is published in place), then:

1. `qpdf --check` exits 0 and prints no WARNING; poppler reads the file
   without "Syntax Error" or "Syntax Warning";
2. pdffonts: every font embedded, subset (a six-capital tag) and with a
   ToUnicode map (emb yes, sub yes, uni yes); with --font-type TYPE, of
   that type (e.g. 'CID Type 0C', a CFF program);
3. the words of every Markdown file of the contents come out of pdftotext
   in order (see source_lines() and match_words() for what is left out);
4. every word lies inside the page, and inside the text area (the page
   minus the edition's margins, mirrored when two_sided) or in the top
   and bottom margin bands (running heads, folios);
5. each line of the printed table of contents, "Title ..... N", carries
   the page label of the page its outline entry points at, and that page
   shows the title; each line of a list of figures or tables (lof, lot)
   is a caption of the sources, in order, and carries the label of the
   first page after the list that shows its label and caption;
6. the outline (bookmarks) has one entry per table of contents line, the
   same titles in order, and one per heading the config's toc.elements
   and toc.deep call for;
7. pdfinfo's Title, Author, Subject (description) and Keywords are the
   config's, exactly (pdf/info holds every character that needs escaping); when the edition has front
   matter, page labels run roman, then arabic from 1 at the body;
8. publishing again, in another folder and time zone, gives the same bytes;
9. with --golden DIR, the text of the books kept under DIR's parent, as
   `pdftotext -layout` lays it out, equals DIR/<book>-<edition>.txt (every
   line and page break pinned); --update rewrites those files.
10. footnotes: on every page, the notes that start at its foot are the
   calls raised in its text, number for number, numbered as the edition
   says (per item, or through the book); none with `footnotes: end`.

--pdf FILE checks FILE against the first BOOK's sources instead of
publishing (check 8 is skipped): for developing the checks against PDFs
made by another program, e.g. WeasyPrint from the html edition.
--theme NAME publishes every edition with that bundled theme
(themed.py sets `theme: NAME` in the copies' config.yml); checks 1 to 10
are the same.
--edition NAME picks the edition whose options apply (default: every pdf
edition; with --pdf, the first one).

A book without a pdf edition is skipped with a note; no pdf edition in
any book is a failure. Exit status: 0 good, 1 problems.
"""
import argparse
import bisect
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import themed  # noqa: E402

try:
    import yaml  # Debian's python3-yaml
except ImportError:  # pragma: no cover
    yaml = None

TIMEOUT = 600
MAX_PER_CHECK = 10  # messages per check and edition; one bug, one screen
EPOCH = "1718000000"  # for books whose publication_date is ~
# PDF_TEST_TRACE=1 prints where each source word was found (check 3).
TRACE = os.environ.get("PDF_TEST_TRACE") == "1"
MM = 72 / 25.4
# Slack around the text area, in pt: poppler's word boxes span the font's
# ascent and descent, which may poke out of the line box a little.
AREA_SLACK = 3.0
PAGE_SLACK = 0.5
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


class Report:
    """Failures, printed as they come, at most MAX_PER_CHECK per check."""

    def __init__(self):
        self.failures = 0
        self.counts = {}

    def fail(self, where, check, msg):
        key = (where, check)
        self.counts[key] = self.counts.get(key, 0) + 1
        self.failures += 1
        if self.counts[key] <= MAX_PER_CHECK:
            print(f"FAIL {where}: check {check}: {msg}")
        elif self.counts[key] == MAX_PER_CHECK + 1:
            print(f"FAIL {where}: check {check}: (more failures not shown)")


def run(cmd, env=None, text=True):
    return subprocess.run(cmd, capture_output=True, text=text, env=env,
                          timeout=TIMEOUT, errors="replace" if text else None)


# ---- the book's configuration --------------------------------------------

def load_config(book):
    with open(os.path.join(book, "config.yml"), encoding="utf-8") as f:
        return yaml.safe_load(f)


def merge(base, over):
    """Easybook's rule: maps merge, everything else replaces."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for k, v in over.items():
            out[k] = merge(base.get(k), v)
        return out
    return over


def edition_options(cfg, name):
    eds = cfg["book"].get("editions") or {}
    chain, seen = [], set()
    while name and name not in seen and name in eds:
        seen.add(name)
        chain.append(eds[name] or {})
        name = (eds[name] or {}).get("extends")
    opts = {}
    for e in reversed(chain):
        opts = merge(opts, {k: v for k, v in e.items() if k != "extends"})
    return opts


def pdf_editions(cfg):
    eds = (cfg.get("book") or {}).get("editions") or {}
    return [n for n in eds
            if str(edition_options(cfg, n).get("format") or "").lower()
            == "pdf"]


def length_pt(v, default_mm):
    """A margin option: a bare number is mm (the guide's rule)."""
    if v is None:
        return default_mm * MM
    m = re.fullmatch(r"\s*([0-9.]+)\s*(mm|cm|in|pt|px)?\s*", str(v))
    if not m:
        raise ValueError(f"cannot read the length {v!r}")
    n, unit = float(m.group(1)), m.group(2) or "mm"
    return n * {"mm": MM, "cm": 10 * MM, "in": 72, "pt": 1,
                "px": 0.75}[unit]


def margins(opts):
    m = opts.get("margin") or {}
    return {"top": length_pt(m.get("top"), 25),
            "bottom": length_pt(m.get("bottom"), 25),
            "inner": length_pt(m.get("inner"), 30),
            "outer": length_pt(m.get("outer", m.get("outter")), 20)}


def default_title(element, lang):
    """The item's title from runtime/book/i18n/titles.<lang>.yml."""
    for code in (lang or "en", "en"):
        path = os.path.join(ROOT, "runtime", "book", "i18n", f"titles.{code}.yml")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                t = (yaml.safe_load(f) or {}).get("title") or {}
            if t.get(element):
                return t[element]
        elif code == "en":
            raise SystemExit(f"test_pdf.py: {path} is missing")
    return ""


# ---- words -----------------------------------------------------------------

LIGATURES = {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi",
             "\ufb04": "ffl"}
# A hyphen between letters joins them, also across a line end: the PDF's
# "hy-\nphen" is "hyphen", and both sides read "well-known" as "wellknown"
# so that a compound broken at its own hyphen still matches.
HYPHEN_JOIN = re.compile(r"(?<=[^\W_])[-\u2010\u00ad](?=[^\W_])")
# Han and kana are a word a character: lines break between them.
CJK = "\u2e80-\u9fff\uf900-\ufaff\U00020000-\U0003ffff"
WORD = re.compile(rf"[{CJK}]|(?:(?![{CJK}])[^\W_])+")


def norm(text):
    for lig, letters in LIGATURES.items():
        text = text.replace(lig, letters)
    text = unicodedata.normalize("NFKC", text).casefold()
    return HYPHEN_JOIN.sub("", text)


def words(text):
    return WORD.findall(norm(text))


FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
FOOTNOTE_DEF = re.compile(r"^\s{0,3}\[\^[^\]]+\]:")
REF_DEF = re.compile(r"^\s{0,3}\[[^\]^][^\]]*\]:\s*\S+")
TABLE_DELIM = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)+\|?\s*$")
INLINE = [
    (re.compile(r"!\[[^\]]*\]\([^)]*\)"), ""),             # images
    (re.compile(r"!\[[^\]]*\]\[[^\]]*\]"), ""),
    (re.compile(r"\[\^[^\]]+\]"), ""),                     # footnote refs
    (re.compile(r"\[([^\]]*)\]\([^)]*\)"), r"\1"),         # link targets
    (re.compile(r"\[([^\]]*)\]\[[^\]]*\]"), r"\1"),
    (re.compile(r"<((?:https?|mailto):[^>]+)>"), r"\1"),   # autolinks
    (re.compile(r"</?[A-Za-z][^>]*>"), ""),                # HTML tags
    (re.compile(r"\{[#.][^}]*\}"), ""),                    # {#id} {.class}
    (re.compile(r"\\(.)"), r"\1"),                         # escapes
]
CODE_SPAN = re.compile(r"(`+[^`]*`+)")
LIST_MARK = re.compile(r"^(\s*(>\s*)*)(?:[-*+]|\d+[.)])\s+(\[[ xX]\]\s+)?")
# Leanpub's admonitions (Easybook's syntax): "W> text" on every line.
ADMONITION = re.compile(r"^\s{0,3}[A-Z]> ?")


def source_lines(text, tables=True):
    """(line number, text as printed) of a Markdown file, crudely.

    Left out, honestly: code fence lines (the code itself stays), link
    targets, images (their alt text becomes a figure caption in some
    themes, not in others), HTML comments and tags, {#id} attributes,
    list markers (the engine draws them, maybe apart from the text),
    reference definitions. Relaxed: footnote definitions (the engine sets
    them at the foot of the page, not at the chapter's end, so their
    order differs), table captions (above or below their table, as the
    theme likes); tables=False leaves tables out too (--relax-tables,
    for an engine that does not set them yet). A table's cells are read
    row by row, the order the typesetter draws them in."""
    lines = uncomment(text).split("\n")
    out, fence, in_note, i, delim = [], None, False, 0, -1
    while i < len(lines):
        line, no = lines[i], i + 1
        i += 1
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and \
                    len(m.group(1)) >= len(fence):
                fence = None
            else:
                out.append((no, line))
            continue
        if m:
            fence = m.group(1)
            continue
        if FOOTNOTE_DEF.match(line):
            in_note = True
            continue
        if in_note:
            if line.startswith(("    ", "\t")) or (
                    not line.strip() and i < len(lines) and
                    lines[i].startswith(("    ", "\t"))):
                continue
            if line.strip():
                in_note = False
        if REF_DEF.match(line):
            continue
        if line.startswith("Table: "):
            continue  # a table's caption, set above or below it
        if "|" in line and i < len(lines) and TABLE_DELIM.match(lines[i]):
            if not tables:
                while i < len(lines) and "|" in lines[i]:
                    i += 1
                continue
            delim = i  # the delimiter row is no text
        if i - 1 == delim:
            continue
        line = LIST_MARK.sub(r"\1", ADMONITION.sub("", line))
        for rx, rep in INLINE:
            line = rx.sub(rep, line)
        # entities are text in code spans (`&#x6A;` prints as written)
        out.append((no, "".join(
            part if part.startswith("`") else html.unescape(part)
            for part in CODE_SPAN.split(line))))
    # A source line that ends in a compound's hyphen ("well-" then "known"
    # on the next line) is one word, as in the PDF's text.
    for k in range(len(out) - 1):
        no, line = out[k]
        if re.search(r"[^\W_]-$", line):
            head, _, rest = out[k + 1][1].lstrip().partition(" ")
            out[k] = (no, line + head)
            out[k + 1] = (out[k + 1][0], rest)
    return out


def uncomment(text):
    """HTML comments out, line numbers kept."""
    return re.sub(r"<!--.*?-->", lambda m: "\n" * m.group(0).count("\n"),
                  text, flags=re.S)


def headings(text):
    """(level, title) of the ATX headings outside code fences."""
    out, fence = [], None
    for line in uncomment(text).split("\n"):
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and \
                    len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        h = re.match(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if h:
            title = h.group(2)
            for rx, rep in INLINE:
                title = rx.sub(rep, title)
            out.append((len(h.group(1)), html.unescape(title).strip()))
    return out


class Item:
    def __init__(self, book, entry, lang):
        self.element = entry.get("element")
        self.title = entry.get("title")
        self.file = None
        self.text = ""
        if entry.get("content"):
            self.file = os.path.join("Contents", entry["content"])
            with open(os.path.join(book, self.file), encoding="utf-8") as f:
                self.text = f.read()
        self.heads = headings(self.text)
        if self.title and self.heads and self.heads[0][0] == 1:
            self.heads[0] = (1, self.title)  # the config's title wins
        if not self.title:
            self.title = next((t for lv, t in self.heads if lv == 1), "") \
                or default_title(self.element, lang)


def book_items(book, cfg):
    b = cfg["book"]
    return [Item(book, e, b.get("language")) for e in b.get("contents") or []]


# ---- reading the PDF -------------------------------------------------------

class Page:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.lines = []  # each a list of (text, xmin, ymin, xmax, ymax)


def read_bbox(pdf, rep, where):
    """Every page's words with their boxes, in the order the content
    stream draws them (-raw: the typesetter's order, so that a listing's
    aligned columns are not read one after the other), cut into lines
    where the baseline moves or the text goes back to the left."""
    r = run(["pdftotext", "-raw", "-bbox", pdf, "-"])
    poppler_noise(r, "pdftotext", rep, where)
    pages = []
    for s in r.stdout.split("\n"):
        m = re.search(r'<page width="([\d.]+)" height="([\d.]+)"', s)
        if m:
            pages.append(Page(float(m.group(1)), float(m.group(2))))
            continue
        m = re.search(r'<word xMin="([-\d.]+)" yMin="([-\d.]+)" '
                      r'xMax="([-\d.]+)" yMax="([-\d.]+)">(.*)</word>', s)
        if not m or not pages:
            continue
        w = (html.unescape(m.group(5)),) + \
            tuple(float(m.group(k)) for k in range(1, 5))
        lines = pages[-1].lines
        if lines:
            last = lines[-1][-1]
            if abs(w[4] - last[4]) < 2 or (w[1] > last[3] - 1 and
                                            w[2] < last[4] and
                                            w[4] > last[2]):
                lines[-1].append(w)
                continue
        lines.append([w])
    return pages


def poppler_noise(r, tool, rep, where):
    for s in (r.stderr or "").splitlines():
        if re.search(r"Syntax (Error|Warning)", s):
            rep.fail(where, 1, f"{tool}: {s.strip()}")


def read_json(pdf):
    r = run(["qpdf", "--json", "--json-key=outlines", "--json-key=pagelabels",
             "--json-key=pages", pdf])
    return json.loads(r.stdout) if r.stdout.strip() else {}


def outline_entries(js):
    """(level, title, page index) in reading order."""
    pages = {p["object"]: i for i, p in enumerate(js.get("pages") or [])}
    out = []

    def walk(nodes, level):
        for n in nodes:
            page = n.get("destpageposfrom1")
            if page:
                page -= 1
            else:
                dest = n.get("dest")
                page = pages.get(dest[0]) if isinstance(dest, list) and \
                    dest else None
            out.append((level, n.get("title") or "", page))
            walk(n.get("kids") or [], level + 1)
    walk(js.get("outlines") or [], 1)
    return out


def roman(n):
    out = ""
    for v, s in ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"),
                 (100, "c"), (90, "xc"), (50, "l"), (40, "xl"), (10, "x"),
                 (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):
        while n >= v:
            out, n = out + s, n - v
    return out


def letters(n):
    return chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1)


def page_labels(js, npages):
    """The label of every page, as a viewer shows it (1, 2... without
    /PageLabels)."""
    ranges = [(r["index"], r["label"]) for r in js.get("pagelabels") or []]
    if not ranges:
        return [str(i + 1) for i in range(npages)], []
    ranges.sort(key=lambda r: r[0])
    labels = []
    for i in range(npages):
        start, lab = max((r for r in ranges if r[0] <= i),
                         key=lambda r: r[0], default=(0, {}))
        n = lab.get("/St", 1) + i - start
        style = lab.get("/S", "")
        num = {"/D": str(n), "/r": roman(n), "/R": roman(n).upper(),
               "/a": letters(n), "/A": letters(n).upper()}.get(style, "")
        prefix = lab.get("/P", "")
        prefix = prefix[2:] if prefix.startswith("u:") else prefix
        labels.append(prefix + num)
    return labels, [(s, lab.get("/S", "")) for s, lab in ranges]


# ---- the checks ------------------------------------------------------------

def check_qpdf(pdf, rep, where):
    r = run(["qpdf", "--check", pdf])
    out = r.stdout + r.stderr
    if r.returncode != 0 or "WARNING" in out:
        bad = [s for s in out.splitlines() if "WARNING" in s or "rror" in s]
        rep.fail(where, 1, f"qpdf --check exit {r.returncode}: "
                 + ("; ".join(bad[:5]) or out.strip()[-300:]))


FONT_TYPE = None  # --font-type


def check_fonts(pdf, rep, where):
    r = run(["pdffonts", pdf])
    poppler_noise(r, "pdffonts", rep, where)
    rows = r.stdout.splitlines()[2:]
    if not rows:
        rep.fail(where, 2, "pdffonts lists no font")
    for row in rows:
        f = row.split()
        if len(f) < 7:
            continue
        emb, sub, uni = f[-5], f[-4], f[-3]
        for what, v in (("emb", emb), ("sub", sub), ("uni", uni)):
            if v != "yes":
                rep.fail(where, 2, f"font {f[0]}: {what} {v}")
        if not re.match(r"[A-Z]{6}\+", f[0]):
            rep.fail(where, 2, f"font {f[0]}: no subset tag")
        kind = " ".join(f[1:-6])
        if FONT_TYPE and kind != FONT_TYPE:
            rep.fail(where, 2, f"font {f[0]}: {kind}, not {FONT_TYPE}")


def in_text_area(page, idx, marg, two_sided):
    left, right = marg["inner"], marg["outer"]
    if two_sided and idx % 2 == 1:  # a verso: the binding is on the right
        left, right = right, left
    return (left, marg["top"], page.w - right, page.h - marg["bottom"])


def check_boxes(pages, marg, two_sided, rep, where):
    for idx, page in enumerate(pages):
        x0, y0, x1, y1 = in_text_area(page, idx, marg, two_sided)
        for line in page.lines:
            for text, a, b, c, d in line:
                pos = f"page {idx + 1}: word {text!r} at " \
                      f"({a:.1f},{b:.1f})-({c:.1f},{d:.1f})"
                if a < -PAGE_SLACK or b < -PAGE_SLACK or \
                        c > page.w + PAGE_SLACK or d > page.h + PAGE_SLACK:
                    rep.fail(where, 4, f"{pos} leaves the page "
                             f"({page.w:.1f} x {page.h:.1f} pt)")
                elif a >= x0 - AREA_SLACK and c <= x1 + AREA_SLACK and \
                        b >= y0 - AREA_SLACK and d <= y1 + AREA_SLACK:
                    pass
                # The margin bands: running heads and folios, over the
                # whole width, the margin boxes' corners included.
                elif d <= y0 + AREA_SLACK or b >= y1 - AREA_SLACK:
                    pass
                else:
                    rep.fail(where, 4, f"{pos} is outside the text area "
                             f"({x0:.1f},{y0:.1f})-({x1:.1f},{y1:.1f}) "
                             "and the margin bands")


def text_stream(pages, marg, two_sided):
    """The PDF's words in pdftotext's reading order, running heads and
    folios (the margin bands) left out, line-end hyphens joined, with the
    page index of each word."""
    parts = []  # (text, page)
    for idx, page in enumerate(pages):
        x0, y0, x1, y1 = in_text_area(page, idx, marg, two_sided)
        for line in page.lines:
            ws = [w for w in line
                  if w[4] > y0 + AREA_SLACK and w[2] < y1 - AREA_SLACK]
            if ws:
                # A kerned pair drawn apart ("V" then "ariable", overlapping)
                # is one word: -raw reads it as two.
                text = ws[0][0]
                for prev, w in zip(ws, ws[1:]):
                    text += ("" if w[1] < prev[3] - 0.05 else " ") + w[0]
                parts.append((text, idx))
    toks, where = [], []
    i = 0
    while i < len(parts):
        text, idx = parts[i]
        # Hyphenated at the line end: join with the next line, even on the
        # next page (the page's foot and head are already left out).
        while re.search(r"[^\W_][-\u2010\u00ad]$", text) and \
                i + 1 < len(parts):
            i += 1
            text = text[:-1] + parts[i][0]
        for w in words(text):
            toks.append(w)
            where.append(idx)
        i += 1
    return toks, where


def match_words(items, toks, tok_page, tables, rep, where):
    """Every source word in order in the PDF's stream. A word is looked
    for within the next 50 words; further on (up to 5000) it is taken only
    where the 4 words after it follow it closely (3 of 4, at most 12 words
    apart each): the PDF adds labels, the table of contents, footnotes and
    table cells between the source's words. A word
    found within 150 words behind counts too (reading order of columns).
    Reports the first missing word of each file."""
    index = {}
    for i, t in enumerate(toks):
        index.setdefault(t, []).append(i)
    src = []  # (word, item, line)
    for it in items:
        if not it.file:
            continue
        for no, line in source_lines(it.text, tables):
            for w in words(line):
                src.append((w, it, no))

    def find(w, lo, hi):
        pos = index.get(w)
        if not pos:
            return None
        k = bisect.bisect_left(pos, lo)
        return pos[k] if k < len(pos) and pos[k] < hi else None

    def confirmed(j, i):
        need = min(4, len(src) - i - 1)
        got, prev = 0, j
        for w, _, _ in src[i + 1:i + 1 + need]:
            p = find(w, prev + 1, prev + 13)
            if p is not None:
                got, prev = got + 1, p
        return got >= need - (1 if need >= 2 else 0)

    cur, anchor, failed, joined = 0, 0, set(), -1
    for i, (w, it, no) in enumerate(src):
        if it in failed or i == joined:
            continue
        # "`figure-` followed" broken after its hyphen reads as one word
        # once the line-end hyphen is joined: take the two together.
        if i + 1 < len(src):
            two = find(w + src[i + 1][0], cur, cur + 50)
            if two is not None and find(w, cur, two) is None:
                cur, joined = two + 1, i + 1
                continue
        pos = index.get(w, [])
        k = bisect.bisect_left(pos, cur)
        near = [p for p in pos[k:k + 60] if p < cur + 50]
        # Nearby first, confirmed or not (the words that follow may be a
        # table's, left out of the sources); then far, only if confirmed.
        hit = next((p for p in near if confirmed(p, i)),
                   near[0] if near else None)
        while hit is None and k < len(pos) and pos[k] < cur + 5000:
            if confirmed(pos[k], i):
                hit = pos[k]
            k += 1
        if hit is None and anchor < cur:
            # Unconfirmed near matches may have led the cursor astray
            # (through a table the sources leave out): try again from the
            # last confirmed match.
            k = bisect.bisect_left(pos, anchor)
            later = [p for p in pos[k:k + 200] if p < anchor + 2000]
            hit = next((p for p in later if confirmed(p, i)),
                       later[0] if later and len(w) > 3 else None)
        if hit is not None and confirmed(hit, i):
            anchor = hit + 1
        if hit is None and find(w, max(0, cur - 150), cur) is not None:
            # Just behind: pdftotext reads aligned columns (a listing's,
            # a TOC's) one after the other, so nearby words may come out
            # of order. The cursor stays.
            continue
        if hit is None:
            failed.add(it)
            ctx = " ".join(s[0] for s in src[max(0, i - 6):i]) + \
                f" [{w}] " + " ".join(s[0] for s in src[i + 1:i + 7])
            page = tok_page[min(cur, len(toks) - 1)] + 1 if toks else 0
            pdf_ctx = " ".join(toks[max(0, cur - 6):cur + 8])
            rep.fail(where, 3, f"{it.file}:{no}: word {w!r} not found in "
                     f"the PDF after page {page}; source: '{ctx}'; the PDF "
                     f"there: '{pdf_ctx}'")
            continue
        if TRACE:
            print(f"trace: {it.file}:{no} {w!r} -> {hit} (page "
                  f"{tok_page[hit] + 1})")
        cur = hit + 1
    return len(src)


TOC_LINE = re.compile(
    r"^\s*(.*?\S)\s*(?:(?:[.\u00b7\u2024\u2026]\s*){2,}|\s{2,})"
    r"([0-9]+|[ivxlcdm]+|[IVXLCDM]+)\s*$")


def toc_lines(pdf, pages, first, last, marg, toc_title):
    """The printed TOC's (title, number) from pages first..last (0-based),
    cropped to the text area's height (no running heads)."""
    p = pages[first]
    top, height = marg["top"], p.h - marg["top"] - marg["bottom"]
    r = run(["pdftotext", "-layout", "-f", str(first + 1), "-l",
             str(last + 1), "-x", "0", "-y", str(int(top)), "-W",
             str(int(p.w) + 1), "-H", str(int(height) + 1), pdf, "-"])
    out, pending = [], ""
    for s in r.stdout.replace("\f", "\n").split("\n"):
        if not s.strip() or letters_of(s) == letters_of(toc_title):
            pending = ""
            continue
        m = TOC_LINE.match(s)
        if m:
            out.append(((pending + " " + m.group(1)).strip(), m.group(2)))
            pending = ""
        else:
            pending = (pending + " " + s.strip()).strip()  # a wrapped title
    return out


def letters_of(text):
    """The letters and digits alone: letter-spaced small capitals come out
    of pdftotext as "TA B L E O F", which is still the title."""
    return "".join(words(text))


def contained(a, b):
    """Does text a hold text b, or b hold a (letters and digits only)?"""
    a, b = letters_of(a), letters_of(b)
    return bool(a and b) and (a in b or b in a)


def expected_toc(items, opts):
    toc = opts.get("toc") or {}
    elements = toc.get("elements") or ["appendix", "chapter"]
    deep = toc.get("deep") or 2
    out = []
    for it in items:
        if it.element not in elements:
            continue
        own = [t for lv, t in it.heads if lv <= deep]
        out += own or ([it.title] if it.title else [])
    return out


def check_toc(pdf, pages, js, labels, items, opts, cfg, rep, where):
    marg = margins(opts)
    outline = outline_entries(js)
    # 6: the outline against the sources
    expect = expected_toc(items, opts)
    got = [t for _, t, _ in outline]
    if len(expect) != len(got):
        rep.fail(where, 6, f"the outline has {len(got)} entries, the "
                 f"config's toc calls for {len(expect)}: expected "
                 f"{expect[:8]}..., got {got[:8]}...")
    for e, g in zip(expect, got):
        if not contained(e, g):
            rep.fail(where, 6, f"outline entry {g!r} where the sources "
                     f"have the heading {e!r}")
            break
    for lv, t, p in outline:
        if p is None:
            rep.fail(where, 6, f"outline entry {t!r} points at no page")
    toc_items = [it for it in items if it.element == "toc"]
    if not toc_items:
        return
    title = toc_items[0].title
    starts = [i for i, p in enumerate(pages)
              if any(letters_of(" ".join(w[0] for w in line)) ==
                     letters_of(title) for line in p.lines)]
    if not starts:
        rep.fail(where, 5, f"no page shows the table of contents' title "
                 f"{title!r}")
        return
    first = starts[0]
    body = [p for _, _, p in outline if p is not None and p > first]
    # the lists of figures and tables may follow the TOC before the body
    body += [p for p in float_list_starts(pages, items) if p > first]
    last = min(body) - 1 if body else first
    lines = toc_lines(pdf, pages, first, last, marg, title)
    if len(lines) != len(outline):
        rep.fail(where, 6, f"the table of contents (pages {first + 1}-"
                 f"{last + 1}) has {len(lines)} lines, the outline "
                 f"{len(outline)} entries: TOC {[t for t, _ in lines][:6]}"
                 f"..., outline {got[:6]}...")
    page_text = {}
    for (ttl, num), (lv, otitle, p) in zip(lines, outline):
        if not contained(ttl, otitle):
            rep.fail(where, 6, f"TOC line {ttl!r} where the outline has "
                     f"{otitle!r}")
            continue
        if p is None:
            continue
        if num != labels[p]:
            rep.fail(where, 5, f"TOC line {ttl!r} says page {num}, its "
                     f"heading is on page {labels[p]} (page {p + 1} of the "
                     "file)")
        if p not in page_text:
            r = run(["pdftotext", "-f", str(p + 1), "-l", str(p + 1), pdf,
                     "-"])
            page_text[p] = letters_of(r.stdout)
        if letters_of(otitle) not in page_text[p]:
            rep.fail(where, 5, f"page {p + 1} (label {labels[p]}), where "
                     f"the outline sends {otitle!r}, does not show it")


FIGURE_SRC = re.compile(r"^\s{0,3}!\[\s*([^\]]*?)\s*\]\([^)]*\)\s*$")
TABLE_SRC = re.compile(r"^\s{0,3}Table:\s*(.*?)\s*(\{#[^}]*\})?\s*$")


def float_captions(items, kind):
    """The captions of the book's figures (a paragraph holding only an
    image, alt text not '*') or tables ('Table: caption'), in order."""
    out = []
    for it in items:
        fenced = False
        for line in it.text.split("\n"):
            if FENCE.match(line):
                fenced = not fenced
            if fenced:
                continue
            m = (FIGURE_SRC if kind == "lof" else TABLE_SRC).match(line)
            if m and m.group(1) != "*":
                out.append(m.group(1))
    return out


def page_shows(pages, title):
    """The pages (0-based) with a line reading title."""
    want = letters_of(title)
    return [i for i, p in enumerate(pages)
            if any(letters_of(" ".join(w[0] for w in line)) == want
                   for line in p.lines)]


def float_list_starts(pages, items):
    out = []
    for it in items:
        if it.element in ("lof", "lot"):
            out += page_shows(pages, it.title)[:1]
    return out


def check_float_lists(pdf, pages, js, labels, items, opts, rep, where):
    """5, for the lists of figures and tables: one line per figure or
    table of the sources, its caption in order, and its number the label
    of the page that shows that label and caption (after the list)."""
    marg = margins(opts)
    texts = None
    outline = [p for _, _, p in outline_entries(js) if p is not None]
    for it in items:
        if it.element not in ("lof", "lot"):
            continue
        starts = page_shows(pages, it.title)
        if not starts:
            rep.fail(where, 5, f"no page shows the {it.element}'s title "
                     f"{it.title!r}")
            continue
        first = starts[0]
        after = [p for p in outline + float_list_starts(pages, items)
                 if p > first]
        last = min(after) - 1 if after else first
        lines = toc_lines(pdf, pages, first, last, marg, it.title)
        want = float_captions(items, it.element)
        if len(lines) != len(want):
            rep.fail(where, 5, f"the {it.element} (pages {first + 1}-"
                     f"{last + 1}) has {len(lines)} lines, the sources "
                     f"{len(want)} captions: {[t for t, _ in lines][:6]} "
                     f"vs {want[:6]}")
        if texts is None:
            r = run(["pdftotext", pdf, "-"])
            texts = [letters_of(t) for t in r.stdout.split("\f")]
        for (ttl, num), cap in zip(lines, want):
            if not contained(ttl, cap):
                rep.fail(where, 5, f"{it.element} line {ttl!r} where the "
                         f"sources have the caption {cap!r}")
                continue
            # the caption's own line, with its label or (a table whose
            # caption the theme prints without it) alone; else a caption
            # over several lines
            whole = {letters_of(ttl), letters_of(cap)}
            shown = [p for p in range(last + 1, len(pages))
                     if any(letters_of(" ".join(w[0] for w in line)) in whole
                            for line in pages[p].lines)] or \
                [p for p in range(last + 1, len(texts))
                 if letters_of(ttl) in texts[p]]
            if not shown:
                rep.fail(where, 5, f"no page after the {it.element} shows "
                         f"{ttl!r}")
            elif num != labels[shown[0]]:
                rep.fail(where, 5, f"{it.element} line {ttl!r} says page "
                         f"{num}, it is on page {labels[shown[0]]} (page "
                         f"{shown[0] + 1} of the file)")


def check_info(pdf, js, npages, labels, ranges, items, cfg, rep, where):
    r = run(["pdfinfo", pdf])
    poppler_noise(r, "pdfinfo", rep, where)
    info = dict(re.findall(r"^(\w[\w ]*?):\s+(.*)$", r.stdout, re.M))
    def text(v):  # a string, or a list of strings joined as publish does
        return ", ".join(map(str, v)) if isinstance(v, list) else v

    for key, want in (("Title", cfg["book"].get("title")),
                      ("Author", cfg["book"].get("author")),
                      ("Subject", text(cfg["book"].get("description"))),
                      ("Keywords", text(cfg["book"].get("keywords")))):
        if want and info.get(key) != str(want):
            rep.fail(where, 7, f"pdfinfo {key} is {info.get(key)!r}, the "
                     f"config says {want!r}")
    body = next((i for i, it in enumerate(items)
                 if it.element in ("part", "chapter")), None)
    front = [it for it in items[:body or 0] if it.element != "cover"]
    if not front:
        return
    styles = [s for _, s in ranges]
    if not ranges:
        rep.fail(where, 7, "the edition has front matter ("
                 + ", ".join(it.element for it in front)
                 + ") but the PDF has no page labels")
        return
    if "/r" not in styles or "/D" not in styles or \
            styles.index("/r") > styles.index("/D"):
        rep.fail(where, 7, f"page label styles {styles}: front matter in "
                 "lower-case roman, then the body in arabic, expected")
    # The body starts at page 1: the first part's or chapter's outline
    # entry, when it has one, lands on the page labelled 1.
    first = items[body]
    for lv, t, p in outline_entries(js):
        if p is not None and first.title and \
                contained(first.title, t):
            if labels[p] != "1":
                rep.fail(where, 7, f"the body's first page ({t!r}) is "
                         f"labelled {labels[p]!r}, not 1")
            break


def publish(publish_bin, book, edition, env):
    r = run([publish_bin, "-q", book, edition], env=env)
    pdf = os.path.join(book, "Output", edition, "book.pdf")
    return r, pdf


FOOTNOTE_REF = re.compile(r"\[\^([^\]]+)\](?!:)")


def check_footnotes(pages, items, opts, marg, two_sided, rep, where):
    """Check 10: footnotes stand at the foot of the page that calls them.
    A call is a number raised after a word; a note starts its line with
    "N.", at the text's left edge, in a smaller size than the page's
    text. On every page the notes started are the calls made, number for
    number; there are as many as the Markdown defines, numbered from 1 in
    each item, or through the book with `footnote_numbering: book`. With
    `footnotes: end` no note stands at a page's foot."""
    per_item = []
    for it in items:
        if not it.file:
            continue
        # (examples of the syntax in code blocks are not notes)
        text = re.sub(r"(?ms)^ {0,3}(```+|~~~+).*?^ {0,3}\1[ \t]*$", "",
                      uncomment(it.text))
        defs = set(re.findall(r"(?m)^\s{0,3}\[\^([^\]]+)\]:", text))
        called = []
        for m in FOOTNOTE_REF.finditer(text):
            if m.group(1) in defs and m.group(1) not in called:
                called.append(m.group(1))
        per_item.append(len(called))
    at_end = opts.get("footnotes", "page") == "end"
    if opts.get("footnote_numbering", "item") == "book":
        expected = [str(i + 1) for i in range(sum(per_item))]
    else:
        expected = [str(i + 1) for k in per_item for i in range(k)]
    found = []
    for idx, page in enumerate(pages):
        heights = sorted(w[4] - w[2] for line in page.lines for w in line)
        if not heights:
            continue
        body = heights[len(heights) // 2]
        # notes start at the text area's left edge (code is indented)
        left = in_text_area(page, idx, marg, two_sided)[0]
        calls, notes = [], []
        for line in page.lines:
            for prev, w in zip(line, line[1:]):
                if re.fullmatch(r"\d+", w[0]) and w[1] - prev[3] < 0.6 and \
                        w[4] < prev[4] - 1:
                    calls.append(w[0])
                    # the calling word is text: on a page mostly of code,
                    # smaller than the text, the median is the code's
                    body = max(body, prev[4] - prev[2])
        for line in page.lines:
            first = line[0]
            if re.fullmatch(r"\d+\.", first[0]) and len(line) > 1 and \
                    first[4] - first[2] < body * 0.92 and \
                    abs(first[1] - left) < 1:
                notes.append(first[0][:-1])
        found += notes
        if not at_end and sorted(calls) != sorted(notes):
            rep.fail(where, 10, f"page {idx + 1}: footnote calls "
                     f"{sorted(calls)} but notes {sorted(notes)} at its foot")
    if at_end:
        if found:
            rep.fail(where, 10, f"footnotes: end, but notes {found} stand "
                     "at the feet of pages")
    elif found != expected:
        rep.fail(where, 10, f"the notes at the pages' feet are numbered "
                 f"{found}, the Markdown's footnotes call for {expected}")


def check_pdf(pdf, book, cfg, edition, rep, tables=True):
    where = f"{os.path.basename(os.path.normpath(book))}/{edition}"
    opts = edition_options(cfg, edition)
    with open(pdf, "rb") as f:
        if f.read(5) != b"%PDF-":
            rep.fail(where, 1, f"{pdf} is not a PDF file")
            return
    items = book_items(book, cfg)
    check_qpdf(pdf, rep, where)
    check_fonts(pdf, rep, where)
    marg = margins(opts)
    two_sided = opts.get("two_sided", True) is not False
    pages = read_bbox(pdf, rep, where)
    toks, tok_page = text_stream(pages, marg, two_sided)
    nsrc = match_words(items, toks, tok_page, tables, rep, where)
    check_boxes(pages, marg, two_sided, rep, where)
    js = read_json(pdf)
    labels, ranges = page_labels(js, len(pages))
    check_toc(pdf, pages, js, labels, items, opts, cfg, rep, where)
    check_float_lists(pdf, pages, js, labels, items, opts, rep, where)
    check_footnotes(pages, items, opts, marg, two_sided, rep, where)
    check_info(pdf, js, len(pages), labels, ranges, items, cfg, rep, where)
    print(f"{where}: {len(pages)} pages, {nsrc} source words, "
          f"{len(toks)} PDF words, {len(outline_entries(js))} outline "
          f"entries, page labels {[s for _, s in ranges] or 'none'}")


def check_golden(pdf, book, ed, golden, update, rep, where):
    """9. The golden file: the whole text as pdftotext -layout lays it out,
    page by page, so a change of any line or page break shows (only for
    the books kept under the golden folder's parent)."""
    root = os.path.abspath(os.path.join(golden, os.pardir))
    if not os.path.abspath(book).startswith(root + os.sep):
        return
    name = f"{os.path.basename(os.path.normpath(book))}-{ed}.txt"
    path = os.path.join(golden, name)
    text = run(["pdftotext", "-layout", pdf, "-"]).stdout
    if update:
        os.makedirs(golden, exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"wrote {path}")
        return
    if not os.path.exists(path):
        rep.fail(where, 9, f"no golden text {path} (run with --update)")
        return
    with open(path, encoding="utf-8") as f:
        want = f.read()
    if text != want:
        got_l, want_l = text.split("\n"), want.split("\n")
        k = next((i for i in range(min(len(got_l), len(want_l)))
                  if got_l[i] != want_l[i]), min(len(got_l), len(want_l)))
        page = want[:sum(len(x) + 1 for x in want_l[:k])].count("\f") + 1
        rep.fail(where, 9, f"the text differs from {name} at line {k + 1} "
                 f"(page {page}):\n  got:  {got_l[k] if k < len(got_l) else '(end)'!r}"
                 f"\n  want: {want_l[k] if k < len(want_l) else '(end)'!r}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("publish")
    ap.add_argument("books", nargs="+")
    ap.add_argument("--pdf", help="check this PDF instead of publishing")
    ap.add_argument("--edition")
    ap.add_argument("--relax-tables", action="store_true",
                    help="leave tables out of check 3")
    ap.add_argument("--golden", help="folder of golden page texts "
                    "(pdftotext -layout) of the books under its parent")
    ap.add_argument("--update", action="store_true",
                    help="rewrite the golden texts instead of comparing")
    ap.add_argument("--theme", help="publish with this bundled theme")
    ap.add_argument("--font-type", help="the type pdffonts must give "
                    "every font, e.g. 'CID Type 0C'")
    a = ap.parse_args()
    global FONT_TYPE
    FONT_TYPE = a.font_type
    if yaml is None:
        print("test_pdf.py: python3's yaml module is missing: install "
              "python3-yaml (scripts/install-deps.sh --test)")
        return 1
    rep, checked = Report(), 0
    env = dict(os.environ, SOURCE_DATE_EPOCH=EPOCH, TZ="UTC", LC_ALL="C")
    env2 = dict(env, TZ="Asia/Tokyo", LC_ALL="C.UTF-8")
    with tempfile.TemporaryDirectory(prefix="octavo-pdf-") as tmp:
        for n, book in enumerate(a.books):
            cfg = load_config(book)
            eds = pdf_editions(cfg)
            if a.edition:
                eds = [e for e in eds if e == a.edition]
            if not eds:
                print(f"note: {book}: no pdf edition, skipped")
                continue
            if a.pdf:
                check_pdf(a.pdf, book, cfg, eds[0], rep,
                          not a.relax_tables)
                checked += 1
                break
            copy = os.path.join(tmp, f"{n}", os.path.basename(
                os.path.normpath(book)))
            other = os.path.join(tmp, f"{n}-again", "elsewhere")
            shutil.copytree(book, copy, ignore=shutil.ignore_patterns(
                "Output"))
            shutil.copytree(book, other, ignore=shutil.ignore_patterns(
                "Output"))
            if a.theme:
                themed.use_theme(copy, a.theme)
                themed.use_theme(other, a.theme)
            for ed in eds:
                checked += 1
                where = f"{os.path.basename(os.path.normpath(book))}/{ed}"
                r, pdf = publish(a.publish, copy, ed, env)
                if r.returncode != 0 or not os.path.exists(pdf):
                    rep.fail(where, 0, f"publish exited {r.returncode}: "
                             f"{r.stderr.strip()[-500:]}")
                    continue
                check_pdf(pdf, copy, cfg, ed, rep, not a.relax_tables)
                if a.golden:
                    check_golden(pdf, book, ed, a.golden, a.update, rep,
                                 where)
                r2, pdf2 = publish(a.publish, other, ed, env2)
                if r2.returncode != 0 or not os.path.exists(pdf2):
                    rep.fail(where, 8, f"the second publish exited "
                             f"{r2.returncode}: {r2.stderr.strip()[-300:]}")
                else:
                    with open(pdf, "rb") as f1, open(pdf2, "rb") as f2:
                        b1, b2 = f1.read(), f2.read()
                    if b1 != b2:
                        k = next((i for i in range(min(len(b1), len(b2)))
                                  if b1[i] != b2[i]), min(len(b1), len(b2)))
                        rep.fail(where, 8, "publishing again (another "
                                 "folder, time zone and locale) gave other "
                                 f"bytes: {len(b1)} vs {len(b2)} bytes, "
                                 f"first difference at byte {k}: "
                                 f"{b1[max(0, k - 20):k + 20]!r}")
    if not checked:
        print("FAIL: none of the books has a pdf edition")
        return 1
    if rep.failures:
        print(f"{rep.failures} problem(s)")
        return 1
    print("all PDF checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
