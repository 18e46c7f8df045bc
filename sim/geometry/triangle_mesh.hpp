// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Indexed triangle meshes on the host: welding, placement, closedness and enclosed volume.
// Pure functions, no model code; sim/geometry/mesh_import.hpp reads them from files.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cf::geometry {

struct TriangleMesh {
    std::vector<std::array<float, 3>> vertices;
    std::vector<std::array<std::uint32_t, 3>> triangles;  // indices into vertices
};

// Merges vertices with bit-identical positions (-0 and +0 count as equal) into one, in
// order of first appearance, so that triangles sharing a corner share its index and
// checkClosed() can see the surface's edges. Triangles are kept as they are, including
// those that become degenerate. Exact equality is on purpose: files that store one corner
// with several normals or texture coordinates (OBJ, STL) repeat the identical position.
TriangleMesh weldByPosition(const TriangleMesh& mesh);

struct Bounds {
    std::array<float, 3> lo{0.0f, 0.0f, 0.0f};
    std::array<float, 3> hi{0.0f, 0.0f, 0.0f};
};
// Axis-aligned bounds of the vertices (all zero for a mesh without vertices).
Bounds boundingBox(const TriangleMesh& mesh);

// Scales every vertex by `scale` (> 0), then moves the mesh so that the centre of its
// bounding box lies at `centre`: a mesh given in its own units (e.g. um) is placed at the
// lattice centre in nm with scale = 1000. Throws GeometryError for scale <= 0 or non-finite.
TriangleMesh transformed(const TriangleMesh& mesh, float scale, std::array<float, 3> centre);

struct MeshCheck {
    std::size_t boundaryEdges = 0;        // edges used by exactly one triangle
    std::size_t nonManifoldEdges = 0;     // edges used by more than two triangles
    std::size_t degenerateTriangles = 0;  // a repeated corner index, or zero area
    bool closed() const { return boundaryEdges == 0 && nonManifoldEdges == 0; }
};

// Counts on the mesh as indexed (weld first: loadTriangleMesh() does). Edges are unordered
// index pairs; triangles with a repeated index add no edges. Zero-area triangles with three
// distinct corners do count their edges (they may close a crack between neighbours).
MeshCheck checkClosed(const TriangleMesh& mesh);

// Throws GeometryError unless checkClosed(mesh).closed(), e.g.
//   "capsule.obj: mesh is not closed: 12 boundary edges (voxelization needs a watertight
//    surface)". `name` (a file name) starts the message.
void requireClosed(const TriangleMesh& mesh, const std::string& name);

// Volume enclosed by a closed mesh (divergence theorem, sum of signed tetrahedra to the
// origin): positive when the triangles wind counter-clockwise seen from outside.
double enclosedVolume(const TriangleMesh& mesh);

}  // namespace cf::geometry
