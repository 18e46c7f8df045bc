// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The CUDA backend's device state of `cardiac` in one precision (cardiac_cuda.cpp): the
// states of the nodes this rank owns (the whole grid on one rank), the cell kernel, the
// diffusion (over several ranks through SlabDiffusion) and the end-of-step kernels.
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sim/cuda/cuda_check.hpp"
#include "sim/cuda/device_buffer.hpp"
#include "sim/models/cardiac/cardiac_model.hpp"
#include "sim/models/cardiac/cardiac_views.hpp"
#include "sim/models/cardiac/cuda/cell_kernel.hpp"
#include "sim/models/cardiac/cuda/slab_diffusion.hpp"
#include "sim/models/cardiac/cuda/tissue_kernels.cuh"
#include "sim/models/cardiac/lang/invariants.hpp"
#include "sim/models/cardiac/lang/lookup_tables.hpp"
#include "sim/models/cardiac/tissue_slab.hpp"

namespace cf::cardiac {

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
    // The tissue mask on the owned and the extended layout (tissue_slab.hpp; empty: all).
    virtual void setTissue(const std::vector<unsigned char>& owned,
                           const std::vector<unsigned char>& extended) = 0;
    // Host seconds spent waiting for halo planes (0 on one rank), and what carries them.
    virtual double haloSeconds() const = 0;
    virtual std::string haloTransport() const = 0;
    // One step from t; `live` is what TissueLive holds (bound by the caller), `substeps` its
    // diffusion sub-steps.
    virtual void step(const CardiacParams& p, const cuda::TissueLive& live, int substeps,
                      std::uint64_t step, double t) = 0;
    virtual std::vector<StateArray> stateArrays(const CheckedModel& m) = 0;
    virtual ModelViews views(const CardiacParams& p, const CheckedModel& m, double time) = 0;
};

