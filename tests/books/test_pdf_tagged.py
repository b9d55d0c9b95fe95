#!/usr/bin/env python3
"""Tagged PDF (PDF/UA-1's requirements) in the PDF editions.

usage: test_pdf_tagged.py PUBLISH BOOK_DIR[:EDITION]...

Each book is copied to a temporary folder and its pdf edition (the first
one, or EDITION) published twice: as configured (tagged, the default),
with its XHTML (--xhtml), and with pdf_tagged: false. Checked:

  - the structure tree read back by poppler (pdfinfo -struct-text) holds
    the text of the XHTML's body in its order (a footnote's after the
    paragraph that calls it): recall and order (the longest common
    subsequence over the words found) both at least 99 %;
  - every page's content stream (qpdf --qdf): no text-showing operator
    (Tj, TJ, ', ") and no XObject drawn (Do) outside a marked-content
    sequence with an MCID or an /Artifact one; BDC/BMC and EMC balanced;
  - the catalog: /MarkInfo /Marked true, /Lang, /ViewerPreferences
    /DisplayDocTitle true, /StructTreeRoot with a /ParentTree; the XMP
    metadata with pdfuaid:part 1 and dc:title; every page /Tabs /S and
    /StructParents; every /Figure element with a non-empty /Alt, every
    /TH with /A << /O /Table /Scope >>, every /Note with an /ID; every
    link annotation with a /StructParent, and an OBJR naming it;
  - a /Figure for each image with alt text, an artifact for each with
    an empty one; a /Lang on an element for each element of the XHTML
    in another language than the document's;
  - qpdf --check clean; pdf_tagged: false gives an untagged PDF
    (pdfinfo: Tagged: no) with the same pages.
"""
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL " + msg)


def run(args):
    r = subprocess.run(args, capture_output=True, timeout=300)
    if r.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), r.returncode,
                                                r.stderr.decode(errors="replace")))
    return r.stdout


# ---- words ---------------------------------------------------------------

CJK_SPLIT = re.compile(r"([\u3005-\u3007\u3041-\u309f\u30a1-\u30ff"
                       r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff])")


def words(text):
    text = text.replace("\u00ad", "").replace("\ufb01", "fi").replace(
        "\ufb02", "fl")
    out = []
    for w in re.split(r"[\s\u00a0\u202f\u2009]+", text.lower()):
        w = re.sub(r"[^\w]", "", w)
        # Han and kana have no spaces between words: one character a word,
        # as the lines of a paragraph split them anywhere
        out.extend(t for t in CJK_SPLIT.split(w) if t)
    return out


def xhtml_words(path):
    """the body's words in reading order: a footnote's (a span of class
    footnote, set at the page foot) after the paragraph, item or cell that
    calls it, where the structure tree puts its Note"""
    ns = "{http://www.w3.org/1999/xhtml}"
    blocks = {ns + t for t in ("p", "h1", "h2", "h3", "h4", "h5", "h6",
                               "li", "td", "th", "dt", "dd")}
    root = ET.parse(path).getroot()
    body = root.find(ns + "body")
    parts = []
    pending = [[]]  # notes waiting for the end of their block

    def walk(el, out):
        # what a browser would not show either
        if el.tag in (ns + "script", ns + "style", ns + "head"):
            return
        if "footnote" in (el.get("class") or "").split():
            note = []
            walk_inner(el, note)
            pending[-1].append(" ".join(note))
            return
        if el.tag in blocks:
            pending.append([])
            walk_inner(el, out)
            out.extend(pending.pop())
            return
        walk_inner(el, out)

    def walk_inner(el, out):
        if el.text:
            out.append(el.text)
        for k in el:
            walk(k, out)
            if k.tail:
                out.append(k.tail)

    walk(body, parts)
    parts.extend(pending.pop())
    return words(" ".join(parts))


def xhtml_facts(path):
    """images with alt text, images without, elements whose language is
    not the document's"""
    ns = "{http://www.w3.org/1999/xhtml}"
    xml_lang = "{http://www.w3.org/XML/1998/namespace}lang"
    root = ET.parse(path).getroot()
    doc_lang = root.get("lang") or root.get(xml_lang)
    alt = [i.get("alt", "") for i in root.iter(ns + "img")]
    other = [e for e in root.find(ns + "body").iter()
             if (e.get("lang") or e.get(xml_lang) or doc_lang) != doc_lang]
    return sum(1 for a in alt if a), sum(1 for a in alt if not a), len(other)


