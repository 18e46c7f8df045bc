// SPDX-License-Identifier: GPL-3.0-or-later
// The Niederer et al. 2011 N-version benchmark (sim/models/cardiac/nversion.hpp): the problem
// as published (grid, diffusivities, stimulus), the sampling of activation times at the
// points and along the diagonal, the corner's activation on the CPU, CPU against CUDA, and
// on CUDA the convergence of the far corner's activation time as dx and dt shrink.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "sim/core/params.hpp"
#include "sim/core/scenario.hpp"
#include "sim/models/cardiac/cardiac_model.hpp"
#include "sim/models/cardiac/nversion.hpp"
#include "sim/models/cardiac/nvrtc/nvrtc_compiler.hpp"
#include "tests/support/backends.hpp"

namespace cf::cardiac {
namespace {

CardiacParams problemParams(double dx, double dt) {
    NversionOptions o;
    o.dx = dx;
    o.dt = dt;
    ParamSet params(parameterTable());
    for (const std::string& a : nversionOverrides(o))
        params.setFromAssignment(a);
    return checkedParams(params);
}

// The published set-up: the slab's vertex-centred grids (4,305 / 58,176 / 442,401 nodes), the
// monodomain diffusivities sigma / (chi Cm) = 0.0953 and 0.01258 mm^2/ms, 50 uA/mm^3 over
// chi Cm = 1.4 uF/mm^3 = 35.714 A/F, and the stimulated corner cube of 1.5 mm (inclusive):
// 4^3, 8^3 and 16^3 nodes.
TEST(CardiacNversion, ProblemIsThePublishedOne) {
    const struct {
        double dx;
        int n[3];
        long cube;
    } cases[] = {{0.5, {41, 15, 7}, 64}, {0.2, {101, 36, 16}, 512}, {0.1, {201, 71, 31}, 4096}};
    for (const auto& c : cases) {
        const std::array<int, 3> n = nversionGrid(c.dx);
        EXPECT_EQ(n[0], c.n[0]);
        EXPECT_EQ(n[1], c.n[1]);
        EXPECT_EQ(n[2], c.n[2]);
        const CardiacParams p = problemParams(c.dx, 0.01);
        EXPECT_EQ(p.nx, c.n[0]);
        long stimulated = 0;
        for (unsigned char m : stimulusRegionMask(p))
            stimulated += m;
        EXPECT_EQ(stimulated, c.cube) << "dx " << c.dx;
    }
    const CardiacParams p = problemParams(0.5, 0.05);
    EXPECT_NEAR(p.diffusionLong, 0.0952984, 1e-7);
    EXPECT_NEAR(p.diffusionTrans, 0.0125758, 1e-7);
    EXPECT_NEAR(p.amplitude, -35.7142857, 1e-6);
    EXPECT_EQ(p.duration, 2.0);
    EXPECT_EQ(p.start, 0.0);
    EXPECT_EQ(p.activationThreshold, 0.0);
    EXPECT_EQ(static_cast<FibreAxis>(p.fibreAxis), FibreAxis::X);
    EXPECT_EQ(static_cast<Integrator>(p.integrator), Integrator::Declared);
    EXPECT_THROW(nversionGrid(0.3), ParameterError) << "0.3 mm does not divide 20 x 7 x 3 mm";
}

// The bundled scenario (assets/scenarios/cardiac-niederer.toml) is the benchmark at dx 0.5 mm,
// dt 0.05 ms: every parameter equals the one nversionOverrides sets (to the 7 digits written).
TEST(CardiacNversion, ScenarioIsTheCoarsestRun) {
    const ModelRegistry registry = builtinModels();
    const Scenario s =
        loadScenario(CELLFORGE_TEST_DATA "/../assets/scenarios/cardiac-niederer.toml", registry);
    const CardiacParams fromFile = checkedParams(s.parameters);
    NversionOptions o;
    o.dx = 0.5;
    o.dt = 0.05;
    ParamSet expected(parameterTable());
    for (const std::string& a : nversionOverrides(o))
        expected.setFromAssignment(a);
    for (const ParamSpec& spec : parameterTable().specs()) {
        const ParamValue a = s.parameters.get(spec.key()), b = expected.get(spec.key());
        if (std::holds_alternative<double>(a))
            EXPECT_NEAR(std::get<double>(a), std::get<double>(b), 1e-6) << spec.key();
        else
            EXPECT_EQ(a, b) << spec.key();
    }
    EXPECT_EQ(fromFile.nx * fromFile.ny * fromFile.nz, 4305);
}

// Trilinear sampling reproduces a field linear in x, y, z exactly at any point (the points
// and the diagonal), and gives NaN next to a node that has not activated.
TEST(CardiacNversion, SamplingIsTrilinear) {
    const double dx = 0.5;
    const std::array<int, 3> n = nversionGrid(dx);
    std::vector<double> field(static_cast<std::size_t>(n[0]) * n[1] * n[2]);
    auto linear = [](double x, double y, double z) { return 1.0 + 2.0 * x + 3.0 * y - 0.5 * z; };
    std::size_t m = 0;
    for (int k = 0; k < n[2]; ++k)
        for (int j = 0; j < n[1]; ++j)
            for (int i = 0; i < n[0]; ++i)
                field[m++] = linear(i * dx, j * dx, k * dx) + 100.0;
    for (int p = 0; p < 9; ++p) {
        const std::array<double, 3> x = nversionPoint(p);
        EXPECT_NEAR(sampleActivation(field, n, dx, x), linear(x[0], x[1], x[2]) + 100.0, 1e-9)
            << "P" << p + 1;
    }
    const std::array<double, 3> q = {3.3, 2.1, 1.7};  // off the nodes
    EXPECT_NEAR(sampleActivation(field, n, dx, q), linear(q[0], q[1], q[2]) + 100.0, 1e-9);
    field[static_cast<std::size_t>(n[0]) * n[1] * n[2] - 1] = kNotActivated;  // the P8 node
    EXPECT_TRUE(std::isnan(sampleActivation(field, n, dx, nversionPoint(7))));
    EXPECT_FALSE(std::isnan(sampleActivation(field, n, dx, nversionPoint(8))));
}

// The stimulated corner on the CPU reference (dx 0.5 mm, dt 0.05 ms, 3 ms): P1 rises through
// 0 mV after about 1.3 ms of the 35.7 mV/ms stimulus (rest -85.2 mV: 85 / 35.7 = 2.4 ms to 0
// mV without the cell's own sodium current, which takes over at about -60 mV), the far corner
// and the centre not at all.
TEST(CardiacNversion, CornerActivatesOnTheCpu) {
    NversionOptions o;
    o.dx = 0.5;
    o.dt = 0.05;
    o.endTime = 3.0;
    const NversionResult r = runNversion(Backend::Cpu, o);
    std::printf("CPU dx 0.5 dt 0.05, 3 ms: P1 %.4f ms (%.2f s)\n", r.points[0], r.wallSeconds);
    EXPECT_GT(r.points[0], 0.8);
    EXPECT_LT(r.points[0], 2.0);
    EXPECT_TRUE(std::isnan(r.points[7]));
    EXPECT_TRUE(std::isnan(r.points[8]));
}

#if CELLFORGE_HAVE_CUDA
#define REQUIRE_CUDA_NVRTC()                                                           \
    do {                                                                               \
        CF_REQUIRE_BACKEND(Backend::Cuda);                                             \
        if (!nvrtcAvailable()) GTEST_SKIP() << "NVRTC unavailable: " << nvrtcStatus(); \
    } while (0)
#else
#define REQUIRE_CUDA_NVRTC() GTEST_SKIP() << "built without CUDA (no nvcc at configure time)"
#endif

// CPU (double) against the CUDA kernel in double over the first 4 ms at dx 0.5, dt 0.05: the
// same nodes activate at the same times to 1e-9 ms (the same terms, evaluated in a different
// order by the compiler: rounding only).
TEST(CardiacNversionCuda, MatchesTheCpuInDouble) {
    REQUIRE_CUDA_NVRTC();
    NversionOptions o;
    o.dx = 0.5;
    o.dt = 0.05;
    o.endTime = 4.0;
    o.precision = "double";
    const NversionResult cpu = runNversion(Backend::Cpu, o);
    const NversionResult gpu = runNversion(Backend::Cuda, o);
    double worst = 0.0;
    int activated = 0;
    for (std::size_t s = 0; s < cpu.diagonal.size(); ++s) {
        ASSERT_EQ(std::isnan(cpu.diagonal[s]), std::isnan(gpu.diagonal[s])) << "sample " << s;
        if (std::isnan(cpu.diagonal[s])) continue;
        ++activated;
        worst = std::max(worst, std::fabs(cpu.diagonal[s] - gpu.diagonal[s]));
    }
    std::printf("4 ms: %d of %zu diagonal samples activated, max |CPU - CUDA| %.3g ms\n", activated,
                cpu.diagonal.size(), worst);
    EXPECT_GT(activated, 5);
    EXPECT_LT(worst, 1e-9);
}

// Convergence (docs/design/cardiac.md section 10): at dt 0.01 ms the far corner P8 activates
// earlier as dx shrinks (coarse grids slow the wave: the transverse front is narrower than
// 0.5 mm), with shrinking differences; halving dt at dx 0.1 moves it by less than 1 ms; the
// activation time grows along the diagonal from the stimulated corner.
TEST(CardiacNversionCuda, ActivationConvergesWithResolution) {
    REQUIRE_CUDA_NVRTC();
    auto run = [](double dx, double dt) {
        NversionOptions o;
        o.dx = dx;
        o.dt = dt;
        o.stopWhenActivated = true;
        const NversionResult r = runNversion(Backend::Cuda, o);
        std::printf("dx %.1f dt %.3f (float, RL gates): P1 %.3f  P8 %.3f  P9 %.3f ms, %.2f s\n", dx,
                    dt, r.points[0], r.points[7], r.points[8], r.wallSeconds);
        return r;
    };
    const NversionResult c = run(0.5, 0.01), m = run(0.2, 0.01), f = run(0.1, 0.01),
                         ff = run(0.1, 0.005);
    for (const NversionResult* r : {&c, &m, &f, &ff})
        ASSERT_TRUE(std::isfinite(r->points[7])) << "the far corner activated";
    EXPECT_GT(c.points[7], m.points[7]);
    EXPECT_GT(m.points[7], f.points[7]);
    EXPECT_LT(std::fabs(m.points[7] - f.points[7]), std::fabs(c.points[7] - m.points[7]));
    EXPECT_LT(std::fabs(f.points[7] - ff.points[7]), 1.0);
    for (std::size_t s = 1; s < ff.diagonal.size(); ++s)
        EXPECT_GE(ff.diagonal[s], ff.diagonal[s - 1] - 1e-6) << "diagonal sample " << s;
}

}  // namespace
}  // namespace cf::cardiac
