// SPDX-License-Identifier: GPL-3.0-or-later
// Mesh import through Assimp (region geometry of the lattice and cardiac models). The first
// byte picks the format by file extension (OBJ, PLY, STL, OFF), the rest is the file.
#include "fuzz/fuzz_support.hpp"
#include "sim/geometry/mesh_import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    static const char* const kExtensions[] = {".obj", ".ply", ".stl", ".off"};
    static const std::filesystem::path files[] = {
        cf::fuzz::scratchFile(kExtensions[0]), cf::fuzz::scratchFile(kExtensions[1]),
        cf::fuzz::scratchFile(kExtensions[2]), cf::fuzz::scratchFile(kExtensions[3])};
    const std::filesystem::path& file = files[data[0] % 4];
    cf::fuzz::writeScratch(file, data + 1, size - 1);
    cf::fuzz::expectTypedErrorsOnly([&] { (void)cf::geometry::loadTriangleMesh(file); });
    return 0;
}
