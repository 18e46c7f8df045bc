// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Test oracle of `gliding`: the linear stability of the uniform isotropic state in the dry limit
// (design M18). A Fourier mode e^{ikx} with harmonics a_m e^{im theta}, m = -M..M, grows at the
// eigenvalues of the tridiagonal matrix
//   sigma a_m = (i Vsp k / 2)(a_{m-1} + a_{m+1}) - (Dt k^2 + Dr m^2) a_m
//             + delta_{m0} (Ut c0 k^2 / 2) a_0 + delta_{|m|,2} (Ur c0 / 2 + Ut c0 k^2 / 4) a_m.
// Eigenpairs come from shifted inverse iteration (Thomas algorithm in complex arithmetic): the
// eigenvalue nearest the shift and its harmonics.
#include <cmath>
#include <complex>
#include <cstdlib>
#include <vector>

namespace cf::gliding::test {

struct HarmonicSystem {
    double c0 = 1, vsp = 0, dt = 0, dr = 0, ur = 0, ut = 0, k = 0;
    int maxHarmonic = 24;  // M
};

struct Eigenpair {
    std::complex<double> value;
    std::vector<std::complex<double>> harmonics;  // a_m at [m + M]
};

inline Eigenpair nearestEigenpair(const HarmonicSystem& h, std::complex<double> shift) {
    using C = std::complex<double>;
    const int M = h.maxHarmonic, size = 2 * M + 1;
    const C off(0.0, 0.5 * h.vsp * h.k);
    std::vector<C> diag(static_cast<std::size_t>(size));
    for (int m = -M; m <= M; ++m) {
        double d = -(h.dt * h.k * h.k + h.dr * m * m);
        if (m == 0) d += 0.5 * h.ut * h.c0 * h.k * h.k;
        if (std::abs(m) == 2) d += 0.5 * h.ur * h.c0 + 0.25 * h.ut * h.c0 * h.k * h.k;
        diag[static_cast<std::size_t>(m + M)] = d;
    }
    const auto apply = [&](const std::vector<C>& x) {
        std::vector<C> y(x.size());
        for (int i = 0; i < size; ++i) {
            C v = diag[static_cast<std::size_t>(i)] * x[static_cast<std::size_t>(i)];
            if (i > 0) v += off * x[static_cast<std::size_t>(i - 1)];
            if (i + 1 < size) v += off * x[static_cast<std::size_t>(i + 1)];
            y[static_cast<std::size_t>(i)] = v;
        }
        return y;
    };
    // (A - s I) x = b by the Thomas algorithm (the shift keeps the system regular).
    const auto solve = [&](std::vector<C> b) {
        std::vector<C> c(static_cast<std::size_t>(size)), d(static_cast<std::size_t>(size));
        C prev = diag[0] - shift;
        c[0] = off / prev;
        d[0] = b[0] / prev;
        for (int i = 1; i < size; ++i) {
            const auto u = static_cast<std::size_t>(i);
            const C denom = (diag[u] - shift) - off * c[u - 1];
            c[u] = off / denom;
            d[u] = (b[u] - off * d[u - 1]) / denom;
        }
        for (int i = size - 2; i >= 0; --i) {
            const auto u = static_cast<std::size_t>(i);
            d[u] -= c[u] * d[u + 1];
        }
        return d;
    };
    std::vector<C> x(static_cast<std::size_t>(size), C(1.0, 0.0));
    for (int iteration = 0; iteration < 200; ++iteration) {
        x = solve(x);
        double norm = 0;
        for (const C& v : x)
            norm += std::norm(v);
        norm = std::sqrt(norm);
        for (C& v : x)
            v /= norm;
    }
    const std::vector<C> ax = apply(x);
    C num = 0, den = 0;
    for (int i = 0; i < size; ++i) {
        num += std::conj(x[static_cast<std::size_t>(i)]) * ax[static_cast<std::size_t>(i)];
        den += std::conj(x[static_cast<std::size_t>(i)]) * x[static_cast<std::size_t>(i)];
    }
    return {num / den, x};
}

}  // namespace cf::gliding::test
