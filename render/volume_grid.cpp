// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/volume_grid.hpp"

#include <algorithm>
#include <glm/gtc/type_ptr.hpp>
#include <string>

#include "render/colormap_texture.hpp"
#include "render/embedded_shaders.hpp"
#include "render/render_error.hpp"

namespace cf::render {

namespace {

// Texture units: the scalar and the category volume need different sampler types, which
// GL forbids on one unit in one draw, so each has its own unit (the unused one stays empty).
constexpr GLuint kScalarUnit = 0;
constexpr GLuint kCategoryUnit = 1;
constexpr GLuint kColormapUnit = 2;

void checkAxis(int axis) {
    if (axis < 0 || axis > 2)
        throw RenderError("volume slice axis " + std::to_string(axis) + " is not 0, 1 or 2");
}

}  // namespace

VolumeGrid::VolumeGrid()
    : sliceProgram_(
          buildProgram("volume_slice", shaders::kVolumeSliceVert, shaders::kVolumeSliceFrag)),
      marchProgram_(buildProgram("volume_raymarch", shaders::kVolumeRaymarchVert,
                                 shaders::kVolumeRaymarchFrag)),
      vao_(createVertexArray()),
      colormap_(createColormapTexture(Colormap::Viridis)) {
    const float zero = 0.0f;
    setScalars(&zero, 1, 1, 1);
    setBox(lo_, hi_);
    for (Slice& s : slices_)
        s.enabled = true;
}

void VolumeGrid::setBox(const glm::vec3& lo, const glm::vec3& hi) {
    if (!(lo.x < hi.x && lo.y < hi.y && lo.z < hi.z))
        throw RenderError("volume box: lo must be below hi on every axis");
    lo_ = lo;
    hi_ = hi;
    for (int a = 0; a < 3; ++a)
        slices_[static_cast<std::size_t>(a)].coordinate = 0.5f * (lo[a] + hi[a]);
}

void VolumeGrid::resize(int nx, int ny, int nz) {
    resize(nx, ny, nz, format_);
}

void VolumeGrid::resize(int nx, int ny, int nz, ValueFormat format) {
    GLint maxSize = 0;
    glGetIntegerv(GL_MAX_3D_TEXTURE_SIZE, &maxSize);
    for (int n : {nx, ny, nz})
        if (n < 1 || n > maxSize)
            throw RenderError("volume size " + std::to_string(nx) + "x" + std::to_string(ny) + "x" +
                              std::to_string(nz) + " is outside 1.." + std::to_string(maxSize) +
                              " cells per side");
    // The new object is created before the old one is deleted, so its name differs from the
    // current one (a registration keyed on the name alone would still miss a name recycled
    // from an earlier resize: hence the generation).
    Texture fresh(createTexture(GL_TEXTURE_3D));
    glTextureStorage3D(fresh.get(), 1, format == ValueFormat::Scalar ? GL_R32F : GL_R8UI, nx, ny,
                       nz);
    // Integer textures are incomplete with linear filtering; the shaders choose between
    // texelFetch (nearest) and texture() (trilinear), so only scalars filter linearly.
    const GLint filter = format == ValueFormat::Scalar ? GL_LINEAR : GL_NEAREST;
    glTextureParameteri(fresh.get(), GL_TEXTURE_MIN_FILTER, filter);
    glTextureParameteri(fresh.get(), GL_TEXTURE_MAG_FILTER, filter);
    for (GLenum wrap : {GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T, GL_TEXTURE_WRAP_R})
        glTextureParameteri(fresh.get(), wrap, GL_CLAMP_TO_EDGE);
    texture_ = std::move(fresh);
    format_ = format;
    size_ = {nx, ny, nz};
    generation_ = newStorageId();
}

void VolumeGrid::setScalars(const float* values, int nx, int ny, int nz) {
    if (format_ != ValueFormat::Scalar || size_ != glm::ivec3(nx, ny, nz))
        resize(nx, ny, nz, ValueFormat::Scalar);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTextureSubImage3D(texture_.get(), 0, 0, 0, 0, nx, ny, nz, GL_RED, GL_FLOAT, values);
}

void VolumeGrid::setCategories(const std::uint8_t* values, int nx, int ny, int nz) {
    if (format_ != ValueFormat::Category || size_ != glm::ivec3(nx, ny, nz))
        resize(nx, ny, nz, ValueFormat::Category);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);  // rows of nx bytes, any nx
    glTextureSubImage3D(texture_.get(), 0, 0, 0, 0, nx, ny, nz, GL_RED_INTEGER, GL_UNSIGNED_BYTE,
                        values);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);  // back to GL's default for other uploads
}

