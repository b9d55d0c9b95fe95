# The template run time and interpreter: the value layer and standard
# library (test_values.c), the engine, interpreter, loader and data reader
# (test_engine.c), and the case suite (tests/templates) run interpreted, compiled
# and against PHP Twig.

add_executable(test_values ${CMAKE_CURRENT_LIST_DIR}/test_values.c)
target_link_libraries(test_values PRIVATE octavo_tplrt)
octavo_test(unit_values template COMMAND test_values)

add_executable(test_engine ${CMAKE_CURRENT_LIST_DIR}/test_engine.c)
target_link_libraries(test_engine PRIVATE octavo_tplinterp octavo_tplfront)
octavo_test(unit_engine template COMMAND test_engine)

# ---- the template case suite ------------------------------------------
set(CASES_DIR ${CMAKE_CURRENT_SOURCE_DIR}/templates/cases)
file(GLOB_RECURSE CASE_FILES CONFIGURE_DEPENDS ${CASES_DIR}/*.test)
add_library(tpl_case STATIC ${CMAKE_CURRENT_SOURCE_DIR}/templates/tpl_case.c)
target_include_directories(tpl_case PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/templates)
target_link_libraries(tpl_case PUBLIC octavo_tplinterp)

# compile_cases compiles every case to C with the back end, for the
# compiled run of case_runner.
add_executable(compile_cases ${CMAKE_CURRENT_SOURCE_DIR}/templates/compile_cases.c)
target_link_libraries(compile_cases PRIVATE tpl_case octavo_themec octavo_tplcgen)
add_custom_command(
  OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/compiled_cases.c
  COMMAND compile_cases ${CASES_DIR}
          -o ${CMAKE_CURRENT_BINARY_DIR}/compiled_cases.c
  DEPENDS compile_cases ${CASE_FILES}
  COMMENT "compile_cases tests/templates/cases")
add_executable(case_runner ${CMAKE_CURRENT_SOURCE_DIR}/templates/case_runner.c
               ${CMAKE_CURRENT_BINARY_DIR}/compiled_cases.c)
target_link_libraries(case_runner PRIVATE tpl_case octavo_tplcgen
                      octavo_tplinterp)

octavo_test(templates_interpreted template
            COMMAND case_runner --interpreted ${CASES_DIR})
octavo_test(templates_compiled template
            COMMAND case_runner --compiled ${CASES_DIR})
octavo_test(templates_oracle template
            REQUIRES php=php-cli /usr/share/php/Twig/autoload.php=php-twig
            COMMAND php ${CMAKE_CURRENT_SOURCE_DIR}/templates/oracle.php
                    ${CASES_DIR})
octavo_valgrind_test(templates_valgrind template
                     COMMAND case_runner --interpreted --compiled ${CASES_DIR})
