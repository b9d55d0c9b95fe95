#!/bin/sh
# The installed tree (ctest install_prefix): `cmake --install` into a
# temporary prefix, then what a user and a theme author meet there: the
# commands, the manual pages (groff without a warning), the themes and
# the guide, octavo.pc (a program that uses the libraries through the
# public headers links with `pkg-config --cflags --libs --static octavo`
# and runs), OctavoConfig.cmake (the same program built by CMake against
# Octavo::octavo_cli), and the prefix moved to another folder: publish
# and the program still publish a book, and octavo.pc still points inside
# it. The headers themselves are install_headers' (test_headers.sh).
# Usage: test_install.sh BUILD_DIR VERSION
set -u
build=$1 version=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }
check() { # NAME COMMAND...: the command succeeds
  name=$1
  shift
  if "$@" >"$tmp/out" 2>&1; then ok; else fail "$name:"; cat "$tmp/out"; fi
}
has() { # PATH: a file or folder of the prefix
  if [ -e "$prefix/$1" ]; then ok; else fail "missing: $1"; fi
}

prefix=$tmp/prefix
if ! cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1; then
  echo "FAIL cmake --install $build --prefix $prefix:"
  cat "$tmp/install.log"
  exit 1
fi

# ---- commands, manual pages, data ----------------------------------------
for f in bin/publish bin/themec; do
  if [ -x "$prefix/$f" ]; then ok; else fail "not executable: $f"; fi
done
"$prefix/bin/publish" --version >"$tmp/v" 2>&1
if grep -qF "$version" "$tmp/v"; then ok; else fail "publish --version:"; cat "$tmp/v"; fi
check "themec --version" "$prefix/bin/themec" --version

for m in man1/publish.1 man1/themec.1 man5/octavo-theme.5; do
  has "share/man/$m"
  # groff as man(1) runs it, every warning on: none may come.
  if groff -man -Tutf8 -ww "$prefix/share/man/$m" >"$tmp/page" 2>"$tmp/warn" &&
    [ ! -s "$tmp/warn" ] && [ -s "$tmp/page" ]; then
    ok
  else
    fail "groff -man -Tutf8 -ww share/man/$m:"
    cat "$tmp/warn"
  fi
done

has share/octavo/themes/clean/pdf/style.css.twig
has share/octavo/themes/clean/html/book.twig
has share/octavo/themes/clean/README.md
if [ -e "$prefix/share/octavo/themes/sample" ]; then fail "the sample theme is installed"; else ok; fi
if find "$prefix/share/octavo/themes" -name CMakeLists.txt | grep -q .; then
  fail "a CMakeLists.txt under share/octavo/themes"
else
  ok
fi
has share/doc/octavo/README.md
has share/doc/octavo/LICENSE
has share/doc/octavo/guide/index.html
has share/doc/octavo/guide/css/easybook.css

