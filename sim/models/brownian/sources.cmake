# SPDX-License-Identifier: GPL-3.0-or-later
list(APPEND CELLFORGE_SIM_SOURCES
  models/brownian/brownian_params.cpp
  models/brownian/brownian_model.cpp
  models/brownian/brownian_state.cpp
  models/brownian/brownian_views.cpp
  models/brownian/brownian_bench.cpp
  models/brownian/cpu/brownian_cpu.cpp)
list(APPEND CELLFORGE_SIM_CUDA_SOURCES
  models/brownian/cuda/brownian_cuda.cpp
  models/brownian/cuda/brownian_kernels.cu)
