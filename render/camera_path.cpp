// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/camera_path.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <nlohmann/json.hpp>

#include "render/render_error.hpp"

namespace cf::render {
namespace {

using nlohmann::json;

constexpr double kMaxPitch = 89.9;  // lookAt with z up degenerates at +-90

json vec3Json(const glm::dvec3& v) {
    return json::array({v.x, v.y, v.z});
}

// Reads the camera fields of a view or key frame, `where` prefixes every message
// ("camera view 'top'", "camera path: key frame 2").
class FieldReader {
public:
    FieldReader(const json& object, std::string where) : j_(object), where_(std::move(where)) {
        if (!j_.is_object()) fail("is not a JSON object");
    }
    [[noreturn]] void fail(const std::string& what) const {
        throw RenderError(where_ + ": " + what);
    }
    bool has(const char* key) const { return j_.contains(key); }
    double number(const char* key) const {
        if (!has(key)) fail(std::string("missing field '") + key + "'");
        const json& v = j_.at(key);
        if (!v.is_number()) fail(std::string("field '") + key + "' must be a number");
        return v.get<double>();
    }
    glm::dvec3 vec3(const char* key) const {
        if (!has(key)) fail(std::string("missing field '") + key + "'");
        const json& v = j_.at(key);
        if (!v.is_array() || v.size() != 3 ||
            !std::all_of(v.begin(), v.end(), [](const json& x) { return x.is_number(); }))
            fail(std::string("field '") + key + "' must be an array of 3 numbers");
        return {v[0].get<double>(), v[1].get<double>(), v[2].get<double>()};
    }
    std::string string(const char* key) const {
        if (!has(key)) fail(std::string("missing field '") + key + "'");
        const json& v = j_.at(key);
        if (!v.is_string()) fail(std::string("field '") + key + "' must be a string");
        return v.get<std::string>();
    }
    // Typos ("pich") would otherwise silently fall back to defaults.
    void onlyFields(std::initializer_list<const char*> known) const {
        for (const auto& [key, value] : j_.items())
            if (std::none_of(known.begin(), known.end(), [&](const char* k) { return key == k; }))
                fail("unknown field '" + key + "'");
    }

private:
    const json& j_;
    std::string where_;
};

json parse(std::string_view text, const char* what) {
    try {
        return json::parse(text);
    } catch (const json::parse_error& e) {
        throw RenderError(std::string(what) + ": not valid JSON: " + e.what());
    }
}

json cameraJson(const OrbitCamera& c) {
    return {{"target", vec3Json(glm::dvec3(c.target))},
            {"distance", c.distance},
            {"yaw", c.yawDegrees},
            {"pitch", c.pitchDegrees},
            {"fov", c.fovYDegrees}};
}

json viewJson(const CameraView& v) {
    json j = cameraJson(v.camera);
    j["name"] = v.name;
    return j;
}

CameraView viewFromJson(const json& j, const std::string& where) {
    const FieldReader r(j, where);
    r.onlyFields({"name", "target", "distance", "yaw", "pitch", "fov"});
    CameraView v;
    v.name = r.string("name");
    const FieldReader named(j, where + " '" + v.name + "'");
    v.camera.target = glm::vec3(named.vec3("target"));
    v.camera.distance = static_cast<float>(named.number("distance"));
    v.camera.yawDegrees = static_cast<float>(named.number("yaw"));
    v.camera.pitchDegrees = static_cast<float>(named.number("pitch"));
    v.camera.fovYDegrees = static_cast<float>(named.number("fov"));
    const OrbitCamera& c = v.camera;
    if (!std::isfinite(c.distance) || c.distance <= 0.0f) named.fail("'distance' must be > 0");
    if (!(c.fovYDegrees > 0.0f && c.fovYDegrees < 180.0f))
        named.fail("'fov' must lie between 0 and 180 degrees");
    return v;
}

double wrap180(double degrees) {
    return degrees - 360.0 * std::floor((degrees + 180.0) / 360.0);  // [-180, 180)
}

// The interpolated parameters of a key frame.
constexpr int kParams = 7;  // target xyz, log distance, yaw (unwrapped), pitch, fov
using Params = std::array<double, kParams>;

Params paramsOf(const CameraKeyFrame& k, double unwrappedYaw) {
    return {k.target.x,   k.target.y,     k.target.z,   std::log(k.distance),
            unwrappedYaw, k.pitchDegrees, k.fovYDegrees};
}

}  // namespace

std::string toJson(const CameraView& view) {
    return viewJson(view).dump();
}

CameraView cameraViewFromJson(std::string_view text) {
    return viewFromJson(parse(text, "camera view"), "camera view");
}

std::string toJson(const std::vector<CameraView>& views) {
    json j = json::array();
    for (const CameraView& v : views)
        j.push_back(viewJson(v));
    return j.dump(1);
}

std::vector<CameraView> cameraViewsFromJson(std::string_view text) {
    const json j = parse(text, "camera views");
    if (!j.is_array()) throw RenderError("camera views: expected a JSON array of views");
    std::vector<CameraView> out;
    for (std::size_t i = 0; i < j.size(); ++i)
        out.push_back(viewFromJson(j[i], "camera views: view " + std::to_string(i)));
    return out;
}

OrbitCamera CameraKeyFrame::camera() const {
    OrbitCamera c;
    c.target = glm::vec3(target);
    c.distance = static_cast<float>(distance);
    c.yawDegrees = static_cast<float>(yawDegrees);
    c.pitchDegrees = static_cast<float>(pitchDegrees);
    c.fovYDegrees = static_cast<float>(fovYDegrees);
    return c;
}

CameraKeyFrame CameraKeyFrame::at(double time, const OrbitCamera& c) {
    return {time, glm::dvec3(c.target), c.distance, c.yawDegrees, c.pitchDegrees, c.fovYDegrees};
}

CameraPath::CameraPath(std::vector<CameraKeyFrame> keyFrames) : keys_(std::move(keyFrames)) {
    if (keys_.empty()) throw RenderError("camera path: no key frames");
    for (std::size_t i = 0; i < keys_.size(); ++i) {
        const CameraKeyFrame& k = keys_[i];
        const std::string where = "camera path: key frame " + std::to_string(i) + ": ";
        const auto fail = [&](const std::string& what) { throw RenderError(where + what); };
        for (double x : {k.time, k.target.x, k.target.y, k.target.z, k.distance, k.yawDegrees,
                         k.pitchDegrees, k.fovYDegrees})
            if (!std::isfinite(x)) fail("a field is not finite");
        if (i > 0 && !(k.time > keys_[i - 1].time))
            fail("'time' " + std::to_string(k.time) + " is not after key frame " +
                 std::to_string(i - 1) + "'s " + std::to_string(keys_[i - 1].time) +
                 " (times must increase)");
        if (k.distance <= 0.0) fail("'distance' must be > 0");
        if (std::abs(k.pitchDegrees) > kMaxPitch)
            fail("'pitch' must lie within +-" + std::to_string(kMaxPitch) + " degrees");
        if (!(k.fovYDegrees >= 1.0 && k.fovYDegrees <= 179.0))
            fail("'fov' must lie between 1 and 179 degrees");
    }
    // Each step turns by at most 180 degrees: the short way round.
    unwrappedYaw_.push_back(keys_.front().yawDegrees);
    for (std::size_t i = 1; i < keys_.size(); ++i)
        unwrappedYaw_.push_back(unwrappedYaw_.back() +
                                wrap180(keys_[i].yawDegrees - keys_[i - 1].yawDegrees));
}

CameraPath CameraPath::fromJson(std::string_view text) {
    const json j = parse(text, "camera path");
    if (!j.is_array()) throw RenderError("camera path: expected a JSON array of key frames");
    std::vector<CameraKeyFrame> keys;
    double fov = OrbitCamera{}.fovYDegrees;
    for (std::size_t i = 0; i < j.size(); ++i) {
        const FieldReader r(j[i], "camera path: key frame " + std::to_string(i));
        r.onlyFields({"time", "target", "distance", "yaw", "pitch", "fov"});
        CameraKeyFrame k;
        k.time = r.number("time");
        k.target = r.vec3("target");
        k.distance = r.number("distance");
        k.yawDegrees = r.number("yaw");
        k.pitchDegrees = r.number("pitch");
        if (r.has("fov")) fov = r.number("fov");
        k.fovYDegrees = fov;
        keys.push_back(k);
    }
    return CameraPath(std::move(keys));
}

std::string CameraPath::toJson() const {
    json j = json::array();
    for (const CameraKeyFrame& k : keys_)
        j.push_back({{"time", k.time},
                     {"target", vec3Json(k.target)},
                     {"distance", k.distance},
                     {"yaw", k.yawDegrees},
                     {"pitch", k.pitchDegrees},
                     {"fov", k.fovYDegrees}});
    return j.dump(1);
}

CameraKeyFrame CameraPath::sample(double time) const {
    if (keys_.empty()) return CameraKeyFrame::at(time, OrbitCamera{});
    const std::size_t n = keys_.size();
    if (n == 1 || !(time > keys_.front().time)) {  // NaN too: hold the first key frame
        CameraKeyFrame k = keys_.front();
        k.time = time;
        return k;
    }
    if (time >= keys_.back().time) {
        CameraKeyFrame k = keys_.back();
        k.yawDegrees = unwrappedYaw_.back();
        k.time = time;
        return k;
    }
    // Segment i: keys_[i].time <= time < keys_[i + 1].time.
    const auto it = std::upper_bound(keys_.begin(), keys_.end(), time,
                                     [](double t, const CameraKeyFrame& k) { return t < k.time; });
    const auto i = static_cast<std::size_t>(it - keys_.begin()) - 1;
    const auto params = [&](std::size_t k) { return paramsOf(keys_[k], unwrappedYaw_[k]); };
    // d(parameter)/dt at key frame k: centred over its neighbours, one-sided at the ends.
    const auto tangent = [&](std::size_t k) {
        const std::size_t a = k == 0 ? 0 : k - 1, b = std::min(k + 1, n - 1);
        const Params pa = params(a), pb = params(b);
        Params m{};
        for (int p = 0; p < kParams; ++p)
            m[p] = (pb[p] - pa[p]) / (keys_[b].time - keys_[a].time);
        return m;
    };
    const double t0 = keys_[i].time, h = keys_[i + 1].time - t0;
    const double s = (time - t0) / h, s2 = s * s, s3 = s2 * s;
    const double h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2,
                 h11 = s3 - s2;
    const Params p0 = params(i), p1 = params(i + 1), m0 = tangent(i), m1 = tangent(i + 1);
    Params v{};
    for (int p = 0; p < kParams; ++p)
        v[p] = h00 * p0[p] + h10 * h * m0[p] + h01 * p1[p] + h11 * h * m1[p];
    CameraKeyFrame out;
    out.time = time;
    out.target = {v[0], v[1], v[2]};
    out.distance = std::exp(v[3]);
    out.yawDegrees = v[4];
    // Between key frames within the limits an overshoot may cross them: hold it there.
    out.pitchDegrees = std::clamp(v[5], -kMaxPitch, kMaxPitch);
    out.fovYDegrees = std::clamp(v[6], 1.0, 179.0);
    return out;
}

}  // namespace cf::render
