// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/cli/model_commands.hpp"

#include <iostream>

#include "sim/cli/terminal.hpp"
#include "sim/core/errors.hpp"

namespace cf::cli {
namespace {

bool hasSubcommand(CLI::App& app, const std::string& name) {
    try {
        app.get_subcommand(name);
        return true;
    } catch (const CLI::OptionNotFound&) {
        return false;
    }
}

}  // namespace

void ModelCommandLines::addTo(CLI::App& app, const ModelRegistry& registry) {
    for (const ModelDescriptor& model : registry.all())
        for (const ModelCommand& command : model.commands) {
            if (hasSubcommand(app, command.name))
                throw Error("model '" + model.name + "' declares command '" + command.name +
                            "', which cellforge-sim already has");
            Entry& e = entries_.emplace_back();
            e.command = &command;
            e.sub = app.add_subcommand(command.name, command.summary);
            for (const CommandOption& o : command.options) {
                CLI::Option* option = nullptr;
                switch (o.kind) {
                    case CommandOption::Kind::Flag:
                        option = e.sub->add_flag("--" + o.name, e.args.flags[o.name], o.help);
                        break;
                    case CommandOption::Kind::Value:
                        option = e.sub->add_option("--" + o.name, e.args.values[o.name], o.help)
                                     ->expected(1)
                                     ->multi_option_policy(CLI::MultiOptionPolicy::Throw);
                        break;
                    case CommandOption::Kind::RepeatedValue:
                        option = e.sub->add_option("--" + o.name, e.args.values[o.name], o.help);
                        break;
                    case CommandOption::Kind::Positional:
                        // One word each: without allow_extra_args(false) the first positional
                        // (a vector underneath) swallowed the second ("IN: At Most 1 required
                        // but received 2" for cellml2cfm IN OUT).
                        option = e.sub->add_option(o.name, e.args.values[o.name], o.help)
                                     ->expected(1)
                                     ->allow_extra_args(false);
                        break;
                }
                if (o.required) option->required();
                if (!o.choices.empty()) option->check(CLI::IsMember(o.choices));
            }
        }
}

std::optional<int> ModelCommandLines::runChosen(const CLI::App& app) const {
    for (const Entry& e : entries_)
        if (app.got_subcommand(e.sub)) {
            CommandStreams io{std::cout, std::cerr, stderrIsTerminal()};
            return e.command->run(e.args, io);
        }
    return std::nullopt;
}

}  // namespace cf::cli
