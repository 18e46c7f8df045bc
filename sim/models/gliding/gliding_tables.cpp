// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/gliding/gliding_tables.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "sim/core/errors.hpp"
#include "sim/core/number_format.hpp"

namespace cf::gliding {

namespace {

// Longest chord a warp segment can hold (design 2.6: one lane per s-cell, w <= 32).
constexpr std::int32_t kMaxChordCells = 32;

}  // namespace

double peskin4(double r) {
    // Evaluated on |r| so that phi(-r) == phi(r) bit for bit (the exact-rotation tables rely
    // on it, design 2.1).
    const double a = std::fabs(r);
    if (a < 1.0) return (3.0 - 2.0 * a + std::sqrt(1.0 + 4.0 * a - 4.0 * a * a)) / 8.0;
    if (a < 2.0)
        return (5.0 - 2.0 * a - std::sqrt(std::max(0.0, -7.0 + 12.0 * a - 4.0 * a * a))) / 8.0;
    return 0.0;
}

GlidingTables buildTables(const GlidingParams& p) {
    GlidingTables t;
    t.n = p.n;
    t.ntheta = p.ninner;
    t.ns = p.ninner;
    t.dx = 1.0 / p.n;
    t.dtheta = 2.0 * std::numbers::pi / t.ntheta;
    t.ds = 1.0 / t.ns;

    // Orientation: libm's cos/sin of the first quadrant, the others as exact quarter turns
    // (c, s) -> (-s, c), so that (ox, oy, j) -> (-oy, ox, j + ntheta/4) maps every table
    // below onto itself bit for bit (design 2.1, C6).
    const int quarter = t.ntheta / 4;
    t.cosT.resize(t.ntheta);
    t.sinT.resize(t.ntheta);
    for (int j = 0; j < quarter; ++j) {
        const double th = (j + 0.5) * t.dtheta;
        t.cosT[j] = std::cos(th);
        t.sinT[j] = std::sin(th);
    }
    for (int j = quarter; j < t.ntheta; ++j) {
        t.cosT[j] = -t.sinT[j - quarter];
        t.sinT[j] = t.cosT[j - quarter];
    }
    // Faces: angles a dtheta, a = 0 .. quarter-1 from libm (a = 0 is (1, 0) exactly), the
    // rest by quarter turns; face m sits at angle (m + 1) dtheta, i.e. a = (m + 1) mod ntheta.
    std::vector<double> fc(t.ntheta), fs(t.ntheta);
    for (int a = 0; a < quarter; ++a) {
        fc[a] = std::cos(a * t.dtheta);
        fs[a] = std::sin(a * t.dtheta);
    }
    for (int a = quarter; a < t.ntheta; ++a) {
        fc[a] = -fs[a - quarter];
        fs[a] = fc[a - quarter];
    }
    t.faceCos.resize(t.ntheta);
    t.faceSin.resize(t.ntheta);
    for (int m = 0; m < t.ntheta; ++m) {
        t.faceCos[m] = fc[(m + 1) % t.ntheta];
        t.faceSin[m] = fs[(m + 1) % t.ntheta];
    }
    t.s.resize(t.ns);
    for (int k = 0; k < t.ns; ++k)
        t.s[k] = -0.5 + (k + 0.5) * t.ds;

    // Neighbour set (design M3), compared in cells: |o| <= lambda/2 + rc + dx/sqrt(2).
    const double rCells = p.lambda / 2.0 / t.dx + p.rc / t.dx + 1.0 / std::numbers::sqrt2;
    const int omax = static_cast<int>(std::floor(rCells));
    for (int oy = -omax; oy <= omax; ++oy)
        for (int ox = -omax; ox <= omax; ++ox)
            if (static_cast<double>(ox * ox + oy * oy) <= rCells * rCells) {
                t.offX.push_back(ox);
                t.offY.push_back(oy);
            }

    // Mask chi = [|o dx + lambda s_k p_j|^2 <= rc^2] (design M3). The products are formed as
    // (o dx) + (lambda s_k) p so that negating o or p negates them exactly.
    const int no = t.neighbours();
    const double rc2 = p.rc * p.rc;
    t.mask.assign(static_cast<std::size_t>(no) * t.ntheta * t.ns, 0);
    for (int o = 0; o < no; ++o) {
        const double ax = t.offX[o] * t.dx, ay = t.offY[o] * t.dx;
        for (int j = 0; j < t.ntheta; ++j) {
            int ka = -1, kb = -1;
            for (int k = 0; k < t.ns; ++k) {
                const double ls = p.lambda * t.s[k];
                const double hx = ax + ls * t.cosT[j];
                const double hy = ay + ls * t.sinT[j];
                if (hx * hx + hy * hy <= rc2) {
                    t.mask[(static_cast<std::size_t>(o) * t.ntheta + j) * t.ns + k] = 1;
                    if (ka < 0)
                        ka = k;
                    else if (kb != k - 1)
                        throw SimulationError(
                            "gliding: internal error: the capture set of offset (" +
                            std::to_string(t.offX[o]) + ", " + std::to_string(t.offY[o]) +
                            "), orientation " + std::to_string(j) + " is not one interval");
                    kb = k;
                }
            }
            if (ka >= 0) {
                const int len = kb - ka + 1;
                t.chords.push_back({t.offX[o], t.offY[o], j, ka, len, t.sliceSize});
                t.sliceSize += len;
                t.maxChord = std::max(t.maxChord, len);
            }
        }
    }
    if (t.sliceSize == 0)
        throw ParameterError("gliding: motors.rc = " + formatShort(p.rc, 2) +
                             " is too small for grid.n = " + std::to_string(p.n) +
                             ": no filament point lies within rc of a motor tail (rc = " +
                             formatShort(p.rc / t.dx, 2) + " dx)");
    if (t.maxChord > kMaxChordCells)
        throw ParameterError("gliding: motors.rc/grid.lambda: a capture chord spans " +
                             std::to_string(t.maxChord) + " cells of s (> " +
                             std::to_string(kMaxChordCells) + "); lower motors.rc or grid.ninner");

    // Gather lists per (j, k), in chord order (fixed summation order).
    t.gatherStart.assign(static_cast<std::size_t>(t.ntheta) * t.ns + 1, 0);
    for (int j = 0; j < t.ntheta; ++j)
        for (int k = 0; k < t.ns; ++k) {
            t.gatherStart[j * t.ns + k] = static_cast<std::int32_t>(t.gather.size());
            for (const Chord& c : t.chords)
                if (c.j == j && k >= c.ka && k < c.ka + c.len)
                    t.gather.push_back({c.ox, c.oy, c.off + k - c.ka});
        }
    t.gatherStart.back() = static_cast<std::int32_t>(t.gather.size());

    // Peskin stencils of the head offset d = lambda s_k p_j / dx (design M8).
    t.peskin.resize(static_cast<std::size_t>(t.ntheta) * t.ns);
    for (int j = 0; j < t.ntheta; ++j)
        for (int k = 0; k < t.ns; ++k) {
            const double ls = p.lambda * t.s[k];
            const double d[2] = {ls * t.cosT[j] / t.dx, ls * t.sinT[j] / t.dx};
            PeskinStencil& st = t.peskin[j * t.ns + k];
            for (int a = 0; a < 2; ++a) {
                st.m0[a] = static_cast<std::int32_t>(std::floor(d[a])) - 1;
                for (int i = 0; i < 4; ++i)
                    st.w[a][i] = peskin4(d[a] - (st.m0[a] + i));
            }
        }

    // FD symbols of the periodic 3-point Laplacians (design M12).
    t.sigmaX.resize(t.n);
    for (int k = 0; k < t.n; ++k) {
        const double sn = std::sin(std::numbers::pi * k / t.n);
        t.sigmaX[k] = 4.0 / (t.dx * t.dx) * sn * sn;
    }
    t.sigmaTheta.resize(t.ntheta);
    for (int m = 0; m < t.ntheta; ++m) {
        const double sn = std::sin(std::numbers::pi * m / t.ntheta);
        t.sigmaTheta[m] = 4.0 / (t.dtheta * t.dtheta) * sn * sn;
    }

    t.discArea = t.sliceSize * t.dx * t.dx / (static_cast<double>(t.ntheta) * t.ns);
    t.discAreaRatio = t.discArea / (std::numbers::pi * p.rc * p.rc);
    return t;
}

std::string applyTables(GlidingParams& p, const GlidingTables& t) {
    if (p.konArea == static_cast<std::int32_t>(KonArea::Discrete)) p.konTilde = p.kon / t.discArea;
    if (t.discAreaRatio >= 0.9 && t.discAreaRatio <= 1.1) return {};
    char pct[16];
    std::snprintf(pct, sizeof pct, "%.0f", 100.0 * t.discAreaRatio);
    return std::string("capture area on the grid is ") + pct +
           " % of pi rc^2 (rc = " + formatShort(p.rc / t.dx, 2) + " dx); binding rates use " +
           (p.konArea == static_cast<std::int32_t>(KonArea::Discrete)
                ? "the grid's area (motors.kon_area = discrete)"
                : "the continuous area unless motors.kon_area = discrete");
}

double steadyBoundFraction(const GlidingParams& p, const GlidingTables& t) {
    // Q = sum_{o,j} Psi dx^2 dtheta q(l), q(l) = (l - (1 - e^{-koff l})/koff)/koff, the
    // integral of the steady profile (1 - e^{-koff (s - s_a)})/koff over a chord of length l
    // (design M17); Psi dtheta = 1/ntheta for Psi = 1/(2 pi).
    double q = 0.0;
    for (int o = 0; o < t.neighbours(); ++o) {
        const double ax = t.offX[o] * t.dx, ay = t.offY[o] * t.dx;
        for (int j = 0; j < t.ntheta; ++j) {
            // |a + lambda s p| <= rc: lambda s in -a.p +- sqrt(rc^2 - (a x p)^2).
            const double along = ax * t.cosT[j] + ay * t.sinT[j];
            const double cross = ax * t.sinT[j] - ay * t.cosT[j];
            const double disc = p.rc * p.rc - cross * cross;
            if (disc <= 0.0) continue;
            const double h = std::sqrt(disc);
            const double sa = std::max(-0.5, (-along - h) / p.lambda);
            const double sb = std::min(0.5, (-along + h) / p.lambda);
            const double l = sb - sa;
            if (l <= 0.0) continue;
            const double ql =
                p.koff > 0.0 ? (l + std::expm1(-p.koff * l) / p.koff) / p.koff : 0.5 * l * l;
            q += ql;
        }
    }
    q *= t.dx * t.dx / t.ntheta;
    const double kq = p.konTilde * q;
    return kq / (1.0 + kq);
}

}  // namespace cf::gliding
