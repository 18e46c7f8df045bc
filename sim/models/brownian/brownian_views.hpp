// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What `brownian` draws (layout shared by both backends).
#include <vector>

#include "sim/core/views.hpp"
#include "sim/models/brownian/brownian_model.hpp"

namespace cf::brownian {

// Host-side views for drawing (both backends: this test model keeps it simple and copies
// its snapshot): cloud "particles" (radius = system.radius) with scalar "displacement".
struct ViewBuffers {
    std::vector<float> xyzr, displacement;
};
ModelViews hostViews(const BrownianParams& p, const Snapshot& s, ViewBuffers& buffers);
// The views' frame (box, cloud "particles" with scalar "displacement"), arrays unset: the
// CUDA backend fills them with device arrays it packs itself.
ModelViews viewLayout(const BrownianParams& p);

}  // namespace cf::brownian
