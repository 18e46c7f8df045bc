// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Exact stationary distributions for the reaction tests of `lattice` (the chemical-master-
// equation oracle): A + B <-> C in a well-mixed volume is a birth-death chain in the number
// of C, so detailed balance gives its stationary distribution in closed form,
//   pi(C + 1) / pi(C) = up(C) / down(C + 1),
// with up(C) = c (A0 - C)(B0 - C) (c = kf / (N_A V), the rate per A-B pair) and
// down(C) = kr C, for C = 0..min(A0, B0) (starting from C = 0; A0, B0 the free amounts).
// The same chain under the lattice's rule of at most one reaction per site and step (firing
// probability 1 - exp(-a_tot tau), the reaction chosen in proportion to its propensity) is
// again a birth-death chain; its stationary distribution says exactly how much that rule
// moves the moments at a given step tau.
#include <algorithm>
#include <cmath>
#include <vector>

namespace cf::test {

struct Moments {
    double mean;
    double variance;
};

// Stationary distribution on 0..n of a birth-death chain with rates up(k) (k -> k+1) and
// down(k) (k -> k-1), by detailed balance in logarithms (no overflow for large n).
template <class Up, class Down>
std::vector<double> birthDeathStationary(int n, Up up, Down down) {
    std::vector<double> logp(static_cast<std::size_t>(n) + 1, 0.0);
    for (int k = 0; k < n; ++k)
        logp[k + 1] = logp[k] + std::log(up(k)) - std::log(down(k + 1));
    const double top = *std::max_element(logp.begin(), logp.end());
    double sum = 0.0;
    for (double& x : logp) {
        x = std::exp(x - top);
        sum += x;
    }
    for (double& x : logp)
        x /= sum;
    return logp;
}

inline Moments momentsOf(const std::vector<double>& p) {
    double mean = 0.0;
    for (std::size_t k = 0; k < p.size(); ++k)
        mean += static_cast<double>(k) * p[k];
    double var = 0.0;
    for (std::size_t k = 0; k < p.size(); ++k)
        var += (static_cast<double>(k) - mean) * (static_cast<double>(k) - mean) * p[k];
    return {mean, var};
}

// CME stationary moments of C for A + B <-> C (perPairRate = kf / (N_A V) [1/s], kr [1/s]).
inline Moments bimolecularCme(int a0, int b0, double perPairRate, double kr) {
    const int n = std::min(a0, b0);
    return momentsOf(birthDeathStationary(
        n, [&](int c) { return perPairRate * (a0 - c) * static_cast<double>(b0 - c); },
        [&](int c) { return kr * c; }));
}

// The same under one reaction per step of length tau [s]: up and down probabilities
// (1 - e^{-a}) a_f / a and (1 - e^{-a}) a_r / a with a = (a_f + a_r) of the state.
inline Moments bimolecularOneReactionPerStep(int a0, int b0, double perPairRate, double kr,
                                             double tau) {
    const auto af = [&](int c) {
        return perPairRate * (a0 - c) * static_cast<double>(b0 - c) * tau;
    };
    const auto ar = [&](int c) { return kr * c * tau; };
    const auto g = [](double a) { return -std::expm1(-a) / a; };
    return momentsOf(birthDeathStationary(
        std::min(a0, b0), [&](int c) { return g(af(c) + ar(c)) * af(c); },
        [&](int c) { return g(af(c) + ar(c)) * ar(c); }));
}

// Deterministic (mass-action ODE) equilibrium C: perPairRate (a0 - C)(b0 - C) = kr C.
inline double bimolecularDeterministic(int a0, int b0, double perPairRate, double kr) {
    const double b = perPairRate * (a0 + b0) + kr;
    const double disc = b * b - 4.0 * perPairRate * perPairRate * a0 * static_cast<double>(b0);
    return (b - std::sqrt(disc)) / (2.0 * perPairRate);
}

}  // namespace cf::test
