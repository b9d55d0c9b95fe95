#!/bin/sh
# The themec command as a user meets it: output, exit codes (0 success,
# 1 a problem in the templates, 2 bad usage), gcc-style messages with the
# source line and caret, and `compile` leaving the previous output intact
# when it fails. Usage: test_themec.sh THEMEC
set -u
themec=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

check() { # NAME EXPECTED-STATUS ACTUAL-STATUS
  if [ "$2" = "$3" ]; then passed=$((passed + 1))
  else failed=$((failed + 1)); echo "FAIL $1: expected $2, got $3"; fi
}
contains() { # NAME FILE TEXT
  if grep -qF -- "$3" "$2"; then passed=$((passed + 1))
  else failed=$((failed + 1)); echo "FAIL $1: no '$3' in:"; cat "$2"; fi
}

mkdir -p "$tmp/theme/parts"
printf '{%% extends "base.html.twig" %%}{%% block body %%}{{ include("parts/item.html.twig") }}{%% endblock %%}' > "$tmp/theme/page.html.twig"
printf '<p>{%% block body %%}{%% endblock %%}</p>' > "$tmp/theme/base.html.twig"
printf '{{ title|upper }} & {{ "<b>" }}{{ who }}' > "$tmp/theme/parts/item.html.twig"
printf 'title: "x < y"\nwho: "<i>"\n' > "$tmp/data.yml"

"$themec" render "$tmp/theme/page.html.twig" --data "$tmp/data.yml" > "$tmp/out" 2> "$tmp/err"
check "render exit status" 0 $?
contains "render output" "$tmp/out" '<p>X &lt; Y & <b>&lt;i&gt;</p>'

"$themec" render "$tmp/theme/page.html.twig" --data "$tmp/data.yml" --autoescape false > "$tmp/out"
contains "autoescape false" "$tmp/out" '<p>X < Y & <b><i></p>'

printf '{{ missing }}' > "$tmp/theme/strict.html.twig"
"$themec" render "$tmp/theme/strict.html.twig" --strict > "$tmp/out" 2> "$tmp/err"
check "strict exit status" 1 $?
contains "strict message" "$tmp/err" "strict.html.twig:1:4: error: variable \"missing\" does not exist"
rm "$tmp/theme/strict.html.twig"

printf '{{ random(1000) }}' > "$tmp/r.twig"
a=$("$themec" render "$tmp/r.twig" --seed 7); b=$("$themec" render "$tmp/r.twig" --seed 7)
check "seeded random is reproducible" "$a" "$b"

# A theme with two errors: check reports both, compile fails without
# touching the previous output.
"$themec" compile "$tmp/theme" -o "$tmp/theme.c" --header "$tmp/theme.h"
check "compile exit status" 0 $?
cp "$tmp/theme.c" "$tmp/theme.c.before"
printf '<h1>{{ title|uper }}</h1>\n{{ f(1) }}\n' > "$tmp/theme/bad.html.twig"
"$themec" check "$tmp/theme" 2> "$tmp/err"
check "check exit status" 1 $?
contains "first error" "$tmp/err" "$tmp/theme/bad.html.twig:1:14: error: unknown filter \"uper\""
contains "source line" "$tmp/err" "  <h1>{{ title|uper }}</h1>"
contains "caret" "$tmp/err" "               ^"
contains "second error" "$tmp/err" "$tmp/theme/bad.html.twig:2:4: error: unknown function \"f\""
"$themec" compile "$tmp/theme" -o "$tmp/theme.c" 2> "$tmp/err"
check "failed compile exit status" 1 $?
if cmp -s "$tmp/theme.c" "$tmp/theme.c.before"; then passed=$((passed + 1))
else failed=$((failed + 1)); echo "FAIL a failed compile changed the previous output"; fi
ls "$tmp" | grep -q '\.tmp' && { failed=$((failed + 1)); echo "FAIL temporary file left behind"; } || passed=$((passed + 1))

