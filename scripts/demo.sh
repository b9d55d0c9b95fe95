#!/bin/sh
# make demo: renders the sample theme's page (themes/sample) with generated
# data, interpreted and compiled, and checks both give the same bytes.
# Usage: demo.sh THEMEC BENCH_TEMPLATES OUT_DIR (run from the source root)
set -eu
themec=$1 bench=$2 out=$3
mkdir -p "$out"
php bench/templates/make-data.php > "$out/data.json"
"$themec" render themes/sample/page.html.twig --data "$out/data.json" \
  > "$out/page-interpreted.html"
"$bench" --render themes/sample "$out/data.json" > "$out/page-compiled.html"
cmp "$out/page-interpreted.html" "$out/page-compiled.html"
echo "demo: rendered $out/page-compiled.html ($(wc -c < "$out/page-compiled.html") bytes); compiled and interpreted output are identical"
