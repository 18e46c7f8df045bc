// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Per-node arithmetic of the cardiac tissue shared by the CPU backend and the CUDA kernels:
// the potential's Laplacian with mirrored (no-flux) boundaries and the activation time of a
// rise through the threshold, interpolated within the step.
#include <cstddef>

#include "sim/core/host_device.hpp"

namespace cf::cardiac {

// sum_a coeff_a (v[+a] + v[-a] - 2 v[m]) at node m of an n[0] x n[1] x n[2] grid (x fastest);
// the ghost beyond a boundary node equals its inner neighbour. coeff_a = 0 skips axis a.
// `tissue` (null: every node is tissue): 0 at nodes outside the tissue, whose Laplacian is 0;
// a neighbour outside is mirrored like a grid boundary (the ghost is the node on the other
// side, or the node itself when that one is outside too): no flux across the surface, and a
// mesh box gives exactly the result of a grid of its size.
template <typename Real>
CF_HD Real mirroredLaplacian(const Real* v, std::size_t m, const int n[3], const double coeff[3],
                             const unsigned char* tissue = nullptr) {
    if (tissue != nullptr && tissue[m] == 0) return Real(0);
    const std::size_t stride[3] = {1, static_cast<std::size_t>(n[0]),
                                   static_cast<std::size_t>(n[0]) * static_cast<std::size_t>(n[1])};
    const std::size_t at[3] = {m % stride[1], (m / stride[1]) % static_cast<std::size_t>(n[1]),
                               m / stride[2]};
    const Real here = v[m];
    Real lap = 0;
    for (int a = 0; a < 3; ++a) {
        if (coeff[a] == 0.0) continue;
        const std::size_t lower = at[a] > 0 ? m - stride[a] : m + stride[a];
        const std::size_t upper =
            at[a] + 1 < static_cast<std::size_t>(n[a]) ? m + stride[a] : m - stride[a];
        Real below = v[lower], above = v[upper];
        if (tissue != nullptr) {
            const bool in[2] = {tissue[lower] != 0, tissue[upper] != 0};
            if (!in[0]) below = in[1] ? above : here;
            if (!in[1]) above = in[0] ? below : here;
        }
        lap += static_cast<Real>(coeff[a]) * (below + above - Real(2) * here);
    }
    return lap;
}

// The activation time after a step from t to t + dt in which the potential went from
// `before` to `after`: `current` when the node already activated (>= 0) or did not rise
// through theta, else t + dt (theta - before) / (after - before).
// Whether the potential rose through theta within the step (the only case in which
// activationAfter can change an activation time).
CF_HD bool crossesUpward(double before, double after, double theta) {
    return before < theta && after >= theta;
}

CF_HD double activationAfter(double current, double before, double after, double theta, double t,
                             double dt) {
    if (current >= 0.0 || !crossesUpward(before, after, theta)) return current;
    return t + dt * (theta - before) / (after - before);
}

}  // namespace cf::cardiac
