// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/gliding/anchor_rows.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/dist/communicator.hpp"
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
    r.lowRows = -oyLo;
    r.highRows = oyHi;
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

AnchorRows anchorRows(const GlidingTables& t, const dist::Communicator& comm, bool wHalo) {
    const dist::Slab slab = dist::slabOf(1, t.n, comm, true, "grid.n");
    AnchorRows r = anchorRows(t, slab.begin, slab.end);
    // The smallest slab has n / ranks rows (rounded down): the halo needs each part of W
    // outside a rank's rows to lie on one neighbour's rows.
    const std::int32_t fewest = t.n / comm.size();
    // Gathers that stay on their own row (a coarse grid) leave nothing to exchange.
    const std::int32_t reach = std::max(r.lowRows, r.highRows);
    if (wHalo && comm.size() > 1 && !r.w.whole(t.n) && reach > 0 && fewest >= reach) {
        std::int32_t mLo = 0, mHi = 0;
        for (const PeskinStencil& st : t.peskin) {
            mLo = std::min(mLo, st.m0[1]);
            mHi = std::max(mHi, st.m0[1] + 3);
        }
        r.haloW = true;
        r.below = slab.below;
        r.above = slab.above;
        r.f = bandOf(r.begin + mLo, r.end - 1 + mHi, t.n);
    }
    return r;
}

std::int32_t topEdgeRow(const AnchorRows& rows) {
    return rows.end - rows.lowRows;
}

std::int32_t bottomEdgeRow(const AnchorRows& rows) {
    return rows.begin;
}

std::vector<dist::Transfer> wHaloTransfers(const AnchorRows& rows, std::size_t rowBytes,
                                           const std::byte* w, std::byte* fromAbove,
                                           std::byte* fromBelow) {
    const auto row = [&](std::int32_t r) {
        return w + static_cast<std::size_t>(((r % rows.n) + rows.n) % rows.n) * rowBytes;
    };
    const std::size_t low = static_cast<std::size_t>(rows.lowRows) * rowBytes;
    const std::size_t high = static_cast<std::size_t>(rows.highRows) * rowBytes;
    // A side the gathers do not reach sends and receives nothing (both ranks agree: the
    // reach is the tables').
    std::vector<dist::Transfer> out;
    if (low > 0) {
        out.push_back({row(rows.begin - rows.lowRows), nullptr, low, rows.below, 0});
        out.push_back({nullptr, fromAbove, low, rows.above, 0});
    }
    if (high > 0) {
        out.push_back({row(rows.end), nullptr, high, rows.above, 1});
        out.push_back({nullptr, fromBelow, high, rows.below, 1});
    }
    return out;
}

void exchangeWHalo(dist::Communicator& comm, const AnchorRows& rows, std::size_t rowValues,
                   std::vector<double>& w, std::vector<double>& scratch) {
    const std::size_t low = static_cast<std::size_t>(rows.lowRows) * rowValues;
    const std::size_t high = static_cast<std::size_t>(rows.highRows) * rowValues;
    scratch.resize(low + high);
    const std::vector<dist::Transfer> transfers = wHaloTransfers(
        rows, rowValues * sizeof(double), reinterpret_cast<const std::byte*>(w.data()),
        reinterpret_cast<std::byte*>(scratch.data()),
        reinterpret_cast<std::byte*>(scratch.data() + low));
    comm.exchange(transfers);
    double* top = w.data() + static_cast<std::size_t>(topEdgeRow(rows)) * rowValues;
    for (std::size_t i = 0; i < low; ++i)
        top[i] = top[i] + scratch[i];
    double* bottom = w.data() + static_cast<std::size_t>(bottomEdgeRow(rows)) * rowValues;
    for (std::size_t i = 0; i < high; ++i)
        bottom[i] = bottom[i] + scratch[low + i];
    // The parts sent away count no more here: zero them, so that F2 spreads own rows only.
    const auto zeroRows = [&](std::int32_t first, std::int32_t count) {
        const std::size_t at = static_cast<std::size_t>(((first % rows.n) + rows.n) % rows.n);
        std::fill_n(w.begin() + static_cast<std::ptrdiff_t>(at * rowValues),
                    static_cast<std::size_t>(count) * rowValues, 0.0);
    };
    zeroRows(rows.begin - rows.lowRows, rows.lowRows);
    zeroRows(rows.end, rows.highRows);
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

std::vector<double> gatherAnchors(dist::Communicator& comm, const AnchorRows& rows,
                                  std::span<const double> mine, std::size_t per) {
    const std::size_t cells = static_cast<std::size_t>(rows.n) * rows.n;
    if (mine.size() != rows.anchors() * per)
        throw Error("gliding: a rank's anchor array does not match its rows");
    std::vector<double> whole(cells * per, 0.0);
    std::copy(mine.begin(), mine.end(),
              whole.begin() + static_cast<std::ptrdiff_t>(rows.firstAnchor() * per));
    // Every value has one owner and zeros elsewhere: the sum is exact in any order.
    sumInRankOrder(comm, whole);
    return whole;
}

}  // namespace cf::gliding
