// SPDX-License-Identifier: GPL-3.0-or-later
// Meshes (import through Assimp, drawing against closed forms and sphere impostors), the
// periodic box outline and a golden image of a mesh with its legend. Legends and cameras:
// test_scene_legend.cpp, test_scene_camera.cpp.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <glm/gtc/matrix_transform.hpp>
#include <string>
#include <utility>
#include <vector>

#include "render/guides.hpp"
#include "render/legend.hpp"
#include "render/mesh.hpp"
#include "render/offscreen_target.hpp"
#include "render/point_cloud.hpp"
#include "tests/render/scene_test_support.hpp"
#include "tests/support/golden.hpp"

namespace cf::render {
namespace {

using test::GlTest;
using test::pixel;
using test::project;
using test::testData;

void expectBounds(const MeshData& m, glm::vec3 lo, glm::vec3 hi) {
    for (int a = 0; a < 3; ++a) {
        EXPECT_FLOAT_EQ(m.boundsLo[a], lo[a]) << "axis " << a;
        EXPECT_FLOAT_EQ(m.boundsHi[a], hi[a]) << "axis " << a;
    }
}

// Every normal has unit length and every triangle winds counter-clockwise about the mean
// of its corners' normals (outside is where the normals point; a smooth normal at a sharp
// corner may lie in the plane of one of its faces, so not each corner on its own).
void expectConsistentNormals(const MeshData& m) {
    ASSERT_EQ(m.normals.size(), m.positions.size());
    for (const glm::vec3& n : m.normals)
        EXPECT_NEAR(glm::length(n), 1.0f, 1e-5f);
    for (std::size_t t = 0; t < m.triangleCount(); ++t) {
        const glm::vec3 a = m.positions[m.indices[3 * t]], b = m.positions[m.indices[3 * t + 1]],
                        c = m.positions[m.indices[3 * t + 2]];
        const glm::vec3 face = glm::cross(b - a, c - a);
        const glm::vec3 sum = m.normals[m.indices[3 * t]] + m.normals[m.indices[3 * t + 1]] +
                              m.normals[m.indices[3 * t + 2]];
        EXPECT_GT(glm::dot(face, sum), 0.0f) << "triangle " << t;
    }
}

// Counts from the generator's comments (tests/render/meshes/make_meshes.py).
TEST(MeshImport, ObjCubeKeepsItsFaceNormals) {
    const MeshData m = loadMesh(testData("render/meshes/cube.obj"));
    EXPECT_EQ(m.vertexCount(), 24u);  // 8 corners x 3 face normals
    EXPECT_EQ(m.triangleCount(), 12u);
    expectBounds(m, glm::vec3(-1.0f), glm::vec3(1.0f));
    expectConsistentNormals(m);
    for (const glm::vec3& n : m.normals)  // axis-aligned face normals, not smoothed
        EXPECT_NEAR(std::max({std::abs(n.x), std::abs(n.y), std::abs(n.z)}), 1.0f, 1e-6f);
}

// The PLY has no normals: generated smooth. At the corner at the origin three faces with
// normals -x, -y, -z and equal areas meet: the vertex normal is -(1, 1, 1) / sqrt(3).
TEST(MeshImport, PlyTetrahedronGetsSmoothNormals) {
    const MeshData m = loadMesh(testData("render/meshes/tetrahedron.ply"));
    EXPECT_EQ(m.vertexCount(), 4u);
    EXPECT_EQ(m.triangleCount(), 4u);
    expectBounds(m, glm::vec3(0.0f), glm::vec3(1.0f));
    expectConsistentNormals(m);
    const auto origin = std::find(m.positions.begin(), m.positions.end(), glm::vec3(0.0f));
    ASSERT_NE(origin, m.positions.end());
    const glm::vec3 n = m.normals[static_cast<std::size_t>(origin - m.positions.begin())];
    EXPECT_LT(glm::length(n + glm::vec3(1.0f) / std::sqrt(3.0f)), 1e-5f);
}

// STL facets carry their own normals: only the two coplanar base triangles share corners.
TEST(MeshImport, StlPyramid) {
    const MeshData m = loadMesh(testData("render/meshes/pyramid.stl"));
    EXPECT_EQ(m.vertexCount(), 16u);
    EXPECT_EQ(m.triangleCount(), 6u);
    expectBounds(m, {-1.0f, -1.0f, 0.0f}, {1.0f, 1.0f, 2.0f});
    expectConsistentNormals(m);
}

// One mesh used by two nodes under a translated root: both copies, each placed by the
// product of its node transforms; the rotated copy's normals are rotated too.
TEST(MeshImport, GltfNodesAreMergedWithTheirTransforms) {
    const MeshData m = loadMesh(testData("render/meshes/two_quads.gltf"));
    EXPECT_EQ(m.vertexCount(), 8u);
    EXPECT_EQ(m.triangleCount(), 4u);
    expectBounds(m, {0.0f, 0.0f, 1.0f}, {3.0f, 1.0f, 2.0f});
    expectConsistentNormals(m);
    int flat = 0, upright = 0;
    for (std::size_t i = 0; i < m.vertexCount(); ++i) {
        const glm::vec3 p = m.positions[i], n = m.normals[i];
        if (p.x <= 1.0f) {  // the copy in the plane z = 1
            EXPECT_FLOAT_EQ(p.z, 1.0f);
            EXPECT_NEAR(std::abs(n.z), 1.0f, 1e-5f);
            ++flat;
        } else {  // rotated into the plane y = 0, moved to x in [2, 3]
            EXPECT_NEAR(p.y, 0.0f, 1e-6f);
            EXPECT_NEAR(std::abs(n.y), 1.0f, 1e-5f);
            ++upright;
        }
    }
    EXPECT_EQ(flat, 4);
    EXPECT_EQ(upright, 4);
}

std::filesystem::path writeTemp(const std::string& name, const std::string& content) {
    const auto path = std::filesystem::temp_directory_path() / name;
    std::ofstream(path, std::ios::binary) << content;
    return path;
}

void expectMeshError(const std::filesystem::path& path, const std::string& reasonPart) {
    try {
        loadMesh(path);
        ADD_FAILURE() << "no error for " << path;
    } catch (const MeshError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(path.string()), std::string::npos) << what;
        EXPECT_NE(what.find(reasonPart), std::string::npos) << what;
        // Something after "mesh file '...': ".
        EXPECT_GT(what.size(), what.find("': ") + 3) << what;
    }
}

TEST(MeshImport, ErrorsNameTheFileAndTheReason) {
    expectMeshError("/nonexistent/cellforge/cube.obj", "no such file");
    // Garbage in a format with a signature: Assimp's reader refuses it (its words vary
    // between versions: only that there is a reason is checked).
    expectMeshError(writeTemp("cf_garbage.ply", "plyx\n\x01\x02 this is not a mesh\n"), "");
    expectMeshError(writeTemp("cf_unknown.qqq", "nothing"), "No suitable reader found");
    // Readable, but only vertices and a line: nothing to draw.
    expectMeshError(writeTemp("cf_lines.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nl 1 2\n"),
                    "no triangles");
}

Image render(int w, int h, const std::function<void()>& draw,
             glm::vec4 background = {0.0f, 0.0f, 0.0f, 1.0f}) {
    OffscreenTarget target(w, h);
    target.bind();
    target.clear(background.r, background.g, background.b, background.a);
    draw();
    return Image{w, h, target.readPixels()};
}

// Area and perimeter of the convex hull of points (Andrew's monotone chain).
std::pair<double, double> hullAreaPerimeter(std::vector<glm::dvec2> p) {
    std::sort(p.begin(), p.end(),
              [](auto a, auto b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
    const auto cross = [](glm::dvec2 o, glm::dvec2 a, glm::dvec2 b) {
        return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
    };
    std::vector<glm::dvec2> hull(2 * p.size());
    std::size_t k = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        while (k >= 2 && cross(hull[k - 2], hull[k - 1], p[i]) <= 0)
            --k;
        hull[k++] = p[i];
    }
    for (std::size_t i = p.size() - 1, lower = k + 1; i-- > 0;) {
        while (k >= lower && cross(hull[k - 2], hull[k - 1], p[i]) <= 0)
            --k;
        hull[k++] = p[i];
    }
    hull.resize(k - 1);
    double area = 0.0, perimeter = 0.0;
    for (std::size_t i = 0; i < hull.size(); ++i) {
        const glm::dvec2 a = hull[i], b = hull[(i + 1) % hull.size()];
        area += a.x * b.y - b.x * a.y;
        perimeter += glm::length(b - a);
    }
    return {0.5 * std::abs(area), perimeter};
}

std::size_t countLit(const Image& im) {
    std::size_t n = 0;
    for (int y = 0; y < im.height; ++y)
        for (int x = 0; x < im.width; ++x) {
            const std::uint8_t* c = pixel(im, x, y);
            n += (c[0] | c[1] | c[2]) != 0 ? 1 : 0;
        }
    return n;
}

// A convex solid covers the convex hull of its projected corners. Tolerance: half the
// hull's perimeter in pixels. Pixels count when their centre is covered, so along an edge
// the count is off by less than one pixel per pixel of edge length, and errors of opposite
// edges do not add up for axis-aligned squares (off by < 1 row and < 1 column).
TEST_F(GlTest, CubeCoversItsProjectedArea) {
    Mesh cube(loadMesh(testData("render/meshes/cube.obj")));
    cube.colorUniform({0.2f, 0.4f, 0.9f});
    struct Case {
        float yaw, pitch, distance;
    };
    for (const Case c :
         {Case{0.0f, 0.0f, 6.0f}, Case{30.0f, 25.0f, 7.0f}, Case{-130.0f, -40.0f, 8.0f}}) {
        OrbitCamera cam;
        cam.target = glm::vec3(0.0f);
        cam.yawDegrees = c.yaw;
        cam.pitchDegrees = c.pitch;
        cam.distance = c.distance;
        const int w = 240, h = 200;
        const Image im = render(w, h, [&] {
            cube.draw(cam.view(), cam.projection(static_cast<float>(w) / static_cast<float>(h)));
        });
        std::vector<glm::dvec2> corners;
        for (int i = 0; i < 8; ++i)
            corners.push_back(project(
                cam, w, h, {i & 1 ? 1.0f : -1.0f, i & 2 ? 1.0f : -1.0f, i & 4 ? 1.0f : -1.0f}));
        const auto [area, perimeter] = hullAreaPerimeter(corners);
        if (c.yaw == 0.0f && c.pitch == 0.0f) {
            // Head-on: the near face is a square of side 2 at depth d - 1.
            const double side = 2.0 / (c.distance - 1.0) / std::tan(glm::radians(35.0) / 2) * h / 2;
            EXPECT_NEAR(area, side * side, 1e-6 * area);
        }
        EXPECT_NEAR(static_cast<double>(countLit(im)), area, 0.5 * perimeter)
            << "yaw " << c.yaw << " pitch " << c.pitch;
    }
}

// A sphere (impostor, ray-cast depth) whose centre lies 0.2 behind the cube's face x = 1
// pokes out as a cap whose rim is the circle where the sphere cuts the face plane:
// radius sqrt(r^2 - 0.2^2), seen head-on at depth d - 1. Mesh depth and impostor depth
// must agree for that, in either draw order. Tolerance: half the rim's length in pixels
// (as for the cube).
TEST_F(GlTest, MeshAndSpheresOccludeEachOther) {
    Mesh cube(loadMesh(testData("render/meshes/cube.obj")));
    cube.colorUniform({0.0f, 0.0f, 1.0f});
    PointCloud cloud;
    cloud.colorUniform({1.0f, 0.0f, 0.0f});
    OrbitCamera cam;
    cam.target = glm::vec3(0.0f);
    cam.yawDegrees = 0.0f;  // eye on +x
    cam.pitchDegrees = 0.0f;
    cam.distance = 6.0f;
    const int size = 400;
    const glm::mat4 view = cam.view(), proj = cam.projection(1.0f);
    const double pxPerUnitAtFace =
        1.0 / (cam.distance - 1.0) / std::tan(glm::radians(35.0) / 2) * size / 2;
    const auto redPixels = [&](const float sphere[4], bool sphereFirst) {
        cloud.setPoints(sphere, 1);
        const Image im = render(size, size, [&] {
            if (sphereFirst) cloud.draw(view, proj);
            cube.draw(view, proj);
            if (!sphereFirst) cloud.draw(view, proj);
        });
        std::size_t red = 0;
        for (int y = 0; y < size; ++y)
            for (int x = 0; x < size; ++x)
                red += pixel(im, x, y)[0] > pixel(im, x, y)[2] + 10 ? 1 : 0;
        return red;
    };
    const float poking[4] = {0.8f, 0.0f, 0.0f, 0.5f};
    const double rim = std::sqrt(0.5 * 0.5 - 0.2 * 0.2) * pxPerUnitAtFace;
    for (bool first : {true, false})
        EXPECT_NEAR(static_cast<double>(redPixels(poking, first)), M_PI * rim * rim, M_PI * rim)
            << "sphere drawn " << (first ? "first" : "last");
    // Inside the cube: hidden whatever the order.
    const float inside[4] = {0.0f, 0.0f, 0.0f, 0.5f};
    EXPECT_EQ(redPixels(inside, true), 0u);
    EXPECT_EQ(redPixels(inside, false), 0u);
    // Wholly in front: the full silhouette, and the cube behind it is hidden where it is.
    const float front[4] = {2.5f, 0.0f, 0.0f, 0.5f};
    const double silhouette =
        std::tan(std::asin(0.5 / 3.5)) / std::tan(glm::radians(35.0) / 2) * size / 2;
    EXPECT_NEAR(static_cast<double>(redPixels(front, true)), M_PI * silhouette * silhouette,
                M_PI * silhouette);
}

// Scalars = the height z of each vertex, viridis over [-1, 1]: the z range of cube.obj.
void colourByHeight(Mesh& mesh, const MeshData& data) {
    std::vector<float> height;
    for (const glm::vec3& p : data.positions)
        height.push_back(p.z);
    mesh.setScalars(height.data(), height.size());
    mesh.colorByScalar(Colormap::Viridis, -1.0f, 1.0f);
}

// The mesh shares the point clouds' light: where the surface faces the eye, diffuse 1 and
// specular 0.2 add to the colour. Viridis' ends therefore appear as in
// test_point_cloud.cpp (first/last colour + 51, clamped), within 8 levels.
TEST_F(GlTest, ScalarColouredMeshFollowsTheColormap) {
    const MeshData data = loadMesh(testData("render/meshes/cube.obj"));
    Mesh cube(data);
    colourByHeight(cube, data);
    const float tooFew[3] = {};
    EXPECT_THROW(cube.setScalars(tooFew, 3), RenderError);
    const int expected[2][3] = {{0x44 + 51, 0x01 + 51, 0x54 + 51}, {255, 255, 0x25 + 51}};
    for (int end = 0; end < 2; ++end) {
        OrbitCamera cam;
        cam.target = glm::vec3(0.0f);
        cam.pitchDegrees = end == 0 ? -89.0f : 89.0f;  // from below: z = -1; above: z = 1
        cam.distance = 6.0f;
        const Image im = render(101, 101, [&] { cube.draw(cam.view(), cam.projection(1.0f)); });
        const std::uint8_t* c = pixel(im, 50, 50);
        for (int ch = 0; ch < 3; ++ch)
            EXPECT_NEAR(c[ch], expected[end][ch], 8) << "end " << end << " channel " << ch;
    }
}

// Opacity 0.5 over black: the face centre is half the shaded colour (0.2, 0.2, 1.0 after
// clamping), within 2 levels of 8-bit rounding, once: the back faces behind it are not
// blended in. The model matrix moves the cube: its image is that of the moved corners.
TEST_F(GlTest, TranslucentMeshBlendsOnceAndModelMatrixMovesIt) {
    Mesh cube(loadMesh(testData("render/meshes/cube.obj")));
    cube.colorUniform({0.0f, 0.0f, 1.0f});
    cube.setOpacity(0.5f);
    OrbitCamera cam;
    cam.target = glm::vec3(0.0f);
    cam.yawDegrees = 0.0f;
    cam.pitchDegrees = 0.0f;
    cam.distance = 6.0f;
    const int size = 200;
    Image im = render(size, size, [&] { cube.draw(cam.view(), cam.projection(1.0f)); });
    const std::uint8_t* c = pixel(im, size / 2, size / 2);
    EXPECT_NEAR(c[0], 0.5 * 0.2 * 255, 2);
    EXPECT_NEAR(c[2], 0.5 * 255, 2);

    cube.setOpacity(1.0f);
    cam.distance = 9.0f;  // the moved cube stays inside the image
    const glm::vec3 offset(0.0f, 0.8f, 0.4f);
    cube.setModel(glm::translate(glm::mat4(1.0f), offset));
    im = render(size, size, [&] { cube.draw(cam.view(), cam.projection(1.0f)); });
    // The lit pixels span the projected corners of the moved cube: the outermost lit pixel
    // centres lie within one pixel of the hull's extremes, and the area matches as above.
    std::vector<glm::dvec2> corners;
    for (int i = 0; i < 8; ++i)
        corners.push_back(project(
            cam, size, size,
            offset + glm::vec3(i & 1 ? 1.0f : -1.0f, i & 2 ? 1.0f : -1.0f, i & 4 ? 1.0f : -1.0f)));
    glm::dvec2 hullLo(1e9), hullHi(-1e9), litLo(1e9), litHi(-1e9);
    for (const glm::dvec2& p : corners) {
        hullLo = glm::min(hullLo, p);
        hullHi = glm::max(hullHi, p);
    }
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x)
            if (pixel(im, x, y)[2] > 0) {
                litLo = glm::min(litLo, glm::dvec2(x + 0.5, y + 0.5));
                litHi = glm::max(litHi, glm::dvec2(x + 0.5, y + 0.5));
            }
    for (int a = 0; a < 2; ++a) {
        EXPECT_NEAR(litLo[a], hullLo[a], 1.0) << "axis " << a;
        EXPECT_NEAR(litHi[a], hullHi[a], 1.0) << "axis " << a;
    }
    EXPECT_GT(0.5 * (hullLo.x + hullHi.x), size / 2 + 20);  // moved right (+y is screen right)
    const auto [area, perimeter] = hullAreaPerimeter(corners);
    EXPECT_NEAR(static_cast<double>(countLit(im)), area, 0.5 * perimeter);
}

// Looking down on a box periodic along x: the edges on the faces x = lo and x = hi are
// dashed in the periodic colour, 13 dashes each (4 long, dashes about diagonal / 40 = 0.15:
// round(4 / 0.3) = 13), the edges along x stay solid grey.
TEST_F(GlTest, PeriodicFacesAreDashed) {
    Guides guides;
    const glm::vec3 lo(-2.0f, -2.0f, -1.0f), hi(2.0f, 2.0f, 1.0f);
    guides.setPeriodicOutline(lo, hi, {true, false, false});
    OrbitCamera cam;
    cam.target = glm::vec3(0.0f);
    cam.yawDegrees = -90.0f;  // screen right = +x, screen up ~ +y
    cam.pitchDegrees = 89.0f;
    cam.distance = 10.0f;
    const int size = 240;
    const Image im =
        render(size, size, [&] { guides.drawLines(cam.projection(1.0f) * cam.view()); });
    const auto teal = [](const std::uint8_t* c) { return c[1] > c[0] + 60; };
    const auto grey = [](const std::uint8_t* c) {
        return c[0] > 100 && std::abs(static_cast<int>(c[0]) - c[1]) < 15;
    };
    // Walks the projected top edge from a to b, a 3 x 3 neighbourhood per step, leaving out
    // `skip` pixels at either end (corners, where the dashed vertical edges meet the top
    // edges); returns runs of `match` and the fraction of steps on which `other` was seen.
    const auto walk = [&](glm::vec3 a, glm::vec3 b, int skip, auto match, auto other) {
        const glm::dvec2 pa = project(cam, size, size, a), pb = project(cam, size, size, b);
        for (const glm::dvec2 p : {pa, pb}) {
            EXPECT_GT(std::min(p.x, p.y), 4.0);
            EXPECT_LT(std::max(p.x, p.y), size - 4.0);
            if (std::min(p.x, p.y) <= 4.0 || std::max(p.x, p.y) >= size - 4.0)
                return std::pair{-1, 1.0};
        }
        const int steps = static_cast<int>(glm::length(pb - pa));
        int runs = 0, otherSeen = 0;
        bool inRun = false;
        for (int s = skip; s < steps - skip; ++s) {
            const glm::dvec2 p = glm::mix(pa, pb, static_cast<double>(s) / steps);
            bool hit = false, otherHit = false;
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const std::uint8_t* c =
                        pixel(im, static_cast<int>(p.x) + dx, static_cast<int>(p.y) + dy);
                    hit = hit || match(c);
                    otherHit = otherHit || other(c);
                }
            runs += hit && !inRun ? 1 : 0;
            inRun = hit;
            otherSeen += otherHit ? 1 : 0;
        }
        return std::pair{runs, static_cast<double>(otherSeen) / std::max(steps - 2 * skip, 1)};
    };
    for (float x : {lo.x, hi.x}) {
        const auto [dashes, greyFraction] = walk({x, lo.y, hi.z}, {x, hi.y, hi.z}, 3, teal, grey);
        EXPECT_EQ(dashes, 13) << "edge x = " << x;
        EXPECT_EQ(greyFraction, 0.0) << "edge x = " << x;
    }
    for (float y : {lo.y, hi.y}) {
        const auto [runs, tealFraction] = walk({lo.x, y, hi.z}, {hi.x, y, hi.z}, 8, grey, teal);
        EXPECT_EQ(runs, 1) << "edge y = " << y << " is one solid line";
        EXPECT_EQ(tealFraction, 0.0) << "edge y = " << y;
    }
}

