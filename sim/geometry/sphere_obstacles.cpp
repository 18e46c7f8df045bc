// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/geometry/sphere_obstacles.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <utility>

#include "sim/core/errors.hpp"
#include "sim/core/rng.hpp"

namespace cf::geometry {
namespace {

// Consecutive failed draws after which a class counts as jammed. Below jamming the
// acceptance of random sequential addition stays above ~1e-3 (hard spheres at 30 %), so a
// false alarm has probability below (1 - 1e-3)^1e5 = e^-100.
constexpr int kMaxConsecutiveFailures = 100000;

// A centre this close (in sites) to a site centre is taken as exactly there, so that
// spheres given on site centres (float rounding aside) cover symmetric patterns: a radius of
// exactly 2 sites keeps all six sites at distance 2.
constexpr double kSnap = 1e-3;

std::string percent(double fraction) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f %%", 100.0 * fraction);
    return text;
}

std::string describe(const SphereClass& c) {
    char radius[32];
    std::snprintf(radius, sizeof radius, "%g", static_cast<double>(c.radius));
    return "sphere class '" + c.label + "' (radius " + radius + ")";
}

// Validates a sphere against the frame: a radius > 0, and no wider than the lattice along a
// periodic axis.
void checkRadius(const LatticeFrame& frame, float radius, std::array<bool, 3> periodic,
                 const std::string& what) {
    if (!(radius > 0.0f) || !std::isfinite(radius))
        throw GeometryError(what + ": radius must be positive and finite");
    for (int k = 0; k < 3; ++k)
        if (periodic[k] && 2.0 * radius >= double(frame.n[k]) * frame.spacing)
            throw GeometryError(what + ": diameter " + std::to_string(2.0 * radius) +
                                " does not fit the periodic lattice length " +
                                std::to_string(double(frame.n[k]) * frame.spacing) + " on axis " +
                                std::to_string(k) + " (the sphere would overlap its own image)");
}

// Site coordinate of the sphere's centre along each axis (site centres are integers),
// snapped to a site centre when within kSnap of one.
std::array<double, 3> siteCoordinates(const LatticeFrame& frame, const Sphere& s) {
    std::array<double, 3> c{};
    for (int k = 0; k < 3; ++k) {
        c[k] = (double(s.centre[k]) - frame.origin[k]) / frame.spacing - 0.5;
        if (std::abs(c[k] - std::round(c[k])) < kSnap) c[k] = std::round(c[k]);
    }
    return c;
}

// Wraps (periodic) or rejects (closed: returns false) a site coordinate.
bool wrap(int& i, int n, bool periodic) {
    if (i >= 0 && i < n) return true;
    if (!periodic) return false;
    i = ((i % n) + n) % n;
    return true;
}

// Calls f(index) for every lattice site within the sphere, or f(npos) for one beyond a
// closed face (at least one such call when the sphere reaches past a face: the ball is
// convex). The rule of the header: centre distance <= radius, in sites^2. On periodic axes
// the centre is first wrapped into the lattice; on closed ones the range stops one site
// past each face, so far-away spheres cost nothing.
template <class F>
void forEachSite(const LatticeFrame& frame, const Sphere& s, std::array<bool, 3> periodic, F&& f) {
    std::array<double, 3> c = siteCoordinates(frame, s);
    const double rr = double(s.radius) / frame.spacing;
    int lo[3], hi[3];
    for (int k = 0; k < 3; ++k) {
        const double n = frame.n[k];
        double first = std::ceil(c[k] - rr), last = std::floor(c[k] + rr);
        if (periodic[k]) {  // the whole ball; 2r < n visits every site once
            const double shift = n * std::floor((c[k] + 0.5) / n);  // centre into [-0.5, n - 0.5)
            c[k] -= shift;
            first -= shift;
            last -= shift;
        } else {
            first = std::clamp(first, -1.0, n);
            last = std::clamp(last, -1.0, n);
        }
        lo[k] = static_cast<int>(first);
        hi[k] = static_cast<int>(last);
    }
    for (int z = lo[2]; z <= hi[2]; ++z)
        for (int y = lo[1]; y <= hi[1]; ++y)
            for (int x = lo[0]; x <= hi[0]; ++x) {
                const double dx = x - c[0], dy = y - c[1], dz = z - c[2];
                if (dx * dx + dy * dy + dz * dz > rr * rr) continue;
                int i[3] = {x, y, z};
                bool in = true;
                for (int k = 0; k < 3; ++k)
                    in = wrap(i[k], frame.n[k], periodic[k]) && in;
                f(in ? frame.index(i[0], i[1], i[2]) : std::size_t(-1));
            }
}

// Placed spheres of one radius binned by centre into cells at least one diameter (and two
// sites) wide; a candidate looks at the cells its reach (its radius plus theirs) touches.
// One grid per class, so that thousands of small crowders are not searched through cells
// sized for ribosomes (a 256^2 x 512 in-vivo lattice at 4 nm places about 2 million spheres).
// Which spheres overlap does not depend on the binning: the answers, and the placement, are
// those of a plain search. Linked lists in two arrays: 4 bytes per cell, 4 per sphere.
class SphereGrid {
public:
    SphereGrid(const LatticeFrame& frame, double radius, std::array<bool, 3> periodic)
        : frame_(frame), periodic_(periodic), radius_(radius) {
        const double width = std::max(2.0 * radius, 2.0 * double(frame.spacing));
        for (int k = 0; k < 3; ++k) {
            length_[k] = double(frame.n[k]) * frame.spacing;
            cells_[k] = std::max(1, static_cast<int>(std::floor(length_[k] / width)));
            cellSize_[k] = length_[k] / cells_[k];
        }
        head_.assign(static_cast<std::size_t>(cells_[0]) * cells_[1] * cells_[2], kNone);
    }

