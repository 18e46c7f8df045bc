// SPDX-License-Identifier: GPL-3.0-or-later
// What `spheres` offers for drawing: the same layout from host arrays (CPU backend) or
// device arrays (CUDA backend, packed by a kernel: no trip through host memory).
#include "sim/models/spheres/spheres_views.hpp"

#include <algorithm>
#include <string>

namespace cf::spheres {

void cellFocus(const HostState& s, double lo[3], double hi[3]) {
    for (int a = 0; a < 3; ++a) {
        lo[a] = s.boxLo[a];
        hi[a] = s.boxHi[a];
    }
    const std::size_t n = s.size();
    if (n == 0) return;
    double clo[3] = {s.x[0], s.y[0], s.z[0]}, chi[3] = {s.x[0], s.y[0], s.z[0]}, dmax = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const double at[3] = {s.x[i], s.y[i], s.z[i]};
        for (int a = 0; a < 3; ++a) {
            clo[a] = std::min(clo[a], at[a]);
            chi[a] = std::max(chi[a], at[a]);
        }
        dmax = std::max(dmax, s.diameter[i]);
    }
    for (int a = 0; a < 3; ++a) {
        lo[a] = std::max(s.boxLo[a], clo[a] - dmax);
        hi[a] = std::min(s.boxHi[a], chi[a] + dmax);
    }
}

ModelViews assembleViews(MemorySpace space, const ViewArrays& a, const double boxLo[3],
                         const double boxHi[3], const double focusLo[3], const double focusHi[3]) {
    ModelViews v;
    for (int k = 0; k < 3; ++k) {
        v.boxLo[k] = boxLo[k];
        v.boxHi[k] = boxHi[k];
        v.focusLo[k] = focusLo[k];
        v.focusHi[k] = focusHi[k];
    }
    PointCloudView cloud;
    cloud.name = "cells";
    cloud.space = space;
    cloud.positions = a.xyzr;
    cloud.count = a.count;
    cloud.scalars = {{"diameter", "um", a.diameter},
                     {"age", "h", a.age},
                     {"force", "1", a.force},
                     {"lineage", "1", a.lineage}};
    if (a.sensed != nullptr) cloud.scalars.push_back({"sensed", "1/um^3", a.sensed});
    CategoryChannel clone;
    clone.name = "clone";
    clone.data = a.clone;
    // Twelve colours, repeating: clone k holds the cells whose first ancestor's number is k
    // modulo 12 (the legend says which clones share a colour).
    static constexpr CategoryColor kCloneColors[kCloneColorCount] = {
        0xd62728, 0x1f77b4, 0xffbf00, 0x2ca02c, 0x9467bd, 0x8c564b,
        0xe377c2, 0x7f7f7f, 0x17becf, 0xbcbd22, 0xff7f0e, 0xaec7e8};
    for (std::uint32_t k = 0; k < kCloneColorCount; ++k) {
        clone.labels.push_back("clones " + std::to_string(k) + ", " +
                               std::to_string(k + kCloneColorCount) + ", " +
                               std::to_string(k + 2 * kCloneColorCount) + ", ...");
        clone.colors.push_back(kCloneColors[k]);
    }
    cloud.categories.push_back(std::move(clone));
    v.clouds.push_back(std::move(cloud));
    if (a.field != nullptr) {
        VolumeView vol;
        vol.name = "substance";
        vol.space = space;
        for (int k = 0; k < 3; ++k) {
            vol.dims[k] = a.fieldGrid.n[k];
            vol.lo[k] = boxLo[k];
            vol.hi[k] = boxHi[k];
        }
        vol.scalars.push_back({"concentration", "1/um^3", a.field, 0.0, 0.0});
        v.volumes.push_back(std::move(vol));
    }
    return v;
}

ModelViews hostViews(const SpheresParams& p, const HostState& s, ViewBuffers& b) {
    const std::size_t n = s.size();
    b.xyzr.resize(4 * n);
    b.diameter.resize(n);
    b.age.resize(n);
    b.force.resize(n);
    b.lineage.resize(n);
    b.clone.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        b.xyzr[4 * i] = static_cast<float>(s.x[i]);
        b.xyzr[4 * i + 1] = static_cast<float>(s.y[i]);
        b.xyzr[4 * i + 2] = static_cast<float>(s.z[i]);
        b.xyzr[4 * i + 3] = static_cast<float>(0.5 * s.diameter[i]);
        b.diameter[i] = static_cast<float>(s.diameter[i]);
        b.age[i] = static_cast<float>(static_cast<double>(s.step - s.birthStep[i]) * p.dt);
        b.force[i] = s.force[i];
        b.lineage[i] = static_cast<float>(s.root[i]);
        b.clone[i] = static_cast<std::uint8_t>(s.root[i] % kCloneColorCount);
    }
    ViewArrays a{b.xyzr.data(),    b.diameter.data(), b.age.data(),   b.force.data(),
                 b.lineage.data(), nullptr,           b.clone.data(), n,
                 nullptr,          substanceGrid(s)};
    if (!s.substance.empty()) {
        b.sensed.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            b.sensed[i] =
                static_cast<float>(s.substance[voxelOf(a.fieldGrid, s.x[i], s.y[i], s.z[i])]);
        b.field.assign(s.substance.begin(), s.substance.end());
        a.sensed = b.sensed.data();
        a.field = b.field.data();
    }
    double focusLo[3], focusHi[3];
    cellFocus(s, focusLo, focusHi);
    return assembleViews(MemorySpace::Host, a, s.boxLo, s.boxHi, focusLo, focusHi);
}

}  // namespace cf::spheres
