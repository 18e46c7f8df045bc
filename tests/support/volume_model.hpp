// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A test double offering volume views and nothing else, with values known in closed form.
// Volume "lattice": voxel (i, j, k) of an nx x ny x nz grid over the box
// [-nx, nx] x [-ny, ny] x [-nz/2, nz/2] (voxels 2 x 2 x 1 model units, centred on 0):
//   "phase"    category 1 + (i + j + k) % 2: a checkerboard, labels {empty, even, odd}
//   "gradient" scalar i along x, unit "um", colour range hint [0, nx - 1]
//   "height"   scalar k + step (no hint: the colours span the data's own range)
// With grid.volumes = 2 (default 1) a second volume "plate" follows it: one layer of
// nx x ny voxels over [-nx, nx] x [-ny, ny] x [-1/2, 1/2] (the lattice's footprint, centred
// on z = 0), so that a test can tell which of the two is drawn:
//   "band"     category 1 + j % 3 (stripes along x), labels {empty, low, mid, high}
//   "ramp"     scalar j along y, unit "um", colour range hint [0, ny - 1]
// On the CPU backend the arrays are host memory; on CUDA (CUDA builds) the same values
// live in device memory, as a CUDA model's would.
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/core/model.hpp"

#if CELLFORGE_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace cf::test {

struct VolumeParams {
    std::int32_t nx = 0, ny = 0, nz = 0;
    std::int32_t volumes = 1;
};

inline const ParamTable& volumeTable() {
    static const ParamTable t = [] {
        using P = VolumeParams;
        ParamTableBuilder<P> b;
        b.integer("grid", "nx", &P::nx, 8, 1, 256, "1", "Voxels along x", Mutability::Structural);
        b.integer("grid", "ny", &P::ny, 6, 1, 256, "1", "Voxels along y", Mutability::Structural);
        b.integer("grid", "nz", &P::nz, 4, 1, 256, "1", "Voxels along z", Mutability::Structural);
        b.integer("grid", "volumes", &P::volumes, 1, 1, 2, "1",
                  "Volume views offered (2: the plate after the lattice)", Mutability::Structural);
        return b.build();
    }();
    return t;
}

inline std::uint8_t checkerPhase(int i, int j, int k) {
    return static_cast<std::uint8_t>(1 + (i + j + k) % 2);
}

inline std::uint8_t plateBand(int j) {
    return static_cast<std::uint8_t>(1 + j % 3);
}

class VolumeModel final : public Model {
public:
    explicit VolumeModel(Backend backend) : backend_(backend) {}
    ~VolumeModel() override { freeDevice(); }

    Backend backend() const override { return backend_; }
    void reset(const ParamSet& params, std::uint32_t) override {
        p_ = params.toStruct<VolumeParams>();
        step_ = 0;
        fill();
    }
    void setLiveParameters(const ParamSet&) override {}
    void advance(std::uint64_t steps) override {
        step_ += steps;
        fill();
    }
    std::uint64_t step() const override { return step_; }
    double time() const override { return static_cast<double>(step_); }
    std::vector<Metric> metrics() override { return {}; }
    Snapshot snapshot() override {
        Snapshot s;
        s.step = step_;
        return s;
    }
    void restore(const Snapshot& s) override {
        step_ = s.step;
        fill();
    }
    void checkFinite() override {}

    ModelViews views() override {
        ModelViews v;
        VolumeView vol;
        vol.name = "lattice";
        vol.space = backend_ == Backend::Cuda ? MemorySpace::Device : MemorySpace::Host;
        vol.dims[0] = p_.nx;
        vol.dims[1] = p_.ny;
        vol.dims[2] = p_.nz;
        const double half[3] = {1.0 * p_.nx, 1.0 * p_.ny, 0.5 * p_.nz};
        for (int a = 0; a < 3; ++a) {
            vol.lo[a] = v.boxLo[a] = v.focusLo[a] = -half[a];
            vol.hi[a] = v.boxHi[a] = v.focusHi[a] = half[a];
        }
        const bool device = vol.space == MemorySpace::Device;
        VolumeCategoryChannel phase;
        phase.name = "phase";
        phase.data = device ? devicePhase_ : phase_.data();
        phase.labels = {"empty", "even", "odd"};
        vol.categories.push_back(phase);
        VolumeScalarChannel gradient;
        gradient.name = "gradient";
        gradient.unit = "um";
        gradient.data = device ? deviceGradient_ : gradient_.data();
        gradient.rangeLo = 0.0;
        gradient.rangeHi = p_.nx - 1.0;
        vol.scalars.push_back(gradient);
        VolumeScalarChannel height;
        height.name = "height";
        height.unit = "1";
        height.data = device ? deviceHeight_ : height_.data();
        vol.scalars.push_back(height);
        v.volumes.push_back(std::move(vol));
        if (p_.volumes >= 2) v.volumes.push_back(plate(device));
        return v;
    }

private:
    VolumeView plate(bool device) const {
        VolumeView vol;
        vol.name = "plate";
        vol.space = device ? MemorySpace::Device : MemorySpace::Host;
        vol.dims[0] = p_.nx;
        vol.dims[1] = p_.ny;
        vol.dims[2] = 1;
        const double half[3] = {1.0 * p_.nx, 1.0 * p_.ny, 0.5};
        for (int a = 0; a < 3; ++a) {
            vol.lo[a] = -half[a];
            vol.hi[a] = half[a];
        }
        VolumeCategoryChannel band;
        band.name = "band";
        band.data = device ? deviceBand_ : band_.data();
        band.labels = {"empty", "low", "mid", "high"};
        vol.categories.push_back(band);
        VolumeScalarChannel ramp;
        ramp.name = "ramp";
        ramp.unit = "um";
        ramp.data = device ? deviceRamp_ : ramp_.data();
        ramp.rangeLo = 0.0;
        ramp.rangeHi = p_.ny - 1.0;
        vol.scalars.push_back(ramp);
        return vol;
    }

