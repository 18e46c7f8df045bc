// SPDX-License-Identifier: GPL-3.0-or-later
// CPU reference backend of `brownian`: obvious loops, forces summed in double.
#include <cmath>
#include <optional>

#include "sim/core/parallel.hpp"
#include "sim/core/rng.hpp"
#include "sim/grid/uniform_grid_cpu.hpp"
#include "sim/models/brownian/brownian_model.hpp"
#include "sim/models/brownian/brownian_views.hpp"

namespace cf::brownian {

namespace {

class CpuBrownian final : public Model, public StateArrayProvider {
public:
    Backend backend() const override { return Backend::Cpu; }

    void reset(const ParamSet& params, std::uint32_t seed) override {
        p_ = checkedParams(params);
        inEffect_.emplace(params);
        dt_ = params.real("dynamics.dt");
        seed_ = seed;
        initialPositions(p_, seed, x_, y_, z_);
        const auto n = x_.size();
        dx_.assign(n, 0.0f);
        dy_.assign(n, 0.0f);
        dz_.assign(n, 0.0f);
        nx_.resize(n);
        ny_.resize(n);
        nz_.resize(n);
        overlaps_.assign(n, 0);
        const float lo[3] = {0, 0, 0};
        const float hi[3] = {p_.box, p_.box, p_.box};
        const bool periodic[3] = {true, true, true};
        geometry_ = grid::makeGridGeometry(lo, hi, 2.0f * p_.radius, periodic);
        step_ = 0;
        time_ = 0.0;
    }

    void setLiveParameters(const ParamSet& params) override {
        ParamSet merged = withLiveValues(*inEffect_, params);
        const BrownianParams next = checkedParams(merged);  // a refusal changes nothing
        p_ = next;
        dt_ = merged.real("dynamics.dt");
        inEffect_ = std::move(merged);
    }

    void advance(std::uint64_t steps) override {
        for (std::uint64_t s = 0; s < steps; ++s)
            stepOnce();
    }

    std::uint64_t step() const override { return step_; }
    double time() const override { return time_; }

    std::vector<Metric> metrics() override {
        double msd = 0.0;
        std::int64_t overlaps = 0;
        for (std::size_t i = 0; i < x_.size(); ++i) {
            msd += static_cast<double>(dx_[i]) * dx_[i] + static_cast<double>(dy_[i]) * dy_[i] +
                   static_cast<double>(dz_[i]) * dz_[i];
            overlaps += overlaps_[i];
        }
        const auto n = static_cast<double>(x_.size());
        return {{"msd", "um^2", msd / n, kMsdDescription},
                {"overlapping_pairs", "1", overlaps / 2.0, kOverlapsDescription}};
    }

    std::vector<StateArray> stateArrays() override {
        const float* xyz[3] = {x_.data(), y_.data(), z_.data()};
        const float* dxyz[3] = {dx_.data(), dy_.data(), dz_.data()};
        return stateArraysOf(x_.size(), xyz, dxyz, overlaps_.data(), MemorySpace::Host);
    }

    Snapshot snapshot() override {
        return makeSnapshot(p_, step_, time_, x_, y_, z_, dx_, dy_, dz_, overlaps_);
    }

    void restore(const Snapshot& s) override {
        HostState h = readSnapshot(p_, s);
        x_ = std::move(h.x);
        y_ = std::move(h.y);
        z_ = std::move(h.z);
        dx_ = std::move(h.dx);
        dy_ = std::move(h.dy);
        dz_ = std::move(h.dz);
        step_ = h.step;
        time_ = h.time;
        overlaps_.assign(x_.size(), 0);
    }

    ModelViews views() override { return hostViews(p_, snapshot(), viewBuffers_); }

    void checkFinite() override { checkSnapshotFinite(snapshot(), "brownian"); }

private:
    void stepOnce() {
        const grid::PointsView points{x_.data(), y_.data(), z_.data(), static_cast<int>(x_.size())};
        grid_.build(geometry_, points);
        const grid::GridView view = grid_.view();
        const double sigma = 2.0 * p_.radius;
        const double k = p_.stiffness, mu = p_.mobility, dt = p_.dt;
        const double noise = std::sqrt(2.0 * p_.diffusion * dt);
        const double box = p_.box;
        const rng::Philox gen(seed_, kNoiseStream);
        const std::uint64_t step = step_;

        parallelFor(x_.size(), [&](std::size_t i) {
            const grid::Vec3 xi{x_[i], y_[i], z_[i]};
            double fx = 0, fy = 0, fz = 0;
            std::int32_t overlaps = 0;
            grid::forEachNeighbor(view, xi, static_cast<float>(sigma),
                                  [&](std::int32_t j, grid::Vec3 d, float r2) {
                                      if (static_cast<std::size_t>(j) == i || r2 <= 0.0f) return;
                                      const double r = std::sqrt(static_cast<double>(r2));
                                      // d points from i to j: repulsion pushes i along -d.
                                      const double f = k * (sigma - r) / r;
                                      fx -= f * d.x;
                                      fy -= f * d.y;
                                      fz -= f * d.z;
                                      ++overlaps;
                                  });
            const rng::Normal2 n01 = rng::normalPair(gen(step, static_cast<std::uint32_t>(i), 0));
            const rng::Normal2 n2 = rng::normalPair(gen(step, static_cast<std::uint32_t>(i), 1));
            const double ddx = mu * fx * dt + noise * n01.a;
            const double ddy = mu * fy * dt + noise * n01.b;
            const double ddz = mu * fz * dt + noise * n2.a;
            nx_[i] = wrap(x_[i] + ddx, box);
            ny_[i] = wrap(y_[i] + ddy, box);
            nz_[i] = wrap(z_[i] + ddz, box);
            dx_[i] = static_cast<float>(dx_[i] + ddx);
            dy_[i] = static_cast<float>(dy_[i] + ddy);
            dz_[i] = static_cast<float>(dz_[i] + ddz);
            overlaps_[i] = overlaps;
        });
        x_.swap(nx_);
        y_.swap(ny_);
        z_.swap(nz_);
        ++step_;
        time_ += dt_;
    }

    // Into [0, L): positions are stored wrapped, displacements unwrapped.
    static float wrap(double v, double box) {
        v -= box * std::floor(v / box);
        const auto f = static_cast<float>(v);
        return f >= static_cast<float>(box) ? 0.0f : f;
    }

    BrownianParams p_{};
    std::optional<ParamSet> inEffect_;  // the set p_ comes from
    ViewBuffers viewBuffers_;
    std::uint32_t seed_ = 0;
    std::vector<float> x_, y_, z_, nx_, ny_, nz_, dx_, dy_, dz_;
    std::vector<std::int32_t> overlaps_;
    grid::GridGeometry geometry_{};
    grid::CpuUniformGrid grid_;
    std::uint64_t step_ = 0;
    double time_ = 0.0;
    double dt_ = 0.0;  // the parameter's double value: simulated time does not drift
};

}  // namespace

std::unique_ptr<Model> makeCpuModel() {
    return std::make_unique<CpuBrownian>();
}

}  // namespace cf::brownian
