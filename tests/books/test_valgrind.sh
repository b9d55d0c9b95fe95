#!/bin/sh
# publish under valgrind on the user guide (HTML, website, EPUB, PDF): no invalid
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
echo "test_valgrind: clean"
