// SPDX-License-Identifier: GPL-3.0-or-later
// CPU reference backend of `cardiac`: the cell program (an interpreter over the checked
// model, double precision) at every node, then explicit diffusion of the potential with
// mirrored no-flux boundaries (cardiac_model.hpp). States are stored node by node.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <string>

#include "sim/core/parallel.hpp"
#include "sim/models/cardiac/cardiac_model.hpp"

namespace cf::cardiac {

namespace {

constexpr double kNotActivated = -1.0;

class CpuCardiac final : public Model {
public:
    Backend backend() const override { return Backend::Cpu; }

    void reset(const ParamSet& params,
               std::uint32_t /*seed: the model is deterministic*/) override {
        CardiacParams p = checkedParams(params);
        std::unique_ptr<CellProgram> program = loadCellProgram(p);  // throws before changes
        p_ = std::move(p);
        program_ = std::move(program);
        nodes_ = static_cast<std::size_t>(p_.nx) * p_.ny * p_.nz;
        states_ = program_->stateCount();
        potential_ =
            static_cast<std::size_t>(program_->model().stateOf(program_->model().potential));
        const std::vector<double> y0 = program_->initialStates();
        y_.resize(nodes_ * states_);
        for (std::size_t n = 0; n < nodes_; ++n)
            std::copy(y0.begin(), y0.end(), y_.begin() + static_cast<std::ptrdiff_t>(n * states_));
        activation_.assign(nodes_, kNotActivated);
        vBefore_.resize(nodes_);
        v_.resize(nodes_);
        vNext_.resize(nodes_);
        step_ = 0;
        time_ = 0.0;
    }

    void setLiveParameters(const ParamSet& params) override {
        CardiacParams next = checkedParams(params);
        std::vector<double> values = program_->parameters();
        // Values absent from the new text go back to the model's defaults.
        for (std::size_t k = 0; k < values.size(); ++k)
            program_->parameters()[k] =
                program_->model()
                    .vars[static_cast<std::size_t>(program_->model().params[k])]
                    .initial;
        try {
            applyParameterValues(next.parameterValues, *program_);
        } catch (...) {
            program_->parameters() = values;
            throw;
        }
        next.modelFile = p_.modelFile;  // structural
        next.nx = p_.nx;
        next.ny = p_.ny;
        next.nz = p_.nz;
        next.dx = p_.dx;
        p_ = std::move(next);
    }

    void advance(std::uint64_t steps) override {
        for (std::uint64_t s = 0; s < steps; ++s)
            stepOnce();
    }

    std::uint64_t step() const override { return step_; }
    double time() const override { return time_; }

    std::vector<Metric> metrics() override {
        double sum = 0.0, latest = 0.0;
        std::size_t activated = 0;
        for (std::size_t n = 0; n < nodes_; ++n) {
            sum += y_[n * states_ + potential_];
            if (activation_[n] >= 0.0) {
                ++activated;
                latest = std::max(latest, activation_[n]);
            }
        }
        const std::size_t centre = index(p_.nx / 2, p_.ny / 2, p_.nz / 2);
        const double nodes = static_cast<double>(nodes_);
        return {{"v_mean", "mV", sum / nodes},
                {"v_centre", "mV", y_[centre * states_ + potential_]},
                {"activated", "1", static_cast<double>(activated) / nodes},
                {"last_activation", "ms", latest}};
    }

    Snapshot snapshot() override {
        Snapshot out;
        out.step = step_;
        out.time = time_;
        out.timeUnit = "ms";
        tissueBox(p_, out.boxLo, out.boxHi);
        out.gridDims[0] = static_cast<std::size_t>(p_.nx);
        out.gridDims[1] = static_cast<std::size_t>(p_.ny);
        out.gridDims[2] = static_cast<std::size_t>(p_.nz);
        const CheckedModel& m = program_->model();
        std::vector<double> column(nodes_);
        for (std::size_t s = 0; s < states_; ++s) {
            for (std::size_t n = 0; n < nodes_; ++n)
                column[n] = y_[n * states_ + s];
            const Variable& v = m.vars[static_cast<std::size_t>(m.states[s].var)];
            out.fields.push_back(Field::of<double>(v.name, v.unit.empty() ? "1" : v.unit,
                                                   FieldRole::Grid, 1,
                                                   std::span<const double>(column)));
        }
        out.fields.push_back(Field::of<double>("activation_time", "ms", FieldRole::Grid, 1,
                                               std::span<const double>(activation_)));
        return out;
    }

