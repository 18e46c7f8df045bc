// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Pointwise formulas of `epidermis`, shared by the CPU and CUDA backends (host/device).
// Tests check them against closed forms (zero crossings, signs) and an independently
// written reference integration, so sharing them does not hide a formula bug.
#include <cmath>

#include "sim/core/host_device.hpp"
#include "sim/models/epidermis/epidermis_params.hpp"

namespace cf::epidermis {

// V(r) = U0 exp(-r/xi1) - W0 exp(-r/xi2) (A.1). Used as a force coefficient: the pair
// force on i is V(r) (X_i - X_k), repulsive where V > 0 (A.3), not -grad V.
template <typename T>
CF_HD T morse(T r, T u0, T xi1, T w0, T xi2) {
#if !defined(__CUDA_ARCH__)
    using std::exp;
#endif
    return u0 * exp(-r / xi1) - w0 * exp(-r / xi2);
}

// pV(r) = max(V(r), 0) (A.2): the intercellular term only repels.
template <typename T>
CF_HD T positiveMorse(T r, T u0, T xi1, T w0, T xi2) {
    const T m = morse(r, u0, xi1, w0, xi2);
    return m < T(0) ? T(0) : m;
}

template <typename T>
CF_HD T intraCoefficient(const EpidermisParams& p, T r) {
    return morse(r, T(p.intraU0), T(p.intraXi1), T(p.intraW0), T(p.intraXi2));
}

template <typename T>
CF_HD T interCoefficient(const EpidermisParams& p, T r) {
    return positiveMorse(r, T(p.interU0), T(p.interXi1), T(p.interW0), T(p.interXi2));
}

// HILL(x; a, b, c, h) (A.9): code form a + (b-a)/(1+(x/c)^h) (default) or the printed
// form a + b/(1+(c x)^h). pow(0, negative) = +inf gives a, as in the original.
template <typename T>
CF_HD T hill(T x, T a, T b, T c, T h, std::int32_t form) {
#if !defined(__CUDA_ARCH__)
    using std::pow;
#endif
    if (form == static_cast<std::int32_t>(HillForm::Paper)) return a + b / (T(1) + pow(c * x, h));
    return a + (b - a) / (T(1) + pow(x / c, h));
}

// Right-hand side of the gene network of one cell (A.10). `s` holds the 7 species; the
// neighbour averages <N>, <D>, <B> and A (= s[kBma]) are held fixed during a step, so
// the BMA rate is 0.
template <typename T>
CF_HD void networkRates(const EpidermisParams& p, const T* s, T avgN, T avgD, T avgB, T* out) {
    const std::int32_t f = p.hillForm;
    const T N = s[kNotch], D = s[kDelta], B = s[kBound], A = s[kBma];
    const T O1 = s[kOvol1], O2 = s[kOvol2], M = s[kCmyc];
    const T ka = T(p.ka), kd = T(p.kd);
    out[kNotch] = -ka * N * avgD + kd * B - T(p.dN) * N +
                  hill(B, T(p.aBN), T(p.bBN), T(p.cBN), T(p.hBN), f) *
                      hill(O2, T(0), T(p.bON), T(p.cON), T(p.hON), f);
    out[kDelta] = -ka * D * avgN + kd * avgB - T(p.dD) * D +
                  hill(N, T(p.aND), T(p.bND), T(p.cND), T(p.hND), f);
    out[kBound] = ka * N * avgD - kd * B - T(p.dB) * B;
    out[kBma] = T(0);
    out[kOvol2] = -T(p.dO) * O2 + hill(O1, T(p.aVO), T(p.bVO), T(p.cVO), T(p.hVO), f) *
                                      hill(T(p.tgfBeta), T(0), T(p.bGO), T(p.cGO), T(p.hGO), f);
    out[kOvol1] = -T(p.dV) * O1 + hill(O2, T(0), T(p.bOV), T(p.cOV), T(p.hOV), f) *
                                      hill(A, T(0), T(p.bAV), T(p.cAV), T(p.hAV), f);
    out[kCmyc] = -T(p.dM) * M + hill(O2, T(p.aOM), T(p.bOM), T(p.cOM), T(p.hOM), f);
}

// One RK2 midpoint step of the network with clamping at zero after each stage (A.6).
template <typename T>
CF_HD void networkStep(const EpidermisParams& p, T* s, T avgN, T avgD, T avgB, T dt) {
    T rate[kSpeciesCount], mid[kSpeciesCount];
    networkRates(p, s, avgN, avgD, avgB, rate);
    for (int k = 0; k < kSpeciesCount; ++k) {
        const T v = s[k] + T(0.5) * dt * rate[k];
        mid[k] = v < T(0) ? T(0) : v;
    }
    networkRates(p, mid, avgN, avgD, avgB, rate);
    for (int k = 0; k < kSpeciesCount; ++k) {
        const T v = s[k] + dt * rate[k];
        s[k] = v < T(0) ? T(0) : v;
    }
}

// Minimum image of a displacement component on a periodic axis of length L.
template <typename T>
CF_HD T wrapDelta(T d, T L, bool periodic) {
#if !defined(__CUDA_ARCH__)
    using std::floor;
#endif
    if (!periodic) return d;
    return d - L * floor(d / L + T(0.5));
}

// Position wrapped into [0, L) on a periodic axis.
template <typename T>
CF_HD T wrapPosition(T x, T L, bool periodic) {
#if !defined(__CUDA_ARCH__)
    using std::floor;
#endif
    if (!periodic) return x;
    T w = x - L * floor(x / L);
    return w >= L ? T(0) : w;
}

}  // namespace cf::epidermis
