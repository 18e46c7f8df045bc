// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What `spheres` draws (layout shared by both backends).
#include <cstdint>
#include <vector>

#include "sim/core/views.hpp"
#include "sim/models/spheres/spheres_model.hpp"

namespace cf::spheres {

// Clone colours repeat every kCloneColorCount first ancestors: the category "clone" is
// root % kCloneColorCount (cuda/substance_kernels.cu packs the same, root % 12u).
inline constexpr std::uint32_t kCloneColorCount = 12;

// Cloud "cells" (x, y, z, radius = D/2) with scalars diameter [um], age [h], force [1],
// lineage (root id), and with the substance sensed [1/um^3]; category clone (root mod 12,
// labelled with the clones that share each colour).
// With the substance, volume "substance" with channel concentration [1/um^3].
struct ViewBuffers {
    std::vector<float> xyzr, diameter, age, force, lineage, sensed, field;
    std::vector<std::uint8_t> clone;
};
ModelViews hostViews(const SpheresParams& p, const HostState& s, ViewBuffers& buffers);

// The arrays of those views, in one memory space (sensed and field null without the
// substance), and the layout both backends share.
struct ViewArrays {
    const float* xyzr;
    const float* diameter;
    const float* age;
    const float* force;
    const float* lineage;
    const float* sensed;
    const std::uint8_t* clone;
    std::size_t count;
    const float* field;
    FieldGrid fieldGrid;
};
ModelViews assembleViews(MemorySpace space, const ViewArrays& arrays, const double boxLo[3],
                         const double boxHi[3], const double focusLo[3], const double focusHi[3]);
// What the camera frames first: the cells' bounding box grown by the largest diameter
// (within the domain); the domain when there are no cells.
void cellFocus(const HostState& s, double lo[3], double hi[3]);

}  // namespace cf::spheres
