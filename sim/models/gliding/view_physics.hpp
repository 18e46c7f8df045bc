// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The per-cell arithmetic of `gliding`'s views (gliding_views.hpp), shared by the host views and
// the CUDA pack kernel so that both draw the same floats: density, polar and nematic order, the
// dominant orientation, the motor sums, the flow and the three vector fields.
#include <cmath>

#include "sim/core/host_device.hpp"

namespace cf::gliding {

// The float arrays of the views (vectors: 3 floats per cell), host or device memory.
struct CellViewArrays {
    float *density, *polar, *nematic, *orientation, *bound, *free, *u, *v, *speed;
    float *orientationXyz, *directorXyz, *flowXyz;
};

// c = sum_j Psi_j (without dtheta), the weight of the orientation arrows relative to max c.
CF_HD double cellDensitySum(const double* psi, int ntheta) {
    double c = 0;
    for (int j = 0; j < ntheta; ++j)
        c += psi[j];
    return c;
}

// Writes cell `cell` of `o` from its Psi (ntheta values), max c over the grid (as
// cellDensitySum), its bound and free motors and its flow at z0.
CF_HD void packCellView(const double* psi, const double* cosT, const double* sinT, int ntheta,
                        double dtheta, double cmax, double bound, double free, double u, double v,
                        const CellViewArrays& o, long long cell) {
    double c = 0, px = 0, py = 0, d11 = 0, d12 = 0, d22 = 0;
    int best = 0;
    for (int j = 0; j < ntheta; ++j) {
        const double co = cosT[j], si = sinT[j];
        c += psi[j];
        px += co * psi[j];
        py += si * psi[j];
        d11 += co * co * psi[j];
        d12 += co * si * psi[j];
        d22 += si * si * psi[j];
        if (psi[j] > psi[best]) best = j;
    }
    // Polar order |P|/c and nematic order: the largest eigenvalue of Q = 2D/c - I.
    const double inv = c > 0 ? 1.0 / c : 0.0;
    o.density[cell] = static_cast<float>(c * dtheta);
    o.polar[cell] = static_cast<float>(hypot(px, py) * inv);
    const float nematic = static_cast<float>(hypot(d11 - d22, 2.0 * d12) * inv);
    o.nematic[cell] = nematic;
    constexpr double kPi = 3.141592653589793238462643383279502884;
    o.orientation[cell] = static_cast<float>((best + 0.5) * dtheta * 180.0 / kPi);
    o.bound[cell] = static_cast<float>(bound);
    o.free[cell] = static_cast<float>(free);
    o.u[cell] = static_cast<float>(u);
    o.v[cell] = static_cast<float>(v);
    o.speed[cell] = static_cast<float>(hypot(u, v));
    // Arrow lengths: the dominant orientation by c / max c (Fig. 6), the director by the
    // nematic order, the flow by itself; z = 0 on the plane.
    const double weight = cmax > 0 ? c / cmax : 0.0;
    float* xyz = o.orientationXyz + 3 * cell;
    xyz[0] = static_cast<float>(weight * cosT[best]);
    xyz[1] = static_cast<float>(weight * sinT[best]);
    xyz[2] = 0.0f;
    const double phi = 0.5 * atan2(2.0 * d12, d11 - d22);
    xyz = o.directorXyz + 3 * cell;
    xyz[0] = nematic * static_cast<float>(cos(phi));
    xyz[1] = nematic * static_cast<float>(sin(phi));
    xyz[2] = 0.0f;
    xyz = o.flowXyz + 3 * cell;
    xyz[0] = static_cast<float>(u);
    xyz[1] = static_cast<float>(v);
    xyz[2] = 0.0f;
}

}  // namespace cf::gliding
