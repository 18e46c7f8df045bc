// SPDX-License-Identifier: GPL-3.0-or-later
// CUDA backend of `cardiac`: the cell step is the model's generated kernel, compiled by
// NVRTC at reset (lang/cuda_emitter, nvrtc/); diffusion, activation times and views are
// fixed kernels (tissue_kernels.cu). States are structure-of-arrays on the device, in the
// precision `model.precision` names. Nothing is read back while stepping; a non-finite
// state is found through a device flag read once per advance().
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <future>
#include <memory>
#include <optional>

#include "sim/core/cuda_check.hpp"
#include "sim/core/device_buffer.hpp"
#include "sim/models/cardiac/cardiac_model.hpp"
#include "sim/models/cardiac/cuda/cell_kernel.hpp"
#include "sim/models/cardiac/cuda/tissue_kernels.cuh"
#include "sim/models/cardiac/lang/lookup_tables.hpp"
#include "sim/models/cardiac/nvrtc/nvrtc_compiler.hpp"

namespace cf::cardiac {

namespace {

using cf::cuda::DeviceBuffer;

// One precision's device state and step.
class TissueGpuBase {
public:
    virtual ~TissueGpuBase() = default;
    virtual void upload(const TissueState& s) = 0;
    virtual TissueState download() = 0;
    virtual std::vector<double> potential() = 0;
    // A batch of steps: after each, the potential of node `probe` is kept on the device.
    // finishBatch waits for the batch and returns that trace (one value per step) and the
    // first failure (cell == nodes when none), read back together.
    struct BatchEnd {
        std::vector<double> trace;
        std::size_t cell;
        long long step;
    };
    virtual void beginBatch(std::size_t probe, std::size_t steps) = 0;
    virtual BatchEnd finishBatch(std::size_t steps) = 0;
    virtual std::vector<double> activation() = 0;
    virtual void setParameters(const std::vector<double>& values) = 0;
    virtual void setRegion(const std::vector<unsigned char>& region) = 0;
    virtual void setTissue(const std::vector<unsigned char>& tissue) = 0;  // empty: all
    virtual void step(const CardiacParams& p, std::uint64_t step, double t) = 0;
    virtual ModelViews views(const CardiacParams& p, const CheckedModel& m, double time) = 0;
};

template <typename Real>
class TissueGpu final : public TissueGpuBase {
public:
    TissueGpu(const CheckedModel& m, std::size_t nodes, bool fastMath, cudaStream_t stream)
        : nodes_(nodes),
          pitch_((nodes + 31) / 32 * 32),
          states_(m.states.size()),
          potential_(static_cast<std::size_t>(m.stateOf(m.potential))),
          stream_(stream),
          kernel_(emitCuda(m, sizeof(Real) == 4 ? Precision::Float : Precision::Double),
                  m.name + ".cu", fastMath),
          model_(m.lookup ? std::make_shared<const CheckedModel>(m) : nullptr) {
        y_.resize(states_ * pitch_);
        vBefore_.resize(nodes_);
        vA_.resize(nodes_);
        vB_.resize(nodes_);
        activation_.resize(nodes_);
        region_.resize(nodes_);
        fail_.resize(1);
        failStep_.resize(1);
        viewV_.resize(nodes_);
        viewAct_.resize(nodes_);
        resetFailure();
    }

    void upload(const TissueState& s) override {
        std::vector<Real> host(states_ * pitch_, Real(0));
        for (std::size_t k = 0; k < states_; ++k)
            for (std::size_t n = 0; n < nodes_; ++n)
                host[k * pitch_ + n] = static_cast<Real>(s.columns[k][n]);
        y_.copyFromHost(host, stream_);
        activation_.copyFromHost(s.activation, stream_);
        CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
    }

    TissueState download() override {
        const std::vector<Real> host = y_.toHost(stream_);
        TissueState s;
        s.columns.assign(states_, std::vector<double>(nodes_));
        for (std::size_t k = 0; k < states_; ++k)
            for (std::size_t n = 0; n < nodes_; ++n)
                s.columns[k][n] = static_cast<double>(host[k * pitch_ + n]);
        s.activation = activation();
        return s;
    }

