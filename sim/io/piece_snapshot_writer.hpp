// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Snapshots of a distributed run: each rank holds a piece of the grid (dist::GridPiece) and
// writes it as its own snapshot file; rank 0 writes one .xmf over all of them, so that
// ParaView opens the run as one dataset.
//
//   dir/snapshots/<model>_<step, 9 digits>.r<rank, 4 digits>.h5
//        a snapshot file (the layout in snapshot_writer.hpp) of the rank's piece: grid_dims
//        and box_lo/box_hi are the piece's, grid fields x fastest over it; root attributes
//        piece_offset and global_dims (u64, x y z: the piece's first cell and the whole
//        grid's dims), rank and ranks (i32)
//   dir/<model>.xmf, dir/<model>_grid.xmf
//        as SnapshotWriter's, by rank 0, with each time step a spatial collection of the
//        ranks' pieces (xdmfPiecesDocument in xdmf.hpp)
//
// The ranks must see the same `dir` (a shared file system) for the .xmf to find every
// piece; readSnapshotPieces puts a step's pieces back together in one process.
// docs/reference/output-files.md describes the files for their readers.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/core/snapshot.hpp"
#include "sim/dist/communicator.hpp"
#include "sim/dist/slab.hpp"
#include "sim/io/xdmf.hpp"

namespace cf::io {

class PieceSnapshotWriter {
public:
    // On every rank. Creates dir/snapshots; throws IoError when the build has no HDF5
    // support, the model name cannot name a file or the directory cannot be created.
    PieceSnapshotWriter(std::filesystem::path dir, std::string modelName, dist::Communicator& comm);

    // Collective: every rank writes its piece (atomically) and rank 0 rewrites the .xmf.
    // `piece.gridDims` must be `where.dims`. Returns this rank's file. A failure on any
    // rank (a full disk, pieces of different steps) throws IoError on every rank, naming
    // the rank, so no rank waits for the others forever.
    std::filesystem::path write(const Snapshot& piece, const dist::GridPiece& where);

    // Collective, for continuing a run in the same directory: the steps <= `upToStep` whose
    // pieces every rank of this run wrote (ranks == this run's) stay in the .xmf, which is
    // rewritten. Later files are overwritten as the run reaches their steps again.
    void adoptExisting(std::uint64_t upToStep);

    // This rank's snapshot files in the .xmf, in order; count() is their number.
    const std::vector<std::filesystem::path>& files() const { return files_; }
    std::size_t count() const { return files_.size(); }
    std::filesystem::path xdmfPath() const;
    // Written only while the snapshots hold particles and a grid (as SnapshotWriter's).
    std::filesystem::path gridXdmfPath() const;

private:
    // Rank 0 only: gathers nothing, writes the .xmf from steps_.
    void writeXdmf() const;
    // Throws IoError on every rank when any rank's `error` is not empty.
    void agree(const std::string& error) const;

    std::filesystem::path dir_;
    std::string model_;
    dist::Communicator& comm_;
    std::vector<std::filesystem::path> files_;
    // Rank 0: per time step, every rank's piece.
    std::vector<std::vector<XdmfEntry>> steps_;
};

// Where rank `rank` writes the piece of `step`.
std::filesystem::path snapshotPiecePath(const std::filesystem::path& dir, const std::string& model,
                                        std::uint64_t step, int rank);

// One piece file and where it lies.
struct SnapshotPiece {
    Snapshot snapshot;
    dist::GridPiece where;
    int rank = 0;
    int ranks = 1;
};

// Reads a piece file (IoError for a plain snapshot file, which has no piece attributes).
SnapshotPiece readSnapshotPiece(const std::filesystem::path& h5);

// The whole snapshot from every rank's piece of one step: gridDims the whole grid's, the
// box spanning the pieces' boxes, grid fields x fastest over the whole; other fields (the
// particles each rank holds) are the ranks' values one after the other, in rank order.
// Throws IoError when the pieces are not one step's complete set (a missing, overlapping
// or mismatched piece, fields that differ).
Snapshot assembleSnapshotPieces(const std::vector<SnapshotPiece>& pieces);

// Reads every rank's piece of `step` in dir/snapshots and assembles them, in one process
// without MPI (the number of pieces is the files' `ranks` attribute).
Snapshot readSnapshotPieces(const std::filesystem::path& dir, const std::string& model,
                            std::uint64_t step);

}  // namespace cf::io
