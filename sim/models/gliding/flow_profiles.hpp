// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Output-time vertical velocity profiles of `gliding` (docs/design/gliding.md 2.8 "output times
// only", design M10): the 3-D flow (u, v, w)(x, y_row, z) on the vertical plane through one cell
// row, for a given in-plane forcing f = (gx, gy) per cell (FluidCpu::lastForcing or
// FluidCuda::downloadForcing). The each-step solve only needs u2(z0); this evaluates the same
// per-mode responses Phi_par, Phi_perp, Phi_w (precomputeProfiles) at every z-grid node.
//
// Per R2C mode and node z_l: u^(z_l) = M_l f^ with M_l = Phi_perp I + (Phi_par - Phi_perp) k^k^
// built by responseAt (fluid_physics.hpp), the same function and mean/Nyquist rules as the
// filament-plane response, so sum_l weight_l u(z_l) is u2(z0) of FluidCpu::applyStokes up to
// round-off; w^(z_l) = i Phi_w (k^ . f^) (design M10, w^ = i W in gliding_zgrid.hpp).
//
// Units: x, y in L, z in H (z in [0, 1]); u, v in V = L/T, the scale of u2(z0); w in eps V
// (design M1: the scale for which div_2 u_2 + d_z w = 0 holds), so the physical vertical speed
// in units of V is eps * w.
//
// Inverse transform: only the row is evaluated. Per column kx, the inverse sum over ky at
// iy = row is done directly (sum_ky U(kx, ky) e^{2 pi i ky row / n}, fixed order); then one
// 1-D FFTW c2r of length n per component and level (batch 3 nz) gives the n cells of the row.
// That is the 2-D c2r of FluidCpu restricted to one output row: O(nz n^2) per slice instead of
// O(nz n^2 log n) for the whole volume.
#include <cstdint>
#include <vector>

#include "sim/models/gliding/gliding_params.hpp"
#include "sim/models/gliding/gliding_tables.hpp"
#include "sim/models/gliding/gliding_zgrid.hpp"

namespace cf::gliding {

// A vertical slice y = row_y: nz levels z (the z-grid nodes, 0 .. 1), n cells in x (centres
// (ix + 1/2) dx); u, v, w at [l * n + ix], x fastest then z. u, v in V, w in eps V (above).
struct FlowSlice {
    std::int32_t n = 0, nz = 0;
    double row_y = 0;
    std::vector<double> z;
    std::vector<float> u, v, w;
};

class FlowProfiles {
public:
    // Profile levels are all nodes of g (g is copied); the table Phi_par, Phi_perp, Phi_w of
    // every R2C mode of the n x n grid and every node is computed once here (2 banded solves
    // per mode, as precomputeTransfer; memory 3 n (n/2 + 1) nz doubles, 71 MB at n = 256 with
    // the default 89 nodes). g must be the grid of the fluid solve (buildZGrid(p)) for the
    // plane values to match u2(z0).
    FlowProfiles(const GlidingParams& p, const GlidingTables& t, const ZGrid& g);

    // The velocity on the vertical plane through cell row `row` (y = (row + 1/2) dx) for the
    // in-plane forcing (gx, gy) [iy * n + ix], stored as float. Throws SimulationError for a
    // forcing of the wrong size or a row outside [0, n), or if FFTW returns no plan.
    FlowSlice slice(const std::vector<double>& gx, const std::vector<double>& gy,
                    std::int32_t row) const;
    // The same values in double, u, v, w at [l * n + ix] (what slice() rounds to float).
    void sliceValues(const std::vector<double>& gx, const std::vector<double>& gy, std::int32_t row,
                     std::vector<double>& u, std::vector<double>& v, std::vector<double>& w) const;

    const ZGrid& zgrid() const { return zgrid_; }
    const ProfileTable& table() const { return table_; }
    std::int32_t n() const { return n_; }
    std::int32_t levels() const { return static_cast<std::int32_t>(zgrid_.z.size()); }

private:
    std::int32_t n_;
    double dx_;
    ZGrid zgrid_;
    ProfileTable table_;
};

}  // namespace cf::gliding
