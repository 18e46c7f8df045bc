// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Orientation aids drawn with the data: the domain's bounding box, coordinate axes at the
// box corner (x red, y green, z blue) and planes such as the basement membrane (translucent,
// drawn after opaque structures). A periodic domain's box shows which faces wrap: their
// edges are dashed and teal, the others solid grey.
#include <array>
#include <glm/glm.hpp>
#include <vector>

#include "render/gl_program.hpp"

namespace cf::render {

class Guides {
public:
    Guides();  // needs a current GL 4.5 context

    void setBox(const glm::vec3& lo, const glm::vec3& hi);
    // The box with the faces across periodic axes marked: an edge on a face perpendicular
    // to a periodic axis (x periodic: the faces x = lo and x = hi) is drawn dashed in
    // kPeriodicColor. No periodic axis: the same as setBox().
    void setPeriodicOutline(const glm::vec3& lo, const glm::vec3& hi,
                            std::array<bool, 3> periodicAxes);
    static inline const glm::vec3 kBoxColor{0.55f, 0.55f, 0.6f};
    static inline const glm::vec3 kPeriodicColor{0.25f, 0.8f, 0.8f};
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
    int boxVertices_ = 0;     // solid box edges, then 6 axis vertices
    int dashedVertices_ = 0;  // after the axes: periodic edges' dashes
    struct PlaneDraw {
        int first;
        glm::vec4 rgba;
    };
    std::vector<PlaneDraw> planeDraws_;
    std::vector<glm::vec3> planeVertices_;
};

}  // namespace cf::render
