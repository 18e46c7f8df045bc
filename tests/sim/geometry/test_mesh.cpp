// SPDX-License-Identifier: GPL-3.0-or-later
// Mesh import through Assimp, welding, placement, closedness and enclosed volume.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <utility>

#include "sim/core/errors.hpp"
#include "sim/geometry/mesh_file_check.hpp"
#include "sim/geometry/mesh_import.hpp"
#include "sim/geometry/triangle_mesh.hpp"
#include "tests/sim/geometry/geometry_test_support.hpp"

namespace cf::geometry::test {
namespace {

void expectBounds(const TriangleMesh& m, std::array<float, 3> lo, std::array<float, 3> hi,
                  float tolerance) {
    const Bounds b = boundingBox(m);
    for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(b.lo[k], lo[k], tolerance) << "axis " << k;
        EXPECT_NEAR(b.hi[k], hi[k], tolerance) << "axis " << k;
    }
}

// The committed capsule: counts from tools/make_capsule_mesh.py (64 segments, 16 cap rings,
// 12 body rings: 2 + 43 x 64 vertices, 2 x 64 + 42 x 128 triangles).
TEST(MeshImport, CapsuleLoadsClosedWithItsVolume) {
    const TriangleMesh m = loadTriangleMesh(asset("meshes/capsule.obj"));
    EXPECT_EQ(m.vertices.size(), 2754u);
    EXPECT_EQ(m.triangles.size(), 5504u);
    const MeshCheck check = checkClosed(m);
    EXPECT_EQ(check.boundaryEdges, 0u);
    EXPECT_EQ(check.nonManifoldEdges, 0u);
    EXPECT_EQ(check.degenerateTriangles, 0u);
    EXPECT_TRUE(check.closed());
    EXPECT_NO_THROW(requireClosed(m, "capsule.obj"));
    expectBounds(m, {-0.4f, -0.4f, -1.0f}, {0.4f, 0.4f, 1.0f}, 1e-6f);
    // Corners on the capsule: the polyhedron is inside it. 64 segments lose
    // 1 - sin(2 pi/64)/(2 pi/64) = 0.16 % of the cross-section, the caps' 16 rings about as
    // much: the deficit lies in (0, 0.3 %]. Positive: the triangles wind outward.
    const double v = enclosedVolume(m), exact = capsuleVolume();
    std::printf("capsule: mesh volume %.6f um^3, analytic %.6f um^3 (%.3f %% below)\n", v, exact,
                100.0 * (1.0 - v / exact));
    EXPECT_LT(v, exact);
    EXPECT_GT(v, exact * (1.0 - 0.003));
}

// Files that store a corner once per normal (the OBJ cube, STL facets) weld to one vertex
// per position, which is what makes them closed. Counts: tests/render/meshes/make_meshes.py.
TEST(MeshImport, CornersWithSeveralNormalsWeldIntoOneVertex) {
    const ImportedMesh cube = importMesh(testData("render/meshes/cube.obj"));
    EXPECT_EQ(cube.mesh.vertices.size(), 24u);  // 8 corners x 3 face normals
    ASSERT_EQ(cube.normals.size(), 24u);
    const TriangleMesh welded = loadTriangleMesh(testData("render/meshes/cube.obj"));
    EXPECT_EQ(welded.vertices.size(), 8u);
    EXPECT_EQ(welded.triangles.size(), 12u);
    EXPECT_TRUE(checkClosed(welded).closed());
    EXPECT_EQ(checkClosed(cube.mesh).boundaryEdges, 24u);  // unwelded: each face on its own
    EXPECT_DOUBLE_EQ(enclosedVolume(welded), 8.0);         // [-1, 1]^3

    const TriangleMesh pyramid = loadTriangleMesh(testData("render/meshes/pyramid.stl"));
    EXPECT_EQ(pyramid.vertices.size(), 5u);
    EXPECT_EQ(pyramid.triangles.size(), 6u);
    EXPECT_TRUE(checkClosed(pyramid).closed());
    EXPECT_NEAR(enclosedVolume(pyramid), 4.0 * 2.0 / 3.0, 1e-6);  // base 2 x 2, height 2
}

// One mesh used by two nodes under a translated root: both copies, placed by the product of
// their node transforms (the same file as the renderer's import test).
TEST(MeshImport, GltfNodesAreMergedWithTheirTransforms) {
    const TriangleMesh m = loadTriangleMesh(testData("render/meshes/two_quads.gltf"));
    EXPECT_EQ(m.vertices.size(), 8u);
    EXPECT_EQ(m.triangles.size(), 4u);
    expectBounds(m, {0.0f, 0.0f, 1.0f}, {3.0f, 1.0f, 2.0f}, 1e-6f);
    EXPECT_EQ(checkClosed(m).boundaryEdges, 8u);  // two open quads
}

TEST(MeshImport, OpenBoxIsReportedWithItsBoundaryEdges) {
    const TriangleMesh m = loadTriangleMesh(testData("sim/geometry/data/open_box.obj"));
    EXPECT_EQ(m.vertices.size(), 8u);
    EXPECT_EQ(m.triangles.size(), 10u);
    const MeshCheck check = checkClosed(m);
    EXPECT_EQ(check.boundaryEdges, 4u);  // the rim of the missing top face
    EXPECT_EQ(check.nonManifoldEdges, 0u);
    EXPECT_FALSE(check.closed());
    try {
        requireClosed(m, "open_box.obj");
        ADD_FAILURE() << "no error for an open mesh";
    } catch (const GeometryError& e) {
        EXPECT_STREQ(e.what(),
                     "open_box.obj: mesh is not closed: 4 boundary edges (voxelization needs a "
                     "watertight surface)");
    }
}

// A mesh file that does not load is refused as bad input (InputFileError, exit 2).
std::string expectRefused(const std::filesystem::path& path, const std::string& reasonPart) {
    try {
        loadTriangleMesh(path);
        ADD_FAILURE() << "no error for " << path;
    } catch (const InputFileError& e) {
        const std::string what = e.what();
        std::printf("%s\n", what.c_str());
        EXPECT_EQ(what.rfind("mesh file '" + path.string() + "': ", 0), 0u) << what;
        EXPECT_NE(what.find(reasonPart), std::string::npos) << what;
        EXPECT_GT(what.size(), what.find("': ") + 3) << what;  // a reason follows
        return what;
    }
    return {};
}

TEST(MeshImport, BadFilesAreRefusedNamingTheFile) {
    // A face past the vertices: Assimp's own reason (its words vary between versions, so
    // only that it is Assimp's and not ours is checked).
    const std::string what = expectRefused(testData("sim/geometry/data/bad_index.obj"), "");
    EXPECT_EQ(what.find("no triangles"), std::string::npos) << what;
    expectRefused("/nonexistent/cellforge/capsule.obj", "no such file");
    expectRefused(std::filesystem::temp_directory_path(), "is a directory, not a file");
    expectRefused(writeTemp("cf_geometry_lines.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nl 1 2\n"),
                  "no triangles");
}

// Headers that declare more elements than the file can hold are refused before Assimp
// allocates them (it zero-fills what an OFF or PLY header declares: fuzz_mesh found an 81-byte
// OFF file that made it ask for 7.6 GB). Without the guard these would not fail fast.
TEST(MeshImport, HeaderCountsBeyondTheFileAreRefusedBeforeAssimpAllocates) {
    const std::string offBody = "0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n";
    const std::string hugeFaces = "OFF\n4 411111111111111111111111 0\n" + offBody;
    expectRefused(writeTemp("cf_huge_faces.off", hugeFaces),
                  "the OFF header declares 411111111111111111111111 faces, more than a file of " +
                      std::to_string(hugeFaces.size()) + " bytes can hold");
    // No "OFF" word, and a leading '4' that Assimp takes for the homogeneous flag: the
    // vertex count it then reads is 3333333333.
    expectRefused(writeTemp("cf_no_header.off", "43333333333 4 0\n" + offBody),
                  "declares 3333333333 vertices");
    // UTF-16 text, which Assimp narrows before parsing; the extension does not say OFF.
    std::string wide = "\xFF\xFE";
    for (char c : "OFF\n4 900000000 0\n" + offBody)
        wide += std::string{c, '\0'};
    expectRefused(writeTemp("cf_wide.mesh", wide), "declares 900000000 faces");
    expectRefused(writeTemp("cf_huge.ply",
                            "ply\nformat ascii 1.0\nelement vertex 4000000000\n"
                            "property float x\nend_header\n0\n"),
                  "the PLY header declares 4000000000 'vertex' elements");
    // The same files with true counts load.
    EXPECT_EQ(loadTriangleMesh(writeTemp("cf_tetra.off", "# a comment\nOFF\n4 4 0\n" + offBody))
                  .triangles.size(),
              4u);
    EXPECT_EQ(loadTriangleMesh(writeTemp("cf_tetra.ply",
                                         "ply\nformat ascii 1.0\nelement vertex 4\n"
                                         "property float x\nproperty float y\nproperty float z\n"
                                         "element face 4\nproperty list uchar int vertex_indices\n"
                                         "end_header\n" +
                                             offBody))
                  .triangles.size(),
              4u);
    std::string binary =
        "ply\nformat binary_little_endian 1.0\nelement vertex 4\n"
        "property float x\nproperty float y\nproperty float z\n"
        "element face 4\nproperty list uchar int vertex_indices\nend_header\n";
    const auto append = [&binary](const auto value) {
        binary.append(reinterpret_cast<const char*>(&value), sizeof value);  // x86: little endian
    };
    for (const float c : {0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 1.f})
        append(c);
    for (const std::array<std::int32_t, 3>& f :
         {std::array<std::int32_t, 3>{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}}) {
        append(std::uint8_t{3});
        for (const std::int32_t v : f)
            append(v);
    }
    EXPECT_EQ(loadTriangleMesh(writeTemp("cf_tetra_binary.ply", binary)).triangles.size(), 4u);
}

TEST(MeshImport, DeclaredCountsUpToTheFileSizeAreAccepted) {
    EXPECT_FALSE(findMeshFileProblem("OFF 8 8\n", ".off"));  // 8 bytes: up to 8 fit
    EXPECT_TRUE(findMeshFileProblem("OFF 8 9\n", ".off"));
    EXPECT_TRUE(findMeshFileProblem("nOFF 3 13 1\n", ".off"));        // after the dimension
    EXPECT_FALSE(findMeshFileProblem("v 1 2 3 4000000000", ".obj"));  // not OFF or PLY
    const std::string ply =
        "ply\nformat binary_little_endian 1.0\nelement face 200\n"
        "property list uchar int vertex_indices\nend_header\n";
    EXPECT_EQ(findMeshFileProblem(ply, ".ply").value_or(""),
              "the PLY header declares 200 'face' elements, more than a file of " +
                  std::to_string(ply.size()) + " bytes can hold");
}

// PLY files that Assimp 5.2 loops for ever on, reads past its buffer for, or aborts on
// (shortened from the inputs fuzz_mesh found, which are replayed whole as fuzz_mesh
// regressions): each is refused with the line that is wrong.
TEST(MeshImport, MalformedPlyFilesAreRefusedWithTheLine) {
    const std::string head = "ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\n";
    const std::string faces =
        "ply\nformat ascii 1.0\nelement face 2\n"
        "property list uchar int vertex_indices\nend_header\n";
    const std::string binary =
        "ply\nformat binary_little_endian 1.0\nelement face 2\n"
        "property list char short vertex_indices\nend_header\n";
    const std::string face{'\3', '\0', '\0', '\1', '\0', '\2', '\0'};
    const std::pair<std::string, std::string> cases[] = {
        // Headers.
        {head + "end_hea\x9c\x9er\n0 0 0\n",
         "line 5 of the PLY header is not a PLY header line: 'end_hea\x9c\x9er'"},
        {head, "the PLY header has no end_header line"},
        {"ply\x86OFF\nformat ascii 1.0\n",  // read as PLY: the extension says so
         "line 1 of the PLY header is not 'ply'"},
        {head + "property fe" + std::string(5, '\0') + "loat x\nend_header\n",
         "line 5 of the PLY header has a control character (a binary header?)"},
        {head + "property flaot y\nend_header\n",
         "line 5 of the PLY header is not 'property TYPE NAME' or 'property list TYPE TYPE NAME'"},
        {head + "element face zzz4\nend_header\n",
         "line 5 of the PLY header is not 'element NAME COUNT'"},
        {"ply\nformat ascii 0.0\nend_header\n",
         "line 2 of the PLY header is not 'format ascii|binary_little_endian|binary_big_endian "
         "1.0'"},
        {"ply\nformat ascii 1.0\nproperty float x\nend_header\n",
         "line 3 of the PLY header has a property before any element"},
        // ASCII bodies: one line of numbers per element, as many as its properties call for.
        {faces + "3 0 1 2\n3 0 2\n",
         "line 7 of the PLY file: 'face' 2 of 2 has 3 numbers, fewer than its properties need"},
        {faces + "3 0 1 2\n3 0 1 2 3\n",
         "line 7 of the PLY file: 'face' 2 of 2 has 5 numbers, more than its properties need (4)"},
        {faces + "3 0 1 2\n3 0 1.5 2\n",
         "line 7 of the PLY file: '1.5' in 'face' 2 of 2 is not an integer"},
        {faces + "3 0 1 2\nv 0 1 2\n",
         "line 7 of the PLY file: 'face' 2 of 2 needs a list length, found 'v'"},
        {faces + "3 0 1 2\n", "the PLY file ends before 'face' 2 of 2 (its ASCII body is short)"},
        {faces + "3 0 1 2\n3 0 1 2\n3 0 1 2\n",
         "line 8 of the PLY file: more data after the last element the header declares"},
        {head + "end_header\n" + std::string("0\0 0\n1\n", 7),
         "line 6 of the PLY file: '0?' in 'vertex' 1 of 2 is not a number"},
        {head + "comment by hand\r\nobj_info x\nend_header\r\n+1.5e-3\n-2.\n\n", "(none)"},
        // Binary bodies: the bytes the types and list lengths call for.
        {binary + face + face, "(none)"},
        {binary + face + face.substr(0, 6), "the binary body ends inside 'face' 2 of 2"},
        {binary + face + "\xFF", "the binary body gives 'face' 2 of 2 a negative list length"},
    };
    for (const auto& [content, expected] : cases)
        EXPECT_EQ(findMeshFileProblem(content, ".ply").value_or("(none)"), expected) << content;
}

TEST(MeshChecks, NonManifoldAndDegenerateTrianglesAreCounted) {
    TriangleMesh m;
    m.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {2, 0, 0}};
    m.triangles = {{0, 1, 2}, {1, 0, 3}, {0, 1, 4}};  // three triangles on edge 0-1
    MeshCheck check = checkClosed(m);
    EXPECT_EQ(check.nonManifoldEdges, 1u);
    EXPECT_EQ(check.boundaryEdges, 6u);  // the other two edges of each
    m.triangles.push_back({2, 2, 4});    // repeated corner: no edges
    m.triangles.push_back({0, 1, 5});    // collinear: zero area, edges counted
    check = checkClosed(m);
    EXPECT_EQ(check.degenerateTriangles, 2u);
    EXPECT_EQ(check.nonManifoldEdges, 1u);  // edge 0-1 now has four triangles
    EXPECT_EQ(check.boundaryEdges, 8u);     // + 1-5 and 5-0
    try {
        requireClosed(m, "fan");
        ADD_FAILURE();
    } catch (const GeometryError& e) {
        EXPECT_STREQ(e.what(),
                     "fan: mesh is not closed: 8 boundary edges, 1 non-manifold edge "
                     "(voxelization needs a watertight surface)");
    }
}