    std::vector<double> potential() override {
        std::vector<Real> row(nodes_);
        CF_CUDA_CHECK(cudaMemcpyAsync(row.data(), y_.data() + potential_ * pitch_,
                                      nodes_ * sizeof(Real), cudaMemcpyDeviceToHost, stream_));
        CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
        return {row.begin(), row.end()};
    }

    std::vector<double> activation() override { return activation_.toHost(stream_); }

    void beginBatch(std::size_t probe, std::size_t steps) override {
        probe_ = probe;
        if (trace_.size() < steps) trace_.resize(steps);
        traced_ = 0;
    }

    BatchEnd finishBatch(std::size_t steps) override {
        std::vector<Real> host(steps);
        int cell = 0;
        long long when = -1;
        if (steps > 0)
            CF_CUDA_CHECK(cudaMemcpyAsync(host.data(), trace_.data(), steps * sizeof(Real),
                                          cudaMemcpyDeviceToHost, stream_));
        CF_CUDA_CHECK(
            cudaMemcpyAsync(&cell, fail_.data(), sizeof cell, cudaMemcpyDeviceToHost, stream_));
        CF_CUDA_CHECK(
            cudaMemcpyAsync(&when, failStep_.data(), sizeof when, cudaMemcpyDeviceToHost, stream_));
        CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
        return {{host.begin(), host.end()}, static_cast<std::size_t>(cell), when};
    }

    void setParameters(const std::vector<double>& values) override {
        std::vector<Real> p(values.begin(), values.end());
        if (p.empty()) p.push_back(Real(0));  // a valid pointer for models without parameters
        params_.resize(p.size());
        params_.copyFromHost(p, stream_);
        if (model_) {
            // Lookup tables over V depend on the parameters: built on the host (the CPU
            // evaluator, in double) whenever they change, in the kernel's precision.
            const std::vector<double> table = buildTable(*model_, *model_->lookup, values);
            const std::vector<Real> cast(table.begin(), table.end());
            lut_.resize(cast.size());
            lut_.copyFromHost(cast, stream_);
        }
        CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
    }

    void setTissue(const std::vector<unsigned char>& tissue) override {
        hasTissue_ = !tissue.empty();
        if (hasTissue_) {
            tissue_.resize(nodes_);
            tissue_.copyFromHost(tissue, stream_);
        }
    }

    void setRegion(const std::vector<unsigned char>& region) override {
        region_.copyFromHost(region, stream_);
        CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
    }

    void step(const CardiacParams& p, std::uint64_t step, double t) override {
        Real* v = y_.data() + potential_ * pitch_;
        CF_CUDA_CHECK(cudaMemcpyAsync(vBefore_.data(), v, nodes_ * sizeof(Real),
                                      cudaMemcpyDeviceToDevice, stream_));
        const double drive = pulseOn(p, t) ? p.amplitude : 0.0;
        const CfArgs<Real> args{y_.data(),
                                params_.data(),
                                region_.data(),
                                fail_.data(),
                                t,
                                static_cast<Real>(p.dt),
                                static_cast<Real>(drive),
                                static_cast<unsigned>(nodes_),
                                static_cast<unsigned>(pitch_),
                                model_ ? lut_.data() : nullptr};
        kernel_.launch(args, stream_);
        diffuse(p, v);
        const cuda::StepEnd end{fail_.data(), failStep_.data(), static_cast<long long>(step + 1),
                                probe_};
        Real* trace = traced_ < trace_.size() ? trace_.data() + traced_++ : nullptr;
        cuda::launchEndOfStep<Real>(vBefore_.data(), v, activation_.data(), nodes_, t, p.dt,
                                    p.activationThreshold, end, trace, stream_);
    }

    ModelViews views(const CardiacParams& p, const CheckedModel& m, double time) override {
        cuda::launchPackViews<Real>(y_.data() + potential_ * pitch_, activation_.data(),
                                    viewV_.data(), viewAct_.data(), nodes_, stream_);
        const std::vector<std::size_t> shown = viewStates(p, m);
        if (viewExtra_.size() < shown.size() * nodes_) viewExtra_.resize(shown.size() * nodes_);
        std::vector<const float*> extra;
        for (std::size_t k = 0; k < shown.size(); ++k) {
            float* out = viewExtra_.data() + k * nodes_;
            cuda::launchToFloat<Real>(y_.data() + shown[k] * pitch_, out, nodes_, stream_);
            extra.push_back(out);
        }
        return tissueViews(p, m, MemorySpace::Device, viewV_.data(), viewAct_.data(), time, extra);
    }

private:
    void resetFailure() {
        fail_.copyFromHost(std::vector<int>{static_cast<int>(nodes_)}, stream_);
        failStep_.copyFromHost(std::vector<long long>{-1}, stream_);
        CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
    }

