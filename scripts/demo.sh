#!/bin/sh
# make demo: publishes the user guide (docs/guide, a book in Octavo's own
# format) to every edition Octavo can make, then renders the sample theme's
# page interpreted and compiled and checks both give the same bytes.
# Usage: demo.sh PUBLISH THEMEC BENCH_TEMPLATES OUT_DIR (from the source root)
set -eu
publish=$1 themec=$2 bench=$3 out=$4
mkdir -p "$out"

# Every edition of the guide: html, html_chunked, epub and two PDFs.
"$publish" docs/guide
echo "demo: the guide is in docs/guide/Output/web/book.html," \
  "docs/guide/Output/website/book/index.html, docs/guide/Output/ebook/book.epub," \
  "docs/guide/Output/print/book.pdf (A4) and docs/guide/Output/print-6x9/book.pdf"

php bench/templates/make-data.php > "$out/data.json"
"$themec" render themes/sample/page.html.twig --data "$out/data.json" \
  > "$out/page-interpreted.html"
"$bench" --render themes/sample "$out/data.json" > "$out/page-compiled.html"
cmp "$out/page-interpreted.html" "$out/page-compiled.html"
echo "demo: rendered $out/page-compiled.html ($(wc -c < "$out/page-compiled.html") bytes); compiled and interpreted output are identical"
