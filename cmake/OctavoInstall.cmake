# What `cmake --install` puts under the prefix (docs/design.md, "Installing
# and packaging"), included at the end of the top-level CMakeLists.txt, once
# every target exists:
#
#   bin/publish, bin/themec
#   LIBDIR/liboctavo_*.a          every library a publish binary links, the
#                                 bundled themes' included (not the sample
#                                 theme, a test theme), in link order
#   include/octavo/*.h            their headers, one flat folder
#   LIBDIR/pkgconfig/octavo.pc    relocatable (prefix from ${pcfiledir})
#   LIBDIR/cmake/Octavo/          OctavoConfig.cmake, its version file and
#                                 the imported targets Octavo::<target>
#   share/man/man1, man5          publish(1), themec(1), octavo-theme(5)
#   share/octavo/themes/          the bundled themes' sources
#   share/doc/octavo/             README.md, LICENSE, guide/ (the guide's
#                                 website edition, published at build time)
#
# The libraries are found from what `publish` links, so a library or theme
# added to it is installed, exported and listed in octavo.pc without a
# change here.

# ---- the libraries, in link order ---------------------------------------

# _octavo_visit(TARGET): depth first over the Octavo libraries TARGET links,
# each appended to the global OCTAVO_LINK_POSTORDER after what it links.
function(_octavo_visit t)
  get_property(seen GLOBAL PROPERTY OCTAVO_LINK_POSTORDER)
  if(t IN_LIST seen)
    return()
  endif()
  get_target_property(links ${t} LINK_LIBRARIES)
  if(links)
    foreach(l ${links})
      if(TARGET ${l} AND l MATCHES "^octavo_")
        _octavo_visit(${l})
      endif()
    endforeach()
  endif()
  get_target_property(type ${t} TYPE)
  if(type STREQUAL "STATIC_LIBRARY")
    set_property(GLOBAL APPEND PROPERTY OCTAVO_LINK_POSTORDER ${t})
  endif()
endfunction()

set_property(GLOBAL PROPERTY OCTAVO_LINK_POSTORDER "")
_octavo_visit(publish)
get_property(OCTAVO_INSTALL_LIBRARIES GLOBAL PROPERTY OCTAVO_LINK_POSTORDER)
# Post-order has each library after those it links: reversed, before them,
# the order a static link needs.
list(REVERSE OCTAVO_INSTALL_LIBRARIES)
list(REMOVE_ITEM OCTAVO_INSTALL_LIBRARIES octavo_theme_sample)

# The libraries' include folders are source and build folders: only for
# the build. Installed, they are include/octavo (INCLUDES DESTINATION).
foreach(t ${OCTAVO_INSTALL_LIBRARIES})
  get_target_property(dirs ${t} INTERFACE_INCLUDE_DIRECTORIES)
  if(NOT dirs)
    continue()
  endif()
  set(wrapped "")
  foreach(d ${dirs})
    if(d MATCHES "^\\$<")
      list(APPEND wrapped "${d}")
    else()
      list(APPEND wrapped "$<BUILD_INTERFACE:${d}>")
    endif()
  endforeach()
  set_target_properties(${t} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES
                                        "${wrapped}")
endforeach()

set(OCTAVO_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/octavo)
set(OCTAVO_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/Octavo)
install(TARGETS publish themec ${OCTAVO_INSTALL_LIBRARIES}
        EXPORT OctavoTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${OCTAVO_INSTALL_INCLUDEDIR})

# ---- headers: one flat folder -------------------------------------------

