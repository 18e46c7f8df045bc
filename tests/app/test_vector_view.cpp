// SPDX-License-Identifier: GPL-3.0-or-later
// Vector-field views end to end: a test model's known vectors published through the
// ViewExchange, uploaded into a render::VectorField (host upload here; CUDA-GL buffer
// interop on the GPU machine) with the nodes at the view's cell centres, drawn as arrows,
// as head-less segments for a director, and as a LIC; the headless run's --vectors and --lic.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <tuple>

#include "app/headless_run.hpp"
#include "app/vector_upload.hpp"
#include "render/camera.hpp"
#include "render/png_io.hpp"
#include "sim/core/errors.hpp"
#include "sim/core/model.hpp"
#include "sim/run/view_exchange.hpp"
#include "tests/support/gl_fixture.hpp"
#include "tests/support/top_view.hpp"
#include "tests/support/vector_model.hpp"
#if CELLFORGE_HAVE_CUDA
#include "tests/support/interop_fixture.hpp"
#endif

namespace cf::app {
namespace {

using render::test_support::TopView;
using test::pixel;

using test::flowX;
using test::kNx;
using test::kNy;
using test::vectorDescriptor;
using test::VectorModel;
using test::vectorTable;

// The model's views published once through the exchange and held.
struct Published {
    explicit Published(Backend backend = Backend::Cpu) : model(backend) {
        model.reset(ParamSet(vectorTable()), 1);
        exchange.publish(model);
        lease.emplace(*exchange.takeNewest());
    }
    const VectorFieldView& field(std::size_t i) const { return lease->views().vectors.at(i); }
    VectorModel model;
    ViewExchange exchange;
    std::optional<ViewExchange::Lease> lease;
};

std::vector<float> readBack(const render::VectorField& field) {
    const glm::ivec3 d = field.dimensions();
    std::vector<float> out(3 * static_cast<std::size_t>(d.x * d.y * d.z));
    glGetNamedBufferSubData(field.vectorBuffer(), 0,
                            static_cast<GLsizeiptr>(out.size() * sizeof(float)), out.data());
    return out;
}

using VectorViewTest = test::GlTest;

TEST_F(VectorViewTest, HostVectorsThroughTheExchangeReachTheBuffer) {
    Published p;
    ASSERT_EQ(p.lease->views().vectors.size(), 3u);
    const VectorFieldView& flow = p.field(0);
    EXPECT_EQ(flow.space, MemorySpace::Host);
    EXPECT_NE(flow.xyz, p.model.flowData());  // the exchange's copy, not the model's array
    render::VectorField field;
    VectorUploader uploader;
    uploader.upload(flow, field, VectorSettings{});
    EXPECT_STREQ(uploader.path(), "host upload");
    EXPECT_EQ(field.dimensions(), glm::ivec3(kNx, kNy, 1));
    // The buffer holds the model's values bit for bit (a copy, no arithmetic).
    const std::vector<float> got = readBack(field);
    ASSERT_EQ(got.size(), std::size_t{3 * kNx * kNy});
    for (int j = 0; j < kNy; ++j)
        for (int i = 0; i < kNx; ++i) {
            const std::size_t n = 3 * static_cast<std::size_t>(i + kNx * j);
            ASSERT_EQ(got[n], flowX(i)) << i << "," << j;
            ASSERT_EQ(got[n + 1], 0.0f);
            ASSERT_EQ(got[n + 2], 0.0f);
        }
    // |v| from 0.5 to 1.5, on the host and reduced on the GPU (float rounding only).
    EXPECT_FLOAT_EQ(uploader.magnitudeRange().first, 0.5f);
    EXPECT_FLOAT_EQ(uploader.magnitudeRange().second, 1.5f);
    EXPECT_FLOAT_EQ(field.magnitudeRange().x, 0.5f);
    EXPECT_FLOAT_EQ(field.magnitudeRange().y, 1.5f);
    EXPECT_EQ(uploader.legend().title, render::legendTitle("|flow|", "um/s"));
    EXPECT_EQ(field.stride(), 1);  // 16 nodes along x: automatic stride 1
    EXPECT_EQ(field.glyph(), render::VectorField::Glyph::Arrow);

    // The 3-D view: 4 x 3 x 2 nodes, (i, j, k) + 1 each.
    uploader.upload(p.field(2), field, VectorSettings{});
    EXPECT_EQ(field.dimensions(), glm::ivec3(4, 3, 2));
    const std::vector<float> column = readBack(field);
    EXPECT_EQ(column[3 * (3 + 4 * (2 + 3 * 1)) + 0], 4.0f);  // node (3, 2, 1)
    EXPECT_EQ(column[3 * (3 + 4 * (2 + 3 * 1)) + 1], 3.0f);
    EXPECT_EQ(column[3 * (3 + 4 * (2 + 3 * 1)) + 2], 2.0f);
    // A LIC of a 3-D view is refused before anything is drawn.
    VectorSettings lic;
    lic.lic = true;
    EXPECT_THROW(uploader.upload(p.field(2), field, lic), ParameterError);
}

// Looking straight down at the plane z = 0 (400 x 300 pixels from 40 units: about 12
// pixels per unit). A pixel is drawn when it differs from the black background.
const TopView kTop{400, 300, 40.0f};

bool drawnAt(const render::Image& im, float x, float y) {
    const glm::ivec2 px = kTop.pixelOf({x, y, 0.0f});
    const std::uint8_t* c = pixel(im, px.x, px.y);
    return c[0] + c[1] + c[2] > 30;
}

// Node (i, j) sits at the centre of its cell, (-8 + i + 0.5, -6 + j + 0.5), not at
// VectorField's default corner placement (-8 + 16 i / 15, -6 + 12 j / 11): an arrow starts
// at the node (nothing 0.25 behind it, its shaft 0.25 ahead), only every 4th node has one,
// and a director's segment is centred on its node (drawn 1.2 either side along y, the
// segments being 0.9 * 4 = 3.6 long, nothing 2.0 away along y (0.2 past its end, 0.2 short
// of the next segment) and nothing 0.6 to the side: radius 0.045 * 3.6).
TEST_F(VectorViewTest, ArrowsAndSegmentsSitAtCellCentres) {
    Published p;
    render::VectorField field;
    VectorUploader uploader;
    VectorSettings every4;
    every4.stride = 4;
    uploader.upload(p.field(0), field, every4);
    const render::Image arrows = render::test_support::renderTop(
        kTop, [&](auto view, auto proj) { field.draw(view, proj); });
    int sampled = 0;
    for (int j = 0; j < kNy; j += 4)
        for (int i = 0; i < kNx; i += 4) {
            const float x = -8.0f + i + 0.5f, y = -6.0f + j + 0.5f;
            EXPECT_TRUE(drawnAt(arrows, x + 0.25f, y)) << "shaft of node " << i << "," << j;
            EXPECT_FALSE(drawnAt(arrows, x - 0.25f, y)) << "behind node " << i << "," << j;
            EXPECT_FALSE(drawnAt(arrows, x + 0.25f, y + 1.0f)) << "row above " << i << "," << j;
            ++sampled;
        }
    EXPECT_EQ(sampled, 4 * 3);

    render::VectorField directors;
    uploader.upload(p.field(1), directors, every4);
    EXPECT_EQ(directors.glyph(), render::VectorField::Glyph::Segment);
    const render::Image segments = render::test_support::renderTop(
        kTop, [&](auto view, auto proj) { directors.draw(view, proj); });
    if (const char* shots = std::getenv("CELLFORGE_VECTOR_SHOTS"))
        render::writePng(std::string(shots) + "/vectors_top_segments.png", segments, true);
    for (int j = 0; j < kNy; j += 4)
        for (int i = 0; i < kNx; i += 4) {
            const float x = -8.0f + i + 0.5f, y = -6.0f + j + 0.5f;
            EXPECT_TRUE(drawnAt(segments, x, y + 1.2f)) << "above node " << i << "," << j;
            EXPECT_TRUE(drawnAt(segments, x, y - 1.2f)) << "below node " << i << "," << j;
            EXPECT_FALSE(drawnAt(segments, x, y + 2.0f)) << "past the end " << i << "," << j;
            EXPECT_FALSE(drawnAt(segments, x + 0.6f, y)) << "beside node " << i << "," << j;
        }
}

TEST(VectorOptions, ParseAndResolve) {
    EXPECT_EQ(parseVectorsOption("flow").view, "flow");
    EXPECT_EQ(parseVectorsOption("flow").stride, 0);
    EXPECT_EQ(parseVectorsOption("flow:8").stride, 8);
    for (const char* bad : {"flow:0", "flow:x", "flow:", ":3", "flow:-2", "flow:3.5"})
        EXPECT_THROW(parseVectorsOption(bad), ParameterError) << bad;

    VectorModel model;
    model.reset(ParamSet(vectorTable()), 1);
    const ModelViews views = model.views();
    auto none = resolveVectorOptions("", "", views);  // the first view's arrows
    ASSERT_EQ(none.size(), 1u);
    EXPECT_EQ(none[0].view, "flow");
    EXPECT_TRUE(none[0].arrows);
    EXPECT_FALSE(none[0].lic);
    auto same = resolveVectorOptions("flow:4", "flow", views);  // one layer, both
    ASSERT_EQ(same.size(), 1u);
    EXPECT_TRUE(same[0].arrows && same[0].lic);
    EXPECT_EQ(same[0].stride, 4);
    auto two = resolveVectorOptions("director:2", "flow", views);
    ASSERT_EQ(two.size(), 2u);
    EXPECT_TRUE(two[1].lic && !two[1].arrows);
    try {
        resolveVectorOptions("", "nope", views);
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        EXPECT_NE(std::string(e.what()).find(
                      "--lic: no vector view 'nope' (there are: flow, director, column)"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(resolveVectorOptions("", "column", views), ParameterError);  // not planar
    EXPECT_THROW(resolveVectorOptions("nope:2", "", views), ParameterError);
    EXPECT_TRUE(resolveVectorOptions("", "", ModelViews{}).empty());
    EXPECT_EQ(autoStride(views.vectors[0]), 1);
    VectorFieldView big;
    big.dims[0] = 256;
    big.dims[1] = 100;
    big.dims[2] = 1;
    EXPECT_EQ(autoStride(big), 8);  // 256 / 8 = 32 arrows along x
}

// A scratch directory with a scenario of the test model, removed after the test.
class HeadlessVectors : public test::GlTest {
protected:
    void SetUp() override {
        test::GlTest::SetUp();
        if (IsSkipped()) return;
        dir_ = std::filesystem::temp_directory_path() /
               ("cellforge-vectors-" + std::to_string(std::random_device{}()));
        std::filesystem::create_directories(dir_);
        std::ofstream(dir_ / "vectors.toml") << "model = \"vectors\"\nsteps = 0\n";
        registry_.add(vectorDescriptor());
    }
    void TearDown() override {
        std::error_code ignored;
        if (!dir_.empty()) std::filesystem::remove_all(dir_, ignored);
    }
    HeadlessOptions options(const std::string& shot) const {
        HeadlessOptions o;
        o.scenario = (dir_ / "vectors.toml").string();
        o.backend = "cpu";
        o.screenshot = (dir_ / shot).string();
        o.width = kWidth;
        o.height = kHeight;
        o.legend = false;
        o.timestamp = false;  // scene pixels here; captions: test_scene_text.cpp
        return o;
    }
    // The pixel showing world point (x, y, 0), framed as the headless run frames the box.
    glm::ivec2 pixelOf(float x, float y) const {
        render::OrbitCamera camera;
        camera.fit({-8, -6, -0.5}, {8, 6, 0.5});
        const glm::vec4 clip = camera.projection(static_cast<float>(kWidth) / kHeight) *
                               camera.view() * glm::vec4(x, y, 0, 1);
        return {
            static_cast<int>(std::floor((clip.x / clip.w * 0.5f + 0.5f) * kWidth)),
            kHeight - 1 - static_cast<int>(std::floor((clip.y / clip.w * 0.5f + 0.5f) * kHeight))};
    }
    static constexpr int kWidth = 640, kHeight = 480;
    std::filesystem::path dir_;
    ModelRegistry registry_;
};

// The run's background, (0.12, 0.12, 0.14) in 8 bits.
bool background(const std::uint8_t* c) {
    return std::abs(c[0] - 31) <= 1 && std::abs(c[1] - 31) <= 1 && std::abs(c[2] - 36) <= 1;
}

// --vectors flow:4: an arrow on every 4th node along x and y (its shaft 0.4 ahead of the
// node is drawn), nothing in the rows between (j = 2, 6, 10).
TEST_F(HeadlessVectors, ArrowsEveryKthNode) {
    HeadlessOptions o = options("arrows.png");
    o.vectors = "flow:4";
    ASSERT_EQ(runHeadless(o, registry_), 0);
    const render::Image im = render::readPng(*o.screenshot);
    ASSERT_EQ(im.width, kWidth);
    for (int j = 0; j < kNy; j += 2)
        for (int i = 0; i < kNx; i += 4) {
            const glm::ivec2 px = pixelOf(-8.0f + i + 0.9f, -6.0f + j + 0.5f);
            ASSERT_TRUE(px.x >= 0 && px.x < kWidth && px.y >= 0 && px.y < kHeight);
            EXPECT_EQ(background(pixel(im, px.x, px.y)), j % 4 != 0)
                << "node " << i << "," << j << " at pixel " << px.x << "," << px.y;
        }
}

// --lic flow: the plane is covered by streaks along x: neighbouring points 0.1 apart along
// the flow differ much less than points 0.1 apart across it (white noise averaged along
// ~40 texels of 1/32 unit: streaks ~1.2 units long and one texel wide). Coloured by |v|
// through Coolwarm: blue where |v| = 0.5 (left), red where |v| = 1.5 (right).
TEST_F(HeadlessVectors, LicStreaksFollowTheFlow) {
    HeadlessOptions o = options("lic.png");
    o.lic = "flow";
    ASSERT_EQ(runHeadless(o, registry_), 0);
    const render::Image im = render::readPng(*o.screenshot);
    auto at = [&](float x, float y) {
        const glm::ivec2 px = pixelOf(x, y);
        return pixel(im, px.x, px.y);
    };
    auto lum = [](const std::uint8_t* c) { return (c[0] + c[1] + c[2]) / 3.0; };
    double along = 0.0, across = 0.0;
    int n = 0, notBackground = 0;
    for (float y = -5.0f; y <= 5.0f; y += 0.37f)
        for (float x = -6.5f; x <= 6.5f; x += 0.41f) {
            along += std::abs(lum(at(x, y)) - lum(at(x + 0.1f, y)));
            across += std::abs(lum(at(x, y)) - lum(at(x, y + 0.1f)));
            notBackground += !background(at(x, y));
            ++n;
        }
    along /= n;
    across /= n;
    std::printf("LIC: mean |dL| along the flow %.2f, across %.2f (%d points)\n", along, across, n);
    EXPECT_EQ(notBackground, n);
    EXPECT_GT(across, 8.0);  // streaks, not a flat colour
    EXPECT_LT(along, 0.5 * across);
    double leftRed = 0, leftBlue = 0, rightRed = 0, rightBlue = 0;
    for (float y = -5.0f; y <= 5.0f; y += 0.5f) {
        leftRed += at(-7.0f, y)[0];
        leftBlue += at(-7.0f, y)[2];
        rightRed += at(7.0f, y)[0];
        rightBlue += at(7.0f, y)[2];
    }
    EXPECT_GT(leftBlue, 1.3 * leftRed);
    EXPECT_GT(rightRed, 1.3 * rightBlue);
}

TEST_F(HeadlessVectors, BadNamesAreBadInput) {
    HeadlessOptions o = options("x.png");
    o.vectors = "nope";
    EXPECT_THROW(runHeadless(o, registry_), ParameterError);
    o.vectors = "flow:0";
    EXPECT_THROW(runHeadless(o, registry_), ParameterError);
    o.vectors.clear();
    o.lic = "column";
    EXPECT_THROW(runHeadless(o, registry_), ParameterError);
}

// Pictures for a person to look at (CELLFORGE_VECTOR_SHOTS names a directory).
TEST_F(HeadlessVectors, PicturesForReview) {
    const char* shots = std::getenv("CELLFORGE_VECTOR_SHOTS");
    if (shots == nullptr) GTEST_SKIP() << "set CELLFORGE_VECTOR_SHOTS to a directory";
    const std::filesystem::path dir(shots);
    for (const auto& [file, vectors, lic] : {std::tuple{"vectors_arrows.png", "flow:2", ""},
                                             {"vectors_lic.png", "", "flow"},
                                             {"vectors_lic_arrows.png", "flow:3", "flow"},
                                             {"vectors_director.png", "director:2", ""},
                                             {"vectors_column.png", "column:1", ""}}) {
        HeadlessOptions o = options(file);
        o.screenshot = (dir / file).string();
        o.vectors = vectors;
        o.lic = lic;
        o.legend = true;
        ASSERT_EQ(runHeadless(o, registry_), 0) << file;
    }
}

#if CELLFORGE_HAVE_CUDA
// On the GPU machine: device vectors go through the exchange (device to device) and into
// the GL buffer by CUDA-GL interop: the same buffer bytes, magnitude range and pixels as the
// host upload of the same values.
using VectorViewInteropCuda = test::CudaGlInteropTest;

TEST_F(VectorViewInteropCuda, DeviceVectorsReachTheBufferWithoutTheHost) {
    Published device(Backend::Cuda), host(Backend::Cpu);
    ASSERT_EQ(device.field(0).space, MemorySpace::Device);
    VectorSettings every4;
    every4.stride = 4;
    render::VectorField viaInterop, viaHost;
    VectorUploader interopUploader, hostUploader;
    interopUploader.upload(device.field(0), viaInterop, every4);
    hostUploader.upload(host.field(0), viaHost, every4);
    EXPECT_STREQ(interopUploader.path(), "interop");
    EXPECT_EQ(readBack(viaInterop), readBack(viaHost));
    EXPECT_FLOAT_EQ(interopUploader.magnitudeRange().first, 0.5f);
    EXPECT_FLOAT_EQ(interopUploader.magnitudeRange().second, 1.5f);
    const render::Image a = render::test_support::renderTop(
        kTop, [&](auto view, auto proj) { viaInterop.draw(view, proj); });
    const render::Image b = render::test_support::renderTop(
        kTop, [&](auto view, auto proj) { viaHost.draw(view, proj); });
    EXPECT_EQ(a.rgba, b.rgba);
    // A smaller 3-D view: the same buffer object, still registered.
    interopUploader.upload(device.field(2), viaInterop, VectorSettings{});
    EXPECT_EQ(viaInterop.dimensions(), glm::ivec3(4, 3, 2));
    EXPECT_EQ(readBack(viaInterop)[3 * (3 + 4 * (2 + 3 * 1))], 4.0f);
    interopUploader.release();
}
#endif

}  // namespace
}  // namespace cf::app
