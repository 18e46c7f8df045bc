// SPDX-License-Identifier: GPL-3.0-or-later
// CUDA backend of `lattice` (host side): the lattice lives on the device, one kernel per
// sweep (lattice_kernels.cu). Overflows are re-inserted on the host with the CPU's own
// reinsertOverflows, so both backends produce identical lattices.
#include <algorithm>
#include <array>

#include "sim/core/device_buffer.hpp"
#include "sim/models/lattice/cuda/lattice_kernels.cuh"
#include "sim/models/lattice/lattice_model.hpp"

namespace cf::lattice {

namespace {

using cf::cuda::DeviceBuffer;

class CudaLattice final : public Model {
public:
    CudaLattice() { CF_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
    ~CudaLattice() override {
        cuda::releaseGeometry(this);
        cudaStreamDestroy(stream_);
    }
    CudaLattice(const CudaLattice&) = delete;
    CudaLattice& operator=(const CudaLattice&) = delete;

    Backend backend() const override { return Backend::Cuda; }

    void reset(const ParamSet& params, std::uint32_t seed) override {
        p_ = checkedParams(params);
        g_ = makeGeometry(p_, seed);
        HostState s = initialState(p_, g_);
        expected_ = countSpecies(p_, g_, s.words.data());
        cuda::uploadGeometry(g_, this, stream_);
        upload(std::move(s));
    }

    void setLiveParameters(const ParamSet& params) override {
        const LatticeParams next = checkedParams(params);
        applyLiveParameters(p_, next);
        updateThresholds(p_, g_);
        // Ordered on the simulation stream: sweeps already queued keep the old thresholds.
        cuda::uploadGeometry(g_, this, stream_);
    }

    void advance(std::uint64_t steps) override {
        cuda::bindGeometry(g_, this, stream_);
        for (std::uint64_t k = 0; k < steps; ++k)
            stepOnce();
    }

    std::uint64_t step() const override { return h_.step; }
    double time() const override { return h_.time; }

    std::vector<Metric> metrics() override {
        // Counts reduced on the device; only the tracked displacements come back.
        if (!disp_.empty()) disp_.copyToHost(h_.displacement, stream_);
        cuda::bindGeometry(g_, this, stream_);
        return metricsFromCounts(p_, deviceCounts(), freeSites_, h_);
    }

    Snapshot snapshot() override {
        cuda::bindGeometry(g_, this, stream_);
        download();
        return makeSnapshot(p_, g_, h_);
    }

    void restore(const Snapshot& snap) override { upload(readSnapshot(p_, g_, snap)); }

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
            static_cast<std::size_t>(std::count(h_.types.begin(), h_.types.end(), kTypeFree));
        words_.resize(h_.words.size());
        nextWords_.resize(h_.words.size());
        types_.resize(h_.types.size());
        ids_.resize(h_.ids.size());
        nextIds_.resize(h_.ids.size());
        disp_.resize(h_.displacement.size());
        words_.copyFromHost(h_.words, stream_);
        types_.copyFromHost(h_.types, stream_);
        ids_.copyFromHost(h_.ids, stream_);
        disp_.copyFromHost(h_.displacement, stream_);
        // At most every particle overflows in one sweep.
        const std::vector<std::int64_t> counts = countSpecies(p_, g_, h_.words.data());
        std::int64_t total = 0;
        for (std::int64_t c : counts)
            total += c;
        overflows_.resize(static_cast<std::size_t>(std::max<std::int64_t>(total, 1)));
        overflowCount_.resize(1);
        counts_.resize(kMaxSpecies + 1);
    }

    void download() {
        words_.copyToHost(h_.words, stream_);
        ids_.copyToHost(h_.ids, stream_);
        disp_.copyToHost(h_.displacement, stream_);
    }

    std::vector<std::int64_t> deviceCounts() {
        counts_.fillZero(stream_);
        cuda::launchCountSpecies(words_.data(), g_.sites, p_.speciesCount, counts_.data(), stream_);
        const std::vector<unsigned long long> c = counts_.toHost(stream_);
        std::vector<std::int64_t> out(static_cast<std::size_t>(p_.speciesCount) + 1, 0);
        for (std::size_t sp = 0; sp < out.size(); ++sp)
            out[sp] = static_cast<std::int64_t>(c[sp]);
        return out;
    }

    void stepOnce() {
        std::uint64_t overflows = 0;
        for (int axis = 0; axis < 3; ++axis)
            overflows += sweep(axis);
        h_.overflowsLastStep = overflows;
        h_.overflowsTotal += overflows;
        ++h_.step;
        h_.time += static_cast<double>(p_.tau) * 1.0e-3;
        if (p_.validation) checkCounts();
    }

