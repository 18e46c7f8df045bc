// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/gliding/gliding_views.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <tuple>

#include "sim/models/gliding/flow_profiles.hpp"
#include "sim/models/gliding/view_physics.hpp"

namespace cf::gliding {

ModelViews viewLayout(const GlidingParams& p) {
    ModelViews views;
    views.boxHi[2] = views.focusHi[2] = p.dx;
    // One flat volume for every per-cell field (they share the grid), so any of them can colour
    // the slab under the vector fields (S1 Fig. 6: density under orientation arrows, bound
    // motors under flow arrows).
    VolumeView assay;
    assay.name = "assay";
    assay.dims[0] = assay.dims[1] = p.n;
    assay.dims[2] = 1;
    assay.hi[2] = p.dx;  // one cell thick: voxels are cubes
    assay.scalars = {{"density", "n0", nullptr},
                     {"polar_order", "1", nullptr, 0.0, 1.0},
                     {"nematic_order", "1", nullptr, 0.0, 1.0},
                     {"orientation", "deg", nullptr, 0.0, 360.0},
                     {"bound_motors", "m0", nullptr},
                     {"free_motors", "m0", nullptr},
                     {"flow_speed", "V", nullptr},
                     {"flow_u", "V", nullptr},
                     {"flow_v", "V", nullptr}};
    views.volumes = {std::move(assay)};
    for (const auto& [name, unit, directional] :
         {std::tuple{"orientation", "1", true}, std::tuple{"director", "1", false},
          std::tuple{"flow", "V", true}}) {
        VectorFieldView vectors;
        vectors.name = name;
        vectors.unit = unit;
        vectors.directional = directional;
        vectors.dims[0] = vectors.dims[1] = p.n;
        vectors.dims[2] = 1;
        // One node per cell, on a plane just above the one-cell slab of the volume so that
        // arrows and LIC do not fight a volume slice for depth.
        vectors.lo[2] = 1.01 * p.dx;
        vectors.hi[2] = 1.03 * p.dx;
        views.vectors.push_back(std::move(vectors));
    }
    return views;
}

ModelViews viewsOf(const GlidingParams& p, const ViewArrays& a, MemorySpace space) {
    ModelViews views = viewLayout(p);
    VolumeView& assay = views.volumes[0];
    assay.space = space;
    const float* channels[] = {a.density, a.polar, a.nematic, a.orientation, a.bound, a.free,
                               a.speed,   a.u,     a.v};
    for (std::size_t i = 0; i < assay.scalars.size(); ++i)
        assay.scalars[i].data = channels[i];
    const float* vectors[] = {a.orientationXyz, a.directorXyz, a.flowXyz};
    for (std::size_t i = 0; i < views.vectors.size(); ++i) {
        views.vectors[i].space = space;
        views.vectors[i].xyz = vectors[i];
    }
    return views;
}

ModelViews hostViews(const GlidingParams& p, const GlidingTables& t, const RunState& s,
                     ViewBuffers& b) {
    const std::size_t cells = static_cast<std::size_t>(p.n) * p.n;
    for (std::vector<float>* v : {&b.density, &b.polar, &b.nematic, &b.orientation, &b.bound,
                                  &b.free, &b.u, &b.v, &b.speed})
        v->resize(cells);
    for (std::vector<float>* v : {&b.orientationXyz, &b.directorXyz, &b.flowXyz})
        v->assign(3 * cells, 0.0f);
    const int nt = t.ntheta;
    double cmax = 0;
    for (std::size_t cell = 0; cell < cells; ++cell)
        cmax = std::max(cmax, cellDensitySum(s.filaments.psi.data() + cell * nt, nt));
    const CellViewArrays o{
        b.density.data(), b.polar.data(),          b.nematic.data(),     b.orientation.data(),
        b.bound.data(),   b.free.data(),           b.u.data(),           b.v.data(),
        b.speed.data(),   b.orientationXyz.data(), b.directorXyz.data(), b.flowXyz.data()};
    for (std::size_t cell = 0; cell < cells; ++cell)
        packCellView(s.filaments.psi.data() + cell * nt, t.cosT.data(), t.sinT.data(), nt, t.dtheta,
                     cmax, s.boundCoarse[cell], s.free[cell], s.u[cell], s.v[cell], o,
                     static_cast<long long>(cell));
    return viewsOf(p,
                   {b.density.data(), b.polar.data(), b.nematic.data(), b.orientation.data(),
                    b.bound.data(), b.free.data(), b.speed.data(), b.u.data(), b.v.data(),
                    b.orientationXyz.data(), b.directorXyz.data(), b.flowXyz.data()},
                   MemorySpace::Host);
}

std::int32_t profileRow(const GlidingParams& p) {
    return std::clamp(static_cast<std::int32_t>(p.profileY * p.n), 0, p.n - 1);
}

void appendProfileView(const GlidingParams& p, const FlowSlice& slice, ViewBuffers& b,
                       ModelViews& views) {
    b.profileU = slice.u;
    b.profileV = slice.v;
    b.profileW = slice.w;
    b.profileSpeed.resize(slice.u.size());
    for (std::size_t i = 0; i < slice.u.size(); ++i)
        b.profileSpeed[i] = std::hypot(slice.u[i], slice.v[i]);
    VolumeView v;
    v.name = "flow_profile";
    v.dims[0] = slice.n;
    v.dims[1] = 1;
    v.dims[2] = slice.nz;
    const double y = (profileRow(p) + 0.5) * p.dx;
    v.lo[1] = y - 0.5 * p.dx;
    v.hi[1] = y + 0.5 * p.dx;
    v.hi[2] = 0.25;  // grid-index space in z (the layer of node l spans [l, l + 1] / (4 nz))
    v.scalars = {{"speed", "V", b.profileSpeed.data()},
                 {"u", "V", b.profileU.data()},
                 {"v", "V", b.profileV.data()},
                 {"w", "eps V", b.profileW.data()}};
    views.volumes.push_back(std::move(v));
    views.boxHi[2] = std::max(views.boxHi[2], 0.25);
}

}  // namespace cf::gliding
