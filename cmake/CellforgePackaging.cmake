# SPDX-License-Identifier: GPL-3.0-or-later
# What `cmake --install` puts where, and the packages CPack makes of it:
#   cpack --config build/<preset>/CPackConfig.cmake   ->  cellforge_<version>_amd64.deb and
#                                                         cellforge-<version>-Linux.tar.gz
# The .deb installs under /usr and declares its Debian dependencies: the shared libraries
# the programs link (found by dpkg-shlibdeps) plus what they load at run time, which no
# linker sees (the Qt platform plugin, Mesa's OpenGL/EGL drivers). The .tar.gz is the same
# tree, relocatable: the programs find share/cellforge from where they are.
include(GNUInstallDirs)

set(CELLFORGE_APP_ID io.github.cellforge.Cellforge)
set(_desktop ${PROJECT_SOURCE_DIR}/packaging/desktop)

# Bundled data: the programs look for <prefix>/share/cellforge next to <prefix>/bin.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/assets/scenarios ${PROJECT_SOURCE_DIR}/assets/meshes
                  ${PROJECT_SOURCE_DIR}/assets/models ${PROJECT_SOURCE_DIR}/assets/sbml
                  ${PROJECT_SOURCE_DIR}/assets/camera-paths
        DESTINATION ${CMAKE_INSTALL_DATADIR}/cellforge)

