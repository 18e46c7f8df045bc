# SPDX-License-Identifier: GPL-3.0-or-later
# `gliding` (issue 9; docs/design/gliding.md 7.1): parameters, host tables, initial state,
# z-grid and the CPU motors build everywhere; the model itself (descriptor, views, benchmark,
# CPU backend) needs FFTW for its Crank-Nicolson and Stokes solves: without it `gliding` is
# not registered.
list(APPEND CELLFORGE_SIM_SOURCES
  models/gliding/gliding_params.cpp
  models/gliding/gliding_tables.cpp
  models/gliding/gliding_state.cpp
  models/gliding/gliding_zgrid.cpp
  models/gliding/cpu/motors_cpu.cpp
  models/gliding/anchor_rows.cpp
  models/gliding/motor_memory.cpp
  models/gliding/staged_gather.cpp)
list(APPEND CELLFORGE_SIM_FFTW_SOURCES
  models/gliding/cpu/fftw_plans.cpp
  models/gliding/cpu/smoluchowski_cpu.cpp
  models/gliding/cpu/fluid_cpu.cpp
  models/gliding/gliding_model.cpp
  models/gliding/rows_snapshot.cpp
  models/gliding/gliding_views.cpp
  models/gliding/gliding_bench.cpp
  models/gliding/cpu/gliding_cpu.cpp
  models/gliding/motor_offload.cpp)
# Output-time vertical velocity profiles on a cell row (design 2.8; FFTW r2c/c2r).
list(APPEND CELLFORGE_SIM_FFTW_SOURCES models/gliding/flow_profiles.cpp)
# The CUDA backend (design 3.2-3.5): cuFFT by dlopen, kernels, host classes. The kernels
# share smoluchowski_physics.hpp with the CPU (built with -ffp-contract=off), so they must not
# contract a * b + c into FMAs either: then both backends round the per-cell arithmetic alike.
list(APPEND CELLFORGE_SIM_CUDA_SOURCES
  models/gliding/cuda/cufft_loader.cpp
  models/gliding/cuda/params_block.cpp
  models/gliding/cuda/smoluchowski_kernels.cu
  models/gliding/cuda/smoluchowski_cuda.cpp
  models/gliding/cuda/motor_kernels.cu
  models/gliding/cuda/motor_kernels_fast_math.cu
  models/gliding/cuda/motor_launch.cpp
  models/gliding/cuda/motors_cuda.cpp
  models/gliding/cuda/motor_offload_cuda.cpp
  models/gliding/cuda/fluid_kernels.cu
  models/gliding/cuda/fluid_cuda.cpp
  models/gliding/cuda/gliding_cuda.cpp)
set_source_files_properties(models/gliding/cuda/smoluchowski_kernels.cu
  models/gliding/cuda/motor_kernels.cu
  models/gliding/cuda/fluid_kernels.cu PROPERTIES COMPILE_OPTIONS "--fmad=false")
# motors.fast_math: the motor kernels once more with the compiler's fast arithmetic (Cook &
# Shinar's Table 3; motor_kernels_fast_math.cu).
set_source_files_properties(models/gliding/cuda/motor_kernels_fast_math.cu PROPERTIES
  COMPILE_OPTIONS "--use_fast_math")
# Views packed on the device (design 5): packViews and the DeviceViewBuffers owner. --fmad=false
# so that the moments round as hostViews' (the director of a nearly isotropic cell is their
# round-off; view_kernels.cu says more).
list(APPEND CELLFORGE_SIM_CUDA_SOURCES
  models/gliding/cuda/view_kernels.cu
  models/gliding/cuda/gliding_views_cuda.cpp)
set_source_files_properties(models/gliding/cuda/view_kernels.cu PROPERTIES COMPILE_OPTIONS
  "--fmad=false")
