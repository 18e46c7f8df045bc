// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/geometry/mesh_import.hpp"

#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <assimp/Importer.hpp>
#include <cmath>
#include <string>
#include <utility>

#include "sim/core/errors.hpp"
#include "sim/core/input_file.hpp"
#include "sim/geometry/mesh_file_check.hpp"

namespace cf::geometry {
namespace {

// Appends one of the scene's meshes placed by `transform` (a row-major affine matrix, as
// Assimp stores it).
void appendMesh(const aiMesh& mesh, const aiMatrix4x4& transform, ImportedMesh& out) {
    const auto base = static_cast<std::uint32_t>(out.mesh.vertices.size());
    // Normals transform with the inverse transpose of the linear part; a mirroring
    // transform also turns counter-clockwise triangles clockwise: swap two corners.
    aiMatrix3x3 normalMatrix(transform);
    const bool mirrored = normalMatrix.Determinant() < 0.0f;
    normalMatrix.Inverse().Transpose();
    for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
        const aiVector3D p = transform * mesh.mVertices[v];
        out.mesh.vertices.push_back({p.x, p.y, p.z});
        if (mesh.HasNormals()) {
            const aiVector3D n = normalMatrix * mesh.mNormals[v];
            out.normals.push_back({n.x, n.y, n.z});
        } else {
            out.normals.push_back({0.0f, 0.0f, 0.0f});
        }
    }
    std::size_t triangles = 0;
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
        const aiFace& face = mesh.mFaces[f];
        if (face.mNumIndices != 3) continue;  // points and lines
        std::array<std::uint32_t, 3> t{base + face.mIndices[0], base + face.mIndices[1],
                                       base + face.mIndices[2]};
        if (mirrored) std::swap(t[1], t[2]);
        out.mesh.triangles.push_back(t);
        ++triangles;
    }
    if (triangles == 0) {  // a mesh of points or lines: drop its vertices again
        out.mesh.vertices.resize(base);
        out.normals.resize(base);
    }
}

void appendNode(const aiScene& scene, const aiNode& node, const aiMatrix4x4& parent,
                ImportedMesh& out) {
    const aiMatrix4x4 transform = parent * node.mTransformation;
    for (unsigned m = 0; m < node.mNumMeshes; ++m)
        appendMesh(*scene.mMeshes[node.mMeshes[m]], transform, out);
    for (unsigned c = 0; c < node.mNumChildren; ++c)
        appendNode(scene, *node.mChildren[c], transform, out);
}

std::string prefix(const std::filesystem::path& path) {
    return "mesh file '" + path.string() + "': ";
}

}  // namespace

ImportedMesh importMesh(const std::filesystem::path& path) {
    // One importer per thread, kept: setting one up registers every Assimp format and
    // post-processing step, which need not be done per file. Its scene is freed when this
    // import is done.
    thread_local Assimp::Importer importer;
    struct FreeScene {
        Assimp::Importer& importer;
        ~FreeScene() { importer.FreeScene(); }
    } freeScene{importer};
    // Assimp says only "Unable to open file" whatever the reason.
    if (const auto problem = inputFileProblem(path)) throw InputFileError(prefix(path) + *problem);
    checkMeshFile(path);  // what Assimp would trust in an OFF or PLY file
    // SortByPType puts points and lines into meshes of their own, which appendMesh()
    // leaves out. No normals are generated: the renderer computes missing ones itself.
    const aiScene* scene = importer.ReadFile(
        path.string(), aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                           aiProcess_SortByPType | aiProcess_ValidateDataStructure);
    if (scene == nullptr) {
        std::string reason = importer.GetErrorString();
        while (!reason.empty() && (reason.back() == '\n' || reason.back() == '.'))
            reason.pop_back();
        throw InputFileError(prefix(path) +
                             (reason.empty() ? "Assimp could not import it" : reason));
    }
    ImportedMesh out;
    if (scene->mRootNode != nullptr) appendNode(*scene, *scene->mRootNode, aiMatrix4x4(), out);
    if (out.mesh.triangles.empty())
        throw InputFileError(prefix(path) + "no triangles (" + std::to_string(scene->mNumMeshes) +
                             " mesh(es) with points or lines only, or none)");
    return out;
}

TriangleMesh loadTriangleMesh(const std::filesystem::path& path) {
    TriangleMesh mesh = weldByPosition(importMesh(path).mesh);
    for (std::size_t v = 0; v < mesh.vertices.size(); ++v)
        for (float c : mesh.vertices[v])
            if (!std::isfinite(c))
                throw InputFileError(prefix(path) + "vertex " + std::to_string(v) +
                                     " has a coordinate that is not a finite number");
    return mesh;
}

}  // namespace cf::geometry