# Desktop integration: the menu entry, the icon at the sizes menus ask for, AppStream data.
if(CELLFORGE_HAVE_GUI)
  install(FILES ${_desktop}/${CELLFORGE_APP_ID}.desktop
          DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${_desktop}/${CELLFORGE_APP_ID}.metainfo.xml
          DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
  install(FILES ${_desktop}/${CELLFORGE_APP_ID}.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
  foreach(size 48 64 128 256)
    install(FILES ${_desktop}/icon-${size}.png
            DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps
            RENAME ${CELLFORGE_APP_ID}.png)
  endforeach()
endif()

# The documentation, readable offline, and what Debian expects beside it: a machine-readable
# copyright file that points at /usr/share/common-licenses/GPL-3, and the changelog.
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/ARCHITECTURE.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs
        PATTERN "design" EXCLUDE)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/debian/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The changelog's newest entry is the version being packaged; a mismatch is a packaging bug.
file(STRINGS ${PROJECT_SOURCE_DIR}/packaging/debian/changelog _changelog_head LIMIT_COUNT 1)
if(NOT _changelog_head MATCHES "^cellforge \\(${PROJECT_VERSION}\\) ")
  message(FATAL_ERROR "packaging/debian/changelog starts with \"${_changelog_head}\", not "
                      "version ${PROJECT_VERSION} (the project() version): add its entry")
endif()
# gzip -n: no name or time stamp in the header, so the package is reproducible.
set(_changelog_gz ${PROJECT_BINARY_DIR}/packaging/changelog.gz)
add_custom_command(OUTPUT ${_changelog_gz}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/packaging
  COMMAND gzip -9n < ${PROJECT_SOURCE_DIR}/packaging/debian/changelog > ${_changelog_gz}
  DEPENDS ${PROJECT_SOURCE_DIR}/packaging/debian/changelog VERBATIM)
add_custom_target(cellforge_changelog ALL DEPENDS ${_changelog_gz})
install(FILES ${_changelog_gz} DESTINATION ${CMAKE_INSTALL_DOCDIR})

# Man pages, made from the programs' own --help by help2man (packaging/man/make-man.sh).
find_program(CELLFORGE_HELP2MAN help2man)
set(CELLFORGE_HAVE_MANPAGES OFF)
if(NOT CELLFORGE_MANPAGES STREQUAL "OFF" AND CELLFORGE_HELP2MAN)
  set(CELLFORGE_HAVE_MANPAGES ON)
endif()
cellforge_feature("man pages (help2man)" CELLFORGE_MANPAGES CELLFORGE_HAVE_MANPAGES help2man
                  "help2man was not found")
if(CELLFORGE_HAVE_MANPAGES)
  set(_man_pages "")
  foreach(program cellforge-sim cellforge)
    if(TARGET ${program})
      set(_page ${PROJECT_BINARY_DIR}/packaging/${program}.1.gz)
      add_custom_command(OUTPUT ${_page}
        COMMAND bash ${PROJECT_SOURCE_DIR}/packaging/man/make-man.sh $<TARGET_FILE:${program}>
                ${PROJECT_SOURCE_DIR}/packaging/man/${program}.h2m ${_page}
        DEPENDS ${program} ${PROJECT_SOURCE_DIR}/packaging/man/make-man.sh
                ${PROJECT_SOURCE_DIR}/packaging/man/${program}.h2m
        COMMENT "Man page of ${program} (help2man)" VERBATIM)
      list(APPEND _man_pages ${_page})
    endif()
  endforeach()
  add_custom_target(cellforge_man_pages ALL DEPENDS ${_man_pages})
  install(FILES ${_man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

set(CELLFORGE_MAINTAINER "Cellforge developers <cellforge@users.noreply.github.com>"
    CACHE STRING "The .deb's Maintainer field (name <address>)")
set(CPACK_PACKAGE_NAME cellforge)
set(CPACK_PACKAGE_VENDOR "The Cellforge developers")
set(CPACK_PACKAGE_CONTACT "${CELLFORGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "GPU workbench for simulating cells and tissues")
# Debian's extended description: lines of at most 80 columns (CPack indents each by one).
set(CPACK_PACKAGE_DESCRIPTION
    "Cellforge runs biological simulations on an NVIDIA GPU (CUDA) or on the\n"
    "CPU, shows them live in 3D and lets parameters change while they run.\n"
    "Five model families: an epidermis of subcellular elements with a gene\n"
    "network, lattice reaction-diffusion with crowding, sphere mechanics of\n"
    "growing cells, a microtubule gliding assay with Stokes flow, and cardiac\n"
    "cell models compiled from a model language.\n"
    ".\n"
    "cellforge is the desktop window (or, with --headless, images and movies\n"
    "without a display). cellforge-sim runs scenarios, sweeps and benchmarks.")
string(REPLACE ";" "" CPACK_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_STRIP_FILES ON)
set(CPACK_SOURCE_IGNORE_FILES "/build/;/\\\\.git/;/out/")

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Loaded at run time, so dpkg-shlibdeps cannot see them: libepoxy opens libEGL.so.1
# (libegl1) and libOpenGL.so.0 (libopengl0) for the headless renderer, and libGL.so.1
# (libgl1) for the window's GLX context; behind them the Mesa drivers (software rendering
# where no GPU driver is; the NVIDIA driver's own libraries take over where it is
# installed); Qt's X11/Wayland platform plugins; and the font FreeType reads for text in
# images (fonts-dejavu-core; libfreetype6 itself comes through dpkg-shlibdeps).
set(_runtime_depends "libegl1, libopengl0, libegl-mesa0, libgl1-mesa-dri, fonts-dejavu-core")
if(CELLFORGE_HAVE_GUI)
  string(PREPEND _runtime_depends "qt6-qpa-plugins, libgl1, ")
endif()
# The Python module: built for one Python minor version (its file name carries the ABI,
# 3.11 on Debian 12) and reading NumPy, which it imports at run time, so dpkg-shlibdeps
# sees neither.
if(CELLFORGE_HAVE_PYTHON)
  set(_py ${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR})
  math(EXPR _py_next "${Python3_VERSION_MINOR} + 1")
  string(APPEND _runtime_depends
         ", python3 (>= ${_py}), python3 (<< ${Python3_VERSION_MAJOR}.${_py_next}), python3-numpy")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${_runtime_depends}")
# The CUDA backends need an NVIDIA driver (libcuda, loaded at run time); the cardiac model's
# run-time compilation also needs NVRTC. Without them the CPU backend runs, and says so.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "nvidia-driver, ffmpeg, paraview")

include(CPack)
