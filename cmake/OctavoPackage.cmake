# `make package` (cpack -G DEB): one Debian package, octavo, of what
# `cmake --install` installs, under /usr. dpkg-shlibdeps (dpkg-dev) finds
# the shared libraries publish and themec need; the fonts and hyphenation
# patterns publish reads at run time are not linked, so they are listed
# here by hand, as scripts/install-deps.sh lists them.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME octavo)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "The Octavo developers")
set(CPACK_PACKAGE_CONTACT "The Octavo developers <octavo@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "command-line book publisher: Markdown to EPUB, HTML and PDF")
# The summary is the Description's first line; CPack indents this text
# under it (a blank line becomes " .").
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Octavo publishes a book kept as Markdown chapters and a config.yml in
Easybook's format as EPUB 3, a single HTML page, a chunked HTML website,
or a PDF that it typesets itself.

The package holds the publish and themec commands, their manual pages,
the user guide, the bundled themes' sources, and the run-time libraries,
headers, octavo.pc and OctavoConfig.cmake that themec build links with.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION text)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The bundled themes' faces (clean: EB Garamond 12, DejaVu Serif and Sans
# Mono; tech: Noto Serif, Sans and Sans Display), Noto CJK (the faces of
# Chinese, Japanese and Korean text, and of the guide's examples) and
# English hyphenation, and highlight's grammars (highlight-common: code
# is highlighted from its langDefs); the rest is recommended: the
# DejaVu variants (italic code), a second CJK fallback face, the sRGB profile of
# pdf_a (libgs-common) and the other languages' hyphenation patterns.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "fonts-ebgaramond-extra, fonts-dejavu-core, fonts-noto-core, fonts-noto-cjk, hyphen-en-us, highlight-common")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
    "fonts-dejavu-extra, fonts-droid-fallback, libgs-common, hyphen-en-gb, hyphen-de, hyphen-fr, hyphen-es, hyphen-it, hyphen-ca, hyphen-nl, hyphen-pt-pt, hyphen-pt-br")
# What themec build (a new publish linked with the installed libraries)
# needs: a C compiler, pkg-config and the -dev packages octavo.pc names.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS
    "gcc, libc6-dev, pkg-config, libyaml-dev, libutf8proc-dev, libpcre2-dev, libcmark-gfm-dev, libcmark-gfm-extensions-dev, libicu-dev, libzip-dev, libxml2-dev, libhyphen-dev, libhpdf-dev, libpng-dev, libjpeg-dev, librsvg2-dev, libfontconfig-dev, libfreetype-dev, libharfbuzz-dev, libqpdf-dev, libbz2-dev, libunistring-dev, liblua5.4-dev, libmicrohttpd-dev, libstemmer-dev")
# Reproducible where CPack allows: the guide inside is dated by the last
# commit (docs/CMakeLists.txt), and the archive's times by
# SOURCE_DATE_EPOCH when the environment sets it (the Makefile does).
include(CPack)
