// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/gliding/cuda/gliding_views_cuda.hpp"

#include <span>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/models/gliding/gliding_views.hpp"

namespace cf::gliding::cuda {

namespace {

constexpr std::size_t kScalars = 9, kVectors = 3;

}  // namespace

void DeviceViewBuffers::prepare(const GlidingTables& t, cudaStream_t stream) {
    const std::size_t cells = static_cast<std::size_t>(t.n) * static_cast<std::size_t>(t.n);
    if (t.n != n_ || data_.empty()) {
        data_.resize(cells * (kScalars + 3 * kVectors));
        scratch_.resize(static_cast<std::size_t>(packViewsScratch(t.n)));
        n_ = t.n;
    }
    // cos/sin depend on Ntheta only; compared by value so that a new run of the same grid
    // copies nothing.
    if (t.cosT != cosHost_ || t.sinT != sinHost_) {
        cosT_.resize(t.cosT.size());
        sinT_.resize(t.sinT.size());
        cosT_.copyFromHost(std::span<const double>(t.cosT), stream);
        sinT_.copyFromHost(std::span<const double>(t.sinT), stream);
        cosHost_ = t.cosT;
        sinHost_ = t.sinT;
    }
}

DeviceViewArrays DeviceViewBuffers::arrays() {
    const std::size_t cells = static_cast<std::size_t>(n_) * static_cast<std::size_t>(n_);
    float* base = data_.data();
    const auto scalar = [&](std::size_t k) { return base + k * cells; };
    const auto vector = [&](std::size_t k) { return base + (kScalars + 3 * k) * cells; };
    return {scalar(0), scalar(1), scalar(2), scalar(3), scalar(4), scalar(5),
            scalar(6), scalar(7), scalar(8), vector(0), vector(1), vector(2)};
}

ModelViews deviceViews(const GlidingParams& p, const GlidingTables& t, const DeviceViewInputs& in,
                       DeviceViewBuffers& b, cudaStream_t stream) {
    if (in.psi == nullptr || in.boundCoarse == nullptr || in.free == nullptr || in.u == nullptr ||
        in.v == nullptr)
        throw SimulationError("gliding: device views need Psi, the motor sums and the flow");
    if (t.n != p.n)
        throw SimulationError("gliding: device views: the tables are not of grid.n = " +
                              std::to_string(p.n));
    b.prepare(t, stream);
    const DeviceViewArrays out = b.arrays();
    PackViewsArgs args{};
    args.psi = in.psi;
    args.cosT = b.cosT();
    args.sinT = b.sinT();
    args.bound = in.boundCoarse;
    args.free = in.free;
    args.motorsDouble = in.motorsDouble;
    args.u = in.u;
    args.v = in.v;
    args.out = out;
    args.blockMax = b.scratch();
    args.n = t.n;
    args.ntheta = t.ntheta;
    args.dtheta = t.dtheta;
    launchPackViews(args, stream);

    return viewsOf(p,
                   {out.density, out.polar, out.nematic, out.orientation, out.bound, out.free,
                    out.speed, out.u, out.v, out.orientationXyz, out.directorXyz, out.flowXyz},
                   MemorySpace::Device);
}

}  // namespace cf::gliding::cuda
