# SPDX-License-Identifier: GPL-3.0-or-later
cellforge_add_test(test_core SOURCES
  sim/test_params.cpp
  sim/test_scenario.cpp
  sim/test_backend.cpp
  sim/test_runner.cpp
  sim/test_view_exchange.cpp)
# The sweep grid alone (--vary parsing, spacing, rounding, run order): quick to build.
cellforge_add_test(test_sweep_grid CPU_ONLY SOURCES sim/test_sweep_grid.cpp)

include(sim/geometry/tests.cmake)
include(sim/grid/tests.cmake)
include(sim/io/tests.cmake)
include(sim/models/tests.cmake)
include(sim/rng.cmake)
