// SPDX-License-Identifier: GPL-3.0-or-later
// CUDA backend of `lattice` (host side): the lattice lives on the device, one kernel per
// sweep and one for its overflows (lattice_kernels.cu), which are re-inserted on the device
// with the CPU's own placeOverflow in the CPU's order, so both backends produce identical
// lattices. Nothing is read back while stepping; advance() reads three counters at its end.
//
// After distribute() on more than one rank it holds one z-slab (lattice_slab.hpp), as the
// CPU backend does: the sweeps and reactions cover the slab's own planes, the z sweep's
// halo planes come from the neighbours meanwhile (lattice_halos.hpp), and after each
// phase the overflow count is read back and summed over the ranks: when no rank has any
// (the common case) the step stays on the device; otherwise every rank downloads its slab
// and places the overflows with the CPU's SlabOverflows, then uploads it again.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "sim/core/errors.hpp"
#include "sim/cuda/device_buffer.hpp"
#include "sim/cuda/pinned_buffer.hpp"
#include "sim/dist/distributable.hpp"
#include "sim/models/lattice/cuda/lattice_halos.hpp"
#include "sim/models/lattice/cuda/lattice_kernels.cuh"
#include "sim/models/lattice/lattice_model.hpp"
#include "sim/models/lattice/lattice_slab.hpp"
#include "sim/models/lattice/lattice_views.hpp"

namespace cf::lattice {

namespace {

using cf::cuda::DeviceBuffer;

class CudaLattice final : public Model, public dist::Distributable, public StateArrayProvider {
public:
    CudaLattice() {
        CF_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
        // The sweeps give the same lattice; CELLFORGE_LATTICE_SWEEP=warp|tiled|site forces one
        // to compare timings (argsFor). Any other value is refused: a comparison that silently
        // ran the default kernel twice would compare nothing.
        const char* kernel = std::getenv("CELLFORGE_LATTICE_SWEEP");
        if (kernel != nullptr && *kernel != '\0') {
            const std::string_view k(kernel);
            if (k == "site")
                forcedKernel_ = cuda::SweepKernel::PerSite;
            else if (k == "tiled")
                forcedKernel_ = cuda::SweepKernel::Tiled;
            else if (k == "warp")
                forcedKernel_ = cuda::SweepKernel::Warp;
            else {
                cudaStreamDestroy(stream_);
                throw InputError("CELLFORGE_LATTICE_SWEEP=" + std::string(k) +
                                 ": the lattice's sweep kernel is one of warp, tiled, site");
            }
        }
    }
    ~CudaLattice() override {
        halos_.reset();
        cuda::releaseGeometry(this);
        cudaStreamDestroy(stream_);
    }
    CudaLattice(const CudaLattice&) = delete;
    CudaLattice& operator=(const CudaLattice&) = delete;

    Backend backend() const override { return Backend::Cuda; }

    void distribute(dist::Communicator& comm) override { comm_ = &comm; }

    dist::GridPiece piece() const override { return slabPiece(p_, slab_ ? &*slab_ : nullptr); }

    double haloSeconds() const override { return halos_ ? halos_->seconds() : 0.0; }
    std::string haloTransport() const override { return halos_ ? halos_->transport() : "MPI"; }

