# What the build generates and generated/ keeps a committed copy of.

# octavo_generated_fresh(NAME FILE): a test that fails when FILE, made by
# the build, differs from the committed generated/NAME; FILE is also one of
# those the `regenerate` target copies into generated/.
function(octavo_generated_fresh name file)
  string(MAKE_C_IDENTIFIER ${name} id)
  add_test(NAME generated_fresh_${id}
           COMMAND ${CMAKE_COMMAND} -E compare_files ${file}
                   ${PROJECT_SOURCE_DIR}/generated/${name})
  set_tests_properties(generated_fresh_${id} PROPERTIES LABELS "generated;quick")
  set_property(GLOBAL APPEND PROPERTY OCTAVO_GENERATED_FILES ${file})
endfunction()

# octavo_re2c(VAR NAME): the C of NAME.re in the current source folder, in
# VAR. With re2c (OCTAVO_REGENERATE) it is generated in the build folder,
# run there with relative names and without #line so the file carries no
# path, and checked against generated/NAME.c; without, it is the committed
# copy.
function(octavo_re2c var name)
  if(OCTAVO_REGENERATE)
    add_custom_command(
      OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/${name}.c
      COMMAND ${RE2C} -W -Werror --no-generation-date --no-version -i
              -o ${name}.c ${CMAKE_CURRENT_SOURCE_DIR}/${name}.re
      DEPENDS ${name}.re
      WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}
      COMMENT "re2c ${name}.re")
    set(${var} ${CMAKE_CURRENT_BINARY_DIR}/${name}.c PARENT_SCOPE)
    octavo_generated_fresh(${name}.c ${CMAKE_CURRENT_BINARY_DIR}/${name}.c)
  else()
    set(${var} ${PROJECT_SOURCE_DIR}/generated/${name}.c PARENT_SCOPE)
  endif()
endfunction()
