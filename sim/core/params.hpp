// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Parameters: each one is declared once (ParamSpec) and that declaration drives scenario
// files, `--set group.name=value`, validation, generated help and panels, and the copy
// into the model's plain parameter struct (which the CUDA backend uploads as-is).
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "sim/core/errors.hpp"

namespace cf {

enum class ParamType { Real, Integer, Boolean, Choice, Text };

// What a Text parameter holds: free text (a reaction network "A + B -> C @ 1e5", species
// names "A, B, C"; may span lines), or a file path (one line; a relative path in a scenario
// file is taken relative to that file's directory).
enum class TextKind { Plain, FilePath };

// Text values are validated to stay printable and portable: at most this many bytes of
// valid UTF-8, no control characters other than newline and tab (a file path: not even
// those). The limit keeps scenario files, checkpoints and panels reasonable.
inline constexpr std::size_t kMaxTextBytes = 64 * 1024;

// Live parameters may change while the model runs (applied at the next step boundary);
// structural ones change array sizes or geometry and need a reset.
enum class Mutability { Live, Structural };

using ParamValue = std::variant<double, std::int64_t, bool, std::string>;

std::string_view toString(ParamType t);
std::string_view toString(Mutability m);
std::string_view toString(TextKind k);
// Shortest text that reads back to the same value ("0.001", "42", "true", "lattice"); a
// text value as it is (newlines included).
std::string formatValue(const ParamValue& v);
// One line for tables, logs and history lists: formatValue with newline, tab and backslash
// escaped (\n, \t, \\) and text longer than `maxChars` characters cut with "...".
std::string summarizeValue(const ParamValue& v, std::size_t maxChars = 60);

struct ParamSpec {
    std::string group;
    std::string name;
    ParamType type = ParamType::Real;
    ParamValue defaultValue;
    double min = 0.0;  // Real and Integer: inclusive bounds
    double max = 0.0;
    std::vector<std::string> choices;     // Choice only
    TextKind textKind = TextKind::Plain;  // Text only
    std::string unit;                     // "1" for dimensionless
    std::string description;
    Mutability mutability = Mutability::Live;
    // Writes a (validated) value into the model's parameter struct.
    std::function<void(void* pod, const ParamValue&)> store;

    std::string key() const { return group + "." + name; }
    // "[0, 10] um" or "one of: a, b" or "true or false" or "text" or "file path".
    std::string rangeText() const;
};

// The declared parameters of one model, in declaration order.
class ParamTable {
public:
    ParamTable() = default;
    explicit ParamTable(std::vector<ParamSpec> specs);

    const std::vector<ParamSpec>& specs() const { return specs_; }
    const ParamSpec* find(std::string_view key) const;
    // Throws ParameterError naming the unknown key and the closest known ones.
    const ParamSpec& at(std::string_view key) const;
    std::vector<std::string> groups() const;

private:
    std::vector<ParamSpec> specs_;
};

// Checks type and range; throws ParameterError naming parameter, value and allowed range.
// Integers given where a real is declared are accepted and converted.
ParamValue validateValue(const ParamSpec& spec, const ParamValue& value);
// Parses command-line text ("1e-3", "true", "12") for a spec, then validates.
ParamValue parseValue(const ParamSpec& spec, std::string_view text);

// A full set of values for one table, always valid: starts from the defaults.
class ParamSet {
public:
    explicit ParamSet(const ParamTable& table);

    const ParamTable& table() const { return *table_; }
    const ParamValue& get(std::string_view key) const;
    double real(std::string_view key) const;
    std::int64_t integer(std::string_view key) const;
    bool boolean(std::string_view key) const;
    const std::string& choice(std::string_view key) const;
    const std::string& text(std::string_view key) const;

    // Validate and set; returns the previous value.
    ParamValue set(std::string_view key, const ParamValue& value);
    // "group.name=value" as given on a command line.
    ParamValue setFromAssignment(std::string_view assignment);

    // Copies every value into the model's parameter struct through the specs.
    template <typename Pod>
    Pod toStruct() const {
        Pod pod{};
        for (const ParamSpec& s : table_->specs())
            s.store(&pod, values_.at(s.key()));
        return pod;
    }

