// SPDX-License-Identifier: GPL-3.0-or-later
// CPU reference backend of `spheres`: the step of spheres_model.hpp in double precision,
// one parallel loop per phase, every result written per cell (thread-count independent).
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <new>
#include <optional>
#include <string>

#include "sim/core/parallel.hpp"
#include "sim/core/rng.hpp"
#include "sim/grid/uniform_grid_cpu.hpp"
#include "sim/models/spheres/spheres_model.hpp"
#include "sim/models/spheres/spheres_physics.hpp"
#include "sim/models/spheres/spheres_views.hpp"

namespace cf::spheres {

namespace {

// Bytes a cell costs on this backend (state, float mirrors, moves, grid and rank scratch),
// for the capacity note.
constexpr double kBytesPerCell = 5 * 8 + 4 + 4 + 1 + 8 + 4 + 3 * 4 + 3 * 8 + 4 * 4;

class CpuSpheres final : public Model {
public:
    Backend backend() const override { return Backend::Cpu; }

    void reset(const ParamSet& params, std::uint32_t seed) override {
        p_ = checkedParams(params);
        inEffect_.emplace(params);
        seed_ = seed;
        s_ = initialState(p_, seed);
        const std::size_t n = s_.size();
        capacity_ = p_.capacityInitial > 0 ? static_cast<std::size_t>(p_.capacityInitial) : 2 * n;
        capacity_ = std::max(capacity_, n);
        reserveAll(capacity_);
        haveGeometry_ = false;
        divisions_ = 0;
    }

    void setLiveParameters(const ParamSet& params) override {
        ParamSet merged = withLiveValues(*inEffect_, params);
        const SpheresParams next = checkedParams(merged);  // a refusal changes nothing
        checkAgainstPopulation(next, s_.size());
        p_ = next;
        inEffect_ = std::move(merged);
    }

    void advance(std::uint64_t steps) override {
        for (std::uint64_t k = 0; k < steps; ++k)
            stepOnce();
    }

    std::uint64_t step() const override { return s_.step; }
    double time() const override { return s_.time; }

    std::vector<Metric> metrics() override { return hostMetrics(s_, divisions_); }

    Snapshot snapshot() override { return makeSnapshot(s_); }

    void restore(const Snapshot& snapshot) override {
        HostState s = readSnapshot(snapshot);  // both throw before anything changes
        conformSubstance(p_, s);
        s_ = std::move(s);
        capacity_ = std::max(capacity_, s_.size());
        reserveAll(capacity_);
        haveGeometry_ = false;
        divisions_ = 0;
    }

    ModelViews views() override { return hostViews(p_, s_, viewBuffers_); }

    void checkFinite() override { checkSnapshotFinite(snapshot(), "spheres"); }

private:
    void reserveAll(std::size_t cells) {
        try {
            s_.reserve(cells);
            flagById_.reserve(cells);
            rankById_.reserve(cells);
            xf_.reserve(cells);
            yf_.reserve(cells);
            zf_.reserve(cells);
            mx_.reserve(cells);
            my_.reserve(cells);
            mz_.reserve(cells);
        } catch (const std::bad_alloc&) {
            throw SimulationError("spheres: step " + std::to_string(s_.step) + ": " +
                                  std::to_string(cells) + " cells need " +
                                  std::to_string(kBytesPerCell * static_cast<double>(cells)) +
                                  " bytes of memory, which could not be allocated; the state is "
                                  "unchanged at step " +
                                  std::to_string(s_.step));
        }
    }

    // Interaction radius of this step: the fixed one, or the largest diameter before growth.
    double interactionRadius() const {
        if (p_.interactionRadius > 0.0) return p_.interactionRadius;
        double rc = 0.0;
        for (double d : s_.diameter)
            rc = std::max(rc, d);
        return rc;
    }

    // Flags and ranks by parent id; returns the number of dividing cells T. Ranks count the
    // dividing cells of smaller id, so daughter ids do not depend on the slot order.
    std::size_t rankDivisions(std::size_t n) {
        if (!p_.growth) return 0;
        flagById_.assign(n, 0);
        rankById_.resize(n);
        parallelFor(n, [&](std::size_t i) {
            flagById_[s_.id[i]] = s_.volume[i] > p_.divisionVolume ? 1 : 0;
        });
        std::int32_t running = 0;
        for (std::size_t k = 0; k < n; ++k) {
            rankById_[k] = running;
            running += flagById_[k];
        }
        return static_cast<std::size_t>(running);
    }

    void ensureCapacity(std::size_t n, std::size_t born) {
        const std::size_t next = capacityFor(p_, s_.step, n, born, capacity_);
        if (next == capacity_) return;
        reserveAll(next);
        note(capacityNote(capacity_, next, n + born, kBytesPerCell));
        capacity_ = next;
    }

