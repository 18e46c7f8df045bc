// SPDX-License-Identifier: GPL-3.0-or-later
// The CUDA backend of `lattice` reproduces the CPU reference exactly: both run the same
// per-site gather (lattice_sweep.hpp) and the same host re-insertion of overflows, so
// every snapshot field and metric must be identical, with and without overflows.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/models/lattice/lattice_model.hpp"
#include "tests/sim/models/lattice_cuda_cases.hpp"
#include "tests/support/backends.hpp"

namespace cf {
namespace {

struct Case {
    const char* name;
    std::vector<std::string> assignments;
    bool overflows;  // whether the case must overflow
};

std::unique_ptr<Model> makeOn(Backend b, const ParamSet& ps, std::uint32_t seed) {
    auto m = lattice::descriptor().create(b);
    m->reset(ps, seed);
    return m;
}

void expectSameSnapshots(Model& cpu, Model& gpu, const char* when) {
    SCOPED_TRACE(when);
    const Snapshot a = cpu.snapshot(), b = gpu.snapshot();
    EXPECT_EQ(a.step, b.step);
    EXPECT_EQ(a.time, b.time);
    ASSERT_EQ(a.fields.size(), b.fields.size());
    for (std::size_t f = 0; f < a.fields.size(); ++f) {
        ASSERT_EQ(a.fields[f].name, b.fields[f].name);
        EXPECT_EQ(a.fields[f].bytes, b.fields[f].bytes) << "field " << a.fields[f].name;
    }
}

void expectSameMetrics(Model& cpu, Model& gpu) {
    const std::vector<Metric> a = cpu.metrics(), b = gpu.metrics();
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t k = 0; k < a.size(); ++k) {
        EXPECT_EQ(a[k].name, b[k].name);
        EXPECT_EQ(a[k].value, b[k].value) << a[k].name;  // same integers, same host code
    }
}

double metric(Model& m, const std::string& name) {
    for (const Metric& x : m.metrics())
        if (x.name == name) return x.value;
    throw std::runtime_error("no metric " + name);
}

// Same seed and parameters on both backends, 200 steps with a live edit of D (and of the
// reaction rates) at step 100
// (the thresholds reach the device's constant memory in stream order). Cases: packed32
// n_max = 2 at 1 particle per site (overflows on most steps), byte16 at low occupancy (no
// overflows), packed32 n_max = 4 with reflective walls and 20% obstacles.
TEST(LatticeCuda, MatchesCpuBitForBit) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const std::vector<Case> cases = {
        {"packed32 n_max 2, forced overflows",
         {"lattice.nx=12", "lattice.ny=12", "lattice.nz=12", "lattice.layout=packed32",
          "lattice.n_max=2", "lattice.lambda=2", "lattice.tau=10", "species.count=3",
          "species.d1=200", "species.d2=100", "species.d3=20", "species.n1=700", "species.n2=600",
          "species.n3=428", "tracking.per_species=100", "validation.check_counts=true"},
         true},
        {"byte16, no overflows",
         {"lattice.nx=24", "lattice.ny=20", "lattice.nz=16", "lattice.layout=byte16",
          "lattice.lambda=2", "lattice.tau=10", "species.count=2", "species.d1=100",
          "species.d2=25", "species.n1=1500", "species.n2=1500", "tracking.per_species=1500",
          "validation.check_counts=true"},
         false},
        {"packed32 n_max 4, reflective walls and obstacles",
         {"lattice.nx=14", "lattice.ny=12", "lattice.nz=10", "lattice.layout=packed32",
          "lattice.n_max=4", "lattice.boundary_x=reflective", "lattice.boundary_y=reflective",
          "lattice.boundary_z=reflective", "lattice.obstacle_fraction=0.2", "lattice.lambda=2",
          "lattice.tau=10", "species.count=2", "species.d1=200", "species.d2=60", "species.n1=1500",
          "species.n2=1500", "tracking.per_species=1500"},
         true},
        // A -> 6 B: four products in the site's list, two beyond it (ReactionEntry::
        // lastCopies), in sites that hold 2: the excess copies overflow like the rest.
        {"packed32 n_max 2, bursts of six products",
         {"lattice.nx=10", "lattice.ny=10", "lattice.nz=10", "lattice.layout=packed32",
          "lattice.n_max=2", "lattice.lambda=2", "lattice.tau=10", "species.count=2",
          "species.names=A, B", "species.d1=200", "species.d2=100", "species.n1=300",
          "species.n2=0", "tracking.per_species=100", "validation.check_counts=true",
          "reactions.network=A -> 6 B @ 2e6; B -> 0 @ 1e6"},
         true},
        {"byte16, spherical cell, sphere obstacles, region rules, reactions",
         test::sphericalCell({"lattice.obstacle_fraction=0.1", "obstacles.shape=spheres",
                              "obstacles.radius=12",
                              "reactions.network=A + B -> C @ 1e8; C -> A + B @ 1e4; 0 -> A @ 1 "
                              "in cytoplasm; A -> 0 @ 100 in membrane"}),
         false},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        ParamSet ps(lattice::parameterTable());
        for (const std::string& a : c.assignments)
            ps.setFromAssignment(a);
        auto cpu = makeOn(Backend::Cpu, ps, 11);
        auto gpu = makeOn(Backend::Cuda, ps, 11);
        expectSameSnapshots(*cpu, *gpu, "initial state");
        cpu->advance(1);
        gpu->advance(1);
        expectSameSnapshots(*cpu, *gpu, "step 1");
        cpu->advance(99);
        gpu->advance(99);
        expectSameSnapshots(*cpu, *gpu, "step 100");
        ps.setFromAssignment("species.d2=30");
        // A live edit of the network (rates) where there is one: new table, same order.
        if (std::string(c.name).find("reactions") != std::string::npos)
            ps.setFromAssignment(
                "reactions.network=A + B -> C @ 5e7; C -> A + B @ 2e4; 0 -> A @ 2 in cytoplasm; "
                "A -> 0 @ 50 in membrane");
        cpu->setLiveParameters(ps);
        gpu->setLiveParameters(ps);
        cpu->advance(100);
        gpu->advance(100);
        expectSameSnapshots(*cpu, *gpu, "step 200");
        expectSameMetrics(*cpu, *gpu);
        if (std::string(c.name).find("reactions") != std::string::npos) {
            const auto fired = gpu->snapshot().at("reactions_fired").as<std::uint64_t>();
            std::printf("%s: reactions fired %llu %llu %llu %llu\n", c.name,
                        static_cast<unsigned long long>(fired[0]),
                        static_cast<unsigned long long>(fired[1]),
                        static_cast<unsigned long long>(fired[2]),
                        static_cast<unsigned long long>(fired[3]));
            for (int r = 0; r < 4; ++r)
                EXPECT_GT(fired[r], 0u) << "reaction " << r;
        }
        const double overflows = metric(*gpu, "overflows_total");
        if (c.overflows) {
            EXPECT_GT(overflows, 0);
        }
        std::printf("%s: %.0f overflows in 200 steps, identical\n", c.name, overflows);
    }
}

