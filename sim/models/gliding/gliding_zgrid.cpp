// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/gliding/gliding_zgrid.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/core/number_format.hpp"
#include "sim/core/parallel.hpp"

namespace cf::gliding {

double ZGrid::atPlane(const std::vector<double>& v) const {
    double sum = 0;
    for (std::int32_t j = first; j <= last; ++j)
        sum += weight[j] * v[j];
    return sum;
}

ZGrid buildZGrid(double z0, double hA, double zA, double growth, double hDelta) {
    if (!(hA > 0.0) || !(zA > 0.0) || !(growth >= 1.0) || !(hDelta > 0.0))
        throw ParameterError(
            "gliding: the z-grid needs h_fine > 0, a fine region > 0, growth >= 1 "
            "and a delta width > 0");
    if (!(z0 - hDelta >= 0.0) || !(z0 + hDelta < 1.0))
        throw ParameterError("gliding: the delta band [" + formatShort(z0 - hDelta, 3) + ", " +
                             formatShort(z0 + hDelta, 3) + "] must lie inside the gap [0, 1]");
    ZGrid g;
    g.z0 = z0;
    g.hA = hA;
    g.hDelta = hDelta;
    // Region A: whole cells of exactly hA (nodes i hA, so z0 = m hA is hit exactly when it is
    // a multiple); the small tolerance absorbs zA / hA = 32 - 1 ulp.
    const std::int32_t nA = std::max<std::int32_t>(
        1, static_cast<std::int32_t>(std::floor(std::min(zA, 1.0) / hA + 1e-9)));
    g.z.push_back(0.0);
    for (std::int32_t i = 1; i <= nA; ++i)
        g.z.push_back(std::min(i * hA, 1.0));
    if (std::fabs(g.z.back() - 1.0) < 1e-9 * hA) {
        g.z.back() = 1.0;  // region A fills the gap (z0 >= 1/4, C8)
    } else {
        // Region B: spacings hA growth^m, m = 0, 1, ... (m from 0 gives the spec's 56 cells at
        // the defaults, design M4), the last cell rescaled to end at 1.
        double step = hA, z = g.z.back();
        while (z + step < 1.0) {
            z += step;
            g.z.push_back(z);
            step *= growth;
        }
        g.z.push_back(1.0);
        const std::size_t m = g.z.size();
        if (m >= 3 && m - 2 > static_cast<std::size_t>(nA) &&
            g.z[m - 1] - g.z[m - 2] < 0.5 * (g.z[m - 2] - g.z[m - 3]))
            g.z.erase(g.z.end() - 2);  // merge a sliver into the cell below
    }
    g.cellsA = nA;
    const std::int32_t cells = static_cast<std::int32_t>(g.z.size()) - 1;
    g.h.resize(cells);
    for (std::int32_t j = 0; j < cells; ++j)
        g.h[j] = g.z[j + 1] - g.z[j];
    g.dual.assign(cells + 1, 0.0);
    for (std::int32_t j = 0; j <= cells; ++j)
        g.dual[j] = 0.5 * ((j > 0 ? g.h[j - 1] : 0.0) + (j < cells ? g.h[j] : 0.0));
    // Cosine bump (design M4). Nodes at |z - z0| = hDelta up to rounding get no weight, so the
    // support is the same whichever side the rounding falls.
    g.delta.assign(cells + 1, 0.0);
    g.weight.assign(cells + 1, 0.0);
    double norm = 0;
    for (std::int32_t j = 1; j < cells; ++j) {
        const double r = (g.z[j] - z0) / hDelta;
        if (std::fabs(r) < 1.0 - 1e-12) {
            g.delta[j] = 0.5 * (1.0 + std::cos(std::numbers::pi * r));
            norm += g.delta[j] * g.dual[j];
            if (g.last < 0) g.first = j;
            g.last = j;
        }
    }
    if (!(norm > 0.0))
        throw ParameterError("gliding: the smoothed delta around fluid.z0 = " + formatShort(z0, 3) +
                             " covers no z node; refine fluid.h_fine or "
                             "widen fluid.delta_width");
    for (std::int32_t j = 0; j <= cells; ++j) {
        g.delta[j] /= norm;
        g.weight[j] = g.delta[j] * g.dual[j];
    }
    return g;
}

ZGrid buildZGrid(const GlidingParams& p) {
    return buildZGrid(p.z0, p.hA, p.zA, p.growth, p.hDelta);
}

// ----------------------------------------------------------------------------------------------
// Banded LU with partial pivoting. Row i stores columns i - kl .. i + ku + kl (the extra kl
// for the fill of row swaps). Multipliers of step k stay in column k of the rows below it and
// are applied in order, with the swaps, exactly as they were made (LAPACK's dgbtrf scheme).

BandedLU::BandedLU(std::int32_t n, std::int32_t kl, std::int32_t ku)
    : n_(n),
      kl_(kl),
      ku_(ku),
      ld_(2 * kl + ku + 1),
      a_(static_cast<std::size_t>(n) * (2 * kl + ku + 1), 0.0),
      piv_(n, 0) {}

void BandedLU::factor() {
    const std::int32_t n = n_, kl = kl_, ku = ku_;
    for (std::int32_t k = 0; k < n; ++k) {
        const std::int32_t rowEnd = std::min(n - 1, k + kl);
        const std::int32_t colEnd = std::min(n - 1, k + ku + kl);
        std::int32_t p = k;
        double best = std::fabs(a_[index(k, k)]);
        for (std::int32_t i = k + 1; i <= rowEnd; ++i) {
            const double v = std::fabs(a_[index(i, k)]);
            if (v > best) {
                best = v;
                p = i;
            }
        }
        if (best == 0.0) throw SimulationError("gliding: singular z system (zero pivot)");
        piv_[k] = p;
        if (p != k)
            for (std::int32_t j = k; j <= colEnd; ++j)
                std::swap(a_[index(k, j)], a_[index(p, j)]);
        const double inv = 1.0 / a_[index(k, k)];
        for (std::int32_t i = k + 1; i <= rowEnd; ++i) {
            double& l = a_[index(i, k)];
            if (l == 0.0) continue;
            l *= inv;
            for (std::int32_t j = k + 1; j <= colEnd; ++j)
                a_[index(i, j)] -= l * a_[index(k, j)];
        }
    }
}

void BandedLU::solve(double* b) const {
    const std::int32_t n = n_, kl = kl_, ku = ku_;
    for (std::int32_t k = 0; k < n; ++k) {
        if (piv_[k] != k) std::swap(b[k], b[piv_[k]]);
        const std::int32_t rowEnd = std::min(n - 1, k + kl);
        for (std::int32_t i = k + 1; i <= rowEnd; ++i)
            b[i] -= a_[index(i, k)] * b[k];
    }
    for (std::int32_t i = n - 1; i >= 0; --i) {
        double s = b[i];
        const std::int32_t colEnd = std::min(n - 1, i + ku + kl);
        for (std::int32_t j = i + 1; j <= colEnd; ++j)
            s -= a_[index(i, j)] * b[j];
        b[i] = s / a_[index(i, i)];
    }
}

// ----------------------------------------------------------------------------------------------
// Per-mode solves.

void solveTransverse(const ZGrid& g, double eps, double k, double f, std::vector<double>& u) {
    const std::int32_t cells = g.cells(), m = cells - 1;  // interior nodes 1..cells-1
    const double kappa2 = (eps * k) * (eps * k);
    u.assign(cells + 1, 0.0);
    if (m <= 0) return;
    // Row of node j, times its dual width: -u_{j-1}/h- + (1/h- + 1/h+ + kappa^2 dz) u_j -
    // u_{j+1}/h+ = eps^2 f w_j. Symmetric and diagonally dominant; pivoting never swaps, but one
    // routine serves both problems.
    BandedLU lu(m, 1, 1);
    std::vector<double> b(m, 0.0);
    for (std::int32_t r = 0; r < m; ++r) {
        const std::int32_t j = r + 1;
        const double hm = g.h[j - 1], hp = g.h[j];
        lu.at(r, r) = 1.0 / hm + 1.0 / hp + kappa2 * g.dual[j];
        if (r > 0) lu.at(r, r - 1) = -1.0 / hm;
        if (r + 1 < m) lu.at(r, r + 1) = -1.0 / hp;
        b[r] = eps * eps * f * g.weight[j];
    }
    lu.factor();
    lu.solve(b.data());
    for (std::int32_t r = 0; r < m; ++r)
        u[r + 1] = b[r];
}

void solveLongitudinal(const ZGrid& g, double eps, double k, double f, std::vector<double>& u,
                       std::vector<double>* w) {
    if (k == 0.0) {  // no mean pressure gradient: the transverse problem (design M10)
        solveTransverse(g, eps, 0.0, f, u);
        if (w) w->assign(g.cells() + 1, 0.0);
        return;
    }
    const std::int32_t cells = g.cells();
    const std::int32_t n = 3 * cells + 2;  // u_j at 3j, W_j at 3j+1 (j = 0..cells), Pi_c at 3c+2
    const double kappa2 = (eps * k) * (eps * k), e2k = eps * eps * k;
    BandedLU lu(n, 3, 3);
    std::vector<double> b(n, 0.0);
    for (std::int32_t j : {0, cells}) {  // no slip: u = W = 0
        lu.at(3 * j, 3 * j) = 1.0;
        lu.at(3 * j + 1, 3 * j + 1) = 1.0;
    }
    for (std::int32_t j = 1; j < cells; ++j) {
        const double hm = g.h[j - 1], hp = g.h[j];
        const double diag = 1.0 / hm + 1.0 / hp + kappa2 * g.dual[j];
        // u row (x dz): (kappa^2 - d_zz) u - eps^2 k dz Pi_bar = eps^2 f w_j, with the node
        // pressure dz Pi_bar = (hm Pi_{j-1/2} + hp Pi_{j+1/2}) / 2, the adjoint of the cell
        // average in the continuity row.
        const std::int32_t ru = 3 * j;
        lu.at(ru, ru - 3) = -1.0 / hm;
        lu.at(ru, ru) = diag;
        lu.at(ru, ru + 3) = -1.0 / hp;
        lu.at(ru, 3 * (j - 1) + 2) = -0.5 * e2k * hm;
        lu.at(ru, 3 * j + 2) = -0.5 * e2k * hp;
        b[ru] = eps * eps * f * g.weight[j];
        // W row (x dz): (kappa^2 - d_zz) W + (Pi_{j+1/2} - Pi_{j-1/2}) = 0.
        const std::int32_t rw = 3 * j + 1;
        lu.at(rw, rw - 3) = -1.0 / hm;
        lu.at(rw, rw) = diag;
        lu.at(rw, rw + 3) = -1.0 / hp;
        lu.at(rw, 3 * (j - 1) + 2) = -1.0;
        lu.at(rw, 3 * j + 2) = 1.0;
    }
    for (std::int32_t c = 0; c < cells; ++c) {
        // Continuity in cell c (x h_c): k h_c (u_c + u_{c+1}) / 2 + W_{c+1} - W_c = 0.
        const std::int32_t rq = 3 * c + 2;
        lu.at(rq, 3 * c) = 0.5 * k * g.h[c];
        lu.at(rq, 3 * c + 3) = 0.5 * k * g.h[c];
        lu.at(rq, 3 * c + 1) = -1.0;
        lu.at(rq, 3 * c + 4) = 1.0;
    }
    lu.factor();
    lu.solve(b.data());
    // Pivoting may mix a wall row into its neighbours, leaving ~1e-24 round-off in the wall
    // values; the no-slip values are exactly 0, so only the interior nodes are copied.
    u.assign(cells + 1, 0.0);
    for (std::int32_t j = 1; j < cells; ++j)
        u[j] = b[3 * j];
    if (w) {
        w->assign(cells + 1, 0.0);
        for (std::int32_t j = 1; j < cells; ++j)
            (*w)[j] = b[3 * j + 1];
    }
}

Transfer transfer(const ZGrid& g, double eps, double k) {
    std::vector<double> u;
    Transfer t;
    solveTransverse(g, eps, k, 1.0, u);
    t.perp = g.atPlane(u);
    if (k == 0.0) {
        t.par = t.perp;
    } else {
        solveLongitudinal(g, eps, k, 1.0, u);
        t.par = g.atPlane(u);
    }
    return t;
}

double transferAtZero(const ZGrid& g, double eps) {
    double sum = 0;
    for (std::int32_t i = g.first; i <= g.last; ++i)
        for (std::int32_t j = g.first; j <= g.last; ++j) {
            const double lo = std::min(g.z[i], g.z[j]), hi = std::max(g.z[i], g.z[j]);
            sum += g.weight[i] * g.weight[j] * lo * (1.0 - hi);
        }
    return eps * eps * sum;
}

TransferTable precomputeTransfer(const ZGrid& g, double eps, std::int32_t n) {
    TransferTable t;
    t.n = n;
    const std::int32_t nh = n / 2 + 1;
    const std::size_t modes = static_cast<std::size_t>(n) * nh;
    t.par.assign(modes, 0.0);
    t.perp.assign(modes, 0.0);
    // One independent solve per mode, written to its own slot: thread-count independent.
    parallelFor(
        modes,
        [&](std::size_t mode) {
            const std::int32_t ky = static_cast<std::int32_t>(mode / nh);
            const std::int32_t kx = static_cast<std::int32_t>(mode % nh);
            const double kxv = waveNumberX(kx), kyv = waveNumberY(ky, n);
            const Transfer tr = transfer(g, eps, std::sqrt(kxv * kxv + kyv * kyv));
            t.par[mode] = tr.par;
            t.perp[mode] = tr.perp;
        },
        8);
    return t;
}

ProfileTable precomputeProfiles(const ZGrid& g, double eps, std::int32_t n,
                                const std::vector<double>& levels) {
    ProfileTable t;
    t.n = n;
    t.levels = levels;
    const std::size_t nz = levels.size();
    // Each level's cell and linear weight, once.
    std::vector<std::int32_t> cell(nz);
    std::vector<double> frac(nz);
    for (std::size_t l = 0; l < nz; ++l) {
        const double z = levels[l];
        if (!(z >= 0.0 && z <= 1.0))
            throw ParameterError("gliding: profile level z = " + formatShort(z, 3) +
                                 " lies outside the gap [0, 1]");
        const auto it = std::upper_bound(g.z.begin(), g.z.end(), z);
        const std::int32_t c = std::clamp<std::int32_t>(
            static_cast<std::int32_t>(it - g.z.begin()) - 1, 0, g.cells() - 1);
        cell[l] = c;
        frac[l] = (z - g.z[c]) / g.h[c];
    }
    const std::int32_t nh = n / 2 + 1;
    const std::size_t modes = static_cast<std::size_t>(n) * nh;
    t.par.assign(modes * nz, 0.0);
    t.perp.assign(modes * nz, 0.0);
    t.w.assign(modes * nz, 0.0);
    parallelFor(
        modes,
        [&](std::size_t mode) {
            const std::int32_t ky = static_cast<std::int32_t>(mode / nh);
            const std::int32_t kx = static_cast<std::int32_t>(mode % nh);
            const double kxv = waveNumberX(kx), kyv = waveNumberY(ky, n);
            const double k = std::sqrt(kxv * kxv + kyv * kyv);
            std::vector<double> up, uq, w;
            solveTransverse(g, eps, k, 1.0, uq);
            solveLongitudinal(g, eps, k, 1.0, up, &w);
            auto lerp = [&](const std::vector<double>& v, std::size_t l) {
                return (1.0 - frac[l]) * v[cell[l]] + frac[l] * v[cell[l] + 1];
            };
            for (std::size_t l = 0; l < nz; ++l) {
                t.par[mode * nz + l] = lerp(up, l);
                t.perp[mode * nz + l] = lerp(uq, l);
                t.w[mode * nz + l] = lerp(w, l);
            }
        },
        8);
    return t;
}

}  // namespace cf::gliding
