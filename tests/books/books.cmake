# End-to-end tests of `publish` for the HTML editions (tests/books/README.md):
# the catalogue of broken books, the golden books, HTML validity and links,
# the large synthetic book, and the command line.
set(OCTAVO_MAKE_CORPUS ${PROJECT_SOURCE_DIR}/scripts/make-corpus
    CACHE FILEPATH
    "make-corpus, the generator of synthetic books (books_corpus_large)")
set(BOOKS_DIR ${CMAKE_CURRENT_SOURCE_DIR}/books)
# Each test runs through tests/require.sh with what it needs from the
# system (tests/CMakeLists.txt): a missing tool, font or jar fails the
# test, naming the package. The Python scripts run under OCTAVO_PY
# (/usr/bin/python3 when CMake found it).
set(need_py ${OCTAVO_NEEDS_PYTHON})
set(need_yaml /usr/lib/python3/dist-packages/yaml/__init__.py=python3-yaml)
octavo_require(req_errors books_errors ${need_py} ${OCTAVO_NEEDS_PDF_BOOKS})
octavo_require(req_golden books_golden ${need_py})
octavo_require(req_html_valid books_html_valid ${need_py} ${OCTAVO_NEEDS_VNU})
octavo_require(req_corpus books_corpus_large ${need_py})
octavo_require(req_signals books_signals ${need_py})
octavo_require(req_search books_search ${need_py}
               chromedriver=chromium-driver chromium=chromium
               /usr/lib/python3/dist-packages/selenium/__init__.py=python3-selenium)
octavo_require(req_mistakes books_mistakes ${need_py} ${OCTAVO_NEEDS_PDFTOOLS}
               ${OCTAVO_NEEDS_EPUBCHECK} ${OCTAVO_NEEDS_VNU}
               ${OCTAVO_NEEDS_PDF_BOOKS})
octavo_require(req_valgrind books_valgrind valgrind=valgrind ${need_py}
               ${OCTAVO_NEEDS_PDF_BOOKS})
octavo_require(req_epub books_epub ${need_py} ${OCTAVO_NEEDS_EPUBCHECK})
octavo_require(req_pdf books_pdf ${need_py} ${need_yaml}
               ${OCTAVO_NEEDS_PDFTOOLS} ${OCTAVO_NEEDS_PDF_BOOKS})
octavo_require(req_pdf_tagged books_pdf_tagged ${need_py} ${need_yaml}
               ${OCTAVO_NEEDS_PDFTOOLS} ${OCTAVO_NEEDS_PDF_BOOKS})
octavo_require(req_pdf_print books_pdf_print ${need_py}
               ${OCTAVO_NEEDS_PDFTOOLS} ${OCTAVO_NEEDS_PDF_BOOKS}
               /usr/share/color/icc/ghostscript/srgb.icc=libgs-common)

add_test(NAME books_errors
         COMMAND ${req_errors} ${OCTAVO_PY} ${BOOKS_DIR}/run_errors.py
                 $<TARGET_FILE:publish> ${BOOKS_DIR}/errors)
add_test(NAME books_golden
         COMMAND ${req_golden} ${OCTAVO_PY} ${BOOKS_DIR}/run_golden.py
                 $<TARGET_FILE:publish> ${BOOKS_DIR}/golden)
add_test(NAME books_html_valid
         COMMAND ${req_html_valid} ${OCTAVO_PY} ${BOOKS_DIR}/test_html_valid.py
                 $<TARGET_FILE:publish> ${PROJECT_SOURCE_DIR})
add_test(NAME books_corpus_large
         COMMAND ${req_corpus} sh ${BOOKS_DIR}/test_corpus.sh $<TARGET_FILE:publish>
                 ${OCTAVO_MAKE_CORPUS})
add_test(NAME books_cli
         COMMAND sh ${BOOKS_DIR}/test_cli.sh $<TARGET_FILE:publish>
                 ${PROJECT_VERSION})
octavo_require(req_interpreted books_interpreted_theme
               ${OCTAVO_NEEDS_PDF_BOOKS} ${OCTAVO_NEEDS_TECH})
