#!/bin/sh
# Publishes the large synthetic book (40 chapters, ~200,000 words) as one
# page and as a website, and checks the links of both and the size of the
# website's search index.
#
# usage: test_corpus.sh PUBLISH MAKE_CORPUS
# Exit status 77 (skipped) when MAKE_CORPUS does not exist.
set -u

PUBLISH=$1
case $PUBLISH in /*) ;; *) PUBLISH=$(pwd)/$PUBLISH ;; esac
if [ ! -x "$PUBLISH" ]; then
  echo "$0: $PUBLISH is not an executable" >&2
  exit 2
fi
MAKE_CORPUS=$2
HERE=$(cd "$(dirname "$0")" && pwd)
if [ ! -f "$MAKE_CORPUS" ]; then
  echo "test_corpus: SKIPPED: $MAKE_CORPUS not found"
  exit 77
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/octavo-corpus-XXXXXX")
trap 'rm -rf "$T"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

python3 "$MAKE_CORPUS" --seed 1 large "$T/large" >"$T/make.log" 2>&1 || {
  echo "FAIL: make-corpus failed:"
  cat "$T/make.log"
  exit 1
}

start=$(date +%s.%N)
"$PUBLISH" "$T/large" web website >"$T/out" 2>"$T/err"
rc=$?
end=$(date +%s.%N)
echo "test_corpus: publish web website took $(echo "$end - $start" | bc 2>/dev/null || echo '?') s"
if [ "$rc" -ne 0 ]; then
  fail "publish exited with $rc"
fi
# (publish's warning of a kernel without Landlock is the machine's)
if grep -v "^publish: warning: Landlock not available" "$T/err" |
  grep -Eq "(error|warning):"; then
  fail "publish printed errors or warnings:"
  head -20 "$T/err" | sed 's/^/    /'
fi

HTML="$T/large/Output/web/book.html"
if [ ! -f "$HTML" ]; then
  fail "Output/web/book.html does not exist"
else
  size=$(wc -c <"$HTML")
  [ "$size" -gt 1048576 ] || fail "book.html is $size bytes, expected more than 1 MiB"
  echo "test_corpus: book.html is $size bytes"
fi

SITE="$T/large/Output/website/book"
[ -f "$SITE/index.html" ] || fail "Output/website/book/index.html does not exist"
pages=$(find "$SITE" -maxdepth 1 -name 'chapter-*.html' | wc -l)
[ "$pages" -eq 40 ] || fail "the website has $pages chapter pages, expected 40"
for n in 1 20 40; do
  [ -f "$SITE/chapter-$n.html" ] || fail "the website has no chapter-$n.html"
done
# The search index: at most 50 % of the chapters' Markdown (docs/design.md,
# "Search on the website", has the measures against the pages' text).
if [ -f "$SITE/search-index.js" ]; then
  index=$(wc -c <"$SITE/search-index.js")
  text=$(cat "$T"/large/Contents/*.md | wc -c)
  echo "test_corpus: search-index.js is $index bytes for $text bytes of Markdown"
  [ $((index * 100)) -le $((text * 50)) ] ||
    fail "search-index.js is more than 50 % of the Markdown"
else
  fail "the website has no search-index.js"
fi
# Every chapter's images were copied, and only those.
used=$(cat "$T"/large/Contents/chapter*.md | grep -o 'images/[A-Za-z0-9_./-]*' | sort -u | wc -l)
copied=$(find "$T/large/Output/web/images" -type f 2>/dev/null | wc -l)
[ "$used" -eq "$copied" ] || fail "$copied images copied, the chapters use $used"

python3 "$HERE/check_html.py" --links-only "$T/large/Output/web" \
  "$T/large/Output/website" >"$T/links" 2>&1 || {
  fail "the link check failed:"
  head -30 "$T/links" | sed 's/^/    /'
}
tail -1 "$T/links"

echo "test_corpus: $failures failures"
[ "$failures" -eq 0 ]
