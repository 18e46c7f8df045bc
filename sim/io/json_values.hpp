// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Internal to sim/io: JSON forms of parameter values shared by run.json and checkpoints.
// Include only from sim/io .cpp files (nlohmann_json is a private dependency).
#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "sim/core/params.hpp"

namespace cf::io::detail {

// JSON keeps the value's type: real -> float (dumped with round-trip precision),
// integer -> integer, boolean -> bool, choice -> string.
nlohmann::json toJson(const ParamValue& v);
// The inverse for values whose declaration is unknown (history entries). Throws IoError
// naming `file` and `what` for anything but those four JSON types.
ParamValue paramValueFromJson(const nlohmann::json& j, const std::filesystem::path& file,
                              const std::string& what);

// { group: { name: value } } in declaration order of the groups' first appearance.
nlohmann::json parametersToJson(const ParamSet& params);
nlohmann::json historyToJson(const std::vector<ParamChange>& history);

// Doubles that JSON cannot hold (inf, nan) are written as strings, so every double the
// simulation produces survives the round trip.
nlohmann::json doubleToJson(double x);
double doubleFromJson(const nlohmann::json& j, const std::filesystem::path& file,
                      const std::string& what);

}  // namespace cf::io::detail
