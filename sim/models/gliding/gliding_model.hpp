// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `gliding` (issue 9): the micro-macro gliding motility assay. Host-side pieces every backend
// shares: the descriptor, the run state as the host sees it, its snapshot layout (so
// checkpoints move between backends) and the metrics. docs/design/gliding.md is the plan;
// "design Mn" cites its model section Mn, "design n.m" its section n.m.
//
// One outer step n (design 2, S1 Alg. 1): the CFL step dt from Psi^n (or the fixed dt, checked
// against the CFL limit); Psi^{n+1} by CNAB2; the motors sub-cycled to t + dt at every anchor
// with Psi^{n+1} frozen; the motor force on the fluid; the stresses; the Stokes solve for the
// flow at the filament plane, which the next filament step reads.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/model.hpp"
#include "sim/core/state_arrays.hpp"
#include "sim/dist/communicator.hpp"
#include "sim/models/gliding/gliding_params.hpp"
#include "sim/models/gliding/gliding_state.hpp"
#include "sim/models/gliding/gliding_tables.hpp"
#include "sim/models/gliding/state_pointers.hpp"

namespace cf::gliding {

ModelDescriptor descriptor();
// `cellforge-sim bench gliding` (gliding_bench.cpp).
std::vector<BenchCase> benchCases();

// The model's time unit T = l / v_m (design M1).
inline constexpr const char* kTimeUnit = "T";

// Everything a checkpoint holds, on the host. The AB2 history (A^{n-1}, the previous step)
// is part of it, so a restored run continues bit for bit.
struct RunState {
    HostState filaments;
    std::vector<double> aPrev;  // A^{n-1}, like psi (empty before the first step)
    double dtPrev = 0.0;        // 0: the next step is forward Euler in A
    std::int64_t ab2Steps = 0;  // filament steps since the last restart of the AB2 history
    // Motors per anchor r0 = iy * n + ix (design M7): bound motors packed per tail
    // ([r0 * S + chord.off + l]), their coarse sum and the free motors.
    std::vector<double> boundPacked, boundCoarse, free;
    // Flow at the filament plane z0 and its centred gradient, [iy * n + ix] (design M9, M10); zero
    // at rest. The gradient is the lagged strain of the next solve (design M11), so it is state.
    std::vector<double> u, v, dudx, dudy, dvdx, dvdy;
    std::uint64_t step = 0;
    double time = 0.0;
};

// Motors at t = 0 (design M15): none bound, M free at every anchor; the flow at rest. The packed
// bound motors (N^2 S values: gigabytes at 256^2 x 32^2) are left empty: the backends own them
// and copy them in only for snapshots.
void initialMotorsAndFlow(const GlidingParams& p, RunState& s);

Snapshot makeSnapshot(const GlidingParams& p, const GlidingTables& t, const RunState& s);

// Psi, the motor sums and the flow (when not at rest) as state arrays.
std::vector<StateArray> stateArraysOf(const GlidingParams& p, const GlidingTables& t,
                                      const StatePointers& s, MemorySpace space);
// Throws IoError naming the field when a snapshot's field is missing or mis-sized (a
// checkpoint of another grid). `packedAnchors`: the anchors whose packed bound motors it holds
// (0: every anchor; a rank of a distributed run holds its own rows', anchor_rows.hpp).
RunState readSnapshot(const GlidingParams& p, const GlidingTables& t, const Snapshot& snap,
                      std::size_t packedAnchors = 0);

// Scalar observables of a state (host arithmetic; backends add their own counters).
std::vector<Metric> stateMetrics(const GlidingParams& p, const GlidingTables& t, const RunState& s);

// Wall time per outer step by stage, averaged over the last advance() (the benchmark's split,
// design 6.3): the filament step (moments, CFL, CNAB2), the motor sub-cycling, the force (W
// and F2) and the fluid (stresses, Stokes, velocity gradient).
enum class Stage : int { Filaments = 0, Motors, Force, Fluid, Count };
using StageSeconds = std::array<double, static_cast<int>(Stage::Count)>;
// Appends "time <stage>" metrics in ms per outer step (0 before the first advance, so the
// set of metrics never changes during a run).
void appendStageTimes(std::vector<Metric>& out, const StageSeconds& seconds, std::uint64_t steps);

// The lagged constraint stress (design M11, M12): each pass of the fluid solve multiplies an error
// in sigma^f by g (FluidCpu::lagFactor at the initial max c). Throws ParameterError naming the
// parameters when g >= 1 with the fluid on (the explicit lag is unstable); returns a note when
// g > 0.5 (the solve then makes several passes), else an empty string.
std::string checkLag(const GlidingParams& p, double g);

// The model note raised once when max c crosses Dt/Ut during a run (design M5): the density
// equation is ill-posed there. Empty when the steric reading is not Maier-Saupe.
std::string antiDiffusionNote(const GlidingParams& p, std::uint64_t step, double cmax);

// What the CPU and CUDA backends share: the parameters in effect (live edits merged as the
// table's mutability says), the tables, the run state's step and time, the stage timing of the
// last advance() and the metrics around a backend's host copy.
class GlidingModelBase : public Model {
public:
    // Strong guarantee: when it throws (a parameter check, the backend's upload), the
    // parameters, the tables and the device are as they were.
    void setLiveParameters(const ParamSet& params) final;
    void advance(std::uint64_t steps) final;
    std::uint64_t step() const final { return s_.step; }
    double time() const final { return s_.time; }

protected:
    // One outer step of the backend (design 2).
    virtual void outerStep() = 0;
    // setLiveParameters calls this with the checked parameters of a live edit before it
    // commits them (p_ still holds the old ones): the CUDA backend copies them into its
    // __constant__ blocks on its stream. If it throws, it must leave the device as it was.
    virtual void uploadLiveParameters(const GlidingParams& /*next*/) {}
    void requireReset() const;
    // Fixed steps (time.dt_mode = fixed): throws SimulationError naming the step when time.dt
    // exceeds the advective limit (time.cout / CFL rate), before the step is taken.
    void checkFixedStep(double limit) const;
    // Throws SimulationError naming the step, field and cell of the first non-finite value of
    // Psi, the motor sums or the flow in s_ (a non-finite bound motor makes its tail's sum
    // non-finite, so the packed motors need not be read: the Runner checks after every batch).
    void checkSummaryFinite() const;
    // Throws SimulationError when the outer step collapsed below 1e-8 T (a blow-up).
    void checkStepSize(double dt) const;
    // stateMetrics of s_ (which the backend brought up to date), the motor counters of
    // `motors` and the stage times.
    std::vector<Metric> metricsOf(std::int32_t substepsMax, std::int64_t clampCount) const;
    // The same on one of several ranks, collective (s_ holds every rank's motor sums): the
    // largest substep count, the clamps summed and each stage's time of the slowest rank.
    std::vector<Metric> metricsOverRanks(dist::Communicator& comm, std::int32_t substepsMax,
                                         std::int64_t clampCount);
    // After a successful reset: the parameters it used.
    void adopt(const ParamSet& params, const GlidingParams& p) {
        params_.emplace(params);
        p_ = p;
    }

    std::optional<ParamSet> params_;
    GlidingParams p_{};
    GlidingTables t_;
    RunState s_;
    StageSeconds stageSeconds_{};
    std::uint64_t stageSteps_ = 0;
};

std::unique_ptr<Model> makeCpuModel();   // builds with FFTW only
std::unique_ptr<Model> makeCudaModel();  // CUDA builds only

}  // namespace cf::gliding
