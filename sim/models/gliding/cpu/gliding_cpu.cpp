// SPDX-License-Identifier: GPL-3.0-or-later
// The CPU reference backend of `gliding` (docs/design/gliding.md 3.1): double everywhere,
// parallelFor over cells and anchors with per-item writes only, so results do not depend on
// the thread count. After distribute() on several ranks it holds one band of anchor rows
// (anchor_rows.hpp): filaments and fluid on every rank, its own motors, the force summed. With
// motors.placement = gpu the bound motors and their force run on a GPU instead
// (motor_offload.hpp, Cook & Shinar's hybrid placement; one rank).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/core/number_format.hpp"
#include "sim/dist/distributable.hpp"
#include "sim/models/gliding/cpu/fluid_cpu.hpp"
#include "sim/models/gliding/cpu/motors_cpu.hpp"
#include "sim/models/gliding/cpu/smoluchowski_cpu.hpp"
#include "sim/models/gliding/flow_profiles.hpp"
#include "sim/models/gliding/gliding_model.hpp"
#include "sim/models/gliding/gliding_views.hpp"
#include "sim/models/gliding/motor_memory.hpp"
#include "sim/models/gliding/motor_offload.hpp"

namespace cf::gliding {

namespace {

class GlidingCpu final : public GlidingModelBase,
                         public dist::Distributable,
                         public StateArrayProvider {
public:
    Backend backend() const override { return Backend::Cpu; }

    void distribute(dist::Communicator& comm) override { comm_ = &comm; }
    dist::GridPiece piece() const override { return rowsPiece(motors_.rows); }
    double haloSeconds() const override { return reduceSeconds_; }

    void reset(const ParamSet& params, std::uint32_t seed) override {
        GlidingParams p = checkedParams(params);
        GlidingTables t = buildTables(p);
        const AnchorRows rows = comm_ ? anchorRows(t, *comm_) : wholeGrid(t);
        const bool offloaded = p.motorPlacement == static_cast<std::int32_t>(MotorPlacement::Gpu);
        if (offloaded && distributed())
            throw ParameterError("gliding: motors.placement = gpu runs on one rank; this run has " +
                                 std::to_string(comm_->size()));
        // Offloaded motors keep no packed copy on the host (but for snapshots).
        if (!offloaded) checkHostMemory(p, t, availableHostMemory(), rows.anchors());
        if (std::string capture = applyTables(p, t); !capture.empty()) note(std::move(capture));
        RunState s;
        s.filaments = initialState(p, t, seed);
        const std::vector<double> c = density(s.filaments, t);
        const double cmax = *std::max_element(c.begin(), c.end());
        checkWellPosed(p, cmax);
        auto fluid = std::make_unique<FluidCpu>(p, t);
        // The per-mode profile tables only when the slice view is asked for (71 MB at 256^2).
        auto profiles = p.profiles ? std::make_unique<FlowProfiles>(p, t, fluid->zgrid()) : nullptr;
        const std::string lag = checkLag(p, fluid->lagFactor(p, cmax));
        initialMotorsAndFlow(p, s);
        MotorState motors;
        std::unique_ptr<MotorOffload> offload;
        if (offloaded) {
            offload = makeMotorOffload(p, t);  // starts as initMotors leaves the motors
            motors.rows = rows;
            offload->uploadPsi(s.filaments);
            if (p.motorsEnabled && p.burnIn > 0) offload->advance(p, p.burnIn);
        } else {
            initMotors(p, t, motors, rows);
            // design M15: the motors may first settle on the initial filaments, frozen.
            if (p.motorsEnabled && p.burnIn > 0) advanceMotors(p, t, s.filaments, p.burnIn, motors);
        }
        auto smol = std::make_unique<SmoluchowskiCpu>(t);
        // Everything built: only now replace the running state (a failed reset keeps it).
        adopt(params, p);
        t_ = std::move(t);
        s_ = std::move(s);
        smol_ = std::move(smol);
        motors_ = std::move(motors);
        offload_ = std::move(offload);
        fluid_ = std::move(fluid);
        profiles_ = std::move(profiles);
        flow_ = {};
        fx_.clear();
        fy_.clear();
        fxPart_.clear();
        fyPart_.clear();
        w_.clear();
        reduceSeconds_ = 0;
        if (!lag.empty()) note(lag);
        illPosed_ = false;
    }

    // Collective on several ranks: the motor sums of every rank, the counters summed and the
    // stage times of the slowest rank.
    std::vector<Metric> metrics() override {
        requireReset();
        syncState(false);
        if (!distributed()) return metricsOf(motors_.substepsMax, motors_.clampCount);
        return metricsOverRanks(*comm_, motors_.substepsMax, motors_.clampCount);
    }

    Snapshot snapshot() override {
        requireReset();
        syncState(true);
        return rowsSnapshot(p_, t_, s_, motors_.rows);
    }

    void restore(const Snapshot& snap) override {
        requireReset();
        RunState s = distributed() ? readRowsSnapshot(*comm_, p_, t_, snap, motors_.rows)
                                   : readSnapshot(p_, t_, snap);
        smol_->setHistory(s.aPrev, s.dtPrev, s.ab2Steps);
        motors_.mb = s.boundPacked;
        motors_.coarse = ownRows(s.boundCoarse);
        motors_.free = ownRows(s.free);
        if (offload_) {
            MotorState m;
            initMotors(p_, t_, m, motors_.rows);  // the counters and orbit tables
            m.mb = std::move(motors_.mb);
            m.coarse = motors_.coarse;
            m.free = motors_.free;
            offload_->upload(m);
            motors_.mb.clear();  // the device holds them
        }
        flow_ = {s.u, s.v, s.dudx, s.dudy, s.dvdx, s.dvdy};
        s_ = std::move(s);
    }

    void checkFinite() override {
        requireReset();
        syncState(false);
        checkSummaryFinite();
    }

    // One rank's arrays only (a distributed run's motors are rows of the grid: none offered).
    std::vector<StateArray> stateArrays() override {
        requireReset();
        if (distributed()) return {};
        if (offload_) syncState(false);  // the motor sums from the device
        StatePointers at;
        at.psi = s_.filaments.psi.data();
        at.boundCoarse = motors_.coarse.data();
        at.free = motors_.free.data();
        if (!flow_.u.empty()) {
            at.u = flow_.u.data();
            at.v = flow_.v.data();
        }
        return stateArraysOf(p_, t_, at, MemorySpace::Host);
    }

    ModelViews views() override {
        requireReset();
        if (distributed()) return {};  // a distributed run is headless
        syncState(false);
        ModelViews views = hostViews(p_, t_, s_, viewBuffers_);
        if (profiles_) {
            std::vector<double> gx, gy;
            fluid_->lastForcing(gx, gy);
            appendProfileView(p_, profiles_->slice(gx, gy, profileRow(p_)), viewBuffers_, views);
        }
        return views;
    }

private:
    // The AB2 history lives in the stepper and the motors in their own state; copy them into
    // the run state: the summary (motor sums, flow, dt) for metrics, views and the finiteness
    // check after every batch, and with `full` also the AB2 history and the packed motors
    // (N^2 S values: 428 MB at 128^2 x 32^2) for snapshots only.
    void syncState(bool full) {
        if (offload_) offload_->download(motors_, full);
        s_.dtPrev = smol_->previousDt();
        if (full) {
            s_.aPrev = smol_->previousOperator();
            s_.ab2Steps = smol_->steps();
            // Offloaded motors came down for this copy only: moved, not kept twice.
            s_.boundPacked = offload_ ? std::move(motors_.mb) : motors_.mb;
        }
        if (distributed()) {  // collective: every rank's motor sums
            s_.boundCoarse = gatherAnchors(*comm_, motors_.rows, motors_.coarse, 1);
            s_.free = gatherAnchors(*comm_, motors_.rows, motors_.free, 1);
        } else {
            s_.boundCoarse = motors_.coarse;
            s_.free = motors_.free;
        }
        if (!flow_.u.empty()) {
            s_.u = flow_.u;
            s_.v = flow_.v;
            s_.dudx = flow_.dudx;
            s_.dudy = flow_.dudy;
            s_.dvdx = flow_.dvdx;
            s_.dvdy = flow_.dvdy;
        }
    }

    // The flow the filament step reads: none in the dry limit or before the first solve.
    const FlowAtZ0* flowForFilaments() {
        if (!p_.fluidEnabled || flow_.u.empty()) return nullptr;
        flowView_ = {flow_.u.data(),    flow_.v.data(),    flow_.dudx.data(),
                     flow_.dudy.data(), flow_.dvdx.data(), flow_.dvdy.data()};
        return &flowView_;
    }

    void flowAtRest() {
        for (std::vector<double>* f : {&s_.u, &s_.v, &s_.dudx, &s_.dudy, &s_.dvdx, &s_.dvdy})
            std::fill(f->begin(), f->end(), 0.0);
    }

    // One outer step (design 2): filaments (advected by the flow of the previous solve), motors
    // and their force, then the flow.
    void outerStep() override {
        auto last = std::chrono::steady_clock::now();
        const auto lap = [&](Stage stage) {
            const auto now = std::chrono::steady_clock::now();
            stageSeconds_[static_cast<int>(stage)] +=
                std::chrono::duration<double>(now - last).count();
            last = now;
        };
        const FlowAtZ0* flow = flowForFilaments();
        const double limit = smol_->cflStep(p_, t_, s_.filaments, flow);
        double dt = limit;
        if (p_.dtMode == static_cast<std::int32_t>(DtMode::Fixed)) {
            // cflStep gives min(C_out/rate, growth x dt_prev) with growth >= 1 and dt_prev =
            // time.dt, so it is below time.dt exactly when the advective limit is.
            checkFixedStep(limit);
            dt = p_.dt;
        }
        checkStepSize(dt);
        smol_->step(p_, t_, s_.filaments, dt, flow);
        lap(Stage::Filaments);
        // Motors sub-cycle to t + dt on the new filaments (design 2.5), then their force.
        if (p_.motorsEnabled && offload_) {
            offload_->uploadPsi(s_.filaments);  // the transfer counts as the motors' time
            offload_->advance(p_, dt);
            lap(Stage::Motors);
            if (p_.fluidEnabled) {
                offload_->force(p_, fx_, fy_);
                lap(Stage::Force);
            }
        } else if (p_.motorsEnabled) {
            advanceMotors(p_, t_, s_.filaments, dt, motors_);
            lap(Stage::Motors);
            if (p_.fluidEnabled) {
                boundGather(p_, t_, s_.filaments, motors_, w_);
                if (!distributed()) {
                    forceGather(p_, t_, w_, fx_, fy_);
                } else {
                    // This rank's anchors' force, then the sum over the ranks: the same bytes
                    // on every rank, so their fluid solves stay identical.
                    forceGather(p_, t_, w_, fxPart_, fyPart_, motors_.rows.f);
                    const auto waitStart = std::chrono::steady_clock::now();
                    fx_ = fxPart_;
                    fx_.insert(fx_.end(), fyPart_.begin(), fyPart_.end());
                    sumInRankOrder(*comm_, fx_);
                    fy_.assign(fx_.begin() + static_cast<std::ptrdiff_t>(fxPart_.size()),
                               fx_.end());
                    fx_.resize(fxPart_.size());
                    reduceSeconds_ +=
                        std::chrono::duration<double>(std::chrono::steady_clock::now() - waitStart)
                            .count();
                }
                lap(Stage::Force);
            }
        }
        // The flow at z0 from the motor force and the stresses (design 2.8), for the next step.
        if (p_.fluidEnabled) {
            if (!p_.motorsEnabled) {  // no motor force
                fx_.clear();
                fy_.clear();
            }
            fluid_->solve(p_, t_, s_.filaments, fx_, fy_, flow_);
            lap(Stage::Fluid);
        } else if (!flow_.u.empty()) {
            flow_ = {};  // the dry limit: the fluid at rest
            flowAtRest();
        }
        ++stageSteps_;
        s_.time += dt;
        ++s_.step;
        monitorDensity();
    }

    // The anti-diffusion condition with the current max c (design M5): a note once per
    // crossing, not an error, because a run may pass through it briefly.
    void monitorDensity() {
        if (p_.ut <= 0) return;
        const std::vector<double> c = density(s_.filaments, t_);
        const double cmax = *std::max_element(c.begin(), c.end());
        const bool ill = p_.ut * cmax >= p_.diffT;
        if (ill && !illPosed_) {
            if (std::string text = antiDiffusionNote(p_, s_.step, cmax); !text.empty())
                note(std::move(text));
        }
        illPosed_ = ill;
    }

    bool distributed() const { return comm_ && comm_->size() > 1; }

    // This rank's anchors of a whole-grid per-anchor array.
    std::vector<double> ownRows(const std::vector<double>& whole) const {
        const auto first = static_cast<std::ptrdiff_t>(motors_.rows.firstAnchor());
        return {whole.begin() + first,
                whole.begin() + first + static_cast<std::ptrdiff_t>(motors_.rows.anchors())};
    }

    dist::Communicator* comm_ = nullptr;
    double reduceSeconds_ = 0;  // waiting in the force's sum over ranks
    std::unique_ptr<SmoluchowskiCpu> smol_;
    MotorState motors_;  // offloaded: the sums and counters last downloaded, no packed Mb
    std::unique_ptr<MotorOffload> offload_;  // motors.placement = gpu
    std::vector<double> w_, fx_, fy_;        // W and the motor force F2 at the nodes
    std::vector<double> fxPart_, fyPart_;    // this rank's anchors' part of F2
    std::unique_ptr<FluidCpu> fluid_;
    std::unique_ptr<FlowProfiles> profiles_;  // output.profiles only
    FlowField flow_;                          // empty: at rest
    FlowAtZ0 flowView_{};
    ViewBuffers viewBuffers_;
    bool illPosed_ = false;
};

}  // namespace

std::unique_ptr<Model> makeCpuModel() {
    return std::make_unique<GlidingCpu>();
}

}  // namespace cf::gliding
