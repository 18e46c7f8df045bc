// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Launchers for the `lattice` CUDA kernels (defined in lattice_kernels.cu). Host-compiled
// code includes this; it declares no kernels and pulls in no CUDA device headers.
#include <cstdint>
#include <cuda_runtime_api.h>
#include <type_traits>

#include "sim/cuda/device_buffer.hpp"
#include "sim/models/lattice/lattice_overflow.hpp"
#include "sim/models/lattice/lattice_sweep.hpp"

namespace cf::lattice::cuda {

// Which sweep kernel runs: the warp sweep (lattice_sweep_warp.hpp, byte16's default), the tiled
// one (lattice_sweep_tiled.hpp, packed32's) or one thread per site running gatherSite. All
// three give the same lattice; CELLFORGE_LATTICE_SWEEP=warp|tiled|site forces one to
// compare timings.
enum class SweepKernel : std::int32_t { Tiled = 0, PerSite = 1, Warp = 2 };

struct SweepArgs {
    const std::uint32_t* src;  // the lattice before this sweep
    std::uint32_t* dst;        // written completely by the sweep
    const std::uint8_t* types;
    const std::uint32_t* ids;  // nullptr without tracking
    std::uint32_t* nextIds;
    std::int32_t* displacement;
    Overflow* overflows;             // room for overflowCapacity records (a power of two)
    std::uint32_t* overflowCount;    // 0 before the sweep; may end above the capacity
    std::uint32_t overflowCapacity;  // (the re-insertion then flags the records as lost)
    // [0] overflows of this step, [1] of the run, [2] particles that found no room or
    // were lost (the host turns a non-zero value into an error), [3 + r] times reaction r
    // fired since reset.
    unsigned long long* stats;
    std::uint32_t sites;
    std::uint64_t step;
    int axis;
    SweepKernel kernel;
    // 1: every byte of dst past its site's count is zero (it was written by a sweep, or
    // zeroed), so the tiled kernel may leave planes that stay zero unwritten (storeSite).
    std::int32_t dstClean;
    // The z-planes [zBegin, zEnd) the phase covers: 0 and n[2] for the whole lattice; a
    // z-slab's own planes, or some of them (lattice_slab.hpp). Only their sites are
    // written or overflow; the planes next to them are read.
    std::int32_t zBegin;
    std::int32_t zEnd;
};
static_assert(std::is_trivially_copyable_v<SweepArgs>);

// Copies the geometry (sizes, layout, seed, thresholds) into the kernels' __constant__
// struct, ordered on `stream`.
// `owner` is the model instance (see sim/cuda/constant_owner.hpp): bindGeometry before
// launching uploads only when another instance's geometry is in the symbol;
// releaseGeometry when the instance goes.
void uploadGeometry(const Geometry& g, const void* owner, cudaStream_t stream);
void bindGeometry(const Geometry& g, const void* owner, cudaStream_t stream);
void releaseGeometry(const void* owner);
// Reads the constant-memory copy back, ordered after the work queued on `stream`.
void downloadGeometry(Geometry& g, cudaStream_t stream);

// One 1-D sweep of planes [zBegin, zEnd): every site gathers as gatherSite (lattice_sweep.hpp) does
// on the CPU, and appends what does not fit to the overflow list. `g` (the host copy of the
// geometry in constant memory) sizes the warp and tiled kernels' grids.
void launchSweep(const SweepArgs& args, const Geometry& g, cudaStream_t stream);

inline constexpr int kStatsSize = 3 + kMaxReactions;

// The reaction phase (lattice_react.hpp) on every site of planes [zBegin, zEnd), in place on
// args.dst / nextIds; what does not fit goes to the overflow list (launchReinsert with axis 3
// follows).
void launchReactions(const SweepArgs& args, const Geometry& g, cudaStream_t stream);

// After a sweep, on the device: sorts the overflow list by overflowKey (one block, bitonic)
// and places the particles in that order with placeOverflow, exactly as the CPU does;
// adds the count to stats and zeroes overflowCount. Launched after every sweep: nothing
// is read back, and an empty list costs one short launch.
void launchReinsert(const SweepArgs& args, cudaStream_t stream);

// counts[t * (kMaxSpecies + 1) + s] += particles of species s in sites [first, end) of type
// t, for s = 1..speciesCount; s = 0 counts ids no species has. counts holds
// kSiteTypeCount * (kMaxSpecies + 1) zeroed values (countByRegion's layout).
void launchCountSpecies(const std::uint32_t* words, const std::uint8_t* types, std::uint32_t first,
                        std::uint32_t end, int speciesCount, unsigned long long* counts,
                        cudaStream_t stream);

// The volume view's data (lattice_views.hpp ViewBuffers layout): occupancy planes
// (speciesCount + 1) x sites and the site type per site.
void packVolume(const std::uint32_t* words, const std::uint8_t* types, std::uint32_t sites,
                int speciesCount, float* occupancy, std::uint8_t* siteTypes, cudaStream_t stream);

// The drawing view: occupancy per site, an exclusive scan, then one thread per site
// writes its particles at its offset (the CPU views' order). Returns the particle count;
// xyzr and species are resized to fit it.
std::size_t packViews(const std::uint32_t* words, std::uint32_t sites, float lambda,
                      cf::cuda::DeviceBuffer<std::uint32_t>& occupancy,
                      cf::cuda::DeviceBuffer<std::uint32_t>& offsets,
                      cf::cuda::DeviceBuffer<unsigned char>& scratch,
                      cf::cuda::DeviceBuffer<float>& xyzr,
                      cf::cuda::DeviceBuffer<std::uint8_t>& species, cudaStream_t stream);

}  // namespace cf::lattice::cuda
