// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/gliding/cpu/fluid_cpu.hpp"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/core/parallel.hpp"

namespace cf::gliding {

namespace {

inline int wrap(int i, int n) {
    return i < 0 ? i + n : (i >= n ? i - n : i);
}

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
    const int nt = s.ntheta, q4 = nt / 4;
    const double dth = t.dtheta;
    parallelFor(
        cells,
        [&](std::size_t cell) {
            const double* psi = s.psi.data() + cell * nt;
            double c = 0, d11 = 0, d12 = 0, d22 = 0, s40 = 0, s31 = 0, s22 = 0, s13 = 0, s04 = 0;
            // Orbit (q, q + Q, q + 2Q, q + 3Q): p = (co, si), (-si, co), (-co, -si), (si, -co).
            // Even powers see sAC and sBD with the roles of co and si swapped; each product of
            // components is one named factor, so the quarter-turn images are exact.
            for (int q = 0; q < q4; ++q) {
                const double a = psi[q], b = psi[q + q4], cc = psi[q + 2 * q4], d = psi[q + 3 * q4];
                const double co = t.cosT[q], si = t.sinT[q];
                const double sAC = a + cc, sBD = b + d;
                const double c2 = co * co, s2 = si * si, cs = co * si;
                const double c4 = c2 * c2, s4 = s2 * s2, c2s2 = c2 * s2;
                const double t31 = c2 * cs, t13 = s2 * cs;  // co^3 si, co si^3
                c += sAC + sBD;
                d11 += c2 * sAC + s2 * sBD;
                d22 += s2 * sAC + c2 * sBD;
                d12 += cs * (sAC - sBD);
                s40 += c4 * sAC + s4 * sBD;
                s04 += s4 * sAC + c4 * sBD;
                s22 += c2s2 * (sAC + sBD);
                s31 += t31 * sAC - t13 * sBD;
                s13 += t13 * sAC - t31 * sBD;
            }
            m.c[cell] = c * dth;
            m.d11[cell] = d11 * dth;
            m.d12[cell] = d12 * dth;
            m.d22[cell] = d22 * dth;
            m.s1111[cell] = s40 * dth;
            m.s1112[cell] = s31 * dth;
            m.s1122[cell] = s22 * dth;
            m.s1222[cell] = s13 * dth;
            m.s2222[cell] = s04 * dth;
        },
        64);
}

FluidCpu::FluidCpu(const GlidingParams& p, const GlidingTables& t)
    : n_(t.n), dx_(t.dx), zgrid_(buildZGrid(p)), table_(precomputeTransfer(zgrid_, p.eps, t.n)) {
    const int n = n_, nh = n / 2 + 1;
    const std::size_t modes = static_cast<std::size_t>(n) * nh;
    mxx_.assign(modes, 0.0);
    mxy_.assign(modes, 0.0);
    myy_.assign(modes, 0.0);
    for (std::size_t mode = 0; mode < modes; ++mode) {
        const int ky = static_cast<int>(mode / nh), kx = static_cast<int>(mode % nh);
        const double tpar = table_.par[mode], tperp = table_.perp[mode];
        if (kx == 0 && ky == 0) {  // both components use T(0) (G:321)
            mxx_[mode] = myy_[mode] = tperp;
            continue;
        }
        const double kxv = waveNumberX(kx), kyv = waveNumberY(ky, n);
        const double k2 = kxv * kxv + kyv * kyv;
        const double dt = tpar - tperp;
        mxx_[mode] = tperp + dt * (kxv * kxv) / k2;
        // A Nyquist component cannot tell +k from -k on the grid: the R2C entry (n/2, ky) is
        // the conjugate partner of (n/2, -ky), so M must be even in that component for the
        // result to stay Hermitian (real). Use the average of the aliases: Mxy = 0 there
        // (Mxx, Myy are even anyway); rows and columns alike, so a quarter turn maps the rule
        // onto itself.
        const bool nyquist = 2 * kx == n || 2 * ky == n;
        mxy_[mode] = nyquist ? 0.0 : dt * (kxv * kyv) / k2;
        myy_[mode] = tperp + dt * (kyv * kyv) / k2;
    }
    // The lagged sigma^f pass u -> T div(sigma_f S:E(u)) has, for an isotropic S of density c,
    // the eigenvalue (3c/8) sigma_f T_par(k) |k~|^2 on longitudinal modes (c/8 sigma_f T_perp
    // |k~|^2 on transverse ones, smaller since T_perp <= 2 T_par), k~ = sin(k dx)/dx per axis.
    lagSymbolMax_ = 0;
    for (std::size_t mode = 0; mode < modes; ++mode) {
        const int ky = static_cast<int>(mode / nh), kx = static_cast<int>(mode % nh);
        const double sx = std::sin(waveNumberX(kx) * dx_) / dx_;
        const double sy = std::sin(waveNumberY(ky, n) * dx_) / dx_;
        lagSymbolMax_ = std::max(lagSymbolMax_, table_.par[mode] * (sx * sx + sy * sy));
    }
    const std::size_t cells = static_cast<std::size_t>(n) * n;
    real_ = fftw::RealBuffer(2 * cells);
    realOut_ = fftw::RealBuffer(2 * cells);
    spec_ = fftw::ComplexBuffer(2 * modes);
    specIn_ = fftw::ComplexBuffer(2 * modes);
    forward_ = planPair(n, true, real_, spec_);
    backward_ = planPair(n, false, realOut_, specIn_);
}

double FluidCpu::lagFactor(const GlidingParams& p, double cmax) const {
    return (3.0 * cmax / 8.0) * p.sigmaF * lagSymbolMax_;
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
    // The combined extra stress sigma_f S:E - sigma_t (D.D - S:D) per cell (G:283-286).
    std::vector<double> t11(cells), t12(cells), t22(cells);
    parallelFor(
        cells,
        [&](std::size_t i) {
            const double a = m.s1111[i], b = m.s1112[i], c = m.s1122[i], d = m.s1222[i],
                         e = m.s2222[i];
            double r11 = 0, r12 = 0, r22 = 0;
            if (hasFlow && sf != 0.0) {
                const double e11 = lagged.dudx[i], e22 = lagged.dvdy[i];
                const double e12 = 0.5 * (lagged.dudy[i] + lagged.dvdx[i]);
                r11 += sf * (a * e11 + 2.0 * b * e12 + c * e22);
                r12 += sf * (b * e11 + 2.0 * c * e12 + d * e22);
                r22 += sf * (c * e11 + 2.0 * d * e12 + e * e22);
            }
            if (st != 0.0) {
                const double d11 = m.d11[i], d12 = m.d12[i], d22 = m.d22[i];
                const double dd11 = d11 * d11 + d12 * d12, dd22 = d12 * d12 + d22 * d22;
                const double dd12 = d12 * (d11 + d22);
                const double sd11 = a * d11 + 2.0 * b * d12 + c * d22;
                const double sd12 = b * d11 + 2.0 * c * d12 + d * d22;
                const double sd22 = c * d11 + 2.0 * d * d12 + e * d22;
                r11 -= st * (dd11 - sd11);
                r12 -= st * (dd12 - sd12);
                r22 -= st * (dd22 - sd22);
            }
            t11[i] = r11;
            t12[i] = r12;
            t22[i] = r22;
        },
        256);
    gx.assign(cells, 0.0);
    gy.assign(cells, 0.0);
    const double inv2 = 0.5 / dx_;
    parallelFor(
        cells,
        [&](std::size_t i) {
            const auto [xm, xp, ym, yp] = neighboursOf(i, n);
            const double divx = (t11[xp] - t11[xm]) * inv2 + (t12[yp] - t12[ym]) * inv2;
            const double divy = (t12[xp] - t12[xm]) * inv2 + (t22[yp] - t22[ym]) * inv2;
            gx[i] = (hasForce ? fx[i] : 0.0) + divx;
            gy[i] = (hasForce ? fy[i] : 0.0) + divy;
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
            const double a = mxx_[k] * norm, b = mxy_[k] * norm, c = myy_[k] * norm;
            for (int part = 0; part < 2; ++part) {
                ux[k][part] = a * fx[k][part] + b * fy[k][part];
                uy[k][part] = b * fx[k][part] + c * fy[k][part];
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
            out.dudx[i] = (u[xp] - u[xm]) * inv2;
            out.dudy[i] = (u[yp] - u[ym]) * inv2;
            out.dvdx[i] = (v[xp] - v[xm]) * inv2;
            out.dvdy[i] = (v[yp] - v[ym]) * inv2;
        },
        256);
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
    if (flow.u.size() != cells) zeroFlow(flow, cells);  // first step: the fluid at rest (G:412)
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
