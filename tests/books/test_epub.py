#!/usr/bin/env python3
"""Publishes the EPUB editions of a few books and checks the packages.

usage: test_epub.py PUBLISH SOURCE_DIR [--make-corpus PATH] [--update]
                    [--theme NAME] [BOOK...]

The books: the fixture books of tests/books/epub/ (`sampler`: every
element, a cover image, an ISBN; `espanol`: Spanish, no cover image, two
editions), the user guide (docs/guide, edition `ebook`) and, when
make-corpus exists (default: SOURCE_DIR/scripts/make-corpus),
`make-corpus --seed 1 small`. Each is published into a temporary copy,
then:

(a) EPUBCheck (java -jar /usr/share/java/epubcheck.jar, or $EPUBCHECK_JAR)
    reports no error and no warning; the checks run in threads while the
    others go on;
(b) the zip: `mimetype` first, stored, exactly `application/epub+zip`, no
    extra field in its local header; every other entry deflated; every
    entry dated with the publication date, at 00:00;
(c) publishing again (another time zone, locale and clock) and publishing
    a copy in another folder give the same bytes;
(d) every internal link of the XHTML, CSS, manifest, spine, nav and NCX
    names a file of the package and an id in it; every file but mimetype,
    container.xml and the package document is in the manifest, with the
    right media type and properties;
(e) dc:identifier is urn:isbn:... for an edition with an isbn, else a
    urn:uuid that is the same in every publish and differs between
    editions; dcterms:modified is the publication date;
(f) every XHTML page has lang and xml:lang, the book's language;
(g) the sampler's package equals tests/books/epub/sampler/expected/ (text
    files byte for byte, images by their SHA-256 in <file>.sha256) and its
    list of zip entries equals zip-listing.txt.

--theme NAME checks the user guide alone, published with that bundled
theme (themed.py sets `theme: NAME` on each edition of its copies).

--update rewrites expected/ and zip-listing.txt of the golden books from
what publish gives now: review the diff as you review code.

Exit status: 0 good, 1 problems (also when java or the EPUBCheck jar is
missing: the test fails, naming the package to install).
"""
import concurrent.futures
import datetime
import hashlib
import io
import os
import posixpath
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
import xml.etree.ElementTree as ET
import zipfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_golden import first_diff  # noqa: E402
import themed  # noqa: E402
from machine import book_messages  # noqa: E402

TIMEOUT = 120
MAX_PROBLEMS = 30  # per check, so that one bad book does not flood the log
# "now" for the books whose publication_date is ~ (2024-06-10 UTC).
NOW_EPOCH = 1718000000
# Other clocks for the books that have a publication date: it must win.
OTHER_CLOCKS = ("946684800", "4102444800")  # 2000-01-01, 2100-01-01

NS = {
    "opf": "http://www.idpf.org/2007/opf",
    "dc": "http://purl.org/dc/elements/1.1/",
    "ncx": "http://www.daisy.org/z3986/2005/ncx/",
    "xhtml": "http://www.w3.org/1999/xhtml",
    "ocf": "urn:oasis:names:tc:opendocument:xmlns:container",
    "epub": "http://www.idpf.org/2007/ops",
    "svg": "http://www.w3.org/2000/svg",
}
UUID_URN = re.compile(r"urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-"
                      r"[89ab][0-9a-f]{3}-[0-9a-f]{12}")
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
BINARY_EXT = (".png", ".jpg", ".jpeg", ".gif", ".webp")
MEDIA_BY_EXT = {
    ".xhtml": "application/xhtml+xml",
    ".ncx": "application/x-dtbncx+xml",
    ".css": "text/css",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".svg": "image/svg+xml",
}


