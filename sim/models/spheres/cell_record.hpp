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

// A ghost as the CUDA backend sends it: what the force loop reads of a neighbour (float
// position and diameter, the id for the coincident-centre draw), 20 bytes instead of 64.
struct GhostRecord {
    float x, y, z, diameter;
    std::uint32_t id;
};
static_assert(sizeof(GhostRecord) == 20, "GhostRecord travels as raw bytes");

}  // namespace cf::spheres
