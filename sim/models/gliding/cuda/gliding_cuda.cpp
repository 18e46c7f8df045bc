// SPDX-License-Identifier: GPL-3.0-or-later
// The CUDA backend of `gliding` (docs/design/gliding.md 3.2-3.5): Psi, the bound motors and
// the flow stay on the device for the whole run (S1 §3.1); the host sees them only in
// snapshots, metrics and views. One outer step is the filament step (CNAB2 with cuFFT, dt from
// the CFL rule on the device), the motor sub-cycling (block per tail), the force gathers and the
// Stokes solve, queued on one stream. The motor kernel takes dt as an argument, so each step
// reads the step size back (one small copy); fixed steps are checked against the CFL rate first.
// The kernels read the live parameters from __constant__ memory, one block per kernel file
// (params_block.hpp): uploaded at reset and at every live edit, and bound by the filament,
// motor and fluid classes before each launch group, so instances used in turn keep their own.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <cuda_runtime_api.h>
#include <memory>
#include <optional>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/core/number_format.hpp"
#include "sim/cuda/cuda_check.hpp"
#include "sim/cuda/pinned_buffer.hpp"
#include "sim/dist/distributable.hpp"
#include "sim/models/gliding/cpu/motors_cpu.hpp"
#include "sim/models/gliding/cuda/fluid_cuda.hpp"
#include "sim/models/gliding/cuda/gliding_views_cuda.hpp"
#include "sim/models/gliding/cuda/motors_cuda.hpp"
#include "sim/models/gliding/cuda/smoluchowski_cuda.hpp"
#include "sim/models/gliding/flow_profiles.hpp"
#include "sim/models/gliding/gliding_model.hpp"
#include "sim/models/gliding/gliding_views.hpp"

