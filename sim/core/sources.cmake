# SPDX-License-Identifier: GPL-3.0-or-later
list(APPEND CELLFORGE_SIM_SOURCES
  core/backend.cpp
  core/model.cpp
  core/params.cpp
  core/scenario.cpp
  core/snapshot.cpp
  core/runner.cpp
  core/bench.cpp
  core/output_observers.cpp
  core/views.cpp
  core/view_exchange.cpp
  core/interrupt.cpp
  core/sweep_grid.cpp
  core/data_paths.cpp
  core/input_file.cpp
  core/fault_injection.cpp
  core/quantity_format.cpp)
list(APPEND CELLFORGE_SIM_CUDA_SOURCES
  core/cuda_check.cpp)
