// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/lang/lookup_tables.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "sim/core/number_format.hpp"
#include "sim/models/cardiac/lang/cell_program.hpp"

namespace cf::cardiac {

namespace {

// Rows for [lo, hi] with `step`, 0 when the range is unusable. The guard keeps
// (100 - -100)/0.01 = 19999.999999999996 from losing the last row.
std::size_t rowsFor(double lo, double hi, double step) {
    if (!std::isfinite(lo) || !std::isfinite(hi) || !std::isfinite(step) || !(lo < hi) ||
        !(step > 0))
        return 0;
    const double n = std::floor((hi - lo) / step + 1e-9) + 1.0;
    if (n < 2.0 || n > static_cast<double>(kMaxLookupRows)) return 0;
    return static_cast<std::size_t>(n);
}

std::string rangeProblem(const std::string& name, double lo, double hi, double step) {
    return "lookup over '" + name + "': needs lo < hi, step > 0 and 2 to " +
           std::to_string(kMaxLookupRows) + " rows; got (" + formatShort(lo) + ", " +
           formatShort(hi) + ", " + formatShort(step) + ")";
}

// Calls worth a table entry: a libm call; pow unless it is a small integer power (which
// the evaluator and the emitter compute as a product).
bool costly(const Term& t) {
    switch (t.op) {
        case Op::Exp:
        case Op::Expm1:
        case Op::Log:
        case Op::Log1p:
        case Op::Log10:
        case Op::LogBase:
        case Op::Sqrt:
        case Op::Sin:
        case Op::Cos:
        case Op::Tan:
        case Op::Asin:
        case Op::Acos:
        case Op::Atan:
        case Op::Sinh:
        case Op::Cosh:
        case Op::Tanh:
            return true;
        case Op::Pow:
            if (smallIntegerExponent(*t.args[1]) == 0) return true;
            break;
        default:
            break;
    }
    for (const TermPtr& a : t.args)
        if (costly(*a)) return true;
    return false;
}

void reads(const Term& t, std::vector<int>& out) {
    if (t.op == Op::Var) out.push_back(t.var);
    for (const TermPtr& a : t.args)
        reads(*a, out);
}

// The variables tabulation may look at, by index, for `key` (the potential).
struct Classes {
    std::vector<bool> keyOnly;    // depends on nothing but key, parameters and constants
    std::vector<bool> readsKey;   // ... and on key itself
    std::vector<bool> candidate;  // keyOnly, readsKey and costly (itself or through one)
};

Classes classify(const CheckedModel& m, int key) {
    const std::size_t n = m.vars.size();
    Classes c{std::vector<bool>(n, false), std::vector<bool>(n, false),
              std::vector<bool>(n, false)};
    std::vector<bool> expensive(n, false);
    // m.order puts every variable after the ones it reads, so one pass sees them decided.
    for (int d : m.order) {
        const std::size_t v = static_cast<std::size_t>(d);
        if (d == m.stimulus || !m.vars[v].expr) continue;
        std::vector<int> r;
        reads(*m.vars[v].expr, r);
        bool ok = true, key1 = false, cost = costly(*m.vars[v].expr);
        for (int x : r) {
            const std::size_t u = static_cast<std::size_t>(x);
            if (x == key) {
                key1 = true;
            } else if (m.vars[u].kind == VarKind::Param) {
            } else if (m.vars[u].kind == VarKind::Defined && c.keyOnly[u]) {
                key1 = key1 || c.readsKey[u];
                cost = cost || expensive[u];
            } else {
                ok = false;  // another state, time, the stimulus or what reads them
            }
        }
        c.keyOnly[v] = ok;
        c.readsKey[v] = ok && key1;
        expensive[v] = ok && cost;
        c.candidate[v] = ok && key1 && cost;
    }
    return c;
}

}  // namespace

std::size_t lookupRows(const LookupPlan& plan) {
    return rowsFor(plan.lo, plan.hi, plan.step);
}

LookupPlan planLookup(const CheckedModel& m, double lo, double hi, double step) {
    const std::string keyName =
        m.potential >= 0 ? m.vars[static_cast<std::size_t>(m.potential)].name : "?";
    if (rowsFor(lo, hi, step) == 0)
        throw ModelError(
            {{m.file, {}, Severity::Error, "E162", rangeProblem(keyName, lo, hi, step)}});
    LookupPlan plan;
    plan.key = m.potential;
    plan.lo = lo;
    plan.hi = hi;
    plan.step = step;
    const Classes c = classify(m, m.potential);
    // A candidate gets a column when something that is not itself tabulated reads it.
    std::vector<bool> used(m.vars.size(), false);
    auto markReads = [&](const Term& t) {
        std::vector<int> r;
        reads(t, r);
        for (int x : r)
            used[static_cast<std::size_t>(x)] = true;
    };
    for (int d : m.order)
        if (!c.candidate[static_cast<std::size_t>(d)] && m.vars[static_cast<std::size_t>(d)].expr)
            markReads(*m.vars[static_cast<std::size_t>(d)].expr);
    for (const StateInfo& s : m.states) {
        if (s.rate) markReads(*s.rate);
        if (s.slope) markReads(*s.slope);
    }
    for (int d : m.order)
        if (c.candidate[static_cast<std::size_t>(d)] && used[static_cast<std::size_t>(d)])
            plan.columns.push_back(d);
    return plan;
}

void applyLookup(CheckedModel& m, double lo, double hi, double step) {
    m.lookup = planLookup(m, lo, hi, step);
}

void attachLookups(const ModelAst& ast, CheckedModel& m, DiagnosticSink& sink) {
    const Lookup* first = nullptr;
    for (const Lookup& l : ast.lookups) {
        if (first != nullptr) {
            sink.error(l.pos, "E111", "'lookup' is already given");
            sink.note(first->pos, "E111", "first definition is here");
            continue;
        }
        first = &l;
        int index = m.find(l.name);
        if (index < 0 && l.name.find('.') == std::string::npos) {
            for (std::size_t v = 0; v < m.vars.size(); ++v) {
                if (m.vars[v].kind == VarKind::Time || unqualifiedName(m.vars[v].name) != l.name)
                    continue;
                index = index < 0 ? static_cast<int>(v) : std::numeric_limits<int>::max();
            }
            if (index == std::numeric_limits<int>::max()) index = -2;  // ambiguous
        }
        if (index == -1) {
            sink.error(l.pos, "E110", "undefined name '" + l.name + "'");
            continue;
        }
        if (index != m.potential) {
            sink.error(l.pos, "E161",
                       "lookup over '" + l.name + "': only the potential state can key a table");
            continue;
        }
        if (rowsFor(l.lo, l.hi, l.step) == 0) {
            sink.error(l.pos, "E162", rangeProblem(l.name, l.lo, l.hi, l.step));
            continue;
        }
        m.lookup = planLookup(m, l.lo, l.hi, l.step);
    }
}

std::vector<double> buildTable(const CheckedModel& m, const LookupPlan& plan,
                               const std::vector<double>& params) {
    const std::size_t rows = lookupRows(plan), cols = plan.columns.size();
    // The defined variables the columns read, directly or not (all key-only by the plan).
    std::vector<bool> needed(m.vars.size(), false);
    for (int c : plan.columns)
        needed[static_cast<std::size_t>(c)] = true;
    for (auto it = m.order.rbegin(); it != m.order.rend(); ++it) {
        if (!needed[static_cast<std::size_t>(*it)]) continue;
        std::vector<int> r;
        reads(*m.vars[static_cast<std::size_t>(*it)].expr, r);
        for (int x : r)
            if (m.vars[static_cast<std::size_t>(x)].kind == VarKind::Defined)
                needed[static_cast<std::size_t>(x)] = true;
    }
    std::vector<int> order;
    for (int d : m.order)
        if (needed[static_cast<std::size_t>(d)]) order.push_back(d);
    // Anything else stays NaN: a column that read it would show as NaN, not as a guess.
    std::vector<double> values(m.vars.size(), std::numeric_limits<double>::quiet_NaN());
    for (std::size_t p = 0; p < m.params.size() && p < params.size(); ++p)
        values[static_cast<std::size_t>(m.params[p])] = params[p];
    std::vector<double> table(rows * cols);
    for (std::size_t i = 0; i < rows; ++i) {
        values[static_cast<std::size_t>(plan.key)] = plan.lo + static_cast<double>(i) * plan.step;
        for (int d : order)
            values[static_cast<std::size_t>(d)] =
                evaluate(*m.vars[static_cast<std::size_t>(d)].expr, values);
        for (std::size_t c = 0; c < cols; ++c)
            table[i * cols + c] = values[static_cast<std::size_t>(plan.columns[c])];
    }
    return table;
}

LookupPoint lookupPoint(const LookupPlan& plan, std::size_t rows, double v) {
    LookupPoint p;
    double x = (v - plan.lo) / plan.step;
    const double last = static_cast<double>(rows - 1);
    if (!(x >= 0.0)) {  // below the table, or NaN
        x = 0.0;
        p.clamped = true;
    } else if (x > last) {
        x = last;
        p.clamped = true;
    }
    const double i = std::fmin(std::floor(x), last - 1.0);
    p.row = static_cast<std::size_t>(i);
    p.weight = x - i;
    return p;
}

}  // namespace cf::cardiac
