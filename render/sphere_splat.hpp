// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The compute path for sphere impostors (see shaders/sphere_splat.comp): small spheres are
// splatted by a compute shader into a per-pixel "nearest sphere" image, then one
// full-screen pass shades them; spheres whose silhouette spans many pixels are listed for
// the raster path, drawn with an indirect instanced draw. Same pixels as the raster path;
// much faster where the GPU's rasteriser, not its memory, limits tiny-triangle throughput.
#include <cstddef>
#include <functional>
#include <glm/glm.hpp>

#include "render/gl_program.hpp"

namespace cf::render {

class SphereSplatter {
public:
    SphereSplatter();  // needs a current GL 4.5 context

    struct Spheres {
        GLuint points = 0;      // vec4 x, y, z, radius
        GLuint scalars = 0;     // float
        GLuint categories = 0;  // uint8, size a multiple of 4
        std::size_t count = 0;
    };
    // Sets the colour, colormap and radius uniforms of sphere_common.glsl on a program.
    using CommonUniforms = std::function<void(GLuint program)>;
    // Draws into the bound framebuffer's viewport, depth-tested against what is there.
    void draw(const Spheres& spheres, const glm::mat4& view, const glm::mat4& projection,
              const CommonUniforms& commonUniforms);
    // Spheres whose silhouette rectangle covers more pixels than this are rasterised.
    void setMaxSplatPixels(int pixels) { maxSplatPixels_ = pixels; }

private:
    void resizeImages(int width, int height);

    Program splat_, resolve_, rasterLarge_;
    VertexArray emptyVao_, largeVao_;
    Texture depthBits_, winner_;
    Buffer largeSpheres_;
    std::size_t largeCapacity_ = 0;
    int width_ = 0, height_ = 0;
    int maxSplatPixels_ = 256;
};

}  // namespace cf::render
