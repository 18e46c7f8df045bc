// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The z direction of the thin-gap Stokes solve of `gliding` (docs/design/gliding.md 2.8,
// design M4, M10): the adaptive z-grid with the smoothed delta, a banded LU with
// partial pivoting, the per-mode z problems and the filament-plane transfer functions
// T_par(k), T_perp(k) that the each-step solve multiplies by. No FFTs here.
//
// Per Fourier mode k (k = |k|, kappa = eps k), with q = iQ, w = iW (real unknowns) and
// Pi = P0 Q (P0 only rescales the pressure, so it never enters):
//   transverse:   (kappa^2 - d_zz) u_perp = eps^2 f_perp delta_h
//   longitudinal: (kappa^2 - d_zz) u - eps^2 k Pi = eps^2 f_par delta_h
//                 (kappa^2 - d_zz) W + Pi' = 0,   k u + W' = 0,
// u = W = 0 at z = 0 and 1. u, W live at nodes, Pi at mid-nodes (the spec's arrangement,
// design M10); d_zz is the nonuniform 3-point stencil. Every node row is multiplied by its dual
// width, so the forcing of node j is eps^2 f w_j with w_j = delta_h(z_j - z0) dz_j: then the
// k = 0 solve is the exact sum eps^2 sum_ij w_i w_j G0(z_i, z_j) (FD is exact for point loads).
#include <cstdint>
#include <numbers>
#include <vector>

#include "sim/models/gliding/gliding_params.hpp"

namespace cf::gliding {

struct ZGrid {
    std::vector<double> z;       // nodes, z[0] = 0 .. z[cells] = 1
    std::vector<double> h;       // h[j] = z[j+1] - z[j]
    std::vector<double> dual;    // dual width of node j: (h[j-1] + h[j]) / 2 (half a cell at walls)
    std::vector<double> delta;   // delta_h(z_j - z0), normalised: sum delta_j dual_j = 1
    std::vector<double> weight;  // delta_j dual_j: spreads the force and interpolates u(z0)
    std::int32_t first = 0, last = -1;  // nodes with non-zero weight, first..last
    std::int32_t cellsA = 0;            // uniform cells of region A
    double z0 = 0, hA = 0, hDelta = 0;

    std::int32_t cells() const { return static_cast<std::int32_t>(h.size()); }
    // sum_j weight_j v_j: the value at the filament plane of a node profile (design M4).
    double atPlane(const std::vector<double>& v) const;
};

// The grid of design M4 with design C8: region A = [0, zA] with cells of exactly hA (as many
// whole cells as fit, at least one), then region B with spacings hA growth^m, m = 0, 1, ...,
// the last cell ending exactly at 1; if that last cell would be under half of the one before
// it, the two are merged (so no sliver cell). The delta is the cosine bump of half-width
// hDelta, normalised on the grid with the dual widths. Throws ParameterError if the delta band
// does not lie inside (0, 1) or a size is not positive.
ZGrid buildZGrid(double z0, double hA, double zA, double growth, double hDelta);
ZGrid buildZGrid(const GlidingParams& p);

// Banded matrix with kl sub- and ku super-diagonals, LU-factorised with partial (row)
// pivoting in the LAPACK dgbtrf manner: U gets kl extra super-diagonals for the fill.
class BandedLU {
public:
    BandedLU(std::int32_t n, std::int32_t kl, std::int32_t ku);
    // Entry (i, j) of the matrix before factor(), |j - i| within the band.
    double& at(std::int32_t i, std::int32_t j) { return a_[index(i, j)]; }
    // Throws SimulationError on an exactly zero pivot (a singular matrix).
    void factor();
    // Solves A x = b in place (after factor()).
    void solve(double* b) const;
    std::int32_t size() const { return n_; }

private:
    std::size_t index(std::int32_t i, std::int32_t j) const {
        return static_cast<std::size_t>(i) * ld_ + static_cast<std::size_t>(j - i + kl_);
    }
    std::int32_t n_, kl_, ku_, ld_;
    std::vector<double> a_;
    std::vector<std::int32_t> piv_;
};

// Node profiles of one mode for a real forcing amplitude f (linear in f). k is the in-plane
// wavenumber |k| (2 pi x mode number on the unit domain). k = 0 uses the transverse problem for
// both components (no mean pressure gradient, design M10). w (optional) receives W, where
// w_hat = i W; the pressure is not returned.
void solveTransverse(const ZGrid& g, double eps, double k, double f, std::vector<double>& u);
void solveLongitudinal(const ZGrid& g, double eps, double k, double f, std::vector<double>& u,
                       std::vector<double>* w = nullptr);

struct Transfer {
    double par = 0, perp = 0;
};
// T_par and T_perp of design M10: the filament-plane velocity for unit forcing.
Transfer transfer(const ZGrid& g, double eps, double k);
// T(0) = eps^2 sum_i sum_j w_i w_j G0(z_i, z_j), G0(z, z') = min(z,z')(1 - max(z,z')), the
// exact discrete k = 0 value (design section 0), evaluated as the double sum (T4a).
double transferAtZero(const ZGrid& g, double eps);

// T for every mode of the R2C grid of an n x n periodic unit square, [ky * (n/2 + 1) + kx],
// with k = 2 pi (kx, ky or ky - n); Nyquist modes are treated like the others (design M10).
struct TransferTable {
    std::int32_t n = 0;
    std::vector<double> par, perp;
};
TransferTable precomputeTransfer(const ZGrid& g, double eps, std::int32_t n);

// Output-time profiles (design M10, design 2.8 "output times only"): per R2C mode and requested
// height z_l, the unit-forcing responses Phi_par, Phi_perp and Phi_w (w_hat = i Phi_w f_par),
// linearly interpolated between nodes, at [mode * levels.size() + l]. k = 0: Phi_par = Phi_perp
// (the transverse problem), Phi_w = 0. Throws ParameterError for a level outside [0, 1].
struct ProfileTable {
    std::int32_t n = 0;
    std::vector<double> levels;
    std::vector<double> par, perp, w;
};
ProfileTable precomputeProfiles(const ZGrid& g, double eps, std::int32_t n,
                                const std::vector<double>& levels);

// The in-plane wavenumber of R2C mode (kx, ky) of an n x n unit square: 2 pi times the signed
// mode numbers.
inline double waveNumberX(std::int32_t kx) {
    return 2.0 * std::numbers::pi * kx;
}
inline double waveNumberY(std::int32_t ky, std::int32_t n) {
    return 2.0 * std::numbers::pi * (ky <= n / 2 ? ky : ky - n);
}

}  // namespace cf::gliding
