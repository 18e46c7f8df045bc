// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The XDMF 3 text that describes a series of snapshot files to ParaView and VisIt. Kept
// apart from the HDF5 code so it builds (and can be tested) without HDF5.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/snapshot.hpp"

namespace cf::io {

// What the XDMF needs to know about one written snapshot (not the data itself).
struct XdmfEntry {
    struct FieldInfo {
        std::string name;  // also the dataset name, "/<name>"
        ScalarType type = ScalarType::F32;
        FieldRole role = FieldRole::PerEntity;
        std::size_t count = 0;
        int components = 1;
    };
    std::string file;  // HDF5 file, relative to the .xmf
    std::uint64_t step = 0;
    double time = 0.0;
    double boxLo[3] = {0, 0, 0};
    double boxHi[3] = {1, 1, 1};
    std::size_t gridDims[3] = {0, 0, 0};
    std::vector<FieldInfo> fields;

    static XdmfEntry describe(const Snapshot& snapshot, std::string file);
};

// A temporal collection with one time step per entry. Particles (a Positions field) become
// a Polyvertex grid with their PerEntity fields as node attributes; Grid fields become
// cell attributes of a 3DCoRectMesh spanning the box; Internal fields are left out, as are
// fields whose sizes do not fit their mesh (ParaView would reject the whole file), and
// RestartOnly fields are not in the snapshot files at all.
std::string xdmfDocument(const std::string& collectionName, const std::vector<XdmfEntry>& entries);

}  // namespace cf::io
