// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/dist/slab.hpp"

#include "sim/core/errors.hpp"
#include "sim/dist/communicator.hpp"

namespace cf::dist {

Slab slabOf(int axis, int planes, int rank, int ranks, bool periodic, const std::string& what) {
    if (ranks < 1 || rank < 0 || rank >= ranks)
        throw Error("slabOf: rank " + std::to_string(rank) + " of " + std::to_string(ranks));
    if (planes < ranks)
        throw ParameterError(what + " = " + std::to_string(planes) + ": " + std::to_string(ranks) +
                             " ranks need at least one plane each " + "(run on at most " +
                             std::to_string(planes) + " ranks)");
    Slab s;
    s.axis = axis;
    s.planes = planes;
    s.rank = rank;
    s.ranks = ranks;
    // 64-bit products: planes * ranks overflows int for a 10^6-plane grid on 4096 ranks.
    s.begin = static_cast<int>(static_cast<long long>(planes) * rank / ranks);
    s.end = static_cast<int>(static_cast<long long>(planes) * (rank + 1) / ranks);
    s.below = rank > 0 ? rank - 1 : (periodic && ranks > 1 ? ranks - 1 : -1);
    s.above = rank + 1 < ranks ? rank + 1 : (periodic && ranks > 1 ? 0 : -1);
    return s;
}

Slab slabOf(int axis, int planes, const Communicator& comm, bool periodic,
            const std::string& what) {
    return slabOf(axis, planes, comm.rank(), comm.size(), periodic, what);
}

GridPiece pieceOf(const Slab& slab, const std::size_t globalDims[3]) {
    GridPiece p;
    for (int a = 0; a < 3; ++a) {
        p.globalDims[a] = globalDims[a];
        p.dims[a] = globalDims[a];
    }
    p.offset[slab.axis] = static_cast<std::size_t>(slab.begin);
    p.dims[slab.axis] = static_cast<std::size_t>(slab.count());
    return p;
}

}  // namespace cf::dist
