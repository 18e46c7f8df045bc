// SPDX-License-Identifier: GPL-3.0-or-later
// `gliding` through the Model interface on every backend (docs/design/gliding.md 6.2 T8, T10,
// T11): invariants of a coupled run, exact restart, the checks a user meets before and while
// running, and the views.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/models/gliding/gliding_model.hpp"
#include "sim/models/gliding/gliding_zgrid.hpp"
#include "tests/sim/models/gliding_test_support.hpp"
#include "tests/support/backends.hpp"

namespace cf {
namespace {

using gliding::test::quarterTurn;

using gliding::GlidingParams;

class GlidingModelTest : public testing::TestWithParam<Backend> {
protected:
    void SetUp() override {
        CF_REQUIRE_BACKEND(GetParam());
        const auto& b = desc.backends;
        if (std::find(b.begin(), b.end(), GetParam()) == b.end())
            GTEST_SKIP() << "gliding has no " << toString(GetParam()) << " backend yet";
        // The 64^2 x 16^2 ring lattice of S1 Fig. 6 at its smallest resolution.
        set("grid.n=64");
        set("grid.ninner=16");
    }
    void set(const std::string& assignment) { params.setFromAssignment(assignment); }
    std::unique_ptr<Model> make() { return desc.create(GetParam()); }

