# SPDX-License-Identifier: GPL-3.0-or-later
# Build options. CELLFORGE_CUDA=AUTO enables CUDA when nvcc is found; a driver is not
# needed to build (availableBackends() decides at run time whether a device answers).
set(CELLFORGE_CUDA AUTO CACHE STRING "Build the CUDA backends: AUTO, ON or OFF")
set_property(CACHE CELLFORGE_CUDA PROPERTY STRINGS AUTO ON OFF)
set(CELLFORGE_GUI AUTO CACHE STRING "Build the Qt 6 desktop window: AUTO (when Qt 6 is found), ON or OFF")
set_property(CACHE CELLFORGE_GUI PROPERTY STRINGS AUTO ON OFF)
option(CELLFORGE_RENDER "Build the OpenGL renderer (libepoxy, EGL, libpng)" ON)
set(CELLFORGE_HDF5 AUTO CACHE STRING "HDF5 snapshots with XDMF sidecars: AUTO, ON or OFF")
set_property(CACHE CELLFORGE_HDF5 PROPERTY STRINGS AUTO ON OFF)
set(CELLFORGE_SBML AUTO CACHE STRING "SBML import of lattice reaction networks (libsbml): AUTO, ON or OFF")
set_property(CACHE CELLFORGE_SBML PROPERTY STRINGS AUTO ON OFF)
set(CELLFORGE_CELLML AUTO CACHE STRING "CellML import of cardiac cell models (libxml2): AUTO, ON or OFF")
set_property(CACHE CELLFORGE_CELLML PROPERTY STRINGS AUTO ON OFF)
set(CELLFORGE_FFMPEG AUTO CACHE STRING "MP4 export through FFmpeg's libraries: AUTO, ON or OFF")
set_property(CACHE CELLFORGE_FFMPEG PROPERTY STRINGS AUTO ON OFF)
set(CELLFORGE_FFTW AUTO CACHE STRING "FFTW 3 (double) for the gliding model's CPU step: AUTO, ON or OFF")
set_property(CACHE CELLFORGE_FFTW PROPERTY STRINGS AUTO ON OFF)
set(CELLFORGE_SUNDIALS AUTO CACHE STRING "SUNDIALS CVODE for the cardiac reference tests: AUTO, ON or OFF")
set_property(CACHE CELLFORGE_SUNDIALS PROPERTY STRINGS AUTO ON OFF)
set(CELLFORGE_MPI AUTO CACHE STRING "MPI: one simulation, or a sweep, over several ranks and hosts: AUTO, ON or OFF")
set_property(CACHE CELLFORGE_MPI PROPERTY STRINGS AUTO ON OFF)
set(CELLFORGE_NCCL AUTO CACHE STRING "NCCL between the GPUs of a distributed run, opened at run time where installed: AUTO, ON or OFF")
set_property(CACHE CELLFORGE_NCCL PROPERTY STRINGS AUTO ON OFF)
set(CELLFORGE_PYTHON AUTO CACHE STRING "The Python module `cellforge` (pybind11, NumPy): AUTO, ON or OFF")
set_property(CACHE CELLFORGE_PYTHON PROPERTY STRINGS AUTO ON OFF)
set(CELLFORGE_MANPAGES AUTO CACHE STRING "Man pages made by help2man from the programs' help: AUTO, ON or OFF")
set_property(CACHE CELLFORGE_MANPAGES PROPERTY STRINGS AUTO ON OFF)
# Debian's hardening (what dpkg-buildflags gives a package): fortified libc calls, stack
# protector, and relocations read-only and bound at load time. Off in the sanitizer presets,
# where the sanitizers replace the libc calls that fortification would wrap.
option(CELLFORGE_HARDENING "Build with Debian's hardening flags (fortify, stack protector, relro, bindnow)" ON)
# CI (the CI environment variable is set) builds with warnings as errors.
if(DEFINED ENV{CI} AND NOT "$ENV{CI}" STREQUAL "" AND NOT "$ENV{CI}" STREQUAL "false")
  set(cellforge_werror_default ON)
else()
  set(cellforge_werror_default OFF)
endif()
option(CELLFORGE_WERROR "Treat compiler warnings as errors (on by default under CI)"
       ${cellforge_werror_default})

set(CELLFORGE_HAVE_CUDA OFF)
if(NOT CELLFORGE_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # Hopper (H100/H200) by default; override with -DCMAKE_CUDA_ARCHITECTURES=...
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 90)
    endif()
    enable_language(CUDA)
    # CUDA C++20. CMake 3.25 (Debian 12) does not know nvcc's C++20 flag (newer CMake
    # does): teach it, so CUDA_STANDARD works the same on every CMake.
    if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
      set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
      list(APPEND CMAKE_CUDA_COMPILE_FEATURES cuda_std_20)
      list(APPEND CMAKE_CUDA20_COMPILE_FEATURES cuda_std_20)
    endif()
    set(CMAKE_CUDA_STANDARD 20)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    set(CELLFORGE_HAVE_CUDA ON)
  elseif(CELLFORGE_CUDA STREQUAL "ON")
    message(FATAL_ERROR "CELLFORGE_CUDA=ON but no CUDA compiler was found (is nvcc on PATH?)")
  else()
    message(STATUS "No CUDA compiler found: building the CPU backends only")
  endif()
endif()
include(CellforgeFeatures)
# AUTO is what the default preset asks for: CUDA when nvcc exists, the CPU backends always.
cellforge_feature("CUDA backends" CELLFORGE_CUDA CELLFORGE_HAVE_CUDA
                  "the CUDA toolkit (nvcc under /usr/local/cuda or on PATH)" "no nvcc was found")

if(CELLFORGE_HARDENING)
  # _FORTIFY_SOURCE needs optimization (it is ignored, with a warning, at -O0); -U first
  # because some toolchains (Ubuntu's GCC) predefine it.
  set(_optimized $<CONFIG:Release,RelWithDebInfo,MinSizeRel>)
  add_compile_options(
    "$<$<AND:$<COMPILE_LANGUAGE:C,CXX>,${_optimized}>:-U_FORTIFY_SOURCE;-D_FORTIFY_SOURCE=2>"
    "$<$<COMPILE_LANGUAGE:C,CXX>:-fstack-protector-strong;-fstack-clash-protection>"
    "$<$<COMPILE_LANGUAGE:C,CXX>:-Wformat;-Werror=format-security>")
  # Host links only: nvcc's device-link step takes no linker flags.
  add_link_options("$<HOST_LINK:-Wl$<COMMA>-z$<COMMA>relro$<COMMA>-z$<COMMA>now>")
endif()
