#!/usr/bin/env python3
"""publish serve under load (issue 24), on 127.0.0.1 only, bounded, and
stopped by itself (an alarm ends it after two minutes):

  1. 1,500 idle connections open, a normal request is still answered
     (within 5 s; the time is printed), by a server of a few threads;
  2. 200 slow readers of a 4 MB page (each reads 1 KiB, then nothing)
     make the server grow by less than 64 MiB (a copy of the page each
     would be 800), and a normal request is still answered;
  3. 100 events channels open: an edit reaches every one (`reload`), with
     no thread for each, and idle they cost no CPU (no busy loop);
  4. an idle connection is closed by the server after its timeout
     (30 s); Ctrl-C then stops the server, channels open (status 130).

usage: test_serve_load.py PUBLISH
"""
import os
import re
import resource
import select
import signal
import socket
import subprocess
import sys
import tempfile
import shutil
import time

PUBLISH = os.path.abspath(sys.argv[1])
IDLE = 1500
SLOW = 200
CHANNELS = 100
failures = []


def fail(msg):
    print("FAIL: " + msg)
    failures.append(msg)


def status_of(pid):
    """VmRSS in KiB and the thread count of pid."""
    rss = threads = 0
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
            elif line.startswith("Threads:"):
                threads = int(line.split()[1])
    return rss, threads


