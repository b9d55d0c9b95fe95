#!/usr/bin/env python3
"""Checks published HTML: links, then validity by the Nu HTML checker.

usage: check_html.py [--links-only] DIR...

Links: every relative href/src of every HTML page under each DIR (and every
url() of its CSS files) must name a file that exists inside that DIR, and
a `#id` part must be an id of the target page. External URLs are ignored;
absolute paths ("/css/x.css") are errors, as the output must work wherever
it is copied.

Validity: `java -jar vnu.jar --errors-only` once over every HTML file and
once (--css) over every CSS file. vnu.jar is $VNU_JAR, else
<source>/.tools/node_modules/vnu-jar/build/dist/vnu.jar (installed by
scripts/install-deps.sh --test). Without it (or without java) the check
fails, naming what to install: a test never skips for a missing tool.

Exit status: 0 all good, 1 problems found (or vnu.jar or java missing),
2 bad usage.
"""
import html.parser
import os
import re
import shutil
import subprocess
import sys
import urllib.parse

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
LINK_ATTRS = {
    "a": ("href",), "link": ("href",), "area": ("href",),
    "img": ("src",), "script": ("src",), "source": ("src",),
    "iframe": ("src",), "video": ("src", "poster"), "audio": ("src",),
    "track": ("src",), "embed": ("src",), "object": ("data",),
}


class PageParser(html.parser.HTMLParser):
    """Collects the ids of a page and its links with their lines."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids = set()
        self.links = []  # (line, url)

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k == "id" and v is not None:
                self.ids.add(v)
        for attr in LINK_ATTRS.get(tag, ()):
            for k, v in attrs:
                if k == attr and v is not None:
                    self.links.append((self.getpos()[0], v))

    handle_startendtag = handle_starttag


def parse_page(path, cache):
    if path not in cache:
        p = PageParser()
        with open(path, encoding="utf-8", errors="replace") as f:
            p.feed(f.read())
        p.close()
        cache[path] = p
    return cache[path]


def is_external(url):
    return bool(re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", url)) or url.startswith("//")


def check_url(root, page, line, url, cache, is_css=False):
    """A problem with one link, or None."""
    where = f"{page}:{line}"
    url = url.strip()
    if not url or is_external(url):
        return None
    if url.startswith("/"):
        return f"{where}: absolute path '{url}' (the output must be relocatable)"
    parts = urllib.parse.urlsplit(url)
    target = page
    if parts.path:
        rel = urllib.parse.unquote(parts.path)
        target = os.path.normpath(os.path.join(os.path.dirname(page), rel))
        root_abs = os.path.abspath(root)
        if os.path.commonpath([root_abs, os.path.abspath(target)]) != root_abs:
            return f"{where}: '{url}' leads out of {root}"
        if os.path.isdir(target):
            target = os.path.join(target, "index.html")
        if not os.path.isfile(target):
            return f"{where}: '{url}': no such file"
    frag = urllib.parse.unquote(parts.fragment)
    if frag and frag != "top" and not is_css:
        if not target.endswith((".html", ".htm", ".xhtml")):
            return None
        if frag not in parse_page(target, cache).ids:
            return f"{where}: '{url}': no id '{frag}' in {target}"
    return None


CSS_URL = re.compile(r"url\(\s*(['\"]?)([^'\")]*)\1\s*\)")


def check_links(roots):
    """Every problem found under the given folders, and the numbers of
    pages and links checked."""
    problems, pages, links = [], 0, 0
    for root in roots:
        cache = {}
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            for fn in sorted(filenames):
                path = os.path.join(dirpath, fn)
                if fn.endswith((".html", ".htm")):
                    pages += 1
                    for line, url in parse_page(path, cache).links:
                        links += 1
                        p = check_url(root, path, line, url, cache)
                        if p:
                            problems.append(p)
                elif fn.endswith(".css"):
                    with open(path, encoding="utf-8", errors="replace") as f:
                        text = f.read()
                    for m in CSS_URL.finditer(text):
                        links += 1
                        line = text.count("\n", 0, m.start()) + 1
                        p = check_url(root, path, line, m.group(2), cache, True)
                        if p:
                            problems.append(p)
    return problems, pages, links


def find_vnu():
    jar = os.environ.get("VNU_JAR") or os.path.join(
        SOURCE_DIR, ".tools/node_modules/vnu-jar/build/dist/vnu.jar")
    if not os.path.isfile(jar):
        return None, (f"{jar} is missing: install npm's vnu-jar "
                      "(scripts/install-deps.sh --test), or set VNU_JAR")
    if not shutil.which("java"):
        return None, ("the command 'java' is missing: install "
                      "default-jre-headless (scripts/install-deps.sh --test)")
    return jar, None


def files_under(roots, exts):
    out = []
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            out += [os.path.join(dirpath, f) for f in sorted(filenames)
                    if f.endswith(exts)]
    return out


def run_vnu(jar, roots):
    """Problems reported by the Nu HTML checker over every HTML and CSS
    file under roots."""
    problems = []
    for kind, exts, extra in (("HTML", (".html", ".htm"), []),
                              ("CSS", (".css",), ["--css"])):
        files = files_under(roots, exts)
        if not files:
            continue
        cmd = ["java", "-jar", jar, "--errors-only", "--format", "gnu"] + \
            extra + files
        p = subprocess.run(cmd, capture_output=True, text=True)
        out = (p.stdout + p.stderr).strip()
        if p.returncode != 0 or out:
            problems.append(f"the Nu HTML checker found {kind} errors "
                            f"(exit status {p.returncode}):")
            problems += ["  " + ln for ln in out.splitlines()] or ["  (no output)"]
    return problems


def main(argv):
    links_only = "--links-only" in argv
    roots = [a for a in argv[1:] if a != "--links-only"]
    if not roots:
        print("usage: check_html.py [--links-only] DIR...", file=sys.stderr)
        return 2
    for r in roots:
        if not os.path.isdir(r):
            print(f"check_html: {r}: no such folder", file=sys.stderr)
            return 2
    problems, pages, links = check_links(roots)
    if pages == 0:
        problems.append("no HTML page found under " + " ".join(roots))
    for p in problems:
        print("link: " + p)
    print(f"check_html: {pages} pages, {links} links, "
          f"{len(problems)} link problems")
    if problems:
        return 1
    if links_only:
        return 0
    jar, why = find_vnu()
    if not jar:
        print(f"check_html: FAILED: the HTML validity check cannot run: {why}")
        return 1
    problems = run_vnu(jar, roots)
    for p in problems:
        print(p)
    print("check_html: the Nu HTML checker found "
          + ("errors" if problems else "no error"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
