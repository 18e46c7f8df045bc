// SPDX-License-Identifier: GPL-3.0-or-later
// Stratification metrics (sim/models/epidermis/stratification.hpp) on constructed tissues,
// through Model::restore and metrics() on every backend, and the growth test's cut
// (growth_rule.hpp). The tissues are exact constructions, so the layer counts are exact.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "sim/models/epidermis/growth_rule.hpp"
#include "tests/sim/models/epidermis_test_support.hpp"

namespace cf::test::epi {
namespace {

// One cell: 20 elements on a small cube around (x, y, z); `adhesive` lowest ones of type 1.
CellSpec cellAt(float x, float y, float z, int adhesive = 0) {
    CellSpec c;
    for (int e = 0; e < 20; ++e) {
        const float dx = 0.08f * static_cast<float>(e % 3 - 1);
        const float dy = 0.08f * static_cast<float>((e / 3) % 3 - 1);
        const float dz = 0.04f * static_cast<float>(e / 9) - 0.04f;  // -0.04, 0, 0.04
        c.pos.push_back({x + dx, y + dy, z + dz});
    }
    c.type.assign(20, 0);
    for (int e = 0; e < adhesive; ++e)
        c.type[static_cast<std::size_t>(e)] = 1;  // elements 0.. are among the lowest
    return c;
}

// `layers` stacked square sheets of 10 x 10 cells at pitch 0.6 on a periodic 6 x 6 domain;
// sheet k sits at height base + k * spacing, jittered by +-jitter (deterministic), and
// `tilt` raises the whole tissue linearly along x (height change over the domain).
std::vector<CellSpec> tissue(int layers, float base, float spacing, float jitter = 0.0f,
                             float tilt = 0.0f) {
    std::vector<CellSpec> cells;
    for (int k = 0; k < layers; ++k)
        for (int j = 0; j < 10; ++j)
            for (int i = 0; i < 10; ++i) {
                // Upper sheets sit over the gaps of the one below, as stacked cells do.
                const float x = 0.3f + 0.6f * static_cast<float>(i) + 0.1f * static_cast<float>(k);
                const float y = 0.3f + 0.6f * static_cast<float>(j) + 0.1f * static_cast<float>(k);
                const float wobble = jitter * std::sin(static_cast<float>(7 * i + 13 * j + 5 * k));
                const float z = base + spacing * static_cast<float>(k) + wobble + tilt * x / 6.0f;
                cells.push_back(cellAt(std::fmod(x, 6.0f), y, z, k == 0 ? 5 : 0));
            }
    return cells;
}

class EpidermisLayers : public EpidermisFixture {
protected:
    void SetUp() override {
        EpidermisFixture::SetUp();
        set({"domain.periodic=true", "domain.size_x=6", "domain.size_y=6", "init.cells=1"});
    }
    std::unique_ptr<Model> restored(const std::vector<CellSpec>& cells) {
        auto m = make();
        m->reset(params, 1);
        m->restore(handMade(params, cells));
        return m;
    }
};

TEST_P(EpidermisLayers, OneTwoAndThreeLayersAreCountedExactly) {
    for (int layers = 1; layers <= 3; ++layers) {
        // Sheets 0.45 apart (a cell height), each rough by +-0.06.
        auto m = restored(tissue(layers, 0.25f, 0.45f, 0.06f));
        SCOPED_TRACE("tissue of " + std::to_string(layers) + " layers");
        EXPECT_EQ(metric(*m, "layers"), layers);
        EXPECT_NEAR(metric(*m, "column_layers"), layers, 1e-9);
        EXPECT_EQ(metric(*m, "cells"), 100.0 * layers);
        EXPECT_EQ(metric(*m, "adherent_cells"), 100.0);
        EXPECT_EQ(metric(*m, "detached_cells"), 100.0 * (layers - 1));
        // The basal sheet touches the membrane (lowest element 0.25 - 0.06 - 0.04 < 0.35);
        // every upper sheet is off it.
        EXPECT_NEAR(metric(*m, "off_membrane_fraction"), (layers - 1) / double(layers), 1e-12);
    }
}

TEST_P(EpidermisLayers, ColumnsAreFoundOnOpenDomainsAndWideColumnsAlike) {
    // An open domain (the grid spans the cells' own extent) and columns too wide for the
    // grid's search on a 6 L period (pair by pair) count the same layers.
    for (const char* setting : {"domain.periodic=false", "analysis.column_radius=2.5"}) {
        set({"domain.periodic=true", "analysis.column_radius=0.3", setting});
        for (int layers = 1; layers <= 3; ++layers) {
            auto m = restored(tissue(layers, 0.25f, 0.45f, 0.06f));
            SCOPED_TRACE(std::string(setting) + ", " + std::to_string(layers) + " layers");
            EXPECT_EQ(metric(*m, "layers"), layers);
            EXPECT_NEAR(metric(*m, "column_layers"), layers, 1e-9);
        }
    }
}

TEST_P(EpidermisLayers, AMonolayerAcrossTheOldBinEdgeIsOneLayer) {
    // Centres straddle z = 0.5 (the edge of the former 0.5-high bins, which counted this
    // tissue as two layers): one layer.
    auto m = restored(tissue(1, 0.5f, 0.0f, 0.08f));
    EXPECT_EQ(metric(*m, "layers"), 1.0);
    EXPECT_NEAR(metric(*m, "column_layers"), 1.0, 1e-12);
}

TEST_P(EpidermisLayers, ATiltedTissueKeepsItsLayers) {
    // Two layers whose heights rise by 1.5 across the domain: fixed height bins would see
    // about five; columns see two.
    auto m = restored(tissue(2, 0.25f, 0.45f, 0.0f, 1.5f));
    EXPECT_EQ(metric(*m, "layers"), 2.0);
}

TEST_P(EpidermisLayers, APartialUpperLayerCountsWhereItCoversTenPercent) {
    std::vector<CellSpec> cells = tissue(1, 0.25f, 0.0f);
    // 12 cells of a second layer over one corner: their columns and the basal columns
    // under them are 2-layered, well over 10 % of the columns.
    for (int i = 0; i < 12; ++i)
        cells.push_back(cellAt(0.45f + 0.6f * static_cast<float>(i % 4),
                               0.45f + 0.6f * static_cast<float>(i / 4), 0.7f));
    auto m = restored(cells);
    EXPECT_EQ(metric(*m, "layers"), 2.0);
    const double mean = metric(*m, "column_layers");
    EXPECT_GT(mean, 1.1);
    EXPECT_LT(mean, 1.5);
    // Two cells above a 100-cell sheet cover under 10 % of the columns: still one layer.
    cells.resize(102);
    m = restored(cells);
    EXPECT_EQ(metric(*m, "layers"), 1.0);
}

INSTANTIATE_TEST_SUITE_P(AllBackends, EpidermisLayers, testing::ValuesIn(test::builtBackends()),
                         test::backendName);

// --- the growth test's cut ---------------------------------------------------------------

epidermis::EpidermisParams growthParams(const char* rule, double fraction, double threshold) {
    ParamSet params(epidermis::descriptor().parameters());
    params.setFromAssignment(std::string("growth.rule=") + rule);
    params.setFromAssignment("growth.fraction=" + std::to_string(fraction));
    params.setFromAssignment("growth.threshold=" + std::to_string(threshold));
    return epidermis::checkedParams(params);
}

std::vector<int> growing(const epidermis::EpidermisParams& p, const std::vector<float>& delta,
                         const std::vector<float>& neighbourMean = {}) {
    const epidermis::GrowthCut cut = epidermis::growthCut(p, delta);
    std::vector<int> out;
    for (std::size_t c = 0; c < delta.size(); ++c)
        if (epidermis::cellGrows(cut, delta[c], neighbourMean.empty() ? 0.0f : neighbourMean[c],
                                 static_cast<std::int32_t>(c)))
            out.push_back(static_cast<int>(c));
    return out;
}

TEST(EpidermisGrowthRule, LowestGrowsExactlyTheShareWithTheLowestDelta) {
    const std::vector<float> delta = {5, 1, 4, 1, 3, 9, 2, 8, 7, 6};
    EXPECT_EQ(growing(growthParams("lowest", 0.3, 0), delta), (std::vector<int>{1, 3, 6}));
    // Ties at the cut go by cell index: exactly round(0.2 * 10) = 2 cells.
    EXPECT_EQ(growing(growthParams("lowest", 0.2, 0), delta), (std::vector<int>{1, 3}));
    EXPECT_EQ(growing(growthParams("lowest", 0.1, 0), delta), (std::vector<int>{1}));
    EXPECT_TRUE(growing(growthParams("lowest", 0.0, 0), delta).empty());
    EXPECT_EQ(growing(growthParams("lowest", 1.0, 0), delta).size(), delta.size());
    // Identical cells (no network: every Delta 0): the first cells by index.
    EXPECT_EQ(growing(growthParams("lowest", 0.5, 0), std::vector<float>(4, 0.0f)),
              (std::vector<int>{0, 1}));
    // round(0.78 * 100) = 78 of 100 distinct values.
    std::vector<float> many(100);
    for (std::size_t i = 0; i < many.size(); ++i)
        many[i] = static_cast<float>((i * 37) % 100);
    EXPECT_EQ(growing(growthParams("lowest", 0.78, 0), many).size(), 78u);
}

TEST(EpidermisGrowthRule, AbsoluteAndLateralReadDeltaAsBefore) {
    const std::vector<float> delta = {5, 1, 4, 1, 3};
    EXPECT_EQ(growing(growthParams("absolute", 0.5, 3.0), delta), (std::vector<int>{1, 3}));
    EXPECT_EQ(growing(growthParams("lateral", 0.5, 0), delta, {6, 0, 4, 2, 4}),
              (std::vector<int>{0, 3, 4}));
}

}  // namespace
}  // namespace cf::test::epi