    bool operator==(const ParamSet& other) const { return values_ == other.values_; }
    const std::map<std::string, ParamValue, std::less<>>& values() const { return values_; }

private:
    const ParamTable* table_;
    std::map<std::string, ParamValue, std::less<>> values_;
};

// `current` with the live values of `edited` (both of one table): the set a model runs with
// after a live edit. Structural values stay as `current` has them, so a model never sees a
// structural change before its next reset.
ParamSet withLiveValues(const ParamSet& current, const ParamSet& edited);

// One recorded edit of a parameter during a run (the run's parameter history).
struct ParamChange {
    std::uint64_t step = 0;  // the edit applies from this step on
    double time = 0.0;       // simulated time at that step
    std::string key;         // "group.name"
    ParamValue oldValue;
    ParamValue newValue;
    bool pendingReset = false;  // structural: takes effect at the next reset
};

// Human-readable table of every parameter (used by `cellforge-sim params`).
std::string describeParameters(const ParamTable& table);

// Typed declarations bound to a member of the model's parameter struct. Every row states
// whether it is live or structural (no default): that one record decides how an edit is
// applied (withLiveValues), what the panels mark "reset" and what a reset waits for.
//   ParamTableBuilder<P> b;
//   b.real("mechanics", "stiffness", &P::stiffness, 1.0, 0.0, 100.0, "N/m", "Spring constant",
//          Mutability::Live);
template <typename Pod>
class ParamTableBuilder {
public:
    template <typename M>
    ParamTableBuilder& real(std::string group, std::string name, M Pod::*member, double def,
                            double min, double max, std::string unit, std::string description,
                            Mutability m) {
        ParamSpec s = common(std::move(group), std::move(name), ParamType::Real, def,
                             std::move(unit), std::move(description), m);
        s.min = min;
        s.max = max;
        s.store = [member](void* pod, const ParamValue& v) {
            static_cast<Pod*>(pod)->*member = static_cast<M>(std::get<double>(v));
        };
        specs_.push_back(std::move(s));
        return *this;
    }
    template <typename M>
    ParamTableBuilder& integer(std::string group, std::string name, M Pod::*member,
                               std::int64_t def, std::int64_t min, std::int64_t max,
                               std::string unit, std::string description, Mutability m) {
        ParamSpec s = common(std::move(group), std::move(name), ParamType::Integer, def,
                             std::move(unit), std::move(description), m);
        s.min = static_cast<double>(min);
        s.max = static_cast<double>(max);
        s.store = [member](void* pod, const ParamValue& v) {
            static_cast<Pod*>(pod)->*member = static_cast<M>(std::get<std::int64_t>(v));
        };
        specs_.push_back(std::move(s));
        return *this;
    }
    ParamTableBuilder& boolean(std::string group, std::string name, bool Pod::*member, bool def,
                               std::string description, Mutability m) {
        ParamSpec s = common(std::move(group), std::move(name), ParamType::Boolean, def, "1",
                             std::move(description), m);
        s.store = [member](void* pod, const ParamValue& v) {
            static_cast<Pod*>(pod)->*member = std::get<bool>(v);
        };
        specs_.push_back(std::move(s));
        return *this;
    }
    // A named choice stored as its index (so the struct stays trivially copyable).
    template <typename M>
    ParamTableBuilder& choice(std::string group, std::string name, M Pod::*member,
                              std::vector<std::string> choices, std::string def,
                              std::string description, Mutability m) {
        ParamSpec s = common(std::move(group), std::move(name), ParamType::Choice, std::move(def),
                             "1", std::move(description), m);
        s.choices = choices;
        s.store = [member, choices](void* pod, const ParamValue& v) {
            const auto& text = std::get<std::string>(v);
            for (std::size_t i = 0; i < choices.size(); ++i)
                if (choices[i] == text) static_cast<Pod*>(pod)->*member = static_cast<M>(i);
        };
        specs_.push_back(std::move(s));
        return *this;
    }
    // Free text or a file path, stored in a std::string member. A struct with a string is
    // no longer trivially copyable: a model that uploads its struct to the device keeps
    // the text in a separate host-side struct (or reads it with ParamSet::text()).
    ParamTableBuilder& text(std::string group, std::string name, std::string Pod::*member,
                            std::string def, std::string description, Mutability m,
                            TextKind kind = TextKind::Plain) {
        ParamSpec s = common(std::move(group), std::move(name), ParamType::Text, std::move(def), "",
                             std::move(description), m);
        s.textKind = kind;
        s.store = [member](void* pod, const ParamValue& v) {
            static_cast<Pod*>(pod)->*member = std::get<std::string>(v);
        };
        specs_.push_back(std::move(s));
        return *this;
    }
    ParamTable build() { return ParamTable(std::move(specs_)); }

private:
    static ParamSpec common(std::string group, std::string name, ParamType type, ParamValue def,
                            std::string unit, std::string description, Mutability m) {
        ParamSpec s;
        s.group = std::move(group);
        s.name = std::move(name);
        s.type = type;
        s.defaultValue = std::move(def);
        s.unit = std::move(unit);
        s.description = std::move(description);
        s.mutability = m;
        return s;
    }
    std::vector<ParamSpec> specs_;
};

}  // namespace cf