def struct_words(pdf):
    out = run(["pdfinfo", "-struct-text", pdf]).decode("utf-8", "replace")
    strings = []
    for line in out.splitlines():
        m = re.match(r'\s*"(.*)"\s*$', line)
        if m:
            strings.append(m.group(1))
    text = " ".join(strings)
    # a word hyphenated at a line's end is two pieces
    text = re.sub(r"(\w)[-\u2010] (\w)", r"\1\2", text)
    return words(text)


def compare(ref, got):
    """recall: the share of ref's words found in got (as a multiset);
    order: the longest common subsequence over those found."""
    from collections import Counter
    rc, gc = Counter(ref), Counter(got)
    found = sum(min(n, gc[w]) for w, n in rc.items())
    sm = difflib.SequenceMatcher(None, ref, got, autojunk=False)
    lcs = sum(b.size for b in sm.get_matching_blocks())
    recall = found / max(1, len(ref))
    order = lcs / max(1, found)
    return recall, order


# ---- the PDF's objects (qpdf --json) -------------------------------------

class Pdf:
    def __init__(self, path):
        j = json.loads(run(["qpdf", "--json=2", "--json-stream-data=inline",
                            "--decode-level=generalized", path]))
        self.objs = {}
        self.trailer = None
        for k, v in j["qpdf"][1].items():
            if k == "trailer":
                self.trailer = v["value"]
            elif k.startswith("obj:"):
                self.objs[k[4:]] = v

    def get(self, v):
        """the value behind a reference (a stream's dictionary)"""
        if isinstance(v, str) and re.fullmatch(r"\d+ \d+ R", v):
            o = self.objs.get(v)
            if o is None:
                return None
            return o["stream"]["dict"] if "stream" in o else o["value"]
        return v

    def stream_data(self, ref):
        import base64
        o = self.objs[ref]
        return base64.b64decode(o["stream"].get("data", ""))

    def dicts(self):
        for ref, o in self.objs.items():
            v = o["stream"]["dict"] if "stream" in o else o.get("value")
            if isinstance(v, dict):
                yield ref, v


def text_of(v):
    if isinstance(v, str) and v.startswith("u:"):
        return v[2:]
    if isinstance(v, str) and v.startswith("b:"):
        b = bytes.fromhex(v[2:])
        if b[:2] == b"\xfe\xff":
            return b[2:].decode("utf-16-be", "replace")
        return b.decode("latin-1")
    return v if isinstance(v, str) else ""


# ---- content streams -------------------------------------------------------

TOKEN = re.compile(rb"""
    (?P<ws>[\s]+)
  | (?P<comment>%[^\r\n]*)
  | (?P<lit>\()
  | (?P<hex><[0-9A-Fa-f\s]*>)
  | (?P<dopen><<) | (?P<dclose>>>)
  | (?P<aopen>\[) | (?P<aclose>\])
  | (?P<name>/[^\s/\[\]()<>{}%]*)
  | (?P<num>[+-]?(?:\d+\.?\d*|\.\d+))
  | (?P<op>[A-Za-z'"*]+\d?\*?|[A-Za-z'"]+)
""", re.X)


