// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A regular grid split into slabs of whole planes along one axis, one slab per rank, in
// rank order (rank 0 holds the lowest planes). Sizes differ by at most one plane.
#include <cstddef>
#include <string>

namespace cf::dist {

class Communicator;

struct Slab {
    int axis = 2;            // 0 x, 1 y, 2 z: the axis the planes are stacked along
    int planes = 1;          // planes of the whole grid along `axis`
    int begin = 0, end = 1;  // this rank's planes [begin, end)
    int rank = 0, ranks = 1;
    int count() const { return end - begin; }
    // The ranks holding the planes just below and above this slab; -1 at the grid's ends
    // (a periodic axis wraps: see slabNeighbours).
    int below = -1, above = -1;
};

// The slab of `rank` among `ranks` over `planes` planes along `axis`. `periodic`: the first
// and last slabs are neighbours. Throws ParameterError (naming `what`, e.g. "tissue.nz")
// when there are fewer planes than ranks.
Slab slabOf(int axis, int planes, int rank, int ranks, bool periodic, const std::string& what);

// The slab this rank of `comm` holds.
Slab slabOf(int axis, int planes, const Communicator& comm, bool periodic, const std::string& what);

// Where a rank's piece lies in the whole grid, for outputs written per rank.
struct GridPiece {
    std::size_t globalDims[3] = {0, 0, 0};  // nodes of the whole grid
    std::size_t offset[3] = {0, 0, 0};      // this piece's first node in it
    std::size_t dims[3] = {0, 0, 0};        // this piece's nodes
};

GridPiece pieceOf(const Slab& slab, const std::size_t globalDims[3]);

}  // namespace cf::dist
