// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include "sim/core/scenario.hpp"
#include "tests/support/counter_model.hpp"

namespace cf {
namespace {

ModelRegistry registry() {
    ModelRegistry r;
    r.add(test::counterDescriptor());
    return r;
}

// Expects a ScenarioError whose message starts with "file:line:column:" and contains `text`.
void expectError(const std::string& toml, int line, int column, const std::string& text) {
    const ModelRegistry reg = registry();
    try {
        parseScenario(toml, "case.toml", reg);
        FAIL() << "expected ScenarioError for:\n" << toml;
    } catch (const ScenarioError& e) {
        const std::string msg = e.what();
        const std::string where =
            "case.toml:" + std::to_string(line) + ":" + std::to_string(column) + ":";
        EXPECT_EQ(msg.rfind(where, 0), 0u) << msg;
        EXPECT_NE(msg.find(text), std::string::npos) << msg;
    }
}

TEST(Scenario, ReadsEverySection) {
    const ModelRegistry reg = registry();
    const Scenario sc = parseScenario(R"(model = "counter"
seed = 7
backend = "cpu"
steps = 250
[output]
dir = "out/x"
snapshot_every = 50
series_every = 5
checkpoint_every = 100
[parameters.dynamics]
rate = 0.5
[parameters.system]
size = 9
)",
                                      "s.toml", reg);
    EXPECT_EQ(sc.model->name, "counter");
    EXPECT_EQ(sc.seed, 7u);
    ASSERT_TRUE(sc.backend.has_value());
    EXPECT_EQ(*sc.backend, Backend::Cpu);
    EXPECT_EQ(sc.steps, 250u);
    EXPECT_EQ(sc.output.dir, "out/x");
    EXPECT_EQ(sc.output.snapshotEvery, 50u);
    EXPECT_EQ(sc.output.seriesEvery, 5u);
    EXPECT_EQ(sc.output.checkpointEvery, 100u);
    EXPECT_EQ(sc.parameters.real("dynamics.rate"), 0.5);
    EXPECT_EQ(sc.parameters.integer("system.size"), 9);
}

TEST(Scenario, BackendAutoMeansBestAvailable) {
    const ModelRegistry reg = registry();
    EXPECT_FALSE(parseScenario("model = \"counter\"\nbackend = \"auto\"\n", "a", reg).backend);
}

TEST(Scenario, SyntaxErrorHasLineAndColumn) {
    expectError("model = \"counter\"\nseed = = 3\n", 2, 8, "");
}

TEST(Scenario, UnknownTopLevelKey) {
    expectError("model = \"counter\"\n\nsteeps = 10\n", 3, 1, "unknown key 'steeps'");
}

TEST(Scenario, UnknownParameterListsAllowedNames) {
    expectError("model = \"counter\"\n[parameters.dynamics]\nrat = 1\n", 3, 1, "allowed: rate");
}

TEST(Scenario, UnknownParameterGroup) {
    expectError("model = \"counter\"\n[parameters.physics]\nrate = 1\n", 2, 13,
                "unknown key 'physics'");
}

TEST(Scenario, WrongTypeNamesKeyAndType) {
    expectError("model = \"counter\"\nseed = \"seven\"\n", 2, 8, "'seed' must be an integer");
    expectError("model = \"counter\"\n[parameters.system]\nsize = 2.5\n", 3, 8,
                "expects a integer");
    expectError("model = \"counter\"\n[parameters.dynamics]\nrate = true\n", 3, 8, "dynamics.rate");
}

TEST(Scenario, OutOfRangeParameterNamesRange) {
    expectError("model = \"counter\"\n[parameters.dynamics]\nrate = 101.0\n", 3, 8, "[-100, 100]");
}

TEST(Scenario, UnknownModelListsKnownOnes) {
    expectError("model = \"countr\"\n", 1, 9, "known models: counter");
}

TEST(Scenario, MissingModel) {
    expectError("seed = 1\n", 1, 1, "missing required key 'model'");
}

TEST(Scenario, NegativeSeedAndBadBackend) {
    expectError("model = \"counter\"\nseed = -1\n", 2, 8, "out of range");
    expectError("model = \"counter\"\nbackend = \"gpu\"\n", 2, 11, "\"cpu\" or \"cuda\"");
}

TEST(Scenario, TomlRoundTrip) {
    const ModelRegistry reg = registry();
    Scenario sc = parseScenario("model = \"counter\"\nseed = 3\n", "a", reg);
    sc.parameters.set("dynamics.rate", 0.1);
    sc.parameters.set("debug.poison", true);
    sc.output.snapshotEvery = 17;
    const Scenario back = parseScenario(scenarioToToml(sc), "b", reg);
    EXPECT_TRUE(back.parameters == sc.parameters) << scenarioToToml(sc);
    EXPECT_EQ(back.seed, 3u);
    EXPECT_EQ(back.output.snapshotEvery, 17u);
}

TEST(Scenario, MissingFileIsScenarioError) {
    EXPECT_THROW(loadScenario("/nonexistent/x.toml", registry()), ScenarioError);
}

}  // namespace
}  // namespace cf
