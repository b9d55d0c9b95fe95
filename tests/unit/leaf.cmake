# The leaf libraries (runtime/highlight, serve, search, linebreak), each
# test linking its library alone (and octavo_base through it), also under
# valgrind: label leaf.

# octavo_linebreak (test_lb.c): ICU's opportunities by code point.
add_executable(test_lb ${CMAKE_CURRENT_LIST_DIR}/test_lb.c)
target_link_libraries(test_lb PRIVATE octavo_linebreak)
octavo_test(unit_lb leaf COMMAND test_lb)
octavo_valgrind_test(unit_lb_valgrind leaf COMMAND test_lb)
