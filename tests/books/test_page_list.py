#!/usr/bin/env python3
"""The printed pages in the e-book (an epub edition's `page_source`).

usage: test_page_list.py PUBLISH SOURCE_DIR

Publishes a copy of the user guide (docs/guide: its `ebook` edition names
`print` as its page source) and checks:

(a) the page-list of the navigation document has one entry a page of the
    PDF, in order, and its labels are the PDF's page labels (qpdf --json:
    roman front matter, then arabic);
(b) every entry leads to a page-break marker (epub:type pagebreak, role
    doc-pagebreak, aria-label the label), and the words after each marker
    are among the first words pdftotext reads on that PDF page: for every
    page where a word starts (a blank page has none to check);
(c) publishing the epub alone (the PDF set, then thrown away: Output/
    keeps no print/) gives the same bytes as publishing print and ebook
    in one run (the PDF's pages reused);
(d) the mistakes are errors at their line of config.yml: a page_source
    that names no edition, one that is not a pdf edition, one on an
    edition that is not an epub.

EPUBCheck on the same EPUB is test_epub.py's (the guide is one of its
books). Exit status: 0 good, 1 problems.
"""
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

sys.dont_write_bytecode = True

ROMAN = [(1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"),
         (90, "xc"), (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"),
         (4, "iv"), (1, "i")]


def roman(n):
    out = ""
    for v, s in ROMAN:
        while n >= v:
            out += s
            n -= v
    return out


def alpha(n):
    s = ""
    while n > 0:
        n -= 1
        s = chr(ord("a") + n % 26) + s
        n //= 26
    return s


def pdf_labels(pdf, npages):
    """The page labels of the PDF, as a viewer shows them."""
    out = subprocess.run(["qpdf", "--json", "--json-key=pagelabels", pdf],
                         capture_output=True, text=True, check=True).stdout
    ranges = json.loads(out)["pagelabels"]
    labels = []
    for i in range(npages):
        r = None
        for cand in ranges:
            if cand["index"] <= i:
                r = cand
        if r is None:
            labels.append(str(i + 1))
            continue
        style = r["label"].get("/S")
        n = r["label"].get("/St", 1) + i - r["index"]
        prefix = r["label"].get("/P", "")
        text = {"/D": str(n), "/r": roman(n), "/R": roman(n).upper(),
                "/a": alpha(n), "/A": alpha(n).upper()}.get(style, "")
        labels.append(prefix + text)
    return labels


def words(text):
    return re.findall(r"\w+", text)


def page_texts(pdf, npages):
    """Each page's text in reading order (-layout: a table's rows stay
    rows), below the running head: the guide's A4 pages have a 25 mm top
    margin, whose head stands above 50 pt."""
    texts = []
    for k in range(1, npages + 1):
        texts.append(subprocess.run(
            ["pdftotext", "-layout", "-f", str(k), "-l", str(k), "-x", "0",
             "-y", "50", "-W", "2000", "-H", "2000", pdf, "-"],
            capture_output=True, text=True, check=True).stdout)
    return texts


def marker_words(doc, ident):
    """The first words after the marker ident in doc (markup dropped)."""
    m = re.search(r'<span[^>]*\bid="%s"[^>]*/>' % re.escape(ident), doc)
    if not m:
        return None, None
    tag = m.group(0)
    rest = doc[m.end():m.end() + 4000]
    rest = re.sub(r'<sup class="footnote-ref">.*?</sup>', " ", rest,
                  flags=re.S)
    rest = re.sub(r"<[^>]*>", " ", rest)
    return tag, words(html.unescape(rest))


def publish(publish_bin, book, editions, expect_ok=True):
    p = subprocess.run([publish_bin, book, *editions, "-q"],
                       capture_output=True, text=True)
    if expect_ok and p.returncode != 0:
        raise SystemExit(f"publish {' '.join(editions)} failed:\n{p.stderr}")
    return p


def check_pages(book, fails):
    pdf = os.path.join(book, "Output", "print", "book.pdf")
    epub = os.path.join(book, "Output", "ebook", "book.epub")
    info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True,
                          check=True).stdout
    npages = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
    labels = pdf_labels(pdf, npages)
    texts = page_texts(pdf, npages)
    z = zipfile.ZipFile(epub)
    nav = z.read("OEBPS/nav.xhtml").decode()
    m = re.search(r'<nav epub:type="page-list".*?</nav>', nav, re.S)
    if not m:
        fails.append("no page-list in nav.xhtml")
        return 0
    entries = re.findall(r'<li><a href="([^"#]+)#([^"]+)">([^<]*)</a></li>',
                         m.group(0))
    got = [html.unescape(e[2]) for e in entries]
    if got != labels:
        fails.append(f"the page-list's labels {got} are not the PDF's "
                     f"{labels}")
    checked = 0
    for k, (file, ident, label) in enumerate(entries):
        if k >= npages:
            break
        doc = z.read("OEBPS/" + file).decode()
        tag, after = marker_words(doc, ident)
        if tag is None:
            fails.append(f"page {label}: no marker #{ident} in {file}")
            continue
        for attr in ('epub:type="pagebreak"', 'role="doc-pagebreak"',
                     f'aria-label="{html.escape(label)}"'):
            if attr not in tag:
                fails.append(f"page {label}: the marker lacks {attr}: {tag}")
        top = words(texts[k])
        if not top or not after:
            continue  # a page with no text: its marker only needs a place
        # the first word after the marker is among the first words of the
        # page (a table's first row holds a few, its header repeated before
        # it) and the next two follow close by (a cell's words may wrap,
        # after a whole row of the other cells' first lines)
        # (code and URLs break after / . - _ ? & =, without a hyphen: a
        # word is found by its first piece)
        probe = [re.match(r"[^/._?&=-]*[/._?&=-]?", w).group(0) or w
                 for w in after[:3]]

        def near(piece, n):
            if piece[-1] not in "/._?&=-":
                return piece in top[:n]  # a whole word
            return any(t.startswith(piece) for t in top[:n])
        found = near(probe[0], 12) and all(near(w, 32) for w in probe)
        if not found:
            fails.append(f"page {label} (PDF page {k + 1}): the marker "
                         f"stands before {' '.join(after[:8])!r}, the page "
                         f"starts {' '.join(top[:20])!r}")
        checked += 1
    if checked < npages * 3 // 4:
        fails.append(f"only {checked} of {npages} pages had words to check")
    return checked


def config_errors(publish_bin, source, tmp, fails):
    cases = [
        ("            page_source:    prnt\n",
         r"page_source names 'prnt', which is not an edition of the book "
         r"\(did you mean 'print'\?\)"),
        ("            page_source:    web\n",
         r"page_source must name a pdf edition.*'web' is an html edition"),
    ]
    for line, want in cases:
        book = os.path.join(tmp, "bad")
        shutil.rmtree(book, ignore_errors=True)
        shutil.copytree(source, book)
        cfg = os.path.join(book, "config.yml")
        text = open(cfg).read()
        text = re.sub(r"( +page_source: +print\n)", line, text, count=1)
        open(cfg, "w").write(text)
        lineno = text[:text.index(line)].count("\n") + 1
        p = publish(publish_bin, book, ["ebook"], expect_ok=False)
        if p.returncode == 0 or not re.search(
                rf"config\.yml:{lineno}:\d+: error: edition 'ebook': {want}",
                p.stderr):
            fails.append(f"{line.strip()}: want an error at config.yml:"
                         f"{lineno}, got:\n{p.stderr}")
    # on a pdf edition
    book = os.path.join(tmp, "bad")
    shutil.rmtree(book, ignore_errors=True)
    shutil.copytree(source, book)
    cfg = os.path.join(book, "config.yml")
    text = open(cfg).read()
    text = text.replace("            format:         pdf\n",
                        "            format:         pdf\n"
                        "            page_source:    print\n", 1)
    open(cfg, "w").write(text)
    p = publish(publish_bin, book, ["print"], expect_ok=False)
    if p.returncode == 0 or not re.search(
            r"config\.yml:\d+:\d+: error: edition 'print': page_source is "
            r"read by epub editions only", p.stderr):
        fails.append(f"page_source on a pdf edition: got:\n{p.stderr}")


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 1
    publish_bin, source_dir = argv[1], argv[2]
    source = os.path.join(source_dir, "docs", "guide")
    fails = []
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        both = os.path.join(tmp, "both")
        shutil.copytree(source, both)
        publish(publish_bin, both, ["print", "ebook"])
        checked = check_pages(both, fails)
        alone = os.path.join(tmp, "alone")
        shutil.copytree(source, alone,
                        ignore=shutil.ignore_patterns("Output"))
        publish(publish_bin, alone, ["ebook"])
        if os.path.exists(os.path.join(alone, "Output", "print")):
            fails.append("publishing ebook alone left Output/print/")
        a = open(os.path.join(alone, "Output", "ebook", "book.epub"),
                 "rb").read()
        b = open(os.path.join(both, "Output", "ebook", "book.epub"),
                 "rb").read()
        if a != b:
            fails.append("the EPUB published alone differs from the one "
                         "published with its print edition")
        config_errors(publish_bin, source, tmp, fails)
    for f in fails:
        print("test_page_list: " + f, file=sys.stderr)
    print(f"test_page_list: {checked} pages checked, "
          f"{'FAILED' if fails else 'ok'}")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
