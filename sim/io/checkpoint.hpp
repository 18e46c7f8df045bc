// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Checkpoints: everything a run needs to continue bit-identically (model, seed, backend,
// parameters with their history, the full state). Independent of HDF5, so a build without
// it can still stop and resume runs.
//
// Format (all integers little-endian):
//   "CFCHK001"            8 bytes of magic
//   u64 header length     bytes of the JSON header that follows
//   JSON header           model, seed, backend, parameters, history, step, time, box, grid
//                         dims and, per field, name, unit, type, role, count, components,
//                         offset (from the start of the data section), size, FNV-1a 64
//   field bytes           raw, in header order
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/backend.hpp"
#include "sim/core/model.hpp"
#include "sim/core/params.hpp"
#include "sim/core/snapshot.hpp"

namespace cf::io {

struct Checkpoint {
    std::string model;
    std::uint32_t seed = 0;
    Backend backend = Backend::Cpu;
    ParamSet parameters;
    std::vector<ParamChange> history;
    Snapshot state;
};

// Writes to a temporary file next to `path` and renames it, so an interrupted write never
// leaves a partial checkpoint under the final name. Creates the parent directory.
void writeCheckpoint(const std::filesystem::path& path, const Checkpoint& checkpoint);

// Validates everything (magic, sizes, checksums, model, parameter types and ranges) and
// throws InputFileError naming the file and the problem ("no such file" for a missing one).
Checkpoint readCheckpoint(const std::filesystem::path& path, const ModelRegistry& registry);

// A distributed run writes one checkpoint file per rank beside the name it is given:
// run/checkpoint.cfchk -> run/checkpoint.rank0002-of-0004.cfchk for rank 2 of 4 (the rank
// and the count at least 4 digits wide, so the files sort in rank order).
std::filesystem::path rankCheckpointPath(const std::filesystem::path& checkpoint, int rank,
                                         int ranks);

// The number of ranks that wrote the distributed checkpoint `checkpoint` names, from the
// rank files beside it (nothing is read from them): std::nullopt when there are none (a
// checkpoint of one process, or no checkpoint). When files of several counts lie there, the
// count whose set is complete, the newest such set first; then the newest incomplete one.
std::optional<int> checkpointRanks(const std::filesystem::path& checkpoint);

// Throws InputFileError unless the checkpoint can be resumed on `ranks` ranks, saying how:
// "run/checkpoint.cfchk was written by 4 ranks; resume it with mpirun -n 4", or, for the
// file of one process resumed on several, "... was written by one process; resume it
// without mpirun". Does nothing when neither kind of file is there (readCheckpoint then
// says which file is missing).
void checkCheckpointRanks(const std::filesystem::path& checkpoint, int ranks);

// FNV-1a 64 over `size` bytes, the checksum stored per field.
std::uint64_t fnv1a64(const void* data, std::size_t size);

}  // namespace cf::io
