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

// FNV-1a 64 over `size` bytes, the checksum stored per field.
std::uint64_t fnv1a64(const void* data, std::size_t size);

}  // namespace cf::io
