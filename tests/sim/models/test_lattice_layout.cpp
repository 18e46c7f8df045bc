// SPDX-License-Identifier: GPL-3.0-or-later
// `lattice` site encodings: every layout round-trips its largest species ids and keeps the
// site type (packed32 stores it in the top 4 bits); bad parameters are named.
#include <gtest/gtest.h>

#include "sim/models/lattice/lattice_model.hpp"

namespace cf {
namespace {

using lattice::Geometry;

Geometry geometryFor(const char* layout, int nMax) {
    ParamSet ps(lattice::parameterTable());
    ps.setFromAssignment(std::string("lattice.layout=") + layout);
    ps.setFromAssignment("lattice.n_max=" + std::to_string(nMax));
    ps.setFromAssignment("lattice.nx=4");
    ps.setFromAssignment("lattice.ny=3");
    ps.setFromAssignment("lattice.nz=2");
    ps.setFromAssignment("species.count=1");
    ps.setFromAssignment("species.n1=0");
    ps.setFromAssignment("species.n2=0");
    return lattice::makeGeometry(lattice::checkedParams(ps), 1);
}

TEST(LatticeLayout, EncodeDecodeRoundTripsEveryCapacity) {
    struct Case {
        const char* layout;
        int nMax, capacity, maxSpecies;
    };
    for (const Case c : {Case{"packed32", 2, 2, 16383}, Case{"packed32", 4, 4, 127},
                         Case{"packed32", 8, 8, 7}, Case{"byte16", 8, 16, 255}}) {
        SCOPED_TRACE(std::string(c.layout) + " n_max " + std::to_string(c.nMax));
        const Geometry g = geometryFor(c.layout, c.nMax);
        ASSERT_EQ(g.capacity, c.capacity);
        ASSERT_EQ(static_cast<int>(g.fieldMask), c.maxSpecies);
        std::vector<std::uint32_t> words(g.sites * g.wordsPerSite, 0xDEADBEEFu);
        std::vector<std::uint8_t> types(g.sites, 0);
        for (int n = 0; n <= c.capacity; ++n) {
            std::uint16_t in[lattice::kMaxSlots], out[lattice::kMaxSlots];
            for (int k = 0; k < n; ++k)  // the largest id, 1, and values in between
                in[k] =
                    static_cast<std::uint16_t>(k == 0 ? c.maxSpecies : 1 + (k * 37) % c.maxSpecies);
            const std::uint32_t site = 5;
            const std::uint8_t type = static_cast<std::uint8_t>(n % 2);
            types[site] = type;
            lattice::encodeSite(g, words.data(), site, type, in, n);
            ASSERT_EQ(lattice::decodeSite(g, words.data(), site, out), n);
            for (int k = 0; k < n; ++k)
                EXPECT_EQ(out[k], in[k]) << "slot " << k;
            EXPECT_EQ(lattice::siteType(g, words.data(), types.data(), site), type);
            // Neighbouring sites (other planes for byte16) are untouched.
            EXPECT_EQ(words[4], 0xDEADBEEFu);
            EXPECT_EQ(words[6], 0xDEADBEEFu);
        }
    }
}

// Neighbours wrap on periodic axes and stop at reflective ones.
TEST(LatticeLayout, NeighboursWrapOrStop) {
    Geometry g = geometryFor("byte16", 8);  // 4 x 3 x 2
    EXPECT_EQ(lattice::neighborOf(g, 0, 0, -1), 3);
    EXPECT_EQ(lattice::neighborOf(g, 3, 0, 1), 0);
    EXPECT_EQ(lattice::neighborOf(g, 0, 1, -1), 8);
    EXPECT_EQ(lattice::neighborOf(g, 12, 2, 1), 0);
    g.periodic[0] = 0;
    EXPECT_EQ(lattice::neighborOf(g, 0, 0, -1), lattice::kNoSite);
    EXPECT_EQ(lattice::neighborOf(g, 3, 0, 1), lattice::kNoSite);
    EXPECT_EQ(lattice::neighborOf(g, 1, 0, 1), 2);
}

// Lattice Microbes' rule in integers: -1 below Q, +1 in [2^31, 2^31 + Q).
TEST(LatticeLayout, MoveRuleThresholds) {
    const std::uint32_t q = 1000;
    EXPECT_EQ(lattice::moveOf(0, q, q), -1);
    EXPECT_EQ(lattice::moveOf(999, q, q), -1);
    EXPECT_EQ(lattice::moveOf(1000, q, q), 0);
    EXPECT_EQ(lattice::moveOf(0x7FFFFFFFu, q, q), 0);
    EXPECT_EQ(lattice::moveOf(0x80000000u, q, q), 1);
    EXPECT_EQ(lattice::moveOf(0x80000000u + 999, q, q), 1);
    EXPECT_EQ(lattice::moveOf(0x80000000u + 1000, q, q), 0);
    EXPECT_EQ(lattice::moveOf(0xFFFFFFFFu, 0x80000000u, 0x80000000u), 1);  // q = 0.5: never stays
    EXPECT_EQ(lattice::moveOf(0x7FFFFFFFu, 0x80000000u, 0x80000000u), -1);
    // Each direction has its own threshold (a blocked side is Q = 0).
    EXPECT_EQ(lattice::moveOf(5, 0, q), 0);
    EXPECT_EQ(lattice::moveOf(0x80000000u + 5, q, 0), 0);
    EXPECT_EQ(lattice::moveOf(0x80000000u + 5, 0, q), 1);
}

TEST(LatticeLayout, QAboveHalfNamesTheSpeciesAndQ) {
    ParamSet ps(lattice::parameterTable());
    ps.setFromAssignment("lattice.lambda=2");
    ps.setFromAssignment("lattice.tau=10");
    ps.setFromAssignment("species.d2=300");  // q = 300 * 0.01 / 4 = 0.75
    try {
        lattice::checkedParams(ps);
        FAIL() << "q = 0.75 accepted";
    } catch (const ParameterError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("species.d2"), std::string::npos) << m;
        EXPECT_NE(m.find("q = D tau / lambda^2 = 0.75"), std::string::npos) << m;
    }
    ps.setFromAssignment("species.d2=200");  // q = 0.5 exactly is allowed
    EXPECT_NO_THROW(lattice::checkedParams(ps));
}

TEST(LatticeLayout, TooManySpeciesForTheLayout) {
    ParamSet ps(lattice::parameterTable());
    ps.setFromAssignment("lattice.layout=packed32");
    ps.setFromAssignment("lattice.n_max=8");
    ps.setFromAssignment("species.count=8");
    try {
        lattice::checkedParams(ps);
        FAIL() << "8 species accepted in 3-bit fields";
    } catch (const ParameterError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("species.count = 8"), std::string::npos) << m;
        EXPECT_NE(m.find("species 1..7"), std::string::npos) << m;
    }
    ps.setFromAssignment("species.count=7");
    EXPECT_NO_THROW(lattice::checkedParams(ps));
    ps.setFromAssignment("lattice.n_max=3");
    EXPECT_THROW(lattice::checkedParams(ps), ParameterError);
}

}  // namespace
}  // namespace cf