class Book:
    """A book to publish: where it comes from, its epub editions and what
    their packages must say."""

    def __init__(self, name, src, editions, language, date=None, isbn=None,
                 cover=None, golden=None, make=None):
        self.name = name
        self.src = src          # a folder to copy, or None with `make`
        self.make = make        # a command that writes the book into argv[-1]
        self.editions = editions
        self.language = language
        self.date = date        # publication_date, None for ~
        self.isbn = isbn or {}  # edition -> urn:isbn:... expected
        self.cover = cover      # the cover image (path in the book) or None
        self.golden = golden    # folder with expected/ and zip-listing.txt

    def pub_date(self):
        """The date the package must carry (of NOW_EPOCH for ~)."""
        return self.date or datetime.datetime.fromtimestamp(
            NOW_EPOCH, datetime.timezone.utc).strftime("%Y-%m-%d")


def books(source, make_corpus):
    here = os.path.join(source, "tests/books/epub")
    out = [
        Book("sampler", os.path.join(here, "sampler/book"), ["ebook"], "en",
             date="2024-05-01", isbn={"ebook": "urn:isbn:9783161484100"},
             cover="Resources/Templates/ebook/cover.png",
             golden=os.path.join(here, "sampler")),
        Book("espanol", os.path.join(here, "espanol/book"),
             ["libro", "bolsillo"], "es", date="2023-11-20"),
        Book("guide", os.path.join(source, "docs/guide"), ["ebook"], "en"),
    ]
    if make_corpus and os.access(make_corpus, os.X_OK):
        out.append(Book("corpus", None, ["ebook"], "en",
                        make=[make_corpus, "--seed", "1", "small"]))
    return out


# ---- running publish ----------------------------------------------------

def publish(publish_bin, book, editions, env_extra):
    """Failure messages of one publish (empty: exit 0 with no warning)."""
    env = {k: v for k, v in os.environ.items() if k != "SOURCE_DATE_EPOCH"}
    env.update(env_extra)
    try:
        p = subprocess.run([publish_bin, book] + editions, capture_output=True,
                           timeout=TIMEOUT, env=env, cwd=os.path.dirname(book))
    except subprocess.TimeoutExpired:
        return [f"publish hung (killed after {TIMEOUT} s)"]
    err = book_messages(p.stderr.decode("utf-8", "replace"))
    fails = []
    if p.returncode != 0:
        fails.append(f"publish exited with {p.returncode}")
    if re.search(r"\b(error|warning):", err):
        fails.append("publish printed errors or warnings")
    if fails:
        fails.append("stderr:\n" + err.rstrip())
    return fails


THEME = None  # --theme: the bundled theme every edition is published with


def copy_book(book, dest):
    copy_source(book, dest)
    if THEME:
        themed.use_theme(dest, THEME)


def copy_source(book, dest):
    if book.make:
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        subprocess.run(book.make + [dest], check=True, capture_output=True,
                       timeout=TIMEOUT)
    else:
        shutil.copytree(book.src, dest, symlinks=True,
                        ignore=shutil.ignore_patterns("Output"))


def epub_path(book_dir, edition):
    return os.path.join(book_dir, "Output", edition, "book.epub")


# ---- (a) EPUBCheck ------------------------------------------------------

def find_epubcheck():
    jar = os.environ.get("EPUBCHECK_JAR", "/usr/share/java/epubcheck.jar")
    java = shutil.which("java")
    if not java:
        return None, None, ("the command 'java' is missing: install "
                            "default-jre-headless (scripts/install-deps.sh --test)")
    if not os.path.isfile(jar):
        return None, None, (f"{jar} is missing: install epubcheck "
                            "(scripts/install-deps.sh --test)")
    return java, jar, ""


def epubcheck(java, jar, path):
    """Problems EPUBCheck finds in one package (empty: none)."""
    # C1 only: the JVM starts faster, and one package is a short run.
    cmd = [java, "-XX:TieredStopAtLevel=1", "-Duser.language=en",
           "-Duser.country=US", "-jar", jar, path]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return ["epubcheck hung"]
    out = p.stdout + p.stderr
    m = re.search(r"Messages: (\d+) fatals? / (\d+) errors? / (\d+) warnings?",
                  out)
    if p.returncode == 0 and m and m.groups() == ("0", "0", "0"):
        return []
    lines = [ln for ln in out.splitlines()
             if re.match(r"(FATAL|ERROR|WARNING)\b", ln)]
    return [f"epubcheck exited with {p.returncode}: "
            + (m.group(0) if m else "no summary")] + lines[:MAX_PROBLEMS]


