# The layers of Octavo's libraries, checked when CMake configures: a library
# may link only libraries of the layers below its own, and the lower layers
# may not link the heavy dependencies of the book (cmark-gfm, libyaml, ICU)
# nor those of the leaf libraries (Lua, libmicrohttpd, libstemmer).
# An upward link stops the configuration with a message naming it.
#
#   base      octavo_base                          links no Octavo library
#   template  octavo_tplrt                         base
#   front     octavo_tplfront, octavo_tplcgen,     base, template, front
#             octavo_themec
#   interp    octavo_tplinterp                     base, template, front
#   theme     octavo_theme_*, octavo_themes        base, template, theme
#             (the registry of bundled themes links their sets)
#   typeset   octavo_css, octavo_typeset, octavo_tsfont, octavo_tspdf,
#             octavo_pdfengine                     base, typeset
#   leaf      octavo_highlight, octavo_serve,      base (and each its own
#             octavo_search, octavo_linebreak      third-party library)
#   book      octavo_book, octavo_publish,         everything above
#             octavo_cli

set(OCTAVO_LAYER_ALLOWED_base "")
set(OCTAVO_LAYER_ALLOWED_template base)
set(OCTAVO_LAYER_ALLOWED_front base template front)
set(OCTAVO_LAYER_ALLOWED_interp base template front)
set(OCTAVO_LAYER_ALLOWED_theme base template theme)
set(OCTAVO_LAYER_ALLOWED_typeset base typeset)
set(OCTAVO_LAYER_ALLOWED_leaf base)
set(OCTAVO_LAYER_ALLOWED_book
    base template front interp theme typeset leaf book)
# Dependencies a layer must not link, directly or through another library.
set(OCTAVO_LAYER_FORBIDDEN
    PkgConfig::CMARKGFM PkgConfig::YAML PkgConfig::ICU PkgConfig::LIBZIP
    PkgConfig::LUA PkgConfig::MHD ${STEMMER_LIBRARY})
set(OCTAVO_LAYER_FORBIDDEN_IN base template typeset theme)
# A leaf links its own library (ICU, Lua, libmicrohttpd or libstemmer), not
# the book's.
set(OCTAVO_LAYER_FORBIDDEN_leaf
    PkgConfig::CMARKGFM PkgConfig::YAML PkgConfig::LIBZIP PkgConfig::LIBXML2)

# octavo_layer(LAYER TARGET...): puts the targets in LAYER.
function(octavo_layer layer)
  foreach(t ${ARGN})
    set_property(TARGET ${t} PROPERTY OCTAVO_LAYER ${layer})
    set_property(GLOBAL APPEND PROPERTY OCTAVO_LAYERED_TARGETS ${t})
  endforeach()
endfunction()

function(octavo_check_layers)
  get_property(targets GLOBAL PROPERTY OCTAVO_LAYERED_TARGETS)
  set(problems "")
  foreach(t ${targets})
    get_target_property(layer ${t} OCTAVO_LAYER)
    get_target_property(links ${t} LINK_LIBRARIES)
    if(NOT links)
      continue()
    endif()
    foreach(l ${links})
      if(TARGET ${l})
        get_target_property(l_layer ${l} OCTAVO_LAYER)
        if(l_layer AND NOT l_layer IN_LIST OCTAVO_LAYER_ALLOWED_${layer})
          string(APPEND problems
                 "\n  ${t} (layer ${layer}) links ${l} (layer ${l_layer})")
        endif()
      endif()
      if((layer IN_LIST OCTAVO_LAYER_FORBIDDEN_IN
          AND l IN_LIST OCTAVO_LAYER_FORBIDDEN)
         OR l IN_LIST OCTAVO_LAYER_FORBIDDEN_${layer})
        string(APPEND problems "\n  ${t} (layer ${layer}) links ${l}")
      endif()
    endforeach()
  endforeach()
  if(problems)
    message(FATAL_ERROR "Octavo's layers point down only "
                        "(cmake/OctavoLayers.cmake); upward links:${problems}")
  endif()
endfunction()
