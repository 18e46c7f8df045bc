// SPDX-License-Identifier: GPL-3.0-or-later
// The one-iteration backward Euler method (`method be`, model.integrator = backward_euler;
// Lionetti et al.'s integrator): y + dt f / (1 - dt J), one Newton iteration of the implicit
// Euler step on each state's own slope J (found symbolically). What it must do: follow the
// implicit step where a state is linear in itself (exact for a stiff linear decay, where forward
// Euler leaves the finite numbers), and converge at first order on a whole cell model. The
// oracle of single steps is in test_cardiac_lang.cpp (IntegratorsMatchTheHandOracle); the CUDA
// kernel against the interpreter in test_cardiac_codegen.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/models/cardiac/cardiac_model.hpp"
#include "sim/models/cardiac/lang/cell_program.hpp"
#include "sim/models/cardiac/lang/checked_model.hpp"

namespace cf::cardiac {
namespace {

// y' = -1000 (y - 1) from 0 at dt 0.1 ms (k dt = 100): forward Euler multiplies the distance to
// 1 by -99 each step; implicit Euler divides it by 101, and the one Newton iteration is the
// implicit step itself for a state linear in itself: 1 - 101^-n, never past 1.
TEST(CardiacBackwardEuler, StiffLinearDecayIsTheImplicitStep) {
    const std::string src =
        "model stiff\nmethod {M}: *\n[c]\nstate V = 0 bind potential\ndot(V) = 0\n"
        "state y = 0\ndot(y) = -1000 * (y - 1) + 0 * V\n";
    auto run = [&](const char* method, int steps) {
        std::string s = src;
        s.replace(s.find("{M}"), 3, method);
        CellProgram p(compileModel(s, "stiff.cfm"));
        std::vector<double> y = p.initialStates();
        std::vector<double> path;
        for (int n = 0; n < steps; ++n) {
            p.step(y, n * 0.1, 0.1);
            path.push_back(y[1]);
        }
        return path;
    };
    const std::vector<double> be = run("be", 20);
    for (std::size_t n = 0; n < be.size(); ++n) {
        EXPECT_NEAR(be[n], 1.0 - std::pow(101.0, -static_cast<double>(n + 1)), 1e-15) << n;
        EXPECT_LE(be[n], 1.0);
    }
    const std::vector<double> fe = run("fe", 20);
    EXPECT_GT(std::fabs(fe.back() - 1.0), 1e30);  // 99^20
}

// Beeler-Reuter 1977 (8 states) with every state by backward Euler, paced once (-50 uA/cm^2 for
// 1 ms at 10 ms), 400 ms: the potential sampled every 1 ms against the same method at dt
// 0.0005 ms. First order: halving dt halves the error, so the ratios of successive errors at
// dt 0.02, 0.01, 0.005 ms lie near 2 (bound 1.6 to 2.6: the upstroke's timing makes the
// error's constant vary a little between dt). Measured 8.41, 4.44, 2.18 mV: the worst sample
// sits in the upstroke, where a shift of microseconds moves V by millivolts; the finest is
// bounded by 3 mV.
TEST(CardiacBackwardEuler, ConvergesAtFirstOrderOnBeelerReuter) {
    CheckedModel m = compileModel(bundledModelSource("beeler_reuter_1977"), "br.cfm");
    for (StateInfo& s : m.states)
        s.method = Method::BackwardEuler;
    const CellProgram p(m);
    auto trace = [&](double dt) {
        std::vector<double> y = p.initialStates(), out;
        const long steps = std::lround(400.0 / dt), every = std::lround(1.0 / dt);
        for (long n = 0; n < steps; ++n) {
            const double t = static_cast<double>(n) * dt;
            const double stim = t >= 10.0 && t < 11.0 ? -50.0 : 0.0;
            p.step(y, t, dt, &stim);
            if ((n + 1) % every == 0) out.push_back(y[0]);
        }
        return out;
    };
    const std::vector<double> ref = trace(0.0005);
    std::vector<double> errors;
    for (double dt : {0.02, 0.01, 0.005}) {
        const std::vector<double> v = trace(dt);
        ASSERT_EQ(v.size(), ref.size());
        double worst = 0.0;
        for (std::size_t k = 0; k < v.size(); ++k)
            worst = std::max(worst, std::fabs(v[k] - ref[k]));
        errors.push_back(worst);
        std::printf("Beeler-Reuter by backward Euler, dt %.3f ms: max |V - V_ref| %.4f mV\n", dt,
                    worst);
    }
    for (std::size_t k = 1; k < errors.size(); ++k) {
        EXPECT_GT(errors[k - 1] / errors[k], 1.6) << k;
        EXPECT_LT(errors[k - 1] / errors[k], 2.6) << k;
    }
    EXPECT_LT(errors.back(), 3.0);
}

}  // namespace
}  // namespace cf::cardiac
