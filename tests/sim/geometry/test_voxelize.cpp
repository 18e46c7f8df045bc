// SPDX-License-Identifier: GPL-3.0-or-later
// Voxelization of closed meshes into inside / membrane / outside site types.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "sim/core/errors.hpp"
#include "sim/geometry/mesh_import.hpp"
#include "sim/geometry/voxelize.hpp"
#include "tests/sim/geometry/geometry_test_support.hpp"

namespace cf::geometry::test {
namespace {

constexpr RegionTypes kTypes{1, 2, 0};  // inside (cytoplasm), membrane, outside

std::size_t count(const std::vector<std::uint8_t>& types, std::uint8_t t) {
    return static_cast<std::size_t>(std::count(types.begin(), types.end(), t));
}

// Calls f(neighbourType) for the 6 neighbours of (x, y, z) inside the lattice.
template <class F>
void forNeighbours(const LatticeFrame& f, const std::vector<std::uint8_t>& t, int x, int y, int z,
                   F&& fn) {
    const int d[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (const auto& o : d) {
        const int a = x + o[0], b = y + o[1], c = z + o[2];
        if (a < 0 || b < 0 || c < 0 || a >= f.n[0] || b >= f.n[1] || c >= f.n[2]) continue;
        fn(t[f.index(a, b, c)]);
    }
}

// The capsule (2 um x 0.8 um) in nm on a 20 nm lattice, with a sub-site shift of the
// lattice so that no alignment is special.
struct CapsuleLattice {
    LatticeFrame frame;
    TriangleMesh mesh;
};
CapsuleLattice capsuleLattice(float spacing, std::array<float, 3> shift) {
    CapsuleLattice c;
    const int nxy = static_cast<int>(1000.0f / spacing), nz = static_cast<int>(2400.0f / spacing);
    c.frame = {
        {nxy, nxy, nz}, spacing, {shift[0] * spacing, shift[1] * spacing, shift[2] * spacing}};
    c.mesh = transformed(loadTriangleMesh(asset("meshes/capsule.obj")), 1000.0f,
                         {500.0f, 500.0f, 1200.0f});
    return c;
}

// The sites inside (cytoplasm + membrane) x spacing^3 against the capsule's volume, for
// four sub-site shifts of the lattice. Tolerance 1 %: the cylinder (69 % of the volume,
// radius 20 sites at 20 nm) is a stack of identical cross-sections, so its error does not
// average out along the axis; it is the lattice-point discrepancy of a disc of radius 20,
// at most 0.93 % over all centre offsets (counted exhaustively on a 1/20-site grid), while
// the caps' 3-D discrepancy is smaller. A bias of half a site in the surface (area x
// spacing / 2 = 5.8 %) fails by 6x. Against the analytic capsule add the mesh's own
// deficit, 0.23 % (test_mesh.cpp).
TEST(Voxelize, CapsuleInsideVolumeMatchesTheAnalyticCapsule) {
    const double spacing = 20.0;                    // nm
    const double analytic = capsuleVolume() * 1e9;  // nm^3
    for (const auto& shift : {std::array<float, 3>{0.0f, 0.0f, 0.0f},
                              {0.31f, 0.17f, 0.43f},
                              {0.5f, 0.5f, 0.5f},
                              {0.77f, 0.61f, 0.09f}}) {
        const CapsuleLattice c = capsuleLattice(static_cast<float>(spacing), shift);
        const auto types = voxelizeRegions(c.mesh, c.frame, 0.0f, kTypes);
        const double inside = double(count(types, kTypes.inside) + count(types, kTypes.membrane)) *
                              spacing * spacing * spacing;
        const double meshVolume = enclosedVolume(c.mesh);
        std::printf(
            "shift (%.2f %.2f %.2f): voxels %.5g nm^3, mesh %.5g, analytic %.5g: "
            "%+.3f %% vs mesh, %+.3f %% vs analytic\n",
            shift[0], shift[1], shift[2], inside, meshVolume, analytic,
            100.0 * (inside / meshVolume - 1.0), 100.0 * (inside / analytic - 1.0));
        EXPECT_NEAR(inside, meshVolume, 0.01 * meshVolume);
        EXPECT_NEAR(inside, analytic, (0.01 + 0.0023) * analytic);
    }
}

// Thickness of one layer: membrane sites are exactly the inside sites with an outside
// 6-neighbour; cytoplasm sites have none. The outermost layer is not enough to make a
// shell if it had holes: check that no cytoplasm site touches the outside anywhere.
TEST(Voxelize, MembraneOfOneLayerIsAClosedShell) {
    const CapsuleLattice c = capsuleLattice(20.0f, {0.31f, 0.17f, 0.43f});
    const auto types = voxelizeRegions(c.mesh, c.frame, 20.0f, kTypes);
    const LatticeFrame& f = c.frame;
    std::size_t membrane = 0, cytoplasm = 0;
    for (int z = 0; z < f.n[2]; ++z)
        for (int y = 0; y < f.n[1]; ++y)
            for (int x = 0; x < f.n[0]; ++x) {
                const std::uint8_t t = types[f.index(x, y, z)];
                if (t == kTypes.outside) continue;
                bool touchesOutside = false;
                forNeighbours(f, types, x, y, z,
                              [&](std::uint8_t n) { touchesOutside |= n == kTypes.outside; });
                if (t == kTypes.membrane) {
                    ++membrane;
                    EXPECT_TRUE(touchesOutside) << "membrane site " << x << " " << y << " " << z;
                } else {
                    ++cytoplasm;
                    EXPECT_FALSE(touchesOutside) << "cytoplasm site " << x << " " << y << " " << z;
                }
            }
    // A plane with unit normal n has max_k |n_k| / spacing^2 sites per area with a
    // neighbour across it: between 1/sqrt(3) and 1 times area / spacing^2 = 12,575 for the
    // capsule's 5.03 um^2 at 20 nm (5 % slack for curvature and discreteness).
    const double perArea = capsuleArea() * 1e6 / (20.0 * 20.0);
    std::printf("one layer: %zu membrane sites (area / spacing^2 = %.0f), %zu cytoplasm sites\n",
                membrane, perArea, cytoplasm);
    EXPECT_GT(double(membrane), 0.95 * perArea / std::sqrt(3.0));
    EXPECT_LT(double(membrane), 1.05 * perArea);
    EXPECT_GT(cytoplasm, 0u);
    // Thickness 0 means one layer too.
    EXPECT_EQ(voxelizeRegions(c.mesh, c.frame, 0.0f, kTypes), types);
}

// A thicker membrane against a brute-force search: an inside site is membrane when an
// outside site lies within the thickness (centre to centre).
TEST(Voxelize, ThickMembraneIsTheInsideWithinTheThicknessOfTheOutside) {
    const CapsuleLattice c = capsuleLattice(40.0f, {0.2f, 0.6f, 0.3f});
    const LatticeFrame& f = c.frame;
    for (float layers : {1.0f, 2.5f, 3.0f}) {
        const float thickness = layers * f.spacing;
        const auto types = voxelizeRegions(c.mesh, f, thickness, kTypes);
        const int reach = static_cast<int>(layers);
        std::size_t membrane = 0;
        for (int z = 0; z < f.n[2]; ++z)
            for (int y = 0; y < f.n[1]; ++y)
                for (int x = 0; x < f.n[0]; ++x) {
                    const std::uint8_t t = types[f.index(x, y, z)];
                    if (t == kTypes.outside) continue;
                    bool near = false;
                    for (int dz = -reach; dz <= reach && !near; ++dz)
                        for (int dy = -reach; dy <= reach && !near; ++dy)
                            for (int dx = -reach; dx <= reach && !near; ++dx) {
                                const int a = x + dx, b = y + dy, cz = z + dz;
                                if (a < 0 || b < 0 || cz < 0 || a >= f.n[0] || b >= f.n[1] ||
                                    cz >= f.n[2])
                                    continue;
                                near = dx * dx + dy * dy + dz * dz <= layers * layers &&
                                       types[f.index(a, b, cz)] == kTypes.outside;
                            }
                    EXPECT_EQ(t == kTypes.membrane, near) << x << " " << y << " " << z;
                    membrane += t == kTypes.membrane;
                }
        std::printf("thickness %.1f sites: %zu membrane sites\n", layers, membrane);
    }
}

// Rows through edges and vertices: a box whose faces lie on site centres. Grazing rows are
// decided as if the ray were moved by (+e, +e^2) in (y, z), and a centre on a face in x
// counts as past it: the box [0, 4]^3 on centres 0..7 is exactly the sites 0..3 per axis.
TEST(Voxelize, GrazingRowsAreDecidedConsistently) {
    const LatticeFrame f{{8, 8, 8}, 1.0f, {-0.5f, -0.5f, -0.5f}};  // centres at integers
    const auto types = voxelizeRegions(boxMesh({0, 0, 0}, {4, 4, 4}), f, 0.0f, kTypes);
    for (int z = 0; z < 8; ++z)
        for (int y = 0; y < 8; ++y)
            for (int x = 0; x < 8; ++x)
                EXPECT_EQ(types[f.index(x, y, z)] != kTypes.outside, x < 4 && y < 4 && z < 4)
                    << x << " " << y << " " << z;
}

// The octahedron's vertices and edges lie on rows of site centres, and some of its surface
// on site centres. The rule above is what a mesh moved by (-dx, -dy, -dz) with
// 1 >> dx >> dy >> dz gives: a crossing exactly at a centre counts as passed (dx), grazing
// rows see the ray moved by +dy in y, then +dz in z. With (1e-2, 1e-4, 1e-6) no row grazes
// anything and no crossing moves past another site centre (octahedron slopes are 1).
TEST(Voxelize, GrazingVerticesMatchANudgedMesh) {
    const LatticeFrame f{{16, 16, 16}, 1.0f, {-0.5f, -0.5f, -0.5f}};
    for (float r : {3.0f, 5.0f, 6.0f}) {
        const auto exact = voxelizeRegions(octahedronMesh({7, 8, 7}, r), f, 0.0f, kTypes);
        TriangleMesh nudged = octahedronMesh({7, 8, 7}, r);
        for (auto& v : nudged.vertices) {
            v[0] -= 1e-2f;
            v[1] -= 1e-4f;
            v[2] -= 1e-6f;
        }
        const auto reference = voxelizeRegions(nudged, f, 0.0f, kTypes);
        EXPECT_EQ(exact, reference) << "r = " << r;
        // Centres strictly inside are in, strictly outside are out; on the surface, either.
        std::size_t strict = 0, inside = 0;
        for (int z = 0; z < 16; ++z)
            for (int y = 0; y < 16; ++y)
                for (int x = 0; x < 16; ++x) {
                    const float l1 = float(std::abs(x - 7) + std::abs(y - 8) + std::abs(z - 7));
                    const bool in = exact[f.index(x, y, z)] != kTypes.outside;
                    if (l1 < r) {
                        EXPECT_TRUE(in) << x << " " << y << " " << z;
                    }
                    if (l1 > r) {
                        EXPECT_FALSE(in) << x << " " << y << " " << z;
                    }
                    strict += l1 < r;
                    inside += in;
                }
        std::printf("octahedron r = %g: %zu inside sites (%zu strictly inside)\n", r, inside,
                    strict);
    }
}

// Sites beyond the lattice are not outside: a box around the whole lattice makes every site
// inside, with no membrane. A mesh beside the lattice leaves it all outside.
TEST(Voxelize, MeshesReachingPastTheLattice) {
    const LatticeFrame f{{6, 5, 4}, 2.0f, {0, 0, 0}};
    const auto all = voxelizeRegions(boxMesh({-5, -5, -5}, {50, 50, 50}), f, 4.0f, kTypes);
    EXPECT_EQ(count(all, kTypes.inside), f.siteCount());
    const auto none =
        voxelizeRegions(boxMesh({-1e30f, 100, 100}, {1e30f, 200, 200}), f, 4.0f, kTypes);
    EXPECT_EQ(count(none, kTypes.outside), f.siteCount());
}

TEST(Voxelize, OpenMeshesAndBadArgumentsAreRefused) {
    const LatticeFrame f{{8, 8, 8}, 1.0f, {0, 0, 0}};
    TriangleMesh open = boxMesh({1, 1, 1}, {5, 5, 5});
    open.triangles.pop_back();
    EXPECT_THROW(voxelizeRegions(open, f, 0.0f, kTypes), GeometryError);
    const TriangleMesh box = boxMesh({1, 1, 1}, {5, 5, 5});
    EXPECT_THROW(voxelizeRegions(box, f, -1.0f, kTypes), GeometryError);
    EXPECT_THROW(voxelizeRegions(box, f, 300.0f, kTypes), GeometryError);  // > 255 sites
    EXPECT_THROW(voxelizeRegions(box, {{8, 0, 8}, 1.0f, {0, 0, 0}}, 0.0f, kTypes), GeometryError);
    EXPECT_THROW(voxelizeRegions(box, {{8, 8, 8}, 0.0f, {0, 0, 0}}, 0.0f, kTypes), GeometryError);
}

}  // namespace
}  // namespace cf::geometry::test