    const ModelDescriptor desc = gliding::descriptor();
    ParamSet params{desc.parameters()};
};

double metric(Model& m, const std::string& name) {
    for (const Metric& x : m.metrics())
        if (x.name == name) return x.value;
    throw std::runtime_error("no metric " + name);
}

std::vector<double> field(const Snapshot& s, const char* name) {
    return s.at(name).as<double>();
}

// T8 with the fluid off: the filament number stays at its initial value (the Lambda = 0 mode of
// the CN solve and telescoping fluxes: round-off only, 1e-12), and the motors keep
// Mf + Mb,coarse = M at every anchor (the cap and Mf = M - Mb,coarse: exact up to one rounding
// of M - x + x, 1e-15 in double, 1e-6 in float) with 0 <= Mf <= M.
TEST_P(GlidingModelTest, CoupledRunKeepsFilamentsAndMotors) {
    set("fluid.enabled=false");
    auto m = make();
    m->reset(params, 1);
    const double n0 = metric(*m, "filament number");
    m->advance(20);
    const double n1 = metric(*m, "filament number");
    std::printf("N(0) = %.15f, N(20 steps, t = %.4f T) = %.15f\n", n0, m->time(), n1);
    EXPECT_NEAR(n1 / n0 - 1.0, 0.0, 1e-12);
    const Snapshot s = m->snapshot();
    const auto bound = field(s, "bound_motors"), free = field(s, "free_motors");
    double worst = 0, meanBound = 0;
    for (std::size_t i = 0; i < bound.size(); ++i) {
        worst = std::max(worst, std::abs(bound[i] + free[i] - 1.0));
        EXPECT_GE(free[i], 0.0);
        EXPECT_LE(free[i], 1.0);
        meanBound += bound[i] / static_cast<double>(bound.size());
    }
    std::printf("max |Mf + Mb,coarse - M| = %.3g, mean bound fraction %.6f\n", worst, meanBound);
    // CUDA keeps motors in float by default (motors.precision): one float rounding of M.
    EXPECT_LE(worst, GetParam() == Backend::Cuda ? 1e-6 : 1e-15);
    // Motors bind: the mean bound fraction heads for B_ref ~ 0.36 (design M2, M16).
    EXPECT_GT(meanBound, 0.2);
    EXPECT_LT(meanBound, 0.6);
    EXPECT_EQ(metric(*m, "motor clamps"), 0.0);
}

// T10: a checkpoint at step 7 restored into a fresh model continues bit for bit (the AB2
// history A^{n-1}, the previous dt and the packed bound motors are in the snapshot).
TEST_P(GlidingModelTest, RestartIsBitIdentical) {
    auto a = make();
    a->reset(params, 3);
    a->advance(7);
    const Snapshot at7 = a->snapshot();
    a->advance(8);
    const Snapshot straight = a->snapshot();

    auto b = make();
    b->reset(params, 3);
    b->restore(at7);
    b->advance(8);
    const Snapshot resumed = b->snapshot();
    EXPECT_EQ(resumed.step, straight.step);
    EXPECT_EQ(resumed.time, straight.time);
    for (const char* name :
         {"psi", "bound_packed", "free_motors", "flow", "flow_gradient", "ab2_history"})
        EXPECT_TRUE(field(resumed, name) == field(straight, name)) << name;
}

// A checkpoint of another grid is refused with the field and the parameters that differ.
TEST_P(GlidingModelTest, RestoreOfAnotherGridNamesTheField) {
    auto small = make();
    small->reset(params, 1);
    const Snapshot s = small->snapshot();
    set("grid.n=32");
    auto other = make();
    other->reset(params, 1);
    try {
        other->restore(s);
        FAIL() << "restore accepted a 64^2 checkpoint into a 32^2 run";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("'psi'"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("grid.n"), std::string::npos) << e.what();
    }
}

// design M17: the square symmetry. A quarter turn of an asymmetric initial state (isotropic with
// strong random modes) commutes with three coupled outer steps (filaments, motors, force,
// fluid). Every table and sum is rotation-exact; only the FFTs round differently for the turned
// state, so the CPU agrees to round-off (1e-12 of max Psi); float motors on CUDA turn those
// 1e-16 differences into float roundings of Mb (1e-8 of max Psi, as CPU vs CUDA).
TEST_P(GlidingModelTest, QuarterTurnCommutesWithCoupledSteps) {
    set("init.layout=isotropic");
    set("init.perturbation=0.3");
    auto a = make(), b = make();
    a->reset(params, 9);
    b->reset(params, 9);
    Snapshot turned = a->snapshot();
    const std::vector<double> psi0 = field(turned, "psi");
    turned.fields.at(0) = Field::of<double>("psi", "n0", FieldRole::Grid, 16,
                                            std::span<const double>(quarterTurn(psi0, 64, 16)));
    b->restore(turned);
    a->advance(3);
    b->advance(3);
    const std::vector<double> expected = quarterTurn(field(a->snapshot(), "psi"), 64, 16);
    const std::vector<double> got = field(b->snapshot(), "psi");
    double worst = 0, scale = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        worst = std::max(worst, std::abs(got[i] - expected[i]));
        scale = std::max(scale, std::abs(expected[i]));
    }
    std::printf("quarter turn vs 3 coupled steps: max diff %.3g of max Psi %.4g; max |u| %.3g V\n",
                worst / scale, scale, metric(*a, "max flow speed"));
    EXPECT_LE(worst / scale, GetParam() == Backend::Cuda ? 1e-8 : 1e-12);
    EXPECT_GT(metric(*a, "max flow speed"), 0.0);  // the fluid took part
}

// The vertical slice (output.profiles): no slip at both plates, and the delta-weighted value of
// each column at the filament plane is the flow u2(z0) the filaments see (the same transfer
// functions; float rounding of the view, 1e-5 of max |u|).
TEST_P(GlidingModelTest, ProfileViewMeetsTheFlowAtTheFilamentPlane) {
    set("output.profiles=true");
    set("output.profile_y=0.3");
    auto m = make();
    m->reset(params, 1);
    m->advance(3);
    const ModelViews views = m->views();
    const VolumeView* slice = nullptr;
    for (const VolumeView& v : views.volumes)
        if (v.name == "flow_profile") slice = &v;
    ASSERT_NE(slice, nullptr);
    const GlidingParams p = gliding::checkedParams(params);
    const gliding::ZGrid g = gliding::buildZGrid(p);
    ASSERT_EQ(slice->dims[0], 64);
    ASSERT_EQ(slice->dims[2], static_cast<int>(g.z.size()));
    const std::vector<float> u =
        viewToHost(slice->scalars[1].data, slice->voxelCount(), slice->space);
    const std::vector<double> flow = field(m->snapshot(), "flow");
    const int row = static_cast<int>(0.3 * 64), nz = slice->dims[2];
    double worst = 0, scale = 0, walls = 0;
    for (int ix = 0; ix < 64; ++ix) {
        std::vector<double> column(static_cast<std::size_t>(nz));
        for (int l = 0; l < nz; ++l)
            column[static_cast<std::size_t>(l)] = u[static_cast<std::size_t>(l) * 64 + ix];
        const double atPlane = g.atPlane(column);
        const double expected = flow[2 * (static_cast<std::size_t>(row) * 64 + ix)];
        worst = std::max(worst, std::abs(atPlane - expected));
        scale = std::max(scale, std::abs(expected));
        walls = std::max({walls, std::abs(column.front()), std::abs(column.back())});
    }
    std::printf("profile row %d: plane value vs u2(z0) %.3g of max |u| %.3g; walls %.3g\n", row,
                worst / scale, scale, walls);
    EXPECT_GT(scale, 0.0);
    EXPECT_LE(worst, 1e-5 * scale);
    EXPECT_EQ(walls, 0.0);
}

// T11: fixed mode with a step over the advective limit stops with the limit in the message.
TEST_P(GlidingModelTest, FixedStepOverTheCflLimitIsRefused) {
    set("time.dt_mode=fixed");
    set("time.dt=0.5");
    auto m = make();
    m->reset(params, 1);
    try {
        m->advance(1);
        FAIL() << "a fixed step of 0.5 T passed the CFL check";
    } catch (const SimulationError& e) {
        const std::string text = e.what();
        std::printf("%s\n", text.c_str());
        EXPECT_NE(text.find("time.dt = 0.5 exceeds the advective limit"), std::string::npos);
    }
    EXPECT_EQ(m->step(), 0u);
}

// T11: the anti-diffusion condition at reset (design M5), through the model, before anything runs.
TEST_P(GlidingModelTest, AntiDiffusiveStartIsRefusedAtReset) {
    set("filaments.Dt=1e-5");
    auto m = make();
    EXPECT_THROW(m->reset(params, 1), ParameterError);
}

// The uniform isotropic state is a steady state of the whole model (design M17): motors bind alike
// everywhere, the fluid stays at rest and Psi stays uniform to round-off over 10 steps.
TEST_P(GlidingModelTest, UniformIsotropicStateStaysUniform) {
    set("init.layout=uniform");
    auto m = make();
    m->reset(params, 1);
    const auto psi0 = field(m->snapshot(), "psi");
    m->advance(10);
    const auto psi = field(m->snapshot(), "psi");
    double worst = 0;
    for (std::size_t i = 0; i < psi.size(); ++i)
        worst = std::max(worst, std::abs(psi[i] / psi0[i] - 1.0));
    std::printf("uniform isotropic: max |Psi/Psi0 - 1| after 10 steps = %.3g\n", worst);
    EXPECT_LE(worst, 1e-13);
    const auto bound = field(m->snapshot(), "bound_motors");
    const auto [lo, hi] = std::minmax_element(bound.begin(), bound.end());
    EXPECT_EQ(*lo, *hi) << "bound motors differ between anchors of a uniform state";
    // No net force and no stress divergence: the fluid stays at rest (exactly: every forcing
    // term is a difference of equal neighbours).
    EXPECT_EQ(metric(*m, "max flow speed"), 0.0);
}

// Live edits reach the next step; structural edits wait for the reset.
TEST_P(GlidingModelTest, LiveEditOfTheSpeedChangesTheNextStep) {
    set("fluid.enabled=false");
    auto a = make(), b = make();
    a->reset(params, 1);
    b->reset(params, 1);
    a->advance(2);
    b->advance(2);
    ParamSet edited = params;
    edited.setFromAssignment("filaments.Vsp=0");
    edited.setFromAssignment("grid.n=32");  // structural: ignored until a reset
    b->setLiveParameters(edited);
    a->advance(1);
    b->advance(1);
    EXPECT_FALSE(field(a->snapshot(), "psi") == field(b->snapshot(), "psi"));
    EXPECT_EQ(field(b->snapshot(), "density").size(), 64u * 64u);
}

// On CUDA the kernels read the parameters from __constant__ memory (one copy per kernel file,
// which deviceParameterBlock checks agree): a live edit is there after setLiveParameters, the
// structural values and the derived ones with it. Host backends have no block.
GlidingParams deviceParams(Model& m) {
    const std::vector<std::uint8_t> block = m.deviceParameterBlock();
    GlidingParams p{};
    EXPECT_EQ(block.size(), sizeof p);
    if (block.size() == sizeof p) std::memcpy(&p, block.data(), sizeof p);
    return p;
}

TEST_P(GlidingModelTest, LiveEditReachesTheDeviceParameterBlock) {
    auto m = make();
    m->reset(params, 1);
    m->advance(2);
    if (GetParam() != Backend::Cuda) {
        EXPECT_TRUE(m->deviceParameterBlock().empty());
        return;
    }
    EXPECT_EQ(deviceParams(*m).vsp, 0.03125);
    ParamSet edited = params;
    for (const char* a : {"filaments.Vsp=0.02", "motors.Kon=3", "filaments.sigma_f=0.4",
                          "grid.n=32" /* structural: waits for a reset */})
        edited.setFromAssignment(a);
    m->setLiveParameters(edited);
    const GlidingParams expected = gliding::checkedParams(withLiveValues(params, edited));
    const GlidingParams onDevice = deviceParams(*m);
    EXPECT_EQ(onDevice.vsp, 0.02);
    EXPECT_EQ(onDevice.sigmaF, 0.4);
    EXPECT_EQ(onDevice.kon, 3.0);
    EXPECT_EQ(onDevice.konTilde, expected.konTilde) << "derived from Kon";
    EXPECT_EQ(onDevice.n, 64);
    EXPECT_EQ(onDevice.diffT, expected.diffT);
    m->advance(1);  // the kernels run with it
    EXPECT_EQ(deviceParams(*m).vsp, 0.02);
}

// __constant__ memory is one per process: two instances with different live parameters stepped
// in turn each run as if alone, bit for bit (each binds its own parameters before launching).
TEST_P(GlidingModelTest, InstancesUsedInTurnKeepTheirParameters) {
    ParamSet other = params;
    for (const char* a : {"filaments.Vsp=0.02", "motors.koff=3", "filaments.sigma_f=0.3"})
        other.setFromAssignment(a);
    const auto run = [&](Model& m, const ParamSet& p) {
        m.reset(params, 4);
        m.setLiveParameters(p);
    };
    auto aloneA = make(), aloneB = make();
    run(*aloneA, params);
    aloneA->advance(4);
    const Snapshot expectA = aloneA->snapshot();
    aloneA.reset();
    run(*aloneB, other);
    aloneB->advance(4);
    const Snapshot expectB = aloneB->snapshot();
    aloneB.reset();

    auto a = make(), b = make();
    run(*a, params);
    run(*b, other);
    for (int i = 0; i < 4; ++i) {
        a->advance(1);
        b->advance(1);
    }
    const Snapshot gotA = a->snapshot(), gotB = b->snapshot();
    for (const char* name : {"psi", "bound_packed", "flow"}) {
        EXPECT_TRUE(field(gotA, name) == field(expectA, name)) << name;
        EXPECT_TRUE(field(gotB, name) == field(expectB, name)) << name;
    }
    EXPECT_FALSE(field(gotA, "psi") == field(gotB, "psi")) << "the parameters made a difference";
    if (GetParam() == Backend::Cuda) {
        EXPECT_EQ(deviceParams(*a).vsp, 0.03125);
        EXPECT_EQ(deviceParams(*b).vsp, 0.02);
        EXPECT_EQ(deviceParams(*a).koff, 2.0);
    }
}

// A live edit that fails its checks changes nothing: the parameters in effect, the device's
// copy and the next steps are those of a run without it.
TEST_P(GlidingModelTest, RefusedLiveEditChangesNothing) {
    auto a = make(), b = make();
    a->reset(params, 2);
    b->reset(params, 2);
    a->advance(2);
    b->advance(2);
    const std::vector<std::uint8_t> before = b->deviceParameterBlock();
    ParamSet edited = params;
    edited.setFromAssignment("filaments.Vsp=0.02");
    edited.setFromAssignment("time.cout=0");  // in the table's range, refused by checkedParams
    EXPECT_THROW(b->setLiveParameters(edited), ParameterError);
    EXPECT_EQ(b->deviceParameterBlock(), before);
    a->advance(2);
    b->advance(2);
    EXPECT_TRUE(field(a->snapshot(), "psi") == field(b->snapshot(), "psi"));
    EXPECT_EQ(a->time(), b->time());
}

// The views: the filament density channel equals the snapshot's density (float rounding).
TEST_P(GlidingModelTest, DensityViewMatchesTheSnapshot) {
    auto m = make();
    m->reset(params, 1);
    m->advance(3);
    const ModelViews v = m->views();
    ASSERT_EQ(v.volumes.size(), 1u);
    const VolumeView& f = v.volumes[0];
    EXPECT_EQ(f.name, "assay");
    EXPECT_EQ(v.vectors.size(), 3u);
    const auto c = field(m->snapshot(), "density");
    const auto shown = viewToHost(f.scalars[0].data, f.voxelCount(), f.space);
    ASSERT_EQ(shown.size(), c.size());
    for (std::size_t i = 0; i < c.size(); ++i)
        ASSERT_NEAR(shown[i], c[i], 1e-6 * c[i]) << i;
}

// T12: CPU against CUDA over 20 coupled outer steps of the 64^2 x 16^2 ring lattice (design 3.5).
// Double motors: only FFT and summation order differ, so every field agrees to 1e-10 of its
// maximum. Float motors (the default): Mb,coarse to 2e-6 M, the flow to 1e-5 of its maximum and
// Psi to 1e-8 of its maximum (u enters Psi at a few % of Vsp).
double worstRelative(const std::vector<double>& a, const std::vector<double>& b) {
    double scale = 0, worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        scale = std::max(scale, std::abs(a[i]));
        worst = std::max(worst, std::abs(a[i] - b[i]));
    }
    return scale > 0 ? worst / scale : worst;
}

