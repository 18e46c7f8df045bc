// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `spheres` model: shared host code (validation, capacity, grid geometry, metrics; the
// initial state and snapshot layout are in spheres_state.hpp, the views in spheres_views.hpp) and
// the step both backends implement (design note section 1.1):
//
//  1. rc = mechanics.interaction_radius, or when 0 the largest diameter at the start of the
//     step (before growth, as BDM takes it at UpdateGrid).
//  2. If growth is on, a cell divides when V > V_div (a volume comparison, no cbrt).
//  3. Biology, each cell on its own: a non-dividing cell grows V += rate dt (floored),
//     D = cbrt(6V/pi); a dividing cell becomes the mother in place and writes its daughter
//     at slot and id N + rank, rank = number of dividing cells with a smaller id (so the
//     daughters and their order do not depend on slot order or threads). Daughters are
//     newborn: they neither feel nor exert force in this step.
//  4. Every other cell sums the pair forces of the cells within rc (d^2 < rc^2, strict) on
//     the positions after biology, and its move follows from displacementFromForce.
//  5. All moves are applied after all are computed (Jacobi).
//  6. N += T; every mechanics.sort_every steps the cells are reordered into Morton order.
// Cells are binned after biology (BDM bins before, so a moved mother may sit in a stale
// box): no pair within rc is ever missed; the set of pairs is otherwise the same.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/model.hpp"
#include "sim/grid/uniform_grid.hpp"
#include "sim/models/spheres/spheres_params.hpp"
#include "sim/models/spheres/spheres_state.hpp"
#include "sim/models/spheres/substance.hpp"

namespace cf::spheres {

ModelDescriptor descriptor();

// The struct with its derived fields, after the checks that single ranges cannot express
// (interaction radius below the largest reachable diameter, ratio order, division below the
// initial diameter); throws ParameterError naming the parameters.
SpheresParams checkedParams(const ParamSet& params);
// What a live edit must also fit that no parameter check can know: the running population.
// Throws ParameterError when capacity.max_cells is below the `cells` there are now (the
// next step could only fail).
void checkAgainstPopulation(const SpheresParams& next, std::size_t cells);

// Largest diameter a cell can reach under `p` (initial spread, growth up to one step past
// the division volume).
double largestReachableDiameter(const SpheresParams& p);

// Edge of the uniform grid's cells for pairs within `bound` in the box [lo, hi]: the bound
// plus a few float ulps of the box (positions are binned in float, so no pair within the
// bound in double is missed), rounded up to a rung of a 2^(1/64) ladder: the geometry, hence
// the Morton order and every summation order, is a function of the bound alone, so a
// restored run follows the original bit for bit.
float gridCutoff(double bound, const double lo[3], const double hi[3]);
// Keeps `geometry` (non-periodic, over the box [lo, hi]) at gridCutoff(bound): rebuilt only
// when that cutoff changes or when `have` is false (then set).
void refreshGridGeometry(grid::GridGeometry& geometry, bool& have, double bound, const double lo[3],
                         const double hi[3]);

// The cell slots a step that brings n cells to n + born needs: `capacity` while they fit,
// else max(2 capacity, n + born). Throws SimulationError (the state is unchanged) when
// capacity.max_cells would be exceeded.
std::size_t capacityFor(const SpheresParams& p, std::uint64_t step, std::size_t n, std::size_t born,
                        std::size_t capacity);
// The note a backend emits when its capacity grew.
std::string capacityNote(std::size_t before, std::size_t after, std::size_t inUse,
                         double bytesPerCell);

// Metrics: cells, mean_diameter, mean_force, divisions_total (since the start: cells whose
// root is not themselves, as no cell dies), divisions_step (in the last step: `divisions`);
// with the substance: substance_total (sum of c x voxel volume) and mean_sensed (c at the
// cells).
std::vector<Metric> hostMetrics(const HostState& s, std::uint64_t divisions);

std::unique_ptr<Model> makeCpuModel();
std::unique_ptr<Model> makeCudaModel();  // defined only in CUDA builds

std::vector<BenchCase> benchCases();

}  // namespace cf::spheres
