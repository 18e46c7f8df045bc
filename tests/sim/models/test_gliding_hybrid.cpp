// SPDX-License-Identifier: GPL-3.0-or-later
// motors.placement = gpu (docs/GLIDING.md "Kernel switches"): the CPU backend with its bound
// motors and their force on a GPU, Cook & Shinar's hybrid placement (motor_offload.hpp).
// - With a GPU: the coupled 64^2 x 16^2 ring lattice (fluid on) against the plain CPU backend
//   after 6 outer steps, double motors. The device motors differ from the CPU's by the block
//   tree of their orbit sums only (~1e-16 relative per resync, test_gliding_motors_cuda.cpp:
//   within 1e-12 of each field's maximum); through the force, the Stokes solve and the filament
//   step that stays below 1e-10 of each field's maximum here. A snapshot taken and restored in
//   the hybrid run continues bit for bit.
// - Without one: the placement is refused by name, and no run starts.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>

#include "sim/core/backend.hpp"
#include "sim/core/errors.hpp"
#include "sim/models/gliding/gliding_model.hpp"
#include "tests/sim/models/gliding_test_support.hpp"

namespace cf {
namespace {

using gliding::test::maxAbs;
using gliding::test::maxAbsDiff;

ParamSet hybridParams(bool offloaded) {
    ParamSet p(gliding::parameterTable());
    for (const char* a :
         {"grid.n=64", "grid.ninner=16", "motors.precision=double", "motors.burn_in=0.1"})
        p.setFromAssignment(a);
    if (offloaded) p.setFromAssignment("motors.placement=gpu");
    return p;
}

std::vector<double> field(const Snapshot& s, const char* name) {
    return s.at(name).as<double>();
}

TEST(GlidingHybrid, WithoutAGpuThePlacementIsRefusedByName) {
    if (isAvailable(Backend::Cuda))
        GTEST_SKIP() << "a CUDA device is here: GlidingHybrid.MatchesTheCpuBackend runs instead";
    std::unique_ptr<Model> m = gliding::descriptor().create(Backend::Cpu);
    try {
        m->reset(hybridParams(true), 1);
        FAIL() << "motors.placement = gpu started without a GPU";
    } catch (const ParameterError& e) {
        std::printf("refused: %s\n", e.what());
        EXPECT_NE(std::string(e.what()).find("motors.placement = gpu"), std::string::npos);
    }
}

TEST(GlidingHybrid, MatchesTheCpuBackend) {
    if (!isAvailable(Backend::Cuda)) GTEST_SKIP() << "no CUDA device: " << cudaStatus();
    std::unique_ptr<Model> cpu = gliding::descriptor().create(Backend::Cpu);
    std::unique_ptr<Model> hybrid = gliding::descriptor().create(Backend::Cpu);
    cpu->reset(hybridParams(false), 3);
    hybrid->reset(hybridParams(true), 3);
    cpu->advance(3);
    hybrid->advance(3);
    const Snapshot at3 = hybrid->snapshot();
    cpu->advance(3);
    hybrid->advance(3);
    const Snapshot a = cpu->snapshot(), b = hybrid->snapshot();
    EXPECT_EQ(a.step, b.step);
    for (const char* name : {"psi", "bound_motors", "free_motors", "flow", "bound_packed"}) {
        const std::vector<double> x = field(a, name), y = field(b, name);
        const double rel = maxAbsDiff(x, y) / maxAbs(x);
        std::printf("%-12s max|hybrid - cpu| / max|cpu| = %.3e (max %.4e)\n", name, rel, maxAbs(x));
        EXPECT_GT(maxAbs(x), 0.0) << name;  // not a vacuous comparison
        EXPECT_LE(rel, 1e-10) << name;
    }
    // A restart of the hybrid run from step 3 reaches the same step 6.
    std::unique_ptr<Model> resumed = gliding::descriptor().create(Backend::Cpu);
    resumed->reset(hybridParams(true), 3);
    resumed->restore(at3);
    resumed->advance(3);
    const Snapshot c = resumed->snapshot();
    for (const char* name : {"psi", "bound_motors", "free_motors", "flow", "bound_packed"})
        EXPECT_TRUE(field(c, name) == field(b, name)) << name;
}

}  // namespace
}  // namespace cf
