// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/lattice/lattice_config.hpp"

#include <cctype>
#include <charconv>
#include <cmath>

#include "sim/core/errors.hpp"

namespace cf::lattice {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

bool isIdentifier(std::string_view s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return true;
}

std::vector<std::string_view> split(std::string_view text, std::string_view separators) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i)
        if (i == text.size() || separators.find(text[i]) != std::string_view::npos) {
            out.push_back(text.substr(start, i - start));
            start = i + 1;
        }
    return out;
}

int typeCode(std::string_view name, const std::string& where) {
    const int t = siteTypeByName(name);
    if (t < 0 || t == kSiteObstacle)
        throw ParameterError(where + ": '" + std::string(name) +
                             "' is not a region (expected cytoplasm, membrane or outside)");
    return t;
}

}  // namespace

std::vector<std::string> parseSpeciesNames(std::string_view text, int count) {
    std::vector<std::string> names;
    for (std::string_view part : split(text, ", \t\n"))
        if (!trim(part).empty()) names.emplace_back(trim(part));
    if (names.empty()) {
        for (int s = 1; s <= count; ++s)
            names.push_back("s" + std::to_string(s));
        return names;
    }
    if (static_cast<int>(names.size()) != count)
        throw ParameterError("species.names lists " + std::to_string(names.size()) +
                             " names but species.count = " + std::to_string(count));
    for (std::size_t k = 0; k < names.size(); ++k) {
        if (!isIdentifier(names[k]))
            throw ParameterError("species.names: '" + names[k] +
                                 "' is not a name (letters, digits and _, not starting "
                                 "with a digit)");
        for (std::size_t j = 0; j < k; ++j)
            if (names[j] == names[k])
                throw ParameterError("species.names: '" + names[k] + "' is given twice");
    }
    return names;
}

DiffusionRules::DiffusionRules() {
    for (auto& species : d)
        for (auto& from : species)
            from.fill(-1.0);
}

DiffusionRules parseDiffusionRules(std::string_view text, const std::vector<std::string>& names) {
    DiffusionRules rules;
    int number = 0;
    for (std::string_view raw : split(text, ";\n")) {
        const std::string_view rule = trim(raw);
        if (rule.empty()) continue;
        ++number;
        const std::string where =
            "diffusion.rules: rule " + std::to_string(number) + " ('" + std::string(rule) + "')";
        const std::size_t colon = rule.find(':');
        const std::size_t equals = rule.find('=');
        if (colon == std::string_view::npos || equals == std::string_view::npos || equals < colon)
            throw ParameterError(where +
                                 ": expected 'species: region = D' or "
                                 "'species: from -> to = D'");
        const std::string_view who = trim(rule.substr(0, colon));
        std::vector<int> species;
        if (who == "*") {
            for (std::size_t s = 1; s <= names.size(); ++s)
                species.push_back(static_cast<int>(s));
        } else {
            for (std::size_t s = 0; s < names.size() && species.empty(); ++s)
                if (names[s] == who) species.push_back(static_cast<int>(s + 1));
            if (species.empty()) {
                std::string known;
                for (const std::string& n : names)
                    known += (known.empty() ? "" : ", ") + n;
                throw ParameterError(where + ": unknown species '" + std::string(who) +
                                     "' (known: " + known + ", or * for all)");
            }
        }
        const std::string_view path = trim(rule.substr(colon + 1, equals - colon - 1));
        int from, to;
        const std::size_t arrow = path.find("->");
        if (arrow == std::string_view::npos) {
            from = to = typeCode(trim(path), where);
        } else {
            from = typeCode(trim(path.substr(0, arrow)), where);
            to = typeCode(trim(path.substr(arrow + 2)), where);
        }
        const std::string value(trim(rule.substr(equals + 1)));
        double d = 0;
        const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), d);
        if (ec != std::errc() || end != value.data() + value.size() || !std::isfinite(d) || d < 0)
            throw ParameterError(where +
                                 ": expected a diffusion coefficient >= 0 in nm^2/us "
                                 "after '=', got '" +
                                 value + "'");
        for (int s : species)
            rules.d[static_cast<std::size_t>(s)][static_cast<std::size_t>(from)]
                   [static_cast<std::size_t>(to)] = d;
    }
    return rules;
}

}  // namespace cf::lattice
