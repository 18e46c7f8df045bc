// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The text parts of the `lattice` parameters, parsed and checked: species names, the
// diffusion rules between regions and the reaction network (text or SBML).
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "sim/models/lattice/reactions/reaction_network.hpp"
#include "sim/models/lattice/site_types.hpp"

namespace cf::lattice {

inline constexpr int kMaxSpecies = 8;  // species declared as parameters (d1..d8, n1..n8)

// species.names: comma or space separated identifiers, exactly `count` of them, or empty
// for s1, s2, ... Throws ParameterError naming species.names.
std::vector<std::string> parseSpeciesNames(std::string_view text, int count);

// diffusion.rules: D [nm^2/us] overriding the defaults (a species moves with its own D
// within a region and not at all between regions; obstacles take nothing):
//   "A: membrane = 1; *: cytoplasm -> membrane = 0.5; B: outside -> cytoplasm = 10"
// 'name: type = D' sets moves within one region, 'name: from -> to = D' one direction; '*'
// is every species. Separated by ';' or newlines. Throws ParameterError naming
// diffusion.rules, the rule number and what was expected.
struct DiffusionRules {
    // Per species id (index 0 unused) and (from, to) type: the D to use, or < 0: default.
    std::array<std::array<std::array<double, kSiteTypeCount>, kSiteTypeCount>, kMaxSpecies + 1> d;
    DiffusionRules();
};
DiffusionRules parseDiffusionRules(std::string_view text, const std::vector<std::string>& names);

}  // namespace cf::lattice
