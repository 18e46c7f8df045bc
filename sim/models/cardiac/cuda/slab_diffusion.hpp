// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The CUDA backend's diffusion over several ranks (tissue_slab.hpp): the potential on the
// extended layout, one halo plane exchanged with each neighbouring rank per sub-step.
// With a stream-ordered exchange (NCCL, Communicator::streamExchange) a sub-step is, all on
// the stream: pack the two boundary planes, exchange them GPU to GPU, unpack the halos,
// one diffusion kernel; the host never waits, so it queues whole batches of steps.
// Otherwise through MPI, per sub-step in stream order: pack the two boundary planes (and
// copy them to pinned host memory unless the MPI library takes device pointers), the
// interior planes' kernel, then, once the host has exchanged the planes (while that kernel
// runs), the halos are unpacked and the two boundary planes computed. Either way each
// node's update is that of one rank, bit for bit.
#include <chrono>
#include <cstring>
#include <cuda_runtime_api.h>
#include <utility>

#include "sim/cuda/cuda_check.hpp"
#include "sim/cuda/device_buffer.hpp"
#include "sim/cuda/pinned_buffer.hpp"
#include "sim/models/cardiac/cuda/tissue_kernels.cuh"
#include "sim/models/cardiac/tissue_slab.hpp"

namespace cf::cardiac {

using cf::cuda::PinnedBuffer;

template <typename Real>
class SlabDiffusion {
public:
    SlabDiffusion(const TissueSlab& slab, dist::Communicator& comm, cudaStream_t stream)
        : slab_(slab),
          comm_(comm),
          stream_(stream),
          onStream_(comm.streamExchange()),
          device_(onStream_ != nullptr || comm.deviceBuffers()) {
        for (int a = 0; a < 3; ++a) {
            shape_.owned[a] = slab.owned[a];
            shape_.extended[a] = slab.extended[a];
        }
        shape_.axis = slab.slab.axis;
        shape_.haloBelow = slab.haloBelow;
        a_.resize(slab.extendedNodes());
        b_.resize(slab.extendedNodes());
        const std::size_t plane = slab.planeNodes();
        for (int side = 0; side < 2; ++side) {
            dSend_[side].resize(plane);
            dRecv_[side].resize(plane);
            if (!device_) {
                hSend_[side] = PinnedBuffer<Real>(plane);
                hRecv_[side] = PinnedBuffer<Real>(plane);
            }
        }
        CF_CUDA_CHECK(cudaEventCreateWithFlags(&packed_, cudaEventDisableTiming));
    }
    ~SlabDiffusion() {
        cudaStreamSynchronize(stream_);
        cudaEventDestroy(packed_);
    }
    SlabDiffusion(const SlabDiffusion&) = delete;
    SlabDiffusion& operator=(const SlabDiffusion&) = delete;

    // The extended tissue mask (empty: all tissue).
    void setTissue(const std::vector<unsigned char>& extended) {
        hasTissue_ = !extended.empty();
        if (hasTissue_) {
            tissue_.resize(extended.size());
            tissue_.copyFromHost(extended, stream_);
        }
    }

    // `substeps` sub-steps of the owned potential row `v` (device), TissueLive bound.
    void diffuse(Real* v, int substeps) {
        cuda::launchToExtended<Real>(v, a_.data(), shape_, stream_);
        Real* in = a_.data();
        Real* out = b_.data();
        const int count = slab_.owned[slab_.slab.axis];
        const unsigned char* tissue = hasTissue_ ? tissue_.data() : nullptr;
        for (int s = 0; s < substeps; ++s) {
            if (onStream_) {
                exchangeOnStream(in);
                cuda::launchDiffusePlanes<Real>(in, out, shape_, tissue, 0, count, stream_);
                std::swap(in, out);
                continue;
            }
            sendPlanes(in);
            cuda::launchDiffusePlanes<Real>(in, out, shape_, tissue, slab_.haloBelow,
                                            count - slab_.haloAbove, stream_);
            receivePlanes(in);
            if (slab_.haloBelow)
                cuda::launchDiffusePlanes<Real>(in, out, shape_, tissue, 0, 1, stream_);
            if (slab_.haloAbove && !(slab_.haloBelow && count == 1))
                cuda::launchDiffusePlanes<Real>(in, out, shape_, tissue, count - 1, count, stream_);
            std::swap(in, out);
        }
        cuda::launchFromExtended<Real>(in, v, shape_, stream_);
    }

