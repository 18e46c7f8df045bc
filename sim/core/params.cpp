// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/core/params.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>
#include <utility>

namespace cf {

std::string_view toString(ParamType t) {
    switch (t) {
        case ParamType::Real:
            return "real";
        case ParamType::Integer:
            return "integer";
        case ParamType::Boolean:
            return "boolean";
        case ParamType::Choice:
            return "choice";
        case ParamType::Text:
            return "text";
    }
    return "?";
}

std::string_view toString(TextKind k) {
    return k == TextKind::FilePath ? "file path" : "text";
}

std::string_view toString(Mutability m) {
    return m == Mutability::Live ? "live" : "structural";
}

namespace {

std::string formatReal(double v) {
    // Shortest text that reads back to the same double ("100", "0.001", "1e-300").
    char buf[64];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    return ec == std::errc() ? std::string(buf, end) : std::to_string(v);
}

// Levenshtein distance, for "did you mean" suggestions.
std::size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

std::string withUnit(const std::string& value, const std::string& unit) {
    return unit.empty() || unit == "1" ? value : value + " " + unit;
}

[[noreturn]] void outOfRange(const ParamSpec& s, const std::string& got) {
    throw ParameterError("parameter '" + s.key() + "' = " + got + " is out of range: allowed " +
                         s.rangeText());
}

[[noreturn]] void wrongType(const ParamSpec& s, const ParamValue& v) {
    static constexpr const char* names[] = {"real", "integer", "boolean", "string"};
    throw ParameterError("parameter '" + s.key() + "' expects a " + std::string(toString(s.type)) +
                         " value (" + s.rangeText() + "), got " + names[v.index()] + " " +
                         formatValue(v));
}

// Length of the UTF-8 sequence starting at text[i] (0 if it is not valid there): well-formed
// per Unicode 15 table 3-7 (no overlongs, no surrogates, nothing above U+10FFFF).
std::size_t utf8SequenceLength(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) {
        return k < text.size() ? static_cast<unsigned char>(text[k]) : 0u;
    };
    const unsigned b0 = byte(i);
    if (b0 < 0x80) return 1;
    auto cont = [&](std::size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) {
        const unsigned b = byte(k);
        return k < text.size() && b >= lo && b <= hi;
    };
    if (b0 >= 0xC2 && b0 <= 0xDF) return cont(i + 1) ? 2 : 0;
    if (b0 >= 0xE0 && b0 <= 0xEF) {
        const unsigned lo = b0 == 0xE0 ? 0xA0 : 0x80, hi = b0 == 0xED ? 0x9F : 0xBF;
        return cont(i + 1, lo, hi) && cont(i + 2) ? 3 : 0;
    }
    if (b0 >= 0xF0 && b0 <= 0xF4) {
        const unsigned lo = b0 == 0xF0 ? 0x90 : 0x80, hi = b0 == 0xF4 ? 0x8F : 0xBF;
        return cont(i + 1, lo, hi) && cont(i + 2) && cont(i + 3) ? 4 : 0;
    }
    return 0;
}

// Text values end up in TOML, JSON, terminals and Qt widgets: they must be valid UTF-8
// without control characters (other than newline and tab in free text).
void checkText(const ParamSpec& s, const std::string& text) {
    if (text.size() > kMaxTextBytes)
        throw ParameterError("parameter '" + s.key() + "' is " + std::to_string(text.size()) +
                             " bytes long; text parameters hold at most " +
                             std::to_string(kMaxTextBytes) + " bytes");
    std::size_t line = 1;
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        const bool lineBreak = c == '\n' || c == '\t';
        if ((c < 0x20 && !lineBreak) || c == 0x7f ||
            (lineBreak && s.textKind == TextKind::FilePath)) {
            char code[8];
            std::snprintf(code, sizeof code, "U+%04X", c);
            throw ParameterError(
                "parameter '" + s.key() + "' contains the control character " + code + " at byte " +
                std::to_string(i) + " (line " + std::to_string(line) + ")" +
                (s.textKind == TextKind::FilePath ? "; a file path is one line of printable text"
                                                  : "; only newline and tab are allowed"));
        }
        const std::size_t n = utf8SequenceLength(text, i);
        if (n == 0)
            throw ParameterError("parameter '" + s.key() + "' is not valid UTF-8 (byte " +
                                 std::to_string(i) + ", line " + std::to_string(line) + ")");
        if (c == '\n') ++line;
        i += n;
    }
}

}  // namespace

