# SPDX-License-Identifier: GPL-3.0-or-later
# sim/cuda: DeviceBuffer and the error checks (CUDA builds only; the cases skip, printing
# why, without a device).
if(CELLFORGE_HAVE_CUDA)
  cellforge_add_test(test_device_buffer SOURCES
    sim/cuda/test_device_buffer.cpp
    sim/cuda/test_device_buffer_cuda.cu)
endif()
