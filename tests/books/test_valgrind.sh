#!/bin/sh
# publish under valgrind on the user guide (HTML, website, EPUB, PDF), and
# publish serve through an edit, a broken config.yml and Ctrl-C: no invalid
# reads or writes, no use of uninitialised memory, no definite or indirect
# leaks (ICU's caches are only "possibly lost" and not counted; pango's
# font map, which librsvg's SVG text sets up, is suppressed in
# valgrind.supp). valgrind 3.19 does not know Landlock's system calls
# (it warns of syscall 444): publish runs unconfined there, with the script
# runner started all the same.
# Usage: test_valgrind.sh PUBLISH SOURCE_DIR
set -eu
publish=$1 src=$2
command -v valgrind >/dev/null || {
  echo "books_valgrind: the command 'valgrind' is missing: install valgrind (scripts/install-deps.sh --test)"
  exit 1
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$src/docs/guide" "$tmp/guide"
rm -rf "$tmp/guide/Output"
valgrind -q --error-exitcode=99 --leak-check=full --num-callers=40 \
  --suppressions="$src/tests/books/valgrind.supp" \
  --errors-for-leak-kinds=definite,indirect "$publish" -q "$tmp/guide" web website ebook print
test -f "$tmp/guide/Output/web/book.html"
test -f "$tmp/guide/Output/website/book/index.html"
test -f "$tmp/guide/Output/ebook/book.epub"

# publish serve: a publish, a page and its events channel, an edit (the
# Markdown cache and the output memo), a broken config.yml (the overlay),
# its fix, then Ctrl-C: the loop stops by itself, so the leak check sees
# everything let go (status 130).
"$publish" new "Valgrind Serve" --dir "$tmp" >/dev/null
book=$tmp/valgrind-serve
valgrind -q --error-exitcode=99 --leak-check=full --num-callers=40 \
  --suppressions="$src/tests/books/valgrind.supp" \
  --errors-for-leak-kinds=definite,indirect \
  "$publish" serve "$book" web --port 0 >"$tmp/serve.out" 2>"$tmp/serve.err" &
pid=$!
i=0
until grep -q "serving edition" "$tmp/serve.out" 2>/dev/null || [ $i -ge 600 ]; do
  sleep 0.1
  i=$((i + 1))
done
port=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$tmp/serve.out" | head -1)
[ -n "$port" ] || { cat "$tmp/serve.err"; echo "test_valgrind: serve printed no address"; exit 1; }
python3 - "$port" "$book" <<'PY'
import http.client, os, socket, sys, time
port, book = int(sys.argv[1]), sys.argv[2]
def get(path):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    c.request("GET", path)
    r = c.getresponse()
    r.read()
    return r.status
s = socket.create_connection(("127.0.0.1", port), timeout=60)
s.sendall(b"GET /__octavo/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
f = s.makefile("rb")
def wait(name):
    while name.encode() not in f.readline():
        pass
assert get("/book.html") == 200 and get("/css/../x") == 404
ch = os.path.join(book, "Contents", "chapter1.md")
open(ch, "a").write("\nMore.\n")
wait("event: reload")
cfg = os.path.join(book, "config.yml")
good = open(cfg).read()
open(cfg, "w").write(good + "\n  bad: [\n")
wait("event: failure")
open(cfg, "w").write(good)
wait("event: reload")
s.close()
PY
kill -INT "$pid"
rc=0
wait "$pid" || rc=$?
if [ "$rc" -ne 130 ]; then
  cat "$tmp/serve.err"
  echo "test_valgrind: publish serve under valgrind ended with $rc, not 130"
  exit 1
fi
echo "test_valgrind: clean"
