// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Orbit camera: looks at `target` from `distance`, rotated by yaw (about z) and pitch.
// z is up, as in the models (the basement membrane is the plane z = 0).
#include <glm/glm.hpp>

namespace cf::render {

struct OrbitCamera {
    glm::vec3 target{0.0f};
    float distance = 10.0f;
    float yawDegrees = -60.0f;
    float pitchDegrees = 30.0f;
    float fovYDegrees = 35.0f;

    glm::vec3 eye() const;
    glm::mat4 view() const;
    glm::mat4 projection(float aspect) const;  // near/far follow the distance
    // Centres the box and backs off until it fits the vertical field of view.
    void fit(const glm::vec3& lo, const glm::vec3& hi);

    // Unit vectors of the view plane in world space (screen right and screen up).
    glm::vec3 right() const;
    glm::vec3 up() const;
    // Drag the scene by (dx, dy) screen pixels (x right, y down) in a viewport
    // `viewportHeight` pixels high: the point at the target follows the cursor exactly.
    void pan(float dxPixels, float dyPixels, int viewportHeight);
    // Dolly towards the target: factor 2 halves the distance, 0.5 doubles it; factors that
    // are not positive and finite are ignored.
    void zoom(float factor);
};

}  // namespace cf::render
