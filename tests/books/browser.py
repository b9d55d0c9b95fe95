"""Headless Chromium for the browser tests (test_search.py, test_serve.py),
through Debian's Selenium and ChromeDriver.

Selenium reaches ChromeDriver at "localhost": a machine whose /etc/hosts
does not name it (a bare debootstrap root has no /etc/hosts; Debian's
installer and images write one) cannot run these tests, and says so
rather than waiting 30 s for "Can not connect to the Service"."""
import socket
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def chrome(*args, capabilities=None):
    try:
        socket.getaddrinfo("localhost", None)
    except OSError as e:
        sys.exit("'localhost' does not resolve (%s): Selenium reaches "
                 "ChromeDriver there; add '127.0.0.1 localhost' to "
                 "/etc/hosts" % e)
    opts = webdriver.ChromeOptions()
    # --disable-dev-shm-usage: /dev/shm may be small or absent in a
    # container or chroot; Chromium then keeps its shared memory in /tmp
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage") + args:
        opts.add_argument(a)
    for k, v in (capabilities or {}).items():
        opts.set_capability(k, v)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"),
                            options=opts)
