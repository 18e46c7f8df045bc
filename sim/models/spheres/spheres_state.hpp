// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `spheres` state shared by both backends: the host cells, the initial state, the substance
// field's grid and the snapshot layout.
#include <cstdint>
#include <vector>

#include "sim/core/model.hpp"
#include "sim/models/spheres/spheres_params.hpp"
#include "sim/models/spheres/substance.hpp"

namespace cf::spheres {

// Cells in slot order. Ids are a dense permutation of 0..N-1 (no cell dies); a daughter's id
// is N + rank at its birth. Mechanics in double on the CPU reference.
struct HostState {
    std::vector<double> x, y, z, diameter, volume;
    std::vector<std::uint32_t> id, root;   // root = id of the initial ancestor (lineage)
    std::vector<std::uint8_t> generation;  // saturating
    std::vector<std::uint64_t> birthStep;
    std::vector<float> force;  // |F| of the last step (output only)
    std::uint64_t step = 0;
    double time = 0.0;
    double boxLo[3] = {0, 0, 0};  // the domain (grid box)
    double boxHi[3] = {1, 1, 1};
    // The substance field (empty when off): substanceDims voxels filling the domain box,
    // x fastest, in 1/um^3.
    std::vector<double> substance;
    std::int32_t substanceDims[3] = {0, 0, 0};

    std::size_t size() const { return x.size(); }
    void resize(std::size_t n);
    void reserve(std::size_t n);
};

// Initial cells (layouts lattice, random, ball; Philox(seed, kInitStream)) and the domain:
// their bounding box grown by domain.margin on every side; with the substance on, a field
// of zeros over the domain (ParameterError naming substance.voxel when it would be too big).
HostState initialState(const SpheresParams& p, std::uint32_t seed);

// The voxels of the state's substance field (its dims over its domain box).
FieldGrid substanceGrid(const HostState& s);
FieldGrid substanceGrid(const std::int32_t dims[3], const double lo[3], const double hi[3]);
// Makes `s` hold the field `p` asks for: none when the substance is off; zeros when it is on
// and `s` has none; throws IoError when `s` has one of other dimensions.
void conformSubstance(const SpheresParams& p, HostState& s);

// Snapshot fields: "position" f64 x3, "diameter" f64, "volume" f64, "force" f32, "id" u32,
// "root" u32, "generation" u8, "birth_step" u64, and with the substance on "substance" f64
// on the grid (gridDims); box = the domain.
Snapshot makeSnapshot(const HostState& s);
// Throws IoError when a field is missing or mis-sized, SimulationError when a diameter or
// volume is not positive (naming the cell id). Ids must lie below `idBound`, or below the
// snapshot's cell count when it is 0 (a rank's piece holds ids of the whole population).
HostState readSnapshot(const Snapshot& snapshot, std::uint64_t idBound = 0);

}  // namespace cf::spheres