namespace cf::gliding {

namespace {

using cuda::FluidCuda;
using cuda::SmoluchowskiCuda;

// CUDA events around each stage of every step of an advance(): the benchmark's split.
class StageTimer {
public:
    StageTimer() {
        for (cudaEvent_t& e : events_)
            CF_CUDA_CHECK(cudaEventCreate(&e));
    }
    ~StageTimer() {
        for (cudaEvent_t e : events_)
            cudaEventDestroy(e);
    }
    StageTimer(const StageTimer&) = delete;
    StageTimer& operator=(const StageTimer&) = delete;
    // Event 0 before the filament step, event k + 1 after stage k.
    void mark(int index, cudaStream_t stream) {
        CF_CUDA_CHECK(cudaEventRecord(events_[static_cast<std::size_t>(index)], stream));
    }
    // Adds this step's stage times (waits for the last event).
    void accumulate(StageSeconds& seconds) {
        CF_CUDA_CHECK(cudaEventSynchronize(events_.back()));
        for (std::size_t k = 0; k + 1 < events_.size(); ++k) {
            float ms = 0;
            CF_CUDA_CHECK(cudaEventElapsedTime(&ms, events_[k], events_[k + 1]));
            seconds[k] += 1e-3 * ms;
        }
    }

private:
    std::array<cudaEvent_t, static_cast<std::size_t>(Stage::Count) + 1> events_{};
};

double maxDensityOf(const HostState& s, const GlidingTables& t) {
    const std::vector<double> c = density(s, t);
    return *std::max_element(c.begin(), c.end());
}

// After distribute() on several ranks it holds one band of anchor rows (anchor_rows.hpp): the
// filaments and the fluid on every rank, its own motors, and the force summed over the ranks on
// the stream (NCCL) or through pinned host memory and MPI.
class GlidingCuda final : public GlidingModelBase,
                          public dist::Distributable,
                          public StateArrayProvider {
public:
    GlidingCuda() { CF_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
    ~GlidingCuda() override {
        parts_.reset();  // buffers and plans before their stream
        cudaStreamDestroy(stream_);
    }
    GlidingCuda(const GlidingCuda&) = delete;
    GlidingCuda& operator=(const GlidingCuda&) = delete;

    Backend backend() const override { return Backend::Cuda; }

    void distribute(dist::Communicator& comm) override { comm_ = &comm; }
    dist::GridPiece piece() const override { return rowsPiece(rows_); }
    double haloSeconds() const override { return reduceSeconds_; }
    std::string haloTransport() const override {
        return exchange_ ? exchange_->name() : "MPI, host buffers";
    }

    void reset(const ParamSet& params, std::uint32_t seed) override {
        GlidingParams p = checkedParams(params);
        GlidingTables t = buildTables(p);
        std::string capture = applyTables(p, t);
        RunState s;
        s.filaments = initialState(p, t, seed);
        const double cmax = maxDensityOf(s.filaments, t);
        checkWellPosed(p, cmax);
        initialMotorsAndFlow(p, s);
        const AnchorRows rows = comm_ ? anchorRows(t, *comm_) : wholeGrid(t);
        // Release the previous run's device memory before the memory check of this one.
        parts_.reset();
        auto parts = std::make_unique<Parts>(p, t, stream_, rows);
        parts->uploadParams(p);
        const std::string lag = checkLag(p, parts->fluid.lagFactor(p, cmax));
        parts->smol.upload(s.filaments);  // MotorsCuda starts with Mb = 0, Mf = M (design M15)
        // design M15: the motors may first settle on the initial filaments, frozen.
        if (p.motorsEnabled && p.burnIn > 0)
            parts->motors.advance(p, parts->smol.devicePsi(), p.burnIn);
        CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
        // The force's sum over the ranks: on the stream where NCCL is (collective on first use).
        if (comm_ && comm_->size() > 1) {
            exchange_ = comm_->streamExchange();
            if (!exchange_) forceHost_ = cf::cuda::PinnedBuffer<double>(parts->motors.forceCount());
        }
        adopt(params, p);
        t_ = std::move(t);
        s_ = std::move(s);
        parts_ = std::move(parts);
        rows_ = rows;
        reduceSeconds_ = 0;
        maxDensity_ = cmax;
        host_ = HostCopy::Stale;
        flowSolved_ = false;
        if (!capture.empty()) note(std::move(capture));
        if (!lag.empty()) note(lag);
    }

    std::vector<Metric> metrics() override {
        requireReset();
        download(HostCopy::Summary);
        std::vector<Metric> m =
            distributed()
                ? metricsOverRanks(*comm_, motorsHost_.substepsMax, motorsHost_.clampCount)
                : metricsOf(motorsHost_.substepsMax, motorsHost_.clampCount);
        // The block this rank launches the sub-cycle with (what motors.block_threads = 0 chose).
        m.push_back({"motor block threads", "1",
                     static_cast<double>(parts_->motors.launch().threads),
                     "Threads per block of the CUDA motor sub-cycle (motors.block_threads; 0 "
                     "lets the occupancy calculator choose)"});
        return m;
    }

    Snapshot snapshot() override {
        requireReset();
        download(HostCopy::Full);
        return rowsSnapshot(p_, t_, s_, rows_);
    }

    void restore(const Snapshot& snap) override {
        requireReset();
        RunState s = distributed() ? readRowsSnapshot(*comm_, p_, t_, snap, rows_)
                                   : readSnapshot(p_, t_, snap);
        Parts& d = *parts_;
        d.smol.upload(s.filaments);
        d.smol.setHistory(s.aPrev, s.dtPrev, s.ab2Steps);
        MotorState m;
        initMotors(p_, t_, m, rows_);
        m.mb = s.boundPacked;
        m.coarse = ownRows(s.boundCoarse);
        m.free = ownRows(s.free);
        d.motors.upload(m);
        d.fluid.upload(FlowField{s.u, s.v, s.dudx, s.dudy, s.dvdx, s.dvdy});
        CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
        flowSolved_ = std::any_of(s.u.begin(), s.u.end(), [](double x) { return x != 0.0; });
        maxDensity_ = maxDensityOf(s.filaments, t_);
        s_ = std::move(s);
        host_ = HostCopy::Stale;
    }

    // Psi, the motor sums and the flow (a non-finite bound motor makes its tail's sum
    // non-finite), without the packed motors: the Runner checks after every batch.
    void checkFinite() override {
        requireReset();
        download(HostCopy::Summary);
        checkSummaryFinite();
    }

    void synchronize() override { CF_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

    // The __constant__ GlidingParams the kernels read, after the queued work. The three kernel
    // files each have a copy (params_block.hpp); they must hold the same bytes, so one of them
    // is returned after the check.
    std::vector<std::uint8_t> deviceParameterBlock() override {
        requireReset();
        Parts& d = *parts_;
        d.bindParams(p_);  // another instance may have used the blocks since
        const GlidingParams smol = d.smol.deviceParams();
        const GlidingParams motors = d.motors.deviceParams();
        const GlidingParams fluid = d.fluid.deviceParams();
        if (std::memcmp(&smol, &motors, sizeof smol) != 0 ||
            std::memcmp(&smol, &fluid, sizeof smol) != 0)
            throw SimulationError(
                "gliding: the __constant__ parameters of the filament, motor and fluid kernels "
                "differ");
        return bytesOf(smol);
    }

    // One rank's arrays only (a distributed run's motors are rows of the grid: none offered).
    std::vector<StateArray> stateArrays() override {
        requireReset();
        if (distributed()) return {};
        return stateArraysOf(p_, t_, deviceState(), MemorySpace::Device);
    }

    // Packed on the device from the device state (design 5): no host copy, no change of state;
    // the arrays are written on the model's stream (read them after synchronize()).
    ModelViews views() override {
        requireReset();
        if (distributed()) return {};  // a distributed run is headless
        Parts& d = *parts_;
        ModelViews views = cuda::deviceViews(p_, t_, deviceState(), d.views, stream_);
        if (d.profiles) {
            // The vertical slice is asked for rarely (output.profiles) and is small: it is
            // computed on the host from the last forcing (2 n^2 doubles).
            std::vector<double> gx, gy;
            d.fluid.downloadForcing(gx, gy);
            appendProfileView(p_, d.profiles->slice(gx, gy, profileRow(p_)), profileBuffers_,
                              views);
        }
        return views;
    }

private:
    // The device side of one run: filaments, motors and fluid on the model's stream.
    struct Parts {
        Parts(const GlidingParams& p, const GlidingTables& t, cudaStream_t stream,
              const AnchorRows& rows)
            : motors(p, t, stream, rows), smol(t, stream), fluid(p, t, stream) {
            if (p.profiles) profiles = std::make_unique<FlowProfiles>(p, t, fluid.zgrid());
        }
        // p into the __constant__ block of each kernel file, ordered on the stream.
        void uploadParams(const GlidingParams& p) {
            smol.uploadParams(p);
            motors.uploadParams(p);
            fluid.uploadParams(p);
        }
        // p where a block holds something else (another instance's, an edit not committed).
        void bindParams(const GlidingParams& p) {
            smol.bindParams(p);
            motors.bindParams(p);
            fluid.bindParams(p);
        }
        MotorsCuda motors;  // first: its memory check runs before the other allocations
        SmoluchowskiCuda smol;
        FluidCuda fluid;
        cuda::DeviceViewBuffers views;           // allocated by the first views()
        std::unique_ptr<FlowProfiles> profiles;  // output.profiles only
    };

    // Where the device keeps the state the views and state arrays read.
    StatePointers deviceState() const {
        const Parts& d = *parts_;
        const FlowAtZ0 flow = d.fluid.deviceFlow();
        StatePointers at;
        at.psi = d.smol.devicePsi();
        at.boundCoarse = d.motors.coarseDevice();
        at.free = d.motors.freeDevice();
        at.motorsDouble = d.motors.doublePrecision();
        at.u = flow.u;
        at.v = flow.v;
        return at;
    }

    // What the host holds of the device state: nothing current, the summary (Psi, the motor
    // sums and the flow: metrics, views, the finiteness check) or everything (snapshots: also
    // the packed bound motors and the AB2 history). Each level is downloaded once per state.
    enum class HostCopy { Stale, Summary, Full };

    void download(HostCopy level) {
        if (host_ >= level) return;
        Parts& d = *parts_;
        d.smol.download(s_.filaments);
        if (level == HostCopy::Full) {
            d.smol.downloadHistory(s_.aPrev, s_.dtPrev);
            s_.ab2Steps = d.smol.steps();
            d.motors.download(motorsHost_);
            s_.boundPacked = motorsHost_.mb;
        } else {
            d.motors.downloadSummary(motorsHost_);
            s_.dtPrev = d.smol.steps() > 0 ? d.smol.scalars().dt : 0.0;
        }
        if (distributed()) {  // collective: every rank's motor sums
            s_.boundCoarse = gatherAnchors(*comm_, rows_, motorsHost_.coarse, 1);
            s_.free = gatherAnchors(*comm_, rows_, motorsHost_.free, 1);
        } else {
            s_.boundCoarse = motorsHost_.coarse;
            s_.free = motorsHost_.free;
        }
        FlowField flow;
        d.fluid.download(flow);
        s_.u = std::move(flow.u);
        s_.v = std::move(flow.v);
        s_.dudx = std::move(flow.dudx);
        s_.dudy = std::move(flow.dudy);
        s_.dvdx = std::move(flow.dvdx);
        s_.dvdy = std::move(flow.dvdy);
        maxDensity_ = maxDensityOf(s_.filaments, t_);
        host_ = level;
    }

    // Kernels queued before the copies keep the old values. When a copy fails, p_ (still the
    // old parameters) goes back into every block that may hold the new ones; should that fail
    // too, the blocks know they are not current and the next launch group uploads p_ again.
    void uploadLiveParameters(const GlidingParams& next) override {
        if (!parts_) return;  // no run to upload to (a reset failed): the next reset uploads
        try {
            parts_->uploadParams(next);
        } catch (...) {
            try {
                parts_->bindParams(p_);
            } catch (...) {
                // The first error is the one to report.
            }
            throw;
        }
    }

    void outerStep() override {
        Parts& d = *parts_;
        // The flow of the previous solve advects the filaments; none in the dry limit or before
        // the first solve (the CPU passes none then either).
        const FlowAtZ0 flowView = d.fluid.deviceFlow();
        const FlowAtZ0* flow = p_.fluidEnabled && flowSolved_ ? &flowView : nullptr;
        timer_.mark(0, stream_);
        double dt = 0;
        if (p_.dtMode == static_cast<std::int32_t>(DtMode::Fixed)) {
            const double rate = d.smol.cflRate(p_, flow);
            const double limit = rate > 0 ? p_.courantOut / rate : p_.dt;
            checkFixedStep(limit);
            dt = p_.dt;
            d.smol.step(p_, dt, flow);
        } else {
            d.smol.step(p_, flow);
            dt = d.smol.scalars().dt;  // the motors sub-cycle to t + dt: they need it here
        }
        checkStepSize(dt);
        timer_.mark(1, stream_);
        const double* psi = d.smol.devicePsi();
        if (p_.motorsEnabled) d.motors.advance(p_, psi, dt);
        timer_.mark(2, stream_);
        const bool force = p_.motorsEnabled && p_.fluidEnabled;
        if (force) {
            d.motors.force(p_, psi);
            if (distributed()) sumForceOverRanks(d.motors);
        }
        timer_.mark(3, stream_);
        if (p_.fluidEnabled) {
            d.fluid.solve(p_, psi, force ? d.motors.fx() : nullptr, force ? d.motors.fy() : nullptr,
                          maxDensity_);
            flowSolved_ = true;
        } else if (flowSolved_) {
            d.fluid.upload(FlowField{});  // the dry limit: the fluid at rest
            flowSolved_ = false;
        }
        timer_.mark(4, stream_);
        timer_.accumulate(stageSeconds_);
        ++stageSteps_;
        s_.time += dt;
        ++s_.step;
        host_ = HostCopy::Stale;
    }

    bool distributed() const { return comm_ && comm_->size() > 1; }

    // This rank's anchors of a whole-grid per-anchor array.
    std::vector<double> ownRows(const std::vector<double>& whole) const {
        const auto first = static_cast<std::ptrdiff_t>(rows_.firstAnchor());
        return {whole.begin() + first,
                whole.begin() + first + static_cast<std::ptrdiff_t>(rows_.anchors())};
    }

    // F2 of every rank's anchors, the same bytes on every rank (their fluid solves must agree):
    // queued on the stream through NCCL, else down to pinned memory, summed in rank order
    // through MPI, and up again (the host waits for the force there).
    void sumForceOverRanks(MotorsCuda& motors) {
        if (exchange_) {
            exchange_->sumDoubles(motors.partForce(), motors.sumForce(), motors.forceCount(),
                                  stream_);
            return;
        }
        const std::size_t bytes = motors.forceCount() * sizeof(double);
        CF_CUDA_CHECK(cudaMemcpyAsync(forceHost_.data(), motors.partForce(), bytes,
                                      cudaMemcpyDeviceToHost, stream_));
        CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
        const auto start = std::chrono::steady_clock::now();
        sumInRankOrder(*comm_, std::span<double>(forceHost_.data(), motors.forceCount()));
        reduceSeconds_ +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        CF_CUDA_CHECK(cudaMemcpyAsync(motors.sumForce(), forceHost_.data(), bytes,
                                      cudaMemcpyHostToDevice, stream_));
    }

    dist::Communicator* comm_ = nullptr;
    dist::StreamExchange* exchange_ = nullptr;  // NCCL where it is, for the force's sum
    cf::cuda::PinnedBuffer<double> forceHost_;  // the force's sum through MPI otherwise
    AnchorRows rows_;
    double reduceSeconds_ = 0;
    cudaStream_t stream_ = nullptr;
    std::unique_ptr<Parts> parts_;
    MotorState motorsHost_;
    ViewBuffers profileBuffers_;  // the host arrays of the vertical slice
    StageTimer timer_;
    // max c of the last state seen on the host: picks the fluid's iteration count (only
    // matters where the lag factor g crosses 0.5; design 3.5).
    double maxDensity_ = 0;
    HostCopy host_ = HostCopy::Stale;
    bool flowSolved_ = false;
};

}  // namespace

std::unique_ptr<Model> makeCudaModel() {
    return std::make_unique<GlidingCuda>();
}

}  // namespace cf::gliding
