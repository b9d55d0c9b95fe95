#!/usr/bin/env python3
"""Raw HTML that tries to run a script (rawhtml/README.md): published in
every edition, nothing runs in headless Chromium, the outputs are valid,
one located warning per removal, and honest SVG and MathML kept.

  test_rawhtml.py PUBLISH SOURCE_DIR

The book's attacks each call alert(N). Every page of the web editions and
the EPUB's pages (as XHTML) is opened in Chromium with alert, confirm,
prompt and print replaced by a recorder and window.onerror set; every
element of the text then gets the events a reader or a drawing can fire
(clicks on links included), and the SVG animations are run to their end.
The same harness on a page of the attacks as written must record the
attacks it can run: it proves the harness sees a script that runs.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
import xml.etree.ElementTree as ET
import zipfile

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
BOOK = os.path.join(HERE, "rawhtml")

# What the harness must see run on the attacks as written (the others
# need a reader's gesture no event stands for, or run in no Chromium).
CONTROL_MUST = {"1", "2", "3", "4", "41", "5", "6", "8", "10", "11", "12",
                "13", "17", "171", "19", "23"}

HOOK = """
window.__ran = [];
for (const f of ['alert', 'confirm', 'prompt', 'print'])
  window[f] = (...a) => { window.__ran.push(f + '(' + a.join(',') + ')'); };
// (an error event the harness dispatches reaches onerror as an Event; a
// script's error, as a message)
window.onerror = (m) => {
  if (typeof m === 'string') window.__ran.push('onerror: ' + m);
};
"""

EVENTS = ["click", "dblclick", "auxclick", "contextmenu", "mousedown",
          "mouseup", "mouseover", "mouseout", "mouseenter", "mouseleave",
          "mousemove", "pointerdown", "pointerup", "pointerover",
          "focus", "blur", "focusin", "focusout", "keydown", "keypress",
          "keyup", "input", "change", "wheel", "load", "error", "abort",
          "toggle", "animationstart", "animationend", "transitionend",
          "beginEvent", "endEvent", "repeatEvent", "scroll", "select",
          "copy", "paste", "drag", "drop"]

# Every element of the text gets every event. A click on a link that
# leads to another document (relative, http:, file:) is cancelled, so the
# page stays; any other link (a script URL, had one stayed) is followed.
DISPATCH = """
const plain = (a) => {
  // an SVG link's href as its animations leave it
  const h = (a.href && a.href.animVal !== undefined ? a.href.animVal
                                                    : a.getAttribute('href'))
            || '';
  return /^\\s*(https?:|file:|[^:]*$)/i.test(h);
};
document.addEventListener('click', (e) => {
  const a = e.target.closest && e.target.closest('a');
  if (a && plain(a)) e.preventDefault();
}, true);
const root = document.querySelector('main') || document.body;
for (const s of root.querySelectorAll('svg'))
  if (s.setCurrentTime) { s.unpauseAnimations(); s.setCurrentTime(5); }
const events = arguments[0];
for (const el of [root, ...root.querySelectorAll('*')])
  for (const t of events) {
    const E = /click|mouse|pointer|wheel|drag|drop/.test(t) ? MouseEvent
                                                            : Event;
    try { el.dispatchEvent(new E(t, {bubbles: true, cancelable: true})); }
    catch (e) { window.__ran.push('dispatch: ' + e); }
  }
