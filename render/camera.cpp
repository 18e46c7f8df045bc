// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/camera.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <limits>

namespace cf::render {

glm::vec3 OrbitCamera::eye() const {
    const float yaw = glm::radians(yawDegrees), pitch = glm::radians(pitchDegrees);
    const glm::vec3 dir(std::cos(pitch) * std::cos(yaw), std::cos(pitch) * std::sin(yaw),
                        std::sin(pitch));
    return target + distance * dir;
}

glm::mat4 OrbitCamera::view() const {
    return glm::lookAt(eye(), target, glm::vec3(0.0f, 0.0f, 1.0f));
}

glm::mat4 OrbitCamera::projection(float aspect) const {
    const float nearPlane = std::max(1e-4f, 0.01f * distance);
    const float farPlane = 100.0f * distance;
    return glm::perspective(glm::radians(fovYDegrees), aspect, nearPlane, farPlane);
}

void OrbitCamera::fit(const glm::vec3& lo, const glm::vec3& hi) {
    target = 0.5f * (lo + hi);
    const float radius = std::max(0.5f * glm::length(hi - lo), 1e-6f);
    // The bounding sphere fits the vertical field of view; a flat slab's sphere is
    // generous, so tighten by how much of the sphere the box's height really uses.
    distance = radius / std::sin(0.5f * glm::radians(fovYDegrees)) * 1.05f;
    const glm::vec3 extent = hi - lo;
    const float flatness = std::max(extent.z, 0.5f * std::max(extent.x, extent.y)) /
                           std::max({extent.x, extent.y, extent.z, 1e-6f});
    distance *= std::max(0.75f, std::min(1.0f, 0.5f + 0.5f * flatness));
}

glm::vec3 OrbitCamera::right() const {
    const float yaw = glm::radians(yawDegrees);
    // Perpendicular to the eye direction's horizontal part, so it stays defined looking
    // straight down.
    return glm::vec3(-std::sin(yaw), std::cos(yaw), 0.0f);
}

glm::vec3 OrbitCamera::up() const {
    return glm::cross(right(), glm::normalize(target - eye()));
}

void OrbitCamera::pan(float dxPixels, float dyPixels, int viewportHeight) {
    // World length of one pixel in the plane through the target, facing the eye.
    const float perPixel = 2.0f * distance * std::tan(0.5f * glm::radians(fovYDegrees)) /
                           static_cast<float>(std::max(viewportHeight, 1));
    target += perPixel * (-dxPixels * right() + dyPixels * up());
}

void OrbitCamera::zoom(float factor) {
    if (factor > 0.0f && std::isfinite(factor)) distance = std::max(distance / factor, 1e-6f);
}

}  // namespace cf::render