# A symbolic link out of the template folders is not followed.
printf 'secret' > "$tmp/outside.twig"
ln -s "$tmp/outside.twig" "$tmp/theme/link.twig"
printf '{%% include "link.twig" %%}' > "$tmp/theme/uses_link.twig"
"$themec" render "$tmp/theme/uses_link.twig" > "$tmp/out" 2> "$tmp/err"
check "symlink out exit status" 1 $?
contains "symlink out message" "$tmp/err" "'link.twig' is a symbolic link that leads out of its folder: refusing to read it"
printf '{%% include "../outside.twig" %%}' > "$tmp/theme/uses_dotdot.twig"
"$themec" render "$tmp/theme/uses_dotdot.twig" > "$tmp/out" 2> "$tmp/err"
check "dot-dot exit status" 1 $?
contains "dot-dot message" "$tmp/err" 'template "../outside.twig" not found'
rm "$tmp/theme/link.twig" "$tmp/theme/uses_link.twig" "$tmp/theme/uses_dotdot.twig"

"$themec" render > /dev/null 2>&1
check "usage exit status" 2 $?
"$themec" frobnicate > /dev/null 2>&1
check "unknown command exit status" 2 $?
"$themec" render "$tmp/nope.twig" 2> "$tmp/err"
check "missing template exit status" 1 $?
contains "missing template message" "$tmp/err" "$tmp/nope.twig: error: cannot read"

# ---- themec new and check: a theme author's starter folder -------------
"$themec" new "$tmp/mine" > "$tmp/out" 2> "$tmp/err"
check "new exit status" 0 $?
contains "new says what it wrote" "$tmp/out" "Wrote the theme mine in $tmp/mine (from clean)"
for f in html/book.twig html_chunked/layout.twig epub/content.opf.twig \
         pdf/style.css.twig common/style.css.twig contents/license.md.twig; do
  [ -f "$tmp/mine/$f" ]
  check "new wrote $f" 0 $?
done
[ -e "$tmp/mine/CMakeLists.txt" ]
check "new leaves out the build's files" 1 $?
contains "new README names the theme" "$tmp/mine/README.md" "# The mine theme"
contains "new README says the loop" "$tmp/mine/README.md" "publish --theme $tmp/mine BOOK"
"$themec" new "$tmp/mine" > /dev/null 2> "$tmp/err"
check "new over a folder exit status" 1 $?
contains "new over a folder message" "$tmp/err" "exists already"
"$themec" new "$tmp/other" --from nope > /dev/null 2> "$tmp/err"
check "new --from unknown exit status" 1 $?
contains "new --from unknown lists the themes" "$tmp/err" "no theme 'nope' in"
contains "new --from unknown lists clean" "$tmp/err" " clean"
"$themec" new "$tmp/copy" --from "$tmp/mine" > /dev/null 2>&1
check "new --from a folder" 0 $?
"$themec" new > /dev/null 2>&1
check "new usage" 2 $?

"$themec" check "$tmp/mine" > "$tmp/out" 2> "$tmp/err"
check "check a theme folder" 0 $?
# An error in common/ is checked with every format and said once.
printf '{%% macro m() %%}\n{{ 1 + }}\n{%% endmacro %%}\n' >> "$tmp/mine/common/partials/macros.twig"
"$themec" check "$tmp/mine" > "$tmp/out" 2> "$tmp/err"
check "check a broken theme" 1 $?
contains "check names file, line and column" "$tmp/err" "$tmp/mine/common/partials/macros.twig:"
n=$(grep -c "macros.twig:[0-9]*:[0-9]*: error" "$tmp/err")
check "check says a shared error once" 1 "$n"
# A book's template folder over a theme: @theme/ names are the theme's.
mkdir -p "$tmp/book/pdf"
printf "{%% extends '@theme/style.css.twig' %%}\n" > "$tmp/book/pdf/style.css.twig"
"$themec" check "$tmp/book/pdf" --theme clean > "$tmp/out" 2> "$tmp/err"
check "check a book's folder over clean" 0 $?
printf "{%% include '@theme/nope.twig' %%}\n" > "$tmp/book/pdf/chapter.twig"
"$themec" check "$tmp/book/pdf" --theme clean > "$tmp/out" 2> "$tmp/err"
check "check an unknown @theme/ name" 1 $?
contains "check names the @theme/ name" "$tmp/err" "$tmp/book/pdf/chapter.twig:1:"
contains "check says not found" "$tmp/err" '"@theme/nope.twig" not found'
mkdir -p "$tmp/book/print"
"$themec" check "$tmp/book/print" --theme clean > /dev/null 2> "$tmp/err"
check "check --theme without a format" 2 $?
"$themec" check "$tmp/book/print" --theme clean --format pdf > /dev/null 2> "$tmp/err"
check "check --theme --format" 0 $?

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
