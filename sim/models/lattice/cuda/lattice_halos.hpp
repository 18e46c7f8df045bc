// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The z sweep of a lattice z-slab on the device (lattice_slab.hpp): the halo planes of every
// layer of the current lattice (word planes, then identity slots) arrive from the
// neighbouring ranks while the planes not next to a halo are swept, then the two planes
// next to the halos are. z-planes are contiguous in each layer, so the planes go straight
// from and to the device arrays:
//  - with a stream-ordered exchange (NCCL, Communicator::streamExchange) on a second stream
//    that waits for the lattice and that the main stream waits for before the boundary
//    planes: nothing waits on the host;
//  - else through MPI: device pointers where the library takes them, otherwise pinned host
//    copies made on the second stream; the host exchanges them while the inner planes'
//    sweep runs.
// The messages are those of the CPU slab (lattice_cpu.cpp): a plane arriving from below has
// tag 2 k, from above 2 k + 1, for layer k (word plane w: k = w; identity slot s: k = 4 + s).
#include <chrono>
#include <cstdint>
#include <cuda_runtime_api.h>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "sim/cuda/cuda_check.hpp"
#include "sim/cuda/pinned_buffer.hpp"
#include "sim/dist/communicator.hpp"
#include "sim/models/lattice/lattice_slab.hpp"

namespace cf::lattice::cuda {

class SlabHalos {
public:
    // `layers` layer numbers (tags as above) of the lattice copies the sweeps read.
    SlabHalos(const SlabLayout& l, std::vector<int> layers, dist::Communicator& comm,
              cudaStream_t stream)
        : l_(l),
          layers_(std::move(layers)),
          comm_(comm),
          stream_(stream),
          onStream_(comm.streamExchange()),
          device_(onStream_ != nullptr || comm.deviceBuffers()) {
        CF_CUDA_CHECK(cudaStreamCreateWithFlags(&halo_, cudaStreamNonBlocking));
        CF_CUDA_CHECK(cudaEventCreateWithFlags(&ready_, cudaEventDisableTiming));
        CF_CUDA_CHECK(cudaEventCreateWithFlags(&copied_, cudaEventDisableTiming));
        CF_CUDA_CHECK(cudaEventCreateWithFlags(&arrived_, cudaEventDisableTiming));
        if (!device_) {
            // [layer][side]: side 0 the first own plane (to below) / the halo below.
            send_ = cf::cuda::PinnedBuffer<std::uint32_t>(2 * layers_.size() * l_.plane);
            recv_ = cf::cuda::PinnedBuffer<std::uint32_t>(2 * layers_.size() * l_.plane);
        }
        transfers_.reserve(4 * layers_.size());
    }
    ~SlabHalos() {
        cudaStreamSynchronize(halo_);
        cudaEventDestroy(ready_);
        cudaEventDestroy(copied_);
        cudaEventDestroy(arrived_);
        cudaStreamDestroy(halo_);
    }
    SlabHalos(const SlabHalos&) = delete;
    SlabHalos& operator=(const SlabHalos&) = delete;

    // The z sweep of the lattice whose layers start at `base[k]` (device; layer k of
    // layers()): sweep(zBegin, zEnd) queues the sweep of local planes [zBegin, zEnd) on
    // the main stream. Own planes are 1..count.
    template <class Sweep>
    void zSweep(std::uint32_t* const* base, Sweep&& sweep) {
        const int count = l_.slab.count();
        CF_CUDA_CHECK(cudaEventRecord(ready_, stream_));  // the lattice is written
        CF_CUDA_CHECK(cudaStreamWaitEvent(halo_, ready_, 0));
        if (onStream_) {
            onStream_->exchange(transfersOf(base), halo_);
            if (count > 2) sweep(2, count);
        } else {
            if (!device_) copyOut(base);
            CF_CUDA_CHECK(cudaEventRecord(copied_, halo_));
            if (count > 2) sweep(2, count);
            // The inner planes' sweep runs on while the host waits for the planes to send.
            CF_CUDA_CHECK(cudaEventSynchronize(copied_));
            const auto start = std::chrono::steady_clock::now();
            comm_.exchange(device_ ? transfersOf(base) : hostTransfers());
            seconds_ +=
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (!device_) copyIn(base);
        }
        CF_CUDA_CHECK(cudaEventRecord(arrived_, halo_));
        CF_CUDA_CHECK(cudaStreamWaitEvent(stream_, arrived_, 0));
        sweep(1, 2);
        if (count > 1) sweep(count, count + 1);
    }

