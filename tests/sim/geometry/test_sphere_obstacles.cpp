// SPDX-License-Identifier: GPL-3.0-or-later
// Sphere obstacles: random sequential addition at a volume fraction measured on the lattice,
// no overlaps, reproducible, periodic wrap, jamming, the in-vivo crowding classes.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "sim/core/errors.hpp"
#include "sim/geometry/sphere_obstacles.hpp"

namespace cf::geometry::test {
namespace {

constexpr std::uint8_t kHost = 1, kObstacle = 3, kOther = 0;
constexpr std::array<bool, 3> kPeriodic{true, true, true}, kClosed{false, false, false};

// Lattice points within radius r of a site centre (r in sites): a sphere of radius r on a
// site centre covers this many sites.
std::size_t pattern(double r) {
    std::size_t n = 0;
    const int m = static_cast<int>(r);
    for (int z = -m; z <= m; ++z)
        for (int y = -m; y <= m; ++y)
            for (int x = -m; x <= m; ++x)
                n += x * x + y * y + z * z <= r * r;
    return n;
}

// Most sites a sphere of radius r (in sites) can cover anywhere: every covered centre lies
// in the ball, its cube in the ball grown by half a cube diagonal.
double mostSites(double r) {
    const double grown = r + std::sqrt(3.0) / 2.0;
    return 4.0 / 3.0 * 3.14159265358979323846 * grown * grown * grown;
}

double apart(const Sphere& a, const Sphere& b, const LatticeFrame& f, std::array<bool, 3> p) {
    double d2 = 0.0;
    for (int k = 0; k < 3; ++k) {
        double d = double(a.centre[k]) - b.centre[k];
        const double length = double(f.n[k]) * f.spacing;
        if (p[k]) d -= length * std::round(d / length);
        d2 += d * d;
    }
    return std::sqrt(d2);
}

// Sites of one sphere, counted here independently: the site centres (nearest image on
// periodic axes, inside the lattice on closed ones) within the radius, searched in a
// window one site wider than the sphere.
std::size_t sitesOf(const Sphere& s, const LatticeFrame& f, std::array<bool, 3> p) {
    int lo[3], hi[3];
    for (int k = 0; k < 3; ++k) {
        const double c = (double(s.centre[k]) - f.origin[k]) / f.spacing;
        lo[k] = static_cast<int>(std::floor(c - s.radius / f.spacing)) - 1;
        hi[k] = static_cast<int>(std::ceil(c + s.radius / f.spacing)) + 1;
    }
    std::size_t n = 0;
    for (int z = lo[2]; z <= hi[2]; ++z)
        for (int y = lo[1]; y <= hi[1]; ++y)
            for (int x = lo[0]; x <= hi[0]; ++x) {
                int i[3] = {x, y, z};
                bool in = true;
                for (int k = 0; k < 3; ++k) {
                    if (p[k]) i[k] = ((i[k] % f.n[k]) + f.n[k]) % f.n[k];
                    in = in && i[k] >= 0 && i[k] < f.n[k];
                }
                if (!in) continue;
                const Sphere site{
                    {float(f.centre(0, i[0])), float(f.centre(1, i[1])), float(f.centre(2, i[2]))},
                    0.0f};
                n += apart(s, site, f, p) <= s.radius;
            }
    return n;
}

void expectNoOverlaps(const std::vector<Sphere>& s, const LatticeFrame& f, std::array<bool, 3> p) {
    std::size_t overlaps = 0;
    for (std::size_t i = 0; i < s.size(); ++i)
        for (std::size_t j = i + 1; j < s.size(); ++j)
            overlaps += apart(s[i], s[j], f, p) < double(s[i].radius) + s[j].radius;
    EXPECT_EQ(overlaps, 0u);
}

std::size_t count(const std::vector<std::uint8_t>& t, std::uint8_t v) {
    return static_cast<std::size_t>(std::count(t.begin(), t.end(), v));
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

// One size at 10, 20 and 30 % of a periodic 32^3 lattice. A class stops at the count whose
// sites come nearest the target: it ends between target - V/2 and target - V/2 + S sites,
// V = the sphere's volume in sites (113 at radius 3), S = the most sites one sphere can
// cover (242, mostSites): within S / N = 0.74 % of the target here.
TEST(SphereObstacles, ReachTheirVolumeFractionWithoutOverlaps) {
    const LatticeFrame f{{32, 32, 32}, 2.0f, {0, 0, 0}};
    const float radius = 6.0f;  // 3 sites
    for (float target : {0.10f, 0.20f, 0.30f}) {
        std::vector<std::uint8_t> types(f.siteCount(), kHost);
        const auto start = std::chrono::steady_clock::now();
        const auto spheres =
            placeSphereObstacles(f, {{radius, target, "r6"}}, types, kHost, kPeriodic, 7);
        const double ms = millisecondsSince(start);
        rasterizeSpheres(f, spheres, kPeriodic, types, kObstacle);
        const double reached = double(count(types, kObstacle)) / double(f.siteCount());
        std::printf("target %.0f %%: %zu spheres, %.3f %% of the sites (%.0f ms)\n", 100.0 * target,
                    spheres.size(), 100.0 * reached, ms);
        EXPECT_NEAR(reached, target, mostSites(3.0) / double(f.siteCount()));
        // No site is covered twice: the spheres' own sites add up to the marked ones.
        std::size_t sum = 0;
        for (const Sphere& s : spheres) {
            const std::size_t n = sitesOf(s, f, kPeriodic);
            EXPECT_GE(n, 1u);
            EXPECT_LE(double(n), mostSites(3.0));
            sum += n;
        }
        EXPECT_EQ(count(types, kObstacle), sum);
        expectNoOverlaps(spheres, f, kPeriodic);
    }
}

TEST(SphereObstacles, TheSameSeedGivesTheSameSpheres) {
    const LatticeFrame f{{32, 32, 32}, 1.0f, {0, 0, 0}};
    const std::vector<std::uint8_t> types(f.siteCount(), kHost);
    const std::vector<SphereClass> classes{{2.5f, 0.1f, "small"}, {4.0f, 0.15f, "large"}};
    const auto a = placeSphereObstacles(f, classes, types, kHost, kPeriodic, 11);
    const auto b = placeSphereObstacles(f, classes, types, kHost, kPeriodic, 11);
    const auto c = placeSphereObstacles(f, classes, types, kHost, kPeriodic, 12);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].centre, b[i].centre);
        EXPECT_EQ(a[i].radius, b[i].radius);
    }
    bool differs = a.size() != c.size();
    for (std::size_t i = 0; i < std::min(a.size(), c.size()); ++i)
        differs = differs || a[i].centre != c[i].centre;
    EXPECT_TRUE(differs);
    // Largest class first.
    ASSERT_FALSE(a.empty());
    EXPECT_EQ(a.front().radius, 4.0f);
    EXPECT_EQ(a.back().radius, 2.5f);
    expectNoOverlaps(a, f, kPeriodic);
}

