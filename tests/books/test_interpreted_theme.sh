#!/bin/sh
# A theme read by the interpreter gives the same bytes as the same theme
# compiled into publish:
# - with `publish --theme themes/NAME`, for every bundled theme (those
#   `publish --themes` lists that have a folder in themes/) and every
#   edition of the user guide, against `theme: NAME` compiled in;
# - with the clean theme copied into the guide's Resources/Templates/ (a
#   book's own templates, interpreted), for the two HTML editions.
# Usage: test_interpreted_theme.sh PUBLISH SOURCE_DIR
set -eu
publish=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SOURCE_DATE_EPOCH=1700000000
cp -r "$src/docs/guide" "$tmp/guide"
rm -rf "$tmp/guide/Output"

same() { # same WHAT DIR_A DIR_B
  if ! diff -r "$2/Output" "$3/Output" > "$tmp/diff"; then
    head -40 "$tmp/diff"
    echo "test_interpreted_theme: $1: interpreted and compiled differ" >&2
    exit 1
  fi
  n=$(find "$2/Output" -type f | wc -l)
  echo "test_interpreted_theme: $1: $n files identical"
}

editions=$("$publish" --list "$tmp/guide" | awk '{print $1}')
themes=$("$publish" --themes | awk '{print $1}')
checked=0
for theme in $themes; do
  [ -d "$src/themes/$theme/pdf" ] || continue
  json='{"book": {"editions": {'
  sep=
  for ed in $editions; do
    json="$json$sep\"$ed\": {\"theme\": \"$theme\"}"
    sep=', '
  done
  json="$json}}}"
  rm -rf "$tmp/compiled" "$tmp/interpreted"
  cp -r "$tmp/guide" "$tmp/compiled"
  cp -r "$tmp/guide" "$tmp/interpreted"
  "$publish" -q --strict --configuration "$json" "$tmp/compiled"
  "$publish" -q --strict --theme "$src/themes/$theme" "$tmp/interpreted"
  same "--theme themes/$theme, every edition" "$tmp/compiled" \
    "$tmp/interpreted"
  [ "$theme" = clean ] && cp -r "$tmp/compiled/Output" "$tmp/clean-output"
  checked=$((checked + 1))
done
# And --theme is what publishes: a copy with one colour changed in every
# style sheet changes every edition.
cp -r "$src/themes/clean" "$tmp/changed"
find "$tmp/changed" -name style.css.twig -exec sh -c \
  'printf "\nhtml { color: #102030; }\n" >> "$1"' sh {} \;
rm -rf "$tmp/interpreted/Output"
"$publish" -q --strict --theme "$tmp/changed" "$tmp/interpreted"
for ed in $editions; do
  if diff -rq "$tmp/clean-output/$ed" "$tmp/interpreted/Output/$ed" \
    > /dev/null; then
    echo "test_interpreted_theme: --theme with a changed style sheet left" \
      "edition $ed as it was" >&2
    exit 1
  fi
done
echo "test_interpreted_theme: --theme with a changed colour changes every edition"
if [ "$checked" -eq 0 ]; then
  echo "test_interpreted_theme: no bundled theme found in $src/themes" >&2
  exit 1
fi

rm -rf "$tmp/compiled" "$tmp/interpreted"
cp -r "$tmp/guide" "$tmp/compiled"
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
same "the book's own templates, web and website" "$tmp/compiled" \
  "$tmp/interpreted"
