# The CSS reader and cascade (tests/unit/test_css.c), also under valgrind.
add_executable(test_css ${CMAKE_CURRENT_LIST_DIR}/test_css.c)
target_link_libraries(test_css PRIVATE octavo_css)
add_test(NAME unit_css COMMAND test_css)
if(OCTAVO_VALGRIND_TESTS AND VALGRIND)
  add_test(NAME unit_css_valgrind
           COMMAND ${VALGRIND} --error-exitcode=99 --leak-check=full
                   --errors-for-leak-kinds=definite,indirect -q
                   $<TARGET_FILE:test_css>)
endif()
