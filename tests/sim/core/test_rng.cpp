// SPDX-License-Identifier: GPL-3.0-or-later
#include <Random123/philox.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "sim/core/rng.hpp"
#include "tests/sim/core/rng_test_cuda.hpp"
#include "tests/support/backends.hpp"

namespace cf::test {
namespace {

using rng::Philox;
using rng::Word4;

std::array<std::uint32_t, 4> words(Word4 w) {
    return {w.x, w.y, w.z, w.w};
}

TEST(Rng, PhiloxIsDeterministic) {
    const Philox a(42u, 3u);
    const Philox b(42u, 3u);
    for (std::uint32_t i = 0; i < 1000; ++i) {
        const RngCounter c = rngCounterFor(i);
        EXPECT_EQ(words(a(c.step, c.entity, c.draw)), words(b(c.step, c.entity, c.draw)));
        EXPECT_EQ(words(a(c.step, c.entity, c.draw)), words(a(c.step, c.entity, c.draw)));
    }
}

TEST(Rng, EveryKeyAndCounterFieldChangesTheWords) {
    const std::uint64_t step = 12345;
    const auto base = words(Philox(7u, 1u)(step, 99u, 2u));
    EXPECT_NE(base, words(Philox(8u, 1u)(step, 99u, 2u)));                             // seed
    EXPECT_NE(base, words(Philox(7u, 2u)(step, 99u, 2u)));                             // stream
    EXPECT_NE(base, words(Philox(7u, 1u)(step + 1, 99u, 2u)));                         // step
    EXPECT_NE(base, words(Philox(7u, 1u)(step + (std::uint64_t{1} << 32), 99u, 2u)));  // step hi
    EXPECT_NE(base, words(Philox(7u, 1u)(step, 100u, 2u)));                            // entity
    EXPECT_NE(base, words(Philox(7u, 1u)(step, 99u, 3u)));                             // draw
}

// The wrapper must be exactly Random123's philox4x32_10 with key {seed, stream} and counter
// {step low, step high, entity, draw}.
TEST(Rng, MatchesRandom123Philox4x32_10) {
    for (std::uint32_t i = 0; i < 10000; ++i) {
        const RngCounter c = rngCounterFor(i * 2654435761u);
        const std::uint32_t seed = i * 7919u;
        const std::uint32_t stream = i % 13u;
        // Random123's C-level entry point, independent of the C++ class the wrapper uses.
        const philox4x32_ctr_t ctr = {{static_cast<std::uint32_t>(c.step),
                                       static_cast<std::uint32_t>(c.step >> 32), c.entity, c.draw}};
        const philox4x32_key_t key = {{seed, stream}};
        const philox4x32_ctr_t r = philox4x32_R(10, ctr, key);
        ASSERT_EQ(words(Philox(seed, stream)(c.step, c.entity, c.draw)),
                  (std::array<std::uint32_t, 4>{r.v[0], r.v[1], r.v[2], r.v[3]}))
            << "i = " << i;
    }
    // Known-answer vectors published with Random123 (kat_vectors, philox4x32 10).
    EXPECT_EQ(words(Philox(0u, 0u)(0, 0u, 0u)),
              (std::array<std::uint32_t, 4>{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}));
    EXPECT_EQ(words(Philox(0xffffffffu, 0xffffffffu)(~std::uint64_t{0}, 0xffffffffu, 0xffffffffu)),
              (std::array<std::uint32_t, 4>{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}));
    EXPECT_EQ(
        words(Philox(0xa4093822u, 0x299f31d0u)(0x85a308d3243f6a88ull, 0x13198a2eu, 0x03707344u)),
        (std::array<std::uint32_t, 4>{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}));
}

TEST(Rng, UniformFloatIsInHalfOpenUnitInterval) {
    EXPECT_GT(rng::uniformFloat(0u), 0.0f);
    EXPECT_EQ(rng::uniformFloat(0u), 1.0f / 16777216.0f);
    EXPECT_EQ(rng::uniformFloat(0xffffffffu), 1.0f);
    const Philox gen(1u, 0u);
    for (std::uint32_t i = 0; i < 250000; ++i) {
        const Word4 w = gen(0, i, 0);
        for (std::uint32_t u : words(w)) {
            const float f = rng::uniformFloat(u);
            ASSERT_GT(f, 0.0f);
            ASSERT_LE(f, 1.0f);
        }
    }
}

TEST(Rng, UniformDoubleIsInHalfOpenUnitInterval) {
    EXPECT_GT(rng::uniformDouble(0u, 0u), 0.0);
    EXPECT_EQ(rng::uniformDouble(0u, 0u), 1.0 / 9007199254740992.0);
    EXPECT_EQ(rng::uniformDouble(0xffffffffu, 0xffffffffu), 1.0);
    const Philox gen(2u, 0u);
    for (std::uint32_t i = 0; i < 500000; ++i) {
        const Word4 w = gen(0, i, 0);
        for (double d : {rng::uniformDouble(w.x, w.y), rng::uniformDouble(w.z, w.w)}) {
            ASSERT_GT(d, 0.0);
            ASSERT_LE(d, 1.0);
        }
    }
}

// Pearson chi-square of 10^6 draws in 100 equiprobable bins (k/100, (k+1)/100]. With 99
// degrees of freedom the 99.9% quantile is about 148.2: a correct generator fails this for
// one seed in a thousand, and the seeds here are fixed.
double chiSquare(const std::vector<double>& draws) {
    constexpr int kBins = 100;
    std::vector<double> count(kBins, 0.0);
    for (double u : draws) {
        const int bin = std::clamp(static_cast<int>(std::ceil(u * kBins)) - 1, 0, kBins - 1);
        count[static_cast<std::size_t>(bin)] += 1.0;
    }
    const double expected = static_cast<double>(draws.size()) / kBins;
    double chi2 = 0.0;
    for (double c : count)
        chi2 += (c - expected) * (c - expected) / expected;
    return chi2;
}

constexpr double kChiSquare99Dof999 = 148.2;

TEST(Rng, UniformFloatChiSquare) {
    const Philox gen(3u, 5u);
    std::vector<double> draws;
    draws.reserve(1000000);
    for (std::uint32_t i = 0; i < 250000; ++i)
        for (std::uint32_t u : words(gen(17, i, 0)))
            draws.push_back(rng::uniformFloat(u));
    EXPECT_LT(chiSquare(draws), kChiSquare99Dof999);
}

TEST(Rng, UniformDoubleChiSquare) {
    const Philox gen(4u, 6u);
    std::vector<double> draws;
    draws.reserve(1000000);
    for (std::uint32_t i = 0; i < 500000; ++i) {
        const Word4 w = gen(18, i, 1);
        draws.push_back(rng::uniformDouble(w.x, w.y));
        draws.push_back(rng::uniformDouble(w.z, w.w));
    }
    EXPECT_LT(chiSquare(draws), kChiSquare99Dof999);
}

// 10^6 standard normals: the sample mean has standard error 1/sqrt(n) = 1e-3 and the sample
// variance sqrt(2/n) ~ 1.41e-3; allow 5 standard errors. The two members of a pair must
// be uncorrelated (standard error of the correlation 1/sqrt(n/2)).
TEST(Rng, NormalPairMeanAndVariance) {
    const Philox gen(5u, 7u);
    constexpr std::uint32_t kPairs = 500000;
    double sum = 0.0, sum2 = 0.0, cross = 0.0;
    for (std::uint32_t i = 0; i < kPairs; ++i) {
        const rng::Normal2 n = rng::normalPair(gen(3, i, 0));
        ASSERT_TRUE(std::isfinite(n.a) && std::isfinite(n.b));
        sum += n.a + n.b;
        sum2 += n.a * n.a + n.b * n.b;
        cross += n.a * n.b;
    }
    const double count = 2.0 * kPairs;
    const double mean = sum / count;
    const double variance = sum2 / count - mean * mean;
    EXPECT_NEAR(mean, 0.0, 5.0 / std::sqrt(count));
    EXPECT_NEAR(variance, 1.0, 5.0 * std::sqrt(2.0 / count));
    EXPECT_NEAR(cross / kPairs, 0.0, 5.0 / std::sqrt(static_cast<double>(kPairs)));
}

// The same counters on both backends: bit-identical words, and normals equal to 1e-12
// relative (libdevice and glibc log/sin/cos may differ in the last bit or two).
TEST(RngCuda, DrawsMatchCpu) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
#if CELLFORGE_HAVE_CUDA
    constexpr std::uint32_t kCount = 1000000;
    constexpr std::uint32_t kSeed = 20240611u, kStream = 4u;
    std::vector<std::uint32_t> gpuWords;
    std::vector<double> gpuNormals;
    philoxDrawsCuda(kSeed, kStream, kCount, gpuWords, gpuNormals);
    ASSERT_EQ(gpuWords.size(), 4u * kCount);
    ASSERT_EQ(gpuNormals.size(), 2u * kCount);
    const Philox gen(kSeed, kStream);
    int wordMismatches = 0, normalMismatches = 0;
    double worst = 0.0;
    for (std::uint32_t i = 0; i < kCount; ++i) {
        const RngCounter c = rngCounterFor(i);
        const Word4 w = gen(c.step, c.entity, c.draw);
        const auto cpu = words(w);
        for (std::size_t k = 0; k < 4; ++k)
            if (cpu[k] != gpuWords[4 * std::size_t{i} + k] && ++wordMismatches <= 5)
                ADD_FAILURE() << "draw " << i << " word " << k;
        const rng::Normal2 n = rng::normalPair(w);
        for (std::size_t k = 0; k < 2; ++k) {
            const double a = k == 0 ? n.a : n.b;
            const double b = gpuNormals[2 * std::size_t{i} + k];
            const double rel = std::abs(a - b) / std::max({std::abs(a), std::abs(b), 1e-300});
            worst = std::max(worst, rel);
            if (rel > 1e-12 && ++normalMismatches <= 5)
                ADD_FAILURE() << "normal " << i << "." << k << ": cpu " << a << " cuda " << b;
        }
    }
    EXPECT_EQ(wordMismatches, 0);
    EXPECT_EQ(normalMismatches, 0);
    RecordProperty("worstNormalRelativeDifference", std::to_string(worst));
#endif
}

}  // namespace
}  // namespace cf::test
