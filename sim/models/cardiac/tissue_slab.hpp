// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The part of the tissue grid one rank computes (docs/SCALING.md, "Cardiac tissue"): a slab
// of whole planes along the grid's longest axis, plus one halo plane on each side that has
// a neighbouring rank, which the Laplacian of the slab's boundary planes reads. On one rank
// the slab is the whole grid and there are no halo planes, so both backends run one code
// path whatever the rank count.
//
// Three layouts, all x fastest:
//   whole     the grid of the parameters (global node ids: metrics, messages, the RNG-free
//             model needs nothing else);
//   owned     this rank's nodes (the states, the activation map, snapshots);
//   extended  owned plus the halo planes (the potential during diffusion, the tissue mask
//             the stencil reads).
#include <cstddef>
#include <memory>
#include <vector>

#include "sim/core/model.hpp"
#include "sim/dist/communicator.hpp"
#include "sim/dist/slab.hpp"
#include "sim/models/cardiac/beat_meter.hpp"
#include "sim/models/cardiac/cardiac_params.hpp"

namespace cf::cardiac {

struct TissueSlab {
    dist::Slab slab;  // along slab.axis; ranks = 1 without a communicator
    int whole[3] = {1, 1, 1};
    int owned[3] = {1, 1, 1};
    int extended[3] = {1, 1, 1};
    int haloBelow = 0, haloAbove = 0;  // 0 or 1 halo planes
    dist::GridPiece piece;

    std::size_t ownedNodes() const { return product(owned); }
    std::size_t extendedNodes() const { return product(extended); }
    std::size_t planeNodes() const;  // nodes in one plane across slab.axis
    // Owned node m (owned layout) in the whole grid and in the extended layout.
    std::size_t wholeOf(std::size_t m) const;
    std::size_t extendedOf(std::size_t m) const;
    // The coordinate of owned node m along slab.axis, in owned planes.
    int planeOf(std::size_t m) const;
    // The whole grid's node `w`, if this rank owns it: its owned index, else SIZE_MAX.
    std::size_t ownedIndexOf(std::size_t w) const;
    bool distributed() const { return slab.ranks > 1; }

private:
    static std::size_t product(const int n[3]) {
        return static_cast<std::size_t>(n[0]) * static_cast<std::size_t>(n[1]) *
               static_cast<std::size_t>(n[2]);
    }
};

// The axis with the most nodes (ties: the later axis, z before y before x, whose planes are
// contiguous in memory, so halos need no packing).
int longestAxis(const CardiacParams& p);

// The slab of `comm`'s rank (null: one rank, the whole grid). Throws ParameterError naming
// tissue.nx/ny/nz when that axis has fewer planes than there are ranks.
TissueSlab tissueSlab(const CardiacParams& p, const dist::Communicator* comm);

// Values of a whole-grid mask on the owned or extended layout.
std::vector<unsigned char> ownedPart(const TissueSlab& s, const std::vector<unsigned char>& whole);
std::vector<unsigned char> extendedPart(const TissueSlab& s,
                                        const std::vector<unsigned char>& whole);

// Plane `plane` (extended coordinate along slab.axis) of an extended field, to and from a
// contiguous buffer of planeNodes() values.
void packPlane(const TissueSlab& s, const double* extended, int plane, double* buffer);
void unpackPlane(const TissueSlab& s, const double* buffer, int plane, double* extended);

// The metrics of the whole tissue over several ranks (collective): the ranks' potential
// and activation pieces gathered on rank 0, tissueMetrics computed there as on one rank
// with the beat meter of rank `meterRank` (`meter`: that rank's, ignored elsewhere), and the
// result sent to every rank. `tissueWhole`: tissueMask of the whole grid.
std::vector<Metric> slabMetrics(dist::Communicator& comm, const TissueSlab& s,
                                const CardiacParams& p, const std::vector<double>& potential,
                                const std::vector<double>& activation, const BeatMeter& meter,
                                int meterRank, const std::vector<unsigned char>& tissueWhole);

// The transfers of one halo exchange of slab `s` (at most 4, into `t`; returns how many):
// `send[0]`/`recv[0]` the plane sent down and the lower halo, `[1]` those above, `bytes`
// each. Tags name the side a plane arrives on: 0 the receiver's lower halo (sent up), 1 its
// upper one (sent down), so both sides of an exchange agree.
std::size_t haloTransfers(const TissueSlab& s, const void* const send[2], void* const recv[2],
                          std::size_t bytes, dist::Transfer t[4]);

// The halo planes of an extended host field, exchanged with the neighbouring ranks: start()
// sends the slab's first and last owned planes, so the interior can be computed meanwhile;
// finish() waits and fills the halo planes. Buffers are allocated once.
class HaloExchange {
public:
    HaloExchange() = default;
    HaloExchange(const TissueSlab& s, dist::Communicator* comm);
    void start(const double* extended);
    void finish(double* extended);

private:
    const TissueSlab* slab_ = nullptr;
    dist::Communicator* comm_ = nullptr;
    std::vector<double> sendDown_, sendUp_, fromBelow_, fromAbove_;
    std::unique_ptr<dist::PendingExchange> pending_;
};

}  // namespace cf::cardiac
