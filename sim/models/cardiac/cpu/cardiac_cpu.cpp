// SPDX-License-Identifier: GPL-3.0-or-later
// CPU reference backend of `cardiac`: the cell program (an interpreter over the checked
// model, double precision) at every node, then explicit diffusion of the potential with
// mirrored no-flux boundaries (cardiac_model.hpp). States are stored node by node.
// Over several ranks each computes a slab of the grid (tissue_slab.hpp) and exchanges one
// halo plane of the potential per diffusion sub-step; every rank then computes what one rank
// would, node for node, so the fields are bit-identical for any rank count.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "sim/core/parallel.hpp"
#include "sim/dist/distributable.hpp"
#include "sim/models/cardiac/cardiac_model.hpp"
#include "sim/models/cardiac/cardiac_views.hpp"
#include "sim/models/cardiac/tissue_slab.hpp"
#include "sim/models/cardiac/tissue_stencil.hpp"

namespace cf::cardiac {

namespace {

class CpuCardiac final : public Model, public dist::Distributable, public StateArrayProvider {
public:
    Backend backend() const override { return Backend::Cpu; }

    void distribute(dist::Communicator& comm) override { comm_ = &comm; }
    dist::GridPiece piece() const override { return slab_.piece; }

    void reset(const ParamSet& params,
               std::uint32_t /*seed: the model is deterministic*/) override {
        CardiacParams p = checkedParams(params);
        std::unique_ptr<CellProgram> program = loadCellProgram(p);  // throws before changes
        std::vector<unsigned char> tissue = tissueMask(p);          // the same
        TissueSlab slab = tissueSlab(p, comm_);                     // the same
        ParamSet inEffect = params;
        inEffect_.emplace(std::move(inEffect));
        p_ = std::move(p);
        slab_ = slab;
        halo_ = HaloExchange(slab_, comm_);
        ownedParams_ = p_;
        ownedParams_.nx = slab_.owned[0];
        ownedParams_.ny = slab_.owned[1];
        ownedParams_.nz = slab_.owned[2];
        tissueWhole_ = std::move(tissue);
        tissue_ = ownedPart(slab_, tissueWhole_);
        tissueExtended_ = extendedPart(slab_, tissueWhole_);
        region_ = ownedPart(slab_, stimulusRegionMask(p_, tissueWhole_));
        program_ = std::move(program);
        nodes_ = slab_.ownedNodes();
        states_ = program_->stateCount();
        potential_ =
            static_cast<std::size_t>(program_->model().stateOf(program_->model().potential));
        const std::vector<double> y0 = program_->initialStates();
        y_.resize(nodes_ * states_);
        for (std::size_t n = 0; n < nodes_; ++n)
            std::copy(y0.begin(), y0.end(), y_.begin() + static_cast<std::ptrdiff_t>(n * states_));
        activation_.assign(nodes_, kNotActivated);
        vBefore_.resize(nodes_);
        v_.assign(slab_.extendedNodes(), 0.0);
        vNext_.assign(slab_.extendedNodes(), 0.0);
        findBoundary();
        step_ = 0;
        time_ = 0.0;
        meter_ = BeatMeter(p_.start, p_.cycleLength, p_.beats);
        // The beat meter follows the centre node on the rank that owns it.
        const std::size_t centre = centreNode(p_, tissueWhole_);
        centre_ = slab_.ownedIndexOf(centre);
        centreRank_ = static_cast<int>(
            comm_ ? comm_->min(centre_ != SIZE_MAX ? static_cast<std::uint64_t>(comm_->rank())
                                                   : UINT64_MAX)
                  : 0);
        if (centre_ != SIZE_MAX) meter_.add(time_, y_[centre_ * states_ + potential_]);
    }

