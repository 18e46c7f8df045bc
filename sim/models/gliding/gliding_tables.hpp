// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Host tables of `gliding` that do not need the fluid (docs/design/gliding.md 2.1): the
// rotation-exact orientation table, the capture mask over the neighbour set with its packed
// chords, the gather lists for the bound-motor force source, the Peskin head tables and the
// finite-difference symbols. Built once per reset in double; every backend uses these bytes.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/models/gliding/gliding_params.hpp"

namespace cf::gliding {

// Peskin's 4-point kernel (design M8): phi(r) for |r| <= 2, 0 beyond. Even in r.
double peskin4(double r);

// One chord: the masked s-cells k_a .. k_a+len-1 of neighbour offset o and orientation j,
// stored at offset `off` of the packed per-tail slice (design section 1).
struct Chord {
    std::int32_t ox, oy;  // offset o in cells
    std::int32_t j;       // orientation index
    std::int32_t ka;      // first masked s-cell
    std::int32_t len;     // L_c >= 1
    std::int32_t off;     // prefix sum of len over earlier chords
};

// One term of the gather of bound motors onto a filament configuration (y, j, k):
// W(y, j, k) = Psi(y, j) sum over entries of Mb(y - o, slot) (design 2.7).
struct GatherEntry {
    std::int32_t ox, oy;
    std::int32_t slot;  // off_c + k - k_a in the slice of tail y - o
};

// Head position relative to the filament centre, for the force spreading (design 2.1):
// per axis the first of four nodes m0 = floor(d) - 1 (cells) and the weights phi(d - m).
struct PeskinStencil {
    std::int32_t m0[2];
    double w[2][4];
};

struct GlidingTables {
    std::int32_t n = 0, ntheta = 0, ns = 0;
    double dx = 0, dtheta = 0, ds = 0;
    // p_j = (cosT[j], sinT[j]); quadrants after the first are exact quarter turns of it.
    std::vector<double> cosT, sinT;
    // theta faces: faceCos[m], faceSin[m] at theta_{m+1/2} = (m + 1) dtheta, where the torque
    // of the theta flux is evaluated (design 2.3, C7); exact quarter turns too, and exactly
    // (1, 0), (0, 1), (-1, 0), (0, -1) on the axes.
    std::vector<double> faceCos, faceSin;
    std::vector<double> s;  // s_k = -1/2 + (k + 1/2) ds
    // Neighbour set N (design M3): offsets in cells, ordered by (oy, ox).
    std::vector<std::int32_t> offX, offY;
    // chi[(o * ntheta + j) * ns + k] over the neighbour set (1 = feasible).
    std::vector<std::uint8_t> mask;
    std::vector<Chord> chords;   // non-empty (o, j) intervals, ordered by (o, j)
    std::int32_t sliceSize = 0;  // S = sum of len: stored configurations per tail
    std::int32_t maxChord = 0;   // largest len
    // Gather lists: entries gatherStart[j*ns+k] .. gatherStart[j*ns+k+1]-1.
    std::vector<std::int32_t> gatherStart;
    std::vector<GatherEntry> gather;
    std::vector<PeskinStencil> peskin;  // [j * ns + k]
    // FD symbols of -Laplacian: sigma_x(k) = (4/dx^2) sin^2(pi k/N), sigma_theta(m) likewise.
    std::vector<double> sigmaX, sigmaTheta;
    // Capture area on the grid: S dx^2 / (ntheta ns), the binding capacity of a uniform
    // isotropic layer of c = 1 (design M7); compare with pi rc^2.
    double discArea = 0;
    double discAreaRatio = 0;  // discArea / (pi rc^2)

    std::int32_t neighbours() const { return static_cast<std::int32_t>(offX.size()); }
    std::uint8_t chi(int o, int j, int k) const {
        return mask[(static_cast<std::size_t>(o) * ntheta + j) * ns + k];
    }
};

// Builds the tables. Throws ParameterError when the mask is empty (rc too small for the grid)
// or a chord is longer than 32 s-cells (one warp segment, design 2.6), and SimulationError if a
// masked s-set is not one interval (a line crosses a disk once: an internal error).
GlidingTables buildTables(const GlidingParams& p);

// The checks of design section 4 that need the tables, and kon_area = discrete: sets
// p.konTilde = Kon / discArea. Returns a note (empty if none) when the capture area on the
// grid is outside [0.9, 1.1] of pi rc^2.
std::string applyTables(GlidingParams& p, const GlidingTables& t);

// Uniform isotropic Psi = 1/(2 pi) with frozen filaments: the steady bound fraction
// Mb,coarse/M = kon~ Q / (1 + kon~ Q) of design M17, with Q summed over the discrete (o, j)
// of the neighbour set and the continuous chord of each (the test oracle of T6).
double steadyBoundFraction(const GlidingParams& p, const GlidingTables& t);

}  // namespace cf::gliding