    void fill() {
        const std::size_t n = static_cast<std::size_t>(p_.nx) * p_.ny * p_.nz;
        phase_.resize(n);
        gradient_.resize(n);
        height_.resize(n);
        band_.resize(static_cast<std::size_t>(p_.nx) * p_.ny);
        ramp_.resize(band_.size());
        for (int j = 0, c = 0; j < p_.ny; ++j)
            for (int i = 0; i < p_.nx; ++i, ++c) {
                band_[static_cast<std::size_t>(c)] = plateBand(j);
                ramp_[static_cast<std::size_t>(c)] = static_cast<float>(j);
            }
        std::size_t c = 0;
        for (int k = 0; k < p_.nz; ++k)
            for (int j = 0; j < p_.ny; ++j)
                for (int i = 0; i < p_.nx; ++i, ++c) {
                    phase_[c] = checkerPhase(i, j, k);
                    gradient_[c] = static_cast<float>(i);
                    height_[c] = static_cast<float>(k + step_);
                }
#if CELLFORGE_HAVE_CUDA
        if (backend_ != Backend::Cuda) return;
        freeDevice();
        upload(phase_, devicePhase_);
        upload(gradient_, deviceGradient_);
        upload(height_, deviceHeight_);
        upload(band_, deviceBand_);
        upload(ramp_, deviceRamp_);
#endif
    }
#if CELLFORGE_HAVE_CUDA
    template <typename T>
    static void upload(const std::vector<T>& host, T*& device) {
        void* raw = nullptr;
        if (cudaMalloc(&raw, host.size() * sizeof(T)) != cudaSuccess)
            throw Error("volume test model: no device memory");
        device = static_cast<T*>(raw);
        if (cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice) !=
            cudaSuccess)
            throw Error("volume test model: copy to the device failed");
    }
#endif
    void freeDevice() {
#if CELLFORGE_HAVE_CUDA
        cudaFree(devicePhase_);
        cudaFree(deviceGradient_);
        cudaFree(deviceHeight_);
        cudaFree(deviceBand_);
        cudaFree(deviceRamp_);
#endif
        devicePhase_ = nullptr;
        deviceGradient_ = nullptr;
        deviceHeight_ = nullptr;
        deviceBand_ = nullptr;
        deviceRamp_ = nullptr;
    }

    Backend backend_;
    VolumeParams p_;
    std::uint64_t step_ = 0;
    std::vector<std::uint8_t> phase_;
    std::vector<float> gradient_, height_;
    std::vector<std::uint8_t> band_;  // the plate's (grid.volumes = 2)
    std::vector<float> ramp_;
    std::uint8_t* devicePhase_ = nullptr;
    float* deviceGradient_ = nullptr;
    float* deviceHeight_ = nullptr;
    std::uint8_t* deviceBand_ = nullptr;
    float* deviceRamp_ = nullptr;
};

inline ModelDescriptor volumeDescriptor() {
    ModelDescriptor d;
    d.name = "volume";
    d.description = "test double: one or two volumes with known voxels";
    d.timeUnit = "step";
    d.parameters = &volumeTable;
    d.validate = [](const ParamSet&) {};  // no constraints across its parameters
    d.create = [](Backend b) -> std::unique_ptr<Model> {
#if !CELLFORGE_HAVE_CUDA
        if (b == Backend::Cuda) throw Error("volume test model: this build has no CUDA");
#endif
        return std::make_unique<VolumeModel>(b);
    };
    return d;
}

}  // namespace cf::test