// A sphere centred on the lattice's low x face covers sites on both sides when x is
// periodic, and only its own side when it is not.
TEST(SphereObstacles, PeriodicAxesWrap) {
    const LatticeFrame f{{16, 16, 16}, 1.0f, {0, 0, 0}};
    const Sphere s{{0.5f, 8.5f, 8.5f}, 2.0f};  // on the centre of site (0, 8, 8)
    std::vector<std::uint8_t> wrapped(f.siteCount(), kHost), clipped(f.siteCount(), kHost);
    rasterizeSpheres(f, {s}, {true, false, false}, wrapped, kObstacle);
    rasterizeSpheres(f, {s}, kClosed, clipped, kObstacle);
    EXPECT_EQ(wrapped[f.index(0, 8, 8)], kObstacle);
    EXPECT_EQ(wrapped[f.index(15, 8, 8)], kObstacle);  // one site across the face
    EXPECT_EQ(wrapped[f.index(14, 8, 8)], kObstacle);  // two sites across
    EXPECT_EQ(wrapped[f.index(13, 8, 8)], kHost);
    EXPECT_EQ(count(wrapped, kObstacle), pattern(2.0));  // 33: nothing lost
    EXPECT_EQ(clipped[f.index(15, 8, 8)], kHost);
    // Far away: nothing on a closed lattice; on a periodic one the wrapped image.
    std::vector<std::uint8_t> far(f.siteCount(), kHost);
    rasterizeSpheres(f, {{{1e9f, 8.5f, 8.5f}, 2.0f}}, kClosed, far, kObstacle);
    EXPECT_EQ(count(far, kObstacle), 0u);
    rasterizeSpheres(f, {{{16.0f * 1000 + 0.5f, 8.5f, 8.5f}, 2.0f}}, kPeriodic, far, kObstacle);
    EXPECT_EQ(count(far, kObstacle), pattern(2.0));
    EXPECT_EQ(far[f.index(15, 8, 8)], kObstacle);
    EXPECT_EQ(count(clipped, kObstacle), pattern(2.0) - 9 - 1);  // the x < 0 cap: 9 + 1 sites

    // Placement: on a periodic lattice some spheres have sites across a face (they would
    // lose some on a closed lattice) and keep them all; on a closed one no sphere has a
    // site centre beyond a face within its radius (it would lose none).
    const std::vector<SphereClass> classes{{3.0f, 0.2f, "r3"}};
    for (const auto& periodic : {kPeriodic, kClosed}) {
        std::vector<std::uint8_t> types(f.siteCount(), kHost);
        const auto spheres = placeSphereObstacles(f, classes, types, kHost, periodic, 5);
        std::size_t wrapping = 0, sum = 0;
        for (const Sphere& p : spheres) {
            const std::size_t own = sitesOf(p, f, periodic);
            sum += own;
            wrapping += sitesOf(p, f, kClosed) < sitesOf(p, f, kPeriodic);
        }
        rasterizeSpheres(f, spheres, periodic, types, kObstacle);
        EXPECT_EQ(count(types, kObstacle), sum);
        expectNoOverlaps(spheres, f, periodic);
        std::printf("%s: %zu spheres, %zu with sites across a face\n",
                    periodic[0] ? "periodic" : "closed", spheres.size(), wrapping);
        if (periodic[0]) {
            EXPECT_GT(wrapping, 0u);
        } else {
            EXPECT_EQ(wrapping, 0u);
        }
    }
}

