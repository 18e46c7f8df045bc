// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Scenario files (TOML): which model, seed, backend, parameters and output settings.
//
//   model = "brownian"
//   seed = 42
//   backend = "auto"          # auto | cpu | cuda
//   steps = 2000
//   [output]
//   dir = "out/brownian"
//   snapshot_every = 500      # steps between HDF5 snapshots (0 = none)
//   series_every = 10         # steps between CSV rows (0 = none)
//   checkpoint_every = 0      # steps between checkpoints (0 = only at the end)
//   [parameters.<group>]
//   <name> = <value>
//   [about]                   # optional: title, demonstrates, reproduces, [[about.captions]]
//
// Text parameters are TOML strings; multi-line text is written as a literal block
// ('''...''') so it reads as typed. A relative file path (TextKind::FilePath) is taken
// relative to the scenario file's directory and held absolute once loaded; written back
// relative where it lies under the directory the file is written to.
//
// Errors are ScenarioError with "file:line:column: message".
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/core/backend.hpp"
#include "sim/core/model.hpp"
#include "sim/core/params.hpp"

namespace cf {

struct OutputSettings {
    std::string dir = "out";
    std::uint64_t snapshotEvery = 0;
    std::uint64_t seriesEvery = 10;
    std::uint64_t checkpointEvery = 0;
};

// What a scenario shows, for the scenario browser, the welcome screen and the docs:
//   [about]
//   title = "One ring of gliding filaments"
//   demonstrates = "..."      # one line: what a viewer sees and learns
//   reproduces = "..."        # one line: the paper (and figure) it follows
//   steps_per_second = 60     # the pace the window plays it at (0 or absent: full speed)
//   at_end = "stop"           # at `steps` the window pauses ("stop", the default) or
//                             # starts the run again ("loop")
//   [[about.captions]]        # shown over the view from `step` on (the welcome tour)
//   step = 0
//   text = "..."
//   presentation = "..."      # optional: the wording in presentation mode, where the docks,
//                             # menus and toolbar are hidden
struct ScenarioCaption {
    std::uint64_t step = 0;
    std::string text;
    std::string presentation;  // empty: `text` in presentation mode too
    bool operator==(const ScenarioCaption&) const = default;
};
// What the window does when a run reaches the scenario's `steps`.
enum class ScenarioEnd { Stop, Loop };
std::string_view toString(ScenarioEnd end);
struct ScenarioAbout {
    std::string title;
    std::string demonstrates;
    std::string reproduces;
    std::vector<ScenarioCaption> captions;  // in increasing step order
    double stepsPerSecond = 0.0;
    ScenarioEnd atEnd = ScenarioEnd::Stop;
    bool empty() const {
        return title.empty() && demonstrates.empty() && reproduces.empty() && captions.empty() &&
               stepsPerSecond == 0.0 && atEnd == ScenarioEnd::Stop;
    }
    // The caption shown at `step`: the last one whose step is <= `step` (empty if none); in
    // presentation mode its presentation wording where it has one.
    std::string captionAt(std::uint64_t step, bool presenting = false) const;
};

struct Scenario {
    const ModelDescriptor* model = nullptr;
    std::uint32_t seed = 1;
    std::optional<Backend> backend;  // nullopt: the best available
    std::uint64_t steps = 1000;
    ParamSet parameters;
    OutputSettings output;
    ScenarioAbout about;
    std::string source;  // file name (or "<string>") the scenario came from

    explicit Scenario(const ModelDescriptor& m) : model(&m), parameters(m.parameters()) {}
};

// Throws InputFileError for a file that does not exist or cannot be read, ScenarioError
// ("file:line:column: ...") for what it says.
Scenario loadScenario(const std::filesystem::path& path, const ModelRegistry& registry);
// The scenario points into the registry (Scenario::model), so a temporary registry would
// leave it dangling: keep the registry alive as long as the scenario.
Scenario loadScenario(const std::filesystem::path& path, ModelRegistry&& registry) = delete;
// `baseDirectory`: what relative file paths are relative to (empty: left as written).
Scenario parseScenario(std::string_view text, const std::string& sourceName,
                       const ModelRegistry& registry,
                       const std::filesystem::path& baseDirectory = {});
Scenario parseScenario(std::string_view text, const std::string& sourceName,
                       ModelRegistry&& registry,
                       const std::filesystem::path& baseDirectory = {}) = delete;
// Full TOML text (every parameter, with units and ranges as comments); reads back equal.
// `directory`: where the file will be written; file paths under it are written relative
// to it (empty: as held).
std::string scenarioToToml(const Scenario& scenario, const std::filesystem::path& directory = {});

// Makes every relative, non-empty file-path parameter absolute against `baseDirectory`
// (e.g. the working directory for `--set io.file=x.csv`). Throws ParameterError if the
// result is too long.
void resolveFilePaths(ParamSet& parameters, const std::filesystem::path& baseDirectory);

}  // namespace cf
