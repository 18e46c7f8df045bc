// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Paths and small meshes shared by the geometry tests.
#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "sim/geometry/triangle_mesh.hpp"

namespace cf::geometry::test {

inline std::filesystem::path testData(const std::string& relative) {
    return std::filesystem::path(CELLFORGE_TEST_DATA) / relative;
}

inline std::filesystem::path asset(const std::string& relative) {
    return std::filesystem::path(CELLFORGE_ASSETS) / relative;
}

inline std::filesystem::path writeTemp(const std::string& name, const std::string& content) {
    const auto path = std::filesystem::temp_directory_path() / name;
    std::ofstream(path, std::ios::binary) << content;
    return path;
}

// The capsule of assets/meshes/capsule.obj (tools/make_capsule_mesh.py), in um.
constexpr double kCapsuleRadius = 0.4, kCapsuleLength = 2.0;
inline double capsuleVolume(double r = kCapsuleRadius, double length = kCapsuleLength) {
    const double pi = 3.14159265358979323846;
    return pi * r * r * (length - 2 * r) + 4.0 / 3.0 * pi * r * r * r;
}
inline double capsuleArea(double r = kCapsuleRadius, double length = kCapsuleLength) {
    const double pi = 3.14159265358979323846;
    return 2 * pi * r * (length - 2 * r) + 4 * pi * r * r;
}

// Axis-aligned box [lo, hi] as 12 triangles, counter-clockwise seen from outside.
inline TriangleMesh boxMesh(std::array<float, 3> lo, std::array<float, 3> hi) {
    TriangleMesh m;
    for (int z = 0; z < 2; ++z)
        for (int y = 0; y < 2; ++y)
            for (int x = 0; x < 2; ++x)
                m.vertices.push_back({x ? hi[0] : lo[0], y ? hi[1] : lo[1], z ? hi[2] : lo[2]});
    const std::uint32_t quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                       {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    for (const auto& q : quads) {
        m.triangles.push_back({q[0], q[1], q[2]});
        m.triangles.push_back({q[0], q[2], q[3]});
    }
    return m;
}

// Octahedron |x - c| + |y - c| + |z - c| <= r (8 triangles, outward).
inline TriangleMesh octahedronMesh(std::array<float, 3> c, float r) {
    TriangleMesh m;
    m.vertices = {{c[0] + r, c[1], c[2]}, {c[0] - r, c[1], c[2]}, {c[0], c[1] + r, c[2]},
                  {c[0], c[1] - r, c[2]}, {c[0], c[1], c[2] + r}, {c[0], c[1], c[2] - r}};
    for (std::uint32_t sx : {0u, 1u})
        for (std::uint32_t sy : {2u, 3u})
            for (std::uint32_t sz : {4u, 5u}) {
                // Outward winding: (x, y, z) for an even number of negative axes.
                const bool flip = ((sx == 1) + (sy == 3) + (sz == 5)) % 2 == 1;
                m.triangles.push_back(flip ? std::array<std::uint32_t, 3>{sx, sz, sy}
                                           : std::array<std::uint32_t, 3>{sx, sy, sz});
            }
    return m;
}

}  // namespace cf::geometry::test
