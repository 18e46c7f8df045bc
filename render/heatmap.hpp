// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Heatmap2D: an nx x ny scalar field (one GL R32F 2D texture) drawn on a world-space
// rectangle, e.g. a concentration field on a plane. Value (i, j) is the cell whose centre
// lies at origin + (i + 0.5) / nx * edgeU + (j + 0.5) / ny * edgeV. Opaque, depth-tested
// and depth-writing. texture() is what the CUDA interop path registers (GL_TEXTURE_2D);
// a size change makes a new texture (textureGeneration() counts them).
#include <cstdint>
#include <glm/glm.hpp>

#include "render/colormap.hpp"
#include "render/gl_program.hpp"

namespace cf::render {

class Heatmap2D {
public:
    Heatmap2D();  // needs a current GL 4.5 context; starts as one 0 on the unit square

    // nx*ny values, x (along edgeU) fastest. Reallocates only when the size changes.
    void setValues(const float* values, int nx, int ny);
    void resize(int nx, int ny);  // new texture, contents undefined
    void setRectangle(const glm::vec3& origin, const glm::vec3& edgeU, const glm::vec3& edgeV);
    void colorByScalar(Colormap map, float lo, float hi);
    // Bilinear between cell centres (true) or the cell's own value (false).
    void setLinear(bool linear) { linear_ = linear; }

    GLuint texture() const { return texture_.get(); }
    std::uint64_t textureGeneration() const { return generation_; }
    glm::ivec2 size() const { return size_; }

    void draw(const glm::mat4& view, const glm::mat4& projection) const;

private:
    Program program_;
    VertexArray vao_;
    Texture texture_;
    Texture colormap_;
    std::uint64_t generation_ = 0;
    glm::ivec2 size_{0, 0};
    glm::vec3 origin_{0.0f}, edgeU_{1.0f, 0.0f, 0.0f}, edgeV_{0.0f, 1.0f, 0.0f};
    glm::vec2 range_{0.0f, 1.0f};
    bool linear_ = true;
};

}  // namespace cf::render
