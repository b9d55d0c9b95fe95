#!/usr/bin/env python3
"""The website's search box in headless Chromium (Selenium): the search
book (tests/books/search), the user guide and the Chinese book
(tests/books/pdf/chinese), published into temporary copies and opened
over file://, as a reader opens a website on their disk.

For each query typed into the box, the first result must link to the
expected section and its passage must mark the words (<mark>); the count
is announced (aria-live), as "20 of N results" when only the first 20 of
more are listed. A word far into a long section is shown in the passage
around it, not the section's start. Also: an inflected form finds the stem's
section, a form the book never uses finds it through its stem, the
arrow keys reach the results, a section page (chunk_level 2) links back
up through ../, text holding </script>, quotes and U+2028 reaches the
page as text, `search: false` writes no index, no script and no box,
the index is the same bytes when published again, and it is at most
70 % of the text of the guide's pages (it carries the sections' texts,
deflated, for the passages).

usage: test_search.py PUBLISH SOURCE_DIR

Exit status: 0 good, 1 problems.
"""
import html.parser
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True

import browser  # noqa: E402
from machine import book_messages  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

MAX_INDEX_SHARE = 0.70
failures = []


def fail(msg):
    print("FAIL: " + msg)
    failures.append(msg)


def publish(publish_bin, src, tmp, name, args):
    book = os.path.join(tmp, name)
    shutil.copytree(src, book, ignore=shutil.ignore_patterns("Output"))
    p = subprocess.run([publish_bin, book] + args, capture_output=True,
                       text=True, timeout=120)
    err = book_messages(p.stderr)
    if p.returncode != 0 or "warning:" in err or "error:" in err:
        fail(f"publish {name} exited with {p.returncode}: {p.stderr.strip()}")
    return os.path.join(book, "Output")


class PageText(html.parser.HTMLParser):
    """The text of a page's <main>: what a reader reads."""

    def __init__(self):
        super().__init__()
        self.depth, self.parts = 0, []

    def handle_starttag(self, tag, attrs):
        self.depth += tag == "main"

    def handle_endtag(self, tag):
        self.depth -= tag == "main"

    def handle_data(self, data):
        if self.depth:
            self.parts.append(data)


def text_bytes(site):
    total = 0
    for root, _, files in os.walk(site):
        for f in files:
            if f.endswith(".html") and f != "index.html":
                t = PageText()
                with open(os.path.join(root, f), encoding="utf-8") as fh:
                    t.feed(fh.read())
                total += len(re.sub(r"\s+", " ", "".join(t.parts)).encode())
    return total


def check_size(site, name):
    idx = os.path.getsize(os.path.join(site, "search-index.js"))
    text = text_bytes(site)
    share = idx / text if text else 1
    print(f"{name}: search-index.js {idx} bytes for {text} bytes of text "
          f"({100 * share:.1f} %)")
    if share > MAX_INDEX_SHARE:
        fail(f"{name}: the index is {100 * share:.1f} % of the text, more "
             f"than {100 * MAX_INDEX_SHARE:.0f} %")


def browser_open():
    return browser.chrome("--disable-gpu", "--allow-file-access-from-files",
                          capabilities={"goog:loggingPrefs": {"browser": "ALL"}})


def results(drv, page, query):
    """Types query into the box of page (a file) and returns (count text,
    [(href, title, excerpt HTML)])."""
    drv.get("file://" + page)
    box = WebDriverWait(drv, 10).until(
        lambda d: d.find_element(By.CSS_SELECTOR, ".search-input"))
    WebDriverWait(drv, 10).until(lambda d: box.is_displayed())
    # the sections' texts are inflated in the background: then the box
    # says data-passages="ready"
    WebDriverWait(drv, 10).until(lambda d: d.find_element(
        By.CSS_SELECTOR, ".search").get_attribute("data-passages") == "ready")
    box.clear()
    box.send_keys(query)
    WebDriverWait(drv, 10).until(lambda d: d.find_element(
        By.CSS_SELECTOR, ".search-count").text.strip())
    count = drv.find_element(By.CSS_SELECTOR, ".search-count")
    if count.get_attribute("aria-live") != "polite":
        fail(f"{page}: the count is not aria-live")
    out = []
    for a in drv.find_elements(By.CSS_SELECTOR, ".search-results a"):
        out.append((a.get_attribute("href"),
                    a.find_element(By.CSS_SELECTOR,
                                   ".search-result-title").text,
                    a.find_element(By.CSS_SELECTOR, ".search-result-text")
                    .get_attribute("innerHTML")))
    return count.text, out


def expect_first(drv, page, query, href_end, marked=None):
    count, res = results(drv, page, query)
    where = f"{os.path.basename(page)}: '{query}'"
    if not res:
        fail(f"{where}: no result ({count!r})")
        return
    href, title, snippet = res[0]
    if not href.endswith(href_end):
        fail(f"{where}: the first result is {href} ({title}), expected "
             f"…{href_end}; all: {[r[0] for r in res]}")
    if "<mark>" not in snippet:
        fail(f"{where}: the first result's passage marks nothing: {snippet}")
    elif marked and f"<mark>{marked}</mark>" not in snippet:
        fail(f"{where}: '{marked}' is not marked in {snippet}")
    else:
        print(f"ok {where} → …{href_end} ({count}): {snippet[:80]}")


