// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Per-cell arithmetic of `spheres`, shared by the CPU reference (T = double) and a CUDA
// backend (T = float for mechanics; volumes stay double on both so that growth and
// division, hence the population, are bitwise identical across backends).
// Formulas: design note sections 1.2-1.5 (BioDynaMo default_force.h, cell.h).
#include <cmath>
#include <cstdint>

#include "sim/core/host_device.hpp"
#include "sim/core/no_fma.hpp"
#include "sim/core/rng.hpp"

namespace cf::spheres {

inline constexpr double kPi = 3.14159265358979323846;

template <typename T>
struct Vec {
    T x, y, z;
};

// Volume of a sphere of diameter d, and the inverse. The division test compares volumes,
// never cbrt results, so that it does not depend on libm.
CF_HD double sphereVolume(double d) {
    return (kPi / 6.0) * d * d * d;
}
CF_HD double diameterOf(double volume) {
    return cbrt(6.0 * volume / kPi);
}

// Square roots that resolve to the precision of T on host and device alike.
CF_HD float rootOf(float v) {
    return sqrtf(v);
}
CF_HD double rootOf(double v) {
    return sqrt(v);
}

// |v|^2 as (x x + y y) + z z with every product and sum rounded on its own
// (sim/core/no_fma.hpp): ptxas had fused it differently in different force kernels
// (docs/SPHERES.md), so every kernel, and the host, square a length the same way.
template <typename T>
CF_HD T squaredNorm(Vec<T> v) {
    return addNoFma(addNoFma(mulNoFma(v.x, v.x), mulNoFma(v.y, v.y)), mulNoFma(v.z, v.z));
}

template <typename T>
struct ForceCoefficients {
    T radiusExtension;  // e, added to each radius
    T repulsion;        // kappa
    T attraction;       // gamma
    T coincident;       // half-width of the random force for coincident centres
};

// Force on cell i from cell j, c = p_i - p_j, for a pair the caller has already found within
// the interaction radius (strict d^2 < rc^2). Zero without contact (delta < 0). Coincident
// centres (d < 1e-8, tested after delta as in BioDynaMo) draw a random vector from
// Philox(seed, kContactStream)(step, idI, idJ): each ordered pair draws its own, as in BDM.
template <typename T>
CF_HD Vec<T> pairForce(Vec<T> c, T diameterI, T diameterJ, const ForceCoefficients<T>& k,
                       const rng::Philox& contact, std::uint64_t step, std::uint32_t idI,
                       std::uint32_t idJ) {
    const T ri = diameterI * T(0.5) + k.radiusExtension;
    const T rj = diameterJ * T(0.5) + k.radiusExtension;
    const T d = rootOf(squaredNorm(c));
    const T delta = ri + rj - d;
    if (delta < T(0)) return {T(0), T(0), T(0)};
    if (d < T(1e-8)) {
        const rng::Word4 w = contact(step, idI, idJ);
        const T h = k.coincident;
        return {h * (T(2) * T(rng::uniformFloat(w.x)) - T(1)),
                h * (T(2) * T(rng::uniformFloat(w.y)) - T(1)),
                h * (T(2) * T(rng::uniformFloat(w.z)) - T(1))};
    }
    const T r = ri * rj / (ri + rj);
    const T f = k.repulsion * delta - k.attraction * rootOf(r * delta);
    const T scale = f / d;
    return {scale * c.x, scale * c.y, scale * c.z};
}

// Move of one cell from its total force (section 1.3), BioDynaMo's CalculateDisplacement:
// the tractor (active movement, e.g. chemotaxis) always gives dt T; the force adds F dt / m
// only when |F| > adherence (strict), and then, when |F| dt / m exceeds max_displacement, the
// whole move is scaled to that length (BioDynaMo normalises; it does not clamp each
// component). With no tractor the move is bitwise F dt / m (0 + x is exact).
template <typename T>
CF_HD Vec<T> displacementFromForce(Vec<T> force, T mass, T dt, T adherence, T maxDisplacement,
                                   Vec<T> tractor = {T(0), T(0), T(0)}) {
    const T norm = rootOf(squaredNorm(force));
    Vec<T> move{tractor.x * dt, tractor.y * dt, tractor.z * dt};
    if (!(norm > adherence)) return move;
    const T h = dt / mass;
    move = {move.x + force.x * h, move.y + force.y * h, move.z + force.z * h};
    if (norm * h > maxDisplacement) {
        const T length = rootOf(squaredNorm(move));
        const T s = length > T(0) ? maxDisplacement / length : T(0);
        move = {move.x * s, move.y * s, move.z * s};
    }
    return move;
}

// Growth of a cell that does not divide: one IEEE add of a host-computed double, floored.
CF_HD double grownVolume(double volume, double growthPerStep, double floorVolume) {
    const double v = volume + growthPerStep;
    return v < floorVolume ? floorVolume : v;
}

// The random part of a division (cell.h DivideImpl draws ratio, theta, phi in that order).
struct DivisionDraw {
    double ratio;       // daughter volume / mother volume
    double ax, ay, az;  // unit axis, mother -> daughter
};

CF_HD DivisionDraw divisionDraw(const rng::Philox& gen, std::uint64_t step, std::uint32_t id,
                                double ratioMin, double ratioMax) {
    const rng::Word4 a = gen(step, id, 0);
    const rng::Word4 b = gen(step, id, 1);
    const double u0 = rng::uniformDouble(a.x, a.y);
    const double u1 = rng::uniformDouble(a.z, a.w);
    const double u2 = rng::uniformDouble(b.x, b.y);
    DivisionDraw d;
    d.ratio = fma(ratioMax - ratioMin, u0, ratioMin);
    const double theta = 2.0 * kPi * u1;
    const double phi = acos(2.0 * u2 - 1.0);
    d.ax = cos(theta) * sin(phi);
    d.ay = sin(theta) * sin(phi);
    d.az = cos(phi);
    return d;
}

struct DivisionResult {
    double motherVolume, daughterVolume;
    double motherShift, daughterShift;  // mother moves -shift*a, daughter sits at +shift*a
};

// Volumes and offsets of a division of a cell of `volume` and `diameter` (before division):
// V_m = V / (ratio + 1), V_d = V - V_m (so V_m + V_d = V up to one rounding), the centres
// L = D/8 apart, split so that the volume-weighted centre stays where the mother was.
CF_HD DivisionResult divide(double volume, double diameter, double ratio) {
    DivisionResult r;
    r.motherVolume = volume / (ratio + 1.0);
    r.daughterVolume = volume - r.motherVolume;
    const double distance = diameter * 0.5 / 4.0;
    r.daughterShift = distance / (ratio + 1.0);
    r.motherShift = distance - r.daughterShift;
    return r;
}

}  // namespace cf::spheres
