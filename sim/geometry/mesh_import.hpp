// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Mesh files (OBJ, PLY, STL, glTF and whatever else Assimp reads) into triangle meshes.
// The only place in Cellforge that imports through Assimp: the renderer's loadMesh() builds
// its GL mesh from importMesh(), the lattice model voxelizes loadTriangleMesh().
#include <array>
#include <filesystem>
#include <vector>

#include "sim/geometry/triangle_mesh.hpp"

namespace cf::geometry {

// A file's triangles as Assimp delivers them: every mesh of the scene, each placed by its
// node's transform (the product of the transforms from the root), merged into one list.
// Polygons are triangulated; points and lines are left out. Vertices are those of the file
// after Assimp's JoinIdenticalVertices, so a corner with several normals (an OBJ or STL
// cube) stays several vertices. Coordinates are taken as stored (no up-axis conversion).
struct ImportedMesh {
    TriangleMesh mesh;
    // One per vertex: the file's normal, transformed by the inverse transpose of the node
    // transform and not normalized; {0, 0, 0} for meshes of the file that have none.
    // Triangles under a mirroring transform have two corners swapped, so that they keep
    // winding counter-clockwise seen from where their normals point.
    std::vector<std::array<float, 3>> normals;
};

// Throws InputFileError "mesh file 'PATH': REASON": no such file (or a directory, or
// unreadable: sim/core/input_file.hpp), Assimp's reason (unknown format, malformed), or
// "no triangles (...)" for a file with points or lines only.
ImportedMesh importMesh(const std::filesystem::path& path);

// importMesh() then weldByPosition(): the surface as a closed-or-not triangle mesh, ready
// for checkClosed() and voxelization. Also throws InputFileError for a non-finite coordinate.
TriangleMesh loadTriangleMesh(const std::filesystem::path& path);

}  // namespace cf::geometry
