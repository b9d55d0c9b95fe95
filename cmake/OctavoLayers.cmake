# The layers of Octavo's libraries, checked when CMake configures: a library
# may link only libraries of the layers below its own, and the lower layers
# may not link the heavy dependencies of the book (cmark-gfm, libyaml, ICU)
# nor those of the leaf libraries (Lua, libmicrohttpd, libstemmer).
# The check follows every link (LINK_LIBRARIES and INTERFACE_LINK_LIBRARIES)
# through any target, Octavo's or a helper, and every octavo_* target must
# have a layer. An upward link or a target without a layer stops the
# configuration with a message naming it (tests/layers/ plants both).
#
#   base      octavo_base                          links no Octavo library
#   template  octavo_tplrt                         base
#   front     octavo_tplfront (runtime/front),     base, template, front
#             octavo_tplcgen, octavo_themec
#             (compiler/)
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

# octavo_layer(LAYER TARGET...): puts the targets in LAYER, one of the
# layers above.
function(octavo_layer layer)
  if(NOT DEFINED OCTAVO_LAYER_ALLOWED_${layer})
    message(FATAL_ERROR "octavo_layer: no layer '${layer}' "
                        "(cmake/OctavoLayers.cmake)")
  endif()
  foreach(t ${ARGN})
    set_property(TARGET ${t} PROPERTY OCTAVO_LAYER ${layer})
    set_property(GLOBAL APPEND PROPERTY OCTAVO_LAYERED_TARGETS ${t})
  endforeach()
endfunction()

# _octavo_links(TARGET VAR): what TARGET links, in VAR: its LINK_LIBRARIES
# and INTERFACE_LINK_LIBRARIES with the generator expressions that wrap a
# link unwrapped ($<LINK_ONLY:x>, $<BUILD_INTERFACE:x>, $<$<CONFIG:…>:x>:
# a link in some configuration is a link) and those of the installed tree
# dropped ($<INSTALL_INTERFACE:…>, and the ::@ markers of links made from
# another folder).
function(_octavo_links t var)
  set(out "")
  set(wrap "LINK_ONLY|BUILD_INTERFACE|BUILD_LOCAL_INTERFACE|COMPILE_ONLY")
  string(APPEND wrap "|TARGET_NAME")
  foreach(prop LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
    get_target_property(items ${t} ${prop})
    if(NOT items)
      continue()
    endif()
    foreach(x ${items})
      while(TRUE)
        if(x MATCHES "^\\$<(${wrap}):(.*)>$")
          set(x "${CMAKE_MATCH_2}")
        elseif(x MATCHES "^\\$<\\$<[^>]*>:(.*)>$")
          set(x "${CMAKE_MATCH_1}")
        else()
          break()
        endif()
      endwhile()
      if(x STREQUAL "" OR x MATCHES "^(::@|\\$<INSTALL_INTERFACE:)")
        continue()
      endif()
      if(TARGET ${x})
        get_target_property(real ${x} ALIASED_TARGET)
        if(real)
          set(x ${real})
        endif()
      endif()
      list(APPEND out "${x}")
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES out)
  set(${var} "${out}" PARENT_SCOPE)
endfunction()

# _octavo_targets(DIR VAR): the targets defined in DIR and its subfolders.
function(_octavo_targets dir var)
  get_property(out DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(s ${subs})
    _octavo_targets(${s} more)
    list(APPEND out ${more})
  endforeach()
  set(${var} "${out}" PARENT_SCOPE)
endfunction()

# octavo_check_layers(): called once every target exists, from the
# top-level CMakeLists.txt: the targets of that folder and those below it
# are checked. Each layered target's links are followed to the end,
# breadth first, so a problem is named with the shortest way to it.
function(octavo_check_layers)
  set(problems "")
  _octavo_targets(${CMAKE_CURRENT_SOURCE_DIR} all)
  set(unlayered "")
  foreach(t ${all})
    get_target_property(type ${t} TYPE)
    get_target_property(layer ${t} OCTAVO_LAYER)
    if(t MATCHES "^octavo_" AND NOT type STREQUAL "UTILITY" AND NOT layer)
      list(APPEND unlayered ${t})
    endif()
  endforeach()
  if(unlayered)
    list(JOIN unlayered ", " names)
    string(APPEND problems "\n  without a layer (octavo_layer): ${names}")
  endif()

  get_property(targets GLOBAL PROPERTY OCTAVO_LAYERED_TARGETS)
  foreach(t ${targets})
    get_target_property(layer ${t} OCTAVO_LAYER)
    set(forbid_here FALSE)
    if(layer IN_LIST OCTAVO_LAYER_FORBIDDEN_IN)
      set(forbid_here TRUE)
    endif()
    # The queue: items and, in step, the way to each ("-" when direct; the
    # targets in between otherwise, joined by " -> ").
    _octavo_links(${t} queue)
    set(ways "")
    foreach(x ${queue})
      list(APPEND ways "-")
    endforeach()
    set(seen ${t})
    # (not while(queue): a list whose text is a false constant, such as
    # one item ending in -NOTFOUND, would end it early)
    while(NOT queue STREQUAL "")
      list(POP_FRONT queue l)
      list(POP_FRONT ways way)
      if(l IN_LIST seen)
        continue()
      endif()
      list(APPEND seen "${l}")
      set(through "")
      if(NOT way STREQUAL "-")
        set(through " through ${way}")
      endif()
      if((forbid_here AND l IN_LIST OCTAVO_LAYER_FORBIDDEN)
         OR l IN_LIST OCTAVO_LAYER_FORBIDDEN_${layer})
        string(APPEND problems "\n  ${t} (layer ${layer}) links ${l}${through}")
      endif()
      if(NOT TARGET ${l})
        continue()
      endif()
      get_target_property(l_layer ${l} OCTAVO_LAYER)
      if(l_layer AND NOT l_layer IN_LIST OCTAVO_LAYER_ALLOWED_${layer})
        string(APPEND problems "\n  ${t} (layer ${layer}) links ${l} "
                               "(layer ${l_layer})${through}")
        # What lies beyond an upward link is that target's own check.
        continue()
      endif()
      _octavo_links(${l} next)
      if(way STREQUAL "-")
        set(way ${l})
      else()
        set(way "${way} -> ${l}")
      endif()
      foreach(x ${next})
        list(APPEND queue "${x}")
        list(APPEND ways "${way}")
      endforeach()
    endwhile()
  endforeach()
  if(problems)
    message(FATAL_ERROR "Octavo's layers point down only, and every "
                        "octavo_* target has one (cmake/OctavoLayers.cmake):"
                        "${problems}")
  endif()
endfunction()
