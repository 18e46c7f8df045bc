// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `epidermis` model: shared host code (validation, initial state, snapshot layout, growth
// and division on host arrays) and the algorithm both backends implement.
//
// State (capacity C cells, E = capacity.elements_per_cell element slots per cell):
//   x, y, z [C*E] float   element slot of element e of cell c is c*E + e
//   type    [C*E] uint8   1 = adheres to the basement membrane, 0 = not
//   count   [C]   int32   elements of cell c (slots count..E-1 unused)
//   species [7][C] float  species k of cell c at k*C + c (order of enum Species)
//   cells                 active cells 0..cells-1
// Positions are stored wrapped into [0, L) on periodic axes.
//
// One step (time t -> t + dt), identical on both backends:
//  1. Centres c_j (and radii R_j = max element distance from c_j) of X; the centre of a
//     cell is the mean of its elements' minimum-image offsets from its element 0, added to
//     element 0 and wrapped (equals A.7's unwrap rule for cells smaller than L/2). As in
//     the paper's kernel sequence (A.14) the centres are computed once per step and serve
//     both RK stages.
//  2. Candidate cells: cell pair (a, b) is kept by
//       naive:  always;
//       center/grid, cull=exact: |c_a - c_b| <= inter_dist + R_a + R_b + skin (loses no
//               element pair in either stage while no element moves more than skin/2 in
//               the half step; a larger move stops the run with a SimulationError);
//       center/grid, cull=paper: |c_a - c_b| <= inter_dist (Algorithm 2).
//     `grid` finds candidate cells b through a uniform grid over the centres with cells of
//     edge >= inter_dist + 2 radius_bound + skin (exact) or inter_dist (paper); any R_j
//     beyond radius_bound stops the run (SimulationError) instead of silently losing pairs.
//  3. f(X) for every element i of cell a:
//       intra = sum_{k in a, k != i} V_intra(r_ik) (X_i - X_k)                (all pairs)
//       inter = sum_{kept cells b != a} sum_{k in b, r_ik <= inter_dist}
//               pV_inter(r_ik) (X_i - X_k)
//       membrane (type 1 only): inter.z += V_intra(|z_i|) z_i
//     with minimum-image differences on periodic axes.
//     X1 = X + dt/2 f(X); z clamped to >= 0 when hard_z; wrapped.
//  4. f(X1) with the candidates of 2; X' = X + dt f(X1); clamp; wrap.
//  5. Centres of X' (they are the next step's centres of X).
//  6. If network.enabled: for each cell, A = sum of z over its type-1 elements;
//     neighbours = other cells with |c_a - c_b| <= neighbor_dist (minimum image);
//     <N>, <D>, <B> = neighbour means (0 without neighbours); networkStep() (RK2, clamp).
//  7. step += 1. If growth.enabled and step % growth.interval == 0, for cells in index
//     order: a cell grows when D < <D> (rule lateral) or D < threshold (absolute); growing
//     appends one type-0 element at its centre (from 5). A cell that reaches
//     division_elements divides: elements [0, n/2) stay, elements [n/2, n) become cell
//     `cells + (number of earlier dividing cells)`, in order; both get half of every
//     species. Capacity doubles (all arrays reallocated) when the new cells do not fit.
//     When the network is disabled, <D> and D are 0 and no cell grows by the lateral rule.
#include <memory>
#include <string>
#include <vector>

#include "sim/core/model.hpp"
#include "sim/models/epidermis/epidermis_params.hpp"

namespace cf::epidermis {

ModelDescriptor descriptor();

// Range-independent checks (period vs cut-off, capacities vs division size, ...); throws
// ParameterError naming the parameters.
EpidermisParams checkedParams(const ParamSet& params);

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
HostState readSnapshot(const EpidermisParams& p, const Snapshot& snapshot);

// Cell state for colouring: suprabasal when the network is on and Ovol1 > Ovol2, or when
// it is off and the cell has no adhesive element; basal otherwise.
bool isSuprabasal(const EpidermisParams& p, const HostState& s, std::int32_t cell);

// Metrics from a host state: cells, elements, mean and max centre height, layers
// (z bins of analysis.layer_height holding at least 1% of the cells), adherent_cells (cells
// with an adhesive element), suprabasal_cells (centre more than analysis.layer_height above
// the adherent cells' mean centre: stratification), species means.
std::vector<Metric> hostMetrics(const EpidermisParams& p, const HostState& s,
                                const std::vector<float>& centreZ);

std::unique_ptr<Model> makeCpuModel();
std::unique_ptr<Model> makeCudaModel();  // CUDA builds only

const char* speciesName(int k);   // "notch", ...: snapshot fields, metric and channel names
const char* speciesTitle(int k);  // "Notch", ...: for descriptions

}  // namespace cf::epidermis