# ---- libraries and headers -----------------------------------------------
libdir=$(cd "$prefix" && ls -d lib lib64 lib/*-linux-gnu 2>/dev/null |
  while read -r d; do [ -f "$d/pkgconfig/octavo.pc" ] && echo "$d"; done | head -n 1)
if [ -z "$libdir" ]; then
  echo "FAIL no octavo.pc under $prefix/lib*"
  exit 1
fi
pc=$prefix/$libdir/pkgconfig
export PKG_CONFIG_PATH="$pc"
check "pkg-config --static --libs octavo" pkg-config --static --libs octavo
libs=$(pkg-config --libs-only-l octavo | tr ' ' '\n' | sed -n 's/^-l\(octavo_.*\)/\1/p')
[ -n "$libs" ] || fail "octavo.pc names no octavo library"
for l in $libs; do has "$libdir/lib$l.a"; done
for l in octavo_base octavo_publish octavo_theme_clean_pdf; do
  if echo "$libs" | grep -qx "$l"; then ok; else fail "octavo.pc does not list $l"; fi
done
if [ -e "$prefix/$libdir/liboctavo_theme_sample.a" ]; then
  fail "the sample theme's library is installed"
else
  ok
fi
has "$libdir/cmake/Octavo/OctavoConfig.cmake"
has "$libdir/cmake/Octavo/OctavoConfigVersion.cmake"

# A program that uses the libraries through the public headers only: a
# template rendered by the interpreter's loader with values in an arena,
# and with arguments, publish (the book and everything below it), linked
# statically as octavo.pc says.
cat >"$tmp/prog.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oc_arena.h"
#include "octavo_publish.h"
#include "tpl_loader.h"
#include "tpl_rt.h"
#include "tpl_value.h"

int main(int argc, char **argv) {
  if (argc > 1)
    return octavo_publish_main(argc, argv, NULL, 0, NULL);
  const char *text = "{{ what|upper }}: {{ n * 2 }} writers";
  tpl_env *env = tpl_env_new();
  tpl_loader_add_string(tpl_loader_new(env), "t", text, strlen(text));
  oc_arena *a = oc_arena_new();
  tpl_map *m = tpl_map_new(a, 2);
  tpl_map_set_str(a, m, "what", tpl_cstr("linked"));
  tpl_map_set_str(a, m, "n", tpl_int(2));
  char *out = NULL;
  size_t len = 0;
  tpl_diag d;
  int rc = tpl_render(env, "t", tpl_map_value(m), &out, &len, &d);
  if (rc == 0)
    printf("%s\n", out);
  else
    tpl_diag_print(stderr, &d);
  free(out);
  oc_arena_free(a);
  tpl_env_free(env);
  return rc != 0;
}
EOF
link_prog() { # OUT: links prog.c against the prefix octavo.pc is in
  # shellcheck disable=SC2046
  cc -std=c11 -D_POSIX_C_SOURCE=200809L "$tmp/prog.c" -o "$1" \
    $(pkg-config --cflags --libs --static octavo) >"$tmp/link" 2>&1
}
if link_prog "$tmp/prog" && "$tmp/prog" >"$tmp/prog.out" 2>&1 &&
  grep -qx "LINKED: 4 writers" "$tmp/prog.out"; then
  ok
else
  fail "cc prog.c \$(pkg-config --cflags --libs --static octavo):"
  head -n 20 "$tmp/link" "$tmp/prog.out" 2>/dev/null
fi

# The same program through find_package(Octavo).
mkdir -p "$tmp/cm"
cp "$tmp/prog.c" "$tmp/cm/prog.c"
cat >"$tmp/cm/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.25)
project(uses_octavo C)
find_package(Octavo 0.1 CONFIG REQUIRED)
add_executable(prog prog.c)
target_link_libraries(prog PRIVATE Octavo::octavo_cli)
EOF
if cmake -S "$tmp/cm" -B "$tmp/cm/build" -DCMAKE_PREFIX_PATH="$prefix" \
  >"$tmp/cm.log" 2>&1 && cmake --build "$tmp/cm/build" >>"$tmp/cm.log" 2>&1 &&
  "$tmp/cm/build/prog" >>"$tmp/cm.log" 2>&1; then
  ok
else
  fail "find_package(Octavo) and Octavo::octavo_cli:"
  tail -n 20 "$tmp/cm.log"
fi

# ---- the prefix moved -----------------------------------------------------
mkdir -p "$tmp/elsewhere"
mv "$prefix" "$tmp/elsewhere/octavo"
prefix=$tmp/elsewhere/octavo
export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig"
mkdir -p "$tmp/books"
check "moved: publish new" "$prefix/bin/publish" new "Moved Book" --dir "$tmp/books"
check "moved: publish" "$prefix/bin/publish" -q "$tmp/books/moved-book" web ebook
for f in web/book.html ebook/book.epub; do
  if [ -f "$tmp/books/moved-book/Output/$f" ]; then ok; else fail "moved: no Output/$f"; fi
done
where=$(cd "$(pkg-config --variable=libdir octavo)" 2>/dev/null && pwd -P)
if [ "$where" = "$(cd "$prefix/$libdir" && pwd -P)" ]; then
  ok
else
  fail "moved: octavo.pc's libdir is '$where', not in $prefix"
fi
if link_prog "$tmp/prog2" && "$tmp/prog2" >/dev/null 2>&1; then
  ok
else
  fail "moved: linking against the moved prefix:"
  head -n 20 "$tmp/link"
fi
# The book through the library: octavo_publish_main is publish.
rm -rf "$tmp/books/moved-book/Output"
check "moved: prog publishes" "$tmp/prog2" -q "$tmp/books/moved-book" web
if [ -f "$tmp/books/moved-book/Output/web/book.html" ]; then
  ok
else
  fail "moved: prog wrote no Output/web/book.html"
fi

echo "test_install: $passed passed, $failed failed"
[ "$failed" = 0 ]
