// SPDX-License-Identifier: GPL-3.0-or-later
// The `gliding` model with its bound motors split by rows of anchors over as many ranks as
// mpirun gave (1 to 4 in CI; anchor_rows.hpp) against one rank: rank 0 also runs the same
// parameters and seed without distribute(), and the ranks' snapshot pieces, assembled, are
// compared with its snapshot.
//
// What must hold exactly, and what within a tolerance:
// - Each anchor's motors are sub-cycled from the same Psi by the same code on whichever rank
//   owns it, and every rank advances the filaments and the fluid itself from the same inputs.
//   So without the fluid (no force to sum) and right after the burn-in, every field equals one
//   rank's bit for bit.
// - With the fluid, each rank computes the force of its own anchors and the ranks' parts are
//   summed: the force at a node is the same terms added in another order (per rank, then over
//   the ranks), which changes its last bits (relative 1e-16). The flow is linear in the force
//   and advects Psi, whose next step the motors read; over the dozen steps here the differences
//   stay at round-off. Tolerance: 1e-11 of each field's largest magnitude, thousands of times
//   the round-off measured (printed) and far below any physical change of a step (1e-3).
// - Every rank holds the same Psi and flow: their metrics are equal on every rank, bit for bit.
//
// Each case runs on the CPU and on CUDA ranks ("Cpu"/"Cuda" in the names; tests.cmake runs the
// CUDA ones as .gpu entries, one GPU per rank).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/errors.hpp"
#include "sim/dist/distributable.hpp"
#include "sim/dist/grid_gather.hpp"
#include "sim/models/gliding/anchor_rows.hpp"
#include "sim/models/gliding/gliding_model.hpp"
#include "tests/support/backends.hpp"
#include "tests/support/rank_case.hpp"
#include "tests/support/rank_compare.hpp"
#include "tests/support/ranks.hpp"

