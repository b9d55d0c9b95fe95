# The PDF writer (test_pdf.c): checks its output with qpdf and poppler-utils,
# also under valgrind (--quick skips the 1000-page measurement).
add_executable(test_pdf ${CMAKE_CURRENT_LIST_DIR}/test_pdf.c)
target_link_libraries(test_pdf PRIVATE octavo_tspdf)
add_test(NAME unit_pdf COMMAND test_pdf)
if(OCTAVO_VALGRIND_TESTS AND VALGRIND)
  add_test(NAME unit_pdf_valgrind
           COMMAND ${VALGRIND} --error-exitcode=99 --leak-check=full
                   --errors-for-leak-kinds=definite,indirect -q
                   $<TARGET_FILE:test_pdf> --quick)
endif()
