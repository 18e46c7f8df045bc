// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The optional extracellular substance of `spheres` (design note section 5): one scalar
// concentration c [1/um^3] on a regular grid that fills the domain box, x fastest. Each step,
// before biology (BioDynaMo's order: diffusion, then biology, then physics):
//   1. diffusion and decay, k explicit (FTCS) substeps with k the smallest count that keeps
//      the scheme stable: dt/k x D x sum_a 2/h_a^2 <= 1;
//   2. secretion: every cell adds secretion x dt / voxel volume to the voxel holding its
//      centre. The cells are counted per voxel first (integers), so the sum does not depend
//      on the order the cells are visited in: deterministic on the GPU too;
//   3. chemotaxis: a cell's tractor T = chemotaxis x grad c (central differences at its voxel,
//      one-sided at the walls) enters its move as dt x T, before the adherence test (BDM).
// A closed boundary reflects (no flux through the walls); an open one holds c = 0 outside.
// Per-voxel arithmetic shared by the CPU reference (T = double) and CUDA (T = float).
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "sim/core/host_device.hpp"
#include "sim/models/spheres/spheres_physics.hpp"

namespace cf::spheres {

enum class SubstanceBoundary : std::int32_t { Closed = 0, Open = 1 };

// Voxels over the box [lo, lo + n h): n = ceil(extent / requested voxel) per axis, so the
// grid fills the domain exactly and each h is at most the requested size.
struct FieldGrid {
    std::int32_t n[3];
    double lo[3];
    double h[3];

    CF_HD std::size_t voxels() const {
        return static_cast<std::size_t>(n[0]) * static_cast<std::size_t>(n[1]) *
               static_cast<std::size_t>(n[2]);
    }
    CF_HD double voxelVolume() const { return h[0] * h[1] * h[2]; }
};

// Per-axis voxel count before any allocation (may exceed int range; the caller checks).
inline double voxelsAlong(double extent, double voxel) {
    return std::ceil(extent / voxel - 1e-9);
}

inline FieldGrid makeFieldGrid(const double lo[3], const double hi[3], double voxel) {
    FieldGrid g{};
    for (int a = 0; a < 3; ++a) {
        const double extent = hi[a] - lo[a];
        g.n[a] = static_cast<std::int32_t>(voxelsAlong(extent, voxel));
        if (g.n[a] < 1) g.n[a] = 1;
        g.lo[a] = lo[a];
        g.h[a] = extent / g.n[a];
    }
    return g;
}

// The FTCS substeps of one step and their coefficients (lambda_a = D dt_k / h_a^2).
struct DiffusionPlan {
    int substeps;
    double lambda[3];
    double decayPerSubstep;  // decay x dt / k
};

inline DiffusionPlan planDiffusion(const FieldGrid& g, double diffusion, double decay, double dt) {
    double sumInvH2 = 0.0;
    for (double h : g.h)
        sumInvH2 += 1.0 / (h * h);
    DiffusionPlan plan{};
    const double k = std::ceil(2.0 * diffusion * dt * sumInvH2 * (1.0 + 1e-12));
    plan.substeps = k < 1.0 ? 1 : static_cast<int>(k);
    const double dtk = dt / plan.substeps;
    for (int a = 0; a < 3; ++a)
        plan.lambda[a] = diffusion * dtk / (g.h[a] * g.h[a]);
    plan.decayPerSubstep = decay * dtk;
    return plan;
}

// The voxel holding (x, y, z): points outside the box count in the nearest edge voxel.
CF_HD std::int32_t voxelCoordinate(double x, double lo, double h, std::int32_t n) {
    const double t = floor((x - lo) / h);
    if (!(t >= 0.0)) return 0;  // also NaN
    return t >= static_cast<double>(n) ? n - 1 : static_cast<std::int32_t>(t);
}

CF_HD std::size_t voxelOf(const FieldGrid& g, double x, double y, double z) {
    const auto i = static_cast<std::size_t>(voxelCoordinate(x, g.lo[0], g.h[0], g.n[0]));
    const auto j = static_cast<std::size_t>(voxelCoordinate(y, g.lo[1], g.h[1], g.n[1]));
    const auto k = static_cast<std::size_t>(voxelCoordinate(z, g.lo[2], g.h[2], g.n[2]));
    return i + static_cast<std::size_t>(g.n[0]) * (j + static_cast<std::size_t>(g.n[1]) * k);
}

// One FTCS substep of voxel (i, j, k): c' = c + sum_a lambda_a (c_a- + c_a+ - 2c) - decay c.
// Outside the box a neighbour is c itself (closed: zero flux) or 0 (open).
template <typename T>
CF_HD T diffusedValue(const T* c, const FieldGrid& g, std::int32_t i, std::int32_t j,
                      std::int32_t k, const T lambda[3], T decay, bool open) {
    const std::size_t sx = 1, sy = static_cast<std::size_t>(g.n[0]),
                      sz = sy * static_cast<std::size_t>(g.n[1]);
    const std::size_t v = static_cast<std::size_t>(i) * sx + static_cast<std::size_t>(j) * sy +
                          static_cast<std::size_t>(k) * sz;
    const T here = c[v];
    const T outside = open ? T(0) : here;
    const std::int32_t at[3] = {i, j, k};
    const std::size_t stride[3] = {sx, sy, sz};
    T sum = here;
    for (int a = 0; a < 3; ++a) {
        const T lower = at[a] > 0 ? c[v - stride[a]] : outside;
        const T upper = at[a] + 1 < g.n[a] ? c[v + stride[a]] : outside;
        sum += lambda[a] * (lower + upper - T(2) * here);
    }
    return sum - decay * here;
}

// c and its gradient at the voxel holding (x, y, z): central differences inside, one-sided
// at the walls, 0 along an axis of a single voxel.
template <typename T>
struct Sample {
    T c;
    Vec<T> gradient;
};

template <typename T>
CF_HD Sample<T> sampleField(const T* c, const FieldGrid& g, double x, double y, double z) {
    const std::int32_t at[3] = {voxelCoordinate(x, g.lo[0], g.h[0], g.n[0]),
                                voxelCoordinate(y, g.lo[1], g.h[1], g.n[1]),
                                voxelCoordinate(z, g.lo[2], g.h[2], g.n[2])};
    const std::size_t stride[3] = {
        1, static_cast<std::size_t>(g.n[0]),
        static_cast<std::size_t>(g.n[0]) * static_cast<std::size_t>(g.n[1])};
    std::size_t v = 0;
    for (int a = 0; a < 3; ++a)
        v += static_cast<std::size_t>(at[a]) * stride[a];
    T grad[3];
    for (int a = 0; a < 3; ++a) {
        const bool hasLower = at[a] > 0, hasUpper = at[a] + 1 < g.n[a];
        const T lower = hasLower ? c[v - stride[a]] : c[v];
        const T upper = hasUpper ? c[v + stride[a]] : c[v];
        const int span = (hasLower ? 1 : 0) + (hasUpper ? 1 : 0);
        grad[a] = span == 0 ? T(0) : (upper - lower) / (T(span) * T(g.h[a]));
    }
    return {c[v], {grad[0], grad[1], grad[2]}};
}

}  // namespace cf::spheres
