# SPDX-License-Identifier: GPL-3.0-or-later
# CUDA plumbing shared by every model: error checks, device buffers, constant-memory
# ownership, choosing a device, timing a step's stages. cuda_device.cpp builds everywhere (no devices without CUDA).
list(APPEND CELLFORGE_SIM_SOURCES
  cuda/cuda_device.cpp)
list(APPEND CELLFORGE_SIM_CUDA_SOURCES
  cuda/cuda_check.cpp
  cuda/stage_timer.cpp)