# ---- (b) the zip --------------------------------------------------------

def dos_date(date):
    y, m, d = (int(x) for x in date.split("-"))
    return (max(y, 1980) - 1980) << 9 | m << 5 | d


def check_zip(data, date):
    fails = []
    # The first local header, read by hand: readers find the type of the
    # file at fixed offsets (mimetype at 30, its content at 38).
    if data[:4] != b"PK\x03\x04":
        return ["the file does not start with a zip local header"]
    (flags, method, _mtime, _mdate, _crc, csize, usize, nlen,
     xlen) = struct.unpack("<HHHHIIIHH", data[6:30])
    name = data[30:30 + nlen]
    if name != b"mimetype":
        fails.append(f"the first entry is {name!r}, not mimetype")
    if method != 0:
        fails.append(f"mimetype is compressed (method {method}), not stored")
    if xlen != 0:
        fails.append(f"mimetype's local header has an extra field of "
                     f"{xlen} bytes")
    if flags & 0x09:
        fails.append(f"mimetype is encrypted or has a data descriptor "
                     f"(flags {flags:#x})")
    body = data[30 + nlen + xlen:30 + nlen + xlen + min(csize, 64)]
    if body != b"application/epub+zip" or csize != 20 or usize != 20:
        fails.append(f"mimetype holds {body!r} (sizes {csize}, {usize}), not "
                     "exactly application/epub+zip")
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        infos = z.infolist()
        bad = z.testzip()
        if bad is not None:
            fails.append(f"{bad}: CRC error")
        names = [i.filename for i in infos]
        if len(set(names)) != len(names):
            fails.append("an entry name appears twice")
        if names[:1] != ["mimetype"]:
            fails.append("mimetype is not the first entry of the central "
                         "directory")
        want = dos_date(date) if date else None
        for i in infos[1:]:
            if i.compress_type != zipfile.ZIP_DEFLATED:
                fails.append(f"{i.filename} is not deflated "
                             f"(method {i.compress_type})")
        for i in infos:
            if i.filename.endswith("/"):
                fails.append(f"{i.filename}: a folder entry")
            y, mo, d, hh, mm, ss = i.date_time
            got = (y - 1980) << 9 | mo << 5 | d
            if (want is not None and got != want) or (hh, mm, ss) != (0, 0, 0):
                fails.append(f"{i.filename} is dated {i.date_time}, not the "
                             f"publication date {date} at 00:00")
    return fails[:MAX_PROBLEMS]


# ---- (d), (e), (f): the package ----------------------------------------

def parse_xml(z, name, fails):
    try:
        return ET.fromstring(z[name])
    except ET.ParseError as e:
        fails.append(f"{name} is not well-formed XML: {e}")
        return None


def xml_ids(root):
    return {el.get("id") for el in root.iter() if el.get("id") is not None}


def image_type(data):
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "image/png"
    if data[:3] == b"\xff\xd8\xff":
        return "image/jpeg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if b"<svg" in data[:1024]:
        return "image/svg+xml"
    return None


def resolve(base_doc, ref):
    """(path in the zip, fragment) of a relative reference, or None for an
    external one; raises ValueError for an absolute path."""
    parts = urllib.parse.urlsplit(ref)
    if parts.scheme or parts.netloc:
        return None
    if parts.path.startswith("/"):
        raise ValueError("an absolute path")
    path = urllib.parse.unquote(parts.path)
    if path:
        target = posixpath.normpath(
            posixpath.join(posixpath.dirname(base_doc), path))
    else:
        target = base_doc
    return target, urllib.parse.unquote(parts.fragment)


class Package:
    """An unpacked EPUB: its files by name, and its zip entries listed."""

    def __init__(self, data):
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            self.files = {i.filename: zf.read(i) for i in zf.infolist()}
            self.listing = [
                "{} {} {:04d}-{:02d}-{:02d} {:02d}:{:02d}:{:02d} {}".format(
                    i.filename,
                    "stored" if i.compress_type == 0 else "deflated",
                    *i.date_time, i.file_size) for i in zf.infolist()]


