# SPDX-License-Identifier: GPL-3.0-or-later
# Parameters, scenarios, errors, RNG, the model interface and small utilities.
list(APPEND CELLFORGE_SIM_SOURCES
  core/backend.cpp
  core/model.cpp
  core/model_command.cpp
  core/params.cpp
  core/scenario.cpp
  core/snapshot.cpp
  core/bench.cpp
  core/views.cpp
  core/interrupt.cpp
  core/sweep_grid.cpp
  core/data_paths.cpp
  core/input_file.cpp
  core/fault_injection.cpp
  core/quantity_format.cpp)
