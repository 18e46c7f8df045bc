// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Internal helpers of sim/io: files that appear under their final name only when complete.
// Readers (ParaView polling an .xmf, a restart reading a checkpoint) may look at any moment,
// and a crash mid-write must never leave a half file under the name they look for.
#include <filesystem>
#include <functional>
#include <ostream>
#include <string>

namespace cf::io::detail {

// A unique name next to `path` (same directory, so the final rename stays on one file
// system and is atomic).
std::filesystem::path temporarySibling(const std::filesystem::path& path);

// Renames `tmp` over `path`; on failure removes `tmp` and throws IoError naming `path`.
void commitFile(const std::filesystem::path& tmp, const std::filesystem::path& path);

// Streams the contents through `fill` into a temporary sibling, then commits it. Throws
// IoError naming `path` when a write fails; the temporary file is removed either way.
void writeAtomically(const std::filesystem::path& path,
                     const std::function<void(std::ostream&)>& fill);

// Creates the parent directory of `path` if needed; throws IoError naming it on failure.
void ensureParentDirectory(const std::filesystem::path& path);

// "path: what" for error messages.
std::string where(const std::filesystem::path& path, const std::string& what);

}  // namespace cf::io::detail
