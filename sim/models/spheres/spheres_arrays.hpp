// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The cells' arrays of either backend as state arrays (sim/core/state_arrays.hpp): the CPU
// steps positions and diameters in double, the CUDA backend in float; both keep one array
// per quantity in slot order, the snapshot's order.
#include <cstdint>
#include <vector>

#include "sim/core/state_arrays.hpp"

namespace cf::spheres {

template <typename Real, typename Field>
struct CellArrays {
    std::size_t count = 0;
    const Real *x = nullptr, *y = nullptr, *z = nullptr, *diameter = nullptr;
    const double* volume = nullptr;
    const float* force = nullptr;
    const std::uint32_t *id = nullptr, *root = nullptr;
    const std::uint8_t* generation = nullptr;
    const std::uint64_t* birthStep = nullptr;
    const Field* substance = nullptr;  // null when the substance is off
    std::size_t voxels = 0;
};

template <typename Real, typename Field>
std::vector<StateArray> stateArraysOf(const CellArrays<Real, Field>& c, MemorySpace space) {
    const std::size_t n = c.count;
    std::vector<StateArray> out;
    const char* axis[3] = {"x", "y", "z"};
    const Real* coordinate[3] = {c.x, c.y, c.z};
    for (int a = 0; a < 3; ++a)
        out.push_back(stateArray(std::string("position.") + axis[a], "um",
                                 std::string("Cell centre, ") + axis[a], coordinate[a], n, space)
                          .holds("position", a));
    out.push_back(
        stateArray("diameter", "um", "Cell diameter", c.diameter, n, space).holds("diameter"));
    out.push_back(stateArray("volume", "um^3", "Cell volume", c.volume, n, space).holds("volume"));
    out.push_back(
        stateArray("force", "1", "Magnitude of the last step's mechanical force", c.force, n, space)
            .holds("force"));
    out.push_back(stateArray("id", "1", "Global cell id", c.id, n, space).holds("id"));
    out.push_back(
        stateArray("root", "1", "Id of the initial ancestor", c.root, n, space).holds("root"));
    out.push_back(stateArray("generation", "1", "Divisions since the initial ancestor",
                             c.generation, n, space)
                      .holds("generation"));
    out.push_back(stateArray("birth_step", "1", "Step of the cell's birth", c.birthStep, n, space)
                      .holds("birth_step"));
    if (c.substance)
        out.push_back(stateArray("substance", "1/um^3",
                                 "Substance concentration per voxel (x fastest)", c.substance,
                                 c.voxels, space)
                          .holds("substance"));
    return out;
}

}  // namespace cf::spheres
