// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/spheres/spheres_state.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/core/rng.hpp"
#include "sim/models/spheres/spheres_physics.hpp"

namespace cf::spheres {

void HostState::resize(std::size_t n) {
    x.resize(n);
    y.resize(n);
    z.resize(n);
    diameter.resize(n);
    volume.resize(n);
    id.resize(n);
    root.resize(n);
    generation.resize(n);
    birthStep.resize(n);
    force.resize(n);
}

void HostState::reserve(std::size_t n) {
    x.reserve(n);
    y.reserve(n);
    z.reserve(n);
    diameter.reserve(n);
    volume.reserve(n);
    id.reserve(n);
    root.reserve(n);
    generation.reserve(n);
    birthStep.reserve(n);
    force.reserve(n);
}

HostState initialState(const SpheresParams& p, std::uint32_t seed) {
    HostState s;
    const rng::Philox gen(seed, kInitStream);
    const auto layout = static_cast<Layout>(p.layout);
    std::size_t n = static_cast<std::size_t>(p.count);
    if (layout == Layout::Lattice) {
        const auto a = static_cast<std::size_t>(p.cellsPerAxis);
        n = a * a * a;
    }
    s.resize(n);
    // Draw 0..: positions; the last draw index: the initial volume.
    constexpr std::uint32_t kAgeDraw = 0xffffffffu;
    for (std::size_t i = 0; i < n; ++i) {
        const auto e = static_cast<std::uint32_t>(i);
        if (layout == Layout::Lattice) {
            // BDM demo/cell_growth.cc: Cell({i * 20, j * 20, k * 20}); x fastest here.
            const auto a = static_cast<std::size_t>(p.cellsPerAxis);
            s.x[i] = static_cast<double>(i % a) * p.spacing;
            s.y[i] = static_cast<double>((i / a) % a) * p.spacing;
            s.z[i] = static_cast<double>(i / (a * a)) * p.spacing;
        } else if (layout == Layout::Random) {
            const rng::Word4 w = gen(0, e, 0);
            const rng::Word4 v = gen(0, e, 1);
            // 1 - u is in [0, 1): the cube [0, box).
            s.x[i] = (1.0 - rng::uniformDouble(w.x, w.y)) * p.box;
            s.y[i] = (1.0 - rng::uniformDouble(w.z, w.w)) * p.box;
            s.z[i] = (1.0 - rng::uniformDouble(v.x, v.y)) * p.box;
        } else {
            // Rejection from the enclosing cube: acceptance pi/6 = 0.52, so 1000 tries fail
            // with probability 0.48^1000 (never); the last try is kept regardless.
            for (std::uint32_t t = 0; t < 1000; ++t) {
                const rng::Word4 w = gen(0, e, 2 * t);
                const rng::Word4 v = gen(0, e, 2 * t + 1);
                const double u[3] = {2.0 * rng::uniformDouble(w.x, w.y) - 1.0,
                                     2.0 * rng::uniformDouble(w.z, w.w) - 1.0,
                                     2.0 * rng::uniformDouble(v.x, v.y) - 1.0};
                s.x[i] = u[0] * p.radius;
                s.y[i] = u[1] * p.radius;
                s.z[i] = u[2] * p.radius;
                if (u[0] * u[0] + u[1] * u[1] + u[2] * u[2] <= 1.0) break;
            }
        }
        const double v0 = sphereVolume(p.diameter);
        double volume = v0;
        if (p.ageSpread > 0.0) {
            const rng::Word4 w = gen(0, e, kAgeDraw);
            volume += rng::uniformDouble(w.x, w.y) * p.ageSpread *
                      std::max(0.0, sphereVolume(p.divisionDiameter) - v0);
        }
        s.volume[i] = volume;
        s.diameter[i] = p.ageSpread > 0.0 ? diameterOf(volume) : p.diameter;
        s.id[i] = e;
        s.root[i] = e;
        s.generation[i] = 0;
        s.birthStep[i] = 0;
        s.force[i] = 0.0f;
    }
    for (int a = 0; a < 3; ++a) {
        const std::vector<double>& c = a == 0 ? s.x : (a == 1 ? s.y : s.z);
        if (c.empty()) continue;
        const auto [lo, hi] = std::minmax_element(c.begin(), c.end());
        s.boxLo[a] = *lo - p.margin;
        s.boxHi[a] = *hi + p.margin;
        // A flat layout (one cell per axis, no margin) still needs a box of positive size.
        if (s.boxHi[a] - s.boxLo[a] < p.diameter) {
            s.boxLo[a] -= p.diameter;
            s.boxHi[a] += p.diameter;
        }
    }
    conformSubstance(p, s);
    return s;
}

FieldGrid substanceGrid(const std::int32_t dims[3], const double lo[3], const double hi[3]) {
    FieldGrid g{};
    for (int a = 0; a < 3; ++a) {
        g.n[a] = std::max<std::int32_t>(1, dims[a]);
        g.lo[a] = lo[a];
        g.h[a] = (hi[a] - lo[a]) / g.n[a];
    }
    return g;
}

FieldGrid substanceGrid(const HostState& s) {
    return substanceGrid(s.substanceDims, s.boxLo, s.boxHi);
}

void conformSubstance(const SpheresParams& p, HostState& s) {
    if (!p.substance) {
        s.substance.clear();
        std::fill(std::begin(s.substanceDims), std::end(s.substanceDims), 0);
        return;
    }
    // 2^27 voxels: 1 GiB of doubles on the CPU reference.
    constexpr double kMaxVoxels = 134217728.0;
    double want[3], voxels = 1.0;
    for (int a = 0; a < 3; ++a) {
        want[a] = std::max(1.0, voxelsAlong(s.boxHi[a] - s.boxLo[a], p.voxel));
        voxels *= want[a];
    }
    if (voxels > kMaxVoxels)
        throw ParameterError("substance.voxel = " + formatValue(p.voxel) + " um over the domain " +
                             std::to_string(s.boxHi[0] - s.boxLo[0]) + " x " +
                             std::to_string(s.boxHi[1] - s.boxLo[1]) + " x " +
                             std::to_string(s.boxHi[2] - s.boxLo[2]) + " um gives " +
                             std::to_string(voxels) +
                             " voxels, more than 134,217,728: use a larger voxel or a smaller "
                             "domain.margin");
    if (!s.substance.empty()) {
        for (int a = 0; a < 3; ++a)
            if (s.substanceDims[a] != static_cast<std::int32_t>(want[a]))
                throw IoError("spheres: the snapshot's substance grid is " +
                              std::to_string(s.substanceDims[0]) + " x " +
                              std::to_string(s.substanceDims[1]) + " x " +
                              std::to_string(s.substanceDims[2]) +
                              " voxels, but substance.voxel = " + formatValue(p.voxel) +
                              " um over its domain gives " +
                              std::to_string(static_cast<long long>(want[0])) + " x " +
                              std::to_string(static_cast<long long>(want[1])) + " x " +
                              std::to_string(static_cast<long long>(want[2])));
        return;
    }
    for (int a = 0; a < 3; ++a)
        s.substanceDims[a] = static_cast<std::int32_t>(want[a]);
    s.substance.assign(static_cast<std::size_t>(voxels), 0.0);
}

Snapshot makeSnapshot(const HostState& s) {
    Snapshot out;
    out.step = s.step;
    out.time = s.time;
    out.timeUnit = "h";
    for (int a = 0; a < 3; ++a) {
        out.boxLo[a] = s.boxLo[a];
        out.boxHi[a] = s.boxHi[a];
    }
    const std::size_t n = s.size();
    std::vector<double> pos(3 * n);
    for (std::size_t i = 0; i < n; ++i) {
        pos[3 * i] = s.x[i];
        pos[3 * i + 1] = s.y[i];
        pos[3 * i + 2] = s.z[i];
    }
    using std::span;
    out.fields.push_back(
        Field::of<double>("position", "um", FieldRole::Positions, 3, span<const double>(pos)));
    out.fields.push_back(Field::of<double>("diameter", "um", FieldRole::PerEntity, 1,
                                           span<const double>(s.diameter)));
    out.fields.push_back(
        Field::of<double>("volume", "um^3", FieldRole::PerEntity, 1, span<const double>(s.volume)));
    out.fields.push_back(
        Field::of<float>("force", "1", FieldRole::PerEntity, 1, span<const float>(s.force)));
    out.fields.push_back(Field::of<std::uint32_t>("id", "1", FieldRole::PerEntity, 1,
                                                  span<const std::uint32_t>(s.id)));
    out.fields.push_back(Field::of<std::uint32_t>("root", "1", FieldRole::PerEntity, 1,
                                                  span<const std::uint32_t>(s.root)));
    out.fields.push_back(Field::of<std::uint8_t>("generation", "1", FieldRole::PerEntity, 1,
                                                 span<const std::uint8_t>(s.generation)));
    out.fields.push_back(Field::of<std::uint64_t>("birth_step", "1", FieldRole::Internal, 1,
                                                  span<const std::uint64_t>(s.birthStep)));
    if (!s.substance.empty()) {
        for (int a = 0; a < 3; ++a)
            out.gridDims[a] = static_cast<std::size_t>(s.substanceDims[a]);
        out.fields.push_back(Field::of<double>("substance", "1/um^3", FieldRole::Grid, 1,
                                               span<const double>(s.substance)));
    }
    return out;
}

HostState readSnapshot(const Snapshot& snap, std::uint64_t idBound) {
    HostState s;
    const Field& posField = snap.at("position");
    if (posField.components != 3)
        throw IoError("spheres: field 'position' has " + std::to_string(posField.components) +
                      " components, expected 3");
    const std::vector<double> pos = posField.as<double>();
    const std::size_t n = posField.count;
    auto take = [&](const char* name, auto& out) {
        using T = typename std::decay_t<decltype(out)>::value_type;
        const Field& f = snap.at(name);
        if (f.count != n || f.components != 1)
            throw IoError("spheres: field '" + std::string(name) + "' has " +
                          std::to_string(f.count) + " x " + std::to_string(f.components) +
                          " values, expected " + std::to_string(n) + " x 1 (one per cell)");
        out = f.as<T>();
    };
    s.x.resize(n);
    s.y.resize(n);
    s.z.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        s.x[i] = pos[3 * i];
        s.y[i] = pos[3 * i + 1];
        s.z[i] = pos[3 * i + 2];
    }
    take("diameter", s.diameter);
    take("volume", s.volume);
    take("force", s.force);
    take("id", s.id);
    take("root", s.root);
    take("generation", s.generation);
    take("birth_step", s.birthStep);
    for (std::size_t i = 0; i < n; ++i) {
        if (!(s.diameter[i] > 0.0) || !(s.volume[i] > 0.0))
            throw SimulationError("spheres: cell " + std::to_string(s.id[i]) +
                                  " has a non-positive diameter or volume (" +
                                  std::to_string(s.diameter[i]) + " um, " +
                                  std::to_string(s.volume[i]) + " um^3)");
        if (s.id[i] >= (idBound > 0 ? idBound : n))
            throw IoError("spheres: cell id " + std::to_string(s.id[i]) +
                          " is not below the cell count " +
                          std::to_string(idBound > 0 ? idBound : n));
    }
    s.step = snap.step;
    s.time = snap.time;
    for (int a = 0; a < 3; ++a) {
        s.boxLo[a] = snap.boxLo[a];
        s.boxHi[a] = snap.boxHi[a];
    }
    if (const Field* field = snap.find("substance")) {
        std::size_t voxels = 1;
        for (int a = 0; a < 3; ++a) {
            if (snap.gridDims[a] == 0 || snap.gridDims[a] > 1u << 20)
                throw IoError("spheres: field 'substance' has grid dimension " +
                              std::to_string(snap.gridDims[a]) + " along axis " +
                              std::to_string(a));
            s.substanceDims[a] = static_cast<std::int32_t>(snap.gridDims[a]);
            voxels *= snap.gridDims[a];
        }
        if (field->count != voxels || field->components != 1)
            throw IoError("spheres: field 'substance' has " + std::to_string(field->count) +
                          " values, expected " + std::to_string(voxels) + " (the grid)");
        s.substance = field->as<double>();
    }
    return s;
}

}  // namespace cf::spheres
