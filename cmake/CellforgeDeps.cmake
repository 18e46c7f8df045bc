# SPDX-License-Identifier: GPL-3.0-or-later
# Every dependency comes from a Debian package (packaging/install-deps.sh installs them);
# nothing is downloaded at build time.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 REQUIRED)
# Mesh import (OBJ, PLY, STL, glTF) for the simulation's geometry and the renderer. Debian's
# libassimp-dev ships assimpConfig.cmake with the imported target assimp::assimp.
find_package(assimp REQUIRED)

# toml++ (libtomlplusplus-dev) is used header-only so the build does not depend on the
# compiled library's ABI. It does not compile under nvcc: include it from .cpp files only.
find_path(CELLFORGE_TOMLPP_INCLUDE toml++/toml.h REQUIRED)
add_library(cellforge_tomlplusplus INTERFACE)
target_include_directories(cellforge_tomlplusplus SYSTEM INTERFACE ${CELLFORGE_TOMLPP_INCLUDE})
target_compile_definitions(cellforge_tomlplusplus INTERFACE TOML_HEADER_ONLY=1 TOML_EXCEPTIONS=1)

# Random123 (librandom123-dev): header-only counter-based generators, host and device.
find_path(CELLFORGE_RANDOM123_INCLUDE Random123/philox.h REQUIRED)
add_library(cellforge_random123 INTERFACE)
target_include_directories(cellforge_random123 SYSTEM INTERFACE ${CELLFORGE_RANDOM123_INCLUDE})

set(CELLFORGE_HAVE_HDF5 OFF)
if(NOT CELLFORGE_HDF5 STREQUAL "OFF")
  if(CELLFORGE_HDF5 STREQUAL "ON")
    find_package(HDF5 REQUIRED COMPONENTS C)
  else()
    find_package(HDF5 QUIET COMPONENTS C)
  endif()
  if(HDF5_FOUND)
    set(CELLFORGE_HAVE_HDF5 ON)
  else()
    message(STATUS "HDF5 not found: snapshots are disabled (checkpoints, CSV and run.json still work)")
  endif()
endif()

# An optional dependency found through pkg-config: OPTION (AUTO|ON|OFF) decides; ON makes it
# required; HAVE is set ON when found, else the status line says what is missing.
#   cellforge_optional_pkg(OPTION HAVE PREFIX "module ..." "message when missing")
function(cellforge_optional_pkg option have prefix modules missing)
  set(${have} OFF PARENT_SCOPE)
  if(${option} STREQUAL "OFF")
    return()
  endif()
  separate_arguments(module_list UNIX_COMMAND "${modules}")
  if(${option} STREQUAL "ON")
    pkg_check_modules(${prefix} REQUIRED IMPORTED_TARGET GLOBAL ${module_list})
  else()
    pkg_check_modules(${prefix} QUIET IMPORTED_TARGET GLOBAL ${module_list})
  endif()
  if(${prefix}_FOUND)
    set(${have} ON PARENT_SCOPE)
  else()
    message(STATUS "${missing}")
  endif()
endfunction()

# libsbml (libsbml5-dev): reaction networks of the lattice model from SBML files.
cellforge_optional_pkg(CELLFORGE_SBML CELLFORGE_HAVE_SBML LIBSBML "libsbml"
  "libsbml not found: no SBML import of reaction networks (text networks still work)")
# libxml2 (libxml2-dev): CellML import of cardiac cell models.
cellforge_optional_pkg(CELLFORGE_CELLML CELLFORGE_HAVE_CELLML LIBXML2 "libxml-2.0"
  "libxml2 not found: no CellML import of cardiac models (.cfm models still work)")
# FFTW 3 (libfftw3-dev), double precision: the Crank-Nicolson solve of the gliding model's
# CPU backend. Debian ships fftw3.pc but no CMake package file, hence pkg-config.
cellforge_optional_pkg(CELLFORGE_FFTW CELLFORGE_HAVE_FFTW FFTW3 "fftw3"
  "FFTW 3 not found: no CPU step of the gliding model")
# FFmpeg's libraries: MP4 export (the renderer's movie writer).
if(CELLFORGE_RENDER)
  cellforge_optional_pkg(CELLFORGE_FFMPEG CELLFORGE_HAVE_FFMPEG FFMPEG
    "libavcodec libavformat libswscale libavutil"
    "FFmpeg libraries not found: no MP4 export (PNG still works)")
else()
  set(CELLFORGE_HAVE_FFMPEG OFF)
endif()

# The desktop window: Qt 6 Widgets + OpenGL widgets + Charts, Dear ImGui for the overlay
# (Debian's libimgui-dev: the library plus the OpenGL3 backend's source under /usr/share).
set(CELLFORGE_HAVE_GUI OFF)
if(CELLFORGE_RENDER AND NOT CELLFORGE_GUI STREQUAL "OFF")
  set(cellforge_qt_components Widgets OpenGL OpenGLWidgets Charts Test)
  if(CELLFORGE_GUI STREQUAL "ON")
    find_package(Qt6 REQUIRED COMPONENTS ${cellforge_qt_components})
    pkg_check_modules(IMGUI REQUIRED IMPORTED_TARGET imgui)
  else()
    find_package(Qt6 QUIET COMPONENTS ${cellforge_qt_components})
    pkg_check_modules(IMGUI QUIET IMPORTED_TARGET imgui)
  endif()
  set(CELLFORGE_IMGUI_BACKEND_DIR /usr/share/doc/libimgui-dev/examples/backends
      CACHE PATH "Where Dear ImGui's backend sources are (imgui_impl_opengl3.cpp)")
  if(Qt6_FOUND AND IMGUI_FOUND AND EXISTS ${CELLFORGE_IMGUI_BACKEND_DIR}/imgui_impl_opengl3.cpp)
    set(CELLFORGE_HAVE_GUI ON)
  else()
    message(STATUS "Qt 6 (Widgets, OpenGLWidgets, Charts) or Dear ImGui not found: "
                   "no desktop window (cellforge --headless still works)")
  endif()
endif()
