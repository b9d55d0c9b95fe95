#!/bin/sh
# Confinement end to end: publish-planted (publish with the escape bug of
# plant_escape.c planted after each writer) publishes a book whose scripts
# write outside it. Confined, the planted bug's write and read outside the
# book and its TCP connect get "Permission denied", nothing is written
# outside, the edition is published and the scripts (which run outside the
# sandbox) still write where they like, and a read of /etc/passwd is
# refused too (of /etc, only what the libraries read is granted); with
# --no-sandbox the same bug escapes, so the test is not vacuous; with
# --no-scripts it is stopped too, and so is it in `publish serve`.
# Skipped (77) where the kernel has no Landlock. First, on any kernel:
# under NOSYS (Landlock's system calls answering ENOSYS, as a kernel
# without Landlock), publish says once, without -v, that it runs
# unconfined (not with -q nor --no-sandbox).
#
# usage: test_sandbox.sh PUBLISH_PLANTED NOSYS
set -u
P=$1
NOSYS=$2
case $P in /*) ;; *) P=$(pwd)/$P ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/octavo-sandbox-XXXXXX")
trap 'rm -rf "$T"' EXIT
failures=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# serving FILE: waits (10 s at most) until publish serve's stdout in FILE
# says it serves.
serving() {
  i=0
  while [ $i -lt 100 ] && ! grep -q "serving edition" "$1"; do
    sleep 0.1
    i=$((i + 1))
  done
}

# has FILE TEXT: FILE holds the line fragment TEXT.
has() { grep -qF -- "$2" "$1" || fail "$1 lacks: $2"; }
lacks() { ! grep -qF -- "$2" "$1" || fail "$1 has: $2"; }

mkdir -p "$T/book/Contents" "$T/outside"
echo "the secret" >"$T/outside/secret.txt"
printf '# One\n\nText.\n' >"$T/book/Contents/chapter1.md"
cat >"$T/book/config.yml" <<YAML
book:
    title: "Escape"
    contents:
        - { element: chapter, number: 1, content: chapter1.md }
    editions:
        web:
            format: html
            before_publish: "echo before > '$T/outside/before.txt'"
            after_publish: "echo after > '$T/outside/after.txt'"
YAML

# run NAME ARGS...: publish-planted with the bug armed; exit status in $rc.
run() {
  name=$1
  shift
  rm -f "$T/outside/escaped.txt" "$T/outside/before.txt" \
    "$T/outside/after.txt"
  OCTAVO_TEST_PLANT_ESCAPE="$T/outside" \
    OCTAVO_TEST_PLANT_ESCAPE_READ=/etc/passwd "$P" -v "$@" \
    >"$T/$name.out" 2>"$T/$name.err"
  rc=$?
  [ "$rc" -eq 0 ] || fail "$name: exit status $rc"
  [ -f "$T/book/Output/web/book.html" ] || fail "$name: book.html missing"
}

# a kernel without Landlock, through the seccomp filter of nosys
if "$NOSYS" landlock true; then
  warning="publish: warning: Landlock not available (this kernel (or valgrind) has no Landlock): running unconfined"
  for v in "" -q --no-sandbox "serve --port 0"; do
    name=nolandlock$(echo "$v" | tr -d ' -')
    case $v in
    serve*)
      "$NOSYS" landlock "$P" serve "$T/book" web --port 0 >"$T/$name.out" \
        2>"$T/$name.err" &
      pid=$!
      serving "$T/$name.out"
      kill -INT "$pid"
      wait "$pid"
      ;;
    *) "$NOSYS" landlock "$P" $v "$T/book" web >"$T/$name.out" 2>"$T/$name.err" ;;
    esac
    n=$(grep -cF -- "$warning" "$T/$name.err")
    case $v in
    -q | --no-sandbox) [ "$n" -eq 0 ] || fail "$name: the warning was said" ;;
    *) [ "$n" -eq 1 ] || fail "$name: the warning was said $n times, not once" ;;
    esac
  done
else
  echo "test_sandbox: no seccomp here: the kernel without Landlock is not tried"
fi

run confined "$T/book" web
if grep -q "Landlock not available" "$T/confined.err"; then
  grep "Landlock not available" "$T/confined.err"
  echo "test_sandbox: skipped"
  exit 77
fi
abi=$(sed -n 's/.*confined by Landlock (ABI \([0-9]*\)).*/\1/p' \
  "$T/confined.err")
[ -n "$abi" ] || fail "confined: no note naming the Landlock ABI"
has "$T/confined.err" "planted escape: write $T/outside/escaped.txt: Permission denied"
has "$T/confined.err" "planted escape: read $T/outside/secret.txt: Permission denied"
has "$T/confined.err" "planted escape: read /etc/passwd: Permission denied"
if [ "${abi:-0}" -ge 4 ]; then
  has "$T/confined.err" "planted escape: connect 127.0.0.1:9: Permission denied"
fi
[ ! -e "$T/outside/escaped.txt" ] || fail "confined: the bug wrote outside"
[ -f "$T/outside/before.txt" ] || fail "confined: before_publish did not run"
[ -f "$T/outside/after.txt" ] || fail "confined: after_publish did not run"
! grep -rq "the secret" "$T/book/Output" || fail "confined: the secret leaked"

run unconfined --no-sandbox "$T/book" web
has "$T/unconfined.err" "publish: note: --no-sandbox: running unconfined"
has "$T/unconfined.err" "planted escape: write $T/outside/escaped.txt: done"
has "$T/unconfined.err" "planted escape: read $T/outside/secret.txt: done"
has "$T/unconfined.err" "planted escape: read /etc/passwd: done"
lacks "$T/unconfined.err" "connect 127.0.0.1:9: Permission denied"
[ -f "$T/outside/escaped.txt" ] || fail "unconfined: the planted bug did nothing"

run no-scripts --no-scripts "$T/book" web
has "$T/no-scripts.err" "planted escape: write $T/outside/escaped.txt: Permission denied"
[ ! -e "$T/outside/escaped.txt" ] || fail "no-scripts: the bug wrote outside"
[ ! -e "$T/outside/before.txt" ] || fail "no-scripts: before_publish ran"

# publish serve: confined the same, with its listening socket taken before
# the sandbox (the planted connect is still refused); Ctrl-C stops it.
rm -f "$T/outside/escaped.txt"
OCTAVO_TEST_PLANT_ESCAPE="$T/outside" "$P" -v serve "$T/book" web --port 0 \
  >"$T/serve.out" 2>"$T/serve.err" &
pid=$!
serving "$T/serve.out"
grep -q "serving edition 'web' at http://127.0.0.1:" "$T/serve.out" ||
  fail "serve: no address printed"
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || fail "serve: stopped by SIGINT with status $rc, not 130"
has "$T/serve.err" "the socket it listens on, taken before"
has "$T/serve.err" "planted escape: write $T/outside/escaped.txt: Permission denied"
has "$T/serve.err" "planted escape: read $T/outside/secret.txt: Permission denied"
if [ "${abi:-0}" -ge 4 ]; then
  has "$T/serve.err" "planted escape: connect 127.0.0.1:9: Permission denied"
fi
[ ! -e "$T/outside/escaped.txt" ] || fail "serve: the bug wrote outside"

if [ "$failures" -ne 0 ]; then
  for f in "$T"/*.err; do sed "s|^|    $(basename "$f"): |" "$f"; done
  echo "test_sandbox: $failures failed"
  exit 1
fi
echo "test_sandbox: the planted escape was stopped (Landlock ABI $abi)"