void compareCpuCuda(const char* precision, double psiTol, double motorTol, double flowTol) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const ModelDescriptor desc = gliding::descriptor();
    ParamSet params{desc.parameters()};
    for (const char* a : {"grid.n=64", "grid.ninner=16"})
        params.setFromAssignment(a);
    params.setFromAssignment(std::string("motors.precision=") + precision);
    auto cpu = desc.create(Backend::Cpu), gpu = desc.create(Backend::Cuda);
    cpu->reset(params, 5);
    gpu->reset(params, 5);
    cpu->advance(20);
    gpu->advance(20);
    const Snapshot a = cpu->snapshot(), b = gpu->snapshot();
    const double dPsi = worstRelative(field(a, "psi"), field(b, "psi"));
    const double dBound = worstRelative(field(a, "bound_motors"), field(b, "bound_motors"));
    const double dFlow = worstRelative(field(a, "flow"), field(b, "flow"));
    const double dPacked = worstRelative(field(a, "bound_packed"), field(b, "bound_packed"));
    std::printf(
        "%s motors, 20 steps to t = %.6f (CUDA %.6f): max|dPsi| %.3g, Mb,coarse %.3g, "
        "Mb %.3g, flow %.3g (relative to maxima); max |u| %.4g V\n",
        precision, a.time, b.time, dPsi, dBound, dPacked, dFlow, metric(*cpu, "max flow speed"));
    // dt follows Psi, which float motors perturb at 1e-8 through the flow.
    EXPECT_NEAR(a.time, b.time, (psiTol > 1e-10 ? 1e-8 : 1e-12) * a.time);
    EXPECT_LE(dPsi, psiTol);
    EXPECT_LE(dBound, motorTol);
    EXPECT_LE(dFlow, flowTol);
    EXPECT_GT(metric(*cpu, "max flow speed"), 0.0);
}