// The device-packed view equals the CPU's: same points in the same order, same species;
// positions to 1e-4 nm (the only difference allowed is cosf/sinf's <= 2 ulp on the device,
// i.e. < 1e-5 nm at the <= 48 nm coordinates here).
TEST(LatticeCuda, ViewsMatchCpu) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    ParamSet ps(lattice::parameterTable());
    for (const char* a : {"lattice.nx=24", "lattice.ny=20", "lattice.nz=16", "lattice.lambda=2",
                          "lattice.layout=packed32", "lattice.n_max=4", "species.count=3",
                          "species.n1=3000", "species.n2=2000", "species.n3=1000"})
        ps.setFromAssignment(a);
    auto cpu = makeOn(Backend::Cpu, ps, 5);
    auto gpu = makeOn(Backend::Cuda, ps, 5);
    cpu->advance(20);
    gpu->advance(20);
    const ModelViews va = cpu->views(), vb = gpu->views();
    gpu->synchronize();
    const PointCloudView &a = va.clouds.at(0), &b = vb.clouds.at(0);
    EXPECT_EQ(b.space, MemorySpace::Device);
    ASSERT_EQ(a.count, 6000u);
    ASSERT_EQ(b.count, a.count);
    const auto pa = viewToHost(a.positions, 4 * a.count, a.space);
    const auto pb = viewToHost(b.positions, 4 * b.count, b.space);
    const auto ca = viewToHost(a.categories.at(0).data, a.count, a.space);
    const auto cb = viewToHost(b.categories.at(0).data, b.count, b.space);
    for (std::size_t i = 0; i < a.count; ++i) {
        ASSERT_EQ(ca[i], cb[i]) << "point " << i;
        for (int k = 0; k < 4; ++k)
            ASSERT_NEAR(pa[4 * i + k], pb[4 * i + k], 1e-4) << "point " << i << " comp " << k;
    }
    EXPECT_EQ(b.categories.at(0).labels, a.categories.at(0).labels);
}

}  // namespace
}  // namespace cf
