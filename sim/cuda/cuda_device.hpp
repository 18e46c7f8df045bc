// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Choosing among several CUDA devices (sweeps: one run per GPU at a time). CUDA keeps the
// current device per host thread, so whoever creates or steps a model on a device sets it
// on that thread first. Implemented in cuda_device.cpp on top of the CUDA probe (backend.hpp); a
// build without CUDA reports no devices.
namespace cf {

// How many CUDA devices answer (0 without CUDA or without a driver).
int cudaDeviceCount();

// Makes `device` the calling thread's current CUDA device; -1 leaves it as it is (the
// default, device 0). Throws ParameterError naming the device when it does not exist.
void useCudaDevice(int device);

}  // namespace cf
