// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The interface every model implements once per backend, and the descriptor a model
// registers (name, parameter table, factory, benchmark cases).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/core/backend.hpp"
#include "sim/core/model_command.hpp"
#include "sim/core/params.hpp"
#include "sim/core/snapshot.hpp"
#include "sim/core/views.hpp"

namespace cf {

// One scalar observable. Models name metrics with their own names (species names, not
// indices), say in the name when a count is cumulative ("_total") or per step ("_step"), and
// give every metric a unit ("1" when dimensionless) and a one-line description for tooltips
// and exports (tests/sim/models/test_model_declarations.cpp checks every bundled model).
struct Metric {
    std::string name;
    std::string unit;
    double value = 0.0;
    std::string description;
};

class Model {
public:
    virtual ~Model() = default;

    virtual Backend backend() const = 0;

    // Builds the initial state from the parameters and the seed; the step counter is 0.
    // Structural parameters take effect only here.
    virtual void reset(const ParamSet& params, std::uint32_t seed) = 0;

    // Applies the live parameters of `params` from the next step on. Structural values
    // in `params` are ignored (the Runner keeps them pending until the next reset): a model
    // merges the edit with withLiveValues (the declarations say what is live) and derives
    // its struct from the merged set, never from a hand-kept list of fields. All or
    // nothing: a model that refuses the edit (throws) is exactly as before, on the host and
    // on the device. CUDA backends copy the new struct into their __constant__ block on the
    // model's stream, so kernels already queued keep the old values.
    virtual void setLiveParameters(const ParamSet& params) = 0;

    // Advances `steps` time steps. May return before the device has finished.
    virtual void advance(std::uint64_t steps) = 0;

    virtual std::uint64_t step() const = 0;
    virtual double time() const = 0;

    // Scalar observables for time series and the HUD (waits for the device).
    virtual std::vector<Metric> metrics() = 0;

    // Full state on the host: everything `restore` needs to continue bit-identically.
    virtual Snapshot snapshot() = 0;

    // Replaces the state by a snapshot taken from a model reset with the same parameters
    // and seed (checkpoint restart). Throws IoError when fields are missing or mis-sized.
    virtual void restore(const Snapshot& snapshot) = 0;

    // Throws SimulationError naming the step, entity and field of the first non-finite
    // value in the state.
    virtual void checkFinite() = 0;

    // Waits for queued device work (no-op on the CPU backend).
    virtual void synchronize() {}
    // Waits for live edits that take effect asynchronously and applies them now (the cardiac
    // model's CUDA backend compiles a new model text on a worker thread and switches at the
    // next advance() once it is ready). Views taken before are invalid afterwards.
    virtual void applyPendingEdits() {}

    // Arrays for drawing (see views.hpp). Models without views return none.
    virtual ModelViews views() { return {}; }
    // The parameter struct as the device's constant memory holds it now (read back after
    // the model's queued work): how tests see that a live edit reached the GPU. Host
    // backends return nothing.
    virtual std::vector<std::uint8_t> deviceParameterBlock() { return {}; }

    // The bytes of a plain parameter struct (for deviceParameterBlock()).
    template <typename Pod>
    static std::vector<std::uint8_t> bytesOf(const Pod& pod) {
        const auto* p = reinterpret_cast<const std::uint8_t*>(&pod);
        return std::vector<std::uint8_t>(p, p + sizeof pod);
    }

