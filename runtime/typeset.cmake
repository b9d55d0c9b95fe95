# The typesetter's foundations (the PDF engine): line breaking and
# hyphenation. libhyphen ships no pkg-config file, hence find_path and
# find_library. Included from runtime/CMakeLists.txt.
find_path(HYPHEN_INCLUDE_DIR hyphen.h REQUIRED)
find_library(HYPHEN_LIBRARY hyphen REQUIRED)

add_library(octavo_typeset STATIC ${CMAKE_CURRENT_LIST_DIR}/ts_linebreak.c
            ${CMAKE_CURRENT_LIST_DIR}/ts_hyphen.c)
target_include_directories(octavo_typeset PUBLIC ${CMAKE_CURRENT_LIST_DIR}
                           PRIVATE ${HYPHEN_INCLUDE_DIR})
target_link_libraries(octavo_typeset PUBLIC octavo_tplrt ${HYPHEN_LIBRARY}
                      PkgConfig::UTF8PROC m)

# The PDF engine proper, one library per part so each can be tested alone:
# ts_font.cmake (octavo_tsfont: fontconfig and HarfBuzz), ts_pdf.cmake
# (octavo_tspdf: libharu), ts_engine.cmake (octavo_pdfengine: the box tree,
# paragraphs, pages).
include(${CMAKE_CURRENT_LIST_DIR}/ts_font.cmake OPTIONAL)
include(${CMAKE_CURRENT_LIST_DIR}/ts_pdf.cmake OPTIONAL)
include(${CMAKE_CURRENT_LIST_DIR}/ts_engine.cmake OPTIONAL)
