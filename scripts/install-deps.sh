#!/bin/sh
# Installs the Debian 12 packages Octavo needs to build and test, when any is
# missing. Idempotent and quiet when everything is already there.
set -eu

PACKAGES="
  make cmake pkg-config gcc re2c bison
  clang libfuzzer-14-dev libclang-rt-14-dev
  libyaml-dev libutf8proc-dev libpcre2-dev
  php-cli php-twig valgrind
"

missing=""
for p in $PACKAGES; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  case "$status" in
    *"install ok installed"*) ;;
    *) missing="$missing $p" ;;
  esac
done

[ -z "$missing" ] && exit 0

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
