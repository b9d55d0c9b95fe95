# octavo_base (tests/unit/test_base.c): the arena, the string builder,
# integer formatting, file reading and OC_GROW, also under valgrind.
add_executable(test_base ${CMAKE_CURRENT_LIST_DIR}/test_base.c)
target_link_libraries(test_base PRIVATE octavo_base)
octavo_test(unit_base base COMMAND test_base)
octavo_valgrind_test(unit_base_valgrind base COMMAND test_base)