    bool overlaps(const Sphere& s, const std::vector<Sphere>& placed) const {
        if (empty_) return false;
        const double reach = double(s.radius) + radius_;
        std::vector<int>* visit = visit_;
        for (int k = 0; k < 3; ++k) {
            visit[k].clear();
            const double t = (double(s.centre[k]) - frame_.origin[k]) / cellSize_[k];
            const int lo = static_cast<int>(std::floor(t - reach / cellSize_[k]));
            const int hi = static_cast<int>(std::floor(t + reach / cellSize_[k]));
            if (hi - lo + 1 >= cells_[k]) {  // every cell, each once
                for (int i = 0; i < cells_[k]; ++i)
                    visit[k].push_back(i);
                continue;
            }
            for (int i = lo; i <= hi; ++i) {
                int w = i;
                if (wrap(w, cells_[k], periodic_[k])) visit[k].push_back(w);
            }
        }
        for (int a : visit[2])
            for (int b : visit[1])
                for (int c : visit[0])
                    for (std::uint32_t id = head_[binIndex({c, b, a})]; id != kNone; id = next_[id])
                        if (apart(s, placed[id]) < double(s.radius) + placed[id].radius)
                            return true;
        return false;
    }

    // Sphere `id` (an index into the placed list).
    void add(const Sphere& s, std::uint32_t id) {
        std::uint32_t& head = head_[binIndex(cellOf(s))];
        next_.resize(std::max<std::size_t>(next_.size(), id + 1u), kNone);
        next_[id] = head;
        head = id;
        empty_ = false;
    }

    // Centre distance, nearest image on periodic axes.
    double apart(const Sphere& a, const Sphere& b) const {
        double d2 = 0.0;
        for (int k = 0; k < 3; ++k) {
            double d = double(a.centre[k]) - b.centre[k];
            if (periodic_[k]) d -= length_[k] * std::round(d / length_[k]);
            d2 += d * d;
        }
        return std::sqrt(d2);
    }

private:
    static constexpr std::uint32_t kNone = 0xffffffffu;

    std::array<int, 3> cellOf(const Sphere& s) const {
        std::array<int, 3> cell{};
        for (int k = 0; k < 3; ++k) {
            const double t = (double(s.centre[k]) - frame_.origin[k]) / cellSize_[k];
            cell[k] = static_cast<int>(std::clamp(std::floor(t), 0.0, double(cells_[k] - 1)));
        }
        return cell;
    }
    std::size_t binIndex(std::array<int, 3> c) const {
        return static_cast<std::size_t>(c[0]) +
               static_cast<std::size_t>(cells_[0]) *
                   (c[1] + static_cast<std::size_t>(cells_[1]) * c[2]);
    }

