// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// __constant__ memory is one per process: two instances of a model used in turn (a test
// comparing configurations, a window replacing a run) must each put their own parameter
// struct back before they launch, and must not overwrite it while the other instance's
// queued kernels (on its own stream) still read it. One ConstantOwner per __constant__
// symbol records whose struct is there and on which stream its work is queued.
#include <cuda_runtime_api.h>
#include <mutex>

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

}  // namespace cf::cuda