// Spheres go only where the host type is: a slab of host sites in a lattice of another type.
TEST(SphereObstacles, StayWithinTheHostSites) {
    const LatticeFrame f{{24, 24, 24}, 1.0f, {0, 0, 0}};
    std::vector<std::uint8_t> types(f.siteCount(), kOther);
    for (int z = 4; z < 20; ++z)
        for (int y = 0; y < 24; ++y)
            for (int x = 0; x < 24; ++x)
                types[f.index(x, y, z)] = kHost;
    const std::size_t host = count(types, kHost);
    const auto spheres = placeSphereObstacles(f, {{2.0f, 0.25f, "r2"}}, types, kHost, kPeriodic, 3);
    std::vector<std::uint8_t> marked = types;
    rasterizeSpheres(f, spheres, kPeriodic, marked, kObstacle);
    for (std::size_t i = 0; i < types.size(); ++i)
        if (marked[i] == kObstacle) {
            EXPECT_EQ(types[i], kHost) << "site " << i;
        }
    EXPECT_NEAR(double(count(marked, kObstacle)) / double(host), 0.25,
                mostSites(2.0) / double(host));
}

// Random sequential addition of one size jams near 38 % (Feder 1980; Cooper 1988: 38.4 %
// for spheres), and the sites a sphere covers are its volume on average: 60 % cannot be
// reached, and the message says which class got how far.
TEST(SphereObstacles, JammingTargetThrowsNamingTheClass) {
    const LatticeFrame f{{24, 24, 24}, 1.0f, {0, 0, 0}};
    const std::vector<std::uint8_t> types(f.siteCount(), kHost);
    const auto start = std::chrono::steady_clock::now();
    try {
        placeSphereObstacles(f, {{2.0f, 0.60f, "dense"}}, types, kHost, kPeriodic, 1);
        ADD_FAILURE() << "60 % of one size was reached";
    } catch (const GeometryError& e) {
        const std::string what = e.what();
        std::printf(
            "%s (%.0f ms)\n", what.c_str(),
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count());
        EXPECT_NE(what.find("sphere class 'dense' (radius 2)"), std::string::npos) << what;
        EXPECT_NE(what.find("jammed at "), std::string::npos) << what;
        EXPECT_NE(what.find("target 60.00 %"), std::string::npos) << what;
        // The fraction reached: at jamming, between 30 % and 50 %.
        const double reached = std::stod(what.substr(what.find("jammed at ") + 10));
        EXPECT_GT(reached, 30.0);
        EXPECT_LT(reached, 50.0);
    }
}

