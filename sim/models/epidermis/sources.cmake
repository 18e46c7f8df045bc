# SPDX-License-Identifier: GPL-3.0-or-later
list(APPEND CELLFORGE_SIM_SOURCES
  models/epidermis/epidermis_params.cpp
  models/epidermis/epidermis_model.cpp
  models/epidermis/epidermis_state.cpp
  models/epidermis/epidermis_bench.cpp
  models/epidermis/epidermis_views.cpp
  models/epidermis/growth_rule.cpp
  models/epidermis/stratification.cpp
  models/epidermis/cpu/epidermis_cpu.cpp)
list(APPEND CELLFORGE_SIM_CUDA_SOURCES
  models/epidermis/cuda/epidermis_cuda.cpp
  models/epidermis/cuda/epidermis_kernels.cu)
