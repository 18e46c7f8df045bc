// SPDX-License-Identifier: GPL-3.0-or-later
// Sphere geometry exported through Assimp reads back (through Assimp again) with the
// sphere count's vertices and triangles and the spheres' bounds, in every format offered.
#include <gtest/gtest.h>

#include <filesystem>

#include "render/geometry_export.hpp"
#include "render/mesh.hpp"

namespace cf::render {
namespace {

TEST(GeometryExport, SpheresReadBackInEveryFormat) {
    SphereGeometry g;
    g.xyzr = {0, 0, 0, 1, 5, 0, 0, 0.5f, 0, 4, 2, 2};
    g.rgb = {255, 0, 0, 0, 255, 0, 0, 0, 255};
    const auto dir = std::filesystem::temp_directory_path() / "cellforge-export-test";
    std::filesystem::create_directories(dir);
    for (const char* ext : {".ply", ".obj", ".glb", ".stl"}) {
        const auto path = dir / (std::string("spheres") + ext);
        const ExportSummary s = exportSpheres(path, g, 1);
        EXPECT_EQ(s.spheres, 3u);
        EXPECT_EQ(s.triangles, 3u * 80u);  // one subdivision: 80 triangles per sphere
        EXPECT_EQ(s.vertices, 3u * 42u);
        const MeshData back = loadMesh(path);
        EXPECT_EQ(back.indices.size(), 3u * s.triangles) << ext;
        // Icosphere vertices lie on the spheres: the bounds are the spheres' extents
        // (float text in OBJ: 1e-4).
        EXPECT_NEAR(back.boundsLo.x, -2.0f, 1e-4f) << ext;
        EXPECT_NEAR(back.boundsHi.x, 5.5f, 1e-4f) << ext;
        EXPECT_NEAR(back.boundsHi.y, 6.0f, 1e-4f) << ext;
        EXPECT_NEAR(back.boundsLo.z, -1.0f, 1e-4f) << ext;
    }
    try {
        exportSpheres(dir / "spheres.xyz", g);
        FAIL() << "an unknown extension must throw";
    } catch (const MeshError& e) {
        EXPECT_NE(std::string(e.what()).find("spheres.xyz"), std::string::npos) << e.what();
    }
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cf::render