add_test(NAME books_interpreted_theme
         COMMAND ${req_interpreted} sh ${BOOKS_DIR}/test_interpreted_theme.sh
                 $<TARGET_FILE:publish> ${PROJECT_SOURCE_DIR})
# publish stopped by SIGTERM and SIGINT, and stale temporary folders.
add_test(NAME books_signals
         COMMAND ${req_signals} ${OCTAVO_PY} ${BOOKS_DIR}/test_signals.py
                 $<TARGET_FILE:publish>)
# The website's search box in headless Chromium over file:// (the search
# book, the guide, the Chinese book), and the index's size and bytes.
add_test(NAME books_search
         COMMAND ${req_search} ${OCTAVO_PY} ${BOOKS_DIR}/test_search.py
                 $<TARGET_FILE:publish> ${PROJECT_SOURCE_DIR})
# A book full of author mistakes (books/mistakes/): one warning each,
# valid output in every edition, --strict an error.
add_test(NAME books_mistakes
         COMMAND ${req_mistakes} ${OCTAVO_PY} ${BOOKS_DIR}/test_mistakes.py
                 $<TARGET_FILE:publish> ${PROJECT_SOURCE_DIR})
# Raw HTML that tries to run a script (books/rawhtml/): nothing runs in
# headless Chromium in any edition, one warning per removal, valid
# outputs, honest SVG and MathML kept.
octavo_require(req_rawhtml books_rawhtml ${need_py} ${OCTAVO_NEEDS_PDFTOOLS}
               ${OCTAVO_NEEDS_EPUBCHECK} ${OCTAVO_NEEDS_VNU}
               ${OCTAVO_NEEDS_PDF_BOOKS}
               chromedriver=chromium-driver chromium=chromium
               /usr/lib/python3/dist-packages/selenium/__init__.py=python3-selenium)
add_test(NAME books_rawhtml
         COMMAND ${req_rawhtml} ${OCTAVO_PY} ${BOOKS_DIR}/test_rawhtml.py
                 $<TARGET_FILE:publish> ${PROJECT_SOURCE_DIR})
set_tests_properties(books_rawhtml PROPERTIES
                     LABELS books TIMEOUT 300 SKIP_RETURN_CODE 77)
# Confinement (test_sandbox.sh): publish-planted, publish with an escape
# bug planted after each writer (plant_escape.c), is stopped by the
# sandbox and not without it; scripts still run unconfined. Under nosys
# (nosys.c: Landlock's calls answering ENOSYS, as a kernel without it),
# publish warns that it runs unconfined, without -v.
add_executable(octavo-nosys ${BOOKS_DIR}/nosys.c)
add_executable(publish-planted ${PROJECT_SOURCE_DIR}/runtime/book/publish.c
               ${PROJECT_SOURCE_DIR}/runtime/book/publish_loop.c
               ${PROJECT_SOURCE_DIR}/runtime/book/publish_new.c
               ${PROJECT_SOURCE_DIR}/runtime/book/publish_bundled.c
               ${BOOKS_DIR}/plant_escape.c)
target_link_libraries(publish-planted PRIVATE octavo_publish octavo_serve)
target_compile_definitions(publish-planted PRIVATE OCTAVO_TEST_PLANT_ESCAPE
                           OCTAVO_VERSION="${PROJECT_VERSION}")
add_test(NAME books_sandbox
         COMMAND sh ${BOOKS_DIR}/test_sandbox.sh $<TARGET_FILE:publish-planted>
                 $<TARGET_FILE:octavo-nosys>)
# publish serve in headless Chromium (test_serve.py): an edit shows in the
# open page within a second, broken edits show the overlay over the last
# good page, the served script is not in the published files, no path
# leaves the output folder.
octavo_require(req_serve books_serve ${need_py}
               chromedriver=chromium-driver chromium=chromium
               /usr/lib/python3/dist-packages/selenium/__init__.py=python3-selenium)
