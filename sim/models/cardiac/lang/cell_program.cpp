// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/lang/cell_program.hpp"

#include <cmath>
#include <cstdio>

#include "sim/models/cardiac/lang/lookup_tables.hpp"

namespace cf::cardiac {

double phi1(double z) {
    return std::fabs(z) < 1e-4 ? 1.0 + z * (0.5 + z * (1.0 / 6.0)) : std::expm1(z) / z;
}

double rushLarsenForm(double a, double b, double y, double dt) {
    const double yInf = -a / b;
    return yInf + (y - yInf) * std::exp(b * dt);
}

CellProgram::CellProgram(CheckedModel model, bool tables) : m_(std::move(model)) {
    for (int p : m_.params)
        params_.push_back(m_.vars[static_cast<std::size_t>(p)].initial);
    potentialState_ = m_.stateOf(m_.potential);
    if (tables && m_.lookup && !m_.lookup->columns.empty()) {
        columnOf_.assign(m_.vars.size(), -1);
        for (std::size_t c = 0; c < m_.lookup->columns.size(); ++c)
            columnOf_[static_cast<std::size_t>(m_.lookup->columns[c])] = static_cast<int>(c);
        tableRows_ = lookupRows(*m_.lookup);
        scratch_.table = table();
    }
}

CellProgram::TableSlot::TableSlot(const TableSlot& o) {
    std::lock_guard<std::mutex> lock(o.mutex);
    table = o.table;
}

CellProgram::TableSlot& CellProgram::TableSlot::operator=(const TableSlot& o) {
    if (this == &o) return *this;
    std::shared_ptr<const LookupTable> t;
    {
        std::lock_guard<std::mutex> lock(o.mutex);
        t = o.table;
    }
    std::lock_guard<std::mutex> lock(mutex);
    table = std::move(t);
    return *this;
}

std::shared_ptr<const LookupTable> CellProgram::table() const {
    if (!tablesActive()) return nullptr;
    std::lock_guard<std::mutex> lock(slot_.mutex);
    if (!slot_.table || slot_.table->params != params_) {
        auto t = std::make_shared<LookupTable>();
        t->params = params_;
        t->values = buildTable(m_, *m_.lookup, params_);
        t->rows = tableRows_;
        t->cols = m_.lookup->columns.size();
        slot_.table = std::move(t);
    }
    return slot_.table;
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
    if (tablesActive()) {
        loadTabulated(v, stimulus, w);
        return;
    }
    for (int d : m_.order) {
        const bool driven = stimulus != nullptr && d == m_.stimulus;
        v[static_cast<std::size_t>(d)] =
            driven ? *stimulus : evaluate(*m_.vars[static_cast<std::size_t>(d)].expr, v);
    }
}

void CellProgram::loadTabulated(std::vector<double>& v, const double* stimulus,
                                Workspace& w) const {
    // The per-thread table is current unless the parameters changed since it was built.
    if (!w.table || w.table->params != params_) w.table = table();
    const LookupTable& t = *w.table;
    const LookupPoint at =
        lookupPoint(*m_.lookup, t.rows, v[static_cast<std::size_t>(m_.potential)]);
    w.lookupClamps += at.clamped ? 1 : 0;
    const double* lower = t.values.data() + at.row * t.cols;
    const double* upper = lower + t.cols;
    for (int d : m_.order) {
        const int c = columnOf_[static_cast<std::size_t>(d)];
        const bool driven = stimulus != nullptr && d == m_.stimulus;
        if (c >= 0)
            v[static_cast<std::size_t>(d)] = lower[c] + at.weight * (upper[c] - lower[c]);
        else
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
        } else if (info.method == Method::BackwardEuler) {
            w.next[s] = y[s] + dt * f / (1.0 - dt * evaluate(*info.slope, w.values));
        } else {
            const double b = evaluate(*info.slope, w.values);
            w.next[s] = y[s] + dt * f * phi1(b * dt);
            if (!std::isfinite(w.next[s]) && info.intercept && info.method == Method::RushLarsen)
                w.next[s] = rushLarsenForm(evaluate(*info.intercept, w.values), b, y[s], dt);
        }
    }
    for (std::size_t s = 0; s < m_.states.size(); ++s)
        y[s] = w.next[s];
}

namespace {

std::string shortNumber(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

// The first variable, depth first through the definitions, that `t` reads and whose value is
// not finite while everything its own definition reads is finite; -1 when there is none.
int firstNonFinite(const CheckedModel& m, const Term& t, const std::vector<double>& v,
                   std::vector<char>& seen) {
    if (t.op == Op::Var) {
        const auto k = static_cast<std::size_t>(t.var);
        if (seen[k] || std::isfinite(v[k])) return -1;
        seen[k] = 1;
        if (const TermPtr& e = m.vars[k].expr)
            if (const int inner = firstNonFinite(m, *e, v, seen); inner >= 0) return inner;
        return t.var;
    }
    for (const TermPtr& a : t.args)
        if (const int r = firstNonFinite(m, *a, v, seen); r >= 0) return r;
    return -1;
}

}  // namespace

std::string CellProgram::explainNonFinite(std::size_t s, double dt, const Workspace& w) const {
    const StateInfo& info = m_.states[s];
    const std::string name = m_.vars[static_cast<std::size_t>(info.var)].name;
    const std::string rateAt = "dot(" + name + ") (line " + std::to_string(info.ratePos.line) + ")";
    std::vector<char> seen(m_.vars.size(), 0);
    if (const int bad = firstNonFinite(m_, *info.rate, w.values, seen); bad >= 0) {
        const Variable& b = m_.vars[static_cast<std::size_t>(bad)];
        return rateAt + " reads " + b.name + " = " +
               shortNumber(w.values[static_cast<std::size_t>(bad)]) + " (line " +
               std::to_string(b.pos.line) + "), " +
               (b.expr ? "the first value that is not finite (its inputs are)"
                       : "which is not finite");
    }
    const double f = evaluate(*info.rate, w.values);
    if (!std::isfinite(f)) return rateAt + " is " + shortNumber(f) + " from finite inputs";
    if (info.method == Method::ForwardEuler)
        return rateAt + " = " + shortNumber(f) + ": the forward Euler step with dt " +
               shortNumber(dt) + " leaves the finite numbers";
    const double b = evaluate(*info.slope, w.values);
    return rateAt + " = " + shortNumber(f) + " with slope " + shortNumber(b) + ": the " +
           methodTitle(info.method) + " step with dt " + shortNumber(dt) + " is not finite";
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

double stimulusEffect(const CellProgram& program) {
    if (program.model().stimulus < 0) return 0;
    CellProgram::Workspace w;
    const std::vector<double> y = program.initialStates();
    const double none = 0, depolarising = -1;
    return program.potentialRate(y.data(), 0, &depolarising, w) -
           program.potentialRate(y.data(), 0, &none, w);
}

}  // namespace cf::cardiac
