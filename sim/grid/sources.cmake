# SPDX-License-Identifier: GPL-3.0-or-later
list(APPEND CELLFORGE_SIM_SOURCES
  grid/uniform_grid_cpu.cpp
  grid/grid_bench.cpp)
list(APPEND CELLFORGE_SIM_CUDA_SOURCES
  grid/cuda/uniform_grid_cuda.cu)
