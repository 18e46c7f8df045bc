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

// The dataset every snapshot with particles holds next to its fields: the vertex cells
// 0, 1, ..., n-1 of the particles (int32, int64 beyond 2^31 - 1). ParaView's default XDMF
// reader (Xdmf3ReaderS) makes no cells of a Polyvertex topology without it, and then
// renders nothing. It lives in a group so readSnapshot, which lists root datasets, does
// not take it for a field.
inline constexpr const char* kVertexDataset = "/xdmf/connectivity";

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
    // The particles' vertex cells in `file` (kVertexDataset); empty for files written
    // before it existed, whose particles then keep the implicit Polyvertex topology.
    std::string vertexDataset;
    // The whole grid's dims when this entry is one piece of a distributed snapshot (zeros:
    // the entry is the whole). Whether the grid is a sheet is the whole grid's shape: a
    // volume's piece one plane thick still holds cells.
    std::size_t wholeDims[3] = {0, 0, 0};

    // Assumes the file holds kVertexDataset when the snapshot has particles.
    static XdmfEntry describe(const Snapshot& snapshot, std::string file);
};

// The number of particles the XDMF shows for this entry (0: none), which is the length of
// the vertex dataset the writer stores.
std::size_t xdmfParticleCount(const XdmfEntry& entry);

// The two kinds of mesh a snapshot can hold. An XDMF document holds one kind, so that
// ParaView's default representation suits all of it: read together (a multiblock), the
// particles would be drawn inside the opaque surface of the grid's box.
enum class XdmfMesh { Particles, Grid };

// Whether the XDMF shows `mesh` for this entry.
bool holdsMesh(const XdmfEntry& entry, XdmfMesh mesh);

// A temporal collection with one time step per entry that holds `mesh`, laid out so that
// both of ParaView's XDMF readers (Xdmf3ReaderS, its default, and the legacy XDMFReader)
// read every field and its default representation shows the data:
// - Particles (a Positions field) become a Polyvertex grid with one vertex cell each,
//   connectivity from vertexDataset; their PerEntity fields are node attributes.
// - Grid fields on a volume (every axis more than one cell) are cell attributes of a
//   3DCoRectMesh spanning the box (ParaView shows its outline).
// - Grid fields on a sheet (an axis one cell thick: cardiac, gliding) are node attributes
//   of a flat 3DCoRectMesh whose points are the cell centres, one point thick across the
//   sheet (ParaView shows it as a coloured slice). A 2DCoRectMesh would do the same in
//   name only: both readers put it in the y-z plane.
// - Grid DataItems state the grid's shape (nz ny nx [components]) while the datasets stay
//   [count] or [count, components]: given a one-dimensional cell attribute, the legacy
//   reader keeps only its first nz values; both readers accept the reshaped dimensions.
// - Components: 1 Scalar, 3 Vector, 6 Tensor6, 9 Tensor, any other count Matrix (both
//   readers then keep the count; a 2-component Vector becomes 3 in the legacy reader).
// Internal and RestartOnly fields are left out, as are fields whose sizes do not fit their
// mesh (ParaView would reject the whole file).
std::string xdmfDocument(const std::string& collectionName, const std::vector<XdmfEntry>& entries,
                         XdmfMesh mesh);

// The same for a distributed run: `steps` holds, per time step, every rank's piece in rank
// order (entries with wholeDims and their own box and gridDims). A step of several pieces
// becomes a spatial collection (GridType="Collection" CollectionType="Spatial", with the
// step's Time) of the pieces' grids, named "<grid|particles> <rank>", each laid out as
// above in its own box: ParaView reads one multiblock dataset per time step whose merged
// cells or particles are those of the whole. Pieces without `mesh` are left out. A step of
// one piece is written as xdmfDocument writes it, so a run on one rank gets the document of
// a serial run. The pieces of a split sheet hold cell attributes one cell thick (not node
// attributes at the cell centres, which would leave a cell's gap between neighbouring
// pieces), so that they meet edge to edge.
std::string xdmfPiecesDocument(const std::string& collectionName,
                               const std::vector<std::vector<XdmfEntry>>& steps, XdmfMesh mesh);

}  // namespace cf::io
