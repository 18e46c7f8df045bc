// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/tissue_slab.hpp"

#include <cstdint>

#include "sim/dist/grid_gather.hpp"
#include "sim/dist/metric_exchange.hpp"
#include "sim/models/cardiac/cardiac_model.hpp"

namespace cf::cardiac {

namespace {

// Calls f(i, j, k, index) over the box `n` (x fastest).
template <typename F>
void forEachNode(const int n[3], F&& f) {
    std::size_t m = 0;
    for (int k = 0; k < n[2]; ++k)
        for (int j = 0; j < n[1]; ++j)
            for (int i = 0; i < n[0]; ++i, ++m)
                f(i, j, k, m);
}

std::size_t indexIn(const int n[3], int i, int j, int k) {
    return static_cast<std::size_t>(i) +
           static_cast<std::size_t>(n[0]) *
               (static_cast<std::size_t>(j) + static_cast<std::size_t>(n[1]) * k);
}

// The coordinates of node m of the box `n` (x fastest).
void coordsIn(const int n[3], std::size_t m, int c[3]) {
    const std::size_t nx = static_cast<std::size_t>(n[0]), ny = static_cast<std::size_t>(n[1]);
    c[0] = static_cast<int>(m % nx);
    c[1] = static_cast<int>((m / nx) % ny);
    c[2] = static_cast<int>(m / (nx * ny));
}

// The extended box's node (i, j, k) in the whole grid (the halo planes included).
template <typename F>
void forEachExtended(const TissueSlab& s, F&& f) {
    const int a = s.slab.axis;
    const int first = s.slab.begin - s.haloBelow;
    forEachNode(s.extended, [&](int i, int j, int k, std::size_t e) {
        int c[3] = {i, j, k};
        c[a] += first;
        f(indexIn(s.whole, c[0], c[1], c[2]), e);
    });
}

}  // namespace

std::size_t TissueSlab::planeNodes() const {
    return extendedNodes() / static_cast<std::size_t>(extended[slab.axis]);
}

std::size_t TissueSlab::wholeOf(std::size_t m) const {
    int c[3];
    coordsIn(owned, m, c);
    c[slab.axis] += slab.begin;
    return indexIn(whole, c[0], c[1], c[2]);
}

std::size_t TissueSlab::extendedOf(std::size_t m) const {
    int c[3];
    coordsIn(owned, m, c);
    c[slab.axis] += haloBelow;
    return indexIn(extended, c[0], c[1], c[2]);
}

int TissueSlab::planeOf(std::size_t m) const {
    const std::size_t nx = static_cast<std::size_t>(owned[0]);
    const std::size_t ny = static_cast<std::size_t>(owned[1]);
    if (slab.axis == 0) return static_cast<int>(m % nx);
    if (slab.axis == 1) return static_cast<int>((m / nx) % ny);
    return static_cast<int>(m / (nx * ny));
}

std::size_t TissueSlab::ownedIndexOf(std::size_t w) const {
    int c[3];
    coordsIn(whole, w, c);
    if (c[slab.axis] < slab.begin || c[slab.axis] >= slab.end) return SIZE_MAX;
    c[slab.axis] -= slab.begin;
    return indexIn(owned, c[0], c[1], c[2]);
}

int longestAxis(const CardiacParams& p) {
    const int n[3] = {p.nx, p.ny, p.nz};
    int best = 2;
    for (int a = 1; a >= 0; --a)
        if (n[a] > n[best]) best = a;
    return best;
}

TissueSlab tissueSlab(const CardiacParams& p, const dist::Communicator* comm) {
    TissueSlab s;
    const int axis = longestAxis(p);
    s.whole[0] = p.nx;
    s.whole[1] = p.ny;
    s.whole[2] = p.nz;
    static const char* const keys[3] = {"tissue.nx", "tissue.ny", "tissue.nz"};
    s.slab = comm ? dist::slabOf(axis, s.whole[axis], *comm, false, keys[axis])
                  : dist::slabOf(axis, s.whole[axis], 0, 1, false, keys[axis]);
    for (int a = 0; a < 3; ++a)
        s.owned[a] = s.extended[a] = s.whole[a];
    s.owned[axis] = s.slab.count();
    s.haloBelow = s.slab.below >= 0 ? 1 : 0;
    s.haloAbove = s.slab.above >= 0 ? 1 : 0;
    s.extended[axis] = s.owned[axis] + s.haloBelow + s.haloAbove;
    const std::size_t dims[3] = {static_cast<std::size_t>(p.nx), static_cast<std::size_t>(p.ny),
                                 static_cast<std::size_t>(p.nz)};
    s.piece = dist::pieceOf(s.slab, dims);
    return s;
}

std::vector<unsigned char> ownedPart(const TissueSlab& s, const std::vector<unsigned char>& whole) {
    if (whole.empty()) return {};
    return dist::cutPiece(s.piece, whole);
}

std::vector<unsigned char> extendedPart(const TissueSlab& s,
                                        const std::vector<unsigned char>& whole) {
    if (whole.empty()) return {};
    std::vector<unsigned char> out(s.extendedNodes());
    forEachExtended(s, [&](std::size_t w, std::size_t e) { out[e] = whole[w]; });
    return out;
}

namespace {

// Calls f(b, e) for node b of plane `plane` (extended coordinate along the slab's axis) and
// its index e in the extended layout.
template <typename F>
void forPlane(const TissueSlab& s, int plane, F&& f) {
    int box[3] = {s.extended[0], s.extended[1], s.extended[2]};
    box[s.slab.axis] = 1;
    forEachNode(box, [&](int i, int j, int k, std::size_t b) {
        int c[3] = {i, j, k};
        c[s.slab.axis] = plane;
        f(b, indexIn(s.extended, c[0], c[1], c[2]));
    });
}

}  // namespace

void packPlane(const TissueSlab& s, const double* extended, int plane, double* buffer) {
    forPlane(s, plane, [&](std::size_t b, std::size_t e) { buffer[b] = extended[e]; });
}

void unpackPlane(const TissueSlab& s, const double* buffer, int plane, double* extended) {
    forPlane(s, plane, [&](std::size_t b, std::size_t e) { extended[e] = buffer[b]; });
}

std::vector<Metric> slabMetrics(dist::Communicator& comm, const TissueSlab& s,
                                const CardiacParams& p, const std::vector<double>& potential,
                                const std::vector<double>& activation, const BeatMeter& meter,
                                int meterRank, const std::vector<unsigned char>& tissueWhole) {
    const std::vector<double> v =
        dist::gatherGrid(comm, s.piece, std::span<const double>(potential));
    const std::vector<double> a =
        dist::gatherGrid(comm, s.piece, std::span<const double>(activation));
    const std::vector<double> meterState = comm.broadcastDoubles(
        comm.rank() == meterRank ? meter.state() : std::vector<double>{}, meterRank);
    std::vector<Metric> m;
    if (comm.rank() == 0) {
        BeatMeter whole(p.start, p.cycleLength, p.beats);
        whole.restore(meterState);
        m = tissueMetrics(p, v, a, whole, tissueWhole);
    }
    return dist::broadcastMetrics(comm, std::move(m), 0);
}

std::size_t haloTransfers(const TissueSlab& s, const void* const send[2], void* const recv[2],
                          std::size_t bytes, dist::Transfer t[4]) {
    std::size_t n = 0;
    if (s.haloBelow) {
        t[n++] = {nullptr, recv[0], bytes, s.slab.below, 0};
        t[n++] = {send[0], nullptr, bytes, s.slab.below, 1};
    }
    if (s.haloAbove) {
        t[n++] = {nullptr, recv[1], bytes, s.slab.above, 1};
        t[n++] = {send[1], nullptr, bytes, s.slab.above, 0};
    }
    return n;
}

HaloExchange::HaloExchange(const TissueSlab& s, dist::Communicator* comm) : slab_(&s), comm_(comm) {
    const std::size_t n = s.planeNodes();
    if (s.haloBelow) {
        sendDown_.resize(n);
        fromBelow_.resize(n);
    }
    if (s.haloAbove) {
        sendUp_.resize(n);
        fromAbove_.resize(n);
    }
}

void HaloExchange::start(const double* extended) {
    if (!comm_ || !slab_->distributed()) return;
    const TissueSlab& s = *slab_;
    const std::size_t bytes = s.planeNodes() * sizeof(double);
    if (s.haloBelow) packPlane(s, extended, s.haloBelow, sendDown_.data());  // first owned
    if (s.haloAbove) packPlane(s, extended, s.haloBelow + s.owned[s.slab.axis] - 1, sendUp_.data());
    const void* const send[2] = {sendDown_.data(), sendUp_.data()};
    void* const recv[2] = {fromBelow_.data(), fromAbove_.data()};
    dist::Transfer t[4];
    const std::size_t count = haloTransfers(s, send, recv, bytes, t);
    pending_ = comm_->startExchange(std::span<const dist::Transfer>(t, count));
}

void HaloExchange::finish(double* extended) {
    if (!pending_) return;
    pending_->wait();
    pending_.reset();
    const TissueSlab& s = *slab_;
    if (s.haloBelow) unpackPlane(s, fromBelow_.data(), 0, extended);
    if (s.haloAbove) unpackPlane(s, fromAbove_.data(), s.extended[s.slab.axis] - 1, extended);
}

}  // namespace cf::cardiac
