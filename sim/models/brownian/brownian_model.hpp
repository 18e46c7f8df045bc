// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include <memory>
#include <vector>

#include "sim/core/model.hpp"
#include "sim/models/brownian/brownian_params.hpp"

namespace cf::brownian {

ModelDescriptor descriptor();

// The metrics both backends report: msd [um^2] and overlapping_pairs [1].
inline constexpr const char* kMsdDescription =
    "Mean squared displacement of the particles since the start (6 D t when free)";
inline constexpr const char* kOverlapsDescription = "Pairs of particles closer than two radii now";

// Validates parameter combinations that single ranges cannot express; throws
// ParameterError naming the parameters.
BrownianParams checkedParams(const ParamSet& params);

// The initial positions (x, y, z arrays), identical for both backends.
void initialPositions(const BrownianParams& p, std::uint32_t seed, std::vector<float>& x,
                      std::vector<float>& y, std::vector<float>& z);

// Snapshot layout shared by both backends, so checkpoints move between them.
Snapshot makeSnapshot(const BrownianParams& p, std::uint64_t step, double time,
                      const std::vector<float>& x, const std::vector<float>& y,
                      const std::vector<float>& z, const std::vector<float>& dx,
                      const std::vector<float>& dy, const std::vector<float>& dz,
                      const std::vector<std::int32_t>& neighbors);
struct HostState {
    std::vector<float> x, y, z, dx, dy, dz;
    std::uint64_t step = 0;
    double time = 0.0;
};
HostState readSnapshot(const BrownianParams& p, const Snapshot& s);

// Host-side views for drawing (both backends: this test model keeps it simple and copies
// its snapshot): cloud "particles" (radius = system.radius) with scalar "displacement".
struct ViewBuffers {
    std::vector<float> xyzr, displacement;
};
ModelViews hostViews(const BrownianParams& p, const Snapshot& s, ViewBuffers& buffers);
// The views' frame (box, cloud "particles" with scalar "displacement"), arrays unset: the
// CUDA backend fills them with device arrays it packs itself.
ModelViews viewLayout(const BrownianParams& p);

std::unique_ptr<Model> makeCpuModel();
std::unique_ptr<Model> makeCudaModel();  // defined only in CUDA builds

}  // namespace cf::brownian
