// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Host state of `gliding` and its initial conditions (design M15; docs/design/gliding.md 7.1).
// So far only the filament distribution Psi: motors start with Mb = 0, Mf = M and the flow
// at rest (design M15), which needs no arrays here yet.
#include <cstdint>
#include <vector>

#include "sim/models/gliding/gliding_params.hpp"
#include "sim/models/gliding/gliding_tables.hpp"

namespace cf::gliding {

struct HostState {
    std::int32_t n = 0, ntheta = 0;
    // psi[(iy * n + ix) * ntheta + j], theta fastest (design section 1).
    std::vector<double> psi;

    double& at(int ix, int iy, int j) {
        return psi[(static_cast<std::size_t>(iy) * n + ix) * ntheta + j];
    }
    double at(int ix, int iy, int j) const {
        return psi[(static_cast<std::size_t>(iy) * n + ix) * ntheta + j];
    }
};

// What the initial condition chose besides Psi, for tests and the run log.
struct InitInfo {
    double amplitude = 0;    // A of design M15 (0 for uniform and isotropic)
    std::int32_t modes = 0;  // random modes of the isotropic layout
};

// Psi at t = 0 for p.layout (design section 4 `init.*`), using the exact-rotation orientation
// table of `t` so that quarter turns of the layout map onto themselves:
// - ring_lattice: rings_per_axis^2 rings centred at ((a + 1/2)/n_r, (b + 1/2)/n_r), with
//   periodic images, tangential von Mises orientation, background c_bg/(2 pi) (design M15);
// - single_ring: one such ring centred at (1/2, 1/2);
// - uniform: c_bar/(2 pi);
// - isotropic: c_bar/(2 pi) (1 + delta sum of random modes) (design M15, stream kInitStream).
// The ring amplitude A is chosen so that the discrete mean of c is init.mean_density exactly
// (design M15); throws ParameterError if init.background exceeds init.mean_density.
HostState initialState(const GlidingParams& p, const GlidingTables& t, std::uint32_t seed,
                       InitInfo* info = nullptr);

// c(x) = sum_j Psi_j dtheta at every cell, [iy * n + ix] (design M6).
std::vector<double> density(const HostState& s, const GlidingTables& t);
// N = sum Psi dx dy dtheta (design M17).
double filamentNumber(const HostState& s, const GlidingTables& t);

}  // namespace cf::gliding
