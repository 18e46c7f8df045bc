// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/gliding/anchor_rows.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/dist/communicator.hpp"
#include "sim/dist/grid_gather.hpp"
#include "sim/dist/slab.hpp"

namespace cf::gliding {

namespace {

// Rows lo .. hi (inclusive, may lie outside [0, n)) as a band of the periodic grid.
RowBand bandOf(std::int32_t lo, std::int32_t hi, std::int32_t n) {
    const std::int32_t count = hi - lo + 1;
    if (count >= n) return {0, n};
    return {((lo % n) + n) % n, count};
}

}  // namespace

AnchorRows wholeGrid(const GlidingTables& t) {
    return anchorRows(t, 0, t.n);
}

AnchorRows anchorRows(const GlidingTables& t, std::int32_t begin, std::int32_t end) {
    AnchorRows r;
    r.n = t.n;
    r.begin = begin;
    r.end = end;
    if (r.whole()) {
        r.w = r.f = {0, t.n};
        return r;
    }
    // W(y) gathers Mb(y - o): the owned anchors reach y = row + oy.
    std::int32_t oyLo = 0, oyHi = 0;
    for (const GatherEntry& g : t.gather) {
        oyLo = std::min(oyLo, g.oy);
        oyHi = std::max(oyHi, g.oy);
    }
    r.w = bandOf(begin + oyLo, end - 1 + oyHi, t.n);
    // F2(g) sums W(g - m0 - a), a = 0..3: node rows g = y + m0 + a.
    std::int32_t mLo = 0, mHi = 0;
    for (const PeskinStencil& st : t.peskin) {
        mLo = std::min(mLo, st.m0[1]);
        mHi = std::max(mHi, st.m0[1] + 3);
    }
    r.f = r.w.whole(t.n) ? RowBand{0, t.n}
                         : bandOf(r.w.first + mLo, r.w.first + r.w.count - 1 + mHi, t.n);
    return r;
}

AnchorRows anchorRows(const GlidingTables& t, const dist::Communicator& comm) {
    const dist::Slab slab = dist::slabOf(1, t.n, comm, true, "grid.n");
    return anchorRows(t, slab.begin, slab.end);
}

dist::GridPiece rowsPiece(const AnchorRows& rows) {
    const std::size_t dims[3] = {static_cast<std::size_t>(rows.n), static_cast<std::size_t>(rows.n),
                                 1};
    dist::Slab slab;
    slab.axis = 1;
    slab.planes = rows.n;
    slab.begin = rows.begin;
    slab.end = rows.end;
    return dist::pieceOf(slab, dims);
}

void sumInRankOrder(dist::Communicator& comm, std::span<double> values) {
    if (comm.size() == 1) return;
    const std::span<const std::byte> mine = std::as_bytes(values);
    std::vector<std::vector<std::byte>> all = comm.gather(mine, 0);
    std::vector<std::byte> sum(mine.size());
    if (comm.rank() == 0) {
        std::vector<double> total(values.size(), 0.0);
        std::vector<double> part(values.size());
        for (const std::vector<std::byte>& bytes : all) {
            if (bytes.size() != mine.size())
                throw Error("gliding: ranks sum arrays of different sizes");
            std::memcpy(part.data(), bytes.data(), bytes.size());
            for (std::size_t i = 0; i < total.size(); ++i)
                total[i] += part[i];
        }
        std::memcpy(sum.data(), total.data(), sum.size());
    }
    comm.broadcast(sum, 0);
    std::memcpy(values.data(), sum.data(), sum.size());
}

std::vector<std::byte> allGatherRows(dist::Communicator& comm, const AnchorRows& rows,
                                     std::span<const std::byte> mine, std::size_t valueBytes) {
    if (mine.size() != rows.anchors() * valueBytes)
        throw Error("gliding: a rank's anchor array does not match its rows");
    std::vector<std::byte> whole =
        dist::gatherGridBytes(comm, rowsPiece(rows), mine, valueBytes, 0);
    comm.broadcast(whole, 0);
    return whole;
}

std::vector<double> gatherAnchors(dist::Communicator& comm, const AnchorRows& rows,
                                  std::span<const double> mine, std::size_t per) {
    const std::vector<std::byte> bytes =
        allGatherRows(comm, rows, std::as_bytes(mine), per * sizeof(double));
    std::vector<double> whole(bytes.size() / sizeof(double));
    std::memcpy(whole.data(), bytes.data(), bytes.size());
    return whole;
}

}  // namespace cf::gliding
