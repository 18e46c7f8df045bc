// SPDX-License-Identifier: GPL-3.0-or-later
// Site types of a lattice from its geometry parameters: the cell region (none, a sphere or
// a closed mesh, sim/geometry) and the obstacles inside its cytoplasm.
#include <cmath>
#include <filesystem>
#include <string>

#include "sim/core/rng.hpp"
#include "sim/geometry/lattice_frame.hpp"
#include "sim/geometry/mesh_import.hpp"
#include "sim/geometry/sphere_obstacles.hpp"
#include "sim/geometry/triangle_mesh.hpp"
#include "sim/geometry/voxelize.hpp"
#include "sim/models/lattice/lattice_model.hpp"

namespace cf::lattice {

namespace {

geometry::LatticeFrame frameOf(const LatticeParams& p) {
    return {{p.nx, p.ny, p.nz}, p.lambda, {0.f, 0.f, 0.f}};
}

// Cytoplasm inside a sphere at the lattice centre, a membrane shell (thickness, or one
// layer: inside sites with a face neighbour outside) and outside beyond.
void sphereRegion(const LatticeParams& p, std::vector<std::uint8_t>& types) {
    const geometry::LatticeFrame f = frameOf(p);
    const double c[3] = {0.5 * p.nx * p.lambda, 0.5 * p.ny * p.lambda, 0.5 * p.nz * p.lambda};
    const double r = p.regionRadius;
    auto inside = [&](int x, int y, int z) {
        if (x < 0 || y < 0 || z < 0 || x >= p.nx || y >= p.ny || z >= p.nz) return true;
        const double d[3] = {f.centre(0, x) - c[0], f.centre(1, y) - c[1], f.centre(2, z) - c[2]};
        return d[0] * d[0] + d[1] * d[1] + d[2] * d[2] <= r * r;
    };
    const double shell = p.membraneThickness > 0 ? r - p.membraneThickness : -1.0;
    for (int z = 0; z < p.nz; ++z)
        for (int y = 0; y < p.ny; ++y)
            for (int x = 0; x < p.nx; ++x) {
                std::uint8_t& t = types[f.index(x, y, z)];
                if (!inside(x, y, z)) {
                    t = kSiteOutside;
                    continue;
                }
                bool membrane;
                if (shell >= 0) {
                    const double d[3] = {f.centre(0, x) - c[0], f.centre(1, y) - c[1],
                                         f.centre(2, z) - c[2]};
                    membrane = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) > shell;
                } else {
                    membrane = !inside(x - 1, y, z) || !inside(x + 1, y, z) ||
                               !inside(x, y - 1, z) || !inside(x, y + 1, z) ||
                               !inside(x, y, z - 1) || !inside(x, y, z + 1);
                }
                t = membrane ? kSiteMembrane : kSiteCytoplasm;
            }
}

void meshRegion(const LatticeParams& p, std::vector<std::uint8_t>& types) {
    const geometry::TriangleMesh raw = regionMesh(p);
    const geometry::LatticeFrame f = frameOf(p);
    const geometry::TriangleMesh mesh = geometry::transformed(
        raw, p.meshScale, {0.5f * p.nx * p.lambda, 0.5f * p.ny * p.lambda, 0.5f * p.nz * p.lambda});
    const float thickness = p.membraneThickness > 0 ? p.membraneThickness : p.lambda;
    types = geometry::voxelizeRegions(
        mesh, f, thickness, geometry::RegionTypes{kSiteCytoplasm, kSiteMembrane, kSiteOutside});
}

}  // namespace

geometry::TriangleMesh regionMesh(const LatticeParams& p) {
    if (p.meshFile.empty())
        throw ParameterError("geometry.region = mesh needs geometry.mesh (a closed surface file)");
    geometry::TriangleMesh mesh = geometry::loadTriangleMesh(p.meshFile);
    geometry::requireClosed(mesh, p.meshFile);
    return mesh;
}

std::vector<std::uint8_t> buildSiteTypes(const LatticeParams& p, const Geometry& g) {
    std::vector<std::uint8_t> types(g.sites, kSiteCytoplasm);
    if (p.region == static_cast<std::int32_t>(Region::Sphere)) sphereRegion(p, types);
    if (p.region == static_cast<std::int32_t>(Region::Mesh)) meshRegion(p, types);
    if (p.obstacleFraction <= 0) return types;
    if (p.obstacleShape == static_cast<std::int32_t>(ObstacleShape::Sites)) {
        // Single sites, each cytoplasm site drawn on its own.
        const rng::Philox draw(g.seed, kObstacleStream);
        const auto threshold = static_cast<std::uint64_t>(
            std::floor(static_cast<double>(p.obstacleFraction) * 4294967296.0));
        for (std::uint32_t i = 0; i < g.sites; ++i)
            if (types[i] == kSiteCytoplasm && draw(0, i, 0).x < threshold) types[i] = kSiteObstacle;
        return types;
    }
    std::vector<geometry::SphereClass> classes;
    if (p.obstacleShape == static_cast<std::int32_t>(ObstacleShape::Spheres)) {
        classes.push_back({p.obstacleRadius, p.obstacleFraction, "obstacles.radius"});
    } else {
        // The in-vivo classes total 30 %; their shares scale to the fraction asked for.
        classes = geometry::invivoCrowdingClasses();
        double total = 0;
        for (const auto& c : classes)
            total += c.volumeFraction;
        for (auto& c : classes)
            c.volumeFraction = static_cast<float>(c.volumeFraction / total * p.obstacleFraction);
    }
    const std::array<bool, 3> periodic = {g.periodic[0] != 0, g.periodic[1] != 0,
                                          g.periodic[2] != 0};
    const geometry::LatticeFrame f = frameOf(p);
    const auto spheres =
        geometry::placeSphereObstacles(f, classes, types, kSiteCytoplasm, periodic, g.seed);
    geometry::rasterizeSpheres(f, spheres, periodic, types, kSiteObstacle);
    return types;
}

}  // namespace cf::lattice
