// SPDX-License-Identifier: GPL-3.0-or-later
// The CUDA backend of `spheres` over ranks (docs/SPHERES.md, "Spheres over ranks"; the
// rules are the CPU's, spheres_ranks.hpp). The cells stay on the device; each step the host
// reads a few counts, the dividing cells' ids (only on a step that may divide), the
// migrants and the ghosts, which kernels select and pack into CellRecords and which pass
// through pinned buffers to MPI. Received cells are unpacked after the local ones.
#include <algorithm>
#include <chrono>
#include <cstring>

#include "sim/models/spheres/cuda/spheres_cuda_model.hpp"

namespace cf::spheres::cudamodel {

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <typename T>
void growDevice(DeviceBuffer<T>& b, std::size_t n) {
    if (b.size() < n) b.resize(std::max<std::size_t>(n, 2 * b.size()));
}

// The same, keeping the contents (ordered on `stream`).
template <typename T>
void growDeviceKeeping(DeviceBuffer<T>& b, std::size_t n, cudaStream_t stream) {
    if (b.size() >= n) return;
    DeviceBuffer<T> bigger(std::max<std::size_t>(n, 2 * b.size()));
    copyDevice(bigger.data(), b.data(), b.size(), stream);
    CF_CUDA_CHECK(cudaStreamSynchronize(stream));  // before the old buffer goes
    b = std::move(bigger);
}

template <typename T>
void growPinned(cf::cuda::PinnedBuffer<T>& b, std::size_t n) {
    if (b.size() < n) b = cf::cuda::PinnedBuffer<T>(std::max<std::size_t>(n, 2 * b.size()));
}

double axisValue(const CellRecord& r, int axis) {
    return axis == 0 ? r.x : axis == 1 ? r.y : r.z;
}

}  // namespace

template <typename Real>
std::uint64_t CudaSpheres<Real>::entities() {
    std::uint64_t n = n_;
    if (distributed()) comm_->allreduce(std::span<std::uint64_t>(&n, 1), dist::ReduceOp::Sum);
    return n;
}

template <typename Real>
std::vector<std::uint64_t> CudaSpheres<Real>::shares() {
    return comm_ ? rankCounts(*comm_, n_) : std::vector<std::uint64_t>{n_};
}

template <typename Real>
HostState CudaSpheres<Real>::splitInitial(HostState whole) {
    nGlobal_ = whole.size();
    rebalances_ = 0;
    haloSeconds_ = 0.0;
    HostState mine = splitWhole(*comm_, whole, cuts_);
    uploadCuts();
    streamExchange_ = comm_->streamExchange();  // collective on first use
    return mine;
}

template <typename Real>
void CudaSpheres<Real>::restoreOnRanks() {
    nGlobal_ = 0;
    for (std::uint64_t c : rankCounts(*comm_, n_))
        nGlobal_ += c;
    cuts_.axis = longestAxis(boxLo_, boxHi_);
    streamExchange_ = comm_->streamExchange();  // collective on first use
    recut();
}

// New cuts from the histogram of every rank's cells along the axis (counted on the device),
// then every cell to its new owner. Collective.
template <typename Real>
void CudaSpheres<Real>::recut() {
    growDevice(bins_, kBalanceBins);
    spheres::cuda::launchHistogram(a_.arrays(), n_, cuts_.axis, boxLo_[cuts_.axis],
                                   boxHi_[cuts_.axis] - boxLo_[cuts_.axis], kBalanceBins,
                                   bins_.data(), stream_);
    std::vector<std::uint64_t> bins(kBalanceBins);
    CF_CUDA_CHECK(cudaMemcpyAsync(bins.data(), bins_.data(), kBalanceBins * sizeof(std::uint64_t),
                                  cudaMemcpyDeviceToHost, stream_));
    CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
    cuts_ = cutsFromHistogram(*comm_, cuts_.axis, boxLo_, boxHi_, std::move(bins));
    uploadCuts();
    migrate();
}

template <typename Real>
void CudaSpheres<Real>::uploadCuts() {
    cutsDevice_.resize(cuts_.cut.size());
    CF_CUDA_CHECK(cudaMemcpyAsync(cutsDevice_.data(), cuts_.cut.data(),
                                  cuts_.cut.size() * sizeof(double), cudaMemcpyHostToDevice,
                                  stream_));
    CF_CUDA_CHECK(cudaStreamSynchronize(stream_));  // the host vector may change
}

template <typename Real>
spheres::cuda::DeviceCuts CudaSpheres<Real>::deviceCuts() const {
    return {cutsDevice_.data(), cuts_.ranks(), cuts_.axis, comm_->rank()};
}

