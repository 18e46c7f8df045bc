// SPDX-License-Identifier: GPL-3.0-or-later
// `spheres` against hand-computed values (design note section 2, computed from
// BioDynaMo's formulas), and its invariants: Jacobi updates, benchmark A's first step,
// volume-conserving division with deterministic daughters, exact restart, bad input.
// Double-precision tolerance 1e-9 absolute: the oracles are given to 9-10 digits and the
// arithmetic is double (rounding ~1e-14 relative).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/rng.hpp"
#include "sim/models/spheres/spheres_model.hpp"
#include "sim/models/spheres/spheres_physics.hpp"
#include "tests/support/backends.hpp"
#include "tests/support/model_fixture.hpp"

namespace cf {
namespace {

using spheres::HostState;
using spheres::Vec;

constexpr double kTol = 1e-9;

std::vector<Backend> spheresBackends() {
    std::vector<Backend> out;
    const ModelDescriptor d = spheres::descriptor();
    for (Backend b : test::builtBackends())
        if (d.offers(b)) out.push_back(b);
    return out;
}

struct Cell {
    double x, y, z, d;
};

class SpheresTest : public test::ModelFixture<&spheres::descriptor> {
protected:
    // Positions: kTol in double (CPU). CUDA holds positions in float: the cells here lie
    // within 160 um of the origin, where a float ulp is 1.5e-5 um, and the float move itself
    // is off by ~1e-6 relative (< 1e-6 um), so 2e-5 um.
    double posTol() const { return GetParam() == Backend::Cuda ? 2e-5 : kTol; }
    // Force components that cancel up to summation-order rounding (double: ~1e-14 of 15.6;
    // float: the cancelled rest moves a cell by < 1e-8 um, below a float ulp, but allow one).
    double cancelTol() const { return GetParam() == Backend::Cuda ? 2e-5 : 1e-12; }
    // A model (growth off unless set otherwise) holding exactly `cells`, ids 0.. in order.
    std::unique_ptr<Model> withCells(const std::vector<Cell>& cells, std::uint32_t seed = 1) {
        auto m = make(seed);
        HostState s;
        s.resize(cells.size());
        for (std::size_t i = 0; i < cells.size(); ++i) {
            s.x[i] = cells[i].x;
            s.y[i] = cells[i].y;
            s.z[i] = cells[i].z;
            s.diameter[i] = cells[i].d;
            s.volume[i] = spheres::sphereVolume(cells[i].d);
            s.id[i] = s.root[i] = static_cast<std::uint32_t>(i);
            s.generation[i] = 0;
            s.birthStep[i] = 0;
            s.force[i] = 0.0f;
        }
        for (int a = 0; a < 3; ++a) {
            s.boxLo[a] = -100.0;
            s.boxHi[a] = 200.0;
        }
        m->restore(spheres::makeSnapshot(s));
        return m;
    }
};

// Cells of a model keyed by id (slot order may be Morton order).
std::map<std::uint32_t, Cell> byId(Model& m) {
    const HostState s = spheres::readSnapshot(m.snapshot());
    std::map<std::uint32_t, Cell> out;
    for (std::size_t i = 0; i < s.size(); ++i)
        out[s.id[i]] = {s.x[i], s.y[i], s.z[i], s.diameter[i]};
    return out;
}

using test::metric;

// ---- the per-cell formulas (host, double and float) --------------------------------------

const spheres::ForceCoefficients<double> kBdm{1.5, 2.0, 1.0, 3.0};
const rng::Philox kContact(1, spheres::kContactStream);

double forceX(double d, double di, double dj) {
    return spheres::pairForce<double>({d, 0.0, 0.0}, di, dj, kBdm, kContact, 0, 0, 1).x;
}

TEST(SpheresPhysics, PairForceMatchesHandComputedValues) {
    EXPECT_NEAR(forceX(20.0, 30, 30), 15.643842411, kTol);  // face neighbour, delta 13
    const double e = 20.0 * std::sqrt(2.0);                 // edge neighbour on the diagonal
    const Vec<double> f =
        spheres::pairForce<double>({20.0, 20.0, 0.0}, 30, 30, kBdm, kContact, 0, 0, 1);
    EXPECT_NEAR(std::hypot(f.x, f.y), 3.194089293, kTol);
    EXPECT_NEAR(f.x, 3.194089293 / std::sqrt(2.0), kTol);
    EXPECT_NEAR(e, 28.284271247, kTol);
    EXPECT_NEAR(forceX(30.0 - 1e-12, 30, 30), 1.025062814, kTol);  // delta 3: jump at rc
    EXPECT_NEAR(forceX(32.5, 20, 40), -0.935513400, kTol);         // attractive, delta 0.5
    EXPECT_EQ(forceX(33.0 + 1e-9, 30, 30), 0.0);                   // no contact: delta < 0
    EXPECT_EQ(forceX(40.0, 30, 30), 0.0);
    // Float (for the CUDA backend): relative 1e-6 (a few float ulps over ~10 operations).
    const spheres::ForceCoefficients<float> kf{1.5f, 2.0f, 1.0f, 3.0f};
    const float ff =
        spheres::pairForce<float>({20.0f, 0.0f, 0.0f}, 30.0f, 30.0f, kf, kContact, 0, 0, 1).x;
    EXPECT_NEAR(ff, 15.643842411, 1e-6 * 15.64);
}

TEST(SpheresPhysics, CoincidentCentresDrawTheirOwnRandomForce) {
    const Vec<double> f =
        spheres::pairForce<double>({0.0, 0.0, 0.0}, 30, 30, kBdm, kContact, 7, 3, 5);
    const rng::Word4 w = kContact(7, 3, 5);
    EXPECT_EQ(f.x, 3.0 * (2.0 * rng::uniformFloat(w.x) - 1.0));
    EXPECT_EQ(f.y, 3.0 * (2.0 * rng::uniformFloat(w.y) - 1.0));
    EXPECT_EQ(f.z, 3.0 * (2.0 * rng::uniformFloat(w.z) - 1.0));
    const Vec<double> g =
        spheres::pairForce<double>({0.0, 0.0, 0.0}, 30, 30, kBdm, kContact, 7, 5, 3);
    EXPECT_NE(f.x, -g.x);  // not antisymmetric: each ordered pair draws on its own (BDM)
}

TEST(SpheresPhysics, DisplacementCapScalesTheWholeVector) {
    // Centre at 0, neighbours at (10,0,0) and (0,15,0), D 30, mass 1, max_displacement 0.1.
    const double fx = forceX(-10.0, 30, 30), fy = forceX(-15.0, 30, 30);
    EXPECT_NEAR(fx, -32.225022686, kTol);
    EXPECT_NEAR(fy, -23.813942393, kTol);
    const Vec<double> move =
        spheres::displacementFromForce<double>({fx, fy, 0.0}, 1.0, 0.01, 0.4, 0.1);
    EXPECT_NEAR(move.x, -0.080423045, kTol);  // a per-component clamp would give -0.1, -0.1
    EXPECT_NEAR(move.y, -0.059431758, kTol);
    EXPECT_EQ(move.z, 0.0);
    // |F| = 0.4 is not above the adherence 0.4 (strict): no move.
    const Vec<double> stay = spheres::displacementFromForce<double>({0.4, 0, 0}, 1, 0.01, 0.4, 3);
    EXPECT_EQ(stay.x, 0.0);
}

TEST(SpheresPhysics, DivisionConservesVolumeAndCentre) {
    const rng::Philox gen(9, spheres::kDivisionStream);
    const double v = spheres::sphereVolume(40.0) + 1.0, d = spheres::diameterOf(v);
    EXPECT_NEAR(d, 40.000398, 1e-6);
    for (std::uint32_t id = 0; id < 200; ++id) {
        const spheres::DivisionDraw draw = spheres::divisionDraw(gen, 11, id, 0.9, 1.1);
        ASSERT_GT(draw.ratio, 0.9);
        ASSERT_LE(draw.ratio, 1.1);
        ASSERT_NEAR(std::hypot(draw.ax, draw.ay, draw.az), 1.0, 1e-15);
        const spheres::DivisionResult r = spheres::divide(v, d, draw.ratio);
        EXPECT_NEAR(r.motherVolume + r.daughterVolume, v, 1e-16 * v * 4);  // one rounding
        EXPECT_NEAR(r.daughterVolume / r.motherVolume, draw.ratio, 1e-13);
        EXPECT_NEAR(r.motherShift + r.daughterShift, d / 8.0, 1e-14);  // 5.000049735
        // Volume-weighted centre unchanged: V_m d1 = V_d d2.
        EXPECT_NEAR(r.motherVolume * r.motherShift, r.daughterVolume * r.daughterShift, 1e-10 * v);
    }
}

// ---- the model, on every backend ----------------------------------------------------------

TEST_P(SpheresTest, IsolatedPairSeparatesByTheHandComputedMove) {
    set({"growth.enabled=false"});
    auto m = withCells({{0, 0, 0, 30}, {20, 0, 0, 30}});
    m->advance(1);
    auto c = byId(*m);
    EXPECT_NEAR(c[0].x, -0.156438424, posTol());
    EXPECT_NEAR(c[1].x - c[0].x, 20.312876848, posTol());
    EXPECT_NEAR(metric(*m, "mean_force"), 15.643842411, 1e-5);  // |F| is stored as float
}

TEST_P(SpheresTest, MovesAreAppliedAfterAllAreComputed) {
    set({"growth.enabled=false"});
    auto m = withCells({{0, 0, 0, 30}, {20, 0, 0, 30}, {40, 0, 0, 30}});
    m->advance(1);
    auto c = byId(*m);
    EXPECT_EQ(c[1].x, 20.0);  // forces cancel exactly: bitwise unchanged
    EXPECT_NEAR(c[0].x, -0.156438424, posTol());
    EXPECT_NEAR(c[2].x, 40.156438424, posTol());
}

// mechanics.precision = double: the moves above within kTol on every backend (CUDA then
// steps positions, forces and moves in double, as the CPU always does); 29.9, not a float,
// stays exactly where it was.
TEST_P(SpheresTest, DoublePrecisionMovesMatchHandComputedValues) {
    set({"growth.enabled=false", "mechanics.precision=double"});
    auto m = withCells({{0, 0, 0, 30}, {20, 0, 0, 30}, {40, 0, 0, 30}});
    m->advance(1);
    auto c = byId(*m);
    EXPECT_EQ(c[1].x, 20.0);
    EXPECT_NEAR(c[0].x, -0.156438424, kTol);
    EXPECT_NEAR(c[2].x, 40.156438424, kTol);
    set({"growth.enabled=false", "mechanics.precision=double", "mechanics.adherence=2"});
    auto held = withCells({{0, 0, 0, 30}, {29.9, 0, 0, 30}, {0, 80, 0, 30}, {25, 80, 0, 30}});
    held->advance(1);
    auto h = byId(*held);
    EXPECT_EQ(h[1].x, 29.9);                  // F = 1.142827 < 2: not moved
    EXPECT_NEAR(h[2].x, -0.078759616, kTol);  // F = 7.875962
}

TEST_P(SpheresTest, UnequalCellsAttractAndDiagonalPairRepels) {
    set({"growth.enabled=false"});
    // rc = the largest diameter, 40; masses 0.296296 and 2.370370 at density 1/V(30).
    auto m = withCells({{0, 0, 0, 20}, {32.5, 0, 0, 40}, {0, 100, 0, 30}, {20, 120, 0, 30}});
    m->advance(1);
    auto c = byId(*m);
    EXPECT_NEAR(c[0].x, 0.031573577, posTol());         // small moves toward big
    EXPECT_NEAR(c[1].x, 32.5 - 0.003946697, posTol());  // big moves toward small
    const double s = 0.031940893 / std::sqrt(2.0);      // diagonal pair: along the axis
    EXPECT_NEAR(c[2].x, -s, posTol());
    EXPECT_NEAR(c[2].y, 100.0 - s, posTol());
    EXPECT_NEAR(c[3].x, 20.0 + s, posTol());
}

TEST_P(SpheresTest, NoForceAtOrBeyondTheInteractionRadius) {
    set({"growth.enabled=false"});
    auto m = withCells({{0, 0, 0, 30}, {31, 0, 0, 30}, {0, 80, 0, 30}, {30, 80, 0, 30}});
    m->advance(1);
    auto c = byId(*m);
    EXPECT_EQ(c[0].x, 0.0);  // F(31) = -0.062 by the formula, but 31 >= rc = 30
    EXPECT_EQ(c[1].x, 31.0);
    EXPECT_EQ(c[2].x, 0.0);  // d = rc exactly: d^2 < rc^2 is strict
    EXPECT_EQ(metric(*m, "mean_force"), 0.0);
}

TEST_P(SpheresTest, AdherenceHoldsWeakForces) {
    set({"growth.enabled=false", "mechanics.adherence=2"});
    auto m = withCells({{0, 0, 0, 30}, {29.9, 0, 0, 30}, {0, 80, 0, 30}, {25, 80, 0, 30}});
    m->advance(1);
    auto c = byId(*m);
    EXPECT_EQ(c[0].x, 0.0);                       // F = 1.142827 < 2
    EXPECT_NEAR(c[1].x, 29.9, posTol());          // not moved (29.9 is not a float on CUDA)
    EXPECT_NEAR(c[2].x, -0.078759616, posTol());  // F = 7.875962
}

TEST_P(SpheresTest, CoincidentCellsMoveByTheirOwnDraw) {
    set({"growth.enabled=false"});
    const std::uint32_t seed = 5;
    auto m = withCells({{10, 10, 10, 30}, {10, 10, 10, 30}}, seed);
    m->advance(1);
    auto c = byId(*m);
    const rng::Philox contact(seed, spheres::kContactStream);
    for (std::uint32_t i = 0; i < 2; ++i) {
        const rng::Word4 w = contact(0, i, 1 - i);
        const double f[3] = {3.0 * (2.0 * rng::uniformFloat(w.x) - 1.0),
                             3.0 * (2.0 * rng::uniformFloat(w.y) - 1.0),
                             3.0 * (2.0 * rng::uniformFloat(w.z) - 1.0)};
        const bool moves = std::sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]) > 0.4;
        const double k = moves ? 0.01 / 1.0 : 0.0;  // dt / m, mass 1
        EXPECT_NEAR(c[i].x, 10.0 + k * f[0], posTol()) << i;
        EXPECT_NEAR(c[i].y, 10.0 + k * f[1], posTol()) << i;
        EXPECT_NEAR(c[i].z, 10.0 + k * f[2], posTol()) << i;
    }
}

