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
