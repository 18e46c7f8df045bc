// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A test double offering vector-field views and nothing else (no built-in model has one
// yet), with values known in closed form; shared by the vector view and window tests.
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/core/model.hpp"

#if CELLFORGE_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace cf::test {

// The test model: three vector views with values known in closed form over the box
// [-8, 8] x [-6, 6] x [-0.5, 0.5] cut into 1 x 1 x 1 cells (host memory):
//   "flow"     16 x 12 x 1, v(i, j) = (0.5 + i / 15, 0, 0): along x, |v| from 0.5 to 1.5
//   "director" 16 x 12 x 1, (0, 1, 0) everywhere, directional = false
//   "column"    4 x 3 x 2 over [-2, 2] x [-1.5, 1.5] x [-1, 1], v = (i, j, k) + 1 (3-D)
constexpr int kNx = 16, kNy = 12;

struct VectorParams {
    std::int32_t nx = 0;
};

inline const ParamTable& vectorTable() {
    static const ParamTable t = [] {
        ParamTableBuilder<VectorParams> b;
        b.integer("grid", "nx", &VectorParams::nx, kNx, 2, 64, "1", "Unused (the grid is fixed)",
                  Mutability::Structural);
        return b.build();
    }();
    return t;
}

inline float flowX(int i) {
    return 0.5f + static_cast<float>(i) / static_cast<float>(kNx - 1);
}

// On CUDA (CUDA builds) the same values live in device memory, as a CUDA model's would.
class VectorModel final : public Model {
public:
    explicit VectorModel(Backend backend = Backend::Cpu) : backend_(backend) {}
    ~VectorModel() override { freeDevice(); }
    Backend backend() const override { return backend_; }
    void reset(const ParamSet&, std::uint32_t) override {
        flow_.assign(3 * kNx * kNy, 0.0f);
        director_.assign(3 * kNx * kNy, 0.0f);
        for (int j = 0; j < kNy; ++j)
            for (int i = 0; i < kNx; ++i) {
                flow_[3 * (i + kNx * j)] = flowX(i);
                director_[3 * (i + kNx * j) + 1] = 1.0f;
            }
        column_.clear();
        for (int k = 0; k < 2; ++k)
            for (int j = 0; j < 3; ++j)
                for (int i = 0; i < 4; ++i)
                    for (const int c : {i, j, k})
                        column_.push_back(static_cast<float>(c + 1));
#if CELLFORGE_HAVE_CUDA
        if (backend_ != Backend::Cuda) return;
        freeDevice();
        for (int a = 0; a < 3; ++a) {
            const std::vector<float>& host = a == 0 ? flow_ : (a == 1 ? director_ : column_);
            if (cudaMalloc(&device_[a], host.size() * sizeof(float)) != cudaSuccess ||
                cudaMemcpy(device_[a], host.data(), host.size() * sizeof(float),
                           cudaMemcpyHostToDevice) != cudaSuccess)
                throw Error("vector test model: device copy failed");
        }
#endif
    }
    void setLiveParameters(const ParamSet&) override {}
    void advance(std::uint64_t steps) override {
        step_ += steps;
    }
    std::uint64_t step() const override {
        return step_;
    }
    double time() const override {
        return static_cast<double>(step_);
    }
    std::vector<Metric> metrics() override {
        return {};
    }
    Snapshot snapshot() override {
        return Snapshot{};
    }
    void restore(const Snapshot&) override {}
    void checkFinite() override {}

    ModelViews views() override {
        ModelViews v;
        const double lo[3] = {-8, -6, -0.5}, hi[3] = {8, 6, 0.5};
        for (int a = 0; a < 3; ++a) {
            v.boxLo[a] = v.focusLo[a] = lo[a];
            v.boxHi[a] = v.focusHi[a] = hi[a];
        }
        const bool device = backend_ == Backend::Cuda;
        auto data = [&](int a, const std::vector<float>& host) {
            return device ? static_cast<const float*>(device_[a]) : host.data();
        };
        auto plane = [&](const char* name, const float* xyz, bool directional) {
            VectorFieldView f;
            f.name = name;
            f.space = device ? MemorySpace::Device : MemorySpace::Host;
            f.unit = "um/s";
            f.dims[0] = kNx;
            f.dims[1] = kNy;
            f.dims[2] = 1;
            for (int a = 0; a < 3; ++a) {
                f.lo[a] = lo[a];
                f.hi[a] = hi[a];
            }
            f.xyz = xyz;
            f.directional = directional;
            return f;
        };
        v.vectors.push_back(plane("flow", data(0, flow_), true));
        v.vectors.push_back(plane("director", data(1, director_), false));
        VectorFieldView c;
        c.name = "column";
        c.space = device ? MemorySpace::Device : MemorySpace::Host;
        c.dims[0] = 4;
        c.dims[1] = 3;
        c.dims[2] = 2;
        const double clo[3] = {-2, -1.5, -1}, chi[3] = {2, 1.5, 1};
        for (int a = 0; a < 3; ++a) {
            c.lo[a] = clo[a];
            c.hi[a] = chi[a];
        }
        c.xyz = data(2, column_);
        v.vectors.push_back(c);
        return v;
    }
    const float* flowData() const {
        return flow_.data();
    }

private:
    void freeDevice() {
#if CELLFORGE_HAVE_CUDA
        for (void*& d : device_) {
            cudaFree(d);
            d = nullptr;
        }
#endif
    }
    Backend backend_;
    std::uint64_t step_ = 0;
    std::vector<float> flow_, director_, column_;
    void* device_[3] = {nullptr, nullptr, nullptr};
};

inline ModelDescriptor vectorDescriptor() {
    ModelDescriptor d;
    d.name = "vectors";
    d.description = "test double: vector views with known values";
    d.timeUnit = "step";
    d.parameters = &vectorTable;
    d.validate = [](const ParamSet&) {};  // no constraints across its parameters
    d.create = [](Backend b) -> std::unique_ptr<Model> {
#if !CELLFORGE_HAVE_CUDA
        if (b == Backend::Cuda) throw Error("vector test model: this build has no CUDA");
#endif
        return std::make_unique<VectorModel>(b);
    };
    return d;
}

}  // namespace cf::test
