// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/gliding/gliding_state.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/core/params.hpp"
#include "sim/core/rng.hpp"

namespace cf::gliding {

namespace {

constexpr double kTwoPi = 2.0 * std::numbers::pi;

struct Ring {
    double cx, cy;
    bool clockwise;  // gliding sense
};

std::vector<Ring> ringCentres(const GlidingParams& p) {
    std::vector<Ring> rings;
    if (p.layout == static_cast<std::int32_t>(Layout::SingleRing)) {
        rings.push_back({0.5, 0.5, p.sense == static_cast<std::int32_t>(Sense::Cw)});
        return rings;
    }
    const int nr = p.ringsPerAxis;
    for (int b = 0; b < nr; ++b)
        for (int a = 0; a < nr; ++a) {
            bool cw = p.sense == static_cast<std::int32_t>(Sense::Cw);
            if (p.sense == static_cast<std::int32_t>(Sense::Alternating)) cw = (a + b) % 2 == 1;
            rings.push_back({(a + 0.5) / nr, (b + 0.5) / nr, cw});
        }
    return rings;
}

// The rings without background or amplitude: g(x, theta_j) = sum over rings and periodic
// images of exp(-(|x - c| - R)^2 / (2 w^2)) vM(theta_j - theta*) (design M15). theta* is the
// tangent with p pointing clockwise for counter-clockwise gliding (design M15).
void addRings(const GlidingParams& p, const GlidingTables& t, HostState& s) {
    const std::vector<Ring> rings = ringCentres(p);
    const double norm = 1.0 / (kTwoPi * std::cyl_bessel_i(0.0, p.kappa));
    const double inv2w2 = 1.0 / (2.0 * p.ringWidth * p.ringWidth);
    // exp underflows to 0 beyond this exponent: such images add nothing.
    constexpr double kMaxExponent = 745.0;
    for (int iy = 0; iy < s.n; ++iy)
        for (int ix = 0; ix < s.n; ++ix) {
            const double x = (ix + 0.5) * t.dx, y = (iy + 0.5) * t.dx;
            for (const Ring& r : rings)
                for (int sy = -2; sy <= 2; ++sy)
                    for (int sx = -2; sx <= 2; ++sx) {
                        const double dx = x - (r.cx + sx), dy = y - (r.cy + sy);
                        const double d = std::sqrt(dx * dx + dy * dy);
                        const double e = (d - p.ringRadius) * (d - p.ringRadius) * inv2w2;
                        if (e > kMaxExponent) continue;
                        const double radial = std::exp(-e);
                        if (d == 0.0) {  // the centre itself: no tangent, isotropic
                            for (int j = 0; j < s.ntheta; ++j)
                                s.at(ix, iy, j) += radial / kTwoPi;
                            continue;
                        }
                        // Clockwise tangent (dy, -dx)/d; its opposite for clockwise gliding.
                        const double sign = r.clockwise ? -1.0 : 1.0;
                        const double px = sign * dy / d, py = -sign * dx / d;
                        for (int j = 0; j < s.ntheta; ++j) {
                            const double cosDiff = t.cosT[j] * px + t.sinT[j] * py;
                            s.at(ix, iy, j) += radial * norm * std::exp(p.kappa * cosDiff);
                        }
                    }
        }
}

// design M15: delta times a sum of random Fourier modes cos(2 pi (kx x + ky y) + m theta + phase)
// with amplitudes uniform in [-1, 1] [ASSUMED distribution]. |kx|, |ky| <= min(n_max, N/2 - 1)
// and 0 <= m <= min(n_max, Ntheta/2 - 1), so that no mode aliases onto the mean and the
// filament number stays c_bar exactly; each real mode is taken once.
int addRandomModes(const GlidingParams& p, const GlidingTables& t, std::uint32_t seed,
                   HostState& s) {
    const int kmax = std::min(p.maxMode, s.n / 2 - 1);
    const int mmax = std::min(p.maxMode, s.ntheta / 2 - 1);
    const rng::Philox gen(seed, kInitStream);
    std::vector<std::complex<double>> ex(s.n), ey(s.n), et(s.ntheta);
    std::vector<double> sum(s.psi.size(), 0.0);
    int mode = 0;
    for (int m = 0; m <= mmax; ++m)
        for (int ky = -kmax; ky <= kmax; ++ky)
            for (int kx = -kmax; kx <= kmax; ++kx) {
                if (m == 0 && (ky < 0 || (ky == 0 && kx <= 0))) continue;  // cos is even
                const rng::Word4 w = gen(0, static_cast<std::uint32_t>(mode), 0);
                const double amp = 2.0 * rng::uniformDouble(w.x, w.y) - 1.0;
                const double phase = kTwoPi * rng::uniformDouble(w.z, w.w);
                ++mode;
                for (int i = 0; i < s.n; ++i) {
                    const double xi = (i + 0.5) * t.dx;
                    ex[i] = std::polar(1.0, kTwoPi * kx * xi);
                    ey[i] = std::polar(1.0, kTwoPi * ky * xi);
                }
                for (int j = 0; j < s.ntheta; ++j)
                    et[j] = std::polar(amp, m * (j + 0.5) * t.dtheta + phase);
                std::size_t c = 0;
                for (int iy = 0; iy < s.n; ++iy)
                    for (int ix = 0; ix < s.n; ++ix) {
                        const std::complex<double> xy = ex[ix] * ey[iy];
                        for (int j = 0; j < s.ntheta; ++j)
                            sum[c++] += (xy * et[j]).real();
                    }
            }
    const double base = p.meanDensity / kTwoPi;
    for (std::size_t c = 0; c < s.psi.size(); ++c)
        s.psi[c] = base * (1.0 + p.perturbation * sum[c]);
    return mode;
}

}  // namespace

HostState initialState(const GlidingParams& p, const GlidingTables& t, std::uint32_t seed,
                       InitInfo* info) {
    HostState s;
    s.n = p.n;
    s.ntheta = p.ninner;
    s.psi.assign(static_cast<std::size_t>(s.n) * s.n * s.ntheta, 0.0);
    InitInfo local;
    switch (static_cast<Layout>(p.layout)) {
        case Layout::Uniform:
            std::fill(s.psi.begin(), s.psi.end(), p.meanDensity / kTwoPi);
            break;
        case Layout::Isotropic:
            local.modes = addRandomModes(p, t, seed, s);
            break;
        case Layout::RingLattice:
        case Layout::SingleRing: {
            if (p.background > p.meanDensity)
                throw ParameterError(
                    "gliding: init.background = " + std::to_string(p.background) +
                    " exceeds init.mean_density = " + std::to_string(p.meanDensity) +
                    ": the rings would need a negative amplitude");
            addRings(p, t, s);
            const double rings = filamentNumber(s, t);  // the mean of g's density (area 1)
            if (!(rings > 0.0))
                throw ParameterError("gliding: init.ring_width = " + std::to_string(p.ringWidth) +
                                     " is too narrow for grid.n = " + std::to_string(p.n) +
                                     ": the rings miss every cell centre");
            local.amplitude = (p.meanDensity - p.background) / rings;
            const double bg = p.background / kTwoPi;
            for (double& v : s.psi)
                v = bg + local.amplitude * v;
            break;
        }
    }
    if (info) *info = local;
    return s;
}

std::vector<double> density(const HostState& s, const GlidingTables& t) {
    std::vector<double> c(static_cast<std::size_t>(s.n) * s.n, 0.0);
    for (std::size_t cell = 0; cell < c.size(); ++cell) {
        double sum = 0.0;
        for (int j = 0; j < s.ntheta; ++j)
            sum += s.psi[cell * s.ntheta + j];
        c[cell] = sum * t.dtheta;
    }
    return c;
}

double filamentNumber(const HostState& s, const GlidingTables& t) {
    // Fixed order (theta within a cell, then cells): the same sum on every run and thread
    // count, and short partial sums keep the rounding near 1e-15 relative.
    double sum = 0.0;
    const std::size_t cells = static_cast<std::size_t>(s.n) * s.n;
    for (std::size_t cell = 0; cell < cells; ++cell) {
        double c = 0.0;
        for (int j = 0; j < s.ntheta; ++j)
            c += s.psi[cell * s.ntheta + j];
        sum += c;
    }
    return sum * t.dx * t.dx * t.dtheta;
}

}  // namespace cf::gliding