"""

failures = []


def fail(msg):
    print("FAIL " + msg)
    failures.append(msg)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600,
                          **kw)


def ran_on(drv, url):
    """What ran on the page at url under the harness."""
    drv.get(url)
    time.sleep(1.2)  # the animations begin, the images load
    here = "return window.location.href.replace(/#.*/, '')"
    marker = drv.execute_script(here)
    drv.execute_script(DISPATCH, EVENTS)
    time.sleep(0.8)  # javascript: navigations run after the click
    if drv.execute_script(here) != marker:
        fail(f"{url}: the page navigated away under the harness")
    return drv.execute_script("return window.__ran || null") or []


def browser_checks(pages, control):
    import browser
    drv = browser.chrome("--disable-gpu", "--allow-file-access-from-files")
    try:
        drv.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                            {"source": HOOK})
        seen = ran_on(drv, "file://" + control)
        ids = {m.group(1) for r in seen
               for m in [re.match(r"alert\((\d+)\)", r)] if m}
        missing = CONTROL_MUST - ids
        if missing:
            fail("the harness does not see the attacks as written run "
                 f"(missing alert {sorted(missing, key=int)}; saw {seen})")
        for p in pages:
            got = ran_on(drv, "file://" + p)
            if got:
                fail(f"{p}: ran {got}")
    finally:
        drv.quit()


def plain(e):
    """An element as (name, attributes, text, children), namespaces kept
    in the names, xmlns attributes and blank text left out."""
    return (e.tag, sorted(e.attrib.items()), (e.text or "").strip(),
            [plain(c) for c in e], (e.tail or "").strip())


def islands(text, name, ns):
    """The <name> elements of an HTML or XHTML page, parsed as XML."""
    out = []
    for m in re.finditer(rf"<{name}[\s>].*?</{name}>", text, re.S):
        s = m.group(0)
        if "xmlns:xlink" not in s and "xlink:" in s:
            s = s.replace(f"<{name}", f'<{name} xmlns:xlink='
                          '"http://www.w3.org/1999/xlink"', 1)
        if f'xmlns="{ns}"' not in s:
            s = s.replace(f"<{name}", f'<{name} xmlns="{ns}"', 1)
        root = ET.fromstring(s)
        root.tail = None
        out.append(plain(root))
    return out


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    publish = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        book = os.path.join(tmp, "book")
        shutil.copytree(os.path.join(BOOK, "book"), book)
        p = run([publish, book])
        with open(os.path.join(BOOK, "expected-warnings"),
                  encoding="utf-8") as f:
            want = sorted(l for l in f.read().splitlines() if l)
        got = sorted(l for l in p.stderr.splitlines()
                     if ": warning: " in l or ": error: " in l)
        if p.returncode != 0:
            fail(f"publish exited with {p.returncode}: {p.stderr}")
        if got != want:
            fail("the warnings differ from expected-warnings:\n" +
                 "\n".join(f"  - {l}" for l in want if l not in got) + "\n" +
                 "\n".join(f"  + {l}" for l in got if l not in want))
        out = os.path.join(book, "Output")
        site = os.path.join(out, "website", "book")
        epub = os.path.join(tmp, "epub")
        with zipfile.ZipFile(os.path.join(out, "ebook", "book.epub")) as z:
            z.extractall(epub)
        pages = [os.path.join(out, "web", "book.html")] + [
            os.path.join(site, n) for n in sorted(os.listdir(site))
            if n.endswith(".html")] + [
            os.path.join(epub, "OEBPS", n)
            for n in sorted(os.listdir(os.path.join(epub, "OEBPS")))
            if n.startswith("chapter-") and n.endswith(".xhtml")]

        # the honest drawing and formulas, as written, in every edition
        with open(os.path.join(book, "Contents", "drawings.md"),
                  encoding="utf-8") as f:
            src = f.read()
        svg_ns, math_ns = ("http://www.w3.org/2000/svg",
                           "http://www.w3.org/1998/Math/MathML")
        want_svg = islands(src, "svg", svg_ns)
        want_math = islands(src, "math", math_ns)
        for pg in pages:
            with open(pg, encoding="utf-8") as f:
                text = f.read()
            if 'id="drawings"' not in text:
                continue
            text = text[text.index('id="drawings"'):]
            if islands(text, "svg", svg_ns) != want_svg:
                fail(f"{pg}: the drawing is not as written")
            if islands(text, "math", math_ns) != want_math:
                fail(f"{pg}: the formulas are not as written")
        pdf = os.path.join(out, "print", "book.pdf")
        t = " ".join(run(["pdftotext", "-enc", "UTF-8", pdf, "-"]).stdout
                     .split())
        for w in ("Triangles", "A fraction ab and a root x", "twenty-four"):
            if w not in t:
                fail(f"print: '{w}' is not in the text")

        # validity
        q = run(["qpdf", "--check", pdf])
        if q.returncode != 0:
            fail(f"qpdf --check: {q.stdout[-400:]}")
        jar = os.environ.get("EPUBCHECK_JAR",
                             "/usr/share/java/epubcheck.jar")
        e = run(["java", "-jar", jar, os.path.join(out, "ebook",
                                                    "book.epub")])
        if e.returncode != 0 or "0 fatals / 0 errors / 0 warnings" \
                not in e.stdout + e.stderr:
            fail("epubcheck:\n" + e.stdout + e.stderr)
        h = run([sys.executable, os.path.join(HERE, "check_html.py"),
                 os.path.join(out, "web"), os.path.join(out, "website")],
                env=dict(os.environ, OCTAVO_SOURCE_DIR=sys.argv[2]))
        if h.returncode != 0:
            fail("check_html.py:\n" + h.stdout + h.stderr)

        # the attacks as written, for the harness's control
        with open(os.path.join(book, "Contents", "attacks.md"),
                  encoding="utf-8") as f:
            attacks = [l for l in f.read().splitlines()
                       if l.startswith("<svg") or l.startswith("Attack")]
        control = os.path.join(tmp, "control.html")
        with open(control, "w", encoding="utf-8") as f:
            f.write("<!DOCTYPE html><html><head><title>control</title>"
                    "</head><body><main>\n" +
                    "\n".join(f"<p>{l}</p>" for l in attacks) +
                    "\n</main></body></html>\n")
        shutil.copytree(os.path.join(book, "Contents", "images"),
                        os.path.join(tmp, "images"))
        browser_checks(pages, control)
    print(f"books_rawhtml: {'failed' if failures else 'ok'} "
          f"({len(failures)} problems)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