void VolumeGrid::colorByScalar(Colormap map, float lo, float hi) {
    uploadColormap(colormap_.get(), map);
    scalarRange_ = {lo, hi};
}

void VolumeGrid::setSlice(int axis, float worldCoordinate) {
    checkAxis(axis);
    slices_[static_cast<std::size_t>(axis)].coordinate = worldCoordinate;
}

void VolumeGrid::enableSlice(int axis, bool enabled) {
    checkAxis(axis);
    slices_[static_cast<std::size_t>(axis)].enabled = enabled;
}

void VolumeGrid::setCommonUniforms(GLuint p) const {
    glProgramUniform3fv(p, glGetUniformLocation(p, "uLo"), 1, glm::value_ptr(lo_));
    glProgramUniform3fv(p, glGetUniformLocation(p, "uHi"), 1, glm::value_ptr(hi_));
    glProgramUniform3iv(p, glGetUniformLocation(p, "uSize"), 1, glm::value_ptr(size_));
    glProgramUniform1i(p, glGetUniformLocation(p, "uFormat"), static_cast<int>(format_));
    glProgramUniform1i(p, glGetUniformLocation(p, "uLinear"), linearScalars_ ? 1 : 0);
    glProgramUniform1i(p, glGetUniformLocation(p, "uEmptyTransparent"), emptyTransparent_ ? 1 : 0);
    glProgramUniform2fv(p, glGetUniformLocation(p, "uRange"), 1, glm::value_ptr(scalarRange_));
    glProgramUniform3fv(p, glGetUniformLocation(p, "uPalette"), 16, palette_.front().data());
    glProgramUniform1i(p, glGetUniformLocation(p, "uScalars"), static_cast<GLint>(kScalarUnit));
    glProgramUniform1i(p, glGetUniformLocation(p, "uCategories"),
                       static_cast<GLint>(kCategoryUnit));
    glProgramUniform1i(p, glGetUniformLocation(p, "uColormap"), static_cast<GLint>(kColormapUnit));
}

void VolumeGrid::bindVolume() const {
    const bool scalar = format_ == ValueFormat::Scalar;
    glBindTextureUnit(kScalarUnit, scalar ? texture_.get() : 0);
    glBindTextureUnit(kCategoryUnit, scalar ? 0 : texture_.get());
    glBindTextureUnit(kColormapUnit, colormap_.get());
}

void VolumeGrid::drawSlices(const glm::mat4& view, const glm::mat4& projection) const {
    const GLuint p = sliceProgram_.get();
    glUseProgram(p);
    setCommonUniforms(p);
    const glm::mat4 viewProjection = projection * view;
    glProgramUniformMatrix4fv(p, glGetUniformLocation(p, "uViewProjection"), 1, GL_FALSE,
                              glm::value_ptr(viewProjection));
    bindVolume();
    glBindVertexArray(vao_.get());
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    const GLint axisLocation = glGetUniformLocation(p, "uAxis");
    const GLint coordLocation = glGetUniformLocation(p, "uCoord");
    for (int a = 0; a < 3; ++a) {
        const Slice& s = slices_[static_cast<std::size_t>(a)];
        if (!s.enabled) continue;
        glProgramUniform1i(p, axisLocation, a);
        glProgramUniform1f(p, coordLocation, std::clamp(s.coordinate, lo_[a], hi_[a]));
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    }
    glBindVertexArray(0);
}

void VolumeGrid::drawVolume(const glm::mat4& view, const glm::mat4& projection) const {
    const GLuint p = marchProgram_.get();
    glUseProgram(p);
    setCommonUniforms(p);
    const glm::mat4 viewProjection = projection * view;
    const glm::vec3 eye = glm::vec3(glm::inverse(view)[3]);
    glProgramUniformMatrix4fv(p, glGetUniformLocation(p, "uViewProjection"), 1, GL_FALSE,
                              glm::value_ptr(viewProjection));
    glProgramUniform3fv(p, glGetUniformLocation(p, "uEye"), 1, glm::value_ptr(eye));
    glProgramUniform1f(p, glGetUniformLocation(p, "uOpacityScale"), opacityScale_);
    bindVolume();
    glBindVertexArray(vao_.get());
    // One fragment per pixel of the box: its back faces (present whether the eye is outside
    // or inside the box). The shader moves the depth to where the ray enters the volume, so
    // the depth test hides the volume behind opaque geometry in front of it.
    glEnable(GL_CULL_FACE);
    glCullFace(GL_FRONT);
    glFrontFace(GL_CCW);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_FALSE);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);  // premultiplied "over", coverage too
    glDrawArrays(GL_TRIANGLES, 0, 36);
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
    glDisable(GL_CULL_FACE);
    glBindVertexArray(0);
}

}  // namespace cf::render
