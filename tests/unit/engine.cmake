# The PDF engine on small documents: pagination rules, page references,
# margin boxes, checked in the PDF it writes (test_typeset.c). With
# arguments, test_typeset typesets a document: test_typeset DOC.xhtml
# [SHEET.css...] OUT.pdf.
add_executable(test_typeset ${CMAKE_CURRENT_LIST_DIR}/test_typeset.c)
target_link_libraries(test_typeset PRIVATE octavo_pdfengine JPEG::JPEG)
add_test(NAME unit_typeset COMMAND test_typeset)
