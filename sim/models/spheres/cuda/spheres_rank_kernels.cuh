// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Launchers of the kernels the CUDA backend of `spheres` runs over ranks (defined in
// spheres_rank_kernels.cu; the rules are those of spheres_ranks.hpp): division ranked by
// global id, the choice of migrants and ghosts by position, their packing into CellRecords
// and back, the position histogram for the balance rule. Counts the host needs come back
// through `num` (device, one int) and are read by the caller after its stream synchronises.
// Every launcher is a template over the mechanics' real (spheres_kernels.cuh), both
// instantiated in the .cu file.
#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>

#include "sim/cuda/device_buffer.hpp"
#include "sim/models/spheres/cell_record.hpp"
#include "sim/models/spheres/cuda/spheres_kernels.cuh"

namespace cf::spheres::cuda {

// The slab cuts on the device: cut[0..ranks] (cut[0] = -inf, cut[ranks] = +inf); rank `me`.
struct DeviceCuts {
    const double* cut;
    int ranks;
    int axis;
    int me;
};

// flags[i] = (V_i > V_div) by slot, slots[i] = exclusive scan of flags (the daughter of slot i
// goes to n + slots[i]); the dividing cells' ids, compacted, in `ids`; summary = {max V, T}.
template <typename Real>
void launchDividingSlots(const CellArrays<Real>& cells, std::size_t n, double divisionVolume,
                         std::int32_t* flags, std::int32_t* slots, std::uint32_t* ids,
                         DivisionSummary* summary, cf::cuda::DeviceBuffer<unsigned char>& scratch,
                         cudaStream_t stream);

// Growth, or division as launchBiology, the daughter of slot i at n + slots[i] with id
// idBase + (index of its parent's id in `all`, every rank's dividing ids sorted).
template <typename Real>
void launchBiologyRanks(const CellArrays<Real>& cells, std::size_t n, const SpheresParams& p,
                        const std::int32_t* flags, const std::int32_t* slots, bool checked,
                        const std::uint32_t* all, std::uint32_t allCount, std::uint32_t idBase,
                        std::uint32_t seed, std::uint64_t step, cudaStream_t stream);

// The slots of cells 0..n-1 whose centre lies outside this rank's slab (`leave`, *numLeave)
// and inside it (`stay`, *numStay), each in slot order.
template <typename Real>
void launchSplitLeavers(const CellArrays<Real>& cells, std::size_t n, const DeviceCuts& cuts,
                        std::int32_t* flags, std::int32_t* leave, int* numLeave, std::int32_t* stay,
                        int* numStay, cf::cuda::DeviceBuffer<unsigned char>& scratch,
                        cudaStream_t stream);

// The slots of cells 0..n-1 (not newborns) whose [v - depth, v + depth] along the axis
// meets the slab of rank `peer`, in slot order, into `out`, their count in *num.
template <typename Real>
void launchSelectGhostsFor(const CellArrays<Real>& cells, std::size_t n, const DeviceCuts& cuts,
                           double depth, int peer, std::int32_t* flags, std::int32_t* out, int* num,
                           cf::cuda::DeviceBuffer<unsigned char>& scratch, cudaStream_t stream);
// ghosts[k] = position, diameter and id of the cell in slot slots[k], k < count.
template <typename Real>
void launchPackGhosts(const CellArrays<Real>& cells, const std::int32_t* slots, std::size_t count,
                      GhostRecordOf<Real>* ghosts, cudaStream_t stream);
// The ghosts into slots at, at + 1, ... (position, diameter, id: what the force loop reads).
template <typename Real>
void launchUnpackGhosts(const CellArrays<Real>& cells, std::size_t at,
                        const GhostRecordOf<Real>* ghosts, std::size_t count, cudaStream_t stream);

// records[k] = the cell in slot slots[k], k < count.
template <typename Real>
void launchPackRecords(const CellArrays<Real>& cells, const std::int32_t* slots, std::size_t count,
                       CellRecord* records, cudaStream_t stream);
// The cells of records[0..count) into slots at, at + 1, ...
template <typename Real>
void launchUnpackRecords(const CellArrays<Real>& cells, std::size_t at, const CellRecord* records,
                         std::size_t count, cudaStream_t stream);

// bins[b] += cells of 0..n-1 in bin b of `binCount` over [lo, lo + extent) along `axis`
// (outside: the end bins), as balancedCuts bins them. Integer atomics: exact counts.
template <typename Real>
void launchHistogram(const CellArrays<Real>& cells, std::size_t n, int axis, double lo,
                     double extent, int binCount, unsigned long long* bins, cudaStream_t stream);

// out = the entries of order[0..total) below `limit`, in order (the Morton order without
// the ghosts); *num their count.
void launchKeepBelow(const std::int32_t* order, std::size_t total, std::int32_t limit,
                     std::int32_t* out, int* num, cf::cuda::DeviceBuffer<unsigned char>& scratch,
                     cudaStream_t stream);

}  // namespace cf::spheres::cuda
