// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/gliding/cpu/smoluchowski_cpu.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

#include "sim/core/parallel.hpp"

namespace cf::gliding {

void computeMoments(const HostState& s, const GlidingTables& t, Moments& m) {
    const std::size_t cells = static_cast<std::size_t>(s.n) * s.n;
    for (std::vector<double>* v : {&m.c, &m.px, &m.py, &m.d11, &m.d12, &m.d22})
        v->assign(cells, 0.0);
    const int nt = s.ntheta;
    parallelFor(
        cells,
        [&](std::size_t cell) {
            const CellMoments cm =
                orbitMoments(s.psi.data() + cell * nt, t.cosT.data(), t.sinT.data(), nt, t.dtheta);
            m.c[cell] = cm.c;
            m.px[cell] = cm.px;
            m.py[cell] = cm.py;
            m.d11[cell] = cm.d11;
            m.d12[cell] = cm.d12;
            m.d22[cell] = cm.d22;
        },
        64);
}

double advectiveOperator(const GlidingParams& p, const GlidingTables& t, const HostState& s,
                         const Moments& m, std::vector<double>& a, const FlowAtZ0* flow) {
    const int n = s.n, nt = s.ntheta;
    const std::size_t cells = static_cast<std::size_t>(n) * n;
    a.assign(cells * nt, 0.0);
    // D:pp at the cell-centre angles, for the Maier-Saupe translational velocity (design M12).
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
    const AdvectionCoefficients k{p.vsp, p.ut, p.ur, 1.0 / t.dx, 1.0 / t.dtheta};
    parallelFor(
        cells,
        [&](std::size_t cell) {
            const auto [xm, xp, ym, yp] = neighboursOf(cell, n);
            const double* psi = s.psi.data();
            const double* ppc = pp.data();
            CellFlow around{};
            if (flow != nullptr) around = cellFlow(*flow, cell, xm, xp, ym, yp);
            double cellRate = 0;
            for (int j = 0; j < nt; ++j) {
                // theta faces m-1/2 = face j-1 and m+1/2 = face j.
                const int jm = wrapIndex(j - 1, nt), jp = wrapIndex(j + 1, nt);
                const AdvectionStencil st{
                    psi[cell * nt + j],  psi[xm * nt + j],   psi[xp * nt + j],
                    psi[ym * nt + j],    psi[yp * nt + j],   psi[cell * nt + jm],
                    psi[cell * nt + jp], ppc[cell * nt + j], ppc[xm * nt + j],
                    ppc[xp * nt + j],    ppc[ym * nt + j],   ppc[yp * nt + j],
                    t.cosT[j],           t.sinT[j],          t.faceCos[jm],
                    t.faceSin[jm],       t.faceCos[j],       t.faceSin[j],
                    m.d11[cell],         m.d12[cell],        m.d22[cell]};
                const AdvectionValue v = advectionAt(k, st, flow != nullptr ? &around : nullptr);
                a[cell * nt + j] = v.a;
                cellRate = maxOf(cellRate, v.rate);
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
                    psi[cell * nt + wrapIndex(j - 1, nt)] + psi[cell * nt + wrapIndex(j + 1, nt)];
                out[cell * nt + j] = diffusionAt(cx, ct, here, sx, sy, st);
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

double SmoluchowskiCpu::cflStep(const GlidingParams& p, const GlidingTables& t, const HostState& s,
                                const FlowAtZ0* flow) {
    computeMoments(s, t, moments_);
    const double rate = advectiveOperator(p, t, s, moments_, a_, flow);
    // The next step() on this state reuses A^n and its rate instead of computing them again.
    evaluatedFor_ = s.psi.data();
    evaluatedFlow_ = flow;
    evaluatedRate_ = rate;
    // No advection at all: nothing limits the step but the fixed step and the growth limit.
    return cflDt(rate, p.courantOut, p.dt, p.growthLimit, dtPrev_, steps_ > 0);
}

double SmoluchowskiCpu::step(const GlidingParams& p, const GlidingTables& t, HostState& s,
                             double dt, const FlowAtZ0* flow) {
    double rate = evaluatedRate_;
    // No cflStep on this state and flow just before: evaluate A^n.
    if (evaluatedFor_ != s.psi.data() || evaluatedFlow_ != flow) {
        computeMoments(s, t, moments_);
        rate = advectiveOperator(p, t, s, moments_, a_, flow);
    }
    evaluatedFor_ = nullptr;
    diffusionOperator(p, t, s, lap_);
    // Variable-step AB2 weights (design M12); the first step is forward Euler.
    const CnWeights k = cnWeights(dt, dtPrev_, steps_ > 0);
    const std::size_t total = s.psi.size();
    double* r = real_.data();
    parallelFor(total, [&](std::size_t i) {
        r[i] = cnRhsAt(k, s.psi[i], lap_[i], a_[i], k.history ? aPrev_[i] : 0.0);
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
            for (int m = 0; m < nh; ++m) {
                const double f = cnFactor(p.diffT, p.diffR, t.sigmaX[kx], t.sigmaX[ky],
                                          t.sigmaTheta[m], k.half, norm);
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
