// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Saved camera views (named, as small JSON objects) and scripted camera paths for movies:
// key frames at times in seconds, interpolated smoothly between them.
//
// JSON forms (angles in degrees, "fov" the vertical field of view):
//   view:      {"name": "top", "target": [x, y, z], "distance": d, "yaw": a, "pitch": b,
//               "fov": f}
//   path:      [{"time": 0, "target": [...], "distance": d, "yaw": a, "pitch": b}, ...]
//              "fov" is optional in a key frame and defaults to the previous key frame's
//              (the first one's to OrbitCamera's 35).
#include <glm/glm.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "render/camera.hpp"

namespace cf::render {

struct CameraView {
    std::string name;
    OrbitCamera camera;
};

// One JSON object; floats survive the round trip exactly.
std::string toJson(const CameraView& view);
// Throws RenderError naming the missing, mistyped or unknown field.
CameraView cameraViewFromJson(std::string_view json);
// A list of views (the GUI's saved views): a JSON array of the objects above.
std::string toJson(const std::vector<CameraView>& views);
std::vector<CameraView> cameraViewsFromJson(std::string_view json);

struct CameraKeyFrame {
    double time = 0.0;  // seconds
    glm::dvec3 target{0.0};
    double distance = 10.0;
    double yawDegrees = -60.0;
    double pitchDegrees = 30.0;
    double fovYDegrees = 35.0;

    OrbitCamera camera() const;
    static CameraKeyFrame at(double time, const OrbitCamera& camera);
};

// Piecewise cubic Hermite through the key frames with Catmull-Rom tangents (centred
// differences over the neighbouring key frames' times, one-sided at the ends): passes
// through every key frame, continuous in value and first derivative. Each parameter on
// its own; the distance in log space (even zooms, never negative); the yaw unwrapped so
// that each step turns the short way (more than 180 degrees between two key frames needs
// a key frame in between). Before the first and after the last time it holds still.
class CameraPath {
public:
    CameraPath() = default;
    // At least one key frame, times strictly increasing, everything finite, distance and
    // fov within 1..179 degrees, pitch within +-89.9 degrees. Throws RenderError naming the key
    // frame.
    explicit CameraPath(std::vector<CameraKeyFrame> keyFrames);
    // A JSON array of key frames; errors name the key frame index and field.
    static CameraPath fromJson(std::string_view json);
    std::string toJson() const;

    bool empty() const { return keys_.empty(); }
    const std::vector<CameraKeyFrame>& keyFrames() const { return keys_; }
    double startTime() const { return keys_.empty() ? 0.0 : keys_.front().time; }
    double endTime() const { return keys_.empty() ? 0.0 : keys_.back().time; }

    // The interpolated key frame at `time` (its yaw may lie outside -180..180).
    CameraKeyFrame sample(double time) const;
    OrbitCamera evaluate(double time) const { return sample(time).camera(); }

private:
    std::vector<CameraKeyFrame> keys_;
    std::vector<double> unwrappedYaw_;
};

}  // namespace cf::render