std::string summarizeValue(const ParamValue& v, std::size_t maxChars) {
    const std::string* text = std::get_if<std::string>(&v);
    if (text == nullptr) return formatValue(v);
    std::string out;
    std::size_t chars = 0;
    for (std::size_t i = 0; i < text->size();) {
        if (chars >= maxChars) return out + "...";
        const char c = (*text)[i];
        // Invalid bytes (never in a validated value) pass one at a time.
        const std::size_t n = std::max<std::size_t>(1, utf8SequenceLength(*text, i));
        if (c == '\n')
            out += "\\n";
        else if (c == '\t')
            out += "\\t";
        else if (c == '\\')
            out += "\\\\";
        else
            out.append(*text, i, n);
        i += n;
        ++chars;
    }
    return out;
}

std::string formatValue(const ParamValue& v) {
    return std::visit(
        [](const auto& x) -> std::string {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, double>)
                return formatReal(x);
            else if constexpr (std::is_same_v<T, std::int64_t>)
                return std::to_string(x);
            else if constexpr (std::is_same_v<T, bool>)
                return x ? "true" : "false";
            else
                return x;
        },
        v);
}

std::string ParamSpec::rangeText() const {
    switch (type) {
        case ParamType::Real:
            return withUnit("[" + formatReal(min) + ", " + formatReal(max) + "]", unit);
        case ParamType::Integer:
            return withUnit("[" + std::to_string(static_cast<std::int64_t>(min)) + ", " +
                                std::to_string(static_cast<std::int64_t>(max)) + "]",
                            unit);
        case ParamType::Boolean:
            return "true or false";
        case ParamType::Choice: {
            std::string out = "one of:";
            for (const auto& c : choices)
                out += " " + c;
            return out;
        }
        case ParamType::Text:
            return std::string(toString(textKind));
    }
    return {};
}

ParamTable::ParamTable(std::vector<ParamSpec> specs) : specs_(std::move(specs)) {
    std::set<std::string> seen;
    for (const ParamSpec& s : specs_) {
        // Declarations are code: a mistake here is a programming error, reported loudly.
        if (!seen.insert(s.key()).second)
            throw ParameterError("parameter '" + s.key() + "' is declared twice");
        validateValue(s, s.defaultValue);
    }
}

const ParamSpec* ParamTable::find(std::string_view key) const {
    for (const ParamSpec& s : specs_)
        if (s.key() == key) return &s;
    return nullptr;
}

const ParamSpec& ParamTable::at(std::string_view key) const {
    if (const ParamSpec* s = find(key)) return *s;
    std::string best;
    std::size_t bestDistance = 4;  // suggest only close matches
    for (const ParamSpec& s : specs_) {
        const std::size_t d = std::min(editDistance(key, s.key()), editDistance(key, s.name));
        if (d < bestDistance) {
            bestDistance = d;
            best = s.key();
        }
    }
    std::string msg = "unknown parameter '" + std::string(key) + "'";
    if (!best.empty())
        msg += " (did you mean '" + best + "'?)";
    else
        msg += " (`cellforge-sim params MODEL` lists them)";
    throw ParameterError(msg);
}

std::vector<std::string> ParamTable::groups() const {
    std::vector<std::string> out;
    for (const ParamSpec& s : specs_)
        if (std::find(out.begin(), out.end(), s.group) == out.end()) out.push_back(s.group);
    return out;
}

ParamValue validateValue(const ParamSpec& s, const ParamValue& v) {
    switch (s.type) {
        case ParamType::Real: {
            double x;
            if (const double* d = std::get_if<double>(&v))
                x = *d;
            else if (const auto* i = std::get_if<std::int64_t>(&v))
                x = static_cast<double>(*i);
            else
                wrongType(s, v);
            if (!std::isfinite(x) || x < s.min || x > s.max) outOfRange(s, formatReal(x));
            return x;
        }
        case ParamType::Integer: {
            const auto* i = std::get_if<std::int64_t>(&v);
            if (i == nullptr) wrongType(s, v);
            if (static_cast<double>(*i) < s.min || static_cast<double>(*i) > s.max)
                outOfRange(s, std::to_string(*i));
            return *i;
        }
        case ParamType::Boolean:
            if (!std::holds_alternative<bool>(v)) wrongType(s, v);
            return v;
        case ParamType::Choice: {
            const auto* text = std::get_if<std::string>(&v);
            if (text == nullptr) wrongType(s, v);
            if (std::find(s.choices.begin(), s.choices.end(), *text) == s.choices.end())
                throw ParameterError("parameter '" + s.key() + "' = '" + *text +
                                     "' is not allowed: " + s.rangeText());
            return v;
        }
        case ParamType::Text: {
            const auto* text = std::get_if<std::string>(&v);
            if (text == nullptr) wrongType(s, v);
            checkText(s, *text);
            return v;
        }
    }
    return v;
}

