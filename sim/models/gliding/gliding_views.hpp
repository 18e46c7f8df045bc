// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Views of `gliding` (docs/design/gliding.md 5): one flat volume "assay" (n x n x 1 over the
// unit square) with the density c, polar order |P|/c, nematic order, the dominant orientation
// argmax_theta Psi (design M16, degrees), bound (Mb,coarse) and free motors, and the flow at the
// filament plane z0 (speed, u, v). Vector fields on the same grid, drawn
// just above the slab: "orientation" (the dominant orientation argmax_theta Psi scaled by
// c / max c, Fig. 6's red arrows), "director" (the nematic director, headless segments scaled by
// the nematic order) and "flow" (u2 at z0, for arrows and the line-integral convolution).
#include <cstdint>
#include <vector>

#include "sim/core/views.hpp"
#include "sim/models/gliding/gliding_model.hpp"

namespace cf::gliding {

struct FlowSlice;

struct ViewBuffers {
    std::vector<float> density, polar, nematic, orientation, bound, free, u, v, speed;
    std::vector<float> orientationXyz, directorXyz, flowXyz;        // 3 floats per cell
    std::vector<float> profileU, profileV, profileW, profileSpeed;  // the vertical slice
};

// The views' frame and channels with null arrays.
ModelViews viewLayout(const GlidingParams& p);

// The float arrays of the views, per cell (vectors: 3 floats per cell), host or device.
struct ViewArrays {
    const float *density, *polar, *nematic, *orientation, *bound, *free, *speed, *u, *v;
    const float *orientationXyz, *directorXyz, *flowXyz;
};
// viewLayout(p) pointing at `a` in `space`.
ModelViews viewsOf(const GlidingParams& p, const ViewArrays& a, MemorySpace space);
// Fills `b` from `s` and points the layout's channels at it (valid until b changes).
ModelViews hostViews(const GlidingParams& p, const GlidingTables& t, const RunState& s,
                     ViewBuffers& b);

// With output.profiles: the volume "flow_profile", the vertical slice through the cell row of
// output.profile_y, n x 1 x nz voxels: one layer per z-grid node from the bottom plate (0) to the
// top (1), drawn at equal spacing (the z-grid is fine near the filament plane and coarse above,
// so the slice is in grid-index space in z, 0 .. 1/4 of the box). Channels u, v (V) and w
// (eps V) and the in-plane speed. Appends it to `views` with b's arrays.
void appendProfileView(const GlidingParams& p, const FlowSlice& slice, ViewBuffers& b,
                       ModelViews& views);
// The row of the slice for output.profile_y.
std::int32_t profileRow(const GlidingParams& p);

}  // namespace cf::gliding
