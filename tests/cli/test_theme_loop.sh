#!/bin/sh
# A theme author's loop from an installed Octavo, with the source and
# build trees out of reach (ctest install_theme_loop): `cmake --install`
# into a temporary prefix, then, in a mount namespace where the source
# tree is hidden under an empty tmpfs, the installed themec writes a
# starter theme (`themec new`), a template and a style sheet are changed,
# `themec build` compiles the theme into a new publish with the installed
# libraries (pkg-config), and that publish publishes the user guide in
# every edition: the change is in the output, and `publish --theme` of the
# same folder gives the same bytes. Prints the time of themec build.
# Usage: test_theme_loop.sh BUILD_DIR SOURCE_DIR
set -eu
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "test_theme_loop: $*" >&2; exit 1; }

case "$tmp/" in "$src"/*) fail "the temporary folder $tmp is inside $src" ;; esac
cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; fail "cmake --install failed"; }
cp -r "$src/docs/guide" "$tmp/guide"
rm -rf "$tmp/guide/Output"

cat >"$tmp/loop.sh" <<'LOOP'
set -eu
tmp=$1 src=$2 hidden=$3
# The source tree (and the build tree in it) is gone from this namespace.
if [ "$hidden" = 1 ] && [ -e "$src/CMakeLists.txt" ]; then
  echo "test_theme_loop: $src is still visible" >&2
  exit 1
fi
cd "$tmp"
export SOURCE_DATE_EPOCH=1700000000
prefix=$tmp/prefix
"$prefix/bin/themec" new my-theme --from clean >/dev/null
# A visible change in every format: a comment in the HTML pages, a colour
# in every style sheet.
for f in my-theme/html/book.twig my-theme/html_chunked/layout.twig \
         my-theme/epub/layout.twig; do
  sed -i 's|^<head>$|<head><!-- set with my-theme -->|' "$f"
done
find my-theme -name style.css.twig -exec sh -c \
  'printf "\nhtml { color: #3a1f5d; }\n" >>"$1"' sh {} \;
"$prefix/bin/themec" check my-theme
t0=$(date +%s%N)
"$prefix/bin/themec" build my-theme -o publish-mine --default my-theme >/dev/null
t1=$(date +%s%N)
echo "test_theme_loop: themec build of a copy of clean (4 formats): $(( (t1 - t0) / 1000000 )) ms"
./publish-mine --themes | grep -q '^my-theme .*the default' ||
  { echo "test_theme_loop: publish-mine --themes:" >&2; ./publish-mine --themes >&2; exit 1; }
cp -r guide compiled
cp -r guide interpreted
./publish-mine -q --strict compiled
"$prefix/bin/publish" -q --strict --theme my-theme interpreted
LOOP
if unshare -m true 2>/dev/null; then
  unshare -m sh -c 'mount -t tmpfs tmpfs "$2" && sh "$1/loop.sh" "$1" "$2" 1' \
    sh "$tmp" "$src"
else
  # A chroot, or a container without the right: the same loop, with the
  # source tree in sight (themec only reads it when run from the build
  # tree, and this themec is the installed one).
  echo "test_theme_loop: note: no mount namespace here (unshare -m), the" \
    "source tree stays visible"
  sh "$tmp/loop.sh" "$tmp" "$src" 0
fi

grep -q "set with my-theme" "$tmp/compiled/Output/web/book.html" ||
  fail "the changed book.twig is not in the web edition"
grep -rq "set with my-theme" "$tmp/compiled/Output/website" ||
  fail "the changed layout.twig is not in the website"
unzip -p "$tmp/compiled/Output/ebook/book.epub" | grep -q "set with my-theme" ||
  fail "the changed layout.twig is not in the EPUB"
pdftotext "$tmp/compiled/Output/print/book.pdf" - >/dev/null ||
  fail "the themed publish's PDF does not read"
if ! diff -r "$tmp/compiled/Output" "$tmp/interpreted/Output" >"$tmp/diff"; then
  head -20 "$tmp/diff"
  fail "themec build and publish --theme differ"
fi
n=$(find "$tmp/compiled/Output" -type f | wc -l)
echo "test_theme_loop: $n files identical, themec build and publish --theme"
