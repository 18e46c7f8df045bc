// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The filament (Smoluchowski) step of `gliding` on one GPU, in double (docs/design/gliding.md
// 2.2-2.4, 3.2-3.5): the device twin of SmoluchowskiCpu. Psi, A^n, A^{n-1}, the moments, R and
// its spectrum live in device buffers; one step is moments -> smolFlux -> cflFinish -> cnRhs
// -> cuFFT D2Z -> cnDivide -> cuFFT Z2D on one stream, with dt kept on the device, so a CFL
// step needs no host round trip. The kernels read the live parameters from the __constant__
// block of smoluchowski_kernels.cu, which this object owns while it launches (params_block.hpp):
// step and cflRate bind the GlidingParams they are given. Include only in CUDA-enabled sources.
#include <cstdint>
#include <cuda_runtime_api.h>
#include <vector>

#include "sim/cuda/device_buffer.hpp"
#include "sim/models/gliding/cuda/cufft_loader.hpp"
#include "sim/models/gliding/cuda/params_block.hpp"
#include "sim/models/gliding/cuda/smoluchowski_kernels.cuh"
#include "sim/models/gliding/gliding_params.hpp"
#include "sim/models/gliding/gliding_state.hpp"
#include "sim/models/gliding/gliding_tables.hpp"
#include "sim/models/gliding/smoluchowski_physics.hpp"

namespace cf::gliding::cuda {

class SmoluchowskiCuda {
public:
    // Uploads the tables and plans the 3-D D2Z/Z2D transforms (N, N, Ntheta) on `stream`
    // (nullptr: the legacy default stream). Throws SimulationError when cuFFT cannot be
    // loaded (CufftLibrary::status() says why) and CudaError on device failures.
    explicit SmoluchowskiCuda(const GlidingTables& t, cudaStream_t stream = nullptr,
                              const CufftLibrary& cufft = CufftLibrary::instance());

    // Psi from the host (sizes must match the tables); forgets the AB2 history.
    void upload(const HostState& s);
    // Psi to the host, after the work queued so far.
    void download(HostState& s) const;

    // The parameters in the kernels' __constant__ block (params_block.hpp): upload copies p
    // there now, ordered on the stream (reset, live edits); bind does when another instance has
    // used the block since or p differs from the last upload (step and cflRate bind theirs);
    // deviceParams reads the block back after the queued work.
    void uploadParams(const GlidingParams& p) { params_.upload(p); }
    void bindParams(const GlidingParams& p) { params_.bind(p); }
    GlidingParams deviceParams() const { return params_.download(); }

    // One step with the CFL dt (design M11: C_out/rate, at most growth_limit x the previous
    // step), computed and kept on the device; the CPU equivalent is step(cflStep()).
    void step(const GlidingParams& p, const FlowAtZ0* deviceFlow = nullptr);
    // One step of the given size dt (time.dt_mode = fixed).
    void step(const GlidingParams& p, double dt, const FlowAtZ0* deviceFlow = nullptr);

    // The last step's dt, the one before it and the CFL rate of Psi before it (downloads;
    // waits for the stream).
    StepScalars scalars() const;

    std::int64_t steps() const { return steps_; }
    // The CFL rate of the current Psi (moments and fluxes, then the block maxima downloaded:
    // waits for the stream). For time.dt_mode = fixed, whose step must be checked before it is
    // taken. A^n is recomputed by the next step.
    double cflRate(const GlidingParams& p, const FlowAtZ0* deviceFlow = nullptr);
    // The AB2 history for checkpoints: A^{n-1} and the previous step (waits for the stream),
    // and its restore (the next step continues as if it had never stopped).
    void downloadHistory(std::vector<double>& aPrev, double& dtPrev) const;
    void setHistory(const std::vector<double>& aPrev, double dtPrev, std::int64_t steps);
    // Forget the AB2 history: the next step is forward Euler in A again.
    void restart() { steps_ = 0; }

    double* devicePsi() { return psi_.data(); }
    const double* devicePsi() const { return psi_.data(); }
    DeviceMoments deviceMoments();  // of the Psi of the last step's start
    cudaStream_t stream() const { return stream_; }

private:
    void run(const GlidingParams& p, bool useCfl, double dt, const FlowAtZ0* flow);
    DeviceTables tables() const;
    FluxArgs fluxArgs(const GlidingParams& p, const FlowAtZ0* flow);

    cudaStream_t stream_;
    std::int32_t n_, ntheta_, nh_;
    double dx_, dtheta_;
    cf::cuda::DeviceBuffer<double> cosT_, sinT_, faceCos_, faceSin_, sigmaX_, sigmaTheta_;
    cf::cuda::DeviceBuffer<double> psi_, a_, aPrev_, r_, spectrum_;
    cf::cuda::DeviceBuffer<double> c_, px_, py_, d11_, d12_, d22_;
    cf::cuda::DeviceBuffer<double> blockMax_;
    cf::cuda::DeviceBuffer<StepScalars> scalars_;
    cf::cuda::DeviceBuffer<unsigned char> work_;
    CufftPlan forward_, backward_;
    ParamsBlock params_;
    std::int64_t steps_ = 0;
};

}  // namespace cf::gliding::cuda