// Room for `cells` cells in every per-cell buffer, keeping the n_ cells there are.
template <typename Real>
void CudaSpheres<Real>::ensureRoom(std::size_t cells) {
    if (cells > capacity_) {
        const std::size_t before = capacity_;
        allocateAll(std::max(2 * capacity_, cells), n_);
        note(capacityNote(before, capacity_, cells, kBytesPerCell<Real>));
    }
    growDevice(leave_, capacity_);
    growDevice(stay_, capacity_);
    growDevice(dividingIds_, capacity_);
    growDevice(counts_, 2);
    growPinned(pinnedCounts_, 2);
}

template <typename Real>
std::size_t CudaSpheres<Real>::shipRecords(std::size_t count) {
    const int me = comm_->rank();
    growPinned(pinnedOut_, count);
    if (count > 0)
        CF_CUDA_CHECK(cudaMemcpyAsync(pinnedOut_.data(), recordsOut_.data(),
                                      count * sizeof(CellRecord), cudaMemcpyDeviceToHost, stream_));
    CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
    std::vector<std::vector<CellRecord>> out(static_cast<std::size_t>(comm_->size()));
    for (std::size_t k = 0; k < count; ++k) {
        const CellRecord& r = pinnedOut_.data()[k];
        const int owner = cuts_.owner(axisValue(r, cuts_.axis));
        if (owner != me) out[static_cast<std::size_t>(owner)].push_back(r);
    }
    const auto t0 = std::chrono::steady_clock::now();
    const std::vector<CellRecord> in = exchangeRecords(*comm_, out);
    haloSeconds_ += secondsSince(t0);
    growPinned(pinnedIn_, in.size());
    if (!in.empty()) std::memcpy(pinnedIn_.data(), in.data(), in.size() * sizeof(CellRecord));
    return in.size();
}

// Cells whose centre left the slab go to their owners; the others are compacted (only when
// some left) and the arrivals appended after them.
template <typename Real>
void CudaSpheres<Real>::migrate() {
    ensureRoom(n_);
    spheres::cuda::launchSplitLeavers(a_.arrays(), n_, deviceCuts(), flagById_.data(),
                                      leave_.data(), counts_.data(), stay_.data(),
                                      counts_.data() + 1, scratch_, stream_);
    CF_CUDA_CHECK(cudaMemcpyAsync(pinnedCounts_.data(), counts_.data(), 2 * sizeof(int),
                                  cudaMemcpyDeviceToHost, stream_));
    CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
    const auto leaving = static_cast<std::size_t>(pinnedCounts_.data()[0]);
    const auto staying = static_cast<std::size_t>(pinnedCounts_.data()[1]);
    growDevice(recordsOut_, leaving);
    spheres::cuda::launchPackRecords(a_.arrays(), leave_.data(), leaving, recordsOut_.data(),
                                     stream_);
    if (leaving > 0) {
        spheres::cuda::launchGather(a_.arrays(), b_.arrays(), stay_.data(), staying, stream_);
        std::swap(a_, b_);
    }
    const std::size_t arrived = shipRecords(leaving);  // synchronises the stream first
    n_ = staying;
    ensureRoom(n_ + arrived);
    growDevice(recordsIn_, arrived);
    if (arrived > 0) {
        CF_CUDA_CHECK(cudaMemcpyAsync(recordsIn_.data(), pinnedIn_.data(),
                                      arrived * sizeof(CellRecord), cudaMemcpyHostToDevice,
                                      stream_));
        spheres::cuda::launchUnpackRecords(a_.arrays(), n_, recordsIn_.data(), arrived, stream_);
    }
    n_ += arrived;
}

