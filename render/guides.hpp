// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Orientation aids drawn with the data: the domain's bounding box (dashed look comes from
// its colour only), coordinate axes at the box corner (x red, y green, z blue) and planes
// such as the basement membrane (translucent, drawn after opaque structures).
#include <glm/glm.hpp>
#include <vector>

#include "render/gl_program.hpp"

namespace cf::render {

class Guides {
public:
    Guides();  // needs a current GL 4.5 context

    void setBox(const glm::vec3& lo, const glm::vec3& hi);
    void clearPlanes();
    // A rectangle centred at `point` with normal `normal`, `extent` wide along its two
    // in-plane axes.
    void addPlane(const glm::vec3& point, const glm::vec3& normal, const glm::vec2& extent,
                  const glm::vec4& rgba);

    void drawLines(const glm::mat4& viewProjection) const;   // box and axes (opaque)
    void drawPlanes(const glm::mat4& viewProjection) const;  // translucent, depth-tested

private:
    Program program_;
    VertexArray vao_;
    Buffer lines_, planes_;
    int boxVertices_ = 0;
    struct PlaneDraw {
        int first;
        glm::vec4 rgba;
    };
    std::vector<PlaneDraw> planeDraws_;
    std::vector<glm::vec3> planeVertices_;
};

}  // namespace cf::render
