# The typesetter's PDF writer (ts_pdf.c) over Debian's libharu 2.3.0, which
# ships no pkg-config file or CMake config, hence find_path and find_library.
# libharu's internal headers are used by ts_pdf.c only. Included from
# runtime/typeset.cmake.
find_path(HPDF_INCLUDE_DIR hpdf.h REQUIRED)
find_library(HPDF_LIBRARY hpdf REQUIRED)

# pdf_cover.c merges a cover PDF in front of the book with libqpdf.
find_package(PkgConfig REQUIRED)
pkg_check_modules(QPDF REQUIRED IMPORTED_TARGET libqpdf)
# SVG images are drawn by librsvg (with cairo), GIFs read by gdk-pixbuf.
pkg_check_modules(RSVG REQUIRED IMPORTED_TARGET librsvg-2.0 cairo
                  gdk-pixbuf-2.0)

add_library(octavo_tspdf STATIC ${CMAKE_CURRENT_LIST_DIR}/ts_pdf.c
            ${CMAKE_CURRENT_LIST_DIR}/pdf_cover.c)
target_include_directories(octavo_tspdf PUBLIC ${CMAKE_CURRENT_LIST_DIR}
                           PRIVATE ${HPDF_INCLUDE_DIR})
find_package(Threads REQUIRED)
find_package(ZLIB REQUIRED)
find_package(PNG REQUIRED)
target_link_libraries(octavo_tspdf PUBLIC octavo_tplrt octavo_book
                      ${HPDF_LIBRARY} ZLIB::ZLIB PNG::PNG Threads::Threads
                      PkgConfig::QPDF PkgConfig::RSVG)
