#!/bin/sh
# The public headers (ctest install_headers): what `cmake --install` puts
# in include/octavo/ is exactly the list of docs/design.md ("The public
# headers"), at most 12, and each header compiles alone, included twice,
# with that folder as its only include path: a public header includes no
# private header and no third-party one.
# Usage: test_headers.sh BUILD_DIR DESIGN_MD
set -u
build=$1 design=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { failed=$((failed + 1)); echo "FAIL $*"; }

if ! cmake --install "$build" --prefix "$tmp/prefix" \
  --component octavo_headers >"$tmp/log" 2>&1; then
  echo "FAIL cmake --install --component octavo_headers:"
  cat "$tmp/log"
  exit 1
fi
inc=$tmp/prefix/include/octavo
(cd "$inc" && ls) | LC_ALL=C sort >"$tmp/installed"
block='/<!-- public-headers:begin -->/,/<!-- public-headers:end -->/'
# (the backquotes are Markdown's, not the shell's)
# shellcheck disable=SC2016
sed -n "$block"'s/^- `\([^`]*\.h\)`.*/\1/p' "$design" | LC_ALL=C sort \
  >"$tmp/listed"
if ! cmp -s "$tmp/installed" "$tmp/listed"; then
  fail "include/octavo/ (<) is not the list in docs/design.md (>):"
  diff "$tmp/installed" "$tmp/listed"
fi
n=$(wc -l <"$tmp/installed")
if [ "$n" -lt 1 ] || [ "$n" -gt 12 ]; then
  fail "$n headers in include/octavo/: at most 12"
fi

mkdir "$tmp/src"
while read -r h; do
  printf '#include "%s"\n#include "%s"\n' "$h" "$h" >"$tmp/src/one.c"
  if ! cc -std=c11 -pedantic -Wall -Wextra -Werror -fsyntax-only -I"$inc" \
    "$tmp/src/one.c" >"$tmp/cc" 2>&1; then
    fail "include/octavo/$h does not compile alone:"
    head -n 5 "$tmp/cc"
  fi
done <"$tmp/installed"

echo "test_headers: $n headers, $failed failed"
[ "$failed" = 0 ]
