// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/gliding/cpu/fluid_cpu.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/core/parallel.hpp"
#include "sim/models/gliding/periodic_grid.hpp"

namespace cf::gliding {

namespace {

// fftw_plan_many_dft_{r2c,c2r} for two n x n fields stored one after the other (design 3.3).
fftw::Plan planPair(int n, bool forward, fftw::RealBuffer& real, fftw::ComplexBuffer& spec) {
    int dims[2] = {n, n};
    const int realDist = n * n, specDist = n * (n / 2 + 1);
    std::lock_guard<std::mutex> lock(fftw::plannerMutex());
    fftw_plan p = forward
                      ? fftw_plan_many_dft_r2c(2, dims, 2, real.data(), nullptr, 1, realDist,
                                               spec.data(), nullptr, 1, specDist, FFTW_ESTIMATE)
                      : fftw_plan_many_dft_c2r(2, dims, 2, spec.data(), nullptr, 1, specDist,
                                               real.data(), nullptr, 1, realDist, FFTW_ESTIMATE);
    if (!p)
        throw SimulationError(std::string("gliding: FFTW returned no plan for the 2-D ") +
                              (forward ? "r2c" : "c2r") + " fluid transform");
    return fftw::Plan(p);
}

void zeroFlow(FlowField& f, std::size_t cells) {
    for (std::vector<double>* v : {&f.u, &f.v, &f.dudx, &f.dudy, &f.dvdx, &f.dvdy})
        v->assign(cells, 0.0);
}

}  // namespace

void computeStressMoments(const HostState& s, const GlidingTables& t, StressMoments& m) {
    const std::size_t cells = static_cast<std::size_t>(s.n) * s.n;
    for (std::vector<double>* v :
         {&m.c, &m.d11, &m.d12, &m.d22, &m.s1111, &m.s1112, &m.s1122, &m.s1222, &m.s2222})
        v->assign(cells, 0.0);
    parallelFor(
        cells,
        [&](std::size_t cell) {
            const CellStress cs = orbitStressMoments(s.psi.data() + cell * s.ntheta, t.cosT.data(),
                                                     t.sinT.data(), s.ntheta, t.dtheta);
            m.c[cell] = cs.c;
            m.d11[cell] = cs.d11;
            m.d12[cell] = cs.d12;
            m.d22[cell] = cs.d22;
            m.s1111[cell] = cs.s1111;
            m.s1112[cell] = cs.s1112;
            m.s1122[cell] = cs.s1122;
            m.s1222[cell] = cs.s1222;
            m.s2222[cell] = cs.s2222;
        },
        64);
}

FluidCpu::FluidCpu(const GlidingParams& p, const GlidingTables& t)
    : n_(t.n),
      dx_(t.dx),
      zgrid_(buildZGrid(p)),
      table_(precomputeTransfer(zgrid_, p.eps, t.n)),
      response_(fluidResponse(table_, t.dx)) {
    const int n = n_, nh = n / 2 + 1;
    const std::size_t modes = static_cast<std::size_t>(n) * nh;
    const std::size_t cells = static_cast<std::size_t>(n) * n;
    real_ = fftw::RealBuffer(2 * cells);
    realOut_ = fftw::RealBuffer(2 * cells);
    spec_ = fftw::ComplexBuffer(2 * modes);
    specIn_ = fftw::ComplexBuffer(2 * modes);
    forward_ = planPair(n, true, real_, spec_);
    backward_ = planPair(n, false, realOut_, specIn_);
}

double FluidCpu::lagFactor(const GlidingParams& p, double cmax) const {
    return (3.0 * cmax / 8.0) * p.sigmaF * response_.lagSymbolMax;
}

std::int32_t FluidCpu::iterations(const GlidingParams& p, double cmax) const {
    if (p.fluidIterations > 0) return p.fluidIterations;
    return lagFactor(p, cmax) > 0.5 ? 3 : 1;
}

void FluidCpu::forcing(const GlidingParams& p, const StressMoments& m,
                       const std::vector<double>& fx, const std::vector<double>& fy,
                       const FlowField& lagged, std::vector<double>& gx,
                       std::vector<double>& gy) const {
    const int n = n_;
    const std::size_t cells = static_cast<std::size_t>(n) * n;
    const bool hasFlow = lagged.dudx.size() == cells;
    const bool hasForce = fx.size() == cells && fy.size() == cells;
    const double sf = p.sigmaF;
    const double st =
        p.stericReading == static_cast<std::int32_t>(StericReading::Strain) ? 0.0 : p.sigmaT;
    // The combined extra stress sigma_f S:E - sigma_t (D.D - S:D) per cell (design M10).
    std::vector<double> t11(cells), t12(cells), t22(cells);
    parallelFor(
        cells,
        [&](std::size_t i) {
            const CellStress cs{m.c[i],     m.d11[i],   m.d12[i],   m.d22[i],  m.s1111[i],
                                m.s1112[i], m.s1122[i], m.s1222[i], m.s2222[i]};
            const Sym2 r = hasFlow ? extraStress(cs, true, lagged.dudx[i], lagged.dudy[i],
                                                 lagged.dvdx[i], lagged.dvdy[i], sf, st)
                                   : extraStress(cs, false, 0, 0, 0, 0, sf, st);
            t11[i] = r.t11;
            t12[i] = r.t12;
            t22[i] = r.t22;
        },
        256);
    gx.assign(cells, 0.0);
    gy.assign(cells, 0.0);
    const double inv2 = 0.5 / dx_;
    parallelFor(
        cells,
        [&](std::size_t i) {
            const auto [xm, xp, ym, yp] = neighboursOf(i, n);
            gx[i] = forcingAt(hasForce ? fx[i] : 0.0, t11[xm], t11[xp], t12[ym], t12[yp], inv2);
            gy[i] = forcingAt(hasForce ? fy[i] : 0.0, t12[xm], t12[xp], t22[ym], t22[yp], inv2);
        },
        256);
}

void FluidCpu::applyStokes(const std::vector<double>& gx, const std::vector<double>& gy,
                           FlowField& out) {
    const int n = n_, nh = n / 2 + 1;
    const std::size_t cells = static_cast<std::size_t>(n) * n;
    const std::size_t modes = static_cast<std::size_t>(n) * nh;
    if (gx.size() != cells || gy.size() != cells)
        throw SimulationError("gliding: fluid forcing has the wrong size");
    std::copy(gx.begin(), gx.end(), real_.data());
    std::copy(gy.begin(), gy.end(), real_.data() + cells);
    forward_.execute();
    // u^ = M f^ / n^2 per mode (FFTW is unnormalised); specIn_ is c2r's own input, which c2r
    // overwrites, so spec_ stays intact.
    const double norm = 1.0 / static_cast<double>(cells);
    const fftw_complex* fx = spec_.data();
    const fftw_complex* fy = spec_.data() + modes;
    fftw_complex* ux = specIn_.data();
    fftw_complex* uy = specIn_.data() + modes;
    parallelFor(
        modes,
        [&](std::size_t k) {
            const Sym2 m{response_.mxx[k], response_.mxy[k], response_.myy[k]};
            for (int part = 0; part < 2; ++part) {
                const ModeVelocity w = stokesAt(m, norm, fx[k][part], fy[k][part]);
                ux[k][part] = w.ux;
                uy[k][part] = w.uy;
            }
        },
        1024);
    backward_.execute();
    zeroFlow(out, cells);
    const double* u = realOut_.data();
    const double* v = realOut_.data() + cells;
    std::copy(u, u + cells, out.u.begin());
    std::copy(v, v + cells, out.v.begin());
    const double inv2 = 0.5 / dx_;
    parallelFor(
        cells,
        [&](std::size_t i) {
            const auto [xm, xp, ym, yp] = neighboursOf(i, n);
            out.dudx[i] = centred(u[xm], u[xp], inv2);
            out.dudy[i] = centred(u[ym], u[yp], inv2);
            out.dvdx[i] = centred(v[xm], v[xp], inv2);
            out.dvdy[i] = centred(v[ym], v[yp], inv2);
        },
        256);
}

void FluidCpu::lastForcing(std::vector<double>& gx, std::vector<double>& gy) const {
    const std::size_t cells = static_cast<std::size_t>(n_) * n_;
    if (gx_.size() != cells) {  // no solve with the fluid on yet: no forcing
        gx.assign(cells, 0.0);
        gy.assign(cells, 0.0);
        return;
    }
    gx = gx_;
    gy = gy_;
}

void FluidCpu::solve(const GlidingParams& p, const GlidingTables& t, const HostState& s,
                     const std::vector<double>& fx, const std::vector<double>& fy,
                     FlowField& flow) {
    const std::size_t cells = static_cast<std::size_t>(n_) * n_;
    if (s.n != n_ || t.n != n_)
        throw SimulationError("gliding: fluid solver built for another grid size");
    if (!p.fluidEnabled) {
        zeroFlow(flow, cells);
        lastIterations_ = 0;
        return;
    }
    if (flow.u.size() != cells) zeroFlow(flow, cells);  // first step: fluid at rest (design M15)
    computeStressMoments(s, t, moments_);
    double cmax = 0;
    for (double c : moments_.c)  // fixed order, max only: thread-count independent
        cmax = std::max(cmax, c);
    lastCmax_ = cmax;
    lastIterations_ = iterations(p, cmax);
    for (std::int32_t it = 0; it < lastIterations_; ++it) {
        forcing(p, moments_, fx, fy, flow, gx_, gy_);
        applyStokes(gx_, gy_, flow);
    }
}

}  // namespace cf::gliding
