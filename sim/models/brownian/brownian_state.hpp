// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `brownian` state shared by both backends: the initial positions and the snapshot layout.
#include <cstdint>
#include <vector>

#include "sim/core/model.hpp"
#include "sim/core/state_arrays.hpp"
#include "sim/models/brownian/brownian_params.hpp"

namespace cf::brownian {

// The initial positions (x, y, z arrays), identical for both backends.
void initialPositions(const BrownianParams& p, std::uint32_t seed, std::vector<float>& x,
                      std::vector<float>& y, std::vector<float>& z);

// Snapshot layout shared by both backends, so checkpoints move between them.
Snapshot makeSnapshot(const BrownianParams& p, std::uint64_t step, double time,
                      const std::vector<float>& x, const std::vector<float>& y,
                      const std::vector<float>& z, const std::vector<float>& dx,
                      const std::vector<float>& dy, const std::vector<float>& dz,
                      const std::vector<std::int32_t>& neighbors);
// The state arrays of either backend (host or device pointers to `count` particles): the
// positions and displacements per axis, the overlap counts.
std::vector<StateArray> stateArraysOf(std::size_t count, const float* const xyz[3],
                                      const float* const dxyz[3], const std::int32_t* overlaps,
                                      MemorySpace space);

struct HostState {
    std::vector<float> x, y, z, dx, dy, dz;
    std::uint64_t step = 0;
    double time = 0.0;
};
HostState readSnapshot(const BrownianParams& p, const Snapshot& s);

}  // namespace cf::brownian
