# SPDX-License-Identifier: GPL-3.0-or-later
# `gliding` (issue 9), stage 1 so far: parameters, the host tables, the initial state and,
# when FFTW is found, the CPU filament step (docs/design/gliding.md sections 2.1-2.4, 3.3,
# 4 and 7.1). Not yet registered as a model.
list(APPEND CELLFORGE_SIM_SOURCES
  models/gliding/gliding_params.cpp
  models/gliding/gliding_tables.cpp
  models/gliding/gliding_state.cpp)
list(APPEND CELLFORGE_SIM_FFTW_SOURCES
  models/gliding/cpu/fftw_plans.cpp
  models/gliding/cpu/smoluchowski_cpu.cpp)
# The CUDA filament step (design 3.2-3.5): cuFFT by dlopen, kernels, host class. The kernels
# share smoluchowski_physics.hpp with the CPU (built with -ffp-contract=off), so they must not
# contract a * b + c into FMAs either: then both backends round the per-cell arithmetic alike.
list(APPEND CELLFORGE_SIM_CUDA_SOURCES
  models/gliding/cuda/cufft_loader.cpp
  models/gliding/cuda/smoluchowski_kernels.cu
  models/gliding/cuda/smoluchowski_cuda.cpp)
set_source_files_properties(models/gliding/cuda/smoluchowski_kernels.cu
  PROPERTIES COMPILE_OPTIONS "--fmad=false")
