// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Files the user names (a scenario, an SBML, model or mesh file, a checkpoint to resume, a
// camera path): one check, so that every one of them says the same for the same problem,
// and says that a file does not exist when it does not, rather than that it cannot be opened.
#include <filesystem>
#include <optional>
#include <string>

namespace cf {

// Why `path` cannot be read as a file: "no such file", "is a directory, not a file" or
// "cannot be read: REASON"; nothing when it can be.
std::optional<std::string> inputFileProblem(const std::filesystem::path& path);

// Throws InputFileError "PATH: PROBLEM" when inputFileProblem(path) finds one.
void requireInputFile(const std::filesystem::path& path);

// The whole file, as bytes. Throws InputFileError as requireInputFile() does, or naming the
// file when reading it fails.
std::string readInputFile(const std::filesystem::path& path);

}  // namespace cf
