// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/brownian/brownian_state.hpp"

#include <string>

#include "sim/core/rng.hpp"

namespace cf::brownian {

void initialPositions(const BrownianParams& p, std::uint32_t seed, std::vector<float>& x,
                      std::vector<float>& y, std::vector<float>& z) {
    const auto n = static_cast<std::size_t>(p.count);
    x.resize(n);
    y.resize(n);
    z.resize(n);
    const rng::Philox gen(seed, kInitStream);
    for (std::size_t i = 0; i < n; ++i) {
        const rng::Word4 a = gen(0, static_cast<std::uint32_t>(i), 0);
        const rng::Word4 b = gen(0, static_cast<std::uint32_t>(i), 1);
        // uniformDouble is in (0, 1]; 1 - u is in [0, 1), so positions stay inside [0, L).
        x[i] = static_cast<float>((1.0 - rng::uniformDouble(a.x, a.y)) * p.box);
        y[i] = static_cast<float>((1.0 - rng::uniformDouble(a.z, a.w)) * p.box);
        z[i] = static_cast<float>((1.0 - rng::uniformDouble(b.x, b.y)) * p.box);
        if (x[i] >= p.box) x[i] = 0.0f;  // rounding to float can reach L
        if (y[i] >= p.box) y[i] = 0.0f;
        if (z[i] >= p.box) z[i] = 0.0f;
    }
}

namespace {
std::vector<float> interleave(const std::vector<float>& a, const std::vector<float>& b,
                              const std::vector<float>& c) {
    std::vector<float> out(3 * a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        out[3 * i] = a[i];
        out[3 * i + 1] = b[i];
        out[3 * i + 2] = c[i];
    }
    return out;
}
}  // namespace

std::vector<StateArray> stateArraysOf(std::size_t count, const float* const xyz[3],
                                      const float* const dxyz[3], const std::int32_t* overlaps,
                                      MemorySpace space) {
    std::vector<StateArray> out;
    const char* axis[3] = {"x", "y", "z"};
    for (int a = 0; a < 3; ++a)
        out.push_back(stateArray(std::string("position.") + axis[a], "um",
                                 std::string("Particle position, ") + axis[a], xyz[a], count, space)
                          .holds("position", a));
    for (int a = 0; a < 3; ++a)
        out.push_back(stateArray(std::string("displacement.") + axis[a], "um",
                                 std::string("Displacement since the start, ") + axis[a], dxyz[a],
                                 count, space)
                          .holds("displacement", a));
    out.push_back(
        stateArray("overlaps", "1", "Particles overlapping this one", overlaps, count, space)
            .holds("overlaps"));
    return out;
}

Snapshot makeSnapshot(const BrownianParams& p, std::uint64_t step, double time,
                      const std::vector<float>& x, const std::vector<float>& y,
                      const std::vector<float>& z, const std::vector<float>& dx,
                      const std::vector<float>& dy, const std::vector<float>& dz,
                      const std::vector<std::int32_t>& neighbors) {
    Snapshot s;
    s.step = step;
    s.time = time;
    s.timeUnit = "s";
    for (int a = 0; a < 3; ++a) {
        s.boxLo[a] = 0.0;
        s.boxHi[a] = p.box;
    }
    const auto pos = interleave(x, y, z);
    const auto disp = interleave(dx, dy, dz);
    s.fields.push_back(Field::of<float>("position", "um", FieldRole::Positions, 3, pos));
    s.fields.push_back(Field::of<float>("displacement", "um", FieldRole::PerEntity, 3, disp));
    s.fields.push_back(
        Field::of<std::int32_t>("overlaps", "1", FieldRole::PerEntity, 1, neighbors));
    return s;
}

HostState readSnapshot(const BrownianParams& p, const Snapshot& s) {
    const auto n = static_cast<std::size_t>(p.count);
    auto take3 = [&](const char* name, std::vector<float>& a, std::vector<float>& b,
                     std::vector<float>& c) {
        const Field& f = s.at(name);
        const std::vector<float> v = f.as<float>();
        if (f.components != 3 || f.count != n)
            throw IoError("brownian: field '" + std::string(name) + "' has " +
                          std::to_string(f.count) + " x " + std::to_string(f.components) +
                          " values, expected " + std::to_string(n) + " x 3 (system.count)");
        a.resize(n);
        b.resize(n);
        c.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            a[i] = v[3 * i];
            b[i] = v[3 * i + 1];
            c[i] = v[3 * i + 2];
        }
    };
    HostState h;
    take3("position", h.x, h.y, h.z);
    take3("displacement", h.dx, h.dy, h.dz);
    h.step = s.step;
    h.time = s.time;
    return h;
}

}  // namespace cf::brownian