// The other ranks' cells within rc of this slab, unpacked after the n_ cells; their count.
// For each rank whose slab comes within rc, the cells it needs are selected and packed on
// the device (GhostRecords); counts go first through MPI, then the payloads: device to
// device on the stream where a stream exchange (NCCL) is, else through pinned host buffers.
template <typename Real>
std::size_t CudaSpheres<Real>::receiveGhosts(double rc) {
    // A float pair test (d^2 < rc^2 on float differences) may accept a pair a hair beyond rc
    // in double: the depth has a relative margin far above float rounding (in double it is
    // only wider than needed).
    const double depth = rc * (1.0 + 1e-5);
    const int me = comm_->rank(), ranks = comm_->size();
    const auto R = static_cast<std::size_t>(ranks);
    ensureRoom(n_);
    const double reachLo = cuts_.cut[static_cast<std::size_t>(me)] - depth;
    const double reachHi = cuts_.cut[static_cast<std::size_t>(me) + 1] + depth;
    std::vector<std::uint64_t> sendCount(R, 0), recvCount(R, 0);
    std::vector<std::size_t> sendAt(R, 0), recvAt(R + 1, 0);
    std::size_t sending = 0;
    for (int p = 0; p < ranks; ++p) {
        const auto q = static_cast<std::size_t>(p);
        if (p == me || !(cuts_.cut[q] <= reachHi && cuts_.cut[q + 1] >= reachLo)) continue;
        spheres::cuda::launchSelectGhostsFor(a_.arrays(), n_, deviceCuts(), depth, p,
                                             flagById_.data(), leave_.data(), counts_.data(),
                                             scratch_, stream_);
        CF_CUDA_CHECK(cudaMemcpyAsync(pinnedCounts_.data(), counts_.data(), sizeof(int),
                                      cudaMemcpyDeviceToHost, stream_));
        CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
        const auto count = static_cast<std::size_t>(pinnedCounts_.data()[0]);
        growDeviceKeeping(ghostsOut_, sending + count, stream_);
        spheres::cuda::launchPackGhosts(a_.arrays(), leave_.data(), count,
                                        ghostsOut_.data() + sending, stream_);
        sendCount[q] = count;
        sendAt[q] = sending;
        sending += count;
    }
    // Sizes first (every pair, most of them zero), then the payloads.
    std::vector<dist::Transfer> transfers;
    for (int p = 0; p < ranks; ++p)
        if (p != me) {
            const auto q = static_cast<std::size_t>(p);
            transfers.push_back({&sendCount[q], &recvCount[q], sizeof(std::uint64_t), p, 2});
        }
    comm_->exchange(transfers);
    for (std::size_t q = 0; q < R; ++q)
        recvAt[q + 1] = recvAt[q] + recvCount[q];
    const std::size_t arrived = recvAt[R];
    growDevice(ghostsIn_, arrived);
    auto payloads = [&](GhostRecordOf<Real>* out, GhostRecordOf<Real>* in) {
        transfers.clear();
        for (int p = 0; p < ranks; ++p) {
            const auto q = static_cast<std::size_t>(p);
            if (sendCount[q] > 0)
                transfers.push_back(
                    {out + sendAt[q], nullptr, sendCount[q] * sizeof(GhostRecordOf<Real>), p, 3});
            if (recvCount[q] > 0)
                transfers.push_back(
                    {nullptr, in + recvAt[q], recvCount[q] * sizeof(GhostRecordOf<Real>), p, 3});
        }
    };
    if (streamExchange_) {
        payloads(ghostsOut_.data(), ghostsIn_.data());
        streamExchange_->exchange(transfers, stream_);
    } else {
        growPinned(pinnedGhostsOut_, sending);
        growPinned(pinnedGhostsIn_, arrived);
        if (sending > 0)
            CF_CUDA_CHECK(cudaMemcpyAsync(pinnedGhostsOut_.data(), ghostsOut_.data(),
                                          sending * sizeof(GhostRecordOf<Real>),
                                          cudaMemcpyDeviceToHost, stream_));
        CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
        payloads(pinnedGhostsOut_.data(), pinnedGhostsIn_.data());
        const auto t0 = std::chrono::steady_clock::now();
        comm_->exchange(transfers);
        haloSeconds_ += secondsSince(t0);
        if (arrived > 0)
            CF_CUDA_CHECK(cudaMemcpyAsync(ghostsIn_.data(), pinnedGhostsIn_.data(),
                                          arrived * sizeof(GhostRecordOf<Real>),
                                          cudaMemcpyHostToDevice, stream_));
    }
    ensureRoom(n_ + arrived);
    spheres::cuda::launchUnpackGhosts(a_.arrays(), n_, ghostsIn_.data(), arrived, stream_);
    return arrived;
}

// The balance rule of the CPU backend (spheres_ranks.hpp), the histogram counted on the
// device.
template <typename Real>
void CudaSpheres<Real>::rebalance() {
    if (!unbalanced(rankCounts(*comm_, n_))) return;
    recut();
    ++rebalances_;
}

