// SPDX-License-Identifier: GPL-3.0-or-later
// Every bundled scenario (assets/scenarios/*.toml) loads with the real models, explains itself
// ([about]: a title, what it demonstrates, which paper it reproduces: the scenario browser and
// the docs show these) and has a thumbnail rendered by the app.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "sim/core/model.hpp"
#include "sim/core/scenario.hpp"

namespace cf {
namespace {

const std::filesystem::path kScenarios = CELLFORGE_ASSETS_DIR "/scenarios";

std::vector<std::filesystem::path> bundledScenarios() {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(kScenarios))
        if (e.path().extension() == ".toml") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

TEST(BundledScenarios, EachLoadsExplainsItselfAndHasAThumbnail) {
    const ModelRegistry registry = builtinModels();
    const auto files = bundledScenarios();
    ASSERT_GE(files.size(), 20u) << kScenarios;
    for (const auto& file : files) {
        SCOPED_TRACE(file.filename().string());
        const Scenario sc = loadScenario(file, registry);
        EXPECT_FALSE(sc.about.title.empty());
        EXPECT_FALSE(sc.about.demonstrates.empty());
        EXPECT_FALSE(sc.about.reproduces.empty());
        // Two lines in the browser: each is one sentence a reader takes in at a glance.
        EXPECT_LE(sc.about.demonstrates.size(), 160u);
        EXPECT_LE(sc.about.reproduces.size(), 160u);
        EXPECT_TRUE(
            std::filesystem::exists(kScenarios / "thumbnails" / (file.stem().string() + ".png")));
        const Scenario back = parseScenario(scenarioToToml(sc), "written", registry);
        EXPECT_EQ(back.about.title, sc.about.title);
        EXPECT_EQ(back.about.captions.size(), sc.about.captions.size());
    }
}

TEST(BundledScenarios, TheWelcomeScenarioTalksThroughItsRun) {
    const ModelRegistry registry = builtinModels();
    const Scenario sc = loadScenario(kScenarios / "welcome.toml", registry);
    ASSERT_GE(sc.about.captions.size(), 3u);
    EXPECT_EQ(sc.about.captions.front().step, 0u) << "the first caption shows at once";
    EXPECT_LT(sc.about.captions.back().step, sc.steps) << "every caption shows within the run";
}

}  // namespace
}  // namespace cf
