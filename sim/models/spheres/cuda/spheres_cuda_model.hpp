// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// CUDA backend of `spheres` (host side): the cells live on the device in two sets of arrays
// (A, B: the Morton reorder gathers A into B and swaps), mechanics in Real and double volumes
// (design note 4.1-4.4). Real is float, or double with mechanics.precision = double (Hesam et
// al.'s v0); spheres_cuda.cpp picks the instantiation at reset. In double the grid bins the
// positions rounded to float (as the CPU reference does), kept in three float arrays.
// One stream; the host reads nothing back while no division is possible: it keeps a bound on the
// largest volume (exact after every checked step, grown by rate x dt after the others), and only
// when that bound exceeds the division volume does a step flag, scan and read back 16 bytes (the
// daughter count T and the exact largest volume) before it grows the capacity, if needed, and
// divides. Metrics and snapshots download the state and use the CPU's host code, so they are those
// of the CPU reference (same fields, same layout); views are packed on the device.
// Over several ranks (dist::Distributable; spheres_cuda_ranks.cpp) the cells stay on the
// device: only migrants and ghosts, selected and packed by kernels, pass through pinned
// host buffers to MPI. Included by spheres_cuda.cpp and spheres_cuda_ranks.cpp only.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <optional>
#include <string>
#include <type_traits>

#include "sim/core/fault_injection.hpp"
#include "sim/cuda/device_buffer.hpp"
#include "sim/cuda/pinned_buffer.hpp"
#include "sim/dist/distributable.hpp"
#include "sim/grid/cuda/uniform_grid_cuda.cuh"
#include "sim/models/spheres/cuda/cell_buffers.hpp"
#include "sim/models/spheres/cuda/spheres_kernels.cuh"
#include "sim/models/spheres/cuda/spheres_rank_kernels.cuh"
#include "sim/models/spheres/spheres_arrays.hpp"
#include "sim/models/spheres/spheres_model.hpp"
#include "sim/models/spheres/spheres_physics.hpp"
#include "sim/models/spheres/spheres_ranks.hpp"
#include "sim/models/spheres/spheres_views.hpp"

