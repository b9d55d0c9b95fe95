#!/bin/sh
# A book's own templates are interpreted with the same semantics as the
# compiled theme: the user guide published with the clean theme copied into
# its Resources/Templates/ (so every template is interpreted) must give the
# same bytes as with the compiled theme. With THEME (default clean), both
# copies set `theme: THEME` on every edition (themed.py).
# Usage: test_interpreted_theme.sh PUBLISH SOURCE_DIR [THEME]
set -eu
publish=$1 src=$2 theme=${3:-clean}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SOURCE_DATE_EPOCH=1700000000
cp -r "$src/docs/guide" "$tmp/compiled"
rm -rf "$tmp/compiled/Output"
if [ "$theme" != clean ]; then
  PYTHONDONTWRITEBYTECODE=1 python3 "$(dirname "$0")/themed.py" \
    "$tmp/compiled" "$theme"
fi
cp -r "$tmp/compiled" "$tmp/interpreted"
t="$tmp/interpreted/Resources/Templates"
for format in html html_chunked; do
  mkdir -p "$t/$format/@content"
  cp -r "$src/themes/$theme/common/." "$t/$format/"
  cp -r "$src/themes/$theme/$format/." "$t/$format/"
  cp "$src/themes/$theme/contents/"* "$t/$format/@content/"
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