    void reset(const ParamSet& params, std::uint32_t seed) override {
        // Everything is built before anything is replaced: a bad file or parameter leaves
        // the previous state as it was.
        LatticeParams p = checkedParams(params);
        Geometry g = makeGeometry(p, seed);
        std::optional<SlabLayout> slab;
        // One rank runs the whole lattice as without a communicator.
        if (comm_ && comm_->size() > 1) slab = slabLayout(g, *comm_);
        HostState s = initialState(p, g);
        std::vector<std::int64_t> initial = countSpecies(p, g, s.words.data());
        const auto freeSites =
            static_cast<std::size_t>(std::count(s.types.begin(), s.types.end(), kSiteCytoplasm));
        if (slab) {
            // As on the CPU: every rank builds the whole initial state and keeps its slab.
            s = cutSlab(*slab, s);
            g = slab->local;
        }
        p_ = std::move(p);
        inEffect_.emplace(params);
        g_ = g;
        halos_.reset();
        slab_ = std::move(slab);
        note(memoryReport(p_, slab_ ? slab_->whole : g_) +
             (slab_ ? "; rank " + std::to_string(slab_->slab.rank) + " of " +
                          std::to_string(slab_->slab.ranks) + " holds z-planes " +
                          std::to_string(slab_->slab.begin) + ".." +
                          std::to_string(slab_->slab.end - 1) + " and two halo planes"
                    : std::string()));
        initial_ = std::move(initial);
        initialKnown_ = true;
        freeSites_ = freeSites;
        cuda::uploadGeometry(g_, this, stream_);
        upload(std::move(s));
        if (slab_) {
            std::vector<int> layers;  // the CPU slab's tags (lattice_halos.hpp)
            for (int w = 0; w < g_.wordsPerSite; ++w)
                layers.push_back(w);
            if (!ids_.empty())
                for (int k = 0; k < g_.capacity; ++k)
                    layers.push_back(4 + k);
            haloBase_.assign(layers.size(), nullptr);
            halos_ = std::make_unique<cuda::SlabHalos>(*slab_, std::move(layers), *comm_, stream_);
        }
    }

    void setLiveParameters(const ParamSet& params) override {
        ParamSet merged = withLiveValues(*inEffect_, params);
        LatticeParams next = checkedParams(merged);  // a refusal changes nothing
        Geometry g = g_;
        updateThresholds(next, g);
        Geometry whole = slab_ ? slab_->whole : g;
        if (slab_) updateThresholds(next, whole);
        // Ordered on the simulation stream: sweeps already queued keep the old thresholds.
        cuda::uploadGeometry(g, this, stream_);
        p_ = std::move(next);
        g_ = g;
        if (slab_) slab_->whole = whole;
        inEffect_ = std::move(merged);
    }

    void advance(std::uint64_t steps) override {
        cuda::bindGeometry(g_, this, stream_);
        if (slab_ && p_.validation && !initialKnown_) initialCountsAfterRestore();
        for (std::uint64_t k = 0; k < steps; ++k)
            stepOnce();
        readStats();
    }

    std::uint64_t step() const override { return h_.step; }
    double time() const override { return h_.time; }

    std::vector<Metric> metrics() override {
        // Counts reduced on the device; only the tracked displacements come back.
        if (!disp_.empty()) disp_.copyToHost(h_.displacement, stream_);
        cuda::bindGeometry(g_, this, stream_);
        if (!slab_) return metricsFromCounts(p_, deviceRegionCounts(), freeSites_, h_);
        // As on the CPU: integer counts and displacement shares summed over the ranks, then
        // the one rank's arithmetic on equal inputs.
        return slabMetrics(*comm_, p_, deviceRegionCounts(), freeSites_, h_, metricState_,
                           scratch64_);
    }

    // A distributed snapshot is this rank's planes (piece()), with this rank's shares of
    // `displacement` and `reactions_fired`, as the CPU backend's.
    Snapshot snapshot() override {
        cuda::bindGeometry(g_, this, stream_);
        download();
        if (!slab_) return makeSnapshot(p_, g_, h_);
        Snapshot snap = makeSnapshot(p_, slab_->piece, ownPlanes(*slab_, h_));
        snap.boxLo[2] = slab_->slab.begin * static_cast<double>(p_.lambda);
        snap.boxHi[2] = slab_->slab.end * static_cast<double>(p_.lambda);
        return snap;
    }

    // One rank's arrays only (a distributed run's hold halo planes: none offered).
    std::vector<StateArray> stateArrays() override {
        if (slab_) return {};
        return stateArraysOf({words_.data(), words_.size(), types_.data(), types_.size(),
                              ids_.data(), ids_.size(), disp_.data(), disp_.size() / 3},
                             MemorySpace::Device);
    }

