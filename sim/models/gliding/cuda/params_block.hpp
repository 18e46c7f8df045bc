// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The parameters of `gliding` in the GPU's __constant__ memory (issue 22). The kernels of
// smoluchowski_kernels.cu, motor_kernels.cu and fluid_kernels.cu read the live parameters
// (Vsp, Dt, Dr, Ur, Ut, cout, dt, growth_limit, koff, kon~, Mtot, cin, F, sigma_f, sigma_t) from
// a __constant__ GlidingParams. The build has no relocatable device code, so a __constant__
// symbol belongs to the .cu file that defines it: each of the three files defines its own copy
// and hands it out as a ParamsSymbol. view_kernels.cu reads no parameter (only the tables and
// the sizes) and has none. Sizes, device pointers, the tables' spacings and the step size of
// one outer step stay kernel arguments.
//
// Each host class that launches a file's kernels (SmoluchowskiCuda, MotorsCuda, FluidCuda)
// keeps its parameters in that file's symbol through a ParamsBlock, as the symbol's owner
// (sim/cuda/constant_owner.hpp): it binds its struct before each launch group, so instances
// used in turn (two models, a test's solvers) each launch with their own values. Every copy is
// asynchronous on the instance's stream: kernels queued before an upload keep the old values.
// Host-compiled code and the .cu files include this; it declares no device code.
#include <cuda_runtime_api.h>

#include "sim/cuda/constant_owner.hpp"
#include "sim/models/gliding/gliding_params.hpp"

namespace cf::gliding::cuda {

// One __constant__ GlidingParams (defined in a .cu file) with its owner: the shared
// upload/bind/release/download of sim/cuda/constant_owner.hpp.
using ParamsSymbol = cf::cuda::ConstantBlock<GlidingParams>;

// The symbols of the kernel files (defined there). motor_kernels.cu is built twice (exact and
// fast math), each build with its own symbol: MotorKernelBuild::paramsSymbol (motor_kernels.cuh).
ParamsSymbol& smoluchowskiParamsSymbol();
ParamsSymbol& fluidParamsSymbol();

// One instance's parameters in one symbol, copied on the instance's stream. Neither copied nor
// moved: the object's address is its identity as the symbol's owner.
class ParamsBlock {
public:
    ParamsBlock(ParamsSymbol& symbol, cudaStream_t stream) : symbol_(symbol), stream_(stream) {}
    // Releases the symbol (before the caller destroys its stream): a later instance, even at
    // this address, uploads again.
    ~ParamsBlock() { symbol_.release(this); }
    ParamsBlock(const ParamsBlock&) = delete;
    ParamsBlock& operator=(const ParamsBlock&) = delete;
    ParamsBlock(ParamsBlock&&) = delete;
    ParamsBlock& operator=(ParamsBlock&&) = delete;

    // Copies p into the symbol after the work queued so far (reset, live edits). Waits for
    // another owner's queued work first (ConstantOwner::acquire). Throws CudaError; the next
    // bind then uploads again.
    void upload(const GlidingParams& p);
    // Before every launch group of the instance's kernels: uploads p when another owner has
    // used the symbol since, when the last upload failed, or when p differs from the last
    // upload (a caller that passes new values without upload()); otherwise copies nothing.
    void bind(const GlidingParams& p);
    // The symbol's struct after the work queued on the stream (waits for it): what the
    // instance's kernels read, when bind() came first.
    GlidingParams download() const;

private:
    ParamsSymbol& symbol_;
    cudaStream_t stream_;
    GlidingParams last_{};  // the bytes of the last upload
    bool current_ = false;  // last_ reached the symbol
};

}  // namespace cf::gliding::cuda
