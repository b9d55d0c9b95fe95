# octavo_base (tests/unit/test_base.c): the arena, the string builder,
# integer formatting, file reading and OC_GROW, also under valgrind.
add_executable(test_base ${CMAKE_CURRENT_LIST_DIR}/test_base.c)
target_link_libraries(test_base PRIVATE octavo_base)
octavo_test(unit_base base COMMAND test_base)
octavo_valgrind_test(unit_base_valgrind base COMMAND test_base)
# The hash function and index (tests/unit/test_hash.c), also under valgrind.
add_executable(test_hash ${CMAKE_CURRENT_LIST_DIR}/test_hash.c)
target_link_libraries(test_hash PRIVATE octavo_base)
octavo_test(unit_hash base COMMAND test_hash)
octavo_valgrind_test(unit_hash_valgrind base COMMAND test_hash)
# Confinement (tests/unit/test_sandbox.c): the shell runner (also under
# valgrind), and a process confined by Landlock whose escapes get EACCES
# while the runner started before it is not confined (skipped, 77, where
# the kernel has no Landlock).
add_executable(test_sandbox ${CMAKE_CURRENT_LIST_DIR}/test_sandbox.c)
target_link_libraries(test_sandbox PRIVATE octavo_base)
octavo_test(unit_sandbox_shell base COMMAND test_sandbox shell)
octavo_valgrind_test(unit_sandbox_shell_valgrind base COMMAND test_sandbox
                     shell)
octavo_test(unit_sandbox_landlock base COMMAND test_sandbox landlock)
set_tests_properties(unit_sandbox_landlock PROPERTIES SKIP_RETURN_CODE 77)