class PackageCheck:
    """Checks (d), (e) and (f) of one package; `fails` collects the
    problems, `identifier` and `links` what the report needs."""

    def __init__(self, pkg, book, edition):
        self.z = pkg.files
        self.book = book
        self.edition = edition
        self.fails = []
        self.identifier = None
        self.links = 0
        self.manifest = {}  # id -> (path in the zip, media type, properties)
        self.by_path = {}   # path in the zip -> manifest id
        self.docs = {}      # path -> parsed XML (XHTML, SVG, NCX)
        self.ids = {}       # path -> its ids

    def run(self):
        opf_name = self.package_name()
        if opf_name is None:
            return self
        self.opf_name = opf_name
        self.opf = parse_xml(self.z, opf_name, self.fails)
        if self.opf is None:
            return self
        self.check_manifest()
        self.check_cover()
        self.check_spine()
        self.check_metadata()
        self.check_links()
        self.check_navigation()
        if len(self.fails) > MAX_PROBLEMS:
            n = len(self.fails) - MAX_PROBLEMS
            self.fails = self.fails[:MAX_PROBLEMS] + [f"... {n} more"]
        return self

    def fail(self, msg):
        self.fails.append(msg)

    def package_name(self):
        """The package document's path, from container.xml."""
        c = parse_xml(self.z, "META-INF/container.xml", self.fails) \
            if "META-INF/container.xml" in self.z else None
        if c is None:
            self.fail("META-INF/container.xml is missing or broken")
            return None
        roots = c.findall(".//ocf:rootfile", NS)
        if len(roots) != 1 or roots[0].get("media-type") != \
                "application/oebps-package+xml":
            self.fail("container.xml must name one package document")
            return None
        name = roots[0].get("full-path")
        if name not in self.z:
            self.fail(f"container.xml names {name}, not in the zip")
            return None
        return name

    def check_manifest(self):
        """Every file of the package listed once, with its media type."""
        for it in self.opf.findall("opf:manifest/opf:item", NS):
            iid, href = it.get("id"), it.get("href")
            mt = it.get("media-type")
            props = (it.get("properties") or "").split()
            if iid in self.manifest:
                self.fail(f"manifest id '{iid}' appears twice")
            try:
                path, frag = resolve(self.opf_name, href) or (None, None)
            except ValueError:
                path, frag = None, None
            if path is None or frag:
                self.fail(f"manifest item '{iid}': bad href '{href}'")
                continue
            if path in self.by_path:
                self.fail(f"manifest lists {path} twice")
            self.manifest[iid] = (path, mt, props)
            self.by_path[path] = iid
            if path not in self.z:
                self.fail(f"manifest item '{iid}': {path} is not in the zip")
                continue
            data = self.z[path]
            ext = posixpath.splitext(path)[1].lower()
            want = MEDIA_BY_EXT.get(ext)
            if want and want.startswith("image/"):
                want = image_type(data)  # the bytes, not the name
            if mt != want:
                self.fail(f"{path} has media-type '{mt}', expected '{want}'")
            if mt == "application/xhtml+xml":
                has_svg = re.search(rb"<svg[\s>]", data) is not None
                if has_svg != ("svg" in props):
                    self.fail(f"{path}: the 'svg' property is "
                              f"{'missing' if has_svg else 'set'} but the "
                              f"page {'has' if has_svg else 'has no'} <svg>")
        for name in self.z:
            if name not in ("mimetype", "META-INF/container.xml",
                            self.opf_name) and name not in self.by_path:
                self.fail(f"{name} is in the zip but not in the manifest")
        self.navs = [i for i, v in self.manifest.items() if "nav" in v[2]]
        if len(self.navs) != 1:
            self.fail(f"{len(self.navs)} manifest items have the 'nav' "
                      "property, not 1")

    def check_cover(self):
        covers = [path for path, _, props in self.manifest.values()
                  if "cover-image" in props]
        cover_doc = self.z.get(
            posixpath.join(posixpath.dirname(self.opf_name), "cover.xhtml"),
            b"")
        if not self.book.cover:
            if covers:
                self.fail(f"the book has no cover image, but {covers[0]} is "
                          "one")
            return
        if len(covers) != 1:
            self.fail("the book has a cover image but no manifest item has "
                      "the 'cover-image' property")
            return
        with open(os.path.join(self.book.src, self.book.cover), "rb") as f:
            if self.z.get(covers[0]) != f.read():
                self.fail(f"{covers[0]} is not {self.book.cover}")
        if posixpath.basename(covers[0]).encode() not in cover_doc:
            self.fail("cover.xhtml does not show the cover image")

    def check_spine(self):
        """Known ids, each once, the cover first, every page in it."""
        spine = self.opf.find("opf:spine", NS)
        refs = [r.get("idref") for r in spine.findall("opf:itemref", NS)] \
            if spine is not None else []
        if not refs:
            self.fail("the spine is empty")
        if len(set(refs)) != len(refs):
            self.fail("an itemref appears twice in the spine")
        for r in refs:
            if r not in self.manifest:
                self.fail(f"the spine names '{r}', not in the manifest")
            elif self.manifest[r][1] != "application/xhtml+xml":
                self.fail(f"the spine names '{r}', which is not XHTML")
        for iid, (path, mt, props) in self.manifest.items():
            if mt == "application/xhtml+xml" and "nav" not in props \
                    and iid not in refs:
                self.fail(f"{path} is a page but not in the spine")
        cover = posixpath.join(posixpath.dirname(self.opf_name), "cover.xhtml")
        if refs and self.manifest.get(refs[0], ("",))[0] != cover:
            self.fail("the spine does not start with cover.xhtml")
        self.ncx_id = spine.get("toc") if spine is not None else None
        if self.manifest.get(self.ncx_id, ("", ""))[1] != \
                "application/x-dtbncx+xml":
            self.fail(f"spine toc='{self.ncx_id}' is not the NCX's id")

    def check_metadata(self):
        """(e): identifier, dates and language."""
        book, ed = self.book, self.edition
        meta = self.opf.find("opf:metadata", NS)
        if meta is None:
            self.fail("the package has no metadata")
            return
        uid_ref = self.opf.get("unique-identifier")
        ident = next((i.text for i in meta.findall("dc:identifier", NS)
                      if i.get("id") == uid_ref), None)
        self.identifier = ident
        if ident is None:
            self.fail(f"no dc:identifier with the id '{uid_ref}'")
        elif ed in book.isbn:
            if ident != book.isbn[ed]:
                self.fail(f"dc:identifier is '{ident}', expected "
                          f"'{book.isbn[ed]}'")
        elif not UUID_URN.fullmatch(ident):
            self.fail(f"dc:identifier '{ident}' is not a urn:uuid:")
        date = book.pub_date()
        modified = [m.text for m in meta.findall("opf:meta", NS)
                    if m.get("property") == "dcterms:modified"]
        if modified != [f"{date}T00:00:00Z"]:
            self.fail(f"dcterms:modified is {modified}, expected "
                      f"['{date}T00:00:00Z'] (the publication date)")
        dc_date = meta.findtext("dc:date", None, NS)
        if dc_date != date:
            self.fail(f"dc:date is {dc_date!r}, expected '{date}'")
        lang = meta.findtext("dc:language", None, NS)
        if lang != book.language:
            self.fail(f"dc:language is {lang!r}, expected '{book.language}'")

    def check_ref(self, doc, ref, what):
        """One reference of doc: a file of the package, in the manifest,
        and an id of it for a fragment. External ones are skipped."""
        try:
            r = resolve(doc, ref)
        except ValueError:
            self.fail(f"{doc}: {what} '{ref}' is an absolute path")
            return
        if r is None:
            return
        self.links += 1
        target, frag = r
        where = f"{doc}: {what} '{ref}'"
        if target not in self.z:
            self.fail(f"{where}: {target} is not in the package")
        elif target not in self.by_path:
            self.fail(f"{where}: {target} is not in the manifest")
        elif frag and frag not in self.ids.get(target, ()):
            self.fail(f"{where}: no id '{frag}' in {target}")

    def check_links(self):
        """(d) every link of the XML and CSS files; (f) <html> languages."""
        lang = self.book.language
        for path, mt, _ in self.manifest.values():
            if path in self.z and mt in ("application/xhtml+xml",
                                         "application/x-dtbncx+xml",
                                         "image/svg+xml"):
                root = parse_xml(self.z, path, self.fails)
                if root is not None:
                    self.docs[path] = root
                    self.ids[path] = xml_ids(root)
        for path, root in self.docs.items():
            for el in root.iter():
                for attr in ("href", "src", XLINK_HREF):
                    if el.get(attr) is not None:
                        self.check_ref(path, el.get(attr),
                                       attr.split("}")[-1])
            if root.tag == f"{{{NS['xhtml']}}}html" and (
                    root.get("lang") != lang or root.get(XML_LANG) != lang):
                self.fail(f"{path}: <html lang='{root.get('lang')}' "
                          f"xml:lang='{root.get(XML_LANG)}'>, expected "
                          f"'{lang}' for both")
        for path, mt, _ in self.manifest.values():
            if mt == "text/css" and path in self.z:
                css = self.z[path].decode("utf-8", "replace")
                for m in re.finditer(r"url\(\s*['\"]?([^'\")]+)", css):
                    self.check_ref(path, m.group(1), "url()")
        if self.links == 0:
            self.fail("no internal link found at all")

    def check_navigation(self):
        """The navigation document's toc, and the NCX's head and order."""
        if len(self.navs) == 1 and self.manifest[self.navs[0]][0] in self.docs:
            path = self.manifest[self.navs[0]][0]
            tocs = [n for n in self.docs[path].iter(f"{{{NS['xhtml']}}}nav")
                    if "toc" in (n.get(f"{{{NS['epub']}}}type") or "").split()]
            if len(tocs) != 1 or not tocs[0].findall(".//xhtml:a", NS):
                self.fail(f"{path} has no nav epub:type='toc' with links")
        path = self.manifest.get(self.ncx_id, ("",))[0]
        ncx = self.docs.get(path)
        if ncx is None:
            return
        uid = [m.get("content") for m in ncx.findall("ncx:head/ncx:meta", NS)
               if m.get("name") == "dtb:uid"]
        if uid != [self.identifier]:
            self.fail(f"the NCX's dtb:uid {uid} is not the identifier "
                      f"'{self.identifier}'")
        orders = [int(p.get("playOrder", "0"))
                  for p in ncx.iter(f"{{{NS['ncx']}}}navPoint")]
        if not orders or orders != list(range(1, len(orders) + 1)):
            self.fail(f"the NCX's playOrder is not 1..n: {orders[:10]}")


