// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Host-side pieces of `lattice` shared by every backend: parameter checks, the lattice
// geometry and site types, metrics; the state (initial state, overflow re-insertion, counts,
// snapshot layout) is in lattice_state.hpp, the views in lattice_views.hpp. A CUDA backend
// must use these (and lattice_sweep.hpp) unchanged to reproduce the CPU lattice.
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/core/model.hpp"
#include "sim/models/lattice/lattice_overflow.hpp"
#include "sim/models/lattice/lattice_params.hpp"
#include "sim/models/lattice/lattice_state.hpp"
#include "sim/models/lattice/lattice_sweep.hpp"

namespace cf::geometry {
struct TriangleMesh;  // sim/geometry/triangle_mesh.hpp, kept out of the kernels' includes
}

namespace cf::lattice {

ModelDescriptor descriptor();

// Validates what single ranges cannot: q = D tau / lambda^2 <= 0.5 per species, species
// ids that fit the layout, n_max in {2, 4, 8}, room for the initial particles. Throws
// ParameterError naming the parameter.
LatticeParams checkedParams(const ParamSet& params);

// Geometry (sizes, layout, thresholds Q = floor(q 2^32) per species) for this seed.
Geometry makeGeometry(const LatticeParams& p, std::uint32_t seed);
// D [nm^2/us] of `species` moving from a site of type `from` to one of type `to`.
double diffusionRate(const LatticeParams& p, int species, int from, int to);
// Thresholds only (live edits of tau or D).
void updateThresholds(const LatticeParams& p, Geometry& g);

// Site types from the geometry parameters: the region (none: all cytoplasm; a sphere or a
// closed mesh: cytoplasm, membrane shell, outside) and obstacles in its cytoplasm (single
// sites drawn per site with Philox(seed, kObstacleStream), or hard spheres). Throws
// ParameterError / GeometryError / InputFileError naming the parameter or file.
std::vector<std::uint8_t> buildSiteTypes(const LatticeParams& p, const Geometry& g);

// The closed surface geometry.mesh names (geometry.region = mesh), in the file's units.
// Throws InputFileError (the file does not load) or GeometryError (it is not closed).
geometry::TriangleMesh regionMesh(const LatticeParams& p);

std::vector<Metric> hostMetrics(const LatticeParams& p, const Geometry& g, const HostState& s);
// The same metrics from counts already reduced elsewhere (countByRegion's layout) and
// the number of cytoplasm sites; `s` is read only for the overflow counters, displacement
// and trackedSpecies (a device backend keeps the lattice itself on the device).
std::vector<Metric> metricsFromCounts(const LatticeParams& p,
                                      const std::vector<std::int64_t>& byRegion,
                                      std::size_t freeSites, const HostState& s);

// `cellforge-sim bench lattice` cases.
std::vector<BenchCase> benchCases();

std::unique_ptr<Model> makeCpuModel();
std::unique_ptr<Model> makeCudaModel();  // defined only in CUDA builds

}  // namespace cf::lattice
