# The book library (octavo_book): the Markdown module (test_markdown.c),
# slugs and the book's ids (test_slug.c), config.yml and the translations
# (test_config.c), the website's search index (test_search.c), the HTML
# text reader (test_htmltext.c), all also under valgrind: cmark nodes, ICU
# objects and the YAML parser's events and files must all be freed. bench_markdown times
# bk_md_render against cmark-gfm alone; it is not a test (run it by hand on
# a corpus book).
foreach(t markdown slug config search htmltext)
  add_executable(test_${t} ${CMAKE_CURRENT_LIST_DIR}/test_${t}.c)
  target_link_libraries(test_${t} PRIVATE octavo_book)
  octavo_test(unit_${t} book COMMAND test_${t})
  octavo_valgrind_test(unit_${t}_valgrind book COMMAND test_${t})
endforeach()

# Line breaking in Chinese and Japanese (test_cjk.c): ICU's opportunities
# as publish asks for them (octavo_linebreak) and the engine's rules that
# complete them (ts_cjk.c in octavo_typeset).
add_executable(test_cjk ${CMAKE_CURRENT_LIST_DIR}/test_cjk.c)
target_link_libraries(test_cjk PRIVATE octavo_linebreak octavo_typeset)
octavo_test(unit_cjk book COMMAND test_cjk)
octavo_valgrind_test(unit_cjk_valgrind book COMMAND test_cjk)

# The output layer of publish (test_fs.c, octavo_publish): nothing written
# outside BOOK/Output/<edition>/ whatever names reach bk_out_*.
add_executable(test_fs ${CMAKE_CURRENT_LIST_DIR}/test_fs.c)
target_link_libraries(test_fs PRIVATE octavo_publish)
octavo_test(unit_fs book COMMAND test_fs)
octavo_valgrind_test(unit_fs_valgrind book COMMAND test_fs)

# The typed book model (test_model.c, book_types.h): a config.yml read
# into the book's, editions' and items' structs (defaults, extends, the
# editions:/formats: filters), and an edition's items and headings.
add_executable(test_model ${CMAKE_CURRENT_LIST_DIR}/test_model.c)
target_link_libraries(test_model PRIVATE octavo_publish)
octavo_test(unit_model book COMMAND test_model)
octavo_valgrind_test(unit_model_valgrind book COMMAND test_model)

add_executable(bench_markdown ${CMAKE_CURRENT_LIST_DIR}/bench_markdown.c)
target_link_libraries(bench_markdown PRIVATE octavo_book)