// The cube coloured by height with its legend, compared with the stored image (320 x 240):
// mean absolute difference below 1 level and under 0.5% of pixels off by more than 24
// levels (triangle rims rasterise slightly differently between GL drivers; the legend is
// pixel-aligned quads and FreeType glyphs fetched texel for texel). The legend sits bottom
// right, as in the window, with 11 px text (the smallest relative size). CELLFORGE_UPDATE_GOLDEN=1
// rewrites the reference.
TEST_F(GlTest, GoldenMeshWithLegend) {
    const MeshData data = loadMesh(testData("render/meshes/cube.obj"));
    Mesh cube(data);
    colourByHeight(cube, data);
    OrbitCamera cam;
    cam.fit(data.boundsLo, data.boundsHi);
    cam.yawDegrees = -55.0f;
    cam.pitchDegrees = 28.0f;
    cam.zoom(0.85f);
    cam.pan(-60.0f, 0.0f, 240);  // room on the right for the legend
    const LegendSpec legend = buildLegend(Colormap::Viridis, -1.0, 1.0, "height", "µm", 5);
    LegendOverlay overlay;
    const int w = 320, h = 240;
    const Image im = render(
        w, h,
        [&] {
            cube.draw(cam.view(), cam.projection(static_cast<float>(w) / static_cast<float>(h)));
            overlay.draw(legend, w, h);
        },
        {0.12f, 0.12f, 0.14f, 1.0f});
    cf::test::expectMatchesGolden(im, "mesh_with_legend",
                                  {.maxMeanLevels = 1.0, .maxFractionOff = 0.005, .offLevels = 24});
}

}  // namespace
}  // namespace cf::render
