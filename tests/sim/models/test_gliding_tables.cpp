// SPDX-License-Identifier: GPL-3.0-or-later
// `gliding` host tables and parameter checks (docs/design/gliding.md 6.2 T1 and T11).
// Oracles: the design note's section 0 table (enumerated independently there: integers
// exact, ratios given to 4 digits), the spec's derived numbers (design M2, M17),
// Peskin's kernel identities, and the exact quarter-turn symmetry of design 2.1 (bitwise).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/models/gliding/gliding_params.hpp"
#include "sim/models/gliding/gliding_tables.hpp"

namespace cf {
namespace {

using gliding::GlidingParams;
using gliding::GlidingTables;

GlidingParams paramsWith(std::initializer_list<const char*> assignments) {
    ParamSet set(gliding::parameterTable());
    for (const char* a : assignments)
        set.setFromAssignment(a);
    return gliding::checkedParams(set);
}

// The ParameterError's message, or "" when nothing was thrown.
template <typename F>
std::string parameterErrorOf(F&& f) {
    try {
        f();
    } catch (const ParameterError& e) {
        return e.what();
    }
    return {};
}

TEST(GlidingParams, EveryParameterHasUnitDescriptionAndAUniqueKey) {
    const ParamTable& t = gliding::parameterTable();
    std::vector<std::string> keys;
    for (const ParamSpec& s : t.specs()) {
        EXPECT_FALSE(s.unit.empty()) << s.key();
        EXPECT_FALSE(s.description.empty()) << s.key();
        for (const std::string& k : keys)
            EXPECT_NE(k, s.key());
        keys.push_back(s.key());
    }
    // design section 4: 43 rows, two of which hold two parameters, output.profile_y, and the
    // six CUDA motor kernel switches and the motors' placement (docs/GLIDING.md "Kernel
    // switches")
    EXPECT_EQ(keys.size(), 53u);
}

// Derived quantities at the defaults (design M2). A few double operations each: 1e-15
// relative is a few ulp.
TEST(GlidingParams, DerivedValuesAtTheDefaults) {
    const GlidingParams p = paramsWith({});
    EXPECT_EQ(p.n, 128);
    EXPECT_EQ(p.ninner, 32);
    EXPECT_DOUBLE_EQ(p.dx, 1.0 / 128);
    EXPECT_NEAR(p.dtheta, 2 * std::numbers::pi / 32, 1e-15);
    EXPECT_DOUBLE_EQ(p.lambdaCells, 4.0);
    EXPECT_DOUBLE_EQ(p.rcCells, 1.0);
    // design M2: kon~ = Kon / (pi rc^2) = 4 * 128^2 / pi = 20861 (to the spec's 5 digits).
    std::printf("kon~ = %.6f (4*128^2/pi = %.6f)\n", p.konTilde,
                4.0 * 128 * 128 / std::numbers::pi);
    EXPECT_NEAR(p.konTilde / (4.0 * 128 * 128 / std::numbers::pi), 1.0, 1e-15);
    EXPECT_NEAR(p.konTilde, 20861.0, 0.5);
    // design M2: Ut = lambda^2 Ur / 12 = 3.2552e-5.
    EXPECT_NEAR(p.ut, 3.2552083333e-5, 1e-15);
    // design M4: hA = z0/8, h_delta = 2 hA; C8: region A = [0, min(4 z0, 1)].
    EXPECT_NEAR(p.hA, 6.25e-5, 1e-19);
    EXPECT_NEAR(p.hDelta, 1.25e-4, 1e-19);
    EXPECT_NEAR(p.zA, 2e-3, 1e-18);
    EXPECT_NEAR(p.neighbourRadius, 1.0 / 64 + 1.0 / 128 + 1.0 / (128 * std::numbers::sqrt2), 1e-17);
    // C8: region A is clamped to the gap for the z0 = 0.5 oracle row (design M17).
    EXPECT_DOUBLE_EQ(paramsWith({"fluid.z0=0.5"}).zA, 1.0);
}

TEST(GlidingParams, ChecksNameTheParameter) {
    std::string m = parameterErrorOf([] { paramsWith({"grid.ninner=30"}); });
    std::printf("ninner: %s\n", m.c_str());
    EXPECT_NE(m.find("grid.ninner = 30"), std::string::npos) << m;
    EXPECT_NE(m.find("multiple of 4"), std::string::npos) << m;
    EXPECT_EQ(parameterErrorOf([] { paramsWith({"grid.ninner=16"}); }), "");

    // The CUDA motor kernel switches: a block of a power of two from 32, at most 512 with launch
    // bounds (the bounded kernel is built for 512).
    m = parameterErrorOf([] { paramsWith({"motors.block_threads=100"}); });
    EXPECT_NE(m.find("motors.block_threads = 100 must be 0 (automatic) or a power of two"),
              std::string::npos)
        << m;
    m = parameterErrorOf([] { paramsWith({"motors.block_threads=16"}); });
    EXPECT_NE(m.find("motors.block_threads = 16"), std::string::npos) << m;
    m = parameterErrorOf([] {
        paramsWith({"motors.block_threads=1024", "motors.launch_bounds=true"});
    });
    EXPECT_NE(m.find("needs motors.launch_bounds = false"), std::string::npos) << m;
    EXPECT_EQ(parameterErrorOf([] { paramsWith({"motors.block_threads=1024"}); }), "");
    EXPECT_EQ(parameterErrorOf([] { paramsWith({"motors.block_threads=32"}); }), "");

    // Delta band wider than z0 (would reach the wall): h_fine = z0 gives h_delta = 2 z0.
    m = parameterErrorOf([] { paramsWith({"fluid.z0=1e-4", "fluid.h_fine=1e-4"}); });
    std::printf("delta: %s\n", m.c_str());
    EXPECT_NE(m.find("fluid.z0 = 1e-04"), std::string::npos) << m;
    EXPECT_NE(m.find("inside the gap"), std::string::npos) << m;
    // Delta band through the top plate: z0 + h_delta = 0.9 + 0.12 >= 1.
    m = parameterErrorOf([] { paramsWith({"fluid.z0=0.9", "fluid.h_fine=0.06"}); });
    EXPECT_NE(m.find("inside the gap"), std::string::npos) << m;
    // h_fine larger than the fine region [0, 4 z0].
    m = parameterErrorOf([] { paramsWith({"fluid.z0=1e-5", "fluid.h_fine=1e-3"}); });
    EXPECT_NE(m.find("fluid.h_fine = 0.001 exceeds the fine region"), std::string::npos) << m;
    // Courant numbers in (0, 0.5].
    m = parameterErrorOf([] { paramsWith({"motors.cin=0"}); });
    EXPECT_NE(m.find("motors.cin = 0 must lie in (0, 0.5]"), std::string::npos) << m;
    m = parameterErrorOf([] { paramsWith({"time.cout=0"}); });
    EXPECT_NE(m.find("time.cout = 0 must lie in (0, 0.5]"), std::string::npos) << m;
}

// design M5: Dt must exceed Ut max c; at the defaults Dt/Ut = 6.144, "holds for c < 6".
TEST(GlidingParams, AntiDiffusionCheck) {
    GlidingParams p = paramsWith({});
    EXPECT_NO_THROW(gliding::checkWellPosed(p, 6.0));
    EXPECT_THROW(gliding::checkWellPosed(p, 6.2), ParameterError);
    p.diffT = 2e-5;
    const std::string m = parameterErrorOf([&] { gliding::checkWellPosed(p, 1.9); });
    std::printf("anti-diffusion: %s\n", m.c_str());
    // The design note's message (section 4, check 1), with ASCII x for the product.
    EXPECT_EQ(m.rfind("gliding: filaments.Dt = 2e-05 must exceed filaments.Ut x max c = 3.3e-05 "
                      "x 1.9 = 6.2e-05: the Maier-Saupe translational term is anti-diffusive",
                      0),
              0u)
        << m;
    // The "strain" reading has no translational steric flux.
    p.stericReading = static_cast<std::int32_t>(gliding::StericReading::Strain);
    EXPECT_NO_THROW(gliding::checkWellPosed(p, 1.9));
}

struct GridCase {
    int n, ninner;
    int neighbours, chords, slice, maxChord;
    double areaRatio;
    double boundFraction;  // < 0: not given by the design note
};

// Design note section 0 (and 6.2 T1, T6): lambda = 1/32, rc = lambda/4.
const GridCase kGrids[] = {
    {64, 16, 13, 32, 192, 8, 0.9549, 0.3729}, {64, 32, 13, 96, 848, 16, 1.0544, -1},
    {128, 16, 45, 160, 800, 8, 0.9947, -1},   {128, 32, 45, 368, 3264, 16, 1.0146, 0.3588},
    {256, 16, 137, 688, 3264, 8, 1.0146, -1}, {256, 32, 137, 1408, 12928, 16, 1.0047, 0.3612},
};

GlidingParams gridParams(int n, int ninner) {
    const std::string a = "grid.n=" + std::to_string(n);
    const std::string b = "grid.ninner=" + std::to_string(ninner);
    return paramsWith({a.c_str(), b.c_str()});
}

TEST(GlidingTables, CaptureSetsOfTheSixGrids) {
    for (const GridCase& g : kGrids) {
        const GlidingParams p = gridParams(g.n, g.ninner);
        const GlidingTables t = gliding::buildTables(p);
        const double frac = g.boundFraction > 0 ? gliding::steadyBoundFraction(p, t) : -1;
        std::printf(
            "%d^2x%d^2: |N| = %d, chords = %zu, S = %d, max L = %d, A_disc/(pi rc^2) = "
            "%.6f, bound fraction = %.6f\n",
            g.n, g.ninner, t.neighbours(), t.chords.size(), t.sliceSize, t.maxChord,
            t.discAreaRatio, frac);
        // Integers: exact.
        EXPECT_EQ(t.neighbours(), g.neighbours);
        EXPECT_EQ(static_cast<int>(t.chords.size()), g.chords);
        EXPECT_EQ(t.sliceSize, g.slice);
        EXPECT_EQ(t.maxChord, g.maxChord);
        // Given to 4 decimals: half a unit of the last digit.
        EXPECT_NEAR(t.discAreaRatio, g.areaRatio, 5e-5);
        if (g.boundFraction > 0) {
            EXPECT_NEAR(frac, g.boundFraction, 5e-5);
        }

        // Chords against the mask, independently: every (o, j) masked set is exactly its
        // chord's interval (contiguity, design M3), offsets are the prefix sums, and the gather
        // lists visit every packed slot exactly once.
        std::vector<int> seen(t.sliceSize, 0);
        std::size_t c = 0;
        int off = 0, masked = 0;
        for (int o = 0; o < t.neighbours(); ++o)
            for (int j = 0; j < t.ntheta; ++j) {
                int ka = -1, len = 0;
                for (int k = 0; k < t.ns; ++k)
                    if (t.chi(o, j, k)) {
                        if (ka < 0) ka = k;
                        ++len;
                        ++masked;
                    }
                if (len == 0) continue;
                ASSERT_LT(c, t.chords.size());
                const gliding::Chord& ch = t.chords[c++];
                EXPECT_EQ(ch.ox, t.offX[o]);
                EXPECT_EQ(ch.oy, t.offY[o]);
                EXPECT_EQ(ch.j, j);
                EXPECT_EQ(ch.ka, ka);
                EXPECT_EQ(ch.len, len);
                EXPECT_EQ(ch.off, off);
                for (int k = ka; k < ka + len; ++k)
                    EXPECT_TRUE(t.chi(o, j, k));
                off += len;
            }
        EXPECT_EQ(c, t.chords.size());
        EXPECT_EQ(masked, t.sliceSize);
        ASSERT_EQ(t.gather.size(), static_cast<std::size_t>(t.sliceSize));
        for (const gliding::GatherEntry& e : t.gather)
            ++seen[e.slot];
        for (int v : seen)
            EXPECT_EQ(v, 1);
    }
}

// Design 2.1 / C6: (ox, oy, j) -> (-oy, ox, j + ntheta/4) maps the mask, the chords and the
// Peskin stencils onto themselves bit for bit.
TEST(GlidingTables, QuarterTurnIsExact) {
    for (int ninner : {16, 32}) {
        const GlidingTables t = gliding::buildTables(gridParams(64, ninner));
        const int q = t.ntheta / 4;
        for (int j = 0; j < t.ntheta; ++j) {
            // libm's values up to rounding; the rotation itself is exact.
            const double th = (j + 0.5) * t.dtheta;
            EXPECT_NEAR(t.cosT[j], std::cos(th), 1e-15);
            EXPECT_NEAR(t.sinT[j], std::sin(th), 1e-15);
            const int jr = (j + q) % t.ntheta;
            EXPECT_EQ(t.cosT[jr], -t.sinT[j]);
            EXPECT_EQ(t.sinT[jr], t.cosT[j]);
            // faces at (j + 1) dtheta
            const double tf = (j + 1) * t.dtheta;
            EXPECT_NEAR(t.faceCos[j], std::cos(tf), 1e-15);
            EXPECT_NEAR(t.faceSin[j], std::sin(tf), 1e-15);
            EXPECT_EQ(t.faceCos[jr], -t.faceSin[j]);
            EXPECT_EQ(t.faceSin[jr], t.faceCos[j]);
        }
        // axis faces exactly: theta = pi/2 (face q-1) and 2 pi (face ntheta-1)
        EXPECT_EQ(t.faceCos[q - 1], 0.0);
        EXPECT_EQ(t.faceSin[q - 1], 1.0);
        EXPECT_EQ(t.faceCos[t.ntheta - 1], 1.0);
        EXPECT_EQ(t.faceSin[t.ntheta - 1], 0.0);
        auto find = [&](int ox, int oy) {
            for (int o = 0; o < t.neighbours(); ++o)
                if (t.offX[o] == ox && t.offY[o] == oy) return o;
            return -1;
        };
        for (int o = 0; o < t.neighbours(); ++o) {
            const int orot = find(-t.offY[o], t.offX[o]);
            ASSERT_GE(orot, 0);
            for (int j = 0; j < t.ntheta; ++j)
                for (int k = 0; k < t.ns; ++k)
                    EXPECT_EQ(t.chi(o, j, k), t.chi(orot, (j + q) % t.ntheta, k));
        }
        for (int j = 0; j < t.ntheta; ++j)
            for (int k = 0; k < t.ns; ++k) {
                const gliding::PeskinStencil& a = t.peskin[j * t.ns + k];
                const gliding::PeskinStencil& b = t.peskin[((j + q) % t.ntheta) * t.ns + k];
                // head offset (dx, dy) -> (-dy, dx): the x stencil is the mirrored y stencil.
                EXPECT_EQ(b.m0[0], -a.m0[1] - 3);
                EXPECT_EQ(b.m0[1], a.m0[0]);
                for (int i = 0; i < 4; ++i) {
                    EXPECT_EQ(b.w[0][i], a.w[1][3 - i]);
                    EXPECT_EQ(b.w[1][i], a.w[0][i]);
                }
            }
    }
}

// Peskin's 4-point kernel: partition of unity, zero first moment and sum of squares 3/8 for
// every shift (Peskin 2002, Acta Numerica 11, section 6). 1e-14: four terms of O(1) with a
// square root each.
TEST(GlidingTables, PeskinIdentities) {
    std::mt19937_64 rng(12345);
    std::uniform_real_distribution<double> u(-3.0, 3.0);
    for (int i = 0; i < 1000; ++i) {
        const double r = u(rng);
        const int m0 = static_cast<int>(std::floor(r)) - 1;
        double s0 = 0, s1 = 0, s2 = 0;
        for (int m = m0; m < m0 + 4; ++m) {
            const double w = gliding::peskin4(r - m);
            s0 += w;
            s1 += (r - m) * w;
            s2 += w * w;
        }
        EXPECT_NEAR(s0, 1.0, 1e-14) << r;
        EXPECT_NEAR(s1, 0.0, 1e-14) << r;
        EXPECT_NEAR(s2, 3.0 / 8.0, 1e-14) << r;
        // Outside the four nodes the kernel vanishes.
        EXPECT_EQ(gliding::peskin4(r - (m0 - 1)), 0.0);
        EXPECT_EQ(gliding::peskin4(r - (m0 + 4)), 0.0);
    }
    // The stencils in the table are the kernel at the head offsets.
    const GlidingTables t = gliding::buildTables(gridParams(128, 32));
    for (const gliding::PeskinStencil& st : t.peskin)
        for (int a = 0; a < 2; ++a) {
            double s = 0;
            for (double w : st.w[a])
                s += w;
            EXPECT_NEAR(s, 1.0, 1e-14);
        }
}

// design M17 / design T3: D_r^(1) = D_r (4/dtheta^2) sin^2(dtheta/2) = 0.01993583 (Ntheta = 32) and
// 0.01974430 (16), given to 7 significant digits: 5e-9 absolute.
TEST(GlidingTables, FiniteDifferenceSymbols) {
    const double dr = 0.02;
    const GlidingTables t32 = gliding::buildTables(gridParams(64, 32));
    const GlidingTables t16 = gliding::buildTables(gridParams(64, 16));
    std::printf("Dr^(1): %.10f (32), %.10f (16)\n", dr * t32.sigmaTheta[1], dr * t16.sigmaTheta[1]);
    EXPECT_NEAR(dr * t32.sigmaTheta[1], 0.01993583, 5e-9);
    EXPECT_NEAR(dr * t16.sigmaTheta[1], 0.01974430, 5e-9);
    EXPECT_EQ(t32.sigmaTheta[0], 0.0);
    EXPECT_EQ(t32.sigmaX[0], 0.0);
    // Nyquist: 4/dx^2 exactly (sin(pi/2) = 1).
    EXPECT_DOUBLE_EQ(t32.sigmaX[32], 4.0 * 64 * 64);
    // Symmetric in k <-> N - k (periodic), to rounding of sin.
    for (int k = 1; k < 64; ++k)
        EXPECT_NEAR(t32.sigmaX[k], t32.sigmaX[64 - k], 1e-9);
}

// Design section 4, check 3: the mask checks name the parameters.
TEST(GlidingTables, MaskChecks) {
    std::string m = parameterErrorOf([] { gliding::buildTables(paramsWith({"motors.rc=1e-4"})); });
    std::printf("empty mask: %s\n", m.c_str());
    EXPECT_NE(m.find("motors.rc = 0.0001 is too small for grid.n = 128"), std::string::npos) << m;
    // rc = 0.3 lambda at ninner = 64: the central chord spans 0.6 * 64 = 38 cells of s.
    m = parameterErrorOf([] {
        gliding::buildTables(paramsWith({"grid.ninner=64", "motors.rc=0.009375"}));
    });
    std::printf("long chord: %s\n", m.c_str());
    EXPECT_NE(m.find("a capture chord spans 38 cells of s (> 32)"), std::string::npos) << m;

    // Capture-area note and kon_area = discrete (design 2.5): 64^2x16^2 captures 95.49 %.
    GlidingParams p = paramsWith({"grid.n=64", "grid.ninner=16", "motors.kon_area=discrete"});
    const GlidingTables t = gliding::buildTables(p);
    EXPECT_EQ(gliding::applyTables(p, t), "");  // 0.9549 is inside [0.9, 1.1]
    EXPECT_NEAR(p.konTilde * t.discArea, 4.0, 1e-12);
    // A_disc = S dx^2 / (ntheta ns) with S = 192: kon~ = 4 * 64^2 * 256 / 192 = 21845.33.
    EXPECT_DOUBLE_EQ(p.konTilde, 4.0 * 64 * 64 * 256 / 192);
    // rc = 0.8 dx at 64^2x16^2: the grid captures 83.93 % of the disk (enumerated, design
    // section 0 method), so the note is given.
    GlidingParams q = paramsWith({"grid.n=64", "grid.ninner=16", "motors.rc=0.0125"});
    const GlidingTables tq = gliding::buildTables(q);
    const std::string note = gliding::applyTables(q, tq);
    std::printf("rc = 0.8 dx at 64^2x16^2: ratio %.4f, note: %s\n", tq.discAreaRatio, note.c_str());
    EXPECT_NEAR(tq.discAreaRatio, 0.8393, 5e-5);
    EXPECT_EQ(note.rfind("capture area on the grid is 84 % of pi rc^2 (rc = 0.8 dx); binding rates "
                         "use the continuous area unless motors.kon_area = discrete",
                         0),
              0u)
        << note;
}

}  // namespace
}  // namespace cf
