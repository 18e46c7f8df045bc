// SPDX-License-Identifier: GPL-3.0-or-later
// CUDA backend of `cardiac`: the cell step is the model's generated kernel, compiled by
// NVRTC at reset (lang/cuda_emitter, nvrtc/); diffusion, activation times and views are
// fixed kernels (tissue_kernels.cu). States are structure-of-arrays on the device, in the
// precision `model.precision` names. Nothing is read back while stepping; a non-finite
// state is found through a device flag read once per advance().
//
// Live parameters are in constant memory: the generated kernel's own blocks (CfParams: dt,
// the stimulus amplitude and the model's parameters, in the kernel's precision; CfProtocol:
// the stimulus protocol, from which each thread decides whether the pulse is on and its node
// is in the region; one pair per loaded library, cuda_emitter.hpp) and tissue_kernels.cu's
// TissueLive (diffusion, dt, activation threshold; one per process, bound per instance). All
// are written with asynchronous copies on the model's stream, so kernels already queued keep
// the old values. The tissue's shape (tissue.mesh, structural) is a mask in global memory.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <future>
#include <memory>
#include <optional>

#include "sim/cuda/cuda_check.hpp"
#include "sim/cuda/device_buffer.hpp"
#include "sim/models/cardiac/cardiac_model.hpp"
#include "sim/models/cardiac/cardiac_views.hpp"
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
    // The live values of `p` with the model's parameter `values` (the kernel's constant
    // blocks: CfParams and the stimulus protocol; the lookup table built from the values).
    // Computes everything on the host first: an exception before the first copy leaves the
    // device as it was. Required before the first step (the kernel refuses to launch before).
    virtual void setLive(const CardiacParams& p, const std::vector<double>& values) = 0;
    // The kernel's constant blocks as the device holds them after the queued work (waits).
    virtual std::vector<std::uint8_t> parameterBlock() = 0;
    virtual std::vector<std::uint8_t> protocolBlock() = 0;
    virtual void setTissue(const std::vector<unsigned char>& tissue) = 0;  // empty: all
    // One step from t; `live` is what TissueLive holds (bound by the caller), `substeps` its
    // diffusion sub-steps.
    virtual void step(const CardiacParams& p, const cuda::TissueLive& live, int substeps,
                      std::uint64_t step, double t) = 0;
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
        fail_.resize(1);
        failStep_.resize(1);
        viewV_.resize(nodes_);
        viewAct_.resize(nodes_);
        resetFailure();
    }
    // Nothing queued may outlive the library (its constant block) and the buffers.
    ~TissueGpu() override { cudaStreamSynchronize(stream_); }
    TissueGpu(const TissueGpu&) = delete;
    TissueGpu& operator=(const TissueGpu&) = delete;

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

    void setLive(const CardiacParams& p, const std::vector<double>& values) override {
        const std::vector<Real> block = cardiac::parameterBlock<Real>(p.dt, p.amplitude, values);
        const CfProtocol protocol = cardiac::protocolBlock(p);
        std::vector<Real> lut;
        if (model_) {
            // Lookup tables over V depend on the parameters: built on the host (the CPU
            // evaluator, in double) whenever they change, in the kernel's precision.
            const std::vector<double> table = buildTable(*model_, *model_->lookup, values);
            lut.assign(table.begin(), table.end());
        }
        if (block.size() * sizeof(Real) != kernel_.parameterBytes())
            throw Error("cardiac: a parameter block of the wrong size");
        // Ordered on the stream: the steps queued before keep the old values.
        kernel_.setParameters(block, stream_);
        kernel_.setProtocol(protocol, stream_);
        if (model_) {
            lut_.resize(lut.size());
            lut_.copyFromHost(lut, stream_);
        }
    }

    std::vector<std::uint8_t> parameterBlock() override { return kernel_.readParameters(stream_); }
    std::vector<std::uint8_t> protocolBlock() override { return kernel_.readProtocol(stream_); }

    void setTissue(const std::vector<unsigned char>& tissue) override {
        hasTissue_ = !tissue.empty();
        if (hasTissue_) {
            tissue_.resize(nodes_);
            tissue_.copyFromHost(tissue, stream_);
        }
    }

    void step(const CardiacParams& p, const cuda::TissueLive& live, int substeps,
              std::uint64_t step, double t) override {
        Real* v = y_.data() + potential_ * pitch_;
        CF_CUDA_CHECK(cudaMemcpyAsync(vBefore_.data(), v, nodes_ * sizeof(Real),
                                      cudaMemcpyDeviceToDevice, stream_));
        // The kernel decides from its protocol block whether the pulse is on at t and which
        // nodes it stimulates (with the CPU's arithmetic); here only the tissue's shape.
        const CfArgs<Real> args{y_.data(),
                                hasTissue_ ? tissue_.data() : nullptr,
                                fail_.data(),
                                t,
                                static_cast<unsigned>(nodes_),
                                static_cast<unsigned>(pitch_),
                                model_ ? lut_.data() : nullptr};
        kernel_.launch(args, stream_);
        diffuse(p, live, substeps, v);
        const cuda::StepEnd end{fail_.data(), failStep_.data(), static_cast<long long>(step + 1),
                                probe_};
        Real* trace = traced_ < trace_.size() ? trace_.data() + traced_++ : nullptr;
        cuda::launchEndOfStep<Real>(vBefore_.data(), v, activation_.data(), nodes_, t, end, trace,
                                    stream_);
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

    // Explicit diffusion of the potential in `substeps` sub-steps (coefficients and sub-step
    // from TissueLive); nothing when every coefficient is 0.
    void diffuse(const CardiacParams& p, const cuda::TissueLive& live, int substeps, Real* v) {
        if (live.coeff[0] == 0.0 && live.coeff[1] == 0.0 && live.coeff[2] == 0.0) return;
        const cuda::TissueShape shape{{p.nx, p.ny, p.nz}, hasTissue_ ? tissue_.data() : nullptr};
        const Real* in = v;
        for (int s = 0; s < substeps; ++s) {
            Real* out = (s % 2 == 0) ? vA_.data() : vB_.data();
            cuda::launchDiffuse<Real>(in, out, shape, stream_);
            in = out;
        }
        CF_CUDA_CHECK(
            cudaMemcpyAsync(v, in, nodes_ * sizeof(Real), cudaMemcpyDeviceToDevice, stream_));
    }

    std::size_t nodes_, pitch_, states_, potential_;
    cudaStream_t stream_;
    CellKernel kernel_;
    std::shared_ptr<const CheckedModel> model_;  // with a lookup plan only: the table's terms
    DeviceBuffer<Real> y_, vBefore_, vA_, vB_, lut_;
    DeviceBuffer<double> activation_;
    DeviceBuffer<unsigned char> tissue_;  // tissueMask (tissue.mesh); unused without one
    bool hasTissue_ = false;
    DeviceBuffer<int> fail_;
    DeviceBuffer<long long> failStep_;
    DeviceBuffer<float> viewV_, viewAct_, viewExtra_;
    DeviceBuffer<Real> trace_;
    std::size_t probe_ = 0, traced_ = 0;
};

