// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/geometry/voxelize.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "sim/core/errors.hpp"

namespace cf::geometry {

namespace {

using Position = std::array<float, 3>;

struct Crossing {
    std::size_t row;  // y + z * ny
    double x;
    bool operator<(const Crossing& o) const { return row != o.row ? row < o.row : x < o.x; }
};

struct Side {
    int sign;  // +1 or -1: which side of the directed edge the perturbed ray lies on
    double e;  // the unperturbed edge function, for the crossing's barycentric weights
};

// Side of the ray point p = (u, v) = (y, z), moved symbolically to (u + e, v + e^2), of
// the directed projected edge a -> b. The edge function is evaluated with the endpoints in
// lexicographic order and negated for the other direction, so both triangles of a shared
// edge see bit-identical values of opposite sign. Needs a != b in projection.
Side side(const Position& a, const Position& b, double pu, double pv) {
    const bool forward = a[1] < b[1] || (a[1] == b[1] && a[2] < b[2]);
    const Position& lo = forward ? a : b;
    const Position& hi = forward ? b : a;
    const double du = double(hi[1]) - lo[1], dv = double(hi[2]) - lo[2];  // exact
    const double e = du * (pv - lo[2]) - dv * (pu - lo[1]);
    // d e / d u = -dv, d e / d v = du: the first nonzero of (e, -dv, du) is the sign at
    // the perturbed point.
    const int s =
        e != 0.0 ? (e > 0.0 ? 1 : -1) : (dv != 0.0 ? (dv < 0.0 ? 1 : -1) : (du > 0.0 ? 1 : -1));
    return forward ? Side{s, e} : Side{-s, -e};
}

// Rows (along one axis) whose centres may lie in [lo, hi], with a row of slack each side
// (the exact test decides), clamped to the lattice in double before any cast.
std::pair<int, int> rowRange(double lo, double hi, double origin, double spacing, int n) {
    const double first = std::floor((lo - origin) / spacing - 0.5) - 1.0;
    const double last = std::floor((hi - origin) / spacing - 0.5) + 2.0;
    return {static_cast<int>(std::clamp(first, 0.0, double(n))),
            static_cast<int>(std::clamp(last, -1.0, double(n - 1)))};
}

std::vector<std::uint8_t> insideSites(const TriangleMesh& mesh, const LatticeFrame& frame) {
    const int nx = frame.n[0], ny = frame.n[1], nz = frame.n[2];
    const double s = frame.spacing;
    std::vector<Crossing> crossings;
    for (const auto& t : mesh.triangles) {
        const Position& a = mesh.vertices.at(t[0]);
        const Position& b = mesh.vertices.at(t[1]);
        const Position& c = mesh.vertices.at(t[2]);
        const double area2 = (double(b[1]) - a[1]) * (double(c[2]) - a[2]) -
                             (double(b[2]) - a[2]) * (double(c[1]) - a[1]);
        if (area2 == 0.0) continue;  // seen edge-on along x: no ray crosses it
        const double ulo = std::min({a[1], b[1], c[1]}), uhi = std::max({a[1], b[1], c[1]});
        const double vlo = std::min({a[2], b[2], c[2]}), vhi = std::max({a[2], b[2], c[2]});
        const auto [j0, j1] = rowRange(ulo, uhi, frame.origin[1], s, ny);
        const auto [k0, k1] = rowRange(vlo, vhi, frame.origin[2], s, nz);
        for (int k = k0; k <= k1; ++k)
            for (int j = j0; j <= j1; ++j) {
                const double pu = frame.centre(1, j), pv = frame.centre(2, k);
                const Side ab = side(a, b, pu, pv), bc = side(b, c, pu, pv),
                           ca = side(c, a, pu, pv);
                if (ab.sign != bc.sign || bc.sign != ca.sign) continue;
                // Barycentric weights from the edge functions (all of one sign or zero), so
                // x is a convex combination of the corners' x.
                const double sum = ab.e + bc.e + ca.e;
                const double x =
                    sum != 0.0 ? (bc.e * a[0] + ca.e * b[0] + ab.e * c[0]) / sum : double(a[0]);
                crossings.push_back({static_cast<std::size_t>(j) +
                                         static_cast<std::size_t>(k) * static_cast<std::size_t>(ny),
                                     x});
            }
    }
    std::sort(crossings.begin(), crossings.end());
    std::vector<std::uint8_t> inside(frame.siteCount(), 0);
    for (std::size_t i = 0; i < crossings.size();) {
        std::size_t end = i;
        while (end < crossings.size() && crossings[end].row == crossings[i].row)
            ++end;
        const std::size_t row = crossings[i].row;
        const int y = static_cast<int>(row % static_cast<std::size_t>(ny));
        const int z = static_cast<int>(row / static_cast<std::size_t>(ny));
        std::size_t passed = i;  // crossings at or before the site centre
        for (int x = 0; x < nx; ++x) {
            const double cx = frame.centre(0, x);
            while (passed < end && crossings[passed].x <= cx)
                ++passed;
            if ((passed - i) % 2 == 1) inside[frame.index(x, y, z)] = 1;
        }
        i = end;
    }
    return inside;
}

// Exact squared Euclidean distance transform of one line (Felzenszwalb & Huttenlocher
// 2012: the lower envelope of the parabolas q -> f(w) + (q - w)^2), in place on
// data[0], data[stride], ...; the scratch vectors are reused between lines.
struct LineTransform {
    std::vector<double> f, z;
    std::vector<int> v;

