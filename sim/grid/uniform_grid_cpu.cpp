// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/grid/uniform_grid_cpu.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "sim/core/errors.hpp"

namespace cf::grid {

namespace {

constexpr long long kMaxCells = 1LL << 28;

std::string str(float v) {
    std::ostringstream out;
    out << v;
    return out.str();
}

// Spreads the low 21 bits of v so that two zero bits separate consecutive bits.
std::uint64_t spreadBits(std::uint32_t v) {
    std::uint64_t x = v & 0x1fffffu;
    x = (x | x << 32) & 0x1f00000000ffffULL;
    x = (x | x << 16) & 0x1f0000ff0000ffULL;
    x = (x | x << 8) & 0x100f00f00f00f00fULL;
    x = (x | x << 4) & 0x10c30c30c30c30c3ULL;
    x = (x | x << 2) & 0x1249249249249249ULL;
    return x;
}

std::uint32_t compactBits(std::uint64_t x) {
    x &= 0x1249249249249249ULL;
    x = (x | x >> 2) & 0x10c30c30c30c30c3ULL;
    x = (x | x >> 4) & 0x100f00f00f00f00fULL;
    x = (x | x >> 8) & 0x1f0000ff0000ffULL;
    x = (x | x >> 16) & 0x1f00000000ffffULL;
    x = (x | x >> 32) & 0x1fffffULL;
    return static_cast<std::uint32_t>(x);
}

}  // namespace

GridGeometry makeGridGeometry(const float lo[3], const float hi[3], float cutoff,
                              const bool periodic[3]) {
    if (!(std::isfinite(cutoff) && cutoff > 0.0f))
        throw Error("uniform grid: the cutoff must be positive and finite, got " + str(cutoff));
    static constexpr const char* kAxis[3] = {"x", "y", "z"};
    GridGeometry g;
    g.cutoff = cutoff;
    long long total = 1;
    for (int a = 0; a < 3; ++a) {
        const float len = hi[a] - lo[a];
        if (!(std::isfinite(lo[a]) && std::isfinite(hi[a]) && std::isfinite(len) && len > 0.0f))
            throw Error(std::string("uniform grid: the box along ") + kAxis[a] +
                        " must be finite with lo < hi, got [" + str(lo[a]) + ", " + str(hi[a]) +
                        ")");
        const double cells = std::floor(static_cast<double>(len) / static_cast<double>(cutoff));
        if (cells > static_cast<double>(kMaxCells))
            throw Error(std::string("uniform grid: ") + str(len) + " / cutoff " + str(cutoff) +
                        " along " + kAxis[a] + " gives too many cells; raise the cutoff");
        int n = std::max(1, static_cast<int>(cells));
        // The quotient above is rounded: settle n in the float arithmetic the edge is stored
        // in, as the largest count whose edge len / n is still >= cutoff.
        while (n > 1 && len / static_cast<float>(n) < cutoff)
            --n;
        while (n < kMaxCells && len / static_cast<float>(n + 1) >= cutoff)
            ++n;
        if (periodic[a] && n < 3)
            throw Error(std::string("uniform grid: periodic axis ") + kAxis[a] + " of length " +
                        str(len) + " holds only " + std::to_string(n) +
                        " cell(s) of edge >= cutoff " + str(cutoff) +
                        "; a periodic axis needs at least 3 (length >= 3 * cutoff), or the "
                        "neighbor search would count pairs twice");
        total *= n;
        if (total > kMaxCells)
            throw Error("uniform grid: the box / cutoff " + str(cutoff) + " would need more than " +
                        std::to_string(kMaxCells) + " cells; raise the cutoff");
        g.lo[a] = lo[a];
        g.length[a] = len;
        g.invLength[a] = static_cast<float>(1.0 / static_cast<double>(len));
        g.cellSize[a] = len / static_cast<float>(n);  // as checked against the cutoff above
        g.invCellSize[a] = static_cast<float>(n / static_cast<double>(len));
        g.dims[a] = n;
        g.periodic[a] = periodic[a];
    }
    return g;
}

std::vector<std::int32_t> mortonRankTable(const GridGeometry& g) {
    const int ncells = g.cellCount();
    // A Morton code determines (ix, iy, iz), so sorting the codes alone is enough.
    std::vector<std::uint64_t> codes;
    codes.reserve(static_cast<std::size_t>(ncells));
    for (int iz = 0; iz < g.dims[2]; ++iz)
        for (int iy = 0; iy < g.dims[1]; ++iy)
            for (int ix = 0; ix < g.dims[0]; ++ix)
                codes.push_back(spreadBits(static_cast<std::uint32_t>(ix)) |
                                spreadBits(static_cast<std::uint32_t>(iy)) << 1 |
                                spreadBits(static_cast<std::uint32_t>(iz)) << 2);
    std::sort(codes.begin(), codes.end());
    std::vector<std::int32_t> rank(static_cast<std::size_t>(ncells));
    for (int r = 0; r < ncells; ++r) {
        const std::uint64_t c = codes[static_cast<std::size_t>(r)];
        const int cell =
            linearCell(g, static_cast<int>(compactBits(c)), static_cast<int>(compactBits(c >> 1)),
                       static_cast<int>(compactBits(c >> 2)));
        rank[static_cast<std::size_t>(cell)] = r;
    }
    return rank;
}

std::vector<std::int32_t> cellsByMortonRank(const std::vector<std::int32_t>& rank) {
    std::vector<std::int32_t> cells(rank.size());
    for (std::size_t c = 0; c < rank.size(); ++c)
        cells[static_cast<std::size_t>(rank[c])] = static_cast<std::int32_t>(c);
    return cells;
}

int mortonKeyBits(const GridGeometry& g) {
    const auto ncells = static_cast<std::uint64_t>(g.cellCount());
    int bits = 1;
    while ((std::uint64_t{1} << bits) < ncells)
        ++bits;
    return bits;
}

bool sameGeometry(const GridGeometry& a, const GridGeometry& b) {
    for (int i = 0; i < 3; ++i) {
        if (a.lo[i] != b.lo[i] || a.length[i] != b.length[i] || a.dims[i] != b.dims[i] ||
            a.periodic[i] != b.periodic[i] || a.cellSize[i] != b.cellSize[i])
            return false;
    }
    return a.cutoff == b.cutoff;
}

void CpuUniformGrid::build(const GridGeometry& geometry, PointsView points) {
    if (points.count < 0) throw Error("uniform grid: negative point count");
    if (!haveGeometry_ || !sameGeometry(geometry, geometry_)) {
        rank_ = mortonRankTable(geometry);
        geometry_ = geometry;
        haveGeometry_ = true;
    }
    points_ = points;
    const int n = points.count;
    const int ncells = geometry.cellCount();
    const auto un = static_cast<std::size_t>(n);

    // Histogram of keys.
    keys_.resize(un);
    offset_.assign(static_cast<std::size_t>(ncells), 0);
    for (int i = 0; i < n; ++i) {
        const int cell = cellOf(geometry, points.x[i], points.y[i], points.z[i]);
        const std::int32_t key = rank_[static_cast<std::size_t>(cell)];
        keys_[static_cast<std::size_t>(i)] = key;
        ++offset_[static_cast<std::size_t>(key)];
    }
    // Exclusive scan: offset_[k] = first slot of key k.
    std::int32_t running = 0;
    for (auto& o : offset_) {
        const std::int32_t c = o;
        o = running;
        running += c;
    }
    cellStart_.resize(static_cast<std::size_t>(ncells));
    cellEnd_.resize(static_cast<std::size_t>(ncells));
    for (int c = 0; c < ncells; ++c) {
        const auto k = static_cast<std::size_t>(rank_[static_cast<std::size_t>(c)]);
        const std::int32_t start = offset_[k];
        const std::int32_t end = k + 1 < offset_.size() ? offset_[k + 1] : n;
        const bool empty = start == end;
        cellStart_[static_cast<std::size_t>(c)] = empty ? kEmptyCell : start;
        cellEnd_[static_cast<std::size_t>(c)] = empty ? kEmptyCell : end;
    }
    // Scatter in increasing original index: stable, so ties stay ordered by index.
    sortedIndex_.resize(un);
    sortedKeys_.resize(un);
    for (int i = 0; i < n; ++i) {
        const std::int32_t key = keys_[static_cast<std::size_t>(i)];
        const auto s = static_cast<std::size_t>(offset_[static_cast<std::size_t>(key)]++);
        sortedIndex_[s] = i;
        sortedKeys_[s] = static_cast<std::uint32_t>(key);
    }
}

GridView CpuUniformGrid::view() const {
    GridView v;
    v.geometry = geometry_;
    v.sortedIndex = sortedIndex_.data();
    v.cellStart = cellStart_.data();
    v.cellEnd = cellEnd_.data();
    v.mortonRank = rank_.data();
    v.points = points_;
    return v;
}

}  // namespace cf::grid
