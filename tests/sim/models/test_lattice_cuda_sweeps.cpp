// SPDX-License-Identifier: GPL-3.0-or-later
// The three CUDA sweep kernels (warp, tiled, per-site; CELLFORGE_LATTICE_SWEEP forces one)
// give the CPU reference's lattice bit for bit: every snapshot field (words, ids,
// displacements, counters) and metric after 1, 40 and 80 steps, on lattices chosen for the
// warp sweep's paths: sparse (its compacted draws), dense byte16 and packed32 n_max 8 (sites
// of 4 or more particles, which take the per-site path, and their neighbours), overflows in
// packed32 (n_max 2 at one particle per site) and byte16 (beyond 16 per site), reflective
// walls, obstacles, sizes that leave partial warps, axes of 1 and 2 sites, reactions.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/models/lattice/lattice_model.hpp"
#include "tests/sim/models/lattice_cuda_cases.hpp"
#include "tests/support/backends.hpp"
#include "tests/support/env_guard.hpp"

namespace cf {
namespace {

using test::EnvGuard;

// The model is built with `kernel` forced ("" for the CPU backend).
std::unique_ptr<Model> makeWith(const char* kernel, const ParamSet& ps, std::uint32_t seed) {
    const bool cpu = *kernel == '\0';
    if (!cpu) setenv("CELLFORGE_LATTICE_SWEEP", kernel, 1);
    auto m = lattice::descriptor().create(cpu ? Backend::Cpu : Backend::Cuda);
    m->reset(ps, seed);
    return m;
}

void expectSame(Model& want, Model& got, const char* kernel, const char* when) {
    SCOPED_TRACE(::testing::Message() << kernel << ", " << when);
    const Snapshot a = want.snapshot(), b = got.snapshot();
    EXPECT_EQ(a.step, b.step);
    ASSERT_EQ(a.fields.size(), b.fields.size());
    for (std::size_t f = 0; f < a.fields.size(); ++f) {
        ASSERT_EQ(a.fields[f].name, b.fields[f].name);
        EXPECT_EQ(a.fields[f].bytes, b.fields[f].bytes) << "field " << a.fields[f].name;
    }
    const std::vector<Metric> ma = want.metrics(), mb = got.metrics();
    ASSERT_EQ(ma.size(), mb.size());
    for (std::size_t k = 0; k < ma.size(); ++k)
        EXPECT_EQ(ma[k].value, mb[k].value) << ma[k].name;
}

double metric(Model& m, const std::string& name) {
    for (const Metric& x : m.metrics())
        if (x.name == name) return x.value;
    throw std::runtime_error("no metric " + name);
}

struct Case {
    const char* name;
    std::vector<std::string> assignments;
    bool overflows;  // the case must overflow
};

TEST(LatticeCuda, SweepKernelsMatchCpuBitForBit) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const EnvGuard guard("CELLFORGE_LATTICE_SWEEP");
    const std::vector<Case> cases = {
        {"byte16 sparse, 0.1 per site, partial warps",
         {"lattice.nx=45", "lattice.ny=21", "lattice.nz=19", "lattice.layout=byte16",
          "species.count=2", "species.d1=100", "species.d2=50", "species.n1=900", "species.n2=895",
          "tracking.per_species=400", "validation.check_counts=true"},
         false},
        {"byte16 dense, 3 per site, reflective x and z, obstacles",
         {"lattice.nx=33", "lattice.ny=9", "lattice.nz=17", "lattice.layout=byte16",
          "lattice.boundary_x=reflective", "lattice.boundary_z=reflective",
          "lattice.obstacle_fraction=0.1", "species.count=3", "species.d1=200", "species.d2=100",
          "species.d3=20", "species.n1=7000", "species.n2=6000", "species.n3=2500",
          "tracking.per_species=1000", "validation.check_counts=true"},
         false},
        {"byte16 overflowing, 11 per site",
         {"lattice.nx=20", "lattice.ny=12", "lattice.nz=10", "lattice.layout=byte16",
          "species.count=2", "species.d1=200", "species.d2=100", "species.n1=13200",
          "species.n2=13200", "tracking.per_species=500", "validation.check_counts=true"},
         true},
        {"packed32 n_max 2, forced overflows",
         {"lattice.nx=31", "lattice.ny=10", "lattice.nz=9", "lattice.layout=packed32",
          "lattice.n_max=2", "species.count=3", "species.d1=200", "species.d2=100", "species.d3=20",
          "species.n1=1100", "species.n2=1000", "species.n3=690", "tracking.per_species=300",
          "validation.check_counts=true"},
         true},
        {"packed32 n_max 8, 2 per site (sites beyond 4)",
         {"lattice.nx=64", "lattice.ny=16", "lattice.nz=8", "lattice.layout=packed32",
          "lattice.n_max=8", "species.count=2", "species.d1=200", "species.d2=60",
          "species.n1=8192", "species.n2=8192", "tracking.per_species=2000",
          "validation.check_counts=true"},
         false},
        {"packed32 n_max 4, 0.1 per site, reflective, obstacles, no tracking",
         {"lattice.nx=61", "lattice.ny=30", "lattice.nz=12", "lattice.layout=packed32",
          "lattice.n_max=4", "lattice.boundary_x=reflective", "lattice.boundary_y=reflective",
          "lattice.boundary_z=reflective", "lattice.obstacle_fraction=0.2", "species.count=2",
          "species.d1=200", "species.d2=60", "species.n1=1100", "species.n2=1100",
          "tracking.per_species=0"},
         false},
        {"byte16, axes of 1 and 2 sites",
         {"lattice.nx=1", "lattice.ny=2", "lattice.nz=40", "lattice.layout=byte16",
          "species.count=1", "species.d1=200", "species.n1=100", "tracking.per_species=100"},
         false},
        {"packed32 n_max 4, axes of 2 and 1 sites",
         {"lattice.nx=2", "lattice.ny=37", "lattice.nz=1", "lattice.layout=packed32",
          "lattice.n_max=4", "lattice.boundary_y=reflective", "species.count=1", "species.d1=200",
          "species.n1=60", "tracking.per_species=60"},
         false},
        {"byte16, spherical cell, region rules, reactions",
         test::sphericalCell({"reactions.network=A + B -> C @ 1e8; C -> A + B @ 1e4"}), false},
    };
    const char* kernels[] = {"warp", "tiled", "site"};
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        ParamSet ps(lattice::parameterTable());
        for (const std::string& a : c.assignments)
            ps.setFromAssignment(a);
        auto cpu = makeWith("", ps, 23);
        std::vector<std::unique_ptr<Model>> gpus;
        for (const char* k : kernels)
            gpus.push_back(makeWith(k, ps, 23));
        const std::uint64_t steps[] = {1, 39, 40};
        const char* when[] = {"step 1", "step 40", "step 80"};
        for (int p = 0; p < 3; ++p) {
            cpu->advance(steps[p]);
            for (std::size_t k = 0; k < gpus.size(); ++k) {
                gpus[k]->advance(steps[p]);
                expectSame(*cpu, *gpus[k], kernels[k], when[p]);
            }
        }
        const double overflows = metric(*cpu, "overflows_total");
        if (c.overflows) {
            EXPECT_GT(overflows, 0) << "the case was meant to overflow";
        }
        std::printf("%s: %.0f overflows in 80 steps, warp, tiled and site identical to the CPU\n",
                    c.name, overflows);
    }
}

// A kernel name the backend does not know is refused, naming the variable and the choices:
// a comparison must not run the default kernel under another name.
TEST(LatticeCuda, UnknownSweepKernelIsRefused) {
    CF_REQUIRE_BACKEND(Backend::Cuda);
    const EnvGuard guard("CELLFORGE_LATTICE_SWEEP");
    setenv("CELLFORGE_LATTICE_SWEEP", "warpp", 1);
    try {
        auto m = lattice::descriptor().create(Backend::Cuda);
        ADD_FAILURE() << "CELLFORGE_LATTICE_SWEEP=warpp was accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("warp, tiled, site"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace cf
