# SPDX-License-Identifier: GPL-3.0-or-later
# Every dependency comes from a Debian package (packaging/install-deps.sh installs them);
# nothing is downloaded at build time. A missing one stops configure with the package's name
# (cmake/CellforgeFeatures.cmake).
include(CellforgeFeatures)
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(nlohmann_json 3.10 QUIET)
cellforge_require(nlohmann_json_FOUND "nlohmann-json 3.10" nlohmann-json3-dev)
find_package(CLI11 QUIET)
cellforge_require(CLI11_FOUND "CLI11" libcli11-dev)
# Mesh import (OBJ, PLY, STL, glTF) for the simulation's geometry and the renderer. Debian's
# libassimp-dev ships assimpConfig.cmake with the imported target assimp::assimp.
find_package(assimp QUIET)
cellforge_require(assimp_FOUND "Assimp (mesh import)" libassimp-dev)

# toml++ (libtomlplusplus-dev) is used header-only so the build does not depend on the
# compiled library's ABI. It does not compile under nvcc: include it from .cpp files only.
find_path(CELLFORGE_TOMLPP_INCLUDE toml++/toml.h)
cellforge_require(CELLFORGE_TOMLPP_INCLUDE "toml++" libtomlplusplus-dev)
add_library(cellforge_tomlplusplus INTERFACE)
target_include_directories(cellforge_tomlplusplus SYSTEM INTERFACE ${CELLFORGE_TOMLPP_INCLUDE})
target_compile_definitions(cellforge_tomlplusplus INTERFACE TOML_HEADER_ONLY=1 TOML_EXCEPTIONS=1)

# Random123 (librandom123-dev): header-only counter-based generators, host and device.
find_path(CELLFORGE_RANDOM123_INCLUDE Random123/philox.h)
cellforge_require(CELLFORGE_RANDOM123_INCLUDE "Random123" librandom123-dev)
add_library(cellforge_random123 INTERFACE)
target_include_directories(cellforge_random123 SYSTEM INTERFACE ${CELLFORGE_RANDOM123_INCLUDE})

# nanoflann (libnanoflann-dev): header-only kd-tree, the spheres model's CPU neighbour-search
# baseline (mechanics.neighbour_search = kdtree).
find_path(CELLFORGE_NANOFLANN_INCLUDE nanoflann.hpp)
cellforge_require(CELLFORGE_NANOFLANN_INCLUDE "nanoflann" libnanoflann-dev)
add_library(cellforge_nanoflann INTERFACE)
target_include_directories(cellforge_nanoflann SYSTEM INTERFACE ${CELLFORGE_NANOFLANN_INCLUDE})

# The renderer: OpenGL 4.5 through libepoxy (EGL when headless), GLM, libpng.
if(CELLFORGE_RENDER)
  pkg_check_modules(EPOXY QUIET IMPORTED_TARGET GLOBAL epoxy)
  cellforge_require(EPOXY_FOUND "libepoxy (the renderer)" libepoxy-dev)
  # libepoxy opens libEGL at run time; its headers include EGL's.
  find_path(CELLFORGE_EGL_INCLUDE EGL/egl.h)
  cellforge_require(CELLFORGE_EGL_INCLUDE "EGL headers (the renderer)" libegl-dev)
  find_package(PNG QUIET)
  cellforge_require(PNG_FOUND "libpng (the renderer)" libpng-dev)
  find_package(glm QUIET)
  cellforge_require(glm_FOUND "GLM (the renderer)" libglm-dev)
  # Text in exported images and movies (legends, titles, time stamps): FreeType, and the
  # DejaVu Sans file it reads at run time from where fonts-dejavu-core installs it (the .deb
  # depends on that package; render/text_renderer.hpp).
  find_package(Freetype QUIET)
  cellforge_require(FREETYPE_FOUND "FreeType (text in images)" libfreetype-dev)
  set(CELLFORGE_FONT_PATH /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf CACHE FILEPATH
      "The TrueType font of text in images (DejaVu Sans from fonts-dejavu-core)")
  set(CELLFORGE_FONT_FOUND OFF)
  if(EXISTS "${CELLFORGE_FONT_PATH}")
    set(CELLFORGE_FONT_FOUND ON)
  endif()
  cellforge_require(CELLFORGE_FONT_FOUND "The font file ${CELLFORGE_FONT_PATH}" fonts-dejavu-core)
endif()

# HDF5 snapshots with XDMF sidecars (checkpoints, CSV and run.json need no HDF5).
set(CELLFORGE_HAVE_HDF5 OFF)
if(NOT CELLFORGE_HDF5 STREQUAL "OFF")
  find_package(HDF5 QUIET COMPONENTS C)
  if(HDF5_FOUND)
    set(CELLFORGE_HAVE_HDF5 ON)
  endif()
