// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/lang/invariants.hpp"

#include "sim/models/cardiac/lang/cell_program.hpp"

namespace cf::cardiac {

namespace {

bool readsVariable(const Term& t) {
    if (t.op == Op::Var) return true;
    for (const TermPtr& a : t.args)
        if (readsVariable(*a)) return true;
    return false;
}

}  // namespace

InvariantTerms::InvariantTerms(const CheckedModel& m) : m_(m), variable_(m.vars.size(), -1) {}

bool InvariantTerms::variableInvariant(int v) const {
    const Variable& var = m_.vars[static_cast<std::size_t>(v)];
    switch (var.kind) {
        case VarKind::Param:
            return true;
        case VarKind::State:
        case VarKind::Time:
            return false;
        case VarKind::Defined:
            // The stimulus-bound variable takes the protocol's value in the stimulated region.
            return v != m_.stimulus && var.expr && invariant(*var.expr);
    }
    return false;
}

bool InvariantTerms::invariant(const Term& t) const {
    if (t.op == Op::Const) return true;
    if (const auto it = memo_.find(&t); it != memo_.end()) return it->second;
    bool result = true;
    if (t.op == Op::Var) {
        signed char& known = variable_[static_cast<std::size_t>(t.var)];
        if (known < 0) known = variableInvariant(t.var) ? 1 : 0;
        result = known == 1;
    } else {
        for (const TermPtr& a : t.args)
            if (!invariant(*a)) {
                result = false;
                break;
            }
    }
    memo_[&t] = result;
    return result;
}

bool InvariantTerms::hoistable(const Term& t) const {
    if (t.op == Op::Const || t.op == Op::Var || isCondition(t)) return false;
    if (!invariant(t)) return false;
    // A term of constants alone is folded by the compiler: only one that reads a parameter.
    return readsVariable(t);
}

std::vector<double> invariantValues(const CheckedModel& m, const std::vector<TermPtr>& terms,
                                    const std::vector<double>& params) {
    std::vector<double> values(m.vars.size(), 0.0);
    for (std::size_t k = 0; k < m.params.size() && k < params.size(); ++k)
        values[static_cast<std::size_t>(m.params[k])] = params[k];
    // The invariant defined variables in dependency order (the others stay 0: no invariant
    // term reads them).
    const InvariantTerms analysis(m);
    for (int v : m.order) {
        const Variable& var = m.vars[static_cast<std::size_t>(v)];
        if (v != m.stimulus && var.expr && analysis.invariant(*var.expr))
            values[static_cast<std::size_t>(v)] = evaluate(*var.expr, values);
    }
    std::vector<double> out;
    out.reserve(terms.size());
    for (const TermPtr& t : terms)
        out.push_back(evaluate(*t, values));
    return out;
}

}  // namespace cf::cardiac
