#!/bin/sh
# The publish command's own commands and options: new, customize, --list,
# --help, --version, -q, and publishing every edition of the new book's
# skeleton (four editions: web, website, ebook and print).
#
# usage: test_cli.sh PUBLISH VERSION
set -u

PUBLISH=$1
case $PUBLISH in /*) ;; *) PUBLISH=$(pwd)/$PUBLISH ;; esac
if [ ! -x "$PUBLISH" ]; then
  echo "$0: $PUBLISH is not an executable" >&2
  exit 2
fi
VERSION=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/octavo-cli-XXXXXX")
trap 'rm -rf "$T"' EXIT
failures=0
checks=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# run NAME EXPECTED_EXIT ARGS...: runs publish from $T, keeping stdout and
# stderr in $T/NAME.out and $T/NAME.err.
run() {
  name=$1 want=$2
  shift 2
  checks=$((checks + 1))
  (cd "$T" && "$PUBLISH" "$@") >"$T/$name.out" 2>"$T/$name.err"
  got=$?
  if [ "$got" -ne "$want" ]; then
    fail "$name: publish $* exited with $got, expected $want"
    sed 's/^/    stderr: /' "$T/$name.err"
  fi
}

# has NAME STREAM REGEX: the run's stdout or stderr matches.
has() {
  checks=$((checks + 1))
  grep -Eq -- "$3" "$T/$1.$2" ||
    { fail "$1: $2 does not match /$3/:"; sed 's/^/    /' "$T/$1.$2"; }
}

# empty NAME STREAM: nothing in it (but publish's warning of a kernel
# without Landlock, which is the machine's).
empty() {
  checks=$((checks + 1))
  grep -qv "^publish: warning: Landlock not available" "$T/$1.$2" &&
    { fail "$1: $2 should be empty:"; sed 's/^/    /' "$T/$1.$2"; }
  return 0
}

exists() {
  checks=$((checks + 1))
  [ -e "$1" ] || fail "$1 does not exist"
}

absent() {
  checks=$((checks + 1))
  [ -e "$1" ] && fail "$1 exists and should not"
  return 0
}

# ---- publish new ------------------------------------------------------------
mkdir "$T/books"
run new1 0 new "My Title" --dir books
B="$T/books/my-title"
for f in config.yml Contents/chapter1.md Contents/chapter2.md; do
  exists "$B/$f"
done
[ -d "$B/Contents/images" ] || fail "new: no Contents/images/ folder"
[ -d "$B/Output" ] || fail "new: no Output/ folder"
has new1 out "books/my-title"
grep -q '"My Title"' "$B/config.yml" || fail "new: config.yml does not hold the title"
# The comment lists every built-in language (runtime/book/i18n/labels.*.yml).
langs=$(ls "$(dirname "$0")"/../../runtime/book/i18n/labels.*.yml | sed 's/.*labels\.\(.*\)\.yml/\1/' | tr '\n' ' ' | sed 's/ $//')
grep -q "language: *en *# $langs\$" "$B/config.yml" ||
  fail "new: config.yml's comment does not list the languages '$langs'"

run new2 0 new "My Title" --dir books
exists "$T/books/my-title-1/config.yml"
has new2 out "my-title-1"

run new-quotes 0 new 'He said "hi" \o/' --dir books
exists "$T/books/he-said-hi-o/config.yml"
run new-quotes-publish 0 books/he-said-hi-o web
grep -q 'He said &quot;hi&quot; \\o/\|He said "hi" \\o/' \
  "$T/books/he-said-hi-o/Output/web/book.html" 2>/dev/null ||
  fail "new-quotes: the title with quotes and a backslash is not in book.html"

run new-empty-title 2 new "" --dir books
run new-no-dir 1 new "Elsewhere" --dir "$T/nope"
has new-no-dir err "nope"
run new-no-title 2 new --dir books

# ---- publishing the skeleton ------------------------------------------------
run web 0 books/my-title web website
exists "$B/Output/web/book.html"
exists "$B/Output/web/css/easybook.css"
exists "$B/Output/website/book/index.html"
has web out "web"
has web out "website"
empty web err

# Publishing every edition: web, website, ebook (epub) and print (pdf).
echo previous >"$B/Output/web/marker.txt"
echo previous >"$B/Output/website/marker.txt"
run all 0 books/my-title
absent "$B/Output/web/marker.txt"
absent "$B/Output/website/marker.txt"
exists "$B/Output/web/book.html"
exists "$B/Output/website/book/index.html"
exists "$B/Output/ebook/book.epub"
exists "$B/Output/print/book.pdf"
empty all err

# -q: nothing on success; only the errors on failure.
run quiet 0 -q books/my-title web
empty quiet out
empty quiet err
run quiet-all 0 --quiet books/my-title
empty quiet-all out
empty quiet-all err
run quiet-bad 1 --quiet books/my-title web nosuch
empty quiet-bad out
has quiet-bad err "error: "
checks=$((checks + 1))
if grep -v "error: " "$T/quiet-bad.err" | grep -q .; then
  fail "quiet-bad: -q printed more than errors:"
  sed 's/^/    /' "$T/quiet-bad.err"
fi

# ---- --list -------------------------------------------------------------------
run list 0 --list books/my-title
has list out "^ebook +epub"
has list out "^print +pdf"
has list out "^web +html( |$)"
has list out "^website +html_chunked +extends web"
checks=$((checks + 1))
[ "$(wc -l <"$T/list.out")" -eq 4 ] || fail "list: expected 4 lines"
grep -q "not available" "$T/list.out" && fail "list: every format is available"
run list-missing 1 --list books/nope

# ---- customize --------------------------------------------------------------
run customize 0 customize books/my-title web
CSS="$B/Resources/Templates/web/style.css"
exists "$CSS"
has customize out "Resources/Templates/web/style.css"
echo "body { color: #123456; }" >>"$CSS"
cp "$CSS" "$T/style.before"
run customize-again 1 customize books/my-title web
has customize-again err "style.css"
has customize-again err "exists"
cmp -s "$CSS" "$T/style.before" || fail "customize-again: the style.css changed"
run customize-publish 0 books/my-title web
exists "$B/Output/web/css/styles.css"
grep -q "#123456" "$B/Output/web/css/styles.css" 2>/dev/null ||
  fail "customize: css/styles.css is not the book's style.css"
grep -q 'href="css/styles.css"' "$B/Output/web/book.html" ||
  fail "customize: book.html does not link css/styles.css"
run customize-print 0 customize books/my-title print
grep -q "@page :left" "$B/Resources/Templates/print/style.css" ||
  fail "customize: a pdf edition's starter sheet has no page rules"
run customize-print-publish 0 books/my-title print
empty customize-print-publish err
run customize-unknown 1 customize books/my-title nope
has customize-unknown err "'nope'"
run customize-usage 2 customize books/my-title

# ---- themes ----------------------------------------------------------------
run themes 0 --themes
has themes out "^clean  *html html_chunked epub pdf  \(the default; also called base\)\$"
empty themes err
run themes-extra 2 --themes books/my-title
has themes-extra err "takes nothing else"
run theme-unknown 1 books/my-title web --configuration \
  '{"book": {"editions": {"web": {"theme": "nope"}}}}'
has theme-unknown err "unknown theme 'nope' \(Octavo has: clean \(also called base\)"
run theme-base 0 books/my-title web --configuration \
  '{"book": {"editions": {"web": {"theme": "base"}}}}'
run theme-dir-missing 1 books/my-title web --theme "$T/no-such-theme"
has theme-dir-missing err "^publish: error: --theme .*no-such-theme: No such file"
mkdir -p "$T/half-theme/html"
run theme-dir-no-format 1 books/my-title web website --theme "$T/half-theme"
has theme-dir-no-format err "half-theme: error: the theme has no html_chunked/ folder for edition 'website'"
run theme-dir-value 2 books/my-title --theme
has theme-dir-value err "'--theme' needs a value"

# ---- --help, --version, usage ---------------------------------------------
run help 0 --help
has help out "^usage: publish BOOK_DIR"
has help out "--configuration"
empty help err
run version 0 --version
has version out "^publish \(Octavo\) $VERSION\$"
empty version err
run no-args 2
has no-args err "^usage:"
empty no-args out
run bad-option 2 books/my-title --nope
has bad-option err "'--nope'"
has help out "publish serve BOOK_DIR"
has help out "--watch"

# ---- serve and --watch: their usage (tests/books/test_serve.py and
# test_watch.py run them) ----------------------------------------------------
run serve-no-book 2 serve
has serve-no-book err "serve takes BOOK_DIR"
run serve-two-editions 2 serve books/my-title web website
has serve-two-editions err "at most one EDITION"
run serve-bad-port 2 serve books/my-title --port 70000
has serve-bad-port err "not a port"
run serve-port-word 2 serve books/my-title --port eighty
has serve-port-word err "not a port"
run port-without-serve 2 books/my-title --port 8080
has port-without-serve err "go with .publish serve."
run open-without-serve 2 --watch books/my-title --open
has open-without-serve err "go with .publish serve."
run watch-list 2 --watch --list books/my-title
run serve-no-edition 1 serve books/my-title nosuch --port 0
has serve-no-edition err "no edition 'nosuch'"
run serve-missing-book 1 serve books/nowhere --port 0
has serve-missing-book err "no such book folder"

echo "test_cli: $checks checks, $failures failed"
[ "$failures" -eq 0 ]