// The step of spheres_model.hpp over the ranks, as the CPU's stepOnRanks: global rc and
// volume bound, daughters ranked over every rank's dividing ids, migration after biology,
// ghosts, forces on this rank's cells only.
template <typename Real>
void CudaSpheres<Real>::stepOnRanks() {
    dist::Communicator& comm = *comm_;
    const std::size_t n = n_;
    ensureRoom(n);
    // 1. rc (the largest diameter over all ranks when 0) and the bounds, the same everywhere.
    double shared[3] = {p_.interactionRadius, vmaxBound_, diameterBound_};
    if (!(p_.interactionRadius > 0.0)) {
        shared[0] = 0.0;
        if (n > 0) {
            spheres::cuda::launchInteractionRadius(a_.diameter.data(), n, rc_.data(), scratch_,
                                                   stream_);
            Real rcLocal = 0;
            CF_CUDA_CHECK(cudaMemcpyAsync(&rcLocal, rc_.data(), sizeof(Real),
                                          cudaMemcpyDeviceToHost, stream_));
            CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
            shared[0] = rcLocal;
        }
    }
    comm.allreduce(std::span<double>(shared), dist::ReduceOp::Max);
    const double rc = shared[0];
    vmaxBound_ = shared[1];
    diameterBound_ = shared[2];
    spheres::cuda::launchFixedRadius(rc_.data(), static_cast<Real>(rc), stream_);
    // 2. Divisions, only when the (global) volume bound allows one: the same on every rank.
    const bool checked = p_.growth && vmaxBound_ > p_.divisionVolume;
    std::vector<std::uint32_t> all;
    std::size_t bornHere = 0;
    if (checked) {
        spheres::cuda::launchDividingSlots(a_.arrays(), n, p_.divisionVolume, flagById_.data(),
                                           rankById_.data(), dividingIds_.data(), summary_.data(),
                                           scratch_, stream_);
        spheres::cuda::DivisionSummary summary{};
        CF_CUDA_CHECK(cudaMemcpyAsync(&summary, summary_.data(), sizeof summary,
                                      cudaMemcpyDeviceToHost, stream_));
        CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
        bornHere = static_cast<std::size_t>(summary.dividing);
        std::vector<std::uint32_t> mine(bornHere);
        download(mine, dividingIds_.data(), bornHere, stream_);
        CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
        all = globalDividingIds(comm, std::move(mine));
        double vmax = n > 0 ? summary.maxVolume : 0.0;
        comm.allreduce(std::span<double>(&vmax, 1), dist::ReduceOp::Max);
        vmaxBound_ = vmax;  // exact
        // Refused on every rank alike (global counts), with the state unchanged.
        (void)capacityFor(p_, step_, nGlobal_, all.size(), nGlobal_ + all.size());
        ensureRoom(n + bornHere);
        growDevice(allIds_, std::max<std::size_t>(all.size(), 1));
        upload(allIds_.data(), all, stream_);
    }
    if (p_.growth)
        spheres::cuda::launchBiologyRanks(
            a_.arrays(), n, p_, flagById_.data(), rankById_.data(), checked, allIds_.data(),
            static_cast<std::uint32_t>(all.size()), static_cast<std::uint32_t>(nGlobal_), seed_,
            step_, stream_);
    nGlobal_ += all.size();
    n_ = n + bornHere;
    // 3. Migration (synchronises: `all` may go after this).
    migrate();
    const std::size_t cells = n_;
    // 4. Ghosts after the cells, 5. forces on the cells, the Jacobi update.
    const std::size_t total = cells + receiveGhosts(rc);
    if (total > 0) {
        updateGeometry();
        grid_.build(geometry_, binnedPoints(total), stream_);
        const spheres::cuda::ChemotaxisField none{nullptr, fieldGrid(), 0.0f};
        spheres::cuda::launchForces(
            a_.arrays(), total, grid_.view(), packed_.data(), rc_.data(), none, moveX_.data(),
            moveY_.data(), moveZ_.data(), seed_, step_, stream_, cells,
            p_.forceKernel == static_cast<std::int32_t>(ForceKernel::Voxel));
        spheres::cuda::launchApply(a_.arrays(), cells, moveX_.data(), moveY_.data(), moveZ_.data(),
                                   stream_);
    }
    // 6. Bookkeeping as stepOnce; the Morton reorder drops the ghosts.
    if (p_.growth) {
        vmaxBound_ += p_.growthPerStep;
        diameterBound_ = 0.0;
    }
    divisions_ = all.size();
    ++step_;
    time_ += p_.dt;
    if (step_ % static_cast<std::uint64_t>(p_.sortEvery) == 0) {
        if (total > 0) {
            spheres::cuda::launchKeepBelow(grid_.view().sortedIndex, total,
                                           static_cast<std::int32_t>(cells), stay_.data(),
                                           counts_.data(), scratch_, stream_);
            spheres::cuda::launchGather(a_.arrays(), b_.arrays(), stay_.data(), cells, stream_);
            std::swap(a_, b_);
        }
        rebalance();
    }
}

// Both precisions (mechanics.precision); spheres_cuda.cpp picks one at reset.
template class CudaSpheres<float>;
template class CudaSpheres<double>;

}  // namespace cf::spheres::cudamodel
