// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The thin-gap Stokes solve of `gliding` on one GPU, in double (docs/design/gliding.md 2.8,
// 3.2-3.5): the device twin of FluidCpu. The response tensor M(k) (built on the host from
// precomputeTransfer by fluidResponse, the same bytes as the CPU's), the orientation tables,
// the moments, the stresses, the forcing, the batch-2 spectrum and the flow at z0 live in
// device buffers; one pass is stress -> forcing -> cuFFT D2Z (batch 2) -> stokesApply ->
// cuFFT Z2D (batch 2) -> velocityGradient on one stream. The kernels read the live parameters
// from the __constant__ block of fluid_kernels.cu, which this object owns while it launches
// (params_block.hpp): solve binds the GlidingParams it is given. Include only in CUDA-enabled
// sources.
#include <cstdint>
#include <cuda_runtime_api.h>

#include "sim/cuda/device_buffer.hpp"
#include "sim/models/gliding/cuda/cufft_loader.hpp"
#include "sim/models/gliding/cuda/params_block.hpp"
#include "sim/models/gliding/fluid_physics.hpp"
#include "sim/models/gliding/gliding_params.hpp"
#include "sim/models/gliding/gliding_tables.hpp"
#include "sim/models/gliding/gliding_zgrid.hpp"
#include "sim/models/gliding/smoluchowski_physics.hpp"

namespace cf::gliding::cuda {

class FluidCuda {
public:
    // Builds the z-grid and the transfer table on the host, uploads M(k) and cos/sin theta,
    // and plans the 2-D D2Z/Z2D transforms (n, n), batch 2, on `stream` with a work area this
    // object owns. The flow starts at rest. Throws ParameterError for an unusable z-grid,
    // SimulationError when cuFFT cannot be loaded and CudaError on device failures.
    FluidCuda(const GlidingParams& p, const GlidingTables& t, cudaStream_t stream = nullptr,
              const CufftLibrary& cufft = CufftLibrary::instance());

    // The parameters in the kernels' __constant__ block (params_block.hpp): upload copies p
    // there now, ordered on the stream (reset, live edits); bind does when another instance has
    // used the block since or p differs from the last upload (solve binds its own); deviceParams
    // reads the block back after the queued work.
    void uploadParams(const GlidingParams& p) { params_.upload(p); }
    void bindParams(const GlidingParams& p) { params_.bind(p); }
    GlidingParams deviceParams() const { return params_.download(); }

    // One fluid solve of the outer step (design M11), as FluidCpu::solve: the moments of Psi
    // (device, (y, x, theta) like HostState::psi), then iterations(p, maxDensity) passes of
    // [stress from the strain of the current flow (the lag), forcing with the motor force
    // (fxDevice, fyDevice per cell; both null: none), Stokes apply, gradient], each overwriting
    // the device flow. maxDensity is max c of this Psi, which the caller has from the filament
    // step's moments (the CPU finds it itself); it only picks the iteration count. With
    // fluid.enabled off the flow is set to rest. Queued on the stream; no host sync.
    void solve(const GlidingParams& p, const double* psiDevice, const double* fxDevice,
               const double* fyDevice, double maxDensity);

    // Device pointers to the flow (u, v, dudx, dudy, dvdx, dvdy), valid for this object's life.
    FlowAtZ0 deviceFlow() const;
    // Sets the flow (the lagged one for the next solve); an empty FlowField is the fluid at
    // rest. Throws SimulationError for a field of the wrong size.
    void upload(const FlowField& f);
    // The flow to the host, after the work queued so far.
    void download(FlowField& f) const;

    // The in-plane forcing (gx, gy per cell) of the last pass of the last solve(), device ->
    // host after the work queued so far: the twin of FluidCpu::lastForcing, the input of the
    // output-time profiles. Zeros before the first solve with the fluid on; a solve with
    // fluid.enabled off leaves the previous forcing.
    void downloadForcing(std::vector<double>& gx, std::vector<double>& gy) const;

    // As FluidCpu: the lag amplification g for max density cmax and the passes per solve.
    double lagFactor(const GlidingParams& p, double cmax) const;
    std::int32_t iterations(const GlidingParams& p, double cmax) const;
    // Passes made by the last solve().
    std::int32_t lastIterations() const { return lastIterations_; }

    const ZGrid& zgrid() const { return zgrid_; }
    const TransferTable& transfer() const { return table_; }
    cudaStream_t stream() const { return stream_; }

private:
    void pass(const double* fx, const double* fy);

    cudaStream_t stream_;
    std::int32_t n_, ntheta_;
    double dx_, dtheta_;
    ZGrid zgrid_;
    TransferTable table_;
    double lagSymbolMax_ = 0;
    cf::cuda::DeviceBuffer<double> mxx_, mxy_, myy_, cosT_, sinT_;
    cf::cuda::DeviceBuffer<double> d11_, d12_, d22_, s1111_, s1112_, s1122_, s1222_, s2222_;
    cf::cuda::DeviceBuffer<double> t11_, t12_, t22_;
    cf::cuda::DeviceBuffer<double> forcing_;   // gx then gy: the D2Z input
    cf::cuda::DeviceBuffer<double> spectrum_;  // 2 n (n/2 + 1) complex, interleaved
    cf::cuda::DeviceBuffer<double> uv_;        // u then v: the Z2D output
    cf::cuda::DeviceBuffer<double> dudx_, dudy_, dvdx_, dvdy_;
    cf::cuda::DeviceBuffer<unsigned char> work_;
    CufftPlan forward_, backward_;
    ParamsBlock params_;
    std::int32_t lastIterations_ = 0;
};

}  // namespace cf::gliding::cuda
