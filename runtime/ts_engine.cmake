# The PDF engine: XHTML (libxml2) and the cascade (octavo_css) to a box
# tree, paragraphs set by octavo_typeset's line breaker, pages, and the PDF
# through octavo_tspdf, fonts through octavo_tsfont.
add_library(octavo_pdfengine STATIC ${CMAKE_CURRENT_LIST_DIR}/ts_engine.c
            ${CMAKE_CURRENT_LIST_DIR}/ts_style.c
            ${CMAKE_CURRENT_LIST_DIR}/ts_layout.c
            ${CMAKE_CURRENT_LIST_DIR}/ts_table.c
            ${CMAKE_CURRENT_LIST_DIR}/ts_page.c
            ${CMAKE_CURRENT_LIST_DIR}/ts_hash.c)
target_include_directories(octavo_pdfengine PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(octavo_pdfengine PUBLIC octavo_typeset octavo_css
                      octavo_tsfont octavo_tspdf PkgConfig::LIBXML2)
