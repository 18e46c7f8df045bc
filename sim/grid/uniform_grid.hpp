// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Uniform grid for fixed-cutoff neighbor search (cell lists), shared by the CPU and CUDA
// builds. Cells have an edge >= cutoff, so every pair within the cutoff lies in the same
// or an adjacent cell and a query visits at most 27 cells.
//
// Points are sorted by (key, original index), key = Morton (Z-order) rank of their cell.
// The ranks are dense (0..ncells-1) so a radix sort needs only ceil(log2(ncells)) bits,
// and the order is fully determined by the positions, hence identical on both backends.
//
// Everything above the "host only" line is plain data and CF_HD functions: includable from
// .cu and .cpp files and usable inside kernels.
#include <cmath>
#include <cstdint>
#include <vector>

#include "sim/core/host_device.hpp"
#include "sim/core/no_fma.hpp"

namespace cf::grid {

// cellStart/cellEnd value of a cell that holds no point.
inline constexpr std::int32_t kEmptyCell = -1;

struct Vec3 {
    float x, y, z;
};

struct GridGeometry {
    float lo[3] = {0, 0, 0};         // lower corner of the box
    float length[3] = {1, 1, 1};     // hi - lo
    float invLength[3] = {1, 1, 1};  // for the minimum image
    float cellSize[3] = {1, 1, 1};   // length / dims, >= cutoff
    float invCellSize[3] = {1, 1, 1};
    float cutoff = 1;  // the largest cutoff a query may use
    int dims[3] = {1, 1, 1};
    bool periodic[3] = {false, false, false};

