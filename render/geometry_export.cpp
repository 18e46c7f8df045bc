// SPDX-License-Identifier: GPL-3.0-or-later
#include "render/geometry_export.hpp"

#include <assimp/scene.h>

#include <array>
#include <assimp/Exporter.hpp>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "render/mesh.hpp"

namespace cf::render {

namespace {

struct UnitSphere {
    std::vector<std::array<float, 3>> vertices;
    std::vector<std::array<unsigned, 3>> triangles;
};

// An icosahedron, each triangle split in four `subdivisions` times, pushed to the sphere.
UnitSphere icosphere(int subdivisions) {
    const float t = (1.0f + std::sqrt(5.0f)) / 2.0f;
    UnitSphere s;
    s.vertices = {{-1, t, 0},  {1, t, 0},  {-1, -t, 0}, {1, -t, 0}, {0, -1, t},  {0, 1, t},
                  {0, -1, -t}, {0, 1, -t}, {t, 0, -1},  {t, 0, 1},  {-t, 0, -1}, {-t, 0, 1}};
    s.triangles = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                   {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                   {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                   {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
    for (auto& v : s.vertices) {
        const float n = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        for (float& c : v)
            c /= n;
    }
    for (int level = 0; level < subdivisions; ++level) {
        std::map<std::pair<unsigned, unsigned>, unsigned> midpoints;
        auto midpoint = [&](unsigned a, unsigned b) {
            const auto key = std::minmax(a, b);
            if (auto it = midpoints.find(key); it != midpoints.end()) return it->second;
            std::array<float, 3> m{};
            for (int c = 0; c < 3; ++c)
                m[c] = s.vertices[a][c] + s.vertices[b][c];
            const float n = std::sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
            for (float& c : m)
                c /= n;
            s.vertices.push_back(m);
            const auto index = static_cast<unsigned>(s.vertices.size() - 1);
            midpoints.emplace(key, index);
            return index;
        };
        std::vector<std::array<unsigned, 3>> finer;
        for (const auto& tri : s.triangles) {
            const unsigned ab = midpoint(tri[0], tri[1]), bc = midpoint(tri[1], tri[2]),
                           ca = midpoint(tri[2], tri[0]);
            finer.push_back({tri[0], ab, ca});
            finer.push_back({tri[1], bc, ab});
            finer.push_back({tri[2], ca, bc});
            finer.push_back({ab, bc, ca});
        }
        s.triangles = std::move(finer);
    }
    return s;
}

const char* formatFor(const std::filesystem::path& path) {
    const std::string ext = path.extension().string();
    // ASCII: Assimp 5.2 cannot read back the binary PLY its exporter writes.
    if (ext == ".ply") return "ply";
    if (ext == ".obj") return "obj";
    if (ext == ".glb") return "glb2";
    if (ext == ".gltf") return "gltf2";
    if (ext == ".stl") return "stlb";
    return nullptr;
}

}  // namespace

ExportSummary exportSpheres(const std::filesystem::path& path, const SphereGeometry& spheres,
                            int subdivisions) {
    const char* format = formatFor(path);
    if (format == nullptr)
        throw MeshError(path.string() +
                        ": unknown geometry format (use .ply, .obj, .glb, .gltf or .stl)");
    const std::size_t count = spheres.xyzr.size() / 4;
    const UnitSphere unit = icosphere(std::clamp(subdivisions, 0, 3));
    const std::size_t nv = unit.vertices.size() * count, nt = unit.triangles.size() * count;
    if (nv > 0xffffffffu) throw MeshError(path.string() + ": too many spheres for one mesh");

    // The scene owns what it points to and frees it with delete[]/delete (aiScene's
    // destructor), so everything below is allocated for it to take over.
    aiScene scene;
    scene.mRootNode = new aiNode();
    scene.mRootNode->mNumMeshes = 1;
    scene.mRootNode->mMeshes = new unsigned[1]{0};
    scene.mNumMaterials = 1;
    scene.mMaterials = new aiMaterial* [1] { new aiMaterial() };
    scene.mNumMeshes = 1;
    auto* mesh = new aiMesh();
    scene.mMeshes = new aiMesh* [1] { mesh };
    mesh->mMaterialIndex = 0;
    mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    mesh->mNumVertices = static_cast<unsigned>(nv);
    mesh->mVertices = new aiVector3D[nv];
    mesh->mNormals = new aiVector3D[nv];
    mesh->mColors[0] = new aiColor4D[nv];
    mesh->mNumFaces = static_cast<unsigned>(nt);
    mesh->mFaces = new aiFace[nt];
    std::size_t v = 0, f = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const float* s = &spheres.xyzr[4 * i];
        aiColor4D colour(0.8f, 0.8f, 0.8f, 1.0f);
        if (spheres.rgb.size() >= 3 * (i + 1))
            colour = aiColor4D(spheres.rgb[3 * i] / 255.0f, spheres.rgb[3 * i + 1] / 255.0f,
                               spheres.rgb[3 * i + 2] / 255.0f, 1.0f);
        const auto base = static_cast<unsigned>(v);
        for (const auto& u : unit.vertices) {
            mesh->mNormals[v] = aiVector3D(u[0], u[1], u[2]);
            mesh->mVertices[v] =
                aiVector3D(s[0] + s[3] * u[0], s[1] + s[3] * u[1], s[2] + s[3] * u[2]);
            mesh->mColors[0][v] = colour;
            ++v;
        }
        for (const auto& tri : unit.triangles) {
            aiFace& face = mesh->mFaces[f++];
            face.mNumIndices = 3;
            face.mIndices = new unsigned[3]{base + tri[0], base + tri[1], base + tri[2]};
        }
    }
    Assimp::Exporter exporter;
    if (exporter.Export(&scene, format, path.string()) != aiReturn_SUCCESS)
        throw MeshError(path.string() + ": cannot export: " + exporter.GetErrorString());
    return {count, nv, nt};
}

}  // namespace cf::render