# ---- (g) golden files ---------------------------------------------------

def write_golden(pkg, golden):
    expected = os.path.join(golden, "expected")
    if os.path.isdir(expected):
        shutil.rmtree(expected)
    for name, data in pkg.files.items():
        p = os.path.join(expected, *name.split("/"))
        os.makedirs(os.path.dirname(p), exist_ok=True)
        if name.lower().endswith(BINARY_EXT):
            with open(p + ".sha256", "w") as f:
                f.write(f"{hashlib.sha256(data).hexdigest()}  {len(data)}\n")
        else:
            with open(p, "wb") as f:
                f.write(data)
    with open(os.path.join(golden, "zip-listing.txt"), "w") as f:
        f.write("\n".join(pkg.listing) + "\n")
    print(f"updated {os.path.relpath(golden)}/expected and zip-listing.txt")


def compare_golden(pkg, golden, tmp):
    expected = os.path.join(golden, "expected")
    want = {}
    for dirpath, _, filenames in os.walk(expected):
        for fn in filenames:
            rel = os.path.relpath(os.path.join(dirpath, fn), expected)
            want[rel.replace(os.sep, "/")] = os.path.join(dirpath, fn)
    fails = []
    got = set()
    diffed = False
    for name, data in pkg.files.items():
        if name.lower().endswith(BINARY_EXT):
            key = name + ".sha256"
            got.add(key)
            if key not in want:
                fails.append(f"golden: {name} is new")
                continue
            with open(want[key]) as f:
                h = f.read().split()
            if h[:2] != [hashlib.sha256(data).hexdigest(), str(len(data))]:
                fails.append(f"golden: {name} differs (SHA-256)")
            continue
        got.add(name)
        if name not in want:
            fails.append(f"golden: {name} is new")
            continue
        with open(want[name], "rb") as f:
            if f.read() != data:
                fails.append(f"golden: {name} differs")
                if not diffed:
                    diffed = True
                    actual = os.path.join(tmp, "golden-actual")
                    os.makedirs(actual, exist_ok=True)
                    with open(os.path.join(actual, "file"), "wb") as g:
                        g.write(data)
                    fails += ["    " + ln for ln in first_diff(
                        want[name], os.path.join(actual, "file"), name)]
    for k in sorted(set(want) - got):
        fails.append(f"golden: {k} is missing")
    listing = os.path.join(golden, "zip-listing.txt")
    old = open(listing).read().splitlines() if os.path.exists(listing) else []
    if old != pkg.listing:
        fails.append("golden: the zip's entries differ from zip-listing.txt "
                     "(order, compression, dates or sizes)")
        for a, b in zip(old + [""] * len(pkg.listing), pkg.listing):
            if a != b:
                fails.append(f"    expected: {a}\n    got:      {b}")
                break
    return fails


