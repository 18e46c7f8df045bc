// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/epidermis/epidermis_views.hpp"

#include <algorithm>
#include <string>

namespace cf::epidermis {

ModelViews assembleViews(const EpidermisParams& p, MemorySpace space, const PackedViews& v) {
    ModelViews views;
    views.boxLo[0] = views.boxLo[1] = views.boxLo[2] = 0.0;
    views.boxHi[0] = p.sizeX;
    views.boxHi[1] = p.sizeY;
    views.boxHi[2] = p.height;
    // The tissue is a slab a few cell diameters thick on the membrane.
    for (int a = 0; a < 3; ++a)
        views.focusLo[a] = views.boxLo[a];
    views.focusHi[0] = views.boxHi[0];
    views.focusHi[1] = views.boxHi[1];
    views.focusHi[2] = std::min<double>(p.height, 0.25 * std::max(p.sizeX, p.sizeY));

    PointCloudView elements;
    elements.name = "elements";
    elements.space = space;
    elements.positions = v.elements;
    elements.count = v.elementCount;
    // The paper's figure colours (Christley et al. 2010, Fig. 3): red, blue, yellow.
    elements.categories.push_back(
        {"state", v.state, {"adhesive", "basal", "suprabasal"}, {0xd62728, 0x1f77b4, 0xffbf00}});
    PointCloudView cells;
    cells.name = "cells";
    cells.space = space;
    cells.positions = v.cells;
    cells.count = v.cellCount;
    for (int k = 0; k < kSpeciesCount; ++k) {
        elements.scalars.push_back({speciesName(k), "1", v.elementSpecies + k * v.elementCount});
        cells.scalars.push_back({speciesName(k), "1", v.cellSpecies + k * v.cellCount});
    }
    views.clouds.push_back(std::move(elements));
    views.clouds.push_back(std::move(cells));

    PlaneView membrane;
    membrane.name = "basement membrane";
    membrane.point[0] = 0.5 * p.sizeX;
    membrane.point[1] = 0.5 * p.sizeY;
    membrane.extent[0] = p.sizeX;
    membrane.extent[1] = p.sizeY;
    views.planes.push_back(membrane);
    return views;
}

ModelViews hostViews(const EpidermisParams& p, const HostState& s, const float* cx, const float* cy,
                     const float* cz, const float* radius, HostViewBuffers& b) {
    const auto n = static_cast<std::size_t>(s.elements());
    const auto cells = static_cast<std::size_t>(s.cells);
    b.elements.assign(4 * n, 0.0f);
    b.state.assign(n, 0);
    b.elementSpecies.assign(kSpeciesCount * n, 0.0f);
    b.cells.assign(4 * cells, 0.0f);
    b.cellSpecies.assign(kSpeciesCount * cells, 0.0f);
    std::size_t i = 0;
    for (std::int32_t c = 0; c < s.cells; ++c) {
        const auto cu = static_cast<std::size_t>(c);
        const bool supra = isSuprabasal(p, s, c);
        b.cells[4 * cu] = cx[cu];
        b.cells[4 * cu + 1] = cy[cu];
        b.cells[4 * cu + 2] = cz[cu];
        b.cells[4 * cu + 3] = radius[cu];
        for (int k = 0; k < kSpeciesCount; ++k)
            b.cellSpecies[k * cells + cu] = s.s(k, c);
        for (std::int32_t e = 0; e < s.count[cu]; ++e, ++i) {
            const std::size_t slot = s.slot(c, e);
            b.elements[4 * i] = s.x[slot];
            b.elements[4 * i + 1] = s.y[slot];
            b.elements[4 * i + 2] = s.z[slot];
            b.elements[4 * i + 3] = kElementDrawRadius;
            b.state[i] = s.type[slot] == 1 ? 0 : (supra ? 2 : 1);
            for (int k = 0; k < kSpeciesCount; ++k)
                b.elementSpecies[k * n + i] = s.s(k, c);
        }
    }
    PackedViews v{b.elements.data(),    b.state.data(), b.elementSpecies.data(), n, b.cells.data(),
                  b.cellSpecies.data(), cells};
    return assembleViews(p, MemorySpace::Host, v);
}

}  // namespace cf::epidermis
