# SPDX-License-Identifier: GPL-3.0-or-later
# `gliding` (issue 9): host tables, parameter checks and initial conditions
# (docs/design/gliding.md 6.2 T1, T11; G:402-413).
cellforge_add_test(test_gliding_tables CPU_ONLY SOURCES
  sim/models/test_gliding_tables.cpp
  sim/models/test_gliding_state.cpp)