# ---- one book -----------------------------------------------------------

def read_epubs(book_dir, editions):
    out = {}
    for ed in editions:
        p = epub_path(book_dir, ed)
        if os.path.isfile(p):
            with open(p, "rb") as f:
                out[ed] = f.read()
    return out


def compare_runs(first, again, what):
    fails = []
    for ed, data in first.items():
        other = again.get(ed)
        if other is None:
            fails.append(f"{what}: {ed}/book.epub is missing")
        elif other != data:
            a, b = Package(data), Package(other)
            names = [n for n in sorted(set(a.files) | set(b.files))
                     if a.files.get(n) != b.files.get(n)]
            fails.append(f"{what}: {ed}/book.epub differs ("
                         + (", ".join(names[:5]) or "zip headers") + ")")
    return fails


def check_book(book, publish_bin, tmp, update, checker, pool, jobs):
    """Failure messages of one book; submits its EPUBCheck jobs to pool."""
    fails = []
    a = os.path.join(tmp, book.name, "a", "book")
    copy_book(book, a)
    if book.make:
        book.src = a
    clock = {} if book.date else {"SOURCE_DATE_EPOCH": str(NOW_EPOCH)}
    fails += publish(publish_bin, a, book.editions, dict(clock, TZ="UTC"))
    if fails:
        return fails, {}
    first = read_epubs(a, book.editions)
    facts = {}
    for ed in book.editions:
        if ed not in first:
            fails.append(f"{ed}: Output/{ed}/book.epub was not written")
            continue
        others = sorted(os.listdir(os.path.join(a, "Output", ed)))
        if others != ["book.epub"]:
            fails.append(f"{ed}: Output/{ed}/ holds {others}, not only "
                         "book.epub")
        kept = os.path.join(tmp, "epubcheck", f"{book.name}-{ed}.epub")
        os.makedirs(os.path.dirname(kept), exist_ok=True)
        with open(kept, "wb") as f:
            f.write(first[ed])
        if checker:
            jobs.append((f"{book.name}/{ed}",
                         pool.submit(epubcheck, checker[0], checker[1], kept)))
        fails += [f"{ed}: zip: {x}"
                  for x in check_zip(first[ed], book.pub_date())]
        pkg = Package(first[ed])
        facts[ed] = PackageCheck(pkg, book, ed).run()
        fails += [f"{ed}: {x}" for x in facts[ed].fails]
        if book.golden:
            if update:
                write_golden(pkg, book.golden)
            fails += [f"{ed}: {x}" for x in compare_golden(pkg, book.golden,
                                                            tmp)]
    # (c) Again over the previous output, in another time zone, locale
    # and clock; then a copy in a folder of another name.
    env = dict(clock or {"SOURCE_DATE_EPOCH": OTHER_CLOCKS[0]},
               TZ="Pacific/Kiritimati", LC_ALL="C", LANG="de_DE.UTF-8")
    fails += publish(publish_bin, a, book.editions, env)
    fails += compare_runs(first, read_epubs(a, book.editions),
                          "publishing again (TZ, locale, clock)")
    b = os.path.join(tmp, book.name, "b", "a longer folder name", "Book Copy")
    copy_book(book, b)
    env = dict(clock or {"SOURCE_DATE_EPOCH": OTHER_CLOCKS[1]},
               TZ="America/Los_Angeles", LANG="es_ES.UTF-8")
    fails += publish(publish_bin, b, book.editions, env)
    fails += compare_runs(first, read_epubs(b, book.editions),
                          "publishing a copy in another folder")
    return fails, facts