    // Growth, or division into the mother (in place) and a daughter at slot n + rank.
    void biology(std::size_t n) {
        const rng::Philox gen(seed_, kDivisionStream);
        const std::uint64_t step = s_.step;
        parallelFor(n, [&](std::size_t i) {
            const std::uint32_t id = s_.id[i];
            if (flagById_[id] == 0) {
                s_.volume[i] = grownVolume(s_.volume[i], p_.growthPerStep, p_.volumeFloor);
                s_.diameter[i] = diameterOf(s_.volume[i]);
                return;
            }
            const DivisionDraw draw = divisionDraw(gen, step, id, p_.ratioMin, p_.ratioMax);
            const DivisionResult r = divide(s_.volume[i], s_.diameter[i], draw.ratio);
            const std::size_t k = n + static_cast<std::size_t>(rankById_[id]);
            s_.x[k] = s_.x[i] + r.daughterShift * draw.ax;
            s_.y[k] = s_.y[i] + r.daughterShift * draw.ay;
            s_.z[k] = s_.z[i] + r.daughterShift * draw.az;
            s_.x[i] -= r.motherShift * draw.ax;
            s_.y[i] -= r.motherShift * draw.ay;
            s_.z[i] -= r.motherShift * draw.az;
            s_.volume[k] = r.daughterVolume;
            s_.volume[i] = r.motherVolume;
            s_.diameter[k] = diameterOf(r.daughterVolume);
            s_.diameter[i] = diameterOf(r.motherVolume);
            const std::uint8_t g = s_.generation[i];
            s_.generation[i] = s_.generation[k] = g == 255 ? g : static_cast<std::uint8_t>(g + 1);
            s_.birthStep[i] = s_.birthStep[k] = step + 1;
            s_.root[k] = s_.root[i];
            s_.id[k] = static_cast<std::uint32_t>(k);
            s_.force[k] = 0.0f;
        });
    }

    void buildGrid(std::size_t total, double rc) {
        xf_.resize(total);
        yf_.resize(total);
        zf_.resize(total);
        parallelFor(total, [&](std::size_t i) {
            xf_[i] = static_cast<float>(s_.x[i]);
            yf_[i] = static_cast<float>(s_.y[i]);
            zf_[i] = static_cast<float>(s_.z[i]);
        });
        refreshGridGeometry(geometry_, haveGeometry_, rc, s_.boxLo, s_.boxHi);
        grid_.build(geometry_,
                    grid::PointsView{xf_.data(), yf_.data(), zf_.data(), static_cast<int>(total)});
    }

    // Diffusion and decay (FTCS substeps), then secretion by the cells 0..n-1 counted per
    // voxel (substance.hpp).
    void substance(std::size_t n) {
        const FieldGrid g = substanceGrid(s_);
        const DiffusionPlan plan = planDiffusion(g, p_.diffusion, p_.decay, p_.dt);
        const bool open = p_.boundary == static_cast<std::int32_t>(SubstanceBoundary::Open);
        const std::size_t plane = static_cast<std::size_t>(g.n[0]) * g.n[1];
        fieldNext_.resize(s_.substance.size());
        if (p_.diffusion > 0.0 || p_.decay > 0.0) {
            for (int k = 0; k < plan.substeps; ++k) {
                parallelFor(
                    s_.substance.size(),
                    [&](std::size_t v) {
                        const auto i = static_cast<std::int32_t>(v % g.n[0]);
                        const auto j = static_cast<std::int32_t>((v / g.n[0]) % g.n[1]);
                        const auto kk = static_cast<std::int32_t>(v / plane);
                        fieldNext_[v] =
                            diffusedValue<double>(s_.substance.data(), g, i, j, kk, plan.lambda,
                                                  plan.decayPerSubstep, open);
                    },
                    1 << 14);
                s_.substance.swap(fieldNext_);
            }
        }
        if (p_.secretion > 0.0 && n > 0) {
            voxelCounts_.assign(s_.substance.size(), 0);
            for (std::size_t i = 0; i < n; ++i)
                ++voxelCounts_[voxelOf(g, s_.x[i], s_.y[i], s_.z[i])];
            const double amount = p_.secretion * p_.dt / g.voxelVolume();
            parallelFor(s_.substance.size(), [&](std::size_t v) {
                if (voxelCounts_[v] != 0) s_.substance[v] += voxelCounts_[v] * amount;
            });
        }
    }

