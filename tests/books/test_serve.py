#!/usr/bin/env python3
"""publish serve in a browser (issue 16): headless Chromium through
Selenium on a book `publish new` writes, in a temporary folder.

  1. an edited chapter shows in the open page within a second, the page
     reloaded by the served script (a mark the test leaves on the window
     is gone), not by the test;
  2. a broken config.yml, then a removed chapter, show the overlay with
     the gcc-form message, while the last good page is still served;
     fixing them removes the overlay;
  3. the script is in the served page, not in the published file;
  4. paths out of the output folder (.., %2e%2e, absolute, hidden names,
     a symbolic link out) get 404, and a Host that is not 127.0.0.1 or
     localhost (DNS rebinding) 403;
  5. started on a book whose config.yml does not read, it serves a page
     saying so, then the book once config.yml is fixed.

usage: test_serve.py PUBLISH
"""
import http.client
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser  # noqa: E402
from served import raw_get  # noqa: E402

PUBLISH = os.path.abspath(sys.argv[1])
failures = []


def fail(msg):
    print("FAIL: " + msg)
    failures.append(msg)


def wait_for(cond, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = cond()
        if v:
            return v
        time.sleep(0.02)
    return cond()


def broken_at_start(tmp):
    """5. serve started on a book whose config.yml does not read: "/" is a
    page that says so, and once config.yml is fixed the edition is served."""
    subprocess.run([PUBLISH, "new", "Broken Start", "--dir", tmp],
                   check=True, stdout=subprocess.DEVNULL)
    book = os.path.join(tmp, "broken-start")
    config = os.path.join(book, "config.yml")
    good = open(config).read()
    open(config, "w").write(good + "\n  title: [unclosed\n")
    p = subprocess.Popen([PUBLISH, "serve", book, "--port", "0"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True)
    try:
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", p.stdout.readline())
        if not m:
            fail("serve on a broken book printed no URL")
            return
        port = int(m.group(1))
        status, body = raw_get(port, "/")
        if status != 200 or "could not be read" not in body:
            fail("serve on a broken book: / gave %d %r" % (status, body[:200]))
        open(config, "w").write(good)
        if not wait_for(lambda: raw_get(port, "/")[0] == 302, 3):
            fail("serve on a broken book: fixed, / does not lead to the book")
        status, body = raw_get(port, "/book.html")
        if status != 200 or "Broken Start" not in body:
            fail("serve on a broken book: fixed, /book.html gave %d" % status)
    finally:
        p.send_signal(2)
        p.wait(10)


def main():
    tmp = tempfile.mkdtemp(prefix="octavo-serve-test-")
    server = driver = log = None
    try:
        subprocess.run([PUBLISH, "new", "Serve Test", "--dir", tmp],
                       check=True, stdout=subprocess.DEVNULL)
        book = os.path.join(tmp, "serve-test")
        chapter = os.path.join(book, "Contents", "chapter1.md")
        config = os.path.join(book, "config.yml")
        log = open(os.path.join(tmp, "serve.log"), "w+")
        server = subprocess.Popen(
            [PUBLISH, "serve", book, "web", "--port", "0"],
            stdout=subprocess.PIPE, stderr=log, text=True)
        port = None
        for line in server.stdout:
            m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if m:
                port = int(m.group(1))
                break
        if not port:
            raise SystemExit("FAIL: publish serve printed no URL")

        # 3. the script: served, not published
        published = open(os.path.join(book, "Output", "web",
                                      "book.html")).read()
        status, served = raw_get(port, "/book.html")
        if status != 200 or "/__octavo/events" not in served:
            fail("the served page lacks the script (status %d)" % status)
        if "__octavo" in published or "publish serve" in published:
            fail("the published book.html holds the served script")
        if served.replace(served[served.find("<script>/* publish serve"):
                                 served.find("</script>\n",
                                             served.find("<script>/* publish serve")) + 10], "") != published:
            fail("the served page is not the published one plus the script")

        # 4. nothing outside the output folder
        os.symlink(config, os.path.join(book, "Output", "web", "out.yml"))
        for path in ["/../config.yml", "/%2e%2e/config.yml",
                     "/css/../../config.yml", "/css/%2E%2E/%2e%2e/config.yml",
                     "//etc/passwd", "/%2fetc/passwd", "/out.yml",
                     "/.hidden", "/..%2fconfig.yml"]:
            status, body = raw_get(port, path)
            if status not in (403, 404):
                fail("GET %s gave %d, not 404" % (path, status))
            if "Serve Test" in body and "title" in body:
                fail("GET %s showed the book's config" % path)
        status, _ = raw_get(port, "/nothing-here.html")
        if status != 404:
            fail("a missing page gave %d" % status)
        # DNS rebinding: another site's name pointed at 127.0.0.1
        for host in ["evil.example", "evil.example:%d" % port,
                     "127.0.0.1.evil.example"]:
            status, _ = raw_get(port, "/book.html", host)
            if status != 403:
                fail("Host: %s gave %d, not 403" % (host, status))
        status, _ = raw_get(port, "/book.html", "localhost:%d" % port)
        if status != 200:
            fail("Host: localhost gave %d" % status)

        # 1. an edit shows within a second
        driver = browser.chrome()
        driver.get("http://127.0.0.1:%d/" % port)
        if not wait_for(lambda: "Lorem ipsum" in driver.page_source, 5):
            fail("the page did not open")
        # the page's events channel is open before the edit
        time.sleep(0.3)
        driver.execute_script("window.octavoMark = 1;")
        text = open(chapter).read()
        t0 = time.monotonic()
        with open(chapter, "w") as f:
            f.write(text + "\nA sentence the test wrote.\n")
        seen = wait_for(lambda: "A sentence the test wrote." in
                        driver.page_source, 1.0)
        took = time.monotonic() - t0
        if not seen:
            fail("the edit was not in the page after 1 s")
        else:
            print("test_serve: the edit showed in %.0f ms" % (took * 1000))
        if driver.execute_script("return window.octavoMark || 0;") == 1:
            fail("the page was not reloaded by the served script")

        def overlay():
            return driver.execute_script(
                "var b = document.getElementById('octavo-serve-overlay');"
                "return b ? b.textContent : '';")

        # 2. broken edits: the overlay, the last good page still served
        good_config = open(config).read()
        for what, breaks, message in [
            ("a config.yml syntax error",
             lambda: open(config, "w").write(good_config +
                                              "\n  title: [unclosed\n"),
             r"config\.yml:\d+:\d+: error: "),
            ("a removed chapter",
             lambda: os.rename(chapter, chapter + ".away"),
             r"config\.yml:\d+:\d+: error: content file "
             r"'Contents/chapter1\.md' not found")]:
            breaks()
            shown = wait_for(overlay, 2.0)
            if not shown:
                fail("%s: no overlay" % what)
            elif not re.search(message, shown):
                fail("%s: the overlay says %r" % (what, shown))
            status, body = raw_get(port, "/book.html")
            if status != 200 or "A sentence the test wrote." not in body:
                fail("%s: the last good page is not served (%d)"
                     % (what, status))
            if what.startswith("a config"):
                open(config, "w").write(good_config)
            else:
                os.rename(chapter + ".away", chapter)
            if not wait_for(lambda: not overlay() and "A sentence the test"
                            in driver.page_source, 2.0):
                fail("%s: the overlay stayed after the fix" % what)
        log.seek(0)
        err = log.read()
        if not re.search(r"config\.yml:\d+:\d+: error: ", err):
            fail("the terminal did not get the gcc-form message:\n" + err)
        broken_at_start(tmp)
    finally:
        if driver:
            driver.quit()
        if server:
            server.send_signal(2)
            try:
                rc = server.wait(10)
                if rc != 130:
                    fail("publish serve stopped by SIGINT exited with %d, "
                         "not 130" % rc)
            except subprocess.TimeoutExpired:
                server.kill()
                fail("publish serve did not stop on SIGINT")
            log.seek(0)
            err = log.read()
            if "Sanitizer" in err or "runtime error:" in err:
                fail("the sanitizers reported:\n" + err)
            leftovers = [n for n in os.listdir(os.path.join(
                tmp, "serve-test", "Output")) if n.startswith(".")]
            if leftovers:
                fail("temporary folders left: %s" % leftovers)
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print("test_serve: %d failure(s)" % len(failures))
        return 1
    print("test_serve: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
