// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Per-chord arithmetic of the bound motors of `gliding` (docs/design/gliding.md 2.5,
// design M7, M13), shared by the CPU reference and (later) the CUDA motor kernel, so
// both evaluate the same expressions in the same order. Templated on the real type (the CPU
// uses double; CUDA double or float, `motors.precision`). No libm, no std:: containers: the
// only operations are +, -, *, comparisons and conversions, so results do not depend on
// -ffast-math-free libm variants or on the device.
//
// One chord c = (o, j) holds lanes l = 0 .. L-1 (s-cells k_a .. k_a + L - 1). Along s the bound
// motors walk at unit speed toward the plus end:
//   dM_l/dt = -(F_{l+1/2} - F_{l-1/2}) / ds - koff M_l + kon~ Mf,
//   F_{l+1/2} = M_l + 1/2 SB(M_l - M_{l-1}, M_{l+1} - M_l),
// with ghosts M_{-1} = M_{-2} = 0 (no inflow, rule 6, design M7) and M_L = M_{L-1} (zero gradient:
// outflow is detachment at the capture edge or the plus end, rules 5-6).
#include "sim/core/host_device.hpp"

namespace cf::gliding {

// Longest chord a lane segment holds (design 2.6: one lane per s-cell, w <= 32). Must equal
// the limit buildTables enforces (kMaxChordCells in gliding_tables.cpp).
inline constexpr int kMotorMaxChord = 32;

// Division-free Superbee slope (design 2.5, C5): with dm = M_l - M_{l-1}, dp = M_{l+1} - M_l,
// SB = 0 unless dm and dp have the same strict sign, else
// sign(dp) max(min(2|dm|, |dp|), min(|dm|, 2|dp|)).
// Equals phi(r) dp with r = dm/dp, phi(r) = max(0, min(2r, 1), min(r, 2)) (design M13), in real
// arithmetic, including dp = 0 -> 0, without the zero-denominator guard. The sign test uses
// comparisons, not dm*dp, so it cannot underflow to a wrong "opposite sign".
template <typename Real>
CF_HD Real superbeeSlope(Real dm, Real dp) {
    const bool same = (dm > Real(0) && dp > Real(0)) || (dm < Real(0) && dp < Real(0));
    if (!same) return Real(0);
    const Real am = dm < Real(0) ? -dm : dm;
    const Real ap = dp < Real(0) ? -dp : dp;
    const Real twoAm = Real(2) * am, twoAp = Real(2) * ap;
    const Real lo = twoAm < ap ? twoAm : ap;  // min(2|dm|, |dp|)
    const Real hi = am < twoAp ? am : twoAp;  // min(|dm|, 2|dp|)
    const Real mag = lo > hi ? lo : hi;
    return dp > Real(0) ? mag : -mag;
}

// MUSCL face flux F_{l+1/2} at unit speed from M_{l-1}, M_l, M_{l+1}.
template <typename Real>
CF_HD Real motorFaceFlux(Real mm1, Real m, Real mp1) {
    return m + Real(0.5) * superbeeSlope(m - mm1, mp1 - m);
}

// Right-hand side of one lane from its stencil M_{l-2} .. M_{l+1} (ghosts filled by the
// caller), the binding source kon~ Mf (frozen over the substep, design M13), koff and 1/ds.
template <typename Real>
CF_HD Real motorRhs(Real mm2, Real mm1, Real m, Real mp1, Real source, Real koff, Real invDs) {
    const Real fPlus = motorFaceFlux(mm1, m, mp1);
    const Real fMinus = motorFaceFlux(mm2, mm1, m);
    return -(fPlus - fMinus) * invDs - koff * m + source;
}

// One explicit stage over a chord of `len` lanes: out_l = base_l + h R(at)_l, with the ghosts
// of the header comment. `out` may be `base` (each lane reads only its own base value) but
// must not be `at`.
template <typename Real>
CF_HD void motorChordStage(const Real* base, const Real* at, Real* out, int len, Real h,
                           Real source, Real koff, Real invDs) {
    for (int l = 0; l < len; ++l) {
        const Real mm2 = l >= 2 ? at[l - 2] : Real(0);
        const Real mm1 = l >= 1 ? at[l - 1] : Real(0);
        const Real m = at[l];
        const Real mp1 = l + 1 < len ? at[l + 1] : at[len - 1];
        out[l] = base[l] + h * motorRhs(mm2, mm1, m, mp1, source, koff, invDs);
    }
}

// One RK2-midpoint substep of a chord held in m[0 .. len-1] (design M13):
// M^{1/2} = M^n + (dt/2) R(M^n), M^{n+1} = M^n + dt R(M^{1/2}). len <= kMotorMaxChord.
// Returns dt F_{L-1/2}(M^{1/2}) = dt M^{1/2}_{L-1}: what left through the end face of the
// chord in this substep, in the units of sum_l M_l ds (which changes by -(this) +
// dt sum_l (source - koff M^{1/2}_l) ds).
template <typename Real>
CF_HD Real motorChordRk2(Real* m, int len, Real dt, Real source, Real koff, Real invDs) {
    Real half[kMotorMaxChord];
    motorChordStage(m, m, half, len, Real(0.5) * dt, source, koff, invDs);
    motorChordStage(m, half, m, len, dt, source, koff, invDs);
    return dt * half[len - 1];
}

// Largest substep (design M13): min(C_in ds, C_in/(koff + kon~ A)), A the binding capacity of the
// tail. The third term of design M13, t*_end - t*, is handled by motorSubsteps.
template <typename Real>
CF_HD Real motorMaxSubstep(Real courantIn, Real ds, Real koff, Real konTilde, Real capacity) {
    const Real advect = courantIn * ds;
    const Real rate = koff + konTilde * capacity;
    if (!(rate > Real(0))) return advect;
    const Real react = courantIn / rate;
    return react < advect ? react : advect;
}

// The substeps that take a tail from t to t + dt with steps of at most hmax > 0: K - 1 steps
// of hmax and a last one of hLast = dt - (K - 1) hmax in (0, hmax], so that
// dt* = min(hmax, t*_end - t*) at every substep and the last lands on t + dt (design M13).
// Returns K (0 when dt <= 0).
template <typename Real>
CF_HD int motorSubsteps(Real dt, Real hmax, Real* hLast) {
    if (!(dt > Real(0))) {
        *hLast = Real(0);
        return 0;
    }
    int k = static_cast<int>(dt / hmax);
    while (Real(k) * hmax < dt)
        ++k;
    while (k > 1 && Real(k - 1) * hmax >= dt)
        --k;
    *hLast = dt - Real(k - 1) * hmax;
    return k;
}

}  // namespace cf::gliding
