#!/usr/bin/env python3
"""Print production of the PDF editions: bleed, crop marks, covers, PDF/A.

usage: test_pdf_print.py PUBLISH BOOK_DIR

BOOK_DIR is tests/books/pdf/print. It is copied to a temporary folder,
where its binary files are made (the cover PDF and PNG, the chapter's
half-transparent PNG), and published twice, in two folders. Checked:

print (A5, bleed 3mm, crop_marks, pdf_a):
  - every page: MediaBox = trim + 2 * (bleed + slug), TrimBox the A5 trim
    inside it, BleedBox the trim grown by the bleed (pdfinfo -box);
  - every word inside the trim (pdftotext -bbox), and at the place it has
    relative to the trim in the edition without bleed (cover-pdf);
  - the link's rectangle over its words, the outline's destinations at
    the same place relative to the trim as without bleed;
  - the crop marks: dark pixels in the slug's corners, none in the bleed
    band of a body page (pdftoppm);
  - PDF/A-1b: version 1.4, an /ID, the OutputIntent GTS_PDFA1 with an ICC
    stream, one XMP metadata stream (pdfaid part 1 B, pdfuaid part 1 with
    its extension schema, title, author and dates as
    pdfinfo reads the Info dictionary), links printable (/F 4), no /SMask,
    every font descriptor with /CIDSet and /CapHeight;
cover-png: page 1 shows the image (pdfimages), no text; labels "Cover",
  then "1" at chapter 1; the typographic cover is gone;
cover-pdf: page 1 is cover.pdf's (its text); labels "Cover", "1"; the
  outline points at pages 2 and 3;
all: qpdf --check clean, the same bytes when published again.

What is not checked, for want of a validator in Debian: full PDF/A
conformance (veraPDF is not packaged).
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

A5 = (419.528, 595.276)
BLEED = 3 / 25.4 * 72
SLUG = 24.0
EPS = 0.05

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL " + msg)


def run(args, **kw):
    r = subprocess.run(args, capture_output=True, timeout=120, **kw)
    if r.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), r.returncode,
                                                r.stderr.decode(errors="replace")))
    return r.stdout


# ---- the files the book does not commit --------------------------------

def write_png(path, w, h, alpha):
    rows = bytearray()
    for y in range(h):
        rows.append(0)
        for x in range(w):
            dark = (x // 20 + y // 20) % 2
            rows += bytes((200, 40, 40) if dark else (40, 40, 200))
            if alpha:
                rows.append(128)

    def chunk(kind, data):
        c = struct.pack(">I", len(data)) + kind + data
        return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    head = struct.pack(">IIBBBBB", w, h, 8, 6 if alpha else 2, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) +
                chunk(b"IDAT", zlib.compress(bytes(rows))) + chunk(b"IEND", b""))


def write_cover_pdf(path, text):
    """A one-page PDF in Helvetica, offsets computed here."""
    content = ("BT /F1 30 Tf 50 300 Td (%s) Tj ET" % text).encode()
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 595] "
            b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
            b"<< /Length %d >>\nstream\n" % len(content) + content +
            b"\nendstream",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, o in enumerate(objs):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % (i + 1) + o + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for o in offsets:
        out += b"%010d 00000 n \n" % o
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objs) + 1, xref)
    with open(path, "wb") as f:
        f.write(out)


def prepare(src, dst):
    shutil.copytree(src, dst)
    os.makedirs(os.path.join(dst, "Contents/images"))
    write_png(os.path.join(dst, "Contents/images/square.png"), 300, 200, True)
    tpl = os.path.join(dst, "Resources/Templates")
    os.makedirs(os.path.join(tpl, "cover-png"))
    os.makedirs(os.path.join(tpl, "cover-pdf"))
    write_png(os.path.join(tpl, "cover-png/cover.png"), 300, 400, False)
    write_cover_pdf(os.path.join(tpl, "cover-pdf/cover.pdf"), "COVER FROM PDF")


# ---- reading the PDFs ----------------------------------------------------

def boxes(pdf):
    out = run(["pdfinfo", "-box", "-f", "1", "-l", "999", pdf]).decode()
    pages = {}
    for m in re.finditer(r"^Page\s+(\d+) (\w+):\s+([-\d.]+)\s+([-\d.]+)\s+"
                         r"([-\d.]+)\s+([-\d.]+)", out, re.M):
        pages.setdefault(int(m.group(1)), {})[m.group(2)] = [
            float(m.group(i)) for i in range(3, 7)]
    return pages


def words(pdf, page):
    """(text, xMin, yMin, xMax, yMax) in pdftotext's top-down points."""
    out = run(["pdftotext", "-bbox", "-f", str(page), "-l", str(page), pdf,
               "-"]).decode()
    return [(html_unescape(m.group(5)),) + tuple(float(m.group(i))
                                                for i in range(1, 5))
            for m in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)" '
                                 r'xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)'
                                 r"</word>", out)]


