// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/gliding/cuda/params_block.hpp"

#include <cstring>
#include <type_traits>

#include "sim/core/cuda_check.hpp"

namespace cf::gliding::cuda {

static_assert(std::is_trivially_copyable_v<GlidingParams>);

void ParamsBlock::copy(const GlidingParams& p) {
    current_ = false;  // a failed copy leaves the symbol unknown: the next bind uploads
    CF_CUDA_CHECK(
        cudaMemcpyToSymbolAsync(symbol_.address, &p, sizeof p, 0, cudaMemcpyHostToDevice, stream_));
    // Byte copy: bind compares bytes, so a struct compares equal to its own copy.
    std::memcpy(&last_, &p, sizeof p);
    current_ = true;
}

void ParamsBlock::upload(const GlidingParams& p) {
    symbol_.owner.acquire(this, stream_);  // waits for the previous holder's kernels
    copy(p);
}

void ParamsBlock::bind(const GlidingParams& p) {
    const bool taken = symbol_.owner.acquire(this, stream_);
    if (taken || !current_ || std::memcmp(&last_, &p, sizeof p) != 0) copy(p);
}

GlidingParams ParamsBlock::download() const {
    GlidingParams p{};
    CF_CUDA_CHECK(cudaMemcpyFromSymbolAsync(&p, symbol_.address, sizeof p, 0,
                                            cudaMemcpyDeviceToHost, stream_));
    CF_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return p;
}

}  // namespace cf::gliding::cuda