    std::uint64_t sweep(int axis) {
        const bool tracking = !ids_.empty();
        overflowCount_.fillZero(stream_);
        cuda::SweepArgs a{};
        a.src = words_.data();
        a.dst = nextWords_.data();
        a.types = types_.data();
        a.ids = tracking ? ids_.data() : nullptr;
        a.nextIds = tracking ? nextIds_.data() : nullptr;
        a.displacement = disp_.data();
        a.overflows = overflows_.data();
        a.overflowCount = overflowCount_.data();
        a.overflowCapacity = static_cast<std::uint32_t>(overflows_.size());
        a.sites = g_.sites;
        a.step = h_.step;
        a.axis = axis;
        cuda::launchSweep(a, stream_);
        // One 4-byte read per sweep; the lattice itself crosses the bus only when something
        // overflowed.
        const std::uint32_t n = overflowCount_.toHost(stream_)[0];
        if (n > 0) reinsertOnHost(n, tracking);
        std::swap(words_, nextWords_);
        if (tracking) std::swap(ids_, nextIds_);
        return n;
    }

    // The classic handler of Lattice Microbes: bring the swept lattice (and identities)
    // to the host, place the overflowing particles with the CPU's reinsertOverflows (it
    // sorts the list, so the kernel's arbitrary append order does not matter), send it
    // back. A full round trip, but only on sweeps where something overflowed.
    void reinsertOnHost(std::uint32_t n, bool tracking) {
        if (n > overflows_.size())
            throw SimulationError("lattice: " + std::to_string(n) +
                                  " overflows in one sweep exceed the particle count " +
                                  std::to_string(overflows_.size()) + " (internal error)");
        std::vector<cuda::OverflowRecord> records(n);
        CF_CUDA_CHECK(cudaMemcpyAsync(records.data(), overflows_.data(),
                                      n * sizeof(cuda::OverflowRecord), cudaMemcpyDeviceToHost,
                                      stream_));
        CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
        overflowList_.clear();
        for (const cuda::OverflowRecord& r : records)
            overflowList_.push_back({r.site, r.species, r.order, r.id});
        nextWords_.copyToHost(h_.words, stream_);
        if (tracking) nextIds_.copyToHost(h_.ids, stream_);
        disp_.copyToHost(h_.displacement, stream_);
        reinsertOverflows(g_, overflowList_, h_.words.data(), h_.types.data(),
                          tracking ? h_.ids.data() : nullptr, h_.displacement.data());
        nextWords_.copyFromHost(h_.words, stream_);
        if (tracking) nextIds_.copyFromHost(h_.ids, stream_);
        disp_.copyFromHost(h_.displacement, stream_);
    }

    void checkCounts() {
        const std::vector<std::int64_t> now = deviceCounts();
        for (std::size_t sp = 0; sp < now.size(); ++sp)
            if (now[sp] != expected_[sp])
                throw SimulationError("lattice: step " + std::to_string(h_.step) + ": species " +
                                      std::to_string(sp) + " has " + std::to_string(now[sp]) +
                                      " particles, expected " + std::to_string(expected_[sp]) +
                                      " (conservation check)");
    }

    cudaStream_t stream_ = nullptr;
    LatticeParams p_{};
    Geometry g_{};
    HostState h_;  // counters always current; words/ids/displacement only after download
    std::size_t freeSites_ = 0;
    std::vector<std::int64_t> expected_;
    std::vector<Overflow> overflowList_;
    DeviceBuffer<std::uint32_t> words_, nextWords_, ids_, nextIds_;
    DeviceBuffer<std::uint8_t> types_;
    DeviceBuffer<std::int32_t> disp_;
    DeviceBuffer<cuda::OverflowRecord> overflows_;
    DeviceBuffer<std::uint32_t> overflowCount_;
    DeviceBuffer<unsigned long long> counts_;
    DeviceBuffer<std::uint32_t> viewOccupancy_, viewOffsets_;
    DeviceBuffer<float> viewXyzr_;
    DeviceBuffer<std::uint8_t> viewSpecies_;
    DeviceBuffer<unsigned char> scratch_;  // CUB temporary storage
    ViewBuffers viewLayoutBuffers_;
};

}  // namespace

std::unique_ptr<Model> makeCudaModel() {
    return std::make_unique<CudaLattice>();
}

}  // namespace cf::lattice
