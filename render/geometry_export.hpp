// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Exports what the viewport shows as geometry other programs open (Blender, ParaView,
// MeshLab): spheres as small icosphere meshes with per-vertex colours, written through
// Assimp. The format follows the file's extension: .ply, .obj, .glb/.gltf, .stl.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

namespace cf::render {

struct SphereGeometry {
    std::vector<float> xyzr;        // count x (x, y, z, radius)
    std::vector<std::uint8_t> rgb;  // count x (r, g, b), or empty: light grey
};

struct ExportSummary {
    std::size_t spheres = 0;
    std::size_t vertices = 0;
    std::size_t triangles = 0;
};

// `subdivisions`: 0 gives 20 triangles per sphere, 1 gives 80, 2 gives 320. Throws
// MeshError naming the file and Assimp's reason (unknown extension, unwritable path).
ExportSummary exportSpheres(const std::filesystem::path& path, const SphereGeometry& spheres,
                            int subdivisions = 1);

}  // namespace cf::render
