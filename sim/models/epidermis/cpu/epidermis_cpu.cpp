// SPDX-License-Identifier: GPL-3.0-or-later
// CPU reference backend of `epidermis`: the step of epidermis_model.hpp written as
// obvious loops, forces and the gene network in double, positions and species stored in
// float. Every per-element and per-cell result is computed by one thread from inputs that
// no other thread writes, and every sum runs in a fixed order (cells ascending, elements
// ascending), so results do not depend on the thread count or on the neighbour method.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "sim/core/parallel.hpp"
#include "sim/grid/uniform_grid_cpu.hpp"
#include "sim/models/epidermis/epidermis_model.hpp"
#include "sim/models/epidermis/epidermis_physics.hpp"
#include "sim/models/epidermis/epidermis_views.hpp"
#include "sim/models/epidermis/growth_rule.hpp"

namespace cf::epidermis {

namespace {

std::size_t idx(std::int32_t i) {
    return static_cast<std::size_t>(i);
}

// Stores a double coordinate as float, wrapped into [0, L) on a periodic axis. Rounding
// to float can land on L (or a hair below 0 land on -0): both mean 0.
float storeWrapped(double v, float L, bool periodic) {
    if (!periodic) return static_cast<float>(v);
    const double L64 = L;
    auto f = static_cast<float>(v - L64 * std::floor(v / L64));
    if (f >= L || f < 0.0f) f = 0.0f;
    return f;
}

// Read-only element coordinates of one configuration (X or X1).
struct Coords {
    const float* x;
    const float* y;
    const float* z;
};

// Positions of all element slots (one stage's output).
struct Positions {
    std::vector<float> x, y, z;
    void resize(std::size_t n) {
        x.resize(n);
        y.resize(n);
        z.resize(n);
    }
};

struct Geometries {
    grid::GridGeometry metric;  // minimum image only (every method)
    grid::GridGeometry grid;    // the centre grid (grid method)
};

bool exactCull(const EpidermisParams& p) {
    return p.cullRule == static_cast<int>(CullRule::Exact);
}
bool useGrid(const EpidermisParams& p) {
    return p.neighborMethod == static_cast<int>(NeighborMethod::Grid);
}

// Throws cf::Error when the grid cannot be built (before any state is replaced).
Geometries makeGeometries(const EpidermisParams& p) {
    const float lo[3] = {0.0f, 0.0f, 0.0f};
    const float hi[3] = {p.sizeX, p.sizeY, p.height};
    const bool periodic[3] = {p.periodic, p.periodic, false};
    Geometries g;
    // The centre-distance tests use the grid's float minimum image (no FMA) on every
    // method, so center and grid classify each pair identically, as the device can too.
    for (int a = 0; a < 3; ++a) {
        g.metric.length[a] = hi[a] - lo[a];
        g.metric.invLength[a] = static_cast<float>(1.0 / static_cast<double>(hi[a] - lo[a]));
        g.metric.periodic[a] = periodic[a];
    }
    if (useGrid(p)) {
        // The exact cull's reach for two cells at the radius bound, summed as in keepPair()
        // so the grid never drops a pair the cull keeps (float addition is monotone).
        const float forceCut =
            exactCull(p)
                ? addNoFma(addNoFma(p.interDist, addNoFma(p.radiusBound, p.radiusBound)), p.skin)
                : p.interDist;
        g.grid = grid::makeGridGeometry(lo, hi, std::max(forceCut, p.neighborDist), periodic);
    }
    return g;
}

class CpuEpidermis final : public Model, public StateArrayProvider {
public:
    Backend backend() const override { return Backend::Cpu; }

    void reset(const ParamSet& params, std::uint32_t seed) override {
        const EpidermisParams p = checkedParams(params);
        const Geometries g = makeGeometries(p);
        HostState s = initialState(p, seed);
        // Commit only after everything that can throw has succeeded.
        install(p, g);
        inEffect_ = params;
        dt_ = params.real("time.dt");
        state_ = std::move(s);
        resizeBuffers();
        computeCentres(stateCoords());
    }