// Benchmark A's layout, 8^3, first step with growth on: rc = 30 (before growth), forces on
// D = 30.002121916 and m = 1.000212207. Interior forces cancel (sum < 1e-4 << adherence
// 0.4), surface cells move outward by the design note's values.
TEST_P(SpheresTest, BenchmarkAInteriorStaysSurfaceMovesOutward) {
    set({"init.layout=lattice", "init.cells_per_axis=8"});
    auto m = make(3);
    m->advance(1);
    auto c = byId(*m);
    int interior = 0, surface = 0;
    for (std::uint32_t id = 0; id < 512; ++id) {
        const int ijk[3] = {static_cast<int>(id % 8), static_cast<int>((id / 8) % 8),
                            static_cast<int>(id / 64)};
        const double pos[3] = {c[id].x, c[id].y, c[id].z};
        int outer = 0;
        for (int a = 0; a < 3; ++a) {
            const double moved = pos[a] - 20.0 * ijk[a];
            const int side = ijk[a] == 0 ? -1 : (ijk[a] == 7 ? 1 : 0);
            outer += side != 0;
            if (side == 0) {
                // In-plane components of a surface cell cancel up to summation-order
                // rounding; an interior cell does not move at all (|F| < adherence).
                ASSERT_NEAR(moved, 0.0, cancelTol()) << "id " << id << " axis " << a;
                continue;
            }
            SCOPED_TRACE("id " + std::to_string(id));
            ASSERT_GT(moved * side, 0.0);  // outward
        }
        const double want[4] = {0.0, 0.246833863, 0.224234368, 0.201634874};
        for (int a = 0; a < 3; ++a) {
            const int side = ijk[a] == 0 ? -1 : (ijk[a] == 7 ? 1 : 0);
            if (side != 0) {
                EXPECT_NEAR((pos[a] - 20.0 * ijk[a]) * side, want[outer], posTol());
            }
        }
        if (outer == 0) {
            for (int a = 0; a < 3; ++a) {
                ASSERT_EQ(pos[a], 20.0 * ijk[a]) << "interior id " << id;  // bitwise
            }
        }
        (outer == 0 ? interior : surface) += 1;
    }
    EXPECT_EQ(interior, 216);
    EXPECT_EQ(surface, 296);
    EXPECT_NEAR(c[0].d, 30.002121916, posTol());
}

