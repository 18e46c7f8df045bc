// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A generated cell-model kernel loaded on the device (docs/design/cardiac.md section 4.2):
// the NVRTC image goes through cudaLibraryLoadData / cudaLibraryGetKernel and launches with
// cudaLaunchKernel, all runtime API, so the binary never links the driver library. Host
// compiled; only in CUDA builds.
#include <cuda_runtime_api.h>
#include <string>

#include "sim/models/cardiac/lang/cuda_emitter.hpp"
#include "sim/models/cardiac/nvrtc/nvrtc_compiler.hpp"

namespace cf::cardiac {

// "sm_XY" for the current device when NVRTC can emit a binary for it, else "compute_XY"
// (PTX, compiled by the driver at load).
std::string deviceArch();

class CellKernel {
public:
    CellKernel() = default;
    // Compiles `source` for the current device and loads it; throws KernelCompileError,
    // or Error when NVRTC or the device is unavailable. fastMath: --use_fast_math
    // (approximate exp, log and division; flushed denormals).
    CellKernel(const GeneratedSource& source, const std::string& name, bool fastMath = false);
    ~CellKernel();
    CellKernel(CellKernel&& other) noexcept;
    CellKernel& operator=(CellKernel&& other) noexcept;
    CellKernel(const CellKernel&) = delete;
    CellKernel& operator=(const CellKernel&) = delete;

    bool loaded() const noexcept { return kernel_ != nullptr; }
    // One step of `args.n` cells on `stream` (CfArgs of the kernel's precision).
    template <typename Real>
    void launch(const CfArgs<Real>& args, cudaStream_t stream) const {
        launchRaw(&args, args.n, stream);
    }

private:
    void launchRaw(const void* args, unsigned n, cudaStream_t stream) const;
    void release() noexcept;

    cudaLibrary_t library_ = nullptr;
    cudaKernel_t kernel_ = nullptr;
    std::string name_;
};

}  // namespace cf::cardiac
