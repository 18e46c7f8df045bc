// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One `spheres` cell as it travels between ranks (migrants and ghosts alike), raw bytes in
// MPI messages: host and device code (spheres_ranks.hpp, cuda/spheres_rank_kernels.cu)
// read and write the same layout.
#include <cstdint>

namespace cf::spheres {

struct CellRecord {
    double x, y, z, diameter, volume;
    std::uint64_t birthStep;
    std::uint32_t id, root;
    float force;
    std::uint8_t generation;
    std::uint8_t pad[3];
};
static_assert(sizeof(CellRecord) == 64, "CellRecord travels as raw bytes");

// A ghost as the CUDA backend sends it: what the force loop reads of a neighbour (position
// and diameter in the backend's real, mechanics.precision; the id for the coincident-centre
// draw), 20 bytes in float (40 in double) instead of 64.
template <typename Real>
struct GhostRecordOf {
    Real x, y, z, diameter;
    std::uint32_t id;
};
static_assert(sizeof(GhostRecordOf<float>) == 20, "GhostRecord travels as raw bytes");
static_assert(sizeof(GhostRecordOf<double>) == 40, "GhostRecord travels as raw bytes");

}  // namespace cf::spheres
