// SPDX-License-Identifier: GPL-3.0-or-later
// The scenario-file reference (docs/reference/scenario-file.md) generated from the code: the
// defaults of the top-level and [output] keys come from Scenario and OutputSettings, the
// example error from the scenario parser itself, and the tables from the ParamSpecs.
#include "sim/cli/params_markdown.hpp"

#include <sstream>

#include "sim/core/scenario.hpp"

namespace cf::cli {

namespace {

// A code span for a table cell. Inside a code span Markdown escapes do not apply, except
// "\|" in a table (GitHub's rule), so only '|' is escaped; a value holding a backtick gets a
// double-backtick fence.
std::string codeCell(const std::string& text) {
    std::string body;
    for (const char c : text) {
        if (c == '|') body += '\\';
        body += c;
    }
    const bool tick = text.find('`') != std::string::npos;
    const std::string fence = tick ? "``" : "`";
    const std::string pad = tick ? " " : "";
    return fence + pad + body + pad + fence;
}

std::string typeText(const ParamSpec& s) {
    if (s.type == ParamType::Text) return std::string(toString(s.textKind));
    return std::string(toString(s.type));
}

// The default as it reads in a scenario file: text on one line (summarizeValue escapes
// newlines and tabs) and cut, so a long network stays a table cell; the rest exactly.
std::string defaultText(const ParamSpec& s) {
    if (s.type == ParamType::Text) {
        if (std::get<std::string>(s.defaultValue).empty()) return "empty";
        return codeCell(summarizeValue(s.defaultValue, 60));
    }
    return codeCell(formatValue(s.defaultValue));
}

std::string unitText(const ParamSpec& s) {
    if (s.type != ParamType::Real && s.type != ParamType::Integer) return "-";
    return markdownCell(s.unit.empty() ? "1" : s.unit);
}

std::string rangeText(const ParamSpec& s) {
    switch (s.type) {
        case ParamType::Real:
            return "[" + formatValue(s.min) + ", " + formatValue(s.max) + "]";
        case ParamType::Integer:
            return "[" + formatValue(static_cast<std::int64_t>(s.min)) + ", " +
                   formatValue(static_cast<std::int64_t>(s.max)) + "]";
        case ParamType::Boolean:
            return "`true`, `false`";
        case ParamType::Choice: {
            std::string out;
            for (const std::string& c : s.choices)
                out += (out.empty() ? "" : ", ") + codeCell(c);
            return out;
        }
        case ParamType::Text:
            return s.textKind == TextKind::FilePath ? "one line" : "any text";
    }
    return "-";
}

// The model's description without what depends on the machine the generator runs on: the
// cardiac descriptor appends why CUDA is unavailable where the driver has no NVRTC, and the
// committed reference must not change with the machine that regenerates it.
std::string portableDescription(const ModelDescriptor& m) {
    const std::string& d = m.description;
    const auto cut = d.find(" (CUDA backend unavailable");
    return cut == std::string::npos ? d : d.substr(0, cut);
}

void modelSection(std::ostringstream& o, const ModelDescriptor& m) {
    std::string description = markdownCell(portableDescription(m));
    if (!description.empty() && description.back() != '.') description += '.';
    o << "## `" << m.name << "`\n\n" << description << "\n\n";
    o << "Time unit: " << (m.timeUnit == "1" ? "dimensionless" : markdownCell(m.timeUnit))
      << ". The same list in plain text: `cellforge-sim params " << m.name << "`.\n";
    const ParamTable& table = m.parameters();
    for (const std::string& group : table.groups()) {
        o << "\n### [parameters." << group << "]\n\n";
        o << "| name | type | default | unit | range / choices | applies | description |\n";
        o << "|---|---|---|---|---|---|---|\n";
        for (const ParamSpec& s : table.specs()) {
            if (s.group != group) continue;
            o << "| " << codeCell(s.name) << " | " << typeText(s) << " | " << defaultText(s)
              << " | " << unitText(s) << " | " << rangeText(s) << " | "
              << (s.mutability == Mutability::Live ? "live" : "structural") << " | "
              << markdownCell(s.description) << " |\n";
        }
    }
    o << "\n";
}

// The message the scenario parser gives for a misspelt key, so the example cannot drift.
std::string exampleError(const ModelRegistry& registry) {
    const std::string text =
        "model = \"" + registry.all().front().name + "\"\nsteps = 100\n\n[output]\nevery = 10\n";
    try {
        parseScenario(text, "my-run.toml", registry);
    } catch (const ScenarioError& e) {
        return e.what();
    }
    return "(no error)";
}

void scenarioFileSection(std::ostringstream& o, const ModelRegistry& registry) {
    const Scenario defaults(registry.all().front());
    const OutputSettings out;
    std::string models;
    for (const ModelDescriptor& m : registry.all())
        models += (models.empty() ? "" : ", ") + codeCell(m.name);
    const std::string first = registry.all().front().name;

    o << R"(# Scenario-file reference

A scenario file (TOML) says which model runs, with which parameters, for how many steps, and
what the run writes. `cellforge-sim run`, `cellforge-sim sweep`, `cellforge --headless` and the
window (File > Open) read it. This page is generated from the parameter declarations in the
code by `cellforge-sim params --markdown`; the test `docs_scenario_reference_current` fails
when it is out of date.

## The scenario file

```toml
model = ")"
      << first << R"("          # required
seed = 42
backend = "auto"            # auto | cpu | cuda
steps = 2000

[output]
dir = "out/)"
      << first << R"("
snapshot_every = 500        # steps between HDF5 snapshots (0 = none)
series_every = 10           # steps between rows of series.csv (0 = none)
checkpoint_every = 0        # steps between checkpoints (0 = only at the end)

[parameters.<group>]        # one table per parameter group of the model
<name> = <value>
```

Only `model` is required: every other key has a default, and a parameter that is not written
keeps the default listed in its model's tables below. Keys may come in any order.

### Top-level keys

| key | value | default | meaning |
|---|---|---|---|
| `model` | string | (required) | The model: )"
      << models << R"(. |
| `seed` | integer, 0 to 4294967295 | `)"
      << defaults.seed << R"(` | Seed of the model's random numbers. |
| `backend` | `"auto"`, `"cpu"` or `"cuda"` | `"auto"` | `auto`: CUDA where this build and machine have it and the model offers it, else the CPU. `cuda` where it is unavailable is an error. `--backend` overrides it. |
| `steps` | integer >= 0 | `)"
      << defaults.steps
      << R"(` | Steps to run, counted from step 0 (a run resumed from a checkpoint stops at the same step). `--steps` overrides it. |

### [output]

| key | value | default | meaning |
|---|---|---|---|
| `dir` | string | `")"
      << out.dir
      << R"("` | Output directory, created when missing. A relative path is relative to the working directory of the command, not to the scenario file. `--out` overrides it. |
| `snapshot_every` | integer >= 0 | `)"
      << out.snapshotEvery
      << R"(` | Steps between snapshots: `MODEL_000000500.h5` (HDF5) per snapshot and `MODEL.xmf` (XDMF, open it in ParaView; a model with particles and a grid adds `MODEL_grid.xmf`, see docs/reference/output-files.md); 0: none. `--every` overrides it. |
| `series_every` | integer >= 0 | `)"
      << out.seriesEvery
      << R"(` | Steps between rows of `series.csv` (time and the model's metrics); 0: none. |
| `checkpoint_every` | integer >= 0 | `)"
      << out.checkpointEvery
      << R"(` | Steps between writes of `checkpoint.cfchk`; 0: only at the end. A checkpoint is also written when the run ends or is interrupted (Ctrl-C); `cellforge-sim run --resume DIR/checkpoint.cfchk` continues from it. |

Every run also writes `scenario.toml` (the scenario as run, with every parameter, its range,
whether it is live and its description as comments; it reads back to the same scenario) and
`run.json` (status, backend, device, wall time, the command line, the parameters at the end
and every edit made while the run went on).

### [parameters.GROUP]

A model's parameters come in groups; `name = value` under `[parameters.GROUP]` sets the
parameter `GROUP.name`. The value's TOML type follows the parameter's type:

- **real**: a number (`0.001`, `1e-3`; an integer such as `2` is taken as `2.0`);
- **integer**: an integer (`2.0` is refused);
- **boolean**: `true` or `false`;
- **choice**: a string, one of those listed (`"lattice"`);
- **text**: a string. Multi-line text (a reaction network, a model's text) reads best as a
  literal block, `'''` on the line before and after, with no escapes. At most 65536 bytes of
  UTF-8, no control characters other than newline and tab;
- **file path**: a string on one line (below).

Every value is checked against its type and range as the file is read. An unknown key, group
or parameter, a value of the wrong type or out of range stops with the file, line and column
of the value and what is allowed (exit code 2), for example:

```
)" << exampleError(registry)
      << R"(
```

**Live or structural.** A *live* parameter may change while a model runs (in the window's
Parameters dock, or an edit recorded in `run.json`): it applies at the next step. A
*structural* one changes array sizes, geometry or the model itself: it applies at the next
reset. From a scenario file both apply from step 0.

### Relative file paths

A parameter of type *file path* (a cell model, a mesh, a data file) that is relative in a
scenario file is relative to the directory of that scenario file, so a scenario and its data
can move together. Given with `--set`, it is relative to the working directory of the
command. When a run writes `scenario.toml`, a path under the output directory is written
relative to it and any other path absolute.

### `--set group.name=value`

`cellforge-sim run` and `sweep` and `cellforge --headless` take `--set group.name=value`
(repeatable): after the file is read, it sets the parameter `name` of `[parameters.group]`,
in the order given, checked as in the file. So

```toml
[parameters.dynamics]
dt = 0.0005
```

and `--set dynamics.dt=0.0005` do the same. The value is plain text: a real as `0.0005` or
`5e-4`, an integer as `12`, a boolean as `true`, `false`, `1`, `0`, `on`, `off`, `yes` or
`no`, a choice or text as it is, without TOML quotes (quote it for the shell:
`--set 'model.parameters=k = 6'`). A misspelt name is refused with the closest known one.
`sweep --vary group.name=FROM:TO:COUNT` names parameters the same way.

### [about]

An optional `[about]` table describes the scenario for the scenario browser, the window and
the docs: `title`, `demonstrates` (one line: what the scenario shows) and `reproduces` (one
line: the paper or result it follows) are strings; `steps_per_second` (a number, 0 or absent:
full speed) is the pace the window plays it at; `at_end` says what the window does when a run
reaches the scenario's `steps`: `"stop"` (the default) pauses there with the message "Reached
the scenario's N steps" (Play then goes on past the end), `"loop"` starts the run again
(pending structural edits apply, as with a reset) and plays on; any other value is refused
with the file and line. Each `[[about.captions]]` entry holds a `step` (integer), a `text`
(string), shown across the bottom of the view from that step until the next caption's step
(steps in increasing order), and optionally `presentation` (a non-empty string): the wording
shown instead in presentation mode, which hides the docks, menus and toolbar a text may point
at. A scenario with captions starts playing when the window opens it; View > Scenario
captions hides them. None of this changes the results of a run; `cellforge-sim` ignores the
pace, the end and the captions (it runs `steps`).

## Models

Columns: *type* as above; *default* as it reads in a scenario file (text on one line, `\n`
for a line break, cut after 60 characters); *unit* of reals and integers (`1`:
dimensionless); *range / choices*: the inclusive range of a real or integer, the values of a
choice; *applies*: `live` (at the next step, also while a run goes on) or `structural` (at the
next reset).

)";
}

bool isWordChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

}  // namespace

std::string markdownCell(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') {
            out += "<br>";
        } else if (c == '\r') {
            continue;
        } else if (c == '|' || c == '*' || c == '`' || c == '\\' ||
                   (c == '_' && !(i > 0 && isWordChar(text[i - 1]) && i + 1 < text.size() &&
                                  isWordChar(text[i + 1])))) {
            // '_' inside a word ("fast_math") never starts emphasis and stays as it is.
            out += '\\';
            out += c;
        } else if (c == '<') {
            out += "&lt;";
        } else {
            out += c;
        }
    }
    return out;
}

std::string parametersMarkdown(const ModelRegistry& registry, const std::string& model) {
    std::ostringstream o;
    if (!model.empty()) {
        modelSection(o, registry.at(model));
        return o.str();
    }
    o << "<!-- SPDX-License-Identifier: GPL-3.0-or-later -->\n"
         "<!-- Generated by `cellforge-sim params --markdown`; do not edit. Regenerate with\n"
         "     build/cpu/sim/cli/cellforge-sim params --markdown > "
         "docs/reference/scenario-file.md -->\n";
    scenarioFileSection(o, registry);
    for (const ModelDescriptor& m : registry.all())
        modelSection(o, m);
    std::string text = o.str();
    text.pop_back();  // one newline at the end of the file
    return text;
}

}  // namespace cf::cli
