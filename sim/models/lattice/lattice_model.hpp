// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Host-side pieces of `lattice` shared by every backend: parameter checks, the lattice
// geometry, the initial state, overflow re-insertion, snapshot layout and views. A CUDA
// backend must use these (and lattice_sweep.hpp) unchanged to reproduce the CPU lattice.
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/core/model.hpp"
#include "sim/models/lattice/lattice_overflow.hpp"
#include "sim/models/lattice/lattice_params.hpp"
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

// The whole state on the host. Identity planes exist only with tracking: ids[k * sites + i]
// is the id (1-based, 0 = untracked or empty) of the particle in slot k of site i, and
// displacement[3 (id - 1) + a] its unwrapped displacement in sites along axis a.
struct HostState {
    std::vector<std::uint32_t> words;  // wordsPerSite planes of `sites` words
    std::vector<std::uint8_t> types;   // site type per site (also inside packed32 words)
    std::vector<std::uint32_t> ids;
    std::vector<std::int32_t> displacement;
    std::vector<std::uint8_t> trackedSpecies;  // per tracked id - 1
    std::uint64_t step = 0;
    double time = 0.0;  // [us]
    std::uint64_t overflowsLastStep = 0;
    std::uint64_t overflowsTotal = 0;
    std::uint64_t fired[kMaxReactions] = {};  // reactions fired since reset, per reaction
};

// The species counts conservation implies: `initial` (at reset) plus the stoichiometry of
// every reaction times how often it fired. Validation compares the lattice with this.
std::vector<std::int64_t> expectedCounts(const LatticeParams& p, const Geometry& g,
                                         const std::vector<std::int64_t>& initial,
                                         const std::uint64_t* fired);
// The counts at reset that lead to `s` through its fired reactions (for a restored state).
std::vector<std::int64_t> initialCountsOf(const LatticeParams& p, const Geometry& g,
                                          const HostState& s);

// Site types from the geometry parameters: the region (none: all cytoplasm; a sphere or a
// closed mesh: cytoplasm, membrane shell, outside) and obstacles in its cytoplasm (single
// sites drawn per site with Philox(seed, kObstacleStream), or hard spheres). Throws
// ParameterError / GeometryError / InputFileError naming the parameter or file.
std::vector<std::uint8_t> buildSiteTypes(const LatticeParams& p, const Geometry& g);

// The closed surface geometry.mesh names (geometry.region = mesh), in the file's units.
// Throws InputFileError (the file does not load) or GeometryError (it is not closed).
geometry::TriangleMesh regionMesh(const LatticeParams& p);

// Obstacles drawn per site (Philox(seed, kObstacleStream)), then particle p (species in
// order, then index) at a uniformly drawn free site; a full site passes it on to the next
// free site in index order. The first `tracking.per_species` particles of each species get
// identities. Identical for every backend.
HostState initialState(const LatticeParams& p, const Geometry& g);

// Sorts `list` by overflowKey and places each particle, in that order, with placeOverflow
// (lattice_overflow.hpp). Throws SimulationError when no site of its type has room.
void reinsertOverflows(const Geometry& g, std::vector<Overflow>& list, std::uint32_t* words,
                       const std::uint8_t* types, std::uint32_t* ids, std::int32_t* displacement);

// "lattice: 128x128x128 sites, byte16 (16 particles per site): two lattice copies of ..."
// for the run's log (a model note at reset).
std::string memoryReport(const LatticeParams& p, const Geometry& g);

// Particles per species id (index 0 unused, size speciesCount + 1).
std::vector<std::int64_t> countSpecies(const LatticeParams& p, const Geometry& g,
                                       const std::uint32_t* words);

Snapshot makeSnapshot(const LatticeParams& p, const Geometry& g, const HostState& s);
// Throws IoError when a field is missing or has the wrong size for these parameters.
HostState readSnapshot(const LatticeParams& p, const Geometry& g, const Snapshot& s);

// Particles per (site type t, species s) at t * (kMaxSpecies + 1) + s; s = 0 counts ids
// no species has.
inline constexpr std::size_t kRegionCountsSize = kSiteTypeCount * (kMaxSpecies + 1);
std::vector<std::int64_t> countByRegion(const LatticeParams& p, const Geometry& g,
                                        const std::uint32_t* words, const std::uint8_t* types);
// countSpecies' layout from countByRegion's.
std::vector<std::int64_t> speciesTotals(const LatticeParams& p,
                                        const std::vector<std::int64_t>& byRegion);

std::vector<Metric> hostMetrics(const LatticeParams& p, const Geometry& g, const HostState& s);
// The same metrics from counts already reduced elsewhere (countByRegion's layout) and
// the number of cytoplasm sites; `s` is read only for the overflow counters, displacement
// and trackedSpecies (a device backend keeps the lattice itself on the device).
std::vector<Metric> metricsFromCounts(const LatticeParams& p,
                                      const std::vector<std::int64_t>& byRegion,
                                      std::size_t freeSites, const HostState& s);

// Cloud "particles": one point per particle at its site centre, offset by slot on a small
// circle so stacked particles show, radius lambda / 4, category "species" (labels: the
// species names). Species and site types have distinct declared colours.
// Metrics name species by their names: count_<name>, count_<name>_<region>, msd_<name>.
// Volume "lattice": scalar channels "occupancy" (all species) and "occupancy <name>" per
// species, each with a colour range from 0 to a top that fits its declared particles over
// the `freeSites` cytoplasm sites, and category "site type" (kSiteTypeNames), when the
// lattice has at most kMaxVolumeSites sites (beyond that the float channels would take
// more memory than the lattice itself).
struct ViewBuffers {
    std::vector<float> xyzr;
    std::vector<std::uint8_t> species;
    std::vector<float> occupancy;  // (speciesCount + 1) planes of `sites` values
    std::vector<std::uint8_t> siteTypes;
};
inline constexpr std::uint32_t kMaxVolumeSites = 1u << 24;
bool volumeShown(const Geometry& g);
// The volume's layout (names, box, ranges, colours) with null data pointers.
VolumeView volumeLayout(const LatticeParams& p, const Geometry& g, std::size_t freeSites);
ModelViews hostViews(const LatticeParams& p, const Geometry& g, const HostState& s,
                     ViewBuffers& buffers);

// `cellforge-sim bench lattice` cases.
std::vector<BenchCase> benchCases();

std::unique_ptr<Model> makeCpuModel();
std::unique_ptr<Model> makeCudaModel();  // defined only in CUDA builds

}  // namespace cf::lattice