ParamValue parseValue(const ParamSpec& s, std::string_view text) {
    const std::string t(text);
    auto bad = [&](const char* what) -> ParamValue {
        throw ParameterError("parameter '" + s.key() + "': cannot read '" + t + "' as " + what +
                             " (allowed " + s.rangeText() + ")");
    };
    switch (s.type) {
        case ParamType::Real: {
            double x = 0.0;
            const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), x);
            if (ec != std::errc() || end != t.data() + t.size() || t.empty())
                return bad("a real number");
            return validateValue(s, x);
        }
        case ParamType::Integer: {
            std::int64_t x = 0;
            const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), x);
            if (ec != std::errc() || end != t.data() + t.size() || t.empty())
                return bad("an integer");
            return validateValue(s, x);
        }
        case ParamType::Boolean:
            if (t == "true" || t == "1" || t == "on" || t == "yes") return true;
            if (t == "false" || t == "0" || t == "off" || t == "no") return false;
            return bad("a boolean");
        case ParamType::Choice:
        case ParamType::Text:  // the text itself, nothing to convert
            return validateValue(s, t);
    }
    return bad("a value");
}

ParamSet::ParamSet(const ParamTable& table) : table_(&table) {
    for (const ParamSpec& s : table.specs())
        values_.emplace(s.key(), s.defaultValue);
}

const ParamValue& ParamSet::get(std::string_view key) const {
    const auto it = values_.find(key);
    if (it == values_.end()) table_->at(key);  // throws with a suggestion
    return it->second;
}

namespace {
template <typename T>
const T& typed(const ParamSet& set, std::string_view key, const char* what) {
    const ParamValue& v = set.get(key);
    if (const T* x = std::get_if<T>(&v)) return *x;
    throw ParameterError("parameter '" + std::string(key) + "' is not " + what);
}
}  // namespace

double ParamSet::real(std::string_view key) const {
    return typed<double>(*this, key, "real");
}
std::int64_t ParamSet::integer(std::string_view key) const {
    return typed<std::int64_t>(*this, key, "an integer");
}
bool ParamSet::boolean(std::string_view key) const {
    return typed<bool>(*this, key, "boolean");
}
const std::string& ParamSet::choice(std::string_view key) const {
    return typed<std::string>(*this, key, "a choice");
}
const std::string& ParamSet::text(std::string_view key) const {
    return typed<std::string>(*this, key, "text");
}

ParamValue ParamSet::set(std::string_view key, const ParamValue& value) {
    const ParamSpec& spec = table_->at(key);
    ParamValue checked = validateValue(spec, value);
    auto& slot = values_.at(spec.key());
    return std::exchange(slot, std::move(checked));
}

ParamSet withLiveValues(const ParamSet& current, const ParamSet& edited) {
    ParamSet out = current;
    for (const ParamSpec& s : current.table().specs())
        if (s.mutability == Mutability::Live) out.set(s.key(), edited.get(s.key()));
    return out;
}

ParamValue ParamSet::setFromAssignment(std::string_view assignment) {
    const auto eq = assignment.find('=');
    if (eq == std::string_view::npos || eq == 0)
        throw ParameterError("expected group.name=value, got '" + std::string(assignment) + "'");
    const std::string_view key = assignment.substr(0, eq);
    const ParamSpec& spec = table_->at(key);
    return set(key, parseValue(spec, assignment.substr(eq + 1)));
}

std::string describeParameters(const ParamTable& table) {
    std::ostringstream out;
    for (const std::string& group : table.groups()) {
        out << "[" << group << "]\n";
        for (const ParamSpec& s : table.specs()) {
            if (s.group != group) continue;
            // Text defaults are quoted (an empty one still shows) and kept on one line.
            const std::string def = s.type == ParamType::Text
                                        ? "\"" + summarizeValue(s.defaultValue, 40) + "\""
                                        : formatValue(s.defaultValue);
            char head[160];
            std::snprintf(head, sizeof head, "  %-28s %-10s default %-12s ", s.key().c_str(),
                          std::string(toString(s.mutability)).c_str(), def.c_str());
            out << head << s.rangeText() << "\n      " << s.description << "\n";
        }
    }
    return out.str();
}

}  // namespace cf
