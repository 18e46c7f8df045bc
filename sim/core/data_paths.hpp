// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where the bundled data (scenarios with their thumbnails, meshes, model texts) lives, for
// an installed program and for one run from its build tree alike:
//   installed:   <prefix>/bin/cellforge-sim  ->  <prefix>/share/cellforge/scenarios
//   build tree:  <repo>/build/<preset>/...   ->  <repo>/assets/scenarios
// found from the executable's own location, so a relocated .tar.gz works too.
#include <filesystem>
#include <optional>
#include <string>

namespace cf {

// The directory holding scenarios/, meshes/, models/ (nullopt if none is found near the
// executable).
std::optional<std::filesystem::path> bundledDataDirectory();

// The bundled scenarios directory; throws IoError naming where it looked when none exists.
std::filesystem::path bundledScenarioDirectory();

// A scenario argument as a user types it: an existing path as it is, else the name of a
// bundled scenario ("welcome" or "welcome.toml"). Throws ScenarioError naming both places
// when neither exists.
std::filesystem::path resolveScenarioArgument(const std::string& argument);

}  // namespace cf