    void restore(const Snapshot& snap) override {
        if (slab_) {
            HostState piece = readSnapshot(p_, slab_->piece, snap);  // may refuse: nothing changed
            download();  // the halos keep what they hold (reflective ends: obstacle planes)
            HostState s = h_;
            setOwnPlanes(*slab_, piece, s);
            initialKnown_ = false;  // counted over the ranks at the next advance (collective)
            upload(std::move(s));
            return;
        }
        HostState s = readSnapshot(p_, g_, snap);
        initial_ = initialCountsOf(p_, g_, s);
        upload(std::move(s));
    }

    // Packed on the device, in the CPU views' order, so the window copies them into GL
    // buffers device to device.
    ModelViews views() override {
        if (slab_) return {};  // a distributed run is headless
        cuda::bindGeometry(g_, this, stream_);
        const std::size_t n =
            cuda::packViews(words_.data(), g_.sites, p_.lambda, viewOccupancy_, viewOffsets_,
                            scratch_, viewXyzr_, viewSpecies_, stream_);
        // The layout (box, names, labels) from the host function on zero sites.
        ModelViews v = hostViews(p_, emptyGeometry(), HostState{}, viewLayoutBuffers_);
        PointCloudView& cloud = v.clouds.front();
        cloud.space = MemorySpace::Device;
        cloud.positions = viewXyzr_.data();
        cloud.count = n;
        cloud.categories.front().data = viewSpecies_.data();
        if (volumeShown(g_)) {
            VolumeView vol = volumeLayout(p_, g_, freeSites_);
            const std::size_t sites = g_.sites;
            viewOccupancyPlanes_.resize(sites * (static_cast<std::size_t>(p_.speciesCount) + 1));
            viewSiteTypes_.resize(sites);
            cuda::packVolume(words_.data(), types_.data(), g_.sites, p_.speciesCount,
                             viewOccupancyPlanes_.data(), viewSiteTypes_.data(), stream_);
            vol.space = MemorySpace::Device;
            for (std::size_t c = 0; c < vol.scalars.size(); ++c)
                vol.scalars[c].data = viewOccupancyPlanes_.data() + c * sites;
            vol.categories.front().data = viewSiteTypes_.data();
            v.volumes.push_back(std::move(vol));
        }
        return v;
    }

    // Integer state only: nothing can become non-finite.
    void checkFinite() override {}

