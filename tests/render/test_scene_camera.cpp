// SPDX-License-Identifier: GPL-3.0-or-later
// Camera interaction (pan, zoom), saved views (JSON round trip, errors) and key-frame
// paths (through the key frames, smooth, short way round, errors naming the key frame).
#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "render/camera_path.hpp"
#include "tests/render/scene_test_support.hpp"

namespace cf::render {
namespace {

using test::project;

// Panning moves the scene with the cursor: the point that was at the target lands exactly
// (dx, dy) pixels from the image centre (1e-3 pixel: float round-off). Zooming divides the
// distance and keeps the target.
TEST(Camera, PanFollowsTheCursorAndZoomDollies) {
    OrbitCamera cam;
    cam.target = {1.0f, 2.0f, 0.5f};
    cam.distance = 12.0f;
    const int w = 320, h = 240;
    for (const auto& [dx, dy] : {std::pair{40.0f, 0.0f}, {0.0f, -25.0f}, {-17.5f, 33.0f}}) {
        for (float pitch : {30.0f, 89.0f, -60.0f}) {
            OrbitCamera c = cam;
            c.pitchDegrees = pitch;
            const glm::vec3 before = c.target;
            c.pan(dx, dy, h);
            const glm::dvec2 p = project(c, w, h, before);
            EXPECT_NEAR(p.x, w / 2 + dx, 1e-3) << pitch;
            EXPECT_NEAR(p.y, h / 2 + dy, 1e-3) << pitch;
            EXPECT_FLOAT_EQ(c.distance, cam.distance);  // panning does not zoom
        }
    }
    OrbitCamera c = cam;
    c.zoom(2.0f);
    EXPECT_FLOAT_EQ(c.distance, 6.0f);
    EXPECT_EQ(c.target, cam.target);
    c.zoom(0.25f);
    EXPECT_FLOAT_EQ(c.distance, 24.0f);
    c.zoom(0.0f);  // ignored
    c.zoom(-1.0f);
    EXPECT_FLOAT_EQ(c.distance, 24.0f);
}

TEST(CameraView, RoundTripsExactly) {
    CameraView v;
    v.name = "basal layer, µm scale";
    v.camera.target = {0.1f, -3.7f, 1e-7f};
    v.camera.distance = 123.456f;
    v.camera.yawDegrees = -171.3f;
    v.camera.pitchDegrees = 12.345678f;
    v.camera.fovYDegrees = 27.5f;
    const CameraView back = cameraViewFromJson(toJson(v));
    EXPECT_EQ(back.name, v.name);
    EXPECT_EQ(back.camera.target, v.camera.target);
    EXPECT_EQ(back.camera.distance, v.camera.distance);
    EXPECT_EQ(back.camera.yawDegrees, v.camera.yawDegrees);
    EXPECT_EQ(back.camera.pitchDegrees, v.camera.pitchDegrees);
    EXPECT_EQ(back.camera.fovYDegrees, v.camera.fovYDegrees);
    CameraView top;
    top.name = "top";
    top.camera.pitchDegrees = 89.0f;
    const std::vector<CameraView> list = cameraViewsFromJson(toJson(std::vector{v, top}));
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[1].name, "top");
    EXPECT_EQ(list[1].camera.pitchDegrees, 89.0f);
}

void expectError(const std::function<void()>& f, const std::vector<std::string>& parts) {
    try {
        f();
        ADD_FAILURE() << "no error";
    } catch (const RenderError& e) {
        for (const std::string& p : parts)
            EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
    }
}

TEST(CameraView, ErrorsNameTheField) {
    expectError(
        [] {
            cameraViewFromJson(R"({"name":"a","target":[0,0,0],"distance":1,"yaw":0,"fov":30})");
        },
        {"camera view 'a'", "missing field 'pitch'"});
    expectError(
        [] {
            cameraViewFromJson(
                R"({"name":"a","target":[0,0],"distance":1,"yaw":0,"pitch":0,"fov":30})");
        },
        {"'target' must be an array of 3 numbers"});
    expectError(
        [] {
            cameraViewFromJson(
                R"({"name":"a","target":[0,0,0],"distance":1,"yaw":0,"pich":0,"fov":30})");
        },
        {"unknown field 'pich'"});
    expectError([] { cameraViewFromJson("{not json"); }, {"camera view: not valid JSON"});
    expectError([] { cameraViewsFromJson(R"([{"name":"a"}, 3])"); }, {"view 0"});
}

constexpr const char* kPath = R"([
  {"time": 0, "target": [0, 0, 0], "distance": 10, "yaw": -60, "pitch": 30, "fov": 35},
  {"time": 2, "target": [1, 2, 0], "distance": 4, "yaw": 20, "pitch": 60},
  {"time": 3, "target": [1, 2, 3], "distance": 8, "yaw": 100, "pitch": -10, "fov": 50},
  {"time": 5.5, "target": [-2, 0, 1], "distance": 20, "yaw": 170, "pitch": 10}
])";