def cpu_of(pid):
    """The seconds of CPU pid used so far."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def connect(port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(("127.0.0.1", port))
    return s


def timed_get(port, path):
    """(status, bytes, seconds) of a whole GET; status 0 when the
    connection was refused, reset or timed out."""
    t0 = time.monotonic()
    data = b""
    try:
        s = connect(port)
        s.sendall(("GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                   "Connection: close\r\n\r\n" % (path, port)).encode())
        while True:
            chunk = s.recv(1 << 20)
            if not chunk:
                break
            data += chunk
        s.close()
    except OSError:
        return 0, 0, time.monotonic() - t0
    took = time.monotonic() - t0
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]) if head else 0, len(body), took


def main():
    signal.alarm(120)  # bounded, whatever happens
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = IDLE + SLOW + CHANNELS + 256
    if hard != resource.RLIM_INFINITY and hard < want:
        print("test_serve_load: the file limit (%d) is below %d: skipped"
              % (hard, want))
        return 77
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    tmp = tempfile.mkdtemp(prefix="octavo-serve-load-")
    server = None
    keep = []
    try:
        subprocess.run([PUBLISH, "new", "Load Test", "--dir", tmp],
                       check=True, stdout=subprocess.DEVNULL)
        book = os.path.join(tmp, "load-test")
        chapter = os.path.join(book, "Contents", "chapter1.md")
        para = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit, "
                "sed do eiusmod tempor incididunt ut labore. ") * 4
        with open(chapter, "w") as f:
            f.write("# A large chapter\n\n")
            for i in range(9000):
                f.write(para + "\n\n")
        log = open(os.path.join(tmp, "serve.log"), "w+")
        server = subprocess.Popen([PUBLISH, "serve", book, "web", "--port",
                                   "0"], stdout=subprocess.PIPE,
                                  stderr=log, text=True)
        port = None
        for line in server.stdout:
            m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if m:
                port = int(m.group(1))
                break
        if not port:
            fail("publish serve printed no address")
            return 1
        page = os.path.getsize(os.path.join(book, "Output", "web",
                                            "book.html"))
        status, n, took = timed_get(port, "/book.html")
        if status != 200 or n < page:
            fail("the page gave %d, %d bytes" % (status, n))
        rss0, threads0 = status_of(server.pid)
        print("test_serve_load: book.html %.1f MB; serve %d MiB, %d threads;"
              " a GET %.0f ms" % (page / 1e6, rss0 // 1024, threads0,
                                  took * 1000))

        # 1. idle connections
        idle = [connect(port) for _ in range(IDLE)]
        t_idle = time.monotonic()
        time.sleep(0.5)
        status, n, took = timed_get(port, "/book.html")
        rss1, threads1 = status_of(server.pid)
        print("test_serve_load: %d idle connections: a GET %.0f ms; serve "
              "%d MiB, %d threads" % (IDLE, took * 1000, rss1 // 1024,
                                      threads1))
        if status != 200 or n < page or took > 5:
            fail("with %d idle connections the page gave %d, %d bytes, "
                 "in %.1f s" % (IDLE, status, n, took))
        if threads1 > threads0 + 2:
            fail("%d idle connections took %d threads" % (IDLE,
                                                          threads1 - threads0))
        keep = idle[:20]
        for s in idle[20:]:
            s.close()

        # 2. slow readers of the large page
        slow = []
        for _ in range(SLOW):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.settimeout(10)
            s.connect(("127.0.0.1", port))
            s.sendall(("GET /book.html HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n"
                       % port).encode())
            s.recv(1024)
            slow.append(s)
        time.sleep(1)
        rss2, threads2 = status_of(server.pid)
        status, n, took = timed_get(port, "/book.html")
        print("test_serve_load: %d slow readers: serve %d MiB (+%d), %d "
              "threads; a GET %.0f ms" % (SLOW, rss2 // 1024,
                                          (rss2 - rss0) // 1024, threads2,
                                          took * 1000))
        if rss2 - rss0 > 64 * 1024:
            fail("%d slow readers grew the server by %d MiB" %
                 (SLOW, (rss2 - rss0) // 1024))
        if status != 200 or n < page or took > 5:
            fail("with slow readers the page gave %d in %.1f s" % (status,
                                                                  took))
        for s in slow:
            s.close()

        # 3. events channels, no thread each
        channels = []
        for _ in range(CHANNELS):
            s = connect(port)
            s.sendall(("GET /__octavo/events HTTP/1.1\r\nHost: 127.0.0.1:%d"
                       "\r\n\r\n" % port).encode())
            channels.append([s, b""])
        deadline = time.monotonic() + 10
        for ch in channels:
            while b"retry:" not in ch[1] and time.monotonic() < deadline:
                ch[1] += ch[0].recv(4096)
        rss3, threads3 = status_of(server.pid)
        if threads3 > threads0 + 2:
            fail("%d events channels took %d threads" %
                 (CHANNELS, threads3 - threads0))
        with open(chapter, "a") as f:
            f.write("\nOne more sentence.\n")
        t0 = time.monotonic()
        waiting = {ch[0]: ch for ch in channels}
        while waiting and time.monotonic() < t0 + 10:
            ready, _, _ = select.select(list(waiting), [], [], 0.5)
            for s in ready:
                ch = waiting[s]
                ch[1] += s.recv(4096)
                if b"event: reload" in ch[1]:
                    del waiting[s]
        print("test_serve_load: %d channels: %d threads; the reload reached "
              "%d of them in %.0f ms" % (CHANNELS, threads3,
                                         CHANNELS - len(waiting),
                                         (time.monotonic() - t0) * 1000))
        if waiting:
            fail("%d of %d channels got no reload" % (len(waiting), CHANNELS))
        # the channels wait suspended: no thread polls them
        cpu0 = cpu_of(server.pid)
        time.sleep(3)
        idle_cpu = cpu_of(server.pid) - cpu0
        print("test_serve_load: idle with %d channels: %.2f s of CPU in 3 s"
              % (CHANNELS, idle_cpu))
        if idle_cpu > 0.5:
            fail("idle with %d channels open, the server used %.2f s of CPU "
                 "in 3 s" % (CHANNELS, idle_cpu))

        # 4. the idle connections kept are closed after the timeout
        time.sleep(max(0, t_idle + 33 - time.monotonic()))
        closed = 0
        for s in keep:
            s.settimeout(0.5)
            try:
                closed += s.recv(16) == b""
            except ConnectionResetError:
                closed += 1
            except socket.timeout:
                pass
        if closed != len(keep):
            fail("after 33 s, %d of %d idle connections are still open" %
                 (len(keep) - closed, len(keep)))
        server.send_signal(signal.SIGINT)
        try:
            rc = server.wait(10)
            if rc != 130:
                fail("publish serve stopped by SIGINT exited with %d" % rc)
        except subprocess.TimeoutExpired:
            fail("publish serve did not stop on SIGINT, channels open")
        for ch in channels:
            ch[0].close()
        log.seek(0)
        err = log.read()
        if "Sanitizer" in err or "runtime error:" in err:
            fail("the sanitizers reported:\n" + err)
    finally:
        for s in keep:
            s.close()
        if server and server.poll() is None:
            server.kill()
            server.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print("test_serve_load: %d failure(s)" % len(failures))
        return 1
    print("test_serve_load: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