def check_search_book(drv, out):
    site = os.path.join(out, "website", "book")
    index = os.path.join(site, "index.html")
    # The word, inflected forms the book uses, one it does not, and
    # upper case: the section whose title says it comes first.
    expect_first(drv, index, "publish", "chapter-2.html#publishing",
                 "publish")
    expect_first(drv, index, "Publishing", "chapter-2.html#publishing",
                 "publish")
    expect_first(drv, index, "published", "chapter-2.html#publishing",
                 "publish")
    expect_first(drv, index, "publishings", "chapter-2.html#publishing")
    expect_first(drv, os.path.join(site, "chapter-1.html"), "watering can",
                 "chapter-1.html#watering", "watering")
    # A word near the end of a long section: the passage around it.
    _, res = results(drv, index, "quillwort")
    if not res or not res[0][0].endswith("#binding"):
        fail(f"'quillwort': {res[:1]}")
    elif not res[0][2].startswith("… ") or \
            "<mark>quillwort</mark>" not in res[0][2] or \
            "gathers the folded" in res[0][2]:
        fail(f"'quillwort': not the passage around the word: {res[0][2]}")
    else:
        print(f"ok 'quillwort' → the passage: {res[0][2][:80]}")
    # Code blocks are not indexed: "publish publish publish" in a code
    # block must not make #watering a result.
    _, res = results(drv, index, "publish")
    if any(h.endswith("#watering") for h, _, _ in res):
        fail("a word of a code block was indexed")
    # Text a script must not hold raw reaches the page as text.
    _, res = results(drv, index, "zanzibar")
    if not res or "&lt;/script&gt;" not in res[0][2] or \
            '"quotes"' not in res[0][2]:
        fail(f"the strange section's excerpt: {res[:1]}")
    errors = [e for e in drv.get_log("browser") if e["level"] == "SEVERE"]
    if errors:
        fail(f"the browser reported errors: {errors}")
    # No result: said so.
    count, res = results(drv, index, "xylophone")
    if res or not count:
        fail(f"'xylophone': {count!r} {res}")
    # The keyboard: ArrowDown from the box reaches the first result,
    # again the second, Enter follows it.
    results(drv, index, "book")
    box = drv.find_element(By.CSS_SELECTOR, ".search-input")
    box.send_keys(Keys.ARROW_DOWN)
    first = drv.switch_to.active_element
    if "search-result" not in (first.get_attribute("class") or ""):
        fail("ArrowDown does not reach the first result")
    first.send_keys(Keys.ARROW_DOWN)
    second = drv.switch_to.active_element
    target = second.get_attribute("href")
    second.send_keys(Keys.ENTER)
    WebDriverWait(drv, 10).until(lambda d: d.current_url == target)
    # The tech theme has the box too.
    expect_first(drv, os.path.join(out, "website-tech", "book",
                                   "index.html"),
                 "published", "chapter-2.html#publishing")
    # A section page in a subfolder links through ../ to a section page.
    sect = os.path.join(out, "website-sections", "book")
    page = os.path.join(sect, "chapter-1", "watering.html")
    if not os.path.exists(page):
        fail(f"no section page {page}")
    else:
        expect_first(drv, page, "publishing", "/chapter-2/publishing.html")
    # search: false: nothing written, no box.
    off = os.path.join(out, "website-off", "book")
    for f in ("search-index.js", "search.js"):
        if os.path.exists(os.path.join(off, f)):
            fail(f"search: false wrote {f}")
    with open(os.path.join(off, "chapter-1.html"), encoding="utf-8") as fh:
        if "search" in fh.read():
            fail("search: false still has a search box")
    with open(os.path.join(off, "css", "easybook.css"),
              encoding="utf-8") as fh:
        if ".search" in fh.read():
            fail("search: false still has the search box's styles")


def main(argv):
    if len(argv) != 3:
        print("usage: test_search.py PUBLISH SOURCE_DIR", file=sys.stderr)
        return 2
    publish_bin = os.path.abspath(argv[1])
    source = os.path.abspath(argv[2])
    books = os.path.join(source, "tests", "books")
    with tempfile.TemporaryDirectory(prefix="octavo-search-") as tmp:
        out = publish(publish_bin, os.path.join(books, "search"), tmp,
                      "search", [])
        guide = publish(publish_bin, os.path.join(source, "docs", "guide"),
                        tmp, "guide", ["website"])
        zh = publish(publish_bin, os.path.join(books, "pdf", "chinese"), tmp,
                     "chinese", ["website"])
        if failures:
            return 1
        # The same bytes again.
        site = os.path.join(out, "website", "book")
        with open(os.path.join(site, "search-index.js"), "rb") as fh:
            first = fh.read()
        out2 = publish(publish_bin, os.path.join(books, "search"), tmp,
                       "search-again", ["website"])
        with open(os.path.join(out2, "website", "book", "search-index.js"),
                  "rb") as fh:
            if fh.read() != first:
                fail("search-index.js differs when published again")
        check_size(os.path.join(guide, "website", "book"), "guide")
        drv = browser_open()
        try:
            check_search_book(drv, out)
            gsite = os.path.join(guide, "website", "book")
            expect_first(drv, os.path.join(gsite, "index.html"), "search",
                         "chapter-5.html#website-search", "search")
            expect_first(drv, os.path.join(gsite, "chapter-1.html"),
                         "searching", "chapter-5.html#website-search",
                         "search")
            # More results than are listed: "20 of N results".
            count, res = results(drv, os.path.join(gsite, "index.html"),
                                 "edition")
            m = re.match(r"^20 of (\d+) results$", count)
            if not m or int(m.group(1)) <= 20 or len(res) != 20:
                fail(f"'edition' in the guide: {count!r}, {len(res)} listed")
            else:
                print(f"ok 'edition' in the guide: {count}")
            zsite = os.path.join(zh, "website", "book")
            expect_first(drv, os.path.join(zsite, "index.html"), "刻工",
                         "di-1-zhang.html#cong-zuo-fang-dao-yin-shua-chang",
                         "刻工")
        finally:
            drv.quit()
    print(f"test_search: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
