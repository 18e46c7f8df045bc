// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/core/scenario.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace cf {

namespace {

std::string where(const std::string& file, const toml::source_region& r) {
    return file + ":" + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column) + ": ";
}

[[noreturn]] void fail(const std::string& file, const toml::source_region& r,
                       const std::string& message) {
    throw ScenarioError(where(file, r) + message);
}

std::string typeName(const toml::node& n) {
    switch (n.type()) {
        case toml::node_type::string:
            return "a string";
        case toml::node_type::integer:
            return "an integer";
        case toml::node_type::floating_point:
            return "a real number";
        case toml::node_type::boolean:
            return "a boolean";
        case toml::node_type::table:
            return "a table";
        case toml::node_type::array:
            return "an array";
        default:
            return "a date/time";
    }
}

class Reader {
public:
    explicit Reader(std::string file) : file_(std::move(file)) {}

    std::string string(const toml::node& n, const std::string& key) const {
        if (const auto* s = n.as_string()) return s->get();
        fail(file_, n.source(), "'" + key + "' must be a string, not " + typeName(n));
    }
    std::uint64_t count(const toml::node& n, const std::string& key, std::uint64_t max) const {
        const auto* i = n.as_integer();
        if (i == nullptr)
            fail(file_, n.source(), "'" + key + "' must be an integer, not " + typeName(n));
        if (i->get() < 0 || static_cast<std::uint64_t>(i->get()) > max)
            fail(file_, n.source(),
                 "'" + key + "' = " + std::to_string(i->get()) + " is out of range [0, " +
                     std::to_string(max) + "]");
        return static_cast<std::uint64_t>(i->get());
    }
    const toml::table& table(const toml::node& n, const std::string& key) const {
        if (const auto* t = n.as_table()) return *t;
        fail(file_, n.source(),
             "'" + key + "' must be a table ([" + key + "]), not " + typeName(n));
    }
    [[noreturn]] void unknown(const toml::key& k, const std::string& context,
                              const std::string& allowed) const {
        fail(file_, k.source(),
             "unknown key '" + std::string(k.str()) + "' in " + context + " (allowed: " + allowed +
                 ")");
    }
    const std::string& file() const { return file_; }

private:
    std::string file_;
};

ParamValue toParamValue(const Reader& rd, const ParamSpec& spec, const toml::node& n) {
    ParamValue v;
    if (const auto* f = n.as_floating_point())
        v = f->get();
    else if (const auto* i = n.as_integer())
        v = static_cast<std::int64_t>(i->get());
    else if (const auto* b = n.as_boolean())
        v = b->get();
    else if (const auto* s = n.as_string())
        v = s->get();
    else
        fail(rd.file(), n.source(),
             "parameter '" + spec.key() + "' must be a " + std::string(toString(spec.type)) +
                 " value, not " + typeName(n));
    try {
        return validateValue(spec, v);
    } catch (const ParameterError& e) {
        fail(rd.file(), n.source(), e.what());
    }
}

void readParameters(const Reader& rd, const toml::table& params, Scenario& sc) {
    const ParamTable& table = sc.parameters.table();
    const auto groups = table.groups();
    std::string groupList;
    for (const auto& g : groups)
        groupList += (groupList.empty() ? "" : ", ") + g;
    for (auto&& [groupKey, groupNode] : params) {
        const std::string group(groupKey.str());
        if (std::find(groups.begin(), groups.end(), group) == groups.end())
            rd.unknown(groupKey, "[parameters] of model '" + sc.model->name + "'", groupList);
        const toml::table& entries = rd.table(groupNode, "parameters." + group);
        for (auto&& [nameKey, valueNode] : entries) {
            const std::string key = group + "." + std::string(nameKey.str());
            const ParamSpec* spec = table.find(key);
            if (spec == nullptr) {
                std::string names;
                for (const ParamSpec& s : table.specs())
                    if (s.group == group) names += (names.empty() ? "" : ", ") + s.name;
                rd.unknown(nameKey, "[parameters." + group + "]", names);
            }
            sc.parameters.set(key, toParamValue(rd, *spec, valueNode));
        }
    }
}

