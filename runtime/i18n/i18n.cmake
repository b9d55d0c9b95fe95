# The built-in labels and titles (runtime/i18n/*.yml), embedded into
# octavo_book at build time by embed.cmake; book_i18n.c reads them through
# bk_i18n_builtin().
file(GLOB OCTAVO_I18N_YAML CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.yml)
set(OCTAVO_I18N_C ${CMAKE_CURRENT_BINARY_DIR}/book_i18n_data.c)
add_custom_command(
  OUTPUT ${OCTAVO_I18N_C}
  COMMAND ${CMAKE_COMMAND} -DDIR=${CMAKE_CURRENT_LIST_DIR}
          -DOUT=${OCTAVO_I18N_C} -P ${CMAKE_CURRENT_LIST_DIR}/embed.cmake
  DEPENDS ${OCTAVO_I18N_YAML} ${CMAKE_CURRENT_LIST_DIR}/embed.cmake
  COMMENT "Embedding the built-in translations")
target_sources(octavo_book PRIVATE ${OCTAVO_I18N_C})
