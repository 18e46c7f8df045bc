// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `gliding` (issue 9): the micro-macro gliding motility assay of Cook & Shinar (ScalA'17),
// rebuilt and planned in docs/design/gliding.md (its model sections are cited "design Mn").
// Nondimensional units (design M1): in-plane length L (the periodic domain side), height H,
// time T = l/v_m, velocity V = L/T, filament density n0, motor density m0.
#include <cstdint>
#include <string>

#include "sim/core/params.hpp"

namespace cf::gliding {

enum class StericReading : std::int32_t { MaierSaupe = 0, Strain = 1 };  // design M5
enum class KonArea : std::int32_t { Continuous = 0, Discrete = 1 };      // design 2.5
enum class MotorPrecision : std::int32_t { Float = 0, Double = 1 };      // CUDA only
// How the threads of a motor block map onto a chord's s-cells (CUDA only, motors.lane_mapping):
// a power-of-two group of adjacent lanes per chord, neighbours by warp shuffles; strided,
// adjacent threads on adjacent chords at the same s-cell, neighbours through shared memory
// (Cook & Shinar's Table 3 row "dimension mapping" removed); or runs, adjacent threads on
// adjacent slots of the packed slice (no idle lanes), the midpoints in shared memory.
enum class MotorLaneMapping : std::int32_t { Segments = 0, Strided = 1, Runs = 2 };
// Where the bound motors run (motors.placement): with the rest of the backend, or on the GPU
// while the CPU backend keeps the filaments and the fluid (Cook & Shinar's hybrid placement).
enum class MotorPlacement : std::int32_t { Backend = 0, Gpu = 1 };
// The order of the bound motors of one tail in device memory (motors.storage): each chord's
// s-cells in a row (s innermost), or lane by lane across the chords (the chord innermost,
// padded to the longest chord: Cook & Shinar's Table 3 row "reorder storage" removed).
enum class MotorStorage : std::int32_t { Chords = 0, Lanes = 1 };
// How the CUDA bound gather reads the motors it sums into W (motors.bound_gather): each lane
// straight from device memory along its own gather list, or a warp per (y, j) first copying
// every chord of orientation j it needs into shared memory, chord by chord (contiguous loads),
// then each lane summing from there in the same list order (the same bits).
enum class MotorBoundGather : std::int32_t { Lists = 0, Staged = 1 };
enum class DtMode : std::int32_t { Cfl = 0, Fixed = 1 };  // design C9
enum class Layout : std::int32_t { RingLattice = 0, SingleRing = 1, Isotropic = 2, Uniform = 3 };
enum class Sense : std::int32_t { Ccw = 0, Cw = 1, Alternating = 2 };

// Everything the per-cell code reads, as one trivially copyable struct. On CUDA it is what the
// kernels read from __constant__ memory: one copy per kernel file that reads parameters,
// uploaded at reset and at every live edit (cuda/params_block.hpp). Filled from the table, then
// completed by checkedParams.
struct GlidingParams {
    // grid (structural)
    std::int32_t n;       // Nx = Ny
    std::int32_t ninner;  // Ntheta = Ns
    double lambda;        // filament length / domain side
    // fluid
    double eps, z0, hFine, growth, deltaWidth, p0;
    bool fluidEnabled;
    std::int32_t fluidIterations;
    // filaments (live unless noted)
    double vsp, diffT, diffR, ur, ut, sigmaF, sigmaT;
    std::int32_t stericReading;  // StericReading, structural
    std::int32_t advectionOrder;
    // motors
    bool motorsEnabled;
    double rc;  // structural
    double koff, kon;
    std::int32_t konArea;  // KonArea, structural
    double mtot, force, courantIn;
    std::int32_t precision;  // MotorPrecision, structural
    double burnIn;
    // the CUDA motor kernels' build and launch (structural; the CPU ignores them)
    bool motorFastMath, motorLaunchBounds;
    std::int32_t motorBlockThreads;  // 0: automatic
    std::int32_t motorLaneMapping;   // MotorLaneMapping
    std::int32_t motorPlacement;     // MotorPlacement, structural
    std::int32_t motorStorage;       // MotorStorage
    std::int32_t motorBoundGather;   // MotorBoundGather
    // time
    double courantOut;
    std::int32_t dtMode;  // DtMode
    double dt;
    double growthLimit;
    // initial condition (structural)
    std::int32_t layout;  // Layout
    std::int32_t ringsPerAxis;
    double ringRadius, ringWidth, background, kappa;
    std::int32_t sense;  // Sense
    double meanDensity, perturbation;
    std::int32_t maxMode;
    // output
    bool profiles;
    double profileY;  // the row of the vertical slice, in L

    // derived by checkedParams
    double dx;           // 1/n
    double dtheta;       // 2 pi / ninner
    double ds;           // 1/ninner
    double lambdaCells;  // lambda / dx
    double rcCells;      // rc / dx
    double konTilde;  // Kon / (pi rc^2) (design M2); checkedTables resets it if kon_area=discrete
    double hA;        // z spacing of region A: fluid.h_fine, or z0/8 when 0 (design M4, C8)
    double hDelta;    // half-width of the smoothed delta: delta_width * hA (design M4)
    double zA;        // top of region A: min(4 z0, 1) (C8)
    double neighbourRadius;  // lambda/2 + rc + dx/sqrt(2) (design M3), in L
};

const ParamTable& parameterTable();

// The table's values with the derived fields filled in and the parameter-only checks of the
// design note's section 4 applied; throws ParameterError naming the parameter(s).
// The checks that need the capture tables are in gliding_tables.hpp (checkedTables), the
// one that needs the initial state is checkWellPosed below.
GlidingParams checkedParams(const ParamSet& params);

// Anti-diffusion (design M5): the Maier-Saupe translational term makes density modes grow
// like (Ut c - Dt) k^2, so Dt must exceed Ut x max c. Throws ParameterError if not.
void checkWellPosed(const GlidingParams& p, double cmax);

// RNG streams of this model (key = (seed, stream)).
inline constexpr std::uint32_t kInitStream = 0;

}  // namespace cf::gliding