add_test(NAME books_serve
         COMMAND ${req_serve} ${OCTAVO_PY} ${BOOKS_DIR}/test_serve.py
                 $<TARGET_FILE:publish>)
# publish --watch (test_watch.py): a change republishes, and every warm,
# incremental publish equals a cold one byte for byte.
octavo_require(req_watch books_watch ${need_py})
add_test(NAME books_watch
         COMMAND ${req_watch} ${OCTAVO_PY} ${BOOKS_DIR}/test_watch.py
                 $<TARGET_FILE:publish> ${OCTAVO_MAKE_CORPUS})
# publish serve kept inside the book (test_serve_escape.py): Output -> /,
# Output/<edition> -> /etc, links inside the served folder and links
# swapped in while serving get 404 and nothing outside is read; again
# under nosys (tests/books/nosys.c: openat2 answering ENOSYS through a
# seccomp filter, the walk without it). Under load (test_serve_load.py,
# on 127.0.0.1, about 40 s): 1,500 idle connections, slow readers of a
# large page, events channels, the idle timeout.
octavo_require(req_serve_escape books_serve_escape ${need_py})
octavo_require(req_serve_load books_serve_load ${need_py})
add_test(NAME books_serve_escape
         COMMAND ${req_serve_escape} ${OCTAVO_PY} ${BOOKS_DIR}/test_serve_escape.py
                 $<TARGET_FILE:publish> $<TARGET_FILE:octavo-nosys>)
add_test(NAME books_serve_load
         COMMAND ${req_serve_load} ${OCTAVO_PY} ${BOOKS_DIR}/test_serve_load.py
                 $<TARGET_FILE:publish>)
# Values of config.yml with markup in them (books/config-text/): printed as
# text in every edition of both bundled themes, ids and file names
# sanitised, EPUBCheck, the PDF's metadata and text.
octavo_require(req_config_text books_config_text ${need_py} ${need_yaml}
               ${OCTAVO_NEEDS_PDFTOOLS} ${OCTAVO_NEEDS_EPUBCHECK}
               ${OCTAVO_NEEDS_PDF_BOOKS} ${OCTAVO_NEEDS_TECH})
add_test(NAME books_config_text
         COMMAND ${req_config_text} ${OCTAVO_PY} ${BOOKS_DIR}/test_config_text.py
                 $<TARGET_FILE:publish>)
set_tests_properties(books_config_text PROPERTIES
                     LABELS books TIMEOUT 300 SKIP_RETURN_CODE 77)
set(book_tests books_errors books_golden books_html_valid books_corpus_large
    books_cli books_interpreted_theme books_signals books_mistakes
    books_sandbox books_search books_serve books_watch books_serve_escape
    books_serve_load)
set_tests_properties(${book_tests} PROPERTIES
                     LABELS books TIMEOUT 300 SKIP_RETURN_CODE 77)
if(OCTAVO_VALGRIND_TESTS)
  add_test(NAME books_valgrind
           COMMAND ${req_valgrind} sh ${BOOKS_DIR}/test_valgrind.sh $<TARGET_FILE:publish>
                   ${PROJECT_SOURCE_DIR})
  set_tests_properties(books_valgrind PROPERTIES
                       LABELS "books;valgrind" TIMEOUT 300 SKIP_RETURN_CODE 77)
endif()
# The EPUB editions (test_epub.py): EPUBCheck, the zip's structure,
# reproducibility, links and manifest, identifiers, the sampler's golden
# package. EPUBCheck's JVM makes it the slowest of the book tests.
add_test(NAME books_epub
         COMMAND ${req_epub} ${OCTAVO_PY} ${BOOKS_DIR}/test_epub.py
                 $<TARGET_FILE:publish> ${PROJECT_SOURCE_DIR}
                 --make-corpus ${OCTAVO_MAKE_CORPUS})
set_tests_properties(books_epub PROPERTIES
                     LABELS books TIMEOUT 600 SKIP_RETURN_CODE 77)
