# The typesetter's fonts (tests/unit/test_font.c): matching, advances
# checked against libharu itself (linked here only, not into octavo_tsfont),
# kerning, ligatures, fallback, @font-face errors, small capitals. Needs
# fonts-dejavu-core/-extra and fonts-ebgaramond-extra; also run under
# valgrind (fontconfig's one-off allocations are still reachable, not lost).
add_executable(test_font ${CMAKE_CURRENT_LIST_DIR}/test_font.c)
target_include_directories(test_font PRIVATE ${HPDF_INCLUDE_DIR})
target_link_libraries(test_font PRIVATE octavo_tsfont
                      ${HPDF_LIBRARY})
add_test(NAME unit_font COMMAND test_font)
if(OCTAVO_VALGRIND_TESTS AND VALGRIND)
  add_test(NAME unit_font_valgrind
           COMMAND ${VALGRIND} --error-exitcode=99 --leak-check=full
                   --errors-for-leak-kinds=definite,indirect -q
                   $<TARGET_FILE:test_font> --quick)
endif()