    void setLiveParameters(const ParamSet& params) override {
        // Live values from `params`, structural ones as in effect, validated together.
        ParamSet merged = withLiveValues(inEffect_, params);
        const EpidermisParams p = checkedParams(merged);  // a refusal changes nothing
        install(p, makeGeometries(p));
        dt_ = merged.real("time.dt");
        inEffect_ = std::move(merged);
    }

    void advance(std::uint64_t steps) override {
        for (std::uint64_t k = 0; k < steps; ++k)
            stepOnce();
    }

    std::uint64_t step() const override { return state_.step; }
    double time() const override { return state_.time; }

    std::vector<Metric> metrics() override {
        computeCentres(stateCoords());
        const auto n = static_cast<std::ptrdiff_t>(state_.cells);
        const CellCentres centres{{cx_.begin(), cx_.begin() + n},
                                  {cy_.begin(), cy_.begin() + n},
                                  {cz_.begin(), cz_.begin() + n}};
        return hostMetrics(p_, state_, centres);
    }

    Snapshot snapshot() override { return makeSnapshot(p_, state_); }

    std::vector<StateArray> stateArrays() override {
        return stateArraysOf(
            {state_.capacity, state_.slotsPerCell, state_.cells, state_.x.data(), state_.y.data(),
             state_.z.data(), state_.type.data(), state_.count.data(), state_.species.data()},
            MemorySpace::Host);
    }

    void restore(const Snapshot& snapshot) override {
        state_ = readSnapshot(p_, snapshot);
        resizeBuffers();
        computeCentres(stateCoords());
    }

    ModelViews views() override {
        computeCentres(stateCoords());  // current even right after a division
        return hostViews(p_, state_, cx_.data(), cy_.data(), cz_.data(), radius_.data(),
                         viewBuffers_);
    }

    void checkFinite() override {
        const char* axis[3] = {"x", "y", "z"};
        for (std::int32_t c = 0; c < state_.cells; ++c)
            for (std::int32_t e = 0; e < state_.count[idx(c)]; ++e) {
                const std::size_t i = state_.slot(c, e);
                const float v[3] = {state_.x[i], state_.y[i], state_.z[i]};
                for (int a = 0; a < 3; ++a)
                    if (!std::isfinite(v[a]))
                        throw SimulationError("epidermis: non-finite position." +
                                              std::string(axis[a]) + " = " + std::to_string(v[a]) +
                                              " of element " + std::to_string(e) + " of cell " +
                                              std::to_string(c) + " at step " +
                                              std::to_string(state_.step));
            }
        for (std::int32_t c = 0; c < state_.cells; ++c)
            for (int k = 0; k < kSpeciesCount; ++k)
                if (!std::isfinite(state_.s(k, c)))
                    throw SimulationError(
                        "epidermis: non-finite species " + std::string(speciesName(k)) + " = " +
                        std::to_string(state_.s(k, c)) + " of cell " + std::to_string(c) +
                        " at step " + std::to_string(state_.step));
    }

private:
    Coords stateCoords() const { return {state_.x.data(), state_.y.data(), state_.z.data()}; }

    bool useGrid() const { return epidermis::useGrid(p_); }
    bool exactCull() const { return epidermis::exactCull(p_); }

    // Installs parameters whose geometry has been built (nothing here throws).
    void install(const EpidermisParams& p, const Geometries& g) {
        p_ = p;
        metric_ = g.metric;
        geometry_ = g.grid;
    }

    void resizeBuffers() {
        const auto cap = idx(state_.capacity);
        const std::size_t slots = cap * idx(state_.slotsPerCell);
        stage1_.resize(slots);
        next_.resize(slots);
        cx_.resize(cap);
        cy_.resize(cap);
        cz_.resize(cap);
        radius_.resize(cap);
        avgD_.resize(cap);
        candidates_.resize(cap);
    }

