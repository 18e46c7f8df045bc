// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Internal to sim/io: one snapshot file (the layout in snapshot_writer.hpp), written and
// read by SnapshotWriter and PieceSnapshotWriter alike, so that a rank's piece file is a
// snapshot file any reader of ours (and ParaView, through the .xmf) already knows. Builds
// without HDF5 compile this too; the functions then throw IoError.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "sim/core/snapshot.hpp"

namespace cf::io::detail {

// Root attributes of a piece file (piece_snapshot_writer.hpp), x y z order like grid_dims.
struct PieceAttributes {
    std::uint64_t offset[3] = {0, 0, 0};      // piece_offset: the piece's first cell
    std::uint64_t globalDims[3] = {0, 0, 0};  // global_dims: the whole grid
    std::int32_t rank = 0;                    // rank: who wrote it
    std::int32_t ranks = 1;                   // ranks: how many wrote the step
};

// "<model>_<step, 9 digits>" (callers add ".h5" or ".r<rank>.h5").
std::string snapshotStem(const std::string& model, std::uint64_t step);

// Throws IoError (naming `dir`) unless `model` can start a file name.
void checkModelName(const std::filesystem::path& dir, const std::string& model);

// Writes `snapshot` to `path` atomically: built in memory, then renamed into place, so the
// .xmf or a reader never sees half a file. `vertices` > 0 adds kVertexDataset (xdmf.hpp);
// `piece` adds its root attributes.
void writeSnapshotFile(const std::filesystem::path& path, const std::string& model,
                       const Snapshot& snapshot, std::size_t vertices,
                       const PieceAttributes* piece = nullptr);

struct SnapshotFile {
    Snapshot snapshot;
    std::optional<PieceAttributes> piece;  // when the file has the piece attributes
};

// Reads a snapshot file (fields in their written order). Without `withData` the fields
// keep their names, types, roles and sizes but no bytes: enough to describe the file in an
// .xmf when a run continues, without reading every snapshot whole.
SnapshotFile readSnapshotFile(const std::filesystem::path& h5, bool withData);

// Whether `h5` holds the dataset `name` (false for a file that cannot be read).
bool holdsDataset(const std::filesystem::path& h5, const char* name);

}  // namespace cf::io::detail
