# SPDX-License-Identifier: GPL-3.0-or-later
list(APPEND CELLFORGE_SIM_SOURCES
  models/spheres/spheres_params.cpp
  models/spheres/spheres_model.cpp
  models/spheres/spheres_ranks.cpp
  models/spheres/spheres_state.cpp
  models/spheres/spheres_views.cpp
  models/spheres/spheres_bench.cpp
  models/spheres/cpu/spheres_cpu.cpp)
list(APPEND CELLFORGE_SIM_CUDA_SOURCES
  models/spheres/cuda/spheres_cuda.cpp
  models/spheres/cuda/spheres_cuda_ranks.cpp
  models/spheres/cuda/spheres_kernels.cu
  models/spheres/cuda/spheres_rank_kernels.cu
  models/spheres/cuda/substance_kernels.cu)
