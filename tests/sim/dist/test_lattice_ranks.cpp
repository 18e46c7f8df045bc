// SPDX-License-Identifier: GPL-3.0-or-later
// The `lattice` model split into z-slabs over as many ranks as mpirun gave (1 to 4 in CI)
// against one rank: rank 0 runs the same parameters and seed without distribute() in the
// same process, and the ranks' snapshot pieces, assembled, must equal its snapshot byte for
// byte, and every rank's metrics its metrics exactly (EXPECT_EQ on doubles: the slabs draw
// the same random numbers, place overflows at the same sites and reduce integers only, so
// equality holds by construction, not within a tolerance).
//
// Each case runs on the CPU and on CUDA ranks (CF_RANK_CASE: "Cpu" and "Cuda" in the
// names; tests.cmake runs the CUDA ones as .gpu entries, one GPU per rank).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/dist/distributable.hpp"
#include "sim/dist/grid_gather.hpp"
#include "sim/models/lattice/lattice_model.hpp"
#include "sim/models/lattice/lattice_slab.hpp"
#include "tests/support/backends.hpp"
#include "tests/support/rank_case.hpp"
#include "tests/support/ranks.hpp"

namespace cf::lattice {
namespace {

using dist::Communicator;

ParamSet paramsOf(const std::vector<std::string>& assignments) {
    const ModelDescriptor d = descriptor();
    ParamSet p{d.parameters()};
    for (const std::string& a : assignments)
        p.setFromAssignment(a);
    return p;
}

// A model on the ranks (distribute() before reset, as the driver does).
std::unique_ptr<Model> onRanks(Backend b, const ParamSet& p, std::uint32_t seed) {
    std::unique_ptr<Model> m = descriptor().create(b);
    auto* d = dynamic_cast<dist::Distributable*>(m.get());
    if (!d) throw Error("the lattice model is not Distributable");
    d->distribute(test::ranks());
    m->reset(p, seed);
    return m;
}

// The whole lattice's snapshot on rank 0 from every rank's piece (collective): grid fields
// (planes of one value per site: occupancy, site_type, sites' word planes, ids' slot planes)
// assembled with gatherGrid, displacement shares summed (globalDisplacement), reaction
// counts summed, the rest as rank 0 holds it.
Snapshot assembled(Model& m, const Snapshot& mine) {
    Communicator& comm = test::ranks();
    const dist::GridPiece piece = dynamic_cast<dist::Distributable&>(m).piece();
    const std::size_t pieceSites = piece.dims[0] * piece.dims[1] * piece.dims[2];
    for (std::size_t a = 0; a < 3; ++a)  // the piece's own grid and box
        EXPECT_EQ(mine.gridDims[a], piece.dims[a]);
    const double lambda = mine.boxHi[0] / static_cast<double>(piece.dims[0]);
    EXPECT_EQ(mine.boxLo[2], lambda * static_cast<double>(piece.offset[2]));
    EXPECT_EQ(mine.boxHi[2], lambda * static_cast<double>(piece.offset[2] + piece.dims[2]));
    Snapshot out = mine;
    for (std::size_t a = 0; a < 3; ++a)
        out.gridDims[a] = piece.globalDims[a];
    for (Field& f : out.fields) {
        if (f.name == "occupancy" || f.name == "site_type" || f.name == "sites" ||
            f.name == "ids") {
            const std::size_t valueBytes = f.count > 0 ? f.bytes.size() / f.count : 1;
            const std::size_t layers = f.count / pieceSites;
            std::vector<std::byte> whole;
            for (std::size_t k = 0; k < layers; ++k) {
                const std::span<const std::byte> layer(f.bytes.data() + k * pieceSites * valueBytes,
                                                       pieceSites * valueBytes);
                const std::vector<std::byte> w =
                    dist::gatherGridBytes(comm, piece, layer, valueBytes, 0);
                whole.insert(whole.end(), w.begin(), w.end());
            }
            f.count = whole.size() / valueBytes;
            f.bytes = std::move(whole);
        } else if (f.name == "displacement") {
            std::vector<std::int32_t> sum;
            std::vector<std::uint64_t> scratch;
            globalDisplacement(comm, f.as<std::int32_t>(), sum, scratch);
            f.bytes = Field::of<std::int32_t>("", "", f.role, 3, sum).bytes;
        } else if (f.name == "reactions_fired") {
            std::vector<std::uint64_t> fired = f.as<std::uint64_t>();
            comm.allreduce(std::span<std::uint64_t>(fired), dist::ReduceOp::Sum);
            f.bytes = Field::of<std::uint64_t>("", "", f.role, 1, fired).bytes;
        }
    }
    return out;
}

// Rank 0: `ranks` (assembled) equals `serial` field for field; every rank: the metrics
// equal rank 0's serial ones. Collective.
void expectSame(Model& distributed, Model* serial, const std::string& when) {
    Communicator& comm = test::ranks();
    const Snapshot whole = assembled(distributed, distributed.snapshot());
    const std::vector<Metric> mine = distributed.metrics();
    std::vector<double> reference;
    if (comm.rank() == 0) {
        const Snapshot s = serial->snapshot();
        EXPECT_EQ(whole.step, s.step) << when;
        EXPECT_EQ(whole.time, s.time) << when;
        EXPECT_EQ(whole.fields.size(), s.fields.size()) << when;
        for (const Field& f : s.fields) {
            bool found = false;
            for (const Field& g : whole.fields)
                if (g.name == f.name) {
                    found = true;
                    EXPECT_EQ(g.count, f.count) << when << ": " << f.name;
                    EXPECT_TRUE(g.bytes == f.bytes) << when << ": field " << f.name << " differs";
                }
            EXPECT_TRUE(found) << when << ": no field " << f.name;
        }
        for (const Metric& x : serial->metrics())
            reference.push_back(x.value);
    }
    reference = comm.broadcastDoubles(reference, 0);
    EXPECT_EQ(mine.size(), reference.size()) << when;
    for (std::size_t k = 0; k < mine.size() && k < reference.size(); ++k)
        EXPECT_EQ(mine[k].value, reference[k])
            << when << ": metric " << mine[k].name << " on rank " << comm.rank();
}

double valueOf(const std::vector<Metric>& metrics, const std::string& name) {
    for (const Metric& x : metrics)
        if (x.name == name) return x.value;
    ADD_FAILURE() << "no metric " << name;
    return 0;
}

// `steps` steps in `chunks` chunks on the ranks and (rank 0) on one rank, compared after
// each chunk. Returns the distributed model's final metrics (equal on every rank).
std::vector<Metric> runCase(Backend b, const std::vector<std::string>& assignments,
                            std::uint32_t seed, int steps, int chunks, const char* name) {
    Communicator& comm = test::ranks();
    const ParamSet p = paramsOf(assignments);
    std::unique_ptr<Model> serial;
    if (comm.rank() == 0) {
        serial = descriptor().create(b);
        serial->reset(p, seed);
    }
    std::unique_ptr<Model> ranks = onRanks(b, p, seed);
    if (comm.size() > 1) {  // a distributed run is headless
        const ModelViews v = ranks->views();
        EXPECT_TRUE(v.clouds.empty() && v.planes.empty() && v.volumes.empty());
    }
    expectSame(*ranks, serial.get(), std::string(name) + " at reset");
    double seconds = 0;
    for (int c = 0; c < chunks; ++c) {
        const int n = steps / chunks;
        comm.barrier();
        const auto t0 = std::chrono::steady_clock::now();
        ranks->advance(static_cast<std::uint64_t>(n));
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (serial) serial->advance(static_cast<std::uint64_t>(n));
        expectSame(*ranks, serial.get(),
                   std::string(name) + " after " + std::to_string(n * (c + 1)) + " steps");
    }
    std::vector<Metric> metrics = ranks->metrics();
    if (comm.rank() == 0)
        std::printf("%s on %d ranks: %d steps in %.3f s, %.0f overflows\n", name, comm.size(),
                    steps, seconds, valueOf(metrics, "overflows_total"));
    return metrics;
}

// Free diffusion in a periodic box, identities tracked: particles and their ids cross the
// slab boundaries in both directions and around the periodic z.
CF_RANK_CASE(LatticeRanks, FreeDiffusionEqualsOneRank) {
    runCase(b,
            {"lattice.nx=12", "lattice.ny=10", "lattice.nz=9", "lattice.lambda=2", "lattice.tau=10",
             "species.count=2", "species.d1=200", "species.d2=60", "species.n1=1500",
             "species.n2=800", "tracking.per_species=300"},
            11, 60, 3, "free diffusion");
}

// A crowded cell: a sphere (cytoplasm, membrane, outside) with 25 % obstacle spheres in its
// cytoplasm, reflective walls, species crossing the membrane by diffusion rules; the
// packed32 layout with 2 slots per site overflows often, at the slab boundaries too, and
// the re-inserted particles must land where one rank puts them.
CF_RANK_CASE(LatticeRanks, CrowdedCellWithObstaclesAndOverflowsEqualsOneRank) {
    const std::vector<Metric> m = runCase(
        b,
        {"lattice.nx=14",
         "lattice.ny=12",
         "lattice.nz=11",
         "lattice.lambda=2",
         "lattice.tau=10",
         "lattice.boundary_x=reflective",
         "lattice.boundary_y=reflective",
         "lattice.boundary_z=reflective",
         "lattice.layout=packed32",
         "lattice.n_max=2",
         "lattice.obstacle_fraction=0.25",
         "obstacles.shape=spheres",
         "obstacles.radius=3",
         "geometry.region=sphere",
         "geometry.radius=11",
         "species.count=2",
         "species.names=A B",
         "species.d1=200",
         "species.d2=80",
         "species.n1=300",
         "species.n2=200",
         "diffusion.rules=A: cytoplasm -> membrane = 100; A: membrane = 100; A: membrane -> "
         "cytoplasm = 100",
         "tracking.per_species=150",
         "validation.check_counts=true"},
        5, 80, 4, "crowded cell");
    EXPECT_GT(valueOf(m, "overflows_total"), 100);  // the case exercises re-insertion
}

// A + B <-> C (the bimolecular scenario's rates, a smaller box): reactions per site on
// every slab, with tracked reactants that reactions retire on some rank.
CF_RANK_CASE(LatticeRanks, BimolecularReactionEqualsOneRank) {
    const std::vector<Metric> m = runCase(
        b,
        {"lattice.nx=8", "lattice.ny=8", "lattice.nz=8", "lattice.lambda=125",
         "lattice.tau=10000000", "species.count=3", "species.names=A, B, C", "species.d1=0.75",
         "species.d2=0.75", "species.d3=0.75", "species.n1=1000", "species.n2=1000", "species.n3=0",
         "tracking.per_species=200", "reactions.network=A + B -> C @ 1.07e5; C -> A + B @ 0.351",
         "validation.check_counts=true"},
        5, 200, 4, "bimolecular");
    EXPECT_GT(valueOf(m, "count_C"), 50);  // reactions fired
}

// One plane per rank (on 4 ranks; 1, 1, 2 on 3), periodic z, two slots per site: overflow
// searches reach past the next rank and around the periodic end, and the halo planes of a
// rank are both neighbours' only planes.
CF_RANK_CASE(LatticeRanks, OnePlanePerRankEqualsOneRank) {
    const std::vector<Metric> m =
        runCase(b,
                {"lattice.nx=6", "lattice.ny=6", "lattice.nz=4", "lattice.lambda=2",
                 "lattice.tau=10", "lattice.layout=packed32", "lattice.n_max=2", "species.count=2",
                 "species.d1=200", "species.d2=100", "species.n1=70", "species.n2=45",
                 "tracking.per_species=40", "validation.check_counts=true"},
                3, 120, 4, "one plane per rank");
    EXPECT_GT(valueOf(m, "overflows_total"), 100);
}

// Thick slabs and rare overflows (a few per sweep at 0.8 particles per site of 4 slots):
// most sweeps' overflows find room on their own rank's planes, which the ranks then place
// without exchanging them; the others go through the shared search.
CF_RANK_CASE(LatticeRanks, RareOverflowsInThickSlabsEqualOneRank) {
    const std::vector<Metric> m =
        runCase(b,
                {"lattice.nx=6", "lattice.ny=6", "lattice.nz=40", "lattice.lambda=2",
                 "lattice.tau=10", "lattice.layout=packed32", "lattice.n_max=4", "species.count=2",
                 "species.d1=200", "species.d2=100", "species.n1=700", "species.n2=450",
                 "tracking.per_species=300", "validation.check_counts=true"},
                8, 200, 4, "rare overflows");
    EXPECT_GT(valueOf(m, "overflows_total"), 50);
}

// Checkpoint restart: each rank's snapshot at step k, restored into a fresh distributed
// model, continues to step 2k exactly as the straight run (and as one rank does).
CF_RANK_CASE(LatticeRanks, CheckpointRestartIsBitIdentical) {
    Communicator& comm = test::ranks();
    const ParamSet p =
        paramsOf({"lattice.nx=10", "lattice.ny=9", "lattice.nz=10", "lattice.layout=packed32",
                  "lattice.n_max=2", "lattice.boundary_z=reflective", "species.count=2",
                  "species.d1=100", "species.d2=40", "species.n1=700", "species.n2=500",
                  "tracking.per_species=200", "validation.check_counts=true"});
    std::unique_ptr<Model> straight = onRanks(b, p, 21);
    straight->advance(30);
    const Snapshot mid = straight->snapshot();
    straight->advance(30);
    std::unique_ptr<Model> resumed = onRanks(b, p, 21);
    resumed->restore(mid);
    resumed->advance(30);
    const Snapshot sa = straight->snapshot(), sb = resumed->snapshot();
    EXPECT_EQ(sb.step, sa.step);
    EXPECT_EQ(sb.time, sa.time);
    // EXPECT only: a rank leaving early would leave the others waiting in a collective.
    EXPECT_EQ(sb.fields.size(), sa.fields.size());
    for (std::size_t f = 0; f < sa.fields.size() && f < sb.fields.size(); ++f)
        EXPECT_TRUE(sb.fields[f].bytes == sa.fields[f].bytes)
            << sa.fields[f].name << " differs on rank " << comm.rank();
    const std::vector<Metric> ma = straight->metrics(), mb = resumed->metrics();
    EXPECT_EQ(ma.size(), mb.size());
    for (std::size_t k = 0; k < ma.size() && k < mb.size(); ++k)
        EXPECT_EQ(mb[k].value, ma[k].value) << ma[k].name;
    // And both equal one rank's run.
    std::unique_ptr<Model> serial;
    if (comm.rank() == 0) {
        serial = descriptor().create(b);
        serial->reset(p, 21);
        serial->advance(60);
    }
    expectSame(*resumed, serial.get(), "restarted at step 30");
}

// More ranks than z-planes: every rank refuses at reset, naming the parameter.
CF_RANK_CASE(LatticeRanks, MoreRanksThanPlanesIsRefusedByName) {
    Communicator& comm = test::ranks();
    if (comm.size() < 2) GTEST_SKIP() << "one rank holds any number of planes";
    const int nz = comm.size() - 1;
    const ParamSet p = paramsOf({"lattice.nx=4", "lattice.ny=4", "lattice.nz=" + std::to_string(nz),
                                 "species.n1=10", "species.n2=10", "tracking.per_species=0"});
    try {
        onRanks(b, p, 1);
        ADD_FAILURE() << nz << " planes on " << comm.size() << " ranks accepted";
    } catch (const ParameterError& e) {
        EXPECT_NE(std::string(e.what()).find("lattice.nz = " + std::to_string(nz)),
                  std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace cf::lattice