    void synchronize() override { CF_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

    std::vector<std::uint8_t> deviceParameterBlock() override {
        Geometry onDevice{};
        cuda::bindGeometry(g_, this, stream_);
        cuda::downloadGeometry(onDevice, stream_);
        return bytesOf(onDevice);
    }

private:
    // hostViews on zero sites: the same ModelViews layout without touching the lattice.
    Geometry emptyGeometry() const {
        Geometry g = g_;
        g.sites = 0;
        return g;
    }

    // Takes the whole state to the device; the host keeps counters, types and the
    // tracked species (which never change) and scratch copies for snapshots.
    void upload(HostState s) {
        h_ = std::move(s);
        // A slab's count is the whole lattice's, from reset (the types never change).
        if (!slab_)
            freeSites_ = static_cast<std::size_t>(
                std::count(h_.types.begin(), h_.types.end(), kSiteCytoplasm));
        words_.resize(h_.words.size());
        nextWords_.resize(h_.words.size());
        types_.resize(h_.types.size());
        ids_.resize(h_.ids.size());
        nextIds_.resize(h_.ids.size());
        disp_.resize(h_.displacement.size());
        // The sweeps rely on the spare copy being a valid lattice (its id slots past
        // each site's count are zero), so it starts empty.
        nextWords_.fillZero(stream_);
        nextIds_.fillZero(stream_);
        // The spare copy is zero; the uploaded one (a snapshot's words) is not known to
        // have zero bytes past each site's count: the first sweep into it writes all planes.
        spareClean_ = true;
        wordsClean_ = false;
        words_.copyFromHost(h_.words, stream_);
        if (slab_) {
            // In a slab the halos of both copies must hold the reflective ends' obstacle
            // planes, which no sweep writes: the spare copy starts as the current one.
            CF_CUDA_CHECK(cudaMemcpyAsync(nextWords_.data(), words_.data(), words_.bytes(),
                                          cudaMemcpyDeviceToDevice, stream_));
            spareClean_ = false;
        }
        types_.copyFromHost(h_.types, stream_);
        ids_.copyFromHost(h_.ids, stream_);
        disp_.copyFromHost(h_.displacement, stream_);
        // At most every particle overflows in one sweep; the list is a power of two (the
        // device sort pads it) and capped: more than 2^20 overflows in one sweep means
        // the lattice is far too full for its capacity, reported as an error.
        std::int64_t total = 0;
        if (!slab_)
            for (std::int64_t c : countSpecies(p_, g_, h_.words.data()))
                total += c;
        // Reactions that make more particles than they take can fill the lattice from few
        // (0 -> 5 A from none): the list is then sized for a full lattice.
        bool grows = false;
        for (int r = 0; r < g_.reactions.count; ++r)
            grows =
                grows || productsMade(g_.reactions.reactions[r]) > g_.reactions.reactions[r].order;
        if (grows) total = std::max(total, static_cast<std::int64_t>(g_.sites) * g_.capacity);
        std::size_t capacity = 1;
        while (capacity < static_cast<std::size_t>(total) && capacity < kMaxOverflowList)
            capacity <<= 1;
        // A slab's particles come and go: its list is the largest one.
        if (slab_) capacity = kMaxOverflowList;
        overflows_.resize(capacity);
        if (slab_) {
            hostOverflows_.reserve(capacity);
            if (pinnedCount_.size() == 0) pinnedCount_ = cf::cuda::PinnedBuffer<std::uint32_t>(1);
        }
        overflowCount_.resize(1);
        overflowCount_.fillZero(stream_);
        counts_.resize(kRegionCountsSize);
        stats_.resize(cuda::kStatsSize);
        std::vector<unsigned long long> stats(cuda::kStatsSize, 0);
        stats[0] = h_.overflowsLastStep;
        stats[1] = h_.overflowsTotal;
        for (int r = 0; r < kMaxReactions; ++r)
            stats[3 + r] = h_.fired[r];
        stats_.copyFromHost(stats, stream_);
    }

    void download() {
        words_.copyToHost(h_.words, stream_);
        ids_.copyToHost(h_.ids, stream_);
        disp_.copyToHost(h_.displacement, stream_);
    }

    // Per (site type, species): countByRegion's layout.
    // A slab counts its own planes only.
    std::vector<std::int64_t> deviceRegionCounts() {
        counts_.fillZero(stream_);
        cuda::launchCountSpecies(words_.data(), types_.data(), slab_ ? slab_->firstOwned() : 0,
                                 slab_ ? slab_->endOwned() : g_.sites, p_.speciesCount,
                                 counts_.data(), stream_);
        const std::vector<unsigned long long> c = counts_.toHost(stream_);
        return std::vector<std::int64_t>(c.begin(), c.end());
    }

    void stepOnce() {
        slabOverflows_ = 0;
        for (int axis = 0; axis < 3; ++axis)
            sweep(axis);
        if (g_.reactions.count > 0) react();
        if (slab_) {  // the device's counters hold only the reactions fired here
            h_.overflowsLastStep = slabOverflows_;
            h_.overflowsTotal += slabOverflows_;
        }
        ++h_.step;
        h_.time += static_cast<double>(p_.tau) * 1.0e-3;
        if (p_.validation) {
            readStats();
            checkCounts();
        }
    }

    // Arguments of one phase: `phase` 0..2 sweeps from the current lattice into the spare
    // copy; 3 (reactions) works in place on the current one.
    cuda::SweepArgs argsFor(int phase) {
        const bool tracking = !ids_.empty();
        const bool inPlace = phase == 3;
        cuda::SweepArgs a{};
        a.src = words_.data();
        a.dst = inPlace ? words_.data() : nextWords_.data();
        a.types = types_.data();
        a.ids = tracking ? ids_.data() : nullptr;
        a.nextIds = tracking ? (inPlace ? ids_.data() : nextIds_.data()) : nullptr;
        a.displacement = disp_.data();
        a.overflows = overflows_.data();
        a.overflowCount = overflowCount_.data();
        a.overflowCapacity = static_cast<std::uint32_t>(overflows_.size());
        a.stats = stats_.data();
        a.sites = g_.sites;
        a.step = h_.step;
        a.axis = phase;
        // Measured in one call on the H200 (docs/PERFORMANCE.md, 2026-11-29): the warp sweep
        // is 1.2-1.4x faster than the per-site sweep for byte16 on 5 of 6 cases (7 % slower on
        // the 0.5 M-site in-vivo lattice), and the tiled sweep is 3x slower there; for packed32
        // the tiled sweep is as fast as the warp sweep on sparse lattices (0.95-1.04x) and 1.43x
        // faster near the overflow limit, so packed32 keeps it.
        a.kernel = forcedKernel_.value_or(g_.layout == static_cast<std::int32_t>(Layout::Byte16)
                                              ? cuda::SweepKernel::Warp
                                              : cuda::SweepKernel::Tiled);
        a.dstClean = spareClean_ ? 1 : 0;
        a.zBegin = slab_ ? 1 : 0;  // a slab's own planes: 1..count
        a.zEnd = slab_ ? slab_->slab.count() + 1 : g_.n[2];
        return a;
    }

    void sweep(int axis) {
        const cuda::SweepArgs a = argsFor(axis);
        if (!slab_) {
            cuda::launchSweep(a, g_, stream_);
            cuda::launchReinsert(a, stream_);
        } else {
            if (axis < 2) {
                cuda::launchSweep(a, g_, stream_);
            } else {
                for (int w = 0; w < g_.wordsPerSite; ++w)
                    haloBase_[static_cast<std::size_t>(w)] =
                        words_.data() + static_cast<std::size_t>(w) * g_.sites;
                if (!ids_.empty())
                    for (int k = 0; k < g_.capacity; ++k)
                        haloBase_[static_cast<std::size_t>(g_.wordsPerSite + k)] =
                            ids_.data() + static_cast<std::size_t>(k) * g_.sites;
                halos_->zSweep(haloBase_.data(), [&](int zBegin, int zEnd) {
                    cuda::SweepArgs part = a;
                    part.zBegin = zBegin;
                    part.zEnd = zEnd;
                    cuda::launchSweep(part, g_, stream_);
                });
            }
            slabOverflows_ += reinsertOnRanks(a);
        }
        std::swap(words_, nextWords_);
        // A sweep leaves its output clean (re-insertion and reactions encode whole sites).
        spareClean_ = wordsClean_;
        wordsClean_ = true;
        if (!ids_.empty()) std::swap(ids_, nextIds_);
    }

    // In place on the current lattice (after the sweeps' swaps), then its overflows.
    void react() {
        const cuda::SweepArgs a = argsFor(3);
        cuda::launchReactions(a, g_, stream_);
        if (slab_)
            slabOverflows_ += reinsertOnRanks(a);
        else
            cuda::launchReinsert(a, stream_);
    }

    // A slab's overflows after a phase (collective): the count comes back and is summed
    // over the ranks. None anywhere: nothing else to do. Otherwise every rank downloads the
    // lattice the phase wrote and its list, places them as the CPU does
    // (SlabOverflows::reinsert, which needs every rank's planes), and uploads the lattice.
    // Returns the overflows of the whole lattice.
    std::uint64_t reinsertOnRanks(const cuda::SweepArgs& a) {
        CF_CUDA_CHECK(cudaMemcpyAsync(pinnedCount_.data(), a.overflowCount, sizeof(std::uint32_t),
                                      cudaMemcpyDeviceToHost, stream_));
        CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
        const std::uint32_t n = *pinnedCount_.data();
        std::uint64_t sums[2] = {n, n > a.overflowCapacity ? 1u : 0u};
        comm_->allreduce(std::span<std::uint64_t>(sums), dist::ReduceOp::Sum);
        if (sums[0] == 0) return 0;
        if (sums[1] != 0)  // on every rank alike
            throw SimulationError(
                "lattice: by step " + std::to_string(h_.step) + ", more than " +
                std::to_string(a.overflowCapacity) +
                " particles overflowed on one rank in one phase (the lattice is too full for "
                "its capacity)");
        hostOverflows_.resize(n);
        if (n > 0)
            CF_CUDA_CHECK(cudaMemcpyAsync(hostOverflows_.data(), a.overflows, n * sizeof(Overflow),
                                          cudaMemcpyDeviceToHost, stream_));
        CF_CUDA_CHECK(cudaMemsetAsync(a.overflowCount, 0, sizeof(std::uint32_t), stream_));
        const bool tracking = a.nextIds != nullptr;
        const std::size_t sites = g_.sites;
        h_.words.resize(sites * static_cast<std::size_t>(g_.wordsPerSite));
        copyDown(h_.words.data(), a.dst, h_.words.size());
        if (tracking) {
            h_.ids.resize(sites * static_cast<std::size_t>(g_.capacity));
            copyDown(h_.ids.data(), a.nextIds, h_.ids.size());
        }
        h_.displacement.resize(disp_.size());
        if (!disp_.empty()) disp_.copyToHost(h_.displacement, stream_);
        CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
        const std::uint64_t total = slabOverflowList_.reinsert(
            *comm_, *slab_, hostOverflows_, h_.words.data(), h_.types.data(),
            tracking ? h_.ids.data() : nullptr, h_.displacement.data());
        copyUp(a.dst, h_.words.data(), h_.words.size());
        if (tracking) copyUp(a.nextIds, h_.ids.data(), h_.ids.size());
        if (!disp_.empty()) disp_.copyFromHost(h_.displacement, stream_);
        CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
        return total;
    }

    void copyDown(std::uint32_t* host, const std::uint32_t* device, std::size_t n) {
        CF_CUDA_CHECK(cudaMemcpyAsync(host, device, n * sizeof(std::uint32_t),
                                      cudaMemcpyDeviceToHost, stream_));
    }
    void copyUp(std::uint32_t* device, const std::uint32_t* host, std::size_t n) {
        CF_CUDA_CHECK(cudaMemcpyAsync(device, host, n * sizeof(std::uint32_t),
                                      cudaMemcpyHostToDevice, stream_));
    }

    // The overflow counters; a particle that found no room (or did not fit the list)
    // makes the state wrong from here on, so the run stops with the reason.
    void readStats() {
        const std::vector<unsigned long long> s = stats_.toHost(stream_);
        if (!slab_) {  // a slab counts its overflows on the host (reinsertOnRanks)
            h_.overflowsLastStep = s[0];
            h_.overflowsTotal = s[1];
        }
        for (int r = 0; r < kMaxReactions; ++r)
            h_.fired[r] = s[3 + r];
        if (s[2] != 0)
            throw SimulationError(
                "lattice: by step " + std::to_string(h_.step) + ", " + std::to_string(s[2]) +
                " overflowing particles found no free slot in any site of their type (the "
                "region is full) or exceeded the overflow list of " +
                std::to_string(overflows_.size()) +
                " in one sweep (the lattice is too full for its capacity)");
    }

    // The species counts and reactions fired of the whole lattice (collective in a slab).
    std::vector<std::int64_t> countsNow(std::vector<std::uint64_t>& fired) {
        fired.assign(h_.fired, h_.fired + kMaxReactions);
        std::vector<std::int64_t> byRegion = deviceRegionCounts();
        if (slab_) {
            sumOverRanks(*comm_, byRegion, scratch64_);
            comm_->allreduce(std::span<std::uint64_t>(fired), dist::ReduceOp::Sum);
        }
        return speciesTotals(p_, byRegion);
    }

    // initialCountsOf for a slab restored from its piece: the counts now less what the
    // reactions of the whole lattice changed (as on the CPU).
    void initialCountsAfterRestore() {
        readStats();
        std::vector<std::uint64_t> fired;
        initial_ = countsNow(fired);
        const std::vector<std::int64_t> delta =
            expectedCounts(p_, g_, std::vector<std::int64_t>(initial_.size(), 0), fired.data());
        for (std::size_t k = 0; k < initial_.size(); ++k)
            initial_[k] -= delta[k];
        initialKnown_ = true;
    }

    void checkCounts() {
        std::vector<std::uint64_t> fired;
        const std::vector<std::int64_t> now = countsNow(fired);
        const std::vector<std::int64_t> expected = expectedCounts(p_, g_, initial_, fired.data());
        for (std::size_t sp = 0; sp < now.size(); ++sp)
            if (now[sp] != expected[sp])
                throw SimulationError("lattice: step " + std::to_string(h_.step) + ": species " +
                                      std::to_string(sp) + " has " + std::to_string(now[sp]) +
                                      " particles, expected " + std::to_string(expected[sp]) +
                                      " (conservation check)");
    }

    cudaStream_t stream_ = nullptr;
    std::optional<cuda::SweepKernel> forcedKernel_;
    bool wordsClean_ = false;  // see SweepArgs::dstClean, for words_ and nextWords_
    bool spareClean_ = false;
    LatticeParams p_{};
    std::optional<ParamSet> inEffect_;  // the set p_ comes from
    Geometry g_{};
    HostState h_;  // counters always current; words/ids/displacement only after download
    std::size_t freeSites_ = 0;
    std::vector<std::int64_t> initial_;  // counts at reset (validation)
    bool initialKnown_ = true;
    DeviceBuffer<std::uint32_t> words_, nextWords_, ids_, nextIds_;
    DeviceBuffer<std::uint8_t> types_;
    DeviceBuffer<std::int32_t> disp_;
    static constexpr std::size_t kMaxOverflowList = std::size_t{1} << 20;
    DeviceBuffer<Overflow> overflows_;
    DeviceBuffer<std::uint32_t> overflowCount_;
    DeviceBuffer<unsigned long long> stats_;
    DeviceBuffer<unsigned long long> counts_;
    DeviceBuffer<std::uint32_t> viewOccupancy_, viewOffsets_;
    DeviceBuffer<float> viewXyzr_;
    DeviceBuffer<std::uint8_t> viewSpecies_;
    DeviceBuffer<float> viewOccupancyPlanes_;
    DeviceBuffer<std::uint8_t> viewSiteTypes_;
    DeviceBuffer<unsigned char> scratch_;  // CUB temporary storage
    ViewBuffers viewLayoutBuffers_;
    // Distributed (more than one rank): the slab, its halos and overflows, the metrics'
    // inputs. Host buffers are sized once (reset, first overflow); steps allocate nothing.
    dist::Communicator* comm_ = nullptr;
    std::optional<SlabLayout> slab_;
    std::unique_ptr<cuda::SlabHalos> halos_;
    std::vector<std::uint32_t*> haloBase_;  // the current lattice's layers (lattice_halos.hpp)
    SlabOverflows slabOverflowList_;
    std::vector<Overflow> hostOverflows_;
    cf::cuda::PinnedBuffer<std::uint32_t> pinnedCount_;
    std::uint64_t slabOverflows_ = 0;  // of the whole lattice in this step
    HostState metricState_;
    std::vector<std::uint64_t> scratch64_;
};

}  // namespace

std::unique_ptr<Model> makeCudaModel() {
    return std::make_unique<CudaLattice>();
}

}  // namespace cf::lattice
