// SPDX-License-Identifier: GPL-3.0-or-later
// Crowded diffusion on the lattice at reduced size, on every backend (Roberts et al. 2009,
// Fig. 4 and 5; the full-size runs are tools/docs/lattice_crowding.sh, docs/LATTICE.md):
// hard-sphere obstacles lower D(t) = MSD / (6 t) below D0, more at 30 % than at 10 % of the
// volume, and larger obstacles cross over later; the in-vivo crowders lower the long-time D
// by the quarter the script measures.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/models/lattice/lattice_model.hpp"
#include "tests/sim/models/lattice_test_support.hpp"

namespace cf {
namespace {

using LatticeCrowdingTest = test::LatticeFixture;
using test::metric;

constexpr double kD0 = 100.0;  // nm^2/us; lambda = 2 nm, tau = 10 ns: q = 0.25

// D(t)/D0 at steps 1, 2, 4, ... `steps` (a power of two), and the long-time value from the
// MSD's slope over the second half, (MSD(T) - MSD(T/2)) / (6 D0 T/2): MSD / (6 t) reaches
// the plateau only as 1/t, the slope does not carry the early excess.
struct Curve {
    std::vector<double> t, d;  // us, D(t)/D0
    double longTime = 0;
    double crossover = 0;  // us: where D(t)/D0 falls halfway from d[0] to longTime
};

Curve measure(Model& m, std::uint64_t steps) {
    Curve c;
    std::uint64_t done = 0;
    double msdHalf = 0, tHalf = 0;
    for (std::uint64_t s = 1; s <= steps; s *= 2) {
        m.advance(s - done);
        done = s;
        const double msd = metric(m, "msd_tracer");
        c.t.push_back(m.time());
        c.d.push_back(msd / (6.0 * kD0 * m.time()));
        if (2 * s == steps) msdHalf = msd, tHalf = m.time();
    }
    const double msdEnd = c.d.back() * 6.0 * kD0 * c.t.back();
    c.longTime = (msdEnd - msdHalf) / (6.0 * kD0 * (c.t.back() - tHalf));
    const double mid = 0.5 * (c.d.front() + c.longTime);
    for (std::size_t k = 1; k < c.d.size(); ++k)
        if (c.d[k] < mid) {  // log-linear between the samples around the midpoint
            const double f = (c.d[k - 1] - mid) / (c.d[k - 1] - c.d[k]);
            c.crossover = c.t[k - 1] * std::pow(c.t[k] / c.t[k - 1], f);
            break;
        }
    return c;
}

void print(const char* what, const Curve& c) {
    std::printf("%s: D(t)/D0 =", what);
    for (double x : c.d)
        std::printf(" %.3f", x);
    std::printf("; long-time %.3f, crossover %.3f us\n", c.longTime, c.crossover);
}

// Spheres of radius 1 and 3 sites (2 and 6 nm at lambda = 2 nm) at 10 and 30 % of a
// periodic 32^3 lattice, 8000 tracers, 256 steps (2.56 us). tools/docs/lattice_crowding.sh
// measures long-time D/D0 of 0.91-0.93 at 10 % and 0.64 (1 site) to 0.73 (2 sites) at 30 %.
// Noise: the MSD of 8000 tracers has a relative error of sqrt(2 / (3 N)) = 0.9 %, the slope
// over the second half about as much, and the 32^3 box's obstacle configuration adds ~1 %
// (the script's spread over radii, sd 0.008-0.016): the margins (0.03 under D(1 step), 0.10
// between the fractions, whose plateaus differ by ~0.25) are each more than 4 of those away
// from the expectation, and fail if obstacles stop obstructing or density stops mattering.
// Crossover: at 30 % the script finds 0.8 r^2/D0 for 1-site and 0.4-0.5 r^2/D0 for resolved
// obstacles, so 3 sites should cross over ~5 times later than 1 (measured here: 3.4x, at 4
// and 12 steps); asking for 2x leaves room for the midpoint's placement between samples a
// factor 2 apart. At 10 % the drop (~0.05) is too small to place the midpoint well.
TEST_P(LatticeCrowdingTest, SpheresLowerDMoreWhenDenserAndCrossOverLaterWhenLarger) {
    const auto t0 = std::chrono::steady_clock::now();
    const double radii[2] = {2.0, 6.0};  // nm: 1 and 3 sites
    const double fractions[2] = {0.1, 0.3};
    Curve c[2][2];
    for (int r = 0; r < 2; ++r)
        for (int f = 0; f < 2; ++f) {
            set({"lattice.nx=32", "lattice.ny=32", "lattice.nz=32", "lattice.lambda=2",
                 "lattice.tau=10", "lattice.layout=byte16", "species.count=1",
                 "species.names=tracer", "species.d1=100", "species.n1=8000",
                 "tracking.per_species=8000", "obstacles.shape=spheres",
                 "lattice.obstacle_fraction=" + std::to_string(fractions[f]),
                 "obstacles.radius=" + std::to_string(radii[r])});
            auto m = make(31 + 2 * r + f);
            c[r][f] = measure(*m, 256);
            EXPECT_EQ(metric(*m, "overflows_total"), 0.0);
            char what[96];
            std::snprintf(what, sizeof what, "%s, r = %g nm, %g %%", toString(GetParam()).data(),
                          radii[r], 100 * fractions[f]);
            print(what, c[r][f]);
            // Obstacles slow the walk: below D0 from the first step, lower still later.
            EXPECT_LT(c[r][f].d.front(), 0.99) << what;
            EXPECT_LT(c[r][f].longTime, c[r][f].d.front() - 0.03) << what;
            EXPECT_LT(c[r][f].d.back(), c[r][f].d.front()) << what;
        }
    for (int r = 0; r < 2; ++r)
        EXPECT_LT(c[r][1].longTime, c[r][0].longTime - 0.10) << "radius " << radii[r];
    EXPECT_GT(c[1][1].crossover, 2.0 * c[0][1].crossover);
    std::printf("%.1f s\n",
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

// The in-vivo crowders (obstacles.shape = invivo, 30 % of the volume) at lambda = 2 nm on a
// periodic 40^3 lattice (80 nm), 8000 tracers, 512 steps (5.1 us; crossover ~0.1 us).
// tools/docs/lattice_crowding.sh measures, at this size, a long-time D/D0 of 0.761 +- 0.003
// (4 replicates, sd 0.006): a 24 % reduction against the paper's "about 20 %". Tolerance
// +-0.04 on D/D0, over 6 replicate standard deviations, so a seed does not decide; a change
// of the obstacles' sizes, shares or mapping that moves the reduction by a sixth fails.
TEST_P(LatticeCrowdingTest, InvivoCrowdersLowerTheLongTimeDByAQuarter) {
    set({"lattice.nx=40", "lattice.ny=40", "lattice.nz=40", "lattice.lambda=2", "lattice.tau=10",
         "lattice.layout=byte16", "species.count=1", "species.names=tracer", "species.d1=100",
         "species.n1=8000", "tracking.per_species=8000", "obstacles.shape=invivo",
         "lattice.obstacle_fraction=0.3"});
    auto m = make(77);
    const Curve c = measure(*m, 512);
    print((std::string(toString(GetParam())) + ", in vivo 30 %").c_str(), c);
    EXPECT_NEAR(c.longTime, 0.761, 0.04);
    EXPECT_LT(c.longTime, c.d.front());
}

INSTANTIATE_TEST_SUITE_P(AllBackends, LatticeCrowdingTest, testing::ValuesIn(test::builtBackends()),
                         test::backendName);

}  // namespace
}  // namespace cf