namespace cf::spheres::cudamodel {

// Bytes a cell costs on this backend: two sets of state arrays, flags, ranks, moves and the
// packed positions, the float positions the grid bins in double, and the grid's keys and
// indices (for the capacity note and the out-of-memory error).
template <typename Real>
constexpr double kBytesPerCell = 2 * (4 * sizeof(Real) + 4 + 8 + 4 + 4 + 1 + 8) + 4 + 4 +
                                 3 * sizeof(Real) + sizeof(spheres::cuda::Packed<Real>) +
                                 (sizeof(Real) == 4 ? 0 : 3 * 4) + 4 * 4;

// What the model the registry creates (spheres_cuda.cpp) forwards to: the backend in one
// precision.
class CudaSpheresBackend : public Model,
                           public dist::Distributable,
                           public RankBalance,
                           public StateArrayProvider {};

template <typename Real>
class CudaSpheres final : public CudaSpheresBackend {
public:
    CudaSpheres() { CF_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
    ~CudaSpheres() override {
        spheres::cuda::releaseParams(this);
        cudaStreamDestroy(stream_);
    }
    CudaSpheres(const CudaSpheres&) = delete;
    CudaSpheres& operator=(const CudaSpheres&) = delete;

    Backend backend() const override { return Backend::Cuda; }

    void reset(const ParamSet& params, std::uint32_t seed) override {
        const SpheresParams p = checkedParams(params);
        if (p.neighbourSearch != static_cast<std::int32_t>(NeighbourSearch::Grid))
            throw ParameterError(
                "mechanics.neighbour_search = kdtree is the CPU baseline (nanoflann); the CUDA "
                "backend searches its uniform grid: set grid, or run on the CPU");
        if (distributed()) refuseOnRanks(p);
        HostState s = initialState(p, seed);
        if (distributed()) s = splitInitial(std::move(s));
        const std::size_t n = s.size();
        std::size_t capacity =
            p.capacityInitial > 0 ? static_cast<std::size_t>(p.capacityInitial) : 2 * n;
        p_ = p;
        inEffect_.emplace(params);
        seed_ = seed;
        capacity_ = 0;
        uploadState(s, std::max(capacity, n));
        spheres::cuda::uploadParams(p_, this, stream_);
        divisions_ = 0;
    }

    void setLiveParameters(const ParamSet& params) override {
        ParamSet merged = withLiveValues(*inEffect_, params);
        const SpheresParams next = checkedParams(merged);  // a refusal changes nothing
        if (distributed()) refuseOnRanks(next);
        checkAgainstPopulation(next, distributed() ? nGlobal_ : n_);
        // Ordered on the stream: kernels already queued keep the old values. The volume
        // bound stays valid (it bounds the current state); the next step tests it against
        // the new division volume.
        spheres::cuda::uploadParams(next, this, stream_);
        p_ = next;
        inEffect_ = std::move(merged);
    }

    void advance(std::uint64_t steps) override {
        spheres::cuda::bindParams(p_, this, stream_);
        for (std::uint64_t k = 0; k < steps; ++k)
            if (distributed())
                stepOnRanks();
            else
                stepOnce();
        CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
    }

    std::uint64_t step() const override { return step_; }
    double time() const override { return time_; }

    std::vector<Metric> metrics() override {
        if (distributed()) return rankMetrics(*comm_, downloadState(), divisions_);
        return hostMetrics(downloadState(), divisions_);
    }

    Snapshot snapshot() override { return makeSnapshot(downloadState()); }

    void restore(const Snapshot& snapshot) override {
        // Both throw before anything changes; a rank's piece holds ids of the whole population.
        HostState s = readSnapshot(snapshot, distributed() ? std::uint64_t{1} << 32 : 0);
        conformSubstance(p_, s);
        uploadState(s, std::max(capacity_, s.size()));
        divisions_ = 0;
        if (distributed()) restoreOnRanks();
    }

    void synchronize() override { CF_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

    std::vector<std::uint8_t> deviceParameterBlock() override {
        SpheresParams onDevice{};
        spheres::cuda::bindParams(p_, this, stream_);
        spheres::cuda::downloadParams(onDevice, stream_);
        return bytesOf(onDevice);
    }

    // The state buffers themselves (positions and diameters in Real, as stepped here).
    std::vector<StateArray> stateArrays() override {
        CellArrays<Real, float> c;
        c.count = n_;
        c.x = a_.x.data();
        c.y = a_.y.data();
        c.z = a_.z.data();
        c.diameter = a_.diameter.data();
        c.volume = a_.volume.data();
        c.force = a_.force.data();
        c.id = a_.id.data();
        c.root = a_.root.data();
        c.generation = a_.generation.data();
        c.birthStep = a_.birthStep.data();
        if (!field_.empty()) {
            c.substance = field_.data();
            c.voxels = field_.size();
        }
        return stateArraysOf(c, MemorySpace::Device);
    }

    // Packed on the device (no host copy of the state): ready for CUDA-GL interop. |F| (and
    // the diameter in float) are the state's own arrays; the focus was taken when the state
    // was uploaded.
    ModelViews views() override {
        if (distributed()) return {};  // a distributed run is headless
        const std::size_t n = n_;
        viewXyzr_.resize(std::max<std::size_t>(n, 1));
        viewAge_.resize(std::max<std::size_t>(n, 1));
        viewLineage_.resize(std::max<std::size_t>(n, 1));
        viewClone_.resize(std::max<std::size_t>(n, 1));
        const bool substance = !field_.empty();
        if (substance) viewSensed_.resize(std::max<std::size_t>(n, 1));
        // The drawn diameter: the state's own array in float; in double a float copy that the
        // packing kernel writes.
        const float* diameter = nullptr;
        float* diameterCopy = nullptr;
        if constexpr (std::is_same_v<Real, float>) {
            diameter = a_.diameter.data();
        } else {
            viewDiameter_.resize(std::max<std::size_t>(n, 1));
            diameterCopy = viewDiameter_.data();
            diameter = diameterCopy;
        }
        const FieldGrid g = fieldGrid();
        const spheres::cuda::ViewPack pack{viewXyzr_.data(),
                                           diameterCopy,
                                           viewAge_.data(),
                                           viewLineage_.data(),
                                           viewClone_.data(),
                                           substance ? viewSensed_.data() : nullptr,
                                           substance ? field_.data() : nullptr,
                                           g};
        spheres::cuda::launchPackViews(a_.arrays(), n, pack, step_, p_.dt, stream_);
        const ViewArrays arrays{reinterpret_cast<const float*>(viewXyzr_.data()),
                                diameter,
                                viewAge_.data(),
                                a_.force.data(),
                                viewLineage_.data(),
                                substance ? viewSensed_.data() : nullptr,
                                viewClone_.data(),
                                n,
                                substance ? field_.data() : nullptr,
                                g};
        return assembleViews(MemorySpace::Device, arrays, boxLo_, boxHi_, focusLo_, focusHi_);
    }

    void checkFinite() override {
        checkFiniteTogether(distributed() ? comm_ : nullptr, snapshot());
    }

    // dist::Distributable (spheres_cuda_ranks.cpp)
    void distribute(dist::Communicator& comm) override { comm_ = &comm; }
    // Cells have no grid (the substance field is refused on several ranks): an empty piece.
    dist::GridPiece piece() const override { return {}; }
    std::uint64_t entities() override;
    double haloSeconds() const override { return haloSeconds_; }
    std::string haloTransport() const override {
        return streamExchange_ ? streamExchange_->name() : "MPI";
    }
    // RankBalance
    std::uint64_t rebalances() const override { return rebalances_; }
    std::vector<std::uint64_t> shares() override;

private:
    // Over ranks (spheres_cuda_ranks.cpp).
    bool distributed() const { return comm_ != nullptr && comm_->size() > 1; }
    HostState splitInitial(HostState whole);
    void restoreOnRanks();
    void stepOnRanks();
    void migrate();
    std::size_t receiveGhosts(double rc);
    void rebalance();
    void ensureRoom(std::size_t cells);
    void recut();
    void uploadCuts();
    spheres::cuda::DeviceCuts deviceCuts() const;
    // Sends the `count` migrants packed in recordsOut_ to their owners; returns how many
    // arrived (in pinnedIn_).
    std::size_t shipRecords(std::size_t count);

private:
    // Replaces the device state by `s` in buffers of `capacity` cells.
    void uploadState(const HostState& s, std::size_t capacity) {
        const std::size_t n = s.size();
        if (capacity != capacity_) allocateAll(capacity, 0);
        upload(a_.x.data(), toReal<Real>(s.x), stream_);
        upload(a_.y.data(), toReal<Real>(s.y), stream_);
        upload(a_.z.data(), toReal<Real>(s.z), stream_);
        upload(a_.diameter.data(), toReal<Real>(s.diameter), stream_);
        upload(a_.force.data(), s.force, stream_);
        upload(a_.volume.data(), s.volume, stream_);
        upload(a_.id.data(), s.id, stream_);
        upload(a_.root.data(), s.root, stream_);
        upload(a_.generation.data(), s.generation, stream_);
        upload(a_.birthStep.data(), s.birthStep, stream_);
        std::copy(std::begin(s.substanceDims), std::end(s.substanceDims), fieldDims_);
        const std::size_t voxels = s.substance.size();
        field_.resize(voxels);
        fieldNext_.resize(voxels);
        voxelCounts_.resize(voxels);
        if (voxels > 0) {
            upload(field_.data(), toReal<float>(s.substance), stream_);
            CF_CUDA_CHECK(
                cudaMemsetAsync(voxelCounts_.data(), 0, voxels * sizeof(std::uint32_t), stream_));
        }
        CF_CUDA_CHECK(cudaStreamSynchronize(stream_));  // the host vectors are temporaries
        n_ = n;
        step_ = s.step;
        time_ = s.time;
        std::copy(std::begin(s.boxLo), std::end(s.boxLo), boxLo_);
        std::copy(std::begin(s.boxHi), std::end(s.boxHi), boxHi_);
        cellFocus(s, focusLo_, focusHi_);
        // The exact largest volume and diameter of this state: the volume bound starts exact,
        // and the diameters (which need not match the volumes in a restored or growth-free
        // state) bound the interaction radius until growth recomputes them.
        vmaxBound_ = 0.0;
        diameterBound_ = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            vmaxBound_ = std::max(vmaxBound_, s.volume[i]);
            diameterBound_ = std::max(diameterBound_, s.diameter[i]);
        }
        haveGeometry_ = false;
    }

    HostState downloadState() {
        HostState s;
        std::vector<Real> x, y, z, d;
        download(x, a_.x.data(), n_, stream_);
        download(y, a_.y.data(), n_, stream_);
        download(z, a_.z.data(), n_, stream_);
        download(d, a_.diameter.data(), n_, stream_);
        download(s.force, a_.force.data(), n_, stream_);
        download(s.volume, a_.volume.data(), n_, stream_);
        download(s.id, a_.id.data(), n_, stream_);
        download(s.root, a_.root.data(), n_, stream_);
        download(s.generation, a_.generation.data(), n_, stream_);
        download(s.birthStep, a_.birthStep.data(), n_, stream_);
        std::vector<float> field;
        download(field, field_.data(), field_.size(), stream_);
        CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
        s.substance.assign(field.begin(), field.end());
        std::copy(std::begin(fieldDims_), std::end(fieldDims_), s.substanceDims);
        s.x.assign(x.begin(), x.end());
        s.y.assign(y.begin(), y.end());
        s.z.assign(z.begin(), z.end());
        s.diameter.assign(d.begin(), d.end());
        s.step = step_;
        s.time = time_;
        std::copy(std::begin(boxLo_), std::end(boxLo_), s.boxLo);
        std::copy(std::begin(boxHi_), std::end(boxHi_), s.boxHi);
        return s;
    }

    // Every per-cell buffer at `capacity`, keeping the first `keep` cells (state, flags and
    // ranks). Everything new is allocated before anything is replaced: on failure the state
    // is unchanged and the error says so.
    void allocateAll(std::size_t capacity, std::size_t keep) {
        CellBuffers<Real> a, b;
        DeviceBuffer<std::int32_t> flags, ranks;
        DeviceBuffer<Real> mx, my, mz;
        DeviceBuffer<spheres::cuda::Packed<Real>> packed;
        DeviceBuffer<float> bx, by, bz;
        try {
            a.allocate(capacity);
            b.allocate(capacity);
            flags.resize(capacity);
            ranks.resize(capacity);
            mx.resize(capacity);
            my.resize(capacity);
            mz.resize(capacity);
            packed.resize(capacity);
            if constexpr (!std::is_same_v<Real, float>) {
                bx.resize(capacity);
                by.resize(capacity);
                bz.resize(capacity);
            }
        } catch (const CudaError&) {
            throwOutOfMemory(capacity);
        }
        if (keep > 0) {
            a.copyFrom(a_, keep, stream_);
            copyDevice(flags.data(), flagById_.data(), keep, stream_);
            copyDevice(ranks.data(), rankById_.data(), keep, stream_);
            CF_CUDA_CHECK(cudaStreamSynchronize(stream_));  // before the old buffers go
        }
        a_ = std::move(a);
        b_ = std::move(b);
        flagById_ = std::move(flags);
        rankById_ = std::move(ranks);
        moveX_ = std::move(mx);
        moveY_ = std::move(my);
        moveZ_ = std::move(mz);
        packed_ = std::move(packed);
        binX_ = std::move(bx);
        binY_ = std::move(by);
        binZ_ = std::move(bz);
        if (rc_.empty()) rc_.resize(1);
        if (summary_.empty()) summary_.resize(1);
        capacity_ = capacity;
    }

    [[noreturn]] void throwOutOfMemory(std::size_t cells) const {
        cudaGetLastError();  // an allocation failure is not sticky: clear it
        std::size_t freeBytes = 0, totalBytes = 0;
        cudaMemGetInfo(&freeBytes, &totalBytes);
        auto mib = [](double bytes) { return std::to_string(std::lround(bytes / 1048576.0)); };
        const double need = kBytesPerCell<Real> * static_cast<double>(cells);
        const std::string needText = need < 1048576.0
                                         ? std::to_string(std::lround(need / 1024.0)) + " KiB"
                                         : mib(need) + " MiB";
        const std::optional<std::size_t> injected = faultBytes("device-memory");
        throw OutOfDeviceMemoryError(
            "spheres: step " + std::to_string(step_) + ": " + std::to_string(cells) +
            " cells need about " + needText + " of device memory, " +
            mib(static_cast<double>(freeBytes)) + " MiB of " +
            mib(static_cast<double>(totalBytes)) + " MiB are free" +
            (injected ? " (a shortage injected by CELLFORGE_FAULTS: at most " +
                            std::to_string(*injected) + " bytes)"
                      : "") +
            "; the state is unchanged at step " + std::to_string(step_));
    }

    void ensureCapacity(std::size_t n, std::size_t born) {
        const std::size_t before = capacity_;
        const std::size_t next = capacityFor(p_, step_, n, born, capacity_);
        if (next == capacity_) return;
        allocateAll(next, n);
        note(capacityNote(before, next, n + born, kBytesPerCell<Real>));
    }

    // Grid geometry of this step, a function of the bounds alone (so a restored run builds
    // the same one): gridCutoff of the largest diameter any cell can have after this step's
    // growth.
    void updateGeometry() {
        double bound = p_.interactionRadius;
        if (!(bound > 0.0)) {
            const double grown = vmaxBound_ + (p_.growth ? p_.growthPerStep : 0.0);
            bound = std::max(diameterOf(grown), diameterBound_);
        }
        refreshGridGeometry(geometry_, haveGeometry_, bound, boxLo_, boxHi_);
    }

    FieldGrid fieldGrid() const { return substanceGrid(fieldDims_, boxLo_, boxHi_); }

    // The points the grid bins, cells 0..total-1: the state's float positions, or in double
    // those positions rounded to float (the values the CPU reference bins).
    grid::PointsView binnedPoints(std::size_t total) {
        const auto count = static_cast<int>(total);
        if constexpr (std::is_same_v<Real, float>) {
            return {a_.x.data(), a_.y.data(), a_.z.data(), count};
        } else {
            spheres::cuda::launchBinPositions(a_.arrays(), total, binX_.data(), binY_.data(),
                                              binZ_.data(), stream_);
            return {binX_.data(), binY_.data(), binZ_.data(), count};
        }
    }

    void substanceStep(std::size_t n) {
        const FieldGrid g = fieldGrid();
        if (p_.diffusion > 0.0 || p_.decay > 0.0) {
            const DiffusionPlan plan = planDiffusion(g, p_.diffusion, p_.decay, p_.dt);
            const bool open = p_.boundary == static_cast<std::int32_t>(SubstanceBoundary::Open);
            for (int k = 0; k < plan.substeps; ++k) {
                spheres::cuda::launchDiffuse(field_.data(), fieldNext_.data(), g, plan, open,
                                             stream_);
                std::swap(field_, fieldNext_);
            }
        }
        if (p_.secretion > 0.0)
            spheres::cuda::launchSecrete(a_.arrays(), n, field_.data(), voxelCounts_.data(), g,
                                         p_.secretion * p_.dt / g.voxelVolume(), stream_);
    }

    void stepOnce() {
        const std::size_t n = n_;
        if (n == 0) {
            ++step_;
            time_ += p_.dt;
            divisions_ = 0;
            return;
        }
        // 1. rc before growth, on the device.
        if (p_.interactionRadius > 0.0)
            spheres::cuda::launchFixedRadius(rc_.data(), static_cast<Real>(p_.interactionRadius),
                                             stream_);
        else
            spheres::cuda::launchInteractionRadius(a_.diameter.data(), n, rc_.data(), scratch_,
                                                   stream_);
        // 2. Divisions, only when the volume bound allows one.
        const bool checked = p_.growth && vmaxBound_ > p_.divisionVolume;
        std::size_t born = 0;
        if (checked) {
            try {
                spheres::cuda::launchRankDivisions(a_.arrays(), n, flagById_.data(),
                                                   rankById_.data(), summary_.data(), scratch_,
                                                   stream_);
                spheres::cuda::DivisionSummary summary{};
                CF_CUDA_CHECK(cudaMemcpyAsync(&summary, summary_.data(), sizeof summary,
                                              cudaMemcpyDeviceToHost, stream_));
                CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
                born = static_cast<std::size_t>(summary.dividing);
                vmaxBound_ = summary.maxVolume;          // exact
                ensureCapacity(n, born);                 // throws with the state unchanged
                grid_.reservePoints(n + born, stream_);  // nor may the grid fail later on
            } catch (const CudaError& e) {
                // Nothing of the step has changed the state yet (the ranking only fills scratch
                // buffers): a shortage here leaves the last step intact.
                if (e.code() != static_cast<int>(cudaErrorMemoryAllocation)) throw;
                throwOutOfMemory(n + born);
            }
        }
        // Substance: diffusion and secretion before biology (BioDynaMo's order), after the
        // capacity check so that a refused step leaves the field as it was.
        if (!field_.empty()) substanceStep(n);
        // 3. Biology.
        if (p_.growth)
            spheres::cuda::launchBiology(a_.arrays(), n, flagById_.data(), rankById_.data(),
                                         checked, seed_, step_, stream_);
        // 4-5. Forces on the cells after biology, then the Jacobi update.
        const std::size_t total = n + born;
        updateGeometry();
        grid_.build(geometry_, binnedPoints(total), stream_);
        const spheres::cuda::ChemotaxisField chemotaxis{field_.empty() ? nullptr : field_.data(),
                                                        fieldGrid(),
                                                        static_cast<float>(p_.chemotaxis)};
        spheres::cuda::launchForces(
            a_.arrays(), total, grid_.view(), packed_.data(), rc_.data(), chemotaxis, moveX_.data(),
            moveY_.data(), moveZ_.data(), seed_, step_, stream_, SIZE_MAX,
            p_.forceKernel == static_cast<std::int32_t>(ForceKernel::Voxel));
        spheres::cuda::launchApply(a_.arrays(), total, moveX_.data(), moveY_.data(), moveZ_.data(),
                                   stream_);
        // 6. Bookkeeping; the bound grows with the cells (mothers and daughters are smaller
        // than the parent was), and after growth every diameter follows from its volume.
        if (p_.growth) {
            vmaxBound_ += p_.growthPerStep;
            diameterBound_ = 0.0;
        }
        n_ = total;
        divisions_ = born;
        ++step_;
        time_ += p_.dt;
        if (step_ % static_cast<std::uint64_t>(p_.sortEvery) == 0) {
            spheres::cuda::launchGather(a_.arrays(), b_.arrays(), grid_.view().sortedIndex, total,
                                        stream_);
            std::swap(a_, b_);
        }
    }

    cudaStream_t stream_ = nullptr;
    SpheresParams p_{};
    std::optional<ParamSet> inEffect_;  // the set p_ comes from
    std::uint32_t seed_ = 0;
    std::uint64_t step_ = 0;
    double time_ = 0.0;
    double boxLo_[3] = {0, 0, 0}, boxHi_[3] = {1, 1, 1};
    std::size_t n_ = 0, capacity_ = 0;
    std::uint64_t divisions_ = 0;
    double vmaxBound_ = 0.0;      // >= every cell's volume (exact after a checked step)
    double diameterBound_ = 0.0;  // >= every diameter not yet recomputed from its volume
    CellBuffers<Real> a_, b_;
    DeviceBuffer<std::int32_t> flagById_, rankById_;
    DeviceBuffer<Real> moveX_, moveY_, moveZ_, rc_;
    DeviceBuffer<spheres::cuda::Packed<Real>> packed_;  // (x, y, z, D) sorted, for the force loop
    DeviceBuffer<float> binX_, binY_, binZ_;            // double only: what the grid bins
    DeviceBuffer<spheres::cuda::DivisionSummary> summary_;
    DeviceBuffer<unsigned char> scratch_;
    DeviceBuffer<float> field_, fieldNext_;  // the substance (empty when off)
    DeviceBuffer<std::uint32_t> voxelCounts_;
    std::int32_t fieldDims_[3] = {0, 0, 0};
    grid::GridGeometry geometry_{};
    bool haveGeometry_ = false;
    grid::CudaUniformGrid grid_;
    DeviceBuffer<float4> viewXyzr_;
    DeviceBuffer<float> viewAge_, viewLineage_, viewSensed_, viewDiameter_;
    DeviceBuffer<std::uint8_t> viewClone_;
    double focusLo_[3] = {0, 0, 0}, focusHi_[3] = {1, 1, 1};
    // Over ranks (null comm_: one rank).
    dist::Communicator* comm_ = nullptr;
    SlabCuts cuts_;
    std::uint64_t nGlobal_ = 0, rebalances_ = 0;
    double haloSeconds_ = 0.0;
    DeviceBuffer<double> cutsDevice_;
    DeviceBuffer<std::uint32_t> dividingIds_, allIds_;
    DeviceBuffer<std::int32_t> leave_, stay_;
    DeviceBuffer<int> counts_;
    DeviceBuffer<CellRecord> recordsOut_, recordsIn_;
    DeviceBuffer<unsigned long long> bins_;
    cf::cuda::PinnedBuffer<CellRecord> pinnedOut_, pinnedIn_;
    cf::cuda::PinnedBuffer<int> pinnedCounts_;
    DeviceBuffer<GhostRecordOf<Real>> ghostsOut_, ghostsIn_;
    cf::cuda::PinnedBuffer<GhostRecordOf<Real>> pinnedGhostsOut_, pinnedGhostsIn_;
    dist::StreamExchange* streamExchange_ = nullptr;  // NCCL where installed
};

}  // namespace cf::spheres::cudamodel
