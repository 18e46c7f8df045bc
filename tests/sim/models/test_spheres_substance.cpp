// SPDX-License-Identifier: GPL-3.0-or-later
// `spheres` extracellular substance (substance.hpp, design note section 5) on every backend,
// against exact results of the discrete scheme:
//  - a closed box without decay keeps everything secreted: total = secretion dt N steps;
//  - a uniform field without sources decays as c0 (1 - decay dt/k)^(k n) in every voxel;
//  - the variance of a point release grows by exactly 2 D dt per axis per step (FTCS moment
//    identity: each substep adds 2 lambda h^2 = 2 D dt/k) until it reaches a wall;
//  - an isolated cell in a linear field moves dt x chemotaxis x gradient per step.
// Tolerances: the CPU reference is double (rounding ~1e-15 relative per operation, summed
// over <= 10^5 voxels: 1e-10); CUDA holds the field in float (6e-8 relative per operation,
// accumulated over a few hundred substeps: 1e-5, stated per test).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/models/spheres/spheres_model.hpp"
#include "tests/support/backends.hpp"
#include "tests/support/model_fixture.hpp"

namespace cf {
namespace {

using spheres::FieldGrid;
using spheres::HostState;
using test::metric;

std::vector<Backend> spheresBackends() {
    std::vector<Backend> out;
    const ModelDescriptor d = spheres::descriptor();
    for (Backend b : test::builtBackends())
        if (d.offers(b)) out.push_back(b);
    return out;
}

class SpheresSubstanceTest : public test::ModelFixture<&spheres::descriptor> {
protected:
    bool cuda() const { return GetParam() == Backend::Cuda; }
    double relTol() const { return cuda() ? 1e-5 : 1e-10; }
    // The model's state with its field replaced by value(x, y, z) at the voxel centres.
    template <typename F>
    void setField(Model& m, F value) {
        HostState s = spheres::readSnapshot(m.snapshot());
        const FieldGrid g = spheres::substanceGrid(s);
        for (int k = 0; k < g.n[2]; ++k)
            for (int j = 0; j < g.n[1]; ++j)
                for (int i = 0; i < g.n[0]; ++i)
                    s.substance[static_cast<std::size_t>(i + g.n[0] * (j + g.n[1] * k))] =
                        value(g.lo[0] + (i + 0.5) * g.h[0], g.lo[1] + (j + 0.5) * g.h[1],
                              g.lo[2] + (k + 0.5) * g.h[2]);
        m.restore(spheres::makeSnapshot(s));
    }
    static HostState state(Model& m) { return spheres::readSnapshot(m.snapshot()); }
};

TEST_P(SpheresSubstanceTest, ClosedBoxKeepsEverythingSecreted) {
    set({"init.layout=ball", "init.count=300", "init.radius=80", "growth.enabled=false",
         "substance.enabled=true", "substance.decay=0", "substance.diffusion=2000",
         "substance.secretion=3", "domain.margin=60"});
    auto m = make(4);
    const int steps = 40;
    m->advance(steps);
    const double expected = 3.0 * 0.01 * 300 * steps;  // secretion x dt x cells x steps
    const double total = metric(*m, "substance_total");
    std::printf("substance total after %d steps: %.9g (expected %.9g)\n", steps, total, expected);
    EXPECT_NEAR(total, expected, expected * relTol());
    EXPECT_GT(metric(*m, "mean_sensed"), 0.0);
}

TEST_P(SpheresSubstanceTest, UniformFieldDecaysExponentially) {
    set({"init.layout=lattice", "init.cells_per_axis=2", "growth.enabled=false",
         "substance.enabled=true", "substance.secretion=0", "substance.decay=3",
         "substance.diffusion=30000", "substance.voxel=25"});
    auto m = make(1);
    setField(*m, [](double, double, double) { return 2.5; });
    const int steps = 20;
    m->advance(steps);
    const HostState s = state(*m);
    const spheres::DiffusionPlan plan =
        spheres::planDiffusion(spheres::substanceGrid(s), 30000.0, 3.0, 0.01);
    ASSERT_GT(plan.substeps, 1);  // the test covers substepping
    const double expected = 2.5 * std::pow(1.0 - 3.0 * 0.01 / plan.substeps, plan.substeps * steps);
    for (double c : s.substance)
        ASSERT_NEAR(c, expected, expected * relTol());
    std::printf("%d substeps per step, c = %.9g after %d steps (exact %.9g)\n", plan.substeps,
                s.substance[0], steps, expected);
}

TEST_P(SpheresSubstanceTest, PointReleaseVarianceGrowsByTwoDdtPerStep) {
    // One cell at the origin releases once; then diffusion alone. D = 1e4 um^2/h, dt 0.01 h,
    // voxel 20 um: 2 substeps of lambda 0.125; after m steps the field reaches 2m voxels,
    // less than the 24 voxels to the nearest wall (margin 500).
    set({"init.layout=lattice", "init.cells_per_axis=1", "growth.enabled=false",
         "substance.enabled=true", "substance.decay=0", "substance.diffusion=10000",
         "substance.secretion=100", "domain.margin=500"});
    auto m = make(1);
    m->advance(1);
    params.setFromAssignment("substance.secretion=0");
    m->setLiveParameters(params);
    auto variance = [](const HostState& s, int axis) {
        const FieldGrid g = spheres::substanceGrid(s);
        double mass = 0, mean = 0, second = 0;
        for (std::size_t v = 0; v < s.substance.size(); ++v) {
            const std::size_t at[3] = {v % g.n[0], (v / g.n[0]) % g.n[1], v / (g.n[0] * g.n[1])};
            const double x = g.lo[axis] + (static_cast<double>(at[axis]) + 0.5) * g.h[axis];
            mass += s.substance[v];
            mean += s.substance[v] * x;
            second += s.substance[v] * x * x;
        }
        mean /= mass;
        return second / mass - mean * mean;
    };
    const HostState released = state(*m);
    EXPECT_NEAR(variance(released, 0), 0.0, 1e-6);
    const int steps = 10;
    m->advance(steps);
    const HostState spread = state(*m);
    for (int axis = 0; axis < 3; ++axis) {
        const double grown = variance(spread, axis) - variance(released, axis);
        // CUDA: float field, the variance is a difference of sums over ~10^4 voxels: 1e-4.
        EXPECT_NEAR(grown, 2.0 * 10000.0 * 0.01 * steps, 2000.0 * (cuda() ? 1e-4 : 1e-10))
            << "axis " << axis;
        if (axis == 0) std::printf("variance grew by %.9g um^2 (exact 2000)\n", grown);
    }
}

TEST_P(SpheresSubstanceTest, IsolatedCellClimbsALinearGradient) {
    // No neighbours, so no force: the move is dt x chemotaxis x grad c exactly, every step.
    set({"init.layout=lattice", "init.cells_per_axis=1", "growth.enabled=false",
         "substance.enabled=true", "substance.decay=0", "substance.diffusion=0",
         "substance.secretion=0", "substance.chemotaxis=20000", "domain.margin=200"});
    auto m = make(1);
    const double g = 1e-3;  // 1/um^4 along x
    setField(*m, [g](double x, double, double) { return 1.0 + g * x; });
    const int steps = 10;
    m->advance(steps);
    const HostState s = state(*m);
    const double expected = 0.01 * 20000.0 * g * steps;  // 2 um along +x
    // CUDA: the gradient is a float difference of values near 1 over 40 um: ~3e-6 relative.
    EXPECT_NEAR(s.x[0], expected, expected * (cuda() ? 1e-4 : 1e-10));
    EXPECT_NEAR(s.y[0], 0.0, 1e-9);
    EXPECT_NEAR(s.z[0], 0.0, 1e-9);
    std::printf("cell moved %.9g um up the gradient (exact %.9g)\n", s.x[0], expected);
}

TEST_P(SpheresSubstanceTest, ViewsAndSnapshotCarryTheField) {
    set({"init.layout=ball", "init.count=100", "init.radius=60", "growth.enabled=false",
         "substance.enabled=true", "domain.margin=40"});
    auto m = make(3);
    m->advance(5);
    const HostState s = state(*m);
    const FieldGrid g = spheres::substanceGrid(s);
    const ModelViews v = m->views();
    m->synchronize();
    ASSERT_EQ(v.volumes.size(), 1u);
    const VolumeView& vol = v.volumes[0];
    EXPECT_EQ(vol.name, "substance");
    for (int a = 0; a < 3; ++a) {
        EXPECT_EQ(vol.dims[a], g.n[a]);
        EXPECT_LE(g.h[a], 20.0);
    }
    ASSERT_EQ(vol.scalars.size(), 1u);
    EXPECT_EQ(vol.scalars[0].unit, "1/um^3");
    auto hostCopy = [](const float* data, std::size_t n, MemorySpace space) {
        std::vector<float> out(n);
        copyViewToHost(data, out.data(), n * sizeof(float), space);
        return out;
    };
    const std::vector<float> field = hostCopy(vol.scalars[0].data, s.substance.size(), vol.space);
    for (std::size_t k = 0; k < s.substance.size(); ++k)
        ASSERT_EQ(field[k], static_cast<float>(s.substance[k]));
    const PointCloudView& cells = v.clouds[0];
    const ScalarChannel* sensed = nullptr;
    for (const ScalarChannel& c : cells.scalars)
        if (c.name == "sensed") sensed = &c;
    ASSERT_NE(sensed, nullptr);
    const std::vector<float> sensedValues = hostCopy(sensed->data, s.size(), cells.space);
    for (std::size_t i = 0; i < s.size(); ++i)
        EXPECT_EQ(sensedValues[i],
                  static_cast<float>(s.substance[spheres::voxelOf(g, s.x[i], s.y[i], s.z[i])]));
    // A snapshot restores the field bit for bit, and a run from it continues identically.
    auto r = make(3);
    r->restore(m->snapshot());
    m->advance(3);
    r->advance(3);
    EXPECT_EQ(m->snapshot().at("substance").bytes, r->snapshot().at("substance").bytes);
}

TEST_P(SpheresSubstanceTest, BadGridNamesTheVoxel) {
    set({"init.layout=random", "init.count=10", "init.box=100000", "substance.enabled=true",
         "substance.voxel=1"});
    try {
        make(1);
        ADD_FAILURE() << "no error for a 10^15-voxel grid";
    } catch (const ParameterError& e) {
        EXPECT_NE(std::string(e.what()).find("substance.voxel"), std::string::npos) << e.what();
    }
    // A snapshot whose grid does not match the parameters is refused, the state unchanged.
    set({"init.box=500", "substance.voxel=20"});
    auto m = make(1);
    const Snapshot before = m->snapshot();
    set({"substance.voxel=10"});
    auto other = make(1);
    EXPECT_THROW(other->restore(before), IoError);
    EXPECT_EQ(other->step(), 0u);
}

INSTANTIATE_TEST_SUITE_P(AllBackends, SpheresSubstanceTest, testing::ValuesIn(spheresBackends()),
                         test::backendName);

}  // namespace
}  // namespace cf
