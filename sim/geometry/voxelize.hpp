// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A closed triangle mesh into site types on a cubic lattice: inside (e.g. cytoplasm), a
// membrane shell just inside the surface, and outside (e.g. extracellular space).
#include <cstdint>
#include <vector>

#include "sim/geometry/lattice_frame.hpp"
#include "sim/geometry/triangle_mesh.hpp"

namespace cf::geometry {

struct RegionTypes {
    std::uint8_t inside = 1;    // inside the surface, deeper than the membrane
    std::uint8_t membrane = 2;  // inside, within the membrane thickness of the outside
    std::uint8_t outside = 0;   // outside the surface
};

// One type per site (index x + y nx + z nx ny).
//
// Inside: a site is inside when its centre is, by ray parity: one ray along +x per row of
// sites (y, z); the row is inside between odd and even crossings. Rows that graze a vertex
// or an edge are decided by simulation of simplicity: the ray is taken as moved by a
// symbolic (y + e, z + e^2) with e -> 0, and every edge's side test is evaluated once per
// edge (its endpoints in a fixed order), so two triangles sharing an edge never both or
// neither claim the ray. A grazing row therefore counts a crossing exactly where a ray
// just above it in y (then z) would: a cube whose faces lie on site centres keeps its
// low faces and loses its high ones in y and z, and in x a site centre exactly on the
// surface counts as beyond that crossing. Triangles seen edge-on along x are skipped.
//
// Membrane: inside sites whose centre is within `membraneThickness` (lattice units times
// spacing, e.g. nm) of the centre of an outside site, by exact Euclidean distance, and at
// least one layer: every inside site with an outside 6-neighbour. So a thickness t gives
// floor(t / spacing) layers along the axes (a relative 1e-6 of slack keeps t = 3 * spacing
// at three layers despite rounding). Sites beyond the lattice are not outside.
//
// Throws GeometryError for a mesh that is not closed (checkClosed()), a bad frame, a
// negative or non-finite thickness, or a thickness of more than 255 sites.
std::vector<std::uint8_t> voxelizeRegions(const TriangleMesh& mesh, const LatticeFrame& frame,
                                          float membraneThickness, RegionTypes types);

}  // namespace cf::geometry