def literal_end(data, i):
    """index after the literal string starting at data[i] == '('"""
    depth = 0
    n = len(data)
    while i < n:
        c = data[i]
        if c == 0x5C:  # backslash
            i += 2
            continue
        if c == 0x28:
            depth += 1
        elif c == 0x29:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def check_stream(data, where):
    """operators that show text or draw XObjects must stand in marked
    content with an MCID, or in an artifact"""
    stack = []  # None: other, "mcid", "artifact"
    operands = []
    art_images = 0
    i, n = 0, len(data)
    bad = 0
    while i < n:
        if data[i] == 0x28:
            j = literal_end(data, i)
            operands.append(b"()")
            i = j
            continue
        m = TOKEN.match(data, i)
        if not m:
            i += 1
            continue
        i = m.end()
        kind = m.lastgroup
        tok = m.group(0)
        if kind in ("ws", "comment"):
            continue
        if kind != "op":
            operands.append(tok)
            continue
        op = tok
        if op == b"BMC":
            stack.append("artifact" if operands and operands[-1] == b"/Artifact"
                         else None)
        elif op == b"BDC":
            tag = operands[0] if operands else b""
            stack.append("artifact" if tag == b"/Artifact"
                         else "mcid" if b"/MCID" in operands else None)
        elif op == b"EMC":
            if not stack:
                fail("%s: EMC without a sequence open" % where)
                return art_images
            stack.pop()
        elif op in (b"Tj", b"TJ", b"'", b'"', b"Do"):
            if op == b"Do" and "artifact" in stack and "mcid" not in stack:
                art_images += 1
            if not any(stack):
                bad += 1
                if bad <= 3:
                    fail("%s: %s outside marked content or an artifact"
                         % (where, op.decode()))
        operands = []
    if stack:
        fail("%s: %d marked-content sequences left open" % (where, len(stack)))
    return art_images


def check_streams(pdf_path, where):
    """the number of images drawn as artifacts"""
    with tempfile.TemporaryDirectory() as t:
        q = os.path.join(t, "q.pdf")
        subprocess.run(["qpdf", "--qdf", "--object-streams=disable",
                        pdf_path, q], check=False, capture_output=True)
        data = open(q, "rb").read()
    pages = art_images = 0
    for m in re.finditer(rb"%% Contents for page (\d+)\n(?:%[^\n]*\n)*"
                         rb"\d+ 0 obj\n<<.*?>>\nstream\n(.*?)endstream",
                         data, re.S):
        pages += 1
        art_images += check_stream(m.group(2), "%s: page %s"
                                   % (where, m.group(1).decode()))
    if not pages:
        fail("%s: no content streams found" % where)
    return art_images


# ---- the document's entries ------------------------------------------------

def check_objects(path, where):
    p = Pdf(path)
    cat = p.get(p.trailer["/Root"])
    mark = p.get(cat.get("/MarkInfo")) or {}
    if mark.get("/Marked") is not True:
        fail("%s: no /MarkInfo << /Marked true >>" % where)
    if not text_of(cat.get("/Lang", "")):
        fail("%s: no /Lang in the catalog" % where)
    prefs = p.get(cat.get("/ViewerPreferences")) or {}
    if prefs.get("/DisplayDocTitle") is not True:
        fail("%s: no /ViewerPreferences << /DisplayDocTitle true >>" % where)
    root = p.get(cat.get("/StructTreeRoot"))
    if not root or "/ParentTree" not in root:
        fail("%s: no /StructTreeRoot with a /ParentTree" % where)
    meta = cat.get("/Metadata")
    xmp = p.stream_data(meta).decode("utf-8", "replace") if meta else ""
    if not re.search(r"<pdfuaid:part>1</pdfuaid:part>", xmp):
        fail("%s: the XMP metadata lacks pdfuaid:part 1" % where)
    if "<dc:title>" not in xmp:
        fail("%s: the XMP metadata lacks dc:title" % where)
    pages = figures = links = langs = 0
    objr = set()

    def find_objr(v):
        if isinstance(v, dict):
            if v.get("/Type") == "/OBJR":
                objr.add(v.get("/Obj"))
            for x in v.values():
                find_objr(x)
        elif isinstance(v, list):
            for x in v:
                find_objr(x)

    for ref, d in p.dicts():
        find_objr(d)
    for ref, d in p.dicts():
        t = d.get("/Type")
        if t == "/Page":
            pages += 1
            if d.get("/Tabs") != "/S":
                fail("%s: page %s without /Tabs /S" % (where, ref))
            if "/StructParents" not in d:
                fail("%s: page %s without /StructParents" % (where, ref))
        elif (t in (None, "/StructElem") and "/P" in d
              and d.get("/S") == "/Figure"):
            figures += 1
            if not text_of(d.get("/Alt", "")).strip():
                fail("%s: a /Figure (%s) without /Alt" % (where, ref))
        if t in (None, "/StructElem") and "/P" in d and "/Lang" in d:
            langs += 1
        if t in (None, "/StructElem") and "/P" in d and d.get("/S") == "/TH":
            a = p.get(d.get("/A")) or {}
            if a.get("/O") != "/Table" or a.get("/Scope") not in ("/Column",
                                                                 "/Row"):
                fail("%s: a /TH (%s) without /A /Scope" % (where, ref))
        elif t in (None, "/StructElem") and "/P" in d and d.get("/S") == "/Note":
            if not text_of(d.get("/ID", "")):
                fail("%s: a /Note (%s) without /ID" % (where, ref))
        elif d.get("/Subtype") == "/Link":
            links += 1
            if "/StructParent" not in d:
                fail("%s: link annotation %s without /StructParent"
                     % (where, ref))
            elif ref not in objr:
                fail("%s: link annotation %s in no OBJR" % (where, ref))
    print("%s: %d pages, %d figures, %d links" % (where, pages, figures, links))
    return figures, langs


