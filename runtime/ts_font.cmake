# The typesetter's fonts (ts_font.h): fontconfig finds TrueType files,
# HarfBuzz reads coverage, advances, metrics and kerning. libharu is not a
# dependency here: widths are computed the way libharu computes them, and
# tests/unit/test_font.c checks that against libharu itself. Included from
# runtime/typeset.cmake.
if(NOT TARGET PkgConfig::FONTCONFIG)
  pkg_check_modules(FONTCONFIG REQUIRED IMPORTED_TARGET fontconfig)
endif()
if(NOT TARGET PkgConfig::HARFBUZZ)
  pkg_check_modules(HARFBUZZ REQUIRED IMPORTED_TARGET harfbuzz)
endif()

add_library(octavo_tsfont STATIC ${CMAKE_CURRENT_LIST_DIR}/ts_font.c)
target_include_directories(octavo_tsfont PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(octavo_tsfont PUBLIC octavo_tplrt octavo_book
                      PkgConfig::FONTCONFIG PkgConfig::HARFBUZZ)