    // Step 1: centre = element 0 + mean minimum-image offset of the elements from element
    // 0, wrapped; radius = largest element distance from the (float) centre.
    void computeCentres(const Coords& X) {
        const float* x = X.x;
        const float* y = X.y;
        const float* z = X.z;
        const bool per = p_.periodic;
        const double Lx = p_.sizeX, Ly = p_.sizeY;
        parallelFor(
            idx(state_.cells),
            [&](std::size_t c) {
                const auto cell = static_cast<std::int32_t>(c);
                const std::int32_t n = state_.count[c];
                if (n <= 0) {
                    cx_[c] = cy_[c] = cz_[c] = radius_[c] = 0.0f;
                    return;
                }
                const std::size_t i0 = state_.slot(cell, 0);
                const double x0 = x[i0], y0 = y[i0], z0 = z[i0];
                double sx = 0.0, sy = 0.0, sz = 0.0;
                for (std::int32_t e = 0; e < n; ++e) {
                    const std::size_t i = state_.slot(cell, e);
                    sx += wrapDelta(x[i] - x0, Lx, per);
                    sy += wrapDelta(y[i] - y0, Ly, per);
                    sz += z[i] - z0;
                }
                cx_[c] = storeWrapped(x0 + sx / n, p_.sizeX, per);
                cy_[c] = storeWrapped(y0 + sy / n, p_.sizeY, per);
                cz_[c] = static_cast<float>(z0 + sz / n);
                double r2max = 0.0;
                for (std::int32_t e = 0; e < n; ++e) {
                    const std::size_t i = state_.slot(cell, e);
                    const double dx = wrapDelta(x[i] - static_cast<double>(cx_[c]), Lx, per);
                    const double dy = wrapDelta(y[i] - static_cast<double>(cy_[c]), Ly, per);
                    const double dz = z[i] - static_cast<double>(cz_[c]);
                    r2max = std::max(r2max, dx * dx + dy * dy + dz * dz);
                }
                radius_[c] = static_cast<float>(std::sqrt(r2max));
            },
            256);
    }

    grid::Vec3 centre(std::int32_t c) const { return {cx_[idx(c)], cy_[idx(c)], cz_[idx(c)]}; }

    // Cell-pair test of center/grid given the squared centre distance (float, no FMA).
    bool keepPair(std::int32_t a, std::int32_t b, float r2) const {
        const float t =
            exactCull()
                ? addNoFma(addNoFma(p_.interDist, addNoFma(radius_[idx(a)], radius_[idx(b)])),
                           p_.skin)
                : p_.interDist;
        return r2 <= mulNoFma(t, t);
    }

    void buildCentreGrid() {
        grid_.build(geometry_, grid::PointsView{cx_.data(), cy_.data(), cz_.data(), state_.cells});
    }

    // The cells b != a whose elements enter a's intercellular sum, ascending.
    void findCandidates() {
        if (p_.neighborMethod == static_cast<int>(NeighborMethod::Naive)) return;
        if (useGrid()) {
            for (std::int32_t c = 0; c < state_.cells; ++c)
                if (radius_[idx(c)] > p_.radiusBound)
                    throw SimulationError(
                        "epidermis: cell " + std::to_string(c) + " has radius " +
                        std::to_string(radius_[idx(c)]) + " at step " +
                        std::to_string(state_.step) +
                        ", beyond mechanics.radius_bound = " + std::to_string(p_.radiusBound) +
                        ": the grid search would miss element pairs; raise "
                        "mechanics.radius_bound or use mechanics.neighbor_method = center");
            buildCentreGrid();
        }
        const grid::GridView view = useGrid() ? grid_.view() : grid::GridView{};
        parallelFor(
            idx(state_.cells),
            [&](std::size_t c) {
                const auto a = static_cast<std::int32_t>(c);
                std::vector<std::int32_t>& out = candidates_[c];
                out.clear();
                if (useGrid()) {
                    grid::forEachNeighbor(view, centre(a), geometry_.cutoff,
                                          [&](std::int32_t b, grid::Vec3, float r2) {
                                              if (b != a && keepPair(a, b, r2)) out.push_back(b);
                                          });
                    std::sort(out.begin(), out.end());
                } else {
                    for (std::int32_t b = 0; b < state_.cells; ++b) {
                        if (b == a) continue;
                        const float r2 =
                            grid::squaredLength(grid::displacement(metric_, centre(a), centre(b)));
                        if (keepPair(a, b, r2)) out.push_back(b);
                    }
                }
            },
            64);
    }

