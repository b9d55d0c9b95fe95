# Every external dependency of the build, looked up in one place. All come
# from Debian 12's packages (scripts/install-deps.sh lists them).
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(ZLIB REQUIRED)
find_package(PNG REQUIRED)
find_package(JPEG REQUIRED)

# base and the template run time
pkg_check_modules(UTF8PROC REQUIRED IMPORTED_TARGET libutf8proc)
pkg_check_modules(PCRE2 REQUIRED IMPORTED_TARGET libpcre2-8)
pkg_check_modules(YAML REQUIRED IMPORTED_TARGET yaml-0.1)

# the book: Markdown, slugs, the EPUB's zip, XHTML checks
pkg_check_modules(CMARKGFM REQUIRED IMPORTED_TARGET libcmark-gfm)
pkg_check_modules(ICU REQUIRED IMPORTED_TARGET icu-uc icu-i18n)
pkg_check_modules(LIBZIP REQUIRED IMPORTED_TARGET libzip)
pkg_check_modules(LIBXML2 REQUIRED IMPORTED_TARGET libxml-2.0)

# the typesetter: fonts, PDF, images, hyphenation, cover merging.
# libharu and libhyphen ship no pkg-config file, hence find_path and
# find_library.
pkg_check_modules(FONTCONFIG REQUIRED IMPORTED_TARGET fontconfig)
pkg_check_modules(HARFBUZZ REQUIRED IMPORTED_TARGET harfbuzz)
pkg_check_modules(HBSUBSET REQUIRED IMPORTED_TARGET harfbuzz-subset)
pkg_check_modules(FREETYPE REQUIRED IMPORTED_TARGET freetype2)
pkg_check_modules(QPDF REQUIRED IMPORTED_TARGET libqpdf)
pkg_check_modules(RSVG REQUIRED IMPORTED_TARGET librsvg-2.0 cairo
                  gdk-pixbuf-2.0)
find_path(HPDF_INCLUDE_DIR hpdf.h REQUIRED)
find_library(HPDF_LIBRARY hpdf REQUIRED)
find_path(HYPHEN_INCLUDE_DIR hyphen.h REQUIRED)
find_library(HYPHEN_LIBRARY hyphen REQUIRED)

# the writer's loop: Lua reads the code highlighter's grammars (highlight's
# langDefs), libmicrohttpd serves `publish serve`, libstemmer (Snowball; no
# pkg-config file) stems the website's search index.
pkg_check_modules(LUA REQUIRED IMPORTED_TARGET lua5.4)
pkg_check_modules(MHD REQUIRED IMPORTED_TARGET libmicrohttpd)
find_path(STEMMER_INCLUDE_DIR libstemmer.h REQUIRED)
find_library(STEMMER_LIBRARY stemmer REQUIRED)

# The language front ends' generators. Without them the build compiles the
# committed copies in generated/ (see generated/README.md).
find_program(RE2C re2c)
find_package(BISON 3.0)
if(RE2C AND BISON_FOUND AND NOT OCTAVO_USE_GENERATED)
  set(OCTAVO_REGENERATE ON)
else()
  set(OCTAVO_REGENERATE OFF)
  message(STATUS "Octavo: compiling the committed lexers and parser in "
                 "generated/ (re2c or bison missing, or OCTAVO_USE_GENERATED)")
endif()

# Test tools
find_program(VALGRIND valgrind)
find_program(CLANG clang)
find_program(OCTAVO_PYTHON3 python3 HINTS /usr/bin)
