// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Orbit camera: looks at `target` from `distance`, rotated by yaw (about z) and pitch.
// z is up, as in the models (the basement membrane is the plane z = 0).
#include <glm/glm.hpp>
#include <vector>

namespace cf::render {

// A world-space axis-aligned box (something drawn: a cloud's extent, a volume, a sheet).
struct WorldBox {
    glm::vec3 lo{0.0f}, hi{0.0f};
};

// A rectangle on screen in pixels, x right and y down from the top-left corner.
struct ScreenRect {
    float x0 = 0.0f, y0 = 0.0f, x1 = 0.0f, y1 = 0.0f;
    bool empty() const { return !(x1 > x0 && y1 > y0); }
    float width() const { return x1 - x0; }
    float height() const { return y1 - y0; }
    bool contains(const ScreenRect& r) const {
        return r.x0 >= x0 && r.x1 <= x1 && r.y0 >= y0 && r.y1 <= y1;
    }
};

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
    // Moves the target and the distance (yaw and pitch stay) so that the boxes' projected
    // corners fill `area` (pixels of a `width` x `height` viewport) as far as its width or
    // its height allows, centred in it. Empty boxes are skipped; nothing to fit, or an empty
    // area: unchanged. Returns whether the projection now lies inside `area` (to 0.5 px).
    bool fitOnScreen(const std::vector<WorldBox>& boxes, int width, int height,
                     const ScreenRect& area);

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

// The projected corners' bounding rectangle of `boxes` in a `width` x `height` viewport
// (pixels, y down); empty when there is no box. A corner behind the eye makes it the whole
// plane (infinite): such a scene does not fit.
ScreenRect projectBoxes(const OrbitCamera& camera, const std::vector<WorldBox>& boxes, int width,
                        int height);

// The largest rectangle of `bounds` that overlaps none of `obstacles` (panels over a view),
// largest by the scale at which a rectangle of aspect `aspect` (width / height; <= 0: area
// instead) fits in it. Candidates are bounded by the obstacles' and bounds' edges.
ScreenRect largestFreeRect(const ScreenRect& bounds, const std::vector<ScreenRect>& obstacles,
                           float aspect);

}  // namespace cf::render