namespace cf::gliding {
namespace {

using dist::Communicator;

ParamSet paramsOf(const std::vector<std::string>& assignments) {
    ParamSet p{descriptor().parameters()};
    for (const char* a : {"grid.n=32", "grid.ninner=16", "motors.burn_in=0.5"})
        p.setFromAssignment(a);
    for (const std::string& a : assignments)
        p.setFromAssignment(a);
    return p;
}

std::unique_ptr<Model> onRanks(Backend b, const ParamSet& p, std::uint32_t seed) {
    return test::distributedModel(descriptor(), b, p, seed);
}

// The per-cell fields of a snapshot piece (psi, density, motor sums, flow, the AB2 history and
// the flow gradient), assembled on rank 0 from every rank's rows; bound_packed likewise
// (anchor-major, so a rank's rows are one contiguous run of it). Collective.
Snapshot assembled(Model& m) {
    Communicator& comm = test::ranks();
    Snapshot mine = m.snapshot();
    const dist::GridPiece piece = dynamic_cast<dist::Distributable&>(m).piece();
    const std::size_t pieceCells = piece.dims[0] * piece.dims[1];
    EXPECT_EQ(mine.gridDims[1], piece.dims[1]);
    EXPECT_EQ(mine.boxLo[1], static_cast<double>(piece.offset[1]) / piece.globalDims[1]);
    Snapshot out = mine;
    out.gridDims[1] = piece.globalDims[1];
    for (Field& f : out.fields) {
        if (f.name == "ab2_step") continue;
        const std::size_t per = f.bytes.size() / pieceCells;  // bytes per cell (S values: packed)
        f.bytes = dist::gatherGridBytes(comm, piece, f.bytes, per, 0);
        f.count = f.bytes.size() / (sizeOf(f.type) * static_cast<std::size_t>(f.components));
    }
    return out;
}

struct Worst {
    std::string field;
    double relative = 0;
};

// Rank 0: every field of the ranks' run against the serial one, bitwise (`tolerance` 0) or
// within `tolerance` of the field's largest magnitude; every rank: the metrics equal rank 0's
// bit for bit, and the serial ones within the tolerance (the stage times aside). Collective.
Worst expectSame(Model& distributed, Model* serial, double tolerance, const std::string& when) {
    Communicator& comm = test::ranks();
    const Snapshot whole = assembled(distributed);
    const std::vector<Metric> mine = distributed.metrics();
    std::vector<double> values;
    for (const Metric& x : mine)
        values.push_back(x.value);
    const std::vector<double> lead = comm.broadcastDoubles(values, 0);
    for (std::size_t k = 0; k < values.size(); ++k)
        EXPECT_EQ(std::memcmp(&values[k], &lead[k], sizeof(double)), 0)
            << when << ": metric " << mine[k].name << " on rank " << comm.rank() << " is "
            << values[k] << ", on rank 0 " << lead[k];
    Worst worst;
    if (comm.rank() != 0) return worst;
    const Snapshot s = serial->snapshot();
    EXPECT_EQ(whole.step, s.step) << when;
    for (const Field& f : s.fields) {
        const Field* g = whole.find(f.name);
        if (!g) {
            ADD_FAILURE() << when << ": no field " << f.name;
            continue;
        }
        if (g->bytes.size() != f.bytes.size()) {
            ADD_FAILURE() << when << ": field " << f.name << " has " << g->bytes.size()
                          << " bytes, one rank's " << f.bytes.size();
            continue;
        }
        if (tolerance == 0) {
            EXPECT_TRUE(g->bytes == f.bytes) << when << ": field " << f.name << " differs";
            continue;
        }
        const std::vector<double> a = g->as<double>(), b = f.as<double>();
        double scale = 0, diff = 0;
        for (std::size_t i = 0; i < a.size(); ++i) {
            scale = std::max(scale, std::abs(b[i]));
            diff = std::max(diff, std::abs(a[i] - b[i]));
        }
        const double relative = scale > 0 ? diff / scale : diff;
        EXPECT_LE(relative, tolerance) << when << ": field " << f.name;
        if (relative >= worst.relative) worst = {f.name, relative};
    }
    const std::vector<Metric> reference = serial->metrics();
    EXPECT_EQ(mine.size(), reference.size()) << when;
    for (std::size_t k = 0; k < mine.size() && k < reference.size(); ++k) {
        if (reference[k].name.rfind("time ", 0) == 0) continue;  // wall times
        const double r = reference[k].value;
        EXPECT_LE(std::abs(mine[k].value - r), tolerance * std::max(1.0, std::abs(r)))
            << when << ": metric " << reference[k].name;
    }
    return worst;
}

// `steps` outer steps in `chunks` on the ranks and (rank 0) on one rank, compared at reset and
// after each chunk.
void runCase(Backend b, const std::vector<std::string>& assignments, int steps, int chunks,
             double tolerance, const char* name) {
    Communicator& comm = test::ranks();
    const ParamSet p = paramsOf(assignments);
    std::unique_ptr<Model> serial;
    if (comm.rank() == 0) {
        serial = descriptor().create(b);
        serial->reset(p, 7);
    }
    std::unique_ptr<Model> ranks = onRanks(b, p, 7);
    if (comm.size() > 1) {
        const ModelViews v = ranks->views();  // a distributed run is headless
        EXPECT_TRUE(v.clouds.empty() && v.planes.empty() && v.volumes.empty());
    }
    // The burn-in sub-cycles each anchor on its owner from the same initial Psi: exact.
    expectSame(*ranks, serial.get(), 0, std::string(name) + " after the burn-in");
    Worst worst;
    for (int c = 0; c < chunks; ++c) {
        const int n = steps / chunks;
        ranks->advance(static_cast<std::uint64_t>(n));
        if (serial) serial->advance(static_cast<std::uint64_t>(n));
        const Worst w =
            expectSame(*ranks, serial.get(), tolerance,
                       std::string(name) + " after " + std::to_string(n * (c + 1)) + " steps");
        if (w.relative >= worst.relative) worst = w;
    }
    if (comm.rank() == 0)
        std::printf("%s on %d ranks: largest difference from one rank %.2e (%s), tolerance %.0e\n",
                    name, comm.size(), worst.relative, worst.field.c_str(), tolerance);
}

// The dry limit: motors on, no fluid, so no force is summed: every field, bit for bit.
CF_RANK_CASE(GlidingRanks, DryLimitEqualsOneRankBitwise) {
    runCase(b, {"fluid.enabled=false"}, 6, 2, 0, "dry limit");
}

// The coupled model (S1 Fig. 6 ring lattice): motors, force, Stokes flow. At 64^2 x 16^2 the
// gathers reach one row beyond an anchor's (at 32^2 they stay on it): each rank's part of the
// force reaches its neighbours' rows.
CF_RANK_CASE(GlidingRanks, CoupledRunEqualsOneRankToRoundOff) {
    runCase(b, {"grid.n=64"}, 8, 2, 1e-11, "coupled");
}

// The same on the coarse grid, where the gathers stay on their rows.
CF_RANK_CASE(GlidingRanks, CoupledCoarseGridEqualsOneRankToRoundOff) {
    runCase(b, {}, 8, 2, 1e-11, "coupled 32^2");
}

// A checkpoint of the ranks (one piece per rank) continues on as many ranks exactly as the run
// that was not interrupted.
CF_RANK_CASE(GlidingRanks, RestartFromPiecesContinuesExactly) {
    const ParamSet p = paramsOf({"grid.n=64"});
    std::unique_ptr<Model> straight = onRanks(b, p, 3);
    straight->advance(3);
    const Snapshot piece = straight->snapshot();
    straight->advance(3);
    std::unique_ptr<Model> resumed = onRanks(b, p, 3);
    resumed->restore(piece);
    EXPECT_EQ(resumed->step(), 3u);
    resumed->advance(3);
    const Snapshot a = resumed->snapshot(), c = straight->snapshot();
    for (const Field& f : c.fields) {
        const Field* g = a.find(f.name);
        ASSERT_NE(g, nullptr) << f.name;
        EXPECT_TRUE(g->bytes == f.bytes)
            << "field " << f.name << " on rank " << test::ranks().rank();
    }
}

// The bands a rank computes on: one rank's are the whole grid; on several, W covers the rank's
// rows plus the gathers' reach (one row either side at 64^2, none at 32^2).
TEST(GlidingRanks, BandsFollowTheGathersReach) {
    for (const char* n : {"grid.n=32", "grid.n=64"}) {
        const GlidingParams p = checkedParams(paramsOf({n}));
        const GlidingTables t = buildTables(p);
        const AnchorRows whole = wholeGrid(t);  // every band of one rank is the whole grid
        for (const RowBand& band : {whole.w, whole.f})
            EXPECT_TRUE(band.whole(t.n)) << n;
        const AnchorRows rows = anchorRows(t, test::ranks());
        if (test::ranks().size() == 1) continue;
        const int reach = p.n == 64 ? 1 : 0;
        EXPECT_EQ(rows.w.count, rows.end - rows.begin + 2 * reach) << n;
        EXPECT_EQ(rows.w.first, (rows.begin - reach + t.n) % t.n) << n;
        EXPECT_GE(rows.f.count, rows.w.count) << n;
    }
}

// A piece written by another rank layout (here: the whole grid's snapshot) is refused with an
// IoError naming a field, on every rank (none waits alone).
TEST(GlidingRanks, PieceOfOtherRowsIsRefused) {
    if (test::ranks().size() == 1) GTEST_SKIP() << "one rank holds every row";
    const ParamSet p = paramsOf({});
    std::unique_ptr<Model> serial = descriptor().create(Backend::Cpu);
    serial->reset(p, 3);
    std::unique_ptr<Model> ranks = onRanks(Backend::Cpu, p, 3);
    try {
        ranks->restore(serial->snapshot());
        ADD_FAILURE() << "a whole-grid snapshot was taken as a piece";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("snapshot field"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace cf::gliding