# The printed pages in the e-book (test_page_list.py): the guide's ebook
# marks the pages of its print edition; its page-list's labels are the
# PDF's, each marker stands before the words that open its PDF page; the
# EPUB is the same whether the PDF is published in the same run or only
# set; page_source's mistakes are errors at their line.
octavo_require(req_page_list books_page_list ${need_py}
               ${OCTAVO_NEEDS_PDFTOOLS} ${OCTAVO_NEEDS_PDF_BOOKS})
add_test(NAME books_page_list
         COMMAND ${req_page_list} ${OCTAVO_PY} ${BOOKS_DIR}/test_page_list.py
                 $<TARGET_FILE:publish> ${PROJECT_SOURCE_DIR})
set_tests_properties(books_page_list PROPERTIES
                     LABELS books TIMEOUT 300 SKIP_RETURN_CODE 77)
# The PDF editions (test_pdf.py, tests/books/pdf/README.md): qpdf --check,
# embedded subset fonts, the sources' words in the text, every word inside
# the text area or the margin bands, the TOC's page numbers, the outline,
# title and author, page labels, reproducibility. A book without a pdf
# edition is skipped with a note; none at all fails.
add_test(NAME books_pdf
         COMMAND ${req_pdf} ${OCTAVO_PY} ${BOOKS_DIR}/test_pdf.py
                 $<TARGET_FILE:publish> ${BOOKS_DIR}/pdf/sampler
                 ${BOOKS_DIR}/pdf/tiny ${BOOKS_DIR}/pdf/info
                 ${PROJECT_SOURCE_DIR}/docs/guide
                 --golden ${BOOKS_DIR}/pdf/golden)
set_tests_properties(books_pdf PROPERTIES
                     LABELS books TIMEOUT 300 SKIP_RETURN_CODE 77)
# A book set in CFF faces only (pdf/cff: TeX Gyre, and Noto CJK for its
# Japanese): the same checks, and every font a subset CIDFontType0 over a
# bare CFF program.
add_test(NAME books_pdf_cff
         COMMAND ${req_pdf} ${OCTAVO_PY} ${BOOKS_DIR}/test_pdf.py
                 $<TARGET_FILE:publish> ${BOOKS_DIR}/pdf/cff
                 --font-type "CID Type 0C" --golden ${BOOKS_DIR}/pdf/golden)
set_tests_properties(books_pdf_cff PROPERTIES LABELS books TIMEOUT 300)
# Chinese and Japanese (test_cjk.py, tests/books/pdf/chinese and japanese):
# every edition published; in the PDF every Han and kana character of the
# sources, no line starting with closing punctuation or small kana nor
# ending with an opening bracket, lines broken between characters and
# justified to the right edge. The CJK faces are Noto CJK's (fonts-noto-cjk),
# chosen by the books' language (Simplified Chinese, Japanese).
octavo_require(req_cjk books_cjk ${need_py} ${OCTAVO_NEEDS_PDFTOOLS}
               ${OCTAVO_NEEDS_PDF_BOOKS})
add_test(NAME books_cjk
         COMMAND ${req_cjk} ${OCTAVO_PY} ${BOOKS_DIR}/test_cjk.py
                 $<TARGET_FILE:publish> ${BOOKS_DIR}/pdf/chinese
                 ${BOOKS_DIR}/pdf/japanese)
# And test_pdf.py's checks on both, without golden texts: their line
# breaks depend on the CJK face installed, which these tests do not pin.
octavo_require(req_pdf_cjk books_pdf_cjk ${need_py} ${need_yaml}
               ${OCTAVO_NEEDS_PDFTOOLS} ${OCTAVO_NEEDS_PDF_BOOKS})
add_test(NAME books_pdf_cjk
         COMMAND ${req_pdf_cjk} ${OCTAVO_PY} ${BOOKS_DIR}/test_pdf.py
                 $<TARGET_FILE:publish> ${BOOKS_DIR}/pdf/chinese
                 ${BOOKS_DIR}/pdf/japanese)
set_tests_properties(books_cjk books_pdf_cjk PROPERTIES
                     LABELS books TIMEOUT 120 SKIP_RETURN_CODE 77)
