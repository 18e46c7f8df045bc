// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Owning device memory (move-only) and the non-owning span that kernels receive.
// Include only in CUDA-enabled sources (.cu, or .cpp files of the cuda/ folders).
#include <cstddef>
#include <cuda_runtime_api.h>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "sim/core/fault_injection.hpp"
#include "sim/core/host_device.hpp"
#include "sim/cuda/cuda_check.hpp"

namespace cf::cuda {

// What a kernel gets: a pointer and a length, no ownership. Trivially copyable so it
// can travel in kernel argument structs.
template <typename T>
struct DeviceSpan {
    T* data = nullptr;
    std::size_t size = 0;

    CF_HD T& operator[](std::size_t i) const { return data[i]; }
    CF_HD bool empty() const { return size == 0; }
    CF_HD operator DeviceSpan<const T>() const { return {data, size}; }
};

template <typename T>
class DeviceBuffer {
    static_assert(std::is_trivially_copyable_v<T>, "device buffers hold trivially copyable types");

public:
    using value_type = T;

    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t count) { allocate(count); }
    explicit DeviceBuffer(std::span<const T> host) {
        allocate(host.size());
        copyFromHost(host);
    }
    ~DeviceBuffer() { release(); }

    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        if (this != &other) {
            release();
            data_ = std::exchange(other.data_, nullptr);
            size_ = std::exchange(other.size_, 0);
        }
        return *this;
    }

    // Reallocates only when the size changes; contents are not preserved.
    void resize(std::size_t count) {
        if (count == size_) return;
        release();
        allocate(count);
    }

    T* data() noexcept { return data_; }
    const T* data() const noexcept { return data_; }
    std::size_t size() const noexcept { return size_; }
    std::size_t bytes() const noexcept { return size_ * sizeof(T); }
    bool empty() const noexcept { return size_ == 0; }

    DeviceSpan<T> span() noexcept { return {data_, size_}; }
    DeviceSpan<const T> span() const noexcept { return {data_, size_}; }

    void copyFromHost(std::span<const T> host, cudaStream_t stream = nullptr) {
        checkSize(host.size());
        if (host.empty()) return;
        CF_CUDA_CHECK(
            cudaMemcpyAsync(data_, host.data(), host.size_bytes(), cudaMemcpyHostToDevice, stream));
        CF_CUDA_CHECK(cudaStreamSynchronize(stream));
    }
    void copyToHost(std::span<T> host, cudaStream_t stream = nullptr) const {
        checkSize(host.size());
        if (host.empty()) return;
        CF_CUDA_CHECK(
            cudaMemcpyAsync(host.data(), data_, host.size_bytes(), cudaMemcpyDeviceToHost, stream));
        CF_CUDA_CHECK(cudaStreamSynchronize(stream));
    }
    std::vector<T> toHost(cudaStream_t stream = nullptr) const {
        std::vector<T> out(size_);
        copyToHost(out, stream);
        return out;
    }
    void fillZero(cudaStream_t stream = nullptr) {
        if (size_ > 0) CF_CUDA_CHECK(cudaMemsetAsync(data_, 0, bytes(), stream));
    }

private:
    void allocate(std::size_t count) {
        if (count == 0) return;
        void* p = nullptr;
        // An injected shortage (CELLFORGE_FAULTS=device-memory=...) fails as cudaMalloc does.
        CF_CUDA_CHECK(deviceAllocationFails(count * sizeof(T)) ? cudaErrorMemoryAllocation
                                                               : cudaMalloc(&p, count * sizeof(T)));
        deviceBytesAllocated(count * sizeof(T));
        data_ = static_cast<T*>(p);
        size_ = count;
    }
    void release() noexcept {
        if (data_ != nullptr) {
            cudaFree(data_);  // no throw from a destructor path
            deviceBytesReleased(size_ * sizeof(T));
        }
        data_ = nullptr;
        size_ = 0;
    }
    void checkSize(std::size_t n) const {
        if (n != size_)
            throw CudaError(static_cast<int>(cudaErrorInvalidValue),
                            "host/device copy of " + std::to_string(n) +
                                " elements into a device buffer of " + std::to_string(size_),
                            "DeviceBuffer copy", "device_buffer.hpp");
    }

    T* data_ = nullptr;
    std::size_t size_ = 0;
};

// Scratch storage (CUB temporary storage, ...) that only grows: returns a pointer to at
// least `bytes` bytes, reallocating only when the request exceeds what is held.
inline void* ensureScratch(DeviceBuffer<unsigned char>& scratch, std::size_t bytes) {
    if (scratch.size() < bytes) scratch.resize(bytes);
    return scratch.data();
}

}  // namespace cf::cuda
