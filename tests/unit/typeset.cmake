# The typesetter's libraries: the CSS reader and cascade (test_css.c), the
# line breaker (test_linebreak.c), hyphenation (test_hyphen.c, which needs
# Debian's hyphen-en-us, hyphen-en-gb, hyphen-de, hyphen-fr, hyphen-es,
# hyphen-it, hyphen-ca, hyphen-nl, hyphen-pt-pt and hyphen-pt-br), fonts
# (test_font.c), the PDF writer (test_pdf.c) and the PDF engine
# (test_typeset.c); all but the engine also under valgrind.

add_executable(test_css ${CMAKE_CURRENT_LIST_DIR}/test_css.c)
target_link_libraries(test_css PRIVATE octavo_css)
octavo_test(unit_css typeset COMMAND test_css)
octavo_valgrind_test(unit_css_valgrind typeset COMMAND test_css)

# --quick (under valgrind) skips the long measurements.
add_executable(test_linebreak ${CMAKE_CURRENT_LIST_DIR}/test_linebreak.c)
target_link_libraries(test_linebreak PRIVATE octavo_typeset)
octavo_test(unit_linebreak typeset COMMAND test_linebreak)
octavo_valgrind_test(unit_linebreak_valgrind typeset
                     COMMAND test_linebreak --quick)

add_executable(test_hyphen ${CMAKE_CURRENT_LIST_DIR}/test_hyphen.c)
target_link_libraries(test_hyphen PRIVATE octavo_typeset)
set(hyphen_needs "")
foreach(pair en_US=hyphen-en-us en_GB=hyphen-en-gb de_DE=hyphen-de
        fr=hyphen-fr es_ES=hyphen-es it_IT=hyphen-it ca_ES=hyphen-ca
        nl_NL=hyphen-nl pt_PT=hyphen-pt-pt pt_BR=hyphen-pt-br)
  string(REPLACE "=" ".dic=" pair ${pair})
  list(APPEND hyphen_needs /usr/share/hyphen/hyph_${pair})
endforeach()
octavo_test(unit_hyphen typeset REQUIRES ${hyphen_needs} COMMAND test_hyphen)
# libhyphen 2.8.8 itself leaks part of what it allocates while loading
# hyph_de_DE.dic and hyph_fr.dic (a bare load and hnj_hyphen_free shows
# it); our own allocations stay checked. The same for LeakSanitizer in
# sanitizer builds.
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/libhyphen.lsan "leak:hnj_malloc\n")
set_tests_properties(unit_hyphen PROPERTIES ENVIRONMENT
  "LSAN_OPTIONS=suppressions=${CMAKE_CURRENT_BINARY_DIR}/libhyphen.lsan")
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/libhyphen.supp
     "{\n   libhyphen-load\n   Memcheck:Leak\n   match-leak-kinds: definite\n"
     "   ...\n   fun:hnj_hyphen_load_file\n}\n")
octavo_valgrind_test(unit_hyphen_valgrind typeset
                     SUPPRESSIONS ${CMAKE_CURRENT_BINARY_DIR}/libhyphen.supp
                     REQUIRES ${hyphen_needs}
                     COMMAND test_hyphen --quick)

# Fonts: matching, advances checked against libharu itself (linked here
# only, not into octavo_tsfont), kerning, ligatures, fallback, @font-face
# errors, small capitals. Needs fonts-dejavu-core/-extra and
# fonts-ebgaramond-extra (fontconfig's one-off allocations are still
# reachable under valgrind, not lost).
add_executable(test_font ${CMAKE_CURRENT_LIST_DIR}/test_font.c)
target_include_directories(test_font PRIVATE ${HPDF_INCLUDE_DIR})
target_link_libraries(test_font PRIVATE octavo_tsfont ${HPDF_LIBRARY})
# It also needs fonts-urw-base35 (Nimbus Roman and a CFF .otf) and
# fontconfig's fc-list.
set(font_needs ${OCTAVO_NEEDS_DEJAVU}
    /usr/share/fonts/truetype/ebgaramond/EBGaramond12-Regular.ttf=fonts-ebgaramond-extra
    /usr/share/fonts/truetype/ebgaramond/EBGaramondSC12-Regular.ttf=fonts-ebgaramond-extra
    /usr/share/fonts/opentype/urw-base35/NimbusRoman-Regular.otf=fonts-urw-base35
    /usr/share/fonts/opentype/urw-base35/P052-Roman.otf=fonts-urw-base35
    fc-list=fontconfig ${OCTAVO_NEEDS_CFF})
octavo_test(unit_font typeset REQUIRES ${font_needs} COMMAND test_font)
octavo_valgrind_test(unit_font_valgrind typeset REQUIRES ${font_needs}
                     COMMAND test_font --quick)

# The PDF writer: checks its output with qpdf and poppler-utils (--quick
# skips the 1000-page measurement).
add_executable(test_pdf ${CMAKE_CURRENT_LIST_DIR}/test_pdf.c)
target_link_libraries(test_pdf PRIVATE octavo_tspdf)
octavo_test(unit_pdf typeset REQUIRES ${OCTAVO_NEEDS_DEJAVU}
            ${OCTAVO_NEEDS_CFF} ${OCTAVO_NEEDS_PDFTOOLS} COMMAND test_pdf)
octavo_valgrind_test(unit_pdf_valgrind typeset
                     REQUIRES ${OCTAVO_NEEDS_DEJAVU} ${OCTAVO_NEEDS_CFF}
                     ${OCTAVO_NEEDS_PDFTOOLS}
                     COMMAND test_pdf --quick)

# The PDF engine on small documents: pagination rules, page references,
# margin boxes, checked in the PDF it writes. With arguments, test_typeset
# typesets a document: test_typeset DOC.xhtml [SHEET.css...] OUT.pdf.
add_executable(test_typeset ${CMAKE_CURRENT_LIST_DIR}/test_typeset.c)
target_link_libraries(test_typeset PRIVATE octavo_pdfengine JPEG::JPEG)
# (The CJK fallback face for test_cjk_text.)
octavo_test(unit_typeset typeset REQUIRES ${OCTAVO_NEEDS_DEJAVU}
            ${OCTAVO_NEEDS_PDFTOOLS}
            /usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf=fonts-droid-fallback
            COMMAND test_typeset)