    const LatticeFrame& frame_;
    std::array<bool, 3> periodic_;
    double radius_;
    bool empty_ = true;
    std::array<double, 3> length_{}, cellSize_{};
    std::array<int, 3> cells_{};
    std::vector<std::uint32_t> head_, next_;
    mutable std::vector<int> visit_[3];  // scratch of overlaps(): the cells per axis
};

}  // namespace

std::vector<Sphere> placeSphereObstacles(const LatticeFrame& frame,
                                         const std::vector<SphereClass>& classes,
                                         const std::vector<std::uint8_t>& types,
                                         std::uint8_t hostType, std::array<bool, 3> periodic,
                                         std::uint32_t seed) {
    validateFrame(frame, "placeSphereObstacles");
    if (types.size() != frame.siteCount())
        throw GeometryError("placeSphereObstacles: " + std::to_string(types.size()) +
                            " site types for a lattice of " + std::to_string(frame.siteCount()) +
                            " sites");
    if (frame.siteCount() > std::numeric_limits<std::uint32_t>::max())
        throw GeometryError("placeSphereObstacles: more than 2^32 sites");
    double total = 0.0;
    for (const SphereClass& c : classes) {
        checkRadius(frame, c.radius, periodic, describe(c));
        if (!(c.volumeFraction >= 0.0f && c.volumeFraction <= 1.0f))
            throw GeometryError(describe(c) + ": volume fraction " +
                                std::to_string(c.volumeFraction) + " is not in [0, 1]");
        total += c.volumeFraction;
    }
    if (total > 1.0 + 1e-6)
        throw GeometryError("placeSphereObstacles: the volume fractions sum to " + percent(total) +
                            ", more than the host volume");
    std::vector<Sphere> placed;
    if (total == 0.0) return placed;

    std::vector<std::uint32_t> hostSites;
    for (std::size_t i = 0; i < types.size(); ++i)
        if (types[i] == hostType) hostSites.push_back(static_cast<std::uint32_t>(i));
    if (hostSites.empty())
        throw GeometryError("placeSphereObstacles: no sites of host type " +
                            std::to_string(hostType) + " to place spheres in");
    const double hostCount = double(hostSites.size());

    std::vector<std::size_t> order(classes.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return classes[a].radius > classes[b].radius;
    });

    std::vector<std::uint8_t> covered(types.size(), 0);
    std::vector<std::size_t> sites;  // of the current candidate
    std::vector<SphereGrid> grids;   // one per class, in `order`
    const rng::Philox gen(seed, kSphereObstacleStream);
    const double pi = 3.14159265358979323846;
    for (std::size_t c : order) {
        const SphereClass& cls = classes[c];
        const double target = double(cls.volumeFraction) * hostCount;
        // Sites one sphere covers on average (its volume in sites^3): stop at the count
        // that comes nearest the target.
        const double rr = double(cls.radius) / frame.spacing;
        const double nominal = 4.0 / 3.0 * pi * rr * rr * rr;
        double reached = 0.0;
        int failures = 0;
        SphereGrid current(frame, double(cls.radius), periodic);
        for (std::uint64_t attempt = 0; reached + 0.5 * nominal < target; ++attempt) {
            if (failures >= kMaxConsecutiveFailures)
                throw GeometryError(describe(cls) + ": random sequential addition jammed at " +
                                    percent(reached / hostCount) + " of the host sites, target " +
                                    percent(cls.volumeFraction) +
                                    " (random sequential addition of one size jams near 38 %; "
                                    "lower the fraction or mix sizes)");
            ++failures;
            // A host site, then a uniform point in its cube.
            const rng::Word4 w = gen(attempt, static_cast<std::uint32_t>(c), 0);
            const rng::Word4 v = gen(attempt, static_cast<std::uint32_t>(c), 1);
            const std::size_t site = hostSites[(std::uint64_t(w.x) << 32 | w.y) % hostSites.size()];
            const std::size_t plane = std::size_t(frame.n[0]) * frame.n[1];
            const std::size_t at[3] = {site % frame.n[0], site / frame.n[0] % frame.n[1],
                                       site / plane};
            const std::uint32_t u[3] = {w.z, w.w, v.x};
            Sphere s;
            for (int k = 0; k < 3; ++k)
                s.centre[k] = static_cast<float>(frame.origin[k] +
                                                 (double(at[k]) + 1.0 - rng::uniformFloat(u[k])) *
                                                     frame.spacing);
            s.radius = cls.radius;
            // Both conditions must hold; the sites are checked first, as they are cheaper and
            // reject most candidates of spheres smaller than a site.
            sites.clear();
            bool fits = true;
            forEachSite(frame, s, periodic, [&](std::size_t i) {
                fits = fits && i != std::size_t(-1) && types[i] == hostType && !covered[i];
                sites.push_back(i);
            });
            if (!fits || sites.empty()) continue;  // a sphere between site centres marks nothing
            bool hit = current.overlaps(s, placed);
            for (const SphereGrid& g : grids)
                hit = hit || g.overlaps(s, placed);
            if (hit) continue;
            for (std::size_t i : sites)
                covered[i] = 1;
            reached += double(sites.size());
            current.add(s, static_cast<std::uint32_t>(placed.size()));
            placed.push_back(s);
            failures = 0;
        }
        grids.push_back(std::move(current));
    }
    return placed;
}

