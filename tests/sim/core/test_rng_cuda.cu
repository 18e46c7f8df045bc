// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/core/rng.hpp"
#include "sim/cuda/device_buffer.hpp"
#include "tests/sim/core/rng_test_cuda.hpp"

namespace cf::test {

namespace {

__global__ void fillDraws(std::uint32_t seed, std::uint32_t stream, std::uint32_t count,
                          std::uint32_t* words, double* normals) {
    const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    const RngCounter c = rngCounterFor(i);
    const rng::Word4 w = rng::Philox(seed, stream)(c.step, c.entity, c.draw);
    words[4 * i + 0] = w.x;
    words[4 * i + 1] = w.y;
    words[4 * i + 2] = w.z;
    words[4 * i + 3] = w.w;
    const rng::Normal2 n = rng::normalPair(w);
    normals[2 * i + 0] = n.a;
    normals[2 * i + 1] = n.b;
}

}  // namespace

void philoxDrawsCuda(std::uint32_t seed, std::uint32_t stream, std::uint32_t count,
                     std::vector<std::uint32_t>& words, std::vector<double>& normals) {
    cuda::DeviceBuffer<std::uint32_t> w(4 * static_cast<std::size_t>(count));
    cuda::DeviceBuffer<double> n(2 * static_cast<std::size_t>(count));
    constexpr std::uint32_t kBlock = 256;
    fillDraws<<<(count + kBlock - 1) / kBlock, kBlock>>>(seed, stream, count, w.data(), n.data());
    CF_CUDA_CHECK_LAUNCH("fillDraws", nullptr);
    words = w.toHost();
    normals = n.toHost();
}

}  // namespace cf::test
