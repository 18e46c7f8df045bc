// SPDX-License-Identifier: GPL-3.0-or-later
// Outputs of a distributed run in one process: the .xmf over the ranks' pieces, pieces put
// back together, PieceSnapshotWriter on one rank, and the per-rank checkpoint names. The
// same on several ranks under mpirun: tests/sim/io/test_piece_snapshots.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "sim/core/errors.hpp"
#include "sim/io/checkpoint.hpp"
#include "sim/io/piece_snapshot_writer.hpp"
#include "sim/io/series_writer.hpp"
#include "sim/io/snapshot_writer.hpp"
#include "sim/io/xdmf.hpp"
#include "tests/sim/io/io_test_support.hpp"
#include "tests/sim/io/piece_test_support.hpp"

namespace cf::io {
namespace {

namespace fs = std::filesystem;
using testing::makeWholeGrid;
using testing::pieceOfWhole;
using testing::ScratchDir;
using testing::slabPieces;

// The XDMF entries of a whole snapshot split among `ranks` along `axis`, as rank 0 of
// PieceSnapshotWriter collects them.
std::vector<XdmfEntry> pieceEntries(const Snapshot& whole, int axis, int ranks) {
    std::vector<XdmfEntry> out;
    int r = 0;
    for (const dist::GridPiece& where : slabPieces(whole.gridDims, axis, ranks)) {
        XdmfEntry e = XdmfEntry::describe(pieceOfWhole(whole, where),
                                          "snapshots/p_" + std::to_string(r++) + ".h5");
        for (int i = 0; i < 3; ++i)
            e.wholeDims[i] = where.globalDims[i];
        out.push_back(std::move(e));
    }
    return out;
}

// The one Uniform grid of a single-entry document, renamed and indented as a piece.
std::string gridBlock(const std::string& doc, const std::string& name) {
    const std::size_t b = doc.find("      <Grid Name=\"grid\"");
    const std::size_t e = doc.find("      </Grid>\n", b);
    std::string block = doc.substr(b, e + 14 - b);
    block.replace(block.find("\"grid\""), 6, "\"" + name + "\"");
    std::string out;
    std::size_t line = 0;
    while (line < block.size()) {
        const std::size_t next = block.find('\n', line) + 1;
        out += "  " + block.substr(line, next - line);
        line = next;
    }
    return out;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

const std::size_t kVolume[3] = {4, 3, 6};
const double kLo[3] = {-1.0, 0.0, 2.0};
const double kHi[3] = {3.0, 1.5, 3.5};

TEST(XdmfPieces, ThreePiecesOfAVolumeAreASpatialCollectionOfTheirOwnBoxes) {
    const Snapshot whole = makeWholeGrid(kVolume, kLo, kHi, 4);
    const std::vector<XdmfEntry> pieces = pieceEntries(whole, 2, 3);
    const std::string xml = xdmfPiecesDocument("toy", {pieces}, XdmfMesh::Grid);
    // One time step holding the three pieces, each exactly the grid the serial document
    // would write for that piece alone (its own origin, 2 planes of cells).
    EXPECT_NE(
        xml.find("    <Grid Name=\"toy\" GridType=\"Collection\" CollectionType=\"Temporal\">\n"
                 "      <Grid Name=\"step 4\" GridType=\"Collection\" "
                 "CollectionType=\"Spatial\">\n"
                 "        <Time Value=\"0.5\"/>\n"
                 "        <Grid Name=\"grid 0\" GridType=\"Uniform\">\n"),
        std::string::npos)
        << xml;
    std::size_t last = 0;
    for (int r = 0; r < 3; ++r) {
        const std::string alone = xdmfDocument("toy", {pieces[r]}, XdmfMesh::Grid);
        const std::string block = gridBlock(alone, "grid " + std::to_string(r));
        const std::size_t at = xml.find(block);
        ASSERT_NE(at, std::string::npos) << "piece " << r << ":\n" << block << "in\n" << xml;
        EXPECT_GT(at, last) << "pieces in rank order";
        last = at;
    }
    // Origins z y x: the pieces start at z = 2, 2.5, 3 (two of six 0.25 planes each).
    EXPECT_NE(xml.find(">2 0 -1</DataItem>"), std::string::npos);
    EXPECT_NE(xml.find(">2.5 0 -1</DataItem>"), std::string::npos);
    EXPECT_NE(xml.find(">3 0 -1</DataItem>"), std::string::npos);
    EXPECT_EQ(occurrences(xml, "Dimensions=\"3 4 5\""), 3u) << "3 x 4 x 5 points per piece";
    EXPECT_EQ(occurrences(xml, "Center=\"Cell\""), 9u) << "3 fields x 3 pieces";
    EXPECT_EQ(occurrences(xml, "<DataItem Dimensions=\"2 3 4\""), 6u);
    EXPECT_EQ(occurrences(xml, "<DataItem Dimensions=\"2 3 4 3\""), 3u);
    EXPECT_NE(xml.find("snapshots/p_2.h5:/where"), std::string::npos);
    EXPECT_EQ(xml.rfind("      </Grid>\n    </Grid>\n  </Domain>\n</Xdmf>\n"),
              xml.size() - std::strlen("      </Grid>\n    </Grid>\n  </Domain>\n</Xdmf>\n"));
}

TEST(XdmfPieces, OnePiecePerStepIsTheSerialDocument) {
    std::vector<XdmfEntry> serial;
    std::vector<std::vector<XdmfEntry>> steps;
    for (std::uint64_t step : {0, 10, 20}) {
        const Snapshot whole = makeWholeGrid(kVolume, kLo, kHi, step, true);
        serial.push_back(XdmfEntry::describe(whole, "s" + std::to_string(step) + ".h5"));
        steps.push_back(pieceEntries(whole, 2, 1));
        steps.back()[0].file = serial.back().file;
    }
    for (XdmfMesh mesh : {XdmfMesh::Grid, XdmfMesh::Particles})
        EXPECT_EQ(xdmfPiecesDocument("toy", steps, mesh), xdmfDocument("toy", serial, mesh));
}

TEST(XdmfPieces, AVolumePieceOnePlaneThickKeepsCells) {
    // Six planes on six ranks: alone, each piece would look like a sheet (node values).
    const Snapshot whole = makeWholeGrid(kVolume, kLo, kHi, 1);
    const std::string xml = xdmfPiecesDocument("toy", {pieceEntries(whole, 2, 6)}, XdmfMesh::Grid);
    EXPECT_EQ(occurrences(xml, "Center=\"Cell\""), 18u);
    EXPECT_EQ(occurrences(xml, "Center=\"Node\""), 0u);
    EXPECT_EQ(occurrences(xml, "Dimensions=\"2 4 5\""), 6u) << "2 x 4 x 5 points each";
    EXPECT_NE(xml.find(">3.25 0 -1</DataItem>"), std::string::npos) << "the last plane's origin";
}

// Pieces of a sheet keep their values on cells one cell thick (a serial sheet puts them on
// the points at the cell centres): so neighbouring pieces meet edge to edge in ParaView,
// where points at the centres would leave a cell's gap between them.
TEST(XdmfPieces, PiecesOfASheetAreCellGridsThatMeetEdgeToEdge) {
    const std::size_t sheet[3] = {6, 4, 1};
    const Snapshot whole = makeWholeGrid(sheet, kLo, kHi, 2);
    const std::vector<XdmfEntry> pieces = pieceEntries(whole, 0, 3);
    const std::string xml = xdmfPiecesDocument("gl", {pieces}, XdmfMesh::Grid);
    EXPECT_EQ(occurrences(xml, "Center=\"Node\""), 0u);
    EXPECT_EQ(occurrences(xml, "Center=\"Cell\""), 9u);
    EXPECT_EQ(occurrences(xml, "3DCoRectMesh\" Dimensions=\"2 5 3\""), 3u)
        << "2 x 4 x 1 cells each: 3 x 5 x 2 points";
    for (int r = 0; r < 3; ++r) {
        EXPECT_NE(xml.find(gridBlock(xdmfDocument("gl", {pieces[r]}, XdmfMesh::Grid),
                                     "grid " + std::to_string(r))),
                  std::string::npos);
        // Piece r starts where piece r - 1 ends: at its box's lower corner.
        std::ostringstream origin;
        origin << ">" << formatDouble(kLo[2]) << " " << formatDouble(kLo[1]) << " "
               << formatDouble(pieces[static_cast<std::size_t>(r)].boxLo[0]) << "</DataItem>";
        EXPECT_NE(xml.find(origin.str()), std::string::npos) << origin.str() << "\n" << xml;
        if (r > 0) {
            EXPECT_DOUBLE_EQ(pieces[static_cast<std::size_t>(r)].boxLo[0],
                             pieces[static_cast<std::size_t>(r - 1)].boxHi[0]);
        }
    }
}

TEST(XdmfPieces, PiecesWithoutTheMeshAreLeftOut) {
    const Snapshot whole = makeWholeGrid(kVolume, kLo, kHi, 3, true);
    // Only rank 0 holds the particles (pieceOfWhole), so the step's collection has one.
    const std::string xml =
        xdmfPiecesDocument("toy", {pieceEntries(whole, 2, 3)}, XdmfMesh::Particles);
    EXPECT_EQ(occurrences(xml, "<Grid Name=\"particles 0\""), 1u);
    EXPECT_EQ(occurrences(xml, "<Grid Name=\"particles"), 1u);
    EXPECT_EQ(occurrences(xml, "CollectionType=\"Spatial\""), 1u);
}

// --- putting pieces back together ---------------------------------------------------------

std::vector<SnapshotPiece> cut(const Snapshot& whole, int axis, int ranks) {
    std::vector<SnapshotPiece> out;
    for (const dist::GridPiece& where : slabPieces(whole.gridDims, axis, ranks))
        out.push_back({pieceOfWhole(whole, where), where, static_cast<int>(out.size()), ranks});
    return out;
}

void expectSameSnapshot(const Snapshot& got, const Snapshot& want) {
    EXPECT_EQ(got.step, want.step);
    EXPECT_EQ(got.time, want.time);
    EXPECT_EQ(got.timeUnit, want.timeUnit);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(got.gridDims[i], want.gridDims[i]) << i;
        EXPECT_EQ(got.boxLo[i], want.boxLo[i]) << i;
        EXPECT_EQ(got.boxHi[i], want.boxHi[i]) << i;
    }
    ASSERT_EQ(got.fields.size(), want.fields.size());
    for (std::size_t k = 0; k < got.fields.size(); ++k) {
        const Field& g = got.fields[k];
        const Field& w = want.fields[k];
        EXPECT_EQ(g.name, w.name);
        EXPECT_EQ(g.unit, w.unit);
        EXPECT_EQ(g.type, w.type);
        EXPECT_EQ(g.role, w.role);
        EXPECT_EQ(g.count, w.count) << g.name;
        EXPECT_EQ(g.components, w.components);
        EXPECT_TRUE(g.bytes == w.bytes) << g.name << " differs";
    }
}

TEST(AssembleSnapshotPieces, PiecesAlongEachAxisGiveTheWholeBitForBit) {
    const Snapshot whole = makeWholeGrid(kVolume, kLo, kHi, 9, true);
    for (int axis = 0; axis < 3; ++axis)
        for (int ranks : {1, 2, 3}) {
            SCOPED_TRACE("axis " + std::to_string(axis) + ", " + std::to_string(ranks) + " ranks");
            expectSameSnapshot(assembleSnapshotPieces(cut(whole, axis, ranks)), whole);
        }
}

TEST(AssembleSnapshotPieces, MissingOverlappingAndMismatchedPiecesAreRefused) {
    const Snapshot whole = makeWholeGrid(kVolume, kLo, kHi, 9);
    const auto refused = [](const std::vector<SnapshotPiece>& pieces, const std::string& why) {
        try {
            assembleSnapshotPieces(pieces);
            ADD_FAILURE() << "expected IoError: " << why;
        } catch (const IoError& e) {
            EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
        }
    };
    std::vector<SnapshotPiece> pieces = cut(whole, 2, 3);
    refused({pieces[0], pieces[1]}, "is rank 0 of 3, expected rank 0 of 2");
    auto overlap = pieces;
    overlap[2].where.offset[2] = 3;  // over rank 1's planes 2 and 3
    refused(overlap, "piece of rank 2 of step 9: overlaps another piece");
    auto late = pieces;
    late[1].snapshot.step = 10;
    refused(late, "is not of step 9");
    auto renamed = pieces;
    renamed[2].snapshot.fields[1].name = "there";
    refused(renamed, "piece of rank 2 of step 9: has no field 'where' like rank 0's");
    auto shortField = pieces;
    shortField[1].snapshot.fields[0].count = 5;
    refused(shortField, "field 'index' has 5 values for 4 x 3 x 2 cells");
}

// --- PieceSnapshotWriter on one rank ------------------------------------------------------

using PieceWriterTest = ScratchDir;

TEST_F(PieceWriterTest, OneRankWritesThePieceFileAndTheSerialDocument) {
    if (!hdf5Available()) GTEST_SKIP() << "no HDF5 in this build";
    dist::SelfCommunicator self;
    PieceSnapshotWriter writer(dir() / "dist", "toy", self);
    SnapshotWriter serial(dir() / "serial", "toy");
    for (std::uint64_t step : {0, 5}) {
        const Snapshot whole = makeWholeGrid(kVolume, kLo, kHi, step);
        const dist::GridPiece where = slabPieces(kVolume, 2, 1)[0];
        const fs::path path = writer.write(pieceOfWhole(whole, where), where);
        EXPECT_EQ(path, dir() / "dist" / "snapshots" /
                            ("toy_00000000" + std::to_string(step) + ".r0000.h5"));
        serial.write(whole);
        expectSameSnapshot(readSnapshotPieces(dir() / "dist", "toy", step), whole);
        const SnapshotPiece piece = readSnapshotPiece(path);
        EXPECT_EQ(piece.rank, 0);
        EXPECT_EQ(piece.ranks, 1);
        EXPECT_EQ(piece.where.globalDims[2], 6u);
    }
    EXPECT_EQ(writer.count(), 2u);
    EXPECT_EQ(writer.files().size(), 2u);
    EXPECT_EQ(writer.xdmfPath(), dir() / "dist" / "toy.xmf");
    // The serial document but for the file names.
    const std::string serialXml = testing::readText(serial.xdmfPath());
    const std::string pieceXml = testing::readText(writer.xdmfPath());
    EXPECT_EQ(std::regex_replace(pieceXml, std::regex("\\.r0000\\.h5"), ".h5"), serialXml);
    // A plain snapshot file is not a piece.
    EXPECT_THROW(readSnapshotPiece(serial.files()[0]), IoError);
}

TEST_F(PieceWriterTest, AdoptedStepsStayInTheDocumentAndLaterOnesGo) {
    if (!hdf5Available()) GTEST_SKIP() << "no HDF5 in this build";
    dist::SelfCommunicator self;
    const dist::GridPiece where = slabPieces(kVolume, 2, 1)[0];
    {
        PieceSnapshotWriter first(dir(), "toy", self);
        for (std::uint64_t step : {1, 2, 3})
            first.write(pieceOfWhole(makeWholeGrid(kVolume, kLo, kHi, step), where), where);
    }
    PieceSnapshotWriter again(dir(), "toy", self);
    again.adoptExisting(2);
    ASSERT_EQ(again.count(), 2u);
    EXPECT_EQ(again.files()[1].filename(), "toy_000000002.r0000.h5");
    const std::string xml = testing::readText(again.xdmfPath());
    EXPECT_NE(xml.find("toy_000000002.r0000.h5"), std::string::npos);
    EXPECT_EQ(xml.find("toy_000000003.r0000.h5"), std::string::npos);
    // Rewriting step 2 replaces it.
    again.write(pieceOfWhole(makeWholeGrid(kVolume, kLo, kHi, 2), where), where);
    EXPECT_EQ(again.count(), 2u);
    EXPECT_EQ(occurrences(testing::readText(again.xdmfPath()), "<Time "), 2u);
}

TEST_F(PieceWriterTest, APieceThatIsNotWhereItSaysIsRefused) {
    if (!hdf5Available()) GTEST_SKIP() << "no HDF5 in this build";
    dist::SelfCommunicator self;
    PieceSnapshotWriter writer(dir(), "toy", self);
    dist::GridPiece where = slabPieces(kVolume, 2, 1)[0];
    const Snapshot piece = pieceOfWhole(makeWholeGrid(kVolume, kLo, kHi, 1), where);
    where.dims[2] = 5;
    try {
        writer.write(piece, where);
        FAIL() << "expected IoError";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find(
                      "rank 0: " + (dir() / "snapshots" / "toy_000000001.r0000.h5").string() +
                      ": the piece's grid is 4 x 3 x 6, its GridPiece says 4 x 3 x 5"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_EQ(writer.count(), 0u);
    EXPECT_FALSE(fs::exists(writer.xdmfPath()));
}

// --- per-rank checkpoint names ------------------------------------------------------------

using CheckpointRanksTest = ScratchDir;

void touch(const fs::path& p) {
    std::ofstream(p) << "x";
}

TEST(RankCheckpointPath, PutsRankAndCountBeforeTheExtension) {
    EXPECT_EQ(rankCheckpointPath("run/checkpoint.cfchk", 2, 4),
              fs::path("run/checkpoint.rank0002-of-0004.cfchk"));
    EXPECT_EQ(rankCheckpointPath("c.cfchk", 0, 1), fs::path("c.rank0000-of-0001.cfchk"));
    EXPECT_EQ(rankCheckpointPath("/a/b.c/x", 11, 12345), fs::path("/a/b.c/x.rank0011-of-12345"));
}

TEST_F(CheckpointRanksTest, TellsTheCountFromTheFilesBesideIt) {
    const fs::path cp = dir() / "checkpoint.cfchk";
    EXPECT_EQ(checkpointRanks(cp), std::nullopt);
    touch(cp);
    EXPECT_EQ(checkpointRanks(cp), std::nullopt) << "one process's checkpoint";
    touch(dir() / "checkpoint.rank0001-of-0003.cfchk");
    EXPECT_EQ(checkpointRanks(cp), 3) << "incomplete, but still 3 ranks";
    for (int r = 0; r < 4; ++r)
        touch(rankCheckpointPath(cp, r, 4));
    EXPECT_EQ(checkpointRanks(cp), 4) << "the complete set";
    // Look-alikes of other checkpoints or names are not counted.
    touch(dir() / "other.rank0000-of-0007.cfchk");
    touch(dir() / "checkpoint.rank0009-of-0009.cfchk");
    touch(dir() / "checkpoint.rank0000-of-0008.cfchk.tmp");
    EXPECT_EQ(checkpointRanks(cp), 4);
    // A newer complete set wins.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    touch(rankCheckpointPath(cp, 0, 2));
    touch(rankCheckpointPath(cp, 1, 2));
    EXPECT_EQ(checkpointRanks(cp), 2);
}

TEST_F(CheckpointRanksTest, AResumeOnTheWrongCountSaysHowToResume) {
    const fs::path cp = dir() / "checkpoint.cfchk";
    EXPECT_NO_THROW(checkCheckpointRanks(cp, 3)) << "no file: readCheckpoint reports it";
    touch(cp);
    EXPECT_NO_THROW(checkCheckpointRanks(cp, 1));
    try {
        checkCheckpointRanks(cp, 4);
        FAIL() << "expected InputFileError";
    } catch (const InputFileError& e) {
        EXPECT_EQ(std::string(e.what()),
                  cp.string() + " was written by one process; resume it without mpirun");
    }
    for (int r = 0; r < 4; ++r)
        touch(rankCheckpointPath(cp, r, 4));
    EXPECT_NO_THROW(checkCheckpointRanks(cp, 4));
    for (int ranks : {1, 2}) {
        try {
            checkCheckpointRanks(cp, ranks);
            FAIL() << "expected InputFileError";
        } catch (const InputFileError& e) {
            EXPECT_EQ(std::string(e.what()),
                      cp.string() + " was written by 4 ranks; resume it with mpirun -n 4");
        }
    }
}

}  // namespace
}  // namespace cf::io