    // All or nothing: the edit is merged into the set in effect (live values only), checked
    // and computed whole (a new model text compiled, the parameter values parsed, the view
    // states and trace points resolved, the states carried over), and only then applied; if
    // anything throws, the model is as it was.
    void setLiveParameters(const ParamSet& params) override {
        if (!inEffect_) throw Error("cardiac: setLiveParameters before reset");
        ParamSet merged = withLiveValues(*inEffect_, params);
        CardiacParams next = checkedParams(merged);
        std::unique_ptr<CellProgram> program;  // a new model text: its program
        std::vector<double> values;            // else: the running model's new parameter values
        std::vector<double> y;                 // a new model text: the states carried over
        if (next.modelSource != p_.modelSource) {
            program = loadCellProgram(next);  // its parameters are next.parameterValues
            viewStates(next, program->model());
            const TissueState now =
                carryStates(program_->model(), currentState(), program->model());
            const std::size_t states = program->stateCount();
            y.assign(nodes_ * states, 0.0);
            for (std::size_t k = 0; k < states; ++k)
                for (std::size_t n = 0; n < nodes_; ++n)
                    y[n * states + k] = now.columns[k][n];
        } else {
            values = parameterValues(next.parameterValues, program_->model());
            viewStates(next, program_->model());
        }
        tracePoints(next);
        std::vector<unsigned char> region =
            ownedPart(slab_, stimulusRegionMask(next, tissueWhole_));
        // Nothing below throws.
        if (program) {
            program_ = std::move(program);
            states_ = program_->stateCount();
            potential_ =
                static_cast<std::size_t>(program_->model().stateOf(program_->model().potential));
            y_ = std::move(y);
        } else {
            program_->parameters() = std::move(values);
        }
        p_ = std::move(next);
        region_ = std::move(region);
        inEffect_ = std::move(merged);
    }

    void advance(std::uint64_t steps) override {
        for (std::uint64_t s = 0; s < steps; ++s)
            stepOnce();
    }

    std::uint64_t step() const override { return step_; }
    double time() const override { return time_; }

    // Over several ranks: computed on rank 0 from the gathered potential and activation map
    // and the centre rank's beat meter, then sent to every rank: the values of one rank.
    std::vector<Metric> metrics() override {
        if (!slab_.distributed())
            return tissueMetrics(p_, column(potential_), activation_, meter_, tissue_);
        return slabMetrics(*comm_, slab_, p_, column(potential_), activation_, meter_, centreRank_,
                           tissueWhole_);
    }

    // This rank's piece (the whole grid on one rank): its own dims, its box in the domain.
    Snapshot snapshot() override {
        Snapshot out = makeTissueSnapshot(ownedParams_, program_->model(), currentState());
        const int a = slab_.slab.axis;
        out.boxLo[a] += slab_.slab.begin * p_.dx;
        out.boxHi[a] += slab_.slab.begin * p_.dx;
        return out;
    }

    void restore(const Snapshot& snapshot) override {
        const TissueState s = readTissueSnapshot(ownedParams_, program_->model(), snapshot);
        BeatMeter meter = restoredMeter(p_, s);  // throws, as the line above
        for (std::size_t k = 0; k < states_; ++k)
            for (std::size_t n = 0; n < nodes_; ++n)
                y_[n * states_ + k] = s.columns[k][n];
        activation_ = s.activation;
        step_ = s.step;
        time_ = s.time;
        meter_ = std::move(meter);
    }

    // The states are node-major here (all of a node's states together).
    std::vector<StateArray> stateArrays() override {
        return tissueStateArrays(program_->model(), nodes_, y_.data(), 1, states_,
                                 activation_.data(), MemorySpace::Host);
    }

    ModelViews views() override {
        if (slab_.distributed()) return {};  // a distributed run is headless
        viewV_.resize(nodes_);
        viewActivation_.resize(nodes_);
        for (std::size_t n = 0; n < nodes_; ++n) {
            viewV_[n] = static_cast<float>(y_[n * states_ + potential_]);
            // NaN: not yet activated (drawn grey, not in the colour of 0 ms).
            viewActivation_[n] = activation_[n] < 0.0 ? std::numeric_limits<float>::quiet_NaN()
                                                      : static_cast<float>(activation_[n]);
        }
        const std::vector<std::size_t> shown = viewStates(p_, program_->model());
        viewExtra_.resize(shown.size() * nodes_);
        std::vector<const float*> extra;
        for (std::size_t k = 0; k < shown.size(); ++k) {
            float* out = viewExtra_.data() + k * nodes_;
            for (std::size_t n = 0; n < nodes_; ++n)
                out[n] = static_cast<float>(y_[n * states_ + shown[k]]);
            extra.push_back(out);
        }
        return tissueViews(p_, program_->model(), MemorySpace::Host, viewV_.data(),
                           viewActivation_.data(), time_, extra);
    }