    void run(std::uint16_t* data, int n, std::size_t stride, std::uint16_t cap) {
        f.resize(n);
        v.resize(n);
        z.resize(n + 1);
        for (int q = 0; q < n; ++q)
            f[q] = data[q * stride];
        const auto height = [&](int q) { return f[q] + double(q) * q; };
        int k = 0;  // rightmost parabola of the envelope so far
        v[0] = 0;
        z[0] = -std::numeric_limits<double>::infinity();
        z[1] = std::numeric_limits<double>::infinity();
        for (int q = 1; q < n; ++q) {
            // Where parabola q overtakes parabola w; z[0] = -inf stops the loop at k = 0.
            const auto cut = [&](int w) { return (height(q) - height(w)) / (2.0 * (q - w)); };
            while (cut(v[k]) <= z[k])
                --k;
            ++k;
            v[k] = q;
            z[k] = cut(v[k - 1]);
            z[k + 1] = std::numeric_limits<double>::infinity();
        }
        k = 0;
        for (int q = 0; q < n; ++q) {
            while (z[k + 1] < q)
                ++k;
            const double d = double(q - v[k]) * (q - v[k]) + f[v[k]];
            data[q * stride] = static_cast<std::uint16_t>(std::min<double>(d, cap));
        }
    }
};

// Squared distance in sites^2 from every site to the nearest outside site, capped at
// `cap`. Capping each pass's input and output is exact below the cap: a capped value c
// only ever yields c + (q - w)^2 >= c.
std::vector<std::uint16_t> squaredDistanceToOutside(const std::vector<std::uint8_t>& inside,
                                                    const LatticeFrame& frame, std::uint16_t cap) {
    const auto nx = static_cast<std::size_t>(frame.n[0]), ny = static_cast<std::size_t>(frame.n[1]),
               nz = static_cast<std::size_t>(frame.n[2]);
    std::vector<std::uint16_t> d(inside.size());
    for (std::size_t i = 0; i < inside.size(); ++i)
        d[i] = inside[i] ? cap : 0;
    LineTransform line;
    for (std::size_t z = 0; z < nz; ++z)
        for (std::size_t y = 0; y < ny; ++y)
            line.run(&d[nx * (y + ny * z)], frame.n[0], 1, cap);
    for (std::size_t z = 0; z < nz; ++z)
        for (std::size_t x = 0; x < nx; ++x)
            line.run(&d[x + nx * ny * z], frame.n[1], nx, cap);
    for (std::size_t y = 0; y < ny; ++y)
        for (std::size_t x = 0; x < nx; ++x)
            line.run(&d[x + nx * y], frame.n[2], nx * ny, cap);
    return d;
}

}  // namespace

std::vector<std::uint8_t> voxelizeRegions(const TriangleMesh& mesh, const LatticeFrame& frame,
                                          float membraneThickness, RegionTypes types) {
    validateFrame(frame, "voxelizeRegions");
    if (!(membraneThickness >= 0.0f) || !std::isfinite(membraneThickness))
        throw GeometryError("voxelizeRegions: membrane thickness must be >= 0 and finite, got " +
                            std::to_string(membraneThickness));
    const double layers = double(membraneThickness) / frame.spacing;
    if (layers > 255.0)
        throw GeometryError("voxelizeRegions: membrane thickness " +
                            std::to_string(membraneThickness) + " is more than 255 sites of " +
                            std::to_string(frame.spacing));
    for (const auto& v : mesh.vertices)
        for (float c : v)
            if (!std::isfinite(c))
                throw GeometryError("voxelizeRegions: the mesh has a vertex that is not finite");
    const MeshCheck check = checkClosed(mesh);
    if (!check.closed())
        throw GeometryError(
            "voxelizeRegions: mesh is not closed: " + std::to_string(check.boundaryEdges) +
            " boundary edges, " + std::to_string(check.nonManifoldEdges) +
            " non-manifold edges (voxelization needs a watertight surface)");

    std::vector<std::uint8_t> sites = insideSites(mesh, frame);  // 1 inside, 0 outside
    // Squared thickness in sites^2, at least one layer; slack for t = k * spacing rounding.
    const auto within = std::max<std::uint16_t>(
        1, static_cast<std::uint16_t>(std::floor(layers * layers * (1.0 + 1e-6))));
    const std::vector<std::uint16_t> d2 =
        squaredDistanceToOutside(sites, frame, static_cast<std::uint16_t>(within + 1));
    for (std::size_t i = 0; i < sites.size(); ++i)
        sites[i] = !sites[i] ? types.outside : (d2[i] <= within ? types.membrane : types.inside);
    return sites;
}

}  // namespace cf::geometry
