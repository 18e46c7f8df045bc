// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Growth and division of one cell on the device, shared by the one-rank biology kernel
// (spheres_kernels.cu) and the ranks' (spheres_rank_kernels.cu): the CPU's biology() line by
// line (spheres_model.hpp steps 2 and 3), volumes in double, positions and diameters in Real
// (float, or double with mechanics.precision = double).
// Device code only: include from .cu files.
#include <cstddef>
#include <cstdint>

#include "sim/models/spheres/cuda/spheres_kernels.cuh"
#include "sim/models/spheres/spheres_params.hpp"
#include "sim/models/spheres/spheres_physics.hpp"

namespace cf::spheres::cuda {

// A cell that does not divide grows.
template <typename Real>
__device__ inline void growCell(const CellArrays<Real>& c, std::size_t i, const SpheresParams& p) {
    const double v = grownVolume(c.volume[i], p.growthPerStep, p.volumeFloor);
    c.volume[i] = v;
    c.diameter[i] = static_cast<Real>(diameterOf(v));
}

// Cell i divides: the mother stays in slot i, the daughter (id `daughterId`) goes to slot k
// with a negative diameter (a newborn in its birth step: the force loop skips it and the move
// kernel restores the sign).
template <typename Real>
__device__ inline void divideCell(const CellArrays<Real>& c, std::size_t i, std::size_t k,
                                  std::uint32_t daughterId, const SpheresParams& p,
                                  std::uint32_t seed, std::uint64_t step) {
    const rng::Philox gen(seed, kDivisionStream);
    const DivisionDraw draw = divisionDraw(gen, step, c.id[i], p.ratioMin, p.ratioMax);
    const double volume = c.volume[i];
    // The mother's diameter in double from its volume (the CPU holds it in double).
    const DivisionResult r = divide(volume, diameterOf(volume), draw.ratio);
    const double x = c.x[i], y = c.y[i], z = c.z[i];
    c.x[k] = static_cast<Real>(x + r.daughterShift * draw.ax);
    c.y[k] = static_cast<Real>(y + r.daughterShift * draw.ay);
    c.z[k] = static_cast<Real>(z + r.daughterShift * draw.az);
    c.x[i] = static_cast<Real>(x - r.motherShift * draw.ax);
    c.y[i] = static_cast<Real>(y - r.motherShift * draw.ay);
    c.z[i] = static_cast<Real>(z - r.motherShift * draw.az);
    c.volume[k] = r.daughterVolume;
    c.volume[i] = r.motherVolume;
    c.diameter[k] = -static_cast<Real>(diameterOf(r.daughterVolume));
    c.diameter[i] = static_cast<Real>(diameterOf(r.motherVolume));
    const std::uint8_t g = c.generation[i];
    const std::uint8_t next = g == 255 ? g : static_cast<std::uint8_t>(g + 1);
    c.generation[i] = next;
    c.generation[k] = next;
    c.birthStep[i] = step + 1;
    c.birthStep[k] = step + 1;
    c.root[k] = c.root[i];
    c.id[k] = daughterId;
    c.force[k] = 0.0f;
}

}  // namespace cf::spheres::cuda