def html_unescape(s):
    return s.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def qpdf_json(pdf):
    return json.loads(run(["qpdf", "--json=2", pdf]))


def objects(j):
    return {k[4:]: v.get("value", v.get("stream", {}).get("dict"))
            for k, v in j["qpdf"][1].items() if k.startswith("obj:")}


def labels(pdf):
    j = json.loads(run(["qpdf", "--json", "--json-key=pagelabels", pdf]))
    return [(e["index"], e["label"]) for e in j["pagelabels"]]


def outline(pdf):
    j = json.loads(run(["qpdf", "--json", "--json-key=outlines", pdf]))
    return [(o["title"], o["destpageposfrom1"], o["dest"]) for o in j["outlines"]]


def near(a, b):
    return abs(a - b) <= EPS


def pgm(pdf, page, dpi):
    """The page as 8-bit gray pixels: (width, height, bytes)."""
    out = run(["pdftoppm", "-r", str(dpi), "-gray", "-f", str(page), "-l",
               str(page), pdf])
    m = re.match(rb"P5\s+(\d+)\s+(\d+)\s+255\s", out)
    return int(m.group(1)), int(m.group(2)), out[m.end():]


# ---- the checks ------------------------------------------------------------

def check_print(pdf, plain):
    off = BLEED + SLUG
    w, h = A5
    bx = boxes(pdf)
    for n, b in sorted(bx.items()):
        want = {"MediaBox": [0, 0, w + 2 * off, h + 2 * off],
                "TrimBox": [off, off, off + w, off + h],
                "BleedBox": [off - BLEED, off - BLEED, off + w + BLEED,
                             off + h + BLEED]}
        for name, v in want.items():
            if not all(near(a, c) for a, c in zip(b.get(name, []), v)) or \
                    name not in b:
                fail("print: page %d %s %s, want %s" % (n, name, b.get(name),
                                                        [round(x, 2) for x in v]))
    if len(bx) != 3:
        fail("print: %d pages, want 3 (cover, two chapters)" % len(bx))
    # every word in the trim; at the place it has without bleed
    mh = h + 2 * off
    for page in (1, 2, 3):
        ws = words(pdf, page)
        for t, x0, y0, x1, y1 in ws:
            if not (off <= x0 and x1 <= off + w and off <= y0 and y1 <= mh - off):
                fail("print: page %d: '%s' outside the trim" % (page, t))
        if page == 1:
            continue  # the typographic cover; cover-pdf has cover.pdf's
        ref = words(plain, page)
        if [t for t, *_ in ws] != [t for t, *_ in ref]:
            fail("print: page %d's words differ from cover-pdf's" % page)
            continue
        for a, b in zip(ws, ref):
            if not (near(a[1] - off, b[1]) and near(a[2] - off, b[2])):
                fail("print: page %d: '%s' at (%.2f, %.2f) from the trim, "
                     "(%.2f, %.2f) without bleed" % (page, a[0], a[1] - off,
                                                     a[2] - off, b[1], b[2]))
                break
    # the link over its words, in PDF coordinates
    objs = objects(qpdf_json(pdf))
    links = [o for o in objs.values()
             if isinstance(o, dict) and o.get("/Subtype") == "/Link"]
    if len(links) != 1:
        fail("print: %d link annotations, want 1" % len(links))
    else:
        x0, y0, x1, y1 = links[0]["/Rect"]
        second = [wd for wd in words(pdf, 2) if wd[0] == "second"]
        if not second:
            fail("print: the link's word 'second' is not on page 2")
        else:
            _, wx0, wy0, wx1, wy1 = second[0]
            if not (x0 - 1 <= wx0 and wx1 <= x1 + 1 and
                    y0 - 1 <= mh - wy1 and mh - wy0 <= y1 + 1):
                fail("print: the link %s is not over 'second' %s" %
                     (links[0]["/Rect"], second[0][1:]))
        if links[0].get("/F") != 4:
            fail("print: PDF/A wants links printable (/F 4), got %s" %
                 links[0].get("/F"))
    # the outline: same place relative to the trim as without bleed
    o1, o2 = outline(pdf), outline(plain)
    if len(o1) != 2 or len(o2) != 2:
        fail("print: outline %s, cover-pdf's %s" % (o1, o2))
    else:
        for a, b in zip(o1, o2):
            if a[1] != b[1] or not near(a[2][3] - off, b[2][3]):
                fail("print: outline '%s' at page %d y %.2f, without bleed "
                     "page %d y %.2f" % (a[0], a[1], a[2][3] - off, b[1],
                                         b[2][3]))
    check_marks(pdf, off)
    check_pdfa(pdf, objs)


