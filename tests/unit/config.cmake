# config.yml and the translations (tests/unit/test_config.c), also under
# valgrind: the parser's events and files must all be freed.
add_executable(test_config ${CMAKE_CURRENT_LIST_DIR}/test_config.c)
target_link_libraries(test_config PRIVATE octavo_book)
add_test(NAME unit_config COMMAND test_config)
if(OCTAVO_VALGRIND_TESTS AND VALGRIND)
  add_test(NAME unit_config_valgrind
           COMMAND ${VALGRIND} --error-exitcode=99 --leak-check=full
                   --errors-for-leak-kinds=definite,indirect -q
                   $<TARGET_FILE:test_config>)
endif()