def publish(publish_bin, book, edition, extra):
    run([publish_bin, book, edition, "-q"] + extra)
    out = os.path.join(book, "Output", edition)
    return os.path.join(out, "book.pdf"), os.path.join(out, "book.xhtml")


def first_pdf_edition(book):
    import yaml
    cfg = yaml.safe_load(open(os.path.join(book, "config.yml")))
    eds = cfg["book"]["editions"]
    for name, e in eds.items():
        fmt = e.get("format")
        base = e
        while fmt is None and base.get("extends"):
            base = eds[base["extends"]]
            fmt = base.get("format")
        if fmt == "pdf":
            return name
    return None


def main():
    publish_bin = sys.argv[1]
    for arg in sys.argv[2:]:
        src, _, edition = arg.partition(":")
        name = os.path.basename(os.path.normpath(src))
        with tempfile.TemporaryDirectory() as tmp:
            book = os.path.join(tmp, name)
            shutil.copytree(src, book, ignore=shutil.ignore_patterns("Output"))
            edition = edition or first_pdf_edition(book)
            where = "%s (%s)" % (name, edition)
            pdf, xhtml = publish(publish_bin, book, edition, ["--xhtml"])
            check = subprocess.run(["qpdf", "--check", pdf],
                                   capture_output=True)
            if check.returncode != 0:
                fail("%s: qpdf --check: %s" % (where, check.stdout.decode()))
            info = run(["pdfinfo", pdf]).decode()
            if not re.search(r"^Tagged:\s+yes", info, re.M):
                fail("%s: pdfinfo does not say Tagged: yes" % where)
            recall, order = compare(xhtml_words(xhtml), struct_words(pdf))
            print("%s: structure text recall %.2f %%, order %.2f %%"
                  % (where, recall * 100, order * 100))
            if recall < 0.99 or order < 0.99:
                fail("%s: recall %.4f, order %.4f (< 0.99)"
                     % (where, recall, order))
            art_images = check_streams(pdf, where)
            figures, langs = check_objects(pdf, where)
            described, decorative, other = xhtml_facts(xhtml)
            if figures != described:
                fail("%s: %d /Figure elements for %d images with alt text"
                     % (where, figures, described))
            if art_images < decorative:
                fail("%s: %d images drawn as artifacts, %d have an empty alt"
                     % (where, art_images, decorative))
            if langs < other:
                fail("%s: %d elements with /Lang for %d in another language"
                     % (where, langs, other))
            pages = re.search(r"^Pages:\s+(\d+)", info, re.M).group(1)
            conf = json.dumps(
                {"book": {"editions": {edition: {"pdf_tagged": False}}}})
            pdf2, _ = publish(publish_bin, book, edition,
                              ["--configuration", conf])
            info2 = run(["pdfinfo", pdf2]).decode()
            if not re.search(r"^Tagged:\s+no", info2, re.M):
                fail("%s: pdf_tagged: false is still tagged" % where)
            if re.search(r"^Pages:\s+(\d+)", info2, re.M).group(1) != pages:
                fail("%s: pdf_tagged: false changed the page count" % where)
    if failures:
        print("%d failure(s)" % len(failures))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
