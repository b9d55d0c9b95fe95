#!/bin/sh
# A book's own templates are interpreted with the same semantics as the
# compiled theme: the user guide published with the clean theme copied into
# its Resources/Templates/ (so every template is interpreted) must give the
# same bytes as with the compiled theme.
# Usage: test_interpreted_theme.sh PUBLISH SOURCE_DIR
set -eu
publish=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SOURCE_DATE_EPOCH=1700000000
cp -r "$src/docs/guide" "$tmp/compiled"
rm -rf "$tmp/compiled/Output"
cp -r "$tmp/compiled" "$tmp/interpreted"
t="$tmp/interpreted/Resources/Templates"
for format in html html_chunked; do
  mkdir -p "$t/$format/@content"
  cp -r "$src/themes/clean/common/." "$t/$format/"
  cp -r "$src/themes/clean/$format/." "$t/$format/"
  cp "$src/themes/clean/contents/"* "$t/$format/@content/"
done
"$publish" -q --strict "$tmp/compiled" web website
"$publish" -q --strict "$tmp/interpreted" web website
if ! diff -r "$tmp/compiled/Output" "$tmp/interpreted/Output" > "$tmp/diff"; then
  head -40 "$tmp/diff"
  echo "test_interpreted_theme: interpreted and compiled themes differ" >&2
  exit 1
fi
n=$(find "$tmp/compiled/Output" -type f | wc -l)
echo "test_interpreted_theme: $n files identical, compiled and interpreted"
