// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/point_cloud.hpp"

#include <glm/gtc/type_ptr.hpp>

#include "render/colormap_texture.hpp"
#include "render/embedded_shaders.hpp"
#include "render/render_error.hpp"

namespace cf::render {

PointCloud::PointCloud()
    : program_(buildProgram("point_cloud",
                            {kGlslVersion, shaders::kSphereCommonGlsl, shaders::kPointCloudVert},
                            {kGlslVersion, shaders::kSphereCommonGlsl, shaders::kPointCloudFrag})),
      vao_(createVertexArray()),
      positions_(createBuffer()),
      scalars_(createBuffer()),
      categories_(createBuffer()),
      colormap_(createColormapTexture(Colormap::Viridis)) {
    ensureCapacity(1);
}

PointCloud::~PointCloud() = default;

void PointCloud::ensureCapacity(std::size_t count) {
    if (count <= capacity_) return;
    std::size_t cap = capacity_ == 0 ? 1024 : capacity_;
    while (cap < count)
        cap *= 2;
    // New buffer objects: immutable storage cannot grow, and CUDA registrations of the old
    // ones must be renewed by whoever registered them (the size changed anyway).
    storageId_ = newStorageId();
    positions_ = Buffer(createBuffer());
    scalars_ = Buffer(createBuffer());
    categories_ = Buffer(createBuffer());
    glNamedBufferStorage(positions_.get(), static_cast<GLsizeiptr>(cap * 4 * sizeof(float)),
                         nullptr, GL_DYNAMIC_STORAGE_BIT);
    glNamedBufferStorage(scalars_.get(), static_cast<GLsizeiptr>(cap * sizeof(float)), nullptr,
                         GL_DYNAMIC_STORAGE_BIT);
    glNamedBufferStorage(categories_.get(), static_cast<GLsizeiptr>(cap), nullptr,
                         GL_DYNAMIC_STORAGE_BIT);
    const GLuint vao = vao_.get();
    glVertexArrayVertexBuffer(vao, 0, positions_.get(), 0, 4 * sizeof(float));
    glVertexArrayVertexBuffer(vao, 1, scalars_.get(), 0, sizeof(float));
    glVertexArrayVertexBuffer(vao, 2, categories_.get(), 0, 1);
    for (GLuint i = 0; i < 3; ++i) {
        glEnableVertexArrayAttrib(vao, i);
        glVertexArrayAttribBinding(vao, i, i);
        glVertexArrayBindingDivisor(vao, i, 1);  // one sphere per instance
    }
    glVertexArrayAttribFormat(vao, 0, 4, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribFormat(vao, 1, 1, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribIFormat(vao, 2, 1, GL_UNSIGNED_BYTE, 0);
    capacity_ = cap;
}

void PointCloud::setPoints(const float* xyzr, std::size_t count) {
    ensureCapacity(count);
    if (count > 0)
        glNamedBufferSubData(positions_.get(), 0,
                             static_cast<GLsizeiptr>(count * 4 * sizeof(float)), xyzr);
    count_ = count;
}

void PointCloud::setScalars(const float* values, std::size_t count) {
    ensureCapacity(count);
    if (count > 0)
        glNamedBufferSubData(scalars_.get(), 0, static_cast<GLsizeiptr>(count * sizeof(float)),
                             values);
}

void PointCloud::setCategories(const std::uint8_t* values, std::size_t count) {
    ensureCapacity(count);
    if (count > 0)
        glNamedBufferSubData(categories_.get(), 0, static_cast<GLsizeiptr>(count), values);
}

void PointCloud::colorUniform(const glm::vec3& rgb) {
    mode_ = ColorMode::Uniform;
    uniformColor_ = rgb;
}

void PointCloud::colorByScalar(Colormap map, float lo, float hi) {
    uploadColormap(colormap_.get(), map);
    mode_ = ColorMode::Scalar;
    scalarRange_ = {lo, hi};
}

void PointCloud::colorByCategory(const CategoryPalette& palette) {
    mode_ = ColorMode::Category;
    palette_ = palette;
}

void PointCloud::setCommonUniforms(GLuint p) const {
    glProgramUniform1f(p, glGetUniformLocation(p, "uRadiusOverride"), radiusOverride_);
    glProgramUniform1i(p, glGetUniformLocation(p, "uColorMode"), static_cast<int>(mode_));
    glProgramUniform3fv(p, glGetUniformLocation(p, "uUniformColor"), 1,
                        glm::value_ptr(uniformColor_));
    glProgramUniform2fv(p, glGetUniformLocation(p, "uScalarRange"), 1,
                        glm::value_ptr(scalarRange_));
    glProgramUniform1i(p, glGetUniformLocation(p, "uColormap"), 0);
    glProgramUniform3fv(p, glGetUniformLocation(p, "uPalette"), 16, palette_.front().data());
}

void PointCloud::draw(const glm::mat4& view, const glm::mat4& projection) const {
    if (count_ == 0) return;
    glBindTextureUnit(0, colormap_.get());
    const bool splat =
        path_ == DrawPath::Splat || (path_ == DrawPath::Auto && count_ >= kAutoSplatCount);
    if (splat) {
        if (!splatter_) splatter_ = std::make_unique<SphereSplatter>();
        splatter_->draw({positions_.get(), scalars_.get(), categories_.get(), count_}, view,
                        projection, [this](GLuint p) { setCommonUniforms(p); });
        return;
    }
    const GLuint p = program_.get();
    setCommonUniforms(p);
    glProgramUniformMatrix4fv(p, glGetUniformLocation(p, "uView"), 1, GL_FALSE,
                              glm::value_ptr(view));
    glProgramUniformMatrix4fv(p, glGetUniformLocation(p, "uProjection"), 1, GL_FALSE,
                              glm::value_ptr(projection));
    glUseProgram(p);
    glBindVertexArray(vao_.get());
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, static_cast<GLsizei>(count_));
    glBindVertexArray(0);
}

}  // namespace cf::render
