// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `epidermis` model: shared host code (validation, metrics) and the algorithm both backends
// implement. The state's layout, initial state and snapshot layout are in epidermis_state.hpp.
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
//     order: a cell grows by growth_rule.hpp's test (the share growth.fraction of lowest
//     Delta, D < <D> or D < threshold; the cut is taken before any cell grows); growing
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
#include "sim/models/epidermis/epidermis_state.hpp"
#include "sim/models/epidermis/stratification.hpp"

namespace cf::epidermis {

ModelDescriptor descriptor();

// Range-independent checks (period vs cut-off, capacities vs division size, ...); throws
// ParameterError naming the parameters.
EpidermisParams checkedParams(const ParamSet& params);

// Metrics from a host state and its cell centres: cells, elements, mean and max centre
// height, layers and column_layers (stratification.hpp), adherent_cells and detached_cells
// (with and without an adhesive element), off_membrane_fraction, suprabasal_cells (centre
// more than analysis.layer_height above the adherent cells' mean centre), species means.
std::vector<Metric> hostMetrics(const EpidermisParams& p, const HostState& s,
                                const CellCentres& centres);

std::unique_ptr<Model> makeCpuModel();
std::unique_ptr<Model> makeCudaModel();  // CUDA builds only

const char* speciesName(int k);   // "notch", ...: snapshot fields, metric and channel names
const char* speciesTitle(int k);  // "Notch", ...: for descriptions

// Benchmark cases (epidermis_bench.cpp): Table 3 of the paper and the targets.
std::vector<BenchCase> benchCases();

}  // namespace cf::epidermis
