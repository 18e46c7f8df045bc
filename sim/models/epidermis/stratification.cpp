// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/epidermis/stratification.hpp"

#include <algorithm>
#include <cmath>

#include "sim/grid/uniform_grid_cpu.hpp"
#include "sim/models/epidermis/epidermis_physics.hpp"

namespace cf::epidermis {

namespace {

// Calls `heightOf(j)` for every cell j within column_radius of cell i horizontally, i
// included. The cells' horizontal positions go into the shared uniform grid with z = 0, so
// its 3-D cut-off query is the horizontal one. A domain too small for the grid's 27-cell
// search (a periodic axis of fewer than 3 columns) is searched pair by pair.
class Columns {
public:
    Columns(const EpidermisParams& p, const CellCentres& c)
        : p_(p), c_(c), flat_(c.x.size(), 0.0f) {
        const float r = p.columnRadius;
        const bool tooSmall =
            p.periodic && (std::floor(p.sizeX / r) < 3.0f || std::floor(p.sizeY / r) < 3.0f);
        if (c.x.empty() || tooSmall) return;
        float lo[3] = {0.0f, 0.0f, 0.0f}, hi[3] = {p.sizeX, p.sizeY, r};
        if (!p.periodic) {  // the cells' own extent; open axes need no wrap
            const auto [x0, x1] = std::minmax_element(c.x.begin(), c.x.end());
            const auto [y0, y1] = std::minmax_element(c.y.begin(), c.y.end());
            lo[0] = *x0, lo[1] = *y0, hi[0] = *x1 + r, hi[1] = *y1 + r;
        }
        const bool periodic[3] = {p.periodic, p.periodic, false};
        grid_.build(
            grid::makeGridGeometry(lo, hi, r, periodic),
            grid::PointsView{c.x.data(), c.y.data(), flat_.data(), static_cast<int>(c.x.size())});
        useGrid_ = true;
    }

    void column(std::size_t i, std::vector<float>& heights) const {
        heights.clear();
        if (useGrid_) {
            grid::forEachNeighbor(grid_.view(), grid::Vec3{c_.x[i], c_.y[i], 0.0f}, p_.columnRadius,
                                  [&](std::int32_t j, grid::Vec3, float) {
                                      heights.push_back(c_.z[static_cast<std::size_t>(j)]);
                                  });
            return;
        }
        const float r2 = p_.columnRadius * p_.columnRadius;
        for (std::size_t j = 0; j < c_.x.size(); ++j) {
            const float dx = wrapDelta(c_.x[j] - c_.x[i], p_.sizeX, p_.periodic);
            const float dy = wrapDelta(c_.y[j] - c_.y[i], p_.sizeY, p_.periodic);
            if (dx * dx + dy * dy <= r2) heights.push_back(c_.z[j]);
        }
    }

private:
    const EpidermisParams& p_;
    const CellCentres& c_;
    std::vector<float> flat_;  // z = 0 for every cell: distances are horizontal
    grid::CpuUniformGrid grid_;
    bool useGrid_ = false;
};

}  // namespace

std::vector<int> columnLayers(const EpidermisParams& p, const CellCentres& c) {
    const Columns columns(p, c);
    std::vector<int> layers(c.x.size(), 0);
    std::vector<float> heights;
    const float gap = 0.5f * p.layerHeight;
    for (std::size_t i = 0; i < c.x.size(); ++i) {
        columns.column(i, heights);
        std::sort(heights.begin(), heights.end());
        int n = heights.empty() ? 0 : 1;
        for (std::size_t k = 1; k < heights.size(); ++k)
            n += heights[k] - heights[k - 1] > gap;
        layers[i] = n;
    }
    return layers;
}

Stratification stratification(const EpidermisParams& p, const HostState& s, const CellCentres& c) {
    Stratification out;
    const std::vector<int> columns = columnLayers(p, c);
    if (!columns.empty()) {
        const int most = *std::max_element(columns.begin(), columns.end());
        const double needed =
            std::max(1.0, kLayerColumnShare * static_cast<double>(columns.size()));
        for (int k = 1; k <= most; ++k)
            if (static_cast<double>(std::count_if(columns.begin(), columns.end(),
                                                  [k](int n) { return n >= k; })) >= needed)
                out.layers = k;
        double sum = 0.0;
        for (int n : columns)
            sum += n;
        out.meanColumnLayers = sum / static_cast<double>(columns.size());
    }
    for (std::int32_t cell = 0; cell < s.cells; ++cell) {
        bool adheres = false;
        float lowest = 0.0f;
        const std::int32_t n = s.count[static_cast<std::size_t>(cell)];
        for (std::int32_t e = 0; e < n; ++e) {
            const std::size_t i = s.slot(cell, e);
            adheres = adheres || s.type[i] == 1;
            lowest = e == 0 ? s.z[i] : std::min(lowest, s.z[i]);
        }
        ++(adheres ? out.adherent : out.detached);
        if (adheres) out.adherentMeanHeight += c.z[static_cast<std::size_t>(cell)];
        out.offMembrane += n > 0 && lowest > p.contactHeight;
    }
    if (out.adherent > 0) out.adherentMeanHeight /= out.adherent;
    return out;
}

}  // namespace cf::epidermis
