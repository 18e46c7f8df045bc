// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/gliding/flow_profiles.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <mutex>
#include <numbers>
#include <string>

#include "sim/core/errors.hpp"
#include "sim/core/parallel.hpp"
#include "sim/models/gliding/cpu/fftw_plans.hpp"
#include "sim/models/gliding/fluid_physics.hpp"

namespace cf::gliding {

FlowProfiles::FlowProfiles(const GlidingParams& p, const GlidingTables& t, const ZGrid& g)
    : n_(t.n), dx_(t.dx), zgrid_(g), table_(precomputeProfiles(g, p.eps, t.n, g.z)) {}

void FlowProfiles::sliceValues(const std::vector<double>& gx, const std::vector<double>& gy,
                               std::int32_t row, std::vector<double>& u, std::vector<double>& v,
                               std::vector<double>& w) const {
    const int n = n_, nh = n / 2 + 1;
    const std::size_t cells = static_cast<std::size_t>(n) * n;
    const std::size_t modes = static_cast<std::size_t>(n) * nh;
    const std::size_t nz = zgrid_.z.size();
    if (gx.size() != cells || gy.size() != cells)
        throw SimulationError("gliding: profile forcing has the wrong size");
    if (row < 0 || row >= n)
        throw SimulationError("gliding: profile row " + std::to_string(row) +
                              " outside the grid of " + std::to_string(n) + " rows");
    // Buffers and plans per call (FFTW_ESTIMATE planning is cheap next to the O(nz n^2) sums),
    // so concurrent slices share nothing. The forward transform is planned exactly as
    // FluidCpu's (batch 2, same layout), so both see the same spectrum.
    fftw::RealBuffer real(2 * cells), out(3 * nz * n);
    fftw::ComplexBuffer spec(2 * modes), rowSpec(3 * nz * nh);
    fftw::Plan forward, backward;
    {
        std::lock_guard<std::mutex> lock(fftw::plannerMutex());
        int dims[2] = {n, n};
        fftw_plan pf =
            fftw_plan_many_dft_r2c(2, dims, 2, real.data(), nullptr, 1, static_cast<int>(cells),
                                   spec.data(), nullptr, 1, static_cast<int>(modes), FFTW_ESTIMATE);
        int len[1] = {n};
        fftw_plan pb =
            fftw_plan_many_dft_c2r(1, len, static_cast<int>(3 * nz), rowSpec.data(), nullptr, 1, nh,
                                   out.data(), nullptr, 1, n, FFTW_ESTIMATE);
        forward = fftw::Plan(pf);
        backward = fftw::Plan(pb);
    }
    if (!forward.valid() || !backward.valid())
        throw SimulationError("gliding: FFTW returned no plan for the profile transforms");
    std::copy(gx.begin(), gx.end(), real.data());
    std::copy(gy.begin(), gy.end(), real.data() + cells);
    forward.execute();

    // e^{2 pi i m / n}: the phase of ky at iy = row is entry (ky row) mod n, the exponent
    // FFTW's 2-D c2r uses along y (index convention, as FluidCpu's u2(z0)).
    std::vector<double> cs(n), sn(n);
    for (int m = 0; m < n; ++m) {
        const double a = 2.0 * std::numbers::pi * m / n;
        cs[m] = std::cos(a);
        sn[m] = std::sin(a);
    }
    const double norm = 1.0 / static_cast<double>(cells);
    const fftw_complex* fxs = spec.data();
    const fftw_complex* fys = spec.data() + modes;
    fftw_complex* acc = rowSpec.data();  // [(component * nz + l) * nh + kx]
    const std::vector<double>& par = table_.par;
    const std::vector<double>& perp = table_.perp;
    const std::vector<double>& phw = table_.w;
    // One item per column kx, writing only its own column; the ky sum runs in a fixed order:
    // independent of the thread count.
    parallelFor(
        static_cast<std::size_t>(nh),
        [&](std::size_t kxs) {
            const int kx = static_cast<int>(kxs);
            for (std::size_t c = 0; c < 3 * nz; ++c) {
                acc[c * nh + kx][0] = 0.0;
                acc[c * nh + kx][1] = 0.0;
            }
            const double kxv = waveNumberX(kx);
            for (int ky = 0; ky < n; ++ky) {
                const std::size_t mode = static_cast<std::size_t>(ky) * nh + kx;
                const double kyv = waveNumberY(ky, n);
                const bool mean = kx == 0 && ky == 0;
                const bool nyquist = 2 * kx == n || 2 * ky == n;
                // k^ for w: a Nyquist component cannot tell +k from -k, and i Phi_w k^ is odd
                // in it, so the alias average (and the only real inverse) drops it, as
                // responseAt drops Mxy there.
                const double k = std::sqrt(kxv * kxv + kyv * kyv);
                const double hx = mean || 2 * kx == n ? 0.0 : kxv / k;
                const double hy = mean || 2 * ky == n ? 0.0 : kyv / k;
                const double fxr = fxs[mode][0], fxi = fxs[mode][1];
                const double fyr = fys[mode][0], fyi = fys[mode][1];
                const double fpr = (hx * fxr + hy * fyr) * norm, fpi = (hx * fxi + hy * fyi) * norm;
                const std::size_t ph = (static_cast<std::size_t>(ky) * row) % n;
                const double pc = cs[ph], ps = sn[ph];
                for (std::size_t l = 0; l < nz; ++l) {
                    const std::size_t e = mode * nz + l;
                    const Sym2 m = responseAt(par[e], perp[e], kxv, kyv, mean, nyquist);
                    const ModeVelocity re = stokesAt(m, norm, fxr, fyr);
                    const ModeVelocity im = stokesAt(m, norm, fxi, fyi);
                    // w^ = i Phi_w f^_par.
                    const double wr = -phw[e] * fpi, wi = phw[e] * fpr;
                    const double vals[3][2] = {{re.ux, im.ux}, {re.uy, im.uy}, {wr, wi}};
                    for (std::size_t c = 0; c < 3; ++c) {
                        fftw_complex& a = acc[(c * nz + l) * nh + kx];
                        a[0] += vals[c][0] * pc - vals[c][1] * ps;
                        a[1] += vals[c][0] * ps + vals[c][1] * pc;
                    }
                }
            }
        },
        4);
    backward.execute();
    const double* o = out.data();
    u.assign(o, o + nz * n);
    v.assign(o + nz * n, o + 2 * nz * n);
    w.assign(o + 2 * nz * n, o + 3 * nz * n);
}

FlowSlice FlowProfiles::slice(const std::vector<double>& gx, const std::vector<double>& gy,
                              std::int32_t row) const {
    std::vector<double> u, v, w;
    sliceValues(gx, gy, row, u, v, w);
    FlowSlice s;
    s.n = n_;
    s.nz = levels();
    s.row_y = (row + 0.5) * dx_;
    s.z = zgrid_.z;
    s.u.assign(u.begin(), u.end());
    s.v.assign(v.begin(), v.end());
    s.w.assign(w.begin(), w.end());
    return s;
}

}  // namespace cf::gliding