    // Host seconds spent in the MPI exchange of halo planes since reset (the GPU works on the
    // interior meanwhile; the wait for the planes' packing, which queues behind the previous
    // step's work, is not counted).
    double haloSeconds() const { return haloSeconds_; }

    // What carries the halo planes: "NCCL 2.28.9", else "MPI".
    std::string transport() const { return onStream_ ? onStream_->name() : "MPI"; }

private:
    void exchangeOnStream(Real* in) {
        const std::size_t plane = slab_.planeNodes(), bytes = plane * sizeof(Real);
        const int last = slab_.extended[slab_.slab.axis] - 1;
        if (slab_.haloBelow) cuda::launchPackPlane<Real>(in, dSend_[0].data(), shape_, 1, stream_);
        if (slab_.haloAbove)
            cuda::launchPackPlane<Real>(in, dSend_[1].data(), shape_, last - 1, stream_);
        const void* const send[2] = {dSend_[0].data(), dSend_[1].data()};
        void* const recv[2] = {dRecv_[0].data(), dRecv_[1].data()};
        dist::Transfer t[4];
        const std::size_t n = haloTransfers(slab_, send, recv, bytes, t);
        onStream_->exchange(std::span<const dist::Transfer>(t, n), stream_);
        if (slab_.haloBelow)
            cuda::launchUnpackPlane<Real>(dRecv_[0].data(), in, shape_, 0, stream_);
        if (slab_.haloAbove)
            cuda::launchUnpackPlane<Real>(dRecv_[1].data(), in, shape_, last, stream_);
    }

    // Side 0: the plane below (sent down, received into the lower halo); 1: above.
    void sendPlanes(const Real* in) {
        const std::size_t plane = slab_.planeNodes();
        if (slab_.haloBelow) pack(in, slab_.haloBelow, 0, plane);
        if (slab_.haloAbove) pack(in, slab_.haloBelow + slab_.owned[slab_.slab.axis] - 1, 1, plane);
        CF_CUDA_CHECK(cudaEventRecord(packed_, stream_));
    }

    void pack(const Real* in, int extendedPlane, int side, std::size_t plane) {
        cuda::launchPackPlane<Real>(in, dSend_[side].data(), shape_, extendedPlane, stream_);
        if (!device_)
            CF_CUDA_CHECK(cudaMemcpyAsync(hSend_[side].data(), dSend_[side].data(),
                                          plane * sizeof(Real), cudaMemcpyDeviceToHost, stream_));
    }

    void receivePlanes(Real* in) {
        CF_CUDA_CHECK(cudaEventSynchronize(packed_));  // the interior kernel goes on meanwhile
        const auto start = std::chrono::steady_clock::now();
        const std::size_t plane = slab_.planeNodes(), bytes = plane * sizeof(Real);
        const void* const send[2] = {device_ ? dSend_[0].data() : hSend_[0].data(),
                                     device_ ? dSend_[1].data() : hSend_[1].data()};
        void* const recv[2] = {device_ ? dRecv_[0].data() : hRecv_[0].data(),
                               device_ ? dRecv_[1].data() : hRecv_[1].data()};
        dist::Transfer t[4];
        const std::size_t n = haloTransfers(slab_, send, recv, bytes, t);
        comm_.exchange(std::span<const dist::Transfer>(t, n));
        haloSeconds_ +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const int last = slab_.extended[slab_.slab.axis] - 1;
        for (int side = 0; side < 2; ++side) {
            if (side == 0 ? !slab_.haloBelow : !slab_.haloAbove) continue;
            if (!device_)
                CF_CUDA_CHECK(cudaMemcpyAsync(dRecv_[side].data(), hRecv_[side].data(), bytes,
                                              cudaMemcpyHostToDevice, stream_));
            cuda::launchUnpackPlane<Real>(dRecv_[side].data(), in, shape_, side == 0 ? 0 : last,
                                          stream_);
        }
    }

    const TissueSlab& slab_;
    dist::Communicator& comm_;
    cudaStream_t stream_;
    dist::StreamExchange* onStream_;  // NCCL, where the program offers it (else null)
    bool device_;                     // the halos stay in device memory
    cuda::SlabShape shape_{};
    cf::cuda::DeviceBuffer<Real> a_, b_, dSend_[2], dRecv_[2];
    cf::cuda::DeviceBuffer<unsigned char> tissue_;
    bool hasTissue_ = false;
    PinnedBuffer<Real> hSend_[2], hRecv_[2];
    cudaEvent_t packed_ = nullptr;
    double haloSeconds_ = 0.0;
};

}  // namespace cf::cardiac
