# SPDX-License-Identifier: GPL-3.0-or-later
# `gliding` (issue 9), stage 1 so far: parameters, the host tables, the initial state and,
# when FFTW is found, the CPU filament step (docs/design/gliding.md sections 2.1-2.4, 3.3,
# 4 and 7.1). The model itself (descriptor, views, CPU backend) needs FFTW: without it
# `gliding` is not registered.
list(APPEND CELLFORGE_SIM_SOURCES
  models/gliding/gliding_params.cpp
  models/gliding/gliding_tables.cpp
  models/gliding/gliding_state.cpp)
list(APPEND CELLFORGE_SIM_FFTW_SOURCES
  models/gliding/cpu/fftw_plans.cpp
  models/gliding/cpu/smoluchowski_cpu.cpp
  models/gliding/gliding_model.cpp
  models/gliding/gliding_views.cpp
  models/gliding/cpu/gliding_cpu.cpp)
# Stage 2: bound motors on the CPU (design 2.5, 2.7; no FFTW needed).
list(APPEND CELLFORGE_SIM_SOURCES
  models/gliding/cpu/motors_cpu.cpp)
# Stage 4 (motors part): the device-memory check of the CUDA motors (host code, design 4 item 4)
# and the CUDA motor kernels with their owner class (design 2.6, 2.7, 3.5). The kernels are
# built without FMA contraction so that the device evaluates motor_physics.hpp's expressions
# with the roundings of the CPU reference (built with -ffp-contract=off).
list(APPEND CELLFORGE_SIM_SOURCES
  models/gliding/motor_memory.cpp)
list(APPEND CELLFORGE_SIM_CUDA_SOURCES
  models/gliding/cuda/motor_kernels.cu
  models/gliding/cuda/motors_cuda.cpp)
set_source_files_properties(models/gliding/cuda/motor_kernels.cu PROPERTIES
  COMPILE_OPTIONS "--fmad=false")