    void restore(const Snapshot& snapshot) override {
        const CheckedModel& m = program_->model();
        for (int a = 0; a < 3; ++a) {
            const int n[3] = {p_.nx, p_.ny, p_.nz};
            if (snapshot.gridDims[a] != static_cast<std::size_t>(n[a]))
                throw IoError("cardiac: the snapshot's grid is " +
                              std::to_string(snapshot.gridDims[0]) + " x " +
                              std::to_string(snapshot.gridDims[1]) + " x " +
                              std::to_string(snapshot.gridDims[2]) +
                              " nodes; the parameters give " + std::to_string(p_.nx) + " x " +
                              std::to_string(p_.ny) + " x " + std::to_string(p_.nz));
        }
        std::vector<double> y(nodes_ * states_);
        for (std::size_t s = 0; s < states_; ++s) {
            const std::string& name = m.vars[static_cast<std::size_t>(m.states[s].var)].name;
            const Field* f = snapshot.find(name);
            if (f == nullptr)
                throw IoError("cardiac: the snapshot has no field for state '" + name + "'");
            if (f->count != nodes_)
                throw IoError("cardiac: field '" + name + "' has " + std::to_string(f->count) +
                              " values, expected " + std::to_string(nodes_));
            const std::vector<double> column = f->as<double>();
            for (std::size_t n = 0; n < nodes_; ++n)
                y[n * states_ + s] = column[n];
        }
        std::vector<double> activation(nodes_, kNotActivated);
        if (const Field* f = snapshot.find("activation_time"); f != nullptr && f->count == nodes_)
            activation = f->as<double>();
        y_ = std::move(y);
        activation_ = std::move(activation);
        step_ = snapshot.step;
        time_ = snapshot.time;
    }

    ModelViews views() override {
        viewV_.resize(nodes_);
        viewActivation_.resize(nodes_);
        for (std::size_t n = 0; n < nodes_; ++n) {
            viewV_[n] = static_cast<float>(y_[n * states_ + potential_]);
            viewActivation_[n] = static_cast<float>(activation_[n]);
        }
        ModelViews v;
        tissueBox(p_, v.boxLo, v.boxHi);
        for (int a = 0; a < 3; ++a) {
            v.focusLo[a] = v.boxLo[a];
            v.focusHi[a] = v.boxHi[a];
        }
        VolumeView vol;
        vol.name = "tissue";
        vol.space = MemorySpace::Host;
        vol.dims[0] = p_.nx;
        vol.dims[1] = p_.ny;
        vol.dims[2] = p_.nz;
        tissueBox(p_, vol.lo, vol.hi);
        const CheckedModel& m = program_->model();
        const double rest = m.vars[static_cast<std::size_t>(m.potential)].initial;
        // An action potential spans about 120 mV above rest: a fixed range, so that colours
        // mean the same potential in every frame.
        vol.scalars.push_back({"V", "mV", viewV_.data(), rest - 5.0, rest + 120.0});
        vol.scalars.push_back(
            {"activation_time", "ms", viewActivation_.data(), 0.0, std::max(time_, 1e-3)});
        v.volumes.push_back(std::move(vol));
        return v;
    }

    void checkFinite() override {}  // every step checks its states (stepOnce)

private:
    std::size_t index(int i, int j, int k) const {
        return static_cast<std::size_t>(i) +
               static_cast<std::size_t>(p_.nx) *
                   (static_cast<std::size_t>(j) + static_cast<std::size_t>(p_.ny) * k);
    }

    void stepOnce() {
        const double t = time_, dt = p_.dt;
        const bool pulse = pulseOn(p_, t);
        const double amplitude = p_.amplitude, zero = 0.0;
        std::atomic<std::size_t> firstBad{nodes_};
        parallelFor(
            nodes_,
            [&](std::size_t n) {
                thread_local CellProgram::Workspace w;
                double* y = &y_[n * states_];
                vBefore_[n] = y[potential_];
                const int i = static_cast<int>(n % static_cast<std::size_t>(p_.nx));
                const int j = static_cast<int>((n / static_cast<std::size_t>(p_.nx)) %
                                               static_cast<std::size_t>(p_.ny));
                const int k = static_cast<int>(n / (static_cast<std::size_t>(p_.nx) * p_.ny));
                const bool stimulated = pulse && inStimulusRegion(p_, i, j, k);
                program_->step(y, t, dt, stimulated ? &amplitude : &zero, w);
                for (std::size_t s = 0; s < states_; ++s)
                    if (!std::isfinite(y[s])) {
                        std::size_t seen = firstBad.load();
                        while (n < seen && !firstBad.compare_exchange_weak(seen, n)) {
                        }
                        break;
                    }
            },
            1024);
        if (firstBad.load() < nodes_) reportNonFinite(firstBad.load());
        diffuse();
        const double theta = p_.activationThreshold;
        for (std::size_t n = 0; n < nodes_; ++n) {
            const double before = vBefore_[n], after = y_[n * states_ + potential_];
            if (activation_[n] < 0.0 && before < theta && after >= theta)
                activation_[n] = t + dt * (theta - before) / (after - before);
        }
        ++step_;
        time_ += dt;
    }

