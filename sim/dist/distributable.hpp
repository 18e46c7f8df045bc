// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a model implements, beside cf::Model, to run one simulation over several ranks
// (docs/SCALING.md). The driver asks for it with dynamic_cast: a model without it runs on
// one rank only, and a run on more is refused with that reason.
//
// After distribute() the model computes only its rank's piece of the domain:
//   advance()   exchanges halos with the neighbouring ranks (collective);
//   metrics()   is collective and returns the same values on every rank, equal to those
//               of one rank (the model says where a reduction order could change them);
//   snapshot()  holds this rank's piece only (see piece()); restore() takes such a piece,
//               written by the same rank of a run on as many ranks;
//   checkFinite() is collective.
// Views (the window) are not offered: a distributed run is headless.
#include <cstdint>
#include <string>

#include "sim/dist/communicator.hpp"
#include "sim/dist/slab.hpp"

namespace cf::dist {

class Distributable {
public:
    virtual ~Distributable() = default;
    // Before reset(): from then on the model runs on `comm`'s ranks (it keeps the
    // reference; the communicator outlives the model).
    virtual void distribute(Communicator& comm) = 0;
    // After reset(): where this rank's snapshot fields lie in the whole grid.
    virtual GridPiece piece() const = 0;
    // Wall seconds this rank has spent waiting for halo data since reset, for the scaling
    // benchmarks' split of a step (0 where the model does not measure it).
    virtual double haloSeconds() const { return 0.0; }
    // What carries the halo data: "MPI" (host memory or a CUDA-aware library), "NCCL 2.28.9".
    virtual std::string haloTransport() const { return "MPI"; }
    // What the benchmarks count per step over all ranks (collective where the count is
    // spread over them, e.g. agents): the whole grid's nodes unless the model says otherwise.
    virtual std::uint64_t entities() {
        const GridPiece p = piece();
        return p.globalDims[0] * p.globalDims[1] * p.globalDims[2];
    }
};

}  // namespace cf::dist
