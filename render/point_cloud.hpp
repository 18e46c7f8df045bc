// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// PointCloud: sphere impostors drawn instanced from GL buffers the renderer owns. Data
// arrive from the host (glNamedBufferSubData) here; the CUDA interop path writes the same
// buffers device to device (positionBuffer() etc. are what it registers).
#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <memory>

#include "render/colormap.hpp"
#include "render/gl_program.hpp"
#include "render/sphere_splat.hpp"

namespace cf::render {

class PointCloud {
public:
    enum class ColorMode { Uniform = 0, Scalar = 1, Category = 2 };

    // Raster: instanced quads through the rasteriser. Splat: the compute path
    // (render/sphere_splat.hpp), same pixels. Auto: splat from kAutoSplatCount spheres up.
    enum class DrawPath { Auto, Raster, Splat };
    static constexpr std::size_t kAutoSplatCount = 10'000;

    PointCloud();  // needs a current GL 4.5 context
    ~PointCloud();

    // count x (x, y, z, radius). Buffers grow to fit and are reused.
    void setPoints(const float* xyzr, std::size_t count);
    void setScalars(const float* values, std::size_t count);
    void setCategories(const std::uint8_t* values, std::size_t count);

    void colorUniform(const glm::vec3& rgb);
    void colorByScalar(Colormap map, float lo, float hi);
    // Categories in `palette` (a channel's declared colours: render::categoryPalette).
    void colorByCategory(const CategoryPalette& palette = categoricalPalette());
    // The colours categories are drawn in now (what a legend must show).
    const CategoryPalette& categoryColors() const { return palette_; }
    void setRadiusOverride(float radius) { radiusOverride_ = radius; }  // <= 0: per point
    void setDrawPath(DrawPath path) { path_ = path; }
    DrawPath drawPath() const { return path_; }

    std::size_t count() const { return count_; }
    GLuint positionBuffer() const { return positions_.get(); }
    GLuint scalarBuffer() const { return scalars_.get(); }
    GLuint categoryBuffer() const { return categories_.get(); }
    // Changes whenever the three buffers are replaced (growth): interop re-registers then.
    std::uint64_t storageId() const { return storageId_; }
    // Makes room for `count` points (the interop path fills the buffers itself).
    void resize(std::size_t count) {
        ensureCapacity(count);
        count_ = count;
    }

    void draw(const glm::mat4& view, const glm::mat4& projection) const;

private:
    void ensureCapacity(std::size_t count);
    void setCommonUniforms(GLuint program) const;

    Program program_;
    VertexArray vao_;
    Buffer positions_, scalars_, categories_;
    Texture colormap_;
    std::size_t capacity_ = 0;
    std::uint64_t storageId_ = 0;
    std::size_t count_ = 0;
    ColorMode mode_ = ColorMode::Uniform;
    glm::vec3 uniformColor_{0.8f, 0.8f, 0.8f};
    glm::vec2 scalarRange_{0.0f, 1.0f};
    CategoryPalette palette_ = categoricalPalette();
    float radiusOverride_ = 0.0f;
    DrawPath path_ = DrawPath::Auto;
    mutable std::unique_ptr<SphereSplatter> splatter_;  // made on first use (draw is const)
};

}  // namespace cf::render