// Ball of cells spread over the cycle, fast growth (+300 um^3 per step): every step some
// cells cross V_div. Per step: daughters = cells over the threshold, with ids N.. in parent
// id order; total volume = previous + growth of the non-dividing cells (division conserves).
TEST_P(SpheresTest, DivisionConservesVolumeAndCountsDaughters) {
    set({"init.layout=ball", "init.count=300", "init.radius=80", "init.age_spread=1",
         "growth.rate=30000", "capacity.initial=300"});
    auto m = make(11);
    const double vdiv = spheres::sphereVolume(40.0), growth = 30000 * 0.01;
    std::uint64_t totalBorn = 0;
    bool noted = false;
    for (int step = 0; step < 60; ++step) {
        const HostState before = spheres::readSnapshot(m->snapshot());
        std::size_t over = 0;
        double expected = 0.0;
        std::map<std::uint32_t, double> parentVolume;
        for (std::size_t i = 0; i < before.size(); ++i) {
            if (before.volume[i] > vdiv) {
                ++over;
                expected += before.volume[i];
                parentVolume[before.id[i]] = before.volume[i];
            } else {
                expected += before.volume[i] + growth;
            }
        }
        m->advance(1);
        for (const std::string& n : m->takeNotes())
            noted = noted || n.find("capacity grew") != std::string::npos;
        const HostState after = spheres::readSnapshot(m->snapshot());
        ASSERT_EQ(after.size(), before.size() + over) << "step " << step;
        EXPECT_EQ(metric(*m, "divisions_step"), static_cast<double>(over));
        EXPECT_EQ(metric(*m, "divisions_total"), static_cast<double>(after.size() - 300))
            << "cumulative: every division adds one cell";
        std::map<std::uint32_t, std::size_t> slotOf;
        double total = 0.0;
        for (std::size_t i = 0; i < after.size(); ++i) {
            slotOf[after.id[i]] = i;
            total += after.volume[i];
        }
        EXPECT_NEAR(total, expected, 1e-12 * expected) << "step " << step;
        // Daughter k belongs to the k-th dividing parent by id, and their volumes add up.
        std::uint32_t k = static_cast<std::uint32_t>(before.size());
        for (const auto& [parent, v] : parentVolume) {
            const std::size_t pm = slotOf.at(parent), pd = slotOf.at(k);
            EXPECT_NEAR(after.volume[pm] + after.volume[pd], v, 4e-16 * v);
            EXPECT_EQ(after.root[pd], after.root[pm]);
            EXPECT_EQ(after.birthStep[pd], static_cast<std::uint64_t>(step + 1));
            EXPECT_EQ(after.force[pd], 0.0f);  // newborns feel no force in their birth step
            ++k;
        }
        totalBorn += over;
    }
    std::printf("300 cells -> %zu after 60 steps (%llu divisions)\n",
                static_cast<std::size_t>(metric(*m, "cells")),
                static_cast<unsigned long long>(totalBorn));
    EXPECT_GT(totalBorn, 100u);
    EXPECT_TRUE(noted) << "capacity 300 must have grown, with a note";
}

