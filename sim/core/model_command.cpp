// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/core/model_command.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "sim/core/errors.hpp"

namespace cf {
namespace {

double parseNumber(const std::string& name, const std::string& text) {
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(v))
        throw ParameterError("--" + name + ": '" + text + "' is not a finite number");
    return v;
}

}  // namespace

bool CommandArguments::flag(const std::string& name) const {
    const auto it = flags.find(name);
    return it != flags.end() && it->second;
}

std::optional<std::string> CommandArguments::text(const std::string& name) const {
    const auto it = values.find(name);
    if (it == values.end() || it->second.empty()) return std::nullopt;
    return it->second.back();
}

std::string CommandArguments::text(const std::string& name, const std::string& fallback) const {
    return text(name).value_or(fallback);
}

double CommandArguments::number(const std::string& name, double fallback) const {
    const std::optional<std::string> t = text(name);
    return t ? parseNumber(name, *t) : fallback;
}

std::vector<double> CommandArguments::numbers(const std::string& name) const {
    std::vector<double> out;
    const auto it = values.find(name);
    if (it == values.end()) return out;
    for (const std::string& t : it->second)
        out.push_back(parseNumber(name, t));
    return out;
}

}  // namespace cf