    // Step 2 at positions `at` (whose centres are current), then out = base + h f(at),
    // clamped and wrapped.
    void stage(const Coords& at, const Coords& base, double h, Positions& out) {
        const bool per = p_.periodic;
        const double Lx = p_.sizeX, Ly = p_.sizeY;
        const double cutoff = p_.interDist;
        const bool naive = p_.neighborMethod == static_cast<int>(NeighborMethod::Naive);
        const auto E = static_cast<std::int32_t>(state_.slotsPerCell);
        parallelFor(
            idx(state_.cells) * idx(E),
            [&](std::size_t i) {
                const auto a = static_cast<std::int32_t>(i / idx(E));
                const auto e = static_cast<std::int32_t>(i % idx(E));
                if (e >= state_.count[idx(a)]) return;
                const double xi = at.x[i], yi = at.y[i], zi = at.z[i];
                double fx = 0.0, fy = 0.0, fz = 0.0;
                for (std::int32_t k = 0; k < state_.count[idx(a)]; ++k) {
                    if (k == e) continue;
                    const std::size_t j = state_.slot(a, k);
                    const double dx = wrapDelta(xi - at.x[j], Lx, per);
                    const double dy = wrapDelta(yi - at.y[j], Ly, per);
                    const double dz = zi - at.z[j];
                    const double v = intraCoefficient(p_, std::sqrt(dx * dx + dy * dy + dz * dz));
                    fx += v * dx;
                    fy += v * dy;
                    fz += v * dz;
                }
                auto interWith = [&](std::int32_t b) {
                    for (std::int32_t k = 0; k < state_.count[idx(b)]; ++k) {
                        const std::size_t j = state_.slot(b, k);
                        const double dx = wrapDelta(xi - at.x[j], Lx, per);
                        const double dy = wrapDelta(yi - at.y[j], Ly, per);
                        const double dz = zi - at.z[j];
                        const double r = std::sqrt(dx * dx + dy * dy + dz * dz);
                        if (r > cutoff) continue;
                        const double v = interCoefficient(p_, r);
                        fx += v * dx;
                        fy += v * dy;
                        fz += v * dz;
                    }
                };
                if (naive) {
                    for (std::int32_t b = 0; b < state_.cells; ++b)
                        if (b != a) interWith(b);
                } else {
                    for (const std::int32_t b : candidates_[idx(a)])
                        interWith(b);
                }
                // Basement membrane at z = 0 (A.5): intracellular law along z only.
                if (state_.type[i] == 1) fz += intraCoefficient(p_, std::abs(zi)) * zi;
                double nz = base.z[i] + h * fz;
                if (p_.hardZ) nz = std::max(nz, 0.0);
                out.x[i] = storeWrapped(base.x[i] + h * fx, p_.sizeX, per);
                out.y[i] = storeWrapped(base.y[i] + h * fy, p_.sizeY, per);
                out.z[i] = static_cast<float>(nz);
            },
            64);
    }

