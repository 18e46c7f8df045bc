// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `spheres`: BioDynaMo's sphere mechanics with growth and division (Hesam et al. 2021; the
// table with its sources is section 1.6 of docs/design/spheres.md, the rules section 7). Lengths in
// um, time in h; force and mass have no units (BioDynaMo's convention).
#include <cstdint>

#include "sim/core/params.hpp"

namespace cf::spheres {

enum class Layout : std::int32_t { Lattice = 0, Random = 1, Ball = 2 };

// Everything the per-cell code reads, as one plain struct (a CUDA backend's __constant__).
// mechanics.neighbour_search: the uniform grid (both backends), or nanoflann's kd-tree, the
// CPU baseline of Hesam et al.'s comparison (cpu/kd_tree_search.hpp).
enum class NeighbourSearch : std::int32_t { Grid = 0, KdTree = 1 };
// mechanics.force_kernel: a thread per cell (Hesam et al.'s v2) or a block per grid voxel with
// its neighbourhood in shared memory (their v3); the same results to the bit.
enum class ForceKernel : std::int32_t { Agent = 0, Voxel = 1 };
// mechanics.precision: the real of positions, diameters, forces and moves on CUDA (float, or
// double: Hesam et al.'s v0). The CPU reference is double either way.
enum class MechanicsPrecision : std::int32_t { Float = 0, Double = 1 };

struct SpheresParams {
    // initial state (structural)
    std::int32_t layout;  // Layout
    std::int32_t cellsPerAxis;
    double spacing;
    std::int32_t count;
    double box;
    double radius;
    double diameter;
    double mass;
    double ageSpread;
    // time (live)
    double dt;
    // mechanics (live, except interactionRadius)
    double adherence;
    double maxDisplacement;
    double repulsion;          // kappa
    double attraction;         // gamma
    double radiusExtension;    // added to each radius (BDM: 10 x 0.15)
    double interactionRadius;  // structural; 0 = the largest diameter of each step
    double coincidentForce;    // half-width of the random force between coincident centres
    std::int32_t sortEvery;
    std::int32_t neighbourSearch;  // structural; NeighbourSearch (kdtree: CPU only)
    std::int32_t forceKernel;      // live; ForceKernel (CUDA only; no effect on the CPU)
    std::int32_t precision;        // structural; MechanicsPrecision (CUDA only; CPU: double)
    // growth and division (live)
    bool growth;
    double growthRate;
    double divisionDiameter;
    double ratioMin, ratioMax;
    // domain and capacity
    double margin;                 // structural
    std::int32_t capacityInitial;  // structural; 0 = twice the initial count
    std::int32_t maxCells;         // live; 0 = no limit beyond memory
    // extracellular substance (substance.hpp); enabled and voxel structural, the rest live
    bool substance;
    double voxel;
    double diffusion;       // um^2/h
    double decay;           // 1/h
    double secretion;       // amount per cell per h
    double chemotaxis;      // um^5/h: tractor = chemotaxis x grad c
    std::int32_t boundary;  // SubstanceBoundary
    // derived by checkedParams
    double density;         // mass per volume, from init.mass at init.diameter
    double divisionVolume;  // pi/6 division_diameter^3
    double growthPerStep;   // growth.rate x time.dt
    double volumeFloor;
};

const ParamTable& parameterTable();

// RNG streams of this model (key = (seed, stream)).
inline constexpr std::uint32_t kInitStream = 0;
inline constexpr std::uint32_t kDivisionStream = 1;
inline constexpr std::uint32_t kContactStream = 2;

// BDM's volume floor (docs/design/spheres.md B.3): only matters for negative growth, kept for
// fidelity.
inline constexpr double kVolumeFloor = 5.2359877e-7;

}  // namespace cf::spheres
