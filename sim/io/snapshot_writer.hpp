// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// HDF5 snapshots with an XDMF sidecar that ParaView opens as a time series.
//
//   dir/snapshots/<model>_<step, 9 digits>.h5   one dataset per field but RestartOnly
//                                               ones (checkpoints hold those), shape
//                                               [count] or [count, components], attributes
//                                               unit and role; root attributes model, step,
//                                               time, time_unit, box_lo, box_hi, grid_dims;
//                                               with particles also /xdmf/connectivity
//                                               (kVertexDataset, for the XDMF)
//   dir/<model>.xmf                             XDMF 3 temporal collection over them,
//                                               rewritten atomically after every write:
//                                               the particles, else the grid
//   dir/<model>_grid.xmf                        the same for the grid, when the snapshots
//                                               hold particles and a grid (spheres with
//                                               its substance)
//
// docs/reference/output-files.md describes the files for their readers.
//
// Builds without HDF5 still compile this interface: hdf5Available() is false and the
// constructor and readSnapshot throw IoError.
#include <filesystem>
#include <string>
#include <vector>

#include "sim/core/snapshot.hpp"
#include "sim/io/xdmf.hpp"

namespace cf::io {

bool hdf5Available();

class SnapshotWriter {
public:
    // Creates dir/snapshots. Throws IoError when the build has no HDF5 support or the
    // directory cannot be created.
    SnapshotWriter(std::filesystem::path dir, std::string modelName);

    // Writes one snapshot file (atomically) and rewrites the .xmf; returns the .h5 path.
    std::filesystem::path write(const Snapshot& snapshot);

    // Continuing a run in the same directory: lists the snapshot files already there with
    // a step <= `upToStep` (they stay in the .xmf) and rewrites the .xmf. Later files are
    // overwritten as the continued run reaches their steps again.
    void adoptExisting(std::uint64_t upToStep);

    // The snapshot files in the .xmf, in order.
    const std::vector<std::filesystem::path>& files() const { return files_; }
    std::filesystem::path xdmfPath() const;
    // Written only while the snapshots hold particles and a grid (see the layout above).
    std::filesystem::path gridXdmfPath() const;

private:
    void writeXdmf() const;

    std::filesystem::path dir_;
    std::string model_;
    std::vector<std::filesystem::path> files_;
    std::vector<XdmfEntry> entries_;
};

// Reads a snapshot file written by SnapshotWriter (fields in their written order).
Snapshot readSnapshot(const std::filesystem::path& h5);

}  // namespace cf::io
