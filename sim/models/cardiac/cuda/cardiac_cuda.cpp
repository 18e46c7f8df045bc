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
#include <cstring>
#include <future>
#include <memory>
#include <optional>

#include "sim/dist/distributable.hpp"
#include "sim/models/cardiac/cuda/tissue_gpu.hpp"
#include "sim/models/cardiac/nvrtc/nvrtc_compiler.hpp"

namespace cf::cardiac {

namespace {

// Over several ranks each owns a slab of the grid (tissue_slab.hpp, the same split as the
// CPU backend's); the halo planes move through SlabDiffusion.
class CudaCardiac final : public Model, public dist::Distributable, public StateArrayProvider {
public:
    void distribute(dist::Communicator& comm) override { comm_ = &comm; }
    dist::GridPiece piece() const override { return slab_.piece; }

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
        const TissueSlab slab = tissueSlab(p, comm_);               // the same
        ParamSet inEffect = params;
        const std::size_t nodes = slab.ownedNodes();
        const TissuePlan plan = tissuePlan(p);
        // Compiles the model's kernel (NVRTC): a KernelCompileError leaves the model as it was.
        std::unique_ptr<TissueGpuBase> gpu = makeGpu(program->model(), p, slab);
        TissueState s;
        const std::vector<double> y0 = program->initialStates();
        for (double v : y0)
            s.columns.emplace_back(nodes, v);
        s.activation.assign(nodes, kNotActivated);
        gpu->upload(s);
        gpu->setTissue(ownedPart(slab, tissue), extendedPart(slab, tissue));
        gpu->setLive(p, program->parameters());
        cuda::uploadTissueLive(plan.live, this, stream_);
        inEffect_.emplace(std::move(inEffect));
        p_ = std::move(p);
        slab_ = slab;
        ownedParams_ = p_;
        ownedParams_.nx = slab_.owned[0];
        ownedParams_.ny = slab_.owned[1];
        ownedParams_.nz = slab_.owned[2];
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
        // The beat meter follows the centre node on the rank that owns it.
        centre_ = slab_.ownedIndexOf(centreNode(p_, tissue_));
        centreRank_ = static_cast<int>(
            comm_ ? comm_->min(centre_ != SIZE_MAX ? static_cast<std::uint64_t>(comm_->rank())
                                                   : UINT64_MAX)
                  : 0);
        if (centre_ != SIZE_MAX)
            meter_.add(0.0, y0[static_cast<std::size_t>(
                                program_->model().stateOf(program_->model().potential))]);
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
            GeneratedSource source =
                emitCuda(program->model(), precision, cudaEmitOptions(next, program->model()));
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
        // No probe (an index past the nodes) on the ranks without the centre node.
        gpu_->beginBatch(centre_ != SIZE_MAX ? centre_ : nodes_, static_cast<std::size_t>(steps));
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
        if (centre_ != SIZE_MAX)
            for (std::size_t k = 0; k < batch.trace.size() && k < times.size(); ++k)
                meter_.add(times[k], batch.trace[k]);
        reportFailure(batch.cell, batch.step);
    }

    void synchronize() override { CF_CUDA_CHECK(cudaStreamSynchronize(stream_)); }
    void applyPendingEdits() override { adoptReloadedModel(true); }

    std::uint64_t step() const override { return step_; }
    double time() const override { return time_; }

    // Over several ranks: computed on rank 0 from the gathered potential and activation map
    // and the centre rank's beat meter, then sent to every rank (as the CPU backend does).
    std::vector<Metric> metrics() override {
        if (!slab_.distributed())
            return tissueMetrics(p_, gpu_->potential(), gpu_->activation(), meter_, tissue_);
        return slabMetrics(*comm_, slab_, p_, gpu_->potential(), gpu_->activation(), meter_,
                           centreRank_, tissue_);
    }

    // This rank's piece (the whole grid on one rank): its own dims, its box in the domain.
    Snapshot snapshot() override {
        TissueState s = gpu_->download();
        s.step = step_;
        s.time = time_;
        s.meter = meter_.state();
        Snapshot out = makeTissueSnapshot(ownedParams_, program_->model(), s);
        const int a = slab_.slab.axis;
        out.boxLo[a] += slab_.slab.begin * p_.dx;
        out.boxHi[a] += slab_.slab.begin * p_.dx;
        return out;
    }

    void restore(const Snapshot& snapshot) override {
        const TissueState s = readTissueSnapshot(ownedParams_, program_->model(), snapshot);
        BeatMeter meter = restoredMeter(p_, s);  // throws, as the line above
        gpu_->upload(s);
        step_ = s.step;
        time_ = s.time;
        meter_ = std::move(meter);
    }