TEST_P(SpheresTest, SameSeedSamePopulationAndExactRestart) {
    set({"init.layout=ball", "init.count=200", "init.radius=70", "init.age_spread=1",
         "growth.rate=30000", "mechanics.sort_every=3"});
    auto a = make(21), b = make(21), other = make(22);
    a->advance(40);
    b->advance(40);
    other->advance(40);
    const Snapshot sa = a->snapshot(), sb = b->snapshot();
    ASSERT_EQ(sa.fields.size(), sb.fields.size());
    for (std::size_t f = 0; f < sa.fields.size(); ++f)
        EXPECT_EQ(sa.fields[f].bytes, sb.fields[f].bytes) << sa.fields[f].name;
    EXPECT_NE(sa.at("position").bytes, other->snapshot().at("position").bytes);
    // Restart from step 40 (mid-cycle: cells keep dividing) is bit-identical at step 70.
    a->advance(30);
    auto r = make(21);
    r->restore(sb);
    r->advance(30);
    const Snapshot ea = a->snapshot(), er = r->snapshot();
    EXPECT_EQ(ea.step, 70u);
    EXPECT_EQ(er.step, 70u);
    for (std::size_t f = 0; f < ea.fields.size(); ++f)
        EXPECT_EQ(ea.fields[f].bytes, er.fields[f].bytes) << ea.fields[f].name;
    std::printf("seed 21: %g cells at step 70, mean diameter %.6f um\n", metric(*a, "cells"),
                metric(*a, "mean_diameter"));
}

