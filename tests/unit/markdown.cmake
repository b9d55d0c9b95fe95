# The Markdown module (tests/unit/test_markdown.c), slugs and the book's ids
# (tests/unit/test_slug.c), both also under valgrind: cmark nodes and ICU
# objects must all be freed. bench_markdown times bk_md_render against
# cmark-gfm alone; it is not a test (run it by hand on a corpus book).
add_executable(test_markdown unit/test_markdown.c)
target_link_libraries(test_markdown PRIVATE octavo_book)
add_test(NAME unit_markdown COMMAND test_markdown)

add_executable(test_slug unit/test_slug.c)
target_link_libraries(test_slug PRIVATE octavo_book)
add_test(NAME unit_slug COMMAND test_slug)

if(OCTAVO_VALGRIND_TESTS AND VALGRIND)
  foreach(t markdown slug)
    add_test(NAME unit_${t}_valgrind
             COMMAND ${VALGRIND} --error-exitcode=99 --leak-check=full
                     --errors-for-leak-kinds=definite,indirect -q
                     $<TARGET_FILE:test_${t}>)
  endforeach()
endif()

add_executable(bench_markdown unit/bench_markdown.c)
target_link_libraries(bench_markdown PRIVATE octavo_book)
