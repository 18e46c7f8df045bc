// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Host build of the uniform grid: a stable counting sort over the Morton keys.
#include <cstdint>
#include <vector>

#include "sim/grid/uniform_grid.hpp"

namespace cf::grid {

class CpuUniformGrid {
public:
    // Sorts the points (host pointers, which must stay valid while view() is used). The
    // Morton table is recomputed only when the geometry changes.
    void build(const GridGeometry& geometry, PointsView points);

    const GridGeometry& geometry() const noexcept { return geometry_; }
    int count() const noexcept { return points_.count; }

    // slot -> original index; sortedKeys[slot] = key of that point, non-decreasing.
    const std::vector<std::int32_t>& sortedIndex() const noexcept { return sortedIndex_; }
    const std::vector<std::uint32_t>& sortedKeys() const noexcept { return sortedKeys_; }
    // Indexed by linear cell id; kEmptyCell in both for cells without points.
    const std::vector<std::int32_t>& cellStart() const noexcept { return cellStart_; }
    const std::vector<std::int32_t>& cellEnd() const noexcept { return cellEnd_; }
    const std::vector<std::int32_t>& mortonRank() const noexcept { return rank_; }

    GridView view() const;

private:
    GridGeometry geometry_{};
    bool haveGeometry_ = false;
    PointsView points_{};
    std::vector<std::int32_t> rank_;
    std::vector<std::int32_t> keys_;    // per original point
    std::vector<std::int32_t> offset_;  // per key: histogram, then running scatter offset
    std::vector<std::int32_t> sortedIndex_;
    std::vector<std::uint32_t> sortedKeys_;
    std::vector<std::int32_t> cellStart_;
    std::vector<std::int32_t> cellEnd_;
};

}  // namespace cf::grid
