// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `cellforge-sim params --markdown [MODEL]`: the scenario-file reference as Markdown,
// generated from the models' parameter declarations (ParamSpec) so that it cannot drift
// from the code. docs/reference/scenario-file.md is this output for every model; the test
// docs_scenario_reference_current checks that the committed file is current.
#include <string>

#include "sim/core/model.hpp"

namespace cf::cli {

// Every model (empty `model`): a section on the scenario file itself, then one section per
// model. One model: that model's section only. Deterministic: no dates, no machine details.
// Throws ScenarioError for an unknown model name.
std::string parametersMarkdown(const ModelRegistry& registry, const std::string& model);

// One Markdown table cell: '|' escaped, line breaks as "<br>", and the characters that would
// start emphasis or an HTML tag escaped, so any description stays inside its cell as written.
std::string markdownCell(const std::string& text);

}  // namespace cf::cli
