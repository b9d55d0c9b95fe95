#!/bin/sh
# make demo: publishes the user guide (docs/guide, a book in Octavo's own
# format) to every edition Octavo can make, then renders the sample theme's
# page interpreted and compiled and checks both give the same bytes (when
# php-cli, which makes its data, is installed).
# Usage: demo.sh PUBLISH THEMEC BENCH_TEMPLATES OUT_DIR (from the source root)
set -eu
publish=$1 themec=$2 bench=$3 out=$4
mkdir -p "$out"

# Every edition of the guide: html, html_chunked, epub and two PDFs.
"$publish" docs/guide
echo "demo: the guide is in docs/guide/Output/web/book.html," \
  "docs/guide/Output/website/book/index.html, docs/guide/Output/ebook/book.epub," \
  "docs/guide/Output/print/book.pdf (A4) and docs/guide/Output/print-6x9/book.pdf"

# The sample page's data is made by PHP, which only the tests need
# (scripts/install-deps.sh --test installs php-cli): without it the
# template part of the demo is left out, and said so.
if ! command -v php >/dev/null 2>&1; then
  echo "demo: php is not installed (php-cli, in scripts/install-deps.sh --test):" \
    "the sample theme's page is not rendered"
  exit 0
fi
php bench/templates/make-data.php > "$out/data.json"
"$themec" render themes/sample/page.html.twig --data "$out/data.json" \
  > "$out/page-interpreted.html"
"$bench" --render themes/sample "$out/data.json" > "$out/page-compiled.html"
cmp "$out/page-interpreted.html" "$out/page-compiled.html"
echo "demo: rendered $out/page-compiled.html ($(wc -c < "$out/page-compiled.html") bytes); compiled and interpreted output are identical"
