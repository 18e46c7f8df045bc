// SPDX-License-Identifier: GPL-3.0-or-later
// CPU reference backend of `spheres`: the step of spheres_model.hpp in double precision,
// one parallel loop per phase, every result written per cell (thread-count independent).
// Over several ranks (dist::Distributable) each rank steps the cells of its slab with the
// others' cells near it as ghosts (spheres_ranks.hpp; docs/SPHERES.md, "Spheres over ranks").
#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstring>
#include <new>
#include <optional>
#include <string>

#include "sim/core/parallel.hpp"
#include "sim/core/rng.hpp"
#include "sim/dist/distributable.hpp"
#include "sim/grid/uniform_grid_cpu.hpp"
#include "sim/models/spheres/cpu/kd_tree_search.hpp"
#include "sim/models/spheres/spheres_arrays.hpp"
#include "sim/models/spheres/spheres_model.hpp"
#include "sim/models/spheres/spheres_physics.hpp"
#include "sim/models/spheres/spheres_ranks.hpp"
#include "sim/models/spheres/spheres_views.hpp"

namespace cf::spheres {

namespace {

// Bytes a cell costs on this backend (state, float mirrors, moves, grid and rank scratch),
// for the capacity note.
constexpr double kBytesPerCell = 5 * 8 + 4 + 4 + 1 + 8 + 4 + 3 * 4 + 3 * 8 + 4 * 4;

class CpuSpheres final : public Model,
                         public dist::Distributable,
                         public RankBalance,
                         public StateArrayProvider {
public:
    Backend backend() const override { return Backend::Cpu; }

    void reset(const ParamSet& params, std::uint32_t seed) override {
        p_ = checkedParams(params);
        if (distributed()) refuseOnRanks(p_);
        inEffect_.emplace(params);
        seed_ = seed;
        s_ = initialState(p_, seed);
        if (distributed()) splitInitial();
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
        if (distributed()) refuseOnRanks(next);
        checkAgainstPopulation(next, distributed() ? nGlobal_ : s_.size());
        p_ = next;
        inEffect_ = std::move(merged);
    }

    void advance(std::uint64_t steps) override {
        for (std::uint64_t k = 0; k < steps; ++k)
            if (distributed())
                stepOnRanks();
            else
                stepOnce();
    }

    std::uint64_t step() const override { return s_.step; }
    double time() const override { return s_.time; }

    std::vector<Metric> metrics() override {
        return distributed() ? rankMetrics(*comm_, s_, divisions_) : hostMetrics(s_, divisions_);
    }

    Snapshot snapshot() override { return makeSnapshot(s_); }

    void restore(const Snapshot& snapshot) override {
        // Both throw before anything changes; a rank's piece holds ids of the whole population.
        HostState s = readSnapshot(snapshot, distributed() ? std::uint64_t{1} << 32 : 0);
        conformSubstance(p_, s);
        s_ = std::move(s);
        if (distributed()) {
            // This rank's piece of a run on as many ranks: the cuts follow the restored cells.
            nGlobal_ = 0;
            for (std::uint64_t c : rankCounts(*comm_, s_.size()))
                nGlobal_ += c;
            cuts_ = balancedCuts(*comm_, cuts_.axis, s_.boxLo, s_.boxHi, axisCoords());
            migrate();
            counts_ = rankCounts(*comm_, s_.size());
        }
        capacity_ = std::max(capacity_, s_.size());
        reserveAll(capacity_);
        haveGeometry_ = false;
        divisions_ = 0;
    }

    ModelViews views() override {
        if (distributed()) return {};  // a distributed run is headless
        return hostViews(p_, s_, viewBuffers_);
    }

    std::vector<StateArray> stateArrays() override {
        CellArrays<double, double> c;
        c.count = s_.size();
        c.x = s_.x.data();
        c.y = s_.y.data();
        c.z = s_.z.data();
        c.diameter = s_.diameter.data();
        c.volume = s_.volume.data();
        c.force = s_.force.data();
        c.id = s_.id.data();
        c.root = s_.root.data();
        c.generation = s_.generation.data();
        c.birthStep = s_.birthStep.data();
        if (!s_.substance.empty()) {
            c.substance = s_.substance.data();
            c.voxels = s_.substance.size();
        }
        return stateArraysOf(c, MemorySpace::Host);
    }

    void checkFinite() override {
        checkFiniteTogether(distributed() ? comm_ : nullptr, snapshot());
    }

    // dist::Distributable
    void distribute(dist::Communicator& comm) override { comm_ = &comm; }
    // Cells have no grid: the piece is empty (the substance field, the only grid, is
    // refused on several ranks); the cells are this rank's in its snapshot.
    dist::GridPiece piece() const override { return {}; }
    std::uint64_t entities() override {
        if (!distributed()) return s_.size();
        std::uint64_t n = s_.size();
        comm_->allreduce(std::span<std::uint64_t>(&n, 1), dist::ReduceOp::Sum);
        return n;
    }
    double haloSeconds() const override { return haloSeconds_; }

    // RankBalance
    std::uint64_t rebalances() const override { return rebalances_; }
    std::vector<std::uint64_t> shares() override {
        return comm_ ? rankCounts(*comm_, s_.size()) : std::vector<std::uint64_t>{s_.size()};
    }

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

    // The cell in slot i divides (docs/design/spheres.md section 7): the mother stays in slot i,
    // the daughter (id `daughterId`, a newborn: no force this step) goes to slot k.
    void divideInto(std::size_t i, std::size_t k, std::uint64_t step, const DivisionDraw& draw,
                    std::uint32_t daughterId) {
        const DivisionResult r = divide(s_.volume[i], s_.diameter[i], draw.ratio);
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
        s_.id[k] = daughterId;
        s_.force[k] = 0.0f;
    }

    // Every move computed by forces() applied at once (Jacobi, step 5), then the clock.
    void moveAndAdvance(std::size_t cells, std::size_t born) {
        parallelFor(cells, [&](std::size_t i) {
            s_.x[i] += mx_[i];
            s_.y[i] += my_[i];
            s_.z[i] += mz_[i];
        });
        divisions_ = born;
        ++s_.step;
        s_.time += p_.dt;
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
            const std::size_t k = n + static_cast<std::size_t>(rankById_[id]);
            divideInto(i, k, step, draw, static_cast<std::uint32_t>(k));
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
        // The grid stays built for the Morton reorder; the kd-tree then finds the neighbours.
        if (kdTree()) kdTree_.build(xf_.data(), yf_.data(), zf_.data(), total);
    }

    bool kdTree() const {
        return p_.neighbourSearch == static_cast<std::int32_t>(NeighbourSearch::KdTree);
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

    // Moves (and |F|) of the cells 0..n-1 from the positions of the cells 0..neighbours-1;
    // newborns (slots n.. on one rank; ids from idLimit on, wherever they lie) take no part.
    void forces(std::size_t n, double rc, std::size_t neighbours, std::uint32_t idLimit) {
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
            if (s_.id[i] >= idLimit) {  // a daughter born this step
                mx_[i] = my_[i] = mz_[i] = 0.0;
                return;
            }
            Vec<double> f{0.0, 0.0, 0.0};
            const double xi = s_.x[i], yi = s_.y[i], zi = s_.z[i], di = s_.diameter[i];
            const auto pair = [&](std::int32_t j) {
                const auto sj = static_cast<std::size_t>(j);
                if (sj == i || sj >= neighbours || s_.id[sj] >= idLimit) return;
                const Vec<double> c{xi - s_.x[sj], yi - s_.y[sj], zi - s_.z[sj]};
                if (!(squaredNorm(c) < rc2)) return;
                const Vec<double> fij = pairForce<double>(c, di, s_.diameter[sj], k, contact, step,
                                                          s_.id[i], s_.id[sj]);
                f.x += fij.x;
                f.y += fij.y;
                f.z += fij.z;
            };
            // The kd-tree's radius: the grid's cutoff (at least rc) and a float ulp's margin,
            // so that its candidates hold every pair within rc in double.
            if (kdTree())
                kdTree_.forEachWithin(xf_[i], yf_[i], zf_[i],
                                      view.geometry.cutoff * (1.0f + 1e-5f) + 1e-3f, pair);
            else
                grid::forEachNeighbor(view, grid::Vec3{xf_[i], yf_[i], zf_[i]},
                                      view.geometry.cutoff,
                                      [&](std::int32_t j, grid::Vec3, float) { pair(j); });
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
            s_.force[i] = static_cast<float>(rootOf(squaredNorm(f)));
        });
    }

