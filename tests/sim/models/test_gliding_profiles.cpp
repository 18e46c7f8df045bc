// SPDX-License-Identifier: GPL-3.0-or-later
// `gliding` output-time vertical velocity profiles (docs/design/gliding.md 2.8 "output times
// only", design M10, M17): the slice through one cell row against the filament-plane flow of
// FluidCpu, the no-slip walls, a single Fourier mode against independent per-mode z solves
// (zero net longitudinal flux), a uniform force against the piecewise-linear profile, and the
// quarter turn mapping a row slice onto a column of the field.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/models/gliding/cpu/fluid_cpu.hpp"
#include "sim/models/gliding/flow_profiles.hpp"
#include "sim/models/gliding/gliding_params.hpp"
#include "sim/models/gliding/gliding_state.hpp"
#include "sim/models/gliding/gliding_tables.hpp"
#include "sim/models/gliding/gliding_zgrid.hpp"
#include "tests/sim/models/gliding_test_support.hpp"

namespace cf {
namespace {

using gliding::test::maxAbs;
using gliding::test::randomField;

using gliding::FlowField;
using gliding::FlowProfiles;
using gliding::FluidCpu;
using gliding::GlidingParams;
using gliding::GlidingTables;
using gliding::ZGrid;
constexpr double kTau = 2 * std::numbers::pi;

// A 16^2 x 16 grid with the default fluid (z-grid of 88 cells, 89 profile levels).
struct Grid16 {
    GlidingParams p;
    GlidingTables t;
    Grid16() {
        ParamSet set(gliding::parameterTable());
        set.setFromAssignment("grid.n=16");
        set.setFromAssignment("grid.ninner=16");
        p = gliding::checkedParams(set);
        t = gliding::buildTables(p);
    }
};

// The delta-weighted plane value (ZGrid::atPlane) of node profile [l * n + ix] at column ix.
double planeValue(const ZGrid& g, const std::vector<double>& s, int n, int ix) {
    double sum = 0;
    for (int l = g.first; l <= g.last; ++l)
        sum += g.weight[l] * s[static_cast<std::size_t>(l) * n + ix];
    return sum;
}

// (a) At the filament plane the slice is u2(z0): sum_l weight_l u(z_l) per cell of the row
// equals FluidCpu::applyStokes for the same random forcing, every row. Both multiply the same
// spectrum by M built by responseAt, and sum_l weight_l Phi_l = T exactly as transfer() forms
// it, so only round-off differs (the per-level sums and the row-restricted inverse):
// 1e-12 relative to max |u2(z0)|. Also through a whole solve() with FluidCpu::lastForcing, and
// the float slice is the double one rounded.
TEST(GlidingProfiles, PlaneValueIsFilamentPlaneFlow) {
    Grid16 s;
    FluidCpu fluid(s.p, s.t);
    FlowProfiles prof(s.p, s.t, fluid.zgrid());
    const int n = s.t.n;
    const std::size_t cells = static_cast<std::size_t>(n) * n;
    ASSERT_EQ(prof.levels(), 89);
    std::mt19937_64 rng(5);
    const std::vector<double> gx = randomField(cells, rng), gy = randomField(cells, rng);
    FlowField flat;
    fluid.applyStokes(gx, gy, flat);
    const double scale = std::max(maxAbs(flat.u), maxAbs(flat.v));
    double worst = 0;
    for (int row = 0; row < n; ++row) {
        std::vector<double> u, v, w;
        prof.sliceValues(gx, gy, row, u, v, w);
        for (int ix = 0; ix < n; ++ix) {
            const std::size_t i = static_cast<std::size_t>(row) * n + ix;
            worst = std::max({worst, std::fabs(planeValue(prof.zgrid(), u, n, ix) - flat.u[i]),
                              std::fabs(planeValue(prof.zgrid(), v, n, ix) - flat.v[i])});
        }
    }
    std::printf(
        "plane value vs applyStokes (16 rows): max error / max|u2(z0)| = %.3g "
        "(max|u2(z0)| = %.6g)\n",
        worst / scale, scale);
    EXPECT_LT(worst / scale, 1e-12);

    // Through solve(): Psi of the initial state, a random motor force; the flow it returns is
    // applyStokes of the forcing of its last pass, which lastForcing hands out.
    const gliding::HostState st = gliding::initialState(s.p, s.t, 3);
    const std::vector<double> fx = randomField(cells, rng), fy = randomField(cells, rng);
    FlowField solved;
    fluid.solve(s.p, s.t, st, fx, fy, solved);
    std::vector<double> lx, ly;
    fluid.lastForcing(lx, ly);
    ASSERT_EQ(lx.size(), cells);
    const int row = 5;
    const gliding::FlowSlice sl = prof.slice(lx, ly, row);
    std::vector<double> u, v, w;
    prof.sliceValues(lx, ly, row, u, v, w);
    const double sscale = std::max(maxAbs(solved.u), maxAbs(solved.v));
    double sworst = 0;
    for (int ix = 0; ix < n; ++ix) {
        const std::size_t i = static_cast<std::size_t>(row) * n + ix;
        sworst = std::max({sworst, std::fabs(planeValue(prof.zgrid(), u, n, ix) - solved.u[i]),
                           std::fabs(planeValue(prof.zgrid(), v, n, ix) - solved.v[i])});
    }
    std::printf("plane value vs solve() via lastForcing (row %d, %d passes): %.3g relative\n", row,
                fluid.lastIterations(), sworst / sscale);
    EXPECT_LT(sworst / sscale, 1e-12);
    EXPECT_EQ(sl.n, n);
    EXPECT_EQ(sl.nz, prof.levels());
    EXPECT_EQ(sl.row_y, (row + 0.5) * s.t.dx);
    EXPECT_EQ(sl.z, prof.zgrid().z);
    ASSERT_EQ(sl.u.size(), u.size());
    for (std::size_t i = 0; i < u.size(); ++i) {
        EXPECT_EQ(sl.u[i], static_cast<float>(u[i]));
        EXPECT_EQ(sl.v[i], static_cast<float>(v[i]));
        EXPECT_EQ(sl.w[i], static_cast<float>(w[i]));
    }
    EXPECT_THROW(prof.slice(lx, ly, n), SimulationError);
    EXPECT_THROW(prof.slice(lx, std::vector<double>(3), 0), SimulationError);
}

// (b) No slip (design M10): u = v = w = 0 at z = 0 and z = 1 for a random forcing, exactly (the
// table holds exact zeros at the wall nodes, and sums of zeros stay zero); the interior is not
// zero (so the check can fail).
TEST(GlidingProfiles, WallsHaveNoSlip) {
    Grid16 s;
    FlowProfiles prof(s.p, s.t, gliding::buildZGrid(s.p));
    const int n = s.t.n, nz = prof.levels();
    std::mt19937_64 rng(8);
    const std::size_t cells = static_cast<std::size_t>(n) * n;
    const std::vector<double> gx = randomField(cells, rng), gy = randomField(cells, rng);
    std::vector<double> u, v, w;
    prof.sliceValues(gx, gy, 11, u, v, w);
    EXPECT_DOUBLE_EQ(prof.zgrid().z.front(), 0.0);
    EXPECT_DOUBLE_EQ(prof.zgrid().z.back(), 1.0);
    for (int ix = 0; ix < n; ++ix)
        for (int l : {0, nz - 1}) {
            const std::size_t i = static_cast<std::size_t>(l) * n + ix;
            EXPECT_EQ(u[i], 0.0);
            EXPECT_EQ(v[i], 0.0);
            EXPECT_EQ(w[i], 0.0);
        }
    std::printf("walls: interior max |u| %.4g, |v| %.4g, |w| %.4g (w in eps V)\n", maxAbs(u),
                maxAbs(v), maxAbs(w));
    EXPECT_GT(maxAbs(u), 0.0);
    EXPECT_GT(maxAbs(w), 0.0);
}

// (c) A single longitudinal mode f = A k^ cos(k.x + phi): at every node the slice is
// Phi_par(z) A cos and w = -Phi_w(z) A sin (w^ = i Phi_w f^_par), with Phi from independent
// banded solves at |k| (not the table, not the FFT), and the net flux sum_z u dz (trapezoid,
// the discrete continuity's own quadrature) vanishes (design M10), to 1e-12 of the flux of the
// transverse mode f = A k^perp cos, which does not. Modes along x and oblique (2, 3), row 6.
// Tolerances: 1e-12 relative to the profile's maximum (an 89-node elimination and FFTs).
TEST(GlidingProfiles, SingleModeProfileAndZeroLongitudinalFlux) {
    Grid16 s;
    FlowProfiles prof(s.p, s.t, gliding::buildZGrid(s.p));
    const ZGrid& g = prof.zgrid();
    const int n = s.t.n, nz = prof.levels(), row = 6;
    const std::size_t cells = static_cast<std::size_t>(n) * n;
    const double dx = s.t.dx, amp = 0.8, phi = 0.3;
    const int modes[][2] = {{3, 0}, {2, 3}};
    for (const auto& m : modes) {
        const double kx = kTau * m[0], ky = kTau * m[1], k = std::hypot(kx, ky);
        const double hx = kx / k, hy = ky / k;
        std::vector<double> up, uq, wz;
        gliding::solveLongitudinal(g, s.p.eps, k, 1.0, up, &wz);
        gliding::solveTransverse(g, s.p.eps, k, 1.0, uq);
        double flux[2] = {0, 0}, err = 0, scale = 0;
        for (int transverse = 0; transverse < 2; ++transverse) {
            // Direction of the force: k^ (longitudinal) or k^perp = (-hy, hx) (transverse).
            const double ex = transverse ? -hy : hx, ey = transverse ? hx : hy;
            std::vector<double> gx(cells), gy(cells);
            // Phases at the cell indices (FFT convention; a shift of x by dx/2 is in phi).
            auto theta = [&](int ix, int iy) { return kx * ix * dx + ky * iy * dx + phi; };
            for (int iy = 0; iy < n; ++iy)
                for (int ix = 0; ix < n; ++ix) {
                    gx[iy * n + ix] = amp * ex * std::cos(theta(ix, iy));
                    gy[iy * n + ix] = amp * ey * std::cos(theta(ix, iy));
                }
            std::vector<double> u, v, w;
            prof.sliceValues(gx, gy, row, u, v, w);
            const std::vector<double>& phiU = transverse ? uq : up;
            for (int ix = 0; ix < n; ++ix) {
                const double c = std::cos(theta(ix, row)), sn = std::sin(theta(ix, row));
                double fl = 0;
                for (int l = 0; l < nz; ++l) {
                    const std::size_t i = static_cast<std::size_t>(l) * n + ix;
                    const double eu = phiU[l] * amp * c;
                    const double ew = transverse ? 0.0 : -wz[l] * amp * sn;
                    err = std::max({err, std::fabs(u[i] - ex * eu), std::fabs(v[i] - ey * eu),
                                    std::fabs(w[i] - ew)});
                    scale = std::max({scale, std::fabs(eu), std::fabs(ew)});
                    fl += g.dual[l] * (ex * u[i] + ey * v[i]);  // along the force
                }
                flux[transverse] = std::max(flux[transverse], std::fabs(fl));
            }
        }
        std::printf(
            "mode (%d, %d), kappa %.4g: profile error %.3g relative; max |flux| "
            "longitudinal %.3g, transverse %.3g\n",
            m[0], m[1], s.p.eps * k, err / scale, flux[0], flux[1]);
        EXPECT_LT(err / scale, 1e-12);
        EXPECT_GT(flux[1], 0.0);
        EXPECT_LT(flux[0], 1e-12 * flux[1]);
    }
}

// (c) design M17: a uniform force (k = 0) gives u(z) = eps^2 f z (1 - z0) below the delta band and
// eps^2 f z0 (1 - z) above it at every node, and inside it the exact discrete
// eps^2 f sum_i w_i G0(z, z_i); w = 0. 1e-12 relative to eps^2 z0 |f| (an 89-node elimination).
TEST(GlidingProfiles, UniformForceGivesPiecewiseLinearProfile) {
    Grid16 s;
    FlowProfiles prof(s.p, s.t, gliding::buildZGrid(s.p));
    const ZGrid& g = prof.zgrid();
    const int n = s.t.n, nz = prof.levels();
    const std::size_t cells = static_cast<std::size_t>(n) * n;
    const double fx = 0.7, fy = -0.4, e2 = s.p.eps * s.p.eps;
    std::vector<double> u, v, w;
    prof.sliceValues(std::vector<double>(cells, fx), std::vector<double>(cells, fy), 9, u, v, w);
    double worst = 0;
    for (int l = 0; l < nz; ++l) {
        const double z = g.z[l];
        double shape = 0;
        if (z <= s.p.z0 - s.p.hDelta)
            shape = e2 * z * (1 - s.p.z0);
        else if (z >= s.p.z0 + s.p.hDelta)
            shape = e2 * s.p.z0 * (1 - z);
        else
            for (int i = g.first; i <= g.last; ++i)
                shape += e2 * g.weight[i] * std::min(z, g.z[i]) * (1 - std::max(z, g.z[i]));
        for (int ix = 0; ix < n; ++ix) {
            const std::size_t i = static_cast<std::size_t>(l) * n + ix;
            worst = std::max({worst, std::fabs(u[i] - fx * shape), std::fabs(v[i] - fy * shape)});
        }
    }
    const double scale = e2 * s.p.z0 * std::fabs(fx);
    std::printf("uniform force: max node error / (eps^2 z0 |f|) = %.3g, max |w| = %.3g\n",
                worst / scale, maxAbs(w));
    EXPECT_LT(worst / scale, 1e-12);
    EXPECT_LT(maxAbs(w), 1e-12 * scale);
}

// (d) The quarter turn (x, y) -> (1 - y, x), f -> (-f_y, f_x), i.e. cell (ix, iy) ->
// (n-1-iy, ix) (design M17): the slice of the turned forcing through row r is the turned field on
// column ix = r of the original, (u', v', w')(ix') = (-v, u, w)(ix = r, iy = n-1-ix'), with the
// column assembled from the original's 16 row slices. The responses, Nyquist rules and the
// w rule are quarter-turn symmetric; the FFTs differ in order: 1e-12 relative to max |u|.
TEST(GlidingProfiles, QuarterTurnMapsRowSliceOntoColumn) {
    Grid16 s;
    FlowProfiles prof(s.p, s.t, gliding::buildZGrid(s.p));
    const int n = s.t.n, nz = prof.levels();
    const std::size_t cells = static_cast<std::size_t>(n) * n;
    std::mt19937_64 rng(21);
    const std::vector<double> gx = randomField(cells, rng), gy = randomField(cells, rng);
    std::vector<double> tx(cells), ty(cells);
    for (int iy = 0; iy < n; ++iy)
        for (int ix = 0; ix < n; ++ix) {
            const std::size_t to = static_cast<std::size_t>(ix) * n + (n - 1 - iy);
            tx[to] = -gy[iy * n + ix];
            ty[to] = gx[iy * n + ix];
        }
    std::vector<std::vector<double>> ru(n), rv(n), rw(n);  // original, per row
    for (int row = 0; row < n; ++row)
        prof.sliceValues(gx, gy, row, ru[row], rv[row], rw[row]);
    double worst = 0, scale = 0;
    for (int r : {0, 3, 8, 15}) {
        std::vector<double> u, v, w;
        prof.sliceValues(tx, ty, r, u, v, w);
        for (int l = 0; l < nz; ++l)
            for (int ixp = 0; ixp < n; ++ixp) {
                const std::size_t i = static_cast<std::size_t>(l) * n + ixp;
                const std::size_t o = static_cast<std::size_t>(l) * n + r;  // column r
                const int iy = n - 1 - ixp;
                worst = std::max({worst, std::fabs(u[i] + rv[iy][o]), std::fabs(v[i] - ru[iy][o]),
                                  std::fabs(w[i] - rw[iy][o])});
                scale = std::max({scale, std::fabs(u[i]), std::fabs(v[i])});
            }
    }
    std::printf("quarter turn: row slice vs turned column, max error / max|u| = %.3g\n",
                worst / scale);
    EXPECT_LT(worst / scale, 1e-12);
}

}  // namespace
}  // namespace cf
