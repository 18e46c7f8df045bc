// SPDX-License-Identifier: GPL-3.0-or-later
// `cardiac` tissue split into slabs over the ranks mpirun gave (1 to 4 in CI, on CPU ranks):
// the fields and metrics equal those of one rank bit for bit (every node is computed from
// the same values in the same order: tissue_slab.hpp), across the slab boundaries of a
// wave, a mesh and pacing; a distributed checkpoint restarts bit-identically; errors are
// raised on every rank alike.
#include <gtest/gtest.h>

#include <fstream>

#include "sim/core/errors.hpp"
#include "sim/models/cardiac/cardiac_model.hpp"
#include "sim/models/cardiac/nversion.hpp"
#include "tests/support/backends.hpp"
#include "tests/support/box_mesh.hpp"
#include "tests/support/rank_compare.hpp"

namespace cf {
namespace {

class CardiacRanks : public testing::TestWithParam<Backend> {
protected:
    void SetUp() override { CF_REQUIRE_BACKEND(GetParam()); }
    const ModelDescriptor desc = cardiac::descriptor();
    ParamSet params{desc.parameters()};
    void set(const std::vector<std::string>& assignments) {
        for (const std::string& a : assignments)
            params.setFromAssignment(a);
    }
    // Runs `steps` in `chunks` on one rank (rank 0) and on all, comparing after each chunk.
    void compare(std::uint64_t steps, int chunks, const std::string& what) {
        std::unique_ptr<Model> serial;
        if (test::ranks().rank() == 0) {
            serial = desc.create(GetParam());
            serial->reset(params, 1u);
        }
        std::unique_ptr<Model> ranks = test::distributedModel(desc, GetParam(), params, 1u);
        for (int c = 0; c < chunks; ++c) {
            if (serial) serial->advance(steps / chunks);
            ranks->advance(steps / chunks);
            test::expectSameAsSerial(serial.get(), *ranks,
                                     what + ", step " + std::to_string(ranks->step()));
        }
    }
};

// The N-version benchmark's slab (TP06, 20 x 7 x 3 mm) at dx 0.5 mm: 41 x 15 x 7 nodes,
// split along x. 100 steps (5 ms) keep CI short: the corner's upstroke has begun and its
// subthreshold spread already reaches every slab boundary (a broken halo shows at step 50).
TEST_P(CardiacRanks, NVersionSlabIsBitIdentical) {
    cardiac::NversionOptions o;
    o.dx = 0.5;
    o.dt = 0.05;
    set(cardiac::nversionOverrides(o));
    compare(100, 2, "N-version slab");
}

// A tissue shaped by a mesh (a box over the first 21 of 40 nodes along x): ranks whose
// slab lies outside it hold no tissue; the mirrored surface and the metrics, which count
// tissue only, are those of one rank.
TEST_P(CardiacRanks, MeshedTissueIsBitIdentical) {
    const std::string obj =
        testing::TempDir() + "cardiac_ranks_box_" + std::to_string(test::ranks().rank()) + ".obj";
    const double lo[3] = {-0.1, -0.1, -1.0}, hi[3] = {5.1, 3.1, 1.0};
    test::writeBoxObj(obj, lo, hi);
    set({"tissue.nx=40", "tissue.ny=12", "tissue.dx=0.25", "tissue.mesh=" + obj});
    compare(3000, 2, "meshed tissue");
}

// A paced sheet, longer along y (so split along y: halo planes are strided in memory),
// three beats, trace points on both sides of every slab boundary.
TEST_P(CardiacRanks, PacedSheetWithTracesIsBitIdentical) {
    set({"tissue.nx=14", "tissue.ny=36", "tissue.dx=0.25", "protocol.cycle_length=150",
         "protocol.beats=3", "protocol.region=left_edge",
         "trace.points=a 1 1 0; b 2 4.3 0; c 3.2 8.7 0"});
    compare(9000, 3, "paced sheet");
}

// A checkpoint of every rank's piece restarts bit-identically: 400 steps, save, 400 more;
// a new model restored from the pieces and run 400 steps ends in the same bits.
TEST_P(CardiacRanks, DistributedCheckpointRestartsBitIdentically) {
    set({"tissue.nx=20", "tissue.ny=30", "tissue.dx=0.25", "protocol.cycle_length=100",
         "protocol.beats=2"});
    std::unique_ptr<Model> a = test::distributedModel(desc, GetParam(), params, 1u);
    a->advance(400);
    const Snapshot piece = a->snapshot();
    a->advance(400);
    std::unique_ptr<Model> b = test::distributedModel(desc, GetParam(), params, 1u);
    b->restore(piece);
    EXPECT_EQ(b->step(), 400u);
    b->advance(400);
    const Snapshot x = a->snapshot(), y = b->snapshot();
    ASSERT_EQ(x.fields.size(), y.fields.size());
    for (std::size_t k = 0; k < x.fields.size(); ++k)
        EXPECT_EQ(x.fields[k].bytes, y.fields[k].bytes) << x.fields[k].name;
    const std::vector<Metric> ma = a->metrics(), mb = b->metrics();
    ASSERT_EQ(ma.size(), mb.size());
    for (std::size_t k = 0; k < ma.size(); ++k)
        EXPECT_EQ(std::memcmp(&ma[k].value, &mb[k].value, sizeof(double)), 0) << ma[k].name;
}

// A model that blows up stops every rank with the message of one rank (the first bad node
// in the whole grid's order), and more ranks than planes are refused naming the axis.
TEST_P(CardiacRanks, ErrorsAreTheSameOnEveryRank) {
    const std::string path = testing::TempDir() + "cardiac_ranks_blowup_" +
                             std::to_string(test::ranks().rank()) + ".cfm";
    std::ofstream(path) << "model blowup\n[c]\nstate V = 1 bind potential\ndot(V) = V * V\n";
    set({"model.file=" + path, "tissue.nx=" + std::to_string(test::ranks().size() + 2),
         "tissue.ny=1", "time.dt=0.05"});
    std::string expected;
    if (test::ranks().rank() == 0) {
        auto serial = desc.create(GetParam());
        serial->reset(params, 1u);
        try {
            serial->advance(1000);
        } catch (const SimulationError& e) {
            expected = e.what();
        }
    }
    auto ranks = test::distributedModel(desc, GetParam(), params, 1u);
    try {
        ranks->advance(1000);
        ADD_FAILURE() << "no error for a state that blew up";
    } catch (const SimulationError& e) {
        if (test::ranks().rank() == 0) {
            EXPECT_EQ(std::string(e.what()), expected);
        }
        EXPECT_NE(std::string(e.what()).find("state 'c.V' of cell 0 (i=0, j=0, k=0)"),
                  std::string::npos)
            << e.what();
    }
    if (test::ranks().size() == 1) return;
    set({"model.file=", "tissue.nx=1", "tissue.ny=1", "tissue.nz=1"});
    try {
        test::distributedModel(desc, GetParam(), params, 1u);
        ADD_FAILURE() << "one plane accepted on " << test::ranks().size() << " ranks";
    } catch (const ParameterError& e) {
        EXPECT_NE(std::string(e.what()).find("tissue.nz = 1"), std::string::npos) << e.what();
    }
}

INSTANTIATE_TEST_SUITE_P(Backends, CardiacRanks, testing::ValuesIn(test::builtBackends()),
                         test::backendName);

}  // namespace
}  // namespace cf
