// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `lattice`: multiparticle diffusion on a cubic lattice (Roberts et al. 2009, the Lattice
// Microbes MPD-RDME scheme). Particles carry no position, only a species id in one of a
// site's slots; each step moves them by three 1-D sweeps. See lattice_sweep.hpp.
#include <cstdint>

#include "sim/core/params.hpp"
#include "sim/models/lattice/lattice_config.hpp"

namespace cf::lattice {

enum class Layout : std::int32_t { Packed32 = 0, Byte16 = 1 };
enum class Boundary : std::int32_t { Periodic = 0, Reflective = 1 };
enum class Region : std::int32_t { None = 0, Sphere = 1, Mesh = 2 };
enum class ObstacleShape : std::int32_t { Sites = 0, Spheres = 1, InVivo = 2 };

// Filled from the parameter table (checkedParams then parses the text parts); the device
// gets the Geometry built from it, not this struct.
struct LatticeParams {
    std::int32_t nx, ny, nz;                       // structural, sites per axis
    float lambda;                                  // structural, site spacing [nm]
    float tau;                                     // time step [ns]
    std::int32_t boundaryX, boundaryY, boundaryZ;  // Boundary, structural
    std::int32_t layout;                           // Layout, structural
    std::int32_t nMax;                             // packed32 particles per site: 2, 4 or 8
    std::int32_t speciesCount;                     // structural
    float d1, d2, d3, d4, d5, d6, d7, d8;          // diffusion coefficients [nm^2/us]
    std::int32_t n1, n2, n3, n4, n5, n6, n7, n8;   // initial counts, structural
    float obstacleFraction;                        // structural: share of sites that are obstacles
    std::int32_t obstacleShape;                    // ObstacleShape, structural
    float obstacleRadius;                          // [nm] spheres, structural
    std::int32_t region;                           // Region, structural
    float regionRadius;                            // [nm] sphere region
    std::string meshFile;                          // closed surface of the cell
    float meshScale;                               // [nm per mesh unit]
    float membraneThickness;                       // [nm], 0: one site layer
    std::int32_t tracked;  // structural: tracked particles per species (MSD)
    bool validation;       // count particles every step
    std::string speciesNamesText;
    std::string diffusionRulesText;  // live
    std::string networkText;         // live
    std::string sbmlFile;            // structural
    bool sbmlCounts;
    std::int32_t sbmlLaws;  // SbmlLaws, structural                 // structural: initial counts
                            // from the SBML file

    // Parsed by checkedParams from the text above.
    std::vector<std::string> speciesNames;
    DiffusionRules rules;
    ReactionNetwork network;

    float diffusion(int species) const {  // species 1..8
        const float d[kMaxSpecies] = {d1, d2, d3, d4, d5, d6, d7, d8};
        return d[species - 1];
    }
    std::int32_t initialCount(int species) const {
        const std::int32_t n[kMaxSpecies] = {n1, n2, n3, n4, n5, n6, n7, n8};
        return n[species - 1];
    }
};

const ParamTable& parameterTable();

// RNG streams of this model (key = (seed, stream)).
inline constexpr std::uint32_t kInitStream = 0;       // initial placement
inline constexpr std::uint32_t kObstacleStream = 1;   // which sites are obstacles
inline constexpr std::uint32_t kDiffusionStream = 2;  // per-particle move decisions
// 3: the reaction step (kReactionStream, reactions/reaction_site.hpp)

}  // namespace cf::lattice