    void diffuse(const CardiacParams& p, Real* v) {
        cuda::TissueShape shape{
            {p.nx, p.ny, p.nz}, {0, 0, 0}, hasTissue_ ? tissue_.data() : nullptr};
        bool any = false;
        for (int a = 0; a < 3; ++a) {
            if (shape.n[a] > 1)
                shape.coeff[a] =
                    (a == p.fibreAxis ? p.diffusionLong : p.diffusionTrans) / (p.dx * p.dx);
            any = any || shape.coeff[a] != 0.0;
        }
        if (!any) return;
        const int substeps = diffusionSubsteps(p);
        const double h = p.dt / substeps;
        const Real* in = v;
        for (int s = 0; s < substeps; ++s) {
            Real* out = (s % 2 == 0) ? vA_.data() : vB_.data();
            cuda::launchDiffuse<Real>(in, out, shape, h, stream_);
            in = out;
        }
        CF_CUDA_CHECK(
            cudaMemcpyAsync(v, in, nodes_ * sizeof(Real), cudaMemcpyDeviceToDevice, stream_));
    }

    std::size_t nodes_, pitch_, states_, potential_;
    cudaStream_t stream_;
    CellKernel kernel_;
    std::shared_ptr<const CheckedModel> model_;  // with a lookup plan only: the table's terms
    DeviceBuffer<Real> y_, params_, vBefore_, vA_, vB_, lut_;
    DeviceBuffer<double> activation_;
    DeviceBuffer<unsigned char> region_, tissue_;
    bool hasTissue_ = false;
    DeviceBuffer<int> fail_;
    DeviceBuffer<long long> failStep_;
    DeviceBuffer<float> viewV_, viewAct_, viewExtra_;
    DeviceBuffer<Real> trace_;
    std::size_t probe_ = 0, traced_ = 0;
};

class CudaCardiac final : public Model {
public:
    CudaCardiac() { CF_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
    ~CudaCardiac() override {
        gpu_.reset();
        cudaStreamDestroy(stream_);
    }
    CudaCardiac(const CudaCardiac&) = delete;
    CudaCardiac& operator=(const CudaCardiac&) = delete;

    Backend backend() const override { return Backend::Cuda; }

    void reset(const ParamSet& params, std::uint32_t) override {
        CardiacParams p = checkedParams(params);
        std::unique_ptr<CellProgram> program = loadCellProgram(p);  // throws before changes
        std::vector<unsigned char> tissue = tissueMask(p);          // the same
        const std::size_t nodes = static_cast<std::size_t>(p.nx) * p.ny * p.nz;
        // Compiles the model's kernel (NVRTC): a KernelCompileError leaves the model as it was.
        std::unique_ptr<TissueGpuBase> gpu = makeGpu(program->model(), p, nodes);
        TissueState s;
        const std::vector<double> y0 = program->initialStates();
        for (double v : y0)
            s.columns.emplace_back(nodes, v);
        s.activation.assign(nodes, kNotActivated);
        gpu->upload(s);
        gpu->setParameters(program->parameters());
        gpu->setTissue(tissue);
        p_ = std::move(p);
        tissue_ = std::move(tissue);
        program_ = std::move(program);
        gpu_ = std::move(gpu);
        if (pending_) {  // a recompilation for the previous set-up: no longer wanted
            retired_.push_back(std::move(pending_->compiled));
            pending_.reset();
        }
        failedSource_.clear();
        nodes_ = nodes;
        uploadRegion();
        step_ = 0;
        time_ = 0.0;
        meter_ = BeatMeter(p_.start, p_.cycleLength, p_.beats);
        meter_.add(
            0.0,
            y0[static_cast<std::size_t>(program_->model().stateOf(program_->model().potential))]);
    }

    // A new model text is parsed and checked here (errors reach the caller at once); NVRTC
    // then compiles its kernel on a worker thread while the tissue goes on with the old one,
    // and the first advance() after the compilation (or applyPendingEdits()) switches over,
    // carrying the states of the same name. A kernel that fails to compile leaves the old
    // model running, with a note saying why.
    void setLiveParameters(const ParamSet& params) override {
        CardiacParams next = checkedParams(params);
        keepStructural(next, p_);
        const std::string& wanted = pending_ ? pending_->params.modelSource : p_.modelSource;
        // A text whose kernel failed to compile is not compiled again by every later edit
        // (a slider move carries the whole parameter set, that text included).
        const bool failedBefore =
            !pending_ && !failedSource_.empty() && next.modelSource == failedSource_;
        if (next.modelSource != wanted && !failedBefore) {
            std::unique_ptr<CellProgram> program = loadCellProgram(next);  // throws
            const Precision precision = p_.precision == 1 ? Precision::Float : Precision::Double;
            GeneratedSource source = emitCuda(program->model(), precision);
            const std::string name = program->model().name + ".cu";
            const std::string arch = deviceArch();
            const bool fastMath = p_.fastMath;
            if (pending_) retired_.push_back(std::move(pending_->compiled));
            pending_.emplace();
            pending_->params = next;
            pending_->program = std::move(program);
            pending_->started = std::chrono::steady_clock::now();
            pending_->compiled = std::async(std::launch::async, [source, name, arch, fastMath] {
                compileKernel(source, name, arch, fastMath);  // fills the kernel cache
            });
            next.modelSource = p_.modelSource;  // until the new kernel runs
        } else if (pending_) {
            pending_->params = next;
            next.modelSource = p_.modelSource;
        } else if (failedBefore) {
            next.modelSource = p_.modelSource;
        }
        if (pending_) {
            // States the new model has are not views of the running one until it takes over.
            try {
                viewStates(next, program_->model());
            } catch (const ParameterError&) {
                next.viewStates = p_.viewStates;
            }
        }
        try {
            replaceParameterValues(next.parameterValues, *program_);
        } catch (const ParameterError&) {
            // Values for the model being compiled (checked against it by validate): they
            // apply when it takes over.
            if (!pending_) throw;
            next.parameterValues = p_.parameterValues;
        }
        p_ = std::move(next);
        gpu_->setParameters(program_->parameters());  // ordered on the stream
        uploadRegion();
    }

    void advance(std::uint64_t steps) override {
        adoptReloadedModel(false);
        gpu_->beginBatch(centreNode(p_, tissue_), static_cast<std::size_t>(steps));
        // The sample times are the clock's own values after each step (not t0 + k dt, which
        // rounds differently): the beat meter then reads the same bits however the run is
        // cut into batches or restored from a checkpoint.
        std::vector<double> times;
        times.reserve(static_cast<std::size_t>(steps));
        for (std::uint64_t s = 0; s < steps; ++s) {
            gpu_->step(p_, step_, time_);
            ++step_;
            time_ += p_.dt;
            times.push_back(time_);
        }
        const TissueGpuBase::BatchEnd batch = gpu_->finishBatch(static_cast<std::size_t>(steps));
        for (std::size_t k = 0; k < batch.trace.size() && k < times.size(); ++k)
            meter_.add(times[k], batch.trace[k]);
        const std::size_t cell = batch.cell;
        const long long when = batch.step;
        if (cell < nodes_) {
            const TissueState s = gpu_->download();
            std::size_t k = 0;
            while (k + 1 < s.columns.size() && std::isfinite(s.columns[k][cell]))
                ++k;
            const std::uint64_t failedStep = when > 0 ? static_cast<std::uint64_t>(when) : step_;
            throw SimulationError(nonFiniteMessage(p_, program_->model(), cell, k,
                                                   s.columns[k][cell], failedStep,
                                                   static_cast<double>(failedStep) * p_.dt));
        }
    }

    void synchronize() override { CF_CUDA_CHECK(cudaStreamSynchronize(stream_)); }
    void applyPendingEdits() override { adoptReloadedModel(true); }

    std::uint64_t step() const override { return step_; }
    double time() const override { return time_; }

    std::vector<Metric> metrics() override {
        return tissueMetrics(p_, gpu_->potential(), gpu_->activation(), meter_, tissue_);
    }

    Snapshot snapshot() override {
        TissueState s = gpu_->download();
        s.step = step_;
        s.time = time_;
        s.meter = meter_.state();
        return makeTissueSnapshot(p_, program_->model(), s);
    }

    void restore(const Snapshot& snapshot) override {
        const TissueState s = readTissueSnapshot(p_, program_->model(), snapshot);  // throws
        BeatMeter meter = restoredMeter(p_, s);                                     // the same
        gpu_->upload(s);
        step_ = s.step;
        time_ = s.time;
        meter_ = std::move(meter);
    }

    ModelViews views() override { return gpu_->views(p_, program_->model(), time_); }

    void checkFinite() override {}  // advance() reads the device's failure flag

private:
    std::unique_ptr<TissueGpuBase> makeGpu(const CheckedModel& m, const CardiacParams& p,
                                           std::size_t nodes) {
        if (p.precision == 1)
            return std::make_unique<TissueGpu<float>>(m, nodes, p.fastMath, stream_);
        return std::make_unique<TissueGpu<double>>(m, nodes, p.fastMath, stream_);
    }

    void uploadRegion() { gpu_->setRegion(stimulusRegionMask(p_, tissue_)); }

    // Switches to the model of a finished recompilation (`wait`: wait for it first).
    void adoptReloadedModel(bool wait) {
        std::erase_if(retired_, [](std::future<void>& f) {
            return f.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
        });
        if (!pending_) return;
        if (!wait &&
            pending_->compiled.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
            return;
        PendingReload reload = std::move(*pending_);
        pending_.reset();
        try {
            reload.compiled.get();
        } catch (const std::exception& e) {
            failedSource_ = reload.params.modelSource;
            note(
                "model.source: the new model's kernel does not compile; the tissue keeps "
                "running the previous model.\n" +
                std::string(e.what()));
            return;
        }
        failedSource_.clear();
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - reload.started)
                .count();
        CardiacParams next = p_;
        next.modelSource = reload.params.modelSource;
        next.parameterValues = reload.params.parameterValues;
        next.viewStates = reload.params.viewStates;
        std::unique_ptr<TissueGpuBase> gpu = makeGpu(reload.program->model(), next, nodes_);
        TissueState now = carryStates(program_->model(), gpu_->download(), reload.program->model());
        now.step = step_;
        now.time = time_;
        gpu->upload(now);
        gpu->setTissue(tissue_);
        replaceParameterValues(next.parameterValues, *reload.program);
        program_ = std::move(reload.program);
        gpu_ = std::move(gpu);
        p_ = std::move(next);
        gpu_->setParameters(program_->parameters());
        uploadRegion();
        char text[160];
        std::snprintf(text, sizeof text,
                      "model.source: the new model runs from step %llu (kernel ready after %.2f "
                      "s, compiled while the old one ran)",
                      static_cast<unsigned long long>(step_), seconds);
        note(text);
    }

    struct PendingReload {
        CardiacParams params;                  // the edit that asked for it
        std::unique_ptr<CellProgram> program;  // checked on the caller's thread
        std::future<void> compiled;            // NVRTC on a worker (fills the kernel cache)
        std::chrono::steady_clock::time_point started;
    };

    cudaStream_t stream_ = nullptr;
    CardiacParams p_{};
    std::unique_ptr<CellProgram> program_;
    std::unique_ptr<TissueGpuBase> gpu_;
    std::optional<PendingReload> pending_;
    std::string failedSource_;                // the last model text whose kernel did not compile
    std::vector<unsigned char> tissue_;       // tissueMask: 0 outside tissue.mesh (empty: no mesh)
    std::vector<std::future<void>> retired_;  // superseded compilations still running
    std::size_t nodes_ = 0;
    std::uint64_t step_ = 0;
    double time_ = 0.0;
    BeatMeter meter_{0.0, 0.0};
};

}  // namespace

std::unique_ptr<Model> makeCudaModel() {
    if (!nvrtcAvailable())
        throw Error("cardiac: the CUDA backend needs NVRTC to compile the model: " + nvrtcStatus());
    return std::make_unique<CudaCardiac>();
}

}  // namespace cf::cardiac
