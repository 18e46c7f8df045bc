// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Counter-based random numbers (Philox 4x32-10, Random123), identical in host and device
// code. A stream of draws is keyed by (seed, stream) and addressed by the counter
// (step, entity, draw): any draw can be recomputed from those four numbers, so results do
// not depend on thread count or launch order, and a checkpoint only needs seed and step.
//
// Convention: `stream` separates independent uses inside one model (e.g. noise vs.
// division angles); `draw` numbers the 4-word blocks one entity needs within a step.
#include <Random123/philox.h>

#include <cmath>
#include <cstdint>

#include "sim/core/host_device.hpp"

namespace cf::rng {

struct Word4 {
    std::uint32_t x, y, z, w;
};

class Philox {
public:
    CF_HD Philox(std::uint32_t seed, std::uint32_t stream) : key_{{seed, stream}} {}

    // Four independent 32-bit words for (step, entity, draw).
    CF_HD Word4 operator()(std::uint64_t step, std::uint32_t entity, std::uint32_t draw) const {
        r123::Philox4x32_R<10> gen;
        const r123::Philox4x32_R<10>::ctr_type ctr{{static_cast<std::uint32_t>(step),
                                                    static_cast<std::uint32_t>(step >> 32), entity,
                                                    draw}};
        const auto r = gen(ctr, key_);
        return {r.v[0], r.v[1], r.v[2], r.v[3]};
    }

private:
    r123::Philox4x32_R<10>::key_type key_;
};

// Uniform float in (0, 1]: 24 significant bits, never 0 (safe for log()).
CF_HD float uniformFloat(std::uint32_t u) {
    return static_cast<float>((u >> 8) + 1u) * (1.0f / 16777216.0f);
}

// Uniform double in (0, 1] from two words: 53 significant bits, never 0.
CF_HD double uniformDouble(std::uint32_t hi, std::uint32_t lo) {
    const std::uint64_t bits =
        ((static_cast<std::uint64_t>(hi) << 32) | static_cast<std::uint64_t>(lo)) >> 11;
    return static_cast<double>(bits + 1u) * (1.0 / 9007199254740992.0);
}

struct Normal2 {
    double a, b;
};

// Two independent standard normals (Box-Muller) from four words. Double precision on both
// backends, so the CPU and CUDA draws agree to rounding of the libm/libdevice functions.
CF_HD Normal2 normalPair(Word4 w) {
    const double u1 = uniformDouble(w.x, w.y);
    const double u2 = uniformDouble(w.z, w.w);
    const double r = sqrt(-2.0 * log(u1));
    const double theta = 6.283185307179586476925286766559 * u2;
    return {r * cos(theta), r * sin(theta)};
}

}  // namespace cf::rng