// The CPU reference is double whatever mechanics.precision says (it picks the CUDA backend's
// real): a dividing, re-sorted population is the same to the bit for either value.
TEST(SpheresCpu, PrecisionChangesNothingOnTheCpu) {
    const ModelDescriptor d = spheres::descriptor();
    std::vector<Snapshot> runs;
    for (const char* precision : {"float", "double"}) {
        ParamSet ps{d.parameters()};
        for (const char* a : {"init.layout=ball", "init.count=200", "init.radius=70",
                              "init.age_spread=1", "growth.rate=30000", "mechanics.sort_every=3"})
            ps.setFromAssignment(a);
        ps.setFromAssignment(std::string("mechanics.precision=") + precision);
        auto m = d.create(Backend::Cpu);
        m->reset(ps, 4);
        m->advance(40);
        runs.push_back(m->snapshot());
    }
    ASSERT_EQ(runs[0].fields.size(), runs[1].fields.size());
    EXPECT_GT(runs[0].at("id").count, 200u);  // cells divided
    for (std::size_t f = 0; f < runs[0].fields.size(); ++f)
        EXPECT_EQ(runs[0].fields[f].bytes, runs[1].fields[f].bytes) << runs[0].fields[f].name;
}

// Host copy of a view array (device memory on CUDA).
template <typename T>
std::vector<T> hostCopy(const T* data, std::size_t n, MemorySpace space) {
    std::vector<T> out(n);
    if (n > 0) copyViewToHost(data, out.data(), n * sizeof(T), space);
    return out;
}

