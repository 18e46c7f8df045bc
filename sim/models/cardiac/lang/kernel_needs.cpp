// SPDX-License-Identifier: GPL-3.0-or-later
#include "sim/models/cardiac/lang/kernel_needs.hpp"

#include <functional>

namespace cf::cardiac {

KernelNeeds kernelNeeds(const CheckedModel& m, const std::map<int, std::size_t>& tabulated,
                        std::size_t begin, std::size_t end, bool last) {
    KernelNeeds n{std::vector<bool>(m.vars.size(), false),
                  std::vector<bool>(m.states.size(), false), false};
    std::function<void(const Term&)> visit;
    std::function<void(int)> mark = [&](int v) {
        const Variable& var = m.vars[static_cast<std::size_t>(v)];
        if (var.kind == VarKind::State) {
            n.state[static_cast<std::size_t>(m.stateOf(v))] = true;
        } else if (var.kind == VarKind::Defined && !n.var[static_cast<std::size_t>(v)]) {
            n.var[static_cast<std::size_t>(v)] = true;
            if (tabulated.count(v) != 0) {
                n.table = true;
                mark(m.lookup->key);
            } else if (var.expr) {
                visit(*var.expr);
            }
        }
    };
    visit = [&](const Term& t) {
        if (t.op == Op::Var) mark(t.var);
        for (const TermPtr& a : t.args)
            visit(*a);
    };
    for (std::size_t s = begin; s < end; ++s) {
        const StateInfo& info = m.states[s];
        n.state[s] = true;
        visit(*info.rate);
        if (info.method != Method::ForwardEuler) visit(*info.slope);
        if (info.method == Method::RushLarsen && info.intercept) visit(*info.intercept);
    }
    if (last) mark(m.potential);
    return n;
}

}  // namespace cf::cardiac
