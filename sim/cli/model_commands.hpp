// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The sub-commands models declare (ModelDescriptor::commands, sim/core/model_command.hpp),
// built into the CLI from their declarations: options, choices and help.
#include <CLI/CLI.hpp>
#include <list>
#include <optional>

#include "sim/core/model.hpp"

namespace cf::cli {

class ModelCommandLines {
public:
    // Adds one sub-command per declared command; throws Error when a name is already a
    // command of the program.
    void addTo(CLI::App& app, const ModelRegistry& registry);
    // Runs the chosen model command, if one was chosen: its exit status.
    std::optional<int> runChosen(const CLI::App& app) const;

private:
    struct Entry {
        const ModelCommand* command = nullptr;
        CLI::App* sub = nullptr;
        CommandArguments args;  // CLI11 writes into its maps (stable addresses)
    };
    std::list<Entry> entries_;
};

}  // namespace cf::cli
