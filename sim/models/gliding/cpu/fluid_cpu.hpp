// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The thin-gap Stokes solve of `gliding` on the CPU, in double (docs/design/gliding.md 2.8 and
// 3.3; design M9, M10, M11, M12): the extra stresses from the moments of Psi and the lagged
// strain, the in-plane forcing f = F2 + sigma_f div sigma^f - sigma_t div sigma^t (centred
// differences), then the exact fast path u2(z0) = IDFT[(T_par k^k^ + T_perp (I - k^k^)) DFT f]
// with the transfer table of gliding_zgrid.hpp, and the centred gradient of u2(z0).
//
// Fields are per cell [iy * n + ix] on the same cell-centred grid as Psi; "at z0" means the
// delta-weighted filament-plane value of design M4.
#include <cstdint>
#include <vector>

#include "sim/models/gliding/cpu/fftw_plans.hpp"
#include "sim/models/gliding/fluid_physics.hpp"
#include "sim/models/gliding/gliding_params.hpp"
#include "sim/models/gliding/gliding_state.hpp"
#include "sim/models/gliding/gliding_tables.hpp"
#include "sim/models/gliding/gliding_zgrid.hpp"

namespace cf::gliding {

// FlowField (u2(z0) and its centred gradient) is in fluid_physics.hpp, shared with CUDA.

// Density, second moment D and fourth moment S of Psi per cell (design M6), unnormalised,
// summed over quarter-turn orbits as in computeMoments (smoluchowski_cpu.hpp), so a quarter
// turn of Psi maps them onto each other bit for bit (D11 <-> D22, D12 -> -D12, S1111 <->
// S2222, S1112 -> -S1222, S1222 -> -S1112, S1122 kept).
struct StressMoments {
    std::vector<double> c, d11, d12, d22, s1111, s1112, s1122, s1222, s2222;
};
void computeStressMoments(const HostState& s, const GlidingTables& t, StressMoments& m);

class FluidCpu {
public:
    // Builds the z-grid, the transfer table for every R2C mode and the 2-D FFTW plans
    // (batch 2, FFTW_ESTIMATE). Throws ParameterError for an unusable z-grid and
    // SimulationError if FFTW returns no plan.
    FluidCpu(const GlidingParams& p, const GlidingTables& t);

    // One fluid solve of the outer step (design M11): moments of s, then iterations() passes of
    // [sigma^f from the strain of `flow` (the previous solve: the lag), sigma^t, forcing with
    // the motor force (fx, fy) at the cells, Stokes apply, gradient] each overwriting `flow`.
    // With fluid.enabled off the flow is set to rest. fx and fy may be empty (no motor force).
    void solve(const GlidingParams& p, const GlidingTables& t, const HostState& s,
               const std::vector<double>& fx, const std::vector<double>& fy, FlowField& flow);

    // The forcing f = F2 + sigma_f div(S:E) - sigma_t div(D.D - S:D) for the strain of `lagged`
    // (design 2.8; sigma_t is taken as 0 when filaments.steric_reading = strain, design M5).
    void forcing(const GlidingParams& p, const StressMoments& m, const std::vector<double>& fx,
                 const std::vector<double>& fy, const FlowField& lagged, std::vector<double>& gx,
                 std::vector<double>& gy) const;

    // u2(z0) for the in-plane forcing (gx, gy), and its centred gradient, into `out`.
    void applyStokes(const std::vector<double>& gx, const std::vector<double>& gy, FlowField& out);

    // g, the amplification per pass of the lagged sigma^f coupling (design M12), exactly for an
    // isotropic Psi of density cmax: (3 cmax / 8) sigma_f max_k T_par(k) |k~|^2 with the
    // centred-difference symbol k~ = (sin(kx dx), sin(ky dx)) / dx. design M12's estimate
    // eps^2 z0 (3c/8) sigma_f / dx^2 misses the diagonal mode (|k~|^2 up to 2/dx^2) and the fall
    // of T_par with kappa; at the defaults this g is about twice design M12's. It must stay
    // below 1.
    double lagFactor(const GlidingParams& p, double cmax) const;
    // Passes per solve: fluid.iterations when set, else 1, or 3 when g > 0.5 (design M12,
    // design 2.8).
    std::int32_t iterations(const GlidingParams& p, double cmax) const;

    const ZGrid& zgrid() const { return zgrid_; }
    const TransferTable& transfer() const { return table_; }
    // The response tensor of R2C mode [ky * (n/2 + 1) + kx]: (Mxx, Mxy, Myy) =
    // T_perp I + (T_par - T_perp) k^k^ (both T at k = 0), with Mxy = 0 on the Nyquist row and
    // column (the average of the two aliases +-n/2, which keeps the inverse transform real).
    double mxx(std::size_t mode) const { return response_.mxx[mode]; }
    double mxy(std::size_t mode) const { return response_.mxy[mode]; }
    double myy(std::size_t mode) const { return response_.myy[mode]; }
    // The in-plane forcing f = (gx, gy) per cell [iy * n + ix] that the last pass of the last
    // solve() handed to applyStokes (so flow = applyStokes(f)), as host copies: the input of the
    // output-time profiles (flow_profiles.hpp). Zeros before the first solve with the fluid on;
    // a solve with fluid.enabled off leaves the previous forcing.
    void lastForcing(std::vector<double>& gx, std::vector<double>& gy) const;
    // Of the last solve(): the passes made and max c.
    std::int32_t lastIterations() const { return lastIterations_; }
    double lastMaxDensity() const { return lastCmax_; }

private:
    std::int32_t n_;
    double dx_;
    ZGrid zgrid_;
    TransferTable table_;
    FluidResponse response_;  // M per mode and max over modes of T_par |k~|^2
    fftw::RealBuffer real_, realOut_;
    fftw::ComplexBuffer spec_, specIn_;
    fftw::Plan forward_, backward_;
    StressMoments moments_;
    std::vector<double> gx_, gy_;
    std::int32_t lastIterations_ = 0;
    double lastCmax_ = 0;
};

}  // namespace cf::gliding
