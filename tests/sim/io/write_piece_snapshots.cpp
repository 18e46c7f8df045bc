// SPDX-License-Identifier: GPL-3.0-or-later
// The data of the paraview_pieces test (tests/io/paraview_pieces.sh): started by mpirun,
// every rank writes its piece of four grids (piece_test_support.hpp: values that tell
// where they are) with PieceSnapshotWriter, two steps each, into OUT/<case>/, and rank 0
// writes OUT/<case>/expected.json (the whole grid's dims, box and steps) for the checker.
//   usage: mpirun -n 3 write_piece_snapshots OUT
#include <cstdio>
#include <exception>
#include <fstream>
#include <memory>
#include <string>

#include "sim/dist/mpi_communicator.hpp"
#include "sim/io/piece_snapshot_writer.hpp"
#include "tests/sim/io/piece_test_support.hpp"

namespace {

struct Case {
    const char* name;
    std::size_t dims[3];
    int axis;
};

void writeCase(cf::dist::Communicator& comm, const std::filesystem::path& out, const Case& c) {
    const double lo[3] = {-2.0, 0.5, 1.0}, hi[3] = {2.0, 2.0, 4.5};
    const cf::dist::GridPiece where =
        cf::io::testing::slabPieces(c.dims, c.axis, comm.size())[comm.rank()];
    cf::io::PieceSnapshotWriter writer(out / c.name, "toy", comm);
    for (std::uint64_t step : {0, 40})
        writer.write(cf::io::testing::pieceOfWhole(
                         cf::io::testing::makeWholeGrid(c.dims, lo, hi, step), where),
                     where);
    if (comm.rank() != 0) return;
    std::ofstream json(out / c.name / "expected.json");
    json.precision(17);
    json << "{\"dims\": [" << c.dims[0] << ", " << c.dims[1] << ", " << c.dims[2] << "], "
         << "\"lo\": [" << lo[0] << ", " << lo[1] << ", " << lo[2] << "], "
         << "\"hi\": [" << hi[0] << ", " << hi[1] << ", " << hi[2] << "], "
         << "\"steps\": [0, 40], \"time_per_step\": 0.125, \"ranks\": " << comm.size() << "}\n";
}

}  // namespace

int main(int argc, char** argv) {
    cf::dist::MpiSession session(&argc, &argv);
    const std::unique_ptr<cf::dist::Communicator> world = session.world();
    if (argc != 2) {
        std::fprintf(stderr, "usage: mpirun -n RANKS %s OUT\n", argv[0]);
        return 2;
    }
    const Case cases[] = {
        {"volume_z", {6, 5, 9}, 2},
        {"volume_x", {9, 4, 5}, 0},
        {"sheet_x", {9, 6, 1}, 0},
        {"volume_thin", {5, 4, 3}, 2},  // one plane per rank: cells still, not sheets
    };
    try {
        for (const Case& c : cases)
            writeCase(*world, argv[1], c);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "rank %d: %s\n", world->rank(), e.what());
        cf::dist::MpiSession::abortJob(1);
    }
    return 0;
}