    CF_HD int cellCount() const { return dims[0] * dims[1] * dims[2]; }
};

// Positions in structure-of-arrays form, original order. Host or device pointers depending
// on which grid they are given to.
struct PointsView {
    const float* x = nullptr;
    const float* y = nullptr;
    const float* z = nullptr;
    int count = 0;
};

// Cell coordinate of `v` along `axis`. Open axes clamp points outside [lo, hi) into the
// edge cell (so stray points are still found by neighbors near the wall); periodic axes
// wrap, so positions need not be wrapped into the box first.
CF_HD int cellCoord(const GridGeometry& g, int axis, float v) {
    float f = floorf((v - g.lo[axis]) * g.invCellSize[axis]);
    // Bounded before the int conversion: NaN and huge values would be undefined behavior.
    if (!(f > -1.0e9f)) f = -1.0e9f;
    if (f > 1.0e9f) f = 1.0e9f;
    int c = static_cast<int>(f);
    const int n = g.dims[axis];
    if (g.periodic[axis]) {
        c %= n;
        if (c < 0) c += n;
    } else {
        c = c < 0 ? 0 : (c >= n ? n - 1 : c);
    }
    return c;
}

CF_HD int linearCell(const GridGeometry& g, int ix, int iy, int iz) {
    return (iz * g.dims[1] + iy) * g.dims[0] + ix;
}

CF_HD int cellOf(const GridGeometry& g, float x, float y, float z) {
    return linearCell(g, cellCoord(g, 0, x), cellCoord(g, 1, y), cellCoord(g, 2, z));
}

// Minimum-image component of a displacement `d` along `axis` (unchanged on open axes).
CF_HD float minimumImage(const GridGeometry& g, int axis, float d) {
    if (!g.periodic[axis]) return d;
    return d - mulNoFma(g.length[axis], rintf(mulNoFma(d, g.invLength[axis])));
}

// The device classifies a pair as "within cutoff" exactly as the host does, bit for bit
// (sim/core/no_fma.hpp).
CF_HD float squaredLength(Vec3 d) {
    return addNoFma(addNoFma(mulNoFma(d.x, d.x), mulNoFma(d.y, d.y)), mulNoFma(d.z, d.z));
}

// Displacement from `a` to `b` (b - a), minimum image on periodic axes.
CF_HD Vec3 displacement(const GridGeometry& g, Vec3 a, Vec3 b) {
    return {minimumImage(g, 0, b.x - a.x), minimumImage(g, 1, b.y - a.y),
            minimumImage(g, 2, b.z - a.z)};
}

// What a kernel (or host loop) needs to query a built grid. All arrays are indexed as
// noted; points and sortedIndex live on the same side (host or device) as the grid.
struct GridView {
    GridGeometry geometry;
    const std::int32_t* sortedIndex = nullptr;  // slot -> original point index
    const std::int32_t* cellStart = nullptr;    // linear cell -> first slot or kEmptyCell
    const std::int32_t* cellEnd = nullptr;      // linear cell -> one past last slot
    const std::int32_t* mortonRank = nullptr;   // linear cell -> sort key
    PointsView points;                          // original order
};

// Calls `callback(j, d, r2)` for every point j (original index) with |d|^2 = r2 <= cutoff^2,
// d = x_j - position (minimum image). A point at `position` itself is included; callers
// querying around point i skip j == i. `cutoff` must not exceed the geometry's cutoff.
// Periodic axes have >= 3 cells, so the offsets -1, 0, +1 wrap to distinct cells and no cell
// (hence no pair) is visited twice.
template <typename Callback>
CF_HD void forEachNeighbor(const GridView& view, Vec3 position, float cutoff, Callback&& callback) {
    const GridGeometry& g = view.geometry;
    const float cutoff2 = mulNoFma(cutoff, cutoff);
    const float p[3] = {position.x, position.y, position.z};
    int first[3], last[3];
    for (int a = 0; a < 3; ++a) {
        const int c = cellCoord(g, a, p[a]);
        if (g.periodic[a]) {
            first[a] = c - 1;
            last[a] = c + 1;
        } else {
            first[a] = c > 0 ? c - 1 : 0;
            last[a] = c + 1 < g.dims[a] ? c + 1 : g.dims[a] - 1;
        }
    }
    for (int kz = first[2]; kz <= last[2]; ++kz) {
        const int iz = kz < 0 ? kz + g.dims[2] : (kz >= g.dims[2] ? kz - g.dims[2] : kz);
        for (int ky = first[1]; ky <= last[1]; ++ky) {
            const int iy = ky < 0 ? ky + g.dims[1] : (ky >= g.dims[1] ? ky - g.dims[1] : ky);
            for (int kx = first[0]; kx <= last[0]; ++kx) {
                const int ix = kx < 0 ? kx + g.dims[0] : (kx >= g.dims[0] ? kx - g.dims[0] : kx);
                const int cell = linearCell(g, ix, iy, iz);
                const std::int32_t start = view.cellStart[cell];
                if (start == kEmptyCell) continue;
                const std::int32_t end = view.cellEnd[cell];
                for (std::int32_t s = start; s < end; ++s) {
                    const std::int32_t j = view.sortedIndex[s];
                    const Vec3 d = displacement(
                        g, position, Vec3{view.points.x[j], view.points.y[j], view.points.z[j]});
                    const float r2 = squaredLength(d);
                    if (r2 <= cutoff2) callback(j, d, r2);
                }
            }
        }
    }
}

// ---- host only ---------------------------------------------------------------------------

// Geometry for the box [lo, hi) with cells of edge >= cutoff. Throws cf::Error when the box
// or cutoff is not positive and finite, when a periodic axis holds fewer than 3 cells (the
// 27-cell search would then see a cell twice), or when the grid would exceed 2^28 cells.
GridGeometry makeGridGeometry(const float lo[3], const float hi[3], float cutoff,
                              const bool periodic[3]);

// rank[linearCell] = position of the cell in the Morton order of its (ix, iy, iz).
std::vector<std::int32_t> mortonRankTable(const GridGeometry& g);
// The inverse: cell[rank].
std::vector<std::int32_t> cellsByMortonRank(const std::vector<std::int32_t>& rank);

// Number of key bits a radix sort over ranks 0..cellCount-1 needs (at least 1).
int mortonKeyBits(const GridGeometry& g);

bool sameGeometry(const GridGeometry& a, const GridGeometry& b);

}  // namespace cf::grid