def check_marks(pdf, off):
    dpi = 72
    width, height, px = pgm(pdf, 2, dpi)

    def dark(x0, y0, x1, y1):  # a rectangle of pixels, top-down
        return sum(1 for y in range(int(y0), int(y1)) for x in range(int(x0), int(x1))
                   if 0 <= x < width and 0 <= y < height and px[y * width + x] < 128)

    s = dpi / 72
    # the bleed band: between the trim and the bleed box, all around
    band = 0
    for edge in range(4):
        b0, b1 = (off - BLEED) * s + 1, off * s - 1
        if edge == 0:
            band += dark(b0, b0, width - b0, b1)
        elif edge == 1:
            band += dark(b0, height - b1, width - b0, height - b0)
        elif edge == 2:
            band += dark(b0, b0, b1, height - b0)
        else:
            band += dark(width - b1, b0, width - b0, height - b0)
    if band:
        fail("print: %d dark pixels in the bleed band of a body page "
             "(the marks must stay in the slug)" % band)
    # a crop mark in the slug on each trim line, at each corner
    slug = (off - BLEED) * s
    for y in (off * s, height - off * s):
        for x0 in (1, width - slug + 1):
            if dark(x0, y - 2, x0 + slug - 2, y + 2) < 5:
                fail("print: no crop mark in the slug at (%d, %d)" % (x0, y))


def check_pdfa(pdf, objs):
    info = run(["pdfinfo", pdf]).decode()
    if not re.search(r"^PDF version:\s+1\.4$", info, re.M):
        fail("print: PDF/A-1 wants version 1.4: %s" %
             re.search(r"PDF version:.*", info).group(0))
    trailer = run(["qpdf", "--show-object=trailer", pdf]).decode()
    if "/ID [" not in trailer:
        fail("print: no /ID in the trailer: " + trailer)
    root = objs["1 0 R"]
    intents = root.get("/OutputIntents") or []
    if not intents or intents[0].get("/S") != "/GTS_PDFA1":
        fail("print: no GTS_PDFA1 OutputIntent: %s" % intents)
    else:
        prof = objs.get(intents[0].get("/DestOutputProfile"))
        if not prof or prof.get("/N") != 3:
            fail("print: the OutputIntent's profile is not an RGB ICC stream: %s"
                 % prof)
    meta = root.get("/Metadata")
    xmp = run(["qpdf", "--show-object=" + meta.split()[0], "--raw-stream-data",
               pdf]) if meta else b""
    if not xmp.startswith(b"<?xpacket"):
        fail("print: no unfiltered XMP metadata stream")
        return
    ns = {"x": "adobe:ns:meta/",
          "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
          "dc": "http://purl.org/dc/elements/1.1/",
          "xmp": "http://ns.adobe.com/xap/1.0/",
          "pdf": "http://ns.adobe.com/pdf/1.3/",
          "pdfaid": "http://www.aiim.org/pdfa/ns/id/",
          "pdfuaid": "http://www.aiim.org/pdfua/ns/id/",
          "pdfaSchema": "http://www.aiim.org/pdfa/ns/schema#"}
    try:
        tree = ET.fromstring(xmp.decode("utf-8"))
    except ET.ParseError as e:
        fail("print: the XMP is not XML: %s" % e)
        return
    got = {k: tree.findtext(".//" + k, namespaces=ns) for k in
           ("pdfaid:part", "pdfaid:conformance", "pdfuaid:part",
            "pdfaSchema:prefix", "dc:title/rdf:Alt/rdf:li",
            "dc:creator/rdf:Seq/rdf:li", "xmp:CreateDate", "xmp:ModifyDate",
            "pdf:Producer", "xmp:CreatorTool")}
    field = lambda k: re.search(r"^%s:\s+(.*)$" % k, info, re.M).group(1)
    # tagged (PDF/UA-1) too: one packet, pdfuaid described for PDF/A-1
    want = {"pdfaid:part": "1", "pdfaid:conformance": "B",
            "pdfuaid:part": "1", "pdfaSchema:prefix": "pdfuaid",
            "dc:title/rdf:Alt/rdf:li": field("Title"),
            "dc:creator/rdf:Seq/rdf:li": field("Author"),
            "xmp:CreateDate": "2024-05-01T00:00:00+00:00",
            "xmp:ModifyDate": "2024-05-01T00:00:00+00:00",
            "pdf:Producer": field("Producer"),
            "xmp:CreatorTool": field("Creator")}
    for k, v in want.items():
        if got[k] != v:
            fail("print: XMP %s is %r, the Info dictionary says %r" % (k, got[k], v))
    if "May  1 00:00:00 2024" not in field("CreationDate"):
        fail("print: Info /CreationDate %r is not the publication date" %
             field("CreationDate"))
    metas = [o for o in objs.values()
             if isinstance(o, dict) and o.get("/Type") == "/Metadata"]
    if len(metas) != 1:
        fail("print: %d metadata streams, not one" % len(metas))
    for o in objs.values():
        if isinstance(o, dict) and "/SMask" in o:
            fail("print: an image has an /SMask (PDF/A-1 allows no transparency)")
            break
    descs = [o for o in objs.values()
             if isinstance(o, dict) and o.get("/Type") == "/FontDescriptor"]
    if not descs:
        fail("print: no font descriptor")
    for d in descs:
        if "/CIDSet" not in d or "/CapHeight" not in d:
            fail("print: font %s lacks /CIDSet or /CapHeight" % d.get("/FontName"))


