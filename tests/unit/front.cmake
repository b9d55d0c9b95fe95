# The template front end (runtime/front) and C back end (compiler/): the
# lexer, parser and checker (test_parser.c), the C back end on hand-built
# ASTs (test_cgen.c), and the themec command.

add_executable(test_parser ${CMAKE_CURRENT_LIST_DIR}/test_parser.c)
target_link_libraries(test_parser PRIVATE octavo_tplfront)
octavo_test(unit_parser front COMMAND test_parser)

# test_cgen: hand-built ASTs compiled to C at build time by
# cgen_fixture_gen, then rendered compiled and interpreted; the generated C
# must also pass clang's -Wall -Wextra -Werror.
add_executable(cgen_fixture_gen ${CMAKE_CURRENT_LIST_DIR}/cgen_fixture_gen.c
               ${CMAKE_CURRENT_LIST_DIR}/cgen_asts.c)
target_include_directories(cgen_fixture_gen PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(cgen_fixture_gen PRIVATE octavo_tplcgen)
add_custom_command(
  OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/cgen_fixture.c
  COMMAND cgen_fixture_gen ${CMAKE_CURRENT_BINARY_DIR}/cgen_fixture.c
  DEPENDS cgen_fixture_gen
  COMMENT "cgen_fixture_gen")
add_executable(test_cgen ${CMAKE_CURRENT_LIST_DIR}/test_cgen.c
               ${CMAKE_CURRENT_LIST_DIR}/cgen_asts.c
               ${CMAKE_CURRENT_BINARY_DIR}/cgen_fixture.c)
target_include_directories(test_cgen PRIVATE ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(test_cgen PRIVATE octavo_tplcgen octavo_tplinterp)
octavo_test(unit_cgen front COMMAND test_cgen)
# Without clang it fails, naming the package.
set(clang clang)
if(CLANG)
  set(clang ${CLANG})
endif()
octavo_test(cgen_clang_werror front REQUIRES clang=clang
            COMMAND ${clang} -std=c11 -Wall -Wextra -Werror -fsyntax-only
                    -I${PROJECT_SOURCE_DIR}/runtime/base
                    -I${PROJECT_SOURCE_DIR}/runtime/template
                    -I${PROJECT_SOURCE_DIR}/compiler
                    -I${CMAKE_CURRENT_SOURCE_DIR}/templates
                    ${CMAKE_CURRENT_BINARY_DIR}/cgen_fixture.c
                    ${CMAKE_CURRENT_BINARY_DIR}/compiled_cases.c)
set_tests_properties(cgen_clang_werror PROPERTIES
                     REQUIRED_FILES "${CMAKE_CURRENT_BINARY_DIR}/compiled_cases.c")

octavo_test(cli_themec front
            COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/cli/test_themec.sh
                    $<TARGET_FILE:themec>)