    // Messages for the user that the model raised since the last call (a capacity grew,
    // ...). Library code does not print: the Runner forwards these in its frames.
    std::vector<std::string> takeNotes() { return std::exchange(notes_, {}); }

protected:
    void note(std::string text) { notes_.push_back(std::move(text)); }

private:
    std::vector<std::string> notes_;
};

// Shared implementation of checkFinite over a host snapshot, for backends whose state is
// cheap to download or for the CPU backend.
void checkSnapshotFinite(const Snapshot& snapshot, const char* modelName);

struct BenchResult {
    std::string caseName;
    Backend backend = Backend::Cpu;
    std::uint64_t entities = 0;  // particles, sites, cells: what one step updates
    std::uint64_t stepsPerRepeat = 0;
    int repeats = 0;
    double medianSeconds = 0.0;  // per repeat
    double minSeconds = 0.0;
    double maxSeconds = 0.0;
    double stepsPerSecond() const { return medianSeconds > 0 ? stepsPerRepeat / medianSeconds : 0; }
    double entityStepsPerSecond() const { return stepsPerSecond() * static_cast<double>(entities); }
    std::string note;           // what bounds it, bytes moved per step, ...
    double bytesPerStep = 0.0;  // estimated device-memory traffic, 0 when unknown
    // Further figures of the case (a split by stage, a reference, a ratio), written to the
    // JSON under "extra" as name: value.
    std::vector<std::pair<std::string, double>> extra;
};

struct BenchOptions {
    int repeats = 10;
    double scale = 1.0;  // multiplies the case's problem size (quick runs use < 1)
};

struct BenchCase {
    std::string name;
    std::string description;
    std::function<BenchResult(Backend, const BenchOptions&)> run;
    bool runByDefault = true;  // false: only with --case NAME or --all (long or redundant)
    // The backends the case measures (a CPU-only baseline); empty: every backend.
    std::vector<Backend> onlyOn;
};

struct ModelDescriptor {
    std::string name;
    std::string description;
    std::string timeUnit = "s";  // unit of Model::time()
    const ParamTable& (*parameters)() = nullptr;
    // Throws Error when the backend is not available in this build or on this machine.
    std::function<std::unique_ptr<Model>(Backend)> create;
    std::vector<BenchCase> benchCases;
    // Backends the model implements (a model is written CPU first; CUDA follows).
    std::vector<Backend> backends = {Backend::Cpu, Backend::Cuda};
    // Why a CUDA backend the model has is not offered on this machine (cardiac without
    // NVRTC), for the message when CUDA is asked for; empty otherwise.
    std::string cudaUnavailableReason;
    // The checks across parameters that single ranges cannot express (a rate that breaks a
    // stability bound, a text that must parse, a file that must load): throws an InputError
    // (ParameterError; InputFileError, GeometryError for a file) naming it. Required: ModelRegistry
    // refuses a model without one (a model with no such constraints says so with an empty
    // function body). The Runner calls it on every candidate set before it commits an edit,
    // in the caller's thread (so a bad edit is refused at once) and again on the simulation
    // thread when other edits came first.
    std::function<void(const ParamSet&)> validate;
    // Models whose behaviour is itself text (the cardiac cell model), for a text editor:
    // the live Text parameter that holds an edited text, the text in effect for a parameter
    // set (with that parameter empty, e.g. a bundled model), and code generated from it for
    // display (the CUDA kernel). Both functions throw ParameterError as validate does.
    // Empty `parameter`: the model has none.
    struct EditableText {
        std::string parameter;
        std::string language;  // for the editor's title, e.g. "cell model (.cfm)"
        std::function<std::string(const ParamSet&)> current;
        std::function<std::string(const ParamSet&)> generated;
    };
    EditableText editableText;
    // Commands the model adds to cellforge-sim (cardiac: `nversion`, `cellml2cfm`); names
    // are unique across the registry.
    std::vector<ModelCommand> commands;
    bool offers(Backend b) const;
};

// A model's backend factories, for ModelDescriptor::create: the CPU one always, the CUDA
// one only in CUDA builds (CF_CUDA_FACTORY(makeCudaModel) is null without nvcc).
using ModelFactory = std::unique_ptr<Model> (*)();
#if CELLFORGE_HAVE_CUDA
#define CF_CUDA_FACTORY(factory) (&(factory))
#else
#define CF_CUDA_FACTORY(factory) (static_cast<::cf::ModelFactory>(nullptr))
#endif
// Creates `model` on `backend`; throws Error naming the model when CUDA is unavailable in
// this build or on this machine.
std::unique_ptr<Model> createOnBackend(const std::string& model, Backend backend, ModelFactory cpu,
                                       ModelFactory cuda);

// The backend to run `model` on: the requested one (an error naming the model when it
// does not offer it), else the scenario's preference, else the best available one the
// model offers.
Backend resolveModelBackend(const ModelDescriptor& model,
                            const std::optional<std::string>& requested,
                            std::optional<Backend> preferred);

// An explicit, owned registry (not a process global): applications build one with
// builtinModels() and tests may build their own with test doubles.
class ModelRegistry {
public:
    void add(ModelDescriptor descriptor);
    const ModelDescriptor* find(std::string_view name) const;
    // Throws ScenarioError listing the known names.
    const ModelDescriptor& at(std::string_view name) const;
    const std::vector<ModelDescriptor>& all() const { return models_; }

private:
    std::vector<ModelDescriptor> models_;
};

// Every model that ships with Cellforge.
ModelRegistry builtinModels();

}  // namespace cf