    // Step 6 on the centres of X': A, neighbour means, one RK2 step of every cell.
    void networkStep6() {
        const float nd = p_.neighborDist;
        const float nd2 = mulNoFma(nd, nd);
        if (useGrid()) buildCentreGrid();
        const grid::GridView view = useGrid() ? grid_.view() : grid::GridView{};
        // Neighbour means read N, D, B of the other cells before any cell is updated, so
        // they are gathered first; A (BMA) is written before the update of each cell.
        std::vector<double> avgN(idx(state_.cells)), avgB(idx(state_.cells));
        parallelFor(
            idx(state_.cells),
            [&](std::size_t c) {
                const auto a = static_cast<std::int32_t>(c);
                std::vector<std::int32_t>& nb = candidates_[c];
                nb.clear();
                if (useGrid()) {
                    grid::forEachNeighbor(view, centre(a), nd,
                                          [&](std::int32_t b, grid::Vec3, float) {
                                              if (b != a) nb.push_back(b);
                                          });
                    std::sort(nb.begin(), nb.end());
                } else {
                    for (std::int32_t b = 0; b < state_.cells; ++b)
                        if (b != a && grid::squaredLength(
                                          grid::displacement(metric_, centre(a), centre(b))) <= nd2)
                            nb.push_back(b);
                }
                double sn = 0.0, sd = 0.0, sb = 0.0;
                for (const std::int32_t b : nb) {
                    sn += state_.s(kNotch, b);
                    sd += state_.s(kDelta, b);
                    sb += state_.s(kBound, b);
                }
                const double m = nb.empty() ? 0.0 : 1.0 / static_cast<double>(nb.size());
                avgN[c] = sn * m;
                avgD_[c] = sd * m;
                avgB[c] = sb * m;
            },
            64);
        parallelFor(
            idx(state_.cells),
            [&](std::size_t c) {
                const auto a = static_cast<std::int32_t>(c);
                double A = 0.0;
                for (std::int32_t e = 0; e < state_.count[c]; ++e) {
                    const std::size_t i = state_.slot(a, e);
                    if (state_.type[i] == 1) A += std::abs(static_cast<double>(state_.z[i]));
                }
                state_.s(kBma, a) = static_cast<float>(A);
                double s[kSpeciesCount];
                for (int k = 0; k < kSpeciesCount; ++k)
                    s[k] = state_.s(k, a);
                networkStep(p_, s, avgN[c], avgD_[c], avgB[c], static_cast<double>(p_.dt));
                for (int k = 0; k < kSpeciesCount; ++k)
                    state_.s(k, a) = static_cast<float>(s[k]);
            },
            256);
    }

    // Step 7, at a growth step: cells in index order, on the centres of X'.
    void growAndDivide() {
        const std::int32_t before = state_.cells;
        const std::int32_t E = state_.slotsPerCell;
        std::int32_t dividing = 0;
        // Without the network D and <D> count as 0.
        std::vector<float> delta(static_cast<std::size_t>(before), 0.0f);
        if (p_.network)
            for (std::int32_t c = 0; c < before; ++c)
                delta[idx(c)] = state_.s(kDelta, c);
        const GrowthCut cut = growthCut(p_, delta);
        for (std::int32_t c = 0; c < before; ++c) {
            const float avgD = p_.network ? avgD_[idx(c)] : 0.0f;
            const bool grows = cellGrows(cut, delta[idx(c)], avgD, c);
            std::int32_t n = state_.count[idx(c)];
            if (grows && n < E) {
                const std::size_t i = state_.slot(c, n);
                state_.x[i] = cx_[idx(c)];
                state_.y[i] = cy_[idx(c)];
                state_.z[i] = cz_[idx(c)];
                state_.type[i] = 0;
                state_.count[idx(c)] = ++n;
            }
            // Also a cell restored at or above the size divides (as on the device).
            if (n >= p_.divisionElements) divide(c, before + dividing++);
        }
    }