TEST(GlidingModelCuda, MatchesCpuWithDoubleMotors) {
    compareCpuCuda("double", 1e-10, 1e-10, 1e-10);
}
TEST(GlidingModelCuda, MatchesCpuWithFloatMotors) {
    compareCpuCuda("float", 1e-8, 2e-6, 1e-5);
}

// A checkpoint moves between backends: a CPU snapshot at step 5 restored on CUDA continues
// like the CPU (double motors: 1e-10 of the maxima after 5 more steps).
TEST(GlidingModelCuda, CpuCheckpointContinuesOnCuda) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const ModelDescriptor desc = gliding::descriptor();
    ParamSet params{desc.parameters()};
    for (const char* a : {"grid.n=64", "grid.ninner=16", "motors.precision=double"})
        params.setFromAssignment(a);
    auto cpu = desc.create(Backend::Cpu), gpu = desc.create(Backend::Cuda);
    cpu->reset(params, 2);
    gpu->reset(params, 2);
    cpu->advance(5);
    gpu->restore(cpu->snapshot());
    cpu->advance(5);
    gpu->advance(5);
    const Snapshot a = cpu->snapshot(), b = gpu->snapshot();
    EXPECT_EQ(a.step, b.step);
    const double d = worstRelative(field(a, "psi"), field(b, "psi"));
    std::printf("CPU checkpoint at step 5, 5 more steps on each: max|dPsi| %.3g of max\n", d);
    EXPECT_LE(d, 1e-10);
    EXPECT_LE(worstRelative(field(a, "flow"), field(b, "flow")), 1e-10);
}

// Options the design declares but the code does not build yet are refused by name, not ignored.
TEST(GlidingModelChecks, UnbuiltOptionsAreRefused) {
    const ModelDescriptor desc = gliding::descriptor();
    for (const char* option : {"filaments.advection_order=2", "filaments.steric_reading=strain"}) {
        ParamSet params{desc.parameters()};
        params.setFromAssignment(option);
        try {
            desc.validate(params);
            FAIL() << option << " was accepted";
        } catch (const ParameterError& e) {
            EXPECT_NE(std::string(e.what()).find("not implemented yet"), std::string::npos)
                << e.what();
        }
    }
}

INSTANTIATE_TEST_SUITE_P(AllBackends, GlidingModelTest, testing::ValuesIn(test::builtBackends()),
                         test::backendName);

}  // namespace
}  // namespace cf