// The TissueLive of `p` and its diffusion sub-steps.
struct TissuePlan {
    cuda::TissueLive live{};
    int substeps = 1;
};

TissuePlan tissuePlan(const CardiacParams& p) {
    TissuePlan plan;
    const int n[3] = {p.nx, p.ny, p.nz};
    for (int a = 0; a < 3; ++a)
        plan.live.coeff[a] =
            n[a] > 1 ? (a == p.fibreAxis ? p.diffusionLong : p.diffusionTrans) / (p.dx * p.dx)
                     : 0.0;
    plan.substeps = diffusionSubsteps(p);
    plan.live.h = p.dt / plan.substeps;
    plan.live.dt = p.dt;
    plan.live.threshold = p.activationThreshold;
    return plan;
}

class CudaCardiac final : public Model {
public:
    CudaCardiac() { CF_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
    ~CudaCardiac() override {
        gpu_.reset();
        cuda::releaseTissueLive(this);
        cudaStreamDestroy(stream_);
    }
    CudaCardiac(const CudaCardiac&) = delete;
    CudaCardiac& operator=(const CudaCardiac&) = delete;

    Backend backend() const override { return Backend::Cuda; }

    void reset(const ParamSet& params, std::uint32_t) override {
        CardiacParams p = checkedParams(params);
        std::unique_ptr<CellProgram> program = loadCellProgram(p);  // throws before changes
        std::vector<unsigned char> tissue = tissueMask(p);          // the same
        ParamSet inEffect = params;
        const std::size_t nodes = static_cast<std::size_t>(p.nx) * p.ny * p.nz;
        const TissuePlan plan = tissuePlan(p);
        // Compiles the model's kernel (NVRTC): a KernelCompileError leaves the model as it was.
        std::unique_ptr<TissueGpuBase> gpu = makeGpu(program->model(), p, nodes);
        TissueState s;
        const std::vector<double> y0 = program->initialStates();
        for (double v : y0)
            s.columns.emplace_back(nodes, v);
        s.activation.assign(nodes, kNotActivated);
        gpu->upload(s);
        gpu->setTissue(tissue);
        gpu->setLive(p, program->parameters());
        cuda::uploadTissueLive(plan.live, this, stream_);
        inEffect_.emplace(std::move(inEffect));
        p_ = std::move(p);
        live_ = plan.live;
        substeps_ = plan.substeps;
        tissue_ = std::move(tissue);
        program_ = std::move(program);
        gpu_ = std::move(gpu);
        if (pending_) {  // a recompilation for the previous set-up: no longer wanted
            retired_.push_back(std::move(pending_->compiled));
            pending_.reset();
        }
        failedSource_.clear();
        nodes_ = nodes;
        step_ = 0;
        time_ = 0.0;
        meter_ = BeatMeter(p_.start, p_.cycleLength, p_.beats);
        meter_.add(
            0.0,
            y0[static_cast<std::size_t>(program_->model().stateOf(program_->model().potential))]);
    }

    // The edit is merged into the set in effect (live values only) and applied all or
    // nothing: everything is checked and computed first (a new model text parsed and checked,
    // the parameter values, view states and trace points resolved), then the device's
    // constant blocks are written (ordered on the stream), then the host's state changes.
    //
    // A new model text is parsed and checked here (errors reach the caller at once); NVRTC
    // then compiles its kernel on a worker thread while the tissue goes on with the old one,
    // and the first advance() after the compilation (or applyPendingEdits()) switches over,
    // carrying the states of the same name. A kernel that fails to compile leaves the old
    // model running, with a note saying why.
    void setLiveParameters(const ParamSet& params) override {
        if (!inEffect_) throw Error("cardiac: setLiveParameters before reset");
        ParamSet merged = withLiveValues(*inEffect_, params);
        CardiacParams next = checkedParams(merged);
        const std::string& wanted = pending_ ? pending_->params.modelSource : p_.modelSource;
        // A text whose kernel failed to compile is not compiled again by every later edit
        // (a slider move carries the whole parameter set, that text included).
        const bool failedBefore =
            !pending_ && !failedSource_.empty() && next.modelSource == failedSource_;
        const bool startReload = next.modelSource != wanted && !failedBefore;
        const bool reloading = startReload || pending_.has_value();
        // The model that will take over (new, or the one compiling) and its values.
        std::unique_ptr<CellProgram> program;
        std::vector<double> pendingValues;
        if (startReload) {
            program = loadCellProgram(next);  // throws; its parameters are next's values
            viewStates(next, program->model());
            pendingValues = program->parameters();
        } else if (pending_) {
            pendingValues = parameterValues(next.parameterValues, pending_->program->model());
            viewStates(next, pending_->program->model());
        }
        CardiacParams pendingParams;
        if (reloading) {
            pendingParams = next;
            next.modelSource = p_.modelSource;  // until the new kernel runs
        } else if (failedBefore) {
            next.modelSource = p_.modelSource;
        }
        // The running model's values.
        std::vector<double> values;
        try {
            values = parameterValues(next.parameterValues, program_->model());
        } catch (const ParameterError&) {
            // Values for the model being compiled (checked against it above): they apply
            // when it takes over.
            if (!reloading) throw;
            next.parameterValues = p_.parameterValues;
            values = program_->parameters();
        }
        try {
            viewStates(next, program_->model());
        } catch (const ParameterError&) {
            // States the new model has are not views of the running one until it takes over.
            if (!reloading) throw;
            next.viewStates = p_.viewStates;
        }
        tracePoints(next);
        const TissuePlan plan = tissuePlan(next);
        retired_.reserve(retired_.size() + 1);
        std::future<void> compiled;
        if (startReload) {
            const Precision precision = p_.precision == 1 ? Precision::Float : Precision::Double;
            GeneratedSource source = emitCuda(program->model(), precision);
            const std::string name = program->model().name + ".cu";
            const std::string arch = deviceArch();
            const bool fastMath = p_.fastMath;
            compiled = std::async(std::launch::async, [source, name, arch, fastMath] {
                compileKernel(source, name, arch, fastMath);  // fills the kernel cache
            });
        }
        // The device: ordered on the stream, after the steps already queued.
        gpu_->setLive(next, values);
        cuda::uploadTissueLive(plan.live, this, stream_);
        // The host: nothing below throws.
        if (startReload) {
            if (pending_) retired_.push_back(std::move(pending_->compiled));
            pending_.emplace();
            pending_->program = std::move(program);
            pending_->compiled = std::move(compiled);
            pending_->started = std::chrono::steady_clock::now();
        }
        if (pending_) {
            pending_->params = std::move(pendingParams);
            pending_->values = std::move(pendingValues);
        }
        program_->parameters() = std::move(values);
        p_ = std::move(next);
        live_ = plan.live;
        substeps_ = plan.substeps;
        inEffect_ = std::move(merged);
    }

    void advance(std::uint64_t steps) override {
        adoptReloadedModel(false);
        cuda::bindTissueLive(live_, this, stream_);  // another instance may have run since
        gpu_->beginBatch(centreNode(p_, tissue_), static_cast<std::size_t>(steps));
        // The sample times are the clock's own values after each step (not t0 + k dt, which
        // rounds differently): the beat meter then reads the same bits however the run is
        // cut into batches or restored from a checkpoint.
        std::vector<double> times;
        times.reserve(static_cast<std::size_t>(steps));
        for (std::uint64_t s = 0; s < steps; ++s) {
            gpu_->step(p_, live_, substeps_, step_, time_);
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

    // The constant memory as the device holds it after the queued work: the bytes of
    // tissue_kernels.cu's TissueLive (bound to this instance first), then the running
    // kernel's CfParams (parameterBlockReals values of the kernel's precision: dt, the
    // stimulus amplitude, the model's parameters in its order), then its CfProtocol (64
    // bytes: start, cycle length, duration, region size, dx as doubles; beats, region, nx, ny,
    // nz and a 0 as int32s).
    std::vector<std::uint8_t> deviceParameterBlock() override {
        if (!gpu_) return {};
        cuda::bindTissueLive(live_, this, stream_);
        std::vector<std::uint8_t> out = bytesOf(cuda::downloadTissueLive(stream_));
        const std::vector<std::uint8_t> block = gpu_->parameterBlock();
        out.insert(out.end(), block.begin(), block.end());
        const std::vector<std::uint8_t> protocol = gpu_->protocolBlock();
        out.insert(out.end(), protocol.begin(), protocol.end());
        return out;
    }

private:
    std::unique_ptr<TissueGpuBase> makeGpu(const CheckedModel& m, const CardiacParams& p,
                                           std::size_t nodes) {
        if (p.precision == 1)
            return std::make_unique<TissueGpu<float>>(m, nodes, p.fastMath, stream_);
        return std::make_unique<TissueGpu<double>>(m, nodes, p.fastMath, stream_);
    }

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
        reload.program->parameters() = std::move(reload.values);
        // The new library's constant blocks are written before its first launch (setLive).
        std::unique_ptr<TissueGpuBase> gpu = makeGpu(reload.program->model(), next, nodes_);
        TissueState now = carryStates(program_->model(), gpu_->download(), reload.program->model());
        now.step = step_;
        now.time = time_;
        gpu->upload(now);
        gpu->setTissue(tissue_);
        gpu->setLive(next, reload.program->parameters());
        program_ = std::move(reload.program);
        gpu_ = std::move(gpu);
        p_ = std::move(next);
        char text[160];
        std::snprintf(text, sizeof text,
                      "model.source: the new model runs from step %llu (kernel ready after %.2f "
                      "s, compiled while the old one ran)",
                      static_cast<unsigned long long>(step_), seconds);
        note(text);
    }

    struct PendingReload {
        CardiacParams params;                  // the edit that asked for it (the latest)
        std::unique_ptr<CellProgram> program;  // checked on the caller's thread
        std::vector<double> values;            // its parameter values (params.parameterValues)
        std::future<void> compiled;            // NVRTC on a worker (fills the kernel cache)
        std::chrono::steady_clock::time_point started;
    };

    cudaStream_t stream_ = nullptr;
    std::optional<ParamSet> inEffect_;  // the set of the last reset with the live edits since
    CardiacParams p_{};                 // what runs (a model text compiling is not in it yet)
    cuda::TissueLive live_{};           // what TissueLive holds for this instance
    int substeps_ = 1;
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