    void checkFinite() override {}  // every step checks its states (stepOnce)

private:
    TissueState currentState() const {
        TissueState s;
        for (std::size_t k = 0; k < states_; ++k)
            s.columns.push_back(column(k));
        s.activation = activation_;
        s.meter = meter_.state();
        s.step = step_;
        s.time = time_;
        return s;
    }

    std::vector<double> column(std::size_t state) const {
        std::vector<double> c(nodes_);
        for (std::size_t n = 0; n < nodes_; ++n)
            c[n] = y_[n * states_ + state];
        return c;
    }

    void stepOnce() {
        const double t = time_, dt = p_.dt;
        // In the region the stimulus variable is the protocol's value (the amplitude during
        // a pulse, else 0); elsewhere its own expression (as the generated kernel does).
        const double drive = pulseOn(p_, t) ? p_.amplitude : 0.0;
        std::atomic<std::size_t> firstBad{nodes_};
        why_.clear();
        parallelFor(
            nodes_,
            [&](std::size_t n) {
                thread_local CellProgram::Workspace w;
                double* y = &y_[n * states_];
                vBefore_[n] = y[potential_];
                program_->step(y, t, dt, region_[n] != 0 ? &drive : nullptr, w);
                for (std::size_t s = 0; s < states_; ++s)
                    if (!std::isfinite(y[s])) {
                        std::size_t seen = firstBad.load();
                        while (n < seen && !firstBad.compare_exchange_weak(seen, n)) {
                        }
                        // The workspace still holds this step's inputs: say which expression
                        // failed (only on the way to an error, so the lock costs nothing).
                        std::lock_guard<std::mutex> lock(whyMutex_);
                        why_[n] = program_->explainNonFinite(s, dt, w);
                        break;
                    }
            },
            1024);
        reportNonFinite(firstBad.load());
        diffuse();
        const double theta = p_.activationThreshold;
        for (std::size_t n = 0; n < nodes_; ++n)
            activation_[n] = activationAfter(activation_[n], vBefore_[n],
                                             y_[n * states_ + potential_], theta, t, dt);
        ++step_;
        time_ += dt;
        if (centre_ != SIZE_MAX) meter_.add(time_, y_[centre_ * states_ + potential_]);
    }

    // Explicit diffusion of the potential (after the cell step), in sub-steps, on the
    // extended layout: each sub-step sends the slab's boundary planes to the neighbouring
    // ranks, updates the interior meanwhile, then the boundary planes once the halos are in.
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
            vNext_[slab_.extendedOf(m)] = y_[m * states_ + potential_];
        const unsigned char* tissue = tissueExtended_.empty() ? nullptr : tissueExtended_.data();
        const int* ext = slab_.extended;
        const auto update = [&](std::size_t m) {
            const std::size_t e = slab_.extendedOf(m);
            vNext_[e] = v_[e] + h * mirroredLaplacian(v_.data(), e, ext, coeff, tissue);
        };
        const int last = slab_.owned[slab_.slab.axis] - 1;
        const auto nextToHalo = [&](std::size_t m) {
            const int plane = slab_.planeOf(m);
            return (slab_.haloBelow && plane == 0) || (slab_.haloAbove && plane == last);
        };
        for (int sub = 0; sub < substeps; ++sub) {
            v_.swap(vNext_);  // v_: the potential before this sub-step
            halo_.start(v_.data());
            parallelFor(
                nodes_,
                [&](std::size_t m) {
                    if (!slab_.distributed() || !nextToHalo(m)) update(m);
                },
                4096);
            halo_.finish(v_.data());
            parallelFor(
                boundary_.size(), [&](std::size_t b) { update(boundary_[b]); }, 4096);
        }
        for (std::size_t m = 0; m < nodes_; ++m)
            y_[m * states_ + potential_] = vNext_[slab_.extendedOf(m)];
    }

