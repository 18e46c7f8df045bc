// SPDX-License-Identifier: GPL-3.0-or-later
// Every live parameter of every model, edited through the Runner while a small version of a
// bundled scenario runs, on every backend:
//  - a refused value (outside the declaration: range, type, choice or text rules) throws in
//    the caller's thread and changes nothing: the parameters, the history, the device's
//    constant block and the state after the next steps are those of a run never edited;
//  - an accepted value is what the Runner reports as active, reaches the device's
//    __constant__ block (CUDA: Model::deviceParameterBlock changes), and changes the result
//    of the next steps (state, metrics or the views' layout) against the run without it.
// Tolerance: none. States are compared byte for byte, metrics exactly (the wall-clock stage
// times are not results and are left out); a run on one backend is deterministic
// (test_determinism), so any difference is the edit's.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "sim/core/scenario.hpp"
#include "sim/run/runner.hpp"
#include "tests/support/backends.hpp"

namespace cf {
namespace {

using namespace std::chrono_literals;

const std::filesystem::path kScenarios = CELLFORGE_ASSETS_DIR "/scenarios";

struct ModelCase {
    std::string model;     // the test's name
    std::string scenario;  // a bundled scenario, made small by `overrides`
    std::vector<std::string> overrides;
    std::uint64_t warmup = 0;  // steps before the edit
    std::uint64_t steps = 0;   // steps after it that must show its effect
    // Values to try for parameters a generic choice cannot make (texts in the model's own
    // language) or whose effect needs a large change, in order; the first the model accepts
    // is used.
    std::map<std::string, std::vector<std::string>> values;
    // Live parameters that the kernels do not read, so the device block stays as it is,
    // with the reason. Everything else must change the block on CUDA.
    std::map<std::string, std::string> hostOnly;
    // Live parameters whose effect this state cannot show in `steps`, with the reason. They
    // are still checked for everything else (refusal, active value, device block).
    std::map<std::string, std::string> unseen;
};

std::string readAsset(const std::string& relative) {
    std::ifstream in(std::filesystem::path(CELLFORGE_ASSETS_DIR) / relative, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The bundled Aliev-Panfilov model with its excitability k changed from 8 to 9.
std::string alievPanfilovWithK9() {
    std::string text = readAsset("models/aliev_panfilov.cfm");
    const std::string from = "param k = 8 ";
    const std::size_t at = text.find(from);
    if (at != std::string::npos) text.replace(at, from.size(), "param k = 9 ");
    return text;
}

// Small enough that ~60 edits run in seconds, large enough that every stage of the step runs
// (growth and divisions in spheres, the gene network and divisions in the epidermis,
// reactions of eight species in the lattice, a wave in the cardiac tissue, motors and flow
// in gliding).
std::vector<ModelCase> cases() {
    return {
        {"brownian", "default", {"system.count=400", "system.box=12"}, 3, 5, {}, {}, {}},
        {"spheres",
         "welcome",
         {},
         5,
         40,
         {{"mechanics.adherence", {"100"}},
          {"mechanics.max_displacement", {"0.001"}},
          {"capacity.max_cells", {"100000"}}},
         {},
         {{"mechanics.coincident_force",
           "acts only between cells with the same centre, which this state has none of"},
          {"mechanics.force_kernel",
           "the voxel kernel gives the thread-per-cell kernel's bits by design "
           "(test_spheres_cuda); the CPU has no such kernel"},
          {"capacity.max_cells",
           "a cap that stops the run when divisions would pass it (SpheresPopulation below "
           "refuses one under the population); set here above what 40 steps reach"}}},
        {"epidermis",
         "epidermis-network",
         // 36 cells at the scenario's density (100 on 6 x 6), so that they touch; a domain
         // this small takes the centre-culled pair search (the grid needs 3 cells of 1.9).
         {"init.cells=36", "domain.size_x=3.6", "domain.size_y=3.6",
          "mechanics.neighbor_method=center", "growth.enabled=true", "growth.interval=5",
          "growth.rule=absolute", "init.species_noise=0.5"},
         3,
         20,
         // A thin layer makes cells just above the adherent mean count as suprabasal; a
         // contact height above every element puts all cells on the membrane.
         {{"analysis.layer_height", {"0.02"}}, {"analysis.contact_height", {"2"}}},
         {},
         {{"mechanics.hard_z", "acts only on elements that reach the floor z = 0"},
          {"mechanics.neighbor_method",
           "the same forces through another pair search (test_epidermis compares them)"},
          {"growth.fraction",
           "read by growth.rule = lowest only; this state runs the absolute rule so that "
           "growth.threshold shows (test_epidermis_layers tests the share)"},
          {"analysis.column_radius",
           "a column of this one-layer patch holds its own cell at any radius up to the "
           "pitch; test_epidermis_layers counts stacked tissues"}}},
        {"lattice",
         "lattice-conversion-cell",
         {"lattice.nx=16", "lattice.ny=16", "lattice.nz=16", "species.count=8",
          "species.names=A, B, C, D, E, F, G, H", "species.n3=200", "species.n4=200",
          "species.n5=200", "species.n6=200", "species.n7=200", "species.n8=200", "species.d3=0.2",
          "species.d4=0.2", "species.d5=0.2", "species.d6=0.2", "species.d7=0.2", "species.d8=0.2"},
         3,
         20,
         {{"diffusion.rules", {"A: cytoplasm = 0.05"}},
          {"reactions.network", {"A -> B @ 0.9; B -> A @ 0.351"}}},
         {{"validation.check_counts", "a host check after each step (no kernel reads it)"}},
         {{"validation.check_counts",
           "a check that throws when a count changes, which a valid run never does"}}},
        {"gliding",
         "gliding-single-ring",
         {"grid.n=32", "grid.ninner=8", "output.profiles=true"},
         2,
         4,
         {{"fluid.iterations", {"3", "2"}}, {"filaments.advection_order", {"2"}}},
         {},
         {{"fluid.P0", "a Lagrange multiplier: by design no effect on the flow (its description)"},
          {"time.dt", "used with time.dt_mode = fixed; this case runs the CFL step"},
          {"time.growth_limit",
           "how much the CFL step may grow from one step to the next: no effect while the "
           "step is steady, as here"},
          {"filaments.advection_order",
           "only 1 is implemented: every other value is refused (the model's check)"}}},
        {"cardiac",
         "cardiac-aliev-panfilov",
         // The pulses (at 5 and 7 ms, from a corner, so the wave is not plane) fall between the
         // accepted edit at step 220 (4.4 ms) and the comparison at step 520 (10.4 ms); the
         // fibres conduct twice as fast as across them.
         {"tissue.nx=24", "tissue.ny=24", "tissue.diffusion_trans=0.1", "protocol.start=5",
          "protocol.region=corner", "protocol.region_size=2", "protocol.cycle_length=2",
          "protocol.beats=2"},
         20,
         300,
         {{"model.source", {alievPanfilovWithK9()}},
          {"model.parameters", {"k = 9"}},
          {"views.states", {"v"}},
          {"trace.points", {"probe 1 1 0"}}},
         {{"views.states", "which states the host packs into views"},
          {"trace.points", "where the host reads the potential for the traces"}},
         {}},
    };
}

// gtest names a failing case by this instead of its bytes.
void PrintTo(const ModelCase& c, std::ostream* os) {
    *os << c.model;
}

// What the next steps produce: the state, the metrics (without wall-clock times), the views'
// layout (names of clouds, volumes and their channels) and the volumes' voxels (views a
// parameter chooses, like the gliding flow profile's row).
struct Outcome {
    Snapshot state;
    std::vector<std::pair<std::string, double>> metrics;
    std::vector<std::string> views;
    std::vector<std::vector<std::uint8_t>> voxels;  // bytes: NaN (not yet) equals itself
    std::vector<std::uint8_t> deviceBlock;
};

Outcome outcomeOf(Runner& r) {
    Outcome o;
    r.withModel([&](Model& m) {
         m.applyPendingEdits();
         o.state = m.snapshot();
         for (const Metric& x : m.metrics())
             if (x.name.rfind("time ", 0) != 0) o.metrics.emplace_back(x.name, x.value);
         const ModelViews v = m.views();
         for (const PointCloudView& c : v.clouds) {
             o.views.push_back("cloud " + c.name);
             for (const ScalarChannel& s : c.scalars)
                 o.views.push_back("  " + s.name);
         }
         for (const VolumeView& vol : v.volumes) {
             o.views.push_back("volume " + vol.name);
             for (const VolumeScalarChannel& s : vol.scalars) {
                 o.views.push_back("  " + s.name);
                 const std::vector<float> values = viewToHost(s.data, vol.voxelCount(), vol.space);
                 const auto* bytes = reinterpret_cast<const std::uint8_t*>(values.data());
                 o.voxels.emplace_back(bytes, bytes + values.size() * sizeof(float));
             }
             for (const VolumeCategoryChannel& s : vol.categories)
                 o.views.push_back("  " + s.name);
         }
         o.deviceBlock = m.deviceParameterBlock();
     }).get();
    return o;
}

bool sameState(const Snapshot& a, const Snapshot& b) {
    if (a.step != b.step || a.fields.size() != b.fields.size()) return false;
    for (std::size_t i = 0; i < a.fields.size(); ++i)
        if (a.fields[i].name != b.fields[i].name || a.fields[i].bytes != b.fields[i].bytes)
            return false;
    return true;
}

// Exactly equal, a metric that is not a number yet (no beat measured) equal to itself.
bool sameMetrics(const std::vector<std::pair<std::string, double>>& a,
                 const std::vector<std::pair<std::string, double>>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const bool bothNan = std::isnan(a[i].second) && std::isnan(b[i].second);
        if (a[i].first != b[i].first || (a[i].second != b[i].second && !bothNan)) return false;
    }
    return true;
}

void advance(Runner& r, std::uint64_t steps) {
    r.stepBy(steps).get();
    ASSERT_TRUE(r.waitUntilIdle(120s));
    if (r.error()) std::rethrow_exception(r.error());
}

// A value the declaration refuses, of every type.
ParamValue refusedValue(const ParamSpec& s) {
    switch (s.type) {
        case ParamType::Real:
            return std::isfinite(s.max) ? s.max + std::abs(s.max) + 1.0 : std::nan("");
        case ParamType::Integer:
            return static_cast<std::int64_t>(s.max) + 1;
        case ParamType::Boolean:
            return std::string("maybe");
        case ParamType::Choice:
            return std::string("no-such-choice");
        case ParamType::Text:
            return std::string("a control character \x01 in text");
    }
    return {};
}

// Candidate new values for `s`, given its value now, most likely to be accepted first.
std::vector<ParamValue> candidates(const ParamSpec& s, const ParamValue& now, const ModelCase& c) {
    std::vector<ParamValue> out;
    if (auto it = c.values.find(s.key()); it != c.values.end()) {
        for (const std::string& v : it->second)
            out.push_back(parseValue(s, v));
        return out;
    }
    switch (s.type) {
        case ParamType::Real: {
            const double x = std::get<double>(now);
            for (double f : {0.5, 2.0, 0.9, 1.1})
                if (x != 0.0) out.emplace_back(x * f);
            for (double f : {0.1, 0.5, 0.01, 1.0})
                out.emplace_back(s.min + f * (std::min(s.max, s.min + 1.0e3) - s.min));
            break;
        }
        case ParamType::Integer: {
            const std::int64_t i = std::get<std::int64_t>(now);
            for (std::int64_t v : {i + 1, i - 1, 2 * i, i / 2, i + 10})
                out.emplace_back(v);
            break;
        }
        case ParamType::Boolean:
            out.emplace_back(!std::get<bool>(now));
            break;
        case ParamType::Choice:
            for (const std::string& choice : s.choices)
                out.emplace_back(choice);
            break;
        case ParamType::Text:
            break;
    }
    return out;
}

class LiveParameters : public testing::TestWithParam<std::tuple<ModelCase, Backend>> {
protected:
    void SetUp() override {
        CF_REQUIRE_BACKEND(backend());
        loaded_.emplace(loadScenario(kScenarios / (c().scenario + ".toml"), registry_));
        for (const std::string& a : c().overrides)
            loaded_->parameters.setFromAssignment(a);
        if (!loaded_->model->offers(backend()))
            GTEST_SKIP() << c().model << " has no " << toString(backend()) << " backend";
    }
    const ModelCase& c() const { return std::get<0>(GetParam()); }
    Backend backend() const { return std::get<1>(GetParam()); }
    std::unique_ptr<Runner> runner() {
        auto r = std::make_unique<Runner>(*loaded_->model, backend(), loaded_->parameters,
                                          loaded_->seed);
        r->setStepsPerBatch(1000);
        return r;
    }
    // The first candidate that the declaration and the model's check accept, differing from
    // the value now.
    std::optional<ParamValue> acceptedValue(const ParamSpec& s) {
        const ParamValue now = loaded_->parameters.get(s.key());
        for (const ParamValue& v : candidates(s, now, c())) {
            try {
                ParamSet candidate = loaded_->parameters;
                candidate.set(s.key(), v);
                loaded_->model->validate(candidate);
                if (candidate.get(s.key()) != now) return candidate.get(s.key());
            } catch (const Error&) {
            }
        }
        return std::nullopt;
    }

    ModelRegistry registry_ = builtinModels();
    std::optional<Scenario> loaded_;
};

TEST_P(LiveParameters, EveryLiveEditTakesEffectAndEveryRefusedOneChangesNothing) {
    const std::uint64_t w = c().warmup;
    const std::uint64_t n = c().steps;
    // The run never edited, at the two points the edited runs are compared.
    auto plain = runner();
    advance(*plain, w);
    const std::vector<std::uint8_t> blockAtWarmup = outcomeOf(*plain).deviceBlock;
    advance(*plain, n);
    const Outcome plainAfterN = outcomeOf(*plain);
    advance(*plain, n);
    const Outcome plainAfter2N = outcomeOf(*plain);
    plain.reset();
    if (backend() == Backend::Cuda) {
        ASSERT_FALSE(blockAtWarmup.empty()) << "the CUDA backend reads no constant block back";
    }

    int covered = 0, seen = 0;
    for (const ParamSpec& s : loaded_->model->parameters().specs()) {
        if (s.mutability != Mutability::Live) continue;
        SCOPED_TRACE(c().model + " " + s.key());
        const std::optional<ParamValue> value = acceptedValue(s);
        ASSERT_TRUE(value || c().unseen.contains(s.key()))
            << s.key() << ": no candidate value is accepted; add one to the case";

        auto r = runner();
        advance(*r, w);
        const ParamSet requestedBefore = r->parameters();
        const ParamSet activeBefore = r->activeParameters();
        // Refused in the caller's thread, with nothing changed anywhere.
        EXPECT_THROW(r->setParameter(s.key(), refusedValue(s)), ParameterError);
        EXPECT_TRUE(r->parameters() == requestedBefore);
        EXPECT_TRUE(r->activeParameters() == activeBefore);
        EXPECT_TRUE(r->history().empty());
        advance(*r, n);
        const Outcome afterRefusal = outcomeOf(*r);
        EXPECT_TRUE(sameState(afterRefusal.state, plainAfterN.state))
            << s.key() << ": a refused edit changed the state";
        EXPECT_TRUE(sameMetrics(afterRefusal.metrics, plainAfterN.metrics))
            << s.key() << ": a refused edit changed the metrics";

        ++covered;
        if (!value) continue;  // a parameter with one valid value so far (see `unseen`)

        // Accepted: active at once, on the device, and in the next steps' result.
        r->setParameter(s.key(), *value).get();
        EXPECT_EQ(r->activeParameters().get(s.key()), *value);
        ASSERT_EQ(r->history().size(), 1u);
        EXPECT_FALSE(r->history().front().pendingReset);
        const std::vector<std::uint8_t> block = outcomeOf(*r).deviceBlock;
        if (backend() == Backend::Cuda && !c().hostOnly.contains(s.key())) {
            EXPECT_NE(block, plainAfterN.deviceBlock)
                << s.key() << ": the edit did not reach the __constant__ block";
        }
        if (backend() == Backend::Cuda && c().hostOnly.contains(s.key())) {
            EXPECT_EQ(block, plainAfterN.deviceBlock)
                << s.key() << ": declared host-only, yet the constant block changed";
        }
        advance(*r, n);
        const Outcome edited = outcomeOf(*r);
        const bool differs = !sameState(edited.state, plainAfter2N.state) ||
                             !sameMetrics(edited.metrics, plainAfter2N.metrics) ||
                             edited.views != plainAfter2N.views ||
                             edited.voxels != plainAfter2N.voxels;
        if (!c().unseen.contains(s.key())) {
            EXPECT_TRUE(differs) << s.key() << " = " << summarizeValue(*value)
                                 << " changed nothing in " << n << " steps";
        }
        seen += differs ? 1 : 0;
    }
    std::printf(
        "[ covered  ] %s on %s: %d live parameters, %d of them changed the next %d "
        "steps\n",
        c().model.c_str(), std::string(toString(backend())).c_str(), covered, seen,
        static_cast<int>(n));
    EXPECT_GT(covered, 0);
}

// A refusal only the running model can make: a population cap below the cells there are.
// It arrives through the future (the caller's check cannot know the population) and changes
// nothing; the run goes on.
class SpheresPopulation : public testing::TestWithParam<Backend> {};

TEST_P(SpheresPopulation, ACapBelowThePopulationIsRefusedByTheModelAndChangesNothing) {
    CF_REQUIRE_BACKEND(GetParam());
    ModelRegistry registry = builtinModels();
    Scenario sc = loadScenario(kScenarios / "welcome.toml", registry);
    Runner plain(*sc.model, GetParam(), sc.parameters, sc.seed);
    Runner r(*sc.model, GetParam(), sc.parameters, sc.seed);
    advance(plain, 3);
    advance(r, 3);
    const Outcome before = outcomeOf(r);
    std::future<void> refused = r.setParameter("capacity.max_cells", std::int64_t{1});
    try {
        refused.get();
        FAIL() << "a cap of 1 cell was accepted";
    } catch (const ParameterError& e) {
        EXPECT_NE(std::string(e.what()).find("below the"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(r.parameters() == sc.parameters);
    EXPECT_TRUE(r.activeParameters() == sc.parameters);
    EXPECT_TRUE(r.history().empty());
    EXPECT_EQ(outcomeOf(r).deviceBlock, before.deviceBlock);
    advance(r, 10);
    advance(plain, 10);
    EXPECT_FALSE(r.error());
    EXPECT_TRUE(sameState(outcomeOf(r).state, outcomeOf(plain).state));
}

INSTANTIATE_TEST_SUITE_P(Backends, SpheresPopulation, testing::ValuesIn(test::builtBackends()),
                         test::backendName);

// The two edits the issue found poisoning a run: inside their own ranges, refused by the
// model's cross-parameter check. Refused at once, the run goes on as if never edited, the
// next valid edit takes and reset() works.
struct CrossCheckCase {
    std::string name, scenario;
    std::vector<std::string> overrides;
    std::string key;
    ParamValue refused, accepted;
};

void PrintTo(const CrossCheckCase& c, std::ostream* os) {
    *os << c.name;
}

class CrossParameterRefusal : public testing::TestWithParam<std::tuple<CrossCheckCase, Backend>> {};

TEST_P(CrossParameterRefusal, LeavesTheRunIntactAndTheNextEditAndResetWork) {
    const auto& [k, backend] = GetParam();
    CF_REQUIRE_BACKEND(backend);
    ModelRegistry registry = builtinModels();
    Scenario sc = loadScenario(kScenarios / (k.scenario + ".toml"), registry);
    for (const std::string& a : k.overrides)
        sc.parameters.setFromAssignment(a);
    Runner plain(*sc.model, backend, sc.parameters, sc.seed);
    Runner r(*sc.model, backend, sc.parameters, sc.seed);
    advance(r, 3);
    advance(plain, 3);
    const std::vector<std::uint8_t> block = outcomeOf(r).deviceBlock;
    try {
        r.setParameter(k.key, k.refused);
        FAIL() << k.key << " = " << formatValue(k.refused) << " was accepted";
    } catch (const ParameterError& e) {
        EXPECT_NE(std::string(e.what()).find(k.key), std::string::npos) << e.what();
    }
    EXPECT_TRUE(r.parameters() == sc.parameters);
    EXPECT_TRUE(r.activeParameters() == sc.parameters);
    EXPECT_TRUE(r.history().empty());
    EXPECT_EQ(outcomeOf(r).deviceBlock, block);
    advance(r, 5);
    advance(plain, 5);
    EXPECT_TRUE(sameState(outcomeOf(r).state, outcomeOf(plain).state));

    r.setParameter(k.key, k.accepted).get();
    EXPECT_EQ(r.activeParameters().get(k.key), k.accepted);
    advance(r, 5);
    EXPECT_EQ(r.latestFrame()->step, 13u);
    r.reset().get();
    EXPECT_EQ(r.latestFrame()->step, 0u);
    EXPECT_EQ(r.activeParameters().get(k.key), k.accepted);
    EXPECT_FALSE(r.error());
}

INSTANTIATE_TEST_SUITE_P(IssueCases, CrossParameterRefusal,
                         testing::Combine(testing::Values(
                                              // mobility x stiffness x dt = 5 must be below 1
                                              CrossCheckCase{"brownianDt",
                                                             "default",
                                                             {"system.count=400", "system.box=12"},
                                                             "dynamics.dt",
                                                             0.5,
                                                             0.05},
                                              // ratio_min must not exceed ratio_max
                                              CrossCheckCase{"spheresRatioMin",
                                                             "welcome",
                                                             {"init.count=60", "init.radius=60"},
                                                             "growth.ratio_min",
                                                             2.0,
                                                             0.8}),
                                          testing::ValuesIn(test::builtBackends())),
                         [](const testing::TestParamInfo<std::tuple<CrossCheckCase, Backend>>& i) {
                             std::string backend(toString(std::get<1>(i.param)));
                             backend[0] = static_cast<char>(std::toupper(backend[0]));
                             return std::get<0>(i.param).name + backend;
                         });

INSTANTIATE_TEST_SUITE_P(AllModels, LiveParameters,
                         testing::Combine(testing::ValuesIn(cases()),
                                          testing::ValuesIn(test::builtBackends())),
                         [](const testing::TestParamInfo<std::tuple<ModelCase, Backend>>& i) {
                             std::string backend(toString(std::get<1>(i.param)));
                             backend[0] = static_cast<char>(std::toupper(backend[0]));
                             return std::get<0>(i.param).model + backend;
                         });

}  // namespace
}  // namespace cf