using Vector = std::array<double, 7>;
Vector valuesOf(const CameraKeyFrame& k) {
    return {k.target.x,   k.target.y,     k.target.z,   k.distance,
            k.yawDegrees, k.pitchDegrees, k.fovYDegrees};
}

// At every key frame time the path is the key frame (1e-9: double round-off), fov carried
// over where a key frame leaves it out; before the start and after the end it holds still.
TEST(CameraPath, PassesThroughTheKeyFrames) {
    const CameraPath path = CameraPath::fromJson(kPath);
    ASSERT_EQ(path.keyFrames().size(), 4u);
    EXPECT_EQ(path.keyFrames()[1].fovYDegrees, 35.0);  // inherited
    EXPECT_EQ(path.keyFrames()[3].fovYDegrees, 50.0);
    for (const CameraKeyFrame& k : path.keyFrames()) {
        const Vector want = valuesOf(k), got = valuesOf(path.sample(k.time));
        for (int p = 0; p < 7; ++p)
            EXPECT_NEAR(got[static_cast<std::size_t>(p)], want[static_cast<std::size_t>(p)], 1e-9)
                << "t " << k.time << " parameter " << p;
    }
    EXPECT_EQ(valuesOf(path.sample(-1.0)), valuesOf(path.keyFrames().front()));
    EXPECT_EQ(valuesOf(path.sample(9.0)), valuesOf(path.keyFrames().back()));
    const OrbitCamera c = path.evaluate(2.0);
    EXPECT_FLOAT_EQ(c.distance, 4.0f);
    EXPECT_FLOAT_EQ(c.target.y, 2.0f);
    // JSON round trip.
    const CameraPath again = CameraPath::fromJson(path.toJson());
    for (double t : {0.3, 2.5, 4.0})
        EXPECT_EQ(valuesOf(again.sample(t)), valuesOf(path.sample(t)));
}

// C1: at each interior key frame the slopes from the left and from the right agree up to
// the curvature term (|f''| h, with h = 1e-5 s and |f''| below 1e4 here: 0.1), while the
// secant slopes of the two neighbouring segments differ by far more (the path bends
// there, so the check can fail). Everywhere the value is continuous: samples 1 ms apart
// differ by at most max |f'| x 1 ms.
TEST(CameraPath, IsSmooth) {
    const CameraPath path = CameraPath::fromJson(kPath);
    const auto& keys = path.keyFrames();
    const double h = 1e-5;
    for (std::size_t k = 1; k + 1 < keys.size(); ++k) {
        const double t = keys[k].time;
        const Vector a = valuesOf(path.sample(t - h)), m = valuesOf(path.sample(t)),
                     b = valuesOf(path.sample(t + h));
        const Vector prev = valuesOf(keys[k - 1]), next = valuesOf(keys[k + 1]);
        bool bends = false;
        for (std::size_t p = 0; p < 7; ++p) {
            const double left = (m[p] - a[p]) / h, right = (b[p] - m[p]) / h;
            EXPECT_NEAR(left, right, 0.1) << "key frame " << k << " parameter " << p;
            const double secantLeft = (m[p] - prev[p]) / (t - keys[k - 1].time);
            const double secantRight = (next[p] - m[p]) / (keys[k + 1].time - t);
            bends = bends || std::abs(secantLeft - secantRight) > 1.0;
        }
        EXPECT_TRUE(bends) << "key frame " << k << " does not test anything";
    }
    Vector last = valuesOf(path.sample(0.0));
    double maxStep = 0.0;
    for (double t = 0.001; t <= 5.5; t += 0.001) {
        const Vector v = valuesOf(path.sample(t));
        for (std::size_t p = 0; p < 7; ++p)
            maxStep = std::max(maxStep, std::abs(v[p] - last[p]));
        last = v;
        EXPECT_GT(v[3], 0.0);  // distance stays positive
    }
    EXPECT_LT(maxStep, 0.5);  // no parameter moves faster than 500 units or degrees per s
}

