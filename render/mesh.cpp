// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/mesh.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <glm/gtc/type_ptr.hpp>
#include <limits>
#include <map>
#include <string>

#include "render/colormap_texture.hpp"
#include "render/embedded_shaders.hpp"
#include "sim/core/errors.hpp"
#include "sim/geometry/mesh_import.hpp"

namespace cf::render {
namespace {

using Position = std::array<float, 3>;

glm::vec3 toGlm(const Position& p) {
    return {p[0], p[1], p[2]};
}

// Smooth normals for the vertices that came without one: area-weighted face normals
// summed over every vertex at the same position (so seams of texture coordinates do not
// show), from the triangles whose corners all lack a file normal. Done here rather than by
// aiProcess_GenSmoothNormals, which on indexed input (PLY, OFF, glTF without normals) keeps
// one face's normal per vertex instead of the average (Assimp issue #4692, present in 5.2).
std::vector<glm::vec3> smoothNormals(const geometry::ImportedMesh& in,
                                     const std::vector<bool>& hasNormal) {
    const auto& vertices = in.mesh.vertices;
    std::map<Position, glm::vec3> byPosition;
    for (const auto& t : in.mesh.triangles) {
        if (hasNormal[t[0]] || hasNormal[t[1]] || hasNormal[t[2]]) continue;
        const glm::vec3 a = toGlm(vertices[t[0]]), b = toGlm(vertices[t[1]]),
                        c = toGlm(vertices[t[2]]);
        const glm::vec3 n = glm::cross(b - a, c - a);  // length = 2 x area
        for (std::uint32_t k : t)
            byPosition[vertices[k]] += n;
    }
    std::vector<glm::vec3> out(vertices.size(), glm::vec3(0.0f));
    for (std::size_t v = 0; v < vertices.size(); ++v)
        if (!hasNormal[v])
            if (const auto it = byPosition.find(vertices[v]); it != byPosition.end())
                out[v] = it->second;
    return out;
}

}  // namespace

MeshData loadMesh(const std::filesystem::path& path) {
    geometry::ImportedMesh in;
    try {
        in = geometry::importMesh(path);  // the one Assimp import (sim/geometry)
    } catch (const cf::InputFileError& e) {
        throw MeshError(e.what());  // "mesh file 'PATH': REASON"
    }
    const std::size_t count = in.mesh.vertices.size();
    std::vector<bool> hasNormal(count);
    for (std::size_t v = 0; v < count; ++v) {
        const Position& n = in.normals[v];
        hasNormal[v] = n[0] != 0.0f || n[1] != 0.0f || n[2] != 0.0f;
    }
    const std::vector<glm::vec3> smooth = smoothNormals(in, hasNormal);
    MeshData data;
    data.positions.reserve(count);
    data.normals.reserve(count);
    for (std::size_t v = 0; v < count; ++v) {
        data.positions.push_back(toGlm(in.mesh.vertices[v]));
        const glm::vec3 n = hasNormal[v] ? toGlm(in.normals[v]) : smooth[v];
        const float len = glm::length(n);
        data.normals.push_back(len > 0.0f && std::isfinite(len) ? n / len : glm::vec3(0, 0, 1));
    }
    data.indices.reserve(3 * in.mesh.triangles.size());
    for (const auto& t : in.mesh.triangles)
        data.indices.insert(data.indices.end(), t.begin(), t.end());
    data.boundsLo = glm::vec3(std::numeric_limits<float>::max());
    data.boundsHi = glm::vec3(std::numeric_limits<float>::lowest());
    for (const glm::vec3& p : data.positions) {
        data.boundsLo = glm::min(data.boundsLo, p);
        data.boundsHi = glm::max(data.boundsHi, p);
    }
    return data;
}

Mesh::Mesh()
    : program_(buildProgram("mesh", shaders::kMeshVert, shaders::kMeshFrag)),
      vao_(createVertexArray()),
      colormap_(createColormapTexture(Colormap::Viridis)) {
    const GLuint vao = vao_.get();
    glVertexArrayAttribFormat(vao, 0, 3, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribFormat(vao, 1, 3, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribFormat(vao, 2, 1, GL_FLOAT, GL_FALSE, 0);
    for (GLuint i = 0; i < 3; ++i)
        glVertexArrayAttribBinding(vao, i, i);
    glEnableVertexArrayAttrib(vao, 0);
    glEnableVertexArrayAttrib(vao, 1);
}

void Mesh::setData(const MeshData& data) {
    if (data.normals.size() != data.positions.size())
        throw RenderError("mesh: " + std::to_string(data.normals.size()) + " normals for " +
                          std::to_string(data.positions.size()) + " positions");
    for (std::uint32_t i : data.indices)
        if (i >= data.positions.size())
            throw RenderError("mesh: index " + std::to_string(i) + " past the " +
                              std::to_string(data.positions.size()) + " vertices");
    // Fresh buffers: immutable storage has a fixed size.
    positions_ = Buffer(createBuffer());
    normals_ = Buffer(createBuffer());
    indices_ = Buffer(createBuffer());
    scalars_ = Buffer();
    const auto bytes = [](const auto& v) {
        return static_cast<GLsizeiptr>(std::max<std::size_t>(v.size(), 1) * sizeof(v[0]));
    };
    glNamedBufferStorage(positions_.get(), bytes(data.positions),
                         data.positions.empty() ? nullptr : data.positions.data(), 0);
    glNamedBufferStorage(normals_.get(), bytes(data.normals),
                         data.normals.empty() ? nullptr : data.normals.data(), 0);
    glNamedBufferStorage(indices_.get(), bytes(data.indices),
                         data.indices.empty() ? nullptr : data.indices.data(), 0);
    const GLuint vao = vao_.get();
    glVertexArrayVertexBuffer(vao, 0, positions_.get(), 0, sizeof(glm::vec3));
    glVertexArrayVertexBuffer(vao, 1, normals_.get(), 0, sizeof(glm::vec3));
    glVertexArrayElementBuffer(vao, indices_.get());
    glDisableVertexArrayAttrib(vao, 2);  // reads the constant 0 until scalars arrive
    hasScalars_ = false;
    vertexCount_ = data.positions.size();
    indexCount_ = data.indices.size() - data.indices.size() % 3;
}

void Mesh::setScalars(const float* values, std::size_t count) {
    if (count != vertexCount_)
        throw RenderError("mesh: " + std::to_string(count) + " scalars for " +
                          std::to_string(vertexCount_) + " vertices");
    if (count == 0) return;
    scalars_ = Buffer(createBuffer());
    glNamedBufferStorage(scalars_.get(), static_cast<GLsizeiptr>(count * sizeof(float)), values, 0);
    glVertexArrayVertexBuffer(vao_.get(), 2, scalars_.get(), 0, sizeof(float));
    glEnableVertexArrayAttrib(vao_.get(), 2);
    hasScalars_ = true;
}

void Mesh::colorUniform(const glm::vec3& rgb) {
    byScalar_ = false;
    uniformColor_ = rgb;
}

void Mesh::colorByScalar(Colormap map, float lo, float hi) {
    uploadColormap(colormap_.get(), map);
    byScalar_ = true;
    scalarRange_ = {lo, hi};
}

void Mesh::draw(const glm::mat4& view, const glm::mat4& projection) const {
    if (indexCount_ == 0 || opacity_ <= 0.0f) return;
    const GLuint p = program_.get();
    const glm::mat4 modelView = view * model_;
    const glm::mat3 normalMatrix = glm::transpose(glm::inverse(glm::mat3(modelView)));
    glUseProgram(p);
    glProgramUniformMatrix4fv(p, glGetUniformLocation(p, "uModelView"), 1, GL_FALSE,
                              glm::value_ptr(modelView));
    glProgramUniformMatrix4fv(p, glGetUniformLocation(p, "uProjection"), 1, GL_FALSE,
                              glm::value_ptr(projection));
    glProgramUniformMatrix3fv(p, glGetUniformLocation(p, "uNormalMatrix"), 1, GL_FALSE,
                              glm::value_ptr(normalMatrix));
    glProgramUniform1i(p, glGetUniformLocation(p, "uByScalar"), byScalar_ ? 1 : 0);
    glProgramUniform3fv(p, glGetUniformLocation(p, "uUniformColor"), 1,
                        glm::value_ptr(uniformColor_));
    glProgramUniform2fv(p, glGetUniformLocation(p, "uScalarRange"), 1,
                        glm::value_ptr(scalarRange_));
    glProgramUniform1i(p, glGetUniformLocation(p, "uColormap"), 0);
    const float opacity = std::min(opacity_, 1.0f);
    glProgramUniform1f(p, glGetUniformLocation(p, "uOpacity"), opacity);
    glBindTextureUnit(0, colormap_.get());
    glBindVertexArray(vao_.get());
    glEnable(GL_DEPTH_TEST);
    const auto count = static_cast<GLsizei>(indexCount_);
    if (opacity >= 1.0f) {
        glDepthFunc(GL_LESS);
        glDrawElements(GL_TRIANGLES, count, GL_UNSIGNED_INT, nullptr);
    } else {
        // Pass 1 lays down the mesh's nearest depth only; pass 2 shades exactly those
        // fragments (LEQUAL) and blends them once, whatever the triangle order.
        glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
        glDepthFunc(GL_LESS);
        glDrawElements(GL_TRIANGLES, count, GL_UNSIGNED_INT, nullptr);
        glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
        glDepthFunc(GL_LEQUAL);
        glEnable(GL_BLEND);
        glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
        glDepthMask(GL_FALSE);
        glDrawElements(GL_TRIANGLES, count, GL_UNSIGNED_INT, nullptr);
        glDepthMask(GL_TRUE);
        glDisable(GL_BLEND);
        glDepthFunc(GL_LESS);
    }
    glBindVertexArray(0);
}

}  // namespace cf::render
