# SPDX-License-Identifier: GPL-3.0-or-later
list(APPEND CELLFORGE_SIM_SOURCES
  models/lattice/lattice_params.cpp
  models/lattice/lattice_model.cpp
  models/lattice/lattice_state.cpp
  models/lattice/lattice_views.cpp
  models/lattice/lattice_bench.cpp
  models/lattice/cpu/lattice_cpu.cpp)
list(APPEND CELLFORGE_SIM_CUDA_SOURCES
  models/lattice/cuda/lattice_cuda.cpp
  models/lattice/cuda/lattice_kernels.cu)
