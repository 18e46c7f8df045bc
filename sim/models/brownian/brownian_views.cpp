// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/brownian/brownian_views.hpp"

#include <cmath>

namespace cf::brownian {

ModelViews hostViews(const BrownianParams& p, const Snapshot& s, ViewBuffers& b) {
    const std::vector<float> pos = s.at("position").as<float>();
    const std::vector<float> disp = s.at("displacement").as<float>();
    const std::size_t n = pos.size() / 3;
    b.xyzr.resize(4 * n);
    b.displacement.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        for (int a = 0; a < 3; ++a)
            b.xyzr[4 * i + a] = pos[3 * i + a];
        b.xyzr[4 * i + 3] = p.radius;
        b.displacement[i] =
            std::sqrt(disp[3 * i] * disp[3 * i] + disp[3 * i + 1] * disp[3 * i + 1] +
                      disp[3 * i + 2] * disp[3 * i + 2]);
    }
    ModelViews v = viewLayout(p);
    PointCloudView& cloud = v.clouds.front();
    cloud.space = MemorySpace::Host;
    cloud.positions = b.xyzr.data();
    cloud.count = n;
    cloud.scalars.front().data = b.displacement.data();
    return v;
}

ModelViews viewLayout(const BrownianParams& p) {
    ModelViews v;
    for (int a = 0; a < 3; ++a) {
        v.boxLo[a] = 0.0;
        v.boxHi[a] = p.box;
        v.focusLo[a] = 0.0;
        v.focusHi[a] = p.box;
    }
    PointCloudView cloud;
    cloud.name = "particles";
    cloud.scalars.push_back({"displacement", "um", nullptr});
    v.clouds.push_back(std::move(cloud));
    return v;
}

}  // namespace cf::brownian
