#!/bin/sh
# Installs the Debian 12 packages Octavo needs, when any is missing.
# Idempotent and quiet when everything is already there.
#
#   scripts/install-deps.sh            building and running: make, make demo,
#                                      make install
#   scripts/install-deps.sh --package  that, and what make package adds
#   scripts/install-deps.sh --test     all of it, and what the tests use
#                                      (make test), with the Nu HTML checker
#                                      (npm package vnu-jar) in .tools/
set -eu

# Building: the compiler, CMake, the front ends' generators (without re2c
# and bison the build compiles the committed copies in generated/), and
# the -dev packages cmake/OctavoDeps.cmake looks up (Lua reads the code
# highlighter's grammars, libmicrohttpd serves `publish serve`, libstemmer
# stems the website's search index); libbz2-dev because
# libzip's pc file names -lbz2 for a static link (octavo.pc with --static,
# as a program built against the installed libraries links), and
# libunistring-dev because GnuTLS's (under libmicrohttpd's) names
# -lunistring.
BUILD="
  make cmake pkg-config gcc libc6-dev re2c bison
  libyaml-dev libutf8proc-dev libpcre2-dev
  libcmark-gfm-dev libcmark-gfm-extensions-dev libicu-dev
  libzip-dev libxml2-dev
  libhyphen-dev libhpdf-dev libpng-dev libjpeg-dev librsvg2-dev
  libfontconfig-dev libfreetype-dev libharfbuzz-dev libqpdf-dev
  libbz2-dev libunistring-dev
  liblua5.4-dev libmicrohttpd-dev libstemmer-dev
"
# Running: what publish reads at run time. The clean theme's PDF faces
# (EB Garamond 12 from fonts-ebgaramond-extra, else DejaVu Serif; DejaVu
# Sans Mono for code, its italics in fonts-dejavu-extra), the tech theme's
# (Noto Serif, Noto Sans and Noto Sans Display: fonts-noto-core), a fallback for
# CJK: Noto CJK (CFF OpenType collections, the faces of Chinese, Japanese and
# Korean text) and Droid Sans Fallback, the hyphenation patterns of
# the PDF editions, the sRGB profile pdf_a embeds (libgs-common), and the
# grammars of highlighted code (highlight-common's langDefs/*.lang).
RUN="
  highlight-common
  fonts-ebgaramond-extra fonts-dejavu-core fonts-dejavu-extra
  fonts-noto-core fonts-noto-cjk fonts-droid-fallback
  hyphen-en-us hyphen-en-gb hyphen-de hyphen-fr hyphen-es
  hyphen-it hyphen-ca hyphen-nl hyphen-pt-pt hyphen-pt-br
  libgs-common
"
# make package: CPack's DEB generator runs dpkg-shlibdeps (dpkg-dev), which
# tells executables by file(1).
PACKAGE="dpkg-dev file"
# Testing (tests/require.sh names each test's needs): the fuzzing compiler,
# the checkers (EPUBCheck, the Nu HTML checker's Java, qpdf, poppler),
# the PHP Twig oracle, valgrind, python3 and its YAML reader, fontconfig's
# fc-list, groff for the manual pages, unzip (reading EPUBs back), the
# faces only the tests use
# (fonts-urw-base35: Nimbus Roman and a CFF face; fonts-texgyre: TeX Gyre
# Pagella, the CFF book of the font tests), and the comparison tools
# of bench/ (pandoc, chromium, weasyprint, cmark-gfm), Pygments (the
# highlighter's token classes are compared with its), GeSHi's language
# files (the names Easybook books give code, checked against the
# highlighter's table), and Selenium with
# ChromeDriver (the browser tests of `publish serve` and of the website's
# search box drive headless Chromium). Liberation is not
# needed: no theme, the guide nor a test uses it.
TEST="
  clang libfuzzer-14-dev libclang-rt-14-dev
  epubcheck default-jre-headless qpdf poppler-utils
  php-cli php-twig php-geshi valgrind python3 python3-yaml
  fontconfig groff-base unzip
  fonts-urw-base35 fonts-texgyre
  pandoc chromium cmark-gfm weasyprint
  python3-pygments python3-selenium chromium-driver
"

case "${1:-}" in
"") PACKAGES="$BUILD $RUN" ;;
--package) PACKAGES="$BUILD $RUN $PACKAGE" ;;
--test) PACKAGES="$BUILD $RUN $PACKAGE $TEST" ;;
*)
  sed -n '2,10p' "$0" >&2
  exit 2
  ;;
esac
# Node.js and npm (for vnu-jar, tests only): Debian's packages unless some
# nodejs that brings its own npm is installed already.
if [ "${1:-}" = --test ] && ! command -v npm >/dev/null 2>&1; then
  PACKAGES="$PACKAGES nodejs npm"
fi

root=$(cd "$(dirname "$0")/.." && pwd)
install_vnu() {
  [ "${1:-}" = --test ] || return 0
  [ -f "$root/.tools/node_modules/vnu-jar/build/dist/vnu.jar" ] && return 0
  echo "install-deps: installing the Nu HTML checker (npm vnu-jar) in .tools/"
  npm install --prefix "$root/.tools" --no-audit --no-fund --silent \
    vnu-jar@26.9.27 >/dev/null
}

missing=""
for p in $PACKAGES; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  case "$status" in
    *"install ok installed"*) ;;
    *) missing="$missing $p" ;;
  esac
done

if [ -z "$missing" ]; then
  install_vnu "${1:-}"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing Debian packages:$missing" >&2
  echo "install-deps: run as root, or: sudo apt-get install$missing" >&2
  exit 1
fi

echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
install_vnu "${1:-}"