void rasterizeSpheres(const LatticeFrame& frame, const std::vector<Sphere>& spheres,
                      std::array<bool, 3> periodic, std::vector<std::uint8_t>& types,
                      std::uint8_t obstacleType) {
    validateFrame(frame, "rasterizeSpheres");
    if (types.size() != frame.siteCount())
        throw GeometryError("rasterizeSpheres: " + std::to_string(types.size()) +
                            " site types for a lattice of " + std::to_string(frame.siteCount()) +
                            " sites");
    for (std::size_t n = 0; n < spheres.size(); ++n) {
        const std::string what = "rasterizeSpheres: sphere " + std::to_string(n);
        checkRadius(frame, spheres[n].radius, periodic, what);
        for (float c : spheres[n].centre)
            if (!std::isfinite(c)) throw GeometryError(what + ": centre is not finite");
        forEachSite(frame, spheres[n], periodic, [&](std::size_t i) {
            if (i != std::size_t(-1)) types[i] = obstacleType;
        });
    }
}

std::vector<SphereClass> invivoCrowdingClasses() {
    // Radii (nm) and each class's share of the obstructed volume, as Lattice Microbes (the
    // Luthey-Schulten lab's code, the lab of Roberts et al. 2009) builds its E. coli cell
    // with `builder.fillWithRandomSpheres(inVivoVolumeFraction * share, radius, ...)` in its
    // cell-builder scripts (the source is named in docs/LATTICE.md, UNCONFIRMED choices).
    // The twelve shares sum to 1, so the 30 % obstructed volume of Roberts et al. is
    // 0.30 x share. The table of Ridgway et al. 2008 itself could not be read here; that
    // these are its classes is inferred: the 10.4 nm class at 10.7 % is Ridgway's separate
    // ribosome class (18,000 ribosomes per cell, and 18,000 x 4/3 pi 10.4^3 nm^3 is 10.7 %
    // of 0.79 um^3, an E. coli volume), and Roberts et al. call ~10 nm a ribosome's radius.
    struct Row {
        double radius, share;
    };
    static constexpr Row rows[] = {
        {10.4, 0.357510138}, {5.2, 0.371384803}, {4.3, 0.013434414}, {4.1, 0.006199286},
        {4.0, 0.034785156},  {3.8, 0.025040418}, {3.5, 0.018438140}, {3.4, 0.050035776},
        {3.0, 0.039932564},  {2.7, 0.040452644}, {2.3, 0.035473775}, {1.7, 0.007312886},
    };
    constexpr double kObstructed = 0.30;
    std::vector<SphereClass> out;
    for (const Row& r : rows) {
        char label[48];
        std::snprintf(label, sizeof label,
                      r.radius > 10.0 ? "ribosomes %.1f nm" : "crowders %.1f nm", r.radius);
        out.push_back(
            {static_cast<float>(r.radius), static_cast<float>(kObstructed * r.share), label});
    }
    return out;
}

}  // namespace cf::geometry
