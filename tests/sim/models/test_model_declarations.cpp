// SPDX-License-Identifier: GPL-3.0-or-later
// What every model declares for the people who read its numbers and pictures (issue 24):
// a time unit; a unit and a description for every parameter and every metric; metric names
// in the model's own words (species names, not indices "_1"); and category colours, one per
// label, that never repeat among the categories a model draws together (site types and
// species apart). Runs each model from a small bundled scenario on the CPU for a few steps.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "sim/core/model.hpp"
#include "sim/core/scenario.hpp"

namespace cf {
namespace {

const std::filesystem::path kScenarios = CELLFORGE_ASSETS_DIR "/scenarios";

// One or more bundled scenarios per model, chosen small (seconds on a CPU) and so that every
// kind of metric appears: lattice regions (conversion-cell), a species-named network
// (bimolecular), the spheres' substance (welcome), cardiac trace points (niederer).
const char* const kRuns[] = {
    "default", "epidermis-teaching", "lattice-bimolecular", "lattice-conversion-cell",
    "welcome", "cardiac-niederer",   "gliding-single-ring"};

struct BriefRun {
    std::string scenario;
    const ModelDescriptor* model;
    std::vector<Metric> metrics;
    ModelViews views;
    std::unique_ptr<Model> instance;  // keeps the views' arrays alive
};

BriefRun runBriefly(const std::string& name, const ModelRegistry& registry) {
    const Scenario sc = loadScenario(kScenarios / (name + ".toml"), registry);
    BriefRun r{name, sc.model, {}, {}, sc.model->create(Backend::Cpu)};
    r.instance->reset(sc.parameters, sc.seed);
    r.instance->advance(2);
    r.metrics = r.instance->metrics();
    r.views = r.instance->views();
    return r;
}

TEST(ModelDeclarations, EveryModelHasATimeUnitAndEveryParameterAUnitAndADescription) {
    const ModelRegistry registry = builtinModels();
    ASSERT_GE(registry.all().size(), 5u);
    for (const ModelDescriptor& d : registry.all()) {
        SCOPED_TRACE(d.name);
        EXPECT_FALSE(d.timeUnit.empty());
        // "1" is a dimensionless time, which the window shows as a bare number ("t = 11.3"):
        // every model names its time unit, the scaled ones too (epidermis T, gliding T).
        EXPECT_NE(d.timeUnit, "1");
        for (const ParamSpec& s : d.parameters().specs()) {
            SCOPED_TRACE(s.key());
            EXPECT_FALSE(s.description.empty());
            // Numbers carry a unit ("1" when dimensionless); a text (a file, a network) has
            // none to carry.
            if (s.type != ParamType::Text) {
                EXPECT_FALSE(s.unit.empty());
            }
        }
    }
}

TEST(ModelDeclarations, EveryMetricHasAUnitADescriptionAndTheModelsOwnNames) {
    const ModelRegistry registry = builtinModels();
    std::set<std::string> covered;
    // A raw index where the model has names: "_1", "count_2_membrane".
    const std::regex rawIndex("(^|_)[0-9]+(_|$)");
    for (const char* name : kRuns) {
        SCOPED_TRACE(name);
        const BriefRun r = runBriefly(name, registry);
        covered.insert(r.model->name);
        ASSERT_FALSE(r.metrics.empty());
        std::set<std::string> seen;
        for (const Metric& m : r.metrics) {
            SCOPED_TRACE(m.name);
            EXPECT_FALSE(m.unit.empty());
            EXPECT_GE(m.description.size(), 10u) << "a description a reader can use";
            EXPECT_FALSE(std::regex_search(m.name, rawIndex));
            EXPECT_TRUE(seen.insert(m.name).second) << "named twice";
        }
    }
    for (const ModelDescriptor& d : registry.all())
        EXPECT_TRUE(covered.count(d.name)) << d.name << " has no run here";
}

TEST(ModelDeclarations, LatticeMetricsUseTheSpeciesNames) {
    const BriefRun r = runBriefly("lattice-conversion-cell", builtinModels());
    std::set<std::string> names;
    for (const Metric& m : r.metrics)
        names.insert(m.name);
    // The scenario names its species A and B (the legend's labels).
    for (const char* want : {"count_A", "count_B", "count_A_membrane", "count_B_outside"})
        EXPECT_TRUE(names.count(want)) << want;
}

// Every category channel of a model, from all its clouds and volumes: what may be drawn
// together in one view (a cloud coloured by a category over volume slices of another).
struct Channel {
    std::string name;
    std::vector<std::string> labels;
    std::vector<CategoryColor> colors;
    bool firstClear;
};

std::vector<Channel> categoryChannels(const ModelViews& v) {
    std::vector<Channel> out;
    for (const PointCloudView& c : v.clouds)
        for (const CategoryChannel& k : c.categories)
            out.push_back({c.name + "/" + k.name, k.labels, k.colors, false});
    for (const VolumeView& vol : v.volumes)
        for (const VolumeCategoryChannel& k : vol.categories)
            out.push_back({vol.name + "/" + k.name, k.labels, k.colors, k.emptyTransparent});
    return out;
}

TEST(ModelDeclarations, CategoriesDrawnTogetherNeverShareAColour) {
    const ModelRegistry registry = builtinModels();
    int channels = 0;
    for (const char* name : kRuns) {
        SCOPED_TRACE(name);
        const BriefRun r = runBriefly(name, registry);
        std::map<CategoryColor, std::string> owner;  // colour -> the label drawn in it
        for (const Channel& c : categoryChannels(r.views)) {
            SCOPED_TRACE(c.name);
            ++channels;
            ASSERT_EQ(c.colors.size(), c.labels.size()) << "one declared colour per label";
            EXPECT_LE(c.colors.size(), 16u) << "the shaders hold 16 palette entries";
            // A see-through category 0 is drawn in no colour: its declared one may be anything.
            for (std::size_t i = c.firstClear ? 1 : 0; i < c.labels.size(); ++i) {
                const std::string who = c.name + " " + c.labels[i];
                const auto [it, fresh] = owner.emplace(c.colors[i], who);
                EXPECT_TRUE(fresh)
                    << who << " and " << it->second << " share colour " << std::hex << c.colors[i];
            }
        }
    }
    // epidermis state, lattice species + site type (twice), spheres clone (welcome).
    EXPECT_GE(channels, 6);
}

TEST(ModelDeclarations, LatticeOccupancyRangeFitsItsValues) {
    // The crowded-cell complaint: a 0-15 scale over values of 0 or 1 drew every slice in
    // the colour of 0. The declared top must be reached by real sites, and hold them all.
    const BriefRun r = runBriefly("lattice-conversion-cell", builtinModels());
    ASSERT_EQ(r.views.volumes.size(), 1u);
    const VolumeView& vol = r.views.volumes.front();
    for (const VolumeScalarChannel& s : vol.scalars) {
        SCOPED_TRACE(s.name);
        ASSERT_LT(s.rangeLo, s.rangeHi) << "a declared range";
        const std::vector<float> v = viewToHost(s.data, vol.voxelCount(), vol.space);
        std::size_t above = 0, atTop = 0;
        for (float x : v) {
            above += x > s.rangeHi;
            atTop += x >= s.rangeHi;
        }
        EXPECT_EQ(s.rangeLo, 0.0);
        EXPECT_GT(atTop, 0u) << "no site reaches the top: the scale is too wide";
        // Poisson tail past m + 3 sqrt(m): well under 1 % of the sites.
        EXPECT_LT(static_cast<double>(above), 0.01 * static_cast<double>(v.size()));
    }
}

}  // namespace
}  // namespace cf