# Tagged PDF (test_pdf_tagged.py): the structure tree read back by poppler
# holds the XHTML's text in order (99 % recall and order), no text or
# image outside marked content or an artifact, the catalog's, pages',
# figures' and links' entries PDF/UA-1 asks for, /Lang where a phrase is
# in another language, decorative images as artifacts (tests/books/pdf/
# tagged), pdf_tagged: false; also on the Chinese, Japanese and CFF books
# (Han and kana read one character a word). The
# guide takes poppler minutes: it extracts each element's text alone.
add_test(NAME books_pdf_tagged
         COMMAND ${req_pdf_tagged} ${OCTAVO_PY} ${BOOKS_DIR}/test_pdf_tagged.py
                 $<TARGET_FILE:publish> ${BOOKS_DIR}/pdf/tagged
                 ${BOOKS_DIR}/pdf/sampler ${BOOKS_DIR}/pdf/chinese
                 ${BOOKS_DIR}/pdf/japanese ${BOOKS_DIR}/pdf/cff
                 ${PROJECT_SOURCE_DIR}/docs/guide)
set_tests_properties(books_pdf_tagged PROPERTIES
                     LABELS books TIMEOUT 900 SKIP_RETURN_CODE 77)
# Print production (test_pdf_print.py, tests/books/pdf/print/): bleed,
# TrimBox and BleedBox, crop marks, the cover.pdf and cover.png covers
# with their page labels, PDF/A-1b's metadata, reproducibility.
add_test(NAME books_pdf_print
         COMMAND ${req_pdf_print} ${OCTAVO_PY} ${BOOKS_DIR}/test_pdf_print.py
                 $<TARGET_FILE:publish> ${BOOKS_DIR}/pdf/print)
set_tests_properties(books_pdf_print PROPERTIES
                     LABELS books TIMEOUT 120 SKIP_RETURN_CODE 77)
# A book written the Easybook way in EPUB and PDF (test_easybook.py, the
# golden book easybook-compat): images named relative to Contents/images/
# in the EPUB and the PDF, EPUBCheck, the [cli] session.
octavo_require(req_easybook books_easybook ${need_py} ${OCTAVO_NEEDS_PDFTOOLS}
               ${OCTAVO_NEEDS_EPUBCHECK})
add_test(NAME books_easybook
         COMMAND ${req_easybook} ${OCTAVO_PY} ${BOOKS_DIR}/test_easybook.py
                 $<TARGET_FILE:publish> ${BOOKS_DIR}/golden/easybook-compat/book)
set_tests_properties(books_easybook PROPERTIES LABELS books TIMEOUT 300)
# Content per edition and a series of books (test_series.py): items kept
# to some editions by `editions:` and `formats:` in every format (pages,
# TOC, search index, EPUB, PDF), links into left-out items, `import:` of
# the series' config.yml (read under the sandbox), and their mistakes.
octavo_require(req_series books_series ${need_py} ${OCTAVO_NEEDS_PDFTOOLS})
add_test(NAME books_series
         COMMAND ${req_series} ${OCTAVO_PY} ${BOOKS_DIR}/test_series.py
                 $<TARGET_FILE:publish>)
set_tests_properties(books_series PROPERTIES LABELS books TIMEOUT 300)
# Spreads with a custom cover (test_pdf_spreads.py, tests/books/pdf/
# spreads/): a cover.pdf or cover.png in a two-sided edition is followed
# by a blank inside cover; every word of every page inside the text block
# of its side by physical page (pdftotext -bbox-layout); items open on
# right-hand pages; the labels; one-sided editions without the blank.
octavo_require(req_pdf_spreads books_pdf_spreads ${need_py}
               ${OCTAVO_NEEDS_PDFTOOLS} ${OCTAVO_NEEDS_PDF_BOOKS})
add_test(NAME books_pdf_spreads
         COMMAND ${req_pdf_spreads} ${OCTAVO_PY} ${BOOKS_DIR}/test_pdf_spreads.py
                 $<TARGET_FILE:publish> ${BOOKS_DIR}/pdf/spreads)