// Roberts et al. 2009: the in-vivo environment is 30 % obstructed volume.
TEST(SphereObstacles, InvivoClassesSumToThirtyPercent) {
    const auto classes = invivoCrowdingClasses();
    ASSERT_EQ(classes.size(), 12u);
    double total = 0.0;
    for (std::size_t i = 0; i < classes.size(); ++i) {
        total += classes[i].volumeFraction;
        if (i > 0) {
            EXPECT_LT(classes[i].radius, classes[i - 1].radius);  // largest first
        }
        EXPECT_FALSE(classes[i].label.empty());
    }
    EXPECT_NEAR(total, 0.30, 1e-6);                  // float rounding of twelve terms
    EXPECT_FLOAT_EQ(classes.front().radius, 10.4f);  // ribosomes
    EXPECT_NEAR(classes.front().volumeFraction, 0.30 * 0.357510138, 1e-7);
}

// All twelve classes together in a periodic 128 nm box at 2 nm: each reaches its fraction
// within half its pattern, 30 % in all.
TEST(SphereObstacles, InvivoCrowdingFillsAPeriodicBox) {
    const LatticeFrame f{{64, 64, 64}, 2.0f, {0, 0, 0}};
    std::vector<std::uint8_t> types(f.siteCount(), kHost);
    const auto classes = invivoCrowdingClasses();
    const auto start = std::chrono::steady_clock::now();
    const auto spheres = placeSphereObstacles(f, classes, types, kHost, kPeriodic, 2009);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    expectNoOverlaps(spheres, f, kPeriodic);
    double total = 0.0, bounds = 0.0;
    for (const SphereClass& c : classes) {
        std::size_t sites = 0;
        for (const Sphere& s : spheres)
            if (s.radius == c.radius) sites += sitesOf(s, f, kPeriodic);
        const double reached = double(sites) / double(f.siteCount());
        const double bound = mostSites(c.radius / f.spacing) / double(f.siteCount());
        total += reached;
        bounds += bound;
        EXPECT_NEAR(reached, c.volumeFraction, bound) << c.label;
    }
    rasterizeSpheres(f, spheres, kPeriodic, types, kObstacle);
    const double obstructed = double(count(types, kObstacle)) / double(f.siteCount());
    std::printf("in vivo: %zu spheres, %.3f %% obstructed (%.0f ms)\n", spheres.size(),
                100.0 * obstructed, ms);
    EXPECT_NEAR(obstructed, total, 1e-12);  // no site covered twice
    EXPECT_NEAR(obstructed, 0.30, bounds);
    std::printf("in vivo: sum of the per-class bounds %.3f %%\n", 100.0 * bounds);
}

TEST(SphereObstacles, BadArgumentsAreRefused) {
    const LatticeFrame f{{16, 16, 16}, 1.0f, {0, 0, 0}};
    const std::vector<std::uint8_t> types(f.siteCount(), kHost);
    EXPECT_THROW(
        placeSphereObstacles(f, {{2.0f, 0.6f, "a"}, {1.0f, 0.5f, "b"}}, types, kHost, kPeriodic, 1),
        GeometryError);  // fractions sum above 1
    EXPECT_THROW(placeSphereObstacles(f, {{2.0f, 0.1f, "a"}}, std::vector<std::uint8_t>(10, kHost),
                                      kHost, kPeriodic, 1),
                 GeometryError);  // types of the wrong size
    EXPECT_THROW(placeSphereObstacles(f, {{8.0f, 0.1f, "wide"}}, types, kHost, kPeriodic, 1),
                 GeometryError);  // diameter 16 = periodic length
    EXPECT_THROW(placeSphereObstacles(f, {{0.0f, 0.1f, "zero"}}, types, kHost, kPeriodic, 1),
                 GeometryError);
    EXPECT_THROW(placeSphereObstacles(f, {{1.0f, 0.1f, "nohost"}}, types, 7, kPeriodic, 1),
                 GeometryError);
    EXPECT_TRUE(
        placeSphereObstacles(f, {{1.0f, 0.0f, "none"}}, types, kHost, kPeriodic, 1).empty());
}

}  // namespace
}  // namespace cf::geometry::test
