// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/cuda/cell_kernel.hpp"

#include <utility>

#include "sim/core/cuda_check.hpp"

namespace cf::cardiac {

std::string deviceArch() {
    int device = 0;
    CF_CUDA_CHECK(cudaGetDevice(&device));
    int major = 0, minor = 0;
    CF_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
    CF_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
    return "sm_" + std::to_string(major) + std::to_string(minor);
}

CellKernel::CellKernel(const GeneratedSource& source, const std::string& name, bool fastMath)
    : name_(name) {
    const CompiledKernel compiled = compileKernel(source, name, deviceArch(), fastMath);
    CF_CUDA_CHECK(cudaLibraryLoadData(&library_, compiled.image.data(), nullptr, nullptr, 0,
                                      nullptr, nullptr, 0));
    const cudaError_t got = cudaLibraryGetKernel(&kernel_, library_, source.kernelName.c_str());
    if (got != cudaSuccess) {
        release();
        CF_CUDA_CHECK(got);
    }
}

CellKernel::~CellKernel() {
    release();
}

CellKernel::CellKernel(CellKernel&& other) noexcept
    : library_(std::exchange(other.library_, nullptr)),
      kernel_(std::exchange(other.kernel_, nullptr)),
      name_(std::move(other.name_)) {}

CellKernel& CellKernel::operator=(CellKernel&& other) noexcept {
    if (this != &other) {
        release();
        library_ = std::exchange(other.library_, nullptr);
        kernel_ = std::exchange(other.kernel_, nullptr);
        name_ = std::move(other.name_);
    }
    return *this;
}

void CellKernel::release() noexcept {
    if (library_ != nullptr) cudaLibraryUnload(library_);
    library_ = nullptr;
    kernel_ = nullptr;
}

void CellKernel::launchRaw(const void* args, unsigned n, cudaStream_t stream) const {
    if (n == 0) return;
    void* params[] = {const_cast<void*>(args)};
    const dim3 block(128);
    const dim3 grid((n + block.x - 1) / block.x);
    // A kernel handle passed as the function: cudaLaunchKernel accepts a cudaKernel_t.
    CF_CUDA_CHECK(
        cudaLaunchKernel(reinterpret_cast<const void*>(kernel_), grid, block, params, 0, stream));
    CF_CUDA_CHECK_LAUNCH(name_.c_str(), stream);
}

}  // namespace cf::cardiac
