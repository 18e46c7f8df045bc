// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/core/scenario.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "sim/core/input_file.hpp"

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

bool isFilePath(const ParamSpec& s) {
    return s.type == ParamType::Text && s.textKind == TextKind::FilePath;
}

// `base / path`, normalised ("a/../b" -> "b"); an empty or absolute path stays as it is.
std::string resolvedPath(const std::string& path, const std::filesystem::path& base) {
    const std::filesystem::path p(path);
    if (path.empty() || p.is_absolute() || base.empty()) return path;
    return (std::filesystem::absolute(base) / p).lexically_normal().string();
}

void readParameters(const Reader& rd, const toml::table& params, Scenario& sc,
                    const std::filesystem::path& baseDirectory) {
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
            ParamValue value = toParamValue(rd, *spec, valueNode);
            if (isFilePath(*spec)) {
                value = resolvedPath(std::get<std::string>(value), baseDirectory);
                try {
                    value = validateValue(*spec, value);  // the longer path may be too long
                } catch (const ParameterError& e) {
                    fail(rd.file(), valueNode.source(), e.what());
                }
            }
            sc.parameters.set(key, value);
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

std::string oneLine(const Reader& rd, const toml::node& n, const std::string& key) {
    std::string text = rd.string(n, key);
    if (text.find('\n') != std::string::npos)
        fail(rd.file(), n.source(), "'" + key + "' must be one line");
    return text;
}

void readCaptions(const Reader& rd, const toml::node& n, ScenarioAbout& about) {
    const toml::array* list = n.as_array();
    if (list == nullptr)
        fail(
            rd.file(), n.source(),
            "'about.captions' must be an array of tables ([[about.captions]]), not " + typeName(n));
    for (const toml::node& item : *list) {
        const toml::table& t = rd.table(item, "about.captions");
        ScenarioCaption c;
        bool hasText = false;
        for (auto&& [k, v] : t) {
            const std::string key(k.str());
            if (key == "step") {
                c.step = rd.count(v, "about.captions.step", 1'000'000'000'000ULL);
            } else if (key == "text") {
                c.text = rd.string(v, "about.captions.text");
                hasText = true;
            } else if (key == "presentation") {
                c.presentation = rd.string(v, "about.captions.presentation");
                if (c.presentation.empty())
                    fail(rd.file(), v.source(),
                         "'about.captions.presentation' is empty (leave it out to show 'text' "
                         "in presentation mode too)");
            } else {
                rd.unknown(k, "[[about.captions]]", "step, text, presentation");
            }
        }
        if (!hasText) fail(rd.file(), item.source(), "a caption needs 'text'");
        if (!about.captions.empty() && c.step <= about.captions.back().step)
            fail(rd.file(), item.source(),
                 "captions must be in increasing 'step' order (" + std::to_string(c.step) +
                     " follows " + std::to_string(about.captions.back().step) + ")");
        about.captions.push_back(std::move(c));
    }
}

double pace(const Reader& rd, const toml::node& n) {
    const std::optional<double> v = n.value<double>();  // an integer reads as a real too
    if (!v || (!n.is_integer() && !n.is_floating_point()))
        fail(rd.file(), n.source(),
             "'about.steps_per_second' must be a number, not " + typeName(n));
    if (!std::isfinite(*v) || *v < 0 || *v > 1e9)
        fail(rd.file(), n.source(),
             "'about.steps_per_second' must be in [0, 1e9] (0: full speed), not " +
                 std::to_string(*v));
    return *v;
}

ScenarioEnd atEnd(const Reader& rd, const toml::node& n) {
    const std::string v = rd.string(n, "about.at_end");
    if (v == "stop") return ScenarioEnd::Stop;
    if (v == "loop") return ScenarioEnd::Loop;
    fail(rd.file(), n.source(),
         "'about.at_end' must be \"stop\" (pause at the scenario's steps) or \"loop\" (start "
         "again), not \"" +
             v + "\"");
}

void readAbout(const Reader& rd, const toml::table& t, ScenarioAbout& about) {
    for (auto&& [k, v] : t) {
        const std::string key(k.str());
        if (key == "title")
            about.title = oneLine(rd, v, "about.title");
        else if (key == "demonstrates")
            about.demonstrates = oneLine(rd, v, "about.demonstrates");
        else if (key == "reproduces")
            about.reproduces = oneLine(rd, v, "about.reproduces");
        else if (key == "captions")
            readCaptions(rd, v, about);
        else if (key == "steps_per_second")
            about.stepsPerSecond = pace(rd, v);
        else if (key == "at_end")
            about.atEnd = atEnd(rd, v);
        else
            rd.unknown(k, "[about]",
                       "title, demonstrates, reproduces, steps_per_second, at_end, "
                       "[[about.captions]]");
    }
}

// TOML allows non-ASCII text only inside strings and comments. toml++ 3.3 (Debian 12) reaches
// undefined behaviour (TOML_UNREACHABLE in is_non_ascii_horizontal_whitespace) for some
// characters elsewhere, e.g. U+00B5 after a bare key (found by fuzz_scenario), so they are
// refused here, before it sees them, with the place and a hint.
void checkNonAsciiOnlyInStrings(std::string_view text, const std::string& file) {
    std::size_t i = text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0;  // a byte-order mark
    int line = 1, column = 1;
    auto advance = [&] {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
            ++column;  // columns count characters, not UTF-8 continuation bytes
        }
        ++i;
    };
    auto refuse = [&](const char* where) {
        throw ScenarioError(file + ":" + std::to_string(line) + ":" + std::to_string(column) +
                            ": a non-ASCII character " + where);
    };
    // In a multi-line basic string, a backslash at the end of a line trims the blanks that
    // follow, and toml++ tests the first character after them with the same faulty table:
    // a non-ASCII one there is refused (put an ASCII character or a space-free line first).
    auto lineEndingBackslash = [&] {
        std::size_t j = i + 1;
        while (j < text.size() && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r'))
            ++j;
        if (j >= text.size() || text[j] != '\n') return false;
        while (i < j)
            advance();
        while (i < text.size() &&
               (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
            advance();
        if (i < text.size() && (static_cast<unsigned char>(text[i]) & 0x80) != 0)
            refuse("at the start of a line continued with '\\' (toml++ 3.3 misreads it)");
        return true;
    };
    auto skipPast = [&](std::string_view end, bool escapes, bool stopAtNewline) {
        while (i < text.size() && text.substr(i, end.size()) != end) {
            if (stopAtNewline && text[i] == '\n') return;
            if (escapes && text[i] == '\\' && !stopAtNewline && i + 1 < text.size() &&
                (static_cast<unsigned char>(text[i + 1]) & 0x80) != 0) {
                advance();  // toml++ tests the escaped character with the same table
                refuse("after a backslash (not an escape TOML knows)");
            }
            if (escapes && text[i] == '\\' && !stopAtNewline && lineEndingBackslash()) continue;
            if (escapes && text[i] == '\\' && i + 1 < text.size()) advance();
            advance();
        }
        for (std::size_t k = 0; k < end.size() && i < text.size(); ++k)
            advance();
    };
    // A quote opens a string only where TOML allows one (a key at the start of a line or
    // after '.', '[', '{' or ',', a value after '=', an array element after '[' or ','); a
    // quote anywhere else is a syntax error toml++ reports, but not a string: what follows
    // it is still checked.
    char previous = '\n';  // the last character outside strings, comments and blanks
    while (i < text.size()) {
        const char c = text[i];
        const bool stringMayStart = previous == '\n' || previous == '=' || previous == '[' ||
                                    previous == '{' || previous == ',' || previous == '.';
        if (c == '#') {
            skipPast("\n", false, false);
            previous = '\n';
        } else if (stringMayStart &&
                   (text.substr(i, 3) == "\"\"\"" || text.substr(i, 3) == "'''")) {
            const std::string_view quotes = text.substr(i, 3);
            for (int k = 0; k < 3; ++k)
                advance();
            skipPast(quotes, quotes[0] == '"', false);
            previous = '"';
        } else if (stringMayStart && (c == '"' || c == '\'')) {
            advance();
            skipPast(c == '"' ? "\"" : "'", c == '"', true);
            previous = '"';
        } else if ((static_cast<unsigned char>(c) & 0x80) != 0) {
            refuse(
                "outside a quoted string or comment (TOML keys are ASCII: quote the key or "
                "the value)");
        } else {
            if (c != ' ' && c != '\t' && c != '\r') previous = c;
            advance();
        }
    }
}

}  // namespace

std::string_view toString(ScenarioEnd end) {
    return end == ScenarioEnd::Loop ? "loop" : "stop";
}

std::string ScenarioAbout::captionAt(std::uint64_t step, bool presenting) const {
    std::string shown;
    for (const ScenarioCaption& c : captions)
        if (c.step <= step) shown = presenting && !c.presentation.empty() ? c.presentation : c.text;
    return shown;
}

Scenario parseScenario(std::string_view text, const std::string& sourceName,
                       const ModelRegistry& registry, const std::filesystem::path& baseDirectory) {
    toml::table root;
    checkNonAsciiOnlyInStrings(text, sourceName);
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
            readParameters(rd, rd.table(v, "parameters"), sc, baseDirectory);
        } else if (key == "about") {
            readAbout(rd, rd.table(v, "about"), sc.about);
        } else {
            rd.unknown(k, "the scenario",
                       "model, seed, backend, steps, [output], [parameters], [about]");
        }
    }
    return sc;
}

