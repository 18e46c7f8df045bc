// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/guides.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/type_ptr.hpp>

#include "render/embedded_shaders.hpp"

namespace cf::render {

Guides::Guides()
    : program_(buildProgram("guides", shaders::kGuidesVert, shaders::kGuidesFrag)),
      vao_(createVertexArray()),
      lines_(createBuffer()),
      planes_(createBuffer()) {
    glEnableVertexArrayAttrib(vao_.get(), 0);
    glVertexArrayAttribFormat(vao_.get(), 0, 3, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribBinding(vao_.get(), 0, 0);
}

void Guides::setBox(const glm::vec3& lo, const glm::vec3& hi) {
    setPeriodicOutline(lo, hi, {false, false, false});
}

void Guides::setPeriodicOutline(const glm::vec3& lo, const glm::vec3& hi,
                                std::array<bool, 3> periodicAxes) {
    std::vector<glm::vec3> solid, dashed;
    const glm::vec3 c[8] = {{lo.x, lo.y, lo.z}, {hi.x, lo.y, lo.z}, {hi.x, hi.y, lo.z},
                            {lo.x, hi.y, lo.z}, {lo.x, lo.y, hi.z}, {hi.x, lo.y, hi.z},
                            {hi.x, hi.y, hi.z}, {lo.x, hi.y, hi.z}};
    const int edges[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                              {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
    // Dashes about 1/40 of the box diagonal; every dashed edge starts and ends with a dash
    // so the corners stay marked.
    const float dash = std::max(glm::length(hi - lo) / 40.0f, 1e-6f);
    for (const auto& e : edges) {
        const glm::vec3 a = c[e[0]], b = c[e[1]];
        // The edge runs along one axis and lies on the faces across the other two.
        bool onPeriodicFace = false;
        for (int axis = 0; axis < 3; ++axis)
            onPeriodicFace = onPeriodicFace || (a[axis] == b[axis] && periodicAxes[axis]);
        if (!onPeriodicFace) {
            solid.push_back(a);
            solid.push_back(b);
            continue;
        }
        const int dashes =
            std::max(2, static_cast<int>(std::lround(glm::length(b - a) / (2.0f * dash))));
        const int pieces = 2 * dashes - 1;
        for (int k = 0; k < pieces; k += 2) {
            dashed.push_back(glm::mix(a, b, static_cast<float>(k) / pieces));
            dashed.push_back(glm::mix(a, b, static_cast<float>(k + 1) / pieces));
        }
    }
    boxVertices_ = static_cast<int>(solid.size());
    dashedVertices_ = static_cast<int>(dashed.size());
    std::vector<glm::vec3> v = std::move(solid);
    // Axes from the lower corner, a fifth of the box long.
    const float len = 0.2f * glm::length(hi - lo);
    for (int a = 0; a < 3; ++a) {
        glm::vec3 end = lo;
        end[a] += len;
        v.push_back(lo);
        v.push_back(end);
    }
    v.insert(v.end(), dashed.begin(), dashed.end());
    lines_ = Buffer(createBuffer());
    glNamedBufferStorage(lines_.get(), static_cast<GLsizeiptr>(v.size() * sizeof(glm::vec3)),
                         v.data(), 0);
}

void Guides::clearPlanes() {
    planeDraws_.clear();
    planeVertices_.clear();
}

void Guides::addPlane(const glm::vec3& point, const glm::vec3& normal, const glm::vec2& extent,
                      const glm::vec4& rgba) {
    const glm::vec3 n = glm::normalize(normal);
    const glm::vec3 helper = std::abs(n.z) < 0.9f ? glm::vec3(0, 0, 1) : glm::vec3(1, 0, 0);
    const glm::vec3 u = glm::normalize(glm::cross(helper, n)) * (0.5f * extent.x);
    const glm::vec3 w = glm::normalize(glm::cross(n, u)) * (0.5f * extent.y);
    planeDraws_.push_back({static_cast<int>(planeVertices_.size()), rgba});
    for (const glm::vec3& p : {point - u - w, point + u - w, point - u + w, point + u + w})
        planeVertices_.push_back(p);
    planes_ = Buffer(createBuffer());
    glNamedBufferStorage(planes_.get(),
                         static_cast<GLsizeiptr>(planeVertices_.size() * sizeof(glm::vec3)),
                         planeVertices_.data(), 0);
}

void Guides::drawLines(const glm::mat4& viewProjection) const {
    if (boxVertices_ + dashedVertices_ == 0) return;
    const GLuint p = program_.get();
    glUseProgram(p);
    glProgramUniformMatrix4fv(p, glGetUniformLocation(p, "uViewProjection"), 1, GL_FALSE,
                              glm::value_ptr(viewProjection));
    const GLint color = glGetUniformLocation(p, "uColor");
    glBindVertexArray(vao_.get());
    glVertexArrayVertexBuffer(vao_.get(), 0, lines_.get(), 0, sizeof(glm::vec3));
    glEnable(GL_DEPTH_TEST);
    glProgramUniform4f(p, color, kBoxColor.r, kBoxColor.g, kBoxColor.b, 1.0f);
    if (boxVertices_ > 0) glDrawArrays(GL_LINES, 0, boxVertices_);
    if (dashedVertices_ > 0) {
        glProgramUniform4f(p, color, kPeriodicColor.r, kPeriodicColor.g, kPeriodicColor.b, 1.0f);
        glDrawArrays(GL_LINES, boxVertices_ + 6, dashedVertices_);
    }
    const float axis[3][3] = {{0.9f, 0.2f, 0.2f}, {0.2f, 0.8f, 0.2f}, {0.3f, 0.4f, 1.0f}};
    for (int a = 0; a < 3; ++a) {
        glProgramUniform4f(p, color, axis[a][0], axis[a][1], axis[a][2], 1.0f);
        glDrawArrays(GL_LINES, boxVertices_ + 2 * a, 2);
    }
    glBindVertexArray(0);
}

void Guides::drawPlanes(const glm::mat4& viewProjection) const {
    if (planeDraws_.empty()) return;
    const GLuint p = program_.get();
    glUseProgram(p);
    glProgramUniformMatrix4fv(p, glGetUniformLocation(p, "uViewProjection"), 1, GL_FALSE,
                              glm::value_ptr(viewProjection));
    glBindVertexArray(vao_.get());
    glVertexArrayVertexBuffer(vao_.get(), 0, planes_.get(), 0, sizeof(glm::vec3));
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    // "Over" for colour and coverage, so images with a transparent background get the
    // plane's alpha right.
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);  // translucent: do not hide what is drawn later behind it
    for (const PlaneDraw& d : planeDraws_) {
        glProgramUniform4fv(p, glGetUniformLocation(p, "uColor"), 1, glm::value_ptr(d.rgba));
        glDrawArrays(GL_TRIANGLE_STRIP, d.first, 4);
    }
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
    glBindVertexArray(0);
}

}  // namespace cf::render
