// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Triangle meshes: imported through Assimp (OBJ, PLY, STL, glTF, ...; sim/geometry) into one
// indexed triangle list, and drawn lit like the point clouds (same head light), coloured uniformly
// or by a per-vertex scalar through a colormap, opaque or translucent.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <glm/glm.hpp>
#include <vector>

#include "render/colormap.hpp"
#include "render/gl_program.hpp"
#include "render/render_error.hpp"

namespace cf::render {

// A mesh file that cannot be used: missing, unreadable, not a format Assimp reads, or
// without triangles. The message names the file and Assimp's reason.
class MeshError : public RenderError {
public:
    using RenderError::RenderError;
};

struct MeshData {
    std::vector<glm::vec3> positions;
    std::vector<glm::vec3> normals;      // unit length, one per position
    std::vector<std::uint32_t> indices;  // three per triangle, counter-clockwise outside
    glm::vec3 boundsLo{0.0f};            // axis-aligned bounds of the positions
    glm::vec3 boundsHi{0.0f};

    std::size_t vertexCount() const { return positions.size(); }
    std::size_t triangleCount() const { return indices.size() / 3; }
};

// Imports every mesh of the file's scene through geometry::importMesh() (sim/geometry, the
// one Assimp import), each placed by its node's transform (the product of the transforms
// from the root), merged into one triangle list. Polygons are triangulated, identical
// vertices shared, the file's normals kept and missing ones generated smooth (averaged over
// the faces at each position, weighted by area). Points and lines in the file are left
// out. Coordinates are taken as stored (no up-axis conversion: glTF's y-up scenes stay
// y-up). Throws MeshError.
MeshData loadMesh(const std::filesystem::path& path);

class Mesh {
public:
    Mesh();  // needs a current GL 4.5 context
    explicit Mesh(const MeshData& data) : Mesh() { setData(data); }

    // Replaces the geometry; per-vertex scalars are dropped (their count no longer fits).
    void setData(const MeshData& data);
    // One value per vertex; throws RenderError when the count is not the vertex count.
    void setScalars(const float* values, std::size_t count);

    void colorUniform(const glm::vec3& rgb);
    // Needs setScalars(); without scalars every vertex reads 0.
    void colorByScalar(Colormap map, float lo, float hi);
    // 1: opaque. Below 1 the mesh blends over what is already drawn: draw it after the
    // opaque content. A depth pre-pass keeps only the mesh's nearest surface, so the
    // result does not depend on triangle order (the mesh's own back layers are hidden).
    void setOpacity(float opacity) { opacity_ = opacity; }
    void setModel(const glm::mat4& model) { model_ = model; }
    const glm::mat4& model() const { return model_; }

    std::size_t vertexCount() const { return vertexCount_; }
    std::size_t triangleCount() const { return indexCount_ / 3; }

    void draw(const glm::mat4& view, const glm::mat4& projection) const;

private:
    Program program_;
    VertexArray vao_;
    Buffer positions_, normals_, scalars_, indices_;
    Texture colormap_;
    std::size_t vertexCount_ = 0;
    std::size_t indexCount_ = 0;
    bool hasScalars_ = false;
    bool byScalar_ = false;
    glm::vec3 uniformColor_{0.8f, 0.8f, 0.8f};
    glm::vec2 scalarRange_{0.0f, 1.0f};
    float opacity_ = 1.0f;
    glm::mat4 model_{1.0f};
};

}  // namespace cf::render