    // The owned nodes next to a halo plane (none on one rank), updated once the halos are in.
    void findBoundary() {
        boundary_.clear();
        if (!slab_.distributed()) return;
        const int last = slab_.owned[slab_.slab.axis] - 1;
        for (std::size_t m = 0; m < nodes_; ++m) {
            const int plane = slab_.planeOf(m);
            if ((slab_.haloBelow && plane == 0) || (slab_.haloAbove && plane == last))
                boundary_.push_back(m);
        }
    }

    // Throws, on every rank alike, the error of the first non-finite state in the whole
    // grid's order (owned index `firstBad`; nodes_ when this rank has none).
    void reportNonFinite(std::size_t firstBad) const {
        const std::uint64_t mine =
            firstBad < nodes_ ? static_cast<std::uint64_t>(slab_.wholeOf(firstBad)) : UINT64_MAX;
        const std::uint64_t first = comm_ && slab_.distributed() ? comm_->min(mine) : mine;
        if (first == UINT64_MAX) return;
        std::string message;
        if (first == mine) {
            const double* y = &y_[firstBad * states_];
            std::size_t k = 0;
            while (k + 1 < states_ && std::isfinite(y[k]))
                ++k;
            message = nonFiniteMessage(p_, program_->model(), static_cast<std::size_t>(first), k,
                                       y[k], step_ + 1, time_ + p_.dt);
            if (const auto it = why_.find(firstBad); it != why_.end() && !it->second.empty())
                message += ": " + it->second;
        }
        if (comm_ && slab_.distributed()) {
            std::vector<std::byte> bytes(message.size());
            std::memcpy(bytes.data(), message.data(), message.size());
            const int from = static_cast<int>(
                comm_->min(first == mine ? static_cast<std::uint64_t>(comm_->rank()) : UINT64_MAX));
            comm_->broadcast(bytes, from);
            message.assign(reinterpret_cast<const char*>(bytes.data()), bytes.size());
        }
        throw SimulationError(message);
    }

    std::map<std::size_t, std::string> why_;  // node -> explainNonFinite, on a failing step
    std::mutex whyMutex_;                     // guards why_ while the nodes step in parallel
    std::optional<ParamSet> inEffect_;        // the set of the last reset with the live edits since
    CardiacParams p_{};
    std::unique_ptr<CellProgram> program_;
    std::size_t nodes_ = 0, states_ = 0, potential_ = 0;
    std::vector<double> y_;              // nodes x states
    std::vector<double> activation_;     // ms; -1 before the first crossing
    std::vector<unsigned char> region_;  // stimulated nodes (stimulusRegionMask)
    std::vector<unsigned char> tissue_;  // tissueMask: 0 outside tissue.mesh (empty: no mesh)
    // Over several ranks (tissue_slab.hpp): the slab, its halo exchange, the parameters with
    // the slab's dims (snapshot layout), the whole grid's and the extended tissue masks.
    dist::Communicator* comm_ = nullptr;
    TissueSlab slab_;
    HaloExchange halo_;
    CardiacParams ownedParams_{};
    std::vector<unsigned char> tissueWhole_, tissueExtended_;
    std::vector<std::size_t> boundary_;  // owned nodes next to a halo plane
    int centreRank_ = 0;                 // the rank that owns the centre node
    std::vector<double> vBefore_;        // the potential at the start of the step
    std::vector<double> v_, vNext_;      // diffusion scratch
    std::vector<float> viewV_, viewActivation_, viewExtra_;
    std::uint64_t step_ = 0;
    double time_ = 0.0;
    BeatMeter meter_{0.0, 0.0};
    std::size_t centre_ = 0;  // owned index of the centre node; SIZE_MAX on other ranks
};

}  // namespace

std::unique_ptr<Model> makeCpuModel() {
    return std::make_unique<CpuCardiac>();
}

}  // namespace cf::cardiac
