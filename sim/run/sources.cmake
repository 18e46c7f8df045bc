# SPDX-License-Identifier: GPL-3.0-or-later
# Running a model: the Runner (its thread and commands), output observers (series,
# snapshots, checkpoints through sim/io) and the view exchange the window draws from.
list(APPEND CELLFORGE_SIM_SOURCES
  run/runner.cpp
  run/output_observers.cpp
  run/view_exchange.cpp)
