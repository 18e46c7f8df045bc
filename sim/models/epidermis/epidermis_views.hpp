// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Drawing views of `epidermis` (layout shared by both backends):
//   cloud "elements": active elements, cell-major; radius kElementDrawRadius; category
//     "state" (adhesive, basal, suprabasal); one scalar per species (the cell's value).
//   cloud "cells": cell centres with radius = cell radius; one scalar per species.
//   plane "basement membrane": z = 0 over the domain.
#include <cstdint>
#include <vector>

#include "sim/core/views.hpp"
#include "sim/models/epidermis/epidermis_model.hpp"

namespace cf::epidermis {

// Half the intracellular rest spacing (V_intra = 0 at 0.198): spheres just touch.
inline constexpr float kElementDrawRadius = 0.1f;

// Pointers to the packed arrays (host or device): species arrays are species-major
// (k * count + i).
struct PackedViews {
    const float* elements = nullptr;        // 4 per element
    const std::uint8_t* state = nullptr;    // per element
    const float* elementSpecies = nullptr;  // kSpeciesCount per element
    std::size_t elementCount = 0;
    const float* cells = nullptr;        // 4 per cell
    const float* cellSpecies = nullptr;  // kSpeciesCount per cell
    std::size_t cellCount = 0;
};

ModelViews assembleViews(const EpidermisParams& p, MemorySpace space, const PackedViews& packed);

// Host packing (the CPU backend): fills the vectors and returns the views over them.
struct HostViewBuffers {
    std::vector<float> elements, elementSpecies, cells, cellSpecies;
    std::vector<std::uint8_t> state;
};
ModelViews hostViews(const EpidermisParams& p, const HostState& s, const float* cx, const float* cy,
                     const float* cz, const float* radius, HostViewBuffers& buffers);

}  // namespace cf::epidermis
