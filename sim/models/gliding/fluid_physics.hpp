// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The per-cell and per-mode arithmetic of the thin-gap Stokes solve of `gliding`
// (docs/design/gliding.md 2.8, 3.2; design M6, M9, M10), shared by the CPU reference
// (cpu/fluid_cpu.cpp) and the CUDA kernels (cuda/fluid_kernels.cu) so that both do the same
// operations in the same order. Host code is built with -ffp-contract=off and the kernels with
// --fmad=false, so the stress moments, stresses, forcing, the per-mode response and the
// gradients round alike; only the FFTs (FFTW vs cuFFT) differ between the backends.
//
// The response tensor is also built here, on the host, by both backends (fluidResponse), so
// the two multiply by the same bytes.
#include <math.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/core/host_device.hpp"
#include "sim/models/gliding/gliding_zgrid.hpp"

namespace cf::gliding {

// u2(z0) and its centred gradient, per cell [iy * n + ix]. Empty vectors mean the fluid at rest.
struct FlowField {
    std::vector<double> u, v, dudx, dudy, dvdx, dvdy;
};

// Density, second moment D and fourth moment S of one cell (design M6), unnormalised.
struct CellStress {
    double c, d11, d12, d22, s1111, s1112, s1122, s1222, s2222;
};

// The moments of the ntheta values psi[0..ntheta) of one cell, summed over quarter-turn orbits
// (q, q + Q, q + 2Q, q + 3Q) with p = (co, si), (-si, co), (-co, -si), (si, -co): even powers
// see sAC and sBD with the roles of co and si swapped, and each product of components is one
// named factor, so a quarter turn of Psi maps the moments onto each other bit for bit.
CF_HD CellStress orbitStressMoments(const double* psi, const double* cosT, const double* sinT,
                                    int ntheta, double dtheta) {
    const int q4 = ntheta / 4;
    double c = 0, d11 = 0, d12 = 0, d22 = 0, s40 = 0, s31 = 0, s22 = 0, s13 = 0, s04 = 0;
    for (int q = 0; q < q4; ++q) {
        const double a = psi[q], b = psi[q + q4], cc = psi[q + 2 * q4], d = psi[q + 3 * q4];
        const double co = cosT[q], si = sinT[q];
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
    return {c * dtheta,   d11 * dtheta, d12 * dtheta, d22 * dtheta, s40 * dtheta,
            s31 * dtheta, s22 * dtheta, s13 * dtheta, s04 * dtheta};
}

// A symmetric in-plane tensor (11, 12, 22).
struct Sym2 {
    double t11, t12, t22;
};

// The combined extra stress sigma_f S:E - sigma_t (D.D - S:D) of one cell (design M10) for the
// lagged gradient (dudx, dudy, dvdx, dvdy). hasFlow false (the fluid at rest) or sf = 0 drops
// the S:E term and st = 0 the steric one, without arithmetic on them.
CF_HD Sym2 extraStress(const CellStress& m, bool hasFlow, double dudx, double dudy, double dvdx,
                       double dvdy, double sf, double st) {
    const double a = m.s1111, b = m.s1112, c = m.s1122, d = m.s1222, e = m.s2222;
    double r11 = 0, r12 = 0, r22 = 0;
    if (hasFlow && sf != 0.0) {
        const double e11 = dudx, e22 = dvdy;
        const double e12 = 0.5 * (dudy + dvdx);
        r11 += sf * (a * e11 + 2.0 * b * e12 + c * e22);
        r12 += sf * (b * e11 + 2.0 * c * e12 + d * e22);
        r22 += sf * (c * e11 + 2.0 * d * e12 + e * e22);
    }
    if (st != 0.0) {
        const double d11 = m.d11, d12 = m.d12, d22 = m.d22;
        const double dd11 = d11 * d11 + d12 * d12, dd22 = d12 * d12 + d22 * d22;
        const double dd12 = d12 * (d11 + d22);
        const double sd11 = a * d11 + 2.0 * b * d12 + c * d22;
        const double sd12 = b * d11 + 2.0 * c * d12 + d * d22;
        const double sd22 = c * d11 + 2.0 * d * d12 + e * d22;
        r11 -= st * (dd11 - sd11);
        r12 -= st * (dd12 - sd12);
        r22 -= st * (dd22 - sd22);
    }
    return {r11, r12, r22};
}

// One component of the in-plane forcing at a cell: the motor force plus the centred divergence
// of a stress row, (txp - txm)/(2 dx) + (typ - tym)/(2 dx) with inv2 = 1/(2 dx).
CF_HD double forcingAt(double force, double txm, double txp, double tym, double typ, double inv2) {
    return force + ((txp - txm) * inv2 + (typ - tym) * inv2);
}

// The centred difference (right - left)/(2 dx), inv2 = 1/(2 dx).
CF_HD double centred(double left, double right, double inv2) {
    return (right - left) * inv2;
}

// The response tensor of one R2C mode (Mxx, Mxy, Myy) = T_perp I + (T_par - T_perp) k^k^ for
// the wavevector (kx, ky) (2 pi times the signed mode numbers). The mean mode uses T(0) for both
// components (design M10). A Nyquist component cannot tell +k from -k on the grid: the R2C entry
// (n/2, ky) is the conjugate partner of (n/2, -ky), so M must be even in that component for the
// result to stay real; the average of the aliases is Mxy = 0 there (Mxx, Myy are even anyway),
// on rows and columns alike, so a quarter turn maps the rule onto itself.
CF_HD Sym2 responseAt(double tpar, double tperp, double kx, double ky, bool mean, bool nyquist) {
    if (mean) return {tperp, 0.0, tperp};
    const double k2 = kx * kx + ky * ky;
    const double dt = tpar - tperp;
    return {tperp + dt * (kx * kx) / k2, nyquist ? 0.0 : dt * (kx * ky) / k2,
            tperp + dt * (ky * ky) / k2};
}

// u^ = M f^ / n^2 for one mode and one part (real or imaginary); norm = 1/n^2 undoes the
// unnormalised transforms.
struct ModeVelocity {
    double ux, uy;
};
CF_HD ModeVelocity stokesAt(const Sym2& m, double norm, double fx, double fy) {
    const double a = m.t11 * norm, b = m.t12 * norm, c = m.t22 * norm;
    return {a * fx + b * fy, b * fx + c * fy};
}

// The response of every R2C mode [ky * (n/2 + 1) + kx] of an n x n grid from the transfer
// table (par, perp per mode), and the largest T_par |k~|^2 with the centred-difference symbol
// k~ = (sin(kx dx), sin(ky dx))/dx: the lag factor's mode (FluidCpu::lagFactor). Host only;
// both backends call it, so they upload and multiply by the same bytes.
struct FluidResponse {
    std::vector<double> mxx, mxy, myy;
    double lagSymbolMax = 0;
};
inline FluidResponse fluidResponse(const TransferTable& table, double dx) {
    const std::int32_t n = table.n, nh = n / 2 + 1;
    const std::size_t modes = static_cast<std::size_t>(n) * nh;
    FluidResponse r;
    r.mxx.resize(modes);
    r.mxy.resize(modes);
    r.myy.resize(modes);
    for (std::size_t mode = 0; mode < modes; ++mode) {
        const int ky = static_cast<int>(mode / nh), kx = static_cast<int>(mode % nh);
        const double kxv = waveNumberX(kx), kyv = waveNumberY(ky, n);
        const Sym2 m = responseAt(table.par[mode], table.perp[mode], kxv, kyv, kx == 0 && ky == 0,
                                  2 * kx == n || 2 * ky == n);
        r.mxx[mode] = m.t11;
        r.mxy[mode] = m.t12;
        r.myy[mode] = m.t22;
        // The lagged sigma^f pass u -> T div(sigma_f S:E(u)) has, for an isotropic S of
        // density c, the eigenvalue (3c/8) sigma_f T_par(k) |k~|^2 on longitudinal modes
        // (c/8 sigma_f T_perp |k~|^2 on transverse ones, smaller since T_perp <= 2 T_par).
        const double sx = std::sin(kxv * dx) / dx, sy = std::sin(kyv * dx) / dx;
        const double symbol = table.par[mode] * (sx * sx + sy * sy);
        if (r.lagSymbolMax < symbol) r.lagSymbolMax = symbol;  // as std::max
    }
    return r;
}

}  // namespace cf::gliding
