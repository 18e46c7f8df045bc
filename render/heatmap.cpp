// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/heatmap.hpp"

#include <glm/gtc/type_ptr.hpp>
#include <string>

#include "render/colormap_texture.hpp"
#include "render/embedded_shaders.hpp"
#include "render/render_error.hpp"

namespace cf::render {

Heatmap2D::Heatmap2D()
    : program_(buildProgram("heatmap", shaders::kHeatmapVert, shaders::kHeatmapFrag)),
      vao_(createVertexArray()),
      colormap_(createColormapTexture(Colormap::Viridis)) {
    const float zero = 0.0f;
    setValues(&zero, 1, 1);
}

void Heatmap2D::resize(int nx, int ny) {
    GLint maxSize = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &maxSize);
    if (nx < 1 || ny < 1 || nx > maxSize || ny > maxSize)
        throw RenderError("heatmap size " + std::to_string(nx) + "x" + std::to_string(ny) +
                          " is outside 1.." + std::to_string(maxSize) + " cells per side");
    Texture fresh(createTexture(GL_TEXTURE_2D));  // before the old one goes: a new name
    glTextureStorage2D(fresh.get(), 1, GL_R32F, nx, ny);
    glTextureParameteri(fresh.get(), GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTextureParameteri(fresh.get(), GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTextureParameteri(fresh.get(), GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTextureParameteri(fresh.get(), GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    texture_ = std::move(fresh);
    size_ = {nx, ny};
    generation_ = newStorageId();
}

void Heatmap2D::setValues(const float* values, int nx, int ny) {
    if (size_ != glm::ivec2(nx, ny)) resize(nx, ny);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTextureSubImage2D(texture_.get(), 0, 0, 0, nx, ny, GL_RED, GL_FLOAT, values);
}

void Heatmap2D::setRectangle(const glm::vec3& origin, const glm::vec3& edgeU,
                             const glm::vec3& edgeV) {
    origin_ = origin;
    edgeU_ = edgeU;
    edgeV_ = edgeV;
}

void Heatmap2D::colorByScalar(Colormap map, float lo, float hi) {
    uploadColormap(colormap_.get(), map);
    range_ = {lo, hi};
}

void Heatmap2D::draw(const glm::mat4& view, const glm::mat4& projection) const {
    const GLuint p = program_.get();
    glUseProgram(p);
    const glm::mat4 viewProjection = projection * view;
    glProgramUniformMatrix4fv(p, glGetUniformLocation(p, "uViewProjection"), 1, GL_FALSE,
                              glm::value_ptr(viewProjection));
    glProgramUniform3fv(p, glGetUniformLocation(p, "uOrigin"), 1, glm::value_ptr(origin_));
    glProgramUniform3fv(p, glGetUniformLocation(p, "uEdgeU"), 1, glm::value_ptr(edgeU_));
    glProgramUniform3fv(p, glGetUniformLocation(p, "uEdgeV"), 1, glm::value_ptr(edgeV_));
    glProgramUniform2iv(p, glGetUniformLocation(p, "uSize"), 1, glm::value_ptr(size_));
    glProgramUniform2fv(p, glGetUniformLocation(p, "uRange"), 1, glm::value_ptr(range_));
    glProgramUniform1i(p, glGetUniformLocation(p, "uLinear"), linear_ ? 1 : 0);
    glProgramUniform1i(p, glGetUniformLocation(p, "uValues"), 0);
    glProgramUniform1i(p, glGetUniformLocation(p, "uColormap"), 1);
    glBindTextureUnit(0, texture_.get());
    glBindTextureUnit(1, colormap_.get());
    glBindVertexArray(vao_.get());
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_TRUE);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glBindVertexArray(0);
}

}  // namespace cf::render