template <typename Real>
class TissueGpu final : public TissueGpuBase {
public:
    // `slab` and `comm` (null: one rank) say which nodes this rank owns.
    TissueGpu(const CheckedModel& m, const TissueSlab& slab, dist::Communicator* comm,
              bool fastMath, const EmitOptions& emit, cudaStream_t stream)
        : nodes_(slab.ownedNodes()),
          slab_(slab),
          pitch_((nodes_ + 31) / 32 * 32),
          states_(m.states.size()),
          potential_(static_cast<std::size_t>(m.stateOf(m.potential))),
          stream_(stream),
          model_(std::make_shared<const CheckedModel>(m)),
          tables_(m.lookup.has_value()) {
        const GeneratedSource source =
            emitCuda(m, sizeof(Real) == 4 ? Precision::Float : Precision::Double, emit);
        invariants_ = source.invariants;
        kernel_ = CellKernel(source, m.name + ".cu", fastMath);
        if (kernel_.kernelCount() > 1) next_.resize(states_ * pitch_);  // split (Opt3)
        y_.resize(states_ * pitch_);
        vBefore_.resize(nodes_);
        vA_.resize(nodes_);
        vB_.resize(nodes_);
        activation_.resize(nodes_);
        fail_.resize(1);
        failStep_.resize(1);
        viewV_.resize(nodes_);
        viewAct_.resize(nodes_);
        if (slab.distributed())
            slabDiffusion_ = std::make_unique<SlabDiffusion<Real>>(slab_, *comm, stream);
        stepEndInKernel_ = stepEndInKernelRequested();
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

    // State-major on the device (each state's nodes together, rows `pitch_` apart).
    std::vector<StateArray> stateArrays(const CheckedModel& m) override {
        return tissueStateArrays<Real>(m, nodes_, y_.data(), pitch_, 1, activation_.data(),
                                       MemorySpace::Device);
    }

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
        // Terms of the parameters alone (EmitOptions::hoistInvariants), in double.
        const std::vector<Real> block = cardiac::parameterBlock<Real>(
            p.dt, p.amplitude, values, invariantValues(*model_, invariants_, values));
        const CfProtocol protocol = cardiac::protocolBlock(p, slab_.slab.axis, slab_.slab.begin,
                                                           slab_.owned[slab_.slab.axis]);
        std::vector<Real> lut;
        if (tables_) {
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
        if (tables_) {
            lut_.resize(lut.size());
            lut_.copyFromHost(lut, stream_);
        }
    }

    std::vector<std::uint8_t> parameterBlock() override { return kernel_.readParameters(stream_); }
    std::vector<std::uint8_t> protocolBlock() override { return kernel_.readProtocol(stream_); }

    void setTissue(const std::vector<unsigned char>& owned,
                   const std::vector<unsigned char>& extended) override {
        hasTissue_ = !owned.empty();
        if (hasTissue_) {
            tissue_.resize(nodes_);
            tissue_.copyFromHost(owned, stream_);
        }
        if (slabDiffusion_) slabDiffusion_->setTissue(extended);
    }

    double haloSeconds() const override {
        return slabDiffusion_ ? slabDiffusion_->haloSeconds() : 0.0;
    }
    std::string haloTransport() const override {
        return slabDiffusion_ ? slabDiffusion_->transport() : "none (one rank)";
    }

    void step(const CardiacParams& p, const cuda::TissueLive& live, int substeps,
              std::uint64_t step, double t) override {
        Real* v = y_.data() + potential_ * pitch_;
        Real* trace = traced_ < trace_.size() ? trace_.data() + traced_++ : nullptr;
        // Without diffusion the cell kernel's potential is the step's last word, so the kernel
        // can also end the step (activation, probe, failure step): one launch and one pass
        // over the potential fewer per step (CfStepEnd; not with
        // CELLFORGE_CARDIAC_STEP_END=separate).
        const bool endInKernel = stepEndInKernel_ && !diffuses(live);
        CfStepEnd<Real> end{};
        if (endInKernel)
            end = {activation_.data(),
                   trace,
                   failStep_.data(),
                   static_cast<long long>(step + 1),
                   static_cast<unsigned long long>(probe_),
                   live.threshold,
                   live.dt};
        // The kernel decides from its protocol block whether the pulse is on at t and which
        // nodes it stimulates (with the CPU's arithmetic); here only the tissue's shape.
        const CfArgs<Real> args{y_.data(),
                                hasTissue_ ? tissue_.data() : nullptr,
                                fail_.data(),
                                t,
                                static_cast<unsigned>(nodes_),
                                static_cast<unsigned>(pitch_),
                                tables_ ? lut_.data() : nullptr,
                                vBefore_.data(),  // the kernel keeps V before its step
                                kernel_.kernelCount() > 1 ? next_.data() : nullptr,
                                end};
        kernel_.launch(args, stream_);
        if (endInKernel) return;
        diffuse(p, live, substeps, v);
        const cuda::StepEnd stepEnd{fail_.data(), failStep_.data(),
                                    static_cast<long long>(step + 1), probe_};
        cuda::launchEndOfStep<Real>(vBefore_.data(), v, activation_.data(), nodes_, t, stepEnd,
                                    trace, stream_);
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

    // Without diffusion the cell kernel ends the step itself (CfStepEnd): the default, 8 %
    // faster than the separate end-of-step kernel for TP06 in float on the H200 (1.58e10
    // against 1.47e10 cell-steps/s; docs/CARDIAC.md "Generator transformations").
    // CELLFORGE_CARDIAC_STEP_END=separate keeps the second kernel, for comparison; any other value
    // is refused, so a comparison cannot silently time the same path twice.
    static bool stepEndInKernelRequested() {
        const char* value = std::getenv("CELLFORGE_CARDIAC_STEP_END");
        if (value == nullptr || *value == '\0') return true;
        const std::string_view v(value);
        if (v == "kernel") return true;
        if (v == "separate") return false;
        throw InputError("CELLFORGE_CARDIAC_STEP_END=" + std::string(v) +
                         ": the end of a cardiac step is one of kernel, separate");
    }
    static bool diffuses(const cuda::TissueLive& live) {
        return live.coeff[0] != 0.0 || live.coeff[1] != 0.0 || live.coeff[2] != 0.0;
    }
    // Explicit diffusion of the potential in `substeps` sub-steps (coefficients and sub-step
    // from TissueLive); nothing when every coefficient is 0.
    void diffuse(const CardiacParams& p, const cuda::TissueLive& live, int substeps, Real* v) {
        if (!diffuses(live)) return;
        if (slabDiffusion_) {
            slabDiffusion_->diffuse(v, substeps);
            return;
        }
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

    std::size_t nodes_;
    const TissueSlab slab_;  // a copy: SlabDiffusion keeps a reference to it
    std::size_t pitch_, states_, potential_;
    cudaStream_t stream_;
    std::shared_ptr<const CheckedModel> model_;  // the table's and the invariants' terms
    bool tables_;                                // the model has a lookup plan
    std::vector<TermPtr> invariants_;            // GeneratedSource::invariants
    CellKernel kernel_;
    DeviceBuffer<Real> y_, vBefore_, vA_, vB_, lut_;
    DeviceBuffer<Real> next_;  // split kernels' new states (EmitOptions::parts > 1)
    DeviceBuffer<double> activation_;
    DeviceBuffer<unsigned char> tissue_;  // tissueMask (tissue.mesh); unused without one
    bool hasTissue_ = false;
    DeviceBuffer<int> fail_;
    DeviceBuffer<long long> failStep_;
    DeviceBuffer<float> viewV_, viewAct_, viewExtra_;
    DeviceBuffer<Real> trace_;
    std::size_t probe_ = 0, traced_ = 0;
    bool stepEndInKernel_ = true;                         // CELLFORGE_CARDIAC_STEP_END
    std::unique_ptr<SlabDiffusion<Real>> slabDiffusion_;  // over several ranks only
};

// The TissueLive of `p` and its diffusion sub-steps.
struct TissuePlan {
    cuda::TissueLive live{};
    int substeps = 1;
};

inline TissuePlan tissuePlan(const CardiacParams& p) {
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

}  // namespace cf::cardiac
