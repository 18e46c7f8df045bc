// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A command a model adds to `cellforge-sim` (the cardiac model's `nversion` and
// `cellml2cfm`), declared with its descriptor (ModelDescriptor::commands). The CLI builds
// the sub-command, its options and its help from this declaration and calls `run`, so the
// CLI never includes a model's headers and a new model brings its own commands.
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace cf {

struct CommandOption {
    enum class Kind {
        Flag,           // --name, no value
        Value,          // --name VALUE, at most once
        RepeatedValue,  // --name VALUE, any number of times
        Positional      // VALUE in its place
    };
    Kind kind = Kind::Value;
    std::string name;  // "dx" for --dx; "IN" for a positional
    std::string help;  // with the unit and the default
    bool required = false;
    std::vector<std::string> choices;  // the values allowed, when not empty
};

// What the user gave, by option name (without dashes); values as typed.
class CommandArguments {
public:
    std::map<std::string, std::vector<std::string>> values;
    std::map<std::string, bool> flags;

    bool flag(const std::string& name) const;
    std::optional<std::string> text(const std::string& name) const;
    std::string text(const std::string& name, const std::string& fallback) const;
    // Numbers throw ParameterError naming the option and the text when a value is not one.
    double number(const std::string& name, double fallback) const;
    std::vector<double> numbers(const std::string& name) const;
};

// Where a command writes: its results (stdout) and its progress and per-run failures
// (stderr; `progressIsTerminal`: a terminal, where a progress line may be redrawn).
struct CommandStreams {
    std::ostream& out;
    std::ostream& progress;
    bool progressIsTerminal = false;
};

struct ModelCommand {
    std::string name;
    std::string summary;  // one line for `cellforge-sim --help`
    std::vector<CommandOption> options;
    // Returns the exit status (sim/core/exit_status.hpp); throws InputError for bad input,
    // which the CLI reports once and maps to its exit status.
    std::function<int(const CommandArguments&, CommandStreams&)> run;
};

}  // namespace cf
