# SPDX-License-Identifier: GPL-3.0-or-later
# RNG and device-memory tests. The CUDA cases (names containing "Cuda") skip, printing why,
# on machines without a device.
if(CELLFORGE_HAVE_CUDA)
  cellforge_add_test(test_rng SOURCES sim/test_rng.cpp sim/test_rng_cuda.cu)
  cellforge_add_test(test_device_buffer SOURCES
    sim/test_device_buffer.cpp
    sim/test_device_buffer_cuda.cu)
else()
  cellforge_add_test(test_rng SOURCES sim/test_rng.cpp)
endif()