    // Gathers every per-cell array into the grid's Morton order (the order of this step's
    // binning; the moves since are smaller than a grid cell).
    // Only the slots below `cells` are kept (the ghosts after them are dropped).
    void reorder(std::size_t cells) {
        const std::vector<std::int32_t>& all = grid_.sortedIndex();
        const std::vector<std::int32_t>* ordered = &all;
        if (cells < all.size()) {
            kept_.clear();
            for (std::int32_t k : all)
                if (static_cast<std::size_t>(k) < cells) kept_.push_back(k);
            ordered = &kept_;
        }
        const std::vector<std::int32_t>& order = *ordered;
        auto gather = [&](auto& v) {
            auto out = v;
            out.resize(order.size());
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
        forces(n, rc, n, UINT32_MAX);
        moveAndAdvance(n, born);
        if (s_.step % static_cast<std::uint64_t>(p_.sortEvery) == 0) reorder(s_.size());
    }

    // ---- Over ranks ----

    bool distributed() const { return comm_ != nullptr && comm_->size() > 1; }

    std::vector<double> axisCoords() const {
        const std::vector<double>& v = cuts_.axis == 0 ? s_.x : cuts_.axis == 1 ? s_.y : s_.z;
        return v;
    }
    double coordOf(std::size_t i) const {
        return cuts_.axis == 0 ? s_.x[i] : cuts_.axis == 1 ? s_.y[i] : s_.z[i];
    }

    // Every rank made the same initial population: each keeps its slab's cells.
    void splitInitial() {
        nGlobal_ = s_.size();
        s_ = splitWhole(*comm_, s_, cuts_);
        counts_ = rankCounts(*comm_, s_.size());
        rebalances_ = 0;
        haloSeconds_ = 0.0;
    }

    // Slot `from` to slot `to` (to <= from), for compaction in place.
    void moveSlot(std::size_t from, std::size_t to) {
        if (from == to) return;
        s_.x[to] = s_.x[from];
        s_.y[to] = s_.y[from];
        s_.z[to] = s_.z[from];
        s_.diameter[to] = s_.diameter[from];
        s_.volume[to] = s_.volume[from];
        s_.id[to] = s_.id[from];
        s_.root[to] = s_.root[from];
        s_.generation[to] = s_.generation[from];
        s_.birthStep[to] = s_.birthStep[from];
        s_.force[to] = s_.force[from];
    }

    // Cells whose centre left this rank's slab go to their owners; theirs arrive here (after
    // the cells that stayed, in rank order).
    void migrate() {
        const int me = comm_->rank();
        std::vector<std::vector<CellRecord>> out(static_cast<std::size_t>(comm_->size()));
        std::size_t k = 0;
        for (std::size_t i = 0; i < s_.size(); ++i) {
            const int owner = cuts_.owner(coordOf(i));
            if (owner == me)
                moveSlot(i, k++);
            else
                out[static_cast<std::size_t>(owner)].push_back(recordOf(s_, i));
        }
        s_.resize(k);
        const auto t0 = std::chrono::steady_clock::now();
        const std::vector<CellRecord> in = exchangeRecords(*comm_, out);
        haloSeconds_ +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        for (const CellRecord& r : in)
            appendRecord(s_, r);
    }

    // The other ranks' cells within rc of this slab (not newborns: they exert no force this
    // step), appended after this rank's `cells`.
    void receiveGhosts(double rc, std::uint32_t idLimit) {
        const int me = comm_->rank();
        std::vector<std::vector<CellRecord>> out(static_cast<std::size_t>(comm_->size()));
        const std::size_t cells = s_.size();
        for (std::size_t i = 0; i < cells; ++i) {
            if (s_.id[i] >= idLimit) continue;
            const double v = coordOf(i);
            // Every slab meeting [v - rc, v + rc] holds a cell that may be within rc.
            const int lo = cuts_.owner(v - rc), hi = cuts_.owner(v + rc);
            for (int p = lo; p <= hi; ++p)
                if (p != me) out[static_cast<std::size_t>(p)].push_back(recordOf(s_, i));
        }
        const auto t0 = std::chrono::steady_clock::now();
        const std::vector<CellRecord> in = exchangeRecords(*comm_, out);
        haloSeconds_ +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        for (const CellRecord& r : in)
            appendRecord(s_, r);
    }

    // The step of spheres_model.hpp over the ranks: the same rc (a global max), the same
    // daughters and ids (ranked among every rank's dividing cells), forces from this rank's
    // cells and the ghosts. Migration follows biology, so every cell sits in its owner's slab
    // when ghosts are chosen.
    void stepOnRanks() {
        dist::Communicator& comm = *comm_;
        const std::size_t n = s_.size();
        double rc = interactionRadius();  // this rank's largest diameter when 0
        if (!(p_.interactionRadius > 0.0))
            comm.allreduce(std::span<double>(&rc, 1), dist::ReduceOp::Max);
        // Divisions: flagged here, ranked among all ranks' by id.
        dividing_.clear();
        if (p_.growth)
            for (std::size_t i = 0; i < n; ++i)
                if (s_.volume[i] > p_.divisionVolume) dividing_.push_back(s_.id[i]);
        const std::vector<std::uint32_t> all = globalDividingIds(comm, dividing_);
        const std::size_t bornHere = dividing_.size(), born = all.size();
        // A step beyond capacity.max_cells is refused on every rank alike (global counts).
        (void)capacityFor(p_, s_.step, nGlobal_, born, nGlobal_ + born);
        ensureCapacity(n, bornHere);
        const auto idLimit = static_cast<std::uint32_t>(nGlobal_);
        if (p_.growth) {
            daughterSlot_.assign(n, -1);
            std::size_t k = n;
            for (std::size_t i = 0; i < n; ++i)
                if (s_.volume[i] > p_.divisionVolume)
                    daughterSlot_[i] = static_cast<std::int32_t>(k++);
            s_.resize(n + bornHere);
            biologyOnRanks(n, all, idLimit);
        }
        nGlobal_ += born;
        migrate();
        const std::size_t cells = s_.size();
        receiveGhosts(rc, idLimit);
        const std::size_t total = s_.size();
        buildGrid(total, rc);
        forces(cells, rc, total, idLimit);
        moveAndAdvance(cells, born);
        if (s_.step % static_cast<std::uint64_t>(p_.sortEvery) == 0) {
            reorder(cells);
            rebalance();
        } else {
            s_.resize(cells);
        }
    }

    // Growth and division as in biology(), the daughter of the cell in slot i at
    // daughterSlot_[i] with id N + its parent's rank in `all` (every rank's dividing ids).
    void biologyOnRanks(std::size_t n, const std::vector<std::uint32_t>& all,
                        std::uint32_t idLimit) {
        const rng::Philox gen(seed_, kDivisionStream);
        const std::uint64_t step = s_.step;
        parallelFor(n, [&](std::size_t i) {
            const std::uint32_t id = s_.id[i];
            if (daughterSlot_[i] < 0) {
                s_.volume[i] = grownVolume(s_.volume[i], p_.growthPerStep, p_.volumeFloor);
                s_.diameter[i] = diameterOf(s_.volume[i]);
                return;
            }
            const DivisionDraw draw = divisionDraw(gen, step, id, p_.ratioMin, p_.ratioMax);
            const auto k = static_cast<std::size_t>(daughterSlot_[i]);
            const auto rank = static_cast<std::uint32_t>(
                std::lower_bound(all.begin(), all.end(), id) - all.begin());
            divideInto(i, k, step, draw, idLimit + rank);
        });
    }

    // The balance rule (docs/SPHERES.md): every sort interval, when the largest rank's share
    // exceeds the mean by more than kBalanceThreshold, the cuts are recomputed from the
    // histogram of all positions and the cells migrate at once. Same decision on every rank.
    void rebalance() {
        counts_ = rankCounts(*comm_, s_.size());
        if (!unbalanced(counts_)) return;
        cuts_ = balancedCuts(*comm_, cuts_.axis, s_.boxLo, s_.boxHi, axisCoords());
        migrate();
        ++rebalances_;
        counts_ = rankCounts(*comm_, s_.size());
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
    KdTreeSearch kdTree_;  // mechanics.neighbour_search = kdtree
    ViewBuffers viewBuffers_;
    // Over ranks (null comm_: one rank, the step above).
    dist::Communicator* comm_ = nullptr;
    SlabCuts cuts_;
    std::uint64_t nGlobal_ = 0, rebalances_ = 0;
    std::vector<std::uint64_t> counts_;
    std::vector<std::int32_t> kept_, daughterSlot_;
    std::vector<std::uint32_t> dividing_;
    double haloSeconds_ = 0.0;
};

}  // namespace

std::unique_ptr<Model> makeCpuModel() {
    return std::make_unique<CpuSpheres>();
}

}  // namespace cf::spheres
