// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A PLY file checked against the format before Assimp reads it (see mesh_file_check.hpp for
// why): the header's grammar, counts that fit the file, and a body that holds exactly what
// the header declares (ASCII: one line of numbers per element; binary: the bytes the types
// and list lengths call for).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cf::geometry {

// What is wrong with the PLY file `content` (the whole file), or none: "line 5 of the PLY
// file is not a PLY header line: '...'", "line 12 of the PLY file: 'face' 2 of 4 needs 4
// numbers, the line has 3", "the binary body ends inside 'face' 3 of 4", ...
std::optional<std::string> findPlyProblem(std::string_view content);

}  // namespace cf::geometry
