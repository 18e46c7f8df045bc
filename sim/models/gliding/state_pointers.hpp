// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where a backend keeps the state a reader of the whole grid needs, per cell [iy * n + ix]:
// Psi (y, x, theta), the motor sums per anchor and the flow at z0. Read by the state arrays
// (gliding_model.hpp) on both backends and by the CUDA views (cuda/gliding_views_cuda.hpp).
namespace cf::gliding {

struct StatePointers {
    const double* psi = nullptr;
    // Mb,coarse and Mf in the motor real: double when motorsDouble, else float (the CUDA
    // backend's MotorsCuda::coarseDevice, freeDevice, doublePrecision).
    const void* boundCoarse = nullptr;
    const void* free = nullptr;
    bool motorsDouble = true;
    const double* u = nullptr;  // the flow at z0; null: at rest
    const double* v = nullptr;
};

}  // namespace cf::gliding