    // Explicit diffusion of the potential (after the cell step), in sub-steps.
    void diffuse() {
        const int n[3] = {p_.nx, p_.ny, p_.nz};
        double coeff[3];
        for (int a = 0; a < 3; ++a)
            coeff[a] = n[a] > 1 ? (a == p_.fibreAxis ? p_.diffusionLong : p_.diffusionTrans) /
                                      (p_.dx * p_.dx)
                                : 0.0;
        if (coeff[0] == 0.0 && coeff[1] == 0.0 && coeff[2] == 0.0) return;
        const int substeps = diffusionSubsteps(p_);
        const double h = p_.dt / substeps;
        for (std::size_t m = 0; m < nodes_; ++m)
            vNext_[m] = y_[m * states_ + potential_];
        const std::size_t stride[3] = {1, static_cast<std::size_t>(n[0]),
                                       static_cast<std::size_t>(n[0]) * n[1]};
        for (int sub = 0; sub < substeps; ++sub) {
            v_.swap(vNext_);  // v_: the potential before this sub-step
            parallelFor(
                nodes_,
                [&](std::size_t m) {
                    const std::size_t at[3] = {m % stride[1], (m / stride[1]) % n[1],
                                               m / stride[2]};
                    double lap = 0.0;
                    for (int a = 0; a < 3; ++a) {
                        if (coeff[a] == 0.0) continue;
                        // Mirror: the ghost beyond a boundary node equals its inner neighbour.
                        const std::size_t lower = at[a] > 0 ? m - stride[a] : m + stride[a];
                        const std::size_t upper = at[a] + 1 < static_cast<std::size_t>(n[a])
                                                      ? m + stride[a]
                                                      : m - stride[a];
                        lap += coeff[a] * (v_[lower] + v_[upper] - 2.0 * v_[m]);
                    }
                    vNext_[m] = v_[m] + h * lap;
                },
                4096);
        }
        for (std::size_t m = 0; m < nodes_; ++m)
            y_[m * states_ + potential_] = vNext_[m];
    }

    void reportNonFinite(std::size_t node) const {
        const CheckedModel& m = program_->model();
        const double* y = &y_[node * states_];
        std::size_t s = 0;
        while (s < states_ && std::isfinite(y[s]))
            ++s;
        const std::size_t i = node % static_cast<std::size_t>(p_.nx);
        const std::size_t j =
            (node / static_cast<std::size_t>(p_.nx)) % static_cast<std::size_t>(p_.ny);
        const std::size_t k = node / (static_cast<std::size_t>(p_.nx) * p_.ny);
        char when[64];
        std::snprintf(when, sizeof when, "%.6g", time_ + p_.dt);
        throw SimulationError("cardiac: state '" +
                              m.vars[static_cast<std::size_t>(m.states[s].var)].name +
                              "' of cell " + std::to_string(node) + " (i=" + std::to_string(i) +
                              ", j=" + std::to_string(j) + ", k=" + std::to_string(k) + ") is " +
                              (std::isnan(y[s]) ? "NaN" : "infinite") + " at step " +
                              std::to_string(step_ + 1) + " (t = " + when + " ms)");
    }

    CardiacParams p_{};
    std::unique_ptr<CellProgram> program_;
    std::size_t nodes_ = 0, states_ = 0, potential_ = 0;
    std::vector<double> y_;           // nodes x states
    std::vector<double> activation_;  // ms; -1 before the first crossing
    std::vector<double> vBefore_;     // the potential at the start of the step
    std::vector<double> v_, vNext_;   // diffusion scratch
    std::vector<float> viewV_, viewActivation_;
    std::uint64_t step_ = 0;
    double time_ = 0.0;
};

}  // namespace

std::unique_ptr<Model> makeCpuModel() {
    return std::make_unique<CpuCardiac>();
}

}  // namespace cf::cardiac
