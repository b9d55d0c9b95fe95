# The CSS reader of the PDF engine (css.h): the re2c tokenizer, the parser
# and the cascade. Its strings, rules and styles live in the template
# runtime's arena; its diagnostics go through book_diag (octavo_book).
add_custom_command(
  OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/css_lexer.c
  COMMAND ${RE2C} -W -Werror --no-generation-date --no-version -i
          -o ${CMAKE_CURRENT_BINARY_DIR}/css_lexer.c
          ${CMAKE_CURRENT_LIST_DIR}/css_lexer.re
  DEPENDS ${CMAKE_CURRENT_LIST_DIR}/css_lexer.re
  COMMENT "re2c css_lexer.re")
add_library(octavo_css STATIC
  ${CMAKE_CURRENT_LIST_DIR}/css_parse.c
  ${CMAKE_CURRENT_LIST_DIR}/css_cascade.c
  ${CMAKE_CURRENT_BINARY_DIR}/css_lexer.c)
target_include_directories(octavo_css PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(octavo_css PUBLIC octavo_tplrt octavo_book m)
