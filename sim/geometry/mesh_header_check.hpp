// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A guard in front of Assimp for the mesh formats whose header declares how many elements
// follow (OFF, PLY). Assimp 5.2 allocates, and zero-fills, what the header declares before it
// reads the data: an 81-byte OFF file declaring 411111111111111111111111 faces made it ask
// for 7.6 GB (found by fuzz_mesh). Every element takes at least one byte of the file, so a
// declared count larger than the file is refused here, before Assimp sees the file.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace cf::geometry {

// A count the header declares that no file of that size can hold.
struct ImpossibleCount {
    std::string format;   // "OFF" or "PLY"
    std::string what;     // "vertices", "faces", or "'NAME' elements"
    std::string written;  // the count as the file spells it (cut to 32 characters)
};

// The first count larger than `fileBytes` in `content` (the file from its start, at least to
// the end of the header), read the way Assimp reads the header, or none. `extension` is the
// file's, lower case with its dot (".off"); the content decides as well, as Assimp's format
// detection may.
std::optional<ImpossibleCount> findImpossibleCount(std::string_view content,
                                                   std::string_view extension,
                                                   std::uint64_t fileBytes);

// Reads the file when it is an OFF or PLY file (by extension or content) and throws IoError
// "mesh file 'PATH': the OFF header declares N faces, more than a file of B bytes can hold"
// for an impossible count; a file it cannot read is left to Assimp's message.
void checkDeclaredCounts(const std::filesystem::path& path);

}  // namespace cf::geometry