TEST(MeshChecks, WeldingMergesEqualPositionsOnly) {
    TriangleMesh m;
    // Two triangles of a square, each with its own copies of the shared corners; -0 = +0.
    m.vertices = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0},    {-0.0f, 0, 0},
                  {1, 1, 0}, {0, 1, 0}, {0, 1, 1e-7f}};
    m.triangles = {{0, 1, 2}, {3, 4, 5}};
    const TriangleMesh w = weldByPosition(m);
    ASSERT_EQ(w.vertices.size(), 5u);  // 0/3 and 2/4 merged; 6 differs in z
    EXPECT_EQ(w.triangles[1][0], 0u);
    EXPECT_EQ(w.triangles[1][1], 2u);
    EXPECT_EQ(checkClosed(w).boundaryEdges, 4u);  // the diagonal is now shared
}

TEST(MeshChecks, OctahedronAndBoxVolumes) {
    EXPECT_NEAR(enclosedVolume(octahedronMesh({10, 20, 30}, 3.0f)), 4.0 / 3.0 * 27.0, 1e-9);
    EXPECT_TRUE(checkClosed(octahedronMesh({0, 0, 0}, 1.0f)).closed());
    EXPECT_NEAR(enclosedVolume(boxMesh({1, 2, 3}, {2, 4, 6})), 6.0, 1e-9);
}

// A mesh in um placed at a lattice centre in nm: scale 1000, then the box centre moved.
TEST(MeshTransform, ScalesThenCentresTheBoundingBox) {
    const TriangleMesh capsule = loadTriangleMesh(asset("meshes/capsule.obj"));
    const TriangleMesh nm = transformed(capsule, 1000.0f, {512.0f, 512.0f, 1024.0f});
    expectBounds(nm, {112.0f, 112.0f, 24.0f}, {912.0f, 912.0f, 2024.0f}, 1e-3f);
    EXPECT_NEAR(enclosedVolume(nm), enclosedVolume(capsule) * 1e9, enclosedVolume(nm) * 1e-6);
    const TriangleMesh off = transformed(boxMesh({1, 1, 1}, {3, 5, 7}), 0.5f, {0, 0, 0});
    expectBounds(off, {-0.5f, -1.0f, -1.5f}, {0.5f, 1.0f, 1.5f}, 0.0f);  // exact in binary
    EXPECT_THROW(transformed(capsule, 0.0f, {0, 0, 0}), GeometryError);
    EXPECT_THROW(transformed(capsule, -1.0f, {0, 0, 0}), GeometryError);
}

}  // namespace
}  // namespace cf::geometry::test