    std::vector<StateArray> stateArrays() override { return gpu_->stateArrays(program_->model()); }

    ModelViews views() override {
        if (slab_.distributed()) return {};  // a distributed run is headless
        return gpu_->views(p_, program_->model(), time_);
    }

    void checkFinite() override {}  // advance() reads the device's failure flag

    // The constant memory as the device holds it after the queued work: the bytes of
    // tissue_kernels.cu's TissueLive (bound to this instance first), then the running
    // kernel's CfParams (parameterBlockReals values of the kernel's precision: dt, the
    // stimulus amplitude, the model's parameters in its order), then its CfProtocol (72
    // bytes: start, cycle length, duration, region size, dx as doubles; beats, region, nx, ny,
    // nz, slabAxis, slabBegin and slabCount as int32s).
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

    // Host seconds this rank has waited for halo planes since reset (docs/SCALING.md).
    double haloSeconds() const override { return gpu_ ? gpu_->haloSeconds() : 0.0; }
    std::string haloTransport() const override { return gpu_ ? gpu_->haloTransport() : "MPI"; }

private:
    std::unique_ptr<TissueGpuBase> makeGpu(const CheckedModel& m, const CardiacParams& p,
                                           const TissueSlab& slab) {
        if (p.precision == 1)
            return std::make_unique<TissueGpu<float>>(m, slab, comm_, p.fastMath,
                                                      cudaEmitOptions(p, m), stream_);
        return std::make_unique<TissueGpu<double>>(m, slab, comm_, p.fastMath,
                                                   cudaEmitOptions(p, m), stream_);
    }

    // Throws, on every rank alike, the error of the first non-finite state of the batch: the
    // first node in the whole grid's order among the failures, at the first failing step
    // (`cell`: this rank's owned index, nodes_ when none; `when`: its step, or -1).
    void reportFailure(std::size_t cell, long long when) {
        const bool failed = cell < nodes_;
        std::uint64_t first = failed ? slab_.wholeOf(cell) : UINT64_MAX;
        std::uint64_t firstStep = failed && when > 0 ? static_cast<std::uint64_t>(when) : step_;
        if (!failed) firstStep = UINT64_MAX;
        if (slab_.distributed()) {
            const std::uint64_t mine = first;
            first = comm_->min(first);
            firstStep = comm_->min(firstStep);
            if (first == UINT64_MAX) return;
            std::string message;
            if (mine == first) message = failureMessage(cell, first, firstStep);
            std::vector<std::byte> bytes(message.size());
            if (!message.empty()) std::memcpy(bytes.data(), message.data(), message.size());
            const int owner = static_cast<int>(
                comm_->min(mine == first ? static_cast<std::uint64_t>(comm_->rank()) : UINT64_MAX));
            comm_->broadcast(bytes, owner);
            throw SimulationError(
                std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
        }
        if (failed) throw SimulationError(failureMessage(cell, first, firstStep));
    }

    std::string failureMessage(std::size_t cell, std::uint64_t wholeNode, std::uint64_t step) {
        const TissueState s = gpu_->download();
        std::size_t k = 0;
        while (k + 1 < s.columns.size() && std::isfinite(s.columns[k][cell]))
            ++k;
        std::string message =
            nonFiniteMessage(p_, program_->model(), static_cast<std::size_t>(wholeNode), k,
                             s.columns[k][cell], step, static_cast<double>(step) * p_.dt);
        // Float fails where double does not when a model subtracts nearly equal values: Decker
        // 2009 divides (1 - x_inf) / tau terms whose x_inf float rounds to exactly 1 at rest,
        // 0/0 at the first step (docs/CARDIAC.md, "Float and cancellation").
        if (p_.precision == 1)
            message +=
                "; the kernel computes in float (model.precision = float), which rounds a "
                "difference below ~1e-7 of its terms to 0: a model that then divides by it may "
                "run in double (model.precision = double)";
        return message;
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
        std::unique_ptr<TissueGpuBase> gpu = makeGpu(reload.program->model(), next, slab_);
        TissueState now = carryStates(program_->model(), gpu_->download(), reload.program->model());
        now.step = step_;
        now.time = time_;
        gpu->upload(now);
        gpu->setTissue(ownedPart(slab_, tissue_), extendedPart(slab_, tissue_));
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
    std::size_t nodes_ = 0;                   // this rank's (tissue_slab.hpp)
    dist::Communicator* comm_ = nullptr;
    TissueSlab slab_;
    CardiacParams ownedParams_{};    // p_ with the slab's dims: the snapshot layout
    std::size_t centre_ = SIZE_MAX;  // owned index of the centre node; SIZE_MAX elsewhere
    int centreRank_ = 0;
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
