// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A generated cell-model kernel loaded on the device (docs/design/cardiac.md section 4.2):
// the NVRTC image goes through cudaLibraryLoadData / cudaLibraryGetKernel and launches with
// cudaLaunchKernel, all runtime API, so the binary never links the driver library. The
// library's __constant__ blocks (CfParams and CfProtocol, cuda_emitter.hpp) are found with
// cudaLibraryGetGlobal at load and written with cudaMemcpyAsync on the caller's stream; they
// live as long as the library, and each CellKernel has its own. Host compiled; only in CUDA
// builds.
#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>
#include <string>
#include <vector>

#include "sim/core/errors.hpp"
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

    bool loaded() const noexcept { return !kernels_.empty(); }
    // The kernels a step launches (GeneratedSource::kernelNames): more than one when split.
    std::size_t kernelCount() const noexcept { return kernels_.size(); }
    // The size of the parameter block in bytes (parameterBlockReals values of the kernel's
    // precision).
    std::size_t parameterBytes() const noexcept { return blockBytes_; }
    // Writes the whole parameter block (parameterBlock<Real>(...), as many bytes as
    // parameterBytes(), else Error), ordered on `stream` after the work queued there: kernels
    // launched before keep the old values. Required before the first launch.
    template <typename Real>
    void setParameters(const std::vector<Real>& block, cudaStream_t stream) {
        setParameterBytes(block.data(), block.size() * sizeof(Real), stream);
    }
    void setParameterBytes(const void* data, std::size_t bytes, cudaStream_t stream);
    // The parameter block as the device holds it after the work queued on `stream` (waits).
    std::vector<std::uint8_t> readParameters(cudaStream_t stream) const;
    // Writes the protocol block (cf_protocol), ordered on `stream` as setParameters. Required
    // before the first launch.
    void setProtocol(const CfProtocol& protocol, cudaStream_t stream);
    // The protocol block as the device holds it after the work queued on `stream` (waits).
    std::vector<std::uint8_t> readProtocol(cudaStream_t stream) const;
    // One step of `args.n` cells on `stream` (CfArgs of the kernel's precision; every kernel of
    // a split step in turn, which needs args.next). Throws Error when the parameter block or the
    // protocol block was never written, or a split step has no args.next.
    template <typename Real>
    void launch(const CfArgs<Real>& args, cudaStream_t stream) const {
        if (kernels_.size() > 1 && args.next == nullptr)
            throw Error(name_ + ": a split step needs its scratch (CfArgs::next)");
        launchRaw(&args, args.n, stream);
    }

private:
    void launchRaw(const void* args, unsigned n, cudaStream_t stream) const;
    void release() noexcept;
    // One of the library's constant blocks (`where`, `bytes` long): written after the work
    // queued on `stream` (pageable host memory: `data` has been read when the call returns),
    // and read back after it (waits; zeros when no kernel is loaded).
    void writeBlock(void* where, const void* data, std::size_t bytes, cudaStream_t stream) const;
    std::vector<std::uint8_t> readBlock(const void* where, std::size_t bytes,
                                        cudaStream_t stream) const;

    cudaLibrary_t library_ = nullptr;
    std::vector<cudaKernel_t> kernels_;  // launched in this order for one step
    void* block_ = nullptr;  // the library's CfParams (device address; valid while loaded)
    std::size_t blockBytes_ = 0;
    bool blockWritten_ = false;
    void* protocol_ = nullptr;  // the library's CfProtocol (device address; valid while loaded)
    bool protocolWritten_ = false;
    std::size_t sharedBytes_ = 0;  // dynamic shared memory per launch (StateStorage::Shared)
    std::string name_;
};

}  // namespace cf::cardiac