    // Host seconds spent in the MPI exchange since the slab was made (0 with NCCL, whose
    // exchange the host never waits for; as the cardiac slabs report it).
    double seconds() const { return seconds_; }
    std::string transport() const { return onStream_ ? onStream_->name() : "MPI"; }

private:
    std::uint32_t* at(std::uint32_t* layer, int z) const {
        return layer + static_cast<std::size_t>(z) * l_.plane;
    }
    std::uint32_t* host(cf::cuda::PinnedBuffer<std::uint32_t>& b, std::size_t k, int side) {
        return b.data() + (2 * k + static_cast<std::size_t>(side)) * l_.plane;
    }

    // Device to device: the first and last own planes out, the halos in.
    std::span<const dist::Transfer> transfersOf(std::uint32_t* const* base) {
        const int count = l_.slab.count();
        transfers_.clear();
        for (std::size_t k = 0; k < layers_.size(); ++k)
            add(layers_[k], at(base[k], 1), at(base[k], 0), at(base[k], count),
                at(base[k], count + 1));
        return transfers_;
    }

    std::span<const dist::Transfer> hostTransfers() {
        transfers_.clear();
        for (std::size_t k = 0; k < layers_.size(); ++k)
            add(layers_[k], host(send_, k, 0), host(recv_, k, 0), host(send_, k, 1),
                host(recv_, k, 1));
        return transfers_;
    }

    void add(int layer, const std::uint32_t* firstOwn, std::uint32_t* haloBelow,
             const std::uint32_t* lastOwn, std::uint32_t* haloAbove) {
        const std::size_t bytes = l_.plane * sizeof(std::uint32_t);
        const dist::Slab& sl = l_.slab;
        if (sl.below >= 0) {
            transfers_.push_back({nullptr, haloBelow, bytes, sl.below, 2 * layer});
            transfers_.push_back({firstOwn, nullptr, bytes, sl.below, 2 * layer + 1});
        }
        if (sl.above >= 0) {
            transfers_.push_back({nullptr, haloAbove, bytes, sl.above, 2 * layer + 1});
            transfers_.push_back({lastOwn, nullptr, bytes, sl.above, 2 * layer});
        }
    }

    void copyOut(std::uint32_t* const* base) {
        const int count = l_.slab.count();
        const std::size_t bytes = l_.plane * sizeof(std::uint32_t);
        for (std::size_t k = 0; k < layers_.size(); ++k) {
            if (l_.slab.below >= 0)
                CF_CUDA_CHECK(cudaMemcpyAsync(host(send_, k, 0), at(base[k], 1), bytes,
                                              cudaMemcpyDeviceToHost, halo_));
            if (l_.slab.above >= 0)
                CF_CUDA_CHECK(cudaMemcpyAsync(host(send_, k, 1), at(base[k], count), bytes,
                                              cudaMemcpyDeviceToHost, halo_));
        }
    }

    // Queued on the halo stream; the pinned planes are not written again before the next
    // z sweep has waited for `copied_`, which follows these copies on that stream.
    void copyIn(std::uint32_t* const* base) {
        const int count = l_.slab.count();
        const std::size_t bytes = l_.plane * sizeof(std::uint32_t);
        for (std::size_t k = 0; k < layers_.size(); ++k) {
            if (l_.slab.below >= 0)
                CF_CUDA_CHECK(cudaMemcpyAsync(at(base[k], 0), host(recv_, k, 0), bytes,
                                              cudaMemcpyHostToDevice, halo_));
            if (l_.slab.above >= 0)
                CF_CUDA_CHECK(cudaMemcpyAsync(at(base[k], count + 1), host(recv_, k, 1), bytes,
                                              cudaMemcpyHostToDevice, halo_));
        }
    }

    const SlabLayout& l_;
    std::vector<int> layers_;
    dist::Communicator& comm_;
    cudaStream_t stream_;
    dist::StreamExchange* onStream_;  // NCCL, where the program offers it (else null)
    bool device_;                     // the planes go from and to device memory
    cudaStream_t halo_ = nullptr;
    cudaEvent_t ready_ = nullptr, copied_ = nullptr, arrived_ = nullptr;
    cf::cuda::PinnedBuffer<std::uint32_t> send_, recv_;
    std::vector<dist::Transfer> transfers_;
    double seconds_ = 0.0;
};

}  // namespace cf::lattice::cuda
