// SPDX-License-Identifier: GPL-3.0-or-later
// PieceSnapshotWriter on as many ranks as mpirun gave (1 to 4 in CI): every rank writes its
// piece of a grid whose values tell where they are, and rank 0 reads the pieces back whole
// with readSnapshotPieces and compares them bit for bit with the grid one process made.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "sim/core/errors.hpp"
#include "sim/io/piece_snapshot_writer.hpp"
#include "sim/io/snapshot_writer.hpp"
#include "tests/sim/io/piece_test_support.hpp"
#include "tests/support/ranks.hpp"

namespace cf::io {
namespace {

namespace fs = std::filesystem;
using testing::makeWholeGrid;
using testing::pieceOfWhole;
using testing::slabPieces;

// A directory every rank shares (rank 0 names it), removed after the case.
class SharedDir : public ::testing::Test {
protected:
    void SetUp() override {
        dist::Communicator& comm = cf::test::ranks();
        std::string name;
        if (comm.rank() == 0) {
            std::random_device rd;
            name =
                (fs::temp_directory_path() / ("cellforge-pieces-" + std::to_string(rd()))).string();
        }
        std::vector<std::byte> bytes(name.size());
        if (!name.empty()) std::memcpy(bytes.data(), name.data(), name.size());
        comm.broadcast(bytes, 0);
        dir_ = std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    }
    void TearDown() override {
        cf::test::ranks().barrier();
        if (cf::test::ranks().rank() == 0) {
            std::error_code ignored;
            fs::remove_all(dir_, ignored);
        }
    }
    const fs::path& dir() const { return dir_; }

private:
    fs::path dir_;
};

std::string readText(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::size_t occurrences(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

void expectSameBits(const Snapshot& got, const Snapshot& want) {
    EXPECT_EQ(got.step, want.step);
    EXPECT_EQ(got.time, want.time);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(got.gridDims[i], want.gridDims[i]);
        EXPECT_EQ(got.boxLo[i], want.boxLo[i]);
        EXPECT_EQ(got.boxHi[i], want.boxHi[i]);
    }
    ASSERT_EQ(got.fields.size(), want.fields.size());
    for (std::size_t k = 0; k < got.fields.size(); ++k) {
        EXPECT_EQ(got.fields[k].name, want.fields[k].name);
        EXPECT_EQ(got.fields[k].count, want.fields[k].count) << want.fields[k].name;
        EXPECT_TRUE(got.fields[k].bytes == want.fields[k].bytes)
            << want.fields[k].name << " differs";
    }
}

// Every rank writes its piece of two steps of a `dims` grid split along `axis`; rank 0
// reads each step back whole.
void writeAndReadBack(const fs::path& dir, const std::size_t dims[3], int axis, bool particles) {
    dist::Communicator& comm = cf::test::ranks();
    const double lo[3] = {-2.0, 0.5, 1.0}, hi[3] = {2.0, 2.0, 4.5};
    const dist::GridPiece where = slabPieces(dims, axis, comm.size())[comm.rank()];
    PieceSnapshotWriter writer(dir, "toy", comm);
    for (std::uint64_t step : {0, 40}) {
        const fs::path mine =
            writer.write(pieceOfWhole(makeWholeGrid(dims, lo, hi, step, particles), where), where);
        EXPECT_EQ(mine, snapshotPiecePath(dir, "toy", step, comm.rank()));
        EXPECT_TRUE(fs::exists(mine));
    }
    EXPECT_EQ(writer.count(), 2u);
    comm.barrier();  // every rank's files are complete once the writes return (rank 0 checks)
    if (comm.rank() != 0) return;
    for (std::uint64_t step : {0, 40}) {
        SCOPED_TRACE("step " + std::to_string(step));
        expectSameBits(readSnapshotPieces(dir, "toy", step),
                       makeWholeGrid(dims, lo, hi, step, particles));
    }
    // One .xmf (the grid's, when there are particles too) of two steps of all the pieces.
    const std::string xml = readText(particles ? writer.gridXdmfPath() : writer.xdmfPath());
    EXPECT_EQ(occurrences(xml, "<Time "), comm.size() == 1 ? 2u : 2u + 2u * comm.size());
    for (int r = 0; r < comm.size(); ++r)
        EXPECT_NE(xml.find(snapshotPiecePath("", "toy", 40, r).generic_string()), std::string::npos)
            << "rank " << r;
    if (comm.size() > 1) {
        EXPECT_EQ(occurrences(xml, "CollectionType=\"Spatial\""), 2u);
    }
}

using PieceSnapshots = SharedDir;

TEST_F(PieceSnapshots, AVolumeSplitAlongZReadsBackWhole) {
    const std::size_t dims[3] = {5, 4, 7};
    writeAndReadBack(dir(), dims, 2, true);
}

TEST_F(PieceSnapshots, AVolumeSplitAlongXReadsBackWhole) {
    const std::size_t dims[3] = {9, 3, 4};
    writeAndReadBack(dir(), dims, 0, false);
}

TEST_F(PieceSnapshots, ASheetSplitAlongXReadsBackWhole) {
    const std::size_t dims[3] = {8, 5, 1};
    writeAndReadBack(dir(), dims, 0, false);
    if (cf::test::ranks().rank() == 0) {
        const std::string xml = readText(dir() / "toy.xmf");
        // Split: on cells one cell thick, so the pieces meet edge to edge (xdmf.cpp,
        // meshGrid); on one rank the serial layout, values on the points.
        const bool split = cf::test::ranks().size() > 1;
        EXPECT_EQ(occurrences(xml, split ? "Center=\"Node\"" : "Center=\"Cell\""), 0u);
        EXPECT_GT(occurrences(xml, split ? "Center=\"Cell\"" : "Center=\"Node\""), 0u);
    }
}

TEST_F(PieceSnapshots, AFailureOnOneRankThrowsOnEveryRankNamingIt) {
    dist::Communicator& comm = cf::test::ranks();
    const std::size_t dims[3] = {4, 4, 8};
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    dist::GridPiece where = slabPieces(dims, 2, comm.size())[comm.rank()];
    PieceSnapshotWriter writer(dir(), "toy", comm);
    const Snapshot piece = pieceOfWhole(makeWholeGrid(dims, lo, hi, 3), where);
    const int last = comm.size() - 1;
    if (comm.rank() == last) where.dims[2] += 1;  // says it is larger than it is
    try {
        writer.write(piece, where);
        ADD_FAILURE() << "expected IoError";
    } catch (const IoError& e) {
        EXPECT_EQ(std::string(e.what()).rfind("rank " + std::to_string(last) + ": ", 0), 0u)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("its GridPiece says"), std::string::npos) << e.what();
    }
    EXPECT_EQ(writer.count(), 0u);
    EXPECT_FALSE(fs::exists(writer.xdmfPath()));
}

TEST_F(PieceSnapshots, AContinuedRunKeepsTheStepsEveryRankWrote) {
    dist::Communicator& comm = cf::test::ranks();
    const std::size_t dims[3] = {4, 4, 8};
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    const dist::GridPiece where = slabPieces(dims, 2, comm.size())[comm.rank()];
    {
        PieceSnapshotWriter first(dir(), "toy", comm);
        for (std::uint64_t step : {1, 2, 3})
            first.write(pieceOfWhole(makeWholeGrid(dims, lo, hi, step), where), where);
    }
    // The last rank's piece of step 2 is missing, as if the job died while writing it.
    const int last = comm.size() - 1;
    if (comm.rank() == last) fs::remove(snapshotPiecePath(dir(), "toy", 2, last));
    comm.barrier();
    PieceSnapshotWriter again(dir(), "toy", comm);
    again.adoptExisting(3);
    ASSERT_EQ(again.count(), 2u);
    EXPECT_EQ(again.files()[0], snapshotPiecePath(dir(), "toy", 1, comm.rank()));
    EXPECT_EQ(again.files()[1], snapshotPiecePath(dir(), "toy", 3, comm.rank()));
    again.adoptExisting(2);
    ASSERT_EQ(again.count(), 1u);
    if (comm.rank() == 0) {
        const std::string xml = readText(again.xdmfPath());
        EXPECT_NE(xml.find("toy_000000001.r0000.h5"), std::string::npos);
        EXPECT_EQ(xml.find("toy_000000003.r0000.h5"), std::string::npos);
        EXPECT_EQ(xml.find("toy_000000002."), std::string::npos);
    }
    // The run goes on: step 2 again, on every rank.
    again.write(pieceOfWhole(makeWholeGrid(dims, lo, hi, 2), where), where);
    EXPECT_EQ(again.count(), 2u);
    comm.barrier();
    if (comm.rank() == 0) {
        expectSameBits(readSnapshotPieces(dir(), "toy", 2), makeWholeGrid(dims, lo, hi, 2));
    }
}

}  // namespace
}  // namespace cf::io
