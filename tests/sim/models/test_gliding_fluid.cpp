// SPDX-License-Identifier: GPL-3.0-or-later
// `gliding` thin-gap Stokes solve on the CPU (docs/design/gliding.md 2.8, 6.2 T2 and T4): the
// z-grid and smoothed delta, the banded LU, the transfer functions against the exact k = 0
// value and the sharp-delta table of design M17, the kappa -> 0 limits, the fast path against
// per-mode banded solves, the uniform-force profile (design M17) and the whole FFT path on single
// modes. Stresses, rest, the quarter turn and the lag are in test_gliding_fluid_stress.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/models/gliding/cpu/fluid_cpu.hpp"
#include "sim/models/gliding/gliding_params.hpp"
#include "sim/models/gliding/gliding_state.hpp"
#include "sim/models/gliding/gliding_tables.hpp"
#include "sim/models/gliding/gliding_zgrid.hpp"
#include "tests/sim/models/gliding_test_support.hpp"

namespace cf {
namespace {

using gliding::test::maxAbs;
using gliding::test::params;
using gliding::test::randomField;

using gliding::FlowField;
using gliding::FluidCpu;
using gliding::GlidingParams;
using gliding::GlidingTables;
using gliding::HostState;
using gliding::ZGrid;
using cplx = std::complex<double>;
constexpr double kTau = 2 * std::numbers::pi;

// T2: the default grid is 32 cells of z0/8 up to 4 z0, then 56 growing cells (design M4,
// Nz = 88); the delta covers z0 - hA, z0, z0 + hA with weights 1/4, 1/2, 1/4 (design 0) and
// sums to 1. 1e-15: a few roundings of hA-sized numbers.
TEST(GlidingFluid, DefaultZGrid) {
    const GlidingParams p = params({});
    const ZGrid g = gliding::buildZGrid(p);
    std::printf("z-grid: %d cells (%d in region A), last cell %.6g, delta nodes %d..%d\n",
                g.cells(), g.cellsA, g.h.back(), g.first, g.last);
    EXPECT_EQ(g.cells(), 88);
    EXPECT_EQ(g.cellsA, 32);
    EXPECT_EQ(g.z.front(), 0.0);
    EXPECT_EQ(g.z.back(), 1.0);
    EXPECT_EQ(g.z[8], p.z0);  // z0 = 8 hA is a node exactly
    for (int j = 0; j < 32; ++j)
        EXPECT_NEAR(g.h[j], p.z0 / 8, 1e-15);
    for (int j = 33; j < 87; ++j)  // geometric region B, all but the rescaled last cell
        EXPECT_NEAR(g.h[j] / g.h[j - 1], 1.15, 1e-12);
    EXPECT_GT(g.h[87], 0.5 * g.h[86]);
    EXPECT_EQ(g.first, 7);
    EXPECT_EQ(g.last, 9);
    EXPECT_NEAR(g.weight[7], 0.25, 1e-15);
    EXPECT_NEAR(g.weight[8], 0.5, 1e-15);
    EXPECT_NEAR(g.weight[9], 0.25, 1e-15);
    double sum = 0;
    for (std::size_t j = 0; j < g.delta.size(); ++j)
        sum += g.delta[j] * g.dual[j];
    EXPECT_NEAR(sum, 1.0, 1e-15);
    // C8: for z0 >= 1/4 region A is the whole gap.
    const ZGrid h = gliding::buildZGrid(0.5, 0.5 / 8, 1.0, 1.15, 0.5 / 4);
    EXPECT_EQ(h.cells(), 16);
    EXPECT_EQ(h.z.back(), 1.0);
}

// The banded LU with partial pivoting on a random banded matrix whose diagonal is zero in every
// third row, as the saddle-point rows of the z problem are (so elimination without row swaps
// meets a zero pivot at row 2): the residual |Ax - b| and the size of x. 1e-12: condition
// ~1e2, n = 40.
TEST(GlidingFluid, BandedLuSolvesWithPivoting) {
    const int n = 40, kl = 3, ku = 3;
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> d(-1.0, 1.0);
    std::vector<double> dense(n * n, 0.0);
    gliding::BandedLU lu(n, kl, ku);
    for (int i = 0; i < n; ++i)
        for (int j = std::max(0, i - kl); j <= std::min(n - 1, i + ku); ++j) {
            const double v = (i == j && i % 3 == 2) ? 0.0 : d(rng) + (i == j ? 2.0 : 0.0);
            dense[i * n + j] = v;
            lu.at(i, j) = v;
        }
    const std::vector<double> b = randomField(n, rng);
    std::vector<double> x = b;
    lu.factor();
    lu.solve(x.data());
    double res = 0;
    for (int i = 0; i < n; ++i) {
        double r = -b[i];
        for (int j = 0; j < n; ++j)
            r += dense[i * n + j] * x[j];
        res = std::max(res, std::fabs(r));
    }
    std::printf("banded LU: residual %.3g, max |x| %.3g\n", res, maxAbs(x));
    EXPECT_LT(res, 1e-12);
    EXPECT_GT(maxAbs(x), 0.1);
    // A singular matrix (a zero column) is reported, not divided by.
    gliding::BandedLU bad(3, 1, 1);
    bad.at(0, 1) = 1;
    bad.at(1, 2) = 1;
    bad.at(2, 1) = 1;
    EXPECT_THROW(bad.factor(), SimulationError);
}

// T4(a): T(0) = eps^2 (z0 (1 - z0) - 0.375 hA) = 4.763125e-6 at the defaults (design 0): the
// closed form, the double sum and the banded k = 0 solve of the table. 1e-12 relative: the
// solve is a 90-node elimination (~1e-15 relative per operation).
TEST(GlidingFluid, TransferAtZeroIsExactDiscreteValue) {
    const GlidingParams p = params({"grid.n=16", "grid.ninner=16"});
    const GlidingTables t = gliding::buildTables(p);
    const FluidCpu fluid(p, t);
    const double closed = p.eps * p.eps * (p.z0 * (1 - p.z0) - 0.375 * p.hA);
    const double sum = gliding::transferAtZero(fluid.zgrid(), p.eps);
    std::printf(
        "T(0): closed %.12e, double sum %.12e, table par %.12e perp %.12e "
        "(sharp delta %.6e, %.3f %%)\n",
        closed, sum, fluid.transfer().par[0], fluid.transfer().perp[0],
        p.eps * p.eps * p.z0 * (1 - p.z0),
        100 * (closed / (p.eps * p.eps * p.z0 * (1 - p.z0)) - 1));
    EXPECT_NEAR(closed, 4.763125e-6, 1e-12 * 4.763125e-6);
    EXPECT_NEAR(sum / closed, 1.0, 1e-12);
    EXPECT_NEAR(fluid.transfer().par[0] / closed, 1.0, 1e-12);
    EXPECT_NEAR(fluid.transfer().perp[0] / closed, 1.0, 1e-12);
}

// The sharp-delta table design M17 (kappa, z0, G_par, G_perp).
struct GRow {
    double kappa, z0, gpar, gperp;
};
constexpr GRow kGTable[] = {{0.001, 0.0005, 4.990007497e-4, 4.997499999e-4},
                            {1, 0.0005, 4.989337276e-4, 4.996718245e-4},
                            {40, 0.0005, 4.804594179e-4, 4.901320106e-4},
                            {0.001, 0.1, 0.06569999857, 0.0899999973},
                            {1, 0.1, 0.0642738817, 0.08749382217},
                            {10, 0.1, 0.02161654272, 0.04323323527},
                            {40, 0.1, 0.006197583964, 0.01249580672},
                            {0.1, 0.5, 0.06248958482, 0.2497918748},
                            {1, 0.5, 0.06147308977, 0.2310585786},
                            {10, 0.5, 0.02490684566, 0.04999546021},
                            {40, 0.5, 0.00625, 0.0125}};

gliding::Transfer transferOnRefinedGrid(double kappa, double z0, double hA, double eps) {
    const ZGrid g = gliding::buildZGrid(z0, hA, std::min(4 * z0, 1.0), 1.15, 2 * hA);
    return gliding::transfer(g, eps, kappa / eps);
}

// T4(b). The smoothed delta lowers T at first order in hA: by 0.375 hA eps^2 at small kappa
// (design 0; relative 0.375 hA / G) and, at large kappa where the response is local, by about
// 1 - E[exp(-kappa hA |i - j|)] ~ 0.75 kappa hA (weights 1/4, 1/2, 1/4). With the spec's
// hA = z0/200 that is 0.19-0.4 % for half the rows but 1.5 % (G_par, kappa 0.1, z0 0.5) and
// 7-14 % at kappa = 40, z0 = 0.5, so "0.5 % for h_delta << z0" (design M17) cannot hold there in
// any z arrangement (the transverse problem has no pressure at all). Those deviations are printed,
// and checked to halve when hA halves (first order, i.e. the delta, not the arrangement:
// ratio 1.8-2.2). The table itself is asserted at 0.5 % with hA = min(z0/200, 0.001/kappa,
// 0.0025 G_par/0.375), which bounds both predicted smoothing errors by 0.25 %.
TEST(GlidingFluid, TransferMatchesSharpDeltaTable) {
    const double eps = 0.1;
    for (const GRow& r : kGTable) {
        const gliding::Transfer spec = transferOnRefinedGrid(r.kappa, r.z0, r.z0 / 200, eps);
        const gliding::Transfer half = transferOnRefinedGrid(r.kappa, r.z0, r.z0 / 400, eps);
        const double ePar = spec.par / (eps * eps * r.gpar) - 1,
                     ePerp = spec.perp / (eps * eps * r.gperp) - 1;
        const double hPar = half.par / (eps * eps * r.gpar) - 1,
                     hPerp = half.perp / (eps * eps * r.gperp) - 1;
        const double hA = std::min({r.z0 / 200, 0.001 / r.kappa, 0.0025 * r.gpar / 0.375});
        const gliding::Transfer fine = transferOnRefinedGrid(r.kappa, r.z0, hA, eps);
        const double fPar = fine.par / (eps * eps * r.gpar) - 1,
                     fPerp = fine.perp / (eps * eps * r.gperp) - 1;
        std::printf(
            "kappa %-5g z0 %-6g | hA=z0/200: par %+.3f %% perp %+.3f %% | hA/2 ratio "
            "%.2f %.2f | hA=%.2e: par %+.3f %% perp %+.3f %%\n",
            r.kappa, r.z0, 100 * ePar, 100 * ePerp, ePar / hPar, ePerp / hPerp, hA, 100 * fPar,
            100 * fPerp);
        EXPECT_LT(std::fabs(fPar), 5e-3) << "kappa " << r.kappa << " z0 " << r.z0;
        EXPECT_LT(std::fabs(fPerp), 5e-3) << "kappa " << r.kappa << " z0 " << r.z0;
        // The smoothing lowers T (both errors negative) at first order in hA. Where the
        // deviation is small the O(h^2) error of the coarse top cells (~5e-4 for G_par at
        // z0 = 0.1) blurs the ratio, so the ratio is checked only where |e| > 0.5 %.
        EXPECT_LT(ePar, 0.0);
        EXPECT_LT(ePerp, 0.0);
        if (std::fabs(ePar) > 5e-3) {
            EXPECT_GT(ePar / hPar, 1.8);
            EXPECT_LT(ePar / hPar, 2.2);
        }
        if (std::fabs(ePerp) > 5e-3) {
            EXPECT_GT(ePerp / hPerp, 1.8);
            EXPECT_LT(ePerp / hPerp, 2.2);
        }
    }
}

// T4(c): kappa -> 0 (design M10). The transverse transfer tends to T(0) continuously (O(kappa^2):
// 1e-8 at kappa = 1e-4); the longitudinal one tends to z0(1-z0)(1-3 z0(1-z0)) (zero net
// flux), not to T(0): the small-k saddle system stays well conditioned (kappa 1e-3 and 1e-4
// agree to 1e-6) and matches the limit within 0.5 % on the refined grids of T4(b).
TEST(GlidingFluid, KappaToZeroLimits) {
    const double eps = 0.1;
    for (double z0 : {0.0005, 0.1, 0.5}) {
        const double g0 = z0 * (1 - z0), gpar = g0 * (1 - 3 * g0);
        const double hA = std::min(z0 / 200, 0.0025 * gpar / 0.375);
        const ZGrid g = gliding::buildZGrid(z0, hA, std::min(4 * z0, 1.0), 1.15, 2 * hA);
        const double t0 = gliding::transferAtZero(g, eps);
        const gliding::Transfer a = gliding::transfer(g, eps, 1e-3 / eps);
        const gliding::Transfer b = gliding::transfer(g, eps, 1e-4 / eps);
        std::printf(
            "z0 %-6g: T_perp(1e-4)/T(0)-1 = %.2e, T_par(1e-4)/(eps^2 G_par(0))-1 = %+.3f "
            "%%, T_par(1e-3)/T_par(1e-4)-1 = %.2e\n",
            z0, b.perp / t0 - 1, 100 * (b.par / (eps * eps * gpar) - 1), a.par / b.par - 1);
        EXPECT_NEAR(b.perp / t0, 1.0, 1e-8);
        EXPECT_NEAR(a.par / b.par, 1.0, 1e-6);
        EXPECT_NEAR(b.par / (eps * eps * gpar), 1.0, 5e-3);
    }
}

// T4(e), design M17: a uniform force (k = 0) gives u(z) = eps^2 z (1 - z0) below the delta band and
// eps^2 z0 (1 - z) above it at every node, and inside the band the exact discrete
// eps^2 sum_i w_i G0(z, z_i). 1e-12 relative to eps^2 z0: an 88-node elimination.
TEST(GlidingFluid, UniformForceProfileIsPiecewiseLinear) {
    const GlidingParams p = params({});
    const ZGrid g = gliding::buildZGrid(p);
    const double e2 = p.eps * p.eps, scale = e2 * p.z0;
    for (const bool longitudinal : {false, true}) {
        std::vector<double> u;
        if (longitudinal)
            gliding::solveLongitudinal(g, p.eps, 0.0, 1.0, u);
        else
            gliding::solveTransverse(g, p.eps, 0.0, 1.0, u);
        double worst = 0;
        for (std::size_t j = 0; j < g.z.size(); ++j) {
            const double z = g.z[j];
            double expect = 0;
            if (z <= p.z0 - p.hDelta)
                expect = e2 * z * (1 - p.z0);
            else if (z >= p.z0 + p.hDelta)
                expect = e2 * p.z0 * (1 - z);
            else
                for (int i = g.first; i <= g.last; ++i)
                    expect += e2 * g.weight[i] * std::min(z, g.z[i]) * (1 - std::max(z, g.z[i]));
            worst = std::max(worst, std::fabs(u[j] - expect) / scale);
        }
        std::printf("uniform force (%s): max node error / (eps^2 z0) = %.3g\n",
                    longitudinal ? "par" : "perp", worst);
        EXPECT_LT(worst, 1e-12);
    }
}

// Output profiles: at k = 0 the uniform-force line eps^2 z0 (1 - z) above the band (design M17) at
// levels between nodes (linear interpolation is exact on a line; 1e-12 relative); at k != 0
// zero net longitudinal flux, sum h (u_c + u_c+1)/2 = (W(0) - W(1))/k = 0 (design M10), to 1e-12 of
// the transverse flux, which is not zero; w vanishes at both walls.
TEST(GlidingFluid, ProfilesCarryNoNetLongitudinalFlux) {
    const GlidingParams p = params({});
    const ZGrid g = gliding::buildZGrid(p);
    const std::vector<double> levels = {0.0, 0.01, 0.3, 0.77, 1.0};
    const gliding::ProfileTable prof = gliding::precomputeProfiles(g, p.eps, 8, levels);
    const double e2 = p.eps * p.eps;
    for (std::size_t l = 1; l < levels.size(); ++l)
        EXPECT_NEAR(prof.par[l], e2 * p.z0 * (1 - levels[l]), 1e-12 * e2 * p.z0);
    EXPECT_EQ(prof.w[levels.size() * 3], 0.0);  // mode (3, 0), z = 0
    EXPECT_NEAR(prof.w[levels.size() * 4 - 1], 0.0, 1e-18);
    for (double kappa : {0.5, 5.0, 40.0}) {
        std::vector<double> up, uq, w;
        gliding::solveLongitudinal(g, p.eps, kappa / p.eps, 1.0, up, &w);
        gliding::solveTransverse(g, p.eps, kappa / p.eps, 1.0, uq);
        double fluxPar = 0, fluxPerp = 0;
        for (int c = 0; c < g.cells(); ++c) {
            fluxPar += 0.5 * g.h[c] * (up[c] + up[c + 1]);
            fluxPerp += 0.5 * g.h[c] * (uq[c] + uq[c + 1]);
        }
        std::printf("kappa %g: flux par %.3g, perp %.3g, W(1) %.3g\n", kappa, fluxPar, fluxPerp,
                    w.back());
        EXPECT_LT(std::fabs(fluxPar), 1e-12 * std::fabs(fluxPerp));
        EXPECT_EQ(w.front(), 0.0);
        EXPECT_EQ(w.back(), 0.0);
    }
}

// A grid-sized setup at 16^2 x 16 with the default fluid.
struct Grid16 {
    GlidingParams p;
    GlidingTables t;
    explicit Grid16(std::initializer_list<std::string> extra = {}) {
        ParamSet set(gliding::parameterTable());
        set.setFromAssignment("grid.n=16");
        set.setFromAssignment("grid.ninner=16");
        for (const std::string& a : extra)
            set.setFromAssignment(a);
        p = gliding::checkedParams(set);
        t = gliding::buildTables(p);
    }
};

// T4(d), design M10: the fast path (precomputed T, FFTW) against a per-step solve: a naive DFT of a
// random forcing, one banded solve per mode and component (real and imaginary parts) with the
// actual amplitudes, and a naive inverse DFT. 1e-10 relative to max |u| as the spec asks; both
// are exact up to round-off (~1e-14 seen).
TEST(GlidingFluid, FastPathEqualsPerModeBandedSolve) {
    Grid16 s;
    FluidCpu fluid(s.p, s.t);
    const int n = s.t.n;
    const std::size_t cells = static_cast<std::size_t>(n) * n;
    std::mt19937_64 rng(11);
    const std::vector<double> gx = randomField(cells, rng), gy = randomField(cells, rng);
    FlowField fast;
    fluid.applyStokes(gx, gy, fast);

    const ZGrid& g = fluid.zgrid();
    std::vector<cplx> ux(cells), uy(cells);
    std::vector<double> prof;
    auto plane = [&](bool par, double k, double f) {
        if (par)
            gliding::solveLongitudinal(g, s.p.eps, k, f, prof);
        else
            gliding::solveTransverse(g, s.p.eps, k, f, prof);
        return g.atPlane(prof);
    };
    for (int ky = 0; ky < n; ++ky)
        for (int kx = 0; kx < n; ++kx) {
            cplx fx = 0, fy = 0;
            for (int iy = 0; iy < n; ++iy)
                for (int ix = 0; ix < n; ++ix) {
                    const cplx e = std::polar(1.0, -kTau * (kx * ix + ky * iy) / n);
                    fx += gx[iy * n + ix] * e;
                    fy += gy[iy * n + ix] * e;
                }
            // A Nyquist component is +-n/2 alike on the grid: average the responses of all
            // the aliases (the convention of FluidCpu, stated in fluid_cpu.hpp).
            const int mx = kx <= n / 2 ? kx : kx - n, my = ky <= n / 2 ? ky : ky - n;
            const int aliasesX = 2 * kx == n ? 2 : 1, aliasesY = 2 * ky == n ? 2 : 1;
            cplx ox = 0, oy = 0;
            for (int ax = 0; ax < aliasesX; ++ax)
                for (int ay = 0; ay < aliasesY; ++ay) {
                    const double kxv = kTau * (ax ? -mx : mx), kyv = kTau * (ay ? -my : my);
                    const double k = std::hypot(kxv, kyv);
                    if (k == 0) {
                        ox += cplx(plane(false, 0, fx.real()), plane(false, 0, fx.imag()));
                        oy += cplx(plane(false, 0, fy.real()), plane(false, 0, fy.imag()));
                        continue;
                    }
                    const double hx = kxv / k, hy = kyv / k;
                    const cplx fpar = hx * fx + hy * fy, fperp = -hy * fx + hx * fy;
                    const cplx upar(plane(true, k, fpar.real()), plane(true, k, fpar.imag()));
                    const cplx uperp(plane(false, k, fperp.real()), plane(false, k, fperp.imag()));
                    ox += upar * hx - uperp * hy;
                    oy += upar * hy + uperp * hx;
                }
            ux[ky * n + kx] = ox / double(aliasesX * aliasesY);
            uy[ky * n + kx] = oy / double(aliasesX * aliasesY);
        }
    double err = 0, scale = std::max(maxAbs(fast.u), maxAbs(fast.v));
    for (int iy = 0; iy < n; ++iy)
        for (int ix = 0; ix < n; ++ix) {
            cplx u = 0, v = 0;
            for (int ky = 0; ky < n; ++ky)
                for (int kx = 0; kx < n; ++kx) {
                    const cplx e = std::polar(1.0, kTau * (kx * ix + ky * iy) / n);
                    u += ux[ky * n + kx] * e;
                    v += uy[ky * n + kx] * e;
                }
            err = std::max({err, std::fabs(u.real() / cells - fast.u[iy * n + ix]),
                            std::fabs(v.real() / cells - fast.v[iy * n + ix])});
        }
    std::printf("fast path vs per-mode banded solve: max |du| / max |u| = %.3g (max |u| %.4g)\n",
                err / scale, scale);
    EXPECT_GT(scale, 0.0);
    EXPECT_LT(err / scale, 1e-10);
}

// One Fourier mode of force through the whole FFT path: u2 = [T_par k^k^ + T_perp(I - k^k^)] f
// for that mode, with T from an independent z solve at |k| (not the table), and the centred
// gradient equals i sin(k dx)/dx times it. Modes include oblique ones, a negative ky, an
// oblique x-Nyquist (8, 5) (alias average, Mxy = 0) and the y-Nyquist (0, 8). 1e-12 relative to the
// mode's |u|: FFT round-off ~1e-15 log n.
TEST(GlidingFluid, SingleModeForceGivesTransferTimesForce) {
    Grid16 s;
    FluidCpu fluid(s.p, s.t);
    const int n = s.t.n;
    const std::size_t cells = static_cast<std::size_t>(n) * n;
    const double dx = s.t.dx;
    const int modes[][2] = {{1, 0}, {2, 3}, {8, 5}, {3, -7}, {0, 8}};
    for (const auto& m : modes) {
        const double kx = kTau * m[0], ky = kTau * m[1], k = std::hypot(kx, ky);
        const cplx fxAmp(0.7, -0.2), fyAmp(-0.3, 0.5);
        std::vector<double> gx(cells), gy(cells);
        for (int iy = 0; iy < n; ++iy)
            for (int ix = 0; ix < n; ++ix) {
                const cplx e = std::polar(1.0, kx * (ix + 0.5) * dx + ky * (iy + 0.5) * dx);
                // A Nyquist mode can only carry its real (cosine-phase) part on the grid.
                gx[iy * n + ix] = (fxAmp * e).real();
                gy[iy * n + ix] = (fyAmp * e).real();
            }
        FlowField out;
        fluid.applyStokes(gx, gy, out);
        const gliding::Transfer tr = gliding::transfer(fluid.zgrid(), s.p.eps, k);
        const double hx = kx / k, hy = ky / k, d = tr.par - tr.perp;
        // Nyquist components: the alias average, Mxy = 0 (fluid_cpu.hpp).
        const bool nyq = 2 * m[0] == n || 2 * std::abs(m[1]) == n;
        const double mxx = tr.perp + d * hx * hx, myy = tr.perp + d * hy * hy;
        const double mxy = nyq ? 0.0 : d * hx * hy;
        const cplx uAmp = mxx * fxAmp + mxy * fyAmp, vAmp = mxy * fxAmp + myy * fyAmp;
        const double sx = std::sin(kx * dx) / dx, sy = std::sin(ky * dx) / dx;
        double err = 0, gerr = 0;
        const double scale = std::abs(uAmp) + std::abs(vAmp);
        for (int iy = 0; iy < n; ++iy)
            for (int ix = 0; ix < n; ++ix) {
                const std::size_t i = iy * n + ix;
                const cplx e = std::polar(1.0, kx * (ix + 0.5) * dx + ky * (iy + 0.5) * dx);
                const cplx iu = cplx(0, 1) * uAmp * e, iv = cplx(0, 1) * vAmp * e;
                err = std::max({err, std::fabs(out.u[i] - (uAmp * e).real()),
                                std::fabs(out.v[i] - (vAmp * e).real())});
                gerr = std::max({gerr, std::fabs(out.dudx[i] - sx * iu.real()),
                                 std::fabs(out.dudy[i] - sy * iu.real()),
                                 std::fabs(out.dvdx[i] - sx * iv.real()),
                                 std::fabs(out.dvdy[i] - sy * iv.real())});
            }
        std::printf(
            "mode (%d, %d): T_par %.10e T_perp %.10e, u error %.2e, grad error %.2e "
            "(relative)\n",
            m[0], m[1], tr.par, tr.perp, err / scale, gerr / (scale / dx));
        EXPECT_LT(err / scale, 1e-12);
        EXPECT_LT(gerr / (scale / dx), 1e-12);
    }
}

// Psi = (c + a cos 2(theta - phi)) / 2 pi per cell, with c, a, phi varying over the domain.
// Its moments in closed form (trapezoid rule exact for harmonics < Ntheta):
// D = c/2 I + a/4 [cos 2phi, sin 2phi; sin 2phi, -cos 2phi], S1111 = 3c/8 + a/4 cos 2phi,
}  // namespace
}  // namespace cf
