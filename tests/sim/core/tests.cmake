# SPDX-License-Identifier: GPL-3.0-or-later
# sim/core: parameters, scenarios, backend choice, quantity formatting, the RNG.
cellforge_add_test(test_core SOURCES
  sim/core/test_params.cpp
  sim/core/test_scenario.cpp
  sim/core/test_backend.cpp
  sim/core/test_quantity_format.cpp)
# The sweep grid alone (--vary parsing, spacing, rounding, run order): quick to build.
cellforge_add_test(test_sweep_grid CPU_ONLY SOURCES sim/core/test_sweep_grid.cpp)
# The RNG on both backends; the CUDA cases (names containing "Cuda") skip, printing why, on
# machines without a device.
if(CELLFORGE_HAVE_CUDA)
  cellforge_add_test(test_rng SOURCES sim/core/test_rng.cpp sim/core/test_rng_cuda.cu)
else()
  cellforge_add_test(test_rng SOURCES sim/core/test_rng.cpp)
endif()
