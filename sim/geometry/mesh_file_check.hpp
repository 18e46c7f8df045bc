// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A guard in front of Assimp for the mesh formats with a header (OFF, PLY), which Assimp 5.2
// trusts. It allocates, and zero-fills, what the header declares before it reads the data:
// an 81-byte OFF file declaring 411111111111111111111111 faces made it ask for 7.6 GB. Its
// PLY parser loops for ever on a header without a proper end_header, and reads past its
// buffer or aborts on malformed header and ASCII body lines. (All found by fuzz_mesh.) So
// a declared count larger than the file is refused (every element takes at least a byte),
// and a PLY file must follow the format (ply_check.hpp), before Assimp sees the file.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace cf::geometry {

// What is wrong with the OFF or PLY file `content` (the whole file), read the way Assimp
// reads it: "the OFF header declares N faces, more than a file of B bytes can hold", "line 4
// of the PLY header is not ...". None when the file is not OFF or PLY or is sound.
// `extension` is the file's, lower case with its dot (".off"); the content decides as well,
// as Assimp's format detection may.
std::optional<std::string> findMeshFileProblem(std::string_view content,
                                               std::string_view extension);

// Reads an OFF or PLY file (by extension or content) and throws InputFileError
// "mesh file 'PATH': PROBLEM" for what findMeshFileProblem() finds; a file it cannot read
// is left to importMesh().
void checkMeshFile(const std::filesystem::path& path);

}  // namespace cf::geometry