    // Moves (and |F|) of the cells 0..n-1 from the positions of all cells 0..n-1; newborns
    // (slots n..) take no part.
    void forces(std::size_t n, double rc) {
        mx_.resize(n);
        my_.resize(n);
        mz_.resize(n);
        const grid::GridView view = grid_.view();
        const double rc2 = rc * rc;
        const ForceCoefficients<double> k{p_.radiusExtension, p_.repulsion, p_.attraction,
                                          p_.coincidentForce};
        const rng::Philox contact(seed_, kContactStream);
        const std::uint64_t step = s_.step;
        const bool chemotaxis = !s_.substance.empty() && p_.chemotaxis != 0.0;
        const FieldGrid g = substanceGrid(s_);
        parallelFor(n, [&](std::size_t i) {
            Vec<double> f{0.0, 0.0, 0.0};
            const double xi = s_.x[i], yi = s_.y[i], zi = s_.z[i], di = s_.diameter[i];
            grid::forEachNeighbor(
                view, grid::Vec3{xf_[i], yf_[i], zf_[i]}, view.geometry.cutoff,
                [&](std::int32_t j, grid::Vec3, float) {
                    const auto sj = static_cast<std::size_t>(j);
                    if (sj == i || sj >= n) return;
                    const Vec<double> c{xi - s_.x[sj], yi - s_.y[sj], zi - s_.z[sj]};
                    if (!(c.x * c.x + c.y * c.y + c.z * c.z < rc2)) return;
                    const Vec<double> fij = pairForce<double>(c, di, s_.diameter[sj], k, contact,
                                                              step, s_.id[i], s_.id[sj]);
                    f.x += fij.x;
                    f.y += fij.y;
                    f.z += fij.z;
                });
            const double mass = p_.density * s_.volume[i];
            Vec<double> tractor{0.0, 0.0, 0.0};
            if (chemotaxis) {
                const Vec<double> grad =
                    sampleField<double>(s_.substance.data(), g, xi, yi, zi).gradient;
                tractor = {p_.chemotaxis * grad.x, p_.chemotaxis * grad.y, p_.chemotaxis * grad.z};
            }
            const Vec<double> move = displacementFromForce<double>(f, mass, p_.dt, p_.adherence,
                                                                   p_.maxDisplacement, tractor);
            mx_[i] = move.x;
            my_[i] = move.y;
            mz_[i] = move.z;
            s_.force[i] = static_cast<float>(std::sqrt(f.x * f.x + f.y * f.y + f.z * f.z));
        });
    }

    // Gathers every per-cell array into the grid's Morton order (the order of this step's
    // binning; the moves since are smaller than a grid cell).
    void reorder() {
        const std::vector<std::int32_t>& order = grid_.sortedIndex();
        auto gather = [&](auto& v) {
            auto out = v;
            for (std::size_t k = 0; k < order.size(); ++k)
                out[k] = v[static_cast<std::size_t>(order[k])];
            v.swap(out);
            v.reserve(capacity_);
        };
        gather(s_.x);
        gather(s_.y);
        gather(s_.z);
        gather(s_.diameter);
        gather(s_.volume);
        gather(s_.id);
        gather(s_.root);
        gather(s_.generation);
        gather(s_.birthStep);
        gather(s_.force);
    }

    void stepOnce() {
        const std::size_t n = s_.size();
        const double rc = interactionRadius();
        const std::size_t born = rankDivisions(n);
        ensureCapacity(n, born);  // throws with the state unchanged
        if (!s_.substance.empty()) substance(n);
        s_.resize(n + born);
        if (p_.growth) biology(n);
        buildGrid(n + born, rc);
        forces(n, rc);
        parallelFor(n, [&](std::size_t i) {
            s_.x[i] += mx_[i];
            s_.y[i] += my_[i];
            s_.z[i] += mz_[i];
        });
        divisions_ = born;
        ++s_.step;
        s_.time += p_.dt;
        if (s_.step % static_cast<std::uint64_t>(p_.sortEvery) == 0) reorder();
    }

    SpheresParams p_{};
    std::optional<ParamSet> inEffect_;  // the set p_ comes from
    std::uint32_t seed_ = 0;
    HostState s_;
    std::size_t capacity_ = 0;
    std::uint64_t divisions_ = 0;
    std::vector<std::int32_t> flagById_, rankById_;
    std::vector<float> xf_, yf_, zf_;
    std::vector<double> mx_, my_, mz_;
    std::vector<double> fieldNext_;
    std::vector<std::uint32_t> voxelCounts_;
    grid::GridGeometry geometry_{};
    bool haveGeometry_ = false;
    grid::CpuUniformGrid grid_;
    ViewBuffers viewBuffers_;
};

}  // namespace

std::unique_ptr<Model> makeCpuModel() {
    return std::make_unique<CpuSpheres>();
}

}  // namespace cf::spheres
