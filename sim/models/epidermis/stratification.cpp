// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/epidermis/stratification.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "sim/models/epidermis/epidermis_physics.hpp"

namespace cf::epidermis {

namespace {

// Cells binned on a horizontal grid of edge >= column_radius, so a column's members lie in
// the 3 x 3 bins around its cell (wrapped on periodic axes).
class ColumnBins {
public:
    ColumnBins(const EpidermisParams& p, const CellCentres& c) : p_(p), c_(c) {
        const float r = p.columnRadius;
        if (p.periodic) {
            nx_ = std::max(1, static_cast<int>(std::floor(p.sizeX / r)));
            ny_ = std::max(1, static_cast<int>(std::floor(p.sizeY / r)));
        }
        for (std::size_t i = 0; i < c.x.size(); ++i)
            bins_[key(binX(c.x[i]), binY(c.y[i]))].push_back(static_cast<std::int32_t>(i));
    }

    // Heights of the cells within column_radius of cell `cell`, itself included.
    void column(std::size_t cell, std::vector<float>& heights) const {
        heights.clear();
        const float r2 = p_.columnRadius * p_.columnRadius;
        const int bx = binX(c_.x[cell]), by = binY(c_.y[cell]);
        // On a periodic axis of fewer than 3 bins the neighbouring bins repeat: visit once.
        const int spanX = p_.periodic ? std::min(3, nx_) : 3;
        const int spanY = p_.periodic ? std::min(3, ny_) : 3;
        for (int dy = 0; dy < spanY; ++dy)
            for (int dx = 0; dx < spanX; ++dx) {
                const auto it = bins_.find(key(wrapX(bx + dx - 1), wrapY(by + dy - 1)));
                if (it == bins_.end()) continue;
                for (std::int32_t j : it->second) {
                    const auto k = static_cast<std::size_t>(j);
                    const float ddx = wrapDelta(c_.x[k] - c_.x[cell], p_.sizeX, p_.periodic);
                    const float ddy = wrapDelta(c_.y[k] - c_.y[cell], p_.sizeY, p_.periodic);
                    if (ddx * ddx + ddy * ddy <= r2) heights.push_back(c_.z[k]);
                }
            }
    }

private:
    int binX(float x) const { return wrapX(static_cast<int>(std::floor(x / p_.columnRadius))); }
    int binY(float y) const { return wrapY(static_cast<int>(std::floor(y / p_.columnRadius))); }
    int wrapX(int b) const { return p_.periodic ? ((b % nx_) + nx_) % nx_ : b; }
    int wrapY(int b) const { return p_.periodic ? ((b % ny_) + ny_) % ny_ : b; }
    static std::int64_t key(int bx, int by) {
        return (static_cast<std::int64_t>(bx) << 32) ^ static_cast<std::uint32_t>(by);
    }

    const EpidermisParams& p_;
    const CellCentres& c_;
    int nx_ = 1, ny_ = 1;
    std::unordered_map<std::int64_t, std::vector<std::int32_t>> bins_;
};

}  // namespace

std::vector<int> columnLayers(const EpidermisParams& p, const CellCentres& c) {
    const ColumnBins bins(p, c);
    std::vector<int> layers(c.x.size(), 0);
    std::vector<float> heights;
    const float gap = 0.5f * p.layerHeight;
    for (std::size_t i = 0; i < c.x.size(); ++i) {
        bins.column(i, heights);
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
        out.offMembrane += n > 0 && lowest > p.contactHeight;
    }
    return out;
}

}  // namespace cf::epidermis
