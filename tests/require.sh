#!/bin/sh
# What a test needs from the system, checked before it runs: a test whose
# tool or data file is missing FAILS, naming the Debian package to install,
# rather than skipping (CI relies on every test running).
#
#   require.sh TEST NEED=PACKAGE... -- COMMAND [ARG...]
#
# NEED is an absolute path (a font, a dictionary, a jar) that must exist,
# or a command name that must be on the PATH; PACKAGE is what provides it,
# printed as is. With everything there, COMMAND runs in this process's
# place. tests/CMakeLists.txt builds these lines (octavo_require).
set -eu
test_name=$1
shift
missing=0
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  need=${1%%=*}
  package=${1#*=}
  shift
  case $need in
  /*) [ -e "$need" ] && continue ;;
  *) command -v "$need" >/dev/null 2>&1 && continue ;;
  esac
  case $need in
  /*) what="$need is missing" ;;
  *) what="the command '$need' is missing" ;;
  esac
  echo "$test_name: $what: install $package (scripts/install-deps.sh --test)" >&2
  missing=1
done
[ $# -gt 0 ] && shift
[ "$missing" = 0 ] || exit 1
exec "$@"
