#!/bin/sh
# Installs the Debian 12 packages Octavo needs to build and test, when any is
# missing, and the Nu HTML checker (npm package vnu-jar) into .tools/.
# Idempotent and quiet when everything is already there.
set -eu

PACKAGES="
  make cmake pkg-config gcc re2c bison
  clang libfuzzer-14-dev libclang-rt-14-dev
  libyaml-dev libutf8proc-dev libpcre2-dev
  libcmark-gfm-dev libcmark-gfm-extensions-dev libicu-dev
  libzip-dev libxml2-dev epubcheck
  libhyphen-dev hyphen-en-us hyphen-en-gb hyphen-de hyphen-fr hyphen-es
  hyphen-it hyphen-ca hyphen-nl hyphen-pt-pt hyphen-pt-br
  php-cli php-twig valgrind python3 default-jre-headless
  pandoc chromium cmark-gfm
  libhpdf-dev libpng-dev libjpeg-dev librsvg2-dev libfontconfig-dev libharfbuzz-dev libqpdf-dev
  libgs-common
  fonts-dejavu-core fonts-dejavu-extra fonts-ebgaramond-extra
  fonts-liberation2 fonts-noto-core
  fonts-droid-fallback fonts-urw-base35
  qpdf poppler-utils weasyprint python3-yaml
"
# Node.js and npm (for vnu-jar): Debian's packages unless some nodejs that
# brings its own npm is installed already.
command -v npm >/dev/null 2>&1 || PACKAGES="$PACKAGES nodejs npm"

root=$(cd "$(dirname "$0")/.." && pwd)
install_vnu() {
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
  install_vnu
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
install_vnu