# Every header of the run time's four rooms and of its leaf libraries, the
# front end's two that tpl_interp.h and the interpreter's users need (the
# AST and its entry points; octavo_tplfront is linked by the interpreter),
# and the themes' generated headers (the sample theme's left out).
file(GLOB OCTAVO_PUBLIC_HEADERS CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/runtime/base/*.h
     ${PROJECT_SOURCE_DIR}/runtime/template/*.h
     ${PROJECT_SOURCE_DIR}/runtime/typeset/*.h
     ${PROJECT_SOURCE_DIR}/runtime/book/*.h
     ${PROJECT_SOURCE_DIR}/runtime/highlight/*.h
     ${PROJECT_SOURCE_DIR}/runtime/linebreak/*.h
     ${PROJECT_SOURCE_DIR}/runtime/search/*.h
     ${PROJECT_SOURCE_DIR}/runtime/serve/*.h)
list(APPEND OCTAVO_PUBLIC_HEADERS ${PROJECT_SOURCE_DIR}/compiler/tpl_ast.h
     ${PROJECT_SOURCE_DIR}/compiler/tpl_front.h)
install(FILES ${OCTAVO_PUBLIC_HEADERS}
        DESTINATION ${OCTAVO_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_BINARY_DIR}/generated/
        DESTINATION ${OCTAVO_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h" PATTERN "sample.h" EXCLUDE)

# ---- octavo.pc ----------------------------------------------------------

# prefix from the pc file's own folder, so that a moved prefix still works.
file(RELATIVE_PATH OCTAVO_PC_UP "${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig"
     "${CMAKE_INSTALL_PREFIX}")
string(REGEX REPLACE "/$" "" OCTAVO_PC_UP "${OCTAVO_PC_UP}")
file(RELATIVE_PATH OCTAVO_PC_LIBDIR "${CMAKE_INSTALL_PREFIX}"
     "${CMAKE_INSTALL_FULL_LIBDIR}")
file(RELATIVE_PATH OCTAVO_PC_INCLUDEDIR "${CMAKE_INSTALL_PREFIX}"
     "${CMAKE_INSTALL_FULL_INCLUDEDIR}/octavo")
set(OCTAVO_PC_LIBS "")
foreach(t ${OCTAVO_INSTALL_LIBRARIES})
  string(APPEND OCTAVO_PC_LIBS " -l${t}")
endforeach()
# The system libraries, by the pkg-config names of Debian's -dev packages
# (cmake/OctavoDeps.cmake looks them up); libharu, libhyphen and
# libstemmer ship no pc file, hence -lhpdf, -lhyphen and -lstemmer.
set(OCTAVO_PC_REQUIRES_PRIVATE
    "libutf8proc libpcre2-8 yaml-0.1 libcmark-gfm icu-uc icu-i18n libzip libxml-2.0 libmicrohttpd fontconfig freetype2 harfbuzz harfbuzz-subset libqpdf librsvg-2.0 cairo gdk-pixbuf-2.0 libpng libjpeg zlib lua5.4")
set(OCTAVO_PC_LIBS_PRIVATE "-lhpdf -lhyphen -lstemmer -pthread -lm")
configure_file(${PROJECT_SOURCE_DIR}/cmake/octavo.pc.in
               ${PROJECT_BINARY_DIR}/octavo.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/octavo.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# ---- OctavoConfig.cmake -------------------------------------------------

include(CMakePackageConfigHelpers)
install(EXPORT OctavoTargets NAMESPACE Octavo::
        DESTINATION ${OCTAVO_INSTALL_CMAKEDIR})
configure_file(${PROJECT_SOURCE_DIR}/cmake/OctavoConfig.cmake.in
               ${PROJECT_BINARY_DIR}/OctavoConfig.cmake @ONLY)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/OctavoConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/OctavoConfig.cmake
              ${PROJECT_BINARY_DIR}/OctavoConfigVersion.cmake
        DESTINATION ${OCTAVO_INSTALL_CMAKEDIR})

# ---- manual pages, themes, documentation --------------------------------

install(FILES ${PROJECT_SOURCE_DIR}/docs/man/publish.1
              ${PROJECT_SOURCE_DIR}/docs/man/themec.1
        DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PROJECT_SOURCE_DIR}/docs/man/octavo-theme.5
        DESTINATION ${CMAKE_INSTALL_MANDIR}/man5)

# Each bundled theme's folder but the sample theme (a test theme); a
# theme's CMakeLists.txt, if one has its own, is the build's, not the
# theme's.
file(GLOB theme_dirs LIST_DIRECTORIES true ${PROJECT_SOURCE_DIR}/themes/*)
foreach(d ${theme_dirs})
  get_filename_component(name ${d} NAME)
  if(IS_DIRECTORY ${d} AND NOT name STREQUAL "sample")
    install(DIRECTORY ${d} DESTINATION ${OCTAVO_INSTALL_DATADIR}/themes
            PATTERN CMakeLists.txt EXCLUDE)
  endif()
endforeach()

# The theme author's references go along (octavo-theme(5) points at them).
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE
              ${PROJECT_SOURCE_DIR}/docs/theme-reference.md
              ${PROJECT_SOURCE_DIR}/docs/template-language.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The guide's website edition, published by the guide_website target
# (docs/CMakeLists.txt).
install(DIRECTORY ${OCTAVO_GUIDE_WEBSITE}/
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/guide)
