// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The filament (Smoluchowski) step of `gliding` on the CPU, in double (docs/design/gliding.md
// 2.2-2.4, design M5, M12): self-propulsion V_sp, the steric terms U_t and U_r, and
// optionally a given flow u2 at z0 (FlowAtZ0; nullptr is the dry equation). No motors yet.
// The per-cell and per-face arithmetic is in smoluchowski_physics.hpp, shared with CUDA.
//
// Rotation-exact arithmetic: every sum over theta runs over the Ntheta/4 quarter-turn orbits
// (j, j + Q, j + 2Q, j + 3Q), Q = Ntheta/4, adding opposite members first, and every product
// of orientation components is formed so that a quarter turn of the state (with the exact
// orientation table) maps the moments, the face velocities and the advective operator onto
// themselves bit for bit. The FFT of the Crank-Nicolson solve is not rotation-symmetric in
// its rounding, so a whole step commutes with a quarter turn only to round-off.
#include <cstdint>
#include <utility>
#include <vector>

#include "sim/models/gliding/cpu/fftw_plans.hpp"
#include "sim/models/gliding/gliding_params.hpp"
#include "sim/models/gliding/gliding_state.hpp"
#include "sim/models/gliding/gliding_tables.hpp"
#include "sim/models/gliding/smoluchowski_physics.hpp"

namespace cf::gliding {

// Unnormalised moments per cell [iy * n + ix] (design M6): c, P and D (S follows with the
// stresses in stage 3).
struct Moments {
    std::vector<double> c, px, py, d11, d12, d22;
};

void computeMoments(const HostState& s, const GlidingTables& t, Moments& m);

// The advective operator A(Psi) = -delta_x F^x - delta_y F^y - delta_theta F^theta with
// first-order upwind (donor-cell) fluxes (design 2.3) into a (same layout as psi), and the
// CFL rate max over cells of |a_x|/dx + |a_y|/dy + |b|/dtheta, each the larger of the cell's
// two faces (design M11). Needs the moments of s. With a flow, the x (y) face velocity gains the
// face mean of u (v) and the theta face velocity p_perp . grad u2 . p (design M5).
double advectiveOperator(const GlidingParams& p, const GlidingTables& t, const HostState& s,
                         const Moments& m, std::vector<double>& a, const FlowAtZ0* flow = nullptr);

// L_h Psi = D_t grad_h^2 Psi + D_r delta_theta^2 Psi, the periodic 7-point operator whose
// DFT symbol is Lambda (design M12).
void diffusionOperator(const GlidingParams& p, const GlidingTables& t, const HostState& s,
                       std::vector<double>& out);

// CNAB2 stepping of Psi (design M12): owns the FFT plans and the AB2 history A^{n-1}.
class SmoluchowskiCpu {
public:
    explicit SmoluchowskiCpu(const GlidingTables& t);

    // One step of size dt: moments, A^n, R = Psi + dt/2 L_h Psi + dt[(1 + w/2)A^n - (w/2)A^{n-1}]
    // with w = dt/dt_prev (0 on the first step: forward Euler for A), then
    // Psi = IDFT[DFT(R) / (1 - dt/2 Lambda)]. Returns the CFL rate of Psi^n (before the step).
    // `flow` (nullptr = dry) must stay unchanged between cflStep and step.
    double step(const GlidingParams& p, const GlidingTables& t, HostState& s, double dt,
                const FlowAtZ0* flow = nullptr);

    // The CFL time step C_out/rate, limited to growth_limit x the previous step (design M11).
    // It evaluates A^n, which the next step() reuses: between the two, Psi must not change.
    double cflStep(const GlidingParams& p, const GlidingTables& t, const HostState& s,
                   const FlowAtZ0* flow = nullptr);

    std::int64_t steps() const { return steps_; }
    double previousDt() const { return dtPrev_; }
    // Forget the AB2 history: the next step is forward Euler in A again.
    void restart() {
        steps_ = 0;
        dtPrev_ = 0;
    }
    // The AB2 history, for checkpoints: A^{n-1} (meaningful once steps() > 0), the previous
    // step and the step count. setHistory restores them (aPrev as previousOperator gave it).
    const std::vector<double>& previousOperator() const { return aPrev_; }
    void setHistory(std::vector<double> aPrev, double dtPrev, std::int64_t steps) {
        aPrev_ = std::move(aPrev);
        dtPrev_ = dtPrev;
        steps_ = steps;
        evaluatedFor_ = nullptr;
    }

private:
    std::int32_t n_, ntheta_;
    fftw::RealBuffer real_;
    fftw::ComplexBuffer spec_;
    fftw::Plan forward_, backward_;
    Moments moments_;
    std::vector<double> a_, aPrev_, lap_;
    const double* evaluatedFor_ = nullptr;     // the Psi cflStep just evaluated A^n for
    const FlowAtZ0* evaluatedFlow_ = nullptr;  // and the flow it used
    double evaluatedRate_ = 0;
    std::int64_t steps_ = 0;
    double dtPrev_ = 0;
};

}  // namespace cf::gliding