    void divide(std::int32_t mother, std::int32_t daughter) {
        if (daughter >= state_.capacity) {
            const std::int32_t old = state_.capacity;
            state_.reserveCells(2 * old);
            resizeBuffers();
            note("cell capacity grew from " + std::to_string(old) + " to " +
                 std::to_string(state_.capacity) + " cells (" + std::to_string(state_.cells) +
                 " in use)");
        }
        const std::int32_t n = state_.count[idx(mother)];
        const std::int32_t keep = n / 2;
        for (std::int32_t e = keep; e < n; ++e) {
            const std::size_t from = state_.slot(mother, e);
            const std::size_t to = state_.slot(daughter, e - keep);
            state_.x[to] = state_.x[from];
            state_.y[to] = state_.y[from];
            state_.z[to] = state_.z[from];
            state_.type[to] = state_.type[from];
            state_.x[from] = state_.y[from] = state_.z[from] = 0.0f;
            state_.type[from] = 0;
        }
        state_.count[idx(mother)] = keep;
        state_.count[idx(daughter)] = n - keep;
        for (int k = 0; k < kSpeciesCount; ++k) {
            const float half = 0.5f * state_.s(k, mother);
            state_.s(k, mother) = half;
            state_.s(k, daughter) = half;
        }
        state_.cells = std::max(state_.cells, daughter + 1);
    }

    // The candidates of step 2 cover stage 4 only while no element moved more than skin/2.
    void checkSkin(const Coords& X, const Coords& X1) const {
        if (!exactCull() || p_.neighborMethod == static_cast<int>(NeighborMethod::Naive)) return;
        const double limit = 0.5 * static_cast<double>(p_.skin);
        for (std::int32_t c = 0; c < state_.cells; ++c) {
            for (std::int32_t e = 0; e < state_.count[idx(c)]; ++e) {
                const std::size_t i = state_.slot(c, e);
                const double dx = wrapDelta(static_cast<double>(X1.x[i]) - X.x[i],
                                            static_cast<double>(p_.sizeX), p_.periodic);
                const double dy = wrapDelta(static_cast<double>(X1.y[i]) - X.y[i],
                                            static_cast<double>(p_.sizeY), p_.periodic);
                const double dz = static_cast<double>(X1.z[i]) - X.z[i];
                if (dx * dx + dy * dy + dz * dz > limit * limit)
                    throw SimulationError(
                        "epidermis: element " + std::to_string(e) + " of cell " +
                        std::to_string(c) + " moved more than mechanics.skin/2 = " +
                        std::to_string(limit) + " in half a step at step " +
                        std::to_string(state_.step) + "; lower time.dt or raise mechanics.skin");
            }
        }
    }

    void stepOnce() {
        const double dt = p_.dt;
        const Coords X{state_.x.data(), state_.y.data(), state_.z.data()};
        const Coords X1{stage1_.x.data(), stage1_.y.data(), stage1_.z.data()};
        // 1-3: centres of X, candidate cells, X1 = X + dt/2 f(X).
        computeCentres(X);
        findCandidates();
        stage(X, X, 0.5 * dt, stage1_);
        checkSkin(X, X1);
        // 4: X' = X + dt f(X1) with the same candidates.
        stage(X1, X, dt, next_);
        state_.x.swap(next_.x);
        state_.y.swap(next_.y);
        state_.z.swap(next_.z);
        // 5: centres of X' for signalling and growth.
        computeCentres(stateCoords());
        if (p_.network) networkStep6();
        state_.step += 1;
        state_.time += dt_;
        if (p_.growth && state_.step % static_cast<std::uint64_t>(p_.growthInterval) == 0)
            growAndDivide();
    }

    EpidermisParams p_{};
    HostViewBuffers viewBuffers_;
    ParamSet inEffect_{parameterTable()};
    double dt_ = 0.0;  // the parameter's double value: simulated time does not drift
    HostState state_;

    grid::GridGeometry metric_{};
    grid::GridGeometry geometry_{};
    grid::CpuUniformGrid grid_;
    Positions stage1_, next_;
    std::vector<float> cx_, cy_, cz_, radius_;
    std::vector<double> avgD_;
    std::vector<std::vector<std::int32_t>> candidates_;
};

}  // namespace

std::unique_ptr<Model> makeCpuModel() {
    return std::make_unique<CpuEpidermis>();
}

}  // namespace cf::epidermis
