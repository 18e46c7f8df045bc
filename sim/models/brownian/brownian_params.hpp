// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `brownian`: overdamped Brownian particles with soft harmonic repulsion in a periodic
// box. Not one of the five biological models: it is the smallest model that exercises
// the whole core (parameters, RNG, uniform grid, runner, output, checkpoints, benchmarks)
// with results that have closed forms (MSD = 6 D t without interactions).
#include <cstdint>

#include "sim/core/params.hpp"

namespace cf::brownian {

// Plain struct filled from the parameter table; the CUDA backend uploads it as is.
struct BrownianParams {
    std::int32_t count;  // structural
    float box;           // structural, cube edge [um]
    float radius;        // structural (sets the grid cutoff) [um]
    float dt;            // [s]
    float diffusion;     // [um^2/s]
    float stiffness;     // [pN/um]
    float mobility;      // [um/(s pN)]
};

const ParamTable& parameterTable();

// RNG streams of this model (key = (seed, stream)).
inline constexpr std::uint32_t kInitStream = 0;
inline constexpr std::uint32_t kNoiseStream = 1;

}  // namespace cf::brownian
