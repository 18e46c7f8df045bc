// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/io/json_values.hpp"

#include <cmath>
#include <limits>

#include "sim/io/atomic_file.hpp"

namespace cf::io::detail {

using nlohmann::json;

json toJson(const ParamValue& v) {
    return std::visit([](const auto& x) { return json(x); }, v);
}

ParamValue paramValueFromJson(const json& j, const std::filesystem::path& file,
                              const std::string& what) {
    if (j.is_number_float()) return j.get<double>();
    if (j.is_number_unsigned()) {
        const auto u = j.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            throw IoError(where(file, what + ": integer " + j.dump() + " is too large"));
        return static_cast<std::int64_t>(u);
    }
    if (j.is_number_integer()) return j.get<std::int64_t>();
    if (j.is_boolean()) return j.get<bool>();
    if (j.is_string()) return j.get<std::string>();
    throw IoError(where(file, what + ": expected a number, boolean or string, got " + j.dump()));
}

json parametersToJson(const ParamSet& params) {
    json out = json::object();
    for (const ParamSpec& s : params.table().specs())
        out[s.group][s.name] = toJson(params.get(s.key()));
    return out;
}

json historyToJson(const std::vector<ParamChange>& history) {
    json out = json::array();
    for (const ParamChange& c : history) {
        out.push_back({{"step", c.step},
                       {"time", doubleToJson(c.time)},
                       {"parameter", c.key},
                       {"old", toJson(c.oldValue)},
                       {"new", toJson(c.newValue)},
                       {"pending_reset", c.pendingReset}});
    }
    return out;
}

json doubleToJson(double x) {
    if (std::isfinite(x)) return x;
    if (std::isnan(x)) return "nan";
    return x > 0 ? "inf" : "-inf";
}

double doubleFromJson(const json& j, const std::filesystem::path& file, const std::string& what) {
    if (j.is_number()) return j.get<double>();
    if (j.is_string()) {
        const auto& s = j.get_ref<const std::string&>();
        if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
        if (s == "inf") return std::numeric_limits<double>::infinity();
        if (s == "-inf") return -std::numeric_limits<double>::infinity();
    }
    throw IoError(where(file, what + ": expected a number, got " + j.dump()));
}

}  // namespace cf::io::detail
