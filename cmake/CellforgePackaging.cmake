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

# The documentation, readable offline, and the license as Debian expects it.
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/ARCHITECTURE.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs
        PATTERN "design" EXCLUDE)
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR}
        RENAME copyright)

set(CPACK_PACKAGE_NAME cellforge)
set(CPACK_PACKAGE_VENDOR "The Cellforge developers")
set(CPACK_PACKAGE_CONTACT "The Cellforge developers <cellforge@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "GPU workbench for simulating cells and tissues")
set(CPACK_PACKAGE_DESCRIPTION
    "Cellforge runs biological simulations on an NVIDIA GPU (CUDA) or on the CPU, shows them\n"
    "live in 3D and lets parameters change while they run. Five model families: an epidermis\n"
    "of subcellular elements with a gene network, lattice reaction-diffusion with crowding,\n"
    "sphere mechanics of growing cells, a microtubule gliding assay with Stokes flow, and\n"
    "cardiac cell models compiled from a model language. cellforge is the desktop window,\n"
    "cellforge-sim runs scenarios, sweeps and benchmarks without one.")
string(REPLACE ";" "" CPACK_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_STRIP_FILES ON)
set(CPACK_SOURCE_IGNORE_FILES "/build/;/\\\\.git/;/out/")

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# Loaded at run time, so dpkg-shlibdeps cannot see them: Qt's X11/Wayland platform plugins,
# and the Mesa drivers behind libGL/libEGL (software rendering where no GPU driver is; the
# NVIDIA driver's own libraries take over where it is installed).
set(_runtime_depends "libgl1-mesa-dri, libegl-mesa0")
if(CELLFORGE_HAVE_GUI)
  string(PREPEND _runtime_depends "qt6-qpa-plugins, ")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${_runtime_depends}")
# The CUDA backends need an NVIDIA driver (libcuda, loaded at run time); the cardiac model's
# run-time compilation also needs NVRTC. Without them the CPU backend runs, and says so.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "nvidia-driver, ffmpeg, paraview")

include(CPack)
