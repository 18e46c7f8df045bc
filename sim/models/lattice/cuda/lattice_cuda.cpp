// SPDX-License-Identifier: GPL-3.0-or-later
// CUDA backend of `lattice` (host side): the lattice lives on the device, one kernel per
// sweep and one for its overflows (lattice_kernels.cu), which are re-inserted on the device
// with the CPU's own placeOverflow in the CPU's order, so both backends produce identical
// lattices. Nothing is read back while stepping; advance() reads three counters at its end.
#include <algorithm>
#include <array>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "sim/cuda/device_buffer.hpp"
#include "sim/models/lattice/cuda/lattice_kernels.cuh"
#include "sim/models/lattice/lattice_model.hpp"
#include "sim/models/lattice/lattice_views.hpp"

namespace cf::lattice {

namespace {

using cf::cuda::DeviceBuffer;

class CudaLattice final : public Model {
public:
    CudaLattice() {
        CF_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
        // Both sweeps give the same lattice; CELLFORGE_LATTICE_SWEEP=site|tiled overrides the
        // choice per layout (sweepKernelFor) to compare timings.
        const char* kernel = std::getenv("CELLFORGE_LATTICE_SWEEP");
        if (kernel != nullptr && std::string_view(kernel) == "site")
            forcedKernel_ = cuda::SweepKernel::PerSite;
        if (kernel != nullptr && std::string_view(kernel) == "tiled")
            forcedKernel_ = cuda::SweepKernel::Tiled;
    }
    ~CudaLattice() override {
        cuda::releaseGeometry(this);
        cudaStreamDestroy(stream_);
    }
    CudaLattice(const CudaLattice&) = delete;
    CudaLattice& operator=(const CudaLattice&) = delete;

    Backend backend() const override { return Backend::Cuda; }

    void reset(const ParamSet& params, std::uint32_t seed) override {
        // Everything is built before anything is replaced: a bad file or parameter leaves
        // the previous state as it was.
        LatticeParams p = checkedParams(params);
        const Geometry g = makeGeometry(p, seed);
        HostState s = initialState(p, g);
        p_ = std::move(p);
        inEffect_.emplace(params);
        g_ = g;
        note(memoryReport(p_, g_));
        initial_ = countSpecies(p_, g_, s.words.data());
        cuda::uploadGeometry(g_, this, stream_);
        upload(std::move(s));
    }

    void setLiveParameters(const ParamSet& params) override {
        ParamSet merged = withLiveValues(*inEffect_, params);
        LatticeParams next = checkedParams(merged);  // a refusal changes nothing
        Geometry g = g_;
        updateThresholds(next, g);
        // Ordered on the simulation stream: sweeps already queued keep the old thresholds.
        cuda::uploadGeometry(g, this, stream_);
        p_ = std::move(next);
        g_ = g;
        inEffect_ = std::move(merged);
    }

    void advance(std::uint64_t steps) override {
        cuda::bindGeometry(g_, this, stream_);
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
        return metricsFromCounts(p_, deviceRegionCounts(), freeSites_, h_);
    }

    Snapshot snapshot() override {
        cuda::bindGeometry(g_, this, stream_);
        download();
        return makeSnapshot(p_, g_, h_);
    }

    void restore(const Snapshot& snap) override {
        HostState s = readSnapshot(p_, g_, snap);
        initial_ = initialCountsOf(p_, g_, s);
        upload(std::move(s));
    }

    // Packed on the device, in the CPU views' order, so the window copies them into GL
    // buffers device to device.
    ModelViews views() override {
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
        freeSites_ =
            static_cast<std::size_t>(std::count(h_.types.begin(), h_.types.end(), kSiteCytoplasm));
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
        types_.copyFromHost(h_.types, stream_);
        ids_.copyFromHost(h_.ids, stream_);
        disp_.copyFromHost(h_.displacement, stream_);
        // At most every particle overflows in one sweep; the list is a power of two (the
        // device sort pads it) and capped: more than 2^20 overflows in one sweep means
        // the lattice is far too full for its capacity, reported as an error.
        const std::vector<std::int64_t> counts = countSpecies(p_, g_, h_.words.data());
        std::int64_t total = 0;
        for (std::int64_t c : counts)
            total += c;
        std::size_t capacity = 1;
        while (capacity < static_cast<std::size_t>(total) && capacity < kMaxOverflowList)
            capacity <<= 1;
        overflows_.resize(capacity);
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
    std::vector<std::int64_t> deviceRegionCounts() {
        counts_.fillZero(stream_);
        cuda::launchCountSpecies(words_.data(), types_.data(), g_.sites, p_.speciesCount,
                                 counts_.data(), stream_);
        const std::vector<unsigned long long> c = counts_.toHost(stream_);
        return std::vector<std::int64_t>(c.begin(), c.end());
    }

    std::vector<std::int64_t> deviceCounts() { return speciesTotals(p_, deviceRegionCounts()); }

    void stepOnce() {
        for (int axis = 0; axis < 3; ++axis)
            sweep(axis);
        if (g_.reactions.count > 0) react();
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
        // Measured on the H100 (docs/PERFORMANCE.md): the tiled sweep is 1.1x faster for
        // packed32 but 2.3-3.7x slower for byte16 (latency: dependent plane loads and two
        // barriers per site), so byte16 keeps the per-site sweep.
        a.kernel = forcedKernel_.value_or(g_.layout == static_cast<std::int32_t>(Layout::Byte16)
                                              ? cuda::SweepKernel::PerSite
                                              : cuda::SweepKernel::Tiled);
        a.dstClean = spareClean_ ? 1 : 0;
        return a;
    }

    void sweep(int axis) {
        const cuda::SweepArgs a = argsFor(axis);
        cuda::launchSweep(a, g_, stream_);
        cuda::launchReinsert(a, stream_);
        std::swap(words_, nextWords_);
        // A sweep leaves its output clean (re-insertion and reactions encode whole sites).
        spareClean_ = wordsClean_;
        wordsClean_ = true;
        if (!ids_.empty()) std::swap(ids_, nextIds_);
    }

    // In place on the current lattice (after the sweeps' swaps), then its overflows.
    void react() {
        const cuda::SweepArgs a = argsFor(3);
        cuda::launchReactions(a, stream_);
        cuda::launchReinsert(a, stream_);
    }

    // The overflow counters; a particle that found no room (or did not fit the list)
    // makes the state wrong from here on, so the run stops with the reason.
    void readStats() {
        const std::vector<unsigned long long> s = stats_.toHost(stream_);
        h_.overflowsLastStep = s[0];
        h_.overflowsTotal = s[1];
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

    void checkCounts() {
        const std::vector<std::int64_t> now = deviceCounts();
        const std::vector<std::int64_t> expected = expectedCounts(p_, g_, initial_, h_.fired);
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
};

}  // namespace

std::unique_ptr<Model> makeCudaModel() {
    return std::make_unique<CudaLattice>();
}

}  // namespace cf::lattice