// From 170 to -170 degrees the short way is through 180 (20 degrees), not through 0 (340).
TEST(CameraPath, YawTurnsTheShortWay) {
    const CameraPath path = CameraPath::fromJson(R"([
      {"time": 0, "target": [0, 0, 0], "distance": 5, "yaw": 170, "pitch": 0},
      {"time": 1, "target": [0, 0, 0], "distance": 5, "yaw": -170, "pitch": 0},
      {"time": 2, "target": [0, 0, 0], "distance": 5, "yaw": 175, "pitch": 0}
    ])");
    const auto wrapped = [](double d) { return d - 360.0 * std::floor((d + 180.0) / 360.0); };
    for (double t = 0.0; t <= 2.0; t += 0.01) {
        const double yaw = wrapped(path.sample(t).yawDegrees);
        EXPECT_GE(std::abs(yaw), 165.0) << "t " << t << ": yaw " << yaw << " turned the long way";
    }
    EXPECT_NEAR(wrapped(path.sample(1.0).yawDegrees), -170.0, 1e-9);
    EXPECT_NEAR(wrapped(path.sample(2.0).yawDegrees), 175.0, 1e-9);
}

TEST(CameraPath, ErrorsNameTheKeyFrameAndField) {
    expectError(
        [] {
            CameraPath::fromJson(R"([{"time":0,"target":[0,0,0],"distance":1,"yaw":0,"pitch":0},
                                 {"time":1,"target":[0,0,0],"yaw":0,"pitch":0}])");
        },
        {"key frame 1", "missing field 'distance'"});
    expectError(
        [] {
            CameraPath::fromJson(R"([{"time":0,"target":[0,0,0],"distance":1,"yaw":0,"pitch":0},
                                 {"time":2,"target":[0,0,0],"distance":1,"yaw":0,"pitch":0},
                                 {"time":2,"target":[0,0,0],"distance":1,"yaw":0,"pitch":0}])");
        },
        {"key frame 2", "'time'", "key frame 1", "increase"});
    expectError(
        [] {
            CameraPath::fromJson(
                R"([{"time":0,"target":[0,0,0],"distance":-1,"yaw":0,"pitch":0}])");
        },
        {"key frame 0", "'distance'"});
    expectError(
        [] {
            CameraPath::fromJson(
                R"([{"time":0,"target":[0,0,0],"distance":1,"yaw":0,"pitch":95}])");
        },
        {"key frame 0", "'pitch'"});
    expectError(
        [] {
            CameraPath::fromJson(
                R"([{"time":"0","target":[0,0,0],"distance":1,"yaw":0,"pitch":0}])");
        },
        {"key frame 0", "'time' must be a number"});
    expectError(
        [] {
            CameraPath::fromJson(
                R"([{"time":0,"target":[0,0,0],"distance":1,"yaw":0,"pitch":0,"roll":3}])");
        },
        {"key frame 0", "unknown field 'roll'"});
    expectError([] { CameraPath::fromJson("[]"); }, {"no key frames"});
    expectError([] { CameraPath::fromJson(R"({"time":0})"); }, {"JSON array"});
}

}  // namespace
}  // namespace cf::render
