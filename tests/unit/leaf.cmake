# The leaf libraries (runtime/highlight, serve, search, linebreak), each
# test linking its library alone (and octavo_base through it), also under
# valgrind: label leaf.

# octavo_linebreak (test_lb.c): ICU's opportunities by code point.
add_executable(test_lb ${CMAKE_CURRENT_LIST_DIR}/test_lb.c)
target_link_libraries(test_lb PRIVATE octavo_linebreak)
octavo_test(unit_lb leaf COMMAND test_lb)
octavo_valgrind_test(unit_lb_valgrind leaf COMMAND test_lb)

# octavo_highlight (test_highlight.c): names, classes, nested grammars,
# states, caps, on the grammars of Debian's highlight-common; and the names
# Easybook's books give code (GeSHi's language files) against its table.
add_executable(test_highlight ${CMAKE_CURRENT_LIST_DIR}/test_highlight.c)
target_link_libraries(test_highlight PRIVATE octavo_highlight)
octavo_test(unit_highlight leaf COMMAND test_highlight)
octavo_valgrind_test(unit_highlight_valgrind leaf COMMAND test_highlight)
octavo_test(unit_highlight_geshi leaf
  REQUIRES /usr/share/php-geshi/geshi=php-geshi
  COMMAND test_highlight --geshi /usr/share/php-geshi/geshi)

# octavo_search (test_si.c): the index fed text as the book feeds it. The
# book's side, pages read as HTML, is test_search.c (book.cmake).
add_executable(test_si ${CMAKE_CURRENT_LIST_DIR}/test_si.c)
target_link_libraries(test_si PRIVATE octavo_search)
octavo_test(unit_si leaf COMMAND test_si)
octavo_valgrind_test(unit_si_valgrind leaf COMMAND test_si)

# octavo_serve (test_sv.c): the server over a socket on a folder it makes,
# the lock handed over, what it refuses; the watch.
add_executable(test_sv ${CMAKE_CURRENT_LIST_DIR}/test_sv.c)
target_link_libraries(test_sv PRIVATE octavo_serve)
octavo_test(unit_sv leaf COMMAND test_sv)
octavo_valgrind_test(unit_sv_valgrind leaf COMMAND test_sv)
