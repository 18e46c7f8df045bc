// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/lang/cell_program.hpp"

#include <cmath>

namespace cf::cardiac {

double phi1(double z) {
    return std::fabs(z) < 1e-4 ? 1.0 + z * (0.5 + z * (1.0 / 6.0)) : std::expm1(z) / z;
}

CellProgram::CellProgram(CheckedModel model) : m_(std::move(model)) {
    for (int p : m_.params)
        params_.push_back(m_.vars[static_cast<std::size_t>(p)].initial);
    potentialState_ = m_.stateOf(m_.potential);
}

std::vector<double> CellProgram::initialStates() const {
    std::vector<double> y;
    for (const StateInfo& s : m_.states)
        y.push_back(m_.vars[static_cast<std::size_t>(s.var)].initial);
    return y;
}

void CellProgram::loadValues(const double* y, double t, const double* stimulus,
                             Workspace& w) const {
    std::vector<double>& v = w.values;
    v.resize(m_.vars.size());
    v[static_cast<std::size_t>(m_.time)] = t;
    for (std::size_t p = 0; p < m_.params.size(); ++p)
        v[static_cast<std::size_t>(m_.params[p])] = params_[p];
    for (std::size_t s = 0; s < m_.states.size(); ++s)
        v[static_cast<std::size_t>(m_.states[s].var)] = y[s];
    for (int d : m_.order) {
        const bool driven = stimulus != nullptr && d == m_.stimulus;
        v[static_cast<std::size_t>(d)] =
            driven ? *stimulus : evaluate(*m_.vars[static_cast<std::size_t>(d)].expr, v);
    }
}

void CellProgram::rates(const std::vector<double>& y, double t, std::vector<double>& dydt,
                        const double* stimulus) const {
    loadValues(y.data(), t, stimulus, scratch_);
    dydt.resize(m_.states.size());
    for (std::size_t s = 0; s < m_.states.size(); ++s)
        dydt[s] = evaluate(*m_.states[s].rate, scratch_.values);
}

void CellProgram::step(std::vector<double>& y, double t, double dt, const double* stimulus) const {
    step(y.data(), t, dt, stimulus, scratch_);
}

void CellProgram::step(double* y, double t, double dt, const double* stimulus, Workspace& w) const {
    loadValues(y, t, stimulus, w);
    w.next.resize(m_.states.size());
    for (std::size_t s = 0; s < m_.states.size(); ++s) {
        const StateInfo& info = m_.states[s];
        const double f = evaluate(*info.rate, w.values);
        if (info.method == Method::ForwardEuler) {
            w.next[s] = y[s] + dt * f;
        } else {
            const double b = evaluate(*info.slope, w.values);
            w.next[s] = y[s] + dt * f * phi1(b * dt);
        }
    }
    for (std::size_t s = 0; s < m_.states.size(); ++s)
        y[s] = w.next[s];
}

double CellProgram::potentialRate(const double* y, double t, const double* stimulus,
                                  Workspace& w) const {
    loadValues(y, t, stimulus, w);
    return evaluate(*m_.states[static_cast<std::size_t>(potentialState_)].rate, w.values);
}

double evaluate(const Term& t, const std::vector<double>& values) {
    const auto& a = t.args;
    auto x = [&](std::size_t i) { return evaluate(*a[i], values); };
    switch (t.op) {
        case Op::Const:
            return t.value;
        case Op::Var:
            return values[static_cast<std::size_t>(t.var)];
        case Op::Neg:
            return -x(0);
        case Op::Not:
            return x(0) != 0.0 ? 0.0 : 1.0;
        case Op::Add:
            return x(0) + x(1);
        case Op::Sub:
            return x(0) - x(1);
        case Op::Mul:
            return x(0) * x(1);
        case Op::Div:
            return x(0) / x(1);
        case Op::Pow: {
            // Small integer powers as products, as the generated kernel computes them.
            const int n = smallIntegerExponent(*a[1]);
            if (n != 0) {
                const double b = x(0);
                double r = b;
                for (int k = 1; k < (n < 0 ? -n : n); ++k)
                    r = r * b;
                return n > 0 ? r : 1.0 / r;
            }
            return std::pow(x(0), x(1));
        }
        case Op::Lt:
            return x(0) < x(1) ? 1.0 : 0.0;
        case Op::Le:
            return x(0) <= x(1) ? 1.0 : 0.0;
        case Op::Gt:
            return x(0) > x(1) ? 1.0 : 0.0;
        case Op::Ge:
            return x(0) >= x(1) ? 1.0 : 0.0;
        case Op::Eq:
            return x(0) == x(1) ? 1.0 : 0.0;
        case Op::Ne:
            return x(0) != x(1) ? 1.0 : 0.0;
        case Op::And:
            return (x(0) != 0.0 && x(1) != 0.0) ? 1.0 : 0.0;
        case Op::Or:
            return (x(0) != 0.0 || x(1) != 0.0) ? 1.0 : 0.0;
        case Op::Exp:
            return std::exp(x(0));
        case Op::Expm1:
            return std::expm1(x(0));
        case Op::Log:
            return std::log(x(0));
        case Op::Log1p:
            return std::log1p(x(0));
        case Op::Log10:
            return std::log10(x(0));
        case Op::Sqrt:
            return std::sqrt(x(0));
        case Op::Abs:
            return std::fabs(x(0));
        case Op::Floor:
            return std::floor(x(0));
        case Op::Ceil:
            return std::ceil(x(0));
        case Op::Sin:
            return std::sin(x(0));
        case Op::Cos:
            return std::cos(x(0));
        case Op::Tan:
            return std::tan(x(0));
        case Op::Asin:
            return std::asin(x(0));
        case Op::Acos:
            return std::acos(x(0));
        case Op::Atan:
            return std::atan(x(0));
        case Op::Sinh:
            return std::sinh(x(0));
        case Op::Cosh:
            return std::cosh(x(0));
        case Op::Tanh:
            return std::tanh(x(0));
        case Op::LogBase:
            return std::log(x(0)) / std::log(x(1));
        case Op::Min:
            return std::fmin(x(0), x(1));
        case Op::Max:
            return std::fmax(x(0), x(1));
        case Op::If:
            return x(0) != 0.0 ? x(1) : x(2);
        case Op::Piecewise:
            for (std::size_t i = 0; i + 1 < a.size(); i += 2)
                if (x(i) != 0.0) return x(i + 1);
            return x(a.size() - 1);
    }
    return 0.0;
}

}  // namespace cf::cardiac
