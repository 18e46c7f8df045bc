// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/geometry/triangle_mesh.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <unordered_map>
#include <utility>

#include "sim/core/errors.hpp"

namespace cf::geometry {
namespace {

using Position = std::array<float, 3>;

struct PositionHash {
    std::size_t operator()(const Position& p) const {
        std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the three bit patterns
        for (float c : p) {
            h ^= std::bit_cast<std::uint32_t>(c);
            h *= 1099511628211ull;
        }
        return static_cast<std::size_t>(h);
    }
};

// -0 and +0 are the same point; adding 0 turns -0 into +0 and leaves every other value.
Position canonical(Position p) {
    for (float& c : p)
        c += 0.0f;
    return p;
}

std::string plural(std::size_t n, const char* what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

}  // namespace

TriangleMesh weldByPosition(const TriangleMesh& mesh) {
    TriangleMesh out;
    out.triangles.reserve(mesh.triangles.size());
    std::vector<std::uint32_t> remap(mesh.vertices.size());
    // Keyed by value with bitwise equality (NaN positions stay apart, as they should).
    struct BitEqual {
        bool operator()(const Position& a, const Position& b) const {
            for (int k = 0; k < 3; ++k)
                if (std::bit_cast<std::uint32_t>(a[k]) != std::bit_cast<std::uint32_t>(b[k]))
                    return false;
            return true;
        }
    };
    std::unordered_map<Position, std::uint32_t, PositionHash, BitEqual> index;
    index.reserve(mesh.vertices.size());
    for (std::size_t v = 0; v < mesh.vertices.size(); ++v) {
        const Position p = canonical(mesh.vertices[v]);
        const auto [it, added] =
            index.try_emplace(p, static_cast<std::uint32_t>(out.vertices.size()));
        if (added) out.vertices.push_back(p);
        remap[v] = it->second;
    }
    for (const auto& t : mesh.triangles)
        out.triangles.push_back({remap.at(t[0]), remap.at(t[1]), remap.at(t[2])});
    return out;
}

Bounds boundingBox(const TriangleMesh& mesh) {
    if (mesh.vertices.empty()) return {};
    Bounds b;
    b.lo.fill(std::numeric_limits<float>::max());
    b.hi.fill(std::numeric_limits<float>::lowest());
    for (const Position& p : mesh.vertices)
        for (int k = 0; k < 3; ++k) {
            b.lo[k] = std::min(b.lo[k], p[k]);
            b.hi[k] = std::max(b.hi[k], p[k]);
        }
    return b;
}

TriangleMesh transformed(const TriangleMesh& mesh, float scale, std::array<float, 3> centre) {
    if (!(scale > 0.0f) || !std::isfinite(scale))
        throw GeometryError("mesh transform: scale must be a positive finite number, got " +
                            std::to_string(scale));
    TriangleMesh out = mesh;
    const Bounds b = boundingBox(mesh);
    for (Position& p : out.vertices)
        for (int k = 0; k < 3; ++k) {
            // Scale about the box centre, then move that centre: one rounding per step.
            const double mid = 0.5 * (static_cast<double>(b.lo[k]) + b.hi[k]);
            p[k] = static_cast<float>((p[k] - mid) * scale + centre[k]);
        }
    return out;
}

MeshCheck checkClosed(const TriangleMesh& mesh) {
    MeshCheck check;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
    edges.reserve(3 * mesh.triangles.size());
    for (const auto& t : mesh.triangles) {
        if (t[0] == t[1] || t[1] == t[2] || t[2] == t[0]) {
            ++check.degenerateTriangles;
            continue;
        }
        const Position& a = mesh.vertices.at(t[0]);
        const Position& b = mesh.vertices.at(t[1]);
        const Position& c = mesh.vertices.at(t[2]);
        double cross[3];
        const double u[3] = {double(b[0]) - a[0], double(b[1]) - a[1], double(b[2]) - a[2]};
        const double w[3] = {double(c[0]) - a[0], double(c[1]) - a[1], double(c[2]) - a[2]};
        cross[0] = u[1] * w[2] - u[2] * w[1];
        cross[1] = u[2] * w[0] - u[0] * w[2];
        cross[2] = u[0] * w[1] - u[1] * w[0];
        if (cross[0] == 0.0 && cross[1] == 0.0 && cross[2] == 0.0) ++check.degenerateTriangles;
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t p = t[k], q = t[(k + 1) % 3];
            edges.emplace_back(std::min(p, q), std::max(p, q));
        }
    }
    std::sort(edges.begin(), edges.end());
    for (std::size_t i = 0; i < edges.size();) {
        std::size_t j = i;
        while (j < edges.size() && edges[j] == edges[i])
            ++j;
        if (j - i == 1) ++check.boundaryEdges;
        if (j - i > 2) ++check.nonManifoldEdges;
        i = j;
    }
    return check;
}

void requireClosed(const TriangleMesh& mesh, const std::string& name) {
    const MeshCheck check = checkClosed(mesh);
    if (check.closed()) return;
    std::string counts;
    if (check.boundaryEdges > 0) counts = plural(check.boundaryEdges, "boundary edge");
    if (check.nonManifoldEdges > 0)
        counts +=
            (counts.empty() ? "" : ", ") + plural(check.nonManifoldEdges, "non-manifold edge");
    throw GeometryError(name + ": mesh is not closed: " + counts +
                        " (voxelization needs a watertight surface)");
}

double enclosedVolume(const TriangleMesh& mesh) {
    if (mesh.vertices.empty()) return 0.0;
    // Tetrahedra to the first vertex rather than to the origin: the same sum for a closed
    // surface, without cancellation when the mesh lies far from the origin.
    const Position& o = mesh.vertices.front();
    const auto rel = [&](std::uint32_t v) {
        const Position& p = mesh.vertices.at(v);
        return std::array<double, 3>{double(p[0]) - o[0], double(p[1]) - o[1], double(p[2]) - o[2]};
    };
    double sixTimes = 0.0;
    for (const auto& t : mesh.triangles) {
        const auto a = rel(t[0]), b = rel(t[1]), c = rel(t[2]);
        // a . (b x c): six times the signed volume of the tetrahedron (o, a, b, c).
        sixTimes += a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) +
                    a[2] * (b[0] * c[1] - b[1] * c[0]);
    }
    return sixTimes / 6.0;
}

}  // namespace cf::geometry
