// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The CUDA backend of `spheres` keeps one set of per-cell arrays per quantity on the device
// (two sets: A and B, swapped by the Morton reorder; spheres_cuda_model.hpp), positions and
// diameters in Real (mechanics.precision), and these copies between host and device.
// Host-compiled; included by spheres_cuda_model.hpp only.
#include <cstddef>
#include <cstdint>
#include <cuda_runtime_api.h>
#include <vector>

#include "sim/cuda/cuda_check.hpp"
#include "sim/cuda/device_buffer.hpp"
#include "sim/models/spheres/cuda/spheres_kernels.cuh"

namespace cf::spheres::cudamodel {

using cf::cuda::DeviceBuffer;

template <typename T>
inline void copyDevice(T* dst, const T* src, std::size_t n, cudaStream_t stream) {
    if (n > 0)
        CF_CUDA_CHECK(cudaMemcpyAsync(dst, src, n * sizeof(T), cudaMemcpyDeviceToDevice, stream));
}

template <typename Real>
struct CellBuffers {
    DeviceBuffer<Real> x, y, z, diameter;
    DeviceBuffer<float> force;
    DeviceBuffer<double> volume;
    DeviceBuffer<std::uint32_t> id, root;
    DeviceBuffer<std::uint8_t> generation;
    DeviceBuffer<std::uint64_t> birthStep;

    void allocate(std::size_t capacity) {
        x.resize(capacity);
        y.resize(capacity);
        z.resize(capacity);
        diameter.resize(capacity);
        force.resize(capacity);
        volume.resize(capacity);
        id.resize(capacity);
        root.resize(capacity);
        generation.resize(capacity);
        birthStep.resize(capacity);
    }
    // The first n cells of `other`.
    void copyFrom(const CellBuffers& o, std::size_t n, cudaStream_t stream) {
        copyDevice(x.data(), o.x.data(), n, stream);
        copyDevice(y.data(), o.y.data(), n, stream);
        copyDevice(z.data(), o.z.data(), n, stream);
        copyDevice(diameter.data(), o.diameter.data(), n, stream);
        copyDevice(force.data(), o.force.data(), n, stream);
        copyDevice(volume.data(), o.volume.data(), n, stream);
        copyDevice(id.data(), o.id.data(), n, stream);
        copyDevice(root.data(), o.root.data(), n, stream);
        copyDevice(generation.data(), o.generation.data(), n, stream);
        copyDevice(birthStep.data(), o.birthStep.data(), n, stream);
    }
    spheres::cuda::CellArrays<Real> arrays() {
        return {x.data(),  y.data(),    z.data(),          diameter.data(),  volume.data(),
                id.data(), root.data(), generation.data(), birthStep.data(), force.data()};
    }
};

template <typename T>
inline void upload(T* dst, const std::vector<T>& src, cudaStream_t stream) {
    if (!src.empty())
        CF_CUDA_CHECK(cudaMemcpyAsync(dst, src.data(), src.size() * sizeof(T),
                                      cudaMemcpyHostToDevice, stream));
}
template <typename T>
inline void download(std::vector<T>& dst, const T* src, std::size_t n, cudaStream_t stream) {
    dst.resize(n);
    if (n > 0)
        CF_CUDA_CHECK(
            cudaMemcpyAsync(dst.data(), src, n * sizeof(T), cudaMemcpyDeviceToHost, stream));
}

template <typename Real>
inline std::vector<Real> toReal(const std::vector<double>& v) {
    return {v.begin(), v.end()};
}

}  // namespace cf::spheres::cudamodel
