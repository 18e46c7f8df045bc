// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The CPU kd-tree neighbour search (mechanics.neighbour_search = kdtree): nanoflann's
// KD-tree over the cells' float positions, the baseline Hesam et al. compare their uniform
// grid against (BioDynaMo's CPU search). Built once per step over the same points as the
// grid; a radius query visits every point within `radius` (a superset of the pairs within
// the interaction radius, which the caller tests exactly in double).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <nanoflann.hpp>
#include <utility>
#include <vector>

namespace cf::spheres {

class KdTreeSearch {
public:
    // Indexes the first `n` points of x, y, z (kept by reference until the next build).
    void build(const float* x, const float* y, const float* z, std::size_t n) {
        cloud_ = Cloud{x, y, z, n};
        index_ = std::make_unique<Index>(3, cloud_, nanoflann::KDTreeSingleIndexAdaptorParams(16));
        index_->buildIndex();
    }

    // f(j) for every indexed point within `radius` of (x, y, z), in index order (ascending j,
    // so that the forces add up in the same order for any tree shape). Thread-safe: each
    // thread reuses its own result list (no allocation per query once it has grown).
    template <typename F>
    void forEachWithin(float x, float y, float z, float radius, F&& f) const {
        const float query[3] = {x, y, z};
        thread_local std::vector<std::pair<std::uint32_t, float>> found;
        found.clear();
        nanoflann::SearchParams params;
        params.sorted = false;
        index_->radiusSearch(query, radius * radius, found, params);  // squared for L2
        std::sort(found.begin(), found.end());
        for (const auto& [j, d2] : found)
            f(static_cast<std::int32_t>(j));
    }

private:
    struct Cloud {
        const float *x = nullptr, *y = nullptr, *z = nullptr;
        std::size_t n = 0;
        std::size_t kdtree_get_point_count() const { return n; }
        float kdtree_get_pt(std::size_t i, std::size_t dim) const {
            return dim == 0 ? x[i] : dim == 1 ? y[i] : z[i];
        }
        template <class Box>
        bool kdtree_get_bbox(Box&) const {
            return false;  // nanoflann computes the bounding box
        }
    };
    using Index = nanoflann::KDTreeSingleIndexAdaptor<
        nanoflann::L2_Simple_Adaptor<float, Cloud, float, std::uint32_t>, Cloud, 3, std::uint32_t>;
    Cloud cloud_;
    std::unique_ptr<Index> index_;
};

}  // namespace cf::spheres
