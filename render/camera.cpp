// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/camera.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

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
