# SPDX-License-Identifier: GPL-3.0-or-later
# Tests mirror sim/'s folders; here the ones that span them (every model, every backend).
# Every bundled scenario loads with the real models and explains itself ([about], thumbnail).
cellforge_add_test(test_bundled_scenarios CPU_ONLY SOURCES sim/test_bundled_scenarios.cpp)
target_compile_definitions(test_bundled_scenarios
                           PRIVATE CELLFORGE_ASSETS_DIR="${PROJECT_SOURCE_DIR}/assets")
# Same seed, same bits: run after run, any CPU thread count, across a checkpoint file (every
# model family on every backend).
cellforge_add_test(test_determinism SOURCES sim/test_determinism.cpp)
target_compile_definitions(test_determinism PRIVATE CELLFORGE_ASSETS_DIR="${PROJECT_SOURCE_DIR}/assets")
# Injected faults (device memory, NVRTC): a clear error and a state as if nothing happened.
cellforge_add_test(test_faults SOURCES sim/test_faults.cpp)

include(sim/core/tests.cmake)
include(sim/cuda/tests.cmake)
include(sim/dist/tests.cmake)
include(sim/run/tests.cmake)
include(sim/geometry/tests.cmake)
include(sim/grid/tests.cmake)
include(sim/io/tests.cmake)
include(sim/models/tests.cmake)