void readOutput(const Reader& rd, const toml::table& out, OutputSettings& o) {
    constexpr std::uint64_t kMax = 1'000'000'000'000ULL;
    for (auto&& [k, v] : out) {
        const std::string key(k.str());
        if (key == "dir")
            o.dir = rd.string(v, "output.dir");
        else if (key == "snapshot_every")
            o.snapshotEvery = rd.count(v, "output." + key, kMax);
        else if (key == "series_every")
            o.seriesEvery = rd.count(v, "output." + key, kMax);
        else if (key == "checkpoint_every")
            o.checkpointEvery = rd.count(v, "output." + key, kMax);
        else
            rd.unknown(k, "[output]", "dir, snapshot_every, series_every, checkpoint_every");
    }
}

}  // namespace

Scenario parseScenario(std::string_view text, const std::string& sourceName,
                       const ModelRegistry& registry) {
    toml::table root;
    try {
        root = toml::parse(text, sourceName);
    } catch (const toml::parse_error& e) {
        throw ScenarioError(where(sourceName, e.source()) + std::string(e.description()));
    }
    const Reader rd(sourceName);

    const toml::node* modelNode = root.get("model");
    if (modelNode == nullptr)
        throw ScenarioError(
            sourceName + ":1:1: missing required key 'model' (e.g. model = \"" +
            (registry.all().empty() ? std::string("name") : registry.all().front().name) + "\")");
    const std::string modelName = rd.string(*modelNode, "model");
    const ModelDescriptor* desc = registry.find(modelName);
    if (desc == nullptr) {
        try {
            registry.at(modelName);
        } catch (const ScenarioError& e) {
            fail(sourceName, modelNode->source(), e.what());
        }
    }
    Scenario sc(*desc);
    sc.source = sourceName;

    for (auto&& [k, v] : root) {
        const std::string key(k.str());
        if (key == "model") continue;
        if (key == "seed") {
            sc.seed = static_cast<std::uint32_t>(rd.count(v, "seed", 0xffffffffULL));
        } else if (key == "steps") {
            sc.steps = rd.count(v, "steps", 1'000'000'000'000ULL);
        } else if (key == "backend") {
            const std::string b = rd.string(v, "backend");
            if (b == "auto")
                sc.backend.reset();
            else if (auto parsed = parseBackend(b))
                sc.backend = *parsed;
            else
                fail(sourceName, v.source(),
                     "backend must be \"auto\", \"cpu\" or \"cuda\", not \"" + b + "\"");
        } else if (key == "output") {
            readOutput(rd, rd.table(v, "output"), sc.output);
        } else if (key == "parameters") {
            readParameters(rd, rd.table(v, "parameters"), sc);
        } else {
            rd.unknown(k, "the scenario", "model, seed, backend, steps, [output], [parameters]");
        }
    }
    return sc;
}

Scenario loadScenario(const std::filesystem::path& path, const ModelRegistry& registry) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ScenarioError(path.string() + ": cannot open scenario file");
    std::ostringstream buf;
    buf << in.rdbuf();
    return parseScenario(buf.str(), path.string(), registry);
}

namespace {
std::string tomlValue(const ParamValue& v) {
    if (const auto* s = std::get_if<std::string>(&v)) {
        std::ostringstream o;
        o << toml::value<std::string>(*s);
        return o.str();
    }
    if (const auto* d = std::get_if<double>(&v)) {
        std::string t = formatValue(v);
        // TOML needs a '.' or exponent to keep a real a real.
        if (t.find_first_of(".eEn") == std::string::npos) t += ".0";
        (void)d;
        return t;
    }
    return formatValue(v);
}
}  // namespace

std::string scenarioToToml(const Scenario& sc) {
    std::ostringstream o;
    o << "# Cellforge scenario (" << sc.model->description << ")\n";
    o << "model = \"" << sc.model->name << "\"\n";
    o << "seed = " << sc.seed << "\n";
    o << "backend = \"" << (sc.backend ? std::string(toString(*sc.backend)) : "auto") << "\"\n";
    o << "steps = " << sc.steps << "\n\n";
    o << "[output]\n";
    o << "dir = " << tomlValue(sc.output.dir) << "\n";
    o << "snapshot_every = " << sc.output.snapshotEvery << "\n";
    o << "series_every = " << sc.output.seriesEvery << "\n";
    o << "checkpoint_every = " << sc.output.checkpointEvery << "\n";
    const ParamTable& table = sc.parameters.table();
    for (const std::string& group : table.groups()) {
        o << "\n[parameters." << group << "]\n";
        for (const ParamSpec& s : table.specs()) {
            if (s.group != group) continue;
            o << s.name << " = " << tomlValue(sc.parameters.get(s.key())) << "  # " << s.rangeText()
              << ", " << toString(s.mutability) << ": " << s.description << "\n";
        }
    }
    return o.str();
}

}  // namespace cf