TEST_P(SpheresTest, ViewsMatchTheState) {
    set({"init.layout=lattice", "init.cells_per_axis=3"});
    auto m = make(1);
    m->advance(2);
    const HostState s = spheres::readSnapshot(m->snapshot());
    const ModelViews v = m->views();
    m->synchronize();
    ASSERT_EQ(v.clouds.size(), 1u);
    const PointCloudView& cloud = v.clouds[0];
    EXPECT_EQ(cloud.space, GetParam() == Backend::Cuda ? MemorySpace::Device : MemorySpace::Host);
    ASSERT_EQ(cloud.count, s.size());
    ASSERT_EQ(cloud.scalars.size(), 4u);
    const std::size_t n = s.size();
    const auto xyzr = hostCopy(cloud.positions, 4 * n, cloud.space);
    const auto diameter = hostCopy(cloud.scalars[0].data, n, cloud.space);
    const auto age = hostCopy(cloud.scalars[1].data, n, cloud.space);
    const auto lineage = hostCopy(cloud.scalars[3].data, n, cloud.space);
    const auto clone = hostCopy(cloud.categories[0].data, n, cloud.space);
    for (std::size_t i = 0; i < n; ++i) {
        EXPECT_EQ(xyzr[4 * i], static_cast<float>(s.x[i]));
        EXPECT_EQ(xyzr[4 * i + 3], static_cast<float>(0.5 * s.diameter[i]));
        EXPECT_EQ(diameter[i], static_cast<float>(s.diameter[i]));
        EXPECT_NEAR(age[i], 0.02, 1e-7);  // age: 2 steps of 0.01 h
        EXPECT_EQ(lineage[i], static_cast<float>(s.root[i]));
        EXPECT_EQ(clone[i], s.root[i] % 12u);
    }
    // The camera's first frame holds every cell, within the domain.
    for (int a = 0; a < 3; ++a) {
        EXPECT_GE(v.focusLo[a], v.boxLo[a]);
        EXPECT_LE(v.focusHi[a], v.boxHi[a]);
        EXPECT_LT(v.focusLo[a], -14.0);  // cells from 0 to 40, D 30
        EXPECT_GT(v.focusHi[a], 54.0);
    }
}