def main(argv):
    global THEME
    args, THEME = themed.pop_theme(argv[1:])
    update = "--update" in args
    args = [x for x in args if x != "--update"]
    make_corpus = None
    if "--make-corpus" in args:
        i = args.index("--make-corpus")
        make_corpus = args[i + 1] if i + 1 < len(args) else ""
        del args[i:i + 2]
    if len(args) < 2:
        print("usage: test_epub.py PUBLISH SOURCE_DIR [--make-corpus PATH] "
              "[--update] [BOOK...]", file=sys.stderr)
        return 2
    publish_bin = os.path.abspath(args[0])
    source = os.path.abspath(args[1])
    if not os.access(publish_bin, os.X_OK):
        print(f"test_epub: {publish_bin} is not an executable",
              file=sys.stderr)
        return 2
    if make_corpus is None:
        make_corpus = os.path.join(source, "scripts/make-corpus")
    selected = books(source, make_corpus)
    if THEME:
        selected = [b for b in selected if b.name == "guide"]
    elif args[2:]:
        selected = [b for b in selected if b.name in args[2:]]
    elif not any(b.name == "corpus" for b in selected):
        print(f"skipped corpus: {make_corpus} not found")
    java, jar, why = find_epubcheck()
    checker = (java, jar) if java else None
    start = time.monotonic()
    failed = []
    idents = {}
    jobs = []
    with tempfile.TemporaryDirectory(prefix="octavo-epub-") as tmp, \
            concurrent.futures.ThreadPoolExecutor(
                max_workers=max(2, os.cpu_count() or 2)) as pool:
        for book in selected:
            fails, facts = check_book(book, publish_bin, tmp, update,
                                      checker, pool, jobs)
            for ed, f in facts.items():
                if f.identifier:
                    idents.setdefault(f.identifier, []).append(
                        f"{book.name}/{ed}")
            if fails:
                failed.append(book.name)
                print(f"FAIL {book.name}")
                for f in fails:
                    print("    " + f.replace(tmp + "/", "")
                          .replace("\n", "\n    "))
            else:
                links = sum(f.links for f in facts.values())
                print(f"ok   {book.name} ({', '.join(book.editions)}; "
                      f"{links} links)")
        # (e) Two editions never share an identifier.
        for ident, eds in sorted(idents.items()):
            if len(eds) > 1:
                failed.append("identifiers")
                print(f"FAIL identifiers: {', '.join(eds)} share {ident}")
        for name, job in jobs:
            problems = job.result()
            if problems:
                failed.append(f"epubcheck {name}")
                print(f"FAIL epubcheck {name}")
                for p in problems:
                    print("    " + p.replace(tmp + "/", ""))
            else:
                print(f"ok   epubcheck {name}")
    n = len(selected) + len(jobs) + 1  # + the identifiers
    print(f"\nbooks_epub: {n - len(failed)} passed, {len(failed)} failed "
          f"({time.monotonic() - start:.1f} s)")
    if not checker:
        print(f"FAILED: EPUBCheck cannot run: {why}")
        return 1
    if failed and not update and any(b.golden for b in selected):
        print("If the sampler's new package is right, rewrite its expected "
              f"files with\n  {sys.argv[0]} {args[0]} {args[1]} --update "
              "sampler\nand review the diff.")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