namespace cf::render {

namespace {

bool validBox(const WorldBox& b) {
    return b.lo.x <= b.hi.x && b.lo.y <= b.hi.y && b.lo.z <= b.hi.z;
}

}  // namespace

ScreenRect projectBoxes(const OrbitCamera& camera, const std::vector<WorldBox>& boxes, int width,
                        int height) {
    const float inf = std::numeric_limits<float>::infinity();
    ScreenRect r{inf, inf, -inf, -inf};
    const float w = static_cast<float>(std::max(width, 1)),
                h = static_cast<float>(std::max(height, 1));
    const glm::mat4 m = camera.projection(w / h) * camera.view();
    bool any = false;
    for (const WorldBox& b : boxes) {
        if (!validBox(b)) continue;
        any = true;
        for (int c = 0; c < 8; ++c) {
            const glm::vec4 p((c & 1) ? b.hi.x : b.lo.x, (c & 2) ? b.hi.y : b.lo.y,
                              (c & 4) ? b.hi.z : b.lo.z, 1.0f);
            const glm::vec4 clip = m * p;
            if (!(clip.w > 1e-6f)) return {-inf, -inf, inf, inf};
            const float x = (clip.x / clip.w * 0.5f + 0.5f) * w;
            const float y = (0.5f - clip.y / clip.w * 0.5f) * h;
            r.x0 = std::min(r.x0, x);
            r.x1 = std::max(r.x1, x);
            r.y0 = std::min(r.y0, y);
            r.y1 = std::max(r.y1, y);
        }
    }
    return any ? r : ScreenRect{};
}

bool OrbitCamera::fitOnScreen(const std::vector<WorldBox>& boxes, int width, int height,
                              const ScreenRect& area) {
    WorldBox all{glm::vec3(std::numeric_limits<float>::max()),
                 glm::vec3(std::numeric_limits<float>::lowest())};
    bool any = false;
    for (const WorldBox& b : boxes)
        if (validBox(b)) {
            all.lo = glm::min(all.lo, b.lo);
            all.hi = glm::max(all.hi, b.hi);
            any = true;
        }
    if (!any || area.empty() || width <= 0 || height <= 0) return false;
    fit(all.lo, all.hi);  // a start in front of the scene, looking at its centre
    const float cx = 0.5f * (area.x0 + area.x1), cy = 0.5f * (area.y0 + area.y1);
    // The projected size goes as 1 / distance for what lies at the target's depth: scale the
    // distance by the ratio of the sizes and move the rectangle's centre onto the area's,
    // until both settle (a few rounds; nearer corners converge more slowly).
    for (int round = 0; round < 60; ++round) {
        const ScreenRect r = projectBoxes(*this, boxes, width, height);
        if (!std::isfinite(r.x0) || !std::isfinite(r.x1)) {  // a corner behind the eye
            distance *= 2.0f;
            continue;
        }
        const float s = std::max(r.width() / area.width(), r.height() / area.height());
        const float dx = cx - 0.5f * (r.x0 + r.x1), dy = cy - 0.5f * (r.y0 + r.y1);
        if (std::fabs(s - 1.0f) < 1e-4f && std::fabs(dx) < 0.05f && std::fabs(dy) < 0.05f) break;
        pan(dx, dy, height);
        if (s > 0.0f && std::isfinite(s)) distance *= s;
    }
    // What remains is round-off of the last round: back off by a hair until inside.
    const ScreenRect inner{area.x0 - 0.5f, area.y0 - 0.5f, area.x1 + 0.5f, area.y1 + 0.5f};
    for (int round = 0; round < 20; ++round) {
        if (inner.contains(projectBoxes(*this, boxes, width, height))) return true;
        distance *= 1.002f;
    }
    return inner.contains(projectBoxes(*this, boxes, width, height));
}

ScreenRect largestFreeRect(const ScreenRect& bounds, const std::vector<ScreenRect>& obstacles,
                           float aspect) {
    std::vector<float> xs{bounds.x0, bounds.x1}, ys{bounds.y0, bounds.y1};
    std::vector<ScreenRect> inside;
    for (const ScreenRect& o : obstacles) {
        if (o.empty() || o.x1 <= bounds.x0 || o.x0 >= bounds.x1 || o.y1 <= bounds.y0 ||
            o.y0 >= bounds.y1)
            continue;
        inside.push_back(o);
        for (const float x : {o.x0, o.x1})
            xs.push_back(std::clamp(x, bounds.x0, bounds.x1));
        for (const float y : {o.y0, o.y1})
            ys.push_back(std::clamp(y, bounds.y0, bounds.y1));
    }
    std::sort(xs.begin(), xs.end());
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
    std::sort(ys.begin(), ys.end());
    ys.erase(std::unique(ys.begin(), ys.end()), ys.end());
    ScreenRect best{};
    float bestScore = -1.0f, bestArea = -1.0f;
    for (std::size_t a = 0; a < xs.size(); ++a)
        for (std::size_t b = a + 1; b < xs.size(); ++b)
            for (std::size_t c = 0; c < ys.size(); ++c)
                for (std::size_t d = c + 1; d < ys.size(); ++d) {
                    const ScreenRect r{xs[a], ys[c], xs[b], ys[d]};
                    const bool blocked =
                        std::any_of(inside.begin(), inside.end(), [&](const ScreenRect& o) {
                            return o.x0 < r.x1 && o.x1 > r.x0 && o.y0 < r.y1 && o.y1 > r.y0;
                        });
                    if (blocked) continue;
                    const float area = r.width() * r.height();
                    const float score =
                        aspect > 0.0f ? std::min(r.width() / aspect, r.height()) : area;
                    if (score > bestScore || (score == bestScore && area > bestArea)) {
                        best = r;
                        bestScore = score;
                        bestArea = area;
                    }
                }
    return best;
}

}  // namespace cf::render