TEST_P(SpheresTest, BadInputNamesTheParameter) {
    auto expectNamed = [](auto&& action, const std::string& key) {
        try {
            action();
            ADD_FAILURE() << "no error for " << key;
        } catch (const ParameterError& e) {
            EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
        }
    };
    expectNamed([&] { params.setFromAssignment("init.diameter=0"); }, "init.diameter");
    expectNamed([&] { params.setFromAssignment("init.diameter=-30"); }, "init.diameter");
    expectNamed([&] { params.setFromAssignment("growth.division_diameter=0"); },
                "growth.division_diameter");
    set({"mechanics.interaction_radius=35"});  // cells reach D(V_div + 3) = 40.0004
    expectNamed([&] { make(1); }, "mechanics.interaction_radius");
    set({"mechanics.interaction_radius=41", "growth.ratio_min=1.2"});
    expectNamed([&] { make(1); }, "growth.ratio_min");
    set({"growth.ratio_min=0.9", "mechanics.interaction_radius=0", "capacity.max_cells=10",
         "init.layout=lattice", "init.cells_per_axis=2", "init.age_spread=1",
         "growth.rate=1000000"});
    auto m = make(1);  // 8 cells that all divide in step 1 or 2: 16 > 10
    try {
        m->advance(5);
        ADD_FAILURE() << "no error for capacity.max_cells";
    } catch (const SimulationError& e) {
        EXPECT_NE(std::string(e.what()).find("capacity.max_cells"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("step "), std::string::npos);
    }
}

INSTANTIATE_TEST_SUITE_P(AllBackends, SpheresTest, testing::ValuesIn(spheresBackends()),
                         test::backendName);

}  // namespace
}  // namespace cf
