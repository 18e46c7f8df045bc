# SPDX-License-Identifier: GPL-3.0-or-later
cellforge_add_test(test_core SOURCES
  sim/test_params.cpp
  sim/test_scenario.cpp
  sim/test_backend.cpp
  sim/test_runner.cpp
  sim/test_view_exchange.cpp
  sim/test_quantity_format.cpp)
# Every bundled scenario loads with the real models and explains itself ([about], thumbnail).
cellforge_add_test(test_bundled_scenarios CPU_ONLY SOURCES sim/test_bundled_scenarios.cpp)
target_compile_definitions(test_bundled_scenarios
                           PRIVATE CELLFORGE_ASSETS_DIR="${PROJECT_SOURCE_DIR}/assets")
# Same seed, same bits: run after run, any CPU thread count, across a checkpoint file (every
# model family on every backend).
cellforge_add_test(test_determinism SOURCES sim/test_determinism.cpp)
target_compile_definitions(test_determinism PRIVATE CELLFORGE_ASSETS_DIR="${PROJECT_SOURCE_DIR}/assets")
# The Runner from the window's three threads at once (run under ThreadSanitizer by the
# `tsan` preset).
cellforge_add_test(test_runner_threads CPU_ONLY SOURCES sim/test_runner_threads.cpp)
# Injected faults (device memory, NVRTC): a clear error and a state as if nothing happened.
cellforge_add_test(test_faults SOURCES sim/test_faults.cpp)
# The sweep grid alone (--vary parsing, spacing, rounding, run order): quick to build.
cellforge_add_test(test_sweep_grid CPU_ONLY SOURCES sim/test_sweep_grid.cpp)

include(sim/geometry/tests.cmake)
include(sim/grid/tests.cmake)
include(sim/io/tests.cmake)
include(sim/models/tests.cmake)
include(sim/rng.cmake)