Scenario loadScenario(const std::filesystem::path& path, const ModelRegistry& registry) {
    return parseScenario(readInputFile(path), path.string(), registry,
                         std::filesystem::absolute(path).parent_path());
}

void resolveFilePaths(ParamSet& parameters, const std::filesystem::path& baseDirectory) {
    for (const ParamSpec& s : parameters.table().specs())
        if (isFilePath(s))
            parameters.set(s.key(), resolvedPath(parameters.text(s.key()), baseDirectory));
}

namespace {

// A TOML basic string: quoted, with escapes for quotes, backslashes and control characters.
std::string escapedString(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (u < 0x20 || u == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04X", u);
            out += buf;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

bool isControl(char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7f;
}

// Strings as a person would type them: multi-line text as a literal block (no escapes, the
// lines as typed; TOML drops the newline right after the opening quotes), one line in
// single quotes, and a basic string with escapes for what neither can hold (three single
// quotes in a row, one at the very end, a single quote or a tab on one line). Written here
// rather than by toml++ 3.3, whose writer emits literal blocks that do not read back (text
// holding three single quotes, or starting with a newline).
std::string tomlString(const std::string& text) {
    const bool multiLine = text.find('\n') != std::string::npos;
    if (multiLine && text.find("'''") == std::string::npos && text.back() != '\'')
        return "'''\n" + text + "'''";
    if (!multiLine && text.find_first_of("'\t") == std::string::npos &&
        std::none_of(text.begin(), text.end(), isControl))
        return "'" + text + "'";
    return escapedString(text);
}

// A file path under `directory` as a relative path ("data/net.txt"), others as they are.
std::string portablePath(const std::string& path, const std::filesystem::path& directory) {
    const std::filesystem::path p(path);
    if (directory.empty() || !p.is_absolute()) return path;
    const std::filesystem::path rel = p.lexically_normal().lexically_relative(
        std::filesystem::absolute(directory).lexically_normal());
    if (rel.empty() || *rel.begin() == "..") return path;
    return rel.string();
}

std::string tomlValue(const ParamValue& v) {
    if (const auto* s = std::get_if<std::string>(&v)) return tomlString(*s);
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

std::string scenarioToToml(const Scenario& sc, const std::filesystem::path& directory) {
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
    if (!sc.about.empty()) {
        o << "\n[about]\n";
        if (!sc.about.title.empty()) o << "title = " << tomlString(sc.about.title) << "\n";
        if (!sc.about.demonstrates.empty())
            o << "demonstrates = " << tomlString(sc.about.demonstrates) << "\n";
        if (!sc.about.reproduces.empty())
            o << "reproduces = " << tomlString(sc.about.reproduces) << "\n";
        if (sc.about.stepsPerSecond > 0)
            o << "steps_per_second = " << tomlValue(sc.about.stepsPerSecond) << "\n";
        o << "at_end = \"" << toString(sc.about.atEnd) << "\"  # at `steps`: stop or loop\n";
        for (const ScenarioCaption& c : sc.about.captions) {
            o << "\n[[about.captions]]\nstep = " << c.step << "\ntext = " << tomlString(c.text)
              << "\n";
            if (!c.presentation.empty())
                o << "presentation = " << tomlString(c.presentation) << "\n";
        }
    }
    const ParamTable& table = sc.parameters.table();
    for (const std::string& group : table.groups()) {
        o << "\n[parameters." << group << "]\n";
        for (const ParamSpec& s : table.specs()) {
            if (s.group != group) continue;
            const ParamValue& v = sc.parameters.get(s.key());
            std::string value = tomlValue(v);
            if (s.type == ParamType::Text)
                value = tomlString(isFilePath(s) ? portablePath(std::get<std::string>(v), directory)
                                                 : std::get<std::string>(v));
            o << s.name << " = " << value << "  # " << s.rangeText() << ", "
              << toString(s.mutability) << ": " << s.description << "\n";
        }
    }
    return o.str();
}

}  // namespace cf
