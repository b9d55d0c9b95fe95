# The fuzz targets (tests/fuzz/README.md). Each target is one
# LLVMFuzzerTestOneInput; octavo_fuzz_target builds it twice:
#  - in every build, regress_<name>: the entry point with regress.c's main,
#    replaying the committed findings (regress/<name>/) and seeds
#    (corpus/<name>/) as the test fuzz_regress_<name>, labelled with the
#    library it tests, and the findings under valgrind;
#  - with -DOCTAVO_FUZZ=ON (clang), fuzz_<name>: the libFuzzer program, run
#    OCTAVO_FUZZ_SECONDS by the test fuzz_<name> (label fuzz) from its seeds
#    into the build's fuzz-<name>-corpus. scripts/fuzz-all runs them longer.
set(OCTAVO_FUZZ_SECONDS 20 CACHE STRING "How long each ctest fuzz run lasts")
set(FUZZ_DIR ${CMAKE_CURRENT_LIST_DIR})

# octavo_fuzz_target(NAME LABEL SOURCES ... LIBS ... [SEEDS dir...]
#                    [ARGS libFuzzer-option...]
#                    [MAKE_SEEDS target [REQUIRES need...]])
# MAKE_SEEDS: the seeds are not committed but made by a program of the
# build (target DIR), run as the test fuzz_seeds_NAME, a fixture of the
# others; REQUIRES: what that program needs from the system.
function(octavo_fuzz_target name label)
  cmake_parse_arguments(PARSE_ARGV 2 F "" "MAKE_SEEDS"
                        "SOURCES;LIBS;SEEDS;ARGS;REQUIRES")
  set(corpus ${FUZZ_DIR}/corpus/${name})
  set(fixture "")
  if(F_MAKE_SEEDS)
    set(corpus ${CMAKE_CURRENT_BINARY_DIR}/fuzz-${name}-seeds)
    set(fixture seeds_${name})
    octavo_test(fuzz_seeds_${name} ${label} REQUIRES ${F_REQUIRES}
                COMMAND ${F_MAKE_SEEDS} ${corpus})
    set_tests_properties(fuzz_seeds_${name} PROPERTIES
                         FIXTURES_SETUP ${fixture})
  endif()
  file(GLOB found CONFIGURE_DEPENDS ${FUZZ_DIR}/regress/${name}/*)
  add_executable(regress_${name} ${FUZZ_DIR}/regress.c ${F_SOURCES})
  target_include_directories(regress_${name} PRIVATE ${FUZZ_DIR})
  target_link_libraries(regress_${name} PRIVATE ${F_LIBS})
  octavo_test(fuzz_regress_${name} ${label}
              COMMAND regress_${name} ${found} ${corpus})
  if(fixture)
    set_tests_properties(fuzz_regress_${name} PROPERTIES
                         FIXTURES_REQUIRED ${fixture})
  endif()
  # valgrind takes the findings only: the seeds would cost minutes (a
  # typeset PDF each), and the sanitizer build replays them under LSan
  if(found)
    octavo_valgrind_test(fuzz_regress_${name}_valgrind ${label}
                         SUPPRESSIONS ${PROJECT_SOURCE_DIR}/tests/books/valgrind.supp
                         COMMAND regress_${name} ${found})
  endif()
  if(NOT OCTAVO_FUZZ)
    return()
  endif()
  add_executable(fuzz_${name} ${F_SOURCES})
  target_include_directories(fuzz_${name} PRIVATE ${FUZZ_DIR})
  target_compile_options(fuzz_${name} PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_libraries(fuzz_${name} PRIVATE ${F_LIBS})
  set(dict "")
  if(EXISTS ${FUZZ_DIR}/${name}.dict)
    set(dict -dict=${FUZZ_DIR}/${name}.dict)
  endif()
  set(out ${CMAKE_CURRENT_BINARY_DIR}/fuzz-${name}-corpus)
  file(MAKE_DIRECTORY ${out})
  set(regress "")
  if(EXISTS ${FUZZ_DIR}/regress/${name})
    set(regress ${FUZZ_DIR}/regress/${name})
  endif()
  add_test(NAME fuzz_${name}
           COMMAND fuzz_${name} -max_total_time=${OCTAVO_FUZZ_SECONDS}
                   -timeout=20 -rss_limit_mb=2048 ${dict} ${F_ARGS}
                   -artifact_prefix=${CMAKE_CURRENT_BINARY_DIR}/fuzz-${name}-
                   ${out} ${corpus} ${regress} ${F_SEEDS})
  set_tests_properties(fuzz_${name} PROPERTIES LABELS fuzz)
  if(fixture)
    set_tests_properties(fuzz_${name} PROPERTIES FIXTURES_REQUIRED ${fixture})
  endif()
endfunction()

# The template front end: every case of the suite is a seed.
octavo_fuzz_target(parser front SOURCES ${FUZZ_DIR}/fuzz_parser.c
                   LIBS octavo_tplfront SEEDS ${CASES_DIR})
# Rendering: templates and data, in the case suite's format.
octavo_fuzz_target(render template SOURCES ${FUZZ_DIR}/fuzz_render.c
                   LIBS tpl_case octavo_tplinterp SEEDS ${CASES_DIR}
                   ARGS -max_len=8192)
# The book's readers alone: Markdown and YAML (first byte: which).
octavo_fuzz_target(book book SOURCES ${FUZZ_DIR}/fuzz_book.c LIBS octavo_book)
# A chapter through Markdown, the model and a writer.
octavo_fuzz_target(chapter book
                   SOURCES ${FUZZ_DIR}/fuzz_chapter.c ${FUZZ_DIR}/fuzz_tmpbook.c
                   LIBS octavo_publish)
# Code through the highlighter: the first line names the language.
octavo_fuzz_target(highlight leaf
                   SOURCES ${FUZZ_DIR}/fuzz_highlight.c
                   LIBS octavo_highlight)
# A page's HTML through the website's search index.
octavo_fuzz_target(search book SOURCES ${FUZZ_DIR}/fuzz_search.c
                   LIBS octavo_book)
# Any HTML through the book's HTML text reader and the slugger.
octavo_fuzz_target(htmltext book SOURCES ${FUZZ_DIR}/fuzz_htmltext.c
                   LIBS octavo_book)
# config.yml through the config reader and the model.
octavo_fuzz_target(config book
                   SOURCES ${FUZZ_DIR}/fuzz_config.c ${FUZZ_DIR}/fuzz_tmpbook.c
                   LIBS octavo_publish)
# Images through each writer's image pipeline.
octavo_fuzz_target(image book
                   SOURCES ${FUZZ_DIR}/fuzz_image.c ${FUZZ_DIR}/fuzz_tmpbook.c
                   LIBS octavo_publish)
# Deep and repeated structure, built from a few bytes, through Markdown,
# the writers and above all the typesetter.
octavo_fuzz_target(deep typeset
                   SOURCES ${FUZZ_DIR}/fuzz_deep.c ${FUZZ_DIR}/fuzz_tmpbook.c
                   LIBS octavo_publish)
# The PDF engine's CSS reader.
octavo_fuzz_target(css typeset SOURCES ${FUZZ_DIR}/fuzz_css.c LIBS octavo_css)
# A book's own font file (@font-face) through the typesetter's checks and
# metrics and the PDF writer's subsetting and embedding.
add_executable(font_seeds ${FUZZ_DIR}/font_seeds.c)
target_link_libraries(font_seeds PRIVATE PkgConfig::HBSUBSET
                      PkgConfig::HARFBUZZ)
octavo_fuzz_target(font typeset SOURCES ${FUZZ_DIR}/fuzz_font.c
                   LIBS octavo_tsfont octavo_tspdf MAKE_SEEDS font_seeds
                   REQUIRES ${OCTAVO_NEEDS_DEJAVU} ${OCTAVO_NEEDS_CFF}
                   /usr/share/fonts/truetype/ebgaramond/EBGaramond12-Italic.ttf=fonts-ebgaramond-extra)
