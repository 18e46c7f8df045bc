// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `epidermis` state shared by both backends: the host arrays, the initial state and the
// snapshot layout.
//
// State (capacity C cells, E = capacity.elements_per_cell element slots per cell):
//   x, y, z [C*E] float   element slot of element e of cell c is c*E + e
//   type    [C*E] uint8   1 = adheres to the basement membrane, 0 = not
//   count   [C]   int32   elements of cell c (slots count..E-1 unused)
//   species [7][C] float  species k of cell c at k*C + c (order of enum Species)
//   cells                 active cells 0..cells-1
// Positions are stored wrapped into [0, L) on periodic axes.
#include <cstdint>
#include <vector>

#include "sim/core/model.hpp"
#include "sim/core/state_arrays.hpp"
#include "sim/models/epidermis/epidermis_params.hpp"

namespace cf::epidermis {

struct HostState {
    std::int32_t capacity = 0;      // cell slots
    std::int32_t slotsPerCell = 0;  // E
    std::int32_t cells = 0;
    std::vector<float> x, y, z;       // capacity * E
    std::vector<std::uint8_t> type;   // capacity * E
    std::vector<std::int32_t> count;  // capacity
    std::vector<float> species;       // kSpeciesCount * capacity
    std::uint64_t step = 0;
    double time = 0.0;

    std::size_t slot(std::int32_t cell, std::int32_t e) const {
        return static_cast<std::size_t>(cell) * static_cast<std::size_t>(slotsPerCell) +
               static_cast<std::size_t>(e);
    }
    float& s(int k, std::int32_t cell) {
        return species[static_cast<std::size_t>(k) * static_cast<std::size_t>(capacity) +
                       static_cast<std::size_t>(cell)];
    }
    float s(int k, std::int32_t cell) const {
        return species[static_cast<std::size_t>(k) * static_cast<std::size_t>(capacity) +
                       static_cast<std::size_t>(cell)];
    }
    std::int64_t elements() const;
    // Zero-filled arrays for `capacity` cells of `slotsPerCell` slots; no active cell.
    void allocate(std::int32_t capacity, std::int32_t slotsPerCell);
    // Reallocates to `newCapacity` cell slots, keeping the active cells.
    void reserveCells(std::int32_t newCapacity);
};

// Initial layout (A.11): centres on a square lattice of pitch size/ceil(sqrt(cells)),
// elements uniform in a cube of half-width init.half_width around it with z in
// [z_offset, z_offset + z_range], the adhesive_per_cell lowest elements of each cell get
// type 1; species uniform in [0, species_noise]. Philox(seed, kInitStream).
HostState initialState(const EpidermisParams& p, std::uint32_t seed);

// Snapshot fields: "position" (active elements, cell-major), "element_type" (u8),
// "element_cell" (i32), "element_state" (u8: 0 adhesive, 1 basal, 2 suprabasal),
// per cell (Internal): "cell_elements" (i32), and one f32 field per species
// ("notch", "delta", "bound", "bma", "ovol1", "ovol2", "cmyc").
Snapshot makeSnapshot(const EpidermisParams& p, const HostState& s);

// Where either backend keeps the arrays of the layout above (host or device pointers).
struct StatePointers {
    std::int32_t capacity = 0, slotsPerCell = 0, cells = 0;
    const float *x = nullptr, *y = nullptr, *z = nullptr;
    const std::uint8_t* type = nullptr;
    const std::int32_t* count = nullptr;
    const float* species = nullptr;
};
// The active cells' rows as state arrays: element positions and types as cells x E slots
// (slots past a cell's count are unused; the snapshot packs the used ones instead), the
// element counts and one array per species.
std::vector<StateArray> stateArraysOf(const StatePointers& s, MemorySpace space);
HostState readSnapshot(const EpidermisParams& p, const Snapshot& snapshot);

// Cell state for colouring: suprabasal when the network is on and Ovol1 > Ovol2, or when
// it is off and the cell has no adhesive element; basal otherwise.
bool isSuprabasal(const EpidermisParams& p, const HostState& s, std::int32_t cell);

}  // namespace cf::epidermis
