// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/sphere_splat.hpp"

#include <glm/gtc/type_ptr.hpp>

#include "render/embedded_shaders.hpp"

namespace cf::render {

namespace {
constexpr GLuint kNoSphere = 0xffffffffu;
constexpr GLuint kGroupSize = 256;  // local_size_x of sphere_splat.comp

void setMatrix(GLuint program, const char* name, const glm::mat4& m) {
    glProgramUniformMatrix4fv(program, glGetUniformLocation(program, name), 1, GL_FALSE,
                              glm::value_ptr(m));
}
}  // namespace

SphereSplatter::SphereSplatter()
    : splat_(buildComputeProgram(
          "sphere_splat", {kGlslVersion, shaders::kSphereCommonGlsl, shaders::kSphereBuffersGlsl,
                           shaders::kSphereSplatComp})),
      resolve_(buildProgram("sphere_resolve", ShaderParts{shaders::kSphereResolveVert},
                            {kGlslVersion, shaders::kSphereCommonGlsl, shaders::kSphereBuffersGlsl,
                             shaders::kSphereResolveFrag})),
      rasterLarge_(
          buildProgram("point_cloud (large spheres)",
                       {kGlslVersion, "#define CF_INDEXED 1\n", shaders::kSphereCommonGlsl,
                        shaders::kSphereBuffersGlsl, shaders::kPointCloudVert},
                       {kGlslVersion, shaders::kSphereCommonGlsl, shaders::kPointCloudFrag})),
      emptyVao_(createVertexArray()),
      largeVao_(createVertexArray()) {}

void SphereSplatter::resizeImages(int width, int height) {
    if (width == width_ && height == height_) return;
    depthBits_ = Texture(createTexture(GL_TEXTURE_2D));
    winner_ = Texture(createTexture(GL_TEXTURE_2D));
    glTextureStorage2D(depthBits_.get(), 1, GL_R32UI, width, height);
    glTextureStorage2D(winner_.get(), 1, GL_R32UI, width, height);
    width_ = width;
    height_ = height;
}

void SphereSplatter::draw(const Spheres& s, const glm::mat4& view, const glm::mat4& projection,
                          const CommonUniforms& commonUniforms) {
    if (s.count == 0) return;
    GLint viewport[4];
    glGetIntegerv(GL_VIEWPORT, viewport);
    resizeImages(viewport[2], viewport[3]);
    if (s.count > largeCapacity_) {  // room for every sphere to be large
        largeSpheres_ = Buffer(createBuffer());
        glNamedBufferStorage(largeSpheres_.get(),
                             static_cast<GLsizeiptr>((4 + s.count) * sizeof(GLuint)), nullptr,
                             GL_DYNAMIC_STORAGE_BIT);
        largeCapacity_ = s.count;
    }
    const GLuint command[4] = {4, 0, 0, 0};  // triangle strip of 4, no instances yet
    glNamedBufferSubData(largeSpheres_.get(), 0, sizeof(command), command);
    const GLuint far = 0x3f800000u;  // bits of 1.0f, the far plane
    glClearTexImage(depthBits_.get(), 0, GL_RED_INTEGER, GL_UNSIGNED_INT, &far);
    glClearTexImage(winner_.get(), 0, GL_RED_INTEGER, GL_UNSIGNED_INT, &kNoSphere);

    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, s.points);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, s.scalars);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, s.categories);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 3, largeSpheres_.get());
    glBindImageTexture(0, depthBits_.get(), 0, GL_FALSE, 0, GL_READ_WRITE, GL_R32UI);
    glBindImageTexture(1, winner_.get(), 0, GL_FALSE, 0, GL_READ_WRITE, GL_R32UI);

    const glm::mat4 inverseProjection = glm::inverse(projection);
    const GLuint c = splat_.get();
    commonUniforms(c);
    setMatrix(c, "uView", view);
    setMatrix(c, "uProjection", projection);
    setMatrix(c, "uInverseProjection", inverseProjection);
    glProgramUniform2i(c, glGetUniformLocation(c, "uSize"), width_, height_);
    glProgramUniform1ui(c, glGetUniformLocation(c, "uCount"), static_cast<GLuint>(s.count));
    glProgramUniform1i(c, glGetUniformLocation(c, "uMaxSplatPixels"), maxSplatPixels_);
    glUseProgram(c);
    const auto groups = static_cast<GLuint>((s.count + kGroupSize - 1) / kGroupSize);
    for (int pass = 0; pass < 2; ++pass) {
        glProgramUniform1i(c, glGetUniformLocation(c, "uPass"), pass);
        glDispatchCompute(groups, 1, 1);
        glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    }
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);

    const GLuint r = resolve_.get();
    commonUniforms(r);
    setMatrix(r, "uView", view);
    setMatrix(r, "uProjection", projection);
    setMatrix(r, "uInverseProjection", inverseProjection);
    glProgramUniform4iv(r, glGetUniformLocation(r, "uViewport"), 1, viewport);
    glUseProgram(r);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glBindVertexArray(emptyVao_.get());
    glDrawArrays(GL_TRIANGLES, 0, 3);

    const GLuint l = rasterLarge_.get();
    commonUniforms(l);
    setMatrix(l, "uView", view);
    setMatrix(l, "uProjection", projection);
    glUseProgram(l);
    glBindVertexArray(largeVao_.get());
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, largeSpheres_.get());
    glDrawArraysIndirect(GL_TRIANGLE_STRIP, nullptr);
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, 0);
    glBindVertexArray(0);
}

}  // namespace cf::render