def check_cover_png(pdf, print_pdf):
    imgs = run(["pdfimages", "-list", pdf]).decode().splitlines()[2:]
    if not any(ln.split()[0] == "1" and ln.split()[2] == "image" for ln in imgs):
        fail("cover-png: no image on page 1: %s" % imgs)
    if words(pdf, 1):
        fail("cover-png: text on the cover page: %s" % [w[0] for w in words(pdf, 1)])
    n_print = len(boxes(print_pdf))
    bx = boxes(pdf)
    if len(bx) != n_print:
        fail("cover-png: %d pages; want the cover image and the %d pages after "
             "the typographic cover" % (len(bx), n_print - 1))
    # the image page carries the bleed and marks of the body
    if bx and bx[1].get("TrimBox") != bx[2].get("TrimBox"):
        fail("cover-png: the cover's TrimBox %s differs from the body's %s" %
             (bx[1].get("TrimBox"), bx[2].get("TrimBox")))
    check_labels("cover-png", pdf)
    if [t for t, *_ in words(pdf, 2)][:2] != ["Chapter", "1"]:
        fail("cover-png: page 2 is not chapter 1: %s" % words(pdf, 2)[:3])


def check_labels(name, pdf):
    lb = labels(pdf)
    want = [(0, {"/P": "u:Cover", "/St": 1}), (1, {"/S": "/D", "/St": 1})]
    if lb[:2] != want:
        fail("%s: page labels %s, want the cover 'Cover', then 1 at chapter 1" %
             (name, lb))


def check_cover_pdf(pdf):
    text = run(["pdftotext", "-f", "1", "-l", "1", pdf, "-"]).decode()
    if "COVER FROM PDF" not in text:
        fail("cover-pdf: page 1 is not cover.pdf's: %r" % text[:80])
    if "Print & Trim" in run(["pdftotext", pdf, "-"]).decode():
        fail("cover-pdf: the typographic cover is still printed")
    check_labels("cover-pdf", pdf)
    pages = [p for _, p, _ in outline(pdf)]
    if pages != [2, 3]:
        fail("cover-pdf: the outline points at pages %s, want [2, 3]" % pages)


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    publish, book = os.path.abspath(sys.argv[1]), sys.argv[2]
    for tool in ("qpdf", "pdfinfo", "pdftotext", "pdfimages", "pdftoppm"):
        if not shutil.which(tool):
            print("the command '%s' is missing: install %s "
                  "(scripts/install-deps.sh --test)"
                  % (tool, "qpdf" if tool == "qpdf" else "poppler-utils"))
            return 1
    editions = ("print", "cover-pdf", "cover-png")
    with tempfile.TemporaryDirectory() as tmp:
        copies = [os.path.join(tmp, "a"), os.path.join(tmp, "b")]
        for c in copies:
            prepare(book, c)
            r = subprocess.run([publish, c] + list(editions), capture_output=True,
                               timeout=120, env=dict(os.environ, TZ="UTC" if
                                                     c.endswith("a") else "Asia/Tokyo"))
            if r.returncode != 0:
                fail("publish exited %d: %s" % (r.returncode, r.stderr.decode()))
                return 1
        out = {e: os.path.join(copies[0], "Output", e, "book.pdf") for e in editions}
        for e, pdf in out.items():
            r = subprocess.run(["qpdf", "--check", pdf], capture_output=True)
            if r.returncode != 0 or b"WARNING" in r.stdout + r.stderr:
                fail("%s: qpdf --check: %s" % (e, (r.stdout + r.stderr).decode()))
            with open(pdf, "rb") as f1, open(pdf.replace("/a/", "/b/"), "rb") as f2:
                if f1.read() != f2.read():
                    fail("%s: published twice, the bytes differ" % e)
        check_print(out["print"], out["cover-pdf"])
        check_cover_png(out["cover-png"], out["print"])
        check_cover_pdf(out["cover-pdf"])
    print("books_pdf_print: %s" % ("%d problems" % len(failures) if failures
                                   else "all checks passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
