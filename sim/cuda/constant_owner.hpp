// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// __constant__ memory is one per process: two instances of a model used in turn (a test
// comparing configurations, a window replacing a run) must each put their own parameter
// struct back before they launch, and must not overwrite it while the other instance's
// queued kernels (on its own stream) still read it. One ConstantOwner per __constant__
// symbol records whose struct is there and on which stream its work is queued.
#include <cuda_runtime_api.h>
#include <mutex>

#include "sim/cuda/cuda_check.hpp"

namespace cf::cuda {

class ConstantOwner {
public:
    // Makes `owner` (launching on `stream`) the holder, first waiting until the previous
    // holder's queued work has finished. True when the holder changed: the caller must
    // upload its struct (ordered on `stream`) before launching.
    bool acquire(const void* owner, cudaStream_t stream) {
        std::lock_guard lock(mutex_);
        if (holder_ == owner) return false;
        if (holder_ != nullptr && holderStream_ != stream) cudaStreamSynchronize(holderStream_);
        holder_ = owner;
        holderStream_ = stream;
        return true;
    }
    // The instance goes away (before its stream is destroyed): a later instance, even at
    // the same address, uploads again and waits for nothing of this one.
    void release(const void* owner) {
        std::lock_guard lock(mutex_);
        if (holder_ == owner) holder_ = nullptr;
    }

private:
    std::mutex mutex_;
    const void* holder_ = nullptr;
    cudaStream_t holderStream_ = nullptr;
};

// One __constant__ symbol holding a plain struct T, with its owner: what every model's kernel
// file does with its parameter block (upload at reset and on a live edit, bind before each
// launch group, release when the instance goes, read back for deviceParameterBlock). The .cu
// file that defines the symbol keeps one of these, made from the symbol itself.
template <typename T>
class ConstantBlock {
public:
    explicit ConstantBlock(const T& symbol) : symbol_(&symbol) {}
    // Makes `owner` the holder (after the previous holder's queued work) and copies `value`
    // after the work queued on `stream`: kernels already queued keep the old values.
    void upload(const T& value, const void* owner, cudaStream_t stream) {
        owner_.acquire(owner, stream);
        copy(value, stream);
    }
    // Before a launch group: copies `value` only when another owner has used the symbol since.
    void bind(const T& value, const void* owner, cudaStream_t stream) {
        if (owner_.acquire(owner, stream)) copy(value, stream);
    }
    void release(const void* owner) { owner_.release(owner); }
    // The struct the symbol holds after the work queued on `stream` (waits for it).
    T download(cudaStream_t stream) const {
        T value{};
        CF_CUDA_CHECK(cudaMemcpyFromSymbolAsync(&value, symbol_, sizeof(T), 0,
                                                cudaMemcpyDeviceToHost, stream));
        CF_CUDA_CHECK(cudaStreamSynchronize(stream));
        return value;
    }

private:
    void copy(const T& value, cudaStream_t stream) {
        CF_CUDA_CHECK(
            cudaMemcpyToSymbolAsync(symbol_, &value, sizeof(T), 0, cudaMemcpyHostToDevice, stream));
    }

    const void* symbol_;  // the symbol, as the runtime's symbol copies take it
    ConstantOwner owner_;
};

}  // namespace cf::cuda
