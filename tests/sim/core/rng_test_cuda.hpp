// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Shared by test_rng.cpp and test_rng_cuda.cu: which counter draw number i uses, and the
// device-side generator of the CPU/CUDA comparison.
#include <cstdint>
#include <vector>

#include "sim/core/host_device.hpp"

namespace cf::test {

struct RngCounter {
    std::uint64_t step;
    std::uint32_t entity;
    std::uint32_t draw;
};

// Spreads i over all three counter fields, including the high word of the step.
CF_HD RngCounter rngCounterFor(std::uint32_t i) {
    return {(static_cast<std::uint64_t>(i % 5u) << 32) | (i % 977u), i / 7u, i % 7u};
}

#if CELLFORGE_HAVE_CUDA
// Fills words[4 i + k] with the Philox words and normals[2 i + k] with normalPair of draw i,
// for i < count, computed on the device.
void philoxDrawsCuda(std::uint32_t seed, std::uint32_t stream, std::uint32_t count,
                     std::vector<std::uint32_t>& words, std::vector<double>& normals);
#endif

}  // namespace cf::test
