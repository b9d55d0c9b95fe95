# The typesetter's line breaker (test_linebreak.c) and hyphenation
# (test_hyphen.c, which needs Debian's hyphen-en-us, hyphen-en-gb, hyphen-de,
# hyphen-fr, hyphen-es, hyphen-it, hyphen-ca, hyphen-nl, hyphen-pt-pt and
# hyphen-pt-br), also under valgrind.
add_executable(test_linebreak ${CMAKE_CURRENT_LIST_DIR}/test_linebreak.c)
target_link_libraries(test_linebreak PRIVATE octavo_typeset)
add_test(NAME unit_linebreak COMMAND test_linebreak)

add_executable(test_hyphen ${CMAKE_CURRENT_LIST_DIR}/test_hyphen.c)
target_link_libraries(test_hyphen PRIVATE octavo_typeset)
add_test(NAME unit_hyphen COMMAND test_hyphen)
# The same libhyphen leak (see below) for LeakSanitizer in sanitizer builds.
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/libhyphen.lsan "leak:hnj_malloc\n")
set_tests_properties(unit_hyphen PROPERTIES ENVIRONMENT
  "LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_BINARY_DIR}/libhyphen.lsan")

if(OCTAVO_VALGRIND_TESTS AND VALGRIND)
  # libhyphen 2.8.8 itself leaks part of what it allocates while loading
  # hyph_de_DE.dic and hyph_fr.dic (a bare load and hnj_hyphen_free shows
  # it); our own allocations stay checked.
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/libhyphen.supp
       "{\n   libhyphen-load\n   Memcheck:Leak\n   match-leak-kinds: definite\n"
       "   ...\n   fun:hnj_hyphen_load_file\n}\n")
  add_test(NAME unit_linebreak_valgrind
           COMMAND ${VALGRIND} --error-exitcode=99 --leak-check=full
                   --errors-for-leak-kinds=definite,indirect -q
                   $<TARGET_FILE:test_linebreak> --quick)
  add_test(NAME unit_hyphen_valgrind
           COMMAND ${VALGRIND} --error-exitcode=99 --leak-check=full
                   --errors-for-leak-kinds=definite,indirect -q
                   --suppressions=${CMAKE_CURRENT_BINARY_DIR}/libhyphen.supp
                   $<TARGET_FILE:test_hyphen> --quick)
endif()

# The engine's parts: fonts, the PDF writer, the engine itself.
include(${CMAKE_CURRENT_LIST_DIR}/font.cmake OPTIONAL)
include(${CMAKE_CURRENT_LIST_DIR}/pdf.cmake OPTIONAL)
include(${CMAKE_CURRENT_LIST_DIR}/engine.cmake OPTIONAL)
