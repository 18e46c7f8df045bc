// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/core/data_paths.hpp"

#include <system_error>

#include "sim/core/errors.hpp"

namespace cf {

namespace {

std::filesystem::path executableDirectory() {
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : exe.parent_path();
}

// A directory that holds the bundled data: it has scenarios/welcome.toml.
bool holdsData(const std::filesystem::path& dir) {
    std::error_code ec;
    return std::filesystem::is_regular_file(dir / "scenarios" / "welcome.toml", ec);
}

}  // namespace

std::optional<std::filesystem::path> bundledDataDirectory() {
    std::filesystem::path dir = executableDirectory();
    // Installed: <prefix>/bin -> <prefix>/share/cellforge. Build tree: the executable sits one
    // to three levels under build/<preset>, so the repository's assets/ is at most five up.
    for (int up = 0; up <= 5 && !dir.empty(); ++up) {
        for (const auto& candidate : {dir / "share" / "cellforge", dir / "assets"})
            if (holdsData(candidate)) return std::filesystem::weakly_canonical(candidate);
        if (dir == dir.parent_path()) break;
        dir = dir.parent_path();
    }
    return std::nullopt;
}

std::filesystem::path bundledScenarioDirectory() {
    if (auto dir = bundledDataDirectory()) return *dir / "scenarios";
    throw IoError("no bundled scenarios near " + executableDirectory().string() +
                  " (looked for share/cellforge/scenarios and assets/scenarios above it)");
}

std::filesystem::path resolveScenarioArgument(const std::string& argument) {
    std::error_code ec;
    const std::filesystem::path given(argument);
    if (std::filesystem::exists(given, ec) || argument.find('/') != std::string::npos)
        return given;  // a path: loading it reports what is wrong with it
    const auto dir = bundledDataDirectory();
    if (dir) {
        std::filesystem::path bundled = *dir / "scenarios" / given;
        if (bundled.extension() != ".toml") bundled += ".toml";
        if (std::filesystem::is_regular_file(bundled, ec)) return bundled;
    }
    throw ScenarioError(argument + ": no such file, nor a bundled scenario of that name" +
                        (dir ? " in " + (*dir / "scenarios").string() : std::string()) +
                        " (`cellforge-sim scenarios` lists them)");
}

}  // namespace cf
