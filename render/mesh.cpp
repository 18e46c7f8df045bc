// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/mesh.hpp"

#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <array>
#include <assimp/Importer.hpp>
#include <cmath>
#include <glm/gtc/type_ptr.hpp>
#include <limits>
#include <map>
#include <string>

#include "render/colormap_texture.hpp"
#include "render/embedded_shaders.hpp"

namespace cf::render {
namespace {

glm::mat4 toGlm(const aiMatrix4x4& m) {
    // Assimp stores rows (a1..a4 is the first row), glm stores columns.
    glm::mat4 out;
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c)
            out[c][r] = m[static_cast<unsigned>(r)][static_cast<unsigned>(c)];
    return out;
}

// Smooth normals for a mesh stored without them: area-weighted face normals summed over
// every vertex at the same position (so seams of texture coordinates do not show). Done
// here rather than by aiProcess_GenSmoothNormals, which on indexed input (PLY, OFF, glTF
// without normals) keeps one face's normal per vertex instead of the average (Assimp
// issue #4692, present in 5.2).
std::vector<glm::vec3> smoothNormals(const aiMesh& mesh) {
    std::map<std::array<float, 3>, glm::vec3> byPosition;
    const auto key = [&](unsigned v) {
        const aiVector3D& p = mesh.mVertices[v];
        return std::array<float, 3>{p.x, p.y, p.z};
    };
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
        const aiFace& face = mesh.mFaces[f];
        if (face.mNumIndices != 3) continue;
        const aiVector3D a = mesh.mVertices[face.mIndices[0]], b = mesh.mVertices[face.mIndices[1]],
                         c = mesh.mVertices[face.mIndices[2]];
        const aiVector3D n = (b - a) ^ (c - a);  // cross product: length = 2 x area
        for (unsigned k = 0; k < 3; ++k)
            byPosition[key(face.mIndices[k])] += glm::vec3(n.x, n.y, n.z);
    }
    std::vector<glm::vec3> out(mesh.mNumVertices, glm::vec3(0.0f));
    for (unsigned v = 0; v < mesh.mNumVertices; ++v)
        if (const auto it = byPosition.find(key(v)); it != byPosition.end()) out[v] = it->second;
    return out;
}

void appendMesh(const aiMesh& mesh, const glm::mat4& transform, MeshData& out) {
    const auto base = static_cast<std::uint32_t>(out.positions.size());
    // Normals transform with the inverse transpose; a mirroring transform also turns
    // counter-clockwise triangles clockwise: swap two corners.
    const glm::mat3 normalMatrix = glm::transpose(glm::inverse(glm::mat3(transform)));
    const bool mirrored = glm::determinant(glm::mat3(transform)) < 0.0f;
    std::vector<glm::vec3> normals;
    if (mesh.HasNormals()) {
        for (unsigned v = 0; v < mesh.mNumVertices; ++v)
            normals.emplace_back(mesh.mNormals[v].x, mesh.mNormals[v].y, mesh.mNormals[v].z);
    } else {
        normals = smoothNormals(mesh);
    }
    for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
        const aiVector3D& p = mesh.mVertices[v];
        out.positions.push_back(glm::vec3(transform * glm::vec4(p.x, p.y, p.z, 1.0f)));
        const glm::vec3 n = normalMatrix * normals[v];
        const float len = glm::length(n);
        out.normals.push_back(len > 0.0f && std::isfinite(len) ? n / len : glm::vec3(0, 0, 1));
    }
    std::size_t triangles = 0;
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
        const aiFace& face = mesh.mFaces[f];
        if (face.mNumIndices != 3) continue;  // points and lines
        std::uint32_t i[3] = {face.mIndices[0], face.mIndices[1], face.mIndices[2]};
        if (mirrored) std::swap(i[1], i[2]);
        for (std::uint32_t k : i)
            out.indices.push_back(base + k);
        ++triangles;
    }
    if (triangles == 0) {  // a mesh of points or lines: drop its vertices again
        out.positions.resize(base);
        out.normals.resize(base);
    }
}

void appendNode(const aiScene& scene, const aiNode& node, const glm::mat4& parent, MeshData& out) {
    const glm::mat4 transform = parent * toGlm(node.mTransformation);
    for (unsigned m = 0; m < node.mNumMeshes; ++m)
        appendMesh(*scene.mMeshes[node.mMeshes[m]], transform, out);
    for (unsigned c = 0; c < node.mNumChildren; ++c)
        appendNode(scene, *node.mChildren[c], transform, out);
}

}  // namespace

MeshData loadMesh(const std::filesystem::path& path) {
    const std::string name = "mesh file '" + path.string() + "': ";
    Assimp::Importer importer;
    // SortByPType puts points and lines into meshes of their own, which appendMesh()
    // leaves out. Missing normals: smoothNormals().
    const aiScene* scene = importer.ReadFile(
        path.string(), aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                           aiProcess_SortByPType | aiProcess_ValidateDataStructure);
    if (scene == nullptr) {
        std::string reason = importer.GetErrorString();
        while (!reason.empty() && (reason.back() == '\n' || reason.back() == '.'))
            reason.pop_back();
        throw MeshError(name + (reason.empty() ? "Assimp could not import it" : reason));
    }
    MeshData data;
    if (scene->mRootNode != nullptr) appendNode(*scene, *scene->mRootNode, glm::mat4(1.0f), data);
    if (data.indices.empty())
        throw MeshError(name + "no triangles (" + std::to_string(scene->mNumMeshes) +
                        " mesh(es) with points or lines only, or none)");
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