set_tests_properties(books_pdf_spreads PROPERTIES
                     LABELS books TIMEOUT 300 SKIP_RETURN_CODE 77)
# The bundled tech theme (themes/tech/): the user guide published with
# `theme: tech` on every edition (themed.py edits its copy), through the
# same validators as clean: links and the Nu HTML checker, EPUBCheck and
# the package checks, the PDF checks (qpdf, pdffonts, pdftotext...); and
# test_theme_applied.py: tech's style sheets in the HTML and EPUB
# editions, other fonts than clean's in the PDFs.
octavo_require(req_html_valid_tech books_html_valid_tech ${need_py}
               ${OCTAVO_NEEDS_VNU})
octavo_require(req_epub_tech books_epub_tech ${need_py}
               ${OCTAVO_NEEDS_EPUBCHECK})
octavo_require(req_pdf_tech books_pdf_tech ${need_py} ${need_yaml}
               ${OCTAVO_NEEDS_PDFTOOLS} ${OCTAVO_NEEDS_PDF_BOOKS}
               ${OCTAVO_NEEDS_TECH})
octavo_require(req_theme_tech books_theme_tech ${need_py}
               ${OCTAVO_NEEDS_PDFTOOLS} ${OCTAVO_NEEDS_PDF_BOOKS}
               ${OCTAVO_NEEDS_TECH})
add_test(NAME books_html_valid_tech
         COMMAND ${req_html_valid_tech} ${OCTAVO_PY}
                 ${BOOKS_DIR}/test_html_valid.py
                 $<TARGET_FILE:publish> ${PROJECT_SOURCE_DIR} --theme tech)
add_test(NAME books_epub_tech
         COMMAND ${req_epub_tech} ${OCTAVO_PY} ${BOOKS_DIR}/test_epub.py
                 $<TARGET_FILE:publish> ${PROJECT_SOURCE_DIR} --theme tech)
add_test(NAME books_pdf_tech
         COMMAND ${req_pdf_tech} ${OCTAVO_PY} ${BOOKS_DIR}/test_pdf.py
                 $<TARGET_FILE:publish> ${PROJECT_SOURCE_DIR}/docs/guide
                 --theme tech)
add_test(NAME books_theme_tech
         COMMAND ${req_theme_tech} ${OCTAVO_PY}
                 ${BOOKS_DIR}/test_theme_applied.py
                 $<TARGET_FILE:publish> ${PROJECT_SOURCE_DIR} tech
                 NotoSerif-Regular NotoSans-Bold NotoSansDisplay-Bold)
# (books_interpreted_theme publishes every bundled theme, tech too, with
# --theme in every edition.)
set_tests_properties(books_html_valid_tech books_epub_tech books_pdf_tech
                     books_theme_tech PROPERTIES
                     LABELS books TIMEOUT 600 SKIP_RETURN_CODE 77)

# Highlighted code beyond the golden HTML (test_highlight.py): the golden
# book `code` in EPUB (EPUBCheck, the same hl-* spans as the web edition)
# and PDF (qpdf, every line of every snippet in pdftotext, bold and
# oblique mono faces, the print palette on the pages and readable in
# grey), with both themes; one note for the language without a grammar;
# highlight_code: false; the same bytes twice.
octavo_require(req_highlight books_highlight ${need_py}
               ${OCTAVO_NEEDS_EPUBCHECK} ${OCTAVO_NEEDS_PDFTOOLS}
               ${OCTAVO_NEEDS_PDF_BOOKS} ${OCTAVO_NEEDS_TECH}
               /usr/share/highlight/langDefs/php.lang=highlight-common)
add_test(NAME books_highlight
         COMMAND ${req_highlight} ${OCTAVO_PY} ${BOOKS_DIR}/test_highlight.py
                 $<TARGET_FILE:publish> ${BOOKS_DIR}/golden/code/book)
set_tests_properties(books_highlight PROPERTIES LABELS books TIMEOUT 300)
