// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/gliding/cpu/smoluchowski_cpu.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

#include "sim/core/parallel.hpp"

namespace cf::gliding {

namespace {

// Periodic neighbour index.
inline int wrap(int i, int n) {
    return i < 0 ? i + n : (i >= n ? i - n : i);
}

// The four periodic x/y neighbours of a cell of the n x n grid (x fastest).
struct Neighbours {
    std::size_t xm, xp, ym, yp;
};

inline Neighbours neighboursOf(std::size_t cell, int n) {
    const int ix = static_cast<int>(cell % n), iy = static_cast<int>(cell / n);
    const auto row = static_cast<std::size_t>(iy) * n;
    return {row + wrap(ix - 1, n), row + wrap(ix + 1, n),
            static_cast<std::size_t>(wrap(iy - 1, n)) * n + ix,
            static_cast<std::size_t>(wrap(iy + 1, n)) * n + ix};
}

// Donor-cell flux through a face with velocity v between upwind-left value l and right r
// (G:358-359). Negating v negates the flux exactly, which the quarter-turn symmetry needs.
inline double upwind(double v, double l, double r) {
    return std::max(v, 0.0) * l + std::min(v, 0.0) * r;
}

// D:pp at p = (co, si), grouped so that a quarter turn (D11 <-> D22, D12 -> -D12,
// (co, si) -> (-si, co)) gives the same bits.
inline double dpp(double d11, double d12, double d22, double co, double si) {
    return (d11 * (co * co) + d22 * (si * si)) + 2.0 * d12 * (co * si);
}

// p_perp . D . p at the face angle (fc, fs) (design 2.3), grouped for the same reason.
inline double stericTorque(double d11, double d12, double d22, double fc, double fs) {
    return (fc * fs) * (d22 - d11) + ((fc * fc) - (fs * fs)) * d12;
}

}  // namespace

void computeMoments(const HostState& s, const GlidingTables& t, Moments& m) {
    const std::size_t cells = static_cast<std::size_t>(s.n) * s.n;
    for (std::vector<double>* v : {&m.c, &m.px, &m.py, &m.d11, &m.d12, &m.d22})
        v->assign(cells, 0.0);
    const int nt = s.ntheta, q4 = nt / 4;
    const double dth = t.dtheta;
    parallelFor(
        cells,
        [&](std::size_t cell) {
            const double* psi = s.psi.data() + cell * nt;
            double c = 0, px = 0, py = 0, d11 = 0, d12 = 0, d22 = 0;
            // One quarter-turn orbit per q: opposite members are added first, so a cyclic
            // shift of the orbit (a quarter turn of the state) leaves every partial sum equal.
            for (int q = 0; q < q4; ++q) {
                const double a = psi[q], b = psi[q + q4], cc = psi[q + 2 * q4], d = psi[q + 3 * q4];
                const double co = t.cosT[q], si = t.sinT[q];
                const double sAC = a + cc, sBD = b + d, dAC = a - cc, dBD = b - d;
                c += sAC + sBD;
                px += co * dAC - si * dBD;
                py += si * dAC + co * dBD;
                d11 += (co * co) * sAC + (si * si) * sBD;
                d22 += (si * si) * sAC + (co * co) * sBD;
                d12 += (co * si) * (sAC - sBD);
            }
            m.c[cell] = c * dth;
            m.px[cell] = px * dth;
            m.py[cell] = py * dth;
            m.d11[cell] = d11 * dth;
            m.d12[cell] = d12 * dth;
            m.d22[cell] = d22 * dth;
        },
        64);
}

double advectiveOperator(const GlidingParams& p, const GlidingTables& t, const HostState& s,
                         const Moments& m, std::vector<double>& a) {
    const int n = s.n, nt = s.ntheta;
    const std::size_t cells = static_cast<std::size_t>(n) * n;
    a.assign(cells * nt, 0.0);
    // D:pp at the cell-centre angles, for the Maier-Saupe translational velocity (G:359).
    std::vector<double> pp(cells * nt, 0.0);
    if (p.ut != 0.0) {
        parallelFor(
            cells,
            [&](std::size_t cell) {
                for (int j = 0; j < nt; ++j)
                    pp[cell * nt + j] =
                        dpp(m.d11[cell], m.d12[cell], m.d22[cell], t.cosT[j], t.sinT[j]);
            },
            64);
    }
    std::vector<double> rate(cells, 0.0);
    const double inv = 1.0 / t.dx, invTh = 1.0 / t.dtheta;
    const double vsp = p.vsp, ut = p.ut, ur = p.ur;
    parallelFor(
        cells,
        [&](std::size_t cell) {
            const auto [xm, xp, ym, yp] = neighboursOf(cell, n);
            const double* psi = s.psi.data();
            const double* ppc = pp.data();
            double cellRate = 0;
            for (int j = 0; j < nt; ++j) {
                const double co = t.cosT[j], si = t.sinT[j];
                const double here = psi[cell * nt + j];
                // x faces i-1/2 and i+1/2; y faces likewise (design 2.3).
                const double axm = -vsp * co + ut * (ppc[cell * nt + j] - ppc[xm * nt + j]) * inv;
                const double axp = -vsp * co + ut * (ppc[xp * nt + j] - ppc[cell * nt + j]) * inv;
                const double aym = -vsp * si + ut * (ppc[cell * nt + j] - ppc[ym * nt + j]) * inv;
                const double ayp = -vsp * si + ut * (ppc[yp * nt + j] - ppc[cell * nt + j]) * inv;
                const double divX =
                    (upwind(axp, here, psi[xp * nt + j]) - upwind(axm, psi[xm * nt + j], here)) *
                    inv;
                const double divY =
                    (upwind(ayp, here, psi[yp * nt + j]) - upwind(aym, psi[ym * nt + j], here)) *
                    inv;
                // theta faces m-1/2 = face j-1 and m+1/2 = face j, evaluated at the face angle.
                const int jm = wrap(j - 1, nt), jp = wrap(j + 1, nt);
                const double bm = ur * stericTorque(m.d11[cell], m.d12[cell], m.d22[cell],
                                                    t.faceCos[jm], t.faceSin[jm]);
                const double bp = ur * stericTorque(m.d11[cell], m.d12[cell], m.d22[cell],
                                                    t.faceCos[j], t.faceSin[j]);
                const double divT = (upwind(bp, here, psi[cell * nt + jp]) -
                                     upwind(bm, psi[cell * nt + jm], here)) *
                                    invTh;
                // (divX + divY) first: a quarter turn swaps them.
                a[cell * nt + j] = -((divX + divY) + divT);
                const double r = (std::max(std::fabs(axm), std::fabs(axp)) * inv +
                                  std::max(std::fabs(aym), std::fabs(ayp)) * inv) +
                                 std::max(std::fabs(bm), std::fabs(bp)) * invTh;
                cellRate = std::max(cellRate, r);
            }
            rate[cell] = cellRate;
        },
        16);
    return *std::max_element(rate.begin(), rate.end());
}

void diffusionOperator(const GlidingParams& p, const GlidingTables& t, const HostState& s,
                       std::vector<double>& out) {
    const int n = s.n, nt = s.ntheta;
    const std::size_t cells = static_cast<std::size_t>(n) * n;
    out.assign(cells * nt, 0.0);
    const double cx = p.diffT / (t.dx * t.dx), ct = p.diffR / (t.dtheta * t.dtheta);
    parallelFor(
        cells,
        [&](std::size_t cell) {
            const auto [xm, xp, ym, yp] = neighboursOf(cell, n);
            const double* psi = s.psi.data();
            for (int j = 0; j < nt; ++j) {
                const double here = psi[cell * nt + j];
                const double sx = psi[xm * nt + j] + psi[xp * nt + j];
                const double sy = psi[ym * nt + j] + psi[yp * nt + j];
                const double st =
                    psi[cell * nt + wrap(j - 1, nt)] + psi[cell * nt + wrap(j + 1, nt)];
                out[cell * nt + j] = cx * ((sx + sy) - 4.0 * here) + ct * (st - 2.0 * here);
            }
        },
        64);
}

SmoluchowskiCpu::SmoluchowskiCpu(const GlidingTables& t)
    : n_(t.n),
      ntheta_(t.ntheta),
      real_(static_cast<std::size_t>(t.n) * t.n * t.ntheta),
      spec_(static_cast<std::size_t>(t.n) * t.n * (t.ntheta / 2 + 1)) {
    forward_ = fftw::planR2C3d(n_, n_, ntheta_, real_, spec_);
    backward_ = fftw::planC2R3d(n_, n_, ntheta_, spec_, real_);
}

double SmoluchowskiCpu::cflStep(const GlidingParams& p, const GlidingTables& t,
                                const HostState& s) {
    computeMoments(s, t, moments_);
    const double rate = advectiveOperator(p, t, s, moments_, a_);
    // The next step() on this state reuses A^n and its rate instead of computing them again.
    evaluatedFor_ = s.psi.data();
    evaluatedRate_ = rate;
    // No advection at all: nothing limits the step but the fixed step and the growth limit.
    double dt = rate > 0 ? p.courantOut / rate : p.dt;
    if (steps_ > 0) dt = std::min(dt, p.growthLimit * dtPrev_);
    return dt;
}

double SmoluchowskiCpu::step(const GlidingParams& p, const GlidingTables& t, HostState& s,
                             double dt) {
    double rate = evaluatedRate_;
    if (evaluatedFor_ != s.psi.data()) {  // no cflStep on this state just before: evaluate A^n
        computeMoments(s, t, moments_);
        rate = advectiveOperator(p, t, s, moments_, a_);
    }
    evaluatedFor_ = nullptr;
    diffusionOperator(p, t, s, lap_);
    // Variable-step AB2 weights (G:364); the first step is forward Euler.
    const double w = steps_ == 0 ? 0.0 : dt / dtPrev_;
    const double cNow = dt * (1.0 + 0.5 * w), cOld = dt * (0.5 * w);
    const double half = 0.5 * dt;
    const std::size_t total = s.psi.size();
    const bool history = steps_ > 0;
    double* r = real_.data();
    parallelFor(total, [&](std::size_t i) {
        const double adv = history ? cNow * a_[i] - cOld * aPrev_[i] : cNow * a_[i];
        r[i] = s.psi[i] + half * lap_[i] + adv;
    });
    forward_.execute();
    // Divide by (1 - dt/2 Lambda) and by N^2 Ntheta (FFTW's transforms are unnormalised).
    const int n = n_, nh = ntheta_ / 2 + 1;
    const double norm = 1.0 / (static_cast<double>(n) * n * ntheta_);
    fftw_complex* z = spec_.data();
    parallelFor(
        static_cast<std::size_t>(n) * n,
        [&](std::size_t row) {
            const int kx = static_cast<int>(row % n), ky = static_cast<int>(row / n);
            const double lx = p.diffT * (t.sigmaX[kx] + t.sigmaX[ky]);
            for (int m = 0; m < nh; ++m) {
                const double lambda = -lx - p.diffR * t.sigmaTheta[m];
                const double f = norm / (1.0 - half * lambda);
                z[row * nh + m][0] *= f;
                z[row * nh + m][1] *= f;
            }
        },
        64);
    backward_.execute();
    std::copy(r, r + total, s.psi.begin());
    std::swap(a_, aPrev_);
    dtPrev_ = dt;
    ++steps_;
    return rate;
}

}  // namespace cf::gliding
