// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// VolumeGrid: a regular nx x ny x nz field in one GL 3D texture, mapped cell-centred onto a
// world box [lo, hi] (cell (i, j, k) covers lo + (i, j, k) * (hi - lo) / n and the next
// cell face). Either scalars (R32F, coloured through a colormap) or site categories (R8UI,
// coloured by a category palette; category 0 may be an empty, transparent site).
//
// Drawn as up to three axis-aligned slice planes (opaque, depth-tested and depth-writing
// like any surface, so they composite with spheres), or ray-marched as an
// emission-absorption medium.
//
// Data arrive from the host here; the CUDA interop path (render/cuda/cuda_gl_texture.hpp)
// writes texture() directly. resize() makes a new texture object: whoever registered the
// old one must register again (textureGeneration() tells that it changed even when GL
// hands out a recycled name).
#include <array>
#include <cstdint>
#include <glm/glm.hpp>

#include "render/colormap.hpp"
#include "render/gl_program.hpp"

namespace cf::render {

class VolumeGrid {
public:
    enum class ValueFormat { Scalar = 0, Category = 1 };  // GL_R32F, GL_R8UI

    VolumeGrid();  // needs a current GL 4.5 context; starts as one scalar 0 in [0, 1]^3

    // Also puts the three slices at the box centre. Throws unless lo < hi on every axis.
    void setBox(const glm::vec3& lo, const glm::vec3& hi);
    const glm::vec3& lo() const { return lo_; }
    const glm::vec3& hi() const { return hi_; }

    // Allocates a new texture (contents undefined) of the given size; keeps the format.
    void resize(int nx, int ny, int nz);
    void resize(int nx, int ny, int nz, ValueFormat format);
    // nx*ny*nz values, x fastest then y then z. Reallocates only when the size or the
    // format changes.
    void setScalars(const float* values, int nx, int ny, int nz);
    void setCategories(const std::uint8_t* values, int nx, int ny, int nz);

    void colorByScalar(Colormap map, float lo, float hi);
    // Scalars: trilinear between cell centres (true) or the cell's own value (false).
    // Categories are always sampled nearest.
    void setLinearScalars(bool linear) { linearScalars_ = linear; }
    // Category 0 = empty site: not drawn (slices show what is behind, the ray-march treats
    // it as vacuum). Off: drawn with palette colour 0.
    void setEmptyCategoryTransparent(bool transparent) { emptyTransparent_ = transparent; }
    bool emptyCategoryTransparent() const { return emptyTransparent_; }
    // Categories' colours (a channel's declared ones: render::categoryPalette).
    void setCategoryColors(const CategoryPalette& palette) { palette_ = palette; }
    const CategoryPalette& categoryColors() const { return palette_; }

    // Slice planes, one per axis (0 x, 1 y, 2 z), at a world coordinate (clamped to the box).
    void setSlice(int axis, float worldCoordinate);
    void enableSlice(int axis, bool enabled);
    float slice(int axis) const { return slices_.at(static_cast<std::size_t>(axis)).coordinate; }
    bool sliceEnabled(int axis) const { return slices_.at(static_cast<std::size_t>(axis)).enabled; }

    // Ray-march: extinction per world unit of a sample at the top of the colour range
    // (scalars scale it linearly by their position in the range; every non-empty category
    // gets it whole).
    void setOpacityScale(float extinctionPerUnit) { opacityScale_ = extinctionPerUnit; }
    float opacityScale() const { return opacityScale_; }

    GLuint texture() const { return texture_.get(); }
    std::uint64_t textureGeneration() const { return generation_; }
    ValueFormat valueFormat() const { return format_; }
    glm::ivec3 size() const { return size_; }

    // Opaque slices: draw with the other opaque geometry.
    void drawSlices(const glm::mat4& view, const glm::mat4& projection) const;
    // Translucent: draw after all opaque geometry (perspective cameras). Blends premultiplied
    // "over" the target and is hidden where opaque geometry lies in front of the box surface where
    // the ray enters the volume; opaque objects inside the box do not stop the rays.
    void drawVolume(const glm::mat4& view, const glm::mat4& projection) const;

private:
    struct Slice {
        float coordinate;
        bool enabled;
    };
    void setCommonUniforms(GLuint program) const;
    void bindVolume() const;

    Program sliceProgram_, marchProgram_;
    VertexArray vao_;  // attribute-less: the shaders build the geometry from gl_VertexID
    Texture texture_;
    Texture colormap_;
    std::uint64_t generation_ = 0;
    ValueFormat format_ = ValueFormat::Scalar;
    glm::ivec3 size_{0, 0, 0};
    glm::vec3 lo_{0.0f}, hi_{1.0f};
    std::array<Slice, 3> slices_{};
    glm::vec2 scalarRange_{0.0f, 1.0f};
    CategoryPalette palette_ = categoricalPalette();
    bool linearScalars_ = true;
    bool emptyTransparent_ = true;
    float opacityScale_ = 1.0f;
};

}  // namespace cf::render