endif()
cellforge_feature("HDF5 snapshots" CELLFORGE_HDF5 CELLFORGE_HAVE_HDF5 libhdf5-dev
                  "HDF5 was not found")

# MPI (Open MPI: libopenmpi-dev, and openmpi-bin for mpirun): distributed runs and sweeps
# (sim/dist, docs/SCALING.md). Only the C bindings are used.
set(CELLFORGE_HAVE_MPI OFF)
if(NOT CELLFORGE_MPI STREQUAL "OFF")
  find_package(MPI QUIET COMPONENTS C)
  find_program(CELLFORGE_MPIEXEC NAMES mpirun mpiexec)
  if(MPI_C_FOUND AND CELLFORGE_MPIEXEC)
    set(CELLFORGE_HAVE_MPI ON)
  endif()
endif()
cellforge_feature("MPI (several ranks)" CELLFORGE_MPI CELLFORGE_HAVE_MPI
                  "libopenmpi-dev openmpi-bin" "MPI (C library and mpirun) was not found")

# NCCL: halo planes GPU to GPU on the CUDA stream in distributed runs (sim/dist/nccl_exchange).
# Only its header is needed to build: the library is opened at run time where installed
# (NCCL is not a Debian package; without it the halos go through MPI). A CUDA feature.
set(CELLFORGE_HAVE_NCCL OFF)
if(CELLFORGE_HAVE_CUDA AND CELLFORGE_HAVE_MPI)
  if(NOT CELLFORGE_NCCL STREQUAL "OFF")
    find_path(CELLFORGE_NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
    if(CELLFORGE_NCCL_INCLUDE_DIR)
      set(CELLFORGE_HAVE_NCCL ON)
    endif()
  endif()
  cellforge_feature("NCCL between GPUs" CELLFORGE_NCCL CELLFORGE_HAVE_NCCL ""
                    "nccl.h was not found (NVIDIA's NCCL, not a Debian package)")
endif()

# An optional dependency found through pkg-config, recorded as a feature:
#   cellforge_optional_pkg(OPTION HAVE PREFIX "module ..." LABEL "debian packages")
function(cellforge_optional_pkg option have prefix modules label packages)
  set(found OFF)
  if(NOT ${option} STREQUAL "OFF")
    separate_arguments(module_list UNIX_COMMAND "${modules}")
    pkg_check_modules(${prefix} QUIET IMPORTED_TARGET GLOBAL ${module_list})
    if(${prefix}_FOUND)
      set(found ON)
    endif()
  endif()
  cellforge_feature("${label}" ${option} found "${packages}" "pkg-config found no ${modules}")
  set(${have} ${found} PARENT_SCOPE)
endfunction()

# libsbml (libsbml5-dev): reaction networks of the lattice model from SBML files.
cellforge_optional_pkg(CELLFORGE_SBML CELLFORGE_HAVE_SBML LIBSBML "libsbml"
                       "SBML import" libsbml5-dev)
# libxml2 (libxml2-dev): CellML import of cardiac cell models.
cellforge_optional_pkg(CELLFORGE_CELLML CELLFORGE_HAVE_CELLML LIBXML2 "libxml-2.0"
                       "CellML import" libxml2-dev)
# FFTW 3 (libfftw3-dev), double precision: the Crank-Nicolson solve of the gliding model's
# CPU backend. Debian ships fftw3.pc but no CMake package file, hence pkg-config.
cellforge_optional_pkg(CELLFORGE_FFTW CELLFORGE_HAVE_FFTW FFTW3 "fftw3"
                       "gliding CPU step (FFTW)" libfftw3-dev)
# FFmpeg's libraries: MP4 export (the renderer's movie writer).
if(CELLFORGE_RENDER)
  cellforge_optional_pkg(CELLFORGE_FFMPEG CELLFORGE_HAVE_FFMPEG FFMPEG
                         "libavcodec libavformat libswscale libavutil" "MP4 movies (FFmpeg)"
                         "libavcodec-dev libavformat-dev libswscale-dev libavutil-dev")
else()
  set(CELLFORGE_HAVE_FFMPEG OFF)
  cellforge_feature("MP4 movies (FFmpeg)" CELLFORGE_RENDER CELLFORGE_HAVE_FFMPEG "" "")
endif()

# The desktop window: Qt 6 Widgets + OpenGL widgets + Charts, Dear ImGui for the overlay
# (Debian's libimgui-dev: the library plus the OpenGL3 backend's source under /usr/share).
# Each missing piece is named by the Debian package that provides it: Qt6OpenGL comes from
# libqt6opengl6-dev, which qt6-base-dev only recommends.
set(CELLFORGE_HAVE_GUI OFF)
set(cellforge_gui_missing "")
if(CELLFORGE_RENDER AND NOT CELLFORGE_GUI STREQUAL "OFF")
  set(cellforge_qt_packages Widgets qt6-base-dev OpenGL libqt6opengl6-dev
      OpenGLWidgets qt6-base-dev Charts qt6-charts-dev Test qt6-base-dev)
  set(cellforge_qt_components Widgets OpenGL OpenGLWidgets Charts Test)
  find_package(Qt6 QUIET COMPONENTS ${cellforge_qt_components})
  while(cellforge_qt_packages)
    list(POP_FRONT cellforge_qt_packages component package)
    if(NOT Qt6${component}_FOUND)
      list(APPEND cellforge_gui_missing ${package})
    endif()
  endwhile()
  pkg_check_modules(IMGUI QUIET IMPORTED_TARGET imgui)
  set(CELLFORGE_IMGUI_BACKEND_DIR /usr/share/doc/libimgui-dev/examples/backends
      CACHE PATH "Where Dear ImGui's backend sources are (imgui_impl_opengl3.cpp)")
  if(NOT IMGUI_FOUND OR NOT EXISTS ${CELLFORGE_IMGUI_BACKEND_DIR}/imgui_impl_opengl3.cpp)
    list(APPEND cellforge_gui_missing libimgui-dev)
  endif()
  list(REMOVE_DUPLICATES cellforge_gui_missing)
  if(NOT cellforge_gui_missing)
    set(CELLFORGE_HAVE_GUI ON)
  endif()
endif()
list(JOIN cellforge_gui_missing " " cellforge_gui_missing)
if(NOT CELLFORGE_RENDER)
  cellforge_feature("desktop window (Qt 6)" CELLFORGE_RENDER CELLFORGE_HAVE_GUI "" "")
else()
  cellforge_feature("desktop window (Qt 6)" CELLFORGE_GUI CELLFORGE_HAVE_GUI
                    "${cellforge_gui_missing}" "Qt 6 or Dear ImGui is incomplete")
endif()

# The Python module `cellforge` (python/): pybind11 (pybind11-dev, its CMake package) over
# the Python 3 that Debian's python3-dev and python3-numpy serve. Development.Module, not
# Development: an extension links no libpython. Debian's interpreter first: the packages
# above serve /usr/bin/python3, where another one on PATH (a pyenv shim) has neither NumPy
# nor the headers they install. -DPython3_EXECUTABLE=... chooses another.
set(CELLFORGE_HAVE_PYTHON OFF)
set(cellforge_python_missing "")
if(NOT CELLFORGE_PYTHON STREQUAL "OFF")
  if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python3_EXECUTABLE /usr/bin/python3)
  endif()
  find_package(Python3 QUIET COMPONENTS Interpreter Development.Module NumPy)
  if(NOT Python3_Development.Module_FOUND)
    list(APPEND cellforge_python_missing python3-dev)
  endif()
  if(NOT Python3_NumPy_FOUND)
    list(APPEND cellforge_python_missing python3-numpy)
  endif()
  if(Python3_FOUND)
    # pybind11's config then takes the Python found above (its FindPython mode).
    set(PYBIND11_FINDPYTHON ON)
    find_package(pybind11 2.10 CONFIG QUIET)
  endif()
  if(NOT pybind11_FOUND)
    list(APPEND cellforge_python_missing pybind11-dev)
  endif()
  # DLPack's header (libdlpack-dev): device arrays handed to CuPy and PyTorch without a copy.
  find_path(CELLFORGE_DLPACK_INCLUDE_DIR dlpack/dlpack.h)
  if(NOT CELLFORGE_DLPACK_INCLUDE_DIR)
    list(APPEND cellforge_python_missing libdlpack-dev)
  endif()
  # The tests run pytest with the interpreter the module was built for.
  if(BUILD_TESTING AND Python3_EXECUTABLE)
    execute_process(COMMAND ${Python3_EXECUTABLE} -c "import pytest"
                    RESULT_VARIABLE cellforge_pytest_status OUTPUT_QUIET ERROR_QUIET)
    if(NOT cellforge_pytest_status EQUAL 0)
      list(APPEND cellforge_python_missing python3-pytest)
    endif()
  endif()
  if(NOT cellforge_python_missing AND Python3_FOUND)
    set(CELLFORGE_HAVE_PYTHON ON)
  endif()
endif()
list(JOIN cellforge_python_missing " " cellforge_python_missing)
if(NOT cellforge_python_missing)
  set(cellforge_python_missing "python3-dev python3-numpy pybind11-dev libdlpack-dev")
endif()
cellforge_feature("Python module" CELLFORGE_PYTHON CELLFORGE_HAVE_PYTHON
                  "${cellforge_python_missing}" "Python 3, NumPy, pybind11 or DLPack is missing")
