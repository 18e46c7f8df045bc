// SPDX-License-Identifier: GPL-3.0-or-later
// The `brownian` core test model on every backend: closed-form results first, then
// restart and determinism, then CPU against CUDA.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/models/brownian/brownian_model.hpp"
#include "tests/support/backends.hpp"

namespace cf {
namespace {

class BrownianTest : public testing::TestWithParam<Backend> {
protected:
    void SetUp() override { CF_REQUIRE_BACKEND(GetParam()); }
    const ModelDescriptor desc = brownian::descriptor();
    ParamSet params{desc.parameters()};
    std::unique_ptr<Model> make() { return desc.create(GetParam()); }
};

double metric(Model& m, const std::string& name) {
    for (const Metric& x : m.metrics())
        if (x.name == name) return x.value;
    throw std::runtime_error("no metric " + name);
}

// Without interactions the MSD of free diffusion is 6 D t. For N particles the relative
// standard error of the sample mean of |r|^2 (a scaled chi-square with 3 dof) is
// sqrt(2/3 / N); the tolerance is 5 of those.
TEST_P(BrownianTest, FreeDiffusionMsdIsSixDt) {
    const int n = 20000;
    params.setFromAssignment("system.count=20000");
    params.setFromAssignment("interaction.stiffness=0");
    params.setFromAssignment("dynamics.diffusion=2");
    params.setFromAssignment("dynamics.dt=0.001");
    auto m = make();
    m->reset(params, 11);
    m->advance(100);
    const double expected = 6.0 * 2.0 * 0.1;
    const double tol = 5.0 * std::sqrt(2.0 / 3.0 / n) * expected;
    EXPECT_NEAR(metric(*m, "msd"), expected, tol);
    EXPECT_NEAR(m->time(), 0.1, 1e-12);
}

// Two overlapping particles without noise: the gap e = 2r - d shrinks by (1 - 2 mu k dt)
// per step (each particle moves mu k e dt). Float positions: tolerance 1e-5 um.
TEST_P(BrownianTest, OverlapRelaxesGeometrically) {
    params.setFromAssignment("system.count=2");
    params.setFromAssignment("system.box=10");
    params.setFromAssignment("system.radius=0.5");
    params.setFromAssignment("dynamics.diffusion=0");
    params.setFromAssignment("interaction.stiffness=10");
    params.setFromAssignment("interaction.mobility=1");
    params.setFromAssignment("dynamics.dt=0.01");
    auto m = make();
    m->reset(params, 1);
    Snapshot s = m->snapshot();
    const std::vector<float> pos = {4.7f, 5.0f, 5.0f, 5.3f, 5.0f, 5.0f};  // d = 0.6
    s.fields.at(0) = Field::of<float>("position", "um", FieldRole::Positions, 3, pos);
    m->restore(s);
    const int steps = 20;
    m->advance(steps);
    const auto p = m->snapshot().at("position").as<float>();
    const double d = p[3] - p[0];
    const double expected = 1.0 - 0.4 * std::pow(1.0 - 2.0 * 1.0 * 10.0 * 0.01, steps);
    EXPECT_NEAR(d, expected, 1e-5);
    EXPECT_NEAR(p[1], 5.0, 1e-6);                 // motion stays on the x axis
    EXPECT_NEAR(0.5 * (p[0] + p[3]), 5.0, 1e-5);  // momentum-free: the center stays
}

TEST_P(BrownianTest, RestartFromSnapshotIsBitIdentical) {
    params.setFromAssignment("system.count=3000");
    params.setFromAssignment("system.box=18");
    auto a = make();
    a->reset(params, 5);
    a->advance(10);
    const Snapshot mid = a->snapshot();
    a->advance(10);
    const Snapshot straight = a->snapshot();

    auto b = make();
    b->reset(params, 5);
    b->restore(mid);
    b->advance(10);
    const Snapshot resumed = b->snapshot();
    EXPECT_EQ(resumed.step, 20u);
    EXPECT_EQ(resumed.time, straight.time);
    EXPECT_EQ(resumed.at("position").bytes, straight.at("position").bytes);
    EXPECT_EQ(resumed.at("displacement").bytes, straight.at("displacement").bytes);
}

TEST_P(BrownianTest, SameSeedSameRunDifferentSeedDifferentRun) {
    params.setFromAssignment("system.count=1000");
    params.setFromAssignment("system.box=12");
    auto run = [&](std::uint32_t seed) {
        auto m = make();
        m->reset(params, seed);
        m->advance(5);
        return m->snapshot().at("position").bytes;
    };
    EXPECT_EQ(run(1), run(1));
    EXPECT_NE(run(1), run(2));
}

TEST_P(BrownianTest, NonFiniteStateIsReportedWithParticle) {
    params.setFromAssignment("system.count=10");
    auto m = make();
    m->reset(params, 1);
    Snapshot s = m->snapshot();
    auto pos = s.at("position").as<float>();
    pos[3 * 7 + 1] = std::nanf("");
    s.fields.at(0) = Field::of<float>("position", "um", FieldRole::Positions, 3, pos);
    m->restore(s);
    try {
        m->checkFinite();
        FAIL() << "expected SimulationError";
    } catch (const SimulationError& e) {
        EXPECT_NE(std::string(e.what()).find("7"), std::string::npos) << e.what();
    }
}

TEST_P(BrownianTest, InconsistentParametersAreRejected) {
    auto m = make();
    params.setFromAssignment("system.box=2");
    params.setFromAssignment("system.radius=0.5");
    EXPECT_THROW(m->reset(params, 1), ParameterError);  // fewer than 3 grid cells
    ParamSet fast(desc.parameters());
    fast.setFromAssignment("dynamics.dt=0.5");
    EXPECT_THROW(m->reset(fast, 1), ParameterError);  // mu k dt >= 1 overshoots
}

TEST_P(BrownianTest, ViewsCarryTheSnapshot) {
    params.setFromAssignment("system.count=100");
    params.setFromAssignment("system.box=10");
    auto m = make();
    m->reset(params, 3);
    m->advance(3);
    const ModelViews v = m->views();
    m->synchronize();
    const auto pos = m->snapshot().at("position").as<float>();
    const auto disp = m->snapshot().at("displacement").as<float>();
    ASSERT_EQ(v.clouds.size(), 1u);
    const PointCloudView& c = v.clouds[0];
    // CUDA packs its views on the device (for interop), the CPU backend on the host.
    ASSERT_EQ(c.space, GetParam() == Backend::Cuda ? MemorySpace::Device : MemorySpace::Host);
    ASSERT_EQ(c.count, 100u);
    const auto xyzr = viewToHost(c.positions, 4 * c.count, c.space);
    const auto d = viewToHost(c.scalars.at(0).data, c.count, c.space);
    for (std::size_t i = 0; i < c.count; ++i) {
        for (int a = 0; a < 3; ++a)
            ASSERT_EQ(xyzr[4 * i + a], pos[3 * i + a]);
        ASSERT_EQ(xyzr[4 * i + 3], 0.5f);  // system.radius
        const double expected =
            std::sqrt(disp[3 * i] * disp[3 * i] + disp[3 * i + 1] * disp[3 * i + 1] +
                      disp[3 * i + 2] * disp[3 * i + 2]);
        ASSERT_NEAR(d[i], expected, 1e-6 * (1.0 + expected));  // float sqrt vs double
    }
    EXPECT_EQ(v.boxHi[0], 10.0);
}

INSTANTIATE_TEST_SUITE_P(AllBackends, BrownianTest, testing::ValuesIn(test::builtBackends()),
                         test::backendName);

// Two CUDA instances with different parameters stepped in turn: each must run with its own
// __constant__ parameters (bound before its launches), so A's state equals A run alone.
TEST(BrownianCuda, InstancesUsedInTurnKeepTheirParameters) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const ModelDescriptor desc = brownian::descriptor();
    ParamSet pa(desc.parameters()), pb(desc.parameters());
    pa.setFromAssignment("system.count=2000");
    pb.setFromAssignment("system.count=2000");
    pb.setFromAssignment("dynamics.diffusion=5");
    auto alone = desc.create(Backend::Cuda);
    alone->reset(pa, 9);
    alone->advance(30);
    const auto expected = alone->snapshot().at("position").bytes;
    alone.reset();
    auto a = desc.create(Backend::Cuda);
    auto b = desc.create(Backend::Cuda);
    a->reset(pa, 9);
    b->reset(pb, 9);  // b's parameters are now in constant memory
    for (int k = 0; k < 3; ++k) {
        a->advance(10);
        b->advance(10);
    }
    EXPECT_EQ(a->snapshot().at("position").bytes, expected);
    EXPECT_NE(b->snapshot().at("position").bytes, expected);
}

// CPU (double forces) against CUDA (float forces): same initial state and noise, so after
// 5 steps positions differ only by force rounding, ~1e-6 um per step; tolerance 1e-4 um.
TEST(BrownianCuda, MatchesCpuReference) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const ModelDescriptor desc = brownian::descriptor();
    ParamSet params(desc.parameters());
    params.setFromAssignment("system.count=5000");
    params.setFromAssignment("system.box=20");
    auto cpu = desc.create(Backend::Cpu);
    auto gpu = desc.create(Backend::Cuda);
    cpu->reset(params, 9);
    gpu->reset(params, 9);
    EXPECT_EQ(cpu->snapshot().at("position").bytes, gpu->snapshot().at("position").bytes);
    cpu->advance(5);
    gpu->advance(5);
    const auto a = cpu->snapshot().at("position").as<float>();
    const auto b = gpu->snapshot().at("position").as<float>();
    ASSERT_EQ(a.size(), b.size());
    double worst = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        double d = std::abs(static_cast<double>(a[i]) - b[i]);
        d = std::min(d, 20.0 - d);  // a particle may wrap on one side only
        worst = std::max(worst, d);
    }
    EXPECT_LT(worst, 1e-4);
    EXPECT_NEAR(metric(*cpu, "msd"), metric(*gpu, "msd"), 1e-6 * metric(*cpu, "msd"));
    EXPECT_EQ(metric(*cpu, "overlapping_pairs"), metric(*gpu, "overlapping_pairs"));
}

}  // namespace
}  // namespace cf
