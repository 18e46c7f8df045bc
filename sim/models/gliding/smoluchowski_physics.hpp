// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The per-cell and per-face arithmetic of the filament (Smoluchowski) step of `gliding`
// (docs/design/gliding.md 2.2-2.3, design M5, M6, M11, M12), shared by the CPU
// reference (cpu/smoluchowski_cpu.cpp) and the CUDA kernels (cuda/smoluchowski_kernels.cu),
// so both backends do the same operations in the same order. Host code is built with
// -ffp-contract=off and the CUDA kernels with --fmad=false, so these functions give the same
// bits on both; only the FFT of the Crank-Nicolson solve differs between the backends.
//
// Rotation-exact arithmetic: sums over theta run over the Ntheta/4 quarter-turn orbits
// (j, j + Q, j + 2Q, j + 3Q), opposite members first, and products of orientation components
// are grouped so that a quarter turn of the state maps moments, face velocities and the
// advective operator onto themselves bit for bit.
#include <math.h>

#include "sim/core/host_device.hpp"
#include "sim/models/gliding/periodic_grid.hpp"

namespace cf::gliding {

// The flow at the filament height z0 (design 2.3, 2.8), per cell [iy * n + ix]: u2 = (u, v)
// and its in-plane gradient. Host pointers on the CPU, device pointers in the CUDA kernels.
struct FlowAtZ0 {
    const double *u, *v, *dudx, *dudy, *dvdx, *dvdy;
};

// Unnormalised moments of one cell: c, P and D (design M6).
struct CellMoments {
    double c, px, py, d11, d12, d22;
};

// Same results as std::max / std::min (including signed zeros), usable on the device.
CF_HD double maxOf(double a, double b) {
    return (a < b) ? b : a;
}
CF_HD double minOf(double a, double b) {
    return (b < a) ? b : a;
}

// The moments of the ntheta values psi[0..ntheta) of one cell. One quarter-turn orbit per q:
// opposite members are added first, so a cyclic shift of the orbit (a quarter turn of the
// state) leaves every partial sum equal.
CF_HD CellMoments orbitMoments(const double* psi, const double* cosT, const double* sinT,
                               int ntheta, double dtheta) {
    const int q4 = ntheta / 4;
    double c = 0, px = 0, py = 0, d11 = 0, d12 = 0, d22 = 0;
    for (int q = 0; q < q4; ++q) {
        const double a = psi[q], b = psi[q + q4], cc = psi[q + 2 * q4], d = psi[q + 3 * q4];
        const double co = cosT[q], si = sinT[q];
        const double sAC = a + cc, sBD = b + d, dAC = a - cc, dBD = b - d;
        c += sAC + sBD;
        px += co * dAC - si * dBD;
        py += si * dAC + co * dBD;
        d11 += (co * co) * sAC + (si * si) * sBD;
        d22 += (si * si) * sAC + (co * co) * sBD;
        d12 += (co * si) * (sAC - sBD);
    }
    return {c * dtheta, px * dtheta, py * dtheta, d11 * dtheta, d12 * dtheta, d22 * dtheta};
}

// Donor-cell flux through a face with velocity v between upwind-left value l and right r
// (design M12). Negating v negates the flux exactly, which the quarter-turn symmetry needs.
CF_HD double upwind(double v, double l, double r) {
    return maxOf(v, 0.0) * l + minOf(v, 0.0) * r;
}

// D:pp at p = (co, si), grouped so that a quarter turn (D11 <-> D22, D12 -> -D12,
// (co, si) -> (-si, co)) gives the same bits.
CF_HD double dpp(double d11, double d12, double d22, double co, double si) {
    return (d11 * (co * co) + d22 * (si * si)) + 2.0 * d12 * (co * si);
}

// p_perp . D . p at the face angle (fc, fs) (design 2.3), grouped for the same reason.
CF_HD double stericTorque(double d11, double d12, double d22, double fc, double fs) {
    return (fc * fs) * (d22 - d11) + ((fc * fc) - (fs * fs)) * d12;
}

// p_perp . grad u2 . p at the face angle (fc, fs) (design 2.3, design M5):
// -sc du/dx - s^2 du/dy + c^2 dv/dx + cs dv/dy. Grouped so that a quarter turn of a flow
// field (du/dx, du/dy, dv/dx, dv/dy) -> (dv/dy, -dv/dx, -du/dy, du/dx) gives the same bits.
CF_HD double flowTorque(double dudx, double dudy, double dvdx, double dvdy, double fc, double fs) {
    return ((fc * fc) * dvdx - (fs * fs) * dudy) + (fc * fs) * (dvdy - dudx);
}

// Translational face velocity (design 2.3): self-propulsion along the cell-centre orientation
// component pc plus the Maier-Saupe term U_t [(D:pp)_right - (D:pp)_left]/dx.
CF_HD double faceVelocity(double vsp, double pc, double ut, double ppLeft, double ppRight,
                          double invDx) {
    return -vsp * pc + ut * (ppRight - ppLeft) * invDx;
}

// The same with the flow component at the face, the mean of the two cells (design M5).
CF_HD double faceVelocityFlow(double vsp, double pc, double flowLeft, double flowRight, double ut,
                              double ppLeft, double ppRight, double invDx) {
    return (-vsp * pc + 0.5 * (flowLeft + flowRight)) + ut * (ppRight - ppLeft) * invDx;
}

// The CFL rate of one (cell, theta): |a_x|/dx + |a_y|/dy + |b|/dtheta, each the larger of
// the two faces (design M11).
CF_HD double cflRate(double axm, double axp, double aym, double ayp, double bm, double bp,
                     double invDx, double invDth) {
    return (maxOf(fabs(axm), fabs(axp)) * invDx + maxOf(fabs(aym), fabs(ayp)) * invDx) +
           maxOf(fabs(bm), fabs(bp)) * invDth;
}

// The flow values one cell's faces need: u at the cell and its x neighbours, v at the cell
// and its y neighbours, and the cell's velocity gradient.
struct CellFlow {
    double uxm, uc, uxp, vym, vc, vyp;
    double dudx, dudy, dvdx, dvdy;
};

// Gathers CellFlow for cell `c` with periodic neighbours xm, xp, ym, yp.
CF_HD CellFlow cellFlow(const FlowAtZ0& f, long long c, long long xm, long long xp, long long ym,
                        long long yp) {
    return {f.u[xm], f.u[c],    f.u[xp],   f.v[ym],   f.v[c],
            f.v[yp], f.dudx[c], f.dudy[c], f.dvdx[c], f.dvdy[c]};
}

// The live coefficients of the advective operator.
struct AdvectionCoefficients {
    double vsp, ut, ur;
    double invDx, invDth;  // 1/dx, 1/dtheta
};

// What one (cell, theta) needs to form A = -delta_x F^x - delta_y F^y - delta_theta F^theta.
struct AdvectionStencil {
    double here, xm, xp, ym, yp, tm, tp;  // Psi at the cell and its 6 neighbours
    double ppC, ppXm, ppXp, ppYm, ppYp;   // D:pp at this angle (all 0 when U_t = 0)
    double co, si;                        // p at the cell-centre angle
    double fcm, fsm, fcp, fsp;            // p at the theta faces m-1/2 and m+1/2
    double d11, d12, d22;                 // the cell's D
};

struct AdvectionValue {
    double a, rate;  // A at (cell, theta) and its CFL rate
};

// A and the CFL rate of one (cell, theta) with first-order donor-cell fluxes (design 2.3);
// flow == nullptr is the dry equation (u2 = 0), whose arithmetic then has no flow terms.
CF_HD AdvectionValue advectionAt(const AdvectionCoefficients& k, const AdvectionStencil& s,
                                 const CellFlow* flow) {
    double axm, axp, aym, ayp, bm, bp;
    // theta faces evaluated at the face angle, at the cell's x (design 2.3).
    bm = k.ur * stericTorque(s.d11, s.d12, s.d22, s.fcm, s.fsm);
    bp = k.ur * stericTorque(s.d11, s.d12, s.d22, s.fcp, s.fsp);
    if (flow == nullptr) {
        axm = faceVelocity(k.vsp, s.co, k.ut, s.ppXm, s.ppC, k.invDx);
        axp = faceVelocity(k.vsp, s.co, k.ut, s.ppC, s.ppXp, k.invDx);
        aym = faceVelocity(k.vsp, s.si, k.ut, s.ppYm, s.ppC, k.invDx);
        ayp = faceVelocity(k.vsp, s.si, k.ut, s.ppC, s.ppYp, k.invDx);
    } else {
        const CellFlow& f = *flow;
        axm = faceVelocityFlow(k.vsp, s.co, f.uxm, f.uc, k.ut, s.ppXm, s.ppC, k.invDx);
        axp = faceVelocityFlow(k.vsp, s.co, f.uc, f.uxp, k.ut, s.ppC, s.ppXp, k.invDx);
        aym = faceVelocityFlow(k.vsp, s.si, f.vym, f.vc, k.ut, s.ppYm, s.ppC, k.invDx);
        ayp = faceVelocityFlow(k.vsp, s.si, f.vc, f.vyp, k.ut, s.ppC, s.ppYp, k.invDx);
        bm = flowTorque(f.dudx, f.dudy, f.dvdx, f.dvdy, s.fcm, s.fsm) + bm;
        bp = flowTorque(f.dudx, f.dudy, f.dvdx, f.dvdy, s.fcp, s.fsp) + bp;
    }
    const double divX = (upwind(axp, s.here, s.xp) - upwind(axm, s.xm, s.here)) * k.invDx;
    const double divY = (upwind(ayp, s.here, s.yp) - upwind(aym, s.ym, s.here)) * k.invDx;
    const double divT = (upwind(bp, s.here, s.tp) - upwind(bm, s.tm, s.here)) * k.invDth;
    // (divX + divY) first: a quarter turn swaps them.
    return {-((divX + divY) + divT), cflRate(axm, axp, aym, ayp, bm, bp, k.invDx, k.invDth)};
}

// L_h Psi at one (cell, theta) (design M12): cx = D_t/dx^2, ct = D_r/dtheta^2; sx, sy, st the
// sums of the two x, y and theta neighbours.
CF_HD double diffusionAt(double cx, double ct, double here, double sx, double sy, double st) {
    return cx * ((sx + sy) - 4.0 * here) + ct * (st - 2.0 * here);
}

// The CNAB2 weights of one step (design M12): R = Psi + half L_h Psi + cNow A^n - cOld A^{n-1},
// with w = dt/dt_prev, and forward Euler in A (no A^{n-1}) on the first step.
struct CnWeights {
    double half, cNow, cOld;
    bool history;
};

CF_HD CnWeights cnWeights(double dt, double dtPrev, bool history) {
    const double w = history ? dt / dtPrev : 0.0;
    return {0.5 * dt, dt * (1.0 + 0.5 * w), dt * (0.5 * w), history};
}

CF_HD double cnRhsAt(const CnWeights& k, double psi, double lap, double a, double aPrev) {
    const double adv = k.history ? k.cNow * a - k.cOld * aPrev : k.cNow * a;
    return psi + k.half * lap + adv;
}

// The factor of one DFT mode in the Crank-Nicolson solve (design M12): 1/(1 - dt/2 Lambda) times
// `norm` (1/(N^2 Ntheta): the transforms are unnormalised), Lambda = -D_t (sigma_x(kx) +
// sigma_x(ky)) - D_r sigma_theta(m).
CF_HD double cnFactor(double diffT, double diffR, double sigmaKx, double sigmaKy, double sigmaM,
                      double half, double norm) {
    const double lx = diffT * (sigmaKx + sigmaKy);
    const double lambda = -lx - diffR * sigmaM;
    return norm / (1.0 - half * lambda);
}

// The CFL step (design M11): C_out/rate, limited to growth x the previous step when there is
// one; with no advection at all (rate 0) the fixed step `fallback`.
CF_HD double cflDt(double rate, double courantOut, double fallback, double growth, double dtPrev,
                   bool history) {
    double dt = rate > 0 ? courantOut / rate : fallback;
    if (history) dt = minOf(dt, growth * dtPrev);
    return dt;
}

}  // namespace cf::gliding
