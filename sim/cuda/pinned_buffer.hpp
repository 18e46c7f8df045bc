// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Page-locked host memory, so that copies between it and the device are asynchronous (halo
// planes of distributed runs: sim/models/cardiac/cuda/slab_diffusion.hpp,
// sim/models/lattice/cuda/lattice_halos.hpp).
#include <cstddef>
#include <cuda_runtime_api.h>
#include <utility>

#include "sim/cuda/cuda_check.hpp"

namespace cf::cuda {

template <typename T>
class PinnedBuffer {
public:
    PinnedBuffer() = default;
    explicit PinnedBuffer(std::size_t n) : n_(n) {
        if (n > 0) CF_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&p_), n * sizeof(T)));
    }
    ~PinnedBuffer() {
        if (p_) cudaFreeHost(p_);
    }
    PinnedBuffer(PinnedBuffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(o.n_) {}
    PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
        std::swap(p_, o.p_);
        std::swap(n_, o.n_);
        return *this;
    }
    T* data() { return p_; }
    std::size_t size() const { return n_; }

private:
    T* p_ = nullptr;
    std::size_t n_ = 0;
};

}  // namespace cf::cuda
