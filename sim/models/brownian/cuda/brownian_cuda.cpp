// SPDX-License-Identifier: GPL-3.0-or-later
// CUDA backend of `brownian` (host side): owns device buffers, the grid and the stream;
// kernels live in brownian_kernels.cu.
#include <climits>
#include <cstring>
#include <optional>

#include "sim/cuda/device_buffer.hpp"
#include "sim/grid/cuda/uniform_grid_cuda.cuh"
#include "sim/models/brownian/brownian_model.hpp"
#include "sim/models/brownian/brownian_views.hpp"
#include "sim/models/brownian/cuda/brownian_kernels.cuh"

namespace cf::brownian {

namespace {

using cf::cuda::DeviceBuffer;

class CudaBrownian final : public Model, public StateArrayProvider {
public:
    CudaBrownian() { CF_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
    ~CudaBrownian() override {
        cuda::releaseParams(this);
        cudaStreamDestroy(stream_);
    }
    CudaBrownian(const CudaBrownian&) = delete;
    CudaBrownian& operator=(const CudaBrownian&) = delete;

    Backend backend() const override { return Backend::Cuda; }

    void reset(const ParamSet& params, std::uint32_t seed) override {
        p_ = checkedParams(params);
        inEffect_.emplace(params);
        dt_ = params.real("dynamics.dt");
        seed_ = seed;
        std::vector<float> x, y, z;
        initialPositions(p_, seed, x, y, z);
        const std::vector<float> zeros(x.size(), 0.0f);
        upload(x, y, z, zeros, zeros, zeros);
        const float lo[3] = {0, 0, 0};
        const float hi[3] = {p_.box, p_.box, p_.box};
        const bool periodic[3] = {true, true, true};
        geometry_ = grid::makeGridGeometry(lo, hi, 2.0f * p_.radius, periodic);
        cuda::uploadParams(p_, this, stream_);
        step_ = 0;
        time_ = 0.0;
    }

    void setLiveParameters(const ParamSet& params) override {
        ParamSet merged = withLiveValues(*inEffect_, params);
        const BrownianParams next = checkedParams(merged);  // a refusal changes nothing
        // Ordered on the simulation stream: kernels already queued keep the old values.
        cuda::uploadParams(next, this, stream_);
        p_ = next;
        dt_ = merged.real("dynamics.dt");
        inEffect_ = std::move(merged);
    }

    void advance(std::uint64_t steps) override {
        cuda::bindParams(p_, this, stream_);  // another instance may have run since
        for (std::uint64_t s = 0; s < steps; ++s)
            stepOnce();
    }

    std::uint64_t step() const override { return step_; }
    double time() const override { return time_; }

    std::vector<Metric> metrics() override {
        cuda::bindParams(p_, this, stream_);  // another instance may have run since
        const int n = count();
        terms_.resize(2 * static_cast<std::size_t>(n));
        sums_.resize(2);
        cuda::launchMetricTerms(dx_.data(), dy_.data(), dz_.data(), overlaps_.data(), n,
                                terms_.data(), stream_);
        cuda::sumDoubles(terms_.data(), n, sums_.data(), scratch_, stream_);
        cuda::sumDoubles(terms_.data() + n, n, sums_.data() + 1, scratch_, stream_);
        const std::vector<double> s = sums_.toHost(stream_);
        return {{"msd", "um^2", s[0] / n, kMsdDescription},
                {"overlapping_pairs", "1", s[1] / 2.0, kOverlapsDescription}};
    }

    std::vector<StateArray> stateArrays() override {
        const float* xyz[3] = {x_.data(), y_.data(), z_.data()};
        const float* dxyz[3] = {dx_.data(), dy_.data(), dz_.data()};
        return stateArraysOf(x_.size(), xyz, dxyz, overlaps_.data(), MemorySpace::Device);
    }

    Snapshot snapshot() override {
        return makeSnapshot(p_, step_, time_, x_.toHost(stream_), y_.toHost(stream_),
                            z_.toHost(stream_), dx_.toHost(stream_), dy_.toHost(stream_),
                            dz_.toHost(stream_), overlaps_.toHost(stream_));
    }

    void restore(const Snapshot& s) override {
        const HostState h = readSnapshot(p_, s);
        upload(h.x, h.y, h.z, h.dx, h.dy, h.dz);
        step_ = h.step;
        time_ = h.time;
    }

    // Packed on the device, so the window copies them into GL buffers device to device.
    ModelViews views() override {
        cuda::bindParams(p_, this, stream_);  // another instance may have run since
        const int n = count();
        viewXyzr_.resize(4 * static_cast<std::size_t>(n));
        viewDisplacement_.resize(static_cast<std::size_t>(n));
        cuda::launchPackViews(x_.data(), y_.data(), z_.data(), dx_.data(), dy_.data(), dz_.data(),
                              p_.radius, n, viewXyzr_.data(), viewDisplacement_.data(), stream_);
        ModelViews v = viewLayout(p_);
        PointCloudView& cloud = v.clouds.front();
        cloud.space = MemorySpace::Device;
        cloud.positions = viewXyzr_.data();
        cloud.count = static_cast<std::size_t>(n);
        cloud.scalars.front().data = viewDisplacement_.data();
        return v;
    }

    void checkFinite() override {
        cuda::bindParams(p_, this, stream_);  // another instance may have run since
        firstBad_.resize(1);
        const int none = INT_MAX;
        firstBad_.copyFromHost(std::span<const int>(&none, 1), stream_);
        const float* arrays[] = {x_.data(),  y_.data(),  z_.data(),
                                 dx_.data(), dy_.data(), dz_.data()};
        cuda::launchFindNonFinite(arrays, 6, count(), firstBad_.data(), stream_);
        const int bad = firstBad_.toHost(stream_)[0];
        if (bad == INT_MAX) return;
        static const char* names[] = {"position.x",     "position.y",     "position.z",
                                      "displacement.x", "displacement.y", "displacement.z"};
        throw SimulationError("brownian: non-finite value in '" + std::string(names[bad % 8]) +
                              "' of particle " + std::to_string(bad / 8) + " at step " +
                              std::to_string(step_) +
                              " (try a smaller dynamics.dt or interaction.stiffness)");
    }

    void synchronize() override { CF_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

    std::vector<std::uint8_t> deviceParameterBlock() override {
        BrownianParams onDevice{};
        cuda::bindParams(p_, this, stream_);
        cuda::downloadParams(onDevice, stream_);
        return bytesOf(onDevice);
    }

private:
    int count() const { return static_cast<int>(x_.size()); }

    void upload(const std::vector<float>& x, const std::vector<float>& y,
                const std::vector<float>& z, const std::vector<float>& dx,
                const std::vector<float>& dy, const std::vector<float>& dz) {
        for (auto* b : {&x_, &y_, &z_, &nx_, &ny_, &nz_, &dx_, &dy_, &dz_})
            b->resize(x.size());
        overlaps_.resize(x.size());
        overlaps_.fillZero(stream_);
        x_.copyFromHost(x, stream_);
        y_.copyFromHost(y, stream_);
        z_.copyFromHost(z, stream_);
        dx_.copyFromHost(dx, stream_);
        dy_.copyFromHost(dy, stream_);
        dz_.copyFromHost(dz, stream_);
    }

    void stepOnce() {
        const grid::PointsView points{x_.data(), y_.data(), z_.data(), count()};
        grid_.build(geometry_, points, stream_);
        cuda::StepArgs a{};
        a.grid = grid_.view();
        a.x = x_.data();
        a.y = y_.data();
        a.z = z_.data();
        a.nextX = nx_.data();
        a.nextY = ny_.data();
        a.nextZ = nz_.data();
        a.dispX = dx_.data();
        a.dispY = dy_.data();
        a.dispZ = dz_.data();
        a.overlaps = overlaps_.data();
        a.count = count();
        a.seed = seed_;
        a.step = step_;
        cuda::launchStep(a, stream_);
        std::swap(x_, nx_);
        std::swap(y_, ny_);
        std::swap(z_, nz_);
        ++step_;
        time_ += dt_;
    }

    cudaStream_t stream_ = nullptr;
    BrownianParams p_{};
    std::optional<ParamSet> inEffect_;  // the set p_ comes from
    std::uint32_t seed_ = 0;
    DeviceBuffer<float> x_, y_, z_, nx_, ny_, nz_, dx_, dy_, dz_;
    DeviceBuffer<std::int32_t> overlaps_;
    DeviceBuffer<double> terms_, sums_;
    DeviceBuffer<int> firstBad_;
    DeviceBuffer<float> viewXyzr_, viewDisplacement_;
    DeviceBuffer<unsigned char> scratch_;  // CUB temporary storage
    grid::GridGeometry geometry_{};
    grid::CudaUniformGrid grid_;
    std::uint64_t step_ = 0;
    double time_ = 0.0;
    double dt_ = 0.0;  // the parameter's double value: simulated time does not drift
};

}  // namespace

std::unique_ptr<Model> makeCudaModel() {
    return std::make_unique<CudaBrownian>();
}

}  // namespace cf::brownian
