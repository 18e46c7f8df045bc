// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/cuda/cell_kernel.hpp"

#include <utility>

#include "sim/core/errors.hpp"
#include "sim/cuda/cuda_check.hpp"

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
    cudaError_t got = cudaSuccess;
    for (const std::string& kernel : source.kernelNames) {
        cudaKernel_t k = nullptr;
        if (got == cudaSuccess) got = cudaLibraryGetKernel(&k, library_, kernel.c_str());
        kernels_.push_back(k);
    }
    // The constant blocks: device addresses valid until the library is unloaded.
    if (got == cudaSuccess)
        got = cudaLibraryGetGlobal(&block_, &blockBytes_, library_, source.parameterBlock.c_str());
    std::size_t protocolBytes = 0;
    if (got == cudaSuccess)
        got = cudaLibraryGetGlobal(&protocol_, &protocolBytes, library_,
                                   source.protocolBlock.c_str());
    if (got != cudaSuccess) {
        release();
        CF_CUDA_CHECK(got);
    }
    if (protocolBytes != sizeof(CfProtocol)) {
        release();
        throw Error(name_ + ": the constant block '" + source.protocolBlock + "' holds " +
                    std::to_string(protocolBytes) + " bytes, expected " +
                    std::to_string(sizeof(CfProtocol)));
    }
    sharedBytes_ = source.sharedBytes;
    if (sharedBytes_ > 48 * 1024) {  // past the default, the kernel must ask for more
        int device = 0;
        CF_CUDA_CHECK(cudaGetDevice(&device));
        cudaError_t e = cudaSuccess;
        for (cudaKernel_t k : kernels_)
            if (e == cudaSuccess)
                e = cudaKernelSetAttributeForDevice(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                    static_cast<int>(sharedBytes_), device);
        if (e != cudaSuccess) {
            release();
            throw Error(name_ + ": the states in shared memory need " +
                        std::to_string(sharedBytes_) + " bytes per block, which " +
                        "this device does not give (" + cudaGetErrorString(e) + ")");
        }
    }
    const std::size_t expected = source.parameterBlockReals * source.realBytes;
    if (blockBytes_ != expected) {
        const std::size_t found = blockBytes_;
        release();
        throw Error(name_ + ": the constant block '" + source.parameterBlock + "' holds " +
                    std::to_string(found) + " bytes, expected " + std::to_string(expected));
    }
}

CellKernel::~CellKernel() {
    release();
}

CellKernel::CellKernel(CellKernel&& other) noexcept
    : library_(std::exchange(other.library_, nullptr)),
      kernels_(std::move(other.kernels_)),
      block_(std::exchange(other.block_, nullptr)),
      blockBytes_(std::exchange(other.blockBytes_, 0)),
      blockWritten_(std::exchange(other.blockWritten_, false)),
      protocol_(std::exchange(other.protocol_, nullptr)),
      protocolWritten_(std::exchange(other.protocolWritten_, false)),
      sharedBytes_(std::exchange(other.sharedBytes_, 0)),
      name_(std::move(other.name_)) {}

CellKernel& CellKernel::operator=(CellKernel&& other) noexcept {
    if (this != &other) {
        release();
        library_ = std::exchange(other.library_, nullptr);
        kernels_ = std::move(other.kernels_);
        other.kernels_.clear();
        block_ = std::exchange(other.block_, nullptr);
        blockBytes_ = std::exchange(other.blockBytes_, 0);
        blockWritten_ = std::exchange(other.blockWritten_, false);
        protocol_ = std::exchange(other.protocol_, nullptr);
        protocolWritten_ = std::exchange(other.protocolWritten_, false);
        sharedBytes_ = std::exchange(other.sharedBytes_, 0);
        name_ = std::move(other.name_);
    }
    return *this;
}

void CellKernel::release() noexcept {
    if (library_ != nullptr) cudaLibraryUnload(library_);
    library_ = nullptr;
    kernels_.clear();
    block_ = nullptr;
    blockBytes_ = 0;
    blockWritten_ = false;
    protocol_ = nullptr;
    protocolWritten_ = false;
}

void CellKernel::writeBlock(void* where, const void* data, std::size_t bytes,
                            cudaStream_t stream) const {
    if (where == nullptr) throw Error(name_ + ": no kernel loaded");
    CF_CUDA_CHECK(cudaMemcpyAsync(where, data, bytes, cudaMemcpyHostToDevice, stream));
}

std::vector<std::uint8_t> CellKernel::readBlock(const void* where, std::size_t bytes,
                                                cudaStream_t stream) const {
    std::vector<std::uint8_t> out(bytes);
    if (where == nullptr) return out;
    CF_CUDA_CHECK(cudaMemcpyAsync(out.data(), where, bytes, cudaMemcpyDeviceToHost, stream));
    CF_CUDA_CHECK(cudaStreamSynchronize(stream));
    return out;
}

void CellKernel::setParameterBytes(const void* data, std::size_t bytes, cudaStream_t stream) {
    if (block_ != nullptr && bytes != blockBytes_)
        throw Error(name_ + ": a parameter block of " + std::to_string(bytes) +
                    " bytes for a constant block of " + std::to_string(blockBytes_));
    writeBlock(block_, data, bytes, stream);
    blockWritten_ = true;
}

std::vector<std::uint8_t> CellKernel::readParameters(cudaStream_t stream) const {
    return readBlock(block_, blockBytes_, stream);
}

void CellKernel::setProtocol(const CfProtocol& protocol, cudaStream_t stream) {
    writeBlock(protocol_, &protocol, sizeof protocol, stream);
    protocolWritten_ = true;
}

std::vector<std::uint8_t> CellKernel::readProtocol(cudaStream_t stream) const {
    return readBlock(protocol_, sizeof(CfProtocol), stream);
}

void CellKernel::launchRaw(const void* args, unsigned n, cudaStream_t stream) const {
    if (n == 0) return;
    if (!blockWritten_)
        throw Error(name_ + ": launched before its parameter block (cf_params) was written");
    if (!protocolWritten_)
        throw Error(name_ + ": launched before its protocol block (cf_protocol) was written");
    void* params[] = {const_cast<void*>(args)};
    const dim3 block(kCellBlock);  // the generated kernel's shared-state stride
    const dim3 grid((n + block.x - 1) / block.x);
    // A kernel handle passed as the function: cudaLaunchKernel accepts a cudaKernel_t.
    for (cudaKernel_t k : kernels_) {
        CF_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(k), grid, block, params,
                                       sharedBytes_, stream));
        CF_CUDA_CHECK_LAUNCH(name_.c_str(), stream);
    }
}

}  // namespace cf::cardiac
